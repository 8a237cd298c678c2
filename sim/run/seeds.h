/* SPDX-License-Identifier: MIT */
/*
 * sim/run/seeds.h - one scenario run with several seeds, summed up: each figure's mean, least,
 * greatest and the half-width of its 95 % confidence interval (Student's t over the runs), so
 * that a reader can tell a change of layout from the spread of the random streams.
 */
#ifndef CGSIM_SIM_RUN_SEEDS_H
#define CGSIM_SIM_RUN_SEEDS_H

#include <stddef.h>

#include "sim/run/run.h"

#define SEEDS_MAX	1000	/* --seeds N: N from 2 to this */

struct seeds_stat {
	double mean, min, max;
	/*
	 * The spread: the half-width of the 95 % interval of the mean, t(0.975, n-1) s / sqrt(n)
	 * (s the sample standard deviation; `+-` in the text, KEY_ci in the JSON).
	 */
	double ci;
};

/*
 * seeds_stat() - @v[0..@n) summed up; @n >= 1 (with one value the interval is 0: nothing to
 * tell it from).
 */
struct seeds_stat seeds_stat(const double *v, size_t n);

/*
 * The figures summed up: every number of a single run's thread and group that a seed can change
 * (report_json()'s keys; tests/unit/test_run_seeds_keys.c fails on a number it has and this
 * table does not), one row each:
 * X(KEY, FIELD, TYPE, NS, OVER) - KEY the JSON key, FIELD of struct run_thread or run_group,
 * TYPE u64, i64 or dbl, NS true for a time in ns (written whole, as a single run writes it),
 * OVER which runs (enum seeds_over).
 */
#define SEEDS_THREAD_FIGURES(X) \
	X(cpu_ns, cpu_ns, u64, true, ALL) \
	X(share, share, dbl, false, ALL) \
	X(wait_ns, wait_ns, u64, true, ALL) \
	X(latency_p50_ns, lat_p50, u64, true, WOKE) \
	X(latency_p90_ns, lat_p90, u64, true, WOKE) \
	X(latency_p99_ns, lat_p99, u64, true, WOKE) \
	X(latency_p999_ns, lat_p999, u64, true, WOKE) \
	X(latency_min_ns, lat_min, u64, true, WOKE) \
	X(latency_mean_ns, lat_mean, u64, true, WOKE) \
	X(latency_max_ns, lat_max, u64, true, WOKE) \
	X(latency_samples, lat_samples, u64, false, ALL) \
	X(switches, switches, u64, false, ALL) \
	X(migrations, migrations, u64, false, ALL) \
	X(wakeups, wakeups, u64, false, ALL) \
	X(wakeups_delayed, delayed, u64, false, ALL) \
	X(overruns, overruns, u64, false, ALL) \
	X(delays, delays, u64, false, ALL) \
	X(delay_total_ns, delay_total, u64, true, ALL) \
	X(delay_max_ns, delay_max, u64, true, ALL) \
	X(delay_max_start_ns, delay_max_start, u64, true, ALL) \
	X(delay_max_end_ns, delay_max_end, u64, true, ALL) \
	X(activations, acts_done, u64, false, ALL) \
	X(missed_periods, acts_missed, u64, false, ALL) \
	X(slack_min_ns, slack_min, i64, true, ACTIVE) \
	X(slack_p50_ns, slack_p50, i64, true, ACTIVE) \
	X(slack_mean_ns, slack_mean, i64, true, ACTIVE)

#define SEEDS_GROUP_FIGURES(X) \
	X(cpu_ns, cpu_ns, u64, true, ALL) \
	X(share, share, dbl, false, ALL)

#define SEEDS_T_ENUM(key, field, type, ns, over) SEEDS_T_##key,
#define SEEDS_G_ENUM(key, field, type, ns, over) SEEDS_G_##key,
enum seeds_thread_figure { SEEDS_THREAD_FIGURES(SEEDS_T_ENUM) SEEDS_NTHREAD };
enum seeds_group_figure { SEEDS_GROUP_FIGURES(SEEDS_G_ENUM) SEEDS_NGROUP };

/*
 * Which runs a figure is over: all, or only those in which the thread woke (a latency of no
 * wakeup is none) or in which an activation of it ended (a slack of no activation is none).
 */
enum seeds_over { SEEDS_ALL, SEEDS_WOKE, SEEDS_ACTIVE };

/* One row of a table: the key, whether written whole, the runs it is over (above). */
struct seeds_figure {
	const char *key;
	bool ns;
	enum seeds_over over;
};
extern const struct seeds_figure seeds_thread_figures[SEEDS_NTHREAD];
extern const struct seeds_figure seeds_group_figures[SEEDS_NGROUP];

struct seeds_thread {
	struct seeds_stat fig[SEEDS_NTHREAD];	/* by enum seeds_thread_figure */
	size_t woke;	/* in how many runs the thread woke */
	size_t active;	/* in how many an activation of it ended */
};

struct seeds_group {
	struct seeds_stat fig[SEEDS_NGROUP];	/* by enum seeds_group_figure */
};

/*
 * struct seeds - @n runs of one scenario, seeds @first .. @first + @n - 1. @runs[0] gives the
 * names, cgroups and ideal shares (the same in every run: only the random streams differ).
 */
struct seeds {
	uint64_t first;
	size_t n;
	struct run_result **runs;
	struct seeds_group *groups;	/* each of runs[0]->groups */
	struct seeds_thread *threads;	/* each of runs[0]->threads */
	struct seeds_stat jain, max_abs_error, overhead, switches_per_s;
};

/*
 * seeds_run() - the scenario of file @src (read and parsed once) loaded for @variant with the
 * @nsets overrides @sets and then seed @base + @k, which wins over them, at the sweep's value
 * @sweep (SCN_NO_SWEEP: none; scn_source_load()), and run: *@sc and *@out, both the caller's.
 * 0; -ERANGE when @base + @k passes 2^64 - 1; or scn_source_load()'s and run_scenario()'s
 * errors, with the message in @err (nothing left to free).
 */
int seeds_run(struct scn_source *src, const char *variant, const char *const *sets,
	      size_t nsets, size_t sweep, uint64_t base, size_t k, struct scenario **sc,
	      struct run_result **out, char *err, size_t errlen);

/*
 * seeds_load() - seeds_run()'s scenario, loaded and not run: *@sc, or NULL on failure with the
 * message in @err (0; -ERANGE; -EINVAL).
 */
int seeds_load(struct scn_source *src, const char *variant, const char *const *sets,
	       size_t nsets, size_t sweep, uint64_t base, size_t k, struct scenario **sc,
	       char *err, size_t errlen);

/*
 * seeds_sum() - sum up @runs (@n >= 1, an array from malloc()): on success *@out owns the array
 * and the runs (seeds_free()); on failure the caller keeps them. -EINVAL with a message in @err
 * when the runs do not have the same threads and groups; -ENOMEM.
 */
int seeds_sum(struct run_result **runs, size_t n, uint64_t first, struct seeds **out, char *err,
	      size_t errlen);
void seeds_free(struct seeds *s);

#endif
