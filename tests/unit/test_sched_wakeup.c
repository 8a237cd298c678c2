// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_wakeup.c - wakeups and preemption through the scheduler's API:
 * CFS sleeper credit, EEVDF deadline ties, the requeue of a delayed entity (a thread's and a
 * group's), late wakeups and an idle CPU's exit, the latency and wait hooks, slice protection
 * and wake_affine().
 *
 * The test is the driver, calling the scheduler (scheduler/sched.h) without the machine, with
 * the time, and draining sched_pop_changed(); expected values come from the kernel's tables and
 * rules (docs/scheduler.md).
 */
#include "tests/unit/sched_test_util.h"

TestSuite(sched_wakeup, .fini = stt_fini);

#define OK(call)	STT_OK(s, call)
#define MS		STT_MS

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

/* ======================= CFS sleeper credit and wakeup preemption ======================= */

/*
 * CFS, one CPU: threads 1 and 2 run together, 2 sleeps at 50 ms, 1 runs alone to 150.5 ms and
 * 2 wakes. place_entity (§4.4): vruntime = max(its old vruntime, min_vruntime - latency / 2);
 * its old vruntime is ~100 ms behind, so it gets min_vruntime - 3 ms (latency 6 ms x factor 1).
 * min_vruntime is curr's vruntime (alone on the queue), so vdiff = curr.v - pse.v = 3 ms >
 * wakeup_gran = calc_delta_fair(1 ms, nice 0) = 1 ms (§4.5): the wakee preempts at once.
 */
Test(sched_wakeup, cfs_sleeper_preempts)
{
	struct sched *s = stt_sched(SCHED_POLICY_CFS, 1, true, &zero_cost, true);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	sched_advance(s, 50 * MS);
	stt_drain(s);
	OK(sched_sleep(s, 2, 50 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	sched_advance(s, 150 * MS + 500000);
	stt_drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_wakeup(s, 2, 150 * MS + 500000));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "the sleeper did not preempt: curr %d",
		     sched_cpu_curr(s, 0));
	stt_sched_free();
}

/* ======================= EEVDF ties: entity_before() is strict ======================= */

/*
 * One CPU, EEVDF, zero costs, checked, HZ @hz, base slice @slice_ns, new tasks with a full
 * request (PLACE_DEADLINE_INITIAL off), PLACE_LAG and DELAY_DEQUEUE as given.
 */
static struct sched *eevdf_one_cpu(uint32_t hz, uint64_t slice_ns, bool place_lag, bool delay)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 1);
	cfg.cost = zero_cost;
	cfg.check = true;
	cfg.tun.hz = hz;
	cfg.tun.base_slice_ns = slice_ns;
	cfg.feat[SCHED_FEAT_PLACE_LAG] = place_lag;
	cfg.feat[SCHED_FEAT_DELAY_DEQUEUE] = delay;
	cfg.feat[SCHED_FEAT_PLACE_DEADLINE_INITIAL] = false;
	s = sched_new(&cfg);
	cr_assert_not_null(s);
	stt_s = s;
	return s;
}

/*
 * One CPU, HZ 1000, base slice 0.7 ms, PLACE_LAG and PLACE_DEADLINE_INITIAL off so that a
 * wakee is placed at V with a full request: vruntime = V, deadline = V + 0.7 ms.
 * Thread 1 runs alone from 0; at every tick its vruntime (= elapsed time) has passed its
 * deadline, so update_deadline() renews it to v + 0.7 ms. Thread 2 wakes at exactly 5 ms:
 * thread 1's update_curr() gives it v1 = 5 ms, deadline 5.7 ms; thread 2 gets V = v1 = 5 ms and
 * deadline 5.7 ms. Both are eligible and thread 1's protection (its first deadline, 0.7 ms) is
 * long over, so __pick_eevdf() compares deadlines: entity_before(curr, best) is a strict
 * "earlier than", so on the tie the queued wakee is the pick and preempts at once.
 */
