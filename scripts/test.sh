#!/bin/sh
# make test  (scripts/test.sh lmb):  build/linux = pristine + patches/
# make baseline (scripts/test.sh base): build/pristine, without configs/lmb.config
# LMB_TIER: core (make test), full (make test-full: every row), distro
# (make test-distro: the rows of tier distro, Debian's cloud config), arch
# (make test-arch: other architectures' kernels, arm64, arm, ppc64le, s390x,
# riscv64),
# layouts (make test-layouts: real machines' e820 tables, tests/e820/).
#
# Steps: deps, tree, the kernel builds the selected rows need, the userspace
# simulator (tools/testing/lmb, lmb only, if the series has it) and the
# memblock suite (not for tiers distro and arch), initramfs, and every boot of
# tests/boot-matrix with its KUnit cases and guest checks counted.
# Ends with "N passed, N failed"; exits 1 on any failure.
. scripts/lib.sh

# One run per checkout at a time: runs share build/.matrix, the summary and
# the boot logs (a second run would rewrite them under the first).
mkdir -p "$BUILD"
exec 7>"$BUILD/.test.lock"
flock -n 7 || die "another scripts/test.sh (make test*) is running in this checkout; wait for it to end"

kind=${1:-lmb}
P=0 F=0
SUMMARY=$LOGS/test-$kind.summary
: >"$SUMMARY"

pass() { P=$((P + ${2:-1})); echo "ok   $1" >>"$SUMMARY"; }
fail() { F=$((F + ${2:-1})); echo "FAIL $1" >>"$SUMMARY"; say "FAIL: $1"; }
finish() {
	say ""
	say "==== summary ($kind) ===="
	cat "$SUMMARY"
	say "$P passed, $F failed"
	[ "$F" = 0 ]
	exit
}
# count LABEL LOG: add the KTAP results of LOG
count() {
	r=$(awk -v label="$1" -f "$TOP/scripts/ktap-count.awk" "$2")
	printf '%s\n' "$r" | grep '^FAIL ' | sed 's/^FAIL /    FAIL /' || true
	set -- "$1" $(printf '%s\n' "$r" | sed -n 's/^COUNT //p')
	P=$((P + $2)) F=$((F + $3))
	printf '     %s: %d passed, %d failed, %d skipped\n' "$1" "$2" "$3" "$4" | tee -a "$SUMMARY"
	printf '%s\n' "$r" | grep '^FAIL ' | sed 's/^FAIL /     FAIL /' >>"$SUMMARY" || true
}

sim_count() { # PASSED FAILED
	P=$((P + $1)) F=$((F + $2))
	printf '     simulator: %d passed, %d failed, 0 skipped\n' "$1" "$2" | tee -a "$SUMMARY"
	grep -E '^ +not ok [0-9]+ ' "$LOGS/simulator.log" | sed 's/^ */     FAIL simulator: /' |
		tee -a "$SUMMARY" || true
}

T0=$(now)
sh scripts/deps.sh || { fail "dependencies"; finish; }
# The rows of this tier (LMB_TIER=core: make test; full: make test-full;
# distro: make test-distro), with memmap-seq= words expanded and rows with
# repeat=N written N times (NAME.1 ... NAME.N; tests/boot-matrix explains both),
# and a row of tier layouts for each real e820 table (scripts/e820.sh rows)
# and each real arm64 board (scripts/board.sh rows).
# LMB_ROWS=REGEX keeps the rows whose name matches (awk ERE, anchored).
tier=${LMB_TIER:-core}
# distro and arch boot other kernels of a series make test has checked:
# no checkpatch, simulator or memblock suite again
focused=0
case $tier in distro|arch) focused=1 ;; esac
{ sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/boot-matrix
  sh scripts/e820.sh rows 2>"$BUILD/.e820.skipped"
  sh scripts/board.sh rows; } |
	awk -v tier="$tier" -v rows="${LMB_ROWS:-}" '
	function seq(a,    f, n, i, s) {	# memmap-seq=N,SIZE,SEP,START,STEP[,SUFFIX] (START, STEP in M)
		n = split(substr(a, 12), f, ",")
		if (n < 5) return a
		s = "memmap="
		for (i = 0; i < f[1]; i++)
			s = s (i ? "," : "") f[2] f[3] (f[4] + i * f[5]) "M" (n > 5 ? f[6] : "")
		return s
	}
	(tier == "full" || $2 == tier) && (rows == "" || $1 ~ ("^(" rows ")$")) {
		for (i = 10; i <= NF; i++) if ($i ~ /^memmap-seq=/) $i = seq($i)
		n = 1
		if (match("," $8 ",", /,repeat=[0-9]+,/)) n = substr("," $8 ",", RSTART + 8, RLENGTH - 9) + 0
		if (n <= 1) { print; next }
		name = $1
		for (r = 1; r <= n; r++) { $1 = name "." r; print }
	}' >"$BUILD/.matrix"
if ! [ -s "$BUILD/.matrix" ]; then
	fail "boot matrix: no row of tier $tier${LMB_ROWS:+ matches LMB_ROWS=$LMB_ROWS}"
	finish
