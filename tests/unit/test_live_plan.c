// SPDX-License-Identifier: MIT
/*
 * Unit tests of the live plan (sim/live/live_plan.c): a scenario's layout in the kernel's terms.
 *
 * What is expected comes from the kernel's interfaces (docs/live.md, docs/cgroup-model.md): v1's
 * cpu.shares holds the shares as written, cpu.cfs_period_us must be set before a quota that
 * needs it, v2's cpu.weight w means shares DIV_ROUND_CLOSEST(w * 1024, 100); scheduling follows
 * the task-group tree only, so a cgroup without the cpu controller makes no cgroup.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "sim/live/live.h"

static struct scenario *cur_sc;
static struct live_plan *cur_plan;

static void fini(void)
{
	live_plan_free(cur_plan);
	cur_plan = NULL;
	scn_free(cur_sc);
	cur_sc = NULL;
}

TestSuite(live_plan, .fini = fini);

/* The plan of @text for @hier on 2 CPUs: NULL with @err set when refused. */
static struct live_plan *plan_of(const char *text, enum live_hier hier, char *err, size_t len)
{
	char lerr[1024];

	cur_sc = scn_load("t.yaml", text, NULL, NULL, 0, lerr, sizeof(lerr));
	cr_assert_not_null(cur_sc, "load failed: %s", lerr);
	if (live_plan_make(cur_sc, hier, "cgsim-7", 2, &cur_plan, err, len))
		return NULL;
	return cur_plan;
}

static const struct live_dir *dir_named(const struct live_plan *p, const char *path)
{
	for (size_t i = 0; i < p->ndirs; i++)
		if (!strcmp(p->dirs[i].path, path))
			return &p->dirs[i];
	cr_assert_fail("no dir '%s'", path);
	return NULL;
}

static const char *value_of(const struct live_dir *d, const char *file)
{
	for (size_t i = 0; i < d->nwrites; i++)
		if (!strcmp(d->writes[i].file, file))
			return d->writes[i].value;
	return NULL;
}

static const struct live_thread *thread_named(const struct live_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (!strcmp(p->threads[i].name, name))
			return &p->threads[i];
	cr_assert_fail("no thread '%s'", name);
	return NULL;
}

static const char *const nested =
	"name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
	"cgroups:\n"
	"  /: { cgroup.subtree_control: +cpu }\n"
	"  vm: { cpu.weight: 200, cgroup.subtree_control: +cpu }\n"
	"  vm/app: { cpu.max: 50000 100000 }\n"
	"  plain: {}\n"
	"processes:\n"
	"  qemu: { cgroup: vm/app, threads: { v: { count: 2, behavior: busy } } }\n"
	"  root: { threads: { r: { behavior: busy } } }\n";

Test(live_plan, one_cgroup_per_task_group_below_unique_top_names)
{
	char err[512];
	struct live_plan *p = plan_of(nested, LIVE_HIER_V1, err, sizeof(err));
	const struct live_dir *vm, *app;

	cr_assert_not_null(p, "refused: %s", err);
	cr_assert_eq(p->ndirs, 3, "vm, vm/app and plain are task groups (the root enables cpu)");
	vm = dir_named(p, "cgsim-7-vm");
	app = dir_named(p, "cgsim-7-vm/app");
	dir_named(p, "cgsim-7-plain");
	cr_assert_eq(app->parent, (int)(vm - p->dirs), "parents first, linked");
	cr_assert(vm->has_children && !app->has_children);
	/* cpu.weight 200 = shares 2048; v1 writes the shares themselves */
	cr_assert_str_eq(value_of(vm, "cpu.shares"), "2048");
	/* the period before the quota: cfs_quota_us 50000 of cfs_period_us 100000 */
	cr_assert_str_eq(value_of(app, "cpu.cfs_period_us"), "100000");
	cr_assert_str_eq(value_of(app, "cpu.cfs_quota_us"), "50000");
	cr_assert(strcmp(app->writes[0].file, "cpu.cfs_quota_us"), "quota not first");
	cr_assert_eq(thread_named(p, "qemu/v.2")->dir, (int)(app - p->dirs));
	cr_assert_eq(thread_named(p, "root/r.1")->dir, -1, "root threads stay in the root");
	cr_assert_eq(p->nprocs, 2);
	cr_assert_eq(p->procs[0].first, 0);
	cr_assert_eq(p->procs[0].n, 2);
	cr_assert_eq(p->procs[1].first, 2);
}

