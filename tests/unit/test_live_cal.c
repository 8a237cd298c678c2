// SPDX-License-Identifier: MIT
/*
 * Unit tests of live_cal_fit() (sim/live/live.h): the least-squares line of calibrate --live,
 * against values worked by hand and Student's t from a printed table (t(0.975, 3) = 3.18245).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>

#include "sim/live/live.h"

static const double depth[] = { 0, 1, 2, 4, 8 };

Test(live_cal, points_on_a_line)
{
	const double y[] = { 5000, 5100, 5200, 5400, 5800 };
	struct live_cal_fit f;

	cr_assert_eq(live_cal_fit(depth, y, 5, &f), 0);
	cr_expect(fabs(f.base_ns - 5000) < 1e-9, "base %.12f", f.base_ns);
	cr_expect(fabs(f.per_level_ns - 100) < 1e-9, "per level %.12f", f.per_level_ns);
	cr_expect(fabs(f.per_level_high - f.per_level_low) < 1e-9, "no spread on a line");
	cr_expect_eq(f.n, 5);
	for (size_t i = 0; i < 5; i++)
		cr_expect(fabs(f.residual_ns[i]) < 1e-9, "residual %zu: %g", i, f.residual_ns[i]);
}

Test(live_cal, noisy_points)
{
	/*
	 * y = 100 + 10 x + e, e = (1, -1, 0, 1, -1). x mean 3, Sxx = 40, sum (x - 3) e = -5: the
	 * slope is 10 - 5/40 = 9.875, the base 130 - 3 x 9.875 = 100.375; residuals 0.625, -1.25,
	 * -0.125, 1.125, -0.375; RSS 3.375, s^2 = RSS / 3 = 1.125; SE(slope) = sqrt(1.125 / 40) =
	 * 0.167705, SE(base) = sqrt(1.125 (1/5 + 9/40)) = 0.691466; the interval 9.875 +- 3.18245
	 * x 0.167705 = 9.34128 to 10.40872.
	 */
	const double y[] = { 101, 109, 120, 141, 179 };
	const double r[] = { 0.625, -1.25, -0.125, 1.125, -0.375 };
	struct live_cal_fit f;

	cr_assert_eq(live_cal_fit(depth, y, 5, &f), 0);
	cr_expect(fabs(f.per_level_ns - 9.875) < 1e-9, "per level %.9f", f.per_level_ns);
	cr_expect(fabs(f.base_ns - 100.375) < 1e-9, "base %.9f", f.base_ns);
	for (size_t i = 0; i < 5; i++)
		cr_expect(fabs(f.residual_ns[i] - r[i]) < 1e-9, "residual %zu: %g", i,
			  f.residual_ns[i]);
	cr_expect(fabs(f.per_level_se - 0.167705) < 1e-6, "SE(slope) %.6f", f.per_level_se);
	cr_expect(fabs(f.base_se - 0.691466) < 1e-6, "SE(base) %.6f", f.base_se);
	cr_expect(fabs(f.per_level_low - 9.34128) < 1e-4, "low %.5f", f.per_level_low);
	cr_expect(fabs(f.per_level_high - 10.40872) < 1e-4, "high %.5f", f.per_level_high);
}

Test(live_cal, refuses_what_makes_no_line)
{
	const double x1[] = { 2, 2, 2 }, y[] = { 1, 2, 3 };
	struct live_cal_fit f;

	cr_expect_eq(live_cal_fit(x1, y, 3, &f), -EINVAL, "one depth: no slope");
	cr_expect_eq(live_cal_fit(depth, y, 2, &f), -EINVAL, "two points: no interval");
}

/* Which levels of a point's chains are each thread's own (live_cal_level_own()). */
Test(live_cal, levels_own)
{
	struct live_cal_point sep = { .placement = LIVE_CAL_SEPARATE, .depth = 4 };
	struct live_cal_point sib = { .placement = LIVE_CAL_SIBLINGS, .depth = 4 };
	struct live_cal_point same = { .placement = LIVE_CAL_SAME, .depth = 4 };

	for (int lv = 1; lv <= 4; lv++) {
		cr_expect(live_cal_level_own(&sep, lv), "separate: level %d is own", lv);
		cr_expect_eq(live_cal_level_own(&sib, lv), lv == 4, "siblings: level %d", lv);
		cr_expect(!live_cal_level_own(&same, lv), "same: level %d is shared", lv);
	}
	/* cgroup2: level 1 is the process's domain, shared by both threads */
	sep.threaded = sib.threaded = true;
	cr_expect(!live_cal_level_own(&sep, 1));
	for (int lv = 2; lv <= 4; lv++)
		cr_expect(live_cal_level_own(&sep, lv), "threaded separate: level %d is own", lv);
	cr_expect(live_cal_level_own(&sib, 4) && !live_cal_level_own(&sib, 3));
}
