/* SPDX-License-Identifier: MIT */
/*
 * sim/machine/machine_internal.h - what the files of the machine share, and nothing else includes.
 *
 * The machine (sim/machine/machine.h) is built and configured in machine.c, keeps the engine's events
 * in step with the scheduler and runs the behaviours in machine_events.c, follows the cgroup
 * model's notifications in machine_cgroup.c and keeps its measurements in machine_metrics.c.
 */
#ifndef CGSIM_SIM_MACHINE_INTERNAL_H
#define CGSIM_SIM_MACHINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/machine/machine.h"
#include "sim/util/util.h"

enum mstate {
	M_IDLE,		/* no behaviour, or not started */
	M_ASLEEP,	/* between activations */
	M_ACTIVE,	/* runnable with work to do */
	M_DONE,		/* stopped */
	M_BLOCKED,	/* waiting for a mutex (a lock step) */
	M_SUSPENDED,	/* waiting for another thread's resume step */
	M_WAITING,	/* waiting on a condition variable or at a barrier */
};

/*
 * Threads waiting on a synchronisation object, in the order they came (a ring of @cap), each
 * with the mutex it takes again when woken (a condition's; -1 for none).
 */
struct mwaiter {
	int tid;
	int mutex;
};

struct mqueue {
	struct mwaiter *v;
	size_t head, n, cap;
};

/* A mutex of lock and unlock steps: its holder (0: free; tids start at 1) and its waiters. */
struct mmutex {
	int owner;
	struct mqueue q;
};

/* A periodic timer of timer steps (rt-app's): its next expiry, once the first use set it. */
struct mtimer {
	bool init;
	uint64_t next;
};

/*
 * A thread's activations (a periodic behaviour's or timer steps'): apart from struct mthread
 * because most threads have none.
 */
struct mact {
	/* the activation under way: its record so far, whether its start is pending */
	struct sim_activation act;
	uint64_t act_exec0;		/* exec when it began */
	bool act_pending;		/* begun, not yet run */
	bool act_open;			/* a timer step's activation is under way */
	uint64_t next_idx;		/* the next activation's index */
	/* activations ended in the window (struct sim_thread_metrics) */
	uint64_t acts_done, acts_overrun, acts_missed;
	int64_t slack_min, slack_sum;
	struct sim_activation *acts;
	size_t nacts, capacts;
};

/* the words of a thread's own affinity mask */
#define M_AFFINITY_WORDS (SCHED_MAX_CPUS / 64)

struct mthread {
	struct sim_event ev;		/* next wakeup or stop */
	struct sim_machine *m;
	int tid;
	bool alive;
	bool has_spec;
	bool ran;			/* in sim_machine.ran: may have CPU time not credited */
	enum mstate state;
	/* what every switch in or out reads (refresh_cpu(), wait_hook()): with the above, one line */
	uint64_t target;		/* work value at which the current burst ends; UINT64_MAX: busy */
	struct mact *pa;		/* its activations; NULL until the first begins */
	/* waits ended by a switch-in (sched_set_wait_hook()), the longest and when it was */
	uint64_t waits, wait_sum, wait_max;
	uint64_t posts;		/* post steps waiting for its next suspend (a pipe's data) */
	/*
	 * Its behaviour, shared with the threads given an equal one (machine.c, share_behavior():
	 * a scenario's "count: 10000" is one behaviour, not 10,000 copies), phases included. What
	 * of the spec the thread changes as it runs (phase steps) is its own.
	 */
	const struct sim_behavior *b;
	int nice;
	enum sched_thread_policy policy;
	uint64_t slice_ns;
	uint64_t stop_ns;		/* 0: never */
	struct sim_rng rng;
	struct sim_rng noise;		/* the machine's wakeup noise (struct sim_wakeup_noise) */
	bool noise_ready;
	uint64_t due;			/* when the current sleep ends (the timer's target) */
	uint64_t next_period;
	size_t phase;
	uint32_t loop;
	uint32_t *repeats;		/* per step: a repeat step's passes so far (NULL: none) */
	struct mtimer *timers;		/* its own timers (timer steps not shared) */
	size_t ntimers;
	uint64_t t_first;		/* when its behaviour began: its timers' first base */
	uint64_t rt_end;		/* the end of the runtime step under way (0: none) */
	int relock;			/* the mutex to take again when it runs (-1: none) */
	/* metrics */
	int cgroup;			/* where it sits (for crediting CPU time) */
	int sid;			/* the scheduler task group it is in */
	bool has_affinity;		/* its own sched_setaffinity() mask, in @affinity */
	uint64_t *affinity;		/* M_AFFINITY_WORDS, allocated when first set */
	int session;			/* its session's key (default: its process's pid) */
	uint64_t credited;		/* exec already credited to cgroups */
	uint64_t base_exec, base_wait, base_sw, base_pre, base_mig, activations;
	uint64_t *lat;
	size_t nlat, caplat;
	uint64_t seen;			/* latency samples offered (nlat of them are kept) */
	uint64_t lat_max;
	uint64_t lat_min;		/* the smallest of the seen latencies (0 when none) */
	uint64_t lat_sum;		/* the seen latencies' sum, for their exact mean */
	uint64_t delayed;		/* latencies over SIM_DELAYED_NS */
	/*
	 * Its start (the scheduler's new-task wakeup, the kernel's sched_wakeup_new) is not a
	 * wakeup: @started once it began (activate() counts no activation for it); @start_lat
	 * until its first switch-in, whose latency sample is the start's and is dropped. Never
	 * reset with the window: a start before it stays a start.
	 */
	bool started, start_lat;
	uint64_t overruns;		/* periodic activations that began after their period */
	uint64_t wait_max_since, wait_max_at;	/* the longest wait's start and end */
};

