#!/bin/sh
# The LMB boot report of a serial log: scripts/report.sh LOG [SYSTEM_MAP]
# It ends with LMB's ledger after boot as the guest check ledger copied
# /proc/lmb/owners into LOG: the reconciliation of the firmware's RAM with
# MemTotal, and the top owners by size. Owners named by their caller's
# address (the kernel has no KALLSYMS) are resolved to function+offset with
# SYSTEM_MAP, the booted build's (scripts/symbols.awk).
. scripts/lib.sh
log=$1 map=${2:-}
strip() { sed -e 's/\r$//' -e 's/^\[ *[0-9]*\.[0-9]*\] //' "$log"; }
# "ADDR FUNC+0xOFF" lines (or "# NOTE" when the map is another build's)
SYMS=
[ -z "$map" ] || [ -r "$map" ] || { warn "report: cannot read $map: caller addresses not resolved"; map=; }
[ -z "$map" ] || SYMS=$(awk -v map="$map" -v who=report -f "$TOP/scripts/symbols.awk" "$log")
export SYMS
# resolve: each caller address of stdin replaced by its function+offset
resolve() {
	awk 'BEGIN { n = split(ENVIRON["SYMS"], l, "\n")
		for (i = 1; i <= n; i++) if (split(l[i], f, " ") == 2 && f[1] != "#") sym[f[1]] = f[2] }
	{ for (i = 1; i <= NF; i++) if ($i in sym) { k = index($0, $i); $0 = substr($0, 1, k - 1) sym[$i] substr($0, k + length($i)) }
	  print }'
}

say "==== LMB boot report: ${log#"$TOP"/} ===="
say "-- kernel"
strip | grep -E '^Linux version|^Command line|^Kernel command line' | head -n 2
say "-- firmware memory map (e820)"
strip | grep -E 'BIOS-e820|^e820:|BIOS-provided' || say "(none)"
say "-- LMB / memblock (fill, named reservations, overlaps, hand-over)"
strip | grep -E '[Ll][Mm][Bb]|memblock' | grep -vE '^(Command line|Kernel command line|Linux version|# lmb-(owners|ranges))' |
	resolve | grep . || say "(no lines mention LMB or memblock)"
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
# The last copy of /proc/lmb/owners (a kexec log has one per kernel).
owners=$(strip | sed -n 's/^# lmb-owners: //p' | awk '/^# LMB/ { n = 0 } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }')
say "-- the ledger after boot (/proc/lmb/owners): where the RAM went"
if [ -n "$owners" ]; then
	printf '%s\n' "$owners" | sed -n '/^where the RAM went/,/^= MemTotal/p'
	printf '%s\n' "$owners" | sed -n 's/^# \([0-9]* owners, .*\)/the table kept after boot: \1/p'
	say "-- top 10 owners by size"
	case $SYMS in "# "*) say "(caller addresses not resolved: ${SYMS#"# "})" ;; esac
	# the rows after the "# group ..." header, by bytes then bytes released
	printf '%s\n' "$owners" | sed '1,/^# group /d' | sort -k3,3nr -k5,5nr | resolve |
		awk 'function h(b) { return b >= 1048576 ? sprintf("%.1f MiB", b / 1048576) : sprintf("%.1f KiB", b / 1024) }
		BEGIN { printf "  %10s %10s %6s  %-9s %s\n", "bytes", "kept_KiB", "ranges", "group", "owner" }
		++n <= 10 { o = $0; for (i = 1; i <= 5; i++) sub(/^[^ ]+ +/, "", o)
			printf "  %10s %9dK %6d  %-9s %s%s\n", h($3), $2, $4, $1, o, $5 ? " (released " h($5) " before hand-over)" : "" }
		n > 10 { rest += $3 }
		END { if (n > 10) printf "  and %d more owners: %s\n", n - 10, h(rest) }'
else
	say "(not captured: the guest check ledger did not run, or lmb=nokeep)"
fi
