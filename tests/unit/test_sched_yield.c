// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_yield.c - sched_thread_yield(), the kernel's sched_yield(2): its
 * do_sched_yield() (yield_task_fair(), then schedule()) under EEVDF as of Linux 6.18 and CFS as
 * of 6.5. The test is the driver, calling the scheduler with the time.
 *
 * Every expected value is derived from the kernel's rules (docs/scheduler.md), with one CPU
 * (tunable factor 1 + ilog2(1) = 1), HZ 1000 and no overhead costs, so that a nice-0 entity's
 * vruntime is exactly its run time plus where it was placed:
 *   EEVDF: base slice 0.70 ms; a new task is placed at V with half a request
 *          (PLACE_DEADLINE_INITIAL): deadline = v + 0.35 ms; vslice = calc_delta_fair(slice)
 *          = slice * 1024 * sched_prio_to_wmult[nice + 20] / 2^32 (the identity at nice 0).
 *   CFS:   latency 6 ms, min_granularity 0.75 ms, wakeup_granularity 1 ms; a new task is placed
 *          at min_vruntime + sched_vslice (START_DEBIT), sched_slice = 6 ms x w / (W + w).
 * Virtual times are compared in cgsim's exact units, 2^-32 ns (docs/scheduler.md, "Virtual
 * time in exact fixed point").
 */
#include "tests/unit/sched_test_util.h"

/* the entities' buddies, deadlines and vruntimes are internal: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_yield, .fini = stt_fini);

#define US 1000ull
#define MS 1000000ull

/* sched_prio_to_wmult[25], nice 5 (whose weight is 335), from kernel/sched/core.c */
#define WMULT_NICE5	12820798

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

/* @ns of nice-0 virtual time in cgsim's units */
static sv_t vns(uint64_t ns)
{
	return (sv_t)ns << 32;
}

/* One CPU (or @cpus), zero costs, the invariant checker after every call; freed by stt_fini(). */
static struct sched *new_sched(enum sched_policy pol, int cpus)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, pol, cpus);
	cfg.cost = zero_cost;
	cfg.check = true;
	s = sched_new(&cfg);
	cr_assert_not_null(s, "sched_new failed");
	stt_s = s;
	return s;
}

#define OK(call)	STT_OK(s, call)

static void advance(struct sched *s, uint64_t now)
{
	sched_advance(s, now);
	stt_drain(s);
}

static struct sched_entity *se_of(struct sched *s, int tid)
{
	struct sched_thread *t = sched__thr_get(s, tid);

	cr_assert_not_null(t, "no thread %d", tid);
	return &t->se;
}

static struct sched_thread_stats stats(const struct sched *s, int tid)
{
	struct sched_thread_stats st;

	cr_assert_eq(sched_thread_stats(s, tid, &st), 0);
	return st;
}

/* The sched_switch events of a run. */
struct switches {
	int n;
	struct sched_trace_event ev[16];
};

static void on_trace(void *ctx, const struct sched_trace_event *ev)
{
	struct switches *sw = ctx;

	if (ev->kind == SCHED_TRACE_SWITCH && sw->n < 16)
		sw->ev[sw->n++] = *ev;
}

/* ======================= EEVDF (6.18) ======================= */

/*
 * Threads 1 and 2 are new at 0: thread 1 runs, v1 = 0, deadline 0.35 ms, protected to it
 * (set_protect_slice(): the shortest request queued is its own). Thread 2 is placed at V = 0 with
 * deadline 0.35 ms: curr is eligible and protected, so it keeps the CPU. At 0.3 ms thread 1
 * yields: update_curr() gives v1 = 0.3 ms (its request is not used up, its protection not over),
 * then deadline += vslice = 0.35 + 0.70 = 1.05 ms, vruntime unchanged. schedule(): V = (0.3 +
 * 0) / 2 = 0.15 < v1, so curr is not eligible and __pick_eevdf() takes thread 2 (v2 = 0): the
 * switch is at once, a switch out while runnable (prev_state R, counted as preempted).
 */
