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
