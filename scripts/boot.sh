#!/bin/sh
# Boot one kernel in QEMU and check the boot.
#
# usage: scripts/boot.sh [-t SECONDS] [-m MEM] [-s SMP] [-n NODES] [-c CHECKS]
#                        [-i INITRD] [-l LOG] KERNEL [CMDLINE...]
#   -m MEM     guest memory (QEMU syntax, default 1G)
#   -s SMP     CPUs (default 2)
#   -n NODES   NUMA nodes given by QEMU (memory and CPUs split evenly; - = none)
#   -c CHECKS  guest checks, comma separated (guest/checks/<name>.sh; default all)
#   -i INITRD  initramfs (default build/initramfs-x86_64.cpio.gz)
#   -l LOG     serial log (default build/logs/boot.log)
#   -t SECONDS timeout (default $LMB_BOOT_TIMEOUT or 120)
# Environment: LMB_EXTRA_CMDLINE is appended to every kernel command line
# (e.g. LMB_EXTRA_CMDLINE=lmbtest.panic=1 make test shows a failing boot).
# LMB_ACCEL=tcg|kvm|auto (default auto: TCG unless a short KVM
# probe boot succeeded once; the result is cached in build/accel).
#
# The kernel gets "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1
# oops=panic" so that a panic reboots and QEMU (-no-reboot) exits.
# Fails (exit 1, with the log tail) on: timeout/hang, QEMU error, kernel panic,
# Oops, WARNING:, BUG:, or no "# lmb-guest: end" marker.
. scripts/lib.sh

timeout=${LMB_BOOT_TIMEOUT:-120} mem=1G smp=2 nodes=- checks= log=$LOGS/boot.log
initrd=$BUILD/initramfs-x86_64.cpio.gz
while getopts t:m:s:n:c:i:l: o; do
	case $o in
	t) timeout=$OPTARG ;; m) mem=$OPTARG ;; s) smp=$OPTARG ;; n) nodes=$OPTARG ;;
	c) checks=$OPTARG ;; i) initrd=$OPTARG ;; l) log=$OPTARG ;;
	*) die "usage: scripts/boot.sh [-t s] [-m mem] [-s smp] [-n nodes] [-c checks] [-i initrd] [-l log] KERNEL [CMDLINE...]" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: scripts/boot.sh [options] KERNEL [CMDLINE...]"
kernel=$1
shift
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

cmdline="console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 oops=panic $*"
[ -z "${LMB_EXTRA_CMDLINE:-}" ] || cmdline="$cmdline $LMB_EXTRA_CMDLINE"
[ -z "$checks" ] || cmdline="$cmdline lmbtest.checks=$checks"

# QEMU NUMA: N nodes with equal memory backends, CPUs round-robin.
numa_args() {
	[ "$nodes" != - ] || return 0
	total=$(printf '%s\n' "$mem" | awk '
		/[Gg]$/ { print int($0) * 1024; next }
		/[Mm]$/ { print int($0); next }
		{ print int($0) }')
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
	timeout -k 5 "$2" qemu-system-x86_64 -M pc -accel "$1" -m "$mem" \
		-smp "$smp,sockets=$smp,cores=1,threads=1" $(numa_args) \
		-nodefaults -display none -no-reboot -serial "file:$3" \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		</dev/null >"$3.qemu" 2>&1
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

why=
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	why="timeout: no power-off within ${timeout}s (hang?)"
elif [ "$rc" != 0 ]; then
	why="QEMU exited with status $rc: $(head -n 3 "$log.qemu" | tr '\n' ' ')"
fi
[ -f "$log" ] || : >"$log"
bad=$(grep -nE 'Kernel panic|Oops|(^|[] ])(WARNING|BUG):' "$log" | head -n 3 || true)
[ -z "$bad" ] || why="${why:+$why; }kernel log has: $(printf '%s\n' "$bad" | head -n 1)"
grep -q '^# lmb-guest: end' "$log" || why="${why:+$why; }guest end marker missing"

if [ -n "$why" ]; then
	say "    boot FAILED ($accel, $took): $why"
	[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/    log line /'
	tail_log "$log"
	exit 1
fi
say "    boot ok ($accel, $took): ${log#"$TOP"/}"
