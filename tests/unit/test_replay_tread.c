// SPDX-License-Identifier: MIT
/*
 * Unit tests of reading traces (sim/replay/tread.h) and of what is derived from them
 * (sim/replay/tstats.h). The lines are written as the kernel's tracepoints print them
 * (include/trace/events/sched.h), as trace-cmd's and perf's sched plugins print them, and as
 * the trace file prints lost events; the expected figures are worked out by hand from the
 * events' times.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sim/replay/tread.h"
#include "sim/replay/tstats.h"

/* All the events of @text, at most @max, into @ev; the count, or -1 with @err set. */
static int read_text(const char *text, struct tread_event *ev, int max, char *err, size_t errlen,
		     struct tread_counts *counts)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct tread *r;
	int n = 0, rc;

	cr_assert_not_null(f);
	r = tread_open(f, "t.txt");
	cr_assert_not_null(r);
	while (n < max && (rc = tread_next(r, &ev[n], err, errlen)) > 0)
		n++;
	if (n < max && rc < 0)
		n = -1;
	if (counts)
		*counts = *tread_counts(r);
	tread_close(r);
	fclose(f);
	return n;
}

Test(tread, the_kernels_trace_file_with_tgid)
{
	const char *text =
		"# tracer: nop\n"
		"#\n"
		"           <...>-1234    (   1200) [001] d..2.   100.000001: sched_switch: "
		"prev_comm=kworker/1:2 H prev_pid=1234 prev_prio=120 prev_state=R+ ==> "
		"next_comm=a b-c pid=7 next_pid=5 next_prio=100\n"
		"          <idle>-0       (-------) [000] dNh4.   100.5: sched_waking: "
		"comm=db pid=42 prio=120 target_cpu=003\n";
	struct tread_event ev[4];
	char err[256];

	cr_assert_eq(read_text(text, ev, 4, err, sizeof(err), NULL), 2, "%s", err);
	cr_assert_eq(ev[0].kind, TREAD_SWITCH);
	cr_assert_eq(ev[0].ns, 100000001000ull);
	cr_assert_eq(ev[0].cpu, 1);
	cr_assert_eq(ev[0].ctx_pid, 1234);
	cr_assert_eq(ev[0].ctx_tgid, 1200);
	cr_assert_str_eq(ev[0].ctx_comm, "<...>");
	cr_assert_str_eq(ev[0].a.comm, "kworker/1:2 H");	/* a comm with a blank */
	cr_assert_eq(ev[0].a.pid, 1234);
	cr_assert_str_eq(ev[0].prev_state, "R+");
	cr_assert_str_eq(ev[0].b.comm, "a b-c pid=7");	/* up to " next_pid=" */
	cr_assert_eq(ev[0].b.pid, 5);
	cr_assert_eq(ev[0].b.prio, 100);
	cr_assert_not(ev[0].irq);
	cr_assert_eq(ev[1].kind, TREAD_WAKING);
	cr_assert_eq(ev[1].ns, 100500000000ull);
	cr_assert_eq(ev[1].ctx_pid, 0);
	cr_assert_eq(ev[1].ctx_tgid, -1);		/* (-------) */
	cr_assert(ev[1].irq, "the flags say hardirq");
	cr_assert_eq(ev[1].a.pid, 42);
	cr_assert_eq(ev[1].target_cpu, 3);
}

Test(tread, trace_cmd_report_in_its_plugins_form)
{
	const char *text =
		"cpus=2\n"
		"            bash-4821  [000]  5000.123456789: sched_switch:         "
		"bash:4821 [120] S ==> swapper/0:0 [120]\n"
		"          <idle>-0     [001]  5000.2: sched_wakeup:         bash:4821 [120] "
		"success=1 CPU:001\n"
		"CPU:1 [LOST 12 EVENTS]\n"
		"            bash-4821  [001]  5000.3: sched_process_fork:   comm=bash pid=4821 "
		"child_comm=bash child_pid=4830\n"
		"            bash-4821  [001]  5000.4: sched_stat_runtime:   comm=bash pid=4821 "
		"runtime=1 [ns] vruntime=2 [ns]\n";
	struct tread_event ev[8];
	struct tread_counts c;
	char err[256];

	cr_assert_eq(read_text(text, ev, 8, err, sizeof(err), &c), 5, "%s", err);
	cr_assert_eq(ev[0].kind, TREAD_SWITCH);
	cr_assert_eq(ev[0].ns, 5000123456789ull);
	cr_assert_str_eq(ev[0].a.comm, "bash");
	cr_assert_eq(ev[0].a.pid, 4821);
	cr_assert_eq(ev[0].a.prio, 120);
	cr_assert_str_eq(ev[0].prev_state, "S");
	cr_assert_str_eq(ev[0].b.comm, "swapper/0");
	cr_assert_eq(ev[0].b.pid, 0);
	cr_assert_eq(ev[1].kind, TREAD_WAKEUP);
	cr_assert_eq(ev[1].a.pid, 4821);
	cr_assert_eq(ev[1].target_cpu, 1);
	cr_assert_eq(ev[2].kind, TREAD_LOST);
	cr_assert_eq(ev[2].cpu, 1);
	cr_assert_eq(ev[3].kind, TREAD_FORK);
	cr_assert_eq(ev[3].b.pid, 4830);
	cr_assert_eq(ev[4].kind, TREAD_OTHER);
	cr_assert_str_eq(ev[4].name, "sched_stat_runtime");
	cr_assert_eq(c.other, 1);
	cr_assert_eq(c.lost, 1);
}

