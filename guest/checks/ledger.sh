# LMB's ledger after boot (/proc/lmb, lmb=nokeep turns it off):
#  - the reconciliation adds up to MemTotal, to the page: what LMB handed
#    to the page allocator + what memblock_free_late() gave later + what the
#    kernel's "Freeing ... memory: NK" lines say + the gigantic pages
#    hugetlb took from early memory (hugepagesz=1G hugepages=N: LMB keeps
#    them reserved at the hand-over, hugetlb adds them to MemTotal later
#    with no "Freeing" line; this guest allocates none at run time)
#    + the CMA areas (LMB reserves them, cma_activate_area() gives their
#    pages to the page allocator without a "Freeing" line: CmaTotal)
#    - s390's zero pages (taken from the page allocator after it)
#    = MemTotal (any remainder is printed);
#  - every owner of 64 KiB or more has a name, not a caller;
#  - no reservation lost its name ("(names lost)");
#  - no no-map memory is without a name (device-tree no-map regions,
#    EFI runtime services and reserved memory are named);
#  - /proc/lmb/owners is readable by an unprivileged user, and shows it no
#    kernel address, not even as an owner's name;
#  - /proc/lmb/ranges shows addresses to root and only zeros to others.
# Prints both views (the harness draws the memory map from the ranges).
o=/proc/lmb/owners r=/proc/lmb/ranges
if grep -qw 'lmb=nokeep' /proc/cmdline; then
	[ ! -e "$o" ] || { echo "lmb=nokeep, yet $o exists"; exit 1; }
	echo "lmb=nokeep: no $o, as asked"
	exit 0
fi
if [ ! -e "$o" ] && ! dmesg | grep -q 'lmb: '; then
	echo "not an LMB kernel (no /proc/lmb, no lmb: line): nothing to reconcile"
	exit 0
fi
[ -r "$o" ] && [ -r "$r" ] || { echo "no $o or $r"; exit 1; }
sed 's/^/lmb-owners: /' "$o"
sed 's/^/lmb-ranges: /' "$r"

# "= handed ... N": the first number after the label.
term() { awk -v l="$1" 'index($0, l) == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+$/) { print $i; exit } }' "$o"; }
handed=$(term "= handed to the page allocator")
late=$(term "+ freed late")
total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
freeing=$(dmesg | awk '/Freeing .* memory: [0-9]+K/ { s = $0; sub(/.*memory: /, "", s); sub(/K.*/, "", s); n += s } END { print n + 0 }')
[ -n "$handed" ] && [ -n "$late" ] && [ -n "$total" ] || { echo "cannot read the reconciliation"; exit 1; }
# gigantic: larger than the buddy allocator's largest block (4 MiB on x86)
giga=0
for d in /sys/kernel/mm/hugepages/hugepages-*kB; do
	[ -d "$d" ] || continue
	kb=${d##*/hugepages-}
	kb=${kb%kB}
	[ "$kb" -gt 4096 ] && giga=$((giga + $(cat "$d/nr_hugepages") * kb))
done
cma=$(awk '/^CmaTotal:/ { print $2 }' /proc/meminfo)
cma=${cma:-0}
# s390's zero pages: setup_zero_pages() takes 4 KiB << order from the page
# allocator after the hand-over and marks them reserved, with no line:
# order 7 (512 KiB), one less for each halving of memory below 512 MiB of
# free pages (MemTotal stands for memblock_estimated_nr_free_pages() here)
zero=0
if [ "$(uname -m)" = s390x ]; then
	ord=7
	while [ "$ord" -gt 2 ] && [ $((total / 4 >> 10)) -lt $((1 << ord)) ]; do ord=$((ord - 1)); done
	zero=$((4 << ord))
fi
rest=$((total - handed - late - freeing - giga - cma + zero))
echo "reconciliation: handed $handed + freed late $late + Freeing lines $freeing + boot gigantic pages $giga + CMA $cma - s390 zero pages $zero = $((handed + late + freeing + giga + cma - zero)) KiB; MemTotal $total KiB; remainder $rest KiB"
ok=0
[ "$rest" = 0 ] || { echo "FAIL: $rest KiB of MemTotal unaccounted"; ok=1; }

# Every owner of 64 KiB or more has a name: an unnamed one shows as its
# caller, a function of /proc/kallsyms, or an address. (A lower-case name
# is no caller by its looks: device trees name regions "fastrpc".)
anon=$(awk 'BEGIN { while ((getline l < "/proc/kallsyms") > 0) { split(l, w, " "); if (w[2] ~ /^[tTwW]$/) fn[w[3]] = 1 } }
	NR > 1 && $1 !~ /^#/ && $3 + $5 >= 65536 {
	n = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+ +/, "", n)
	f = n; sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", f)
	if (n ~ /^0x[0-9a-f]+$/ || f in fn)
		printf "%s (%d bytes) ", n, $3 + $5 }' "$o")
