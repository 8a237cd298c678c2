// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cpu controller files on v2 and of the task-group view (cg_thread_tg()).
 *
 * Expected values come from docs/cgroup-model.md ([core] cpu_cftypes and the
 * functions they call): cpu.weight <-> shares by DIV_ROUND_CLOSEST, cpu.weight.nice through
 * sched_prio_to_weight, cpu.max limits from tg_set_cfs_bandwidth, cpu.idle from
 * sched_group_set_idle.
 */
#include "tests/unit/cg_test_util.h"

#include <inttypes.h>
#include <limits.h>

TestSuite(cg_cpu, .fini = cgt_fini);

/* sched_prio_to_weight[40], nice -20 .. 19 (§4.1). */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

/* sched_weight_from_cgroup(): DIV_ROUND_CLOSEST(w * 1024, 100). */
static unsigned long shares_of_weight(unsigned long w)
{
	return (w * 1024 + 50) / 100;
}

/* sched_weight_to_cgroup(): clamp(DIV_ROUND_CLOSEST(s * 100, 1024), 1, 10000). */
static unsigned long weight_of_shares(unsigned long s)
{
	unsigned long w = (s * 100 + 512) / 1024;

	return w < 1 ? 1 : w > 10000 ? 10000 : w;
}

/* cpu_weight_nice_read_s64(): scan from nice -20 while the distance shrinks. */
static int nice_of_shares(unsigned long s)
{
	long last = LONG_MAX;
	int prio;

	for (prio = 0; prio < 40; prio++) {
		long d = labs((long)prio_to_weight[prio] - (long)s);

		if (d >= last)
			break;
		last = d;
	}
	return prio - 1 - 20;
}

static struct cg_cpu_params params_of(const struct cg_hier *h, const char *path)
{
	struct cg_cpu_params p;
	int rc = cg_tg_params(h, cgt_id(h, path), &p);

	cr_assert_eq(rc, 0, "cg_tg_params %s: %s", path, cgt_err(rc));
	return p;
}

/* The root enables cpu, and "A" exists with cpu files. */
static struct cg_hier *new_with_a(void)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	return h;
}

/* ---- where the files are ---- */

Test(cg_cpu, files_exist_only_where_parent_enables_cpu)
{
	static const char *const files[] = {
		"cpu.weight", "cpu.weight.nice", "cpu.max", "cpu.max.burst", "cpu.idle",
	};
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	char path[64];

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "A/%s", files[i]);
		assert_read_err(h, path, -ENOENT);
		assert_read_err(h, files[i], -ENOENT);
	}
	assert_write(h, "A/cpu.weight", "200", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		/* The root never has them (CFTYPE_NOT_ON_ROOT). */
		assert_read_err(h, files[i], -ENOENT);
		snprintf(path, sizeof(path), "A/%s", files[i]);
		char got[CGT_BUF];
		int rc = cgt_read_copy(h, path, got, sizeof(got));

		cr_assert_eq(rc, 0, "read %s: %s", path, cgt_err(rc));
		/* A/B's parent A does not enable cpu. */
		snprintf(path, sizeof(path), "A/B/%s", files[i]);
		assert_read_err(h, path, -ENOENT);
	}
	assert_write(h, "cpu.weight", "200", -ENOENT);
	assert_write(h, "cpu.max", "50000", -ENOENT);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/B/cpu.weight", "100\n");
	cgt_end(h);
}

Test(cg_cpu, files_exist_on_threaded_cgroup_whose_parent_enables_cpu)
{
	struct cg_hier *h = new_with_a();

	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_read_err(h, "A/T/cpu.weight", -ENOENT);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/T/cpu.weight", "100\n");
	assert_write(h, "A/T/cpu.weight", "300", 0);
	assert_read(h, "A/T/cpu.weight", "300\n");
	cgt_end(h);
}

/* ---- cpu.weight ---- */

Test(cg_cpu, weight_default_is_100)
{
	struct cg_hier *h = new_with_a();
	struct cg_cpu_params p;

	assert_read(h, "A/cpu.weight", "100\n");
	p = params_of(h, "A");
	cr_assert_eq(p.shares, 1024);
	cr_assert_not(p.idle);
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	cr_assert_eq(p.period_us, 100000);
	cr_assert_eq(p.burst_us, 0);
	cgt_end(h);
}

