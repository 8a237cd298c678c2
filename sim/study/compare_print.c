// SPDX-License-Identifier: MIT
/*
 * sim/study/compare_print.c - a comparison as text, markdown and JSON, and its output directory
 * (cgsim compare; sim/study/compare.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/study/compare.h"
#include "sim/study/compare_internal.h"
#include "sim/report/report.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

#define COLS_PER_BLOCK 4	/* variant columns per block of the text table: 80 columns */

static const char *const machine_label[M_NR] = {
	"Jain's index", "largest share error", "wakeup p50 (ms)", "wakeup p99 (ms)",
	"switches/s", "overhead (% cap.)", "level ops/s",
};

/* @now less @base in ms. */
static double ms_change(uint64_t now, uint64_t base)
{
	return ((double)now - (double)base) / 1e6;
}

static const char *machine_fmt(enum machine_row m)
{
	return m == M_SWITCHES || m == M_LEVEL_OPS ? "%.0f" : m == M_OVERHEAD ? "%.3f" : "%.4f";
}

/* Row @i's wakeup p99 in variant @v, the mean over the seeds in which it woke. */
static bool p99_mean(const struct labels *l, size_t v, size_t i, uint64_t *ns)
{
	uint64_t sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < l->nseeds; k++) {
		const struct cell *x = compare__cell_at(l, v, k, i);

		if (x->woke) {
			sum += x->p99;
			n++;
		}
	}
	if (n)
		*ns = (sum + n / 2) / n;
	return n > 0;
}

/* Row @i's p99 in variant @v and in the base (ns); false unless it woke in both. */
static bool p99_change(const struct labels *l, size_t v, size_t i, uint64_t *now, uint64_t *base)
{
	return p99_mean(l, 0, i, base) && p99_mean(l, v, i, now);
}

/* ---------------- text and markdown ---------------- */

static void cell_share(char *buf, size_t len, bool have, double share, double ideal)
{
	if (have)
		snprintf(buf, len, "%.3f/%.3f", share, ideal);
	else
		snprintf(buf, len, "-");
}

static void row_cells(const struct compare *c, const struct labels *l, size_t i, size_t v,
		      char *buf, size_t len)
{
	struct seeds_stat st = { 0 };
	double id = 0;
	bool have = compare__row_share(c, l, i, v, &st, &id);

	cell_share(buf, len, have, st.mean, id);
}

static void machine_cell(const struct compare *c, enum machine_row m, size_t v, char *buf,
			 size_t len)
{
	double x = compare__machine_mean(c, v, m);

	if (isnan(x))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, machine_fmt(m), x);
}

/*
 * Row @i's label, "group PATH" or "process NAME", within LABEL_W columns: whole when it fits,
 * else its name cut from the left ("group ...x/nginx.service"), where the most specific part
 * is. False when the cut label would read as another row's: that row's label goes on a line
 * of its own, whole.
 */
static bool short_label(const struct labels *l, size_t i, char *out)
{
	char buf[VIS_SIZE];
	const char *kind = l->kind[i] == ROW_GROUP ? "group " : "process ";
	const char *vis = report_visible(l->name[i], buf, sizeof(buf));
	size_t room = compare__label_room(l->kind[i]), len = strlen(vis);

	if (len <= room) {
		memcpy(out, kind, strlen(kind));
		memcpy(out + strlen(kind), vis, len + 1);
		return true;
	}
	/* kind, "...", then the last room - 3 characters: LABEL_W in all */
	memcpy(out, kind, strlen(kind));
	memcpy(out + strlen(kind), "...", 3);
	memcpy(out + strlen(kind) + 3, vis + len - (room - 3), room - 3);
	out[LABEL_W] = '\0';
	return !l->shared_tail[i];
}

