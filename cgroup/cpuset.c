/* SPDX-License-Identifier: MIT */
/*
 * cgroup/cpuset.c - the cpuset controller's CPUs on cgroup v2 (kernel/cgroup/cpuset.c):
 * cpuset.cpus as requested, cpuset.cpus.effective as derived, and their propagation.
 *
 * Rules (6.12 .. 6.19 source): a new css has an empty request and its parent's effective set
 * (cpuset_css_online); a write is stripped, "" clears the request, anything else goes through
 * cpulist_parse() with nr_cpu_ids bits (cpuset_write_resmask, update_cpumask); an unchanged
 * request is a no-op; a populated cgroup may not go from a non-empty request to an empty one
 * (validate_change: -ENOSPC; 7.0 lifts this for v2); then every effective set of the subtree is
 * recomputed top-down as request & parent's effective, the parent's effective when that is
 * empty (update_cpumasks_hier), a subtree whose root did not change being skipped.
 *
 * Memory nodes on a machine of one node, node 0 (the model has no NUMA): cpuset.mems is written
 * as cpuset.cpus is, parsed with MAX_NUMNODES bits and kept only if within the nodes that have
 * memory (update_nodemask); its effective set is node 0 everywhere.
 *
 * Partitions and exclusive CPUs: their files exist and read as the kernel's defaults (every
 * cgroup a member, no exclusive or isolated CPU); a write that would leave those defaults is
 * refused as not modelled (ENOSYS), one that keeps them is taken. CPU hotplug is not modelled.
 *
 * The model keeps cpus_eff for every cgroup, a cgroup without a css holding its parent's: so a
 * thread's CPUs are those of its own cgroup, and one pre-order walk finds every cgroup whose
 * threads must be told.
 */
#include "cgroup/cg_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- masks ------------------------------------------------------------------------------- */

static bool mask_test(const struct cg__cpumask *m, int cpu)
{
	return m->w[cpu / 64] >> (cpu % 64) & 1;
}

static bool mask_empty(const struct cg__cpumask *m)
{
	for (int i = 0; i < CG_CPUMASK_WORDS; i++)
		if (m->w[i])
			return false;
	return true;
}

static bool mask_equal(const struct cg__cpumask *a, const struct cg__cpumask *b)
{
	return !memcmp(a->w, b->w, sizeof(a->w));
}

static bool mask_subset(const struct cg__cpumask *a, const struct cg__cpumask *b)
{
	for (int i = 0; i < CG_CPUMASK_WORDS; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

/* CPUs 0 .. n - 1 */
static void mask_first(struct cg__cpumask *m, int n)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < n / 64; i++)
		m->w[i] = ~0ULL;
	if (n % 64)
		m->w[n / 64] = (1ULL << (n % 64)) - 1;
}

/* Drop CPUs n and above. */
static void mask_trim(struct cg__cpumask *m, int n)
{
	struct cg__cpumask all;

	mask_first(&all, n);
	for (int i = 0; i < CG_CPUMASK_WORDS; i++)
		m->w[i] &= all.w[i];
}

/*
 * The kernel's "%*pbl" with nr_cpu_ids bits (cpuset_common_seq_show): ranges "A-B" and single
 * CPUs "A", ascending, separated by commas; two adjacent CPUs are a range ("0-1").
 */
void cg__cpulist_print(struct cg__buf *b, const struct cg__cpumask *m, int nbits)
{
	bool first = true;

	for (int lo = 0; lo < nbits; lo++) {
		int hi = lo;

		if (!mask_test(m, lo))
			continue;
		while (hi + 1 < nbits && mask_test(m, hi + 1))
			hi++;
		cg__buf_printf(b, "%s%d", first ? "" : ",", lo);
		if (hi > lo)
			cg__buf_printf(b, "-%d", hi);
		first = false;
		lo = hi;
	}
	cg__buf_add(b, "\n", 1);
}

/* ---- effective sets ---------------------------------------------------------------------- */

/* What @c's effective set must be: request & parent's effective, or the parent's if empty. */
static void compute_eff(const struct cg_cgroup *c, struct cg__cpumask *out)
{
	const struct cg__cpumask *pe = &c->parent->cpus_eff;
	bool any = false;

	for (int i = 0; i < CG_CPUMASK_WORDS; i++) {
		out->w[i] = c->has_cpuset ? c->cpus_req.w[i] & pe->w[i] : 0;
		any |= out->w[i] != 0;
	}
	if (!any)
		*out = *pe;
}

