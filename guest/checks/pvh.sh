# pvh: this kernel entered through its Xen PVH entry (QEMU -kernel vmlinux:
# rows with the option pvh). init_pvh_bootparams() builds boot_params
# itself with boot protocol version 2.12 (0x020c); a bzImage started by
# QEMU's or OVMF's loader keeps its header's version (2.15 in 6.12).
. /lmbtest-lib.sh
f=/sys/kernel/boot_params/data
[ -r $f ] || fail "no $f"
v=$(od -A n -t x2 -j $((0x206)) -N 2 $f | tr -d ' ')
t=$(od -A n -t x1 -j $((0x210)) -N 1 $f | tr -d ' ')
echo "boot protocol version 0x$v, type_of_loader 0x$t"
dmesg | grep -iE 'pvh|BIOS-e820' | sed 's/^\[[ 0-9.]*\] //' | head -n 12
[ "$v" = 020c ] || fail "boot protocol 0x$v: not the PVH entry (0x020c)"
