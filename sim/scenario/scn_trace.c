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

/* Read the trace at @path into @st (recording); false with the message said at @n. */
static bool read_trace(struct rd *r, const struct yn *n, const char *path, struct tstats *st)
{
	/* without blocking: a FIFO named as a trace must not hang the load */
	int fd = open(path, O_RDONLY | O_NONBLOCK), rc, e = 0;
	struct tread_event ev;
	struct tread *tr;
	struct stat sb;
	char err[1024];
	FILE *f;

	if (fd < 0)
		return scn__bad(r, n, "cannot open trace '%s': %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return scn__bad(r, n, "trace '%s' is not a regular file", path);
	}
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return scn__bad(r, n, "out of memory");
	}
	if (!(tr = tread_open(f, path))) {
		fclose(f);
		return scn__bad(r, n, "out of memory");
	}
	tstats_record(st);
	while ((rc = tread_next(tr, &ev, err, sizeof(err))) > 0 && !(e = tstats_add(st, &ev)))
		;
	if (!rc && !e)
		e = tstats_finish(st);
	tread_close(tr);
	fclose(f);
	if (rc < 0) {
		char *e2 = strstr(err, ": error: ");	/* one "error:" in the message, ours */

		if (e2)
			memmove(e2 + 2, e2 + 9, strlen(e2 + 9) + 1);
		return scn__bad(r, n, "cannot read the trace: %s", err);
	}
	if (e == -EINVAL)
		return scn__bad(r, n, "trace '%s': a CPU beyond %d", path, TSTATS_MAX_CPUS);
	if (e == -E2BIG)
		return scn__bad(r, n, "trace '%s' holds more than %u bursts and sleeps", path,
				TSTATS_MAX_STEPS);
	if (e)
		return scn__bad(r, n, "out of memory");
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

/* @t's recorded life as the steps of @g, bursts divided by @speed. */
static bool fill_group(struct rd *r, const struct yn *n, struct scn_threads *g,
		       const struct tstats_thread *t, uint64_t first, double speed)
{
	if (!(g->name = group_name(t)) || !(g->phases = calloc(t->nsteps, sizeof(*g->phases))))
		return scn__bad(r, n, "out of memory");
	g->count = 1;
	g->capsteps = t->nsteps;
	for (size_t k = 0; k < t->nsteps; k++) {
		const struct tstats_step *s = &t->steps[k];
		double ns = s->run ? round((double)s->ns / speed) : (double)s->ns;
		enum sim_step_kind kind = s->run ? SIM_STEP_RUN : SIM_STEP_SLEEP;

		/*
		 * A burst still under way when the trace ended wanted more than it got, which was
		 * the recorded layout's doing: it stays runnable for the wall time it was, from its
		 * wakeup to the trace's end, whatever CPU time that brings it now.
		 */
		if (s->run && t->open_end && k == t->nsteps - 1) {
			kind = SIM_STEP_RUNTIME;
			ns = (double)t->open_wall_ns;
		}
		g->phases[k] = (struct sim_phase){ .kind = kind,
						   .d = { SIM_DIST_FIXED, ns < 1 ? 1 : ns, 0 },
						   .flags = s->run ? 0 : SIM_SLEEP_RECORDED };
	}
	g->spec.behavior.kind = SIM_BEHAV_PHASES;
	g->spec.behavior.phases = g->phases;
	g->spec.behavior.nphases = t->nsteps;
	g->spec.behavior.loops = 1;
	g->spec.start_ns = t->start_ns > first ? t->start_ns - first : 0;
	if (t->prio >= 120 + SCHED_NICE_MIN && t->prio <= 120 + SCHED_NICE_MAX)	/* normal prio */
		g->spec.nice = t->prio - 120;
	g->pos = scn__pos_of(n);
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

bool scn__read_trace_process(struct rd *r, const struct yn *body, struct scn_process *p)
{
	const struct yn *tn = yn_get(body, "trace");
	struct scenario *sc = r->sc;
	struct selection sel;
	struct tstats *st = NULL;
	uint64_t taken_cpu = 0, dropped_cpu = 0;
	size_t ntaken = 0, ndropped = 0, n;
	char *path = NULL, *text = NULL;
	double speed;
	bool ok = false;

	if (yn_get(body, "threads"))
		return scn__bad(r, yn_get(body, "threads"), "process '%s' takes its threads from its "
				"trace: threads and trace do not go together", p->name);
	if (!scn__scalar(r, tn, "trace") || !read_selection(r, yn_get(body, "select"), &sel) ||
	    !read_speed(r, yn_get(body, "speed"), &speed))
		return false;
	if (!tn->str[0])
		return scn__bad(r, tn, "trace needs a file name");
	if (!(path = trace_path(r->file, tn->str)) || !(st = tstats_new())) {
		scn__bad(r, tn, "out of memory");
		goto out;
	}
	if (!read_trace(r, tn, path, st))
		goto out;
	n = tstats_nthreads(st);
	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = tstats_thread(st, i);

		if (!t->nsteps)
			continue;	/* no CPU time and no sleep: nothing to replay */
		if (selected(r, &sel, tn->str, t)) {
			ntaken++;
			taken_cpu += t->cpu_ns;
		} else {
			ndropped++;
			dropped_cpu += t->cpu_ns;
		}
	}
	if (!ntaken) {
		scn__bad(r, tn, "no thread of trace '%s' is selected (of %zu with CPU time or sleeps)",
			 path, ndropped);
		goto out;
	}
	if (sc->total_threads + (int)ntaken > SCN_MAX_THREADS) {
		scn__bad(r, tn, "more than %d threads in all", SCN_MAX_THREADS);
		goto out;
	}
	if (!(p->threads = calloc(ntaken, sizeof(*p->threads)))) {
		scn__bad(r, tn, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = tstats_thread(st, i);

		if (t->nsteps && selected(r, &sel, tn->str, t) &&
		    !fill_group(r, tn, &p->threads[p->nthreads++], t, tstats_first(st), speed))
			goto out;
	}
	sc->total_threads += (int)ntaken;
	if (!sel.rest) {	/* for a `rest` below */
		if (r->ntsel == SCN_TRACE_SELS) {
			scn__bad(r, tn, "more than %d processes select threads of traces",
				 SCN_TRACE_SELS);
			goto out;
		}
		sel.k.trace = tn->str;
		r->tsel[r->ntsel++] = sel.k;
	}
	text = util_asprintf("%s:%d:%d: note: process %s: %zu thread%s of %s (%.3f s of CPU in "
			     "the trace); %zu not selected (%.3f s)", r->file, tn->line, tn->col,
			     p->name, ntaken, ntaken == 1 ? "" : "s", tn->str,
			     (double)taken_cpu / 1e9, ndropped, (double)dropped_cpu / 1e9);
	ok = text && note(r, tn, text);
	if (!text)
		scn__bad(r, tn, "out of memory");
out:
	free(text);
	free(path);
	tstats_free(st);
	return ok;
}
