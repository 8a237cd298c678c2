// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_machine.c - the load averages, and the machine following the cgroup
 * model while it runs: weight changes, threads moved inside a threaded subtree, affinity,
 * CPU time credited to the cgroup a thread ran in (cpu.stat's usage).
 *
 * Expected values come from the rules (docs/scheduler.md), derived in the comments.
 */
#include "tests/unit/sched_test_util.h"

/* the PELT series (struct pelt, pelt.c) is internal arithmetic: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_pelt);
TestSuite(sched_machine, .fini = stt_fini);

#define PERIOD 1024000ull	/* one PELT period, ns */

/* An always-present load of 1024 averages 1024 once settled: avg = sum * 1024 / full. */
Test(sched_pelt, steady_state_is_the_signal)
{
	struct pelt p;

	pelt_init(&p, 0);
	pelt_set(&p, 0, 1024);
	pelt_update(&p, 1000 * PERIOD);
	cr_expect_eq(p.avg, 1024, "avg %" PRIu64 ", want 1024", p.avg);
	cr_expect(pelt_stable(&p), "settled after 1000 periods");
	/* another signal settles at itself, give or take the floors of the series */
	pelt_set(&p, 1000 * PERIOD, 3 * 1024);
	pelt_update(&p, 2000 * PERIOD);
	cr_expect(p.avg >= 3 * 1024 - 3 && p.avg <= 3 * 1024, "avg %" PRIu64 ", want ~3072", p.avg);
}

/* y^32 = 1/2: 32 periods after the load leaves, the average is half of what it was. */
Test(sched_pelt, half_life_is_32_periods)
{
	struct pelt p;
	double half;

	pelt_init(&p, 0);
	pelt_set(&p, 0, 1024);
	pelt_update(&p, 1000 * PERIOD);
	pelt_set(&p, 1000 * PERIOD, 0);
	pelt_update(&p, 1032 * PERIOD);
	half = (double)p.avg / 1024.0;
	cr_expect(fabs(half - 0.5) < 0.01, "after 32 periods: %.4f of the old average", half);
	cr_expect(!pelt_stable(&p), "still decaying");
	pelt_update(&p, 5000 * PERIOD);
	cr_expect_eq(p.avg, 0, "decayed to 0");
	cr_expect(pelt_stable(&p), "settled at 0");
}

/*
 * Everything happens at absolute period ends and the integral inside a period is exact, so the
 * result cannot depend on how often the average is brought up to date (what tick elision needs).
 */
Test(sched_pelt, independent_of_update_times)
{
	struct pelt a, b;
	uint64_t t = 0;
	uint32_t r = 12345;

	pelt_init(&a, 0);
	pelt_init(&b, 0);
	for (int i = 0; i < 2000; i++) {
		uint64_t x;

		r = r * 1103515245u + 12345u;
		t += 1 + (r >> 8) % (3 * PERIOD);
		x = (r >> 4) % 5000;
		/* a is updated every 7 us as well; b only when the signal changes */
		for (uint64_t u = a.last + 7000; u < t; u += 7000)
			pelt_update(&a, u);
		pelt_set(&a, t, x);
		pelt_set(&b, t, x);
	}
	pelt_update(&a, t + 10 * PERIOD);
	pelt_update(&b, t + 10 * PERIOD);
	cr_expect_eq(a.sum, b.sum, "sums %" PRIu64 " and %" PRIu64, a.sum, b.sum);
	cr_expect_eq(a.avg, b.avg, "averages %" PRIu64 " and %" PRIu64, a.avg, b.avg);
}

/*
 * The series period by period, written out: at each period end sum = floor(sum y) + the
 * period's integral of x (weight x us), y = 0xfa83b2da / 2^32. The average, brought up to
 * date at every period end and at times inside periods, must give the same sum at every end;
 * long stretches of a constant signal settle it, where a boundary leaves the sum as it is.
 */
Test(sched_pelt, follows_the_series_through_settled_stretches)
{
	struct pelt p;
	uint64_t ref = 0, x = 0, integral = 0, r = 99, hold = 0;

	pelt_init(&p, 0);
	for (uint64_t k = 0; k < 30000; k++) {
		uint64_t start = k * PERIOD, t = start;

		if (!hold) {
			/* a new signal from somewhere inside this period, held for a while */
			uint64_t at = start + stt_lcg(&r) % PERIOD, nx = stt_lcg(&r) % 4 * 1024;

			pelt_update(&p, at);
			integral += x * (at - t);
			t = at;
			x = nx;
			pelt_set(&p, at, x);
			hold = 1 + stt_lcg(&r) % 2500;
		}
		hold--;
		if (stt_lcg(&r) % 3 == 0)
			pelt_update(&p, start + stt_lcg(&r) % PERIOD);
		integral += x * (start + PERIOD - t);
		ref = (uint64_t)(((unsigned __int128)ref * 0xfa83b2daull) >> 32) + integral / 1000;
		integral = 0;
		pelt_update(&p, start + PERIOD);
		cr_assert_eq(p.sum, ref, "period %" PRIu64 ": sum %" PRIu64 ", the series %" PRIu64,
			     k, p.sum, ref);
		cr_assert_eq(p.avg, ref * 1024 / pelt_full(), "period %" PRIu64 ": average", k);
	}
}

/*
 * @p under signal @x, whose boundary at 3 periods leaves the sum at @S, no fixed point, by
 * chance: as if a history had been attached during period 2, with a period's integral that
 * makes the boundary give @S back.
 */
static void chance_unchanged(struct pelt *p, uint64_t x, uint64_t S)
{
	pelt_init(p, 0);
	pelt_set(p, 0, x);
	pelt_update(p, 2 * PERIOD);
	p->sum = S;
	p->acc = (S - (uint64_t)(((unsigned __int128)S * 0xfa83b2daull) >> 32)) * 1000 -
		 x * (3 * PERIOD - p->last);
	p->settled = false;
	p->fixed = false;
	pelt_update(p, 3 * PERIOD);
	cr_assert_eq(p->sum, S, "the set-up: the boundary left the sum as it was");
}

/*
 * A boundary can leave the sum unchanged by chance when the period's integral was not the
 * signal's alone (a history attached to a queue brings its own): that sum is no fixed point of
 * the series under the signal, and the next period, the signal's alone, must still move it.
 */
Test(sched_pelt, an_unchanged_sum_after_an_attach_is_no_fixed_point)
{
	const uint64_t x = 65, S = 3300000;	/* the fixed points of x = 65 lie near 3.1 M */
	uint64_t want;
	struct pelt p;

	chance_unchanged(&p, x, S);
	want = (uint64_t)(((unsigned __int128)S * 0xfa83b2daull) >> 32) + x * 1024;
	cr_assert_neq(want, S, "the set-up: S is no fixed point under x");
	pelt_update(&p, 4 * PERIOD);
	cr_expect_eq(p.sum, want, "a period of x alone: sum %" PRIu64 ", the series %" PRIu64,
		     p.sum, want);
}

/*
 * The same chance, then 40 periods folded in one update (a blocked queue brought up to date
 * at a balance): the series period by period, as when it is updated at every period end, not
 * the sum left where the chance left it. The same holds for the tick that is elided: a sum
 * unchanged by chance is not quiescent.
 */
Test(sched_pelt, many_periods_after_a_chance_unchanged_sum_follow_the_series)
{
	const uint64_t x = 65, S = 3300000;
	uint64_t want = S;
	struct pelt p;

	chance_unchanged(&p, x, S);
	cr_expect(!pelt_stable(&p), "a sum unchanged by chance counts as stable");
	for (int k = 0; k < 40; k++)
		want = (uint64_t)(((unsigned __int128)want * 0xfa83b2daull) >> 32) + x * 1024;
	pelt_update(&p, 43 * PERIOD);
	cr_expect_eq(p.sum, want, "40 periods of x alone: sum %" PRIu64 ", the series %" PRIu64,
		     p.sum, want);
}

/* ---------------- the machine following the cgroup model ---------------- */

static double window_share(struct sim_machine *m, int cg, int cpus, uint64_t window)
{
	return stt_share(sim_machine_cgroup_cpu(m, cg), cpus, window);
}

/*
 * Two groups of weight 100 with one busy thread each share one CPU 1:1. Writing 300 to B's
 * cpu.weight mid-run (a timeline write) reweights B's entity at once (sched_group_set_shares):
 * from then on 1:3, i.e. 25 % / 75 %.
 */
static void weight_change(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int a, b;

	stt_cgroup(h, "A", 100);
	stt_cgroup(h, "B", 100);
	a = stt_proc(h, "a", 1, "A");
	b = stt_proc(h, "b", 1, "B");
	m = stt_machine(h, pol, 1, 1, true, true);
	stt_busy(m, a, 0);
	stt_busy(m, b, 0);
	stt_run(m, STT_SEC / 2, 2 * STT_SEC);
	cr_expect(fabs(window_share(m, stt_cgid(h, "A"), 1, 2 * STT_SEC) - 0.5) < 0.01,
		  "[%s] before: A %.4f, want 0.5", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "A"), 1, 2 * STT_SEC));
	stt_write(h, "B/cpu.weight", "300");
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + STT_SEC / 2), 0);
	sim_machine_reset_metrics(m);
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + 4 * STT_SEC), 0);
	cr_expect(fabs(window_share(m, stt_cgid(h, "A"), 1, 4 * STT_SEC) - 0.25) < 0.01,
		  "[%s] after: A %.4f, want 0.25", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "A"), 1, 4 * STT_SEC));
	cr_expect(fabs(window_share(m, stt_cgid(h, "B"), 1, 4 * STT_SEC) - 0.75) < 0.01,
		  "[%s] after: B %.4f, want 0.75", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "B"), 1, 4 * STT_SEC));
	stt_end();
}

