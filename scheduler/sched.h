/* SPDX-License-Identifier: MIT */
/*
 * scheduler/sched.h - the hierarchical fair scheduler: per-CPU runqueues of scheduling entities,
 * task groups with one entity and one queue per CPU, the policies CFS (before Linux 6.6) and
 * EEVDF (6.6 and later), group shares from PELT-style load averages, wakeup CPU selection and
 * load balancing, ticks with exact elision, and the overhead cost model. docs/scheduler.md says
 * how each piece maps to the kernel.
 *
 * The scheduler is passive: it owns no clock and no event queue. Its driver (sim/machine/machine.c)
 * calls it with the current time whenever something happens (a thread wakes, blocks, moves; a
 * tick is due) and asks it when it next needs to be called for each CPU (sched_next_tick()).
 * Time never goes backwards between calls. After every call the driver drains
 * sched_pop_changed() to learn which CPUs changed what they run or when they next need a tick.
 *
 * Identifiers: task groups and threads are named by the caller's small non-negative integers
 * (the cgroup model's cgroup ids and tids). Task group 0 is the root and always exists.
 *
 * Errors: functions that can fail return 0 or a negative errno (-EINVAL for a bad argument,
 * -ENOENT for an unknown id, -EEXIST for a duplicate, -ENOMEM).
 */
#ifndef CGSIM_SCHEDULER_SCHED_H
#define CGSIM_SCHEDULER_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scheduler/topology.h"
#include "scheduler/weight.h"

#define SCHED_MAX_CPUS		TOPO_MAX_CPUS

enum sched_policy {
	SCHED_POLICY_EEVDF,	/* Linux 6.6-7.2: EEVDF, one tree per group queue */
	SCHED_POLICY_CFS,	/* Linux 5.13-6.5 */
	SCHED_POLICY_EEVDF_FLAT,	/* Linux 7.3 and later: EEVDF, one tree of tasks per CPU */
};

/*
 * cgroup_mode (Linux 7.3+, /sys/kernel/debug/sched/cgroup_mode): what a group's weight means on
 * each CPU, i.e. the numerator and the upper clamp calc_group_shares() applies to the shared
 * load fraction. In the kernel's order (the debugfs file's index). Before 7.3 every kernel
 * computes SMP.
 */
enum sched_cgroup_mode {
	SCHED_CGROUP_UP,	/* the group's shares on every CPU, no fraction */
	SCHED_CGROUP_SMP,	/* shares x fraction, clamp shares: the pre-7.3 arithmetic */
	SCHED_CGROUP_CONCUR,	/* min(tasks, cpus) x shares x fraction: the 7.3 default */
	SCHED_CGROUP_MAX,	/* cpus x shares x fraction, clamp a nice -20 weight */
	SCHED_CGROUP_TASKS,	/* tasks x shares x fraction */
	SCHED_CGROUP_NR
};

/*
 * A kernel release: MAJOR.MINOR.PATCH ("6.12.65"; "6.12.0" is the release 6.12), or, with
 * PATCH SCHED_KERNEL_SERIES, the series MAJOR.MINOR ("6.12") at its newest stable release
 * modelled (docs/kernels.md).
 */
struct sched_kernel {
	uint16_t major, minor, patch;
};

#define SCHED_KERNEL_SERIES	UINT16_MAX
#define SCHED_KERNEL_NAME_MAX	24	/* "65535.65535.65535" and its NUL */

/*
 * Scheduler features, by the names of kernel/sched/features.h: SCHED_FEAT_PLACE_LAG, ...,
 * listed with their defaults per policy in scheduler/features.h (sched_feat_default()).
 */
enum sched_feat {
#define SCHED_FEAT(name, eevdf, cfs) SCHED_FEAT_##name,
#include "scheduler/features.h"
#undef SCHED_FEAT
	SCHED_FEAT_NR
};

/* sysctl_sched_tunable_scaling: how the base tunables grow with the number of CPUs. */
enum sched_scaling {
	SCHED_SCALING_NONE = 0,		/* factor 1 */
	SCHED_SCALING_LOG = 1,		/* factor 1 + ilog2(min(cpus, 8)): the default */
	SCHED_SCALING_LINEAR = 2,	/* factor min(cpus, 8) */
};

