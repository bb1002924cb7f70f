# kexec: load this kernel again (kexec -l /boot/bzImage, the kernel of the
# row's build that scripts/initramfs.sh put into the kexec initramfs) with
# /boot/initrd (the plain initramfs) and the checks of lmbtest.next=; /init
# then runs kexec -e after the summary. The harness checks that the second
# kernel booted and that its memory equals the first boot's.
. /lmbtest-lib.sh
[ -f /boot/bzImage ] || fail "no /boot/bzImage: the row needs the option kexec (the initramfs with the kernel)"
command -v kexec >/dev/null || fail "no kexec in the initramfs (package kexec-tools on the host)"
cl=$(next_cmdline "$(param lmbtest.next || echo meminfo,zoneinfo)")
echo "kexec -l /boot/bzImage --initrd=/boot/initrd --command-line=\"$cl\""
kexec -l /boot/bzImage --initrd=/boot/initrd --command-line="$cl" 2>&1 ||
	fail "kexec -l failed (exit $?): the image did not load"
[ "$(cat /sys/kernel/kexec_loaded)" = 1 ] || fail "kexec -l returned 0 but /sys/kernel/kexec_loaded is not 1"
then_run kexec -e
echo "loaded; /init runs kexec -e after the summary"