Test(sched_yield, eevdf_yield_pushes_the_deadline_one_slice_and_switches)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);
	struct switches sw = { 0 };
	struct sched_thread_stats st;

	sched_set_trace_hook(s, on_trace, &sw);
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_assert_eq(se_of(s, 1)->deadline, vns(350 * US), "initial deadline (PLACE_DEADLINE_INITIAL)");

	advance(s, 300 * US);
	OK(sched_thread_yield(s, 1, 300 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "curr %d after the yield", sched_cpu_curr(s, 0));
	cr_expect_eq(se_of(s, 1)->vruntime, vns(300 * US), "the yield moved the vruntime");
	cr_expect_eq(se_of(s, 1)->deadline, vns(350 * US) + vns(700 * US),
		     "deadline not pushed by exactly one vslice");
	cr_expect_eq(se_of(s, 2)->deadline, vns(350 * US), "the other thread's deadline moved");

	st = stats(s, 1);
	cr_expect(st.runnable && !st.running, "the yielder must stay runnable, off the CPU");
	cr_expect_eq(st.preempted, 1, "a yield's switch out is a switch out while runnable");
	cr_assert_eq(sw.n, 2, "switches: %d", sw.n);	/* idle -> 1 at 0, 1 -> 2 */
	cr_expect_eq(sw.ev[1].at, 300 * US);
	cr_expect_eq(sw.ev[1].prev, 1);
	cr_expect_eq(sw.ev[1].tid, 2);
	cr_expect_eq(sw.ev[1].prev_state, SCHED_TRACE_PREEMPTED, "prev_state must be R");
	stt_check_ok(s, "the yield");
}

/*
 * yield_task_fair() returns at once when rq->nr_running == 1, and schedule() picks the same task:
 * thread 1, alone, keeps its vruntime-independent state (deadline 0.35 ms at 0.2 ms), the CPU
 * and its next tick.
 */
