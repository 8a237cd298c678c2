// SPDX-License-Identifier: MIT
/*
 * sim/run/run_measure.c - what a run measured (sim/run/run_internal.h): the time series,
 * the groups, the latency distribution, and each thread's and the machine's figures.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/run_internal.h"
#include "sim/util/util.h"

/* ---------------- the run ---------------- */

uint64_t run_percentile(const uint64_t *v, size_t n, double q)
{
	/*
	 * The rank ceil(q/100 n) in integers of tenths of a percent: in doubles 99.9/100 x 1000
	 * is a hair above 999 and would take rank 1000.
	 */
	uint64_t tenths = (uint64_t)llround(q * 10), k;

	if (!n)
		return 0;
	k = (tenths * (uint64_t)n + 999) / 1000;
	return v[k ? k - 1 : 0];
}

void run_usec_percentiles(const uint64_t *v, size_t n, const double *q, size_t nq, uint64_t *us,
			  uint64_t *count)
{
	size_t below = 0;	/* samples counted by the lines so far */

	for (size_t j = 0; j < nq; j++) {
		size_t upto = below;

		us[j] = run_percentile(v, n, q[j]) / 1000;
		/* the sorted samples up to the last one that is this value in microseconds */
		while (upto < n && v[upto] / 1000 <= us[j])
			upto++;
		count[j] = upto - below;
		below = upto;
	}
}

/* Sample the cumulative CPU of the series items into @row. */
void run__sample(struct runner *r, struct run_result *res, uint64_t *row)
{
	size_t k = 0;

	sim_machine_cgroup_cpu_all(r->m, r->cg_cpu, r->ncg);
	for (size_t g = 0; g < res->ngroups; g++)
		row[k++] = res->groups[g].cgroup < r->ncg ? r->cg_cpu[res->groups[g].cgroup] : 0;
	for (size_t i = 0; i < res->series_threads; i++) {
		struct sim_thread_metrics tm;

		row[k++] = sim_machine_thread_metrics(r->m, r->t[i].tid, &tm) ? 0 : tm.cpu_ns;
	}
}