/* Pre-order successor of @d in @root's subtree that skips @d's own descendants. */
static struct cg_cgroup *next_skip(struct cg_cgroup *d, const struct cg_cgroup *root)
{
	while (d != root && !d->next)
		d = d->parent;
	return d == root ? NULL : d->next;
}

static void emit_cpuset(struct cg_hier *h, const struct cg_cgroup *c)
{
	struct cg_event ev = { .kind = CG_EV_CPUSET, .cgroup = c->id };

	cg__emit(h, &ev);
}

/*
 * update_cpumasks_hier(): recompute the effective sets of @top's subtree, @top included (the
 * root's own set is the caller's business), skipping a subtree whose root kept its set: its
 * descendants depend on nothing else. One CG_EV_CPUSET per change, in pre-order.
 */
static void propagate(struct cg_hier *h, struct cg_cgroup *top)
{
	struct cg_cgroup *d = top;

	while (d) {
		struct cg__cpumask ne;

		if (d->parent) {
			compute_eff(d, &ne);
			if (mask_equal(&ne, &d->cpus_eff)) {
				d = next_skip(d, top);
				continue;
			}
			d->cpus_eff = ne;
			emit_cpuset(h, d);
		}
		d = cg__next_pre(d, top);
	}
}

/* ---- life cycle -------------------------------------------------------------------------- */

void cg__cpuset_init_root(struct cg_hier *h)
{
	h->nr_cpus = CG_NR_CPUS_DEFAULT;
	mask_first(&h->root->cpus_eff, h->nr_cpus);
}

/* cgroup_mkdir() + cpuset_css_online(): a css with no request and the parent's set. */
void cg__cpuset_mkdir(struct cg_cgroup *c)
{
	c->has_cpuset = c->parent->subtree_control & CG_MASK(CG_CTRL_CPUSET);
	memset(&c->cpus_req, 0, sizeof(c->cpus_req));
	c->mems_req = false;
	c->cpus_eff = c->parent->cpus_eff;
}

/*
 * @c's subtree_control went from @old to its current value. "+cpuset" gives each child a new
 * css (empty request; its set, the parent's, does not change); "-cpuset" takes them away and
 * each child's subtree falls back to @c's set. No grandchild has a css on either side (the
 * top-down rule), so the children's subtrees are all that can change.
 */
void cg__cpuset_apply(struct cg_hier *h, struct cg_cgroup *c, cg_mask old)
{
	bool had = old & CG_MASK(CG_CTRL_CPUSET);
	bool has = c->subtree_control & CG_MASK(CG_CTRL_CPUSET);

	if (had == has)
		return;
	for (struct cg_cgroup *k = c->children; k; k = k->next) {
		k->has_cpuset = has;
		memset(&k->cpus_req, 0, sizeof(k->cpus_req));
		k->mems_req = false;
		propagate(h, k);
	}
}

/*
 * cpuset_write_resmask(): the value stripped, then "" is the empty set (special-cased; the
 * parser would take it too), anything else a list of @nbits bits; -ENOMEM or the parser's errno.
 */
static int parse_list(const char *buf, int nbits, struct cg__cpumask *out)
{
	char *copy = strdup(buf), *s;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	if (!*s)
		memset(out, 0, sizeof(*out));
	else
		r = cg__cpulist_parse(s, nbits, out);
	free(copy);
	return r;
}

/* cpuset_write_resmask() + update_cpumask() for cpuset.cpus (never on the root). */
int cg__cpuset_write(struct cg_hier *h, struct cg_cgroup *c, const char *buf)
{
	struct cg__cpumask req;
	int r = parse_list(buf, h->nr_cpus, &req);

	/* every possible CPU is allowed: no subset test can fail */
	if (r)
		return cg__bad_value(h, CG_RULE_CPULIST_SYNTAX, r);
	if (mask_equal(&req, &c->cpus_req))
		return 0;
	/* validate_change(): tasks here or below keep a non-empty request (up to 6.19) */
	if (cg__is_populated(c) && !mask_empty(&c->cpus_req) && mask_empty(&req))
		return cg__refuse(h, CG_RULE_CPUSET_EMPTY, -ENOSPC);
	h->touched = true;
	c->cpus_req = req;
	propagate(h, c);
	return 0;
}

/*
 * MAX_NUMNODES of the kernels compared (Debian's amd64: NODES_SHIFT 10): nodelist_parse()
 * refuses a node at or above it with ERANGE, update_nodemask() one without memory with EINVAL.
 */
#define MAX_NUMNODES 1024

