// SPDX-License-Identifier: MIT
/*
 * scheduler/topology.c - the scheduling domains of a machine, as Linux 6.12 builds them on x86
 * (scheduler/topology.h; kernel/sched/topology.c, arch/x86/kernel/smpboot.c).
 *
 * The levels, lowest first, each a CPU mask and flags:
 *	SMT	the core's threads			SD_SHARE_CPUCAPACITY | SD_SHARE_LLC
 *	CLS	the CPUs sharing an L2: the core's here	SD_CLUSTER | SD_SHARE_LLC
 *	MC	the LLC, which QEMU makes the die	SD_SHARE_LLC
 *	PKG	the node's CPUs (cpu_cpu_mask())	-; dropped when a package holds
 *							several nodes
 *	NODE	the node's CPUs (NUMA level 0)		-
 *	NUMA	per distance d > local: the CPUs of	SD_NUMA, and SD_OVERLAP
 *		the nodes within d
 * sd_init() gives every level SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
 * SD_WAKE_AFFINE | SD_PREFER_SIBLING besides its own; a NUMA level loses SD_PREFER_SIBLING,
 * gains SD_SERIALIZE, and beyond node_reclaim_distance (30) loses SD_BALANCE_EXEC,
 * SD_BALANCE_FORK and SD_WAKE_AFFINE. A level's span takes its child's in, and the build stops
 * at the first level that spans every CPU.
 *
 * Then, per CPU, a parent that adds nothing to its child is removed (sd_parent_degenerate():
 * the same span, and no flag the child lacks once the flags that need several groups are
 * dropped from a parent of one group), and the lowest domain goes if it is degenerate itself
 * (one CPU, or one group and no SD_WAKE_AFFINE).
 *
 * The functions carry the kernel's names where they do its functions' work
 * (build_sched_topology(), sd_init(), build_sched_domain(), build_sched_domains(),
 * sd_degenerate(), sd_parent_degenerate(), cpu_attach_domain()); each one's comment says
 * where it does less. The groups and what the kernel keeps per CPU are scheduler/sd.c's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/topology.h"

#define F(x) (1u << TOPO_SD_##x)
/* every flag but SD_WAKE_AFFINE needs more than one group to mean anything (SDF_NEEDS_GROUPS) */
#define NEEDS_GROUPS (((1u << TOPO_NFLAGS) - 1) & ~F(WAKE_AFFINE))
#define RECLAIM_DISTANCE 30

static const char *const flag_names[TOPO_NFLAGS] = {
	"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE", "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL",
	"SD_SHARE_CPUCAPACITY", "SD_CLUSTER", "SD_SHARE_LLC", "SD_SERIALIZE", "SD_ASYM_PACKING",
	"SD_PREFER_SIBLING", "SD_OVERLAP", "SD_NUMA",
};

const char *topo_flag_name(enum topo_flag f)
{
	return f < TOPO_NFLAGS ? flag_names[f] : "?";
}

static void set_bit(uint64_t *m, int cpu)
{
	m[cpu / 64] |= 1ull << (cpu % 64);
}

static bool test_bit(const uint64_t *m, int cpu)
{
	return m[cpu / 64] >> (cpu % 64) & 1;
}

static bool mask_equal(const uint64_t *a, const uint64_t *b)
{
	return !memcmp(a, b, TOPO_MASK_WORDS * sizeof(*a));
}

static int weight(const uint64_t *m)
{
	int n = 0;

	for (size_t i = 0; i < TOPO_MASK_WORDS; i++)
		n += __builtin_popcountll(m[i]);
	return n;
}

void topo_span_str(const uint64_t *span, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < TOPO_MAX_CPUS && n < len; c++) {
		int e = c;

		if (!test_bit(span, c))
			continue;
		while (e + 1 < TOPO_MAX_CPUS && test_bit(span, e + 1))
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > c ? "%s%d-%d" : "%s%d", n ? "," : "",
				      c, e);
		c = e;
	}
}

/* A level of the table: its name, its flags from the topology, and how to find a CPU's mask. */
enum topo_kind { K_SMT, K_CLS, K_MC, K_PKG, K_NODE, K_NUMA };

struct level {
	const char *name;
	enum topo_kind kind;
	unsigned flags;
	int distance;		/* K_NUMA: the level's distance */
};

/* cpu_to_node(): the nodes take the CPUs evenly in id order */
static int cpu_to_node(const struct topo_machine *m, int cpu)
{
	return cpu / (m->cpus / m->nodes);
}

