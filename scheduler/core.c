// SPDX-License-Identifier: MIT
/*
 * scheduler/core.c - the machine: CPUs and their root queues, task groups with an entity and
 * a queue per CPU, threads; the hierarchy walks of enqueue_task_fair / dequeue_task_fair /
 * pick_next_task_fair; group shares (calc_group_shares); wakeup CPU selection; periodic,
 * new-idle and NOHZ-kick load balancing; ticks, processed or elided; the overhead model.
 * docs/scheduler.md describes each piece and the kernel function it follows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/sched_internal.h"

#define NSEC_PER_MSEC	1000000ull
#define BUSY_FACTOR	16u	/* sd->busy_factor since 5.10 */
#define IMBALANCE_PCT	117u	/* sd->imbalance_pct since 5.10 */
#define CACHE_NICE_TRIES 1u	/* sd->cache_nice_tries at the MC level */

/* ---------------- small helpers ---------------- */

static uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t grid_ceil(const struct sched *s, uint64_t t)
{
	uint64_t P = s->tick_ns;

	if (t > UINT64_MAX - P)
		return UINT64_MAX;
	return (t + P - 1) / P * P;
}

static uint64_t grid_floor(const struct sched *s, uint64_t t)
{
	return t / s->tick_ns * s->tick_ns;
}

static bool cpu_allowed(const struct sched_thread *t, int cpu)
{
	return (t->affinity[cpu / 64] >> (cpu % 64)) & 1;
}

/* @rq's next tick must be recomputed (by finish()). */
static void rq_replan(struct sched *s, struct sched_cpu *rq)
{
	if (!rq->need_plan) {
		rq->need_plan = true;
		s->replan[s->nreplan++] = rq->id;
	}
}

/* @rq changed what it runs or when its thread progresses: tell the driver, and replan. */
static void rq_mark(struct sched *s, struct sched_cpu *rq)
{
	if (!rq->changed) {
		rq->changed = true;
		s->changed[s->nchanged++] = rq->id;
	}
	rq_replan(s, rq);
}

/* Something happened on @rq at @now: its ticks from @now on may matter. */
static void rq_dirty_quiet(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	if (now < rq->dirty_from)
		rq->dirty_from = now;
	rq_replan(s, rq);
}

static void rq_dirty(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	rq_dirty_quiet(s, rq, now);
	rq_mark(s, rq);
}

/*
 * The CPUs' next ticks in a binary min-heap keyed by (next_tick, cpu), so that finding the
 * next tick to process costs O(1) and replanning one CPU O(log cpus).
 */
static bool theap_less(const struct sched *s, int a, int b)
{
	const struct sched_cpu *x = &s->cpu[a], *y = &s->cpu[b];

	return x->next_tick != y->next_tick ? x->next_tick < y->next_tick : a < b;
}

static void theap_set(struct sched *s, int i, int cpu)
{
	s->theap[i] = cpu;
	s->cpu[cpu].hpos = i;
}