fi
# the builds of the selected rows (variant = the build column without lmb-)
variants=$(awk '{ v = $4; sub(/^lmb-/, "", v); if (!(v in s)) { s[v] = 1; printf "%s ", v } }' "$BUILD/.matrix")
# arm64 rows: Debian's cross compiler, QEMU's arm machines and their UEFI, dtc
case " $variants " in *" arm64 "*)
	sh scripts/deps.sh gcc-aarch64-linux-gnu qemu-system-arm qemu-efi-aarch64 device-tree-compiler ||
		{ fail "dependencies (arm64)"; finish; } ;;
esac
# arm rows: Debian's armhf cross compiler and QEMU's arm machines
case " $variants " in *" arm "*)
	sh scripts/deps.sh gcc-arm-linux-gnueabihf qemu-system-arm ||
		{ fail "dependencies (arm)"; finish; } ;;
esac
# ppc64le, s390x, riscv64 rows: the cross compiler and QEMU's machine
# (QEMU's firmware for them, SLOF, s390-ccw and OpenSBI, is in
# qemu-system-data); riscv64 also the C library, to build busybox
# (scripts/initramfs.sh: Debian 12 has no riscv64 busybox-static)
for v in ppc64le:gcc-powerpc64le-linux-gnu:qemu-system-ppc s390x:gcc-s390x-linux-gnu:qemu-system-misc \
	riscv64:gcc-riscv64-linux-gnu:qemu-system-misc:libc6-dev-riscv64-cross; do
	case " $variants " in *" ${v%%:*} "*)
		# shellcheck disable=SC2046
		sh scripts/deps.sh $(echo "${v#*:}" | tr : ' ') || { fail "dependencies (${v%%:*})"; finish; } ;;
	esac
done

# The ledger after boot in make boot's report and picture, on a fixture log,
# and memcmp.awk's bound on KASLR page tables (no kernel build):
# scripts/report-selftest.sh, one test per TEST line.
if [ "$kind" = lmb ]; then
	step "tools: scripts/report-selftest.sh (report.sh, memmap.sh on tests/ledger-after-boot; memcmp.awk on KASLR page tables)"
	sh scripts/report-selftest.sh >"$LOGS/report-selftest.log" 2>&1 || true
	sed -n 's/^TEST //p' "$LOGS/report-selftest.log" >"$BUILD/.selftest.tests"
	[ -s "$BUILD/.selftest.tests" ] || fail "tools: scripts/report-selftest.sh gave no result (build/logs/report-selftest.log)"
	while read -r r t; do
		if [ "$r" = ok ]; then pass "tools: $t"; else fail "tools: $t (build/logs/report-selftest.log)"; fi
	done <"$BUILD/.selftest.tests"
fi

# The converters of make test-layouts, their own cases: scripts/e820.sh
# (and every table of tests/e820/), scripts/board.sh (tests/boards).
if [ "$kind" = lmb ]; then
	for t in "e820:real e820 tables to memmap=exactmap and QEMU memory" \
		"board:real arm64 boards' /reserved-memory onto QEMU's virt machine"; do
		c=${t%%:*}
		step "tools: scripts/$c.sh selftest (${t#*:})"
		sh "scripts/$c.sh" selftest >"$LOGS/$c-selftest.log" 2>&1 || true
		grep -q "^$c.sh selftest: " "$LOGS/$c-selftest.log" ||
			fail "tools: scripts/$c.sh selftest gave no result (build/logs/$c-selftest.log)"
		while read -r l; do
			case $l in
			"ok - "*) pass "$c: ${l#ok - }" ;;
			"not ok - "*) fail "$c: ${l#not ok - } (build/logs/$c-selftest.log)" ;;
			esac
		done <"$LOGS/$c-selftest.log"
	done
fi

# klock runs shell functions (kmake, for kconfig-check and compile-check)
# as well as commands; flock(1) alone cannot.
if [ "$kind" = lmb ]; then
	klock_probe() { echo klock-ok; }
	if [ "$(klock klock_probe 2>&1)" = klock-ok ]; then
		pass "tools: klock runs a shell function under the build lock"
	else
		fail "tools: klock cannot run a shell function (kconfig-check and compile-check could not configure)"
	fi
fi

if [ "$kind" = lmb ]; then
	if sh scripts/tree.sh; then pass "tree: build/linux = pristine + patches/series"; else
		fail "tree: patches/series does not apply (see above)"
		finish
	fi
	if [ "$focused" = 0 ] && [ -n "$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' patches/series 2>/dev/null)" ]; then
		step "checkpatch on patches/series (scripts/check.sh --checkpatch-only)"
		sh scripts/check.sh --checkpatch-only >"$LOGS/checkpatch.log" 2>&1 || true
		grep -v '^==>' "$LOGS/checkpatch.log" | grep -v '^check:' || true
		for p in $(sed -n 's/^    ok   \([^ ]*\).*/\1/p' "$LOGS/checkpatch.log"); do pass "checkpatch $p"; done
		for p in $(sed -n 's/^    FAIL \([^:]*\):.*/\1/p' "$LOGS/checkpatch.log"); do
			F=$((F + 1)); echo "FAIL checkpatch $p (see build/logs/checkpatch.log)" >>"$SUMMARY"
		done
	fi
	builds=$(for v in $variants; do printf "lmb-%s " "$v"; done)
