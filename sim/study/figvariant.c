// SPDX-License-Identifier: MIT
/*
 * sim/study/figvariant.c - what one variant's figures draw (sim/study/figvariant.h), and their
 * input files. Everything is found once, in figv_build(), in time proportional to the run's
 * size (a sort at most): a layout of thousands of threads or cgroups must not make the
 * figures the slow part of a comparison.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/study/figvariant.h"
#include "sim/report/report.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

/*
 * What the share figures draw, one series or bar per item: the variant's leaf cgroups when it
 * has any worth drawing (find_cgroups()); else its processes, when there are two or more; else
 * its threads, when there are two or more; else nothing.
 */
enum item_kind { ITEM_NONE, ITEM_CGROUP, ITEM_PROCESS, ITEM_THREAD };

static const char *const item_what[] = {
	[ITEM_NONE] = "", [ITEM_CGROUP] = "cgroup", [ITEM_PROCESS] = "process",
	[ITEM_THREAD] = "thread",
};

/* The most threads one latency figure draws: those with the highest wakeup p99. */
#define LAT_THREADS_MAX 24
/* The most items a share figure draws: those farthest from their ideal share. */
#define ITEMS_SHOWN_MAX 24
/* The last this many samples of a thread's CCDF are all drawn; before them, one in n/this. */
#define CCDF_EXACT_TAIL 200
/* Room for any item's label whole: a cgroup path (at most 1024 bytes) and what follows it. */
#define LABEL_SIZE 1200
/* A timeline mark's label, the .cgs operation, is cut to what fits along the plot's height. */
#define MARK_LABEL_MAX 56

struct figv {
	const struct compare *c;
	size_t v;
	const struct run_result *r;	/* seed S's run: names, ideals, time series, latencies */
	enum item_kind kind;
	size_t n;			/* items */
	size_t *index;		/* per item: its group (cgroup), first thread (process), thread */
	size_t *item_of;	/* per thread: its item (processes, threads; a cgroup's own threads) */
	bool *own;		/* per cgroup item: the threads placed in that cgroup itself */
	bool any_own;
	bool *bound;		/* per item: its ideal is only an upper bound */
	size_t *shown, nshown;	/* the items drawn, in order: all, or the ITEMS_SHOWN_MAX */
	size_t prefix;		/* the directory every drawn cgroup is under ("a/b/"), its length */
	size_t lat[LAT_THREADS_MAX], nlat, woke;
};

void figv_gp_string(FILE *f, const char *name, const char *text)
{
	fprintf(f, "%s = '", name);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\'')
			fputs("''", f);
		else
			fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
	}
	fputs("'\n", f);
}

/* A cgroup of a run by its path, for the look-ups of find_cgroups(). */
struct by_path {
	const char *path;
	size_t idx;
};

static int by_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct by_path *)a)->path, ((const struct by_path *)b)->path);
}

/* Whether cgroup @g has something in it: a thread that ran, or that was meant to. */
static bool group_used(const struct run_group *g)
{
	return g->ideal > 0 || g->share > 0;
}

/*
 * The cgroups drawn, into fv->index (their number, or (size_t)-1 on -ENOMEM): the leaves of
 * the used ones (a used cgroup none of whose children is used), and the threads placed in the
 * root or in a cgroup above others (fv->own), so that the bars and lines partition the
 * machine and no level repeats the one below it (the tables have every level); not the root
 * itself, nor a leaf that holds all the machine's work (ideal 1.0): like the root, it would
 * sit at the whole machine and say nothing. A cgroup's parent is its path less the last
 * component, looked up in the paths sorted: n log n, whatever the depth of the tree.
 */