static void theap_fix(struct sched *s, int cpu)
{
	int i = s->cpu[cpu].hpos, n = s->ncpu;

	while (i > 0 && theap_less(s, cpu, s->theap[(i - 1) / 2])) {
		theap_set(s, i, s->theap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = cpu;

		if (l < n && theap_less(s, s->theap[l], m))
			m = s->theap[l];
		if (r < n && theap_less(s, s->theap[r], m))
			m = s->theap[r];
		if (m == cpu)
			break;
		{
			int j = s->cpu[m].hpos;

			theap_set(s, i, m);
			i = j;
		}
	}
	theap_set(s, i, cpu);
}

static unsigned levels_of(const struct sched_thread *t)
{
	return (unsigned)t->se.depth + 1;
}

static uint64_t tick_cost(const struct sched *s, const struct sched_cpu *rq)
{
	return s->cfg.cost.tick_ns + s->cfg.cost.level_ns * levels_of(rq->curr);
}

/* Overhead: the CPU spends @cost in the scheduler from max(now, whatever it owed before). */
static void rq_charge_overhead(struct sched *s, struct sched_cpu *rq, uint64_t now,
			       uint64_t cost, unsigned levels)
{
	rq->exec_start = umax(rq->exec_start, now) + cost;
	rq->overhead += cost;
	s->st.overhead_ns += cost;
	s->st.level_ops += levels;
}

/* ---------------- progress and ticks ---------------- */

/*
 * Tick accounting. A tick at grid time T on a busy CPU costs c = tick_cost: the CPU is in the
 * scheduler during [max(T, e), max(T, e) + c), where e is when curr's progress would resume.
 * Ticks up to @upto that were not processed are accounted here in closed form; the result is
 * the same as processing each (docs/scheduler.md, "Tick elision"). Returns curr's progress in
 * the intervals before those ticks and sets *e, *last, *n to the new resume time, last tick
 * accounted and number of ticks.
 */
static uint64_t ticks_between(const struct sched *s, const struct sched_cpu *rq, uint64_t upto,
			      uint64_t *e_out, uint64_t *last_out, uint64_t *n_out)
{
	uint64_t P = s->tick_ns, c = tick_cost(s, rq), e = rq->exec_start;
	uint64_t T = rq->last_tick + P, prog = 0, n = 0, k;

	*last_out = rq->last_tick;
	if (T > upto) {
		*e_out = e;
		*n_out = 0;
		return 0;
	}
	k = (upto - T) / P + 1;
	*last_out = T + (k - 1) * P;
	*n_out = k;
	/* Ticks that fall while the CPU is still in the scheduler only push e further. */
	while (n < k && e >= T) {
		e += c;
		T += P;
		n++;
	}
	if (n < k) {
		uint64_t rest = k - n;

		prog += T - e;
		if (c < P) {
			prog += (rest - 1) * (P - c);
			e = T + (rest - 1) * P + c;
		} else {
			e = T + rest * c;
		}
	}
	*e_out = e;
	return prog;
}

/* Charge @delta ns of progress to every level of curr (update_curr at each level). */
static void charge_curr(struct sched *s, struct sched_cpu *rq, uint64_t delta)
{
	struct sched_entity *se;

	if (!delta)
		return;
	for (se = &rq->curr->se; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		se->sum_exec += delta;
		se->vruntime += sched_calc_delta_fair(delta, se);
		sched_update_min_vruntime(s, q);
		if (s->ops->charged(s, q, se))
			rq->resched = true;
	}
}

/*
 * The progress curr has made, since its last charge, when the i-th (1-based) of the ticks
 * after rq->last_tick arrives: ticks that come while the CPU is still in the scheduler find no
 * progress, the first one after finds T - e, and each later one P - c more (ticks_between()).
 */
struct tick_series {
	uint64_t n0, base, step;
};

static struct tick_series tick_series(const struct sched *s, const struct sched_cpu *rq)
{
	uint64_t P = s->tick_ns, c = tick_cost(s, rq), e = rq->exec_start;
	uint64_t T = rq->last_tick + P;
	struct tick_series ts = { 0, 0, c < P ? P - c : 0 };

	while (e >= T) {
		e += c;
		T += P;
		ts.n0++;
	}
	ts.base = T - e;
	return ts;
}

static uint64_t prog_at(const struct tick_series *ts, uint64_t i)
{
	return i <= ts->n0 ? 0 : ts->base + (i - ts->n0 - 1) * ts->step;
}

/*
 * EEVDF refreshes the deadline of an entity alone on its queue at every tick that finds its
 * request used up (update_deadline() without a resched). Such ticks change nothing else, so
 * they are elided and their refreshes replayed here: for each such level, find the elided ticks
 * at which v reached the deadline (a binary search over the n ticks, progress being monotone
 * in the tick index) and set deadline = v(tick) + vslice there, as the tick would have.
 */
static void lone_deadlines(struct sched *s, struct sched_cpu *rq, uint64_t n)
{
	struct tick_series ts;
	bool have = false;

	if (s->ops != &sched_eevdf_ops)
		return;
	for (struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		uint64_t from = 1;

		if (se->cfs_rq->nr_queued != 1)
			continue;
		if (!have) {
			ts = tick_series(s, rq);
			have = true;
		}
		while (from <= n) {
			sv_t v0 = se->vruntime;
			uint64_t need = sched_sv_to_ns_ceil(se->deadline - v0, se), lo = from, hi = n;

			if (prog_at(&ts, n) < need)
				break;
			while (lo < hi) {	/* the first tick index with progress >= need */
				uint64_t mid = lo + (hi - lo) / 2;

				if (prog_at(&ts, mid) >= need)
					hi = mid;
				else
					lo = mid + 1;
			}
			if (!se->custom_slice)
				se->slice = s->base_slice;
			se->deadline = v0 + sched_calc_delta_fair(prog_at(&ts, lo), se) +
				       sched_calc_delta_fair(se->slice, se);
			from = lo + 1;
		}
	}
}

/* Account elided ticks up to @upto (inclusive) and curr's progress up to @now. */
static void rq_account_to(struct sched *s, struct sched_cpu *rq, uint64_t upto, uint64_t now)
{
	uint64_t e, last, n, prog;

	if (!rq->curr) {
		rq->last_tick = umax(rq->last_tick, grid_floor(s, now));
		return;
	}
	prog = ticks_between(s, rq, upto, &e, &last, &n);
	if (n) {
		uint64_t c = tick_cost(s, rq);

		lone_deadlines(s, rq, n);
		rq->overhead += n * c;
		s->st.overhead_ns += n * c;
		s->st.level_ops += n * levels_of(rq->curr);
		s->st.ticks += n;
		rq->last_tick = last;
	}
	if (now > e) {
		prog += now - e;
		e = now;
	}
	rq->exec_start = e;
	charge_curr(s, rq, prog);
}

/*
 * While advance() processes the ticks due at time T, CPUs after the current one may not have
 * had theirs yet: touching one of them accounts its elided ticks before T only, so that its
 * tick at T is processed (if what was just done to it made it significant) or elided later,
 * exactly as when every tick is processed in CPU order.
 */
static void rq_account(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	rq_account_to(s, rq, s->in_tick && now ? now - 1 : now, now);
}

/* Progress curr would have at @now beyond what is charged (pure: changes nothing). */
static uint64_t rq_peek_progress(const struct sched *s, const struct sched_cpu *rq, uint64_t now)
{
	uint64_t e, last, n, prog;

	if (!rq->curr)
		return 0;
	prog = ticks_between(s, rq, now, &e, &last, &n);
	if (now > e)
		prog += now - e;
	return prog;
}

/* ---------------- load tracking and shares ---------------- */

static void load_changed(struct cfs_rq *q, uint64_t now)
{
	pelt_set(&q->avg, now, q->load >> SCHED_LOAD_SHIFT);
}

/* update_tg_load_avg(): publish this queue's average when it moved by more than 1/64. */
static bool tg_update_due(const struct cfs_rq *q)
{
	int64_t delta = (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;

	if (delta < 0)
		delta = -delta;
	return (uint64_t)delta > q->tg_load_avg_contrib / 64;
}

/* A group's published load changed: CPUs running something inside it recompute at ticks. */
static void mark_tg_dirty(struct sched *s, const struct sched_tg *tg, uint64_t now)
{
	for (size_t w = 0; w < s->mask_words; w++) {
		uint64_t bits = tg->on_chain[w];

		while (bits) {
			int c = (int)(w * 64) + __builtin_ctzll(bits);

			bits &= bits - 1;
			rq_dirty_quiet(s, &s->cpu[c], now);
		}
	}
}

static void update_tg_load_avg(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	if (!q->se)	/* the root group */
		return;
	pelt_update(&q->avg, now);
	/* 6.7+: at most once per ms per queue. */
	if (q->last_tg_update && now - q->last_tg_update < NSEC_PER_MSEC)
		return;
	if (!tg_update_due(q))
		return;
	q->tg->load_avg += (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;
	q->tg_load_avg_contrib = q->avg.avg;
	q->last_tg_update = now;
	mark_tg_dirty(s, q->tg, now);
}

/*
 * calc_group_shares(): tg->shares * load / tg_weight with load = max(this queue's weight, its
 * average) and tg_weight = Σ other CPUs' published averages + load; in [MIN_SHARES, shares].
 */
static uint64_t calc_group_shares(const struct cfs_rq *q)
{
	const struct sched_tg *tg = q->tg;
	uint64_t load = umax(q->load >> SCHED_LOAD_SHIFT, q->avg.avg);
	int64_t tg_weight = tg->load_avg - (int64_t)q->tg_load_avg_contrib + (int64_t)load;
	uint64_t shares = tg->shares;

	if (tg_weight > 0)
		shares = (uint64_t)(((unsigned __int128)tg->shares * load) / (uint64_t)tg_weight);
	else
		shares = tg->shares * load;
	if (shares < MIN_SHARES)
		shares = MIN_SHARES;
	if (shares > tg->shares)
		shares = tg->shares;
	return shares;
}

static void reweight_entity(struct sched *s, struct sched_entity *se, uint64_t weight,
			    uint32_t wmult, uint64_t now)
{
	struct cfs_rq *q = se->cfs_rq;

	if (se->weight == weight)
		return;
	if (se->on_rq)
		q->load -= se->weight;
	s->ops->reweight(s, q, se, weight, wmult);
	if (se->on_rq) {
		q->load += se->weight;
		load_changed(q, now);
	}
	rq_dirty_quiet(s, q->rq, now);
}

/* update_cfs_group(): a group entity's weight from its queue's share of the group's load. */
static void update_cfs_group(struct sched *s, struct sched_entity *se, uint64_t now)
{
	if (!se->my_q)
		return;
	pelt_update(&se->my_q->avg, now);
	reweight_entity(s, se, calc_group_shares(se->my_q), 0, now);
}

/* ---------------- the per-CPU task list (rq->cfs_tasks) ---------------- */

/*
 * The balancer walks a CPU's queued tasks from the least recently picked (the list tail), as
 * detach_tasks() does with rq->cfs_tasks.
 */
static void list_add_head(struct sched_cpu *rq, struct sched_thread *t)
{
	t->lprev = NULL;
	t->lnext = rq->lhead;
	if (rq->lhead)
		rq->lhead->lprev = t;
	else
		rq->ltail = t;
	rq->lhead = t;
	t->on_list = true;
}

static void list_del(struct sched_cpu *rq, struct sched_thread *t)
{
	if (!t->on_list)
		return;
	if (t->lprev)
		t->lprev->lnext = t->lnext;
	else
		rq->lhead = t->lnext;
	if (t->lnext)
		t->lnext->lprev = t->lprev;
	else
		rq->ltail = t->lprev;
	t->lprev = t->lnext = NULL;
	t->on_list = false;
}

/* ---------------- enqueue / dequeue through the hierarchy ---------------- */

static void task_set_cpu(struct sched *s, struct sched_thread *t, struct sched_cpu *rq)
{
	struct sched_tg *tg = t->tg;

	t->cpu = rq;
	t->se.cfs_rq = tg->cfs_rq[rq->id];
	t->se.parent = tg->se ? tg->se[rq->id] : NULL;
	t->se.depth = t->se.parent ? t->se.parent->depth + 1 : 0;
	(void)s;
}


static void account_runnable(struct sched_entity *se, int d, bool idle)
{
	for (; se; se = se->parent) {
		se->cfs_rq->h_nr_runnable += (unsigned)d;
		if (idle || se->idle)
			se->cfs_rq->h_nr_idle += (unsigned)d;
		if (se->idle)
			idle = true;
	}
}

static void enqueue_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   bool initial, bool wakeup, uint64_t now)
{
	pelt_update(&q->avg, now);
	if (se->my_q) {
		/* 6.12: a group entity asks for its queue's shortest request. */
		uint64_t m = UINT64_MAX;
		const struct cfs_rq *g = se->my_q;

		if (g->curr && g->curr->on_rq)
			m = g->curr->slice;
		if (g->tree.root && s->ops == &sched_eevdf_ops &&
		    sched_se_of(g->tree.root)->min_slice < m)
			m = sched_se_of(g->tree.root)->min_slice;
		if (m != UINT64_MAX) {
			se->slice = m;
			se->custom_slice = true;
		}
		update_cfs_group(s, se, now);
	}
	s->ops->place(s, q, se, initial, wakeup);
	q->load += se->weight;
	q->nr_queued++;
	if (q->curr != se)
		s->ops->tree_add(q, se);
	se->on_rq = true;
	load_changed(q, now);
	update_tg_load_avg(s, q, now);
}

static void dequeue_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   bool sleep, uint64_t now)
{
	pelt_update(&q->avg, now);
	s->ops->dequeued(s, q, se, sleep);
	if (q->curr != se)
		s->ops->tree_del(q, se);
	se->on_rq = false;
	q->load -= se->weight;
	q->nr_queued--;
	if (q->next == se)
		q->next = NULL;
	if (q->last == se)
		q->last = NULL;
	load_changed(q, now);
	update_cfs_group(s, se, now);
	sched_update_min_vruntime(s, q);
	update_tg_load_avg(s, q, now);
}

/* enqueue_task_fair(): returns the number of entities enqueued (levels). */
static unsigned enqueue_task(struct sched *s, struct sched_thread *t, bool initial, bool wakeup,
			     uint64_t now)
{
	struct sched_entity *se = &t->se;
	unsigned levels = 0;
	bool task_level = true;

	for (; se && !se->on_rq; se = se->parent) {
		enqueue_entity(s, se->cfs_rq, se, initial && task_level, wakeup, now);
		task_level = false;
		wakeup = true;	/* a group entity re-enters as a waking entity (ENQUEUE_WAKEUP) */
		levels++;
	}
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		pelt_update(&q->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, q, now);
	}
	account_runnable(&t->se, 1, t->policy == SCHED_THREAD_IDLE);
	t->cpu->nr_running++;
	list_add_head(t->cpu, t);
	return levels;
}

