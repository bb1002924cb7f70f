# lmb-x86: LMB as x86's early allocator, as a patch series on Debian's
# linux-source-6.12. See README.md.
#
#   make boot      build the LMB kernel (x86_64) and boot it once in QEMU
#   make test      every test, the core boot matrix; ends with "N passed, N failed"
#   make test-full the same with every row of tests/boot-matrix
#   make baseline  the same builds and boots on the pristine tree (memblock)
#   make tree      build/linux = pristine Debian tree + patches/series (git)
#   make export    build/linux commits pristine..HEAD -> patches/
#   make check     patches/ reproduces build/linux exactly; checkpatch clean
#   make clean     remove build outputs (keeps build/linux and build/pristine)
#   make distclean remove build/ entirely (including build/linux!)

include kernel.mk

SHELL := /bin/sh
.DEFAULT_GOAL := help
.PHONY: help boot test test-full baseline tree export check clean distclean deps

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

baseline:
	@sh scripts/test.sh base

tree:
	@sh scripts/deps.sh && sh scripts/tree.sh

export:
	@sh scripts/export.sh

check:
	@sh scripts/check.sh

clean:
	rm -rf build/out build/logs build/initramfs-* build/accel build/.matrix.* build/.series.*

distclean:
	rm -rf build
