# Helpers for the guest checks (busybox sh), /lmbtest-lib.sh in the initramfs:
# a check starts with ". /lmbtest-lib.sh". The runner (/init) gives every
# check fd 3 = the serial console (stdout and stderr go to the check's log,
# shown after it ends).

# param NAME: the value of NAME=VALUE on the kernel command line
param() {
	for w in $(cat /proc/cmdline); do
		case $w in "$1="*) echo "${w#*=}"; return 0 ;; esac
	done
	return 1
}
# say TEXT: straight to the console (progress while the check runs)
say() { echo "# $*" >&3; }
# fail TEXT: the check's message, exit 1 (not ok)
fail() { echo "$*"; exit 1; }
memtotal() { awk '/^MemTotal:/ { print $2 }' /proc/meminfo; }
# mon CMD: ask the harness to run CMD on the QEMU monitor (HMP). Rows whose
# checks use it have the option 'monitor' (scripts/boot.sh -D); the harness
# relays every "# lmb-guest: monitor: CMD" line of the serial log.
mon() { echo "# lmb-guest: monitor: $* ;" >&3; }
# wait_for SECONDS CMD...: run CMD every second until it succeeds; 1 on timeout
wait_for() {
	_n=$1
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		_n=$((_n - 1))
	done
	"$@"
}
# next_cmdline CHECKS [DROP-PREFIX...] [-- EXTRA...]: this kernel's command
# line for the next kernel (kexec, kdump): lmbtest.checks= becomes CHECKS,
# lmbtest.next= and words starting with a DROP-PREFIX go, EXTRA words are added.
next_cmdline() {
	_c=$1
	shift
	_drop="lmbtest.checks= lmbtest.next="
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _drop="$_drop $1"; shift; done
	[ $# -eq 0 ] || shift
	_out=
	for w in $(cat /proc/cmdline); do
		_keep=1
		for d in $_drop; do case $w in "$d"*) _keep=0 ;; esac; done
		[ "$_keep" = 0 ] || _out="$_out $w"
	done
	echo "${_out# } $* lmbtest.checks=$_c"
}
# iomem_sum NAME: bytes of the /proc/iomem ranges called NAME (any level)
iomem_sum() {
	_s=0
	while IFS= read -r l; do
		l=${l#"${l%%[! ]*}"}
		[ "${l#*: }" = "$1" ] || continue
		r=${l%% :*}
		_s=$((_s + 0x${r#*-} - 0x${r%-*} + 1))
	done </proc/iomem
	echo $_s
}
# then CMD: what /init runs after the summary instead of powering off
# (kexec -e, a crash on purpose)
then_run() { echo "$*" >/tmp/lmb-then; }
