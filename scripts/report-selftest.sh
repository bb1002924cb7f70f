#!/bin/sh
# The ledger after boot in the tools, without a kernel: scripts/report.sh
# and scripts/memmap.sh on tests/ledger-after-boot/, 72 lines cut from the
# serial log of the row x86_64-1g-smp4 (no lmb=debug: the guest check
# ledger's copy of /proc/lmb/owners and /proc/lmb/ranges, the BIOS-e820
# map; CRLF as QEMU writes it) and the 12 lines of that build's System.map
# its caller addresses need.
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
exit $bad
