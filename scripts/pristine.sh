#!/bin/sh
# build/pristine: the untouched Debian tree for the baseline builds, as a git
# worktree of build/linux checked out at tag 'pristine' (no second extraction).
. scripts/lib.sh

[ -d "$KTREE/.git" ] || sh scripts/tree.sh
if [ ! -e "$PTREE/Makefile" ]; then
	t0=$(now)
	step "git worktree build/pristine at tag 'pristine'"
	rm -rf "$PTREE"
	git -C "$KTREE" worktree prune
	git -C "$KTREE" worktree add -q --detach "$PTREE" pristine
	say "    done in $(elapsed "$t0")"
fi
want=$(git -C "$KTREE" rev-parse 'pristine^{commit}')
[ "$(git -C "$PTREE" rev-parse HEAD)" = "$want" ] && [ -z "$(git -C "$PTREE" status --porcelain | head -n1)" ] ||
	warn "build/pristine is not the clean 'pristine' commit; baseline builds use it as it is"
exit 0
