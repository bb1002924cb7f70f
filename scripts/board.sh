#!/bin/sh
# Real arm64 boards' memory reservations (tests/boards) as QEMU virt boots.
#
# usage: scripts/board.sh rows             one tests/boot-matrix row per board
#                                          (tier layouts, build lmb-arm64)
#        scripts/board.sh dtsi NAME        the board's /reserved-memory as a
#                                          fragment for scripts/dtb.sh (needs
#                                          build/linux, the imported tree)
#        scripts/board.sh summary [NAME...] per board (default: every board
#                                          with a log in build/logs): its
#                                          regions, and the largest owners of
#                                          its LMB boot's ledger
#        scripts/board.sh selftest         the converter on fixture trees
#
# The board's device tree source is compiled as "make dtbs" compiles it
# (cpp with the kernel's include prefixes, then dtc); its /reserved-memory
# regions are read back with fdtget and moved with the board's DRAM base
# (tests/boards) to 0x50000000: QEMU's virt RAM starts at 0x40000000, and
# QEMU puts the kernel, the device tree and the initramfs in its first
# 256 MiB.
# QEMU writes /memory itself (one range of the row's MEM), so the board's
# /memory holes are not replayed; its regions are, each with its node name
# (the name LMB's ledger shows), reg or size/alignment/alloc-ranges, no-map,
# reusable, the CMA and DMA default flags, compatible and ramoops' sizes.
# Driver-private properties (phandles, VM ids) are left out; regions with
# status other than "okay" are left out as the kernel leaves them.
# Errors (exit 1, on stderr): no such board, a source that does not
# compile, a region that MEM does not cover, a region below the DRAM base
# that would lie in virt's RAM.
. scripts/lib.sh

GUEST_BASE=$((0x50000000))	# where the board's DRAM base lands
RAM_BASE=$((0x40000000))	# QEMU virt

# board NAME: "DTS MEM BASE" from tests/boards
board() {
	awk -v n="$1" '{ sub(/#.*/, "") } $1 == n && NF >= 4 { print $2, $3, $4; f = 1 } END { exit !f }' \
		"$TOP/tests/boards" || die "no board $1 in tests/boards"
}

# compile DTS OUT: the board's .dtb, as make dtbs builds it
compile() {
	d=$KTREE/arch/arm64/boot/dts	# build/linux: no patch of the series touches it
	[ -f "$d/$1" ] || die "no $d/$1 (make tree, or a wrong path in tests/boards)"
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$KTREE/scripts/dtc/include-prefixes" -I "$(dirname "$d/$1")" "$d/$1" \
		-o "$2.dts" 2>"$2.log" || { cat "$2.log" >&2; die "$1: cpp failed"; }
	dtc -q -@ -I dts -O dtb -i "$(dirname "$d/$1")" -o "$2" "$2.dts" 2>>"$2.log" ||
		{ cat "$2.log" >&2; die "$1 does not compile (dtc)"; }
}

# cells DTB PATH PROP: the property as 32-bit words (hex), empty if absent
cells() { fdtget -t x "$1" "$2" "$3" 2>/dev/null || true; }

