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
#include "sim/util/util.h"

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

/*
 * A process split over two domains: v1 places threads one by one, so it takes it; on v2 (a v1
 * scenario has no threaded cgroups) cgroup.threads moves a thread only within its process's
 * threaded domain (cgroup_attach_permissions(): EOPNOTSUPP), so the plan refuses it, naming the
 * threads and the cgroups.
 */
Test(live_plan, a_process_over_two_domains_is_v1_only)
{
	static const char *const split =
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\nsemantics: v1\n"
		"cgroups:\n  a: {}\n  b: {}\n"
		"processes:\n  p:\n    cgroup: a\n    threads:\n"
		"      t: { behavior: busy }\n      u: { cgroup: b, behavior: busy }\n";
	char err[512];
	struct live_plan *p = plan_of(split, LIVE_HIER_V1, err, sizeof(err));

	cr_assert_not_null(p, "v1: %s", err);
	cr_expect_eq(thread_named(p, "p/t.1")->move, LIVE_MOVE_TASKS);
	cr_expect_eq(thread_named(p, "p/u.1")->move, LIVE_MOVE_TASKS);
	fini();
	assert_refused(split, LIVE_HIER_V2, "threads 'p/t.1' (in 'a') and 'p/u.1' (in 'b') of one "
		       "process are in different threaded domains ('a' and 'b')");
}

/* The text of scenario @name of the library (tests run from the top of the tree). */
static char *library_scenario(const char *name)
{
	char path[256], *text = NULL;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "scenarios/%s", name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(util_read_stream(f, 1 << 20, &text, &len), 0);
	fclose(f);
	return text;
}

/* Dir @d's writes, "FILE=VALUE" joined by spaces, in their order. */
static const char *writes_of(const struct live_dir *d)
{
	static char buf[512];
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nwrites; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s=%s", i ? " " : "",
				       d->writes[i].file, d->writes[i].value);
	return buf;
}

/*
 * threaded-subtree.yaml on v2: dom/t1 and dom/t2 are threaded, dom their thread root. The
 * kernel's order: "+cpu" in dom's subtree_control before t1 and t2 are made (their cpu files
 * exist only then); "threaded" to each child's cgroup.type before anything else of it (a second
 * sibling is "domain invalid" until then, cgroup_is_valid_domain()); the process whole to the
 * dir of its first thread, dom/t1 (cgroup_migrate_vet_dst() takes a threaded destination), then
 * solo.1 alone to dom/t2 through cgroup.threads (same threaded domain, dom).
 */
Test(live_plan, threaded_subtree_on_v2)
{
	char *text = library_scenario("threaded-subtree.yaml"), err[512];
	struct live_plan *p = plan_of(text, LIVE_HIER_V2, err, sizeof(err));
	const struct live_dir *dom, *t1, *t2;

	free(text);
	cr_assert_not_null(p, "refused: %s", err);
	cr_assert(p->root_cpu, "+cpu in the root's subtree_control");
	cr_assert_eq(p->ndirs, 3);
	dom = &p->dirs[0];
	t1 = &p->dirs[1];
	t2 = &p->dirs[2];
	cr_assert_str_eq(dom->path, "cgsim-7-dom");
	cr_assert_str_eq(t1->path, "cgsim-7-dom/t1");
	cr_assert_str_eq(t2->path, "cgsim-7-dom/t2");
	cr_expect(!dom->threaded && t1->threaded && t2->threaded);
	cr_expect_eq(dom->domain, 0);
	cr_expect_eq(t1->domain, 0, "dom is t1's threaded domain");
	cr_expect_eq(t2->domain, 0);
	/* cpu.weight 100 = shares 1024 (dom's default), 300 = 3072 */
	cr_expect_str_eq(writes_of(dom), "cgroup.subtree_control=+cpu cpu.weight=100");
	cr_expect_str_eq(writes_of(t1), "cgroup.type=threaded cpu.weight=100");
	cr_expect_str_eq(writes_of(t2), "cgroup.type=threaded cpu.weight=300");
	cr_assert_eq(p->nthreads, 4);
	cr_expect_eq(p->threads[0].dir, 1);
	cr_expect_str_eq(p->threads[0].name, "app/worker.1");
	cr_expect_eq(p->threads[0].move, LIVE_MOVE_PROCS, "the process whole, to dom/t1");
	cr_expect_eq(thread_named(p, "app/worker.2")->move, LIVE_MOVE_WITH_PROC);
	cr_expect_eq(thread_named(p, "app/worker.3")->move, LIVE_MOVE_WITH_PROC);
	cr_expect_eq(thread_named(p, "app/worker.3")->dir, 1);
	cr_expect_eq(thread_named(p, "app/solo.1")->dir, 2);
	cr_expect_eq(thread_named(p, "app/solo.1")->move, LIVE_MOVE_THREADS, "alone, to dom/t2");
	cr_expect_eq(p->procs[0].first, 0, "the process's first thread is planned first");
}

