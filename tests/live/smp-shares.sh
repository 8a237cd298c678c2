#!/bin/bash
# tests/live/smp-shares.sh - per-thread CPU shares of a layout measured on the running kernel,
# next to cgsim's for the same scenario. Developer tool: needs root, cc with pthreads, the cgroup
# v1 cpu controller at /sys/fs/cgroup/cpu and an otherwise idle machine; never run by make test.
#
#   tests/live/smp-shares.sh [-r REPS] [-t SECONDS] [-w WARMUP] SCENARIO.yaml...
#
# The layout comes from the scenario's `# live:` comment lines, which say in v1 terms what the
# YAML says in cgsim's terms (keep the two in step):
#   # live: cg PATH [shares=N] [quota=QUOTA_US/PERIOD_US]
#   # live: proc NAME CGROUP [setsid] THREAD=SPEC...
# THREAD=SPEC starts thread THREAD.1, THREAD.2, ... (numbered per name, as cgsim numbers them)
# with SPEC `busy` or `duty:RUN_US:PERIOD_US`, and options `,pin:CPU` and `,nice:N`
# (tests/live/smp-load.c). Cgroup paths are made under a scratch cgroup cgsim-smp-PID of the v1
# cpu hierarchy; CGROUP `/` is the hierarchy's real root (where autogroup applies; `setsid`
# gives the process a session, hence an autogroup, of its own).
#
# Each repetition starts every thread afresh, waits WARMUP seconds (default 2), then measures
# SECONDS (default 10) of each thread's CPU time from /proc/PID/task/TID/schedstat. Shares are of
# the whole machine (nproc CPUs). Printed per thread and per cgroup (descendants included): the
# mean over the repetitions (default 3), the smallest and largest, and cgsim's share for the
# scenario (`cgsim run --json`, base variant, the mean over seeds 1..REPS, since cgsim's
# seeds vary the timing as the kernel's runs do), and the difference in points; per thread also
# the migrations in the window (the kernel's se.nr_migrations, cgsim's migrations), both means;
# cgsim's window is the scenario's (duration - warmup, 10 s for smp-*), so compare migration
# counts only with SECONDS equal to it.
set -eu
REPS=3 SECS=10 WARM=2
while getopts r:t:w: o; do
	case $o in
	r) REPS=$OPTARG ;; t) SECS=$OPTARG ;; w) WARM=$OPTARG ;;
	*) echo "usage: $0 [-r REPS] [-t SECONDS] [-w WARMUP] SCENARIO.yaml..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r REPS] [-t SECONDS] [-w WARMUP] SCENARIO.yaml..." >&2; exit 2; }
. "$(dirname "$0")/layout.sh"
live_init cgsim-smp

# migrations PID TID: se.nr_migrations from /proc/PID/task/TID/sched (0 without SCHED_DEBUG)
migrations() { awk '/^se.nr_migrations/ {print $3; f = 1} END {if (!f) print 0}' \
	"/proc/$1/task/$2/sched" 2>/dev/null || echo 0; }

# run_layout FILE: one repetition; appends "NAME CGROUP NS MIGRATIONS" lines to $TMP/rep
run_layout() {
	local f=$1 name cg tid pid spec
	local -a names=() cgs=() tids=() pids=()
	live_start "$f"
	while read -r name cg tid pid spec; do
		names+=("$name"); cgs+=("$cg"); tids+=("$tid"); pids+=("$pid")
	done < "$TMP/threads"
	sleep "$WARM"
	local -a t0=() m0=()
	for i in "${!tids[@]}"; do
		t0[$i]=$(cut -d' ' -f1 "/proc/${pids[$i]}/task/${tids[$i]}/schedstat")
		m0[$i]=$(migrations "${pids[$i]}" "${tids[$i]}")
	done
	sleep "$SECS"
	for i in "${!tids[@]}"; do
		local t1 m1; t1=$(cut -d' ' -f1 "/proc/${pids[$i]}/task/${tids[$i]}/schedstat")
		m1=$(migrations "${pids[$i]}" "${tids[$i]}")
		echo "${names[$i]} ${cgs[$i]} $((t1 - t0[$i])) $((m1 - m0[$i]))" >> "$TMP/rep"
	done
	live_stop
}

for f in "$@"; do
	grep -q '^# live: ' "$f" || { echo "$0: $f has no '# live:' lines" >&2; exit 2; }
	: > "$TMP/all"
	for r in $(seq "$REPS"); do
		: > "$TMP/rep"
		run_layout "$f"
		sed "s/^/$r /" "$TMP/rep" >> "$TMP/all"
		[ -t 2 ] && printf '\r%s: repetition %d/%d done' "$f" "$r" "$REPS" >&2
	done
	[ -t 2 ] && printf '\n' >&2
	for r in $(seq "$REPS"); do "$CGSIM" run "$f" --seed "$r" --json; done | python3 -c '
import json, sys, collections
dec = json.JSONDecoder(); text = sys.stdin.read(); i = 0; acc = collections.defaultdict(list)
while i < len(text):
    while i < len(text) and text[i].isspace(): i += 1
    if i >= len(text): break
    d, i = dec.raw_decode(text, i)
    for t in d["threads"]:
        acc[("thread", t["process"] + "/" + t["name"])].append(t["share"])
        acc[("migr", t["process"] + "/" + t["name"])].append(t["migrations"])
    for g in d["groups"]: acc[("group", g["path"])].append(g["share"])
for (k, n), v in acc.items(): print(k, n, sum(v) / len(v))
' > "$TMP/sim"
	echo "$f ($NCPU CPUs, $REPS x $SECS s, kernel $(uname -r)):"
	python3 - "$TMP/all" "$TMP/sim" "$NCPU" "$SECS" <<'EOF'
import sys, collections
allf, simf, ncpu, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
cap = ncpu * secs * 1e9
th = collections.defaultdict(dict); gr = collections.defaultdict(lambda: collections.defaultdict(float))
mig = collections.defaultdict(list)
for line in open(allf):
    r, name, cg, ns, mg = line.split()
    s = int(ns) / cap
    th[name][r] = s
    mig[name].append(int(mg))
    parts = [] if cg == "/" else cg.split("/")
    for k in range(len(parts) + 1):
        gr["/".join(parts[:k]) or "/"][r] += s
sim = {}
for line in open(simf):
    kind, name, s = line.split()
    sim[(kind, name)] = float(s)
print("  %-8s %-22s %8s %8s %8s %8s %7s %13s" % ("", "name", "kernel", "min", "max", "cgsim",
      "diff", "migr k/cgsim"))
def row(kind, name, reps):
    v = list(reps.values()); m = sum(v) / len(v)
    c = sim.get((kind, name))
    cs = "%8.4f %+7.2f" % (c, 100 * (c - m)) if c is not None else "%8s %7s" % ("-", "-")
    mg = ""
    if kind == "thread":
        mg = " %6.1f/%-6.1f" % (sum(mig[name]) / len(mig[name]), sim.get(("migr", name), 0))
    print("  %-8s %-22s %8.4f %8.4f %8.4f %s%s" % (kind, name, m, min(v), max(v), cs, mg))
for n in sorted(th): row("thread", n, th[n])
for g in sorted(gr):
    if g != "/": row("group", g, gr[g])
EOF
done
