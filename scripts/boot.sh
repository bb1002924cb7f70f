#!/bin/sh
# Boot one kernel in QEMU and check the boot.
#
# usage: scripts/boot.sh [-t SECONDS] [-m MEM] [-s SMP] [-n NODES] [-c CHECKS]
#                        [-i INITRD] [-l LOG] [-f FW] [-M MAXMEM] [-S SLOTS] [-C CPU]
#                        [-V SIZE] [-L LOWMEM] [-D] [-b BOOTS] [-k] [-p] [-A ARCH] [-d DTB] [-a]
#                        KERNEL [CMDLINE...]
#   -A ARCH    the guest's arch: x86_64 (default; i386 kernels too), arm64
#              (qemu-system-aarch64 -M virt -cpu max; console ttyAMA0), arm
#              (virt, Cortex-A15), powerpc (ppc64le: pseries, POWER9; hvc0),
#              s390 (s390-ccw-virtio; ttysclp0), riscv (virt, OpenSBI; ttyS0)
#   -a         arm64 with -f uefi: boot with QEMU's ACPI tables (acpi=force)
#              instead of its device tree; virt then has the GED device
#              through which a pc-dimm is hot-added (-M, -D)
#   -d DTB     arm64: the device tree QEMU hands the kernel (-dtb), e.g. the
#              virt machine's own with /reserved-memory nodes added
#   -m MEM     guest memory (QEMU syntax, default 1G)
#   -f FW      firmware: bios (SeaBIOS, default; on arm64 QEMU loads the
#              kernel itself) or uefi (OVMF, arm64: AAVMF from package
#              qemu-efi-aarch64, with the device tree: virt,acpi=off; the
#              kernel loaded with -kernel and started through its EFI stub)
#   -M MAXMEM  -m MEM,slots=SLOTS,maxmem=MAXMEM: QEMU's SRAT then lists the
#              memory hotplug area above RAM as hotpluggable
#   -S SLOTS   DIMM slots with -M (default 2)
#   -C CPU     QEMU CPU model (-cpu; default QEMU's qemu64), e.g. max (LA57)
#   -V SIZE    a virtio-mem-pci device, QEMU id lmbvmem0, of up to SIZE
#              (requested-size 0 at boot; needs -M)
#   -L LOWMEM  guest RAM below 4G (max-ram-below-4g), on pc-i440fx-1.7, the pc
#              machine that does not cap it at 3 GiB for large guests (up to
#              3840M; scripts/e820.sh: real e820 tables); the RAM is mapped
#              without reserving swap (reserve=off), so that a guest larger
#              than this machine's RAM starts: it touches little of it
#   -D         the QEMU monitor (HMP) on a pipe, LOG.mon.in/.out, driven by
#              the guest: every "# lmb-guest: monitor: CMD ;" line of the
#              serial log is sent to it (guest/lib.sh mon); replies in
#              LOG.monitor
#   -b BOOTS   the guest runner must finish BOOTS times (2: kexec or kdump
#              into a second kernel; default 1)
#   -k         kdump: the first kernel crashes on purpose (sysrq c, "Kernel
#              panic - not syncing: sysrq triggered crash") into the crash
#              kernel: that panic, before the second kernel, is no failure
#   -p         a kernel panic is the expected outcome (hostile input that the
#              pristine kernel panics on too): passes when the kernel panics
#              and QEMU exits in time, fails if the guest gets to its end
#   -s SMP     CPUs (default 2)
#   -n NODES   NUMA nodes given by QEMU (memory and CPUs split evenly; - = none)
#   -c CHECKS  guest checks, comma separated (guest/checks/<name>.sh; default all)
#   -i INITRD  initramfs (default build/initramfs-x86_64.cpio.gz)
#   -l LOG     serial log (default build/logs/boot.log)
#   -t SECONDS timeout (default $LMB_BOOT_TIMEOUT or 120, plus 15 per GiB of
#              guest memory above 4G: TCG initialises every struct page)
# Environment: LMB_EXTRA_CMDLINE is appended to every kernel command line
# (e.g. LMB_EXTRA_CMDLINE=lmbtest.panic=1 make test shows a failing boot).
# LMB_ACCEL=tcg|kvm|auto (default auto: TCG unless a short KVM
# probe boot succeeded once; the result is cached in build/accel).
#
# The kernel gets "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1
# oops=panic" (arm64: console=ttyAMA0 earlycon) so that a panic reboots and
# QEMU (-no-reboot) exits.
# Fails (exit 1, with the log tail) on: timeout/hang, QEMU error, kernel panic,
# Oops, WARNING:, BUG:, or no "# lmb-guest: end" marker.
# Writes the boot's wall time in seconds to LOG.secs.
. scripts/lib.sh