/*
 * Zijlstra's root layout needs no thread mode: the root is mixable (cgroup_is_mixable()), so
 * the app's threads stay in it beside vm. Its threads may also spread into threaded children
 * of the root, the root being their thread root.
 */
Test(live_plan, the_root_as_thread_root)
{
	char *text = library_scenario("zijlstra-root-vm.yaml"), err[512];
	struct live_plan *p = plan_of(text, LIVE_HIER_V2, err, sizeof(err));

	free(text);
	cr_assert_not_null(p, "refused: %s", err);
	cr_expect_eq(thread_named(p, "app/worker.4")->dir, -1);
	cr_expect_eq(thread_named(p, "app/worker.1")->move, LIVE_MOVE_PROCS);
	cr_expect_eq(thread_named(p, "qemu/vcpu.2")->move, LIVE_MOVE_WITH_PROC);
	fini();
	p = plan_of("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		    "cgroups:\n"
		    "  /: { cgroup.subtree_control: +cpu }\n"
		    "  t: { cgroup.type: threaded, cpu.weight: 300 }\n"
		    "  vm: {}\n"
		    "processes:\n"
		    "  app:\n    threads:\n"
		    "      a: { behavior: busy }\n      b: { cgroup: t, behavior: busy }\n"
		    "  qemu: { cgroup: vm, threads: { v: { behavior: busy } } }\n",
		    LIVE_HIER_V2, err, sizeof(err));
	cr_assert_not_null(p, "refused: %s", err);
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-t")), "cgroup.type=threaded cpu.weight=300");
	cr_expect_eq(dir_named(p, "cgsim-7-t")->domain, -1, "the root is its threaded domain");
	cr_expect_eq(thread_named(p, "app/a.1")->move, LIVE_MOVE_PROCS);
	cr_expect_eq(thread_named(p, "app/a.1")->dir, -1);
	cr_expect_eq(thread_named(p, "app/b.1")->move, LIVE_MOVE_THREADS);
}

/*
 * Two threaded subtrees: a thread cannot leave its process's domain (cgroup_attach_permissions(),
 * EOPNOTSUPP). On v2 the model refuses the layout itself, before anything is made.
 */
Test(live_plan, refuses_a_process_over_two_threaded_subtrees)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		       "cgroups:\n"
		       "  /: { cgroup.subtree_control: +cpu }\n"
		       "  d1: { cgroup.subtree_control: +cpu }\n"
		       "  d1/t: { cgroup.type: threaded }\n"
		       "  d2: { cgroup.subtree_control: +cpu }\n"
		       "  d2/t: { cgroup.type: threaded }\n"
		       "processes:\n  p:\n    cgroup: d1/t\n    threads:\n"
		       "      a: { behavior: busy }\n      b: { cgroup: d2/t, behavior: busy }\n",
		       LIVE_HIER_V2, "cannot move thread 'p/b.1' to 'd2/t'");
}

/*
 * A threaded cgroup may hold threads beside its child groups (cgroup_migrate_vet_dst(): a
 * threaded destination is exempt from the no-internal-process rule). Its own subtree_control
 * gets +cpu after its cgroup.type: cgroup_vet_subtree_control_enable() would refuse +cpu while
 * t is still a domain below the thread root dom (EOPNOTSUPP), and t/u's cpu files need it.
 */
