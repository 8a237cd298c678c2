// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_scenario.c - the scenario loader, overrides and variants, and a run from
 * text: values parsed as docs/scenario-format.md defines them, shares against the kernel's
 * formulas, and the same bytes from the same seed.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

static struct scenario *cur;
static struct run_result *cur_res;

static void fini(void)
{
	run_free(cur_res);
	cur_res = NULL;
	scn_free(cur);
	cur = NULL;
}

TestSuite(scenario, .fini = fini);

static struct scenario *load(const char *text, const char *variant, const char *const *sets,
			     size_t nsets)
{
	char err[1024];

	cur = scn_load("t.yaml", text, variant, sets, nsets, err, sizeof(err));
	cr_assert_not_null(cur, "load failed: %s", err);
	return cur;
}

static void load_fails(const char *text, const char *want)
{
	char err[1024];
	struct scenario *sc = scn_load("t.yaml", text, NULL, NULL, 0, err, sizeof(err));

	scn_free(sc);
	cr_assert_null(sc, "loaded, want: %s", want);
	cr_expect_str_eq(err, want);
}

Test(scenario, times)
{
	uint64_t ns;

	cr_expect_eq(scn_parse_time("10s", &ns), 0);
	cr_expect_eq(ns, 10000000000ull);
	cr_expect_eq(scn_parse_time("1.5ms", &ns), 0);
	cr_expect_eq(ns, 1500000);
	cr_expect_eq(scn_parse_time("250us", &ns), 0);
	cr_expect_eq(ns, 250000);
	cr_expect_eq(scn_parse_time("7ns", &ns), 0);
	cr_expect_eq(ns, 7);
	cr_expect_eq(scn_parse_time("0", &ns), 0);
	cr_expect_eq(ns, 0);
	cr_expect_eq(scn_parse_time("10", &ns), -EINVAL, "a time needs its unit");
	cr_expect_eq(scn_parse_time("-1ms", &ns), -EINVAL);
	cr_expect_eq(scn_parse_time("1min", &ns), -EINVAL);
	cr_expect_eq(scn_parse_time("1e30s", &ns), -ERANGE);
}

Test(scenario, distributions)
{
	struct sim_dist d;

	cr_expect_eq(scn_parse_dist("2ms", &d), 0);
	cr_expect(d.kind == SIM_DIST_FIXED && d.a == 2e6);
	cr_expect_eq(scn_parse_dist("exp(3ms)", &d), 0);
	cr_expect(d.kind == SIM_DIST_EXP && d.a == 3e6);
	cr_expect_eq(scn_parse_dist("uniform(1ms, 2ms)", &d), 0);
	cr_expect(d.kind == SIM_DIST_UNIFORM && d.a == 1e6 && d.b == 2e6);
	cr_expect_eq(scn_parse_dist("lognormal(5ms,1ms)", &d), 0);
	cr_expect(d.kind == SIM_DIST_LOGNORMAL && d.a == 5e6 && d.b == 1e6);
	cr_expect_eq(scn_parse_dist("pareto(1.5, 1ms)", &d), 0, "the shape has no unit");
	cr_expect(d.kind == SIM_DIST_PARETO && d.a == 1.5 && d.b == 1e6);
	cr_expect_eq(scn_parse_dist("exp(0)", &d), -ERANGE, "exp needs a mean > 0");
	cr_expect_eq(scn_parse_dist("uniform(2ms, 1ms)", &d), -ERANGE);
	cr_expect_eq(scn_parse_dist("exp(1ms, 2ms)", &d), -EINVAL);
	cr_expect_eq(scn_parse_dist("gauss(1ms)", &d), -EINVAL);
}

static const char base[] =
	"name: t\n"
	"duration: 3s\n"
	"warmup: 500ms\n"
	"machine: { cpus: 1 }\n"
	"cgroups:\n"
	"  /: { cgroup.subtree_control: +cpu }\n"
	"  a: { cpu.weight: 100 }\n"
	"  b/c: { cpu.weight: 300 }\n"
	"processes:\n"
	"  p: { cgroup: a, threads: { w: { behavior: busy } } }\n"
	"  q: { cgroup: b/c, threads: { w: { behavior: busy, nice: 3 } } }\n"
	"variants:\n"
	"  heavy: { set: { cgroups.a.cpu.weight: 900, machine.cpus: 2 } }\n";

