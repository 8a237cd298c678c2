// SPDX-License-Identifier: MIT
/*
 * sim/run/runio.c - a run's result as text (sim/run/runio.h has the format): the tables both
 * directions follow, and the writer (the reader is sim/run/runio_read.c).
 *
 * Both directions follow the same tables: each line's keyword and the fields of the struct it
 * holds, each with its kind, checked against the member's type when this file compiles. A
 * field added to one of run.h's structs needs a row in a table here (the size checks below
 * fail until someone has looked).
 *
 * The writer formats into a buffer of its own and hands it to stdio in large pieces.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/runio.h"
#include "sim/run/runio_internal.h"
#include "sim/util/util.h"

/*
 * Whether run.h's structs are still the ones the tables below cover: a new field changes the
 * size (in most cases; one that fits in padding does not), and then its row is missing here.
 */
#define SIZE_IS(S, n) _Static_assert(sizeof(struct S) == (n), "struct " #S " changed: add " \
				       "its new field to sim/run/runio.c's tables, then this size")
#if UINTPTR_MAX == UINT64_MAX
SIZE_IS(run_result, 240);
SIZE_IS(run_thread, 304);
SIZE_IS(run_group, 40);
SIZE_IS(run_op, 24);
SIZE_IS(run_activation, 64);
#endif

/* ---------------- the tables ---------------- */

/* The offset of member @m of struct @S, which must be of type @T (else this does not compile). */
#define AT(S, m, T) \
	(offsetof(struct S, m) + 0 * sizeof(char[_Generic(((struct S *)0)->m, T: 1, default: -1)]))
#define F_U64(S, m)		{ #m, RUNIO_K_U64, AT(S, m, uint64_t), 0, 0 }
#define F_SIZE(S, m)		{ #m, RUNIO_K_SIZE, AT(S, m, size_t), 0, 0 }
#define F_I64(S, m)		{ #m, RUNIO_K_I64, AT(S, m, int64_t), 0, 0 }
#define F_INT(S, m, lo, hi)	{ #m, RUNIO_K_INT, AT(S, m, int), lo, hi }
#define F_BOOL(S, m)		{ #m, RUNIO_K_BOOL, AT(S, m, bool), 0, 0 }
#define F_DBL(S, m)		{ #m, RUNIO_K_DBL, AT(S, m, double), 0, 0 }
#define F_STR(S, m)		{ #m, RUNIO_K_STR, AT(S, m, char *), 0, 0 }

#define LINE(key, fields) { key, fields, sizeof(fields) / sizeof((fields)[0]) }

static const struct runio__field run_f[] = {
	F_INT(run_result, cpus, 1, SCHED_MAX_CPUS), F_U64(run_result, measured_ns),
	F_U64(run_result, wall_ns),
};
static const struct runio__field fairness_f[] = {
	F_DBL(run_result, jain), F_DBL(run_result, max_abs_error), F_DBL(run_result, max_rel_error),
	F_SIZE(run_result, fair_threads), F_SIZE(run_result, bound_threads),
};
static const struct runio__field machine_f[] = {
	F_U64(run_result, overhead_ns), F_U64(run_result, level_ops), F_U64(run_result, level_walks),
	F_U64(run_result, switches), F_U64(run_result, migrations), F_U64(run_result, events),
};
/* the reader takes the counts of this line one by one (r_series()) */
static const struct runio__field series_f[] = {
	F_U64(run_result, interval), F_SIZE(run_result, nsamples),
	F_SIZE(run_result, series_threads),
};
static const struct runio__field thread_f[] = {
	F_INT(run_thread, tid, 0, SCN_MAX_THREADS), F_STR(run_thread, process),
	F_STR(run_thread, name), F_STR(run_thread, cgroup),
};
static const struct runio__field cpu_f[] = {
	F_U64(run_thread, cpu_ns), F_U64(run_thread, wait_ns), F_U64(run_thread, switches),
	F_U64(run_thread, migrations), F_U64(run_thread, wakeups), F_U64(run_thread, delayed),
	F_U64(run_thread, overruns), F_DBL(run_thread, share), F_DBL(run_thread, ideal),
	F_BOOL(run_thread, ideal_bound),
};
static const struct runio__field latency_f[] = {
	F_U64(run_thread, lat_p50), F_U64(run_thread, lat_p90), F_U64(run_thread, lat_p99),
	F_U64(run_thread, lat_p999), F_U64(run_thread, lat_max), F_U64(run_thread, lat_min),
	F_U64(run_thread, lat_mean), F_U64(run_thread, lat_samples),
};
static const struct runio__field delays_f[] = {
	F_U64(run_thread, delays), F_U64(run_thread, delay_total), F_U64(run_thread, delay_max),
	F_U64(run_thread, delay_max_start), F_U64(run_thread, delay_max_end),
};
static const struct runio__field periodic_f[] = {
	F_BOOL(run_thread, periodic), F_U64(run_thread, period_ns), F_U64(run_thread, acts_done),
	F_U64(run_thread, acts_missed), F_I64(run_thread, slack_min), F_I64(run_thread, slack_p50),
	F_I64(run_thread, slack_mean),
};
static const struct runio__field act_f[] = {
	F_U64(run_activation, idx), F_U64(run_activation, period_start),
	F_U64(run_activation, wakeup), F_U64(run_activation, start), F_U64(run_activation, end),
	F_U64(run_activation, run), F_I64(run_activation, slack), F_U64(run_activation, missed),
};
static const struct runio__field group_f[] = {
	F_INT(run_group, cgroup, 0, SCN_MAX_CGROUPS), F_STR(run_group, path),
	F_U64(run_group, cpu_ns), F_DBL(run_group, share), F_DBL(run_group, ideal),
};
/* run.c leaves a timeline operation's result NULL when out of memory, never a refusal's */
static const struct runio__field op_f[] = {
	F_U64(run_op, at), F_BOOL(run_op, failed), F_STR(run_op, result),
};
static const struct runio__field refused_f[] = {
	F_U64(run_op, at), F_BOOL(run_op, failed), F_STR(run_op, result),
};
static const struct runio__field point_f[] = {
	F_DBL(runio__cdf_point, ms), F_DBL(runio__cdf_point, frac),
};

