// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_kernels.c - the kernel versions cgsim models (scheduler/kernels.c):
 * "MAJOR.MINOR[.PATCH]" read and named, the versions refused, and each version's policy,
 * cgroup_mode, features and base slice as the kernel's history has them (docs/kernels.md):
 * kernel/sched/features.h and fair.c at each release, and the stable backports named there.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "scheduler/sched.h"

static struct sched_kernel K(const char *s)
{
	struct sched_kernel k;

	cr_assert_eq(sched_kernel_parse(s, &k), 0, "'%s' parses", s);
	return k;
}

static struct sched_config at(const char *version)
{
	struct sched_config c;

	cr_assert_eq(sched_config_kernel(&c, K(version), 2), 0, "kernel %s is modelled", version);
	return c;
}

static bool feat(const struct sched_config *c, const char *name)
{
	enum sched_feat f;

	cr_assert_eq(sched_feat_parse(name, &f), 0, "%s", name);
	return c->feat[f];
}

Test(sched_kernels, parse_and_name)
{
	static const char *const good[] = { "7.3", "6.18", "6.12.65", "5.13", "6.6.0", "7.3.4",
					    "6.19" };
	static const char *const bad[] = { "", "7", "7.", ".3", "7.3.", "7.3.4.1", "v7.3", "7.3-rc1",
					   "6.12.65-amd64", " 7.3", "7.3 ", "07.3", "6.06", "7.x",
					   "-7.3", "+7.3", "7.3.99999", "99999.1" };
	struct sched_kernel k;
	char buf[SCHED_KERNEL_NAME_MAX];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		cr_assert_eq(sched_kernel_parse(good[i], &k), 0, "'%s'", good[i]);
		cr_expect_str_eq(sched_kernel_name(k, buf, sizeof(buf)), good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(sched_kernel_parse(bad[i], &k), -EINVAL, "'%s' refused", bad[i]);
	/* "6.12" is the series, newer than any of its releases; "6.12.0" the first release */
	cr_expect_eq(K("6.12").patch, SCHED_KERNEL_SERIES);
	cr_expect_eq(K("6.12.0").patch, 0);
	cr_expect_gt(sched_kernel_cmp(K("6.12"), K("6.12.65")), 0);
	cr_expect_lt(sched_kernel_cmp(K("6.12"), K("6.13.0")), 0);
	cr_expect_lt(sched_kernel_cmp(K("6.9"), K("6.10")), 0);
	cr_expect_eq(sched_kernel_cmp(K("7.3"), sched_kernel_newest()), 0);
}

/* 5.13 (ALT_PERIOD, BASE_SLICE) to 7.3: the series that exist, at any patch level. */
Test(sched_kernels, versions_modelled)
{
	static const char *const known[] = { "5.13", "5.19", "6.0", "6.5", "6.6", "6.11", "6.19",
					     "7.0", "7.2", "7.3", "7.3.0", "7.3.4", "5.15.190" };
	static const char *const unknown[] = { "5.12", "5.20", "6.20", "7.4", "8.0", "4.19", "3.10",
					       "7.10" };
	struct sched_config c;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		cr_expect_eq(sched_config_kernel(&c, K(known[i]), 1), 0, "%s", known[i]);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		cr_expect_eq(sched_config_kernel(&c, K(unknown[i]), 1), -EINVAL, "%s", unknown[i]);
	cr_expect_str_eq(sched_kernels_modelled(), "5.13-5.19, 6.0-6.19, 7.0-7.3");
}

/* The fair class's pick and what a group's weight means (docs/kernels.md). */
Test(sched_kernels, policy_and_cgroup_mode)
{
	static const struct {
		const char *v;
		enum sched_policy p;
		enum sched_cgroup_mode m;
	} k[] = {
		{ "5.13", SCHED_POLICY_CFS, SCHED_CGROUP_SMP },
		{ "6.5", SCHED_POLICY_CFS, SCHED_CGROUP_SMP },
		{ "6.6.0", SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP },	/* 147f3efaa241 */
		{ "6.18", SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP },
		{ "7.2", SCHED_POLICY_EEVDF, SCHED_CGROUP_SMP },
		{ "7.3.0", SCHED_POLICY_EEVDF_FLAT, SCHED_CGROUP_CONCUR },	/* 85570f10a4c6, fb1050ac8e40 */
		{ "7.3", SCHED_POLICY_EEVDF_FLAT, SCHED_CGROUP_CONCUR },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct sched_config c = at(k[i].v);

		cr_expect_eq(c.policy, k[i].p, "%s: policy %s", k[i].v, sched_policy_name(c.policy));
		cr_expect_eq(c.cgroup_mode, k[i].m, "%s: cgroup_mode %s", k[i].v,
			     sched_cgroup_mode_name(c.cgroup_mode));
		cr_expect_eq(sched_kernel_has_cgroup_mode(K(k[i].v)),
			     k[i].m == SCHED_CGROUP_CONCUR, "%s", k[i].v);
		cr_expect_eq(sched_kernel_cmp(c.kernel, K(k[i].v)), 0);
	}
}

/*
 * The features whose defaults moved, version by version: SIS_UTIL 6.0 (70fb5ccf2ebb); the 6.12
 * set (PLACE_REL_DEADLINE 82e9d0456e06, PREEMPT_SHORT 85e511df3cec, DELAY_DEQUEUE 152e11f6df29,
 * DELAY_ZERO 54a58a787791); PICK_BUDDY 6.14 (2a77e4be12cb), 6.12.13 stable; NI_RANDOM 6.19
 * (33cf66d88306), stable 6.6.120, 6.12.65, 6.18.5. NEXT_BUDDY was on in 6.19-rc only.
 */
Test(sched_kernels, features_by_version)
{
	static const struct {
		const char *v;
		bool sis, rel, shrt, pick, delay, zero, ni;
	} k[] = {
		{ "5.13", 0, 0, 0, 0, 0, 0, 0 },	{ "5.19", 0, 0, 0, 0, 0, 0, 0 },
		{ "6.0", 1, 0, 0, 0, 0, 0, 0 },		{ "6.5", 1, 0, 0, 0, 0, 0, 0 },
		{ "6.6.0", 1, 0, 0, 0, 0, 0, 0 },	{ "6.6.119", 1, 0, 0, 0, 0, 0, 0 },
		{ "6.6.120", 1, 0, 0, 0, 0, 0, 1 },	{ "6.6", 1, 0, 0, 0, 0, 0, 1 },
		{ "6.11", 1, 0, 0, 0, 0, 0, 0 },	{ "6.12.0", 1, 1, 1, 0, 1, 1, 0 },
		{ "6.12.12", 1, 1, 1, 0, 1, 1, 0 },	{ "6.12.13", 1, 1, 1, 1, 1, 1, 0 },
		{ "6.12.64", 1, 1, 1, 1, 1, 1, 0 },	{ "6.12.65", 1, 1, 1, 1, 1, 1, 1 },
		{ "6.12", 1, 1, 1, 1, 1, 1, 1 },	{ "6.13", 1, 1, 1, 0, 1, 1, 0 },
		{ "6.14", 1, 1, 1, 1, 1, 1, 0 },	{ "6.18.4", 1, 1, 1, 1, 1, 1, 0 },
		{ "6.18.5", 1, 1, 1, 1, 1, 1, 1 },	{ "6.18", 1, 1, 1, 1, 1, 1, 1 },
		{ "6.19", 1, 1, 1, 1, 1, 1, 1 },	{ "7.2", 1, 1, 1, 1, 1, 1, 1 },
		{ "7.3", 1, 1, 1, 1, 1, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct sched_config c = at(k[i].v);
		bool eevdf = c.policy != SCHED_POLICY_CFS;

		cr_expect_eq(feat(&c, "SIS_UTIL"), k[i].sis, "%s SIS_UTIL", k[i].v);
		cr_expect_eq(feat(&c, "PLACE_REL_DEADLINE"), k[i].rel, "%s PLACE_REL_DEADLINE", k[i].v);
		cr_expect_eq(feat(&c, "PREEMPT_SHORT"), k[i].shrt, "%s PREEMPT_SHORT", k[i].v);
		cr_expect_eq(feat(&c, "PICK_BUDDY"), k[i].pick, "%s PICK_BUDDY", k[i].v);
		cr_expect_eq(feat(&c, "DELAY_DEQUEUE"), k[i].delay, "%s DELAY_DEQUEUE", k[i].v);
		cr_expect_eq(feat(&c, "DELAY_ZERO"), k[i].zero, "%s DELAY_ZERO", k[i].v);
		cr_expect_eq(feat(&c, "NI_RANDOM"), k[i].ni, "%s NI_RANDOM", k[i].v);
		/* the family's own: EEVDF's placement and parity, CFS's sleeper rules */
		cr_expect_eq(feat(&c, "PLACE_LAG"), eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "PLACE_DEADLINE_INITIAL"), eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "RUN_TO_PARITY"), eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "GENTLE_FAIR_SLEEPERS"), !eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "START_DEBIT"), !eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "LAST_BUDDY"), !eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "ALT_PERIOD"), !eevdf, "%s", k[i].v);
		cr_expect_eq(feat(&c, "BASE_SLICE"), !eevdf, "%s", k[i].v);
		cr_expect(!feat(&c, "NEXT_BUDDY"), "%s", k[i].v);
		cr_expect(!feat(&c, "LB_MIN"), "%s", k[i].v);
		cr_expect(feat(&c, "WAKEUP_PREEMPTION") && feat(&c, "CACHE_HOT_BUDDY") &&
			  feat(&c, "WA_IDLE") && feat(&c, "WA_WEIGHT") && feat(&c, "WA_BIAS"),
			  "%s", k[i].v);
	}
}

