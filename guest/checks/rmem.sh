# The device tree's /reserved-memory regions by name: each region the kernel
# reserves (all but no-map ones, which leave memory instead) is an owner in
# /proc/lmb/owners under its node name ("ramoops@7e400000", "linux,cma");
# no-map regions are listed only. Prints each region with its ledger line.
d=/proc/device-tree/reserved-memory o=/proc/lmb/owners
[ -d "$d" ] || { echo "FAIL: no $d (the row's device tree has no /reserved-memory)"; exit 1; }
[ -r "$o" ] || { echo "FAIL: no $o"; exit 1; }
# owners' names: what follows the first five columns
awk 'NR > 1 && $1 !~ /^#/ { n = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+ +/, "", n); print n "\t" $0 }' "$o" >/tmp/owners
ok=0 n=0
for node in "$d"/*; do
	[ -d "$node" ] || continue
	name=${node##*/}
	if [ -e "$node/no-map" ]; then
		echo "$name: no-map"
		continue
	fi
	n=$((n + 1))
	line=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' /tmp/owners)
	if [ -n "$line" ]; then
		echo "$name: $line"
	else
		echo "FAIL: $name is reserved but is no owner in $o"; ok=1
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no region of $d is reserved"; ok=1; }
echo "$n reserved regions of $d checked"
exit $ok
