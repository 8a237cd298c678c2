// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_overhead.c - the overhead model through the scheduler's API: the
 * scheduler's own work is CPU time charged to the CPU, which delays whatever runs next (a wakeup
 * costs wakeup_ns, a context switch switch_ns, a tick on a busy CPU tick_ns, each plus level_ns
 * per hierarchy level the operation enqueues, puts or sets); what a thread has executed; who
 * pays; switch counts; a running thread that leaves its CPU.
 *
 * The test is the driver, calling the scheduler (scheduler/sched.h) without the machine, with
 * the time, and draining sched_pop_changed(); expected values come from the kernel's tables and
 * rules (docs/scheduler.md).
 */
#include "tests/unit/sched_test_util.h"

TestSuite(sched_overhead, .fini = stt_fini);

#define OK(call)	STT_OK(s, call)
#define MS		STT_MS

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

/* The non-zero costs the overhead tests use (the defaults of sched_config_default). */
#define C_SWITCH	1000u
#define C_WAKE		500u
#define C_SLEEP		300u
#define C_TICK		400u
#define C_LEVEL		56u
#define C_WALK		7u
static const struct sched_costs some_cost = { C_SWITCH, C_WAKE, C_SLEEP, C_TICK, C_LEVEL,
					      C_WALK };

/* ======================= execution time and overhead ======================= */

/*
 * One nice-0 thread woken at T0 on an idle 1-CPU machine with every cost zero runs at once and
 * has executed exactly T - T0 at any T; after it sleeps it executes nothing more.
 */