Test(live_plan, threads_beside_child_groups_in_a_threaded_cgroup)
{
	char err[512];
	struct live_plan *p = plan_of(
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		"cgroups:\n"
		"  /: { cgroup.subtree_control: +cpu }\n"
		"  dom: { cgroup.subtree_control: +cpu }\n"
		"  dom/t: { cgroup.type: threaded, cgroup.subtree_control: +cpu }\n"
		"  dom/t/u: { cgroup.type: threaded, cpu.weight: 50 }\n"
		"processes:\n  p:\n    cgroup: dom/t\n    threads:\n"
		"      a: { count: 2, behavior: busy }\n      b: { cgroup: dom/t/u, behavior: busy }\n",
		LIVE_HIER_V2, err, sizeof(err));
	const struct live_dir *t, *u;

	cr_assert_not_null(p, "refused: %s", err);
	t = dir_named(p, "cgsim-7-dom/t");
	u = dir_named(p, "cgsim-7-dom/t/u");
	cr_expect_str_eq(writes_of(t), "cgroup.type=threaded cgroup.subtree_control=+cpu "
				       "cpu.weight=100");
	cr_expect_str_eq(writes_of(u), "cgroup.type=threaded cpu.weight=50");
	cr_expect_eq(u->domain, (int)(dir_named(p, "cgsim-7-dom") - p->dirs), "dom, not t");
	cr_expect_eq(thread_named(p, "p/a.2")->dir, (int)(t - p->dirs));
	cr_expect_eq(thread_named(p, "p/a.2")->move, LIVE_MOVE_WITH_PROC);
	cr_expect_eq(thread_named(p, "p/b.1")->move, LIVE_MOVE_THREADS);
}

/*
 * A domain with cpu on for its children holds threads only if it can be a thread root
 * (cgroup_migrate_vet_dst(), else EBUSY): no child that is not threaded may hold threads
 * (cgroup_can_be_thread_root()). v1 takes it, v2 refuses it; a v2 scenario's model refuses it
 * itself. A child that holds none does not stop it (it becomes "domain invalid", empty).
 */
Test(live_plan, threads_beside_child_groups_in_a_domain)
{
	static const char *const inner =
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\nsemantics: v1\n"
		"cgroups:\n  a: {}\n  a/b: {}\n"
		"processes:\n"
		"  p: { cgroup: a, threads: { t: { behavior: busy } } }\n"
		"  q: { cgroup: a/b, threads: { t: { behavior: busy } } }\n";
	char err[512];

	cr_assert_not_null(plan_of(inner, LIVE_HIER_V1, err, sizeof(err)), "v1: %s", err);
	fini();
	assert_refused(inner, LIVE_HIER_V2, "thread 'p/t.1' is in cgroup 'a' beside its child group "
		       "'a/b', which holds threads and is not threaded");
	fini();
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		       "cgroups:\n  /: { cgroup.subtree_control: +cpu }\n"
		       "  a: { cgroup.subtree_control: +cpu }\n  a/b: {}\n"
		       "processes:\n"
		       "  q: { cgroup: a/b, threads: { t: { behavior: busy } } }\n"
		       "  p: { cgroup: a, threads: { t: { behavior: busy } } }\n",
		       LIVE_HIER_V2, "cannot place process 'p' in 'a'");
	fini();
	cr_assert_not_null(plan_of("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
				   "cgroups:\n  /: { cgroup.subtree_control: +cpu }\n"
				   "  a: { cgroup.subtree_control: +cpu }\n  a/b: {}\n"
				   "processes:\n"
				   "  p: { cgroup: a, threads: { t: { behavior: busy } } }\n",
				   LIVE_HIER_V2, err, sizeof(err)), "an empty child: %s", err);
}

/*
 * A domain below a domain that holds threads and enables cpu (a thread root, then) is "domain
 * invalid": cgroup_migrate_vet_dst() refuses it any thread (EOPNOTSUPP).
 */
Test(live_plan, refuses_a_thread_below_a_thread_root)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2 }\nsemantics: v1\n"
		       "cgroups:\n  a: {}\n  a/b: {}\n  a/b/c: {}\n"
		       "processes:\n"
		       "  q: { cgroup: a/b/c, threads: { t: { behavior: busy } } }\n"
		       "  p: { cgroup: a, threads: { t: { behavior: busy } } }\n",
		       LIVE_HIER_V2, "thread 'q/t.1' is in cgroup 'a/b/c', a domain below thread "
		       "root 'a'");
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

/* The plan of @text for @hier on a machine with @online CPUs: NULL with @err set if refused. */
static struct live_plan *plan_on(const char *text, enum live_hier hier, int online, char *err,
				 size_t len)
{
	char lerr[1024];

	cur_sc = scn_load("t.yaml", text, NULL, NULL, 0, lerr, sizeof(lerr));
	cr_assert_not_null(cur_sc, "load failed: %s", lerr);
	if (live_plan_make(cur_sc, hier, "cgsim-7", online, &cur_plan, err, len))
		return NULL;
	return cur_plan;
}

