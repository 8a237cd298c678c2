// SPDX-License-Identifier: MIT
/*
 * sim/run/run_shares.c - the ideal shares of a run (sim/run/run_internal.h), computed again
 * at each layout change and accrued over time.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/run_internal.h"
#include "sim/run/ideal.h"
#include "sim/util/util.h"

/* ---------------- ideal shares, time-weighted ---------------- */

/*
 * The duty cycle of a phases behaviour: its CPU time (run and runtime steps) over the length of
 * one pass, each step counted as often as the repeat steps around it make it run. A pass lasts
 * its run, runtime and sleep steps, or its timers' periods when those are longer (a timer
 * sleeps what is left of its period). Synchronisation steps take no time of their own: for a
 * thread that waits for others the duty is an upper bound (docs/ideal-shares.md).
 */
static double phases_duty(const struct sim_behavior *b)
{
	double run = 0, all = 0, timers = 0;
	size_t nrep = 0, depth = 0;
	/* the repeat blocks around the step, outermost first: first step, product of counts */
	struct { size_t first; double times; } *open = NULL;

	for (size_t i = 0; i < b->nphases; i++)
		nrep += b->phases[i].kind == SIM_STEP_REPEAT;
	if (nrep && !(open = malloc(nrep * sizeof(*open))))
		return 1;	/* out of memory: the bound of all */
	/*
	 * From the last step down: a repeat step opens its block for the steps before it, down
	 * to the block's first step (blocks nest, so the innermost is closed first), and a step
	 * runs as often as the product of the counts of the blocks open around it. One pass.
	 */
	for (size_t i = b->nphases; i-- > 0;) {
		const struct sim_phase *p = &b->phases[i];
		double times = depth ? open[depth - 1].times : 1;

		if (p->kind == SIM_STEP_REPEAT && (size_t)p->obj < i) {
			open[depth].first = (size_t)p->obj;
			open[depth].times = times * p->count;
			depth++;
		}
		if (p->kind == SIM_STEP_RUN || p->kind == SIM_STEP_RUNTIME)
			run += times * sim_dist_mean(&p->d);
		if (p->kind == SIM_STEP_RUN || p->kind == SIM_STEP_RUNTIME ||
		    p->kind == SIM_STEP_SLEEP)
			all += times * sim_dist_mean(&p->d);
		if (p->kind == SIM_STEP_TIMER)
			timers += times * (double)p->ns;
		while (depth && open[depth - 1].first >= i)
			depth--;
	}
	free(open);
	if (timers > all)
		all = timers;
	return all > 0 ? run / all : 0;
}

/* CPUs a thread would use alone, averaged over [t0, t1): its behaviour's duty cycle while on. */
static double demand(const struct scn_threads *g, uint64_t t0, uint64_t t1)
{
	const struct sim_behavior *b = &g->spec.behavior;
	uint64_t on0 = g->spec.start_ns > t0 ? g->spec.start_ns : t0;
	uint64_t on1 = g->spec.stop_ns && g->spec.stop_ns < t1 ? g->spec.stop_ns : t1;
	double duty = 0, run = 0;

	if (b->kind == SIM_BEHAV_PHASES) {
		duty = phases_duty(b);
		/* a replayed thread: nothing after its life in the trace (struct sim_behavior) */
		if (b->life_cpu_ns)
			duty = (double)b->life_cpu_ns / (double)b->life_ns;
		if (b->life_ns && b->life_ns < on1 - g->spec.start_ns)
			on1 = g->spec.start_ns + b->life_ns;
	}
	if (on1 <= on0 || t1 <= t0)
		return 0;
	switch (b->kind) {
	case SIM_BEHAV_BUSY:
		duty = 1;
		break;
	case SIM_BEHAV_PERIODIC:
		duty = sim_dist_mean(&b->run) / (double)b->period_ns;
		break;
	case SIM_BEHAV_BURSTY:
		run = sim_dist_mean(&b->run);
		duty = run / (run + sim_dist_mean(&b->sleep));
		break;
	case SIM_BEHAV_PHASES:
		break;
	case SIM_BEHAV_NONE:
		break;
	}
	if (!isfinite(duty) || duty < 0)
		duty = 1;
	if (duty > 1)
		duty = 1;
	return duty * (double)(on1 - on0) / (double)(t1 - t0);
}

/*
 * The task groups the scheduler schedules by, as nodes from @nodes[0]: the cgroups' task groups
 * and the autogroups, with the weights and caps the scheduler was given (an idle group's
 * WEIGHT_IDLEPRIO included), so that the ideal and the simulation read one tree. A group is
 * made after its parent, so ids in increasing order put parents first. node_of[id] is a
 * group's node (-1: none). Returns how many.
 */
