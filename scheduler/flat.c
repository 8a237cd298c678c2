// SPDX-License-Identifier: MIT
/*
 * scheduler/flat.c - kernel/sched/fair.c as of Linux 7.3 ("sched/eevdf: Move to a single
 * runqueue", 85570f10a4c6): EEVDF on one tree of tasks per CPU. The hierarchy of task groups
 * stays for accounting (the group queues, their entities, load, PELT, shares, bandwidth, all in
 * the common code), but only tasks sit in a tree: the root queue's. Each task carries an
 * effective weight se->h_load, the product of its fractions of each level (its entity's weight
 * over its queue's load, the top group entity's weight over NICE_0_LOAD), and that weight is
 * what virtual time, the average V, placement and lag use. It is recomputed only at the task's
 * enqueue, its pick and its tick (and a nice change): the other queued tasks keep the value of
 * their last recomputation, as the kernel's do. docs/scheduler.md, "The flat pick (Linux 7.3)".
 *
 * The policy's ops (sched_flat_ops) are EEVDF's (eevdf.c) on the root queue with h_load for
 * the weight; the functions below the ops are the root's part of the kernel's enqueue, dequeue,
 * put, set and tick, which the common code calls when the policy is flat.
 */
#include "scheduler/sched_internal.h"
#include "scheduler/timeline.h"

/* The root queue a task's entity is on the books of. */
static inline struct cfs_rq *root_of(const struct sched_entity *se)
{
	return se->task->cpu->cfs;
}

/* The rate of a task of effective weight @h: 2^32 ns of virtual time a ns times NICE_0 / h. */
void sched__flat_set_h(struct sched_entity *se, uint64_t h)
{
	se->h_load = h;
	if (h == NICE_0_LOAD)
		se->inc = SV_ONE_NS;
	else
		se->inc = ((sv_t)NICE_0_LOAD << 32) / (sv_t)h;
}

/* ---------------- the root's order and sums, by h_load ---------------- */

/* __enqueue_entity(): the kernel's sum_w_vruntime_add() weighs by se->h_load.weight (7.3). */
static void tree_add(struct cfs_rq *q, struct sched_entity *se)
{
	q->sum_w_vruntime += (se->vruntime - q->min_vruntime) * (int64_t)se->h_load;
	q->sum_weight += (int64_t)se->h_load;
	se->qseq = ++q->qseq;
	sched__tl_add(q, se, sched__less_deadline, true);
}

static void tree_del(struct cfs_rq *q, struct sched_entity *se)
{
	sched__tl_del(q, se, sched__less_deadline, true);
	q->sum_w_vruntime -= (se->vruntime - q->min_vruntime) * (int64_t)se->h_load;
	q->sum_weight -= (int64_t)se->h_load;
}

/* Σ (v - v0) w and Σ w over the tree and an on_rq curr. */
static inline sv_t sums(const struct cfs_rq *q, int64_t *load)
{
	const struct sched_entity *curr = q->curr;
	sv_t avg = q->sum_w_vruntime;

	*load = q->sum_weight;
	if (curr && curr->on_rq) {
		avg += (curr->vruntime - q->min_vruntime) * (int64_t)curr->h_load;
		*load += (int64_t)curr->h_load;
	}
	return avg;
}

