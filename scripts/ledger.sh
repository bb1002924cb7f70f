#!/bin/sh
# The ledger at hand-over: who reserved what, checked.
#
# usage: scripts/ledger.sh LOG BUILD_OUT NAMES_FILE [FIRMWARE]
#   LOG        serial log of a boot with lmb=debug (the last "lmb: dump
#              (hand-over)" is read)
#   BUILD_OUT  the kernel's build directory (System.map, arch/x86/built-in.a)
#   NAMES_FILE names the ledger must hold, one per line (# comments);
#              "A|B" is satisfied by either; a line "bios: NAME" or
#              "uefi: NAME" applies only to boots with that FIRMWARE
#              (default bios); "CONFIG_X: NAME" (after the firmware, if
#              any) only to kernels built with CONFIG_X=y (BUILD_OUT/.config)
#
# Prints the ledger with every unnamed entry (a caller address) resolved to
# its function, then one line per finding, and "TEST ok|not-ok <text>" lines
# for the harness:
#   - every name of NAMES_FILE is in the ledger;
#   - no unnamed entry was reserved by code of arch/x86 (its caller is not a
#     symbol defined in arch/x86/built-in.a): x86 names all its reservations.
# Exit status 0 when both hold.
. scripts/lib.sh

[ $# = 3 ] || [ $# = 4 ] || die "usage: scripts/ledger.sh LOG BUILD_OUT NAMES_FILE [FIRMWARE]"
log=$1 out=$2 names=$3 fw=${4:-bios}
map=$out/System.map
ar=$out/arch/x86/built-in.a
for f in "$log" "$map" "$ar" "$names"; do
	[ -f "$f" ] || die "ledger: no $f"
done
tmp=${TMPDIR:-/tmp}/lmb-ledger.$$
trap 'rm -f "$tmp".*' EXIT

# The hand-over ledger: "#i [start - end] name" after the last hand-over dump.
tr -d '\r' <"$log" | sed 's/^\[[ 0-9.]*\] //' | awk '
	/^lmb: dump \(hand-over\)/ { n = 0; inl = 0; seen = 1; next }
	seen && /^lmb:  ledger:/ { inl = 1; next }
	seen && inl && /^lmb:   #[0-9]+ \[/ { line[++n] = $0; next }
	seen && inl { inl = 0 }
	END { for (i = 1; i <= n; i++) print line[i] }' >"$tmp.ledger"
if [ ! -s "$tmp.ledger" ]; then
	echo "TEST not-ok ledger: no 'lmb: dump (hand-over)' ledger in ${log#"$TOP"/} (boot with lmb=debug)"
	exit 1
fi

# Text symbols of the kernel and those defined in arch/x86.
awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' "$map" | sort >"$tmp.syms"
nm --defined-only "$ar" 2>/dev/null | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$tmp.x86"

# Resolve each caller address to func+off (hex strings of the map's width
# compare as numbers; awk's doubles cannot hold 64-bit addresses).
grep '^CONFIG_.*=y$' "$out/.config" 2>/dev/null | sed 's/=y$//' >"$tmp.cfg" || true
awk -v syms="$tmp.syms" -v x86="$tmp.x86" -v names="$names" -v fw="$fw" -v cfg="$tmp.cfg" '
function hexval(h,    i, c, v) {	# small offsets only
	v = 0
	h = tolower(h)
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
function pad(h, w) { while (length(h) < w) h = "0" h; return h }
BEGIN {
	n = 0
	while ((getline l < syms) > 0) {
		split(l, f, " ")
		a[++n] = tolower(f[1]); s[n] = f[2]
	}
	w = length(a[1])
	while ((getline l < x86) > 0) inx86[l] = 1
	while ((getline l < cfg) > 0) y[l] = 1
	while ((getline l < names) > 0) {
		sub(/#.*/, "", l); gsub(/^[ \t]+|[ \t]+$/, "", l)
		if (l ~ /^[a-z]+:/) {
			if (substr(l, 1, length(fw) + 1) != fw ":") continue
			sub(/^[a-z]+:[ \t]*/, "", l)
		}
		if (l ~ /^CONFIG_[A-Za-z0-9_]+:/) {
			c = l
			sub(/:.*/, "", c)
			if (!(c in y)) continue
			sub(/^CONFIG_[A-Za-z0-9_]+:[ \t]*/, "", l)
		}
		if (l != "") want[l] = 1
	}
	bad = 0
}
{
	line = $0
	sub(/^lmb: +/, "", line)
	name = line
	sub(/^#[0-9]+ \[[^]]*\] ?/, "", name)
	have[name] = 1
	if (name !~ /^0x[0-9a-fA-F]+$/) { print "  " line; named++; next }
	unnamed++
	x = pad(tolower(substr(name, 3)), w)
	lo = 1; hi = n; k = 0
	while (lo <= hi) {		# last symbol at or below x
		m = int((lo + hi) / 2)
		if (a[m] <= x) { k = m; lo = m + 1 } else hi = m - 1
	}
	if (!k) { print "  " line "  (no symbol)"; next }
	off = hexval(substr(x, w - 7)) - hexval(substr(a[k], w - 7))
	fn = sprintf("%s+0x%x", s[k], off)
	where = (s[k] in inx86) ? "arch/x86" : "generic"
	print "  " line "  = " fn " (" where ")"
	if (where == "arch/x86") {
		bad++
		print "FINDING unnamed arch/x86 reservation: " line " by " fn
	}
}
END {
	miss = ""
	for (w2 in want) {
		na = split(w2, alt, "|")
		for (j = 1; j <= na; j++) if (alt[j] in have) break
		if (j > na) miss = miss " \"" w2 "\""
	}
	printf "ledger: %d entries, %d named, %d unnamed (callers resolved above)\n", named + unnamed, named, unnamed
	if (miss == "")
		print "TEST ok ledger names: every expected name is in the ledger at hand-over"
	else
		print "TEST not-ok ledger names: missing" miss
	if (bad)
		print "TEST not-ok ledger: " bad " arch/x86 reservation(s) unnamed"
	else
		print "TEST ok ledger: no arch/x86 reservation is unnamed (" unnamed " generic callers)"
}' "$tmp.ledger" >"$tmp.out"
cat "$tmp.out"
! grep -q '^TEST not-ok' "$tmp.out"
