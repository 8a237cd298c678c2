// SPDX-License-Identifier: MIT
/*
 * sim/run.c - one variant of a scenario: layout, workload, timeline, measurements.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/ideal.h"
#include "sim/run.h"
#include "sim/util.h"

#define NOPOS ((struct scn_pos){ .line = 0 })

/* Items in the time series (groups + threads) times samples, at most: 32 MB of counters. */
#define SERIES_MAX_CELLS	(4u << 20)
#define SERIES_MAX_THREADS	256

struct rthread {
	const struct scn_process *proc;
	const struct scn_threads *grp;
	int index;		/* 1-based within its thread entry */
	int tid;
	int session;		/* its autogroup session's key, and that session's nice */
	int session_nice;
	double ideal_ns;	/* ∫ ideal share dt over the window (share of capacity × ns) */
};

struct runner {
	const struct scenario *sc;
	char *err;
	size_t errlen;
	struct cg_hier *h;
	struct sim_machine *m;
	struct rthread *t;
	size_t nt;
	double *ideal_cg;	/* per cgroup id: ∫ ideal share dt */
	int ncg;
	uint64_t ideal_from;	/* start of the current ideal interval */
	double *cur_share;	/* per thread: current ideal share */
	double *cur_cg;		/* per cgroup id: current ideal share */
	uint64_t *cg_cpu;	/* per cgroup id: scratch for sampling */
};

