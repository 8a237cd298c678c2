// SPDX-License-Identifier: MIT
/*
 * scheduler/shares.c - kernel/sched/fair.c: group scheduling and load tracking. Group entity
 * weights: calc_group_shares() from the queues' PELT averages, the task group's published load
 * (update_tg_load_avg), reweighting; and the load averages that move with their entities: attach,
 * detach and propagation up the hierarchy, blocked-load updates over each CPU's leaf list,
 * task_h_load() (docs/scheduler.md, "Group shares and load tracking").
 */
#include <stdlib.h>

#include "scheduler/sched_internal.h"

void sched__load_changed(struct cfs_rq *q, uint64_t now)
{
	pelt_set(&q->avg, now, q->load >> SCHED_LOAD_SHIFT);
}

/* update_tg_load_avg(): publish this queue's average when it moved by more than 1/64. */
bool sched__tg_update_due(const struct cfs_rq *q)
{
	int64_t delta = (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;

	if (delta < 0)
		delta = -delta;
	return (uint64_t)delta > q->tg_load_avg_contrib / 64;
}

/*
 * A group's published load changed: CPUs running something inside it recompute at ticks.
 * Only those whose plan it can change (s->mark_mask): on a busy machine most already tick
 * at every tick, and visiting each would read a line of every CPU the group spans.
 */
static void mark_tg_dirty(struct sched *s, const struct sched_tg *tg, uint64_t now)
{
	for (size_t w = 0; w < s->mask_words; w++) {
		uint64_t bits = tg->on_chain[w] & s->mark_mask[w];

		while (bits) {
			int c = (int)(w * 64) + __builtin_ctzll(bits);

			bits &= bits - 1;
			sched__rq_dirty_quiet(s, &s->cpu[c], now);
		}
	}
}

void update_tg_load_avg(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	if (!q->se)	/* the root group */
		return;
	pelt_update(&q->avg, now);
	/* 6.7+: at most once per ms per queue. */
	if (q->last_tg_update && now - q->last_tg_update < NSEC_PER_MSEC)
		return;
	if (!sched__tg_update_due(q))
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
uint64_t calc_group_shares(const struct cfs_rq *q)
{
	const struct sched_tg *tg = q->tg;
	uint64_t load = umax(q->load >> SCHED_LOAD_SHIFT, q->avg.avg);
	int64_t tg_weight = tg->load_avg - (int64_t)q->tg_load_avg_contrib + (int64_t)load;
	uint64_t shares = tg->shares;

	if (tg_weight > 0 && (tg->shares | load) <= UINT32_MAX)	/* the usual case, in 64 bits */
		shares = tg->shares * load / (uint64_t)tg_weight;
	else if (tg_weight > 0)
		shares = (uint64_t)(((unsigned __int128)tg->shares * load) / (uint64_t)tg_weight);
	else
		shares = tg->shares * load;
	if (shares < MIN_SHARES)
		shares = MIN_SHARES;
	if (shares > tg->shares)
		shares = tg->shares;
	return shares;
}

void reweight_entity(struct sched *s, struct sched_entity *se, uint64_t weight, uint32_t wmult,
		     uint64_t now)
{
	struct cfs_rq *q = se->cfs_rq;
	uint64_t old_wd = se->wd;

	if (se->weight == weight)
		return;
	if (se->on_rq)
		q->load -= se->weight;
	s->ops->reweight(s, q, se, weight, wmult);
	sched__reweight_load(s, se, old_wd, now);
	if (se->on_rq) {
		q->load += se->weight;
		sched__load_changed(q, now);
	}
	sched__rq_dirty_quiet(s, q->rq, now);	/* the queue's average moved (or will) */
}

/*
 * update_cfs_group(): a group entity's weight from its queue's share of the group's load.
 * Under EEVDF a group whose queue is empty keeps its entity's weight ("When a group becomes
 * empty, preserve its weight. This matters for DELAY_DEQUEUE", 6.13 and 6.12.y): its entity may
 * stay queued, delayed, to burn off its lag at the weight it had, and recomputing it from an
 * empty queue would shrink it to what the queue's decaying average says, and with it the
 * parent queue's load, level after level up a chain. CFS kernels (5.13-6.5) recompute.
 */
void update_cfs_group(struct sched *s, struct sched_entity *se, uint64_t now)
{
	if (!se->my_q || (!se->my_q->load && s->ops->keep_empty_weight))
		return;
	pelt_update(&se->my_q->avg, now);
	reweight_entity(s, se, calc_group_shares(se->my_q), 0, now);
}

/* ---- load averages that move with their entities (attach, detach, propagate) ---- */

/*
 * sched__reweight_load() - reweight_entity()'s dequeue_load_avg() with the old weight and
 * enqueue_load_avg() with the new one: the queue's average keeps the entity's runnable
 * history at its current weight, so it follows a new group weight at once. Called after the
 * weight changed from @old_wd.
 */
void sched__reweight_load(struct sched *s, struct sched_entity *se, uint64_t old_wd, uint64_t now)
{
	struct cfs_rq *q = se->cfs_rq;

	if (!s->cfg.load_attach || !q || se->wd == old_wd || (se->task && !se->task->attached))
		return;
	pelt_update_event(&se->ravg, now);
	pelt_update(&q->avg, now);
	pelt_reweight(&q->avg, &se->ravg, old_wd, se->wd);
}

/*
 * An entity's runnable signal follows on_rq (___update_load_sum with load = !!se->on_rq).
 * Entities' averages are brought up to date only at events (enqueue, dequeue, a weight that
 * changes, a move, a balance), which come at the same times whether ticks are elided or not,
 * so they may use the closed-form update.
 */
void sched__entity_avg_set(struct sched_entity *se, uint64_t now)
{
	pelt_set_event(&se->ravg, now, se->on_rq ? 1024 : 0);
}

/*
 * The leaf list (rq->leaf_cfs_rq_list): the group queues of a CPU that carry load or a
 * published contribution, which update_blocked_averages() must keep decaying. A queue joins
 * when something is enqueued or attached to it and leaves once fully decayed.
 */
void list_add_leaf_cfs_rq(struct cfs_rq *q)
{
	struct sched_cpu *rq = q->rq;

	if (q->on_leaf || !q->se)
		return;
	if (rq->nleaf == rq->capleaf) {
		int cap = rq->capleaf ? 2 * rq->capleaf : 8;
		struct cfs_rq **n = realloc(rq->leaf, (size_t)cap * sizeof(*n));

		if (!n)
			return;	/* it is then only decayed when something touches it */
		rq->leaf = n;
		rq->capleaf = cap;
	}
	q->on_leaf = true;
	rq->leaf[rq->nleaf++] = q;
}

void list_del_leaf_cfs_rq(struct cfs_rq *q)
{
	struct sched_cpu *rq = q->rq;

	if (!q->on_leaf)
		return;
	for (int i = 0; i < rq->nleaf; i++)
		if (rq->leaf[i] == q) {
			rq->leaf[i] = rq->leaf[--rq->nleaf];
			break;
		}
	q->on_leaf = false;
}

/*
 * propagate() - an entity came to (@sub false) or left (@sub true) queue @q with runnable
 * history @r: the group entity above takes its share of the change, and so on to the root
 * (add_tg_cfs_propagate(), propagate_entity_load_avg(), update_tg_cfs_load()). Coming, the
 * group entity's runnable sum grows by the newcomer's, at most to full; leaving, it becomes at
 * most what its queue's remaining load says, assuming all its entities equally runnable
 * (load sum / load weight). Each parent queue's average moves by the group entity's weight
 * times the change.
 */
static void propagate(struct sched *s, struct cfs_rq *q, const struct pelt *r, bool sub,
		      uint64_t now)
{
	for (struct sched_entity *ge = q->se; ge; ge = q->se) {
		struct cfs_rq *pq = ge->cfs_rq;
		struct pelt old;
		uint64_t want;

		pelt_update_event(&ge->ravg, now);
		pelt_update(&pq->avg, now);
		old = ge->ravg;
		if (!sub) {
			want = ge->ravg.sum + r->sum;
		} else {
			uint64_t lw = q->load >> SCHED_LOAD_SHIFT;

			if (!lw)
				want = 0;
			else if (q->avg.sum < (1ull << 53))
				want = (q->avg.sum << 10) / lw;
			else
				want = (uint64_t)(((unsigned __int128)q->avg.sum << 10) / lw);
			want = umin(want, ge->ravg.sum);
		}
		pelt_set_runnable(&ge->ravg, want);
		pelt_attach(&pq->avg, &old, ge->wd, true);
		pelt_attach(&pq->avg, &ge->ravg, ge->wd, false);
		list_add_leaf_cfs_rq(pq);
		update_tg_load_avg(s, pq, now);
		sched__rq_dirty_quiet(s, pq->rq, now);
		q = pq;
	}
}

/*
 * The CPU's runnable and utilisation averages take the task's along too. The task's
 * utilisation is not tracked (updating it at every switch would cost a quarter of the
 * simulator's speed on busy workloads); it is estimated when the task leaves as its share
 * of its CPU's utilisation in proportion to its runnable average (two tasks always runnable
 * on a busy CPU: 512 each; a lone busy task: 1024), and that estimate comes along to the new
 * CPU.
 */
static void cpu_signals_attach(struct sched_thread *t, uint64_t now, bool sub)
{
	struct sched_cpu *rq = t->cpu;

	pelt_update_event(&rq->util, now);
	pelt_update_event(&rq->runnable, now);
	if (sub) {
		uint64_t r = umax(rq->runnable.avg, 1024);

		t->util_moved = umin(rq->util.avg, 1024) * umin(t->se.ravg.avg, r) / r;
	}
	pelt_add_avg(&rq->util, t->util_moved, sub);
	pelt_attach(&rq->runnable, &t->se.ravg, 1024, sub);
}

/*
 * A task's load comes to (@sub false: attach_entity_load_avg()) or leaves (@sub true:
 * detach_entity_load_avg(), remove_entity_load_avg()) the queue it is attached to, with the
 * change propagated up the hierarchy.
 */
static void task_load(struct sched *s, struct sched_thread *t, uint64_t now, bool sub)
{
	struct cfs_rq *q = t->se.cfs_rq;

	if (t->attached != sub)
		return;
	t->attached = !sub;
	if (!s->cfg.load_attach)
		return;
	pelt_update_event(&t->se.ravg, now);
	pelt_update(&q->avg, now);
	pelt_attach(&q->avg, &t->se.ravg, t->se.wd, sub);
	cpu_signals_attach(t, now, sub);
	if (!sub)
		list_add_leaf_cfs_rq(q);
	propagate(s, q, &t->se.ravg, sub, now);
	update_tg_load_avg(s, q, now);
	sched__rq_dirty_quiet(s, q->rq, now);
}

void attach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now)
{
	task_load(s, t, now, false);
}

void detach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now)
{
	task_load(s, t, now, true);
}

