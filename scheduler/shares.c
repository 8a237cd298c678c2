// SPDX-License-Identifier: MIT
/*
 * scheduler/shares.c - group entity weights: calc_group_shares() from the queues' PELT-style
 * averages, the task group's published load (update_tg_load_avg), reweighting.
 */
#include "scheduler/sched_internal.h"

void sched_load_changed(struct cfs_rq *q, uint64_t now)
{
	pelt_set(&q->avg, now, q->load >> SCHED_LOAD_SHIFT);
}

/* sched_update_tg_load_avg(): publish this queue's average when it moved by more than 1/64. */
bool sched_tg_update_due(const struct cfs_rq *q)
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
			sched_rq_dirty_quiet(s, &s->cpu[c], now);
		}
	}
}

void sched_update_tg_load_avg(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	if (!q->se)	/* the root group */
		return;
	pelt_update(&q->avg, now);
	/* 6.7+: at most once per ms per queue. */
	if (q->last_tg_update && now - q->last_tg_update < NSEC_PER_MSEC)
		return;
	if (!sched_tg_update_due(q))
		return;
	q->tg->load_avg += (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;
	q->tg_load_avg_contrib = q->avg.avg;
	q->last_tg_update = now;
	mark_tg_dirty(s, q->tg, now);
}

/*
 * sched_calc_group_shares(): tg->shares * load / tg_weight with load = max(this queue's weight, its
 * average) and tg_weight = Σ other CPUs' published averages + load; in [MIN_SHARES, shares].
 */
uint64_t sched_calc_group_shares(const struct cfs_rq *q)
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

void sched_reweight_entity(struct sched *s, struct sched_entity *se, uint64_t weight,
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
		sched_load_changed(q, now);
	}
	sched_rq_dirty_quiet(s, q->rq, now);
}

/* sched_update_cfs_group(): a group entity's weight from its queue's share of the group's load. */
void sched_update_cfs_group(struct sched *s, struct sched_entity *se, uint64_t now)
{
	if (!se->my_q)
		return;
	pelt_update(&se->my_q->avg, now);
	sched_reweight_entity(s, se, sched_calc_group_shares(se->my_q), 0, now);
}
