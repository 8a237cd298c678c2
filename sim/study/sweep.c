// SPDX-License-Identifier: MIT
/*
 * sim/study/sweep.c - a comparison repeated at each value of the scenario's sweep key, and its
 * tables and CSV (cgsim compare on a scenario with a sweep; sim/study/compare.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/study/compare.h"
#include "sim/study/compare_internal.h"
#include "sim/report/report.h"
#include "sim/run/expect.h"
#include "sim/run/seeds.h"

int sweep_load(const struct scenario *base, const char *const *sets, size_t nsets,
	       size_t nseeds, struct sweep **out, char *err, size_t errlen)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	int e = 0;

	*out = NULL;
	if (!sw || !(sw->at = calloc(base->nsweep, sizeof(*sw->at)))) {
		free(sw);
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	sw->base = base;
	for (size_t k = 0; k < base->nsweep && !e; k++) {
		e = compare_load(base->src, sets, nsets, k, nseeds, NULL, &sw->at[k], err, errlen);
		sw->n = k + !e;
	}
	if (e) {
		sweep_free(sw);
		return e;
	}
	*out = sw;
	return 0;
}

int sweep_jobs(struct sweep *sw, struct jobs *js)
{
	int e = 0;

	for (size_t k = 0; !e && k < sw->n; k++)
		e = compare_jobs(sw->at[k], js);
	return e;
}

int sweep_finish(struct sweep *sw, char *err, size_t errlen)
{
	int e = 0;

	for (size_t k = 0; !e && k < sw->n; k++)
		e = compare_finish(sw->at[k], err, errlen);
	return e;
}

void sweep_free(struct sweep *sw)
{
	if (!sw)
		return;
	for (size_t k = 0; k < sw->n; k++)
		compare_free(sw->at[k]);
	free(sw->at);
	free(sw);
}

/* A group's share and ideal in one result; false if the variant has no such group. */
static bool group_of(const struct run_result *r, const char *path, double *share, double *ideal)
{
	for (size_t i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].path, path)) {
			*share = r->groups[i].share;
			*ideal = r->groups[i].ideal;
			return true;
		}
	return false;
}

static bool process_of(const struct run_result *r, const char *name, double *share,
		       double *ideal)
{
	bool any = false;

	*share = *ideal = 0;
	for (size_t i = 0; i < r->nthreads; i++)
		if (!strcmp(r->threads[i].process, name)) {
			*share += r->threads[i].share;
			*ideal += r->threads[i].ideal;
			any = true;
		}
	return any;
}

/* A thread's share and ideal, by its report name PROCESS/NAME.N. */
static bool thread_of(const struct run_result *r, const char *name, double *share, double *ideal)
{
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		size_t pl = strlen(t->process);

		if (!strncmp(name, t->process, pl) && name[pl] == '/' && !strcmp(name + pl + 1, t->name)) {
			*share = t->share;
			*ideal = t->ideal;
			return true;
		}
	}
	return false;
}

static bool is_latency_metric(enum scn_metric m)
{
	return m != SCN_M_SHARE && m != SCN_M_DELAYED && m != SCN_M_OVERHEAD;
}

/*
 * The sweep's target in one run: its share and ideal; or, ideal NaN, the machine's overhead
 * (% of capacity), a wakeup figure of a process or thread (ms) or its delayed share.
 */
static bool sweep_target(const struct scenario *base, const struct run_result *r, double *share,
			 double *ideal)
{
	const char *name = base->sweep_name;

	if (base->sweep_metric != SCN_M_SHARE && base->sweep_target != SCN_T_MACHINE) {
		double v = expect_measure(r, base->sweep_target, name, base->sweep_metric);

		*share = is_latency_metric(base->sweep_metric) ? v / 1e6 : v;
		*ideal = (double)NAN;
		return !isnan(v);
	}
	switch (base->sweep_target) {
	case SCN_T_GROUP:
		return group_of(r, *name ? name : "/", share, ideal);
	case SCN_T_PROCESS:
		return process_of(r, name, share, ideal);
	case SCN_T_THREAD:
		return thread_of(r, name, share, ideal);
	default:
		*share = compare__machine_value(r, M_OVERHEAD);
		*ideal = (double)NAN;
		return true;
	}
}