Test(sched_machine, weight_change_eevdf) { weight_change(SCHED_POLICY_EEVDF); }
Test(sched_machine, weight_change_cfs) { weight_change(SCHED_POLICY_CFS); }

/*
 * A threaded subtree: domain cgroup "app" (the thread root) with threaded children t1 (weight
 * 100) and t2 (weight 300), one process of 4 busy threads, 2 in each, one CPU. The children
 * split the CPU 1:3 whatever their thread counts: t1 25 %, t2 75 %. Moving one of t1's threads
 * to t2 through cgroup.threads leaves t1 with one thread, which then gets all of t1's 25 %,
 * while t2's three share 75 % (25 % each). CPU time is credited to the cgroup the thread ran in.
 */
static void threaded_move(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	char buf[32];
	int p;

	stt_cgroup(h, "app", 100);
	stt_enable_cpu(h, "app");
	stt_write(h, "app/cgroup.type", "threaded");
	cr_assert_eq(cg_mkdir(h, "app/t1"), 0);
	cr_assert_eq(cg_mkdir(h, "app/t2"), 0);
	stt_write(h, "app/t1/cgroup.type", "threaded");
	stt_write(h, "app/t2/cgroup.type", "threaded");
	stt_write(h, "app/t1/cpu.weight", "100");
	stt_write(h, "app/t2/cpu.weight", "300");
	p = stt_proc(h, "w", 4, "app");
	for (int i = 0; i < 4; i++) {
		snprintf(buf, sizeof(buf), "%d", p + i);
		stt_write(h, i < 2 ? "app/t1/cgroup.threads" : "app/t2/cgroup.threads", buf);
	}
	m = stt_machine(h, pol, 1, 1, true, true);
	for (int i = 0; i < 4; i++)
		stt_busy(m, p + i, 0);
	stt_run(m, STT_SEC / 2, 2 * STT_SEC);
	cr_expect(fabs(window_share(m, stt_cgid(h, "app/t1"), 1, 2 * STT_SEC) - 0.25) < 0.01,
		  "[%s] t1 %.4f, want 0.25", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "app/t1"), 1, 2 * STT_SEC));
	cr_expect(fabs(stt_share(stt_cpu(m, p), 1, 2 * STT_SEC) - 0.125) < 0.01,
		  "[%s] t1's first thread %.4f, want 0.125", sched_policy_name(pol),
		  stt_share(stt_cpu(m, p), 1, 2 * STT_SEC));
	snprintf(buf, sizeof(buf), "%d", p + 1);
	stt_write(h, "app/t2/cgroup.threads", buf);
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + STT_SEC / 2), 0);
	sim_machine_reset_metrics(m);
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + 4 * STT_SEC), 0);
	cr_expect(fabs(window_share(m, stt_cgid(h, "app/t1"), 1, 4 * STT_SEC) - 0.25) < 0.01,
		  "[%s] after the move: t1 %.4f, want 0.25", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "app/t1"), 1, 4 * STT_SEC));
	for (int i = 0; i < 4; i++)
		cr_expect(fabs(stt_share(stt_cpu(m, p + i), 1, 4 * STT_SEC) - 0.25) < 0.012,
			  "[%s] after the move: thread %d %.4f, want 0.25", sched_policy_name(pol),
			  i, stt_share(stt_cpu(m, p + i), 1, 4 * STT_SEC));
	cr_expect(fabs(window_share(m, stt_cgid(h, "app"), 1, 4 * STT_SEC) - 1.0) < 0.01,
		  "[%s] app (with its descendants) %.4f, want 1", sched_policy_name(pol),
		  window_share(m, stt_cgid(h, "app"), 1, 4 * STT_SEC));
	stt_end();
}

