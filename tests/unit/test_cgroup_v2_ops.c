// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cgroup model, rule set v2: the operations that change the hierarchy
 * (mkdir, rmdir, migration, cgroup.subtree_control, cgroup.freeze). test_cgroup_v2.c has types,
 * reads, populated state, cgroup.kill and missing files.
 *
 * Every expected errno comes from docs/cgroup-model.md's rules (the kernel function that returns it is
 * named in a comment), not from the model's output. Processes are created in the root; tids are
 * 1, 2, 3... in creation order over all processes, so a process's pid is the tid of its first
 * thread. The root offers every controller (cpuset cpu io memory hugetlb pids rdma misc) unless
 * a test says otherwise; memory and hugetlb are the domain controllers, cpu and pids threaded.
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cg_v2_ops, .fini = cgt_fini);

/* ---- mkdir / rmdir (§1.5) ---- */

Test(cg_v2_ops, mkdir_existing_is_eexist)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A", -EEXIST);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/B", -EEXIST);
	cgt_end(h);
}

Test(cg_v2_ops, mkdir_name_with_newline_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* cgroup_mkdir: strchr(name, '\n') -> -EINVAL. */
	assert_mkdir(h, "A\nB", -EINVAL);
	cr_assert_eq(cg_lookup(h, "A\nB"), -ENOENT);
	cgt_end(h);
}

Test(cg_v2_ops, rmdir_root_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* VFS: the root of the mount cannot be removed. */
	assert_rmdir(h, "", -EBUSY);
	cr_assert(cg_cgroup_alive(h, 0));
	cgt_end(h);
}

Test(cg_v2_ops, mkdir_under_missing_parent_is_enoent)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* Path lookup of the parent fails (VFS). */
	assert_mkdir(h, "X/Y", -ENOENT);
	cr_assert_eq(cg_lookup(h, "X/Y"), -ENOENT);
	cgt_end(h);
}

Test(cg_v2_ops, mkdir_name_of_interface_file_is_eexist)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* kernfs: the name is taken by the file. */
	assert_mkdir(h, "A/cgroup.procs", -EEXIST);
	assert_mkdir(h, "A/cgroup.type", -EEXIST);
	assert_mkdir(h, "cgroup.procs", -EEXIST);
	assert_mkdir(h, "cgroup.subtree_control", -EEXIST);
	cgt_end(h);
}

Test(cg_v2_ops, rmdir_of_file_is_enotdir)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* VFS rmdir of a non-directory. */
	assert_rmdir(h, "A/cgroup.procs", -ENOTDIR);
	assert_rmdir(h, "cgroup.procs", -ENOTDIR);
	assert_read(h, "A/cgroup.procs", "");
	cgt_end(h);
}

Test(cg_v2_ops, mkdir_beyond_max_depth_is_eagain)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.max.depth", "0", 0);
	assert_read(h, "A/cgroup.max.depth", "0\n");
	/* cgroup_check_hierarchy_limits: level 0 >= A's max_depth 0 -> -EAGAIN. */
	assert_mkdir(h, "A/B", -EAGAIN);
	assert_write(h, "A/cgroup.max.depth", "1", 0);
	assert_mkdir(h, "A/B", 0);
	/* B's own depth is unlimited, but A's limit of 1 counts one level below A. */
	assert_mkdir(h, "A/B/C", -EAGAIN);
	assert_write(h, "A/cgroup.max.depth", "max", 0);
	assert_read(h, "A/cgroup.max.depth", "max\n");
	assert_mkdir(h, "A/B/C", 0);
	/* The root has the file too: depth 1 allows its children, not grandchildren. */
	assert_write(h, "cgroup.max.depth", "1", 0);
	assert_mkdir(h, "D", 0);
	assert_mkdir(h, "D/E", -EAGAIN);
	assert_mkdir(h, "A/B/C/D", -EAGAIN);
	cgt_end(h);
}