/* avg_vruntime() of the root: rounded towards -inf, so that V itself is eligible. */
static sv_t avg_vruntime_flat(const struct cfs_rq *q)
{
	int64_t load;
	sv_t avg = sums(q, &load);

	if (load) {
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return q->min_vruntime + avg;
}

/* vruntime_eligible(): Σ (v_j - v0) w_j >= (v - v0) Σ w_j. */
static bool v_eligible(const struct cfs_rq *q, sv_t v)
{
	int64_t load;
	sv_t avg = sums(q, &load);

	return avg >= (v - q->min_vruntime) * load;
}

bool sched__flat_eligible(const struct sched_thread *t)
{
	return v_eligible(root_of(&t->se), t->se.vruntime);
}

/*
 * place_entity() on the root: the count is the root's tasks (h_nr_queued), the weights
 * h_load. The entity is neither in the tree nor curr here, so the count leaves it out, as
 * ENQUEUE_QUEUED does in the kernel.
 */
static void place_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool initial,
			 bool wakeup)
{
	sv_t V = avg_vruntime_flat(q), lag = 0, vslice;

	(void)wakeup;
	if (!se->custom_slice)
		se->slice = s->base_slice;
	vslice = calc_delta_fair(se->slice, se);
	if (sched__feat(s, SCHED_FEAT_PLACE_LAG) && sched__flat_nr(q) && se->vlag) {
		int64_t load;

		(void)sums(q, &load);
		lag = se->vlag * (load + (int64_t)se->h_load);
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

/* ---------------- the policy's ops on the root ---------------- */

/* the common code asks no per-level lag: sched__flat_dequeue() takes it on the root */
static void dequeued(struct sched *s, struct cfs_rq *q, struct sched_entity *se, bool sleep)
{
	(void)s, (void)q, (void)se, (void)sleep;
}

static void migrate(struct sched *s, struct cfs_rq *from, struct cfs_rq *to,
		    struct sched_entity *se)
{
	(void)s, (void)from, (void)to, (void)se;	/* the lag travels as it is */
}

/* __pick_eevdf() on the root: one tree, whatever the depth of the tasks in it. */
static struct sched_entity *pick_eevdf(struct sched *s, struct cfs_rq *q, bool protect)
{
	struct sched_entity *first = sched__first(q), *curr = q->curr, *best = NULL;
	struct rb_node *node = q->tree.root;
	unsigned nr = sched__flat_nr(q);

	if (!nr)
		return NULL;
	if (nr == 1)
		return curr && curr->on_rq ? curr : first;
	if (sched__feat(s, SCHED_FEAT_PICK_BUDDY) && protect && q->next &&
	    v_eligible(q, q->next->vruntime))
		return q->next;
	if (curr && (!curr->on_rq || !v_eligible(q, curr->vruntime)))
		curr = NULL;
	if (curr && protect && protect_slice(curr))
		return curr;
	if (first && v_eligible(q, first->vruntime)) {
		best = first;
	} else if (!q->tl_tree) {
		for (unsigned i = 1; i < q->tl_n; i++)
			if (v_eligible(q, q->tl[i].se->vruntime)) {
				best = q->tl[i].se;
				break;
			}
	} else {
		while (node) {
			struct rb_node *left = node->left;
			struct sched_entity *se;

			if (left && v_eligible(q, sched__se_of(left)->min_vruntime)) {
				node = left;
				continue;
			}
			se = sched__se_of(node);
			if (v_eligible(q, se->vruntime)) {
				best = se;
				break;
			}
			node = node->right;
		}
	}
	if (!best || (curr && curr->deadline < best->deadline))
		best = curr;
	return best ? best : first;
}

/* pick_next_entity(rq): the pick of the root, with slice protection */
static struct sched_entity *pick_next_entity(struct sched *s, struct cfs_rq *q)
{
	return pick_eevdf(s, q, true);
}

/* the per-level set_next: nothing of a tree at a group's level */
static void set_next(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	(void)s, (void)q, (void)se;
}

/* update_curr()'s tail for the running task on the root: the root's count decides */
static bool charged(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	bool resched = update_deadline(s, curr);

	if (sched__flat_nr(q) <= 1)
		return false;
	if (resched || !protect_slice(curr)) {
		if (q->next == curr)	/* clear_buddies(): 7.3 keeps only the next buddy */
			q->next = NULL;
		return true;
	}
	return false;
}

static bool tick(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	(void)s, (void)q, (void)curr;
	return false;
}

/* Only the task's level has a horizon, on the root queue's count. */
static uint64_t tick_horizon(struct sched *s, struct cfs_rq *q, struct sched_entity *curr)
{
	(void)s, (void)q;
	if (!curr->task || sched__flat_nr(root_of(curr)) <= 1 || root_of(curr)->curr != curr)
		return UINT64_MAX;
	return sched__sv_to_ns_ceil((curr->vprot < curr->deadline ? curr->vprot : curr->deadline) -
				    curr->vruntime, curr);
}

/* the running task @se against the woken @pse on the root: no walk to a common level */
static bool wakeup_preempt(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   struct sched_entity *pse)
{
	bool do_short = sched__feat(s, SCHED_FEAT_PREEMPT_SHORT) && pse->slice < se->slice;

	if (pick_eevdf(s, q, !do_short) == pse) {
		if (do_short && protect_slice(se))
			se->vprot = se->vruntime;
		return true;
	}
	if (do_short && sched__feat(s, SCHED_FEAT_RUN_TO_PARITY)) {
		sv_t v = se->vruntime + calc_delta_fair(cfs_rq_min_slice(q), se);

		if (v < se->vprot)
			se->vprot = v;
	}
	return false;
}

/* yield_task_fair() as eevdf.c's (6.18), on the root */
static void yield_task_fair(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	struct cfs_rq *root = se->task ? root_of(se) : q;

	(void)s;
	if (root->next == se)
		root->next = NULL;
	se->deadline += calc_delta_fair(se->slice, se);
}

/*
 * reweight_entity()'s part for the policy: the load weight only. A task's rate stays its
 * h_load's (7.3's reweight_entity() touches no vruntime, lag or deadline); a group entity's
 * rate is never used.
 */
static void reweight_load(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			  uint64_t weight, uint32_t wmult)
{
	(void)s, (void)q;
	if (se->task) {
		uint64_t wd = weight >> SCHED_LOAD_SHIFT;

		se->weight = weight;
		se->wd = (uint32_t)(wd < MIN_SHARES ? MIN_SHARES : wd);
	} else {
		sched__set_weight(se, weight, wmult);
	}
}

const struct sched_policy_ops sched_flat_ops = {
	.augmented = true,
	.deadlines = true,
	.cfs_buddies = false,
	.keep_empty_weight = true,
	.flat = true,
	.less = sched__less_deadline,
	.place = place_entity,
	.dequeued = dequeued,
	.migrate = migrate,
	.pick = pick_next_entity,
	.set_next = set_next,
	.charged = charged,
	.tick = tick,
	.tick_horizon = tick_horizon,
	.wakeup_preempt = wakeup_preempt,
	.yield = yield_task_fair,
	.reweight = reweight_load,
	.v0_moved = sched__eevdf_v0_moved,
	.tree_add = tree_add,
	.tree_del = tree_del,
};

/* ---------------- the effective weight ---------------- */

/*
 * __calc_prop_weight(): @weight times @se's fraction of its queue, se->load / cfs_rq->load,
 * or at the top level (no parent) se->load / NICE_0_LOAD; at least MIN_SHARES.
 */
static uint64_t calc_prop_weight(const struct sched_entity *se, uint64_t weight)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t den = se->parent ? se->cfs_rq->load : NICE_0_LOAD;

	if (!den)
		den = 1;	/* not queued on an empty queue: the kernel divides by its load */
	weight = (uint64_t)((u128)weight * se->weight / den);
	return weight < MIN_SHARES ? MIN_SHARES : weight;
}

uint64_t sched__h_load(const struct sched_entity *se)
{
	uint64_t w = NICE_0_LOAD;

	for (; se; se = se->parent)
		w = calc_prop_weight(se, w);
	return w;
}

/*
 * reweight_eevdf() (7.3): @se takes effective weight @weight. On the root's books its lag
 * against V (clamped, entity_lag()), its deadline and, for a protected curr, its protection
 * are made relative to V, scaled by old / new weight (rescale_entity()), and put back around
 * the same V, the entity re-keyed in the tree; off them, its saved lag and a relative deadline
 * are scaled.
 */
static void reweight_eevdf(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   uint64_t weight)
{
	uint64_t old = se->h_load;
	bool curr = q->curr == se, on = se->on_rq && sched__flat_in(q, se), rel = false;
	sv_t V = 0;

	if (old == weight)
		return;
	if (on) {
		V = avg_vruntime_flat(q);
		se->vlag = entity_lag(s, V, se);
		se->deadline -= V;
		se->rel_deadline = true;
		if (curr && protect_slice(se)) {
			se->vprot -= V;
			rel = true;
		}
		if (!curr)
			tree_del(q, se);
	}
	se->vlag = sched__scale_sv(se->vlag, old, weight);
	if (se->rel_deadline)
		se->deadline = sched__scale_sv(se->deadline, old, weight);
	if (rel)
		se->vprot = sched__scale_sv(se->vprot, old, weight);
	sched__flat_set_h(se, weight);
	if (on) {
		if (rel)
			se->vprot += V;
		se->deadline += V;
		se->rel_deadline = false;
		se->vruntime = V - se->vlag;
		if (!curr)
			tree_add(q, se);
	}
}

/* ---------------- the root's part of the hierarchy's events ---------------- */

/*
 * enqueue_task_fair() after enqueue_hierarchy(): the task's h_load from the loads its enqueue
 * left, its saved lag rescaled to it, placed on the root and into its tree.
 */
void sched__flat_enqueue(struct sched *s, struct sched_thread *t, bool initial)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = root_of(se);

	reweight_eevdf(s, q, se, sched__h_load(se));
	place_entity(s, q, se, initial, true);
	tree_add(q, se);
}

