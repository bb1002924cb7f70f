#!/bin/sh
# Real machines' e820 tables (tests/e820/*.e820) as QEMU boots.
#
# usage: scripts/e820.sh rows [FILE...]   one tests/boot-matrix row per table
#                                          (tier layouts); a table that QEMU
#                                          cannot back is skipped, with the
#                                          reason on stderr
#        scripts/e820.sh show FILE         the row of one table, or its error
#        scripts/e820.sh summary [FILE...] one line per table: entries, usable
#                                          GiB, QEMU memory, or why skipped
#        scripts/e820.sh selftest          the converter's own tests
#
# A table is the firmware's map as the kernel prints it, one line each:
#   BIOS-e820: [mem 0x0000000000000000-0x000000000009efff] usable
# ('#' lines are comments: the source, the machine). The boot gives it to
# the kernel as memmap=exactmap,SIZE@ADDR,... (usable @, reserved $, ACPI
# data #, persistent !, any other type N as SIZE%ADDR+N: ACPI NVS 4,
# unusable 5, "type 20" ...), so that both kernels see the real table.
#
# QEMU must back every usable range with guest RAM, and keep its own
# firmware tables (SeaBIOS and ACPI at the top of RAM below 4G) out of them:
# RAM below 4G (max-ram-below-4g) ends 2 MiB above the 2 MiB boundary
# that follows the table's last usable byte below 4G; RAM above 4G covers
# the last usable byte above it. QEMU's pc machine gives at most 3 GiB
# below 4G to a large guest (its 1 GiB alignment); pc-i440fx-1.7, the
# machine without that alignment, gives up to 3840 MiB, so layouts use it
# (scripts/boot.sh -L, which maps the guest's RAM with reserve=off: a 32
# GiB guest starts on a 24 GiB machine and touches about its memory map).
# A table that needs more is skipped, as is one whose guest would exceed
# LMB_E820_MAX_GIB (default 64; the boot's timeout grows 15 s per GiB).
. scripts/lib.sh

LOWMAX_MB=3840
MAXGIB=${LMB_E820_MAX_GIB:-64}

# convert FILE: "ok ENTRIES USABLE_KB LOWMEM_MB MEM_MB MEMMAP" or
# "skip REASON" or "error REASON" (the file is wrong)
convert() {
	awk -v lowmax="$LOWMAX_MB" -v maxgib="$MAXGIB" '
	function hex(s,    i, c, v) {
		s = tolower(s); sub(/^0x/, "", s)
		if (s == "" || s ~ /[^0-9a-f]/) return -1
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	function num(v,    h, d) {	# for memparse: K/M/G when exact
		if (v == 0) return "0"
		if (v % 1073741824 == 0) return (v / 1073741824) "G"
		if (v % 1048576 == 0) return (v / 1048576) "M"
		if (v % 1024 == 0) return (v / 1024) "K"
		h = ""
		while (v > 0) { d = v % 16; h = substr("0123456789abcdef", d + 1, 1) h; v = (v - d) / 16 }
		return "0x" h
	}
	function bad(m) { if (!err) err = FILENAME ":" FNR ": " m }
	/^[[:space:]]*(#|$)/ { next }
	{
		line = $0
		sub(/^[[:space:]]*(\[[^]]*\][[:space:]]*)?/, "", line)
		if (line !~ /^BIOS-e820: \[mem 0x[0-9a-fA-F]+-0x[0-9a-fA-F]+\] /) {
			bad("not a BIOS-e820 line: " $0); next
		}
		r = line; sub(/^BIOS-e820: \[mem /, "", r)
		s = hex(substr(r, 1, index(r, "-") - 1))
		e = substr(r, index(r, "-") + 1); e = hex(substr(e, 1, index(e, "]") - 1))
		t = line; sub(/^[^]]*\] /, "", t)
		if (s < 0 || e < 0) { bad("bad address: " $0); next }
		if (e < s) { bad("range ends before it starts: " $0); next }
		if (n && s <= last) { bad(sprintf("overlaps or is below the range before it (which ends at 0x%x): %s", last, $0)); next }
		if (t == "usable") { sep = "@"; kind = 1 }
		else if (t == "reserved") { sep = "$"; kind = 2 }
		else if (t == "ACPI data") { sep = "#"; kind = 3 }
		else if (t == "ACPI NVS") { sep = "%"; kind = 4 }
		else if (t == "unusable") { sep = "%"; kind = 5 }
		else if (t ~ /^persistent \(type 12\)$/) { sep = "!"; kind = 12 }
		else if (t == "soft reserved") { sep = "%"; kind = "0xefffffff" }
		else if (t ~ /^type [0-9]+$/) { sep = "%"; kind = substr(t, 6) + 0 }
		else { bad("unknown type \"" t "\": " $0); next }
		n++; last = e; size = e - s + 1
		m = m "," num(size) sep num(s) (sep == "%" ? "+" kind : "")
		if (kind == 1) {
			usable += size
			if (s < 4294967296) {
				if (e >= 4294967296) { bad("a usable range across 4 GiB: " $0); next }
				if (e + 1 > lowend) lowend = e + 1
			} else if (e + 1 > highend) highend = e + 1
		}
	}
	END {
		if (err) { print "error " err; exit }
		if (!n) { print "error " FILENAME ": no BIOS-e820 line"; exit }
		if (!usable) { print "error " FILENAME ": no usable range"; exit }
		mb = 1048576
		low = (int((lowend + 2 * mb - 1) / (2 * mb)) * 2 + 2)	# MiB
		if (low > lowmax) {
			printf "skip usable RAM up to 0x%x below 4 GiB: QEMU backs at most %d MiB there\n", lowend, lowmax
			exit
		}
		mem = low
		if (highend) mem = low + int((highend - 4294967296 + mb - 1) / mb)
		if (mem > maxgib * 1024) {
			printf "skip the guest would need %d MiB (LMB_E820_MAX_GIB=%d)\n", mem, maxgib
			exit
		}
		printf "ok %d %d %d %d memmap=exactmap%s\n", n, usable / 1024, low, mem, m
	}' "$1"
}