Test(cg_v2_ops, mkdir_beyond_max_descendants_is_eagain)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.max.descendants", "1", 0);
	assert_read(h, "A/cgroup.max.descendants", "1\n");
	assert_mkdir(h, "A/B", 0);
	/* cgroup_check_hierarchy_limits: A's nr_descendants 1 >= 1 -> -EAGAIN, at any depth. */
	assert_mkdir(h, "A/C", -EAGAIN);
	assert_mkdir(h, "A/B/C", -EAGAIN);
	assert_rmdir(h, "A/B", 0);
	assert_mkdir(h, "A/C", 0);
	/* On the root as well: it counts A and A/C. */
	assert_write(h, "cgroup.max.descendants", "2", 0);
	assert_mkdir(h, "B", -EAGAIN);
	assert_write(h, "cgroup.max.descendants", "3", 0);
	assert_mkdir(h, "B", 0);
	cgt_end(h);
}

Test(cg_v2_ops, max_depth_and_descendants_reject_negative_and_garbage)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* cgroup_max_{depth,descendants}_write: kstrtoint fails -> -EINVAL; < 0 -> -ERANGE. */
	assert_write(h, "A/cgroup.max.depth", "-1", -ERANGE);
	assert_write(h, "A/cgroup.max.descendants", "-1", -ERANGE);
	assert_write(h, "A/cgroup.max.depth", "abc", -EINVAL);
	assert_write(h, "A/cgroup.max.descendants", "abc", -EINVAL);
	assert_read(h, "A/cgroup.max.depth", "max\n");
	assert_read(h, "A/cgroup.max.descendants", "max\n");
	cgt_end(h);
}

Test(cg_v2_ops, rmdir_populated_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_destroy_locked: cgroup_is_populated -> -EBUSY. */
	assert_rmdir(h, "A", -EBUSY);
	assert_write(h, "cgroup.procs", "P", 0);
	assert_rmdir(h, "A", 0);
	cr_assert_eq(cg_lookup(h, "A"), -ENOENT);
	cgt_end(h);
}

Test(cg_v2_ops, rmdir_with_child_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	/* cgroup_destroy_locked: a live child -> -EBUSY (not ENOTEMPTY). */
	assert_rmdir(h, "A", -EBUSY);
	assert_rmdir(h, "A/B", 0);
	assert_rmdir(h, "A", 0);
	cgt_end(h);
}

Test(cg_v2_ops, rmdir_missing_is_enoent)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_rmdir(h, "A", -ENOENT);
	assert_mkdir(h, "A", 0);
	assert_rmdir(h, "A", 0);
	assert_rmdir(h, "A", -ENOENT);
	assert_rmdir(h, "A/B", -ENOENT);
	cgt_end(h);
}

Test(cg_v2_ops, cgroup_ids_are_never_reused)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	int a, b;

	cr_assert_eq(cg_lookup(h, ""), 0);
	cr_assert_eq(cg_lookup(h, "."), 0);
	assert_mkdir(h, "A", 0);
	a = cgt_id(h, "A");
	cr_assert_gt(a, 0);
	cr_assert_eq(cg_cgroup_parent(h, a), 0);
	cr_assert_eq(cg_cgroup_parent(h, 0), -1);
	assert_rmdir(h, "A", 0);
	cr_assert_not(cg_cgroup_alive(h, a));
	assert_mkdir(h, "A", 0);
	b = cgt_id(h, "A");
	cr_assert_neq(a, b);
	cr_assert_gt(cg_cgroup_max_id(h), b);
	cgt_end(h);
}

/* ---- cgroup.procs / cgroup.threads writes (__cgroup_procs_write, §1.6) ---- */

