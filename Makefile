# lmb-x86: LMB as x86's early allocator, as a patch series on Debian's
# linux-source-6.12. See README.md.
#
#   make boot      build the LMB kernel (x86_64) and boot it once in QEMU
#   make test      every test, the core boot matrix; ends with "N passed, N failed"
#   make test-full the same with every row of tests/boot-matrix (the distro tier too), kconfig-check, compile-check
#   make test-layouts real machines' e820 tables (tests/e820/) and arm64 boards (tests/boards), LMB vs pristine
#   make test-distro  Debian's cloud-amd64 config on LMB: builds lmb-cloud/base-cloud, boots tier distro
#   make test-arch  arm64, arm, ppc64le, s390x, riscv64 on LMB (cross-built, QEMU), LMB vs pristine
#   make kconfig-check olddefconfig prints no warning (allyes/allmod x86_64+i386, Debian's amd64 configs, TDX host)
#   make compile-check every .c file the series changes compiles alone with W=1 under allmodconfig, no new warning
#                  (x86_64, i386, arm64, riscv, arm, powerpc, s390); tinyconfig builds on riscv, arm, powerpc, s390
#   make baseline  the same builds and boots on the pristine tree (memblock)
#   make tree      build/linux = pristine Debian tree + patches/series (git)
#   make export    build/linux commits pristine..HEAD -> patches/
#   make check     patches/ reproduces build/linux exactly; checkpatch clean
#   make bench     LMB vs memblock benchmark (table + PNG plot, ~10 min)
#   make bisect-check  every prefix of patches/series builds (x86_64 and i386, ccache, W=1 on what each patch adds)
#   make memmap    draw the memory map of the last make boot (SVG)
#   make memmap-time memmap_init() of a 16 GiB x86_64 guest's DMA32 zone, LMB vs pristine, boots in turns
#   make image-span  where x86_64's reserved image ends, LMB vs pristine, and whether it crosses a 2M boundary
#   make memcmp    the last make test* run's memory comparisons judged again against tests/memory-expectations (no boot)
#   make htmldocs  the core-api manual with LMB's page, as HTML (Debian's Sphinx)
#   make clean     remove build outputs (keeps build/linux and build/pristine)
#   make distclean remove build/ entirely (including build/linux!)

include kernel.mk

SHELL := /bin/sh
.DEFAULT_GOAL := help
.PHONY: help boot test test-full test-layouts test-distro test-arch kconfig-check compile-check baseline tree export check clean distclean deps bisect-check memmap memmap-time image-span memcmp htmldocs bench

help:
	@sed -n 's/^#   make /  make /p' Makefile

deps:
	@sh scripts/deps.sh

boot:
	@sh scripts/makeboot.sh

test:
	@sh scripts/test.sh lmb

test-full:
	@LMB_TIER=full sh scripts/test.sh lmb

test-layouts:
	@LMB_TIER=layouts sh scripts/test.sh lmb

test-distro:
	@LMB_TIER=distro sh scripts/test.sh lmb

test-arch:
	@LMB_TIER=arch sh scripts/test.sh lmb

kconfig-check:
	@sh scripts/deps.sh && sh scripts/kconfig-check.sh

compile-check:
	@sh scripts/deps.sh && sh scripts/compile-check.sh

baseline:
	@sh scripts/test.sh base

tree:
	@sh scripts/deps.sh && sh scripts/tree.sh

export:
	@sh scripts/export.sh

check:
	@sh scripts/check.sh

bench:
	@sh scripts/deps.sh gnuplot-nox && sh scripts/tree.sh && sh scripts/bench.sh

bisect-check:
	@sh scripts/deps.sh && sh scripts/tree.sh && sh scripts/bisect-check.sh

image-span:
	@sh scripts/image-span.sh

memcmp:
	@sh scripts/memcmp.sh

memmap-time:
	@sh scripts/deps.sh && sh scripts/tree.sh && sh scripts/memmap-time.sh

memmap:
	@sh scripts/memmap.sh build/logs/boot-lmb-x86_64-1g.log build/logs/memmap-lmb-x86_64-1g.svg \
		build/out/lmb-x86_64/System.map

htmldocs:
	@sh scripts/deps.sh && sh scripts/tree.sh && sh scripts/htmldocs.sh

clean:
	rm -rf build/out build/logs build/initramfs-* build/accel build/.matrix* build/.series.* build/.memcmp.* build/.ledger.* build/.selftest.*
	-git -C build/linux worktree remove --force build/bisect 2>/dev/null
	-git -C build/linux worktree remove --force build/bisect-selftest 2>/dev/null

distclean:
	rm -rf build
