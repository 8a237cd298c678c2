// SPDX-License-Identifier: MIT
/*
 * Unit tests of sim/app/calprofile.h: what the simulated ping-pong walks and changes per round
 * trip at each of calibrate's points, against the counts derived by hand from the model's
 * rules (docs/overhead.md), the round trip it predicts, against the sum of its parts, and the
 * fit, which must give back the constants a synthetic calibration was made from.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "sim/app/calprofile.h"

static struct live_cal_point point(enum live_cal_placement p, int depth, bool autogroup)
{
	return (struct live_cal_point){ .placement = p, .depth = depth, .autogroup = autogroup };
}

/*
 * Per round trip: two wakeups, two sleeps, two switches. A chain of L = depth + 1 levels (the
 * task's entity and its groups'). Every wakeup and sleep walks the whole chain, every switch's
 * pick walks the next task's chain: 6 L walks. Level operations: each wakeup enqueues and each
 * sleep dequeues the levels the two threads do not share, each switch puts and sets them:
 * 8 x the unshared levels. Unshared: the task only (same cgroup, or the root), the task and
 * the leaf group (siblings), every level (separate chains). With autogroup the root threads
 * sit in one autogroup: one shared level more.
 */
static void expect_counts(struct live_cal_point pt, double walks, double ops)
{
	struct calprof_counts k;
	char err[512] = "";

	cr_assert_eq(calprof_counts(&pt, &k, err, sizeof(err)), 0, "%s", err);
	cr_expect(fabs(k.walks - walks) < 0.01, "%s depth %d%s: %.4f walks a round trip, want %g",
		  live_cal_placement_name[pt.placement], pt.depth, pt.autogroup ? " (autogroup)" : "",
		  k.walks, walks);
	cr_expect(fabs(k.ops - ops) < 0.01, "%s depth %d: %.4f level operations, want %g",
		  live_cal_placement_name[pt.placement], pt.depth, k.ops, ops);
	cr_expect(fabs(k.switches - 2) < 0.01, "%.4f switches a round trip, want 2", k.switches);
}

/*
 * On cgroup2 the two threads' chains share level 1, their process's domain (the levels below
 * are threaded cgroups): separate chains at depth d leave the task and levels 2 .. d
 * unshared, 8 d operations; siblings below it are as on v1.
 */
static struct live_cal_point threaded(enum live_cal_placement p, int depth)
{
	return (struct live_cal_point){ .placement = p, .depth = depth, .threaded = true };
}

Test(calprof, counts_per_round_trip_threaded)
{
	for (int d = 2; d <= 8; d *= 2) {
		expect_counts(threaded(LIVE_CAL_SAME, d), 6 * (d + 1), 8);
		expect_counts(threaded(LIVE_CAL_SIBLINGS, d), 6 * (d + 1), 16);
		expect_counts(threaded(LIVE_CAL_SEPARATE, d), 6 * (d + 1), 8 * d);
	}
	expect_counts(threaded(LIVE_CAL_SAME, 1), 12, 8);
}

Test(calprof, counts_per_round_trip)
{
	expect_counts(point(LIVE_CAL_SAME, 0, false), 6, 8);
	expect_counts(point(LIVE_CAL_SAME, 0, true), 12, 8);
	for (int d = 1; d <= 8; d *= 2) {
		expect_counts(point(LIVE_CAL_SAME, d, false), 6 * (d + 1), 8);
		expect_counts(point(LIVE_CAL_SIBLINGS, d, false), 6 * (d + 1), 16);
		expect_counts(point(LIVE_CAL_SEPARATE, d, false), 6 * (d + 1), 8 * (d + 1));
	}
}

/*
 * The round trip with costs: two halves of run_ns each, and 1 ns more each (a woken thread's
 * return from its wait, docs/scenario-format.md), two switches, wakeups and sleeps, and the
 * walks and level operations counted above. Separate chains of depth 4: 30 walks, 40
 * operations. A tick every 4 ms (tick_ns + 5 walks) falls in about one round trip in 500 and
 * adds under 1 ns to the mean.
 */