/* sysctl_sched_base_slice: 0.75 ms from 6.6, 0.70 ms from 6.15 (2ae891b82695), 6.6.93, 6.12.31. */
Test(sched_kernels, base_slice_by_version)
{
	static const struct {
		const char *v;
		uint64_t ns;
	} k[] = {
		{ "6.6.0", 750000 },  { "6.6.92", 750000 },  { "6.6.93", 700000 }, { "6.6", 700000 },
		{ "6.11", 750000 },   { "6.12.30", 750000 }, { "6.12.31", 700000 }, { "6.12", 700000 },
		{ "6.13", 750000 },   { "6.14", 750000 },    { "6.15", 700000 },    { "6.18", 700000 },
		{ "7.3", 700000 },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct sched_config c = at(k[i].v);

		cr_expect_eq(c.tun.base_slice_ns, k[i].ns, "%s: %llu", k[i].v,
			     (unsigned long long)c.tun.base_slice_ns);
		/* what no version changed */
		cr_expect_eq(c.tun.latency_ns, 6000000);
		cr_expect_eq(c.tun.min_granularity_ns, 750000);
		cr_expect_eq(c.tun.wakeup_granularity_ns, 1000000);
		cr_expect_eq(c.tun.migration_cost_ns, 500000);
		cr_expect_eq(c.tun.nr_migrate, 32);
		cr_expect_eq(c.tun.tunable_scaling, SCHED_SCALING_LOG);
	}
}

