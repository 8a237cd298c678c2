// SPDX-License-Identifier: MIT
/*
 * scheduler/bandwidth.c - kernel/sched/fair.c: CFS bandwidth control (CONFIG_CFS_BANDWIDTH;
 * docs/scheduler.md): cpu.max's quota per period for a task group, a global runtime pool refilled
 * by a period timer (with cpu.max.burst), per-CPU queues taking runtime from it in slices of 5 ms,
 * throttling a queue that runs dry and unthrottling it at the refill, slack returned when a queue
 * empties. Every level of the hierarchy enforces its own group's quota. docs/scheduler.md,
 * "Bandwidth control".
 */
#include <errno.h>
#include <stdlib.h>

#include "scheduler/sched_internal.h"

#define BW_SLICE_NS		5000000ll	/* sched_cfs_bandwidth_slice_us = 5000 */
#define MIN_CFS_RQ_RUNTIME	1000000ll	/* min_cfs_rq_runtime: 1 ms */

static struct sched_tg *tg_of(const struct cfs_rq *q)
{
	return q->tg;
}

/* start_cfs_bandwidth(): the period timer starts at the next period from now. */
static void start_cfs_bandwidth(struct sched *s, struct sched_tg *tg, uint64_t now)
{
	if (tg->bw_active)
		return;
	tg->bw_active = true;
	tg->next_refill = now + tg->period;
	(void)s;
}

/*
 * assign_cfs_rq_runtime(): take up to a slice (less what the queue overran) from the pool.
 * Returns whether the queue has runtime now.
 */
static bool assign_cfs_rq_runtime(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	struct sched_tg *tg = tg_of(q);
	int64_t want = BW_SLICE_NS - q->runtime_remaining, amount = 0;

	start_cfs_bandwidth(s, tg, now);
	if (tg->runtime > 0) {
		amount = want < tg->runtime ? want : tg->runtime;
		tg->runtime -= amount;
		tg->bw_idle = false;
	}
	q->runtime_remaining += amount;
	return q->runtime_remaining > 0;
}

/* __account_cfs_rq_runtime(): charge @delta; true when the queue ran dry (resched). */
bool account_cfs_rq_runtime(struct sched *s, struct cfs_rq *q, uint64_t delta, uint64_t now)
{
	if (!q->runtime_enabled)
		return false;
	q->runtime_remaining -= (int64_t)delta;
	if (q->runtime_remaining > 0 || q->throttled)
		return false;
	return !assign_cfs_rq_runtime(s, q, now) && q->h_curr;
}

bool throttled_hierarchy(const struct cfs_rq *q)
{
	for (; q; q = q->se ? q->se->cfs_rq : NULL)
		if (q->throttled)
			return true;
	return false;
}

static void list_add(struct sched_tg *tg, struct cfs_rq *q)
{
	q->tnext = NULL;
	if (tg->throttled_tail)
		tg->throttled_tail->tnext = q;
	else
		tg->throttled_head = q;
	tg->throttled_tail = q;
}

/* throttle_cfs_rq(): the queue leaves the CPU with its subtree until runtime comes. */
static void throttle_cfs_rq(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	struct sched_tg *tg = tg_of(q);

	q->throttled = true;
	q->throttled_clock = now;
	list_add(tg, q);
	start_cfs_bandwidth(s, tg, now);
	sched__dequeue_group(s, q, now);
	sched__rq_dirty(s, q->rq, now);
}

/* unthrottle_cfs_rq() */
static void unthrottle_cfs_rq(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	struct sched_tg *tg = tg_of(q);

	q->throttled = false;
	tg->bw.throttled_ns += now - q->throttled_clock;
	update_curr(s, q->rq, now);
	sched__enqueue_group(s, q, now);
	sched__rq_dirty(s, q->rq, now);
	/* an idle CPU that now has work picks it; a busy one sees it at its next pick */
	sched__resched_if_needed(s, q->rq, now);
}

/* check_enqueue_throttle(): a queue woken with no runtime goes straight to throttled. */
void check_enqueue_throttle(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	if (!q->runtime_enabled || q->throttled || q->h_curr || q->nr_queued != 1)
		return;
	if (q->runtime_remaining > 0 || assign_cfs_rq_runtime(s, q, now))
		return;
	q->throttled = true;	/* its entity is not queued yet: nothing to take off */
	q->throttled_clock = now;
	list_add(tg_of(q), q);
}

/* check_cfs_rq_runtime() at put_prev_entity: every level of curr that ran dry throttles. */
void check_cfs_rq_runtime(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	struct sched_entity *se;

	if (!rq->curr || !s->nbw)
		return;
	for (se = &rq->curr->se; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		if (q->runtime_enabled && !q->throttled && q->runtime_remaining <= 0 &&
		    !assign_cfs_rq_runtime(s, q, now))
			throttle_cfs_rq(s, q, now);
	}
}

/* return_cfs_rq_runtime(): an emptied queue gives back what it holds above 1 ms. */
void return_cfs_rq_runtime(struct sched *s, struct cfs_rq *q)
{
	int64_t slack = q->runtime_remaining - MIN_CFS_RQ_RUNTIME;

	(void)s;
	if (!q->runtime_enabled || slack <= 0)
		return;
	tg_of(q)->runtime += slack;
	q->runtime_remaining -= slack;
}

