// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_plan.c - the scenario loader's sections that describe the experiment
 * (sim/scenario/scn_internal.h): timeline, expect, variants and sweep.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"

bool scn__read_timeline(struct rd *r, const struct yn *s)
{
	static const char *const keys[] = { "at", "do", NULL };
	struct scenario *sc = r->sc;

	if (!scn__want(r, s, YN_SEQ, "timeline"))
		return false;
	if (s->n > SCN_MAX_TIMELINE)
		return scn__bad(r, s, "more than %d timeline entries", SCN_MAX_TIMELINE);
	sc->timeline = calloc(s->n ? s->n : 1, sizeof(*sc->timeline));
	if (!sc->timeline)
		return scn__bad(r, s, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		struct scn_event *e = &sc->timeline[sc->ntimeline++];
		const struct yn *n = s->kids[i], *v;

		if (!scn__want(r, n, YN_MAP, "a timeline entry") ||
		    !scn__known_keys(r, n, keys, "a timeline entry"))
			return false;
		if (!(v = yn_get(n, "at")))
			return scn__bad(r, n, "a timeline entry needs at (a time)");
		if (!scn__parse_time(r, v, "at", 0, SCN_MAX_DURATION_NS, &e->at))
			return false;
		if (!(v = yn_get(n, "do")))
			return scn__bad(r, n, "a timeline entry needs do (a cgroupfs operation, "
					"e.g. \"write vm/cpu.weight 400\")");
		if (!scn__scalar(r, v, "do"))
			return false;
		e->pos = scn__pos_of(v);
		if (!(e->op = scn__xstrdup(r, v, v->str)))
			return false;
		if (i && e->at < sc->timeline[i - 1].at)
			return scn__bad(r, yn_get(n, "at"), "timeline entries must be in time order");
	}
	return true;
}

static const struct {
	const char *key;
	enum scn_metric m;
	bool time;
	bool machine;
} metrics[] = {
	{ "share", SCN_M_SHARE, false, false },
	{ "cpu", SCN_M_CPU, true, false },
	{ "wait", SCN_M_WAIT, true, false },
	{ "latency_p50", SCN_M_LAT_P50, true, false },
	{ "latency_p90", SCN_M_LAT_P90, true, false },
	{ "latency_p99", SCN_M_LAT_P99, true, false },
	{ "latency_max", SCN_M_LAT_MAX, true, false },
	{ "latency_p999", SCN_M_LAT_P999, true, false },
	{ "latency_min", SCN_M_LAT_MIN, true, false },
	{ "latency_mean", SCN_M_LAT_MEAN, true, false },
	{ "delayed", SCN_M_DELAYED, false, false },
	{ "switches", SCN_M_SWITCHES, false, false },
	{ "migrations", SCN_M_MIGRATIONS, false, false },
	{ "jain", SCN_M_JAIN, false, true },
	{ "max_abs_error", SCN_M_MAX_ABS_ERROR, false, true },
	{ "max_rel_error", SCN_M_MAX_REL_ERROR, false, true },
	{ "overhead", SCN_M_OVERHEAD, false, true },
	{ "level_ops_per_sec", SCN_M_LEVEL_OPS, false, true },
	{ "switches_per_sec", SCN_M_SWITCH_RATE, false, true },
};

/* A number, or a time for time metrics. */
static bool expect_number(struct rd *r, const struct yn *n, bool time, const char *s,
			  double *out)
{
	char *end;
	uint64_t ns;

	if (time) {
		if (scn_parse_time(s, &ns))
			return scn__bad(r, n, "expected a time with a unit (e.g. 2ms), not '%s'", s);
		*out = (double)ns;
		return true;
	}
	*out = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (end == s || *end || !isfinite(*out))
		return scn__bad(r, n, "expected a number, not '%s'", s);
	return true;
}

/*
 * sweep.metric: what the sweep shows of its target, a share (the default) or one of its
 * wakeup figures; only a process or a thread has those.
 */
static bool sweep_metric(struct rd *r, const struct yn *v, struct scenario *sc)
{
	static const char *const allowed = "share, latency_p50, latency_p90, latency_p99, "
					   "latency_p999, latency_max, latency_min, latency_mean or "
					   "delayed";

	if (!scn__scalar(r, v, "sweep.metric"))
		return false;
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		enum scn_metric m = metrics[i].m;

		if (strcmp(v->str, metrics[i].key))
			continue;
		if (m != SCN_M_SHARE && m != SCN_M_DELAYED &&
		    !(metrics[i].time && m != SCN_M_CPU && m != SCN_M_WAIT))
			break;
		if (m != SCN_M_SHARE && (sc->sweep_target == SCN_T_GROUP ||
					 sc->sweep_target == SCN_T_MACHINE))
			return scn__bad(r, v, "sweep.metric %s needs a process: or thread: to "
					"measure", v->str);
		if (sc->sweep_target == SCN_T_MACHINE)
			return scn__bad(r, v, "sweep.metric share needs a group:, process: or "
					"thread:");
		sc->sweep_metric = m;
		return true;
	}
	return scn__bad(r, v, "unknown sweep.metric '%s' (expected %s)", v->str, allowed);
}

