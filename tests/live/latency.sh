#!/bin/bash
# tests/live/latency.sh - wakeup latency of the periodic threads of a layout measured on the
# running kernel, next to cgsim's for the same scenario. Developer tool: needs root, cc with
# pthreads, python3, the cgroup v1 cpu controller at /sys/fs/cgroup/cpu and an otherwise idle
# machine; never run by make test.
#
#   tests/live/latency.sh [-r REPS] [-t SECONDS] [-w WARMUP] [-d DELAYED_US] [-s SEEDS]
#                         [-T DIR] SCENARIO.yaml...
#
# The layout comes from the scenario's `# live:` comment lines, as for tests/live/smp-shares.sh
# (keep them in step with the YAML):
#   # live: cg PATH [shares=N] [quota=QUOTA_US/PERIOD_US]
#   # live: proc NAME CGROUP [setsid] THREAD=SPEC...
# THREAD=SPEC starts thread THREAD.1, THREAD.2, ... (numbered per name, as cgsim numbers them)
# with SPEC `busy` or `duty:RUN_US:PERIOD_US`, and options `,pin:CPU`, `,nice:N`, `,slice:US`
# and `,phase:US` (tests/live/smp-load.c). Cgroup paths are made under a scratch cgroup
# cgsim-lat-PID of the v1 cpu hierarchy; CGROUP `/` is the hierarchy's real root.
#
# Each repetition starts every thread afresh, waits WARMUP seconds (default 2), sends SIGUSR1 to
# every helper process (the measured window starts), waits SECONDS (default 10) and sends SIGUSR2
# (it ends; each helper writes its duty threads' numbers). The latency of an activation is the
# time from when it was due (an absolute timer) to the thread running again after the sleep; an
# overrun (an activation due before the previous one had finished its run) does not sleep and
# is counted apart, as cgsim counts it.
# Printed per duty thread: per repetition the wakeups N, p50, p90, p99 and max in ms, the
# percentage of wakeups with a latency over DELAYED_US (default 200) and of activations that
# were overruns; the mean over the repetitions (default 3) of p50, p90, p99 and both
# percentages; the smallest and largest p90 and p99; `pooled`, the percentiles and the delayed
# percentage of all the repetitions' wakeups together. Then cgsim's numbers for the scenario
# (base variant, seeds 1..SEEDS, default 10): `cgsim`, the means over the seeds ("-" where its
# JSON lacks a key); `pooled`, the percentiles of every seed's wakeups together (from each run's
# latency-cdf.csv, which holds all of a run's wakeups: printed only for a scenario with one
# periodic thread). cgsim counts a wakeup as delayed by its own threshold, whatever -d says.
# Where a layout's outcome depends on the phase of its timers against the ticks, single runs
# differ a lot, on the kernel as in cgsim: compare the pooled rows.
# With -T DIR, each repetition's measured window is also traced (sched_switch, sched_waking,
# sched_wakeup(_new), sched_migrate_task, with record-tgid) into DIR/NAME.rep.N.txt, the kernel's
# trace file as is: tests/trace/wakeups.awk reads it as it reads cgsim's --trace. tracefs is
# mounted at /sys/kernel/tracing for that if it is not, and unmounted afterwards; the tracing
# settings it changes are put back.
set -eu
REPS=3 SECS=10 WARM=2 DELAY_US=200 SIMSEEDS=10 TRACE_DIR=
usage() {
	echo "usage: $0 [-r REPS] [-t SECONDS] [-w WARMUP] [-d DELAYED_US] [-s SEEDS] [-T DIR]" \
		"SCENARIO.yaml..." >&2
	exit 2
}
while getopts r:t:w:d:s:T: o; do
	case $o in
	r) REPS=$OPTARG ;; t) SECS=$OPTARG ;; w) WARM=$OPTARG ;; d) DELAY_US=$OPTARG ;;
	s) SIMSEEDS=$OPTARG ;; T) TRACE_DIR=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $DELAY_US$SIMSEEDS in '' | *[!0-9]*) usage ;; esac
. "$(dirname "$0")/layout.sh"
live_init cgsim-lat
LIVE_LOAD_OPTS=(--delayed-ns $((DELAY_US * 1000)))

