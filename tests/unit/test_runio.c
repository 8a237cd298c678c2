// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_runio.c - a run's result as text and back (sim/run/runio.h).
 *
 * What the format promises: every field of a result comes back exactly (doubles bit for bit,
 * NaN as a NaN of the same sign, strings byte for byte, a NULL string as NULL), a result read
 * back writes the same bytes and prints the same reports, and an input that is not one the
 * writer could have written is refused with NAME:LINE:COL and what was expected, whatever
 * it holds and wherever it stops.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/run/runio.h"
#include "sim/scenario/scenario.h"
#include "sim/util/util.h"

/* ---------------- helpers ---------------- */

/* What runio_write() writes for @r: malloc'ed, *@len bytes (and a NUL after them). */
static char *text_of(const struct run_result *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	cr_assert_not_null(f);
	cr_assert_eq(runio_write(f, r), 0);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* @text read back (from a copy of exactly @len bytes, no NUL after them), which must work. */
static struct run_result *read_ok(const char *text, size_t len, const struct scenario *sc)
{
	char err[1024], *copy = malloc(len ? len : 1);
	struct run_result *r = NULL;
	int e;

	cr_assert_not_null(copy);
	memcpy(copy, text, len);
	e = runio_read(copy, len, "t.run", sc, &r, err, sizeof(err));
	free(copy);
	cr_assert_eq(e, 0, "%s", err);
	cr_assert_not_null(r);
	return r;
}

/* @len bytes of @text read, which must fail with -EINVAL and the message @want. */
static void read_fails_n(const char *text, size_t len, const char *want)
{
	char err[1024] = "", *copy = malloc(len ? len : 1);
	struct run_result *r = (struct run_result *)1;
	int e;

	cr_assert_not_null(copy);
	memcpy(copy, text, len);
	e = runio_read(copy, len, "t.run", NULL, &r, err, sizeof(err));
	free(copy);
	cr_expect_eq(e, -EINVAL, "read %d, want: %s", e, want);
	cr_expect_null(r);
	if (!e)
		run_free(r);
	cr_expect_str_eq(err, want);
}

static void read_fails(const char *text, const char *want)
{
	read_fails_n(text, strlen(text), want);
}

static char *xstrdup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	cr_assert(!s || d);
	return d;
}

/* Bit for bit, except that a NaN is any NaN of the same sign. */
static bool same_dbl(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
	return !memcmp(&a, &b, sizeof(a));
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

#define EQ(x)	cr_expect_eq(a->x, b->x, "%s", #x)
#define EQ_D(x)	cr_expect(same_dbl(a->x, b->x), "%s: %a, read back %a", #x, a->x, b->x)
#define EQ_S(x)	cr_expect(same_str(a->x, b->x), "%s: '%s', read back '%s'", #x, \
			  a->x ? a->x : "(NULL)", b->x ? b->x : "(NULL)")

static void same_thread(const struct run_thread *a, const struct run_thread *b)
{
	EQ_S(process); EQ_S(name); EQ_S(cgroup); EQ(tid);
	EQ(cpu_ns); EQ(wait_ns); EQ(lat_p50); EQ(lat_p90); EQ(lat_p99); EQ(lat_max);
	EQ(switches); EQ(migrations); EQ(wakeups); EQ(delayed); EQ(overruns);
	EQ_D(share); EQ_D(ideal); EQ(ideal_bound);
	EQ(lat_p999); EQ(lat_min); EQ(lat_mean); EQ(lat_samples);
	EQ(delays); EQ(delay_total); EQ(delay_max); EQ(delay_max_start); EQ(delay_max_end);
	EQ(periodic); EQ(period_ns); EQ(acts_done); EQ(acts_missed);
	EQ(slack_min); EQ(slack_p50); EQ(slack_mean);
	cr_assert_eq(a->nlat, b->nlat);
	cr_expect_eq(!a->lat, !b->lat, "lat: NULL when empty, as a run leaves it");
	for (size_t i = 0; i < a->nlat; i++)
		cr_expect_eq(a->lat[i], b->lat[i], "lat[%zu]", i);
	cr_assert_eq(a->nacts, b->nacts);
	cr_expect_eq(!a->acts, !b->acts, "acts: NULL when empty, as a run leaves it");
	for (size_t i = 0; i < a->nacts; i++) {
		const struct run_activation *x = &a->acts[i], *y = &b->acts[i];

		cr_expect(x->idx == y->idx && x->period_start == y->period_start &&
			  x->wakeup == y->wakeup && x->start == y->start && x->end == y->end &&
			  x->run == y->run && x->slack == y->slack && x->missed == y->missed,
			  "acts[%zu]", i);
	}
}

static void same_ops(const struct run_op *x, const struct run_op *y, size_t n)
{
	cr_expect_eq(!x, !y, "operations: NULL when empty, as a run leaves them");
	for (size_t i = 0; i < n; i++) {
		const struct run_op *a = &x[i], *b = &y[i];

		EQ(at); EQ(failed); EQ_S(result);
	}
}

