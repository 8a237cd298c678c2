// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_topology.c - the scheduling domains topo_build() gives against those Linux
 * 6.12 built in guests of validate --vm (tests/kernel/domains-6.12.txt: every CPU's domains,
 * their names, spans and flags, for 4 flat CPUs, 2 sockets x 2 cores x 2 threads in one and in
 * two nodes, 2 sockets x 2 dies x 2 cores x 2 threads in two nodes).
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
