/* SPDX-License-Identifier: MIT */
/*
 * sim/study/compare.h - every variant of a scenario run with the same seed and put side by side
 * (cgsim compare): each group's and process's share against its ideal, fairness, wakeup
 * latency, switches, scheduler overhead and level operations, and the change from the base.
 *
 * A comparison's and a sweep's tables are printed here, in the study (compare_print.c,
 * sweep.c), not in sim/report/: they are made of the study's rows (compare_internal.h), and
 * the reports, which the study includes for a run's JSON object and the name escapes, must
 * not include the study back.
 */
#ifndef CGSIM_SIM_STUDY_COMPARE_H
#define CGSIM_SIM_STUDY_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/study/jobs.h"
#include "sim/run/run.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

struct compare {
	size_t n;			/* variants: base first, then as declared */
	struct scenario **sc;
	struct run_result **res;
	struct util_out *trace;		/* per variant, when traced: DIR/VARIANT/trace.txt */
	char *trace_dir;		/* DIR, and the directories the traces made in it */
	bool *made_dir;			/* [0]: DIR, [1 + v]: DIR/VARIANT */
	size_t sweep;			/* the sweep value it is at, or SCN_NO_SWEEP */
	/*
	 * --seeds N: @nseeds runs of each variant, seeds S .. S + N - 1 (S: the variant's seed).
	 * Seed S + k of variant v, k >= 1, is the scenario @more_sc[v * (N - 1) + k - 1], whose
	 * run goes to @more_res[v * (N - 1) + k - 1] and then, once compare_finish() has summed
	 * them up, into @sum[v], whose runs[0] is res[v]; the sums own the runs. 1: res[] alone,
	 * @sum NULL.
	 */
	size_t nseeds;
	struct scenario **more_sc;
	struct run_result **more_res;
	struct seeds **sum;
};

/*
 * A comparison is made in three steps, so that its runs can be made anywhere (here, in worker
 * processes, in shards on other machines; sim/study/jobs.h) between loading and printing:
 *
 * compare_load() - load every variant of the file @src (read and parsed once: each variant,
 * seed and sweep value is a copy of its document) with @nsets --set overrides each, and the
 * sweep's value @sweep, or SCN_NO_SWEEP, each with @nseeds seeds (S .. S + @nseeds - 1). With
 * @trace_dir, seed S's run of each variant is traced (sim/trace/trace.h) into
 * @trace_dir/VARIANT/trace.txt, which compare_write_dir() puts in place; a comparison freed
 * before that leaves no trace and no directory it made. 0, or a negative errno with the
 * message of the first failure in @err.
 *
 * compare_jobs() - append @c's runs to @js (each variant's seeds in order, variants in
 * order). 0 or -ENOMEM.
 *
 * compare_finish() - once every run is in its slot: with several seeds, sum each variant's
 * up, so that every output shows each share and machine figure as the mean over the seeds,
 * with their spread, and marks a change from the base smaller than it. 0, or a negative errno
 * with the message in @err.
 */
int compare_load(struct scn_source *src, const char *const *sets, size_t nsets, size_t sweep,
		 size_t nseeds, const char *trace_dir, struct compare **out, char *err,
		 size_t errlen);
int compare_jobs(struct compare *c, struct jobs *js);
int compare_finish(struct compare *c, char *err, size_t errlen);
void compare_free(struct compare *c);

/* Plain text within 80 columns (blocks of four variants), markdown, or JSON (each variant's
 * run object as `cgsim run --json` prints it, in a list). 0 or -ENOMEM. */
int compare_text(FILE *f, const struct compare *c);
int compare_markdown(FILE *f, const struct compare *c);
int compare_json(FILE *f, const struct compare *c);

/*
 * compare_write_dir() - DIR/VARIANT/{summary.json,threads.csv,groups.csv,timeseries.csv} for
 * each variant (seed S's run; with several seeds also seeds.json, their summary; trace.txt
 * when the comparison was traced into DIR), and DIR/compare.{txt,md,json}.
 */
int compare_write_dir(const char *dir, const struct compare *c, char *err, size_t errlen);

/* A sweep: the comparison repeated with the scenario's sweep key set to each value. */
struct sweep {
	const struct scenario *base;	/* holds the key, the values and the target */
	size_t n;
	struct compare **at;		/* per value */
};

/*
 * sweep_load(), sweep_jobs(), sweep_finish(): compare_*() at each value, in order, every one
 * loaded from @base's source.
 */
int sweep_load(const struct scenario *base, const char *const *sets, size_t nsets,
	       size_t nseeds, struct sweep **out, char *err, size_t errlen);
int sweep_jobs(struct sweep *sw, struct jobs *js);
int sweep_finish(struct sweep *sw, char *err, size_t errlen);
void sweep_free(struct sweep *sw);
/* sweep_text() - one row per value, one column per variant (the first four): the target's
 * share/ideal or its sweep.metric, or the overhead when the sweep names no target. */
int sweep_text(FILE *f, const struct sweep *sw);
/* sweep_markdown() - the same as a markdown table, every variant, names escaped. */
int sweep_markdown(FILE *f, const struct sweep *sw);
/* sweep_target_of() - the sweep's target at value @k in variant @v (ideal NAN: not a share). */
bool sweep_target_of(const struct sweep *sw, size_t k, size_t v, double *share, double *ideal);
/* sweep_target_label() - what the sweep's target values are, in words, for a title. */
void sweep_target_label(const struct scenario *base, char *buf, size_t len);
/*
 * sweep_csv() - value,variant,kind,name,share,ideal for every group, process and machine row
 * (with several seeds: the means, then share_min,share_max,share_ci).
 */
int sweep_csv(FILE *f, const struct sweep *sw);

#endif /* CGSIM_SIM_STUDY_COMPARE_H */
