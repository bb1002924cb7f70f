# kfence: KFENCE is enabled (kfence.sample_interval= non-zero: its pool was
# allocated from early memory) and has its objects.
. /lmbtest-lib.sh
f=/sys/kernel/debug/kfence/stats
[ -r $f ] || fail "no $f (debugfs, CONFIG_KFENCE)"
cat $f
grep -q '^enabled: 1' $f || fail "KFENCE is not enabled"
dmesg | grep -i kfence | sed 's/^\[[ 0-9.]*\] //'
dmesg | grep -q 'kfence: initialized' || fail "no 'kfence: initialized' in the kernel log"
