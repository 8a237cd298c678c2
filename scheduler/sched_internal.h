/* SPDX-License-Identifier: MIT */
/*
 * scheduler/sched_internal.h - the scheduler's data structures, shared by its .c files only.
 *
 * Virtual time is kept exactly: a vruntime is a signed 128-bit count of 2^-32 ns of nice-0
 * time. The kernel computes calc_delta_fair(delta, se) = (delta * 1024 * inv_weight) >> 32 and
 * so rounds at every update; keeping the 32 fraction bits makes the increment linear in delta,
 * so charging 3 ms at once or in three 1 ms ticks gives the same bits. That is what lets the
 * driver skip ticks without changing any result (docs/scheduler.md, "Tick elision").
 *
 * The shared types and helpers come first, then what each file defines for the others, under
 * that file's name.
 */
#ifndef CGSIM_SCHEDULER_SCHED_INTERNAL_H
#define CGSIM_SCHEDULER_SCHED_INTERNAL_H

#include "scheduler/rbtree.h"
#include "scheduler/sched.h"

/* ---- shared: virtual time, load units and the structures every file reads -------------------- */

__extension__ typedef __int128 sv_t;		/* virtual time, 2^-32 ns units */
#define SV_ONE_NS	((sv_t)1 << 32)

/* scale_load(): the kernel's load.weight carries 10 extra fraction bits on 64-bit. */
#define SCHED_LOAD_SHIFT	10
#define NICE_0_LOAD		((uint64_t)SCHED_NICE_0_WEIGHT << SCHED_LOAD_SHIFT)
#define MIN_SHARES		2u

/*
 * struct pelt - a PELT-style load average of one piecewise-constant signal x(t) (a queue's
 * load weight, in nice-0 = 1024 units). Time is cut into 1024 us periods; at each period end
 * sum = floor(sum * y) + (integral of x over the period in weight * us), y^32 = 1/2, and
 * avg = sum * 1024 / pelt_full where pelt_full is where sum settles for x = 1024. Everything
 * happens at period boundaries of absolute time and the integral is exact, so the result does
 * not depend on how often pelt_update() is called (docs/scheduler.md, "Load tracking").
 */
struct pelt {
	uint64_t sum;
	uint64_t acc;		/* integral of x over the current period so far, weight * ns */
	uint64_t period;	/* index of the current period */
	uint64_t last;		/* time of the last update */
	uint64_t x;		/* the signal since @last */
	uint64_t avg;
	bool x_changed;		/* x changed during the current period */
	bool settled;		/* the last boundary left sum unchanged under a constant x */
	/*
	 * ...and that period's integral was x's alone (nothing attached or taken away), so the
	 * sum is a fixed point of the series under x: the next boundary under x leaves it too
	 */
	bool fixed;
};

struct sched_cpu;
struct sched_tg;
struct sched_thread;

/*
 * The layouts of struct sched_entity and struct cfs_rq follow their hot paths: charging curr
 * and picking walk every level of a chain, so what those read comes first, by cache line.
 * Queues and group entities start on a line (lines.c allocates them so); a task's entity
 * starts its struct sched_thread, 16-byte aligned, which measured better for a flat layout
 * of many threads than aligning those too. Order matters for speed only.
 */
struct sched_entity {
	/* line 1: the tree walk (node, deadline) and the charge (vruntime) */
	struct rb_node node;
	int depth;			/* 0 for entities queued on the CPU's root queue */
	bool on_rq;
	bool custom_slice;
	bool rel_deadline;
	bool sched_delayed;
	sv_t vruntime;
	sv_t deadline;		/* EEVDF; relative while rel_deadline */
	/* line 2: the rest of the charge (update_curr() and the policy's check) and the walk up */
	sv_t inc;		/* vruntime per ns: 2^32 * 1024 / weight */
	sv_t vprot;		/* EEVDF: protected up to this vruntime (RUN_TO_PARITY) */
	uint64_t sum_exec;
	struct sched_entity *parent;	/* NULL at the top level */
	struct cfs_rq *cfs_rq;		/* the queue this entity is (or would be) on */
	uint64_t slice;		/* EEVDF request size, ns */
	/* line 3: the augmentation (read with line 1 in tree walks), the rest */
	sv_t min_vruntime;	/* EEVDF augmentation: min vruntime over the subtree */
	uint64_t min_slice;	/* augmentation: min slice over the subtree */
	struct cfs_rq *my_q;		/* group entities: the group's queue on this CPU */
	struct sched_thread *task;	/* task entities */
	uint64_t weight;	/* load.weight, scaled (<< 10) */
	uint64_t qseq;		/* when it entered the tree: the tie-breaker among equal keys */
	uint32_t wd;		/* scale_load_down(weight) */
	bool idle;			/* SCHED_IDLE task or idle group */
	/* colder */
	sv_t vlag;		/* EEVDF: V - v saved at dequeue */
	uint64_t prev_sum_exec;	/* CFS: sum_exec when last picked (its set_next() alone) */
	/*
	 * The flat pick (7.3, flat.c): a task's effective weight se->h_load, scaled, which the
	 * root's EEVDF sums use; @inc is then its rate. Recomputed only at the task's enqueue,
	 * pick and tick (and a nice change), so a queued task may hold a stale one.
	 */
	uint64_t h_load;
	/*
	 * The entity's runnable-time average (x = 1024 while on_rq): the kernel's se->avg with
	 * load_sum unweighted, so its load_avg is weight x avg / 1024. A task's is attached to
	 * the queue of its last CPU (its blocked load stays there while it sleeps); a group
	 * entity's always to its parent queue. Last: the hot paths do not touch it.
	 */
	struct pelt ravg;
};

/*
 * An entry of a timeline's array form (timeline.h): the entity, and (EEVDF) the least vruntime
 * and slice from this entry to the end of the array.
 */
struct sched_tl_ent {
	sv_t min_v;
	struct sched_entity *se;
	uint64_t min_slice;
};

