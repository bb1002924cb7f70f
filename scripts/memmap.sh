#!/bin/sh
# Draw early memory at hand-over from a boot's serial log as plain SVG.
#
#   scripts/memmap.sh [-a] LOG OUT.svg [System.map]
#
# The source, said in the picture's title:
#  - the last "lmb: dump (hand-over)" of LOG (else the last "lmb: dump", a
#    boot with lmb=debug): its memory, reserved and ledger sets, parsed by
#    the "#i [0x.. - 0x..]" shape under each header;
#  - with -a, or when LOG has no dump: the ledger kept after boot, as the
#    guest check ledger copied /proc/lmb/ranges (root's view, with
#    addresses) into LOG ("# lmb-ranges: BASE-LAST : OWNER"). That file has
#    no memory regions: memory is then the usable RAM of the firmware map
#    in LOG (the last "user:" map of mem=/memmap=, else "BIOS-e820:"),
#    each entry trimmed to whole pages, and reserved = the kept ranges.
# Free = memory minus reserved: the ranges handed over to the page
# allocator. Ledger names that are raw caller addresses (the kernel has no
# KALLSYMS) are resolved with System.map when given (scripts/symbols.awk).
#
# The picture: (1) one row per memory region, each to its own linear scale;
# (2) a detail map of every range (free, each ledger entry, holes) on a
# log-ish scale (width grows with log2 of the size), wrapped over rows, with
# start addresses; (3) the legend; (4) the ledger table and the free ranges.
# Prints a short summary (bytes of memory / reserved / free, named and
# unnamed ledger entries). POSIX sh + awk (mawk or gawk; awk needs log()).
set -eu

after=0
[ "${1:-}" != -a ] || { after=1; shift; }
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 [-a] LOG OUT.svg [System.map]" >&2; exit 2; }
log=$1 out=$2 map=${3:-}
[ -r "$log" ] || { echo "memmap: cannot read $log" >&2; exit 1; }
[ -z "$map" ] || [ -r "$map" ] || { echo "memmap: cannot read System.map $map" >&2; exit 1; }

tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
# "ADDR FUNC+0xOFF" of the log's caller addresses ("# NOTE" when the map is
# not the booted kernel's).
if [ -n "$map" ]; then
	awk -v map="$map" -v who=memmap -f "$(dirname "$0")/symbols.awk" "$log" >"$tmp"
else
	: >"$tmp"
fi

