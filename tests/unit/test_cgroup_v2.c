// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cgroup model, rule set v2 (thread mode as merged in 4.14): types, reads,
 * populated state, cgroup.kill, missing files. test_cgroup_v2_ops.c has the operations that
 * change the hierarchy.
 *
 * Every expected errno comes from docs/cgroup-model.md's rules (the kernel function that returns it is
 * named in a comment), not from the model's output. Processes are created in the root; tids are
 * 1, 2, 3... in creation order over all processes, so a process's pid is the tid of its first
 * thread. The root offers every controller (cpuset cpu io memory hugetlb pids rdma misc) unless
 * a test says otherwise; memory and hugetlb are the domain controllers, cpu and pids threaded.
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cg_v2, .fini = cgt_fini);

/* ---- cgroup.type writes (cgroup_type_write -> cgroup_enable_threaded, §1.4) ---- */

Test(cg_v2, write_type_other_than_threaded_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* cgroup_type_write: strstrip(buf) must equal "threaded", else -EINVAL (one-way change). */
	assert_write(h, "A/cgroup.type", "domain", -EINVAL);
	assert_write(h, "A/cgroup.type", "Threaded", -EINVAL);
	assert_write(h, "A/cgroup.type", "domain threaded", -EINVAL);
	assert_read(h, "A/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_with_trailing_space_is_accepted)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* cgroup_type_write strips white space before comparing ([live]). */
	assert_write(h, "A/cgroup.type", "threaded ", 0);
	assert_read(h, "A/cgroup.type", "threaded\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_on_threaded_cgroup_is_noop)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_proc(h, "P", 1, 1);
	assert_write(h, "A/T/cgroup.procs", "P", 0);
	/* cgroup_enable_threaded: "if (cgroup_is_threaded(cgrp)) return 0" comes before the
	 * populated check, so even a populated threaded cgroup accepts it. */
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_read(h, "A/T/cgroup.type", "threaded\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_on_populated_cgroup_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_enable_threaded: cgroup_is_populated(cgrp) -> -EOPNOTSUPP. */
	assert_write(h, "A/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_read(h, "A/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_with_populated_descendant_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "B", 0);
	assert_mkdir(h, "B/C", 0);
	assert_write(h, "B/C/cgroup.procs", "P", 0);
	/* cgroup_is_populated() counts descendants too. */
	assert_write(h, "B/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_read(h, "B/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_with_domain_controller_in_own_subtree_control_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	/* cgroup_enable_threaded: subtree_control & ~cgrp_dfl_threaded_ss_mask -> -EOPNOTSUPP. */
	assert_write(h, "A/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_read(h, "A/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_with_threaded_controller_in_own_subtree_control_is_accepted)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	/* Only domain controllers in the own subtree_control block the change. */
	assert_write(h, "A/cgroup.type", "threaded", 0);
	assert_read(h, "A/cgroup.type", "threaded\n");
	assert_read(h, "A/cgroup.subtree_control", "cpu\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_next_to_populated_domain_sibling_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/C", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	/* cgroup_enable_threaded: D = A; cgroup_can_be_thread_root(A) is false because
	 * nr_populated_domain_children != 0 -> -EOPNOTSUPP. */
	assert_write(h, "A/C/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_read(h, "A/C/cgroup.type", "domain\n");
	assert_read(h, "A/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_when_parent_has_domain_controller_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+hugetlb", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+hugetlb", 0);
	/* cgroup_can_be_thread_root(A): a domain controller in A's subtree_control -> false. */
	assert_write(h, "A/B/cgroup.type", "threaded", -EOPNOTSUPP);
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_under_root_is_exempt_from_thread_root_checks)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_proc(h, "P", 1, 1);
	assert_proc(h, "Q", 1, 2);
	assert_mkdir(h, "B", 0);
	assert_write(h, "B/cgroup.procs", "Q", 0);
	assert_mkdir(h, "T", 0);
	/* The root is mixable (cgroup_is_mixable): it may be a thread root with processes, a
	 * populated domain child and a domain controller enabled. */
	assert_write(h, "T/cgroup.type", "threaded", 0);
	assert_read(h, "T/cgroup.type", "threaded\n");
	assert_read(h, "B/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_on_child_of_domain_invalid_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_mkdir(h, "A/T/X", 0);
	assert_read(h, "A/T/X/cgroup.type", "domain invalid\n");
	assert_mkdir(h, "A/T/X/Y", 0);
	/* cgroup_enable_threaded: D = X->dom_cgrp = X, !cgroup_is_valid_domain(X) -> -EOPNOTSUPP. */
	assert_write(h, "A/T/X/Y/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_read(h, "A/T/X/Y/cgroup.type", "domain invalid\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_on_domain_invalid_under_threaded_parent_joins_the_domain)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_mkdir(h, "A/T/X", 0);
	assert_read(h, "A/T/X/cgroup.type", "domain invalid\n");
	/* D = T->dom_cgrp = A, a valid domain that can be a thread root ([live]). */
	assert_write(h, "A/T/X/cgroup.type", "threaded", 0);
	assert_read(h, "A/T/X/cgroup.type", "threaded\n");
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_under_parent_with_own_processes_is_accepted)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_can_be_thread_root(A): a cgroup's own processes do not count, only populated
	 * domain children do. */
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	assert_read(h, "A/cgroup.procs", "P\n");
	cgt_end(h);
}

Test(cg_v2, write_type_threaded_next_to_domain_sibling_populated_through_threaded_child)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/B/T", 0);
	assert_mkdir(h, "A/C", 0);
	assert_write(h, "A/B/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/B/T/cgroup.procs", "P", 0);
	assert_read(h, "A/B/cgroup.procs", "P\n");
	/* B holds no thread itself but is populated: it counts in A's
	 * nr_populated_domain_children, so A cannot be a thread root. */
	assert_write(h, "A/C/cgroup.type", "threaded", -EOPNOTSUPP);
	cgt_end(h);
}

/* ---- type derivation (cgroup_type_show, §1.2-1.3) ---- */

Test(cg_v2, type_of_parent_of_threaded_child_is_domain_threaded)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "P", 0);
	assert_mkdir(h, "P/C", 0);
	assert_read(h, "P/cgroup.type", "domain\n");
	assert_read(h, "P/C/cgroup.type", "domain\n");
	assert_write(h, "P/C/cgroup.type", "threaded", 0);
	/* cgroup_is_thread_root: nr_threaded_children != 0. */
	assert_read(h, "P/cgroup.type", "domain threaded\n");
	cgt_end(h);
}

Test(cg_v2, type_of_domain_with_processes_and_threaded_controller_is_domain_threaded)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	/* cgroup_migrate_vet_dst(A): A can be a thread root (no populated domain child, only a
	 * threaded controller) -> allowed despite subtree_control != 0. */
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_is_thread_root: tasks and a threaded controller in subtree_control. */
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	/* Its domain child now has a non-mixable thread-root ancestor. */
	assert_read(h, "A/B/cgroup.type", "domain invalid\n");
	/* Processes gone, no threaded child: back to domain, and the child with it. */
	assert_write(h, "cgroup.procs", "P", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	assert_read(h, "A/B/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, type_reverts_when_thread_root_loses_threaded_controller_or_tasks)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	assert_read(h, "A/B/cgroup.type", "domain invalid\n");
	/* cgroup_is_thread_root needs tasks *and* a threaded controller in subtree_control. */
	assert_write(h, "A/cgroup.subtree_control", "-cpu", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	assert_read(h, "A/B/cgroup.type", "domain\n");
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	/* Tasks gone by cgroup.kill: the same. */
	assert_write(h, "A/cgroup.kill", "1", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	assert_read(h, "A/B/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, type_reverts_to_domain_after_rmdir_of_last_threaded_child)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "P", 0);
	assert_mkdir(h, "P/T", 0);
	assert_mkdir(h, "P/U", 0);
	assert_mkdir(h, "P/D", 0);
	assert_write(h, "P/T/cgroup.type", "threaded", 0);
	assert_write(h, "P/U/cgroup.type", "threaded", 0);
	assert_read(h, "P/cgroup.type", "domain threaded\n");
	assert_read(h, "P/D/cgroup.type", "domain invalid\n");
	/* cgroup_destroy_locked decrements parent->nr_threaded_children. */
	assert_rmdir(h, "P/T", 0);
	assert_read(h, "P/cgroup.type", "domain threaded\n");
	assert_read(h, "P/D/cgroup.type", "domain invalid\n");
	assert_rmdir(h, "P/U", 0);
	/* [live]: the parent reads domain again and its former domain invalid sibling too. */
	assert_read(h, "P/cgroup.type", "domain\n");
	assert_read(h, "P/D/cgroup.type", "domain\n");
	cgt_end(h);
}

Test(cg_v2, type_stays_domain_threaded_while_empty_threaded_child_remains)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	assert_write(h, "cgroup.procs", "P", 0);
	/* [live]: a domain whose processes all left but which still has threaded children
	 * stays a thread root (nr_threaded_children != 0). */
	assert_read(h, "A/cgroup.type", "domain threaded\n");
	assert_read(h, "A/T/cgroup.type", "threaded\n");
	cgt_end(h);
}

Test(cg_v2, type_domain_invalid_for_cgroup_made_under_threaded_cgroup)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* cgroup_mkdir under a threaded cgroup is allowed; the child is a domain whose ancestor
	 * is threaded: !cgroup_is_valid_domain -> "domain invalid". */
	assert_mkdir(h, "A/T/X", 0);
	assert_read(h, "A/T/X/cgroup.type", "domain invalid\n");
	cgt_end(h);
}

Test(cg_v2, type_domain_invalid_for_existing_domain_children_of_new_threaded_cgroup)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "G", 0);
	assert_mkdir(h, "G/P", 0);
	assert_mkdir(h, "G/P/C", 0);
	assert_read(h, "G/P/C/cgroup.type", "domain\n");
	/* cgroup_enable_threaded re-points only threaded descendants; C stays a domain. */
	assert_write(h, "G/P/cgroup.type", "threaded", 0);
	assert_read(h, "G/cgroup.type", "domain threaded\n");
	assert_read(h, "G/P/cgroup.type", "threaded\n");
	assert_read(h, "G/P/C/cgroup.type", "domain invalid\n");
	cgt_end(h);
}

Test(cg_v2, type_domain_invalid_for_new_domain_child_of_non_root_thread_root)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* cgroup_is_valid_domain: an ancestor that is a non-mixable thread root -> false. */
	assert_mkdir(h, "A/N", 0);
	assert_read(h, "A/N/cgroup.type", "domain invalid\n");
	cgt_end(h);
}

Test(cg_v2, type_domain_child_of_root_thread_root_stays_domain)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "T", 0);
	assert_mkdir(h, "D", 0);
	assert_write(h, "T/cgroup.type", "threaded", 0);
	/* The root is mixable: thread root and parent of valid domains at once. */
	assert_read(h, "D/cgroup.type", "domain\n");
	assert_mkdir(h, "E", 0);
	assert_read(h, "E/cgroup.type", "domain\n");
	cgt_end(h);
}