/* @b, read back, the same as @a in every field (doubles and strings exactly). */
static void same_run(const struct run_result *a, const struct run_result *b)
{
	EQ(cpus); EQ(measured_ns); EQ(wall_ns);
	EQ_D(jain); EQ_D(max_abs_error); EQ_D(max_rel_error); EQ(fair_threads); EQ(bound_threads);
	EQ(overhead_ns); EQ(level_ops); EQ(level_walks); EQ(switches); EQ(migrations); EQ(events);
	cr_assert_eq(a->nthreads, b->nthreads);
	cr_assert_not_null(b->threads);
	for (size_t i = 0; i < a->nthreads; i++)
		same_thread(&a->threads[i], &b->threads[i]);
	cr_assert_eq(a->ngroups, b->ngroups);
	cr_assert_not_null(b->groups);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct run_group *x = &a->groups[i], *y = &b->groups[i];

		cr_expect(same_str(x->path, y->path) && x->cgroup == y->cgroup &&
			  x->cpu_ns == y->cpu_ns && same_dbl(x->share, y->share) &&
			  same_dbl(x->ideal, y->ideal), "groups[%zu]", i);
	}
	cr_assert_eq(a->nops, b->nops);
	same_ops(a->ops, b->ops, a->nops);
	cr_assert_eq(a->nrefused, b->nrefused);
	same_ops(a->refused, b->refused, a->nrefused);
	EQ(interval); EQ(series_threads);
	cr_assert_eq(a->nsamples, b->nsamples);
	cr_assert_not_null(b->series);
	for (size_t i = 0; i < a->nsamples * (a->ngroups + a->series_threads); i++)
		cr_expect_eq(a->series[i], b->series[i], "series[%zu]", i);
	cr_assert_eq(a->ncdf, b->ncdf);
	cr_expect_eq(!a->cdf_ms, !b->cdf_ms);
	for (size_t i = 0; i < a->ncdf; i++)
		cr_expect(same_dbl(a->cdf_ms[i], b->cdf_ms[i]) &&
			  same_dbl(a->cdf_frac[i], b->cdf_frac[i]), "cdf[%zu]", i);
}

/* ---------------- every field, by hand ---------------- */

static const char weird[] = "a b\nc\t%41\\x\"q\" caf\xc3\xa9 \x01\x7f\xff end";

static void fill_thread(struct run_thread *t, uint64_t k)
{
	*t = (struct run_thread){
		.tid = (int)k, .cpu_ns = k + 1, .wait_ns = k + 2, .lat_p50 = k + 3,
		.lat_p90 = k + 4, .lat_p99 = k + 5, .lat_max = k + 6, .switches = k + 7,
		.migrations = k + 8, .wakeups = k + 9, .delayed = k + 10, .overruns = k + 11,
		.ideal_bound = k & 1, .lat_p999 = k + 12, .lat_min = k + 13, .lat_mean = k + 14,
		.lat_samples = k + 15, .delays = k + 16, .delay_total = k + 17,
		.delay_max = k + 18, .delay_max_start = k + 19, .delay_max_end = k + 20,
		.periodic = !(k & 1), .period_ns = k + 21, .acts_done = k + 22,
		.acts_missed = k + 23, .slack_min = -(int64_t)k - 24, .slack_p50 = (int64_t)k + 25,
		.slack_mean = -(int64_t)k - 26,
	};
}

/* A result with every field set, to values that show a field lost or swapped. */
static struct run_result *handmade(void)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct run_thread *t;

	cr_assert_not_null(r);
	*r = (struct run_result){
		.cpus = 1024, .measured_ns = UINT64_MAX, .wall_ns = 123456789, .jain = -0.0,
		.max_abs_error = 0x1p-1074, .max_rel_error = (double)INFINITY,
		.fair_threads = SIZE_MAX, .bound_threads = 7, .overhead_ns = 1, .level_ops = 0,
		.switches = UINT64_MAX - 1, .migrations = 10, .events = 1ull << 63,
		.interval = 100000000, .nsamples = 3, .series_threads = 3,
	};
	r->nthreads = 3;
	cr_assert_not_null(r->threads = calloc(3, sizeof(*r->threads)));
	for (size_t i = 0; i < 3; i++)
		fill_thread(&r->threads[i], 1000 * i + 1);
	t = &r->threads[0];
	t->tid = SCN_MAX_THREADS;
	t->process = xstrdup(weird);
	t->name = xstrdup("t.1");
	t->cgroup = xstrdup("/caf\xc3\xa9/x y");
	t->share = (double)NAN;
	t->ideal = -(double)INFINITY;
	t->cpu_ns = UINT64_MAX;
	t->slack_min = INT64_MIN;
	t->slack_mean = INT64_MAX;
	t->nlat = 5;
	cr_assert_not_null(t->lat = malloc(5 * sizeof(*t->lat)));
	memcpy(t->lat, (uint64_t[]){ 0, 1, 999, 1ull << 40, UINT64_MAX }, 5 * sizeof(*t->lat));
	t->nacts = 2;
	cr_assert_not_null(t->acts = calloc(2, sizeof(*t->acts)));
	t->acts[0] = (struct run_activation){ 1, 2, 3, 4, 5, 6, INT64_MIN, 8 };
	t->acts[1] = (struct run_activation){ UINT64_MAX, 20, 30, 40, 50, 60, INT64_MAX, 0 };
	t = &r->threads[1];	/* empty strings, no samples: lat and acts stay NULL */
	t->tid = 0;
	t->process = xstrdup("");
	t->name = xstrdup("");
	t->cgroup = xstrdup("/");
	t->share = copysign((double)NAN, -1.0);
	t->ideal = DBL_MAX;
	t = &r->threads[2];	/* "-" is a string, not the NULL string */
	t->process = xstrdup("-");
	t->name = xstrdup("%");
	t->cgroup = xstrdup("%00");
	t->share = DBL_MIN;
	t->ideal = 0x0.fffffffffffffp-1022;
	t->nlat = 1;
	cr_assert_not_null(t->lat = malloc(sizeof(*t->lat)));
	t->lat[0] = 42;
	return r;
}

