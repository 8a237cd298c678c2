// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_expect_unmeasured.c - a thread's start is not a wakeup (docs/latency.md).
 *
 * The kernel starts a new task with wake_up_new_task(), traced as sched_wakeup_new, not as the
 * sched_wakeup of a sleeper: a thread's first run says nothing of how fast it is woken. So the
 * start adds no wakeup latency sample and is not counted in `wakeups`, and a latency or
 * `delayed` bound on a thread that never slept in the window is not measured: `check` fails it
 * ("not measured: no wakeup in the measured window") rather than judging it on the start.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "sim/run/expect.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

/* The scenario below, loaded and run by run(), freed by done() */
static struct scenario *cur;
static struct run_result *cur_res;

/*
 * One CPU, HZ 1000, the ideal machine (no timer or idle-exit latency), no warm-up: every start
 * is in the measured window. A busy thread that never sleeps; a 1 ms / 10 ms periodic thread
 * that first begins at 370 us plus the clock's phase (< 1 ms, docs/scenario-format.md).
 */
static const char scenario[] =
	"name: unmeasured\n"
	"duration: 1s\n"
	"machine: { cpus: 1, hz: 1000, timer_latency: 0, idle_exit: 0 }\n"
	"scheduler: { policy: eevdf }\n"
	"processes:\n"
	"  app:\n"
	"    threads:\n"
	"      worker: { behavior: busy }\n"
	"  rt:\n"
	"    threads:\n"
	"      tick: { start: 370us, behavior: { periodic: { run: 1ms, period: 10ms } } }\n"
	"expect:\n"
	"  - { thread: app/worker.1, latency_p99: \"< 2ms\" }\n"
	"  - { thread: app/worker.1, delayed: \"< 0.5\" }\n"
	"  - { process: app, latency_max: \"< 2ms\" }\n"
	"  - { thread: rt/tick.1, latency_p99: \"< 2ms\" }\n";

static void run(void)
{
	char err[1024];

	cur = scn_load("t.yaml", scenario, NULL, NULL, 0, err, sizeof(err));
	cr_assert_not_null(cur, "load failed: %s", err);
	cr_assert_eq(run_scenario(cur, false, &cur_res, err, sizeof(err)), 0, "%s", err);
}

static void done(void)
{
	run_free(cur_res);
	scn_free(cur);
}

static const struct run_thread *thread(const char *process, const char *name)
{
	for (size_t i = 0; i < cur_res->nthreads; i++)
		if (!strcmp(cur_res->threads[i].process, process) &&
		    !strcmp(cur_res->threads[i].name, name))
			return &cur_res->threads[i];
	cr_assert_fail("no thread %s/%s", process, name);
	return NULL;
}

/* The busy thread started in the window and never slept: no wakeup, no latency sample. */
Test(expect_unmeasured, busy_thread_start_is_no_wakeup)
{
	const struct run_thread *t;

	run();
	t = thread("app", "worker.1");
	cr_expect_eq(t->wakeups, 0, "wakeups %llu", (unsigned long long)t->wakeups);
	cr_expect_eq(t->lat_samples, 0, "samples %llu", (unsigned long long)t->lat_samples);
	cr_expect_eq(t->delayed, 0);
	cr_expect_eq(t->lat_max, 0);
	done();
}

/* Its latency and delayed bounds, and its process's, fail as not measured. */
Test(expect_unmeasured, latency_bound_on_busy_thread_fails)
{
	struct expect_result *v;
	size_t n;

	run();
	cr_assert_eq(expect_results(cur_res, &v, &n), 0);
	cr_assert_eq(n, 4);
	for (size_t i = 0; i < 3; i++) {
		cr_expect(!v[i].ok, "passed: %s", v[i].text);
		cr_expect(strstr(v[i].text, "not measured: no wakeup in the measured window"),
			  "%s", v[i].text);
	}
	/* the periodic thread woke 99 times: judged, and well within 2 ms on one CPU */
	cr_expect(v[3].ok, "%s", v[3].text);
	cr_expect(!strstr(v[3].text, "not measured"), "%s", v[3].text);
	expect_results_free(v, n);
	done();
}

/*
 * The periodic thread begins at s = 370 us + phase (< 1.37 ms) and then every 10 ms: its
 * activations begin at s + 10k ms for k = 0 .. 99 (s + 990 ms < 1 s), the first its start and
 * the 99 others wakeups from its timer, each run within about a tick and a slice (< 2 ms) of
 * it, so in the window. One latency sample per wakeup: 99, and none for the start.
 */
Test(expect_unmeasured, periodic_samples_are_its_wakeups)
{
	const struct run_thread *t;

	run();
	t = thread("rt", "tick.1");
	cr_expect_eq(t->overruns, 0);
	cr_expect_eq(t->wakeups, 99, "wakeups %llu", (unsigned long long)t->wakeups);
	cr_expect_eq(t->lat_samples, t->wakeups, "samples %llu, wakeups %llu",
		     (unsigned long long)t->lat_samples, (unsigned long long)t->wakeups);
	done();
}
