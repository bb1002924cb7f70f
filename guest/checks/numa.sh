# The number of online NUMA nodes equals lmbtest.nodes=N (if given).
want=
for w in $(cat /proc/cmdline); do
	case $w in lmbtest.nodes=*) want=${w#*=} ;; esac
done
if [ -r /sys/devices/system/node/online ]; then
	online=$(cat /sys/devices/system/node/online)
else
	online=0
fi
echo "online nodes: $online"
for d in /sys/devices/system/node/node[0-9]*; do
	[ -r "$d/meminfo" ] && grep MemTotal "$d/meminfo"
done
[ -n "$want" ] || exit 0
have=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
echo "expected $want nodes, found $have"
[ "$have" = "$want" ]
