// SPDX-License-Identifier: MIT
/*
 * Unit tests of sim/calibrate/calprofile.h: what the simulated ping-pong walks and changes per round
 * trip at each of calibrate's points, against the counts derived by hand from the model's
 * rules (docs/overhead.md), the round trip it predicts, against the sum of its parts, and the
 * fit, which must give back the constants a synthetic calibration was made from.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sim/calibrate/calprofile.h"

static struct live_cal_point point(enum live_cal_placement p, int depth, bool autogroup)
{
	return (struct live_cal_point){ .placement = p, .depth = depth, .autogroup = autogroup };
}

/*
 * The simulated ping-pong is in the kernel's regime (docs/overhead.md, "The simulated
 * ping-pong"): in most round trips the reader the writer wakes preempts it, its answer finds
 * the writer runnable (the post is kept) and only the reader blocks; in the others the writer
 * goes on and blocks too. Either way a round trip is two switches, and w wakeups and w blocks
 * with 1 <= w <= 2; the kernel measured here blocks 1.04-1.07 times a round trip, and the
 * model must be in that regime: w <= 1.2.
 *
 * Given w, what a round trip walks and changes follows from the model's rules. A chain of
 * L = depth + 1 levels (the task's entity and its groups'), of which u are not shared by the
 * two threads (1 in one cgroup or the root; 2 in siblings; L in separate chains; the task and
 * levels 2 .. depth on cgroup2, where level 1 is shared) and the top unshared entity sits on a
 * queue with the other thread's chain. An entity that blocks alone on its queue has lag 0 and
 * leaves at once; the top unshared one has just run on a shared queue, is behind V and is
 * delayed (DELAY_DEQUEUE), and its wakeup requeues it (no operation).
 *   walks: each wakeup L (enqueue, then on to the root), each switch's pick L, each block 1
 *     when the task's own entity is the delayed one (u = 1), else L: 2 L + w (L + s), with
 *     s = 1 or L;
 *   level operations: each switch puts and sets the u unshared levels, 4 u a round trip; each
 *     block dequeues and each wakeup enqueues the u - 1 below the delayed one: 4 u + 2 w (u - 1).
 * A pick now and then meets a delayed entity, dequeues it and picks again, which walks a few
 * levels more: 0.05 a round trip is allowed for that.
 */
static void expect_counts(struct live_cal_point pt, int u)
{
	struct calprof_counts k;
	char err[512] = "";
	const char *pl = live_cal_placement_name[pt.placement];
	int L = pt.depth + 1 + (pt.autogroup ? 1 : 0);
	double w, walks, ops;

	cr_assert_eq(calprof_counts(&pt, &k, err, sizeof(err)), 0, "%s", err);
	w = k.wakeups;
	walks = 2 * L + w * (L + (u == 1 ? 1 : L));
	ops = 4 * u + 2 * w * (u - 1);
	cr_expect(fabs(k.switches - 2) < 0.01, "%s depth %d: %.4f switches a round trip, want 2",
		  pl, pt.depth, k.switches);
	cr_expect(w >= 1 - 0.01 && w <= 1.2, "%s depth %d%s%s: %.4f wakeups a round trip, want "
		  "1 to 1.2", pl, pt.depth, pt.autogroup ? " (autogroup)" : "",
		  pt.threaded ? " (cgroup2)" : "", w);
	cr_expect(k.walks >= walks - 0.01 && k.walks <= walks + 0.05, "%s depth %d%s%s: %.4f walks"
		  " a round trip, want %.4f", pl, pt.depth, pt.autogroup ? " (autogroup)" : "",
		  pt.threaded ? " (cgroup2)" : "", k.walks, walks);
	cr_expect(fabs(k.ops - ops) < 0.01, "%s depth %d%s: %.4f level operations, want %.4f", pl,
		  pt.depth, pt.threaded ? " (cgroup2)" : "", k.ops, ops);
}

static struct live_cal_point threaded(enum live_cal_placement p, int depth)
{
	return (struct live_cal_point){ .placement = p, .depth = depth, .threaded = true };
}

