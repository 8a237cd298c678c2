// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_groups.c - task groups through the scheduler's API: their
 * entities' weights (calc_group_shares) on one CPU and two, and random operations on a tree of
 * groups that keep every invariant sched_check() knows.
 *
 * The test is the driver, calling the scheduler (scheduler/sched.h) without the machine, with
 * the time, and draining sched_pop_changed(); expected values come from the kernel's tables and
 * rules (docs/scheduler.md).
 */
#include "tests/unit/sched_test_util.h"

TestSuite(sched_groups, .fini = stt_fini);

#define OK(call)	STT_OK(s, call)
#define MS		STT_MS

/* ======================= group shares through the API ======================= */

/*
 * One CPU: calc_group_shares (§4.6) = shares * load / (tg.load_avg - contrib + load); with one
 * CPU tg.load_avg is this queue's own contribution, so the entity gets exactly its shares:
 * 1024 for weight 1024, 2048 for 2048, and the idle group WEIGHT_IDLEPRIO = 3.
 */
Test(sched_groups, group_weight_one_cpu)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, true, NULL, true);

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 0, 2048, false, 0));
	OK(sched_tg_new(s, 3, 0, 1024, true, 0));
	OK(sched_thread_new(s, 10, 1, 0, 0, 0));
	OK(sched_thread_new(s, 11, 2, 0, 0, 0));
	OK(sched_thread_new(s, 12, 3, 0, 0, 0));
	OK(sched_wakeup(s, 10, 0));
	OK(sched_wakeup(s, 11, 0));
	OK(sched_wakeup(s, 12, 0));
	sched_advance(s, 500 * MS);
	stt_drain(s);
	cr_expect_eq(sched_group_weight(s, 1, 0), 1024, "weight 1024 group: %" PRIu64,
		     sched_group_weight(s, 1, 0));
	cr_expect_eq(sched_group_weight(s, 2, 0), 2048, "weight 2048 group: %" PRIu64,
		     sched_group_weight(s, 2, 0));
	cr_expect_eq(sched_group_weight(s, 3, 0), 3, "idle group: %" PRIu64,
		     sched_group_weight(s, 3, 0));
	stt_sched_free();
}

/*
 * Two CPUs, a group of weight 1024 with two busy threads: new tasks go to the least loaded CPU
 * (find_idlest_cpu), one each. Once the load averages settle (PELT: ~1 s is 30 half-lives),
 * each queue's load is 1024 of a total 2048, so each entity gets 1024 * 1024 / 2048 = 512
 * (±1.5 % for the 1/64 publication threshold of update_tg_load_avg).
 */