Test(cg_v2_ops, write_procs_not_a_number_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	/* cgroup_procs_write_start: kstrtoint fails or the value is negative -> -EINVAL. (A word
	 * shaped like a process name, such as "abc", is taken as a name by the model: see
	 * write_procs_unknown_name_is_enoname.) */
	assert_write(h, "A/cgroup.procs", "1abc", -EINVAL);
	assert_write(h, "A/cgroup.procs", "1.5", -EINVAL);
	assert_write(h, "A/cgroup.procs", "", -EINVAL);
	assert_write(h, "A/cgroup.procs", "-1", -EINVAL);
	assert_write(h, "A/cgroup.threads", "-1", -EINVAL);
	assert_write(h, "A/cgroup.threads", "2x", -EINVAL);
	assert_read(h, "A/cgroup.procs", "");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_unused_pid_is_esrch)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	/* cgroup_procs_write_start: find_task_by_vpid fails -> -ESRCH. */
	assert_write(h, "A/cgroup.procs", "3", -ESRCH);
	assert_write(h, "A/cgroup.procs", "99", -ESRCH);
	assert_write(h, "A/cgroup.threads", "3", -ESRCH);
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_unknown_name_is_enoname)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	/* A name the model never created: the model's own script error (docs/cgroup-model.md,
	 * "Names for pids"), not a kernel errno. */
	assert_write(h, "A/cgroup.procs", "abc", -CG_ENONAME);
	assert_write(h, "A/cgroup.procs", "Ghost.1", -CG_ENONAME);
	assert_write(h, "A/cgroup.threads", "P.3", -CG_ENONAME);
	cr_assert_eq(cg_thread_lookup(h, "Ghost"), -CG_ENONAME);
	cr_assert_eq(cg_thread_lookup(h, "P.3"), -CG_ENONAME);
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_numeric_tid_moves_whole_process)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_proc(h, "Q", 1, 4);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "B", 0);
	cr_assert_eq(cg_thread_lookup(h, "P"), 1);
	cr_assert_eq(cg_thread_lookup(h, "P.3"), 3);
	cr_assert_eq(cg_thread_lookup(h, "Q.1"), 4);
	cr_assert_eq(cg_thread_pid(h, 3), 1);
	/* cgroup_procs_write_start: for cgroup.procs the group leader of the tid is taken. */
	assert_write(h, "A/cgroup.procs", "3", 0);
	assert_thread_in(h, "P.1", "A");
	assert_thread_in(h, "P.2", "A");
	assert_thread_in(h, "P.3", "A");
	assert_thread_in(h, "Q.1", "");
	/* The same with a thread name. */
	assert_write(h, "B/cgroup.procs", "P.2", 0);
	assert_read(h, "B/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_read(h, "A/cgroup.procs", "");
	assert_write(h, "B/cgroup.procs", "4", 0);
	assert_read(h, "B/cgroup.procs", "P\nQ\n");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_to_domain_invalid_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "G", 0);
	assert_mkdir(h, "G/P", 0);
	assert_mkdir(h, "G/P/C", 0);
	assert_write(h, "G/P/cgroup.type", "threaded", 0);
	assert_read(h, "G/P/C/cgroup.type", "domain invalid\n");
	/* cgroup_migrate_vet_dst: !cgroup_is_valid_domain(dst->dom_cgrp) -> -EOPNOTSUPP. */
	assert_write(h, "G/P/C/cgroup.procs", "P", -EOPNOTSUPP);
	assert_write(h, "G/cgroup.procs", "P", 0);
	assert_write(h, "G/P/C/cgroup.threads", "P.1", -EOPNOTSUPP);
	assert_thread_in(h, "P.1", "G");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_to_domain_with_domain_controller_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	/* cgroup_migrate_vet_dst: A cannot be a thread root (domain controller enabled) and
	 * subtree_control != 0 -> -EBUSY (no-internal-process constraint). */
	assert_write(h, "A/cgroup.procs", "P", -EBUSY);
	/* vet_dst runs before the same-domain check of thread moves: EBUSY, not EOPNOTSUPP. */
	assert_write(h, "A/cgroup.threads", "P.2", -EBUSY);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	assert_thread_in(h, "P.2", "A/B");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_to_domain_with_threaded_controller_and_populated_child_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_proc(h, "Q", 1, 2);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	/* cgroup_can_be_thread_root(A) is false (populated domain child), A is not threaded and
	 * its subtree_control is not empty -> -EBUSY. */
	assert_write(h, "A/cgroup.procs", "Q", -EBUSY);
	assert_thread_in(h, "Q.1", "");
	cgt_end(h);
}