const struct runio__line runio__run_line = LINE("run", run_f);
const struct runio__line runio__fairness_line = LINE("fairness", fairness_f);
const struct runio__line runio__machine_line = LINE("machine", machine_f);
const struct runio__line runio__thread_lines[] = {
	LINE("thread", thread_f), LINE("cpu", cpu_f), LINE("latency", latency_f),
	LINE("delays", delays_f), LINE("periodic", periodic_f),
};
const struct runio__line runio__act_line = LINE("act", act_f);
const struct runio__line runio__group_line = LINE("group", group_f);
const struct runio__line runio__op_line = LINE("op", op_f);
const struct runio__line runio__refused_line = LINE("op", refused_f);
const struct runio__line runio__point_line = LINE("point", point_f);
const struct runio__line runio__series_line = LINE("series", series_f);

const size_t runio__nthread_lines = sizeof(runio__thread_lines) / sizeof(runio__thread_lines[0]);

bool runio__escaped(unsigned char c)
{
	return c <= 0x20 || c == '"' || c == '%' || c >= 0x7f;
}

/* ---------------- writing ---------------- */

struct wr {
	FILE *f;
	size_t len;
	bool failed;
	char buf[16384];
};

static void w_flush(struct wr *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->failed = true;
	w->len = 0;
}

/* Where @n more bytes go (@n at most a few dozen). */
static char *w_room(struct wr *w, size_t n)
{
	if (sizeof(w->buf) - w->len < n)
		w_flush(w);
	return w->buf + w->len;
}

static void w_put(struct wr *w, const char *s)
{
	size_t n = strlen(s);

	memcpy(w_room(w, n), s, n);
	w->len += n;
}

static void w_u64(struct wr *w, uint64_t v)
{
	char tmp[20];
	size_t k = sizeof(tmp);

	do
		tmp[--k] = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(w_room(w, sizeof(tmp)), tmp + k, sizeof(tmp) - k);
	w->len += sizeof(tmp) - k;
}

/* " V1 ... VN" */
static void w_u64s(struct wr *w, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		w_put(w, " ");
		w_u64(w, v[i]);
	}
}

/*
 * Sorted values (a thread's latency samples), each after the first as its difference from the
 * one before, modulo 2^64 (exact whatever the order; small, so short, in sorted order: it
 * halves the text of a run whose threads keep many samples).
 */
static void w_u64_deltas(struct wr *w, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		w_put(w, " ");
		w_u64(w, i ? v[i] - v[i - 1] : v[i]);
	}
}

