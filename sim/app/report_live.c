// SPDX-License-Identifier: MIT
/*
 * sim/app/report_live.c - cgsim validate --live's comparison, for people and for scripts
 * (sim/app/report.h). Shares are fractions of capacity with 4 decimals; differences are in
 * points of capacity (100 x), as the tolerance is.
 */
#include <string.h>

#include "sim/app/report.h"

static const char *hier_name(enum live_hier h)
{
	return h == LIVE_HIER_V2 ? "v2" : "v1";
}

void report_live_text(FILE *f, const struct live_report *r)
{
	char vis[REPORT_VISIBLE_SIZE(1100)];
	size_t w = 4, out = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		size_t n = strlen(report_visible(r->rows[i].name, vis, sizeof(vis)));

		w = n > w ? n : w;
	}
	fprintf(f, "%s on Linux %s (cgroup %s): %u repetition%s of %.1f s\n",
		report_visible(r->scenario, vis, sizeof(vis)), r->kernel, hier_name(r->hier), r->reps,
		r->reps == 1 ? "" : "s", r->window_s);
	if (r->cpus == 1 && r->online > 1)
		fprintf(f, "the scenario's threads kept on CPU 0 of the machine's %d\n", r->online);
	else if (r->cpus < r->online)
		fprintf(f, "the scenario's threads kept on CPUs 0-%d of the machine's %d\n",
			r->cpus - 1, r->online);
	fprintf(f, "other work took %.1f %% of the machine (%.1f .. %.1f)\n\n", 100 * r->other.mean,
		100 * r->other.min, 100 * r->other.max);
	fprintf(f, "%-7s  %-*s  %9s  %8s  %6s  %6s  %6s\n", "kind", (int)w, "name", "simulated",
		"measured", "min", "max", "diff");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct live_row *row = &r->rows[i];
		double d = 100 * (row->measured.mean - row->simulated);
		bool bad = d > r->tolerance || d < -r->tolerance;

		out += bad;
		fprintf(f, "%-7s  %-*s  %9.4f  %8.4f  %6.4f  %6.4f  %+6.2f%s\n", row->kind, (int)w,
			report_visible(row->name, vis, sizeof(vis)), row->simulated,
			row->measured.mean, row->measured.min, row->measured.max, d,
			bad ? "  outside" : "");
	}
	fprintf(f, "\n%zu rows within %.1f points, %zu outside\n", r->nrows - out, r->tolerance,
		out);
}

void report_live_json(FILE *f, const struct live_report *r)
{
	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"scenario\": ", f);
	report_json_string(f, r->scenario);
	fputs(", \"kernel\": ", f);
	report_json_string(f, r->kernel);
	fprintf(f, ", \"hierarchy\": \"%s\", \"cpus\": %d, \"online\": %d,\n  \"reps\": %u, "
		"\"window_s\": %.3f, \"tolerance\": %.2f, \"other_load\": %.4f, "
		"\"other_load_min\": %.4f, \"other_load_max\": %.4f,\n  \"rows\": [",
		hier_name(r->hier), r->cpus, r->online, r->reps, r->window_s, r->tolerance,
		r->other.mean, r->other.min, r->other.max);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct live_row *row = &r->rows[i];

		fprintf(f, "%s\n    {\"kind\": \"%s\", \"name\": ", i ? "," : "", row->kind);
		report_json_string(f, row->name);
		fprintf(f, ", \"simulated\": %.4f, \"measured\": %.4f, \"min\": %.4f, \"max\": %.4f}",
			row->simulated, row->measured.mean, row->measured.min, row->measured.max);
	}
	fputs("\n  ]\n}\n", f);
}

/* ---- cgsim calibrate --live ---- */

static const char *cal_label(const struct live_cal_point *p)
{
	return p->depth ? live_cal_placement_name[p->placement]
			: p->autogroup ? "root, autogroup" : "root";
}

/*
 * The points whose greatest cost is over 10 % above their least: a repetition that shared the
 * CPU with something else (docs/overhead.md: quiet runs here spread by 1-5 %, a disturbed one
 * by 30-50 %).
 */