Test(sched_machine, threaded_move_eevdf) { threaded_move(SCHED_POLICY_EEVDF); }
Test(sched_machine, threaded_move_cfs) { threaded_move(SCHED_POLICY_CFS); }

/*
 * Affinity: three busy threads on two CPUs, one of them allowed only CPU 1. It must never be
 * seen anywhere else (sampled every millisecond), never migrate, and with one other thread at
 * most beside it, it gets at least half of CPU 1: 25 % of the machine or more.
 */
static void pinned(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	struct sim_thread_spec sp;
	uint64_t mask = 1u << 1;
	int p;

	p = stt_proc(h, "w", 3, NULL);
	m = stt_machine(h, pol, 2, 1, true, true);
	memset(&sp, 0, sizeof(sp));
	sp.behavior.kind = SIM_BEHAV_BUSY;
	sp.affinity = &mask;
	sp.affinity_words = 1;
	stt_set(m, p, &sp);
	stt_busy(m, p + 1, 0);
	stt_busy(m, p + 2, 0);
	for (uint64_t t = STT_MS; t <= 2 * STT_SEC; t += STT_MS) {
		struct sched_thread_stats st;

		cr_assert_eq(sim_machine_run_until(m, t), 0);
		cr_assert_eq(sched_thread_stats(sim_machine_sched(m), p, &st), 0);
		cr_assert_eq(st.cpu, 1, "[%s] at %" PRIu64 " ns the pinned thread is on CPU %d",
			     sched_policy_name(pol), t, st.cpu);
		cr_assert_eq(st.migrations, 0);
	}
	cr_expect_geq(stt_share(stt_cpu(m, p), 2, 2 * STT_SEC), 0.25 - 0.01,
		      "[%s] pinned thread %.4f of the machine, want >= 0.25", sched_policy_name(pol),
		      stt_share(stt_cpu(m, p), 2, 2 * STT_SEC));
	stt_end();
}