static size_t find_cgroups(struct figv *fv)
{
	const struct run_result *r = fv->r;
	struct by_path *sorted = malloc((r->ngroups + 1) * sizeof(*sorted));
	bool *inner = calloc(r->ngroups + 1, sizeof(*inner));
	bool *holds = calloc(r->ngroups + 1, sizeof(*holds));
	size_t *own_item = malloc((r->ngroups + 1) * sizeof(*own_item));
	char *buf = NULL;
	size_t n = 0;

	if (!sorted || !inner || !holds || !own_item)
		goto nomem;
	for (size_t i = 0; i < r->ngroups; i++)
		sorted[i] = (struct by_path){ r->groups[i].path, i };
	qsort(sorted, r->ngroups, sizeof(*sorted), by_path_cmp);
	for (size_t i = 1; i < r->ngroups; i++) {
		const char *slash = strrchr(r->groups[i].path, '/');
		struct by_path key, *parent;

		if (!group_used(&r->groups[i]) || !slash)
			continue;	/* unused, or a child of the root */
		free(buf);
		buf = strndup(r->groups[i].path, (size_t)(slash - r->groups[i].path));
		if (!buf)
			goto nomem;
		key.path = buf;
		parent = bsearch(&key, sorted, r->ngroups, sizeof(*sorted), by_path_cmp);
		if (parent)
			inner[parent->idx] = true;
	}
	/*
	 * A cgroup above others that holds threads itself (the root in a flat layout, a v1 or
	 * threaded cgroup) gets an item for those threads: the root's app in Zijlstra's layout
	 * is half the story.
	 */
	for (size_t t = 0; t < r->nthreads; t++) {
		struct by_path key = { r->threads[t].cgroup, 0 }, *g;

		fv->item_of[t] = SIZE_MAX;
		g = bsearch(&key, sorted, r->ngroups, sizeof(*sorted), by_path_cmp);
		if (g && (g->idx == 0 || inner[g->idx]))
			holds[g->idx] = true;
	}
	for (size_t i = 0; i < r->ngroups; i++) {
		if (holds[i]) {
			fv->own[n] = true;
			fv->index[n++] = i;
		} else if (i && group_used(&r->groups[i]) && !inner[i] &&
			   r->groups[i].ideal < 0.999) {
			fv->index[n++] = i;
		}
	}
	/*
	 * a cgroup's own threads: their item (the items are in the order of the groups), found
	 * through each group's own item, not by a search of the items for each thread, which
	 * was O(threads x items)
	 */
	for (size_t k = 0; k < n; k++)
		if (fv->own[k])
			own_item[fv->index[k]] = k;
	for (size_t t = 0; t < r->nthreads; t++) {
		struct by_path key = { r->threads[t].cgroup, 0 }, *g;

		g = bsearch(&key, sorted, r->ngroups, sizeof(*sorted), by_path_cmp);
		if (g && holds[g->idx])
			fv->item_of[t] = own_item[g->idx];
	}
	/* the root's own threads alone are no comparison */
	if (n == 1 && fv->own[0])
		n = 0;
	fv->any_own = false;
	for (size_t k = 0; k < n; k++)
		fv->any_own |= fv->own[k];
	free(buf), free(sorted), free(inner), free(holds), free(own_item);
	return n;
nomem:
	free(buf), free(sorted), free(inner), free(holds), free(own_item);
	return (size_t)-1;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * The processes as items, in the order of their first threads: fv->index[k] the first thread
 * of process k, fv->item_of[t] thread t's process. Their number, or (size_t)-1 on -ENOMEM.
 */
static size_t find_processes(struct figv *fv)
{
	struct report_procs p;
	size_t n;

	if (report_procs_group(fv->r, &p))
		return (size_t)-1;
	for (size_t k = 0; k < p.n; k++) {
		fv->index[k] = p.idx[p.start[k]];
		for (size_t j = p.start[k]; j < p.start[k + 1]; j++)
			fv->item_of[p.idx[j]] = k;
	}
	n = p.n;
	report_procs_free(&p);
	return n;
}

/* The length of the directory all the drawn cgroups are under (its '/' included), or 0. */
static size_t common_dir(const struct figv *fv)
{
	const char *p0 = fv->r->groups[fv->index[0]].path;
	size_t len = 0;

	if (fv->n < 2)
		return 0;
	for (const char *slash = strchr(p0, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t l = (size_t)(slash - p0) + 1;
		bool all = true;

		for (size_t k = 1; all && k < fv->n; k++)
			all = !strncmp(fv->r->groups[fv->index[k]].path, p0, l);
		if (!all)
			break;
		len = l;
	}
	return len;
}

/* A thread that woke, by its p99: the higher first (ties: the earlier thread). */
struct by_p99 {
	uint64_t p99;
	size_t idx;
};

static int by_p99_cmp(const void *a, const void *b)
{
	const struct by_p99 *x = a, *y = b;

	if (x->p99 != y->p99)
		return x->p99 < y->p99 ? 1 : -1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The threads the latency figure draws: at most LAT_THREADS_MAX, in the threads' order. */
static int find_latency(struct figv *fv)
{
	const struct run_result *r = fv->r;
	struct by_p99 *woke = malloc((r->nthreads + 1) * sizeof(*woke));

	if (!woke)
		return -ENOMEM;
	fv->woke = 0;
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].nlat)
			woke[fv->woke++] = (struct by_p99){ r->threads[i].lat_p99, i };
	if (fv->woke > LAT_THREADS_MAX)
		qsort(woke, fv->woke, sizeof(*woke), by_p99_cmp);
	fv->nlat = fv->woke < LAT_THREADS_MAX ? fv->woke : LAT_THREADS_MAX;
	for (size_t p = 0; p < fv->nlat; p++)
		fv->lat[p] = woke[p].idx;
	qsort(fv->lat, fv->nlat, sizeof(*fv->lat), size_cmp);
	free(woke);
	return 0;
}

enum item_value { VAL_SHARE, VAL_IDEAL, VAL_SERIES };

/*
 * Every item's share or ideal in @r (seed S's run or another seed's: the same layout), or its
 * CPU time in sample @row of @r's time series (ns), into @out[0..n): a process's, its
 * threads' summed.
 */
static void item_values(const struct figv *fv, const struct run_result *r, enum item_value what,
			size_t row, double *out)
{
	size_t items = r->ngroups + r->series_threads;

	for (size_t k = 0; k < fv->n; k++) {
		const struct run_group *g = &r->groups[fv->index[k]];

		if (fv->kind != ITEM_CGROUP || fv->own[k])
			out[k] = 0;	/* summed from its threads below */
		else
			out[k] = what == VAL_SHARE ? g->share : what == VAL_IDEAL ? g->ideal :
				 (double)r->series[row * items + fv->index[k]];
	}
	if (fv->kind == ITEM_CGROUP && !fv->any_own)
		return;
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];

		if (fv->item_of[i] == SIZE_MAX)
			continue;	/* in a cgroup drawn as a whole */
		out[fv->item_of[i]] += what == VAL_SHARE ? t->share : what == VAL_IDEAL ? t->ideal :
				       (double)r->series[row * items + r->ngroups + i];
	}
}

