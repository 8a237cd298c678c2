// SPDX-License-Identifier: MIT
/*
 * scheduler/shares.c - kernel/sched/fair.c: group scheduling and load tracking. Group entity
 * weights: calc_group_shares() from the queues' PELT averages under each of 7.3's cgroup modes,
 * the task group's published load and runnable averages (update_tg_load_avg), its CPUs and tasks
 * (tg_cpus, tg_tasks), reweighting; and the load averages that move with their entities:
 * attach, detach and propagation up the hierarchy, blocked-load updates over each CPU's leaf
 * list, task_h_load() (docs/scheduler.md, "Group shares and load tracking", "cgroup_mode").
 */
#include <errno.h>
#include <stdlib.h>

#include "scheduler/sched_internal.h"

void sched__load_changed(struct cfs_rq *q, uint64_t now)
{
	pelt_set(&q->avg, now, q->load >> SCHED_LOAD_SHIFT);
}

/*
 * 7.3 keeps, next to tg->load_avg, the sum over CPUs of each group queue's runnable average
 * (tg->runnable_avg, read by tg_tasks()), and publishes both together. Before 7.3 nothing of it
 * exists, and cgsim keeps none of it unless a cgroup_mode that reads it is asked for on an
 * older kernel: its publications would otherwise add republications of the load, which the
 * older kernels do not make.
 */
bool sched__tracks_tg_runnable(const struct sched_config *cfg)
{
	return sched_kernel_has_cgroup_mode(cfg->kernel) || cfg->policy == SCHED_POLICY_EEVDF_FLAT ||
	       cfg->cgroup_mode == SCHED_CGROUP_CONCUR || cfg->cgroup_mode == SCHED_CGROUP_TASKS;
}

/*
 * The runnable signal of a group queue is 1024 per task runnable below it (h_nr_runnable, so
 * delayed tasks do not count): ___update_load_sum()'s runnable argument, which
 * update_load_avg() integrates at every level of an enqueue or dequeue walk before the count
 * changes. pelt_set() integrates up to @now under the old count first, so calling this once
 * the counts have changed gives the same. The root's is the CPU's rq->runnable, kept apart.
 */
void sched__runnable_changed(struct sched *s, const struct sched_entity *se, uint64_t now)
{
	struct cfs_rq *q;
	bool moved = false;

	if (!s->tg_runnable || !se)
		return;
	for (q = se->cfs_rq; q->se; q = q->se->cfs_rq) {
		uint64_t x = 1024ull * q->h_nr_runnable;

		if (q->runnable.x != x) {
			pelt_set(&q->runnable, now, x);
			moved = true;
		}
	}
	if (moved)	/* its next ticks publish what the averages do */
		sched__rq_dirty_quiet(s, q->rq, now);
}

/*
 * update_tg_load_avg(): publish this queue's averages when either moved by more than 1/64 of
 * what it published of it (7.3: the load's or the runnable's; before, the load's alone, and
 * the runnable parts are then all zero).
 */