/* the fields every switch reads, up to @target, fit the struct's first 64 bytes */
_Static_assert(offsetof(struct mthread, target) + sizeof(uint64_t) <= 64,
	       "struct mthread: what a switch reads no longer fits one line");

/* An autogroup: the hidden task group of one session (kernel/sched/autogroup.c). */
struct msession {
	int key;		/* the caller's session number */
	int nice;
	int sid;		/* its task group, -1 until a thread needs it */
};

struct mcpu {
	struct sim_event ev;		/* current burst ends */
	struct sim_event steal_ev;	/* the hypervisor's next turn (noise.steal) */
	struct sim_machine *m;
	int id;
	int tid;			/* whose burst ev is for, -1 */
};

struct sim_machine {
	struct sim_engine eng;
	struct sched *s;
	struct cg_hier *h;
	uint64_t seed;
	struct sim_wakeup_noise noise;
	uint64_t steal_ns;		/* each turn of the hypervisor on a busy CPU (noise.steal) */
	uint64_t phase_ns;		/* noise.tick_phase's offset */
	uint64_t tick_ns;
	bool has_noise;			/* any of it is not zero */
	bool threads_set;		/* sim_machine_set_thread() was called */
	int ncpu;
	struct mcpu *cpu;
	struct mthread **thr;
	int nthr;
	struct sim_event tick_ev;
	uint64_t *cg_cpu;		/* CPU time credited per cgroup id in the window (own threads) */
	uint64_t *cg_total;		/* the same since the start (cpu.stat) */
	int ncg;
	uint64_t window_start;
	struct sched_stats base_st;
	uint64_t base_events;
	/*
	 * The threads that may have run since the last sim_machine_cgroup_cpu_all(): switched in
	 * since, or running then. Only they can have CPU time not yet credited to a cgroup, so
	 * a sample costs the cgroups plus these, not every thread (docs/event-engine.md).
	 */
	int *ran;
	size_t nran, capran;
	size_t lat_keep;		/* latency samples kept per thread at most */
	size_t act_keep;		/* activation records kept per thread at most */
	/*
	 * Scheduler task group ids: cgroups get theirs in creation order, autogroups after, so
	 * that the ids stay dense (sid_of_cg[cgroup id], -1 for a cgroup with no cpu css).
	 */
	int *sid_of_cg;
	int nsid_of_cg;
	int next_sid;
	bool autogroup;
	struct msession *sessions;
	size_t nsessions, capsessions;
	struct util_imap session_ix;	/* session number -> index in sessions[] */
	struct trace *trace;		/* NULL: not traced */
	/* synchronisation objects by sim_phase.obj, grown as steps name them */
	struct mmutex *mutex;
	size_t nmutex;
	struct mqueue *cond;
	size_t ncond;
	struct mqueue *barrier;
	size_t nbarrier;
	struct mtimer *timer;		/* shared timers */
	size_t ntimer;
	struct sim_step_failure *fails;	/* cgroup steps refused */
	size_t nfails, capfails;
	struct sim_behavior **behav;	/* the threads' behaviours, each with its own phases */
	size_t nbehav, capbehav;
	int err;
};