# -T: tracing of the measured windows; every setting changed is put back at exit
TR=/sys/kernel/tracing TR_MOUNTED= TR_SAVED=
TR_EVENTS="sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task"
trace_setup() {
	mkdir -p "$TRACE_DIR"
	if [ ! -e $TR/trace ]; then
		mount -t tracefs nodev $TR || { echo "$0: cannot mount tracefs" >&2; exit 2; }
		TR_MOUNTED=1
	fi
	TR_SAVED="$(cat $TR/tracing_on) $(cat $TR/buffer_size_kb) $(cat $TR/options/record-tgid)"
	for e in $TR_EVENTS; do TR_SAVED="$TR_SAVED $(cat $TR/events/sched/$e/enable)"; done
	echo 0 > $TR/tracing_on
	echo 16384 > $TR/buffer_size_kb
	echo 1 > $TR/options/record-tgid
}
trace_restore() {
	[ -n "$TR_SAVED" ] || return 0
	set -- $TR_SAVED
	echo 0 > $TR/tracing_on
	: > $TR/trace
	echo "$2" > $TR/buffer_size_kb; echo "$3" > $TR/options/record-tgid
	shift 3
	for e in $TR_EVENTS; do echo "$1" > $TR/events/sched/$e/enable; shift; done
	echo "$(echo $TR_SAVED | cut -d' ' -f1)" > $TR/tracing_on
	TR_SAVED=
	[ -z "$TR_MOUNTED" ] || umount $TR
}
if [ -n "$TRACE_DIR" ]; then
	LIVE_CLEANUP_HOOK=trace_restore
	trace_setup
fi

# run_layout FILE: one repetition; appends "NAME SPEC N P50 P90 P99 MAX DELAYED OVERRUNS" lines
# (times in ns) to $TMP/rep, one per duty thread
run_layout() {
	local f=$1 name cg tid pid spec o rest waited=0
	local -A name_of=() spec_of=()
	live_start "$f"
	while read -r name cg tid pid spec; do
		name_of[$tid]=$name; spec_of[$tid]=$spec
	done < "$TMP/threads"
	sleep "$WARM"
	# one kill per signal: the helpers' windows start and end within a few ms of each other
	if [ -n "$TRACE_DIR" ]; then
		: > $TR/trace
		for e in $TR_EVENTS; do echo 1 > $TR/events/sched/$e/enable; done
		echo 1 > $TR/tracing_on
	fi
	kill -USR1 "${live_helpers[@]}"
	sleep "$SECS"
	kill -USR2 "${live_helpers[@]}"
	if [ -n "$TRACE_DIR" ]; then
		echo 0 > $TR/tracing_on
		cat $TR/trace > "$TRACE_DIR/$(basename "$f" .yaml).rep.$rep.txt"
	fi
	# a helper waits up to 2 s for activations due before the end that have not run yet
	while read -r o; do
		until [ -f "$o" ]; do
			[ $waited -lt 1000 ] || { echo "$f: no latencies in $o" >&2; exit 1; }
			sleep 0.01; waited=$((waited + 1))
		done
		while read -r tid rest; do
			echo "${name_of[$tid]} ${spec_of[$tid]} $rest" >> "$TMP/rep"
		done < "$o"
		while read -r tid rest; do
			echo "${name_of[$tid]} $rest" >> "$TMP/raw"
		done < "$o.raw"
	done < "$TMP/outs"
	live_stop
}

for f in "$@"; do
	grep -q '^# live: ' "$f" || { echo "$0: $f has no '# live:' lines" >&2; exit 2; }
	: > "$TMP/all"
	: > "$TMP/raw"
	for r in $(seq "$REPS"); do
		: > "$TMP/rep"
		rep=$r run_layout "$f"
		sed "s/^/$r /" "$TMP/rep" >> "$TMP/all"
		if [ -t 2 ]; then printf '\r%s: repetition %d/%d done' "$f" "$r" "$REPS" >&2; fi
	done
	if [ -t 2 ]; then printf '\n' >&2; fi
	# cgsim's numbers; a failing cgsim leaves its columns at "-" rather than losing the
	# measurement just made
	: > "$TMP/json"
	: > "$TMP/cdf"
	for r in $(seq "$SIMSEEDS"); do
		rm -rf "$TMP/sim"
		if "$CGSIM" run "$f" --seed "$r" -o "$TMP/sim" > /dev/null; then
			cat "$TMP/sim/summary.json" >> "$TMP/json"
			tail -n +2 "$TMP/sim/latency-cdf.csv" >> "$TMP/cdf"
		else
			echo "$0: cgsim run $f --seed $r failed" >&2; : > "$TMP/json"; : > "$TMP/cdf"
			break
		fi
	done
	echo "$f ($NCPU CPUs, $REPS x $SECS s after $WARM s, delayed: over $DELAY_US us," \
		"kernel $(uname -r)):"
	python3 - "$TMP/all" "$TMP/json" "$TMP/raw" "$TMP/cdf" "$DELAY_US" <<'EOF'