static void text_block(FILE *f, const struct compare *c, const struct labels *l, size_t from,
		       size_t to)
{
	char buf[64], vis[VIS_SIZE];

	fprintf(f, "%-24s", "");
	for (size_t v = from; v < to; v++)
		fprintf(f, " %13.13s", compare__vname(c, v));
	fputc('\n', f);
	fputs("share/ideal\n", f);
	for (size_t i = 0; i < l->n; i++) {
		char label[LABEL_W + 1];

		if (!short_label(l, i, label)) {
			/* too long to shorten without two rows reading the same: a line of its own */
			fprintf(f, "  %s %s\n", l->kind[i] == ROW_GROUP ? "group" : "process",
				report_visible(l->name[i], vis, sizeof(vis)));
			label[0] = '\0';
		}
		fprintf(f, "  %-*s", LABEL_W, label);
		for (size_t v = from; v < to; v++) {
			row_cells(c, l, i, v, buf, sizeof(buf));
			fprintf(f, " %13s", buf);
		}
		fputc('\n', f);
	}
	for (int m = 0; m < M_NR; m++) {
		fprintf(f, "%-24s", machine_label[m]);
		for (size_t v = from; v < to; v++) {
			machine_cell(c, (enum machine_row)m, v, buf, sizeof(buf));
			fprintf(f, " %13s", buf);
		}
		fputc('\n', f);
	}
}

/* A machine figure's change from the base to variant @v, of the means over the seeds. */
static double machine_change(const struct compare *c, size_t v, enum machine_row m)
{
	return compare__machine_mean(c, v, m) - compare__machine_mean(c, 0, m);
}

/* @x, or +0 when it would print as -0. */
static double nz(double x, double half_unit)
{
	return fabs(x) < half_unit ? 0.0 : x;
}

/*
 * The change of a row's share from the base to variant @v, in points of capacity, of the means
 * over the seeds; *@small when their 95 % intervals overlap (these seeds do not tell them
 * apart; never with one seed). False when the row is not in both, or is the root.
 */
static bool share_change(const struct compare *c, const struct labels *l, size_t i, size_t v,
			 double *points, bool *small)
{
	struct seeds_stat s0, s1;
	double i0, i1;

	if ((l->kind[i] == ROW_GROUP && !strcmp(l->name[i], "/")) ||
	    !compare__row_share(c, l, i, 0, &s0, &i0) || !compare__row_share(c, l, i, v, &s1, &i1))
		return false;
	*points = nz(100 * (s1.mean - s0.mean), 0.05);
	*small = c->nseeds > 1 && fabs(s1.mean - s0.mean) < s0.ci + s1.ci;
	return true;
}

/*
 * One item of a wrapped list: ", " between items (the comma ending the line when the item goes
 * on the next), " WHAT NAME VALUE" whole, never cut, on a new line indented by @indent when it
 * would pass column 78 (a name longer than a line gets one of its own). The new column.
 */
static int wrap_item(FILE *f, int col, bool first, int indent, const char *what,
		     const char *name, const char *value)
{
	int len = 1 + (int)strlen(what) + 1 + (int)strlen(name) + 1 + (int)strlen(value);

	if (!first)
		col += fprintf(f, ",");
	if (!first && col + len > 78)
		col = fprintf(f, "\n%*s", indent, "") - 1;
	return col + fprintf(f, " %s %s %s", what, name, value);
}

/*
 * Variant @v's wakeup p99 of each process that woke in it and in the base, and its change,
 * wrapped within 80 columns.
 */
static void text_p99_changes(FILE *f, const struct labels *l, size_t v)
{
	char vis[VIS_SIZE];
	bool first = true;
	int col = 0;

	for (size_t i = 0; i < l->n; i++) {
		uint64_t now, base;
		char value[64];

		if (l->kind[i] != ROW_PROCESS || !p99_change(l, v, i, &now, &base))
			continue;
		snprintf(value, sizeof(value), "%.3f (%+.3f)", (double)now / 1e6,
			 nz(ms_change(now, base), 0.0005));
		if (first)
			col = fprintf(f, "\n    wakeup p99 ms:") - 1;
		col = wrap_item(f, col, first, 5, "process",
				report_visible(l->name[i], vis, sizeof(vis)), value);
		first = false;
	}
}

/*
 * The change from the base of every variant: each group's (but the root's) and each process's
 * share, in points of capacity, then the machine rows, wrapped within 80 columns.
 */
