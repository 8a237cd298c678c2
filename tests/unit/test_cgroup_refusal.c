// SPDX-License-Identifier: MIT
/*
 * Unit tests of cg_refusal(): every refused operation names the rule that refused it.
 *
 * Which check answers, and with which errno, comes from the kernel functions named in the
 * comments (docs/cgroup-model.md's "Rules and their order"); the tests assert that the rule
 * reported is the one those functions apply, and that a success clears it.
 */
#include <ctype.h>

#include "tests/unit/cg_test_util.h"

TestSuite(cg_refusal, .fini = cgt_fini);

/* Expect @op (an operation on @h) to return @want, refused by rule @rule. */
#define assert_refused(h, op, want, rule)                                                     \
	do {                                                                                  \
		int got_ = (op);                                                              \
		cr_assert_eq(got_, want, "%s: got %s, want %s", #op, cgt_err(got_),            \
			     cgt_err(want));                                                  \
		cr_assert_eq(cg_refusal(h), rule, "%s: rule %s, want %s", #op,                 \
			     cg_rule_id(cg_refusal(h)), cg_rule_id(rule));                     \
	} while (0)

/* Expect errno @want from writing @value to @path, refused by rule @rule. */
#define assert_refused_write(h, path, value, want, rule)                                      \
	assert_refused(h, cg_write(h, path, value), want, rule)

Test(cg_refusal, every_rule_has_a_distinct_id_and_a_sentence)
{
	for (int a = 0; a < CG_RULE_COUNT; a++) {
		const char *id = cg_rule_id((enum cg_rule)a), *text = cg_rule_text((enum cg_rule)a);
		size_t n = strlen(text);

		cr_assert(*id, "rule %d has no id", a);
		for (const char *p = id; *p; p++)
			cr_assert(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-',
				  "id '%s': lower case, digits and '-' only", id);
		cr_assert(n > 0 && text[n - 1] != '.', "rule %s: a sentence without its full stop",
			  id);
		for (int b = 0; b < a; b++)
			cr_assert_str_neq(id, cg_rule_id((enum cg_rule)b), "id '%s' used twice", id);
	}
	cr_assert_str_eq(cg_rule_id(CG_RULE_COUNT), "?");
	cr_assert_str_eq(cg_rule_text((enum cg_rule)-1), "?");
}

Test(cg_refusal, no_internal_processes_refuses_both_ways_in)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	cr_assert_eq(cg_proc_new(h, "p", 1), 1);
	cr_assert_eq(cg_proc_new(h, "q", 1), 2);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_write(h, "A/cgroup.procs", "1", 0);
	/* cgroup_vet_subtree_control_enable(): a domain controller with tasks here -> EBUSY */
	assert_refused_write(h, "A/cgroup.subtree_control", "+memory", -EBUSY,
			     CG_RULE_NO_INTERNAL_PROCESSES);
	assert_write(h, "A/cgroup.procs", "2", 0);
	assert_write(h, "cgroup.procs", "1", 0);
	assert_write(h, "cgroup.procs", "2", 0);
	assert_write(h, "A/cgroup.subtree_control", "+memory", 0);
	/* cgroup_migrate_vet_dst(): subtree_control non-empty -> EBUSY, the same rule */
	assert_refused_write(h, "A/cgroup.procs", "1", -EBUSY, CG_RULE_NO_INTERNAL_PROCESSES);
	cgt_end(h);
}

Test(cg_refusal, a_success_clears_the_refusal)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_refused_write(h, "nowhere/cgroup.procs", "1", -ENOENT, CG_RULE_NO_SUCH_CGROUP);
	assert_mkdir(h, "A", 0);
	cr_assert_eq(cg_refusal(h), CG_RULE_NONE);
	cgt_end(h);
}

Test(cg_refusal, thread_moves_stay_in_their_domain)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	cr_assert_eq(cg_proc_new(h, "p", 2), 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "B", 0);
	assert_write(h, "A/cgroup.procs", "1", 0);
	/* __cgroup_procs_write() -> cgroup_attach_permissions(): other dom_cgrp -> EOPNOTSUPP */
	assert_refused_write(h, "B/cgroup.threads", "2", -EOPNOTSUPP, CG_RULE_THREAD_DOMAIN);
	/* cgroup_procs_write_start(): kstrtoint fails -> EINVAL; no such pid -> ESRCH */
	assert_refused_write(h, "B/cgroup.procs", "1x", -EINVAL, CG_RULE_PID_SYNTAX);
	assert_refused_write(h, "B/cgroup.procs", "99", -ESRCH, CG_RULE_NO_SUCH_TASK);
	cgt_end(h);
}

