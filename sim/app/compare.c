// SPDX-License-Identifier: MIT
/*
 * sim/app/compare.c - every variant of a scenario side by side (cgsim compare; sim/app/compare.h).
 *
 * Each variant is loaded and run exactly as `cgsim run --variant NAME` would (same seed, same
 * function), so every number in the table is the one that command reports.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/compare.h"
#include "sim/app/report.h"
#include "sim/run/expect.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

#define COLS_PER_BLOCK 4	/* variant columns per block of the text table: 80 columns */

static const char *vname(const struct compare *c, size_t v)
{
	return c->sc[v]->variant;
}

/* A directory for the traces; *@made when this call created it. */
static int trace_mkdir(const char *path, bool *made, char *err, size_t errlen)
{
	if (!mkdir(path, 0777)) {
		*made = true;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	snprintf(err, errlen, "cgsim: cannot create %.1000s: %s", path, strerror(errno));
	return -errno;
}

/* Each variant's trace file, under its temporary name in DIR/VARIANT/. */
static int trace_open(struct compare *c, const char *dir, char *err, size_t errlen)
{
	char path[4200];
	int e;

	c->trace = calloc(c->n, sizeof(*c->trace));
	c->made_dir = calloc(c->n + 1, sizeof(*c->made_dir));
	c->trace_dir = strdup(dir);
	if (!c->trace || !c->made_dir || !c->trace_dir) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	if ((e = trace_mkdir(dir, &c->made_dir[0], err, errlen)))
		return e;
	for (size_t v = 0; v < c->n; v++) {
		snprintf(path, sizeof(path), "%s/%s", dir, vname(c, v));
		if ((e = trace_mkdir(path, &c->made_dir[1 + v], err, errlen)))
			return e;
		snprintf(path, sizeof(path), "%s/%s/trace.txt", dir, vname(c, v));
		if ((e = util_out_open(&c->trace[v], path, err, errlen)))
			return e;
	}
	return 0;
}

/* Whatever traces are not in place yet go, and the directories made for them if empty. */
static void trace_close(struct compare *c)
{
	char path[4200];

	if (!c->trace)
		return;
	for (size_t v = c->n; v-- > 0;) {
		util_out_abort(&c->trace[v]);
		snprintf(path, sizeof(path), "%s/%s", c->trace_dir, vname(c, v));
		if (c->made_dir[1 + v])
			rmdir(path);	/* fails, as it should, once the variant's files are in it */
	}
	if (c->made_dir[0])
		rmdir(c->trace_dir);
}

/*
 * Every variant's scenario for seeds S+1 .. S+@nseeds-1 (S: the variant's seed) into
 * c->more_sc, and the slots of their runs. 0 or a negative errno with the message in @err.
 */
static int load_seeds(struct compare *c, const char *file, const char *const *sets, size_t nsets,
		      size_t sweep, size_t nseeds, char *err, size_t errlen)
{
	size_t m = nseeds - 1;
	int e = 0;

	c->nseeds = nseeds;
	c->more_sc = calloc(c->n * m, sizeof(*c->more_sc));
	c->more_res = calloc(c->n * m, sizeof(*c->more_res));
	c->sum = calloc(c->n, sizeof(*c->sum));
	if (!c->more_sc || !c->more_res || !c->sum) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	for (size_t v = 0; !e && v < c->n; v++)
		for (size_t k = 1; !e && k < nseeds; k++)
			e = seeds_load(file, c->sc[0]->text, c->sc[v]->variant, sets, nsets, sweep,
				       c->sc[v]->seed, k, &c->more_sc[v * m + k - 1], err, errlen);
	return e;
}

int compare_load(const char *file, const char *text, const char *const *sets, size_t nsets,
		 size_t sweep, size_t nseeds, const char *trace_dir, struct compare **out,
		 char *err, size_t errlen)
{
	struct scenario *base = scn_load_swept(file, text, NULL, sets, nsets, sweep, err, errlen);
	struct compare *c;
	int e = 0;

	*out = NULL;
	if (!base)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (c) {
		c->n = base->nvariants + 1;
		c->sc = calloc(c->n, sizeof(*c->sc));
		c->res = calloc(c->n, sizeof(*c->res));
	}
	if (!c || !c->sc || !c->res) {
		snprintf(err, errlen, "cgsim: out of memory");
		scn_free(base);
		compare_free(c);
		return -ENOMEM;
	}
	c->sc[0] = base;
	c->nseeds = 1;
	c->sweep = sweep;
	for (size_t v = 1; v < c->n; v++) {
		c->sc[v] = scn_load_swept(file, base->text, base->variants[v - 1].name, sets,
					  nsets, sweep, err, errlen);
		if (!c->sc[v]) {
			e = -EINVAL;
			break;
		}
	}
	if (!e && nseeds > 1)
		e = load_seeds(c, file, sets, nsets, sweep, nseeds, err, errlen);
	if (!e && trace_dir)
		e = trace_open(c, trace_dir, err, errlen);
	if (e) {
		compare_free(c);
		return e;
	}
	*out = c;
	return 0;
}

int compare_jobs(struct compare *c, struct jobs *js)
{
	size_t m = c->nseeds - 1;

	for (size_t v = 0; v < c->n; v++)
		for (size_t k = 0; k < c->nseeds; k++) {
			int e = k ? jobs_add(js, c->more_sc[v * m + k - 1],
					     &c->more_res[v * m + k - 1], NULL, c->sweep)
				  : jobs_add(js, c->sc[v], &c->res[v],
					     c->trace ? c->trace[v].f : NULL, c->sweep);

			if (e)
				return e;
		}
	return 0;
}

int compare_finish(struct compare *c, char *err, size_t errlen)
{
	size_t m = c->nseeds - 1;

	for (size_t v = 0; m && v < c->n; v++) {
		struct run_result **runs = calloc(c->nseeds, sizeof(*runs));
		int e;

		if (!runs) {
			snprintf(err, errlen, "cgsim: out of memory");
			return -ENOMEM;
		}
		runs[0] = c->res[v];
		memcpy(runs + 1, &c->more_res[v * m], m * sizeof(*runs));
		if ((e = seeds_sum(runs, c->nseeds, c->sc[v]->seed, &c->sum[v], err, errlen))) {
			free(runs);
			return e;
		}
		/* the sum owns the runs now */
		memset(&c->more_res[v * m], 0, m * sizeof(*runs));
	}
	return 0;
}

/* The seeds' runs and sums, res[] among them: what compare_free() frees of --seeds. */
static void free_seeds(struct compare *c)
{
	size_t m = c->nseeds ? c->nseeds - 1 : 0;

	for (size_t v = 0; c->sum && v < c->n; v++) {
		if (c->sum[v]) {
			seeds_free(c->sum[v]);	/* runs[0] is res[v] */
			c->res[v] = NULL;
		}
	}
	for (size_t j = 0; c->more_sc && j < c->n * m; j++)
		scn_free(c->more_sc[j]);
	for (size_t j = 0; c->more_res && j < c->n * m; j++)
		run_free(c->more_res[j]);
	free(c->sum);
	free(c->more_sc);
	free(c->more_res);
	c->sum = NULL;
	c->more_sc = NULL;
	c->more_res = NULL;
}

/* Variant @v's run of seed S + @k (0: res[v]). */
static const struct run_result *run_of(const struct compare *c, size_t v, size_t k)
{
	return k ? c->sum[v]->runs[k] : c->res[v];
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	free_seeds(c);
	trace_close(c);
	free(c->trace);
	free(c->made_dir);
	free(c->trace_dir);
	for (size_t v = 0; v < c->n; v++) {
		run_free(c->res ? c->res[v] : NULL);
		scn_free(c->sc ? c->sc[v] : NULL);
	}
	free(c->res);
	free(c->sc);
	free(c);
}

/* ---------------- rows ---------------- */

enum row_kind { ROW_GROUP, ROW_PROCESS, ROW_MACHINE };

enum machine_row {
	M_JAIN, M_MAX_ABS, M_P50, M_P99, M_SWITCHES, M_OVERHEAD, M_LEVEL_OPS, M_NR
};

static const char *const machine_label[M_NR] = {
	"Jain's index", "largest share error", "wakeup p50 (ms)", "wakeup p99 (ms)",
	"switches/s", "overhead (% cap.)", "level ops/s",
};

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

/* @now less @base in ms. */
static double ms_change(uint64_t now, uint64_t base)
{
	return ((double)now - (double)base) / 1e6;
}

/* The median and the largest p99 of the threads that woke up (ms); NaN when none did. */
static double latency(const struct run_result *r, bool p99)
{
	double v = (double)NAN;

	for (size_t i = 0; i < r->nthreads; i++) {
		double x;

		if (!r->threads[i].wakeups)
			continue;
		x = (double)(p99 ? r->threads[i].lat_p99 : r->threads[i].lat_p50) / 1e6;
		if (isnan(v) || x > v)
			v = x;
	}
	return v;
}

static double machine_value(const struct run_result *r, enum machine_row m)
{
	double secs = (double)r->measured_ns / 1e9;

	switch (m) {
	case M_JAIN:
		return r->jain;
	case M_MAX_ABS:
		return r->max_abs_error;
	case M_P50:
		return latency(r, false);
	case M_P99:
		return latency(r, true);
	case M_SWITCHES:
		return (double)r->switches / secs;
	case M_OVERHEAD:
		return 100.0 * (double)r->overhead_ns / ((double)r->cpus * (double)r->measured_ns);
	case M_LEVEL_OPS:
		return (double)r->level_ops / secs;
	case M_NR:
		break;
	}
	return (double)NAN;
}

/* A machine figure of variant @v, the mean over its seeds (NAN when no run has it). */
static double machine_mean(const struct compare *c, size_t v, enum machine_row m)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < c->nseeds; k++) {
		double x = machine_value(run_of(c, v, k), m);

		if (!isnan(x)) {
			sum += x;
			n++;
		}
	}
	return n ? sum / (double)n : (double)NAN;
}