/*
 * dequeue_task_fair(): take the task off its queue and each group entity whose queue becomes
 * empty. @runnable_counted: the task still counts as runnable (false when finishing a delayed
 * dequeue, whose counts were dropped when it was delayed). Returns the levels dequeued.
 */
static unsigned dequeue_task(struct sched *s, struct sched_thread *t, bool sleep,
			     bool runnable_counted, uint64_t now)
{
	struct sched_entity *se = &t->se;
	unsigned levels = 0;

	if (runnable_counted) {
		account_runnable(&t->se, -1, t->policy == SCHED_THREAD_IDLE);
		t->cpu->nr_running--;
	}
	list_del(t->cpu, t);
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		dequeue_entity(s, q, se, sleep, now);
		levels++;
		sleep = true;	/* upper levels go to sleep with their emptied queue */
		if (q->nr_queued) {
			se = se->parent;
			break;
		}
	}
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		pelt_update(&q->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, q, now);
	}
	return levels;
}

/* DELAY_DEQUEUE: a sleeping task that is not eligible stays queued, no longer runnable. */
static bool try_delay_dequeue(struct sched *s, struct sched_thread *t)
{
	if (s->ops != &sched_eevdf_ops || !sched_feat(s, SCHED_FEAT_DELAY_DEQUEUE))
		return false;
	if (sched_entity_eligible(t->se.cfs_rq, &t->se))
		return false;
	t->se.sched_delayed = true;
	account_runnable(&t->se, -1, t->policy == SCHED_THREAD_IDLE);
	t->cpu->nr_running--;
	return true;
}

/* finish_delayed_dequeue_entity(): the delayed task leaves for good (DELAY_ZERO clips lag). */
static void finish_delayed(struct sched *s, struct sched_thread *t, uint64_t now)
{
	t->se.sched_delayed = false;
	dequeue_task(s, t, true, false, now);
	if (sched_feat(s, SCHED_FEAT_DELAY_ZERO) && t->se.vlag > 0)
		t->se.vlag = 0;
}

/* requeue_delayed_entity(): a delayed task wakes where it is. */
static void requeue_delayed(struct sched *s, struct sched_thread *t, uint64_t now)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = se->cfs_rq;

	if (sched_feat(s, SCHED_FEAT_DELAY_ZERO) && se->vruntime < sched_avg_vruntime(q)) {
		/* positive lag: drop it (place at lag 0) */
		bool in_tree = q->curr != se;

		if (in_tree)
			s->ops->tree_del(q, se);
		q->nr_queued--;
		q->load -= se->weight;
		se->vlag = 0;
		s->ops->place(s, q, se, false, true);
		q->load += se->weight;
		q->nr_queued++;
		if (in_tree)
			s->ops->tree_add(q, se);
	}
	se->sched_delayed = false;
	account_runnable(se, 1, t->policy == SCHED_THREAD_IDLE);
	t->cpu->nr_running++;
	(void)now;
}

/* ---------------- picking and switching ---------------- */

/* Which CPUs run something inside each group: a group entity is on its CPU's curr chain. */
static void chain_bit(struct sched_entity *se, bool on)
{
	if (se->my_q) {
		int c = se->my_q->rq->id;
		uint64_t *w = &se->my_q->tg->on_chain[c / 64], b = 1ull << (c % 64);

		*w = on ? *w | b : *w & ~b;
	}
}

static void put_prev_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (se->on_rq)
		s->ops->tree_add(q, se);
	if (q->curr == se) {
		q->curr = NULL;
		chain_bit(se, false);
	}
}

static void set_next_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (se->on_rq)
		s->ops->tree_del(q, se);
	q->curr = se;
	chain_bit(se, true);
	s->ops->set_next(s, q, se);
	se->prev_sum_exec = se->sum_exec;
}

/* Put every level of the running task (its chain leaves the CPU's curr pointers). */
static unsigned put_chain(struct sched *s, struct sched_thread *t)
{
	unsigned n = 0;

	for (struct sched_entity *se = &t->se; se; se = se->parent) {
		if (se->cfs_rq->curr != se)
			break;
		put_prev_entity(s, se->cfs_rq, se);
		n++;
	}
	return n;
}

/*
 * pick_next_task_fair()'s switch: put prev's levels and set next's, only where they differ
 * (the is_same_group walk). Returns the number of level operations.
 */
static unsigned switch_chains(struct sched *s, struct sched_thread *prev, struct sched_thread *next)
{
	struct sched_entity *se, *pse;
	unsigned n = 0;

	if (!prev) {
		for (se = &next->se; se; se = se->parent, n++)
			set_next_entity(s, se->cfs_rq, se);
		return n;
	}
	if (!next)
		return put_chain(s, prev);
	se = &next->se;
	pse = &prev->se;
	while (se->cfs_rq != pse->cfs_rq) {
		int sd = se->depth, pd = pse->depth;

		if (sd <= pd) {
			put_prev_entity(s, pse->cfs_rq, pse);
			pse = pse->parent;
			n++;
		}
		if (sd >= pd) {
			set_next_entity(s, se->cfs_rq, se);
			se = se->parent;
			n++;
		}
	}
	put_prev_entity(s, pse->cfs_rq, pse);
	set_next_entity(s, se->cfs_rq, se);
	return n + 2;
}

static bool balance(struct sched *s, struct sched_cpu *dst, uint64_t now, bool newidle);

static struct sched_thread *pick_task(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	for (;;) {
		struct cfs_rq *q = rq->cfs;
		struct sched_entity *se = NULL;

		if (!q->nr_queued)
			return NULL;
		while (q) {
			se = s->ops->pick(s, q);
			if (!se)
				return NULL;
			if (se->sched_delayed)
				break;
			q = se->my_q;
		}
		if (!se->sched_delayed)
			return se->task;
		finish_delayed(s, se->task, now);
	}
}

static void latency_sample(struct sched *s, struct sched_thread *t, uint64_t lat)
{
	if (s->latency_fn)
		s->latency_fn(s->latency_ctx, t->tid, lat);
}

/* The NOHZ kick term of plan() depends on whether any CPU is idle: replan when that flips. */
static void idle_count(struct sched *s, int d)
{
	bool before = s->nr_idle > 0;

	s->nr_idle += d;
	if (before != (s->nr_idle > 0))
		s->idle_changed = true;
}

/*
 * __schedule(): pick and switch. @detached is a task whose chain was already put (a move, an
 * affinity change or an exit took it off the CPU while it ran): it counts as the previous task.
 */
static void schedule(struct sched *s, struct sched_cpu *rq, uint64_t now,
		     struct sched_thread *detached)
{
	struct sched_thread *prev = rq->curr, *next, *was = prev ? prev : detached;
	unsigned levels;

	rq->resched = false;
	next = pick_task(s, rq, now);
	if (!next && balance(s, rq, now, true))
		next = pick_task(s, rq, now);
	rq->resched = false;	/* the pull's wakeup_preempt asked for what happens now */
	if (next == prev && !detached)
		return;
	if (!prev)
		rq->last_tick = umax(rq->last_tick, grid_floor(s, now));
	levels = switch_chains(s, prev, next);
	rq->curr = next;
	if (was && was != next) {
		was->st.running = false;
		was->last_ran = now;
		if (was->runnable) {
			was->st.preempted++;
			was->wait_start = now;
		}
	}
	if (next && next == was) {
		/* the same task continues after a move: not a context switch */
		next->st.running = true;
		s->st.level_ops += levels;
	} else {
		rq_charge_overhead(s, rq, now, s->cfg.cost.switch_ns +
				   s->cfg.cost.level_ns * levels, levels);
		s->st.switches++;
		if (next) {
			uint64_t start = rq->exec_start;

			next->st.switches++;
			next->st.running = true;
			next->wait_start = umin(next->wait_start, start);
			next->st.wait_ns += start - next->wait_start;
			if (next->latency_pending) {
				next->latency_pending = false;
				latency_sample(s, next, start - umin(next->wake_time, start));
			}
			/* keep the balancer's list in most-recently-picked order */
			list_del(rq, next);
			list_add_head(rq, next);
		}
	}
	if (!prev != !next)
		idle_count(s, prev ? 1 : -1);
	rq_dirty(s, rq, now);
}

