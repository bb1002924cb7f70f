#!/bin/sh
# make bisect-check: every prefix 1..N of patches/series builds (x86_64).
#
# A scratch worktree of build/linux (build/bisect, detached; kept between
# runs so that the next run is incremental) is reset to 'pristine', then the
# patches are applied one by one with git am; after each one the lmb-x86_64
# configuration (tinyconfig + configs/common + x86_64 + lmb, as
# scripts/kbuild.sh) is regenerated when the patch touched a Kconfig file,
# and bzImage is built into build/out/bisect-x86_64 with ccache, each prefix
# under the machine-wide build lock (build/.kbuild.lock).
#
# W=1: the C files the patch touches are recompiled with W=1 (ccache) and the
# warnings on lines the patch adds are counted ("new W=1 warnings"); they are
# reported, not failed. LMB_BISECT_W1=0 skips this.
#
# A build failure does not stop the run (a later prefix is built and counted
# on its own); a patch that does not apply does, and the prefixes it leaves
# unbuilt count as failed.
#
# Knobs: LMB_SERIES_DIR (default patches/: a directory with 'series' and the
# patches), LMB_BISECT_TREE (build/bisect), LMB_BISECT_OUT
# (build/out/bisect-x86_64), LMB_BISECT_W1 (1), JOBS.
# Logs: build/logs/bisect/NN.log per prefix, build/logs/bisect-check.summary.
. scripts/lib.sh

