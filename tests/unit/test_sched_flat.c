// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_flat.c - Linux 7.3's flat pick (SCHED_POLICY_EEVDF_FLAT, "sched/eevdf:
 * Move to a single runqueue"): a task's effective weight h_load, the one tree of tasks per CPU,
 * the shares it gives, when h_load is recomputed and when it stays stale, wakeup preemption
 * between the two tasks themselves, delayed dequeue of tasks only, and the invariant checker
 * through random workloads with groups, quotas and moves.
 *
 * The test is the driver (scheduler/sched.h, without the machine). It reads the entities'
 * h_load and the queues' timelines through scheduler/sched_internal.h: the rules are stated on
 * them. Expected values come from the kernel's rules (docs/scheduler.md, "The flat pick").
 */
#include "tests/unit/sched_test_util.h"

/* h_load and the root's timeline, which sched.h does not show */
#include "scheduler/sched_internal.h"

TestSuite(sched_flat, .fini = stt_fini);

#define OK(call)	STT_OK(s, call)
#define MS		STT_MS
#define US		1000ull
#define NICE0		(1024ull << 10)	/* NICE_0_LOAD: scale_load(1024) */

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

static struct sched *flat_one_cpu(enum sched_policy pol, bool elision)
{
	return stt_sched(pol, 1, elision, &zero_cost, true);
}

static uint64_t h_load(const struct sched *s, int tid)
{
	return s->thr[tid]->se.h_load;
}

/* __calc_prop_weight() by hand: @h x @w / @load, rounded down, at least MIN_SHARES (2). */
static uint64_t prop(uint64_t h, uint64_t w, uint64_t load)
{
	uint64_t r = h * w / load;

	return r < 2 ? 2 : r;
}

/*
 * One CPU: the root holds thread 10 and group A (shares 2048); A holds thread 11 and group B
 * (512); B holds thread 12 (nice 5: weight 335) and group C (1024); C holds threads 13 and
 * 14. On one CPU a group's entity weighs its shares exactly (calc_group_shares(): the group's
 * load is this queue's alone, shares x load / load).
 */
static void nested_layout(struct sched *s)
{
	OK(sched_tg_new(s, 1, 0, 2048, false, 0));
	OK(sched_tg_new(s, 2, 1, 512, false, 0));
	OK(sched_tg_new(s, 3, 2, 1024, false, 0));
	OK(sched_thread_new(s, 10, 0, 0, 0, 0));
	OK(sched_thread_new(s, 11, 1, 0, 0, 0));
	OK(sched_thread_new(s, 12, 2, 5, 0, 0));
	OK(sched_thread_new(s, 13, 3, 0, 0, 0));
	OK(sched_thread_new(s, 14, 3, 0, 0, 0));
	for (int t = 10; t <= 14; t++)
		OK(sched_wakeup(s, t, 0));
}

/*
 * A task three levels deep: h_load = NICE_0_LOAD x (its weight / C's load) x (C's weight / B's
 * load) x (B's weight / A's load) x (A's weight / NICE_0_LOAD), rounded down at each level.
 * With C's load 2 x 1024, B's 335 + 1024, A's 1024 + 512 (scaled by 2^10). Every task has
 * been picked since the last enqueue by 100 ms, so none holds a stale value.
 */