void sweep_target_label(const struct scenario *base, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[SCN_T_GROUP] = "group", [SCN_T_PROCESS] = "process", [SCN_T_THREAD] = "thread",
	};
	const char *name = base->sweep_name && *base->sweep_name ? base->sweep_name : "/";

	if (base->sweep_target == SCN_T_MACHINE)
		snprintf(buf, len, "scheduler overhead (%% of capacity)");
	else if (base->sweep_metric == SCN_M_SHARE)
		snprintf(buf, len, "share of %s %.2000s", kinds[base->sweep_target], name);
	else if (base->sweep_metric == SCN_M_DELAYED)
		snprintf(buf, len, "wakeups delayed (fraction) of %s %.2000s",
			 kinds[base->sweep_target], name);
	else
		snprintf(buf, len, "%s (ms) of %s %.2000s", expect_metric_name(base->sweep_metric),
			 kinds[base->sweep_target], name);
}

/*
 * The sweep's target at value @k in variant @v summed up over the seeds that have it (a
 * latency only over the runs in which the target woke); false when none has.
 */
static bool sweep_target_stat(const struct sweep *sw, size_t k, size_t v, struct seeds_stat *st,
			      double *ideal)
{
	const struct compare *c = sw->at[k];
	double vals[SEEDS_MAX];
	size_t n = 0;

	for (size_t j = 0; j < c->nseeds; j++)
		if (sweep_target(sw->base, compare__run_of(c, v, j), &vals[n], ideal))
			n++;
	if (n)
		*st = seeds_stat(vals, n);
	return n > 0;
}

bool sweep_target_of(const struct sweep *sw, size_t k, size_t v, double *share, double *ideal)
{
	struct seeds_stat st;

	if (!sweep_target_stat(sw, k, v, &st, ideal))
		return false;
	*share = st.mean;
	return true;
}

/*
 * A sweep cell: share/ideal, the share alone, or - when the target is not in the run; the
 * means over the seeds, with @spread the half-width of their 95 % interval after them.
 */
static void sweep_cell(const struct sweep *sw, size_t k, size_t v, bool spread, char *buf,
		       size_t len)
{
	struct seeds_stat st;
	double i;
	int n;

	if (!sweep_target_stat(sw, k, v, &st, &i)) {
		snprintf(buf, len, "-");
		return;
	}
	if (isnan(i))
		n = snprintf(buf, len, "%.4f", st.mean);
	else
		n = snprintf(buf, len, "%.3f/%.3f", st.mean, i);
	if (spread && sw->at[k]->nseeds > 1 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " +-%.4f", st.ci);
}

/* ", means over N seeds" when the sweep ran several seeds, else nothing. */
static void sweep_seeds_note(FILE *f, const struct sweep *sw)
{
	if (sw->n && sw->at[0]->nseeds > 1)
		fprintf(f, " (means over %zu seeds)", sw->at[0]->nseeds);
}

/*
 * When the kernel modelled moves with the sweep's values (a sweep of scheduler.kernel, its
 * policy or cgroup_mode), which it is at each value: "VALUE: kernel ...", with a line per
 * variant where the variants differ there too (docs/kernels.md). Nothing when each variant
 * keeps one kernel throughout, however the variants differ: the comparison's header names
 * each variant's.
 */
