#!/bin/bash
# Records tests/replay/mixload.c on this machine's kernel (tests/replay/README.md): its threads in
# two groups of the cgroup v1 cpu hierarchy, with the kernel's trace file, trace-cmd and perf
# sched all at once, and what /proc measured over the window.
#
#   tests/replay/record.sh OUTDIR [WARMUP_S [WINDOW_S]]
#
# Needs root, the v1 cpu hierarchy at /sys/fs/cgroup/cpu, 2 online CPUs, trace-cmd and perf.
# The threads go to CG/app (pipe-*, lock-*, tick) and CG/batch (spin-*), both cpu.shares 1024,
# under CG = /sys/fs/cgroup/cpu/cgsim-rec-PID; the main thread stays where the script runs. After
# WARMUP_S (1) the window of WINDOW_S (10) is measured: each thread's CPU time from
# /proc/PID/task/TID/schedstat and the machine's steal time from /proc/stat; its ends are
# marked in the trace (trace_marker: "cgsim window start", "cgsim window end").
#
# Writes to OUTDIR: mix-ftrace.txt (the trace file, with record-tgid), mix-tracecmd.txt
# (`trace-cmd extract` of the same buffer, then `trace-cmd report -l`), mix-perf.txt
# (`perf record` of the same events system-wide, then `perf script`; what perf said on stderr,
# lost events included, in mix-perf.err) and mix-measured.txt.
# Every tracefs setting it changes is put back, tracefs unmounted if it mounted it, the
# cgroups removed. Developer tool, never run by make test.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [WARMUP_S [WINDOW_S]]" >&2; exit 2; }
out=$1 warmup=${2:-1} window=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
V1=/sys/fs/cgroup/cpu
[ -d "$V1" ] && [ -w "$V1" ] || { echo "$0: needs root and the v1 cpu hierarchy at $V1" >&2; exit 2; }
for c in trace-cmd perf cc; do
    command -v "$c" >/dev/null || { echo "$0: needs $c" >&2; exit 2; }
done
mkdir -p "$out"
tmp=$(mktemp -d)
cg=$V1/cgsim-rec-$$
mounted=0 load=0 perfpid=0
events="sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_fork sched_process_exit"
declare -A saved

cleanup() {
    set +e
    [ "$perfpid" -gt 0 ] && kill -INT "$perfpid" 2>/dev/null && wait "$perfpid"
    [ "$load" -gt 0 ] && kill "$load" 2>/dev/null && wait "$load" 2>/dev/null
    if [ -d "$T/events" ]; then
        echo 0 >"$T/tracing_on"
        for k in "${!saved[@]}"; do echo "${saved[$k]}" >"$T/$k"; done
        echo >"$T/trace"
    fi
    for d in "$cg/app" "$cg/batch" "$cg"; do
        if [ -d "$d" ]; then
            while read -r t; do echo "$t" >"$V1/tasks"; done <"$d/tasks"
            rmdir "$d"
        fi
    done
    [ "$mounted" -eq 1 ] && umount "$T"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -d "$T/events" ]; then
    mount -t tracefs nodev "$T"
    mounted=1
fi
for k in tracing_on buffer_size_kb options/record-tgid; do saved[$k]=$(cat "$T/$k"); done
for e in $events; do saved[events/sched/$e/enable]=$(cat "$T/events/sched/$e/enable"); done
saved[buffer_size_kb]=${saved[buffer_size_kb]% *}    # "1410 (expanded: ...)"

cc -O2 -pthread -o "$tmp/mixload" "$here/mixload.c"
mkdir "$cg" "$cg/app" "$cg/batch"
echo 1024 >"$cg/app/cpu.shares"
echo 1024 >"$cg/batch/cpu.shares"

echo 0 >"$T/tracing_on"
echo 30000 >"$T/buffer_size_kb"
echo 1 >"$T/options/record-tgid"
for e in $events; do echo 1 >"$T/events/sched/$e/enable"; done
echo >"$T/trace"

mkfifo "$tmp/in"
"$tmp/mixload" <"$tmp/in" >"$tmp/tids" &
load=$!
exec 3>"$tmp/in"
until grep -q '^ready$' "$tmp/tids"; do
    kill -0 "$load" 2>/dev/null || { echo "$0: mixload failed" >&2; exit 1; }
    sleep 0.05
done
while read -r name tid; do
    [ "$name" = ready ] && continue
    case $name in spin-*) g=batch ;; *) g=app ;; esac
    echo "$tid" >"$cg/$g/tasks"
done <"$tmp/tids"

pev=
for e in $events; do pev="$pev -e sched:$e"; done
# perf sched record's events less its sched_stat_* ones, which cgsim only counts: with them,
# perf took a sixth of this 2-CPU machine and still lost a quarter of its events
perf record -a -c 1 $pev -o "$tmp/perf.data" >/dev/null 2>"$out/mix-perf.err" &
perfpid=$!
sleep 1
echo 1 >"$T/tracing_on"
echo go >&3
sleep "$warmup"

sample() {
    local name tid
    while read -r name tid; do
        [ "$name" = ready ] && continue
        read -r ns _ <"/proc/$load/task/$tid/schedstat"
        echo "$name $tid $ns"
    done <"$tmp/tids"
    head -1 /proc/stat
}
echo "cgsim window start" >"$T/trace_marker"
t0=$(date +%s%N)
sample >"$tmp/s0"
sleep "$window"
sample >"$tmp/s1"
t1=$(date +%s%N)
echo "cgsim window end" >"$T/trace_marker"
sleep 0.5
echo 0 >"$T/tracing_on"
kill -INT "$perfpid"
wait "$perfpid" || true
perfpid=0

cat "$T/trace" >"$out/mix-ftrace.txt"
trace-cmd extract -o "$tmp/trace.dat" >/dev/null 2>&1
trace-cmd report -l "$tmp/trace.dat" >"$out/mix-tracecmd.txt" 2>/dev/null
perf script -i "$tmp/perf.data" -F comm,pid,tid,cpu,time,event,trace 2>/dev/null >"$out/mix-perf.txt"

# shares of the 2 CPUs over the window; steal as a share of them too, and each thread's share
# of what the hypervisor left (the time the guest's CPUs ran)
hz=$(getconf CLK_TCK)
awk -v t0="$t0" -v t1="$t1" -v hz="$hz" -v window="$window" -v kernel="$(uname -r)" '
    FNR == 1 { f++ }
    $1 == "cpu" { st[f] = $9; next }
    { ns[f, $1] = $3; tid[$1] = $2; if (f == 1) order[++n] = $1 }
    END {
        cap = 2 * (t1 - t0)
        steal = (st[2] - st[1]) / hz * 1e9 / cap
        printf "# mixload on %s, window %s s (%.6f s measured); shares of 2 CPUs\n", kernel, window, (t1 - t0) / 1e9
        printf "steal %.4f\n", steal
        for (i = 1; i <= n; i++) {
            k = order[i]; s = (ns[2, k] - ns[1, k]) / cap
            printf "%s %d %.4f %.4f\n", k, tid[k], s, s / (1 - steal)
        }
    }' "$tmp/s0" "$tmp/s1" >"$out/mix-measured.txt"
cat "$out/mix-measured.txt"
