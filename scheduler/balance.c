// SPDX-License-Identifier: MIT
/*
 * scheduler/balance.c - SMP: the CPU a waking or new thread goes to (select_task_rq_fair for
 * one LLC), and load balancing (periodic, new-idle, NOHZ kick) over one domain spanning every
 * CPU. docs/scheduler.md, "SMP".
 */
#include "scheduler/sched_internal.h"

#define BUSY_FACTOR	16u	/* sd->busy_factor since 5.10 */
#define IMBALANCE_PCT	117u	/* sd->imbalance_pct since 5.10 */
#define CACHE_NICE_TRIES 1u	/* sd->cache_nice_tries at the MC level */

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
struct sched_cpu *sched_select_cpu(struct sched *s, struct sched_thread *t)
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

/* Move a queued, not running, not delayed task; the caller has asked can_migrate(). */
static void move_queued(struct sched *s, struct sched_thread *t, struct sched_cpu *dst,
			uint64_t now)
{
	struct sched_cpu *src = t->cpu;

	sched_dequeue_task(s, t, false, true, now);
	sched_task_set_cpu(s, t, dst);
	sched_enqueue_task(s, t, false, false, now);
	t->st.migrations++;
	s->st.migrations++;
	sched_rq_dirty(s, src, now);
	sched_rq_dirty(s, dst, now);
	sched_check_preempt(s, dst, t, false);
}

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
	if (sched_throttled_hierarchy(t->se.cfs_rq))
		return false;	/* throttled_lb_pair(): not on the CPU's books */
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
bool sched_balance(struct sched *s, struct sched_cpu *dst, uint64_t now, bool newidle)
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
	sched_rq_account(s, busiest, now);
	sched_rq_account(s, dst, now);
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
	/* a new-idle pull is picked by the sched_schedule() that asked for it */
	if (!newidle) {
		balance_interval_update(s, dst, moved > 0);
		sched_resched_if_needed(s, dst, now);
	}
	return moved > 0;
}

uint64_t sched_balance_period(const struct sched *s, const struct sched_cpu *rq)
{
	uint64_t iv = rq->balance_interval;

	if (rq->curr)
		iv *= BUSY_FACTOR;
	/* max_load_balance_interval: HZ/10 jiffies = 100 ms */
	return umin(umax(iv, s->tick_ns), 100 * NSEC_PER_MSEC);
}