Test(cg_v2_ops, write_threads_across_domains_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_mkdir(h, "B", 0);
	/* __cgroup_procs_write, thread move: src->dom_cgrp (root) != dst->dom_cgrp (B). */
	assert_write(h, "B/cgroup.threads", "P.2", -EOPNOTSUPP);
	assert_write(h, "A/T/cgroup.threads", "P.2", -EOPNOTSUPP);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	/* Back to the root, which is not the domain of P any more. */
	assert_write(h, "cgroup.threads", "P.2", -EOPNOTSUPP);
	assert_write(h, "B/cgroup.threads", "P.1", -EOPNOTSUPP);
	/* Within the domain, the thread may move to the thread root itself. */
	assert_write(h, "A/cgroup.threads", "P.2", 0);
	assert_thread_in(h, "P.1", "A");
	assert_thread_in(h, "P.2", "A");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_gathers_threads_spread_over_a_threaded_subtree)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_mkdir(h, "B", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	assert_write(h, "A/T/cgroup.threads", "P.3", 0);
	/* cgroup.procs moves every thread of the process, wherever it sits. */
	assert_write(h, "B/cgroup.procs", "P.3", 0);
	assert_read(h, "B/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_read(h, "A/T/cgroup.threads", "");
	assert_read(h, "A/T/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	/* A keeps its (empty) threaded child, hence stays a thread root. */
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	cgt_end(h);
}

Test(cg_v2_ops, write_procs_into_threaded_cgroup_from_foreign_domain_moves_all_threads)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* vet_dst passes for a threaded dst; cgroup.procs moves the process as a whole. */
	assert_write(h, "A/T/cgroup.procs", "P", 0);
	assert_read(h, "A/T/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_read(h, "A/cgroup.procs", "P\n");
	assert_read(h, "cgroup.procs", "");
	cgt_end(h);
}

/* ---- cgroup.subtree_control (§1.8) ---- */

Test(cg_v2_ops, root_controllers_default_to_every_v2_controller)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* cgroup_control(root): bound controllers minus the implicit perf_event, in subsystem
	 * order. */
	assert_read(h, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	assert_read(h, "cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_perf_event_parses_but_is_not_offered)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* perf_event is implicit, not inhibited: it parses; enabling is not offered by
	 * cgroup_control -> -ENOENT; disabling what is not enabled is dropped -> 0. */
	assert_write(h, "cgroup.subtree_control", "+perf_event", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "-perf_event", 0);
	assert_read(h, "cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_reads_in_subsystem_order)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "cgroup.subtree_control", "+pids +memory +cpu", 0);
	assert_read(h, "cgroup.subtree_control", "cpu memory pids\n");
	assert_read(h, "A/cgroup.controllers", "cpu memory pids\n");
	/* The last token for a controller wins ([live] "+hugetlb -hugetlb" -> disabled). */
	assert_write(h, "cgroup.subtree_control", "+hugetlb -hugetlb", 0);
	assert_read(h, "cgroup.subtree_control", "cpu memory pids\n");
	/* Enabling one already enabled is dropped. */
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "cgroup.subtree_control", "-memory -pids", 0);
	assert_read(h, "cgroup.subtree_control", "cpu\n");
	assert_read(h, "A/cgroup.controllers", "cpu\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_tokens_split_on_spaces_and_last_wins)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* cgroup_subtree_control_write: strstrip, then strsep on ' ' skipping empty tokens. */
	assert_write(h, "cgroup.subtree_control", "", 0);
	assert_write(h, "cgroup.subtree_control", "  +cpu   +memory ", 0);
	assert_read(h, "cgroup.subtree_control", "cpu memory\n");
	assert_write(h, "cgroup.subtree_control", "-cpu +cpu", 0);
	assert_read(h, "cgroup.subtree_control", "cpu memory\n");
	assert_write(h, "cgroup.subtree_control", "+memory -memory", 0);
	assert_read(h, "cgroup.subtree_control", "cpu\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_unknown_name_or_missing_sign_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* cgroup_subtree_control_write: each token is +name or -name of a known controller. */
	assert_write(h, "cgroup.subtree_control", "+bogus", -EINVAL);
	assert_write(h, "cgroup.subtree_control", "cpu", -EINVAL);
	assert_write(h, "cgroup.subtree_control", "+cpu bogus", -EINVAL);
	/* Nothing is applied when a token is bad. */
	assert_read(h, "cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_enable_not_offered_is_enoent)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* Top-down constraint: cpu is not in cgroup_control(A) (root's subtree_control). */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", -ENOENT);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	assert_read(h, "A/cgroup.subtree_control", "memory\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_disable_while_child_has_it_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	/* A live child still has memory in its subtree_control -> -EBUSY. */
	assert_write(h, "cgroup.subtree_control", "-memory", -EBUSY);
	assert_write(h, "A/cgroup.subtree_control", "-memory", 0);
	assert_write(h, "cgroup.subtree_control", "-memory", 0);
	assert_read(h, "cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_domain_controller_in_non_root_thread_root_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+memory +cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_read(h, "A/cgroup.controllers", "cpu memory\n");
	/* cgroup_vet_subtree_control_enable: domain controller and cgroup_is_thread_root(A). */
	assert_write(h, "A/cgroup.subtree_control", "+memory", -EOPNOTSUPP);
	/* A threaded controller is fine: A can be a thread root. */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/cgroup.subtree_control", "cpu\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_domain_controller_in_threaded_cgroup_is_enoent)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+memory +cpu +pids", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu +pids", 0);
	/* cgroup_control(T) masks the parent's subtree_control to threaded controllers. */
	assert_read(h, "A/T/cgroup.controllers", "cpu pids\n");
	/* memory is not offered -> -ENOENT ([live] threaded +hugetlb -> ENOENT). */
	assert_write(h, "A/T/cgroup.subtree_control", "+memory", -ENOENT);
	assert_write(h, "A/T/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/T/cgroup.subtree_control", "cpu\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_in_domain_invalid_is_enoent_or_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_mkdir(h, "A/T/X", 0);
	assert_read(h, "A/T/X/cgroup.type", "domain invalid\n");
	/* T offers nothing yet: -ENOENT comes first ([live] domain invalid +hugetlb). */
	assert_read(h, "A/T/X/cgroup.controllers", "");
	assert_write(h, "A/T/X/cgroup.subtree_control", "+cpu", -ENOENT);
	assert_write(h, "A/T/cgroup.subtree_control", "+cpu", 0);
	/* X is not threaded, so cgroup_control(X) is T's subtree_control unmasked. */
	assert_read(h, "A/T/X/cgroup.controllers", "cpu\n");
	/* Offered, but !cgroup_is_valid_domain(X->dom_cgrp) -> -EOPNOTSUPP. */
	assert_write(h, "A/T/X/cgroup.subtree_control", "+cpu", -EOPNOTSUPP);
	assert_read(h, "A/T/X/cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_enable_on_populated_non_root_domain_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+hugetlb", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_vet_subtree_control_enable: A has tasks -> -EBUSY ([live] +hugetlb). */
	assert_write(h, "A/cgroup.subtree_control", "+hugetlb", -EBUSY);
	assert_read(h, "A/cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_threaded_controller_on_populated_domain_makes_thread_root)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* Only threaded controllers and A can be a thread root -> allowed despite its tasks. */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_threaded_controller_on_populated_domain_with_populated_child_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_proc(h, "Q", 1, 2);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	assert_write(h, "A/cgroup.procs", "Q", 0);
	/* A cannot be a thread root (populated domain child) and has tasks -> -EBUSY. */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", -EBUSY);
	assert_read(h, "A/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_threaded_controller_above_populated_domain_child_is_accepted)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	/* cgroup_vet_subtree_control_enable: A cannot be a thread root, but it has no tasks of
	 * its own: the last check (tasks -> EBUSY) does not fire. */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	assert_read(h, "A/B/cgroup.type", "domain\n");
	assert_read(h, "A/B/cpu.weight", "100\n");
	cgt_end(h);
}

Test(cg_v2_ops, subtree_control_root_accepts_controllers_despite_processes)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	/* cgroup_vet_subtree_control_enable: the root -> OK. */
	assert_write(h, "cgroup.subtree_control", "+memory +hugetlb", 0);
	assert_read(h, "cgroup.subtree_control", "memory hugetlb\n");
	cgt_end(h);
}

Test(cg_v2_ops, set_root_controllers_limits_what_root_offers)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	/* Model API: perf_event is implicit -> -EINVAL. */
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_PERF_EVENT)), -EINVAL);
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_HUGETLB)), 0);
	assert_read(h, "cgroup.controllers", "hugetlb\n");
	/* cpu is not bound to this hierarchy: not in cgroup_control(root) -> -ENOENT. */
	assert_write(h, "cgroup.subtree_control", "+cpu", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+hugetlb", 0);
	/* Model API: only before any change. */
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_CPU)), -EBUSY);
	assert_read(h, "cgroup.controllers", "hugetlb\n");
	cgt_end(h);
}