struct cfs_rq {
	/*
	 * line 1: read at every charge, pick and tick of a level. The timeline (timeline.h):
	 * the queued entities except curr, in @tree or (from a few to a few dozen) the sorted
	 * array @tl.
	 */
	/* its first entity, NULL when empty: derivable from either form, kept here so that a
	 * pick reads it from this line instead of the array's or the tree's */
	struct sched_entity *tl_first;
	unsigned tl_n;			/* entities in the timeline, either form */
	unsigned nr_queued;		/* on_rq entities, curr and delayed included */
	struct sched_entity *curr;
	bool tl_tree;			/* the timeline is @tree (else @tl) */
	bool runtime_enabled;		/* bandwidth: the group has a finite quota */
	bool throttled;
	bool on_leaf;			/* in rq->leaf */
	sv_t min_vruntime;		/* monotonic; EEVDF's v0 */
	sv_t sum_w_vruntime;		/* EEVDF: Σ (v - v0) * wd over the timeline */
	/* line 2: queueing */
	int64_t sum_weight;		/* EEVDF: Σ wd over the timeline */
	uint64_t load;			/* Σ weight of on_rq entities, curr included */
	unsigned h_nr_runnable;		/* runnable tasks in this queue's subtree */
	unsigned h_nr_idle;		/* of which SCHED_IDLE or under an idle group */
	struct sched_entity *next, *last;
	struct sched_entity *skip;	/* CFS: the yielder to pass over (set_skip_buddy) */
	struct sched_entity *se;	/* the group's entity on this CPU (NULL for the root) */
	uint64_t qseq;			/* entries into the timeline so far (sched_entity.qseq) */
	/* line 3: the timeline's other parts, load tracking */
	struct sched_tl_ent *tl;	/* the array's first entry, inside tl_buf */
	struct sched_tl_ent *tl_buf;	/* room for the array, once the timeline has been one */
	unsigned tl_cap;		/* entries in tl_buf */
	bool tl_array_ok;		/* sched_config.timeline_array */
	struct rb_root_cached tree;
	struct sched_tg *tg;
	struct sched_cpu *rq;
	uint64_t tg_load_avg_contrib;
	uint64_t last_tg_update;
	struct pelt avg;
	sv_t check_min_v;		/* sched_check()'s memory of min_vruntime: its alone */
	/* bandwidth control (bandwidth.c) */
	int64_t runtime_remaining;	/* ns this queue may still run before asking the pool */
	uint64_t throttled_clock;	/* when it was throttled */
	struct cfs_rq *tnext;		/* next in the group's throttled list */
	/*
	 * 7.3's cgroup_mode (shares.c): the queue's runnable average (x = 1024 x h_nr_runnable,
	 * with the attached tasks' histories: cfs_rq->avg.runnable_avg) and what it last
	 * published of it to tg->runnable_avg. Kept only while s->tg_runnable; else all zero.
	 */
	struct pelt runnable;
	uint64_t tg_runnable_avg_contrib;
	/*
	 * The entity of this level on the running task's chain (the kernel's cfs_rq->h_curr),
	 * for the per-level accounting. @curr is the timeline's: the same under the hierarchical
	 * policies; under the flat pick the running task on the root queue, NULL elsewhere.
	 */
	struct sched_entity *h_curr;
};

/*
 * The layouts above, checked: a field named for a cache line (1 is the first, as the comments
 * count) lies wholly in it, so that a field added ahead of it fails the build here instead of
 * slowing a walk.
 */
