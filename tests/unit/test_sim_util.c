// SPDX-License-Identifier: MIT
/*
 * Unit tests of sim/util/util.h, the toolbox of sim/: each function against what its contract
 * says, independently of the callers.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/util/util.h"

Test(sim_util, grow_doubles_and_keeps_contents)
{
	int *a = NULL;
	size_t cap = 0;

	for (int i = 0; i < 1000; i++) {
		cr_assert_eq(UTIL_GROW(a, cap, (size_t)i + 1), 0);
		cr_assert_geq(cap, (size_t)i + 1);
		a[i] = i;
	}
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(a[i], i);
	cr_expect_eq(cap, 1024, "capacities are powers of two from 4: 1,000 fit in 1,024");
	free(a);
}

/* A table indexed by id: every slot not yet written reads 0, however far the index jumps. */
Test(sim_util, grow_zero_zeroes_what_it_adds)
{
	long *a = NULL;
	size_t cap = 0;

	cr_assert_eq(UTIL_GROW_ZERO(a, cap, 3), 0);
	a[0] = a[1] = a[2] = 7;
	cr_assert_eq(UTIL_GROW_ZERO(a, cap, 1000), 0);
	cr_assert_geq(cap, 1000);
	cr_assert(a[0] == 7 && a[1] == 7 && a[2] == 7, "kept what was there");
	for (size_t i = 3; i < cap; i++)
		cr_assert_eq(a[i], 0, "slot %zu of %zu", i, cap);
	free(a);
}

