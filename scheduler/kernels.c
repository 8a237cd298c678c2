// SPDX-License-Identifier: MIT
/*
 * scheduler/kernels.c - the kernel versions cgsim models, in one table: each row a range of
 * releases and the commit or release that starts it, mapping a version to the fair class's
 * pick (the policy), what a group's weight means (cgroup_mode) and the defaults of the features
 * and tunables that moved between versions (docs/kernels.md says each row's story).
 *
 * A feature the table does not name has one default per family, scheduler/features.h's column:
 * EEVDF's for the EEVDF kernels (hierarchical or flat), CFS's for 5.13-6.5.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scheduler/sched.h"

#define K(a, b, c)	{ a, b, c }
#define END		SCHED_KERNEL_SERIES
#define F(name)		(1ull << SCHED_FEAT_##name)

_Static_assert(SCHED_FEAT_NR <= 64, "the table's feature masks hold 64 features");

/* The features whose default moved between the versions modelled: the table decides them. */
#define VERSIONED	(F(SIS_UTIL) | F(PLACE_REL_DEADLINE) | F(PREEMPT_SHORT) | F(PICK_BUDDY) | \
			 F(DELAY_DEQUEUE) | F(DELAY_ZERO) | F(NI_RANDOM))
/* 6.12's: delayed dequeue and its company */
#define V612		(F(SIS_UTIL) | F(PLACE_REL_DEADLINE) | F(PREEMPT_SHORT) | F(DELAY_DEQUEUE) | \
			 F(DELAY_ZERO))

struct kernel_row {
	struct sched_kernel first, last;	/* inclusive; last.patch END: to the series' end */
	const char *source;			/* the release or commit that makes the row */
	enum sched_policy policy;
	enum sched_cgroup_mode mode;
	uint64_t base_slice_ns;			/* sysctl_sched_base_slice (6.6+; 5.13-6.5 have
						 * min_granularity instead, and no use for it) */
	uint64_t feat;				/* of VERSIONED, those on */
};

