// SPDX-License-Identifier: MIT
/*
 * scheduler/cfs.c - kernel/sched/fair.c of 5.13-6.5, CFS's half of the policy ops: the CFS policy
 * of Linux 5.13-6.5: a vruntime-ordered tree, sched_period and sched_slice through the hierarchy,
 * tick preemption (check_preempt_tick), wakeup preemption with the wakeup granularity, the next,
 * last and skip buddies, and place_entity with START_DEBIT and the sleeper credit.
 * docs/scheduler.md.
 */
#include "scheduler/sched_internal.h"
#include "scheduler/timeline.h"

/* vruntime, then insertion order: an equal key goes to the right in rb_add_cached(). */
static bool less_vruntime(const struct rb_node *a, const struct rb_node *b)
{
	const struct sched_entity *x = sched__se_of(a), *y = sched__se_of(b);

	if (x->vruntime != y->vruntime)
		return x->vruntime < y->vruntime;
	return x->qseq < y->qseq;
}

static void tree_add(struct cfs_rq *q, struct sched_entity *se)
{
	se->qseq = ++q->qseq;
	sched__tl_add(q, se, less_vruntime, false);
}

static void tree_del(struct cfs_rq *q, struct sched_entity *se)
{
	sched__tl_del(q, se, less_vruntime, false);
}

static void v0_moved(struct cfs_rq *q, sv_t delta)
{
	(void)q, (void)delta;
}

/* sched_vslice() */
static sv_t vslice(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	return calc_delta_fair(sched_slice(s, q, se), se);
}

/*
 * place_entity() and enqueue_entity()'s renormalisation. A new task starts at min_vruntime, one
 * vslice later with START_DEBIT. A waking task gets at most a sleeper credit of latency (half
 * of it with GENTLE_FAIR_SLEEPERS) below min_vruntime and never moves backwards. An entity
 * moved while queued had min_vruntime subtracted at dequeue and gets the new one added.
 */
