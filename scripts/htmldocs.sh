#!/bin/sh
# make htmldocs: the kernel's core-api manual (which has LMB's
# Documentation/core-api/lmb.rst and its kernel-doc) as HTML, with Debian's
# Sphinx, built out of tree under the build lock:
#
#   make -C build/linux O=build/out/htmldocs htmldocs SPHINXDIRS=core-api
#
# Prints the Sphinx/kernel-doc warnings that concern LMB (lmb.rst, lmb.c,
# lmb_memblock.c, lmb.h) and the number of the others; fails when LMB has
# any. Output: build/out/htmldocs/Documentation/output/core-api/lmb.html.
# Knobs: LMB_DOCS_TREE (kernel tree, default build/linux), LMB_DOCS_OUT
# (default build/out/htmldocs), LMB_DOCS_DIRS (SPHINXDIRS, default core-api).
. scripts/lib.sh

src=${LMB_DOCS_TREE:-$KTREE}
out=${LMB_DOCS_OUT:-$BUILD/out/htmldocs}
dirs=${LMB_DOCS_DIRS:-core-api}
log=$LOGS/htmldocs.log
[ -f "$src/Documentation/Makefile" ] || die "no kernel tree at $src (run make tree)"

# Debian's Sphinx (5.3 on bookworm; about 12 MB to download). Debian's
# python3, not whatever python3 comes first in PATH (e.g. pyenv), runs it.
if ! [ -x /usr/bin/sphinx-build ]; then
	step "apt-get install python3-sphinx"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		python3-sphinx >"$LOGS/apt-sphinx.log" 2>&1 || {
		tail_log "$LOGS/apt-sphinx.log" 20
		die "apt-get install python3-sphinx failed"
	}
fi

mkdir -p "$out"
step "htmldocs SPHINXDIRS=$dirs (${src#"$TOP"/} -> ${out#"$TOP"/}; log: ${log#"$TOP"/})"
# One kernel build at a time on this machine: held until this script exits.
klock_take
[ -z "$klock_waited" ] || say "    got the lock after $klock_waited"
t0=$(now)
rc=0
PATH=/usr/bin:$PATH make -C "$src" O="$out" PYTHON3=/usr/bin/python3 \
	SPHINXBUILD=/usr/bin/sphinx-build SPHINXDIRS="$dirs" htmldocs >"$log" 2>&1 || rc=$?
klock_drop
say "    done in $(elapsed "$t0")"
if [ "$rc" != 0 ]; then
	tail_log "$log"
	die "make htmldocs failed (log: ${log#"$TOP"/})"
fi

# Sphinx: "file:line: WARNING: ..." (also ERROR/CRITICAL); kernel-doc:
# "file:line: warning: ...".
grep -E '(WARNING|ERROR|CRITICAL|warning|error):' "$log" >"$log.warnings" || true
grep -E '(^|/)(lmb\.rst|lmb\.c|lmb_memblock\.c|lmb\.h)[:(]|lmb' "$log.warnings" >"$log.lmb" || true
nall=$(grep -c . "$log.warnings" || true)
nlmb=$(grep -c . "$log.lmb" || true)
html=$out/Documentation/output/core-api/lmb.html
[ -f "$html" ] || html=$(find "$out/Documentation/output" -name lmb.html 2>/dev/null | head -n1)
say "    warnings: $nlmb about LMB, $((nall - nlmb)) elsewhere in $dirs (list: ${log#"$TOP"/}.warnings)"
[ "$nlmb" = 0 ] || sed 's/^/    /' "$log.lmb"
if [ -n "$html" ] && [ -f "$html" ]; then
	say "    LMB page: ${html#"$TOP"/}"
else
	warn "no lmb.html in ${out#"$TOP"/}/Documentation/output (is lmb.rst in the core-api index?)"
	exit 1
fi
[ "$nlmb" = 0 ]
