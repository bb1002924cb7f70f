#!/bin/sh
# make boot: deps, tree, build lmb-x86_64, initramfs, boot the first line of
# tests/boot-matrix (the first lmb-x86_64 row without options: 1 GiB x86_64,
# lmb=debug memblock=debug), print the LMB boot report (scripts/report.sh;
# it ends with the ledger after boot) and draw the memory map
# (scripts/memmap.sh).
. scripts/lib.sh

T0=$(now)
sh scripts/deps.sh
sh scripts/tree.sh
sh scripts/kbuild.sh lmb-x86_64
sh scripts/initramfs.sh x86_64

# columns: name tier fw build mem smp nodes opts checks cmdline...
row=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/boot-matrix |
	awk '$4 == "lmb-x86_64" && $8 == "-" { print; exit }')
set -f
set -- $row
name=$1 fw=$3 mem=$5 smp=$6 nodes=$7 checks=$9
shift 9
log=$LOGS/boot-lmb-$name.log
report=$LOGS/boot-report.txt
step "[boot 1/1] $name: -m $mem -smp $smp, $*"
rc=0
sh scripts/boot.sh -f "$fw" -m "$mem" -s "$smp" -n "$nodes" -c "$checks" \
	-i "$BUILD/initramfs-x86_64.cpio.gz" -l "$log" "$(build_image lmb-x86_64)" "$@" || rc=$?

sh scripts/report.sh "$log" "$(build_out lmb-x86_64)/System.map" >"$report"
cat "$report"
# The picture of early memory, from the lmb=debug dump at hand-over (or,
# without one, from /proc/lmb/ranges as the guest check ledger copied it).
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