static int tg_nodes(const struct sched *s, struct ideal_node *nodes, int *node_of, int end)
{
	int n = 0;

	for (int id = 0; id < end; id++) {
		struct sched_tg_info tg;

		node_of[id] = -1;
		if (sched_tg_info(s, id, &tg))
			continue;
		node_of[id] = n;
		nodes[n].parent = tg.parent < 0 ? -1 : node_of[tg.parent];
		nodes[n].weight = tg.weight;
		nodes[n].cap = (double)INFINITY;
		if (tg.quota_ns != UINT64_MAX && tg.period_ns)
			nodes[n].cap = (double)tg.quota_ns / (double)tg.period_ns;
		n++;
	}
	return n;
}

/* The live threads, in order, as leaves under the task group the scheduler has them in. */
static void thread_nodes(struct runner *r, const struct sched *s, struct ideal_node *nodes,
			 int *n, const int *node_of, uint64_t now, uint64_t until)
{
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		uint32_t weight;
		int tg = sched_thread_tg(s, t->tid, &weight);

		if (!cg_thread_alive(r->h, t->tid) || tg < 0)
			continue;
		nodes[*n].parent = node_of[tg];
		nodes[*n].thread = true;
		nodes[*n].weight = weight;
		nodes[*n].demand = demand(t->grp, now, until);
		(*n)++;
	}
}

/*
 * The ideal shares of the layout as it is at @now, the threads' demand taken over
 * [@now, @until): each live thread's into cur_share[], then each cgroup's (cur_cg[]) as the
 * sum over the threads below it.
 */
int run__ideal_now(struct runner *r, uint64_t now, uint64_t until)
{
	const struct sched *s = sim_machine_sched(r->m);
	int end = sched_tg_end(s), *node_of = NULL, n = 0, k, e = 0;
	struct ideal_node *nodes = NULL;
	double *share = NULL;
	size_t cap = (size_t)end + r->nt + 1;

	nodes = calloc(cap, sizeof(*nodes));
	share = calloc(cap, sizeof(*share));
	node_of = malloc(((size_t)end + 1) * sizeof(*node_of));
	if (!nodes || !share || !node_of) {
		e = -ENOMEM;
		goto out;
	}
	n = tg_nodes(s, nodes, node_of, end);
	k = n;		/* the first thread's node */
	thread_nodes(r, s, nodes, &n, node_of, now, until);
	/*
	 * Steal leaves each CPU 1 - steal of its time: solved in units of that, where a busy
	 * thread still asks for one CPU and a thread's own work (and a quota) for more of them.
	 */
	for (int i = 0; r->sc->steal > 0 && i < n; i++) {
		nodes[i].demand /= 1 - r->sc->steal;
		nodes[i].cap /= 1 - r->sc->steal;
	}
	if ((e = ideal_compute(nodes, (size_t)n, r->sc->sched.machine.cpus, share)))
		goto out;
	for (int i = 0; r->sc->steal > 0 && i < n; i++)
		share[i] *= 1 - r->sc->steal;
	memset(r->cur_cg, 0, (size_t)r->ncg * sizeof(*r->cur_cg));
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];

		r->cur_share[i] = 0;
		if (!cg_thread_alive(r->h, t->tid) || sched_thread_tg(s, t->tid, NULL) < 0)
			continue;	/* as thread_nodes() skips it */
		r->cur_share[i] = share[k++];
		for (int cg = cg_thread_cgroup(r->h, t->tid); cg >= 0;
		     cg = cg_cgroup_parent(r->h, cg))
			if (cg < r->ncg)
				r->cur_cg[cg] += r->cur_share[i];
	}
out:
	free(nodes);
	free(share);
	free(node_of);
	return e;
}

/*
 * Room in the per-cgroup tables for every cgroup id given so far, by doubling (a timeline of
 * mkdirs adds one id at a time). The tables grow together: on failure r->ncg, what all of them
 * hold, stays as it was. The new entries are zero (all-zero bytes are 0.0).
 */
int run__grow_cg(struct runner *r)
{
	size_t need = (size_t)cg_cgroup_max_id(r->h), ideal_cap = (size_t)r->ncg;
	size_t cur_cap = ideal_cap, cpu_cap = ideal_cap;

	if (need <= (size_t)r->ncg)
		return 0;
	if (UTIL_GROW_ZERO(r->ideal_cg, ideal_cap, need) || UTIL_GROW_ZERO(r->cur_cg, cur_cap, need) ||
	    UTIL_GROW_ZERO(r->cg_cpu, cpu_cap, need))
		return -ENOMEM;
	r->ncg = (int)ideal_cap;
	return 0;
}

/* Credit the current ideal shares up to @now (within the window). */
void run__ideal_accrue(struct runner *r, uint64_t now)
{
	double dt;

	if (now <= r->ideal_from)
		return;
	dt = (double)(now - r->ideal_from);
	for (size_t i = 0; i < r->nt; i++)
		r->t[i].ideal_ns += r->cur_share[i] * dt;
	for (int cg = 0; cg < r->ncg; cg++)
		r->ideal_cg[cg] += r->cur_cg[cg] * dt;
	r->ideal_from = now;
}
