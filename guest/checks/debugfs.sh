# debugfs is mounted, and memblock's files are there exactly when the
# kernel keeps memblock after boot (ARCH_KEEP_MEMBLOCK: the row says
# lmbtest.keep=1): /sys/kernel/debug/memblock/{memory,reserved}, each line
# "N: 0xBASE..0xLAST NODE FLAG" as memblock prints them; a kernel that
# discards memblock has no such directory.
. /lmbtest-lib.sh
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || { echo "debugfs not mounted"; exit 1; }
d=/sys/kernel/debug/memblock
if [ "$(param lmbtest.keep)" != 1 ]; then
	[ ! -e "$d" ] || { echo "FAIL: $d exists, but this kernel discards memblock"; exit 1; }
	echo "no $d (memblock discarded after boot), as expected"
	exit 0
fi
ok=0
for f in memory reserved; do
	[ -r "$d/$f" ] || { echo "FAIL: no $d/$f, but this kernel keeps memblock"; ok=1; continue; }
	sed "s/^/memblock-$f: /" "$d/$f"
	n=$(grep -c . "$d/$f")
	bad=$(grep -cv '^ *[0-9][0-9]*: 0x[0-9a-f]\{16\}\.\.0x[0-9a-f]\{16\} \+\([0-9][0-9]*\|x\) \(NONE\|\(HOTPLUG\|MIRROR\|NOMAP\|DRV_MNG\|RSV_NIT\)\(|\(HOTPLUG\|MIRROR\|NOMAP\|DRV_MNG\|RSV_NIT\)\)*\)$' "$d/$f")
	[ "$n" -gt 0 ] || { echo "FAIL: $d/$f is empty"; ok=1; }
	[ "$bad" = 0 ] || { echo "FAIL: $bad lines of $d/$f are not in memblock's format"; ok=1; }
	echo "$d/$f: $n regions"
done
exit $ok