Test(cg_cpu, weight_out_of_range_is_erange)
{
	struct cg_hier *h = new_with_a();

	/* cpu_weight_write_u64: outside [CGROUP_WEIGHT_MIN, CGROUP_WEIGHT_MAX] -> -ERANGE. */
	assert_write(h, "A/cpu.weight", "0", -ERANGE);
	assert_write(h, "A/cpu.weight", "10001", -ERANGE);
	assert_write(h, "A/cpu.weight", "99999999999", -ERANGE);
	assert_read(h, "A/cpu.weight", "100\n");
	assert_write(h, "A/cpu.weight", "1", 0);
	assert_write(h, "A/cpu.weight", "10000", 0);
	assert_read(h, "A/cpu.weight", "10000\n");
	cgt_end(h);
}

Test(cg_cpu, weight_not_a_number_is_einval)
{
	struct cg_hier *h = new_with_a();

	/* cgroup_file_write for write_u64: kstrtoull fails -> -EINVAL. */
	assert_write(h, "A/cpu.weight", "-1", -EINVAL);
	assert_write(h, "A/cpu.weight", "abc", -EINVAL);
	assert_write(h, "A/cpu.weight", "1.5", -EINVAL);
	assert_read(h, "A/cpu.weight", "100\n");
	cgt_end(h);
}

Test(cg_cpu, weight_parses_as_kstrtoull_base_0)
{
	struct cg_hier *h = new_with_a();

	/* cgroup_file_write for write_u64 handlers: kstrtoull(buf, 0, &v), no strstrip: an
	 * optional '+', base prefixes 0x and 0, one trailing newline; no leading space. */
	assert_write(h, "A/cpu.weight", "+200", 0);
	assert_read(h, "A/cpu.weight", "200\n");
	assert_write(h, "A/cpu.weight", "0x10", 0);
	assert_read(h, "A/cpu.weight", "16\n");
	assert_write(h, "A/cpu.weight", "010", 0);
	assert_read(h, "A/cpu.weight", "8\n");
	assert_write(h, "A/cpu.weight", " 200", -EINVAL);
	assert_write(h, "A/cpu.weight", "200 ", -EINVAL);
	assert_write(h, "A/cpu.weight", "", -EINVAL);
	assert_read(h, "A/cpu.weight", "8\n");
	cgt_end(h);
}

Test(cg_cpu, weight_converts_to_shares_by_rounding)
{
	static const struct { const char *w; unsigned long shares; } cases[] = {
		{ "1", 10 }, { "50", 512 }, { "100", 1024 }, { "400", 4096 },
		{ "10000", 102400 },
	};
	struct cg_hier *h = new_with_a();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[32];

		assert_write(h, "A/cpu.weight", cases[i].w, 0);
		cr_assert_eq(params_of(h, "A").shares, cases[i].shares, "weight %s", cases[i].w);
		snprintf(want, sizeof(want), "%s\n", cases[i].w);
		assert_read(h, "A/cpu.weight", want);
	}
	cgt_end(h);
}

Test(cg_cpu, weight_round_trip_is_exact_over_whole_range)
{
	struct cg_hier *h = new_with_a();
	int a = cgt_id(h, "A");

	for (unsigned long w = 1; w <= 10000; w++) {
		char val[16], got[64];
		struct cg_cpu_params p;
		int rc;

		snprintf(val, sizeof(val), "%lu", w);
		rc = cg_write(h, "A/cpu.weight", val);
		cr_assert_eq(rc, 0, "write cpu.weight %lu: %s", w, cgt_err(rc));
		cr_assert_eq(cg_tg_params(h, a, &p), 0);
		cr_assert_eq(p.shares, shares_of_weight(w), "weight %lu: shares %lu, want %lu", w,
			     p.shares, shares_of_weight(w));
		rc = cgt_read_copy(h, "A/cpu.weight", got, sizeof(got));
		cr_assert_eq(rc, 0);
		snprintf(val, sizeof(val), "%lu\n", w);
		cr_assert_str_eq(got, val, "weight %lu read back as %s", w, got);
	}
	cgt_end(h);
}

/* ---- cpu.weight.nice ---- */