/* The groups reported: every cgroup alive at the start of the window, root first. */
int run__list_groups(struct runner *r, struct run_result *res)
{
	int maxcg = cg_cgroup_max_id(r->h);
	char path[1100];

	res->groups = calloc((size_t)maxcg, sizeof(*res->groups));
	if (!res->groups)
		return -ENOMEM;
	for (int cg = 0; cg < maxcg; cg++) {
		struct run_group *g;

		if (!cg_cgroup_alive(r->h, cg))
			continue;
		g = &res->groups[res->ngroups++];
		g->cgroup = cg;
		cg_path(r->h, cg, path, sizeof(path));
		g->path = strdup(path);
		if (!g->path)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The latencies kept for every thread, merged and sorted, as at most 1000 points of their
 * distribution (each thread's kept samples weigh alike; see sim_machine_set_latency_keep()).
 */
static int latency_cdf(struct runner *r, struct run_result *res)
{
	size_t total = 0, k = 0, step;
	uint64_t *all;

	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_metrics tm;

		if (!sim_machine_thread_metrics(r->m, r->t[i].tid, &tm))
			total += tm.nlatency;
	}
	if (!total)
		return 0;
	all = malloc(total * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_metrics tm;

		/* a thread that never ran has no sample array at all: no memcpy from NULL */
		if (!sim_machine_thread_metrics(r->m, r->t[i].tid, &tm) && tm.nlatency) {
			memcpy(all + k, tm.latency, tm.nlatency * sizeof(*all));
			k += tm.nlatency;
		}
	}
	util_sort_u64(all, total);
	step = (total + 999) / 1000;
	res->ncdf = (total + step - 1) / step;
	res->cdf_ms = malloc(res->ncdf * sizeof(*res->cdf_ms));
	res->cdf_frac = malloc(res->ncdf * sizeof(*res->cdf_frac));
	if (!res->cdf_ms || !res->cdf_frac) {
		free(all);
		return -ENOMEM;
	}
	for (size_t j = 0; j < res->ncdf; j++) {
		size_t idx = (j + 1) * step - 1 < total ? (j + 1) * step - 1 : total - 1;

		res->cdf_ms[j] = (double)all[idx] / 1e6;
		res->cdf_frac[j] = (double)(idx + 1) / (double)total;
	}
	free(all);
	return 0;
}

static int cmp_act_idx(const void *a, const void *b)
{
	uint64_t x = ((const struct run_activation *)a)->idx;
	uint64_t y = ((const struct run_activation *)b)->idx;

	return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* A periodic thread, or one paced by timer steps (rt-app's periodic tasks). */
static bool paced(const struct sim_behavior *b)
{
	for (size_t i = 0; b->kind == SIM_BEHAV_PHASES && i < b->nphases; i++)
		if (b->phases[i].kind == SIM_STEP_TIMER)
			return true;
	return b->kind == SIM_BEHAV_PERIODIC;
}

/* A periodic thread's activations: the kept records by index, and the slack's figures. */
static int measure_activations(const struct sim_thread_metrics *tm, struct run_thread *o)
{
	int64_t *slack;

	o->periodic = true;
	o->acts_done = tm->acts_done;
	o->acts_missed = tm->acts_missed;
	if (!tm->nacts)
		return 0;
	o->acts = malloc(tm->nacts * sizeof(*o->acts));
	slack = malloc(tm->nacts * sizeof(*slack));
	if (!o->acts || !slack) {
		free(slack);
		return -ENOMEM;
	}
	for (size_t i = 0; i < tm->nacts; i++) {
		const struct sim_activation *a = &tm->acts[i];

		o->acts[i] = (struct run_activation){ a->idx, a->period_start, a->wakeup, a->start,
						      a->end, a->run, a->slack, a->missed };
		slack[i] = a->slack;
	}
	o->nacts = tm->nacts;
	qsort(o->acts, o->nacts, sizeof(*o->acts), cmp_act_idx);
	qsort(slack, o->nacts, sizeof(*slack), cmp_i64);
	o->slack_p50 = slack[(o->nacts + 1) / 2 - 1];	/* nearest rank: ceil(n / 2) */
	free(slack);
	o->slack_min = tm->slack_min;
	/* rounded to the nearest, halves away from zero */
	o->slack_mean = (int64_t)llround((double)tm->slack_sum / (double)tm->acts_done);
	return 0;
}

/* Thread @t's identity and figures into @o (share and ideal against @cap and the window). */
/*
 * Whether @b's demand, and so its ideal share, is only an upper bound: a closed loop (it
 * sleeps, or waits, after it runs, so less CPU stretches its cycle) rather than busy or paced
 * by the clock (periodic, absolute timers).
 */
static bool ideal_bound(const struct sim_behavior *b)
{
	if (b->kind == SIM_BEHAV_BURSTY)
		return true;
	for (size_t i = 0; b->kind == SIM_BEHAV_PHASES && i < b->nphases; i++) {
		const struct sim_phase *p = &b->phases[i];

		switch (p->kind) {
		case SIM_STEP_RUN:
		case SIM_STEP_REPEAT:
		case SIM_STEP_NICE:
		case SIM_STEP_POLICY:
		case SIM_STEP_SLICE:
		case SIM_STEP_AFFINITY:
		case SIM_STEP_CGROUP:
			break;
		case SIM_STEP_TIMER:
			if (!(p->flags & SIM_TIMER_ABSOLUTE))
				return true;
			break;
		default:
			return true;
		}
	}
	return false;
}

static int measure_thread(struct runner *r, const struct rthread *t, struct run_thread *o,
			  double cap, uint64_t window)
{
	struct sim_thread_metrics tm;
	char path[1100];
	int cg;

	o->tid = t->tid;
	o->ideal_bound = ideal_bound(&t->grp->spec.behavior);
	o->process = strdup(t->proc->name);
	o->name = util_asprintf("%s.%d", t->grp->name, t->index);
	cg = cg_thread_alive(r->h, t->tid) ? cg_thread_cgroup(r->h, t->tid) : 0;
	cg_path(r->h, cg, path, sizeof(path));
	o->cgroup = strdup(path);
	if (!o->process || !o->name || !o->cgroup)
		return -ENOMEM;
	if (sim_machine_thread_metrics(r->m, t->tid, &tm))
		return 1;	/* never ran: no figures */
	o->cpu_ns = tm.cpu_ns;
	o->wait_ns = tm.wait_ns;
	o->switches = tm.switches;
	o->migrations = tm.migrations;
	o->wakeups = tm.activations;
	o->delayed = tm.latency_delayed;
	o->overruns = tm.overruns;
	o->delays = tm.waits;
	o->delay_total = tm.wait_sum;
	o->delay_max = tm.wait_max;
	o->delay_max_start = tm.wait_max_since;
	o->delay_max_end = tm.wait_max_at;
	o->period_ns = t->grp->spec.behavior.period_ns;
	if (paced(&t->grp->spec.behavior) && measure_activations(&tm, o))
		return -ENOMEM;
	if (tm.nlatency) {
		uint64_t *lat = malloc(tm.nlatency * sizeof(*lat));

		if (!lat)
			return -ENOMEM;
		memcpy(lat, tm.latency, tm.nlatency * sizeof(*lat));
		util_sort_u64(lat, tm.nlatency);
		o->lat = lat;
		o->nlat = tm.nlatency;
		o->lat_p50 = run_percentile(lat, tm.nlatency, 50);
		o->lat_p90 = run_percentile(lat, tm.nlatency, 90);
		o->lat_p99 = run_percentile(lat, tm.nlatency, 99);
		o->lat_p999 = run_percentile(lat, tm.nlatency, 99.9);
		o->lat_max = tm.latency_max;
		o->lat_min = tm.latency_min;
		o->lat_samples = tm.latency_seen;
		o->lat_mean = (tm.latency_sum + tm.latency_seen / 2) / tm.latency_seen;
	}
	o->share = (double)o->cpu_ns / cap;
	o->ideal = t->ideal_ns / (double)window;
	return 0;
}

int run__measure(struct runner *r, struct run_result *res)
{
	const struct scenario *sc = r->sc;
	double cap = (double)sc->sched.machine.cpus * (double)res->measured_ns, sx = 0, sxx = 0;
	struct sim_machine_metrics mm;
	size_t nx = 0;

	res->threads = calloc(r->nt ? r->nt : 1, sizeof(*res->threads));
	if (!res->threads)
		return -ENOMEM;
	res->nthreads = r->nt;
	res->max_abs_error = res->max_rel_error = 0;
	for (size_t i = 0; i < r->nt; i++) {
		struct run_thread *o = &res->threads[i];
		int e = measure_thread(r, &r->t[i], o, cap, res->measured_ns);
		double x, d;

		if (e < 0)
			return e;
		if (e || o->ideal <= 0)
			continue;
		if (o->ideal_bound) {
			res->bound_threads++;
			continue;
		}
		/* fairness over the threads with an exact ideal share */
		x = o->share / o->ideal;
		d = fabs(o->share - o->ideal);
		sx += x;
		sxx += x * x;
		nx++;
		if (d > res->max_abs_error)
			res->max_abs_error = d;
		if (d / o->ideal > res->max_rel_error)
			res->max_rel_error = d / o->ideal;
	}
	if (latency_cdf(r, res))
		return -ENOMEM;
	/* Jain's index over share/ideal: 1 when every thread gets the same fraction of its ideal */
	res->jain = nx && sxx > 0 ? sx * sx / ((double)nx * sxx) : 1;
	res->fair_threads = nx;
	sim_machine_cgroup_cpu_all(r->m, r->cg_cpu, r->ncg);
	for (size_t g = 0; g < res->ngroups; g++) {
		struct run_group *o = &res->groups[g];

		o->cpu_ns = o->cgroup < r->ncg ? r->cg_cpu[o->cgroup] : 0;
		o->share = (double)o->cpu_ns / cap;
		o->ideal = o->cgroup < r->ncg ? r->ideal_cg[o->cgroup] / (double)res->measured_ns : 0;
	}
	sim_machine_metrics(r->m, &mm);
	res->overhead_ns = mm.overhead_ns;
	res->level_ops = mm.level_ops;
	res->level_walks = mm.level_walks;
	res->switches = mm.switches;
	res->migrations = mm.migrations;
	res->events = mm.events;
	return 0;
}