static void group_weight_split(enum sched_policy pol)
{
	struct sched *s = stt_sched(pol, 2, true, NULL, true);
	uint64_t w0, w1;

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_thread_new(s, 1, 1, 0, 0, 0));
	OK(sched_thread_new(s, 2, 1, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	sched_advance(s, 1000 * MS);
	stt_drain(s);
	cr_expect_neq(sched_cpu_curr(s, 0), -1);
	cr_expect_neq(sched_cpu_curr(s, 1), -1);
	w0 = sched_group_weight(s, 1, 0);
	w1 = sched_group_weight(s, 1, 1);
	cr_expect(w0 >= 504 && w0 <= 520, "[%s] CPU 0 group weight %" PRIu64 ", want 512",
		  sched_policy_name(pol), w0);
	cr_expect(w1 >= 504 && w1 <= 520, "[%s] CPU 1 group weight %" PRIu64 ", want 512",
		  sched_policy_name(pol), w1);
	stt_sched_free();
}

Test(sched_groups, group_weight_split_eevdf) { group_weight_split(SCHED_POLICY_EEVDF); }
Test(sched_groups, group_weight_split_cfs) { group_weight_split(SCHED_POLICY_CFS); }
Test(sched_groups, group_weight_split_eevdf_flat) { group_weight_split(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= random operations keep every invariant ======================= */

/*
 * 4 CPUs, a small tree of groups (one idle), 24 threads of random nice and slices; 4000
 * random operations (wakeup, sleep, sleep of a running thread, move between groups, nice,
 * affinity, time passing) at random times from a fixed-seed LCG. sched_check() must hold
 * after every one, and every call must succeed.
 */
static void random_ops(enum sched_policy pol, bool elision)
{
	struct sched *s = stt_sched(pol, 4, elision, NULL, false);
	static const int tgs[] = { 0, 1, 2, 3, 4, 5 };
	uint64_t rng = 12345, now = 0;
	enum { NTHR = 24 };
	char when[96];

	OK(sched_tg_new(s, 1, 0, 1024, false, 0));
	OK(sched_tg_new(s, 2, 1, 2048, false, 0));
	OK(sched_tg_new(s, 3, 0, 512, false, 0));
	OK(sched_tg_new(s, 4, 2, 100, false, 0));
	OK(sched_tg_new(s, 5, 0, 1024, true, 0));
	for (int t = 1; t <= NTHR; t++) {
		int nice = (int)(stt_lcg(&rng) % 40) - 20;
		uint64_t slice = stt_lcg(&rng) % 3 == 0 ? 100000 + stt_lcg(&rng) % 3000000 : 0;

		OK(sched_thread_new(s, t, tgs[stt_lcg(&rng) % 6], nice, slice, 0));
	}
	stt_check_ok(s, "setup");
	for (int step = 0; step < 4000; step++) {
		uint32_t op = stt_lcg(&rng) % 16;
		int tid = 1 + (int)(stt_lcg(&rng) % NTHR);

		now += stt_lcg(&rng) % (2 * MS);
		switch (op) {
		case 0: case 1: case 2: case 3: case 4:
			OK(sched_wakeup(s, tid, now));
			break;
		case 5: case 6:
			OK(sched_sleep(s, tid, now));
			break;
		case 7: case 8: {
			int c = (int)(stt_lcg(&rng) % 4), cur;

			sched_advance(s, now);
			stt_drain(s);
			cur = sched_cpu_curr(s, c);
			if (cur > 0)
				OK(sched_sleep(s, cur, now));
			break;
		}
		case 9: case 10:
			OK(sched_thread_move(s, tid, tgs[stt_lcg(&rng) % 6], now));
			break;
		case 11:
			OK(sched_thread_set_nice(s, tid, (int)(stt_lcg(&rng) % 40) - 20, now));
			break;
		case 12: {
			uint64_t mask = 1 + stt_lcg(&rng) % 15;

			OK(sched_thread_set_affinity(s, tid, &mask, 1, now));
			break;
		}
		default:
			sched_advance(s, now);
			stt_drain(s);
			break;
		}
		snprintf(when, sizeof(when), "step %d (op %u, tid %d, t %" PRIu64 ")", step, op,
			 tid, now);
		stt_check_ok(s, when);
	}
	/* Leave: threads exit, groups go (children first). */
	for (int t = 1; t <= NTHR; t++) {
		now += 10000;
		OK(sched_thread_exit(s, t, now));
		stt_check_ok(s, "exit");
	}
	for (int i = 5; i >= 1; i--)	/* 4 before its parent 2, 2 before its parent 1 */
		OK(sched_tg_free(s, i, now));
	for (int c = 0; c < 4; c++)
		cr_expect_eq(sched_cpu_curr(s, c), -1);
	stt_check_ok(s, "end");
	stt_sched_free();
}

Test(sched_groups, random_ops_check_eevdf) { random_ops(SCHED_POLICY_EEVDF, true); }
Test(sched_groups, random_ops_check_cfs) { random_ops(SCHED_POLICY_CFS, true); }
Test(sched_groups, random_ops_check_eevdf_noelide) { random_ops(SCHED_POLICY_EEVDF, false); }
Test(sched_groups, random_ops_check_cfs_noelide) { random_ops(SCHED_POLICY_CFS, false); }
Test(sched_groups, random_ops_check_eevdf_flat) { random_ops(SCHED_POLICY_EEVDF_FLAT, true); }
Test(sched_groups, random_ops_check_eevdf_flat_noelide)
{
	random_ops(SCHED_POLICY_EEVDF_FLAT, false);
}
