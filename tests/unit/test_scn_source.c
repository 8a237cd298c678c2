// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_scn_source.c - a scenario file read and parsed once (scn_source_read()),
 * each variant, override set and sweep value a copy of its document: the scenarios are those
 * a load of the file for each would give, no load reaches another, and a scenario lives on
 * after the caller has let go of the source.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/scenario/scenario.h"

static const char text[] =
	"name: src\n"
	"duration: 2s\n"
	"seed: 7\n"
	"machine: { cpus: 2 }\n"
	"cgroups:\n"
	"  /: { cgroup.subtree_control: +cpu }\n"
	"  vm: { cpu.weight: 100 }\n"
	"processes:\n"
	"  app: { threads: { w: { count: 3, behavior: busy } } }\n"
	"  guest: { cgroup: vm, threads: { v: { count: 2, behavior: busy } } }\n"
	"variants:\n"
	"  heavy: { set: { cgroups.vm.cpu.weight: 400 } }\n"
	"  four: { set: { machine.cpus: 4 } }\n"
	"sweep: { key: duration, values: [ 1s, 3s ] }\n";

/* The value of cgroup @path's cpu.weight write in @sc, or NULL. */
static const char *weight(const struct scenario *sc, const char *path)
{
	for (size_t i = 0; i < sc->ncgroups; i++)
		for (size_t j = 0; !strcmp(sc->cgroups[i].path, path) && j < sc->cgroups[i].nwrites;
		     j++)
			if (!strcmp(sc->cgroups[i].writes[j].file, "cpu.weight"))
				return sc->cgroups[i].writes[j].value;
	return NULL;
}

/* The same scenario: the figures the variants, overrides and sweep here can change. */
static void same(const struct scenario *a, const struct scenario *b)
{
	cr_expect_str_eq(a->variant, b->variant);
	cr_expect_eq(a->sched.machine.cpus, b->sched.machine.cpus);
	cr_expect_eq(a->duration, b->duration);
	cr_expect_eq(a->seed, b->seed);
	cr_expect_eq(a->nprocs, b->nprocs);
	cr_expect_eq(a->total_threads, b->total_threads);
	cr_expect_str_eq(weight(a, "vm"), weight(b, "vm"));
}

Test(scn_source, loads_are_the_files_loads)
{
	static const char *const sets[] = { "seed=9", "cgroups.vm.cpu.weight=50" };
	static const struct {
		const char *variant;
		size_t nsets, sweep;
	} cases[] = {
		{ NULL, 0, SCN_NO_SWEEP }, { "heavy", 0, SCN_NO_SWEEP }, { "four", 2, SCN_NO_SWEEP },
		{ "base", 1, 0 }, { "heavy", 0, 1 }, { NULL, 2, 1 },
	};
	char err[1024];
	struct scn_source *src = scn_source_read("t.yaml", text, err, sizeof(err));

	cr_assert_not_null(src, "%s", err);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scenario *a = scn_source_load(src, cases[i].variant, sets, cases[i].nsets,
						     cases[i].sweep, err, sizeof(err));
		struct scenario *b;

		cr_assert_not_null(a, "case %zu: %s", i, err);
		b = scn_load_swept("t.yaml", text, cases[i].variant, sets, cases[i].nsets,
				   cases[i].sweep, err, sizeof(err));
		cr_assert_not_null(b, "case %zu: %s", i, err);
		same(a, b);
		scn_free(a);
		scn_free(b);
	}
	scn_source_put(src);
}