/*
 * Tunables, by the kernel's names (debugfs /sys/kernel/debug/sched/ without the _ns suffix).
 * The four marked "scaled" are the normalized values: the scheduler multiplies them by the
 * scaling factor, as update_sysctl() does.
 */
struct sched_tunables {
	uint64_t base_slice_ns;		/* scaled; EEVDF request size. 0.70 ms (6.15+) */
	uint64_t latency_ns;		/* scaled; CFS sched_latency. 6 ms */
	uint64_t min_granularity_ns;	/* scaled; CFS sched_min_granularity. 0.75 ms */
	uint64_t wakeup_granularity_ns;	/* scaled; CFS sched_wakeup_granularity. 1 ms */
	uint64_t migration_cost_ns;	/* cache-hot window for the balancer. 0.5 ms */
	uint32_t nr_migrate;		/* most tasks moved per balance pass. 32 */
	enum sched_scaling tunable_scaling;
	uint32_t hz;			/* tick frequency: 100, 250, 300 or 1000 (any 1..10000) */
};

/*
 * The overhead model: simulated CPU time the scheduler itself consumes, charged to the CPU
 * (not to any thread) and delaying whatever runs next on it. An event costs its base, plus
 * walk_ns for each level of hierarchy its for_each_sched_entity() loops visit (whether or not
 * the entity there changes), plus level_ns for each entity it enqueues, dequeues, puts or sets
 * (a "level operation", on top of that level's visit). docs/overhead.md says what each event
 * walks and gives the source of every default.
 */
struct sched_costs {
	uint64_t switch_ns;	/* each context switch (pick + switch_to), without its levels */
	uint64_t wakeup_ns;	/* each wakeup (select_task_rq + ttwu), without its levels */
	uint64_t sleep_ns;	/* each block, without its levels */
	uint64_t tick_ns;	/* each tick on a busy CPU, without its levels */
	uint64_t level_ns;	/* each level operation (entity enqueued, dequeued, put or set) */
	uint64_t walk_ns;	/* each level an event's loops visit */
};

struct sched_config {
	/*
	 * The machine (struct topo_machine, docs/topology.md): its CPUs and its shape, from
	 * which sched_new() builds the scheduling domains; sched_config_default() gives one LLC
	 * of single-thread cores, and sched_new() refuses what topo_machine_check() refuses.
	 */
	struct topo_machine machine;
	/* the kernel modelled: where the defaults below came from (docs/kernels.md) */
	struct sched_kernel kernel;
	enum sched_policy policy;
	enum sched_cgroup_mode cgroup_mode;	/* SMP before 7.3 */
	bool feat[SCHED_FEAT_NR];
	struct sched_tunables tun;
	struct sched_costs cost;
	bool tick_elision;		/* skip ticks that cannot change anything (default on) */
	bool timeline_array;		/* middle-sized timelines as sorted arrays (default on) */
	bool check;			/* run sched_check() after every call; abort on failure */
	/*
	 * Load tracking and balancing mechanisms (docs/scheduler.md, "Load tracking"), each on
	 * by default as the kernel has it; off only to measure what one changes.
	 */
	bool load_attach;		/* load averages move with tasks and new weights */
	bool blocked_load;		/* idle group queues decay before balancing */
	/*
	 * NI_RANDOM's starting success ratio of new-idle balancing, per 1024, for every domain
	 * of every CPU: the kernel's sd_init() gives 512 at boot; a machine that has run a while
	 * carries what its own new-idle balances left (docs/scheduler.md, "New-idle balancing").
	 */
	uint32_t newidle_ratio;
	/*
	 * Not a kernel rule: the timing irregularity of a real machine (docs/scheduler.md,
	 * "Timing jitter"): CPUs whose ticks fall at the same time process them in an order
	 * drawn anew for every tick time, and each periodic balance comes a tick early or late
	 * now and then, all drawn from @seed. Off, CPUs tick in CPU order and balance
	 * perfectly periodically.
	 */
	bool jitter;
	uint64_t seed;
};