Test(calprof, predicted_round_trip)
{
	const struct sched_costs c = { .switch_ns = 1100, .wakeup_ns = 550, .sleep_ns = 330,
				       .tick_ns = 400, .level_ns = 13, .walk_ns = 8 };
	struct live_cal_point pt = point(LIVE_CAL_SEPARATE, 4, false);
	double want = 2 * 1501.0 + 2 * (1100 + 550 + 330) + 30 * 8 + 40 * 13, rt;
	char err[512] = "";

	cr_assert_eq(calprof_predict(&pt, NULL, &c, 1500, &rt, err, sizeof(err)), 0, "%s", err);
	cr_expect(rt >= want && rt < want + 2, "round trip %.2f ns, want %.0f (+ the ticks)", rt,
		  want);
}

/* A profile file is read as machine: { costs: FILE } reads it. */
Test(calprof, predicted_from_a_profile)
{
	const struct sched_costs c = { .switch_ns = 2000, .wakeup_ns = 1000, .sleep_ns = 500,
				       .tick_ns = 1000, .level_ns = 20, .walk_ns = 10 };
	struct live_cal_point pt = point(LIVE_CAL_SAME, 2, false);
	double a, b;
	char err[512] = "";

	cr_assert_eq(calprof_predict(&pt, "tests/cli/machine.profile", NULL, 1000, &a, err,
				     sizeof(err)), 0, "%s", err);
	cr_assert_eq(calprof_predict(&pt, NULL, &c, 1000, &b, err, sizeof(err)), 0, "%s", err);
	cr_expect(fabs(a - b) < 1e-9, "from the file %.3f ns, inline %.3f ns", a, b);
	cr_expect_neq(calprof_predict(&pt, "tests/cli/no-such.profile", NULL, 1000, &a, err,
				      sizeof(err)), 0);
	cr_expect(strstr(err, "no-such.profile") != NULL, "%s", err);
}

/*
 * Medians made from known constants (walk 9 ns, level 14 ns, base 5,800 ns) fit back to
 * them exactly; the system calls (1,100 ns a half) leave (5,800 - 2,200) / 2 = 1,800 ns a half
 * for a switch, a wakeup and a sleep, split 1 : 0.5 : 0.3 as 1,000, 500 and 300.
 */
Test(calprof, fit_gives_back_the_constants)
{
	struct live_cal_report r = { .reps = 5, .round_trips = 1000, .syscalls_ns = 1100 };
	struct calprof p;
	char err[512] = "";

	r.points[r.npoints++] = point(LIVE_CAL_SAME, 0, false);
	r.points[r.npoints++] = point(LIVE_CAL_SAME, 0, true);
	for (int pl = 0; pl < LIVE_CAL_NPLACEMENTS; pl++)
		for (int d = 1; d <= 8; d *= 2)
			r.points[r.npoints++] = point((enum live_cal_placement)pl, d, false);
	for (size_t i = 0; i < r.npoints; i++) {
		struct calprof_counts k;

		cr_assert_eq(calprof_counts(&r.points[i], &k, err, sizeof(err)), 0, "%s", err);
		r.points[i].median_ns = 5800 + 9 * k.walks + 14 * k.ops;
	}
	cr_assert_eq(calprof_fit(&r, &p, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.cost.walk_ns, 9);
	cr_expect_eq(p.cost.level_ns, 14);
	cr_expect(fabs(p.base_ns - 5800) < 0.5, "base %.3f", p.base_ns);
	cr_expect_eq(p.cost.switch_ns, 1000);
	cr_expect_eq(p.cost.wakeup_ns, 500);
	cr_expect_eq(p.cost.sleep_ns, 300);
	cr_expect_eq(p.cost.tick_ns, 400, "tick keeps its default");
	cr_expect_eq(p.n, r.npoints);
	cr_expect(!p.clamped);
	for (size_t i = 0; i < r.npoints; i++)
		cr_expect(fabs(p.residual_ns[i]) < 0.5, "residual %zu: %g", i, p.residual_ns[i]);

	/* system calls that take the whole base: nothing to split, refused */
	r.syscalls_ns = 3000;
	cr_expect_neq(calprof_fit(&r, &p, err, sizeof(err)), 0);
	cr_expect(strstr(err, "system calls") != NULL, "%s", err);
}