static void exec_zero_cost(enum sched_policy pol, bool elision)
{
	struct sched *s = stt_sched(pol, 1, elision, &zero_cost, true);
	static const uint64_t T0 = 250000;
	static const uint64_t at[] = { 250000, 1000000, 5500000, 100300000, 1000000001 };
	uint64_t e;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	cr_expect_eq(sched_thread_exec(s, 1, 0), 0);
	OK(sched_wakeup(s, 1, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "[%s] not running right after its wakeup",
		     sched_policy_name(pol));
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		sched_advance(s, at[i]);
		stt_drain(s);
		e = sched_thread_exec(s, 1, at[i]);
		cr_expect_eq(e, at[i] - T0, "[%s elision=%d] exec at %" PRIu64 ": %" PRIu64
			     ", want %" PRIu64, sched_policy_name(pol), elision, at[i], e,
			     at[i] - T0);
	}
	OK(sched_sleep(s, 1, 1200 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	sched_advance(s, 1500 * MS);
	stt_drain(s);
	e = sched_thread_exec(s, 1, 1500 * MS);
	cr_expect_eq(e, 1200 * MS - T0, "[%s elision=%d] exec after sleeping: %" PRIu64
		     ", want %" PRIu64, sched_policy_name(pol), elision, e, (uint64_t)(1200 * MS - T0));
	stt_check_ok(s, "exec_zero_cost");
	stt_sched_free();
}

Test(sched_overhead, exec_zero_cost_eevdf) { exec_zero_cost(SCHED_POLICY_EEVDF, true); }
Test(sched_overhead, exec_zero_cost_cfs) { exec_zero_cost(SCHED_POLICY_CFS, true); }
Test(sched_overhead, exec_zero_cost_eevdf_noelide) { exec_zero_cost(SCHED_POLICY_EEVDF, false); }
Test(sched_overhead, exec_zero_cost_cfs_noelide) { exec_zero_cost(SCHED_POLICY_CFS, false); }

/*
 * The same with the costs of some_cost, HZ 1000 (ticks every 1 ms on the grid), the thread at
 * hierarchy depth @depth (1: in the root; 2: in a child group of the root). Woken at
 * T0 = 0.25 ms on the idle CPU:
 *   the wakeup enqueues @depth levels (the task, and the group entity since the group's queue
 *   was empty), walking each: C_WAKE + depth (C_LEVEL + C_WALK);
 *   the switch idle -> thread picks at each of @depth levels (a walk of each) and sets each:
 *   C_SWITCH + depth (C_LEVEL + C_WALK);
 *   each tick at 1, 2, ..., 10 ms while it runs walks every level and changes none:
 *   C_TICK + depth C_WALK.
 * Each is CPU time the thread's work does not get. At T = 10.5 ms, 10 ticks have passed:
 *   work = (T - T0) - (C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK)) - 10 (C_TICK + depth C_WALK)
 * depth 1: 10 250 000 - 1626 - 4070 = 10 244 304 ns;
 * depth 2: 10 250 000 - 1752 - 4140 = 10 244 108 ns.
 * Its CPU time is what the kernel charges it, by the clock (rq_clock_task(), which counts the
 * scheduler's own time): the wakeup asks for a reschedule, so the switch reuses the wakeup's
 * clock reading (rq_clock_skip_update()) and the thread is charged from the wakeup on, its
 * enqueue, the switch and the ticks included: exec = T - T0 = 10 250 000 ns, and when the
 * switch is done, exec = C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK) with no work yet.
 * Without elision every tick up to T has been processed, so the overhead charged to the CPU
 * is the sum of those costs, there was one context switch, 2 depth level operations, 2 depth +
 * 10 depth levels walked and 10 ticks. The wakeup latency (wakeup to first run) is
 * C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK).
 */

static void exec_with_cost(enum sched_policy pol, bool elision, unsigned depth)
{
	struct sched *s = stt_sched(pol, 1, elision, &some_cost, true);
	const uint64_t T0 = 250000, T = 10500000;
	const uint64_t wake = C_WAKE + depth * (C_LEVEL + C_WALK);
	const uint64_t sw = C_SWITCH + depth * (C_LEVEL + C_WALK);
	const uint64_t tick = C_TICK + depth * C_WALK;
	const uint64_t want = (T - T0) - wake - sw - 10 * tick, charged = T - T0;
	struct stt_lat_probe lp = { 0, 0, 0 };
	struct sched_stats st;
	uint64_t e;
	int tg = 0;

	sched_set_latency_hook(s, stt_lat_hook, &lp);
	if (depth == 2) {
		tg = 3;
		OK(sched_tg_new(s, tg, 0, 1024, false, 0));
	}
	OK(sched_thread_new(s, 1, tg, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(lp.n, 1, "[%s] %d latency samples", sched_policy_name(pol), lp.n);
	cr_expect_eq(lp.tid, 1);
	cr_expect_eq(lp.lat, wake + sw, "[%s depth %u] latency %" PRIu64 ", want %" PRIu64,
		     sched_policy_name(pol), depth, lp.lat, wake + sw);
	e = sched_thread_exec(s, 1, T0 + wake + sw);
	cr_expect_eq(e, wake + sw, "[%s depth %u] exec %" PRIu64 " when the switch is paid, want %"
		     PRIu64, sched_policy_name(pol), depth, e, wake + sw);
	e = sched_thread_work(s, 1, T0 + wake + sw);
	cr_expect_eq(e, 0, "[%s depth %u] work %" PRIu64 " before the overhead is paid",
		     sched_policy_name(pol), depth, e);
	sched_advance(s, T);
	stt_drain(s);
	e = sched_thread_work(s, 1, T);
	cr_expect_eq(e, want, "[%s elision=%d depth %u] work at 10.5 ms: %" PRIu64
		     ", want %" PRIu64 " (diff %lld)", sched_policy_name(pol), elision, depth, e,
		     want, (long long)e - (long long)want);
	e = sched_thread_exec(s, 1, T);
	cr_expect_eq(e, charged, "[%s elision=%d depth %u] exec at 10.5 ms: %" PRIu64
		     ", want %" PRIu64, sched_policy_name(pol), elision, depth, e, charged);
	if (!elision) {
		uint64_t ov = sched_cpu_overhead(s, 0);

		sched_stats(s, &st);
		cr_expect_eq(ov, wake + sw + 10 * tick, "[%s depth %u] overhead %" PRIu64
			     ", want %" PRIu64, sched_policy_name(pol), depth, ov,
			     wake + sw + 10 * tick);
		cr_expect_eq(st.overhead_ns, ov);
		cr_expect_eq(st.switches, 1, "[%s] switches %" PRIu64, sched_policy_name(pol),
			     st.switches);
		cr_expect_eq(st.level_ops, 2 * depth, "[%s depth %u] level_ops %" PRIu64
			     ", want %u", sched_policy_name(pol), depth, st.level_ops, 2 * depth);
		cr_expect_eq(st.level_walks, 12 * depth, "[%s depth %u] level_walks %" PRIu64
			     ", want %u", sched_policy_name(pol), depth, st.level_walks,
			     12 * depth);
		cr_expect_eq(st.ticks, 10, "[%s] ticks %" PRIu64, sched_policy_name(pol),
			     st.ticks);
		cr_expect_eq(st.ticks_processed, 10);
		cr_expect_eq(st.migrations, 0);
	}
	/* Going to sleep ends its execution: nothing more later. */
	OK(sched_sleep(s, 1, T));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	sched_advance(s, 3 * T);
	stt_drain(s);
	cr_expect_eq(sched_thread_work(s, 1, 3 * T), want);
	cr_expect_eq(sched_thread_exec(s, 1, 3 * T), charged);
	stt_check_ok(s, "exec_with_cost");
	stt_sched_free();
}

Test(sched_overhead, exec_with_cost_root_eevdf) { exec_with_cost(SCHED_POLICY_EEVDF, true, 1); }
Test(sched_overhead, exec_with_cost_root_cfs) { exec_with_cost(SCHED_POLICY_CFS, true, 1); }
Test(sched_overhead, exec_with_cost_root_eevdf_noelide)
{
	exec_with_cost(SCHED_POLICY_EEVDF, false, 1);
}
Test(sched_overhead, exec_with_cost_root_cfs_noelide)
{
	exec_with_cost(SCHED_POLICY_CFS, false, 1);
}
Test(sched_overhead, exec_with_cost_group_eevdf) { exec_with_cost(SCHED_POLICY_EEVDF, true, 2); }
Test(sched_overhead, exec_with_cost_group_cfs) { exec_with_cost(SCHED_POLICY_CFS, true, 2); }
Test(sched_overhead, exec_with_cost_group_eevdf_noelide)
{
	exec_with_cost(SCHED_POLICY_EEVDF, false, 2);
}
Test(sched_overhead, exec_with_cost_group_cfs_noelide)
{
	exec_with_cost(SCHED_POLICY_CFS, false, 2);
}

/*
 * Two nice-0 threads on one CPU, the second woken 3.3 ms after the first. The CPU is never
 * idle from T0 on and the kernel charges every ns of it to the task on it, the scheduler's
 * time included, from the first wakeup's clock reading (exec_with_cost above): at every T,
 * exec1 + exec2 = T - T0. Their own work gets the rest: work1 + work2 + overhead = T - T0
 * (with costs and no elision every charge up to T is in sched_cpu_overhead(), T being mid-tick
 * so no charge straddles it; with zero costs the overhead is 0). Equal weights: at any instant
 * one is ahead of the other by at most about one request: CFS slice 6 ms / 2 = 3 ms, checked
 * at ticks, so a run lasts up to 4 ms; EEVDF lag is bounded by a slice plus a tick. 8 ms (two
 * such runs) leaves room for the start-up placement.
 */
static void two_threads(enum sched_policy pol, const struct sched_costs *cost, bool elision)
{
	struct sched *s = stt_sched(pol, 1, elision, cost, true);
	const uint64_t T0 = 100000;
	static const uint64_t at[] = { 3500000, 17500000, 250500000, 1000500000 };
	uint64_t e1 = 0, e2 = 0, w1, w2, ov;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0 + 3300000));
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		sched_advance(s, at[i]);
		stt_drain(s);
		e1 = sched_thread_exec(s, 1, at[i]);
		e2 = sched_thread_exec(s, 2, at[i]);
		w1 = sched_thread_work(s, 1, at[i]);
		w2 = sched_thread_work(s, 2, at[i]);
		ov = cost == &zero_cost ? 0 : sched_cpu_overhead(s, 0);
		cr_expect_eq(e1 + e2, at[i] - T0, "[%s] at %" PRIu64 ": exec %" PRIu64 " + %"
			     PRIu64 " != %" PRIu64, sched_policy_name(pol), at[i], e1, e2,
			     at[i] - T0);
		cr_expect_eq(w1 + w2 + ov, at[i] - T0, "[%s] at %" PRIu64 ": work %" PRIu64
			     " + %" PRIu64 " + overhead %" PRIu64 " != %" PRIu64,
			     sched_policy_name(pol), at[i], w1, w2, ov, at[i] - T0);
	}
	cr_expect(llabs((long long)e1 - (long long)e2) <= 8000000,
		  "[%s] after 1 s: exec %" PRIu64 " vs %" PRIu64, sched_policy_name(pol), e1, e2);
	stt_check_ok(s, "two_threads");
	stt_sched_free();
}

/*
 * Two such threads, woken together, read at every instant, also inside the scheduler's work at a tick and a
 * switch: a charge runs to the end of that work, ahead of the clock, and a thread's CPU time
 * must still count only what the clock has reached. At every t, exec1 + exec2 = t - T0 (the
 * CPU is never idle and charged by the clock), and neither ever goes back.
 */
static void exec_every_instant(enum sched_policy pol, bool elision)
{
	struct sched *s = stt_sched(pol, 1, elision, &some_cost, true);
	struct sched_config cfg;
	const uint64_t T0 = 100000;
	uint64_t P, last1 = 0, last2 = 0;

	sched_config_default(&cfg, pol, 1);
	P = 1000000000ull / cfg.tun.hz;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0));
	for (uint64_t T = P; T <= 60 * P; T += P)
		for (uint64_t off = 0; off < 2000; off += 97) {
			uint64_t t = T + off, e1, e2;

			sched_advance(s, t);
			stt_drain(s);
			e1 = sched_thread_exec(s, 1, t);
			e2 = sched_thread_exec(s, 2, t);
			cr_assert_eq(e1 + e2, t - T0, "[%s] at %" PRIu64 ": exec %" PRIu64 " + %"
				     PRIu64 " != %" PRIu64, sched_policy_name(pol), t, e1, e2,
				     t - T0);
			cr_assert(e1 >= last1 && e2 >= last2, "[%s] at %" PRIu64 ": exec went back",
				  sched_policy_name(pol), t);
			last1 = e1;
			last2 = e2;
		}
	stt_check_ok(s, "exec_every_instant");
	stt_sched_free();
}

