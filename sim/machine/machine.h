/* SPDX-License-Identifier: MIT */
/*
 * sim/machine/machine.h - a simulated machine: the event engine, the scheduler and the cgroup model
 * wired together, with a behaviour (workload) per thread and the metrics of a run.
 *
 * The cgroup hierarchy is the source of truth for who is where: the machine builds the
 * scheduler's task groups and threads from it when created, then follows its observer events
 * (a thread moved, a weight changed, a group created or removed) while the run goes on. A
 * thread runs nothing until sim_machine_set_thread() gives it a behaviour.
 *
 * Determinism: the same hierarchy, specs, configuration and seed give the same run, event for
 * event. Each thread draws from its own random streams (the index its spec gives), so a change
 * in one thread's draws never shifts another's.
 */
#ifndef CGSIM_SIM_MACHINE_H
#define CGSIM_SIM_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "cgroup/cgroup.h"
#include "scheduler/sched.h"
#include "sim/engine/event.h"
#include "sim/engine/rng.h"
#include "sim/workload/workload.h"

struct sim_machine;

/*
 * sim_machine_new() - a machine running @cfg's scheduler over hierarchy @h (which the machine
 * observes but does not own; it must outlive the machine). Returns NULL with *err set to a
 * negative errno on failure.
 */
struct sim_machine *sim_machine_new(const struct sched_config *cfg, struct cg_hier *h,
				    uint64_t seed, int *err);
void sim_machine_free(struct sim_machine *m);

/*
 * struct sim_wakeup_noise - what a real machine adds to a timed wakeup (docs/latency.md).
 * @timer:     from the moment a sleep ends to the wakeup (timer slack, the interrupt, ttwu);
 *             drawn for every sleep that ends, the wakeup latency counts from the sleep's end
 * @idle_exit: when the thread is woken on an idle CPU, the time that CPU takes to leave its
 *             idle state before it runs the thread; drawn for every timed wakeup
 * @tick_phase: the workload's clock is not in phase with the ticks: every behaviour starts
 *             later than its `start` by one offset in [0, tick period) drawn from the seed
 * @phase_ns:  that offset given instead (used when @tick_phase is false; taken modulo the tick)
 * @steal:     the share of a busy CPU's time a hypervisor runs something else (steal time, 0 ..
 *             0.5): every @steal_period_ns (1 ms .. 1 s) each busy CPU loses @steal of it at
 *             once (sched_steal()), at a phase of its own drawn from the seed
 * All zero (the default) is the ideal machine. Draws come from a stream of their own per
 * thread, so the noise never changes what a behaviour draws.
 */
struct sim_wakeup_noise {
	struct sim_dist timer;
	struct sim_dist idle_exit;
	bool tick_phase;
	uint64_t phase_ns;
	double steal;
	uint64_t steal_period_ns;
};

/* sim_machine_set_noise() - set before the first sim_machine_set_thread(); -EBUSY after. */
int sim_machine_set_noise(struct sim_machine *m, const struct sim_wakeup_noise *noise);

/* sim_machine_set_thread() - give thread @tid its behaviour; at most once per thread. */
int sim_machine_set_thread(struct sim_machine *m, int tid, const struct sim_thread_spec *spec);

/*
 * sim_machine_set_autogroup() - sched_autogroup_enabled: threads whose task group is the root
 * run in the hidden task group of their session (one per session, weight from the session's
 * nice, 1024 by default), as kernel/sched/autogroup.c does. Threads move at once.
 */
int sim_machine_set_autogroup(struct sim_machine *m, bool on);
/*
 * sim_machine_set_session() - put thread @tid in session @session (any number; by default
 * each thread is in its process's session, numbered by the pid) whose autogroup has nice
 * @nice. A session's nice is fixed once its autogroup exists (-EBUSY).
 */
int sim_machine_set_session(struct sim_machine *m, int tid, int session, int nice);

/*
 * sim_machine_run_until() - process every event up to and including time @t; the clock then
 * reads @t. Cgroup operations may be made on the hierarchy between two calls: they happen at
 * the current time. Returns 0 or a negative errno: -E2BIG when the limit of events set by
 * sim_machine_set_event_limit() is reached first (the machine is then of no further use).
 */
int sim_machine_run_until(struct sim_machine *m, uint64_t t);
/* sim_machine_set_event_limit() - fire at most @max events in the machine's life (0: no limit). */
void sim_machine_set_event_limit(struct sim_machine *m, uint64_t max);
uint64_t sim_machine_now(const struct sim_machine *m);

struct sched *sim_machine_sched(struct sim_machine *m);

struct trace;
/*
 * sim_machine_set_trace() - from now on, write every scheduler event to @tr (sim/trace/trace.h),
 * and each thread's move to another cgroup as a marker; NULL stops. @tr must outlive that.
 */
void sim_machine_set_trace(struct sim_machine *m, struct trace *tr);

/*
 * A cgroup step (SIM_STEP_CGROUP) that the cgroup model refused: the thread, the step's index
 * in its behaviour, the errno and the rule (cg_refusal()), the first time and how many times
 * (the thread stays where it is and tries again at each pass).
 */
