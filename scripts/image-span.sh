#!/bin/sh
# make image-span: how far LMB moves the end of the part of the x86 kernel
# image that setup_arch() reserves (_text to __end_of_kernel_reserve), and
# whether that end crosses a 2 MiB boundary that pristine's does not.
# With AMD_MEM_ENCRYPT (our x86_64 builds) the bss ends at the next 2 MiB
# boundary, so an LMB image whose last bss object ends past a boundary
# that pristine's stays below loses 2 MiB of MemTotal (the tdx-host row,
# tests/memory-expectations).
#
# Usage: scripts/image-span.sh [LMB-BUILD:BASE-BUILD ...]
# Each argument names two builds in build/out (built already; nothing is
# built here). Without arguments: the x86_64 pairs of make test that are
# built (i386's bss is page-aligned: no 2 MiB rounding there).
# For each pair: the end of the last bss object (nm, .brk and the
# decrypted bss excluded), the room below the next 2 MiB boundary, and
# LMB's move. Ends with "N passed, N failed": a pair fails when its LMB
# end crosses a boundary that its pristine end does not.
. scripts/lib.sh
OUT=$BUILD/out

pairs=$*
if [ -z "$pairs" ]; then
	for b in x86_64 tdx-host; do
		[ -f "$OUT/lmb-$b/vmlinux" ] && [ -f "$OUT/base-$b/vmlinux" ] &&
			pairs="$pairs lmb-$b:base-$b"
	done
fi
[ -n "$pairs" ] || die "no built pair in $OUT (make test builds them)"

# bss_end BUILD: the end of its last bss object, in hex (the low 32 bits:
# an image span is far below 4 GiB).
bss_end() {
	[ -f "$OUT/$1/vmlinux" ] || die "$OUT/$1/vmlinux: not built"
	nm -n -S "$OUT/$1/vmlinux" | awk '
	function hex(s,   i, n) {
		s = tolower(substr(s, length(s) - 7))
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	$NF == "__end_of_kernel_reserve" { lim = hex($1) }
	NF == 4 && $3 ~ /^[bB]$/ && $4 !~ /brk|decrypted/ {
		end[++n] = hex($1) + hex($2)
	}
	END {
		for (i = 1; i <= n; i++)
			if (end[i] <= lim && end[i] > m)
				m = end[i]
		printf "%.0f\n", m
	}'
}

P=0 F=0
for p in $pairs; do
	l=${p%%:*} b=${p#*:}
	le=$(bss_end "$l") || exit 1
	be=$(bss_end "$b") || exit 1
	awk -v l="$l" -v b="$b" -v le="$le" -v be="$be" 'BEGIN {
		two = 2 * 1024 * 1024
		lroom = (int((le + two - 1) / two) * two - le) / 1024
		broom = (int((be + two - 1) / two) * two - be) / 1024
		cross = int((le - 1) / two) != int((be - 1) / two)
		printf "%-8s %s: pristine %.1fK below a 2M boundary, LMB %+.1fK: %.1fK below one%s\n",
		       cross ? "FAIL" : "ok", l, broom, (le - be) / 1024, lroom,
		       cross ? " (crosses it: MemTotal -2M)" : ""
		exit cross
	}' && P=$((P + 1)) || F=$((F + 1))
done
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