else
	sh scripts/pristine.sh || { fail "pristine tree"; finish; }
	builds=$(for v in $variants; do printf "base-%s " "$v"; done)
fi

built=
for b in $builds; do
	if sh scripts/kbuild.sh "$b"; then pass "build $b"; built="$built $b"; else fail "build $b"; fi
done

# ---- userspace simulator (part of the series) --------------------------------
if [ "$kind" = lmb ] && [ "$focused" = 0 ]; then
	sim=$KTREE/tools/testing/lmb
	if [ -d "$sim" ]; then
		t0=$(now)
		step "simulator: make -C build/linux/tools/testing/lmb test MEMBLOCK_REF=build/memblock-ref"
		ref=$(memblock_ref) || die "cannot extract memblock from the pristine tag into build/memblock-ref"
		if klock make -C "$sim" -j"$JOBS" test MEMBLOCK_REF="$ref" >"$LOGS/simulator.log" 2>&1; then rc=0; else rc=$?; fi
		say "    done in $(elapsed "$t0") (log: build/logs/simulator.log)"
		# The simulator nests each program's KTAP one level deeper than
		# KUnit does; its own closing line counts the leaf cases.
		n=$(sed -n 's/^# lmb-sim: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
			"$LOGS/simulator.log")
		# v2's run_tests.sh ends with the plain "N passed, N failed".
		[ -n "$n" ] || n=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
			"$LOGS/simulator.log" | tail -n 1)
		if [ -n "$n" ]; then
			sim_count $n
		fi
		if [ "$rc" != 0 ]; then
			tail_log "$LOGS/simulator.log"
			fail "simulator: make test exited with status $rc"
		elif [ -z "$n" ]; then
			fail "simulator: make test printed no 'N passed, N failed' line"
		fi
	else
		say "note: build/linux/tools/testing/lmb does not exist (not in the series yet); simulator skipped"
		echo "skip simulator (tools/testing/lmb not in the series yet)" >>"$SUMMARY"
	fi
fi

# ---- the kernel's own memblock suite, built against LMB ---------------------
# tools/testing/memblock compiles mm/lmb.c and mm/lmb_memblock.c (the series
# removes mm/memblock.c); its test files are unchanged.  Each variant must
# pass exactly as many checks as it does against pristine 6.12.118.
if [ "$kind" = lmb ] && [ "$focused" = 0 ]; then
	mb=$KTREE/tools/testing/memblock
	if [ -f "$mb/lmb_all.c" ]; then
		for v in "default 181" "NUMA=1 263"; do
			set -- $v
			opt=$1 want=$2
			[ "$opt" = default ] && opt=
			step "memblock suite against LMB: make -C tools/testing/memblock $opt"
			log=$LOGS/memblock-sim${opt:+-$opt}.log
			if (make -C "$mb" clean && make -C "$mb" -j"$JOBS" $opt &&
				cd "$mb" && ./main -v) >"$log" 2>&1; then rc=0; else rc=$?; fi
			got=$(grep -c '^ok [0-9]* :' "$log" || true)
			if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
				pass "memblock suite LMB ${opt:-default}: $got of $want checks"
			else
				tail_log "$log"
				fail "memblock suite LMB ${opt:-default}: $got of $want checks, exit $rc"
			fi
		done
		make -C "$mb" clean >/dev/null 2>&1 || true
		# A 32-bit phys_addr_t means an i386 binary (-m32), which this
		# machine cannot run natively and ASan cannot run under
		# qemu-user: tools/testing/lmb/memblock32.sh builds the suite
		# with UBSan and runs it under qemu-i386, on memblock and on LMB.
		m32=$KTREE/tools/testing/lmb/memblock32.sh
		if [ -f "$m32" ]; then
			step "memblock suite against LMB, 32-bit phys_addr_t: tools/testing/lmb/memblock32.sh (qemu-i386)"
			log=$LOGS/memblock-sim-32bit.log
			# gcc -m32 finds <asm/*.h> through /usr/include/asm, the
			# one file of Debian's gcc-multilib, which conflicts with
			# gcc-aarch64-linux-gnu (make test-arch; deps.sh installs
			# gcc-N-multilib instead): a private link to x86_64's uapi
			# headers, which are i386's too, stands in for it.
			m32cc=${CC:-cc}
			if [ ! -e /usr/include/asm ]; then
				mkdir -p "$BUILD/m32/include"
				ln -sfn /usr/include/x86_64-linux-gnu/asm "$BUILD/m32/include/asm"
				printf '#!/bin/sh\nexec %s -isystem %s "$@"\n' "$m32cc" "$BUILD/m32/include" >"$BUILD/m32/cc"
				chmod +x "$BUILD/m32/cc"
				m32cc=$BUILD/m32/cc
			fi
			ref=$(memblock_ref) || die "cannot extract memblock from the pristine tag into build/memblock-ref"
			if (cd "${m32%/*}" && CC=$m32cc MEMBLOCK_REF=$ref && export CC MEMBLOCK_REF &&
				klock sh ./memblock32.sh) >"$log" 2>&1; then rc=0; else rc=$?; fi
			for numa in 0 1; do
				g() { sed -n "s/^# memblock suite, 32-bit, $1, NUMA=$numa: \([0-9]*\) checks passed$/\1/p" "$log"; }
				got=$(g lmb) want=$(g memblock)
				if [ "$rc" = 0 ] && [ -n "$got" ] && [ "$got" = "$want" ]; then
					pass "memblock suite LMB, 32-bit phys_addr_t, NUMA=$numa: $got checks, as memblock"
				else
					tail_log "$log"
					fail "memblock suite LMB, 32-bit phys_addr_t, NUMA=$numa: ${got:-no} checks, memblock ${want:-no}, exit $rc"
				fi
			done
		fi
	else
		say "note: tools/testing/memblock is not built against LMB in this series; skipped"
	fi