/*
 * The kernel versions modelled (scheduler/kernels.c, docs/kernels.md): one table from 5.13 to
 * 7.3 mapping a version to its policy, its cgroup_mode and its feature and tunable defaults.
 *
 * sched_kernel_parse() - "MAJOR.MINOR" (the series, patch SCHED_KERNEL_SERIES) or
 * "MAJOR.MINOR.PATCH", decimal without leading zeros; -EINVAL otherwise. Whether cgsim models
 * that version is sched_config_kernel()'s to say.
 * sched_kernel_name() - the reverse, into @buf (SCHED_KERNEL_NAME_MAX bytes are enough); @buf.
 * sched_kernel_cmp() - <0, 0, >0 as @a is older than, the same as, newer than @b; a series
 * after each of its releases.
 * sched_kernel_newest() - the newest version modelled: the series 7.3.
 * sched_kernels_modelled() - the series modelled in words: "5.13-5.19, 6.0-6.19, 7.0-7.3".
 * sched_kernel_has_cgroup_mode() - whether @k has /sys/kernel/debug/sched/cgroup_mode (7.3+);
 * before it, every kernel computes SCHED_CGROUP_SMP.
 * sched_kernel_source() - the release or commit that makes @k's defaults; NULL if not modelled.
 */
int sched_kernel_parse(const char *s, struct sched_kernel *out);
char *sched_kernel_name(struct sched_kernel k, char *buf, size_t len);
int sched_kernel_cmp(struct sched_kernel a, struct sched_kernel b);
struct sched_kernel sched_kernel_newest(void);
const char *sched_kernels_modelled(void);
bool sched_kernel_has_cgroup_mode(struct sched_kernel k);
const char *sched_kernel_source(struct sched_kernel k);

/*
 * sched_config_kernel() - the defaults of kernel @k on @cpus CPUs (one LLC of single-thread
 * cores): its policy, cgroup_mode, features and tunables; -EINVAL, @cfg untouched, for a
 * version not modelled.
 * sched_config_set_policy() - run @p instead of the version's policy: the features become
 * those of the nearest kernel that ran @p (the newest at or before @cfg->kernel, else the
 * oldest after it); the tunables and the cgroup_mode stay the version's.
 * sched_config_default() - sched_config_kernel() of 6.18 with sched_config_set_policy(@policy):
 * what the unit tests and benches take.
 */
int sched_config_kernel(struct sched_config *cfg, struct sched_kernel k, int cpus);
void sched_config_set_policy(struct sched_config *cfg, enum sched_policy p);
void sched_config_default(struct sched_config *cfg, enum sched_policy policy, int cpus);
/*
 * sched_config_overrides() - what @cfg changes from its kernel's defaults, by name: "policy",
 * "cgroup_mode", then features (sched_feat_name()) and tunables (sched_tunable_set()'s names;
 * hz is the machine's) in their order; a feature that comes with an overridden policy is not
 * one. Up to @max names into @names; the count, whatever fits.
 * sched_config_describe() - "kernel 7.3 (eevdf-flat, cgroup_mode concur)", then ",
 * overridden: policy, ..." if anything is, into @buf: what every report says of the kernel
 * modelled. Its length, or -ENOSPC when cut short.
 */
size_t sched_config_overrides(const struct sched_config *cfg, const char **names, size_t max);
int sched_config_describe(const struct sched_config *cfg, char *buf, size_t len);
/*
 * sched_config_rebase() - @cfg as kernel @k runs it: what @cfg takes from its own kernel's
 * defaults (policy, cgroup_mode, each feature and tunable) becomes @k's, what it overrides
 * stays; everything else (machine, costs, seed, ...) is left alone. What validate does when
 * the kernel that ran is not the one the scenario models. -EINVAL if either kernel is not
 * modelled, or @cfg overrides a cgroup_mode other than smp and @k has none (@cfg unchanged).
 */
int sched_config_rebase(struct sched_config *cfg, struct sched_kernel k);

const char *sched_policy_name(enum sched_policy p);
/* sched_cgroup_mode_name() - "up", "smp", "concur", "max", "tasks"; _parse() the reverse. */
const char *sched_cgroup_mode_name(enum sched_cgroup_mode m);
int sched_cgroup_mode_parse(const char *name, enum sched_cgroup_mode *out);
/* sched_policy_parse() - "eevdf", "cfs" or "eevdf-flat"; -EINVAL otherwise. */
int sched_policy_parse(const char *name, enum sched_policy *out);
/* sched_feat_name() - "PLACE_LAG" etc.; sched_feat_parse() the reverse (-EINVAL). */
const char *sched_feat_name(enum sched_feat f);
int sched_feat_parse(const char *name, enum sched_feat *out);
bool sched_feat_default(enum sched_feat f, enum sched_policy p);
/*
 * sched_tunable_set() - set the tunable called @name ("base_slice", "latency",
 * "min_granularity", "wakeup_granularity", "migration_cost", "nr_migrate", "tunable_scaling",
 * "hz") to @value (ns for times). -EINVAL for an unknown name, -ERANGE for a value out of range.
 */