/*
 * cpuset_write_resmask() + update_nodemask() for cpuset.mems (never on the root): "" clears the
 * request, anything else goes through nodelist_parse(); a node outside top_cpuset.mems_allowed
 * (the nodes with memory: node 0 alone here) is -EINVAL; an unchanged request is a no-op; then
 * validate_change(): a populated cgroup keeps a non-empty request (-ENOSPC). The effective sets
 * (update_nodemasks_hier) cannot change: every one is node 0.
 */
static int mems_write(struct cg_hier *h, struct cg_cgroup *c, const char *buf)
{
	struct cg__cpumask req;
	int r = parse_list(buf, MAX_NUMNODES, &req);
	bool want;

	if (r)
		return cg__bad_value(h, CG_RULE_NODELIST_SYNTAX, r);
	want = mask_test(&req, 0);
	req.w[0] &= ~1ULL;
	if (!mask_empty(&req))
		return cg__refuse(h, CG_RULE_MEMS_NODE, -EINVAL);
	if (want == c->mems_req)
		return 0;
	if (cg__is_populated(c) && c->mems_req && !want)
		return cg__refuse(h, CG_RULE_MEMS_EMPTY, -ENOSPC);
	h->touched = true;
	c->mems_req = want;
	return 0;
}

/* ---- the public interface ---------------------------------------------------------------- */

int cg_set_nr_cpus(struct cg_hier *h, int n)
{
	struct cg__cpumask all;

	cg__begin(h);
	if (n < 1 || n > CG_NR_CPUS_MAX)
		return cg__done(h, cg__refuse(h, CG_RULE_NR_CPUS_RANGE, -EINVAL));
	h->nr_cpus = n;
	for (int i = 1; i < h->nr_cgroups; i++)
		if (h->cgroups[i])
			mask_trim(&h->cgroups[i]->cpus_req, n);
	mask_first(&all, n);
	if (!mask_equal(&all, &h->root->cpus_eff)) {
		h->root->cpus_eff = all;
		emit_cpuset(h, h->root);
	}
	/* a trimmed request matters only below a set that changed: no subtree is missed */
	propagate(h, h->root);
	return cg__done(h, 0);
}

int cg_nr_cpus(const struct cg_hier *h)
{
	return h->nr_cpus;
}

static int copy_out(const struct cg_hier *h, const struct cg__cpumask *m, uint64_t *mask,
		    size_t nwords)
{
	if (nwords < (size_t)(h->nr_cpus + 63) / 64)
		return -EINVAL;
	for (size_t i = 0; i < nwords; i++)
		mask[i] = i < CG_CPUMASK_WORDS ? m->w[i] : 0;
	return 0;
}

int cg_cpuset_effective(const struct cg_hier *h, int cgroup, uint64_t *mask, size_t nwords)
{
	const struct cg_cgroup *c = cgroup >= 0 && cgroup < h->nr_cgroups ? h->cgroups[cgroup]
									  : NULL;

	if (!c)
		return -ENOENT;
	return copy_out(h, &c->cpus_eff, mask, nwords);
}

int cg_thread_cpus(const struct cg_hier *h, int tid, uint64_t *mask, size_t nwords)
{
	const struct cg_thread *t = tid >= 1 && tid < h->nr_threads ? h->threads[tid] : NULL;

	if (!t || t->dead)
		return -ESRCH;
	return copy_out(h, &t->cg->cpus_eff, mask, nwords);
}

/* ---- invariants -------------------------------------------------------------------------- */

/* Requests within the machine, none without a css or on the root; each effective set what the
 * rules give from its parent's, so non-empty and within it. */
int cg__cpuset_check(const struct cg_hier *h, const struct cg_cgroup *c)
{
	struct cg__cpumask all, want;

	mask_first(&all, h->nr_cpus);
	if (!mask_subset(&c->cpus_req, &all) || !mask_subset(&c->cpus_eff, &all) ||
	    mask_empty(&c->cpus_eff))
		return -EUCLEAN;
	if (!c->parent)
		return mask_equal(&c->cpus_eff, &all) && !c->has_cpuset &&
			       mask_empty(&c->cpus_req) && !c->mems_req ? 0 : -EUCLEAN;
	if (!c->has_cpuset && (!mask_empty(&c->cpus_req) || c->mems_req))
		return -EUCLEAN;
	if (h->sem == CG_SEM_V1 ? c->has_cpuset
				: c->has_cpuset != !!(c->parent->subtree_control &
						      CG_MASK(CG_CTRL_CPUSET)))
		return -EUCLEAN;
	if (!mask_subset(&c->cpus_eff, &c->parent->cpus_eff))
		return -EUCLEAN;
	compute_eff(c, &want);
	return mask_equal(&want, &c->cpus_eff) ? 0 : -EUCLEAN;
}