# row FILE: the matrix row of a table (stdout) or the reason (stderr, 1)
row() {
	c=$(convert "$1")
	case $c in
	ok\ *) ;;
	*) printf '%s: %s\n' "$1" "$c" >&2; return 1 ;;
	esac
	set -- "$1" $c
	name=$(basename "$1" .e820)
	# name tier fw build mem smp nodes opts checks cmdline
	printf 'e820-%s layouts bios lmb-x86_64 %sM 2 - lowmem=%sM meminfo,zoneinfo,ledger nokaslr lmb=debug %s\n' \
		"$name" "$6" "$5" "$7"
}

summary() {
	for f in "$@"; do
		c=$(convert "$f")
		case $c in
		ok\ *)
			set -- $c
			printf '%-40s %3d entries %7.2f GiB usable  QEMU -m %sM, %sM below 4G\n' \
				"$(basename "$f" .e820)" "$2" "$(awk -v k="$3" 'BEGIN { print k / 1048576 }')" "$5" "$4" ;;
		*) printf '%-40s %s\n' "$(basename "$f" .e820)" "$c" ;;
		esac
	done
}

# ---- self-test ---------------------------------------------------------------
selftest() {
	d=$(mktemp -d)
	trap 'rm -rf "$d"' EXIT
	p=0 f=0
	t() { # NAME WANT(regex) FILE-CONTENT
		printf '%s\n' "$3" >"$d/t.e820"
		got=$(convert "$d/t.e820")
		if printf '%s\n' "$got" | grep -Eq "$2"; then
			p=$((p + 1)); say "ok - $1"
		else
			f=$((f + 1)); say "not ok - $1: got '$got', want /$2/"
		fi
	}
	e='BIOS-e820: [mem'
	t "a two-range map" \
		'^ok 2 639 4 4 memmap=exactmap,639K@0,1K\$639K$' \
		"$e 0x0000000000000000-0x000000000009fbff] usable
$e 0x000000000009fc00-0x000000000009ffff] reserved"
	t "timestamps and comments are ignored, types translated" \
		'^ok 7 [0-9]+ 4 4 memmap=exactmap,636K@0,4K#636K,4K%640K\+4,4K%644K\+5,4K!648K,4K%652K\+20,4K%656K\+0xefffffff$' \
		"# source: a test
