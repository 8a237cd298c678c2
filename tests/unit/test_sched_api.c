// SPDX-License-Identifier: MIT
/*
 * Unit tests of the scheduler's own API (scheduler/sched.h), without the machine: the test is
 * the driver, calling the scheduler with the time and draining sched_pop_changed().
 *
 * Expected values come from the kernel's tables and rules (docs/scheduler.md:
 * weights, tunables and their scaling, placement,
 * preemption and group shares) and from the contract sched.h states for the overhead model:
 * the scheduler's own work is CPU time charged to the CPU, which delays whatever runs next;
 * a wakeup costs wakeup_ns, a context switch switch_ns, a tick on a busy CPU tick_ns, each
 * plus level_ns per hierarchy level the operation enqueues, puts or sets.
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

/* A scheduler for @pol on @cpus CPUs with the given costs; freed by stt_fini(). */
static struct sched *new_sched(enum sched_policy pol, int cpus, bool elision,
			       const struct sched_costs *cost, bool check)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, pol, cpus);
	cfg.tick_elision = elision;
	cfg.check = check;
	if (cost)
		cfg.cost = *cost;
	s = sched_new(&cfg);
	cr_assert_not_null(s, "sched_new failed");
	stt_s = s;
	return s;
}

static void free_sched(void)
{
	sched_free(stt_s);
	stt_s = NULL;
}

/* What the driver does after every call. */
static void drain(struct sched *s)
{
	int n = 0;

	while (sched_pop_changed(s) >= 0)
		cr_assert_lt(++n, 100000, "sched_pop_changed never ends");
}

static void check_ok(struct sched *s, const char *when)
{
	char why[512] = "";
	int rc = sched_check(s, why, sizeof(why));

	cr_assert_eq(rc, 0, "sched_check after %s: %d (%s)", when, rc, why);
}

#define OK(call)                                                                              \
	do {                                                                                  \
		int rc_ = (call);                                                             \
		cr_assert_eq(rc_, 0, "%s: %d", #call, rc_);                                   \
		drain(s);                                                                     \
	} while (0)

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

/* The non-zero costs the overhead tests use (the defaults of sched_config_default). */
#define C_SWITCH	1000u
#define C_WAKE		500u
#define C_SLEEP		300u
#define C_TICK		400u
#define C_LEVEL		56u
#define C_WALK		7u
static const struct sched_costs some_cost = { C_SWITCH, C_WAKE, C_SLEEP, C_TICK, C_LEVEL,
					      C_WALK };

#define MS 1000000ull

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
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 2, true, &zero_cost, false);
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
	free_sched();
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
	cr_expect_eq(c.cpus, 4);
	cr_expect_eq(c.policy, SCHED_POLICY_EEVDF);
	cr_expect_eq(c.tun.base_slice_ns, 700000);
	cr_expect_eq(c.tun.latency_ns, 6000000);
	cr_expect_eq(c.tun.min_granularity_ns, 750000);
	cr_expect_eq(c.tun.wakeup_granularity_ns, 1000000);
	cr_expect_eq(c.tun.migration_cost_ns, 500000);
	cr_expect_eq(c.tun.nr_migrate, 32);
	cr_expect_eq(c.tun.tunable_scaling, SCHED_SCALING_LOG);
	cr_expect(c.tick_elision);
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
 * EEVDF, 6.5 for CFS (where the EEVDF features do not exist: off). Written from the
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
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 2, true, NULL, true);
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
	check_ok(s, "errors");
	free_sched();
}

/* ======================= execution time and overhead ======================= */

/*
 * One nice-0 thread woken at T0 on an idle 1-CPU machine with every cost zero runs at once and
 * has executed exactly T - T0 at any T; after it sleeps it executes nothing more.
 */
