// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cpuset controller's CPUs in the cgroup model (cgroup v2).
 *
 * The rules, from kernel/cgroup/cpuset.c (6.12 .. 6.19) and lib/bitmap-str.c:
 *  - dfl_files: cpuset.cpus is CFTYPE_NOT_ON_ROOT, cpuset.cpus.effective is on every cgroup with
 *    a cpuset css, the root included; a child has a css iff cpuset is in its parent's
 *    subtree_control (cpuset is threaded: threaded cgroups have one too).
 *  - cpuset_css_online: a new css requests nothing and has its parent's effective set.
 *  - update_cpumasks_hier: effective = requested & parent's effective; if that is empty, the
 *    parent's effective set; recomputed down the subtree on every change.
 *  - cpuset_write_resmask/update_cpumask: the value is stripped; "" requests nothing; else
 *    cpulist_parse() = bitmap_parselist(buf, mask, nr_cpu_ids): malformed -> EINVAL, a CPU
 *    >= nr_cpu_ids -> ERANGE, a number above UINT_MAX -> EOVERFLOW, leftmost bad region first;
 *    an unchanged request is a no-op; validate_change: a populated cgroup cannot go from a
 *    non-empty request to an empty one -> ENOSPC (until 7.0).
 *  - cpuset_common_seq_show: "%*pbl\n": ranges "A-B" and single CPUs, ascending, commas.
 * Every expected value below is derived from these rules by hand. The machine has
 * CG_NR_CPUS_DEFAULT (8) CPUs unless a test says otherwise.
 */
#include "tests/unit/cg_test_util.h"

#include <stdarg.h>

TestSuite(cgroup_cpuset, .fini = cgt_fini);

#define W CG_CPUMASK_WORDS

/* A mask from a list of CPUs ending in -1 (built by hand, not by the model). */
static void mk(uint64_t *m, ...)
{
	va_list ap;
	int c;

	memset(m, 0, W * sizeof(*m));
	va_start(ap, m);
	while ((c = va_arg(ap, int)) >= 0)
		m[c / 64] |= 1ULL << (c % 64);
	va_end(ap);
}

/* CPUs lo .. hi */
static void mk_range(uint64_t *m, int lo, int hi)
{
	memset(m, 0, W * sizeof(*m));
	for (int c = lo; c <= hi; c++)
		m[c / 64] |= 1ULL << (c % 64);
}

static void assert_mask_eq(const uint64_t *got, const uint64_t *want, const char *what)
{
	for (int i = 0; i < W; i++)
		cr_assert_eq(got[i], want[i], "%s: word %d is %#llx, want %#llx", what, i,
			     (unsigned long long)got[i], (unsigned long long)want[i]);
}

static void assert_thread_cpus(struct cg_hier *h, const char *name, const uint64_t *want)
{
	uint64_t got[W];
	int rc = cg_thread_cpus(h, cgt_tid(h, name), got, W);

	cr_assert_eq(rc, 0, "cg_thread_cpus %s: %s", name, cgt_err(rc));
	assert_mask_eq(got, want, name);
}

static void assert_cg_cpus(struct cg_hier *h, const char *path, const uint64_t *want)
{
	uint64_t got[W];
	int rc = cg_cpuset_effective(h, cgt_id(h, path), got, W);

	cr_assert_eq(rc, 0, "cg_cpuset_effective %s: %s", path, cgt_err(rc));
	assert_mask_eq(got, want, path);
}

/* A v2 hierarchy with cpuset enabled at the root. */
static struct cg_hier *with_cpuset(void)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
	return h;
}

/* ---- the machine ------------------------------------------------------------------------- */

Test(cgroup_cpuset, default_machine_and_root)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	uint64_t want[W];

	cr_assert_eq(cg_nr_cpus(h), CG_NR_CPUS_DEFAULT);
	cr_assert_eq(CG_NR_CPUS_DEFAULT, 8);
	assert_read(h, "cpuset.cpus.effective", "0-7\n");
	/* cpuset.cpus is CFTYPE_NOT_ON_ROOT */
	assert_read_err(h, "cpuset.cpus", -ENOENT);
	assert_write(h, "cpuset.cpus", "0", -ENOENT);
	/* cpuset.cpus.effective has no write handler: cgroup_file_write() -> EINVAL */
	assert_write(h, "cpuset.cpus.effective", "0", -EINVAL);
	mk_range(want, 0, 7);
	assert_cg_cpus(h, ".", want);
	cgt_end(h);
}

Test(cgroup_cpuset, set_nr_cpus_range)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	cr_assert_eq(cg_set_nr_cpus(h, 0), -EINVAL);
	cr_assert_eq(cg_set_nr_cpus(h, -1), -EINVAL);
	cr_assert_eq(cg_set_nr_cpus(h, CG_NR_CPUS_MAX + 1), -EINVAL);
	cr_assert_eq(cg_nr_cpus(h), 8, "a refused size changes nothing");
	cr_assert_eq(cg_set_nr_cpus(h, 1), 0);
	assert_read(h, "cpuset.cpus.effective", "0\n");
	cr_assert_eq(cg_set_nr_cpus(h, 2), 0);
	assert_read(h, "cpuset.cpus.effective", "0-1\n");
	cr_assert_eq(cg_set_nr_cpus(h, 65), 0);
	assert_read(h, "cpuset.cpus.effective", "0-64\n");
	cr_assert_eq(cg_set_nr_cpus(h, CG_NR_CPUS_MAX), 0);
	assert_read(h, "cpuset.cpus.effective", "0-1023\n");
	cgt_end(h);
}

