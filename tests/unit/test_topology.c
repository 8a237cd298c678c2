// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_topology.c - the scheduling domains topo_build() gives against those Linux
 * 6.12 built in guests of validate --vm (tests/kernel/domains-6.12.txt: every CPU's domains,
 * their names, spans and flags, for 4 flat CPUs, 2 sockets x 2 or 4 cores x 2 threads in one and
 * in two nodes, 2 sockets x 2 or 4 dies x 2 or 4 cores x 2 threads in two nodes (16, 32 and 64
 * CPUs), four nodes in a ring of distances 20 and 30, two nodes at distance 40).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "scheduler/topology.h"

/* The domains of @cpu as the file's lines print them: "LEVEL NAME SPAN FLAGS...". */
static void line_of(const struct topo_cpu *t, int level, char *buf, size_t len)
{
	const struct topo_domain *d = &t->dom[level];
	char span[256];
	size_t n;

	topo_span_str(d->span, span, sizeof(span));
	n = (size_t)snprintf(buf, len, "%d %s %s", level, d->name, span);
	for (int f = 0; f < TOPO_NFLAGS; f++)
		if (d->flags & (1u << f))
			n += (size_t)snprintf(buf + n, len - n, " %s", topo_flag_name(f));
}

static void check_guest(const char *guest, const struct topo_machine *m)
{
	static struct topo_cpu cpus[64];
	char line[1024], want[1024], got[1024];
	int lines = 0, counted[64] = { 0 };
	FILE *f = fopen("tests/kernel/domains-6.12.txt", "r");

	cr_assert_not_null(f);
	cr_assert_eq(topo_build(m, cpus), 0);
	while (fgets(line, sizeof(line), f)) {
		char name[16];
		int cpu, used;

		if (line[0] == '#' || sscanf(line, "%15s %d %n", name, &cpu, &used) != 2 ||
		    strcmp(name, guest))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(want, sizeof(want), "%s", line + used);
		cr_assert_lt(counted[cpu], cpus[cpu].n, "%s cpu %d: the kernel has more levels: %s",
			     guest, cpu, want);
		line_of(&cpus[cpu], counted[cpu]++, got, sizeof(got));
		cr_assert_str_eq(got, want, "%s cpu %d", guest, cpu);
		lines++;
	}
	fclose(f);
	for (int c = 0; c < m->cpus; c++)
		cr_assert_eq(counted[c], cpus[c].n, "%s cpu %d: %d levels, the kernel %d", guest, c,
			     cpus[c].n, counted[c]);
	cr_assert_gt(lines, 0);
}

Test(topology, four_flat_cpus)
{
	check_guest("4", &(struct topo_machine){ .cpus = 4, .sockets = 1, .dies = 1, .cores = 4,
						 .threads = 1, .nodes = 1 });
}

Test(topology, two_sockets_smt)
{
	check_guest("8", &(struct topo_machine){ .cpus = 8, .sockets = 2, .dies = 1, .cores = 2,
						 .threads = 2, .nodes = 1 });
}

/* PKG spans a node, which is the MC's LLC here: it adds nothing and goes */
Test(topology, two_nodes_no_pkg)
{
	check_guest("8n2", &(struct topo_machine){ .cpus = 8, .sockets = 2, .dies = 1,
						   .cores = 2, .threads = 2, .nodes = 2 });
}

Test(topology, dies_and_nodes)
{
	check_guest("16n2", &(struct topo_machine){ .cpus = 16, .sockets = 2, .dies = 2,
						    .cores = 2, .threads = 2, .nodes = 2 });
}

Test(topology, refuses_what_is_no_machine)
{
	static struct topo_cpu cpus[8];

	cr_assert_neq(topo_build(&(struct topo_machine){ .cpus = 8, .sockets = 3, .dies = 1,
				 .cores = 2, .threads = 1, .nodes = 1 }, cpus), 0);
	cr_assert_neq(topo_build(&(struct topo_machine){ .cpus = 6, .sockets = 1, .dies = 1,
				 .cores = 6, .threads = 1, .nodes = 4 }, cpus), 0);
}

/*
 * sd_init()'s numbers and build_sched_domains()' imb_numa_nr for the topologies of QEMU guests
 * (kernel/sched/topology.c): imbalance_pct 110 and cache_nice_tries 0 at SMT, 117 and 1 at MC
 * and PKG, 117 and 2 at NUMA. imb_numa_nr is set from the first domain without SD_SHARE_LLC
 * above one with it, over the domains as built (the degenerate ones included): its LLC count,
 * or an eighth of its span when it holds one LLC (at least 1); above it, that times the span
 * over the first SD_NUMA domain's (at least once).
 */
