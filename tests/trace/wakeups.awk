# tests/trace/wakeups.awk - the wakeup latencies of one thread in an ftrace text trace, cgsim's
# or a kernel's (the trace file, or trace-cmd report), and what its delayed wakeups waited for.
#
#   awk -v comm=d.1 [-v delayed_us=200] [-v from=SECONDS] -f tests/trace/wakeups.awk TRACE
#
# A wakeup's latency runs from the thread's sched_waking to the sched_switch that puts it on a
# CPU. A wakeup that waited more than delayed_us is "lost" when the CPU it was woken on (its
# sched_wakeup's target_cpu; sched_waking's is where it last ran)
# switched to another task within delayed_us of the wakeup (the wakeup made the CPU reschedule,
# and the pick went to a task with an earlier deadline), "blocked" when it did not (the
# running task kept the CPU until a tick or a sleep). Prints the count, the percentiles
# (nearest rank) and the breakdown.
function us(s,   p) { p = index(s, "."); return (substr(s, 1, p - 1) * 1000000) + substr(s, p + 1) }
function arg(key,   i, n, kv) {
	n = split(args, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], key "=") == 1)
			return substr(kv[i], length(key) + 2)
	return ""
}
BEGIN { if (delayed_us == "") delayed_us = 200; from_us = from * 1000000 }
/^#/ { next }
{
	if (!match($0, /\[[0-9]+\]( [^ ]+)? +[0-9]+\.[0-9]+: [a-z_]+: /)) next
	head = substr($0, RSTART, RLENGTH)
	args = substr($0, RSTART + RLENGTH)
	n = split(head, h, " ")
	cpu = substr(h[1], 2, length(h[1]) - 2) + 0
	ts = us(substr(h[n - 1], 1, length(h[n - 1]) - 1))
	ev = substr(h[n], 1, length(h[n]) - 1)
	if (ts < from_us) next
	if (ev == "sched_waking" && arg("comm") == comm) {
		woke = ts; wcpu = arg("target_cpu") + 0; first = -1
	} else if (ev == "sched_wakeup" && arg("comm") == comm && woke) {
		wcpu = arg("target_cpu") + 0
	} else if (ev == "sched_switch") {
		if (woke && cpu == wcpu && first < 0 && arg("next_comm") != comm)
			first = ts - woke
		if (woke && arg("next_comm") == comm) {
			lat[++nlat] = ts - woke
			if (ts - woke > delayed_us) {
				delayed++
				if (first >= 0 && first <= delayed_us) lost++
				else blocked++
			}
			woke = 0
		}
	}
}
function pct(q,   k) { k = int((q * nlat + 99) / 100); if (k < 1) k = 1; return lat[k] / 1000 }
END {
	if (!nlat) { print comm ": no wakeup in the trace"; exit 1 }
	# insertion sort is too slow for 10^5 samples: a simple heap sort
	for (i = int(nlat / 2); i >= 1; i--) sift(i, nlat)
	for (i = nlat; i > 1; i--) { t = lat[1]; lat[1] = lat[i]; lat[i] = t; sift(1, i - 1) }
	printf "%s: %d wakeups, p50 %.3f p90 %.3f p99 %.3f max %.3f ms; %d (%.1f %%) waited over %d us: " \
	       "%d lost the pick to another task, %d found the CPU held\n", comm, nlat, pct(50), pct(90),
	       pct(99), lat[nlat] / 1000, delayed, 100 * delayed / nlat, delayed_us, lost, blocked
}
function sift(i, n,   c, t) {
	while ((c = 2 * i) <= n) {
		if (c < n && lat[c + 1] > lat[c]) c++
		if (lat[i] >= lat[c]) return
		t = lat[i]; lat[i] = lat[c]; lat[c] = t; i = c
	}
}
