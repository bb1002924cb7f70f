#!/bin/sh
# The tools, without a kernel. scripts/report.sh and scripts/memmap.sh on
# tests/ledger-after-boot/: 72 lines cut from the serial log of the row
# x86_64-1g-smp4 (no lmb=debug: the guest check ledger's copy of
# /proc/lmb/owners and /proc/lmb/ranges, the BIOS-e820 map; CRLF as QEMU
# writes it) and the 12 lines of that build's System.map its caller
# addresses need. scripts/memcmp.awk's bound on KASLR page tables, on
# synthetic logs (at the end).
#
# Usage: sh scripts/report-selftest.sh   (from the repository root)
# Prints "TEST ok|not-ok <text>" per check (scripts/test.sh counts them);
# exit status 0 when all pass.
. scripts/lib.sh

fx=$TOP/tests/ledger-after-boot
tmp=${TMPDIR:-/tmp}/lmb-report-selftest.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
bad=0
t() { # OK TEXT: one result
	if [ "$1" = 0 ]; then say "TEST ok $2"; else say "TEST not-ok $2"; bad=1; fi
}
has() { grep -qF -- "$1" "$2" 2>/dev/null; }

# The report ends with the reconciliation and the top owners, callers resolved.
sh scripts/report.sh "$fx/boot.log" "$fx/System.map" >"$tmp/report" 2>"$tmp/report.err" || true
sed -n '/^-- the ledger after boot/,$p' "$tmp/report" >"$tmp/tail"
ok=0
for l in 'where the RAM went, KiB:' '= handed to the page allocator    1016400' \
	'+ released or added later            4260' '= MemTotal                        1020660' \
	'the table kept after boot: 36 owners, 39 ranges (0 not kept), 3888 bytes'; do
	has "$l" "$tmp/tail" || { say "    report: no line '$l' in its last part"; ok=1; }
done
t $ok "report: ends with the reconciliation of /proc/lmb/owners (firmware RAM to MemTotal)"
ok=0
first=$(sed -n '/^-- top 10 owners/{n;n;p;}' "$tmp/tail")
case $first in *"16.0 MiB"*"16392K"*"memmap"*"MEMMAP") ;; *) say "    report: largest owner: '$first'"; ok=1 ;; esac
has 'pcpu_embed_first_chunk+0x74 (released 4.0 KiB before hand-over)' "$tmp/tail" || { say "    report: pcpu_embed_first_chunk not resolved"; ok=1; }
! grep -q '0xffffffff' "$tmp/tail" || { say "    report: an address left: $(grep -m1 0xffffffff "$tmp/tail")"; ok=1; }
[ "$(sed -n '/^-- top 10 owners/,$p' "$tmp/tail" | grep -c '^  ')" = 12 ] || { say "    report: not a header, 10 owners and a line for the rest"; ok=1; }
t $ok "report: top 10 owners by size, caller addresses resolved with System.map"

# Another build's System.map: nothing resolved, and the report says why.
mkdir -p "$tmp/other"
cp "$fx/System.map" "$tmp/other/System.map"
echo 2 >"$tmp/other/.version"
sh scripts/report.sh "$fx/boot.log" "$tmp/other/System.map" >"$tmp/report2" 2>/dev/null || true
ok=0
has "caller addresses not resolved: $tmp/other/System.map is from build #2, the booted kernel is #1" "$tmp/report2" || ok=1
has '0xffffffff8191cadf' "$tmp/report2" || ok=1
! has 'pcpu_embed_first_chunk' "$tmp/report2" || ok=1
t $ok "report: a System.map of another build (#2, the log's kernel is #1) resolves nothing, and says so"

# The picture from the after-boot ranges: the log has no lmb=debug dump.
n=$(grep -c '^# lmb-ranges: [0-9a-f]*-[0-9a-f]* : ' "$fx/boot.log")
sh scripts/memmap.sh "$fx/boot.log" "$tmp/m.svg" "$fx/System.map" >"$tmp/memmap" 2>&1 || true
ok=0
head -n 1 "$tmp/memmap" | grep -q "($n ranges of /proc/lmb/ranges; memory: the usable RAM of the BIOS-e820: lines" || ok=1
has "ledger   $n entries: 16 named, 3 unnamed (3 resolved with $fx/System.map)" "$tmp/memmap" || ok=1
has 'Memory at hand-over, from the ledger kept after boot (/proc/lmb/ranges)' "$tmp/m.svg" || ok=1
[ "$(grep -c 'class="td">#[0-9]*</text>' "$tmp/m.svg" 2>/dev/null)" = "$n" ] || ok=1
has 'sparse_init_nid+0x38  (0xffffffff81929899)' "$tmp/m.svg" || ok=1
[ "$(tail -n 1 "$tmp/m.svg" 2>/dev/null)" = '</svg>' ] || ok=1
[ $ok = 0 ] || sed 's/^/    memmap: /' "$tmp/memmap"
t $ok "memmap: draws the $n ranges of /proc/lmb/ranges (memory from BIOS-e820) with their owners resolved"