Test(sched_yield, eevdf_yield_alone_changes_nothing)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);
	uint64_t next_tick;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	advance(s, 200 * US);
	next_tick = sched_next_tick(s, 0);
	OK(sched_thread_yield(s, 1, 200 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(se_of(s, 1)->deadline, vns(350 * US), "a lone yield moved the deadline");
	cr_expect_eq(sched_next_tick(s, 0), next_tick, "a lone yield moved the next tick");
	cr_expect_eq(stats(s, 1).switches, 1);
	cr_expect_eq(stats(s, 1).preempted, 0);
	stt_check_ok(s, "a lone yield");
}

/*
 * rq->nr_running still counts a task DELAY_DEQUEUE keeps queued. As above thread 1 yields at
 * 0.3 ms (deadline 1.05 ms) and thread 2 runs from v2 = 0; it sleeps at 0.75 ms with v2 = 0.45 >
 * V = (0.3 + 0.45) / 2, not eligible: it stays queued, delayed, and thread 1 runs again, protected
 * to its deadline (set_protect_slice(): both requests are 0.7 ms). Thread 1 is then the only
 * runnable task, but not the only one on the runqueue: its yield at 0.8 ms (v1 = 0.35, V = 0.4,
 * eligible, protected) still pushes its deadline to 1.75 ms, and the pick keeps it.
 */
Test(sched_yield, eevdf_yield_counts_a_delayed_task_as_rq_nr_running_does)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	advance(s, 300 * US);
	OK(sched_thread_yield(s, 1, 300 * US));
	cr_assert_eq(sched_cpu_curr(s, 0), 2);
	advance(s, 750 * US);
	OK(sched_sleep(s, 2, 750 * US));
	cr_assert(se_of(s, 2)->sched_delayed, "thread 2 was eligible at its sleep?");
	cr_assert_eq(sched_cpu_curr(s, 0), 1);

	advance(s, 800 * US);
	OK(sched_thread_yield(s, 1, 800 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(se_of(s, 1)->deadline, vns(1050 * US) + vns(700 * US),
		     "a yield next to a delayed task must still push the deadline");
	stt_check_ok(s, "a yield next to a delayed task");
}

/*
 * Since 6.17 slice protection is a vruntime (vprot) the yield leaves alone, so an eligible
 * yielder inside it is picked again. Thread 1 (slice 0.7 ms) runs from 0; thread 2 (custom slice
 * 0.1 ms) is new at 0 with deadline 0.05 ms and preempts (PREEMPT_SHORT: the pick without
 * protection is it, and thread 1's protection is cancelled); thread 3 (0.7 ms) is new at 0, v3 = 0,
 * deadline 0.35 ms, and waits: thread 2 is protected. At the 1 ms tick thread 2 has used its
 * request (v2 = 1 ms, deadline 1.1 ms); V = 1/3 ms, so it is not eligible and thread 1 (queued
 * before thread 3, same deadline) runs from v1 = 0, protected to v1 + 0.1 ms (the shortest
 * request queued) = 0.1 ms. It yields at 1.05 ms: v1 = 0.05 ms, deadline 0.35 + 0.7 = 1.05 ms,
 * V = 0.35 ms. Thread 3 is eligible with an earlier deadline, yet thread 1 keeps the CPU: it is
 * eligible and protected. At the 2 ms tick its protection is over (v1 = 0.95 ms, V = 0.65 ms, not
 * eligible) and thread 3 runs.
 */
Test(sched_yield, eevdf_yield_inside_the_protected_slice_keeps_the_cpu)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 100 * US, 0));
	OK(sched_thread_new(s, 3, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	OK(sched_wakeup(s, 3, 0));
	cr_assert_eq(sched_cpu_curr(s, 0), 2);
	advance(s, 1 * MS);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_assert_eq(se_of(s, 1)->vprot, vns(100 * US), "protection to the shortest request");

	advance(s, 1 * MS + 50 * US);
	OK(sched_thread_yield(s, 1, 1 * MS + 50 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "a protected eligible yielder lost the CPU");
	cr_expect_eq(se_of(s, 1)->deadline, vns(1050 * US));
	cr_expect_eq(se_of(s, 1)->vprot, vns(100 * US), "the yield changed the protection");
	cr_expect_eq(stats(s, 1).preempted, 1, "only the preemption at 0");

	advance(s, 2 * MS);
	cr_expect_eq(sched_cpu_curr(s, 0), 3, "at 2 ms curr %d", sched_cpu_curr(s, 0));
	stt_check_ok(s, "the protected yield");
}

/*
 * calc_delta_fair() scales the pushed request by 1024 / weight: for nice 5 (weight 335) by
 * sched_prio_to_wmult[25] x 1024 / 2^32. Thread 1 (nice 5) runs from 0 with v1 = 0 and deadline
 * vslice / 2; thread 2 (nice 0) waits (curr protected). At 0.2 ms thread 1 yields: v1 =
 * calc_delta_fair(0.2 ms) > V (which the nice-0 thread at 0 pulls below it), so thread 2 runs,
 * and thread 1's deadline grows by calc_delta_fair(0.7 ms) = 0.7 ms x 1024 / 335 = 2.1397 ms.
 */
Test(sched_yield, eevdf_yield_scales_the_slice_by_the_weight)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);
	sv_t vslice = (sv_t)700000 * 1024 * WMULT_NICE5, before, grew;
	uint32_t w = 0;

	OK(sched_thread_new(s, 1, 0, 5, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	cr_assert_eq(sched_thread_tg(s, 1, &w), 0);
	cr_assert_eq(w, 335);
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	before = se_of(s, 1)->deadline;
	cr_assert_eq(before, vslice / 2, "initial deadline: half a weighted request");

	advance(s, 200 * US);
	OK(sched_thread_yield(s, 1, 200 * US));
	grew = se_of(s, 1)->deadline - before;
	cr_expect_eq(se_of(s, 1)->vruntime, (sv_t)200000 * 1024 * WMULT_NICE5);
	cr_expect_eq(grew, vslice, "deadline grew by %.3f ns, want 700000 x 1024 x wmult / 2^32",
		     (double)grew / 4294967296.0);
	cr_expect(fabs((double)grew / 4294967296.0 - 700000.0 * 1024 / 335) < 1.0,
		  "deadline grew by %.3f ns, want 0.7 ms x 1024 / 335", (double)grew / 4294967296.0);
	cr_expect_eq(sched_cpu_curr(s, 0), 2);
	stt_check_ok(s, "a weighted yield");
}

/*
 * yield_task_fair() touches only the task's own entity (se = &curr->se, no walk up). Thread 1 in
 * group 1 and thread 2 in the root compete at the root; thread 1's yield at 0.3 ms pushes its own
 * deadline by a vslice and leaves its group entity's where it was.
 */
Test(sched_yield, eevdf_yield_moves_only_the_task_entity)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1);
	struct sched_entity *gse;
	sv_t gdl, tdl;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	advance(s, 300 * US);
	gse = se_of(s, 1)->parent;
	cr_assert_not_null(gse);
	gdl = gse->deadline;
	tdl = se_of(s, 1)->deadline;
	OK(sched_thread_yield(s, 1, 300 * US));
	cr_expect_eq(se_of(s, 1)->deadline, tdl + vns(700 * US));
	cr_expect_eq(gse->deadline, gdl, "the group entity's deadline moved");
	stt_check_ok(s, "a yield inside a group");
}

