# Series helpers (sourced after lib.sh).
#
# patches/series lists the patches to apply, one file name per line, in order
# ('#' comments and blank lines ignored). patches/0000-cover-letter.patch is
# hand-written and deliberately NOT listed: it has no diff.
#
# Patches are applied index-only (git mailinfo + git apply --cached +
# git commit-tree on a temporary index), the same way git am does it but
# without touching the working tree. The result is a commit; the working
# tree is then moved to it with 'git reset --hard', which rewrites only the
# files that differ, so kernel builds stay incremental.

SERIES=$TOP/patches/series
STAMP_NAME=lmb-series.sha

series_list() {
	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES"
}

# sha of the series file plus every listed patch: "did patches/ change?"
series_sha() {
	{
		echo "series:"
		series_list
		for p in $(series_list); do
			echo "patch: $p"
			cat "$TOP/patches/$p" 2>/dev/null || echo "MISSING"
		done
	} | sha256sum | cut -c1-64
}

series_count() { series_list | wc -l | tr -d ' '; }

# Fixed identity and dates: the same patches give the same commit ids.
GIT_ID="-c user.name=lmb-x86 -c user.email=lmb@lmb-x86.invalid"
PRISTINE_DATE='2025-01-01T00:00:00+0000'

# series_apply GITDIR BASE: apply patches/series on commit BASE without a
# working tree; prints the resulting commit id. On a failing patch, names the
# patch and the files and returns 1.
series_apply() {
	_git=$1 _base=$2
	_tmp=$(mktemp -d "$BUILD/.series.XXXXXX")
	_n=$(series_count) _i=0 _head=$(git --git-dir="$_git" rev-parse "$_base^{commit}")
	GIT_INDEX_FILE=$_tmp/index git --git-dir="$_git" read-tree "$_head"
	for _p in $(series_list); do
		_i=$((_i + 1))
		_f=$TOP/patches/$_p
		printf '    patch %d/%d %s\n' "$_i" "$_n" "$_p" >&2
		if [ ! -f "$_f" ]; then
			rm -rf "$_tmp"
			say "ERROR: patches/series lists $_p but patches/$_p does not exist" >&2
			return 1
		fi
		git mailinfo "$_tmp/msg" "$_tmp/diff" <"$_f" >"$_tmp/info"
		if ! GIT_INDEX_FILE=$_tmp/index git --git-dir="$_git" apply --cached \
			"$_tmp/diff" >"$_tmp/err" 2>&1 || ! [ -s "$_tmp/diff" ]; then
			{
				say "ERROR: patch $_i/$_n patches/$_p does not apply"
				[ -s "$_tmp/diff" ] || say "    (the patch has no diff)"
				files=$(sed -n -e 's/^error: patch failed: \(.*\):[0-9]*$/\1/p' \
					-e 's/^error: \([^:]*\): \(patch does not apply\|does not exist in index\|already exists in index\)$/\1/p' \
					"$_tmp/err" | sort -u | tr '\n' ' ')
				[ -z "$files" ] || say "    file(s): $files"
				sed 's/^/    git apply: /' "$_tmp/err"
			} >&2
			rm -rf "$_tmp"
			return 1
		fi
		_an=$(sed -n 's/^Author: //p' "$_tmp/info")
		_ae=$(sed -n 's/^Email: //p' "$_tmp/info")
		_ad=$(sed -n 's/^Date: //p' "$_tmp/info")
		_su=$(sed -n 's/^Subject: //p' "$_tmp/info")
		{
			printf '%s\n' "$_su"
			if [ -s "$_tmp/msg" ]; then printf '\n'; cat "$_tmp/msg"; fi
		} | git stripspace >"$_tmp/log"
		_tree=$(GIT_INDEX_FILE=$_tmp/index git --git-dir="$_git" write-tree)
		_head=$(GIT_AUTHOR_NAME=${_an:-unknown} GIT_AUTHOR_EMAIL=${_ae:-unknown} \
			GIT_AUTHOR_DATE=${_ad:-$PRISTINE_DATE} GIT_COMMITTER_DATE=${_ad:-$PRISTINE_DATE} \
			git $GIT_ID --git-dir="$_git" commit-tree "$_tree" -p "$_head" -F "$_tmp/log")
	done
	rm -rf "$_tmp"
	echo "$_head"
}
