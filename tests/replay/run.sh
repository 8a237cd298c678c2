#!/bin/sh
# The round trip of a replayed trace (docs/replay.md): each scenario is run with --trace, then
# a replay made from it is run in the same layout: the scenario's lines before `processes:`
# (machine, scheduler, cgroups) and the kernel the run modelled, and each of its processes as `trace: THE TRACE, select:
# { tgid: ITS PID }` in the cgroup its threads ran in. Every thread's share must be within 1
# point of capacity of the original's, the switches of all within 5 % (one thread's vary more
# than that from seed to seed where threads are throttled), and the replay's own trace, read
# by cgsim trace-stats, must show each thread sleeping as often (within 2 %) and as long on
# average (within 2 %) as the original's trace did. The scenarios
# given must keep each process's threads in one cgroup and name no affinity or policy: a
# trace's sched events do not carry those.
#
# usage: tests/replay/run.sh CGSIM SCENARIO...
set -u
. "$(dirname "$0")/../lib/runner-scenarios.sh"
fails=0
runs=0
for f in "$@"; do
    rm -rf "$tmp/a" "$tmp/b"
    if ! "$cgsim" run "$f" -o "$tmp/a" --trace "$tmp/a.txt" >/dev/null 2>"$tmp/stderr"; then
        echo "FAIL $f: cgsim run failed"; sed 's/^/    /' "$tmp/stderr" | head -5
        fails=$((fails + 1)); continue
    fi
    # the replay: the scenario up to processes:, then a process per process of the report
    awk -v scn="$f" -v trace="$tmp/a.txt" '
        FILENAME == scn { if ($0 ~ /^processes:/) nextfile; print; next }
        FILENAME == trace {
            if ($0 !~ /^#/) nextfile
            if ($2 ~ /^[0-9]+$/ && $NF ~ /\//) tgid[$NF] = $3
            next
        }
        FNR > 1 && !($1 in seen) {
            seen[$1] = 1; order[++n] = $1; cg[$1] = $3 == "/" ? "" : $3
            first[$1] = $1 "/" $2
        }
        END {
            print "processes:"
            for (i = 1; i <= n; i++)
                printf "  %s: { cgroup: \"%s\", trace: \"%s\", select: { tgid: %s } }\n",
                    order[i], cg[order[i]], trace, tgid[first[order[i]]]
        }
    ' "$f" FS='[ ]+' "$tmp/a.txt" FS=, "$tmp/a/threads.csv" >"$tmp/replay.yaml"
    # the kernel it ran on too (a scenario may name it after processes:)
    kernel=$(sed -n 's/.*"kernel": "\([^"]*\)".*/\1/p' "$tmp/a/summary.json" | head -1)
    if ! "$cgsim" run "$tmp/replay.yaml" --set "scheduler.kernel=$kernel" -o "$tmp/b" \
            --trace "$tmp/b.txt" >/dev/null 2>"$tmp/stderr"; then
        echo "FAIL $f: the replay failed"; sed 's/^/    /' "$tmp/stderr" | head -5
        fails=$((fails + 1)); continue
    fi
    "$cgsim" trace-stats --json "$tmp/a.txt" >"$tmp/a.json" &&
        "$cgsim" trace-stats --json "$tmp/b.txt" >"$tmp/b.json" || {
        echo "FAIL $f: trace-stats failed"; fails=$((fails + 1)); continue; }
    runs=$((runs + 1))
    # keyed by the original pid: PROCESS/NAME.N -> pid (a.txt); PROCESS/COMM_PID.1 holds it
    if ! awk -v f="$f" -v at="$tmp/a.txt" -v bt="$tmp/b.txt" -v aj="$tmp/a.json" \
            -v bj="$tmp/b.json" -v ac="$tmp/a/threads.csv" '
        function num(k,   s) {
            if (!match($0, "\"" k "\": [0-9]+")) return -1
            s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s + 0
        }
        function orig(name,   s) { s = name; sub(/\.1$/, "", s); sub(/.*_/, "", s); return s }
        FILENAME == at { if ($0 !~ /^#/) nextfile
            if ($2 ~ /^[0-9]+$/ && $NF ~ /\//) apid[$NF] = $2; next }
        FILENAME == bt { if ($0 !~ /^#/) nextfile
            if ($2 ~ /^[0-9]+$/ && $NF ~ /\//) bof[$2] = orig($NF); next }
        FILENAME == aj { if ($0 ~ /"pid":/ && num("life") == 0) {
            asl[num("pid")] = num("sleeps"); asn[num("pid")] = num("sleep_ns") }; next }
        FILENAME == bj { if ($0 ~ /"pid":/ && num("life") == 0 && (num("pid") in bof)) {
            p = bof[num("pid")]; bsl[p] = num("sleeps"); bsn[p] = num("sleep_ns") }; next }
        FILENAME == ac { if (FNR > 1) { p = apid[$1 "/" $2]; name[p] = $1 "/" $2
            ash[p] = $5; asw[p] = $11 }; next }
        FNR > 1 { p = orig($2); bsh[p] = $5; bsw[p] = $11 }
        END {
            for (p in name) {
                if (!(p in bsh)) { printf "FAIL %s: %s not in the replay\n", f, name[p]; bad++; continue }
                d = 100 * (bsh[p] - ash[p]); if (d < 0) d = -d
                if (d > 1) { printf "FAIL %s: %s share %.4f, replayed %.4f\n", f, name[p], ash[p], bsh[p]; bad++ }
                sa += asw[p]; sb += bsw[p]
                if (asl[p] > 0) {
                    d = (bsl[p] - asl[p]) / asl[p]; if (d < 0) d = -d
                    m = (bsn[p] / (bsl[p] ? bsl[p] : 1)) / (asn[p] / asl[p]) - 1; if (m < 0) m = -m
                    if (d > 0.02 || m > 0.02) {
                        printf "FAIL %s: %s sleeps %d (mean %.3f ms), replayed %d (%.3f ms)\n", f, name[p],
                            asl[p], asn[p] / asl[p] / 1e6, bsl[p], bsn[p] / (bsl[p] ? bsl[p] : 1) / 1e6; bad++ }
                }
            }
            if (sa >= 100 && (sb - sa > 0.05 * sa || sa - sb > 0.05 * sa)) {
                printf "FAIL %s: %d switches, replayed %d\n", f, sa, sb; bad++ }
            exit bad > 0
        }
    ' FS='[ ]+' "$tmp/a.txt" "$tmp/b.txt" FS=' ' "$tmp/a.json" "$tmp/b.json" FS=, \
        "$tmp/a/threads.csv" "$tmp/b/threads.csv"; then
        fails=$((fails + 1))
    fi
done
echo "replay round trip: $runs runs, $fails failed"
[ "$fails" -eq 0 ]