/* An item by its distance from its ideal share: the farthest first (ties: the earlier). */
struct by_error {
	double error;
	size_t item;
};

static int by_error_cmp(const void *a, const void *b)
{
	const struct by_error *x = a, *y = b;

	if (x->error != y->error)
		return x->error < y->error ? 1 : -1;
	return (x->item > y->item) - (x->item < y->item);
}

/*
 * The items drawn: every one, or, past ITEMS_SHOWN_MAX (a figure of a thousand bars reads as
 * nothing), the ITEMS_SHOWN_MAX farthest from their ideal in seed S's run, where a layout's
 * unfairness shows, in their order.
 */
static int find_shown(struct figv *fv)
{
	double *share = malloc((fv->n + 1) * sizeof(*share));
	double *ideal = malloc((fv->n + 1) * sizeof(*ideal));
	struct by_error *e = malloc((fv->n + 1) * sizeof(*e));
	int rc = 0;

	fv->shown = malloc((fv->n + 1) * sizeof(*fv->shown));
	if (!share || !ideal || !e || !fv->shown) {
		rc = -ENOMEM;
		goto out;
	}
	fv->nshown = fv->n;
	for (size_t k = 0; k < fv->n; k++)
		fv->shown[k] = k;
	if (fv->n <= ITEMS_SHOWN_MAX)
		goto out;
	item_values(fv, fv->r, VAL_SHARE, 0, share);
	item_values(fv, fv->r, VAL_IDEAL, 0, ideal);
	for (size_t k = 0; k < fv->n; k++)
		e[k] = (struct by_error){ fabs(share[k] - ideal[k]), k };
	qsort(e, fv->n, sizeof(*e), by_error_cmp);
	fv->nshown = ITEMS_SHOWN_MAX;
	for (size_t q = 0; q < fv->nshown; q++)
		fv->shown[q] = e[q].item;
	qsort(fv->shown, fv->nshown, sizeof(*fv->shown), size_cmp);
out:
	free(share), free(ideal), free(e);
	return rc;
}

