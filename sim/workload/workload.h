/* SPDX-License-Identifier: MIT */
/*
 * sim/workload/workload.h - what a thread does: its behaviour (busy, periodic, bursty, phases), the
 * distributions its durations are drawn from, its nice, policy, slice, start, stop and
 * affinity.
 *
 * Plain data, below both the scenario (which reads it from a file) and the machine (which
 * runs it), so that the file format does not depend on the machine that runs it.
 */
#ifndef CGSIM_SIM_WORKLOAD_H
#define CGSIM_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scheduler/sched.h"
#include "sim/engine/rng.h"

enum sim_behavior_kind {
	SIM_BEHAV_NONE,		/* never runs */
	SIM_BEHAV_BUSY,		/* always runnable */
	SIM_BEHAV_PERIODIC,	/* wakes every period_ns (from its start), runs `run`, sleeps */
	SIM_BEHAV_BURSTY,	/* runs `run`, sleeps `sleep`, again */
	SIM_BEHAV_PHASES,	/* the steps in order, `loops` times (0: forever) */
};

/*
 * One step of a SIM_BEHAV_PHASES behaviour. RUN and SLEEP take d (CPU time, wall time); the
 * others take no time of their own and synchronise with other threads of the machine
 * (docs/scenario-format.md, "Synchronisation"):
 */
enum sim_step_kind {
	SIM_STEP_RUN,
	SIM_STEP_SLEEP,
	SIM_STEP_LOCK,		/* take mutex @obj, blocked in its FIFO while another thread holds it */
	SIM_STEP_UNLOCK,	/* give mutex @obj up: its longest waiter gets it and wakes */
	SIM_STEP_SUSPEND,	/* block until another thread resumes this one */
	SIM_STEP_RESUME,	/* wake thread @obj (a tid) if it is suspended; else nothing, as rt-app */
};

struct sim_phase {
	enum sim_step_kind kind;
	struct sim_dist d;	/* RUN, SLEEP */
	int obj;		/* LOCK, UNLOCK: the mutex (0, 1, ...); RESUME: the thread */
};

struct sim_behavior {
	enum sim_behavior_kind kind;
	struct sim_dist run;		/* periodic and bursty: CPU time per activation */
	struct sim_dist sleep;		/* bursty: time asleep after each burst */
	uint64_t period_ns;		/* periodic */
	const struct sim_phase *phases;	/* phases: copied by sim_machine_set_thread() */
	size_t nphases;
	uint32_t loops;
};

struct sim_thread_spec {
	struct sim_behavior behavior;
	int nice;				/* -20..19 */
	enum sched_thread_policy policy;
	uint64_t slice_ns;			/* 0: the base slice */
	uint64_t start_ns;			/* first wakeup */
	uint64_t stop_ns;			/* 0: never; else goes to sleep for good */
	const uint64_t *affinity;		/* NULL: every CPU */
	size_t affinity_words;
	/*
	 * The index of the thread's random streams (sim_rng_init()): the same index and seed
	 * draw the same numbers. sim/run keys it by the thread's name, so that a thread's draws
	 * do not depend on which other threads the scenario has or in what order.
	 */
	uint32_t stream;
};

#endif /* CGSIM_SIM_WORKLOAD_H */
