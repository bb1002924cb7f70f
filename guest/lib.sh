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
# lmb_readers_start / lmb_readers_wait / lmb_readers_stop: /proc/lmb read
# all through a memory hot-plug, in a loop, by root and by uid 65534. Each
# read must succeed and be the first read again, but for the two lines that
# follow MemTotal ("+ released or added later", "= MemTotal"); its
# MemTotal must lie between /proc/meminfo's, read just before and just
# after it (the kernel derives the last term from it, so the terms add up
# by construction and are only parsed). uid 65534 must never see an
# address, root must. Not an LMB kernel, or lmb=nokeep: nothing to read
# (said, not failed).
LR=/tmp/lmbr
lmb_read_loop() {	# WHO: root or nobody
	_n=0
	while [ ! -e $LR/stop ]; do
		for _f in owners ranges; do
			[ $_f = ranges ] || _b=$(memtotal)
			cat /proc/lmb/$_f >$LR/$1.$_f 2>&1 || { echo "$1: reading /proc/lmb/$_f failed: $(head -c 200 $LR/$1.$_f)" >>$LR/$1.err; return; }
			[ $_f = ranges ] || _a=$(memtotal)
			grep -vE '^(\+ released or added later|= MemTotal) ' $LR/$1.$_f >$LR/$1.$_f.fixed
			[ -e $LR/$1.$_f.0 ] || cp $LR/$1.$_f.fixed $LR/$1.$_f.0
			cmp -s $LR/$1.$_f.fixed $LR/$1.$_f.0 || { echo "$1: /proc/lmb/$_f changed at read $_n:"; diff $LR/$1.$_f.0 $LR/$1.$_f.fixed | head -n 6; } >>$LR/$1.err
		done
		# MemTotal only grows during a hot-add and only shrinks during a
		# removal: the file's lies between the two /proc/meminfo reads
		awk -v b="$_b" -v a="$_a" -v who="$1" -v n="$_n" '
		     index($0, "= handed to the page allocator") == 1 { h = $NF }
		     index($0, "+ freed late") == 1 { f = $NF }
		     index($0, "+ released or added later") == 1 { r = $6 }
		     index($0, "= MemTotal") == 1 { m = $NF }
		     END {
			if (m == "" || h + f + r != m) print who ": owners at read " n ": cannot parse the reconciliation"
			else if ((m < b || m > a) && (m < a || m > b)) print who ": owners at read " n ": MemTotal " m "K, /proc/meminfo " b "K before and " a "K after"
		     }' $LR/$1.owners >>$LR/$1.err
		awk 'index($0, "= MemTotal") == 1 { print $NF }' $LR/$1.owners >>$LR/$1.memtotal
		if [ "$1" = root ]; then
			grep -qv '^0000000000000000-0000000000000000 : ' $LR/$1.ranges ||
				echo "root: sees no address in /proc/lmb/ranges at read $_n" >>$LR/$1.err
		elif grep -v '^0000000000000000-0000000000000000 : ' $LR/$1.ranges | grep -q .; then
			echo "$1: sees addresses in /proc/lmb/ranges at read $_n" >>$LR/$1.err
		fi
		_n=$((_n + 1))
		echo $_n >$LR/$1.n
		[ -s $LR/$1.err ] && return
	done
}
lmb_readers_start() {
	LRPIDS=
	if [ ! -r /proc/lmb/owners ]; then
		echo "no /proc/lmb (pristine kernel, or lmb=nokeep): no reads during the hot-plug"
		return 0
	fi
	rm -rf $LR
	mkdir -p $LR /etc
	chmod 1777 $LR
	# a failed check stops them too, and says what they found
	trap 'touch $LR/stop; wait; cat $LR/*.err 2>/dev/null' EXIT
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	(lmb_read_loop root) &
	LRPIDS=$!
	su -s /bin/sh nobody -c '. /lmbtest-lib.sh; lmb_read_loop nobody' &
	LRPIDS="$LRPIDS $!"
}
# lmb_readers_wait KB SECONDS: until both readers have read MemTotal KB
# (the hot-plugged memory all online)
lmb_readers_wait() {
	[ -n "$LRPIDS" ] || return 0
	_saw() { grep -qx "$1" $LR/root.memtotal 2>/dev/null && grep -qx "$1" $LR/nobody.memtotal 2>/dev/null; }
	wait_for "$2" _saw "$1" || fail "/proc/lmb: no read saw MemTotal ${1}K within ${2}s$(cat $LR/*.err 2>/dev/null)"
}
lmb_readers_stop() {
	[ -n "$LRPIDS" ] || return 0
	touch $LR/stop
	for _p in $LRPIDS; do wait "$_p"; done
	trap - EXIT
	echo "/proc/lmb read during the hot-plug: root $(cat $LR/root.n 2>/dev/null || echo 0) times, uid 65534 $(cat $LR/nobody.n 2>/dev/null || echo 0) times (owners and ranges each), MemTotal from $(sort -n $LR/*.memtotal | head -n 1)K to $(sort -n $LR/*.memtotal | tail -n 1)K"
	[ -z "$(cat $LR/*.err 2>/dev/null)" ] || fail "/proc/lmb during the hot-plug: $(cat $LR/*.err)"
}
