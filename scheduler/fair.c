// SPDX-License-Identifier: MIT
/*
 * scheduler/fair.c - kernel/sched/fair.c: the fair class. What CFS and EEVDF share (weights
 * and their inverses, calc_delta_fair() in exact fixed point, min_vruntime, the EEVDF average,
 * CFS slices, buddies), and the hierarchy walks: enqueue_task_fair(), dequeue_task_fair()
 * (with DELAY_DEQUEUE), pick_task_fair() and the switch of only the levels that differ, wakeup
 * preemption (find_matching_se(), then the policy), and yield_task_fair(). What differs
 * between EEVDF and CFS is behind the policy's ops (eevdf.c, cfs.c).
 */
#include <errno.h>

#include "scheduler/sched_internal.h"

/*
 * sched__set_weight() - set load.weight (scaled) and the derived fixed-point rate.
 * @wmult: the cached inverse to use (a task's sched_prio_to_wmult entry), or 0 to compute it
 *         as __update_inv_weight() does: WMULT_CONST / scale_load_down(weight).
 *
 * calc_delta_fair() is the identity for weight NICE_0_LOAD (the kernel short-cuts it), and
 * delta * 1024 * inv_weight / 2^32 otherwise; @inc keeps that product unshifted.
 */
void sched__set_weight(struct sched_entity *se, uint64_t weight, uint32_t wmult)
{
	uint64_t wd = weight >> SCHED_LOAD_SHIFT;

	if (wd < MIN_SHARES)
		wd = MIN_SHARES;
	se->weight = weight;
	se->wd = (uint32_t)wd;
	if (weight == NICE_0_LOAD) {
		se->inc = SV_ONE_NS;
		return;
	}
	if (!wmult)
		wmult = (uint32_t)(0xffffffffu / wd);
	se->inc = (sv_t)SCHED_NICE_0_WEIGHT * wmult;
}

sv_t calc_delta_fair(uint64_t delta_ns, const struct sched_entity *se)
{
	__extension__ typedef unsigned __int128 u128;

	/*
	 * inc is at most 1024 x 2^31 (wmult of the least weight), so it fits in 64 bits and the
	 * product, below 2^106, in sv_t: one 64 x 64 multiply instead of a 128 x 128 one.
	 */
	return (sv_t)((u128)delta_ns * (uint64_t)se->inc);
}

