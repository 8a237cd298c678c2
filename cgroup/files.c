/* SPDX-License-Identifier: MIT */
/*
 * cgroup/files.c - the interface files: which exist where (cgroup_base_files, cpu_files,
 * cpu_legacy_files, cpuset's dfl_files with their CFTYPE_NOT_ON_ROOT flags), how they read and
 * how a write is parsed and checked (kernel/cgroup/cgroup.c, kernel/sched/core.c,
 * kernel/cgroup/cpuset.c).
 */
#include "cgroup/cg_internal.h"
#include "scheduler/weight.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SEM_V2 (1u << CG_SEM_V2)
#define SEM_RFC (1u << CG_SEM_RFC2017)
#define SEM_V1 (1u << CG_SEM_V1)

enum {
	F_NOT_ON_ROOT = 1,	/* CFTYPE_NOT_ON_ROOT */
	F_CPU = 2,		/* a cpu controller file: needs the cpu css */
	F_CPUSET = 4,		/* a cpuset file: needs the cpuset css (the root's: cpuset bound) */
};

typedef int read_fn(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b);
typedef int write_fn(struct cg_hier *h, struct cg_cgroup *c, const char *v);

struct file_def {
	const char *name;
	unsigned int sems;
	unsigned int flags;
	read_fn *read;
	write_fn *write;
};

/* ---- helpers ----------------------------------------------------------------------------- */

#define MIN_SHARES ((unsigned long)SCHED_SHARES_MIN)
#define MAX_SHARES ((unsigned long)SCHED_SHARES_MAX)
#define CGROUP_WEIGHT_MIN 1
#define CGROUP_WEIGHT_MAX 10000
#define BW_SHIFT 20
#define MAX_BW_US ((1ULL << (64 - BW_SHIFT)) - 1)	/* max_bw_runtime_us: > 203 days */
#define MIN_BW_US 1000ULL				/* min_bw_quota_period_us: 1 ms */
#define MAX_PERIOD_US 1000000ULL			/* max_bw_quota_period_us: 1 s */

/* A value that did not parse (@r < 0) refused by @rule; running out of memory is no rule. */
static int bad_value(struct cg_hier *h, enum cg_rule rule, int r)
{
	return r == -ENOMEM ? r : cg__refuse(h, rule, r);
}

/* DIV_ROUND_CLOSEST for unsigned operands */
static unsigned long long div_round_closest(unsigned long long x, unsigned long long d)
{
	return (x + d / 2) / d;
}

/* sched_weight_from_cgroup(): cpu.weight 100 is NICE_0 (1024). */
static unsigned long weight_from_cgroup(unsigned long long w)
{
	return (unsigned long)div_round_closest(w * 1024, 100);
}

/* sched_weight_to_cgroup(): the inverse, clamped to the valid range. */
static unsigned long long weight_to_cgroup(unsigned long shares)
{
	unsigned long long w = div_round_closest((unsigned long long)shares * 100, 1024);

	if (w < CGROUP_WEIGHT_MIN)
		w = CGROUP_WEIGHT_MIN;
	if (w > CGROUP_WEIGHT_MAX)
		w = CGROUP_WEIGHT_MAX;
	return w;
}

static void emit_params(struct cg_hier *h, struct cg_cgroup *c)
{
	struct cg_event ev = { .kind = CG_EV_TG_PARAMS, .cgroup = c->id };

	cg__emit(h, &ev);
}

/* sched_group_set_shares(): refused while idle; the root's weight cannot change. */
static int set_shares(struct cg_hier *h, struct cg_cgroup *c, unsigned long shares)
{
	if (c->cpu.idle)
		return cg__refuse(h, CG_RULE_WEIGHT_IDLE, -EINVAL);
	if (!c->parent)
		return cg__refuse(h, CG_RULE_ROOT_CPU, -EINVAL);
	if (shares < MIN_SHARES)
		shares = MIN_SHARES;
	if (shares > MAX_SHARES)
		shares = MAX_SHARES;
	c->cpu.shares = shares;
	emit_params(h, c);
	return 0;
}

/* to_ratio() on microseconds, as __cfs_schedulable() feeds it. */
static uint64_t to_ratio(uint64_t period, uint64_t quota)
{
	if (quota == CG_QUOTA_MAX)
		return CG_QUOTA_MAX;
	if (!period)
		return 0;
	return (quota << BW_SHIFT) / period;
}