static void resched_if_needed(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	if (rq->resched || (!rq->curr && rq->nr_running))
		schedule(s, rq, now, NULL);
}

/* ---------------- wakeup preemption ---------------- */

static void set_last_buddy(struct sched_entity *se)
{
	for (; se; se = se->parent)
		se->cfs_rq->last = se;
}

/* check_preempt_wakeup_fair() / check_preempt_wakeup() */
static void check_preempt(struct sched *s, struct sched_cpu *rq, struct sched_thread *p,
			  bool fork)
{
	struct sched_thread *curr = rq->curr;
	struct sched_entity *se, *pse;
	bool next_marked = false, cidle, pidle;
	unsigned scale;

	if (!curr) {
		rq->resched = true;
		return;
	}
	if (curr == p)
		return;
	if (curr->policy == SCHED_THREAD_IDLE && p->policy != SCHED_THREAD_IDLE) {
		rq->resched = true;
		return;
	}
	if (p->policy != SCHED_THREAD_NORMAL || !sched_feat(s, SCHED_FEAT_WAKEUP_PREEMPTION))
		return;
	scale = curr->se.cfs_rq->nr_queued >= s->nr_latency;
	se = &curr->se;
	pse = &p->se;
	if (s->ops == &sched_cfs_ops && sched_feat(s, SCHED_FEAT_NEXT_BUDDY) && scale && !fork) {
		sched_set_next_buddy(pse);
		next_marked = true;
	}
	/* find_matching_se() */
	while (se->depth > pse->depth)
		se = se->parent;
	while (pse->depth > se->depth)
		pse = pse->parent;
	while (se->cfs_rq != pse->cfs_rq) {
		se = se->parent;
		pse = pse->parent;
	}
	cidle = se->idle;
	pidle = pse->idle;
	if (cidle && !pidle) {
		rq->resched = true;
		return;
	}
	if (cidle != pidle)
		return;
	if (s->ops == &sched_eevdf_ops && sched_feat(s, SCHED_FEAT_NEXT_BUDDY) && !fork &&
	    !pse->sched_delayed)
		sched_set_next_buddy(pse);
	if (!s->ops->wakeup_preempt(s, se->cfs_rq, se, pse))
		return;
	if (s->ops == &sched_cfs_ops) {
		if (!next_marked)
			sched_set_next_buddy(pse);
		if (sched_feat(s, SCHED_FEAT_LAST_BUDDY) && scale && se->task)
			set_last_buddy(se);
	}
	rq->resched = true;
}

/* ---------------- CPU selection ---------------- */

static bool cpu_idle_for(const struct sched *s, const struct sched_cpu *rq)
{
	(void)s;
	/* available_idle_cpu() || sched_idle_cpu() */
	return !rq->curr || rq->nr_running == rq->cfs->h_nr_idle;
}

/*
 * select_task_rq_fair(), reduced to one LLC domain: a new task goes to the least loaded allowed
 * CPU (find_idlest_cpu); a waking task to its previous CPU if idle, else the first idle allowed
 * CPU after it (select_idle_sibling's scan), else back to its previous CPU.
 */
static struct sched_cpu *select_cpu(struct sched *s, struct sched_thread *t)
{
	int n = s->ncpu, prev = t->cpu ? t->cpu->id : -1;

	if (prev < 0 || t->new_task) {
		struct sched_cpu *best = NULL;

		for (int c = 0; c < n; c++) {
			struct sched_cpu *rq = &s->cpu[c];

			if (!cpu_allowed(t, c))
				continue;
			if (!best || rq->nr_running < best->nr_running ||
			    (rq->nr_running == best->nr_running && rq->cfs->load < best->cfs->load))
				best = rq;
		}
		return best;
	}
	if (cpu_allowed(t, prev) && cpu_idle_for(s, &s->cpu[prev]))
		return &s->cpu[prev];
	for (int i = 1; i < n; i++) {
		int c = (prev + i) % n;

		if (cpu_allowed(t, c) && cpu_idle_for(s, &s->cpu[c]))
			return &s->cpu[c];
	}
	if (cpu_allowed(t, prev))
		return &s->cpu[prev];
	for (int c = 0; c < n; c++)
		if (cpu_allowed(t, c))
			return &s->cpu[c];
	return &s->cpu[0];
}

/* ---------------- migration of a queued task ---------------- */

static void move_queued(struct sched *s, struct sched_thread *t, struct sched_cpu *dst,
			uint64_t now)
{
	struct sched_cpu *src = t->cpu;
	bool delayed = t->se.sched_delayed;

	if (delayed)
		return;		/* can_migrate() refuses delayed tasks */
	dequeue_task(s, t, false, true, now);
	task_set_cpu(s, t, dst);
	enqueue_task(s, t, false, false, now);
	t->st.migrations++;
	s->st.migrations++;
	rq_dirty(s, src, now);
	rq_dirty(s, dst, now);
	check_preempt(s, dst, t, false);
}

/* ---------------- load balancing ---------------- */

/* task_h_load() on instantaneous weights: the task's share of its CPU's root load. */
static uint64_t task_h_load(const struct sched_thread *t)
{
	uint64_t h = t->se.wd;

	for (const struct sched_entity *se = t->se.parent; se; se = se->parent) {
		uint64_t ql = se->my_q->load >> SCHED_LOAD_SHIFT;

		h = ql ? h * se->wd / ql : 0;
	}
	return h;
}

static bool can_migrate(struct sched *s, struct sched_thread *t, struct sched_cpu *dst,
			uint64_t now, unsigned failed)
{
	if (t->cpu->curr == t || t->se.sched_delayed || !cpu_allowed(t, dst->id))
		return false;
	if (failed > CACHE_NICE_TRIES)
		return true;
	if (sched_feat(s, SCHED_FEAT_CACHE_HOT_BUDDY) &&
	    (t->se.cfs_rq->next == &t->se || t->se.cfs_rq->last == &t->se))
		return false;
	return now - t->last_ran >= s->cfg.tun.migration_cost_ns || !t->last_ran;
}

static void balance_interval_update(struct sched *s, struct sched_cpu *rq, bool moved)
{
	uint64_t min_iv = (uint64_t)s->ncpu * NSEC_PER_MSEC, max_iv = 2 * min_iv;

	if (moved) {
		rq->balance_interval = min_iv;
		rq->nr_balance_failed = 0;
	} else {
		rq->nr_balance_failed++;
		if (rq->balance_interval < max_iv)
			rq->balance_interval *= 2;
	}
}

/*
 * load_balance() for one domain spanning every CPU. An idle (or new-idle) @dst takes tasks to
 * even out the counts; a busy one takes load when the busiest CPU's exceeds its own by more
 * than imbalance_pct, up to the smaller distance to the average. Returns whether it moved any.
 */
static bool balance(struct sched *s, struct sched_cpu *dst, uint64_t now, bool newidle)
{
	struct sched_cpu *busiest = NULL;
	uint64_t total = 0, imbalance, avg;
	unsigned moved = 0, want = 0, loops;
	bool by_count;

	if (s->ncpu < 2)
		return false;
	s->st.balance_runs++;
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		total += rq->cfs->load >> SCHED_LOAD_SHIFT;
		if (rq == dst || rq->nr_running < 2)
			continue;
		if (!busiest || rq->cfs->load > busiest->cfs->load)
			busiest = rq;
	}
	if (!busiest)
		return false;
	by_count = dst->nr_running == 0;
	if (by_count) {
		want = (busiest->nr_running - dst->nr_running) / 2;
		if (!want)
			return false;
		imbalance = 0;
	} else {
		uint64_t b = busiest->cfs->load >> SCHED_LOAD_SHIFT;
		uint64_t l = dst->cfs->load >> SCHED_LOAD_SHIFT;

		if (b * 100 <= l * IMBALANCE_PCT)
			return false;
		avg = total / (uint64_t)s->ncpu;
		imbalance = umin(b > avg ? b - avg : 0, avg > l ? avg - l : 0);
		if (!imbalance)
			return false;
	}
	rq_account(s, busiest, now);
	rq_account(s, dst, now);
	loops = umin(s->cfg.tun.nr_migrate, busiest->nr_running);
	for (struct sched_thread *t = busiest->ltail, *prev; t && loops; t = prev, loops--) {
		prev = t->lprev;
		if (!can_migrate(s, t, dst, now, dst->nr_balance_failed))
			continue;
		if (!by_count) {
			uint64_t load = task_h_load(t);

			if ((load >> umin(dst->nr_balance_failed, 63)) > imbalance)
				continue;
			imbalance = load < imbalance ? imbalance - load : 0;
		}
		move_queued(s, t, dst, now);
		moved++;
		if (newidle)
			break;
		if (by_count ? moved >= want : imbalance == 0)
			break;
	}
	/* a new-idle pull is picked by the schedule() that asked for it */
	if (!newidle) {
		balance_interval_update(s, dst, moved > 0);
		resched_if_needed(s, dst, now);
	}
	return moved > 0;
}