Test(sched_overhead, exec_every_instant_eevdf) { exec_every_instant(SCHED_POLICY_EEVDF, true); }
Test(sched_overhead, exec_every_instant_cfs) { exec_every_instant(SCHED_POLICY_CFS, true); }
Test(sched_overhead, exec_every_instant_eevdf_noelide)
{
	exec_every_instant(SCHED_POLICY_EEVDF, false);
}

Test(sched_overhead, two_threads_zero_cost_eevdf)
{
	two_threads(SCHED_POLICY_EEVDF, &zero_cost, true);
}
Test(sched_overhead, two_threads_zero_cost_cfs) { two_threads(SCHED_POLICY_CFS, &zero_cost, true); }
Test(sched_overhead, two_threads_cost_eevdf) { two_threads(SCHED_POLICY_EEVDF, &some_cost, false); }
Test(sched_overhead, two_threads_cost_cfs) { two_threads(SCHED_POLICY_CFS, &some_cost, false); }

/*
 * Who pays for the scheduler's time (docs/scheduler.md, "Overhead model"): EEVDF on one CPU at
 * HZ 1000, wakeup W = 500, switch S = 1000, sleep Z = 300 and tick K = 400 ns, nothing per
 * level. Threads 1 and 2 are woken at T0 = 0.25 ms, 1 first on the idle CPU: 1 runs, charged
 * from T0 (its own wakeup, the switch to it and 2's wakeup included, 2's not preempting a
 * thread protected to its deadline); its work starts after 2W + S. Its request (0.7 ms on one
 * CPU) is used up at the tick at 1 ms, which reschedules: the switch reads the clock again
 * after the tick, so 1 pays the tick (exec 750,000 + K) and 2 is charged from 1 ms + K, its
 * switch included. 2 sleeps at 1.3 ms: the sleep and the switch back are 1's, charged from
 * 1.3 ms.
 */