/* sched_config_default() is 6.18's, as it was; a policy given takes its nearest kernel's features. */
Test(sched_kernels, default_is_6_18)
{
	struct sched_config d, k;

	sched_config_default(&d, SCHED_POLICY_EEVDF, 4);
	cr_assert_eq(sched_config_kernel(&k, K("6.18"), 4), 0);
	cr_expect_eq(memcmp(&d, &k, sizeof(d)), 0, "sched_config_default(EEVDF) is kernel 6.18's");
	cr_expect_eq(sched_kernel_cmp(d.kernel, K("6.18")), 0);
	cr_expect_eq(d.cgroup_mode, SCHED_CGROUP_SMP);
	/* CFS on 6.18: the features of 6.0-6.5 (the column features.h gives CFS) */
	sched_config_default(&d, SCHED_POLICY_CFS, 1);
	cr_expect_eq(d.policy, SCHED_POLICY_CFS);
	for (int f = 0; f < SCHED_FEAT_NR; f++)
		cr_expect_eq(d.feat[f], sched_feat_default((enum sched_feat)f, SCHED_POLICY_CFS), "%s",
			     sched_feat_name((enum sched_feat)f));
	cr_expect_eq(d.tun.base_slice_ns, 700000, "the kernel's tunables stay 6.18's");
}