/* The rest of handmade(): groups, operations, series, distribution. */
static void handmade_rest(struct run_result *r)
{
	static const char *const results[] = { "12: write a/cpu.weight 50 -> ok", "-", "",
					       weird };

	r->ngroups = 2;
	cr_assert_not_null(r->groups = calloc(2, sizeof(*r->groups)));
	r->groups[0] = (struct run_group){ xstrdup("/"), 0, 17, 0.1, 1.0 / 3 };
	r->groups[1] = (struct run_group){ xstrdup("a/b c"), SCN_MAX_CGROUPS, UINT64_MAX,
					   -DBL_MAX, 0x1.8p-1070 };
	r->nops = 4;
	cr_assert_not_null(r->ops = calloc(4, sizeof(*r->ops)));
	for (size_t i = 0; i < 4; i++)
		r->ops[i] = (struct run_op){ i * 1000000007u, xstrdup(results[i]), i & 1 };
	r->nrefused = 1;
	cr_assert_not_null(r->refused = calloc(1, sizeof(*r->refused)));
	r->refused[0] = (struct run_op){ UINT64_MAX,
					 xstrdup("3:7: p/t.1: cgroup step to 'x' -> EBUSY"), true };
	cr_assert_not_null(r->series = calloc(3 * 5, sizeof(*r->series)));
	for (size_t i = 0; i < 15; i++)
		r->series[i] = i == 7 ? UINT64_MAX : i * i * 1000003;
	r->ncdf = 3;
	cr_assert_not_null(r->cdf_ms = malloc(3 * sizeof(*r->cdf_ms)));
	cr_assert_not_null(r->cdf_frac = malloc(3 * sizeof(*r->cdf_frac)));
	memcpy(r->cdf_ms, (double[]){ 0.001, 1e300, -0.0 }, 3 * sizeof(double));
	memcpy(r->cdf_frac, (double[]){ 0.5, 1.0, (double)NAN }, 3 * sizeof(double));
}

Test(runio, every_field_round_trips)
{
	struct run_result *a = handmade(), *b;
	size_t len, len2;
	char *text, *again;

	handmade_rest(a);
	text = text_of(a, &len);
	b = read_ok(text, len, (const struct scenario *)a);
	cr_expect_eq(b->sc, (const struct scenario *)a, "the caller's scenario, reattached");
	same_run(a, b);
	cr_expect_null(b->threads[1].lat);
	cr_expect_null(b->threads[1].acts);
	cr_expect_null(b->threads[2].acts);
	cr_expect_str_eq(b->ops[1].result, "-", "a result of '-' is a string, not a NULL one");
	cr_expect_str_eq(b->ops[2].result, "", "an empty result stays empty");
	cr_expect_str_eq(b->threads[2].process, "-");
	/* one line a record: the strings' line breaks are escaped */
	cr_expect_null(strstr(text, "a b"));
	cr_expect_not_null(strstr(text, "\"a%20b%0Ac%09%2541\\x%22q%22%20caf%C3%A9%20%01%7F%FF%20end\""));
	again = text_of(b, &len2);
	cr_expect(len == len2 && !memcmp(text, again, len), "written again, the same bytes");
	free(again);
	free(text);
	run_free(a);
	run_free(b);
}

/* Nothing to list: no threads, groups, operations, samples or points. */
Test(runio, empty_run_round_trips)
{
	struct run_result a = { .cpus = 1 }, *b;
	size_t len;
	char *text = text_of(&a, &len);

	cr_expect_str_eq(text, "cgsim-run 2\nrun 1 0 0\nfairness 0x0p+0 0x0p+0 0x0p+0 0 0\n"
			 "machine 0 0 0 0 0 0\nthreads 0\ngroups 0\nops 0\nrefused 0\nseries 0 0 0\n"
			 "cdf 0\nend\n");
	b = read_ok(text, len, NULL);
	same_run(&a, b);
	/* as run_scenario() leaves them: these allocated, the others NULL */
	cr_expect(b->threads && b->groups && b->series);
	cr_expect(!b->ops && !b->refused && !b->cdf_ms && !b->cdf_frac);
	free(text);
	run_free(b);
}