Test(sched_flat, h_load_is_the_product_of_the_levels_fractions)
{
	struct sched *s = flat_one_cpu(SCHED_POLICY_EEVDF_FLAT, true);
	uint64_t c = NICE0, b = 1024ull << 10, a = 512ull << 10, top = 2048ull << 10;
	uint64_t want13, want12, want11;

	nested_layout(s);
	stt_advance(s, 100 * MS);
	cr_assert_eq(s->tg[3]->se[0]->weight, c, "C's entity: %" PRIu64, s->tg[3]->se[0]->weight);
	cr_assert_eq(s->tg[2]->se[0]->weight, a, "B's entity: %" PRIu64, s->tg[2]->se[0]->weight);
	cr_assert_eq(s->tg[1]->se[0]->weight, top, "A's entity: %" PRIu64, s->tg[1]->se[0]->weight);
	want13 = prop(prop(prop(prop(NICE0, NICE0, 2 * NICE0), c, (335ull << 10) + b), a,
			   NICE0 + a), top, NICE0);
	want12 = prop(prop(prop(NICE0, 335ull << 10, (335ull << 10) + b), a, NICE0 + a), top,
		      NICE0);
	want11 = prop(prop(NICE0, NICE0, NICE0 + a), top, NICE0);
	cr_expect_eq(h_load(s, 13), want13, "thread 13: %" PRIu64 ", want %" PRIu64,
		     h_load(s, 13), want13);
	cr_expect_eq(h_load(s, 14), want13, "thread 14: %" PRIu64 ", want %" PRIu64,
		     h_load(s, 14), want13);
	cr_expect_eq(h_load(s, 12), want12, "thread 12: %" PRIu64 ", want %" PRIu64,
		     h_load(s, 12), want12);
	cr_expect_eq(h_load(s, 11), want11, "thread 11: %" PRIu64 ", want %" PRIu64,
		     h_load(s, 11), want11);
	cr_expect_eq(h_load(s, 10), NICE0, "thread 10 (root): %" PRIu64, h_load(s, 10));
	/* 1/2 x 1024/1359 x 512/1536 x 2: the fractions' product within the rounding */
	cr_expect(fabs((double)want13 / NICE0 - 0.5 * 1024.0 / 1359.0 * (1.0 / 3.0) * 2.0) < 1e-5,
		  "thread 13's fraction %.6f", (double)want13 / NICE0);
	stt_sched_free();
}

/*
 * Only tasks sit in a tree, the root's: every group's queue has an empty timeline and no curr,
 * and the root's timeline holds the four tasks that are not running, its Σ w their h_load.
 */
Test(sched_flat, only_tasks_in_the_root_tree)
{
	struct sched *s = flat_one_cpu(SCHED_POLICY_EEVDF_FLAT, true);
	const struct cfs_rq *root;
	int64_t sum = 0;
	unsigned n = 0;

	nested_layout(s);
	stt_advance(s, 57 * MS);
	root = s->cpu[0].cfs;
	for (int g = 1; g <= 3; g++) {
		const struct cfs_rq *q = s->tg[g]->cfs_rq[0];

		cr_expect_eq(q->tl_n, 0, "group %d's timeline holds %u", g, q->tl_n);
		cr_expect_null(q->curr, "group %d's queue has a curr", g);
		cr_expect_eq(q->sum_weight, 0, "group %d's Σ w", g);
	}
	cr_assert_not_null(root->curr);
	cr_expect_not_null(root->curr->task, "the root's curr is a task");
	cr_expect_eq(root->curr, &s->cpu[0].curr->se, "the root's curr is the running task");
	for (int t = 10; t <= 14; t++) {
		const struct sched_entity *se = &s->thr[t]->se;

		if (rb_node_is_clear(&se->node))
			continue;
		n++;
		sum += (int64_t)se->h_load;
	}
	cr_expect_eq(root->tl_n, 4, "the root's timeline holds %u", root->tl_n);
	cr_expect_eq(n, 4, "%u tasks in a timeline", n);
	cr_expect_eq(root->sum_weight, sum, "root Σ w %" PRId64 ", its tasks' h_load %" PRId64,
		     root->sum_weight, sum);
	stt_sched_free();
}

/*
 * Busy threads in nested groups on one CPU get their hierarchical fractions, flat or not:
 * thread 10 1024/3072; A's 2048/3072 split 1024 : 512 between thread 11 and B; B's split
 * 335 : 1024 between thread 12 and C; C's halves between 13 and 14.
 */
static void nested_shares(enum sched_policy pol)
{
	struct sched *s = flat_one_cpu(pol, true);
	const uint64_t T = 4000 * MS;
	double A = 2.0 / 3.0, B = A * 512.0 / 1536.0, C = B * 1024.0 / 1359.0;
	const double want[] = { 1.0 / 3.0, A * 1024.0 / 1536.0, B * 335.0 / 1359.0, C / 2, C / 2 };

	nested_layout(s);
	stt_advance(s, T);
	for (int t = 10; t <= 14; t++) {
		double got = (double)sched_thread_exec(s, t, T) / (double)T;

		cr_expect(fabs(got - want[t - 10]) < 0.004, "[%s] thread %d: %.4f, want %.4f",
			  sched_policy_name(pol), t, got, want[t - 10]);
	}
	stt_sched_free();
}

