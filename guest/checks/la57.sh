# la57: 5-level paging is on (rows with the option cpu=max). The kernel
# prints no message for it in 6.12; two signs instead: /proc/cpuinfo shows
# la57 only when it is enabled (cpu/common.c clears the flag otherwise),
# and vmalloc addresses lie in the 57-bit kernel half (below
# 0xffff800000000000, where 4-level paging cannot map anything).
. /lmbtest-lib.sh
grep -m1 '^flags' /proc/cpuinfo | grep -qw la57 || fail "no la57 in /proc/cpuinfo flags: 4-level paging"
echo "la57 in /proc/cpuinfo"
# %pK shows real addresses to root only with kptr_restrict=1 (0 hashes them)
echo 1 >/proc/sys/kernel/kptr_restrict
a=$(awk '$1 ~ /^0x/ { split($1, r, "-"); print r[1]; exit }' /proc/vmallocinfo)
echo "first vmalloc area at $a"
case $a in
0xffff[89a-f]*) fail "vmalloc area $a: 4-level layout" ;;
0xff[0-9a-f]*) echo "vmalloc in the 5-level layout" ;;
*) fail "cannot read a kernel address from /proc/vmallocinfo ($a)" ;;
esac