/* A policy other than the version's: the features of the nearest kernel that ran it. */
Test(sched_kernels, policy_override)
{
	struct sched_config c = at("7.3");

	sched_config_set_policy(&c, SCHED_POLICY_EEVDF);	/* 7.2's features */
	cr_expect_eq(c.policy, SCHED_POLICY_EEVDF);
	cr_expect(feat(&c, "NI_RANDOM") && feat(&c, "DELAY_DEQUEUE"));
	cr_expect_eq(c.cgroup_mode, SCHED_CGROUP_CONCUR, "the policy does not move the mode");
	sched_config_set_policy(&c, SCHED_POLICY_CFS);		/* 6.0-6.5's */
	cr_expect(feat(&c, "GENTLE_FAIR_SLEEPERS") && feat(&c, "SIS_UTIL"));
	cr_expect(!feat(&c, "PLACE_LAG") && !feat(&c, "NI_RANDOM"));
	c = at("5.15");
	sched_config_set_policy(&c, SCHED_POLICY_EEVDF);	/* the first EEVDF kernel's: 6.6 */
	cr_expect(feat(&c, "PLACE_LAG") && !feat(&c, "DELAY_DEQUEUE") && !feat(&c, "NI_RANDOM"));
	cr_expect_eq(c.tun.base_slice_ns, 750000);
}

