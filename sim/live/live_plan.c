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
	if (sc->sched.machine.cpus > cpus)
		return refuse(err, errlen, "%s: the scenario simulates %d CPUs and this machine has "
			      "%d online (--set machine.cpus=%d)", sc->file, sc->sched.machine.cpus, cpus,
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
 * subtree_control comes before its children are made, so their cpu files exist; "+cpuset" with
 * it where a dir below writes cpuset.cpus (@cpuset_below), which exists only in a cgroup whose
 * parent enables cpuset. cpuset is a threaded controller like cpu, so the same rules hold for
 * it, and a threaded dir has its cpuset files as a domain has. @cpus, when not empty, goes to
 * the dir's own cpuset.cpus, before any child exists and before any thread is in it.
 */
static void dir_writes(struct live_dir *d, enum live_hier hier, const struct cg_cpu_params *p,
		       bool cpuset_below, const char *cpus)
{
	unsigned long long quota = p->quota_us, period = p->period_us;
	bool limited = p->quota_us != CG_QUOTA_MAX;

	if (hier == LIVE_HIER_V2 && d->threaded)
		add_write(d, "cgroup.type", "threaded");
	if (hier == LIVE_HIER_V2 && d->has_children)
		add_write(d, "cgroup.subtree_control", "%s",
			  cpuset_below ? "+cpu +cpuset" : "+cpu");
	if (cpus[0])
		add_write(d, "cpuset.cpus", "%s", cpus);
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

/* The model's file @file of cgroup @cg into *@text (malloc'ed): 0 or cg_read()'s error. */
static int model_file(struct cg_hier *h, int cg, const char *file, char **text)
{
	char path[4200];
	size_t n;

	cg_path(h, cg, path, sizeof(path) - 64);
	n = cg ? strlen(path) : 0;
	snprintf(path + n, sizeof(path) - n, "%s%s", cg ? "/" : "", file);
	return cg_read(h, path, text);
}

/* Whether the model made cgroup @cg threaded (v1 has no cgroup.type: never). */
static int model_threaded(struct cg_hier *h, int cg, bool *threaded)
{
	char *type = NULL;
	int e;

	*threaded = false;
	if (cg_hier_semantics(h) != CG_SEM_V2)
		return 0;
	e = model_file(h, cg, "cgroup.type", &type);
	if (e == -ENOMEM)
		return e;
	*threaded = !e && !strcmp(type, "threaded\n");
	free(type);
	return 0;
}

/*
 * What of cpusets the plan cannot write: exclusive CPUs and partitions change the effective
 * CPUs of other cgroups (a partition's CPUs leave its siblings'), which writing each dir's own
 * list would not give. The model has neither file today (cgroup/cpuset.c); should it get them,
 * a cgroup that sets them is refused here. 0, -EINVAL or -ENOMEM.
 */
static int check_cpuset_extras(struct cg_hier *h, char *err, size_t errlen)
{
	static const char *const files[][2] = {
		{ "cpuset.cpus.exclusive", "\n" },
		{ "cpuset.cpus.partition", "member\n" },
	};
	char path[512];
	int end = cg_cgroup_max_id(h), e;

	for (int cg = 1; cg < end; cg++)
		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]) && cg_cgroup_alive(h, cg);
		     k++) {
			char *text = NULL;
			bool set;

			e = model_file(h, cg, files[k][0], &text);
			if (e == -ENOMEM)
				return e;
			set = !e && strcmp(text, files[k][1]);
			free(text);
			if (set)
				return refuse(err, errlen, "cgroup '%s' sets %s, which validate "
					      "--live does not set up",
					      cg_path(h, cg, path, sizeof(path)), files[k][0]);
		}
	return 0;
}

/*
 * The CPUs that dir @d's cpuset.cpus must get, in the kernel's list format ("0-3,8"), into
 * @list; "" when its cgroup's effective CPUs in the model are those of its parent dir's (the
 * root's for a top-level dir), which the kernel gives it without a write. The list written is
 * the effective set itself: the kernel makes a v2 cpuset's effective CPUs its cpuset.cpus
 * within its parent's effective ones, and the parent dir has the model's already, so the dir
 * gets exactly the model's, whatever the scenario's cpuset.cpus asked beyond them. 0, -EINVAL
 * (a list too long for a write) or -ENOMEM.
 */
static int dir_cpus(struct cg_hier *h, const struct live_plan *plan, size_t d, char *list,
		    char *err, size_t errlen)
{
	uint64_t mine[CG_CPUMASK_WORDS], above[CG_CPUMASK_WORDS];
	const struct live_dir *dir = &plan->dirs[d];
	char *text = NULL, path[512];
	size_t n;
	int e;

	list[0] = '\0';
	cg_cpuset_effective(h, dir->cgroup, mine, CG_CPUMASK_WORDS);
	cg_cpuset_effective(h, dir->parent >= 0 ? plan->dirs[dir->parent].cgroup : 0, above,
			    CG_CPUMASK_WORDS);
	if (!memcmp(mine, above, sizeof(mine)))
		return 0;
	if ((e = model_file(h, dir->cgroup, "cpuset.cpus.effective", &text)))
		return e == -ENOMEM ? e : refuse(err, errlen, "cgsim: the model has no "
						 "cpuset.cpus.effective in cgroup '%s'",
						 cg_path(h, dir->cgroup, path, sizeof(path)));
	n = strcspn(text, "\n");
	if (n >= LIVE_WRITE_MAX) {
		free(text);
		return refuse(err, errlen, "the CPU list of cgroup '%s' is longer than the %d "
			      "bytes validate --live writes to cpuset.cpus",
			      cg_path(h, dir->cgroup, path, sizeof(path)), LIVE_WRITE_MAX - 1);
	}
	memcpy(list, text, n);
	list[n] = '\0';
	free(text);
	return 0;
}

