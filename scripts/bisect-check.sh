#!/bin/sh
# make bisect-check: every prefix 1..N of patches/series builds, for each
# architecture of LMB_BISECT_ARCHS (x86_64 and i386).
#
# A scratch worktree of build/linux (build/bisect, detached; kept between
# runs so that the next run is incremental) is reset to 'pristine', then the
# patches are applied one by one with git am (once per prefix). After each
# one, for each architecture: the lmb-<arch> configuration (tinyconfig +
# configs/generic + common + <arch> + lmb, as scripts/kbuild.sh) is regenerated when
# the patch touched a Kconfig file, and bzImage is built into
# build/out/bisect-<arch> with ccache, under the machine-wide build lock
# (build/.kbuild.lock), held for one (prefix, arch) at a time.
#
# W=1: the objects that compile a file the patch adds lines to are
# recompiled with W=1 (ccache): the C files it touches, and the objects
# whose dependency files (.<obj>.o.cmd) name a header or included file it
# touches (at most LMB_BISECT_W1_MAX of those, 30; the log says when the
# list was cut). The warnings of that recompile and of the build whose
# location, or one of whose notes, is a line the patch adds are counted
# ("W=1: N new"); so are the link-stage warnings (modpost, objtool, ld)
# not seen at an earlier prefix of the run ("link: N new"). They are
# reported, not failed. LMB_BISECT_W1=0 skips this.
#
# A build failure does not stop the run (a later prefix is built and counted
# on its own); a patch that does not apply does, and the prefixes it leaves
# unbuilt count as failed. The counts are of (prefix, arch) pairs.
#
# Knobs: LMB_SERIES_DIR (default patches/: a directory with 'series' and the
# patches), LMB_BISECT_ARCHS ("x86_64 i386"; i386pae works too),
# LMB_BISECT_TREE (build/bisect), LMB_BISECT_OUT (build/out/bisect: the
# output directories are <this>-<arch>), LMB_BISECT_LOGS (build/logs/bisect),
# LMB_BISECT_SUMMARY (build/logs/bisect-check.summary), LMB_BISECT_W1 (1),
# LMB_BISECT_W1_MAX (30), JOBS.
# Logs: NN-<arch>.log per prefix and arch (.config, .w1, .w1.new, .link),
# NN.am when a patch does not apply.
. scripts/lib.sh

