// SPDX-License-Identifier: MIT
/*
 * sim/run/run_layout.c - the layout of a run on the cgroup model (sim/run/run_internal.h):
 * cgroups made and written with the kernel's refusals explained, processes placed, every
 * cgroup and thread created counted against the limits.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/run_internal.h"
#include "sim/util/util.h"

int run__fail(struct runner *r, struct scn_pos pos, const char *fmt, ...)
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

/*
 * The cgroup model's refusal @e of the last operation, said with the rule that refused it:
 * "WHAT: RULE (ERRNO, rule ID)".
 */
static int refused(struct runner *r, struct scn_pos pos, const char *what, int e)
{
	enum cg_rule rule = cg_refusal(r->h);

	if (e == -ENOMEM)
		return run__fail(r, pos, "out of memory");
	return run__fail(r, pos, "%s: %s (%s, rule %s)", what, cg_rule_text(rule),
			 cg_errno_name(-e), cg_rule_id(rule));
}

static int write_file(struct runner *r, const char *path, const char *file, const char *value,
		      struct scn_pos pos, const char *what)
{
	char full[1200];
	int e;

	snprintf(full, sizeof(full), "%s%s%s", path, *path ? "/" : "", file);
	e = cg_write(r->h, full, value);
	if (e == -ENOENT && cg_refusal(r->h) == CG_RULE_NO_SUCH_FILE &&
	    cg_file_suggest(r->sc->semantics, file))
		return run__fail(r, pos, "%s: no interface file '%s' in the %s rule set; did you "
				 "mean '%s'? (ENOENT, rule %s)", what, file,
				 cg_semantics_name(r->sc->semantics),
				 cg_file_suggest(r->sc->semantics, file),
				 cg_rule_id(CG_RULE_NO_SUCH_FILE));
	return e ? refused(r, pos, what, e) : 0;
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
		return run__fail(r, pos, "more than %d cgroups created in all (cgroups: entries, the "
				 "ancestors they create and timeline mkdirs count)", SCN_MAX_CGROUPS);
	if ((made + 1) * (uint64_t)r->sc->sched.machine.cpus > SCN_MAX_CGROUP_CPUS)
		return run__fail(r, pos, "%llu cgroups on %d CPUs: at most %u cgroups x CPUs (the "
				 "scheduler keeps a run queue per cgroup on every CPU)",
				 (unsigned long long)made + 1, r->sc->sched.machine.cpus, SCN_MAX_CGROUP_CPUS);
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
		if (e) {
			char what[1200];

			snprintf(what, sizeof(what), "cannot create cgroup '%s'", part);
			return refused(r, pos, what, e);
		}
	}
	return 0;
}

int run__apply_layout(struct runner *r)
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

/* ---- random streams keyed by name ---- */

/* FNV-1a, 32 bits, of @s continued from @h. */
static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The hash of the thread's name as the reports write it: "PROCESS/THREADS.N". */
static uint32_t name_hash(const struct rthread *t)
{
	char num[24];

	snprintf(num, sizeof(num), ".%d", t->index);
	return fnv1a(fnv1a(fnv1a(fnv1a(2166136261u, t->proc->name), "/"), t->grp->name), num);
}

struct stream_key {
	uint32_t hash;
	struct rthread *t;
};

/* By hash, then by name (process, thread entry, number): an order of the names alone. */
static int stream_key_cmp(const void *a, const void *b)
{
	const struct stream_key *x = a, *y = b;
	int c;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if ((c = strcmp(x->t->proc->name, y->t->proc->name)) ||
	    (c = strcmp(x->t->grp->name, y->t->grp->name)))
		return c;
	return (x->t->index > y->t->index) - (x->t->index < y->t->index);
}

static int stream_int(uint32_t v)
{
	int k;

	memcpy(&k, &v, sizeof(k));	/* any bijection of the 32 bits will do as a map key */
	return k;
}

/*
 * Each thread's stream index is the hash of its name, so that what a thread draws depends on
 * its name and the seed only: not on its tid, which every process declared before it shifts.
 * Two names of one scenario never share a stream: where hashes collide, the name that sorts
 * first keeps the hash and the others take the next indices no name hashes to and none has
 * taken. A collision is rare (about n^2 / 2^33 for n threads), and only then can another
 * thread's arrival move a stream.
 */
static int assign_streams(struct runner *r)
{
	struct stream_key *k = malloc((r->nt ? r->nt : 1) * sizeof(*k));
	struct util_imap used = { 0 };
	int e = 0, dummy;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < r->nt; i++)
		k[i] = (struct stream_key){ name_hash(&r->t[i]), &r->t[i] };
	qsort(k, r->nt, sizeof(*k), stream_key_cmp);
	for (size_t i = 0; i < r->nt && !e; i++)
		if (!i || k[i].hash != k[i - 1].hash) {
			k[i].t->stream = k[i].hash;
			e = util_imap_put(&used, stream_int(k[i].hash), 1);
		}
	for (size_t i = 1; i < r->nt && !e; i++) {
		uint32_t s = k[i].hash;

		if (s != k[i - 1].hash)
			continue;
		while (util_imap_get(&used, stream_int(s), &dummy))
			s++;
		k[i].t->stream = s;
		e = util_imap_put(&used, stream_int(s), 1);
	}
	util_imap_free(&used);
	free(k);
	return e;
}

int run__add_processes(struct runner *r)
{
	const struct scenario *sc = r->sc;
	size_t k = 0;

	r->t = calloc((size_t)sc->total_threads ? (size_t)sc->total_threads : 1, sizeof(*r->t));
	if (!r->t)
		return run__fail(r, NOPOS, "out of memory");
	for (size_t i = 0; i < sc->nprocs; i++) {
		const struct scn_process *p = &sc->procs[i];
		int total = 0, pid, e;
		char num[24], what[256];

		for (size_t j = 0; j < p->nthreads; j++)
			total += p->threads[j].count;
		pid = cg_proc_new(r->h, p->name, total);
		if (pid == -EEXIST)
			return run__fail(r, p->pos, "process '%s' exists already (a timeline 'proc'?)",
					 p->name);
		if (pid < 0) {
			snprintf(what, sizeof(what), "cannot create process '%s'", p->name);
			return refused(r, p->pos, what, pid);
		}
		if (*p->cgroup) {
			snprintf(num, sizeof(num), "%d", pid);
			snprintf(what, sizeof(what), "cannot place process '%s' in '%s'", p->name,
				 p->cgroup);
			if (cg_lookup(r->h, p->cgroup) < 0)
				return run__fail(r, p->cgroup_pos, "%s: no such cgroup (declare it under "
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
					return run__fail(r, g->cgroup_pos, "%s: no such cgroup (declare it "
							 "under cgroups:)", what);
				/* v1 moves one thread through tasks; it has no cgroup.threads */
				e = write_file(r, g->cgroup, sc->semantics == CG_SEM_V1 ? "tasks"
							     : "cgroup.threads", num, g->cgroup_pos,
					       what);
				if (e)
					return e;
			}
		}
	}
	r->nt = k;
	assign_sessions(r);
	return assign_streams(r) ? run__fail(r, NOPOS, "out of memory") : 0;
}