static const char *machine_fmt(enum machine_row m)
{
	return m == M_SWITCHES || m == M_LEVEL_OPS ? "%.0f" : m == M_OVERHEAD ? "%.3f" : "%.4f";
}

/* Room for a cgroup path (at most 1024 bytes) or a sweep value with every byte as \xNN. */
#define VIS_SIZE REPORT_VISIBLE_SIZE(4096)

#define LABEL_W 22	/* the text table's label column */

/* A row's figures in one run: its share and ideal, and a process's largest wakeup p99. */
struct cell {
	double share, ideal;
	uint64_t p99;		/* ns, as expect: takes it */
	bool have, woke;
};

/*
 * Every group path and process name of any variant, in order of first appearance, and each
 * one's figures in every run, found once: looking each row up in each run by a linear search
 * made the tables quadratic (rows x threads) at 100,000 threads.
 */
struct labels {
	char **name;
	enum row_kind *kind;
	size_t n;
	bool *shared_tail;	/* its text label, cut, would read as another's */
	struct cell *cell;	/* row i in variant v's run of seed k: [(v * nseeds + k) * n + i] */
	size_t nseeds;
};

/* A name among the rows: sorted by kind and name to look one up in O(log n). */
struct label_key {
	const char *name;
	enum row_kind kind;
	size_t i;		/* its row; while collecting, the order it was met in */
};

