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
 * One step of a SIM_BEHAV_PHASES behaviour. RUN, RUNTIME and SLEEP take d (CPU time, wall time
 * busy, wall time asleep); TIMER sleeps to the next expiry of a periodic timer; the others take
 * no time of their own: they synchronise with other threads of the machine or change the
 * thread's attributes (docs/scenario-format.md, "Synchronisation" and "Attributes").
 */
enum sim_step_kind {
	SIM_STEP_RUN,
	SIM_STEP_SLEEP,
	SIM_STEP_LOCK,		/* take mutex @obj, blocked in its FIFO while another thread holds it */
	SIM_STEP_UNLOCK,	/* give mutex @obj up: its longest waiter gets it and wakes */
	SIM_STEP_SUSPEND,	/* block until another thread resumes this one */
	SIM_STEP_RESUME,	/* wake thread @obj (a tid) if it is suspended; else nothing, as rt-app */
	SIM_STEP_RUNTIME,	/* runnable until d of wall time has passed since the step began */
	SIM_STEP_TIMER,		/* timer @obj: its next expiry moves on by d; sleep until it */
	SIM_STEP_WAIT,		/* pthread_cond_wait(cond @obj, mutex @obj2) */
	SIM_STEP_SIGNAL,	/* pthread_cond_signal(cond @obj): its longest waiter wakes */
	SIM_STEP_BROADCAST,	/* pthread_cond_broadcast(cond @obj): every waiter wakes */
	SIM_STEP_SYNC,		/* SIGNAL then WAIT, at once (rt-app's sync) */
	SIM_STEP_BARRIER,	/* barrier @obj of @count threads: the last to arrive wakes the rest */
	SIM_STEP_YIELD,		/* sched_yield() */
	SIM_STEP_REPEAT,	/* back to step @obj, until the steps from it ran @count times */
	SIM_STEP_NICE,		/* setpriority(): nice @obj */
	SIM_STEP_POLICY,	/* sched_setscheduler(): policy @obj (enum sched_thread_policy) */
	SIM_STEP_SLICE,		/* sched_setattr()'s sched_runtime: slice d (0: the default) */
	SIM_STEP_AFFINITY,	/* sched_setaffinity(): mask @obj of the behaviour's masks */
	SIM_STEP_CGROUP,	/* write the tid to cgroup @obj of the behaviour's paths */
};

/* SIM_STEP_TIMER's flags */
#define SIM_TIMER_SHARED	1u	/* one timer for every thread that names it (else each its own) */
#define SIM_TIMER_ABSOLUTE	2u	/* a missed expiry is not reset to now (rt-app's "absolute") */
/* SIM_STEP_SLEEP's flags */
#define SIM_SLEEP_RECORDED	4u	/* a sleep as a trace recorded it, timer latency included:
					   the machine adds none of its own */
#define SIM_SLEEP_UNTIL		8u	/* until @ns after the thread's first time, not for d; at
					   once if that is past (a wakeup the trace recorded then) */

struct sim_phase {
	enum sim_step_kind kind;
	struct sim_dist d;	/* RUN, SLEEP, RUNTIME */
	uint64_t ns;		/* TIMER: its period; SLICE: the slice (0: the base slice);
				 * SLEEP with SIM_SLEEP_UNTIL: its end from the thread's first time */
	/*
	 * LOCK, UNLOCK: the mutex (0, 1, ...); RESUME: the thread; WAIT, SYNC, SIGNAL,
	 * BROADCAST: the condition variable; BARRIER: the barrier; TIMER: the timer (shared:
	 * the machine's; else the thread's own); REPEAT: the first step repeated; NICE: the
	 * nice; POLICY: the policy; AFFINITY: the mask's index; CGROUP: the path's index.
	 */
	int obj;
	int obj2;		/* WAIT, SYNC: the mutex to release and take again */
	uint32_t count;		/* REPEAT: how many times in all; BARRIER: its threads */
	unsigned flags;		/* TIMER: SIM_TIMER_*; SLEEP: SIM_SLEEP_RECORDED */
};

/* SIM_STEP_AFFINITY's masks: SIM_MASK_WORDS words each, CPU c is bit c % 64 of word c / 64. */
#define SIM_MASK_WORDS	(SCHED_MAX_CPUS / 64)

struct sim_behavior {
	enum sim_behavior_kind kind;
	struct sim_dist run;		/* periodic and bursty: CPU time per activation */
	struct sim_dist sleep;		/* bursty: time asleep after each burst */
	uint64_t period_ns;		/* periodic */
	const struct sim_phase *phases;	/* phases: copied by sim_machine_set_thread() */
	size_t nphases;
	uint32_t loops;
	/*
	 * A replayed trace's thread, for ideal shares: how long its life lasted in the trace (0:
	 * not a replay), after which it asks for nothing; with absolute sleeps, the CPU time its
	 * steps ask for over that life, its demand then (its steps' duty cycle would overstate
	 * it: a sleep that ends at a set time was shortened by the wait before it).
	 */
	uint64_t life_ns, life_cpu_ns;
	/* phases: what AFFINITY and CGROUP steps name (kept by the caller for the run's life) */
	const uint64_t *masks;		/* nmasks x SIM_MASK_WORDS */
	size_t nmasks;
	const char *const *paths;	/* cgroup paths, "" the root */
	size_t npaths;
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
