// SPDX-License-Identifier: MIT
/*
 * scheduler/balance.c - kernel/sched/fair.c: load balancing, one domain at a time:
 * sched_balance_rq() at a level of the scheduling domains (scheduler/sd.c) with the kernel's
 * statistics, group classes and imbalance, the tasks it detaches and moves; and the fork
 * path's search for a new task's CPU (sched_balance_find_dst_cpu()). When it runs (periodic,
 * new-idle, NOHZ) is balance_domains.c's. docs/scheduler.md, "SMP", and docs/topology.md.
 *
 * What a machine without a shape has is one domain of single-CPU groups spanning every CPU,
 * where these rules reduce to what cgsim did before it modelled topology.
 */
#include <string.h>

#include "scheduler/sched_internal.h"
#include "scheduler/topology.h"

#define F(x)		(1u << TOPO_SD_##x)
#define CAPACITY	1024u	/* SCHED_CAPACITY_SCALE: no RT, IRQ or thermal pressure */
#define NR_MIGRATE_BREAK 32u	/* SCHED_NR_MIGRATE_BREAK */
#define NUMA_IMBALANCE_MIN 2	/* adjust_numa_imbalance() */
#define MAX_PINNED_INTERVAL_NS (512 * NSEC_PER_MSEC)	/* MAX_PINNED_INTERVAL */

static bool in_mask(const uint64_t *m, int cpu)
{
	return m[cpu / 64] >> (cpu % 64) & 1;
}

/* ---- statistics of the sched groups --------------------------------------------------------- */

/* enum group_type, in the kernel's order; misfit and asym packing have no cause here */
enum group_type {
	GROUP_HAS_SPARE,
	GROUP_FULLY_BUSY,
	GROUP_MISFIT_TASK,
	GROUP_SMT_BALANCE,
	GROUP_ASYM_PACKING,
	GROUP_IMBALANCED,
	GROUP_OVERLOADED,
};
enum migration_type { MIGRATE_LOAD, MIGRATE_UTIL, MIGRATE_TASK };

/* LBF_* */
#define LBF_ALL_PINNED	0x01u
#define LBF_NEED_BREAK	0x02u
#define LBF_DST_PINNED	0x04u
#define LBF_SOME_PINNED	0x08u

struct sg_stats {
	uint64_t avg_load;	/* load x SCALE / capacity, overloaded groups only */
	uint64_t load;		/* sum of cpu_load(): the root queues' load_avg */
	uint64_t util, runnable, capacity;
	unsigned nr;		/* sum_nr_running */
	unsigned h_nr;		/* sum_h_nr_running: CFS tasks */
	unsigned idle_cpus;
	int weight;
	enum group_type type;
};

struct lb_env {
	struct sched_cpu *dst_rq, *src;
	struct sched_sd *sd;		/* the domain as dst's CPU holds it */
	struct sched_sd *parent;	/* its parent, NULL at the top */
	const struct sched_dom *d;
	const struct sched_sg *dst_grp;	/* dst_grpmask: the local group */
	uint64_t *cpus;			/* env->cpus: the span less the CPUs given up on */
	enum lb_idle idle;
	enum migration_type type;
	int64_t imbalance;
	unsigned flags;
	int new_dst;
	unsigned loop, loop_max, loop_break;
};

/* group_is_overloaded(), group_has_capacity() */
static bool group_is_overloaded(unsigned pct, const struct sg_stats *g)
{
	return g->nr > (unsigned)g->weight &&
	       (g->capacity * 100 < g->util * pct || g->capacity * pct < g->runnable * 100);
}

static bool group_has_capacity(unsigned pct, const struct sg_stats *g)
{
	if (g->nr < (unsigned)g->weight)
		return true;
	if (g->capacity * pct < g->runnable * 100)
		return false;
	return g->capacity * 100 > g->util * pct;
}

/* group_classify() */
static enum group_type group_classify(unsigned pct, const struct sched_sg *sg,
				      const struct sg_stats *g, bool smt_balance)
{
	if (group_is_overloaded(pct, g))
		return GROUP_OVERLOADED;
	if (sg->imbalance)
		return GROUP_IMBALANCED;
	if (smt_balance)
		return GROUP_SMT_BALANCE;
	if (!group_has_capacity(pct, g))
		return GROUP_FULLY_BUSY;
	return GROUP_HAS_SPARE;
}

/* One CPU's part of a group's statistics, its averages brought up to @now. */
static void cpu_stats(struct sched_cpu *rq, uint64_t now, struct sg_stats *g)
{
	pelt_update(&rq->cfs->avg, now);
	pelt_update_event(&rq->util, now);
	pelt_update_event(&rq->runnable, now);
	g->load += rq->cfs->avg.avg;
	g->util += umin(rq->util.avg, CAPACITY);	/* cpu_util_cfs(): at most the capacity */
	g->runnable += rq->runnable.avg;
	g->nr += rq->nr_running;
	g->h_nr += rq->cfs->h_nr_runnable;
	g->idle_cpus += idle_cpu(rq);
}

