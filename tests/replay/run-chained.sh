#!/bin/sh
# Chained replay (docs/replay.md): a wakeup that one replayed thread made waits for that
# thread. scenarios/sync-pingpong.yaml (two threads resuming each other on 2 CPUs) is traced,
# then its trace is replayed in a layout it was not recorded in: 1 CPU, a busy thread, and pong
# in a group of weight 20, so that pong is slow and ping must wait for it. The truth is the
# same pair written out in that layout, with posts for the resumes (on 1 CPU the thread a
# resume wakes preempts the resumer before it suspends, and rt-app's resume, lost on a thread
# not suspended yet, would stop both: docs/scenario-format.md, `post`). Chained, each of the
# pair's shares must be within 1 point of the truth's and its switches within 5 %; timed,
# where each sleep lasts as recorded whoever runs meanwhile, they are not, by more than 2
# points (else the case would not tell the modes apart).
#
# usage: tests/replay/run-chained.sh CGSIM
set -u
. "$(dirname "$0")/../lib/runner-cgsim.sh"
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
scn=$root/scenarios/sync-pingpong.yaml
"$cgsim" run "$scn" --trace "$tmp/pp.txt" >/dev/null || { echo "FAIL: tracing $scn"; exit 1; }
layout='name: pingpong
duration: 10s
warmup: 1s
machine: { cpus: 1, hz: 250, timer_latency: 0, idle_exit: 0 }
cgroups:
  /: { cgroup.subtree_control: +cpu }
  slow: { cpu.weight: 20 }
processes:
  hog: { threads: { h: { behavior: busy } } }'
cat >"$tmp/truth.yaml" <<EOS
$layout
  pi: { threads: { ping: { start: 1ms, behavior: { phases: [ { run: 1ms }, { post: po/pong.1 }, suspend ] } } } }
  po: { cgroup: slow, threads: { pong: { behavior: { phases: [ suspend, { run: 1ms }, { post: pi/ping.1 } ] } } } }
EOS
for mode in timed chained; do
    cat >"$tmp/$mode.yaml" <<EOS
$layout
  pi: { trace: pp.txt, select: { comm: "ping*" }, mode: $mode }
  po: { cgroup: slow, trace: pp.txt, select: { comm: "pong*" }, mode: $mode }
EOS
done
fails=0
for f in truth timed chained; do
    if ! (cd "$tmp" && "$cgsim" run "$f.yaml" -o "$f" >/dev/null 2>"$f.err"); then
        echo "FAIL: $f"; sed 's/^/    /' "$tmp/$f.err"; exit 1
    fi
done
# threads.csv: process,name,cgroup,cpu_ns,share,...,switches (11); ping/pong by their comm
for mode in timed chained; do
    awk -v mode="$mode" '
        FNR == 1 { file++; next }
        { n = $2; sub(/_.*/, "", n); sub(/\..*/, "", n) }
        file == 1 { share[$1 "/" n] = $5; sw[$1 "/" n] = $11; next }
        {
            k = $1 "/" n; if (!(k in share)) next
            d = 100 * ($5 - share[k]); if (d < 0) d = -d
            s = ($11 - sw[k]) / sw[k]; if (s < 0) s = -s
            if (mode == "chained" && (d > 1 || s > 0.05)) {
                printf "FAIL chained: %s share %.4f (truth %.4f), switches %d (%d)\n", k, $5, share[k], $11, sw[k]; bad++ }
            if (mode == "timed" && k != "hog/h" && d > far) far = d
        }
        END {
            if (mode == "timed" && far <= 2) { printf "FAIL timed: within %.2f points of the truth: the case does not tell the modes apart\n", far; bad++ }
            exit bad > 0
        }
    ' FS=, "$tmp/truth/threads.csv" "$tmp/$mode/threads.csv" || fails=$((fails + 1))
done
echo "chained replay under another layout: $fails failed"
[ "$fails" -eq 0 ]