static uint64_t balance_period(const struct sched *s, const struct sched_cpu *rq)
{
	uint64_t iv = rq->balance_interval;

	if (rq->curr)
		iv *= BUSY_FACTOR;
	/* max_load_balance_interval: HZ/10 jiffies = 100 ms */
	return umin(umax(iv, s->tick_ns), 100 * NSEC_PER_MSEC);
}

/* ---------------- ticks ---------------- */

/*
 * Would a tick now change anything beyond the linear accounting and the policy's decision?
 * Not if every queue on curr's chain has a settled load average with no tg update pending and
 * every group entity on the chain already has the weight calc_group_shares() would give it.
 * The averages only move at period ends and only while unsettled, so the answer holds until
 * something happens on this CPU or another CPU publishes a new tg load (which marks it).
 */
static bool quiescent(const struct sched_cpu *rq)
{
	if (!rq->curr)
		return true;
	for (const struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		const struct cfs_rq *q = se->cfs_rq, *g = se->my_q;

		if (!pelt_stable(&q->avg) || (q->se && tg_update_due(q)))
			return false;
		if (g && (!pelt_stable(&g->avg) || (g->se && tg_update_due(g)) ||
			  calc_group_shares(g) != se->weight))
			return false;
	}
	return true;
}

/*
 * sched_tick() on one CPU at grid time T: charge curr, update each level's load average and
 * group weight, let the policy decide on preemption, run the balancer when due, and decide
 * whether the next tick can change anything (see plan()).
 */
static void process_tick(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	if (rq->last_tick >= T)
		return;		/* already accounted (cannot happen: see rq_account()) */
	s->in_tick = true;
	rq_account_to(s, rq, T - 1, T);
	rq->last_tick = T;
	s->st.ticks++;
	s->st.ticks_processed++;
	if (rq->curr) {
		for (struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
			struct cfs_rq *q = se->cfs_rq;

			pelt_update(&q->avg, T);
			update_tg_load_avg(s, q, T);
			update_cfs_group(s, se, T);
			if (s->ops->tick(s, q, se))
				rq->resched = true;
		}
		rq_charge_overhead(s, rq, T, tick_cost(s, rq), levels_of(rq->curr));
	}
	rq->dirty_from = T + 1;
	if (T >= rq->next_balance) {
		balance(s, rq, T, false);
		rq->next_balance = T + balance_period(s, rq);
	}
	/* nohz_balancer_kick(): a busy CPU has an idle CPU pull on behalf of all idle ones. */
	if (rq->nr_running >= 2 && T >= s->nohz_next && s->nr_idle) {
		s->nohz_next = T + (uint64_t)s->ncpu * NSEC_PER_MSEC;
		for (int c = 0; c < s->ncpu; c++)
			if (!s->cpu[c].curr && !s->cpu[c].nr_running)
				balance(s, &s->cpu[c], T, false);
	}
	resched_if_needed(s, rq, T);
	s->in_tick = false;
	rq_mark(s, rq);
}

/*
 * plan() - the next tick of @rq that must be processed. With elision, a tick is skipped when
 * it provably changes nothing but the linear accounting that ticks_between() reproduces: the
 * CPU is quiescent (the last processed tick found every load average settled, no group weight
 * moved, no tg update pending, and nothing happened on the CPU since), no balance is due, and
 * no level's policy horizon (a deadline or protection reached, a CFS slice used up) has passed.
 * Horizons assume progress at full speed from exec_start, which is never later than the truth,
 * so a planned tick can only be early, never late (docs/scheduler.md, "Tick elision").
 */
static void plan(struct sched *s, struct sched_cpu *rq)
{
	uint64_t first, next;

	if (!rq->curr) {
		rq->next_tick = UINT64_MAX;
		return;
	}
	first = rq->last_tick + s->tick_ns;
	if (!s->cfg.tick_elision) {
		rq->next_tick = first;
		return;
	}
	next = UINT64_MAX;
	if (rq->dirty_from != UINT64_MAX && quiescent(rq))
		rq->dirty_from = UINT64_MAX;
	if (rq->dirty_from != UINT64_MAX)
		next = umax(first, grid_ceil(s, rq->dirty_from));
	next = umin(next, umax(first, grid_ceil(s, rq->next_balance)));
	if (rq->nr_running >= 2 && s->nr_idle)
		next = umin(next, umax(first, grid_ceil(s, s->nohz_next)));
	for (struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		uint64_t h = s->ops->tick_horizon(s, se->cfs_rq, se);

		if (h != UINT64_MAX && h < UINT64_MAX - rq->exec_start)
			next = umin(next, umax(first, grid_ceil(s, rq->exec_start + h)));
	}
	rq->next_tick = next;
}

/* The end of every entry point: replan what changed, run the invariant checker if asked. */
static void finish(struct sched *s)
{
	if (s->idle_changed) {
		s->idle_changed = false;
		for (int c = 0; c < s->ncpu; c++)
			if (s->cpu[c].nr_running >= 2)
				rq_replan(s, &s->cpu[c]);
	}
	while (s->nreplan) {
		struct sched_cpu *rq = &s->cpu[s->replan[--s->nreplan]];

		rq->need_plan = false;
		plan(s, rq);
		theap_fix(s, rq->id);
	}
	if (s->cfg.check) {
		char why[256];

		if (sched_check(s, why, sizeof(why))) {
			fprintf(stderr, "cgsim: scheduler invariant broken at %llu ns: %s\n",
				(unsigned long long)s->now, why);
			abort();
		}
	}
}

void sched_advance(struct sched *s, uint64_t now)
{
	if (now < s->now)
		now = s->now;
	for (;;) {
		struct sched_cpu *best = &s->cpu[s->theap[0]];

		if (best->next_tick > now)
			break;
		s->now = best->next_tick;
		process_tick(s, best, best->next_tick);
		finish(s);
	}
	s->now = now;
}

static int enter(struct sched *s, uint64_t now)
{
	if (now < s->now)
		return -EINVAL;
	sched_advance(s, now);
	return 0;
}

/* ---------------- construction ---------------- */

static struct sched_tg *tg_get(const struct sched *s, int id)
{
	if (id < 0 || id >= s->ntg || !s->tg[id] || !s->tg[id]->alive)
		return NULL;
	return s->tg[id];
}

static struct sched_thread *thr_get(const struct sched *s, int tid)
{
	if (tid < 0 || tid >= s->nthr || !s->thr[tid] || !s->thr[tid]->alive)
		return NULL;
	return s->thr[tid];
}

static int grow(void **arr, int *n, int need, size_t elem)
{
	int m = *n ? *n : 16;
	void *p;

	if (need < *n)
		return 0;
	while (m <= need)
		m *= 2;
	p = realloc(*arr, (size_t)m * elem);
	if (!p)
		return -ENOMEM;
	memset((char *)p + (size_t)*n * elem, 0, (size_t)(m - *n) * elem);
	*arr = p;
	*n = m;
	return 0;
}

static void cfs_rq_init(struct cfs_rq *q, struct sched_tg *tg, struct sched_cpu *rq,
			struct sched_entity *se, uint64_t now)
{
	memset(q, 0, sizeof(*q));
	rb_root_init(&q->tree);
	q->tg = tg;
	q->rq = rq;
	q->se = se;
	pelt_init(&q->avg, now);
}

static void tg_release(struct sched *s, struct sched_tg *tg)
{
	if (!tg)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		if (tg->cfs_rq)
			free(tg->cfs_rq[c]);
		if (tg->se)
			free(tg->se[c]);
	}
	free(tg->cfs_rq);
	free(tg->se);
	free(tg->on_chain);
	free(tg);
}

