#!/bin/sh
# make memcmp: the memory comparisons of the last make test* run, judged
# again (its rows: build/.matrix; its boots: build/logs) against
# tests/memory-expectations as it is now. No build, no boot: when a series
# change moves the image, make test fails those comparisons and prints the
# lines to take (build/.memcmp.table.suggest); after taking them, this
# shows on the same logs that they hold. The rows make test does not
# compare (panic rows, layouts rows a kernel did not boot) are left out
# alike. Prints each test's verdict; ends with "N passed, N failed".
. scripts/lib.sh
[ -s "$BUILD/.matrix" ] || die "no run to judge again: build/.matrix is empty (run make test first)"
while read -r name _tier fw build _mem _smp _nodes opts _checks cmdline; do
	case ",$opts," in *,panic,*) continue ;; esac
	! grep -qxF "$name" "$BUILD/.down-lmb" "$BUILD/.down-base" 2>/dev/null || continue
	v=${build#*-}
	kaslr=1
	case " $cmdline " in *" nokaslr "*) kaslr=0 ;; esac
	# kexec and kdump rows: each kernel of the log (the second as NAME/2)
	parts=-
	case ",$opts," in *,kexec,*) parts="1 2" ;; esac
	for p in $parts; do
		c=$name sfx=
		[ "$p" = - ] || { sfx=.$p; [ "$p" = 1 ] || c=$name/$p; }
		for f in "$LOGS/boot-base-$name.log$sfx" "$LOGS/boot-lmb-$name.log$sfx"; do
			[ -f "$f" ] || echo "FAIL memory $c: $f is missing"
		done
		[ -f "$LOGS/boot-lmb-$name.log$sfx" ] && [ -f "$LOGS/boot-base-$name.log$sfx" ] || continue
		awk -v case="$c" -v build="$v" -v fw="$fw" -v kaslr="$kaslr" -f scripts/memcmp.awk \
			tests/memory-expectations "$(build_out "base-$v")/System.map" \
			"$(build_out "lmb-$v")/System.map" "$LOGS/boot-base-$name.log$sfx" \
			"$LOGS/boot-lmb-$name.log$sfx" 2>&1 | sed -n 's/^TEST //p'
	done
done <"$BUILD/.matrix" | awk '{ print } $1 == "ok" { p++ } $1 != "ok" { f++ }
	END { printf "%d passed, %d failed\n", p, f; exit f > 0 }'
