# memmap-time: the printk timestamps (printk.time=1 on the command line) of
# the lines memmap_init() prints for the DMA32 zone of a 16 GiB x86_64
# guest: the serial console printed them before printk.time took effect,
# without a time (scripts/memmap-time.sh reads these)
. /lmbtest-lib.sh
grep -qw printk.time=1 /proc/cmdline || fail "no printk.time=1 on the command line"
dmesg | grep -E 'zone DMA32: [0-9]+ pages in unavailable ranges' | sed 's/^/memmap-time: /'
[ "$(dmesg | grep -cE '^\[ *[0-9]+\.[0-9]+\] On node 0, zone DMA32: [0-9]+ pages in unavailable ranges')" -ge 2 ] ||
	fail "fewer than two timed \"zone DMA32: N pages in unavailable ranges\" lines"