int sched_tunable_set(struct sched_tunables *t, const char *name, uint64_t value);
/* sched_scaling_factor() - the factor update_sysctl() applies for @cpus CPUs. */
unsigned sched_scaling_factor(enum sched_scaling s, int cpus);

/* sched_nice_weight() - sched_prio_to_weight[nice + 20]; sched_nice_wmult() its inverse. */
uint32_t sched_nice_weight(int nice);
uint32_t sched_nice_wmult(int nice);

struct sched;

/* sched_new() - @cfg->machine with every CPU idle and the root task group. NULL: -ENOMEM. */
struct sched *sched_new(const struct sched_config *cfg);
void sched_free(struct sched *s);
const struct sched_config *sched_config(const struct sched *s);

/* -------- task groups (the cgroup model's cpu view) -------- */

/*
 * sched_tg_new() - task group @id under task group @parent, weight @weight (1024 = cpu.weight 100)
 * and idle flag @idle. Its per-CPU queues start empty.
 */
int sched_tg_new(struct sched *s, int id, int parent, uint32_t weight, bool idle, uint64_t now);
/* sched_tg_set() - change a group's weight and idle flag (sched_group_set_shares/_idle). */
int sched_tg_set(struct sched *s, int id, uint32_t weight, bool idle, uint64_t now);
/* sched_tg_free() - remove an empty group: no thread, no child group (-EBUSY otherwise). */
int sched_tg_free(struct sched *s, int id, uint64_t now);

/*
 * sched_tg_set_cpus() - the number of CPUs task group @id may use, for the cgroup modes that
 * scale a group's weight by them (Linux 7.3's tg_cpus(): max, concur): @ncpus CPUs, or 0 for
 * no restriction (all the machine's CPUs, the kernel's num_online_cpus()). The driver gives
 * what the kernel's cpuset_num_cpus() gives for the group's cgroup: on cgroup v2 the size of
 * its effective cpuset (that of its nearest ancestor with a cpuset, else all CPUs); on v1
 * always 0, since the kernel then counts the online CPUs whatever the separate cpuset
 * hierarchy says. The threads' affinities are set apart (sched_thread_set_affinity()). Not for
 * the root group. 0, -ENOENT, or -EINVAL for the root or @ncpus out of 0 .. cpus.
 */
int sched_tg_set_cpus(struct sched *s, int id, int ncpus, uint64_t now);

/*
 * sched_tg_set_bandwidth() - the group's cpu.max and cpu.max.burst: @quota_ns of CPU time per
 * @period_ns (UINT64_MAX quota: no limit), and up to @burst_ns more saved from idle periods
 * (tg_set_cfs_bandwidth). The pool starts full.
 */
int sched_tg_set_bandwidth(struct sched *s, int id, uint64_t quota_ns, uint64_t period_ns,
			   uint64_t burst_ns, uint64_t now);

/* A task group as the scheduler holds it: its place in the tree and what it is scheduled by. */
struct sched_tg_info {
	int parent;		/* the parent group's id, -1 for the root */
	uint32_t weight;	/* tg->shares unscaled: WEIGHT_IDLEPRIO while idle, 1024 the root */
	bool idle;
	uint64_t quota_ns;	/* UINT64_MAX: no limit */
	uint64_t period_ns;
};
/* sched_tg_info() - group @id; -ENOENT when there is none (never made, or freed). */
int sched_tg_info(const struct sched *s, int id, struct sched_tg_info *out);
/* sched_tg_end() - a bound on the group ids: every group's id is below it. */
int sched_tg_end(const struct sched *s);