Test(cg_cpu, weight_nice_default_is_0)
{
	struct cg_hier *h = new_with_a();

	assert_read(h, "A/cpu.weight.nice", "0\n");
	cgt_end(h);
}

Test(cg_cpu, weight_nice_sets_table_weight_and_reads_back)
{
	struct cg_hier *h = new_with_a();
	int a = cgt_id(h, "A");

	for (int nice = -20; nice <= 19; nice++) {
		unsigned long s = prio_to_weight[nice + 20];
		char val[16], got[64];
		struct cg_cpu_params p;

		snprintf(val, sizeof(val), "%d", nice);
		assert_write(h, "A/cpu.weight.nice", val, 0);
		cr_assert_eq(cg_tg_params(h, a, &p), 0);
		/* cpu_weight_nice_write_s64: the weight is sched_prio_to_weight[nice + 20]. */
		cr_assert_eq(p.shares, s, "nice %d: shares %lu, want %lu", nice, p.shares, s);
		snprintf(val, sizeof(val), "%d\n", nice);
		assert_read(h, "A/cpu.weight.nice", val);
		cr_assert_eq(cgt_read_copy(h, "A/cpu.weight", got, sizeof(got)), 0);
		snprintf(val, sizeof(val), "%lu\n", weight_of_shares(s));
		cr_assert_str_eq(got, val, "nice %d: cpu.weight %s, want %s", nice, got, val);
	}
	/* Hand-computed: nice 19 -> 15 -> (1500 + 512) / 1024 = 1; nice -20 -> 88761 -> 8668. */
	assert_write(h, "A/cpu.weight.nice", "19", 0);
	assert_read(h, "A/cpu.weight", "1\n");
	assert_write(h, "A/cpu.weight.nice", "-20", 0);
	assert_read(h, "A/cpu.weight", "8668\n");
	assert_write(h, "A/cpu.weight.nice", "5", 0);
	assert_read(h, "A/cpu.weight", "33\n");
	cgt_end(h);
}

Test(cg_cpu, weight_nice_out_of_range_is_erange)
{
	struct cg_hier *h = new_with_a();

	/* cpu_weight_nice_write_s64: outside [MIN_NICE, MAX_NICE] -> -ERANGE. */
	assert_write(h, "A/cpu.weight.nice", "-21", -ERANGE);
	assert_write(h, "A/cpu.weight.nice", "20", -ERANGE);
	/* kstrtoll fails -> -EINVAL. */
	assert_write(h, "A/cpu.weight.nice", "abc", -EINVAL);
	assert_read(h, "A/cpu.weight.nice", "0\n");
	cr_assert_eq(params_of(h, "A").shares, 1024);
	cgt_end(h);
}

Test(cg_cpu, weight_nice_reads_closest_table_entry_of_any_weight)
{
	static const struct { const char *w; const char *nice; } cases[] = {
		/* 10 is below every entry: the scan never stops, nice 19. */
		{ "1", "19\n" },
		/* 102400: 88761 is closest. */
		{ "10000", "-20\n" },
		/* 512: 526 (nice 3) is 14 away, 423 is 89 away. */
		{ "50", "3\n" },
		/* 2048: 1991 (nice -3) is 57 away. */
		{ "200", "-3\n" },
		/* 922: 1024 and 820 both 102 away; the scan stops on ">=", keeping nice 0. */
		{ "90", "0\n" },
	};
	struct cg_hier *h = new_with_a();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_write(h, "A/cpu.weight", cases[i].w, 0);
		assert_read(h, "A/cpu.weight.nice", cases[i].nice);
	}
	/* And over the whole range, against the kernel's scan. */
	for (unsigned long w = 1; w <= 10000; w += 7) {
		char val[16], got[32];

		snprintf(val, sizeof(val), "%lu", w);
		cr_assert_eq(cg_write(h, "A/cpu.weight", val), 0);
		cr_assert_eq(cgt_read_copy(h, "A/cpu.weight.nice", got, sizeof(got)), 0);
		snprintf(val, sizeof(val), "%d\n", nice_of_shares(shares_of_weight(w)));
		cr_assert_str_eq(got, val, "weight %lu: nice %s, want %s", w, got, val);
	}
	cgt_end(h);
}

/* ---- cpu.max and cpu.max.burst (cpu_max_write, tg_set_cfs_bandwidth) ---- */