fi

# ---- boots --------------------------------------------------------------------
arches=
for b in $built; do
	a=$(build_arch "$b")
	case " $arches " in *" $a "*) ;; *) arches="$arches $a" ;; esac
done
# initramfs per arch, and the kexec ones (with the kernel) of the builds
# that rows with the option kexec boot
kexec_builds() { # KIND BUILT: the KIND builds of BUILT that kexec rows boot
	awk -v k="$1" -v built=" $2 " '("," $8 ",") ~ /,kexec,/ {
		b = k "-" substr($4, index($4, "-") + 1)
		if (index(built, " " b " ") && !(b in s)) { s[b] = 1; printf "%s ", b }
	}' "$BUILD/.matrix"
}
for a in $arches; do
	sh scripts/initramfs.sh "$a" $([ "$a" != x86_64 ] || kexec_builds "$kind" "$built") || fail "initramfs $a"
done
rows=$(wc -l <"$BUILD/.matrix" | tr -d ' ')
say "boot matrix: $rows rows of tier $tier (tests/boot-matrix; make test-full runs every tier)"
if grep -q '^e820-' "$BUILD/.matrix"; then
	say "real e820 tables (tests/e820/, scripts/e820.sh summary):"
	e820files=$(awk '/^e820-/ { sub(/^e820-/, "", $1); printf "%s ", "tests/e820/" $1 ".e820" }' "$BUILD/.matrix")
	sh scripts/e820.sh summary $e820files | sed 's/^/    /'
	[ ! -s "$BUILD/.e820.skipped" ] || { say "  skipped (QEMU cannot back them):"; sed 's/^/    /' "$BUILD/.e820.skipped"; }
fi
ROWFAIL=$BUILD/.matrix.fail
: >"$ROWFAIL"
set -f	# hostile command lines may hold glob characters

# opt OPTS WORD: the option column has WORD (comma separated; maxmem=SIZE)
opt() { case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac; }
optval() { printf ',%s,\n' "$1" | sed -n "s/.*,$2=\([^,]*\),.*/\1/p"; }

# split_boots LOG: LOG.1, LOG.2, ...: the log of each kernel (a new one
# starts at its "Linux version" line; what comes before goes to the first)
split_boots() {
	rm -f "$1.1" "$1.2" "$1.3"
	awk -v f="$1" 'index($0, "Linux version ") && seen++ { n++ } { print > (f "." (n + 1)) }' "$1"
}
# results LOG: "name ok|FAIL" for each guest check of LOG (of every kernel)
results() {
	awk '{ sub(/\r$/, "") } /^# lmb-guest: begin/ { g = 1 } /^# lmb-guest: end/ { g = 0 }
	g && /^(not )?ok [0-9]+ / { n = $0; sub(/^(not )?ok [0-9]+ */, "", n); sub(/ .*/, "", n)
		if (!(n in r)) o[++c] = n
		if (/^not/ || r[n] == "FAIL") r[n] = "FAIL"; else r[n] = "ok" }
	END { for (i = 1; i <= c; i++) print o[i], r[o[i]] }' "$1" 2>/dev/null || true
}

# bootargs OPTS: the scripts/boot.sh options of a row's options
bootargs() {
	! opt "$1" panic || printf ' -p'
	v=$(optval "$1" maxmem); [ -z "$v" ] || printf ' -M %s' "$v"
	v=$(optval "$1" slots); [ -z "$v" ] || printf ' -S %s' "$v"
	v=$(optval "$1" cpu); [ -z "$v" ] || printf ' -C %s' "$(echo "$v" | tr : ,)"
	v=$(optval "$1" vmem); [ -z "$v" ] || printf ' -V %s' "$v"
	v=$(optval "$1" lowmem); [ -z "$v" ] || printf ' -L %s' "$v"
	! opt "$1" monitor || printf ' -D'
	! opt "$1" acpi || printf ' -a'
	! opt "$1" kexec || printf ' -b 2'
	! opt "$1" kdump || printf ' -k'
}