Test(sched_overhead, who_pays_the_scheduler)
{
	const struct sched_costs c = { .switch_ns = 1000, .wakeup_ns = 500, .sleep_ns = 300,
				       .tick_ns = 400 };
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, true, &c, true);
	const uint64_t T0 = 250000, K = 400, S = 1000, W = 500, Z = 300;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	sched_advance(s, 1200000);
	stt_drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 2, "the tick at 1 ms hands the CPU to 2");
	cr_expect_eq(sched_thread_exec(s, 1, 1200000), 750000 + K);
	cr_expect_eq(sched_thread_work(s, 1, 1200000), 750000 - 2 * W - S);
	cr_expect_eq(sched_thread_exec(s, 2, 1200000), 200000 - K);
	cr_expect_eq(sched_thread_work(s, 2, 1200000), 200000 - K - S);
	OK(sched_sleep(s, 2, 1300000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(sched_thread_exec(s, 2, 1400000), 300000 - K);
	cr_expect_eq(sched_thread_exec(s, 1, 1400000), 750000 + K + 100000);
	cr_expect_eq(sched_thread_work(s, 1, 1400000), 750000 - 2 * W - S + 100000 - Z - S);
	stt_check_ok(s, "who_pays_the_scheduler");
	stt_sched_free();
}

/*
 * sched.h: sched_stats.switches counts context switches "to and from idle included", as the
 * kernel's nr_switches counts every context_switch(), the idle task being a task. A thread
 * that runs once and sleeps makes two: idle -> thread, thread -> idle. A second thread woken
 * while the first runs on the other CPU of a 2-CPU machine adds its own idle -> thread.
 */
static void switch_count(enum sched_policy pol)
{
	struct sched *s = stt_sched(pol, 2, false, NULL, true);
	struct sched_stats st;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 100000));
	sched_advance(s, 2 * MS);
	stt_drain(s);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 1, "[%s] switches after one wakeup: %" PRIu64 ", want 1",
		     sched_policy_name(pol), st.switches);
	OK(sched_wakeup(s, 2, 2 * MS));
	cr_expect_neq(sched_cpu_curr(s, 0), -1);
	cr_expect_neq(sched_cpu_curr(s, 1), -1);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 2, "[%s] switches after the second thread went to the idle "
		     "CPU: %" PRIu64 ", want 2", sched_policy_name(pol), st.switches);
	OK(sched_sleep(s, 1, 5 * MS));
	OK(sched_sleep(s, 2, 5 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), -1);
	cr_assert_eq(sched_cpu_curr(s, 1), -1);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 4, "[%s] switches after both slept: %" PRIu64
		     ", want 4 (2 idle -> task, 2 task -> idle)", sched_policy_name(pol),
		     st.switches);
	cr_expect_eq(st.migrations, 0);
	stt_sched_free();
}

