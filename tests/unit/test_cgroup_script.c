// SPDX-License-Identifier: MIT
/*
 * Unit tests of the .cgs interpreter's messages where the model, not the line's syntax, refuses
 * an operation. The hierarchy's thread cap (CG_MAX_THREADS, ten million) is lowered through the
 * model's internals so that reaching it costs a few threads, not ten million.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

/* internal: cgroup.h has no setter for the thread cap (h->max_threads) */
#include "cgroup/cg_internal.h"

static struct cg_hier *h;
static char *out;
static char err[512];

static void fini(void)
{
	free(out);
	out = NULL;
	cg_hier_free(h);
	h = NULL;
}

TestSuite(cg_script, .fini = fini);

static int line(int lineno, const char *text)
{
	free(out);
	out = NULL;
	return cg_script_line(h, "t.cgs", lineno, text, &out, err, sizeof(err));
}

/* A process past the thread cap used to be reported as a bad process name. */
Test(cg_script, thread_cap_is_reported_as_a_count)
{
	h = cg_hier_new(CG_SEM_V2);
	cr_assert_not_null(h);
	cr_assert_eq(cg_threads_left(h), CG_MAX_THREADS);
	h->max_threads = 10;
	cr_assert_eq(line(1, "proc A threads=6"), 0);
	cr_assert_str_eq(out, "1: proc A threads=6 -> ok\n");
	cr_assert_eq(cg_threads_left(h), 4);

	cr_assert_eq(line(2, "proc B threads=5"), -EINVAL);
	cr_assert_str_eq(err, "t.cgs:2:16: error: 5 threads: the model holds at most 10 threads "
			      "in all, and 4 more fit");
	cr_assert_eq(cg_proc_new(h, "B", 5), -EAGAIN);
	cr_assert_eq(cg_check(h), 0);

	cr_assert_eq(line(3, "proc B threads=4"), 0);
	cr_assert_eq(cg_threads_left(h), 0);
	cr_assert_eq(line(4, "proc C"), -EINVAL);
	cr_assert_str_eq(err, "t.cgs:4:6: error: 1 thread: the model holds at most 10 threads "
			      "in all, and 0 more fit");
	/* a bad name is still a bad name, cap or not */
	cr_assert_eq(cg_proc_new(h, "9C", 1), -EINVAL);
	cr_assert_eq(line(5, "proc 9C"), -EINVAL);
	cr_assert_str_eq(err, "t.cgs:5:6: error: bad process name '9C' (letters, digits, '_' and "
			      "'-', not starting with a digit or '-', at most 63 characters)");
	cr_assert_eq(cg_check(h), 0);
}
