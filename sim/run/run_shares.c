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

/* CPUs a thread would use alone, averaged over [t0, t1): its behaviour's duty cycle while on. */
static double demand(const struct scn_threads *g, uint64_t t0, uint64_t t1)
{
	const struct sim_behavior *b = &g->spec.behavior;
	uint64_t on0 = g->spec.start_ns > t0 ? g->spec.start_ns : t0;
	uint64_t on1 = g->spec.stop_ns && g->spec.stop_ns < t1 ? g->spec.stop_ns : t1;
	double duty = 0, run = 0, all = 0;

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
		for (size_t i = 0; i < b->nphases; i++) {
			double x = sim_dist_mean(&b->phases[i].d);

			all += x;
			if (!b->phases[i].sleep)
				run += x;
		}
		duty = all > 0 ? run / all : 0;
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

/* Recompute the ideal shares for the layout as it is now, over [now, @until). */
/*
 * The task groups, parents first (cgroup ids grow with creation), as nodes from @nodes[0];
 * node_of[cgroup id] is a cgroup's node, -1 for one that is not a task group. Returns how
 * many.
 */
static int tg_nodes(struct runner *r, struct ideal_node *nodes, int *node_of, int maxcg)
{
	int n = 0;

	for (int cg = 0; cg < maxcg; cg++) {
		struct cg_cpu_params p;

		node_of[cg] = -1;
		if (!cg_cgroup_alive(r->h, cg) || !cg_is_tg(r->h, cg))
			continue;
		node_of[cg] = n;
		nodes[n].parent = cg ? node_of[cg_tg_parent(r->h, cg)] : -1;
		nodes[n].weight = 1024;
		nodes[n].cap = (double)INFINITY;
		if (cg && !cg_tg_params(r->h, cg, &p)) {
			nodes[n].weight = p.idle ? SCHED_WEIGHT_IDLEPRIO : (double)p.shares;
			if (p.quota_us != CG_QUOTA_MAX && p.period_us)
				nodes[n].cap = (double)p.quota_us / (double)p.period_us;
		}
		n++;
	}
	return n;
}

/*
 * With autogroup, one hidden group per session under the root, for its root threads, in the
 * order of their first thread, as nodes from @nodes[*@n]; @ag maps a session to its node.
 */
static int autogroup_nodes(struct runner *r, struct ideal_node *nodes, int *n,
			   struct util_imap *ag)
{
	for (size_t i = 0; r->sc->autogroup && i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		int a;

		if (!cg_thread_alive(r->h, t->tid) || cg_thread_tg(r->h, t->tid) != 0 ||
		    util_imap_get(ag, t->session, &a))
			continue;
		if (util_imap_put(ag, t->session, *n))
			return -ENOMEM;
		nodes[*n].parent = 0;
		nodes[*n].weight = sched_nice_weight(t->session_nice);
		nodes[*n].cap = (double)INFINITY;
		(*n)++;
	}
	return 0;
}

/* The live threads, in order, as leaves under their task group (or autogroup). */
static void thread_nodes(struct runner *r, struct ideal_node *nodes, int *n, const int *node_of,
			 const struct util_imap *ag, uint64_t now, uint64_t until)
{
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		int tg, a;

		if (!cg_thread_alive(r->h, t->tid))
			continue;
		tg = cg_thread_tg(r->h, t->tid);
		nodes[*n].parent = node_of[tg];
		if (r->sc->autogroup && tg == 0 && util_imap_get(ag, t->session, &a))
			nodes[*n].parent = a;
		nodes[*n].thread = true;
		nodes[*n].weight = t->grp->spec.policy == SCHED_THREAD_IDLE
				   ? SCHED_WEIGHT_IDLEPRIO
				   : sched_nice_weight(t->grp->spec.nice);
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
	int maxcg = cg_cgroup_max_id(r->h), *node_of = NULL, n = 0, k, e = 0;
	struct util_imap ag = { 0 };
	struct ideal_node *nodes = NULL;
	double *share = NULL;
	size_t cap = (size_t)maxcg + 2 * r->nt + 1;

	nodes = calloc(cap, sizeof(*nodes));
	share = calloc(cap, sizeof(*share));
	node_of = malloc((size_t)maxcg * sizeof(*node_of));
	if (!nodes || !share || !node_of) {
		e = -ENOMEM;
		goto out;
	}
	n = tg_nodes(r, nodes, node_of, maxcg);
	if ((e = autogroup_nodes(r, nodes, &n, &ag)))
		goto out;
	k = n;		/* the first thread's node */
	thread_nodes(r, nodes, &n, node_of, &ag, now, until);
	if ((e = ideal_compute(nodes, (size_t)n, r->sc->sched.cpus, share)))
		goto out;
	memset(r->cur_cg, 0, (size_t)r->ncg * sizeof(*r->cur_cg));
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];

		r->cur_share[i] = 0;
		if (!cg_thread_alive(r->h, t->tid))
			continue;
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
	util_imap_free(&ag);
	return e;
}

int run__grow_cg(struct runner *r)
{
	int need = cg_cgroup_max_id(r->h);

	if (need <= r->ncg)
		return 0;
	{
		double *a = realloc(r->ideal_cg, (size_t)need * sizeof(*a));
		double *b;

		if (!a)
			return -ENOMEM;
		r->ideal_cg = a;
		b = realloc(r->cur_cg, (size_t)need * sizeof(*b));
		if (!b)
			return -ENOMEM;
		r->cur_cg = b;
		{
			uint64_t *c = realloc(r->cg_cpu, (size_t)need * sizeof(*c));

			if (!c)
				return -ENOMEM;
			r->cg_cpu = c;
		}
		for (int i = r->ncg; i < need; i++)
			r->ideal_cg[i] = r->cur_cg[i] = 0;
		r->ncg = need;
	}
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