static void text_changes(FILE *f, const struct compare *c, const struct labels *l)
{
	char vis[VIS_SIZE];
	bool any_small = false;

	if (c->n < 2)
		return;
	fputs(c->nseeds > 1 ? "\nchange from base (shares in points of capacity, of the means)\n" :
	      "\nchange from base (shares in points of capacity)\n", f);
	for (size_t v = 1; v < c->n; v++) {
		int col = fprintf(f, "  %s:", compare__vname(c, v));
		bool first = true;

		for (size_t i = 0; i < l->n; i++) {
			double points;
			char value[32];
			bool small;

			if (!share_change(c, l, i, v, &points, &small))
				continue;
			any_small |= small;
			snprintf(value, sizeof(value), "%+.1f%s", points, small ? "?" : "");
			col = wrap_item(f, col, first, 3, l->kind[i] == ROW_GROUP ? "group" : "process",
					report_visible(l->name[i], vis, sizeof(vis)), value);
			first = false;
		}
		text_p99_changes(f, l, v);
		fprintf(f, "\n    overhead %+.3f %% of capacity, switches/s %+.0f, level ops/s %+.0f\n",
			nz(machine_change(c, v, M_OVERHEAD), 0.0005),
			nz(machine_change(c, v, M_SWITCHES), 0.5),
			nz(machine_change(c, v, M_LEVEL_OPS), 0.5));
	}
	if (any_small)
		fprintf(f, "  ?: smaller than the spread: the 95 %% intervals of the two means "
			   "overlap\n     over these %zu seeds\n", c->nseeds);
}

/*
 * --seeds: each share row's least and greatest over the seeds, and the half-width of the 95 %
 * interval of its mean, a block of rows per variant block.
 */
static void text_spread(FILE *f, const struct compare *c, const struct labels *l, size_t from,
			size_t to)
{
	char vis[VIS_SIZE], label[LABEL_W + 1], buf[64];

	fputs("least-greatest, +- 95 % interval of the mean\n", f);
	for (size_t i = 0; i < l->n; i++) {
		if (!short_label(l, i, label)) {
			fprintf(f, "  %s %s\n", l->kind[i] == ROW_GROUP ? "group" : "process",
				report_visible(l->name[i], vis, sizeof(vis)));
			label[0] = '\0';
		}
		for (int line = 0; line < 2; line++) {
			fprintf(f, "  %-*s", LABEL_W, line ? "" : label);
			for (size_t v = from; v < to; v++) {
				struct seeds_stat st;
				double id;

				if (!compare__row_share(c, l, i, v, &st, &id))
					snprintf(buf, sizeof(buf), "-");
				else if (line)
					snprintf(buf, sizeof(buf), "+-%.4f", st.ci);
				else
					snprintf(buf, sizeof(buf), "%.3f-%.3f", st.min, st.max);
				fprintf(f, " %13s", buf);
			}
			fputc('\n', f);
		}
	}
}

/*
 * "variants base, normal: kernel 6.18 (...)", a line for each kernel the variants model, in
 * the order of their first variant (the description on lines of its own in the text when the
 * line would pass 80 columns); in markdown, a list.
 */
static void kernel_by_variant(FILE *f, const struct compare *c, bool md)
{
	char mine[REPORT_KERNEL_SIZE], other[REPORT_KERNEL_SIZE];

	if (md)
		fputc('\n', f);
	for (size_t v = 0; v < c->n; v++) {
		size_t n = 0, w;
		bool seen = false;

		report_kernel(&c->sc[v]->sched, mine, sizeof(mine));
		for (size_t u = 0; u < v && !seen; u++)
			seen = !strcmp(mine, report_kernel(&c->sc[u]->sched, other, sizeof(other)));
		if (seen)
			continue;
		for (size_t u = v; u < c->n; u++)
			n += !strcmp(mine, report_kernel(&c->sc[u]->sched, other, sizeof(other)));
		w = (size_t)fprintf(f, md ? "- variant%s " : "variant%s ", n > 1 ? "s" : "");
		for (size_t u = v, i = 0; u < c->n; u++)
			if (!strcmp(mine, report_kernel(&c->sc[u]->sched, other, sizeof(other))))
				w += (size_t)fprintf(f, "%s%s", i++ ? ", " : "", compare__vname(c, u));
		if (md || w + 2 + strlen(mine) <= 80) {
			fprintf(f, ": %s\n", mine);
		} else {
			fputs(":\n", f);
			report_kernel_text(f, &c->sc[v]->sched, "  ");
		}
	}
}