static void exec_zero_cost(enum sched_policy pol, bool elision)
{
	struct sched *s = new_sched(pol, 1, elision, &zero_cost, true);
	static const uint64_t T0 = 250000;
	static const uint64_t at[] = { 250000, 1000000, 5500000, 100300000, 1000000001 };
	uint64_t e;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	cr_expect_eq(sched_thread_exec(s, 1, 0), 0);
	OK(sched_wakeup(s, 1, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "[%s] not running right after its wakeup",
		     sched_policy_name(pol));
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		sched_advance(s, at[i]);
		drain(s);
		e = sched_thread_exec(s, 1, at[i]);
		cr_expect_eq(e, at[i] - T0, "[%s elision=%d] exec at %" PRIu64 ": %" PRIu64
			     ", want %" PRIu64, sched_policy_name(pol), elision, at[i], e,
			     at[i] - T0);
	}
	OK(sched_sleep(s, 1, 1200 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	sched_advance(s, 1500 * MS);
	drain(s);
	e = sched_thread_exec(s, 1, 1500 * MS);
	cr_expect_eq(e, 1200 * MS - T0, "[%s elision=%d] exec after sleeping: %" PRIu64
		     ", want %" PRIu64, sched_policy_name(pol), elision, e, (uint64_t)(1200 * MS - T0));
	check_ok(s, "exec_zero_cost");
	free_sched();
}

Test(sched_api, exec_zero_cost_eevdf) { exec_zero_cost(SCHED_POLICY_EEVDF, true); }
Test(sched_api, exec_zero_cost_cfs) { exec_zero_cost(SCHED_POLICY_CFS, true); }
Test(sched_api, exec_zero_cost_eevdf_noelide) { exec_zero_cost(SCHED_POLICY_EEVDF, false); }
Test(sched_api, exec_zero_cost_cfs_noelide) { exec_zero_cost(SCHED_POLICY_CFS, false); }

/*
 * The same with the costs of some_cost, HZ 1000 (ticks every 1 ms on the grid), the thread at
 * hierarchy depth @depth (1: in the root; 2: in a child group of the root). Woken at
 * T0 = 0.25 ms on the idle CPU:
 *   the wakeup enqueues @depth levels (the task, and the group entity since the group's queue
 *   was empty), walking each: C_WAKE + depth (C_LEVEL + C_WALK);
 *   the switch idle -> thread picks at each of @depth levels (a walk of each) and sets each:
 *   C_SWITCH + depth (C_LEVEL + C_WALK);
 *   each tick at 1, 2, ..., 10 ms while it runs walks every level and changes none:
 *   C_TICK + depth C_WALK.
 * Each is CPU time the thread's work does not get. At T = 10.5 ms, 10 ticks have passed:
 *   work = (T - T0) - (C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK)) - 10 (C_TICK + depth C_WALK)
 * depth 1: 10 250 000 - 1626 - 4070 = 10 244 304 ns;
 * depth 2: 10 250 000 - 1752 - 4140 = 10 244 108 ns.
 * Its CPU time is what the kernel charges it, by the clock (rq_clock_task(), which counts the
 * scheduler's own time): the wakeup asks for a reschedule, so the switch reuses the wakeup's
 * clock reading (rq_clock_skip_update()) and the thread is charged from the wakeup on, its
 * enqueue, the switch and the ticks included: exec = T - T0 = 10 250 000 ns, and when the
 * switch is done, exec = C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK) with no work yet.
 * Without elision every tick up to T has been processed, so the overhead charged to the CPU
 * is the sum of those costs, there was one context switch, 2 depth level operations, 2 depth +
 * 10 depth levels walked and 10 ticks. The wakeup latency (wakeup to first run) is
 * C_WAKE + C_SWITCH + 2 depth (C_LEVEL + C_WALK).
 */
struct lat_probe {
	int n;
	int tid;
	uint64_t lat;
};

static void lat_hook(void *ctx, int tid, uint64_t latency_ns)
{
	struct lat_probe *p = ctx;

	p->n++;
	p->tid = tid;
	p->lat = latency_ns;
}

static void exec_with_cost(enum sched_policy pol, bool elision, unsigned depth)
{
	struct sched *s = new_sched(pol, 1, elision, &some_cost, true);
	const uint64_t T0 = 250000, T = 10500000;
	const uint64_t wake = C_WAKE + depth * (C_LEVEL + C_WALK);
	const uint64_t sw = C_SWITCH + depth * (C_LEVEL + C_WALK);
	const uint64_t tick = C_TICK + depth * C_WALK;
	const uint64_t want = (T - T0) - wake - sw - 10 * tick, charged = T - T0;
	struct lat_probe lp = { 0, 0, 0 };
	struct sched_stats st;
	uint64_t e;
	int tg = 0;

	sched_set_latency_hook(s, lat_hook, &lp);
	if (depth == 2) {
		tg = 3;
		OK(sched_tg_new(s, tg, 0, 1024, false, 0));
	}
	OK(sched_thread_new(s, 1, tg, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(lp.n, 1, "[%s] %d latency samples", sched_policy_name(pol), lp.n);
	cr_expect_eq(lp.tid, 1);
	cr_expect_eq(lp.lat, wake + sw, "[%s depth %u] latency %" PRIu64 ", want %" PRIu64,
		     sched_policy_name(pol), depth, lp.lat, wake + sw);
	e = sched_thread_exec(s, 1, T0 + wake + sw);
	cr_expect_eq(e, wake + sw, "[%s depth %u] exec %" PRIu64 " when the switch is paid, want %"
		     PRIu64, sched_policy_name(pol), depth, e, wake + sw);
	e = sched_thread_work(s, 1, T0 + wake + sw);
	cr_expect_eq(e, 0, "[%s depth %u] work %" PRIu64 " before the overhead is paid",
		     sched_policy_name(pol), depth, e);
	sched_advance(s, T);
	drain(s);
	e = sched_thread_work(s, 1, T);
	cr_expect_eq(e, want, "[%s elision=%d depth %u] work at 10.5 ms: %" PRIu64
		     ", want %" PRIu64 " (diff %lld)", sched_policy_name(pol), elision, depth, e,
		     want, (long long)e - (long long)want);
	e = sched_thread_exec(s, 1, T);
	cr_expect_eq(e, charged, "[%s elision=%d depth %u] exec at 10.5 ms: %" PRIu64
		     ", want %" PRIu64, sched_policy_name(pol), elision, depth, e, charged);
	if (!elision) {
		uint64_t ov = sched_cpu_overhead(s, 0);

		sched_stats(s, &st);
		cr_expect_eq(ov, wake + sw + 10 * tick, "[%s depth %u] overhead %" PRIu64
			     ", want %" PRIu64, sched_policy_name(pol), depth, ov,
			     wake + sw + 10 * tick);
		cr_expect_eq(st.overhead_ns, ov);
		cr_expect_eq(st.switches, 1, "[%s] switches %" PRIu64, sched_policy_name(pol),
			     st.switches);
		cr_expect_eq(st.level_ops, 2 * depth, "[%s depth %u] level_ops %" PRIu64
			     ", want %u", sched_policy_name(pol), depth, st.level_ops, 2 * depth);
		cr_expect_eq(st.level_walks, 12 * depth, "[%s depth %u] level_walks %" PRIu64
			     ", want %u", sched_policy_name(pol), depth, st.level_walks,
			     12 * depth);
		cr_expect_eq(st.ticks, 10, "[%s] ticks %" PRIu64, sched_policy_name(pol),
			     st.ticks);
		cr_expect_eq(st.ticks_processed, 10);
		cr_expect_eq(st.migrations, 0);
	}
	/* Going to sleep ends its execution: nothing more later. */
	OK(sched_sleep(s, 1, T));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	sched_advance(s, 3 * T);
	drain(s);
	cr_expect_eq(sched_thread_work(s, 1, 3 * T), want);
	cr_expect_eq(sched_thread_exec(s, 1, 3 * T), charged);
	check_ok(s, "exec_with_cost");
	free_sched();
}

Test(sched_api, exec_with_cost_root_eevdf) { exec_with_cost(SCHED_POLICY_EEVDF, true, 1); }
Test(sched_api, exec_with_cost_root_cfs) { exec_with_cost(SCHED_POLICY_CFS, true, 1); }
Test(sched_api, exec_with_cost_root_eevdf_noelide) { exec_with_cost(SCHED_POLICY_EEVDF, false, 1); }
Test(sched_api, exec_with_cost_root_cfs_noelide) { exec_with_cost(SCHED_POLICY_CFS, false, 1); }
Test(sched_api, exec_with_cost_group_eevdf) { exec_with_cost(SCHED_POLICY_EEVDF, true, 2); }
Test(sched_api, exec_with_cost_group_cfs) { exec_with_cost(SCHED_POLICY_CFS, true, 2); }
Test(sched_api, exec_with_cost_group_eevdf_noelide)
{
	exec_with_cost(SCHED_POLICY_EEVDF, false, 2);
}
Test(sched_api, exec_with_cost_group_cfs_noelide) { exec_with_cost(SCHED_POLICY_CFS, false, 2); }

/*
 * Two nice-0 threads on one CPU, the second woken 3.3 ms after the first. The CPU is never
 * idle from T0 on and the kernel charges every ns of it to the task on it, the scheduler's
 * time included, from the first wakeup's clock reading (exec_with_cost above): at every T,
 * exec1 + exec2 = T - T0. Their own work gets the rest: work1 + work2 + overhead = T - T0
 * (with costs and no elision every charge up to T is in sched_cpu_overhead(), T being mid-tick
 * so no charge straddles it; with zero costs the overhead is 0). Equal weights: at any instant
 * one is ahead of the other by at most about one request: CFS slice 6 ms / 2 = 3 ms, checked
 * at ticks, so a run lasts up to 4 ms; EEVDF lag is bounded by a slice plus a tick. 8 ms (two
 * such runs) leaves room for the start-up placement.
 */
static void two_threads(enum sched_policy pol, const struct sched_costs *cost, bool elision)
{
	struct sched *s = new_sched(pol, 1, elision, cost, true);
	const uint64_t T0 = 100000;
	static const uint64_t at[] = { 3500000, 17500000, 250500000, 1000500000 };
	uint64_t e1 = 0, e2 = 0, w1, w2, ov;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0 + 3300000));
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		sched_advance(s, at[i]);
		drain(s);
		e1 = sched_thread_exec(s, 1, at[i]);
		e2 = sched_thread_exec(s, 2, at[i]);
		w1 = sched_thread_work(s, 1, at[i]);
		w2 = sched_thread_work(s, 2, at[i]);
		ov = cost == &zero_cost ? 0 : sched_cpu_overhead(s, 0);
		cr_expect_eq(e1 + e2, at[i] - T0, "[%s] at %" PRIu64 ": exec %" PRIu64 " + %"
			     PRIu64 " != %" PRIu64, sched_policy_name(pol), at[i], e1, e2,
			     at[i] - T0);
		cr_expect_eq(w1 + w2 + ov, at[i] - T0, "[%s] at %" PRIu64 ": work %" PRIu64
			     " + %" PRIu64 " + overhead %" PRIu64 " != %" PRIu64,
			     sched_policy_name(pol), at[i], w1, w2, ov, at[i] - T0);
	}
	cr_expect(llabs((long long)e1 - (long long)e2) <= 8000000,
		  "[%s] after 1 s: exec %" PRIu64 " vs %" PRIu64, sched_policy_name(pol), e1, e2);
	check_ok(s, "two_threads");
	free_sched();
}

/*
 * Two such threads, woken together, read at every instant, also inside the scheduler's work at a tick and a
 * switch: a charge runs to the end of that work, ahead of the clock, and a thread's CPU time
 * must still count only what the clock has reached. At every t, exec1 + exec2 = t - T0 (the
 * CPU is never idle and charged by the clock), and neither ever goes back.
 */
static void exec_every_instant(enum sched_policy pol, bool elision)
{
	struct sched *s = new_sched(pol, 1, elision, &some_cost, true);
	struct sched_config cfg;
	const uint64_t T0 = 100000;
	uint64_t P, last1 = 0, last2 = 0;

	sched_config_default(&cfg, pol, 1);
	P = 1000000000ull / cfg.tun.hz;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0));
	for (uint64_t T = P; T <= 60 * P; T += P)
		for (uint64_t off = 0; off < 2000; off += 97) {
			uint64_t t = T + off, e1, e2;

			sched_advance(s, t);
			drain(s);
			e1 = sched_thread_exec(s, 1, t);
			e2 = sched_thread_exec(s, 2, t);
			cr_assert_eq(e1 + e2, t - T0, "[%s] at %" PRIu64 ": exec %" PRIu64 " + %"
				     PRIu64 " != %" PRIu64, sched_policy_name(pol), t, e1, e2,
				     t - T0);
			cr_assert(e1 >= last1 && e2 >= last2, "[%s] at %" PRIu64 ": exec went back",
				  sched_policy_name(pol), t);
			last1 = e1;
			last2 = e2;
		}
	check_ok(s, "exec_every_instant");
	free_sched();
}