static int fail(struct runner *r, struct scn_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct runner *r, struct scn_pos pos, const char *fmt, ...)
{
	va_list ap;

	if (!r->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	util_verrf(r->err, r->errlen, r->sc->file, pos.origin, pos.line, pos.col, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *show_path(const char *p)
{
	return *p ? p : "/";
}

/* The cgroup's type as cgroup.type reads it ("domain" for the root). */
static void cg_type(struct cg_hier *h, const char *path, char *buf, size_t len)
{
	char file[1100], *txt = NULL;

	snprintf(file, sizeof(file), "%s%scgroup.type", path, *path ? "/" : "");
	if (!*path || cg_read(h, file, &txt)) {
		snprintf(buf, len, "domain");
		free(txt);
		return;
	}
	snprintf(buf, len, "%s", txt);
	buf[strcspn(buf, "\n")] = '\0';
	free(txt);
}

/* The rule behind a refused write, in words (docs/cgroup-model.md). */
static const char *why(struct runner *r, const char *path, const char *file, int e, char *buf,
		       size_t len)
{
	char type[64];

	cg_type(r->h, path, type, sizeof(type));
	if (r->sc->semantics == CG_SEM_RFC2017) {
		/* the February 2017 proposal's own rules (docs/cgroup-model.md) */
		if (!strcmp(file, "cgroup.threads") && e == EBUSY)
			return "thread mode can be enabled only in a cgroup with no children and no "
			       "controllers enabled";
		if (!strcmp(file, "cgroup.procs") && e == EINVAL)
			return "under rfc2017 a whole process can be placed only at its thread root, "
			       "not in a threaded member";
	}
	if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
	    !strcmp(file, "tasks")) {
		switch (e) {
		case EOPNOTSUPP:
			if (!strcmp(type, "domain invalid"))
				snprintf(buf, len, "the cgroup is 'domain invalid'");
			else if (!strcmp(file, "cgroup.threads"))
				snprintf(buf, len, "a thread can move only inside its process's "
					 "threaded subtree (the cgroup is '%s')", type);
			else
				snprintf(buf, len, "the cgroup is '%s'; whole processes go to "
					 "domain cgroups or within their own threaded subtree", type);
			return buf;
		case EBUSY:
			return "no internal processes: the cgroup has controllers enabled in its "
			       "cgroup.subtree_control, so processes may only be placed in its leaves";
		case ENOENT:
			return "no such cgroup";
		case EINVAL:
			return "the thread's process is not in this cgroup's threaded domain";
		default:
			break;
		}
	} else if (!strcmp(file, "cgroup.subtree_control")) {
		switch (e) {
		case ENOENT:
			return "the controller is not available here: it must be enabled in the "
			       "parent's cgroup.subtree_control first (top-down), or the hierarchy "
			       "does not offer it";
		case EBUSY:
			return "the cgroup has processes of its own (no internal processes) or a "
			       "child still has the controller enabled";
		case EOPNOTSUPP:
			snprintf(buf, len, "the cgroup is '%s': a threaded cgroup can enable only "
				 "threaded controllers", type);
			return buf;
		case EINVAL:
			return "expected words +NAME or -NAME";
		default:
			break;
		}
	} else if (!strcmp(file, "cgroup.type")) {
		switch (e) {
		case EOPNOTSUPP:
			return "the cgroup cannot be made threaded here (its parent cannot be a "
			       "thread root, or it has domain children or enabled domain controllers)";
		case EINVAL:
			return "only 'threaded' can be written";
		default:
			break;
		}
	} else if (!strncmp(file, "cpu.", 4)) {
		switch (e) {
		case ENOENT:
			return "the file does not exist there: the cpu controller is not enabled in "
			       "the parent's cgroup.subtree_control (the root has no cpu.* files)";
		case ERANGE:
		case EINVAL:
			return "value out of range or malformed (cpu.weight 1..10000, cpu.weight.nice "
			       "-20..19, cpu.max \"max|QUOTA [PERIOD]\", cpu.idle 0|1)";
		default:
			break;
		}
	}
	switch (e) {
	case ENOENT:
		return "no such file or cgroup";
	case EINVAL:
		return "invalid value";
	case EBUSY:
		return "the cgroup is busy";
	default:
		return "refused by the kernel's rules";
	}
}

static int write_file(struct runner *r, const char *path, const char *file, const char *value,
		      struct scn_pos pos, const char *what)
{
	char full[1200], buf[256];
	int e;

	snprintf(full, sizeof(full), "%s%s%s", path, *path ? "/" : "", file);
	e = cg_write(r->h, full, value);
	if (e == -ENOMEM)
		return fail(r, pos, "out of memory");
	if (e)
		return fail(r, pos, "%s: %s (%s)", what, why(r, path, file, -e, buf, sizeof(buf)),
			    cg_errno_name(-e));
	return 0;
}

/*
 * Every cgroup a scenario creates counts against SCN_MAX_CGROUPS, wherever it is created: a
 * cgroups: entry, each of its missing ancestors, a timeline mkdir (ids are never reused, so
 * the model's largest id counts them all, root excluded).
 */
static int count_cgroup(struct runner *r, struct scn_pos pos)
{
	uint64_t made = (uint64_t)cg_cgroup_max_id(r->h) - 1;

	if (made >= SCN_MAX_CGROUPS)
		return fail(r, pos, "more than %d cgroups created in all (cgroups: entries, the "
			    "ancestors they create and timeline mkdirs count)", SCN_MAX_CGROUPS);
	if ((made + 1) * (uint64_t)r->sc->sched.cpus > SCN_MAX_CGROUP_CPUS)
		return fail(r, pos, "%llu cgroups on %d CPUs: at most %u cgroups x CPUs (the "
			    "scheduler keeps a run queue per cgroup on every CPU)",
			    (unsigned long long)made + 1, r->sc->sched.cpus, SCN_MAX_CGROUP_CPUS);
	return 0;
}

/*
 * mkdir -p, reporting the first refusal. The deepest existing ancestor is found walking up
 * from the path itself (usually the parent, one look-up), so that a long path costs look-ups
 * only for the cgroups it creates.
 */
static int make_dirs(struct runner *r, const char *path, struct scn_pos pos)
{
	char part[1100];
	size_t len = strlen(path), have = len;

	while (have) {
		memcpy(part, path, have);
		part[have] = '\0';
		if (cg_lookup(r->h, part) >= 0)
			break;
		while (have && path[have - 1] != '/')
			have--;
		if (have)
			have--;		/* the '/' before the last component */
	}
	for (size_t i = have + 1; i <= len; i++) {
		int e;

		if (i < len && path[i] != '/')
			continue;
		memcpy(part, path, i);
		part[i] = '\0';
		if ((e = count_cgroup(r, pos)))
			return e;
		e = cg_mkdir(r->h, part);
		if (e == -ENOMEM)
			return fail(r, pos, "out of memory");
		if (e)
			return fail(r, pos, "cannot create cgroup '%s': %s (%s)", part,
				    e == -EAGAIN ? "cgroup.max.depth or cgroup.max.descendants "
						   "of an ancestor is reached"
				    : e == -EINVAL ? "not a valid cgroup name" : "refused",
				    cg_errno_name(-e));
	}
	return 0;
}

static int apply_layout(struct runner *r)
{
	const struct scenario *sc = r->sc;
	int e;

	for (size_t i = 0; i < sc->ncgroups; i++) {
		const struct scn_cgroup *cg = &sc->cgroups[i];

		e = make_dirs(r, cg->path, cg->pos);
		if (e)
			return e;
		for (size_t j = 0; j < cg->nwrites; j++) {
			const struct scn_write *w = &cg->writes[j];
			char what[2300];

			snprintf(what, sizeof(what), "cannot write '%s' to %s/%s", w->value,
				 *cg->path ? cg->path : "", w->file);
			e = write_file(r, cg->path, w->file, w->value, w->pos, what);
			if (e)
				return e;
		}
	}
	return 0;
}

/*
 * Sessions for autogroup: processes naming the same session share one, the others have one
 * each (keyed by their pid); a session declared under sessions: gives its autogroup's nice.
 */
static void assign_sessions(struct runner *r)
{
	const struct scenario *sc = r->sc;

	for (size_t i = 0; i < r->nt; i++) {
		const struct scn_process *p = r->t[i].proc;

		r->t[i].session = cg_thread_pid(r->h, r->t[i].tid);
		r->t[i].session_nice = 0;
		if (!p->session)
			continue;
		for (size_t k = 0; k < sc->nprocs; k++)	/* keyed by the first process naming it */
			if (sc->procs[k].session && !strcmp(sc->procs[k].session, p->session)) {
				r->t[i].session = -1 - (int)k;
				break;
			}
		for (size_t k = 0; k < sc->nsessions; k++)
			if (!strcmp(sc->sessions[k].name, p->session))
				r->t[i].session_nice = sc->sessions[k].nice;
	}
}

static int add_processes(struct runner *r)
{
	const struct scenario *sc = r->sc;
	size_t k = 0;

	r->t = calloc((size_t)sc->total_threads ? (size_t)sc->total_threads : 1, sizeof(*r->t));
	if (!r->t)
		return fail(r, NOPOS, "out of memory");
	for (size_t i = 0; i < sc->nprocs; i++) {
		const struct scn_process *p = &sc->procs[i];
		int total = 0, pid, e;
		char num[24], what[256];

		for (size_t j = 0; j < p->nthreads; j++)
			total += p->threads[j].count;
		pid = cg_proc_new(r->h, p->name, total);
		if (pid == -EEXIST)
			return fail(r, p->pos, "process '%s' exists already (a timeline 'proc'?)",
				    p->name);
		if (pid < 0)
			return fail(r, p->pos, "cannot create process '%s' (%s)", p->name,
				    cg_errno_name(-pid));
		if (*p->cgroup) {
			snprintf(num, sizeof(num), "%d", pid);
			snprintf(what, sizeof(what), "cannot place process '%s' in '%s'", p->name,
				 p->cgroup);
			if (cg_lookup(r->h, p->cgroup) < 0)
				return fail(r, p->cgroup_pos, "%s: no such cgroup (declare it under "
					    "cgroups:)", what);
			e = write_file(r, p->cgroup, "cgroup.procs", num, p->cgroup_pos, what);
			if (e)
				return e;
		}
		for (size_t j = 0, tid = (size_t)pid; j < p->nthreads; j++) {
			const struct scn_threads *g = &p->threads[j];

			for (int n = 1; n <= g->count; n++, tid++, k++) {
				r->t[k] = (struct rthread){ .proc = p, .grp = g, .index = n, .tid = (int)tid };
				if (!g->cgroup)
					continue;
				snprintf(num, sizeof(num), "%zu", tid);
				snprintf(what, sizeof(what), "cannot move thread '%s/%s.%d' to '%s'",
					 p->name, g->name, n, show_path(g->cgroup));
				if (*g->cgroup && cg_lookup(r->h, g->cgroup) < 0)
					return fail(r, g->cgroup_pos, "%s: no such cgroup (declare it "
						    "under cgroups:)", what);
				e = write_file(r, g->cgroup, "cgroup.threads", num, g->cgroup_pos,
					       what);
				if (e)
					return e;
			}
		}
	}
	r->nt = k;
	assign_sessions(r);
	return 0;
}

/* ---------------- ideal shares, time-weighted ---------------- */

/* CPUs a thread would use alone, averaged over [t0, t1): its behaviour's duty cycle while on. */
static double demand(const struct scn_threads *g, uint64_t t0, uint64_t t1)
{
	const struct sim_behavior *b = &g->spec.behavior;
	uint64_t on0 = g->spec.start_ns > t0 ? g->spec.start_ns : t0;
	uint64_t on1 = g->spec.stop_ns && g->spec.stop_ns < t1 ? g->spec.stop_ns : t1;
	double duty = 0, run = 0, all = 0;

	if (on1 <= on0 || t1 <= t0)
		return 0;
	switch (b->kind) {
	case SIM_BEHAV_BUSY:
		duty = 1;
		break;
	case SIM_BEHAV_PERIODIC:
		duty = sim_dist_mean(&b->run) / (double)b->period_ns;
		break;
	case SIM_BEHAV_BURSTY:
		run = sim_dist_mean(&b->run);
		duty = run / (run + sim_dist_mean(&b->sleep));
		break;
	case SIM_BEHAV_PHASES:
		for (size_t i = 0; i < b->nphases; i++) {
			double x = sim_dist_mean(&b->phases[i].d);

			all += x;
			if (!b->phases[i].sleep)
				run += x;
		}
		duty = all > 0 ? run / all : 0;
		break;
	case SIM_BEHAV_NONE:
		break;
	}
	if (!isfinite(duty) || duty < 0)
		duty = 1;
	if (duty > 1)
		duty = 1;
	return duty * (double)(on1 - on0) / (double)(t1 - t0);
}

/* Recompute the ideal shares for the layout as it is now, over [now, @until). */
static int ideal_now(struct runner *r, uint64_t now, uint64_t until)
{
	int maxcg = cg_cgroup_max_id(r->h), *node_of = NULL, n = 0, nag = 0, e = 0;
	struct util_imap ag = { 0 };
	struct ideal_node *nodes = NULL;
	double *share = NULL;
	size_t cap = (size_t)maxcg + 2 * r->nt + 1;

	nodes = calloc(cap, sizeof(*nodes));
	share = calloc(cap, sizeof(*share));
	node_of = malloc((size_t)maxcg * sizeof(*node_of));
	if (!nodes || !share || !node_of) {
		e = -ENOMEM;
		goto out;
	}
	/* task groups, parents first (cgroup ids grow with creation) */
	for (int cg = 0; cg < maxcg; cg++) {
		struct cg_cpu_params p;

		node_of[cg] = -1;
		if (!cg_cgroup_alive(r->h, cg) || !cg_is_tg(r->h, cg))
			continue;
		node_of[cg] = n;
		nodes[n].parent = cg ? node_of[cg_tg_parent(r->h, cg)] : -1;
		nodes[n].weight = 1024;
		nodes[n].cap = INFINITY;
		if (cg && !cg_tg_params(r->h, cg, &p)) {
			nodes[n].weight = p.idle ? SCHED_WEIGHT_IDLEPRIO : (double)p.shares;
			if (p.quota_us != CG_QUOTA_MAX && p.period_us)
				nodes[n].cap = (double)p.quota_us / (double)p.period_us;
		}
		n++;
	}
	/*
	 * With autogroup, one hidden group per session under the root, for its root threads, in
	 * the order of their first thread; @ag maps a session to its group's node.
	 */
	int first_ag = n;

	for (size_t i = 0; r->sc->autogroup && i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		int a;

		if (!cg_thread_alive(r->h, t->tid) || cg_thread_tg(r->h, t->tid) != 0 ||
		    util_imap_get(&ag, t->session, &a))
			continue;
		if (util_imap_put(&ag, t->session, n)) {
			e = -ENOMEM;
			goto out;
		}
		nodes[n].parent = 0;
		nodes[n].weight = sched_nice_weight(t->session_nice);
		nodes[n].cap = INFINITY;
		n++;
	}
	nag = n - first_ag;
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		int tg, a;

		if (!cg_thread_alive(r->h, t->tid))
			continue;
		tg = cg_thread_tg(r->h, t->tid);
		nodes[n].parent = node_of[tg];
		if (r->sc->autogroup && tg == 0 && util_imap_get(&ag, t->session, &a))
			nodes[n].parent = a;
		nodes[n].thread = true;
		nodes[n].weight = t->grp->spec.policy == SCHED_THREAD_IDLE
				  ? SCHED_WEIGHT_IDLEPRIO
				  : sched_nice_weight(t->grp->spec.nice);
		nodes[n].demand = demand(t->grp, now, until);
		n++;
	}
	e = ideal_compute(nodes, (size_t)n, r->sc->sched.cpus, share);
	if (e)
		goto out;
	/* thread shares, then each cgroup's as the sum over the threads below it */
	memset(r->cur_cg, 0, (size_t)r->ncg * sizeof(*r->cur_cg));
	for (size_t i = 0; i < r->nt; i++)
		r->cur_share[i] = 0;
	{
		int k = 0;

		for (int cg = 0; cg < maxcg; cg++)
			if (node_of[cg] >= 0)
				k++;
		k += nag;
		for (size_t i = 0; i < r->nt; i++) {
			const struct rthread *t = &r->t[i];

			if (!cg_thread_alive(r->h, t->tid))
				continue;
			r->cur_share[i] = share[k++];
			for (int cg = cg_thread_cgroup(r->h, t->tid); cg >= 0;
			     cg = cg_cgroup_parent(r->h, cg))
				if (cg < r->ncg)
					r->cur_cg[cg] += r->cur_share[i];
		}
	}
out:
	free(nodes);
	free(share);
	free(node_of);
	util_imap_free(&ag);
	return e;
}

static int grow_cg(struct runner *r)
{
	int need = cg_cgroup_max_id(r->h);

	if (need <= r->ncg)
		return 0;
	{
		double *a = realloc(r->ideal_cg, (size_t)need * sizeof(*a));
		double *b;

		if (!a)
			return -ENOMEM;
		r->ideal_cg = a;
		b = realloc(r->cur_cg, (size_t)need * sizeof(*b));
		if (!b)
			return -ENOMEM;
		r->cur_cg = b;
		{
			uint64_t *c = realloc(r->cg_cpu, (size_t)need * sizeof(*c));

			if (!c)
				return -ENOMEM;
			r->cg_cpu = c;
		}
		for (int i = r->ncg; i < need; i++)
			r->ideal_cg[i] = r->cur_cg[i] = 0;
		r->ncg = need;
	}
	return 0;
}

/* Credit the current ideal shares up to @now (within the window). */
static void ideal_accrue(struct runner *r, uint64_t now)
{
	double dt;

	if (now <= r->ideal_from)
		return;
	dt = (double)(now - r->ideal_from);
	for (size_t i = 0; i < r->nt; i++)
		r->t[i].ideal_ns += r->cur_share[i] * dt;
	for (int cg = 0; cg < r->ncg; cg++)
		r->ideal_cg[cg] += r->cur_cg[cg] * dt;
	r->ideal_from = now;
}

/* ---------------- the run ---------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile @q of the sorted @v. */
static uint64_t pct(const uint64_t *v, size_t n, double q)
{
	size_t k;

	if (!n)
		return 0;
	k = (size_t)ceil(q / 100.0 * (double)n);
	return v[k ? k - 1 : 0];
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static int run_op(struct runner *r, struct run_result *res, const struct scn_event *ev)
{
	char *out = NULL, err[512];
	int e = cg_script_line(r->h, r->sc->file, ev->pos.line, ev->op, &out, err, sizeof(err));
	struct run_op *ops;

	if (e == -EINVAL) {
		/* the interpreter's column is within the operation: point at the do: value */
		return fail(r, ev->pos, "timeline operation '%s': %s", ev->op,
			    strstr(err, "error: ") ? strstr(err, "error: ") + 7 : err);
	}
	if (e)
		return fail(r, ev->pos, "out of memory");
	/* what a timeline creates counts against the limits of the whole scenario */
	if (cg_cgroup_max_id(r->h) - 1 > SCN_MAX_CGROUPS) {
		free(out);
		return fail(r, ev->pos, "timeline operation '%s': more than %d cgroups created in "
			    "all (cgroups: entries, the ancestors they create and timeline mkdirs "
			    "count)", ev->op, SCN_MAX_CGROUPS);
	}
	if ((uint64_t)(cg_cgroup_max_id(r->h) - 1) * (uint64_t)r->sc->sched.cpus >
	    SCN_MAX_CGROUP_CPUS) {
		free(out);
		return fail(r, ev->pos, "timeline operation '%s': %d cgroups on %d CPUs: at most %u "
			    "cgroups x CPUs (the scheduler keeps a run queue per cgroup on every CPU)",
			    ev->op, cg_cgroup_max_id(r->h) - 1, r->sc->sched.cpus, SCN_MAX_CGROUP_CPUS);
	}
	if (cg_thread_max_id(r->h) - 1 > SCN_MAX_THREADS) {
		free(out);
		return fail(r, ev->pos, "timeline operation '%s': more than %d threads in all "
			    "(processes: threads and timeline procs count)", ev->op, SCN_MAX_THREADS);
	}
	if (!(res->nops & (res->nops - 1))) {
		/* powers of two: 100,000 operations cost O(n) copies */
		ops = realloc(res->ops, (res->nops ? 2 * res->nops : 1) * sizeof(*ops));
		if (!ops) {
			free(out);
			return fail(r, ev->pos, "out of memory");
		}
		res->ops = ops;
	}
	if (out)
		out[strcspn(out, "\n")] = '\0';
	res->ops[res->nops++] = (struct run_op){ ev->at, out ? out : strdup("") };
	return 0;
}

static int set_sessions(struct runner *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		int e = sim_machine_set_session(r->m, r->t[i].tid, r->t[i].session,
						r->t[i].session_nice);

		if (e)
			return fail(r, r->t[i].proc->pos, "process '%s': cannot set its session (%s)",
				    r->t[i].proc->name, cg_errno_name(-e));
	}
	if (r->sc->autogroup) {
		int e = sim_machine_set_autogroup(r->m, true);

		if (e)
			return fail(r, NOPOS, "autogroup: %s", cg_errno_name(-e));
	}
	return 0;
}

static int set_threads(struct runner *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_spec sp = r->t[i].grp->spec;
		int e;

		if (r->t[i].grp->has_affinity) {
			sp.affinity = r->t[i].grp->affinity;
			sp.affinity_words = SCHED_MAX_CPUS / 64;
		}
		e = sim_machine_set_thread(r->m, r->t[i].tid, &sp);
		if (e)
			return fail(r, r->t[i].grp->pos, "thread '%s/%s.%d' cannot run (%s)",
				    r->t[i].proc->name, r->t[i].grp->name, r->t[i].index,
				    cg_errno_name(-e));
	}
	return 0;
}

