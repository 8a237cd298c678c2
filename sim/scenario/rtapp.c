// SPDX-License-Identifier: MIT
/*
 * sim/scenario/rtapp.c - an rt-app workload (sim/scenario/rtapp.h, docs/rt-app.md) as a
 * scenario document: rt-app's semantics, from its parser (parse_task_data(),
 * parse_task_phase_data(), parse_task_event_data()) and its thread body (thread_body(),
 * run_event()), said in the scenario format's steps.
 *
 * A task is a thread entry of process "rt-app" with `instance` threads. Its thread loop is
 * the behaviour's loops, each phase a run of steps (a repeat when the phase loops), each event
 * the steps of the pthread calls rt-app makes for it: suspend X is lock X, wait on X with X,
 * unlock X; resume X is lock X, broadcast X, unlock X (rt-app 1.0: the suspend's value names
 * the condition, and a bare suspend its task, as workgen writes it). What rt-app sets at a
 * phase's start (affinity, policy and nice, slice, taskgroup) becomes attribute steps there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/rtapp.h"
#include "sim/scenario/rtapp_internal.h"
#include "sim/util/util.h"

/* ---------------- events ---------------- */

/* The prefixes that make a key an event (rt-app's obj_is_event()), in its order. */
static const char *const events[] = { "lock", "unlock", "wait", "signal", "broad", "sync",
	"sleep", "runtime", "run", "timer", "suspend", "resume", "memrun", "mem", "iorun",
	"yield", "barrier", "fork", "sem_post", "sem_wait", NULL };

