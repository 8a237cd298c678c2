// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cgroup model, rule set v1 (the cgroup v1 cpu hierarchy).
 *
 * No thread mode and no no-internal-process rule: `tasks` places one thread anywhere,
 * `cgroup.procs` a whole process. The cpu files are the legacy ones (cpu_legacy_files in
 * kernel/sched/core.c); expected values come from docs/cgroup-model.md ([live] 6.18).
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cg_v1, .fini = cgt_fini);

/* ---- placement ---- */

Test(cg_v1, tasks_moves_one_thread_anywhere)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_proc(h, "P", 3, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "C", 0);
	assert_write(h, "A/B/tasks", "P.3", 0);
	/* An inner cgroup may hold threads while its child does: no internal-process rule. */
	assert_write(h, "A/tasks", "P.2", 0);
	assert_thread_in(h, "P.1", "");
	assert_thread_in(h, "P.2", "A");
	assert_thread_in(h, "P.3", "A/B");
	/* tasks lists the threads of that cgroup only. */
	assert_read(h, "tasks", "P.1\n");
	assert_read(h, "A/tasks", "P.2\n");
	assert_read(h, "A/B/tasks", "P.3\n");
	assert_read(h, "C/tasks", "");
	/* cgroup.procs lists every process with a thread there (the pidlist of tgids). */
	assert_read(h, "cgroup.procs", "P\n");
	assert_read(h, "A/cgroup.procs", "P\n");
	assert_read(h, "A/B/cgroup.procs", "P\n");
	assert_read(h, "C/cgroup.procs", "");
	/* A numeric tid works too. */
	assert_write(h, "C/tasks", "1", 0);
	assert_thread_in(h, "P.1", "C");
	assert_read(h, "cgroup.procs", "");
	cgt_end(h);
}

Test(cg_v1, procs_moves_whole_process)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_proc(h, "P", 3, 1);
	assert_proc(h, "Q", 1, 4);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/tasks", "P.2", 0);
	/* A thread's name (or tid) in cgroup.procs moves its whole thread group. */
	assert_write(h, "A/cgroup.procs", "P.3", 0);
	assert_read(h, "A/tasks", "P.1\nP.2\nP.3\n");
	assert_read(h, "A/B/tasks", "");
	assert_write(h, "A/B/cgroup.procs", "4", 0);
	assert_read(h, "A/B/cgroup.procs", "Q\n");
	assert_read(h, "cgroup.procs", "");
	cgt_end(h);
}

Test(cg_v1, tasks_bad_value_is_einval_and_unused_tid_is_esrch)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	/* cgroup_procs_write_start is shared with v2. */
	assert_write(h, "A/tasks", "1abc", -EINVAL);
	assert_write(h, "A/tasks", "-1", -EINVAL);
	assert_write(h, "A/tasks", "7", -ESRCH);
	assert_write(h, "A/cgroup.procs", "7", -ESRCH);
	assert_read(h, "A/tasks", "");
	cgt_end(h);
}

Test(cg_v1, rmdir_populated_or_with_child_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/tasks", "P.2", 0);
	/* cgroup_destroy_locked is common to both versions. */
	assert_rmdir(h, "A/B", -EBUSY);
	assert_rmdir(h, "A", -EBUSY);
	assert_write(h, "tasks", "P.2", 0);
	assert_rmdir(h, "A", -EBUSY);
	assert_rmdir(h, "A/B", 0);
	assert_rmdir(h, "A", 0);
	cgt_end(h);
}

/* ---- files v1 lacks, and the root controllers ---- */

