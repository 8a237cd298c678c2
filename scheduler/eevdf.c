// SPDX-License-Identifier: MIT
/*
 * scheduler/eevdf.c - kernel/sched/fair.c, EEVDF's half of the policy ops: the EEVDF policy of
 * Linux 6.6+ (as of 6.12-6.18): a deadline-ordered tree augmented with each subtree's minimum
 * vruntime and minimum slice, eligibility against the weighted average V, lag kept across sleeps
 * (PLACE_LAG), RUN_TO_PARITY slice protection, PREEMPT_SHORT, and reweighting that keeps lag.
 * docs/scheduler.md.
 */
#include "scheduler/sched_internal.h"
#include "scheduler/timeline.h"

static void tree_add(struct cfs_rq *q, struct sched_entity *se)
{
	q->sum_w_vruntime += (se->vruntime - q->min_vruntime) * se->wd;
	q->sum_weight += se->wd;
	se->qseq = ++q->qseq;
	sched__tl_add(q, se, sched__less_deadline, true);
}

static void tree_del(struct cfs_rq *q, struct sched_entity *se)
{
	sched__tl_del(q, se, sched__less_deadline, true);
	q->sum_w_vruntime -= (se->vruntime - q->min_vruntime) * se->wd;
	q->sum_weight -= se->wd;
}

/* Every key v - v0 shrinks by delta when v0 grows by delta. */
void sched__eevdf_v0_moved(struct cfs_rq *q, sv_t delta)
{
	q->sum_w_vruntime -= q->sum_weight * delta;
}

static bool v_eligible(const struct cfs_rq *q, sv_t v)
{
	const struct sched_entity *curr = q->curr;
	sv_t avg = q->sum_w_vruntime;
	int64_t load = q->sum_weight;

	if (curr && curr->on_rq) {
		avg += (curr->vruntime - q->min_vruntime) * curr->wd;
		load += curr->wd;
	}
	return avg >= (v - q->min_vruntime) * load;
}

/* cfs_rq_min_slice(): the smallest request among curr and the queued entities. */
uint64_t cfs_rq_min_slice(const struct cfs_rq *q)
{
	uint64_t m = UINT64_MAX;

	if (q->curr && q->curr->on_rq)
		m = q->curr->slice;
	if (q->tl_n && sched__tl_min_slice(q) < m)
		m = sched__tl_min_slice(q);
	return m;
}

/* entity_lag(): V - v, clamped to ± calc_delta_fair(max(2 slice, TICK_NSEC)). */
sv_t entity_lag(struct sched *s, sv_t V, const struct sched_entity *se)
{
	uint64_t lim_ns = 2 * se->slice > s->tick_ns ? 2 * se->slice : s->tick_ns;
	sv_t lim = calc_delta_fair(lim_ns, se), lag = V - se->vruntime;

	return lag > lim ? lim : lag < -lim ? -lim : lag;
}

