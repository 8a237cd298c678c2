/* SPDX-License-Identifier: MIT */
/*
 * sim/run/run.h - run one variant of a scenario and measure it.
 *
 * The layout is applied through the cgroup model (an illegal one fails with the kernel's errno,
 * the rule in words and the scenario line), the workload runs on the machine, timeline
 * operations happen at their times, and everything after the warm-up is measured: per thread
 * and per cgroup CPU time against the ideal share (sim/run/ideal.h, time-weighted over the layout
 * changes of the timeline), waits, wakeup latencies, switches, migrations, fairness, and the
 * scheduler's overhead. docs/scenario-format.md describes every figure.
 */
#ifndef CGSIM_SIM_RUN_H
#define CGSIM_SIM_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/scenario/scenario.h"

/* One periodic activation (sim/machine/machine.h's struct sim_activation; times in ns). */
struct run_activation {
	uint64_t idx, period_start, wakeup, start, end, run;
	int64_t slack;
	uint64_t missed;
};

struct run_thread {
	char *process;
	char *name;		/* NAME.N, N from 1 within its thread entry */
	char *cgroup;		/* where it ended the run ("/" for the root) */
	int tid;
	uint64_t cpu_ns, wait_ns, lat_p50, lat_p90, lat_p99, lat_max;
	uint64_t switches, migrations, wakeups, delayed, overruns;
	double share, ideal;
	/*
	 * The ideal is only an upper bound: the thread sleeps after it runs (bursty, a phases
	 * behaviour with sleep or runtime steps or a relative timer) or waits for other threads,
	 * so it asks for less CPU when it waits longer, which its demand does not know. Such
	 * threads are left out of the fairness figures (jain, max_*_error).
	 */
	bool ideal_bound;
	/*
	 * Wakeup latencies: p99.9 by nearest rank of the kept samples like the others; the
	 * smallest, the mean (rounded to the nanosecond) and the count of all of them, exact
	 * whatever the reservoir kept. @lat: the kept samples, sorted (@nlat of them).
	 */
	uint64_t lat_p999, lat_min, lat_mean, lat_samples;
	uint64_t *lat;
	size_t nlat;
	/*
	 * perf sched latency's delays: waits from becoming runnable (a wakeup or a preemption) to
	 * a switch-in, ended in the window; the longest began at @delay_max_start and ended at
	 * @delay_max_end (ns of simulated time from the start of the run).
	 */
	uint64_t delays, delay_total, delay_max, delay_max_start, delay_max_end;
	/*
	 * A periodic thread's activations that ended in the window (docs/latency.md): how many,
	 * the periods missed, the least, median (nearest rank, of the kept ones) and mean slack;
	 * @acts: the kept records in order of their index (@nacts of them).
	 */
	bool periodic;
	uint64_t period_ns;
	uint64_t acts_done, acts_missed;
	int64_t slack_min, slack_p50, slack_mean;
	struct run_activation *acts;
	size_t nacts;
};

/*
 * run_usec_percentiles() - schbench's percentile lines of the sorted latencies @v (ns, @n of
 * them), in whole microseconds (truncated, as schbench records them): for each of the @nq
 * percentiles @q (ascending), @us its nearest-rank value and @count how many samples are at
 * most that value and above the previous line's (schbench's "(N samples)").
 */
void run_usec_percentiles(const uint64_t *v, size_t n, const double *q, size_t nq, uint64_t *us,
			  uint64_t *count);

/*
 * run_percentile() - the nearest-rank percentile @q (0 < q <= 100, in steps of 0.1) of the
 * sorted @v: the value of rank ceil(q/100 x n); 0 if !@n.
 */
uint64_t run_percentile(const uint64_t *v, size_t n, double q);

struct run_group {
	char *path;		/* "/" for the root */
	int cgroup;
	uint64_t cpu_ns;	/* its threads' and its descendants' */
	double share, ideal;
};