# Rows of tier layouts (real machines' maps) that a kernel did not boot are
# not failed at once: build/.down-lmb and .down-base list them.
: >"$BUILD/.down-lmb"
: >"$BUILD/.down-base"
# down NAME K: the K kernel did not boot layouts row NAME
down() { grep -qxF "$1" "$BUILD/.down-$2"; }
# layouts_verdict: a map the pristine kernel cannot boot is reported as such
# and fails nothing (whatever LMB did with it); one that pristine boots and
# LMB does not is a failure. Without pristine boots (LMB_COMPARE=0, make
# baseline) a kernel that did not boot a map fails, after its boots.
layouts_verdict() {
	nb=0 nl=0
	while read -r name _tier _; do
		[ "$_tier" = layouts ] || continue
		# noboot-*: the harness's own map, which pristine must not boot
		case $name in noboot-*)
			if down "$name" base; then
				pass "layouts: $name, a map pristine cannot boot, is reported and fails nothing"
			else
				fail "layouts: $name: pristine booted the map that checks this verdict"
			fi
			continue ;;
		esac
		nl=$((nl + 1))
		if down "$name" base; then
			nb=$((nb + 1))
			if down "$name" lmb; then l="LMB does not either"; else l="LMB boots it"; fi
			say "    pristine cannot boot $name ($l; build/logs/boot-base-$name.log)"
			echo "skip $name: pristine cannot boot this map ($l)" >>"$SUMMARY"
		elif down "$name" lmb; then
			fail "boot lmb $name: pristine boots this map, LMB does not (log: build/logs/boot-lmb-$name.log)"
			echo "$name" >>"$ROWFAIL"
		fi
	done <"$BUILD/.matrix"
	[ "$nl" = 0 ] || say "real machines' maps: $nb of $nl that pristine cannot boot"
	[ "$nl" = 0 ] || echo "     layouts: $nb of $nl maps pristine cannot boot" >>"$SUMMARY"
}