Test(sched_wakeup, eevdf_deadline_tie_goes_to_the_wakee)
{
	struct sched *s = eevdf_one_cpu(1000, 700000, false, true);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	sched_advance(s, 5 * MS);
	stt_drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_wakeup(s, 2, 5 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "on a deadline tie curr %d kept the CPU",
		     sched_cpu_curr(s, 0));
	stt_sched_free();
}

/* ======================= requeue_delayed_entity() without update_curr() ======================= */

/*
 * One CPU, HZ 250 (ticks every 4 ms), base slice 0.7 ms, PLACE_DEADLINE_INITIAL off, zero costs.
 * Thread 1 runs alone from 0: at the 4 ms tick v1 = 4, its deadline renews to 4.7. Thread 2 is
 * new at 4 ms: v2 = V = 4, deadline 4.7, a tie that the wakee wins. It runs 0.5 ms and sleeps:
 * V = (4 + 4.5) / 2 = 4.25 < v2, not eligible, so it stays queued (DELAY_DEQUEUE) and thread 1
 * runs from 4.5 ms, its vruntime last updated there (v1 = 4).
 * Thread 2 wakes at 7 ms, before any tick has picked it. requeue_delayed_entity() clips its lag
 * against V as of curr's last update: (4 + 4.5) / 2 = 4.25, lag -0.25, so it keeps v2 = 4.5 and
 * its deadline 4.7 (an update_curr() first would give V = (6.5 + 4.5) / 2 = 5.5, lag +1, and
 * DELAY_ZERO would re-place it at v2 = 6.5). Then the preemption check updates curr (v1 = 6.5):
 * thread 1 is not eligible (V = 5.5), thread 2 runs. At the 8 ms tick v2 = 5.5, V = 6: still
 * thread 2 (re-placed at 6.5 it would have lost to thread 1 there); at the 12 ms tick v2 = 9.5,
 * V = 8: thread 1.
 */

/*
 * Thread 1 (task group @tg1) runs alone from 0; thread 2 (@tg2, custom slice @slice2, 0 for the
 * default) is new at 4 ms, preempts, runs @run_ns and sleeps, and thread 1 runs again.
 */
static void second_runs_and_sleeps(struct sched *s, int tg1, int tg2, uint64_t slice2,
				   uint64_t run_ns)
{
	OK(sched_thread_new(s, 1, tg1, 0, 0, 0));
	OK(sched_thread_new(s, 2, tg2, 0, slice2, 0));
	OK(sched_wakeup(s, 1, 0));
	sched_advance(s, 4 * MS);
	stt_drain(s);
	OK(sched_wakeup(s, 2, 4 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), 2, "thread 2 did not preempt at 4 ms");
	sched_advance(s, 4 * MS + run_ns);
	stt_drain(s);
	OK(sched_sleep(s, 2, 4 * MS + run_ns));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
}

/*
 * The timeline of the two tests below: thread 1 (task group @tg1) busy from 0, thread 2 (@tg2)
 * new at 4 ms, asleep at 4.5 ms, awake at 7 ms; who runs at 7, 8.5 and 12.5 ms.
 */
static void delayed_requeue_timeline(int tg1, int tg2)
{
	struct sched *s = stt_s;

	second_runs_and_sleeps(s, tg1, tg2, 0, 500000);
	sched_advance(s, 7 * MS);
	stt_drain(s);
	OK(sched_wakeup(s, 2, 7 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 7 ms curr %d: not delayed?", sched_cpu_curr(s, 0));
	sched_advance(s, 8 * MS + 500000);
	stt_drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 8.5 ms curr %d: lag taken against a fresh V?",
		     sched_cpu_curr(s, 0));
	sched_advance(s, 12 * MS + 500000);
	stt_drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "at 12.5 ms curr %d", sched_cpu_curr(s, 0));
	stt_sched_free();
}