SDIR=${LMB_SERIES_DIR:-$TOP/patches}
case $SDIR in /*) ;; *) SDIR=$TOP/$SDIR ;; esac
ARCHS=${LMB_BISECT_ARCHS:-x86_64 i386}
WT=${LMB_BISECT_TREE:-$BUILD/bisect}
OUTB=${LMB_BISECT_OUT:-$BUILD/out/bisect}
W1=${LMB_BISECT_W1:-1}
W1MAX=${LMB_BISECT_W1_MAX:-30}
BLOGS=${LMB_BISECT_LOGS:-$LOGS/bisect}
SUMMARY=${LMB_BISECT_SUMMARY:-$LOGS/bisect-check.summary}
GIT_ID="-c user.name=lmb-x86 -c user.email=lmb@lmb-x86.invalid"

for a in $ARCHS; do
	case $a in x86_64|i386|i386pae) build_frags "lmb-$a" >/dev/null ;; *) die "LMB_BISECT_ARCHS: unknown arch $a" ;; esac
done
[ -f "$SDIR/series" ] || die "no series file in ${SDIR#"$TOP"/}"
[ -d "$KTREE/.git" ] || die "no build/linux (run make tree)"
git -C "$KTREE" rev-parse -q --verify 'pristine^{commit}' >/dev/null || die "build/linux has no tag 'pristine'"
list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SDIR/series")
n=$(printf '%s\n' "$list" | grep -c . || true)
[ "$n" -gt 0 ] || die "${SDIR#"$TOP"/}/series lists no patches"
for p in $list; do [ -f "$SDIR/$p" ] || die "series lists $p but ${SDIR#"$TOP"/}/$p does not exist"; done

T0=$(now)
rm -rf "$BLOGS"
mkdir -p "$BLOGS"
for a in $ARCHS; do mkdir -p "$OUTB-$a"; done

# ---- the scratch worktree at 'pristine' ------------------------------------
step "bisect-check: $n patches of ${SDIR#"$TOP"/}/series, $ARCHS, worktree ${WT#"$TOP"/}, output ${OUTB#"$TOP"/}-<arch>"
scratch_worktree "$WT"
# Physical paths: kbuild runs the compiler in realpath(O=) with
# srctree = realpath(tree), and ccache (CCACHE_BASEDIR) rewrites those to
# paths relative to the output directory (../../bisect/mm/lmb.c), in the
# diagnostics and in the dependency files alike.
WTP=$(cd "$WT" && pwd -P)

# ---- per prefix and arch ----------------------------------------------------
# configure LOG: lmb-$ARCH config into $OUT (as scripts/kbuild.sh).
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

# The awk function that maps a path of a diagnostic or a dependency file
# (absolute, or relative to the output directory, with ./ and ../) to a
# path in the tree ("" for a path outside it). Variables out, wt, wtl.
AWK_NORM='
function tree_path(p,   n, a, i, k, s, r) {
	if (p !~ /^\//) p = out "/" p
	n = split(p, a, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (a[i] == "" || a[i] == ".") continue
		if (a[i] == "..") { if (k > 0) k--; continue }
		s[++k] = a[i]
	}
	r = ""
	for (i = 1; i <= k; i++) r = r "/" s[i]
	if (index(r, wt "/") == 1) return substr(r, length(wt) + 2)
	if (index(r, wtl "/") == 1) return substr(r, length(wtl) + 2)
	return ""
}'

# w1_objs RANGES: the objects to recompile, "1 obj" (compiled from a
# touched C file) and "2 obj" (a touched file is among its dependencies);
# kernel C objects only (their command has -nostdinc and -c; not host tools).
w1_objs() {
	find "$OUTP" -name '.*.o.cmd' ! -path "$OUTP/scripts/*" ! -path "$OUTP/tools/*" \
		-exec awk -v out="$OUTP" -v wt="$WTP" -v wtl="$WT" "$AWK_NORM"'
		function flush() {
			if (obj != "" && kc && how) print how, obj
			obj = ""; kc = 0; how = 0; indeps = 0
		}
		NR == FNR { touched[$1] = 1; next }
		FNR == 1 { flush() }
		/^savedcmd_/ {
			obj = $1; sub(/^savedcmd_/, "", obj)
			kc = (obj ~ /\.o$/ && / -nostdinc / && / -c /)
			next
		}
		/^source_/ {
			if ($3 !~ /\.c$/) kc = 0
			else if (tree_path($3) in touched) how = 1
			next
		}
		/^deps_/ { indeps = 1; next }
		indeps && /^  [^ $]/ {
			if (!how && (tree_path($1) in touched)) how = 2
			next
		}
		END { flush() }' "$1" {} + | sort -u
}

# w1_new RANGES LOGS...: the warnings of the logs (compiler output) whose
# location or one of whose notes is an added line; one line per warning,
# the path made relative to the tree.
w1_new() {
	awk -v out="$OUTP" -v wt="$WTP" -v wtl="$WT" "$AWK_NORM"'
		function added(f, l,   i) {
			for (i = 1; i <= nr; i++)
				if (rf[i] == f && l >= rs[i] && l <= re[i]) return 1
			return 0
		}
		# loc(): split "path:line[:col]: kind: text" into f, l, rest.
		function loc(   p, m) {
			m = match($0, /^[^ :]+:[0-9]+(:[0-9]+)?: /)
			p = substr($0, 1, RLENGTH - 2); rest = substr($0, RLENGTH + 1)
			f = p; sub(/:.*/, "", f); l = substr(p, length(f) + 2); sub(/:.*/, "", l)
			f = tree_path(f); l += 0
		}
		function flush() { if (w != "" && hit) print w; w = ""; hit = 0 }
		NR == FNR { nr++; rf[nr] = $1; rs[nr] = $2; re[nr] = $3; next }
		/^[^ :]+:[0-9]+(:[0-9]+)?: warning: / {
			flush(); loc()
			w = (f == "" ? "(outside the tree)" : f) ":" l ": " rest
			hit = (f != "" && added(f, l))
			next
		}
		/^[^ :]+:[0-9]+(:[0-9]+)?: note: / {
			if (w != "" && !hit) {
				loc()
				if (f != "" && added(f, l)) { hit = 1; w = w " [note at " f ":" l "]" }
			}
			next
		}
		/^ *[0-9]* *\| / || /^ *\|/ { next }	# gcc source excerpt
		{ flush() }
		END { flush() }' "$@" | sort -u
}