#define SCHED_IN_LINE(type, field, line)                                                       \
	_Static_assert(offsetof(type, field) / 64 + 1 == (line) &&                              \
			       (offsetof(type, field) + sizeof(((type *)0)->field) - 1) / 64 + 1 == \
				       (line),                                                   \
		       #type "." #field " is not on cache line " #line)
/* the tree walk and the charge */
SCHED_IN_LINE(struct sched_entity, node, 1);
SCHED_IN_LINE(struct sched_entity, sched_delayed, 1);
SCHED_IN_LINE(struct sched_entity, vruntime, 1);
SCHED_IN_LINE(struct sched_entity, deadline, 1);
SCHED_IN_LINE(struct sched_entity, inc, 2);
SCHED_IN_LINE(struct sched_entity, vprot, 2);
SCHED_IN_LINE(struct sched_entity, sum_exec, 2);
SCHED_IN_LINE(struct sched_entity, parent, 2);
SCHED_IN_LINE(struct sched_entity, cfs_rq, 2);
SCHED_IN_LINE(struct sched_entity, slice, 2);
SCHED_IN_LINE(struct sched_entity, min_vruntime, 3);
SCHED_IN_LINE(struct sched_entity, my_q, 3);
SCHED_IN_LINE(struct sched_entity, weight, 3);
/* a level's charge, pick and tick */
SCHED_IN_LINE(struct cfs_rq, tl_first, 1);
SCHED_IN_LINE(struct cfs_rq, nr_queued, 1);
SCHED_IN_LINE(struct cfs_rq, curr, 1);
SCHED_IN_LINE(struct cfs_rq, min_vruntime, 1);
SCHED_IN_LINE(struct cfs_rq, sum_w_vruntime, 1);
SCHED_IN_LINE(struct cfs_rq, sum_weight, 2);
SCHED_IN_LINE(struct cfs_rq, load, 2);
SCHED_IN_LINE(struct cfs_rq, se, 2);
SCHED_IN_LINE(struct cfs_rq, qseq, 2);

struct sched_tg {
	int id;
	int nchildren;
	int nthreads;
	struct sched_tg *parent;
	uint64_t shares;		/* scaled */
	bool idle;
	bool alive;
	int64_t load_avg;		/* Σ tg_load_avg_contrib over CPUs */
	int64_t runnable_avg;		/* Σ tg_runnable_avg_contrib over CPUs (s->tg_runnable) */
	int ncpus;			/* its cpuset's CPUs, 0 for all (sched_tg_set_cpus()) */
	struct cfs_rq **cfs_rq;		/* per CPU */
	struct sched_entity **se;	/* per CPU; NULL for the root */
	uint64_t *on_chain;		/* CPUs whose running chain passes through this group */
	/* bandwidth control (cfs_bandwidth): quota UINT64_MAX is "max" */
	uint64_t quota, period, burst;
	int64_t runtime;		/* the global pool */
	uint64_t next_refill;		/* the period timer, when active */
	bool bw_active;			/* the period timer runs */
	bool bw_idle;			/* no runtime was handed out since the last refill */
	int64_t runtime_snap;		/* the pool right after the last refill (burst stats) */
	struct cfs_rq *throttled_head, *throttled_tail;
	struct sched_bw_stats bw;
};

struct sched_thread {
	struct sched_entity se;
	int tid;
	int nice;
	enum sched_thread_policy policy;
	struct sched_tg *tg;
	struct sched_cpu *cpu;		/* the CPU it is queued on, or ran on last */
	uint64_t *affinity;		/* bitmap, s->mask_words words */
	uint64_t wake_time;		/* when it last became runnable */
	uint64_t wait_start;		/* when it last became runnable-but-not-running */
	bool alive;
	bool runnable;			/* wants the CPU (queued or running, not delayed) */
	bool new_task;			/* never ran: the next wakeup is a fork placement */
	bool attached;			/* se.ravg is part of se.cfs_rq's load average */
	uint64_t util_moved;		/* the utilisation it took along when last attached */
	bool latency_pending;		/* woke and has not run since */
	bool exiting;			/* its last switch out is its exit */
	uint64_t last_ran;		/* when it was last switched out, for cache hotness */
	uint64_t work;			/* its own progress: se.sum_exec less the scheduler's time */
	/* se.sum_exec counts its CPU time up to charged_to, which can be ahead of the clock (a
	 * charge runs to the end of the scheduler's work in progress); its charges since
	 * charged_since have been one unbroken stretch */
	uint64_t charged_since, charged_to;
	/* record_wakee(): the last thread it woke, and how often that changed (halved each second) */
	int last_wakee;
	int recent_used_cpu;		/* p->recent_used_cpu: the previous CPU at a busy wakeup */
	uint32_t wakee_flips;
	uint64_t wakee_flip_decay;
	struct sched_thread *lprev, *lnext;	/* the CPU's queued-task list (rq->cfs_tasks) */
	bool on_list;
	struct sched_thread_stats st;
};

/*
 * A sched group of a domain, with its sched_group_capacity: shared by every CPU whose domain
 * has it, as the kernel shares them (scheduler/sd.c).
 */
struct sched_sg {
	int *cpus;		/* its CPUs, ascending */
	int weight;		/* group_weight */
	int cores;		/* SMT cores among them (sg->cores) */
	unsigned flags;		/* the child domain's SD_* flags; 0 at a CPU's lowest domain */
	uint64_t capacity;	/* SCHED_CAPACITY_SCALE a CPU: no RT, IRQ or thermal pressure */
	bool imbalance;		/* sgc->imbalance: pinned tasks kept its CPUs from balance */
};

/* A scheduling domain, what its CPUs share of it: the span, flags and groups. */
struct sched_dom {
	char name[8];
	unsigned flags;		/* 1u << enum topo_flag */
	int weight;		/* span_weight */
	int *cpus;		/* its span, ascending */
	uint64_t *span;		/* the same as a mask of s->mask_words words */
	unsigned imbalance_pct, cache_nice_tries, imb_numa_nr;
	int nr_idle_scan;	/* an LLC's sd_llc_shared->nr_idle_scan: CPUs a wakeup may scan */
	int ngroups;
	struct sched_sg **groups;	/* by first CPU; the kernel's ring from any of them */
};

/* A domain as one CPU holds it: the per-CPU part of struct sched_domain. */
struct sched_sd {
	struct sched_dom *d;
	int local;			/* the index of the CPU's group in d->groups */
	uint64_t balance_interval;	/* ns: min_interval .. max_interval (doubling) */
	/*
	 * Its last periodic balance; the next is due at last + the interval of the CPU as it is
	 * then, busy or idle (rebalance_domains()' last_balance + get_sd_balance_interval()),
	 * moved by @jitter ticks (-1, 0 or +1, drawn at each balance; 0 without jitter).
	 */
	uint64_t last;
	int jitter;
	uint32_t nr_balance_failed;
	/* NI_RANDOM: new-idle balances counted and weighted successes, halved every 1024 */
	uint32_t newidle_call, newidle_success, newidle_ratio;
};

struct sched_cpu {
	int id;
	struct cfs_rq *cfs;		/* the root group's queue: rq->cfs */
	struct sched_thread *curr;
	uint64_t exec_start;		/* curr progresses from here; pushed by overhead */
	uint64_t charge_from;		/* curr is charged from here (the kernel's exec_start) */
	uint64_t overhead;
	uint64_t last_tick;		/* the last grid tick accounted (processed or elided) */
	uint64_t next_tick;		/* the next tick that must be processed */
	uint64_t tie;			/* order among CPUs whose next ticks coincide */
	uint64_t dirty_from;		/* ticks at or after this time are significant */
	uint64_t next_balance;		/* the earliest of its domains' next periodic balances */
	struct sched_sd *sd;		/* its domains, lowest first (scheduler/sd.c) */
	int nsd;
	int llc;			/* sd_llc: its highest SD_SHARE_LLC domain, -1 none */
	int llc_id;			/* sd_llc_id: the first CPU of its LLC (itself without one) */
	unsigned nr_running;		/* runnable tasks on this CPU */
	bool resched;
	bool changed;			/* queued in s->changed */
	bool need_plan;			/* queued in s->replan */
	struct sched_thread *lhead, *ltail;	/* queued tasks, most recently picked first */
	/* the CPU's utilisation and runnable averages (x = 1024 while running, 1024 per task) */
	struct pelt util, runnable;
	uint64_t last_blocked;		/* last update_blocked_averages() */
	uint64_t ni_rng;		/* NI_RANDOM's dice: the kernel's per-CPU sched_rng() */
	struct cfs_rq **leaf;		/* group queues still carrying load (leaf_cfs_rq_list) */
	int nleaf, capleaf;
};

struct sched_policy_ops;

/* queues and group entities by cache line, from chunks on huge pages (lines.c) */
#define SCHED_LINES_CLASSES 4
struct sched_lines {
	void *chunks;			/* the chunks, a list through each one's first line */
	char *cur;			/* the free part of the newest chunk */
	size_t left;
	size_t next_size;		/* the next chunk's size (0: the first, 64 KiB) */
	int nclass;
	size_t class_size[SCHED_LINES_CLASSES];	/* object sizes in whole lines */
	void *free[SCHED_LINES_CLASSES];	/* freed objects of each size */
};

struct sched {
	struct sched_config cfg;
	const struct sched_policy_ops *ops;
	unsigned factor;
	uint64_t base_slice, latency, min_gran, wakeup_gran;	/* scaled by factor */
	unsigned nr_latency;
	uint64_t tick_ns;		/* TICK_NSEC */
	int ncpu;
	size_t mask_words;
	struct sched_cpu *cpu;
	struct sched_tg **tg;		/* by id */
	int ntg;
	struct sched_thread **thr;	/* by tid */
	int nthr;
	uint64_t now;			/* the last time the scheduler was called with */
	int *changed;			/* stack of CPUs with ->changed set */
	int nchanged;
	int *replan;			/* stack of CPUs with ->need_plan set */
	int nreplan;
	struct sched_theap *theap;	/* CPUs by next tick (a binary min-heap) */
	int *hpos;			/* each CPU's index in theap (apart: sifting writes it) */
	int tmin;			/* few CPUs: the one whose tick is next, -1 unknown */
	uint64_t *all_mask;
	/*
	 * CPUs with nothing running (bit c: cpu[c].curr == NULL), kept with nr_idle. Until a
	 * SCHED_IDLE task or an idle group exists (@any_idle, never cleared), they are exactly
	 * the CPUs select_idle_sibling() takes as idle, so wakeup placement reads the mask
	 * instead of asking each CPU.
	 */
	uint64_t *idle_mask;
	/*
	 * CPUs a group's new published load must visit (sched__rq_dirty_quiet()): bit c set
	 * when, as cpu[c]'s last plan() left it, its next tick or its dirty_from lies past the
	 * grid tick after its last one. A CPU whose bit is clear already ticks at that grid tick
	 * and is dirty from no later: marking it could change neither. The bit may stay set
	 * after the CPU no longer needs it (last_tick moves on, dirty_from falls), never the
	 * reverse: next_tick rises only in plan(), dirty_from only there and at a processed
	 * tick (to just past it, which replans), and sched__finish() refreshes the bit after
	 * each plan once a group exists (all set until then). A publication then reads a word
	 * of bits per 64 CPUs, not a line of each CPU the group spans (docs/scheduler.md,
	 * "Ticks and their elision").
	 */
	uint64_t *mark_mask;
	bool any_group;			/* a group was ever made (never cleared) */
	/*
	 * Each group queue keeps its runnable average and publishes it to tg->runnable_avg
	 * with its load (Linux 7.3+, or a cgroup_mode that reads tg_tasks()): shares.c,
	 * sched__tracks_tg_runnable().
	 */
	bool tg_runnable;
	bool any_idle;
	struct sched_stats st;
	sched_latency_fn *latency_fn;
	void *latency_ctx;
	sched_trace_fn *trace_fn;
	void *trace_ctx;
	sched_wait_fn *wait_fn;
	void *wait_ctx;
	bool in_tick;
	struct sched_tg **bw_tgs;	/* groups with a finite quota */
	int nbw, capbw;
	bool idle_changed;		/* some CPU went idle or busy: replan all */
	int nr_idle;			/* CPUs with nothing running */
	uint64_t nohz_next;		/* next NOHZ idle balance */
	uint64_t nohz_blocked_next;	/* next NOHZ update of idle CPUs' blocked load */
	bool nohz_has_blocked;		/* some idle CPU may still carry blocked load */
	uint64_t jitter;		/* the balance-timing jitter stream (balance_domains.c) */
	/* the domains (scheduler/sd.c): shared objects, freed with the machine */
	struct sched_dom **doms;
	int ndoms;
	struct sched_sg **sgs;
	int nsgs;
	int threads;			/* SMT threads per core: a CPU's core is id / threads */
	struct sched_lines lines;
	bool multi_llc_or_smt;		/* more than one LLC, or SMT: the NOHZ busy-LLC kick */
	struct sched_sd *sd_all;	/* every CPU's sched_sd, rq->sd points into it */
};

/*
 * The policy: the functions that differ between CFS and EEVDF. Everything else (the
 * hierarchy walk, the load sums, shares, balancing, ticks, costs) is common.
 */
struct sched_policy_ops {
	/*
	 * What the policy's queues keep and which kernel rules apply, for the common code: it
	 * asks these, never which policy is in use.
	 */
	bool augmented;		/* tree nodes carry their subtree's min_vruntime, min_slice */
	bool deadlines;		/* virtual deadlines, lag, eligibility and the Σw, Σw·v sums;
				 * DELAY_DEQUEUE applies (EEVDF) */
	bool cfs_buddies;	/* the pre-6.6 buddies: next marked early on wakeup, last for
				 * the preempted, both cache hot to the balancer (CFS) */
	bool keep_empty_weight;	/* update_cfs_group() leaves a group entity whose queue is
				 * empty at its weight, for DELAY_DEQUEUE (6.13+, 6.12.y) */
	bool flat;		/* 7.3's flat pick: only tasks in a tree, the CPU's root one, by
				 * their effective weight h_load; group queues account only */
	/* tree order */
	rb_less_fn *less;
	/* place @se on @cfs_rq before enqueue; @initial for a new task, @wakeup after a sleep */
	void (*place)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se,
		      bool initial, bool wakeup);
	/* entity leaves @cfs_rq; @sleep for a sleep, else a migration or a move */
	void (*dequeued)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se,
			 bool sleep);
	/* the best entity of @cfs_rq (curr included when on_rq) */
	struct sched_entity *(*pick)(struct sched *s, struct cfs_rq *cfs_rq);
	/* @se was picked to run (set_next_entity) */
	void (*set_next)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se);
	/* curr of @cfs_rq was charged; return true to reschedule (update_curr's tail) */
	bool (*charged)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *curr);
	/* tick at one level; return true to reschedule */
	bool (*tick)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *curr);
	/* the earliest time (ns from now, given the entity's progress rate) at which tick() on
	 * this level could return true or change state; UINT64_MAX for never */
	uint64_t (*tick_horizon)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *curr);
	/* wakeup preemption at the common level: should @pse preempt @se? */
	bool (*wakeup_preempt)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se,
			       struct sched_entity *pse);
	/*
	 * yield_task_fair() after its update_curr(): what sched_thread_yield() does to the
	 * running task's entity @se on its queue @cfs_rq before the CPU reschedules
	 */
	void (*yield)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se);
	/* a sleeping entity moves from queue @from to queue @to (another CPU or group) */
	void (*migrate)(struct sched *s, struct cfs_rq *from, struct cfs_rq *to,
			struct sched_entity *se);
	/* set the weight of a queued or sleeping entity (load sums are the caller's) */
	void (*reweight)(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se,
			 uint64_t weight, uint32_t wmult);
	/* the queue's min_vruntime moved by @delta (for the EEVDF sums) */
	void (*v0_moved)(struct cfs_rq *cfs_rq, sv_t delta);
	/* insert/remove in the tree (and the EEVDF sums) */
	void (*tree_add)(struct cfs_rq *cfs_rq, struct sched_entity *se);
	void (*tree_del)(struct cfs_rq *cfs_rq, struct sched_entity *se);
};

