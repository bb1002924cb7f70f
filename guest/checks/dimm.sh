# dimm: runtime memory hotplug of a QEMU pc-dimm (rows with the option
# monitor and maxmem=: -m MEM,slots=4,maxmem=MAX). Through the harness and
# the QEMU monitor: object_add + device_add a lmbtest.dimm= (default 1G)
# DIMM; its memory blocks appear, are onlined (movable) and MemTotal grows by
# the DIMM minus its memmap when memory_hotplug.memmap_on_memory is on (the
# struct pages then live on the DIMM: 64 bytes per 4K page), by the whole
# DIMM when it is off; then offline, device_del: the blocks go and MemTotal
# is back. Every wait is bounded (lmbtest.hpwait= seconds, default 60).
# lmbtest.dimmnode=N plugs the DIMM into NUMA node N: its blocks must be
# on node N, and with memmap_on_memory off its memmap comes from node N's
# boot memory, so vmemmap_verify() must not call it off-node (it asks
# early_pfn_to_nid() about boot memory after LMB is gone). On LMB, /proc/lmb
# is read all along (lmb_readers_start in /lmbtest-lib.sh).
. /lmbtest-lib.sh
M=/sys/devices/system/memory
size=$(param lmbtest.dimm || echo 1G)
node=$(param lmbtest.dimmnode || true)
wait=$(param lmbtest.hpwait || echo 60)
bytes=$(($(echo "$size" | sed 's/G$/*1073741824/; s/M$/*1048576/')))
blk=$((0x$(cat $M/block_size_bytes)))
mom=$(cat /sys/module/memory_hotplug/parameters/memmap_on_memory 2>/dev/null || echo N)
blocks() { ls -d $M/memory[0-9]* | sed 's|.*/memory||' | sort -n; }
blocks >/tmp/blocks.0
t0=$(memtotal) n0=$(wc -l </tmp/blocks.0)
case $mom in Y|y|1|force) grow=$((bytes - bytes / 4096 * 64)) ;; *) grow=$bytes ;; esac
echo "MemTotal ${t0}K, $n0 memory blocks of $blk bytes; memmap_on_memory=$mom: want +$((grow / 1024))K for a $size DIMM"
new() { blocks | grep -vxF -f /tmp/blocks.0; }
nnew() { new | wc -l; }
want=$((bytes / blk))
lmb_readers_start
say "dimm: hot-adding a $size pc-dimm through the monitor"
mon object_add memory-backend-ram,id=lmbhp0,size=$size
mon device_add pc-dimm,id=lmbdimm0,memdev=lmbhp0${node:+,node=$node}
have() { [ "$(nnew)" -ge "$want" ]; }
wait_for "$wait" have || fail "hot-add: $(nnew) of $want new memory blocks after ${wait}s (device_add not seen by the guest)"
echo "new blocks: $(new | tr '\n' ' ')"
for b in $(new); do
	[ "$(cat $M/memory$b/state)" = online ] || echo online_movable >$M/memory$b/state ||
		fail "cannot online memory$b"
done
grown() { [ $(($(memtotal) - t0)) -ge $((grow / 1024)) ]; }
wait_for "$wait" grown || true
t1=$(memtotal)
echo "MemTotal ${t1}K after onlining: +$((t1 - t0))K"
[ $((t1 - t0)) = $((grow / 1024)) ] || fail "MemTotal grew by $((t1 - t0))K, want $((grow / 1024))K ($size DIMM, memmap_on_memory=$mom)"
lmb_readers_wait "$t1" "$wait"
if [ -n "$node" ]; then
	for b in $(new); do
		[ -e $M/memory$b/node$node ] || fail "memory$b is not on node $node: $(ls -d $M/memory$b/node* 2>/dev/null)"
	done
	echo "new blocks on node $node"
	off=$(dmesg | grep -m1 'potential offnode page_structs' || true)
	case $mom in
	Y|y|1|force) [ -z "$off" ] || echo "(memmap on the DIMM, which boot memory did not include: $off)" ;;
	*) [ -z "$off" ] || fail "vmemmap_verify() after hot-add: $off" ;;
	esac
fi
for b in $(new | sort -rn); do
	echo offline >$M/memory$b/state 2>/dev/null || { sleep 1; echo offline >$M/memory$b/state; } ||
		fail "cannot offline memory$b (zone $(cat $M/memory$b/valid_zones))"
done
[ "$(memtotal)" = "$t0" ] || fail "MemTotal $(memtotal)K after offlining, want ${t0}K"
say "dimm: removing it through the monitor"
mon device_del lmbdimm0
gone() { [ "$(nnew)" = 0 ]; }
wait_for "$wait" gone || fail "hot-remove: $(nnew) blocks still there after ${wait}s"
mon object_del lmbhp0
echo "removed: $(blocks | wc -l) blocks, MemTotal $(memtotal)K"
[ "$(memtotal)" = "$t0" ] || fail "MemTotal $(memtotal)K after removal, want ${t0}K"
lmb_readers_stop
