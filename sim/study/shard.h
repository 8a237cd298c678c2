/* SPDX-License-Identifier: MIT */
/*
 * sim/study/shard.h - one shard of a comparison's runs in a directory (compare --shard I/N -o
 * DIR), and the shards put back together (cgsim merge DIR... ): docs/scale-out.md.
 *
 * A shard directory holds:
 *   shard.json      what it is: the cgsim version, the scenario's name and SHA-256, the --set
 *                   overrides and --seeds, the job list's SHA-256 and length, I and N, and
 *                   the runs it holds (numbered from 1 in the list's order)
 *   scenario.EXT    the scenario's bytes (EXT: the file's own, or yaml), so that the merge
 *                   needs nothing but the directories
 *   run-J.txt       each run's result (sim/run/runio.h), J six digits or more
 * shard.json is written last: a directory without one is not a shard.
 *
 * The job list's digest covers what the runs are (the version, the scenario's digest, the
 * overrides, the seeds, and each job's variant, sweep value and seed in order), so that
 * shards of different lists never merge, whatever their names say.
 */
#ifndef CGSIM_SIM_STUDY_SHARD_H
#define CGSIM_SIM_STUDY_SHARD_H

#include <stddef.h>

#include "sim/study/jobs.h"

#define SHARD_FORMAT 1		/* "cgsim_shard" in shard.json: moves on when the layout does */
#define SHARD_MAX 100000	/* N of --shard I/N: at most this */

/* What a shard directory says it holds (shard_read()), or what to write (shard_write()). */
struct shard_info {
	char *dir;
	char *version;			/* the cgsim that ran it */
	char *scenario;			/* the scenario's name as given on the command line */
	char *text;			/* its bytes */
	char scenario_sha256[65], list_sha256[65];
	char **sets;			/* the --set overrides, in order */
	size_t nsets;
	size_t seeds;			/* --seeds N (1 without) */
	size_t jobs;			/* the job list's length */
	size_t shard, shards;		/* I and N */
	size_t *runs;			/* the jobs it holds, 0-based, ascending */
	size_t nruns;
};

/*
 * shard_digests() - the SHA-256 of @text and of the job list @js as run with @sets (@nsets of
 * them) and @seeds, into @scenario_sha256 and @list_sha256 (64 hex digits each).
 */
void shard_digests(const struct jobs *js, const char *version, const char *text,
		   const char *const *sets, size_t nsets, size_t seeds, char scenario_sha256[65],
		   char list_sha256[65]);

/*
 * shard_write() - @dir as the shard @s (dir, runs and nruns unused: the runs are @js's
 * mine, their results in their slots). Every file goes through its temporary name; shard.json
 * last. 0, or a negative errno with the message in @err.
 */
int shard_write(const char *dir, const struct shard_info *s, const struct jobs *js, char *err,
		size_t errlen);

/*
 * shard_read() - what shard directory @dir holds (shard.json and the scenario's bytes; not the
 * runs yet). 0, or -EINVAL with a message naming the file and what is wrong, -ENOMEM.
 */
int shard_read(const char *dir, struct shard_info *s, char *err, size_t errlen);
void shard_info_free(struct shard_info *s);

/*
 * shard_check() - the @n shards @s belong together (one version, one job list: @list_sha256,
 * this cgsim's digest of the list it loaded from @s[0]'s scenario) and are complete: each of
 * 1..N exactly once, each holding exactly its part of the list. -EINVAL with a message naming
 * what is missing, doubled or different.
 */
int shard_check(const struct shard_info *s, size_t n, const struct jobs *js,
		const char *list_sha256, char *err, size_t errlen);

/* shard_take_runs() - read every run of the @n shards @s into its slot of @js. */
int shard_take_runs(const struct shard_info *s, size_t n, struct jobs *js, char *err,
		    size_t errlen);

#endif /* CGSIM_SIM_STUDY_SHARD_H */