# boots K BUILT COUNT: every row of the matrix with the K (lmb|base) kernels;
# COUNT=1 counts the KUnit cases and guest checks of each boot as tests.
boots() {
	i=0 k=$1 bl=$2 cnt=$3
	while read -r name _tier fw build mem smp nodes opts checks cmdline; do
		i=$((i + 1))
		b=$k-${build#*-}
		a=$(build_arch "$b")
		log=$LOGS/boot-$k-$name.log
		rm -f "$log" "$log.secs"
		case " $bl " in
		*" $b "*) ;;
		*) fail "boot $i/$rows $name: kernel $b not built"; echo "$name" >>"$ROWFAIL"; continue ;;
		esac
		rd=$BUILD/initramfs-$a.cpio.gz
		kernel=$(build_image "$b")
		set -- $(bootargs "$opts")
		! opt "$opts" bigrd || rd=$BUILD/initramfs-$a-big.cpio.gz
		! opt "$opts" kexec || rd=$BUILD/initramfs-$b-kexec.cpio.gz
		! opt "$opts" pvh || kernel=$(build_out "$b")/vmlinux
		# dtb=NAME: tests/dtb/NAME.dtsi grafted onto QEMU's virt tree
		v=$(optval "$opts" dtb)
		if [ -n "$v" ]; then
			if dtb=$(sh scripts/dtb.sh "$v" "$mem" "$smp" "$nodes"); then
				set -- "$@" -d "$dtb"
			else
				fail "boot $b $name: no device tree $v (scripts/dtb.sh)"; echo "$name" >>"$ROWFAIL"; continue
			fi
		fi
		o=
		[ "$opts" = - ] || o="$opts: "
		step "[boot $i/$rows] $name: $b $fw, -m $mem -smp $smp, nodes $nodes, opts $opts, $(printf '%s' "$cmdline" | cut -c1-160)"
		if sh scripts/boot.sh -A "$a" -f "$fw" -m "$mem" -s "$smp" -n "$nodes" -c "$checks" "$@" \
			-i "$rd" -l "$log" "$kernel" $cmdline </dev/null; then
			pass "boot $b $name (${o}no hang/panic/Oops/WARNING/BUG, guest finished)"
		elif [ "$_tier" = layouts ]; then
			# a real machine's map: judged once pristine has booted it
			# (or not: reported, no failure; see layouts_verdict)
			echo "$name" >>"$BUILD/.down-$k"
			say "    $b did not boot $name: judged after the pristine boot"
			continue
		else
			fail "boot $b $name (log: ${log#"$TOP"/})"
			echo "$name" >>"$ROWFAIL"
		fi
		# kexec, kdump: LOG.1 and LOG.2, the first and the second kernel
		! opt "$opts" kexec || split_boots "$log"
		# lmbtest.noise=N: every message logged while the guest wrote its
		# results reached the serial log whole, once (guest/init's pump)
		case " $cmdline " in *" lmbtest.noise="*)
			want=${cmdline#*lmbtest.noise=}
			want=${want%% *}
			# whole lines "lmbtest: noise I of N", each I once
			got=$(tr -d '\r' <"$log" | awk -v n="$want" '$0 ~ "^lmbtest: noise [0-9]+ of " n "$" { if (!($3 in s)) u++; s[$3] = 1; t++ }
				END { print u + 0, t + 0 }')
			if [ "$got" = "$want $want" ]; then
				pass "boot $b $name: the $want kernel messages logged while the guest wrote its results reached the console whole, once each"
			else
				fail "boot $b $name: of $want kernel messages logged while the guest wrote, ${got% *} reached the console whole (${got#* } lines; guest/init's pump)"
				echo "$name" >>"$ROWFAIL"
			fi ;;
		esac
		# growmem/growres: the region arrays really grew in this boot
		# (lmb=debug lines before the KUnit suites run)
		for g in growmem:memory growres:reserved; do
			[ "$k" = lmb ] && opt "$opts" "${g%:*}" || continue
			if sed '/KTAP version/q' "$log" | grep -q "lmb: ${g#*:} array grown to"; then
				pass "boot $b $name: the ${g#*:} array grew: $(sed '/KTAP version/q' "$log" | grep -m1 -o "${g#*:} array grown to [0-9]* entries")"
			else
				fail "boot $b $name: no 'lmb: ${g#*:} array grown to' line before KUnit"
				echo "$name" >>"$ROWFAIL"
			fi
		done
		if [ "$cnt" != 0 ]; then
			f0=$F
			count "kunit+guest $name" "$log"
			[ "$F" = "$f0" ] || echo "$name" >>"$ROWFAIL"
		fi
		# The ledger at hand-over (LMB boots with lmb=debug that must not panic).
		case "$k $cmdline " in
		"lmb "*" lmb=debug "*)
			opt "$opts" panic && continue
			names=tests/ledger-names
			[ "$a" = x86_64 ] || [ "$a" = i386 ] || names=tests/ledger-names.$a
			sh scripts/ledger.sh "$log" "$(build_out "$b")" "$names" "$fw" </dev/null \
				>"$LOGS/ledger-$name.txt" 2>&1 || true
			sed -n 's/^FINDING /    /p' "$LOGS/ledger-$name.txt"
			if ! grep -q '^TEST ' "$LOGS/ledger-$name.txt"; then
				fail "ledger $name: scripts/ledger.sh gave no result (build/logs/ledger-$name.txt)"
				echo "$name" >>"$ROWFAIL"
			fi
			sed -n 's/^TEST //p' "$LOGS/ledger-$name.txt" | while read -r r t; do
				echo "$r $t"
			done >"$BUILD/.ledger.tests"
			while read -r r t; do
				if [ "$r" = ok ]; then pass "$name: $t"; else
					fail "$name: $t (build/logs/ledger-$name.txt)"
					echo "$name" >>"$ROWFAIL"
				fi
			done <"$BUILD/.ledger.tests"
			;;
		esac
	done <"$BUILD/.matrix"
}
boots "$kind" "$built" 1
# no pristine boot to judge a map by: a kernel that did not boot it fails
if [ "$kind" != lmb ] || [ "${LMB_COMPARE:-1}" = 0 ]; then
	while read -r name; do
		fail "boot $kind $name (log: build/logs/boot-$kind-$name.log)"
		echo "$name" >>"$ROWFAIL"
	done <"$BUILD/.down-$kind"
fi

# memcompare CASE VARIANT FW CMDLINE BASEBUILD BASELOG LMBBUILD LMBLOG SECS ROW:
# scripts/memcmp.awk on one pair of boots, its three tests counted, its
# table line written (a failure marks ROW)
memcompare() {
	step "[memory] $1: $7 vs $5"
	kaslr=1
	case " $4 " in *" nokaslr "*) kaslr=0 ;; esac
	out=$(awk -v case="$1" -v build="$2" -v fw="$3" -v kaslr="$kaslr" -f scripts/memcmp.awk tests/memory-expectations \
		"$(build_out "$5")/System.map" "$(build_out "$7")/System.map" "$6" "$8" 2>&1) || true
	printf '%s\n' "$out" | grep -vE '^(TEST|ROW|SUGGEST) ' || true
	printf '%s\n' "$out" | sed -n 's/^SUGGEST //p' >>"$table.suggest"
	printf '%s\n' "$out" | sed -n "s|^ROW \(.*\)|\1 $9|p" >>"$table"
	printf '%s\n' "$out" | grep -q '^TEST ' || { fail "memory $1: scripts/memcmp.awk gave no result"; echo "${10}" >>"$ROWFAIL"; }
	printf '%s\n' "$out" | sed -n 's/^TEST //p' | while read -r r t; do echo "$r $t"; done >"$table.tests"
	while read -r r t; do
		if [ "$r" = ok ]; then pass "$t"; else fail "$t"; echo "${10}" >>"$ROWFAIL"; fi
	done <"$table.tests"
}

# panic_line LOG: the first "Kernel panic" message, without the timestamp
panic_line() { sed -n 's/\r$//; s/^.*Kernel panic - not syncing: //p' "$1" | head -n 1; }