/*
 * update_nodemask() on one memory node: nodelist_parse() with MAX_NUMNODES = 1024 bits (ERANGE
 * at 1024), a node without memory EINVAL, validate_change()'s ENOSPC for a populated cgroup.
 */
Test(cgroup_cpuset, mems_write)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A", 0);
	assert_proc(h, "P", 1, 1);
	assert_write(h, "A/cpuset.mems", "1", -EINVAL);
	cr_assert_eq(cg_refusal(h), CG_RULE_MEMS_NODE);
	assert_write(h, "A/cpuset.mems", "1023", -EINVAL);
	assert_write(h, "A/cpuset.mems", "1024", -ERANGE);
	cr_assert_eq(cg_refusal(h), CG_RULE_NODELIST_SYNTAX);
	assert_write(h, "A/cpuset.mems", "x", -EINVAL);
	cr_assert_eq(cg_refusal(h), CG_RULE_NODELIST_SYNTAX);
	assert_write(h, "A/cpuset.mems", " 0-0\n", 0);
	assert_read(h, "A/cpuset.mems", "0\n");
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/cpuset.mems", "", -ENOSPC);
	cr_assert_eq(cg_refusal(h), CG_RULE_MEMS_EMPTY);
	assert_write(h, "A/cpuset.mems", "0", 0);
	assert_write(h, "cgroup.procs", "P", 0);
	assert_write(h, "A/cpuset.mems", "", 0);
	assert_read(h, "A/cpuset.mems", "\n");
	assert_read(h, "A/cpuset.mems.effective", "0\n");
	cgt_end(h);
}

/*
 * sched_partition_write() and update_exclusive_cpumask() keep the defaults (member, no exclusive
 * CPU) or refuse: bad words EINVAL, bad lists as cpuset.cpus; what would leave the defaults is
 * not modelled and says so (ENOSYS, not-modelled) rather than guess.
 */
Test(cgroup_cpuset, partition_and_exclusive_writes)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus.partition", " member\n", 0);
	assert_write(h, "A/cpuset.cpus.partition", "Member", -EINVAL);
	cr_assert_eq(cg_refusal(h), CG_RULE_PARTITION_VALUE);
	assert_write(h, "A/cpuset.cpus.partition", "root", -ENOSYS);
	cr_assert_eq(cg_refusal(h), CG_RULE_NOT_MODELLED);
	assert_write(h, "A/cpuset.cpus.partition", "isolated", -ENOSYS);
	assert_read(h, "A/cpuset.cpus.partition", "member\n");
	assert_write(h, "A/cpuset.cpus.exclusive", "", 0);
	assert_write(h, "A/cpuset.cpus.exclusive", "8", -ERANGE);
	cr_assert_eq(cg_refusal(h), CG_RULE_CPULIST_SYNTAX);
	assert_write(h, "A/cpuset.cpus.exclusive", "1", -ENOSYS);
	cr_assert_eq(cg_refusal(h), CG_RULE_NOT_MODELLED);
	assert_read(h, "A/cpuset.cpus.exclusive", "\n");
	assert_write(h, "A/cpuset.cpus.exclusive.effective", "", -EINVAL);
	assert_write(h, "cpuset.cpus.isolated", "", -EINVAL);
	cgt_end(h);
}

/* ---- where the files are ----------------------------------------------------------------- */

Test(cgroup_cpuset, files_need_cpuset_in_parent)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);

	assert_mkdir(h, "A", 0);
	assert_read_err(h, "A/cpuset.cpus", -ENOENT);
	assert_read_err(h, "A/cpuset.cpus.effective", -ENOENT);
	assert_write(h, "A/cpuset.cpus", "1", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
	assert_read(h, "A/cpuset.cpus", "\n");
	assert_read(h, "A/cpuset.cpus.effective", "0-7\n");
	/* one level only: A does not enable cpuset for B */
	assert_mkdir(h, "A/B", 0);
	assert_read_err(h, "A/B/cpuset.cpus", -ENOENT);
	assert_read_err(h, "A/B/cpuset.cpus.effective", -ENOENT);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_read(h, "A/B/cpuset.cpus", "\n");
	/* the name of an existing file cannot be a cgroup */
	assert_mkdir(h, "A/cpuset.cpus", -EEXIST);
	/* memory nodes: cpuset.mems not on the root, its effective set everywhere (node 0) */
	assert_read(h, "A/cpuset.mems", "\n");
	assert_read_err(h, "cpuset.mems", -ENOENT);
	assert_read(h, "cpuset.mems.effective", "0\n");
	assert_read(h, "A/B/cpuset.mems.effective", "0\n");
	/* partitions, exclusive CPUs: the defaults, on the root or not as dfl_files says */
	assert_read(h, "A/cpuset.cpus.partition", "member\n");
	assert_read_err(h, "cpuset.cpus.partition", -ENOENT);
	assert_read(h, "A/cpuset.cpus.exclusive", "\n");
	assert_read_err(h, "cpuset.cpus.exclusive.effective", -ENOENT);
	assert_read(h, "cpuset.cpus.isolated", "\n");
	assert_read_err(h, "A/cpuset.cpus.isolated", -ENOENT);
	cr_assert_eq(cg_refusal(h), CG_RULE_ONLY_ON_ROOT);
	/* disabling takes the css and its files away */
	assert_write(h, "A/cgroup.subtree_control", "-cpuset", 0);
	assert_read_err(h, "A/B/cpuset.cpus", -ENOENT);
	cgt_end(h);
}

