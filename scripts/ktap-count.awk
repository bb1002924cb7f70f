# Count KTAP results in a log: awk -f scripts/ktap-count.awk [-v label=X] LOG...
#
# - Between "# lmb-guest: begin" and "# lmb-guest: end" (the guest runner):
#   every top-level "ok N name" / "not ok N name" is one test.
# - Elsewhere (KUnit in the kernel log, the userspace simulator): each test
#   case (a result line indented by exactly 4 spaces) is one test; a top-level
#   suite result with no cases is one test; a top-level "not ok" suite whose
#   cases all passed counts as one more failure (e.g. suite init failed).
#   Deeper lines (parameterised sub-cases) are summarised by their case line.
# - "# SKIP" results count as skipped (neither passed nor failed).
# Kernel timestamps "[    1.234567] " are ignored.
# Output: one "FAIL <label>: <name>" line per failure, then
#         "COUNT <passed> <failed> <skipped>".

function result(l, depth,    ok, name, skip) {
	ok = (l !~ /^not ok/)
	name = l
	sub(/^(not )?ok [0-9]+ */, "", name)
	skip = (name ~ /# *[Ss][Kk][Ii][Pp]/)
	sub(/ *#.*/, "", name)
	if (skip) { skipped++; return 2 }
	if (ok) { passed++; return 1 }
	failed++
	printf "FAIL %s: %s%s\n", label, (depth ? suite_prefix : ""), name
	return 0
}

{
	l = $0
	sub(/\r$/, "", l)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", l)
}
l ~ /^# lmb-guest: begin/ { guest = 1; suite_prefix = "guest/"; next }
l ~ /^# lmb-guest: end/ { guest = 0; next }
guest {
	if (l ~ /^(not )?ok [0-9]+/) { suite_prefix = "guest/"; result(l, 1) }
	next
}
l ~ /^    (not )?ok [0-9]+/ {
	s = substr(l, 5)
	if (result(s, 1) == 0) suite_failed++
	cases++
	next
}
l ~ /^(    )?# Subtest: / { sub(/^ *# Subtest: /, "", l); suite_prefix = l "."; cases = 0; suite_failed = 0; next }
l ~ /^(not )?ok [0-9]+/ {
	if (cases == 0) {
		suite_prefix = ""
		result(l, 0)
	} else if (l ~ /^not ok/ && suite_failed == 0) {
		failed++
		n = l; sub(/^not ok [0-9]+ */, "", n)
		printf "FAIL %s: suite %s (all cases passed)\n", label, n
	}
	cases = 0; suite_failed = 0; suite_prefix = ""
}
END { printf "COUNT %d %d %d\n", passed, failed, skipped }