/* live_plan_make() of pinned.yaml's variant cpuset for @hier on 2 CPUs, into cur_plan. */
static int plan_pinned_cpuset(enum live_hier hier, char *err, size_t len)
{
	char *text = library_scenario("pinned.yaml"), lerr[1024];

	cur_sc = scn_load("scenarios/pinned.yaml", text, "cpuset", NULL, 0, lerr, sizeof(lerr));
	free(text);
	cr_assert_not_null(cur_sc, "load failed: %s", lerr);
	return live_plan_make(cur_sc, hier, "cgsim-7", 2, &cur_plan, err, len);
}

/*
 * pinned.yaml's variant cpuset on v2: "one" asks for CPU 1 of 2. Its cpuset.cpus exists once
 * the root enables cpuset (a css only where the parent's subtree_control names the controller),
 * so the root gets "+cpuset" beside "+cpu"; the dir has no children, so nothing in its own
 * subtree_control; its effective set is its list within the root's (update_cpumasks_hier()):
 * "1". The threads of q stay in the root with both CPUs.
 */
Test(live_plan, pinned_cpuset_variant_on_v2)
{
	char err[512];
	const struct live_dir *one;

	cr_assert_eq(plan_pinned_cpuset(LIVE_HIER_V2, err, sizeof(err)), 0, "refused: %s", err);
	cr_expect(cur_plan->root_cpu && cur_plan->root_cpuset, "+cpu and +cpuset in the root");
	cr_assert_eq(cur_plan->ndirs, 1);
	one = dir_named(cur_plan, "cgsim-7-one");
	cr_expect_str_eq(writes_of(one), "cpuset.cpus=1 cpu.weight=100");
	cr_expect_eq(thread_named(cur_plan, "p/w.1")->dir, 0);
	cr_expect_eq(thread_named(cur_plan, "q/w.2")->dir, -1);
	cr_expect(!cur_plan->confined);
}

/* On v1 the cpuset is a hierarchy of its own, which the plan does not set up: as before. */
Test(live_plan, pinned_cpuset_variant_refused_on_v1)
{
	char err[512];

	cr_assert_eq(plan_pinned_cpuset(LIVE_HIER_V1, err, sizeof(err)), -EINVAL);
	cr_expect_str_eq(err, "scenarios/pinned.yaml: thread 'p/w.1' is limited by cpuset.cpus, "
			      "which validate --live does not set up (use affinity:)");
}

/*
 * Nested cpusets on 8 CPUs, run on 16 online. cpuset.cpus of a/b exists only when a enables
 * cpuset, a's only when the root does: "+cpu +cpuset" in a's subtree_control (written before
 * a/b is made), "+cpu" alone in z's, which has no cpuset below. a/b asks for 2-5 inside a's
 * 0-3: effective 2-3 (its list within its parent's), which is what the plan writes. a/c asks
 * for 4-7, outside a's 0-3: on v2 an empty intersection falls back to the parent's set
 * (update_cpumasks_hier()), so it is a's and needs no write; "free" asks for all 8, as the root
 * has them: no write. Scenario CPUs are the machine's 0..7 (confined: every affinity within
 * them), so free's kernel set, the machine's 16, comes to the model's 0-7 with the affinity.
 */
Test(live_plan, nested_cpusets_write_their_effective_cpus)
{
	char err[512];
	struct live_plan *p = plan_on(
		"name: t\nduration: 1s\nmachine: { cpus: 8 }\n"
		"cgroups:\n"
		"  /: { cgroup.subtree_control: +cpu +cpuset }\n"
		"  a: { cgroup.subtree_control: +cpu +cpuset, cpuset.cpus: 0-3 }\n"
		"  a/b: { cpuset.cpus: 2-5, cpu.weight: 50 }\n"
		"  a/c: { cpuset.cpus: 4-7 }\n"
		"  free: { cpuset.cpus: 0-7 }\n"
		"  z: { cgroup.subtree_control: +cpu }\n"
		"  z/w: {}\n"
		"processes:\n"
		"  p: { cgroup: a/b, threads: { t: { count: 2, behavior: busy } } }\n"
		"  q: { cgroup: a/c, threads: { t: { behavior: busy } } }\n"
		"  r: { cgroup: free, threads: { t: { behavior: busy } } }\n"
		"  s: { cgroup: z/w, threads: { t: { behavior: busy } } }\n",
		LIVE_HIER_V2, 16, err, sizeof(err));

	cr_assert_not_null(p, "refused: %s", err);
	cr_expect(p->confined && p->cpus == 8);
	cr_expect(p->root_cpuset);
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-a")),
			 "cgroup.subtree_control=+cpu +cpuset cpuset.cpus=0-3 cpu.weight=100");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-a/b")), "cpuset.cpus=2-3 cpu.weight=50");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-a/c")), "cpu.weight=100");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-free")), "cpu.weight=100");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-z")),
			 "cgroup.subtree_control=+cpu cpu.weight=100");
	cr_expect_lt(dir_named(p, "cgsim-7-a") - p->dirs, dir_named(p, "cgsim-7-a/b") - p->dirs,
		     "a (and its +cpuset) before a/b");
}

