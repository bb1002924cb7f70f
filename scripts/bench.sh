#!/bin/sh
# LMB against memblock: scripts/bench.sh
# Runs the benchmark of the userspace simulator (tools/testing/lmb, "make
# bench": bench/bench.c built against LMB and against the memblock it
# replaced, build/memblock-ref from the pristine tag) in the
# patched tree, prints its table and the path of its plot.  BENCH_RUNS,
# BENCH_BIG_RUNS and BENCH_N are passed on (see bench/bench.sh there).
. scripts/lib.sh
sim=$KTREE/tools/testing/lmb
[ -f "$sim/bench/bench.c" ] || die "no benchmark in $sim (make tree first)"
command -v gnuplot >/dev/null 2>&1 ||
	warn "gnuplot not found (apt-get install gnuplot-nox): the plot will be skipped"
step "benchmark: make -C ${sim#"$TOP"/}/bench"
start=$(now)
ref=$(memblock_ref) || die "cannot extract memblock from the pristine tag"
make -s -C "$sim/bench" MEMBLOCK_REF="$ref" || die "the benchmark failed"
say "benchmark took $(elapsed "$start")"
png=$sim/bench/build/bench.png
if [ -f "$png" ]; then
	say "plot: $png"
else
	say "plot: none (gnuplot missing)"
fi