/*
 * The keys of expect entry @n: its target (at most one of group, process, thread) into @e, and
 * its one metric, whose value node goes to *@mv and index in metrics[] to *@mi.
 */
static bool expect_keys(struct rd *r, const struct yn *n, struct scn_expect *e,
			const struct yn **mv, size_t *mi, int *targets)
{
	for (size_t k = 0; k < n->n; k++) {
		const char *key = n->keys[k]->str;
		bool found = false;

		if (!strcmp(key, "variant") || !strcmp(key, "tolerance"))
			continue;
		if (!strcmp(key, "group") || !strcmp(key, "process") || !strcmp(key, "thread")) {
			if ((*targets)++)
				return scn__bad(r, n->keys[k], "an expect entry names at most one of "
						"group, process, thread");
			e->target = key[0] == 'g' ? SCN_T_GROUP
				    : key[0] == 'p' ? SCN_T_PROCESS : SCN_T_THREAD;
			if (!scn__scalar(r, n->kids[k], key))
				return false;
			if (e->target == SCN_T_GROUP) {
				if (!scn__read_path(r, n->kids[k], "group", &e->name))
					return false;
			} else if (!(e->name = scn__xstrdup(r, n->kids[k], n->kids[k]->str))) {
				return false;
			}
			continue;
		}
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
			if (strcmp(key, metrics[m].key))
				continue;
			if (*mv)
				return scn__bad(r, n->keys[k], "an expect entry checks one metric; "
						"'%s' and '%s' are two", metrics[*mi].key, key);
			*mv = n->kids[k];
			*mi = m;
			found = true;
		}
		if (!found)
			return scn__bad(r, n->keys[k], "unknown key '%s' in an expect entry "
					"(expected variant, group, process or thread, tolerance, "
					"and one metric: share, cpu, wait, latency_p50, latency_p90, "
					"latency_p99, latency_p999, latency_max, latency_min, latency_mean, "
					"delayed, switches, migrations, jain, "
					"max_abs_error, max_rel_error, overhead, level_ops_per_sec, "
					"switches_per_sec)", key);
	}
	return true;
}

/* The metric's value @mv of entry @n: "X" with a tolerance, or a bound "< X", ">= X", ... */
static bool expect_value(struct rd *r, const struct yn *n, const struct yn *mv, size_t mi,
			 struct scn_expect *e)
{
	const char *t = mv->str;
	const struct yn *v;
	int cmp = 0;	/* 1 <, 2 <=, 3 >, 4 >= */
	double x;

	if (t[0] == '<' || t[0] == '>') {
		cmp = t[0] == '<' ? 1 : 3;
		t++;
		if (*t == '=') {
			cmp++;
			t++;
		}
		while (*t == ' ')
			t++;
	}
	if (!expect_number(r, mv, metrics[mi].time, t, &x))
		return false;
	if (cmp == 1 || cmp == 2) {
		e->max = x;
	} else if (cmp == 3 || cmp == 4) {
		e->min = x;
	} else {
		e->value = x;
		e->has_value = true;
	}
	v = yn_get(n, "tolerance");
	if (e->has_value) {
		if (!v)
			return scn__bad(r, n, "'%s: %s' needs a tolerance (or write a bound: "
					"\"< X\", \">= X\")", metrics[mi].key, mv->str);
		if (!scn__scalar(r, v, "tolerance") ||
		    !expect_number(r, v, metrics[mi].time, v->str, &e->tolerance))
			return false;
		if (e->tolerance < 0)
			return scn__bad(r, v, "tolerance must not be negative");
	} else if (v) {
		return scn__bad(r, v, "a tolerance goes with a value, not with a bound");
	}
	return true;
}