uint64_t sched__bw_next(const struct sched *s)
{
	uint64_t t = UINT64_MAX;

	for (int i = 0; i < s->nbw; i++)
		if (s->bw_tgs[i]->bw_active && s->bw_tgs[i]->next_refill < t)
			t = s->bw_tgs[i]->next_refill;
	return t;
}

/*
 * do_sched_cfs_period_timer() for every group whose period ends at @now: count the period,
 * refill the pool (quota, plus what was saved up to the burst), hand runtime to the throttled
 * queues in the order they were throttled, and stop the timer after a whole idle period.
 */
void do_sched_cfs_period_timer(struct sched *s, uint64_t now)
{
	for (int i = 0; i < s->nbw; i++) {
		struct sched_tg *tg = s->bw_tgs[i];
		int64_t cap;

		if (!tg->bw_active || tg->next_refill != now)
			continue;
		if (tg->bw_idle && !tg->throttled_head) {
			tg->bw_active = false;	/* cfs_b->idle: the timer stops */
			continue;
		}
		tg->bw.nr_periods++;
		if (tg->throttled_head)
			tg->bw.nr_throttled++;
		/* __refill_cfs_bandwidth_runtime(): a period that took more than the quota from
		 * the pool (net of returned slack) used its burst */
		cap = (int64_t)(tg->quota + tg->burst);
		tg->runtime += (int64_t)tg->quota;
		if (tg->runtime_snap > tg->runtime) {
			tg->bw.nr_bursts++;
			tg->bw.burst_ns += (uint64_t)(tg->runtime_snap - tg->runtime);
		}
		if (tg->runtime > cap)
			tg->runtime = cap;
		tg->runtime_snap = tg->runtime;
		/* distribute_cfs_runtime() */
		while (tg->throttled_head && tg->runtime > 0) {
			struct cfs_rq *q = tg->throttled_head;
			int64_t need = -q->runtime_remaining + 1, amount;

			amount = need < tg->runtime ? need : tg->runtime;
			tg->runtime -= amount;
			q->runtime_remaining += amount;
			if (q->runtime_remaining <= 0)
				break;
			tg->throttled_head = q->tnext;
			if (!tg->throttled_head)
				tg->throttled_tail = NULL;
			unthrottle_cfs_rq(s, q, now);
		}
		tg->bw_idle = true;
		tg->next_refill = now + tg->period;
	}
}

/* Drop a group from the bandwidth list (it is freed, or its quota became "max"). */
void sched__bw_forget(struct sched *s, struct sched_tg *tg)
{
	for (int i = 0; i < s->nbw; i++) {
		if (s->bw_tgs[i] == tg) {
			s->bw_tgs[i] = s->bw_tgs[--s->nbw];
			return;
		}
	}
}

int sched_tg_set_bandwidth(struct sched *s, int id, uint64_t quota, uint64_t period,
			   uint64_t burst, uint64_t now)
{
	struct sched_tg *tg = id > 0 && id < s->ntg ? s->tg[id] : NULL;
	bool limited = quota != UINT64_MAX;
	int err;

	if (!tg || !tg->alive || !tg->parent)
		return tg ? -EINVAL : -ENOENT;
	if (!period || (limited && (!quota || quota > (uint64_t)INT64_MAX / 4 ||
				    burst > (uint64_t)INT64_MAX / 4)))
		return -EINVAL;
	if (quota == tg->quota && period == tg->period && (!limited || burst == tg->burst))
		return 0;	/* unchanged: the pool and the timer go on */
	err = sched__enter(s, now);
	if (err)
		return err;
	/* unthrottle whatever waits: the new limit starts afresh (tg_set_cfs_bandwidth) */
	while (tg->throttled_head) {
		struct cfs_rq *q = tg->throttled_head;

		tg->throttled_head = q->tnext;
		if (!tg->throttled_head)
			tg->throttled_tail = NULL;
		q->runtime_remaining = 0;
		unthrottle_cfs_rq(s, q, now);
	}
	tg->quota = quota;
	tg->period = period;
	tg->burst = limited ? burst : 0;
	tg->runtime = limited ? (int64_t)quota : 0;
	tg->runtime_snap = tg->runtime;
	tg->bw_active = false;
	tg->bw_idle = true;
	for (int c = 0; c < s->ncpu; c++) {
		struct cfs_rq *q = tg->cfs_rq[c];

		update_curr(s, q->rq, now);
		q->runtime_enabled = limited;
		q->runtime_remaining = 0;
		sched__rq_dirty(s, q->rq, now);
	}
	sched__bw_forget(s, tg);
	if (limited) {
		if (s->nbw == s->capbw) {
			int k = s->capbw ? 2 * s->capbw : 8;
			struct sched_tg **a = realloc(s->bw_tgs, (size_t)k * sizeof(*a));

			if (!a)
				return -ENOMEM;
			s->bw_tgs = a;
			s->capbw = k;
		}
		s->bw_tgs[s->nbw++] = tg;
	}
	sched__finish(s);
	return 0;
}

int sched_tg_bw_stats(const struct sched *s, int id, struct sched_bw_stats *out)
{
	const struct sched_tg *tg = id >= 0 && id < s->ntg ? s->tg[id] : NULL;

	if (!tg || !tg->alive)
		return -ENOENT;
	*out = tg->bw;
	/* time throttled so far by queues still throttled */
	for (int c = 0; c < s->ncpu; c++)
		if (tg->cfs_rq[c]->throttled)
			out->throttled_ns += s->now - tg->cfs_rq[c]->throttled_clock;
	return 0;
}
