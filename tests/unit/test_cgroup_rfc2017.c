// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cgroup model, rule set rfc2017 (Tejun Heo's February 2017 thread-mode
 * proposal, docs/cgroup-model.md and docs/cgs-language.md "Rule sets").
 *
 * Thread mode is switched on by writing "enable" to the thread root's cgroup.threads; every
 * cgroup below a thread root is a threaded member. Where the proposal is silent, the project
 * decided: no cgroup.type file; cgroup.threads exists everywhere; "enable" needs no child
 * cgroups and an empty subtree_control (else EBUSY), allows processes and the root; "enable" in
 * thread mode and "disable" outside it are no-ops; "disable" on a member is EINVAL and on a thread
 * root with children or controllers EBUSY. Outside thread mode the v2 domain rules apply.
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cg_rfc2017, .fini = cgt_fini);

/* ---- files ---- */

Test(cg_rfc2017, no_type_file_anywhere)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_read_err(h, "cgroup.type", -ENOENT);
	assert_read_err(h, "A/cgroup.type", -ENOENT);
	assert_read_err(h, "X/cgroup.type", -ENOENT);
	assert_read_err(h, "X/M/cgroup.type", -ENOENT);
	assert_write(h, "A/cgroup.type", "threaded", -ENOENT);
	cgt_end(h);
}

Test(cg_rfc2017, threads_file_exists_but_reads_only_in_thread_mode)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	/* Outside a threaded subtree cgroup.threads is not readable (EINVAL), but it exists. */
	assert_read_err(h, "cgroup.threads", -EINVAL);
	assert_read_err(h, "A/cgroup.threads", -EINVAL);
	assert_read(h, "cgroup.procs", "P\n");
	assert_read(h, "A/cgroup.procs", "");
	cgt_end(h);
}

/* ---- enable / disable ---- */

Test(cg_rfc2017, enable_makes_thread_root_and_children_members)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 3, 1);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.procs", "P", 0);
	/* Processes are allowed in the new thread root. */
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_read(h, "X/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_read(h, "X/cgroup.procs", "P\n");
	/* Cgroups made below are threaded members, at any depth. */
	assert_mkdir(h, "X/M", 0);
	assert_mkdir(h, "X/M/N", 0);
	assert_read(h, "X/M/cgroup.threads", "");
	assert_read(h, "X/M/N/cgroup.threads", "");
	assert_read_err(h, "X/M/cgroup.procs", -EINVAL);
	assert_read_err(h, "X/M/N/cgroup.procs", -EINVAL);
	assert_write(h, "X/M/N/cgroup.threads", "P.2", 0);
	assert_write(h, "X/M/cgroup.threads", "3", 0);
	assert_read(h, "X/cgroup.threads", "P.1\n");
	assert_read(h, "X/M/cgroup.threads", "P.3\n");
	assert_read(h, "X/M/N/cgroup.threads", "P.2\n");
	/* The thread root's cgroup.procs holds every process of the subtree. */
	assert_read(h, "X/cgroup.procs", "P\n");
	assert_read(h, "X/M/N/cgroup.events", "populated 1\nfrozen 0\n");
	assert_rmdir(h, "X/M/N", -EBUSY);
	assert_rmdir(h, "X/M", -EBUSY);
	cgt_end(h);
}

Test(cg_rfc2017, enable_on_root_is_allowed)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.threads", "enable", 0);
	assert_read(h, "cgroup.threads", "P.1\nP.2\n");
	assert_mkdir(h, "M", 0);
	assert_write(h, "M/cgroup.threads", "P.2", 0);
	assert_read(h, "M/cgroup.threads", "P.2\n");
	assert_read_err(h, "M/cgroup.procs", -EINVAL);
	assert_read(h, "cgroup.procs", "P\n");
	cgt_end(h);
}

Test(cg_rfc2017, enable_with_child_cgroup_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "X", 0);
	assert_mkdir(h, "X/C", 0);
	assert_write(h, "X/cgroup.threads", "enable", -EBUSY);
	assert_read_err(h, "X/cgroup.threads", -EINVAL);
	assert_rmdir(h, "X/C", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_read(h, "X/cgroup.threads", "");
	cgt_end(h);
}

Test(cg_rfc2017, enable_with_controllers_enabled_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "X/cgroup.threads", "enable", -EBUSY);
	/* The root too, once it has controllers enabled. */
	assert_write(h, "cgroup.threads", "enable", -EBUSY);
	assert_write(h, "X/cgroup.subtree_control", "-cpu", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	cgt_end(h);
}

Test(cg_rfc2017, enable_in_thread_mode_is_noop)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	/* Already in thread mode: 0, although X now has a child. */
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_write(h, "X/M/cgroup.threads", "enable", 0);
	/* M stayed a member: disable on it is EINVAL, and its procs unreadable. */
	assert_write(h, "X/M/cgroup.threads", "disable", -EINVAL);
	assert_read_err(h, "X/M/cgroup.procs", -EINVAL);
	cgt_end(h);
}