/*
 * On cgroup2 the two threads' chains share level 1, their process's domain (the levels below
 * are threaded cgroups): separate chains at depth d leave the task and levels 2 .. d
 * unshared; siblings below it are as on v1.
 */
Test(calprof, counts_per_round_trip_threaded)
{
	for (int d = 2; d <= 8; d *= 2) {
		expect_counts(threaded(LIVE_CAL_SAME, d), 1);
		expect_counts(threaded(LIVE_CAL_SIBLINGS, d), 2);
		expect_counts(threaded(LIVE_CAL_SEPARATE, d), d);
	}
	expect_counts(threaded(LIVE_CAL_SAME, 1), 1);
}

/* With autogroup the root threads share one autogroup: L = 2, u = 1. */
Test(calprof, counts_per_round_trip)
{
	expect_counts(point(LIVE_CAL_SAME, 0, false), 1);
	expect_counts(point(LIVE_CAL_SAME, 0, true), 1);
	for (int d = 1; d <= 8; d *= 2) {
		expect_counts(point(LIVE_CAL_SAME, d, false), 1);
		expect_counts(point(LIVE_CAL_SIBLINGS, d, false), 2);
		expect_counts(point(LIVE_CAL_SEPARATE, d, false), d + 1);
	}
}

/*
 * The round trip with the default costs, the ones calprof_counts() simulates with, and its
 * run of 2,000 ns a half: two halves, 1 ns for each woken thread (its return from its wait,
 * docs/scenario-format.md), two switches, w wakeups and w sleeps, and what the round trip walks
 * and changes. Separate chains of depth 4. A tick every 4 ms (tick_ns + 5 walks) falls in about
 * one round trip in 600 and adds under 1 ns to the mean.
 */
Test(calprof, predicted_round_trip)
{
	struct live_cal_point pt = point(LIVE_CAL_SEPARATE, 4, false);
	struct calprof_counts k;
	struct sched_config def;
	double want, rt;
	char err[512] = "";

	sched_config_default(&def, SCHED_POLICY_EEVDF, 1);
	cr_assert_eq(calprof_counts(&pt, &k, err, sizeof(err)), 0, "%s", err);
	want = 2 * 2000.0 + k.wakeups * (1 + def.cost.wakeup_ns + def.cost.sleep_ns) +
	       k.switches * def.cost.switch_ns + k.walks * def.cost.walk_ns +
	       k.ops * def.cost.level_ns;
	cr_assert_eq(calprof_predict(&pt, NULL, &def.cost, 2000, &rt, err, sizeof(err)), 0, "%s",
		     err);
	cr_expect(rt >= want - 0.01 && rt < want + 1, "round trip %.2f ns, want %.2f", rt, want);
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
 * them exactly. The system calls (1,100 ns a half) leave 5,800 - 2,200 = 3,600 ns a round
 * trip for its two switches, its w wakeups and its w sleeps (w averaged over the points):
 * with switch = x, wakeup = 0.5 x and sleep = 0.3 x that is (2 + 0.8 w) x.
 */
Test(calprof, fit_gives_back_the_constants)
{
	struct live_cal_report r = { .reps = 5, .round_trips = 1000, .syscalls_ns = 1100 };
	struct calprof p;
	double w = 0, x;
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
		w += k.wakeups / (double)r.npoints;
	}
	x = 3600 / (2 + 0.8 * w);
	cr_assert_eq(calprof_fit(&r, &p, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.cost.walk_ns, 9);
	cr_expect_eq(p.cost.level_ns, 14);
	cr_expect(fabs(p.base_ns - 5800) < 0.5, "base %.3f", p.base_ns);
	cr_expect_eq(p.cost.switch_ns, (uint64_t)llround(x), "switch %" PRIu64 ", want %.2f",
		     p.cost.switch_ns, x);
	cr_expect_eq(p.cost.wakeup_ns, (uint64_t)llround(0.5 * x));
	cr_expect_eq(p.cost.sleep_ns, (uint64_t)llround(0.3 * x));
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