/*
 * The header the text and markdown share: "NAME: N CPUs, seed S, ..." and the kernel every
 * variant models (docs/kernels.md), on a line of its own in the text (80 columns), in the
 * line in markdown; when variants model different ones (a variant sets scheduler.kernel, or
 * its policy), "kernel by variant" and each variant's.
 */
static void head_line(FILE *f, const struct compare *c, bool md)
{
	const struct scenario *sc = c->sc[0];
	char kernel[REPORT_KERNEL_SIZE], other[REPORT_KERNEL_SIZE];
	bool same = true;

	report_kernel(&sc->sched, kernel, sizeof(kernel));
	for (size_t v = 1; v < c->n && same; v++)
		same = !strcmp(kernel, report_kernel(&c->sc[v]->sched, other, sizeof(other)));
	fprintf(f, md ? "**%s**: %d CPUs, " : "%s: %d CPUs, ", sc->name, sc->sched.machine.cpus);
	if (md)
		fprintf(f, "%s, ", same ? kernel : "kernel by variant");
	if (c->nseeds > 1)
		fprintf(f, "seeds %llu to %llu (means), ", (unsigned long long)sc->seed,
			(unsigned long long)(sc->seed + c->nseeds - 1));
	else
		fprintf(f, "seed %llu, ", (unsigned long long)sc->seed);
	fprintf(f, "%.1f s measured\n", (double)(sc->duration - sc->warmup) / 1e9);
	if (same && !md)
		report_kernel_text(f, &sc->sched, "");
	else if (!same)
		kernel_by_variant(f, c, md);
	fputc('\n', f);
}

int compare_text(FILE *f, const struct compare *c)
{
	struct labels l;

	if (compare__collect(c, &l)) {
		compare__free_labels(&l);
		return -ENOMEM;
	}
	head_line(f, c, false);
	for (size_t from = 0; from < c->n; from += COLS_PER_BLOCK) {
		size_t to = from + COLS_PER_BLOCK < c->n ? from + COLS_PER_BLOCK : c->n;

		if (from)
			fputc('\n', f);
		text_block(f, c, &l, from, to);
		if (c->nseeds > 1)
			text_spread(f, c, &l, from, to);
	}
	text_changes(f, c, &l);
	compare__free_labels(&l);
	return 0;
}

/* A markdown table's head: @first (its first cell), a column per variant from @from. */
void compare__markdown_head(FILE *f, const struct compare *c, const char *first, size_t from)
{
	fputs(first, f);
	for (size_t v = from; v < c->n; v++)
		fprintf(f, " %s |", compare__vname(c, v));
	fputs("\n| --- |", f);
	for (size_t v = from; v < c->n; v++)
		fputs(" ---: |", f);
	fputc('\n', f);
}

/* Each process's wakeup p99 per variant, and in the variants its change from the base. */
static void markdown_p99_changes(FILE *f, const struct compare *c, const struct labels *l)
{
	bool head = false;

	for (size_t i = 0; c->n > 1 && i < l->n; i++) {
		uint64_t base, now;

		if (l->kind[i] != ROW_PROCESS || !p99_mean(l, 0, i, &base))
			continue;
		if (!head)
			compare__markdown_head(f, c, c->nseeds > 1 ?
					       "\n| wakeup p99 ms, mean (change from base) |" :
					       "\n| wakeup p99 ms (change from base) |", 0);
		head = true;
		fputs("| process ", f);
		report_md_code(f, l->name[i]);
		fprintf(f, " | %.3f |", (double)base / 1e6);
		for (size_t v = 1; v < c->n; v++) {
			if (p99_change(l, v, i, &now, &base))
				fprintf(f, " %.3f (%+.3f) |", (double)now / 1e6,
					nz(ms_change(now, base), 0.0005));
			else
				fputs(" - |", f);
		}
		fputc('\n', f);
	}
}

