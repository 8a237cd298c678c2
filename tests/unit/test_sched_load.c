// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_load.c - load tracking and balancing (docs/scheduler.md, "Load tracking
 * and balancing"), checked against the kernel's formulas: the PELT series (y^32 = 1/2), what
 * attach, detach and reweight do to a queue's average, update_cfs_rq_h_load()'s +1 divisors,
 * get_sd_balance_interval(), and what a stale contribution does to calc_group_shares().
 */
#include "tests/unit/sched_test_util.h"

/* PELT sums, published group loads and balance intervals are internal: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_load, .fini = stt_fini);

#define PERIOD 1024000ull	/* one PELT period, ns */

/* y = 2^(-1/32): the expected average of a 0/1 signal is 1024 (1 - y^n) and so on. */
static double ypow(double n)
{
	return exp2(-n / 32.0);
}

/* A series driven to its steady state under x. */
static void settled_at(struct pelt *p, uint64_t x)
{
	pelt_init(p, 0);
	pelt_set(p, 0, x);
	pelt_update(p, 1000 * PERIOD);
}

/* ---------------- the series ---------------- */

/* A blocked queue (x = 0) halves every 32 periods, by both ways of folding periods. */
Test(sched_load, blocked_average_halves_every_32_periods)
{
	static const unsigned n[] = { 32, 64, 96, 320 };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		struct pelt a, b;
		double want = 1024 * ypow(n[i]);

		settled_at(&a, 1024);
		settled_at(&b, 1024);
		cr_assert_eq(a.avg, 1024, "steady state %" PRIu64, a.avg);
		pelt_set(&a, 1000 * PERIOD, 0);
		pelt_set_event(&b, 1000 * PERIOD, 0);
		pelt_update(&a, (1000 + n[i]) * PERIOD);
		pelt_update_event(&b, (1000 + n[i]) * PERIOD);
		cr_expect(fabs((double)a.avg - want) <= 1.5, "period by period, %u periods: %" PRIu64
			  ", want %.1f", n[i], a.avg, want);
		cr_expect(fabs((double)b.avg - want) <= 1.5, "closed form, %u periods: %" PRIu64
			  ", want %.1f", n[i], b.avg, want);
	}
}

/* From nothing under x = 1024 the average is 1024 (1 - y^n), by both ways. */
Test(sched_load, rising_average_follows_the_series)
{
	static const unsigned n[] = { 1, 10, 32, 100 };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		struct pelt a, b;
		double want = 1024 * (1 - ypow(n[i]));

		pelt_init(&a, 0);
		pelt_init(&b, 0);
		pelt_set(&a, 0, 1024);
		pelt_set_event(&b, 0, 1024);
		pelt_update(&a, n[i] * PERIOD);
		pelt_update_event(&b, n[i] * PERIOD);
		/* the sum counts whole periods; the kernel's y-weighted first period differs by
		 * less than one period's worth (1024 (1 - y) = 22) */
		cr_expect(fabs((double)a.avg - want) <= 23, "period by period, %u: %" PRIu64
			  ", want %.1f", n[i], a.avg, want);
		cr_expect(fabs((double)b.avg - (double)a.avg) <= 2, "closed form, %u: %" PRIu64
			  ", period by period %" PRIu64, n[i], b.avg, a.avg);
	}
}

/*
 * pelt_full() is the fixed point of the series under x = 1024: sum = floor(sum * y) + 1024 *
 * 1024, with y the kernel's runnable_avg_yN_inv[1] / 2^32. Iterated here from 0.
 */
Test(sched_load, full_is_the_fixed_point_of_the_series)
{
	uint64_t sum = 0, next;

	for (;;) {
		next = (uint64_t)(((unsigned __int128)sum * 0xfa83b2daull) >> 32) + 1024 * 1024;
		if (next == sum)
			break;
		sum = next;
	}
	cr_expect_eq(pelt_full(), sum);
	cr_expect_eq(pelt_full(), 48934946);
}

/* A new task starts with full load (init_entity_runnable_average()). */
Test(sched_load, new_task_starts_full)
{
	struct pelt r;

	pelt_init_full(&r, 5 * PERIOD);
	cr_expect_eq(r.avg, 1024);
	cr_expect_eq(r.sum, pelt_full());
}

/*
 * attach_entity_load_avg() adds weight x runnable average to the queue; detach takes exactly
 * that away again. A nice-5 task (weight 335) always runnable brings 335.
 */
