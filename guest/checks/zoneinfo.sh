# Every populated zone has managed pages; at least one zone exists.
awk '
/^Node [0-9]+, zone/ { z = $2 " " $4 }
$1 == "present" { present[z] = $2 }
$1 == "managed" { managed[z] = $2; n++ }
END {
	for (z in managed) {
		printf "node %s present %s managed %s\n", z, present[z], managed[z]
		if (present[z] > 0 && managed[z] == 0) { print "zone " z ": present but nothing managed"; bad = 1 }
	}
	if (!n) { print "no zones in /proc/zoneinfo"; bad = 1 }
	exit bad
}' /proc/zoneinfo
