// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_topology.c - machine.topology and machine.numa: the sockets, dies per
 * socket, cores per die and threads per core of the machine, and its NUMA nodes with their
 * distances (docs/scenario-format.md), read into the scheduler's struct topo_machine
 * (scheduler/topology.h), which the scheduler's domains and a guest's -smp and -numa take
 * as they are.
 *
 * They are numbered as QEMU's -smp and -numa number them, so that a scenario describes the
 * guest that validates it: CPU ids run thread fastest, then core, die, socket; the LLC is the
 * die; the nodes take the CPUs evenly in id order. Distances are the ACPI SLIT's: 10 from a
 * node to itself, more to any other, the same both ways. The scenario owns the distances its
 * machine points to (scn_free()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"

static const char *const topology_keys[] = { "sockets", "dies", "cores", "threads", NULL };
static const char *const numa_keys[] = { "nodes", "distances", NULL };

/* One count of machine.topology (@key, default 1 when absent): 1 .. SCHED_MAX_CPUS. */
static bool read_count(struct rd *r, const struct yn *t, const char *key, int *out)
{
	const struct yn *v = yn_get(t, key);
	char what[48];
	long long x;

	*out = 1;
	if (!v)
		return true;
	snprintf(what, sizeof(what), "machine.topology.%s", key);
	if (!scn__parse_int(r, v, what, 1, SCHED_MAX_CPUS, &x))
		return false;
	*out = (int)x;
	return true;
}

/*
 * machine.topology: its counts, their product the machine's CPUs (*@cpus, which machine.cpus
 * gave when @cpus_given, and must then be the same).
 */
static bool read_topology(struct rd *r, const struct yn *t, int *cpus, bool cpus_given,
			  struct topo_machine *topo)
{
	long long n;

	if (!scn__want(r, t, YN_MAP, "machine.topology") ||
	    !scn__known_keys(r, t, topology_keys, "machine.topology"))
		return false;
	if (!yn_get(t, "cores"))
		return scn__bad(r, t, "machine.topology needs cores (cores per die; sockets, dies "
				"per socket and threads per core are 1 when not given)");
	if (!read_count(r, t, "sockets", &topo->sockets) || !read_count(r, t, "dies", &topo->dies) ||
	    !read_count(r, t, "cores", &topo->cores) || !read_count(r, t, "threads", &topo->threads))
		return false;
	n = (long long)topo->sockets * topo->dies * topo->cores * topo->threads;
	if (n > SCHED_MAX_CPUS)
		return scn__bad(r, t, "machine.topology gives %d sockets x %d dies x %d cores x %d "
				"threads = %lld CPUs; cgsim simulates at most %d", topo->sockets,
				topo->dies, topo->cores, topo->threads, n, SCHED_MAX_CPUS);
	if (cpus_given && n != *cpus)
		return scn__bad(r, t, "machine.topology gives %d sockets x %d dies x %d cores x %d "
				"threads = %lld CPUs, but machine.cpus is %d (leave cpus out, or make "
				"them agree)", topo->sockets, topo->dies, topo->cores, topo->threads, n,
				*cpus);
	*cpus = (int)n;
	return true;
}

/* Entry [@i][@j] of machine.numa.distances (@d, a @k x @k list of lists, checked). */
static bool read_distance(struct rd *r, const struct yn *d, int k, int i, int j,
			  uint8_t *out)
{
	const struct yn *row = d->kids[i], *v;
	char what[64];
	long long x;

	if (row->kind != YN_SEQ || row->n != (size_t)k)
		return scn__bad(r, row, "machine.numa.distances must be a %d x %d matrix: row %d "
				"is not a list of %d numbers", k, k, i, k);
	v = row->kids[j];
	snprintf(what, sizeof(what), "machine.numa.distances[%d][%d]", i, j);
	if (!scn__parse_int(r, v, what, 0, 255, &x))
		return false;
	if (i == j && x != 10)
		return scn__bad(r, v, "%s must be 10 (a node's distance to itself), not %lld", what,
				x);
	if (i != j && (x < 11 || x > 254))	/* 255: unreachable, which cgsim does not model */
		return scn__bad(r, v, "%s must be from 11 to 254 (another node is farther than "
				"the local 10), not %lld", what, x);
	*out = (uint8_t)x;
	return true;
}

/* machine.numa.distances into @slit (@k x @k, set). */
static bool read_distances(struct rd *r, const struct yn *d, int k, uint8_t *slit)
{
	if (!scn__want(r, d, YN_SEQ, "machine.numa.distances"))
		return false;
	if (d->n != (size_t)k)
		return scn__bad(r, d, "machine.numa.distances must be a %d x %d matrix (one row "
				"per node), not %zu rows", k, k, d->n);
	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++)
			if (!read_distance(r, d, k, i, j, &slit[i * k + j]))
				return false;
	for (int i = 0; i < k; i++)
		for (int j = 0; j < i; j++)
			if (slit[i * k + j] != slit[j * k + i])
				return scn__bad(r, d->kids[i]->kids[j], "machine.numa.distances is "
						"not symmetric: [%d][%d] is %d but [%d][%d] is %d",
						i, j, slit[i * k + j], j, i,
						slit[j * k + i]);
	return true;
}

/* machine.numa on a machine of @cpus CPUs: its nodes and their distances. */
static bool read_numa(struct rd *r, const struct yn *m, int cpus, struct topo_machine *topo)
{
	const struct yn *v, *d;
	uint8_t *slit;
	long long x;

	if (!scn__want(r, m, YN_MAP, "machine.numa") ||
	    !scn__known_keys(r, m, numa_keys, "machine.numa"))
		return false;
	d = yn_get(m, "distances");
	if ((v = yn_get(m, "nodes"))) {
		if (!scn__parse_int(r, v, "machine.numa.nodes", 1, SCN_MAX_NODES, &x))
			return false;
	} else if (d && d->kind == YN_SEQ && d->n) {
		x = (long long)d->n;	/* as many as the matrix has rows */
		if (x > SCN_MAX_NODES)
			return scn__bad(r, d, "machine.numa.distances has %lld rows: at most %d "
					"nodes", x, SCN_MAX_NODES);
	} else {
		return scn__bad(r, m, "machine.numa needs nodes (e.g. numa: { nodes: 2 })");
	}
	if (x > cpus || cpus % x)
		return scn__bad(r, v ? v : d, "machine.numa.nodes (%lld) must divide the machine's "
				"%d CPUs evenly: the nodes take them in id order", x, cpus);
	topo->nodes = (int)x;
	topo->distance = slit = malloc((size_t)(x * x));
	if (!slit)
		return scn__bad(r, m, "out of memory");
	for (int i = 0; i < topo->nodes; i++)
		for (int j = 0; j < topo->nodes; j++)
			slit[i * topo->nodes + j] = i == j ? 10 : 20;
	return !d || read_distances(r, d, topo->nodes, slit);
}

bool scn__read_topology(struct rd *r, const struct yn *machine, int *cpus, bool cpus_given)
{
	struct topo_machine *topo = &r->sc->sched.machine;
	const struct yn *t = yn_get(machine, "topology"), *n = yn_get(machine, "numa");

	/* without machine.topology, machine.cpus single-thread cores in one LLC */
	*topo = topo_machine_flat(*cpus);
	if (t && !read_topology(r, t, cpus, cpus_given, topo))
		return false;
	topo->cpus = *cpus;
	if (n && !read_numa(r, n, *cpus, topo))
		return false;
	return true;
}