/*
 * tg_cfs_schedulable_down() over every task group, top-down, with @c's proposed values: on v1 a
 * group's quota/period ratio may not exceed its nearest limited ancestor's (-EINVAL); on v2 the
 * effective ratio is simply the smaller one, never an error.
 */
static int schedulable(struct cg_hier *h, struct cg_cgroup *c, uint64_t period, uint64_t quota)
{
	if (h->sem != CG_SEM_V1)
		return 0;
	for (int i = 1; i < h->nr_cgroups; i++) {
		struct cg_cgroup *g = h->cgroups[i], *a;
		uint64_t q, pq = CG_QUOTA_MAX;

		if (!g || !g->has_cpu)
			continue;
		q = g == c ? to_ratio(period, quota) : to_ratio(g->cpu.period_us, g->cpu.quota_us);
		if (q == CG_QUOTA_MAX)
			continue;
		/* the parent's hierarchical quota: the nearest ancestor with a limit */
		for (a = g->parent; a && a->parent; a = a->parent) {
			pq = a == c ? to_ratio(period, quota)
				    : to_ratio(a->cpu.period_us, a->cpu.quota_us);
			if (pq != CG_QUOTA_MAX)
				break;
		}
		if (pq != CG_QUOTA_MAX && q > pq)
			return cg__refuse(h, CG_RULE_V1_HIERARCHICAL_QUOTA, -EINVAL);
	}
	return 0;
}

/* tg_set_bandwidth(): the checks of 6.17+ in their order, then the hierarchy walk. */
static int set_bandwidth(struct cg_hier *h, struct cg_cgroup *c, uint64_t period,
			 uint64_t quota, uint64_t burst)
{
	const uint64_t max_usec = UINT64_MAX / 1000;
	int r;

	if (!c->parent)
		return cg__refuse(h, CG_RULE_ROOT_CPU, -EINVAL);
	if (period > max_usec || (quota != CG_QUOTA_MAX && quota > max_usec) || burst > max_usec)
		return cg__refuse(h, CG_RULE_BANDWIDTH_OVERFLOW, -EINVAL);
	if (quota < MIN_BW_US || period < MIN_BW_US)
		return cg__refuse(h, CG_RULE_BANDWIDTH_MIN, -EINVAL);
	if (period > MAX_PERIOD_US)
		return cg__refuse(h, CG_RULE_PERIOD_MAX, -EINVAL);
	if (quota != CG_QUOTA_MAX && quota > MAX_BW_US)
		return cg__refuse(h, CG_RULE_QUOTA_MAX, -EINVAL);
	if (quota != CG_QUOTA_MAX && (burst > quota || burst + quota > MAX_BW_US))
		return cg__refuse(h, CG_RULE_BURST_RANGE, -EINVAL);
	r = schedulable(h, c, period, quota);
	if (r)
		return r;
	c->cpu.period_us = period;
	c->cpu.quota_us = quota;
	c->cpu.burst_us = burst;
	emit_params(h, c);
	return 0;
}

/* kstrtoint(strstrip(buf), 0, ...) */
static int parse_int_stripped(const char *v, long long lo, long long hi, long long *out)
{
	char *copy = strdup(v);
	int r;

	if (!copy)
		return -ENOMEM;
	r = cg__kstrtoll(cg__strstrip(copy), 0, out);
	free(copy);
	if (!r && (*out < lo || *out > hi))
		r = -ERANGE;
	return r;
}

/* ---- name lists: pids and tids shown as names, sorted ------------------------------------ */