/* update_sg_lb_stats() over the CPUs of @sg still in env->cpus. */
static void update_sg_lb_stats(struct sched *s, struct lb_env *env, const struct sched_sg *sg,
			       struct sg_stats *g, bool local, uint64_t now)
{
	bool smt;

	*g = (struct sg_stats){ .capacity = sg->capacity, .weight = sg->weight };
	for (int i = 0; i < sg->weight; i++)
		if (in_mask(env->cpus, sg->cpus[i]))
			cpu_stats(&s->cpu[sg->cpus[i]], now, g);
	/* smt_balance(): an idle CPU may take the second task of an SMT core */
	smt = !local && env->idle != LB_NOT_IDLE && (sg->flags & F(SHARE_CPUCAPACITY)) &&
	      g->h_nr > 1;
	g->type = group_classify(env->d->imbalance_pct, sg, g, smt);
	if (g->type == GROUP_OVERLOADED)
		g->avg_load = g->load * CAPACITY / g->capacity;
}

/* smt_vs_nonsmt_groups() */
static bool smt_vs_nonsmt_groups(const struct sched_sg *a, const struct sched_sg *b)
{
	return a && b && ((a->flags ^ b->flags) & F(SHARE_CPUCAPACITY));
}

struct sd_stats {
	const struct sched_sg *busiest, *local;
	struct sg_stats b, l;
	uint64_t total_load, total_capacity, avg_load, sum_util;
	bool prefer_sibling;
};

/* update_sd_pick_busiest(): whether @sg (statistics @g) is busier than the busiest so far. */
static bool update_sd_pick_busiest(const struct sd_stats *sds, const struct sched_sg *sg,
				   const struct sg_stats *g)
{
	const struct sg_stats *b = &sds->b;

	if (!g->h_nr)
		return false;	/* nothing to pull */
	if (!sds->busiest)
		return true;	/* busiest_stat starts as has_spare with UINT_MAX idle CPUs */
	if (g->type != b->type)
		return g->type > b->type;
	switch (g->type) {
	case GROUP_OVERLOADED:
		return g->avg_load > b->avg_load;
	case GROUP_IMBALANCED:
		return false;	/* the first one wins */
	case GROUP_SMT_BALANCE:
		if (g->idle_cpus || b->idle_cpus)
			goto has_spare;
		/* fallthrough */
	case GROUP_FULLY_BUSY:
		/* avg_load is 0 below overloaded: the last group wins, an SMT one is kept */
		return !(sds->busiest->flags & F(SHARE_CPUCAPACITY));
	case GROUP_HAS_SPARE:
		/* do not pick an SMT core running one task over a group of single CPUs */
		if (smt_vs_nonsmt_groups(sds->busiest, sg))
			return !((sg->flags & F(SHARE_CPUCAPACITY)) && g->h_nr <= 1);
has_spare:
		return g->idle_cpus < b->idle_cpus ||
		       (g->idle_cpus == b->idle_cpus && g->nr > b->nr);
	default:
		return false;
	}
}

/* update_sd_lb_stats(): the local group's and the busiest group's statistics, the totals. */
static void update_sd_lb_stats(struct sched *s, struct lb_env *env, struct sd_stats *sds,
			       uint64_t now)
{
	const struct sched_dom *d = env->d;
	int ng = d->ngroups, local = env->sd->local;

	*sds = (struct sd_stats){ 0 };
	/* the ring: the local group first, then the others in CPU order, wrapping */
	for (int k = 0; k < ng; k++) {
		const struct sched_sg *sg = d->groups[(local + k) % ng];
		struct sg_stats g;

		update_sg_lb_stats(s, env, sg, &g, k == 0, now);
		if (k == 0) {
			sds->local = sg;
			sds->l = g;
		} else if (update_sd_pick_busiest(sds, sg, &g)) {
			sds->busiest = sg;
			sds->b = g;
		}
		sds->total_load += g.load;
		sds->total_capacity += g.capacity;
		sds->sum_util += g.util;
	}
	/* the busiest group's flags are its child domain's: prefer siblings below NUMA levels */
	if (sds->busiest)
		sds->prefer_sibling = sds->busiest->flags & F(PREFER_SIBLING);
}

/*
 * sibling_imbalance(): the tasks to move so that both groups run as many per core, rounded;
 * 2 when the local group is empty and the busiest has more than one. Only an idle CPU asks.
 */
static int64_t sibling_imbalance(const struct lb_env *env, const struct sd_stats *sds)
{
	int64_t nb = sds->busiest->cores, nl = sds->local->cores, imb;

	if (env->idle == LB_NOT_IDLE || !sds->b.nr)
		return 0;
	if (nb == nl)
		return sds->b.nr > sds->l.nr ? (int64_t)(sds->b.nr - sds->l.nr) : 0;
	imb = nl * sds->b.nr - nb * sds->l.nr;
	if (imb < 0)
		imb = 0;
	imb = (2 * imb + nl + nb) / (nl + nb);
	if (imb <= 1 && !sds->l.nr && sds->b.nr > 1)
		imb = 2;
	return imb;
}

