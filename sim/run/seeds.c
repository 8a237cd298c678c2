// SPDX-License-Identifier: MIT
/*
 * sim/run/seeds.c - several seeds of one scenario summed up (sim/run/seeds.h).
 *
 * The interval is that of the mean over the runs, which are independent draws of the random
 * streams: x̄ ± t(0.975, n-1) s / sqrt(n), s the sample standard deviation. It says how far
 * the mean of these runs may be from the mean over all seeds; the min and max say how far one
 * run may be from another.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"

struct seeds_stat seeds_stat(const double *v, size_t n)
{
	struct seeds_stat s = { 0 };

	if (!n)
		return s;
	s.mean = gsl_stats_mean(v, 1, n);
	gsl_stats_minmax(&s.min, &s.max, v, 1, n);
	if (n > 1)
		s.ci = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * gsl_stats_sd_m(v, 1, n, s.mean) /
		       sqrt((double)n);
	return s;
}

int seeds_load(struct scn_source *src, const char *variant, const char *const *sets,
	       size_t nsets, size_t sweep, uint64_t base, size_t k, struct scenario **sc,
	       char *err, size_t errlen)
{
	const char **all;
	char seedset[48];

	*sc = NULL;
	if (base + k < base) {
		snprintf(err, errlen, "cgsim: %zu seeds from seed %llu pass 2^64 - 1", k + 1,
			 (unsigned long long)base);
		return -ERANGE;
	}
	all = malloc((nsets + 1) * sizeof(*all));
	if (!all) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	if (nsets)
		memcpy(all, sets, nsets * sizeof(*all));
	snprintf(seedset, sizeof(seedset), "seed=%llu", (unsigned long long)(base + k));
	all[nsets] = seedset;
	*sc = scn_source_load(src, variant, all, nsets + 1, sweep, err, errlen);
	free(all);
	return *sc ? 0 : -EINVAL;
}

int seeds_run(struct scn_source *src, const char *variant, const char *const *sets,
	      size_t nsets, size_t sweep, uint64_t base, size_t k, struct scenario **sc,
	      struct run_result **out, char *err, size_t errlen)
{
	int e;

	*out = NULL;
	if ((e = seeds_load(src, variant, sets, nsets, sweep, base, k, sc, err, errlen)))
		return e;
	err[0] = '\0';
	e = run_scenario(*sc, false, out, err, errlen);
	if (e) {
		if (!err[0])
			snprintf(err, errlen, "cgsim: the run failed");
		scn_free(*sc);
		*sc = NULL;
	}
	return e;
}

static bool same_layout(const struct run_result *a, const struct run_result *b)
{
	if (a->ngroups != b->ngroups || a->nthreads != b->nthreads)
		return false;
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].path, b->groups[i].path))
			return false;
	for (size_t i = 0; i < a->nthreads; i++)
		if (strcmp(a->threads[i].process, b->threads[i].process) ||
		    strcmp(a->threads[i].name, b->threads[i].name))
			return false;
	return true;
}

#define SEEDS_ROW(key, field, type, ns, over) { #key, ns, SEEDS_##over },
const struct seeds_figure seeds_thread_figures[SEEDS_NTHREAD] = {
	SEEDS_THREAD_FIGURES(SEEDS_ROW)
};
const struct seeds_figure seeds_group_figures[SEEDS_NGROUP] = { SEEDS_GROUP_FIGURES(SEEDS_ROW) };

static double as_u64(uint64_t v)
{
	return (double)v;
}

static double as_i64(int64_t v)
{
	return (double)v;
}

static double as_dbl(double v)
{
	return v;
}

/* fn(it, f): row @f's figure of @it, a struct ITEM, a case per row of the table FIGS */
#define SEEDS_VALUE(fn, ITEM, FIGS, CASE) \
	static double fn(const struct ITEM *it, int f) \
	{ \
		switch (f) { \
		FIGS(CASE) \
		default: \
			return 0; \
		} \
	}