static uint64_t tg_effective_shares(uint32_t weight, bool idle)
{
	return (uint64_t)(idle ? SCHED_WEIGHT_IDLEPRIO : weight) << SCHED_LOAD_SHIFT;
}

static struct sched_tg *tg_alloc(struct sched *s, int id, struct sched_tg *parent,
				 uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *tg = calloc(1, sizeof(*tg));

	if (!tg)
		return NULL;
	tg->id = id;
	tg->parent = parent;
	tg->alive = true;
	tg->idle = idle;
	tg->shares = parent ? tg_effective_shares(weight, idle) : NICE_0_LOAD;
	tg->cfs_rq = calloc((size_t)s->ncpu, sizeof(*tg->cfs_rq));
	tg->on_chain = calloc(s->mask_words, sizeof(uint64_t));
	if (!tg->on_chain)
		goto fail;
	if (parent)
		tg->se = calloc((size_t)s->ncpu, sizeof(*tg->se));
	if (!tg->cfs_rq || (parent && !tg->se))
		goto fail;
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_entity *se = NULL;

		tg->cfs_rq[c] = malloc(sizeof(struct cfs_rq));
		if (!tg->cfs_rq[c])
			goto fail;
		if (parent) {
			se = calloc(1, sizeof(*se));
			if (!se)
				goto fail;
			tg->se[c] = se;
			se->id = s->next_id++;
			se->my_q = tg->cfs_rq[c];
			se->cfs_rq = parent->cfs_rq[c];
			se->parent = parent->se ? parent->se[c] : NULL;
			se->depth = se->parent ? se->parent->depth + 1 : 0;
			se->idle = idle;
			se->slice = s->base_slice;
			rb_node_clear(&se->node);
			sched_set_weight(se, NICE_0_LOAD, 0);
		}
		cfs_rq_init(tg->cfs_rq[c], tg, &s->cpu[c], se, now);
	}
	return tg;
fail:
	tg_release(s, tg);
	return NULL;
}

struct sched *sched_new(const struct sched_config *cfg)
{
	struct sched *s;

	if (cfg->cpus < 1 || cfg->cpus > SCHED_MAX_CPUS || cfg->tun.hz < 1 || cfg->tun.hz > 10000)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->ops = cfg->policy == SCHED_POLICY_CFS ? &sched_cfs_ops : &sched_eevdf_ops;
	s->ncpu = cfg->cpus;
	s->factor = sched_scaling_factor(cfg->tun.tunable_scaling, cfg->cpus);
	s->base_slice = cfg->tun.base_slice_ns * s->factor;
	s->latency = cfg->tun.latency_ns * s->factor;
	s->min_gran = cfg->tun.min_granularity_ns * s->factor;
	s->wakeup_gran = cfg->tun.wakeup_granularity_ns * s->factor;
	/* sched_nr_latency = latency / min_granularity (DIV_ROUND_UP in update_sysctl) */
	s->nr_latency = (unsigned)((s->latency + s->min_gran - 1) / s->min_gran);
	s->tick_ns = (1000000000ull + cfg->tun.hz / 2) / cfg->tun.hz;
	s->mask_words = ((size_t)s->ncpu + 63) / 64;
	s->cpu = calloc((size_t)s->ncpu, sizeof(*s->cpu));
	s->changed = calloc((size_t)s->ncpu, sizeof(*s->changed));
	s->replan = calloc((size_t)s->ncpu, sizeof(*s->replan));
	s->theap = calloc((size_t)s->ncpu, sizeof(*s->theap));
	s->all_mask = calloc(s->mask_words, sizeof(uint64_t));
	if (!s->cpu || !s->changed || !s->replan || !s->theap || !s->all_mask)
		goto fail;
	for (int c = 0; c < s->ncpu; c++)
		s->all_mask[c / 64] |= 1ull << (c % 64);
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		rq->id = c;
		rq->next_tick = UINT64_MAX;
		rq->dirty_from = UINT64_MAX;
		rq->balance_interval = (uint64_t)s->ncpu * NSEC_PER_MSEC;
		rq->next_balance = rq->balance_interval;
		theap_set(s, c, c);
	}
	s->nr_idle = s->ncpu;
	if (grow((void **)&s->tg, &s->ntg, 0, sizeof(*s->tg)))
		goto fail;
	s->tg[0] = tg_alloc(s, 0, NULL, SCHED_NICE_0_WEIGHT, false, 0);
	if (!s->tg[0])
		goto fail;
	for (int c = 0; c < s->ncpu; c++)
		s->cpu[c].cfs = s->tg[0]->cfs_rq[c];
	return s;
fail:
	sched_free(s);
	return NULL;
}

void sched_free(struct sched *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nthr; i++) {
		if (s->thr[i]) {
			free(s->thr[i]->affinity);
			free(s->thr[i]);
		}
	}
	for (int i = 0; i < s->ntg; i++)
		tg_release(s, s->tg[i]);
	free(s->thr);
	free(s->tg);
	free(s->cpu);
	free(s->changed);
	free(s->replan);
	free(s->theap);
	free(s->all_mask);
	free(s);
}

const struct sched_config *sched_config(const struct sched *s)
{
	return &s->cfg;
}

/* ---------------- task groups ---------------- */

int sched_tg_new(struct sched *s, int id, int parent, uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *p = tg_get(s, parent), *tg;
	int err;

	if (id <= 0 || !p || weight < 1 || weight > 262144)
		return id <= 0 || weight < 1 || weight > 262144 ? -EINVAL : -ENOENT;
	if (tg_get(s, id))
		return -EEXIST;
	err = enter(s, now);
	if (err)
		return err;
	if (grow((void **)&s->tg, &s->ntg, id, sizeof(*s->tg)))
		return -ENOMEM;
	tg_release(s, s->tg[id]);
	s->tg[id] = NULL;
	tg = tg_alloc(s, id, p, weight, idle, now);
	if (!tg)
		return -ENOMEM;
	s->tg[id] = tg;
	p->nchildren++;
	finish(s);
	return 0;
}

int sched_tg_set(struct sched *s, int id, uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *tg = tg_get(s, id);
	int err;

	if (!tg || !tg->parent)
		return tg ? -EINVAL : -ENOENT;
	if (weight < 1 || weight > 262144)
		return -EINVAL;
	err = enter(s, now);
	if (err)
		return err;
	tg->shares = tg_effective_shares(weight, idle);
	tg->idle = idle;
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_entity *se = tg->se[c];
		struct sched_cpu *rq = &s->cpu[c];

		rq_account(s, rq, now);
		if (se->idle != idle) {
			/* the idle accounting of every queue above moves with the group */
			unsigned n = se->my_q->h_nr_runnable - se->my_q->h_nr_idle;

			for (struct sched_entity *a = se; a; a = a->parent) {
				if (a != se && a->idle)
					break;
				a->cfs_rq->h_nr_idle += idle ? n : -n;
			}
			se->idle = idle;
		}
		update_cfs_group(s, se, now);
		rq_dirty(s, rq, now);
		resched_if_needed(s, rq, now);
	}
	finish(s);
	return 0;
}

int sched_tg_free(struct sched *s, int id, uint64_t now)
{
	struct sched_tg *tg = tg_get(s, id);
	int err;

	if (!tg || !tg->parent)
		return tg ? -EINVAL : -ENOENT;
	if (tg->nchildren || tg->nthreads)
		return -EBUSY;
	err = enter(s, now);
	if (err)
		return err;
	for (int c = 0; c < s->ncpu; c++)
		if (tg->cfs_rq[c]->nr_queued)
			return -EBUSY;
	tg->parent->nchildren--;
	tg->alive = false;
	tg_release(s, tg);
	s->tg[id] = NULL;
	finish(s);
	return 0;
}

uint64_t sched_group_weight(const struct sched *s, int id, int cpu)
{
	const struct sched_tg *tg = tg_get(s, id);

	if (!tg || cpu < 0 || cpu >= s->ncpu)
		return 0;
	if (!tg->parent)
		return SCHED_NICE_0_WEIGHT;
	return tg->se[cpu]->weight >> SCHED_LOAD_SHIFT;
}

/* ---------------- threads ---------------- */

static uint64_t clamp_slice(uint64_t slice)
{
	if (!slice)
		return 0;
	/* __setparam_fair(): sched_runtime clamped to [0.1 ms, 100 ms] */
	return slice < 100000 ? 100000 : slice > 100000000 ? 100000000 : slice;
}