void figv_free(struct figv *fv)
{
	if (!fv)
		return;
	free(fv->index);
	free(fv->item_of);
	free(fv->own);
	free(fv->bound);
	free(fv->shown);
	free(fv);
}

int figv_build(const struct compare *c, size_t v, struct figv **out)
{
	const struct run_result *r = c->res[v];
	struct figv *fv = calloc(1, sizeof(*fv));
	size_t most = (r->ngroups > r->nthreads ? r->ngroups : r->nthreads) + 1;

	*out = NULL;
	if (fv) {
		fv->index = malloc(most * sizeof(*fv->index));
		fv->item_of = malloc((r->nthreads + 1) * sizeof(*fv->item_of));
		fv->bound = calloc(most, sizeof(*fv->bound));
		fv->own = calloc(most, sizeof(*fv->own));
	}
	if (!fv || !fv->index || !fv->item_of || !fv->bound || !fv->own)
		goto nomem;
	fv->c = c;
	fv->v = v;
	fv->r = r;
	if ((fv->n = find_cgroups(fv)) == (size_t)-1) {
		goto nomem;
	} else if (fv->n) {
		fv->kind = ITEM_CGROUP;
		fv->prefix = common_dir(fv);
	} else if ((fv->n = find_processes(fv)) == (size_t)-1) {
		goto nomem;
	} else if (fv->n >= 2) {
		fv->kind = ITEM_PROCESS;
	} else if (r->nthreads >= 2) {
		fv->kind = ITEM_THREAD;
		fv->n = r->nthreads;
		for (size_t i = 0; i < r->nthreads; i++)
			fv->index[i] = fv->item_of[i] = i;
	} else {
		fv->n = 0;
	}
	/* an item's ideal is a bound when one of its threads' is (the text marks it so) */
	if (fv->kind != ITEM_CGROUP || fv->any_own)
		for (size_t i = 0; i < r->nthreads; i++)
			if (fv->item_of[i] != SIZE_MAX)
				fv->bound[fv->item_of[i]] |= r->threads[i].ideal_bound;
	if (find_latency(fv) || find_shown(fv))
		goto nomem;
	*out = fv;
	return 0;
nomem:
	figv_free(fv);
	return -ENOMEM;
}

bool figv_shares(const struct figv *fv)
{
	return fv->kind != ITEM_NONE;
}

bool figv_series(const struct figv *fv)
{
	const struct run_result *r = fv->r;

	/* sampled (a run shorter than one interval is not), holding every thread it needs */
	return figv_shares(fv) && r->nsamples &&
	       ((fv->kind == ITEM_CGROUP && !fv->any_own) || r->series_threads == r->nthreads);
}

bool figv_latency(const struct figv *fv)
{
	return fv->nlat > 0;
}

/*
 * Item @k's label (a cgroup: its path less the common directory; a cgroup's own threads:
 * "PATH (its own threads)"; a thread: PROCESS/NAME.N), into @buf of LABEL_SIZE when made.
 */
