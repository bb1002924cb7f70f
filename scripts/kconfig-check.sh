#!/bin/sh
# make kconfig-check: make olddefconfig prints no warning on build/linux
# (pristine + patches/, whatever series is there) for
#   allyesconfig, allmodconfig        x86_64 and i386
#   Debian's three amd64 configs      linux-config-6.12: amd64, cloud-amd64, rt-amd64
#   x86_64_defconfig + configs/tdx-host.config   INTEL_TDX_HOST, which keeps
#                                     memblock (here LMB) after boot
# One test per config: any line of olddefconfig's output with "warning",
# "unmet", "recursive" or "error" fails it, unless build/pristine prints
# the same line for the same config (then it is shown, not counted: it is
# not the series'). The TDX config must really have INTEL_TDX_HOST=y and
# ARCH_KEEP_MEMBLOCK=y, and, if the tree has ARCH_DISCARD_LMB, not discard
# LMB (DESIGN.md: configurations that keep memblock keep LMB).
# LMB_KCONFIG_CONFIGS="tdx ..." checks only those.
# Ends with "N passed, N failed" (summary build/logs/kconfig-check.summary).
# Every make runs under the machine-wide build lock, one at a time.
# Outputs: build/out/kconfig/<lmb|base>-<arch> (one per tree and arch, the
# .config replaced per config); logs and resulting configs in
# build/logs/kconfig/<lmb|base>-<config>.{log,warn,config}.
. scripts/lib.sh

SUMMARY=$LOGS/kconfig-check.summary
KL=$LOGS/kconfig
P=0 F=0
: >"$SUMMARY"
rm -rf "$KL"
mkdir -p "$KL"
pass() { P=$((P + 1)); echo "ok   $1" | tee -a "$SUMMARY"; }
fail() { F=$((F + 1)); echo "FAIL $1" | tee -a "$SUMMARY"; }
T0=$(now)

sh scripts/tree.sh >/dev/null && sh scripts/pristine.sh >/dev/null || die "no build/linux or build/pristine"
debconfig_ensure

# kconf TREE CONFIG: CONFIG's .config on TREE (lmb: build/linux, base:
# build/pristine), then make olddefconfig; its output in $KL/TREE-CONFIG.log,
# the warning lines in .warn, the result in .config
kconf() {
	src=$KTREE
	[ "$1" = lmb ] || src=$PTREE
	a=x86_64
	case $2 in *-i386) a=i386 ;; esac
	o=$BUILD/out/kconfig/$1-$a l=$KL/$1-$2
	mkdir -p "$o"
	rm -f "$o/.config"
	case $2 in
	allyes-* | allmod-*)
		klock kmake "$src" "$o" "$a" "${2%-*}config" >"$l.gen" 2>&1 ;;
	debian-*)
		xz -dc "$LINUX_DEB_CONFIG_DIR/$(debconfig_name "${2#debian-}")" >"$o/.config" ;;
	tdx)
		klock kmake "$src" "$o" x86_64 x86_64_defconfig >"$l.gen" 2>&1 &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$TOP/configs/tdx-host.config" >>"$l.gen" 2>&1 ;;
	esac || { tail_log "$l.gen" 20; return 1; }
	klock kmake "$src" "$o" "$a" olddefconfig >"$l.log" 2>&1 || { tail_log "$l.log" 20; return 1; }
	cp "$o/.config" "$l.config"
	grep -iE 'warning|unmet|recursive|error' "$l.log" | sed 's/^[[:space:]]*//' >"$l.warn" || true
}

step "make olddefconfig on build/linux and build/pristine (each make under ${KLOCK#"$TOP"/})"
for c in ${LMB_KCONFIG_CONFIGS:-allyes-x86_64 allmod-x86_64 allyes-i386 allmod-i386 debian-amd64 debian-cloud debian-rt tdx}; do
	t0=$(now)
	if ! kconf lmb "$c"; then fail "olddefconfig $c: configuration failed ($KL/lmb-$c.log)"; continue; fi
	kconf base "$c" || : >"$KL/base-$c.warn"
	new=$(grep -vxF -f "$KL/base-$c.warn" "$KL/lmb-$c.warn" || true)
	old=$(grep -xF -f "$KL/base-$c.warn" "$KL/lmb-$c.warn" || true)
	[ -z "$old" ] || printf '%s\n' "$old" | sed "s/^/    (pristine prints it too) /"
	bad= note=
	if [ "$c" = tdx ]; then
		cf=$KL/lmb-tdx.config
		for s in CONFIG_INTEL_TDX_HOST=y CONFIG_ARCH_KEEP_MEMBLOCK=y; do
			grep -qx "$s" "$cf" || bad="$bad $s missing;"
		done
		if grep -qx 'CONFIG_ARCH_DISCARD_LMB=y' "$cf"; then
			bad="$bad ARCH_DISCARD_LMB=y although memblock is kept;"
		elif grep -qx 'CONFIG_LMB=y' "$cf"; then
			note=", LMB kept after boot"
		fi
	fi
	nnew=$(printf '%s\n' "$new" | grep -c . || true)
	if [ "$nnew" = 0 ] && [ -z "$bad" ]; then
		pass "olddefconfig $c: no warning$([ -z "$old" ] || echo " beyond pristine's $(printf '%s\n' "$old" | wc -l)")$note ($(elapsed "$t0"))"
	else
		[ -z "$new" ] || printf '%s\n' "$new" | sed 's/^/    /'
		fail "olddefconfig $c: $nnew warning(s) pristine does not print;$bad (${KL#"$TOP"/}/lmb-$c.log)"
	fi
done

say ""
say "==== summary (kconfig-check, $(elapsed "$T0")) ===="
cat "$SUMMARY"
say "$P passed, $F failed"
[ "$F" = 0 ]