Test(sched_machine, pinned_eevdf) { pinned(SCHED_POLICY_EEVDF); }
Test(sched_machine, pinned_cfs) { pinned(SCHED_POLICY_CFS); }

/*
 * A process moved out of a group (cgroup.procs) leaves it empty; rmdir then destroys its task
 * group while the run goes on. The thread keeps running, now in the root.
 */
static void group_goes_away(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	char buf[32];
	int p;

	stt_cgroup(h, "G", 100);
	p = stt_proc(h, "w", 2, "G");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy(m, p, 0);
	stt_busy(m, p + 1, 0);
	cr_assert_eq(sim_machine_run_until(m, STT_SEC), 0);
	snprintf(buf, sizeof(buf), "%d", p);
	stt_write(h, "cgroup.procs", buf);
	cr_assert_eq(cg_rmdir(h, "G"), 0);
	sim_machine_reset_metrics(m);
	cr_assert_eq(sim_machine_run_until(m, 2 * STT_SEC), 0);
	/* two busy threads, two CPUs: one CPU each */
	cr_expect(fabs(stt_share(stt_cpu(m, p), 2, STT_SEC) - 0.5) < 0.01);
	cr_expect(fabs(stt_share(stt_cpu(m, p + 1), 2, STT_SEC) - 0.5) < 0.01);
	stt_end();
}