static double ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Sample the cumulative CPU of the series items into @row. */
static void sample(struct runner *r, struct run_result *res, uint64_t *row)
{
	size_t k = 0;

	sim_machine_cgroup_cpu_all(r->m, r->cg_cpu, r->ncg);
	for (size_t g = 0; g < res->ngroups; g++)
		row[k++] = res->groups[g].cgroup < r->ncg ? r->cg_cpu[res->groups[g].cgroup] : 0;
	for (size_t i = 0; i < res->series_threads; i++) {
		struct sim_thread_metrics tm;

		row[k++] = sim_machine_thread_metrics(r->m, r->t[i].tid, &tm) ? 0 : tm.cpu_ns;
	}
}

/* The groups reported: every cgroup alive at the start of the window, root first. */
static int list_groups(struct runner *r, struct run_result *res)
{
	int maxcg = cg_cgroup_max_id(r->h);
	char path[1100];

	res->groups = calloc((size_t)maxcg, sizeof(*res->groups));
	if (!res->groups)
		return -ENOMEM;
	for (int cg = 0; cg < maxcg; cg++) {
		struct run_group *g;

		if (!cg_cgroup_alive(r->h, cg))
			continue;
		g = &res->groups[res->ngroups++];
		g->cgroup = cg;
		cg_path(r->h, cg, path, sizeof(path));
		g->path = strdup(path);
		if (!g->path)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The latencies kept for every thread, merged and sorted, as at most 1000 points of their
 * distribution (each thread's kept samples weigh alike; see sim_machine_set_latency_keep()).
 */
static int latency_cdf(struct runner *r, struct run_result *res)
{
	size_t total = 0, k = 0, step;
	uint64_t *all;

	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_metrics tm;

		if (!sim_machine_thread_metrics(r->m, r->t[i].tid, &tm))
			total += tm.nlatency;
	}
	if (!total)
		return 0;
	all = malloc(total * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_metrics tm;

		/* a thread that never ran has no sample array at all: no memcpy from NULL */
		if (!sim_machine_thread_metrics(r->m, r->t[i].tid, &tm) && tm.nlatency) {
			memcpy(all + k, tm.latency, tm.nlatency * sizeof(*all));
			k += tm.nlatency;
		}
	}
	qsort(all, total, sizeof(*all), cmp_u64);
	step = (total + 999) / 1000;
	res->ncdf = (total + step - 1) / step;
	res->cdf_ms = malloc(res->ncdf * sizeof(*res->cdf_ms));
	res->cdf_frac = malloc(res->ncdf * sizeof(*res->cdf_frac));
	if (!res->cdf_ms || !res->cdf_frac) {
		free(all);
		return -ENOMEM;
	}
	for (size_t j = 0; j < res->ncdf; j++) {
		size_t idx = (j + 1) * step - 1 < total ? (j + 1) * step - 1 : total - 1;

		res->cdf_ms[j] = (double)all[idx] / 1e6;
		res->cdf_frac[j] = (double)(idx + 1) / (double)total;
	}
	free(all);
	return 0;
}

static int measure(struct runner *r, struct run_result *res)
{
	const struct scenario *sc = r->sc;
	double cap = (double)sc->sched.cpus * (double)res->measured_ns, sx = 0, sxx = 0;
	struct sim_machine_metrics mm;
	size_t nx = 0;
	char path[1100];

	res->threads = calloc(r->nt ? r->nt : 1, sizeof(*res->threads));
	if (!res->threads)
		return -ENOMEM;
	res->nthreads = r->nt;
	res->max_abs_error = res->max_rel_error = 0;
	for (size_t i = 0; i < r->nt; i++) {
		const struct rthread *t = &r->t[i];
		struct run_thread *o = &res->threads[i];
		struct sim_thread_metrics tm;
		uint64_t *lat = NULL;
		int cg;

		o->tid = t->tid;
		o->process = strdup(t->proc->name);
		o->name = xasprintf("%s.%d", t->grp->name, t->index);
		cg = cg_thread_alive(r->h, t->tid) ? cg_thread_cgroup(r->h, t->tid) : 0;
		cg_path(r->h, cg, path, sizeof(path));
		o->cgroup = strdup(path);
		if (!o->process || !o->name || !o->cgroup)
			return -ENOMEM;
		if (sim_machine_thread_metrics(r->m, t->tid, &tm))
			continue;
		o->cpu_ns = tm.cpu_ns;
		o->wait_ns = tm.wait_ns;
		o->switches = tm.switches;
		o->migrations = tm.migrations;
		o->wakeups = tm.activations;
		o->delayed = tm.latency_delayed;
		o->overruns = tm.overruns;
		if (tm.nlatency) {
			lat = malloc(tm.nlatency * sizeof(*lat));
			if (!lat)
				return -ENOMEM;
			memcpy(lat, tm.latency, tm.nlatency * sizeof(*lat));
			qsort(lat, tm.nlatency, sizeof(*lat), cmp_u64);
			o->lat_p50 = pct(lat, tm.nlatency, 50);
			o->lat_p90 = pct(lat, tm.nlatency, 90);
			o->lat_p99 = pct(lat, tm.nlatency, 99);
			o->lat_max = tm.latency_max;
			free(lat);
		}
		o->share = (double)o->cpu_ns / cap;
		o->ideal = t->ideal_ns / (double)res->measured_ns;
		if (o->ideal > 0) {
			double x = o->share / o->ideal, d = fabs(o->share - o->ideal);

			sx += x;
			sxx += x * x;
			nx++;
			if (d > res->max_abs_error)
				res->max_abs_error = d;
			if (d / o->ideal > res->max_rel_error)
				res->max_rel_error = d / o->ideal;
		}
	}
	if (latency_cdf(r, res))
		return -ENOMEM;
	/* Jain's index over share/ideal: 1 when every thread gets the same fraction of its ideal */
	res->jain = nx && sxx > 0 ? sx * sx / ((double)nx * sxx) : 1;
	sim_machine_cgroup_cpu_all(r->m, r->cg_cpu, r->ncg);
	for (size_t g = 0; g < res->ngroups; g++) {
		struct run_group *o = &res->groups[g];

		o->cpu_ns = o->cgroup < r->ncg ? r->cg_cpu[o->cgroup] : 0;
		o->share = (double)o->cpu_ns / cap;
		o->ideal = o->cgroup < r->ncg ? r->ideal_cg[o->cgroup] / (double)res->measured_ns : 0;
	}
	sim_machine_metrics(r->m, &mm);
	res->overhead_ns = mm.overhead_ns;
	res->level_ops = mm.level_ops;
	res->switches = mm.switches;
	res->migrations = mm.migrations;
	res->events = mm.events;
	return 0;
}

static uint64_t max_events = RUN_MAX_EVENTS;

void run_set_max_events(uint64_t max)
{
	max_events = max;
}

static int over_work_limit(struct runner *r, const char *what)
{
	return fail(r, NOPOS, "%s more than %llu events, the work limit of a run (--max-events N "
		    "raises it)", what, (unsigned long long)max_events);
}

/* The machine stopped: at the work limit, or for a reason of its own. */
static int run_failed(struct runner *r, int e)
{
	char what[96];

	if (e != -E2BIG)
		return fail(r, NOPOS, "run failed (%s)", cg_errno_name(-e));
	snprintf(what, sizeof(what), "stopped at %.6g s of %.6g s simulated: the run needs",
		 (double)sim_machine_now(r->m) / 1e9, (double)r->sc->duration / 1e9);
	return over_work_limit(r, what);
}

/*
 * The ideal shares are computed again at every layout change of the measured window, each
 * time over every thread and cgroup: that work counts against the limit as one event per
 * thread and cgroup, so that it is refused before it starts, and the machine gets the rest.
 */
static int budget_events(struct runner *r)
{
	const struct scenario *sc = r->sc;
	uint64_t changes = 1, per = r->nt + (uint64_t)cg_cgroup_max_id(r->h);

	for (size_t i = 0; i < sc->ntimeline; i++)
		if (sc->timeline[i].at > sc->warmup && sc->timeline[i].at < sc->duration)
			changes++;
	if (max_events && changes > (max_events - 1) / per)	/* changes x per >= max */
		return fail(r, NOPOS, "computing the ideal shares at the start and at each timeline "
			    "operation takes %llu x %llu events of work, and a run may take %llu "
			    "(--max-events N raises the limit)", (unsigned long long)changes,
			    (unsigned long long)per, (unsigned long long)max_events);
	if (r->m)
		sim_machine_set_event_limit(r->m, max_events ? max_events - changes * per : 0);
	return 0;
}

static int simulate(struct runner *r, struct run_result *res, bool timing)
{
	const struct scenario *sc = r->sc;
	uint64_t start = sc->warmup, end = sc->duration, next_sample;
	size_t ev = 0, row = 0, items;
	double t0 = timing ? ns_now() : 0;
	int e;

	/* timeline operations of the warm-up */
	while (ev < sc->ntimeline && sc->timeline[ev].at <= start) {
		if ((e = sim_machine_run_until(r->m, sc->timeline[ev].at)))
			return run_failed(r, e);
		if ((e = run_op(r, res, &sc->timeline[ev])))
			return e == -EINVAL ? e : fail(r, sc->timeline[ev].pos, "run failed (%s)",
						       cg_errno_name(-e));
		ev++;
	}
	if ((e = sim_machine_run_until(r->m, start)))
		return run_failed(r, e);
	sim_machine_reset_metrics(r->m);
	if ((e = list_groups(r, res)) || (e = grow_cg(r)))
		return fail(r, NOPOS, "out of memory");
	/* the time series: shrink to what memory allows */
	res->interval = sc->interval;
	res->series_threads = r->nt <= SERIES_MAX_THREADS ? r->nt : 0;
	items = res->ngroups + res->series_threads;
	while ((end - start) / res->interval * items > SERIES_MAX_CELLS)
		res->interval *= 2;
	res->nsamples = (size_t)((end - start) / res->interval);
	res->series = calloc(res->nsamples * items + 1, sizeof(*res->series));
	if (!res->series)
		return fail(r, NOPOS, "out of memory");
	r->ideal_from = start;
	e = ideal_now(r, start, ev < sc->ntimeline && sc->timeline[ev].at < end
				? sc->timeline[ev].at : end);
	next_sample = start + res->interval;
	while (!e) {
		uint64_t next_ev = ev < sc->ntimeline ? sc->timeline[ev].at : UINT64_MAX;
		uint64_t t = next_sample < next_ev ? next_sample : next_ev;

		if (t > end)
			t = end;
		if ((e = sim_machine_run_until(r->m, t)))
			return run_failed(r, e);
		if (t == next_sample && row < res->nsamples) {
			sample(r, res, &res->series[row * items]);
			row++;
			next_sample += res->interval;
		}
		if (t == next_ev && t < end) {
			ideal_accrue(r, t);
			if ((e = run_op(r, res, &sc->timeline[ev])))
				return e;
			ev++;
			if ((e = grow_cg(r)))
				break;
			e = ideal_now(r, t, ev < sc->ntimeline && sc->timeline[ev].at < end
					       ? sc->timeline[ev].at : end);
			continue;
		}
		if (t == end)
			break;
	}
	if (e)
		return fail(r, NOPOS, "ideal shares: %s", cg_errno_name(-e));
	ideal_accrue(r, end);
	/* operations after the end are not run */
	res->measured_ns = end - start;
	/* turn cumulative samples into per-interval CPU */
	for (size_t k = res->nsamples; k-- > 1;)
		for (size_t j = 0; j < items; j++)
			res->series[k * items + j] -= res->series[(k - 1) * items + j];
	if (timing)
		res->wall_ns = (uint64_t)(ns_now() - t0);
	return measure(r, res) ? fail(r, NOPOS, "out of memory") : 0;
}

/* Free what the run held; hand over @res or free it with a message for -ENOMEM. */
static int runner_end(struct runner *r, struct run_result *res, int e, struct run_result **out)
{
	sim_machine_free(r->m);
	cg_hier_free(r->h);
	free(r->t);
	free(r->ideal_cg);
	free(r->cur_share);
	free(r->cur_cg);
	free(r->cg_cpu);
	if (e) {
		if (e == -ENOMEM && r->errlen && !r->err[0])
			snprintf(r->err, r->errlen, "cgsim: out of memory");
		run_free(res);
		return e;
	}
	*out = res;
	return 0;
}

/*
 * Run every timeline operation against a scratch copy of the layout, in order, so that a
 * malformed one is a load error whenever it would come (even after the end of the run).
 */
static int validate_timeline(const struct scenario *sc, char *err, size_t errlen)
{
	struct runner v = { .sc = sc, .err = err, .errlen = errlen };
	struct run_result scratch = { .sc = sc };
	int e = 0;

	if (!sc->ntimeline)
		return 0;
	v.h = cg_hier_new(sc->semantics);
	if (!v.h || cg_set_nr_cpus(v.h, sc->sched.cpus)) {
		cg_hier_free(v.h);
		return -ENOMEM;
	}
	/* a layout error is reported by the real run, after this */
	if (apply_layout(&v) || add_processes(&v)) {
		if (errlen)
			err[0] = '\0';
		goto out;
	}
	for (size_t i = 0; i < sc->ntimeline && !e; i++)
		e = run_op(&v, &scratch, &sc->timeline[i]);
out:
	for (size_t i = 0; i < scratch.nops; i++)
		free(scratch.ops[i].result);
	free(scratch.ops);
	cg_hier_free(v.h);
	free(v.t);
	return e;
}

int run_scenario(const struct scenario *sc, bool timing, struct run_result **out, char *err,
		 size_t errlen)
{
	struct runner r = { .sc = sc, .err = err, .errlen = errlen };
	struct run_result *res = calloc(1, sizeof(*res));
	int e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!res)
		return -ENOMEM;
	res->sc = sc;
	res->cpus = sc->sched.cpus;
	r.h = cg_hier_new(sc->semantics);
	if (!r.h || cg_set_nr_cpus(r.h, sc->sched.cpus)) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = apply_layout(&r)) || (e = add_processes(&r)) ||
	    (e = validate_timeline(sc, err, errlen)))
		goto out;
	{
		int me = 0;

		r.m = sim_machine_new(&sc->sched, r.h, sc->seed, &me);
		if (!r.m) {
			e = fail(&r, NOPOS, "cannot start the machine (%s)",
				 cg_errno_name(-me));
			goto out;
		}
		{
			struct sim_wakeup_noise nz = {
				.timer = sc->timer_latency,
				.idle_exit = sc->idle_exit,
				.tick_phase = sc->sched.jitter && !sc->clock_phase_set,
				.phase_ns = sc->clock_phase,
			};

			if ((me = sim_machine_set_noise(r.m, &nz))) {
				e = fail(&r, NOPOS, "cannot start the machine (%s)",
					 cg_errno_name(-me));
				goto out;
			}
		}
		/* 64 MiB of latency samples in all at most, 256 per thread at least */
		sim_machine_set_latency_keep(r.m, r.nt ? (8u << 20) / r.nt > 256
						       ? (8u << 20) / r.nt : 256 : 256);
	}
	r.cur_share = calloc(r.nt ? r.nt : 1, sizeof(*r.cur_share));
	if (!r.cur_share) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = budget_events(&r)) || (e = grow_cg(&r)) || (e = set_sessions(&r)) ||
	    (e = set_threads(&r)) || (e = simulate(&r, res, timing)))
		goto out;
