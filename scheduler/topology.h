/* SPDX-License-Identifier: MIT */
/*
 * scheduler/topology.h - the scheduling domains Linux builds for a machine's topology
 * (scheduler/topology.c, docs/topology.md): the x86 levels SMT, CLS, MC, PKG, then NODE and
 * one NUMA level per distance, built per CPU as build_sched_domains() builds them (stopping at
 * the first level that spans every CPU), with sd_init()'s flags, and the levels that do not
 * contribute removed as cpu_attach_domain() removes them (sd_degenerate(),
 * sd_parent_degenerate()), with the per-level numbers sd_init() and build_sched_domains() give
 * them. scheduler/sd.c turns them into the domains the balancer walks.
 */
#ifndef CGSIM_SCHEDULER_TOPOLOGY_H
#define CGSIM_SCHEDULER_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TOPO_MAX_CPUS	1024	/* SCHED_MAX_CPUS */
#define TOPO_MAX_LEVELS 16
#define TOPO_MASK_WORDS (TOPO_MAX_CPUS / 64)

/* include/linux/sched/sd_flags.h, in its order (bit i is flag i) */
enum topo_flag {
	TOPO_SD_BALANCE_NEWIDLE,
	TOPO_SD_BALANCE_EXEC,
	TOPO_SD_BALANCE_FORK,
	TOPO_SD_BALANCE_WAKE,
	TOPO_SD_WAKE_AFFINE,
	TOPO_SD_ASYM_CPUCAPACITY,
	TOPO_SD_ASYM_CPUCAPACITY_FULL,
	TOPO_SD_SHARE_CPUCAPACITY,
	TOPO_SD_CLUSTER,
	TOPO_SD_SHARE_LLC,
	TOPO_SD_SERIALIZE,
	TOPO_SD_ASYM_PACKING,
	TOPO_SD_PREFER_SIBLING,
	TOPO_SD_OVERLAP,
	TOPO_SD_NUMA,
	TOPO_NFLAGS
};

/*
 * The machine, the one description of its shape from the scenario's `machine:` to the
 * scheduler's config (struct sched_config), its domains (topo_build(), scheduler/sd.c) and
 * QEMU's -smp and -numa (sim/vm): CPU ids run thread fastest, then core, die, socket, as QEMU
 * numbers a guest's; the LLC is the die; @nodes NUMA nodes take the CPUs evenly in id order,
 * at the ACPI SLIT's distances @distance[i * nodes + j] (NULL: 10 local, 20 remote), which the
 * caller owns (the scheduler reads them only in sched_new()). A machine is one when
 * topo_machine_check() says so; topo_machine_flat() is the one of a CPU count alone.
 *
 * Symmetric only: every CPU has SCHED_CAPACITY_SCALE (1024) of capacity, so there is no
 * capacity per CPU here and no SD_ASYM_CPUCAPACITY domain (docs/topology.md).
 */
struct topo_machine {
	int cpus;			/* 1 .. TOPO_MAX_CPUS: sockets x dies x cores x threads */
	int sockets, dies, cores, threads;	/* dies per socket, cores per die, threads per core */
	int nodes;			/* 1 .. cpus, dividing them */
	const uint8_t *distance;	/* nodes x nodes, row-major; NULL: 10 local, 20 remote */
};

struct topo_domain {
	char name[8];			/* "SMT", "MC", "PKG", "NUMA" */
	unsigned flags;			/* 1u << enum topo_flag */
	unsigned imbalance_pct;		/* sd_init(): 110 at SMT, else 117 */
	unsigned cache_nice_tries;	/* sd_init(): 0 at SMT, 2 at NUMA levels, else 1 */
	unsigned imb_numa_nr;		/* the tasks a node may take over its share (0 below) */
	uint64_t span[TOPO_MASK_WORDS];
};

/* One CPU's domains, from the lowest (domain0) up. */
struct topo_cpu {
	struct topo_domain dom[TOPO_MAX_LEVELS];
	int n;
};

/*
 * topo_machine_flat() - the machine of @cpus CPUs alone: one socket, one die (one LLC) of
 * @cpus single-thread cores, one node.
 */
struct topo_machine topo_machine_flat(int cpus);

/*
 * topo_machine_check() - 0 when @m is a machine: 1 .. TOPO_MAX_CPUS CPUs, every count at
 * least 1, sockets x dies x cores x threads its CPUs, and nodes that divide them; else
 * -EINVAL. The distances are the caller's to check (the scenario's reader does).
 */
int topo_machine_check(const struct topo_machine *m);

/**
 * topo_build() - the domains of each CPU of @m into @out[0 .. m->cpus): the kernel's
 * build_sched_domains() and cpu_attach_domain()'s removals (scheduler/topology.c). 0, or
 * -EINVAL when topo_machine_check() refuses @m.
 */
int topo_build(const struct topo_machine *m, struct topo_cpu *out);

/* topo_flag_name() - "SD_BALANCE_NEWIDLE" ... for flag @f. */
const char *topo_flag_name(enum topo_flag f);

/* topo_span_str() - @span as the kernel prints a CPU list ("0-3,8") into @buf. */
void topo_span_str(const uint64_t *span, char *buf, size_t len);

#endif /* CGSIM_SCHEDULER_TOPOLOGY_H */