Test(cgroup_cpuset, cpuset_not_bound)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	uint64_t want[W];

	cr_assert_eq(cg_set_root_controllers(h, CG_MASK(CG_CTRL_HUGETLB)), 0);
	assert_read_err(h, "cpuset.cpus.effective", -ENOENT);
	assert_write(h, "cgroup.subtree_control", "+cpuset", -ENOENT);
	assert_mkdir(h, "A", 0);
	assert_proc(h, "P", 1, 1);
	assert_write(h, "A/cgroup.procs", "P", 0);
	/* no cpuset anywhere: every thread may use the whole machine */
	mk_range(want, 0, 7);
	assert_thread_cpus(h, "P.1", want);
	assert_cg_cpus(h, "A", want);
	cgt_end(h);
}

Test(cgroup_cpuset, v1_has_no_cpuset_files)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	uint64_t want[W];

	assert_mkdir(h, "A", 0);
	assert_read_err(h, "cpuset.cpus.effective", -ENOENT);
	assert_read_err(h, "A/cpuset.cpus", -ENOENT);
	assert_proc(h, "P", 1, 1);
	assert_write(h, "A/cgroup.procs", "P", 0);
	cr_assert_eq(cg_set_nr_cpus(h, 4), 0);
	mk_range(want, 0, 3);
	assert_thread_cpus(h, "P.1", want);
	cgt_end(h);
}

/* ---- effective sets ---------------------------------------------------------------------- */

Test(cgroup_cpuset, new_css_inherits)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus", "2-5", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	/* a css made by mkdir and one made by +cpuset both start from the parent's set */
	assert_mkdir(h, "A/B", 0);
	assert_read(h, "A/B/cpuset.cpus", "\n");
	assert_read(h, "A/B/cpuset.cpus.effective", "2-5\n");
	assert_mkdir(h, "C", 0);
	assert_mkdir(h, "C/D", 0);
	assert_write(h, "C/cpuset.cpus", "7", 0);
	assert_write(h, "C/cgroup.subtree_control", "+cpuset", 0);
	assert_read(h, "C/D/cpuset.cpus.effective", "7\n");
	cgt_end(h);
}

Test(cgroup_cpuset, intersection_with_parent)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpuset.cpus", "0-5", 0);
	assert_read(h, "A/cpuset.cpus.effective", "0-5\n");
	/* the request may name CPUs outside the parent's set; it reads back as written */
	assert_write(h, "A/B/cpuset.cpus", "4-7", 0);
	assert_read(h, "A/B/cpuset.cpus", "4-7\n");
	assert_read(h, "A/B/cpuset.cpus.effective", "4-5\n");
	cgt_end(h);
}

Test(cgroup_cpuset, empty_intersection_takes_parents)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/cpuset.cpus", "0-1", 0);
	assert_write(h, "A/B/cpuset.cpus", "4-5", 0);
	assert_read(h, "A/B/cpuset.cpus", "4-5\n");
	assert_read(h, "A/B/cpuset.cpus.effective", "0-1\n");
	cgt_end(h);
}

Test(cgroup_cpuset, parent_change_propagates)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B/C", 0);	/* a css, no request */
	assert_mkdir(h, "A/B/C/D", 0);	/* no css: follows C */
	assert_write(h, "A/cpuset.cpus", "0-3", 0);
	assert_write(h, "A/B/cpuset.cpus", "2-7", 0);
	assert_read(h, "A/B/cpuset.cpus.effective", "2-3\n");
	assert_read(h, "A/B/C/cpuset.cpus.effective", "2-3\n");
	/* A moves: B = 2-7 & 4-7 */
	assert_write(h, "A/cpuset.cpus", "4-7", 0);
	assert_read(h, "A/B/cpuset.cpus.effective", "4-7\n");
	assert_read(h, "A/B/C/cpuset.cpus.effective", "4-7\n");
	/* A shrinks to 0-1: 2-7 & 0-1 is empty, B takes A's set, C B's */
	assert_write(h, "A/cpuset.cpus", "0-1", 0);
	assert_read(h, "A/B/cpuset.cpus.effective", "0-1\n");
	assert_read(h, "A/B/C/cpuset.cpus.effective", "0-1\n");
	/* A requests nothing (',' parses to the empty set): A = root's, B = 2-7 */
	assert_write(h, "A/cpuset.cpus", ",", 0);
	assert_read(h, "A/cpuset.cpus", "\n");
	assert_read(h, "A/cpuset.cpus.effective", "0-7\n");
	assert_read(h, "A/B/cpuset.cpus.effective", "2-7\n");
	assert_read(h, "A/B/C/cpuset.cpus.effective", "2-7\n");
	{
		uint64_t want[W];

		mk_range(want, 2, 7);
		assert_cg_cpus(h, "A/B/C/D", want);
	}
	cgt_end(h);
}