bool sched__tg_update_due(const struct cfs_rq *q)
{
	int64_t dl = (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;
	int64_t dr = (int64_t)q->runnable.avg - (int64_t)q->tg_runnable_avg_contrib;

	if (dl < 0)
		dl = -dl;
	if (dr < 0)
		dr = -dr;
	return (uint64_t)dl > q->tg_load_avg_contrib / 64 ||
	       (uint64_t)dr > q->tg_runnable_avg_contrib / 64;
}

/*
 * A group's published load changed: CPUs running something inside it recompute at ticks.
 * Only those whose plan it can change (s->mark_mask): on a busy machine most already tick
 * at every tick, and visiting each would read a line of every CPU the group spans.
 */
static void mark_tg_dirty(struct sched *s, const struct sched_tg *tg, uint64_t now)
{
	for (size_t w = 0; w < s->mask_words; w++) {
		uint64_t bits = tg->on_chain[w] & s->mark_mask[w];

		while (bits) {
			int c = (int)(w * 64) + __builtin_ctzll(bits);

			bits &= bits - 1;
			sched__rq_dirty_quiet(s, &s->cpu[c], now);
		}
	}
}

void update_tg_load_avg(struct sched *s, struct cfs_rq *q, uint64_t now)
{
	if (!q->se)	/* the root group */
		return;
	pelt_update(&q->avg, now);
	if (s->tg_runnable)
		pelt_update(&q->runnable, now);
	/* 6.7+: at most once per ms per queue. */
	if (q->last_tg_update && now - q->last_tg_update < NSEC_PER_MSEC)
		return;
	if (!sched__tg_update_due(q))
		return;
	q->tg->load_avg += (int64_t)q->avg.avg - (int64_t)q->tg_load_avg_contrib;
	q->tg_load_avg_contrib = q->avg.avg;
	q->tg->runnable_avg += (int64_t)q->runnable.avg - (int64_t)q->tg_runnable_avg_contrib;
	q->tg_runnable_avg_contrib = q->runnable.avg;
	q->last_tg_update = now;
	mark_tg_dirty(s, q->tg, now);
}

/* ---- calc_group_shares() under each cgroup_mode (7.3; SMP before) ---- */

#define SCHED_CAPACITY_SHIFT	10

/*
 * tg_cpus(): the CPUs the group may use: the online CPUs, or with cpusets those of the
 * effective cpuset of the group's cgroup (cpuset_num_cpus(); the driver says which with
 * sched_tg_set_cpus()); at least 1.
 */
int tg_cpus(const struct sched *s, const struct sched_tg *tg)
{
	int nr = tg->ncpus ? tg->ncpus : s->ncpu;

	return nr > 1 ? nr : 1;
}

/*
 * tg_tasks(): the group's runnable tasks as its published runnable averages say, truncated:
 * tg->runnable_avg >> SCHED_CAPACITY_SHIFT, at least 1. Four always-runnable tasks whose
 * contributions each settled just under 1024 (the 1/64 gate of update_tg_load_avg() stops
 * republishing a value rising that close) count as 3.
 */
int tg_tasks(const struct sched_tg *tg)
{
	int64_t nr = tg->runnable_avg >> SCHED_CAPACITY_SHIFT;

	return nr > 1 ? (int)nr : 1;
}

/*
 * __calc_smp_shares(): @tg_shares x load / tg_weight with load = max(this queue's weight, its
 * average) and tg_weight = Σ other CPUs' published averages + load, clamped by clamp_t() to
 * [MIN_SHARES, @shares_max]. All in scaled weights, as the kernel's: tg->shares is
 * scale_load()ed, and MIN_SHARES and the clamps apply to scaled values.
 */
static uint64_t calc_shares_frac(const struct cfs_rq *q, uint64_t tg_shares, uint64_t shares_max)
{
	const struct sched_tg *tg = q->tg;
	uint64_t load = umax(q->load >> SCHED_LOAD_SHIFT, q->avg.avg);
	int64_t tg_weight = tg->load_avg - (int64_t)q->tg_load_avg_contrib + (int64_t)load;
	uint64_t shares;

	if (tg_weight > 0 && (tg_shares | load) <= UINT32_MAX)	/* the usual case, in 64 bits */
		shares = tg_shares * load / (uint64_t)tg_weight;
	else if (tg_weight > 0)
		shares = (uint64_t)(((unsigned __int128)tg_shares * load) / (uint64_t)tg_weight);
	else
		shares = tg_shares * load;
	return (uint64_t)sched__clamp((int64_t)shares, MIN_SHARES, (int64_t)shares_max);
}

/* calc_up_shares(): the group's shares on every CPU, as if each were alone */
static uint64_t calc_up_shares(const struct cfs_rq *q)
{
	return q->tg->shares;
}

/* calc_smp_shares(): the fraction of the shares (before 7.3, the only arithmetic) */
static uint64_t calc_smp_shares(const struct cfs_rq *q)
{
	return calc_shares_frac(q, q->tg->shares, q->tg->shares);
}

/* calc_concur_shares(): the fraction of min(tasks, CPUs) x the shares (7.3's default) */
static uint64_t calc_concur_shares(const struct sched *s, const struct cfs_rq *q)
{
	int nt = tg_tasks(q->tg), nc = tg_cpus(s, q->tg);
	uint64_t nr = (uint64_t)(nt < nc ? nt : nc);

	return calc_shares_frac(q, nr * q->tg->shares, nr * q->tg->shares);
}

/* calc_max_shares(): the fraction of CPUs x the shares, at most a nice -20 task's weight */
static uint64_t calc_max_shares(const struct sched *s, const struct cfs_rq *q)
{
	uint64_t nr = (uint64_t)tg_cpus(s, q->tg);

	return calc_shares_frac(q, q->tg->shares * nr,
				(uint64_t)sched_nice_weight(-20) << SCHED_LOAD_SHIFT);
}

/* calc_tasks_shares(): the fraction of tasks x the shares */
static uint64_t calc_tasks_shares(const struct cfs_rq *q)
{
	uint64_t nr = (uint64_t)tg_tasks(q->tg);

	return calc_shares_frac(q, nr * q->tg->shares, nr * q->tg->shares);
}

/* calc_group_shares(): the static call 7.3 points at the mode's function (debugfs cgroup_mode) */
uint64_t calc_group_shares(const struct sched *s, const struct cfs_rq *q)
{
	switch (s->cfg.cgroup_mode) {
	case SCHED_CGROUP_UP:
		return calc_up_shares(q);
	case SCHED_CGROUP_CONCUR:
		return calc_concur_shares(s, q);
	case SCHED_CGROUP_MAX:
		return calc_max_shares(s, q);
	case SCHED_CGROUP_TASKS:
		return calc_tasks_shares(q);
	case SCHED_CGROUP_SMP:
	case SCHED_CGROUP_NR:
		break;
	}
	return calc_smp_shares(q);
}

/*
 * The group's CPUs changed. The kernel reads cpuset_num_cpus() afresh at each calc_group_shares()
 * and nothing more happens at the change itself; here the CPUs running inside the group are
 * told, so that their next ticks recompute (tick elision would otherwise skip them), where the
 * mode reads tg_cpus().
 */
int sched_tg_set_cpus(struct sched *s, int id, int ncpus, uint64_t now)
{
	struct sched_tg *tg = sched__tg_get(s, id);
	int err;

	if (!tg)
		return -ENOENT;
	if (!tg->parent || ncpus < 0 || ncpus > s->ncpu)
		return -EINVAL;
	if (tg->ncpus == ncpus)
		return 0;
	err = sched__enter(s, now);
	if (err)
		return err;
	tg->ncpus = ncpus;
	if (s->cfg.cgroup_mode == SCHED_CGROUP_CONCUR || s->cfg.cgroup_mode == SCHED_CGROUP_MAX)
		mark_tg_dirty(s, tg, now);
	sched__finish(s);
	return 0;
}

void reweight_entity(struct sched *s, struct sched_entity *se, uint64_t weight, uint32_t wmult,
		     uint64_t now)
{
	struct cfs_rq *q = se->cfs_rq;
	uint64_t old_wd = se->wd;

	if (se->weight == weight)
		return;
	if (se->on_rq)
		q->load -= se->weight;
	s->ops->reweight(s, q, se, weight, wmult);
	sched__reweight_load(s, se, old_wd, now);
	if (se->on_rq) {
		q->load += se->weight;
		sched__load_changed(q, now);
	}
	sched__rq_dirty_quiet(s, q->rq, now);	/* the queue's average moved (or will) */
}

/*
 * update_cfs_group(): a group entity's weight from its queue's share of the group's load.
 * Under EEVDF a group whose queue is empty keeps its entity's weight ("When a group becomes
 * empty, preserve its weight. This matters for DELAY_DEQUEUE", 6.13 and 6.12.y): its entity may
 * stay queued, delayed, to burn off its lag at the weight it had, and recomputing it from an
 * empty queue would shrink it to what the queue's decaying average says, and with it the
 * parent queue's load, level after level up a chain. CFS kernels (5.13-6.5) recompute.
 */
void update_cfs_group(struct sched *s, struct sched_entity *se, uint64_t now)
{
	if (!se->my_q || (!se->my_q->load && s->ops->keep_empty_weight))
		return;
	pelt_update(&se->my_q->avg, now);
	reweight_entity(s, se, calc_group_shares(s, se->my_q), 0, now);
}

/* ---- load averages that move with their entities (attach, detach, propagate) ---- */

/*
 * sched__reweight_load() - reweight_entity()'s dequeue_load_avg() with the old weight and
 * enqueue_load_avg() with the new one: the queue's average keeps the entity's runnable
 * history at its current weight, so it follows a new group weight at once. Called after the
 * weight changed from @old_wd.
 */
void sched__reweight_load(struct sched *s, struct sched_entity *se, uint64_t old_wd, uint64_t now)
{
	struct cfs_rq *q = se->cfs_rq;

	if (!s->cfg.load_attach || !q || se->wd == old_wd || (se->task && !se->task->attached))
		return;
	pelt_update_event(&se->ravg, now);
	pelt_update(&q->avg, now);
	pelt_reweight(&q->avg, &se->ravg, old_wd, se->wd);
}

/*
 * An entity's runnable signal follows on_rq (___update_load_sum with load = !!se->on_rq).
 * Entities' averages are brought up to date only at events (enqueue, dequeue, a weight that
 * changes, a move, a balance), which come at the same times whether ticks are elided or not,
 * so they may use the closed-form update.
 */
void sched__entity_avg_set(struct sched_entity *se, uint64_t now)
{
	pelt_set_event(&se->ravg, now, se->on_rq ? 1024 : 0);
}

/*
 * The leaf list (rq->leaf_cfs_rq_list): the group queues of a CPU that carry load or a
 * published contribution, which update_blocked_averages() must keep decaying. A queue joins
 * when something is enqueued or attached to it and leaves once fully decayed.
 */
void list_add_leaf_cfs_rq(struct cfs_rq *q)
{
	struct sched_cpu *rq = q->rq;

	if (q->on_leaf || !q->se)
		return;
	if (rq->nleaf == rq->capleaf) {
		int cap = rq->capleaf ? 2 * rq->capleaf : 8;
		struct cfs_rq **n = realloc(rq->leaf, (size_t)cap * sizeof(*n));

		if (!n)
			return;	/* it is then only decayed when something touches it */
		rq->leaf = n;
		rq->capleaf = cap;
	}
	q->on_leaf = true;
	rq->leaf[rq->nleaf++] = q;
}

void list_del_leaf_cfs_rq(struct cfs_rq *q)
{
	struct sched_cpu *rq = q->rq;

	if (!q->on_leaf)
		return;
	for (int i = 0; i < rq->nleaf; i++)
		if (rq->leaf[i] == q) {
			rq->leaf[i] = rq->leaf[--rq->nleaf];
			break;
		}
	q->on_leaf = false;
}

/*
 * propagate() - an entity came to (@sub false) or left (@sub true) queue @q with runnable
 * history @r: the group entity above takes its share of the change, and so on to the root
 * (add_tg_cfs_propagate(), propagate_entity_load_avg(), update_tg_cfs_load()). Coming, the
 * group entity's runnable sum grows by the newcomer's, at most to full; leaving, it becomes at
 * most what its queue's remaining load says, assuming all its entities equally runnable
 * (load sum / load weight). Each parent queue's average moves by the group entity's weight
 * times the change.
 */
static void propagate(struct sched *s, struct cfs_rq *q, const struct pelt *r, bool sub,
		      uint64_t now)
{
	for (struct sched_entity *ge = q->se; ge; ge = q->se) {
		struct cfs_rq *pq = ge->cfs_rq;
		struct pelt old;
		uint64_t want;

		pelt_update_event(&ge->ravg, now);
		pelt_update(&pq->avg, now);
		old = ge->ravg;
		if (!sub) {
			want = ge->ravg.sum + r->sum;
		} else {
			uint64_t lw = q->load >> SCHED_LOAD_SHIFT;

			if (!lw)
				want = 0;
			else if (q->avg.sum < (1ull << 53))
				want = (q->avg.sum << 10) / lw;
			else
				want = (uint64_t)(((unsigned __int128)q->avg.sum << 10) / lw);
			want = umin(want, ge->ravg.sum);
		}
		pelt_set_runnable(&ge->ravg, want);
		pelt_attach(&pq->avg, &old, ge->wd, true);
		pelt_attach(&pq->avg, &ge->ravg, ge->wd, false);
		list_add_leaf_cfs_rq(pq);
		update_tg_load_avg(s, pq, now);
		sched__rq_dirty_quiet(s, pq->rq, now);
		q = pq;
	}
}

/*
 * The CPU's runnable and utilisation averages take the task's along too. The task's
 * utilisation is not tracked (updating it at every switch would cost a quarter of the
 * simulator's speed on busy workloads); it is estimated when the task leaves as its share
 * of its CPU's utilisation in proportion to its runnable average (two tasks always runnable
 * on a busy CPU: 512 each; a lone busy task: 1024), and that estimate comes along to the new
 * CPU.
 */
static void cpu_signals_attach(struct sched_thread *t, uint64_t now, bool sub)
{
	struct sched_cpu *rq = t->cpu;

	pelt_update_event(&rq->util, now);
	pelt_update_event(&rq->runnable, now);
	if (sub) {
		uint64_t r = umax(rq->runnable.avg, 1024);

		t->util_moved = umin(rq->util.avg, 1024) * umin(t->se.ravg.avg, r) / r;
	}
	pelt_add_avg(&rq->util, t->util_moved, sub);
	pelt_attach(&rq->runnable, &t->se.ravg, 1024, sub);
}

/*
 * The task's runnable history comes to or leaves its queue's runnable average with its load
 * (attach/detach_entity_load_avg()' runnable_avg and runnable_sum), and each group queue above
 * takes the same change: propagate_entity_load_avg()'s update_tg_cfs_runnable() sets the group
 * entity's runnable average to its queue's, and its parent queue's moves by the difference.
 * The task's runnable history is its load history, se.ravg (x = 1024 while on_rq): the
 * kernel's two integrate the same on_rq signal and differ only in where a new task's starts
 * (its load full, its runnable at post_init_entity_util_avg()'s estimate; docs/scheduler.md,
 * "cgroup_mode").
 */
static void runnable_attach(struct sched *s, struct sched_thread *t, uint64_t now, bool sub)
{
	if (!s->tg_runnable)
		return;
	for (struct cfs_rq *q = t->se.cfs_rq; q->se; q = q->se->cfs_rq) {
		pelt_update(&q->runnable, now);
		pelt_attach(&q->runnable, &t->se.ravg, 1024, sub);
	}
}

/*
 * A task's load comes to (@sub false: attach_entity_load_avg()) or leaves (@sub true:
 * detach_entity_load_avg(), remove_entity_load_avg()) the queue it is attached to, with the
 * change propagated up the hierarchy.
 */
static void task_load(struct sched *s, struct sched_thread *t, uint64_t now, bool sub)
{
	struct cfs_rq *q = t->se.cfs_rq;

	if (t->attached != sub)
		return;
	t->attached = !sub;
	if (!s->cfg.load_attach)
		return;
	pelt_update_event(&t->se.ravg, now);
	pelt_update(&q->avg, now);
	pelt_attach(&q->avg, &t->se.ravg, t->se.wd, sub);
	runnable_attach(s, t, now, sub);
	cpu_signals_attach(t, now, sub);
	if (!sub)
		list_add_leaf_cfs_rq(q);
	propagate(s, q, &t->se.ravg, sub, now);
	update_tg_load_avg(s, q, now);
	sched__rq_dirty_quiet(s, q->rq, now);
}

void attach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now)
{
	task_load(s, t, now, false);
}

