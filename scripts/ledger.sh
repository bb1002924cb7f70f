#!/bin/sh
# The ledger at hand-over: who reserved what, checked.
#
# usage: scripts/ledger.sh LOG BUILD_OUT NAMES_FILE [FIRMWARE]
#   LOG        serial log of a boot with lmb=debug (the last "lmb: dump
#              (hand-over)" is read)
#   BUILD_OUT  the kernel's build directory (System.map, arch/<arch>/built-in.a)
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
#   - no unnamed entry was reserved by the architecture's code (its caller is
#     not a symbol defined in arch/<arch>/built-in.a): x86 names all its
#     reservations, and so does every architecture booted here.
# Exit status 0 when both hold.
. scripts/lib.sh

[ $# = 3 ] || [ $# = 4 ] || die "usage: scripts/ledger.sh LOG BUILD_OUT NAMES_FILE [FIRMWARE]"
log=$1 out=$2 names=$3 fw=${4:-bios}
map=$out/System.map
# the architecture's own code: arch/x86, arch/arm64, arch/arm, ...
for ar in x86 arm64 arm powerpc s390 riscv; do
	ar=$out/arch/$ar/built-in.a
	[ ! -f "$ar" ] || break
done
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

# Each caller address resolved to func+off ("ADDR FUNC+0xOFF", or "# NOTE"
# when the map is not the booted kernel's), and the text symbols defined in
# the architecture's code.
awk -v map="$map" -v who=ledger -f "$TOP/scripts/symbols.awk" "$log" >"$tmp.syms"
nm --defined-only "$ar" 2>/dev/null | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$tmp.x86"
grep '^CONFIG_.*=y$' "$out/.config" 2>/dev/null | sed 's/=y$//' >"$tmp.cfg" || true
awk -v syms="$tmp.syms" -v x86="$tmp.x86" -v ad="${ar#"$out"/}" -v names="$names" -v fw="$fw" -v cfg="$tmp.cfg" '
BEGIN {
	while ((getline l < syms) > 0) {
		split(l, f, " ")
		if (f[1] == "#") note = substr(l, 3); else sym[f[1]] = f[2]
	}
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
	if (!(name in sym)) {
		# not resolved: it cannot be shown to be generic code
		print "  " line "  (no symbol)"
		print "FINDING unresolved caller: " line
		bad++
		next
	}
	fn = sym[name]; f1 = fn; sub(/\+.*/, "", f1)
	where = (f1 in inx86) ? ad : "generic"
	sub(/\/built-in\.a$/, "", where)
	print "  " line "  = " fn " (" where ")"
	if (where != "generic") {
		bad++
		print "FINDING unnamed arch reservation: " line " by " fn
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
	if (note != "")
		print "TEST not-ok ledger: callers not resolved: " note
	else if (bad)
		print "TEST not-ok ledger: " bad " reservation(s) by arch/ code unnamed"
	else
		print "TEST ok ledger: no reservation by arch/ code is unnamed (" unnamed " generic callers)"
}' "$tmp.ledger" >"$tmp.out"
cat "$tmp.out"
! grep -q '^TEST not-ok' "$tmp.out"