Test(cg_rfc2017, disable_outside_thread_mode_is_noop)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.threads", "disable", 0);
	assert_write(h, "cgroup.threads", "disable", 0);
	assert_read_err(h, "A/cgroup.threads", -EINVAL);
	cgt_end(h);
}

Test(cg_rfc2017, disable_on_member_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_write(h, "X/M/cgroup.threads", "disable", -EINVAL);
	assert_read(h, "X/M/cgroup.threads", "");
	cgt_end(h);
}

Test(cg_rfc2017, disable_on_thread_root_with_children_or_controllers_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.procs", "P", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_write(h, "X/cgroup.threads", "disable", -EBUSY);
	assert_rmdir(h, "X/M", 0);
	assert_write(h, "X/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "X/cgroup.threads", "disable", -EBUSY);
	assert_write(h, "X/cgroup.subtree_control", "-cpu", 0);
	/* No children, no controllers: back to a plain domain, processes kept. */
	assert_write(h, "X/cgroup.threads", "disable", 0);
	assert_read_err(h, "X/cgroup.threads", -EINVAL);
	assert_read(h, "X/cgroup.procs", "P\n");
	/* And a child made now is a domain again: its cgroup.procs reads. */
	assert_mkdir(h, "X/D", 0);
	assert_read(h, "X/D/cgroup.procs", "");
	cgt_end(h);
}

Test(cg_rfc2017, threads_write_other_value_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "X", 0);
	/* Not a keyword, not a tid (nor name-shaped), and X is not in thread mode. */
	assert_write(h, "X/cgroup.threads", "1abc", -EINVAL);
	assert_write(h, "X/cgroup.threads", "", -EINVAL);
	assert_read_err(h, "X/cgroup.threads", -EINVAL);
	cgt_end(h);
}

/* ---- migration ---- */

Test(cg_rfc2017, procs_write_to_member_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_write(h, "X/M/cgroup.procs", "P", -EINVAL);
	assert_thread_in(h, "P.1", "");
	cgt_end(h);
}

Test(cg_rfc2017, procs_write_to_thread_root_moves_whole_process)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 3, 1);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_write(h, "X/cgroup.procs", "P.2", 0);
	assert_read(h, "X/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_write(h, "X/M/cgroup.threads", "P.3", 0);
	/* Written again, the whole process gathers in the thread root. */
	assert_write(h, "X/cgroup.procs", "P", 0);
	assert_read(h, "X/cgroup.threads", "P.1\nP.2\nP.3\n");
	assert_read(h, "X/M/cgroup.threads", "");
	/* And out of the subtree, to a domain. */
	assert_mkdir(h, "D", 0);
	assert_write(h, "D/cgroup.procs", "P", 0);
	assert_read(h, "D/cgroup.procs", "P\n");
	assert_read(h, "X/cgroup.threads", "");
	cgt_end(h);
}

Test(cg_rfc2017, procs_write_to_domain_with_controllers_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	/* The no-internal-process rule of v2 domains. */
	assert_write(h, "A/cgroup.procs", "P", -EBUSY);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	cgt_end(h);
}

Test(cg_rfc2017, threads_write_to_cgroup_not_in_thread_mode_is_einval)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.threads", "P.2", -EINVAL);
	/* Also for a thread that sits in a threaded subtree: the destination is checked. */
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_write(h, "X/cgroup.procs", "P", 0);
	assert_write(h, "A/cgroup.threads", "P.2", -EINVAL);
	assert_thread_in(h, "P.2", "X");
	cgt_end(h);
}

Test(cg_rfc2017, threads_write_from_outside_the_subtree_is_eopnotsupp)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "Q", 2, 3);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	assert_mkdir(h, "Y", 0);
	assert_write(h, "Y/cgroup.threads", "enable", 0);
	/* P is in no threaded subtree. */
	assert_write(h, "X/cgroup.threads", "P.2", -EOPNOTSUPP);
	assert_write(h, "X/M/cgroup.threads", "P.2", -EOPNOTSUPP);
	/* Q is in another one. */
	assert_write(h, "Y/cgroup.procs", "Q", 0);
	assert_write(h, "X/M/cgroup.threads", "Q.2", -EOPNOTSUPP);
	assert_write(h, "X/cgroup.threads", "4", -EOPNOTSUPP);
	assert_thread_in(h, "Q.2", "Y");
	assert_thread_in(h, "P.2", "");
	cgt_end(h);
}