out:
	return runner_end(&r, res, e, out);
}

int run_ideal(const struct scenario *sc, struct run_result **out, char *err, size_t errlen)
{
	struct runner r = { .sc = sc, .err = err, .errlen = errlen };
	struct run_result *res = calloc(1, sizeof(*res));
	char path[1100];
	int e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!res)
		return -ENOMEM;
	res->sc = sc;
	res->cpus = sc->sched.cpus;
	res->measured_ns = sc->duration - sc->warmup;
	r.h = cg_hier_new(sc->semantics);
	if (!r.h || cg_set_nr_cpus(r.h, sc->sched.cpus)) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = apply_layout(&r)) || (e = add_processes(&r)) ||
	    (e = validate_timeline(sc, err, errlen)))
		goto out;
	r.cur_share = calloc(r.nt ? r.nt : 1, sizeof(*r.cur_share));
	res->threads = calloc(r.nt ? r.nt : 1, sizeof(*res->threads));
	if (!r.cur_share || !res->threads || (e = grow_cg(&r)) || (e = list_groups(&r, res))) {
		e = -ENOMEM;
		goto out;
	}
	r.ideal_from = sc->warmup;
	if ((e = ideal_now(&r, sc->warmup, sc->duration)))
		goto out;
	ideal_accrue(&r, sc->duration);
	res->nthreads = r.nt;
	for (size_t i = 0; i < r.nt; i++) {
		struct run_thread *o = &res->threads[i];

		o->tid = r.t[i].tid;
		o->process = strdup(r.t[i].proc->name);
		o->name = xasprintf("%s.%d", r.t[i].grp->name, r.t[i].index);
		cg_path(r.h, cg_thread_cgroup(r.h, o->tid), path, sizeof(path));
		o->cgroup = strdup(path);
		if (!o->process || !o->name || !o->cgroup) {
			e = -ENOMEM;
			goto out;
		}
		o->ideal = r.t[i].ideal_ns / (double)res->measured_ns;
	}
	for (size_t g = 0; g < res->ngroups; g++)
		res->groups[g].ideal = r.ideal_cg[res->groups[g].cgroup] / (double)res->measured_ns;
out:
	return runner_end(&r, res, e, out);
}

void run_free(struct run_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->nthreads; i++) {
		free(res->threads[i].process);
		free(res->threads[i].name);
		free(res->threads[i].cgroup);
	}
	free(res->threads);
	for (size_t i = 0; i < res->ngroups; i++)
		free(res->groups[i].path);
	free(res->groups);
	for (size_t i = 0; i < res->nops; i++)
		free(res->ops[i].result);
	free(res->ops);
	free(res->series);
	free(res->cdf_ms);
	free(res->cdf_frac);
	free(res);
}
