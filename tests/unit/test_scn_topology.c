// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_scn_topology.c - machine.topology and machine.numa as docs/scenario-format.md
 * defines them (QEMU's -smp and -numa numbering, the ACPI SLIT's distances): the counts, the
 * CPUs they make, the nodes' default and given distances, --set, and that a shape the
 * scheduler models draws no note. The refusals are cases
 * of tests/bad-scenarios/ (topology-*, numa-*).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "sim/scenario/scenario.h"

static struct scenario *cur;

static void fini(void)
{
	scn_free(cur);
	cur = NULL;
}

TestSuite(scn_topology, .fini = fini);

static struct scenario *load(const char *machine, const char *const *sets, size_t nsets)
{
	char text[1024], err[1024];

	snprintf(text, sizeof(text), "name: t\nduration: 1s\nmachine: %s\nprocesses:\n"
		 "  app: { threads: { w: { behavior: busy } } }\n", machine);
	cur = scn_load("t.yaml", text, NULL, sets, nsets, err, sizeof(err));
	cr_assert_not_null(cur, "load failed: %s", err);
	return cur;
}

/* 2 sockets x 2 dies x 2 cores x 2 threads: 16 CPUs (machine.cpus left out) */
Test(scn_topology, counts_make_the_cpus)
{
	struct scenario *sc = load("{ topology: { sockets: 2, dies: 2, cores: 2, threads: 2 } }",
				   NULL, 0);

	cr_expect_eq(sc->sched.machine.sockets, 2);
	cr_expect_eq(sc->sched.machine.dies, 2);
	cr_expect_eq(sc->sched.machine.cores, 2);
	cr_expect_eq(sc->sched.machine.threads, 2);
	cr_expect_eq(sc->sched.machine.cpus, 16);
	cr_expect_eq(sc->sched.machine.nodes, 1);
	cr_expect_null(sc->sched.machine.distance);
	cr_expect_eq(sc->nnotes, 0, "the topology is modelled: no note");
}

/* sockets, dies and threads are 1 when not given; machine.cpus may say the same */
Test(scn_topology, defaults_and_agreeing_cpus)
{
	struct scenario *sc = load("{ cpus: 8, topology: { cores: 8 } }", NULL, 0);

	cr_expect_eq(sc->sched.machine.sockets, 1);
	cr_expect_eq(sc->sched.machine.dies, 1);
	cr_expect_eq(sc->sched.machine.threads, 1);
	cr_expect_eq(sc->sched.machine.cpus, 8);
}

/*
 * Without topology or numa a machine is one LLC as before, and nothing is noted: one socket of
 * machine.cpus cores (-smp N as validate --vm gives it), one node.
 */
Test(scn_topology, none)
{
	struct scenario *sc = load("{ cpus: 4 }", NULL, 0);

	cr_expect_eq(sc->sched.machine.nodes, 1);
	cr_expect_eq(sc->sched.machine.sockets, 1);
	cr_expect_eq(sc->sched.machine.dies, 1);
	cr_expect_eq(sc->sched.machine.cores, 4);
	cr_expect_eq(sc->sched.machine.threads, 1);
	cr_expect_eq(sc->nnotes, 0);
}

/* Two nodes: 10 to itself, 20 to the other unless given; a given matrix is kept as given. */
Test(scn_topology, numa_distances)
{
	struct scenario *sc = load("{ topology: { sockets: 2, cores: 4 }, numa: { nodes: 2 } }",
				   NULL, 0);
	static const uint8_t slit[] = { 10, 20, 20, 10 };

	cr_assert_eq(sc->sched.machine.nodes, 2);
	cr_expect_eq(sc->sched.machine.cpus, 8);
	cr_expect_arr_eq(sc->sched.machine.distance, slit, sizeof(slit));
	scn_free(sc);
	sc = cur = load("{ cpus: 12, numa: { distances: [[10, 16, 32], [16, 10, 16], "
			"[32, 16, 10]] } }", NULL, 0);
	cr_assert_eq(sc->sched.machine.nodes, 3);	/* from the matrix's rows */
	cr_expect_eq(sc->sched.machine.distance[0 * 3 + 2], 32);
	cr_expect_eq(sc->sched.machine.distance[2 * 3 + 1], 16);
	cr_expect_eq(sc->sched.machine.cores, 12, "no machine.topology: one LLC of single-thread cores");
	cr_expect_eq(sc->sched.machine.threads, 1);
	cr_expect_eq(sc->nnotes, 0);
}

/* --set machine.topology.KEY=V works like every other key, also where the file has none. */
Test(scn_topology, set)
{
	static const char *const sets[] = { "machine.topology.cores=4",
					    "machine.topology.threads=2" };
	struct scenario *sc = load("{ cpus: 8 }", sets, 2);

	cr_expect_eq(sc->sched.machine.cores, 4);
	cr_expect_eq(sc->sched.machine.threads, 2);
	cr_expect_eq(sc->sched.machine.cpus, 8);
	cr_expect_eq(sc->nnotes, 0);
}