/* ---- shared: small helpers and the types several files pass around --------------------------- */

#define NSEC_PER_MSEC	1000000ull

static inline uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline uint64_t grid_ceil(const struct sched *s, uint64_t t)
{
	uint64_t P = s->tick_ns;

	if (t > UINT64_MAX - P)
		return UINT64_MAX;
	return (t + P - 1) / P * P;
}

static inline uint64_t grid_floor(const struct sched *s, uint64_t t)
{
	return t / s->tick_ns * s->tick_ns;
}

/* splitmix64's finaliser: a well-mixed 64-bit hash (the timing jitter's draws). */
static inline uint64_t sched__mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* idle_cpu(): nothing running, nothing queued */
static inline bool idle_cpu(const struct sched_cpu *rq)
{
	return !rq->curr && !rq->nr_running;
}

static inline bool cpu_allowed(const struct sched_thread *t, int cpu)
{
	return (t->affinity[cpu / 64] >> (cpu % 64)) & 1;
}

static inline unsigned levels_of(const struct sched_thread *t)
{
	return (unsigned)t->se.depth + 1;
}

static inline struct sched_entity *sched__se_of(const struct rb_node *n)
{
	return rb_entry(n, struct sched_entity, node);
}

/*
 * EEVDF's tree order, the hierarchical queues' and the flat root's: deadline, then the order of
 * insertion. rb_add_cached() sends a key equal to one in the tree to the right, so among equal
 * deadlines the entity queued first is picked first; the kernel's curr-vs-tree comparisons
 * (entity_before) are strict, see pick_eevdf().
 */