Test(sched_flat, nested_shares_flat) { nested_shares(SCHED_POLICY_EEVDF_FLAT); }
Test(sched_flat, nested_shares_eevdf) { nested_shares(SCHED_POLICY_EEVDF); }

/*
 * h_load is recomputed at the task's enqueue, pick and tick only. Group G (1024) on one CPU;
 * threads 1, 2, 3 in G with 10 ms slices (thread 1 stays protected through its first ticks).
 * Thread 1 runs alone from 0: G's load is its own, h_load = NICE_0_LOAD. Thread 2 wakes at
 * 0.2 ms: its enqueue gives it NICE_0_LOAD x 1024/2048; thread 1's stays NICE_0_LOAD (no
 * recomputation for the running task at another's enqueue). Thread 3 wakes at 0.3 ms: 1/3 of
 * NICE_0_LOAD for it, thread 2 keeps its 1/2 (queued: stale). The tick at 1 ms recomputes
 * thread 1's: 1/3. Thread 2's stays 1/2 until it is picked.
 */
Test(sched_flat, a_stale_h_load_waits_for_enqueue_pick_or_tick)
{
	struct sched *s = flat_one_cpu(SCHED_POLICY_EEVDF_FLAT, true);
	const uint64_t half = NICE0 / 2, third = NICE0 / 3;
	uint64_t now;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	for (int t = 1; t <= 3; t++)
		OK(sched_thread_new(s, t, 1, 0, 10 * MS, 0));
	OK(sched_wakeup(s, 1, 0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(h_load(s, 1), NICE0, "alone: %" PRIu64, h_load(s, 1));
	OK(sched_wakeup(s, 2, 200 * US));
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "thread 1 is protected");
	cr_expect_eq(h_load(s, 2), half, "thread 2 at its enqueue: %" PRIu64, h_load(s, 2));
	cr_expect_eq(h_load(s, 1), NICE0, "thread 1 after 2's enqueue: %" PRIu64, h_load(s, 1));
	OK(sched_wakeup(s, 3, 300 * US));
	cr_expect_eq(h_load(s, 3), third, "thread 3 at its enqueue: %" PRIu64, h_load(s, 3));
	cr_expect_eq(h_load(s, 2), half, "thread 2, queued: %" PRIu64, h_load(s, 2));
	cr_expect_eq(h_load(s, 1), NICE0, "thread 1 before its tick: %" PRIu64, h_load(s, 1));
	stt_advance(s, 999 * US);
	cr_expect_eq(h_load(s, 1), NICE0, "thread 1 just before its tick: %" PRIu64, h_load(s, 1));
	stt_advance(s, 1000 * US);
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "thread 1 still protected at 1 ms");
	cr_expect_eq(h_load(s, 1), third, "thread 1 after its tick: %" PRIu64, h_load(s, 1));
	cr_expect_eq(h_load(s, 2), half, "thread 2 still queued: %" PRIu64, h_load(s, 2));
	for (now = 1100 * US; sched_cpu_curr(s, 0) == 1 && now < 100 * MS; now += 100 * US)
		stt_advance(s, now);
	cr_assert_neq(sched_cpu_curr(s, 0), 1, "thread 1 never gave the CPU up");
	cr_expect_eq(h_load(s, sched_cpu_curr(s, 0)), third, "the thread picked: %" PRIu64,
		     h_load(s, sched_cpu_curr(s, 0)));
	if (sched_cpu_curr(s, 0) == 3)
		cr_expect_eq(h_load(s, 2), half, "thread 2, never picked: %" PRIu64, h_load(s, 2));
	stt_sched_free();
}

/*
 * Wakeup preemption compares the woken task with the running one. One CPU, PLACE_DEADLINE_
 * INITIAL off: thread 1 in group H and thread 2 in the root, both with 5 ms slices; thread 3
 * in H with a 0.1 ms slice. Thread 1 runs from 0 (protected to its deadline 5), thread 2 is
 * placed at 0 with deadline 5. At the 5 ms tick thread 1's request is used up (v1 = 5,
 * V = 2.5): thread 2 runs, v2 = 0, deadline 5. Thread 3 wakes at 5.1 ms (v2 = 0.1).
 *
 * Flat: it is placed on the root at V = (0.1 + 5) / 2 = 2.55 with h_load NICE_0_LOAD x
 * 1024/2048, so deadline 2.55 + 0.2. Its slice is shorter than thread 2's (PREEMPT_SHORT), so
 * thread 2's protection does not count; thread 2 is eligible but its deadline 5 is later, and
 * thread 1 (v 5 > V) is not eligible: thread 3 runs at once.
 * Hierarchical: the entities compared are thread 2 and H's entity, whose slice (5 ms, H's
 * shortest when it was enqueued at 0) is not shorter: thread 2 keeps its protected slice.
 */