/* adjust_numa_imbalance(): a NUMA level leaves a small imbalance to a node with room */
static int64_t adjust_numa_imbalance(int64_t imbalance, unsigned dst_running, unsigned imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	return imbalance <= NUMA_IMBALANCE_MIN ? 0 : imbalance;
}

/* calculate_imbalance(): what to move, and how much. */
static void calculate_imbalance(struct lb_env *env, struct sd_stats *sds)
{
	struct sg_stats *l = &sds->l, *b = &sds->b;

	if (b->type == GROUP_SMT_BALANCE || b->type == GROUP_IMBALANCED) {
		env->type = MIGRATE_TASK;
		env->imbalance = 1;
		return;
	}
	if (l->type == GROUP_HAS_SPARE) {
		if (b->type > GROUP_FULLY_BUSY && !(env->d->flags & F(SHARE_LLC))) {
			/* between LLCs: fill the local group's spare capacity with utilisation */
			env->type = MIGRATE_UTIL;
			env->imbalance = (int64_t)(umax(l->capacity, l->util) - l->util);
			if (env->idle != LB_NOT_IDLE && !env->imbalance) {
				env->type = MIGRATE_TASK;
				env->imbalance = 1;
			}
			return;
		}
		env->type = MIGRATE_TASK;
		if (b->weight == 1 || sds->prefer_sibling)
			env->imbalance = sibling_imbalance(env, sds);
		else
			env->imbalance = l->idle_cpus > b->idle_cpus ?
					 (int64_t)(l->idle_cpus - b->idle_cpus) : 0;
		if (env->d->flags & F(NUMA))
			env->imbalance = adjust_numa_imbalance(env->imbalance, l->nr + 1,
							       env->d->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}
	if (l->type < GROUP_OVERLOADED) {
		l->avg_load = l->load * CAPACITY / l->capacity;
		if (l->avg_load >= b->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = sds->total_load * CAPACITY / sds->total_capacity;
		if (l->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	env->type = MIGRATE_LOAD;
	env->imbalance = (int64_t)(umin((b->avg_load > sds->avg_load ? b->avg_load - sds->avg_load : 0) *
					b->capacity,
					(sds->avg_load > l->avg_load ? sds->avg_load - l->avg_load : 0) *
					l->capacity) / CAPACITY);
}

/*
 * update_idle_cpu_scan(): a periodic balance of an LLC domain sets how many of its CPUs a
 * wakeup's idle scan may look at (SIS_UTIL): with x the LLC's utilisation per CPU (of 1024),
 * y = 1024 - x^2 pct^2 / (10000 x 1024), at least 0, times the LLC's CPUs over 1024. The
 * scan stops at x = 1024 x 100 / pct: 85 % at pct 117.
 */
static void update_idle_cpu_scan(struct sched *s, const struct lb_env *env,
				 const struct sd_stats *sds)
{
	struct sched_dom *d = env->sd->d;
	uint64_t util = 0, x, tmp, y;

	if (!sched__feat(s, SCHED_FEAT_SIS_UTIL) || env->idle == LB_NEWLY_IDLE ||
	    env->dst_rq->llc < 0 || env->sd != &env->dst_rq->sd[env->dst_rq->llc])
		return;
	util = sds->sum_util;
	x = util / (uint64_t)d->weight;
	tmp = umin(x * x * d->imbalance_pct * d->imbalance_pct / (10000ull * CAPACITY), CAPACITY);
	y = (CAPACITY - tmp) * (uint64_t)d->weight / CAPACITY;
	d->nr_idle_scan = (int)y;
}

/* sched_balance_find_src_group() (find_busiest_group): the busiest group, or NULL. */
static const struct sched_sg *sched_balance_find_src_group(struct sched *s, struct lb_env *env,
							   struct sd_stats *sds, uint64_t now)
{
	struct sg_stats *l = &sds->l, *b = &sds->b;

	update_sd_lb_stats(s, env, sds, now);
	update_idle_cpu_scan(s, env, sds);
	if (!sds->busiest)
		return NULL;
	if (b->type == GROUP_IMBALANCED)
		goto force;
	if (l->type > b->type)
		return NULL;
	if (l->type == GROUP_OVERLOADED) {
		if (l->avg_load >= b->avg_load)
			return NULL;
		sds->avg_load = sds->total_load * CAPACITY / sds->total_capacity;
		if (l->avg_load >= sds->avg_load ||
		    100 * b->avg_load <= env->d->imbalance_pct * l->avg_load)
			return NULL;
	}
	if (sds->prefer_sibling && l->type == GROUP_HAS_SPARE && sibling_imbalance(env, sds) > 1)
		goto force;
	if (b->type != GROUP_OVERLOADED) {
		/* a busy CPU pulls only from an overloaded group */
		if (env->idle == LB_NOT_IDLE)
			return NULL;
		if (b->type == GROUP_SMT_BALANCE && smt_vs_nonsmt_groups(sds->local, sds->busiest))
			goto force;
		if (b->weight > 1 && l->idle_cpus <= b->idle_cpus + 1)
			return NULL;
		if (b->h_nr == 1)
			return NULL;
	}
force:
	calculate_imbalance(env, sds);
	return env->imbalance > 0 ? sds->busiest : NULL;
}

/* sched_balance_find_src_rq() (find_busiest_queue): the CPU of @sg to pull from. */
static struct sched_cpu *sched_balance_find_src_rq(struct sched *s, const struct lb_env *env,
						   const struct sched_sg *sg)
{
	struct sched_cpu *busiest = NULL;
	uint64_t best = 0;
	unsigned best_nr = 0;

	for (int i = 0; i < sg->weight; i++) {
		struct sched_cpu *rq = &s->cpu[sg->cpus[i]];
		unsigned nr = rq->cfs->h_nr_runnable;
		uint64_t v;

		if (!in_mask(env->cpus, rq->id) || !nr)
			continue;
		switch (env->type) {
		case MIGRATE_LOAD:
			/* a lone task heavier than the imbalance stays; equal capacities */
			v = rq->cfs->avg.avg;
			if (nr == 1 && v > (uint64_t)env->imbalance)
				break;
			if (!busiest || v > best) {
				best = v;
				busiest = rq;
			}
			break;
		case MIGRATE_UTIL:
			/* cpu_util_cfs_boost(): the larger of utilisation and runnable */
			v = umin(umax(rq->util.avg, rq->runnable.avg), CAPACITY);
			if (nr <= 1)
				continue;
			if (!busiest || best < v) {
				best = v;
				busiest = rq;
			}
			break;
		case MIGRATE_TASK:
			if (best_nr < nr) {
				best_nr = nr;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/* ---- moving tasks -------------------------------------------------------------------------- */

/* Move a queued, not running, not delayed task; the caller has asked can_migrate_task(). */
static void move_queued(struct sched *s, struct sched_thread *t, struct sched_cpu *dst,
			uint64_t now)
{
	struct sched_cpu *src = t->cpu;

	dequeue_task_fair(s, t, false, true, now);
	set_task_cpu(s, t, dst, now);	/* DO_DETACH, then DO_ATTACH at the enqueue */
	enqueue_task_fair(s, t, false, false, now);
	t->st.migrations++;
	s->st.migrations++;
	sched__trace_task(s, SCHED_TRACE_MIGRATE, dst->id, false, t, src->id, dst->id, now);
	sched__rq_dirty(s, src, now);
	sched__rq_dirty(s, dst, now);
	wakeup_preempt_fair(s, dst, t, false);
}

/*
 * task_hot(): a task that ran within migration_cost is cache hot, and so is the next buddy
 * (CACHE_HOT_BUDDY) when the destination has work; SCHED_IDLE tasks never are, nor is any
 * task between SMT siblings, which share their caches.
 */
static bool task_hot(struct sched *s, const struct sched_thread *t, const struct lb_env *env,
		     uint64_t now)
{
	if (t->policy == SCHED_THREAD_IDLE || (env->d->flags & F(SHARE_CPUCAPACITY)))
		return false;
	/*
	 * EEVDF kernels count only the next buddy; CFS ones the last buddy too. Under the flat
	 * pick the buddies are the root queue's, the only one that picks.
	 */
	const struct cfs_rq *bq = s->ops->flat ? t->cpu->cfs : t->se.cfs_rq;

	if (sched__feat(s, SCHED_FEAT_CACHE_HOT_BUDDY) && env->dst_rq->nr_running &&
	    (bq->next == &t->se || (s->ops->cfs_buddies && bq->last == &t->se)))
		return true;
	return t->last_ran && now - t->last_ran < s->cfg.tun.migration_cost_ns;
}

/* can_migrate_task() */
static bool can_migrate_task(struct sched *s, struct sched_thread *t, struct lb_env *env,
			     uint64_t now)
{
	if (t->se.sched_delayed)
		return false;	/* cgsim does not move a delayed task (docs/scheduler.md) */
	if (throttled_hierarchy(t->se.cfs_rq))
		return false;	/* throttled_lb_pair(): not on the CPU's books */
	/*
	 * task_is_ineligible_on_dst_cpu(): with PLACE_LAG, a task that has had more than its
	 * share of its queue stays, until a balance of this level has failed, rather than join
	 * its group's queue on the destination where that has entities queued. Under the flat
	 * pick (7.3) both sides are the root queues': the destination's queued tasks, the task's
	 * eligibility among its own CPU's.
	 */
	if (!env->sd->nr_balance_failed && s->ops->deadlines && sched__feat(s, SCHED_FEAT_PLACE_LAG) &&
	    (s->ops->flat ? sched__flat_nr(env->dst_rq->cfs) &&
				    !sched__flat_eligible(t)
			  : t->tg->cfs_rq[env->dst_rq->id]->nr_queued &&
				    !entity_eligible(t->se.cfs_rq, &t->se)))
		return false;
	if (!cpu_allowed(t, env->dst_rq->id)) {
		env->flags |= LBF_SOME_PINNED;
		/* remember a CPU of the local group it may use, for a second try there */
		if (env->idle != LB_NEWLY_IDLE && !(env->flags & LBF_DST_PINNED) && env->dst_grp) {
			for (int i = 0; i < env->dst_grp->weight; i++) {
				int c = env->dst_grp->cpus[i];

				if (in_mask(env->cpus, c) && cpu_allowed(t, c)) {
					env->flags |= LBF_DST_PINNED;
					env->new_dst = c;
					break;
				}
			}
		}
		return false;
	}
	env->flags &= ~LBF_ALL_PINNED;
	if (t->cpu->curr == t)
		return false;
	return !task_hot(s, t, env, now) || env->sd->nr_balance_failed > env->d->cache_nice_tries;
}

/* Move @t to the head of @rq's task list: detach_tasks() rotates the tasks it skips. */
static void list_rotate(struct sched_cpu *rq, struct sched_thread *t)
{
	if (rq->lhead == t)
		return;
	t->lprev->lnext = t->lnext;
	if (t->lnext)
		t->lnext->lprev = t->lprev;
	else
		rq->ltail = t->lprev;
	t->lprev = NULL;
	t->lnext = rq->lhead;
	rq->lhead->lprev = t;
	rq->lhead = t;
}

/*
 * task_util_est(): cgsim tracks no per-task utilisation (scheduler/shares.c); a queued task's
 * is its part of its CPU's utilisation in proportion to its runnable average, the estimate
 * that moves with it.
 */
static uint64_t task_util(const struct sched_thread *t)
{
	const struct sched_cpu *rq = t->cpu;
	uint64_t r = umax(rq->runnable.avg, 1024);

	return umin(rq->util.avg, 1024) * umin(t->se.ravg.avg, r) / r;
}

/* detach_tasks() + attach_tasks(): returns the number of tasks moved. */
static unsigned detach_tasks(struct sched *s, struct lb_env *env, uint64_t now)
{
	struct sched_cpu *src = env->src;
	unsigned moved = 0;

	if (src->nr_running <= 1) {
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	while (src->ltail && env->imbalance > 0) {
		struct sched_thread *t = src->ltail;
		bool take = false;

		/* don't steal all: the source would be treated likewise */
		if (env->idle != LB_NOT_IDLE && src->nr_running <= 1)
			break;
		env->loop++;
		if (env->loop > env->loop_max && !(env->flags & LBF_ALL_PINNED))
			break;
		if (env->loop > env->loop_break) {
			/* a breather every nr_migrate tasks: the kernel resumes, cgsim stops here */
			env->loop_break += NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		if (can_migrate_task(s, t, env, now)) {
			uint32_t failed = env->sd->nr_balance_failed;
			uint64_t v;

			switch (env->type) {
			case MIGRATE_LOAD:
				v = umax(task_h_load(t, now), 1);
				take = !(sched__feat(s, SCHED_FEAT_LB_MIN) && v < 16 && !failed) &&
				       (v >> umin(failed, 63)) <= (uint64_t)env->imbalance;
				break;
			case MIGRATE_UTIL:
				v = task_util(t);
				take = (v >> umin(failed, 63)) <= (uint64_t)env->imbalance;
				break;
			case MIGRATE_TASK:
				v = 1;
				take = true;
				break;
			}
			if (take)
				env->imbalance -= (int64_t)v;
		}
		if (!take) {
			list_rotate(src, t);
			continue;
		}
		move_queued(s, t, env->dst_rq, now);
		moved++;
		/* NEWIDLE balancing stops after the first task (a preemptible kernel) */
		if (env->idle == LB_NEWLY_IDLE)
			break;
	}
	return moved;
}

/*
 * need_active_balance(): with capacities equal and no misfit or packing, only when spreading
 * tasks has failed more than cache_nice_tries + 2 times in a row (imbalanced_active_balance).
 */
static bool need_active_balance(const struct lb_env *env)
{
	return env->type == MIGRATE_TASK &&
	       env->sd->nr_balance_failed > env->d->cache_nice_tries + 2;
}

/*
 * active_load_balance_cpu_stop(): the stopper preempts @src's task and moves the first task
 * from the tail of its list (the running one was picked last: it is at the head) that may run
 * on @dst, cache hot or not. Returns whether one moved.
 */
static bool active_load_balance_cpu_stop(struct sched *s, struct sched_cpu *src,
					 struct sched_cpu *dst, uint64_t now)
{
	for (struct sched_thread *t = src->ltail; t; t = t->lprev) {
		if (t->se.sched_delayed || throttled_hierarchy(t->se.cfs_rq) ||
		    !cpu_allowed(t, dst->id))
			continue;
		if (src->nr_running <= 1 && t != src->curr)
			return false;
		sched__relocate(s, t, dst, now);
		return true;
	}
	return false;
}

/*
 * should_we_balance(): one CPU of the local group balances a level for it: the first idle
 * CPU of an idle core (any idle CPU at an SMT level), else the first idle SMT sibling of a
 * busy core, else the group's first CPU. A new-idle CPU always may, if it has no task.
 */
static bool should_we_balance(struct sched *s, const struct lb_env *env)
{
	const struct sched_sg *g = env->dst_grp;
	int idle_smt = -1;

	if (!in_mask(env->cpus, env->dst_rq->id))
		return false;
	if (env->idle == LB_NEWLY_IDLE)
		return !env->dst_rq->nr_running;
	for (int i = 0; i < g->weight; i++) {
		int c = g->cpus[i];

		if (!in_mask(env->cpus, c) || !idle_cpu(&s->cpu[c]))
			continue;
		if (!(env->d->flags & F(SHARE_CPUCAPACITY)) && s->threads > 1) {
			int first = c / s->threads * s->threads;
			bool core_idle = true;

			for (int k = first; k < first + s->threads && core_idle; k++)
				core_idle = idle_cpu(&s->cpu[k]);
			if (!core_idle) {
				if (idle_smt < 0)
					idle_smt = c;
				continue;
			}
		}
		return c == env->dst_rq->id;
	}
	if (idle_smt >= 0)
		return idle_smt == env->dst_rq->id;
	return g->cpus[0] == env->dst_rq->id;
}

/* What pull_tasks() left sched_balance_rq() to do. */
enum pull_result {
	PULL_DONE,		/* go on to the result: moved or not */
	PULL_REDO,		/* every task was pinned away: try again without their CPU */
	PULL_ALL_PINNED,	/* every task was pinned away and no other CPU remains */
};

/*
 * After every task of env->src was pinned away: does env->cpus, less the CPUs given up on,
 * still hold a CPU outside the local group to try?
 */
static bool others_left(const struct lb_env *env)
{
	const struct sched_dom *d = env->d;
	bool others = false;

	for (int i = 0; i < d->weight && !others; i++) {
		int c = d->cpus[i];
		bool mine = false;

		for (int k = 0; k < env->dst_grp->weight && !mine; k++)
			mine = env->dst_grp->cpus[k] == c;
		others = in_mask(env->cpus, c) && !mine;
	}
	return others;
}

/*
 * sched_balance_rq()'s pull from the busiest CPU env->src, which runs more than one task:
 * detach_tasks() and their move, again to another CPU of the local group when the tasks were
 * pinned away from this one (LBF_DST_PINNED), counting what moved into *@moved; then what the
 * pinned tasks mean for the parent level and for the next try.
 */
static enum pull_result pull_tasks(struct sched *s, struct lb_env *env, unsigned *moved,
				   uint64_t now)
{
	uint64_t *cpus = env->cpus;

	env->loop_max = (unsigned)umin(s->cfg.tun.nr_migrate, env->src->nr_running);
more_balance:
	*moved += detach_tasks(s, env, now);
	if ((env->flags & LBF_DST_PINNED) && env->imbalance > 0) {
		/* a task pinned away from here may go to another CPU of this group */
		cpus[env->dst_rq->id / 64] &= ~(1ull << (env->dst_rq->id % 64));
		env->dst_rq = &s->cpu[env->new_dst];
		env->flags &= ~LBF_DST_PINNED;
		env->loop = 0;
		env->loop_break = NR_MIGRATE_BREAK;
		update_curr(s, env->dst_rq, now);
		goto more_balance;
	}
	/* pinned tasks kept this level from balance: the parent sees an imbalanced group */
	if (env->parent && (env->flags & LBF_SOME_PINNED) && env->imbalance > 0)
		env->parent->d->groups[env->parent->local]->imbalance = true;
	if (!*moved && (env->flags & LBF_ALL_PINNED)) {
		/* try again without that CPU while others outside the local group remain */
		cpus[env->src->id / 64] &= ~(1ull << (env->src->id % 64));
		if (others_left(env)) {
			/* the flags and the destination carry over, as the kernel's */
			env->loop = 0;
			env->loop_break = NR_MIGRATE_BREAK;
			return PULL_REDO;
		}
		return PULL_ALL_PINNED;
	}
	return PULL_DONE;
}

/*
 * sched_balance_rq() (load_balance) at level @l of @dst with @dst pulling. Keeps the level's
 * bookkeeping as the kernel does: a pass that finds the domain balanced resets
 * nr_balance_failed and (periodic passes) doubles the interval up to max_interval (up to
 * MAX_PINNED_INTERVAL when every task was pinned away); a pass that finds an imbalance resets
 * the interval to min_interval and counts a failure when it could move nothing, and after
 * enough failures moves a running task (active balancing). *@cont turns false when another
 * CPU of the local group balances this level for it (should_we_balance()): the levels above
 * are then that CPU's too. Returns whether it moved a task.
 */
bool sched_balance_rq(struct sched *s, struct sched_cpu *dst, int l, enum lb_idle idle,
		      bool *cont, uint64_t now)
{
	struct sched_sd *sd = &dst->sd[l];
	const struct sched_dom *d = sd->d;
	uint64_t cpus[TOPO_MASK_WORDS];
	struct lb_env env = {
		.dst_rq = dst, .sd = sd, .parent = l + 1 < dst->nsd ? &dst->sd[l + 1] : NULL,
		.d = d, .dst_grp = d->groups[sd->local], .cpus = cpus, .idle = idle,
		.loop_break = NR_MIGRATE_BREAK,
	};
	uint64_t min_iv = (uint64_t)d->weight * NSEC_PER_MSEC, max_iv = 2 * min_iv;
	const struct sched_sg *group;
	struct sd_stats sds;
	unsigned moved = 0;
	bool active = false;

	memcpy(cpus, d->span, s->mask_words * sizeof(uint64_t));
	s->st.balance_runs++;
redo:
	if (!should_we_balance(s, &env)) {
		*cont = false;
		goto out_balanced;
	}
	group = sched_balance_find_src_group(s, &env, &sds, now);
	if (!group)
		goto out_balanced;
	env.src = sched_balance_find_src_rq(s, &env, group);
	if (!env.src)
		goto out_balanced;
	update_curr(s, env.src, now);
	update_curr(s, env.dst_rq, now);
	env.flags |= LBF_ALL_PINNED;
	if (env.src->nr_running > 1) {
		enum pull_result r = pull_tasks(s, &env, &moved, now);

		if (r == PULL_REDO)
			goto redo;
		if (r == PULL_ALL_PINNED)
			goto out_all_pinned;
	}
	if (!moved) {
		if (idle != LB_NEWLY_IDLE)
			sd->nr_balance_failed++;
		if (need_active_balance(&env)) {
			if (!env.src->curr || !cpu_allowed(env.src->curr, dst->id))
				goto out_one_pinned;
			env.flags &= ~LBF_ALL_PINNED;
			active = active_load_balance_cpu_stop(s, env.src, dst, now);
			if (active) {
				moved = 1;
				sd->nr_balance_failed = 0;
			}
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	sd->balance_interval = min_iv;	/* unbalanced: back to the shortest interval */
	return moved > 0;

out_balanced:
	/* balanced despite pinned tasks, others had their chance: the flag goes */
	if (env.parent && !(env.flags & LBF_ALL_PINNED))
		env.parent->d->groups[env.parent->local]->imbalance = false;
	sd->nr_balance_failed = 0;
	goto out_one_pinned;
out_all_pinned:
	sd->nr_balance_failed = 0;
out_one_pinned:
	if (idle == LB_NEWLY_IDLE)
		return false;
	if (((env.flags & LBF_ALL_PINNED) && sd->balance_interval < MAX_PINNED_INTERVAL_NS) ||
	    sd->balance_interval < max_iv)
		sd->balance_interval *= 2;
	return false;
}

/* ---- where a new task starts (the fork path's slow search) ---------------------------------- */

/* update_sg_wakeup_stats(): a new task is on no CPU, so nothing of it is taken out */
static void update_sg_wakeup_stats(struct sched *s, const struct sched_dom *d,
				   const struct sched_sg *sg, struct sg_stats *g, uint64_t now)
{
	*g = (struct sg_stats){ .capacity = sg->capacity, .weight = sg->weight };
	for (int i = 0; i < sg->weight; i++)
		cpu_stats(&s->cpu[sg->cpus[i]], now, g);
	g->type = group_classify(d->imbalance_pct, sg, g, false);
	if (g->type == GROUP_FULLY_BUSY || g->type == GROUP_OVERLOADED)
		g->avg_load = g->load * CAPACITY / g->capacity;
}

/* update_pick_idlest() */
static bool update_pick_idlest(const struct sched_sg *idlest, const struct sg_stats *i,
			       const struct sg_stats *g)
{
	if (!idlest || g->type < i->type)
		return true;
	if (g->type > i->type)
		return false;
	switch (g->type) {
	case GROUP_OVERLOADED:
	case GROUP_FULLY_BUSY:
		return i->avg_load > g->avg_load;
	case GROUP_HAS_SPARE:
		return i->idle_cpus < g->idle_cpus ||
		       (i->idle_cpus == g->idle_cpus && i->util > g->util);
	default:
		return false;	/* not used on this path */
	}
}

static bool sg_allows(const struct sched_sg *sg, const struct sched_thread *t)
{
	for (int i = 0; i < sg->weight; i++)
		if (cpu_allowed(t, sg->cpus[i]))
			return true;
	return false;
}

/*
 * sched_balance_find_dst_group() (find_idlest_group): the group of @sd, a domain of the CPU
 * the search is at, that @t should start in, or NULL to stay in that CPU's own.
 */
static const struct sched_sg *sched_balance_find_dst_group(struct sched *s,
							   const struct sched_thread *t,
							   const struct sched_sd *sd, uint64_t now)
{
	const struct sched_dom *d = sd->d;
	const struct sched_sg *idlest = NULL, *local = NULL;
	struct sg_stats ls = { 0 }, is = { 0 };
	int64_t imb;

	for (int k = 0; k < d->ngroups; k++) {
		const struct sched_sg *sg = d->groups[(sd->local + k) % d->ngroups];
		struct sg_stats g;

		if (!sg_allows(sg, t))
			continue;
		update_sg_wakeup_stats(s, d, sg, &g, now);
		if (k == 0) {
			local = sg;
			ls = g;
		} else if (update_pick_idlest(idlest, &is, &g)) {
			idlest = sg;
			is = g;
		}
	}
	if (!idlest)
		return NULL;
	if (!local || ls.type > is.type)
		return idlest;
	if (ls.type < is.type)
		return NULL;
	switch (ls.type) {
	case GROUP_OVERLOADED:
	case GROUP_FULLY_BUSY:
		/* the allowed imbalance in load: a nice-0 task's share of imbalance_pct */
		imb = (int64_t)(SCHED_NICE_0_WEIGHT * (d->imbalance_pct - 100) / 100);
		if ((d->flags & F(NUMA)) && is.avg_load + (uint64_t)imb >= ls.avg_load)
			return NULL;
		if (is.avg_load >= ls.avg_load + (uint64_t)imb)
			return NULL;
		if (100 * ls.avg_load <= d->imbalance_pct * is.avg_load)
			return NULL;
		return idlest;
	case GROUP_HAS_SPARE:
		if (d->flags & F(NUMA)) {
			/* stay near while the node runs fewer tasks than the NUMA allowance */
			unsigned allowed = 0, nr = d->imb_numa_nr;

			for (int i = 0; i < local->weight; i++)
				allowed += cpu_allowed(t, local->cpus[i]);
			if (allowed < (unsigned)local->weight)
				nr = nr < allowed ? nr : allowed;
			imb = ls.idle_cpus > is.idle_cpus ? (int64_t)(ls.idle_cpus - is.idle_cpus) :
							    (int64_t)(is.idle_cpus - ls.idle_cpus);
			if (!adjust_numa_imbalance(imb, ls.nr + 1, nr))
				return NULL;
		}
		return ls.idle_cpus >= is.idle_cpus ? NULL : idlest;
	default:
		return NULL;
	}
}

/*
 * The least busy CPU of @span (NULL: all) that @t may use: fewest tasks, then least load;
 * NULL when it may use none.
 */
static struct sched_cpu *sched_balance_find_dst_group_cpu(struct sched *s,
							  const struct sched_thread *t,
							  const uint64_t *span)
{
	struct sched_cpu *best = NULL;

	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		if (!cpu_allowed(t, c) || (span && !in_mask(span, c)))
			continue;
		if (!best || rq->nr_running < best->nr_running ||
		    (rq->nr_running == best->nr_running && rq->cfs->load < best->cfs->load))
			best = rq;
	}
	return best;
}

/*
 * sched_balance_find_dst_cpu() - where new task @t starts, forked on CPU @cpu (find_idlest_cpu()):
 * from @cpu's highest domain with SD_BALANCE_FORK down, at each level whose groups hold
 * several CPUs the group the kernel's rules choose; then, in the lowest such domain (where
 * groups are CPUs), the least busy allowed CPU: fewest tasks, then least load (cgsim's
 * reading of the CPU-level choice, which on one LLC is all there is).
 */
struct sched_cpu *sched_balance_find_dst_cpu(struct sched *s, struct sched_thread *t, int cpu,
					     uint64_t now)
{
	struct sched_cpu *rq = &s->cpu[cpu], *best;
	int l = -1;

	while (l + 1 < rq->nsd && (rq->sd[l + 1].d->flags & F(BALANCE_FORK)))
		l++;
	/* down to the first level whose groups are single CPUs: there the least busy CPU */
	while (l >= 0 && rq->sd[l].d->groups[0]->weight > 1) {
		const struct sched_sg *g = sched_balance_find_dst_group(s, t, &rq->sd[l], now);
		int weight = rq->sd[l].d->weight;
		uint64_t span[TOPO_MASK_WORDS] = { 0 };

		if (!g) {
			l--;
			continue;
		}
		for (int i = 0; i < g->weight; i++)
			span[g->cpus[i] / 64] |= 1ull << (g->cpus[i] % 64);
		best = sched_balance_find_dst_group_cpu(s, t, span);
		if (!best) {
			l--;
			continue;
		}
		cpu = best->id;
		rq = best;
		/* go on in the new CPU's domains below this one's size */
		l = -1;
		for (int k = 0; k < rq->nsd && rq->sd[k].d->weight < weight; k++)
			if (rq->sd[k].d->flags & F(BALANCE_FORK))
				l = k;
	}
	best = sched_balance_find_dst_group_cpu(s, t, l >= 0 ? rq->sd[l].d->span : NULL);
	return best ? best : sched_balance_find_dst_group_cpu(s, t, NULL);
}