static void place_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool initial,
			 bool wakeup)
{
	sv_t v = q->min_vruntime;

	if (initial) {
		if (sched__feat(s, SCHED_FEAT_START_DEBIT))
			v += vslice(s, q, se);
		se->vruntime = v;
		return;
	}
	if (!wakeup) {
		se->vruntime += q->min_vruntime;
		return;
	}
	{
		uint64_t thresh = s->latency;

		if (sched__feat(s, SCHED_FEAT_GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		v -= (sv_t)thresh * SV_ONE_NS;
		if (se->vruntime < v)
			se->vruntime = v;
	}
}

static void dequeued(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool sleep)
{
	(void)s;
	clear_buddies(se);
	if (!sleep)
		se->vruntime -= q->min_vruntime;
}

/* migrate_task_rq_fair() / task_change_group_fair(): a sleeper's vruntime is relative. */
static void migrate(struct sched *s, struct cfs_rq *from, struct cfs_rq *to,
		    struct sched_entity *se)
{
	(void)s;
	se->vruntime = se->vruntime - from->min_vruntime + to->min_vruntime;
}

/* wakeup_preempt_entity(): -1 if @se is not ahead of @curr, 1 if by more than wakeup_gran. */
static int wakeup_preempt_entity(struct sched *s, struct sched_entity *curr,
				 struct sched_entity *se)
{
	sv_t vdiff = curr->vruntime - se->vruntime;

	if (vdiff <= 0)
		return -1;
	if (vdiff > calc_delta_fair(s->wakeup_gran, se))
		return 1;
	return 0;
}

/*
 * The entity after @se among curr and the tree (@curr NULL when not on_rq): the leftmost of
 * the tree when @se is curr, else @se's successor there or curr if curr comes first.
 */
static struct sched_entity *second_after(const struct cfs_rq *q, struct sched_entity *se,
					 struct sched_entity *curr)
{
	struct sched_entity *second;

	if (se == curr)
		return sched__first(q);
	second = sched__tl_next(q, se);
	if (!second || (curr && curr->vruntime < second->vruntime))
		second = curr;
	return second;
}

/*
 * pick_next_entity() of 6.5: the leftmost of curr and the tree; if that is the skip buddy (it
 * yielded), the entity after it when that one is within wakeup_gran of it (the yielder is
 * passed over only while that is not too unfair); then the next buddy, else the last, when
 * within wakeup_gran of the leftmost.
 */
static struct sched_entity *pick_next_entity(struct sched *s, struct cfs_rq *q)
{
	struct sched_entity *left = sched__first(q), *curr = q->curr, *se;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (!left || (curr && curr->vruntime < left->vruntime))	/* entity_before(): strict */
		left = curr;
	se = left;
	if (!se)
		return NULL;
	if (q->skip == se) {
		struct sched_entity *second = second_after(q, se, curr);

		if (second && wakeup_preempt_entity(s, second, left) < 1)
			se = second;
	}
	if (q->next && wakeup_preempt_entity(s, q->next, left) < 1)
		se = q->next;
	else if (q->last && wakeup_preempt_entity(s, q->last, left) < 1)
		se = q->last;
	return se;
}

/*
 * set_next_entity(): what it reads of the entity's past is CFS's alone (check_preempt_tick()'s
 * runtime since it was picked), so only CFS writes it, off the lines EEVDF's switch touches.
 */
static void set_next(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	(void)s, (void)q;
	clear_buddies(se);
	se->prev_sum_exec = se->sum_exec;
}

static bool charged(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	(void)s, (void)q, (void)curr;
	return false;
}

/* check_preempt_tick() */
static bool check_preempt_tick(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	uint64_t ideal, ran;
	struct sched_entity *first;

	if (q->nr_queued <= 1)
		return false;
	ideal = sched_slice(s, q, curr);
	ran = curr->sum_exec - curr->prev_sum_exec;
	if (ran > ideal) {
		clear_buddies(curr);
		return true;
	}
	if (ran < s->min_gran)
		return false;
	first = sched__first(q);
	if (!first)
		return false;
	return curr->vruntime - first->vruntime > (sv_t)ideal * SV_ONE_NS;
}

/*
 * The least progress after which check_preempt_tick() could return true (it changes no state
 * otherwise).
 */
static uint64_t tick_horizon(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	uint64_t ideal, ran, h1, h2;
	struct sched_entity *first;

	if (q->nr_queued <= 1)
		return UINT64_MAX;
	ideal = sched_slice(s, q, curr);
	ran = curr->sum_exec - curr->prev_sum_exec;
	h1 = ran > ideal ? 0 : ideal + 1 - ran;
	first = sched__first(q);
	if (!first)
		return h1;
	h2 = ran >= s->min_gran ? 0 : s->min_gran - ran;
	{
		sv_t need = first->vruntime + (sv_t)ideal * SV_ONE_NS + 1 - curr->vruntime;
		uint64_t hv = sched__sv_to_ns_ceil(need, curr);

		if (hv > h2)
			h2 = hv;
	}
	return h1 < h2 ? h1 : h2;
}

static bool wakeup_preempt(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   struct sched_entity *pse)
{
	(void)q;
	return wakeup_preempt_entity(s, se, pse) == 1;
}

/*
 * yield_task_fair() of 6.5: clear_buddies(), then set_skip_buddy(): the yielder and every
 * group entity above it become their queue's skip buddy, which the picks that follow pass
 * over (pick_next_entity() above) until clear_buddies() drops the mark: when the yielder is
 * picked again (set_next_entity()), leaves its queue, or is found by check_preempt_tick() to
 * have run past its slice. Its vruntime does not change. (A SCHED_BATCH yielder skips the
 * update_curr(), which schedule() makes right after: nothing a pick sees differs.)
 */
static void yield_task_fair(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	(void)s, (void)q;
	clear_buddies(se);
	for (; se; se = se->parent)
		se->cfs_rq->skip = se;
}

/* reweight_entity() before 6.6: the weight changes, vruntime does not. */
static void reweight(struct sched *s, struct cfs_rq *q, struct sched_entity *se, uint64_t weight,
		     uint32_t wmult)
{
	(void)s, (void)q;
	sched__set_weight(se, weight, wmult);
}

const struct sched_policy_ops sched_cfs_ops = {
	.augmented = false,
	.deadlines = false,
	.cfs_buddies = true,
	.keep_empty_weight = false,
	.less = less_vruntime,
	.place = place_entity,
	.dequeued = dequeued,
	.migrate = migrate,
	.pick = pick_next_entity,
	.set_next = set_next,
	.charged = charged,
	.tick = check_preempt_tick,
	.tick_horizon = tick_horizon,
	.wakeup_preempt = wakeup_preempt,
	.yield = yield_task_fair,
	.reweight = reweight,
	.v0_moved = v0_moved,
	.tree_add = tree_add,
	.tree_del = tree_del,
};
