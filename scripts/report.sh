#!/bin/sh
# The LMB boot report of a serial log: scripts/report.sh LOG
. scripts/lib.sh
log=$1
strip() { sed -e 's/\r$//' -e 's/^\[ *[0-9]*\.[0-9]*\] //' "$log"; }

say "==== LMB boot report: ${log#"$TOP"/} ===="
say "-- kernel"
strip | grep -E '^Linux version|^Command line|^Kernel command line' | head -n 2
say "-- firmware memory map (e820)"
strip | grep -E 'BIOS-e820|^e820:|BIOS-provided' || say "(none)"
say "-- LMB / memblock (fill, named reservations, overlaps, hand-over)"
strip | grep -E '[Ll][Mm][Bb]|memblock' | grep -vE '^(Command line|Kernel command line|Linux version)' || say "(no lines mention LMB or memblock)"
say "-- hand-over to the page allocator"
strip | grep -E '^Memory: [0-9]+K/[0-9]+K available|^(On node|Initmem setup node|NODE_DATA|Zone ranges|Movable zone|Early memory|  node  |  [A-Z][A-Za-z0-9]* +\[|  [A-Z][A-Za-z0-9]* +empty)|Freeing (unused kernel|SMP alternatives)' || true
say "-- guest"
strip | sed -n 's/^# lmb-guest: //p' | grep -vE '^(begin|end)$' || say "(the guest did not report)"
say "-- KUnit (cases run at boot) and guest checks"
kunit=$(sed '/# lmb-guest: begin/,/# lmb-guest: end/d' "$log" | awk -v label=kunit -f "$TOP/scripts/ktap-count.awk")
guest=$(sed -n '/# lmb-guest: begin/,/# lmb-guest: end/p' "$log" | awk -v label=guest -f "$TOP/scripts/ktap-count.awk")
printf '%s\n' "$kunit" | awk '/^COUNT/ { printf "KUnit: %d passed, %d failed, %d skipped\n", $2, $3, $4; next } { print }'
printf '%s\n' "$guest" | awk '/^COUNT/ { printf "guest checks: %d passed, %d failed, %d skipped\n", $2, $3, $4; next } { print }'
sed '/# lmb-guest: begin/,/# lmb-guest: end/d' "$log" | sed -e 's/\r$//' -e 's/^\[ *[0-9]*\.[0-9]*\] //' |
	grep -E '^(not )?ok [0-9]+ ' | sed 's/^/  suite: /' || true
