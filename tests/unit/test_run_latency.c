// SPDX-License-Identifier: MIT
/*
 * Unit tests of the latency figures of a run (sim/run/run.h): nearest-rank percentiles.
 *
 * Nearest rank: the percentile q of n sorted values is the value of rank ceil(q/100 x n)
 * (1-based). Every expected value below is that rank worked out by hand.
 */
#include <criterion/criterion.h>

#include <stdint.h>

#include "sim/run/run.h"

/* 1, 2, ..., 1000: the value of rank k is k. */
Test(run_latency, percentiles_of_one_to_thousand)
{
	static uint64_t v[1000];

	for (int i = 0; i < 1000; i++)
		v[i] = (uint64_t)i + 1;
	cr_expect_eq(run_percentile(v, 1000, 50), 500);		/* ceil(500) */
	cr_expect_eq(run_percentile(v, 1000, 90), 900);		/* ceil(900) */
	cr_expect_eq(run_percentile(v, 1000, 99), 990);		/* ceil(990) */
	cr_expect_eq(run_percentile(v, 1000, 99.9), 999);	/* ceil(999), not 1000 */
	cr_expect_eq(run_percentile(v, 1000, 100), 1000);
}

/* Ten values: p50 is rank 5, p90 rank 9, p99 and p99.9 rank 10 (ceil(9.9), ceil(9.99)). */
Test(run_latency, percentiles_of_ten)
{
	static const uint64_t v[10] = { 3, 5, 8, 13, 21, 34, 55, 89, 144, 233 };

	cr_expect_eq(run_percentile(v, 10, 50), 21);
	cr_expect_eq(run_percentile(v, 10, 90), 144);
	cr_expect_eq(run_percentile(v, 10, 99), 233);
	cr_expect_eq(run_percentile(v, 10, 99.9), 233);
}

/* 2000 values: p99.9 is rank ceil(1998) = 1998; one value: every percentile is it. */
Test(run_latency, percentiles_edges)
{
	static uint64_t v[2000];
	static const uint64_t one[1] = { 7 };

	for (int i = 0; i < 2000; i++)
		v[i] = (uint64_t)i * 2;
	cr_expect_eq(run_percentile(v, 2000, 99.9), 1997 * 2);
	cr_expect_eq(run_percentile(one, 1, 50), 7);
	cr_expect_eq(run_percentile(one, 1, 99.9), 7);
	cr_expect_eq(run_percentile(NULL, 0, 50), 0);
}

/*
 * schbench's lines over 1, 2, ..., 1000 us (given in ns, plus 999 ns that truncate away): p50
 * is 500 us and 500 samples are at most that; p90 900 us, 400 more; p99 990 us, 90 more;
 * p99.9 999 us, 9 more (the 1000 us sample is on no line).
 */
Test(run_latency, schbench_lines)
{
	static const double q[4] = { 50, 90, 99, 99.9 };
	static uint64_t v[1000];
	uint64_t us[4], count[4];

	for (int i = 0; i < 1000; i++)
		v[i] = ((uint64_t)i + 1) * 1000 + 999;
	run_usec_percentiles(v, 1000, q, 4, us, count);
	cr_expect_eq(us[0], 500);
	cr_expect_eq(us[1], 900);
	cr_expect_eq(us[2], 990);
	cr_expect_eq(us[3], 999);
	cr_expect_eq(count[0], 500);
	cr_expect_eq(count[1], 400);
	cr_expect_eq(count[2], 90);
	cr_expect_eq(count[3], 9);
}

/* Ten samples of 7 us: every line is 7 us; the first counts all ten, the others none. */
Test(run_latency, schbench_lines_equal)
{
	static const double q[4] = { 50, 90, 99, 99.9 };
	static const uint64_t v[10] = { 7000, 7000, 7000, 7000, 7000, 7100, 7200, 7300, 7400,
					7999 };
	uint64_t us[4], count[4];

	run_usec_percentiles(v, 10, q, 4, us, count);
	for (int j = 0; j < 4; j++)
		cr_expect_eq(us[j], 7);
	cr_expect_eq(count[0], 10);
	cr_expect_eq(count[1] + count[2] + count[3], 0);
}