static const struct kernel_row rows[] = {
	{ K(5, 13, 0), K(5, 19, END),
	  "v5.13: 0c2de3f054a5 \"sched,fair: Alternative sched_slice()\" (ALT_PERIOD, BASE_SLICE)",
	  SCHED_POLICY_CFS, SCHED_CGROUP_SMP, 750000, 0 },
	{ K(6, 0, 0), K(6, 5, END),
	  "v6.0: 70fb5ccf2ebb \"sched/fair: Introduce SIS_UTIL to search idle CPU based on sum of "
	  "util_avg\"",
	  SCHED_POLICY_CFS, SCHED_CGROUP_SMP, 750000, F(SIS_UTIL) },
	{ K(6, 6, 0), K(6, 6, 92),
	  "v6.6: 147f3efaa241 \"sched/fair: Implement an EEVDF-like scheduling policy\", "
	  "5e963f2bd465 \"sched/fair: Commit to EEVDF\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, F(SIS_UTIL) },
	{ K(6, 6, 93), K(6, 6, 119),
	  "6.6.93: stable backport of 2ae891b82695 \"sched: Reduce the default slice to avoid "
	  "tasks getting an extra tick\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, F(SIS_UTIL) },
	{ K(6, 6, 120), K(6, 6, END),
	  "6.6.120: stable backport of 33cf66d88306 \"sched/fair: Proportional newidle balance\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, F(SIS_UTIL) | F(NI_RANDOM) },
	{ K(6, 7, 0), K(6, 11, END),
	  "v6.7: no change to a default modelled since v6.6",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, F(SIS_UTIL) },
	{ K(6, 12, 0), K(6, 12, 12),
	  "v6.12: 152e11f6df29 \"sched/fair: Implement delayed dequeue\", 54a58a787791 "
	  "\"sched/fair: Implement DELAY_ZERO\", 82e9d0456e06 \"sched/fair: Avoid re-setting "
	  "virtual deadline on 'migrations'\", 85e511df3cec \"sched/eevdf: Allow shorter slices "
	  "to wakeup-preempt\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, V612 },
	{ K(6, 12, 13), K(6, 12, 30),
	  "6.12.13: stable backport of 2a77e4be12cb \"sched/fair: Untangle NEXT_BUDDY and "
	  "pick_next_task()\" (PICK_BUDDY)",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, V612 | F(PICK_BUDDY) },
	{ K(6, 12, 31), K(6, 12, 64),
	  "6.12.31: stable backport of 2ae891b82695 \"sched: Reduce the default slice to avoid "
	  "tasks getting an extra tick\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, V612 | F(PICK_BUDDY) },
	{ K(6, 12, 65), K(6, 12, END),
	  "6.12.65: stable backport of 33cf66d88306 \"sched/fair: Proportional newidle balance\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, V612 | F(PICK_BUDDY) | F(NI_RANDOM) },
	{ K(6, 13, 0), K(6, 13, END),
	  "v6.13: no change to a default modelled since v6.12",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, V612 },
	{ K(6, 14, 0), K(6, 14, END),
	  "v6.14: 2a77e4be12cb \"sched/fair: Untangle NEXT_BUDDY and pick_next_task()\" "
	  "(PICK_BUDDY)",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 750000, V612 | F(PICK_BUDDY) },
	{ K(6, 15, 0), K(6, 18, 4),
	  "v6.15: 2ae891b82695 \"sched: Reduce the default slice to avoid tasks getting an extra "
	  "tick\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, V612 | F(PICK_BUDDY) },
	{ K(6, 18, 5), K(6, 18, END),
	  "6.18.5: stable backport of 33cf66d88306 \"sched/fair: Proportional newidle balance\"",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, V612 | F(PICK_BUDDY) | F(NI_RANDOM) },
	{ K(6, 19, 0), K(7, 2, END),
	  "v6.19: 33cf66d88306 \"sched/fair: Proportional newidle balance\" (NEXT_BUDDY, on in "
	  "6.19-rc1, off again before the release: 4f70f106bca1)",
	  SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP, 700000, V612 | F(PICK_BUDDY) | F(NI_RANDOM) },
	{ K(7, 3, 0), K(7, 3, END),
	  "v7.3: 85570f10a4c6 \"sched/eevdf: Move to a single runqueue\"; 4161cb2d867b adds "
	  "cgroup_mode, fb1050ac8e40 makes concur its default",
	  SCHED_POLICY_EEVDF_FLAT, SCHED_CGROUP_CONCUR, 700000,
	  V612 | F(PICK_BUDDY) | F(NI_RANDOM) },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

/* The series that exist, from the oldest modelled to the newest: MAJOR and its minors. */
static const struct {
	uint16_t major, first, last;
} series[] = { { 5, 13, 19 }, { 6, 0, 19 }, { 7, 0, 3 } };

/* The kernel in which cgroup_mode appeared (4161cb2d867b). */
static const struct sched_kernel cgroup_mode_kernel = K(7, 3, 0);

int sched_kernel_cmp(struct sched_kernel a, struct sched_kernel b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.patch != b.patch)
		return a.patch < b.patch ? -1 : 1;
	return 0;
}

/* A decimal number of 1 to @digits digits, without a leading zero; the end, or NULL. */
static const char *number(const char *s, int digits, uint16_t *out)
{
	unsigned v = 0;
	int n = 0;

	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		if (++n > digits)
			return NULL;
		v = v * 10 + (unsigned)(*s++ - '0');
	}
	*out = (uint16_t)v;
	return n ? s : NULL;
}

int sched_kernel_parse(const char *s, struct sched_kernel *out)
{
	struct sched_kernel k = { 0, 0, SCHED_KERNEL_SERIES };

	if (!(s = number(s, 4, &k.major)) || *s++ != '.' || !(s = number(s, 4, &k.minor)))
		return -EINVAL;
	if (*s == '.' && !(s = number(s + 1, 4, &k.patch)))
		return -EINVAL;
	if (*s)
		return -EINVAL;
	*out = k;
	return 0;
}

char *sched_kernel_name(struct sched_kernel k, char *buf, size_t len)
{
	if (k.patch == SCHED_KERNEL_SERIES)
		snprintf(buf, len, "%u.%u", (unsigned)k.major, (unsigned)k.minor);
	else
		snprintf(buf, len, "%u.%u.%u", (unsigned)k.major, (unsigned)k.minor,
			 (unsigned)k.patch);
	return buf;
}

struct sched_kernel sched_kernel_newest(void)
{
	return rows[NROWS - 1].last;
}

const char *sched_kernels_modelled(void)
{
	static char text[64];

	if (!*text) {
		size_t at = 0;

		for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++)
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%u.%u-%u.%u",
					       i ? ", " : "", (unsigned)series[i].major,
					       (unsigned)series[i].first, (unsigned)series[i].major,
					       (unsigned)series[i].last);
	}
	return text;
}

bool sched_kernel_has_cgroup_mode(struct sched_kernel k)
{
	return sched_kernel_cmp(k, cgroup_mode_kernel) >= 0;
}

/* @k's row; NULL for a series that does not exist or is not modelled. */
static const struct kernel_row *row_of(struct sched_kernel k)
{
	bool exists = false;

	for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++)
		exists |= k.major == series[i].major && k.minor >= series[i].first &&
			  k.minor <= series[i].last;
	if (!exists)
		return NULL;
	for (size_t i = 0; i < NROWS; i++)
		if (sched_kernel_cmp(rows[i].first, k) <= 0 && sched_kernel_cmp(k, rows[i].last) <= 0)
			return &rows[i];
	return NULL;
}

const char *sched_kernel_source(struct sched_kernel k)
{
	const struct kernel_row *row = row_of(k);

	return row ? row->source : NULL;
}

/*
 * The row whose features a policy other than @k's own takes: the newest kernel at or before @k
 * that ran @p, else the oldest after it.
 */
static const struct kernel_row *nearest(struct sched_kernel k, enum sched_policy p)
{
	const struct kernel_row *best = NULL;

	for (size_t i = 0; i < NROWS; i++) {
		if (rows[i].policy != p)
			continue;
		if (sched_kernel_cmp(rows[i].first, k) <= 0)
			best = &rows[i];
		else if (!best)
			return &rows[i];
	}
	return best;
}

/* @row's features for policy @p. */
static void row_features(bool feat[SCHED_FEAT_NR], const struct kernel_row *row,
			 enum sched_policy p)
{
	for (int f = 0; f < SCHED_FEAT_NR; f++)
		feat[f] = row && (VERSIONED & (1ull << f)) ?
			  (row->feat >> f) & 1 : sched_feat_default((enum sched_feat)f, p);
}

/*
 * What no version changes, and the version's tunables' common values: 5.13 to 7.3 all have
 * these (the CFS ones, latency, min_granularity and wakeup_granularity, are read by CFS only).
 */
static void config_base(struct sched_config *cfg, int cpus)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->machine = topo_machine_flat(cpus);
	cfg->tun = (struct sched_tunables){
		.latency_ns = 6000000,
		.min_granularity_ns = 750000,
		.wakeup_granularity_ns = 1000000,
		.migration_cost_ns = 500000,
		.nr_migrate = 32,
		.tunable_scaling = SCHED_SCALING_LOG,
		.hz = 1000,
	};
	/*
	 * docs/overhead.md: each the median of five calibrations of this project's machine
	 * (calibrate --live); tick_ns is an estimate, not measured.
	 */
	cfg->cost = (struct sched_costs){
		.switch_ns = 672,
		.wakeup_ns = 336,
		.sleep_ns = 202,
		.tick_ns = 400,
		.level_ns = 24,
		.walk_ns = 19,
	};
	cfg->tick_elision = true;
	cfg->timeline_array = true;
	cfg->load_attach = true;
	cfg->blocked_load = true;
	cfg->newidle_ratio = 512;
	cfg->jitter = true;
	cfg->seed = 1;
}

int sched_config_kernel(struct sched_config *cfg, struct sched_kernel k, int cpus)
{
	const struct kernel_row *row = row_of(k);

	if (!row)
		return -EINVAL;
	config_base(cfg, cpus);
	cfg->kernel = k;
	cfg->policy = row->policy;
	cfg->cgroup_mode = row->mode;
	row_features(cfg->feat, row, row->policy);
	cfg->tun.base_slice_ns = row->base_slice_ns;
	return 0;
}

void sched_config_set_policy(struct sched_config *cfg, enum sched_policy p)
{
	const struct kernel_row *row = row_of(cfg->kernel);

	if (row && row->policy == p) {
		row_features(cfg->feat, row, p);
	} else if (!row || p != cfg->policy) {
		row = nearest(cfg->kernel, p);
		row_features(cfg->feat, row, p);
	}
	cfg->policy = p;
}

/* The tunables a version sets, by their debugfs names. */
static const struct {
	const char *name;
	size_t off;
	size_t size;
} tunables[] = {
#define T(name, field) { name, offsetof(struct sched_tunables, field), \
			 sizeof(((struct sched_tunables *)0)->field) }
	T("base_slice", base_slice_ns),
	T("latency", latency_ns),
	T("min_granularity", min_granularity_ns),
	T("wakeup_granularity", wakeup_granularity_ns),
	T("migration_cost", migration_cost_ns),
	T("nr_migrate", nr_migrate),
	T("tunable_scaling", tunable_scaling),
#undef T
};

size_t sched_config_overrides(const struct sched_config *cfg, const char **names, size_t max)
{
	struct sched_config d;
	size_t n = 0;

#define ADD(s) do { if (n < max) names[n] = (s); n++; } while (0)
	if (sched_config_kernel(&d, cfg->kernel, 1))
		return 0;
	if (cfg->policy != d.policy) {
		ADD("policy");
		sched_config_set_policy(&d, cfg->policy);
	}
	if (cfg->cgroup_mode != d.cgroup_mode)
		ADD("cgroup_mode");
	for (int f = 0; f < SCHED_FEAT_NR; f++)
		if (cfg->feat[f] != d.feat[f])
			ADD(sched_feat_name((enum sched_feat)f));
	for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++)
		if (memcmp((const char *)&cfg->tun + tunables[i].off,
			   (const char *)&d.tun + tunables[i].off, tunables[i].size))
			ADD(tunables[i].name);
#undef ADD
	return n;
}