Test(cgroup_cpuset, disable_falls_back_and_reenable_resets)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus", "0-3", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cpuset.cpus", "1", 0);
	assert_proc(h, "P", 1, 1);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	{
		uint64_t want[W];

		mk(want, 1, -1);
		assert_thread_cpus(h, "P.1", want);
		/* without its css B's threads follow A */
		assert_write(h, "A/cgroup.subtree_control", "-cpuset", 0);
		mk_range(want, 0, 3);
		assert_thread_cpus(h, "P.1", want);
		assert_cg_cpus(h, "A/B", want);
	}
	/* a new css: no request, A's set (the old request is gone with the old css) */
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_read(h, "A/B/cpuset.cpus", "\n");
	assert_read(h, "A/B/cpuset.cpus.effective", "0-3\n");
	cgt_end(h);
}

Test(cgroup_cpuset, nr_cpus_change_recomputes)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "B", 0);
	assert_write(h, "A/cpuset.cpus", "2-3,6-7", 0);
	assert_write(h, "B/cpuset.cpus", "6-7", 0);
	cr_assert_eq(cg_set_nr_cpus(h, 4), 0);
	/* CPUs 4.. are gone from the machine and from every request */
	assert_read(h, "cpuset.cpus.effective", "0-3\n");
	assert_read(h, "A/cpuset.cpus", "2-3\n");
	assert_read(h, "A/cpuset.cpus.effective", "2-3\n");
	assert_read(h, "B/cpuset.cpus", "\n");
	assert_read(h, "B/cpuset.cpus.effective", "0-3\n");
	assert_write(h, "A/cpuset.cpus", "4", -ERANGE);
	cr_assert_eq(cg_set_nr_cpus(h, 8), 0);
	assert_read(h, "A/cpuset.cpus.effective", "2-3\n");
	assert_read(h, "B/cpuset.cpus.effective", "0-7\n");
	cgt_end(h);
}

/* ---- the list format --------------------------------------------------------------------- */

struct fmt_case {
	const char *in, *out;
};

Test(cgroup_cpuset, list_parse_and_format)
{
	static const struct fmt_case cases[] = {
		{ "0-3,6", "0-3,6\n" },
		{ "6,0-3", "0-3,6\n" },		/* printed ascending */
		{ "1,2,3", "1-3\n" },		/* adjacent CPUs make a range */
		{ "0-1", "0-1\n" },		/* a range of two stays a range */
		{ "5", "5\n" },
		{ "3,3,3-3", "3\n" },
		{ "  3  \n", "3\n" },		/* strstrip() */
		{ "0 2", "0,2\n" },		/* white space separates regions too */
		{ ",,1,,2,", "1-2\n" },		/* empty regions are skipped */
		{ "0-7:2/4", "0-1,4-5\n" },	/* 2 of every 4 */
		{ "1-7:1/3", "1,4,7\n" },
		{ "0-7:0/4", "\n" },		/* 0 of every 4: nothing */
		{ "all", "0-7\n" },
		{ "ALL:1/2", "0,2,4,6\n" },	/* strncasecmp */
		{ "N", "7\n" },			/* the last CPU */
		{ "2-N", "2-7\n" },
		{ "007", "7\n" },		/* decimal, leading zeros */
		{ "1\n5", "1\n" },		/* a newline ends the list */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cg_hier *h = with_cpuset();

		assert_mkdir(h, "A", 0);
		assert_write(h, "A/cpuset.cpus", cases[i].in, 0);
		assert_read(h, "A/cpuset.cpus", cases[i].out);
		cgt_end(h);
	}
}

struct err_case {
	const char *in;
	int err;
};

Test(cgroup_cpuset, list_errors)
{
	static const struct err_case cases[] = {
		{ "abc", -EINVAL },
		{ "1-", -EINVAL },
		{ "-1", -EINVAL },
		{ "+1", -EINVAL },
		{ "0x1", -EINVAL },
		{ "1;2", -EINVAL },
		{ "3-1", -EINVAL },		/* start > end */
		{ "0-3:1", -EINVAL },		/* no group size */
		{ "0-3:1/0", -EINVAL },		/* group size 0 */
		{ "0-3:3/2", -EINVAL },		/* used > group */
		{ "allx", -EINVAL },
		{ "1-2x", -EINVAL },
		{ "8", -ERANGE },		/* CPU 8 on an 8-CPU machine */
		{ "0-8", -ERANGE },
		{ "4294967294", -ERANGE },	/* fits an unsigned int, beyond the machine */
		{ "4294967295", -EINVAL },	/* UINT_MAX: group size end + 1 wraps to 0 */
		{ "4294967296", -EOVERFLOW },
		{ "99999999999999999999999", -EOVERFLOW },
		{ "8,abc", -ERANGE },		/* the leftmost bad region answers */
		{ "abc,8", -EINVAL },
		{ "9-3", -EINVAL },		/* malformed before too large */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cg_hier *h = with_cpuset();

		assert_mkdir(h, "A", 0);
		assert_write(h, "A/cpuset.cpus", "1", 0);
		assert_write(h, "A/cpuset.cpus", cases[i].in, cases[i].err);
		/* a refused write changes nothing */
		assert_read(h, "A/cpuset.cpus", "1\n");
		assert_read(h, "A/cpuset.cpus.effective", "1\n");
		cgt_end(h);
	}
}

