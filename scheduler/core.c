// SPDX-License-Identifier: MIT
/*
 * scheduler/core.c - kernel/sched/core.c: the machine and its population: construction, threads
 * and everything that changes one (nice, policy, slice, affinity, group, wakeup, sleep, exit),
 * set_task_cpu(), schedule() (the kernel's __schedule()), and the per-thread queries. Task
 * groups are in group.c, the fair class's walks these call in fair.c, time in account.c and
 * tick.c, SMP in select.c and balance.c (docs/scheduler.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/sched_internal.h"

struct sched_thread *sched__thr_get(const struct sched *s, int tid)
{
	if (tid < 0 || tid >= s->nthr || !s->thr[tid] || !s->thr[tid]->alive)
		return NULL;
	return s->thr[tid];
}

int sched__grow(void **arr, int *n, int need, size_t elem)
{
	int m = *n ? *n : 16;
	void *p;

	if (need < *n)
		return 0;
	while (m <= need)
		m *= 2;
	p = realloc(*arr, (size_t)m * elem);
	if (!p)
		return -ENOMEM;
	memset((char *)p + (size_t)*n * elem, 0, (size_t)(m - *n) * elem);
	*arr = p;
	*n = m;
	return 0;
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
	w.ops += sched__switch_chains(s, prev, next);
	/* set_next_task_fair() (7.3) walks every level of next for its h_load */
	if (s->ops->flat && next)
		w.walks += levels_of(next);
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
			sched__tasks_move_head(rq, next);
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

struct sched *sched_new(const struct sched_config *cfg)
{
	struct sched *s;

	if (topo_machine_check(&cfg->machine) || cfg->tun.hz < 1 || cfg->tun.hz > 10000 ||
	    cfg->newidle_ratio > 1024)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->ops = cfg->policy == SCHED_POLICY_CFS	   ? &sched_cfs_ops
		 : cfg->policy == SCHED_POLICY_EEVDF_FLAT ? &sched_flat_ops
							   : &sched_eevdf_ops;
	s->tg_runnable = sched__tracks_tg_runnable(cfg);
	s->ncpu = cfg->machine.cpus;
	s->factor = sched_scaling_factor(cfg->tun.tunable_scaling, cfg->machine.cpus);
	s->base_slice = cfg->tun.base_slice_ns * s->factor;
	s->latency = cfg->tun.latency_ns * s->factor;
	s->min_gran = cfg->tun.min_granularity_ns * s->factor;
	s->wakeup_gran = cfg->tun.wakeup_granularity_ns * s->factor;
	/* sched_nr_latency = latency / min_granularity (DIV_ROUND_UP in update_sysctl) */
	s->nr_latency = (unsigned)((s->latency + s->min_gran - 1) / s->min_gran);
	s->tick_ns = (1000000000ull + cfg->tun.hz / 2) / cfg->tun.hz;
	s->mask_words = ((size_t)s->ncpu + 63) / 64;
	s->cpu = calloc((size_t)s->ncpu, sizeof(*s->cpu));
	s->changed = calloc((size_t)s->ncpu, sizeof(*s->changed));
	s->replan = calloc((size_t)s->ncpu, sizeof(*s->replan));
	s->theap = calloc((size_t)s->ncpu, sizeof(*s->theap));
	s->hpos = calloc((size_t)s->ncpu, sizeof(*s->hpos));
	s->all_mask = calloc(s->mask_words, sizeof(uint64_t));
	s->idle_mask = calloc(s->mask_words, sizeof(uint64_t));
	s->mark_mask = calloc(s->mask_words, sizeof(uint64_t));
	if (!s->cpu || !s->changed || !s->replan || !s->theap || !s->hpos || !s->all_mask ||
	    !s->idle_mask || !s->mark_mask)
		goto fail;
	for (int c = 0; c < s->ncpu; c++)
		s->all_mask[c / 64] |= 1ull << (c % 64);
	memcpy(s->idle_mask, s->all_mask, s->mask_words * sizeof(uint64_t));
	memcpy(s->mark_mask, s->all_mask, s->mask_words * sizeof(uint64_t));	/* no tick yet */
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		rq->id = c;
		rq->next_tick = UINT64_MAX;
		rq->dirty_from = UINT64_MAX;
		/* a stream of its own per seed and CPU (the kernel seeds each CPU's at boot) */
		rq->ni_rng = sched__mix64(cfg->seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(c + 1)));
		sched__theap_set(s, c, c);
	}
	if (sched__sd_build(s))
		goto fail;
	s->tmin = 0;	/* every CPU's next tick is UINT64_MAX, ties in CPU order */
	s->nr_idle = s->ncpu;
	s->jitter = cfg->seed;
	if (sched__grow((void **)&s->tg, &s->ntg, 0, sizeof(*s->tg)))
		goto fail;
	s->tg[0] = sched__tg_alloc(s, 0, NULL, SCHED_NICE_0_WEIGHT, false, 0);
	if (!s->tg[0])
		goto fail;
	for (int c = 0; c < s->ncpu; c++)
		s->cpu[c].cfs = s->tg[0]->cfs_rq[c];
	return s;