struct sim_step_failure {
	int tid;
	size_t step;
	int err;
	enum cg_rule rule;
	uint64_t first_ns;
	uint64_t count;
};

/* sim_machine_step_failures() - the refused cgroup steps so far, in the order first seen. */
size_t sim_machine_step_failures(const struct sim_machine *m,
				 const struct sim_step_failure **out);

/* -------- metrics (over the window since the last sim_machine_reset_metrics()) -------- */

/*
 * sim_machine_set_latency_keep() - keep at most @keep wakeup latencies per thread (default
 * 2^20); beyond that a uniform reservoir sample of that size is kept, in memory bounded by
 * threads x @keep whatever the run's length.
 */
void sim_machine_set_latency_keep(struct sim_machine *m, size_t keep);

/*
 * One activation of a periodic thread, as rt-app logs it: its index since the thread started,
 * its period's start, when it began (its wakeup; the end of the previous one after an
 * overrun), when it first ran and when its run ended, the CPU time it got, its slack (the start
 * of the next period less its end: 0 or less when it overran) and the periods missed (periods
 * that began after it began and ended before it ended: no activation started in them).
 */
struct sim_activation {
	uint64_t idx, period_start, wakeup, start, end, run;
	int64_t slack;
	uint64_t missed;
};

/*
 * sim_machine_set_activation_keep() - keep at most @keep activation records per periodic
 * thread (default 2^16); beyond that a uniform reservoir sample of that size. The counts, the
 * least slack and the slacks' sum stay exact.
 */
void sim_machine_set_activation_keep(struct sim_machine *m, size_t keep);

/* sim_machine_reset_metrics() - start the measured window now (the end of the warm-up). */
void sim_machine_reset_metrics(struct sim_machine *m);

struct sim_thread_metrics {
	uint64_t cpu_ns;
	uint64_t wait_ns;		/* runnable, not running (to the last switch) */
	uint64_t switches;
	uint64_t preempted;
	uint64_t migrations;
	uint64_t activations;		/* wakeups from its behaviour */
	const uint64_t *latency;	/* wakeup latencies kept, in no particular order once */
	size_t nlatency;		/* more were seen than are kept (reservoir) */
	uint64_t latency_seen;		/* wakeup latencies measured */
	uint64_t latency_max;		/* the largest of them */
	uint64_t latency_min;		/* the smallest of them (0 when none) */
	uint64_t latency_sum;		/* their sum (exact, whatever the reservoir keeps) */
	uint64_t latency_delayed;	/* how many of them exceeded SIM_DELAYED_NS */
	uint64_t overruns;		/* periodic activations that started after their period */
	/*
	 * Waits that a switch-in ended in the window (perf sched latency's delays: from a wakeup
	 * or a preemption to the switch-in; one that began before the window counts whole): how
	 * many, their sum, the longest and when it began and ended (simulated time).
	 */
	uint64_t waits, wait_sum, wait_max, wait_max_since, wait_max_at;
	/*
	 * A periodic thread's activations that ended in the window (rt-app's view): how many,
	 * how many overran (ended at or after the start of the next period), the periods missed,
	 * the least slack and the slacks' sum; @acts: the records kept (a reservoir like the
	 * latencies', sim_machine_set_activation_keep()), in no particular order.
	 */
	uint64_t acts_done, acts_overrun, acts_missed;
	int64_t slack_min, slack_sum;
	const struct sim_activation *acts;
	size_t nacts;
};

/*
 * A wakeup is "delayed" when it waited more than this for the CPU: well above the wakeup floor
 * of a real machine (tens of microseconds), well below a tick. The live measurement
 * (tests/live/latency.sh) counts with the same threshold.
 */
#define SIM_DELAYED_NS 200000u
int sim_machine_thread_metrics(const struct sim_machine *m, int tid,
			       struct sim_thread_metrics *out);

/*
 * sim_machine_cgroup_cpu() - CPU time of cgroup @cgroup and its descendants in the window, as
 * cpu.stat's usage_usec counts it (time is credited to the cgroup a thread was in when it ran).
 */
uint64_t sim_machine_cgroup_cpu(const struct sim_machine *m, int cgroup);

/*
 * sim_machine_cgroup_cpu_all() - sim_machine_cgroup_cpu() of every cgroup id below @n at once,
 * into @out[0 .. n-1], in one pass. It credits the time of the threads that ran since the last
 * call to their cgroups on the way, so that a call costs the cgroups and those threads, not
 * every thread (a time-series sample of 100,000 mostly sleeping threads stays cheap).
 */
int sim_machine_cgroup_cpu_all(struct sim_machine *m, uint64_t *out, int n);

struct sim_machine_metrics {
	uint64_t window_ns;		/* length of the measured window */
	uint64_t overhead_ns;		/* scheduler overhead, all CPUs */
	uint64_t level_ops;		/* entities enqueued, dequeued, put or set */
	uint64_t level_walks;		/* levels the scheduler's events visited */
	uint64_t switches;
	uint64_t migrations;
	uint64_t ticks;
	uint64_t ticks_processed;
	uint64_t events;		/* engine events processed */
};
void sim_machine_metrics(const struct sim_machine *m, struct sim_machine_metrics *out);

#endif /* CGSIM_SIM_MACHINE_H */