Test(sched_api, exec_every_instant_eevdf) { exec_every_instant(SCHED_POLICY_EEVDF, true); }
Test(sched_api, exec_every_instant_cfs) { exec_every_instant(SCHED_POLICY_CFS, true); }
Test(sched_api, exec_every_instant_eevdf_noelide) { exec_every_instant(SCHED_POLICY_EEVDF, false); }

Test(sched_api, two_threads_zero_cost_eevdf) { two_threads(SCHED_POLICY_EEVDF, &zero_cost, true); }
Test(sched_api, two_threads_zero_cost_cfs) { two_threads(SCHED_POLICY_CFS, &zero_cost, true); }
Test(sched_api, two_threads_cost_eevdf) { two_threads(SCHED_POLICY_EEVDF, &some_cost, false); }
Test(sched_api, two_threads_cost_cfs) { two_threads(SCHED_POLICY_CFS, &some_cost, false); }

/*
 * Who pays for the scheduler's time (docs/scheduler.md, "Overhead model"): EEVDF on one CPU at
 * HZ 1000, wakeup W = 500, switch S = 1000, sleep Z = 300 and tick K = 400 ns, nothing per
 * level. Threads 1 and 2 are woken at T0 = 0.25 ms, 1 first on the idle CPU: 1 runs, charged
 * from T0 (its own wakeup, the switch to it and 2's wakeup included, 2's not preempting a
 * thread protected to its deadline); its work starts after 2W + S. Its request (0.7 ms on one
 * CPU) is used up at the tick at 1 ms, which reschedules: the switch reads the clock again
 * after the tick, so 1 pays the tick (exec 750,000 + K) and 2 is charged from 1 ms + K, its
 * switch included. 2 sleeps at 1.3 ms: the sleep and the switch back are 1's, charged from
 * 1.3 ms.
 */