Test(sched_machine, group_goes_away_eevdf) { group_goes_away(SCHED_POLICY_EEVDF); }
Test(sched_machine, group_goes_away_cfs) { group_goes_away(SCHED_POLICY_CFS); }

/*
 * Autogroup (kernel/sched/autogroup.c): threads whose task group is the root run in their
 * session's hidden group of weight 1024. On one CPU, process A with 3 busy threads and process B
 * with 1, both in the root: without autogroup 4 equal entities, A 75 %, B 25 %; with it, one
 * autogroup each (their own sessions), A 50 %, B 50 % (each A thread 16.7 %); when B joins A's
 * session, all four share one autogroup: 75 / 25 again. Threads in a cgroup with a cpu task
 * group are not autogrouped: C in group G (weight 100) next to A and B's autogroups: 1/3 each.
 */
static void autogroup(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int a, b, c;

	stt_cgroup(h, "G", 100);
	a = stt_proc(h, "a", 3, NULL);
	b = stt_proc(h, "b", 1, NULL);
	c = stt_proc(h, "c", 1, "G");
	m = stt_machine(h, pol, 1, 1, true, true);
	cr_assert_eq(sim_machine_set_autogroup(m, true), 0);
	stt_busy_n(m, a, 3);
	stt_busy(m, b, 0);
	stt_busy(m, c, 0);
	stt_run(m, STT_SEC / 2, 3 * STT_SEC);
	cr_expect(fabs(stt_share(stt_cpu(m, a) + stt_cpu(m, a + 1) + stt_cpu(m, a + 2), 1,
				 3 * STT_SEC) - 1.0 / 3) < 0.01, "[%s] a's autogroup", sched_policy_name(pol));
	cr_expect(fabs(stt_share(stt_cpu(m, b), 1, 3 * STT_SEC) - 1.0 / 3) < 0.01,
		  "[%s] b's autogroup %.4f", sched_policy_name(pol),
		  stt_share(stt_cpu(m, b), 1, 3 * STT_SEC));
	cr_expect(fabs(stt_share(stt_cpu(m, c), 1, 3 * STT_SEC) - 1.0 / 3) < 0.01,
		  "[%s] G", sched_policy_name(pol));
	/* b joins a's session: one autogroup of 4 threads against G */
	cr_assert_eq(sim_machine_set_session(m, b, a, 0), 0);
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + STT_SEC / 2), 0);
	sim_machine_reset_metrics(m);
	cr_assert_eq(sim_machine_run_until(m, sim_machine_now(m) + 3 * STT_SEC), 0);
	cr_expect(fabs(stt_share(stt_cpu(m, b), 1, 3 * STT_SEC) - 0.125) < 0.01,
		  "[%s] b in a's session %.4f, want 0.125", sched_policy_name(pol),
		  stt_share(stt_cpu(m, b), 1, 3 * STT_SEC));
	cr_expect(fabs(stt_share(stt_cpu(m, c), 1, 3 * STT_SEC) - 0.5) < 0.01,
		  "[%s] G %.4f, want 0.5", sched_policy_name(pol),
		  stt_share(stt_cpu(m, c), 1, 3 * STT_SEC));
	stt_end();
}

