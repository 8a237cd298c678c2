// SPDX-License-Identifier: MIT
/*
 * scheduler/sd.c - the scheduling domains the balancer walks, built once with the machine from
 * the domains scheduler/topology.c computes for its shape (docs/topology.md).
 *
 * What the kernel shares, cgsim shares: a domain's span, flags and groups are one object for
 * every CPU of its span (struct sched_dom), a group with its capacity and imbalance flag one
 * object for every domain holding it (struct sched_sg), as build_sched_groups() hands the same
 * sched_group to every CPU of a domain. What the kernel keeps per CPU in struct sched_domain
 * (the interval, the failure count, the time of the next balance) is struct sched_sd.
 *
 * Groups are the child domain's spans within the domain, the CPUs themselves at a CPU's
 * lowest domain; a group takes its child domain's flags (0 at the lowest domain). At a NUMA
 * level the kernel builds overlapping groups from each CPU's sibling's child domain; for the
 * machines cgsim builds (nodes whose distances form levels of whole nodes) those are the same
 * child spans, which is what is built here.
 *
 * The functions carry the kernel's names (kernel/sched/topology.c) where they do its
 * functions' work: get_group(), init_sched_groups_capacity(), build_sched_groups(),
 * update_top_cache_domain(); each one's comment says where it does less or more.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/sched_internal.h"
#include "scheduler/topology.h"

#define CAPACITY 1024u	/* SCHED_CAPACITY_SCALE */

static bool span_has(const uint64_t *span, int cpu)
{
	return span[cpu / 64] >> (cpu % 64) & 1;
}

static int *span_cpus(const struct sched *s, const uint64_t *span, int *n)
{
	int *cpus = malloc((size_t)s->ncpu * sizeof(*cpus));

	*n = 0;
	if (!cpus)
		return NULL;
	for (int c = 0; c < s->ncpu; c++)
		if (span_has(span, c))
			cpus[(*n)++] = c;
	return cpus;
}

/*
 * init_sched_groups_capacity(): a group's capacity, SCHED_CAPACITY_SCALE a CPU (cgsim's
 * machines are symmetric: no arch_scale_cpu_capacity()), and its cores (@threads a core).
 */
static void init_sched_groups_capacity(struct sched_sg *g, int threads)
{
	g->capacity = (uint64_t)g->weight * CAPACITY;
	for (int i = 0; i < g->weight; i++)
		g->cores += i == 0 || g->cpus[i] / threads != g->cpus[i - 1] / threads;
}

/*
 * get_group(): the group of span @span and flags @flags, made once and shared by every
 * domain holding it (the kernel's claims its child's sched_group_capacity by a reference
 * count; ours finds the group among those made).
 */