/* trace-cmd report -l: the CPU and the flags in one word, "1dNs4." (CPU 1, flags "dNs4.") */
Test(tread, trace_cmd_report_with_latency_flags)
{
	const char *text =
		"cpus=16\n"
		"    bash-10297   1d..2. 54131.409024: sched_switch:         bash:10297 [120] S ==> "
		"memfd:sealed-91:9594 [120]\n"
		"  <idle>-0      12dNs4. 54131.416411: sched_wakeup:         rcu_preempt:15 [120] "
		"CPU:012\n"
		"a 3d..2. b-77   0d..2 54131.5: sched_waking:         comm=x pid=8 prio=120 "
		"target_cpu=000\n";
	struct tread_event ev[4];
	struct tread_counts c;
	char err[256];

	cr_assert_eq(read_text(text, ev, 4, err, sizeof(err), &c), 3, "%s", err);
	cr_assert_eq(ev[0].kind, TREAD_SWITCH);
	cr_assert_eq(ev[0].cpu, 1);
	cr_assert_eq(ev[0].ns, 54131409024000ull);
	cr_assert_str_eq(ev[0].ctx_comm, "bash");
	cr_assert_eq(ev[0].ctx_pid, 10297);
	cr_assert_str_eq(ev[0].b.comm, "memfd:sealed-91");	/* up to the last colon */
	cr_assert_eq(ev[0].b.pid, 9594);
	cr_assert_not(ev[0].irq);
	cr_assert_eq(ev[1].kind, TREAD_WAKEUP);
	cr_assert_eq(ev[1].cpu, 12);
	cr_assert(ev[1].irq, "'s' in the third flag: softirq");
	cr_assert_eq(ev[1].target_cpu, 12);
	/* four flags, as kernels before 5.17 printed them; a comm holding such a word */
	cr_assert_eq(ev[2].kind, TREAD_WAKING);
	cr_assert_eq(ev[2].cpu, 0);
	cr_assert_str_eq(ev[2].ctx_comm, "a 3d..2. b");
	cr_assert_eq(ev[2].ctx_pid, 77);
	cr_assert(c.flags);
}

Test(tread, perf_script)
{
	const char *text =
		"            perf 12345 [002]  8123.456789:       sched:sched_switch: prev_comm=perf "
		"prev_pid=12345 prev_prio=120 prev_state=D ==> next_comm=swapper/2 next_pid=0 "
		"next_prio=120\n"
		"   my prog 1/77 [003]  8123.5:       sched:sched_migrate_task: comm=my prog "
		"pid=77 prio=120 orig_cpu=3 dest_cpu=1\n";
	struct tread_event ev[4];
	char err[256];
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct tread *r = tread_open(f, "p.txt");

	cr_assert_eq(tread_next(r, &ev[0], err, sizeof(err)), 1, "%s", err);
	cr_assert_eq(tread_format(r), TREAD_FMT_PERF);
	cr_assert_eq(ev[0].kind, TREAD_SWITCH);
	cr_assert_str_eq(ev[0].ctx_comm, "perf");
	cr_assert_eq(ev[0].ctx_pid, 12345);
	cr_assert_str_eq(ev[0].prev_state, "D");
	cr_assert_eq(tread_next(r, &ev[1], err, sizeof(err)), 1, "%s", err);
	cr_assert_eq(ev[1].kind, TREAD_MIGRATE);
	cr_assert_str_eq(ev[1].ctx_comm, "my prog");
	cr_assert_eq(ev[1].ctx_pid, 77, "perf's PID/TID: the thread is the TID");
	cr_assert_eq(ev[1].ctx_tgid, 1);
	cr_assert_str_eq(ev[1].a.comm, "my prog");
	cr_assert_eq(ev[1].orig_cpu, 3);
	cr_assert_eq(ev[1].dest_cpu, 1);
	cr_assert_eq(tread_next(r, &ev[2], err, sizeof(err)), 0);
	tread_close(r);
	fclose(f);
}