static void w_i64(struct wr *w, int64_t v)
{
	if (v < 0)
		w_put(w, "-");
	/* the magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64_t */
	w_u64(w, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

static void w_dbl(struct wr *w, double v)
{
	char *p;

	if (isnan(v)) {
		w_put(w, signbit(v) ? "-nan" : "nan");
		return;
	}
	if (isinf(v)) {
		w_put(w, v < 0 ? "-inf" : "inf");
		return;
	}
	p = w_room(w, 40);
	w->len += (size_t)snprintf(p, 40, "%a", v);
}

static void w_str(struct wr *w, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	if (!s) {
		/* no run has one (run.c fails rather than leave one); the reader refuses it */
		w_put(w, "-");
		return;
	}
	w_put(w, "\"");
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		char *p = w_room(w, 3);

		if (runio__escaped(*c)) {
			p[0] = '%';
			p[1] = hex[*c >> 4];
			p[2] = hex[*c & 15];
			w->len += 3;
		} else {
			p[0] = (char)*c;
			w->len++;
		}
	}
	w_put(w, "\"");
}

static void w_field(struct wr *w, const struct runio__field *f, const void *base)
{
	const char *p = (const char *)base + f->off;

	w_put(w, " ");
	switch (f->kind) {
	case RUNIO_K_U64:
		w_u64(w, *(const uint64_t *)(const void *)p);
		break;
	case RUNIO_K_SIZE:
		w_u64(w, *(const size_t *)(const void *)p);
		break;
	case RUNIO_K_I64:
		w_i64(w, *(const int64_t *)(const void *)p);
		break;
	case RUNIO_K_INT:
		w_i64(w, *(const int *)(const void *)p);
		break;
	case RUNIO_K_BOOL:
		w_put(w, *(const bool *)(const void *)p ? "1" : "0");
		break;
	case RUNIO_K_DBL:
		w_dbl(w, *(const double *)(const void *)p);
		break;
	case RUNIO_K_STR:
		w_str(w, *(char *const *)(const void *)p);
		break;
	}
}

static void w_line(struct wr *w, const struct runio__line *l, const void *base)
{
	w_put(w, l->key);
	for (size_t i = 0; i < l->n; i++)
		w_field(w, &l->f[i], base);
	w_put(w, "\n");
}

/* "KEY N": a section's count. */
static void w_count(struct wr *w, const char *key, size_t n)
{
	w_put(w, key);
	w_put(w, " ");
	w_u64(w, n);
	w_put(w, "\n");
}

/* "KEY N", then a line of @l for each of the @n @size-byte elements of @arr. */
static void w_records(struct wr *w, const char *key, const struct runio__line *l, const void *arr,
		      size_t n, size_t size)
{
	w_count(w, key, n);
	for (size_t i = 0; i < n; i++)
		w_line(w, l, (const char *)arr + i * size);
}

static void w_thread(struct wr *w, const struct run_thread *t)
{
	for (size_t i = 0; i < runio__nthread_lines; i++)
		w_line(w, &runio__thread_lines[i], t);
	w_put(w, "lat ");
	w_u64(w, t->nlat);
	w_u64_deltas(w, t->lat, t->nlat);
	w_put(w, "\n");
	w_records(w, "acts", &runio__act_line, t->acts, t->nacts, sizeof(*t->acts));
}

static void w_series(struct wr *w, const struct run_result *r)
{
	size_t items = r->ngroups + r->series_threads;

	w_line(w, &runio__series_line, r);
	for (size_t k = 0; k < r->nsamples; k++) {
		w_put(w, "row");
		w_u64s(w, &r->series[k * items], items);
		w_put(w, "\n");
	}
}

int runio_write(FILE *f, const struct run_result *r)
{
	struct wr wr = { .f = f }, *w = &wr;

	w_count(w, RUNIO_MAGIC, RUNIO_VERSION);
	w_line(w, &runio__run_line, r);
	w_line(w, &runio__fairness_line, r);
	w_line(w, &runio__machine_line, r);
	w_count(w, "threads", r->nthreads);
	for (size_t i = 0; i < r->nthreads; i++)
		w_thread(w, &r->threads[i]);
	w_records(w, "groups", &runio__group_line, r->groups, r->ngroups, sizeof(*r->groups));
	w_records(w, "ops", &runio__op_line, r->ops, r->nops, sizeof(*r->ops));
	w_records(w, "refused", &runio__refused_line, r->refused, r->nrefused, sizeof(*r->refused));
	w_series(w, r);
	w_count(w, "cdf", r->ncdf);
	for (size_t i = 0; i < r->ncdf; i++) {
		struct runio__cdf_point p = { r->cdf_ms[i], r->cdf_frac[i] };

		w_line(w, &runio__point_line, &p);
	}
	w_put(w, "end\n");
	w_flush(w);
	return w->failed || fflush(f) || ferror(f) ? -EIO : 0;
}
