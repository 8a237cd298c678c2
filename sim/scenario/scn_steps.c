// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_steps.c - the phases behaviour (docs/scenario-format.md, "phases"): a list of
 * steps, read into one flat array of struct sim_phase. A `repeat` step's body is written in
 * place and followed by a SIM_STEP_REPEAT that jumps back to the body's first step, so that
 * nested loops cost nothing at run time but one counter per repeat step.
 *
 * Synchronisation objects (mutexes, condition variables, barriers, shared timers) are named; a
 * name becomes an index into the scenario's table of its kind, shared by every thread. A
 * thread's own timers and the masks and paths of its attribute steps are its group's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"

#define MAX_STEPS	10000	/* per thread entry, repeat bodies and their ends included */
#define MAX_NAMES	1000	/* objects of one kind */

static const char step_forms[] =
	"a phase step is {run: TIME}, {runtime: TIME}, {sleep: TIME}, {timer: TIME or {period: "
	"TIME, name: NAME, shared: BOOL, mode: relative|absolute}}, {lock: MUTEX}, "
	"{unlock: MUTEX}, {wait: {cond: COND, mutex: MUTEX}}, {sync: {cond: COND, mutex: "
	"MUTEX}}, {signal: COND}, {broadcast: COND}, {barrier: NAME}, suspend, "
	"{resume: PROCESS/NAME.N}, yield, {repeat: N, steps: [...]}, {nice: N}, "
	"{policy: normal|batch|idle}, {slice: TIME}, {affinity: CPUS or all} or {cgroup: PATH}";

/* The index of @n's name in table @tab (added when new); -1 after a message. */
static int name_index(struct rd *r, const struct yn *n, char ***tab, size_t *ntab,
		      const char *step, const char *what)
{
	size_t k = *ntab;

	if (!scn__scalar(r, n, step))
		return -1;
	if (!*n->str)
		return scn__bad(r, n, "a %s step names a %s", step, what), -1;
	for (size_t i = 0; i < k; i++)
		if (!strcmp((*tab)[i], n->str))
			return (int)i;
	if (k >= MAX_NAMES)
		return scn__bad(r, n, "more than %d %ss", MAX_NAMES, what), -1;
	if (!(k & (k - 1))) {	/* at powers of two: doubling */
		char **grown = realloc(*tab, (k ? 2 * k : 1) * sizeof(*grown));

		if (!grown)
			return scn__bad(r, n, "out of memory"), -1;
		*tab = grown;
	}
	if (!((*tab)[k] = scn__xstrdup(r, n, n->str)))
		return -1;
	*ntab = k + 1;
	return (int)k;
}

/* A new step at the end of @t's, positioned at @n; NULL after a message. */
static struct sim_phase *add_step(struct rd *r, const struct yn *n, struct scn_threads *t)
{
	struct sim_behavior *b = &t->spec.behavior;
	size_t k = b->nphases, c1 = t->capsteps, c2 = t->capsteps, c3 = t->capsteps;

	if (k >= MAX_STEPS)
		return scn__bad(r, n, "behavior.phases has more than %d steps (repeat bodies "
				"count once, their ends once more)", MAX_STEPS), NULL;
	if (UTIL_GROW_ZERO(t->phases, c1, k + 1) || UTIL_GROW_ZERO(t->resume, c2, k + 1) ||
	    UTIL_GROW_ZERO(t->step_pos, c3, k + 1))
		return scn__bad(r, n, "out of memory"), NULL;
	t->capsteps = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
	b->phases = t->phases;
	b->nphases = k + 1;	/* at once: free_threads() frees what the step makes */
	t->step_pos[k] = scn__pos_of(n);
	t->phases[k].obj = -1;
	t->phases[k].obj2 = -1;
	return &t->phases[k];
}

static bool timed(enum sim_step_kind k)
{
	return k == SIM_STEP_RUN || k == SIM_STEP_SLEEP || k == SIM_STEP_RUNTIME ||
	       k == SIM_STEP_TIMER;
}

/* {wait: {cond: C, mutex: M}} and {sync: ...} */
static bool read_cond_mutex(struct rd *r, const struct yn *v, const char *step,
			    struct sim_phase *p)
{
	static const char *const keys[] = { "cond", "mutex", NULL };
	struct scenario *sc = r->sc;
	const struct yn *c, *mx;