Test(tread, a_cut_off_last_line_is_skipped_a_bad_one_elsewhere_is_an_error)
{
	struct tread_event ev[4];
	struct tread_counts c;
	char err[256];
	const char *ok = "    a-1 [000] 1.000000: sched_waking: comm=b pid=2 prio=120 target_cpu=000\n"
			 "    a-1 [000] 1.000001: sched_wak";

	cr_assert_eq(read_text(ok, ev, 4, err, sizeof(err), &c), 1, "%s", err);
	cr_assert(c.truncated);
	cr_assert_eq(read_text("    a-1 [000] 1.0: sched_waking: comm=b pid=2 prio=120\n"
			       "    a-1 [000] 1.000001: sched_waking: comm=b pid=x prio=120\n"
			       "    a-1 [000] 1.000002: foo: \n",
			       ev, 4, err, sizeof(err), NULL), -1);
	cr_assert_str_eq(err, "t.txt:2:50: error: pid= is not a number", "%s", err);
	cr_assert_eq(read_text("hello world\n", ev, 4, err, sizeof(err), NULL), -1);
	cr_assert(strstr(err, "t.txt:1:1: error: no CPU column"), "%s", err);
	cr_assert_eq(read_text("    a-1 [000] x.5: sched_waking: comm=b pid=2\n", ev, 4, err,
			       sizeof(err), NULL), -1);
	cr_assert(strstr(err, "t.txt:1:15: error: expected a timestamp"), "%s", err);
	cr_assert_eq(read_text("    a-1 [000] 1.5: sched_switch: prev_comm=a prev_pid=1\n", ev, 4,
			       err, sizeof(err), NULL), -1);
	cr_assert(strstr(err, "sched_switch without ' ==> '"), "%s", err);
}

Test(tread, nul_bytes_and_lines_too_long_are_errors)
{
	static const char nul[] = "    a-1 [000] 1.0: sched_wa\0king: comm=b pid=2 prio=120\n";
	static char longl[TREAD_LINE_MAX + 64];
	struct tread_event ev;
	char err[256];
	FILE *f = fmemopen((void *)nul, sizeof(nul) - 1, "r");
	struct tread *r = tread_open(f, "n.txt");

	cr_assert_eq(tread_next(r, &ev, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "n.txt:1:28: error: a NUL byte in a line", "%s", err);
	tread_close(r);
	fclose(f);
	memset(longl, 'x', sizeof(longl) - 2);
	longl[sizeof(longl) - 2] = '\n';
	cr_assert_eq(read_text(longl, &ev, 1, err, sizeof(err), NULL), -1);
	cr_assert(strstr(err, "t.txt:1:8193: error: a line longer than 8192 bytes"), "%s", err);
}

/* Events fed to a tstats one by one, as lines of one CPU's trace in the TGID form. */
static struct tstats *stats_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct tread *r = tread_open(f, "s.txt");
	struct tstats *st = tstats_new();
	struct tread_event ev;
	char err[256];
	int rc;

	cr_assert(f && r && st);
	while ((rc = tread_next(r, &ev, err, sizeof(err))) > 0)
		cr_assert_eq(tstats_add(st, &ev), 0);
	cr_assert_eq(rc, 0, "%s", err);
	tstats_finish(st);
	tread_close(r);
	fclose(f);
	return st;
}

static const struct tstats_thread *thread_pid(const struct tstats *st, int pid, unsigned life)
{
	for (size_t i = 0; i < tstats_nthreads(st); i++)
		if (tstats_thread(st, i)->pid == pid && tstats_thread(st, i)->life == life)
			return tstats_thread(st, i);
	cr_assert_fail("no thread %d (life %u)", pid, life);
	return NULL;
}

#define SW(t, prev, pp, st, next, np)                                                         \
	" x-1 [000] " t ": sched_switch: prev_comm=" prev " prev_pid=" pp " prev_prio=120 "      \
	"prev_state=" st " ==> next_comm=" next " next_pid=" np " next_prio=120\n"
#define WK(t, ctx, cp, comm, pid)                                                               \
	" " ctx "-" cp " [000] " t ": sched_waking: comm=" comm " pid=" pid " prio=120 "         \
	"target_cpu=000\n"