/* What a report says: the kernel, its policy and mode, and what differs from its defaults. */
Test(sched_kernels, describe_and_overrides)
{
	struct sched_config c = at("7.3");
	const char *names[8];
	char buf[256];
	enum sched_feat f;

	cr_assert_geq(sched_config_describe(&c, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "kernel 7.3 (eevdf-flat, cgroup_mode concur)");
	cr_expect_eq(sched_config_overrides(&c, names, 8), 0);
	c.tun.hz = 250;		/* the machine's, not the kernel's */
	c.machine = topo_machine_flat(8);
	cr_expect_eq(sched_config_overrides(&c, names, 8), 0);

	sched_config_set_policy(&c, SCHED_POLICY_EEVDF);
	c.cgroup_mode = SCHED_CGROUP_SMP;
	cr_assert_eq(sched_feat_parse("RUN_TO_PARITY", &f), 0);
	c.feat[f] = false;
	c.tun.base_slice_ns = 3000000;
	cr_assert_eq(sched_config_overrides(&c, names, 8), 4);
	cr_expect_str_eq(names[0], "policy");
	cr_expect_str_eq(names[1], "cgroup_mode");
	cr_expect_str_eq(names[2], "RUN_TO_PARITY");
	cr_expect_str_eq(names[3], "base_slice");
	cr_expect_eq(sched_config_overrides(&c, names, 2), 4, "the count, whatever fits");
	sched_config_describe(&c, buf, sizeof(buf));
	cr_expect_str_eq(buf, "kernel 7.3 (eevdf, cgroup_mode smp), overridden: policy, "
			      "cgroup_mode, RUN_TO_PARITY, base_slice");

	/* the features a policy brings are its defaults, not overrides */
	c = at("6.18");
	sched_config_set_policy(&c, SCHED_POLICY_CFS);
	cr_expect_eq(sched_config_overrides(&c, names, 8), 1);
	cr_expect_str_eq(names[0], "policy");
	c = at("6.12.65");
	sched_config_describe(&c, buf, sizeof(buf));
	cr_expect_str_eq(buf, "kernel 6.12.65 (eevdf, cgroup_mode smp)");
}

/* Every row names where it comes from. */
Test(sched_kernels, sources)
{
	cr_expect(strstr(sched_kernel_source(K("7.3")), "85570f10a4c6"));
	cr_expect(strstr(sched_kernel_source(K("6.15")), "2ae891b82695"));
	cr_expect(strstr(sched_kernel_source(K("6.18.5")), "33cf66d88306"));
	cr_expect_null(sched_kernel_source(K("7.4")));
}

/*
 * validate runs a scenario's model as the kernel that ran: the defaults move to that kernel's,
 * what the scenario set itself stays (docs/kernels.md, "Overrides").
 */
Test(sched_kernels, rebase_keeps_what_the_scenario_set)
{
	struct sched_config c = at("6.18");
	enum sched_feat nb;

	cr_assert_eq(sched_feat_parse("NEXT_BUDDY", &nb), 0);
	c.machine = topo_machine_flat(4);
	c.tun.hz = 250;
	c.seed = 7;
	c.feat[nb] = true;			/* the scenario's own switch */
	c.tun.migration_cost_ns = 123456;	/* and tunable */
	cr_assert_eq(sched_config_rebase(&c, K("7.3")), 0);
	cr_assert_eq(c.kernel.major, 7);
	cr_assert_eq(c.kernel.minor, 3);
	cr_assert_eq(c.policy, SCHED_POLICY_EEVDF_FLAT, "7.3's policy: 6.18's default moved");
	cr_assert_eq(c.cgroup_mode, SCHED_CGROUP_CONCUR, "7.3's default mode");
	cr_assert(feat(&c, "NEXT_BUDDY"), "the scenario's feature stays");
	cr_assert(feat(&c, "DELAY_DEQUEUE"));
	cr_assert_eq(c.tun.migration_cost_ns, 123456u, "the scenario's tunable stays");
	cr_assert_eq(c.tun.base_slice_ns, 700000u);
	cr_assert_eq(c.machine.cpus, 4, "the machine is not the kernel's");
	cr_assert_eq(c.tun.hz, 250u);
	cr_assert_eq(c.seed, 7u);

	/* an overridden policy stays, and 6.5's CFS defaults come with it on the way back */
	c = at("7.3");
	sched_config_set_policy(&c, SCHED_POLICY_CFS);
	cr_assert_eq(sched_config_rebase(&c, K("6.12")), 0);
	cr_assert_eq(c.policy, SCHED_POLICY_CFS);
}

Test(sched_kernels, rebase_refuses_a_mode_the_kernel_lacks)
{
	struct sched_config c = at("7.3"), before;

	c.cgroup_mode = SCHED_CGROUP_MAX;	/* overridden: max */
	before = c;
	cr_assert_eq(sched_config_rebase(&c, K("7.2")), -EINVAL, "7.2 has no cgroup_mode max");
	cr_assert_eq(memcmp(&c, &before, sizeof(c)), 0, "left unchanged");
	cr_assert_eq(sched_config_rebase(&c, K("4.19")), -EINVAL, "not modelled");
	c.cgroup_mode = SCHED_CGROUP_SMP;	/* smp is what 7.2 computes */
	cr_assert_eq(sched_config_rebase(&c, K("7.2")), 0);
	cr_assert_eq(c.cgroup_mode, SCHED_CGROUP_SMP);
	cr_assert_eq(c.policy, SCHED_POLICY_EEVDF, "7.2: hierarchical EEVDF");
}