Test(sched_load, attach_and_detach_move_weight_times_runnable)
{
	struct pelt q, r;

	settled_at(&q, 1024);
	pelt_init_full(&r, 1000 * PERIOD);
	pelt_attach(&q, &r, 335, false);
	cr_expect_eq(q.avg, 1024 + 335, "after attach: %" PRIu64, q.avg);
	pelt_attach(&q, &r, 335, true);
	cr_expect_eq(q.avg, 1024, "after detach: %" PRIu64, q.avg);
	/* half runnable: half the weight */
	pelt_init(&r, 0);
	pelt_set(&r, 0, 1024);
	pelt_update(&r, 1000 * PERIOD);
	pelt_set(&r, 1000 * PERIOD, 0);
	pelt_update(&r, 1032 * PERIOD);
	pelt_attach(&q, &r, 1024, false);
	cr_expect(q.avg >= 1024 + 511 && q.avg <= 1024 + 513, "half runnable: %" PRIu64, q.avg);
	/* taking more than there is stops at 0 (sub_positive) */
	pelt_attach(&q, &r, 262144, true);
	cr_expect_eq(q.avg, 0);
}

/* reweight_entity(): the queue keeps the entity's history at its new weight. */
Test(sched_load, reweight_rescales_the_entity_history)
{
	struct pelt q, r;

	settled_at(&q, 1024);	/* one always-runnable entity of weight 1024 */
	settled_at(&r, 1024);
	pelt_reweight(&q, &r, 1024, 512);
	cr_expect_eq(q.avg, 512, "1024 -> 512: %" PRIu64, q.avg);
	pelt_reweight(&q, &r, 512, 2048);
	cr_expect_eq(q.avg, 2048, "512 -> 2048: %" PRIu64, q.avg);
}

/* ---------------- the scheduler ---------------- */

/* A checked 2-CPU scheduler at HZ 250 under @pol. */
static struct sched *new_sched2_pol(enum sched_policy pol, bool load_attach, bool blocked_load)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, pol, 2);
	cfg.tun.hz = 250;
	cfg.check = true;
	cfg.load_attach = load_attach;
	cfg.blocked_load = blocked_load;
	s = sched_new(&cfg);
	cr_assert_not_null(s);
	stt_s = s;
	return s;
}

static struct sched *new_sched2(bool load_attach, bool blocked_load)
{
	return new_sched2_pol(SCHED_POLICY_EEVDF, load_attach, blocked_load);
}

static void drain(struct sched *s)
{
	while (sched_pop_changed(s) >= 0)
		;
}

static void pin(struct sched *s, int tid, int cpu, uint64_t now)
{
	uint64_t mask = 1ull << cpu;

	cr_assert_eq(sched_thread_set_affinity(s, tid, &mask, 1, now), 0);
	drain(s);
}

/* A new nice-0 thread @tid of group @tg, pinned to @cpu and woken at time 0. */
static void start_pinned(struct sched *s, int tid, int tg, int cpu)
{
	cr_assert_eq(sched_thread_new(s, tid, tg, 0, 0, 0), 0);
	pin(s, tid, cpu, 0);
	cr_assert_eq(sched_wakeup(s, tid, 0), 0);
	drain(s);
}

static void run_to(struct sched *s, uint64_t t)
{
	sched_advance(s, t);
	drain(s);
}

/*
 * A task the balancer or an affinity change moves takes its load along: its group's queue on
 * the old CPU loses the task's load at once (DO_DETACH), the new one gains it (DO_ATTACH).
 * Without that (load_attach off) the old queue keeps its average and only decays.
 */