static bool is_event(const char *key)
{
	for (const char *const *e = events; *e; e++)
		if (!strncmp(key, *e, strlen(*e)))
			return true;
	return false;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* lock X, then @op on the condition X, then unlock X: rt-app's suspend and resume. */
static bool cond_around(struct rta_tr *t, struct yn *seq, const char *x, const char *op,
			const char *p)
{
	struct yn *m, *w;

	if (!rta__step(t, seq, "lock", x, p))
		return false;
	if (!strcmp(op, "wait")) {
		if (!(m = rta__seq_map(t, seq, p)) ||
		    !(w = rta__map_child(t, m, "wait", YN_MAP, p)) ||
		    !rta__put_str(t, w, "cond", x, p) || !rta__put_str(t, w, "mutex", x, p))
			return false;
	} else if (!rta__step(t, seq, op, x, p)) {
		return false;
	}
	return rta__step(t, seq, "unlock", x, p);
}

/* {wait: {cond:, mutex:}} or {sync: ...} from rt-app's { "ref": C, "mutex": M } */
static bool cond_step(struct rta_tr *t, struct yn *seq, const char *kind, struct json_object *v,
		      const char *p)
{
	struct yn *m, *w;

	return (m = rta__seq_map(t, seq, p)) && (w = rta__map_child(t, m, kind, YN_MAP, p)) &&
	       rta__put_str(t, w, "cond", rta__get_str(v, "ref", "unknown"), p) &&
	       rta__put_str(t, w, "mutex", rta__get_str(v, "mutex", "unknown"), p);
}

/* rt-app's timer: { "ref": NAME ("unique..." its thread's own), "period": us, "mode": ... } */
static bool timer_step(struct rta_tr *t, struct yn *seq, struct json_object *v, const char *p)
{
	const char *ref = rta__get_str(v, "ref", "unknown"),
		   *mode = rta__get_str(v, "mode", "relative");
	struct yn *m, *tm;
	long long period;

	if (!rta__get_int(t, v, p, "period", 0, &period))
		return false;
	if (period < 0)
		return rta__bad(t, p, "a timer's period is a number of microseconds, not %lld",
				period);
	if (!period)
		return true; /* an expiry that never moves on: the thread never sleeps on it */
	return (m = rta__seq_map(t, seq, p)) && (tm = rta__map_child(t, m, "timer", YN_MAP, p)) &&
	       rta__put_us(t, tm, "period", period, p) && rta__put_str(t, tm, "name", ref, p) &&
	       rta__put_str(t, tm, "shared", starts(ref, "unique") ? "false" : "true", p) &&
	       rta__put_str(t, tm, "mode", starts(mode, "absolute") ? "absolute" : "relative", p);
}

/* What rt-app runs but cgsim cannot: refused with the reason. */
static bool unmodelled(struct rta_tr *t, const char *key, const char *p)
{
	if (starts(key, "fork"))
		return rta__bad(t, p,
				"rt-app's fork event ('%s') is not modelled: cgsim's threads are "
				"all made when the run starts",
				key);
	if (starts(key, "sem_"))
		return rta__bad(t, p, "rt-app's semaphore events ('%s') are not modelled yet", key);
	return rta__bad(
		t, p,
		"rt-app's memory and I/O events ('%s') are not modelled: what CPU time "
		"they take depends on the machine's memory and devices, which cgsim does not "
		"simulate",
		key);
}

static bool str_event(struct rta_tr *t, const char *key, struct json_object *v, const char *p,
		      const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return rta__bad(t, p, "rt-app's '%s' event takes a name (a string)", key);
	*out = json_object_get_string(v);
	return true;
}

/* The steps of one event @key: @v in phase @path, appended to @seq. */
static bool event(struct rta_tr *t, struct yn *seq, const char *task, const char *path,
		  const char *key, struct json_object *v)
{
	char p[RTA_PATH_LEN];
	const char *name = NULL;

	rta__sub(p, path, key);
	if (starts(key, "run") || starts(key, "sleep")) {
		long long us;

		if (!json_object_is_type(v, json_type_int))
			return rta__bad(t, p, "rt-app's '%s' event takes a number of microseconds",
					key);
		if ((us = json_object_get_int64(v)) < 0 || us > 1000000000000ll)
			return rta__bad(t, p, "'%s': %lld is not a duration in microseconds", key,
					us);
		{
			char d[32];

			snprintf(d, sizeof(d), "%lldus", us);
			return rta__step(t, seq,
					 starts(key, "sleep")	  ? "sleep"
					 : starts(key, "runtime") ? "runtime"
								  : "run",
					 d, p);
		}
	}
	if (starts(key, "mem") || starts(key, "iorun") || starts(key, "fork") ||
	    starts(key, "sem_"))
		return unmodelled(t, key, p);
	if (starts(key, "lock") || starts(key, "unlock") || starts(key, "signal") ||
	    starts(key, "broad") || starts(key, "barrier")) {
		if (!str_event(t, key, v, p, &name))
			return false;
		return rta__step(t, seq,
				 starts(key, "broad")	 ? "broadcast"
				 : starts(key, "lock")	 ? "lock"
				 : starts(key, "unlock") ? "unlock"
				 : starts(key, "signal") ? "signal"
							 : "barrier",
				 name, p);
	}
	if (starts(key, "wait") || starts(key, "sync"))
		return cond_step(t, seq, starts(key, "wait") ? "wait" : "sync", v, p);
	if (starts(key, "timer"))
		return timer_step(t, seq, v, p);
	if (starts(key, "suspend")) {
		if (!str_event(t, key, v, p, &name))
			return false;
		return cond_around(t, seq, *name ? name : task, "wait", p);
	}
	if (starts(key, "resume")) {
		if (!str_event(t, key, v, p, &name))
			return false;
		return cond_around(t, seq, name, "broadcast", p);
	}
	/* yield */
	{
		struct yn *y = rta__mk(t, YN_SCALAR, "yield", p);

		return rta__step_node(t, seq, y);
	}
}

/* ---------------- phases and tasks ---------------- */

/* The keys of a phase (or a task without phases) that are not events. */
static const char *const phase_keys[] = { "loop", "cpus", "policy", "priority", "taskgroup",
	"dl-runtime", "dl-period", "dl-deadline", "util_min", "util_max", "nodes_membind", NULL };
static const char *const task_keys[] = { "instance", "delay", "phases", "runtime", "period",
	"deadline", NULL };

static bool listed(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (!strcmp(*list, key))
			return true;
	return false;
}

/* Notes for the keys cgsim takes but ignores, and for keys rt-app ignores too. */
static void note_ignored(struct rta_tr *t, struct json_object *obj, const char *path, bool task)
{
	char p[RTA_PATH_LEN];

	json_object_object_foreach(obj, key, v)
	{
		(void)v;
		rta__sub(p, path, key);
		if (!strcmp(key, "util_min") || !strcmp(key, "util_max"))
			rta__note(t, p,
				  "%s (uclamp) ignored: cgsim models no CPU frequency or capacity",
				  key);
		else if (!strcmp(key, "nodes_membind"))
			rta__note(t, p, "nodes_membind ignored: cgsim models no NUMA memory");
		else if (!strcmp(key, "dl-period") || !strcmp(key, "dl-deadline"))
			rta__note(t, p, "%s ignored: it applies to SCHED_DEADLINE only", key);
		else if (!is_event(key) && !listed(phase_keys, key) &&
			 !(task && listed(task_keys, key)))
			rta__note(t, p, "unknown key '%s' ignored (rt-app ignores it too)", key);
	}
}

/* The attributes a phase sets at its start, as steps: affinity, policy and nice, slice. */
static bool phase_attrs(struct rta_tr *t, struct yn *seq, struct json_object *ph, const char *path,
			struct yn *task_cpus, bool any_cpus)
{
	char p[RTA_PATH_LEN];
	long long prio, rt;
	bool ok, has_pol, has_prio;
	const char *pol = rta__get_str(ph, "policy", NULL);
	struct yn *cpus = rta__cpus_node(t, ph, path, &ok), *m;
	char *tg;

	if (!ok)
		return false;
	if (any_cpus) {
		struct yn *c = cpus	   ? cpus
			       : task_cpus ? yn_copy(task_cpus)
					   : rta__mk(t, YN_SCALAR, "all", path);

		cpus = NULL;
		if (!(m = rta__seq_map(t, seq, path)) || !rta__put(t, m, "affinity", c, path))
			return (yn_free(m ? NULL : c), false);
	}
	yn_free(cpus);
	has_pol = pol != NULL;
	has_prio = json_object_object_get_ex(ph, "priority", NULL);
	if (has_pol && !rta__check_policy(t, pol, rta__sub(p, path, "policy")))
		return false;
	if (!rta__get_int(t, ph, path, "priority", 0, &prio) ||
	    !rta__get_int(t, ph, path, "dl-runtime", 0, &rt))
		return false;
	if (has_pol && !rta__step(t, seq, "policy", rta__fair_policy(pol), p))
		return false;
	if (has_pol || has_prio) {
		char n[24];

		if (prio < -20 || prio > 19)
			return rta__bad(t, rta__sub(p, path, "priority"),
					"priority %lld: the nice of a fair "
					"policy is -20 to 19 (rt-app exits)",
					prio);
		snprintf(n, sizeof(n), "%lld", prio);
		if (!rta__step(t, seq, "nice", n, has_prio ? rta__sub(p, path, "priority") : p))
			return false;
	}
	if (rt > 0) {
		char d[32];

		snprintf(d, sizeof(d), "%lldus", rt);
		if (!rta__step(t, seq, "slice", d, rta__sub(p, path, "dl-runtime")))
			return false;
	}
	if (!rta__taskgroup(t, ph, path, &tg))
		return false;
	if (tg) {
		ok = rta__step(t, seq, "cgroup", tg, rta__sub(p, path, "taskgroup"));
		free(tg);
		return ok;
	}
	return true;
}

static bool any_event(struct json_object *obj)
{
	json_object_object_foreach(obj, key, v)
	{
		(void)v;
		if (is_event(key))
			return true;
	}
	return false;
}

/* Whether @obj has an event that takes time: run, runtime, sleep, or a timer with a period. */
static bool timed_event(struct json_object *obj)
{
	json_object_object_foreach(obj, key, v)
	{
		struct json_object *per;

		if (starts(key, "run") || starts(key, "sleep"))
			return true;
		if (starts(key, "timer") && json_object_object_get_ex(v, "period", &per) &&
		    json_object_get_int64(per) > 0)
			return true;
	}
	return false;
}

/* The events of @obj (a phase, or a task without phases), in file order, into @seq. */
static bool phase_events(struct rta_tr *t, struct yn *seq, struct json_object *obj,
			 const char *task, const char *path)
{
	size_t before = seq->n;

	json_object_object_foreach(obj, key, v)
	{
		if (is_event(key) && !event(t, seq, task, path, key, v))
			return false;
	}
	if (seq->n == before && !t->failed && !any_event(obj))
		return rta__bad(t, path, "no events here: rt-app refuses a phase without events");
	return !t->failed;
}

/* One phase of a task with phases: its attributes, its events, repeated as it loops. */
static bool phase(struct rta_tr *t, struct yn *steps, struct json_object *ph, const char *task,
		  const char *path, struct yn *task_cpus, bool any_cpus)
{
	long long loop;
	struct yn *body, *rep;
	char n[24];

	if (!json_object_is_type(ph, json_type_object))
		return rta__bad(t, path, "a phase is an object of events and properties");
	note_ignored(t, ph, path, false);
	if (!rta__get_int(t, ph, path, "loop", 1, &loop))
		return false;
	if (!any_event(ph))
		return rta__bad(t, path, "no events here: rt-app refuses a phase without events");
	if (loop != 1 && !timed_event(ph))
		return rta__bad(t, path,
				"this phase loops without a run, runtime, sleep or timer event: "
				"its thread would go round without time passing");
	if (loop == 1)
		return phase_attrs(t, steps, ph, path, task_cpus, any_cpus) &&
		       phase_events(t, steps, ph, task, path);
	if (loop <= 0) {
		rta__note(t, path,
			  "phase loop %lld: rt-app repeats this phase for ever (its count never "
			  "reaches it); cgsim repeats it 10^9 times",
			  loop);
		loop = 1000000000;
	}
	if (!(body = rta__mk(t, YN_SEQ, NULL, path)))
		return false;
	if (!phase_attrs(t, body, ph, path, task_cpus, any_cpus) ||
	    !phase_events(t, body, ph, task, path) || !(rep = rta__mk(t, YN_MAP, NULL, path))) {
		yn_free(body);
		return false;
	}
	snprintf(n, sizeof(n), "%lld", loop);
	if (!rta__put_str(t, rep, "repeat", n, path)) {
		yn_free(body);
		yn_free(rep);
		return false;
	}
	if (!rta__put(t, rep, "steps", body, path))
		return (yn_free(rep), false);
	return rta__step_node(t, steps, rep);
}

/* A thread entry's name from a task's: letters, digits, '_' and '-', not a digit first, new. */
static char *entry_name(struct rta_tr *t, const char *task)
{
	char base[64], *name;
	size_t k = 0;
	char **grown;

	if (*task >= '0' && *task <= '9')
		base[k++] = 't';
	for (const char *c = task; *c && k < 40; c++)
		base[k++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
					    (*c >= '0' && *c <= '9') || *c == '-'
				    ? *c
				    : '_';
	if (!k)
		base[k++] = 't';
	base[k] = '\0';
	name = strdup(base);
	for (unsigned n = 2; name; n++) {
		bool taken = false;

		for (size_t i = 0; i < t->nnames && !taken; i++)
			taken = !strcmp(t->names[i], name);
		if (!taken)
			break;
		free(name);
		name = util_asprintf("%s_%u", base, n);
	}
	if (!name || !(grown = realloc(t->names, (t->nnames + 1) * sizeof(*grown)))) {
		free(name);
		rta__oom(t);
		return NULL;
	}
	t->names = grown;
	t->names[t->nnames++] = name;
	return name;
}

/* The task's own attributes (rt-app sets them once, before its first phase): entry keys. */
static bool task_attrs(struct rta_tr *t, struct yn *e, struct json_object *obj, const char *path,
		       struct yn **cpus)
{
	char p[RTA_PATH_LEN];
	const char *pol = rta__get_str(obj, "policy", t->def_policy);
	long long prio, delay, rt;
	bool ok;
	char *tg;

	if (!rta__check_policy(t, pol,
			       json_object_object_get_ex(obj, "policy", NULL)
				       ? rta__sub(p, path, "policy")
				       : "global\x1f"
					 "default_policy"))
		return false;
	if (!rta__get_int(t, obj, path, "priority", 0, &prio) ||
	    !rta__get_int(t, obj, path, "delay", 0, &delay) ||
	    !rta__get_int(t, obj, path, "dl-runtime", 0, &rt))
		return false;
	if (prio < -20 || prio > 19)
		return rta__bad(t, rta__sub(p, path, "priority"),
				"priority %lld: the nice of a fair policy is "
				"-20 to 19 (rt-app exits)",
				prio);
	if (delay < 0)
		return rta__bad(t, rta__sub(p, path, "delay"),
				"delay %lld: a number of microseconds from the "
				"start",
				delay);
	if (delay && !rta__put_us(t, e, "start", delay, rta__sub(p, path, "delay")))
		return false;
	if (prio) {
		char n[24];

		snprintf(n, sizeof(n), "%lld", prio);
		if (!rta__put_str(t, e, "nice", n, rta__sub(p, path, "priority")))
			return false;
	}
	if (strcmp(rta__fair_policy(pol), "normal") &&
	    !rta__put_str(t, e, "policy", rta__fair_policy(pol), path))
		return false;
	if (rt > 0 && strcmp(pol, "SCHED_IDLE") &&
	    !rta__put_us(t, e, "slice", rt, rta__sub(p, path, "dl-runtime")))
		return false;
	*cpus = rta__cpus_node(t, obj, path, &ok);
	if (!ok)
		return false;
	if (*cpus && !rta__put(t, e, "affinity", yn_copy(*cpus), rta__sub(p, path, "cpus")))
		return false;
	if (!rta__taskgroup(t, obj, path, &tg))
		return false;
	ok = !tg || rta__put_str(t, e, "cgroup", tg, rta__sub(p, path, "taskgroup"));
	free(tg);
	return ok;
}

/* Does the task, or any of its phases, set cpus? (Then every phase sets its affinity.) */
static bool any_cpus(struct json_object *obj, struct json_object *phases)
{
	bool any = json_object_object_get_ex(obj, "cpus", NULL);

	if (phases && json_object_is_type(phases, json_type_object)) {
		json_object_object_foreach(phases, k, v)
		{
			(void)k;
			any |= json_object_is_type(v, json_type_object) &&
			       json_object_object_get_ex(v, "cpus", NULL);
		}
	}
	return any;
}

/* A thread loop without time in it: true after a message. */
static bool has_untimed_loop(struct rta_tr *t, struct json_object *obj, struct json_object *phases,
			     const char *path)
{
	bool any = phases ? false : timed_event(obj);

	if (phases) {
		json_object_object_foreach(phases, k, v)
		{
			(void)k;
			any |= json_object_is_type(v, json_type_object) && timed_event(v);
		}
	}
	return !any && !rta__bad(t, path,
				 "no run, runtime, sleep or timer event: the thread would "
				 "loop over its events without time passing");
}

/* The steps and loops of a task: its phases, or itself as its one phase. */
static bool task_behavior(struct rta_tr *t, struct yn *e, struct json_object *obj, const char *task,
			  const char *path, struct yn *cpus)
{
	struct json_object *phases = NULL;
	struct yn *beh, *ph, *steps;
	char p[RTA_PATH_LEN], n[24];
	long long loop;
	bool has_loop = json_object_object_get_ex(obj, "loop", NULL), ok;

	if (!rta__get_int(t, obj, path, "loop", -1, &loop))
		return false;
	if (!(beh = rta__map_child(t, e, "behavior", YN_MAP, path)) ||
	    !(ph = rta__map_child(t, beh, "phases", YN_MAP, path)) ||
	    !(steps = rta__map_child(t, ph, "steps", YN_SEQ, path)))
		return false;
	if (json_object_object_get_ex(obj, "phases", &phases)) {
		rta__sub(p, path, "phases");
		if (!json_object_is_type(phases, json_type_object) ||
		    !json_object_object_length(phases))
			return rta__bad(t, p, "phases must be an object of phases");
		ok = true;
		json_object_object_foreach(phases, key, v)
		{
			char pp[RTA_PATH_LEN];

			if (ok)
				ok = phase(t, steps, v, task, rta__sub(pp, p, key), cpus,
					   any_cpus(obj, phases));
		}
		ok = ok && !has_untimed_loop(t, obj, phases, path);
	} else {
		/* the task is its one phase; its loop is that phase's (parse_task_data()) */
		ok = phase_events(t, steps, obj, task, path) &&
		     !has_untimed_loop(t, obj, NULL, path);
		if (!has_loop || loop <= 0)
			loop = -1;
	}
	snprintf(n, sizeof(n), "%lld", loop < 0 ? 0 : loop);
	return ok && rta__put_str(t, ph, "loops", n, path);
}

static bool task(struct rta_tr *t, struct yn *threads, const char *name, struct json_object *obj)
{
	char path[RTA_PATH_LEN], p[RTA_PATH_LEN];
	long long inst, loop;
	struct yn *e, *cpus = NULL;
	char *ename, num[24];
	bool ok;

	snprintf(path, sizeof(path), "tasks%c%s", RTA_SEP, name);
	if (!json_object_is_type(obj, json_type_object))
		return rta__bad(t, path, "a task is an object of events and properties");
	if (json_object_object_get_ex(obj, "exec", NULL) ||
	    json_object_object_get_ex(obj, "lock_order", NULL))
		return rta__bad(
			t,
			rta__sub(p, path,
				 json_object_object_get_ex(obj, "exec", NULL) ? "exec"
									      : "lock_order"),
			"this is rt-app's old grammar (exec, lock_order, "
			"resources), which rt-app itself no longer reads; write the task's events "
			"(run, sleep, lock, ...) instead");
	note_ignored(t, obj, path, true);
	if (!rta__get_int(t, obj, path, "instance", 1, &inst) ||
	    !rta__get_int(t, obj, path, "loop", -1, &loop))
		return false;
	if (inst < 0)
		return rta__bad(t, rta__sub(p, path, "instance"),
				"instance %lld: a number of threads", inst);
	if (!inst) {
		rta__note(t, rta__sub(p, path, "instance"),
			  "instance 0: no thread (rt-app starts such a task "
			  "only from a fork event, which cgsim does not model)");
		return true;
	}
	if (!loop && json_object_object_get_ex(obj, "phases", NULL)) {
		rta__note(t, rta__sub(p, path, "loop"),
			  "loop 0: rt-app's thread runs no pass over its phases "
			  "and ends at once; cgsim makes no thread");
		return true;
	}
	if (!(ename = entry_name(t, name)) || !(e = rta__mk(t, YN_MAP, NULL, path)))
		return false;
	snprintf(num, sizeof(num), "%lld", inst);
	ok = (inst == 1 || rta__put_str(t, e, "count", num, rta__sub(p, path, "instance"))) &&
	     task_attrs(t, e, obj, path, &cpus) && task_behavior(t, e, obj, name, path, cpus);
	yn_free(cpus);
	if (!ok) {
		yn_free(e);
		return false;
	}
	return rta__put(t, threads, ename, e, path);
}

/* ---------------- the file ---------------- */

static const char *const quiet_global[] = { "lock_pages", "logdir", "log_basename", "log_size",
	"ftrace", "gnuplot", "io_device", "mem_buffer_size", "cumulative_slack", "frag", NULL };

/* global: the duration (seconds; -1 or absent: until every thread ends) and the policy. */
static bool global(struct rta_tr *t, struct yn *root, struct json_object *g)
{
	char p[RTA_PATH_LEN];
	long long dur;

	t->def_policy = "SCHED_OTHER";
	if (!g)
		return true;
	if (!json_object_is_type(g, json_type_object))
		return rta__bad(t, "global", "global must be an object");
	if (!rta__get_int(t, g, "global", "duration", -1, &dur))
		return false;
	if (dur > 0) {
		char d[32];

		snprintf(d, sizeof(d), "%llds", dur);
		if (!rta__put_str(t, root, "duration", d, rta__sub(p, "global", "duration")))
			return false;
	}
	t->def_policy = rta__get_str(g, "default_policy", "SCHED_OTHER");
	json_object_object_foreach(g, key, v)
	{
		rta__sub(p, "global", key);
		if (!strcmp(key, "calibration"))
			rta__note(t, p,
				  "calibration ignored: a run event is CPU time at the machine's "
				  "reference capacity in cgsim, whatever rt-app's ns per loop");
		else if (!strcmp(key, "pi_enabled") && json_object_get_boolean(v))
			rta__note(
				t, p,
				"pi_enabled ignored: priority inheritance changes nothing between "
				"fair-policy threads (their weight comes from their nice)");
		else if (strcmp(key, "duration") && strcmp(key, "default_policy") &&
			 strcmp(key, "pi_enabled") && !listed(quiet_global, key))
			rta__note(t, p, "unknown key '%s' ignored (rt-app ignores it too)", key);
	}
	return true;
}

/* The scenario's name, from the file's: letters, digits, '_', '-', '.' kept. */
static bool doc_name(struct rta_tr *t, struct yn *root)
{
	const char *b = strrchr(t->fname, '/');
	char name[64];
	size_t k = 0;

	b = b ? b + 1 : t->fname;
	for (; *b && k < sizeof(name) - 1; b++) {
		if (!strcmp(b, ".json"))
			break;
		name[k++] = (*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') ||
					    (*b >= '0' && *b <= '9') || *b == '-' || *b == '.'
				    ? *b
				    : '_';
	}
	if (!k || !strcmp(t->fname, "-"))
		k = (size_t)snprintf(name, sizeof(name), "rt-app");
	name[k] = '\0';
	return rta__put_str(t, root, "name", name, "") &&
	       rta__put(t, root, "description", rta__mk(t, YN_SCALAR, "an rt-app workload", ""),
			"");
}

static bool translate(struct rta_tr *t, struct yn *root)
{
	struct json_object *tasks, *g = NULL;
	struct yn *procs, *proc, *threads, *cgs;

	if (!json_object_is_type(t->j.root, json_type_object) ||
	    !json_object_object_get_ex(t->j.root, "tasks", &tasks))
		return rta__bad(t, "", "an rt-app file is an object with a \"tasks\" key");
	if (!json_object_is_type(tasks, json_type_object) || !json_object_object_length(tasks))
		return rta__bad(t, "tasks", "tasks must be an object of one task or more");
	json_object_object_get_ex(t->j.root, "global", &g);
	json_object_object_foreach(t->j.root, key, v)
	{
		(void)v;
		if (!strcmp(key, "resources"))
			rta__note(t, key,
				  "resources ignored (rt-app ignores this legacy section too)");
		else if (strcmp(key, "tasks") && strcmp(key, "global"))
			rta__note(t, key, "unknown key '%s' ignored (rt-app ignores it too)", key);
	}
	if (!doc_name(t, root) || !global(t, root, g) ||
	    !rta__put_str(t, root, "semantics", "v1", "") ||
	    !(procs = rta__mk(t, YN_MAP, NULL, "tasks")) ||
	    !rta__put(t, root, "processes", procs, "tasks") ||
	    !(proc = rta__mk(t, YN_MAP, NULL, "tasks")) ||
	    !rta__put(t, procs, "rt-app", proc, "tasks") ||
	    !(threads = rta__mk(t, YN_MAP, NULL, "tasks")) ||
	    !rta__put(t, proc, "threads", threads, "tasks"))
		return false;
	json_object_object_foreach(tasks, name, obj)
	{
		if (!task(t, threads, name, obj))
			return false;
	}
	if (!threads->n)
		return rta__bad(t, "tasks",
				"no task makes a thread (instance 0 or loop 0 everywhere)");
	if (!t->ntgs)
		return true;
	if (!(cgs = rta__mk(t, YN_MAP, NULL, "")) || !rta__put(t, root, "cgroups", cgs, ""))
		return false;
	for (size_t i = 0; i < t->ntgs; i++)
		if (strcmp(t->tgs[i], "/") &&
		    !rta__put(t, cgs, t->tgs[i], rta__mk(t, YN_MAP, NULL, "tasks"), "tasks"))
			return false;
	return true;
}

int rta_read(const char *fname, const char *text, size_t len, bool origins, struct rta_doc *out,
	     char *err, size_t errlen)
{
	struct rta_tr t = {
		.fname = fname, .doc = out, .origins = origins, .err = err, .errlen = errlen
	};
	int e;

	memset(out, 0, sizeof(*out));
	if (errlen)
		err[0] = '\0';
	if ((e = rta__parse(fname, text, len, &t.j, err, errlen)))
		return e == -EFBIG ? -EINVAL : e;
	if ((out->root = yn_new(YN_MAP, 1, 1)))
		translate(&t, out->root);
	else
		rta__oom(&t);
	rta__json_free(&t.j);
	/* the notes in file order: an insertion sort, stable, of a handful */
	for (size_t i = 1; i < out->nnotes; i++)
		for (size_t k = i; k > 0 && t.note_at[k - 1] > t.note_at[k]; k--) {
			char *n = out->notes[k];
			int a = t.note_at[k];

			out->notes[k] = out->notes[k - 1];
			out->notes[k - 1] = n;
			t.note_at[k] = t.note_at[k - 1];
			t.note_at[k - 1] = a;
		}
	free(t.note_at);
	for (size_t i = 0; i < t.ntgs; i++)
		free(t.tgs[i]);
	free(t.tgs);
	for (size_t i = 0; i < t.nnames; i++)
		free(t.names[i]);
	free(t.names);
	if (t.failed) {
		rta_doc_free(out);
		return t.failed;
	}
	return 0;
}

void rta_doc_free(struct rta_doc *d)
{
	yn_free(d->root);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	free(d->notes);
	for (size_t i = 0; i < d->norigins; i++)
		free(d->origins[i]);
	free(d->origins);
	memset(d, 0, sizeof(*d));
}
