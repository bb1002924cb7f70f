#!/bin/sh
# Configure and build one kernel: scripts/kbuild.sh <lmb|base>-<variant>
# (variants: x86_64 i386 i386pae tdx-host cloud; scripts/lib.sh).
#   config: tinyconfig + configs/generic.config (+ configs/common.config on
#           x86) + configs/<variant>.config,
#           or for a Debian variant (cloud) Debian's config + make
#           mod2noconfig + configs/<variant>.config; + configs/lmb.config
#           for lmb-*; merged with merge_config.sh, then every requested
#           symbol is verified in the final .config.
#   build:  bzImage or arm64's Image (and vmlinux), out of tree in build/out/<name>, ccache,
#           under the build/.kbuild.lock lock (one kernel build at a time).
#   progress: every 15 s, steps done of the steps a full build of this
#           variant takes (the last full build's count, or configs/build-steps
#           for a first build) and the time left at the rate so far.
. scripts/lib.sh

name=$1
src=$(build_src "$name")
arch=$(build_arch "$name")
out=$(build_out "$name")
frags=$(build_frags "$name")
deb=$(build_debconfig "$name")
log=$LOGS/build-$name.log
[ -f "$src/Makefile" ] || die "no kernel tree at $src (run make tree / make baseline)"
mkdir -p "$out"

fsha=$(cat $frags ${deb:+"$deb"} | sha256sum | cut -c1-64)
# Nothing to do: same fragments, and no file of the tree newer than the
# kernel built from it. Said without waiting for the build lock (a no-op
# make would wait for whatever build holds it).
img=$(build_image "$name")
if [ -f "$img" ] && [ -f "$out/vmlinux" ] && [ "$(cat "$out/.lmb-fragments.sha" 2>/dev/null)" = "$fsha" ] &&
	[ -z "$(find "$src" -path "$src/.git" -prune -o -type f -newer "$img" -print | head -n1)" ]; then
	step "[build $name] up to date (same fragments, nothing in ${src#"$TOP"/} newer than its image)"
	exit 0
fi

# One kernel build at a time on this machine (the lead's manual builds use
# 'flock build/.kbuild.lock make ...' too). Held until this script exits.
klock_take
[ -z "$klock_waited" ] || say "    got the lock after $klock_waited"

# ---- config ---------------------------------------------------------------
# Regenerated unless .config is newer than every Kconfig file of the tree and
# was made from the same fragments (the stamp holds their sha).
t0=$(now)
if [ -f "$out/.config" ] && [ "$(cat "$out/.lmb-fragments.sha" 2>/dev/null)" = "$fsha" ] &&
	[ -z "$(find "$src" -path "$src/.git" -prune -o -name 'Kconfig*' -newer "$out/.config" -print | head -n1)" ]; then
	step "[build $name] config unchanged (fragments and Kconfig files)"