static int label_key_cmp(const void *a, const void *b)
{
	const struct label_key *x = a, *y = b;
	int c = x->kind != y->kind ? (x->kind > y->kind) - (x->kind < y->kind)
				   : strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* By name only, for bsearch(): the row @key names, whatever its place. */
static int label_find_cmp(const void *a, const void *b)
{
	const struct label_key *x = a, *y = b;

	if (x->kind != y->kind)
		return (x->kind > y->kind) - (x->kind < y->kind);
	return strcmp(x->name, y->name);
}

static int label_order_cmp(const void *a, const void *b)
{
	const struct label_key *x = a, *y = b;

	return (x->i > y->i) - (x->i < y->i);
}

static void free_labels(struct labels *l)
{
	for (size_t i = 0; l->name && i < l->n; i++)
		free(l->name[i]);
	free(l->name);
	free(l->kind);
	free(l->shared_tail);
	free(l->cell);
}

static struct cell *cell_at(const struct labels *l, size_t v, size_t k, size_t i)
{
	return &l->cell[(v * l->nseeds + k) * l->n + i];
}

/* The text label's room for the name after "group " or "process ". */
static size_t label_room(enum row_kind k)
{
	return LABEL_W - strlen(k == ROW_GROUP ? "group " : "process ");
}

/* A row's name's last characters, which its cut text label shows. */
struct label_tail {
	char s[LABEL_W];
	enum row_kind kind;
	size_t i;
};

static int tail_cmp(const void *a, const void *b)
{
	const struct label_tail *x = a, *y = b;

	if (x->kind != y->kind)
		return (x->kind > y->kind) - (x->kind < y->kind);
	return strcmp(x->s, y->s);
}

/*
 * Which rows' cut labels ("group ...TAIL": the name's last room - 3 characters) would read as
 * another row's of the same kind, whose name ends in the same TAIL: sorted by tail, O(n log n).
 */
static int find_shared_tails(struct labels *l)
{
	struct label_tail *t;
	char buf[VIS_SIZE];
	size_t n = 0;

	t = malloc((l->n ? l->n : 1) * sizeof(*t));
	l->shared_tail = calloc(l->n ? l->n : 1, sizeof(*l->shared_tail));
	if (!t || !l->shared_tail) {
		free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->n; i++) {
		const char *vis = report_visible(l->name[i], buf, sizeof(buf));
		size_t len = strlen(vis), tl = label_room(l->kind[i]) - 3;

		if (len < tl)
			continue;
		memcpy(t[n].s, vis + len - tl, tl + 1);
		t[n].kind = l->kind[i];
		t[n++].i = i;
	}
	qsort(t, n, sizeof(*t), tail_cmp);
	for (size_t j = 1; j < n; j++)
		if (!tail_cmp(&t[j - 1], &t[j]))
			l->shared_tail[t[j - 1].i] = l->shared_tail[t[j].i] = true;
	free(t);
	return 0;
}

/* Each row's figures in variant @v's run of seed @k; @look: the rows sorted by name. */
static void fill_cells(const struct compare *c, struct labels *l, const struct label_key *look,
		       size_t v, size_t k)
{
	const struct run_result *r = run_of(c, v, k);
	struct label_key key = { .kind = ROW_GROUP };
	const struct label_key *hit;
	struct cell *x;

	for (size_t g = 0; g < r->ngroups; g++) {
		key.name = r->groups[g].path;
		hit = bsearch(&key, look, l->n, sizeof(*look), label_find_cmp);
		if (!hit || (x = cell_at(l, v, k, hit->i))->have)
			continue;	/* a path's first group, as a search from the start finds */
		x->share = r->groups[g].share;
		x->ideal = r->groups[g].ideal;
		x->have = true;
	}
	key.kind = ROW_PROCESS;
	for (size_t j = 0; j < r->nthreads; j++) {
		const struct run_thread *t = &r->threads[j];

		key.name = t->process;
		hit = bsearch(&key, look, l->n, sizeof(*look), label_find_cmp);
		if (!hit)
			continue;
		x = cell_at(l, v, k, hit->i);
		x->share += t->share;	/* in the threads' order: the same sum, bit for bit */
		x->ideal += t->ideal;
		x->have = true;
		if (t->lat_samples && (!x->woke || t->lat_p99 > x->p99))
			x->p99 = t->lat_p99;
		x->woke |= t->lat_samples > 0;
	}
}

/* The rows' names in the order they were met in, and @key sorted by name to look them up. */
static int name_rows(struct labels *l, struct label_key *key)
{
	qsort(key, l->n, sizeof(*key), label_order_cmp);
	l->name = calloc(l->n ? l->n : 1, sizeof(*l->name));
	l->kind = calloc(l->n ? l->n : 1, sizeof(*l->kind));
	if (!l->name || !l->kind)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		if (!(l->name[i] = strdup(key[i].name)))
			return -ENOMEM;
		l->kind[i] = key[i].kind;
		key[i] = (struct label_key){ l->name[i], l->kind[i], i };
	}
	qsort(key, l->n, sizeof(*key), label_key_cmp);
	return 0;
}