Test(sched_wakeup, eevdf_requeue_uses_curr_as_last_updated)
{
	eevdf_one_cpu(250, 700000, true, true);
	delayed_requeue_timeline(0, 0);
}

/* ======================= a late wakeup and an idle CPU's exit ======================= */

/*
 * Zero costs, one CPU. Thread 1 is due at 1 ms and woken at 1.1 ms (a timer 100 us late) on
 * the idle CPU, which takes 30 us to leave its idle state: it runs from 1.13 ms, a latency of
 * 130 us from when it was due. Thread 2, due at 2 ms and woken at 2.1 ms with the same exit
 * time, finds the CPU busy with thread 1: no exit to pay. It is new, so placed with half a
 * request (PLACE_DEADLINE_INITIAL) at V: its deadline is earlier than thread 1's and both are
 * eligible, so it runs at once, 100 us after it was due.
 */
Test(sched_wakeup, wakeup_timed_latency_and_idle_exit)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, true, &zero_cost, true);
	struct stt_lat_probe lp = { 0, 0, 0 };

	sched_set_latency_hook(s, stt_lat_hook, &lp);
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	sched_advance(s, 1100000);
	stt_drain(s);
	OK(sched_wakeup_timed(s, 1, 1100000, 1000000, 30000));
	sched_advance(s, 1200000);
	stt_drain(s);
	cr_expect_eq(lp.n, 1);
	cr_expect_eq(lp.lat, 130000, "from idle: latency %" PRIu64 ", want 130000", lp.lat);
	sched_advance(s, 2100000);
	stt_drain(s);
	OK(sched_wakeup_timed(s, 2, 2100000, 2000000, 30000));
	cr_assert_eq(sched_cpu_curr(s, 0), 2);
	cr_expect_eq(lp.n, 2);
	cr_expect_eq(lp.lat, 100000, "on a busy CPU: latency %" PRIu64 ", want 100000", lp.lat);
	stt_sched_free();
}

/*
 * The wait hook: every switch-in reports the wait it ends, from when the thread became runnable
 * (perf sched latency's delay). The test above: thread 1 is woken at 1.1 ms on the idle CPU,
 * whose idle exit takes 30 us, so it waits from 1.1 to 1.13 ms; thread 2 is woken at 2.1 ms and
 * preempts at once (a wait of 0, from 2.1 to 2.1); thread 1, preempted at 2.1 ms while still
 * runnable, waits from then on, and its next switch-in reports a wait since 2.1 ms whose length
 * is the rest of its wait_ns.
 */
struct wait_probe {
	int n;
	int tid[64];
	uint64_t since[64], at[64];
};

static void wait_hook(void *ctx, int tid, uint64_t since, uint64_t at)
{
	struct wait_probe *p = ctx;

	if (p->n < 64) {
		p->tid[p->n] = tid;
		p->since[p->n] = since;
		p->at[p->n] = at;
	}
	p->n++;
}

