// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_run_seeds_keys.c - a --seeds summary carries every figure of a single run
 * (docs/scenario-format.md, "Several seeds"): each number of a single run's JSON thread and
 * group objects is in the summary's as KEY (the mean), KEY_min, KEY_max and KEY_ci, and the
 * mean is that of the runs' values; `check --seeds` judges p90 and p99.9 on that mean too.
 */
#include <criterion/criterion.h>

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/report.h"
#include "sim/run/expect.h"
#include "sim/run/seeds.h"

#define NSEEDS 2

/* A periodic, a bursty and a busy thread in two cgroups, no warm-up. */
static const char scenario[] =
	"name: keys\n"
	"duration: 500ms\n"
	"machine: { cpus: 1, hz: 1000 }\n"
	"cgroups:\n"
	"  /: { cgroup.subtree_control: +cpu }\n"
	"  a: { cpu.weight: 100 }\n"
	"  b: { cpu.weight: 200 }\n"
	"processes:\n"
	"  rt:\n"
	"    cgroup: a\n"
	"    threads:\n"
	"      tick: { behavior: { periodic: { run: 1ms, period: 10ms } } }\n"
	"  io:\n"
	"    cgroup: a\n"
	"    threads:\n"
	"      b: { behavior: { bursty: { run: exp(2ms), sleep: exp(5ms) } } }\n"
	"  hog:\n"
	"    cgroup: b\n"
	"    threads:\n"
	"      w: { behavior: busy }\n"
	"expect:\n"
	"  - { thread: rt/tick.1, latency_p90: \"< 1s\" }\n"
	"  - { thread: rt/tick.1, latency_p999: \"< 1s\" }\n";

static struct scenario *scs[NSEEDS];
static struct seeds *sum;

static void fini(void)
{
	seeds_free(sum);
	sum = NULL;
	for (size_t k = 0; k < NSEEDS; k++) {
		scn_free(scs[k]);
		scs[k] = NULL;
	}
}

TestSuite(run_seeds_keys, .fini = fini);

static void run_seeds(void)
{
	struct run_result **runs = calloc(NSEEDS, sizeof(*runs));
	char err[1024];
	struct scn_source *src = scn_source_read("t.yaml", scenario, err, sizeof(err));

	cr_assert_not_null(runs);
	cr_assert_not_null(src, "%s", err);
	for (size_t k = 0; k < NSEEDS; k++)
		cr_assert_eq(seeds_run(src, NULL, NULL, 0, SCN_NO_SWEEP, 1, k, &scs[k], &runs[k], err,
				       sizeof(err)), 0, "%s", err);
	scn_source_put(src);	/* the scenarios hold it */
	cr_assert_eq(seeds_sum(runs, NSEEDS, 1, &sum, err, sizeof(err)), 0, "%s", err);
}

/* What @print writes for @arg, parsed. */
static json_object *printed(void (*print)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_object *o;

	cr_assert_not_null(f);
	print(f, arg);
	cr_assert_eq(fclose(f), 0);
	o = json_tokener_parse(text);
	cr_assert_not_null(o, "not JSON: %s", text);
	free(text);
	return o;
}

static void print_run(FILE *f, const void *r)
{
	report_json(f, r);
}

static void print_seeds(FILE *f, const void *s)
{
	report_seeds_json(f, s);
}

/* Every number of @one's objects in array @key is in @all's with its four keys. */
static void same_keys(json_object *one, json_object *all, const char *key)
{
	json_object *a = json_object_object_get(one, key), *b = json_object_object_get(all, key);
	size_t n = json_object_array_length(a);

	cr_assert(n > 0, "no %s", key);
	cr_assert_eq(json_object_array_length(b), n);
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(a, i), *y = json_object_array_get_idx(b, i);

		json_object_object_foreach(x, k, v) {
			static const char *const ends[] = { "", "_min", "_max", "_ci" };

			if (!json_object_is_type(v, json_type_int) &&
			    !json_object_is_type(v, json_type_double))
				continue;
			for (size_t e = 0; e < 4; e++) {
				char name[128];
				json_object *w;

				snprintf(name, sizeof(name), "%s%s", k, ends[e]);
				/* the ideal is the layout's, not a seed's: the same in every run */
				if (!strcmp(k, "ideal") && e)
					continue;
				cr_expect(json_object_object_get_ex(y, name, &w) &&
					  (json_object_is_type(w, json_type_int) ||
					   json_object_is_type(w, json_type_double)),
					  "%s %zu: %s is not in the seeds summary", key, i, name);
			}
		}
	}
}

Test(run_seeds_keys, every_figure_of_a_run)
{
	json_object *one, *all;

	run_seeds();
	one = printed(print_run, sum->runs[0]);
	all = printed(print_seeds, sum);
	same_keys(one, all, "threads");
	same_keys(one, all, "groups");
	json_object_put(one);
	json_object_put(all);
}

static const struct run_thread *tick(size_t k)
{
	const struct run_thread *t = &sum->runs[k]->threads[0];

	cr_assert_str_eq(t->process, "rt");
	return t;
}

/* p90 and p99.9 are the means of the runs' values; their extremes the runs' extremes. */
Test(run_seeds_keys, tail_latencies_summed_up)
{
	const struct seeds_thread *st;
	double p90 = 0, p999 = 0, lo = HUGE_VAL, hi = 0;

	run_seeds();
	st = &sum->threads[0];
	for (size_t k = 0; k < NSEEDS; k++) {
		cr_assert_gt(tick(k)->lat_samples, 0);
		p90 += (double)tick(k)->lat_p90 / NSEEDS;
		p999 += (double)tick(k)->lat_p999 / NSEEDS;
		lo = fmin(lo, (double)tick(k)->lat_p999);
		hi = fmax(hi, (double)tick(k)->lat_p999);
	}
	cr_expect_eq(st->woke, NSEEDS);
	cr_expect_float_eq(st->fig[SEEDS_T_latency_p90_ns].mean, p90, 1e-6);
	cr_expect_float_eq(st->fig[SEEDS_T_latency_p999_ns].mean, p999, 1e-6);
	cr_expect_float_eq(st->fig[SEEDS_T_latency_p999_ns].min, lo, 1e-6);
	cr_expect_float_eq(st->fig[SEEDS_T_latency_p999_ns].max, hi, 1e-6);
	/* the busy thread never woke: no run to take a latency from */
	cr_expect_eq(sum->threads[2].woke, 0);
}

/* check --seeds: the p90 and p99.9 entries are judged on the mean over the seeds. */
Test(run_seeds_keys, check_judges_tail_on_the_mean)
{
	struct expect_result *v;
	char want[2][64];
	size_t n;

	run_seeds();
	snprintf(want[0], sizeof(want[0]), "latency_p90 %.3f ms (mean of %d seeds",
		 ((double)tick(0)->lat_p90 + (double)tick(1)->lat_p90) / 2 / 1e6, NSEEDS);
	snprintf(want[1], sizeof(want[1]), "latency_p999 %.3f ms (mean of %d seeds",
		 ((double)tick(0)->lat_p999 + (double)tick(1)->lat_p999) / 2 / 1e6, NSEEDS);
	cr_assert_eq(expect_results_seeds((const struct run_result *const *)sum->runs, NSEEDS, &v,
					  &n), 0);
	cr_assert_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		cr_expect(v[i].ok, "%s", v[i].text);
		cr_expect(strstr(v[i].text, want[i]), "%s, want %s", v[i].text, want[i]);
	}
	expect_results_free(v, n);
}