# ---- nothing lost at hand-over: LMB vs pristine, boot by boot -----------------
# The pristine kernels (build/pristine, memblock; the same configs minus
# configs/lmb.config) boot every row with the same QEMU and kernel command
# line; scripts/memcmp.awk compares MemTotal, the Memory: line and the zones,
# allowing only the differences tests/memory-expectations lists (exact
# amounts that the kernel image accounts for). Rows where the pristine kernel
# panics (option 'panic') pass when both kernels panic with the same message.
# LMB_COMPARE=0 skips this.
if [ "$kind" = lmb ] && [ "${LMB_COMPARE:-1}" = 0 ]; then
	say "note: LMB_COMPARE=0: no comparison with the pristine kernels"
	echo "skip LMB vs pristine memory comparison (LMB_COMPARE=0)" >>"$SUMMARY"
elif [ "$kind" = lmb ]; then
	t0=$(now)
	step "pristine kernels for the comparison (build/pristine, memblock)"
	based=
	if sh scripts/pristine.sh; then
		for v in $variants; do
			case " $built " in *" lmb-$v "*) ;; *) continue ;; esac
			if sh scripts/kbuild.sh "base-$v"; then pass "build base-$v"; based="$based base-$v"; else fail "build base-$v"; fi
		done
	else
		fail "pristine tree build/pristine"
	fi
	[ -z "$(kexec_builds base "$based")" ] || sh scripts/initramfs.sh x86_64 $(kexec_builds base "$based") ||
		fail "initramfs x86_64 (kexec, pristine)"
	boots base "$based" 0
	layouts_verdict
	table=$BUILD/.memcmp.table
	: >"$table"
	: >"$table.suggest"
	: >"$table.wf"
	while read -r name _tier fw build mem smp nodes opts checks cmdline; do
		v=${build#*-}
		! down "$name" lmb && ! down "$name" base || continue
		secs="$(cat "$LOGS/boot-lmb-$name.log.secs" 2>/dev/null || echo 0) $(cat "$LOGS/boot-base-$name.log.secs" 2>/dev/null || echo 0)"
		# the workflow checks of both boots, for the table
		results "$LOGS/boot-base-$name.log" >"$table.rb"
		results "$LOGS/boot-lmb-$name.log" | while read -r c r; do
			case $c in meminfo|zoneinfo|numa|debugfs|initrd) continue ;; esac
			echo "$name $c $r $(awk -v c="$c" '$1 == c { print $2 }' "$table.rb")"
		done >>"$table.wf"
		if opt "$opts" panic; then
			step "[memory] $name: lmb-$v vs base-$v (both expected to panic)"
			pl=$(panic_line "$LOGS/boot-lmb-$name.log") pb=$(panic_line "$LOGS/boot-base-$name.log")
			say "    LMB:      ${pl:-(no panic)}"
			say "    pristine: ${pb:-(no panic)}"
			if [ -n "$pl" ] && [ "$pl" = "$pb" ]; then
				pass "memory $name: both kernels panic alike: $pl"
				echo "$name 0 0 0 0 0 0 panic $secs" >>"$table"
			else
				fail "memory $name: the kernels do not panic alike (LMB: ${pl:-none}; pristine: ${pb:-none})"
				echo "$name" >>"$ROWFAIL"
				echo "$name 0 0 0 0 0 0 FAIL $secs" >>"$table"
			fi
			continue
		fi
		# kexec and kdump rows: each kernel of the log is compared with
		# the same kernel of the pristine log (the second as NAME/2)
		parts=-
		! opt "$opts" kexec || parts="1 2"
		for p in $parts; do
			c=$name sfx=
			[ "$p" = - ] || { sfx=.$p; [ "$p" = 1 ] || c=$name/$p; }
			memcompare "$c" "$v" "$fw" "$cmdline" "base-$v" "$LOGS/boot-base-$name.log$sfx" \
				"lmb-$v" "$LOGS/boot-lmb-$name.log$sfx" "$secs" "$name"
		done
		# kexec: the second kernel's memory equals the first's (same kernel;
		# only the initrds differ), for LMB (a test) and pristine (shown).
		# (memcmp.awk tells its files apart by name: the map's second path
		# is spelt with /./)
		wfx=
		if opt "$opts" kexec && ! opt "$opts" kdump; then
			for k in lmb base; do
				out=$(awk -v case="$name" -v build="-" -v fw="$fw" -v self=1 -f scripts/memcmp.awk /dev/null \
					"$(build_out "$k-$v")/System.map" "$(build_out "$k-$v")/./System.map" \
					"$LOGS/boot-$k-$name.log.1" "$LOGS/boot-$k-$name.log.2" 2>&1) || true
				r=$(printf '%s\n' "$out" | awk '/^TEST / { n++; if ($2 != "ok") bad = 1 } END { print (n == 3 && !bad) ? "ok" : "FAIL" }')
				wfx="$wfx $r"
				[ "$k" = lmb ] || continue
				step "[memory] $name: the second kernel (kexec) vs the first, lmb-$v"
				printf '%s\n' "$out" | grep -vE '^(TEST|ROW|SUGGEST) ' || true
				printf '%s\n' "$out" | sed -n 's/^TEST //p' | while read -r r t; do echo "$r $t"; done >"$table.tests"
				[ -s "$table.tests" ] || echo "FAIL memory $name: scripts/memcmp.awk gave no result" >"$table.tests"
				while read -r r t; do
					t="kexec $name: second kernel vs first: ${t#memory "$name" }"
					if [ "$r" = ok ]; then pass "$t"; else fail "$t"; echo "$name" >>"$ROWFAIL"; fi
				done <"$table.tests"
			done
			set -- $wfx
			echo "$name kexec-mem $1 $2" >>"$table.wf"
		fi
	done <"$BUILD/.matrix"
	if [ -s "$table.suggest" ]; then
		say ""
		say "Differences the kernel image accounts for (if the image is the reason, these are the"
		say "tests/memory-expectations lines; a case name instead of the build applies to one row;"
		say "after taking them, make memcmp judges this run's logs again):"
		sort -u "$table.suggest" | sed 's/^/    /'
	fi
	# the table (a failing awk program is a failure, not a missing table)
	awk -v failed="$ROWFAIL" -v wff="$table.wf" 'BEGIN { while ((getline l < failed) > 0) bad[l] = 1
		while ((getline l < wff) > 0) { split(l, x, " "); wf[x[1]] = wf[x[1]] " " x[2] " " (x[3] == "ok" ? "ok" : "NO") "/" (x[4] == "ok" ? "ok" : "NO") }
		printf "  %-26s %-6s %9s %9s %5s  %8s %8s %5s  %-7s %6s %6s  %s\n", "case", "result", "MemTotal", "pristine", "delta", "reserved", "pristine", "delta", "memory", "s LMB", "s base", "workflows LMB/pristine" }
	{ row = $1; sub(/\/[0-9]+$/, "", row); r = (row in bad) ? "FAIL" : "pass"
	  w = (row == $1 && (row in wf)) ? substr(wf[row], 2) : ""
	  if ($8 == "panic") printf "  %-26s %-6s %9s %9s %5s  %8s %8s %5s  %-7s %6.1f %6.1f  %s\n", $1, r, "-", "-", "", "-", "-", "", "panic", $9, $10, w
	  else printf "  %-26s %-6s %8dK %8dK %+5d  %7dK %7dK %+5d  %-7s %6.1f %6.1f  %s\n", $1, r, $2, $3, $2 - $3, $6, $7, $6 - $7, $8, $9, $10, w }' "$table" >"$table.out" 2>&1 ||
		fail "memory table: its awk program failed: $(head -n 2 "$table.out" | tr '\n' ' ')"
	{
		say ""
		say "LMB vs pristine, same QEMU and kernel command line, tier $tier (tests/boot-matrix, tests/memory-expectations; $(elapsed "$t0")):"
		cat "$table.out"
		say "  result: the row's boots, KUnit cases, guest checks and memory tests all passed (pass) or not (FAIL)."
		say "  memory: equal = no difference; image = only the differences tests/memory-expectations lists, each"
		say "  the exact amount the kernel image accounts for (System.map, Freeing lines); other = also exact"
		say "  differences with another stated cause (\"not image:\" lines: LMB's larger grown arrays, UEFI"
		say "  loading the larger bzImage file); panic = both kernels"
		say "  panicked with the same message (hostile input the pristine kernel panics on); FAIL = anything else."
		say "  'reserved' (total - totalram at the Memory: line) is compared exactly; s = boot wall seconds (TCG)."
		say "  workflows: each guest check beyond meminfo/zoneinfo/numa/debugfs/initrd (kexec, kdump, vmcore in the"
		say "  crash kernel, dimm, virtio-mem, pvh, la57, kaslr) on LMB/pristine (ok or NO); kexec-mem: the second"
		say "  kernel's memory equals the first's. NAME/2: the second kernel of a kexec or kdump row vs pristine's."
		if grep -q '^board-' "$BUILD/.matrix"; then
			say ""
			say "Real arm64 boards (tests/boards; their rows above are board-NAME): /reserved-memory and LMB's ledger"
			sh scripts/board.sh summary $(awk '/^board-/ { sub(/^board-/, "", $1); print $1 }' "$BUILD/.matrix")
		fi
	} | tee "$LOGS/memory-compare.txt" | tee -a "$SUMMARY"
fi

# ---- make test-full: Kconfig and W=1 coverage (scripts/kconfig-check.sh,
# scripts/compile-check.sh) ----------------------------------------------------
if [ "$kind" = lmb ] && [ "$tier" = full ]; then
	for c in kconfig-check compile-check; do
		sh "scripts/$c.sh" >"$LOGS/$c.log" 2>&1 || true
		sed -n '/^==== summary/,$p' "$LOGS/$c.log" | sed '1d;$d' | sed "s/^/     $c: /" | tee -a "$SUMMARY"
		set -- $(tail -n 1 "$LOGS/$c.log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
		if [ $# = 2 ]; then P=$((P + $1)) F=$((F + $2)); else
			tail_log "$LOGS/$c.log"
			fail "$c: no result (build/logs/$c.log)"
		fi
	done
fi

say "total time $(elapsed "$T0")"
finish
