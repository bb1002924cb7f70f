# kdump: load the crash kernel (kexec -p: this kernel again, into the
# crashkernel= region) with the checks of lmbtest.next= (vmcore) and this
# kernel's RAM and crash region as lmbtest.ram= / lmbtest.crash= (bytes,
# from /proc/iomem) and lmbtest.crashat=START-END (hex); /init then crashes on purpose (sysrq c) after the
# summary, and the crash kernel boots from the memory map kexec gave it.
. /lmbtest-lib.sh
[ -f /boot/bzImage ] || fail "no /boot/bzImage: the row needs the option kexec (the initramfs with the kernel)"
command -v kexec >/dev/null || fail "no kexec in the initramfs (package kexec-tools on the host)"
crash=$(iomem_sum "Crash kernel")
[ "$crash" -gt 0 ] || fail "no 'Crash kernel' range in /proc/iomem (crashkernel= missing or not reserved)"
ram=$(iomem_sum "System RAM")
at=$(sed -n 's/^ *\([0-9a-f]*-[0-9a-f]*\) : Crash kernel$/\1/p' /proc/iomem | head -n 1)
echo "System RAM $ram bytes, Crash kernel $crash bytes"
cl=$(next_cmdline "$(param lmbtest.next || echo vmcore)" crashkernel= -- \
	irqpoll nr_cpus=1 reset_devices lmbtest.ram=$ram lmbtest.crash=$crash lmbtest.crashat=$at)
echo "kexec -p /boot/bzImage --initrd=/boot/initrd --command-line=\"$cl\""
kexec -p /boot/bzImage --initrd=/boot/initrd --command-line="$cl" 2>&1 ||
	fail "kexec -p failed (exit $?): the crash kernel did not load"
[ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ] || fail "kexec -p returned 0 but /sys/kernel/kexec_crash_loaded is not 1"
then_run 'echo c >/proc/sysrq-trigger'
echo "crash kernel loaded; /init crashes on purpose after the summary"