/* cpu.stat's bandwidth counters of a group. */
struct sched_bw_stats {
	uint64_t nr_periods;	/* periods in which the group was active */
	uint64_t nr_throttled;	/* of which it had a throttled queue at the refill */
	uint64_t throttled_ns;	/* time its queues spent throttled, summed over CPUs */
	uint64_t nr_bursts;	/* periods that used more than the quota (burst) */
	uint64_t burst_ns;	/* how much more */
};
int sched_tg_bw_stats(const struct sched *s, int id, struct sched_bw_stats *out);

/* -------- threads -------- */

/* Per-thread scheduling policy (SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE). */
enum sched_thread_policy {
	SCHED_THREAD_NORMAL,
	SCHED_THREAD_BATCH,
	SCHED_THREAD_IDLE,
};

/*
 * sched_thread_new() - thread @tid in task group @tg, not yet runnable. @slice_ns 0 means the
 * base slice; otherwise a custom slice (sched_attr.sched_runtime, clamped to 0.1..100 ms).
 * The first sched_wakeup() places it as a new task (fork placement).
 */
int sched_thread_new(struct sched *s, int tid, int tg, int nice, uint64_t slice_ns,
		     uint64_t now);
int sched_thread_set_nice(struct sched *s, int tid, int nice, uint64_t now);
/*
 * sched_thread_set_slice() - a custom slice (sched_attr.sched_runtime, clamped to 0.1..100 ms);
 * 0 returns to the base slice. It applies from the thread's next request (deadline).
 */
int sched_thread_set_slice(struct sched *s, int tid, uint64_t slice_ns, uint64_t now);
int sched_thread_set_policy(struct sched *s, int tid, enum sched_thread_policy pol, uint64_t now);
/*
 * sched_thread_set_affinity() - the CPUs @tid may run on, as a bitmap of @nwords 64-bit words
 * (CPU c is bit c % 64 of word c / 64). -EINVAL if it names no existing CPU. A thread running or
 * queued on a CPU it may no longer use is moved at once.
 */
int sched_thread_set_affinity(struct sched *s, int tid, const uint64_t *mask, size_t nwords,
			      uint64_t now);
/* sched_thread_move() - the thread's cgroup moved it to task group @tg (sched_move_task). */
int sched_thread_move(struct sched *s, int tid, int tg, uint64_t now);
/* sched_thread_exit() - the thread is gone; it may have been running, queued or asleep. */
int sched_thread_exit(struct sched *s, int tid, uint64_t now);
/* sched_wakeup() - a sleeping (or new) thread becomes runnable; no-op if it already is. */
int sched_wakeup(struct sched *s, int tid, uint64_t now);
/*
 * sched_wakeup_timed() - sched_wakeup() for a wakeup the machine delivered late: the thread was
 * due to wake at @due (<= @now; its wakeup latency counts from there), and if the CPU it is
 * woken on is idle, that CPU first spends @idle_exit_ns leaving its idle state before it runs
 * anything (not scheduler overhead: the CPU is simply not running tasks yet).
 */
int sched_wakeup_timed(struct sched *s, int tid, uint64_t now, uint64_t due,
		       uint64_t idle_exit_ns);
/*
 * sched_wakeup_by() - sched_wakeup_timed() for a thread that thread @waker wakes (a mutex handed
 * over, a resume): no timer between them, so the latency counts from @now, and if @waker is
 * running, its CPU takes part in choosing the wakee's (wake_affine(): WA_IDLE, WA_WEIGHT,
 * WA_BIAS). @idle_exit_ns as for sched_wakeup_timed().
 */
int sched_wakeup_by(struct sched *s, int tid, int waker, uint64_t now, uint64_t idle_exit_ns);
/* sched_sleep() - a runnable thread blocks (normally the running one); no-op if asleep. */
int sched_sleep(struct sched *s, int tid, uint64_t now);
/*
 * sched_thread_yield() - the running thread @tid calls sched_yield(2) (do_sched_yield(): the
 * class's yield_task(), then schedule()); it stays runnable. Alone on its CPU (no other task
 * runnable or delayed there) nothing changes. Otherwise EEVDF (6.18) pushes its deadline one
 * slice later (deadline += vslice) and CFS (6.5) makes it the skip buddy of its queue and of
 * each queue above, and the CPU picks anew: another thread runs if the policy's pick prefers
 * it (docs/scheduler.md). No-op returning 0 for a thread that is not running (queued or
 * asleep: it has no CPU to give up, as when a tick at @now preempted it first); -ENOENT for
 * no thread @tid. (Not named sched_yield: libc's sched_yield(2) has that name.)
 */