/* The behaviour of a thread not given one (SIM_BEHAV_NONE: it never runs). */
extern const struct sim_behavior machine__no_behavior;

static inline struct mthread *machine__mt(const struct sim_machine *m, int tid)
{
	return tid >= 0 && tid < m->nthr ? m->thr[tid] : NULL;
}

static inline uint64_t machine__umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* @t + @d, or UINT64_MAX ("never") when that does not fit: a huge draw must not wrap to now. */
static inline uint64_t machine__later(uint64_t t, uint64_t d)
{
	return t > UINT64_MAX - d ? UINT64_MAX : t + d;
}

/* machine.c: a periodic activation begins at now, or ends at now */
void machine__activation_begin(struct sim_machine *m, struct mthread *t, uint64_t exec);
void machine__activation_end(struct sim_machine *m, struct mthread *t);
void machine__timer_activation(struct sim_machine *m, struct mthread *t, uint64_t due,
			       uint64_t period, bool sleeps);

/* machine.c: growth of the per-thread and per-cgroup arrays, errors */
void machine__credit(struct sim_machine *m, struct mthread *t);
void machine__ran(struct sim_machine *m, struct mthread *t);
int machine__ensure_cg(struct sim_machine *m, int id);
void machine__fail(struct sim_machine *m, int err);

/* machine_events.c: the events in step with the scheduler, the behaviours */
void machine__thread_event(struct sim_engine *eng, struct sim_event *ev);
void machine__tick_event(struct sim_engine *eng, struct sim_event *ev);
void machine__cpu_event(struct sim_engine *eng, struct sim_event *ev);
void machine__steal_event(struct sim_engine *eng, struct sim_event *ev);
void machine__arm(struct sim_machine *m, struct sim_event *ev, uint64_t t);
void machine__sync(struct sim_machine *m);

/* machine_steps.c: the steps of a phases behaviour that take no time of their own */
/*
 * machine__step() - do step @p (index @i) of @t's: true when @t goes on with its next step at
 * once, false when it blocked (or woke nobody and must wait).
 */
bool machine__step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p, size_t i);
/* machine__relock() - @t, woken from a condition, takes its mutex again: false if it waits. */
bool machine__relock(struct sim_machine *m, struct mthread *t);
/* machine__timer_step() - true: @t sleeps until *@wake; false: the expiry passed, go on. */
bool machine__timer_step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p,
			 uint64_t *wake);
void machine__steps_free(struct sim_machine *m);

/* machine_cgroup.c: task groups, sessions and placement from the cgroup model */
void machine__observe(void *ctx, const struct cg_event *ev);
int machine__apply_cpus(struct sim_machine *m, struct mthread *t, uint64_t now);
/* @t's own affinity mask, allocated (zeroed) the first time; NULL when out of memory */
uint64_t *machine__affinity(struct mthread *t);
int machine__retarget(struct sim_machine *m, struct mthread *t, uint64_t now);
struct msession *machine__session_get(struct sim_machine *m, int key, int nice);
int machine__sid_of(const struct sim_machine *m, int cg);
/* machine__sid_reserve() - room in sid_of_cg[] for cgroup id @cg (new slots -1). */
int machine__sid_reserve(struct sim_machine *m, int cg);
int machine__tg_add(struct sim_machine *m, int cg, int parent, uint64_t now);
struct mthread *machine__thread_add(struct sim_machine *m, int tid, uint64_t now);

/* machine_metrics.c: CPU time credited, cpu.stat */
void machine__stat_provider(void *ctx, int cgroup, struct cg_cpu_stat *out);

#endif /* CGSIM_SIM_MACHINE_INTERNAL_H */