/* ---- cpuset controller files (v2 dfl_files) ---------------------------------------------- */

/* cpuset_common_seq_show(): FILE_CPULIST, the request ("" when none) */
static int r_cpus(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	cg__cpulist_print(b, &c->cpus_req, h->nr_cpus);
	return 0;
}

static int w_cpus(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__cpuset_write(h, c, v);
}

/* cpuset_common_seq_show(): FILE_EFFECTIVE_CPULIST */
static int r_cpus_eff(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	cg__cpulist_print(b, &c->cpus_eff, h->nr_cpus);
	return 0;
}

/* cpuset_common_seq_show(): FILE_MEMLIST, "%*pbl" with nr_node_ids (1) bits */
static int r_mems(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_add(b, c->mems_req ? "0\n" : "\n", c->mems_req ? 2 : 1);
	return 0;
}

static int w_mems(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return mems_write(h, c, v);
}

/* cpuset_common_seq_show(): FILE_EFFECTIVE_MEMLIST, node 0 on every cgroup, the root too */
static int r_mems_eff(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	(void)c;
	cg__buf_add(b, "0\n", 2);
	return 0;
}

/*
 * sched_partition_show(): PRS_MEMBER, the only state the model has. A partition root would take
 * its CPUs out of its parent's effective set and change its siblings' (update_prstate,
 * update_parent_effective_cpumask): not modelled.
 */
static int r_partition(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	(void)c;
	cg__buf_add(b, "member\n", 7);
	return 0;
}

/*
 * sched_partition_write(): the value stripped must be "root", "member" or "isolated" (else
 * -EINVAL); update_prstate() returns at once when the state does not change (a member made a
 * member). Becoming a root or isolated is not modelled.
 */
static int w_partition(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	char *copy = strdup(v), *s;
	int r;

	(void)c;
	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	if (!strcmp(s, "member"))
		r = 0;
	else if (!strcmp(s, "root") || !strcmp(s, "isolated"))
		r = cg__refuse(h, CG_RULE_NOT_MODELLED, -ENOSYS);
	else
		r = cg__refuse(h, CG_RULE_PARTITION_VALUE, -EINVAL);
	free(copy);
	return r;
}

/*
 * An empty CPU list: cpuset.cpus.exclusive (no request), .cpus.exclusive.effective (only
 * partition roots and cgroups with exclusive CPUs have one) and the root's .cpus.isolated
 * (CPUs of isolated partitions).
 */
static int r_no_cpus(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	(void)c;
	cg__buf_add(b, "\n", 1);
	return 0;
}

/*
 * cpuset_write_resmask() + update_exclusive_cpumask(): parsed as cpuset.cpus ("" or
 * cpulist_parse()); an unchanged (empty) request is a no-op. A non-empty one is not modelled.
 */
static int w_exclusive(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	struct cg__cpumask req;
	int r = parse_list(v, h->nr_cpus, &req);

	(void)c;
	if (r)
		return cg__bad_value(h, CG_RULE_CPULIST_SYNTAX, r);
	return mask_empty(&req) ? 0 : cg__refuse(h, CG_RULE_NOT_MODELLED, -ENOSYS);
}

/* cpuset's dfl_files: its cftypes on the v2 hierarchy */
const struct cg__file_def cg__cpuset_files[] = {
	/*
	 * cpus.effective and mems.effective are on the root too (since 5.0), cpus.isolated only
	 * there; cpus.subpartitions is CFTYPE_DEBUG (cgroup_debug only) and left out.
	 */
	{ "cpuset.cpus", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET | CG__F_NOT_ON_ROOT,
	  r_cpus, w_cpus },
	{ "cpuset.mems", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET | CG__F_NOT_ON_ROOT,
	  r_mems, w_mems },
	{ "cpuset.cpus.effective", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET, r_cpus_eff, NULL },
	{ "cpuset.mems.effective", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET, r_mems_eff, NULL },
	{ "cpuset.cpus.partition", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET | CG__F_NOT_ON_ROOT,
	  r_partition, w_partition },
	{ "cpuset.cpus.exclusive", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET | CG__F_NOT_ON_ROOT,
	  r_no_cpus, w_exclusive },
	{ "cpuset.cpus.exclusive.effective", CG__SEM_V2 | CG__SEM_RFC,
	  CG__F_CPUSET | CG__F_NOT_ON_ROOT, r_no_cpus, NULL },
	{ "cpuset.cpus.isolated", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPUSET | CG__F_ONLY_ON_ROOT,
	  r_no_cpus, NULL },
	{ .name = NULL },
};