/* Every row (groups, then processes, of seed S's runs) and its figures in every run. */
static int collect(const struct compare *c, struct labels *l)
{
	struct label_key *key;
	size_t total = 0, n = 0;
	int e = -ENOMEM;

	memset(l, 0, sizeof(*l));
	l->nseeds = c->nseeds;
	for (size_t v = 0; v < c->n; v++)
		total += c->res[v]->ngroups + c->res[v]->nthreads;
	key = malloc((total ? total : 1) * sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (size_t v = 0; v < c->n; v++)
		for (size_t g = 0; g < c->res[v]->ngroups; g++, n++)
			key[n] = (struct label_key){ c->res[v]->groups[g].path, ROW_GROUP, n };
	for (size_t v = 0; v < c->n; v++)
		for (size_t j = 0; j < c->res[v]->nthreads; j++, n++)
			key[n] = (struct label_key){ c->res[v]->threads[j].process, ROW_PROCESS, n };
	/* each name once, where it was first met */
	qsort(key, n, sizeof(*key), label_key_cmp);
	for (size_t j = 0; j < n; j++)
		if (!j || label_find_cmp(&key[j - 1], &key[j]))
			key[l->n++] = key[j];
	if (name_rows(l, key))
		goto out;
	l->cell = calloc(c->n * c->nseeds * l->n + 1, sizeof(*l->cell));
	if (!l->cell || find_shared_tails(l))
		goto out;
	for (size_t v = 0; v < c->n; v++)
		for (size_t k = 0; k < c->nseeds; k++)
			fill_cells(c, l, key, v, k);
	e = 0;
out:
	free(key);
	return e;
}

/* Row @i's wakeup p99 in variant @v, the mean over the seeds in which it woke. */
static bool p99_mean(const struct labels *l, size_t v, size_t i, uint64_t *ns)
{
	uint64_t sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < l->nseeds; k++) {
		const struct cell *x = cell_at(l, v, k, i);

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

/*
 * Row @i's share in variant @v, summed up over its seeds (one seed: that run, no spread), and
 * its ideal, which the seed does not change. False when the row is not in that variant.
 */
static bool row_share(const struct compare *c, const struct labels *l, size_t i, size_t v,
		      struct seeds_stat *st, double *ideal)
{
	double vals[SEEDS_MAX];

	for (size_t k = 0; k < c->nseeds; k++) {
		const struct cell *x = cell_at(l, v, k, i);

		if (!x->have)
			return false;
		vals[k] = x->share;
		*ideal = x->ideal;
	}
	*st = seeds_stat(vals, c->nseeds);
	return true;
}

static void row_cells(const struct compare *c, const struct labels *l, size_t i, size_t v,
		      char *buf, size_t len)
{
	struct seeds_stat st = { 0 };
	double id = 0;
	bool have = row_share(c, l, i, v, &st, &id);

	cell_share(buf, len, have, st.mean, id);
}

static void machine_cell(const struct compare *c, enum machine_row m, size_t v, char *buf,
			 size_t len)
{
	double x = machine_mean(c, v, m);

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
	size_t room = label_room(l->kind[i]), len = strlen(vis);

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
		fprintf(f, " %13.13s", vname(c, v));
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
	    !row_share(c, l, i, 0, &s0, &i0) || !row_share(c, l, i, v, &s1, &i1))
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
		int col = fprintf(f, "  %s:", vname(c, v));
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
			nz(machine_mean(c, v, M_OVERHEAD) - machine_mean(c, 0, M_OVERHEAD), 0.0005),
			nz(machine_mean(c, v, M_SWITCHES) - machine_mean(c, 0, M_SWITCHES), 0.5),
			nz(machine_mean(c, v, M_LEVEL_OPS) - machine_mean(c, 0, M_LEVEL_OPS), 0.5));
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

				if (!row_share(c, l, i, v, &st, &id))
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

/* The header line the text and markdown share: "NAME: N CPUs, POLICY, seed S, ..." */
static void head_line(FILE *f, const struct compare *c, const char *bold)
{
	const struct scenario *sc = c->sc[0];

	fprintf(f, "%s%s%s: %d CPUs, %s, ", bold, sc->name, bold, sc->sched.cpus,
		sched_policy_name(sc->sched.policy));
	if (c->nseeds > 1)
		fprintf(f, "seeds %llu to %llu (means), ", (unsigned long long)sc->seed,
			(unsigned long long)(sc->seed + c->nseeds - 1));
	else
		fprintf(f, "seed %llu, ", (unsigned long long)sc->seed);
	fprintf(f, "%.1f s measured\n\n", (double)(sc->duration - sc->warmup) / 1e9);
}

int compare_text(FILE *f, const struct compare *c)
{
	struct labels l;

	if (collect(c, &l)) {
		free_labels(&l);
		return -ENOMEM;
	}
	head_line(f, c, "");
	for (size_t from = 0; from < c->n; from += COLS_PER_BLOCK) {
		size_t to = from + COLS_PER_BLOCK < c->n ? from + COLS_PER_BLOCK : c->n;

		if (from)
			fputc('\n', f);
		text_block(f, c, &l, from, to);
		if (c->nseeds > 1)
			text_spread(f, c, &l, from, to);
	}
	text_changes(f, c, &l);
	free_labels(&l);
	return 0;
}

/* A markdown table's head: @first (its first cell), a column per variant from @from. */
static void markdown_head(FILE *f, const struct compare *c, const char *first, size_t from)
{
	fputs(first, f);
	for (size_t v = from; v < c->n; v++)
		fprintf(f, " %s |", vname(c, v));
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
			markdown_head(f, c, c->nseeds > 1 ? "\n| wakeup p99 ms, mean (change from "
					    "base) |" : "\n| wakeup p99 ms (change from base) |", 0);
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
	markdown_head(f, c, c->nseeds > 1 ? "\n| change from base (points of capacity, of the "
			    "means) |" : "\n| change from base (points of capacity) |", 1);
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
			fprintf(f, mach[k].fmt, nz(machine_mean(c, v, mach[k].m) -
						   machine_mean(c, 0, mach[k].m), mach[k].unit));
		fputc('\n', f);
	}
	if (any_small)
		fprintf(f, "\n?: smaller than the spread: the 95 %% intervals of the two means "
			   "overlap over these %zu seeds\n", c->nseeds);
}

