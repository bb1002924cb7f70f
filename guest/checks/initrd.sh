# The big initrd (rows with the 'bigrd' option): relocate_initrd() moved it
# ("Move RAMDISK" in the kernel log) and the moved copy is intact (/pad, the
# random padding archive, matches its md5sum).
dmesg | grep -E 'RAMDISK' || echo "no RAMDISK lines in dmesg"
[ -f /pad ] || { echo "no /pad: this is not the big initrd"; exit 1; }
ls -l /pad
md5sum -c /pad.md5 || exit 1
dmesg | grep -q 'Move RAMDISK' || { echo "the initrd was not relocated"; exit 1; }
! dmesg | grep 'Initramfs unpacking failed' || exit 1