/* ---- cgroup.procs / cgroup.threads reads (§1.7) ---- */

Test(cg_v2, read_procs_of_thread_root_lists_leaders_in_threaded_children)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_proc(h, "Q", 1, 4);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T1", 0);
	assert_mkdir(h, "A/T2", 0);
	assert_write(h, "A/T1/cgroup.type", "threaded", 0);
	assert_write(h, "A/T2/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T1/cgroup.threads", "P.1", 0);
	assert_write(h, "A/T1/cgroup.threads", "P.2", 0);
	assert_write(h, "A/T2/cgroup.threads", "P.3", 0);
	/* cgroup_procs_start iterates CSS_TASK_ITER_PROCS | CSS_TASK_ITER_THREADED. */
	assert_read(h, "A/cgroup.procs", "P\n");
	/* cgroup.threads lists only the threads in that very cgroup (iterator flags 0). */
	assert_read(h, "A/cgroup.threads", "");
	assert_read(h, "A/T1/cgroup.threads", "P.1\nP.2\n");
	assert_read(h, "A/T2/cgroup.threads", "P.3\n");
	/* The root's own processes only: A is a domain of its own. */
	assert_read(h, "cgroup.procs", "Q\n");
	assert_read(h, "cgroup.threads", "Q.1\n");
	cgt_end(h);
}