/* sched__sv_to_ns_ceil() - the least progress (ns) that moves @se's vruntime by at least @v. */
uint64_t sched__sv_to_ns_ceil(sv_t v, const struct sched_entity *se)
{
	sv_t ns;

	if (v <= 0)
		return 0;
	if (se->inc == SV_ONE_NS)
		return v >> 32 > UINT64_MAX - 1 ? UINT64_MAX : (uint64_t)((v + SV_ONE_NS - 1) >> 32);
	if (v < ((sv_t)1 << 63) && se->inc < ((sv_t)1 << 62)) {
		/* both fit in 64 bits: a 64-bit division is several times cheaper */
		uint64_t a = (uint64_t)v, b = (uint64_t)se->inc;

		return a / b + (a % b != 0);
	}
	ns = (v + se->inc - 1) / se->inc;
	return ns > (sv_t)UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/* ---------------- EEVDF's average ---------------- */

/*
 * V = v0 + Σ (v_i - v0) w_i / Σ w_i over the queued entities and curr, w the scale_load_down
 * weights; the division rounds towards -inf so that V itself is eligible (avg_vruntime()).
 */
sv_t avg_vruntime(const struct cfs_rq *cfs_rq)
{
	const struct sched_entity *curr = cfs_rq->curr;
	sv_t avg = cfs_rq->sum_w_vruntime;
	int64_t load = cfs_rq->sum_weight;

	if (curr && curr->on_rq) {
		avg += (curr->vruntime - cfs_rq->min_vruntime) * curr->wd;
		load += curr->wd;
	}
	if (load) {
		if (avg < 0)
			avg -= load - 1;
		if (avg >= INT64_MIN && avg <= INT64_MAX)
			avg = (int64_t)avg / load;	/* the common case, in 64 bits */
		else
			avg /= load;
	}
	return cfs_rq->min_vruntime + avg;
}

/* entity_eligible(): lag >= 0, i.e. Σ (v_j - v0) w_j >= (v_i - v0) Σ w_j, without dividing. */
bool entity_eligible(const struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	const struct sched_entity *curr = cfs_rq->curr;
	sv_t avg = cfs_rq->sum_w_vruntime;
	int64_t load = cfs_rq->sum_weight;

	if (curr && curr->on_rq) {
		avg += (curr->vruntime - cfs_rq->min_vruntime) * curr->wd;
		load += curr->wd;
	}
	return avg >= (se->vruntime - cfs_rq->min_vruntime) * load;
}

/*
 * update_min_vruntime(): v0 follows the smallest vruntime among curr and the queued entities,
 * never backwards. The tree's minimum vruntime is the root's augmented minimum under EEVDF
 * (ordered by deadline) and the leftmost node under CFS (ordered by vruntime).
 */
void update_min_vruntime(struct sched *s, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	sv_t v = cfs_rq->min_vruntime;
	bool have = false;

	if (curr && curr->on_rq) {
		v = curr->vruntime;
		have = true;
	}
	if (cfs_rq->tl_n) {
		sv_t m;

		if (s->ops->augmented)
			m = sched__tl_min_vruntime(cfs_rq);
		else
			m = sched__first(cfs_rq)->vruntime;
		if (!have || m < v)
			v = m;
		have = true;
	}
	if (have && v > cfs_rq->min_vruntime) {
		s->ops->v0_moved(cfs_rq, v - cfs_rq->min_vruntime);
		cfs_rq->min_vruntime = v;
	}
}

/*
 * x * num / den, truncated toward zero as C divides, for 0 < num, den < 2^31. With x in 64 bits
 * (a lag or a relative deadline: |x| < 2^31 ns of virtual time) it splits as x = q den + r,
 * |r| < den, so x num / den = q num + r num / den, where q num and r num share x's sign and
 * truncation passes over the integer part: two 64-bit divisions instead of the compiler's
 * 128-bit one, the same quotient. Otherwise, or should q num overflow, the 128-bit division.
 */
sv_t sched__scale_sv(sv_t x, uint64_t num, uint64_t den)
{
	if (x >= INT64_MIN && x <= INT64_MAX && num < (1ull << 31) && den < (1ull << 31)) {
		int64_t x64 = (int64_t)x, q = x64 / (int64_t)den, r = x64 % (int64_t)den, qn;

		if (!__builtin_mul_overflow(q, (int64_t)num, &qn))
			return (sv_t)qn + r * (int64_t)num / (int64_t)den;
	}
	return x * (sv_t)num / (sv_t)den;
}

/* ---------------- CFS slices ---------------- */

static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	if (!c)
		return a;
	if ((a | b) <= UINT32_MAX)	/* the product fits: one 64-bit division */
		return a * b / c;
	return (uint64_t)(((unsigned __int128)a * b) / c);
}

/*
 * sched_slice(): period(nr) scaled by weight / queue load at every level from @se up; the
 * period counts the CPU's tasks with ALT_PERIOD, else the queue's entities; BASE_SLICE floors
 * the result at min_granularity.
 */
uint64_t sched_slice(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned nr = sched__feat(s, SCHED_FEAT_ALT_PERIOD) ? cfs_rq->rq->cfs->h_nr_runnable
							   : cfs_rq->nr_queued;
	struct sched_entity *init = se;
	uint64_t slice;

	if (!se->on_rq)
		nr++;
	slice = nr > s->nr_latency ? nr * s->min_gran : s->latency;
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;
		uint64_t load = q->load;

		if (!se->on_rq)
			load += se->weight;
		slice = mul_div(slice, se->weight, load);
	}
	if (sched__feat(s, SCHED_FEAT_BASE_SLICE) && init->task && slice < s->min_gran)
		slice = s->min_gran;
	return slice;
}

/* ---------------- buddies ---------------- */

/*
 * clear_buddies(): @se and the entities above it stop being anyone's buddy, level by level
 * while they are. The skip buddy (CFS's yield) has a walk of its own, as in 6.5's
 * __clear_buddies_skip(): it stops at the first level whose skip is not the entity there,
 * whatever the next and last buddies are.
 */
void clear_buddies(struct sched_entity *se)
{
	for (struct sched_entity *e = se; e && e->cfs_rq->skip == e; e = e->parent)
		e->cfs_rq->skip = NULL;
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;
		bool any = false;

		if (q->next == se) {
			q->next = NULL;
			any = true;
		}
		if (q->last == se) {
			q->last = NULL;
			any = true;
		}
		if (!any)
			break;
	}
}

