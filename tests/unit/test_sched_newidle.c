// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_newidle.c - when an idle CPU pulls, from the kernel's rules
 * (kernel/sched/fair.c, docs/scheduler.md "SMP"):
 *
 * - the NOHZ kick is an IPI: the kicked idle CPU balances after the kicking CPU has left its
 *   tick, so a task that tick preempted is the one waiting there, and it ran just now: cache
 *   hot (task_hot(): within migration_cost, 0.5 ms). can_migrate_task() refuses it until the
 *   domain's nr_balance_failed exceeds cache_nice_tries (1 for an LLC domain, sd_init()).
 *
 * Machines: 2 CPUs in one LLC, HZ 250, EEVDF, no timing jitter.
 */
#include "tests/unit/sched_test_util.h"

#include "scheduler/sched_internal.h"

TestSuite(sched_newidle, .fini = stt_fini);

#define TICK (4 * STT_MS)

static struct sched *two_cpus(void)
{
	struct sched_config cfg;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 2);
	cfg.tun.hz = 250;
	cfg.jitter = false;
	cfg.check = true;
	stt_s = sched_new(&cfg);
	cr_assert_not_null(stt_s);
	return stt_s;
}

static void drain(struct sched *s)
{
	while (sched_pop_changed(s) >= 0)
		;
}

static void pin(struct sched *s, int tid, int cpu, uint64_t now)
{
	uint64_t mask[SCHED_MAX_CPUS / 64] = { 0 };

	if (cpu < 0)
		memset(mask, 0xff, sizeof(mask));
	else
		mask[0] = 1ull << cpu;
	cr_assert_eq(sched_thread_set_affinity(s, tid, mask, SCHED_MAX_CPUS / 64, now), 0);
	drain(s);
}

/* New busy task @tid on CPU @cpu at time 0, kept there until freed with pin(..., -1, ...). */
static void busy_on(struct sched *s, int tid, int cpu)
{
	cr_assert_eq(sched_thread_new(s, tid, 0, 0, 0, 0), 0);
	pin(s, tid, cpu, 0);
	cr_assert_eq(sched_wakeup(s, tid, 0), 0);
	drain(s);
}

static int cpu_of(struct sched *s, int tid)
{
	return sched__thr_get(s, tid)->cpu->id;
}

static void run_to(struct sched *s, uint64_t t)
{
	sched_advance(s, t);
	drain(s);
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
	struct sched *s = two_cpus();

	busy_on(s, 2, 1);
	busy_on(s, 3, 1);
	cr_assert_eq(s->cpu[1].curr->tid, 2);
	run_to(s, 2 * STT_MS);
	pin(s, 2, -1, 2 * STT_MS);
	pin(s, 3, -1, 2 * STT_MS);
	run_to(s, TICK + 10000);
	cr_assert_eq(s->cpu[1].curr->tid, 3, "the tick at 4 ms did not switch");
	cr_expect_eq(s->cpu[0].nr_running, 0, "a task moved at the first kick");
	cr_expect_eq(s->cpu[0].sd[0].nr_balance_failed, 1);
	run_to(s, 2 * TICK + 10000);
	cr_expect_eq(s->cpu[0].nr_running, 1, "nothing moved at the second kick");
	cr_expect_eq(cpu_of(s, 2), 0);
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}