/* An override, a variant's set: or a sweep value changes its own copy, never the source. */
Test(scn_source, no_load_reaches_another)
{
	static const char *const cpus4[] = { "machine.cpus=4", "cgroups.vm.cpu.weight=10" };
	char err[1024];
	struct scn_source *src = scn_source_read("t.yaml", text, err, sizeof(err));
	struct scenario *a, *b, *c, *d;

	cr_assert_not_null(src, "%s", err);
	a = scn_source_load(src, "heavy", cpus4, 2, 1, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_expect_eq(a->sched.machine.cpus, 4);
	cr_expect_str_eq(weight(a, "vm"), "10");	/* --set wins over the variant's set: */
	cr_expect_eq(a->duration, 3000000000ull);
	b = scn_source_load(src, NULL, NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_expect_eq(b->sched.machine.cpus, 2);
	cr_expect_str_eq(weight(b, "vm"), "100");
	cr_expect_eq(b->duration, 2000000000ull);
	c = scn_source_load(src, "heavy", NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(c, "%s", err);
	cr_expect_str_eq(weight(c, "vm"), "400");
	/* a refused load leaves the source as it was */
	d = scn_source_load(src, "nosuch", NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_expect_null(d);
	cr_expect_str_eq(err, "t.yaml: error: no variant 'nosuch' (the file has: base, heavy, four)");
	scn_free(d);
	d = scn_source_load(src, NULL, NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(d, "%s", err);
	cr_expect_eq(d->sched.machine.cpus, 2);
	cr_expect_str_eq(weight(d, "vm"), "100");
	scn_free(a);
	scn_free(b);
	scn_free(c);
	scn_free(d);
	scn_source_put(src);
}

/* The file is read once: what it holds later does not reach the loads that follow. */
Test(scn_source, file_read_once)
{
	char path[] = "/tmp/cgsim-src-XXXXXX", err[1024];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct scn_source *src;
	struct scenario *sc;

	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	src = scn_source_read(path, NULL, err, sizeof(err));
	unlink(path);
	cr_assert_not_null(src, "%s", err);
	cr_expect_str_eq(scn_source_path(src), path);
	sc = scn_source_load(src, "four", NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(sc, "%s", err);
	cr_expect_eq(sc->sched.machine.cpus, 4);
	cr_expect_str_eq(sc->text, text);
	scn_free(sc);
	scn_source_put(src);
}

/*
 * A trace that processes name is read once for every load of the source (the same file:
 * device, inode, size and modification time), until scn_source_forget_traces(): a file whose
 * bytes changed behind that identity is not read again before, and is after.
 */
Test(scn_source, trace_read_once_for_all_loads)
{
	static const char trace[] =
		"  w-10 [000] 1.000000: sched_switch: prev_comm=w prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"  <idle>-0 [000] 1.002000: sched_wakeup: comm=w pid=10 prio=120 target_cpu=000\n"
		"  <idle>-0 [000] 1.002000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120\n"
		"  w-10 [000] 1.005000: sched_switch: prev_comm=w prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"  <idle>-0 [000] 1.009000: sched_wakeup: comm=w pid=10 prio=120 target_cpu=000\n"
		"  <idle>-0 [000] 1.009000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120\n"
		"  w-10 [000] 1.010000: sched_switch: prev_comm=w prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
	char tpath[] = "/tmp/cgsim-trace-XXXXXX", yaml[1024], err[1024], junk[sizeof(trace)];
	int fd = mkstemp(tpath);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct scn_source *src;
	struct scenario *a, *b, *c;
	struct stat sb;
	size_t steps;

	cr_assert_not_null(f);
	fputs(trace, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(stat(tpath, &sb), 0);
	snprintf(yaml, sizeof(yaml),
		 "name: tr\nduration: 20ms\nmachine: { cpus: 1 }\n"
		 "processes:\n  p: { trace: %s, select: { comm: w } }\n"
		 "variants:\n  two: { set: { machine.cpus: 2 } }\n", tpath);
	src = scn_source_read("tr.yaml", yaml, err, sizeof(err));
	cr_assert_not_null(src, "%s", err);
	a = scn_source_load(src, NULL, NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(a->nprocs, 1);
	cr_assert_eq(a->procs[0].nthreads, 1);
	steps = a->procs[0].threads[0].spec.behavior.nphases;
	cr_expect_gt(steps, 0);

	/* other bytes, same size, same modification time: the same file to the cache */
	memset(junk, 'x', sizeof(junk) - 1);
	junk[sizeof(junk) - 1] = '\0';
	junk[sizeof(junk) - 2] = '\n';
	f = fopen(tpath, "w");
	cr_assert_not_null(f);
	fputs(junk, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(utimensat(AT_FDCWD, tpath, (struct timespec[]){ sb.st_atim, sb.st_mtim }, 0),
		     0);

	b = scn_source_load(src, "two", NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_expect_eq(b->sched.machine.cpus, 2);
	cr_expect_eq(b->procs[0].threads[0].spec.behavior.nphases, steps);

	scn_source_forget_traces(src);
	c = scn_source_load(src, NULL, NULL, 0, SCN_NO_SWEEP, err, sizeof(err));
	cr_expect_null(c);
	cr_expect(strstr(err, "cannot read the trace") != NULL, "%s", err);

	unlink(tpath);
	scn_free(a);
	scn_free(b);
	scn_free(c);
	scn_source_put(src);
}

/* A scenario holds its source: its text, notes and the places its nodes name outlive the
 * caller's reference. */
Test(scn_source, scenario_outlives_the_callers_reference)
{
	static const char *const dur[] = { "duration=1s" };
	static const char json[] = "{ \"tasks\": { \"t\": { \"run\": 1, \"util_max\": 512 } } }";
	char err[1024];
	struct scn_source *src = scn_source_read("w.json", json, err, sizeof(err));
	struct scenario *a, *b;

	cr_assert_not_null(src, "%s", err);
	a = scn_source_load(src, NULL, dur, 1, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	scn_source_put(src);
	cr_expect(a->rtapp);
	cr_expect_str_eq(a->text, json);
	cr_assert_eq(a->nnotes, 1);
	cr_expect(!strncmp(a->notes[0], "w.json:1:31: note: util_max (uclamp) ignored", 44), "%s",
		  a->notes[0]);
	/* another load from the scenario's own reference, as variants are made */
	b = scn_source_load(a->src, NULL, dur, 1, SCN_NO_SWEEP, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	scn_free(a);
	cr_expect_eq(b->nnotes, 1);
	cr_expect_eq(b->duration, 1000000000ull);
	scn_free(b);
}

/* A file that cannot be parsed fails once, with the message a load gives. */
Test(scn_source, parse_error_at_read)
{
	char err[1024], err2[1024];
	struct scn_source *src = scn_source_read("t.yaml", "name: [\n", err, sizeof(err));
	struct scenario *sc = scn_load("t.yaml", "name: [\n", NULL, NULL, 0, err2, sizeof(err2));

	cr_expect_null(src);
	cr_expect_null(sc);
	cr_expect_str_eq(err, err2);
	cr_expect(strstr(err, "t.yaml:") == err, "%s", err);
}
