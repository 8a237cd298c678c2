#!/bin/sh
# Replayed sleeps, relative or absolute (docs/replay.md). A thread with 2 ms of work every 5 ms
# (a periodic timer, as clock_nanosleep(TIMER_ABSTIME) keeps one) is traced on 2 CPUs beside a
# busy thread, where it is seldom kept waiting, then replayed on 1 CPU beside the busy thread,
# where it often is. The truth is the scenario itself on 1 CPU: the thread gets its 0.4, an
# activation that starts late sleeping that much less before the next. With `sleeps:
# absolute` each replayed sleep ends when it ended in the recording, as the timer's did: the
# replay must give the truth's share within 0.5 points and its switches within 1 %. With
# `sleeps: relative` each lasts as long as recorded, so every wait pushes the rest later: the
# replay must be more than 2 points short (else the case would not tell them apart). All on an
# ideal machine (no scheduler costs), so that a burst replays as the work it was.
#
# usage: tests/replay/run-sleeps.sh CGSIM
set -u
. "$(dirname "$0")/../lib/runner-cgsim.sh"
fails=0
ideal="--set scheduler.costs.switch=0 --set scheduler.costs.wakeup=0 --set scheduler.costs.sleep=0
       --set scheduler.costs.tick=0 --set scheduler.costs.level=0 --set scheduler.costs.walk=0
       --set machine.idle_exit=0"
layout() {
    printf 'name: %s\nduration: 10s\nwarmup: 1s\nmachine: { cpus: %s, hz: 250 }\n' "$1" "$2"
    printf 'processes:\n  hog: { threads: { h: { behavior: busy } } }\n'
}
{ layout recorded 2
  echo '  p: { threads: { d: { behavior: { periodic: { run: 2ms, period: 5ms } } } } }'
} >"$tmp/recorded.yaml"
sed 's/cpus: 2/cpus: 1/' "$tmp/recorded.yaml" >"$tmp/truth.yaml"
for s in relative absolute; do
    { layout "$s" 1
      echo "  p: { trace: rec.txt, select: { comm: \"d*\" }, sleeps: $s }"
    } >"$tmp/$s.yaml"
done
# shellcheck disable=SC2086 # $ideal is a list of arguments
(cd "$tmp" && "$cgsim" run recorded.yaml $ideal --trace rec.txt >/dev/null) ||
    { echo "FAIL: tracing the recorded layout"; exit 1; }
for f in truth relative absolute; do
    # shellcheck disable=SC2086
    if ! (cd "$tmp" && "$cgsim" run "$f.yaml" $ideal -o "$f" >/dev/null 2>"$f.err"); then
        echo "FAIL: $f"; sed 's/^/    /' "$tmp/$f.err"; exit 1
    fi
done
# threads.csv: process,name,cgroup,cpu_ns,share (5),...,switches (11); the thread of process p
awk '
    FNR == 1 { file++; next }
    $1 == "p" { share[file] = $5; sw[file] = $11 }
    END {
        d = 100 * (share[3] - share[1]); if (d < 0) d = -d
        w = (sw[3] - sw[1]) / sw[1]; if (w < 0) w = -w
        if (d > 0.5 || w > 0.01) {
            printf "FAIL absolute: share %.4f, %d switches (truth %.4f, %d)\n", share[3], sw[3], share[1], sw[1]; bad++ }
        if (100 * (share[1] - share[2]) <= 2) {
            printf "FAIL relative: share %.4f against the truth'\''s %.4f: the case does not tell the two apart\n", share[2], share[1]; bad++ }
        exit bad > 0
    }
' FS=, "$tmp/truth/threads.csv" "$tmp/relative/threads.csv" "$tmp/absolute/threads.csv" || fails=1

# The ideal share of a replay with absolute sleeps is the CPU time its steps ask for over the
# life they had in the trace. Recorded beside two busy threads on 2 CPUs, where the thread
# often waits (its sleeps, which end at set times, are shorter by the wait before them, so
# the steps' duty cycle says 0.5), then replayed on 1 CPU beside one: its ideal must be the
# truth's 0.4 within 0.5 points.
sed 's/h: { behavior: busy }/h: { count: 2, behavior: busy }/' "$tmp/recorded.yaml" >"$tmp/busier.yaml"
# shellcheck disable=SC2086
(cd "$tmp" && "$cgsim" run busier.yaml $ideal --trace rec.txt >/dev/null &&
    "$cgsim" run absolute.yaml $ideal -o absolute2 >/dev/null 2>&1) ||
    { echo "FAIL: the busier recording"; exit 1; }
awk '
    FNR == 1 { file++; next }
    $1 == "p" { ideal[file] = $6 }
    END {
        d = 100 * (ideal[2] - ideal[1]); if (d < 0) d = -d
        if (d > 0.5) { printf "FAIL absolute: ideal %.4f (truth %.4f)\n", ideal[2], ideal[1]; bad++ }
        exit bad > 0
    }
' FS=, "$tmp/truth/threads.csv" "$tmp/absolute2/threads.csv" || fails=1
echo "replayed sleeps, relative and absolute: $fails failed"
[ "$fails" -eq 0 ]