static inline bool sched__less_deadline(const struct rb_node *a, const struct rb_node *b)
{
	const struct sched_entity *x = sched__se_of(a), *y = sched__se_of(b);

	if (x->deadline != y->deadline)
		return x->deadline < y->deadline;
	return x->qseq < y->qseq;
}

/* ---- scheduler/timeline.[ch]: a queue's queued entities but curr, in the policy's order ---- */

/* sched__tl_add(), sched__tl_del(), sched__tl_next(): scheduler/timeline.h, the policies'. */

/* sched__tl_init() - an empty timeline. */
void sched__tl_init(struct cfs_rq *q);
/* sched__tl_free() - release the array (the queue is going away). */
void sched__tl_free(struct cfs_rq *q);

static inline struct sched_entity *sched__first(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->tl_first;
}

/* The least vruntime and the least slice in a non-empty timeline (EEVDF keeps them). */
static inline sv_t sched__tl_min_vruntime(const struct cfs_rq *q)
{
	return q->tl_tree ? sched__se_of(q->tree.root)->min_vruntime : q->tl[0].min_v;
}

static inline uint64_t sched__tl_min_slice(const struct cfs_rq *q)
{
	return q->tl_tree ? sched__se_of(q->tree.root)->min_slice : q->tl[0].min_slice;
}

static inline bool sched__feat(const struct sched *s, enum sched_feat f)
{
	return s->cfg.feat[f];
}

/*
 * Up to this many CPUs the heap of next ticks is not worth its upkeep: the next tick is the
 * least of a few, found by a scan when the CPU that had it moves it (sched.tmin).
 */
#define THEAP_MIN_CPUS	8
/*
 * A heap slot carries a copy of its CPU's key, so that sifting compares within the heap's own
 * few cache lines instead of loading a struct sched_cpu per comparison (with 64 CPUs ticking
 * together that was most of the replanning's time).
 */
struct sched_theap {
	uint64_t tick;			/* = cpu[cpu].next_tick */
	uint64_t tie;			/* = cpu[cpu].tie */
	int cpu;
};
/*
 * What an event did to the hierarchy, for the overhead model: @ops entities enqueued,
 * dequeued, put or set (level operations), @walks levels its loops visited, those included.
 */
struct sched_walk {
	unsigned ops, walks;
};

static inline void walk_add(struct sched_walk *w, struct sched_walk more)
{
	w->ops += more.ops;
	w->walks += more.walks;
}

/* ---- scheduler/pelt.c: the load averages ----------------------------------------------------- */

#define PELT_PERIOD_NS	1024000ull
/*
 * Where sum settles for x = 1024: the fixed point of sum = floor(sum * y) + 1024 * 1024 with
 * y = 0xfa83b2da / 2^32 (test_sched_load.c iterates to it). A constant, so that averages
 * divide by it with a multiply.
 */
#define PELT_FULL	48934946ull

void pelt_init(struct pelt *p, uint64_t now);
void pelt__cross(struct pelt *p, uint64_t now);
/*
 * pelt_update() - bring @p to @now. Most calls find it there already or still in its open
 * period, which costs a compare or a multiply-add here; crossing a period end is pelt__cross().
 */
static inline void pelt_update(struct pelt *p, uint64_t now)
{
	if (now <= p->last)
		return;
	if (now < (p->period + 1) * PELT_PERIOD_NS) {
		p->acc += p->x * (now - p->last);
		p->last = now;
		return;
	}
	pelt__cross(p, now);
}
/* pelt_set() - update to @now, then the signal becomes @x */
void pelt_set(struct pelt *p, uint64_t now, uint64_t x);
/* pelt_stable() - would the average stay what it is while x stays constant? (A sum a boundary
 * left unchanged only by chance, with an attached history in its period, would not.) */
