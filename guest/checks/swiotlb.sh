# swiotlb: the software IO TLB has the size swiotlb=SLABS asks for (2K per
# slab: 65536 slabs = 128 MiB), taken from early memory.
. /lmbtest-lib.sh
dmesg | grep 'software IO TLB' | sed 's/^\[[ 0-9.]*\] //'
slabs=$(param swiotlb | sed 's/,.*//')
[ -n "$slabs" ] || fail "no swiotlb= on the command line"
mb=$((slabs * 2048 >> 20))
dmesg | grep -q "software IO TLB: mapped \[mem .*\] (${mb}MB)" || fail "no 'software IO TLB: mapped ... (${mb}MB)' line"