void set_next_buddy(struct sched_entity *se)
{
	for (; se; se = se->parent)
		se->cfs_rq->next = se;
}

/* ---------------- the hierarchy walks ---------------- */

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

/* set_next_task_fair()'s list_move(): @t to the head of @rq's list, the most recently picked */
void sched__tasks_move_head(struct sched_cpu *rq, struct sched_thread *t)
{
	list_del(rq, t);
	list_add_head(rq, t);
}

/*
 * Count a task in (or out of) the runnable totals of its queue and the queues above, up to and
 * including a throttled one: the tasks below a throttled queue are not on the CPU. Returns
 * whether the count reached the root (and so the CPU's nr_running must follow).
 */
bool sched__account_runnable(struct sched_entity *se, int d, bool idle)
{
	for (; se; se = se->parent) {
		se->cfs_rq->h_nr_runnable += (unsigned)d;
		if (idle || se->idle)
			se->cfs_rq->h_nr_idle += (unsigned)d;
		if (se->idle)
			idle = true;
		if (se->cfs_rq->throttled)
			return false;
	}
	return true;
}

/*
 * enqueue_entity(): under the flat pick (7.3) only the accounting, placement and the tree
 * being the root's (sched__flat_enqueue()).
 */
static void enqueue_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   bool initial, bool wakeup, uint64_t now)
{
	pelt_update(&q->avg, now);
	if (s->ops->flat) {
		if (se->my_q)
			update_cfs_group(s, se, now);
		q->load += se->weight;
		q->nr_queued++;
		se->on_rq = true;
		sched__entity_avg_set(se, now);
		sched__load_changed(q, now);
		list_add_leaf_cfs_rq(q);
		update_tg_load_avg(s, q, now);
		return;
	}
	if (se->my_q) {
		/* 6.12: a group entity asks for its queue's shortest request. */
		uint64_t m = UINT64_MAX;
		const struct cfs_rq *g = se->my_q;

		if (g->curr && g->curr->on_rq)
			m = g->curr->slice;
		if (g->tl_n && s->ops->augmented && sched__tl_min_slice(g) < m)
			m = sched__tl_min_slice(g);
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
	sched__entity_avg_set(se, now);
	sched__load_changed(q, now);
	list_add_leaf_cfs_rq(q);
	update_tg_load_avg(s, q, now);
}

static void dequeue_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   bool sleep, uint64_t now)
{
	pelt_update(&q->avg, now);
	if (!s->ops->flat) {	/* the flat pick's lag and tree are the root's */
		s->ops->dequeued(s, q, se, sleep);
		if (q->curr != se)
			s->ops->tree_del(q, se);
	}
	se->on_rq = false;
	sched__entity_avg_set(se, now);
	q->load -= se->weight;
	q->nr_queued--;
	if (q->next == se)
		q->next = NULL;
	if (q->last == se)
		q->last = NULL;
	if (q->skip == se)
		q->skip = NULL;
	sched__load_changed(q, now);
	update_cfs_group(s, se, now);
	update_min_vruntime(s, q);
	update_tg_load_avg(s, q, now);
}

/*
 * requeue_delayed_entity(): a delayed entity (a task, or a group whose queue gets an entity
 * again) becomes a normal one where it is. With DELAY_ZERO a positive lag is dropped: it is
 * placed again at lag 0. The caller decides how fresh curr is (ttwu_runnable() and
 * enqueue_task_fair() run no update_curr() on this queue first).
 */