static inline bool pelt_stable(const struct pelt *p)
{
	return p->fixed && !p->x_changed;
}
uint64_t pelt_full(void);
void pelt_init_full(struct pelt *p, uint64_t now);
void pelt_attach(struct pelt *q, const struct pelt *r, uint64_t w, bool sub);
void pelt_set_runnable(struct pelt *p, uint64_t sum);
void pelt_add_avg(struct pelt *p, uint64_t avg, bool sub);
void pelt_reweight(struct pelt *q, const struct pelt *r, uint64_t w0, uint64_t w1);
void pelt_update_event(struct pelt *p, uint64_t now);
void pelt_set_event(struct pelt *p, uint64_t now, uint64_t x);

/* ---- scheduler/fair.c: the fair class, what CFS and EEVDF share ----------------------------- */

sv_t calc_delta_fair(uint64_t delta_ns, const struct sched_entity *se);
uint64_t sched__sv_to_ns_ceil(sv_t v, const struct sched_entity *se);
void sched__set_weight(struct sched_entity *se, uint64_t weight, uint32_t wmult);
void update_min_vruntime(struct sched *s, struct cfs_rq *cfs_rq);
sv_t avg_vruntime(const struct cfs_rq *cfs_rq);
/* x * num / den for num, den > 0, truncated toward zero: a reweight's rescaling, in 64-bit
 * divisions where the values allow */
sv_t sched__scale_sv(sv_t x, uint64_t num, uint64_t den);
bool entity_eligible(const struct cfs_rq *cfs_rq, const struct sched_entity *se);
uint64_t sched_slice(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se);
void clear_buddies(struct sched_entity *se);
void set_next_buddy(struct sched_entity *se);

/* ---- scheduler/eevdf.c, scheduler/cfs.c: the two policies ------------------------------------ */

/*
 * EEVDF's rules that both EEVDF policies apply alike (eevdf.c), the flat root's weights being
 * the entities' own there: v0's move in the sums, cfs_rq_min_slice(), entity_lag(),
 * set_protect_slice() and update_deadline() as the kernel names them.
 */
void sched__eevdf_v0_moved(struct cfs_rq *cfs_rq, sv_t delta);
uint64_t cfs_rq_min_slice(const struct cfs_rq *q);
sv_t entity_lag(struct sched *s, sv_t V, const struct sched_entity *se);
void set_protect_slice(struct sched *s, struct cfs_rq *q, struct sched_entity *se);
bool update_deadline(struct sched *s, struct sched_entity *se);

/* protect_slice(): curr is still inside the part of its request protected from preemption */
static inline bool protect_slice(const struct sched_entity *se)
{
	return se->vruntime < se->vprot;
}


extern const struct sched_policy_ops sched_eevdf_ops;
extern const struct sched_policy_ops sched_cfs_ops;
extern const struct sched_policy_ops sched_flat_ops;

/* ---- scheduler/flat.c: the flat pick's root queue (Linux 7.3, docs/scheduler.md) ---------- */

/* the root tree's task count, the kernel's rq->cfs.h_nr_queued: the tree and an on_rq curr */
static inline unsigned sched__flat_nr(const struct cfs_rq *root)
{
	return root->tl_n + (root->curr && root->curr->on_rq);
}

/* @se's task is on its root queue's books: in the tree or its curr */
static inline bool sched__flat_in(const struct cfs_rq *root, const struct sched_entity *se)
{
	return root->curr == se || !rb_node_is_clear(&se->node);
}

/* a task's h_load and rate (the kernel's update_load_set() of se->h_load) */
void sched__flat_set_h(struct sched_entity *se, uint64_t h_load);
/* the effective weight of @se's task, __calc_prop_weight() from the task up */
uint64_t sched__h_load(const struct sched_entity *se);
/* enqueue_task_fair()'s tail: h_load, placement (@initial: a new task's), the root tree */
void sched__flat_enqueue(struct sched *s, struct sched_thread *t, bool initial);
/* __dequeue_task()'s root part, before the hierarchy: lag, buddy, the tree; @sleep as given */
void sched__flat_dequeue(struct sched *s, struct sched_thread *t, bool sleep);
/* entity_eligible() on the root queue */
bool sched__flat_eligible(const struct sched_thread *t);
/* requeue_delayed_entity() on the root queue */
void sched__flat_requeue(struct sched *s, struct sched_thread *t);
/* put_prev_task_fair()'s and set_next_task_fair()'s root parts */
void sched__flat_put_prev(struct sched *s, struct sched_thread *t);
void sched__flat_set_next(struct sched *s, struct sched_thread *t);
/* task_tick_fair()'s and reweight_task_fair()'s recomputation of h_load */
void sched__flat_reweight(struct sched *s, struct sched_thread *t);
/* throttling: the tasks below @q leave the root queue's books, or come back */
void sched__flat_throttle(struct sched *s, struct cfs_rq *q);
void sched__flat_unthrottle(struct sched *s, struct cfs_rq *q);

/* ---- scheduler/lines.c: where queues and group entities live ------------------------------- */

/* zeroed, on whole cache lines; NULL when out of memory */
void *sched__lines_alloc(struct sched *s, size_t size);
/* @size as given to sched__lines_alloc() */
void sched__lines_free(struct sched *s, void *p, size_t size);
/* every chunk, with sched_free() */
void sched__lines_release(struct sched *s);

/*
 * A group's queue and its entity on one CPU are one allocation, the entity right after the
 * queue's whole lines (sched__tg_alloc()): a pick that has an entity in hand can start fetching
 * the queue it stands for before the entity itself has arrived (sched__prefetch_my_q()).
 */
#define SCHED_RQ_BYTES	((sizeof(struct cfs_rq) + 63) / 64 * 64)
#define SCHED_PAIR_BYTES	(SCHED_RQ_BYTES + sizeof(struct sched_entity))

/*
 * Fetch @se's group queue ahead of reading se->my_q, from where the pair puts it. For a task's
 * entity the address is some line of other memory, which a prefetch may name harmlessly (it
 * never faults); the integer arithmetic keeps that out of C's pointer rules.
 */