static size_t cal_disturbed(const struct live_cal_report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->npoints; i++)
		n += r->points[i].max_ns > 1.1 * r->points[i].min_ns;
	return n;
}

void report_cal_text(FILE *f, const struct live_cal_report *r)
{
	fprintf(f, "calibrate on Linux %s (cgroup %s): two threads on CPU %d waking each other "
		"through pipes,\n%lu round trips timed per point, median of %u repetition%s\n\n",
		r->kernel, hier_name(r->hier), r->cpu, r->round_trips, r->reps,
		r->reps == 1 ? "" : "s");
	fprintf(f, "%-16s %5s  %10s  %10s  %10s\n", "placement", "depth", "median ns", "min",
		"max");
	for (size_t i = 0; i < r->npoints; i++) {
		const struct live_cal_point *p = &r->points[i];

		fprintf(f, "%-16s %5d  %10.1f  %10.1f  %10.1f\n", cal_label(p), p->depth,
			p->median_ns, p->min_ns, p->max_ns);
	}
	if (cal_disturbed(r))
		fprintf(f, "\n%zu of the %zu points spread over 10 %% between repetitions: something "
			"else ran on CPU %d;\nthe medians hold against a few disturbed repetitions, "
			"more --reps against more\n", cal_disturbed(r), r->npoints, r->cpu);
	fputs("\nper round trip: base + per_level x depth (least squares over depths 0, 1, 2, 4, "
	      "8;\n95 % interval of the slope)\n", f);
	for (int k = 0; k < LIVE_CAL_NPLACEMENTS; k++) {
		const struct live_cal_fit *t = &r->fits[k];

		fprintf(f, "%-9s base %7.1f ns (+-%.1f), per level %6.1f ns (%.1f to %.1f); "
			"residuals", live_cal_placement_name[t->placement], t->base_ns, t->base_se,
			t->per_level_ns, t->per_level_low, t->per_level_high);
		for (size_t i = 0; i < t->n; i++)
			fprintf(f, " %+.0f", t->residual_ns[i]);
		fputc('\n', f);
	}
}

void report_cal_json(FILE *f, const struct live_cal_report *r)
{
	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"kernel\": ", f);
	report_json_string(f, r->kernel);
	fprintf(f, ", \"hierarchy\": \"%s\", \"cpu\": %d, \"reps\": %u, \"round_trips\": %lu, "
		"\"disturbed_points\": %zu,\n  \"fits\": [", hier_name(r->hier), r->cpu, r->reps,
		r->round_trips, cal_disturbed(r));
	for (int k = 0; k < LIVE_CAL_NPLACEMENTS; k++) {
		const struct live_cal_fit *t = &r->fits[k];

		fprintf(f, "%s\n    {\"placement\": \"%s\", \"base_ns\": %.1f, \"base_se_ns\": %.1f, "
			"\"per_level_ns\": %.1f, \"per_level_se_ns\": %.1f, \"per_level_low\": %.1f, "
			"\"per_level_high\": %.1f, \"residuals_ns\": [", k ? "," : "",
			live_cal_placement_name[t->placement], t->base_ns, t->base_se,
			t->per_level_ns, t->per_level_se, t->per_level_low, t->per_level_high);
		for (size_t i = 0; i < t->n; i++)
			fprintf(f, "%s%.1f", i ? ", " : "", t->residual_ns[i]);
		fputs("]}", f);
	}
	fputs("\n  ],\n  \"medians\": [", f);
	for (size_t i = 0; i < r->npoints; i++) {
		const struct live_cal_point *p = &r->points[i];

		fprintf(f, "%s\n    {\"placement\": \"%s\", \"depth\": %d, \"autogroup\": %s, "
			"\"median_ns\": %.1f, \"min_ns\": %.1f, \"max_ns\": %.1f}", i ? "," : "",
			p->depth ? live_cal_placement_name[p->placement] : "root", p->depth,
			p->autogroup ? "true" : "false", p->median_ns, p->min_ns, p->max_ns);
	}
	fputs("\n  ]\n}\n", f);
}