/* node_distance(): the SLIT's, or 10 local and 20 remote without one */
static int node_distance(const struct topo_machine *m, int a, int b)
{
	if (a == b)
		return m->distance ? m->distance[a * m->nodes + a] : 10;
	return m->distance ? m->distance[a * m->nodes + b] : 20;
}

/* Whether CPUs @a and @b are together at level @l. */
static bool together(const struct topo_machine *m, const struct level *l, int a, int b)
{
	int core = m->threads, die = core * m->cores;

	switch (l->kind) {
	case K_SMT:
	case K_CLS:
		return a / core == b / core;
	case K_MC:
		return a / die == b / die;
	case K_PKG:
	case K_NODE:
		return cpu_to_node(m, a) == cpu_to_node(m, b);
	case K_NUMA:
		return node_distance(m, cpu_to_node(m, a), cpu_to_node(m, b)) <= l->distance;
	}
	return false;
}

/*
 * The table: x86's levels as build_sched_topology() (arch/x86/kernel/smpboot.c) makes them,
 * then NODE and a NUMA level per distinct remote distance as sched_init_numa() adds them
 * (ours in one function, and without the kernel's masks: together() tells a level's CPUs).
 */
static int build_sched_topology(const struct topo_machine *m, struct level *lv)
{
	int n = 0, ds[TOPO_MAX_LEVELS], nd = 0;
	bool numa_in_package = false;
	int pkg = m->threads * m->cores * m->dies;

	/* two CPUs of one package in different nodes: x86_has_numa_in_package drops PKG */
	for (int c = 0; c < m->cpus && !numa_in_package; c++)
		numa_in_package = cpu_to_node(m, c) != cpu_to_node(m, c / pkg * pkg);
	lv[n++] = (struct level){ "SMT", K_SMT, F(SHARE_CPUCAPACITY) | F(SHARE_LLC), 0 };
	lv[n++] = (struct level){ "CLS", K_CLS, F(CLUSTER) | F(SHARE_LLC), 0 };
	lv[n++] = (struct level){ "MC", K_MC, F(SHARE_LLC), 0 };
	if (!numa_in_package)
		lv[n++] = (struct level){ "PKG", K_PKG, 0, 0 };
	if (m->nodes <= 1)
		return n;
	lv[n++] = (struct level){ "NODE", K_NODE, 0, 0 };
	/* the distinct distances greater than the local one, ascending */
	for (int a = 0; a < m->nodes; a++)
		for (int b = 0; b < m->nodes; b++) {
			int d = node_distance(m, a, b), k = 0;

			if (d <= node_distance(m, a, a))
				continue;
			while (k < nd && ds[k] < d)
				k++;
			if (k < nd && ds[k] == d)
				continue;
			if (nd == TOPO_MAX_LEVELS - 8)
				return -EINVAL;
			memmove(ds + k + 1, ds + k, (size_t)(nd - k) * sizeof(*ds));
			ds[k] = d;
			nd++;
		}
	for (int k = 0; k < nd; k++)
		lv[n++] = (struct level){ "NUMA", K_NUMA, F(NUMA) | F(OVERLAP), ds[k] };
	return n;
}

/*
 * sd_init(): the flags, imbalance_pct and cache_nice_tries of a domain @d of level @l (its
 * name and span are build_sched_domain()'s; the per-CPU balance state the kernel sets here
 * is scheduler/sd.c's).
 */
static void sd_init(const struct level *l, struct topo_domain *d)
{
	unsigned f = F(BALANCE_NEWIDLE) | F(BALANCE_EXEC) | F(BALANCE_FORK) | F(WAKE_AFFINE) |
		     F(PREFER_SIBLING) | l->flags;

	if (!(f & (F(SHARE_CPUCAPACITY) | F(SHARE_LLC))) && (f & F(NUMA))) {
		f &= ~F(PREFER_SIBLING);
		f |= F(SERIALIZE);
		if (l->distance > RECLAIM_DISTANCE)
			f &= ~(F(BALANCE_EXEC) | F(BALANCE_FORK) | F(WAKE_AFFINE));
	}
	d->flags = f;
	d->imbalance_pct = 117;
	d->cache_nice_tries = 1;
	if (d->flags & F(SHARE_CPUCAPACITY)) {
		d->imbalance_pct = 110;
		d->cache_nice_tries = 0;
	} else if (!(d->flags & F(SHARE_LLC)) && (d->flags & F(NUMA))) {
		d->cache_nice_tries = 2;
	}
}