static inline void sched__prefetch_my_q(const struct sched_entity *se)
{
	__builtin_prefetch((const void *)((uintptr_t)se - SCHED_RQ_BYTES));
}

/* ---- scheduler/core.c: the machine and its population ---------------------------------------- */

/* The trace hook's events (core.c); each does nothing while no hook is set. */
void sched__trace_switch(struct sched *s, struct sched_cpu *rq, const struct sched_thread *prev,
			 const struct sched_thread *next, uint64_t now);
void sched__trace_task(struct sched *s, enum sched_trace_kind kind, int cpu, bool irq,
		       const struct sched_thread *t, int orig_cpu, int dest_cpu, uint64_t now);
struct sched_thread *sched__thr_get(const struct sched *s, int tid);
/* grow the zeroed array *@arr of *@n elements until index @need fits; -ENOMEM */
int sched__grow(void **arr, int *n, int need, size_t elem);
void sched__relocate(struct sched *s, struct sched_thread *t, struct sched_cpu *dst, uint64_t now);
/* also moves @t's load average with it (migrate_task_rq_fair's detach and attach) */
void set_task_cpu(struct sched *s, struct sched_thread *t, struct sched_cpu *rq, uint64_t now);
void sched__idle_count(struct sched *s, struct sched_cpu *rq, int d);
/* __schedule(): pick and switch on @rq; @detached already left it while running */
void schedule(struct sched *s, struct sched_cpu *rq, uint64_t now, struct sched_thread *detached);
void sched__resched_if_needed(struct sched *s, struct sched_cpu *rq, uint64_t now);

/* ---- scheduler/group.c: task groups, their queues and entities per CPU ----------------------- */

/* the live group @id, or NULL */
struct sched_tg *sched__tg_get(const struct sched *s, int id);
/* sched_create_group() with alloc_fair_sched_group(): the group, a queue per CPU and, below
 * the root, an entity per CPU; NULL when out of memory */
struct sched_tg *sched__tg_alloc(struct sched *s, int id, struct sched_tg *parent,
				 uint32_t weight, bool idle, uint64_t now);
/* free_fair_sched_group() with sched_free_group(); NULL is nothing */
void sched__tg_release(struct sched *s, struct sched_tg *tg);

/* ---- scheduler/fair.c: the hierarchy walks, picking and preemption --------------------------- */

bool sched__account_runnable(struct sched_entity *se, int d, bool idle);
/* the kernel's with @initial for ENQUEUE_INITIAL and @wakeup for ENQUEUE_WAKEUP; returns the
 * work done for the overhead model */
struct sched_walk enqueue_task_fair(struct sched *s, struct sched_thread *t, bool initial,
				    bool wakeup, uint64_t now);
/* @sleep for DEQUEUE_SLEEP; @runnable_counted when the task is still in h_nr_runnable */
struct sched_walk dequeue_task_fair(struct sched *s, struct sched_thread *t, bool sleep,
				    bool runnable_counted, uint64_t now);
bool sched__try_delay_dequeue(struct sched *s, struct sched_thread *t);
struct sched_walk sched__finish_delayed(struct sched *s, struct sched_thread *t, uint64_t now);
void sched__requeue_delayed(struct sched *s, struct sched_thread *t, uint64_t now);
/* puts every level of @t's chain (no next to stop at); returns the levels put */
unsigned put_prev_task_fair(struct sched *s, struct sched_thread *t);
/* pick_task_fair(): @rq's next task, a delayed entity picked leaving on the way; @w counts */
struct sched_thread *pick_task_fair(struct sched *s, struct sched_cpu *rq, uint64_t now,
				    struct sched_walk *w);
/* pick_next_task_fair()'s switch: put @prev's levels and set @next's where they differ */
unsigned sched__switch_chains(struct sched *s, struct sched_thread *prev,
			      struct sched_thread *next);
void sched__tasks_move_head(struct sched_cpu *rq, struct sched_thread *t);
/* check_preempt_wakeup_fair() before 6.19; @fork for a new task (WF_FORK) */
void wakeup_preempt_fair(struct sched *s, struct sched_cpu *rq, struct sched_thread *p, bool fork);
/* for throttling (bandwidth.c) */
void sched__dequeue_group(struct sched *s, struct cfs_rq *q, uint64_t now);
void sched__enqueue_group(struct sched *s, struct cfs_rq *q, uint64_t now);

/* ---- scheduler/account.c: time charged, the scheduler's own included ------------------------- */

uint64_t sched__tick_cost(const struct sched *s, const struct sched_cpu *rq);
void sched__rq_charge_overhead(struct sched *s, struct sched_cpu *rq, uint64_t now,
			       uint64_t base_ns, struct sched_walk w);
void sched__rq_account_to(struct sched *s, struct sched_cpu *rq, uint64_t upto, uint64_t now);
/* update_curr() of every level of @rq's curr, up to @now, the scheduler's own time included */
void update_curr(struct sched *s, struct sched_cpu *rq, uint64_t now);
void sched__rq_charge_wakeup(struct sched *s, struct sched_cpu *rq, uint64_t now,
			     struct sched_walk w);
void sched__rq_charge_tick(struct sched *s, struct sched_cpu *rq, uint64_t now);
void sched__rq_charge_next(struct sched_cpu *rq, uint64_t now);

/* ---- scheduler/tick.c: ticks processed and elided, the entry points' bookkeeping ------------- */

void sched__rq_dirty_quiet(struct sched *s, struct sched_cpu *rq, uint64_t now);
void sched__rq_dirty(struct sched *s, struct sched_cpu *rq, uint64_t now);
void sched__replan_llc(struct sched *s, const struct sched_cpu *rq);
void sched__theap_set(struct sched *s, int i, int cpu);
void sched__finish(struct sched *s);
int sched__enter(struct sched *s, uint64_t now);

/* ---- scheduler/sd.c: the scheduling domains the balancer walks -------------------------------- */

int sched__sd_build(struct sched *s);
void sched__sd_free(struct sched *s);

/* ---- scheduler/select.c: the CPU a waking or new thread goes to ------------------------------ */

