/* SPDX-License-Identifier: MIT */
/*
 * sim/study/jobs.h - the runs of a comparison as a list of jobs, run here one after another, in
 * forked worker processes (compare --jobs N), or only one shard of them (compare --shard I/N).
 *
 * A job is one run: one scenario as loaded for its variant, sweep value and seed, and the slot
 * its result goes to. The list's order is fixed by what is compared (the comparison itself,
 * then each sweep value; within each, the variants in order; within each, the seeds), never by
 * which worker finished first, so every output is the same whatever the number of workers.
 * A run is deterministic, so a result made in a worker and sent back as text (sim/run/runio.h)
 * is the result this process would have made, byte for byte.
 */
#ifndef CGSIM_SIM_STUDY_JOBS_H
#define CGSIM_SIM_STUDY_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/run/run.h"

#define JOBS_MAX_WORKERS 1024	/* --jobs N: N from 0 (the online CPUs) to this */

struct jobs_job {
	const struct scenario *sc;	/* loaded for the job's variant, value and seed */
	struct run_result **out;	/* where its result goes (the comparison owns it) */
	FILE *trace;			/* its ftrace text, or NULL */
	size_t value;			/* sweep value (0-based), or SCN_NO_SWEEP */
	bool mine;			/* in the shard run here (all, without --shard) */
};

struct jobs {
	struct jobs_job *job;
	size_t n, cap;
};

/* jobs_add() - one job at the end of @js. 0 or -ENOMEM. */
int jobs_add(struct jobs *js, const struct scenario *sc, struct run_result **out, FILE *trace,
	     size_t value);
void jobs_free(struct jobs *js);

/*
 * jobs_label() - what job @j is, in words, for a message: "variant NAME, KEY=VALUE, seed S"
 * (no KEY=VALUE outside a sweep).
 */
void jobs_label(const struct jobs *js, size_t j, char *buf, size_t len);

/*
 * jobs_shard() - keep only shard @i of @n (1 <= @i <= @n) as mine: the jobs whose index is
 * i - 1 modulo n. Dealt round the shards like cards, so that each shard gets its part of every
 * sweep value and variant, and the expensive values do not all land in one shard.
 */
void jobs_shard(struct jobs *js, size_t i, size_t n);
/* jobs_mine() - how many jobs of @js are mine. */
size_t jobs_mine(const struct jobs *js);

/*
 * jobs_run() - run every job of @js that is mine, in @workers worker processes (1, or a single
 * job: here, one after another, with no process made). On a terminal, stderr shows the count
 * of runs done. 0 with every result in its slot; or a negative errno with the message of the
 * failure first in the list's order in @err, the run's own message followed by a line
 * "cgsim: in run J of N (variant ..., seed S)" when the list has more than one job. After a
 * failure no job starts, those under way end, and the results made stay in their slots (the
 * caller frees them with what owns the slots).
 */
int jobs_run(struct jobs *js, size_t workers, char *err, size_t errlen);

/* jobs_online_cpus() - the CPUs online here (--jobs 0), at least 1. */
size_t jobs_online_cpus(void);

#endif /* CGSIM_SIM_STUDY_JOBS_H */