/*
 * One CPU: a runs 1-3 ms (from the CPU's first event: its burst's start is not in the trace)
 * and sleeps; b runs 3-5, wakes a at 4 and is preempted by it at 5 (1 ms of latency); a runs
 * 5-7 and sleeps; b runs 7-10, the end.
 */
Test(tstats, bursts_sleeps_latencies_and_cpu_time_by_hand)
{
	struct tstats *st = stats_of(
		" a-10 [000] 0.001000: sched_stat_runtime: comm=a pid=10 runtime=0\n"
		SW("0.003000", "a", "10", "S", "b", "11")
		WK("0.004000", "b", "11", "a", "10")
		SW("0.005000", "b", "11", "R", "a", "10")
		SW("0.007000", "a", "10", "S", "b", "11")
		" b-11 [000] 0.010000: sched_stat_runtime: comm=b pid=11 runtime=0\n");
	const struct tstats_thread *a = thread_pid(st, 10, 0), *b = thread_pid(st, 11, 0);

	cr_assert_eq(tstats_first(st), 1000000);
	cr_assert_eq(tstats_last(st), 10000000);
	cr_assert_eq(a->cpu_ns, 2000000 + 2000000, "1-3 ms from the CPU's first event, and 5-7");
	cr_assert_eq(a->bursts, 1, "only the burst whose wakeup is in the trace");
	cr_assert_eq(a->burst_ns, 2000000);
	cr_assert_eq(a->sleeps, 1);
	cr_assert_eq(a->sleep_ns, 1000000, "3 to the waking at 4");
	cr_assert_eq(a->wakeups, 1);
	cr_assert_eq(a->lat_max, 1000000, "woken at 4, on the CPU at 5");
	cr_assert_eq(tstats_latency_q(a, 0.5), 1000000);
	cr_assert_eq(a->woken_by_task, 1);
	cr_assert_eq(b->cpu_ns, 2000000 + 3000000, "3-5 and 7-10, the end");
	cr_assert_eq(b->preempts, 1);
	cr_assert_eq(b->bursts, 0, "b never slept");
	cr_assert_eq(a->wait_ns, 1000000, "woken at 4, on the CPU at 5");
	cr_assert_eq(b->wait_ns, 2000000, "preempted at 5, back at 7; not before 3 (unknown)");
	tstats_free(st);
}

/* The same trace recorded: each thread's life as the steps a replay runs. */
Test(tstats, recorded_steps_are_the_bursts_and_sleeps_from_the_start_of_each_life)
{
	const char *text = " a-10 [000] 0.001000: sched_stat_runtime: comm=a pid=10 runtime=0\n"
		SW("0.003000", "a", "10", "S", "b", "11")
		WK("0.004000", "b", "11", "a", "10")
		SW("0.005000", "b", "11", "R", "a", "10")
		SW("0.007000", "a", "10", "S", "b", "11")
		" b-11 [000] 0.010000: sched_stat_runtime: comm=b pid=11 runtime=0\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct tread *r = tread_open(f, "s.txt");
	struct tstats *st = tstats_new();
	const struct tstats_thread *a, *b;
	struct tread_event ev;
	char err[256];

	tstats_record(st);
	while (tread_next(r, &ev, err, sizeof(err)) > 0)
		cr_assert_eq(tstats_add(st, &ev), 0);
	cr_assert_eq(tstats_finish(st), 0);
	a = thread_pid(st, 10, 0);
	b = thread_pid(st, 11, 0);
	/* a: running since the CPU's first event; 2 ms, asleep 1 ms, 2 ms, asleep to the end */
	cr_assert_eq(a->start_ns, 1000000);
	cr_assert_eq(a->nsteps, 3);
	cr_assert(a->steps[0].kind == TSTATS_RUN && a->steps[0].ns == 2000000);
	cr_assert(a->steps[1].kind == TSTATS_SLEEP && a->steps[1].ns == 1000000);
	cr_assert_eq(a->steps[1].pid, 11, "b ended the sleep");
	cr_assert_eq(a->steps[1].at, 4000000, "b woke it at 4 ms");
	cr_assert(a->steps[2].kind == TSTATS_RUN && a->steps[2].ns == 2000000);
	/*
	 * b: from its switch-in at 3 ms, one burst of 2 + 3 ms (the preemption splits nothing)
	 * in which, 1 ms in, it woke a
	 */
	cr_assert_eq(b->start_ns, 3000000);
	cr_assert_eq(b->nsteps, 3);
	cr_assert(b->steps[0].kind == TSTATS_RUN && b->steps[0].ns == 1000000);
	cr_assert(b->steps[1].kind == TSTATS_WAKE && b->steps[1].pid == 10 && b->steps[1].life == 0);
	cr_assert(b->steps[2].kind == TSTATS_RUN && b->steps[2].ns == 4000000);
	cr_assert_eq(b->cpu_ns, 5000000, "the split changes no total");
	cr_assert(b->open_end, "b was running at the end: its burst had not ended");
	cr_assert_eq(b->open_wall_ns, 7000000, "under way since its switch-in at 3 ms");
	cr_assert_not(a->open_end);
	cr_assert_eq(b->prio, 120);
	tstats_free(st);
	tread_close(r);
	fclose(f);
}

