# Caller addresses of a serial log, resolved with the build's System.map:
#
#   awk -v map=SYSTEM_MAP [-v who=NAME] -f scripts/symbols.awk LOG >PAIRS
#
# Prints "ADDR FUNC+0xOFF" for each distinct field of LOG that is a kernel
# address (0x and 8 or 16 hex digits: a ledger entry or owner named by its
# caller, the kernel has no KALLSYMS) inside a text symbol of the map.
# The map must be the booted kernel's: the first "Linux version ... #N" of
# LOG against the .version next to the map. When they differ nothing is
# resolved and the only line is "# MAP is from build #M, the booted kernel
# is #N" (also a warning on stderr, from NAME). Used by scripts/report.sh,
# scripts/memmap.sh and scripts/ledger.sh. awk's doubles cannot hold 64-bit
# addresses: they are compared as hex strings of 16 digits.
function pad16(s) { s = tolower(s); sub(/^0x/, "", s); while (length(s) < 16) s = "0" s; return s }
function hex(s,   v, i) {
	v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
# name+0xoff of the last text symbol at or below a, "" when a is in none
# (not the same upper 36 bits, or more than 1 MiB past the symbol)
function resolve(a,   k, lo, hi, mid, off) {
	k = pad16(a)
	if (nsym == 0 || k < skey[1]) return ""
	lo = 1; hi = nsym
	while (lo < hi) { mid = int((lo + hi + 1) / 2); if (skey[mid] <= k) lo = mid; else hi = mid - 1 }
	if (substr(skey[lo], 1, 9) != substr(k, 1, 9)) return ""
	off = hex(substr(k, 10)) - hex(substr(skey[lo], 10))
	if (off > 1048576) return ""
	return sprintf("%s+0x%x", sname[lo], off)
}
{ sub(/\r$/, "") }
!booted && /Linux version .* #[0-9]+ / {
	booted = $0; sub(/.*Linux version .* #/, "", booted); sub(/ .*/, "", booted)
}
{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^0x[0-9a-fA-F]+$/ && (length($i) == 10 || length($i) == 18) && !($i in seen)) {
			seen[$i] = 1; addr[++naddr] = $i
		}
}
END {
	if (map == "" || naddr == 0) exit
	dir = map; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
	if ((getline built < (dir "/.version")) > 0 && booted != "" && built != booted) {
		note = map " is from build #" built ", the booted kernel is #" booted
		print (who != "" ? who : "symbols") ": WARNING: " note ": caller addresses not resolved" > "/dev/stderr"
		print "# " note
		exit
	}
	while ((getline line < map) > 0) {
		split(line, f, " ")
		if (f[2] ~ /^[tTwW]$/) { skey[++nsym] = pad16(f[1]); sname[nsym] = f[3] }
	}
	# A map linked at 0 whose kernel runs relocated by a multiple of 256
	# MiB (s390 maps its image at 0x3ffe0000000 in QEMU): an address with
	# top bits the map has not is matched by its low 28 bits; the others
	# (every address of a map linked high, x86's or i386's) as they are.
	low = substr(skey[1], 1, 9) == "000000000"
	for (i = 1; i <= naddr; i++) {
		k = pad16(addr[i])
		if (low && substr(k, 1, 9) != "000000000") k = "000000000" substr(k, 10)
		if ((r = resolve(k)) != "") print addr[i], r
	}
}