	if (v->kind != YN_MAP || !(c = yn_get(v, "cond")) || !(mx = yn_get(v, "mutex")))
		return scn__bad(r, v, "a %s step is {%s: {cond: COND, mutex: MUTEX}}", step, step);
	if (!scn__known_keys(r, v, keys, step))
		return false;
	return (p->obj = name_index(r, c, &sc->conds, &sc->nconds, step, "condition variable")) >= 0 &&
	       (p->obj2 = name_index(r, mx, &sc->mutexes, &sc->nmutexes, step, "mutex")) >= 0;
}

/* {timer: PERIOD} (the thread's own, relative) or {timer: {period:, name:, shared:, mode:}} */
static bool read_timer(struct rd *r, const struct yn *v, struct scn_threads *t,
		       struct sim_phase *p)
{
	static const char *const keys[] = { "period", "name", "shared", "mode", NULL };
	static const struct yn anon = { .kind = YN_SCALAR, .str = (char *)"timer" };
	const struct yn *per = v, *name = &anon, *x;
	bool shared = false;

	if (v->kind == YN_MAP) {
		if (!scn__known_keys(r, v, keys, "a timer step"))
			return false;
		if (!(per = yn_get(v, "period")))
			return scn__bad(r, v, "a timer step needs a period");
		if ((x = yn_get(v, "name")))
			name = x;
		if ((x = yn_get(v, "shared")) && !scn__parse_bool(r, x, "timer.shared", &shared))
			return false;
		if ((x = yn_get(v, "mode"))) {
			if (!scn__scalar(r, x, "timer.mode"))
				return false;
			if (!strcmp(x->str, "absolute"))
				p->flags |= SIM_TIMER_ABSOLUTE;
			else if (strcmp(x->str, "relative"))
				return scn__bad(r, x, "timer.mode must be relative or absolute, not "
						"'%s'", x->str);
		}
	}
	if (!scn__parse_time(r, per, "a timer's period", 1000, SCN_MAX_DURATION_NS, &p->ns))
		return false;
	if (shared) {
		p->flags |= SIM_TIMER_SHARED;
		p->obj = name_index(r, name, &r->sc->timers, &r->sc->ntimers, "timer", "timer");
	} else {
		p->obj = name_index(r, name, &t->timers, &t->ntimers, "timer", "timer");
	}
	return p->obj >= 0;
}

/* {affinity: CPUS} or {affinity: all} (back to no mask of its own) */
static bool read_affinity_step(struct rd *r, const struct yn *v, struct scn_threads *t, int cpus,
			       struct sim_phase *p)
{
	size_t k = t->nmasks;

	if (v->kind == YN_SCALAR && !strcmp(v->str, "all"))
		return true;	/* obj -1 */
	if (!(k & (k - 1))) {
		uint64_t *grown = realloc(t->masks, (k ? 2 * k : 1) * SIM_MASK_WORDS *
					  sizeof(*grown));

		if (!grown)
			return scn__bad(r, v, "out of memory");
		t->masks = grown;
	}
	if (!scn__read_cpus(r, v, cpus, t->masks + k * SIM_MASK_WORDS))
		return false;
	t->spec.behavior.masks = t->masks;
	t->spec.behavior.nmasks = t->nmasks = k + 1;
	p->obj = (int)k;
	return true;
}

static bool read_cgroup_step(struct rd *r, const struct yn *v, struct scn_threads *t,
			     struct sim_phase *p)
{
	size_t k = t->npaths;

	if (!(k & (k - 1))) {
		char **grown = realloc(t->paths, (k ? 2 * k : 1) * sizeof(*grown));

		if (!grown)
			return scn__bad(r, v, "out of memory");
		t->paths = grown;
	}
	if (!scn__read_path(r, v, "a cgroup step", &t->paths[k]))
		return false;
	t->spec.behavior.paths = (const char *const *)t->paths;
	t->spec.behavior.npaths = t->npaths = k + 1;
	p->obj = (int)k;
	return true;
}

static bool read_steps(struct rd *r, const struct yn *steps, struct scn_threads *t, int cpus,
		       const char *what);

/* {repeat: N, steps: [...]}: the body, then a step back to its start */
static bool read_repeat(struct rd *r, const struct yn *st, struct scn_threads *t, int cpus)
{
	static const char *const keys[] = { "repeat", "steps", NULL };
	const struct yn *body = yn_get(st, "steps");
	size_t first = t->spec.behavior.nphases;
	long long n;
	bool any = false;
	struct sim_phase *p;

	if (!scn__known_keys(r, st, keys, "a repeat step"))
		return false;
	if (!scn__parse_int(r, yn_get(st, "repeat"), "repeat", 1, 1000000000, &n))
		return false;
	if (!body)
		return scn__bad(r, st, "a repeat step is {repeat: N, steps: [STEP, ...]}");
	if (!read_steps(r, body, t, cpus, "repeat.steps"))
		return false;
	for (size_t i = first; i < t->spec.behavior.nphases; i++)
		any |= timed(t->phases[i].kind);
	if (!any)
		return scn__bad(r, body, "repeat.steps needs a run, runtime, sleep or timer step "
				"(steps that take no time cannot make a loop)");
	if (!(p = add_step(r, st, t)))
		return false;
	p->kind = SIM_STEP_REPEAT;
	p->obj = (int)first;
	p->count = (uint32_t)n;
	return true;
}