Test(sched_machine, autogroup_eevdf) { autogroup(SCHED_POLICY_EEVDF); }
Test(sched_machine, autogroup_cfs) { autogroup(SCHED_POLICY_CFS); }

/* ---------------- bandwidth control (docs/scheduler.md) ---------------- */

static uint64_t cg_cpu(struct sim_machine *m, struct cg_hier *h, const char *path)
{
	return sim_machine_cgroup_cpu(m, stt_cgid(h, path));
}

/*
 * cpu.max "50000 100000" caps group L at 0.5 CPU: with 2 busy threads on 2 CPUs it gets 25 % of
 * the machine, the unlimited group F with 2 busy threads the other 75 % (one whole CPU and the
 * half L leaves). Tick elision must not change a bit of it.
 */
static void quota(enum sched_policy pol, bool elision, uint64_t *out)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int l, f;

	stt_cgroup(h, "L", 100);
	stt_cgroup(h, "F", 100);
	stt_write(h, "L/cpu.max", "50000 100000");
	l = stt_proc(h, "l", 2, "L");
	f = stt_proc(h, "f", 2, "F");
	m = stt_machine(h, pol, 2, 1, true, elision);
	stt_busy_n(m, l, 2);
	stt_busy_n(m, f, 2);
	stt_run(m, STT_SEC / 2, 4 * STT_SEC);
	cr_expect(fabs(stt_share(cg_cpu(m, h, "L"), 2, 4 * STT_SEC) - 0.25) < 0.005,
		  "[%s] L %.4f, want 0.25", sched_policy_name(pol),
		  stt_share(cg_cpu(m, h, "L"), 2, 4 * STT_SEC));
	cr_expect(fabs(stt_share(cg_cpu(m, h, "F"), 2, 4 * STT_SEC) - 0.75) < 0.005,
		  "[%s] F %.4f, want 0.75", sched_policy_name(pol),
		  stt_share(cg_cpu(m, h, "F"), 2, 4 * STT_SEC));
	out[0] = stt_cpu(m, l);
	out[1] = stt_cpu(m, f);
	out[2] = stt_tm(m, l).switches;
	stt_end();
}

static void quota_both(enum sched_policy pol)
{
	uint64_t a[3], b[3];

	quota(pol, true, a);
	quota(pol, false, b);
	cr_expect(a[0] == b[0] && a[1] == b[1] && a[2] == b[2],
		  "[%s] tick elision changed a throttled run", sched_policy_name(pol));
}

Test(sched_machine, quota_eevdf) { quota_both(SCHED_POLICY_EEVDF); }
Test(sched_machine, quota_cfs) { quota_both(SCHED_POLICY_CFS); }

/*
 * Each level enforces its own quota: child C asks for 2 CPUs (cpu.max 200000 100000) under
 * parent P limited to 0.3 CPU; C's two busy threads on 2 CPUs get 0.3 CPU = 15 % of the
 * machine. cpu.stat of P counts the periods it was throttled in.
 */