Test(cgroup_cpuset, range_follows_nr_cpus)
{
	struct cg_hier *h = with_cpuset();

	cr_assert_eq(cg_set_nr_cpus(h, 2), 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus", "2", -ERANGE);
	assert_write(h, "A/cpuset.cpus", "1", 0);
	assert_write(h, "A/cpuset.cpus", "all", 0);
	assert_read(h, "A/cpuset.cpus", "0-1\n");
	cr_assert_eq(cg_set_nr_cpus(h, 100), 0);
	assert_write(h, "A/cpuset.cpus", "99", 0);
	assert_read(h, "A/cpuset.cpus.effective", "99\n");
	assert_write(h, "A/cpuset.cpus", "100", -ERANGE);
	cgt_end(h);
}

/* validate_change(): tasks in or below the cgroup, a non-empty request, an empty one written */
Test(cgroup_cpuset, populated_cannot_clear_request)
{
	struct cg_hier *h = with_cpuset();

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_proc(h, "P", 1, 1);
	/* unpopulated: clearing is fine */
	assert_write(h, "A/cpuset.cpus", "0-1", 0);
	assert_write(h, "A/cpuset.cpus", "", 0);
	assert_read(h, "A/cpuset.cpus", "\n");
	/* populated through a descendant */
	assert_write(h, "A/cpuset.cpus", "0-1", 0);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	assert_write(h, "A/cpuset.cpus", "", -ENOSPC);
	assert_write(h, "A/cpuset.cpus", ",", -ENOSPC);
	assert_write(h, "A/cpuset.cpus", "\n", -ENOSPC);
	assert_read(h, "A/cpuset.cpus", "0-1\n");
	/* changing to another non-empty set is fine */
	assert_write(h, "A/cpuset.cpus", "3", 0);
	/* B requests nothing: writing nothing again is the "unchanged" no-op, not ENOSPC */
	assert_write(h, "A/B/cpuset.cpus", "", 0);
	/* a request that intersects nothing still counts as non-empty */
	assert_write(h, "A/B/cpuset.cpus", "5", 0);
	assert_read(h, "A/B/cpuset.cpus.effective", "3\n");
	assert_write(h, "A/B/cpuset.cpus", "", -ENOSPC);
	/* the process leaves: allowed again */
	assert_write(h, "cgroup.procs", "P", 0);
	assert_write(h, "A/B/cpuset.cpus", "", 0);
	assert_write(h, "A/cpuset.cpus", "", 0);
	cgt_end(h);
}

/* ---- thread mode ------------------------------------------------------------------------- */

Test(cgroup_cpuset, threaded_subtree)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	uint64_t want[W];

	assert_proc(h, "P", 3, 1);
	assert_write(h, "cgroup.subtree_control", "+cpuset +memory", 0);
	assert_mkdir(h, "R", 0);
	assert_write(h, "R/cgroup.procs", "P", 0);
	assert_mkdir(h, "R/T1", 0);
	assert_mkdir(h, "R/T2", 0);
	assert_write(h, "R/T1/cgroup.type", "threaded", 0);
	assert_write(h, "R/T2/cgroup.type", "threaded", 0);
	/* cpuset is threaded: a thread root with tasks may enable it */
	assert_write(h, "R/cgroup.subtree_control", "+cpuset", 0);
	assert_read(h, "R/T1/cgroup.controllers", "cpuset\n");
	assert_write(h, "R/cpuset.cpus", "0-3", 0);
	assert_write(h, "R/T1/cpuset.cpus", "1", 0);
	assert_write(h, "R/T2/cpuset.cpus", "2-5", 0);
	assert_read(h, "R/T1/cpuset.cpus.effective", "1\n");
	assert_read(h, "R/T2/cpuset.cpus.effective", "2-3\n");
	assert_write(h, "R/T1/cgroup.threads", "P.2", 0);
	assert_write(h, "R/T2/cgroup.threads", "P.3", 0);
	mk_range(want, 0, 3);
	assert_thread_cpus(h, "P.1", want);
	mk(want, 1, -1);
	assert_thread_cpus(h, "P.2", want);
	mk_range(want, 2, 3);
	assert_thread_cpus(h, "P.3", want);
	/* a threaded cgroup may pass cpuset on; the domain below it ("domain invalid") gets it */
	assert_write(h, "R/T1/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "R/T1/X", 0);
	assert_read(h, "R/T1/X/cgroup.type", "domain invalid\n");
	assert_read(h, "R/T1/X/cpuset.cpus.effective", "1\n");
	/* populated thread root: its request cannot be emptied */
	assert_write(h, "R/cpuset.cpus", "", -ENOSPC);
	/* a threaded child of the root: root's subtree_control holds a domain controller too */
	assert_mkdir(h, "U", 0);
	assert_write(h, "U/cgroup.type", "threaded", 0);
	assert_read(h, "U/cgroup.controllers", "cpuset\n");
	assert_write(h, "U/cpuset.cpus", "7", 0);
	assert_read(h, "U/cpuset.cpus.effective", "7\n");
	cgt_end(h);
}

Test(cgroup_cpuset, rfc2017_members)
{
	struct cg_hier *h = cgt_new(CG_SEM_RFC2017);

	assert_mkdir(h, "R", 0);
	assert_write(h, "R/cgroup.threads", "enable", 0);
	assert_mkdir(h, "R/M", 0);
	assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
	assert_write(h, "R/cgroup.subtree_control", "+cpuset", 0);
	assert_write(h, "R/cpuset.cpus", "4-7", 0);
	assert_write(h, "R/M/cpuset.cpus", "0-4", 0);
	assert_read(h, "R/M/cpuset.cpus.effective", "4\n");
	cgt_end(h);
}

/* ---- queries ----------------------------------------------------------------------------- */

Test(cgroup_cpuset, thread_cpus_follow_moves)
{
	struct cg_hier *h = with_cpuset();
	uint64_t want[W], got[W + 2];

	assert_proc(h, "P", 2, 1);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);	/* no css below A */
	assert_write(h, "A/cpuset.cpus", "5-6", 0);
	mk_range(want, 0, 7);
	assert_thread_cpus(h, "P.1", want);
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	mk_range(want, 5, 6);
	assert_thread_cpus(h, "P.1", want);
	assert_thread_cpus(h, "P.2", want);
	assert_write(h, "cgroup.procs", "P", 0);
	mk_range(want, 0, 7);
	assert_thread_cpus(h, "P.2", want);
	/* more words than needed: the rest are zero */
	memset(got, 0xff, sizeof(got));
	cr_assert_eq(cg_thread_cpus(h, cgt_tid(h, "P.1"), got, W + 2), 0);
	cr_assert_eq(got[0], 0xffULL);
	for (int i = 1; i < W + 2; i++)
		cr_assert_eq(got[i], 0, "word %d", i);
	/* one word holds 8 CPUs; zero words do not */
	cr_assert_eq(cg_thread_cpus(h, 1, got, 1), 0);
	cr_assert_eq(cg_thread_cpus(h, 1, got, 0), -EINVAL);
	/* unknown threads */
	cr_assert_eq(cg_thread_cpus(h, 0, got, W), -ESRCH);
	cr_assert_eq(cg_thread_cpus(h, 3, got, W), -ESRCH);
	cr_assert_eq(cg_thread_cpus(h, -1, got, W), -ESRCH);
	/* killed threads */
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/cgroup.kill", "1", 0);
	cr_assert_eq(cg_thread_cpus(h, 1, got, W), -ESRCH);
	cgt_end(h);
}