Test(cg_refusal, mkdir_names_the_limit_that_is_reached)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.max.depth", "1", 0);
	assert_mkdir(h, "A/B", 0);
	/* cgroup_check_hierarchy_limits(): A's depth limit, then its descendants limit */
	assert_refused(h, cg_mkdir(h, "A/B/C"), -EAGAIN, CG_RULE_MAX_DEPTH);
	assert_write(h, "A/cgroup.max.depth", "max", 0);
	assert_write(h, "A/cgroup.max.descendants", "1", 0);
	assert_refused(h, cg_mkdir(h, "A/B/C"), -EAGAIN, CG_RULE_MAX_DESCENDANTS);
	assert_refused(h, cg_mkdir(h, "A"), -EEXIST, CG_RULE_NAME_EXISTS);
	assert_refused(h, cg_mkdir(h, "cgroup.procs"), -EEXIST, CG_RULE_NAME_EXISTS);
	cgt_end(h);
}

Test(cg_refusal, rmdir_names_what_is_left)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	cr_assert_eq(cg_proc_new(h, "p", 1), 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.procs", "1", 0);
	/* cgroup_destroy_locked(): populated first, then children; the root is the mount */
	assert_refused(h, cg_rmdir(h, "A"), -EBUSY, CG_RULE_RMDIR_POPULATED);
	assert_write(h, "cgroup.procs", "1", 0);
	assert_refused(h, cg_rmdir(h, "A"), -EBUSY, CG_RULE_RMDIR_CHILDREN);
	assert_refused(h, cg_rmdir(h, ""), -EBUSY, CG_RULE_RMDIR_ROOT);
	assert_refused(h, cg_rmdir(h, "A/cgroup.procs/x"), -ENOTDIR, CG_RULE_NOT_A_DIRECTORY);
	cgt_end(h);
}

Test(cg_refusal, a_missing_file_says_why_it_is_missing)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	/* the cpu css exists only where the parent enables cpu */
	assert_refused_write(h, "A/cpu.weight", "50", -ENOENT, CG_RULE_NO_CPU_CSS);
	assert_refused_write(h, "A/cpuset.cpus", "0", -ENOENT, CG_RULE_NO_CPUSET_CSS);
	assert_refused_write(h, "A/cpu.wieght", "50", -ENOENT, CG_RULE_NO_SUCH_FILE);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	/* CFTYPE_NOT_ON_ROOT */
	assert_refused_write(h, "cpu.weight", "50", -ENOENT, CG_RULE_ROOT_HAS_NO_FILE);
	assert_refused_write(h, "A/cgroup.events", "1", -EINVAL, CG_RULE_NOT_WRITABLE);
	assert_refused_write(h, "A", "1", -EISDIR, CG_RULE_IS_A_DIRECTORY);
	cgt_end(h);
}

Test(cg_refusal, cpu_values_name_their_range)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	/* cpu_weight_write_u64(): kstrtoull's EINVAL and the range's ERANGE, one rule */
	assert_refused_write(h, "A/cpu.weight", "0", -ERANGE, CG_RULE_WEIGHT_RANGE);
	assert_refused_write(h, "A/cpu.weight", "-1", -EINVAL, CG_RULE_WEIGHT_RANGE);
	assert_refused_write(h, "A/cpu.weight.nice", "20", -ERANGE, CG_RULE_WEIGHT_NICE_RANGE);
	/* tg_set_bandwidth(): each bound its own rule */
	assert_refused_write(h, "A/cpu.max", "999 100000", -EINVAL, CG_RULE_BANDWIDTH_MIN);
	assert_refused_write(h, "A/cpu.max", "1000 1000001", -EINVAL, CG_RULE_PERIOD_MAX);
	assert_refused_write(h, "A/cpu.max", "lots", -EINVAL, CG_RULE_CPU_MAX_SYNTAX);
	assert_write(h, "A/cpu.max", "5000 100000", 0);
	assert_refused_write(h, "A/cpu.max.burst", "6000", -EINVAL, CG_RULE_BURST_RANGE);
	/* sched_group_set_idle() then sched_group_set_shares() refusing while idle */
	assert_refused_write(h, "A/cpu.idle", "2", -EINVAL, CG_RULE_IDLE_VALUE);
	assert_write(h, "A/cpu.idle", "1", 0);
	assert_refused_write(h, "A/cpu.weight", "50", -EINVAL, CG_RULE_WEIGHT_IDLE);
	cgt_end(h);
}

