// SPDX-License-Identifier: MIT
/*
 * sim/run/expect.c - evaluating `expect:` entries (sim/run/expect.h).
 *
 * A process's figure is the sum over its threads (share, CPU, wait, switches, migrations) or
 * the largest over them (latencies). Machine-wide figures are the run's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/expect.h"

bool expect_applies(const struct scn_expect *e, const char *variant)
{
	return !strcmp(e->variant ? e->variant : "base", variant);
}

const char *expect_metric_name(enum scn_metric m)
{
	static const char *const names[] = {
		[SCN_M_SHARE] = "share", [SCN_M_CPU] = "cpu", [SCN_M_WAIT] = "wait",
		[SCN_M_LAT_P50] = "latency_p50", [SCN_M_LAT_P90] = "latency_p90",
		[SCN_M_LAT_P99] = "latency_p99", [SCN_M_LAT_MAX] = "latency_max",
		[SCN_M_LAT_P999] = "latency_p999", [SCN_M_LAT_MIN] = "latency_min",
		[SCN_M_LAT_MEAN] = "latency_mean",
		[SCN_M_DELAYED] = "delayed", [SCN_M_SWITCHES] = "switches",
		[SCN_M_MIGRATIONS] = "migrations", [SCN_M_JAIN] = "jain",
		[SCN_M_MAX_ABS_ERROR] = "max_abs_error", [SCN_M_MAX_REL_ERROR] = "max_rel_error",
		[SCN_M_OVERHEAD] = "overhead", [SCN_M_LEVEL_OPS] = "level_ops_per_sec",
		[SCN_M_SWITCH_RATE] = "switches_per_sec",
	};

	return names[m];
}

static bool is_latency(enum scn_metric m)
{
	return m == SCN_M_LAT_P50 || m == SCN_M_LAT_P90 || m == SCN_M_LAT_P99 ||
	       m == SCN_M_LAT_P999 || m == SCN_M_LAT_MAX || m == SCN_M_LAT_MIN ||
	       m == SCN_M_LAT_MEAN;
}

static bool is_time(enum scn_metric m)
{
	return m == SCN_M_CPU || m == SCN_M_WAIT || is_latency(m);
}

/* Per-thread figures whose process-wide value is the largest of its threads', not the sum. */
static bool is_worst(enum scn_metric m)
{
	return is_latency(m) || m == SCN_M_DELAYED;
}

static double thread_metric(const struct run_thread *t, enum scn_metric m)
{
	switch (m) {
	case SCN_M_SHARE:
		return t->share;
	case SCN_M_CPU:
		return (double)t->cpu_ns;
	case SCN_M_WAIT:
		return (double)t->wait_ns;
	case SCN_M_LAT_P50:
		return (double)t->lat_p50;
	case SCN_M_LAT_P90:
		return (double)t->lat_p90;
	case SCN_M_DELAYED:
		/* of the wakeups that slept; a thread that never woke never waited */
		return t->wakeups > t->overruns ? (double)t->delayed /
						   (double)(t->wakeups - t->overruns) : 0.0;
	case SCN_M_LAT_P99:
		return (double)t->lat_p99;
	case SCN_M_LAT_MAX:
		return (double)t->lat_max;
	case SCN_M_LAT_P999:
		return (double)t->lat_p999;
	case SCN_M_LAT_MIN:
		return (double)t->lat_min;
	case SCN_M_LAT_MEAN:
		return (double)t->lat_mean;
	case SCN_M_SWITCHES:
		return (double)t->switches;
	case SCN_M_MIGRATIONS:
		return (double)t->migrations;
	default:
		return (double)NAN;
	}
}

/*
 * The measured figure, or NaN when the entry names nothing in the run (*@unmeasured false) or
 * a latency or delayed share of threads that never woke in the window (true): a figure of
 * no wakeup is no evidence that a bound holds.
 */
static double measured(const struct run_result *r, const struct scn_expect *e, bool *unmeasured)
{
	double secs = (double)r->measured_ns / 1e9, v = 0;
	bool any = false, found = false;

	*unmeasured = false;
	switch (e->target) {
	case SCN_T_MACHINE:
		switch (e->metric) {
		case SCN_M_JAIN:
			return r->jain;
		case SCN_M_MAX_ABS_ERROR:
			return r->max_abs_error;
		case SCN_M_MAX_REL_ERROR:
			return r->max_rel_error;
		case SCN_M_OVERHEAD:
			return (double)r->overhead_ns / ((double)r->cpus * (double)r->measured_ns);
		case SCN_M_LEVEL_OPS:
			return (double)r->level_ops / secs;
		case SCN_M_SWITCH_RATE:
			return (double)r->switches / secs;
		default:
			return (double)NAN;
		}
	case SCN_T_GROUP:
		for (size_t i = 0; i < r->ngroups; i++) {
			const struct run_group *g = &r->groups[i];

			if (strcmp(g->path, *e->name ? e->name : "/"))
				continue;
			if (e->metric == SCN_M_SHARE)
				return g->share;
			if (e->metric == SCN_M_CPU)
				return (double)g->cpu_ns;
			return (double)NAN;
		}
		return (double)NAN;
	case SCN_T_PROCESS:
	case SCN_T_THREAD:
		for (size_t i = 0; i < r->nthreads; i++) {
			const struct run_thread *t = &r->threads[i];
			double x;

			if (e->target == SCN_T_PROCESS) {
				if (strcmp(t->process, e->name))
					continue;
			} else {
				size_t pl = strlen(t->process);

				if (strncmp(e->name, t->process, pl) || e->name[pl] != '/' ||
				    strcmp(e->name + pl + 1, t->name))
					continue;
			}
			found = true;
			if (is_worst(e->metric) && !t->lat_samples)
				continue;	/* never woke: nothing to judge */
			x = thread_metric(t, e->metric);
			if (is_worst(e->metric))
				v = any && v > x ? v : x;
			else
				v += x;
			any = true;
		}
		*unmeasured = found && !any;
		return any ? v : (double)NAN;
	}
	return (double)NAN;
}