Test(sched_machine, parent_quota_limits_child)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	char *txt = NULL;
	unsigned long long periods = 0, throttled = 0;
	int c;

	stt_cgroup(h, "P", 100);
	stt_enable_cpu(h, "P");
	stt_cgroup(h, "P/C", 100);
	stt_write(h, "P/cpu.max", "30000 100000");
	stt_write(h, "P/C/cpu.max", "200000 100000");
	c = stt_proc(h, "c", 2, "P/C");
	m = stt_machine(h, SCHED_POLICY_EEVDF, 2, 1, true, true);
	stt_busy_n(m, c, 2);
	stt_run(m, STT_SEC / 2, 4 * STT_SEC);
	cr_expect(fabs(stt_share(cg_cpu(m, h, "P/C"), 2, 4 * STT_SEC) - 0.15) < 0.005,
		  "C %.4f, want 0.15", stt_share(cg_cpu(m, h, "P/C"), 2, 4 * STT_SEC));
	cr_assert_eq(cg_read(h, "P/cpu.stat", &txt), 0);
	cr_assert(sscanf(strstr(txt, "nr_periods"), "nr_periods %llu\nnr_throttled %llu",
			 &periods, &throttled) == 2, "cpu.stat: %s", txt);
	free(txt);
	/* 4.5 s of 100 ms periods, every one of them throttled (2 threads want 2 CPUs) */
	cr_expect(periods >= 44 && periods <= 45, "nr_periods %llu", periods);
	cr_expect(throttled + 1 >= periods, "nr_throttled %llu of %llu", throttled, periods);
	stt_end();
}

/*
 * Burst: group B is limited to 20 ms per 100 ms period with cpu.max.burst 20 ms (the kernel wants
 * burst <= quota). X runs 1 ms every 100 ms (so the period timer never stops and the pool, 20 ms
 * short of nothing each period, saves up to quota + burst = 40 ms); Y runs 35 ms every 400 ms.
 * With the burst, a period where Y runs uses 36 ms <= 39 ms in the pool: never throttled, and
 * cpu.stat counts each such period as a burst of 16 ms. Without it the pool holds 20 ms at most:
 * Y is throttled once per activation and there are no bursts.
 */
static void burst(bool with, unsigned long long *nr_thr, unsigned long long *nr_burst,
		  unsigned long long *burst_us)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	struct sim_thread_spec sp;
	unsigned long long periods, bursts, us, thr, thr_us;
	char *txt = NULL, *at;
	int p;

	stt_cgroup(h, "B", 100);
	stt_write(h, "B/cpu.max", "20000 100000");
	if (with)
		stt_write(h, "B/cpu.max.burst", "20000");
	p = stt_proc(h, "b", 2, "B");
	m = stt_machine(h, SCHED_POLICY_EEVDF, 1, 1, true, true);
	memset(&sp, 0, sizeof(sp));
	sp.behavior.kind = SIM_BEHAV_PERIODIC;
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 1e6, 0 };
	sp.behavior.period_ns = 100 * STT_MS;
	stt_set(m, p, &sp);
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 35e6, 0 };
	sp.behavior.period_ns = 400 * STT_MS;
	sp.start_ns = 50 * STT_MS;
	stt_set(m, p + 1, &sp);
	stt_run(m, STT_SEC, 4 * STT_SEC);
	cr_assert_eq(cg_read(h, "B/cpu.stat", &txt), 0);
	at = strstr(txt, "nr_periods");
	cr_assert(at && sscanf(at, "nr_periods %llu\nnr_throttled %llu\nthrottled_usec %llu\n"
				   "nr_bursts %llu\nburst_usec %llu", &periods, &thr, &thr_us,
			       &bursts, &us) == 5, "cpu.stat: %s", txt);
	free(txt);
	*nr_thr = thr;
	*nr_burst = bursts;
	*burst_us = us;
	stt_end();
}

Test(sched_machine, burst)
{
	unsigned long long thr, bursts, us;

	burst(true, &thr, &bursts, &us);
	/* the pool starts at the quota: only Y's first activation finds less than it needs */
	cr_expect(thr <= 1, "with a burst Y is throttled once at most (%llu times)", thr);
	/* 5 s: Y's 13 activations, each period holding one is a burst of 16 ms */
	cr_expect(bursts >= 12 && bursts <= 13, "nr_bursts %llu, want 12-13", bursts);
	cr_expect(us >= bursts * 15000 && us <= bursts * 17000, "burst_usec %llu, want ~16 ms each",
		  us);
	burst(false, &thr, &bursts, &us);
	cr_expect(thr >= 12, "without a burst Y is throttled every activation (%llu)", thr);
	cr_expect_eq(bursts, 0, "no burst without cpu.max.burst (%llu)", bursts);
}