Test(sched_api, who_pays_the_scheduler)
{
	const struct sched_costs c = { .switch_ns = 1000, .wakeup_ns = 500, .sleep_ns = 300,
				       .tick_ns = 400 };
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1, true, &c, true);
	const uint64_t T0 = 250000, K = 400, S = 1000, W = 500, Z = 300;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, T0));
	OK(sched_wakeup(s, 2, T0));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	sched_advance(s, 1200000);
	drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 2, "the tick at 1 ms hands the CPU to 2");
	cr_expect_eq(sched_thread_exec(s, 1, 1200000), 750000 + K);
	cr_expect_eq(sched_thread_work(s, 1, 1200000), 750000 - 2 * W - S);
	cr_expect_eq(sched_thread_exec(s, 2, 1200000), 200000 - K);
	cr_expect_eq(sched_thread_work(s, 2, 1200000), 200000 - K - S);
	OK(sched_sleep(s, 2, 1300000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	cr_expect_eq(sched_thread_exec(s, 2, 1400000), 300000 - K);
	cr_expect_eq(sched_thread_exec(s, 1, 1400000), 750000 + K + 100000);
	cr_expect_eq(sched_thread_work(s, 1, 1400000), 750000 - 2 * W - S + 100000 - Z - S);
	check_ok(s, "who_pays_the_scheduler");
	free_sched();
}

/*
 * sched.h: sched_stats.switches counts context switches "to and from idle included", as the
 * kernel's nr_switches counts every context_switch(), the idle task being a task. A thread
 * that runs once and sleeps makes two: idle -> thread, thread -> idle. A second thread woken
 * while the first runs on the other CPU of a 2-CPU machine adds its own idle -> thread.
 */
static void switch_count(enum sched_policy pol)
{
	struct sched *s = new_sched(pol, 2, false, NULL, true);
	struct sched_stats st;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 100000));
	sched_advance(s, 2 * MS);
	drain(s);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 1, "[%s] switches after one wakeup: %" PRIu64 ", want 1",
		     sched_policy_name(pol), st.switches);
	OK(sched_wakeup(s, 2, 2 * MS));
	cr_expect_neq(sched_cpu_curr(s, 0), -1);
	cr_expect_neq(sched_cpu_curr(s, 1), -1);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 2, "[%s] switches after the second thread went to the idle "
		     "CPU: %" PRIu64 ", want 2", sched_policy_name(pol), st.switches);
	OK(sched_sleep(s, 1, 5 * MS));
	OK(sched_sleep(s, 2, 5 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), -1);
	cr_assert_eq(sched_cpu_curr(s, 1), -1);
	sched_stats(s, &st);
	cr_expect_eq(st.switches, 4, "[%s] switches after both slept: %" PRIu64
		     ", want 4 (2 idle -> task, 2 task -> idle)", sched_policy_name(pol),
		     st.switches);
	cr_expect_eq(st.migrations, 0);
	free_sched();
}

Test(sched_api, switch_count_includes_idle_eevdf) { switch_count(SCHED_POLICY_EEVDF); }
Test(sched_api, switch_count_includes_idle_cfs) { switch_count(SCHED_POLICY_CFS); }

/* ======================= a running thread leaves its CPU ======================= */

/*
 * The running thread exits: its CPU goes idle at once and it never runs again; an affinity
 * change that excludes its CPU moves the running thread to the allowed one (sched.h: "moved
 * at once"), one migration; a move to another group keeps it running on its CPU.
 */
static void running_leaves(enum sched_policy pol)
{
	struct sched *s = new_sched(pol, 2, true, NULL, true);
	struct sched_thread_stats ts;
	uint64_t cpu1 = 2;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 100000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_thread_move(s, 1, 1, 1 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "[%s] moved to a group: curr %d",
		     sched_policy_name(pol), sched_cpu_curr(s, 0));
	OK(sched_thread_set_affinity(s, 1, &cpu1, 1, 2 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 0), -1);
	cr_expect_eq(sched_cpu_curr(s, 1), 1, "[%s] affinity to CPU 1: curr of CPU 1 is %d",
		     sched_policy_name(pol), sched_cpu_curr(s, 1));
	OK(sched_thread_stats(s, 1, &ts));
	cr_expect_eq(ts.migrations, 1);
	cr_expect_eq(ts.cpu, 1);
	OK(sched_thread_exit(s, 1, 3 * MS + 1));
	cr_expect_eq(sched_cpu_curr(s, 1), -1);
	cr_expect_eq(sched_thread_stats(s, 1, &ts), -ENOENT);
	OK(sched_tg_free(s, 1, 4 * MS));
	check_ok(s, "running_leaves");
	free_sched();
}

Test(sched_api, running_thread_leaves_eevdf) { running_leaves(SCHED_POLICY_EEVDF); }
Test(sched_api, running_thread_leaves_cfs) { running_leaves(SCHED_POLICY_CFS); }

/* ======================= CFS sleeper credit and wakeup preemption ======================= */

/*
 * CFS, one CPU: threads 1 and 2 run together, 2 sleeps at 50 ms, 1 runs alone to 150.5 ms and
 * 2 wakes. place_entity (§4.4): vruntime = max(its old vruntime, min_vruntime - latency / 2);
 * its old vruntime is ~100 ms behind, so it gets min_vruntime - 3 ms (latency 6 ms x factor 1).
 * min_vruntime is curr's vruntime (alone on the queue), so vdiff = curr.v - pse.v = 3 ms >
 * wakeup_gran = calc_delta_fair(1 ms, nice 0) = 1 ms (§4.5): the wakee preempts at once.
 */