static void requeue_delayed_entity(struct sched *s, struct sched_entity *se)
{
	struct cfs_rq *q = se->cfs_rq;

	if (sched__feat(s, SCHED_FEAT_DELAY_ZERO) && se->vruntime < avg_vruntime(q)) {
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
}

/*
 * enqueue_task_fair(): returns the entities enqueued and the levels walked: both of its loops
 * together visit every level up to the root (or a throttled queue), enqueuing until an entity
 * is already queued and updating load averages and group weights from there up.
 */
struct sched_walk enqueue_task_fair(struct sched *s, struct sched_thread *t, bool initial,
				    bool wakeup, uint64_t now)
{
	struct sched_entity *se = &t->se;
	struct sched_walk w = { 0, 0 };
	bool task_level = true, off = false, init = initial;

	attach_entity_load_avg(s, t, now);	/* a new task, or one that changed queue */
	for (; se && !se->on_rq; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		enqueue_entity(s, q, se, initial && task_level, wakeup, now);
		task_level = false;
		wakeup = true;	/* a group entity re-enters as a waking entity (ENQUEUE_WAKEUP) */
		w.ops++;
		w.walks++;
		check_enqueue_throttle(s, q, now);
		if (q->throttled) {	/* the queue stays off the CPU: stop here */
			se = NULL;
			off = true;
			break;
		}
	}
	if (se && se->sched_delayed)	/* a group entity still queued after its queue emptied */
		requeue_delayed_entity(s, se);
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		w.walks++;
		pelt_update(&q->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, q, now);
		if (q->throttled) {
			off = true;
			break;
		}
	}
	/* the flat pick: the h_load of the loads just left, computed on the same walk */
	if (s->ops->flat && !off)
		sched__flat_enqueue(s, t, init);
	if (sched__account_runnable(&t->se, 1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running++;
	sched__runnable_changed(s, &t->se, now);
	list_add_head(t->cpu, t);
	return w;
}

/*
 * DELAY_DEQUEUE for a group entity whose queue has just emptied: dequeue_entities() dequeues
 * every level above the task with DEQUEUE_SLEEP, so an ineligible group entity stays queued,
 * delayed, like a task, until it is picked or its queue gets an entity again.
 */
static bool delay_group(struct sched *s, struct sched_entity *se)
{
	/* the flat pick delays tasks only: a group entity is in no tree to stay in */
	if (!s->ops->deadlines || s->ops->flat || !sched__feat(s, SCHED_FEAT_DELAY_DEQUEUE))
		return false;
	if (entity_eligible(se->cfs_rq, se))
		return false;
	se->sched_delayed = true;
	if (se->cfs_rq->next == se)	/* dequeue_entity() clears the buddies first */
		se->cfs_rq->next = NULL;
	if (se->cfs_rq->last == se)
		se->cfs_rq->last = NULL;
	return true;
}

/*
 * dequeue_entities() from @se up: @se leaves its queue (@delayed: it was a delayed entity, whose
 * lag DELAY_ZERO clips), then each group entity whose queue it emptied, unless it is delayed.
 * Returns the levels dequeued and walked: like the enqueue, the second loop walks on to the
 * root (or a throttled queue) after the dequeues stop.
 */
static struct sched_walk dequeue_from(struct sched *s, struct sched_entity *se, bool sleep,
				      bool delayed, uint64_t now)
{
	struct sched_walk w = { 0, 0 };

	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		if (w.ops && delay_group(s, se))
			break;	/* the walk below updates it and the levels above */
		dequeue_entity(s, q, se, sleep, now);
		if (delayed && sched__feat(s, SCHED_FEAT_DELAY_ZERO) && se->vlag > 0)
			se->vlag = 0;
		delayed = false;
		w.ops++;
		w.walks++;
		sleep = true;	/* upper levels go to sleep with their emptied queue */
		if (!q->nr_queued)
			return_cfs_rq_runtime(s, q);
		if (q->throttled) {	/* its entity is off the CPU already */
			se = NULL;
			break;
		}
		if (q->nr_queued) {
			se = se->parent;
			break;
		}
	}
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		w.walks++;
		pelt_update(&q->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, q, now);
		if (q->throttled)
			break;
	}
	return w;
}

/*
 * dequeue_task_fair(): take the task off its queue and each group entity whose queue becomes
 * empty. @runnable_counted: the task still counts as runnable (false when finishing a delayed
 * dequeue, whose counts were dropped when it was delayed). Returns the levels dequeued and
 * walked.
 */