static void task_weight(struct sched_thread *t, uint64_t *w, uint32_t *wmult)
{
	if (t->policy == SCHED_THREAD_IDLE) {
		*w = (uint64_t)SCHED_WEIGHT_IDLEPRIO << SCHED_LOAD_SHIFT;
		*wmult = 1431655765;	/* WMULT_IDLEPRIO: 2^32 / 3 */
	} else {
		*w = (uint64_t)sched_nice_weight(t->nice) << SCHED_LOAD_SHIFT;
		*wmult = sched_nice_wmult(t->nice);
	}
}

int sched_thread_new(struct sched *s, int tid, int tgid, int nice, uint64_t slice_ns,
		     uint64_t now)
{
	struct sched_tg *tg = tg_get(s, tgid);
	struct sched_thread *t;
	uint64_t w;
	uint32_t wm;
	int err;

	if (tid < 0 || nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	if (!tg)
		return -ENOENT;
	if (thr_get(s, tid))
		return -EEXIST;
	err = enter(s, now);
	if (err)
		return err;
	if (grow((void **)&s->thr, &s->nthr, tid, sizeof(*s->thr)))
		return -ENOMEM;
	if (s->thr[tid]) {
		free(s->thr[tid]->affinity);
		free(s->thr[tid]);
		s->thr[tid] = NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->affinity = malloc(s->mask_words * sizeof(uint64_t));
	if (!t->affinity) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->affinity, s->all_mask, s->mask_words * sizeof(uint64_t));
	t->tid = tid;
	t->nice = nice;
	t->tg = tg;
	t->alive = true;
	t->new_task = true;
	t->st.cpu = -1;
	t->se.task = t;
	t->se.id = s->next_id++;
	t->se.slice = clamp_slice(slice_ns);
	t->se.custom_slice = slice_ns != 0;
	if (!t->se.custom_slice)
		t->se.slice = s->base_slice;
	rb_node_clear(&t->se.node);
	task_weight(t, &w, &wm);
	sched_set_weight(&t->se, w, wm);
	tg->nthreads++;
	s->thr[tid] = t;
	finish(s);
	return 0;
}

static void reweight_task(struct sched *s, struct sched_thread *t, uint64_t now)
{
	uint64_t w;
	uint32_t wm;

	task_weight(t, &w, &wm);
	if (t->se.on_rq) {
		rq_account(s, t->cpu, now);
		reweight_entity(s, &t->se, w, wm, now);
		for (struct sched_entity *se = t->se.parent; se; se = se->parent)
			update_cfs_group(s, se, now);
	} else {
		s->ops->reweight(s, t->se.cfs_rq, &t->se, w, wm);
	}
}

int sched_thread_set_nice(struct sched *s, int tid, int nice, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	int err, old;

	if (!t)
		return -ENOENT;
	if (nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	err = enter(s, now);
	if (err)
		return err;
	old = t->nice;
	t->nice = nice;
	if (t->se.cfs_rq || !t->new_task)
		reweight_task(s, t, now);
	else
		sched_set_weight(&t->se, (uint64_t)sched_nice_weight(nice) << SCHED_LOAD_SHIFT,
				 sched_nice_wmult(nice));
	/* prio_changed_fair() */
	if (t->st.running) {
		if (nice > old)
			t->cpu->resched = true;
	} else if (t->runnable) {
		check_preempt(s, t->cpu, t, false);
	}
	if (t->cpu) {
		rq_dirty(s, t->cpu, now);
		resched_if_needed(s, t->cpu, now);
	}
	finish(s);
	return 0;
}

int sched_thread_set_slice(struct sched *s, int tid, uint64_t slice_ns, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	int err;

	if (!t)
		return -ENOENT;
	err = enter(s, now);
	if (err)
		return err;
	t->se.custom_slice = slice_ns != 0;
	t->se.slice = slice_ns ? clamp_slice(slice_ns) : s->base_slice;
	if (t->se.on_rq && t->se.cfs_rq->curr != &t->se && s->ops == &sched_eevdf_ops) {
		/* the tree's augmented minimum slice must see it */
		s->ops->tree_del(t->se.cfs_rq, &t->se);
		s->ops->tree_add(t->se.cfs_rq, &t->se);
	}
	if (t->cpu)
		rq_dirty(s, t->cpu, now);
	finish(s);
	return 0;
}

int sched_thread_set_policy(struct sched *s, int tid, enum sched_thread_policy pol, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	bool was_idle;
	int err;

	if (!t)
		return -ENOENT;
	if (pol != SCHED_THREAD_NORMAL && pol != SCHED_THREAD_BATCH && pol != SCHED_THREAD_IDLE)
		return -EINVAL;
	err = enter(s, now);
	if (err)
		return err;
	was_idle = t->policy == SCHED_THREAD_IDLE;
	if (t->runnable)
		account_runnable(&t->se, -1, was_idle);
	t->policy = pol;
	t->se.idle = pol == SCHED_THREAD_IDLE;
	if (t->runnable)
		account_runnable(&t->se, 1, t->se.idle);
	if (t->se.cfs_rq)
		reweight_task(s, t, now);
	else {
		uint64_t w;
		uint32_t wm;

		task_weight(t, &w, &wm);
		sched_set_weight(&t->se, w, wm);
	}
	if (t->cpu) {
		if (t->st.running)
			t->cpu->resched = true;
		rq_dirty(s, t->cpu, now);
		resched_if_needed(s, t->cpu, now);
	}
	finish(s);
	return 0;
}

/*
 * Take a runnable (or delayed) thread off its CPU entirely, the running one included, so that
 * it can be put back elsewhere or go. A running thread's chain is put and the CPU counts as
 * idle until schedule(..., detached) runs. Returns whether it was running; a delayed thread
 * is left asleep (t->runnable false).
 */
static bool detach_runnable(struct sched *s, struct sched_thread *t, uint64_t now)
{
	struct sched_cpu *rq = t->cpu;
	bool running = rq->curr == t;

	rq_account(s, rq, now);
	if (running) {
		put_chain(s, t);
		rq->curr = NULL;
		idle_count(s, 1);
	}
	if (t->se.sched_delayed)
		finish_delayed(s, t, now);
	else
		dequeue_task(s, t, false, true, now);
	rq_dirty(s, rq, now);
	return running;
}

/* Put a detached runnable thread on @rq; @old is where it was, @was_running whether it ran. */
static void attach_runnable(struct sched *s, struct sched_thread *t, struct sched_cpu *rq,
			    bool was_running, struct sched_cpu *old, uint64_t now)
{
	rq_account(s, rq, now);
	task_set_cpu(s, t, rq);
	enqueue_task(s, t, false, false, now);
	if (old != rq) {
		t->st.migrations++;
		s->st.migrations++;
	}
	if (was_running && old == rq) {
		schedule(s, rq, now, t);
	} else {
		if (was_running)
			schedule(s, old, now, t);
		check_preempt(s, rq, t, false);
	}
	rq_dirty(s, rq, now);
	resched_if_needed(s, rq, now);
}

/* Detach then re-attach on @dst (NULL: choose with select_cpu) or drop if it was delayed. */
static void relocate(struct sched *s, struct sched_thread *t, struct sched_cpu *dst, uint64_t now)
{
	struct sched_cpu *old = t->cpu;
	bool running = detach_runnable(s, t, now);

	if (t->runnable) {
		attach_runnable(s, t, dst ? dst : select_cpu(s, t), running, old, now);
	} else {
		if (running)
			schedule(s, old, now, t);
		resched_if_needed(s, old, now);
	}
}

int sched_thread_set_affinity(struct sched *s, int tid, const uint64_t *mask, size_t nwords,
			      uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	bool any = false;
	int err;

	if (!t)
		return -ENOENT;
	for (int c = 0; c < s->ncpu; c++)
		if ((size_t)(c / 64) < nwords && ((mask[c / 64] >> (c % 64)) & 1))
			any = true;
	if (!any)
		return -EINVAL;
	err = enter(s, now);
	if (err)
		return err;
	for (size_t w = 0; w < s->mask_words; w++)
		t->affinity[w] = (w < nwords ? mask[w] : 0) & s->all_mask[w];
	if (t->cpu && !cpu_allowed(t, t->cpu->id) && (t->runnable || t->se.sched_delayed))
		relocate(s, t, NULL, now);
	finish(s);
	return 0;
}

int sched_thread_move(struct sched *s, int tid, int tgid, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	struct sched_tg *tg = tg_get(s, tgid);
	int err;

	if (!t || !tg)
		return -ENOENT;
	if (t->tg == tg)
		return 0;
	err = enter(s, now);
	if (err)
		return err;
	if (t->runnable || t->se.sched_delayed) {
		struct sched_cpu *rq = t->cpu;
		bool running = detach_runnable(s, t, now);

		t->tg->nthreads--;
		t->tg = tg;
		tg->nthreads++;
		if (t->runnable) {
			attach_runnable(s, t, rq, running, rq, now);
		} else {
			task_set_cpu(s, t, rq);
			if (running)
				schedule(s, rq, now, t);
			resched_if_needed(s, rq, now);
		}
	} else {
		t->tg->nthreads--;
		if (t->cpu) {
			struct cfs_rq *from = t->se.cfs_rq;

			t->tg = tg;
			task_set_cpu(s, t, t->cpu);
			s->ops->migrate(s, from, t->se.cfs_rq, &t->se);
		} else {
			t->tg = tg;
		}
		tg->nthreads++;
	}
	finish(s);
	return 0;
}

int sched_thread_exit(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	int err;

	if (!t)
		return -ENOENT;
	err = enter(s, now);
	if (err)
		return err;
	if (t->runnable || t->se.sched_delayed) {
		struct sched_cpu *rq = t->cpu;
		bool running = detach_runnable(s, t, now);

		t->runnable = false;
		if (running)
			schedule(s, rq, now, t);
		resched_if_needed(s, rq, now);
	}
	t->tg->nthreads--;
	t->alive = false;
	finish(s);
	return 0;
}

int sched_wakeup(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	struct sched_cpu *rq;
	unsigned levels;
	bool fork;
	int err;

	if (!t)
		return -ENOENT;
	err = enter(s, now);
	if (err)
		return err;
	if (t->runnable) {
		finish(s);
		return 0;
	}
	t->wake_time = now;
	t->wait_start = now;
	t->latency_pending = true;
	if (t->se.sched_delayed) {
		rq = t->cpu;
		rq_account(s, rq, now);
		requeue_delayed(s, t, now);
		t->runnable = true;
		rq_charge_overhead(s, rq, now, s->cfg.cost.wakeup_ns, 0);
		check_preempt(s, rq, t, false);
		rq_dirty(s, rq, now);
		resched_if_needed(s, rq, now);
		finish(s);
		return 0;
	}
	fork = t->new_task;
	rq = select_cpu(s, t);
	rq_account(s, rq, now);
	if (t->cpu && t->cpu != rq) {
		struct cfs_rq *from = t->se.cfs_rq;

		task_set_cpu(s, t, rq);
		s->ops->migrate(s, from, t->se.cfs_rq, &t->se);
		t->st.migrations++;
		s->st.migrations++;
	} else {
		task_set_cpu(s, t, rq);
	}
	t->runnable = true;
	t->st.runnable = true;
	t->st.cpu = rq->id;
	levels = enqueue_task(s, t, fork, !fork, now);
	t->new_task = false;
	rq_charge_overhead(s, rq, now, s->cfg.cost.wakeup_ns + s->cfg.cost.level_ns * levels,
			   levels);
	check_preempt(s, rq, t, fork);
	rq_dirty(s, rq, now);
	resched_if_needed(s, rq, now);
	finish(s);
	return 0;
}

int sched_sleep(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = thr_get(s, tid);
	struct sched_cpu *rq;
	unsigned levels = 0;
	bool running;
	int err;

	if (!t)
		return -ENOENT;
	err = enter(s, now);
	if (err)
		return err;
	if (!t->runnable) {
		finish(s);
		return 0;
	}
	rq = t->cpu;
	rq_account(s, rq, now);
	running = rq->curr == t;
	if (!running)
		t->st.wait_ns += now - umin(t->wait_start, now);
	if (!try_delay_dequeue(s, t))
		levels = dequeue_task(s, t, true, true, now);

	t->runnable = false;
	t->st.runnable = false;
	t->latency_pending = false;
	rq_charge_overhead(s, rq, now, s->cfg.cost.sleep_ns + s->cfg.cost.level_ns * levels,
			   levels);
	if (running)
		rq->resched = true;
	rq_dirty(s, rq, now);
	resched_if_needed(s, rq, now);
	finish(s);
	return 0;
}

/* ---------------- queries ---------------- */

uint64_t sched_next_tick_min(const struct sched *s)
{
	return s->cpu[s->theap[0]].next_tick;
}

uint64_t sched_next_tick(const struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->ncpu)
		return UINT64_MAX;
	return s->cpu[cpu].next_tick;
}

int sched_pop_changed(struct sched *s)
{
	int c;

	if (!s->nchanged)
		return -1;
	c = s->changed[--s->nchanged];
	s->cpu[c].changed = false;
	return c;
}

int sched_cpu_curr(const struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->ncpu || !s->cpu[cpu].curr)
		return -1;
	return s->cpu[cpu].curr->tid;
}