[ -z "$anon" ] || { echo "FAIL: owners of 64 KiB or more without a name: $anon"; ok=1; }

# Every reservation kept its name: the ledger grows with its pieces (its
# static array holds only those made before memblock_allow_resize()).
lost=$(grep '(names lost)$' "$o")
[ -z "$lost" ] || { echo "FAIL: names lost: $lost"; ok=1; }

# No-map memory has names: what none names is the reconciliation's
# "- no-map memory" line.
nomap=$(term "- no-map memory")
if [ -z "$nomap" ]; then
	echo "FAIL: no \"- no-map memory\" line in $o"; ok=1
elif [ "$nomap" != 0 ]; then
	echo "FAIL: $nomap KiB of no-map memory without a name"; ok=1
fi

# Privacy: others read the owners, and no address.  busybox su as root
# asks no password; the initramfs has no /etc/passwd of its own.
mkdir -p /etc
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
nobody() { su -s /bin/sh nobody -c "$*"; }
[ "$(nobody id -u)" = 65534 ] || { echo "FAIL: cannot run as uid 65534: $(nobody id -u 2>&1)"; exit 1; }
if ! nobody cat "$o" >/tmp/o.nobody 2>&1; then
	echo "FAIL: an unprivileged user cannot read $o"; ok=1
fi
nobody cat "$r" >/tmp/r.nobody 2>&1
sed 's/^/lmb-ranges (uid 65534): /' /tmp/r.nobody | head -n 3
if grep -v '^0000000000000000-0000000000000000 : ' /tmp/r.nobody | grep -q .; then
	echo "FAIL: an unprivileged user sees addresses in $r"; ok=1
fi
# nor as an owner's name (an unnamed caller without kallsyms is its address)
if grep -q '0x[0-9a-f]\{8,\}' /tmp/o.nobody /tmp/r.nobody; then
	echo "FAIL: an unprivileged user sees kernel addresses as owner names: $(grep -o -m 2 '0x[0-9a-f]\{8,\}' /tmp/o.nobody | tr '\n' ' ')"; ok=1
fi
if ! grep -v '^0000000000000000-0000000000000000 : ' "$r" | grep -q .; then
	echo "FAIL: root sees no address in $r"; ok=1
fi

# The pages LMB keeps after boot (its ledger) are reserved pages whose
# struct pages were initialised: /proc/kpageflags has KPF_RESERVED (bit 32)
# for each (a table reserved after the reserved pages were initialised
# shows garbage there, or oopses the reader on deferred struct pages).
kpf=/proc/kpageflags pages=0
if [ ! -r "$kpf" ]; then
	echo "FAIL: no $kpf (CONFIG_PROC_PAGE_MONITOR)"; ok=1
fi
for rg in $(awk '/ : LMB LEDGER$/ { print $1 }' "$r"); do
	[ -r "$kpf" ] || break
	p=$((0x${rg%-*} >> 12)) last=$((0x${rg#*-} >> 12))
	while [ "$p" -le "$last" ]; do
		f=$(dd if=$kpf bs=8 skip="$p" count=1 2>/dev/null | od -An -tu8 | tr -d ' ')
		if [ -z "$f" ] || [ $(((f >> 32) & 1)) != 1 ]; then
			echo "FAIL: pfn $p of LMB LEDGER is not PageReserved (kpageflags ${f:-unreadable})"; ok=1
		fi
		pages=$((pages + 1)) p=$((p + 1))
	done
done
if ! grep -q ' : LMB LEDGER$' "$r"; then
	echo "FAIL: $r lists no range of LMB LEDGER, the table itself"; ok=1
elif [ -r "$kpf" ]; then
	[ "$pages" -gt 0 ] || { echo "FAIL: no page of LMB LEDGER read"; ok=1; }
	echo "kpageflags: $pages pages of LMB LEDGER read, each must be reserved"
fi
exit $ok
