#!/bin/sh
# A kernel's traces read and replayed (tests/replay/README.md): the same run of lat-hogs4 on
# Linux 6.18, recorded at once by the kernel's trace file and by perf sched. Both texts are
# read by cgsim trace-stats, and for each thread of the workload (w.1 .. w.4, d.1) the two
# recorders must agree: CPU time within 0.1 %, sleeps within 0.2 % (and 2). Then each trace is
# replayed over its whole span in the layout it ran in (tests/replay/hogs4-*.yaml, warm-up 0,
# duration the trace's): each of those threads must get the CPU time the trace shows it had,
# within 1 %. Then the same for tests/replay/mixload.c's traces, below.
#
# usage: tests/replay/run-kernel.sh CGSIM
set -u
. "$(dirname "$0")/../lib/runner-cgsim.sh"
dir=$(cd "$(dirname "$0")" && pwd) || exit 2
fails=0
for k in ftrace perf; do
    gzip -dc "$dir/hogs4-$k.txt.gz" >"$tmp/hogs4-$k.txt" && cp "$dir/hogs4-$k.yaml" "$tmp/" ||
        exit 2
    "$cgsim" trace-stats --json "$tmp/hogs4-$k.txt" >"$tmp/$k.json" ||
        { echo "FAIL $k: trace-stats"; fails=$((fails + 1)); continue; }
    span=$(awk '/"first_ns"/ { f = $2 + 0 } /"last_ns"/ { l = $2 + 0 } END { printf "%.0f", (l - f) / 1000 }' \
        FS='[:,]' "$tmp/$k.json")
    (cd "$tmp" && "$cgsim" run --json --set warmup=0 --set "duration=${span}us" "hogs4-$k.yaml") \
        >"$tmp/$k.run.json" 2>"$tmp/stderr" ||
        { echo "FAIL $k: the replay failed"; sed 's/^/    /' "$tmp/stderr"; fails=$((fails + 1)); continue; }
done
[ "$fails" -eq 0 ] || { echo "replay of a kernel's traces: $fails failed"; exit 1; }
# JSON fields of one line, as cgsim prints them
json_fns='
    function num(k,   s) {
        if (!match($0, "\"" k "\": [0-9]+")) return -1
        s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s + 0
    }
    function str(k,   s) {
        if (!match($0, "\"" k "\": \"[^\"]*\"")) return ""
        s = substr($0, RSTART, RLENGTH); sub(/^[^:]*: "/, "", s); sub(/"$/, "", s); return s
    }
'
# the workload's threads by comm in each trace's stats; the replay's by their pid
awk "$json_fns"'
    FNR == 1 { file++ }
    /"pid":/ && (file == 1 || file == 2) {
        c = str("comm"); if (c !~ /^(w\.[1-4]|d\.1)$/ || num("life") != 0) next
        cpu[file, c] = num("cpu_ns"); sl[file, c] = num("sleeps"); pid[file, c] = num("pid")
        rpid[file, num("pid")] = c
    }
    /"name":/ && (file == 3 || file == 4) {
        n = str("name"); p = n; sub(/\.1$/, "", p); sub(/.*_/, "", p)
        if ((file - 2, p + 0) in rpid) got[file - 2, rpid[file - 2, p + 0]] = num("cpu_ns")
    }
    END {
        split("w.1 w.2 w.3 w.4 d.1", cs, " ")
        for (i = 1; i <= 5; i++) {
            c = cs[i]
            if (!((1, c) in cpu) || !((2, c) in cpu)) { printf "FAIL %s: not in both traces\n", c; bad++; continue }
            d = cpu[2, c] - cpu[1, c]; if (d < 0) d = -d
            if (d > 0.001 * cpu[1, c]) { printf "FAIL %s: CPU %.0f ns in the trace file, %.0f in perf'\''s\n", c, cpu[1, c], cpu[2, c]; bad++ }
            d = sl[2, c] - sl[1, c]; if (d < 0) d = -d
            if (d > 2 && d > 0.002 * sl[1, c]) { printf "FAIL %s: %d sleeps in the trace file, %d in perf'\''s\n", c, sl[1, c], sl[2, c]; bad++ }
            for (k = 1; k <= 2; k++) {
                if (!((k, c) in got)) { printf "FAIL %s: not replayed from trace %d\n", c, k; bad++; continue }
                d = got[k, c] - cpu[k, c]; if (d < 0) d = -d
                if (d > 0.01 * cpu[k, c]) { printf "FAIL %s: trace %d shows %.0f ns of CPU, the replay gave %.0f\n", c, k, cpu[k, c], got[k, c]; bad++ }
            }
        }
        printf "replay of a kernel'\''s traces: 2 traces, %d failed\n", bad
        exit bad > 0
    }