/*
 * The time at which curr's progress since its last charge reaches @target, with every tick to
 * come costing its tick cost (the same arithmetic as ticks_between(), run forward).
 */
static uint64_t progress_time(const struct sched *s, const struct sched_cpu *rq, uint64_t target)
{
	uint64_t P = s->tick_ns, c = tick_cost(s, rq), e = rq->exec_start;
	uint64_t T = rq->last_tick + P;

	for (;;) {
		if (e >= T) {
			if (c >= P)
				return UINT64_MAX;	/* the CPU does nothing but tick */
			e += c;
			T += P;
			continue;
		}
		if (target <= T - e)
			return e + target;
		target -= T - e;
		if (c >= P)
			return UINT64_MAX;
		/* whole periods of P - c progress each */
		{
			uint64_t per = P - c, k = target / per;

			if (k > 1) {
				k--;
				if (k > (UINT64_MAX - T) / P - 1)
					return UINT64_MAX;
				target -= k * per;
				T += k * P;
			}
		}
		e = T + c;
		T += P;
	}
}

uint64_t sched_cpu_finish_time(struct sched *s, int cpu, uint64_t now, uint64_t work_ns)
{
	const struct sched_cpu *rq;
	uint64_t done;

	if (cpu < 0 || cpu >= s->ncpu || !s->cpu[cpu].curr)
		return UINT64_MAX;
	rq = &s->cpu[cpu];
	done = rq_peek_progress(s, rq, now);
	if (work_ns > UINT64_MAX - done)
		return UINT64_MAX;
	return progress_time(s, rq, done + work_ns);
}

int sched_thread_stats(const struct sched *s, int tid, struct sched_thread_stats *out)
{
	const struct sched_thread *t = thr_get(s, tid);

	if (!t)
		return -ENOENT;
	*out = t->st;
	out->sum_exec_ns = t->se.sum_exec;
	out->cpu = t->cpu ? t->cpu->id : -1;
	out->running = t->cpu && t->cpu->curr == t;
	out->runnable = t->runnable;
	return 0;
}

uint64_t sched_thread_exec(const struct sched *s, int tid, uint64_t now)
{
	const struct sched_thread *t = thr_get(s, tid);

	if (!t)
		return 0;
	if (t->cpu && t->cpu->curr == t)
		return t->se.sum_exec + rq_peek_progress(s, t->cpu, now);
	return t->se.sum_exec;
}

/*
 * Ticks up to the last time the scheduler was called that were elided and not yet accounted
 * are counted here, so that what a caller observes does not depend on tick elision.
 */
static void pending_ticks(const struct sched *s, const struct sched_cpu *rq, uint64_t *n,
			  uint64_t *cost, uint64_t *levels)
{
	uint64_t e, last;

	*n = *cost = *levels = 0;
	if (!rq->curr)
		return;
	(void)ticks_between(s, rq, s->now, &e, &last, n);
	*cost = *n * tick_cost(s, rq);
	*levels = *n * levels_of(rq->curr);
}

void sched_stats(const struct sched *s, struct sched_stats *out)
{
	*out = s->st;
	for (int c = 0; c < s->ncpu; c++) {
		uint64_t n, cost, levels;

		pending_ticks(s, &s->cpu[c], &n, &cost, &levels);
		out->ticks += n;
		out->overhead_ns += cost;
		out->level_ops += levels;
	}
}

uint64_t sched_cpu_overhead(const struct sched *s, int cpu)
{
	uint64_t n, cost, levels;

	if (cpu < 0 || cpu >= s->ncpu)
		return 0;
	pending_ticks(s, &s->cpu[cpu], &n, &cost, &levels);
	return s->cpu[cpu].overhead + cost;
}

void sched_set_latency_hook(struct sched *s, sched_latency_fn *fn, void *ctx)
{
	s->latency_fn = fn;
	s->latency_ctx = ctx;
}
