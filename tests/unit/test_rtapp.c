// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_rtapp.c - rt-app workloads read as scenarios (docs/rt-app.md): workgen's
 * renaming of keys given twice (from its source: the level's counter, moved on only when the
 * name it makes is taken), a bare suspend given its task's name, json-c's syntax, places in
 * messages, and each event as the pthread calls rt-app makes for it (src/rt-app.c run_event()).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/rtapp.h"
/* internal: workgen's renaming and the keys' places (rta__parse) are not in rtapp.h */
#include "sim/scenario/rtapp_internal.h"
#include "sim/scenario/scenario.h"

static struct scenario *cur;

static void fini(void)
{
	scn_free(cur);
	cur = NULL;
}

TestSuite(rtapp, .fini = fini);

static const char *const dur[] = { "duration=1s" };

static struct scenario *load(const char *text)
{
	char err[1024];

	cur = scn_load("w.json", text, NULL, dur, 1, err, sizeof(err));
	cr_assert_not_null(cur, "load failed: %s", err);
	return cur;
}

static void refused(const char *text, const char *want)
{
	char err[1024];
	struct scenario *sc = scn_load("w.json", text, NULL, dur, 1, err, sizeof(err));

	cr_assert_null(sc);
	cr_expect_str_eq(err, want);
}

/* The steps of thread entry @name of process rt-app. */
static const struct scn_threads *entry(const struct scenario *sc, const char *name)
{
	cr_assert_eq(sc->nprocs, 1);
	cr_assert_str_eq(sc->procs[0].name, "rt-app");
	for (size_t i = 0; i < sc->procs[0].nthreads; i++)
		if (!strcmp(sc->procs[0].threads[i].name, name))
			return &sc->procs[0].threads[i];
	cr_assert_fail("no thread entry %s", name);
	return NULL;
}

static void want_step(const struct scn_threads *t, size_t i, enum sim_step_kind kind,
		      double us)
{
	cr_assert_lt(i, t->spec.behavior.nphases);
	cr_expect_eq(t->phases[i].kind, kind, "step %zu: kind %d, expected %d", i,
		     t->phases[i].kind, kind);
	if (kind == SIM_STEP_RUN || kind == SIM_STEP_SLEEP || kind == SIM_STEP_RUNTIME)
		cr_expect_eq(t->phases[i].d.a, us * 1000, "step %zu: %g ns, expected %g us", i,
			     t->phases[i].d.a, us);
}

Test(rtapp, detects_rtapp_json_by_its_top_keys)
{
	static const char yaml_flow[] = "{ name: x, tasks: 1 }";

	cr_expect(rta_is_workload("{ \"tasks\": {} }", 15));
	cr_expect(rta_is_workload("/* c */ // d\n{ \"global\": {} }", 28));
	cr_expect(rta_is_workload("{ \"resources\": {} }", 19));
	cr_expect(!rta_is_workload(yaml_flow, sizeof(yaml_flow) - 1));
	cr_expect(!rta_is_workload("name: x\n", 8));
	cr_expect(!rta_is_workload("{ \"a\": { \"tasks\": 1 } }", 23), "not at the top");
	cr_expect(!rta_is_workload("[ { \"tasks\": 1 } ]", 18));
}

/* workgen: "a" again is "a1"; the counter stays at 1 until a name it makes is taken. */
Test(rtapp, duplicate_keys_are_renamed_as_workgen_does)
{
	static const char text[] = "{ \"a\": 1, \"a\": 2, \"a\": 3, \"b\": 1, \"b\": 2,\n"
				   "  \"c\": { \"a\": 1, \"a\": 2 } }";
	struct rta_json j;
	char err[256];
	int line, col;

	cr_assert_eq(rta__parse("w.json", text, sizeof(text) - 1, &j, err, sizeof(err)), 0, "%s",
		     err);
	cr_expect(rta__where(&j, "a", &line, &col));
	cr_expect(rta__where(&j, "a1", &line, &col));
	cr_expect(rta__where(&j, "a2", &line, &col) && line == 1 && col == 19);
	cr_expect(rta__where(&j, "b", &line, &col));
	cr_expect(rta__where(&j, "b2", &line, &col), "the counter is at 2 after a2");
	cr_expect(!rta__where(&j, "b1", &line, &col));
	cr_expect(rta__where(&j, "c\x1f" "a1", &line, &col) && line == 2 && col == 18,
		  "a level of its own counts from 1 again");
	cr_expect_eq(json_object_object_length(j.root), 6);
	rta__json_free(&j);
}

/* Every event kept in file order, where json-c alone would keep the last "run" only. */
Test(rtapp, every_event_of_a_key_given_twice_runs_in_order)
{
	const struct scn_threads *t = entry(load("{ \"tasks\": { \"t\": { \"run\": 275, "
						 "\"sleep\": 10, \"run\": 4725 } } }"), "t");

	cr_assert_eq(t->spec.behavior.nphases, 3);
	want_step(t, 0, SIM_STEP_RUN, 275);
	want_step(t, 1, SIM_STEP_SLEEP, 10);
	want_step(t, 2, SIM_STEP_RUN, 4725);
	cr_expect_eq(t->spec.behavior.loops, 0, "no loop key: for ever");
}

