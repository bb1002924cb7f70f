# virtio-mem: resize a virtio-mem-pci device (rows with the options monitor
# and vmem=SIZE: QEMU id lmbvmem0, requested-size 0 at boot). Through the
# harness and the QEMU monitor: requested-size lmbtest.vmem= (default 512M);
# the driver plugs and onlines that much (movable with
# memhp_default_state=online_movable) and MemTotal grows by it (virtio-mem
# keeps the memmap outside the device: the whole size); then requested-size
# 0: it unplugs it all and MemTotal is back. Waits are bounded
# (lmbtest.hpwait= seconds, default 60). On LMB, /proc/lmb is read all
# along (lmb_readers_start in /lmbtest-lib.sh).
. /lmbtest-lib.sh
size=$(param lmbtest.vmem || echo 512M)
wait=$(param lmbtest.hpwait || echo 60)
bytes=$(($(echo "$size" | sed 's/G$/*1073741824/; s/M$/*1048576/')))
ls -d /sys/bus/virtio/drivers/virtio_mem/virtio* >/dev/null 2>&1 || fail "no device bound to the virtio_mem driver (row without vmem=, or CONFIG_VIRTIO_MEM missing)"
dmesg | grep -i 'virtio_mem' | sed 's/^\[[ 0-9.]*\] //' | head -n 8
t0=$(memtotal)
echo "MemTotal ${t0}K; requesting $size"
lmb_readers_start
say "virtio-mem: requested-size $size through the monitor"
mon qom-set lmbvmem0 requested-size $bytes
grown() { [ $(($(memtotal) - t0)) -ge $((bytes / 1024)) ]; }
wait_for "$wait" grown || fail "MemTotal grew by $(($(memtotal) - t0))K in ${wait}s, want $((bytes / 1024))K"
t1=$(memtotal)
echo "MemTotal ${t1}K after plugging: +$((t1 - t0))K"
[ $((t1 - t0)) = $((bytes / 1024)) ] || fail "MemTotal grew by $((t1 - t0))K, want $((bytes / 1024))K"
lmb_readers_wait "$t1" "$wait"
say "virtio-mem: requested-size 0 through the monitor"
mon qom-set lmbvmem0 requested-size 0
back() { [ "$(memtotal)" = "$t0" ]; }
wait_for "$wait" back || fail "MemTotal $(memtotal)K ${wait}s after requested-size 0, want ${t0}K"
echo "MemTotal ${t0}K again after unplugging"
lmb_readers_stop