# w1_check LOG: W=1 recompile (log LOG.w1) and count; prints the number of
# new warnings (listed in LOG.w1.new); link-stage ones go to LOG.link.new.
w1_check() {
	: >"$1.w1.objs"
	[ ! -s "$ranges" ] || w1_objs "$ranges" >"$1.w1.objs"
	_objs=$(sed -n 's/^1 //p' "$1.w1.objs")
	_hobjs=$(sed -n 's/^2 //p' "$1.w1.objs")
	_nh=$(printf '%s\n' "$_hobjs" | grep -c . || true)
	[ "$_nh" -le "$W1MAX" ] || _hobjs=$(printf '%s\n' "$_hobjs" | head -n "$W1MAX")
	{
		say "W=1 recompile: $(printf '%s\n' $_objs | grep -c . || true) object(s) of touched C files, $_nh including a touched file"
		[ "$_nh" -le "$W1MAX" ] || say "W=1: capped at LMB_BISECT_W1_MAX=$W1MAX of the $_nh objects including a touched file"
		say "objects:" $_objs $_hobjs
	} >"$1.w1"
	if [ -n "$_objs$_hobjs" ]; then
		kmake "$WT" "$OUT" "$ARCH" -k W=1 $_objs $_hobjs >>"$1.w1" 2>&1 || true
	fi
	: >"$1.w1.new"
	[ ! -s "$ranges" ] || w1_new "$ranges" "$1" "$1.w1" >"$1.w1.new"
	# Link-stage warnings (no source line): the ones not seen before.
	grep -hE 'WARNING: modpost: |: warning: objtool: |ld(\.[a-z]+)?: warning: ' "$1" "$1.w1" |
		sed -e 's/+0x[0-9a-f]*\(\/0x[0-9a-f]*\)\{0,1\}//g' | sort -u >"$1.link" || true
	touch "$BLOGS/.link-seen-$arch"
	comm -23 "$1.link" "$BLOGS/.link-seen-$arch" >"$1.link.new"
	sort -u "$1.link" "$BLOGS/.link-seen-$arch" -o "$BLOGS/.link-seen-$arch"
	grep -c . "$1.w1.new" || true
}

passed=0 failed=0 i=0 stop=
results=
for a in $ARCHS; do eval "w1tot_$a=0 linktot_$a=0"; done
for p in $list; do
	i=$((i + 1))
	nn=$(printf '%02d' "$i")
	subj=$(sed -n 's/^Subject: \(\[[^]]*\] \)\?//p' "$SDIR/$p" | head -n1)
	if [ -z "$stop" ] && ! git $GIT_ID -C "$WT" am -q --committer-date-is-author-date "$SDIR/$p" >"$BLOGS/$nn.am" 2>&1; then
		say "[$i/$n] $subj ... FAILED: the patch does not apply"
		sed 's/^/    /' "$BLOGS/$nn.am" | head -n 20
		git -C "$WT" am --abort >/dev/null 2>&1 || true
		stop=$i
		for a in $ARCHS; do
			failed=$((failed + 1))
			results="$results
