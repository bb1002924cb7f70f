# debugfs is mounted; show what LMB exposes there, if anything.
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || { echo "debugfs not mounted"; exit 1; }
for f in /sys/kernel/debug/lmb /sys/kernel/debug/memblock; do
	[ -e "$f" ] && ls "$f"
done
exit 0