Test(sched_api, cfs_sleeper_preempts)
{
	struct sched *s = new_sched(SCHED_POLICY_CFS, 1, true, &zero_cost, true);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	sched_advance(s, 50 * MS);
	drain(s);
	OK(sched_sleep(s, 2, 50 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	sched_advance(s, 150 * MS + 500000);
	drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_wakeup(s, 2, 150 * MS + 500000));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "the sleeper did not preempt: curr %d",
		     sched_cpu_curr(s, 0));
	free_sched();
}

/* ======================= group shares through the API ======================= */

/*
 * One CPU: calc_group_shares (§4.6) = shares * load / (tg.load_avg - contrib + load); with one
 * CPU tg.load_avg is this queue's own contribution, so the entity gets exactly its shares:
 * 1024 for weight 1024, 2048 for 2048, and the idle group WEIGHT_IDLEPRIO = 3.
 */
Test(sched_api, group_weight_one_cpu)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1, true, NULL, true);

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 0, 2048, false, 0));
	OK(sched_tg_new(s, 3, 0, 1024, true, 0));
	OK(sched_thread_new(s, 10, 1, 0, 0, 0));
	OK(sched_thread_new(s, 11, 2, 0, 0, 0));
	OK(sched_thread_new(s, 12, 3, 0, 0, 0));
	OK(sched_wakeup(s, 10, 0));
	OK(sched_wakeup(s, 11, 0));
	OK(sched_wakeup(s, 12, 0));
	sched_advance(s, 500 * MS);
	drain(s);
	cr_expect_eq(sched_group_weight(s, 1, 0), 1024, "weight 1024 group: %" PRIu64,
		     sched_group_weight(s, 1, 0));
	cr_expect_eq(sched_group_weight(s, 2, 0), 2048, "weight 2048 group: %" PRIu64,
		     sched_group_weight(s, 2, 0));
	cr_expect_eq(sched_group_weight(s, 3, 0), 3, "idle group: %" PRIu64,
		     sched_group_weight(s, 3, 0));
	free_sched();
}

/*
 * Two CPUs, a group of weight 1024 with two busy threads: new tasks go to the least loaded CPU
 * (find_idlest_cpu), one each. Once the load averages settle (PELT: ~1 s is 30 half-lives),
 * each queue's load is 1024 of a total 2048, so each entity gets 1024 * 1024 / 2048 = 512
 * (±1.5 % for the 1/64 publication threshold of update_tg_load_avg).
 */
static void group_weight_split(enum sched_policy pol)
{
	struct sched *s = new_sched(pol, 2, true, NULL, true);
	uint64_t w0, w1;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 0, 0));
	OK(sched_thread_new(s, 2, 1, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	sched_advance(s, 1000 * MS);
	drain(s);
	cr_expect_neq(sched_cpu_curr(s, 0), -1);
	cr_expect_neq(sched_cpu_curr(s, 1), -1);
	w0 = sched_group_weight(s, 1, 0);
	w1 = sched_group_weight(s, 1, 1);
	cr_expect(w0 >= 504 && w0 <= 520, "[%s] CPU 0 group weight %" PRIu64 ", want 512",
		  sched_policy_name(pol), w0);
	cr_expect(w1 >= 504 && w1 <= 520, "[%s] CPU 1 group weight %" PRIu64 ", want 512",
		  sched_policy_name(pol), w1);
	free_sched();
}

Test(sched_api, group_weight_split_eevdf) { group_weight_split(SCHED_POLICY_EEVDF); }
Test(sched_api, group_weight_split_cfs) { group_weight_split(SCHED_POLICY_CFS); }

/* ======================= random operations keep every invariant ======================= */

/*
 * 4 CPUs, a small tree of groups (one idle), 24 threads of random nice and slices; 4000
 * random operations (wakeup, sleep, sleep of a running thread, move between groups, nice,
 * affinity, time passing) at random times from a fixed-seed LCG. sched_check() must hold
 * after every one, and every call must succeed.
 */
static void random_ops(enum sched_policy pol, bool elision)
{
	struct sched *s = new_sched(pol, 4, elision, NULL, false);
	static const int tgs[] = { 0, 1, 2, 3, 4, 5 };
	uint64_t rng = 12345, now = 0;
	enum { NTHR = 24 };
	char when[96];

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 1, 2048, false, 0));
	OK(sched_tg_new(s, 3, 0, 512, false, 0));
	OK(sched_tg_new(s, 4, 2, 100, false, 0));
	OK(sched_tg_new(s, 5, 0, 1024, true, 0));
	for (int t = 1; t <= NTHR; t++) {
		int nice = (int)(stt_lcg(&rng) % 40) - 20;
		uint64_t slice = stt_lcg(&rng) % 3 == 0 ? 100000 + stt_lcg(&rng) % 3000000 : 0;

		OK(sched_thread_new(s, t, tgs[stt_lcg(&rng) % 6], nice, slice, 0));
	}
	check_ok(s, "setup");
	for (int step = 0; step < 4000; step++) {
		uint32_t op = stt_lcg(&rng) % 16;
		int tid = 1 + (int)(stt_lcg(&rng) % NTHR);

		now += stt_lcg(&rng) % (2 * MS);
		switch (op) {
		case 0: case 1: case 2: case 3: case 4:
			OK(sched_wakeup(s, tid, now));
			break;
		case 5: case 6:
			OK(sched_sleep(s, tid, now));
			break;
		case 7: case 8: {
			int c = (int)(stt_lcg(&rng) % 4), cur;

			sched_advance(s, now);
			drain(s);
			cur = sched_cpu_curr(s, c);
			if (cur > 0)
				OK(sched_sleep(s, cur, now));
			break;
		}
		case 9: case 10:
			OK(sched_thread_move(s, tid, tgs[stt_lcg(&rng) % 6], now));
			break;
		case 11:
			OK(sched_thread_set_nice(s, tid, (int)(stt_lcg(&rng) % 40) - 20, now));
			break;
		case 12: {
			uint64_t mask = 1 + stt_lcg(&rng) % 15;

			OK(sched_thread_set_affinity(s, tid, &mask, 1, now));
			break;
		}
		default:
			sched_advance(s, now);
			drain(s);
			break;
		}
		snprintf(when, sizeof(when), "step %d (op %u, tid %d, t %" PRIu64 ")", step, op,
			 tid, now);
		check_ok(s, when);
	}
	/* Leave: threads exit, groups go (children first). */
	for (int t = 1; t <= NTHR; t++) {
		now += 10000;
		OK(sched_thread_exit(s, t, now));
		check_ok(s, "exit");
	}
	for (int i = 5; i >= 1; i--)	/* 4 before its parent 2, 2 before its parent 1 */
		OK(sched_tg_free(s, i, now));
	for (int c = 0; c < 4; c++)
		cr_expect_eq(sched_cpu_curr(s, c), -1);
	check_ok(s, "end");
	free_sched();
}