SDIR=${LMB_SERIES_DIR:-$TOP/patches}
case $SDIR in /*) ;; *) SDIR=$TOP/$SDIR ;; esac
WT=${LMB_BISECT_TREE:-$BUILD/bisect}
OUT=${LMB_BISECT_OUT:-$BUILD/out/bisect-x86_64}
W1=${LMB_BISECT_W1:-1}
BLOGS=$LOGS/bisect
SUMMARY=$LOGS/bisect-check.summary
ARCH=x86_64
frags=$(build_frags lmb-x86_64)
GIT_ID="-c user.name=lmb-x86 -c user.email=lmb@lmb-x86.invalid"

[ -f "$SDIR/series" ] || die "no series file in ${SDIR#"$TOP"/}"
[ -d "$KTREE/.git" ] || die "no build/linux (run make tree)"
git -C "$KTREE" rev-parse -q --verify 'pristine^{commit}' >/dev/null || die "build/linux has no tag 'pristine'"
list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SDIR/series")
n=$(printf '%s\n' "$list" | grep -c . || true)
[ "$n" -gt 0 ] || die "${SDIR#"$TOP"/}/series lists no patches"
for p in $list; do [ -f "$SDIR/$p" ] || die "series lists $p but ${SDIR#"$TOP"/}/$p does not exist"; done

T0=$(now)
rm -rf "$BLOGS"
mkdir -p "$BLOGS" "$OUT"

# ---- the scratch worktree at 'pristine' ------------------------------------
step "bisect-check: $n patches of ${SDIR#"$TOP"/}/series, x86_64, worktree ${WT#"$TOP"/}, output ${OUT#"$TOP"/}"
if [ -e "$WT/.git" ]; then
	git -C "$WT" am --abort >/dev/null 2>&1 || true
	git -C "$WT" reset -q --hard 'pristine^{commit}'
	git -C "$WT" clean -qfdx
else
	git -C "$KTREE" worktree prune
	git -C "$KTREE" worktree add -q --detach "$WT" 'pristine^{commit}' ||
		die "git worktree add ${WT#"$TOP"/} failed"
fi

# ---- per prefix -------------------------------------------------------------
# klock_take / klock_drop (lib.sh): the machine-wide kernel build lock, held for one
# prefix (config + build + W=1) so that other builds can run in between.
# The progress line's time is the build's, without the wait for the lock.

# configure LOG: lmb-x86_64 config into $OUT (as scripts/kbuild.sh).
configure() {
	{
		kmake "$WT" "$OUT" "$ARCH" tinyconfig &&
		"$WT/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" $frags &&
		kmake "$WT" "$OUT" "$ARCH" olddefconfig
	} >"$1" 2>&1
}

# Requested =y symbols of the fragments that the tree defines but the
# config does not have (reported, e.g. CONFIG_LMB before x86 selects it).
config_notes() {
	_m=
	for _f in $frags; do
		for _s in $(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=y$/\1/p' "$_f"); do
			grep -qx "$_s=y" "$OUT/.config" && continue
			grep -rqsx "\(menu\)\?config ${_s#CONFIG_}" --include='Kconfig*' "$WT" || continue
			_m="$_m $_s"
		done
	done
	echo "${_m# }"
}

# w1_check PATCHFILE LOG: recompile the .c files the patch touches (and that
# this config builds) with W=1; prints the number of warnings on lines the
# patch added; the warnings go to LOG.new.
w1_check() {
	_objs=
	for _c in $(git -C "$WT" diff --name-only --diff-filter=AM HEAD~1 HEAD -- '*.c'); do
		case $_c in tools/*|scripts/*|Documentation/*) continue ;; esac
		[ -f "$OUT/${_c%.c}.o" ] && _objs="$_objs ${_c%.c}.o"
	done
	: >"$2.new"
	[ -n "$_objs" ] || { echo 0; return 0; }
	kmake "$WT" "$OUT" "$ARCH" W=1 $_objs >"$2" 2>&1 || true
	# Added line ranges per file, from the patch's hunks (new side).
	git -C "$WT" diff -U0 HEAD~1 HEAD -- '*.c' '*.h' | awk '
		/^\+\+\+ b\// { f = substr($2, 3); next }
		/^@@ / {
			split($3, a, ","); s = substr(a[1], 2) + 0; c = (2 in a) ? a[2] + 0 : 1
			if (c > 0) print f, s, s + c - 1
		}' >"$2.ranges"
	awk -v src="$WT/" '
		NR == FNR { n++; rf[n] = $1; rs[n] = $2; re[n] = $3; next }
		/: warning: / {
			line = $0; sub("^" src, "", line)
			split(line, p, ":"); f = p[1]; l = p[2] + 0
			sub("^\\./", "", f)
			for (i = 1; i <= n; i++)
				if (rf[i] == f && l >= rs[i] && l <= re[i]) { print line; break }
		}' "$2.ranges" - <"$2" | sort -u >"$2.new"
	grep -c . "$2.new" || true
}

passed=0 failed=0 i=0 stop=
results=
for p in $list; do
	i=$((i + 1))
	nn=$(printf '%02d' "$i")
	log=$BLOGS/$nn.log
	subj=$(sed -n 's/^Subject: \(\[[^]]*\] \)\?//p' "$SDIR/$p" | head -n1)
	if [ -n "$stop" ]; then
		say "[$i/$n] $subj ... not built (patch $stop does not apply)"
		failed=$((failed + 1))
		results="$results
FAIL $nn $p (not built: patch $stop does not apply)"
		continue
	fi
	if ! git $GIT_ID -C "$WT" am -q --committer-date-is-author-date "$SDIR/$p" >"$log.am" 2>&1; then
		say "[$i/$n] $subj ... FAILED: the patch does not apply"
		sed 's/^/    /' "$log.am" | head -n 20
		git -C "$WT" am --abort >/dev/null 2>&1 || true
		failed=$((failed + 1)) stop=$i
		results="$results
FAIL $nn $p (does not apply)"
		continue
	fi
	subj=$(git -C "$WT" log -1 --format=%s)
	klock_take
	t0=$(now)
	rc=0
	if [ "$i" = 1 ] || [ ! -f "$OUT/.config" ] ||
		[ -n "$(git -C "$WT" diff --name-only HEAD~1 HEAD | grep -E '(^|/)Kconfig[^/]*$' | head -n1)" ] ||
		[ "$(cat "$OUT/.lmb-fragments.sha" 2>/dev/null)" != "$(cat $frags | sha256sum | cut -c1-64)" ]; then
		configure "$log.config" || rc=$?
		[ "$rc" = 0 ] && cat $frags | sha256sum | cut -c1-64 >"$OUT/.lmb-fragments.sha"
		[ "$rc" = 0 ] || { rm -f "$OUT/.lmb-fragments.sha"; cp "$log.config" "$log"; }
	fi
	[ "$rc" = 0 ] && { kmake "$WT" "$OUT" "$ARCH" bzImage >"$log" 2>&1 || rc=$?; }
	notes=
	if [ "$rc" = 0 ]; then
		miss=$(config_notes)
		[ -z "$miss" ] || notes=" (not =y yet: $miss)"
		if [ "$W1" = 1 ]; then
			nw=$(w1_check "$SDIR/$p" "$log.w1")
			notes="$notes, W=1: $nw new"
		fi
	fi
	klock_drop
	[ -z "$klock_waited" ] || notes="$notes (after $klock_waited waiting for the lock)"
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		say "[$i/$n] $subj ... ok $(elapsed "$t0")$notes"
		[ "$W1" = 1 ] && [ -s "$log.w1.new" ] && sed 's/^/    W=1: /' "$log.w1.new"
		results="$results
ok   $nn $p$notes"
	else
		failed=$((failed + 1))
		say "[$i/$n] $subj ... FAILED $(elapsed "$t0")$notes"
		grep -E '(error|Error)' "$log" | head -n 20 | sed 's/^/    /'
		tail_log "$log" 30
		results="$results
FAIL $nn $p (build failed, log: ${log#"$TOP"/})"
	fi
done

{
	say "bisect-check: ${SDIR#"$TOP"/}/series, x86_64, $(elapsed "$T0")"
	printf '%s\n' "$results" | sed '/^$/d'
	say "$passed passed, $failed failed"
} >"$SUMMARY"
say "bisect-check done in $(elapsed "$T0") (summary: ${SUMMARY#"$TOP"/}, logs: ${BLOGS#"$TOP"/}/)"
say "$passed passed, $failed failed"
[ "$failed" = 0 ]
