// SPDX-License-Identifier: MIT
/*
 * scheduler/check.c - sched_check(): every invariant docs/scheduler.md lists, verified from
 * scratch. O(entities) per call; tests call it after every operation (sched_config.check).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "scheduler/sched_internal.h"

struct ck {
	char *why;
	size_t len;
	bool bad;
};

static bool fail(struct ck *ck, const char *fmt, ...)
{
	va_list ap;

	if (!ck->bad && ck->why && ck->len) {
		va_start(ap, fmt);
		vsnprintf(ck->why, ck->len, fmt, ap);
		va_end(ap);
	}
	ck->bad = true;
	return false;
}

static bool cpu_allowed_check(const struct sched_thread *t)
{
	int c = t->cpu->id;

	return (t->affinity[c / 64] >> (c % 64)) & 1;
}

struct walk {
	const struct sched *s;
	const struct cfs_rq *q;
	uint64_t load;
	unsigned n;
	sv_t sum_wv;
	int64_t sum_w;
	bool aug_ok;
	bool tasks_only;	/* the flat pick's root: every entity a task of this CPU */
};

/* the weight of @se in its timeline's sums: h_load under the flat pick, else wd */
static int64_t tl_weight(const struct sched *s, const struct sched_entity *se)
{
	return s->ops->flat ? (int64_t)se->h_load : (int64_t)se->wd;
}

static sv_t vmin(sv_t a, sv_t b)
{
	return a < b ? a : b;
}

static void count(struct walk *w, const struct sched_entity *se)
{
	w->load += se->weight;
	w->n++;
	w->sum_wv += (se->vruntime - w->q->min_vruntime) * tl_weight(w->s, se);
	w->sum_w += tl_weight(w->s, se);
	if (w->s->ops->flat && (!se->task || se->task->cpu != w->q->rq))
		w->tasks_only = false;
}

/* In-order walk: sums, and the augmented minima recomputed bottom-up. */
static void walk(struct walk *w, const struct rb_node *n, sv_t *minv, uint64_t *mins)
{
	const struct sched_entity *se;
	sv_t lv = 0, rv = 0;
	uint64_t ls = UINT64_MAX, rs = UINT64_MAX, ms;
	sv_t mv;

	if (!n)
		return;
	se = sched__se_of(n);
	mv = se->vruntime;
	ms = se->slice;
	if (n->left) {
		walk(w, n->left, &lv, &ls);
		mv = vmin(mv, lv);
		ms = ls < ms ? ls : ms;
	}
	if (n->right) {
		walk(w, n->right, &rv, &rs);
		mv = vmin(mv, rv);
		ms = rs < ms ? rs : ms;
	}
	if (w->s->ops->augmented && (se->min_vruntime != mv || se->min_slice != ms))
		w->aug_ok = false;
	if (!se->on_rq)
		w->aug_ok = false;
	count(w, se);
	*minv = mv;
	*mins = ms;
}

/* The array form: strictly in the policy's order, each entity on_rq, the minima exact. */
static const char *check_small(struct walk *w)
{
	const struct cfs_rq *q = w->q;
	sv_t mv = 0;
	uint64_t ms = UINT64_MAX;

	if (q->tree.root || q->tree.leftmost)
		return "the array form has a tree too";
	if (q->tl < q->tl_buf || q->tl + q->tl_n > q->tl_buf + q->tl_cap)
		return "the array is outside its buffer";
	for (unsigned i = 0; i < q->tl_n; i++) {
		const struct sched_entity *se = q->tl[i].se;

		if (i && !w->s->ops->less(&q->tl[i - 1].se->node, &se->node))
			return "the array is out of order";
		if (!se->on_rq || rb_node_is_clear(&se->node))
			return "an entity in the array is not queued";
		count(w, se);
	}
	/* the suffix minima, from the end */
	for (unsigned i = q->tl_n; w->s->ops->augmented && i-- > 0;) {
		const struct sched_entity *se = q->tl[i].se;

		mv = i + 1 == q->tl_n || se->vruntime < mv ? se->vruntime : mv;
		ms = se->slice < ms ? se->slice : ms;
		if (q->tl[i].min_v != mv || q->tl[i].min_slice != ms)
			return "the array's minima are wrong";
	}
	return NULL;
}

