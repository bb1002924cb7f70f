#!/bin/sh
# Pack the guest initramfs for one arch: scripts/initramfs.sh x86_64|i386|arm64|arm|powerpc|s390|riscv [BUILD...]
#   -> build/initramfs-<arch>.cpio.gz with a static busybox of that arch,
#      guest/init as /init, guest/lib.sh as /lmbtest-lib.sh, guest/checks/*.sh
#      as /checks/; x86_64 also /sbin/kexec (package kexec-tools) with the
#      libraries it links (ldd);
#   -> build/initramfs-<BUILD>-kexec.cpio.gz for each BUILD given (rows with
#      the option kexec): the same followed by an uncompressed cpio with
#      /boot/bzImage (that build's kernel) and /boot/initrd (the plain
#      initramfs), what the kexec and kdump checks load;
#   -> build/initramfs-<arch>-big.cpio.gz: the same followed by an
#      uncompressed cpio with /pad (LMB_BIGRD_MB, default 96 MiB, random) and
#      /pad.md5: an initrd that relocate_initrd() has to move (rows with the
#      'bigrd' option; guest/checks/initrd.sh checks the move and the copy).
# x86_64 uses /bin/busybox from busybox-static; i386, arm64, arm, powerpc
# (ppc64el) and s390 (s390x) need that arch's build of busybox-static,
# fetched with 'apt-get download' (riscv: built from source, below; adds
# dpkg's architecture and runs apt-get update once if needed; nothing is
# installed: installing it would replace this machine's /bin/busybox).
. scripts/lib.sh

arch=$1
out=$BUILD/initramfs-$arch.cpio.gz
# dpkg's name of the arch, for a foreign busybox-static
case $arch in
x86_64) deb= ;; i386) deb=i386 ;; arm64) deb=arm64 ;; arm) deb=armhf ;;
powerpc) deb=ppc64el ;; s390) deb=s390x ;; riscv) deb=riscv64 ;;
*) die "unknown arch $arch" ;;
esac
bb=/bin/busybox
# busybox_src: Debian 12 has no riscv64 port, so no busybox-static:riscv64
# to download: build Debian's busybox source package (apt-get source, from
# a deb-src list of our own in build/apt-src, not this machine's) with its
# patches and its busybox-static configuration, with the cross compiler.
busybox_src() {
	t0=$(now) a=$BUILD/apt-src
	step "building busybox-static for $deb from Debian's source (apt-get source busybox, $(cross_prefix "$arch")gcc)"
	rm -rf "$a" "$BUILD/busybox-$deb" && mkdir -p "$a/lists/partial" "$a/src" "$BUILD/busybox-$deb/bin"
	# the machine's Debian mirror, suite and key (its first deb822 stanza
	# for .../debian), else deb.debian.org and the release of os-release
	# shellcheck disable=SC1091
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v suite="$suite" '
		function out() {
			if (!done && u ~ /\/debian\/?$/) {
				printf "deb-src %s%s %s main\n", k == "" ? "" : "[signed-by=" k "] ", u, s == "" ? suite : s
				done = 1
			}
			u = s = k = ""
		}
		/^[ \t]*$/ { out(); next }
		$1 == "URIs:" { u = $2 } $1 == "Suites:" { s = $2 } $1 == "Signed-By:" { k = $2 }
		END { out() }' >"$a/sources.list"
	[ -s "$a/sources.list" ] || echo "deb-src http://deb.debian.org/debian $suite main" >"$a/sources.list"
	o="-o Dir::Etc::SourceList=$a/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$a/lists"
	# shellcheck disable=SC2086
	{ apt-get $o update && (cd "$a/src" && apt-get $o source --download-only busybox); } >"$LOGS/apt-busybox-$deb.log" 2>&1 || {
		tail_log "$LOGS/apt-busybox-$deb.log" 20
		die "apt-get source busybox failed (see ${LOGS#"$TOP"/}/apt-busybox-$deb.log)"
	}
	d=$a/src/busybox
	mkdir -p "$d" && tar -xjf "$a"/src/busybox_*.orig.tar.bz2 -C "$d" --strip-components=1 &&
		tar -xJf "$a"/src/busybox_*.debian.tar.xz -C "$d" || die "cannot unpack Debian's busybox source in ${a#"$TOP"/}/src"
	(
		cd "$d" &&
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' debian/patches/series | while read -r p; do
			patch -p1 -s <"debian/patches/$p" || exit 1
		done &&
		cp debian/config/pkg/static .config &&
		yes '' | make CROSS_COMPILE="$(cross_prefix "$arch")" oldconfig >/dev/null &&
		make CROSS_COMPILE="$(cross_prefix "$arch")" -j"$JOBS" busybox
	) >"$LOGS/busybox-$deb.log" 2>&1 || {
		tail_log "$LOGS/busybox-$deb.log" 20
		die "building busybox for $deb failed (see ${LOGS#"$TOP"/}/busybox-$deb.log)"
	}
	cp "$d/busybox" "$BUILD/busybox-$deb/bin/busybox" && rm -rf "$a"
	say "    done in $(elapsed "$t0")"
}
if [ "$deb" = riscv64 ]; then
	bb=$BUILD/busybox-$deb/bin/busybox
	[ -x "$bb" ] || busybox_src