Test(scenario, defaults_and_layout)
{
	struct scenario *sc = load(base, NULL, NULL, 0);

	cr_expect_str_eq(sc->name, "t");
	cr_expect_eq(sc->seed, 1);
	cr_expect_eq(sc->duration, 3000000000ull);
	cr_expect_eq(sc->sched.machine.cpus, 1);
	cr_expect_eq(sc->sched.tun.hz, 1000);
	cr_expect_eq(sc->sched.policy, SCHED_POLICY_EEVDF_FLAT, "the newest kernel's, 7.3's");
	cr_expect_eq(sc->ncgroups, 3);
	cr_expect_str_eq(sc->cgroups[0].path, "", "/ is the root");
	cr_expect_str_eq(sc->cgroups[2].path, "b/c");
	cr_expect_str_eq(sc->cgroups[1].writes[0].value, "100");
	cr_expect_eq(sc->total_threads, 2);
	cr_expect_eq(sc->procs[1].threads[0].spec.nice, 3);
	/* the wakeup path of the machine the defaults were measured on (docs/latency.md) */
	cr_expect_eq(sc->timer_latency.kind, SIM_DIST_LOGNORMAL);
	cr_expect_eq(sc->timer_latency.a, 65000);
	cr_expect_eq(sc->timer_latency.b, 5000);
	cr_expect_eq(sc->idle_exit.kind, SIM_DIST_LOGNORMAL);
	cr_expect_eq(sc->idle_exit.a, 53000);
	cr_expect_eq(sc->idle_exit.b, 10000);
}

/* The ideal machine: 0 is a fixed 0; any distribution of a time is accepted. */
Test(scenario, machine_wakeup_noise)
{
	static const char *const sets[] = { "machine.timer_latency=0",
					    "machine.idle_exit=uniform(10us, 30us)" };
	struct scenario *sc = load(base, NULL, sets, 2);

	cr_expect_eq(sc->timer_latency.kind, SIM_DIST_FIXED);
	cr_expect_eq(sc->timer_latency.a, 0);
	cr_expect_eq(sc->idle_exit.kind, SIM_DIST_UNIFORM);
	cr_expect_eq(sc->idle_exit.a, 10000);
	cr_expect_eq(sc->idle_exit.b, 30000);
	cr_expect(!sc->clock_phase_set, "the tick phase is random by default");
}

/* The phases example of docs/scenario-format.md, as printed there, loads. */
Test(scenario, docs_phases_example)
{
	static const char text[] =
		"name: t\n"
		"duration: 1s\n"
		"processes:\n"
		"  p:\n"
		"    threads:\n"
		"      t:\n"
		"        behavior:\n"
		"          phases:\n"
		"            loops: 3\n"
		"            steps: [ { run: 5ms }, { sleep: \"uniform(1ms, 3ms)\" }, { run: 1ms } ]\n";
	struct scenario *sc = load(text, NULL, NULL, 0);
	const struct sim_behavior *b = &sc->procs[0].threads[0].spec.behavior;

	cr_assert_eq(b->nphases, 3);
	cr_expect_eq(b->loops, 3);
	cr_expect_eq(b->phases[1].d.kind, SIM_DIST_UNIFORM);
	cr_expect_eq(b->phases[1].d.a, 1e6);
	cr_expect_eq(b->phases[1].d.b, 3e6);
}

/* machine.clock_phase: random, or a time shorter than the tick period (1 ms at hz 1000). */
Test(scenario, machine_clock_phase)
{
	static const char *const fixed[] = { "machine.clock_phase=250us" };
	static const char *const rnd[] = { "machine.clock_phase=random" };
	static const char *const longer[] = { "machine.clock_phase=1ms" };
	char err[1024];
	struct scenario *sc = load(base, NULL, fixed, 1), *bad;

	cr_expect(sc->clock_phase_set);
	cr_expect_eq(sc->clock_phase, 250000);
	scn_free(cur);
	cur = NULL;
	sc = load(base, NULL, rnd, 1);
	cr_expect(!sc->clock_phase_set);
	bad = scn_load("t.yaml", base, NULL, longer, 1, err, sizeof(err));
	scn_free(bad);
	cr_assert_null(bad);
	cr_expect_str_eq(err, "--set machine.clock_phase=1ms: error: machine.clock_phase must be "
			      "shorter than the tick period (1000000 ns at hz 1000)");
}

