/* SPDX-License-Identifier: MIT */
/*
 * sim/run/expect.h - the `expect:` entries of a scenario, evaluated against a run (cgsim check).
 */
#ifndef CGSIM_SIM_EXPECT_H
#define CGSIM_SIM_EXPECT_H

#include <stdio.h>

#include "sim/run/run.h"

/*
 * expect_applies() - whether entry @e is for variant @variant (an entry without a variant is
 * for the base variant).
 */
bool expect_applies(const struct scn_expect *e, const char *variant);

/*
 * expect_eval() - evaluate every entry of @r's scenario for @r's variant; print one line each
 * to @f ("PASS ..." or "FAIL ..."). Returns the number that failed (an entry naming a group
 * that does not exist fails).
 */
int expect_eval(FILE *f, const struct run_result *r);

/* expect_metric_name() - the key that names @m in an expect entry ("latency_p99", ...). */
const char *expect_metric_name(enum scn_metric m);

/*
 * expect_measure() - metric @metric of @target @name in @r, as an expect entry reads it (times
 * in ns; a process's latencies and delayed share are its worst thread's, other figures the
 * sum of its threads'). NaN when @name is not in the run or the metric does not apply.
 */
double expect_measure(const struct run_result *r, enum scn_target target, const char *name,
		      enum scn_metric metric);

#endif /* CGSIM_SIM_EXPECT_H */