# regions DTB: one line per /reserved-memory child, for fragment():
#   node NAME STATUS FLAGS REG SIZE ALIGN RANGES COMPAT RAMOOPS LABEL (- if none)
# cells as fdtget prints them, comma separated (COMPAT: strings, | separated),
# FLAGS of no-map,
# reusable, linux,cma-default, linux,dma-default; before them the root's
# cells and /memory's reg ("mem AC SC REG|-") and the regions' cells
# ("cells AC SC"); LABEL is the source's label of the node (kept in the
# fragment as a label: the names the board's maintainers use).
regions() {
	rm=/reserved-memory
	ac=$(cells "$1" $rm '#address-cells') sc=$(cells "$1" $rm '#size-cells')
	rac=$(cells "$1" / '#address-cells') rsc=$(cells "$1" / '#size-cells')
	echo "cells ${ac:-$rac} ${sc:-$rsc}"
	# the source's labels (dtc -@ keeps them in /__symbols__): "LABEL PATH"
	for l in $(fdtget -p "$1" /__symbols__ 2>/dev/null); do
		echo "$l $(fdtget -t s "$1" /__symbols__ "$l")"
	done >"$1.labels"
	for n in $(fdtget -l "$1" $rm 2>/dev/null); do
		p=$rm/$n
		props=" $(fdtget -p "$1" "$p" 2>/dev/null | tr '\n' ' ')"
		st=$(fdtget -t s "$1" "$p" status 2>/dev/null) || st=okay
		fl=
		for f in no-map reusable linux,cma-default linux,dma-default; do
			case $props in *" $f "*) fl="$fl,$f" ;; esac
		done
		ro=
		for f in record-size console-size ftrace-size pmsg-size ecc-size; do
			case $props in *" $f "*) ro="$ro,$f=$(cells "$1" "$p" $f)" ;; esac
		done
		co=$(fdtget -t s "$1" "$p" compatible 2>/dev/null | tr ' ' '|')
		r=$(cells "$1" "$p" reg | tr ' ' ,) s=$(cells "$1" "$p" size | tr ' ' ,)
		a=$(cells "$1" "$p" alignment | tr ' ' ,) ar=$(cells "$1" "$p" alloc-ranges | tr ' ' ,)
		fl=${fl#,} ro=${ro#,}
		lb=$(awk -v p="$p" '$2 == p { print $1; exit }' "$1.labels")
		echo "node $n $st ${fl:--} ${r:--} ${s:--} ${a:--} ${ar:--} ${co:--} ${ro:--} ${lb:--}"
	done
}

# fragment NAME DTS MEM BASE: regions() on stdin, the dtsi fragment on stdout
fragment() {
	awk -v name="$1" -v dts="$2" -v mem="$3" -v base="$4" -v gbase="$GUEST_BASE" -v rbase="$RAM_BASE" '
	function err(m) { print "scripts/board.sh: " name ": " m >"/dev/stderr"; bad = 1; exit 1 }
	function hexval(s,    i, c, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); v = v * 16 + c - 1 }
		return v
	}
	# words W (comma list) from index I, N cells: the number
	function num(w, i, n,    v, k) { v = 0; for (k = 0; k < n; k++) v = v * 4294967296 + hexval(w[i + k]); return v }
	function cell2(v) { return sprintf("0x%x 0x%08x", int(v / 4294967296), v % 4294967296) }
	# 64-bit hex (mawk'"'"'s %x stops at 0xffffffff)
	function hx(v) { return v >= 4294967296 ? sprintf("%x%08x", int(v / 4294967296), v % 4294967296) : sprintf("%x", v) }
	function bytes(s) {
		if (s ~ /[Gg]$/) return s * 1073741824
		if (s ~ /[Mm]$/) return s * 1048576
		return s + 0
	}
	BEGIN { top = rbase + bytes(mem) }
	$1 == "cells" { ac = $2; sc = $3; next }
	$1 == "node" { nn++; node[nn] = $2; st[nn] = $3; fl[nn] = $4; reg[nn] = $5; sz[nn] = $6
		al[nn] = $7; ar[nn] = $8; co[nn] = $9; ro[nn] = $10; lb[nn] = $11; next }
	END {
		if (bad) exit 1
		if (ac == "" || nn == 0) err("no /reserved-memory regions in " dts)
		if (base !~ /^0x[0-9a-fA-F]+$/) err("BASE " base " is no hex address (tests/boards)")
		base = hexval(base)
		off = gbase - base
		printf "// %s: /reserved-memory of arch/arm64/boot/dts/%s (Debian 6.12),\n", name, dts
		printf "// written by scripts/board.sh: DRAM base 0x%s moved to 0x%s.\n", hx(base), hx(gbase)
		printf "/ {\n\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n\t\tranges;\n"
		for (k = 1; k <= nn; k++) {
			if (st[k] != "okay" && st[k] != "ok") { printf "\t\t// %s: status \"%s\", left out\n", node[k], st[k]; continue }
			n = node[k]; sub(/@.*/, "", n); body = ""; first = -1
			if (reg[k] != "-") {
				m = split(reg[k], w, ","); r = ""
				for (i = 1; i + ac + sc - 1 <= m; i += ac + sc) {
					a = num(w, i, ac); s = num(w, i + ac, sc)
					g = a + off
					# below the DRAM base: outside memory, on the board and here
					if (a < base && a + s <= rbase) g = a
					else if (a < base) err(sprintf("%s at 0x%s lies below the DRAM base 0x%s and cannot stay below RAM here", node[k], hx(a), hx(base)))
					if (g + s > top) err(sprintf("%s ends at guest 0x%s, above the %s of RAM (to 0x%s): raise MEM in tests/boards", node[k], hx(g + s), mem, hx(top)))
					if (first < 0) first = g
					r = r (r == "" ? "" : " ") cell2(g) " " cell2(s)
				}
				body = body sprintf("\t\t\treg = <%s>;\n", r)
			}
			if (sz[k] != "-") { split(sz[k], w, ","); body = body sprintf("\t\t\tsize = <%s>;\n", cell2(num(w, 1, sc))) }
			if (al[k] != "-") { split(al[k], w, ","); body = body sprintf("\t\t\talignment = <%s>;\n", cell2(num(w, 1, sc))) }
			if (ar[k] != "-") {
				m = split(ar[k], w, ","); r = ""
				for (i = 1; i + ac + sc - 1 <= m; i += ac + sc) {
					a = num(w, i, ac); s = num(w, i + ac, sc)
					# a range of the board that the guest cannot hold is clipped to it
					lo = a + off; hi = lo + s
					if (lo < rbase) lo = rbase
					if (hi > top) hi = top
					if (hi <= lo) err(sprintf("%s: alloc-range 0x%s+0x%s lies outside the guest RAM", node[k], hx(a), hx(s)))
					r = r (r == "" ? "" : " ") cell2(lo) " " cell2(hi - lo)
				}
				body = body sprintf("\t\t\talloc-ranges = <%s>;\n", r)
			}
			if (co[k] != "-") { c = co[k]; gsub(/\|/, "\", \"", c); body = "\t\t\tcompatible = \"" c "\";\n" body }
			if (ro[k] != "-") {
				m = split(ro[k], w, ",")
				for (i = 1; i <= m; i++) { split(w[i], kv, "="); body = body sprintf("\t\t\t%s = <0x%s>;\n", kv[1], kv[2]) }
			}
			if (fl[k] != "-") { m = split(fl[k], w, ","); for (i = 1; i <= m; i++) body = body "\t\t\t" w[i] ";\n" }
			printf "\t\t%s%s {\n%s\t\t};\n", (lb[k] != "-" ? lb[k] ": " : ""), (first >= 0 ? n "@" hx(first) : n), body
		}
		printf "\t};\n};\n"
	}'
}