Test(tstats, lost_events_forget_what_ran_and_a_reused_pid_is_a_new_thread)
{
	struct tstats *st = stats_of(
		SW("1.000000", "x", "1", "R", "a", "10")
		"CPU:0 [LOST 3 EVENTS]\n"
		SW("1.004000", "a", "10", "S", "swapper/0", "0")
		" a-10 [000] 1.005000: sched_process_exit: comm=a pid=10 prio=120\n"
		WK("1.006000", "<idle>", "0", "a", "10")
		SW("1.006000", "swapper/0", "0", "R", "a", "10")
		SW("1.007000", "a", "10", "X", "x", "1")
		" x-1 [000] 1.008000: sched_process_fork: comm=x pid=1 child_comm=n child_pid=10\n"
		" x-1 [000] 1.009000: sched_wakeup_new: comm=n pid=10 prio=120 target_cpu=000\n"
		SW("1.010000", "x", "1", "R", "n", "10")
		SW("1.012000", "n", "10", "S", "x", "1"));
	const struct tstats_thread *a = thread_pid(st, 10, 0), *n = thread_pid(st, 10, 1);

	/* after the lost events, a's run from 1.000 is unknown: none of it is a burst */
	cr_assert_eq(a->bursts, 1, "1.006-1.007 only: its wakeup is in the trace");
	cr_assert_eq(a->burst_ns, 1000000);
	cr_assert(a->exited);
	cr_assert_eq(a->woken_by_irq, 1);
	cr_assert_str_eq(n->comm, "n");
	cr_assert_eq(n->cpu_ns, 2000000);
	cr_assert_eq(n->bursts, 1);
	cr_assert_eq(n->wakeups, 1);
	cr_assert_eq(n->lat_max, 1000000);
	tstats_free(st);
}

/* A switch-out the trace does not show: the thread's time there is not known, not counted. */
Test(tstats, a_switch_from_another_thread_than_the_cpus_drops_the_unseen_interval)
{
	struct tstats *st = stats_of(
		SW("1.000000", "swapper/0", "0", "R", "a", "10")
		SW("1.003000", "swapper/0", "0", "R", "b", "11")
		SW("1.004000", "b", "11", "S", "swapper/0", "0"));
	const struct tstats_thread *a = thread_pid(st, 10, 0), *b = thread_pid(st, 11, 0);

	cr_assert_eq(tstats_unseen(st), 1);
	cr_assert_eq(a->cpu_ns, 0, "when a left CPU 0 is not in the trace");
	cr_assert_eq(b->cpu_ns, 1000000);
	tstats_free(st);
}

/* The latency buckets: 16 a power of two, a quantile never below the true value. */
Test(tstats, latency_quantiles_are_within_a_sixteenth_above)
{
	char text[65536];
	size_t len = 0;
	struct tstats *st;
	const struct tstats_thread *a;

	/* a is woken 100 times, with latencies 1, 2, ..., 100 us (times in seconds: 1000 i) */
	for (int i = 1; i <= 100; i++) {
		unsigned t = (unsigned)(i * 1000);

		len += (size_t)snprintf(text + len, sizeof(text) - len,
			" x-1 [000] %u.100000: sched_waking: comm=a pid=10 prio=120 target_cpu=000\n"
			" x-1 [000] %u.%06u: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 "
			"prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
			" a-10 [000] %u.200000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
			"prev_state=S ==> next_comm=x next_pid=1 next_prio=120\n",
			t, t, 100000 + i, t);
	}
	st = stats_of(text);
	a = thread_pid(st, 10, 0);
	cr_assert_eq(a->wakeups, 100);
	cr_assert_eq(a->lat_max, 100000);
	for (int q = 1; q <= 100; q++) {
		uint64_t v = tstats_latency_q(a, q / 100.0), truth = (uint64_t)q * 1000;

		cr_assert(v >= truth && v <= truth + truth / 16, "q %d: %llu for %llu", q,
			  (unsigned long long)v, (unsigned long long)truth);
	}
	tstats_free(st);
}