[    0.000000] $e 0x0000000000000000-0x000000000009efff] usable
[    0.000000] $e 0x000000000009f000-0x000000000009ffff] ACPI data
$e 0x00000000000a0000-0x00000000000a0fff] ACPI NVS
$e 0x00000000000a1000-0x00000000000a1fff] unusable
$e 0x00000000000a2000-0x00000000000a2fff] persistent (type 12)
$e 0x00000000000a3000-0x00000000000a3fff] type 20
$e 0x00000000000a4000-0x00000000000a4fff] soft reserved"
	t "RAM above 4G: QEMU RAM below 4G ends 2 MiB past the last usable byte there, the rest covers the top" \
		'^ok 3 [0-9]+ 2050 6146 memmap=exactmap,639K@0,2047M@1M,4G@4G$' \
		"$e 0x0000000000000000-0x000000000009fbff] usable
$e 0x0000000000100000-0x000000007fffffff] usable
$e 0x0000000100000000-0x00000001ffffffff] usable"
	t "an odd size is written in hex" '^ok 1 .* memmap=exactmap,0x9f001@0$' \
		"$e 0x0000000000000000-0x000000000009f000] usable"
	t "overlapping ranges are refused" '^error .*:2: overlaps' \
		"$e 0x0000000000000000-0x000000000009ffff] usable
$e 0x000000000009f000-0x00000000000fffff] reserved"
	t "ranges out of order are refused" '^error .*:2: overlaps or is below' \
		"$e 0x0000000000100000-0x00000000001fffff] usable
$e 0x0000000000000000-0x000000000009ffff] usable"
	t "an unknown type is refused" '^error .*:1: unknown type "bogus"' \
		"$e 0x0000000000000000-0x000000000009ffff] bogus"
	t "a malformed line is refused" '^error .*:1: not a BIOS-e820 line' \
		"BIOS-e820: 0x0-0x9ffff usable"
	t "a range that ends before it starts is refused" '^error .*: range ends before it starts' \
		"$e 0x00000000000fffff-0x0000000000000000] usable"
	t "a map without usable RAM is refused" '^error .*: no usable range' \
		"$e 0x0000000000000000-0x000000000009ffff] reserved"
	t "an empty file is refused" '^error .*: no BIOS-e820 line' "# nothing"
	t "usable RAM up to 3.9 GiB cannot be backed" '^skip usable RAM up to 0xf9000000 below 4 GiB' \
		"$e 0x0000000000100000-0x00000000f8ffffff] usable"
	t "a guest over the size limit is skipped" '^skip the guest would need' \
		"$e 0x0000000100000000-0x0000001fffffffff] usable"
	t "a usable range across 4 GiB is refused" '^error .*:1: a usable range across 4 GiB' \
		"$e 0x0000000000100000-0x00000001ffffffff] usable"
	# every table of the corpus converts, and its row fits x86's command line
	for c in tests/e820/*.e820; do
		[ -f "$c" ] || continue
		got=$(convert "$c")
		case $got in
		error*) f=$((f + 1)); say "not ok - $c: $got" ;;
		ok*)	r=$(row "$c")
			if [ ${#r} -lt 1700 ]; then p=$((p + 1)); say "ok - $c converts (${#r} bytes of row)"
			else f=$((f + 1)); say "not ok - $c: row of ${#r} bytes, too long for x86's 2047-byte command line"; fi ;;
		*)	p=$((p + 1)); say "ok - $c: $got" ;;
		esac
	done
	say "e820.sh selftest: $p passed, $f failed"
	[ "$f" = 0 ]
}

cmd=${1:-}
[ $# -eq 0 ] || shift
case $cmd in
rows)	[ $# -gt 0 ] || set -- tests/e820/*.e820
	for f in "$@"; do row "$f" || true; done ;;
show)	[ $# -eq 1 ] || die "usage: scripts/e820.sh show FILE"
	row "$1" ;;
summary) [ $# -gt 0 ] || set -- tests/e820/*.e820
	summary "$@" ;;
selftest) selftest ;;
*)	die "usage: scripts/e820.sh rows|show FILE|summary|selftest" ;;
esac
