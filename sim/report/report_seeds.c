// SPDX-License-Identifier: MIT
/*
 * sim/report/report_seeds.c - cgsim run --seeds N: the runs of one scenario summed up, as text
 * within 80 columns and as JSON (docs/scenario-format.md, "Several seeds").
 */
#include <stdio.h>

#include "sim/report/report.h"
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
	report_kernel_text(f, &sc->sched, "");
	fprintf(f, "%d CPUs, %s semantics, %.3f s measured after %.3f s of warm-up\n", r->cpus,
		cg_semantics_name(sc->semantics), (double)r->measured_ns / 1e9,
		(double)sc->warmup / 1e9);
	fprintf(f, "%zu runs: mean, least, greatest, and +- the 95 %% interval of the mean\n\n",
		s->n);
}

/* A block's row for thread @t: its label, after the block's @head if it is the first (*@any). */
static void row_label(FILE *f, bool *any, const char *head, const struct run_thread *t)
{
	char name[160];

	if (!*any)
		fputs(head, f);
	*any = true;
	snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
	report_label(f, name, 16);
}

/* The single run's wakeup latency block, each figure's mean and spread. */
static void text_latency(FILE *f, const struct seeds *s)
{
	static const int lat[] = { SEEDS_T_latency_p50_ns, SEEDS_T_latency_p90_ns,
		SEEDS_T_latency_p99_ns, SEEDS_T_latency_p999_ns, SEEDS_T_latency_min_ns,
		SEEDS_T_latency_max_ns, SEEDS_T_latency_mean_ns };
	const struct run_result *r = s->runs[0];
	bool any = false;

	for (size_t i = 0; i < r->nthreads; i++) {
		const struct seeds_thread *st = &s->threads[i];

		if (!st->woke)
			continue;
		row_label(f, &any, "\nwakeup latency    p50 ms     p90     p99   p99.9     min     max"
			  "    mean samples\n", &r->threads[i]);
		for (size_t j = 0; j < sizeof(lat) / sizeof(lat[0]); j++)
			fprintf(f, " %7.3f", ms(st->fig[lat[j]].mean));
		fprintf(f, " %7.0f\n%-16s", st->fig[SEEDS_T_latency_samples].mean, "  +-");
		for (size_t j = 0; j < sizeof(lat) / sizeof(lat[0]); j++)
			fprintf(f, " %7.3f", ms(st->fig[lat[j]].ci));
		fprintf(f, " %7.0f\n", st->fig[SEEDS_T_latency_samples].ci);
	}
	if (any)
		fputs("latencies over the runs in which the thread woke\n", f);
}

/* rt-app's view of the periodic threads, each figure's mean and spread. */
static void text_activations(FILE *f, const struct seeds *s)
{
	static const int counts[] = { SEEDS_T_activations, SEEDS_T_overruns,
		SEEDS_T_missed_periods };
	static const int slack[] = { SEEDS_T_slack_min_ns, SEEDS_T_slack_p50_ns,
		SEEDS_T_slack_mean_ns };
	const struct run_result *r = s->runs[0];
	bool any = false;

	for (size_t i = 0; i < r->nthreads; i++) {
		const struct seeds_thread *st = &s->threads[i];

		if (!r->threads[i].periodic)
			continue;
		row_label(f, &any, "\nperiodic           activ. overruns   missed   slack min      p50"
			  "  mean ms\n", &r->threads[i]);
		for (int row = 0; row < 2; row++) {
			if (row)
				fprintf(f, "%-16s", "  +-");
			for (size_t j = 0; j < 3; j++)
				fprintf(f, " %8.1f", row ? st->fig[counts[j]].ci
						     : st->fig[counts[j]].mean);
			for (size_t j = 0; j < 3; j++)
				fprintf(f, j ? " %8.3f" : " %11.3f", ms(row ? st->fig[slack[j]].ci
									: st->fig[slack[j]].mean));
			fputc('\n', f);
		}
	}
	if (any)
		fputs("slack over the runs in which an activation of the thread ended\n", f);
}