Test(cg_v2, read_procs_of_root_lists_process_spread_into_root_threaded_child)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "T", 0);
	assert_write(h, "T/cgroup.type", "threaded", 0);
	/* The root is P's domain: its threads may move into root-level threaded children. */
	assert_write(h, "T/cgroup.threads", "P.2", 0);
	assert_read(h, "cgroup.procs", "P\n");
	assert_read(h, "cgroup.threads", "P.1\n");
	assert_read(h, "T/cgroup.threads", "P.2\n");
	assert_thread_in(h, "P.1", "");
	assert_thread_in(h, "P.2", "T");
	cgt_end(h);
}

Test(cg_v2, read_procs_in_threaded_cgroup_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* cgroup_procs_start: threaded cgroup -> -EOPNOTSUPP, populated or not. */
	assert_read_err(h, "A/T/cgroup.procs", -EOPNOTSUPP);
	assert_read(h, "A/T/cgroup.threads", "");
	cgt_end(h);
}

Test(cg_v2, read_threads_lists_sorted_by_process_then_thread_number)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "b", 10, 1);
	assert_proc(h, "a", 1, 11);
	/* The model prints names sorted by process name then thread number (P.2 before P.10). */
	assert_read(h, "cgroup.threads",
		    "a.1\nb.1\nb.2\nb.3\nb.4\nb.5\nb.6\nb.7\nb.8\nb.9\nb.10\n");
	assert_read(h, "cgroup.procs", "a\nb\n");
	cgt_end(h);
}

