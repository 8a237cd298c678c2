// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_newidle.c - when an idle CPU pulls, from the kernel's rules
 * (kernel/sched/fair.c, docs/scheduler.md "New-idle balancing"):
 *
 * - NI_RANDOM (33cf66d88306): sched_balance_newidle() balances a domain only when a draw of
 *   sched_rng() % 1024 is at most 1 + the domain's success ratio: with a ratio of 1024 always,
 *   with 0 almost never (2 draws in 1024); without NI_RANDOM always;
 * - the NOHZ kick is an IPI: the kicked idle CPU balances after the kicking CPU has left its
 *   tick, so a task that tick preempted is the one waiting there, and it ran just now: cache
 *   hot (task_hot(): within migration_cost, 0.5 ms). can_migrate_task() refuses it until the
 *   domain's nr_balance_failed exceeds cache_nice_tries (1 for an LLC domain, sd_init()).
 *
 * Machines: 2 CPUs in one LLC, HZ 250, EEVDF, no timing jitter. Two busy tasks share CPU 1;
 * their 1.4 ms requests (0.7 ms x (1 + ilog2(2))) run out before each 4 ms tick, so every tick
 * of CPU 1 switches them.
 */
#include "tests/unit/sched_test_util.h"

/* update_newidle_stats() and the domains' new-idle ratios are internal: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_newidle, .fini = stt_fini);

#define TICK (4 * STT_MS)

static struct sched *two_cpus(bool ni_random, uint32_t ratio, uint64_t seed)
{
	struct sched_config cfg;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 2);
	cfg.tun.hz = 250;
	cfg.jitter = false;
	cfg.check = true;
	cfg.feat[SCHED_FEAT_NI_RANDOM] = ni_random;
	cfg.newidle_ratio = ratio;
	cfg.seed = seed;
	stt_s = sched_new(&cfg);
	cr_assert_not_null(stt_s);
	return stt_s;
}

/* New busy task @tid on CPU @cpu at time 0, kept there until let go with stt_pin(.., -1, ..). */
static void busy_on(struct sched *s, int tid, int cpu)
{
	cr_assert_eq(sched_thread_new(s, tid, 0, 0, 0, 0), 0);
	stt_pin(s, tid, cpu, 0);
	cr_assert_eq(sched_wakeup(s, tid, 0), 0);
	stt_drain(s);
}

static int cpu_of(struct sched *s, int tid)
{
	return sched__thr_get(s, tid)->cpu->id;
}

/*
 * Task 1 runs alone on CPU 0, tasks 2 and 3 on CPU 1; all are let go at 1.002 s, half-way
 * between ticks (the waiting task of CPU 1 last ran 2 ms before: not hot), and task 1 sleeps
 * then: CPU 0 goes newly idle with one task waiting on CPU 1. Over seeds 1-100 (each its own
 * draws of the die), how many times the new-idle balance pulled it.
 */
static int newidle_pulls(bool ni_random, uint32_t ratio)
{
	uint64_t t = 250 * TICK + 2 * STT_MS;
	int pulls = 0;

	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct sched *s = two_cpus(ni_random, ratio, seed);

		busy_on(s, 1, 0);
		busy_on(s, 2, 1);
		busy_on(s, 3, 1);
		stt_advance(s, t);
		for (int tid = 1; tid <= 3; tid++)
			stt_pin(s, tid, -1, t);
		cr_assert_eq(s->cpu[1].nr_running, 2);
		cr_assert_eq(sched_sleep(s, 1, t), 0);
		stt_drain(s);
		pulls += s->cpu[0].nr_running;
		stt_sched_free();
	}
	return pulls;
}

/*
 * A pass runs when the die (0..1023) is at most 1 + ratio: with a ratio of 1024 always, of 0
 * with chance 2/1024 (about 0.2 of 100: more than 3 has a chance near 1e-4), of 511 with
 * chance 513/1024 (about 50 of 100, give or take 5: 30 to 70 is four of those either side).
 * Without NI_RANDOM every pass runs, whatever the ratio.
 */
