#!/bin/sh
# Self-test of bisect-check's W=1 counter: a 2-patch series on 'pristine'
#   1. mm/memblock.c gets a function without a prototype
#      (-Wmissing-prototypes, on a line of a C file);
#   2. include/linux/memblock.h, and only it, gets a static inline with a
#      variable set but not used (-Wunused-but-set-variable, W=1 only, on a
#      line of a header that many objects include: the W=1 list is capped);
# bisect-check runs on it and must count exactly 1 new W=1 warning for each
# patch and arch, the expected one.
#
# Everything is its own: worktree build/bisect-selftest, series
# build/bisect-selftest-series, output build/out/bisect-selftest-<arch>,
# logs build/logs/bisect-selftest/ and build/logs/bisect-selftest.summary.
# LMB_SELFTEST_ARCHS: the archs (default x86_64; "x86_64 i386" for both).
# Usage: sh scripts/bisect-w1-selftest.sh   (from the repository root)
. scripts/lib.sh

ST=$BUILD/bisect-selftest
SER=$BUILD/bisect-selftest-series
ARCHS=${LMB_SELFTEST_ARCHS:-x86_64}
STLOGS=$LOGS/bisect-selftest
STSUM=$LOGS/bisect-selftest.summary
GIT_ID="-c user.name=lmb-x86 -c user.email=lmb@lmb-x86.invalid"

git -C "$KTREE" rev-parse -q --verify 'pristine^{commit}' >/dev/null || die "build/linux has no tag 'pristine'"

# ---- the series -------------------------------------------------------------
step "bisect-w1-selftest: the 2-patch series in ${SER#"$TOP"/}"
scratch_worktree "$ST"
cat >>"$ST/mm/memblock.c" <<'EOF'

/* bisect-w1-selftest: no previous prototype. */
int bisect_w1_selftest_proto(void)
{
	return 0;
}
EOF
git $GIT_ID -C "$ST" commit -q -a -m 'selftest: Add a function without a prototype'
h=$ST/include/linux/memblock.h
awk '/^#endif \/\* _LINUX_MEMBLOCK_H \*\/$/ {
	print "/* bisect-w1-selftest: set but not used (W=1). */"
	print "static inline int bisect_w1_selftest_inline(int a)"
	print "{"
	print "\tint bisect_w1_unused;"
	print ""
	print "\tbisect_w1_unused = a;"
	print "\treturn 0;"
	print "}"
	print ""
} { print }' "$h" >"$h.new" && mv "$h.new" "$h"
grep -q bisect_w1_selftest_inline "$h" || die "no '#endif /* _LINUX_MEMBLOCK_H */' in include/linux/memblock.h"
git $GIT_ID -C "$ST" commit -q -a -m 'selftest: Add a static inline with a variable set but not used'
rm -rf "$SER"
mkdir -p "$SER"
git -C "$ST" format-patch -q --no-signature -o "$SER" 'pristine^{commit}..HEAD'
(cd "$SER" && ls -1 0*.patch) >"$SER/series"

# ---- bisect-check on it -----------------------------------------------------
rc=0
LMB_SERIES_DIR=$SER LMB_BISECT_ARCHS=$ARCHS LMB_BISECT_TREE=$ST \
LMB_BISECT_OUT=$BUILD/out/bisect-selftest LMB_BISECT_LOGS=$STLOGS \
LMB_BISECT_SUMMARY=$STSUM LMB_BISECT_W1=1 sh scripts/bisect-check.sh || rc=$?
[ "$rc" = 0 ] || die "bisect-check failed on the self-test series (summary: ${STSUM#"$TOP"/})"

# ---- the counts ---------------------------------------------------------------
step "bisect-w1-selftest: the W=1 counts"
ok=0 bad=0
for a in $ARCHS; do
	for t in "01 mm/memblock.c:.*no previous prototype for .bisect_w1_selftest_proto" \
		"02 include/linux/memblock.h:.*variable .bisect_w1_unused. set but not used"; do
		nn=${t%% *} re=${t#* }
		got=$(sed -n "s/^ok   $nn $a .*W=1: \([0-9]*\) new.*/\1/p" "$STSUM")
		if [ "$got" = 1 ] && grep -q "^$re" "$STLOGS/$nn-$a.log.w1.new"; then
			ok=$((ok + 1)); r=ok
		else
			bad=$((bad + 1)); r=FAILED
		fi
		say "patch $nn $a: W=1 ${got:-?} new (expected 1: ${re#*:.\*}) ... $r"
		sed 's/^/    /' "$STLOGS/$nn-$a.log.w1.new" 2>/dev/null || true
		sed -n 's/^W=1/    W=1/p' "$STLOGS/$nn-$a.log.w1" 2>/dev/null || true
	done
done
say "$ok passed, $bad failed"
[ "$bad" = 0 ]
