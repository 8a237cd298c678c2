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

#endif /* CGSIM_SIM_EXPECT_H */