Test(sched_api, random_ops_check_eevdf) { random_ops(SCHED_POLICY_EEVDF, true); }
Test(sched_api, random_ops_check_cfs) { random_ops(SCHED_POLICY_CFS, true); }
Test(sched_api, random_ops_check_eevdf_noelide) { random_ops(SCHED_POLICY_EEVDF, false); }
Test(sched_api, random_ops_check_cfs_noelide) { random_ops(SCHED_POLICY_CFS, false); }

/* ======================= EEVDF ties: entity_before() is strict ======================= */

/*
 * One CPU, EEVDF, zero costs, checked, HZ @hz, base slice @slice_ns, new tasks with a full
 * request (PLACE_DEADLINE_INITIAL off), PLACE_LAG and DELAY_DEQUEUE as given.
 */
static struct sched *eevdf_one_cpu(uint32_t hz, uint64_t slice_ns, bool place_lag, bool delay)
{
	struct sched_config cfg;
	struct sched *s;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 1);
	cfg.cost = zero_cost;
	cfg.check = true;
	cfg.tun.hz = hz;
	cfg.tun.base_slice_ns = slice_ns;
	cfg.feat[SCHED_FEAT_PLACE_LAG] = place_lag;
	cfg.feat[SCHED_FEAT_DELAY_DEQUEUE] = delay;
	cfg.feat[SCHED_FEAT_PLACE_DEADLINE_INITIAL] = false;
	s = sched_new(&cfg);
	cr_assert_not_null(s);
	stt_s = s;
	return s;
}

/*
 * One CPU, HZ 1000, base slice 0.7 ms, PLACE_LAG and PLACE_DEADLINE_INITIAL off so that a
 * wakee is placed at V with a full request: vruntime = V, deadline = V + 0.7 ms.
 * Thread 1 runs alone from 0; at every tick its vruntime (= elapsed time) has passed its
 * deadline, so update_deadline() renews it to v + 0.7 ms. Thread 2 wakes at exactly 5 ms:
 * thread 1's update_curr() gives it v1 = 5 ms, deadline 5.7 ms; thread 2 gets V = v1 = 5 ms and
 * deadline 5.7 ms. Both are eligible and thread 1's protection (its first deadline, 0.7 ms) is
 * long over, so __pick_eevdf() compares deadlines: entity_before(curr, best) is a strict
 * "earlier than", so on the tie the queued wakee is the pick and preempts at once.
 */
Test(sched_api, eevdf_deadline_tie_goes_to_the_wakee)
{
	struct sched *s = eevdf_one_cpu(1000, 700000, false, true);

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	sched_advance(s, 5 * MS);
	drain(s);
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
	OK(sched_wakeup(s, 2, 5 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "on a deadline tie curr %d kept the CPU",
		     sched_cpu_curr(s, 0));
	free_sched();
}

/* ======================= requeue_delayed_entity() without update_curr() ======================= */

/*
 * One CPU, HZ 250 (ticks every 4 ms), base slice 0.7 ms, PLACE_DEADLINE_INITIAL off, zero costs.
 * Thread 1 runs alone from 0: at the 4 ms tick v1 = 4, its deadline renews to 4.7. Thread 2 is
 * new at 4 ms: v2 = V = 4, deadline 4.7, a tie that the wakee wins. It runs 0.5 ms and sleeps:
 * V = (4 + 4.5) / 2 = 4.25 < v2, not eligible, so it stays queued (DELAY_DEQUEUE) and thread 1
 * runs from 4.5 ms, its vruntime last updated there (v1 = 4).
 * Thread 2 wakes at 7 ms, before any tick has picked it. requeue_delayed_entity() clips its lag
 * against V as of curr's last update: (4 + 4.5) / 2 = 4.25, lag -0.25, so it keeps v2 = 4.5 and
 * its deadline 4.7 (an update_curr() first would give V = (6.5 + 4.5) / 2 = 5.5, lag +1, and
 * DELAY_ZERO would re-place it at v2 = 6.5). Then the preemption check updates curr (v1 = 6.5):
 * thread 1 is not eligible (V = 5.5), thread 2 runs. At the 8 ms tick v2 = 5.5, V = 6: still
 * thread 2 (re-placed at 6.5 it would have lost to thread 1 there); at the 12 ms tick v2 = 9.5,
 * V = 8: thread 1.
 */

/*
 * Thread 1 (task group @tg1) runs alone from 0; thread 2 (@tg2, custom slice @slice2, 0 for the
 * default) is new at 4 ms, preempts, runs @run_ns and sleeps, and thread 1 runs again.
 */
static void second_runs_and_sleeps(struct sched *s, int tg1, int tg2, uint64_t slice2,
				   uint64_t run_ns)
{
	OK(sched_thread_new(s, 1, tg1, 0, 0, 0));
	OK(sched_thread_new(s, 2, tg2, 0, slice2, 0));
	OK(sched_wakeup(s, 1, 0));
	sched_advance(s, 4 * MS);
	drain(s);
	OK(sched_wakeup(s, 2, 4 * MS));
	cr_assert_eq(sched_cpu_curr(s, 0), 2, "thread 2 did not preempt at 4 ms");
	sched_advance(s, 4 * MS + run_ns);
	drain(s);
	OK(sched_sleep(s, 2, 4 * MS + run_ns));
	cr_assert_eq(sched_cpu_curr(s, 0), 1);
}

/*
 * The timeline of the two tests below: thread 1 (task group @tg1) busy from 0, thread 2 (@tg2)
 * new at 4 ms, asleep at 4.5 ms, awake at 7 ms; who runs at 7, 8.5 and 12.5 ms.
 */
static void delayed_requeue_timeline(int tg1, int tg2)
{
	struct sched *s = stt_s;

	second_runs_and_sleeps(s, tg1, tg2, 0, 500000);
	sched_advance(s, 7 * MS);
	drain(s);
	OK(sched_wakeup(s, 2, 7 * MS));
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 7 ms curr %d: not delayed?", sched_cpu_curr(s, 0));
	sched_advance(s, 8 * MS + 500000);
	drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 8.5 ms curr %d: lag taken against a fresh V?",
		     sched_cpu_curr(s, 0));
	sched_advance(s, 12 * MS + 500000);
	drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 1, "at 12.5 ms curr %d", sched_cpu_curr(s, 0));
	free_sched();
}

