#!/bin/sh
# tests/lib/verdict.sh LOG STATUS - make test's last line: every suite's count in LOG summed into
# one verdict, "make test: N passed, N failed", and STATUS (the suites' exit status) as its
# own. The suites say "NAME: N passed, N failed" (and cgsim check "N passed, N failed"), the
# trace read-back "N runs, N failed", Criterion "Synthesis: Tested: T | Passing: P | Failing:
# F | Crashing: C", each fuzz-ci target "stat::number_of_executed_units" (one check each).
# A step that stopped the others without a count of its own counts as one failure. Before
# the verdict, the five slowest of the steps timed by tests/lib/timed.sh ("time: NAME S s").
set -u
[ $# -eq 2 ] || { echo "usage: $0 LOG STATUS" >&2; exit 2; }
awk -v status="$2" '
/[0-9]+ passed, [0-9]+ failed$/ {
	n = split($0, w, " ")
	for (i = 1; i < n; i++)
		if (w[i + 1] == "passed," && w[i] ~ /^[0-9]+$/) { p += w[i]; f += w[i + 2] }
	next
}
/trace read back: [0-9]+ runs, [0-9]+ failed$/ {
	n = split($0, w, " "); p += w[n - 3] - w[n - 1]; f += w[n - 1]; next
}
/Synthesis: Tested:/ {
	gsub(/\|/, " "); n = split($0, w, " ")
	for (i = 1; i < n; i++) {
		if (w[i] == "Passing:") p += w[i + 1]
		if (w[i] == "Failing:" || w[i] == "Crashing:") f += w[i + 1]
	}
	next
}
/stat::number_of_executed_units/ { p++ }
/^time: [^ ]+ [0-9.]+ s$/ { if (!($2 in t)) nt++; t[$2] = $3; next }
END {
	for (k = 0; k < 5 && k < nt; k++) {
		best = ""
		for (s in t)
			if (best == "" || t[s] + 0 > t[best] + 0)
				best = s
		line = (k ? line "," : "make test: slowest steps:") " " best " " t[best] " s"
		delete t[best]
	}
	if (nt)
		print line
	if (status != 0 && f == 0)
		f = 1
	printf "make test: %d passed, %d failed\n", p, f
}' "$1"
exit "$2"