/*
 * Each dir's writes (v2: its cpuset.cpus where the model narrows its CPUs, "+cpuset" in the
 * subtree_control of every dir above it and of the root).
 */
static int plan_writes(struct live_plan *plan, struct cg_hier *h, char *err, size_t errlen)
{
	char (*cpus)[LIVE_WRITE_MAX] = calloc(plan->ndirs ? plan->ndirs : 1, sizeof(*cpus));
	bool *below = calloc(plan->ndirs ? plan->ndirs : 1, sizeof(*below));
	struct cg_cpu_params p;
	int e = 0;

	if (!cpus || !below) {
		e = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < plan->ndirs && plan->hier == LIVE_HIER_V2; i++) {
		if ((e = dir_cpus(h, plan, i, cpus[i], err, errlen)))
			goto out;
		if (!cpus[i][0])
			continue;
		for (int a = plan->dirs[i].parent; a >= 0; a = plan->dirs[a].parent)
			below[a] = true;
		plan->root_cpuset = true;
	}
	for (size_t i = 0; i < plan->ndirs; i++) {
		cg_tg_params(h, plan->dirs[i].cgroup, &p);
		dir_writes(&plan->dirs[i], plan->hier, &p, below[i], cpus[i]);
	}
out:
	free(cpus);
	free(below);
	return e;
}

/*
 * One dir per task group but the root, parents first (a parent's id is smaller), then each
 * dir's writes, which depend on whether it has children and on the cpusets below it.
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
	if ((e = check_cpuset_extras(h, err, errlen)))
		return e;
	return plan_writes(plan, h, err, errlen);
}

/*
 * On v2, whether thread @t's CPUs in the model (@mask) are its task group's, which its dir has
 * on the kernel (plan_writes()); they are not when a cgroup below the task group, one without
 * the cpu controller and so no dir, narrows them with its cpuset.cpus. Refused then, naming the
 * highest such cgroup.
 */
static int check_thread_cpus(const struct run_layout *l, const struct run_layout_thread *t,
			     const uint64_t *mask, const char *file, char *err, size_t errlen)
{
	uint64_t tg[CG_CPUMASK_WORDS], m[CG_CPUMASK_WORDS];
	int g = cg_thread_tg(l->h, t->tid), by = -1;
	char a[512], b[512];

	cg_cpuset_effective(l->h, g, tg, CG_CPUMASK_WORDS);
	if (!memcmp(mask, tg, sizeof(tg)))
		return 0;
	for (int c = cg_thread_cgroup(l->h, t->tid); c >= 0 && c != g;
	     c = cg_cgroup_parent(l->h, c))
		if (!cg_cpuset_effective(l->h, c, m, CG_CPUMASK_WORDS) && memcmp(m, tg, sizeof(m)))
			by = c;
	return refuse(err, errlen, "%s: thread '%s/%s.%d' is limited by the cpuset.cpus of cgroup "
		      "'%s', which has no cpu controller: validate --live writes cpusets only in "
		      "the cgroups of task groups (here '%s'; or use affinity:)", file,
		      t->proc->name, t->grp->name, t->index, cg_path(l->h, by, a, sizeof(a)),
		      cg_path(l->h, g, b, sizeof(b)));
}

/* The threads, in the scenario's order, each with the dir of its task group. */
static int make_threads(struct live_plan *plan, const struct run_layout *l, const int *dir_of,
			const struct scenario *sc, char *err, size_t errlen)
{
	uint64_t all[CG_CPUMASK_WORDS], mask[CG_CPUMASK_WORDS];
	int e;

	plan->threads = calloc(l->nthreads ? l->nthreads : 1, sizeof(*plan->threads));
	plan->procs = calloc(sc->nprocs ? sc->nprocs : 1, sizeof(*plan->procs));
	if (!plan->threads || !plan->procs)
		return -ENOMEM;
	cg_cpuset_effective(l->h, 0, all, CG_CPUMASK_WORDS);
	for (size_t i = 0; i < l->nthreads; i++) {
		const struct run_layout_thread *t = &l->threads[i];
		struct live_thread *o = &plan->threads[i];
		size_t p = (size_t)(t->proc - sc->procs);

		if (cg_thread_cpus(l->h, t->tid, mask, CG_CPUMASK_WORDS))
			memcpy(mask, all, sizeof(mask));
		if (plan->hier == LIVE_HIER_V1 && memcmp(mask, all, sizeof(mask)))
			return refuse(err, errlen, "%s: thread '%s/%s.%d' is limited by cpuset.cpus, "
				      "which validate --live does not set up (use affinity:)",
				      sc->file, t->proc->name, t->grp->name, t->index);
		if (plan->hier == LIVE_HIER_V2 && (e = check_thread_cpus(l, t, mask, sc->file, err,
									 errlen)))
			return e;
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
	plan->cpus = sc->sched.machine.cpus;
	plan->confined = sc->sched.machine.cpus < cpus;
	plan->rtapp = sc->rtapp;
	if ((e = make_dirs(plan, l->h, dir_of, prefix, err, errlen)) ||
	    (e = make_threads(plan, l, dir_of, sc, err, errlen)) ||
	    (hier == LIVE_HIER_V2 && (e = check_v2(plan, l->h, err, errlen))))
		goto out;
	set_moves(plan);
	plan->root_cpu = hier == LIVE_HIER_V2 && plan->ndirs;	/* root_cpuset: plan_writes */
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