static const char *item_label(const struct figv *fv, size_t k, char *buf, size_t len)
{
	const struct run_result *r = fv->r;

	if (fv->kind == ITEM_CGROUP && fv->own[k]) {
		snprintf(buf, len, "%s (its own threads)", r->groups[fv->index[k]].path + fv->prefix);
		return buf;
	}
	if (fv->kind == ITEM_CGROUP)
		return r->groups[fv->index[k]].path + fv->prefix;
	if (fv->kind == ITEM_PROCESS)
		return r->threads[fv->index[k]].process;
	snprintf(buf, len, "%s/%s", r->threads[fv->index[k]].process, r->threads[fv->index[k]].name);
	return buf;
}

/*
 * @op as a mark's label: whole when it fits, else its verb, "...", and its end, where the file
 * and the value written are ("write ...eb.service/cpu.weight 1000").
 */
static void mark_label(const char *op, char *buf, size_t len)
{
	size_t n = strlen(op), verb = strcspn(op, " ");

	if (n <= MARK_LABEL_MAX || verb + 4 >= MARK_LABEL_MAX)
		snprintf(buf, len, "%.*s", MARK_LABEL_MAX, op);
	else
		snprintf(buf, len, "%.*s ...%s", (int)verb, op,
			 op + n - (MARK_LABEL_MAX - verb - 4));
}

/*
 * plots/items-VARIANT.gp: what the share figures draw, as gnuplot values and single-quoted
 * strings: items_what (cgroup, process or thread), nitems (drawn) of of_items, label[] and
 * label_width (the longest, for the bar chart's margins), ideal[] and show_ideal (0 when a
 * timeline moves the ideal during the run), under (" under DIR/" when every cgroup label leaves
 * out DIR/), bound_note (what the " *" after a label says, or ''), and the timeline's operations
 * in the measured window: nmarks, mark_t[] (s), mark_label[]. The figures take their labels
 * from here, not from the data: gnuplot reads a backslash in a data file as an escape, so a
 * systemd unit's "\x2d" would lose it.
 */
static int items_writer(FILE *f, const void *ctx)
{
	const struct figv *fv = ctx;
	const struct scenario *sc = fv->r->sc;
	double *ideal = malloc((fv->n + 1) * sizeof(*ideal));
	size_t width = 1, nmarks = 0, arr = fv->nshown ? fv->nshown : 1;
	char buf[LABEL_SIZE + 8], name[48];
	bool bound = false;

	if (!ideal)
		return -ENOMEM;
	item_values(fv, fv->r, VAL_IDEAL, 0, ideal);
	fprintf(f, "# Written by cgsim compare: what variant %s's share figures draw.\n",
		sc->variant);
	figv_gp_string(f, "vkernel", report_kernel(&sc->sched, buf, sizeof(buf)));
	figv_gp_string(f, "items_what", item_what[fv->kind]);
	fprintf(f, "nitems = %zu\nof_items = %zu\narray label[%zu]\narray ideal[%zu]\n",
		fv->nshown, fv->n, arr, arr);
	for (size_t q = 0; q < fv->nshown; q++) {
		size_t k = fv->shown[q];
		char tbuf[LABEL_SIZE];

		/* a bound ideal marked as the text report marks it */
		snprintf(buf, sizeof(buf), "%s%s", item_label(fv, k, tbuf, sizeof(tbuf)),
			 fv->bound[k] ? " *" : "");
		bound |= fv->bound[k];
		if (strlen(buf) > width)
			width = strlen(buf);
		snprintf(name, sizeof(name), "label[%zu]", q + 1);
		figv_gp_string(f, name, buf);
		fprintf(f, "ideal[%zu] = %.6f\n", q + 1, ideal[k]);
	}
	free(ideal);
	fprintf(f, "label_width = %zu\nshow_ideal = %d\n", width, sc->ntimeline == 0);
	snprintf(buf, sizeof(buf), "%s%.*s", fv->prefix ? " under " : "", (int)fv->prefix,
		 fv->prefix ? fv->r->groups[fv->index[0]].path : "");
	figv_gp_string(f, "under", buf);
	figv_gp_string(f, "bound_note", bound ? "*: the ideal is only an upper bound (the thread "
		       "sleeps or waits after it runs)" : "");
	for (size_t j = 0; j < sc->ntimeline; j++)
		nmarks += sc->timeline[j].at >= sc->warmup && sc->timeline[j].at <= sc->duration;
	fprintf(f, "nmarks = %zu\narray mark_t[%zu]\narray mark_label[%zu]\n", nmarks,
		nmarks ? nmarks : 1, nmarks ? nmarks : 1);
	nmarks = 0;
	for (size_t j = 0; j < sc->ntimeline; j++) {
		const struct scn_event *ev = &sc->timeline[j];

		if (ev->at < sc->warmup || ev->at > sc->duration)
			continue;
		nmarks++;
		fprintf(f, "mark_t[%zu] = %.6f\n", nmarks, (double)ev->at / 1e9);
		mark_label(ev->op, buf, sizeof(buf));
		snprintf(name, sizeof(name), "mark_label[%zu]", nmarks);
		figv_gp_string(f, name, buf);
	}
	return 0;
}