int sched_thread_yield(struct sched *s, int tid, uint64_t now);

/* -------- driving -------- */

/*
 * sched_advance() - bring every CPU up to @now: process each tick due at or before @now that
 * can change anything, in time order, and account the others. The driver calls it when the
 * time sched_next_tick() gave for some CPU has come.
 */
void sched_advance(struct sched *s, uint64_t now);
/*
 * sched_next_tick() - the next time CPU @cpu needs sched_advance(): its next tick that can
 * change something (every tick when elision is off); UINT64_MAX when the CPU is idle (NOHZ).
 */
uint64_t sched_next_tick(const struct sched *s, int cpu);
/* sched_next_tick_min() - the earliest sched_next_tick() over all CPUs. */
uint64_t sched_next_tick_min(const struct sched *s);
/* sched_pop_changed() - a CPU whose current thread or next tick changed since last asked; -1. */
int sched_pop_changed(struct sched *s);
/* sched_cpu_curr() - the thread running (or about to run) on @cpu, -1 when idle. */
int sched_cpu_curr(const struct sched *s, int cpu);
/*
 * sched_cpu_finish_time() - when the thread running on @cpu will have executed @work_ns more
 * than it had at @now, counting the overhead already charged and the tick costs to come, if it
 * keeps the CPU. UINT64_MAX if @cpu is idle or on overflow.
 */
uint64_t sched_cpu_finish_time(struct sched *s, int cpu, uint64_t now, uint64_t work_ns);

/* -------- what happened -------- */

struct sched_thread_stats {
	uint64_t sum_exec_ns;	/* CPU time received (accounted up to the last call) */
	uint64_t wait_ns;	/* time runnable but not running */
	uint64_t switches;	/* times it was switched in */
	uint64_t preempted;	/* times it was switched out while still runnable */
	uint64_t migrations;	/* times it changed CPU */
	int cpu;		/* its CPU (last CPU when asleep), -1 before it first ran */
	bool runnable;
	bool running;
};
int sched_thread_stats(const struct sched *s, int tid, struct sched_thread_stats *out);
/*
 * sched_thread_tg() - the task group thread @tid is in, and in *@weight (may be NULL) the weight
 * it is scheduled by: its nice's, or WEIGHT_IDLEPRIO under SCHED_IDLE. -ENOENT for no thread.
 */
int sched_thread_tg(const struct sched *s, int tid, uint32_t *weight);
/*
 * sched_thread_exec() - the thread's CPU time at @now (including the part not yet accounted):
 * what the kernel's sum_exec_runtime counts, the scheduler's time spent while it was on the CPU
 * included (docs/scheduler.md, "Overhead model").
 */
uint64_t sched_thread_exec(const struct sched *s, int tid, uint64_t now);
/*
 * sched_thread_wait() - the thread's time runnable and not running at @now, the wait under way
 * included up to @now: waits read at two instants cover exactly the time between them.
 */
uint64_t sched_thread_wait(const struct sched *s, int tid, uint64_t now);
/*
 * sched_thread_work() - the thread's own progress at @now: its CPU time less the scheduler's
 * (the time its bursts of work have had).
 */
uint64_t sched_thread_work(const struct sched *s, int tid, uint64_t now);

struct sched_stats {
	uint64_t overhead_ns;		/* CPU time spent in the scheduler, all CPUs */
	uint64_t level_ops;		/* hierarchy level operations, all CPUs */
	uint64_t level_walks;		/* hierarchy levels visited by events, all CPUs */
	uint64_t switches;		/* context switches, to and from idle included (nr_switches) */
	uint64_t migrations;		/* thread moves between CPUs (wakeup, balance, affinity) */
	uint64_t ticks;			/* ticks on busy CPUs, processed or elided */
	uint64_t ticks_processed;	/* of which processed */
	uint64_t balance_runs;		/* periodic and new-idle balance passes */
	uint64_t steal_ns;		/* time the hypervisor took from busy CPUs (sched_steal()) */
};
void sched_stats(const struct sched *s, struct sched_stats *out);
/*
 * sched_steal() - steal time: from @now the hypervisor runs something else on @cpu for @ns. The
 * thread on it neither progresses nor is charged for that time (CONFIG_PARAVIRT_TIME_ACCOUNTING:
 * rq->clock_task leaves steal out), so its vruntime, slice and quota stand still. Nothing
 * happens on an idle CPU (a halted vCPU does not wait to run). 0, or -EINVAL.
 */
