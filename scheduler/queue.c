// SPDX-License-Identifier: MIT
/*
 * scheduler/queue.c - the hierarchy walks: enqueue_task_fair, dequeue_task_fair (with
 * DELAY_DEQUEUE), pick_next_task_fair and the switch of only the levels that differ, wakeup
 * preemption (find_matching_se, then the policy), and sched_yield(2) (yield_task_fair, then
 * schedule).
 */
#include <errno.h>

#include "scheduler/sched_internal.h"

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

/*
 * Put @t on @rq's queue of its group (set_task_cpu, or set_task_rq after a group change). Its
 * load average leaves the queue it was attached to and joins the new one
 * (migrate_task_rq_fair/detach_task_cfs_rq, then attach at enqueue).
 */
void set_task_cpu(struct sched *s, struct sched_thread *t, struct sched_cpu *rq, uint64_t now)
{
	struct sched_tg *tg = t->tg;
	bool move = t->attached && t->se.cfs_rq != tg->cfs_rq[rq->id];

	if (move)
		detach_entity_load_avg(s, t, now);
	t->cpu = rq;
	t->se.cfs_rq = tg->cfs_rq[rq->id];
	t->se.parent = tg->se ? tg->se[rq->id] : NULL;
	t->se.depth = t->se.parent ? t->se.parent->depth + 1 : 0;
	if (move)
		attach_entity_load_avg(s, t, now);
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

static void enqueue_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se,
			   bool initial, bool wakeup, uint64_t now)
{
	pelt_update(&q->avg, now);
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
	s->ops->dequeued(s, q, se, sleep);
	if (q->curr != se)
		s->ops->tree_del(q, se);
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
	bool task_level = true;

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
		if (q->throttled)
			break;
	}
	if (sched__account_runnable(&t->se, 1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running++;
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
	if (!s->ops->deadlines || !sched__feat(s, SCHED_FEAT_DELAY_DEQUEUE))
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
	list_del(t->cpu, t);
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
	if (entity_eligible(t->se.cfs_rq, &t->se))
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
	requeue_delayed_entity(s, &t->se);
	if (sched__account_runnable(&t->se, 1, t->policy == SCHED_THREAD_IDLE))
		t->cpu->nr_running++;
	(void)now;
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

static void put_prev_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (se->on_rq)
		s->ops->tree_add(q, se);
	if (q->curr == se) {
		q->curr = NULL;
		chain_bit(se, false);
	}
}

static void set_next_entity(struct sched *s, struct cfs_rq *q, struct sched_entity *se)
{
	if (se->on_rq)
		s->ops->tree_del(q, se);
	q->curr = se;
	chain_bit(se, true);
	s->ops->set_next(s, q, se);
}

/* Put every level of the running task (its chain leaves the CPU's curr pointers). */
unsigned put_prev_task_fair(struct sched *s, struct sched_thread *t)
{
	unsigned n = 0;

	for (struct sched_entity *se = &t->se; se; se = se->parent) {
		if (se->cfs_rq->curr != se)
			break;
		put_prev_entity(s, se->cfs_rq, se);
		n++;
	}
	return n;
}

/*
 * pick_next_task_fair()'s switch: put prev's levels and set next's, only where they differ
 * (the is_same_group walk). Returns the number of level operations.
 */
static unsigned switch_chains(struct sched *s, struct sched_thread *prev,
			      struct sched_thread *next)
{
	struct sched_entity *se, *pse;
	unsigned n = 0;

	if (!prev && !next)
		return 0;	/* a detached thread left an empty CPU */
	if (!prev) {
		for (se = &next->se; se; se = se->parent, n++)
			set_next_entity(s, se->cfs_rq, se);
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
	return n + 2;
}

/*
 * pick_task_fair(): descend from the root, picking at each level (a walk of that level). A
 * delayed entity picked leaves its queue (dequeue_entities() from it up, another walk) and the
 * pick starts again from the root. @w collects what the picks walked and dequeued.
 */
static struct sched_thread *pick_task_fair(struct sched *s, struct sched_cpu *rq, uint64_t now,
					   struct sched_walk *w)
{
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

static void latency_sample(struct sched *s, struct sched_thread *t, uint64_t lat)
{
	if (s->latency_fn)
		s->latency_fn(s->latency_ctx, t->tid, lat);
}

/* The NOHZ kick term of plan() depends on whether any CPU is idle: replan when that flips. */
void sched__idle_count(struct sched *s, struct sched_cpu *rq, int d)
{
	bool before = s->nr_idle > 0;
	uint64_t *w = &s->idle_mask[rq->id / 64], b = 1ull << (rq->id % 64);

	*w = d > 0 ? *w | b : *w & ~b;

	s->nr_idle += d;
	if (before != (s->nr_idle > 0))
		s->idle_changed = true;
	sched__replan_llc(s, rq);
}

/*
 * __schedule(): pick and switch. @detached is a task whose chain was already put (a move, an
 * affinity change or an exit took it off the CPU while it ran): it counts as the previous task.
 */
void schedule(struct sched *s, struct sched_cpu *rq, uint64_t now, struct sched_thread *detached)
{
	struct sched_thread *prev = rq->curr, *next, *was = prev ? prev : detached;
	struct sched_walk w = { 0, 0 };

	rq->resched = false;
	if (s->nbw)	/* some group has a quota */
		check_cfs_rq_runtime(s, rq, now);
	next = pick_task_fair(s, rq, now, &w);
	if (!next && sched_balance_newidle(s, rq, now))
		next = pick_task_fair(s, rq, now, &w);
	rq->resched = false;	/* the pull's wakeup_preempt asked for what happens now */
	if (next == prev && !detached)
		return;
	if (!prev)
		rq->last_tick = umax(rq->last_tick, grid_floor(s, now));
	w.ops += switch_chains(s, prev, next);
	rq->curr = next;
	if (was && was != next) {
		was->st.running = false;
		was->last_ran = now;
		if (was->runnable) {
			was->st.preempted++;
			was->wait_start = now;
		}
	}
	if (next && next == was) {
		/* the same task continues after a move: not a context switch, nothing charged */
		next->st.running = true;
		s->st.level_ops += w.ops;
		s->st.level_walks += w.walks;
	} else {
		sched__trace_switch(s, rq, was, next, now);
		if (next)
			sched__rq_charge_next(rq, now);
		sched__rq_charge_overhead(s, rq, now, s->cfg.cost.switch_ns, w);
		s->st.switches++;
		if (next) {
			uint64_t start = rq->exec_start;

			next->st.switches++;
			next->st.running = true;
			next->wait_start = umin(next->wait_start, start);
			next->st.wait_ns += start - next->wait_start;
			if (s->wait_fn)
				s->wait_fn(s->wait_ctx, next->tid, next->wait_start, start);
			if (next->latency_pending) {
				next->latency_pending = false;
				latency_sample(s, next, start - umin(next->wake_time, start));
			}
			/* keep the balancer's list in most-recently-picked order */
			list_del(rq, next);
			list_add_head(rq, next);
		}
	}
	if (!prev != !next)
		sched__idle_count(s, rq, prev ? 1 : -1);
	sched__rq_dirty(s, rq, now);
}

void sched__resched_if_needed(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	if (rq->resched || (!rq->curr && rq->nr_running))
		schedule(s, rq, now, NULL);
}

static void set_last_buddy(struct sched_entity *se)
{
	for (; se; se = se->parent)
		se->cfs_rq->last = se;
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
