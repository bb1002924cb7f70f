#!/bin/sh
# Boot one kernel in QEMU and check the boot.
#
# usage: scripts/boot.sh [-t SECONDS] [-m MEM] [-s SMP] [-n NODES] [-c CHECKS]
#                        [-i INITRD] [-l LOG] [-f FW] [-M MAXMEM] [-p] KERNEL [CMDLINE...]
#   -m MEM     guest memory (QEMU syntax, default 1G)
#   -f FW      firmware: bios (SeaBIOS, default) or uefi (OVMF, the bzImage
#              loaded with -kernel and started through its EFI stub)
#   -M MAXMEM  -m MEM,slots=2,maxmem=MAXMEM: QEMU's SRAT then lists the
#              memory hotplug area above RAM as hotpluggable (needs -n)
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
# oops=panic" so that a panic reboots and QEMU (-no-reboot) exits.
# Fails (exit 1, with the log tail) on: timeout/hang, QEMU error, kernel panic,
# Oops, WARNING:, BUG:, or no "# lmb-guest: end" marker.
# Writes the boot's wall time in seconds to LOG.secs.
. scripts/lib.sh

timeout= mem=1G smp=2 nodes=- checks= log=$LOGS/boot.log fw=bios maxmem= panic=0
initrd=$BUILD/initramfs-x86_64.cpio.gz
while getopts t:m:s:n:c:i:l:f:M:p o; do
	case $o in
	t) timeout=$OPTARG ;; m) mem=$OPTARG ;; s) smp=$OPTARG ;; n) nodes=$OPTARG ;;
	c) checks=$OPTARG ;; i) initrd=$OPTARG ;; l) log=$OPTARG ;;
	f) fw=$OPTARG ;; M) maxmem=$OPTARG ;; p) panic=1 ;;
	*) die "usage: scripts/boot.sh [-t s] [-m mem] [-s smp] [-n nodes] [-c checks] [-i initrd] [-l log] [-f bios|uefi] [-M maxmem] [-p] KERNEL [CMDLINE...]" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: scripts/boot.sh [options] KERNEL [CMDLINE...]"
kernel=$1
shift
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

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
fi
case $fw in
bios) fwargs= ;;
uefi)
	fwargs="-bios /usr/share/ovmf/OVMF.fd"
	[ -f /usr/share/ovmf/OVMF.fd ] || die "no /usr/share/ovmf/OVMF.fd (package ovmf)"
	;;
*) die "unknown firmware $fw (bios or uefi)" ;;
esac

cmdline="console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 oops=panic $*"
[ -z "${LMB_EXTRA_CMDLINE:-}" ] || cmdline="$cmdline $LMB_EXTRA_CMDLINE"
[ -z "$checks" ] || cmdline="$cmdline lmbtest.checks=$checks"
# x86's COMMAND_LINE_SIZE: a longer line would be cut without a word.
[ ${#cmdline} -lt 2048 ] || die "kernel command line is ${#cmdline} bytes, x86 takes at most 2047"

# QEMU NUMA: N nodes with equal memory backends, CPUs round-robin.
numa_args() {
	[ "$nodes" != - ] || return 0
	total=$(mem_mb "$mem")
	per=$((total / nodes))
	i=0
	while [ "$i" -lt "$nodes" ]; do
		printf ' -object memory-backend-ram,id=m%d,size=%dM -numa node,nodeid=%d,memdev=m%d' "$i" "$per" "$i" "$i"
		i=$((i + 1))
	done
	c=0
	while [ "$c" -lt "$smp" ]; do
		printf ' -numa cpu,node-id=%d,socket-id=%d' $((c % nodes)) "$c"
		c=$((c + 1))
	done
}

run_qemu() { # ACCEL TIMEOUT LOG
	rm -f "$3" "$3.qemu"
	# shellcheck disable=SC2046
	timeout -k 5 "$2" qemu-system-x86_64 -M pc -accel "$1" $fwargs \
		-m "$mem${maxmem:+,slots=2,maxmem=$maxmem}" \
		-smp "$smp,sockets=$smp,cores=1,threads=1" $(numa_args) \
		-nodefaults -display none -no-reboot -serial "file:$3" \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		</dev/null >"$3.qemu" 2>&1 &
	qpid=$!
	# A panic this early (setup_arch) hangs instead of rebooting: stop
	# QEMU 3 s after the panic line rather than waiting for the timeout.
	while kill -0 "$qpid" 2>/dev/null; do
		if grep -q 'Kernel panic - not syncing' "$3" 2>/dev/null; then
			sleep 3
			kill "$qpid" 2>/dev/null || true
			wait "$qpid" || true
			echo "(stopped 3 s after the kernel panic)" >>"$3.qemu"
			return 0
		fi
		sleep 0.5
	done
	wait "$qpid"
}

# ---- accelerator ------------------------------------------------------------
accel=${LMB_ACCEL:-auto}
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
bad=$(grep -nE 'Kernel panic|Oops|(^|[] ])(WARNING|BUG):' "$log" | head -n 3 || true)
if [ "$panic" = 1 ]; then
	# expected: a panic (the pristine kernel's behaviour on this input)
	grep -q 'Kernel panic - not syncing' "$log" || why="${why:+$why; }expected a kernel panic, there was none"
	! grep -q '^# lmb-guest: end' "$log" || why="${why:+$why; }expected a kernel panic, the guest finished"
	[ -n "$why" ] || bad=
else
	[ -z "$bad" ] || why="${why:+$why; }kernel log has: $(printf '%s\n' "$bad" | head -n 1)"
	grep -q '^# lmb-guest: end' "$log" || why="${why:+$why; }guest end marker missing"
fi

if [ -n "$why" ]; then
	say "    boot FAILED ($accel, $took): $why"
	[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/    log line /'
	tail_log "$log"
	exit 1
fi
if [ "$panic" = 1 ]; then
	say "    boot ok ($accel, $took, panicked as expected: $(grep -m1 -o 'Kernel panic - not syncing.*' "$log" | tr -d '\r')): ${log#"$TOP"/}"
else
	say "    boot ok ($accel, $took): ${log#"$TOP"/}"
fi
