#!/bin/sh
# make boot: deps, tree, build lmb-x86_64, initramfs, boot the first line of
# tests/boot-matrix (1 GiB x86_64, lmb=debug memblock=debug) and print the
# LMB boot report, and draw the memory map (scripts/memmap.sh).
. scripts/lib.sh

T0=$(now)
sh scripts/deps.sh
sh scripts/tree.sh
sh scripts/kbuild.sh lmb-x86_64
sh scripts/initramfs.sh x86_64

row=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/boot-matrix | grep -E '^[^ ]+[[:space:]]+lmb-x86_64[[:space:]]' | head -n1)
set -- $row
name=$1 mem=$3 smp=$4 nodes=$5 checks=$6
shift 6
log=$LOGS/boot-lmb-$name.log
report=$LOGS/boot-report.txt
step "[boot 1/1] $name: -m $mem -smp $smp, $*"
rc=0
sh scripts/boot.sh -m "$mem" -s "$smp" -n "$nodes" -c "$checks" \
	-i "$BUILD/initramfs-x86_64.cpio.gz" -l "$log" "$(build_image lmb-x86_64)" "$@" || rc=$?

sh scripts/report.sh "$log" >"$report"
cat "$report"
# The picture of early memory, from the lmb=debug dump at hand-over.
svg=$LOGS/memmap-lmb-$name.svg
say ""
sh scripts/memmap.sh "$log" "$svg" "$(build_out lmb-x86_64)/System.map" || { warn "no memory map picture"; svg=; }
say ""
say "make boot: $( [ $rc = 0 ] && echo ok || echo FAILED ) in $(elapsed "$T0"). Files written:"
say "  kernel:        build/out/lmb-x86_64/arch/x86/boot/bzImage (config: build/out/lmb-x86_64/.config)"
say "  initramfs:     build/initramfs-x86_64.cpio.gz"
say "  serial log:    ${log#"$TOP"/}"
say "  boot report:   ${report#"$TOP"/}"
[ -z "$svg" ] || say "  memory map:    ${svg#"$TOP"/} (SVG: open it in a browser)"
say "  build log:     build/logs/build-lmb-x86_64.log"
exit $rc