/* Keys that a session numbering gives (consecutive pids, negative numbers, 0, extremes). */
static int u64_order(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * util_sort_u64() - ascending order, the same array qsort() gives: sizes around its small-array
 * cut-off, duplicates, keys that differ only in their top byte or only in their bottom one, the
 * largest value, and latencies as runs record them (nanoseconds, most below a millisecond).
 */
Test(sim_util, sort_u64_orders_as_qsort)
{
	static const size_t sizes[] = { 0, 1, 2, 31, 32, 33, 63, 64, 65, 1000, 4097 };
	uint64_t z = 12345;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (int kind = 0; kind < 5; kind++) {
			size_t n = sizes[k];
			uint64_t *a = malloc((n ? n : 1) * sizeof(*a));
			uint64_t *b = malloc((n ? n : 1) * sizeof(*b));

			cr_assert(a && b);
			for (size_t i = 0; i < n; i++) {
				z = z * 6364136223846793005ull + 1442695040888963407ull;
				switch (kind) {
				case 0: a[i] = z; break;				/* all bits */
				case 1: a[i] = (z >> 40) % 7; break;			/* duplicates */
				case 2: a[i] = (z >> 60) << 56; break;			/* top byte */
				case 3: a[i] = i % 2 ? UINT64_MAX : z >> 56; break;	/* extremes */
				default: a[i] = (z >> 33) % 900000 + 1000; break;	/* latencies */
				}
			}
			memcpy(b, a, n * sizeof(*a));
			qsort(b, n, sizeof(*b), u64_order);
			util_sort_u64(a, n);
			cr_assert(!memcmp(a, b, n * sizeof(*a)), "n %zu, kind %d: not qsort's order", n,
				  kind);
			free(a);
			free(b);
		}
}

Test(sim_util, imap_finds_every_key_put_and_no_other)
{
	struct util_imap m = { 0 };
	int v;

	cr_assert_not(util_imap_get(&m, 7, &v), "an empty map holds nothing");
	for (int k = -5000; k < 5000; k++)
		cr_assert_eq(util_imap_put(&m, k * 3, k), 0);
	cr_assert_eq(util_imap_put(&m, 2147483647, 1), 0);
	cr_assert_eq(util_imap_put(&m, -2147483647 - 1, 2), 0);
	cr_assert_eq(m.n, 10002);
	for (int k = -5000; k < 5000; k++) {
		cr_assert(util_imap_get(&m, k * 3, &v));
		cr_assert_eq(v, k);
		cr_assert_not(util_imap_get(&m, k * 3 + 1, &v));
	}
	cr_assert(util_imap_get(&m, 2147483647, &v) && v == 1);
	cr_assert(util_imap_get(&m, -2147483647 - 1, &v) && v == 2);
	cr_assert_eq(util_imap_put(&m, 3, 99), 0);
	cr_assert(util_imap_get(&m, 3, &v) && v == 99, "a second put replaces the value");
	cr_assert_eq(m.n, 10002, "and adds no key");
	util_imap_free(&m);
	cr_assert_not(util_imap_get(&m, 3, &v), "a freed map is empty again");
}

Test(sim_util, errf_three_forms_and_one_line)
{
	char err[128];

	util_errf(err, sizeof(err), "x.yaml", NULL, 3, 7, "bad %s", "value");
	cr_expect_str_eq(err, "x.yaml:3:7: error: bad value");
	util_errf(err, sizeof(err), "x.yaml", NULL, 0, 0, "no variant '%s'", "v");
	cr_expect_str_eq(err, "x.yaml: error: no variant 'v'");
	util_errf(err, sizeof(err), "x.yaml", "--set a=1", 3, 7, "unknown key");
	cr_expect_str_eq(err, "--set a=1: error: unknown key", "an option's origin wins");
	util_errf(err, sizeof(err), "x.yaml", NULL, 1, 1, "key 'a\nb\tc'");
	cr_expect_str_eq(err, "x.yaml:1:1: error: key 'a\\nb\\tc'");
	util_errf(err, 12, "x.yaml", NULL, 1, 1, "truncated");
	cr_expect_str_eq(err, "x.yaml:1:1:");
}

static FILE *text_file(const char *s)
{
	FILE *f = tmpfile();

	cr_assert_not_null(f);
	fputs(s, f);
	rewind(f);
	return f;
}

Test(sim_util, read_stream_reads_all_and_refuses_beyond_max)
{
	FILE *f = text_file("name: t\nduration: 1s\n");
	char *buf;
	size_t len;

	cr_assert_eq(util_read_stream(f, 100, &buf, &len), 0);
	cr_expect_eq(len, 21);
	cr_expect_str_eq(buf, "name: t\nduration: 1s\n");
	free(buf);
	rewind(f);
	cr_expect_eq(util_read_stream(f, 21, &buf, &len), 0, "exactly the limit is allowed");
	free(buf);
	rewind(f);
	cr_expect_eq(util_read_stream(f, 20, &buf, &len), -EFBIG, "one byte past it is not");
	fclose(f);
}

static int write_hello(FILE *f, const void *ctx)
{
	fprintf(f, "hello %s\n", (const char *)ctx);
	return 0;
}

static int write_fails(FILE *f, const void *ctx)
{
	(void)ctx;
	fputs("partial", f);
	return -EIO;
}

/* The file appears whole or not at all, and no temporary file is left either way. */
Test(sim_util, write_file_is_atomic)
{
	char dir[] = "/tmp/cgsim-util-XXXXXX", path[64], err[256], line[64];
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(util_write_file(dir, "a.txt", write_hello, "world", err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	fclose(f);
	cr_expect_str_eq(line, "hello world\n");
	cr_expect_eq(util_write_file(dir, "b.txt", write_fails, NULL, err, sizeof(err)), -EIO);
	snprintf(path, sizeof(path), "%s/b.txt", dir);
	cr_expect_null(fopen(path, "r"), "a failed write leaves no file");
	snprintf(path, sizeof(path), "%s/.b.txt.tmp", dir);
	cr_expect_null(fopen(path, "r"), "nor its temporary file");
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	remove(path);
	rmdir(dir);
}

/* util_out: the file appears, whole, only at the commit; an abort leaves no trace of it. */
Test(sim_util, out_appears_only_when_committed)
{
	char dir[] = "/tmp/cgsim-out-XXXXXX", path[64], tmp[80], err[256];
	struct util_out o;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.txt", dir);
	snprintf(tmp, sizeof(tmp), "%s/.t.txt.tmp", dir);
	cr_assert_eq(util_out_open(&o, path, err, sizeof(err)), 0);
	fputs("hello\n", o.f);
	cr_expect_neq(access(path, F_OK), 0, "nothing at PATH before the commit");
	cr_assert_eq(util_out_commit(&o, err, sizeof(err)), 0);
	cr_expect_eq(access(path, F_OK), 0);
	cr_expect_neq(access(tmp, F_OK), 0);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(util_out_open(&o, path, err, sizeof(err)), 0);
	fputs("partial", o.f);
	util_out_abort(&o);
	cr_expect_neq(access(path, F_OK), 0);
	cr_expect_neq(access(tmp, F_OK), 0, "the abort removes the temporary file");
	cr_assert_eq(rmdir(dir), 0, "and nothing else was left in the directory");
	snprintf(path, sizeof(path), "%s/t.txt", dir);
	cr_expect_eq(util_out_open(&o, path, err, sizeof(err)), -ENOENT);
	cr_expect(strstr(err, path), "the message names the file asked for: %s", err);
	cr_expect_eq(util_out_open(&o, "-", err, sizeof(err)), 0);
	cr_expect_eq(o.f, stdout);
}
