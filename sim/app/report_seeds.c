// SPDX-License-Identifier: MIT
/*
 * sim/app/report_seeds.c - cgsim run --seeds N: the runs of one scenario summed up, as text
 * within 80 columns and as JSON (docs/scenario-format.md, "Several seeds").
 */
#include <stdio.h>

#include "sim/app/report.h"
#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"
#include "scheduler/sched.h"

static double ms(double ns)
{
	return ns / 1e6;
}

static void text_head(FILE *f, const struct seeds *s)
{
	const struct run_result *r = s->runs[0];
	const struct scenario *sc = r->sc;

	fprintf(f, "%s (variant %s, seeds %llu to %llu)\n", sc->name, sc->variant,
		(unsigned long long)s->first, (unsigned long long)(s->first + s->n - 1));
	fprintf(f, "%d CPUs, %s, %s semantics, %.3f s measured after %.3f s of warm-up\n", r->cpus,
		sched_policy_name(sc->sched.policy), cg_semantics_name(sc->semantics),
		(double)r->measured_ns / 1e9, (double)sc->warmup / 1e9);
	fprintf(f, "%zu runs: mean, least, greatest, and +- the 95 %% interval of the mean\n\n",
		s->n);
}

void report_seeds_text(FILE *f, const struct seeds *s)
{
	const struct run_result *r = s->runs[0];
	char vis[REPORT_VISIBLE_SIZE(1100)];

	text_head(f, s);
	fprintf(f, "%-32s %7s %7s %7s %8s %8s\n", "cgroup", "share", "min", "max", "+-", "ideal");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct seeds_stat *g = &s->groups[i];
		const char *p = report_visible(r->groups[i].path, vis, sizeof(vis));

		report_label(f, p, 32);
		fprintf(f, " %7.4f %7.4f %7.4f %8.4f %8.4f\n", g->mean, g->min, g->max, g->ci,
			r->groups[i].ideal);
	}
	fprintf(f, "\n%-24s %7s %7s %7s %7s %8s %9s\n", "thread", "share", "min", "max", "+-",
		"ideal", "p99 ms");
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		const struct seeds_thread *st = &s->threads[i];
		char name[160];

		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		report_label(f, name, 24);
		fprintf(f, t->ideal_bound ? " %7.4f %7.4f %7.4f %7.4f %7.4f*" :
			" %7.4f %7.4f %7.4f %7.4f %8.4f", st->share.mean, st->share.min,
			st->share.max, st->share.ci, t->ideal);
		if (st->woke)
			fprintf(f, " %9.3f\n", ms(st->lat_p99.mean));
		else
			fprintf(f, " %9s\n", "-");
	}
	if (r->bound_threads)
		fputs("* the ideal is only an upper bound: the thread sleeps or waits after it runs\n",
		      f);
	fprintf(f, "\nfairness: Jain %.4f (%.4f to %.4f, +- %.4f)\n", s->jain.mean, s->jain.min,
		s->jain.max, s->jain.ci);
	fprintf(f, "  largest error %.4f absolute (%.4f to %.4f)\n", s->max_abs_error.mean,
		s->max_abs_error.min, s->max_abs_error.max);
	fprintf(f, "scheduler: overhead %.3f %% of capacity (%.3f to %.3f), %.0f switches/s\n",
		100 * s->overhead.mean, 100 * s->overhead.min, 100 * s->overhead.max,
		s->switches_per_s.mean);
}

/* "KEY": mean, "KEY_min": ..., "KEY_max": ..., "KEY_ci": ... (@scale: ns are written whole) */
static void json_stat(FILE *f, const char *key, const struct seeds_stat *st, bool ns)
{
	if (ns)
		fprintf(f, "\"%s\": %.0f, \"%s_min\": %.0f, \"%s_max\": %.0f, \"%s_ci\": %.0f", key,
			st->mean, key, st->min, key, st->max, key, st->ci);
	else
		fprintf(f, "\"%s\": %.6f, \"%s_min\": %.6f, \"%s_max\": %.6f, \"%s_ci\": %.6f", key,
			st->mean, key, st->min, key, st->max, key, st->ci);
}

void report_seeds_json(FILE *f, const struct seeds *s)
{
	const struct run_result *r = s->runs[0];

	report_json_head(f, r, s->n);
	fputs("  \"groups\": [", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		fprintf(f, "%s\n    { \"path\": ", i ? "," : "");
		report_json_string(f, r->groups[i].path);
		fputs(", ", f);
		json_stat(f, "share", &s->groups[i], false);
		fprintf(f, ", \"ideal\": %.6f }", r->groups[i].ideal);
	}
	fputs("\n  ],\n  \"threads\": [", f);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		const struct seeds_thread *st = &s->threads[i];

		fprintf(f, "%s\n    { \"process\": ", i ? "," : "");
		report_json_string(f, t->process);
		fputs(", \"name\": ", f);
		report_json_string(f, t->name);
		fputs(", \"cgroup\": ", f);
		report_json_string(f, t->cgroup);
		fputs(",\n      ", f);
		json_stat(f, "share", &st->share, false);
		fprintf(f, ", \"ideal\": %.6f, \"ideal_bound\": %s,\n      ", t->ideal,
			t->ideal_bound ? "true" : "false");
		json_stat(f, "wait_ns", &st->wait_ns, true);
		fprintf(f, ", \"woke_runs\": %zu", st->woke);
		if (st->woke) {
			fputs(",\n      ", f);
			json_stat(f, "latency_p50_ns", &st->lat_p50, true);
			fputs(",\n      ", f);
			json_stat(f, "latency_p99_ns", &st->lat_p99, true);
		}
		fputs(" }", f);
	}
	fputs("\n  ],\n  \"fairness\": { ", f);
	json_stat(f, "jain", &s->jain, false);
	fputs(",\n    ", f);
	json_stat(f, "max_abs_error", &s->max_abs_error, false);
	fputs(" },\n  \"overhead\": { ", f);
	json_stat(f, "fraction", &s->overhead, false);
	fputs(",\n    ", f);
	json_stat(f, "switches_per_s", &s->switches_per_s, false);
	fputs(" }\n}\n", f);
}