/* suspend X: lock X, wait on X with X, unlock X; a bare "suspend" is its task's (workgen). */
Test(rtapp, suspend_and_resume_are_a_condition_under_a_mutex)
{
	struct scenario *sc = load("{ \"tasks\": {\n"
				   "  \"ping\": { \"run\": 100, \"resume\": \"pong\", \"suspend\" },\n"
				   "  \"pong\": { \"suspend\": \"pong\", \"run\": 100 } } }");
	const struct scn_threads *ping = entry(sc, "ping"), *pong = entry(sc, "pong");

	cr_assert_eq(ping->spec.behavior.nphases, 7);
	want_step(ping, 0, SIM_STEP_RUN, 100);
	want_step(ping, 1, SIM_STEP_LOCK, 0);
	want_step(ping, 2, SIM_STEP_BROADCAST, 0);
	want_step(ping, 3, SIM_STEP_UNLOCK, 0);
	want_step(ping, 4, SIM_STEP_LOCK, 0);
	want_step(ping, 5, SIM_STEP_WAIT, 0);
	want_step(ping, 6, SIM_STEP_UNLOCK, 0);
	cr_expect_str_eq(sc->conds[ping->phases[2].obj], "pong");
	cr_expect_str_eq(sc->conds[ping->phases[5].obj], "ping", "a bare suspend: its task");
	cr_expect_str_eq(sc->mutexes[ping->phases[5].obj2], "ping");
	cr_expect_eq(pong->phases[1].kind, SIM_STEP_WAIT);
	cr_expect_eq(pong->phases[1].obj, ping->phases[2].obj, "pong waits where ping resumes");
}

/* Phases loop (a repeat), the thread loops over them; priority is the nice; cpus per phase. */
Test(rtapp, phases_loops_and_attributes)
{
	struct scenario *sc = load("{ \"tasks\": { \"w\": { \"loop\": 3, \"cpus\": [0],\n"
				   "  \"phases\": {\n"
				   "    \"a\": { \"loop\": 4, \"priority\": 5, \"run\": 1000 },\n"
				   "    \"b\": { \"cpus\": [0], \"sleep\": 2000 } } } } }");
	const struct scn_threads *t = entry(sc, "w");

	cr_expect_eq(t->spec.behavior.loops, 3);
	cr_expect(t->has_affinity, "the task's cpus: its own mask from the start");
	/* a: affinity (the task's), nice 5, run, repeat x4; b: affinity, sleep */
	cr_assert_eq(t->spec.behavior.nphases, 6);
	want_step(t, 0, SIM_STEP_AFFINITY, 0);
	want_step(t, 1, SIM_STEP_NICE, 0);
	cr_expect_eq(t->phases[1].obj, 5);
	want_step(t, 2, SIM_STEP_RUN, 1000);
	want_step(t, 3, SIM_STEP_REPEAT, 0);
	cr_expect_eq(t->phases[3].obj, 0);
	cr_expect_eq(t->phases[3].count, 4);
	want_step(t, 4, SIM_STEP_AFFINITY, 0);
	want_step(t, 5, SIM_STEP_SLEEP, 2000);
}

/* A timer is shared by its name unless the name starts with "unique" (rt-app's rule). */
Test(rtapp, timers_unique_and_shared)
{
	struct scenario *sc = load("{ \"tasks\": {\n"
				   "  \"a\": { \"run\": 10, \"timer\": { \"ref\": \"unique\", \"period\": 100 } },\n"
				   "  \"b\": { \"run\": 10, \"timer\": { \"ref\": \"tick\", \"period\": 100,\n"
				   "          \"mode\": \"absolute\" } } } }");
	const struct scn_threads *a = entry(sc, "a"), *b = entry(sc, "b");

	cr_expect_eq(a->phases[1].kind, SIM_STEP_TIMER);
	cr_expect_eq(a->phases[1].ns, 100000);
	cr_expect_eq(a->phases[1].flags, 0u);
	cr_expect_eq(b->phases[1].flags, SIM_TIMER_SHARED | SIM_TIMER_ABSOLUTE);
	cr_expect_str_eq(sc->timers[b->phases[1].obj], "tick");
}

/* json-c decides the syntax: comments and trailing commas pass; errors keep their place. */
Test(rtapp, json_c_syntax_and_places)
{
	load("{ /* c */ \"tasks\": { \"t\": { \"run\": 1, }, }, // d\n }");
	fini();
	/* the renamed "run1" is one byte longer: the column is still the file's */
	refused("{ \"tasks\": { \"t\": { \"run\": 1, \"run\": 2 \"x\" } } }",
		"w.json:1:40: error: object value separator ',' expected (rt-app reads "
		"its file with json-c, which takes comments and trailing commas but not this)");
	refused("{ \"tasks\": {\n  \"t\": { \"run\": 1, \"fork\": \"t\" } } }",
		"w.json:2:20: error: rt-app's fork event ('fork') is not modelled: cgsim's "
		"threads are all made when the run starts");
}

/* What cgsim ignores is said, with its place, and the load goes on. */
Test(rtapp, ignored_keys_are_noted)
{
	struct scenario *sc = load("{ \"tasks\": { \"t\": { \"run\": 1, \"util_max\": 512 } },\n"
				   "  \"global\": { \"calibration\": \"CPU0\", \"logdir\": \"./\" } }");

	cr_assert_eq(sc->nnotes, 2);
	cr_expect(!strncmp(sc->notes[0], "w.json:1:31: note: util_max (uclamp) ignored", 44), "%s",
		  sc->notes[0]);
	cr_expect(!strncmp(sc->notes[1], "w.json:2:15: note: calibration ignored", 38), "%s",
		  sc->notes[1]);
}