timeout= mem=1G smp=2 nodes=- checks= log=$LOGS/boot.log fw=bios maxmem= panic=0
slots=2 cpu= vmem= monitor=0 boots=1 kdump=0 machine=pc arch=x86_64 dtb= acpi=0
initrd=
while getopts t:m:s:n:c:i:l:f:M:S:C:V:L:Db:kpA:d:a o; do
	case $o in
	t) timeout=$OPTARG ;; m) mem=$OPTARG ;; s) smp=$OPTARG ;; n) nodes=$OPTARG ;;
	c) checks=$OPTARG ;; i) initrd=$OPTARG ;; l) log=$OPTARG ;;
	f) fw=$OPTARG ;; M) maxmem=$OPTARG ;; p) panic=1 ;;
	S) slots=$OPTARG ;; C) cpu=$OPTARG ;; V) vmem=$OPTARG ;; D) monitor=1 ;;
	L) machine=pc-i440fx-1.7,max-ram-below-4g=$OPTARG,memory-backend=lmbram ;;
	b) boots=$OPTARG ;; k) kdump=1 ;; A) arch=$OPTARG ;; d) dtb=$OPTARG ;; a) acpi=1 ;;
	*) die "usage: scripts/boot.sh [-t s] [-m mem] [-s smp] [-n nodes] [-c checks] [-i initrd] [-l log] [-f bios|uefi] [-M maxmem] [-S slots] [-C cpu] [-V size] [-L lowmem] [-D] [-b boots] [-k] [-p] [-A arch] [-d dtb] [-a] KERNEL [CMDLINE...]" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: scripts/boot.sh [options] KERNEL [CMDLINE...]"
kernel=$1
shift
case $arch in
x86_64|i386) qemu=qemu-system-x86_64 console=ttyS0 early="earlyprintk=serial,ttyS0,115200" ;;
arm64)
	qemu=qemu-system-aarch64 console=ttyAMA0 early=earlycon
	machine=virt cpu=${cpu:-max}
	;;
arm)
	# ARMv7 with LPAE: RAM from 1G up, highmem above the 3G/1G split's
	# lowmem (about 760M).  No earlycon: paging_init() takes the early
	# console's fixmap away and allocates a page table to map it again,
	# and a message printed in between (lmb=debug's, memblock=debug's)
	# aborts with no vectors yet: the kernel hangs silently.  printk
	# keeps the messages for the console.
	qemu=qemu-system-arm console=ttyAMA0 early=
	machine=virt,highmem=on cpu=${cpu:-cortex-a15}
	;;
powerpc)
	# ppc64le on pseries: SLOF loads the ELF vmlinux; hvc0 is the
	# hypervisor's virtual terminal QEMU's -serial backs
	qemu=qemu-system-ppc64 console=hvc0 early=
	machine=pseries cpu=${cpu:-power9}
	;;
s390)
	# the SCLP VT220 terminal is QEMU's -serial on s390-ccw-virtio
	qemu=qemu-system-s390x console=ttysclp0 early=
	machine=s390-ccw-virtio
	;;
riscv)
	# OpenSBI (QEMU's own -bios default), the virt machine's 16550, also
	# the early console (the device tree's stdout-path)
	qemu=qemu-system-riscv64 console=ttyS0 early=earlycon
	machine=virt
	;;
*) die "unknown arch $arch (x86_64, i386, arm64, arm, powerpc, s390 or riscv)" ;;
esac
[ -n "$initrd" ] || initrd=$BUILD/initramfs-$arch.cpio.gz
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
[ -z "$dtb" ] || [ -f "$dtb" ] || die "no device tree $dtb"