fail:
	sched_free(s);
	return NULL;
}

void sched_free(struct sched *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nthr; i++) {
		if (s->thr[i]) {
			free(s->thr[i]->affinity);
			free(s->thr[i]);
		}
	}
	for (int i = 0; i < s->ntg; i++)
		sched__tg_release(s, s->tg[i]);
	for (int c = 0; s->cpu && c < s->ncpu; c++)
		free(s->cpu[c].leaf);
	sched__sd_free(s);
	sched__lines_release(s);	/* after the groups, whose queues and entities it holds */
	free(s->thr);
	free(s->tg);
	free(s->bw_tgs);
	free(s->cpu);
	free(s->changed);
	free(s->replan);
	free(s->theap);
	free(s->hpos);
	free(s->all_mask);
	free(s->idle_mask);
	free(s->mark_mask);
	free(s);
}

const struct sched_config *sched_config(const struct sched *s)
{
	return &s->cfg;
}

static uint64_t clamp_slice(uint64_t slice)
{
	if (!slice)
		return 0;
	/* __setparam_fair(): sched_runtime clamped to [0.1 ms, 100 ms] */
	return slice < 100000 ? 100000 : slice > 100000000 ? 100000000 : slice;
}

/*
 * A task's weight set outside a queue (a thread not yet enqueued): under the flat pick its
 * h_load starts as its own weight, and its rate follows h_load, not the nice table.
 */
static void task_set_weight(struct sched *s, struct sched_thread *t, uint64_t w, uint32_t wm)
{
	sched__set_weight(&t->se, w, wm);
	if (s->ops->flat)
		sched__flat_set_h(&t->se, w);
}

static void task_weight(struct sched_thread *t, uint64_t *w, uint32_t *wmult)
{
	if (t->policy == SCHED_THREAD_IDLE) {
		*w = (uint64_t)SCHED_WEIGHT_IDLEPRIO << SCHED_LOAD_SHIFT;
		*wmult = 1431655765;	/* WMULT_IDLEPRIO: 2^32 / 3 */
	} else {
		*w = (uint64_t)sched_nice_weight(t->nice) << SCHED_LOAD_SHIFT;
		*wmult = sched_nice_wmult(t->nice);
	}
}

