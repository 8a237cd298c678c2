/* SPDX-License-Identifier: MIT */
/*
 * sim/study/figvariant.h - what one variant's figures draw (docs/figures.md), and the files they
 * read: the items of its share figures (its cgroups, else its processes, else its threads),
 * their shares over the seeds and over time, the timeline's operations, and its threads'
 * wakeup latencies as complementary distributions.
 */
#ifndef CGSIM_SIM_STUDY_FIGVARIANT_H
#define CGSIM_SIM_STUDY_FIGVARIANT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/study/compare.h"

struct figv;

/* figv_build() - variant @v of @c looked at once: 0 with *@out, or -ENOMEM. */
int figv_build(const struct compare *c, size_t v, struct figv **out);
void figv_free(struct figv *fv);

/* Whether the variant has share figures (two or more items), a time series of them, a thread
 * that woke (the latency figure). */
bool figv_shares(const struct figv *fv);
bool figv_series(const struct figv *fv);
bool figv_latency(const struct figv *fv);

/*
 * figv_write() - the figures' inputs: in @vdir (DIR/VARIANT) bars.csv, items-series.csv and
 * latency-threads.csv, in @plots (DIR/plots) items-VARIANT.gp and latency-VARIANT.gp, each
 * when its figure is drawn. 0 or a negative errno with the message in @err.
 */
int figv_write(const struct figv *fv, const char *vdir, const char *plots, char *err,
	       size_t errlen);

/*
 * figv_gp_string() - NAME = 'TEXT' as gnuplot reads it: in a single-quoted string nothing is
 * substituted (no backquoted command, no macro) and a quote is written twice. Control
 * characters, which a cgroup name may hold, become '?'.
 */
void figv_gp_string(FILE *f, const char *name, const char *text);

#endif /* CGSIM_SIM_STUDY_FIGVARIANT_H */