/*
 * __dequeue_task()'s root part: the next buddy goes, the lag is taken on the root while the
 * task is still counted (update_entity_lag() before it leaves), and the task leaves the tree;
 * a migration keeps its deadline relative (PLACE_REL_DEADLINE).
 */
void sched__flat_dequeue(struct sched *s, struct sched_thread *t, bool sleep)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = root_of(se);

	if (q->next == se)
		q->next = NULL;
	if (!sched__flat_in(q, se))
		return;		/* off the books already (a throttled hierarchy) */
	se->vlag = entity_lag(s, avg_vruntime_flat(q), se);
	if (q->curr != se)
		tree_del(q, se);
	if (!sleep && sched__feat(s, SCHED_FEAT_PLACE_REL_DEADLINE)) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
}

/*
 * requeue_delayed_entity() on the root: with DELAY_ZERO a delayed task whose lag is positive
 * comes back at lag 0. Its h_load is not recomputed (the kernel returns before
 * enqueue_hierarchy() for ENQUEUE_DELAYED).
 */
void sched__flat_requeue(struct sched *s, struct sched_thread *t)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = root_of(se);

	if (sched__flat_in(q, se) && sched__feat(s, SCHED_FEAT_DELAY_ZERO) &&
	    se->vruntime < avg_vruntime_flat(q)) {
		bool in_tree = q->curr != se;

		if (in_tree)
			tree_del(q, se);
		se->vlag = 0;
		place_entity(s, q, se, false, true);
		if (in_tree)
			tree_add(q, se);
	}
	se->sched_delayed = false;
}