/* ---- populated (cgroup_update_populated, cgroup.events) ---- */

Test(cg_v2, events_populated_propagates_up_and_back_to_zero)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/B/C", 0);
	assert_mkdir(h, "A/B/D", 0);
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	assert_write(h, "A/B/C/cgroup.procs", "P", 0);
	assert_read(h, "A/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/B/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/B/C/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/B/D/cgroup.events", "populated 0\nfrozen 0\n");
	/* Move to a sibling: still populated above. */
	assert_write(h, "A/B/D/cgroup.procs", "P", 0);
	assert_read(h, "A/B/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/B/C/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/B/D/cgroup.events", "populated 1\nfrozen 0\n");
	assert_write(h, "cgroup.procs", "P", 0);
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/B/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/B/C/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/B/D/cgroup.events", "populated 0\nfrozen 0\n");
	cgt_end(h);
}

Test(cg_v2, events_populated_counts_threads_in_threaded_children)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_mkdir(h, "A/T/U", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/T/U/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/U/cgroup.threads", "P.2", 0);
	assert_read(h, "A/T/U/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/T/cgroup.events", "populated 1\nfrozen 0\n");
	assert_read(h, "A/cgroup.events", "populated 1\nfrozen 0\n");
	/* A populated cgroup cannot be removed, nor its parent. */
	assert_rmdir(h, "A/T/U", -EBUSY);
	assert_rmdir(h, "A/T", -EBUSY);
	assert_write(h, "A/cgroup.threads", "P.2", 0);
	assert_read(h, "A/T/U/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/T/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/cgroup.events", "populated 1\nfrozen 0\n");
	cgt_end(h);
}

/* ---- cgroup.kill (cgroup_kill_write, §1.9) ---- */

Test(cg_v2, kill_removes_every_process_of_the_subtree)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_proc(h, "Q", 1, 4);
	assert_proc(h, "R", 1, 5);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* P keeps one thread in A itself, the other two in the threaded child. (On v2 the threads
	 * of a process never straddle the boundary of a domain's subtree: they share a domain.) */
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	assert_write(h, "A/T/cgroup.threads", "P.3", 0);
	/* Q sits two levels down in another subtree, R stays in the root. */
	assert_mkdir(h, "K", 0);
	assert_mkdir(h, "K/L", 0);
	assert_write(h, "K/L/cgroup.procs", "Q", 0);
	/* cgroup_kill iterates CSS_TASK_ITER_PROCS | CSS_TASK_ITER_THREADED and kills whole
	 * processes: all of P dies, the threads in the threaded child included. */
	assert_write(h, "A/cgroup.kill", "1", 0);
	for (int tid = 1; tid <= 3; tid++) {
		cr_assert_not(cg_thread_alive(h, tid), "tid %d survived cgroup.kill", tid);
		cr_assert_eq(cg_thread_cgroup(h, tid), -ESRCH);
	}
	cr_assert(cg_thread_alive(h, 4));
	cr_assert(cg_thread_alive(h, 5));
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/T/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/cgroup.procs", "");
	assert_read(h, "A/cgroup.threads", "");
	assert_read(h, "A/T/cgroup.threads", "");
	/* The killed pid no longer names a task: cgroup_procs_write_start -> -ESRCH. */
	assert_write(h, "cgroup.procs", "1", -ESRCH);
	/* Killing K takes the process of its descendant K/L. */
	assert_write(h, "K/cgroup.kill", "1", 0);
	cr_assert_not(cg_thread_alive(h, 4));
	cr_assert(cg_thread_alive(h, 5));
	assert_read(h, "K/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "K/L/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "cgroup.procs", "R\n");
	/* Unpopulated now: they can be removed. */
	assert_rmdir(h, "A/T", 0);
	assert_rmdir(h, "A", 0);
	assert_rmdir(h, "K/L", 0);
	assert_rmdir(h, "K", 0);
	cgt_end(h);
}