/* avg_vruntime() - v0 of the flat root from scratch: its tree's sums and curr's, by h_load */
static sv_t flat_avg(const struct cfs_rq *q, const struct walk *w)
{
	sv_t avg = w->sum_wv;
	int64_t load = w->sum_w;

	if (q->curr && q->curr->on_rq) {
		avg += (q->curr->vruntime - q->min_vruntime) * (int64_t)q->curr->h_load;
		load += (int64_t)q->curr->h_load;
	}
	if (load) {
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return avg;
}

/*
 * EEVDF's sums of queue @q against those of its entities, walked into @w (curr not included):
 * Σ w and Σ w (v - v0), and that the lags they give sum to zero.
 */
static bool check_lag_sums(const struct sched *s, const struct cfs_rq *q, const struct walk *w,
			   int cpu, struct ck *ck)
{
	if (w->sum_w != q->sum_weight || w->sum_wv != q->sum_w_vruntime)
		return fail(ck, "cpu %d group %d: avg_vruntime sums differ from the tree", cpu,
			    q->tg->id);
	/* Σ w_i (V - v_i) over curr and the tree is zero up to V's rounding (< Σ w). */
	if (s->ops->flat ? sched__flat_nr(q) : q->nr_queued) {
		/* the flat root's V: the average by h_load */
		sv_t V = s->ops->flat ? q->min_vruntime + flat_avg(q, w) : avg_vruntime(q);
		sv_t lag = w->sum_w * V - w->sum_w * q->min_vruntime - w->sum_wv;
		int64_t W = w->sum_w;

		if (q->curr && q->curr->on_rq) {
			lag += (V - q->curr->vruntime) * tl_weight(s, q->curr);
			W += tl_weight(s, q->curr);
		}
		if (lag > 0 || -lag >= (sv_t)W)
			return fail(ck, "cpu %d group %d: Σ lag·w is not 0 (V rounding)", cpu,
				    q->tg->id);
	}
	return true;
}

/*
 * The flat pick (7.3): a group's queue holds no timeline, curr or buddy; the root's holds
 * only tasks of its CPU, none under a throttled queue, weighed by h_load, its next buddy one
 * of them or curr, its curr the CPU's running task; no group entity is delayed.
 */
static bool check_flat_queue(const struct cfs_rq *q, const struct walk *w, int cpu,
			     struct ck *ck)
{
	const struct sched_entity *n = q->next;

	if (q->se) {
		if (q->tl_n || q->tree.root || q->curr || q->sum_weight || q->sum_w_vruntime ||
		    q->next || q->last || q->skip)
			return fail(ck, "cpu %d group %d: a group's queue has a timeline, curr or buddy "
				    "under the flat pick", cpu, q->tg->id);
		if (q->se->sched_delayed)
			return fail(ck, "cpu %d group %d: a group entity is delayed under the flat pick",
				    cpu, q->tg->id);
		return true;
	}
	if (!w->tasks_only)
		return fail(ck, "cpu %d: the root's tree holds a group entity or another CPU's task",
			    cpu);
	if (q->curr && (!q->rq->curr || q->curr != &q->rq->curr->se))
		return fail(ck, "cpu %d: the root's curr is not the running task", cpu);
	if (q->last || q->skip || (n && (!n->task || !n->on_rq || !sched__flat_in(q, n))))
		return fail(ck, "cpu %d: the root's buddy is not one of its tasks", cpu);
	return true;
}

/* Is @se on the chain of the task running on @rq? */
static bool on_chain(const struct sched_cpu *rq, const struct sched_entity *se)
{
	for (const struct sched_entity *e = rq->curr ? &rq->curr->se : NULL; e; e = e->parent)
		if (e == se)
			return true;
	return false;
}

/*
 * The flat pick: each queue's load and nr_queued against the entities whose queue it is (its
 * timeline holds none of them), and its h_curr on the CPU's running chain.
 */
static void check_flat_load(const struct sched *s, struct ck *ck)
{
	size_t nq = (size_t)s->ntg * (size_t)s->ncpu;
	uint64_t *load = calloc(nq ? nq : 1, sizeof(*load));
	unsigned *n = calloc(nq ? nq : 1, sizeof(*n));

	if (!load || !n) {
		fail(ck, "out of memory checking the flat pick's loads");
		goto out;
	}
	for (int i = 0; i < s->nthr; i++) {
		const struct sched_thread *t = s->thr[i];

		if (t && t->alive && t->se.on_rq) {
			size_t k = (size_t)t->se.cfs_rq->tg->id * (size_t)s->ncpu +
				   (size_t)t->se.cfs_rq->rq->id;

			load[k] += t->se.weight;
			n[k]++;
		}
	}
	for (int i = 0; i < s->ntg; i++) {
		const struct sched_tg *tg = s->tg[i];

		for (int c = 0; tg && tg->parent && c < s->ncpu; c++) {
			const struct sched_entity *ge = tg->se[c];

			if (ge->on_rq) {
				size_t k = (size_t)ge->cfs_rq->tg->id * (size_t)s->ncpu + (size_t)c;

				load[k] += ge->weight;
				n[k]++;
			}
		}
	}
	for (int i = 0; i < s->ntg && !ck->bad; i++) {
		const struct sched_tg *tg = s->tg[i];

		for (int c = 0; tg && c < s->ncpu && !ck->bad; c++) {
			const struct cfs_rq *q = tg->cfs_rq[c];
			size_t k = (size_t)tg->id * (size_t)s->ncpu + (size_t)c;

			if (q->load != load[k] || q->nr_queued != n[k])
				fail(ck, "cpu %d group %d: load %llu and nr_queued %u, its entities "
				     "%llu and %u", c, tg->id, (unsigned long long)q->load, q->nr_queued,
				     (unsigned long long)load[k], n[k]);
			else if (q->h_curr && (q->h_curr->cfs_rq != q || !on_chain(q->rq, q->h_curr)))
				fail(ck, "cpu %d group %d: h_curr is off the running chain", c,
				     tg->id);
		}
	}
out:
	free(load);
	free(n);
}

static bool check_queue(const struct sched *s, const struct cfs_rq *q, sv_t *last_min_v, int cpu,
			struct ck *ck)
{
	struct walk w = { .s = s, .q = q, .aug_ok = true, .tasks_only = true };
	sv_t mv;
	uint64_t ms;

	if (q->tl_tree) {
		int r = rb_check(&q->tree, s->ops->less);

		if (r)
			return fail(ck, "cpu %d group %d: tree: %s", cpu, q->tg->id,
				    rb_check_describe(r));
		walk(&w, q->tree.root, &mv, &ms);
		if (!w.aug_ok)
			return fail(ck, "cpu %d group %d: augmented minimum or on_rq flag wrong in "
				    "the tree", cpu, q->tg->id);
	} else {
		const char *why = check_small(&w);

		if (why)
			return fail(ck, "cpu %d group %d: timeline: %s", cpu, q->tg->id, why);
	}
	if (q->tl_first != (!q->tl_n ? NULL : q->tl_tree ? sched__se_of(rb_first_cached(&q->tree))
							  : q->tl[0].se))
		return fail(ck, "cpu %d group %d: the timeline's first entity is not its first",
			    cpu, q->tg->id);
	if (w.n != q->tl_n)
		return fail(ck, "cpu %d group %d: the timeline counts %u, holds %u", cpu, q->tg->id,
			    q->tl_n, w.n);
	if (s->ops->flat) {	/* load and nr_queued are the levels' own: check_flat_load() */
		if (!check_flat_queue(q, &w, cpu, ck) || !check_lag_sums(s, q, &w, cpu, ck))
			return false;
		if (q->min_vruntime < *last_min_v)
			return fail(ck, "cpu %d group %d: min_vruntime went backwards", cpu,
				    q->tg->id);
		*last_min_v = q->min_vruntime;
		if (q->se && q->nr_queued && !q->se->on_rq && !q->throttled)
			return fail(ck, "cpu %d group %d: a non-empty group's entity is not queued",
				    cpu, q->tg->id);
		if (q->se && !q->nr_queued && q->se->on_rq)
			return fail(ck, "cpu %d group %d: an empty group's entity is queued", cpu,
				    q->tg->id);
		return true;
	}
	if (q->h_curr != q->curr)
		return fail(ck, "cpu %d group %d: h_curr is not curr", cpu, q->tg->id);
	if (q->curr && q->curr->on_rq) {
		w.load += q->curr->weight;
		w.n++;
	}
	if (w.load != q->load)
		return fail(ck, "cpu %d group %d: load %llu, entities sum to %llu", cpu, q->tg->id,
			    (unsigned long long)q->load, (unsigned long long)w.load);
	if (w.n != q->nr_queued)
		return fail(ck, "cpu %d group %d: nr_queued %u, %u entities", cpu, q->tg->id,
			    q->nr_queued, w.n);
	if (q->curr && q->curr->cfs_rq != q)
		return fail(ck, "cpu %d group %d: curr belongs to another queue", cpu, q->tg->id);
	/* a buddy that left the queue would be picked, or passed over, from nowhere */
	if ((q->next && (!q->next->on_rq || q->next->cfs_rq != q)) ||
	    (q->last && (!q->last->on_rq || q->last->cfs_rq != q)) ||
	    (q->skip && (!q->skip->on_rq || q->skip->cfs_rq != q)))
		return fail(ck, "cpu %d group %d: a buddy is not queued here", cpu, q->tg->id);
	if (s->ops->deadlines && !check_lag_sums(s, q, &w, cpu, ck))
		return false;
	if (q->min_vruntime < *last_min_v)
		return fail(ck, "cpu %d group %d: min_vruntime went backwards", cpu, q->tg->id);
	*last_min_v = q->min_vruntime;
	if (q->se && q->nr_queued && !q->se->on_rq && !q->throttled)
		return fail(ck, "cpu %d group %d: a non-empty group's entity is not queued", cpu,
			    q->tg->id);
	if (q->throttled && q->se && q->se->on_rq)
		return fail(ck, "cpu %d group %d: a throttled group's entity is queued", cpu,
			    q->tg->id);
	if (q->se && !q->nr_queued && q->se->on_rq && !q->se->sched_delayed)
		return fail(ck, "cpu %d group %d: an empty group's entity is queued, not delayed",
			    cpu, q->tg->id);
	if (q->se && q->se->sched_delayed && (q->nr_queued || !q->se->on_rq))
		return fail(ck, "cpu %d group %d: a delayed group entity with %u queued (on_rq %d)",
			    cpu, q->tg->id, q->nr_queued, q->se->on_rq);
	return true;
}

/*
 * A group's published load is the sum of its queues' contributions, and a queue that left
 * the leaf list (fully decayed, or never loaded) contributes nothing: an emptied queue's last
 * average cannot stay in tg->load_avg for good. Its published runnable average is the sum of
 * theirs too, and all zero where it is not kept. A queue's runnable signal is 1024 per task
 * runnable below it.
 */
static void check_tg_load(const struct sched *s, const struct sched_tg *tg, struct ck *ck)
{
	int64_t sum = 0, rsum = 0;

	if (!tg->parent)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		const struct cfs_rq *q = tg->cfs_rq[c];

		sum += (int64_t)q->tg_load_avg_contrib;
		rsum += (int64_t)q->tg_runnable_avg_contrib;
		if (q->runnable.x != (s->tg_runnable ? 1024ull * q->h_nr_runnable : 0))
			fail(ck, "cpu %d group %d: runnable signal %llu with %u runnable", c, tg->id,
			     (unsigned long long)q->runnable.x, q->h_nr_runnable);
		if (!q->on_leaf && (q->tg_load_avg_contrib || q->nr_queued))
			fail(ck, "cpu %d group %d: off the leaf list with contribution %llu, %u queued",
			     c, tg->id, (unsigned long long)q->tg_load_avg_contrib, q->nr_queued);
	}
	if (sum != tg->load_avg)
		fail(ck, "group %d: load_avg %lld, contributions sum to %lld", tg->id,
		     (long long)tg->load_avg, (long long)sum);
	if (rsum != tg->runnable_avg)
		fail(ck, "group %d: runnable_avg %lld, contributions sum to %lld", tg->id,
		     (long long)tg->runnable_avg, (long long)rsum);
}

