# tests/trace/check.awk - read a cgsim trace back and hold it against the run's report.
#
#   awk -v exact=1 -f tests/trace/check.awk DIR/summary.json TRACE
#
# From the trace alone: lines in time order; on each CPU, every sched_switch's prev is the
# task the previous switch put there; no task is switched in on a CPU while it runs on another;
# a sched_waking's target_cpu is the CPU the thread was last on (the kernel writes task_cpu(p),
# before it chooses one), and a thread's first start has none (wake_up_new_task() writes only
# sched_wakeup_new).
# Against summary.json (the measured window the trace's header names): each thread's CPU time
# rebuilt from its switch intervals, clipped to the window, its switch-ins, wakeups
# (sched_wakeup; a thread's start, sched_wakeup_new, is not one: docs/latency.md) and
# migrations. With exact=1 (a run whose overhead costs and idle exit are 0) the CPU time must
# equal cpu_ns within the timestamps' truncation to microseconds; otherwise it may exceed
# cpu_ns by the overhead the CPU spent while the thread was switched in, and must not fall
# short of it. Prints one line per failure; exit status 1 on any.
function fail(msg) { print FILENAME ": " msg; bad = 1 }
function us(s,   p) { p = index(s, "."); return (substr(s, 1, p - 1) * 1000000) + substr(s, p + 1) }
function arg(key,   i, n, kv) {
	n = split(args, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], key "=") == 1)
			return substr(kv[i], length(key) + 2)
	return ""
}
# the part of [a, b] inside the window, in microseconds
function clip(a, b) { if (a < W0) a = W0; if (b > W1) b = W1; return b > a ? b - a : 0 }
# "in the window" for a counted event: after the start and at or before the end; an event
# printed at the window's start (truncated) may have been either side of it
function counted(pid, what) {
	if (ts > W0 && ts <= W1) n[what, pid]++
	else if (ts == W0) edge[what, pid]++
}

# summary.json: one line per thread, "key": value pairs
function jget(key,   p, rest) {
	p = index($0, "\"" key "\": ")
	if (!p) return ""
	rest = substr($0, p + length(key) + 4)
	if (substr(rest, 1, 1) == "\"") {
		rest = substr(rest, 2)
		return substr(rest, 1, index(rest, "\"") - 1)
	}
	match(rest, /^[0-9.]+/)
	return substr(rest, 1, RLENGTH)
}
NR == FNR {
	if (index($0, "\"process\": ") && index($0, "\"cpu_ns\": ")) {
		name = jget("process") "/" jget("name")
		cpu_ns[name] = jget("cpu_ns")
		sw[name] = jget("switches")
		# an activation that began while the last one still ran did not sleep or wake
		wk[name] = jget("wakeups") - jget("overruns")
		mg[name] = jget("migrations")
	}
	next
}
/^# cgsim: measured window / {
	W0 = us($5); W1 = us($7)
	next
}
/^# +[0-9]+ +[0-9]+ / && NF >= 5 {
	if ($2 >= 1000) thread[$2] = $5	# pid -> PROCESS/NAME.N
	next
}
/^#/ { next }
{
	# COMM-PID (TGID) [CPU] FLAGS TS: EVENT: ARGS; the comm holds no spaces
	if (!match($0, /\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: [a-z_]+: /)) {
		fail("line " FNR ": not an ftrace line: " $0)
		next
	}
	head = substr($0, RSTART, RLENGTH)
	args = substr($0, RSTART + RLENGTH)
	split(head, h, " ")
	cpu = substr(h[1], 2, length(h[1]) - 2) + 0
	ts = us(substr(h[3], 1, length(h[3]) - 1))
	ev = substr(h[4], 1, length(h[4]) - 1)
	if (ts < last) fail("line " FNR ": time goes back, " ts " after " last " us")
	last = ts
	lines++
	if (ev == "sched_switch") {
		prev = arg("prev_pid") + 0; next_ = arg("next_pid") + 0
		if ((cpu in cur) && cur[cpu] != prev)
			fail("line " FNR ": CPU " cpu " switches out pid " prev " but runs " cur[cpu])
		if (prev) {
			was[prev] = cpu
			t[prev] += clip(since[cpu], ts)
			nint[prev]++
			on[prev] = ""
		}
		if (next_) {
			if (on[next_] != "")
				fail("line " FNR ": pid " next_ " switched in on CPU " cpu \
				     " while it runs on CPU " on[next_])
			on[next_] = cpu
			counted(next_, "switch")
		}
		cur[cpu] = next_
		since[cpu] = ts
		switches++
	} else if (ev == "sched_waking") {
		p = arg("pid") + 0
		if (!(p in was))
			fail("line " FNR ": sched_waking of pid " p ", which never ran")
		else if (arg("target_cpu") + 0 != was[p])
			fail("line " FNR ": sched_waking of pid " p " gives CPU " arg("target_cpu") + 0 \
			     ", where it last was " was[p])
	} else if (ev == "sched_wakeup") {
		counted(arg("pid") + 0, "wakeup")
		wakeups++
	} else if (ev == "sched_migrate_task") {
		if (arg("orig_cpu") == arg("dest_cpu")) fail("line " FNR ": a migration to the same CPU")
		was[arg("pid") + 0] = arg("dest_cpu") + 0
		counted(arg("pid") + 0, "migrate")
	}
}
END {
	if (!W1) fail("no measured window in the header")
	if (!switches || !lines) fail("no sched_switch in the trace")
	for (c in cur)
		if (cur[c]) { t[cur[c]] += clip(since[c], W1); nint[cur[c]]++ }
	for (pid in thread) {
		name = thread[pid]
		if (!(name in cpu_ns)) { fail("pid " pid " (" name ") is not in summary.json"); continue }
		rebuilt = t[pid] * 1000
		tol = (nint[pid] + 1) * 1000	# each interval's ends truncated to the microsecond
		d = rebuilt - cpu_ns[name]
		if (exact ? (d > tol || d < -tol) : d < -tol)
			fail(name ": CPU time from the trace " rebuilt " ns, the report's " cpu_ns[name] \
			     " ns (" nint[pid] " intervals)")
		split("switch wakeup migrate", what, " ")
		split(sw[name] " " wk[name] " " mg[name], want, " ")
		for (k = 1; k <= 3; k++) {
			got = n[what[k], pid] + 0; amb = edge[what[k], pid] + 0
			if (got > want[k] || got + amb < want[k])
				fail(name ": " got " " what[k] "s in the window (" amb \
				     " at its start), the report's " want[k])
		}
		checked++
	}
	if (!checked) fail("no thread in the pid map")
	exit bad
}
