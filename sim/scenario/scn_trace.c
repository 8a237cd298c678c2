// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_trace.c - a process whose threads come from a scheduler trace
 * (processes.NAME.trace; docs/replay.md, "Replaying a trace").
 *
 * The trace is read as trace-stats reads it (sim/replay/), recording each thread's bursts and
 * sleeps. Each selected thread becomes a thread group of one, NAME_PID.1 (its comm with the
 * characters a name may not hold made '_'), whose behaviour is its recorded life as steps run
 * once: run each burst's CPU time (divided by `speed`), sleep each recorded sleep, from the
 * time its life began in the trace (relative to the trace's first event); a burst still under
 * way at the trace's end stays runnable for the wall time it was. Its nice is the one its
 * recorded priority says. Threads that are not selected are dropped; a note says how many
 * and how much CPU time they had in the trace. `select: { rest: true }` takes what no process
 * above took from the same trace: each load keeps their selections (struct rd's tsel).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/replay/tread.h"
#include "sim/replay/tstats.h"
#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"

/* What `select:` asks for: every key given must match; or the rest of the trace. */
struct selection {
	struct scn_trace_sel k;	/* comm (a glob for fnmatch), tgid, pid */
	bool rest;		/* what no earlier process took from the same trace */
};

static bool matches(const struct scn_trace_sel *k, const struct tstats_thread *t)
{
	return (!k->comm || !fnmatch(k->comm, t->comm, 0)) && (k->tgid < 0 || t->tgid == k->tgid) &&
	       (k->pid < 0 || t->pid == k->pid);
}

static bool selected(const struct rd *r, const struct selection *s, const char *trace,
		     const struct tstats_thread *t)
{
	if (!s->rest)
		return matches(&s->k, t);
	for (size_t i = 0; i < r->ntsel; i++)
		if (!strcmp(r->tsel[i].trace, trace) && matches(&r->tsel[i], t))
			return false;
	return true;
}

static bool read_selection(struct rd *r, const struct yn *n, struct selection *s)
{
	static const char *const keys[] = { "comm", "tgid", "pid", "rest", NULL };
	const struct yn *v;

	*s = (struct selection){ { NULL, NULL, -1, -1 }, false };
	if (!n)
		return true;
	if (!scn__want(r, n, YN_MAP, "select") || !scn__known_keys(r, n, keys, "select"))
		return false;
	if (!n->n)
		return scn__bad(r, n, "select needs comm, tgid, pid or rest");
	if ((v = yn_get(n, "rest"))) {
		if (!scn__parse_bool(r, v, "select.rest", &s->rest))
			return false;
		if (s->rest && n->n > 1)
			return scn__bad(r, v, "select.rest goes alone: the rest is what the "
					"processes above took from the trace");
		if (!s->rest)
			return scn__bad(r, v, "select.rest can only be true");
	}
	if ((v = yn_get(n, "comm"))) {
		if (!scn__scalar(r, v, "select.comm"))
			return false;
		s->k.comm = v->str;
	}
	if ((v = yn_get(n, "tgid")) && !scn__parse_int(r, v, "select.tgid", 1, INT32_MAX, &s->k.tgid))
		return false;
	if ((v = yn_get(n, "pid")) && !scn__parse_int(r, v, "select.pid", 1, INT32_MAX, &s->k.pid))
		return false;
	return true;
}

/* The trace's path: as written when absolute, else next to the scenario file. */
static char *trace_path(const char *scenario, const char *path)
{
	const char *slash = strrchr(scenario, '/');

	if (path[0] == '/' || !slash)
		return strdup(path);
	return util_asprintf("%.*s/%s", (int)(slash - scenario), scenario, path);
}

/* A chained process, waiting for every process to be read before its steps are made. */
struct chain_proc {
	struct scn_process *p;
	const struct tstats *st;	/* its trace, recorded (the load's cache's) */
	const char *trace;	/* as written (the YAML tree's) */
	size_t *from;		/* per thread group: its thread's index in @st */
	const struct yn *node;	/* the trace key, for messages */
	double speed;
	bool absolute;		/* sleeps: absolute */
	bool done;		/* its steps are made */
};

/*
 * A trace read once for the source, whichever processes of whichever of its loads take
 * threads from it: the recording is only read once made.
 */
struct cached_trace {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct tstats *st;	/* recorded */
	bool flags;		/* it has latency flags */
};

/* What the load's trace processes share until it ends (scn__trace_free()). */
struct scn_chain {
	struct chain_proc *procs;
	size_t n, cap;
	/* during the link: the replayed threads of one trace, by pid * 64 + life */
	struct util_imap by_key;
	char **names;		/* PROCESS/NAME.1 of each, by the map's values */
	size_t nnames, capnames;
};

/* The traces of a source (struct rd's @traces). */
struct scn_traces {
	struct cached_trace *cache;
	size_t ncache, capcache;
};

void scn__traces_free(struct scn_traces *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncache; i++)
		tstats_free(t->cache[i].st);
	free(t->cache);
	free(t);
}

static struct scn_traces *traces_of(struct rd *r)
{
	if (r->traces && !*r->traces)
		*r->traces = calloc(1, sizeof(**r->traces));
	return r->traces ? *r->traces : NULL;
}

static struct scn_chain *chain_of(struct rd *r)
{
	if (!r->chain)
		r->chain = calloc(1, sizeof(*r->chain));
	return r->chain;
}

/*
 * The trace at @path, recorded, into *@out: read once for the source, the same file (device,
 * inode, size and modification time) given again is the same; false with the message said at
 * @n. Chained, the trace must say which wakeups came from interrupts: without its flags (perf
 * script prints none, nor trace-cmd report without -l) a timer's wakeup looks like the
 * interrupted task's.
 */
static bool read_trace(struct rd *r, const struct yn *n, const char *path, bool chained,
		       const struct tstats **out)
{
	/* without blocking: a FIFO named as a trace must not hang the load */
	int fd = open(path, O_RDONLY | O_NONBLOCK), rc, e = 0;
	struct scn_traces *c = traces_of(r);
	struct cached_trace *ct = NULL;
	struct tstats *st = NULL;
	struct tread_event ev;
	struct tread *tr;
	struct stat sb;
	char err[1024];
	bool flags;
	FILE *f;

	if (fd < 0)
		return scn__bad(r, n, "cannot open trace '%s': %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return scn__bad(r, n, "trace '%s' is not a regular file", path);
	}
	for (size_t i = 0; c && i < c->ncache; i++)
		if (c->cache[i].dev == sb.st_dev && c->cache[i].ino == sb.st_ino &&
		    c->cache[i].size == sb.st_size &&
		    c->cache[i].mtime.tv_sec == sb.st_mtim.tv_sec &&
		    c->cache[i].mtime.tv_nsec == sb.st_mtim.tv_nsec)
			ct = &c->cache[i];
	if (ct) {
		close(fd);
		flags = ct->flags;
		goto got;
	}
	if (!c || UTIL_GROW(c->cache, c->capcache, c->ncache + 1) || !(st = tstats_new()) ||
	    !(f = fdopen(fd, "r"))) {
		tstats_free(st);
		close(fd);
		return scn__bad(r, n, "out of memory");
	}
	if (!(tr = tread_open(f, path))) {
		tstats_free(st);
		fclose(f);
		return scn__bad(r, n, "out of memory");
	}
	tstats_record(st);
	while ((rc = tread_next(tr, &ev, err, sizeof(err))) > 0 && !(e = tstats_add(st, &ev)))
		;
	if (!rc && !e)
		e = tstats_finish(st);
	flags = tread_counts(tr)->flags;
	tread_close(tr);
	fclose(f);
	if (rc < 0 || e) {
		char *e2 = strstr(err, ": error: ");	/* one "error:" in the message, ours */

		tstats_free(st);
		if (rc < 0) {
			if (e2)
				memmove(e2 + 2, e2 + 9, strlen(e2 + 9) + 1);
			return scn__bad(r, n, "cannot read the trace: %s", err);
		}
		if (e == -EINVAL)
			return scn__bad(r, n, "trace '%s': a CPU beyond %d", path, TSTATS_MAX_CPUS);
		if (e == -E2BIG)
			return scn__bad(r, n, "trace '%s' holds more than %u bursts and sleeps", path,
					TSTATS_MAX_STEPS);
		return scn__bad(r, n, "out of memory");
	}
	ct = &c->cache[c->ncache++];
	*ct = (struct cached_trace){ sb.st_dev, sb.st_ino, sb.st_size, sb.st_mtim, st, flags };
got:
	if (chained && !flags)
		return scn__bad(r, n, "mode chained needs a trace with latency flags, which tell a "
				"timer's wakeup from a thread's ('%s' has none: record the kernel's trace "
				"file, or trace-cmd report -l)", path);
	*out = ct->st;
	return true;
}

/* The group name of @t: its comm made a name, then _PID (and _LIFE for a reused pid). */
static char *group_name(const struct tstats_thread *t)
{
	char comm[TREAD_COMM];
	size_t i;

	for (i = 0; t->comm[i]; i++) {
		char c = t->comm[i];

		comm[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				  c == '-' ? c : '_';
	}
	comm[i] = '\0';
	if (t->life)
		return util_asprintf("%s_%d_%u", i ? comm : "t", (int)t->pid, t->life);
	return util_asprintf("%s_%d", i ? comm : "t", (int)t->pid);
}

/* What a group of one replaying @t is, but for its steps. */
static bool init_group(struct rd *r, const struct yn *n, struct scn_threads *g,
		       const struct tstats_thread *t, uint64_t first)
{
	if (!(g->name = group_name(t)) || !(g->phases = calloc(t->nsteps, sizeof(*g->phases))))
		return scn__bad(r, n, "out of memory");
	g->count = 1;
	g->capsteps = t->nsteps;
	g->spec.behavior.kind = SIM_BEHAV_PHASES;
	g->spec.behavior.phases = g->phases;
	g->spec.behavior.loops = 1;
	g->spec.behavior.life_ns = t->last_ns > t->start_ns ? t->last_ns - t->start_ns : 1;
	g->spec.start_ns = t->start_ns > first ? t->start_ns - first : 0;
	if (t->prio >= 120 + SCHED_NICE_MIN && t->prio <= 120 + SCHED_NICE_MAX)	/* normal prio */
		g->spec.nice = t->prio - 120;
	g->pos = scn__pos_of(n);
	return true;
}

/*
 * The steps of @t into @g (made by init_group()): each burst's CPU time divided by @speed, each
 * sleep as long as recorded or, @absolute, until when it ended in the recording (at once if
 * that is past); chained (@link non-NULL), a sleep that a replayed thread ended waits for
 * it (suspend) and that thread wakes it where it did (a post, kept if it comes first). @link
 * gives the replayed thread of a (pid, life), or NULL. A burst still under way when the trace
 * ended wanted more than it got, which was the recorded layout's doing: it stays runnable for
 * the wall time it was, from its wakeup to the trace's end, whatever CPU time that brings.
 */
static bool fill_steps(struct rd *r, const struct yn *n, struct scn_threads *g,
		       const struct tstats_thread *t, double speed, bool absolute,
		       const char *(*link)(void *ctx, int32_t pid, uint32_t life), void *ctx)
{
	size_t m = 0;

	if (link && (!(g->resume = calloc(t->nsteps, sizeof(*g->resume))) ||
		     !(g->step_pos = calloc(t->nsteps, sizeof(*g->step_pos)))))
		return scn__bad(r, n, "out of memory");
	for (size_t k = 0; k < t->nsteps; k++) {
		const struct tstats_step *s = &t->steps[k];
		const char *other = link && s->pid > 0 ? link(ctx, s->pid, s->life) : NULL;
		struct sim_phase *ph = &g->phases[m];

		if (s->kind == TSTATS_WAKE && !other)
			continue;
		if (link)
			g->step_pos[m] = scn__pos_of(n);
		if (s->kind == TSTATS_RUN) {
			double ns = round((double)s->ns / speed);

			*ph = (struct sim_phase){ .kind = SIM_STEP_RUN,
						  .d = { SIM_DIST_FIXED, ns < 1 ? 1 : ns, 0 } };
		} else if (s->kind == TSTATS_SLEEP && !other) {
			*ph = (struct sim_phase){ .kind = SIM_STEP_SLEEP,
						  .d = { SIM_DIST_FIXED, (double)s->ns, 0 },
						  .flags = SIM_SLEEP_RECORDED };
			if (absolute) {		/* until when it ended, from the thread's start */
				ph->flags |= SIM_SLEEP_UNTIL;
				ph->ns = s->at > t->start_ns ? s->at - t->start_ns : 0;
			}
		} else if (s->kind == TSTATS_SLEEP) {
			*ph = (struct sim_phase){ .kind = SIM_STEP_SUSPEND };
		} else {
			*ph = (struct sim_phase){ .kind = SIM_STEP_RESUME, .count = 1 };
			if (!(g->resume[m] = strdup(other)))
				return scn__bad(r, n, "out of memory");
		}
		m++;
	}
	if (m && t->open_end && g->phases[m - 1].kind == SIM_STEP_RUN)
		g->phases[m - 1] = (struct sim_phase){
			.kind = SIM_STEP_RUNTIME,
			.d = { SIM_DIST_FIXED, t->open_wall_ns ? (double)t->open_wall_ns : 1, 0 } };
	if (!m)		/* nothing but wakeups of threads not replayed: a sleep of nothing */
		g->phases[m++] = (struct sim_phase){ .kind = SIM_STEP_SLEEP,
						     .d = { SIM_DIST_FIXED, 1, 0 } };
	g->spec.behavior.nphases = m;
	for (size_t k = 0; absolute && k < m; k++)	/* its demand, for ideal shares */
		if (g->phases[k].kind == SIM_STEP_RUN || g->phases[k].kind == SIM_STEP_RUNTIME)
			g->spec.behavior.life_cpu_ns += (uint64_t)g->phases[k].d.a;
	return true;
}

static bool read_speed(struct rd *r, const struct yn *v, double *speed)
{
	char *end;

	*speed = 1;
	if (!v)
		return true;
	if (!scn__scalar(r, v, "speed"))
		return false;
	*speed = strtod(v->str, &end);
	if (end == v->str || *end || !isfinite(*speed) || *speed < 0.01 || *speed > 100)
		return scn__bad(r, v, "speed must be a number from 0.01 to 100, not '%s'", v->str);
	return true;
}

/*
 * A key with two values, @off (the default, also when the key is absent) and @on: mode
 * (timed, chained), sleeps (relative, absolute).
 */
static bool read_choice(struct rd *r, const struct yn *v, const char *key, const char *off,
			const char *on, bool *out)
{
	*out = false;
	if (!v)
		return true;
	if (!scn__scalar(r, v, key))
		return false;
	if (!strcmp(v->str, on))
		*out = true;
	else if (strcmp(v->str, off))
		return scn__bad(r, v, "%s must be %s or %s, not '%s'", key, off, on, v->str);
	return true;
}

static int key_of(int32_t pid, uint32_t life)
{
	return pid * 64 + (int)(life < 63 ? life : 63);
}

/* The replayed thread of (@pid, @life) in the trace being linked, or NULL. */
static const char *linked(void *ctx, int32_t pid, uint32_t life)
{
	struct scn_chain *c = ctx;
	int i;

	if (pid <= 0 || pid >= (1 << 24) || !util_imap_get(&c->by_key, key_of(pid, life), &i))
		return NULL;
	return c->names[i];
}

void scn__trace_free(struct rd *r)
{
	struct scn_chain *c = r->chain;

	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->procs[i].from);
	free(c->procs);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	util_imap_free(&c->by_key);
	free(c);
	r->chain = NULL;
}

/*
 * Every process is read: the chained ones get their steps, linked to the threads of the
 * chained processes of the same trace. One trace at a time: the map holds its threads.
 */
bool scn__trace_link(struct rd *r)
{
	struct scn_chain *c = r->chain;
	bool ok = true;

	for (size_t i = 0; c && ok && i < c->n; i++) {
		if (c->procs[i].done)
			continue;	/* linked with an earlier one of the same trace */
		util_imap_free(&c->by_key);
		for (size_t k = 0; k < c->nnames; k++)
			free(c->names[k]);
		c->nnames = 0;
		for (size_t j = i; ok && j < c->n; j++) {
			struct chain_proc *cp = &c->procs[j];

			if (cp->done || strcmp(cp->trace, c->procs[i].trace))
				continue;
			for (size_t g = 0; ok && g < cp->p->nthreads; g++) {
				const struct tstats_thread *t = tstats_thread(cp->st, cp->from[g]);
				char *name = util_asprintf("%s/%s.1", cp->p->name, cp->p->threads[g].name);

				ok = name && t->pid < (1 << 24) &&
				     !UTIL_GROW(c->names, c->capnames, c->nnames + 1) &&
				     !util_imap_put(&c->by_key, key_of(t->pid, t->life), (int)c->nnames);
				if (ok)
					c->names[c->nnames++] = name;
				else
					free(name);
			}
		}
		if (!ok)
			return scn__bad(r, c->procs[i].node, "out of memory");
		for (size_t j = i; ok && j < c->n; j++) {
			struct chain_proc *cp = &c->procs[j];

			if (cp->done || strcmp(cp->trace, c->procs[i].trace))
				continue;
			for (size_t g = 0; ok && g < cp->p->nthreads; g++)
				ok = fill_steps(r, cp->node, &cp->p->threads[g],
						tstats_thread(cp->st, cp->from[g]), cp->speed,
						cp->absolute, linked, c);
			if (j > i)	/* the outer loop skips it */
				cp->done = true;
		}
		c->procs[i].done = true;
	}
	scn__trace_free(r);
	return ok;
}

/* Keep @st for the link: the process's groups are made, their steps not yet. */
static bool defer(struct rd *r, const struct yn *tn, struct scn_process *p,
		  const struct tstats *st, size_t *from, double speed, bool absolute)
{
	struct scn_chain *c = chain_of(r);

	if (!c || UTIL_GROW(c->procs, c->cap, c->n + 1))
		return scn__bad(r, tn, "out of memory");
	c->procs[c->n++] = (struct chain_proc){ p, st, tn->str, from, tn, speed, absolute, false };
	return true;
}

/* A note for the report: what was taken from the trace and what was dropped. */
static bool note(struct rd *r, const struct yn *n, const char *text)
{
	struct scenario *sc = r->sc;
	char **grown = realloc(sc->notes, (sc->nnotes + 1) * sizeof(*grown));

	if (!grown)
		return scn__bad(r, n, "out of memory");
	sc->notes = grown;
	if (!(sc->notes[sc->nnotes] = strdup(text)))
		return scn__bad(r, n, "out of memory");
	sc->nnotes++;
	return true;
}

/* A trace process's keys but the trace itself: select, speed, mode, sleeps. */
struct trace_opts {
	struct selection sel;
	double speed;
	bool chained;		/* mode: chained */
	bool absolute;		/* sleeps: absolute */
};

/* The keys of @body that say how its trace is replayed, each at its default when absent. */
static bool read_opts(struct rd *r, const struct yn *body, struct trace_opts *o)
{
	return read_selection(r, yn_get(body, "select"), &o->sel) &&
	       read_speed(r, yn_get(body, "speed"), &o->speed) &&
	       read_choice(r, yn_get(body, "mode"), "mode", "timed", "chained", &o->chained) &&
	       read_choice(r, yn_get(body, "sleeps"), "sleeps", "relative", "absolute",
			   &o->absolute);
}

/* What a selection takes from a trace and what it leaves, for the note. */
struct tally {
	size_t ntaken, ndropped;
	uint64_t taken_cpu, dropped_cpu;	/* their CPU time in the trace, ns */
};

/*
 * The threads of @st that @sel takes and those it drops, counted with their CPU time. A
 * thread with neither CPU time nor sleeps is neither: there is nothing of it to replay.
 */
static struct tally count_selected(const struct rd *r, const struct selection *sel,
				   const char *trace, const struct tstats *st)
{
	struct tally tl = { 0, 0, 0, 0 };
	size_t n = tstats_nthreads(st);

	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = tstats_thread(st, i);

		if (!t->nsteps)
			continue;	/* no CPU time and no sleep: nothing to replay */
		if (selected(r, sel, trace, t)) {
			tl.ntaken++;
			tl.taken_cpu += t->cpu_ns;
		} else {
			tl.ndropped++;
			tl.dropped_cpu += t->cpu_ns;
		}
	}
	return tl;
}