/* One CPU's domains as built, before any is removed, with each one's number of groups. */
struct built {
	struct topo_domain dom[TOPO_MAX_LEVELS];
	int groups[TOPO_MAX_LEVELS];
	int n;
};

/*
 * build_sched_domain(): CPU @cpu's domain @d at level @l, its span taking in its child's
 * (@child, NULL at the lowest level). Whether it spans every CPU, where the build stops.
 */
static bool build_sched_domain(const struct topo_machine *m, const struct level *l,
			       const struct topo_domain *child, int cpu, struct topo_domain *d)
{
	bool all = true;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", l->name);
	sd_init(l, d);
	for (int c = 0; c < m->cpus; c++)
		if (together(m, l, cpu, c) || (child && test_bit(child->span, c)))
			set_bit(d->span, c);
	for (int c = 0; c < m->cpus; c++)
		all &= test_bit(d->span, c);
	return all;
}

/* The first CPU of @span. */
static int first_cpu(const uint64_t *span)
{
	for (size_t i = 0; i < TOPO_MASK_WORDS; i++)
		if (span[i])
			return (int)(i * 64) + __builtin_ctzll(span[i]);
	return -1;
}

/*
 * The number of groups build_sched_groups() gives each domain of @b, which is all
 * sd_degenerate() needs (scheduler/sd.c makes the groups): its child level's distinct spans
 * within it (CPUs at the base). A domain the first CPU of its span built the same has the
 * same groups: counted once, so that a machine of n CPUs costs n^2, not n^3.
 */
static void count_sched_groups(const struct topo_machine *m, const struct built *all, struct built *b)
{
	for (int k = 0; k < b->n; k++) {
		int g = 0, f = first_cpu(b->dom[k].span);
		const struct built *fb = f >= 0 ? &all[f] : NULL;

		if (fb && fb != b && fb->n > k && mask_equal(fb->dom[k].span, b->dom[k].span)) {
			b->groups[k] = fb->groups[k];
			continue;
		}

		for (int c = 0; c < m->cpus; c++) {
			bool first = true;

			if (!test_bit(b->dom[k].span, c))
				continue;
			if (k == 0) {
				g++;
				continue;
			}
			/* c counts when no lower-numbered CPU of the span has its child span */
			for (int o = 0; o < c && first; o++)
				first = !(test_bit(b->dom[k].span, o) &&
					  mask_equal(all[o].dom[k - 1].span, all[c].dom[k - 1].span));
			g += first;
		}
		b->groups[k] = g;
	}
}

/*
 * imb_numa_nr, set at the end of build_sched_domains() over the domains as built (before any
 * is removed): the first domain without SD_SHARE_LLC above one with it gets its number of
 * LLCs, or an eighth of its CPUs when it holds one LLC, at least 1; every domain above it that
 * times its span over the span of the first SD_NUMA domain above (its own when there is none),
 * at least once. adjust_numa_imbalance() lets a NUMA level leave that many tasks unbalanced.
 */
static void numa_imbalance(struct built *b)
{
	unsigned imb = 0, imb_span = 1;

	for (int k = 1; k < b->n; k++) {
		struct topo_domain *d = &b->dom[k], *child = &b->dom[k - 1];
		unsigned w = (unsigned)weight(d->span);

		if (!(d->flags & F(SHARE_LLC)) && (child->flags & F(SHARE_LLC))) {
			unsigned nr_llcs = w / (unsigned)weight(child->span);
			int p = k + 1;

			imb = nr_llcs == 1 ? w >> 3 : nr_llcs;
			if (imb < 1)
				imb = 1;
			d->imb_numa_nr = imb;
			while (p < b->n && !(b->dom[p].flags & F(NUMA)))
				p++;
			imb_span = p < b->n ? (unsigned)weight(b->dom[p].span) : w;
		} else {
			unsigned factor = w / imb_span;

			d->imb_numa_nr = imb * (factor > 1 ? factor : 1);
		}
	}
}

/* sd_degenerate(): one CPU, or nothing that needs its @groups and no SD_WAKE_AFFINE */
static bool sd_degenerate(const struct topo_domain *d, int groups)
{
	if (weight(d->span) == 1)
		return true;
	if ((d->flags & NEEDS_GROUPS) && groups > 1)
		return false;
	return !(d->flags & F(WAKE_AFFINE));
}