Test(cg_v2, kill_value_other_than_one_is_erange)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* cgroup_kill_write: "if (kill != 1) return -ERANGE" ([live] 0 -> ERANGE). */
	assert_write(h, "A/cgroup.kill", "0", -ERANGE);
	assert_write(h, "A/cgroup.kill", "2", -ERANGE);
	assert_write(h, "A/cgroup.kill", "-1", -ERANGE);
	cr_assert(cg_thread_alive(h, 1));
	assert_read(h, "A/cgroup.procs", "P\n");
	cgt_end(h);
}

Test(cg_v2, kill_value_not_a_number_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* cgroup_kill_write: kstrtoint fails before the range check -> -EINVAL. */
	assert_write(h, "A/cgroup.kill", "abc", -EINVAL);
	cgt_end(h);
}

Test(cg_v2, kill_in_threaded_cgroup_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	/* cgroup_kill_write: cgroup_is_threaded(cgrp) -> -EOPNOTSUPP. */
	assert_write(h, "A/T/cgroup.kill", "1", -EOPNOTSUPP);
	/* The value is checked first: kstrtoint, then kill != 1 -> -ERANGE. */
	assert_write(h, "A/T/cgroup.kill", "0", -ERANGE);
	cr_assert(cg_thread_alive(h, 1));
	cr_assert(cg_thread_alive(h, 2));
	cgt_end(h);
}

/* ---- files that do not exist, or cannot be read or written ---- */

Test(cg_v2, root_has_no_type_kill_events_freeze)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	char *out = (char *)"untouched";
	char *before = out;

	/* CFTYPE_NOT_ON_ROOT files ([live] reading cgroup.type on the root gives ENOENT). */
	assert_read_err(h, "cgroup.type", -ENOENT);
	assert_write(h, "cgroup.type", "threaded", -ENOENT);
	assert_write(h, "cgroup.kill", "1", -ENOENT);
	assert_read_err(h, "cgroup.events", -ENOENT);
	assert_read_err(h, "cgroup.freeze", -ENOENT);
	/* cg_read leaves *out untouched on error. */
	cr_assert_eq(cg_read(h, "cgroup.type", &out), -ENOENT);
	cr_assert_eq(out, before);
	/* ...while the root does have these. */
	assert_read(h, "cgroup.procs", "");
	assert_read(h, "cgroup.threads", "");
	assert_read(h, "cgroup.subtree_control", "");
	assert_read(h, "cgroup.max.depth", "max\n");
	assert_read(h, "cgroup.max.descendants", "max\n");
	cgt_end(h);
}

Test(cg_v2, non_root_has_type_events_and_limits)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_read(h, "A/cgroup.type", "domain\n");
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	assert_read(h, "A/cgroup.procs", "");
	assert_read(h, "A/cgroup.threads", "");
	assert_read(h, "A/cgroup.controllers", "");
	assert_read(h, "A/cgroup.subtree_control", "");
	assert_read(h, "A/cgroup.max.depth", "max\n");
	assert_read(h, "A/cgroup.max.descendants", "max\n");
	assert_read_err(h, "A/cgroup.nosuchfile", -ENOENT);
	assert_read_err(h, "B/cgroup.procs", -ENOENT);
	assert_write(h, "B/cgroup.procs", "1", -ENOENT);
	cgt_end(h);
}

Test(cg_v2, write_read_only_file_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* A file without a write method: kernfs -> -EINVAL ([live] 6.18). */
	assert_write(h, "cgroup.controllers", "cpu", -EINVAL);
	assert_write(h, "A/cgroup.controllers", "+cpu", -EINVAL);
	assert_write(h, "A/cgroup.events", "populated 1", -EINVAL);
	assert_read(h, "A/cgroup.events", "populated 0\nfrozen 0\n");
	cgt_end(h);
}

Test(cg_v2, read_write_only_kill_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* cgroup.kill has no seq_show: a read is -EINVAL ([live] 6.18). */
	assert_read_err(h, "A/cgroup.kill", -EINVAL);
	cgt_end(h);
}
