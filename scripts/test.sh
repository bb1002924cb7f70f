#!/bin/sh
# make test  (scripts/test.sh lmb):  build/linux = pristine + patches/
# make baseline (scripts/test.sh base): build/pristine, without configs/lmb.config
#
# Steps: deps, tree, kernel builds (x86_64, i386), the userspace simulator
# (tools/testing/lmb, lmb only, if the series has it), initramfs, and every
# boot of tests/boot-matrix with its KUnit cases and guest checks counted.
# Ends with "N passed, N failed"; exits 1 on any failure.
. scripts/lib.sh

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

if [ "$kind" = lmb ]; then
	if sh scripts/tree.sh; then pass "tree: build/linux = pristine + patches/series"; else
		fail "tree: patches/series does not apply (see above)"
		finish
	fi
	if [ -n "$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' patches/series 2>/dev/null)" ]; then
		step "checkpatch on patches/series (scripts/check.sh --checkpatch-only)"
		sh scripts/check.sh --checkpatch-only >"$LOGS/checkpatch.log" 2>&1 || true
		grep -v '^==>' "$LOGS/checkpatch.log" | grep -v '^check:' || true
		for p in $(sed -n 's/^    ok   \([^ ]*\).*/\1/p' "$LOGS/checkpatch.log"); do pass "checkpatch $p"; done
		for p in $(sed -n 's/^    FAIL \([^:]*\):.*/\1/p' "$LOGS/checkpatch.log"); do
			F=$((F + 1)); echo "FAIL checkpatch $p (see build/logs/checkpatch.log)" >>"$SUMMARY"
		done
	fi
	builds=$(for v in $BUILDS_VARIANTS; do printf "lmb-%s " "$v"; done)
else
	sh scripts/pristine.sh || { fail "pristine tree"; finish; }
	builds=$(for v in $BUILDS_VARIANTS; do printf "base-%s " "$v"; done)
fi

built=
for b in $builds; do
	if sh scripts/kbuild.sh "$b"; then pass "build $b"; built="$built $b"; else fail "build $b"; fi
done

# ---- userspace simulator (part of the series) --------------------------------
if [ "$kind" = lmb ]; then
	sim=$KTREE/tools/testing/lmb
	if [ -d "$sim" ]; then
		t0=$(now)
		step "simulator: make -C build/linux/tools/testing/lmb test"
		if klock make -C "$sim" -j"$JOBS" test >"$LOGS/simulator.log" 2>&1; then rc=0; else rc=$?; fi
		say "    done in $(elapsed "$t0") (log: build/logs/simulator.log)"
		# The simulator nests each program's KTAP one level deeper than
		# KUnit does; its own closing line counts the leaf cases.
		n=$(sed -n 's/^# lmb-sim: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
			"$LOGS/simulator.log")
		if [ -n "$n" ]; then
			sim_count $n
		fi
		if [ "$rc" != 0 ]; then
			tail_log "$LOGS/simulator.log"
			fail "simulator: make test exited with status $rc"
		elif [ -z "$n" ]; then
			fail "simulator: make test printed no '# lmb-sim:' line"
		fi
	else
		say "note: build/linux/tools/testing/lmb does not exist (not in the series yet); simulator skipped"
		echo "skip simulator (tools/testing/lmb not in the series yet)" >>"$SUMMARY"
	fi
fi

# ---- the kernel's own memblock suite, built against LMB ---------------------
# tools/testing/memblock with LMB=1 compiles mm/lmb.c and mm/lmb_memblock.c
# instead of mm/memblock.c; its test files are unchanged.  Each variant must
# pass exactly as many checks as it does against pristine 6.12.118.
if [ "$kind" = lmb ]; then
	mb=$KTREE/tools/testing/memblock
	if grep -q '^ifeq (\$(LMB), *1)' "$mb/Makefile" 2>/dev/null; then
		for v in "default 181" "NUMA=1 263"; do
			set -- $v
			opt=$1 want=$2
			[ "$opt" = default ] && opt=
			step "memblock suite against LMB: make -C tools/testing/memblock LMB=1 $opt"
			log=$LOGS/memblock-sim${opt:+-$opt}.log
			if (make -C "$mb" clean && make -C "$mb" -j"$JOBS" LMB=1 $opt &&
				cd "$mb" && ./main -v) >"$log" 2>&1; then rc=0; else rc=$?; fi
			got=$(grep -c '^ok [0-9]* :' "$log")
			if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
				pass "memblock suite LMB=1 ${opt:-default}: $got of $want checks"
			else
				tail_log "$log"
				fail "memblock suite LMB=1 ${opt:-default}: $got of $want checks, exit $rc"
			fi
		done
		make -C "$mb" clean >/dev/null 2>&1 || true
	else
		say "note: tools/testing/memblock has no LMB=1 build in this series; skipped"
	fi
fi

# ---- boots --------------------------------------------------------------------
arches=
for b in $built; do
	a=$(build_arch "$b")
	case " $arches " in *" $a "*) ;; *) arches="$arches $a" ;; esac
done
for a in $arches; do
	sh scripts/initramfs.sh "$a" || fail "initramfs $a"
done
rows=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/boot-matrix | wc -l | tr -d ' ')
i=0
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/boot-matrix >"$BUILD/.matrix.$kind"
while read -r name build mem smp nodes checks cmdline; do
	i=$((i + 1))
	b=$kind-${build#*-}
	a=$(build_arch "$b")
	log=$LOGS/boot-$kind-$name.log
	case " $built " in
	*" $b "*) ;;
	*) fail "boot $i/$rows $name: kernel $b not built"; continue ;;
	esac
	step "[boot $i/$rows] $name: $b, -m $mem -smp $smp, nodes $nodes, $cmdline"
	if sh scripts/boot.sh -m "$mem" -s "$smp" -n "$nodes" -c "$checks" \
		-i "$BUILD/initramfs-$a.cpio.gz" -l "$log" "$(build_image "$b")" $cmdline </dev/null; then
		pass "boot $name (no hang/panic/Oops/WARNING/BUG, guest finished)"
	else
		fail "boot $name (log: ${log#"$TOP"/})"
	fi
	count "kunit+guest $name" "$log"
done <"$BUILD/.matrix.$kind"

say "total time $(elapsed "$T0")"
finish