dtsi() {
	set -- "$1" $(board "$1")
	mkdir -p "$BUILD/dtb"
	compile "$2" "$BUILD/dtb/board-$1.src.dtb"
	regions "$BUILD/dtb/board-$1.src.dtb" | fragment "$1" "$2" "$3" "$4"
}

# selftest: the converter on small trees (dtc from a source written here)
selftest() {
	p=0 f=0 t=$BUILD/board-selftest
	mkdir -p "$t"
	# case NAME MEM BASE WANT REGIONS: WANT "ok REGEX" (in the fragment) or
	# "error REGEX" (in the message); REGIONS: /reserved-memory's children
	case_() {
		printf '/dts-v1/;\n/ { #address-cells = <2>; #size-cells = <2>;\n reserved-memory { #address-cells = <2>; #size-cells = <2>; ranges;\n%s\n };\n};\n' "$5" |
			dtc -q -@ -I dts -O dtb -o "$t/$1.dtb" - || { f=$((f + 1)); say "not ok - $1: the fixture does not compile"; return; }
		out=$(regions "$t/$1.dtb" | fragment "$1" fixture "$2" "$3" 2>&1) && r=ok || r=error
		if [ "$r" = "${4%% *}" ] && printf '%s\n' "$out" | grep -qE -- "${4#* }"; then
			p=$((p + 1)); say "ok - $1: $r as expected"
		else
			f=$((f + 1)); say "not ok - $1: wanted $4, got $r:"; printf '%s\n' "$out" | sed 's/^/    /'
		fi
	}
	case_ moved 1G 0x80000000 'ok hyp: memory@50100000 \{' \
		'hyp: memory@80100000 { reg = <0 0x80100000 0 0x100000>; no-map; };'
	case_ labels-flags 1G 0x80000000 'ok reusable;' \
		'cma: linux,cma { compatible = "shared-dma-pool"; reusable; size = <0 0x800000>; linux,cma-default; };'
	case_ two-compatibles 1G 0x80000000 'ok compatible = "qcom,rmtfs-mem", "shared-dma-pool";' \
		'r@80000000 { compatible = "qcom,rmtfs-mem", "shared-dma-pool"; reg = <0 0x80000000 0 0x1000>; };'
	case_ sram-kept 1G 0x80000000 'ok rsc@2021e000' \
		'rsc@2021e000 { reg = <0 0x2021e000 0 0x1000>; no-map; };'
	case_ disabled 1G 0x80000000 'ok // gone@80000000: status "disabled", left out' \
		'gone@80000000 { reg = <0 0x80000000 0 0x1000>; status = "disabled"; };'
	case_ too-high 1G 0x80000000 'error ends at guest 0x90000000, above the 1G of RAM' \
		'top@bff00000 { reg = <0 0xbff00000 0 0x100000>; no-map; };'
	case_ below-base-in-ram 1G 0x80000000 'error lies below the DRAM base' \
		'low@7ff00000 { reg = <0 0x7ff00000 0 0x100000>; };'
	case_ range-clipped 1G 0x0 'ok alloc-ranges = <0x0 0x50000000 0x0 0x30000000>;' \
		'pool { compatible = "shared-dma-pool"; size = <0 0x100000>; alloc-ranges = <0 0 0 0x80000000>; };'
	case_ no-regions 1G 0x0 'error no /reserved-memory regions' ''
	case_ bad-base 1G 80000000 'error BASE 80000000 is no hex address' \
		'r@0 { reg = <0 0 0 0x1000>; };'
	say "board.sh selftest: $p passed, $f failed"
	[ "$f" = 0 ]
}