/* Each CPU's leaf list holds its own non-root queues, once each. */
static void check_leaves(const struct sched_cpu *rq, struct ck *ck)
{
	for (int i = 0; i < rq->nleaf; i++) {
		const struct cfs_rq *q = rq->leaf[i];

		if (q->rq != rq || !q->se || !q->on_leaf)
			fail(ck, "cpu %d: leaf list entry %d is not one of its group queues", rq->id, i);
		for (int j = 0; j < i; j++)
			if (rq->leaf[j] == q)
				fail(ck, "cpu %d: group %d twice on the leaf list", rq->id, q->tg->id);
	}
}

/*
 * Each CPU's count against its root queue, its idle mask bit, SCHED_IDLE tasks only once one
 * was made, and curr as every level's curr. Returns the CPUs' nr_running summed, in *@idle
 * how many have nothing running.
 */
static unsigned check_cpus(const struct sched *s, unsigned *idle, struct ck *ck)
{
	unsigned runnable = 0;

	for (int c = 0; c < s->ncpu && !ck->bad; c++) {
		const struct sched_cpu *rq = &s->cpu[c];

		if (rq->cfs->h_nr_runnable != rq->nr_running)
			fail(ck, "cpu %d: nr_running %u, root h_nr_runnable %u", c, rq->nr_running,
			     rq->cfs->h_nr_runnable);
		if (!rq->curr)
			(*idle)++;
		if (!((s->idle_mask[c / 64] >> (c % 64)) & 1) != !!rq->curr)
			fail(ck, "cpu %d: idle mask bit %d with %s running", c,
			     (int)((s->idle_mask[c / 64] >> (c % 64)) & 1), rq->curr ? "a task" : "nothing");
		if (!((s->mark_mask[c / 64] >> (c % 64)) & 1) &&
		    (rq->next_tick > rq->last_tick + s->tick_ns ||
		     rq->dirty_from > rq->last_tick + s->tick_ns))
			fail(ck, "cpu %d: out of the mark mask with its next tick at %llu and dirty "
			     "from %llu, past %llu", c, (unsigned long long)rq->next_tick,
			     (unsigned long long)rq->dirty_from,
			     (unsigned long long)(rq->last_tick + s->tick_ns));
		if (!s->any_idle && rq->cfs->h_nr_idle)
			fail(ck, "cpu %d: %u SCHED_IDLE tasks but none was ever made", c,
			     rq->cfs->h_nr_idle);
		if (rq->curr) {
			for (const struct sched_entity *se = &rq->curr->se; se; se = se->parent)
				if (se->cfs_rq->h_curr != se)
					fail(ck, "cpu %d: level %d of curr is not its queue's curr", c,
					     se->depth);
			if (rq->curr->cpu != rq)
				fail(ck, "cpu %d: curr thinks it is on another CPU", c);
		}
		runnable += rq->nr_running;
	}
	return runnable;
}

