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

#include "scheduler/sched.h"

#define TOPO_MAX_LEVELS 16
#define TOPO_MASK_WORDS (SCHED_MAX_CPUS / 64)

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

/* The machine: CPU ids thread fastest, then core, die, socket; nodes take CPUs evenly. */
struct topo_machine {
	int cpus, sockets, dies, cores, threads;	/* dies per socket, cores per die, ... */
	int nodes;
	const uint8_t *distance;	/* nodes x nodes; NULL: 10 local, 20 remote */
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

/**
 * topo_build() - the domains of each CPU of @m into @out[0 .. m->cpus). 0, or -EINVAL when the
 * machine is not one (counts that do not multiply to cpus, nodes that do not divide them).
 */
int topo_build(const struct topo_machine *m, struct topo_cpu *out);

/* topo_flag_name() - "SD_BALANCE_NEWIDLE" ... for flag @f. */
const char *topo_flag_name(enum topo_flag f);

/* topo_span_str() - @span as the kernel prints a CPU list ("0-3,8") into @buf. */
void topo_span_str(const uint64_t *span, char *buf, size_t len);

#endif /* CGSIM_SCHEDULER_TOPOLOGY_H */
