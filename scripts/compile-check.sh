#!/bin/sh
# make compile-check: every .c file the series changes compiles with W=1 and
# no warning that the pristine file does not have, under allmodconfig,
# building only those objects (not the kernel).
#
# Files: git diff --name-only --diff-filter=d pristine..HEAD in build/linux,
# *.c outside tools/, scripts/, Documentation/, samples/ and usr/ (works
# for whatever series patches/ holds).
# For each architecture of LMB_COMPILE_ARCHES (default: x86_64 i386 arm64
# riscv arm powerpc s390, the kernel's ARCH= names; all but x86 with
# Debian's cross compilers, which scripts/deps.sh installs) allmodconfig
# with CONFIG_WERROR off is configured and prepared once in
# build/out/w1/<lmb|base>-<arch>.
# A file counts for an arch when that config builds it: "make -n DIR/" (what
# kbuild builds in the file's directory) compiles its object. It is then
# compiled alone ("make W=1 DIR/FILE.o", the object removed first) and its
# warnings ("file:line[:col]: warning: ...", compiler and kernel-doc) are
# compared, without line and column, with the pristine file's (compiled
# only when the LMB file has warnings; a file the series adds has none to
# compare with). One test per file and arch: it fails when the file does
# not compile or has a warning more than pristine. A file that no arch
# builds is listed, not counted.
# Then, for each architecture of LMB_TINY_ARCHES (default: riscv arm
# powerpc s390, and every other one Debian 12 has a cross compiler for:
# ppc32 mips sh sparc64 m68k alpha parisc arc; x86 and arm64 are built and
# booted by make test and make test-arch), tinyconfig's vmlinux is built
# with the series in build/out/tiny-<arch> (arm: with the MMU, ARMv7 virt,
# LPAE and highmem, not tinyconfig's ARMv7-M; powerpc: 64-bit
# little-endian; ppc32: ARCH=powerpc, 32-bit): one test each.
# Ends with "N passed, N failed" (summary build/logs/compile-check.summary).
# Every make runs under the machine-wide build lock, taken per step.
# Logs: build/logs/compile/<lmb|base>-<arch>-<file>.{log,warn}.
. scripts/lib.sh

SUMMARY=$LOGS/compile-check.summary
CL=$LOGS/compile
P=0 F=0
: >"$SUMMARY"
rm -rf "$CL"
mkdir -p "$CL"
pass() { P=$((P + 1)); echo "ok   $1" | tee -a "$SUMMARY"; }
fail() { F=$((F + 1)); echo "FAIL $1" | tee -a "$SUMMARY"; }
T0=$(now)

sh scripts/tree.sh >/dev/null && sh scripts/pristine.sh >/dev/null || die "no build/linux or build/pristine"
files=$(git -C "$KTREE" diff --name-only --diff-filter=d pristine..HEAD -- '*.c' |
	grep -vE '^(tools|scripts|Documentation|samples|usr)/' || true)
say "$(printf '%s\n' "$files" | grep -c . || true) .c files changed by the series (git diff --name-only pristine..HEAD)"
[ -n "$files" ] || { say "0 passed, 0 failed"; exit 0; }

tsrc() { if [ "$1" = lmb ]; then echo "$KTREE"; else echo "$PTREE"; fi; }
tout() { echo "$BUILD/out/w1/$1-$2"; }
logname() { echo "$CL/$1-$2-$(echo "$3" | tr / _)"; }

# little ARCH: scripts/config options for Debian's powerpc64le compiler
# (the kernel's powerpc configs default to big-endian)
little() { [ "$1" != powerpc ] || echo "-e PPC64 -e CPU_LITTLE_ENDIAN -d CPU_BIG_ENDIAN"; }
# tiny ARCH: scripts/config options on tinyconfig (arm's is an ARMv7-M
# kernel without an MMU, which does not build arm's memblock users)
tiny() {
	case $1 in
	powerpc) little "$1" ;;
	arm) echo "-e MMU -e ARCH_MULTIPLATFORM -e ARCH_MULTI_V7 -e ARCH_VIRT -e ARM_LPAE -e HIGHMEM" ;;
	ppc32) echo "-d PPC64" ;;
	esac
}