elif [ -n "$deb" ]; then
	bb=$BUILD/busybox-$deb/bin/busybox
	if [ ! -x "$bb" ]; then
		t0=$(now)
		step "fetching busybox-static:$deb (apt-get download)"
		dpkg --print-foreign-architectures | grep -qx "$deb" || {
			dpkg --add-architecture "$deb"
			apt-get update >"$LOGS/apt-update-$deb.log" 2>&1 || {
				tail_log "$LOGS/apt-update-$deb.log" 20
				die "apt-get update for $deb failed"
			}
		}
		rm -rf "$BUILD/deb-$deb" "$BUILD/busybox-$deb"
		mkdir -p "$BUILD/deb-$deb"
		(cd "$BUILD/deb-$deb" && apt-get download "busybox-static:$deb") >"$LOGS/apt-busybox-$deb.log" 2>&1 || {
			tail_log "$LOGS/apt-busybox-$deb.log" 20
			die "apt-get download busybox-static:$deb failed (package busybox-static, architecture $deb)"
		}
		dpkg-deb -x "$BUILD"/deb-$deb/busybox-static_*_"$deb".deb "$BUILD/busybox-$deb"
		say "    done in $(elapsed "$t0")"
	fi
fi
[ -x "$bb" ] || die "$bb missing (package busybox-static)"

# big: OUT followed by the padding archive (rebuilt when OUT changed)
big() {
	big=$BUILD/initramfs-$arch-big.cpio.gz pad=$BUILD/initramfs-pad.cpio
	if [ ! -f "$pad" ]; then
		step "packing ${pad#"$TOP"/} (${LMB_BIGRD_MB:-96} MiB of random data, uncompressed)"
		rm -rf "$pad.d" && mkdir -p "$pad.d"
		dd if=/dev/urandom of="$pad.d/pad" bs=1M count="${LMB_BIGRD_MB:-96}" 2>/dev/null
		(cd "$pad.d" && md5sum pad | sed 's| pad$| /pad|' >pad.md5 &&
			printf 'pad\npad.md5\n' | cpio -o -H newc -R 0:0 --quiet) >"$pad.tmp"
		mv "$pad.tmp" "$pad" && rm -rf "$pad.d"
	fi
	[ -f "$big" ] && [ ! "$out" -nt "$big" ] && [ ! "$pad" -nt "$big" ] && return 0
	# the kernel reads an uncompressed archive after a compressed one only
	# at a 4-byte aligned offset; zeros in between are skipped
	n=$(wc -c <"$out")
	{ cat "$out" && head -c $(((512 - n % 512) % 512)) /dev/zero && cat "$pad"; } >"$big.tmp" &&
		mv "$big.tmp" "$big"
}

# kexec_rd BUILD: OUT + /boot/bzImage + /boot/initrd (rebuilt when one changed)
kexec_rd() {
	k=$(build_image "$1") rd=$BUILD/initramfs-$1-kexec.cpio.gz
	[ -f "$k" ] || die "no kernel $k for the kexec initramfs of $1"
	[ -f "$rd" ] && [ ! "$out" -nt "$rd" ] && [ ! "$k" -nt "$rd" ] && return 0
	step "packing ${rd#"$TOP"/} (+ /boot/bzImage of $1, /boot/initrd)"
	d=$BUILD/initramfs-kexec.d
	rm -rf "$d" && mkdir -p "$d/boot"
	cp "$k" "$d/boot/bzImage" && cp "$out" "$d/boot/initrd"
	n=$(wc -c <"$out")
	{ cat "$out" && head -c $(((512 - n % 512) % 512)) /dev/zero &&
		(cd "$d" && printf 'boot\nboot/bzImage\nboot/initrd\n' | cpio -o -H newc -R 0:0 --quiet); } >"$rd.tmp" &&
		mv "$rd.tmp" "$rd" && rm -rf "$d"
}
extras() {
	big
	shift
	for b in "$@"; do kexec_rd "$b"; done
}

# Rebuild only when an input changed.
kexec=
[ "$arch" != x86_64 ] || kexec=$(command -v kexec || true)
if [ -f "$out" ] && [ -z "$(find "$TOP/guest" "$bb" $kexec "$0" -newer "$out" 2>/dev/null | head -n1)" ]; then
	extras "$@"
	exit 0
fi
step "packing ${out#"$TOP"/}"
stage=$BUILD/initramfs-$arch
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" "$stage/dev" \
	"$stage/proc" "$stage/sys" "$stage/tmp" "$stage/checks" "$stage/root"
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$TOP/guest/init" "$stage/init"
cp "$TOP/guest/lib.sh" "$stage/lmbtest-lib.sh"
# kexec and the shared libraries it needs (same paths as on the host)
if [ -n "$kexec" ]; then
	mkdir -p "$stage/sbin" "$stage/boot"
	cp "$kexec" "$stage/sbin/kexec"
	for l in $(ldd "$kexec" | sed -n 's/.*[[:space:]]\(\/[^ ]*\) (0x.*/\1/p'); do
		mkdir -p "$stage${l%/*}"
		cp -L "$l" "$stage$l"
	done
fi
cp "$TOP/guest/checks/"*.sh "$stage/checks/"
chmod 755 "$stage/init"
# /dev/console: the kernel's built-in initramfs has it too; add it when we can.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
extras "$@"
