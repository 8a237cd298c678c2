#!/bin/bash
# tests/kernel/run.sh CGSIM ANSWERS - cgsim against a kernel's recorded answers.
#
# ANSWERS (tests/kernel/smp-shares-6.18.txt) holds shares measured on a running kernel (the
# version its name ends in, which cgsim is told to model) by
# tests/live/smp-shares.sh, one "LAYOUT KIND NAME MEAN MIN MAX [KNOWN]" line per share. For each
# layout, scenarios/smp-LAYOUT.yaml runs with seeds 1 to 32 (each seed is one run with its own
# timing, as each of the kernel's three runs is; where threads rotate between CPUs, one seed's
# share varies by 3 points (smp-duty-mix's busy threads), so 32 pin cgsim's mean to about half
# a point, where 8 left it a point off) and each share's mean must be within 1.5 points of
# capacity of the kernel's mean or inside the range the kernel itself gave over its runs (threads that rotate between
# CPUs vary by several points from run to run), or within KNOWN points of the mean for a
# difference docs/scheduler.md explains. Needs no kernel and no root.
#
# The seeds of a layout run side by side (as many at a time as the machine has CPUs), each into
# its own directory, and are read in seed order: the means are those of one run after another.
# With TESTS_QUICK=1 (make test's sanitizer pass, where what is judged is that the program runs
# cleanly; the normal pass judges the shares) each layout runs seeds 1 and 2 for 2 s only, and
# a layout passes when both runs do.
set -u
CGSIM=${1:?usage: $0 CGSIM ANSWERS}
ANS=${2:?usage: $0 CGSIM ANSWERS}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
quick=${TESTS_QUICK:-0}
seeds=32 short=
[ "$quick" = 1 ] && seeds=2 short="--set duration=2s --set warmup=500ms"
# the kernel the answers came from, as their file names it (smp-shares-6.18.txt): cgsim models
# that one, whatever a scenario's default (docs/kernels.md)
kver=$(basename "$ANS" | sed -n 's/.*-\([0-9][0-9.]*[0-9]\)\.txt$/\1/p')
[ -n "$kver" ] && short="$short --set scheduler.kernel=$kver"
pass=0 fail=0
for layout in $(grep -v '^#' "$ANS" | awk 'NF {print $1}' | sort -u); do
	f=$TOP/scenarios/smp-$layout.yaml
	: > "$TMP/sim"
	rm -rf "$TMP"/run-*
	# shellcheck disable=SC2016,SC2086 # $1... are the inner shell's; $short is a list
	seq 1 $seeds | xargs -P "$jobs" -I{} sh -c \
		'"$1" run "$2" --seed "$3" $4 -o "$5/run-$3" > /dev/null || : > "$5/run-$3.failed"' \
		sh "$CGSIM" "$f" {} "$short" "$TMP"
	for seed in $(seq 1 $seeds); do
		if [ -e "$TMP/run-$seed.failed" ] || [ ! -e "$TMP/run-$seed/groups.csv" ]; then
			echo "FAIL $layout: cgsim run --seed $seed failed"
			fail=$((fail + 1))
			continue 2
		fi
		awk -F, 'NR > 1 {print "thread", $1 "/" $2, $5}' "$TMP/run-$seed/threads.csv" >> "$TMP/sim"
		awk -F, 'NR > 1 {print "group", $1, $3}' "$TMP/run-$seed/groups.csv" >> "$TMP/sim"
	done
	if [ "$quick" = 1 ]; then
		pass=$((pass + 1))
		continue
	fi
	out=$(awk -v L="$layout" '
		NR == FNR { s[$1 " " $2] += $3; n[$1 " " $2]++; next }
		/^#/ || NF == 0 || $1 != L { next }
		{
			k = $2 " " $3
			tol = NF >= 7 ? $7 : 1.5
			if (!(k in n)) { printf "FAIL %s %s %s: not in cgsim'"'"'s output\n", L, $2, $3; bad++; next }
			c = s[k] / n[k]; d = 100 * (c - $4)
			ok = (d <= tol && d >= -tol) || (NF < 7 && c >= $5 && c <= $6)
			printf "%s %s %s %s: cgsim %.4f, kernel %.4f (%.4f-%.4f), %+.2f points (within %.1f)\n", \
				ok ? "PASS" : "FAIL", L, $2, $3, c, $4, $5, $6, d, tol
		}' "$TMP/sim" "$ANS")
	echo "$out"
	pass=$((pass + $(grep -c '^PASS' <<< "$out")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$out")))
done
if [ "$quick" = 1 ]; then
	echo "kernel layouts run (quick): $pass passed, $fail failed"
else
	echo "kernel answers: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
