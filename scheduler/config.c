// SPDX-License-Identifier: MIT
/*
 * scheduler/config.c - what the kernel keeps outside the fair class, for the configuration:
 * the nice-to-weight tables' public face (kernel/sched/core.c's sched_prio_to_weight[] and
 * sched_prio_to_wmult[], in weight.h), the features' names (kernel/sched/debug.c's
 * sched_feat_names[]) and per-family defaults (features.h), the policies' and cgroup modes'
 * names, the tunables' scaling (get_update_sysctl_factor()) and limits (the sysctl and debugfs
 * knobs), and the default configuration of the unit tests (a kernel's defaults are
 * scheduler/kernels.c's).
 */
#include <errno.h>
#include <string.h>

#include "scheduler/sched.h"

uint32_t sched_nice_weight(int nice)
{
	return sched_prio_to_weight(nice);
}

uint32_t sched_nice_wmult(int nice)
{
	return sched_prio_to_wmult(nice);
}

static const char *const feat_names[SCHED_FEAT_NR] = {
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = #name,
#include "scheduler/features.h"
#undef SCHED_FEAT
};

const char *sched_feat_name(enum sched_feat f)
{
	return (unsigned)f < SCHED_FEAT_NR ? feat_names[f] : "?";
}

int sched_feat_parse(const char *name, enum sched_feat *out)
{
	for (int f = 0; f < SCHED_FEAT_NR; f++) {
		if (!strcmp(name, feat_names[f])) {
			*out = (enum sched_feat)f;
			return 0;
		}
	}
	return -EINVAL;
}

/* The defaults of scheduler/features.h, per policy. */
bool sched_feat_default(enum sched_feat f, enum sched_policy p)
{
	static const bool def[2][SCHED_FEAT_NR] = {
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = eevdf,
		[SCHED_POLICY_EEVDF] = {
#include "scheduler/features.h"
		},
#undef SCHED_FEAT
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = cfs,
		[SCHED_POLICY_CFS] = {
#include "scheduler/features.h"
		},
#undef SCHED_FEAT
	};

	return (unsigned)f < SCHED_FEAT_NR && def[p == SCHED_POLICY_CFS][f];
}

const char *sched_policy_name(enum sched_policy p)
{
	switch (p) {
	case SCHED_POLICY_CFS:
		return "cfs";
	case SCHED_POLICY_EEVDF_FLAT:
		return "eevdf-flat";
	case SCHED_POLICY_EEVDF:
		break;
	}
	return "eevdf";
}

/* kernel/sched/debug.c's cgroup_mode_str[], in its order */
static const char *const cgroup_mode_names[SCHED_CGROUP_NR] = {
	[SCHED_CGROUP_UP] = "up",	  [SCHED_CGROUP_SMP] = "smp", [SCHED_CGROUP_CONCUR] = "concur",
	[SCHED_CGROUP_MAX] = "max",	  [SCHED_CGROUP_TASKS] = "tasks",
};

const char *sched_cgroup_mode_name(enum sched_cgroup_mode m)
{
	return (unsigned)m < SCHED_CGROUP_NR ? cgroup_mode_names[m] : "?";
}

int sched_cgroup_mode_parse(const char *name, enum sched_cgroup_mode *out)
{
	for (int m = 0; m < SCHED_CGROUP_NR; m++) {
		if (!strcmp(name, cgroup_mode_names[m])) {
			*out = (enum sched_cgroup_mode)m;
			return 0;
		}
	}
	return -EINVAL;
}

int sched_policy_parse(const char *name, enum sched_policy *out)
{
	if (!strcmp(name, "eevdf"))
		*out = SCHED_POLICY_EEVDF;
	else if (!strcmp(name, "cfs"))
		*out = SCHED_POLICY_CFS;
	else if (!strcmp(name, "eevdf-flat"))
		*out = SCHED_POLICY_EEVDF_FLAT;
	else
		return -EINVAL;
	return 0;
}

unsigned sched_scaling_factor(enum sched_scaling sc, int cpus)
{
	unsigned n = cpus < 8 ? (unsigned)cpus : 8u, lg = 0;

	if (n < 1)
		n = 1;
	switch (sc) {
	case SCHED_SCALING_NONE:
		return 1;
	case SCHED_SCALING_LINEAR:
		return n;
	case SCHED_SCALING_LOG:
		break;
	}
	while (n >>= 1)
		lg++;
	return 1 + lg;
}

/*
 * A 6.18 kernel (its newest stable release modelled) with @policy: what unit tests and benches
 * were written against; scenarios choose their kernel (sim/scenario/, docs/kernels.md).
 */
void sched_config_default(struct sched_config *cfg, enum sched_policy policy, int cpus)
{
	sched_config_kernel(cfg, (struct sched_kernel){ 6, 18, SCHED_KERNEL_SERIES }, cpus);
	sched_config_set_policy(cfg, policy);
}

int sched_tunable_set(struct sched_tunables *t, const char *name, uint64_t v)
{
	const uint64_t max_ns = 1000000000ull;	/* the kernel's debugfs limits are wider; 1 s */

	if (!strcmp(name, "base_slice") || !strcmp(name, "latency") ||
	    !strcmp(name, "min_granularity") || !strcmp(name, "wakeup_granularity")) {
		if (v < 100000 || v > max_ns)	/* 0.1 ms .. 1 s */
			return -ERANGE;
		if (!strcmp(name, "base_slice"))
			t->base_slice_ns = v;
		else if (!strcmp(name, "latency"))
			t->latency_ns = v;
		else if (!strcmp(name, "min_granularity"))
			t->min_granularity_ns = v;
		else
			t->wakeup_granularity_ns = v;
	} else if (!strcmp(name, "migration_cost")) {
		if (v > max_ns)
			return -ERANGE;
		t->migration_cost_ns = v;
	} else if (!strcmp(name, "nr_migrate")) {
		if (v < 1 || v > 1024)
			return -ERANGE;
		t->nr_migrate = (uint32_t)v;
	} else if (!strcmp(name, "tunable_scaling")) {
		if (v > 2)
			return -ERANGE;
		t->tunable_scaling = (enum sched_scaling)v;
	} else if (!strcmp(name, "hz")) {
		if (v < 1 || v > 10000)
			return -ERANGE;
		t->hz = (uint32_t)v;
	} else {
		return -EINVAL;
	}
	return 0;
}
