// SPDX-License-Identifier: MIT
/*
 * sim/live/live_plan.c - a scenario's layout in the kernel's terms (sim/live/live.h).
 *
 * Scheduling depends only on the task-group tree, so the plan makes one cgroup per task group
 * and none for a cgroup without the cpu controller (its threads belong to the task group above
 * it). The scenario's root is the kernel's root; top-level groups are made in it under unique
 * names, so that they compete with root threads at the same level as in the scenario.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgroup.h"
#include "scheduler/weight.h"
#include "sim/live/live.h"
#include "sim/run/run.h"
#include "sim/util/util.h"

/* Refuse with a one-line reason; -EINVAL. */
static int refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* What the kernel cannot be given, seen from the scenario alone. */
static int check_scenario(const struct scenario *sc, int cpus, char *err, size_t errlen)
{
	if (sc->semantics == CG_SEM_RFC2017)
		return refuse(err, errlen, "%s: the rfc2017 rule set was never merged: no kernel "
			      "runs it", sc->file);
	if (sc->ntimeline)
		return refuse(err, errlen, "%s: a timeline changes the layout while it runs, which "
			      "validate --live does not do", sc->file);
	/* an rt-app file is run by rt-app itself; cgsim's helpers run run and sleep steps */
	for (size_t i = 0; i < sc->nprocs && !sc->rtapp; i++)
		for (size_t j = 0; j < sc->procs[i].nthreads; j++) {
			const struct scn_threads *g = &sc->procs[i].threads[j];

			for (size_t k = 0; k < g->spec.behavior.nphases; k++)
				if (g->phases[k].kind != SIM_STEP_RUN &&
				    g->phases[k].kind != SIM_STEP_SLEEP)
					return refuse(err, errlen, "%s:%d: thread '%s/%s' has steps "
						      "other than run and sleep, which validate "
						      "--live runs only for an rt-app file (with "
						      "rt-app itself)", sc->file, g->pos.line,
						      sc->procs[i].name, g->name);
		}
	if (sc->sched.cpus > cpus)
		return refuse(err, errlen, "%s: the scenario simulates %d CPUs and this machine has "
			      "%d online (--set machine.cpus=%d)", sc->file, sc->sched.cpus, cpus,
			      cpus);
	for (size_t i = 0; i < sc->nprocs; i++)
		for (size_t k = 0; k < i && sc->procs[i].session; k++)
			if (sc->procs[k].session && !strcmp(sc->procs[k].session, sc->procs[i].session))
				return refuse(err, errlen, "%s: processes '%s' and '%s' share session "
					      "'%s', which validate --live cannot set up (one session "
					      "per process)", sc->file, sc->procs[k].name,
					      sc->procs[i].name, sc->procs[i].session);
	return 0;
}

/* DIV_ROUND_CLOSEST(x, d) for unsigned operands. */
static unsigned long long div_closest(unsigned long long x, unsigned long long d)
{
	return (x + d / 2) / d;
}