Test(cg_cpu, max_default_is_max_100000)
{
	struct cg_hier *h = new_with_a();

	assert_read(h, "A/cpu.max", "max 100000\n");
	assert_read(h, "A/cpu.max.burst", "0\n");
	cgt_end(h);
}

Test(cg_cpu, max_quota_and_period)
{
	struct cg_hier *h = new_with_a();
	struct cg_cpu_params p;

	assert_write(h, "A/cpu.max", "50000 100000", 0);
	assert_read(h, "A/cpu.max", "50000 100000\n");
	p = params_of(h, "A");
	cr_assert_eq(p.quota_us, 50000);
	cr_assert_eq(p.period_us, 100000);
	assert_write(h, "A/cpu.max", "50000 200000", 0);
	/* cpu_period_quota_parse: one number sets the quota and keeps the period. */
	assert_write(h, "A/cpu.max", "20000", 0);
	assert_read(h, "A/cpu.max", "20000 200000\n");
	/* "max" alone: unlimited, period kept. */
	assert_write(h, "A/cpu.max", "max", 0);
	assert_read(h, "A/cpu.max", "max 200000\n");
	p = params_of(h, "A");
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	cr_assert_eq(p.period_us, 200000);
	assert_write(h, "A/cpu.max", "max 50000", 0);
	assert_read(h, "A/cpu.max", "max 50000\n");
	/* The bounds themselves are accepted. */
	assert_write(h, "A/cpu.max", "1000 1000", 0);
	assert_read(h, "A/cpu.max", "1000 1000\n");
	assert_write(h, "A/cpu.max", "max 1000000", 0);
	assert_read(h, "A/cpu.max", "max 1000000\n");
	cgt_end(h);
}

Test(cg_cpu, max_below_one_millisecond_is_einval)
{
	struct cg_hier *h = new_with_a();

	assert_write(h, "A/cpu.max", "50000 100000", 0);
	/* tg_set_cfs_bandwidth: quota < min_cfs_quota_period or period < it (1 ms) -> -EINVAL. */
	assert_write(h, "A/cpu.max", "999", -EINVAL);
	assert_write(h, "A/cpu.max", "999 100000", -EINVAL);
	assert_write(h, "A/cpu.max", "50000 999", -EINVAL);
	assert_write(h, "A/cpu.max", "max 999", -EINVAL);
	assert_write(h, "A/cpu.max", "0", -EINVAL);
	assert_read(h, "A/cpu.max", "50000 100000\n");
	cgt_end(h);
}

Test(cg_cpu, max_period_above_one_second_is_einval)
{
	struct cg_hier *h = new_with_a();

	/* tg_set_cfs_bandwidth: period > max_cfs_quota_period (1 s) -> -EINVAL. */
	assert_write(h, "A/cpu.max", "max 1000001", -EINVAL);
	assert_write(h, "A/cpu.max", "50000 1000001", -EINVAL);
	assert_read(h, "A/cpu.max", "max 100000\n");
	cgt_end(h);
}

Test(cg_cpu, max_garbage_is_einval)
{
	struct cg_hier *h = new_with_a();

	/* cpu_period_quota_parse: the first token is neither "max" nor a number -> -EINVAL. */
	assert_write(h, "A/cpu.max", "abc", -EINVAL);
	assert_write(h, "A/cpu.max", "abc 100000", -EINVAL);
	assert_write(h, "A/cpu.max", "unlimited", -EINVAL);
	assert_read(h, "A/cpu.max", "max 100000\n");
	cgt_end(h);
}

Test(cg_cpu, max_quota_above_max_cfs_runtime_is_einval)
{
	struct cg_hier *h = new_with_a();
	char val[48], want[64];
	uint64_t max_bw = (UINT64_C(1) << 44) - 1;	/* MAX_BW in us: 2^(64 - BW_SHIFT) - 1 */

	/* tg_set_cfs_bandwidth: quota > max_cfs_runtime -> -EINVAL. */
	snprintf(val, sizeof(val), "%" PRIu64 " 1000000", max_bw + 1);
	assert_write(h, "A/cpu.max", val, -EINVAL);
	snprintf(val, sizeof(val), "%" PRIu64 " 1000000", max_bw);
	assert_write(h, "A/cpu.max", val, 0);
	snprintf(want, sizeof(want), "%s\n", val);
	assert_read(h, "A/cpu.max", want);
	cgt_end(h);
}