Test(cg_v1, files_of_v2_core_do_not_exist)
{
	static const char *const files[] = {
		"cgroup.type", "cgroup.subtree_control", "cgroup.controllers", "cgroup.threads",
		"cgroup.events", "cgroup.max.depth", "cgroup.max.descendants", "cgroup.kill",
		"cpu.weight", "cpu.weight.nice", "cpu.max", "cpu.max.burst",
	};
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	char path[64];

	assert_mkdir(h, "A", 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "A/%s", files[i]);
		assert_read_err(h, path, -ENOENT);
		assert_read_err(h, files[i], -ENOENT);
	}
	assert_write(h, "A/cgroup.type", "threaded", -ENOENT);
	assert_write(h, "A/cgroup.threads", "1", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+cpu", -ENOENT);
	assert_write(h, "A/cgroup.kill", "1", -ENOENT);
	assert_write(h, "A/cpu.weight", "100", -ENOENT);
	cgt_end(h);
}

Test(cg_v1, root_controllers_accept_only_cpu)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	/* Model API: on v1 anything but cpu -> -EINVAL. */
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_MEMORY)), -EINVAL);
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_CPU) | CG_MASK(CG_CTRL_PIDS)),
		     -EINVAL);
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_CPU)), 0);
	assert_mkdir(h, "A", 0);
	assert_read(h, "A/cpu.shares", "1024\n");
	cgt_end(h);
}

/* ---- task groups ---- */

Test(cg_v1, every_cgroup_is_a_task_group)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	int a, b;

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "Q", 1, 3);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	a = cgt_id(h, "A");
	b = cgt_id(h, "A/B");
	cr_assert(cg_is_tg(h, 0));
	cr_assert(cg_is_tg(h, a));
	cr_assert(cg_is_tg(h, b));
	cr_assert_eq(cg_tg_parent(h, b), a);
	cr_assert_eq(cg_tg_parent(h, a), 0);
	cr_assert_eq(cg_tg_parent(h, 0), -1);
	assert_write(h, "A/tasks", "P.1", 0);
	assert_write(h, "A/B/tasks", "P.2", 0);
	/* A thread's task group is its cgroup. */
	cr_assert_eq(cg_thread_tg(h, 1), a);
	cr_assert_eq(cg_thread_tg(h, 2), b);
	cr_assert_eq(cg_thread_tg(h, 3), 0);
	cgt_end(h);
}

/* ---- cpu.shares (cpu_shares_write_u64 -> __sched_group_set_shares) ---- */

Test(cg_v1, shares_default_is_1024)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct cg_cpu_params p;

	assert_mkdir(h, "A", 0);
	assert_read(h, "A/cpu.shares", "1024\n");
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
	cr_assert_eq(p.shares, 1024);
	cgt_end(h);
}

Test(cg_v1, shares_are_clamped_to_2_and_262144)
{
	static const struct { const char *in; const char *out; unsigned long shares; } cases[] = {
		{ "0", "2\n", 2 }, { "1", "2\n", 2 }, { "3", "3\n", 3 }, { "2048", "2048\n", 2048 },
		{ "262144", "262144\n", 262144 }, { "262145", "262144\n", 262144 },
		{ "99999999999", "262144\n", 262144 },
	};
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct cg_cpu_params p;

	assert_mkdir(h, "A", 0);
	/* [live]: MIN_SHARES 2, MAX_SHARES 2^18, silently. */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_write(h, "A/cpu.shares", cases[i].in, 0);
		assert_read(h, "A/cpu.shares", cases[i].out);
		cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
		cr_assert_eq(p.shares, cases[i].shares, "cpu.shares %s", cases[i].in);
	}
	cgt_end(h);
}

Test(cg_v1, shares_not_a_number_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	/* write_u64: kstrtoull fails ([live] -1 and abc -> EINVAL). */
	assert_write(h, "A/cpu.shares", "-1", -EINVAL);
	assert_write(h, "A/cpu.shares", "abc", -EINVAL);
	assert_read(h, "A/cpu.shares", "1024\n");
	cgt_end(h);
}

Test(cg_v1, shares_of_root_read_1024_and_cannot_be_written)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	/* sched_group_set_shares: the root task group has no entities -> -EINVAL ([live]). */
	assert_read(h, "cpu.shares", "1024\n");
	assert_write(h, "cpu.shares", "2048", -EINVAL);
	assert_read(h, "cpu.shares", "1024\n");
	cgt_end(h);
}