static int preempt_at_wakeup(enum sched_policy pol)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, pol, 1);
	cfg.cost = zero_cost;
	cfg.check = true;
	cfg.feat[SCHED_FEAT_PLACE_DEADLINE_INITIAL] = false;
	s = stt_sched_cfg(&cfg);
	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 5 * MS, 0));
	OK(sched_thread_new(s, 2, 0, 0, 5 * MS, 0));
	OK(sched_thread_new(s, 3, 1, 0, 100 * US, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	stt_advance(s, 4999 * US);
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "[%s] thread 1 runs to its deadline",
		     sched_policy_name(pol));
	stt_advance(s, 5000 * US);
	cr_assert_eq(sched_cpu_curr(s, 0), 2, "[%s] thread 2 from 5 ms", sched_policy_name(pol));
	OK(sched_wakeup(s, 3, 5100 * US));
	return sched_cpu_curr(s, 0);
}

Test(sched_flat, the_wakee_is_compared_with_the_running_task)
{
	cr_expect_eq(preempt_at_wakeup(SCHED_POLICY_EEVDF_FLAT), 3, "flat: thread 3 preempts");
	stt_sched_free();
	cr_expect_eq(preempt_at_wakeup(SCHED_POLICY_EEVDF), 2, "hierarchical: thread 2 stays");
	stt_sched_free();
}

/*
 * Only tasks are delayed. One CPU, groups G1 and G2 (1024 each) with a busy thread each.
 * Thread 2 (in G2) sleeps while it runs with its vruntime past V, where the delay is decided:
 * on the root under the flat pick, where thread 2 itself is not eligible; under the
 * hierarchical policy on the root too, for G2's entity (thread 2 is alone in G2's queue, so
 * always eligible there). Flat: thread 2 stays queued, delayed, in the root's tree, and in
 * G2's queue, whose entity stays queued too, not delayed (__dequeue_task() returns before
 * dequeue_hierarchy()). Hierarchical: thread 2 leaves G2's queue and G2's entity is the one
 * delayed.
 */