Test(live_plan, v2_writes_cpu_weight_and_cpu_max)
{
	char err[512];
	struct live_plan *p = plan_of(nested, LIVE_HIER_V2, err, sizeof(err));

	cr_assert_not_null(p, "refused: %s", err);
	cr_assert(p->root_cpu, "+cpu in the root's subtree_control");
	cr_assert_str_eq(value_of(dir_named(p, "cgsim-7-vm"), "cpu.weight"), "200");
	cr_assert_str_eq(value_of(dir_named(p, "cgsim-7-vm/app"), "cpu.max"), "50000 100000");
	cr_assert_null(value_of(dir_named(p, "cgsim-7-plain"), "cpu.max"), "no limit: no write");
}

/* A cgroup without the cpu controller is no task group: its threads go to the one above. */
Test(live_plan, a_cgroup_without_cpu_makes_no_cgroup)
{
	char err[512];
	struct live_plan *p = plan_of(
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		"cgroups:\n"
		"  /: { cgroup.subtree_control: +cpu }\n"
		"  a: { cpu.weight.nice: 5 }\n"
		"  a/b: {}\n"
		"processes:\n"
		"  p: { cgroup: a/b, threads: { t: { behavior: busy } } }\n",
		LIVE_HIER_V2, err, sizeof(err));
	const struct live_dir *a;

	cr_assert_not_null(p, "refused: %s", err);
	cr_assert_eq(p->ndirs, 1);
	a = dir_named(p, "cgsim-7-a");
	/* shares 335 (nice 5): no cpu.weight gives 335 back, cpu.weight.nice does */
	cr_assert_str_eq(value_of(a, "cpu.weight.nice"), "5");
	cr_assert_eq(thread_named(p, "p/t.1")->dir, 0);
}

Test(live_plan, idle_group_writes_cpu_idle_only)
{
	char err[512];
	struct live_plan *p = plan_of(
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\nsemantics: v1\n"
		"cgroups:\n  bg: { cpu.idle: 1 }\n"
		"processes:\n  p: { cgroup: bg, threads: { t: { behavior: busy } } }\n",
		LIVE_HIER_V1, err, sizeof(err));
	const struct live_dir *bg;

	cr_assert_not_null(p, "refused: %s", err);
	bg = dir_named(p, "cgsim-7-bg");
	cr_assert_str_eq(value_of(bg, "cpu.idle"), "1");
	cr_assert_null(value_of(bg, "cpu.shares"), "an idle group's shares cannot be written");
}

static void assert_refused(const char *text, enum live_hier hier, const char *want)
{
	char err[512];

	cr_assert_null(plan_of(text, hier, err, sizeof(err)), "not refused, want: %s", want);
	cr_assert_not_null(strstr(err, want), "message '%s' lacks '%s'", err, want);
}

Test(live_plan, refuses_what_the_kernel_cannot_be_given)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 4 }\n"
		       "processes:\n  p: { threads: { t: { behavior: busy } } }\n",
		       LIVE_HIER_V1, "simulates 4 CPUs and this machine has 2 online");
}

/* Fewer CPUs than online: the threads are kept on the first ones (their affinity within). */
Test(live_plan, fewer_cpus_than_online_confines_the_threads)
{
	char err[512];
	struct live_plan *p = plan_of("name: t\nduration: 1s\nmachine: { cpus: 1 }\n"
				      "processes:\n  p: { threads: { t: { behavior: busy } } }\n",
				      LIVE_HIER_V1, err, sizeof(err));

	cr_assert_not_null(p, "refused: %s", err);
	cr_assert_eq(p->cpus, 1);
	cr_assert(p->confined);
}