Test(sched_api, eevdf_requeue_uses_curr_as_last_updated)
{
	eevdf_one_cpu(250, 700000, true, true);
	delayed_requeue_timeline(0, 0);
}

/* ======================= a late wakeup and an idle CPU's exit ======================= */

/*
 * Zero costs, one CPU. Thread 1 is due at 1 ms and woken at 1.1 ms (a timer 100 us late) on
 * the idle CPU, which takes 30 us to leave its idle state: it runs from 1.13 ms, a latency of
 * 130 us from when it was due. Thread 2, due at 2 ms and woken at 2.1 ms with the same exit
 * time, finds the CPU busy with thread 1: no exit to pay. It is new, so placed with half a
 * request (PLACE_DEADLINE_INITIAL) at V: its deadline is earlier than thread 1's and both are
 * eligible, so it runs at once, 100 us after it was due.
 */
Test(sched_api, wakeup_timed_latency_and_idle_exit)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1, true, &zero_cost, true);
	struct lat_probe lp = { 0, 0, 0 };

	sched_set_latency_hook(s, lat_hook, &lp);
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	sched_advance(s, 1100000);
	drain(s);
	OK(sched_wakeup_timed(s, 1, 1100000, 1000000, 30000));
	sched_advance(s, 1200000);
	drain(s);
	cr_expect_eq(lp.n, 1);
	cr_expect_eq(lp.lat, 130000, "from idle: latency %" PRIu64 ", want 130000", lp.lat);
	sched_advance(s, 2100000);
	drain(s);
	OK(sched_wakeup_timed(s, 2, 2100000, 2000000, 30000));
	cr_assert_eq(sched_cpu_curr(s, 0), 2);
	cr_expect_eq(lp.n, 2);
	cr_expect_eq(lp.lat, 100000, "on a busy CPU: latency %" PRIu64 ", want 100000", lp.lat);
	free_sched();
}

/*
 * The wait hook: every switch-in reports the wait it ends, from when the thread became runnable
 * (perf sched latency's delay). The test above: thread 1 is woken at 1.1 ms on the idle CPU,
 * whose idle exit takes 30 us, so it waits from 1.1 to 1.13 ms; thread 2 is woken at 2.1 ms and
 * preempts at once (a wait of 0, from 2.1 to 2.1); thread 1, preempted at 2.1 ms while still
 * runnable, waits from then on, and its next switch-in reports a wait since 2.1 ms whose length
 * is the rest of its wait_ns.
 */
struct wait_probe {
	int n;
	int tid[64];
	uint64_t since[64], at[64];
};

static void wait_hook(void *ctx, int tid, uint64_t since, uint64_t at)
{
	struct wait_probe *p = ctx;

	if (p->n < 64) {
		p->tid[p->n] = tid;
		p->since[p->n] = since;
		p->at[p->n] = at;
	}
	p->n++;
}

Test(sched_api, wait_hook_from_wakeup_and_preemption)
{
	struct sched *s = new_sched(SCHED_POLICY_EEVDF, 1, true, &zero_cost, true);
	struct wait_probe wp = { 0 };
	struct sched_thread_stats st;
	uint64_t sum = 0;

	sched_set_wait_hook(s, wait_hook, &wp);
	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	sched_advance(s, 1100000);
	drain(s);
	OK(sched_wakeup_timed(s, 1, 1100000, 1000000, 30000));
	sched_advance(s, 1200000);
	drain(s);
	cr_assert_eq(wp.n, 1);
	cr_expect_eq(wp.tid[0], 1);
	cr_expect_eq(wp.since[0], 1100000);
	cr_expect_eq(wp.at[0], 1130000);
	sched_advance(s, 2100000);
	drain(s);
	OK(sched_wakeup_timed(s, 2, 2100000, 2000000, 30000));
	cr_assert_eq(wp.n, 2);
	cr_expect_eq(wp.tid[1], 2);
	cr_expect_eq(wp.since[1], 2100000);
	cr_expect_eq(wp.at[1], 2100000);
	sched_advance(s, 20000000);
	drain(s);
	cr_assert_geq(wp.n, 3);
	cr_expect_eq(wp.tid[2], 1);
	cr_expect_eq(wp.since[2], 2100000, "thread 1 waits from its preemption, not %" PRIu64,
		     wp.since[2]);
	OK(sched_thread_stats(s, 1, &st));
	cr_expect_gt(wp.at[2], wp.since[2]);
	/* both count a wait when a switch-in ends it, and nothing here ends one otherwise */
	cr_assert_leq(wp.n, 64);
	for (int i = 0; i < wp.n; i++)
		if (wp.tid[i] == 1)
			sum += wp.at[i] - wp.since[i];
	cr_expect_eq(sum, st.wait_ns, "waits reported %" PRIu64 ", wait_ns %" PRIu64, sum,
		     st.wait_ns);
	free_sched();
}

/* ======================= DELAY_DEQUEUE of a group entity ======================= */