/* A step that is a bare word: suspend, yield. */
static bool read_word(struct rd *r, const struct yn *st, struct scn_threads *t)
{
	struct sim_phase *p;

	if (strcmp(st->str, "suspend") && strcmp(st->str, "yield"))
		return scn__bad(r, st, "%s; not '%s'", step_forms, st->str);
	if (!(p = add_step(r, st, t)))
		return false;
	p->kind = strcmp(st->str, "suspend") ? SIM_STEP_YIELD : SIM_STEP_SUSPEND;
	return true;
}

/* The steps that name one object of a table of the scenario's. */
static bool read_named(struct rd *r, const char *key, const struct yn *v, struct sim_phase *p)
{
	struct scenario *sc = r->sc;

	if (!strcmp(key, "lock") || !strcmp(key, "unlock")) {
		p->kind = key[0] == 'l' ? SIM_STEP_LOCK : SIM_STEP_UNLOCK;
		p->obj = name_index(r, v, &sc->mutexes, &sc->nmutexes, key, "mutex");
	} else if (!strcmp(key, "signal") || !strcmp(key, "broadcast")) {
		p->kind = key[0] == 's' ? SIM_STEP_SIGNAL : SIM_STEP_BROADCAST;
		p->obj = name_index(r, v, &sc->conds, &sc->nconds, key, "condition variable");
	} else {
		p->kind = SIM_STEP_BARRIER;
		p->obj = name_index(r, v, &sc->barriers, &sc->nbarriers, key, "barrier");
	}
	return p->obj >= 0;
}

/* The attribute steps: nice, policy, slice. */
static bool read_attr(struct rd *r, const char *key, const struct yn *v, struct sim_phase *p)
{
	long long x;

	if (!strcmp(key, "nice")) {
		p->kind = SIM_STEP_NICE;
		if (!scn__parse_int(r, v, "a nice step", SCHED_NICE_MIN, SCHED_NICE_MAX, &x))
			return false;
		p->obj = (int)x;
		return true;
	}
	if (!strcmp(key, "policy")) {
		p->kind = SIM_STEP_POLICY;
		if (!scn__scalar(r, v, "a policy step"))
			return false;
		if (!strcmp(v->str, "normal"))
			p->obj = SCHED_THREAD_NORMAL;
		else if (!strcmp(v->str, "batch"))
			p->obj = SCHED_THREAD_BATCH;
		else if (!strcmp(v->str, "idle"))
			p->obj = SCHED_THREAD_IDLE;
		else
			return scn__bad(r, v, "a policy step is normal, batch or idle, not '%s'",
					v->str);
		return true;
	}
	p->kind = SIM_STEP_SLICE;
	if (!scn__parse_time(r, v, "a slice step", 0, 100000000, &p->ns))
		return false;
	if (p->ns && p->ns < 100000)
		return scn__bad(r, v, "a slice step is 0 (the default) or 0.1ms to 100ms");
	return true;
}