static void numbers(const struct topo_machine *m, int cpu, const char *const *names,
		    const unsigned *pct, const unsigned *tries, const unsigned *imb, int n)
{
	static struct topo_cpu cpus[64];

	cr_assert_eq(topo_build(m, cpus), 0);
	cr_assert_eq(cpus[cpu].n, n);
	for (int l = 0; l < n; l++) {
		const struct topo_domain *d = &cpus[cpu].dom[l];

		cr_expect_str_eq(d->name, names[l]);
		cr_expect_eq(d->imbalance_pct, pct[l], "%s: imbalance_pct %u", d->name,
			     d->imbalance_pct);
		cr_expect_eq(d->cache_nice_tries, tries[l], "%s: cache_nice_tries %u", d->name,
			     d->cache_nice_tries);
		cr_expect_eq(d->imb_numa_nr, imb[l], "%s: imb_numa_nr %u", d->name, d->imb_numa_nr);
	}
}

/* 2 sockets x 4 cores x 2 threads, one node: PKG holds 2 LLCs: imb_numa_nr 2 */
Test(topology, numbers_two_sockets_one_node)
{
	struct topo_machine m = { 16, 2, 1, 4, 2, 1, NULL };
	static const char *const names[] = { "SMT", "MC", "PKG" };

	numbers(&m, 0, names, (const unsigned[]){ 110, 117, 117 }, (const unsigned[]){ 0, 1, 1 },
		(const unsigned[]){ 0, 0, 2 }, 3);
}

/* the same in a node per socket: PKG (= the LLC) is built with one LLC: 8 >> 3 = 1 */
Test(topology, numbers_two_sockets_two_nodes)
{
	struct topo_machine m = { 16, 2, 1, 4, 2, 2, NULL };
	static const char *const names[] = { "SMT", "MC", "NUMA" };

	numbers(&m, 0, names, (const unsigned[]){ 110, 117, 117 }, (const unsigned[]){ 0, 1, 2 },
		(const unsigned[]){ 0, 0, 1 }, 3);
}

/* 2 sockets x 2 dies x 4 cores x 2 threads, a node per socket: 2 LLCs a node */
Test(topology, numbers_two_dies_two_nodes)
{
	struct topo_machine m = { 32, 2, 2, 4, 2, 2, NULL };
	static const char *const names[] = { "SMT", "MC", "PKG", "NUMA" };

	numbers(&m, 0, names, (const unsigned[]){ 110, 117, 117, 117 },
		(const unsigned[]){ 0, 1, 1, 2 }, (const unsigned[]){ 0, 0, 2, 2 }, 4);
}

/* more guests of vm.md's shapes: two sockets of SMT cores, in one and two nodes; 32 and 64 vCPUs */
Test(topology, two_sockets_smt_16)
{
	check_guest("16", &(struct topo_machine){ .cpus = 16, .sockets = 2, .dies = 1,
						  .cores = 4, .threads = 2, .nodes = 1 });
	check_guest("16b2", &(struct topo_machine){ .cpus = 16, .sockets = 2, .dies = 1,
						    .cores = 4, .threads = 2, .nodes = 2 });
}

Test(topology, dies_and_nodes_32_64)
{
	check_guest("32n2", &(struct topo_machine){ .cpus = 32, .sockets = 2, .dies = 2,
						    .cores = 4, .threads = 2, .nodes = 2 });
	check_guest("64n2", &(struct topo_machine){ .cpus = 64, .sockets = 2, .dies = 4,
						    .cores = 4, .threads = 2, .nodes = 2 });
}

/* four nodes in a ring: a NUMA level per distance, the first spanning a node's neighbours */
Test(topology, numa_ring_two_levels)
{
	static const uint8_t ring[] = { 10, 20, 30, 20, 20, 10, 20, 30,
					30, 20, 10, 20, 20, 30, 20, 10 };

	check_guest("8n4ring", &(struct topo_machine){ .cpus = 8, .sockets = 4, .dies = 1,
						       .cores = 2, .threads = 1, .nodes = 4,
						       .distance = ring });
}

/* beyond node_reclaim_distance (30) the NUMA level keeps only SD_BALANCE_NEWIDLE of sd_init's */
Test(topology, numa_far_nodes)
{
	static const uint8_t far[] = { 10, 40, 40, 10 };

	check_guest("8n2far", &(struct topo_machine){ .cpus = 8, .sockets = 2, .dies = 1,
						      .cores = 4, .threads = 1, .nodes = 2,
						      .distance = far });
}