Test(sched_overhead, switch_count_includes_idle_eevdf) { switch_count(SCHED_POLICY_EEVDF); }
Test(sched_overhead, switch_count_includes_idle_cfs) { switch_count(SCHED_POLICY_CFS); }

/* ======================= a running thread leaves its CPU ======================= */

/*
 * The running thread exits: its CPU goes idle at once and it never runs again; an affinity
 * change that excludes its CPU moves the running thread to the allowed one (sched.h: "moved
 * at once"), one migration; a move to another group keeps it running on its CPU.
 */
static void running_leaves(enum sched_policy pol)
{
	struct sched *s = stt_sched(pol, 2, true, NULL, true);
	struct sched_thread_stats ts;
	uint64_t cpu1 = 2;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 100000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_thread_move(s, 1, 1, 1 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "[%s] moved to a group: curr %d",
		     sched_policy_name(pol), sched_cpu_curr(s, 0));
	OK(sched_thread_set_affinity(s, 1, &cpu1, 1, 2 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	cr_expect_eq(sched_cpu_curr(s, 1), 1, "[%s] affinity to CPU 1: curr of CPU 1 is %d",
		     sched_policy_name(pol), sched_cpu_curr(s, 1));
	OK(sched_thread_stats(s, 1, &ts));
	cr_expect_eq(ts.migrations, 1);
	cr_expect_eq(ts.cpu, 1);
	OK(sched_thread_exit(s, 1, 3 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 1), -1);
	cr_expect_eq(sched_thread_stats(s, 1, &ts), -ENOENT);
	OK(sched_tg_free(s, 1, 4 * MS));
	stt_check_ok(s, "running_leaves");
	stt_sched_free();
}

Test(sched_overhead, running_thread_leaves_eevdf) { running_leaves(SCHED_POLICY_EEVDF); }
Test(sched_overhead, running_thread_leaves_cfs) { running_leaves(SCHED_POLICY_CFS); }