struct run_op {
	uint64_t at;
	char *result;		/* "LINE: OP ARGS -> RESULT" */
	bool failed;		/* RESULT is the kernel's errno: the operation was refused */
};

struct run_result {
	const struct scenario *sc;
	int cpus;
	uint64_t measured_ns;
	struct run_thread *threads;
	size_t nthreads;
	struct run_group *groups;
	size_t ngroups;
	struct run_op *ops;
	size_t nops;
	/* cgroup steps the cgroup model refused: "LINE:COL: THREAD: ... -> ERRNO (rule R) ..." */
	struct run_op *refused;
	size_t nrefused;
	double jain, max_abs_error, max_rel_error;
	size_t fair_threads;	/* the threads the fairness figures are over (exact ideal) */
	size_t bound_threads;	/* those left out: their ideal is only a bound */
	uint64_t overhead_ns, level_ops, level_walks, switches, migrations, events, wall_ns;
	/* time series: nsamples rows of (groups then threads) CPU ns in each interval */
	uint64_t interval;
	size_t nsamples;
	size_t series_threads;	/* threads included in the series (0 when there are too many) */
	uint64_t *series;
	/* the distribution of all threads' wakeup latencies: up to 1000 (ms, fraction) points */
	double *cdf_ms, *cdf_frac;
	size_t ncdf;
};

/*
 * The work a run may do, in events (docs/limits.md): a scenario cannot ask for more, whatever
 * its duration, threads and timeline. The command line's --max-events sets it for every later
 * run of the process (0: no limit); a run that needs more stops with an error, never with a
 * truncated result.
 */
#define RUN_MAX_EVENTS	1000000000ull
void run_set_max_events(uint64_t max);

/*
 * run_scenario() - run @sc (loaded for one variant). Returns 0 with *@out set, or -EINVAL with
 * "FILE:LINE:COL: error: ..." in @err (an illegal layout, a malformed timeline operation), or
 * another negative errno. @timing: record the wall-clock time (off for byte-identical output).
 */
int run_scenario(const struct scenario *sc, bool timing, struct run_result **out, char *err,
		 size_t errlen);
/*
 * run_scenario_trace() - run_scenario() writing the whole run, warm-up included, to @trace as
 * ftrace text (sim/trace/trace.h, docs/trace.md); NULL: no trace. A write error fails the run
 * (-EIO with a message). The caller owns @trace and decides what becomes of a failed run's.
 */
int run_scenario_trace(const struct scenario *sc, bool timing, FILE *trace,
		       struct run_result **out, char *err, size_t errlen);
/*
 * run_ideal() - apply @sc's layout and compute the ideal shares over its measured window,
 * without simulating (cgsim shares). The timeline is not applied. Same errors as run_scenario.
 */
int run_ideal(const struct scenario *sc, struct run_result **out, char *err, size_t errlen);

/*
 * struct run_layout - a scenario's layout as a run starts from it: the cgroup model @h with the
 * scenario's cgroups, processes and threads in place (before any timeline operation), and each
 * thread of the scenario, in file order, with what it is in @h and the random stream it draws
 * from. What `cgsim validate --live` translates for the kernel (sim/live/).
 */
struct run_layout_thread {
	const struct scn_process *proc;
	const struct scn_threads *grp;
	int index;		/* N of NAME.N, from 1 within its thread entry */
	int tid;		/* its thread in @h */
	uint32_t stream;	/* its random streams' index */
	int session_nice;	/* its autogroup session's nice */
};

struct run_layout {
	struct cg_hier *h;
	struct run_layout_thread *threads;
	size_t nthreads;
};

/**
 * run_layout_build() - build the layout that run_scenario() starts from. 0, or -EINVAL with a
 * positioned message in @err (a layout the model refuses), -ENOMEM. Free with run_layout_free().
 */
int run_layout_build(const struct scenario *sc, struct run_layout **out, char *err,
		     size_t errlen);
void run_layout_free(struct run_layout *l);
void run_free(struct run_result *r);

#endif /* CGSIM_SIM_RUN_H */