Test(cg_cpu, max_burst_above_quota_is_einval)
{
	struct cg_hier *h = new_with_a();

	assert_write(h, "A/cpu.max", "50000 100000", 0);
	/* tg_set_cfs_bandwidth: quota set and burst > quota -> -EINVAL. */
	assert_write(h, "A/cpu.max.burst", "50001", -EINVAL);
	assert_write(h, "A/cpu.max.burst", "50000", 0);
	assert_read(h, "A/cpu.max.burst", "50000\n");
	cr_assert_eq(params_of(h, "A").burst_us, 50000);
	/* Lowering the quota below the burst fails the same check. */
	assert_write(h, "A/cpu.max", "40000", -EINVAL);
	assert_read(h, "A/cpu.max", "50000 100000\n");
	/* write_u64: kstrtoull fails -> -EINVAL. */
	assert_write(h, "A/cpu.max.burst", "-1", -EINVAL);
	assert_read(h, "A/cpu.max.burst", "50000\n");
	cgt_end(h);
}

Test(cg_cpu, max_burst_unchecked_while_quota_is_max)
{
	struct cg_hier *h = new_with_a();

	/* With quota RUNTIME_INF the burst checks are skipped. */
	assert_write(h, "A/cpu.max.burst", "1000000", 0);
	assert_read(h, "A/cpu.max.burst", "1000000\n");
	assert_read(h, "A/cpu.max", "max 100000\n");
	/* ...until a quota is set: burst 1000000 > quota 50000 -> -EINVAL. */
	assert_write(h, "A/cpu.max", "50000", -EINVAL);
	assert_write(h, "A/cpu.max", "1000000", 0);
	assert_read(h, "A/cpu.max", "1000000 100000\n");
	cgt_end(h);
}

Test(cg_cpu, max_child_above_parent_is_accepted_on_v2)
{
	struct cg_hier *h = new_with_a();

	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpu.max", "50000 100000", 0);
	/* tg_cfs_schedulable_down on the default hierarchy takes min(child, parent): no error. */
	assert_write(h, "A/B/cpu.max", "60000 100000", 0);
	assert_write(h, "A/cpu.max", "40000", 0);
	assert_read(h, "A/cpu.max", "40000 100000\n");
	assert_read(h, "A/B/cpu.max", "60000 100000\n");
	cgt_end(h);
}

/* ---- cpu.idle (sched_group_set_idle) ---- */

Test(cg_cpu, idle_accepts_only_0_and_1)
{
	struct cg_hier *h = new_with_a();

	assert_read(h, "A/cpu.idle", "0\n");
	assert_write(h, "A/cpu.idle", "2", -EINVAL);
	assert_write(h, "A/cpu.idle", "-1", -EINVAL);
	assert_write(h, "A/cpu.idle", "abc", -EINVAL);
	assert_read(h, "A/cpu.idle", "0\n");
	assert_write(h, "A/cpu.idle", "0", 0);
	assert_write(h, "A/cpu.idle", "1", 0);
	assert_read(h, "A/cpu.idle", "1\n");
	assert_write(h, "A/cpu.idle", "1", 0);
	cgt_end(h);
}

Test(cg_cpu, idle_forces_weight_idleprio)
{
	struct cg_hier *h = new_with_a();
	struct cg_cpu_params p;

	assert_write(h, "A/cpu.weight", "400", 0);
	assert_write(h, "A/cpu.idle", "1", 0);
	p = params_of(h, "A");
	/* WEIGHT_IDLEPRIO = 3. */
	cr_assert(p.idle);
	cr_assert_eq(p.shares, 3);
	/* clamp(DIV_ROUND_CLOSEST(300, 1024), 1, 10000) = 1; the closest nice to 3 is 19. */
	assert_read(h, "A/cpu.weight", "1\n");
	assert_read(h, "A/cpu.weight.nice", "19\n");
	cgt_end(h);
}