import sys, json, collections
allf, jsonf, rawf, cdff = sys.argv[1:5]
reps = collections.OrderedDict()
spec = {}
for line in open(allf):
    r, name, sp, n, p50, p90, p99, mx, dl, ov = line.split()
    spec[name] = sp
    reps.setdefault(name, []).append((r, int(n), int(p50), int(p90), int(p99), int(mx),
                                      int(dl), int(ov)))
# cgsim: per thread, per key, the values over the seeds (None where a seed lacks the key)
dec = json.JSONDecoder(); text = open(jsonf).read(); i = 0
sim = collections.defaultdict(lambda: collections.defaultdict(list))
while i < len(text):
    while i < len(text) and text[i].isspace(): i += 1
    if i >= len(text): break
    d, i = dec.raw_decode(text, i)
    for t in d["threads"]:
        acc = sim[t["process"] + "/" + t["name"]]
        for k in ("latency_p50_ns", "latency_p90_ns", "latency_p99_ns"):
            acc[k].append(t.get(k))
        w, dl, ov = t.get("wakeups"), t.get("wakeups_delayed"), t.get("overruns")
        # cgsim's "wakeups" counts every activation; the latencies are those that slept
        ok = None not in (w, dl, ov)
        acc["delayed"].append(100.0 * dl / (w - ov) if ok and w > ov else None)
        acc["overrun"].append(100.0 * ov / w if ok and w else None)
raw = collections.defaultdict(list)
for line in open(rawf):
    name, ns = line.split()
    raw[name].append(int(ns))
# cgsim's latency-cdf.csv: 1000 quantiles of one run's wakeups (all threads), one run per seed:
# together, an equal-weight sample of every seed's wakeups
cdf = sorted(float(l.split(",")[0]) * 1e6 for l in open(cdff) if l.strip())
DELAY_NS = int(sys.argv[5]) * 1000
def rank(v, p):
    return v[max(0, -(-p * len(v) // 100) - 1)]
def mean(v):
    return sum(v) / len(v) if v and None not in v else None
def ms(x):
    return "%8.3f" % (x / 1e6) if x is not None else "%8s" % "-"
def pc(x):
    return "%9.2f" % x if x is not None else "%9s" % "-"
def pct(a, n):
    return 100.0 * a / n if n else 0.0
for name, rows in reps.items():
    print("  thread %s (%s)" % (name, spec[name]))
    print("    %-7s %7s %8s %8s %8s %8s %9s %9s" % ("run", "N", "p50", "p90", "p99", "max",
          "delayed%", "overrun%"))
    for r, n, p50, p90, p99, mx, dl, ov in rows:
        print("    %-7s %7d %s %s %s %s %s %s" % (r, n, ms(p50), ms(p90), ms(p99), ms(mx),
              pc(pct(dl, n)), pc(pct(ov, n + ov))))
    col = lambda k: [row[k] for row in rows]
    print("    %-7s %7s %s %s %s %8s %s %s" % ("mean", "", ms(mean(col(2))), ms(mean(col(3))),
          ms(mean(col(4))), "", pc(mean([pct(x[6], x[1]) for x in rows])),
          pc(mean([pct(x[7], x[1] + x[7]) for x in rows]))))
    print("    %-7s %7s %8s %s %s" % ("min", "", "", ms(min(col(3))), ms(min(col(4)))))
    print("    %-7s %7s %8s %s %s" % ("max", "", "", ms(max(col(3))), ms(max(col(4)))))
    lat = sorted(raw.get(name, []))
    if lat:
        print("    %-7s %7d %s %s %s %s %s" % ("pooled", len(lat), ms(rank(lat, 50)),
              ms(rank(lat, 90)), ms(rank(lat, 99)), ms(lat[-1]),
              pc(100.0 * sum(1 for x in lat if x > DELAY_NS) / len(lat))))
    s = sim.get(name, {})
    print("    %-7s %7s %s %s %s %8s %s %s" % ("cgsim", "", ms(mean(s.get("latency_p50_ns"))),
          ms(mean(s.get("latency_p90_ns"))), ms(mean(s.get("latency_p99_ns"))), "",
          pc(mean(s.get("delayed"))), pc(mean(s.get("overrun")))))
    if cdf and len(reps) == 1:
        print("    %-7s %7s %s %s %s %8s %s" % ("pooled", "", ms(rank(cdf, 50)), ms(rank(cdf, 90)),
              ms(rank(cdf, 99)), "", pc(100.0 * sum(1 for x in cdf if x > DELAY_NS) / len(cdf))))
EOF
done
