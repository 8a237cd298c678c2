#!/bin/sh
# Trace every scenario and read each trace back (tests/trace/check.awk): once on an ideal
# machine (overhead costs and idle exit 0), where each thread's CPU time rebuilt from its
# switch intervals must equal the report's cpu_ns, and once as the scenario is written, where
# it may only exceed it by the overhead. Both times the switch-ins, wakeups and migrations in
# the measured window must be the report's, the lines in time order, and no task on two CPUs.
# Each variant of each scenario is run.
#
# usage: tests/trace/run.sh CGSIM SCENARIO...
set -u
. "$(dirname "$0")/../lib/runner-scenarios.sh"
here=$(cd "$(dirname "$0")" && pwd) || exit 2
fails=0
runs=0
for f in "$@"; do
    variants="base $(sed -n '/^variants:/,/^[^ #]/s/^  \([A-Za-z0-9_.-]*\):.*/\1/p' "$f")"
    for v in $variants; do
        for mode in exact as-written; do
            set -- --variant "$v"
            # shellcheck disable=SC2086 # $ideal is a list of arguments
            [ $mode = exact ] && set -- "$@" $ideal
            rm -rf "$tmp/o" "$tmp/trace.txt"
            # stderr is shown only when the run fails (an rt-app workload's notes are not news)
            # shellcheck disable=SC2086 # $quick is a list of arguments
            if ! "$cgsim" run "$f" "$@" $quick -o "$tmp/o" --trace "$tmp/trace.txt" >/dev/null \
                    2>"$tmp/stderr"; then
                echo "FAIL $f ($v, $mode): cgsim run failed"
                sed 's/^/    /' "$tmp/stderr" | head -5
                fails=$((fails + 1))
                continue
            fi
            runs=$((runs + 1))
            if ! awk -v exact=$([ $mode = exact ] && echo 1 || echo 0) \
                    -f "$here/check.awk" "$tmp/o/summary.json" "$tmp/trace.txt" \
                    >"$tmp/why" 2>&1; then
                echo "FAIL $f ($v, $mode):"
                sed 's/^/    /' "$tmp/why" | head -20
                fails=$((fails + 1))
            fi
        done
    done
done
echo "trace read back: $runs runs, $fails failed"
[ $fails -eq 0 ]
