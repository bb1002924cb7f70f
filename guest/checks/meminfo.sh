# MemTotal is reported and plausible (> 16 MiB).
grep -E '^(MemTotal|MemFree|HighTotal|LowTotal):' /proc/meminfo
kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
[ "${kb:-0}" -gt 16384 ]