int sched_thread_new(struct sched *s, int tid, int tgid, int nice, uint64_t slice_ns,
		     uint64_t now)
{
	struct sched_tg *tg = sched__tg_get(s, tgid);
	struct sched_thread *t;
	uint64_t w;
	uint32_t wm;
	int err;

	if (tid < 0 || nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	if (!tg)
		return -ENOENT;
	if (sched__thr_get(s, tid))
		return -EEXIST;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (sched__grow((void **)&s->thr, &s->nthr, tid, sizeof(*s->thr)))
		return -ENOMEM;
	if (s->thr[tid]) {
		free(s->thr[tid]->affinity);
		free(s->thr[tid]);
		s->thr[tid] = NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->affinity = malloc(s->mask_words * sizeof(uint64_t));
	if (!t->affinity) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->affinity, s->all_mask, s->mask_words * sizeof(uint64_t));
	t->tid = tid;
	t->nice = nice;
	t->tg = tg;
	t->alive = true;
	t->new_task = true;
	t->last_wakee = -1;
	t->recent_used_cpu = -1;
	t->st.cpu = -1;
	t->se.task = t;
	t->se.slice = clamp_slice(slice_ns);
	t->se.custom_slice = slice_ns != 0;
	if (!t->se.custom_slice)
		t->se.slice = s->base_slice;
	rb_node_clear(&t->se.node);
	task_weight(t, &w, &wm);
	task_set_weight(s, t, w, wm);
	tg->nthreads++;
	s->thr[tid] = t;
	sched__finish(s);
	return 0;
}

static void reweight_task(struct sched *s, struct sched_thread *t, uint64_t now)
{
	uint64_t w;
	uint32_t wm;

	task_weight(t, &w, &wm);
	if (t->se.on_rq) {
		update_curr(s, t->cpu, now);
		reweight_entity(s, &t->se, w, wm, now);
		for (struct sched_entity *se = t->se.parent; se; se = se->parent)
			update_cfs_group(s, se, now);
		if (s->ops->flat)	/* reweight_task_fair() (7.3): h_load too */
			sched__flat_reweight(s, t);
	} else {
		uint64_t old_wd = t->se.wd;

		s->ops->reweight(s, t->se.cfs_rq, &t->se, w, wm);
		sched__reweight_load(s, &t->se, old_wd, now);
		if (t->cpu)
			sched__rq_dirty_quiet(s, t->cpu, now);
	}
}

int sched_thread_set_nice(struct sched *s, int tid, int nice, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	int err, old;

	if (!t)
		return -ENOENT;
	if (nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	err = sched__enter(s, now);
	if (err)
		return err;
	old = t->nice;
	t->nice = nice;
	if (t->se.cfs_rq || !t->new_task)
		reweight_task(s, t, now);
	else
		task_set_weight(s, t, (uint64_t)sched_nice_weight(nice) << SCHED_LOAD_SHIFT,
				sched_nice_wmult(nice));
	/* prio_changed_fair() */
	if (t->st.running) {
		if (nice > old)
			t->cpu->resched = true;
	} else if (t->runnable) {
		wakeup_preempt_fair(s, t->cpu, t, false);
	}
	if (t->cpu) {
		sched__rq_dirty(s, t->cpu, now);
		sched__resched_if_needed(s, t->cpu, now);
	}
	sched__finish(s);
	return 0;
}

int sched_thread_set_slice(struct sched *s, int tid, uint64_t slice_ns, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	struct cfs_rq *tq;
	bool requeue;
	int err;

	if (!t)
		return -ENOENT;
	err = sched__enter(s, now);
	if (err)
		return err;
	/* the timeline's minimum slice must see it: out with the old slice, in with the new */
	tq = s->ops->flat ? (t->cpu ? t->cpu->cfs : NULL) : t->se.cfs_rq;
	requeue = t->se.on_rq && tq->curr != &t->se && s->ops->augmented;
	if (s->ops->flat)	/* the root's tree, unless throttled out of it */
		requeue = t->se.on_rq && !rb_node_is_clear(&t->se.node);
	if (requeue)
		s->ops->tree_del(tq, &t->se);
	t->se.custom_slice = slice_ns != 0;
	t->se.slice = slice_ns ? clamp_slice(slice_ns) : s->base_slice;
	if (requeue)
		s->ops->tree_add(tq, &t->se);
	if (t->cpu)
		sched__rq_dirty(s, t->cpu, now);
	sched__finish(s);
	return 0;
}

int sched_thread_set_policy(struct sched *s, int tid, enum sched_thread_policy pol, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	bool was_idle;
	int err;

	if (!t)
		return -ENOENT;
	if (pol != SCHED_THREAD_NORMAL && pol != SCHED_THREAD_BATCH && pol != SCHED_THREAD_IDLE)
		return -EINVAL;
	err = sched__enter(s, now);
	if (err)
		return err;
	was_idle = t->policy == SCHED_THREAD_IDLE;
	if (t->runnable)
		sched__account_runnable(&t->se, -1, was_idle);
	t->policy = pol;
	t->se.idle = pol == SCHED_THREAD_IDLE;
	s->any_idle |= t->se.idle;
	if (t->runnable)
		sched__account_runnable(&t->se, 1, t->se.idle);
	if (t->se.cfs_rq)
		reweight_task(s, t, now);
	else {
		uint64_t w;
		uint32_t wm;

		task_weight(t, &w, &wm);
		task_set_weight(s, t, w, wm);
	}
	if (t->cpu) {
		if (t->st.running)
			t->cpu->resched = true;
		sched__rq_dirty(s, t->cpu, now);
		sched__resched_if_needed(s, t->cpu, now);
	}
	sched__finish(s);
	return 0;
}

/*
 * Take a runnable (or delayed) thread off its CPU entirely, the running one included, so that
 * it can be put back elsewhere or go. A running thread's chain is put and the CPU counts as
 * idle until schedule(..., detached) runs. Returns whether it was running; a delayed thread
 * is left asleep (t->runnable false).
 */
static bool detach_runnable(struct sched *s, struct sched_thread *t, uint64_t now)
{
	struct sched_cpu *rq = t->cpu;
	bool running = rq->curr == t;

	update_curr(s, rq, now);
	if (running) {
		put_prev_task_fair(s, t);
		rq->curr = NULL;
		sched__idle_count(s, rq, 1);
	}
	if (t->se.sched_delayed)
		sched__finish_delayed(s, t, now);
	else
		dequeue_task_fair(s, t, false, true, now);
	sched__rq_dirty(s, rq, now);
	return running;
}

/* Put a detached runnable thread on @rq; @old is where it was, @was_running whether it ran. */
static void attach_runnable(struct sched *s, struct sched_thread *t, struct sched_cpu *rq,
			    bool was_running, struct sched_cpu *old, uint64_t now)
{
	update_curr(s, rq, now);
	set_task_cpu(s, t, rq, now);
	enqueue_task_fair(s, t, false, false, now);
	if (old != rq) {
		t->st.migrations++;
		s->st.migrations++;
		sched__trace_task(s, SCHED_TRACE_MIGRATE, old->id, false, t, old->id, rq->id, now);
	}
	if (was_running && old == rq) {
		schedule(s, rq, now, t);
	} else {
		if (was_running)
			schedule(s, old, now, t);
		wakeup_preempt_fair(s, rq, t, false);
	}
	sched__rq_dirty(s, rq, now);
	sched__resched_if_needed(s, rq, now);
}

/* Detach then re-attach on @dst (NULL: choose with select_cpu) or drop if it was delayed. */
static void relocate(struct sched *s, struct sched_thread *t, struct sched_cpu *dst, uint64_t now)
{
	struct sched_cpu *old = t->cpu;
	bool running = detach_runnable(s, t, now);

	if (t->runnable) {
		attach_runnable(s, t, dst ? dst : select_task_rq_fair(s, t, -1, now), running, old,
				now);
	} else {
		if (running)
			schedule(s, old, now, t);
		sched__resched_if_needed(s, old, now);
	}
}

/* sched__relocate() - move runnable @t, running or not, to @dst (active balancing). */
void sched__relocate(struct sched *s, struct sched_thread *t, struct sched_cpu *dst, uint64_t now)
{
	relocate(s, t, dst, now);
}

int sched_thread_set_affinity(struct sched *s, int tid, const uint64_t *mask, size_t nwords,
			      uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	bool any = false;
	int err;

	if (!t)
		return -ENOENT;
	for (int c = 0; c < s->ncpu; c++)
		if ((size_t)(c / 64) < nwords && ((mask[c / 64] >> (c % 64)) & 1))
			any = true;
	if (!any)
		return -EINVAL;
	err = sched__enter(s, now);
	if (err)
		return err;
	for (size_t w = 0; w < s->mask_words; w++)
		t->affinity[w] = (w < nwords ? mask[w] : 0) & s->all_mask[w];
	if (t->cpu && !cpu_allowed(t, t->cpu->id) && (t->runnable || t->se.sched_delayed))
		relocate(s, t, NULL, now);
	sched__finish(s);
	return 0;
}

int sched_thread_move(struct sched *s, int tid, int tgid, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	struct sched_tg *tg = sched__tg_get(s, tgid);
	int err;

	if (!t || !tg)
		return -ENOENT;
	if (t->tg == tg)
		return 0;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (t->runnable || t->se.sched_delayed) {
		struct sched_cpu *rq = t->cpu;
		bool running = detach_runnable(s, t, now);

		t->tg->nthreads--;
		t->tg = tg;
		tg->nthreads++;
		if (t->runnable) {
			attach_runnable(s, t, rq, running, rq, now);
		} else {
			set_task_cpu(s, t, rq, now);
			if (running)
				schedule(s, rq, now, t);
			sched__resched_if_needed(s, rq, now);
		}
	} else {
		t->tg->nthreads--;
		if (t->cpu) {
			struct cfs_rq *from = t->se.cfs_rq;

			t->tg = tg;
			set_task_cpu(s, t, t->cpu, now);
			s->ops->migrate(s, from, t->se.cfs_rq, &t->se);
		} else {
			t->tg = tg;
		}
		tg->nthreads++;
	}
	sched__finish(s);
	return 0;
}

int sched_thread_exit(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	int err;

	if (!t)
		return -ENOENT;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (t->runnable || t->se.sched_delayed) {
		struct sched_cpu *rq = t->cpu;
		bool running = detach_runnable(s, t, now);

		t->runnable = false;
		t->exiting = true;
		if (running)
			schedule(s, rq, now, t);
		sched__resched_if_needed(s, rq, now);
	}
	detach_entity_load_avg(s, t, now);	/* task_dead_fair(): remove_entity_load_avg() */
	t->tg->nthreads--;
	t->alive = false;
	sched__finish(s);
	return 0;
}

int sched_wakeup(struct sched *s, int tid, uint64_t now)
{
	return sched_wakeup_timed(s, tid, now, now, 0);
}

/*
 * requeue_delayed_entity() runs no update_curr() on its queue, whether ttwu_runnable() calls it
 * for a delayed task or enqueue_task_fair() for a delayed group entity on the way up: the lag
 * it clips is taken against V as of curr's last update, its last tick or event. So account
 * curr only to its last tick; check_preempt_wakeup_fair()'s update_curr() brings it up to now
 * after the requeue (docs/latency.md).
 */
static void account_to_last_update(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	uint64_t upto = s->in_tick && now ? now - 1 : now;

	sched__rq_account_to(s, rq, upto, umin(grid_floor(s, upto), now));
}

/* Does enqueuing @t on @rq stop at a delayed group entity (and so requeue it)? */
static bool meets_delayed_group(const struct sched_thread *t, const struct sched_cpu *rq)
{
	const struct sched_entity *se = t->tg->se ? t->tg->se[rq->id] : NULL;

	while (se && !se->on_rq)
		se = se->parent;
	return se && se->sched_delayed;
}

/*
 * ttwu_runnable(): @t is still queued, delayed (DELAY_DEQUEUE), on the CPU it last ran on: it
 * becomes runnable where it is, with no CPU chosen and no enqueue.
 */
static void ttwu_runnable(struct sched *s, struct sched_thread *t, int waker_cpu, uint64_t now)
{
	struct sched_cpu *rq = t->cpu;

	sched__trace_task(s, SCHED_TRACE_WAKING, waker_cpu >= 0 ? waker_cpu : rq->id,
			  waker_cpu < 0, t, -1, rq->id, now);
	account_to_last_update(s, rq, now);
	sched__requeue_delayed(s, t, now);
	update_curr(s, rq, now);
	t->runnable = true;
	/*
	 * enqueue_task_fair() stops at once, then walks every level updating averages; under
	 * the flat pick (ENQUEUE_DELAYED) it requeues on the root and returns
	 */
	sched__rq_charge_wakeup(s, rq, now,
				(struct sched_walk){ 0, s->ops->flat ? 1 : levels_of(t) });
	wakeup_preempt_fair(s, rq, t, false);
	sched__trace_task(s, SCHED_TRACE_WAKEUP, waker_cpu >= 0 ? waker_cpu : rq->id,
			  waker_cpu < 0, t, -1, rq->id, now);
	sched__rq_dirty(s, rq, now);
	sched__resched_if_needed(s, rq, now);
}

/*
 * set_task_cpu() for a waking @t, @rq chosen: a move to another CPU is a migration, which the
 * policy, the counters and the trace (in @waker's context, @irq) see.
 */
static void ttwu_set_cpu(struct sched *s, struct sched_thread *t, struct sched_cpu *rq,
			 int waker, bool irq, uint64_t now)
{
	if (t->cpu && t->cpu != rq) {
		struct cfs_rq *from = t->se.cfs_rq;
		int orig = t->cpu->id;	/* set_task_cpu()'s task_cpu(p): where it last ran */

		set_task_cpu(s, t, rq, now);
		s->ops->migrate(s, from, t->se.cfs_rq, &t->se);
		t->st.migrations++;
		s->st.migrations++;
		sched__trace_task(s, SCHED_TRACE_MIGRATE, waker, irq, t, orig, rq->id, now);
	} else {
		set_task_cpu(s, t, rq, now);
	}
}

/*
 * ttwu_do_activate() (wake_up_new_task()'s for a @fork): enqueue @t on @rq, which an idle CPU
 * leaves @idle_exit_ns late, charge the wakeup, check preemption and reschedule. @stale: the
 * enqueue requeues a delayed group entity, so curr is brought up to now only after it.
 */
static void ttwu_do_activate(struct sched *s, struct sched_thread *t, struct sched_cpu *rq,
			     bool fork, bool stale, uint64_t idle_exit_ns, int waker, bool irq,
			     uint64_t now)
{
	struct sched_walk w;

	if (!rq->curr && idle_exit_ns) {
		/* the CPU leaves its idle state before it can switch to anything */
		rq->exec_start = umax(rq->exec_start, now) + idle_exit_ns;
	}
	t->runnable = true;
	t->st.runnable = true;
	t->st.cpu = rq->id;
	w = enqueue_task_fair(s, t, fork, !fork, now);
	if (stale)
		update_curr(s, rq, now);
	t->new_task = false;
	sched__rq_charge_wakeup(s, rq, now, w);
	wakeup_preempt_fair(s, rq, t, fork);
	sched__trace_task(s, fork ? SCHED_TRACE_WAKEUP_NEW : SCHED_TRACE_WAKEUP, waker, irq, t, -1,
			  rq->id, now);
	sched__rq_dirty(s, rq, now);
	sched__resched_if_needed(s, rq, now);
}

/*
 * try_to_wake_up() (wake_up_new_task() for a thread that never ran), for sched_wakeup_timed()
 * and sched_wakeup_by(); @waker_cpu -1: a timer's.
 */
static int try_to_wake_up(struct sched *s, int tid, uint64_t now, uint64_t due,
			  uint64_t idle_exit_ns, int waker_cpu)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	struct sched_cpu *rq;
	bool fork, stale, irq;
	int err, waker;

	if (!t)
		return -ENOENT;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (t->runnable) {
		sched__finish(s);
		return 0;
	}
	t->wake_time = umin(due, now);
	t->wait_start = now;
	t->latency_pending = true;
	if (t->se.sched_delayed) {
		ttwu_runnable(s, t, waker_cpu, now);
		sched__finish(s);
		return 0;
	}
	fork = t->new_task;
	if (fork)	/* init_entity_runnable_average(): a new task starts with full load */
		pelt_init_full(&t->se.ravg, now);
	rq = select_task_rq_fair(s, t, waker_cpu, now);
	/* the context: the waking thread's CPU, or where the sleeper's timer fires */
	waker = waker_cpu >= 0 ? waker_cpu : t->cpu ? t->cpu->id : rq->id;
	/* no waking thread: the machine's timer fires, in interrupt context (not at a start) */
	irq = waker_cpu < 0 && !fork;
	/*
	 * try_to_wake_up() writes sched_waking before select_task_rq(): its target_cpu is
	 * task_cpu(p), where the thread last ran. wake_up_new_task() writes none.
	 */
	if (!fork)
		sched__trace_task(s, SCHED_TRACE_WAKING, waker, irq, t, -1,
				  t->cpu ? t->cpu->id : rq->id, now);
	stale = meets_delayed_group(t, rq);
	if (stale)
		account_to_last_update(s, rq, now);
	else
		update_curr(s, rq, now);
	ttwu_set_cpu(s, t, rq, waker, irq, now);
	ttwu_do_activate(s, t, rq, fork, stale, idle_exit_ns, waker, irq, now);
	sched__finish(s);
	return 0;
}

int sched_wakeup_timed(struct sched *s, int tid, uint64_t now, uint64_t due,
		       uint64_t idle_exit_ns)
{
	return try_to_wake_up(s, tid, now, due, idle_exit_ns, -1);
}

int sched_wakeup_by(struct sched *s, int tid, int waker, uint64_t now, uint64_t idle_exit_ns)
{
	const struct sched_thread *w = sched__thr_get(s, waker);

	return try_to_wake_up(s, tid, now, now, idle_exit_ns,
			      w && w->cpu && w->cpu->curr == w ? w->cpu->id : -1);
}

int sched_sleep(struct sched *s, int tid, uint64_t now)
{
	struct sched_thread *t = sched__thr_get(s, tid);
	struct sched_cpu *rq;
	/* a delayed dequeue stops at the task (dequeue_entities() returns at once) */
	struct sched_walk w = { 0, 1 };
	bool running;
	int err;

	if (!t)
		return -ENOENT;
	err = sched__enter(s, now);
	if (err)
		return err;
	if (!t->runnable) {
		sched__finish(s);
		return 0;
	}
	rq = t->cpu;
	update_curr(s, rq, now);
	running = rq->curr == t;
	if (!running)
		t->st.wait_ns += now - umin(t->wait_start, now);
	if (!sched__try_delay_dequeue(s, t))
		w = dequeue_task_fair(s, t, true, true, now);
	else
		sched__runnable_changed(s, &t->se, now);	/* delayed: no longer runnable */

	t->runnable = false;
	t->st.runnable = false;
	t->latency_pending = false;
	sched__rq_charge_overhead(s, rq, now, s->cfg.cost.sleep_ns, w);
	if (running)
		rq->resched = true;
	sched__rq_dirty(s, rq, now);
	sched__resched_if_needed(s, rq, now);
	sched__finish(s);
	return 0;
}

int sched_cpu_curr(const struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->ncpu || !s->cpu[cpu].curr)
		return -1;
	return s->cpu[cpu].curr->tid;
}