bool scn__read_expect(struct rd *r, const struct yn *s)
{
	struct scenario *sc = r->sc;

	if (!scn__want(r, s, YN_SEQ, "expect"))
		return false;
	sc->expect = calloc(s->n ? s->n : 1, sizeof(*sc->expect));
	if (!sc->expect)
		return scn__bad(r, s, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		struct scn_expect *e = &sc->expect[sc->nexpect++];
		const struct yn *n = s->kids[i], *mv = NULL, *v;
		size_t mi = 0;
		int targets = 0;

		e->min = -(double)INFINITY;
		e->max = (double)INFINITY;
		e->pos = scn__pos_of(n);
		if (!scn__want(r, n, YN_MAP, "an expect entry") ||
		    !expect_keys(r, n, e, &mv, &mi, &targets))
			return false;
		if (!mv)
			return scn__bad(r, n, "an expect entry needs a metric (share, latency_p99, "
					"jain, ...)");
		e->metric = metrics[mi].m;
		if (metrics[mi].machine && targets)
			return scn__bad(r, n, "'%s' is a machine-wide metric: no group, process or "
					"thread", metrics[mi].key);
		if (!metrics[mi].machine && !targets)
			return scn__bad(r, n, "'%s' needs a group, process or thread",
					metrics[mi].key);
		if (!scn__scalar(r, mv, metrics[mi].key) || !expect_value(r, n, mv, mi, e))
			return false;
		if ((v = yn_get(n, "variant")) && !scn__read_name(r, v, "variant", &e->variant))
			return false;
	}
	return true;
}

bool scn__read_variants_decl(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "set", "transform", "interpose", NULL };
	static const char *const ipo_keys[] = { "group", "weight", "process", NULL };
	struct scenario *sc = r->sc;

	if (!scn__want(r, m, YN_MAP, "variants"))
		return false;
	sc->variants = calloc(m->n ? m->n : 1, sizeof(*sc->variants));
	if (!sc->variants)
		return scn__bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_variant *v = &sc->variants[sc->nvariants++];
		const struct yn *body = m->kids[i], *t;

		v->pos = scn__pos_of(m->keys[i]);
		if (!scn__read_name(r, m->keys[i], "a variant name", &v->name))
			return false;
		if (!strcmp(v->name, "base"))
			return scn__bad(r, m->keys[i], "'base' is the file as written; it cannot "
					"be declared");
		if (!scn__want(r, body, YN_MAP, "a variant") || !scn__known_keys(r, body, keys, "a variant"))
			return false;
		if ((t = yn_get(body, "set")) && !scn__want(r, t, YN_MAP, "a variant's set"))
			return false;
		if ((t = yn_get(body, "transform"))) {
			if (!scn__scalar(r, t, "transform"))
				return false;
			if (strcmp(t->str, "interpose"))
				return scn__bad(r, t, "transform must be interpose, not '%s'", t->str);
			if (!(v->transform = scn__xstrdup(r, t, t->str)))
				return false;
		}
		v->ipo_weight = 100;
		if ((t = yn_get(body, "interpose"))) {
			const struct yn *o;
			long long w;

			if (!v->transform)
				return scn__bad(r, t, "interpose: options go with transform: "
						"interpose");
			if (!scn__want(r, t, YN_MAP, "interpose") ||
			    !scn__known_keys(r, t, ipo_keys, "interpose"))
				return false;
			if ((o = yn_get(t, "group")) &&
			    !scn__read_name(r, o, "interpose.group", &v->ipo_group))
				return false;
			if ((o = yn_get(t, "process")) &&
			    !scn__read_name(r, o, "interpose.process", &v->ipo_process))
				return false;
			if ((o = yn_get(t, "weight"))) {
				if (!scn__parse_int(r, o, "interpose.weight", 1, 10000, &w))
					return false;
				v->ipo_weight = (unsigned)w;
			}
		}
	}
	return true;
}

/* Up to this many keys in one sweep. */
#define SWEEP_MAX_KEYS 16

/* The scalars of @n (a scalar, or a list of 1 .. @max of them) joined by ", " into *@out. */
static bool joined(struct rd *r, const struct yn *n, size_t max, const char *what, char **out)
{
	size_t len = 1, at = 0;

	if (n->kind == YN_SCALAR)
		return (*out = scn__xstrdup(r, n, n->str)) != NULL;
	if (n->kind != YN_SEQ || !n->n || n->n > max)
		return scn__bad(r, n, "%s must be a scalar or a list of 1 to %zu scalars", what, max);
	for (size_t j = 0; j < n->n; j++) {
		if (!scn__scalar(r, n->kids[j], what))
			return false;
		len += strlen(n->kids[j]->str) + 2;
	}
	if (!(*out = malloc(len)))
		return scn__bad(r, n, "out of memory");
	for (size_t j = 0; j < n->n; j++)
		at += (size_t)snprintf(*out + at, len - at, "%s%s", j ? ", " : "", n->kids[j]->str);
	return true;
}