Test(cg_v2_ops, set_root_controllers_after_mkdir_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_CPU)), -EBUSY);
	assert_read(h, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	cgt_end(h);
}

/* ---- what echo(1) writes, and cgroup.freeze ---- */

Test(cg_v2_ops, values_with_trailing_newline_are_accepted)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "T", 0);
	assert_mkdir(h, "K", 0);
	/* strstrip() in the cgroup core handlers; kstrtox accepts one trailing newline. */
	assert_write(h, "T/cgroup.type", "threaded\n", 0);
	assert_write(h, "cgroup.subtree_control", "+cpu\n", 0);
	assert_write(h, "A/cgroup.procs", "1\n", 0);
	assert_write(h, "A/cgroup.max.depth", "2\n", 0);
	assert_read(h, "A/cgroup.max.depth", "2\n");
	assert_write(h, "A/cpu.weight", "200\n", 0);
	assert_read(h, "A/cpu.weight", "200\n");
	assert_write(h, "A/cpu.max", "50000 100000\n", 0);
	assert_read(h, "A/cpu.max", "50000 100000\n");
	assert_write(h, "K/cgroup.kill", "1\n", 0);
	assert_write(h, "A/cgroup.kill", "1\n", 0);
	cr_assert_not(cg_thread_alive(h, 1));
	cgt_end(h);
}