void detach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now)
{
	task_load(s, t, now, true);
}

/* Nothing left to decay: no signal, no history, nothing published. */
static bool cfs_rq_decayed(const struct cfs_rq *q)
{
	/* load_avg_is_decayed() looks at the runnable sum too (but not at what was published) */
	return !q->load && !q->avg.sum && !q->avg.acc && !q->avg.x && !q->tg_load_avg_contrib &&
	       !q->runnable.sum && !q->runnable.acc && !q->runnable.x;
}

/*
 * update_blocked_averages() - sched_balance_update_blocked_averages(): bring every queue
 * of @rq that still carries load up to @now, so that the averages of group queues nothing runs
 * in any more decay, and republish their contributions to their groups' load (1/64 threshold,
 * once per ms). Queues fully decayed leave the leaf list.
 */
void update_blocked_averages(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	int keep = 0;

	rq->last_blocked = now;
	if (!s->cfg.blocked_load)
		return;
	for (int i = 0; i < rq->nleaf; i++) {
		struct cfs_rq *q = rq->leaf[i];

		pelt_update(&q->avg, now);
		update_tg_load_avg(s, q, now);
		if (cfs_rq_decayed(q) && !q->nr_queued)
			q->on_leaf = false;
		else
			rq->leaf[keep++] = q;
	}
	rq->nleaf = keep;
}

