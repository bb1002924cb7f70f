# hugepages: every hugepagesz=SIZE hugepages=N (or per node N0:C0,N1:C1)
# pair of the command line was allocated at boot: nr_hugepages of that size
# (and of each node) is N.
. /lmbtest-lib.sh
H=/sys/kernel/mm/hugepages
sz= bad=0 n=0
kb() { echo "$1" | awk '/[Gg]$/ { print int($0) * 1048576; next } /[Mm]$/ { print int($0) * 1024; next } { print int($0) / 1024 }'; }
for w in $(cat /proc/cmdline); do
	case $w in
	hugepagesz=*) sz=$(kb "${w#*=}") ;;
	hugepages=*)
		[ -n "$sz" ] || sz=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
		v=${w#*=} n=$((n + 1))
		case $v in
		*:*)
			tot=0
			for nc in $(echo "$v" | tr , ' '); do
				node=${nc%:*} c=${nc#*:} tot=$((tot + c))
				got=$(cat /sys/devices/system/node/node$node/hugepages/hugepages-${sz}kB/nr_hugepages 2>/dev/null || echo none)
				echo "node $node: ${sz}kB pages $got, want $c"
				[ "$got" = "$c" ] || bad=1
			done
			v=$tot ;;
		esac
		got=$(cat $H/hugepages-${sz}kB/nr_hugepages 2>/dev/null || echo none)
		echo "${sz}kB pages: $got, want $v"
		[ "$got" = "$v" ] || bad=1
		sz= ;;
	esac
done
grep -E '^Huge|^Hugetlb' /proc/meminfo
[ "$n" -gt 0 ] || fail "no hugepages= on the command line"
[ "$bad" = 0 ] || fail "boot-time huge pages missing"
