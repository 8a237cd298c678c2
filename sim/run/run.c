// SPDX-License-Identifier: MIT
/*
 * sim/run/run.c - one variant of a scenario: layout, workload, timeline, measurements. This file
 * drives the run (sim/run/run_internal.h names the others): the machine through the warm-up and
 * the measured window, the timeline's operations at their times, and the work limit.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/run/ideal.h"
#include "sim/run/run_internal.h"
#include "sim/trace/trace.h"
#include "sim/util/util.h"

static int thread_named(const struct runner *r, const char *name);

/* Whether @result ("... -> RESULT") ends in an errno's name: the operation was refused. */
static bool refused_op(const char *result)
{
	const char *arrow = result ? strstr(result, " -> ") : NULL, *v;

	if (!arrow)
		return false;
	while ((v = strstr(arrow + 4, " -> ")))
		arrow = v;
	v = arrow + 4;
	for (int e = 1; e < 134; e++)
		if (!strcmp(v, cg_errno_name(e)) && strcmp(v, "E?"))
			return true;
	return false;
}

/*
 * @op with the report's thread names (PROCESS/NAME.N) among a write's values given as the
 * model's (the .cgs names, NAME.K of the process), so that a timeline can name a thread either
 * way. NULL: out of memory; the caller frees.
 */
static char *model_names(const struct runner *r, const char *op)
{
	size_t cap = strlen(op) + 1, len = 0;
	char *out = malloc(cap), *copy = strdup(op), *save = NULL, *w;
	int word = 0;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	out[0] = '\0';
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), word++) {
		char name[128];
		const char *put = w;
		int tid = word >= 2 && !strncmp(out, "write ", 6) && strchr(w, '/')
			  ? thread_named(r, w) : -1;

		if (tid > 0)
			put = cg_thread_name(r->h, tid, name, sizeof(name));
		if (len + strlen(put) + 2 > cap) {
			char *g = realloc(out, cap = 2 * (len + strlen(put) + 2));

			if (!g) {
				free(out);
				free(copy);
				return NULL;
			}
			out = g;
		}
		len += (size_t)sprintf(out + len, "%s%s", len ? " " : "", put);
	}
	free(copy);
	return out;
}

static int run_op(struct runner *r, struct run_result *res, const struct scn_event *ev)
{
	char *out = NULL, err[512], *op = model_names(r, ev->op);
	int e = op ? cg_script_line(r->h, r->sc->file, ev->pos.line, op, &out, err, sizeof(err))
		   : -ENOMEM;
	struct run_op *ops;

	if (!e && out && op && strcmp(op, ev->op)) {
		/* say the operation as written, with the report's names */
		const char *arrow = strstr(out, " -> "), *v;
		char *said;

		while (arrow && (v = strstr(arrow + 4, " -> ")))
			arrow = v;
		said = arrow ? util_asprintf("%d: %s%s", ev->pos.line, ev->op, arrow) : NULL;
		if (said) {
			free(out);
			out = said;
		}
	}
	free(op);

	if (e == -EINVAL) {
		/* the interpreter's column is within the operation: point at the do: value */
		return run__fail(r, ev->pos, "timeline operation '%s': %s", ev->op,
				 strstr(err, "error: ") ? strstr(err, "error: ") + 7 : err);
	}
	if (e)
		return run__fail(r, ev->pos, "out of memory");
	/* what a timeline creates counts against the limits of the whole scenario */
	if (cg_cgroup_max_id(r->h) - 1 > SCN_MAX_CGROUPS) {
		free(out);
		return run__fail(r, ev->pos, "timeline operation '%s': more than %d cgroups created in "
				 "all (cgroups: entries, the ancestors they create and timeline mkdirs "
				 "count)", ev->op, SCN_MAX_CGROUPS);
	}
	if ((uint64_t)(cg_cgroup_max_id(r->h) - 1) * (uint64_t)r->sc->sched.machine.cpus >
	    SCN_MAX_CGROUP_CPUS) {
		free(out);
		return run__fail(r, ev->pos, "timeline operation '%s': %d cgroups on %d CPUs: at most %u "
				 "cgroups x CPUs (the scheduler keeps a run queue per cgroup on every CPU)",
				 ev->op, cg_cgroup_max_id(r->h) - 1, r->sc->sched.machine.cpus, SCN_MAX_CGROUP_CPUS);
	}
	if (cg_thread_max_id(r->h) - 1 > SCN_MAX_THREADS) {
		free(out);
		return run__fail(r, ev->pos, "timeline operation '%s': more than %d threads in all "
				 "(processes: threads and timeline procs count)", ev->op, SCN_MAX_THREADS);
	}
	if (!(res->nops & (res->nops - 1))) {
		/* powers of two: 100,000 operations cost O(n) copies */
		ops = realloc(res->ops, (res->nops ? 2 * res->nops : 1) * sizeof(*ops));
		if (!ops) {
			free(out);
			return run__fail(r, ev->pos, "out of memory");
		}
		res->ops = ops;
	}
	if (out)
		out[strcspn(out, "\n")] = '\0';
	else if (!(out = strdup("")))
		return run__fail(r, ev->pos, "out of memory");
	/* never NULL: every report prints it (and sim/run/runio.h relies on it) */
	res->ops[res->nops++] = (struct run_op){ ev->at, out, refused_op(out) };
	if (r->trace) {
		char *text = util_asprintf("timeline %s", res->ops[res->nops - 1].result);

		if (!text)
			return run__fail(r, ev->pos, "out of memory");
		trace_mark(r->trace, ev->at, text);
		free(text);
	}
	return 0;
}