/*
 * The test above one level up. One CPU, HZ 250, base slice 0.7 ms, PLACE_DEADLINE_INITIAL off,
 * zero costs; groups A and B of weight 1024, thread 1 busy in A, thread 2 in B.
 * Group A's entity runs alone from 0 (v_A = 4 and deadline 4.7 at the 4 ms tick). Thread 2 is new
 * at 4 ms: B's entity is placed at V = 4 with deadline 4.7, ties with A's and wins. Thread 2
 * sleeps at 4.5 ms: alone in B's queue it is eligible and leaves it, so B's queue is empty and
 * dequeue_entities() dequeues B's entity with DEQUEUE_SLEEP: V = (4 + 4.5) / 2 = 4.25 < v_B, not
 * eligible, so it stays queued, delayed. A's entity runs from 4.5 ms (v_A last updated: 4).
 * Thread 2 wakes at 7 ms: enqueue_task_fair() puts it in B's queue and stops at B's entity, on
 * the queue still: requeue_delayed_entity() against V as of A's last update, 4.25: lag -0.25,
 * v_B stays 4.5 with deadline 4.7. The preemption check updates A (v_A = 6.5, V = 5.5): A is
 * not eligible, thread 2 runs at once, and still at 8.5 ms (the 8 ms tick: v_B = 5.5, V = 6);
 * at the 12 ms tick v_B = 9.5, V = 8: thread 1.
 * Without the delay B's entity would come back at 7 ms with lag -0.25 behind v_A = 6.5 and lose
 * to A's deadline until the 8 ms tick; with the delay but a fresh V it would be placed at
 * lag 0 and lose to A at the 8 ms tick.
 */
Test(sched_api, eevdf_group_entity_delayed_dequeue)
{
	struct sched *s = eevdf_one_cpu(250, 700000, true, true);

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 0, 1024, false, 0));
	delayed_requeue_timeline(1, 2);
}

/* ======================= update_protect_slice() ======================= */

/*
 * One CPU, HZ 1000, base slice 3 ms, DELAY_DEQUEUE and PLACE_DEADLINE_INITIAL off, zero costs.
 * Thread 1 (slice 3 ms) runs alone from 0; its deadline renews to 6 at the 3 ms tick. Thread 2
 * (custom slice 0.1 ms) is new at 4 ms: v2 = V = 4, deadline 4.1, the pick without protection
 * (PREEMPT_SHORT), so it runs; at 4.2 ms it sleeps with lag V - v2 = 4.1 - 4.2 = -0.1 (leaving
 * the queue: no delayed dequeue). Thread 1 runs again, v1 = 4, protected to its deadline 6
 * (set_protect_slice: its own 3 ms is the shortest request queued), that is to 6.2 ms.
 * Thread 2 wakes at 4.3 ms: placed at V - 2 x (-0.1) = 4.1 + 0.2 = 4.3 (PLACE_LAG), deadline
 * 4.4; V = (4.1 + 4.3) / 2 = 4.2, so it is not eligible and cannot preempt. update_protect_slice()
 * still cuts thread 1's protection to v1 + 0.1 = 4.2. At the 5 ms tick v1 = 4.9: its request
 * (6) is not used up but its protection is over, so it is rescheduled; V = (4.9 + 4.3) / 2 = 4.6,
 * thread 2 is eligible with the earlier deadline and runs. Without the cut, thread 1 would stay
 * protected to the 7 ms tick.
 */
Test(sched_api, eevdf_short_wakee_limits_protection)
{
	struct sched *s = eevdf_one_cpu(1000, 3 * MS, true, false);

	second_runs_and_sleeps(s, 0, 0, 100000, 200000);
	sched_advance(s, 4 * MS + 300000);
	drain(s);
	OK(sched_wakeup(s, 2, 4 * MS + 300000));
	cr_assert_eq(sched_cpu_curr(s, 0), 1, "the wakee is not eligible: no preemption");
	sched_advance(s, 5 * MS + 500000);
	drain(s);
	cr_expect_eq(sched_cpu_curr(s, 0), 2, "at 5.5 ms curr %d: protection not cut",
		     sched_cpu_curr(s, 0));
	free_sched();
}

/*
 * wake_affine(): a thread woken by another thread on another CPU (sched_wakeup_by()) starts
 * from the waker's CPU when that CPU is the less loaded of the two once the wakee's load moves
 * (WA_WEIGHT: (load(this) + task) x 100 < (load(prev) - task) x (100 + (117 - 100) / 2)), and
 * select_idle_sibling() keeps it there when no CPU is idle. X last ran on CPU 1 behind two busy
 * threads (load about 2048); the waker runs alone on CPU 0 (about 1024): X goes to CPU 0. A
 * timer's wakeup, or the same wakeup without WA_WEIGHT, leaves it on CPU 1.
 */
static int affine_target(bool by_thread, bool wa_weight)
{
	struct sched_config cfg;
	struct sched_thread_stats st;
	struct sched *s;
	uint64_t cpu0 = 1, cpu1 = 2, both = 3, now = 0;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 2);
	cfg.feat[SCHED_FEAT_WA_WEIGHT] = wa_weight;
	s = sched_new(&cfg);
	cr_assert_not_null(s);
	stt_s = s;
	for (int tid = 1; tid <= 4; tid++) {
		OK(sched_thread_new(s, tid, 0, 0, 0, 0));
		OK(sched_thread_set_affinity(s, tid, tid == 1 ? &cpu0 : &cpu1, 1, 0));
		OK(sched_wakeup(s, tid, 0));
		drain(s);
	}
	/* X (4) runs its share on CPU 1, then sleeps and may go anywhere */
	while ((now = sched_next_tick_min(s)) < 200 * MS) {
		sched_advance(s, now);
		drain(s);
	}
	OK(sched_sleep(s, 4, now));
	OK(sched_thread_set_affinity(s, 4, &both, 1, now));
	drain(s);
	while ((now = sched_next_tick_min(s)) < 210 * MS) {
		sched_advance(s, now);
		drain(s);
	}
	OK(by_thread ? sched_wakeup_by(s, 4, 1, now, 0) : sched_wakeup(s, 4, now));
	drain(s);
	OK(sched_thread_stats(s, 4, &st));
	free_sched();
	return st.cpu;
}

Test(sched_api, wake_affine_moves_a_wakee_to_the_less_loaded_waker)
{
	cr_expect_eq(affine_target(true, true), 0, "woken by the thread on CPU 0: WA_WEIGHT");
	cr_expect_eq(affine_target(false, true), 1, "a timer's wakeup stays on its CPU");
	cr_expect_eq(affine_target(true, false), 1, "without WA_WEIGHT it stays too");
}