Test(cg_v2_ops, freeze_sets_frozen_in_events_of_subtree)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	assert_read(h, "A/cgroup.freeze", "0\n");
	/* cgroup_freeze_write: outside [0, 1] -> -ERANGE. */
	assert_write(h, "A/cgroup.freeze", "2", -ERANGE);
	assert_write(h, "A/cgroup.freeze", "-1", -ERANGE);
	assert_write(h, "A/cgroup.freeze", "1", 0);
	assert_read(h, "A/cgroup.freeze", "1\n");
	/* The model freezes at once; descendants inherit the effective freeze. */
	assert_read(h, "A/cgroup.events", "populated 1\nfrozen 1\n");
	assert_read(h, "A/B/cgroup.events", "populated 1\nfrozen 1\n");
	assert_read(h, "A/B/cgroup.freeze", "0\n");
	assert_write(h, "A/cgroup.freeze", "0", 0);
	assert_read(h, "A/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/B/cgroup.events", "populated 1\nfrozen 0\n");
	cgt_end(h);
}

/* ---- small API facts ---- */

Test(cg_v2_ops, semantics_and_controller_names_parse)
{
	enum cg_semantics sem;
	enum cg_ctrl c;

	cr_assert_eq(cg_semantics_parse("v2", &sem), 0);
	cr_assert_eq(sem, CG_SEM_V2);
	cr_assert_eq(cg_semantics_parse("rfc2017", &sem), 0);
	cr_assert_eq(sem, CG_SEM_RFC2017);
	cr_assert_eq(cg_semantics_parse("v1", &sem), 0);
	cr_assert_eq(sem, CG_SEM_V1);
	cr_assert_eq(cg_semantics_parse("v3", &sem), -EINVAL);
	cr_assert_str_eq(cg_semantics_name(CG_SEM_RFC2017), "rfc2017");
	cr_assert_eq(cg_ctrl_parse("hugetlb", &c), 0);
	cr_assert_eq(c, CG_CTRL_HUGETLB);
	cr_assert_eq(cg_ctrl_parse("bogus", &c), -EINVAL);
	cr_assert_str_eq(cg_ctrl_name(CG_CTRL_PERF_EVENT), "perf_event");
	cr_assert_str_eq(cg_errno_name(EOPNOTSUPP), "EOPNOTSUPP");
	cr_assert_str_eq(cg_errno_name(EBUSY), "EBUSY");
}

