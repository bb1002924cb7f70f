# The device tree's /reserved-memory regions by name: each region is an
# owner in /proc/lmb/owners under its node name ("ramoops@7e400000",
# "linux,cma"), the regions the kernel reserves and the no-map ones that
# lie in memory (which leave memory instead of being reserved: what a
# phone's boot takes from its RAM, 913 MiB on a Snapdragon 8 Gen 2). The
# no-map owners' pages and the ledger's unnamed "no-map memory" add up to
# the no-map regions in memory, to the KiB. Regions of size 0 reserve
# nothing. Prints each region with its ledger line.
d=/proc/device-tree/reserved-memory o=/proc/lmb/owners
[ -d "$d" ] || { echo "FAIL: no $d (the row's device tree has no /reserved-memory)"; exit 1; }
[ -r "$o" ] || { echo "FAIL: no $o"; exit 1; }
# owners' names: what follows the first five columns
awk 'NR > 1 && $1 !~ /^#/ { n = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+ +/, "", n); print n "\t" $0 }' "$o" >/tmp/owners
# u64 FILE: its 64-bit big-endian numbers, one per line; reg FILE: "ADDR
# SIZE" per entry (2 address and 2 size cells, as QEMU's virt tree and the
# grafted fragments have)
u64() {
	od -An -v -tx1 "$1" | awk '
	function h(x) { return (index("0123456789abcdef", substr(x, 1, 1)) - 1) * 16 + index("0123456789abcdef", substr(x, 2, 1)) - 1 }
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END { for (j = 0; j + 8 <= n; j += 8) { v = 0; for (k = 0; k < 8; k++) v = v * 256 + h(b[j + k]); printf "%.0f\n", v } }'
}
reg() { u64 "$1" | awk 'NR % 2 { a = $1; next } { print a, $1 }'; }
for m in /proc/device-tree/memory*; do reg "$m/reg"; done | sed 's/^/M /' >/tmp/mem
# kib: KiB of whole pages (4 KiB, as the ledger counts them) in memory of
# the ranges "ADDR SIZE" on stdin, merged as the kernel merges no-map memory
kib() {
	sed 's/^/N /' | cat /tmp/mem - | awk '
	$1 == "M" { ma[++nm] = $2; me[nm] = $2 + $3; next }
	{ for (i = 1; i <= nm; i++) {	# the part of [a, e) in memory range i
		a = $2 > ma[i] ? $2 : ma[i]; e = $2 + $3 < me[i] ? $2 + $3 : me[i]
		if (e > a) { k++; ra[k] = a; re[k] = e } } }
	END { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (ra[j] < ra[i]) {
			t = ra[i]; ra[i] = ra[j]; ra[j] = t; t = re[i]; re[i] = re[j]; re[j] = t }
		n = 0
		for (i = 1; i <= k; i++)
			if (n && ra[i] <= me2[n]) { if (re[i] > me2[n]) me2[n] = re[i] }
			else { n++; ms2[n] = ra[i]; me2[n] = re[i] }
		s = 0
		for (i = 1; i <= n; i++) {
			a = int((ms2[i] + 4095) / 4096); e = int(me2[i] / 4096)
			if (e > a) s += e - a }
		printf "%.0f\n", s * 4 }'
}
ok=0 n=0 all=0 named=0
: >/tmp/nomap
for node in "$d"/*; do
	[ -d "$node" ] || continue
	name=${node##*/}
	all=$((all + 1))
	if [ -e "$node/no-map" ]; then
		[ -e "$node/reg" ] || { echo "$name: no-map, placed by the kernel"; continue; }
		reg "$node/reg" >>/tmp/nomap
		k=$(reg "$node/reg" | kib)
		line=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' /tmp/owners)
		if [ "$k" = 0 ]; then
			echo "$name: no-map, not in memory"
		elif [ -n "$line" ]; then
			echo "$name: no-map, $k KiB in memory: $line"
			named=$((named + $(echo "$line" | awk '{ print $2 }')))
		else
			echo "FAIL: $name is no-map memory ($k KiB) but is no owner in $o"; ok=1
		fi
		continue
	fi
	# a region of size 0 (reg or size): the kernel reserves nothing
	if [ -e "$node/reg" ]; then sz=$(reg "$node/reg" | awk '{ s += $2 } END { printf "%.0f", s }')
	else sz=$(u64 "$node/size" 2>/dev/null); fi
	if [ "${sz:-0}" = 0 ]; then
		echo "$name: size 0, nothing to reserve"
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
[ "$all" -gt 0 ] || { echo "FAIL: $d has no region"; ok=1; }
echo "$n reserved regions of $d checked"
# no-map: the union of the regions in memory (a no-map region that a
# reservation overlaps is not subtracted: the trees here have none)
want=$(kib </tmp/nomap)
got=$(awk '$1 == "-" && $2 == "no-map" && $3 == "memory" { print $4 }' "$o")
echo "no-map regions in memory: ${want} KiB; their owners' pages: $named KiB, the ledger's unnamed no-map memory: ${got:-none} KiB"
[ "$want" = "$((named + ${got:-0}))" ] && [ -n "$got" ] ||
	{ echo "FAIL: the no-map owners and the ledger's no-map memory are not the device tree's no-map regions"; ok=1; }
exit $ok