/*
 * sweep: { key: DOTTED.PATH or [PATH, ...], values: [V, ...] (each a list of one value per key
 * for a list of keys), labels: [L, ...], group: PATH | process: NAME | thread: NAME }.
 * sweep_key and sweep_values are what reports show: the keys and the values joined by ", ",
 * or the labels.
 */
bool scn__read_sweep(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "key", "values", "labels", "group", "process",
					    "thread", "metric", NULL };
	struct scenario *sc = r->sc;
	const struct yn *v, *key, *labels;
	size_t nkeys;

	if (!scn__want(r, m, YN_MAP, "sweep") || !scn__known_keys(r, m, keys, "sweep"))
		return false;
	sc->sweep_pos = scn__pos_of(m);
	if (!(key = yn_get(m, "key")))
		return scn__bad(r, m, "sweep needs key (a dotted path, e.g. "
				"processes.app.threads.worker.count, or a list of them)");
	if (!joined(r, key, SWEEP_MAX_KEYS, "sweep.key", &sc->sweep_key))
		return false;
	nkeys = key->kind == YN_SEQ ? key->n : 1;
	for (size_t j = 0; j < nkeys; j++) {
		const struct yn *k = key->kind == YN_SEQ ? key->kids[j] : key;

		if (strpbrk(k->str, "'\"`$\\ \t"))
			return scn__bad(r, k, "sweep.key is a dotted path: no quotes, blanks or '$'");
	}
	if (!(v = yn_get(m, "values")))
		return scn__bad(r, m, "sweep needs values (a list)");
	if (!scn__want(r, v, YN_SEQ, "sweep.values"))
		return false;
	if (!v->n || v->n > 1000)
		return scn__bad(r, v, "sweep.values must have 1 to 1000 values");
	labels = yn_get(m, "labels");
	if (labels && (!scn__want(r, labels, YN_SEQ, "sweep.labels")))
		return false;
	if (labels && labels->n != v->n)
		return scn__bad(r, labels, "sweep.labels must have one label a value (%zu), not %zu",
				v->n, labels->n);
	sc->sweep_values = calloc(v->n, sizeof(*sc->sweep_values));
	if (!sc->sweep_values)
		return scn__bad(r, v, "out of memory");
	for (size_t i = 0; i < v->n; i++) {
		const struct yn *x = v->kids[i];

		if (key->kind == YN_SEQ && (x->kind != YN_SEQ || x->n != nkeys))
			return scn__bad(r, x, "a value of a sweep over %zu keys is a list of %zu "
					"values, one a key", nkeys, nkeys);
		if (key->kind != YN_SEQ && !scn__scalar(r, x, "a sweep value"))
			return false;
		if (labels && !scn__scalar(r, labels->kids[i], "a sweep label"))
			return false;
		if (!(labels ? (sc->sweep_values[i] = scn__xstrdup(r, labels->kids[i],
								   labels->kids[i]->str)) != NULL
			     : joined(r, x, nkeys, "a sweep value", &sc->sweep_values[i])))
			return false;
		sc->nsweep++;
	}
	sc->sweep_target = SCN_T_MACHINE;
	if ((v = yn_get(m, "group"))) {
		sc->sweep_target = SCN_T_GROUP;
		if (!scn__read_path(r, v, "sweep.group", &sc->sweep_name))
			return false;
	}
	if ((v = yn_get(m, "process"))) {
		if (sc->sweep_target != SCN_T_MACHINE)
			return scn__bad(r, v, "sweep shows one group, process or thread");
		sc->sweep_target = SCN_T_PROCESS;
		if (!scn__read_name(r, v, "sweep.process", &sc->sweep_name))
			return false;
	}
	if ((v = yn_get(m, "thread"))) {
		if (sc->sweep_target != SCN_T_MACHINE)
			return scn__bad(r, v, "sweep shows one group, process or thread");
		sc->sweep_target = SCN_T_THREAD;
		if (!scn__scalar(r, v, "sweep.thread") ||
		    !(sc->sweep_name = scn__xstrdup(r, v, v->str)))
			return false;
		if (!strchr(v->str, '/'))
			return scn__bad(r, v, "sweep.thread is PROCESS/NAME.N, as the report names "
					"threads, not '%s'", v->str);
	}
	sc->sweep_metric = sc->sweep_target == SCN_T_MACHINE ? SCN_M_OVERHEAD : SCN_M_SHARE;
	return !(v = yn_get(m, "metric")) || sweep_metric(r, v, sc);
}
