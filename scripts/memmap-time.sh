#!/bin/sh
# make memmap-time: how long memmap_init() takes to initialise the struct
# pages of x86_64's DMA32 zone (about 786,000 pages) on LMB and on pristine
# 6.12, same QEMU (16 GiB, TCG or KVM as boot.sh probes) and command line,
# booted in turns (LMB, pristine, LMB, ...) so that the machine's load
# falls on both alike.
#
# The time of one boot is the printk timestamp (printk.time=1, read from
# dmesg by the guest check memmap-time) of the second "On node 0, zone
# DMA32: N pages in unavailable ranges" line minus that of the first:
# memmap_init() prints each after the range of memory that follows the
# hole it counts, so the two enclose the DMA32 zone's largest range, [1
# MiB, 3 GiB), 786,143 pages, and nothing else.
#
# LMB_MEMMAP_BOOTS (5) measured boots of each, after one of pristine that
# is not counted; a boot whose early clock did not run (the TSC
# calibration failed under TCG: every timestamp 0) is not counted either
# and is made again, up to 2 x LMB_MEMMAP_BOOTS rounds; at least 3 of each
# must count.  The verdict compares the medians:
# FAIL when LMB's is more than LMB_MEMMAP_SLACK percent (5) above
# pristine's.  Ends with "N passed, N failed".
. scripts/lib.sh

n=${LMB_MEMMAP_BOOTS:-5}
slack=${LMB_MEMMAP_SLACK:-5}
mem=16G
P=0 F=0
for b in lmb-x86_64 base-x86_64; do
	sh scripts/kbuild.sh "$b" >/dev/null || die "building $b failed (build/logs/build-$b.log)"
done
sh scripts/initramfs.sh x86_64 >/dev/null

# ms LOG: the memmap_init() time of the DMA32 zone in LOG, in ms
ms() {
	awk '
		function t(s) { sub(/^\[ */, "", s); sub(/\].*/, "", s); return s + 0 }
		!/^# memmap-time: \[/ { next }
		{ sub(/^# memmap-time: /, "") }
		/zone DMA32: [0-9]+ pages in unavailable ranges/ { if (a == "") a = t($0); else if (b == "") b = t($0) }
		END { if (a == "" || b == "") exit 1; if (b == 0) exit 2; printf "%.1f\n", (b - a) * 1000 }' "$1"
}
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else if (NR) printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$LOGS/memmap-time.lmb" && : >"$LOGS/memmap-time.base"
# The first 16 GiB guest after a while runs slower (the host's memory):
# one boot first, not counted.
sh scripts/boot.sh -m "$mem" -l "$LOGS/memmap-time-warmup.log" "$(build_image base-x86_64)" >/dev/null 2>&1 || true
# rounds until each kernel has N measured boots, at most 2 N rounds
i=1
while [ "$i" -le $((2 * n)) ]; do
	for k in lmb base; do
		[ "$(grep -c . "$LOGS/memmap-time.$k" || true)" -lt "$n" ] || continue
		log=$LOGS/memmap-time-$k-$i.log
		if ! sh scripts/boot.sh -m "$mem" -c memmap-time -l "$log" "$(build_image "$k-x86_64")" \
			nokaslr printk.time=1 >/dev/null 2>&1; then
			tail_log "$log" 20
			F=$((F + 1))
			say "FAIL boot $k $i ($mem): ${log#"$TOP"/}"
			continue
		fi
		rc=0 && v=$(ms "$log") || rc=$?
		if [ "$rc" = 2 ]; then
			say "    $k boot $i: no clock yet at memmap_init() (the early TSC calibration failed: timestamps 0), not counted"
			continue
		fi
		[ "$rc" = 0 ] || { F=$((F + 1)); say "FAIL no memmap_init lines in ${log#"$TOP"/}"; continue; }
		echo "$v" >>"$LOGS/memmap-time.$k"
		say "    $k boot $i: memmap_init (DMA32) ${v} ms"
	done
	i=$((i + 1))
done
l=$(median <"$LOGS/memmap-time.lmb") b=$(median <"$LOGS/memmap-time.base")
nl=$(grep -c . "$LOGS/memmap-time.lmb" || true) nb=$(grep -c . "$LOGS/memmap-time.base" || true)
if [ "$nl" -lt 3 ] || [ "$nb" -lt 3 ]; then
	F=$((F + 1))
	say "FAIL memmap_init of DMA32 at $mem: $nl LMB and $nb pristine boots measured, 3 of each needed"
elif [ -n "$l" ] && [ -n "$b" ] &&
	awk -v l="$l" -v b="$b" -v s="$slack" 'BEGIN { exit !(l <= b * (100 + s) / 100) }'; then
	P=$((P + 1))
	say "ok   memmap_init of DMA32 at $mem: LMB median $l ms, pristine $b ms ($nl and $nb boots; at most +$slack%)"
else
	F=$((F + 1))
	say "FAIL memmap_init of DMA32 at $mem: LMB median $l ms, pristine $b ms ($nl and $nb boots; at most +$slack%)"
fi
say "$P passed, $F failed"
[ "$F" = 0 ]