static int set_sessions(struct runner *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		int e = sim_machine_set_session(r->m, r->t[i].tid, r->t[i].session,
						r->t[i].session_nice);

		if (e)
			return run__fail(r, r->t[i].proc->pos, "process '%s': cannot set its session (%s)",
					 r->t[i].proc->name, cg_errno_name(-e));
	}
	if (r->sc->autogroup) {
		int e = sim_machine_set_autogroup(r->m, true);

		if (e)
			return run__fail(r, NOPOS, "autogroup: %s", cg_errno_name(-e));
	}
	return 0;
}

/* The thread the report names @name (PROCESS/NAME.N), or -1. */
static int thread_named(const struct runner *r, const char *name)
{
	for (size_t i = 0; i < r->nt; i++) {
		size_t pl = strlen(r->t[i].proc->name), gl = strlen(r->t[i].grp->name);
		char *end;

		if (!strncmp(name, r->t[i].proc->name, pl) && name[pl] == '/' &&
		    !strncmp(name + pl + 1, r->t[i].grp->name, gl) && name[pl + 1 + gl] == '.' &&
		    strtol(name + pl + 2 + gl, &end, 10) == r->t[i].index && !*end &&
		    name[pl + 2 + gl] != '+' && name[pl + 2 + gl] != '-')
			return r->t[i].tid;
	}
	return -1;
}

/*
 * A thread group's steps with each resume step's thread as its tid (sim_phase.obj), in
 * @out (the caller frees *@out); the group's own when it has none. 0 or a message.
 */
static int resolve_steps(struct runner *r, const struct scn_threads *g, struct sim_phase **out)
{
	const struct sim_behavior *b = &g->spec.behavior;
	bool any = false;

	*out = NULL;
	for (size_t k = 0; g->resume && k < b->nphases; k++)
		any |= g->resume[k] != NULL;
	if (!any)
		return 0;
	if (!(*out = malloc(b->nphases * sizeof(**out))))
		return run__fail(r, NOPOS, "out of memory");
	memcpy(*out, b->phases, b->nphases * sizeof(**out));
	for (size_t k = 0, last = SIZE_MAX; k < b->nphases; k++) {
		int tid;

		if (!g->resume[k])
			continue;
		/* a replayed trace's thread resumes the same few again and again: the last one */
		if (last != SIZE_MAX && !strcmp(g->resume[k], g->resume[last]))
			tid = (*out)[last].obj;
		else
			tid = thread_named(r, g->resume[k]);
		last = k;
		if (tid < 0)
			return run__fail(r, g->step_pos[k], "resume step: no thread '%s' (threads "
					 "are PROCESS/NAME.N, N from 1)", g->resume[k]);
		(*out)[k].obj = tid;
	}
	return 0;
}