/* One step, appended to @t's (a repeat appends its body and its end). */
static bool read_step(struct rd *r, const struct yn *st, struct scn_threads *t, int cpus)
{
	static const char *const dists[] = { "run", "sleep", "runtime" };
	static const char *const dist_what[] = { "a run step", "a sleep step", "a runtime step" };
	static const enum sim_step_kind dist_kinds[] = { SIM_STEP_RUN, SIM_STEP_SLEEP,
							 SIM_STEP_RUNTIME };
	struct sim_phase *p;
	const char *key;
	const struct yn *v;

	if (st->kind == YN_SCALAR)
		return read_word(r, st, t);
	if (st->kind == YN_MAP && yn_get(st, "repeat"))
		return read_repeat(r, st, t, cpus);
	if (st->kind != YN_MAP || st->n != 1)
		return scn__bad(r, st, "%s", step_forms);
	key = st->keys[0]->str;
	v = st->kids[0];
	if (!(p = add_step(r, st, t)))
		return false;
	for (size_t k = 0; k < sizeof(dists) / sizeof(dists[0]); k++)
		if (!strcmp(key, dists[k])) {
			p->kind = dist_kinds[k];
			return scn__parse_dist(r, v, dist_what[k], &p->d);
		}
	if (!strcmp(key, "lock") || !strcmp(key, "unlock") || !strcmp(key, "signal") ||
	    !strcmp(key, "broadcast") || !strcmp(key, "barrier"))
		return read_named(r, key, v, p);
	if (!strcmp(key, "wait") || !strcmp(key, "sync")) {
		p->kind = key[0] == 'w' ? SIM_STEP_WAIT : SIM_STEP_SYNC;
		return read_cond_mutex(r, v, key, p);
	}
	if (!strcmp(key, "timer")) {
		p->kind = SIM_STEP_TIMER;
		return read_timer(r, v, t, p);
	}
	if (!strcmp(key, "resume") || !strcmp(key, "post")) {
		p->kind = SIM_STEP_RESUME;
		p->count = key[0] == 'p';	/* post: a wakeup kept until the thread suspends */
		if (!scn__scalar(r, v, key) || !strchr(v->str, '/'))
			return scn__bad(r, v, "a %s step names a thread as PROCESS/NAME.N", key);
		t->step_pos[t->spec.behavior.nphases - 1] = scn__pos_of(v);
		return (t->resume[t->spec.behavior.nphases - 1] = scn__xstrdup(r, v, v->str));
	}
	if (!strcmp(key, "nice") || !strcmp(key, "policy") || !strcmp(key, "slice"))
		return read_attr(r, key, v, p);
	if (!strcmp(key, "affinity")) {
		p->kind = SIM_STEP_AFFINITY;
		return read_affinity_step(r, v, t, cpus, p);
	}
	if (!strcmp(key, "cgroup")) {
		p->kind = SIM_STEP_CGROUP;
		return read_cgroup_step(r, v, t, p);
	}
	return scn__bad(r, st->keys[0], "%s; not '%s'", step_forms, key);
}

static bool read_steps(struct rd *r, const struct yn *steps, struct scn_threads *t, int cpus,
		       const char *what)
{
	if (!scn__want(r, steps, YN_SEQ, what))
		return false;
	if (!steps->n)
		return scn__bad(r, steps, "%s needs at least one step", what);
	for (size_t i = 0; i < steps->n; i++)
		if (!read_step(r, steps->kids[i], t, cpus))
			return false;
	return true;
}

/* phases: a list of steps, or { loops: N, steps: [...] }. */
bool scn__read_phases(struct rd *r, const struct yn *body, struct scn_threads *t, int cpus)
{
	static const char *const keys[] = { "loops", "steps", NULL };
	struct sim_behavior *b = &t->spec.behavior;
	const struct yn *steps = body, *v;
	bool any = false;

	if (body->kind == YN_MAP) {
		long long loops = 0;

		if (!scn__known_keys(r, body, keys, "behavior.phases"))
			return false;
		if ((v = yn_get(body, "loops")) &&
		    !scn__parse_int(r, v, "behavior.phases.loops", 0, 1000000000, &loops))
			return false;
		b->loops = (uint32_t)loops;
		if (!(steps = yn_get(body, "steps")))
			return scn__bad(r, body, "behavior.phases needs steps");
	}
	if (!read_steps(r, steps, t, cpus, "behavior.phases.steps"))
		return false;
	for (size_t i = 0; i < b->nphases; i++)
		any |= timed(t->phases[i].kind);
	if (!any)
		return scn__bad(r, steps, "behavior.phases needs a run, runtime, sleep or timer "
				"step (steps that take no time cannot make a loop)");
	return true;
}

/*
 * rt-app's count of a barrier's threads: every barrier step that names it adds the number of
 * threads its entry makes (parse_task_event_data() adds num_instances per event), so that the
 * last of them to arrive releases the others.
 */
bool scn__count_barriers(struct rd *r)
{
	struct scenario *sc = r->sc;
	uint32_t *n;

	if (!sc->nbarriers)
		return true;
	if (!(n = calloc(sc->nbarriers, sizeof(*n))))
		return scn__bad(r, NULL, "out of memory");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sc->nprocs; i++)
			for (size_t j = 0; j < sc->procs[i].nthreads; j++) {
				struct scn_threads *t = &sc->procs[i].threads[j];

				for (size_t k = 0; k < t->spec.behavior.nphases; k++) {
					struct sim_phase *p = &t->phases[k];

					if (p->kind != SIM_STEP_BARRIER || p->obj < 0)
						continue;
					if (pass == 0)
						n[p->obj] += (uint32_t)t->count;
					else
						p->count = n[p->obj];
				}
			}
	free(n);
	return true;
}