FAIL $nn $a $p (does not apply)"
		done
		continue
	fi
	if [ -n "$stop" ]; then
		say "[$i/$n] $subj ... not built (patch $stop does not apply)"
		for a in $ARCHS; do
			failed=$((failed + 1))
			results="$results
FAIL $nn $a $p (not built: patch $stop does not apply)"
		done
		continue
	fi
	rm -f "$BLOGS/$nn.am"
	subj=$(git -C "$WT" log -1 --format=%s)
	# Added line ranges per file, from the patch's hunks (new side).
	ranges=$BLOGS/$nn.ranges
	git -C "$WT" diff --no-color --no-ext-diff --src-prefix=a/ --dst-prefix=b/ -U0 HEAD~1 HEAD | awk '
		/^\+\+\+ / { f = (substr($2, 1, 2) == "b/") ? substr($2, 3) : ""; next }
		/^@@ / && f != "" {
			split($3, r, ","); s = substr(r[1], 2) + 0; c = (2 in r) ? r[2] + 0 : 1
			if (c > 0) print f, s, s + c - 1
		}' >"$ranges"
	kconfig=$(git -C "$WT" diff --name-only HEAD~1 HEAD | grep -E '(^|/)Kconfig[^/]*$' | head -n1 || true)
	for arch in $ARCHS; do
		ARCH=$(build_arch "lmb-$arch")
		OUT=$OUTB-$arch
		frags=$(build_frags "lmb-$arch")
		log=$BLOGS/$nn-$arch.log
		klock_take
		t0=$(now)
		OUTP=$(cd "$OUT" && pwd -P)
		rc=0
		if [ "$i" = 1 ] || [ ! -f "$OUT/.config" ] || [ -n "$kconfig" ] ||
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
				nw=$(w1_check "$log")
				nl=$(grep -c . "$log.link.new" || true)
				eval "w1tot_$arch=\$((w1tot_$arch + nw)) linktot_$arch=\$((linktot_$arch + nl))"
				notes="$notes, W=1: $nw new"
				[ "$nl" = 0 ] || notes="$notes, link: $nl new"
			fi
		fi
		klock_drop
		[ -z "$klock_waited" ] || notes="$notes (after $klock_waited waiting for the lock)"
		if [ "$rc" = 0 ]; then
			passed=$((passed + 1))
			say "[$i/$n] $arch: $subj ... ok $(elapsed "$t0")$notes"
			if [ "$W1" = 1 ]; then
				sed 's/^/    W=1: /' "$log.w1.new"
				sed 's/^/    link: /' "$log.link.new"
				sed -n 's/^W=1: capped/    W=1: capped/p' "$log.w1"
			fi
			results="$results
ok   $nn $arch $p$notes"
		else
			failed=$((failed + 1))
			say "[$i/$n] $arch: $subj ... FAILED $(elapsed "$t0")$notes"
			grep -E '(error|Error)' "$log" | head -n 20 | sed 's/^/    /'
			tail_log "$log" 30
			results="$results
FAIL $nn $arch $p (build failed, log: ${log#"$TOP"/})"
		fi
	done
done

w1sum=
for a in $ARCHS; do eval "w1sum=\"\$w1sum, $a \$w1tot_$a (link: \$linktot_$a)\""; done
{
	say "bisect-check: ${SDIR#"$TOP"/}/series, $ARCHS, $(elapsed "$T0")"
	printf '%s\n' "$results" | sed '/^$/d'
	[ "$W1" = 1 ] && say "new W=1 warnings: ${w1sum#, }"
	say "$passed passed, $failed failed"
} >"$SUMMARY"
say "bisect-check done in $(elapsed "$T0") (summary: ${SUMMARY#"$TOP"/}, logs: ${BLOGS#"$TOP"/}/)"
[ "$W1" = 1 ] && say "new W=1 warnings: ${w1sum#, }"
say "$passed passed, $failed failed"
[ "$failed" = 0 ]