Test(cgroup_cpuset, thread_cpus_words_needed)
{
	struct cg_hier *h = with_cpuset();
	uint64_t got[W], want[W];

	assert_proc(h, "P", 1, 1);
	cr_assert_eq(cg_set_nr_cpus(h, 65), 0);
	cr_assert_eq(cg_thread_cpus(h, 1, got, 1), -EINVAL);
	cr_assert_eq(cg_cpuset_effective(h, 0, got, 1), -EINVAL);
	cr_assert_eq(cg_thread_cpus(h, 1, got, 2), 0);
	cr_assert_eq(got[0], ~0ULL);
	cr_assert_eq(got[1], 1ULL);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus", "63-64", 0);
	mk(want, 63, 64, -1);
	assert_cg_cpus(h, "A", want);
	cr_assert_eq(cg_cpuset_effective(h, 99, got, W), -ENOENT);
	assert_rmdir(h, "A", 0);
	cr_assert_eq(cg_cpuset_effective(h, 1, got, W), -ENOENT);
	cgt_end(h);
}

/* ---- the observer ------------------------------------------------------------------------ */

#define REC_MAX 64

struct rec {
	struct cg_event ev[REC_MAX];
	int n;
};

static void record(void *ctx, const struct cg_event *ev)
{
	struct rec *r = ctx;

	if (r->n < REC_MAX)
		r->ev[r->n] = *ev;
	r->n++;
}

/* The CG_EV_CPUSET events recorded are exactly for @ids (cgroup ids, -1 ends), in that order. */
static void expect_cpuset(const struct rec *r, const int *ids, const char *what)
{
	int k = 0;

	cr_assert_leq(r->n, REC_MAX, "%s: too many events", what);
	for (int i = 0; i < r->n; i++) {
		if (r->ev[i].kind != CG_EV_CPUSET)
			continue;
		cr_assert_neq(ids[k], -1, "%s: unexpected CG_EV_CPUSET for cgroup %d", what,
			      r->ev[i].cgroup);
		cr_assert_eq(r->ev[i].cgroup, ids[k], "%s: event %d for cgroup %d, want %d", what,
			     k, r->ev[i].cgroup, ids[k]);
		k++;
	}
	cr_assert_eq(ids[k], -1, "%s: no CG_EV_CPUSET for cgroup %d", what, ids[k]);
}