int sched_thread_tg(const struct sched *s, int tid, uint32_t *weight)
{
	const struct sched_thread *t = sched__thr_get(s, tid);

	if (!t)
		return -ENOENT;
	if (weight)
		*weight = (uint32_t)(t->se.weight >> SCHED_LOAD_SHIFT);
	return t->tg->id;
}

int sched_thread_stats(const struct sched *s, int tid, struct sched_thread_stats *out)
{
	const struct sched_thread *t = sched__thr_get(s, tid);

	if (!t)
		return -ENOENT;
	*out = t->st;
	out->sum_exec_ns = t->se.sum_exec;
	out->cpu = t->cpu ? t->cpu->id : -1;
	out->running = t->cpu && t->cpu->curr == t;
	out->runnable = t->runnable;
	return 0;
}

uint64_t sched_thread_wait(const struct sched *s, int tid, uint64_t now)
{
	const struct sched_thread *t = sched__thr_get(s, tid);
	uint64_t w;

	if (!t)
		return 0;
	w = t->st.wait_ns;
	if (t->runnable && !(t->cpu && t->cpu->curr == t) && now > t->wait_start)
		w += now - t->wait_start;
	return w;
}

void sched_set_wait_hook(struct sched *s, sched_wait_fn *fn, void *ctx)
{
	s->wait_fn = fn;
	s->wait_ctx = ctx;
}

