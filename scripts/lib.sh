# Common helpers for the harness scripts (POSIX sh, sourced).
# Every script runs from the repository root (the Makefile cds there).

set -eu

TOP=${TOP:-$(pwd)}
BUILD=$TOP/build
LOGS=$BUILD/logs
KTREE=$BUILD/linux
PTREE=$BUILD/pristine
# One lock per machine for kernel builds; a scratch checkout can share the
# main checkout's lock with LMB_KBUILD_LOCK=/path/to/build/.kbuild.lock.
KLOCK=${LMB_KBUILD_LOCK:-$BUILD/.kbuild.lock}
mkdir -p "$LOGS"

# kernel.mk is the one place for the version pin.
kmk() { sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "$TOP/kernel.mk"; }
LINUX_DEB_PACKAGE=$(kmk LINUX_DEB_PACKAGE)
LINUX_DEB_VERSION=$(kmk LINUX_DEB_VERSION)
LINUX_TARBALL=$(kmk LINUX_TARBALL)
LINUX_DEB_CONFIG_PACKAGE=$(kmk LINUX_DEB_CONFIG_PACKAGE)
LINUX_DEB_CONFIG_DIR=$(kmk LINUX_DEB_CONFIG_DIR)

say()  { printf '%s\n' "$*"; }
step() { printf '==> %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die()  { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

now() { date +%s.%N; }
# elapsed START -> "12.3s"
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

# tail_log FILE [N]: the last N (40) lines of a log, indented.
tail_log() {
	say "---- last ${2:-40} lines of $1 ----"
	tail -n "${2:-40}" "$1" | sed 's/^/| /'
	say "---- end of $1 ----"
}

# Kernel builds of this repository: one at a time on this machine.
# Everything that runs make in a kernel tree goes through klock.
# Runs "$@" in a subshell holding the lock, so that a shell function
# (kmake) works as well as a command.
klock() { (exec 9>>"$KLOCK" && flock 9 && "$@"); }
# klock_take / klock_drop: hold the same lock on fd 9 across several steps
# of a script (released at exit at the latest); klock_waited is how long
# klock_take waited for it (empty if it was free).
klock_take() {
	exec 9>"$KLOCK"
	klock_waited=
	if ! flock -n 9; then
		_t=$(now)
		say "    waiting for ${KLOCK#"$TOP"/} (another kernel build is running)"
		flock 9
		klock_waited=$(elapsed "$_t")
	fi
}
klock_drop() { exec 9>&-; }

# The builds: <kind>-<variant>, kind lmb or base. lmb-* builds use
# build/linux (pristine + patches/) and configs/lmb.config, base-* builds
# use build/pristine (the untouched Debian tree). Variants:
#   x86_64, i386, i386pae: tinyconfig + configs/generic.config +
#     configs/common.config + configs/<variant>.config (make test);
#   tdx-host: x86_64 + configs/tdx-host.config: INTEL_TDX_HOST, which
#     keeps memblock (here LMB) resident after boot (make test);
#   arm64: tinyconfig + generic.config + configs/arm64.config,
#     cross-compiled (Debian's gcc-aarch64-linux-gnu), booted on QEMU's
#     virt machine (make test-arch);
#   arm: tinyconfig + generic.config + configs/arm.config (ARMv7 virt,
#     LPAE, highmem; Debian's gcc-arm-linux-gnueabihf), on QEMU's virt
#     machine (make test-arch);
#   ppc64le, s390x, riscv64: tinyconfig + generic.config +
#     configs/<variant>.config, built with ARCH=powerpc, s390, riscv
#     (Debian's gcc-powerpc64le-linux-gnu, gcc-s390x-linux-gnu,
#     gcc-riscv64-linux-gnu), on QEMU's pseries, s390-ccw-virtio and virt
#     machines (make test-arch);
#   cloud: Debian's own cloud-amd64 config (package linux-config-6.12, see
#     build_debconfig), built-in part only (make mod2noconfig), +
#     configs/cloud.config (make test-distro).
BUILDS_VARIANTS="x86_64 i386 i386pae"
DISTRO_VARIANTS="cloud"
build_src()  { case $1 in lmb-*) echo "$KTREE" ;; base-*) echo "$PTREE" ;; *) die "unknown build $1" ;; esac; }
build_variant() { echo "${1#*-}"; }
build_arch() {
	case $1 in
	*-x86_64|*-cloud|*-tdx-host) echo x86_64 ;; *-i386*) echo i386 ;; *-arm64) echo arm64 ;; *-arm) echo arm ;;
	*-ppc64le) echo powerpc ;; *-s390x) echo s390 ;; *-riscv64) echo riscv ;; *) die "unknown build $1" ;;
	esac
}
build_out()  { echo "$BUILD/out/$1"; }
# the image QEMU boots (-kernel) and the make target that builds it
# (powerpc: the ELF vmlinux, which QEMU's pseries firmware loads)
build_target() { case $(build_arch "$1") in arm64|riscv) echo Image ;; arm) echo zImage ;; powerpc) echo vmlinux ;; *) echo bzImage ;; esac; }
build_image() {
	case $(build_target "$1") in
	vmlinux) echo "$BUILD/out/$1/vmlinux" ;;
	*) echo "$BUILD/out/$1/arch/$(kernel_arch "$(build_arch "$1")")/boot/$(build_target "$1")" ;;
	esac
}
# kernel_arch ARCH: the kernel's ARCH= (x86_64 and i386 are both arch/x86)
kernel_arch() { case $1 in arm64|arm|powerpc|s390|riscv) echo "$1" ;; *) echo x86 ;; esac; }
# cross_prefix ARCH: CROSS_COMPILE for ARCH (Debian's cross compilers;
# make compile-check builds the kernel's ARCH=riscv, arm, powerpc, s390 and
# tinyconfig on every other architecture Debian has a compiler for; ppc32 is
# ARCH=powerpc with the 32-bit compiler, sparc64 and parisc the kernel's
# names for Debian's sparc64 and hppa)
cross_prefix() {
	case $1 in
	arm64) echo aarch64-linux-gnu- ;;
	riscv) echo riscv64-linux-gnu- ;;
	arm) echo arm-linux-gnueabihf- ;;
	powerpc) echo powerpc64le-linux-gnu- ;;
	ppc32) echo powerpc-linux-gnu- ;;
	s390) echo s390x-linux-gnu- ;;
	mips) echo mips-linux-gnu- ;;
	sh) echo sh4-linux-gnu- ;;
	sparc64) echo sparc64-linux-gnu- ;;
	m68k) echo m68k-linux-gnu- ;;
	alpha) echo alpha-linux-gnu- ;;
	parisc) echo hppa-linux-gnu- ;;
	arc) echo arc-linux-gnu- ;;
	esac
}
# cross_package ARCH: the Debian package of that cross compiler
cross_package() { _p=$(cross_prefix "$1"); [ -z "$_p" ] || echo "gcc-${_p%-}"; }
# build_debconfig NAME: the Debian config file the build starts from (empty:
# tinyconfig). Debian's file names: config.<arch>_<featureset>_<flavour>.xz.
debconfig_name() {
	case $1 in
	cloud) echo config.amd64_none_cloud-amd64.xz ;;
	amd64) echo config.amd64_none_amd64.xz ;;
	rt) echo config.amd64_rt_amd64.xz ;;
	esac
}
build_debconfig() {
	f=$(debconfig_name "$(build_variant "$1")")
	[ -n "$f" ] || return 0
	debconfig_ensure
	echo "$LINUX_DEB_CONFIG_DIR/$f"
}
# debconfig_ensure: package linux-config-6.12 at the source's version.
debconfig_ensure() {
	[ "$(dpkg-query -W -f='${Version}' "$LINUX_DEB_CONFIG_PACKAGE" 2>/dev/null || true)" = "$LINUX_DEB_VERSION" ] &&
		return 0
	step "apt-get install $LINUX_DEB_CONFIG_PACKAGE=$LINUX_DEB_VERSION (Debian's kernel configs)" >&2
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --allow-downgrades \
		"$LINUX_DEB_CONFIG_PACKAGE=$LINUX_DEB_VERSION" ||
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			--allow-downgrades "$LINUX_DEB_CONFIG_PACKAGE=$LINUX_DEB_VERSION"; }; } \
		>"$LOGS/apt-linux-config.log" 2>&1 || {
		tail_log "$LOGS/apt-linux-config.log" 20 >&2
		die "apt-get install $LINUX_DEB_CONFIG_PACKAGE=$LINUX_DEB_VERSION failed"
	}
}
build_frags() {
	v=$(build_variant "$1")
	[ -f "$TOP/configs/$v.config" ] || die "no configs/$v.config for build $1"
	set -- "$1" "$TOP/configs/$v.config"
	# generic.config for every tinyconfig build, then common.config (x86's)
	case $(debconfig_name "$v")/$(build_arch "$1") in
	/x86_64|/i386) set -- "$1" "$TOP/configs/generic.config" "$TOP/configs/common.config" "$2" ;;
	/*) set -- "$1" "$TOP/configs/generic.config" "$2" ;;
	esac
	# tdx-host is x86_64 with more: its fragment comes last, to override
	[ "$v" != tdx-host ] || set -- "$1" "$2" "$3" "$TOP/configs/x86_64.config" "$4"
	case $1 in lmb-*) set -- "$@" "$TOP/configs/lmb.config" ;; esac
	shift
	echo "$@"
}

# Reproducible kernel builds (and better ccache hits).
export KBUILD_BUILD_TIMESTAMP='2025-01-01 00:00:00 UTC'
export KBUILD_BUILD_USER=lmb KBUILD_BUILD_HOST=lmb-x86
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Builds use absolute paths (O=...); make them relative so that another
# checkout of this repository (CI's fresh clone) hits the same cache entries.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
# With debug info (the cloud config) ccache also hashes the working
# directory, so a fresh clone missed every object of a cloud build that
# another checkout had cached (2026-12-04: 36% after 9.5 min, as cold).
# The cost: such an object's DW_AT_comp_dir names the checkout that
# compiled it first; nothing here reads it.
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
JOBS=${JOBS:-$(nproc)}

# kmake SRC OUT ARCH ARGS...: make in a kernel tree (caller holds the lock).
# LOCALVERSION= (set but empty) keeps setlocalversion from appending "+"
# and from calling git, so versions do not change with the tree's git state.
kmake() {
	_src=$1 _out=$2 _arch=$3
	shift 3
	_cross=$(cross_prefix "$_arch")
	[ "$_arch" != ppc32 ] || _arch=powerpc
	make -C "$_src" O="$_out" ARCH="$_arch" ${_cross:+CROSS_COMPILE=$_cross} \
		CC="ccache ${_cross}gcc" LOCALVERSION= -j"$JOBS" "$@"
}

# scratch_worktree DIR: DIR, a detached worktree of build/linux, reset to
# 'pristine' (created if missing; kept between runs for incremental builds).
scratch_worktree() {
	if [ -e "$1/.git" ]; then
		git -C "$1" am --abort >/dev/null 2>&1 || true
		git -C "$1" reset -q --hard 'pristine^{commit}'
		git -C "$1" clean -qfdx
	else
		git -C "$KTREE" worktree prune
		git -C "$KTREE" worktree add -q --detach "$1" 'pristine^{commit}' ||
			die "git worktree add ${1#"$TOP"/} failed"
	fi
}

# memblock_ref: the memblock the series replaces, mm/memblock.c and
# include/linux/memblock.h of build/linux's pristine tag, in
# build/memblock-ref; prints that directory.  The userspace tests that
# compare LMB with memblock (tools/testing/lmb: lmb_diff, memblock32.sh,
# mutants, the benchmark) take it as MEMBLOCK_REF.
memblock_ref() {
	_r=$BUILD/memblock-ref
	rm -rf "$_r" && mkdir -p "$_r" &&
		git -C "$KTREE" archive 'pristine^{commit}' mm/memblock.c include/linux/memblock.h |
		tar -x -C "$_r" && echo "$_r"
}