Test(cgroup_cpuset, observer_exactly_the_changed)
{
	struct cg_hier *h = with_cpuset();
	struct rec r = { .n = 0 };
	int a, b, c, d, e;

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);		/* css, no request */
	assert_mkdir(h, "A/B/C", 0);		/* no css */
	assert_mkdir(h, "A/D", 0);		/* css, requests 4-5 */
	assert_write(h, "A/D/cpuset.cpus", "4-5", 0);
	assert_mkdir(h, "E", 0);		/* A's sibling: untouched */
	a = cgt_id(h, "A");
	b = cgt_id(h, "A/B");
	c = cgt_id(h, "A/B/C");
	d = cgt_id(h, "A/D");
	e = cgt_id(h, "E");
	cg_set_observer(h, record, &r);

	/* A 0-7 -> 0-3: B and C follow; D = 4-5 & 0-3 is empty -> 0-3 (was 4-5); E stays */
	assert_write(h, "A/cpuset.cpus", "0-3", 0);
	expect_cpuset(&r, (const int[]){ a, b, c, d, -1 }, "A 0-3");
	cr_assert_eq(r.n, 4, "only CG_EV_CPUSET events: %d", r.n);

	/* the same request again: nothing */
	r.n = 0;
	assert_write(h, "A/cpuset.cpus", "0-3", 0);
	expect_cpuset(&r, (const int[]){ -1 }, "A 0-3 again");

	/* a new request, the same effective set: nothing (B 0-7 & 0-3 = 0-3) */
	assert_write(h, "A/B/cpuset.cpus", "0-7", 0);
	expect_cpuset(&r, (const int[]){ -1 }, "B 0-7");

	/* a refused write: nothing */
	assert_write(h, "A/cpuset.cpus", "9", -ERANGE);
	expect_cpuset(&r, (const int[]){ -1 }, "refused");

	/* A 0-5: D = 4-5 now, B = 0-5 and C with it */
	assert_write(h, "A/cpuset.cpus", "0-5", 0);
	expect_cpuset(&r, (const int[]){ a, b, c, d, -1 }, "A 0-5");

	/* only B's subtree */
	r.n = 0;
	assert_write(h, "A/B/cpuset.cpus", "1", 0);
	expect_cpuset(&r, (const int[]){ b, c, -1 }, "B 1");

	/* -cpuset in A: B (1) and C fall back to A's 0-5, D (4-5) too */
	r.n = 0;
	assert_write(h, "A/cgroup.subtree_control", "-cpuset", 0);
	expect_cpuset(&r, (const int[]){ b, c, d, -1 }, "A -cpuset");

	/* +cpuset: new csses with A's set, no change */
	r.n = 0;
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	expect_cpuset(&r, (const int[]){ -1 }, "A +cpuset");

	/* mkdir: no event */
	assert_mkdir(h, "A/F", 0);
	expect_cpuset(&r, (const int[]){ -1 }, "mkdir");

	/* the machine shrinks to 4 CPUs: the root, E, A (0-5 -> 0-3) and all below A */
	r.n = 0;
	cr_assert_eq(cg_set_nr_cpus(h, 4), 0);
	expect_cpuset(&r, (const int[]){ 0, a, b, c, d, cgt_id(h, "A/F"), e, -1 },
		      "nr_cpus 4");
	/* the same size again: nothing */
	r.n = 0;
	cr_assert_eq(cg_set_nr_cpus(h, 4), 0);
	expect_cpuset(&r, (const int[]){ -1 }, "nr_cpus 4 again");
	cg_set_observer(h, NULL, NULL);
	cgt_end(h);
}

Test(cgroup_cpuset, observer_disable_unchanged_child_silent)
{
	struct cg_hier *h = with_cpuset();
	struct rec r = { .n = 0 };

	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cpuset.cpus", "2-3", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/C", 0);
	/* C asks for more than A has: its set is A's anyway */
	assert_write(h, "A/C/cpuset.cpus", "0-7", 0);
	assert_write(h, "A/B/cpuset.cpus", "3", 0);
	cg_set_observer(h, record, &r);
	assert_write(h, "A/cgroup.subtree_control", "-cpuset", 0);
	expect_cpuset(&r, (const int[]){ cgt_id(h, "A/B"), -1 }, "A -cpuset");
	cg_set_observer(h, NULL, NULL);
	cgt_end(h);
}

/* ---- random operations against the rules ------------------------------------------------- */

static unsigned long long rnd_state;

static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rnd_state >> 33) % n;
}

#define MAXCG 64

/* Parse what "%*pbl" printed back into a mask (the test's own reader of the list format). */
static void parse_list(const char *s, uint64_t *m)
{
	memset(m, 0, W * sizeof(*m));
	while (*s && *s != '\n') {
		char *e;
		long lo = strtol(s, &e, 10), hi = lo;

		if (*e == '-')
			hi = strtol(e + 1, &e, 10);
		for (long c = lo; c <= hi; c++)
			m[c / 64] |= 1ULL << (c % 64);
		s = *e == ',' ? e + 1 : e;
	}
}

/* Pre-order of the live cgroups: a child after its parent, siblings by id (creation order). */
static int preorder(const struct cg_hier *h, int c, int *out, int n)
{
	out[n++] = c;
	for (int k = 1; k < cg_cgroup_max_id(h) && k < MAXCG; k++)
		if (cg_cgroup_alive(h, k) && cg_cgroup_parent(h, k) == c)
			n = preorder(h, k, out, n);
	return n;
}