/* The next tick: the cached first one (few CPUs) or the tick heap (many), as tick.c keeps it. */
static void check_ticks(const struct sched *s, struct ck *ck)
{
	/* the first tick, with few CPUs the cached one (tick.c), is the earliest */
	for (int c = 0; c < s->ncpu && !ck->bad && s->ncpu <= THEAP_MIN_CPUS; c++)
		if (s->tmin < 0 || s->cpu[c].next_tick < s->cpu[s->tmin].next_tick)
			fail(ck, "cpu %d ticks at %llu, before the first tick's cpu %d", c,
			     (unsigned long long)s->cpu[c].next_tick, s->tmin);
	/* with many CPUs, each heap slot holds its CPU's key and no slot precedes its parent */
	for (int i = 0; i < s->ncpu && !ck->bad && s->ncpu > THEAP_MIN_CPUS; i++) {
		const struct sched_theap *e = &s->theap[i], *up = &s->theap[(i - 1) / 2];
		const struct sched_cpu *rq = &s->cpu[e->cpu];

		if (s->hpos[e->cpu] != i || e->tick != rq->next_tick || e->tie != rq->tie)
			fail(ck, "tick heap slot %d does not hold cpu %d's key", i, e->cpu);
		else if (i && (e->tick < up->tick || (e->tick == up->tick && e->tie < up->tie)))
			fail(ck, "tick heap slot %d precedes its parent", i);
	}
}