Test(sched_newidle, ni_random_runs_by_the_success_ratio)
{
	int pulls;

	cr_expect_eq(newidle_pulls(true, 1024), 100);
	pulls = newidle_pulls(true, 0);
	cr_expect_leq(pulls, 3, "%d of 100 pulled at a ratio of 0", pulls);
	pulls = newidle_pulls(true, 511);
	cr_expect(pulls >= 30 && pulls <= 70, "%d of 100 pulled at a ratio of 511", pulls);
	cr_expect_eq(newidle_pulls(false, 0), 100);
}

/*
 * update_newidle_stats(): every call counts, a success adds its weight; at the 1024th call the
 * ratio becomes the successes and both counts halve. From sd_init()'s 512 calls and 256
 * successes: 512 failures make the ratio 256 (calls 512, successes 128); 512 successes of
 * weight 2 (a ratio of 256 runs about 1 call in 4; the kernel's weight is then
 * (1024 + 128) / 257 = 4, here 2 to keep the sums small) make it 128 + 1024 = 1152.
 */
Test(sched_newidle, ni_random_ratio_is_a_halving_window)
{
	struct sched *s = two_cpus(true, 512, 1);
	struct sched_sd *sd = &s->cpu[0].sd[0];

	cr_assert_eq(sd->newidle_call, 512);
	cr_assert_eq(sd->newidle_success, 256);
	cr_assert_eq(sd->newidle_ratio, 512);
	for (int i = 0; i < 511; i++)
		update_newidle_stats(sd, 0);
	cr_expect_eq(sd->newidle_ratio, 512, "changed before the 1024th call");
	update_newidle_stats(sd, 0);
	cr_expect_eq(sd->newidle_ratio, 256);
	cr_expect_eq(sd->newidle_call, 512);
	cr_expect_eq(sd->newidle_success, 128);
	for (int i = 0; i < 512; i++)
		update_newidle_stats(sd, 2);
	cr_expect_eq(sd->newidle_ratio, 1152);
	cr_expect_eq(sd->newidle_call, 512);
	cr_expect_eq(sd->newidle_success, 576);
}

/*
 * CPU 0 has never run a task and its tick is stopped; tasks 2 and 3 start on CPU 1 (2 runs, 3
 * waits) and are let go at 2 ms, before any balance could have found them pinned (which would
 * have doubled CPU 0's balance interval). CPU 1's tick at 4 ms switches to task 3 (task 2's
 * request ran out) and kicks CPU 0 (CPU 1 has a task waiting; CPU 0's balance interval, 2 ms,
 * has passed). CPU 0 balances after that switch: the waiting task is task 2, which ran until
 * just now: hot, refused (nr_balance_failed 0 is not above cache_nice_tries 1), the balance
 * fails. Balanced before the switch, it would have found task 3, idle for 4 ms, and moved it.
 * At the next kick task 2 has waited 4 ms and moves.
 */
Test(sched_newidle, kicked_balance_finds_the_preempted_task_hot)
{
	struct sched *s = two_cpus(false, 512, 1);

	busy_on(s, 2, 1);
	busy_on(s, 3, 1);
	cr_assert_eq(s->cpu[1].curr->tid, 2);
	stt_advance(s, 2 * STT_MS);
	stt_pin(s, 2, -1, 2 * STT_MS);
	stt_pin(s, 3, -1, 2 * STT_MS);
	stt_advance(s, TICK + 10000);
	cr_assert_eq(s->cpu[1].curr->tid, 3, "the tick at 4 ms did not switch");
	cr_expect_eq(s->cpu[0].nr_running, 0, "a task moved at the first kick");
	cr_expect_eq(s->cpu[0].sd[0].nr_balance_failed, 1);
	stt_advance(s, 2 * TICK + 10000);
	cr_expect_eq(s->cpu[0].nr_running, 1, "nothing moved at the second kick");
	cr_expect_eq(cpu_of(s, 2), 0);
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}