/* One random operation on @p: mkdir, rmdir, enable, a request, a migration or a CPU count. */
static void random_op(struct cg_hier *h, const char *p)
{
	static const char *const lists[] = { "", ",", "0-3", "2-5", "6-7", "1", "0-7", "4",
					     "3-6", "0,7", "8", "abc", "all", "1-2,5" };
	static const int sizes[] = { 2, 4, 8, 12 };
	char file[320];

	switch (rnd(7)) {
	case 0:
		cg_mkdir(h, p);
		break;
	case 1:
		cg_rmdir(h, p);
		break;
	case 2:
		snprintf(file, sizeof(file), "%s/cgroup.subtree_control", p);
		cg_write(h, file, rnd(2) ? "+cpuset" : "-cpuset");
		break;
	case 3:
	case 4:
		snprintf(file, sizeof(file), "%s/cpuset.cpus", p);
		cg_write(h, file, lists[rnd(sizeof(lists) / sizeof(lists[0]))]);
		break;
	case 5:
		snprintf(file, sizeof(file), "%s/%s", p,
			 rnd(2) ? "cgroup.procs" : "cgroup.threads");
		cg_write(h, file, rnd(2) ? "P.1" : "P.2");
		break;
	default:
		cg_set_nr_cpus(h, sizes[rnd(4)]);
		break;
	}
}

/* Non-root cgroup @c's effective set @eff is the rule's: request & parent's, else parent's. */
static void assert_eff_rule(struct cg_hier *h, int c, const uint64_t *eff)
{
	char path[256], file[320], got[CGT_BUF];
	uint64_t req[W], want[W];
	bool any = false;

	cg_path(h, c, path, sizeof(path));
	snprintf(file, sizeof(file), "%s/cpuset.cpus", path);
	if (cgt_read_copy(h, file, got, sizeof(got)) == 0)
		parse_list(got, req);
	else
		memset(req, 0, sizeof(req));
	cr_assert_eq(cg_cpuset_effective(h, cg_cgroup_parent(h, c), want, W), 0);
	for (int w = 0; w < W; w++)
		any |= (req[w] & want[w]) != 0;
	if (any)
		for (int w = 0; w < W; w++)
			want[w] &= req[w];
	assert_mask_eq(eff, want, path);
}

Test(cgroup_cpuset, random_operations)
{
	static const char *const paths[] = { "A", "A/B", "A/B/C", "A/D", "E", "E/F", "." };

	for (unsigned seed = 1; seed <= 40; seed++) {
		struct cg_hier *h = cgt_new(CG_SEM_V2);
		struct rec r = { .n = 0 };

		rnd_state = seed;
		assert_proc(h, "P", 2, 1);
		/* a start with cpuset enabled two levels down, so that most writes land */
		assert_write(h, "cgroup.subtree_control", "+cpuset", 0);
		assert_mkdir(h, "A", 0);
		assert_mkdir(h, "A/B", 0);
		assert_mkdir(h, "A/B/C", 0);
		assert_mkdir(h, "E", 0);
		assert_write(h, "A/cgroup.subtree_control", "+cpuset", 0);
		cg_set_observer(h, record, &r);
		for (int op = 0; op < 150; op++) {
			uint64_t before[MAXCG][W], after[W];
			bool alive[MAXCG];
			int order[MAXCG], ev[REC_MAX], n, nev = 0, k = 0;

			for (int c = 0; c < MAXCG; c++) {
				alive[c] = c < cg_cgroup_max_id(h) && cg_cgroup_alive(h, c);
				if (alive[c])
					cr_assert_eq(cg_cpuset_effective(h, c, before[c], W), 0);
			}
			r.n = 0;
			random_op(h, paths[rnd(sizeof(paths) / sizeof(paths[0]))]);
			cr_assert_eq(cg_check(h), 0, "seed %u op %d: cg_check", seed, op);
			cr_assert_lt(cg_cgroup_max_id(h), MAXCG);
			cr_assert_leq(r.n, REC_MAX);
			for (int i = 0; i < r.n; i++)
				if (r.ev[i].kind == CG_EV_CPUSET)
					ev[nev++] = r.ev[i].cgroup;
			/* the events: exactly the cgroups that lived before and after and whose set
			 * changed, each once, in pre-order */
			n = preorder(h, 0, order, 0);
			for (int i = 0; i < n; i++) {
				int c = order[i];

				cr_assert_eq(cg_cpuset_effective(h, c, after, W), 0);
				if (alive[c] && memcmp(after, before[c], sizeof(after))) {
					cr_assert_lt(k, nev, "seed %u op %d: no event for %d", seed,
						     op, c);
					cr_assert_eq(ev[k], c, "seed %u op %d: event %d for %d, "
						     "want %d", seed, op, k, ev[k], c);
					k++;
				}
				if (c)
					assert_eff_rule(h, c, after);
			}
			cr_assert_eq(k, nev, "seed %u op %d: %d CG_EV_CPUSET, %d expected", seed,
				     op, nev, k);
		}
		cg_set_observer(h, NULL, NULL);
		cgt_end(h);
	}
}
