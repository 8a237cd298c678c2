// SPDX-License-Identifier: MIT
/*
 * sim/study/compare_rows.c - a comparison's rows (every group and process of any variant) and
 * their figures in every run, and the machine's figures: what the printed tables and a sweep's
 * CSV are made of (sim/study/compare_internal.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/study/compare_internal.h"
#include "sim/report/report.h"
#include "sim/run/seeds.h"

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

double compare__machine_value(const struct run_result *r, enum machine_row m)
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
double compare__machine_mean(const struct compare *c, size_t v, enum machine_row m)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < c->nseeds; k++) {
		double x = compare__machine_value(compare__run_of(c, v, k), m);

		if (!isnan(x)) {
			sum += x;
			n++;
		}
	}
	return n ? sum / (double)n : (double)NAN;
}

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

void compare__free_labels(struct labels *l)
{
	for (size_t i = 0; l->name && i < l->n; i++)
		free(l->name[i]);
	free(l->name);
	free(l->kind);
	free(l->shared_tail);
	free(l->cell);
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
		size_t len = strlen(vis), tl = compare__label_room(l->kind[i]) - 3;

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
	const struct run_result *r = compare__run_of(c, v, k);
	struct label_key key = { .kind = ROW_GROUP };
	const struct label_key *hit;
	struct cell *x;

	for (size_t g = 0; g < r->ngroups; g++) {
		key.name = r->groups[g].path;
		hit = bsearch(&key, look, l->n, sizeof(*look), label_find_cmp);
		if (!hit || (x = compare__cell_at(l, v, k, hit->i))->have)
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
		x = compare__cell_at(l, v, k, hit->i);
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
int compare__collect(const struct compare *c, struct labels *l)
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
	for (size_t v = 0; v < c->n; v++) {
		const struct run_result *r = c->res[v];

		for (size_t g = 0; g < r->ngroups; g++, n++)
			key[n] = (struct label_key){ r->groups[g].path, ROW_GROUP, n };
	}
	for (size_t v = 0; v < c->n; v++) {
		const struct run_result *r = c->res[v];

		for (size_t j = 0; j < r->nthreads; j++, n++)
			key[n] = (struct label_key){ r->threads[j].process, ROW_PROCESS, n };
	}
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

/*
 * Row @i's share in variant @v, summed up over its seeds (one seed: that run, no spread), and
 * its ideal, which the seed does not change. False when the row is not in that variant.
 */
bool compare__row_share(const struct compare *c, const struct labels *l, size_t i, size_t v,
			struct seeds_stat *st, double *ideal)
{
	double vals[SEEDS_MAX];

	for (size_t k = 0; k < c->nseeds; k++) {
		const struct cell *x = compare__cell_at(l, v, k, i);

		if (!x->have)
			return false;
		vals[k] = x->share;
		*ideal = x->ideal;
	}
	*st = seeds_stat(vals, c->nseeds);
	return true;
}