/* ---- bandwidth (tg_set_cfs_quota / tg_set_cfs_period -> tg_set_cfs_bandwidth) ---- */

Test(cg_v1, quota_default_is_unlimited)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct cg_cpu_params p;

	assert_mkdir(h, "A", 0);
	assert_read(h, "A/cpu.cfs_quota_us", "-1\n");
	assert_read(h, "A/cpu.cfs_period_us", "100000\n");
	assert_read(h, "A/cpu.cfs_burst_us", "0\n");
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	cr_assert_eq(p.period_us, 100000);
	cr_assert_eq(p.burst_us, 0);
	cgt_end(h);
}

Test(cg_v1, quota_limits)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct cg_cpu_params p;

	assert_mkdir(h, "A", 0);
	/* quota < 1 ms -> -EINVAL ([live] 0 and 999). */
	assert_write(h, "A/cpu.cfs_quota_us", "0", -EINVAL);
	assert_write(h, "A/cpu.cfs_quota_us", "999", -EINVAL);
	assert_write(h, "A/cpu.cfs_quota_us", "abc", -EINVAL);
	assert_read(h, "A/cpu.cfs_quota_us", "-1\n");
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	assert_read(h, "A/cpu.cfs_quota_us", "50000\n");
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
	cr_assert_eq(p.quota_us, 50000);
	/* tg_set_cfs_quota: any negative value means RUNTIME_INF. */
	assert_write(h, "A/cpu.cfs_quota_us", "-5", 0);
	assert_read(h, "A/cpu.cfs_quota_us", "-1\n");
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
	cr_assert_eq(p.quota_us, CG_QUOTA_MAX);
	assert_write(h, "A/cpu.cfs_quota_us", "1000", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "-1", 0);
	assert_read(h, "A/cpu.cfs_quota_us", "-1\n");
	cgt_end(h);
}

Test(cg_v1, quota_and_period_of_root_cannot_be_written)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	/* tg_set_cfs_bandwidth: tg == &root_task_group -> -EINVAL. */
	assert_read(h, "cpu.cfs_quota_us", "-1\n");
	assert_write(h, "cpu.cfs_quota_us", "50000", -EINVAL);
	assert_write(h, "cpu.cfs_quota_us", "-1", -EINVAL);
	assert_write(h, "cpu.cfs_period_us", "200000", -EINVAL);
	assert_read(h, "cpu.cfs_quota_us", "-1\n");
	cgt_end(h);
}

Test(cg_v1, period_limits)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	/* tg_set_cfs_bandwidth: period in [1 ms, 1 s] else -EINVAL ([live]). */
	assert_write(h, "A/cpu.cfs_period_us", "999", -EINVAL);
	assert_write(h, "A/cpu.cfs_period_us", "1000001", -EINVAL);
	assert_write(h, "A/cpu.cfs_period_us", "0", -EINVAL);
	assert_read(h, "A/cpu.cfs_period_us", "100000\n");
	assert_write(h, "A/cpu.cfs_period_us", "1000", 0);
	assert_read(h, "A/cpu.cfs_period_us", "1000\n");
	assert_write(h, "A/cpu.cfs_period_us", "1000000", 0);
	assert_read(h, "A/cpu.cfs_period_us", "1000000\n");
	cgt_end(h);
}

Test(cg_v1, child_quota_ratio_above_parent_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	/* tg_cfs_schedulable_down (v1): to_ratio(100000, 60000) > to_ratio(100000, 50000). */
	assert_write(h, "A/B/cpu.cfs_quota_us", "60000", -EINVAL);
	assert_read(h, "A/B/cpu.cfs_quota_us", "-1\n");
	assert_write(h, "A/B/cpu.cfs_quota_us", "50000", 0);
	/* Shortening the child's period raises its ratio to 1.0. */
	assert_write(h, "A/B/cpu.cfs_period_us", "50000", -EINVAL);
	assert_read(h, "A/B/cpu.cfs_period_us", "100000\n");
	cgt_end(h);
}