/* A key holding dots (cpu.weight) or slashes is matched whole; a variant's set applies. */
Test(scenario, variant_and_set)
{
	const char *sets[] = { "cgroups.b/c.cpu.weight=50", "seed=9", "scheduler.policy=cfs",
			       "cgroups.new.cpu.weight=7" };
	struct scenario *sc = load(base, "heavy", sets, 4);

	cr_expect_str_eq(sc->variant, "heavy");
	cr_expect_str_eq(sc->cgroups[1].writes[0].value, "900");
	cr_expect_eq(sc->sched.machine.cpus, 2);
	cr_expect_str_eq(sc->cgroups[2].writes[0].value, "50");
	cr_expect_eq(sc->seed, 9, "a new key is added to an existing mapping");
	cr_expect_eq(sc->sched.policy, SCHED_POLICY_CFS);
	cr_expect(sc->sched.feat[SCHED_FEAT_START_DEBIT], "CFS's feature defaults");
	cr_expect(!sc->sched.feat[SCHED_FEAT_PLACE_LAG]);
	cr_expect_eq(sc->ncgroups, 4, "a missing cgroup entry is added, its file kept whole");
	cr_expect_str_eq(sc->cgroups[3].path, "new");
	cr_expect_str_eq(sc->cgroups[3].writes[0].file, "cpu.weight");
	cr_expect_str_eq(sc->cgroups[3].writes[0].value, "7");
}

Test(scenario, set_errors_name_the_option)
{
	char err[1024];
	const char *bad_val[] = { "machine.cpus=0" };
	const char *bad_key[] = { "nosuch.key=1" };
	struct scenario *sc;

	sc = scn_load("t.yaml", base, NULL, bad_val, 1, err, sizeof(err));
	cr_assert_null(sc);
	cr_expect_str_eq(err, "--set machine.cpus=0: error: machine.cpus must be from 1 to 1024, "
			      "not 0");
	sc = scn_load("t.yaml", base, NULL, bad_key, 1, err, sizeof(err));
	cr_assert_null(sc);
	cr_expect_str_eq(err, "--set nosuch.key=1: error: unknown key 'nosuch' in a scenario "
			      "(expected one of: name, description, seed, duration, warmup, interval, "
			      "machine, semantics, scheduler, cgroups, sessions, processes, timeline, variants, sweep, "
			      "expect, workload)");
	sc = scn_load("t.yaml", base, "nosuch", NULL, 0, err, sizeof(err));
	cr_assert_null(sc);
	cr_expect_str_eq(err, "t.yaml: error: no variant 'nosuch' (the file has: base, heavy)");
}

Test(scenario, positioned_errors)
{
	load_fails("name: t\nduration: 1s\nmachine: { cpus: 0 }\nprocesses: {}\n",
		   "t.yaml:3:18: error: machine.cpus must be from 1 to 1024, not 0");
	load_fails("name: t\nduration: 1s\nmachine: { cpu: 2 }\n",
		   "t.yaml:3:12: error: unknown key 'cpu' in machine (expected one of: cpus, hz, "
		   "autogroup, timer_latency, idle_exit, clock_phase, steal, steal_period, costs, "
		   "topology, numa)");
	load_fails("name: t\nduration: 10\n",
		   "t.yaml:2:11: error: duration must be a time with a unit (ns, us, ms or s), "
		   "e.g. 10ms, not '10'");
	load_fails("name: t\nname: u\n", "t.yaml:2:1: error: key 'name' given twice (first at "
		   "line 1)");
	load_fails("a: &x 1\nb: *x\n", "t.yaml:1:4: error: anchors and aliases are not supported");
}

