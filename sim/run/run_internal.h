/* SPDX-License-Identifier: MIT */
/*
 * sim/run/run_internal.h - what the files of one run share, and nothing else includes.
 *
 * A run (sim/run/run.h) builds the layout on the cgroup model (run_layout.c), runs the machine
 * through the timeline (run.c), follows the ideal shares as the layout changes
 * (run_shares.c) and measures what the machine did (run_measure.c).
 */
#ifndef CGSIM_SIM_RUN_INTERNAL_H
#define CGSIM_SIM_RUN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cgroup/cgroup.h"
#include "sim/machine/machine.h"
#include "sim/run/run.h"

#define NOPOS ((struct scn_pos){ .line = 0 })

/* Items in the time series (groups + threads) times samples, at most: 32 MB of counters. */
#define SERIES_MAX_CELLS	(4u << 20)
#define SERIES_MAX_THREADS	256

struct rthread {
	const struct scn_process *proc;
	const struct scn_threads *grp;
	int index;		/* 1-based within its thread entry */
	int tid;
	int session;		/* its autogroup session's key, and that session's nice */
	int session_nice;
	uint32_t stream;	/* its random streams' index, from its name (run_layout.c) */
	double ideal_ns;	/* ∫ ideal share dt over the window (share of capacity × ns) */
};

struct runner {
	const struct scenario *sc;
	char *err;
	size_t errlen;
	struct cg_hier *h;
	struct sim_machine *m;
	struct rthread *t;
	size_t nt;
	double *ideal_cg;	/* per cgroup id: ∫ ideal share dt */
	int ncg;
	uint64_t ideal_from;	/* start of the current ideal interval */
	double *cur_share;	/* per thread: current ideal share */
	double *cur_cg;		/* per cgroup id: current ideal share */
	uint64_t *cg_cpu;	/* per cgroup id: scratch for sampling */
	struct trace *trace;	/* NULL: the run is not traced */
};

/* run_layout.c: the layout and the processes on the cgroup model */
int run__add_processes(struct runner *r);
int run__apply_layout(struct runner *r);
int run__fail(struct runner *r, struct scn_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* run_shares.c: the ideal shares, time-weighted over the layout's changes */
int run__grow_cg(struct runner *r);
void run__ideal_accrue(struct runner *r, uint64_t now);
int run__ideal_now(struct runner *r, uint64_t now, uint64_t until);

/* run_measure.c: samples and the measurements of the window */
int run__list_groups(struct runner *r, struct run_result *res);
int run__measure(struct runner *r, struct run_result *res);
void run__sample(struct runner *r, struct run_result *res, uint64_t *row);

#endif /* CGSIM_SIM_RUN_INTERNAL_H */