# kept ARCH CONFIG: every option tiny() enables is set in CONFIG, every one
# it disables is not
kept() {
	for e in $(tiny "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == "-e") print $(i + 1) }'); do
		grep -qx "CONFIG_$e=y" "$2" || { echo "CONFIG_$e did not stay set"; return 1; }
	done
	for d in $(tiny "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == "-d") print $(i + 1) }'); do
		! grep -qx "CONFIG_$d=y" "$2" || { echo "CONFIG_$d did not stay unset"; return 1; }
	done
}

# conf TREE ARCH: allmodconfig without WERROR, prepared; redone when a
# Kconfig file or a Makefile of the tree is newer than its stamp
conf() {
	src=$(tsrc "$1") o=$(tout "$1" "$2")
	[ -f "$o/.lmb-w1" ] && [ -z "$(find "$src" -path "$src/.git" -prune -o \
		\( -name 'Kconfig*' -o -name Makefile -o -name Kbuild \) -newer "$o/.lmb-w1" -print | head -n1)" ] &&
		return 0
	t0=$(now)
	step "allmodconfig (WERROR off) + prepare: ${o#"$TOP"/}"
	mkdir -p "$o"
	rm -f "$o/.lmb-w1"
	{ klock kmake "$src" "$o" "$2" allmodconfig &&
		"$src/scripts/config" --file "$o/.config" -d WERROR $(little "$2") &&
		klock kmake "$src" "$o" "$2" olddefconfig &&
		klock kmake "$src" "$o" "$2" W=1 prepare; } >"$CL/conf-$1-$2.log" 2>&1 || {
		tail_log "$CL/conf-$1-$2.log" 20
		return 1
	}
	touch "$o/.lmb-w1"
	say "    done in $(elapsed "$t0")"
}

# warnings LOG: "file: warning: text" of each warning, sorted (paths
# relative to the tree, line and column dropped)
warnings() {
	sed -n 's/\r$//; s/^\([^ :]*\):[0-9][0-9]*\(:[0-9][0-9]*\)\{0,1\}: \(warning: .*\)$/\1: \3/p' "$1" |
		sed "s|^$KTREE/||; s|^$PTREE/||; s|^\(\.\./\)*linux/||; s|^\(\.\./\)*pristine/||" | sort
}

# compile TREE ARCH FILE: make W=1 FILE.o alone; 1 if it does not compile
compile() {
	o=$(tout "$1" "$2") l=$(logname "$1" "$2" "$3")
	rm -f "$o/${3%.c}.o"
	if klock kmake "$(tsrc "$1")" "$o" "$2" W=1 "${3%.c}.o" >"$l.log" 2>&1 && [ -f "$o/${3%.c}.o" ]; then
		warnings "$l.log" >"$l.warn"
	else
		return 1
	fi
}

arches=${LMB_COMPILE_ARCHES:-x86_64 i386 arm64 riscv arm powerpc s390}
tinies=${LMB_TINY_ARCHES:-riscv arm powerpc s390 ppc32 mips sh sparc64 m68k alpha parisc arc}
sh scripts/deps.sh $(for a in $arches $tinies; do cross_package "$a"; done | sort -u) || die "the cross compilers"
for a in $arches; do
	conf lmb "$a" || die "allmodconfig $a on build/linux failed (${CL#"$TOP"/}/conf-lmb-$a.log)"
	# what this config builds: "make -n DIR/" per directory, the changed
	# objects removed first (an up-to-date object would not show)
	: >"$CL/built-$a"
	for f in $files; do rm -f "$(tout lmb "$a")/${f%.c}.o"; done
	for d in $(for f in $files; do dirname "$f"; done | sort -u); do
		klock kmake "$KTREE" "$(tout lmb "$a")" "$a" -n "$d/" 2>/dev/null |
			sed -n 's/.* -c -o \([^ ]*\.o\) .*/\1/p' >>"$CL/built-$a" || true
	done
done

notbuilt=
for f in $files; do
	counted=0
	for a in $arches; do
		grep -qxF "${f%.c}.o" "$CL/built-$a" || continue
		counted=1
		t0=$(now)
		l=$(logname lmb "$a" "$f")
		if ! compile lmb "$a" "$f"; then
			grep -E 'error' "$l.log" | head -n 5 | sed 's/^/    /'
			fail "W=1 $f ($a allmodconfig): does not compile (${l#"$TOP"/}.log)"
			continue
		fi
		n=$(grep -c . "$l.warn" || true)
		if [ "$n" = 0 ]; then
			pass "W=1 $f ($a allmodconfig): no warning ($(elapsed "$t0"))"
			continue
		fi
		b=$(logname base "$a" "$f")
		: >"$b.warn"
		if [ -f "$PTREE/$f" ]; then
			conf base "$a" || die "allmodconfig $a on build/pristine failed (${CL#"$TOP"/}/conf-base-$a.log)"
			compile base "$a" "$f" || : >"$b.warn"
		fi
		new=$(comm -23 "$l.warn" "$b.warn")
		if [ -z "$new" ]; then
			pass "W=1 $f ($a allmodconfig): no new warning ($n, as in pristine; $(elapsed "$t0"))"
		else
			printf '%s\n' "$new" | sed 's/^/    /'
			fail "W=1 $f ($a allmodconfig): $(printf '%s\n' "$new" | grep -c .) new warning(s) of $n (${l#"$TOP"/}.log)"
		fi
	done
	[ "$counted" = 1 ] || notbuilt="$notbuilt $f"
done
if [ -n "$notbuilt" ]; then
	say "not built by allmodconfig ($arches), not counted:$notbuilt"
	echo "skip W=1, not built by allmodconfig ($arches):$notbuilt" >>"$SUMMARY"
fi

# A small config of each other architecture builds with the series:
# tinyconfig, vmlinux (x86 and arm64 boot in make test and make test-arch).
# tinybuild TREE ARCH OUT: tinyconfig (+ tiny()) and vmlinux, in OUT
tinybuild() {
	klock kmake "$1" "$3" "$2" tinyconfig &&
		{ [ -z "$(tiny "$2")" ] || "$1/scripts/config" --file "$3/.config" $(tiny "$2"); } &&
		klock kmake "$1" "$3" "$2" olddefconfig &&
		kept "$2" "$3/.config" &&
		klock kmake "$1" "$3" "$2" vmlinux
}
# A failure counts only where the pristine tree builds (tiny-base-ARCH):
# an architecture that Debian's compiler cannot build tinyconfig for at all
# is named and skipped.
for a in $tinies; do
	o=$BUILD/out/tiny-$a t0=$(now)
	step "tinyconfig vmlinux, ARCH=$a: ${o#"$TOP"/}"
	if tinybuild "$KTREE" "$a" "$o" >"$CL/tiny-$a.log" 2>&1; then
		pass "tinyconfig vmlinux ($a): builds with the series ($(elapsed "$t0"))"
		continue
	fi
	tail_log "$CL/tiny-$a.log" 10
	say "    pristine, the same config: $BUILD/out/tiny-base-$a"
	if tinybuild "$PTREE" "$a" "$BUILD/out/tiny-base-$a" >"$CL/tiny-base-$a.log" 2>&1; then
		fail "tinyconfig vmlinux ($a): does not build with the series, pristine does (${CL#"$TOP"/}/tiny-$a.log)"
	else
		say "    pristine does not build either: $(grep -m1 -E 'error|Error' "$CL/tiny-base-$a.log")"
		echo "skip tinyconfig vmlinux ($a): pristine does not build either with $(cross_package "$a") (${CL#"$TOP"/}/tiny-base-$a.log)" >>"$SUMMARY"
	fi
done

say ""
say "==== summary (compile-check, $(elapsed "$T0")) ===="
cat "$SUMMARY"
say "$P passed, $F failed"
[ "$F" = 0 ]