/* Nothing left to decay: no signal, no history, nothing published. */
static bool cfs_rq_decayed(const struct cfs_rq *q)
{
	return !q->load && !q->avg.sum && !q->avg.acc && !q->avg.x && !q->tg_load_avg_contrib;
}

/*
 * update_blocked_averages() - sched_balance_update_blocked_averages(): bring every queue
 * of @rq that still carries load up to @now, so that the averages of group queues nothing runs
 * in any more decay, and republish their contributions to their groups' load (1/64 threshold,
 * once per ms). Queues fully decayed leave the leaf list.
 */
void update_blocked_averages(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	int keep = 0;

	rq->last_blocked = now;
	if (!s->cfg.blocked_load)
		return;
	for (int i = 0; i < rq->nleaf; i++) {
		struct cfs_rq *q = rq->leaf[i];

		pelt_update(&q->avg, now);
		update_tg_load_avg(s, q, now);
		if (cfs_rq_decayed(q) && !q->nr_queued)
			q->on_leaf = false;
		else
			rq->leaf[keep++] = q;
	}
	rq->nleaf = keep;
}

/*
 * task_h_load() - the task's load seen from the root of its CPU (update_cfs_rq_h_load()):
 * h_load(root) = its load_avg; h_load(q) = h_load(parent) x ge.load_avg / (parent.load_avg + 1);
 * task_h_load = p.load_avg x h_load(q) / (q.load_avg + 1).
 */
static uint64_t h_load(struct cfs_rq *q, uint64_t now)
{
	struct sched_entity *ge = q->se;
	struct cfs_rq *pq;
	uint64_t ge_load;

	pelt_update(&q->avg, now);
	if (!ge)
		return q->avg.avg;
	pq = ge->cfs_rq;
	pelt_update_event(&ge->ravg, now);
	ge_load = (ge->ravg.avg * ge->wd) >> 10;
	return (uint64_t)(((unsigned __int128)h_load(pq, now) * ge_load) / (pq->avg.avg + 1));
}

uint64_t task_h_load(struct sched_thread *t, uint64_t now)
{
	struct cfs_rq *q = t->se.cfs_rq;
	uint64_t load, hq;

	pelt_update_event(&t->se.ravg, now);
	load = (t->se.ravg.avg * t->se.wd) >> 10;
	hq = h_load(q, now);
	return (uint64_t)(((unsigned __int128)load * hq) / (q->avg.avg + 1));
}

