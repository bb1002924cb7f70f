#!/bin/sh
# The device tree of an arm64 row that grafts a board's /reserved-memory
# onto QEMU's virt machine:
#   scripts/dtb.sh NAME MEM SMP NODES -> build/dtb/NAME-MEM-SMP-NODES.dtb
# QEMU dumps the virt machine's own tree for this memory, CPUs and NUMA
# nodes (-machine dumpdtb), dtc decompiles it, tests/dtb/NAME.dtsi (or
# what tests/dtb/NAME.sh prints; for NAME board-B, what scripts/board.sh
# dtsi B prints: a real board of tests/boards) is appended (its nodes merge
# into the root) and dtc compiles the result.
# Prints the .dtb's path. Needs qemu-system-aarch64 and dtc
# (packages qemu-system-arm, device-tree-compiler).
. scripts/lib.sh

[ $# = 4 ] || die "usage: scripts/dtb.sh NAME MEM SMP NODES"
name=$1 mem=$2 smp=$3 nodes=$4
case $name in
board-*) src=$TOP/tests/boards gen="sh scripts/board.sh dtsi ${name#board-}" ;;
*)	src=$TOP/tests/dtb/$name.dtsi gen="cat $src"
	[ -f "$src" ] || src=$TOP/tests/dtb/$name.sh gen="sh $src"
	[ -f "$src" ] || die "no device tree fragment tests/dtb/$name.dtsi or .sh" ;;
esac
out=$BUILD/dtb/$name-$mem-$smp-$nodes.dtb
mkdir -p "$BUILD/dtb"
# (a board's tree is read from build/linux each time: cpp and dtc take
# a second, and the tree may have changed)
case $name in board-*) ;; *)
	[ -f "$out" ] && [ ! "$src" -nt "$out" ] && [ ! "$0" -nt "$out" ] && { echo "$out"; exit 0; } ;;
esac
numa=
if [ "$nodes" != - ]; then
	mb=$(printf '%s\n' "$mem" | awk '/[Gg]$/ { print int($0) * 1024; next } { print int($0) }')
	i=0
	while [ "$i" -lt "$nodes" ]; do
		numa="$numa -object memory-backend-ram,id=m$i,size=$((mb / nodes))M -numa node,nodeid=$i,memdev=m$i"
		i=$((i + 1))
	done
	c=0
	while [ "$c" -lt "$smp" ]; do
		numa="$numa -numa cpu,node-id=$((c % nodes)),socket-id=$c"
		c=$((c + 1))
	done
fi
# shellcheck disable=SC2086
qemu-system-aarch64 -M "virt,dumpdtb=$out.qemu" -cpu max -m "$mem" \
	-smp "$smp,sockets=$smp,cores=1,threads=1" $numa -nodefaults -display none \
	>"$LOGS/dtb-$name.log" 2>&1 || { tail_log "$LOGS/dtb-$name.log"; die "qemu -machine dumpdtb failed"; }
{ dtc -q -I dtb -O dts "$out.qemu" && $gen; } >"$out.dts" 2>>"$LOGS/dtb-$name.log" &&
	dtc -q -I dts -O dtb -o "$out.tmp" "$out.dts" 2>>"$LOGS/dtb-$name.log" || {
	tail_log "$LOGS/dtb-$name.log"
	die "dtc failed on $out.dts"
}
mv "$out.tmp" "$out"
rm -f "$out.qemu"
echo "$out"
