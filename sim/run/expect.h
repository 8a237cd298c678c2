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
 * One entry's verdict: @ok, and @text, what it says after PASS or FAIL: "FILE:LINE [VARIANT]
 * thread p/t.1 share 0.2499 (expected 0.2500 +- 0.0030)". An entry that names nothing in the
 * run fails ("not found in the run"), and so does a latency or delayed bound on threads that
 * never woke in the window ("not measured": no wakeup is no evidence).
 */
struct expect_result {
	bool ok;
	int line;		/* the entry's line in the scenario */
	char *text;
	char *id;		/* its start, without the values: "FILE:LINE [VARIANT] thread p/t.1 share" */
};

/*
 * expect_results() - every entry of @r's scenario for @r's variant, judged, in file order:
 * *@out (@n of them; expect_results_free()). 0 or -ENOMEM.
 */
int expect_results(const struct run_result *r, struct expect_result **out, size_t *n);
/*
 * expect_results_seeds() - the same over @nruns runs of one variant with different seeds: each
 * entry judged on the mean of its figure, the text giving the least and greatest run too.
 */
int expect_results_seeds(const struct run_result *const *runs, size_t nruns,
			 struct expect_result **out, size_t *n);
void expect_results_free(struct expect_result *v, size_t n);

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