static void sweep_kernels(FILE *f, const struct sweep *sw, bool md)
{
	char first[REPORT_KERNEL_SIZE], desc[REPORT_KERNEL_SIZE], vis[VIS_SIZE];
	bool moves = false;

	for (size_t v = 0; v < sw->at[0]->n && !moves; v++) {
		report_kernel(&sw->at[0]->sc[v]->sched, first, sizeof(first));
		for (size_t k = 1; k < sw->n && !moves; k++)
			moves = v < sw->at[k]->n &&
				strcmp(first, report_kernel(&sw->at[k]->sc[v]->sched, desc,
							    sizeof(desc)));
	}
	if (!moves)
		return;
	fputs(md ? "\n**kernel at each value**\n\n" : "kernel at each value:\n", f);
	for (size_t k = 0; k < sw->n; k++) {
		const struct compare *c = sw->at[k];
		bool same = true;

		report_kernel(&c->sc[0]->sched, first, sizeof(first));
		for (size_t v = 1; v < c->n && same; v++)
			same = !strcmp(first, report_kernel(&c->sc[v]->sched, desc, sizeof(desc)));
		/* a line for each kernel at this value, naming its variants when they differ */
		for (size_t v = 0; v < c->n; v++) {
			char mine[REPORT_KERNEL_SIZE];
			bool seen = false;
			int w = 0;

			report_kernel(&c->sc[v]->sched, mine, sizeof(mine));
			for (size_t u = 0; u < v && !seen; u++)
				seen = !strcmp(mine, report_kernel(&c->sc[u]->sched, desc,
								   sizeof(desc)));
			if (seen)
				continue;
			if (md) {
				fputs("- ", f);
				report_md_code(f, sw->base->sweep_values[k]);
			} else {
				w = fprintf(f, "  %s", report_visible(sw->base->sweep_values[k], vis,
								      sizeof(vis)));
			}
			for (size_t u = v, i = 0; !same && u < c->n; u++)
				if (!strcmp(mine, report_kernel(&c->sc[u]->sched, desc, sizeof(desc))))
					w += fprintf(f, "%s%s", i++ ? ", " : " (", compare__vname(c, u));
			if (!same)
				w += fprintf(f, ")");
			if (md || w + 2 + (int)strlen(mine) <= 80) {
				fprintf(f, ": %s\n", mine);
			} else {	/* within 80 columns */
				fputs(":\n", f);
				report_kernel_text(f, &c->sc[v]->sched, "    ");
			}
		}
	}
}

int sweep_markdown(FILE *f, const struct sweep *sw)
{
	const struct scenario *base = sw->base;
	const struct compare *c0 = sw->at[0];
	char buf[64], what[2200];

	fputs("\n**sweep of** ", f);
	report_md_code(f, base->sweep_key);
	if (base->sweep_target == SCN_T_MACHINE) {
		fputs(": scheduler overhead, % of capacity", f);
	} else if (base->sweep_metric != SCN_M_SHARE) {
		sweep_target_label(base, what, sizeof(what));
		fputs(": ", f);
		report_md_code(f, what);
	} else {
		fprintf(f, ": share/ideal of %s ", base->sweep_target == SCN_T_GROUP ? "group"
			: base->sweep_target == SCN_T_PROCESS ? "process" : "thread");
		report_md_code(f, *base->sweep_name ? base->sweep_name : "/");
	}
	sweep_seeds_note(f, sw);
	fputs("\n\n", f);
	compare__markdown_head(f, c0, "| value |", 0);
	for (size_t k = 0; k < sw->n; k++) {
		fputs("| ", f);
		report_md_code(f, base->sweep_values[k]);
		fputs(" |", f);
		for (size_t v = 0; v < sw->at[k]->n; v++) {
			sweep_cell(sw, k, v, true, buf, sizeof(buf));
			fprintf(f, " %s |", buf);
		}
		fputc('\n', f);
	}
	sweep_kernels(f, sw, true);
	return 0;
}