' "$tmp/ftrace.json" "$tmp/perf.json" "$tmp/ftrace.run.json" "$tmp/perf.run.json" || fails=1

# mixload (tests/replay/README.md): trace-cmd report -l and perf script of one run; the two
# recorders must agree on each thread of the workload (CPU time within 2 %, sleeps within
# 0.5 % and 3), and the traces replay, trace-cmd's chained (its pipe and mutex wakeups), perf's
# timed, in the layout and with the steal they ran with, against what /proc measured over the
# window (mix-measured.txt): each thread of group app within 1.5 points, the two busy threads
# together within 1.5 points (how two identical busy threads split their time moves by 1-4
# points from one kernel run to the next: tests/replay/README.md).
for k in tracecmd perf; do
    gzip -dc "$dir/mix-$k.txt.gz" >"$tmp/mix-$k.txt" && cp "$dir/mix-$k.yaml" "$tmp/" || exit 2
    "$cgsim" trace-stats --json "$tmp/mix-$k.txt" >"$tmp/mix-$k.json" ||
        { echo "FAIL mix $k: trace-stats"; fails=$((fails + 1)); continue; }
    (cd "$tmp" && "$cgsim" run --json "mix-$k.yaml") >"$tmp/mix-$k.run.json" 2>"$tmp/stderr" ||
        { echo "FAIL mix $k: the replay failed"; sed 's/^/    /' "$tmp/stderr"; fails=$((fails + 1)); }
done
awk "$json_fns"'
    FNR == 1 { file++ }
    /"pid":/ && file <= 2 {
        c = str("comm"); if (c !~ /^(pipe-client|pipe-server|lock-[12]|tick|spin-[12])$/) next
        cpu[file, c] = num("cpu_ns"); sl[file, c] = num("sleeps")
    }
    /"name":/ && file >= 3 && file <= 4 {
        n = str("name"); sub(/_[0-9]+\.1$/, "", n); seen[file - 2, n] = 1
        if (match($0, /"share": [0-9.]+/)) got[file - 2, n] = substr($0, RSTART + 9, RLENGTH - 9) + 0
    }
    file == 5 && $1 !~ /^#/ && $1 != "steal" { meas[$1] = $3 + 0 }
    END {
        split("pipe-client pipe-server lock-1 lock-2 tick spin-1 spin-2", cs, " ")
        for (i = 1; i <= 7; i++) {
            c = cs[i]
            if (!((1, c) in cpu) || !((2, c) in cpu)) { printf "FAIL mix %s: not in both traces\n", c; bad++; continue }
            d = cpu[2, c] - cpu[1, c]; if (d < 0) d = -d
            if (d > 0.02 * cpu[1, c]) { printf "FAIL mix %s: CPU %.0f ns in trace-cmd'\''s, %.0f in perf'\''s\n", c, cpu[1, c], cpu[2, c]; bad++ }
            d = sl[2, c] - sl[1, c]; if (d < 0) d = -d
            if (d > 3 && d > 0.005 * sl[1, c]) { printf "FAIL mix %s: %d sleeps in trace-cmd'\''s, %d in perf'\''s\n", c, sl[1, c], sl[2, c]; bad++ }
            for (k = 1; k <= 2; k++) {
                if (!((k, c) in seen)) { printf "FAIL mix %s: not replayed from trace %d\n", c, k; bad++; continue }
                if (c ~ /^spin-/) { pair[k] += got[k, c]; continue }
                d = 100 * (got[k, c] - meas[c]); if (d < 0) d = -d
                if (d > 1.5) { printf "FAIL mix %s: trace %d replays to %.4f, /proc measured %.4f\n", c, k, got[k, c], meas[c]; bad++ }
            }
        }
        for (k = 1; k <= 2; k++) {
            d = 100 * (pair[k] - meas["spin-1"] - meas["spin-2"]); if (d < 0) d = -d
            if (d > 1.5) { printf "FAIL mix spin-1 + spin-2: trace %d replays to %.4f, /proc measured %.4f\n", k, pair[k], meas["spin-1"] + meas["spin-2"]; bad++ }
        }
        printf "replay of a kernel'\''s traces: mixload, 2 traces, %d failed\n", bad
        exit bad > 0
    }
' "$tmp/mix-tracecmd.json" "$tmp/mix-perf.json" "$tmp/mix-tracecmd.run.json" "$tmp/mix-perf.run.json" \
    "$dir/mix-measured.txt" || fails=1
[ "$fails" -eq 0 ]