int sched_config_rebase(struct sched_config *cfg, struct sched_kernel k)
{
	struct sched_config from, to;
	int cpus = cfg->machine.cpus;

	if (sched_config_kernel(&from, cfg->kernel, cpus) || sched_config_kernel(&to, k, cpus))
		return -EINVAL;
	if (cfg->policy != from.policy) {	/* an overridden policy stays, with its features */
		sched_config_set_policy(&from, cfg->policy);
		sched_config_set_policy(&to, cfg->policy);
	}
	if (cfg->cgroup_mode != from.cgroup_mode) {
		if (!sched_kernel_has_cgroup_mode(k) && cfg->cgroup_mode != SCHED_CGROUP_SMP)
			return -EINVAL;
		to.cgroup_mode = cfg->cgroup_mode;
	}
	for (int f = 0; f < SCHED_FEAT_NR; f++)
		if (cfg->feat[f] != from.feat[f])
			to.feat[f] = cfg->feat[f];
	for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++)
		if (memcmp((const char *)&cfg->tun + tunables[i].off,
			   (const char *)&from.tun + tunables[i].off, tunables[i].size))
			memcpy((char *)&to.tun + tunables[i].off,
			       (const char *)&cfg->tun + tunables[i].off, tunables[i].size);
	to.tun.hz = cfg->tun.hz;	/* the machine's, not the kernel's */
	cfg->kernel = k;
	cfg->policy = to.policy;
	cfg->cgroup_mode = to.cgroup_mode;
	memcpy(cfg->feat, to.feat, sizeof(cfg->feat));
	cfg->tun = to.tun;
	return 0;
}

int sched_config_describe(const struct sched_config *cfg, char *buf, size_t len)
{
	const char *names[SCHED_FEAT_NR + 16];
	size_t n = sched_config_overrides(cfg, names, sizeof(names) / sizeof(names[0]));
	char k[SCHED_KERNEL_NAME_MAX];
	int at;

	at = snprintf(buf, len, "kernel %s (%s, cgroup_mode %s)",
		      sched_kernel_name(cfg->kernel, k, sizeof(k)), sched_policy_name(cfg->policy),
		      sched_cgroup_mode_name(cfg->cgroup_mode));
	for (size_t i = 0; i < n && at >= 0 && (size_t)at < len; i++)
		at += snprintf(buf + at, len - (size_t)at, "%s%s", i ? ", " : ", overridden: ",
			       names[i]);
	return at < 0 || (size_t)at >= len ? -ENOSPC : at;
}