Test(cg_v1, child_quota_compares_ratios_not_microseconds)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	/* B: 100000 per 200000 is the same ratio 0.5: accepted although 100000 > 50000. */
	assert_write(h, "A/B/cpu.cfs_period_us", "200000", 0);
	assert_write(h, "A/B/cpu.cfs_quota_us", "100000", 0);
	assert_read(h, "A/B/cpu.cfs_quota_us", "100000\n");
	cgt_end(h);
}

Test(cg_v1, parent_quota_below_child_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cpu.cfs_quota_us", "60000", 0);
	/* Walking down from A: B's ratio 0.6 > A's new 0.5 -> -EINVAL ([live]). */
	assert_write(h, "A/cpu.cfs_quota_us", "50000", -EINVAL);
	assert_read(h, "A/cpu.cfs_quota_us", "-1\n");
	assert_write(h, "A/cpu.cfs_quota_us", "60000", 0);
	/* Doubling A's period halves its ratio below B's. */
	assert_write(h, "A/cpu.cfs_period_us", "200000", -EINVAL);
	assert_read(h, "A/cpu.cfs_period_us", "100000\n");
	/* Once B is unlimited, A may go lower. */
	assert_write(h, "A/B/cpu.cfs_quota_us", "-1", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "40000", 0);
	cgt_end(h);
}

Test(cg_v1, unlimited_child_inherits_parent_ratio_for_grandchild)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/B/C", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	/* tg_cfs_schedulable_down: an unlimited B takes A's hierarchical quota. */
	assert_write(h, "A/B/C/cpu.cfs_quota_us", "60000", -EINVAL);
	assert_write(h, "A/B/C/cpu.cfs_quota_us", "40000", 0);
	cgt_end(h);
}

Test(cg_v1, burst_above_quota_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	/* tg_set_cfs_burst -> tg_set_cfs_bandwidth: with a quota, burst > quota -> -EINVAL. */
	assert_write(h, "A/cpu.cfs_burst_us", "200000", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", -EINVAL);
	assert_write(h, "A/cpu.cfs_burst_us", "1000", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	assert_write(h, "A/cpu.cfs_burst_us", "50001", -EINVAL);
	assert_write(h, "A/cpu.cfs_burst_us", "50000", 0);
	assert_read(h, "A/cpu.cfs_burst_us", "50000\n");
	assert_write(h, "cpu.cfs_burst_us", "1000", -EINVAL);
	cgt_end(h);
}

/* ---- cpu.idle ---- */

Test(cg_v1, idle_forces_shares_3)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct cg_cpu_params p;

	assert_mkdir(h, "A", 0);
	assert_read(h, "A/cpu.idle", "0\n");
	assert_write(h, "A/cpu.shares", "4096", 0);
	assert_write(h, "A/cpu.idle", "2", -EINVAL);
	/* [live]: shares 4096 -> idle=1 -> shares 3 -> write 2048 EINVAL -> idle=0 -> 1024. */
	assert_write(h, "A/cpu.idle", "1", 0);
	assert_read(h, "A/cpu.idle", "1\n");
	assert_read(h, "A/cpu.shares", "3\n");
	cr_assert_eq(cg_tg_params(h, cgt_id(h, "A"), &p), 0);
	cr_assert(p.idle);
	cr_assert_eq(p.shares, 3);
	assert_write(h, "A/cpu.shares", "2048", -EINVAL);
	assert_write(h, "A/cpu.idle", "0", 0);
	assert_read(h, "A/cpu.shares", "1024\n");
	assert_write(h, "A/cpu.shares", "2048", 0);
	assert_read(h, "A/cpu.shares", "2048\n");
	cgt_end(h);
}

Test(cg_v1, idle_of_root_cannot_be_written)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	/* sched_group_set_idle: tg == &root_task_group -> -EINVAL. */
	assert_write(h, "cpu.idle", "1", -EINVAL);
	cgt_end(h);
}