double expect_measure(const struct run_result *r, enum scn_target target, const char *name,
		      enum scn_metric metric)
{
	struct scn_expect one = { .target = target, .name = (char *)name, .metric = metric };
	bool unmeasured;

	return measured(r, &one, &unmeasured);
}

static void show(FILE *f, double v, enum scn_metric m)
{
	if (is_time(m))
		fprintf(f, "%.3f ms", v / 1e6);
	else if (m == SCN_M_SWITCHES || m == SCN_M_MIGRATIONS || m == SCN_M_LEVEL_OPS ||
		 m == SCN_M_SWITCH_RATE)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.4f", v);
}

/* What entry @e expects, after "(expected ". */
static void show_expected(FILE *f, const struct scn_expect *e)
{
	if (e->has_value) {
		show(f, e->value, e->metric);
		fputs(" +- ", f);
		show(f, e->tolerance, e->metric);
	} else if (isfinite(e->min) && isfinite(e->max)) {
		show(f, e->min, e->metric);
		fputs(" .. ", f);
		show(f, e->max, e->metric);
	} else if (isfinite(e->min)) {
		fputs(">= ", f);
		show(f, e->min, e->metric);
	} else {
		fputs("<= ", f);
		show(f, e->max, e->metric);
	}
}

/* Entry @e against @r: its verdict and the line that says it. */
/*
 * Entry @e judged on the mean of its figure over @runs (@nruns of them, seeds of one variant):
 * a figure missing or unmeasured in any run is so for the entry.
 */
static int judge(const struct run_result *const *runs, size_t nruns, const struct scn_expect *e,
		 struct expect_result *out)
{
	const struct scenario *sc = runs[0]->sc;
	bool unmeasured = false;
	double v = 0, lo = (double)INFINITY, hi = -(double)INFINITY;
	size_t len = 0;
	FILE *f;

	for (size_t k = 0; k < nruns; k++) {
		bool um;
		double x = measured(runs[k], e, &um);

		unmeasured |= um;
		v += x / (double)nruns;
		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}

	if (isnan(v))
		out->ok = false;
	else if (e->has_value)
		out->ok = fabs(v - e->value) <= e->tolerance * (1 + 1e-9) + 1e-12;
	else
		out->ok = v >= e->min && v <= e->max;
	out->line = e->pos.line;
	out->text = NULL;
	if (!(f = open_memstream(&out->text, &len)))
		return -ENOMEM;
	fprintf(f, "%s:%d [%s] ", sc->file, e->pos.line, sc->variant);
	if (e->target != SCN_T_MACHINE)
		fprintf(f, "%s %s ", e->target == SCN_T_GROUP ? "group"
				     : e->target == SCN_T_PROCESS ? "process" : "thread",
			e->target == SCN_T_GROUP && !*e->name ? "/" : e->name);
	fprintf(f, "%s", expect_metric_name(e->metric));
	if (fflush(f) || !(out->id = strndup(out->text, len))) {
		fclose(f);
		return -ENOMEM;
	}
	fputc(' ', f);
	if (unmeasured)
		fputs("not measured: no wakeup in the measured window", f);
	else if (isnan(v))
		fputs("not found in the run", f);
	else
		show(f, v, e->metric);
	if (nruns > 1 && !isnan(v)) {
		fprintf(f, " (mean of %zu seeds, ", nruns);
		show(f, lo, e->metric);
		fputs(" to ", f);
		show(f, hi, e->metric);
		fputc(')', f);
	}
	fputs(" (expected ", f);
	show_expected(f, e);
	fputs(")", f);
	return fclose(f) || !out->text ? -ENOMEM : 0;
}

int expect_results(const struct run_result *r, struct expect_result **out, size_t *n)
{
	return expect_results_seeds(&r, 1, out, n);
}

int expect_results_seeds(const struct run_result *const *runs, size_t nruns,
			 struct expect_result **out, size_t *n)
{
	const struct scenario *sc = runs[0]->sc;
	struct expect_result *v = calloc(sc->nexpect ? sc->nexpect : 1, sizeof(*v));

	*out = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < sc->nexpect; i++) {
		if (!expect_applies(&sc->expect[i], sc->variant))
			continue;
		if (judge(runs, nruns, &sc->expect[i], &v[*n])) {
			expect_results_free(v, *n + 1);
			*n = 0;
			return -ENOMEM;
		}
		(*n)++;
	}
	*out = v;
	return 0;
}

void expect_results_free(struct expect_result *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].text);
		free(v[i].id);
	}
	free(v);
}