Test(cg_cpu, weight_write_while_idle_is_einval)
{
	struct cg_hier *h = new_with_a();

	assert_write(h, "A/cpu.idle", "1", 0);
	/* sched_group_set_shares: tg_is_idle -> -EINVAL. */
	assert_write(h, "A/cpu.weight", "200", -EINVAL);
	assert_write(h, "A/cpu.weight", "100", -EINVAL);
	assert_write(h, "A/cpu.weight.nice", "0", -EINVAL);
	/* The range checks of the write handlers come first. */
	assert_write(h, "A/cpu.weight", "0", -ERANGE);
	assert_write(h, "A/cpu.weight", "10001", -ERANGE);
	assert_write(h, "A/cpu.weight.nice", "20", -ERANGE);
	cr_assert_eq(params_of(h, "A").shares, 3);
	/* Bandwidth is not a weight: still writable. */
	assert_write(h, "A/cpu.max", "50000", 0);
	cgt_end(h);
}

Test(cg_cpu, idle_off_restores_nice_0_not_old_weight)
{
	struct cg_hier *h = new_with_a();
	struct cg_cpu_params p;

	assert_write(h, "A/cpu.weight", "400", 0);
	assert_write(h, "A/cpu.idle", "1", 0);
	assert_write(h, "A/cpu.idle", "0", 0);
	/* sched_group_set_idle(0): __sched_group_set_shares(tg, NICE_0_LOAD) ([live] on v1). */
	p = params_of(h, "A");
	cr_assert_not(p.idle);
	cr_assert_eq(p.shares, 1024);
	assert_read(h, "A/cpu.weight", "100\n");
	assert_read(h, "A/cpu.idle", "0\n");
	assert_write(h, "A/cpu.weight", "200", 0);
	assert_read(h, "A/cpu.weight", "200\n");
	cgt_end(h);
}

/* ---- enabling and disabling the controller ---- */

Test(cg_cpu, reenabling_cpu_gives_default_settings)
{
	struct cg_hier *h = new_with_a();
	struct cg_cpu_params p;

	assert_write(h, "A/cpu.weight", "400", 0);
	assert_write(h, "A/cpu.max", "50000 200000", 0);
	assert_write(h, "A/cpu.max.burst", "1000", 0);
	assert_write(h, "A/cpu.idle", "1", 0);
	assert_write(h, "cgroup.subtree_control", "-cpu", 0);
	/* The css is gone, and with it the files. */
	assert_read_err(h, "A/cpu.weight", -ENOENT);
	cr_assert_not(cg_is_tg(h, cgt_id(h, "A")));
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	/* A new css with the defaults. */
	assert_read(h, "A/cpu.weight", "100\n");
	assert_read(h, "A/cpu.weight.nice", "0\n");
	assert_read(h, "A/cpu.max", "max 100000\n");
	assert_read(h, "A/cpu.max.burst", "0\n");
	assert_read(h, "A/cpu.idle", "0\n");
	p = params_of(h, "A");
	cr_assert_eq(p.shares, 1024);
	cr_assert_not(p.idle);
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	cr_assert_eq(p.period_us, 100000);
	cr_assert_eq(p.burst_us, 0);
	cgt_end(h);
}

Test(cg_cpu, disabling_cpu_while_child_enables_it_is_ebusy)
{
	struct cg_hier *h = new_with_a();

	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "cgroup.subtree_control", "-cpu", -EBUSY);
	assert_read(h, "A/cpu.weight", "100\n");
	cgt_end(h);
}

/* ---- task groups (cg_thread_tg, cg_is_tg, cg_tg_parent, cg_tg_params) ---- */

Test(cg_cpu, thread_tg_is_root_when_cpu_is_enabled_nowhere)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct cg_cpu_params p;

	assert_proc(h, "P", 1, 1);
	assert_proc(h, "Q", 1, 2);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.procs", "Q", 0);
	cr_assert_eq(cg_thread_tg(h, 1), 0);
	cr_assert_eq(cg_thread_tg(h, 2), 0);
	cr_assert(cg_is_tg(h, 0));
	cr_assert_not(cg_is_tg(h, cgt_id(h, "A")));
	cr_assert_not(cg_is_tg(h, cgt_id(h, "A/B")));
	cr_assert_eq(cg_tg_parent(h, 0), -1);
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), -ENOENT);
	/* The root task group: ROOT_TASK_GROUP_LOAD (NICE_0_LOAD), no bandwidth limit. */
	cr_assert_eq(cg_tg_params(h, 0, &p), 0);
	cr_assert_eq(p.shares, 1024);
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	cgt_end(h);
}

