/* SPDX-License-Identifier: MIT */
/*
 * sim/calibrate/calprofile.h - from a calibration to a machine cost profile, and back to a
 * prediction (docs/overhead.md, "From the measurement to a profile").
 *
 * calibrate --live measures a pipe ping-pong's round trip at each of its points. cgsim
 * simulates the same ping-pong (two threads on one CPU, each running half of the system calls
 * of its half round trip, waking the other, running the other half and waiting; the writer is
 * mostly preempted by the reader it wakes, as on the kernel) to learn what the model walks and
 * changes per round trip at each point; the measured medians are fitted to those counts by
 * least squares, which gives walk_ns and level_ns, and the intercept less the system calls
 * gives the events' base costs. The prediction runs the simulation again with a profile's
 * costs and compares each point's round trip with the measured one.
 */
#ifndef CGSIM_SIM_CALIBRATE_CALPROFILE_H
#define CGSIM_SIM_CALIBRATE_CALPROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scheduler/sched.h"
#include "sim/live/live.h"

/* What the model does per round trip of the simulated ping-pong at one point. */
struct calprof_counts {
	double walks, ops, switches, wakeups;	/* a wakeup per block: the sleeps too */
};

struct calprof {
	struct sched_costs cost;	/* the profile: tick_ns is the default, not measured */
	double base_ns, base_se;	/* the fit's intercept: a round trip without its levels */
	double walk_se, level_se;	/* standard errors of walk_ns and level_ns */
	size_t n;			/* points fitted */
	double residual_ns[LIVE_CAL_MAX_POINTS];	/* in the report's order of points */
	bool clamped;			/* a fitted constant came out negative and was set to 0 */
};

/* One point of calibrate --check: measured and predicted round trip, ns. */
struct calprof_check {
	double measured_ns, predicted_ns, error;	/* error: predicted / measured - 1 */
};

/* The check's criterion: every point predicted within 10 % of its median. */
#define CALPROF_CHECK_TOLERANCE 0.10

/* Everything calibrate prints: the measurement, the profile fitted, the check. */
struct calprof_outcome {
	const struct live_cal_report *r;
	const struct calprof *prof;	/* NULL when the fit failed (why: fit_err) */
	const char *fit_err;
	const struct calprof_check *check;	/* NULL without --check; else r->npoints */
	const char *check_costs;	/* the profile checked; NULL: the one just fitted */
	bool check_ok;
};

/*
 * calprof_counts() - simulate the ping-pong at point @pt with the default costs (they decide
 * who preempts whom, and so what a round trip walks) and 2,000 ns of system calls a half,
 * and count the switches, wakeups, levels walked and level operations per round trip. 0, or
 * -EINVAL with a message in @err.
 */
int calprof_counts(const struct live_cal_point *pt, struct calprof_counts *out, char *err,
		   size_t errlen);

/*
 * calprof_fit() - fit @r's medians to the simulated counts (median = base + walk_ns x walks +
 * level_ns x ops) and split base - 2 x the system calls over the round trip's switches,
 * wakeups and sleeps with a switch, a wakeup and a sleep in the proportions of the defaults
 * (1 : 0.5 : 0.3). -EINVAL when the points cannot be fitted or the system calls leave nothing
 * to split.
 */
int calprof_fit(const struct live_cal_report *r, struct calprof *out, char *err, size_t errlen);

/*
 * calprof_predict() - the simulated round trip (ns) at @pt with costs from the profile file
 * @profile (NULL: @cost) and @run_ns of system calls per half.
 */
int calprof_predict(const struct live_cal_point *pt, const char *profile,
		    const struct sched_costs *cost, double run_ns, double *rt_ns, char *err,
		    size_t errlen);

/* calprof_write() - the profile as machine: { costs: FILE } reads it. */
void calprof_write(FILE *f, const struct calprof *p, const struct live_cal_report *r,
		   const char *date);

#endif
