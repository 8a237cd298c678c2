/* SPDX-License-Identifier: MIT */
/*
 * sim/replay/tstats.h - what a trace says each thread did: CPU time, bursts, sleeps, wakeup
 * latencies, who woke it (docs/replay.md, "What is derived"). Fed one event at a time
 * (sim/replay/tread.h), in time order; memory grows with threads and CPUs, not events.
 *
 * A thread's states follow its events: running from a switch-in; runnable from a switch-out
 * in state R (a preemption) or from a wakeup; sleeping from a switch-out in any other state.
 * A burst is the CPU time from a wakeup to the switch-out that sleeps (preemptions inside it
 * split nothing); a sleep runs from that switch-out to the next wakeup (sched_waking, or
 * sched_wakeup when waking is not traced); a wakeup's latency runs from it to the switch-in.
 * What started before the trace, or before a CPU's lost events, is not known: CPU time is
 * still counted (from the CPU's last switch, or its first event), but an interval whose start
 * is unknown is counted in no distribution.
 *
 * Recording (tstats_record(), for a replay: sim/scenario/scn_trace.c) also keeps each
 * thread's life as steps: the CPU time of each burst, the length of each sleep and who ended
 * it, and where inside a burst it woke another thread, from when its life in the trace
 * began. Memory then grows with the events.
 */
#ifndef CGSIM_SIM_REPLAY_TSTATS_H
#define CGSIM_SIM_REPLAY_TSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/replay/tread.h"

#define TSTATS_MAX_CPUS	4096
/* wakeup latencies by bucket: 16 per power of two, so a percentile is within 1/16 */
#define TSTATS_SUB	16
#define TSTATS_BUCKETS	(64 * TSTATS_SUB)

/* A recorded thread's life as steps (tstats_record()). */
enum tstats_step_kind {
	TSTATS_RUN,		/* @ns of CPU time */
	TSTATS_SLEEP,		/* @ns asleep until @at, ended by thread @pid (0: an interrupt or
				 * idle) */
	TSTATS_WAKE,		/* it woke thread @pid here, which was asleep */
};

struct tstats_step {
	uint64_t ns;
	uint64_t at;		/* SLEEP: when it ended, the wakeup's time in the trace */
	int32_t pid;
	unsigned life : 24;	/* @pid's life (struct tstats_thread.life), modulo 2^24 */
	unsigned kind : 8;	/* enum tstats_step_kind */
};

#define TSTATS_MAX_STEPS	(16u << 20)	/* steps recorded in all: 384 MB */

struct tstats_thread {
	int32_t pid;
	int32_t tgid;		/* -1: the trace does not say (no TGID column, never a context) */
	unsigned life;		/* 0, or how many earlier threads had this pid (exited, reused) */
	char comm[TREAD_COMM];	/* the last one seen */
	uint64_t first_ns, last_ns;	/* its first and last event */
	uint64_t cpu_ns;
	uint64_t bursts, burst_ns;	/* bursts whose start and end are in the trace */
	uint64_t burst_max;
	uint64_t sleeps, sleep_ns;	/* likewise, sleeps */
	uint64_t sleep_max;
	uint64_t wakeups, lat_ns, lat_max;	/* wakeup latencies */
	uint32_t *lat_hist;	/* TSTATS_BUCKETS counts, allocated at the first latency */
	uint64_t preempts;	/* switched out still runnable */
	uint64_t wait_ns;	/* runnable, not running: from a wakeup or a preemption to the
				 * switch-in (to the end, for one still waiting there) */
	uint64_t migrations;	/* switched in on another CPU than last time */
	uint64_t woken_by_task;	/* wakeups another thread made (its context) */
	uint64_t woken_by_irq;	/* wakeups made in interrupt context, or from idle (pid 0) */
	bool exited;
	int prio;		/* the last priority the trace gave it (-1: none) */
	/* tstats_record(): from start_ns on, its bursts and sleeps in order (NULL: none) */
	uint64_t start_ns;
	const struct tstats_step *steps;
	size_t nsteps;
	bool open_end;		/* running or runnable at the end: its last burst had not ended */
	uint64_t open_wall_ns;	/* ...and had been under way this long, wall time, at the end */
};

struct tstats;

struct tstats *tstats_new(void);
void tstats_free(struct tstats *st);

/*
 * tstats_record() - from now on, keep every thread's bursts and sleeps as steps (what a replay
 * runs; memory then grows with the events). Before the first tstats_add().
 */
void tstats_record(struct tstats *st);

/*
 * tstats_add() - one event. 0, -ENOMEM, -EINVAL for a CPU beyond TSTATS_MAX_CPUS, or -E2BIG
 * when recording would keep more than TSTATS_MAX_STEPS steps.
 */
int tstats_add(struct tstats *st, const struct tread_event *ev);

/*
 * tstats_finish() - the end of the trace: a running thread's CPU time up to the last event,
 * and (recording) the burst under way as a last step. 0, -ENOMEM or -E2BIG.
 */
int tstats_finish(struct tstats *st);

size_t tstats_nthreads(const struct tstats *st);
/* The threads in the order they first appeared. */
const struct tstats_thread *tstats_thread(const struct tstats *st, size_t i);
/* The first and last timestamps, and the CPUs seen (the highest CPU number + 1). */
uint64_t tstats_first(const struct tstats *st);
uint64_t tstats_last(const struct tstats *st);
int tstats_ncpu(const struct tstats *st);
/*
 * tstats_unseen() - how many times a CPU switched from another thread than the one its last
 * switch put there: a switch-out the trace does not show. That thread's time there is not
 * counted (when it left is not known).
 */
uint64_t tstats_unseen(const struct tstats *st);
/* Events by kind (enum tread_kind). */
uint64_t tstats_events(const struct tstats *st, enum tread_kind kind);

/*
 * tstats_latency_q() - the @q quantile (0..1) of @t's wakeup latencies: the upper end of the
 * bucket it falls in (at most 1/16 above the true value, never below it), 0 with none.
 */
uint64_t tstats_latency_q(const struct tstats_thread *t, double q);

#endif /* CGSIM_SIM_REPLAY_TSTATS_H */