int sweep_text(FILE *f, const struct sweep *sw)
{
	const struct scenario *base = sw->base;
	const struct compare *c0 = sw->at[0];
	char buf[64], vis[VIS_SIZE];
	int vw;

	fprintf(f, "\nsweep of %s", base->sweep_key);
	if (base->sweep_target == SCN_T_MACHINE) {
		fputs(": scheduler overhead, % of capacity", f);
	} else if (base->sweep_metric != SCN_M_SHARE) {
		char what[2200];

		sweep_target_label(base, what, sizeof(what));
		fprintf(f, ": %s", report_visible(what, vis, sizeof(vis)));
	} else {
		fprintf(f, ": share/ideal of %s %s", base->sweep_target == SCN_T_GROUP ? "group"
			: base->sweep_target == SCN_T_PROCESS ? "process" : "thread",
			*base->sweep_name ? report_visible(base->sweep_name, vis, sizeof(vis)) : "/");
	}
	sweep_seeds_note(f, sw);
	fputc('\n', f);
	vw = 10;
	for (size_t k = 0; k < sw->n; k++) {
		int len = (int)strlen(report_visible(base->sweep_values[k], vis, sizeof(vis)));

		if (len > vw)
			vw = len;
	}
	if (vw > 24)
		vw = 24;
	/* four variants a block, as the comparison's own table, within 80 columns */
	for (size_t from = 0; from < c0->n; from += 4) {
		size_t to = from + 4 < c0->n ? from + 4 : c0->n;

		if (from)
			fputc('\n', f);
		fprintf(f, "%-*s", vw, "value");
		for (size_t v = from; v < to; v++)
			fprintf(f, " %13.13s", compare__vname(c0, v));
		fputc('\n', f);
		for (size_t k = 0; k < sw->n; k++) {
			fprintf(f, "%-*.*s", vw, vw,
				report_visible(base->sweep_values[k], vis, sizeof(vis)));
			for (size_t v = from; v < to && v < sw->at[k]->n; v++) {
				sweep_cell(sw, k, v, false, buf, sizeof(buf));
				fprintf(f, " %13s", buf);
			}
			fputc('\n', f);
		}
	}
	sweep_kernels(f, sw, false);
	return 0;
}

/*
 * value,variant,kind,name,share,ideal: every group and process; machine rows in share. With
 * several seeds, the means, and share_min,share_max,share_ci after them.
 */
int sweep_csv(FILE *f, const struct sweep *sw)
{
	bool seeds = sw->n && sw->at[0]->nseeds > 1;

	fputs(seeds ? "value,variant,kind,name,share,ideal,share_min,share_max,share_ci\n" :
	      "value,variant,kind,name,share,ideal\n", f);
	for (size_t k = 0; k < sw->n; k++) {
		const struct compare *c = sw->at[k];
		struct labels l;

		if (compare__collect(c, &l)) {
			compare__free_labels(&l);
			return -ENOMEM;
		}
		for (size_t v = 0; v < c->n; v++) {
			for (size_t i = 0; i < l.n; i++) {
				struct seeds_stat st;
				double id;

				if (!compare__row_share(c, &l, i, v, &st, &id))
					continue;
				report_csv_field(f, sw->base->sweep_values[k]);
				fprintf(f, ",%s,%s,", compare__vname(c, v),
					l.kind[i] == ROW_GROUP ? "group" : "process");
				report_csv_field(f, l.name[i]);
				fprintf(f, ",%.6f,%.6f", st.mean, id);
				if (seeds)
					fprintf(f, ",%.6f,%.6f,%.6f", st.min, st.max, st.ci);
				fputc('\n', f);
			}
			for (int m = 0; m < M_NR; m++) {
				static const char *const key[M_NR] = { "jain", "max_abs_error",
					"latency_p50_ms", "latency_p99_ms", "switches_per_sec",
					"overhead_percent", "level_ops_per_sec" };
				double x = compare__machine_mean(c, v, (enum machine_row)m);

				if (isnan(x))
					continue;
				report_csv_field(f, sw->base->sweep_values[k]);
				fprintf(f, ",%s,machine,%s,%.6f,%s\n", compare__vname(c, v), key[m], x,
					seeds ? ",,," : "");
			}
		}
		compare__free_labels(&l);
	}
	return 0;
}