/* The first offence met going down the file, whatever the order of the keys' texts. */
Test(scenario, first_duplicate_key_in_file_order)
{
	load_fails("z: 1\nb: 2\nc: 3\nb: 4\nz: 5\nb: 6\n",
		   "t.yaml:4:1: error: key 'b' given twice (first at line 2)");
	load_fails("z: 1\n{ x: 1 }: 2\nz: 3\n",
		   "t.yaml:2:1: error: a mapping key must be a plain scalar, not a list or a mapping");
	load_fails("z: 1\nz: 2\n[ x ]: 2\n",
		   "t.yaml:2:1: error: key 'z' given twice (first at line 1)");
	load_fails("{ a: 1, b: 2, a: 3 }\n",
		   "t.yaml:1:15: error: key 'a' given twice (first at line 1)");
}

static const char runnable[] =
	"name: t\n"
	"duration: 3s\n"
	"warmup: 500ms\n"
	"machine: { cpus: 1 }\n"
	"cgroups:\n"
	"  /: { cgroup.subtree_control: +cpu }\n"
	"  a: { cpu.weight: 100 }\n"
	"  b: { cpu.weight: 300 }\n"
	"processes:\n"
	"  p: { cgroup: a, threads: { w: { behavior: busy } } }\n"
	"  q: { cgroup: b, threads: { w: { count: 2, behavior: busy, nice: 3 } } }\n";

/*
 * v1 has no cgroup.threads: a thread entry's cgroup is written to its tasks file, as the v1
 * hierarchy places one thread (docs/cgroup-model.md, the three rule sets). Both groups weigh
 * 1024 with one busy thread each on one CPU: half each.
 */