static void sleeps_ineligible(struct sched *s, bool flat)
{
	uint64_t now = 0;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 0, 0));
	OK(sched_thread_new(s, 2, 2, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	for (;;) {
		const struct sched_entity *ge = s->tg[2]->se[0];

		stt_advance(s, now += 100 * US);
		cr_assert_lt(now, 100 * MS, "thread 2 never ran past V");
		OK(sched_thread_set_nice(s, 2, 0, now));	/* update_curr(), nothing else */
		if (sched_cpu_curr(s, 0) == 2 &&
		    !(flat ? sched__flat_eligible(s->thr[2]) : entity_eligible(ge->cfs_rq, ge)))
			break;
	}
	OK(sched_sleep(s, 2, now));
}

Test(sched_flat, only_tasks_are_delayed)
{
	struct sched *s = flat_one_cpu(SCHED_POLICY_EEVDF_FLAT, true);
	const struct sched_entity *se;

	sleeps_ineligible(s, true);
	se = &s->thr[2]->se;
	cr_expect(se->sched_delayed && se->on_rq, "flat: thread 2 delayed");
	cr_expect(!rb_node_is_clear(&se->node), "flat: thread 2 in the root's tree");
	cr_expect(s->tg[2]->se[0]->on_rq, "flat: G2's entity still queued, for its delayed task");
	cr_expect(!s->tg[2]->se[0]->sched_delayed, "flat: G2's entity is not delayed");
	stt_sched_free();

	s = flat_one_cpu(SCHED_POLICY_EEVDF, true);
	sleeps_ineligible(s, false);
	se = &s->thr[2]->se;
	cr_expect(!se->on_rq, "hierarchical: thread 2 left its queue");
	cr_expect(s->tg[2]->se[0]->sched_delayed, "hierarchical: G2's entity is delayed");
	stt_sched_free();
}

/*
 * The invariant checker through random workloads under the flat pick: 4 CPUs, groups three
 * deep (one idle, two with quotas that throttle), 32 threads of random nice and slices; 5000
 * random operations (wakeups, sleeps, sleeps of the running thread, yields, moves between
 * groups, nice and slice changes, affinity, group weights, time passing). sched_check() after
 * every one.
 */
static void random_flat(bool elision, uint64_t seed)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF_FLAT, 4, elision, NULL, false);
	static const int tgs[] = { 0, 1, 2, 3, 4, 5, 6 };
	uint64_t rng = seed, now = 0;
	enum { NTHR = 32 };
	char when[96];

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 1, 2048, false, 0));
	OK(sched_tg_new(s, 3, 2, 100, false, 0));
	OK(sched_tg_new(s, 4, 0, 512, false, 0));
	OK(sched_tg_new(s, 5, 4, 1024, true, 0));
	OK(sched_tg_new(s, 6, 0, 300, false, 0));
	OK(sched_tg_set_bandwidth(s, 2, 3 * MS, 10 * MS, 0, 0));
	OK(sched_tg_set_bandwidth(s, 6, 2 * MS, 5 * MS, 0, 0));
	for (int t = 1; t <= NTHR; t++) {
		int nice = (int)(stt_lcg(&rng) % 40) - 20;
		uint64_t slice = stt_lcg(&rng) % 3 == 0 ? 100000 + stt_lcg(&rng) % 3000000 : 0;

		OK(sched_thread_new(s, t, tgs[stt_lcg(&rng) % 7], nice, slice, 0));
	}
	stt_check_ok(s, "setup");
	for (int step = 0; step < 5000; step++) {
		uint32_t op = stt_lcg(&rng) % 18;
		int tid = 1 + (int)(stt_lcg(&rng) % NTHR);

		now += stt_lcg(&rng) % (2 * MS);
		switch (op) {
		case 0: case 1: case 2: case 3: case 4:
			OK(sched_wakeup(s, tid, now));
			break;
		case 5: case 6:
			OK(sched_sleep(s, tid, now));
			break;
		case 7: case 8: {
			int c = (int)(stt_lcg(&rng) % 4), cur;

			stt_advance(s, now);
			cur = sched_cpu_curr(s, c);
			if (cur > 0)
				OK(stt_lcg(&rng) % 3 ? sched_sleep(s, cur, now)
						     : sched_thread_yield(s, cur, now));
			break;
		}
		case 9: case 10:
			OK(sched_thread_move(s, tid, tgs[stt_lcg(&rng) % 7], now));
			break;
		case 11:
			OK(sched_thread_set_nice(s, tid, (int)(stt_lcg(&rng) % 40) - 20, now));
			break;
		case 12: {
			uint64_t mask = 1 + stt_lcg(&rng) % 15;

			OK(sched_thread_set_affinity(s, tid, &mask, 1, now));
			break;
		}
		case 13:
			OK(sched_thread_set_slice(s, tid, stt_lcg(&rng) % 2 ? 0 : 200000, now));
			break;
		case 14:
			OK(sched_tg_set(s, 1 + (int)(stt_lcg(&rng) % 6), 50 + stt_lcg(&rng) % 4000,
					false, now));
			break;
		default:
			stt_advance(s, now);
			break;
		}
		snprintf(when, sizeof(when), "step %d (op %u, tid %d, t %" PRIu64 ")", step, op,
			 tid, now);
		stt_check_ok(s, when);
	}
	for (int t = 1; t <= NTHR; t++) {
		now += 10000;
		OK(sched_thread_exit(s, t, now));
		stt_check_ok(s, "exit");
	}
	for (int i = 6; i >= 1; i--)
		OK(sched_tg_free(s, i, now));
	for (int c = 0; c < 4; c++)
		cr_expect_eq(sched_cpu_curr(s, c), -1);
	stt_check_ok(s, "end");
	stt_sched_free();
}

Test(sched_flat, random_workloads_keep_every_invariant) { random_flat(true, 12345); }
Test(sched_flat, random_workloads_keep_every_invariant_noelide) { random_flat(false, 777); }
Test(sched_flat, random_workloads_keep_every_invariant_seed3) { random_flat(true, 2026); }