/*
 * A group of one in @p for each of the @ntaken threads of @st that @o->sel takes, in the
 * trace's order, and into *@from each group's thread's index in @st (the caller frees it).
 * Timed, each gets its steps now; chained, at the link. On failure what was made stays in @p,
 * freed with the scenario like any process's threads.
 */
static bool make_groups(struct rd *r, const struct yn *tn, const struct trace_opts *o,
			const struct tstats *st, size_t ntaken, struct scn_process *p,
			size_t **from)
{
	size_t n = tstats_nthreads(st);

	if (!(p->threads = calloc(ntaken, sizeof(*p->threads))) ||
	    !(*from = calloc(ntaken, sizeof(**from))))
		return scn__bad(r, tn, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = tstats_thread(st, i);
		struct scn_threads *g = &p->threads[p->nthreads];

		if (!t->nsteps || !selected(r, &o->sel, tn->str, t))
			continue;
		(*from)[p->nthreads++] = i;
		if (!init_group(r, tn, g, t, tstats_first(st)) ||
		    (!o->chained && !fill_steps(r, tn, g, t, o->speed, o->absolute, NULL, NULL)))
			return false;
	}
	return true;
}

/* Keep what @sel took from the trace @tn names, for a `rest` below; a rest keeps nothing. */
static bool keep_selection(struct rd *r, const struct yn *tn, const struct selection *sel)
{
	struct scn_trace_sel k = sel->k;

	if (sel->rest)
		return true;
	if (r->ntsel == SCN_TRACE_SELS)
		return scn__bad(r, tn, "more than %d processes select threads of traces",
				SCN_TRACE_SELS);
	k.trace = tn->str;
	r->tsel[r->ntsel++] = k;
	return true;
}

