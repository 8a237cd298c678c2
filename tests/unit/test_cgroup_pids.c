// SPDX-License-Identifier: MIT
/*
 * Unit tests of the pids controller's files in the cgroup model (cgroup v2).
 *
 * The rules, from kernel/cgroup/pids.c (6.12+), checked on Linux 6.12 under QEMU with
 * tests/cgroupfs/v2/vm-pids.cgs:
 *  - pids_files are CFTYPE_NOT_ON_ROOT and exist where the parent enables pids; pids is a
 *    threaded controller (pids_cgrp_subsys.threaded), so threaded cgroups have them too.
 *  - pids_css_alloc: a new css has limit PIDS_MAX, shown as "max".
 *  - pids_max_write: strstrip; "max", else kstrtoll(base 0): not a number -> EINVAL, beyond 64
 *    bits -> ERANGE; then limit < 0 or >= PIDS_MAX (PID_MAX_LIMIT + 1 = 4194305 on 64-bit)
 *    -> EINVAL.
 *  - pids_current_read: a task is charged to its css and every ancestor's (pids_charge,
 *    pids_can_attach), so pids.current counts the tasks of the subtree.
 *  - pids.events, pids.events.local: "max N", N the forks the limit refused.
 * Every expected value below is derived from these rules by hand.
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cgroup_pids, .fini = cgt_fini);

Test(cgroup_pids, files_where_the_parent_enables_pids)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_read_err(h, "pids.max", -ENOENT);	/* not on the root */
	assert_read_err(h, "A/pids.max", -ENOENT);	/* no css yet */
	assert_write(h, "cgroup.subtree_control", "+pids", 0);
	assert_read(h, "A/pids.max", "max\n");
	assert_read(h, "A/pids.current", "0\n");
	assert_read(h, "A/pids.events", "max 0\n");
	assert_read(h, "A/pids.events.local", "max 0\n");
	assert_write(h, "A/pids.current", "1", -EINVAL);	/* no write handler */
	assert_read_err(h, "pids.current", -ENOENT);
	cgt_end(h);
}

Test(cgroup_pids, max_values)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+pids", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/pids.max", "4194304", 0);
	assert_read(h, "A/pids.max", "4194304\n");
	assert_write(h, "A/pids.max", "4194305", -EINVAL);
	assert_write(h, "A/pids.max", "-1", -EINVAL);
	assert_write(h, "A/pids.max", "99999999999999999999", -ERANGE);
	assert_write(h, "A/pids.max", "abc", -EINVAL);
	assert_write(h, "A/pids.max", "", -EINVAL);
	assert_read(h, "A/pids.max", "4194304\n");	/* refused writes change nothing */
	assert_write(h, "A/pids.max", " 0x10 \n", 0);
	assert_read(h, "A/pids.max", "16\n");
	assert_write(h, "A/pids.max", "0", 0);
	assert_read(h, "A/pids.max", "0\n");
	assert_write(h, "A/pids.max", "max", 0);
	assert_read(h, "A/pids.max", "max\n");
	cgt_end(h);
}

Test(cgroup_pids, a_new_css_has_no_limit)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+pids", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/pids.max", "5", 0);
	assert_write(h, "cgroup.subtree_control", "-pids", 0);
	assert_read_err(h, "A/pids.max", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+pids", 0);
	assert_read(h, "A/pids.max", "max\n");
	cgt_end(h);
}

Test(cgroup_pids, current_counts_the_subtree_threaded_cgroups_included)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_proc(h, "P", 3, 1);
	assert_proc(h, "Q", 1, 4);
	assert_write(h, "cgroup.subtree_control", "+pids", 0);
	assert_mkdir(h, "R", 0);
	assert_mkdir(h, "R/T", 0);
	assert_write(h, "R/cgroup.subtree_control", "+pids", 0);
	assert_write(h, "R/T/cgroup.type", "threaded", 0);
	assert_write(h, "R/cgroup.procs", "P", 0);
	assert_write(h, "R/T/cgroup.threads", "P.2", 0);
	assert_read(h, "R/pids.current", "3\n");
	assert_read(h, "R/T/pids.current", "1\n");
	/* a domain invalid cgroup below T, without tasks, with a css once T enables pids */
	assert_write(h, "R/T/cgroup.subtree_control", "+pids", 0);
	assert_mkdir(h, "R/T/D", 0);
	assert_read(h, "R/T/D/pids.current", "0\n");
	assert_read(h, "R/T/D/pids.max", "max\n");
	assert_write(h, "R/cgroup.kill", "1", 0);
	assert_read(h, "R/pids.current", "0\n");
	assert_read(h, "R/T/pids.current", "0\n");
	cgt_end(h);
}

Test(cgroup_pids, none_on_v1)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_read_err(h, "A/pids.max", -ENOENT);
	cgt_end(h);
}