/*
 * task_h_load() - the task's load seen from the root of its CPU (update_cfs_rq_h_load()):
 * h_load(root) = its load_avg; h_load(q) = h_load(parent) x ge.load_avg / (parent.load_avg + 1);
 * task_h_load = p.load_avg x h_load(q) / (q.load_avg + 1).
 */
static uint64_t h_load(struct cfs_rq *q, uint64_t now)
{
	struct sched_entity *ge = q->se;
	struct cfs_rq *pq;
	uint64_t ge_load;

	pelt_update(&q->avg, now);
	if (!ge)
		return q->avg.avg;
	pq = ge->cfs_rq;
	pelt_update_event(&ge->ravg, now);
	ge_load = (ge->ravg.avg * ge->wd) >> 10;
	return (uint64_t)(((unsigned __int128)h_load(pq, now) * ge_load) / (pq->avg.avg + 1));
}

uint64_t task_h_load(struct sched_thread *t, uint64_t now)
{
	struct cfs_rq *q = t->se.cfs_rq;
	uint64_t load, hq;

	pelt_update_event(&t->se.ravg, now);
	load = (t->se.ravg.avg * t->se.wd) >> 10;
	hq = h_load(q, now);
	return (uint64_t)(((unsigned __int128)load * hq) / (q->avg.avg + 1));
}

