#!/bin/sh
# Prints a device tree fragment (scripts/dtb.sh grafts it onto QEMU's virt
# tree; QEMU rewrites /memory itself, not /reserved-memory): 140 no-map
# /reserved-memory regions of 64 KiB, one every 4 MiB from 0x50000000.
# Each cuts a memory region in three while the kernel scans
# /reserved-memory, before paging_init() lets the region arrays grow: 281
# memory regions, as a machine whose EFI memory map NOMAP ranges cut up
# gets. arm64 sizes memblock's static memory array for that (1024 entries
# with EFI); row arm64-nomap-many must reserve every region, as pristine
# does (with 128 entries LMB panicked before the console came up).
printf '/ {\n\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n\t\tranges;\n'
i=0
while [ $i -lt 140 ]; do
	a=$((0x50000000 + i * 0x400000))
	printf '\t\tfw%d@%x {\n\t\t\treg = <0x0 0x%08x 0x0 0x10000>;\n\t\t\tno-map;\n\t\t};\n' $i $a $a
	i=$((i + 1))
done
printf '\t};\n};\n'