/* ---------------- a real run ---------------- */

static const char scenario_text[] =
	"name: rt\nduration: 1s\nwarmup: 100ms\ninterval: 10ms\nmachine: { cpus: 2 }\n"
	"cgroups:\n  /: { cgroup.subtree_control: +cpu }\n  a: { cpu.weight: 200 }\n"
	"  b: { cpu.weight: 50 }\n"
	"processes:\n"
	"  busy:\n    cgroup: a\n    threads:\n      t: { count: 2, behavior: busy }\n"
	"      s: { behavior: { phases: [ { cgroup: b }, { run: 1s } ] } }\n"
	"  bursty: { cgroup: b, threads: { w: { behavior: { bursty: "
	"{ run: exp(0.5ms), sleep: exp(2ms) } } } } }\n"
	"  tick: { cgroup: b, threads: { p: { behavior: { periodic: { run: 1ms, period: 10ms } } } } }\n"
	"timeline:\n  - { at: 500ms, do: \"write b/cpu.weight 100\" }\n"
	"  - { at: 600ms, do: \"write b/cpu.weight 0\" }\n";

/* What @print writes for @r. */
static char *printed(void (*print)(FILE *, const struct run_result *), const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	print(f, r);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* The files report_write_dir() writes for @a and @b: the same bytes. */
static void same_dir_files(const struct run_result *a, const struct run_result *b)
{
	char da[] = "/tmp/runio-a.XXXXXX", db[] = "/tmp/runio-b.XXXXXX", err[512];
	static const char *const names[] = { "summary.json", "threads.csv", "groups.csv",
		"timeseries.csv", "groups-series.csv", "latency-cdf.csv", "activations.csv" };

	cr_assert_not_null(mkdtemp(da));
	cr_assert_not_null(mkdtemp(db));
	cr_assert_eq(report_write_dir(da, a, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(report_write_dir(db, b, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char pa[300], pb[300], *ta, *tb;
		size_t la, lb;
		FILE *fa, *fb;

		snprintf(pa, sizeof(pa), "%s/%s", da, names[i]);
		snprintf(pb, sizeof(pb), "%s/%s", db, names[i]);
		cr_assert_not_null(fa = fopen(pa, "r"), "%s", pa);
		cr_assert_not_null(fb = fopen(pb, "r"), "%s", pb);
		cr_assert_eq(util_read_stream(fa, 1 << 26, &ta, &la), 0);
		cr_assert_eq(util_read_stream(fb, 1 << 26, &tb, &lb), 0);
		cr_expect(la == lb && !memcmp(ta, tb, la), "%s differs", names[i]);
		fclose(fa);
		fclose(fb);
		free(ta);
		free(tb);
		unlink(pa);
		unlink(pb);
	}
	rmdir(da);
	rmdir(db);
}

Test(runio, real_run_round_trips)
{
	static void (*const prints[])(FILE *, const struct run_result *) = {
		report_text, report_json, report_latency_table, report_schbench,
	};
	char err[1024], *text, *again;
	struct scenario *sc = scn_load("rt.yaml", scenario_text, NULL, NULL, 0, err, sizeof(err));
	struct run_result *a, *b;
	size_t len, len2, lat = 0, acts = 0;

	cr_assert_not_null(sc, "%s", err);
	cr_assert_eq(run_scenario(sc, true, &a, err, sizeof(err)), 0, "%s", err);
	/* the run has something in every list */
	for (size_t i = 0; i < a->nthreads; i++) {
		lat += a->threads[i].nlat;
		acts += a->threads[i].nacts;
	}
	cr_assert(lat && acts && a->nsamples && a->ncdf && a->nops == 2 && a->ngroups == 3 &&
		  a->nrefused == 1, "lat %zu acts %zu samples %zu cdf %zu ops %zu refused %zu", lat,
		  acts, a->nsamples, a->ncdf, a->nops, a->nrefused);
	cr_expect(a->ops[1].failed, "%s", a->ops[1].result);
	text = text_of(a, &len);
	b = read_ok(text, len, sc);
	same_run(a, b);
	cr_expect_eq(b->sc, sc);
	cr_expect_str_eq(b->groups[1].path, "a");
	cr_expect_str_eq(b->threads[3].process, "bursty");
	again = text_of(b, &len2);
	cr_expect(len == len2 && !memcmp(text, again, len), "written again, the same bytes");
	/* b's wall_ns is a's: the reports agree to the byte, the timing too */
	for (size_t i = 0; i < sizeof(prints) / sizeof(prints[0]); i++) {
		char *pa = printed(prints[i], a), *pb = printed(prints[i], b);

		cr_expect_str_eq(pa, pb, "report %zu differs", i);
		free(pa);
		free(pb);
	}
	same_dir_files(a, b);
	free(text);
	free(again);
	run_free(a);
	run_free(b);
	scn_free(sc);
}

/* ---------------- the text, and what is refused ---------------- */

/* A small result, and its text (the format by example: tests/unit only). */
static const char small[] =
	"cgsim-run 2\n"								/* 1 */
	"run 2 900000000 0\n"
	"fairness 0x1p+0 0x0p+0 0x0p+0 1 0\n"
	"machine 5 6 10 7 8 9\n"
	"threads 1\n"								/* 5 */
	"thread 1 \"p\" \"t.1\" \"a\"\n"
	"cpu 450000000 1000 3 1 2 0 0 0x1p-2 0x1p-2 0\n"
	"latency 1500 2000 2000 2000 2000 1500 1750 2\n"
	"delays 2 3500 2000 100 2100\n"
	"periodic 1 10000000 1 0 -5 -5 -5\n"					/* 10 */
	"lat 2 1500 500\n"
	"acts 1\n"
	"act 0 100000000 100000000 100001000 101000000 1000000 -5 0\n"
	"groups 2\n"
	"group 0 \"/\" 900000000 0x1p-1 0x1p-1\n"				/* 15 */
	"group 2 \"a\" 450000000 0x1p-2 0x1p-2\n"
	"ops 1\n"
	"op 500000000 0 \"9:%20write%20a/cpu.weight%20200%20->%20ok\"\n"
	"refused 0\n"
	"series 450000000 2 1\n"						/* 20 */
	"row 400 300 200\n"
	"row 500 150 250\n"
	"cdf 1\n"
	"point 0x1p-9 0x1p+0\n"
	"end\n";								/* 25 */

static struct run_result *small_run(void)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct run_thread *t;

	cr_assert_not_null(r);
	*r = (struct run_result){ .cpus = 2, .measured_ns = 900000000, .jain = 1, .fair_threads = 1,
				  .overhead_ns = 5, .level_ops = 6, .level_walks = 10, .switches = 7, .migrations = 8,
				  .events = 9, .nthreads = 1, .ngroups = 2, .nops = 1,
				  .interval = 450000000, .nsamples = 2, .series_threads = 1, .ncdf = 1 };
	cr_assert_not_null(r->threads = t = calloc(1, sizeof(*t)));
	*t = (struct run_thread){ .process = xstrdup("p"), .name = xstrdup("t.1"),
		.cgroup = xstrdup("a"), .tid = 1, .cpu_ns = 450000000, .wait_ns = 1000, .lat_p50 = 1500,
		.lat_p90 = 2000, .lat_p99 = 2000, .lat_max = 2000, .switches = 3, .migrations = 1,
		.wakeups = 2, .share = 0.25, .ideal = 0.25, .lat_p999 = 2000, .lat_min = 1500,
		.lat_mean = 1750, .lat_samples = 2, .delays = 2, .delay_total = 3500, .delay_max = 2000,
		.delay_max_start = 100, .delay_max_end = 2100, .periodic = true,
		.period_ns = 10000000, .acts_done = 1, .slack_min = -5, .slack_p50 = -5,
		.slack_mean = -5, .nlat = 2, .nacts = 1 };
	cr_assert_not_null(t->lat = malloc(2 * sizeof(*t->lat)));
	t->lat[0] = 1500;
	t->lat[1] = 2000;
	cr_assert_not_null(t->acts = malloc(sizeof(*t->acts)));
	t->acts[0] = (struct run_activation){ 0, 100000000, 100000000, 100001000, 101000000,
					      1000000, -5, 0 };
	cr_assert_not_null(r->groups = calloc(2, sizeof(*r->groups)));
	r->groups[0] = (struct run_group){ xstrdup("/"), 0, 900000000, 0.5, 0.5 };
	r->groups[1] = (struct run_group){ xstrdup("a"), 2, 450000000, 0.25, 0.25 };
	cr_assert_not_null(r->ops = calloc(1, sizeof(*r->ops)));
	r->ops[0] = (struct run_op){ 500000000, xstrdup("9: write a/cpu.weight 200 -> ok"), false };
	cr_assert_not_null(r->series = malloc(6 * sizeof(*r->series)));
	memcpy(r->series, (uint64_t[]){ 400, 300, 200, 500, 150, 250 }, 6 * sizeof(uint64_t));
	cr_assert_not_null(r->cdf_ms = malloc(sizeof(double)));
	cr_assert_not_null(r->cdf_frac = malloc(sizeof(double)));
	r->cdf_ms[0] = 0x1p-9;
	r->cdf_frac[0] = 1;
	return r;
}

Test(runio, the_text)
{
	struct run_result *a = small_run(), *b;
	size_t len;
	char *text = text_of(a, &len);

	cr_expect_str_eq(text, small);
	b = read_ok(small, strlen(small), NULL);
	same_run(a, b);
	free(text);
	run_free(a);
	run_free(b);
}

/* @small with its first @from replaced by @to (which must be there). */
static char *edited(const char *from, const char *to)
{
	const char *at = strstr(small, from);
	char *s;

	cr_assert_not_null(at, "'%s' not in the text", from);
	s = malloc(sizeof(small) + strlen(to));
	cr_assert_not_null(s);
	sprintf(s, "%.*s%s%s", (int)(at - small), small, to, at + strlen(from));
	return s;
}

static void edit_fails(const char *from, const char *to, const char *want)
{
	char *s = edited(from, to);

	read_fails(s, want);
	free(s);
}

Test(runio, refuses_what_is_not_a_run)
{
	read_fails("", "t.run:1:1: error: the input is empty: expected 'cgsim-run 2'");
	{
		struct run_result *r;
		char err[200];

		cr_expect_eq(runio_read(NULL, 0, "t.run", NULL, &r, err, sizeof(err)), -EINVAL);
		cr_expect_str_eq(err, "t.run:1:1: error: the input is empty: expected 'cgsim-run 2'");
	}
	edit_fails("cgsim-run", "cgsim-rum", "t.run:1:1: error: expected 'cgsim-run' and the "
		   "format's version (not a run file written by cgsim?), not 'cgsim-rum'");
	read_fails("name: t\nduration: 1s\n", "t.run:1:1: error: expected 'cgsim-run' and the "
		   "format's version (not a run file written by cgsim?), not 'name:'");
	edit_fails("cgsim-run 2", "cgsim-run 1", "t.run:1:11: error: version 1 of the run "
		   "format: this cgsim reads version 2");
	edit_fails("cgsim-run 2", "cgsim-run 01", "t.run:1:11: error: expected the format's "
		   "version (an unsigned integer), not '01'");
	edit_fails("cgsim-run 2\n", "cgsim-run\n", "t.run:1:10: error: the line ends: expected the "
		   "format's version (an unsigned integer)");
	edit_fails("end\n", "end\nx", "t.run:26:1: error: expected nothing after 'end' (1 more "
		   "byte)");
	edit_fails("end\n", "end\n\n", "t.run:26:1: error: expected nothing after 'end' (1 more "
		   "byte)");
	edit_fails("end\n", "end", "t.run:25:4: error: the input ends (truncated?): expected a "
		   "line break");
	edit_fails("end\n", "end \n", "t.run:25:5: error: expected the end of the line, not more "
		   "values");
	edit_fails("end\n", "fin\n", "t.run:25:1: error: expected 'end', not 'fin'");
}

Test(runio, refuses_a_truncated_run)
{
	/* two threads, cut in the second one's latency line */
	const char *one = strstr(small, "thread 1 "), *end = strstr(small, "groups 2");
	char *two = malloc(sizeof(small) * 2), *s;

	cr_assert_not_null(two);
	s = edited("threads 1", "threads 2");
	sprintf(two, "%.*s%.*s", (int)(end - small), s, (int)(end - one), one);
	strcpy(strstr(two + (end - small), "latency 1500 20") + 15, "");
	read_fails(two, "t.run:16:16: error: thread 2 of 2: the input ends (truncated?): "
		   "expected lat_p99 (an unsigned integer)");
	*strstr(two + (end - small), "latency") = '\0';
	read_fails(two, "t.run:16:1: error: thread 2 of 2: the input ends (truncated?): expected "
		   "'latency' and its 8 values (lat_p50 lat_p90 lat_p99 lat_p999 lat_max lat_min "
		   "lat_mean lat_samples)");
	free(two);
	free(s);
	/* a thread cannot be shorter than its eight lines */
	s = strndup(small, (size_t)(strstr(small, "latency") - small));
	read_fails(s, "t.run:5:9: error: 1 threads cannot be in the 69 bytes left of the input "
		   "(truncated?)");
	free(s);
	/* every proper prefix is refused; read from a copy of exactly its bytes */
	for (size_t n = 0; n < strlen(small); n++) {
		char err[512], *copy = malloc(n ? n : 1);
		struct run_result *r;

		cr_assert_not_null(copy);
		memcpy(copy, small, n);
		cr_expect_eq(runio_read(copy, n, "t.run", NULL, &r, err, sizeof(err)), -EINVAL,
			     "%zu bytes", n);
		cr_expect(!strncmp(err, "t.run:", 6), "%zu bytes: %s", n, err);
		free(copy);
	}
}

Test(runio, refuses_counts_beyond_limits)
{
	edit_fails("threads 1", "threads 1000000000000000000", "t.run:5:9: error: "
		   "1000000000000000000 threads: at most 100000");
	edit_fails("threads 1", "threads 99999", "t.run:5:9: error: 99999 threads cannot be in "
		   "the 495 bytes left of the input (truncated?)");
	edit_fails("threads 1", "threads 18446744073709551616", "t.run:5:9: error: expected "
		   "threads (an unsigned integer), not '18446744073709551616'");
	edit_fails("lat 2", "lat 1000000000000000000", "t.run:11:5: error: thread 1 of 1: "
		   "1000000000000000000 latency samples cannot be in the 315 bytes left of the "
		   "input (truncated?)");
	edit_fails("acts 1", "acts 40", "t.run:12:6: error: thread 1 of 1: 40 activations cannot "
		   "be in the 299 bytes left of the input (truncated?)");
	edit_fails("groups 2", "groups 10002", "t.run:14:8: error: 10002 groups: at most 10001");
	edit_fails("ops 1", "ops 100001", "t.run:17:5: error: 100001 timeline operations: at most "
		   "100000");
	edit_fails("cdf 1", "cdf 1001", "t.run:23:5: error: 1001 points: at most 1000");
	edit_fails("series 450000000 2 1", "series 450000000 1000 1", "t.run:20:18: error: 1000 "
		   "samples cannot be in the 65 bytes left of the input (truncated?)");
	/* each row has room for its keyword, but not for its values */
	edit_fails("series 450000000 2 1", "series 450000000 11 1", "t.run:20:18: error: 11 "
		   "samples of 3 values cannot be in the 63 bytes left of the input (truncated?)");
}

Test(runio, refuses_a_series_that_does_not_add_up)
{
	edit_fails("row 400 300 200", "row 400 300", "t.run:21:12: error: sample 1 of 2: the line "
		   "ends: expected a value of the row (an unsigned integer)");
	edit_fails("row 400 300 200", "row 400 300 200 1", "t.run:21:17: error: sample 1 of 2: "
		   "expected the end of the line, not more values");
	edit_fails("series 450000000 2 1", "series 450000000 3 1", "t.run:23:1: error: sample 3 "
		   "of 3: expected 'row' and its values (groups, then threads), not 'cdf'");
	edit_fails("series 450000000 2 1", "series 450000000 1 1", "t.run:22:1: error: expected "
		   "'cdf' and the number of points, not 'row'");
	edit_fails("series 450000000 2 1", "series 450000000 2 2", "t.run:20:20: error: 2 series "
		   "threads: at most 1");
}

Test(runio, refuses_bad_numbers)
{
	edit_fails("machine 5", "machine -5", "t.run:4:9: error: expected overhead_ns (an "
		   "unsigned integer), not '-5'");
	edit_fails("machine 5", "machine +5", "t.run:4:9: error: expected overhead_ns (an "
		   "unsigned integer), not '+5'");
	edit_fails("machine 5", "machine 05", "t.run:4:9: error: expected overhead_ns (an "
		   "unsigned integer), not '05'");
	edit_fails("machine 5", "machine 0x5", "t.run:4:9: error: expected overhead_ns (an "
		   "unsigned integer), not '0x5'");
	edit_fails("machine 5", "machine 18446744073709551616", "t.run:4:9: error: expected "
		   "overhead_ns (an unsigned integer), not '18446744073709551616'");
	edit_fails("-5 -5 -5", "-0 -5 -5", "t.run:10:25: error: thread 1 of 1: expected "
		   "slack_min (an integer), not '-0'");
	edit_fails("-5 -5 -5", "-9223372036854775809 -5 -5", "t.run:10:25: error: thread 1 of "
		   "1: expected slack_min (an integer), not '-9223372036854775809'");
	edit_fails("\nrun 2", "\nrun 0", "t.run:2:5: error: expected cpus (an integer from 1 to "
		   "1024), not '0'");
	edit_fails("thread 1", "thread 100001", "t.run:6:8: error: thread 1 of 1: expected tid "
		   "(an integer from 0 to 100000), not '100001'");
	edit_fails("0x1p-2 0\n", "0x1p-2 2\n", "t.run:7:44: error: thread 1 of 1: expected "
		   "ideal_bound (0 or 1), not '2'");
	edit_fails("run 2 900000000", "run 2  900000000", "t.run:2:7: error: expected "
		   "measured_ns (an unsigned integer), not a second space");
	edit_fails("machine 5 6 10 7 8 9\n", "machine 5 6 10 7 8 9 \n", "t.run:4:22: error: "
		   "expected the end of the line, not more values");
	edit_fails("machine 5 6 10 7 8 9\n", "machine 5 6 10 7 8 9\r\n", "t.run:4:20: error: expected "
		   "events (an unsigned integer), not '9\\r'");
}

Test(runio, refuses_bad_doubles)
{
	static const char *const bad[] = {
		"1.0", "0x1.g", "0x1.gp+0", "0X1P+0", "0x2p+0", "0x1p0", "0x1.p+0", "0x1p+",
		"0x1.00000000000000p+0", "0x1p+99999", "0x1p+1024", "0x1p-1080", "NaN", "+inf",
		"infinity", "nan(1)", "-", "0x1p+0x", "0x1p+00000",
	};
	static const char *const good[] = {
		"0x1p+0", "-0x0p+0", "0x0.0000000000001p-1022", "0x1.fffffffffffffp+1023", "-nan",
		"inf", "-inf", "nan", "0x1p-1074",
	};

	edit_fails("fairness 0x1p+0", "fairness 0x1.g+0", "t.run:3:10: error: expected jain (a "
		   "hex float as printf's %a writes it, inf, -inf, nan or -nan), not '0x1.g+0'");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char to[80], want[300];

		snprintf(to, sizeof(to), "fairness %s", bad[i]);
		snprintf(want, sizeof(want), "t.run:3:10: error: expected jain (a hex float as "
			 "printf's %%a writes it, inf, -inf, nan or -nan), not '%s'", bad[i]);
		edit_fails("fairness 0x1p+0", to, want);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char to[80], *s;
		struct run_result *r;

		snprintf(to, sizeof(to), "fairness %s", good[i]);
		s = edited("fairness 0x1p+0", to);
		r = read_ok(s, strlen(s), NULL);
		cr_expect(same_dbl(r->jain, strtod(good[i], NULL)), "%s: %a", good[i], r->jain);
		run_free(r);
		free(s);
	}
}

Test(runio, refuses_bad_strings)
{
	edit_fails("\"t.1\"", "t.1", "t.run:6:14: error: thread 1 of 1: expected name (a string "
		   "in double quotes, with %XX escapes), not 't.1'");
	edit_fails("\"t.1\"", "-", "t.run:6:14: error: thread 1 of 1: expected name (a string in "
		   "double quotes, with %XX escapes), not '-'");
	edit_fails("\"t.1\"", "\"t.1", "t.run:6:14: error: thread 1 of 1: expected name (a "
		   "string in double quotes, with %XX escapes), not '\"t.1'");
	edit_fails("\"t.1\"", "\"t\xc3\xa9\"", "t.run:6:16: error: thread 1 of 1: name (a string "
		   "in double quotes, with %XX escapes): this byte is not one a string holds as it "
		   "is, nor a %XX escape of one that needs it");
	edit_fails("\"t.1\"", "\"t%00\"", "t.run:6:16: error: thread 1 of 1: name (a string in "
		   "double quotes, with %XX escapes): this byte is not one a string holds as it is, "
		   "nor a %XX escape of one that needs it");
	edit_fails("\"t.1\"", "\"t%41\"", "t.run:6:16: error: thread 1 of 1: name (a string in "
		   "double quotes, with %XX escapes): this byte is not one a string holds as it is, "
		   "nor a %XX escape of one that needs it");
	edit_fails("\"t.1\"", "\"t%2\"", "t.run:6:16: error: thread 1 of 1: name (a string in "
		   "double quotes, with %XX escapes): this byte is not one a string holds as it is, "
		   "nor a %XX escape of one that needs it");
	edit_fails("\"t.1\"", "\"t%0a\"", "t.run:6:16: error: thread 1 of 1: name (a string in "
		   "double quotes, with %XX escapes): this byte is not one a string holds as it is, "
		   "nor a %XX escape of one that needs it");
	edit_fails("\"t.1\"", "\"t\"1\"", "t.run:6:16: error: thread 1 of 1: name (a string in "
		   "double quotes, with %XX escapes): this byte is not one a string holds as it is, "
		   "nor a %XX escape of one that needs it");
	/* no result is NULL (-): run.c never leaves one, and every report prints it */
	edit_fails("op 500000000 0 \"9:%20write%20a/cpu.weight%20200%20->%20ok\"",
		   "op 500000000 0 -", "t.run:18:16: error: timeline operation 1 of 1: expected "
		   "result (a string in double quotes, with %XX escapes), not '-'");
}

Test(runio, refuses_lines_out_of_place)
{
	edit_fails("fairness", "machine", "t.run:3:1: error: expected 'fairness' and its 5 values "
		   "(jain max_abs_error max_rel_error fair_threads bound_threads), not 'machine'");
	edit_fails("groups 2\n", "\ngroups 2\n", "t.run:14:1: error: expected 'groups' and the "
		   "number of groups, not an empty line");
	edit_fails("act 0", "act  0", "t.run:13:5: error: thread 1 of 1, activation 1 of 1: "
		   "expected idx (an unsigned integer), not a second space");
	edit_fails("group 2 \"a\"", "grope 2 \"a\"", "t.run:16:1: error: group 2 of 2: expected "
		   "'group' and its 5 values (cgroup path cpu_ns share ideal), not 'grope'");
	read_fails_n("cgsim-run 2\nrun\0 2", 18, "t.run:2:1: error: expected 'run' and its 3 "
		     "values (cpus measured_ns wall_ns), not 'run?'");
}

/* Any byte anywhere: a result or a message, never a crash or a leak (ASan, valgrind). */
Test(runio, survives_any_byte_anywhere)
{
	static const unsigned char bytes[] = { 0, ' ', '\n', '0', '9', '-', '%', '"', 'x', 0xff };
	size_t len = strlen(small), ok = 0;
	char *s = malloc(len);

	cr_assert_not_null(s);
	for (size_t i = 0; i < len; i++) {
		for (size_t k = 0; k < sizeof(bytes); k++) {
			struct run_result *r;
			char err[512];
			int e;

			memcpy(s, small, len);
			s[i] = (char)bytes[k];
			e = runio_read(s, len, "t.run", NULL, &r, err, sizeof(err));
			cr_assert(e == 0 || e == -EINVAL, "byte %zu = %u: %d", i, bytes[k], e);
			if (e)
				cr_expect(!strncmp(err, "t.run:", 6), "%s", err);
			ok += !e;
			run_free(e ? NULL : r);
		}
	}
	cr_expect(ok > 0, "some edits are still runs (a digit for a digit)");
	free(s);
}