/*
 * VARIANT/bars.csv, the bar chart's data: share,share_min,share_max,ideal,name per drawn item
 * (the mean over the seeds with their least and greatest; one seed: all three the same). The name
 * comes last, for a reader: gnuplot takes the labels from items-VARIANT.gp.
 */
static int bars_writer(FILE *f, const void *ctx)
{
	const struct figv *fv = ctx;
	const struct compare *c = fv->c;
	size_t ns = c->nseeds, n = fv->n;
	double *vals = malloc((n * ns + 1) * sizeof(*vals)), *ideal = malloc((n + 1) * sizeof(*ideal));
	double *col = malloc((ns + 1) * sizeof(*col));
	char buf[LABEL_SIZE];

	if (!vals || !ideal || !col) {
		free(vals), free(ideal), free(col);
		return -ENOMEM;
	}
	/* vals[j * n + k]: item k in seed S + j */
	for (size_t j = 0; j < ns; j++)
		item_values(fv, j ? c->sum[fv->v]->runs[j] : fv->r, VAL_SHARE, 0, vals + j * n);
	item_values(fv, fv->r, VAL_IDEAL, 0, ideal);
	fputs("share,share_min,share_max,ideal,name\n", f);
	for (size_t q = 0; q < fv->nshown; q++) {
		size_t k = fv->shown[q];
		struct seeds_stat st;

		for (size_t j = 0; j < ns; j++)
			col[j] = vals[j * n + k];
		st = seeds_stat(col, ns);
		fprintf(f, "%.6f,%.6f,%.6f,%.6f,", st.mean, st.min, st.max, ideal[k]);
		report_csv_field(f, item_label(fv, k, buf, sizeof(buf)));
		fputc('\n', f);
	}
	free(vals), free(ideal), free(col);
	return 0;
}

/* VARIANT/items-series.csv: time_s, then each drawn item's share of the machine per interval. */
static int items_series_writer(FILE *f, const void *ctx)
{
	const struct figv *fv = ctx;
	const struct run_result *r = fv->r;
	double cap = (double)r->cpus * (double)r->interval;
	double *row = malloc((fv->n + 1) * sizeof(*row));
	char buf[LABEL_SIZE];

	if (!row)
		return -ENOMEM;
	fputs("time_s", f);
	for (size_t q = 0; q < fv->nshown; q++) {
		fputc(',', f);
		report_csv_field(f, item_label(fv, fv->shown[q], buf, sizeof(buf)));
	}
	fputc('\n', f);
	for (size_t s = 0; s < r->nsamples; s++) {
		item_values(fv, r, VAL_SERIES, s, row);
		fprintf(f, "%.6f", (double)(r->sc->warmup + (s + 1) * r->interval) / 1e9);
		for (size_t q = 0; q < fv->nshown; q++)
			fprintf(f, ",%.6f", row[fv->shown[q]] / cap);
		fputc('\n', f);
	}
	free(row);
	return 0;
}