rows() {
	sed 's/#.*//' "$TOP/tests/boards" | awk 'NF >= 4 {
		printf "board-%s layouts bios lmb-arm64 %s 2 - dtb=board-%s meminfo,zoneinfo,ledger,rmem nokaslr lmbtest.keep=1\n", $1, $3, $1
	}'
}

# summary: one paragraph per board whose LMB boot has a log, from its rmem
# and ledger checks
summary() {
	sed 's/#.*//' "$TOP/tests/boards" | awk -v only=" $* " 'NF >= 4 && (only == "  " || index(only, " " $1 " ")) { print $1, $2 }' |
	while read -r n dts; do
		log=$LOGS/boot-lmb-board-$n.log
		[ -f "$log" ] || continue
		awk -v n="$n" -v dts="$dts" '
		function mib(b) { return sprintf("%.1f MiB", b / 1048576) }
		{ sub(/\r$/, "") }
		/^# [^ ]+: no-map(,|$)/ { nomap++; next }
		/^# [0-9]+ reserved regions of / { res = $2; next }
		/^# no-map regions in memory: / { nkb = $6; named = $11 }
		/^# lmb-owners: # group/ { own = 1; next }
		own && /^# lmb-owners: [a-z]/ { k++; b[k] = $5; nm = $0; for (i = 0; i < 7; i++) sub(/^[^ ]+ +/, "", nm); name[k] = nm; next }
		own && !/^# lmb-owners: / { own = 0 }
		END {
			printf "  %-22s %-40s %3d regions: %d reserved, %d no-map (%s in memory, %s of it named)\n", n, dts, res + nomap, res, nomap, mib(nkb * 1024), mib(named * 1024)
			line = ""
			for (t = 0; t < 5 && t < k; t++) {
				m = 0; for (i = 1; i <= k; i++) if (!(i in done) && (m == 0 || b[i] > b[m])) m = i
				done[m] = 1; line = line (t ? ", " : "") name[m] " " mib(b[m])
			}
			printf "  %-22s largest owners: %s\n", "", line
		}' "$log"
	done
}

cmd=${1:-}
[ $# -eq 0 ] || shift
case $cmd in
rows)	rows ;;
summary) summary "$@" ;;
selftest) selftest ;;
dtsi)	[ $# -eq 1 ] || die "usage: scripts/board.sh dtsi NAME"
	dtsi "$1" ;;
*)	die "usage: scripts/board.sh rows|dtsi NAME|summary [NAME...]|selftest" ;;
esac