static void moved_load(bool attach)
{
	struct sched *s = new_sched2(attach, true);
	struct sched_tg *g;

	cr_assert_eq(sched_tg_new(s, 1, 0, 1024, false, 0), 0);
	start_pinned(s, 1, 1, 0);
	run_to(s, 1000 * STT_MS);
	pin(s, 1, 1, 1000 * STT_MS);
	g = s->tg[1];
	pelt_update(&g->cfs_rq[0]->avg, 1000 * STT_MS);
	if (attach) {
		cr_expect(g->cfs_rq[0]->avg.avg <= 2, "old queue keeps %" PRIu64,
			  g->cfs_rq[0]->avg.avg);
		cr_expect(g->cfs_rq[1]->avg.avg >= 1000, "new queue has %" PRIu64,
			  g->cfs_rq[1]->avg.avg);
		cr_expect(s->cpu[0].cfs->avg.avg <= 2, "old CPU keeps %" PRIu64,
			  s->cpu[0].cfs->avg.avg);
	} else {
		cr_expect(g->cfs_rq[0]->avg.avg >= 1000, "old queue has only %" PRIu64,
			  g->cfs_rq[0]->avg.avg);
	}
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

Test(sched_load, moved_task_takes_its_load) { moved_load(true); }
Test(sched_load, without_attach_the_old_queue_keeps_it) { moved_load(false); }

/*
 * Blocked load: thread 1 of group g runs on CPU 0 for 1 s and then sleeps for good; thread 2
 * of g runs on CPU 1 throughout. CPU 0's queue of g keeps the sleeper's load (it stays
 * attached), and only update_blocked_averages() makes it decay and leave tg->load_avg. Half a
 * second later, with blocked-load updates, CPU 0 contributes next to nothing (1024 y^500) and
 * calc_group_shares() gives g's entity on CPU 1 the whole 1024; without them CPU 0's stale
 * contribution of about 1024 stays, and CPU 1 gets 1024 x 1024 / (1024 + 1024) = 512: the
 * defect the kernel's mechanism prevents.
 */
static void blocked(bool blocked_load)
{
	struct sched *s = new_sched2(true, blocked_load);
	struct sched_tg *g;
	uint64_t w;

	cr_assert_eq(sched_tg_new(s, 1, 0, 1024, false, 0), 0);
	start_pinned(s, 1, 1, 0);
	start_pinned(s, 2, 1, 1);
	run_to(s, 1000 * STT_MS);
	cr_assert_eq(sched_sleep(s, 1, 1000 * STT_MS), 0);
	drain(s);
	run_to(s, 1500 * STT_MS);
	g = s->tg[1];
	w = g->se[1]->weight >> SCHED_LOAD_SHIFT;
	if (blocked_load) {
		cr_expect(g->cfs_rq[0]->tg_load_avg_contrib <= 2, "CPU 0 still contributes %" PRIu64,
			  g->cfs_rq[0]->tg_load_avg_contrib);
		cr_expect(w >= 1000, "g's weight on CPU 1: %" PRIu64 ", want about 1024", w);
	} else {
		cr_expect(g->cfs_rq[0]->tg_load_avg_contrib >= 1000, "CPU 0 contributes %" PRIu64,
			  g->cfs_rq[0]->tg_load_avg_contrib);
		cr_expect(w >= 500 && w <= 530, "g's weight on CPU 1: %" PRIu64 ", want about 512",
			  w);
	}
}

Test(sched_load, blocked_queue_decays_out_of_the_group_load) { blocked(true); }
Test(sched_load, without_blocked_updates_a_stale_contribution_stays) { blocked(false); }

/*
 * update_cfs_group() on a group whose queue has just emptied. Thread 2 of g runs on CPU 1
 * throughout, so CPU 1 publishes about 1024; thread 1 of g, asleep on CPU 0 since 4 ms (its load
 * has decayed to nothing), wakes there at 1 s, runs 10 ms and sleeps. While it runs, g's entity on CPU 0 weighs 1024 x 1024 / (1024 + 1024) = 512 (load =
 * max(queue weight 1024, a small average)). When it sleeps, the queue is empty:
 * - EEVDF (6.13+, and 6.12.y): "When a group becomes empty, preserve its weight. This matters for
 *   DELAY_DEQUEUE": update_cfs_group() returns at once and the entity keeps 512;
 * - CFS (5.13-6.5): the weight is recomputed from load = max(0, a) = a, the queue's average of
 *   about 1024 (1 - y^10), so 1024 a / (tg_load - contrib + a), well under 512.
 */
static void emptied_group(enum sched_policy pol)
{
	struct sched *s = new_sched2_pol(pol, true, true);
	struct sched_tg *g;
	uint64_t before, after, a, want;
	int64_t tgw;

	cr_assert_eq(sched_tg_new(s, 1, 0, 1024, false, 0), 0);
	start_pinned(s, 1, 1, 0);
	start_pinned(s, 2, 1, 1);
	run_to(s, 4 * STT_MS);
	cr_assert_eq(sched_sleep(s, 1, 4 * STT_MS), 0);	/* its new-task load decays away */
	run_to(s, 1000 * STT_MS);
	cr_assert_eq(sched_wakeup(s, 1, 1000 * STT_MS), 0);
	drain(s);
	run_to(s, 1010 * STT_MS);
	before = sched_group_weight(s, 1, 0);
	cr_expect(before >= 500 && before <= 520, "g's weight on CPU 0 while it runs: %" PRIu64
		  ", want about 512", before);
	cr_assert_eq(sched_sleep(s, 1, 1010 * STT_MS), 0);
	drain(s);
	after = sched_group_weight(s, 1, 0);
	g = s->tg[1];
	cr_assert_eq(g->cfs_rq[0]->load, 0);
	if (pol == SCHED_POLICY_EEVDF) {
		cr_expect_eq(after, before, "EEVDF: the emptied group's entity went from %" PRIu64
			     " to %" PRIu64, before, after);
	} else {
		a = g->cfs_rq[0]->avg.avg;
		tgw = g->load_avg - (int64_t)g->cfs_rq[0]->tg_load_avg_contrib + (int64_t)a;
		cr_assert_gt(tgw, 0);
		want = 1024 * a / (uint64_t)tgw;
		cr_expect(a > 100 && a < 400, "the queue's average after 10 ms: %" PRIu64, a);
		cr_expect_eq(after, want, "CFS: the emptied group's entity weighs %" PRIu64
			     ", calc_group_shares() gives %" PRIu64, after, want);
	}
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

Test(sched_load, emptied_group_keeps_its_weight_eevdf) { emptied_group(SCHED_POLICY_EEVDF); }
Test(sched_load, emptied_group_is_reweighted_cfs) { emptied_group(SCHED_POLICY_CFS); }

/*
 * task_h_load() of a task alone two groups deep on its CPU, every average settled at 1024:
 * h_load(root) = 1024, each level multiplies by 1024 / (1024 + 1), and the task's own
 * division by its queue's load + 1 adds a third: 1024 (1024/1025)^3 = 1021.
 */
Test(sched_load, h_load_of_a_nested_task)
{
	struct sched *s = new_sched2(true, true);
	struct sched_thread *t;
	uint64_t h;

	cr_assert_eq(sched_tg_new(s, 1, 0, 1024, false, 0), 0);
	cr_assert_eq(sched_tg_new(s, 2, 1, 1024, false, 0), 0);
	start_pinned(s, 1, 2, 0);
	run_to(s, 2000 * STT_MS);
	t = s->thr[1];
	h = task_h_load(t, 2000 * STT_MS);
	cr_expect(h >= 1019 && h <= 1022, "h_load %" PRIu64 ", want 1021", h);
}

/*
 * get_sd_balance_interval() on a 2-CPU domain (min_interval 2 ms, max_interval 4 ms):
 * busy, 2 ms x busy_factor 16 = 32 ms = 8 jiffies at HZ 250, minus one: 7 jiffies (28 ms);
 * 4 ms: 64 ms = 16 jiffies - 1 = 60 ms; idle, 2 ms rounds up to 1 jiffy (4 ms). At HZ 1000
 * busy 2 ms gives 31 ms. max_load_balance_interval = HZ x CPUs / 10 jiffies (200 ms at HZ 250).
 */
Test(sched_load, balance_interval_is_the_kernels)
{
	struct sched *s = new_sched2(true, true);
	struct sched_cpu *rq = &s->cpu[0];

	cr_assert_eq(sched_thread_new(s, 1, 0, 0, 0, 0), 0);
	pin(s, 1, 0, 0);
	cr_assert_eq(sched_wakeup(s, 1, 0), 0);
	drain(s);
	cr_assert_not_null(rq->curr);
	rq->sd[0].balance_interval = 2 * STT_MS;
	cr_expect_eq(get_sd_balance_interval(s, rq, 0), 28 * STT_MS);
	rq->sd[0].balance_interval = 4 * STT_MS;
	cr_expect_eq(get_sd_balance_interval(s, rq, 0), 60 * STT_MS);
	rq->sd[0].balance_interval = 64 * STT_MS;	/* beyond any domain's: the clamp */
	cr_expect_eq(get_sd_balance_interval(s, rq, 0), 200 * STT_MS);
	rq = &s->cpu[1];
	rq->sd[0].balance_interval = 2 * STT_MS;
	cr_expect_eq(get_sd_balance_interval(s, rq, 0), 4 * STT_MS, "idle: %" PRIu64,
		     get_sd_balance_interval(s, rq, 0));
	s->cfg.tun.hz = 1000;
	s->tick_ns = 1000000;
	rq = &s->cpu[0];
	rq->sd[0].balance_interval = 2 * STT_MS;
	cr_expect_eq(get_sd_balance_interval(s, rq, 0), 31 * STT_MS);
}

/*
 * rebalance_domains() tests last_balance + get_sd_balance_interval(sd, busy) with the CPU's
 * state at each tick. CPU 0 runs task 1 and CPU 1 task 2, each pinned: nothing to move. Task 1
 * sleeps at 101 ms, and CPU 0's next balance comes forward to its last balance + the idle
 * interval (4 ms, sched_balance_newidle()); it wakes at 102 ms, and CPU 0 is busy again before
 * that time comes: it balances no sooner than its last balance + the busy interval.
 */
Test(sched_load, busy_again_balances_at_the_busy_pace)
{
	struct sched *s = new_sched2(true, true);
	struct sched_cpu *rq = &s->cpu[0];
	uint64_t last, busy_due;

	s->cfg.jitter = false;
	start_pinned(s, 1, 0, 0);
	start_pinned(s, 2, 0, 1);
	run_to(s, 101 * STT_MS);
	last = rq->sd[0].last;
	cr_assert_eq(sched_sleep(s, 1, 101 * STT_MS), 0);
	drain(s);
	cr_assert_leq(rq->next_balance, last + 4 * STT_MS, "not brought forward when idle");
	cr_assert_eq(sched_wakeup(s, 1, 102 * STT_MS), 0);
	drain(s);
	busy_due = last + get_sd_balance_interval(s, rq, 0);
	cr_assert_gt(busy_due, 112 * STT_MS, "the idle-time due and the busy one too close");
	run_to(s, busy_due - 1);
	cr_expect_eq(rq->sd[0].last, last, "balanced at %.0f ms while busy, before %.0f ms",
		     rq->sd[0].last / 1e6, busy_due / 1e6);
	run_to(s, busy_due + s->tick_ns);
	cr_expect_gt(rq->sd[0].last, last);
}

/*
 * An idle CPU next to one running three tasks: the NOHZ kick at CPU 0's first tick has it
 * balance with migrate_task and an imbalance of (3 - 0) / 2 = 1 task, so exactly one task
 * moves. (The tasks are woken pinned to CPU 0 and unpinned at once, before any tick: an idle
 * CPU that had found every task pinned away would back off for up to MAX_PINNED_INTERVAL.)
 */
Test(sched_load, idle_cpu_pulls_one_of_three)
{
	struct sched *s = new_sched2(true, true);
	uint64_t all = 3;

	for (int tid = 1; tid <= 3; tid++)
		start_pinned(s, tid, 0, 0);
	cr_assert_eq(s->cpu[0].nr_running, 3);
	for (int tid = 1; tid <= 3; tid++) {
		cr_assert_eq(sched_thread_set_affinity(s, tid, &all, 1, 0), 0);
		drain(s);
	}
	cr_assert_eq(s->cpu[0].nr_running, 3, "an affinity change that keeps the CPU moves nothing");
	run_to(s, 20 * STT_MS);
	cr_expect_eq(s->cpu[0].nr_running, 2, "CPU 0 runs %u", s->cpu[0].nr_running);
	cr_expect_eq(s->cpu[1].nr_running, 1, "CPU 1 runs %u", s->cpu[1].nr_running);
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

/*
 * sched_balance_rq()'s out_all_pinned: a CPU that finds every waiting task pinned away counts
 * no failure and doubles its balance interval up to MAX_PINNED_INTERVAL (512 ms), not just to
 * the domain's max_interval (4 ms on two CPUs). Three tasks pinned to CPU 0 for 2 s: CPU 1,
 * idle, ends at 512 ms with no failure.
 */
Test(sched_load, all_pinned_backs_off_to_max_pinned_interval)
{
	struct sched *s = new_sched2(true, true);

	for (int tid = 1; tid <= 3; tid++)
		start_pinned(s, tid, 0, 0);
	run_to(s, 2000 * STT_MS);
	cr_expect_eq(s->cpu[1].nr_running, 0);
	cr_expect_eq(s->cpu[1].sd[0].balance_interval, 512 * STT_MS, "interval %" PRIu64 " ns",
		     s->cpu[1].sd[0].balance_interval);
	cr_expect_eq(s->cpu[1].sd[0].nr_balance_failed, 0);
}
