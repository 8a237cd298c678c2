// SPDX-License-Identifier: MIT
/*
 * scheduler/tick.c - kernel/sched/core.c's sched_tick() and fair.c's entity_tick(): ticks. Which
 * must be processed and which can be elided (plan(), quiescent()), processing one (sched_tick's
 * work), the heap of the CPUs' next ticks, and the bookkeeping every entry point ends with
 * (sched__finish). docs/scheduler.md, "Ticks and their elision".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scheduler/sched_internal.h"

/* @rq's next tick must be recomputed (by sched__finish()). */
static inline void rq_replan(struct sched *s, struct sched_cpu *rq)
{
	if (!rq->need_plan) {
		rq->need_plan = true;
		s->replan[s->nreplan++] = rq->id;
	}
}

/* @rq changed what it runs or when its thread progresses: tell the driver, and replan. */
static inline void rq_mark(struct sched *s, struct sched_cpu *rq)
{
	if (!rq->changed) {
		rq->changed = true;
		s->changed[s->nchanged++] = rq->id;
	}
	rq_replan(s, rq);
}

/*
 * Something happened on @rq at @now: its ticks from @now on may matter. A CPU whose next tick
 * is already the next one on the grid needs no new plan for that: being dirty can only bring
 * a tick earlier. (Groups republishing their load mark every CPU running inside them; on a
 * busy machine most of those already tick at every tick.)
 */
void sched__rq_dirty_quiet(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	if (now < rq->dirty_from)
		rq->dirty_from = now;
	if (rq->next_tick == UINT64_MAX || rq->next_tick > rq->last_tick + s->tick_ns)
		rq_replan(s, rq);
}

void sched__rq_dirty(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	sched__rq_dirty_quiet(s, rq, now);
	sched__rq_signals(rq, now);	/* what runs, or how many are runnable, may have changed */
	rq_mark(s, rq);
}

/*
 * The CPUs' next ticks in a binary min-heap keyed by (next_tick, tie, cpu), so that finding
 * the next tick to process costs O(1) and replanning one CPU O(log cpus). Ties: CPUs whose
 * ticks fall at the same time T are processed in CPU order, or with jitter in an order drawn
 * from (seed, T) alone, so that it does not depend on which ticks are processed and which
 * elided (a real machine's ticks race; CPU 0 does not always go first).
 */
static inline bool slot_less(const struct sched_theap *x, const struct sched_theap *y)
{
	if (x->tick != y->tick)
		return x->tick < y->tick;
	if (x->tie != y->tie)
		return x->tie < y->tie;
	return x->cpu < y->cpu;
}

/* CPU @cpu's key as a heap slot holds it. */
static inline struct sched_theap slot_of(const struct sched *s, int cpu)
{
	return (struct sched_theap){ s->cpu[cpu].next_tick, s->cpu[cpu].tie, cpu };
}

/* The same order on two CPUs' current keys (few CPUs: no heap to read them from). */
static bool theap_less(const struct sched *s, int a, int b)
{
	struct sched_theap x = slot_of(s, a), y = slot_of(s, b);

	return slot_less(&x, &y);
}

/* The tie-break rank of @rq's next tick (0 without jitter: CPU order). */
static void set_tie(const struct sched *s, struct sched_cpu *rq)
{
	rq->tie = s->cfg.jitter ? sched__mix64(s->cfg.seed ^ (rq->next_tick * 0x9e3779b97f4a7c15ull) ^
					 ((uint64_t)rq->id << 48)) : 0;
}

void sched__theap_set(struct sched *s, int i, int cpu)
{
	s->theap[i] = slot_of(s, cpu);
	s->hpos[cpu] = i;
}

static inline void slot_put(struct sched *s, int i, const struct sched_theap *e)
{
	s->theap[i] = *e;
	s->hpos[e->cpu] = i;
}

