// SPDX-License-Identifier: MIT
/*
 * scheduler/group.c - task groups: kernel/sched/core.c's CONFIG_CGROUP_SCHED part
 * (sched_create_group(), sched_destroy_group()) with kernel/sched/fair.c's per-CPU side
 * (alloc_fair_sched_group(), init_tg_cfs_entry(), init_cfs_rq(), sched_group_set_shares(),
 * sched_group_set_idle(), unregister_fair_sched_group()): one queue per CPU and, below the root,
 * one entity per CPU, and the public calls that make, change and free a group.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/sched_internal.h"

struct sched_tg *sched__tg_get(const struct sched *s, int id)
{
	if (id < 0 || id >= s->ntg || !s->tg[id] || !s->tg[id]->alive)
		return NULL;
	return s->tg[id];
}

static void init_cfs_rq(const struct sched *s, struct cfs_rq *q, struct sched_tg *tg,
			struct sched_cpu *rq, struct sched_entity *se, uint64_t now)
{
	memset(q, 0, sizeof(*q));
	sched__tl_init(q);
	q->tl_array_ok = s->cfg.timeline_array;
	q->tg = tg;
	q->rq = rq;
	q->se = se;
	pelt_init(&q->avg, now);
	pelt_init(&q->runnable, now);
}

void sched__tg_release(struct sched *s, struct sched_tg *tg)
{
	if (!tg)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		if (tg->cfs_rq && tg->cfs_rq[c]) {
			sched__tl_free(tg->cfs_rq[c]);
			/* with its entity, if it has one: one allocation (sched__tg_alloc()) */
			sched__lines_free(s, tg->cfs_rq[c],
					  tg->parent ? SCHED_PAIR_BYTES : sizeof(struct cfs_rq));
		}
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

struct sched_tg *sched__tg_alloc(struct sched *s, int id, struct sched_tg *parent,
				 uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *tg = calloc(1, sizeof(*tg));

	if (!tg)
		return NULL;
	tg->id = id;
	tg->parent = parent;
	tg->alive = true;
	tg->idle = idle;
	s->any_idle |= idle;
	tg->shares = parent ? tg_effective_shares(weight, idle) : NICE_0_LOAD;
	tg->quota = UINT64_MAX;			/* cpu.max "max 100000" */
	tg->period = 100 * NSEC_PER_MSEC;
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

		/* below the root, the queue and its entity together (sched__prefetch_my_q()) */
		tg->cfs_rq[c] = sched__lines_alloc(s, parent ? SCHED_PAIR_BYTES : sizeof(struct cfs_rq));
		if (!tg->cfs_rq[c])
			goto fail;
		if (parent) {
			se = (struct sched_entity *)((char *)tg->cfs_rq[c] + SCHED_RQ_BYTES);
			tg->se[c] = se;
			se->my_q = tg->cfs_rq[c];
			se->cfs_rq = parent->cfs_rq[c];
			se->parent = parent->se ? parent->se[c] : NULL;
			se->depth = se->parent ? se->parent->depth + 1 : 0;
			se->idle = idle;
			se->slice = s->base_slice;
			pelt_init(&se->ravg, now);
			rb_node_clear(&se->node);
			sched__set_weight(se, NICE_0_LOAD, 0);
		}
		init_cfs_rq(s, tg->cfs_rq[c], tg, &s->cpu[c], se, now);
	}
	return tg;
fail:
	sched__tg_release(s, tg);
	return NULL;
}

int sched_tg_new(struct sched *s, int id, int parent, uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *p = sched__tg_get(s, parent), *tg;
	int err;

	if (id <= 0 || !p || weight < 1 || weight > SCHED_SHARES_MAX)
		return id <= 0 || weight < 1 || weight > SCHED_SHARES_MAX ? -EINVAL : -ENOENT;
	if (sched__tg_get(s, id))
		return -EEXIST;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (sched__grow((void **)&s->tg, &s->ntg, id, sizeof(*s->tg)))
		return -ENOMEM;
	sched__tg_release(s, s->tg[id]);
	s->tg[id] = NULL;
	tg = sched__tg_alloc(s, id, p, weight, idle, now);
	if (!tg)
		return -ENOMEM;
	s->tg[id] = tg;
	p->nchildren++;
	s->any_group = true;
	sched__finish(s);
	return 0;
}

int sched_tg_set(struct sched *s, int id, uint32_t weight, bool idle, uint64_t now)
{
	struct sched_tg *tg = sched__tg_get(s, id);
	int err;

	if (!tg || !tg->parent)
		return tg ? -EINVAL : -ENOENT;
	if (weight < 1 || weight > SCHED_SHARES_MAX)
		return -EINVAL;
	err = sched__enter(s, now);
	if (err)
		return err;
	tg->shares = tg_effective_shares(weight, idle);
	tg->idle = idle;
	s->any_idle |= idle;
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_entity *se = tg->se[c];
		struct sched_cpu *rq = &s->cpu[c];

		update_curr(s, rq, now);
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
		sched__rq_dirty(s, rq, now);
		sched__resched_if_needed(s, rq, now);
	}
	sched__finish(s);
	return 0;
}

int sched_tg_free(struct sched *s, int id, uint64_t now)
{
	struct sched_tg *tg = sched__tg_get(s, id);
	int err;

	if (!tg || !tg->parent)
		return tg ? -EINVAL : -ENOENT;
	if (tg->nchildren || tg->nthreads)
		return -EBUSY;
	err = sched__enter(s, now);
	if (err)
		return err;
	for (int c = 0; c < s->ncpu; c++)
		if (tg->cfs_rq[c]->nr_queued)
			return -EBUSY;
	sched__bw_forget(s, tg);
	/* unregister_fair_sched_group(): the entities' load leaves their parents' queues */
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_entity *se = tg->se[c];

		list_del_leaf_cfs_rq(tg->cfs_rq[c]);
		if (s->cfg.load_attach) {
			pelt_update_event(&se->ravg, now);
			pelt_update(&se->cfs_rq->avg, now);
			pelt_attach(&se->cfs_rq->avg, &se->ravg, se->wd, true);
			update_tg_load_avg(s, se->cfs_rq, now);
			sched__rq_dirty_quiet(s, &s->cpu[c], now);
		}
	}
	tg->parent->nchildren--;
	tg->alive = false;
	sched__tg_release(s, tg);
	s->tg[id] = NULL;
	sched__finish(s);
	return 0;
}

int sched_tg_info(const struct sched *s, int id, struct sched_tg_info *out)
{
	const struct sched_tg *tg = sched__tg_get(s, id);

	if (!tg)
		return -ENOENT;
	*out = (struct sched_tg_info){
		.parent = tg->parent ? tg->parent->id : -1,
		.weight = (uint32_t)(tg->shares >> SCHED_LOAD_SHIFT),
		.idle = tg->idle,
		.quota_ns = tg->quota,
		.period_ns = tg->period,
	};
	return 0;
}

int sched_tg_end(const struct sched *s)
{
	return s->ntg;
}

uint64_t sched_group_weight(const struct sched *s, int id, int cpu)
{
	const struct sched_tg *tg = sched__tg_get(s, id);

	if (!tg || cpu < 0 || cpu >= s->ncpu)
		return 0;
	if (!tg->parent)
		return SCHED_NICE_0_WEIGHT;
	return tg->se[cpu]->weight >> SCHED_LOAD_SHIFT;
}