/* put_prev_task_fair()'s tail: the root's curr goes back into the tree if still queued. */
void sched__flat_put_prev(struct sched *s, struct sched_thread *t)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = root_of(se);

	(void)s;
	if (q->curr != se)
		return;		/* throttled while it ran: off the books */
	q->curr = NULL;
	if (se->on_rq)
		tree_add(q, se);
}

/*
 * set_next_task_fair(): the task leaves the tree and becomes the root's curr, its h_load is
 * recomputed from the levels it runs in, and its slice protected.
 */
void sched__flat_set_next(struct sched *s, struct sched_thread *t)
{
	struct sched_entity *se = &t->se;
	struct cfs_rq *q = root_of(se);

	if (q->next == se)
		q->next = NULL;
	if (!rb_node_is_clear(&se->node))
		tree_del(q, se);
	q->curr = se;
	if (se->on_rq) {
		reweight_eevdf(s, q, se, sched__h_load(se));
		set_protect_slice(s, q, se);
	}
}

/* task_tick_fair()'s, reweight_task_fair()'s: h_load from the levels as they are now. */
void sched__flat_reweight(struct sched *s, struct sched_thread *t)
{
	if (t->se.on_rq)
		reweight_eevdf(s, root_of(&t->se), &t->se, sched__h_load(&t->se));
}

/* Is @t's chain below or at queue @q? */
static bool below(const struct sched_thread *t, const struct cfs_rq *q)
{
	for (const struct sched_entity *se = &t->se; se; se = se->parent)
		if (se->cfs_rq == q)
			return true;
	return false;
}

/*
 * throttle_cfs_rq(): every task queued below @q leaves the root's books with its lag, the
 * running one too (it stays the CPU's curr until the switch the throttling asks for). The
 * kernel dequeues them one by one as they return to user space (task-based throttling, 6.18);
 * cgsim takes the subtree off the CPU at once, as it does under the hierarchical policies.
 */
void sched__flat_throttle(struct sched *s, struct cfs_rq *q)
{
	struct cfs_rq *root = q->rq->cfs;

	for (struct sched_thread *t = q->rq->lhead; t; t = t->lnext) {
		struct sched_entity *se = &t->se;

		if (!se->on_rq || !sched__flat_in(root, se) || !below(t, q))
			continue;
		se->vlag = entity_lag(s, avg_vruntime_flat(root), se);
		if (root->curr == se)
			root->curr = NULL;
		else
			tree_del(root, se);
		if (root->next == se)
			root->next = NULL;
	}
}

/* unthrottle_cfs_rq(): the tasks below @q that no other throttled queue holds come back. */
void sched__flat_unthrottle(struct sched *s, struct cfs_rq *q)
{
	struct cfs_rq *root = q->rq->cfs;

	for (struct sched_thread *t = q->rq->lhead; t; t = t->lnext) {
		struct sched_entity *se = &t->se;

		if (!se->on_rq || sched__flat_in(root, se) || !below(t, q) ||
		    throttled_hierarchy(se->cfs_rq))
			continue;
		reweight_eevdf(s, root, se, sched__h_load(se));
		place_entity(s, root, se, false, true);
		tree_add(root, se);
	}
}