/*
 * sd_parent_degenerate(): parent @p (of @pgroups groups) adds nothing to child @c: it is
 * degenerate, or has @c's span and no flag @c lacks once a parent of one group drops the
 * flags that need groups
 */
static bool sd_parent_degenerate(const struct topo_domain *c, const struct topo_domain *p,
				 int pgroups)
{
	unsigned pflags = p->flags;

	if (sd_degenerate(p, pgroups))
		return true;
	if (!mask_equal(c->span, p->span))
		return false;
	if (pgroups == 1)
		pflags &= ~NEEDS_GROUPS;
	return !(~c->flags & pflags);
}

struct topo_machine topo_machine_flat(int cpus)
{
	return (struct topo_machine){ .cpus = cpus, .sockets = 1, .dies = 1, .cores = cpus,
				      .threads = 1, .nodes = 1, .distance = NULL };
}

int topo_machine_check(const struct topo_machine *m)
{
	/* each count at most TOPO_MAX_CPUS once cpus is: the product cannot overflow a long */
	if (m->cpus < 1 || m->cpus > TOPO_MAX_CPUS || m->sockets < 1 || m->dies < 1 ||
	    m->cores < 1 || m->threads < 1 || m->nodes < 1 || m->sockets > m->cpus ||
	    m->dies > m->cpus || m->cores > m->cpus || m->threads > m->cpus ||
	    (long long)m->sockets * m->dies * m->cores * m->threads != m->cpus ||
	    m->cpus % m->nodes)
		return -EINVAL;
	return 0;
}

/*
 * cpu_attach_domain()'s removals: of one CPU's domains as built (@b), a parent that adds
 * nothing goes, then a degenerate lowest domain; what is kept into @out. The kernel's also
 * attaches them to the runqueue, which scheduler/sd.c does.
 */
static void cpu_attach_domain(const struct built *b, struct topo_cpu *out)
{
	bool keep[TOPO_MAX_LEVELS];
	int base = 0, n = 0;

	for (int k = 0; k < b->n; k++)
		keep[k] = true;
	for (int k = 0, p; k < b->n; k = p) {
		for (p = k + 1; p < b->n; p++) {
			if (!sd_parent_degenerate(&b->dom[k], &b->dom[p], b->groups[p]))
				break;
			keep[p] = false;
		}
	}
	while (base < b->n && !keep[base])
		base++;
	if (base < b->n && sd_degenerate(&b->dom[base], b->groups[base]))
		keep[base] = false;
	for (int k = 0; k < b->n; k++)
		if (keep[k])
			out->dom[n++] = b->dom[k];
	out->n = n;
}

/*
 * build_sched_domains(): every CPU's domains, lowest first, up to the first that spans the
 * machine; their groups counted and imb_numa_nr set over them as built; then what
 * cpu_attach_domain() keeps into @out. @all is scratch, a struct built per CPU. Ours builds
 * no sched_group and no sched_domain_shared (scheduler/sd.c makes the groups the balancer
 * walks) and has no cpu_map: every CPU is in the one root domain.
 */
static void build_sched_domains(const struct topo_machine *m, const struct level *lv, int nlv,
				struct built *all, struct topo_cpu *out)
{
	for (int c = 0; c < m->cpus; c++) {
		struct built *b = &all[c];

		b->n = 0;
		for (int k = 0; k < nlv; k++) {
			const struct topo_domain *child = b->n ? &b->dom[b->n - 1] : NULL;
			bool spans_all = build_sched_domain(m, &lv[k], child, c, &b->dom[b->n]);

			b->n++;
			if (spans_all)
				break;
		}
	}
	for (int c = 0; c < m->cpus; c++) {
		count_sched_groups(m, all, &all[c]);
		numa_imbalance(&all[c]);
	}
	for (int c = 0; c < m->cpus; c++)
		cpu_attach_domain(&all[c], &out[c]);
}

int topo_build(const struct topo_machine *m, struct topo_cpu *out)
{
	struct level lv[TOPO_MAX_LEVELS];
	struct built *all;
	int nlv;

	if (topo_machine_check(m))
		return -EINVAL;
	nlv = build_sched_topology(m, lv);
	if (nlv < 0)
		return nlv;
	all = calloc((size_t)m->cpus, sizeof(*all));
	if (!all)
		return -ENOMEM;
	build_sched_domains(m, lv, nlv, all, out);
	free(all);
	return 0;
}