Test(scenario, v1_places_a_thread_through_tasks)
{
	struct scenario *sc = load("name: t\nduration: 1s\nsemantics: v1\n"
				   "cgroups:\n  a: {}\n  b: {}\n"
				   "processes:\n  p:\n    cgroup: a\n    threads:\n"
				   "      t: { behavior: busy }\n      u: { cgroup: b, behavior: busy }\n",
				   NULL, NULL, 0);
	char err[1024];

	cr_assert_eq(run_scenario(sc, false, &cur_res, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cur_res->nthreads, 2);
	cr_expect_str_eq(cur_res->threads[0].cgroup, "a");
	cr_expect_str_eq(cur_res->threads[1].cgroup, "b");
	cr_expect(fabs(cur_res->threads[1].share - 0.5) < 0.01, "u %.4f", cur_res->threads[1].share);
}

/*
 * a : b = 100 : 300 on one CPU: a 25 %, b 75 %; inside b two threads of equal nice split it:
 * 37.5 % each. The ideal says the same.
 */
Test(scenario, run_from_text)
{
	struct scenario *sc = load(runnable, NULL, NULL, 0);
	char err[1024];

	cr_assert_eq(run_scenario(sc, false, &cur_res, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cur_res->ngroups, 3);
	cr_expect_str_eq(cur_res->groups[1].path, "a");
	cr_expect(fabs(cur_res->groups[1].share - 0.25) < 0.01, "a %.4f", cur_res->groups[1].share);
	cr_expect(fabs(cur_res->groups[1].ideal - 0.25) < 1e-9, "ideal a %.6f",
		  cur_res->groups[1].ideal);
	cr_expect(fabs(cur_res->groups[2].share - 0.75) < 0.01, "b %.4f", cur_res->groups[2].share);
	cr_assert_eq(cur_res->nthreads, 3);
	cr_expect_str_eq(cur_res->threads[1].process, "q");
	cr_expect_str_eq(cur_res->threads[1].name, "w.1");
	cr_expect_str_eq(cur_res->threads[2].name, "w.2");
	cr_expect(fabs(cur_res->threads[2].ideal - 0.375) < 1e-9);
	cr_expect(cur_res->jain > 0.999, "jain %.5f", cur_res->jain);
}

static char *json_of(struct scenario *sc)
{
	char err[1024], *buf = NULL;
	size_t len = 0;
	struct run_result *res;
	FILE *f;

	cr_assert_eq(run_scenario(sc, false, &res, err, sizeof(err)), 0, "%s", err);
	f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	report_json(f, res);
	fclose(f);
	run_free(res);
	return buf;
}

/* Same scenario, same seed: the same bytes; with bursty threads a new seed changes them. */
Test(scenario, same_seed_same_bytes)
{
	static const char bursty[] =
		"name: t\nduration: 2s\nwarmup: 200ms\nmachine: { cpus: 2 }\n"
		"processes:\n  p: { threads: { w: { count: 3, behavior: { bursty: "
		"{ run: exp(2ms), sleep: exp(1ms) } } } } }\n";
	const char *seed2[] = { "seed=2" };
	char *a, *b, *c;

	load(bursty, NULL, NULL, 0);
	a = json_of(cur);
	b = json_of(cur);
	scn_free(cur);
	cur = NULL;
	load(bursty, NULL, seed2, 1);
	c = json_of(cur);
	cr_expect_str_eq(a, b, "two runs of one scenario differ");
	cr_expect_str_neq(a, c, "seeds 1 and 2 gave the same run");
	free(a);
	free(b);
	free(c);
}

/*
 * The interpose transform (docs/interpose.md): app competes in the root with two threads of its
 * own and two in the threaded cgroup pool, next to the domain group vm. Interposed as group c of
 * weight 200, app moves into c, pool moves to c/pool (c becomes its thread root and enables
 * cpu for it), and vm stays: the root then holds c (2048) and vm (1024).
 */
static const char ipo[] =
	"name: ipo\nduration: 2s\nwarmup: 500ms\nmachine: { cpus: 2 }\n"
	"cgroups:\n"
	"  /:    { cgroup.subtree_control: +cpu }\n"
	"  pool: { cgroup.type: threaded, cpu.weight: 300 }\n"
	"  vm:   { cpu.weight: 100 }\n"
	"processes:\n"
	"  app:\n    threads:\n      main: { count: 2, behavior: busy }\n"
	"      io:   { count: 2, cgroup: pool, behavior: busy }\n"
	"  qemu:\n    cgroup: vm\n    threads:\n      vcpu: { count: 2, behavior: busy }\n"
	"variants:\n"
	"  interposed: { transform: interpose, interpose: { group: c, weight: 200 } }\n"
	"  plain: { transform: interpose }\n";

Test(scenario, interpose_moves_process_and_threaded_cgroups)
{
	struct scenario *sc = load(ipo, "interposed", NULL, 0);
	char err[1024];

	cr_assert_eq(sc->ncgroups, 4);
	cr_expect_str_eq(sc->cgroups[1].path, "c", "the new group comes right after the root");
	cr_expect_str_eq(sc->cgroups[1].writes[0].file, "cpu.weight");
	cr_expect_str_eq(sc->cgroups[1].writes[0].value, "200");
	cr_expect_str_eq(sc->cgroups[1].writes[1].value, "+cpu");
	cr_expect_str_eq(sc->cgroups[2].path, "c/pool");
	cr_expect_str_eq(sc->cgroups[3].path, "vm", "a domain sibling stays where it is");
	cr_expect_str_eq(sc->procs[0].cgroup, "c");
	cr_expect_str_eq(sc->procs[0].threads[1].cgroup, "c/pool");
	cr_expect_str_eq(sc->procs[1].cgroup, "vm", "qemu competes in no parent next to groups");
	/* c : vm = 2048 : 1024; inside c main (2 x 1024) : pool (3072) -> pool 3/5 of 2/3 */
	cr_assert_eq(run_ideal(sc, &cur_res, err, sizeof(err)), 0, "%s", err);
	cr_expect(fabs(cur_res->groups[1].ideal - 2.0 / 3) < 1e-9, "c %.6f",
		  cur_res->groups[1].ideal);
	cr_expect(fabs(cur_res->groups[2].ideal - 0.4) < 1e-9, "c/pool %.6f",
		  cur_res->groups[2].ideal);
	run_free(cur_res);
	cur_res = NULL;
	scn_free(cur);
	cur = NULL;
	sc = load(ipo, "plain", NULL, 0);
	cr_expect_str_eq(sc->procs[0].cgroup, "app", "the group takes the process's name");
	cr_expect_str_eq(sc->cgroups[1].writes[0].value, "100", "cpu.weight 100 by default");
}

Test(scenario, interpose_needs_a_candidate)
{
	static const char none[] =
		"name: n\nduration: 1s\nprocesses:\n  p: { threads: { w: { behavior: busy } } }\n"
		"variants:\n  i: { transform: interpose }\n";
	char err[1024];
	struct scenario *sc = scn_load("t.yaml", none, "i", NULL, 0, err, sizeof(err));

	scn_free(sc);
	cr_assert_null(sc);
	cr_expect_str_eq(err, "t.yaml:6:3: error: variant 'i': interpose found no process "
			      "competing next to cgroups with the cpu controller (nothing to "
			      "interpose)");
}

/*
 * Keys that hold dots (systemd units): a backslash before a dot makes it part of the key, so
 * --set can add machine.slice; and ~ in a variant's set: (or --set) takes a key away, so one
 * file can hold a v2 layout and a form of it without a setting.
 */
Test(scenario, set_escaped_dots_and_null_removal)
{
	static const char text[] =
		"name: t\nduration: 1s\nsemantics: v2\n"
		"cgroups:\n  \"/\": { cgroup.subtree_control: +cpu }\n"
		"  machine.slice: { cpu.weight: 200 }\n"
		"processes:\n  p: { cgroup: machine.slice, threads: { w: { behavior: busy } } }\n"
		"variants:\n  plain: { set: { cgroups.machine.slice.cpu.weight: ~ } }\n";
	const char *const sets[] = { "cgroups.user\\.slice.cgroup\\.subtree_control=+cpu",
				     "processes.q.threads.x.behavior=busy",
				     "processes.q.cgroup=user.slice" };
	struct scenario *sc = load(text, NULL, sets, 3);
	bool user = false;

	for (size_t i = 0; i < sc->ncgroups; i++)
		if (!strcmp(sc->cgroups[i].path, "user.slice")) {
			user = true;
			cr_expect_str_eq(sc->cgroups[i].writes[0].file, "cgroup.subtree_control");
		}
	cr_expect(user, "an escaped dot is part of the cgroup's name");
	fini();
	sc = load(text, "plain", NULL, 0);
	for (size_t i = 0; i < sc->ncgroups; i++)
		if (!strcmp(sc->cgroups[i].path, "machine.slice"))
			cr_expect_eq(sc->cgroups[i].nwrites, 0, "~ removed cpu.weight");
}

/*
 * scheduler.kernel and scheduler.cgroup_mode (docs/kernels.md): the version's defaults first,
 * then policy, tunables, features and cgroup_mode over them; both sweepable like any key.
 */
Test(scenario, kernel_and_cgroup_mode)
{
	static const char text[] =
		"name: k\nduration: 1s\nmachine: { cpus: 2, hz: 250 }\n"
		"scheduler:\n  kernel: 6.6.0\n  policy: cfs\n  features: { NI_RANDOM: true }\n"
		"processes: { a: { threads: { w: { behavior: busy } } } }\n"
		"sweep: { key: scheduler.kernel, values: [7.2, 7.3, 6.12.65] }\n";
	static const char modes[] =
		"name: m\nduration: 1s\nscheduler: { kernel: \"7.3\" }\n"
		"processes: { a: { threads: { w: { behavior: busy } } } }\n"
		"sweep: { key: scheduler.cgroup_mode, values: [smp, concur, max, tasks, up] }\n";
	static const enum sched_cgroup_mode want[] = { SCHED_CGROUP_SMP, SCHED_CGROUP_CONCUR,
		SCHED_CGROUP_MAX, SCHED_CGROUP_TASKS, SCHED_CGROUP_UP };
	const char *names[8];
	char err[1024], k[SCHED_KERNEL_NAME_MAX];
	struct scenario *sc = load(text, NULL, NULL, 0);

	cr_expect_str_eq(sched_kernel_name(sc->sched.kernel, k, sizeof(k)), "6.6.0");
	cr_expect_eq(sc->sched.policy, SCHED_POLICY_CFS);
	cr_expect(sc->sched.feat[SCHED_FEAT_GENTLE_FAIR_SLEEPERS]);
	cr_expect(sc->sched.feat[SCHED_FEAT_NI_RANDOM], "features: after policy:");
	cr_expect_eq(sc->sched.tun.base_slice_ns, 750000, "6.6.0's base slice");
	cr_expect_eq(sc->sched.tun.hz, 250, "the machine's hz kept");
	cr_expect_eq(sc->sched.machine.cpus, 2);
	cr_expect_eq(sched_config_overrides(&sc->sched, names, 8), 2);
	cr_expect_str_eq(names[0], "policy");
	cr_expect_str_eq(names[1], "NI_RANDOM");
	/* without kernel: the newest, 7.3, with its pick and its cgroup_mode */
	sc = scn_load("t.yaml", "name: d\nduration: 1s\n"
		      "processes: { a: { threads: { w: { behavior: busy } } } }\n", NULL, NULL, 0,
		      err, sizeof(err));
	cr_assert_not_null(sc, "%s", err);
	cr_expect_str_eq(sched_kernel_name(sc->sched.kernel, k, sizeof(k)), "7.3");
	cr_expect_eq(sc->sched.policy, SCHED_POLICY_EEVDF_FLAT);
	cr_expect_eq(sc->sched.cgroup_mode, SCHED_CGROUP_CONCUR);
	scn_free(sc);
	for (size_t i = 0; i < 3; i++) {
		static const char *const v[] = { "7.2", "7.3", "6.12.65" };
		struct scenario *s = scn_load_swept("t.yaml", text, NULL, NULL, 0, i, err,
						    sizeof(err));

		cr_assert_not_null(s, "%s", err);
		cr_expect_str_eq(sched_kernel_name(s->sched.kernel, k, sizeof(k)), v[i]);
		cr_expect_eq(s->sched.policy, SCHED_POLICY_CFS, "the file's policy over each");
		scn_free(s);
	}
	for (size_t i = 0; i < 5; i++) {
		struct scenario *s = scn_load_swept("t.yaml", modes, NULL, NULL, 0, i, err,
						    sizeof(err));

		cr_assert_not_null(s, "%s", err);
		cr_expect_eq(s->sched.cgroup_mode, want[i]);
		cr_expect_eq(s->sched.policy, SCHED_POLICY_EEVDF_FLAT);
		scn_free(s);
	}
	/* smp is what every kernel before 7.3 computes: taken there, the others refused */
	sc = scn_load("t.yaml", "name: s\nduration: 1s\nscheduler: { kernel: 6.18, cgroup_mode: smp }\n"
		      "processes: { a: { threads: { w: { behavior: busy } } } }\n", NULL, NULL, 0,
		      err, sizeof(err));
	cr_expect_not_null(sc, "%s", err);
	scn_free(sc);
	load_fails("name: s\nduration: 1s\nscheduler: { kernel: 6.18, cgroup_mode: max }\n",
		   "t.yaml:3:41: error: scheduler.cgroup_mode max needs kernel 7.3 or later: "
		   "kernel 6.18 has no cgroup_mode and weighs every group as smp");
	load_fails("name: s\nduration: 1s\nscheduler: { kernel: 7.4 }\n",
		   "t.yaml:3:22: error: scheduler.kernel 7.4 is not a kernel cgsim models (expected "
		   "MAJOR.MINOR or MAJOR.MINOR.PATCH of 5.13-5.19, 6.0-6.19, 7.0-7.3)");
	sc = scn_load_swept("t.yaml", "name: s\nduration: 1s\nprocesses: { a: { threads: { w: "
			    "{ behavior: busy } } } }\nsweep: { key: scheduler.kernel, values: "
			    "[7.3, 4.19] }\n", NULL, NULL, 0, 1, err, sizeof(err));
	cr_expect_null(sc);
	cr_expect_str_eq(err, "t.yaml:4:47: error: scheduler.kernel 4.19 is not a kernel cgsim "
			      "models (expected MAJOR.MINOR or MAJOR.MINOR.PATCH of 5.13-5.19, "
			      "6.0-6.19, 7.0-7.3)");
	scn_free(sc);
}