awk -v logname="$log" -v mapname="$map" -v after="$after" -v symfile="$tmp" -v svgout="$out" '
function hex(s,   v, i, c) {
	s = tolower(s); sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0) break
		v = v * 16 + c - 1
	}
	return v
}
function tohex(v, w,   s, d) {
	s = ""
	if (v == 0 && w == 0) w = 1
	while (v > 0) { d = v % 16; s = substr("0123456789abcdef", d + 1, 1) s; v = (v - d) / 16 }
	while (length(s) < w) s = "0" s
	return "0x" s
}
function human(b,   u, i) {
	split("B KiB MiB GiB TiB", u, " "); i = 1
	while (b >= 1024 && i < 5) { b /= 1024; i++ }
	if (i == 1) return sprintf("%d B", b)
	if (b == int(b)) return sprintf("%d %s", b, u[i])
	return sprintf("%.1f %s", b, u[i])
}
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
function log2(x) { return log(x) / log(2) }
function emit(s) { body[++nbody] = s }
function text(x, y, s, attrs) { emit(sprintf("<text x=\"%.1f\" y=\"%.1f\"%s>%s</text>", x, y, attrs, esc(s))) }
function rect(x, y, w, h, fill, extra) {
	emit(sprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>", x, y, w, h, fill, extra))
}
# Fit a label into w pixels at the given char width; "" when not even 3 chars fit.
function fit(s, w, cw,   n) {
	n = int((w - 4) / cw)
	if (n < 3) return ""
	if (length(s) <= n) return s
	return substr(s, 1, n - 1) "~"
}
function kind_of(name) {
	if (name ~ /^0x[0-9a-fA-F]+$/) return "unnamed"
	if (name ~ /TEXT|DATA|BSS|BRK|KERNEL|[Kk]ernel/) return "kernel"
	if (name ~ /RAMDISK|INITRD|[Ii]nitrd/) return "initrd"
	if (name ~ /BIOS|MP-table|LOW|EFI|ACPI|E820|e820|EBDA|SMBIOS|RMP|[Ss]oft|firmware|[Tt]rampoline|SETUP|setup_data|IBFT|MPTABLE/) return "firmware"
	return "named"
}

BEGIN {
	W = 1200; M = 20
	col["free"] = "#a6dba0"; lab["free"] = "free: handed over to the page allocator"
	col["kernel"] = "#6baed6"; lab["kernel"] = "kernel image (TEXT DATA BSS, BRK)"
	col["initrd"] = "#b4a7d6"; lab["initrd"] = "initramfs (RAMDISK)"
	col["firmware"] = "#fdae6b"; lab["firmware"] = "firmware, BIOS and low memory"
	col["named"] = "#80cdc1"; lab["named"] = "other named reservation"
	col["unnamed"] = "#f4a6a6"; lab["unnamed"] = "unnamed: caller address (System.map symbol)"
	col["noledger"] = "#d73027"; lab["noledger"] = "reserved, no ledger entry (should not happen)"
	col["hole"] = "url(#hatch)"; lab["hole"] = "hole: neither memory nor reserved"
	split("#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666", ncol, " ")
	mapnote = ""
	while ((getline line < symfile) > 0) {
		if (line ~ /^# /) mapnote = substr(line, 3)
		else { split(line, f, " "); sym[f[1]] = f[2] }
	}
	resolving = mapname != "" && mapnote == ""
}
function ledger(a, b, name) {
	nl++; ls[nl] = a; le[nl] = b; lname[nl] = name
	lkind[nl] = kind_of(name)
	lsym[nl] = (lkind[nl] == "unnamed" && (name in sym)) ? sym[name] : ""
}
# "[mem 0xA-0xB] usable" of a firmware map line: usable RAM, whole pages
function usable(l, t,   a, b) {
	if (l !~ /\] usable$/) return
	a = l; sub(/.*\[mem /, "", a); b = a; sub(/-.*/, "", a); sub(/.*-/, "", b); sub(/\].*/, "", b)
	a = int((hex(a) + 4095) / 4096) * 4096; b = int((hex(b) + 1) / 4096) * 4096
	if (a < b) { nfw[t]++; us[t, nfw[t]] = a; ue[t, nfw[t]] = b }
}
{ sub(/\r$/, ""); sub(/^\[[ 0-9.]*\] /, ""); L[NR] = $0 }
/^lmb: dump \(/ { last = NR; if ($0 ~ /\(hand-over\)/) lasth = NR }
# the ledger kept after boot, root view: the last copy of /proc/lmb/ranges
/^# lmb-owners: # LMB/ { nk = 0 }
/^# lmb-ranges: [0-9a-f]+-[0-9a-f]+ : / && !/^# lmb-ranges: 0+-0+ : / {
	a = substr($0, 15); b = a; sub(/-.*/, "", a); sub(/^[^-]*-/, "", b); kn[++nk] = b
	sub(/ .*/, "", b); sub(/^[^:]*: /, "", kn[nk]); ks[nk] = hex(a); ke[nk] = hex(b) + 1
}
# the firmware map of the last kernel, and the user map of mem=/memmap=
/BIOS-provided physical RAM map:/ { nfw["e820"] = nfw["user"] = 0 }
/^BIOS-e820: \[mem / { usable($0, "e820") }
/^user-defined physical RAM map:/ { nfw["user"] = 0 }
/^user: \[mem / { usable($0, "user") }
END {
	start = lasth ? lasth : last
	if (!start && nk) after = 1
	nm = nr = nl = 0
	if (after) {
		if (!nk) { print "memmap: no \"# lmb-ranges:\" lines with addresses in " logname " (the guest check ledger, as root)" > "/dev/stderr"; exit 1 }
		t = nfw["user"] ? "user" : "e820"
		for (i = 1; i <= nfw[t]; i++) { nm++; ms[nm] = us[t, i]; me[nm] = ue[t, i]; mnode[nm] = "" }
		if (nm == 0) { print "memmap: no usable RAM in the firmware map (BIOS-e820: lines) of " logname > "/dev/stderr"; exit 1 }
		for (i = 1; i <= nk; i++) { nr++; rs[nr] = ks[i]; re[nr] = ke[i]; ledger(ks[i], ke[i], kn[i]) }
		title = "Memory at hand-over, from the ledger kept after boot (/proc/lmb/ranges)"
		dumphdr = sprintf("%d ranges of /proc/lmb/ranges; memory: the usable RAM of the %s lines, in whole pages", nk, \
			t == "user" ? "user: (mem=, memmap=)" : "BIOS-e820:")
		start = NR + 1
	} else if (!start) {
		print "memmap: no \"lmb: dump\" (boot with lmb=debug) and no \"# lmb-ranges:\" lines in " logname > "/dev/stderr"; exit 1
	} else {
		title = "Early memory at hand-over (lmb=debug)"
		dumphdr = L[start]; sub(/^lmb: /, "", dumphdr)
	}
	sect = ""
	for (i = start + 1; i <= NR; i++) {
		s = L[i]
		if (s !~ /^lmb: /) continue
		sub(/^lmb: +/, "", s)
		if (s ~ /^dump \(/) break
		if (s ~ /^(memory|reserved|ledger): /) { sect = substr(s, 1, index(s, ":") - 1); continue }
		if (s !~ /^#[0-9]+ \[0x[0-9a-fA-F]+ - 0x[0-9a-fA-F]+\]/) {
			if (sect == "ledger" && nl > 0) break
			continue
		}
		a = s; sub(/^#[0-9]+ \[/, "", a); b = a; sub(/ - .*/, "", a)
		sub(/^[^-]* - /, "", b); rest = b; sub(/\].*/, "", b); sub(/^[^\]]*\] ?/, "", rest)
		if (sect == "memory") {
			nm++; ms[nm] = hex(a); me[nm] = hex(b); mnode[nm] = ""
			if (rest ~ /node [0-9]+/) { mnode[nm] = rest; sub(/.*node /, "", mnode[nm]); sub(/[^0-9].*/, "", mnode[nm]) }
		} else if (sect == "reserved") {
			nr++; rs[nr] = hex(a); re[nr] = hex(b)
		} else if (sect == "ledger") {
			ledger(hex(a), hex(b), rest)
		}
	}
	if (nm == 0) { print "memmap: the dump at line " start " of " logname " has no memory entries" > "/dev/stderr"; exit 1 }

	# ---- elementary segments -------------------------------------------
	nb = 0
	for (i = 1; i <= nm; i++) { bd[++nb] = ms[i]; bd[++nb] = me[i] }
	for (i = 1; i <= nr; i++) { bd[++nb] = rs[i]; bd[++nb] = re[i] }
	for (i = 1; i <= nl; i++) { bd[++nb] = ls[i]; bd[++nb] = le[i] }
	for (i = 2; i <= nb; i++) { v = bd[i]; for (j = i - 1; j >= 1 && bd[j] > v; j--) bd[j + 1] = bd[j]; bd[j + 1] = v }
	nu = 0
	for (i = 1; i <= nb; i++) if (nu == 0 || bd[i] != u[nu]) u[++nu] = bd[i]
	nseg = 0; memb = resb = resinmem = freeb = 0; nfree = 0; named = unnamed = resolved = 0
	for (i = 1; i <= nm; i++) memb += me[i] - ms[i]
	for (i = 1; i <= nr; i++) resb += re[i] - rs[i]
	for (i = 1; i <= nl; i++) if (lkind[i] == "unnamed") { unnamed++; if (lsym[i] != "") resolved++ } else named++
	for (k = 1; k < nu; k++) {
		a = u[k]; b = u[k + 1]; mi = ri = li = 0
		for (i = 1; i <= nm; i++) if (ms[i] <= a && b <= me[i]) { mi = i; break }
		for (i = 1; i <= nr; i++) if (rs[i] <= a && b <= re[i]) { ri = i; break }
		for (i = 1; i <= nl; i++) if (ls[i] <= a && b <= le[i]) { li = i; break }
		if (li) kd = lkind[li]; else if (ri) kd = "noledger"; else if (mi) kd = "free"; else kd = "hole"
		if (ri && mi) resinmem += b - a
		if (kd == "free") {
			freeb += b - a
			if (nfree && fe[nfree] == a && fnode[nfree] == mnode[mi]) fe[nfree] = b
			else { nfree++; fs[nfree] = a; fe[nfree] = b; fnode[nfree] = mnode[mi] }
		}
		# merge with the previous segment when it is the same thing
		if (nseg && se[nseg] == a && sk[nseg] == kd && sl[nseg] == li && sm[nseg] == mi) { se[nseg] = b; continue }
		nseg++; ss[nseg] = a; se[nseg] = b; sk[nseg] = kd; sl[nseg] = li; sm[nseg] = mi
		used[kd] = 1
	}
	nnodes = 0
	for (i = 1; i <= nm; i++) if (mnode[i] != "" && !(mnode[i] in nodeseen)) { nodeseen[mnode[i]] = ++nnodes; nodelist[nnodes] = mnode[i] }

	# ---- header ----------------------------------------------------------
	y = 30
	text(M, y, title, " class=\"title\"")
	y += 20
	text(M, y, sprintf("%s, %s", logname, dumphdr), " class=\"sub\"")
	y += 16
	text(M, y, sprintf("memory %s in %d regions, reserved %s in %d regions (%d ledger entries: %d named, %d unnamed), free %s in %d ranges", \
		human(memb), nm, human(resb), nr, nl, named, unnamed, human(freeb), nfree), " class=\"sub\"")

	# ---- (1) memory regions, linear per row ------------------------------
	y += 34
	text(M, y, "1. Memory regions, one row each, each row to its own linear scale", " class=\"h\"")
	y += 10
	bx = M + 10; bw = W - 2 * M - 20
	for (i = 1; i <= nm; i++) {
		y += 18
		text(bx, y, sprintf("memory #%d  [%s - %s)  %s%s", i - 1, tohex(ms[i], 9), tohex(me[i], 9), human(me[i] - ms[i]), \
			mnode[i] != "" ? "  node " mnode[i] : ""), " class=\"lbl\"")
		y += 6; bh = 26
		sz = me[i] - ms[i]
		rect(bx, y, bw, bh, col["free"], " stroke=\"#333\" stroke-width=\"0.8\"")
		nlab = 0
		for (k = 1; k <= nseg; k++) {
			if (sk[k] == "free" || sk[k] == "hole" || se[k] <= ms[i] || ss[k] >= me[i]) continue
			a = ss[k] < ms[i] ? ms[i] : ss[k]; b = se[k] > me[i] ? me[i] : se[k]
			x0 = bx + bw * (a - ms[i]) / sz; x1 = bx + bw * (b - ms[i]) / sz
			if (x1 - x0 < 1) x1 = x0 + 1
			rect(x0, y, x1 - x0, bh, col[sk[k]], "")
			if (x1 - x0 >= 40 && sl[k]) {
				nmtxt = lname[sl[k]]; if (lsym[sl[k]] != "") nmtxt = lsym[sl[k]]
				t = fit(nmtxt, x1 - x0, 6.1)
				if (t != "") text(x0 + 3, y + 17, t, " class=\"in\"")
			}
		}
		rect(bx, y, bw, bh, "none", " stroke=\"#333\" stroke-width=\"0.8\"")
		# address ticks: ends and quarters
		for (q = 0; q <= 4; q++) {
			xa = bx + bw * q / 4
			emit(sprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"0.8\"/>", xa, y + bh, xa, y + bh + 4))
			anc = q == 0 ? "start" : (q == 4 ? "end" : "middle")
			text(xa, y + bh + 14, tohex(ms[i] + int(sz * q / 4 / 4096) * 4096 * (q < 4) + sz * (q == 4), 9), " class=\"addr\" text-anchor=\"" anc "\"")
		}
		y += bh + 18
	}

	# ---- (2) detail map, log-ish widths ----------------------------------
	y += 24
	text(M, y, "2. Every range, from the lowest address: width grows with log2(size), not to scale; start address under each range", " class=\"h\"")
	y += 8
	rowx0 = M + 10; rowx1 = W - M - 10; x = rowx0; rowy = y + 12; bh = 40
	for (k = 1; k <= nseg; k++) {
		sz = se[k] - ss[k]
		if (sk[k] == "hole") w = 70
		else { w = 12 * (log2(sz) - 2); if (w < 40) w = 40 }
		if (x + w > rowx1 && x > rowx0) {
			rowy += bh + 44; x = rowx0; lastlab1 = lastlab2 = -1000
		}
		if (x == rowx0) { lastlab1 = lastlab2 = -1000 }
		rect(x, rowy, w, bh, col[sk[k]], " stroke=\"#333\" stroke-width=\"0.6\"")
		if (nnodes > 1 && sm[k] && mnode[sm[k]] != "")
			rect(x, rowy + bh, w, 4, ncol[(nodeseen[mnode[sm[k]]] - 1) % 8 + 1], "")
		if (sk[k] == "hole") { l1 = "hole"; l2 = human(sz) }
		else if (sk[k] == "free") { l1 = "free"; l2 = human(sz) }
		else if (sl[k]) {
			l1 = "#" (sl[k] - 1) " " (lsym[sl[k]] != "" ? lsym[sl[k]] : lname[sl[k]]); l2 = human(sz)
		} else { l1 = "reserved"; l2 = human(sz) }
		t = fit(l1, w, 6.1); if (t == "" && sl[k]) t = fit("#" (sl[k] - 1), w, 6.1)
		if (t != "") text(x + 3, rowy + 16, t, " class=\"in\"")
		t = fit(l2, w, 6.1); if (t != "") text(x + 3, rowy + 32, t, " class=\"in2\"")
		# start address, staggered over two lines
		alab = tohex(ss[k], 0); aw = length(alab) * 5.5 + 6
		if (x >= lastlab1) { text(x, rowy + bh + 15, alab, " class=\"addr\""); lastlab1 = x + aw }
		else if (x >= lastlab2) { text(x, rowy + bh + 27, alab, " class=\"addr\""); lastlab2 = x + aw }
		emit(sprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"0.6\"/>", x, rowy + bh, x, rowy + bh + 5))
		x += w
		if (k == nseg) {
			alab = tohex(se[k], 0)
			text(x, rowy + bh + 39, "end " alab, " class=\"addr\" text-anchor=\"end\"")
		}
	}
	y = rowy + bh + 50

	# ---- (3) legend ---------------------------------------------------------
	y += 16
	text(M, y, "Legend", " class=\"h\"")
	split("free kernel initrd firmware named unnamed noledger hole", order, " ")
	lx = M + 10; y += 8
	for (i = 1; i <= 8; i++) {
		kd = order[i]
		if (!(kd in used) && kd != "free") continue
		if (lx + 360 > W - M) { lx = M + 10; y += 20 }
		rect(lx, y, 16, 14, col[kd], " stroke=\"#333\" stroke-width=\"0.6\"")
		text(lx + 22, y + 11, lab[kd], " class=\"lbl\"")
		lx += 370
	}
	if (nnodes > 1) {
		y += 20; lx = M + 10
		text(lx, y + 11, "bar under a range: NUMA node", " class=\"lbl\""); lx += 200
		for (i = 1; i <= nnodes; i++) {
			rect(lx, y + 4, 24, 5, ncol[(i - 1) % 8 + 1], "")
			text(lx + 30, y + 11, "node " nodelist[i], " class=\"lbl\""); lx += 90
		}
	}
	y += 24

	# ---- (4) ledger table and free ranges ------------------------------------
	y += 18
	text(M, y, sprintf("3. The ledger: who reserved what (%d entries: %d named, %d unnamed = caller address)", nl, named, unnamed), " class=\"h\"")
	y += 15
	text(M + 10, y, unnamed == 0 ? "" : resolving ? sprintf("caller addresses resolved with %s (%d of %d)", mapname, resolved, unnamed) : \
		(mapnote != "" ? "caller addresses not resolved: " mapnote : "caller addresses not resolved: no System.map given"), " class=\"sub\"")
	y += 20
	cx[1] = M + 10; cx[2] = M + 50; cx[3] = M + 165; cx[4] = M + 280; cx[5] = M + 365; cx[6] = M + 530
	split("# start end size kind name", hd, " ")
	for (c = 1; c <= 6; c++) text(cx[c], y, hd[c], " class=\"th\"")
	for (i = 1; i <= nl; i++) {
		y += 15
		if (i % 2) rect(M + 4, y - 11, W - 2 * M - 8, 15, "#f3f3f3", "")
		rect(cx[5], y - 10, 10, 10, col[lkind[i]], " stroke=\"#333\" stroke-width=\"0.4\"")
		text(cx[1], y, "#" (i - 1), " class=\"td\"")
		text(cx[2], y, tohex(ls[i], 9), " class=\"td\"")
		text(cx[3], y, tohex(le[i], 9), " class=\"td\"")
		text(cx[4], y, human(le[i] - ls[i]), " class=\"td\"")
		text(cx[5] + 14, y, lkind[i], " class=\"td\"")
		nmtxt = lname[i]; if (lsym[i] != "") nmtxt = lsym[i] "  (" lname[i] ")"
		text(cx[6], y, nmtxt, " class=\"td\"")
	}
	y += 30
	text(M, y, sprintf("4. Free ranges handed over to the page allocator%s: %d ranges, %s (%.0f bytes)", \
		after ? " (usable RAM minus the kept ranges)" : "", nfree, human(freeb), freeb), " class=\"h\"")
	y += 18
	split("# start end size node", hd, " ")
	for (c = 1; c <= 5; c++) text(cx[c], y, hd[c], " class=\"th\"")
	for (i = 1; i <= nfree; i++) {
		y += 15
		if (i % 2) rect(M + 4, y - 11, W - 2 * M - 8, 15, "#f3f3f3", "")
		text(cx[1], y, i - 1, " class=\"td\"")
		text(cx[2], y, tohex(fs[i], 9), " class=\"td\"")
		text(cx[3], y, tohex(fe[i], 9), " class=\"td\"")
		text(cx[4], y, human(fe[i] - fs[i]), " class=\"td\"")
		text(cx[5], y, fnode[i], " class=\"td\"")
	}
	y += 24
	H = int(y)

	# ---- write -----------------------------------------------------------------
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" > svgout
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H, W, H > svgout
	print "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">" \
		"<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#dddddd\" stroke-width=\"2\"/></pattern>" \
		"<style>text { font-family: \"DejaVu Sans Mono\", \"Liberation Mono\", monospace; fill: #111; }" \
		" .title { font-size: 18px; font-weight: bold; } .sub { font-size: 11px; } .h { font-size: 13px; font-weight: bold; }" \
		" .lbl { font-size: 11px; } .in { font-size: 10px; } .in2 { font-size: 10px; fill: #333; } .addr { font-size: 9px; fill: #333; }" \
		" .th { font-size: 11px; font-weight: bold; } .td { font-size: 11px; }</style></defs>" > svgout
	printf "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H > svgout
	for (i = 1; i <= nbody; i++) print body[i] > svgout
	print "</svg>" > svgout
	close(svgout)

	printf "memmap: %s (%s)\n", logname, dumphdr
	printf "  memory   %12.0f bytes (%s) in %d regions\n", memb, human(memb), nm
	printf "  reserved %12.0f bytes (%s) in %d regions (%.0f bytes outside memory)\n", resb, human(resb), nr, resb - resinmem
	printf "  free     %12.0f bytes (%s) in %d ranges handed over\n", freeb, human(freeb), nfree
	printf "  ledger   %d entries: %d named, %d unnamed", nl, named, unnamed
	if (unnamed && resolving) printf " (%d resolved with %s)", resolved, mapname
	else if (unnamed) printf " (not resolved: %s)", mapnote != "" ? mapnote : "no System.map given"
	printf "\n  picture  %s\n", svgout
}' "$log"