Test(cg_v2_ops, proc_new_rejects_bad_names_and_duplicates)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "P", 1, -EEXIST);
	assert_proc(h, "9lives", 1, -EINVAL);
	assert_proc(h, "a.b", 1, -EINVAL);
	assert_proc(h, "Q", 0, -EINVAL);
	assert_proc(h, "Q_-1", 1, 3);
	cr_assert_eq(cg_thread_max_id(h), 4);
	{
		char buf[64];

		cr_assert_str_eq(cg_thread_name(h, 2, buf, sizeof(buf)), "P.2");
		cr_assert_str_eq(cg_path(h, 0, buf, sizeof(buf)), "/");
	}
	cr_assert_eq(cg_thread_pid(h, 2), 1);
	cr_assert_eq(cg_thread_cgroup(h, 2), 0);
	cr_assert_eq(cg_thread_cgroup(h, 99), -ESRCH);
	cgt_end(h);
}

/* ---- many siblings (the (parent, name) index of path look-ups) ---- */

/*
 * A directory holds any number of entries and finds each by name, whatever was removed around
 * it: 3 parents x 700 children, every other one removed in a scattered order, then recreated.
 * mkdir of an existing name is EEXIST and a removed name ENOENT, as in cgroupfs.
 */
Test(cg_v2_ops, many_siblings_created_removed_and_found)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	static const char *const parents[] = { "A", "B", "A/C" };
	char path[64];

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "B", 0);
	assert_mkdir(h, "A/C", 0);
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 700; i++) {
			snprintf(path, sizeof(path), "%s/k%d", parents[p], i);
			assert_mkdir(h, path, 0);
		}
	for (int step = 0; step < 3 * 700; step++) {
		int k = (step * 997) % (3 * 700), p = k % 3, i = k / 3;

		if (i % 2)
			continue;
		snprintf(path, sizeof(path), "%s/k%d", parents[p], i);
		cr_assert_eq(cg_rmdir(h, path), 0, "rmdir %s", path);
	}
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 700; i++) {
			snprintf(path, sizeof(path), "%s/k%d", parents[p], i);
			if (i % 2) {
				cr_assert_geq(cg_lookup(h, path), 0, "%s lost", path);
				assert_mkdir(h, path, -EEXIST);
			} else {
				cr_assert_eq(cg_lookup(h, path), -ENOENT, "%s still found", path);
				assert_mkdir(h, path, 0);
			}
		}
	assert_mkdir(h, "A/C", -EEXIST);
	cr_assert_eq(cg_rmdir(h, "A"), -EBUSY);	/* children left: cgroup_destroy_locked() */
	cgt_end(h);
}