/* the wakeup (@waker's CPU, -1 for none) and fork paths only: no exec balancing */
struct sched_cpu *select_task_rq_fair(struct sched *s, struct sched_thread *t, int waker,
				      uint64_t now);

/* ---- scheduler/balance.c: load balancing at one level, a new task's CPU --------------------- */

struct sched_cpu *sched_balance_find_dst_cpu(struct sched *s, struct sched_thread *t, int cpu,
					     uint64_t now);
/* enum cpu_idle_type: why a CPU balances */
enum lb_idle { LB_NOT_IDLE, LB_IDLE, LB_NEWLY_IDLE };
bool sched_balance_rq(struct sched *s, struct sched_cpu *dst, int l, enum lb_idle idle,
		      bool *cont, uint64_t now);

/* ---- scheduler/balance_domains.c: when balancing runs: periodic, NOHZ, new-idle -------------- */

/* whether a tick of busy @rq may kick idle CPUs into balancing: the kernel's decides and kicks,
 * this one decides only (sched_balance_trigger() returns it, sched__balance_kicked() kicks) */
bool nohz_balancer_kick(const struct sched *s, const struct sched_cpu *rq);
/* get_sd_balance_interval() of @rq's domain @l as @rq is now (busy or idle), in ns */
uint64_t get_sd_balance_interval(const struct sched *s, const struct sched_cpu *rq, int l);
bool sched_balance_newidle(struct sched *s, struct sched_cpu *rq, uint64_t now);
/* update_newidle_stats(): a new-idle balance of @sd counted, with its weighted @success */
void update_newidle_stats(struct sched_sd *sd, uint32_t success);
/* the tick's balancing up to its reschedule: the trigger and the softirq's own balance;
 * returns whether to kick the idle CPUs */
bool sched_balance_trigger(struct sched *s, struct sched_cpu *rq, uint64_t T);
void sched__balance_kicked(struct sched *s, struct sched_cpu *rq, uint64_t T);

/* ---- scheduler/shares.c: group weights and the load averages of entities --------------------- */

void sched__load_changed(struct cfs_rq *q, uint64_t now);
/*
 * sched__runnable_changed() - h_nr_runnable changed on @se's queue and maybe on those above
 * (a task counted in or out, a queue throttled or not): the runnable signal of each group
 * queue from @se's up follows. Nothing unless s->tg_runnable.
 */
void sched__runnable_changed(struct sched *s, const struct sched_entity *se, uint64_t now);
/* whether @cfg's kernel or cgroup_mode keeps tg->runnable_avg (struct sched.tg_runnable) */
bool sched__tracks_tg_runnable(const struct sched_config *cfg);
bool sched__tg_update_due(const struct cfs_rq *q);
void update_tg_load_avg(struct sched *s, struct cfs_rq *q, uint64_t now);
/* the group's CPUs (its cpuset's, or all) and runnable tasks, each at least 1 (7.3) */
int tg_cpus(const struct sched *s, const struct sched_tg *tg);
int tg_tasks(const struct sched_tg *tg);
/* calc_group_shares(): the weight of @q's group entity under s->cfg.cgroup_mode, scaled */
uint64_t calc_group_shares(const struct sched *s, const struct cfs_rq *q);

/*
 * The kernel's clamp_t() (include/linux/minmax.h's __clamp()): @hi if @val >= @hi, else @lo if
 * @val <= @lo, else @val. Tested in that order, so with @hi < @lo it gives @hi for any @val
 * from @hi up and @lo below it; calc_group_shares()' clamps are to [MIN_SHARES, max].
 */
static inline int64_t sched__clamp(int64_t val, int64_t lo, int64_t hi)
{
	return val >= hi ? hi : val <= lo ? lo : val;
}
/* the load sums and average follow; @wmult 0 computes the inverse weight */
void reweight_entity(struct sched *s, struct sched_entity *se, uint64_t weight, uint32_t wmult,
		     uint64_t now);
void update_cfs_group(struct sched *s, struct sched_entity *se, uint64_t now);
void sched__reweight_load(struct sched *s, struct sched_entity *se, uint64_t old_wd, uint64_t now);
void list_add_leaf_cfs_rq(struct cfs_rq *q);
void list_del_leaf_cfs_rq(struct cfs_rq *q);
void sched__entity_avg_set(struct sched_entity *se, uint64_t now);
/* on a task's entity, propagated up its hierarchy (attach_entity_cfs_rq()'s walk too) */
void attach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now);
void detach_entity_load_avg(struct sched *s, struct sched_thread *t, uint64_t now);
/* every leaf queue of @rq and its signals (sched_balance_update_blocked_averages() 6.10+) */
void update_blocked_averages(struct sched *s, struct sched_cpu *rq, uint64_t now);
uint64_t task_h_load(struct sched_thread *t, uint64_t now);

/*
 * sched__rq_signals() - the CPU's utilisation (a task running) and runnable (tasks runnable)
 * signals follow what it runs. Only a change of x needs recording when it happens: the
 * integral is taken when the average is read.
 */
static inline void sched__rq_signals(struct sched_cpu *rq, uint64_t now)
{
	uint64_t u = rq->curr ? 1024 : 0, r = 1024ull * rq->nr_running;

	if (rq->util.x != u)
		pelt_set_event(&rq->util, now, u);
	if (rq->runnable.x != r)
		pelt_set_event(&rq->runnable, now, r);
}

/* ---- scheduler/bandwidth.c: CFS bandwidth control -------------------------------------------- */

bool account_cfs_rq_runtime(struct sched *s, struct cfs_rq *q, uint64_t delta, uint64_t now);
void check_enqueue_throttle(struct sched *s, struct cfs_rq *q, uint64_t now);
/* at every level of @rq's curr chain, not one queue */
void check_cfs_rq_runtime(struct sched *s, struct sched_cpu *rq, uint64_t now);
void return_cfs_rq_runtime(struct sched *s, struct cfs_rq *q);
uint64_t sched__bw_next(const struct sched *s);
/* every group's timer that is due at @now */
void do_sched_cfs_period_timer(struct sched *s, uint64_t now);
bool throttled_hierarchy(const struct cfs_rq *q);
void sched__bw_forget(struct sched *s, struct sched_tg *tg);

#endif /* CGSIM_SCHEDULER_SCHED_INTERNAL_H */