Test(sched_wakeup, wait_hook_from_wakeup_and_preemption)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, true, &zero_cost, true);
	struct wait_probe wp = { 0 };
	struct sched_thread_stats st;
	uint64_t sum = 0;

	sched_set_wait_hook(s, wait_hook, &wp);
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	sched_advance(s, 1100000);
	stt_drain(s);
	OK(sched_wakeup_timed(s, 1, 1100000, 1000000, 30000));
	sched_advance(s, 1200000);
	stt_drain(s);
	cr_assert_eq(wp.n, 1);
	cr_expect_eq(wp.tid[0], 1);
	cr_expect_eq(wp.since[0], 1100000);
	cr_expect_eq(wp.at[0], 1130000);
	sched_advance(s, 2100000);
	stt_drain(s);
	OK(sched_wakeup_timed(s, 2, 2100000, 2000000, 30000));
	cr_assert_eq(wp.n, 2);
	cr_expect_eq(wp.tid[1], 2);
	cr_expect_eq(wp.since[1], 2100000);
	cr_expect_eq(wp.at[1], 2100000);
	sched_advance(s, 20000000);
	stt_drain(s);
	cr_assert_geq(wp.n, 3);
	cr_expect_eq(wp.tid[2], 1);
	cr_expect_eq(wp.since[2], 2100000, "thread 1 waits from its preemption, not %" PRIu64,
		     wp.since[2]);
	OK(sched_thread_stats(s, 1, &st));
	cr_expect_gt(wp.at[2], wp.since[2]);
	/* both count a wait when a switch-in ends it, and nothing here ends one otherwise */
	cr_assert_leq(wp.n, 64);
	for (int i = 0; i < wp.n; i++)
		if (wp.tid[i] == 1)
			sum += wp.at[i] - wp.since[i];
	cr_expect_eq(sum, st.wait_ns, "waits reported %" PRIu64 ", wait_ns %" PRIu64, sum,
		     st.wait_ns);
	stt_sched_free();
}

/* ======================= DELAY_DEQUEUE of a group entity ======================= */

/*
 * The test above one level up. One CPU, HZ 250, base slice 0.7 ms, PLACE_DEADLINE_INITIAL off,
 * zero costs; groups A and B of weight 1024, thread 1 busy in A, thread 2 in B.
 * Group A's entity runs alone from 0 (v_A = 4 and deadline 4.7 at the 4 ms tick). Thread 2 is new
 * at 4 ms: B's entity is placed at V = 4 with deadline 4.7, ties with A's and wins. Thread 2
 * sleeps at 4.5 ms: alone in B's queue it is eligible and leaves it, so B's queue is empty and
 * dequeue_entities() dequeues B's entity with DEQUEUE_SLEEP: V = (4 + 4.5) / 2 = 4.25 < v_B, not
 * eligible, so it stays queued, delayed. A's entity runs from 4.5 ms (v_A last updated: 4).
 * Thread 2 wakes at 7 ms: enqueue_task_fair() puts it in B's queue and stops at B's entity, on
 * the queue still: requeue_delayed_entity() against V as of A's last update, 4.25: lag -0.25,
 * v_B stays 4.5 with deadline 4.7. The preemption check updates A (v_A = 6.5, V = 5.5): A is
 * not eligible, thread 2 runs at once, and still at 8.5 ms (the 8 ms tick: v_B = 5.5, V = 6);
 * at the 12 ms tick v_B = 9.5, V = 8: thread 1.
 * Without the delay B's entity would come back at 7 ms with lag -0.25 behind v_A = 6.5 and lose
 * to A's deadline until the 8 ms tick; with the delay but a fresh V it would be placed at
 * lag 0 and lose to A at the 8 ms tick.
 */
Test(sched_wakeup, eevdf_group_entity_delayed_dequeue)
{
	struct sched *s = eevdf_one_cpu(250, 700000, true, true);

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 0, 1024, false, 0));
	delayed_requeue_timeline(1, 2);
}

/* ======================= update_protect_slice() ======================= */

/*
 * One CPU, HZ 1000, base slice 3 ms, DELAY_DEQUEUE and PLACE_DEADLINE_INITIAL off, zero costs.
 * Thread 1 (slice 3 ms) runs alone from 0; its deadline renews to 6 at the 3 ms tick. Thread 2
 * (custom slice 0.1 ms) is new at 4 ms: v2 = V = 4, deadline 4.1, the pick without protection
 * (PREEMPT_SHORT), so it runs; at 4.2 ms it sleeps with lag V - v2 = 4.1 - 4.2 = -0.1 (leaving
 * the queue: no delayed dequeue). Thread 1 runs again, v1 = 4, protected to its deadline 6
 * (set_protect_slice: its own 3 ms is the shortest request queued), that is to 6.2 ms.
 * Thread 2 wakes at 4.3 ms: placed at V - 2 x (-0.1) = 4.1 + 0.2 = 4.3 (PLACE_LAG), deadline
 * 4.4; V = (4.1 + 4.3) / 2 = 4.2, so it is not eligible and cannot preempt. update_protect_slice()
 * still cuts thread 1's protection to v1 + 0.1 = 4.2. At the 5 ms tick v1 = 4.9: its request
 * (6) is not used up but its protection is over, so it is rescheduled; V = (4.9 + 4.3) / 2 = 4.6,
 * thread 2 is eligible with the earlier deadline and runs. Without the cut, thread 1 would stay
 * protected to the 7 ms tick.
 */
