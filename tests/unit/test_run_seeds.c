// SPDX-License-Identifier: MIT
/*
 * Unit tests of sim/run/seeds.h: the summary of several runs against values worked by hand
 * and Student's t from a printed table (t(0.975, 4) = 2.7764, t(0.975, 1) = 12.7062).
 */
#include <criterion/criterion.h>

#include <math.h>

#include "sim/run/seeds.h"

Test(run_seeds, mean_extremes_and_interval)
{
	const double v[] = { 1, 2, 3, 4, 5 };
	struct seeds_stat s = seeds_stat(v, 5);

	/* s = sqrt(10 / 4) = 1.58114; half-width 2.7764 x 1.58114 / sqrt(5) = 1.9632 */
	cr_expect_float_eq(s.mean, 3.0, 1e-12);
	cr_expect_float_eq(s.min, 1.0, 1e-12);
	cr_expect_float_eq(s.max, 5.0, 1e-12);
	cr_expect(fabs(s.ci - 1.9632) < 1e-4, "half-width %.6f, expected 1.9632", s.ci);
}

Test(run_seeds, two_runs_use_one_degree_of_freedom)
{
	const double v[] = { 0.30, 0.40 };
	struct seeds_stat s = seeds_stat(v, 2);

	/* s = 0.070711; 12.7062 x 0.070711 / sqrt(2) = 0.63531 */
	cr_expect(fabs(s.ci - 0.63531) < 1e-4, "half-width %.6f, expected 0.63531", s.ci);
}

Test(run_seeds, one_run_or_equal_runs_have_no_spread)
{
	const double one[] = { 0.25 }, same[] = { 0.5, 0.5, 0.5 };
	struct seeds_stat a = seeds_stat(one, 1), b = seeds_stat(same, 3);

	cr_expect_float_eq(a.mean, 0.25, 1e-12);
	cr_expect_eq(a.ci, 0.0);
	cr_expect_eq(b.ci, 0.0);
	cr_expect_eq(b.min, b.max);
}