Test(live_plan, refuses_a_timeline)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		       "processes:\n  p: { threads: { t: { behavior: busy } } }\n"
		       "timeline:\n  - { at: 0.5s, do: mkdir x }\n",
		       LIVE_HIER_V1, "timeline");
}

Test(live_plan, refuses_shared_sessions)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2, autogroup: true }\n"
		       "processes:\n"
		       "  p: { session: s, threads: { t: { behavior: busy } } }\n"
		       "  q: { session: s, threads: { t: { behavior: busy } } }\n",
		       LIVE_HIER_V1, "share session 's'");
}

/* On v2 a process split over groups needs thread mode; v1 places threads one by one. */
Test(live_plan, a_split_process_is_v1_only)
{
	static const char *const split =
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\nsemantics: v1\n"
		"cgroups:\n  a: {}\n  b: {}\n"
		"processes:\n  p:\n    cgroup: a\n    threads:\n"
		"      t: { behavior: busy }\n      u: { cgroup: b, behavior: busy }\n";
	char err[512];

	cr_assert_not_null(plan_of(split, LIVE_HIER_V1, err, sizeof(err)), "v1: %s", err);
	fini();
	assert_refused(split, LIVE_HIER_V2, "thread mode");
}

/*
 * An rt-app file is run by rt-app itself, so its synchronisation steps are no reason to refuse
 * it; its taskgroups are cgroups below the run's prefix, which rt-app reaches through v1's cpu
 * hierarchy only (rt-app looks for a cgroup v1 mount with cpu).
 */
Test(live_plan, an_rtapp_file_is_planned_for_rtapp_itself)
{
	static const char json[] = "{ \"tasks\": {\n"
				   "  \"a\": { \"run\": 1000, \"resume\": \"b\", \"suspend\": \"a\" },\n"
				   "  \"b\": { \"run\": 1000, \"resume\": \"a\", \"suspend\": \"b\",\n"
				   "         \"taskgroup\": \"/tg\" } },\n"
				   "  \"global\": { \"duration\": 2 } }";
	char lerr[1024], err[256];

	cur_sc = scn_load("w.json", json, NULL, NULL, 0, lerr, sizeof(lerr));
	cr_assert_not_null(cur_sc, "load failed: %s", lerr);
	cr_expect(cur_sc->rtapp);
	cr_assert_eq(live_plan_make(cur_sc, LIVE_HIER_V1, "cgsim-7", 2, &cur_plan, err,
				    sizeof(err)), 0, "%s", err);
	cr_expect(cur_plan->rtapp);
	cr_expect_eq(cur_plan->nthreads, 2);
	cr_expect_str_eq(dir_named(cur_plan, "cgsim-7-tg")->path, "cgsim-7-tg");
	live_plan_free(cur_plan);
	cur_plan = NULL;
	cr_expect_eq(live_plan_make(cur_sc, LIVE_HIER_V2, "cgsim-7", 2, &cur_plan, err,
				    sizeof(err)), -EINVAL);
	cr_expect_str_eq(err, "w.json: rt-app's taskgroups need the v1 cpu hierarchy, and this "
			      "machine offers cpu on cgroup v2");
}

/* The same steps in a YAML scenario have no rt-app to run them: refused. */
Test(live_plan, sync_steps_of_a_yaml_scenario_are_refused)
{
	char err[256];

	cr_expect_null(plan_of("name: s\nduration: 1s\nprocesses:\n  p:\n    threads:\n"
			       "      t: { behavior: { phases: [ { run: 1ms }, { lock: m } ] } }\n",
			       LIVE_HIER_V1, err, sizeof(err)));
	cr_expect(strstr(err, "steps other than run and sleep"), "%s", err);
}
