// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_api.c - the scheduler's own API (scheduler/sched.h) and its tables:
 * weights, tunables and their scaling, configuration and feature defaults, names, and the
 * errors each call returns. The overhead model is in test_sched_overhead.c, task groups in
 * test_sched_groups.c, wakeups and preemption in test_sched_wakeup.c.
 *
 * The test is the driver, calling the scheduler without the machine, with the time, and
 * draining sched_pop_changed(); expected values come from the kernel's tables and rules
 * (docs/scheduler.md).
 */
#include "tests/unit/sched_test_util.h"

TestSuite(sched_api, .fini = stt_fini);

/* sched_prio_to_weight[40] and sched_prio_to_wmult[40], nice -20 .. 19 (§4.1). */
static const uint32_t prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

static const uint32_t prio_to_wmult[40] = {
	48388,     59856,     76040,     92818,     118348,
	147320,    184698,    229616,    287308,    360437,
	449829,    563644,    704093,    875809,    1099582,
	1376151,   1717300,   2157191,   2708050,   3363326,
	4194304,   5237765,   6557202,   8165337,   10153587,
	12820798,  15790321,  19976592,  24970740,  31350126,
	39045157,  49367440,  61356676,  76695844,  95443717,
	119304647, 148102320, 186737708, 238609294, 286331153,
};

#define OK(call)	STT_OK(s, call)
#define MS		STT_MS

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

/* ======================= tables and factors ======================= */

Test(sched_api, nice_weight_table)
{
	cr_expect_eq(sched_nice_weight(-20), 88761);
	cr_expect_eq(sched_nice_weight(0), 1024);
	cr_expect_eq(sched_nice_weight(19), 15);
	cr_expect_eq(sched_nice_wmult(0), 4194304);
	for (int nice = -20; nice <= 19; nice++) {
		cr_expect_eq(sched_nice_weight(nice), prio_to_weight[nice + 20],
			     "weight(%d) = %u, want %u", nice, sched_nice_weight(nice),
			     prio_to_weight[nice + 20]);
		cr_expect_eq(sched_nice_wmult(nice), prio_to_wmult[nice + 20],
			     "wmult(%d) = %u, want %u", nice, sched_nice_wmult(nice),
			     prio_to_wmult[nice + 20]);
	}
}

/* §4.2: LOG factor 1 + ilog2(min(cpus, 8)); NONE 1; LINEAR min(cpus, 8). */
/*
 * The tree the scheduler schedules by, as sched_tg_info() and sched_thread_tg() give it: an idle
 * group's entity weighs WEIGHT_IDLEPRIO (3) whatever its shares (sched_group_set_idle()), the
 * root weighs NICE_0 with no parent, a SCHED_IDLE task weighs 3 and a nice 5 task 335
 * (sched_prio_to_weight[25]); cpu.max is kept as given.
 */
