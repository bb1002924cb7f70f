#!/bin/sh
# make tree: build/linux = Debian's linux-source tarball (commit tagged
# 'pristine') + patches/series, as a git tree developers can work in.
#
# Never destroys developer work: build/linux is only moved to a new series
# when its working tree is clean and HEAD is the commit the previous series
# produced (recorded in build/linux/.git/lmb-series.sha). Otherwise it is
# built as it is, with a warning.
. scripts/lib.sh
. scripts/series.sh

# ---- the Debian source package at the pinned version ----------------------
ensure_source() {
	have=$(dpkg-query -W -f='${Version}' "$LINUX_DEB_PACKAGE" 2>/dev/null || true)
	if [ "$have" = "$LINUX_DEB_VERSION" ] && [ -f "$LINUX_TARBALL" ]; then
		SRC_VERSION=$have
		return 0
	fi
	want=$LINUX_DEB_VERSION
	offered=$(apt-cache madison "$LINUX_DEB_PACKAGE" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -uVr)
	if [ -z "$offered" ]; then
		apt-get update >"$LOGS/apt-update.log" 2>&1 || true
		offered=$(apt-cache madison "$LINUX_DEB_PACKAGE" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -uVr)
	fi
	[ -n "$offered" ] || die "apt offers no $LINUX_DEB_PACKAGE at all (is bookworm-security in /etc/apt/sources.list?)"
	if ! printf '%s\n' "$offered" | grep -qxF "$want"; then
		newest=$(printf '%s\n' "$offered" | sort -V | tail -n1)
		warn "pinned $LINUX_DEB_PACKAGE=$want (kernel.mk) is not offered by apt."
		warn "apt offers: $(printf '%s\n' "$offered" | tr '\n' ' ')"
		warn "trying the newest, $newest; patches may not apply. Update LINUX_DEB_VERSION in kernel.mk."
		want=$newest
	fi
	if [ "$have" = "$want" ] && [ -f "$LINUX_TARBALL" ]; then
		SRC_VERSION=$have
		return 0
	fi
	t0=$(now)
	step "apt-get install $LINUX_DEB_PACKAGE=$want"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --allow-downgrades \
		"$LINUX_DEB_PACKAGE=$want" >"$LOGS/apt-linux-source.log" 2>&1 || {
		tail_log "$LOGS/apt-linux-source.log" 20
		die "apt-get install $LINUX_DEB_PACKAGE=$want failed"
	}
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_DEB_PACKAGE installed but $LINUX_TARBALL is missing"
	SRC_VERSION=$want
	say "    done in $(elapsed "$t0")"
}

# ---- create build/linux ----------------------------------------------------
# The pristine commit is the tarball exactly as it extracts, dot-files
# included (git add -f: the tarball's own .gitignore, whose last block is
# Debian's "ignore everything at the top level", would hide every file).
# New files of the series are added with git add -f as well (make export
# writes them like any other change). The marker lmb-import-full in .git
# tells a tree imported this way from an older, dot-file-less one.
IMPORT_MARK=lmb-import-full

create_tree() {
	ensure_source
	tmp=$KTREE.new
	rm -rf "$tmp"
	mkdir -p "$tmp"
	t0=$(now)
	step "extracting $LINUX_TARBALL into build/linux"
	tar -xf "$LINUX_TARBALL" -C "$tmp" --strip-components=1
	say "    done in $(elapsed "$t0")"
	t0=$(now)
	step "git import of the pristine tree (tag 'pristine')"
	git -C "$tmp" init -q
	git -C "$tmp" add -A -f
	GIT_AUTHOR_DATE=$PRISTINE_DATE GIT_COMMITTER_DATE=$PRISTINE_DATE \
		git $GIT_ID -C "$tmp" commit -q -m "Import Debian $LINUX_DEB_PACKAGE $SRC_VERSION" \
		--author="lmb-x86 <lmb@lmb-x86.invalid>"
	git -C "$tmp" tag pristine
	: >"$tmp/.git/$IMPORT_MARK"
	mv "$tmp" "$KTREE"
	say "    done in $(elapsed "$t0")"
}

# ---- bring build/linux to patches/ -----------------------------------------
G="git -C $KTREE"
if [ -d "$KTREE/.git" ] && [ ! -f "$KTREE/.git/$IMPORT_MARK" ]; then
	# An older import without the tarball's dot-files: set it aside.
	old=$BUILD/linux.old-import
	[ ! -e "$old" ] || die "build/linux was imported without dot-files; move it away (build/linux.old-import exists)"
	warn "build/linux was imported without the tarball's dot-files: moving it to ${old#"$TOP"/}"
	mv "$KTREE" "$old"
fi
[ -d "$KTREE/.git" ] || create_tree
$G rev-parse -q --verify pristine >/dev/null || die "build/linux has no tag 'pristine'"

stampf=$KTREE/.git/$STAMP_NAME
sha=$(series_sha)
stamp_sha= stamp_commit=
[ -f "$stampf" ] && read -r stamp_sha stamp_commit <"$stampf"
head=$($G rev-parse HEAD)
pristine=$($G rev-parse 'pristine^{commit}')
dirty=$($G status --porcelain | head -n 5)

if [ "$sha" = "$stamp_sha" ] && [ "$head" = "$stamp_commit" ] && [ -z "$dirty" ]; then
	say "build/linux is up to date with patches/ ($(series_count) patches)"
	exit 0
fi

differs() {
	warn "build/linux differs from patches/ (run make export); building it as it is."
	[ -z "$dirty" ] || warn "uncommitted changes in build/linux, e.g.: $(echo "$dirty" | head -n 3 | tr '\n' ';')"
	exit 0
}

[ "$sha" = "$stamp_sha" ] && differs	# developer commits or edits on top of the series

t0=$(now)
step "applying patches/series ($(series_count) patches) on 'pristine'"
new=$(series_apply "$KTREE/.git" pristine) || {
	say "    (build/linux left unchanged)"
	exit 1
}
say "    applied in $(elapsed "$t0")"

if [ "$($G rev-parse "$head^{tree}")" = "$($G rev-parse "$new^{tree}")" ] && [ -z "$dirty" ]; then
	# Same content (e.g. the developer applied the series himself): just record it.
	echo "$sha $head" >"$stampf"
	say "build/linux already matches patches/"
	exit 0
fi
# Move only a tree that is the product of an earlier series (or pristine).
if [ -n "$dirty" ] || { [ "$head" != "$stamp_commit" ] && [ "$head" != "$pristine" ]; }; then
	differs
fi
$G reset -q --hard "$new"
echo "$sha $new" >"$stampf"
say "build/linux is now pristine + $(series_count) patches ($(git -C "$KTREE" rev-parse --short HEAD))"