/* No cpuset narrows anything: no cpuset write, not even "+cpuset" in the root. */
Test(live_plan, a_cpuset_that_narrows_nothing_writes_nothing)
{
	char err[512];
	struct live_plan *p = plan_of("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
				      "cgroups:\n"
				      "  /: { cgroup.subtree_control: +cpu +cpuset }\n"
				      "  a: { cpuset.cpus: 0-1 }\n"
				      "processes:\n"
				      "  p: { cgroup: a, threads: { t: { behavior: busy } } }\n",
				      LIVE_HIER_V2, err, sizeof(err));

	cr_assert_not_null(p, "refused: %s", err);
	cr_expect(p->root_cpu && !p->root_cpuset);
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-a")), "cpu.weight=100");
}

/*
 * cpuset is a threaded controller (cpuset_cgrp_subsys.threaded): a threaded cgroup has its
 * cpuset.cpus when its parent enables cpuset. The type still comes first, then the list.
 */
Test(live_plan, a_threaded_cgroup_takes_a_cpuset)
{
	char err[512];
	struct live_plan *p = plan_of(
		"name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		"cgroups:\n"
		"  /: { cgroup.subtree_control: +cpu +cpuset }\n"
		"  dom: { cgroup.subtree_control: +cpu +cpuset }\n"
		"  dom/t1: { cgroup.type: threaded, cpuset.cpus: \"0\" }\n"
		"  dom/t2: { cgroup.type: threaded }\n"
		"processes:\n  p:\n    cgroup: dom/t1\n    threads:\n"
		"      a: { behavior: busy }\n      b: { cgroup: dom/t2, behavior: busy }\n",
		LIVE_HIER_V2, err, sizeof(err));

	cr_assert_not_null(p, "refused: %s", err);
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-dom")),
			 "cgroup.subtree_control=+cpu +cpuset cpu.weight=100");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-dom/t1")),
			 "cgroup.type=threaded cpuset.cpus=0 cpu.weight=100");
	cr_expect_str_eq(writes_of(dir_named(p, "cgsim-7-dom/t2")),
			 "cgroup.type=threaded cpu.weight=100");
	cr_expect_eq(thread_named(p, "p/b.1")->move, LIVE_MOVE_THREADS);
}

/*
 * A cpuset on a cgroup without the cpu controller: it is no task group, so the plan makes no
 * cgroup for it and its threads go to the task group above, whose CPUs are not theirs.
 */
Test(live_plan, refuses_a_cpuset_on_a_cgroup_without_cpu)
{
	assert_refused("name: t\nduration: 1s\nmachine: { cpus: 2 }\n"
		       "cgroups:\n"
		       "  /: { cgroup.subtree_control: +cpu +cpuset }\n"
		       "  a: { cgroup.subtree_control: +cpuset }\n"
		       "  a/b: { cpuset.cpus: \"1\" }\n"
		       "processes:\n  p: { cgroup: a/b, threads: { t: { behavior: busy } } }\n",
		       LIVE_HIER_V2, "thread 'p/t.1' is limited by the cpuset.cpus of cgroup "
		       "'a/b', which has no cpu controller");
}

/* A list that does not fit one write: every other CPU of 128 is 181 bytes. */
Test(live_plan, refuses_a_cpu_list_too_long_to_write)
{
	char text[2048], err[512];
	size_t at;

	at = (size_t)snprintf(text, sizeof(text), "name: t\nduration: 1s\nmachine: { cpus: 128 }\n"
			      "cgroups:\n  /: { cgroup.subtree_control: +cpu +cpuset }\n"
			      "  a: { cpuset.cpus: \"0");
	for (int c = 2; c < 128; c += 2)
		at += (size_t)snprintf(text + at, sizeof(text) - at, ",%d", c);
	snprintf(text + at, sizeof(text) - at, "\" }\nprocesses:\n"
		 "  p: { cgroup: a, threads: { t: { behavior: busy } } }\n");
	cr_assert_null(plan_on(text, LIVE_HIER_V2, 128, err, sizeof(err)), "not refused");
	cr_expect(strstr(err, "the CPU list of cgroup 'a' is longer than the 127 bytes"), "%s",
		  err);
}
