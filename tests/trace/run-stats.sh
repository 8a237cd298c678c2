#!/bin/sh
# Trace every scenario and read each trace with cgsim trace-stats, a reader of its own
# (sim/replay/), against the run's report. On an ideal machine (overhead costs and idle exit
# 0, no warm-up, so the report covers the whole trace) each thread's CPU time must be the
# report's within the trace's truncation to the microsecond: less than 1 us for each interval
# on a CPU, that is (switches + 1) us; its wait (runnable, not running) likewise, both ends
# of each interval truncated, within 2 (switches + 1) us. A thread cannot have slept more often than the report
# counts wakeups, nor changed CPU between runs more often than it migrated. Every thread the
# report gave CPU time must be in the trace. The base variant of each scenario is run.
#
# usage: tests/trace/run-stats.sh CGSIM SCENARIO...
set -u
. "$(dirname "$0")/../lib/runner-scenarios.sh"
ideal="--set warmup=0 $ideal"
fails=0
runs=0
for f in "$@"; do
    rm -rf "$tmp/o" "$tmp/trace.txt"
    # shellcheck disable=SC2086 # $ideal and $quick are lists of arguments
    if ! "$cgsim" run "$f" $ideal $quick -o "$tmp/o" --trace "$tmp/trace.txt" >/dev/null \
            2>"$tmp/stderr"; then
        echo "FAIL $f: cgsim run failed"
        sed 's/^/    /' "$tmp/stderr" | head -5
        fails=$((fails + 1))
        continue
    fi
    if ! "$cgsim" trace-stats --json "$tmp/trace.txt" >"$tmp/stats.json" 2>"$tmp/stderr"; then
        echo "FAIL $f: cgsim trace-stats failed"
        sed 's/^/    /' "$tmp/stderr" | head -5
        fails=$((fails + 1))
        continue
    fi
    runs=$((runs + 1))
    # pid -> PROCESS/NAME from the trace's header; then the stats by pid; then the report
    if ! awk -v f="$f" -v trace="$tmp/trace.txt" -v stats="$tmp/stats.json" '
        FILENAME == trace {
            if ($0 !~ /^#/) nextfile
            if ($2 ~ /^[0-9]+$/ && $NF ~ /\//) name[$2] = $NF
            next
        }
        FILENAME == stats {
            if ($0 !~ /"pid":/) next
            pid = num("pid"); if (num("life") != 0) next
            cpu[pid] = num("cpu_ns"); sl[pid] = num("sleeps"); mg[pid] = num("migrations")
            wt[pid] = num("wait_ns")
            next
        }
        FNR > 1 {
            full = $1 "/" $2; pid = ""
            for (p in name) if (name[p] == full) pid = p
            c = $4 + 0; w = $7 + 0; sw = $11 + 0; m = $12 + 0; wk = $13 + 0
            if (pid == "" || !(pid in cpu)) {
                if (c > 0) { printf "FAIL %s: %s ran but is not in the trace\n", f, full; bad++ }
                next
            }
            d = cpu[pid] - c; if (d < 0) d = -d
            if (d > 1000 * (sw + 1)) {
                printf "FAIL %s: %s cpu_ns %.0f in the report, %.0f in the trace (%d switches)\n",
                    f, full, c, cpu[pid], sw; bad++
            }
            d = wt[pid] - w; if (d < 0) d = -d
            if (d > 2000 * (sw + 1)) {
                printf "FAIL %s: %s wait_ns %.0f in the report, %.0f in the trace (%d switches)\n",
                    f, full, w, wt[pid], sw; bad++
            }
            if (sl[pid] > wk) { printf "FAIL %s: %s slept %d times, woke %d\n", f, full, sl[pid], wk; bad++ }
            if (mg[pid] > m) { printf "FAIL %s: %s changed CPU %d times, migrated %d\n", f, full, mg[pid], m; bad++ }
        }
        function num(k,   s) {
            if (!match($0, "\"" k "\": [0-9]+")) return -1
            s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s + 0
        }
        END { exit bad > 0 }
    ' FS='[ ]+' "$tmp/trace.txt" "$tmp/stats.json" FS=, "$tmp/o/threads.csv"; then
        fails=$((fails + 1))
    fi
done
echo "trace-stats read back: $runs runs, $fails failed"
[ "$fails" -eq 0 ]