#define SEEDS_T_CASE(key, field, type, ns, over) case SEEDS_T_##key: return as_##type(it->field);
#define SEEDS_G_CASE(key, field, type, ns, over) case SEEDS_G_##key: return as_##type(it->field);
SEEDS_VALUE(thread_value, run_thread, SEEDS_THREAD_FIGURES, SEEDS_T_CASE)
SEEDS_VALUE(group_value, run_group, SEEDS_GROUP_FIGURES, SEEDS_G_CASE)

/* Whether run thread @t has figures of kind @over. */
static bool has(const struct run_thread *t, enum seeds_over over)
{
	return over == SEEDS_ALL || (over == SEEDS_WOKE ? t->lat_samples > 0 : t->acts_done > 0);
}

/* Thread @i of every run summed up into @out, @v scratch room for @n values. */
static void sum_thread(struct run_result **runs, size_t n, size_t i, double *v,
		       struct seeds_thread *out)
{
	for (int f = 0; f < SEEDS_NTHREAD; f++) {
		enum seeds_over over = seeds_thread_figures[f].over;
		size_t m = 0;

		for (size_t k = 0; k < n; k++)
			if (has(&runs[k]->threads[i], over))
				v[m++] = thread_value(&runs[k]->threads[i], f);
		out->fig[f] = seeds_stat(v, m);
		if (over == SEEDS_WOKE)
			out->woke = m;
		else if (over == SEEDS_ACTIVE)
			out->active = m;
	}
}

int seeds_sum(struct run_result **runs, size_t n, uint64_t first, struct seeds **out, char *err,
	      size_t errlen)
{
	const struct run_result *r0 = runs[0];
	struct seeds *s = calloc(1, sizeof(*s));
	double *v = malloc(n * sizeof(*v)), *w = malloc(n * sizeof(*w)), *x = malloc(n * sizeof(*x));
	double *y = malloc(n * sizeof(*y));

	if (!s || !v || !w || !x || !y)
		goto nomem;
	s->first = first;
	s->n = n;
	s->runs = runs;
	for (size_t k = 1; k < n; k++) {
		if (!same_layout(r0, runs[k])) {
			snprintf(err, errlen, "%s: seed %llu gives other cgroups or threads than "
				 "seed %llu: the runs cannot be summed up", r0->sc->file,
				 (unsigned long long)(first + k), (unsigned long long)first);
			free(v), free(w), free(x), free(y);
			s->runs = NULL;
			seeds_free(s);
			return -EINVAL;
		}
	}
	s->groups = calloc(r0->ngroups ? r0->ngroups : 1, sizeof(*s->groups));
	s->threads = calloc(r0->nthreads ? r0->nthreads : 1, sizeof(*s->threads));
	if (!s->groups || !s->threads)
		goto nomem;
	for (size_t i = 0; i < r0->ngroups; i++) {
		for (int f = 0; f < SEEDS_NGROUP; f++) {
			for (size_t k = 0; k < n; k++)
				v[k] = group_value(&runs[k]->groups[i], f);
			s->groups[i].fig[f] = seeds_stat(v, n);
		}
	}
	for (size_t i = 0; i < r0->nthreads; i++)
		sum_thread(runs, n, i, v, &s->threads[i]);
	for (size_t k = 0; k < n; k++) {
		const struct run_result *r = runs[k];
		double secs = (double)r->measured_ns / 1e9;

		v[k] = r->jain;
		w[k] = r->max_abs_error;
		x[k] = (double)r->overhead_ns / ((double)r->cpus * (double)r->measured_ns);
		y[k] = secs > 0 ? (double)r->switches / secs : 0;
	}
	s->jain = seeds_stat(v, n);
	s->max_abs_error = seeds_stat(w, n);
	s->overhead = seeds_stat(x, n);
	s->switches_per_s = seeds_stat(y, n);
	free(v), free(w), free(x), free(y);
	*out = s;
	return 0;
nomem:
	free(v), free(w), free(x), free(y);
	if (s)
		s->runs = NULL;
	seeds_free(s);
	snprintf(err, errlen, "cgsim: out of memory");
	return -ENOMEM;
}

void seeds_free(struct seeds *s)
{
	if (!s)
		return;
	for (size_t k = 0; s->runs && k < s->n; k++)
		run_free(s->runs[k]);
	free(s->runs);
	free(s->groups);
	free(s->threads);
	free(s);
}
