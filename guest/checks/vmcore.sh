# vmcore (in the kdump kernel): /proc/vmcore is an ELF core file of the
# crashed kernel: its header (ELF64, little endian, ET_CORE, x86-64, a
# PT_NOTE), its program headers cover the first kernel's RAM (lmbtest.ram=
# bytes) minus the crash kernel region (lmbtest.crash=) exactly, and the
# file is exactly as long as its last segment's end. Also shows the memory
# map this kernel booted from (the e820 table kexec gave it).
. /lmbtest-lib.sh
[ -e /proc/vmcore ] || fail "no /proc/vmcore: this is not a kdump kernel"
ram=$(param lmbtest.ram) crash=$(param lmbtest.crash)
[ -n "$ram" ] && [ -n "$crash" ] || fail "no lmbtest.ram= / lmbtest.crash= on the command line"
dmesg | grep -E 'BIOS-e820|user:|elfcorehdr' | sed 's/^\[[ 0-9.]*\] //'
# this kernel booted from the map kexec gave it: its usable RAM above 1M
# lies in the first kernel's crash region
at=$(param lmbtest.crashat) || fail "no lmbtest.crashat= on the command line"
lo=$((0x${at%-*})) hi=$((0x${at#*-}))
n=0
for r in $(dmesg | sed -n 's/.*BIOS-e820: \[mem \(0x[0-9a-f]*-0x[0-9a-f]*\)\] usable$/\1/p'); do
	s=$((${r%-*})) e=$((${r#*-}))
	[ "$e" -lt $((0x100000)) ] && continue
	[ "$s" -ge "$lo" ] && [ "$e" -le "$hi" ] || fail "usable $r is outside the crash region $at: not the map kexec gave"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no usable BIOS-e820 range above 1M in dmesg: cannot tell which map this kernel booted from"
echo "usable RAM above 1M ($n ranges) all inside the crash region $at"
# u64 OFF: the little-endian 64-bit word at OFF of /proc/vmcore (as a shell number)
u64() { echo $((0x$(od -A n -t x8 -j "$1" -N 8 /proc/vmcore | tr -d ' '))); }
hdr=$(od -A n -t x1 -N 20 /proc/vmcore | tr -d '\n' | sed 's/^ *//; s/  */ /g')
echo "ELF header: $hdr"
case $hdr in
"7f 45 4c 46 02 01 01 "*" 04 00 3e 00") ;;
*) fail "not an ELF64 little-endian x86-64 core file (want 7f 45 4c 46 02 01 01 ... 04 00 3e 00)" ;;
esac
phoff=$(u64 32)
w=$(u64 48)	# e_flags(4) e_ehsize(2) e_phentsize(2)
phent=$(((w >> 48) & 0xffff))
phnum=$(($(u64 56) & 0xffff))
echo "program headers: $phnum of $phent bytes at $phoff"
[ "$phent" = 56 ] || fail "e_phentsize $phent, want 56"
i=0 loads=0 text=0 notes=0 end=0
while [ "$i" -lt "$phnum" ]; do
	o=$((phoff + i * 56))
	t=$(($(u64 "$o") & 0xffffffff))
	off=$(u64 $((o + 8))) va=$(u64 $((o + 16))) pa=$(u64 $((o + 24)))
	fsz=$(u64 $((o + 32))) msz=$(u64 $((o + 40)))
	[ $((off + fsz)) -le "$end" ] || end=$((off + fsz))
	case $t in
	4) notes=$((notes + 1)) ;;
	1)
		# a negative virtual address in the kernel's text mapping: the
		# image, also covered by its RAM segment; the others are RAM
		if [ "$va" -lt 0 ] && [ "$va" -ge $((-0x80000000)) ]; then
			text=$((text + msz))
			printf 'PT_LOAD text  va %x pa %x size %d\n' "$va" "$pa" "$msz"
		else
			loads=$((loads + msz))
			printf 'PT_LOAD RAM   pa %x size %d\n' "$pa" "$msz"
		fi
		;;
	esac
	i=$((i + 1))
done
size=$(stat -c %s /proc/vmcore)
echo "RAM segments $loads bytes; first kernel: System RAM $ram - crash kernel $crash = $((ram - crash))"
echo "/proc/vmcore $size bytes, last segment ends at $end"
[ "$notes" -ge 1 ] || fail "no PT_NOTE"
[ "$loads" = $((ram - crash)) ] || fail "RAM segments cover $loads bytes, want $((ram - crash)) (delta $((loads - ram + crash)))"
[ "$size" = "$end" ] || fail "/proc/vmcore is $size bytes, its segments end at $end"
echo "ok: the crashed kernel's RAM, $((loads >> 20)) MiB, is in /proc/vmcore"
