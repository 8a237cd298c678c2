/* SPDX-License-Identifier: MIT */
/*
 * scheduler/weight.h - the kernel's weights, in one place for everything that weighs: the
 * scheduler, the cgroup model's cpu files (cpu.shares, cpu.weight, cpu.weight.nice,
 * cpu.idle), the machine that builds task groups and the ideal shares.
 *
 * Header-only, so that the cgroup model uses the kernel's numbers without linking the
 * scheduler (in the kernel, too, the cpu controller's files are kernel/sched/core.c's).
 */
#ifndef CGSIM_SCHEDULER_WEIGHT_H
#define CGSIM_SCHEDULER_WEIGHT_H

#include <stdint.h>

#define SCHED_NICE_MIN		(-20)
#define SCHED_NICE_MAX		19
/* The weight of a nice-0 thread and of a cgroup with cpu.weight 100 (cpu.shares 1024). */
#define SCHED_NICE_0_WEIGHT	1024u
/* The weight of an idle group and of a SCHED_IDLE thread (WEIGHT_IDLEPRIO). */
#define SCHED_WEIGHT_IDLEPRIO	3u
/* A group's weight is clamped to [MIN_SHARES, MAX_SHARES] (sched_group_set_shares()). */
#define SCHED_SHARES_MIN	2u
#define SCHED_SHARES_MAX	(1u << 18)

/* The table index of @nice, clamped to -20..19 as set_user_nice() does. */
static inline int sched_prio_index(int nice)
{
	return (nice < SCHED_NICE_MIN ? SCHED_NICE_MIN : nice > SCHED_NICE_MAX ? SCHED_NICE_MAX
										: nice) + 20;
}

/* sched_prio_to_weight[nice + 20] (kernel/sched/core.c). */
static inline uint32_t sched_prio_to_weight(int nice)
{
	static const uint32_t w[40] = {
		88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
		9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
		1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
		110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
	};

	return w[sched_prio_index(nice)];
}

/* sched_prio_to_wmult[nice + 20]: 2^32 / weight, as the kernel tabulates it. */
static inline uint32_t sched_prio_to_wmult(int nice)
{
	static const uint32_t wm[40] = {
		48388,     59856,     76040,     92818,     118348,    147320,    184698,
		229616,    287308,    360437,    449829,    563644,    704093,    875809,
		1099582,   1376151,   1717300,   2157191,   2708050,   3363326,   4194304,
		5237765,   6557202,   8165337,   10153587,  12820798,  15790321,  19976592,
		24970740,  31350126,  39045157,  49367440,  61356676,  76695844,  95443717,
		119304647, 148102320, 186737708, 238609294, 286331153,
	};

	return wm[sched_prio_index(nice)];
}

#endif /* CGSIM_SCHEDULER_WEIGHT_H */