/* --seeds: each share row's least and greatest over the seeds, +- the 95 % interval. */
static void markdown_spread(FILE *f, const struct compare *c, const struct labels *l)
{
	markdown_head(f, c, "\n| least-greatest, +- 95 % interval of the mean |", 0);
	for (size_t i = 0; i < l->n; i++) {
		fprintf(f, "| %s ", l->kind[i] == ROW_GROUP ? "group" : "process");
		report_md_code(f, l->name[i]);
		fputs(" |", f);
		for (size_t v = 0; v < c->n; v++) {
			struct seeds_stat st;
			double id;

			if (row_share(c, l, i, v, &st, &id))
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

	if (collect(c, &l)) {
		free_labels(&l);
		return -ENOMEM;
	}
	/* the same header line as the text's, for a mail or a pull request */
	head_line(f, c, "**");
	markdown_head(f, c, "| share / ideal |", 0);
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
	free_labels(&l);
	return 0;
}

int compare_json(FILE *f, const struct compare *c)
{
	struct labels l;
	bool first = true;

	if (collect(c, &l)) {
		free_labels(&l);
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
			report_json_string(f, vname(c, v));
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
			report_json_string(f, vname(c, v));
			fputs(", \"process\": ", f);
			report_json_string(f, l.name[i]);
			fprintf(f, ", \"latency_p99_ns\": %llu, \"base_latency_p99_ns\": %llu, "
				   "\"change_ns\": %lld }", (unsigned long long)now,
				(unsigned long long)base, (long long)now - (long long)base);
			first = false;
		}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
	free_labels(&l);
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

int compare_write_dir(const char *dir, const struct compare *c, char *err, size_t errlen)
{
	char path[4200];
	int e;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cgsim: cannot create %s: %s", dir, strerror(errno));
		return -errno;
	}
	for (size_t v = 0; v < c->n; v++) {
		snprintf(path, sizeof(path), "%s/%s", dir, vname(c, v));
		e = report_write_dir(path, c->res[v], err, errlen);
		if (!e && c->nseeds > 1)
			e = util_write_file(path, "seeds.json", seeds_writer, c->sum[v], err, errlen);
		if (!e && c->trace && c->trace[v].f)
			e = util_out_commit(&c->trace[v], err, errlen);
		if (e)
			return e;
	}
	if ((e = util_write_file(dir, "compare.txt", text_writer, c, err, errlen)) ||
	    (e = util_write_file(dir, "compare.md", markdown_writer, c, err, errlen)))
		return e;
	return util_write_file(dir, "compare.json", json_writer, c, err, errlen);
}

/* ---------------- sweeps ---------------- */

int sweep_load(const char *file, const struct scenario *base, const char *const *sets,
	       size_t nsets, size_t nseeds, struct sweep **out, char *err, size_t errlen)
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
		e = compare_load(file, base->text, sets, nsets, k, nseeds, NULL, &sw->at[k], err,
				 errlen);
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
		*share = machine_value(r, M_OVERHEAD);
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
		if (sweep_target(sw->base, run_of(c, v, j), &vals[n], ideal))
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
	markdown_head(f, c0, "| value |", 0);
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
	{
		int w = 10;

		for (size_t k = 0; k < sw->n; k++) {
			int len = (int)strlen(report_visible(base->sweep_values[k], vis, sizeof(vis)));

			if (len > w)
				w = len;
		}
		if (w > 24)
			w = 24;
		fprintf(f, "%-*s", w, "value");
		for (size_t v = 0; v < c0->n && v < 4; v++)
			fprintf(f, " %13.13s", vname(c0, v));
		fputc('\n', f);
		vw = w;
	}
	for (size_t k = 0; k < sw->n; k++) {
		fprintf(f, "%-*.*s", vw, vw, report_visible(base->sweep_values[k], vis, sizeof(vis)));
		for (size_t v = 0; v < sw->at[k]->n && v < 4; v++) {
			sweep_cell(sw, k, v, false, buf, sizeof(buf));
			fprintf(f, " %13s", buf);
		}
		fputc('\n', f);
	}
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

		if (collect(c, &l)) {
			free_labels(&l);
			return -ENOMEM;
		}
		for (size_t v = 0; v < c->n; v++) {
			for (size_t i = 0; i < l.n; i++) {
				struct seeds_stat st;
				double id;

				if (!row_share(c, &l, i, v, &st, &id))
					continue;
				report_csv_field(f, sw->base->sweep_values[k]);
				fprintf(f, ",%s,%s,", vname(c, v),
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
				double x = machine_mean(c, v, (enum machine_row)m);

				if (isnan(x))
					continue;
				report_csv_field(f, sw->base->sweep_values[k]);
				fprintf(f, ",%s,machine,%s,%.6f,%s\n", vname(c, v), key[m], x,
					seeds ? ",,," : "");
			}
		}
		free_labels(&l);
	}
	return 0;
}
