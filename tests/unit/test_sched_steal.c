// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_steal.c - sched_steal(), steal time as CONFIG_PARAVIRT_TIME_ACCOUNTING
 * has it: update_rq_clock_task() takes the time the hypervisor ran something else out of
 * rq->clock_task, which update_curr() charges from, so the task on the vCPU is charged nothing
 * for it and its vruntime stands still; a halted (idle) vCPU is not stolen from. The test is
 * the driver, with no overhead costs: every expected value is wall time less what was stolen.
 */
#include "tests/unit/sched_test_util.h"

#include "scheduler/sched.h"

TestSuite(sched_steal, .fini = stt_fini);

#define US 1000ull
#define MS 1000000ull

static const struct sched_costs zero_cost = { 0, 0, 0, 0, 0, 0 };

#define OK(call)	STT_OK(s, call)

/*
 * One busy thread on one CPU from 0; 0.5 ms stolen at 1 ms: by 10 ms it has had 9.5 ms of CPU
 * time and of work, and 0.5 ms of steal is counted.
 */
static void one_thread(enum sched_policy pol, bool elision)
{
	struct sched *s = stt_sched(pol, 1, elision, &zero_cost, true);
	struct sched_stats st;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	stt_advance(s, 1 * MS);
	OK(sched_steal(s, 0, 1 * MS, 500 * US));
	cr_assert_eq(sched_thread_exec(s, 1, 1 * MS + 200 * US), 1 * MS,
		     "nothing charged while stolen");
	cr_assert_eq(sched_cpu_finish_time(s, 0, 1 * MS + 200 * US, 100 * US),
		     1 * MS + 600 * US, "its work resumes when the steal ends");
	stt_advance(s, 10 * MS);
	cr_assert_eq(sched_thread_exec(s, 1, 10 * MS), 9500 * US);
	cr_assert_eq(sched_thread_work(s, 1, 10 * MS), 9500 * US);
	sched_stats(s, &st);
	cr_assert_eq(st.steal_ns, 500 * US);
}

Test(sched_steal, a_busy_thread_is_charged_wall_time_less_steal_eevdf)
{
	one_thread(SCHED_POLICY_EEVDF, true);
}

Test(sched_steal, a_busy_thread_is_charged_wall_time_less_steal_cfs)
{
	one_thread(SCHED_POLICY_CFS, true);
}

Test(sched_steal, the_same_with_every_tick_processed)
{
	one_thread(SCHED_POLICY_EEVDF, false);
}

/* An idle CPU loses nothing: a halted vCPU is not kept from running. */
Test(sched_steal, an_idle_cpu_is_not_stolen_from)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, true, &zero_cost, true);
	struct sched_stats st;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_steal(s, 0, 1 * MS, 500 * US));
	OK(sched_wakeup(s, 1, 1200 * US));
	stt_advance(s, 2 * MS);
	cr_assert_eq(sched_thread_exec(s, 1, 2 * MS), 800 * US, "runs from its wakeup");
	sched_stats(s, &st);
	cr_assert_eq(st.steal_ns, 0);
	cr_assert_eq(sched_steal(s, 1, 2 * MS, 1), -EINVAL, "no CPU 1");
}

/*
 * Two busy threads on one CPU for 1 s, 1 ms stolen whenever thread 1 is on the CPU at a whole
 * millisecond, up to 100 ms in all: together they are charged the 0.9 s left, and since stolen
 * time moves no vruntime, thread 1 is not set back for it: fair scheduling gives both the same
 * CPU time, within a tick. The same whether the ticks are elided or processed.
 */
static void two_threads(bool elision, uint64_t *e1, uint64_t *e2)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, elision, &zero_cost, true);
	struct sched_stats st;
	int n = 0;

	OK(sched_thread_new(s, 1, 0, 0, 0, 0));
	OK(sched_thread_new(s, 2, 0, 0, 0, 0));
	OK(sched_wakeup(s, 1, 0));
	OK(sched_wakeup(s, 2, 0));
	for (uint64_t t = 1 * MS; t < 1000 * MS; t += 1 * MS) {
		stt_advance(s, t);
		if (n < 100 && sched_cpu_curr(s, 0) == 1) {
			OK(sched_steal(s, 0, t, 1 * MS));
			n++;
			t += 1 * MS;
		}
	}
	stt_advance(s, 1000 * MS);
	sched_stats(s, &st);
	cr_assert_eq(n, 100);
	cr_assert_eq(st.steal_ns, 100 * MS);
	*e1 = sched_thread_exec(s, 1, 1000 * MS);
	*e2 = sched_thread_exec(s, 2, 1000 * MS);
	cr_assert_eq(*e1 + *e2, 900 * MS, "%llu + %llu", (unsigned long long)*e1,
		     (unsigned long long)*e2);
	cr_assert_lt(*e1 > *e2 ? *e1 - *e2 : *e2 - *e1, 4 * MS, "%llu, %llu",
		     (unsigned long long)*e1, (unsigned long long)*e2);
	stt_sched_free();
}

Test(sched_steal, steal_sets_no_thread_back_elided_or_not)
{
	uint64_t a1, a2, b1, b2;

	two_threads(true, &a1, &a2);
	two_threads(false, &b1, &b2);
	cr_assert_eq(a1, b1);
	cr_assert_eq(a2, b2);
}