# Neither a dump nor ranges: no picture, an error.
grep -v 'lmb-ranges: ' "$fx/boot.log" >"$tmp/noranges.log"
ok=0
if sh scripts/memmap.sh "$tmp/noranges.log" "$tmp/n.svg" >"$tmp/memmap2" 2>&1; then ok=1; fi
has 'no "lmb: dump" (boot with lmb=debug) and no "# lmb-ranges:" lines' "$tmp/memmap2" || ok=1
t $ok "memmap: a log without a dump or ranges is an error"
# scripts/memcmp.awk on a KASLR pair of boots: the early page tables follow
# the random layout, so a difference of up to 12K in them (LMB's PGTABLE
# owner against pristine's memblock=debug lines) is taken out of reserved,
# MemTotal and the zones' managed pages; more than 12K is not, and nothing
# else is. Synthetic logs: one zone, the same image in both System.maps.
mc() { # PGT_LMB_KB LOST_KB (memory LMB lost beyond its page tables): memcmp.awk's output
	printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff82a00000 D __init_begin' \
		'ffffffff82c00000 B __end_of_kernel_reserve' >"$tmp/b.map"
	cp "$tmp/b.map" "$tmp/l.map"
	d=$(( $1 - 20 + $2 ))
	for k in b l; do
		if [ $k = b ]; then r=58184; m=1000000; z=250000; else r=$((58184 + d)); m=$((1000000 - d)); z=$((250000 - d / 4)); fi
		{
			echo 'Kernel command line: console=ttyS0 memblock=debug'
			if [ $k = b ]; then
				echo 'memblock_alloc_try_nid: 8192 bytes align=0x1000 nid=-1 from=0x0 max_addr=0x0 alloc_low_pages+0x4f/0x150'
				echo 'memblock_alloc_try_nid: 12288 bytes align=0x1000 nid=-1 from=0x0 max_addr=0x0 spp_getpage+0x3a/0x80'
			else
				echo "# lmb-owners: boot 0 $(($1 * 1024)) 3 0 PGTABLE"
			fi
			echo "Memory: 990000K/1048184K available (16384K kernel code, 2000K rwdata, 6000K rodata, 3000K init, 1000K bss, ${r}K reserved, 0K cma-reserved)"
			echo "# lmb-guest: memtotal_kb=$m"
			if [ $k = b ]; then echo "# lmb-guest: threads_max=7800"; else echo "# lmb-guest: threads_max=${3:-7800}"; fi
			echo "# lmb-guest: zone node=0 zone=DMA32 managed=$z present=262000 spanned=262000"
		} >"$tmp/$k.log"
	done
	awk -v case=selftest-kaslr -v build=- -v fw=- -v kaslr=1 -f scripts/memcmp.awk /dev/null \
		"$tmp/b.map" "$tmp/l.map" "$tmp/b.log" "$tmp/l.log" 2>&1
}
mc3() { # PGT_LMB_KB ok|FAIL TEXT: all three memory tests give that verdict
	n=$(mc "$1" 0 | grep -c "^TEST $2 " || true)
	ok=0; [ "$n" = 3 ] || { mc "$1" 0 | sed 's/^/    memcmp: /'; ok=1; }
	t $ok "memcmp: $3"
}
mc3 32 ok "KASLR page tables 12K above pristine's (32K against 20K) are taken out"
mc3 8 ok "KASLR page tables 12K below pristine's (8K against 20K) are taken out"
mc3 36 FAIL "KASLR page tables 16K above pristine's are not taken out (3 failures)"
mc3 4 FAIL "KASLR page tables 16K below pristine's are not taken out (3 failures)"
# threads-max: compared exactly (one thread apart fails the MemTotal test)
n=$(mc 20 0 7801 | grep -c '^TEST FAIL memory selftest-kaslr MemTotal.*threads-max (7801 vs 7800)' || true)
t $([ "$n" = 1 ] && echo 0 || echo 1) "memcmp: threads-max one apart fails the MemTotal test"
out=$(mc 32 4)
ok=0; printf '%s\n' "$out" | grep -q '^TEST FAIL memory selftest-kaslr Memory: line' || ok=1
printf '%s\n' "$out" | grep -q '^TEST FAIL memory selftest-kaslr MemTotal' || ok=1
[ $ok = 0 ] || printf '%s\n' "$out" | sed 's/^/    memcmp: /'
t $ok "memcmp: 4K lost beyond 12K of page tables fails the Memory: line and MemTotal"

# symbols.awk on a kernel that runs relocated (s390 maps its image at
# 0x3ffe0000000, its System.map starts at 0): callers resolve by their low
# 28 bits, and an address in no text symbol stays unresolved.
mkdir -p "$tmp/reloc"
printf '%s\n' '0000000000100000 T _stext' '00000000003b1130 T setup_arch' '00000000003b2000 T foo' \
	'0000000000455000 B _end' >"$tmp/reloc/System.map"
printf '%s\n' 'Linux version 6.12 #1 SMP' 'lmb:   #1 [0x0000000000 - 0x0000001000] 0x000003ffe03b1308' \
	'lmb:   #2 [0x0000001000 - 0x0000002000] 0x000003ffe0000010' >"$tmp/reloc/boot.log"
awk -v map="$tmp/reloc/System.map" -f scripts/symbols.awk "$tmp/reloc/boot.log" >"$tmp/reloc/pairs" 2>&1 || true
ok=0
[ "$(cat "$tmp/reloc/pairs")" = "0x000003ffe03b1308 setup_arch+0x1d8" ] || { sed 's/^/    symbols: /' "$tmp/reloc/pairs"; ok=1; }
t $ok "symbols: a kernel relocated by 0x3ffe0000000 (s390) resolves its callers by their low 28 bits"
# ... and a map linked high (x86) takes no address by its low bits only
sed 's/^0000000000/ffffffff80/' "$tmp/reloc/System.map" >"$tmp/reloc/high.map"
mkdir -p "$tmp/reloc/high" && mv "$tmp/reloc/high.map" "$tmp/reloc/high/System.map"
awk -v map="$tmp/reloc/high/System.map" -f scripts/symbols.awk "$tmp/reloc/boot.log" >"$tmp/reloc/pairs2" 2>&1 || true
ok=0
[ ! -s "$tmp/reloc/pairs2" ] || { sed 's/^/    symbols: /' "$tmp/reloc/pairs2"; ok=1; }
t $ok "symbols: with a map linked high (x86), an address of another top resolves to nothing"

exit $bad