Test(sched_api, tg_and_thread_info_are_what_is_scheduled)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 2, true, &zero_cost, false);
	struct sched_tg_info tg;
	uint32_t w = 0;

	OK(sched_tg_new(s, 1, 0, 2048, false, 0));
	OK(sched_tg_new(s, 2, 1, 500, true, 0));
	OK(sched_tg_set_bandwidth(s, 1, 50 * MS, 100 * MS, 0, 0));
	OK(sched_thread_new(s, 7, 2, 5, 0, 0));
	OK(sched_thread_new(s, 8, 1, 0, 0, 0));
	OK(sched_thread_set_policy(s, 8, SCHED_THREAD_IDLE, 0));

	cr_assert_eq(sched_tg_info(s, 0, &tg), 0);
	cr_assert_eq(tg.parent, -1);
	cr_assert_eq(tg.weight, 1024);
	cr_assert_eq(sched_tg_info(s, 1, &tg), 0);
	cr_assert_eq(tg.parent, 0);
	cr_assert_eq(tg.weight, 2048);
	cr_assert_eq(tg.quota_ns, 50 * MS);
	cr_assert_eq(tg.period_ns, 100 * MS);
	cr_assert_eq(sched_tg_info(s, 2, &tg), 0);
	cr_assert_eq(tg.parent, 1);
	cr_assert(tg.idle);
	cr_assert_eq(tg.weight, 3);
	cr_assert_eq(tg.quota_ns, UINT64_MAX);
	cr_assert_eq(sched_tg_info(s, 3, &tg), -ENOENT);
	cr_assert_gt(sched_tg_end(s), 2);

	cr_assert_eq(sched_thread_tg(s, 7, &w), 2);
	cr_assert_eq(w, 335);
	cr_assert_eq(sched_thread_tg(s, 8, &w), 1);
	cr_assert_eq(w, 3);
	cr_assert_eq(sched_thread_tg(s, 9, NULL), -ENOENT);
	OK(sched_tg_set(s, 2, 500, false, 0));
	cr_assert_eq(sched_tg_info(s, 2, &tg), 0);
	cr_assert_eq(tg.weight, 500);
	stt_sched_free();
}

Test(sched_api, scaling_factor)
{
	static const unsigned log_want[9] = { 1, 2, 2, 3, 3, 3, 3, 4, 4 };

	for (int c = 1; c <= 9; c++) {
		cr_expect_eq(sched_scaling_factor(SCHED_SCALING_LOG, c), log_want[c - 1],
			     "LOG factor for %d CPUs: %u, want %u", c,
			     sched_scaling_factor(SCHED_SCALING_LOG, c), log_want[c - 1]);
		cr_expect_eq(sched_scaling_factor(SCHED_SCALING_NONE, c), 1);
		cr_expect_eq(sched_scaling_factor(SCHED_SCALING_LINEAR, c),
			     (unsigned)(c < 8 ? c : 8));
	}
	cr_expect_eq(sched_scaling_factor(SCHED_SCALING_LOG, 64), 4);
	cr_expect_eq(sched_scaling_factor(SCHED_SCALING_LINEAR, 64), 8);
}

/* sched.h documents the 6.18 defaults; the CFS feature defaults are §4.5's. */
Test(sched_api, config_defaults)
{
	struct sched_config c;

	sched_config_default(&c, SCHED_POLICY_EEVDF, 4);
	cr_expect_eq(c.machine.cpus, 4);
	cr_expect_eq(c.policy, SCHED_POLICY_EEVDF);
	cr_expect_eq(c.tun.base_slice_ns, 700000);
	cr_expect_eq(c.tun.latency_ns, 6000000);
	cr_expect_eq(c.tun.min_granularity_ns, 750000);
	cr_expect_eq(c.tun.wakeup_granularity_ns, 1000000);
	cr_expect_eq(c.tun.migration_cost_ns, 500000);
	cr_expect_eq(c.tun.nr_migrate, 32);
	cr_expect_eq(c.tun.tunable_scaling, SCHED_SCALING_LOG);
	cr_expect(c.tick_elision);
	cr_expect(c.timeline_array);
	cr_expect(sched_feat_default(SCHED_FEAT_PLACE_LAG, SCHED_POLICY_EEVDF));
	cr_expect(sched_feat_default(SCHED_FEAT_RUN_TO_PARITY, SCHED_POLICY_EEVDF));

	sched_config_default(&c, SCHED_POLICY_CFS, 1);
	cr_expect(c.feat[SCHED_FEAT_GENTLE_FAIR_SLEEPERS]);
	cr_expect(c.feat[SCHED_FEAT_START_DEBIT]);
	cr_expect(c.feat[SCHED_FEAT_LAST_BUDDY]);
	cr_expect(c.feat[SCHED_FEAT_CACHE_HOT_BUDDY]);
	cr_expect(c.feat[SCHED_FEAT_WAKEUP_PREEMPTION]);
	cr_expect_not(c.feat[SCHED_FEAT_NEXT_BUDDY]);
}