static void theap_fix(struct sched *s, int cpu)
{
	int i = s->hpos[cpu], n = s->ncpu;
	struct sched_theap e;

	if (n <= THEAP_MIN_CPUS) {
		/* only @cpu moved: it is the new first, or the first is unknown if it was @cpu */
		if (s->tmin == cpu)
			s->tmin = -1;
		else if (s->tmin >= 0 && theap_less(s, cpu, s->tmin))
			s->tmin = cpu;
		return;
	}

	e = slot_of(s, cpu);
	while (i > 0 && slot_less(&e, &s->theap[(i - 1) / 2])) {
		slot_put(s, i, &s->theap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct sched_theap *least = &e;

		if (l < n && slot_less(&s->theap[l], least))
			least = &s->theap[m = l];
		if (r < n && slot_less(&s->theap[r], least))
			least = &s->theap[m = r];
		if (m == i)
			break;
		slot_put(s, i, least);
		i = m;
	}
	slot_put(s, i, &e);
}

/* Few CPUs: find the first tick again when the CPU that had it moved its tick. */
static void theap_settle(struct sched *s)
{
	if (s->ncpu <= THEAP_MIN_CPUS && s->tmin < 0) {
		int best = 0;

		for (int c = 1; c < s->ncpu; c++)
			if (theap_less(s, c, best))
				best = c;
		s->tmin = best;
	}
}

/* The CPU whose next tick comes first, ties broken as in theap_less(); valid outside the
 * replanning of sched__finish(), which ends with theap_settle(). */
static int theap_top(const struct sched *s)
{
	return s->ncpu > THEAP_MIN_CPUS ? s->theap[0].cpu : s->tmin;
}

/*
 * Would a tick now change anything beyond the linear accounting and the policy's decision?
 * Not if every queue on curr's chain has settled load and runnable averages (the runnable one
 * where it is kept, s->tg_runnable) with no tg update pending and every group entity on the
 * chain already has the weight calc_group_shares() would give it. The averages only move at
 * period ends and only while unsettled, so the answer holds until something happens on this
 * CPU or another CPU publishes a new tg load or runnable average (which marks it).
 */
static bool quiescent(const struct sched *s, const struct sched_cpu *rq)
{
	if (!rq->curr)
		return true;
	/* the cheap tests on every level first, the group weights (a division each) after */
	for (const struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		const struct cfs_rq *q = se->cfs_rq;

		if (!pelt_stable(&q->avg) || (q->se && sched__tg_update_due(q)))
			return false;
		if (s->tg_runnable && q->se && !pelt_stable(&q->runnable))
			return false;
	}
	for (const struct sched_entity *se = rq->curr->se.parent; se; se = se->parent)
		if (calc_group_shares(s, se->my_q) != se->weight)
			return false;
	/* the flat pick: a tick would recompute a stale h_load */
	if (s->ops->flat && rq->curr->se.on_rq && sched__h_load(&rq->curr->se) != rq->curr->se.h_load)
		return false;
	return true;
}

/*
 * update_load_avg(cfs_rq, curr, UPDATE_TG) at a tick: the queue's average brought to @T and
 * its share of the group's load published when due. The kernel's updates the entity's average
 * too; here that one moves only at events (sched__entity_avg_set()).
 */
static void update_load_avg(struct sched *s, struct cfs_rq *q, uint64_t T)
{
	pelt_update(&q->avg, T);
	update_tg_load_avg(s, q, T);
}

/*
 * entity_tick() at one level of curr's chain: the load average, the group weight, then the
 * policy's tick (check_preempt_tick() under CFS; EEVDF's update_curr() did it all). The
 * charge is the caller's, once for the whole chain. Returns whether to reschedule.
 */
static bool entity_tick(struct sched *s, struct cfs_rq *q, struct sched_entity *curr, uint64_t T)
{
	update_load_avg(s, q, T);
	update_cfs_group(s, curr, T);
	return s->ops->tick(s, q, curr);
}

/*
 * sched_tick() on one CPU at grid time T: charge curr, update each level's load average and
 * group weight, let the policy decide on preemption, run the balancer when due, and decide
 * whether the next tick can change anything (see plan()).
 */
static void sched_tick(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	bool kick = false;

	if (rq->last_tick >= T)
		return;		/* already accounted (cannot happen: see update_curr()) */
	s->in_tick = true;
	sched__rq_account_to(s, rq, T - 1, T);
	rq->last_tick = T;
	s->st.ticks++;
	s->st.ticks_processed++;
	if (rq->curr) {
		for (struct sched_entity *se = &rq->curr->se; se; se = se->parent)
			if (entity_tick(s, se->cfs_rq, se, T))
				rq->resched = true;
		if (s->ops->flat)	/* task_tick_fair(): h_load from the levels as they are */
			sched__flat_reweight(s, rq->curr);
		sched__rq_charge_overhead(s, rq, T, s->cfg.cost.tick_ns,
					  (struct sched_walk){ 0, levels_of(rq->curr) });
	}
	rq->dirty_from = T + 1;
	if (T >= rq->next_balance || (s->nr_idle && T >= s->nohz_next && nohz_balancer_kick(s, rq)))
		kick = sched_balance_trigger(s, rq, T);
	if (rq->resched && rq->curr)
		sched__rq_charge_tick(s, rq, T);
	sched__resched_if_needed(s, rq, T);
	if (kick)
		sched__balance_kicked(s, rq, T);
	s->in_tick = false;
	rq_mark(s, rq);
}

/*
 * umin(@next, umax(@first, grid_ceil(@t))) for a grid time @first: nothing to round where @t
 * lies outside the two (grid_ceil(@t) >= @t, and <= @first when @t <= @first). Between them,
 * the tick at or after @t is @first + P ceil(d / P) for d = @t - @first; a horizon (a slice, a
 * deadline) is seldom more than a few ticks ahead, so count those ticks by comparison before
 * dividing: on the flat benchmark this division stood on the path of every switch.
 */
static inline uint64_t plan_min(const struct sched *s, uint64_t next, uint64_t first, uint64_t t)
{
	uint64_t P = s->tick_ns, d;

	if (t >= next)
		return next;
	if (t <= first)
		return first;	/* next >= first always */
	d = t - first;
	if (d <= 4 * P && first <= UINT64_MAX - 4 * P)
		return umin(next, first + P * (1 + (d > P) + (d > 2 * P) + (d > 3 * P)));
	return umin(next, grid_ceil(s, t));
}

/*
 * plan() - the next tick of @rq that must be processed. With elision, a tick is skipped when
 * it provably changes nothing but the linear accounting that ticks_between() reproduces: the
 * CPU is quiescent (the last processed tick found every load average settled, no group weight
 * moved, no tg update pending, and nothing happened on the CPU since), no balance is due, and
 * no level's policy horizon (a deadline or protection reached, a CFS slice used up) has passed.
 * Horizons are CPU time charged to curr, which runs with the clock from charge_from: the tick
 * planned is the first at which a horizon can have passed (docs/scheduler.md, "Tick elision").
 */
static void plan(struct sched *s, struct sched_cpu *rq)
{
	uint64_t first, next;

	if (!rq->curr) {
		rq->next_tick = UINT64_MAX;
		return;
	}
	first = rq->last_tick + s->tick_ns;	/* last_tick is a grid time */
	if (!s->cfg.tick_elision) {
		rq->next_tick = first;
		return;
	}
	next = UINT64_MAX;
	if (rq->dirty_from != UINT64_MAX && quiescent(s, rq))
		rq->dirty_from = UINT64_MAX;
	if (rq->dirty_from != UINT64_MAX) {
		next = plan_min(s, next, first, rq->dirty_from);
		if (next == first) {	/* nothing can come sooner */
			rq->next_tick = next;
			return;
		}
	}
	/* the policy's horizons first: usually the nearest, they spare the others' divisions */
	for (struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		uint64_t h = s->ops->tick_horizon(s, se->cfs_rq, se);
		const struct cfs_rq *q = se->cfs_rq;

		/* the tick at which the queue's runtime runs out asks the pool or throttles */
		if (q->runtime_enabled && !q->throttled) {
			uint64_t left = q->runtime_remaining > 0 ? (uint64_t)q->runtime_remaining : 0;

			if (left < h)
				h = left;
		}

		if (h != UINT64_MAX && h < UINT64_MAX - rq->charge_from)
			next = plan_min(s, next, first, rq->charge_from + h);
	}
	next = plan_min(s, next, first, rq->next_balance);
	if (s->nr_idle && nohz_balancer_kick(s, rq))
		next = plan_min(s, next, first, s->nohz_next);
	rq->next_tick = next;
}

/*
 * @rq's bit in s->mark_mask after a plan: set if a group's new published load could still
 * change its plan, through a dirty_from lowered past the next grid tick or a tick planned
 * beyond it (sched__rq_dirty_quiet()'s two effects).
 */
static inline void mark_bit(struct sched *s, const struct sched_cpu *rq)
{
	uint64_t first = rq->last_tick + s->tick_ns, *w = &s->mark_mask[rq->id / 64];
	uint64_t b = 1ull << (rq->id % 64);

	if (rq->next_tick > first || rq->dirty_from > first)
		*w |= b;
	else
		*w &= ~b;
}

/*
 * sched__replan_llc() - a CPU of @rq's LLC went idle or busy: with SMT or several LLCs that
 * changes whether its busy neighbours may kick idle CPUs (nohz_balancer_kick()), a horizon
 * of their plans.
 */
void sched__replan_llc(struct sched *s, const struct sched_cpu *rq)
{
	const struct sched_dom *llc;

	if (!s->multi_llc_or_smt || rq->llc < 0)
		return;
	llc = rq->sd[rq->llc].d;
	for (int i = 0; i < llc->weight; i++) {
		struct sched_cpu *o = &s->cpu[llc->cpus[i]];

		if (o != rq && o->curr)
			rq_replan(s, o);
	}
}

/* The end of every entry point: replan what changed, run the invariant checker if asked. */
void sched__finish(struct sched *s)
{
	if (s->idle_changed) {
		s->idle_changed = false;
		for (int c = 0; c < s->ncpu; c++)
			if (s->cpu[c].nr_running >= 2)
				rq_replan(s, &s->cpu[c]);
	}
	while (s->nreplan) {
		struct sched_cpu *rq = &s->cpu[s->replan[--s->nreplan]];

		uint64_t before = rq->next_tick;

		rq->need_plan = false;
		plan(s, rq);
		if (s->any_group)	/* no group, no publication: the bits stay all set */
			mark_bit(s, rq);
		if (rq->next_tick != before) {
			set_tie(s, rq);
			theap_fix(s, rq->id);
		}
	}
	theap_settle(s);
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
		struct sched_cpu *best = &s->cpu[theap_top(s)];
		uint64_t bw = s->nbw ? sched__bw_next(s) : UINT64_MAX;

		/* the ticks due at a time first, then the bandwidth timers due then */
		if (bw < best->next_tick && bw <= now) {
			s->now = bw;
			do_sched_cfs_period_timer(s, bw);
			sched__finish(s);
			continue;
		}
		if (best->next_tick > now)
			break;
		s->now = best->next_tick;
		sched_tick(s, best, best->next_tick);
		sched__finish(s);
	}
	s->now = now;
}

int sched__enter(struct sched *s, uint64_t now)
{
	if (now < s->now)
		return -EINVAL;
	sched_advance(s, now);
	return 0;
}

uint64_t sched_next_tick_min(const struct sched *s)
{
	uint64_t t = s->cpu[theap_top(s)].next_tick, bw = s->nbw ? sched__bw_next(s) : UINT64_MAX;

	return bw < t ? bw : t;
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