void sched_set_latency_hook(struct sched *s, sched_latency_fn *fn, void *ctx)
{
	s->latency_fn = fn;
	s->latency_ctx = ctx;
}

void sched_set_trace_hook(struct sched *s, sched_trace_fn *fn, void *ctx)
{
	s->trace_fn = fn;
	s->trace_ctx = ctx;
}

/* p->prio of a fair task: NICE_TO_PRIO(nice), whatever its policy among the fair ones */
static int kernel_prio(const struct sched_thread *t)
{
	return 120 + t->nice;
}

void sched__trace_switch(struct sched *s, struct sched_cpu *rq, const struct sched_thread *prev,
			 const struct sched_thread *next, uint64_t now)
{
	struct sched_trace_event ev = { .kind = SCHED_TRACE_SWITCH, .at = now, .cpu = rq->id,
					.tid = -1, .prio = 120, .prev = -1, .prev_prio = 120 };

	if (!s->trace_fn)
		return;
	if (prev) {
		ev.prev = prev->tid;
		ev.prev_prio = kernel_prio(prev);
		ev.prev_state = prev->exiting ? SCHED_TRACE_EXITED
			      : prev->runnable ? SCHED_TRACE_PREEMPTED : SCHED_TRACE_SLEEPING;
	}
	if (next) {
		ev.tid = next->tid;
		ev.prio = kernel_prio(next);
	}
	s->trace_fn(s->trace_ctx, &ev);
}

void sched__trace_task(struct sched *s, enum sched_trace_kind kind, int cpu, bool irq,
		       const struct sched_thread *t, int orig_cpu, int dest_cpu, uint64_t now)
{
	struct sched_trace_event ev = { .kind = kind, .at = now, .cpu = cpu, .tid = t->tid,
					.prio = kernel_prio(t), .prev = -1, .orig_cpu = orig_cpu,
					.dest_cpu = dest_cpu, .irq = irq };

	if (s->trace_fn)
		s->trace_fn(s->trace_ctx, &ev);
}