/*
 * Every feature's default, per policy, as kernel/sched/features.h has it: Linux 6.18 for
 * EEVDF, 6.5 for CFS (where the EEVDF features and the later NI_RANDOM do not exist: off). Written from the
 * kernel's file, not from scheduler/features.h.
 */
Test(sched_api, feature_defaults_are_the_kernels)
{
	static const struct {
		const char *name;
		bool eevdf, cfs;
	} k[] = {
		{ "PLACE_LAG", true, false },		{ "PLACE_DEADLINE_INITIAL", true, false },
		{ "PLACE_REL_DEADLINE", true, false },	{ "RUN_TO_PARITY", true, false },
		{ "PREEMPT_SHORT", true, false },	{ "PICK_BUDDY", true, false },
		{ "DELAY_DEQUEUE", true, false },	{ "DELAY_ZERO", true, false },
		{ "GENTLE_FAIR_SLEEPERS", false, true },	{ "START_DEBIT", false, true },
		{ "LAST_BUDDY", false, true },		{ "ALT_PERIOD", false, true },
		{ "BASE_SLICE", false, true },		{ "NEXT_BUDDY", false, false },
		{ "CACHE_HOT_BUDDY", true, true },	{ "WAKEUP_PREEMPTION", true, true },
		{ "LB_MIN", false, false },		{ "WA_IDLE", true, true },
		{ "WA_WEIGHT", true, true },		{ "WA_BIAS", true, true },
		{ "SIS_UTIL", true, true },
		/* 33cf66d88306, in 6.18 and the stable 6.12.y (Debian's 6.12.118 has it) */
		{ "NI_RANDOM", true, false },
	};

	cr_assert_eq(SCHED_FEAT_NR, sizeof(k) / sizeof(k[0]), "one row per feature");
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		enum sched_feat f;

		cr_assert_eq(sched_feat_parse(k[i].name, &f), 0, "%s", k[i].name);
		cr_expect_eq(sched_feat_default(f, SCHED_POLICY_EEVDF), k[i].eevdf, "%s", k[i].name);
		cr_expect_eq(sched_feat_default(f, SCHED_POLICY_CFS), k[i].cfs, "%s", k[i].name);
	}
}

Test(sched_api, names_parse)
{
	enum sched_policy p;
	enum sched_feat f;
	struct sched_tunables t;
	struct sched_config c;

	cr_expect_eq(sched_policy_parse("eevdf", &p), 0);
	cr_expect_eq(p, SCHED_POLICY_EEVDF);
	cr_expect_eq(sched_policy_parse("cfs", &p), 0);
	cr_expect_eq(p, SCHED_POLICY_CFS);
	cr_expect_eq(sched_policy_parse("eevdf-flat", &p), 0);
	cr_expect_eq(p, SCHED_POLICY_EEVDF_FLAT);
	cr_expect_str_eq(sched_policy_name(SCHED_POLICY_EEVDF_FLAT), "eevdf-flat");
	cr_expect_eq(sched_policy_parse("bfs", &p), -EINVAL);
	cr_expect_str_eq(sched_policy_name(SCHED_POLICY_EEVDF), "eevdf");
	cr_expect_str_eq(sched_policy_name(SCHED_POLICY_CFS), "cfs");
	cr_expect_eq(sched_feat_parse("PLACE_LAG", &f), 0);
	cr_expect_eq(f, SCHED_FEAT_PLACE_LAG);
	cr_expect_eq(sched_feat_parse("NO_SUCH_FEATURE", &f), -EINVAL);
	for (int i = 0; i < SCHED_FEAT_NR; i++) {
		cr_expect_eq(sched_feat_parse(sched_feat_name((enum sched_feat)i), &f), 0);
		cr_expect_eq((int)f, i, "feature %d round-trips to %d", i, (int)f);
	}
	sched_config_default(&c, SCHED_POLICY_EEVDF, 1);
	t = c.tun;
	cr_expect_eq(sched_tunable_set(&t, "base_slice", 3000000), 0);
	cr_expect_eq(t.base_slice_ns, 3000000);
	cr_expect_eq(sched_tunable_set(&t, "hz", 250), 0);
	cr_expect_eq(t.hz, 250);
	cr_expect_eq(sched_tunable_set(&t, "hz", 0), -ERANGE);
	cr_expect_eq(sched_tunable_set(&t, "hz", 10001), -ERANGE);
	cr_expect_eq(sched_tunable_set(&t, "no_such_tunable", 1), -EINVAL);
}

