# kaslr: the kernel was really randomised (rows without nokaslr): its
# physical load address (/proc/iomem "Kernel code") is not the default
# 16 MiB, or its text not at 0xffffffff81000000.
. /lmbtest-lib.sh
grep -qw nokaslr /proc/cmdline && fail "nokaslr on the command line"
pa=$(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Kernel code$/\1/p' /proc/iomem)
va=$(awk '$3 == "_text" { print $1 }' /proc/kallsyms)
echo "Kernel code at physical 0x$pa, _text at 0x$va"
dmesg | grep -E 'KASLR|Kernel Offset' | sed 's/^\[[ 0-9.]*\] //'
# (/proc/iomem pads to 8 digits below 4G: compare numbers, not strings)
[ -n "$pa" ] && [ -n "$va" ] || fail "no Kernel code in /proc/iomem or no _text in /proc/kallsyms"
[ $((0x$pa)) != $((0x1000000)) ] || [ "$va" != ffffffff81000000 ] || fail "kernel at the default addresses: KASLR did not move it"