/*
 * Every live thread: runnable ones queued in their group's queue on their CPU (curr or in the
 * tree) and allowed there, sleeping ones off the queues unless delayed; the unthrottled
 * runnable ones are the CPUs' @runnable.
 */
static void check_threads(const struct sched *s, unsigned runnable, struct ck *ck)
{
	for (int i = 0; i < s->nthr && !ck->bad; i++) {
		const struct sched_thread *t = s->thr[i];

		if (!t || !t->alive)
			continue;
		if (t->runnable) {
			const struct sched_entity *se = &t->se;

			if (!throttled_hierarchy(se->cfs_rq))
				runnable--;	/* throttled ones are off the CPU's count */
			if (!se->on_rq || se->sched_delayed)
				fail(ck, "thread %d: runnable but not queued", t->tid);
			else if (se->cfs_rq != t->tg->cfs_rq[t->cpu->id])
				fail(ck, "thread %d: queued outside its group's queue on its CPU",
				     t->tid);
			else if (!s->ops->flat && se->cfs_rq->curr != se && rb_node_is_clear(&se->node))
				fail(ck, "thread %d: neither curr nor in the tree", t->tid);
			else if (s->ops->flat && !sched__flat_in(t->cpu->cfs, se) &&
				 !throttled_hierarchy(se->cfs_rq))
				fail(ck, "thread %d: neither the root's curr nor in its tree", t->tid);
			else if (s->ops->flat && se->h_load < MIN_SHARES)
				fail(ck, "thread %d: h_load %llu under MIN_SHARES", t->tid,
				     (unsigned long long)se->h_load);
			if (!cpu_allowed_check(t))
				fail(ck, "thread %d: on a CPU outside its affinity", t->tid);
		} else if (t->se.on_rq && !t->se.sched_delayed) {
			fail(ck, "thread %d: asleep but queued", t->tid);
		} else if (s->ops->flat && t->se.on_rq && !sched__flat_in(t->cpu->cfs, &t->se) &&
			   !throttled_hierarchy(t->se.cfs_rq)) {
			fail(ck, "thread %d: delayed but off the root's books", t->tid);
		}
		if (s->ops->flat && !rb_node_is_clear(&t->se.node) &&
		    (!t->se.on_rq || throttled_hierarchy(t->se.cfs_rq)))
			fail(ck, "thread %d: in the root's tree, asleep or throttled", t->tid);
	}
	if (!ck->bad && runnable)
		fail(ck, "runnable threads and per-CPU counts disagree");
}

int sched_check(struct sched *s, char *why, size_t len)
{
	struct ck ck = { why, len, false };
	unsigned runnable, idle = 0;

	for (int i = 0; i < s->ntg && !ck.bad; i++) {
		const struct sched_tg *tg = s->tg[i];

		if (!tg)
			continue;
		for (int c = 0; c < s->ncpu && !ck.bad; c++)
			check_queue(s, tg->cfs_rq[c], &tg->cfs_rq[c]->check_min_v, c, &ck);
		if (!ck.bad)
			check_tg_load(s, tg, &ck);
	}
	if (!ck.bad && s->ops->flat)
		check_flat_load(s, &ck);
	for (int c = 0; c < s->ncpu && !ck.bad; c++)
		check_leaves(&s->cpu[c], &ck);
	runnable = check_cpus(s, &idle, &ck);
	check_ticks(s, &ck);
	if (!ck.bad && (int)idle != s->nr_idle)
		fail(&ck, "nr_idle %d, %u CPUs idle", s->nr_idle, idle);
	check_threads(s, runnable, &ck);
	return ck.bad ? -EUCLEAN : 0;
}