int sched_steal(struct sched *s, int cpu, uint64_t now, uint64_t ns);
/* sched_cpu_overhead() - overhead time charged to @cpu so far. */
uint64_t sched_cpu_overhead(const struct sched *s, int cpu);

/* Wakeup latency samples (wakeup to first run), for the driver's metrics. */
typedef void sched_latency_fn(void *ctx, int tid, uint64_t latency_ns);
void sched_set_latency_hook(struct sched *s, sched_latency_fn *fn, void *ctx);

/*
 * The kernel's sched tracepoints, for a trace of the run (sim/trace/). @cpu is the CPU the event
 * happens on, in whose running task's context the kernel would record it: the CPU switching;
 * for a wakeup, the CPU the sleeper last ran on (where its timer fires), or the target for a
 * new thread; for a balancer's move, the CPU that pulls; for a move forced by an affinity or
 * cgroup change, the CPU the thread leaves. @prio is the kernel's p->prio: 120 + nice.
 */
enum sched_trace_kind {
	SCHED_TRACE_SWITCH,	/* sched_switch: @prev (-1: idle) leaves @cpu to @tid (-1: idle) */
	SCHED_TRACE_WAKING,	/* sched_waking: the wakeup of @tid begins */
	SCHED_TRACE_WAKEUP,	/* sched_wakeup: @tid is queued on @dest_cpu */
	SCHED_TRACE_WAKEUP_NEW,	/* sched_wakeup_new: a new @tid is queued on @dest_cpu */
	SCHED_TRACE_MIGRATE,	/* sched_migrate_task: @tid moves from @orig_cpu to @dest_cpu */
};

enum sched_trace_state {
	SCHED_TRACE_PREEMPTED,	/* still runnable: "R" */
	SCHED_TRACE_SLEEPING,	/* blocked in an interruptible sleep: "S" */
	SCHED_TRACE_EXITED,	/* gone: "Z" or "X" */
};

struct sched_trace_event {
	enum sched_trace_kind kind;
	uint64_t at;
	int cpu;
	int tid, prio;
	int prev, prev_prio;			/* SWITCH */
	enum sched_trace_state prev_state;	/* SWITCH, when @prev is a thread */
	int orig_cpu, dest_cpu;			/* MIGRATE; WAKING/WAKEUP: dest_cpu only */
	bool irq;	/* WAKING, WAKEUP, MIGRATE: a timer's wakeup (an interrupt), not a thread's */
};
typedef void sched_trace_fn(void *ctx, const struct sched_trace_event *ev);
/* sched_set_trace_hook() - call @fn for every event from now on; NULL stops. */
void sched_set_trace_hook(struct sched *s, sched_trace_fn *fn, void *ctx);

/*
 * Every wait that a switch-in ends (perf sched latency's "delay"): thread @tid was runnable and
 * not running from @since (its wakeup, or its preemption) and runs from @at. Waits ended by a
 * sleep (a thread dequeued while it waited) are not reported.
 */
typedef void sched_wait_fn(void *ctx, int tid, uint64_t since, uint64_t at);
void sched_set_wait_hook(struct sched *s, sched_wait_fn *fn, void *ctx);

/*
 * sched_group_weight() - the weight of task group @tg's entity on @cpu (what calc_group_shares
 * gave it last), in units where 1024 is nice 0. For tests and reports.
 */
uint64_t sched_group_weight(const struct sched *s, int tg, int cpu);

/*
 * sched_check() - verify every invariant (docs/scheduler.md "Invariants"): tree order and
 * cached leftmost, augmented minima, load and count sums, each runnable thread queued on exactly
 * one CPU in its group's queue, Σ key·weight == avg_vruntime per EEVDF queue, monotonic
 * min_vruntime. Returns 0, or -EUCLEAN and writes what failed into @why (may be NULL). It
 * changes nothing the scheduler reads: its only write is its own memory of each queue's
 * min_vruntime, for the next call.
 */
int sched_check(struct sched *s, char *why, size_t len);

#endif /* CGSIM_SCHEDULER_SCHED_H */