static int cmp_thread(const void *a, const void *b)
{
	const struct cg_thread *x = *(const struct cg_thread *const *)a;
	const struct cg_thread *y = *(const struct cg_thread *const *)b;
	int r = strcmp(x->proc->name, y->proc->name);

	return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* Print the threads of @v (@n of them) sorted; @procs prints each process once by name. */
static int print_tasks(struct cg__buf *b, struct cg_thread **v, size_t n, bool procs)
{
	const struct cg_process *last = NULL;

	qsort(v, n, sizeof(*v), cmp_thread);
	for (size_t i = 0; i < n; i++) {
		if (procs) {
			if (v[i]->proc != last)
				cg__buf_printf(b, "%s\n", v[i]->proc->name);
			last = v[i]->proc;
		} else {
			cg__buf_printf(b, "%s.%d\n", v[i]->proc->name, v[i]->index);
		}
	}
	free(v);
	return 0;
}

enum collect_mode {
	COLLECT_SELF,		/* the threads attached to @c itself */
	COLLECT_DOMAIN_LEADERS,	/* leaders in @c or in threaded cgroups whose domain is @c */
	COLLECT_SUBTREE,	/* every thread in @c's subtree */
};

/* Gather threads of @c into a malloc'ed array (*out, *n) for print_tasks(). */
static int collect(struct cg_cgroup *c, enum collect_mode mode, struct cg_thread ***out,
		   size_t *n)
{
	size_t cap = 16, k = 0;
	struct cg_thread **v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (struct cg_cgroup *d = c; d; d = mode == COLLECT_SELF ? NULL : cg__next_pre(d, c)) {
		if (mode == COLLECT_DOMAIN_LEADERS && d != c &&
		    !(cg__is_threaded(d) && d->dom_cgrp == c))
			continue;
		for (struct cg_thread *t = d->tasks.head; t; t = t->next) {
			if (mode == COLLECT_DOMAIN_LEADERS && t != t->proc->threads[0])
				continue;
			if (k == cap) {
				struct cg_thread **nv = realloc(v, 2 * cap * sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap *= 2;
			}
			v[k++] = t;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

static void print_mask(struct cg__buf *b, cg_mask m)
{
	bool first = true;

	for (int i = 0; i < CG_CTRL_COUNT; i++) {
		if (!(m & CG_MASK(i)))
			continue;
		cg__buf_printf(b, "%s%s", first ? "" : " ", cg_ctrl_name((enum cg_ctrl)i));
		first = false;
	}
	if (!first)
		cg__buf_add(b, "\n", 1);
}

/* ---- cgroup core files ------------------------------------------------------------------- */

static int r_type(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%s\n", cg__type_name(c));
	return 0;
}

/* cgroup_type_write(): only "threaded" (white space stripped) may be written. */
static int w_type(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	char *copy = strdup(v);
	int bad;

	if (!copy)
		return -ENOMEM;
	bad = strcmp(cg__strstrip(copy), "threaded");
	free(copy);
	if (bad)
		return cg__refuse(h, CG_RULE_TYPE_VALUE, -EINVAL);
	return cg__enable_threaded(h, c);
}

/*
 * cgroup.procs: v2 refuses the read in a threaded cgroup and, in a thread root, lists the
 * processes whose leader is anywhere in its threaded subtree (cgroup_procs_start with
 * CSS_TASK_ITER_PROCS | CSS_TASK_ITER_THREADED). rfc2017 refuses it inside a threaded subtree
 * (EINVAL) and lists every process with a thread in the subtree at its thread root. v1 lists
 * the process of every thread in the cgroup.
 */
static int r_procs(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	struct cg_thread **v;
	size_t n;
	int r;

	switch (h->sem) {
	case CG_SEM_V2:
		if (cg__is_threaded(c))
			return cg__refuse(h, CG_RULE_PROCS_THREADED, -EOPNOTSUPP);
		r = collect(c, COLLECT_DOMAIN_LEADERS, &v, &n);
		break;
	case CG_SEM_RFC2017:
		if (c->rfc_root && c->rfc_root != c)
			return cg__refuse(h, CG_RULE_RFC_PROCS_MEMBER, -EINVAL);
		/* every cgroup below a thread root is a member: a thread root takes its subtree */
		r = collect(c, c->rfc_root == c ? COLLECT_SUBTREE : COLLECT_SELF, &v, &n);
		break;
	default:
		r = collect(c, COLLECT_SELF, &v, &n);
		break;
	}
	if (r)
		return r;
	return print_tasks(b, v, n, true);
}

static int w_procs(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__procs_write(h, c, v, true);
}

/* cgroup.threads (and v1 tasks): the threads in this very cgroup. */
static int r_threads(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	struct cg_thread **v;
	size_t n;
	int r;

	if (h->sem == CG_SEM_RFC2017 && !c->rfc_root)
		return cg__refuse(h, CG_RULE_RFC_THREADS_OUTSIDE, -EINVAL);
	r = collect(c, COLLECT_SELF, &v, &n);
	if (r)
		return r;
	return print_tasks(b, v, n, false);
}

static int w_threads(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	if (h->sem == CG_SEM_RFC2017) {
		char *copy = strdup(v);
		int mode = 0;

		if (!copy)
			return -ENOMEM;
		if (!strcmp(cg__strstrip(copy), "enable"))
			mode = 1;
		else if (!strcmp(cg__strstrip(copy), "disable"))
			mode = 2;
		free(copy);
		if (mode)
			return cg__rfc_threads_mode(h, c, mode == 1);
	}
	return cg__procs_write(h, c, v, false);
}

static int r_controllers(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	print_mask(b, cg__control(h, c));
	return 0;
}

static int r_subtree_control(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	print_mask(b, c->subtree_control);
	return 0;
}

static int w_subtree_control(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__subtree_control_write(h, c, v);
}

/* A cgroup is frozen when it or an ancestor has cgroup.freeze 1 (the model freezes at once). */
static bool e_freeze(const struct cg_cgroup *c)
{
	for (; c; c = c->parent)
		if (c->freeze)
			return true;
	return false;
}

static int r_events(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "populated %d\nfrozen %d\n", cg__is_populated(c) ? 1 : 0,
		       e_freeze(c) ? 1 : 0);
	return 0;
}

static int r_max_count(struct cg__buf *b, int v)
{
	if (v == INT_MAX)
		cg__buf_printf(b, "max\n");
	else
		cg__buf_printf(b, "%d\n", v);
	return 0;
}

/* cgroup_max_descendants_write() / cgroup_max_depth_write(): "max" or kstrtoint >= 0. */
static int parse_max_count(const char *v, int *out)
{
	char *copy = strdup(v), *s;
	long long n;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	if (!strcmp(s, "max")) {
		*out = INT_MAX;
	} else {
		r = cg__kstrtoll(s, 0, &n);
		if (!r && (n < INT_MIN || n > INT_MAX))
			r = -ERANGE;
		if (!r && n < 0)
			r = -ERANGE;
		if (!r)
			*out = (int)n;
	}
	free(copy);
	return r;
}

static int r_max_depth(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	return r_max_count(b, c->max_depth);
}

static int w_max_depth(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return bad_value(h, CG_RULE_MAX_COUNT_VALUE, parse_max_count(v, &c->max_depth));
}

static int r_max_desc(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	return r_max_count(b, c->max_descendants);
}

static int w_max_desc(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return bad_value(h, CG_RULE_MAX_COUNT_VALUE, parse_max_count(v, &c->max_descendants));
}

/* Does cgroup @d have a css of controller @ss? Implicit perf_event is everywhere. */
static bool has_css(const struct cg_hier *h, const struct cg_cgroup *d, int ss)
{
	if (ss == CG_CTRL_PERF_EVENT)
		return true;
	if (!d->parent)
		return h->root_mask & CG_MASK(ss);
	return cg__control(h, d) & CG_MASK(ss);
}

/* cgroup_stat_show(): descendants and, per bound controller, the csses in the subtree. */
static int r_stat(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	cg_mask bound = h->root_mask | CG_MASK(CG_CTRL_PERF_EVENT);

	cg__buf_printf(b, "nr_descendants %d\n", c->nr_descendants);
	for (int ss = 0; ss < CG_CTRL_COUNT; ss++) {
		int n = 0;

		if (!(bound & CG_MASK(ss)))
			continue;
		for (struct cg_cgroup *d = c; d; d = cg__next_pre(d, c))
			n += has_css(h, d, ss);
		cg__buf_printf(b, "nr_subsys_%s %d\n", cg_ctrl_name((enum cg_ctrl)ss), n);
	}
	cg__buf_printf(b, "nr_dying_descendants 0\n");
	for (int ss = 0; ss < CG_CTRL_COUNT; ss++)
		if (bound & CG_MASK(ss))
			cg__buf_printf(b, "nr_dying_subsys_%s 0\n", cg_ctrl_name((enum cg_ctrl)ss));
	return 0;
}

/* cgroup_freeze_write(): 0 or 1, else -ERANGE. */
static int r_freeze(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%d\n", c->freeze ? 1 : 0);
	return 0;
}

static int w_freeze(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long f;
	int r = parse_int_stripped(v, INT_MIN, INT_MAX, &f);

	if (r)
		return bad_value(h, CG_RULE_FREEZE_VALUE, r);
	if (f < 0 || f > 1)
		return cg__refuse(h, CG_RULE_FREEZE_VALUE, -ERANGE);
	c->freeze = f;
	return 0;
}

/* cgroup_kill_write(): exactly 1, else -ERANGE. */
static int w_kill(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long k;
	int r = parse_int_stripped(v, INT_MIN, INT_MAX, &k);

	if (r)
		return bad_value(h, CG_RULE_KILL_VALUE, r);
	if (k != 1)
		return cg__refuse(h, CG_RULE_KILL_VALUE, -ERANGE);
	return cg__kill(h, c);
}

/* ---- cpu controller files ---------------------------------------------------------------- */

static struct cg_cpu_stat get_stat(struct cg_hier *h, struct cg_cgroup *c)
{
	struct cg_cpu_stat s = { 0 };

	if (h->stat)
		h->stat(h->stat_ctx, c->id, &s);
	return s;
}

/* cpu_stat_show() + cpu_extra_stat_show() (v2); cpu_cfs_stat_show() (v1). */
static int r_cpu_stat(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	struct cg_cpu_stat s = get_stat(h, c);

	if (h->sem == CG_SEM_V1) {
		cg__buf_printf(b,
			       "nr_periods %llu\nnr_throttled %llu\nthrottled_time %llu\n"
			       "nr_bursts %llu\nburst_time %llu\n",
			       (unsigned long long)s.nr_periods, (unsigned long long)s.nr_throttled,
			       (unsigned long long)s.throttled_usec * 1000,
			       (unsigned long long)s.nr_bursts,
			       (unsigned long long)s.burst_usec * 1000);
		return 0;
	}
	cg__buf_printf(b, "usage_usec %llu\nuser_usec %llu\nsystem_usec %llu\nnice_usec %llu\n",
		       (unsigned long long)s.usage_usec, (unsigned long long)s.user_usec,
		       (unsigned long long)s.system_usec, (unsigned long long)s.nice_usec);
	if (c->has_cpu && (h->root_mask & CG_MASK(CG_CTRL_CPU)))
		cg__buf_printf(b,
			       "nr_periods %llu\nnr_throttled %llu\nthrottled_usec %llu\n"
			       "nr_bursts %llu\nburst_usec %llu\n",
			       (unsigned long long)s.nr_periods, (unsigned long long)s.nr_throttled,
			       (unsigned long long)s.throttled_usec, (unsigned long long)s.nr_bursts,
			       (unsigned long long)s.burst_usec);
	return 0;
}

static int r_weight(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%llu\n", weight_to_cgroup(c->cpu.shares));
	return 0;
}

/* cpu_weight_write_u64(): kstrtoull (base 0), range check (-ERANGE), then set shares. */
static int w_weight(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	unsigned long long w;
	int r = cg__kstrtoull(v, 0, &w);

	if (r)
		return bad_value(h, CG_RULE_WEIGHT_RANGE, r);
	if (w < CGROUP_WEIGHT_MIN || w > CGROUP_WEIGHT_MAX)
		return cg__refuse(h, CG_RULE_WEIGHT_RANGE, -ERANGE);
	return set_shares(h, c, weight_from_cgroup(w));
}

/* cpu_weight_nice_read_s64(): scan from nice -20 while the distance keeps shrinking. */
static int r_weight_nice(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	long last = LONG_MAX;
	int prio;

	(void)h;
	for (prio = 0; prio < 40; prio++) {
		long d = labs((long)sched_prio_to_weight(prio - 20) - (long)c->cpu.shares);

		if (d >= last)
			break;
		last = d;
	}
	cg__buf_printf(b, "%d\n", prio - 1 - 20);
	return 0;
}

static int w_weight_nice(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long nice;
	int r = cg__kstrtoll(v, 0, &nice);

	if (r)
		return bad_value(h, CG_RULE_WEIGHT_NICE_RANGE, r);
	if (nice < -20 || nice > 19)
		return cg__refuse(h, CG_RULE_WEIGHT_NICE_RANGE, -ERANGE);
	return set_shares(h, c, sched_prio_to_weight((int)nice));
}

static int r_max(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	if (c->cpu.quota_us == CG_QUOTA_MAX)
		cg__buf_printf(b, "max %llu\n", (unsigned long long)c->cpu.period_us);
	else
		cg__buf_printf(b, "%llu %llu\n", (unsigned long long)c->cpu.quota_us,
			       (unsigned long long)c->cpu.period_us);
	return 0;
}

/*
 * The kernel's sscanf("%llu"): optional white space, then decimal digits (no sign); returns
 * the number of characters consumed or 0. Values beyond 64 bits saturate (they fail the range
 * checks either way).
 */
static size_t scan_ull(const char *s, size_t width, unsigned long long *out)
{
	const char *p = s;
	unsigned long long v = 0;
	size_t n = 0;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	while (p[n] >= '0' && p[n] <= '9' && (!width || n < width)) {
		unsigned d = (unsigned)(p[n] - '0');

		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
		n++;
	}
	if (!n)
		return 0;
	*out = v;
	return (size_t)(p - s) + n;
}

/* cpu_period_quota_parse(): sscanf(buf, "%20s %llu", tok, &period), tok a number or "max". */
static int parse_cpu_max(const char *buf, uint64_t *period, uint64_t *quota)
{
	const char *p = buf;
	char tok[21];
	size_t n = 0;
	unsigned long long v;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\n' && n < 20) {
		tok[n] = p[n];
		n++;
	}
	if (!n)
		return -EINVAL;
	tok[n] = '\0';
	if (scan_ull(p + n, 0, &v))
		*period = v;
	if (scan_ull(tok, 0, &v)) {
		*quota = v;
	} else if (!strcmp(tok, "max")) {
		*quota = CG_QUOTA_MAX;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* cpu_max_write(): keeps the period when only the quota is given. */
static int w_max(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	uint64_t period = c->cpu.period_us, quota;
	int r = parse_cpu_max(v, &period, &quota);

	if (r)
		return bad_value(h, CG_RULE_CPU_MAX_SYNTAX, r);
	return set_bandwidth(h, c, period, quota, c->cpu.burst_us);
}

static int r_burst(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%llu\n", (unsigned long long)c->cpu.burst_us);
	return 0;
}

static int w_burst(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	unsigned long long burst;
	int r = cg__kstrtoull(v, 0, &burst);

	if (r)
		return bad_value(h, CG_RULE_VALUE_SYNTAX, r);
	return set_bandwidth(h, c, c->cpu.period_us, c->cpu.quota_us, burst);
}

static int r_idle(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%d\n", c->cpu.idle ? 1 : 0);
	return 0;
}

/*
 * sched_group_set_idle(): the root refuses, only 0 and 1; idle forces WEIGHT_IDLEPRIO and
 * leaving idle restores NICE_0 (1024), not the weight the group had before.
 */
static int w_idle(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long idle;
	int r = cg__kstrtoll(v, 0, &idle);

	if (r)
		return bad_value(h, CG_RULE_IDLE_VALUE, r);
	if (!c->parent)
		return cg__refuse(h, CG_RULE_ROOT_CPU, -EINVAL);
	if (idle < 0 || idle > 1)
		return cg__refuse(h, CG_RULE_IDLE_VALUE, -EINVAL);
	if (c->cpu.idle == (idle == 1))
		return 0;
	c->cpu.idle = idle == 1;
	c->cpu.shares = idle ? SCHED_WEIGHT_IDLEPRIO : SCHED_NICE_0_WEIGHT;
	emit_params(h, c);
	return 0;
}

/* v1 cpu.shares: cpu_shares_write_u64() clamps silently. */
static int r_shares(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%lu\n", c->cpu.shares);
	return 0;
}

static int w_shares(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	unsigned long long s;
	int r = cg__kstrtoull(v, 0, &s);

	if (r)
		return bad_value(h, CG_RULE_VALUE_SYNTAX, r);
	return set_shares(h, c, s > MAX_SHARES ? MAX_SHARES : (unsigned long)s);
}

static int r_quota(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	if (c->cpu.quota_us == CG_QUOTA_MAX)
		cg__buf_printf(b, "-1\n");
	else
		cg__buf_printf(b, "%llu\n", (unsigned long long)c->cpu.quota_us);
	return 0;
}

/* cpu_quota_write_s64(): any negative value means no limit. */
static int w_quota(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long q;
	int r = cg__kstrtoll(v, 0, &q);

	if (r)
		return bad_value(h, CG_RULE_VALUE_SYNTAX, r);
	return set_bandwidth(h, c, c->cpu.period_us, q < 0 ? CG_QUOTA_MAX : (uint64_t)q,
			     c->cpu.burst_us);
}

static int r_period(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%llu\n", (unsigned long long)c->cpu.period_us);
	return 0;
}

static int w_period(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	unsigned long long p;
	int r = cg__kstrtoull(v, 0, &p);

	if (r)
		return bad_value(h, CG_RULE_VALUE_SYNTAX, r);
	return set_bandwidth(h, c, p, c->cpu.quota_us, c->cpu.burst_us);
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

/* ---- the table --------------------------------------------------------------------------- */

static const struct file_def files[] = {
	{ "cgroup.type", SEM_V2, F_NOT_ON_ROOT, r_type, w_type },
	{ "cgroup.procs", SEM_V2 | SEM_RFC | SEM_V1, 0, r_procs, w_procs },
	{ "cgroup.threads", SEM_V2 | SEM_RFC, 0, r_threads, w_threads },
	{ "tasks", SEM_V1, 0, r_threads, w_threads },
	{ "cgroup.controllers", SEM_V2 | SEM_RFC, 0, r_controllers, NULL },
	{ "cgroup.subtree_control", SEM_V2 | SEM_RFC, 0, r_subtree_control, w_subtree_control },
	{ "cgroup.events", SEM_V2 | SEM_RFC, F_NOT_ON_ROOT, r_events, NULL },
	{ "cgroup.max.descendants", SEM_V2 | SEM_RFC, 0, r_max_desc, w_max_desc },
	{ "cgroup.max.depth", SEM_V2 | SEM_RFC, 0, r_max_depth, w_max_depth },
	{ "cgroup.stat", SEM_V2 | SEM_RFC, 0, r_stat, NULL },
	{ "cgroup.freeze", SEM_V2 | SEM_RFC, F_NOT_ON_ROOT, r_freeze, w_freeze },
	{ "cgroup.kill", SEM_V2 | SEM_RFC, F_NOT_ON_ROOT, NULL, w_kill },
	{ "cpu.stat", SEM_V2 | SEM_RFC | SEM_V1, 0, r_cpu_stat, NULL },
	{ "cpu.weight", SEM_V2 | SEM_RFC, F_CPU | F_NOT_ON_ROOT, r_weight, w_weight },
	{ "cpu.weight.nice", SEM_V2 | SEM_RFC, F_CPU | F_NOT_ON_ROOT, r_weight_nice, w_weight_nice },
	{ "cpu.max", SEM_V2 | SEM_RFC, F_CPU | F_NOT_ON_ROOT, r_max, w_max },
	{ "cpu.max.burst", SEM_V2 | SEM_RFC, F_CPU | F_NOT_ON_ROOT, r_burst, w_burst },
	{ "cpu.idle", SEM_V2 | SEM_RFC, F_CPU | F_NOT_ON_ROOT, r_idle, w_idle },
	{ "cpu.shares", SEM_V1, F_CPU, r_shares, w_shares },
	{ "cpu.cfs_quota_us", SEM_V1, F_CPU, r_quota, w_quota },
	{ "cpu.cfs_period_us", SEM_V1, F_CPU, r_period, w_period },
	{ "cpu.cfs_burst_us", SEM_V1, F_CPU, r_burst, w_burst },
	{ "cpu.idle", SEM_V1, F_CPU, r_idle, w_idle },
	/*
	 * cpuset.cpus.effective is on the root too (since 5.0); cpuset.mems, .mems.effective,
	 * .cpus.partition, .cpus.exclusive, .cpus.exclusive.effective, .cpus.isolated are not
	 * modelled and answer ENOENT like any file the model does not have.
	 */
	{ "cpuset.cpus", SEM_V2 | SEM_RFC, F_CPUSET | F_NOT_ON_ROOT, r_cpus, w_cpus },
	{ "cpuset.cpus.effective", SEM_V2 | SEM_RFC, F_CPUSET, r_cpus_eff, NULL },
};

/* The file @name of cgroup @c, or NULL and in *@why the reason it does not exist there. */
static const struct file_def *find_file(const struct cg_hier *h, const struct cg_cgroup *c,
					const char *name, enum cg_rule *why)
{
	*why = CG_RULE_NO_SUCH_FILE;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const struct file_def *f = &files[i];

		if (strcmp(f->name, name) || !(f->sems & (1u << h->sem)))
			continue;
		/* the cpu css exists only where cpu is enabled (and bound to the hierarchy) */
		if ((f->flags & F_CPU) && (!c->has_cpu || !(h->root_mask & CG_MASK(CG_CTRL_CPU)))) {
			*why = CG_RULE_NO_CPU_CSS;
			return NULL;
		}
		/* the root has a cpuset css when cpuset is bound, a child when its parent enables it */
		if ((f->flags & F_CPUSET) && (!(h->root_mask & CG_MASK(CG_CTRL_CPUSET)) ||
					      (c->parent && !c->has_cpuset))) {
			*why = CG_RULE_NO_CPUSET_CSS;
			return NULL;
		}
		if ((f->flags & F_NOT_ON_ROOT) && !c->parent) {
			*why = CG_RULE_ROOT_HAS_NO_FILE;
			return NULL;
		}
		*why = CG_RULE_NONE;
		return f;
	}
	return NULL;
}

bool cg__file_exists(const struct cg_hier *h, const struct cg_cgroup *c, const char *file)
{
	enum cg_rule why;

	return find_file(h, c, file, &why) != NULL;
}

/*
 * A write to a file without a write handler, or a read of one without a read handler, is
 * -EINVAL: cgroup_file_write() and cgroup_seqfile_show() have nothing to call (checked on a
 * 6.18 kernel: root may open the file, the operation itself fails).
 */
int cg__file_read(struct cg_hier *h, struct cg_cgroup *c, const char *file, char **out)
{
	enum cg_rule why;
	const struct file_def *f = find_file(h, c, file, &why);
	struct cg__buf b = { 0 };
	int r;

	if (!f)
		return cg__refuse(h, why, -ENOENT);
	if (!f->read)
		return cg__refuse(h, CG_RULE_NOT_READABLE, -EINVAL);
	r = f->read(h, c, &b);
	if (r) {
		free(b.s);
		return r;
	}
	return cg__buf_finish(&b, out);
}

int cg__file_write(struct cg_hier *h, struct cg_cgroup *c, const char *file, const char *value)
{
	enum cg_rule why;
	const struct file_def *f = find_file(h, c, file, &why);

	if (!f)
		return cg__refuse(h, why, -ENOENT);
	if (!f->write)
		return cg__refuse(h, CG_RULE_NOT_WRITABLE, -EINVAL);
	return f->write(h, c, value);
}

/* ---- entry points by path ---------------------------------------------------------------- */

/* Split "DIR/FILE" and resolve DIR; a path that names a cgroup is -EISDIR. */
static int resolve_file(struct cg_hier *h, const char *path, struct cg_cgroup **c,
			const char **file)
{
	const char *slash = strrchr(path, '/');
	enum cg_rule why = CG_RULE_NONE;
	char dir[4096];
	int r;

	if (strlen(path) >= sizeof(dir))
		return cg__refuse(h, CG_RULE_PATH_TOO_LONG, -ENAMETOOLONG);
	if (slash) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		*file = slash + 1;
	} else {
		dir[0] = '\0';
		*file = path;
	}
	r = cg__resolve(h, dir, c, &why);
	if (r)
		return cg__refuse(h, why, r);
	if (!**file || !strcmp(*file, ".") || !strcmp(*file, ".."))
		return cg__refuse(h, CG_RULE_IS_A_DIRECTORY, -EISDIR);
	{
		struct cg_cgroup *k;

		if (!cg__resolve(h, path, &k, NULL) && k != *c)
			return cg__refuse(h, CG_RULE_IS_A_DIRECTORY, -EISDIR);
	}
	return 0;
}

int cg_write(struct cg_hier *h, const char *path, const char *value)
{
	struct cg_cgroup *c;
	const char *file;
	int r;

	cg__begin(h);
	r = resolve_file(h, path, &c, &file);
	return cg__done(h, r ? r : cg__file_write(h, c, file, value));
}

int cg_read(struct cg_hier *h, const char *path, char **out)
{
	struct cg_cgroup *c;
	const char *file;
	int r;

	cg__begin(h);
	r = resolve_file(h, path, &c, &file);
	return cg__done(h, r ? r : cg__file_read(h, c, file, out));
}

/* The optimal string alignment distance of @a and @b (a transposition costs 1), capped. */
static size_t osa_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *cg_file_suggest(enum cg_semantics sem, const char *name)
{
	/* the same setting under the other rule sets' names */
	static const struct {
		const char *name, *v2, *v1;
	} same[] = {
		{ "cpu.shares", "cpu.weight", NULL },
		{ "cpu.cfs_quota_us", "cpu.max", NULL },
		{ "cpu.cfs_period_us", "cpu.max", NULL },
		{ "cpu.cfs_burst_us", "cpu.max.burst", NULL },
		{ "tasks", "cgroup.threads", NULL },
		{ "cpu.weight", NULL, "cpu.shares" },
		{ "cpu.weight.nice", NULL, "cpu.shares" },
		{ "cpu.max", NULL, "cpu.cfs_quota_us" },
		{ "cpu.max.burst", NULL, "cpu.cfs_burst_us" },
		{ "cgroup.threads", NULL, "tasks" },
	};
	const char *best = NULL;
	size_t bestd = 3;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t dist;

		if (!(files[i].sems & (1u << sem)))
			continue;
		dist = osa_distance(name, files[i].name);
		if (!dist)
			return NULL;	/* it exists: nothing to suggest */
		if (dist < bestd && 2 * dist < strlen(files[i].name)) {
			bestd = dist;
			best = files[i].name;
		}
	}
	for (size_t i = 0; !best && i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(name, same[i].name))
			best = sem == CG_SEM_V1 ? same[i].v1 : same[i].v2;
	return best;
}
