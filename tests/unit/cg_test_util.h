/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/cg_test_util.h - helpers shared by the unit tests of the cgroup model.
 *
 * Every expected value in these tests comes from the kernel's rules
 * (docs/cgroup-model.md), never from the model's output.
 *
 * Each test makes its hierarchy with cgt_new() and ends with cgt_end(), which asserts
 * cg_check() == 0 and frees it. The suites declare `.fini = cgt_fini`, so a hierarchy is freed
 * even when an assertion aborts the test: no leak under valgrind or ASan in either case.
 * Reads are copied into a stack buffer and the model's malloc'ed copy freed before anything is
 * asserted, for the same reason.
 */
#ifndef CGSIM_TESTS_CG_TEST_UTIL_H
#define CGSIM_TESTS_CG_TEST_UTIL_H

#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgroup.h"

/* The hierarchy of the running test, freed by cgt_fini() if the test did not reach cgt_end(). */
static struct cg_hier *cgt_cur;

static inline void cgt_fini(void)
{
	if (cgt_cur)
		cg_hier_free(cgt_cur);
	cgt_cur = NULL;
}

static inline struct cg_hier *cgt_new(enum cg_semantics sem)
{
	struct cg_hier *h = cg_hier_new(sem);

	cr_assert_not_null(h, "cg_hier_new failed");
	cgt_cur = h;
	return h;
}

static inline void cgt_end(struct cg_hier *h)
{
	int rc = cg_check(h);

	cr_assert_eq(rc, 0, "cg_check: %d", rc);
	cg_hier_free(h);
	cgt_cur = NULL;
}

/* A readable name for a return value: "0", "EBUSY", ..., or "E?(n)". */
static inline const char *cgt_err(int rc)
{
	static char other[4][24];
	static int next;
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { EUCLEAN, "EUCLEAN" }, { CG_ENONAME, "CG_ENONAME" },
	};
	char *buf;

	if (rc == 0)
		return "0";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (-rc == names[i].err)
			return names[i].name;
	buf = other[next++ % 4];
	snprintf(buf, sizeof(other[0]), "E?(%d)", rc);
	return buf;
}

/* @s with newlines shown as "\\n", for messages; one of four rotating static buffers. */
static inline const char *cgt_esc(const char *s)
{
	static char bufs[4][512];
	static int next;
	char *b = bufs[next++ % 4];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(bufs[0]); s++) {
		if (*s == '\n') {
			b[n++] = '\\';
			b[n++] = 'n';
		} else {
			b[n++] = *s;
		}
	}
	b[n] = '\0';
	return b;
}

/* Copies a successful read into @buf (NUL-terminated, truncated to @len) and frees it. */
static inline int cgt_read_copy(struct cg_hier *h, const char *path, char *buf, size_t len)
{
	char *out = NULL;
	int rc = cg_read(h, path, &out);

	buf[0] = '\0';
	if (rc == 0 && out) {
		snprintf(buf, len, "%s", out);
		free(out);
	} else if (rc == 0) {
		snprintf(buf, len, "<NULL>");
	} else if (out) {
		/* The contract says *out is untouched on error; it was NULL. */
		free(out);
		return -EUCLEAN;
	}
	return rc;
}

#define CGT_BUF 8192

/* @want is 0 or a negative errno. */
#define assert_write(h, path, value, want)                                                    \
	do {                                                                                  \
		int rc_ = cg_write((h), (path), (value));                                     \
		cr_assert_eq(rc_, (want), "write %s \"%s\": got %s, want %s", (path), (value), \
			     cgt_err(rc_), cgt_err(want));                                    \
	} while (0)

#define assert_mkdir(h, path, want)                                                           \
	do {                                                                                  \
		int rc_ = cg_mkdir((h), (path));                                              \
		cr_assert_eq(rc_, (want), "mkdir %s: got %s, want %s", (path), cgt_err(rc_),   \
			     cgt_err(want));                                                  \
	} while (0)

#define assert_rmdir(h, path, want)                                                           \
	do {                                                                                  \
		int rc_ = cg_rmdir((h), (path));                                              \
		cr_assert_eq(rc_, (want), "rmdir %s: got %s, want %s", (path), cgt_err(rc_),   \
			     cgt_err(want));                                                  \
	} while (0)

/* The read succeeds and gives exactly @want. */
#define assert_read(h, path, want)                                                            \
	do {                                                                                  \
		char got_[CGT_BUF];                                                           \
		int rc_ = cgt_read_copy((h), (path), got_, sizeof(got_));                      \
		cr_assert_eq(rc_, 0, "read %s: got %s, want \"%s\"", (path), cgt_err(rc_),     \
			     cgt_esc(want));                                                  \
		cr_assert_str_eq(got_, (want), "read %s: got \"%s\", want \"%s\"", (path),     \
				 cgt_esc(got_), cgt_esc(want));                               \
	} while (0)

/* The read fails with @want (a negative errno). */
#define assert_read_err(h, path, want)                                                        \
	do {                                                                                  \
		char got_[CGT_BUF];                                                           \
		int rc_ = cgt_read_copy((h), (path), got_, sizeof(got_));                      \
		cr_assert_eq(rc_, (want), "read %s: got %s (\"%s\"), want %s", (path),         \
			     cgt_err(rc_), cgt_esc(got_), cgt_err(want));                     \
	} while (0)

/* Creates process @name with @n threads and asserts it got pid @pid (tids count from 1). */
#define assert_proc(h, name, n, pid)                                                          \
	do {                                                                                  \
		int rc_ = cg_proc_new((h), (name), (n));                                      \
		cr_assert_eq(rc_, (pid), "proc %s threads=%d: got %d, want pid %d", (name),    \
			     (n), rc_, (pid));                                                \
	} while (0)

/* The cgroup id of @path, asserting it exists. */
static inline int cgt_id(const struct cg_hier *h, const char *path)
{
	int id = cg_lookup(h, path);

	cr_assert_geq(id, 0, "cg_lookup %s: %s", path, cgt_err(id));
	return id;
}

/* The tid of thread or process @name, asserting it exists. */
static inline int cgt_tid(const struct cg_hier *h, const char *name)
{
	int tid = cg_thread_lookup(h, name);

	cr_assert_gt(tid, 0, "cg_thread_lookup %s: %s", name, cgt_err(tid));
	return tid;
}

/* Thread @name sits in cgroup @path. */
#define assert_thread_in(h, name, path)                                                       \
	do {                                                                                  \
		int cg_ = cg_thread_cgroup((h), cgt_tid((h), (name)));                         \
		cr_assert_eq(cg_, cgt_id((h), (path)), "thread %s: in cgroup %d, want %s (%d)",  \
			     (name), cg_, (path), cgt_id((h), (path)));                       \
	} while (0)

#endif /* CGSIM_TESTS_CG_TEST_UTIL_H */