Test(sched_wakeup, eevdf_short_wakee_limits_protection)
{
	struct sched *s = eevdf_one_cpu(1000, 3 * MS, true, false);

	second_runs_and_sleeps(s, 0, 0, 100000, 200000);
	sched_advance(s, 4 * MS + 300000);
	stt_drain(s);
	OK(sched_wakeup(s, 2, 4 * MS + 300000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "the wakee is not eligible: no preemption");
	sched_advance(s, 5 * MS + 500000);
	stt_drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 5.5 ms curr %d: protection not cut",
		     sched_cpu_curr(s, 0));
	stt_sched_free();
}

/*
 * wake_affine(): a thread woken by another thread on another CPU (sched_wakeup_by()) starts
 * from the waker's CPU when that CPU is the less loaded of the two once the wakee's load moves
 * (WA_WEIGHT: (load(this) + task) x 100 < (load(prev) - task) x (100 + (117 - 100) / 2)), and
 * select_idle_sibling() keeps it there when no CPU is idle. X last ran on CPU 1 behind two busy
 * threads (load about 2048); the waker runs alone on CPU 0 (about 1024): X goes to CPU 0. A
 * timer's wakeup, or the same wakeup without WA_WEIGHT, leaves it on CPU 1.
 */
static int affine_target(bool by_thread, bool wa_weight)
{
	struct sched_config cfg;
	struct sched_thread_stats st;
	struct sched *s;
	uint64_t cpu0 = 1, cpu1 = 2, both = 3, now = 0;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 2);
	cfg.feat[SCHED_FEAT_WA_WEIGHT] = wa_weight;
	s = sched_new(&cfg);
	cr_assert_not_null(s);
	stt_s = s;
	for (int tid = 1; tid <= 4; tid++) {
		OK(sched_thread_new(s, tid, 0, 0, 0, 0));
		OK(sched_thread_set_affinity(s, tid, tid == 1 ? &cpu0 : &cpu1, 1, 0));
		OK(sched_wakeup(s, tid, 0));
		stt_drain(s);
	}
	/* X (4) runs its share on CPU 1, then sleeps and may go anywhere */
	while ((now = sched_next_tick_min(s)) < 200 * MS) {
		sched_advance(s, now);
		stt_drain(s);
	}
	OK(sched_sleep(s, 4, now));
	OK(sched_thread_set_affinity(s, 4, &both, 1, now));
	stt_drain(s);
	while ((now = sched_next_tick_min(s)) < 210 * MS) {
		sched_advance(s, now);
		stt_drain(s);
	}
	OK(by_thread ? sched_wakeup_by(s, 4, 1, now, 0) : sched_wakeup(s, 4, now));
	stt_drain(s);
	OK(sched_thread_stats(s, 4, &st));
	stt_sched_free();
	return st.cpu;
}

Test(sched_wakeup, wake_affine_moves_a_wakee_to_the_less_loaded_waker)
{
	cr_expect_eq(affine_target(true, true), 0, "woken by the thread on CPU 0: WA_WEIGHT");
	cr_expect_eq(affine_target(false, true), 1, "a timer's wakeup stays on its CPU");
	cr_expect_eq(affine_target(true, false), 1, "without WA_WEIGHT it stays too");
}