/* The change of each variant from the base: shares in points of capacity, then the machine. */
static void markdown_changes(FILE *f, const struct compare *c, const struct labels *l)
{
	static const struct { enum machine_row m; const char *label, *fmt; double unit; } mach[] = {
		{ M_OVERHEAD, "overhead (% cap.)", " %+.3f |", 0.0005 },
		{ M_SWITCHES, "switches/s", " %+.0f |", 0.5 },
		{ M_LEVEL_OPS, "level ops/s", " %+.0f |", 0.5 },
	};
	bool any_small = false;

	if (c->n < 2)
		return;
	compare__markdown_head(f, c, c->nseeds > 1 ?
			       "\n| change from base (points of capacity, of the means) |" :
			       "\n| change from base (points of capacity) |", 1);
	for (size_t i = 0; i < l->n; i++) {
		if (l->kind[i] == ROW_GROUP && !strcmp(l->name[i], "/"))
			continue;
		fprintf(f, "| %s ", l->kind[i] == ROW_GROUP ? "group" : "process");
		report_md_code(f, l->name[i]);
		fputs(" |", f);
		for (size_t v = 1; v < c->n; v++) {
			double points;
			bool small;

			if (share_change(c, l, i, v, &points, &small))
				fprintf(f, " %+.1f%s |", points, small ? "?" : "");
			else
				fputs(" - |", f);
			any_small |= small;
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < sizeof(mach) / sizeof(mach[0]); k++) {
		fprintf(f, "| %s |", mach[k].label);
		for (size_t v = 1; v < c->n; v++)
			fprintf(f, mach[k].fmt, nz(machine_change(c, v, mach[k].m), mach[k].unit));
		fputc('\n', f);
	}
	if (any_small)
		fprintf(f, "\n?: smaller than the spread: the 95 %% intervals of the two means "
			   "overlap over these %zu seeds\n", c->nseeds);
}

/* --seeds: each share row's least and greatest over the seeds, +- the 95 % interval. */
static void markdown_spread(FILE *f, const struct compare *c, const struct labels *l)
{
	compare__markdown_head(f, c, "\n| least-greatest, +- 95 % interval of the mean |", 0);
	for (size_t i = 0; i < l->n; i++) {
		fprintf(f, "| %s ", l->kind[i] == ROW_GROUP ? "group" : "process");
		report_md_code(f, l->name[i]);
		fputs(" |", f);
		for (size_t v = 0; v < c->n; v++) {
			struct seeds_stat st;
			double id;

			if (compare__row_share(c, l, i, v, &st, &id))
				fprintf(f, " %.3f-%.3f +-%.4f |", st.min, st.max, st.ci);
			else
				fputs(" - |", f);
		}
		fputc('\n', f);
	}
}

int compare_markdown(FILE *f, const struct compare *c)
{
	struct labels l;
	char buf[64];

	if (compare__collect(c, &l)) {
		compare__free_labels(&l);
		return -ENOMEM;
	}
	/* the same header line as the text's, for a mail or a pull request */
	head_line(f, c, true);
	compare__markdown_head(f, c, "| share / ideal |", 0);
	for (size_t i = 0; i < l.n; i++) {
		fprintf(f, "| %s ", l.kind[i] == ROW_GROUP ? "group" : "process");
		report_md_code(f, l.name[i]);
		fputs(" |", f);
		for (size_t v = 0; v < c->n; v++) {
			row_cells(c, &l, i, v, buf, sizeof(buf));
			fprintf(f, " %s |", buf);
		}
		fputc('\n', f);
	}
	for (int m = 0; m < M_NR; m++) {
		fprintf(f, "| %s |", machine_label[m]);
		for (size_t v = 0; v < c->n; v++) {
			machine_cell(c, (enum machine_row)m, v, buf, sizeof(buf));
			fprintf(f, " %s |", buf);
		}
		fputc('\n', f);
	}
	if (c->nseeds > 1)
		markdown_spread(f, c, &l);
	markdown_changes(f, c, &l);
	markdown_p99_changes(f, c, &l);
	compare__free_labels(&l);
	return 0;
}

int compare_json(FILE *f, const struct compare *c)
{
	struct labels l;
	bool first = true;

	if (compare__collect(c, &l)) {
		compare__free_labels(&l);
		return -ENOMEM;
	}
	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"scenario\": ", f);
	report_json_string(f, c->sc[0]->name);
	if (c->nseeds > 1)
		fprintf(f, ", \"seed\": %llu, \"seeds\": %zu", (unsigned long long)c->sc[0]->seed,
			c->nseeds);
	fputs(",\n  \"variants\": [\n", f);
	/* one seed: each as `cgsim run --json`; --seeds N: as `cgsim run --seeds N --json` */
	for (size_t v = 0; v < c->n; v++) {
		if (c->nseeds > 1)
			report_seeds_json(f, c->sum[v]);
		else
			report_json(f, c->res[v]);
		if (v + 1 < c->n)
			fputs(",\n", f);
	}
	/* each share's change from the base, in points of capacity (of the means) */
	fputs("  ],\n  \"share_changes\": [", f);
	for (size_t v = 1; v < c->n; v++)
		for (size_t i = 0; i < l.n; i++) {
			double points;
			bool small;

			if (!share_change(c, &l, i, v, &points, &small))
				continue;
			fputs(first ? "\n    { \"variant\": " : ",\n    { \"variant\": ", f);
			report_json_string(f, compare__vname(c, v));
			fprintf(f, ", \"%s\": ", l.kind[i] == ROW_GROUP ? "group" : "process");
			report_json_string(f, l.name[i]);
			fprintf(f, ", \"change_points\": %.1f", points);
			if (c->nseeds > 1)
				fprintf(f, ", \"within_spread\": %s", small ? "true" : "false");
			fputs(" }", f);
			first = false;
		}
	fputs(first ? "],\n" : "\n  ],\n", f);
	first = true;
	/* each variant's wakeup p99 of each process that woke in it and in the base */
	fputs("  \"latency_p99_changes\": [", f);
	for (size_t v = 1; v < c->n; v++)
		for (size_t i = 0; i < l.n; i++) {
			uint64_t now, base;

			if (l.kind[i] != ROW_PROCESS || !p99_change(&l, v, i, &now, &base))
				continue;
			fputs(first ? "\n    { \"variant\": " : ",\n    { \"variant\": ", f);
			report_json_string(f, compare__vname(c, v));
			fputs(", \"process\": ", f);
			report_json_string(f, l.name[i]);
			fprintf(f, ", \"latency_p99_ns\": %llu, \"base_latency_p99_ns\": %llu, "
				   "\"change_ns\": %lld }", (unsigned long long)now,
				(unsigned long long)base, (long long)now - (long long)base);
			first = false;
		}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
	compare__free_labels(&l);
	return 0;
}

