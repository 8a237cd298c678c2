/* SPDX-License-Identifier: MIT */
/*
 * sim/run/ideal.h - the ideal CPU shares of a cgroup tree: hierarchical
 * proportional sharing by weight, with caps, by water-filling.
 *
 * This is the yardstick that `cgsim shares` prints and that the reports put
 * beside every simulated share (the "ideal" of docs/ideal-shares.md). It is computed,
 * not simulated: the fluid limit of a perfectly fair scheduler that could
 * split any thread across CPUs, with no balancer and no per-CPU state.
 *
 * Definition. The root cgroup gets min(cpus, what the whole tree can use)
 * CPUs. Every cgroup divides what it gets among its children (child cgroups
 * and the threads directly in it, as equals) in proportion to their weights,
 * except that no child gets more than it can use:
 *
 *   a thread can use   min(1, demand)                 (one CPU at most);
 *   a cgroup can use   min(cap, sum of what its children can use).
 *
 * What a capped child cannot take goes to its uncapped siblings, again by
 * weight, until nothing is left (water-filling): with level L chosen so that
 * the parent's allocation is spent exactly, child i gets
 * min(use_i, L * weight_i). docs/ideal-shares.md derives it, explains where
 * the kernel is expected to differ and works an example.
 *
 * Units. Weights are the kernel's: a thread's is sched_prio_to_weight
 * [nice + 20] (nice 0 = 1024), a cgroup's its cpu.shares (cpu.weight 100 =
 * 1024); only their ratios among siblings matter. Demands and caps are in
 * CPUs (cpu.max "50000 100000" is 0.5). Results are fractions of the
 * machine's capacity, CPU time / (cpus x time), as in the reports: a thread
 * that gets a whole CPU of two has share 0.5.
 *
 * Affinity. A thread may say on how many CPUs it is allowed to run, but a
 * count says nothing about which CPUs, so the ideal still caps the thread
 * at min(1, demand): exact when the pinned threads of each CPU set do not
 * oversubscribe it (one pinned thread, or pinned threads on disjoint CPUs
 * with room to spare), and too generous otherwise (three busy threads all
 * pinned to CPU 0 are given three CPUs' worth). docs/ideal-shares.md says
 * what modelling masks would take.
 *
 * Errors: ideal_compute() returns 0 or a negative errno.
 */
#ifndef CGSIM_SIM_IDEAL_H
#define CGSIM_SIM_IDEAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct ideal_node - one cgroup or thread of the tree.
 *
 * The tree is an array of nodes, each node after its parent, node 0 the
 * root cgroup. Plain data: the caller fills and owns it. Fields that do not
 * apply to a node's kind are ignored and not checked: @demand and
 * @cpus_allowed for cgroups, @cap for threads, @weight for the root (which
 * has no siblings).
 */
struct ideal_node {
	int parent;		/* index of the parent cgroup, -1 for node 0 only */
	bool thread;		/* a thread (a leaf), or a cgroup */
	double weight;		/* finite and > 0: nice weight or cpu.shares */
	double demand;		/* threads: CPUs it would use alone, >= 0; 1 (or more) = busy */
	double cap;		/* cgroups: cpu.max quota / period in CPUs, >= 0; INFINITY = max */
	int cpus_allowed;	/* threads: CPUs in its affinity mask, 1..cpus; 0 = all */
};

/**
 * ideal_compute - the ideal share of every node of a tree
 * @nodes: @n nodes, parents before children, node 0 the root cgroup
 * @n:     number of nodes, at least 1
 * @cpus:  number of CPUs of the machine, at least 1
 * @share: output, @n entries: the share of capacity of each node; a
 *         cgroup's includes everything below it, the root's is the total
 *
 * The tree is checked first: node 0 must be a cgroup with parent -1; every
 * other node's parent must be a cgroup of smaller index; weights must be
 * finite and positive, demands and caps non-negative and not NaN (INFINITY
 * is allowed for both), and @cpus_allowed in 0..@cpus. A cgroup may be
 * empty (it then gets 0). Each node stays within its caps, and a cgroup's
 * share is the sum of its children's shares up to rounding.
 *
 * The result depends only on the input: the same tree gives the same bits.
 * O(n log n) time and O(n) scratch memory, freed before returning.
 *
 * Return: 0; -EINVAL for a tree, @cpus or pointer that breaks the rules
 * above; -ENOMEM when the scratch memory could not be allocated. On error
 * @share is not written.
 */
int ideal_compute(const struct ideal_node *nodes, size_t n, int cpus, double *share);

#endif /* CGSIM_SIM_IDEAL_H */
