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
	double ci;	/* half-width of the 95 % interval of the mean: t(0.975, n-1) s / sqrt(n) */
};

/*
 * seeds_stat() - @v[0..@n) summed up; @n >= 1 (with one value the interval is 0: nothing to
 * tell it from).
 */
struct seeds_stat seeds_stat(const double *v, size_t n);

/* What a thread's rows are summed up over: share, wait, wakeup latency p50 and p99 (ns). */
struct seeds_thread {
	struct seeds_stat share, wait_ns, lat_p50, lat_p99;
	size_t woke;	/* in how many runs the thread woke (latencies are over those only) */
};

/*
 * struct seeds - @n runs of one scenario, seeds @first .. @first + @n - 1. @runs[0] gives the
 * names, cgroups and ideal shares (the same in every run: only the random streams differ).
 */
struct seeds {
	uint64_t first;
	size_t n;
	struct run_result **runs;
	struct seeds_stat *groups;	/* share of each of runs[0]->groups */
	struct seeds_thread *threads;	/* each of runs[0]->threads */
	struct seeds_stat jain, max_abs_error, overhead, switches_per_s;
};

/*
 * seeds_run() - scenario @path (@text: its bytes already read, or NULL) loaded for @variant with
 * the @nsets overrides @sets and then seed @base + @k, which wins over them, at the sweep's
 * value @sweep (SCN_NO_SWEEP: none; scn_load_swept()), and run: *@sc and
 * *@out, both the caller's. 0; -ERANGE when @base + @k passes 2^64 - 1; or scn_load()'s and
 * run_scenario()'s errors, with the message in @err (nothing left to free).
 */
int seeds_run(const char *path, const char *text, const char *variant, const char *const *sets,
	      size_t nsets, size_t sweep, uint64_t base, size_t k, struct scenario **sc,
	      struct run_result **out, char *err, size_t errlen);

/*
 * seeds_load() - seeds_run()'s scenario, loaded and not run: *@sc, or NULL on failure with the
 * message in @err (0; -ERANGE; -EINVAL).
 */
int seeds_load(const char *path, const char *text, const char *variant, const char *const *sets,
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
