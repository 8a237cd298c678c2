/* SPDX-License-Identifier: MIT */
/*
 * cgroup/files_cpu.c - the cpu controller's interface files, cpu_files (v2) and
 * cpu_legacy_files (v1) of kernel/sched/core.c: how each reads and how a write is parsed and
 * checked, with the scheduler's weight conversions and bandwidth checks. Where each exists is
 * files.c's.
 */
#include "cgroup/cg_internal.h"
#include "scheduler/weight.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SHARES ((unsigned long)SCHED_SHARES_MIN)
#define MAX_SHARES ((unsigned long)SCHED_SHARES_MAX)
#define CGROUP_WEIGHT_MIN 1
#define CGROUP_WEIGHT_MAX 10000
#define BW_SHIFT 20
#define MAX_BW_US ((1ULL << (64 - BW_SHIFT)) - 1)	/* max_bw_runtime_us: > 203 days */
#define MIN_BW_US 1000ULL				/* min_bw_quota_period_us: 1 ms */
#define MAX_PERIOD_US 1000000ULL			/* max_bw_quota_period_us: 1 s */

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
		return cg__bad_value(h, CG_RULE_WEIGHT_RANGE, r);
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
		return cg__bad_value(h, CG_RULE_WEIGHT_NICE_RANGE, r);
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
		return cg__bad_value(h, CG_RULE_CPU_MAX_SYNTAX, r);
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
		return cg__bad_value(h, CG_RULE_VALUE_SYNTAX, r);
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
		return cg__bad_value(h, CG_RULE_IDLE_VALUE, r);
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
		return cg__bad_value(h, CG_RULE_VALUE_SYNTAX, r);
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
		return cg__bad_value(h, CG_RULE_VALUE_SYNTAX, r);
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
		return cg__bad_value(h, CG_RULE_VALUE_SYNTAX, r);
	return set_bandwidth(h, c, p, c->cpu.quota_us, c->cpu.burst_us);
}

const struct cg__file_def cg__cpu_files[] = {
	{ "cpu.stat", CG__SEM_V2 | CG__SEM_RFC | CG__SEM_V1, 0, r_cpu_stat, NULL },
	{ "cpu.weight", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPU | CG__F_NOT_ON_ROOT,
	  r_weight, w_weight },
	{ "cpu.weight.nice", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPU | CG__F_NOT_ON_ROOT,
	  r_weight_nice, w_weight_nice },
	{ "cpu.max", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPU | CG__F_NOT_ON_ROOT, r_max, w_max },
	{ "cpu.max.burst", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPU | CG__F_NOT_ON_ROOT,
	  r_burst, w_burst },
	{ "cpu.idle", CG__SEM_V2 | CG__SEM_RFC, CG__F_CPU | CG__F_NOT_ON_ROOT, r_idle, w_idle },
	{ .name = NULL },
};

const struct cg__file_def cg__cpu_legacy_files[] = {
	{ "cpu.shares", CG__SEM_V1, CG__F_CPU, r_shares, w_shares },
	{ "cpu.cfs_quota_us", CG__SEM_V1, CG__F_CPU, r_quota, w_quota },
	{ "cpu.cfs_period_us", CG__SEM_V1, CG__F_CPU, r_period, w_period },
	{ "cpu.cfs_burst_us", CG__SEM_V1, CG__F_CPU, r_burst, w_burst },
	{ "cpu.idle", CG__SEM_V1, CG__F_CPU, r_idle, w_idle },
	{ .name = NULL },
};