Test(cg_refusal, v1_quota_may_not_exceed_the_parents)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpu.cfs_quota_us", "50000", 0);
	/* tg_cfs_schedulable_down(): B's ratio 0.6 above A's 0.5 */
	assert_refused_write(h, "A/B/cpu.cfs_quota_us", "60000", -EINVAL,
			     CG_RULE_V1_HIERARCHICAL_QUOTA);
	assert_refused_write(h, "cpu.shares", "2048", -EINVAL, CG_RULE_ROOT_CPU);
	cgt_end(h);
}

Test(cg_refusal, rfc2017_rules_are_its_own)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	cr_assert_eq(cg_proc_new(h, "p", 1), 1);
	assert_write(h, "cgroup.subtree_control", "+memory", 0);
	assert_mkdir(h, "T", 0);
	assert_write(h, "T/cgroup.threads", "enable", 0);
	assert_mkdir(h, "T/M", 0);
	/* a whole process enters the subtree at its thread root only */
	assert_refused_write(h, "T/M/cgroup.procs", "1", -EINVAL, CG_RULE_RFC_PROCS_MEMBER);
	assert_refused_write(h, "T/cgroup.threads", "disable", -EBUSY,
			     CG_RULE_RFC_THREAD_ROOT_BUSY);
	assert_refused_write(h, "T/cgroup.subtree_control", "+memory", -EBUSY,
			     CG_RULE_RFC_THREADED_DOMAIN_CONTROLLER);
	cgt_end(h);
}

Test(cg_refusal, process_creation_names_its_rule)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_refused(h, cg_proc_new(h, "9lives", 1), -EINVAL, CG_RULE_PROC_NAME);
	assert_refused(h, cg_proc_new(h, "p", 0), -EINVAL, CG_RULE_PROC_THREADS);
	cr_assert_eq(cg_proc_new(h, "p", 1), 1);
	assert_refused(h, cg_proc_new(h, "p", 1), -EEXIST, CG_RULE_PROC_EXISTS);
	assert_refused(h, cg_set_root_controllers(h, CG_MASK(CG_CTRL_CPU)), -EBUSY,
		       CG_RULE_ROOT_CONTROLLERS_FIXED);
	cgt_end(h);
}

/* docs/cgroup-model.md's table lists every rule a message can name (run from the top). */
Test(cg_refusal, every_rule_is_in_the_docs)
{
	FILE *f = fopen("docs/cgroup-model.md", "r");
	static char doc[1 << 16];
	size_t n;

	cr_assert_not_null(f, "docs/cgroup-model.md (tests run from the top of the tree)");
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
	for (int a = 1; a < CG_RULE_COUNT; a++) {
		char quoted[80];

		snprintf(quoted, sizeof(quoted), "`%s`", cg_rule_id((enum cg_rule)a));
		cr_expect_not_null(strstr(doc, quoted), "rule %s is not in docs/cgroup-model.md",
				   quoted);
	}
}

/*
 * A misspelt interface file gets the one meant: two edits at most (a swap of neighbours is
 * one), or the same setting under this rule set's name; nothing for a file that exists or
 * for a name nothing is close to.
 */
Test(cg_refusal, a_misspelt_file_gets_the_one_meant)
{
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V2, "cpu.wieght"), "cpu.weight");
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V2, "cgroup.tpye"), "cgroup.type");
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V2, "cgroup.thread"), "cgroup.threads");
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V2, "cpu.shares"), "cpu.weight");
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V1, "cpu.weight"), "cpu.shares");
	cr_expect_str_eq(cg_file_suggest(CG_SEM_V1, "cgroup.threads"), "tasks");
	cr_expect_null(cg_file_suggest(CG_SEM_V2, "cpu.weight"));
	cr_expect_null(cg_file_suggest(CG_SEM_V2, "memory.max"));
	cr_expect_null(cg_file_suggest(CG_SEM_V2, "io"));
}