Test(cg_rfc2017, threads_write_bad_or_unknown_tid)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 1, 1);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_write(h, "X/cgroup.procs", "P", 0);
	assert_mkdir(h, "X/M", 0);
	assert_write(h, "X/M/cgroup.threads", "-1", -EINVAL);
	assert_write(h, "X/M/cgroup.threads", "99", -ESRCH);
	assert_write(h, "X/M/cgroup.threads", "1", 0);
	cgt_end(h);
}

/* ---- controllers in thread mode ---- */

Test(cg_rfc2017, domain_controller_on_thread_root_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_read(h, "X/cgroup.controllers", "memory\n");
	/* Offered, but a domain controller cannot be enabled in thread mode. */
	assert_write(h, "X/cgroup.subtree_control", "+memory", -EBUSY);
	assert_read(h, "X/cgroup.subtree_control", "");
	cgt_end(h);
}

Test(cg_rfc2017, domain_controller_on_root_thread_root_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_write(h, "cgroup.threads", "enable", 0);
	assert_write(h, "cgroup.subtree_control", "+memory", -EBUSY);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_read(h, "cgroup.subtree_control", "cpu\n");
	cgt_end(h);
}

Test(cg_rfc2017, domain_controller_not_offered_is_enoent_first)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	/* The root does not pass memory down to X. */
	assert_write(h, "X/cgroup.subtree_control", "+memory", -ENOENT);
	assert_write(h, "X/cgroup.subtree_control", "+cpu +pids", -ENOENT);
	cgt_end(h);
}

Test(cg_rfc2017, member_is_offered_threaded_controllers_of_parent_only)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_write(h, "cgroup.subtree_control", "+cpu +pids +memory", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_write(h, "X/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X/M", 0);
	assert_read(h, "X/M/cgroup.controllers", "cpu\n");
	/* Not offered -> ENOENT before the thread-mode EBUSY. */
	assert_write(h, "X/M/cgroup.subtree_control", "+memory", -ENOENT);
	assert_write(h, "X/M/cgroup.subtree_control", "+pids", -ENOENT);
	assert_write(h, "X/M/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X/M/N", 0);
	assert_read(h, "X/M/N/cgroup.controllers", "cpu\n");
	assert_read(h, "X/M/N/cpu.weight", "100\n");
	cgt_end(h);
}

Test(cg_rfc2017, threaded_controller_on_populated_thread_root_is_allowed)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "X", 0);
	assert_write(h, "X/cgroup.procs", "P", 0);
	assert_write(h, "X/cgroup.threads", "enable", 0);
	assert_mkdir(h, "X/M", 0);
	/* A threaded subtree is exempt from the no-internal-process rule. */
	assert_write(h, "X/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "X/M/cgroup.threads", "P.2", 0);
	cr_assert_eq(cg_thread_tg(h, 1), cgt_id(h, "X"));
	cr_assert_eq(cg_thread_tg(h, 2), cgt_id(h, "X/M"));
	cgt_end(h);
}

/* ---- the layouts of the 2017 discussion ---- */

Test(cg_rfc2017, zijlstra_layout_root_thread_mode_with_vm_group_is_ebusy)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	/* App threads in the root, a VM process in group vm. */
	assert_proc(h, "app", 4, 1);
	assert_proc(h, "qemu", 2, 5);
	assert_mkdir(h, "vm", 0);
	assert_write(h, "vm/cgroup.procs", "qemu", 0);
	/* The root has a child cgroup: it cannot become a thread root. */
	assert_write(h, "cgroup.threads", "enable", -EBUSY);
	assert_read_err(h, "cgroup.threads", -EINVAL);
	cgt_end(h);
}

Test(cg_rfc2017, heo_layout_interposed_thread_root_works)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_proc(h, "app", 4, 1);
	assert_proc(h, "qemu", 2, 5);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "vm", 0);
	assert_mkdir(h, "C", 0);
	assert_write(h, "vm/cgroup.procs", "qemu", 0);
	assert_write(h, "C/cgroup.threads", "enable", 0);
	assert_write(h, "C/cgroup.procs", "app", 0);
	assert_write(h, "C/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "C/w", 0);
	assert_write(h, "C/w/cgroup.threads", "app.2", 0);
	assert_write(h, "C/w/cgroup.threads", "app.3", 0);
	assert_read(h, "C/w/cgroup.threads", "app.2\napp.3\n");
	assert_read(h, "C/cgroup.threads", "app.1\napp.4\n");
	assert_read(h, "C/cgroup.procs", "app\n");
	/* A thread root with controllers still takes processes (no internal-process rule). */
	assert_proc(h, "tool", 1, 7);
	assert_write(h, "C/cgroup.procs", "tool", 0);
	assert_read(h, "C/cgroup.procs", "app\ntool\n");
	assert_write(h, "vm/cgroup.threads", "qemu.2", -EINVAL);
	cgt_end(h);
}