/* ======================= CFS (6.5) ======================= */

/*
 * Thread 1 is new at 0: v1 = 0 + sched_vslice = 6 ms (one entity: the whole latency). It runs
 * alone to 10 ms (v1 = 16 ms = min_vruntime); thread 2 is new there: v2 = 16 + 6 x 1/2 = 19 ms,
 * behind curr, no preemption. From the 11 ms tick on thread 1 has run more than its ideal slice
 * (3 ms) at every tick and is picked again while it stays left of thread 2 (to 13 ms).
 */
static struct sched *cfs_two_threads(void)
{
	struct sched *s = new_sched(SCHED_POLICY_CFS, 1);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	advance(s, 10 * MS);
	OK(sched_wakeup(s, 2, 10 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_assert_eq(se_of(s, 1)->vruntime, vns(16 * MS));
	cr_assert_eq(se_of(s, 2)->vruntime, vns(19 * MS));
	return s;
}

/*
 * At 12.5 ms thread 1 (v1 = 18.5 ms) yields: set_skip_buddy(). pick_next_entity(): the leftmost
 * is curr, the skip buddy, and the one after it, thread 2, is 0.5 ms <= wakeup_gran (1 ms)
 * ahead: thread 2 runs at once. set_next_entity() clears only the picked entity's buddies, so
 * the skip mark stays on thread 1. Thread 2's check_preempt_tick() fires at the 16 ms tick (it
 * ran 3.5 ms > 3 ms); the leftmost is thread 1 (18.5 ms) and the one after it, thread 2 at
 * 22.5 ms, is 4 ms > wakeup_gran ahead, so the skip buddy runs after all, which clears the mark.
 */
Test(sched_yield, cfs_yield_runs_the_sibling_within_wakeup_gran)
{
	struct sched *s = cfs_two_threads();
	struct cfs_rq *root = s->cpu[0].cfs;

	advance(s, 12 * MS + 500 * US);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_assert_null(root->skip);
	OK(sched_thread_yield(s, 1, 12 * MS + 500 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "curr %d after the yield", sched_cpu_curr(s, 0));
	cr_expect_eq(se_of(s, 1)->vruntime, vns(18 * MS + 500 * US), "a CFS yield moved vruntime");
	cr_expect_eq(root->skip, se_of(s, 1), "the skip buddy must outlive the sibling's pick");
	cr_expect_eq(stats(s, 1).preempted, 1);
	cr_expect(stats(s, 1).runnable);

	advance(s, 15 * MS + 999 * US);
	cr_expect_eq(sched_cpu_curr(s, 0), 2);
	advance(s, 16 * MS);
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "at 16 ms curr %d", sched_cpu_curr(s, 0));
	cr_expect_null(root->skip, "picking the skip buddy must clear it");
	stt_check_ok(s, "the CFS yield");
}

/*
 * At 11.5 ms thread 1 (v1 = 17.5 ms) yields, 1.5 ms > wakeup_gran left of thread 2: it keeps the
 * CPU and is the skip buddy. At the 12 ms tick check_preempt_tick() finds it ran 12 ms > 3 ms
 * and clears curr's buddies ("ensure it doesn't get re-elected due to buddy favours"), the skip
 * mark with them: the pick finds it leftmost (18 ms < 19 ms) with no mark and keeps it, exactly
 * as without the yield, until the 13 ms tick (19 ms each: the tie goes to the queued thread).
 */
Test(sched_yield, cfs_yield_beyond_wakeup_gran_keeps_the_cpu)
{
	struct sched *s = cfs_two_threads();
	struct cfs_rq *root = s->cpu[0].cfs;

	advance(s, 11 * MS + 500 * US);
	OK(sched_thread_yield(s, 1, 11 * MS + 500 * US));
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "the yielder is 1.5 ms ahead: it must keep the CPU");
	cr_expect_eq(root->skip, se_of(s, 1));
	cr_expect_eq(stats(s, 1).preempted, 0);
	advance(s, 12 * MS);
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "at 12 ms curr %d", sched_cpu_curr(s, 0));
	cr_expect_null(root->skip, "check_preempt_tick() must clear curr's skip mark");
	advance(s, 12 * MS + 999 * US);
	cr_expect_eq(sched_cpu_curr(s, 0), 1);
	advance(s, 13 * MS);
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 13 ms curr %d", sched_cpu_curr(s, 0));
	stt_check_ok(s, "the CFS yield");
}