# QEMU's -m in MiB
mem_mb() {
	printf '%s\n' "$1" | awk '
		/[Gg]$/ { print int($0) * 1024; next }
		/[Mm]$/ { print int($0); next }
		{ print int($0) }'
}
if [ -z "$timeout" ]; then
	timeout=${LMB_BOOT_TIMEOUT:-120}
	g=$(($(mem_mb "$mem") / 1024))
	[ "$g" -le 4 ] || timeout=$((timeout + 15 * (g - 4)))
	timeout=$((timeout * boots))	# kexec, kdump: each kernel boots in full
fi
case $fw/$arch in
bios/*) fwargs= ;;
uefi/arm64)
	# with the device tree, which AAVMF passes on only without ACPI
	# tables; -a: with QEMU's ACPI tables instead (acpi=force), and with
	# them the GED device that memory hotplug (pc-dimm) needs on virt
	machine=virt,acpi=off
	[ "$acpi" = 0 ] || machine=virt
	fwargs="-bios /usr/share/qemu-efi-aarch64/QEMU_EFI.fd"
	[ -f /usr/share/qemu-efi-aarch64/QEMU_EFI.fd ] || die "no /usr/share/qemu-efi-aarch64/QEMU_EFI.fd (package qemu-efi-aarch64)"
	;;
uefi/*)
	fwargs="-bios /usr/share/ovmf/OVMF.fd"
	[ -f /usr/share/ovmf/OVMF.fd ] || die "no /usr/share/ovmf/OVMF.fd (package ovmf)"
	;;
*) die "unknown firmware $fw (bios or uefi)" ;;
esac

[ "$acpi" = 0 ] || [ "$fw/$arch" = uefi/arm64 ] || die "-a (ACPI) is for arm64 under UEFI (-A arm64 -f uefi)"
cmdline="console=$console $early panic=-1 oops=panic $*"
[ "$acpi" = 0 ] || cmdline="$cmdline acpi=force"
[ -z "${LMB_EXTRA_CMDLINE:-}" ] || cmdline="$cmdline $LMB_EXTRA_CMDLINE"
[ -z "$checks" ] || cmdline="$cmdline lmbtest.checks=$checks"
# COMMAND_LINE_SIZE of the arch's asm/setup.h (s390: CONFIG_COMMAND_LINE_SIZE's
# default): a longer line would be cut without a word.
case $arch in arm|riscv) clmax=1024 ;; s390) clmax=4096 ;; *) clmax=2048 ;; esac
[ ${#cmdline} -lt "$clmax" ] || die "kernel command line is ${#cmdline} bytes, the $arch kernel takes at most $((clmax - 1))"

# QEMU NUMA: N nodes with equal memory backends, CPUs round-robin (riscv's
# virt machine wants each node's harts contiguous: CPUs in blocks there).
numa_args() {
	[ "$nodes" != - ] || return 0
	total=$(mem_mb "$mem")
	per=$((total / nodes))
	i=0
	while [ "$i" -lt "$nodes" ]; do
		printf ' -object memory-backend-ram,id=m%d,size=%dM -numa node,nodeid=%d,memdev=m%d' "$i" "$per" "$i" "$i"
		i=$((i + 1))
	done
	c=0 id=socket-id
	# pseries and riscv's virt place cores in nodes, not sockets
	case $arch in powerpc|riscv) id=core-id ;; esac
	while [ "$c" -lt "$smp" ]; do
		n=$((c % nodes))
		[ "$arch" != riscv ] || n=$((c * nodes / smp))
		printf ' -numa cpu,node-id=%d,%s=%d' "$n" "$id" "$c"
		c=$((c + 1))
	done
}

# extra QEMU arguments: CPU model, virtio-mem device, monitor pipe
extra_args() {
	[ -z "$cpu" ] || printf ' -cpu %s' "$cpu"
	[ -z "$vmem" ] || printf ' -object memory-backend-ram,id=lmbvmem0m,size=%s -device virtio-mem-pci,id=lmbvmem0,memdev=lmbvmem0m,requested-size=0%s' \
		"$vmem" "$([ "$nodes" = - ] || echo ,node=0)"
	[ "$monitor" = 0 ] || printf ' -chardev pipe,id=lmbmon,path=%s.mon -mon chardev=lmbmon,mode=readline' "$1"
}

# relay LOG: send the guest's new "# lmb-guest: monitor: CMD ;" lines to
# the monitor (only complete lines: they end with " ;")
relay() {
	sed -n 's/\r$//; s/^# lmb-guest: monitor: \(.*\) ;$/\1/p' "$1" 2>/dev/null >"$1.mon.want"
	n=$(wc -l <"$1.mon.want")
	while [ "$relayed" -lt "$n" ]; do
		relayed=$((relayed + 1))
		c=$(sed -n "${relayed}p" "$1.mon.want")
		printf '(harness) %s\n' "$c" >>"$1.monitor.sent"
		timeout 10 sh -c 'printf "%s\n" "$1" >"$2"' sh "$c" "$1.mon.in" ||
			echo "(harness) could not write to the monitor: $c" >>"$1.monitor.sent"
	done
}

run_qemu() { # ACCEL TIMEOUT LOG
	rm -f "$3" "$3.qemu" "$3.mon.in" "$3.mon.out" "$3.mon.want" "$3.monitor" "$3.monitor.sent"
	mpid=
	if [ "$monitor" = 1 ]; then
		mkfifo "$3.mon.in" "$3.mon.out"
		cat "$3.mon.out" >"$3.monitor" &
		mpid=$!
	fi
	# shellcheck disable=SC2046
	timeout -k 5 "$2" $qemu -M "$machine" -accel "$1" $fwargs ${dtb:+-dtb "$dtb"} \
		-m "$mem${maxmem:+,slots=$slots,maxmem=$maxmem}" \
		$(case $machine in *memory-backend=lmbram*) printf -- '-object memory-backend-ram,id=lmbram,size=%s,reserve=off' "$mem" ;; esac) \
		-smp "$smp,sockets=$smp,cores=1,threads=1" $(numa_args) $(extra_args "$3") \
		-nodefaults -display none -no-reboot -serial "file:$3" \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		</dev/null >"$3.qemu" 2>&1 &
	qpid=$!
	relayed=0
	# A panic this early (setup_arch) hangs instead of rebooting: stop
	# QEMU 3 s after the panic line rather than waiting for the timeout
	# (kdump: after a panic more than the one on purpose).
	while kill -0 "$qpid" 2>/dev/null; do
		np=$(grep -c 'Kernel panic - not syncing' "$3" 2>/dev/null || true)
		if [ "${np:-0}" -gt "$kdump" ]; then
			sleep 3
			kill "$qpid" 2>/dev/null || true
			wait "$qpid" || true
			echo "(stopped 3 s after the kernel panic)" >>"$3.qemu"
			[ -z "$mpid" ] || kill "$mpid" 2>/dev/null || true
			return 0
		fi
		[ "$monitor" = 0 ] || relay "$3"
		sleep 0.5
	done
	qrc=0
	wait "$qpid" || qrc=$?
	[ -z "$mpid" ] || { kill "$mpid" 2>/dev/null || true; wait "$mpid" 2>/dev/null || true; }
	# HMP echoes what it is sent key by key: keep each line's text after its
	# last erase-to-end-of-line
	e=$(printf '\033')
	[ ! -f "$3.monitor" ] || { sed "s/.*$e\[K//; s/$e\[[0-9;]*[A-Za-z]//g" "$3.monitor" >"$3.mon.want" && mv "$3.mon.want" "$3.monitor"; }
	[ ! -f "$3.monitor.sent" ] || cat "$3.monitor.sent" >>"$3.monitor"
	rm -f "$3.mon.in" "$3.mon.out" "$3.mon.want" "$3.monitor.sent"
	return $qrc
}

# ---- accelerator ------------------------------------------------------------
accel=${LMB_ACCEL:-auto}
case $arch in x86_64|i386) ;; *) accel=tcg ;; esac	# another arch than this machine's
if [ "$accel" = auto ]; then
	if [ -f "$BUILD/accel" ]; then
		accel=$(cat "$BUILD/accel")
	elif [ -w /dev/kvm ]; then
		t0=$(now)
		say "    probing KVM (${LMB_KVM_PROBE_TIMEOUT:-20}s max; nested KVM often hangs at kernel entry)"
		prc=0
		run_qemu kvm "${LMB_KVM_PROBE_TIMEOUT:-20}" "$LOGS/kvm-probe.log" || prc=$?
		if [ "$prc" = 0 ] && grep -q '^# lmb-guest: end' "$LOGS/kvm-probe.log"; then
			accel=kvm
			echo kvm >"$BUILD/accel"
		elif [ "$prc" = 124 ] || [ "$prc" = 137 ] || [ "$prc" = 1 ]; then
			# a hang (the nested-KVM symptom) or QEMU refusing KVM: remember
			accel=tcg
			echo tcg >"$BUILD/accel"
		else
			accel=tcg	# the kernel itself failed: probe again next time
		fi
		say "    KVM probe: using $accel ($(elapsed "$t0"); cached in build/accel, delete it to probe again)"
	else
		accel=tcg
	fi
fi

# ---- boot -------------------------------------------------------------------
t0=$(now)
rc=0
run_qemu "$accel" "$timeout" "$log" || rc=$?
took=$(elapsed "$t0")
echo "${took%s}" >"$log.secs"

why=
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	why="timeout: no power-off within ${timeout}s (hang?)"
elif [ "$rc" != 0 ]; then
	why="QEMU exited with status $rc: $(head -n 3 "$log.qemu" | tr '\n' ' ')"
fi
[ -f "$log" ] || : >"$log"
# kdump: the crash on purpose, in the first kernel, is expected
sysrq='Kernel panic - not syncing: sysrq triggered crash'
bad=$(grep -nE 'Kernel panic|Oops|(^|[] ])(WARNING|BUG):' "$log" |
	if [ "$kdump" = 1 ]; then grep -v "$sysrq" || true; else cat; fi | head -n 3 || true)
if [ "$panic" = 1 ]; then
	# expected: a panic (the pristine kernel's behaviour on this input)
	grep -q 'Kernel panic - not syncing' "$log" || why="${why:+$why; }expected a kernel panic, there was none"
	! grep -q '^# lmb-guest: end' "$log" || why="${why:+$why; }expected a kernel panic, the guest finished"
	[ -n "$why" ] || bad=
else
	[ -z "$bad" ] || why="${why:+$why; }kernel log has: $(printf '%s\n' "$bad" | head -n 1)"
	# Still a failure; the hint names a known QEMU bug (commits
	# cb62bd15e14e and deba78709ae8, in 8.1): a vCPU of multi-threaded TCG
	# could run a stale translation of code another vCPU had patched back.
	case $accel/$smp/$bad in tcg/[2-9]*'Oops: int3'*|tcg/[1-9][0-9]*'Oops: int3'*)
		why="$why (if the int3 sits at a patched NOP or jump, this may be QEMU's stale code after text patching under multi-threaded TCG, fixed in 8.1; this is $(qemu-system-x86_64 --version | head -n 1))" ;;
	esac
	ends=$(grep -c '^# lmb-guest: end' "$log" || true)
	if [ "$ends" = 0 ]; then
		why="${why:+$why; }guest end marker missing"
	elif [ "$ends" -lt "$boots" ]; then
		why="${why:+$why; }the guest finished $ends of $boots times (the next kernel did not come up$(grep -m1 -o 'lmb-guest: then: failed.*' "$log" | sed 's/^/: /'))"
	fi
	if [ "$kdump" = 1 ]; then
		# the crash on purpose comes before the crash kernel's banner
		awk -v p="$sysrq" 'index($0, "Linux version ") { k++ } index($0, p) && k == 1 { ok = 1 } END { exit !ok }' "$log" ||
			why="${why:+$why; }kdump: no '$sysrq' in the first kernel"
	fi
fi
if [ -n "$why" ]; then
	say "    boot FAILED ($accel, $took): $why"
	[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/    log line /'
	tail_log "$log"
	[ ! -s "$log.monitor" ] || tail_log "$log.monitor" 10
	exit 1
fi
if [ "$panic" = 1 ]; then
	say "    boot ok ($accel, $took, panicked as expected: $(grep -m1 -o 'Kernel panic - not syncing.*' "$log" | tr -d '\r')): ${log#"$TOP"/}"
else
	say "    boot ok ($accel, $took): ${log#"$TOP"/}"
fi