void report_seeds_text(FILE *f, const struct seeds *s)
{
	const struct run_result *r = s->runs[0];
	char vis[REPORT_VISIBLE_SIZE(1100)];

	text_head(f, s);
	fprintf(f, "%-20s %9s %8s %7s %7s %7s %7s %7s\n", "cgroup", "cpu s", "+-", "share",
		"min", "max", "+-", "ideal");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct seeds_stat *cpu = &s->groups[i].fig[SEEDS_G_cpu_ns];
		const struct seeds_stat *g = &s->groups[i].fig[SEEDS_G_share];

		report_label(f, report_visible(r->groups[i].path, vis, sizeof(vis)), 20);
		fprintf(f, " %9.3f %8.3f %7.4f %7.4f %7.4f %7.4f %7.4f\n", cpu->mean / 1e9,
			cpu->ci / 1e9, g->mean, g->min, g->max, g->ci, r->groups[i].ideal);
	}
	fprintf(f, "\n%-24s %7s %7s %7s %7s %8s\n", "thread", "share", "min", "max", "+-",
		"ideal");
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		const struct seeds_stat *sh = &s->threads[i].fig[SEEDS_T_share];
		char name[160];

		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		report_label(f, name, 24);
		fprintf(f, t->ideal_bound ? " %7.4f %7.4f %7.4f %7.4f %7.4f*\n" :
			" %7.4f %7.4f %7.4f %7.4f %8.4f\n", sh->mean, sh->min, sh->max, sh->ci,
			t->ideal);
	}
	if (r->bound_threads)
		fputs("* the ideal is only an upper bound: the thread sleeps or waits after it runs\n",
		      f);
	fprintf(f, "\n%-24s %9s %8s %9s %8s %7s %6s\n", "thread", "wait ms", "+-", "switches",
		"+-", "migr", "+-");
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct seeds_stat *fig = s->threads[i].fig;
		char name[160];

		snprintf(name, sizeof(name), "%s/%s", r->threads[i].process, r->threads[i].name);
		report_label(f, name, 24);
		fprintf(f, " %9.3f %8.3f %9.1f %8.1f %7.1f %6.1f\n", ms(fig[SEEDS_T_wait_ns].mean),
			ms(fig[SEEDS_T_wait_ns].ci), fig[SEEDS_T_switches].mean,
			fig[SEEDS_T_switches].ci, fig[SEEDS_T_migrations].mean,
			fig[SEEDS_T_migrations].ci);
	}
	text_latency(f, s);
	text_activations(f, s);
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

/* Each figure of @tab (@n rows) in @fig but the @skip-th, one a line after @sep. */
static void json_figures(FILE *f, const struct seeds_figure *tab, const struct seeds_stat *fig,
			 int n, int skip, const char *sep)
{
	for (int j = 0; j < n; j++) {
		if (j == skip)
			continue;
		fputs(sep, f);
		json_stat(f, tab[j].key, &fig[j], tab[j].ns);
	}
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
		json_stat(f, "share", &s->groups[i].fig[SEEDS_G_share], false);
		fprintf(f, ", \"ideal\": %.6f", r->groups[i].ideal);
		json_figures(f, seeds_group_figures, s->groups[i].fig, SEEDS_NGROUP, SEEDS_G_share,
			     ",\n      ");
		fputs(" }", f);
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
		json_stat(f, "share", &st->fig[SEEDS_T_share], false);
		fprintf(f, ", \"ideal\": %.6f, \"ideal_bound\": %s,\n      \"woke_runs\": %zu, "
			   "\"activation_runs\": %zu", t->ideal, t->ideal_bound ? "true" : "false",
			st->woke, st->active);
		json_figures(f, seeds_thread_figures, st->fig, SEEDS_NTHREAD, SEEDS_T_share,
			     ",\n      ");
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