/*
 * VARIANT/latency-threads.csv: per drawn thread, a block (gnuplot's index, two blank lines
 * between) headed by two comment lines (its name, then the columns), of
 * latency_ms,fraction_at_or_above over its kept samples: the complementary distribution,
 * which a log y axis reads down to the rarest wakeup (1/n). The last CCDF_EXACT_TAIL samples
 * are all there; before them, one point in every n/CCDF_EXACT_TAIL.
 */
static int lat_threads_writer(FILE *f, const void *ctx)
{
	const struct figv *fv = ctx;

	for (size_t p = 0; p < fv->nlat; p++) {
		const struct run_thread *t = &fv->r->threads[fv->lat[p]];
		size_t n = t->nlat, step = n / CCDF_EXACT_TAIL ? n / CCDF_EXACT_TAIL : 1;

		/* comments, which gnuplot skips in every block (its skip only at the file's head) */
		fprintf(f, "%s# %s/%s\n# latency_ms,fraction_at_or_above\n", p ? "\n\n" : "",
			t->process, t->name);
		for (size_t i = 0; i < n; i++) {
			/* one point per distinct latency: the first of each run of equal samples */
			if (i && t->lat[i] == t->lat[i - 1])
				continue;
			if (n - i > CCDF_EXACT_TAIL && i % step)
				continue;
			fprintf(f, "%.6f,%.6g\n", (double)t->lat[i] / 1e6,
				(double)(n - i) / (double)n);
		}
	}
	return 0;
}

/* plots/latency-VARIANT.gp: the drawn threads' names (tlabel[]), how many of how many woke. */
static int lat_labels_writer(FILE *f, const void *ctx)
{
	const struct figv *fv = ctx;
	char kernel[REPORT_KERNEL_SIZE];

	fprintf(f, "# Written by cgsim compare: the threads variant %s's latency figure draws.\n"
		   "nthreads = %zu\nwoke = %zu\narray tlabel[%zu]\n", fv->r->sc->variant, fv->nlat,
		fv->woke, fv->nlat ? fv->nlat : 1);
	figv_gp_string(f, "vkernel", report_kernel(&fv->r->sc->sched, kernel, sizeof(kernel)));
	for (size_t p = 0; p < fv->nlat; p++) {
		const struct run_thread *t = &fv->r->threads[fv->lat[p]];
		char name[32], label[LABEL_SIZE];

		snprintf(name, sizeof(name), "tlabel[%zu]", p + 1);
		snprintf(label, sizeof(label), "%s/%s", t->process, t->name);
		figv_gp_string(f, name, label);
	}
	return 0;
}

int figv_write(const struct figv *fv, const char *vdir, const char *plots, char *err,
	       size_t errlen)
{
	const char *vn = fv->r->sc->variant;
	char name[300];
	int e;

	if (figv_shares(fv)) {
		snprintf(name, sizeof(name), "items-%.200s.gp", vn);
		if ((e = util_write_file(plots, name, items_writer, fv, err, errlen)) ||
		    (e = util_write_file(vdir, "bars.csv", bars_writer, fv, err, errlen)))
			return e;
	}
	if (figv_series(fv) &&
	    (e = util_write_file(vdir, "items-series.csv", items_series_writer, fv, err, errlen)))
		return e;
	if (figv_latency(fv)) {
		snprintf(name, sizeof(name), "latency-%.200s.gp", vn);
		if ((e = util_write_file(plots, name, lat_labels_writer, fv, err, errlen)) ||
		    (e = util_write_file(vdir, "latency-threads.csv", lat_threads_writer, fv, err,
					 errlen)))
			return e;
	}
	return 0;
}