/*
 * A sleep longer than the clock can count (drawn past 2^64 ns) means "never": the thread runs
 * its first 1 ms burst and sleeps for good. One CPU with a busy thread beside it: after the
 * first burst the sleeper gets nothing, so 0 CPU in a window from 0.5 s to 1 s, and the busy
 * thread all of it but the ticks' cost. (A sleep that wrapped would end at once, and the sleeper
 * would run like a busy thread: half the CPU.)
 */
Test(sched_machine, sleep_past_the_clock_is_forever)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	struct sim_thread_spec sp;
	int p;

	p = stt_proc(h, "w", 2, NULL);
	m = stt_machine(h, SCHED_POLICY_EEVDF, 1, 1, true, true);
	memset(&sp, 0, sizeof(sp));
	sp.behavior.kind = SIM_BEHAV_BURSTY;
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 1e6, 0 };
	sp.behavior.sleep = (struct sim_dist){ SIM_DIST_FIXED, 1e20, 0 };
	stt_set(m, p, &sp);
	stt_busy(m, p + 1, 0);
	stt_run(m, STT_SEC / 2, STT_SEC / 2);
	cr_expect_eq(stt_cpu(m, p), 0, "the sleeper ran %" PRIu64 " ns", stt_cpu(m, p));
	cr_expect_geq(stt_share(stt_cpu(m, p + 1), 1, STT_SEC / 2), 0.99,
		      "the busy thread has %.4f of the CPU", stt_share(stt_cpu(m, p + 1), 1, STT_SEC / 2));
	stt_end();
}

/*
 * sim_machine_set_thread() copies what the spec points to: a caller may give the next thread
 * the same phases array with other steps in it. Threads given equal behaviours share one copy
 * (machine.c), which must not make the second thread run the first one's steps. Two threads
 * on two CPUs, each alone on its CPU after the first balance: run 1 ms, sleep 9 ms has 0.1 of
 * a CPU, run 3 ms, sleep 7 ms 0.3 (a wakeup on an idle CPU waits for nothing; the scheduler's
 * few microseconds a cycle are charged to the thread and stay within the tolerance).
 */
Test(sched_machine, each_thread_runs_the_steps_it_was_given)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	struct sim_phase ph[2];
	struct sim_thread_spec sp;
	int p;

	p = stt_proc(h, "w", 2, NULL);
	m = stt_machine(h, SCHED_POLICY_EEVDF, 2, 1, true, true);
	memset(&sp, 0, sizeof(sp));
	memset(ph, 0, sizeof(ph));
	sp.behavior.kind = SIM_BEHAV_PHASES;
	sp.behavior.phases = ph;
	sp.behavior.nphases = 2;
	ph[0] = (struct sim_phase){ .kind = SIM_STEP_RUN, .d = { SIM_DIST_FIXED, 1e6, 0 } };
	ph[1] = (struct sim_phase){ .kind = SIM_STEP_SLEEP, .d = { SIM_DIST_FIXED, 9e6, 0 } };
	stt_set(m, p, &sp);
	ph[0].d.a = 3e6;
	ph[1].d.a = 7e6;
	stt_set(m, p + 1, &sp);
	ph[0].d.a = ph[1].d.a = 5e9;	/* what the caller does with its array afterwards */
	stt_run(m, STT_SEC / 2, 2 * STT_SEC);
	cr_expect_float_eq(stt_share(stt_cpu(m, p), 1, 2 * STT_SEC), 0.1, 0.002,
			   "run 1 ms, sleep 9 ms: %.4f", stt_share(stt_cpu(m, p), 1, 2 * STT_SEC));
	cr_expect_float_eq(stt_share(stt_cpu(m, p + 1), 1, 2 * STT_SEC), 0.3, 0.002,
			   "run 3 ms, sleep 7 ms: %.4f", stt_share(stt_cpu(m, p + 1), 1, 2 * STT_SEC));
	stt_end();
}