/*
 * set_skip_buddy() walks up (for_each_sched_entity): threads 1 and 2 in group 1, thread 3 in the
 * root. After thread 1's yield its group's queue skips it and the root skips the group's entity,
 * whoever the pick chose (set_next_entity() clears only the picked entities' marks).
 */
Test(sched_yield, cfs_yield_marks_every_level)
{
	struct sched *s = new_sched(SCHED_POLICY_CFS, 1);
	struct sched_entity *se, *gse;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 0, 0));
	OK(sched_thread_new(s, 2, 1, 0, 0, 0));
	OK(sched_thread_new(s, 3, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	OK(sched_wakeup(s, 3, 0));
	advance(s, 20 * MS);
	for (int i = 0; i < 100 && sched_cpu_curr(s, 0) != 1; i++)
		advance(s, s->now + 1 * MS);
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "thread 1 never ran");
	se = se_of(s, 1);
	gse = se->parent;
	cr_assert_not_null(gse);
	OK(sched_thread_yield(s, 1, s->now));
	cr_expect_eq(se->cfs_rq->skip, se, "the group queue's skip buddy");
	cr_expect_eq(gse->cfs_rq->skip, gse, "the root's skip buddy");
	stt_check_ok(s, "a yield inside a group");
}

/* ======================= both policies ======================= */

/*
 * The documented edges: no thread -ENOENT; time going backwards -EINVAL; a thread without a CPU
 * to give up (never woken, queued behind curr, asleep) is a no-op returning 0.
 */
Test(sched_yield, bad_calls_and_threads_not_running)
{
	for (int p = 0; p < 2; p++) {
		enum sched_policy pol = p ? SCHED_POLICY_CFS : SCHED_POLICY_EEVDF;
		const char *n = sched_policy_name(pol);
		struct sched *s = new_sched(pol, 1);
		int curr, queued;
		sv_t v, d;

		OK(sched_thread_new(s, 1, 0, 0, 0, 0));
		OK(sched_thread_new(s, 2, 0, 0, 0, 0));
		OK(sched_thread_new(s, 3, 0, 0, 0, 0));
		cr_expect_eq(sched_thread_yield(s, 1, 0), 0, "[%s] never woken", n);
		OK(sched_wakeup(s, 1, 0));
		OK(sched_wakeup(s, 2, 0));
		advance(s, 500 * US);
		curr = sched_cpu_curr(s, 0);
		cr_assert(curr == 1 || curr == 2, "[%s] curr %d", n, curr);
		queued = 3 - curr;
		cr_expect_eq(sched_thread_yield(s, 9, 500 * US), -ENOENT, "[%s]", n);
		cr_expect_eq(sched_thread_yield(s, -1, 500 * US), -ENOENT, "[%s]", n);
		cr_expect_eq(sched_thread_yield(s, curr, 400 * US), -EINVAL, "[%s] time went back", n);

		v = se_of(s, queued)->vruntime;
		d = se_of(s, queued)->deadline;
		OK(sched_thread_yield(s, queued, 500 * US));	/* queued, not running */
		OK(sched_thread_yield(s, 3, 500 * US));		/* asleep since its creation */
		cr_expect_eq(sched_cpu_curr(s, 0), curr, "[%s]", n);
		cr_expect_eq(se_of(s, queued)->vruntime, v, "[%s]", n);
		cr_expect_eq(se_of(s, queued)->deadline, d, "[%s]", n);
		cr_expect_null(s->cpu[0].cfs->skip, "[%s]", n);
		stt_check_ok(s, "yields of threads not running");
		OK(sched_sleep(s, queued, 600 * US));
		OK(sched_thread_yield(s, queued, 600 * US));	/* asleep after running */
		cr_expect_eq(sched_cpu_curr(s, 0), curr, "[%s]", n);
		stt_check_ok(s, "the yield of a sleeper");
		sched_free(stt_s);
		stt_s = NULL;
	}
}

