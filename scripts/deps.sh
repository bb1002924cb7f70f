#!/bin/sh
# Install what the harness needs with apt-get (only what is missing).
# Usage: scripts/deps.sh [extra-package...]
. scripts/lib.sh

# tool:package pairs; every tool is checked after installing.
TOOLS="make:make gcc:gcc bc:bc bison:bison flex:flex cpio:cpio gzip:gzip
xz:xz-utils perl:perl git:git ccache:ccache flock:util-linux timeout:coreutils
pahole:dwarves qemu-system-x86_64:qemu-system-x86 awk:mawk kexec:kexec-tools"
# headers/libraries (no tool to probe): file:package
FILES="/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev
/usr/include/x86_64-linux-gnu/urcu.h:liburcu-dev /bin/busybox:busybox-static
/usr/share/ovmf/OVMF.fd:ovmf"
# gcc-N-multilib (N: this machine's gcc, Debian 12's 12), not the
# gcc-multilib metapackage: Debian's gcc-multilib and gcc-aarch64-linux-gnu
# (make test-arch) conflict, and each install removed the other; the
# versioned packages live together.
GCCV=$(gcc -dumpversion 2>/dev/null | cut -d. -f1)
GCCV=${GCCV:-12}
PKGS="make gcc libc6-dev bc bison flex cpio gzip xz-utils perl git ccache
util-linux coreutils dwarves qemu-system-x86 libelf-dev libssl-dev
liburcu-dev busybox-static ovmf kexec-tools gcc-$GCCV-multilib
liburcu-dev:i386 lib32asan8 lib32ubsan1 qemu-user device-tree-compiler $*"

# apt_update LOG: apt-get update, three tries (a mirror being synced fails
# one index for a while). A partial failure is only a warning: what the
# install needs may be in the indexes that did arrive, and the install
# below fails by name if not.
apt_update() {
	for _try in 1 2 3; do
		$SUDO apt-get update >"$1" 2>&1 && return 0
		[ $_try = 3 ] || { say "    apt-get update failed (try $_try of 3), again in 15 s"; sleep 15; }
	done
	tail_log "$1" 8
	warn "apt-get update failed 3 times; going on with the indexes it has"
}

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

# The 32-bit memblock suite links against i386 libraries.
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	step "dpkg --add-architecture i386 (for liburcu-dev:i386)"
	dpkg --add-architecture i386
	apt_update "$LOGS/apt-update-i386.log"
fi

missing=
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	t0=$(now)
	# kexec-tools is only copied into the guest's initramfs: it must not
	# take over this machine's reboots (its debconf default is true)
	case " $missing " in *" kexec-tools "*)
		echo 'kexec-tools kexec-tools/load_kexec boolean false' | debconf-set-selections 2>/dev/null || true ;;
	esac
	step "apt-get install:$missing"
	export DEBIAN_FRONTEND=noninteractive
	if ! $SUDO apt-get install -y --no-install-recommends $missing >"$LOGS/apt.log" 2>&1; then
		say "    apt-get install failed; running apt-get update and retrying"
		apt_update "$LOGS/apt-update.log"
		$SUDO apt-get install -y --no-install-recommends $missing >>"$LOGS/apt.log" 2>&1 || {
			tail_log "$LOGS/apt.log" 20
			die "could not install packages:$missing (see $LOGS/apt.log)"
		}
	fi
	say "    installed in $(elapsed "$t0")"
fi

bad=
for tp in $TOOLS; do
	command -v "${tp%%:*}" >/dev/null 2>&1 || bad="$bad ${tp%%:*} (package ${tp#*:})"
done
for fp in $FILES; do
	[ -e "${fp%%:*}" ] || bad="$bad ${fp%%:*} (package ${fp#*:})"
done
[ -z "$bad" ] || die "missing after install:$bad"

# ccache: keep the cache bounded.
ccache -M ${LMB_CCACHE_SIZE:-20G} >/dev/null 2>&1 || true
