#!/bin/sh
# make check:
#  1. patches/ reproduces build/linux exactly: pristine + patches/series,
#     applied from scratch (index-only, in a temporary index), must give the
#     same tree as build/linux HEAD.
#  2. git am applies every patch of the series to a plain git init of
#     the tarball exactly as it extracts (dot-files included), as a user
#     would apply it.
#  3. scripts/checkpatch.pl on every patch of the series: 0 errors and
#     0 warnings, except the (patch, type) pairs listed with a reason in
#     patches/checkpatch-exceptions.
# Usage: scripts/check.sh [--checkpatch-only]
. scripts/lib.sh
. scripts/series.sh

[ -d "$KTREE/.git" ] || die "no build/linux (run make tree)"
G="git -C $KTREE"
fails=0

if [ "${1:-}" != --checkpatch-only ]; then
	step "check: pristine + patches/series ($(series_count) patches) == build/linux HEAD"
	if new=$(series_apply "$KTREE/.git" pristine); then
		a=$($G rev-parse 'HEAD^{tree}') b=$($G rev-parse "$new^{tree}")
		if [ "$a" = "$b" ]; then
			say "    ok: tree $a"
		else
			say "    FAIL: patches/ gives tree $b, build/linux HEAD is $a; differences:"
			$G diff --stat "$new" HEAD | sed 's/^/    /'
			say "    (run make export, or make tree after committing)"
			fails=$((fails + 1))
		fi
		[ -z "$($G status --porcelain | head -n1)" ] || say "    note: build/linux also has uncommitted changes (not compared)"
	else
		fails=$((fails + 1))
	fi
fi

if [ "${1:-}" != --checkpatch-only ]; then
	step "check: git am of patches/series on a plain git init of $LINUX_TARBALL"
	t0=$(now) am=$BUILD/.am-check
	rm -rf "$am" && mkdir -p "$am"
	if tar -xf "$LINUX_TARBALL" -C "$am" --strip-components=1 &&
		git -C "$am" init -q && git -C "$am" add -A -f &&
		git $GIT_ID -C "$am" commit -q -m tarball >/dev/null &&
		(cd "$am" && for p in $(series_list); do
			git $GIT_ID am -q --keep-cr "$TOP/patches/$p" >"$BUILD/.am-check.log" 2>&1 ||
				{ echo "$p"; exit 1; }
		done) >"$BUILD/.am-check.fail"; then
		say "    ok: $(series_count) patches applied with git am in $(elapsed "$t0")"
	else
		say "    FAIL: git am stops at $(cat "$BUILD/.am-check.fail" 2>/dev/null)"
		sed 's/^/    /' "$BUILD/.am-check.log" 2>/dev/null | head -n 20
		fails=$((fails + 1))
	fi
	rm -rf "$am" "$BUILD/.am-check.fail"
fi

step "check: scripts/checkpatch.pl on patches/series"
EXC=$TOP/patches/checkpatch-exceptions
excepted() { # PATCH TYPE
	[ -f "$EXC" ] || return 1
	sed -e 's/#.*//' "$EXC" | awk -v p="$1" -v t="$2" '
		NF >= 2 && ($1 == p || $1 == "*") && $2 == t { found = 1 }
		END { exit !found }'
}
cp_fail=0
for p in $(series_list); do
	out=$(cd "$KTREE" && perl scripts/checkpatch.pl --show-types --no-summary --color=never \
		"$TOP/patches/$p" 2>&1) || true
	bad=0 exc=0
	# Findings look like "WARNING:TYPE: message" / "ERROR:TYPE: message" / "CHECK:..."
	for t in $(printf '%s\n' "$out" | sed -n 's/^\(ERROR\|WARNING\):\([A-Z_0-9]*\):.*/\2/p'); do
		if excepted "$p" "$t"; then exc=$((exc + 1)); else bad=$((bad + 1)); fi
	done
	if [ "$bad" = 0 ]; then
		if [ "$exc" = 0 ]; then say "    ok   $p"; else say "    ok   $p ($exc excepted)"; fi
	else
		say "    FAIL $p: $bad errors/warnings"
		printf '%s\n' "$out" | grep -E -A4 '^(ERROR|WARNING):' | sed 's/^/        /' | head -n 60
		cp_fail=$((cp_fail + 1))
	fi
done
fails=$((fails + cp_fail))
[ "$fails" = 0 ] && say "check: ok" || say "check: $fails failure(s)"
[ "$fails" = 0 ]