static struct sched_sg *get_group(struct sched *s, const uint64_t *span, unsigned flags,
				  int threads)
{
	struct sched_sg *g;
	int first = -1, n;

	for (int c = 0; c < s->ncpu && first < 0; c++)
		if (span_has(span, c))
			first = c;
	/* groups of the same CPUs and flags are the same group (one sgc per group) */
	for (int i = 0; i < s->nsgs; i++) {
		g = s->sgs[i];
		if (g->cpus[0] == first && g->flags == flags && g->weight > 0) {
			bool same = true;

			n = 0;
			for (int c = 0; c < s->ncpu && same; c++)
				if (span_has(span, c))
					same = n < g->weight && g->cpus[n++] == c;
			if (same && n == g->weight)
				return g;
		}
	}
	if (!(s->nsgs & (s->nsgs + 1)) || !s->sgs) {
		/* grow at 0, 1, 3, 7, ...: capacity nsgs + 1 rounded up to a power of two */
		size_t cap = (size_t)(s->nsgs + 1) * 2;
		struct sched_sg **ng = realloc(s->sgs, cap * sizeof(*ng));

		if (!ng)
			return NULL;
		s->sgs = ng;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->cpus = span_cpus(s, span, &g->weight);
	if (!g->cpus) {
		free(g);
		return NULL;
	}
	g->flags = flags;
	init_sched_groups_capacity(g, threads);
	s->sgs[s->nsgs++] = g;
	return g;
}

/*
 * build_sched_groups(): the groups of domain @d at level @l of @tc, its CPUs' child domains
 * (the CPUs themselves at the lowest level), in CPU order from its first CPU; the kernel's
 * starts at the CPU it builds for, ours once for every CPU of the span. 0 or -ENOMEM.
 */
static int build_sched_groups(struct sched *s, const struct topo_cpu *tc, int l,
			      struct sched_dom *d, int threads)
{
	for (int i = 0; i < d->weight; i++) {
		int o = d->cpus[i];
		struct sched_sg *g;
		bool seen = false;

		if (l == 0) {
			uint64_t one[TOPO_MASK_WORDS] = { 0 };

			one[o / 64] = 1ull << (o % 64);
			g = get_group(s, one, 0, threads);
		} else {
			/* @o's child domain, unless a group so far covers @o */
			for (int k = 0; k < d->ngroups && !seen; k++)
				for (int j = 0; j < d->groups[k]->weight && !seen; j++)
					seen = d->groups[k]->cpus[j] == o;
			if (seen)
				continue;
			g = get_group(s, tc[o].dom[l - 1].span, tc[o].dom[l - 1].flags, threads);
		}
		if (!g)
			return -ENOMEM;
		d->groups[d->ngroups++] = g;
	}
	return 0;
}

/* CPU @c's domain at level @l of @tc, made once for all CPUs of its span. */
static struct sched_dom *dom_get(struct sched *s, const struct topo_cpu *tc, int c, int l,
				 int threads)
{
	const struct topo_domain *td = &tc[c].dom[l];
	struct sched_dom *d;

	for (int i = 0; i < s->ndoms; i++) {
		d = s->doms[i];
		if (!strcmp(d->name, td->name) && d->flags == td->flags &&
		    !memcmp(d->span, td->span, s->mask_words * sizeof(uint64_t)))
			return d;
	}
	if (!(s->ndoms & (s->ndoms + 1)) || !s->doms) {
		struct sched_dom **nd = realloc(s->doms, (size_t)(s->ndoms + 1) * 2 * sizeof(*nd));

		if (!nd)
			return NULL;
		s->doms = nd;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	s->doms[s->ndoms++] = d;
	memcpy(d->name, td->name, sizeof(d->name));
	d->flags = td->flags;
	d->imbalance_pct = td->imbalance_pct;
	d->cache_nice_tries = td->cache_nice_tries;
	d->imb_numa_nr = td->imb_numa_nr;
	/*
	 * SIS_UTIL's scan budget as an idle LLC's balance writes it (all its CPUs); the kernel's
	 * starts at 0 until the first balance after boot, long before anything is measured
	 */
	d->nr_idle_scan = SCHED_MAX_CPUS;	/* set to the span's weight below */
	d->span = calloc(s->mask_words, sizeof(uint64_t));
	d->cpus = span_cpus(s, td->span, &d->weight);
	d->nr_idle_scan = d->weight;
	d->groups = calloc((size_t)d->weight, sizeof(*d->groups));
	if (!d->span || !d->cpus || !d->groups)
		return NULL;
	memcpy(d->span, td->span, s->mask_words * sizeof(uint64_t));
	return build_sched_groups(s, tc, l, d, threads) ? NULL : d;
}

/*
 * update_top_cache_domain(): CPU @c's LLC, its highest domain with SD_SHARE_LLC (none: -1,
 * and an LLC of its own); the kernel's also caches the NUMA and asymmetric-capacity domains
 * and the LLC's shared state, which cgsim does not keep.
 */
static void update_top_cache_domain(struct sched_cpu *rq, int c)
{
	rq->llc = -1;
	rq->llc_id = c;
	for (int l = 0; l < rq->nsd; l++)
		if (rq->sd[l].d->flags & (1u << TOPO_SD_SHARE_LLC)) {
			rq->llc = l;
			rq->llc_id = rq->sd[l].d->cpus[0];
		}
}

/*
 * cpu_attach_domain()'s attaching (topo_build() made its removals): CPU @c's domains of @tc
 * hung on its runqueue, each domain made once for its span (dom_get()), with its local group
 * and the per-CPU numbers of sd_init(); then its LLC. 0 or -ENOMEM.
 */
static int attach_cpu_domains(struct sched *s, const struct topo_cpu *tc, int c)
{
	struct sched_cpu *rq = &s->cpu[c];

	rq->next_balance = UINT64_MAX;
	for (int l = 0; l < tc[c].n; l++) {
		struct sched_sd *sd = &rq->sd[l];

		sd->d = dom_get(s, tc, c, l, s->threads);
		if (!sd->d)
			return -ENOMEM;
		for (int k = 0; k < sd->d->ngroups; k++)
			if (span_has(tc[c].dom[l].span, c) &&
			    (l == 0 ? sd->d->groups[k]->cpus[0] == c :
			     span_has(tc[c].dom[l - 1].span, sd->d->groups[k]->cpus[0])))
				sd->local = k;
		/* sd_init(): balance_interval = min_interval = span_weight ms */
		sd->balance_interval = (uint64_t)sd->d->weight * NSEC_PER_MSEC;
		/*
		 * sd_init() starts the counts at 512 calls, 256 successes and a ratio of 512;
		 * a given ratio starts the successes at its half, as the window's halving
		 * leaves them
		 */
		sd->newidle_call = 512;
		sd->newidle_success = s->cfg.newidle_ratio / 2;
		sd->newidle_ratio = s->cfg.newidle_ratio;
		rq->next_balance = umin(rq->next_balance, sd->balance_interval);
	}
	update_top_cache_domain(rq, c);
	return 0;
}

int sched__sd_build(struct sched *s)
{
	const struct topo_machine *m = &s->cfg.machine;
	struct topo_cpu *tc = calloc((size_t)s->ncpu, sizeof(*tc));
	int n = 0, llcs = 0, err = -ENOMEM;

	if (!tc)
		return -ENOMEM;
	err = topo_build(m, tc);
	if (err)
		goto out;
	err = -ENOMEM;
	for (int c = 0; c < s->ncpu; c++)
		n += tc[c].n;
	s->sd_all = calloc((size_t)n + 1, sizeof(*s->sd_all));
	if (!s->sd_all)
		goto out;
	s->threads = m->threads;
	n = 0;
	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		rq->sd = s->sd_all + n;
		rq->nsd = tc[c].n;
		if ((err = attach_cpu_domains(s, tc, c)))
			goto out;
		n += tc[c].n;
		llcs += rq->llc_id == c;
	}
	s->multi_llc_or_smt = llcs > 1 || m->threads > 1;
	err = 0;
out:
	free(tc);
	return err;
}

void sched__sd_free(struct sched *s)
{
	for (int i = 0; i < s->ndoms; i++) {
		if (!s->doms[i])
			continue;
		free(s->doms[i]->cpus);
		free(s->doms[i]->span);
		free(s->doms[i]->groups);
		free(s->doms[i]);
	}
	for (int i = 0; i < s->nsgs; i++) {
		free(s->sgs[i]->cpus);
		free(s->sgs[i]);
	}
	free(s->doms);
	free(s->sgs);
	free(s->sd_all);
}