static void add_write(struct live_dir *d, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_write(struct live_dir *d, const char *file, const char *fmt, ...)
{
	va_list ap;

	d->writes[d->nwrites].file = file;
	va_start(ap, fmt);
	vsnprintf(d->writes[d->nwrites].value, sizeof(d->writes[0].value), fmt, ap);
	va_end(ap);
	d->nwrites++;
}

/*
 * The weight on v2: cpu.weight w gives shares DIV_ROUND_CLOSEST(w * 1024, 100); where no w
 * gives the shares back exactly and they are a nice level's weight (cpu.weight.nice wrote
 * them), cpu.weight.nice does.
 */
static void v2_weight(struct live_dir *d, unsigned long shares)
{
	unsigned long long w = div_closest((unsigned long long)shares * 100, 1024);

	w = w < 1 ? 1 : w > 10000 ? 10000 : w;
	if (div_closest(w * 1024, 100) != shares)
		for (int nice = SCHED_NICE_MIN; nice <= SCHED_NICE_MAX; nice++)
			if (sched_prio_to_weight(nice) == shares) {
				add_write(d, "cpu.weight.nice", "%d", nice);
				return;
			}
	add_write(d, "cpu.weight", "%llu", w);
}

/*
 * The files that give the kernel task group @p's settings, in an order the kernel accepts. On
 * v2 the dir's type comes first: cgroup_enable_threaded() refuses a cgroup with domain
 * controllers in its subtree_control, and "+cpu" in the subtree_control of a dir that is still
 * a domain below a thread root (a threaded sibling made before it) fails in
 * cgroup_vet_subtree_control_enable() ("domain invalid": EOPNOTSUPP). "+cpu" in a parent's
 * subtree_control comes before its children are made, so their cpu files exist.
 */
static void dir_writes(struct live_dir *d, enum live_hier hier, const struct cg_cpu_params *p)
{
	unsigned long long quota = p->quota_us, period = p->period_us;
	bool limited = p->quota_us != CG_QUOTA_MAX;

	if (hier == LIVE_HIER_V2 && d->threaded)
		add_write(d, "cgroup.type", "threaded");
	if (hier == LIVE_HIER_V2 && d->has_children)
		add_write(d, "cgroup.subtree_control", "+cpu");
	if (p->idle)
		add_write(d, "cpu.idle", "%llu", 1ULL);	/* the weight follows (WEIGHT_IDLEPRIO) */
	else if (hier == LIVE_HIER_V1)
		add_write(d, "cpu.shares", "%llu", (unsigned long long)p->shares);
	else
		v2_weight(d, p->shares);
	if (hier == LIVE_HIER_V1) {
		if (p->period_us != 100000 || limited)
			add_write(d, "cpu.cfs_period_us", "%llu", period);
		if (limited)
			add_write(d, "cpu.cfs_quota_us", "%llu", quota);
		if (p->burst_us)
			add_write(d, "cpu.cfs_burst_us", "%llu", (unsigned long long)p->burst_us);
		return;
	}
	if (limited)
		add_write(d, "cpu.max", "%llu %llu", quota, period);
	else if (p->period_us != 100000)
		add_write(d, "cpu.max", "max %llu", period);
	if (p->burst_us)
		add_write(d, "cpu.max.burst", "%llu", (unsigned long long)p->burst_us);
}

/*
 * The dir of task group @cg: below its parent task group's dir, named by the path between the
 * two with '/' made '.', or "@prefix-NAME" in the root.
 */
static char *dir_path(const struct cg_hier *h, const struct live_plan *plan, const int *dir_of,
		      int cg, const char *prefix)
{
	char path[4096], ppath[4096], *rel, *out;
	int parent = cg_tg_parent(h, cg);

	cg_path(h, cg, path, sizeof(path));
	cg_path(h, parent, ppath, sizeof(ppath));
	rel = parent ? path + strlen(ppath) + 1 : path;
	for (char *s = rel; *s; s++)
		if (*s == '/')
			*s = '.';
	if (!parent)
		out = util_asprintf("%s-%s", prefix, rel);
	else
		out = util_asprintf("%s/%s", plan->dirs[dir_of[parent]].path, rel);
	return out;
}

/* Whether the model made cgroup @cg threaded (v1 has no cgroup.type: never). */
static int model_threaded(struct cg_hier *h, int cg, bool *threaded)
{
	char path[4200], *type = NULL;
	int e;

	*threaded = false;
	if (cg_hier_semantics(h) != CG_SEM_V2)
		return 0;
	cg_path(h, cg, path, sizeof(path) - sizeof("/cgroup.type"));
	strcat(path, "/cgroup.type");
	e = cg_read(h, path, &type);
	if (e == -ENOMEM)
		return e;
	*threaded = !e && !strcmp(type, "threaded\n");
	free(type);
	return 0;
}

/*
 * One dir per task group but the root, parents first (a parent's id is smaller), then each
 * dir's writes, which depend on whether it has children.
 */
static int make_dirs(struct live_plan *plan, struct cg_hier *h, int *dir_of, const char *prefix,
		     char *err, size_t errlen)
{
	int end = cg_cgroup_max_id(h), e;
	struct cg_cpu_params p;

	plan->dirs = calloc((size_t)end, sizeof(*plan->dirs));
	if (!plan->dirs)
		return -ENOMEM;
	for (int cg = 0; cg < end; cg++) {
		struct live_dir *d = &plan->dirs[plan->ndirs];

		dir_of[cg] = -1;
		if (!cg || !cg_cgroup_alive(h, cg) || !cg_is_tg(h, cg) || cg_tg_params(h, cg, &p))
			continue;
		d->cgroup = cg;
		d->parent = cg_tg_parent(h, cg) ? dir_of[cg_tg_parent(h, cg)] : -1;
		if (!(d->path = dir_path(h, plan, dir_of, cg, prefix)))
			return -ENOMEM;
		for (size_t k = 0; k < plan->ndirs; k++)
			if (!strcmp(plan->dirs[k].path, d->path)) {
				e = refuse(err, errlen, "two groups would both be made as cgroup '%s' (a "
					   "name with '.' beside a path through a cgroup without cpu)",
					   d->path);
				free(d->path);
				d->path = NULL;
				return e;
			}
		if (plan->hier == LIVE_HIER_V2 && (e = model_threaded(h, cg, &d->threaded))) {
			free(d->path);
			d->path = NULL;
			return e;
		}
		if (d->parent >= 0)
			plan->dirs[d->parent].has_children = true;
		d->domain = !d->threaded ? (int)plan->ndirs
			    : d->parent >= 0 ? plan->dirs[d->parent].domain : -1;
		dir_of[cg] = (int)plan->ndirs++;
	}
	for (size_t i = 0; i < plan->ndirs; i++) {
		cg_tg_params(h, plan->dirs[i].cgroup, &p);
		dir_writes(&plan->dirs[i], plan->hier, &p);
	}
	return 0;
}

/* The threads, in the scenario's order, each with the dir of its task group. */
static int make_threads(struct live_plan *plan, const struct run_layout *l, const int *dir_of,
			const struct scenario *sc, char *err, size_t errlen)
{
	uint64_t all[CG_CPUMASK_WORDS], mask[CG_CPUMASK_WORDS];

	plan->threads = calloc(l->nthreads ? l->nthreads : 1, sizeof(*plan->threads));
	plan->procs = calloc(sc->nprocs ? sc->nprocs : 1, sizeof(*plan->procs));
	if (!plan->threads || !plan->procs)
		return -ENOMEM;
	cg_cpuset_effective(l->h, 0, all, CG_CPUMASK_WORDS);
	for (size_t i = 0; i < l->nthreads; i++) {
		const struct run_layout_thread *t = &l->threads[i];
		struct live_thread *o = &plan->threads[i];
		size_t p = (size_t)(t->proc - sc->procs);

		if (!cg_thread_cpus(l->h, t->tid, mask, CG_CPUMASK_WORDS) &&
		    memcmp(mask, all, sizeof(mask)))
			return refuse(err, errlen, "%s: thread '%s/%s.%d' is limited by cpuset.cpus, "
				      "which validate --live does not set up (use affinity:)",
				      sc->file, t->proc->name, t->grp->name, t->index);
		o->name = util_asprintf("%s/%s.%d", t->proc->name, t->grp->name, t->index);
		if (!o->name)
			return -ENOMEM;
		plan->nthreads = i + 1;	/* what live_plan_free() frees */
		o->proc = p;
		o->grp = t->grp;
		o->stream = t->stream;
		o->dir = dir_of[cg_thread_tg(l->h, t->tid)];
		if (!plan->procs[p].n) {
			plan->procs[p].p = t->proc;
			plan->procs[p].first = i;
			plan->procs[p].session_nice = t->session_nice;
		}
		plan->procs[p].n++;
	}
	plan->nprocs = sc->nprocs;
	return 0;
}

/* The scenario's name of dir @d's cgroup ("/": the root), for messages. */
static const char *dir_name(const struct cg_hier *h, const struct live_plan *plan, int d,
			    char *buf, size_t len)
{
	return cg_path(h, d >= 0 ? plan->dirs[d].cgroup : 0, buf, len);
}

/* The threaded domain of dir @d (-1, the root, for the root). */
static int domain_of(const struct live_plan *plan, int d)
{
	return d >= 0 ? plan->dirs[d].domain : -1;
}

/*
 * cgroup_is_thread_root() of dir @d once every thread is placed: a domain with a threaded child,
 * or with threads of its own and a threaded controller (cpu, which every dir with children
 * enables) in its subtree_control.
 */
static bool thread_root(const struct live_plan *plan, const bool *holds, const bool *thr_child,
			int d)
{
	return !plan->dirs[d].threaded &&
	       (thr_child[d] || (holds[d] && plan->dirs[d].has_children));
}

/*
 * cgroup_is_valid_domain() of the domain dir @d: no ancestor but the root (which is mixable) is
 * threaded or a thread root. The first offending ancestor, or -1 when valid.
 */
static int invalid_below(const struct live_plan *plan, const bool *holds, const bool *thr_child,
			 int d)
{
	for (int a = plan->dirs[d].parent; a >= 0; a = plan->dirs[a].parent)
		if (plan->dirs[a].threaded || thread_root(plan, holds, thr_child, a))
			return a;
	return -1;
}

/*
 * What cgroup v2 refuses of the plan's placement, with the kernel's rules (kernel/cgroup/
 * cgroup.c) applied to the final layout. Each test only gets stricter as threads arrive, so
 * what passes here passes at every step of the placement, in any order:
 * - a thread moves through cgroup.threads only within its process's threaded domain
 *   (cgroup_attach_permissions(): src->dom_cgrp == dst->dom_cgrp, else EOPNOTSUPP);
 * - a destination's domain must be valid (cgroup_migrate_vet_dst(): EOPNOTSUPP for a "domain
 *   invalid" cgroup, a domain below a thread root or a threaded cgroup);
 * - no internal processes in a domain: a domain that holds threads and enables cpu for its
 *   children must be able to be a thread root (cgroup_migrate_vet_dst(), else EBUSY), so none
 *   of its child dirs that is not threaded may hold threads. A threaded dir, a domain that
 *   becomes a thread root that way and the root are exempt.
 */
static int check_v2(const struct live_plan *plan, const struct cg_hier *h, char *err,
		    size_t errlen)
{
	size_t n = plan->ndirs ? plan->ndirs : 1;
	bool *holds = calloc(n, sizeof(*holds)), *populated = calloc(n, sizeof(*populated));
	bool *thr_child = calloc(n, sizeof(*thr_child));
	char a[512], b[512], c[512], o[512];
	int e = 0;

	if (!holds || !populated || !thr_child) {
		e = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < plan->ndirs; i++)
		if (plan->dirs[i].threaded && plan->dirs[i].parent >= 0)
			thr_child[plan->dirs[i].parent] = true;
	for (size_t i = 0; i < plan->nthreads; i++) {
		int d = plan->threads[i].dir;

		if (d >= 0)
			holds[d] = true;
		for (; d >= 0 && !populated[d]; d = plan->dirs[d].parent)
			populated[d] = true;
	}
	for (size_t i = 0; i < plan->nthreads && !e; i++) {
		const struct live_thread *t = &plan->threads[i];
		const struct live_thread *first = &plan->threads[plan->procs[t->proc].first];
		int d = t->dir, dom = domain_of(plan, d), bad;

		if (dom != domain_of(plan, first->dir)) {
			e = refuse(err, errlen, "threads '%s' (in '%s') and '%s' (in '%s') of one "
				   "process are in different threaded domains ('%s' and '%s'): cgroup "
				   "v2 moves a thread only within its process's domain", first->name,
				   dir_name(h, plan, first->dir, a, sizeof(a)), t->name,
				   dir_name(h, plan, d, b, sizeof(b)),
				   dir_name(h, plan, domain_of(plan, first->dir), c, sizeof(c)),
				   dir_name(h, plan, dom, o, sizeof(o)));
			break;
		}
		if (dom >= 0 && (bad = invalid_below(plan, holds, thr_child, dom)) >= 0) {
			if (dom != d)
				snprintf(o, sizeof(o), ", of domain '%s',",
					 dir_name(h, plan, dom, b, sizeof(b)));
			e = refuse(err, errlen, "thread '%s' is in cgroup '%s'%s below %s '%s' "
				   "('domain invalid'), which cgroup v2 refuses", t->name,
				   dir_name(h, plan, d, a, sizeof(a)), dom != d ? o : ", a domain",
				   plan->dirs[bad].threaded ? "threaded cgroup" : "thread root",
				   dir_name(h, plan, bad, c, sizeof(c)));
			break;
		}
		if (d < 0 || plan->dirs[d].threaded)
			continue;
		for (size_t k = 0; k < plan->ndirs && !e; k++)
			if (plan->dirs[k].parent == d && !plan->dirs[k].threaded && populated[k])
				e = refuse(err, errlen, "thread '%s' is in cgroup '%s' beside its child "
					   "group '%s', which holds threads and is not threaded: cgroup "
					   "v2 refuses that (no internal processes)", t->name,
					   dir_name(h, plan, d, a, sizeof(a)),
					   dir_name(h, plan, (int)k, b, sizeof(b)));
	}
out:
	free(holds);
	free(populated);
	free(thr_child);
	return e;
}

/*
 * How each thread reaches its dir: v1 one by one; v2 the process whole through its first
 * thread's dir (cgroup_migrate_vet_dst() takes a threaded destination, and the domain
 * destinations check_v2() let through), then each thread elsewhere through cgroup.threads.
 */
static void set_moves(struct live_plan *plan)
{
	for (size_t i = 0; i < plan->nthreads; i++) {
		struct live_thread *t = &plan->threads[i];
		size_t first = plan->procs[t->proc].first;

		if (plan->hier == LIVE_HIER_V1)
			t->move = LIVE_MOVE_TASKS;
		else if (i == first)
			t->move = LIVE_MOVE_PROCS;
		else
			t->move = t->dir == plan->threads[first].dir ? LIVE_MOVE_WITH_PROC
								       : LIVE_MOVE_THREADS;
	}
}

int live_plan_make(const struct scenario *sc, enum live_hier hier, const char *prefix, int cpus,
		   struct live_plan **out, char *err, size_t errlen)
{
	struct run_layout *l = NULL;
	struct live_plan *plan;
	int *dir_of = NULL, e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if ((e = check_scenario(sc, cpus, err, errlen)))
		return e;
	if (sc->rtapp && sc->ncgroups && hier != LIVE_HIER_V1)
		return refuse(err, errlen, "%s: rt-app's taskgroups need the v1 cpu hierarchy, and "
			      "this machine offers cpu on cgroup v2", sc->file);
	if ((e = run_layout_build(sc, &l, err, errlen)))
		return e;
	plan = calloc(1, sizeof(*plan));
	dir_of = malloc(((size_t)cg_cgroup_max_id(l->h) + 1) * sizeof(*dir_of));
	if (!plan || !dir_of) {
		e = -ENOMEM;
		goto out;
	}
	plan->hier = hier;
	plan->autogroup = sc->autogroup;
	plan->cpus = sc->sched.cpus;
	plan->confined = sc->sched.cpus < cpus;
	plan->rtapp = sc->rtapp;
	if ((e = make_dirs(plan, l->h, dir_of, prefix, err, errlen)) ||
	    (e = make_threads(plan, l, dir_of, sc, err, errlen)) ||
	    (hier == LIVE_HIER_V2 && (e = check_v2(plan, l->h, err, errlen))))
		goto out;
	set_moves(plan);
	plan->root_cpu = hier == LIVE_HIER_V2 && plan->ndirs;
out:
	free(dir_of);
	run_layout_free(l);
	if (e) {
		if (e == -ENOMEM && errlen && !err[0])
			snprintf(err, errlen, "cgsim: out of memory");
		live_plan_free(plan);
		return e;
	}
	*out = plan;
	return 0;
}

void live_plan_free(struct live_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->ndirs; i++)
		free(plan->dirs[i].path);
	for (size_t i = 0; i < plan->nthreads; i++)
		free(plan->threads[i].name);
	free(plan->dirs);
	free(plan->threads);
	free(plan->procs);
	free(plan);
}
