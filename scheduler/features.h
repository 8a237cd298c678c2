/* SPDX-License-Identifier: MIT */
/*
 * scheduler/features.h - the scheduler features, one line each, as kernel/sched/features.h
 * writes them: SCHED_FEAT(NAME, EEVDF default, CFS default), named as the kernel names them.
 * The columns are each family's defaults on its newest kernels (EEVDF: 6.19-7.3, CFS: 6.0-6.5);
 * the features whose default moved between versions (SIS_UTIL, PLACE_REL_DEADLINE,
 * PREEMPT_SHORT, PICK_BUDDY, DELAY_DEQUEUE, DELAY_ZERO, NI_RANDOM) take it from the version
 * table, scheduler/kernels.c. A feature of the other policy is accepted there and has no effect.
 *
 * No include guard: every includer defines SCHED_FEAT() to take what it needs (the enum in
 * sched.h, the names and defaults in config.c). A new feature is one line here and its rule
 * where the kernel has it.
 */

/* EEVDF (6.6+) */
SCHED_FEAT(PLACE_LAG, true, false)		/* keep lag across sleep and migration */
SCHED_FEAT(PLACE_DEADLINE_INITIAL, true, false)	/* a new task's first request is half a slice */
SCHED_FEAT(PLACE_REL_DEADLINE, true, false)	/* a migrating task keeps its relative deadline */
SCHED_FEAT(RUN_TO_PARITY, true, false)		/* protect curr until its deadline or min slice */
SCHED_FEAT(PREEMPT_SHORT, true, false)		/* a shorter-slice wakee may cancel that protection */
SCHED_FEAT(PICK_BUDDY, true, false)		/* take the next buddy first if it is eligible */
SCHED_FEAT(DELAY_DEQUEUE, true, false)		/* a sleeping task with negative lag stays queued */
SCHED_FEAT(DELAY_ZERO, true, false)		/* ... and leaves with its lag clipped at 0 */
/* CFS (before 6.6) */
SCHED_FEAT(GENTLE_FAIR_SLEEPERS, false, true)	/* sleeper credit is half the latency */
SCHED_FEAT(START_DEBIT, false, true)		/* a new task starts one vslice behind */
SCHED_FEAT(LAST_BUDDY, false, true)		/* prefer the preempted task when it is close */
SCHED_FEAT(ALT_PERIOD, false, true)		/* the period counts all tasks of the CPU (5.13+) */
SCHED_FEAT(BASE_SLICE, false, true)		/* a task's slice is at least min_granularity */
/* both */
SCHED_FEAT(NEXT_BUDDY, false, false)		/* the wakee that preempted becomes the next buddy */
SCHED_FEAT(CACHE_HOT_BUDDY, true, true)		/* a buddy is cache hot: the balancer leaves it */
SCHED_FEAT(WAKEUP_PREEMPTION, true, true)	/* a waking task may preempt the current one */
SCHED_FEAT(LB_MIN, false, false)		/* the balancer leaves tasks of load < 16 alone */
SCHED_FEAT(WA_IDLE, true, true)			/* wake_affine: an idle waker's CPU or prev wins */
SCHED_FEAT(WA_WEIGHT, true, true)		/* wake_affine: else the less loaded of the two */
SCHED_FEAT(WA_BIAS, true, true)			/* ... with prev's load weighed by imbalance_pct */
SCHED_FEAT(SIS_UTIL, true, true)		/* the idle-CPU scan shrinks as the LLC fills (6.0+) */
SCHED_FEAT(NI_RANDOM, true, false)		/* new-idle balance by its success rate (6.19+) */