else
	step "[build $name] config: $([ -n "$deb" ] && echo "${deb##*/} + mod2noconfig" || echo tinyconfig) +$(for f in $frags; do printf ' %s' "${f#"$TOP"/}"; done)"
	rm -f "$out/.lmb-fragments.sha"
	{
		if [ -n "$deb" ]; then
			xz -dc "$deb" >"$out/.config" && kmake "$src" "$out" "$arch" mod2noconfig
		else
			kmake "$src" "$out" "$arch" tinyconfig
		fi &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags &&
		kmake "$src" "$out" "$arch" olddefconfig
	} >"$log.config" 2>&1 || {
		tail_log "$log.config"
		die "[build $name] configuration failed (log: $log.config)"
	}
fi

# Every CONFIG_X=y requested by a fragment must be =y now (merge_config
# silently drops symbols whose dependencies are not met), every other
# CONFIG_X=VALUE must have that value, and every "# CONFIG_X is not set"
# must not be =y. A symbol that a later fragment sets again is checked
# there only (tdx-host turns off common.config's kexec).
missing= undefined=
set -- $frags
for f in $frags; do
	shift
	# only the forms checked below, so that a later line moves a check
	# rather than drop it
	later=$(cat /dev/null "$@" | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=[^ ]*$/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p')
	for sym in $(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=y$/\1/p' "$f"); do
		grep -qx "$sym=y" "$out/.config" && continue
		printf '%s\n' "$later" | grep -qx "$sym" && continue
		# A symbol the tree does not define at all (e.g. CONFIG_LMB before the
		# series adds it) is reported but only fatal for non-lmb fragments.
		if [ "${f##*/}" = lmb.config ] &&
			! grep -rqsx "\(menu\)\?config ${sym#CONFIG_}" --include='Kconfig*' "$src"; then
			undefined="$undefined $sym"
			continue
		fi
		missing="$missing $sym(${f##*/})"
	done
	for sv in $(sed -n '/=y$/d; s/^\(CONFIG_[A-Za-z0-9_]*=[^ ]*\)$/\1/p' "$f"); do
		grep -qx "$sv" "$out/.config" && continue
		printf '%s\n' "$later" | grep -qx "${sv%%=*}" ||
			missing="$missing $sv(${f##*/})"
	done
	for sym in $(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$f"); do
		grep -qx "$sym=y" "$out/.config" || continue
		printf '%s\n' "$later" | grep -qx "$sym" ||
			missing="$missing !$sym(${f##*/})"
	done
done
[ -z "$undefined" ] || warn "[build $name] not defined by the tree (series does not add them yet):$undefined"
[ -z "$missing" ] || die "[build $name] requested config symbols missing from $out/.config (unmet dependencies?):$missing"
echo "$fsha" >"$out/.lmb-fragments.sha"
say "    config ok in $(elapsed "$t0")"

# ---- build ----------------------------------------------------------------
# Steps are kbuild's quiet lines ("  CC      mm/lmb.o", "  LD ...").
steps() { grep -c '^  [A-Z]' "$1" 2>/dev/null || true; }
# mins SECONDS -> "3m07s"
mins() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
v=$(build_variant "$name")
other=$(case $name in lmb-*) echo "base-$v" ;; *) echo "lmb-$v" ;; esac)
total=$(cat "$out/.lmb-steps" "$(build_out "$other")/.lmb-steps" 2>/dev/null | head -n 1 || true)
[ -n "$total" ] || total=$(sed -n "s/^$v[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p" "$TOP/configs/build-steps" 2>/dev/null || true)
full=1
[ ! -f "$out/vmlinux" ] || full=0
t0=$(now)
target=$(build_target "$name")
step "[build $name] make $target -j$JOBS (full log: ${log#"$TOP"/})"
kmake "$src" "$out" "$arch" "$target" >"$log" 2>&1 &
pid=$!
s0=$(date +%s)
last=$s0
while kill -0 "$pid" 2>/dev/null; do
	sleep 1
	t=$(date +%s)
	[ $((t - last)) -ge 15 ] || continue
	last=$t
	n=$(steps "$log") e=$((t - s0))
	if [ "$full" = 0 ] || [ -z "$total" ]; then
		printf '  [build %s] %d steps, %s%s\n' "$name" "$n" "$(mins $e)" \
			"${total:+ (incremental: a full build is $total steps)}"
	elif [ "$n" -ge "$total" ]; then
		printf '  [build %s] %d steps (a full build was %d), %s\n' "$name" "$n" "$total" "$(mins $e)"
	else
		printf '  [build %s] %d/%d steps (%d%%), %s, about %s left\n' "$name" "$n" "$total" \
			$((n * 100 / total)) "$(mins $e)" "$(mins $((n ? e * (total - n) / n : 0)))"
	fi
done
if ! wait "$pid"; then
	grep -E '(error|Error)' "$log" | head -n 20 | sed 's/^/    /'
	tail_log "$log"
	die "[build $name] kernel build failed (log: $log)"
fi
n=$(steps "$log")
# a full build's count is the total for the next one of this variant
[ "$full" = 0 ] || echo "$n" >"$out/.lmb-steps"
say "    [build $name] $n steps, done in $(elapsed "$t0")$([ "$full" = 1 ] && echo " (full build)"): ${img#"$TOP"/}"