static int set_threads(struct runner *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		struct sim_thread_spec sp = r->t[i].grp->spec;
		struct sim_phase *steps;
		int e;

		if ((e = resolve_steps(r, r->t[i].grp, &steps))) {
			free(steps);
			return e;
		}
		if (steps)
			sp.behavior.phases = steps;

		sp.stream = r->t[i].stream;
		if (r->t[i].grp->has_affinity) {
			sp.affinity = r->t[i].grp->affinity;
			sp.affinity_words = SCHED_MAX_CPUS / 64;
		}
		e = sim_machine_set_thread(r->m, r->t[i].tid, &sp);
		free(steps);	/* the machine keeps a copy */
		if (e)
			return run__fail(r, r->t[i].grp->pos, "thread '%s/%s.%d' cannot run (%s)",
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

static uint64_t max_events = RUN_MAX_EVENTS;

void run_set_max_events(uint64_t max)
{
	max_events = max;
}

static int over_work_limit(struct runner *r, const char *what)
{
	return run__fail(r, NOPOS, "%s more than %llu events, the work limit of a run (--max-events N "
			 "raises it)", what, (unsigned long long)max_events);
}

/* The machine stopped: at the work limit, or for a reason of its own. */
static int run_failed(struct runner *r, int e)
{
	char what[96];

	if (e != -E2BIG)
		return run__fail(r, NOPOS, "run failed (%s)", cg_errno_name(-e));
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
		return run__fail(r, NOPOS, "computing the ideal shares at the start and at each timeline "
				 "operation takes %llu x %llu events of work, and a run may take %llu "
				 "(--max-events N raises the limit)", (unsigned long long)changes,
				 (unsigned long long)per, (unsigned long long)max_events);
	sim_machine_set_event_limit(r->m, max_events ? max_events - changes * per : 0);
	return 0;
}

/*
 * The cgroup steps the model refused, in the order first seen, each once with its count: the
 * thread stayed where it was (rt-app itself would exit there: docs/rt-app.md).
 */
static int list_refused(struct runner *r, struct run_result *res)
{
	const struct sim_step_failure *f;
	size_t n = sim_machine_step_failures(r->m, &f);

	if (!n)
		return 0;
	if (!(res->refused = calloc(n, sizeof(*res->refused))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct rthread *t = NULL;
		const struct sim_phase *p;
		struct scn_pos pos;

		for (size_t k = 0; k < r->nt && !t; k++)
			if (r->t[k].tid == f[i].tid)
				t = &r->t[k];
		if (!t || f[i].step >= t->grp->spec.behavior.nphases)
			continue;
		p = &t->grp->phases[f[i].step];
		pos = t->grp->step_pos[f[i].step];
		res->refused[res->nrefused].at = f[i].first_ns;
		res->refused[res->nrefused].result = util_asprintf(
			"%d:%d: %s/%s.%d: cgroup step to '%s' -> %s (rule %s); %llu time%s",
			pos.line, pos.col, t->proc->name, t->grp->name, t->index,
			p->obj < 0 ? "?" : *t->grp->paths[p->obj] ? t->grp->paths[p->obj] : "/",
			cg_errno_name(-f[i].err), cg_rule_id(f[i].rule),
			(unsigned long long)f[i].count, f[i].count == 1 ? "" : "s");
		if (!res->refused[res->nrefused++].result)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The warm-up: its timeline operations at their times, then the machine up to the measured
 * window, where the metrics start again. *@ev: the first operation not run.
 */
static int run_warmup(struct runner *r, struct run_result *res, size_t *ev)
{
	const struct scenario *sc = r->sc;
	uint64_t start = sc->warmup;
	int e;

	while (*ev < sc->ntimeline && sc->timeline[*ev].at <= start) {
		if ((e = sim_machine_run_until(r->m, sc->timeline[*ev].at)))
			return run_failed(r, e);
		if ((e = run_op(r, res, &sc->timeline[*ev])))
			return e == -EINVAL ? e : run__fail(r, sc->timeline[*ev].pos, "run failed (%s)",
							    cg_errno_name(-e));
		(*ev)++;
	}
	if ((e = sim_machine_run_until(r->m, start)))
		return run_failed(r, e);
	sim_machine_reset_metrics(r->m);
	if (r->trace)
		trace_mark(r->trace, start, "cgsim: the measured window begins");
	return 0;
}

/*
 * The time series of the measured window, zeroed: a cell per group and (when there are few)
 * per thread, @items in all, at each sample, the interval doubled until the cells fit in
 * SERIES_MAX_CELLS (what memory allows).
 */
static int make_series(struct runner *r, struct run_result *res, size_t *items)
{
	uint64_t window = r->sc->duration - r->sc->warmup;
	size_t n;

	res->interval = r->sc->interval;
	res->series_threads = r->nt <= SERIES_MAX_THREADS ? r->nt : 0;
	*items = n = res->ngroups + res->series_threads;
	while (window / res->interval * n > SERIES_MAX_CELLS)
		res->interval *= 2;
	res->nsamples = (size_t)(window / res->interval);
	res->series = calloc(res->nsamples * n + 1, sizeof(*res->series));
	if (!res->series)
		return run__fail(r, NOPOS, "out of memory");
	return 0;
}

/*
 * The measured window, from timeline operation @ev on: the machine runs to each sample (a row
 * of @items cells) and each operation in turn, the ideal shares accrued up to each operation
 * and computed again after it, up to the next (or the end).
 */
static int run_window(struct runner *r, struct run_result *res, size_t ev, size_t items)
{
	const struct scenario *sc = r->sc;
	uint64_t start = sc->warmup, end = sc->duration, next_sample;
	size_t row = 0;
	int e;

	r->ideal_from = start;
	e = run__ideal_now(r, start, ev < sc->ntimeline && sc->timeline[ev].at < end
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
			run__sample(r, res, &res->series[row * items]);
			row++;
			next_sample += res->interval;
		}
		if (t == next_ev && t < end) {
			run__ideal_accrue(r, t);
			if ((e = run_op(r, res, &sc->timeline[ev])))
				return e;
			ev++;
			if ((e = run__grow_cg(r)))
				break;
			e = run__ideal_now(r, t, ev < sc->ntimeline && sc->timeline[ev].at < end
					       ? sc->timeline[ev].at : end);
			continue;
		}
		if (t == end)
			break;
	}
	if (e)
		return run__fail(r, NOPOS, "ideal shares: %s", cg_errno_name(-e));
	run__ideal_accrue(r, end);
	return 0;
}

/* Turn the cumulative samples (run__sample()'s) into per-interval CPU. */
static void series_per_interval(struct run_result *res, size_t items)
{
	for (size_t k = res->nsamples; k-- > 1;)
		for (size_t j = 0; j < items; j++)
			res->series[k * items + j] -= res->series[(k - 1) * items + j];
}

static int simulate(struct runner *r, struct run_result *res, bool timing)
{
	double t0 = timing ? ns_now() : 0;
	size_t ev = 0, items;
	int e;

	if ((e = run_warmup(r, res, &ev)))
		return e;
	if ((e = run__list_groups(r, res)) || (e = run__grow_cg(r)))
		return run__fail(r, NOPOS, "out of memory");
	if ((e = make_series(r, res, &items)) || (e = run_window(r, res, ev, items)))
		return e;
	if (r->trace)
		trace_mark(r->trace, r->sc->duration, "cgsim: the measured window ends");
	/* operations after the end are not run */
	res->measured_ns = r->sc->duration - r->sc->warmup;
	series_per_interval(res, items);
	if (timing)
		res->wall_ns = (uint64_t)(ns_now() - t0);
	if (list_refused(r, res) || run__measure(r, res))
		return run__fail(r, NOPOS, "out of memory");
	return 0;
}

/* Free what the runner holds. */
static void runner_free(struct runner *r)
{
	sim_machine_free(r->m);
	trace_free(r->trace);
	cg_hier_free(r->h);
	free(r->t);
	free(r->ideal_cg);
	free(r->cur_share);
	free(r->cur_cg);
	free(r->cg_cpu);
}

/* Free what the run held; hand over @res or free it with a message for -ENOMEM. */
static int runner_end(struct runner *r, struct run_result *res, int e, struct run_result **out)
{
	runner_free(r);
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
	if (!v.h || cg_set_nr_cpus(v.h, sc->sched.machine.cpus)) {
		cg_hier_free(v.h);
		return -ENOMEM;
	}
	/* a layout error is reported by the real run, after this */
	if (run__apply_layout(&v) || run__add_processes(&v)) {
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

/* What a run and the ideal shares both start from: the layout and processes on the model. */
static int start_layout(struct runner *r, struct run_result *res)
{
	const struct scenario *sc = r->sc;
	int e;

	res->sc = sc;
	res->cpus = sc->sched.machine.cpus;
	r->h = cg_hier_new(sc->semantics);
	if (!r->h || cg_set_nr_cpus(r->h, sc->sched.machine.cpus))
		return -ENOMEM;
	if ((e = run__apply_layout(r)) || (e = run__add_processes(r)))
		return e;
	return validate_timeline(sc, r->err, r->errlen);
}

int run_layout_build(const struct scenario *sc, struct run_layout **out, char *err,
		     size_t errlen)
{
	struct runner r = { .sc = sc, .err = err, .errlen = errlen };
	struct run_result res = { 0 };
	struct run_layout *l;
	int e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	l = calloc(1, sizeof(*l));
	e = l ? start_layout(&r, &res) : -ENOMEM;
	if (!e && !(l->threads = calloc(r.nt ? r.nt : 1, sizeof(*l->threads))))
		e = -ENOMEM;
	if (e) {
		free(l);
		runner_free(&r);
		if (e == -ENOMEM && errlen && !err[0])
			snprintf(err, errlen, "cgsim: out of memory");
		return e;
	}
	for (size_t i = 0; i < r.nt; i++)
		l->threads[i] = (struct run_layout_thread){ r.t[i].proc, r.t[i].grp, r.t[i].index,
							    r.t[i].tid, r.t[i].stream,
							    r.t[i].session_nice };
	l->nthreads = r.nt;
	l->h = r.h;
	r.h = NULL;	/* handed over */
	runner_free(&r);
	*out = l;
	return 0;
}

void run_layout_free(struct run_layout *l)
{
	if (!l)
		return;
	cg_hier_free(l->h);
	free(l->threads);
	free(l);
}

/* The machine on the layout, its wake-up noise set when @noise is not NULL. */
static int start_machine(struct runner *r, const struct sim_wakeup_noise *noise)
{
	int me = 0;

	r->m = sim_machine_new(&r->sc->sched, r->h, r->sc->seed, &me);
	if (r->m && noise)
		me = sim_machine_set_noise(r->m, noise);
	if (!r->m || me)
		return run__fail(r, NOPOS, "cannot start the machine (%s)", cg_errno_name(-me));
	return 0;
}

/* The threads' sessions and specs given to the machine: their task groups and weights. */
static int place_threads(struct runner *r)
{
	int e = set_sessions(r);

	return e ? e : set_threads(r);
}

/* The trace's header and pid map, and the machine's hook: once the threads are placed. */
static int start_trace(struct runner *r, FILE *f)
{
	const struct scenario *sc = r->sc;
	char about[3][1200], kernel[1024];
	const char *lines[3] = { about[0], about[1], about[2] };
	int e = 0;

	r->trace = trace_new(f, sc->sched.machine.cpus);
	if (!r->trace)
		return run__fail(r, NOPOS, "out of memory");
	for (size_t i = 0; i < r->nt && !e; i++) {
		char name[300];

		snprintf(name, sizeof(name), "%s.%d", r->t[i].grp->name, r->t[i].index);
		e = trace_thread(r->trace, r->t[i].tid, cg_thread_pid(r->h, r->t[i].tid),
				 r->t[i].proc->name, name);
	}
	if (e)
		return run__fail(r, NOPOS, "out of memory");
	snprintf(about[0], sizeof(about[0]), "cgsim: scenario %.200s, variant %.200s, seed %llu",
		 sc->name, sc->variant ? sc->variant : "base", (unsigned long long)sc->seed);
	sched_config_describe(&sc->sched, kernel, sizeof(kernel));
	snprintf(about[1], sizeof(about[1]), "cgsim: %d CPUs, %s, HZ %u", sc->sched.machine.cpus,
		 kernel, (unsigned)sc->sched.tun.hz);
	snprintf(about[2], sizeof(about[2]), "cgsim: measured window %llu.%06llu .. %llu.%06llu s "
		 "(the report's figures), pid = %d + the model's tid",
		 (unsigned long long)(sc->warmup / 1000000000u),
		 (unsigned long long)(sc->warmup % 1000000000u / 1000u),
		 (unsigned long long)(sc->duration / 1000000000u),
		 (unsigned long long)(sc->duration % 1000000000u / 1000u), TRACE_PID_BASE);
	trace_header(r->trace, lines, 3);
	sim_machine_set_trace(r->m, r->trace);
	return 0;
}

/* A traced run ends with every line written: flushed, and no write failed. */
static int end_trace(struct runner *r, FILE *f)
{
	if (fflush(f) || ferror(f) || trace_error(r->trace))
		return run__fail(r, NOPOS, "cannot write the trace: %s", strerror(EIO));
	return 0;
}

int run_scenario(const struct scenario *sc, bool timing, struct run_result **out, char *err,
		 size_t errlen)
{
	return run_scenario_trace(sc, timing, NULL, out, err, errlen);
}

int run_scenario_trace(const struct scenario *sc, bool timing, FILE *trace,
		       struct run_result **out, char *err, size_t errlen)
{
	struct runner r = { .sc = sc, .err = err, .errlen = errlen };
	struct run_result *res = calloc(1, sizeof(*res));
	int e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!res)
		return -ENOMEM;
	if ((e = start_layout(&r, res)))
		goto out;
	{
		struct sim_wakeup_noise nz = {
			.timer = sc->timer_latency,
			.idle_exit = sc->idle_exit,
			.tick_phase = sc->sched.jitter && !sc->clock_phase_set,
			.phase_ns = sc->clock_phase,
			.steal = sc->steal,
			.steal_period_ns = sc->steal_period,
		};

		if ((e = start_machine(&r, &nz)))
			goto out;
	}
	/* 64 MiB of latency samples in all at most, 256 per thread at least */
	sim_machine_set_latency_keep(r.m, r.nt ? (8u << 20) / r.nt > 256 ? (8u << 20) / r.nt : 256
					       : 256);
	/* 1 Mi activation records (48 MiB) in all at most, 256 per thread at least */
	sim_machine_set_activation_keep(r.m, r.nt ? (1u << 20) / r.nt > 256 ? (1u << 20) / r.nt
						  : 256 : 256);
	r.cur_share = calloc(r.nt ? r.nt : 1, sizeof(*r.cur_share));
	if (!r.cur_share) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = budget_events(&r)) || (e = run__grow_cg(&r)) || (e = place_threads(&r)) ||
	    (trace && (e = start_trace(&r, trace))) || (e = simulate(&r, res, timing)) ||
	    (trace && (e = end_trace(&r, trace))))
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
	res->measured_ns = sc->duration - sc->warmup;
	/* the machine is built, not run: the ideal reads the task groups it schedules by */
	if ((e = start_layout(&r, res)) || (e = start_machine(&r, NULL)) || (e = place_threads(&r)))
		goto out;
	r.cur_share = calloc(r.nt ? r.nt : 1, sizeof(*r.cur_share));
	res->threads = calloc(r.nt ? r.nt : 1, sizeof(*res->threads));
	if (!r.cur_share || !res->threads || (e = run__grow_cg(&r)) || (e = run__list_groups(&r, res))) {
		e = -ENOMEM;
		goto out;
	}
	r.ideal_from = sc->warmup;
	if ((e = run__ideal_now(&r, sc->warmup, sc->duration)))
		goto out;
	run__ideal_accrue(&r, sc->duration);
	res->nthreads = r.nt;
	for (size_t i = 0; i < r.nt; i++) {
		struct run_thread *o = &res->threads[i];

		o->tid = r.t[i].tid;
		o->process = strdup(r.t[i].proc->name);
		o->name = util_asprintf("%s.%d", r.t[i].grp->name, r.t[i].index);
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
		free(res->threads[i].lat);
		free(res->threads[i].acts);
	}
	free(res->threads);
	for (size_t i = 0; i < res->ngroups; i++)
		free(res->groups[i].path);
	free(res->groups);
	for (size_t i = 0; i < res->nops; i++)
		free(res->ops[i].result);
	free(res->ops);
	for (size_t i = 0; i < res->nrefused; i++)
		free(res->refused[i].result);
	free(res->refused);
	free(res->series);
	free(res->cdf_ms);
	free(res->cdf_frac);
	free(res);
}