static int text_writer(FILE *f, const void *c)
{
	return compare_text(f, c);
}

static int markdown_writer(FILE *f, const void *c)
{
	return compare_markdown(f, c);
}

static int json_writer(FILE *f, const void *c)
{
	return compare_json(f, c);
}

static int seeds_writer(FILE *f, const void *sum)
{
	report_seeds_json(f, sum);
	return 0;
}

/* The comparison's own files in DIR, in the order they are written, each with its writer. */
static const struct {
	const char *name;
	util_writer_fn *write;
} tables[] = {
	{ "compare.txt", text_writer },
	{ "compare.md", markdown_writer },
	{ "compare.json", json_writer },
};

int compare_write_dir(const char *dir, const struct compare *c, char *err, size_t errlen)
{
	char path[4200];
	int e;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cgsim: cannot create %s: %s", dir, strerror(errno));
		return -errno;
	}
	for (size_t v = 0; v < c->n; v++) {
		snprintf(path, sizeof(path), "%s/%s", dir, compare__vname(c, v));
		e = report_write_dir(path, c->res[v], err, errlen);
		if (!e && c->nseeds > 1)
			e = util_write_file(path, "seeds.json", seeds_writer, c->sum[v], err, errlen);
		if (!e && c->trace && c->trace[v].f)
			e = util_out_commit(&c->trace[v], err, errlen);
		if (e)
			return e;
	}
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++)
		if ((e = util_write_file(dir, tables[k].name, tables[k].write, c, err, errlen)))
			return e;
	return 0;
}