/*
 * What one run with yields did, per thread: CPU time, switches, preemptions, wait, and the
 * entity's exact vruntime and deadline.
 */
struct outcome {
	struct sched_thread_stats st[6];
	sv_t v[6], d[6];
};

/*
 * Five busy threads (two in a group) on @cpus CPUs with the default costs for 200 ms; at
 * pseudo-random times the thread running on a pseudo-random CPU yields.
 */
static void yield_run(enum sched_policy pol, int cpus, bool elision, struct outcome *out)
{
	struct sched *s = stt_sched(pol, cpus, elision, NULL, true);
	uint64_t rng = 42, now = 0;

	OK(sched_tg_new(s, 1, 0, 512, false, 0));
	for (int tid = 1; tid <= 5; tid++) {
		OK(sched_thread_new(s, tid, tid <= 2 ? 1 : 0, tid == 5 ? 3 : 0, 0, 0));
		OK(sched_wakeup(s, tid, 0));
	}
	while (now < 195 * MS) {	/* the last step ends before 200 ms */
		int cpu, tid;

		now += 37 * US + stt_lcg(&rng) % (900 * US);
		advance(s, now);
		cpu = (int)(stt_lcg(&rng) % (uint32_t)cpus);
		tid = sched_cpu_curr(s, cpu);
		if (tid >= 0)
			OK(sched_thread_yield(s, tid, now));
	}
	advance(s, 200 * MS);
	/* an entry point that accounts every CPU to now: the running threads' progress too */
	OK(sched_tg_set(s, 1, 512, false, 200 * MS));
	for (int tid = 1; tid <= 5; tid++) {
		out->st[tid] = stats(s, tid);
		out->v[tid] = se_of(s, tid)->vruntime;
		out->d[tid] = se_of(s, tid)->deadline;
	}
	sched_free(stt_s);
	stt_s = NULL;
}

/*
 * Tick elision is exact with yields: each yield dirties and replans its CPU, so the run with
 * every tick processed and the run with the elided ones give the same bits.
 */
Test(sched_yield, tick_elision_stays_exact)
{
	for (int p = 0; p < 2; p++) {
		enum sched_policy pol = p ? SCHED_POLICY_CFS : SCHED_POLICY_EEVDF;

		for (int cpus = 1; cpus <= 2; cpus++) {
			struct outcome on, off;

			memset(&on, 0, sizeof(on));
			memset(&off, 0, sizeof(off));
			yield_run(pol, cpus, true, &on);
			yield_run(pol, cpus, false, &off);
			for (int tid = 1; tid <= 5; tid++) {
				const char *n = sched_policy_name(pol);

				cr_expect_eq(on.st[tid].sum_exec_ns, off.st[tid].sum_exec_ns,
					     "[%s, %d CPUs] thread %d cpu time", n, cpus, tid);
				cr_expect_eq(on.st[tid].switches, off.st[tid].switches,
					     "[%s, %d CPUs] thread %d switches", n, cpus, tid);
				cr_expect_eq(on.st[tid].preempted, off.st[tid].preempted,
					     "[%s, %d CPUs] thread %d preempted", n, cpus, tid);
				cr_expect_eq(on.st[tid].wait_ns, off.st[tid].wait_ns,
					     "[%s, %d CPUs] thread %d wait", n, cpus, tid);
				cr_expect_eq(on.st[tid].migrations, off.st[tid].migrations,
					     "[%s, %d CPUs] thread %d migrations", n, cpus, tid);
				cr_expect(on.v[tid] == off.v[tid] && on.d[tid] == off.d[tid],
					  "[%s, %d CPUs] thread %d virtual times", n, cpus, tid);
			}
			cr_expect_gt(on.st[1].preempted + on.st[3].preempted, 0,
				     "[%s, %d CPUs] no yield switched", sched_policy_name(pol), cpus);
		}
	}
}