struct sched_walk dequeue_task_fair(struct sched *s, struct sched_thread *t, bool sleep,
				    bool runnable_counted, uint64_t now)
{
	if (runnable_counted &&
	    sched__account_runnable(&t->se, -1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running--;
	sched__runnable_changed(s, &t->se, now);
	list_del(t->cpu, t);
	if (s->ops->flat)	/* the lag on the root while the task is still counted */
		sched__flat_dequeue(s, t, sleep);
	return dequeue_from(s, &t->se, sleep, !runnable_counted, now);
}

/* A delayed group entity was picked: it leaves now (pick_next_entity(), DEQUEUE_DELAYED). */
static struct sched_walk finish_delayed_group(struct sched *s, struct sched_entity *se,
					      uint64_t now)
{
	se->sched_delayed = false;
	return dequeue_from(s, se, true, true, now);
}

/* DELAY_DEQUEUE: a sleeping task that is not eligible stays queued, no longer runnable. */
bool sched__try_delay_dequeue(struct sched *s, struct sched_thread *t)
{
	if (!s->ops->deadlines || !sched__feat(s, SCHED_FEAT_DELAY_DEQUEUE))
		return false;
	if (s->ops->flat ? sched__flat_eligible(t) : entity_eligible(t->se.cfs_rq, &t->se))
		return false;
	t->se.sched_delayed = true;
	if (sched__account_runnable(&t->se, -1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running--;
	return true;
}

/* finish_delayed_dequeue_entity(): the delayed task leaves for good (DELAY_ZERO clips lag). */
struct sched_walk sched__finish_delayed(struct sched *s, struct sched_thread *t, uint64_t now)
{
	t->se.sched_delayed = false;
	return dequeue_task_fair(s, t, true, false, now);
}

/* requeue_delayed_entity(): a delayed task wakes where it is. */
void sched__requeue_delayed(struct sched *s, struct sched_thread *t, uint64_t now)
{
	if (s->ops->flat)
		sched__flat_requeue(s, t);
	else
		requeue_delayed_entity(s, &t->se);
	if (sched__account_runnable(&t->se, 1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running++;
	sched__runnable_changed(s, &t->se, now);
}

/*
 * Throttling (bandwidth.c): take a group queue's entity off its parent, with each ancestor it
 * leaves empty, and its runnable tasks out of the counts above it (throttle_cfs_rq).
 */
void sched__dequeue_group(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	struct sched_entity *se = q->se, *up;
	unsigned n = q->h_nr_runnable, ni = q->h_nr_idle;
	bool top = true;

	if (s->ops->flat)	/* its tasks leave the root's tree */
		sched__flat_throttle(s, q);
	for (up = se; up; up = up->parent) {
		struct cfs_rq *pq = up->cfs_rq;

		pq->h_nr_runnable -= n;
		pq->h_nr_idle -= ni;
		if (pq->throttled) {
			top = false;
			break;
		}
	}
	if (top)
		q->rq->nr_running -= n;
	sched__runnable_changed(s, se, now);
	for (; se && se->on_rq; se = se->parent) {
		struct cfs_rq *pq = se->cfs_rq;

		dequeue_entity(s, pq, se, true, now);
		if (!pq->nr_queued)
			return_cfs_rq_runtime(s, pq);
		if (pq->nr_queued || pq->throttled) {
			se = pq->throttled ? NULL : se->parent;
			break;
		}
	}
	for (; se; se = se->parent) {
		struct cfs_rq *pq = se->cfs_rq;

		pelt_update(&pq->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, pq, now);
		if (pq->throttled)
			break;
	}
}

/* unthrottle_cfs_rq(): the reverse. */
void sched__enqueue_group(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	struct sched_entity *se = q->se, *up;
	unsigned n = q->h_nr_runnable, ni = q->h_nr_idle;
	bool top = true;

	for (; q->nr_queued && se && !se->on_rq; se = se->parent) {
		struct cfs_rq *pq = se->cfs_rq;

		enqueue_entity(s, pq, se, false, true, now);
		check_enqueue_throttle(s, pq, now);
		if (pq->throttled) {
			se = NULL;
			break;
		}
	}
	for (; se; se = se->parent) {
		struct cfs_rq *pq = se->cfs_rq;

		pelt_update(&pq->avg, now);
		update_cfs_group(s, se, now);
		update_tg_load_avg(s, pq, now);
		if (pq->throttled)
			break;
	}
	for (up = q->se; up; up = up->parent) {
		struct cfs_rq *pq = up->cfs_rq;

		pq->h_nr_runnable += n;
		pq->h_nr_idle += ni;
		if (pq->throttled) {
			top = false;
			break;
		}
	}
	if (top)
		q->rq->nr_running += n;
	sched__runnable_changed(s, q->se, now);
	if (s->ops->flat && top)	/* its tasks that nothing else throttles come back */
		sched__flat_unthrottle(s, q);
}

/* Which CPUs run something inside each group: a group entity is on its CPU's curr chain. */
static void chain_bit(struct sched_entity *se, bool on)
{
	if (se->my_q) {
		int c = se->my_q->rq->id;
		uint64_t *w = &se->my_q->tg->on_chain[c / 64], b = 1ull << (c % 64);

		*w = on ? *w | b : *w & ~b;
	}
}

/*
 * put_prev_entity() and set_next_entity(): the level's h_curr, and under the hierarchical
 * policies its timeline's curr too. Under the flat pick no level's tree changes here: the
 * root's is sched__flat_put_prev()'s and sched__flat_set_next()'s.
 */
static void put_prev_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (s->ops->flat) {
		if (q->h_curr == se) {
			q->h_curr = NULL;
			chain_bit(se, false);
		}
		return;
	}
	if (se->on_rq)
		s->ops->tree_add(q, se);
	if (q->curr == se) {
		q->curr = NULL;
		q->h_curr = NULL;
		chain_bit(se, false);
	}
}

static void set_next_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (s->ops->flat) {
		q->h_curr = se;
		chain_bit(se, true);
		return;
	}
	if (se->on_rq)
		s->ops->tree_del(q, se);
	q->curr = se;
	q->h_curr = se;
	chain_bit(se, true);
	s->ops->set_next(s, q, se);
}

/* Put every level of the running task (its chain leaves the CPU's curr pointers). */
unsigned put_prev_task_fair(struct sched *s, struct sched_thread *t)
{
	unsigned n = 0;

	for (struct sched_entity *se = &t->se; se; se = se->parent) {
		if (se->cfs_rq->h_curr != se)
			break;
		put_prev_entity(s, se->cfs_rq, se);
		n++;
	}
	if (s->ops->flat)
		sched__flat_put_prev(s, t);
	return n;
}

/*
 * pick_next_task_fair()'s switch: put prev's levels and set next's, only where they differ
 * (the is_same_group walk). Returns the number of level operations.
 */
unsigned sched__switch_chains(struct sched *s, struct sched_thread *prev,
			      struct sched_thread *next)
{
	struct sched_entity *se, *pse;
	unsigned n = 0;

	if (!prev && !next)
		return 0;	/* a detached thread left an empty CPU */
	if (!prev) {
		for (se = &next->se; se; se = se->parent, n++)
			set_next_entity(s, se->cfs_rq, se);
		if (s->ops->flat)
			sched__flat_set_next(s, next);
		return n;
	}
	if (!next)
		return put_prev_task_fair(s, prev);
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
	if (s->ops->flat) {
		sched__flat_put_prev(s, prev);
		sched__flat_set_next(s, next);
	}
	return n + 2;
}

/*
 * pick_task_fair(): descend from the root, picking at each level (a walk of that level). A
 * delayed entity picked leaves its queue (dequeue_entities() from it up, another walk) and the
 * pick starts again from the root. @w collects what the picks walked and dequeued.
 */
struct sched_thread *pick_task_fair(struct sched *s, struct sched_cpu *rq, uint64_t now,
				    struct sched_walk *w)
{
	/* the flat pick (7.3): one pick on the root's tree of tasks, whatever their depth */
	while (s->ops->flat) {
		struct sched_entity *se;

		if (!sched__flat_nr(rq->cfs))
			return NULL;
		w->walks++;
		se = s->ops->pick(s, rq->cfs);
		if (!se)
			return NULL;
		if (!se->sched_delayed)
			return se->task;
		walk_add(w, sched__finish_delayed(s, se->task, now));
	}
	for (;;) {
		struct cfs_rq *q = rq->cfs;
		struct sched_entity *se = NULL;

		if (!q->nr_queued)
			return NULL;
		while (q) {
			w->walks++;
			se = s->ops->pick(s, q);
			if (!se)
				return NULL;
			sched__prefetch_my_q(se);	/* a dependent miss less per level */
			if (se->sched_delayed)
				break;
			q = se->my_q;
		}
		if (!se->sched_delayed)
			return se->task;
		if (se->task)
			walk_add(w, sched__finish_delayed(s, se->task, now));
		else
			walk_add(w, finish_delayed_group(s, se, now));
	}
}

static void set_last_buddy(struct sched_entity *se)
{
	for (; se; se = se->parent)
		se->cfs_rq->last = se;
}

/*
 * wakeup_preempt_fair() under the flat pick (7.3): the woken task against the running one on
 * the root, with neither a find_matching_se() walk to a common level nor a group's slice:
 * their own idle policies, slices, lags and deadlines decide.
 */
static void wakeup_preempt_flat(struct sched *s, struct sched_cpu *rq, struct sched_thread *curr,
				struct sched_thread *p, bool fork)
{
	struct sched_entity *se = &curr->se, *pse = &p->se;

	if (se->idle && !pse->idle) {
		rq->resched = true;
		return;
	}
	if (se->idle != pse->idle)
		return;
	if (sched__feat(s, SCHED_FEAT_NEXT_BUDDY) && !fork && !pse->sched_delayed)
		rq->cfs->next = pse;
	if (rq->cfs->curr == se && s->ops->wakeup_preempt(s, rq->cfs, se, pse))
		rq->resched = true;
}

/* check_preempt_wakeup_fair() / check_preempt_wakeup() */
void wakeup_preempt_fair(struct sched *s, struct sched_cpu *rq, struct sched_thread *p, bool fork)
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
	if (p->policy != SCHED_THREAD_NORMAL || !sched__feat(s, SCHED_FEAT_WAKEUP_PREEMPTION))
		return;
	if (throttled_hierarchy(p->se.cfs_rq))
		return;		/* it cannot run before its group's next refill */
	if (s->ops->flat) {
		wakeup_preempt_flat(s, rq, curr, p, fork);
		return;
	}
	scale = curr->se.cfs_rq->nr_queued >= s->nr_latency;
	se = &curr->se;
	pse = &p->se;
	if (s->ops->cfs_buddies && sched__feat(s, SCHED_FEAT_NEXT_BUDDY) && scale && !fork) {
		set_next_buddy(pse);
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
	if (!s->ops->cfs_buddies && sched__feat(s, SCHED_FEAT_NEXT_BUDDY) && !fork &&
	    !pse->sched_delayed)
		set_next_buddy(pse);
	if (!s->ops->wakeup_preempt(s, se->cfs_rq, se, pse))
		return;
	if (s->ops->cfs_buddies) {
		if (!next_marked)
			set_next_buddy(pse);
		if (sched__feat(s, SCHED_FEAT_LAST_BUDDY) && scale && se->task)
			set_last_buddy(se);
	}
	rq->resched = true;
}

/*
 * yield_task_fair()'s "are we the only task?" is rq->nr_running == 1, and rq->nr_running still
 * counts a task that DELAY_DEQUEUE keeps queued after it slept (dequeue_entities() returns
 * before sub_nr_running() for it), where ours counts only the runnable ones: look for such a
 * task too, outside a throttled hierarchy (whose tasks leave rq->nr_running).
 */
static bool only_task(const struct sched_cpu *rq, const struct sched_thread *t)
{
	if (rq->nr_running > 1)
		return false;
	for (const struct sched_thread *o = rq->lhead; o; o = o->lnext)
		if (o != t && o->se.sched_delayed && !throttled_hierarchy(o->se.cfs_rq))
			return false;
	return true;
}

/*
 * do_sched_yield(): the class's yield_task(), then schedule(). yield_task_fair() returns at
 * once when the yielder is its CPU's only task; otherwise it clears the yielder's buddies,
 * updates curr (here every level is brought up to now, as pick_task_fair() would do before
 * it picks) and lets the policy mark the yielder. The schedule() that follows is the normal
 * pick: a switch is a switch out while runnable (sched_switch prev_state R, counted as
 * preempted). Without a switch the CPU is still marked dirty, as after any change: EEVDF's
 * pushed deadline moves the tick horizon (only later, so a stale plan would merely tick early)
 * and the next processed tick finds out whether the CPU is quiescent again.
 */
int sched_thread_yield(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	struct sched_cpu *rq;
	int err;

	if (!t)
		return -ENOENT;
	err = sched__enter(s, now);
	if (err)
		return err;
	rq = t->cpu;
	if (t->runnable && rq && rq->curr == t && !only_task(rq, t)) {
		update_curr(s, rq, now);
		s->ops->yield(s, t->se.cfs_rq, &t->se);
		rq->resched = true;
		sched__rq_dirty(s, rq, now);
		sched__resched_if_needed(s, rq, now);
	}
	sched__finish(s);
	return 0;
}