static void place_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool initial,
			 bool wakeup)
{
	sv_t V = avg_vruntime(q), lag = 0, vslice;

	(void)wakeup;
	if (!se->custom_slice)
		se->slice = s->base_slice;
	vslice = calc_delta_fair(se->slice, se);
	/*
	 * PLACE_LAG: adding an entity with lag moves V; inflate the lag by (W + w) / W so that
	 * after the entity is added its lag is what it was (docs/scheduler.md).
	 */
	if (sched__feat(s, SCHED_FEAT_PLACE_LAG) && q->nr_queued && se->vlag) {
		int64_t load = q->sum_weight;

		if (q->curr && q->curr->on_rq)
			load += q->curr->wd;
		lag = se->vlag * (load + se->wd);
		lag /= load ? load : 1;
	}
	se->vruntime = V - lag;
	if (se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (sched__feat(s, SCHED_FEAT_PLACE_DEADLINE_INITIAL) && initial)
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/* update_entity_lag(): the entity's lag at V now, kept for its next placement. */
static void update_entity_lag(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	se->vlag = entity_lag(s, avg_vruntime(q), se);
}

static void dequeued(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool sleep)
{
	update_entity_lag(s, q, se);
	if (!sleep && sched__feat(s, SCHED_FEAT_PLACE_REL_DEADLINE)) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
}

static void migrate(struct sched *s, struct cfs_rq *from, struct cfs_rq *to,
		    struct sched_entity *se)
{
	(void)s, (void)from, (void)to, (void)se;	/* the lag travels as it is */
}

/* __pick_eevdf(): the eligible entity with the earliest deadline (curr included). */
static struct sched_entity *pick_eevdf(struct sched *s, struct cfs_rq *q, bool protect)
{
	struct sched_entity *first = sched__first(q), *curr = q->curr, *best = NULL;
	struct rb_node *node = q->tree.root;

	if (!q->nr_queued)
		return NULL;
	if (q->nr_queued == 1)
		return curr && curr->on_rq ? curr : first;
	if (sched__feat(s, SCHED_FEAT_PICK_BUDDY) && protect && q->next &&
	    entity_eligible(q, q->next))
		return q->next;
	if (curr && (!curr->on_rq || !entity_eligible(q, curr)))
		curr = NULL;
	if (curr && protect && protect_slice(curr))
		return curr;
	if (first && entity_eligible(q, first)) {
		best = first;
	} else if (!q->tl_tree) {
		/* the array: the leftmost eligible entity by a scan (the tree's walk finds it too) */
		for (unsigned i = 1; i < q->tl_n; i++)
			if (entity_eligible(q, q->tl[i].se)) {
				best = q->tl[i].se;
				break;
			}
	} else {
		/* Go left while the left subtree holds an eligible entity (its min vruntime). */
		while (node) {
			struct rb_node *left = node->left;
			struct sched_entity *se;

			if (left && v_eligible(q, sched__se_of(left)->min_vruntime)) {
				node = left;
				continue;
			}
			se = sched__se_of(node);
			if (entity_eligible(q, se)) {
				best = se;
				break;
			}
			node = node->right;
		}
	}
	/* entity_before(curr, best): strictly earlier, so a tie goes to the queued entity */
	if (!best || (curr && curr->deadline < best->deadline))
		best = curr;
	return best ? best : first;
}

/* pick_next_entity(): pick_eevdf() with slice protection (its next-buddy rule is there too) */
static struct sched_entity *pick_next_entity(struct sched *s, struct cfs_rq *q)
{
	return pick_eevdf(s, q, true);
}

/*
 * set_protect_slice(): with RUN_TO_PARITY, protect curr up to its deadline, or for the
 * shortest request on the queue if that is shorter; without, for one normalized base slice.
 */
void set_protect_slice(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	uint64_t quantum = sched__feat(s, SCHED_FEAT_RUN_TO_PARITY) ? cfs_rq_min_slice(q)
								      : s->cfg.tun.base_slice_ns;

	if (quantum > se->slice)
		quantum = se->slice;
	se->vprot = se->deadline;
	if (quantum != se->slice) {
		sv_t v = se->vruntime + calc_delta_fair(quantum, se);

		if (v < se->vprot)
			se->vprot = v;
	}
}

/* update_deadline(): a used-up request gets a new one; true when that happened. */
bool update_deadline(struct sched *s, struct sched_entity *se)
{
	if (se->vruntime < se->deadline)
		return false;
	if (!se->custom_slice)
		se->slice = s->base_slice;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	return true;
}

/* update_curr()'s tail: reschedule when the request is used up or protection has ended. */
static bool charged(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	bool resched = update_deadline(s, curr);

	if (q->nr_queued <= 1)
		return false;
	if (resched || !protect_slice(curr)) {
		clear_buddies(curr);
		return true;
	}
	return false;
}

static bool tick(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	(void)s, (void)q, (void)curr;	/* update_curr() did it all */
	return false;
}

/*
 * A tick can reschedule once curr's request is used up or its protection is over. Alone on its
 * queue, curr only gets a new deadline at such a tick, which the scheduler replays when it
 * accounts elided ticks (lone_deadlines() in account.c): no tick needs processing for it.
 */
static uint64_t tick_horizon(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	(void)s;
	if (q->nr_queued <= 1)
		return UINT64_MAX;
	/* the sooner of the two, converted once: ns = ceil(v / inc) does not decrease with v */
	return sched__sv_to_ns_ceil((curr->vprot < curr->deadline ? curr->vprot : curr->deadline) -
				    curr->vruntime, curr);
}

static bool wakeup_preempt(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   struct sched_entity *pse)
{
	bool do_short = sched__feat(s, SCHED_FEAT_PREEMPT_SHORT) && pse->slice < se->slice;

	if (pick_eevdf(s, q, !do_short) == pse) {
		if (do_short && protect_slice(se))
			se->vprot = se->vruntime;
		return true;
	}
	/*
	 * update_protect_slice() (6.17): a shorter request that cannot preempt yet still limits
	 * curr's protection to the queue's shortest slice from now, so the next tick may pick it.
	 */
	if (do_short && sched__feat(s, SCHED_FEAT_RUN_TO_PARITY)) {
		sv_t v = se->vruntime + calc_delta_fair(cfs_rq_min_slice(q), se);

		if (v < se->vprot)
			se->vprot = v;
	}
	return false;
}

/*
 * yield_task_fair() as of 6.18: the yielder's own entity (not its group's above it) drops its
 * next-buddy mark and asks for a new request one slice later, deadline += vslice, keeping its
 * vruntime and so its lag and eligibility. Its slice protection (vprot, a vruntime since 6.17)
 * is untouched: an eligible yielder still inside it is picked again by the schedule() that
 * follows, while one that has run past V loses the CPU to the best eligible entity. 6.19
 * (79104becf42b, since backported to stable kernels) forfeits the rest of the request instead,
 * v = old deadline, when the yielder is eligible; not modelled (v6.18 as tagged).
 */
static void yield_task_fair(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	(void)s, (void)q;
	clear_buddies(se);
	se->deadline += calc_delta_fair(se->slice, se);
}

/*
 * reweight_eevdf(): keep V and scale the entity's lag and relative deadline by old/new weight,
 * so that its lag w (V - v) is unchanged; a sleeping entity's saved vlag likewise.
 */
static void reweight_eevdf(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   uint64_t weight, uint32_t wmult)
{
	uint64_t old = se->weight;
	bool in_tree = se->on_rq && q->curr != se;

	(void)s;
	if (se->on_rq) {
		sv_t V = avg_vruntime(q);

		if (in_tree)
			tree_del(q, se);
		se->vruntime = V - sched__scale_sv(V - se->vruntime, old, weight);
		se->deadline = V + sched__scale_sv(se->deadline - V, old, weight);
	} else {
		se->vlag = sched__scale_sv(se->vlag, old, weight);
		if (se->rel_deadline)
			se->deadline = sched__scale_sv(se->deadline, old, weight);
	}
	sched__set_weight(se, weight, wmult);
	if (in_tree)
		tree_add(q, se);
}

const struct sched_policy_ops sched_eevdf_ops = {
	.augmented = true,
	.deadlines = true,
	.cfs_buddies = false,
	.keep_empty_weight = true,
	.less = sched__less_deadline,
	.place = place_entity,
	.dequeued = dequeued,
	.migrate = migrate,
	.pick = pick_next_entity,
	.set_next = set_protect_slice,
	.charged = charged,
	.tick = tick,
	.tick_horizon = tick_horizon,
	.wakeup_preempt = wakeup_preempt,
	.yield = yield_task_fair,
	.reweight = reweight_eevdf,
	.v0_moved = sched__eevdf_v0_moved,
	.tree_add = tree_add,
	.tree_del = tree_del,
};