/* The note of what process @p took from the trace @tn names and what it left. */
static bool note_taken(struct rd *r, const struct yn *tn, const struct scn_process *p,
		       const struct tally *tl)
{
	char *text = util_asprintf("%s:%d:%d: note: process %s: %zu thread%s of %s (%.3f s of CPU "
				   "in the trace); %zu not selected (%.3f s)", r->file, tn->line,
				   tn->col, p->name, tl->ntaken, tl->ntaken == 1 ? "" : "s",
				   tn->str, (double)tl->taken_cpu / 1e9, tl->ndropped,
				   (double)tl->dropped_cpu / 1e9);
	bool ok = text && note(r, tn, text);

	if (!text)
		scn__bad(r, tn, "out of memory");
	free(text);
	return ok;
}

bool scn__read_trace_process(struct rd *r, const struct yn *body, struct scn_process *p)
{
	const struct yn *tn = yn_get(body, "trace");
	const struct tstats *st = NULL;
	struct trace_opts o;
	struct tally tl;
	char *path = NULL;
	size_t *from = NULL;
	bool ok = false;

	if (yn_get(body, "threads"))
		return scn__bad(r, yn_get(body, "threads"), "process '%s' takes its threads from its "
				"trace: threads and trace do not go together", p->name);
	if (!scn__scalar(r, tn, "trace") || !read_opts(r, body, &o))
		return false;
	if (!tn->str[0])
		return scn__bad(r, tn, "trace needs a file name");
	if (!(path = trace_path(r->file, tn->str))) {
		scn__bad(r, tn, "out of memory");
		goto out;
	}
	if (!read_trace(r, tn, path, o.chained, &st))
		goto out;
	tl = count_selected(r, &o.sel, tn->str, st);
	if (!tl.ntaken) {
		scn__bad(r, tn, "no thread of trace '%s' is selected (of %zu with CPU time or sleeps)",
			 path, tl.ndropped);
		goto out;
	}
	if (r->sc->total_threads + (int)tl.ntaken > SCN_MAX_THREADS) {
		scn__bad(r, tn, "more than %d threads in all", SCN_MAX_THREADS);
		goto out;
	}
	if (!make_groups(r, tn, &o, st, tl.ntaken, p, &from))
		goto out;
	r->sc->total_threads += (int)tl.ntaken;
	if (!keep_selection(r, tn, &o.sel))
		goto out;
	ok = note_taken(r, tn, p, &tl);
	if (ok && o.chained) {
		ok = defer(r, tn, p, st, from, o.speed, o.absolute);
		if (ok)
			from = NULL;		/* the link's now */
	}
out:
	free(path);
	free(from);
	return ok;
}