/* ======================= errors ======================= */

Test(sched_api, errors)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 2, true, NULL, true);
	uint64_t mask = 0;

	/* unknown task group */
	cr_expect_eq(sched_tg_new(s, 5, 99, 1024, false, 0), -ENOENT);
	cr_expect_eq(sched_thread_new(s, 1, 42, 0, 0, 0), -ENOENT);
	cr_expect_eq(sched_tg_set(s, 42, 1024, false, 0), -ENOENT);
	OK(sched_tg_new(s, 5, 0, 1024, false, 0));
	cr_expect_eq(sched_tg_new(s, 5, 0, 1024, false, 0), -EEXIST);
	/* bad nice */
	cr_expect_eq(sched_thread_new(s, 1, 0, 20, 0, 0), -EINVAL);
	cr_expect_eq(sched_thread_new(s, 1, 0, -21, 0, 0), -EINVAL);
	OK(sched_thread_new(s, 1, 5, 0, 0, 0));
	/* duplicate thread */
	cr_expect_eq(sched_thread_new(s, 1, 0, 0, 0, 0), -EEXIST);
	cr_expect_eq(sched_thread_set_nice(s, 1, 20, 0), -EINVAL);
	cr_expect_eq(sched_thread_set_nice(s, 1, -21, 0), -EINVAL);
	/* unknown thread */
	cr_expect_eq(sched_wakeup(s, 7, 0), -ENOENT);
	cr_expect_eq(sched_sleep(s, 7, 0), -ENOENT);
	cr_expect_eq(sched_thread_move(s, 7, 0, 0), -ENOENT);
	cr_expect_eq(sched_thread_move(s, 1, 99, 0), -ENOENT);
	cr_expect_eq(sched_thread_exit(s, 7, 0), -ENOENT);
	/* an affinity naming no existing CPU (bits 2.. on a 2-CPU machine) */
	cr_expect_eq(sched_thread_set_affinity(s, 1, &mask, 1, 0), -EINVAL);
	mask = 1ull << 5;
	cr_expect_eq(sched_thread_set_affinity(s, 1, &mask, 1, 0), -EINVAL);
	/* a group with a thread cannot go */
	cr_expect_eq(sched_tg_free(s, 5, 0), -EBUSY);
	/* a group with a child cannot go */
	OK(sched_tg_new(s, 6, 5, 1024, false, 0));
	OK(sched_thread_move(s, 1, 0, 0));
	cr_expect_eq(sched_tg_free(s, 5, 0), -EBUSY);
	OK(sched_tg_free(s, 6, 0));
	OK(sched_tg_free(s, 5, 0));
	cr_expect_eq(sched_thread_new(s, 2, 5, 0, 0, 0), -ENOENT);
	/* time never goes backwards */
	OK(sched_wakeup(s, 1, 10 * MS));
	cr_expect_eq(sched_sleep(s, 1, 5 * MS), -EINVAL);
	/* wakeup of a runnable thread and sleep of a sleeping one are no-ops */
	OK(sched_wakeup(s, 1, 11 * MS));
	OK(sched_sleep(s, 1, 12 * MS));
	OK(sched_sleep(s, 1, 13 * MS));
	stt_check_ok(s, "errors");
	stt_sched_free();
}