Test(cg_cpu, thread_tg_is_nearest_ancestor_with_cpu_css)
{
	struct cg_hier *h = new_with_a();
	int a;

	assert_proc(h, "P", 1, 1);
	assert_proc(h, "Q", 1, 2);
	assert_proc(h, "R", 1, 3);
	assert_mkdir(h, "A/B", 0);
	a = cgt_id(h, "A");
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/B/cgroup.procs", "Q", 0);
	/* Root threads are in the root task group. */
	cr_assert_eq(cg_thread_tg(h, 3), 0);
	cr_assert_eq(cg_thread_tg(h, 1), a);
	/* A does not enable cpu: B has no cpu css, Q belongs to A. */
	cr_assert_not(cg_is_tg(h, cgt_id(h, "A/B")));
	cr_assert_eq(cg_thread_tg(h, 2), a);
	cr_assert(cg_is_tg(h, a));
	cr_assert_eq(cg_tg_parent(h, a), 0);
	cgt_end(h);
}

Test(cg_cpu, thread_tg_in_threaded_grandchild)
{
	struct cg_hier *h = new_with_a();
	int a, t, u;

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A/T", 0);
	assert_mkdir(h, "A/T/U", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/T/U/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/U/cgroup.threads", "P.2", 0);
	a = cgt_id(h, "A");
	t = cgt_id(h, "A/T");
	u = cgt_id(h, "A/T/U");
	/* T has a cpu css (its parent A enables cpu), U not (T does not). */
	cr_assert(cg_is_tg(h, t));
	cr_assert_not(cg_is_tg(h, u));
	cr_assert_eq(cg_thread_tg(h, 1), a);
	cr_assert_eq(cg_thread_tg(h, 2), t);
	cr_assert_eq(cg_tg_parent(h, t), a);
	/* Now the grandchild's parent T enables cpu too. */
	assert_write(h, "A/T/cgroup.subtree_control", "+cpu", 0);
	cr_assert(cg_is_tg(h, u));
	cr_assert_eq(cg_thread_tg(h, 2), u);
	cr_assert_eq(cg_tg_parent(h, u), t);
	assert_read(h, "A/T/U/cpu.weight", "100\n");
	cgt_end(h);
}

Test(cg_cpu, tg_parent_is_the_parent_cgroup_along_a_cpu_chain)
{
	struct cg_hier *h = new_with_a();
	int a;

	/* On v2 the cgroups with a cpu css form a chain without gaps (top-down constraint). */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A/B/C", 0);
	a = cgt_id(h, "A");
	cr_assert_eq(cg_tg_parent(h, cgt_id(h, "A/B/C")), cgt_id(h, "A/B"));
	cr_assert_eq(cg_tg_parent(h, cgt_id(h, "A/B")), a);
	cgt_end(h);
}

/* ---- cpu.stat (cgroup core: present on every cgroup) ---- */

static void stat_provider(void *ctx, int cgroup, struct cg_cpu_stat *out)
{
	(void)ctx;
	out->usage_usec = 1000 + (uint64_t)cgroup;
}

Test(cg_cpu, stat_exists_without_the_controller)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	char got[CGT_BUF];
	char want[64];

	assert_mkdir(h, "A", 0);
	cr_assert_eq(cgt_read_copy(h, "A/cpu.stat", got, sizeof(got)), 0);
	cr_assert(strncmp(got, "usage_usec 0\n", 13) == 0, "A/cpu.stat: \"%s\"", got);
	cr_assert_eq(cgt_read_copy(h, "cpu.stat", got, sizeof(got)), 0);
	cr_assert(strncmp(got, "usage_usec 0\n", 13) == 0, "cpu.stat: \"%s\"", got);
	cg_set_stat_provider(h, stat_provider, NULL);
	cr_assert_eq(cgt_read_copy(h, "A/cpu.stat", got, sizeof(got)), 0);
	snprintf(want, sizeof(want), "usage_usec %d\n", 1000 + cgt_id(h, "A"));
	cr_assert(strncmp(got, want, strlen(want)) == 0, "A/cpu.stat: \"%s\"", got);
	cgt_end(h);
}
