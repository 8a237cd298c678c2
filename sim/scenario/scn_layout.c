// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_layout.c - the scenario loader's sections that describe the system
 * (sim/scenario/scn_internal.h): machine, scheduler, cgroups, sessions, and processes with their threads
 * and behaviours.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"

/* ---------------- sections ---------------- */

bool scn__read_name(struct rd *r, const struct yn *n, const char *what, char **out)
{
	if (!scn__scalar(r, n, what))
		return false;
	if (!n->str[0] || strlen(n->str) > 63)
		return scn__bad(r, n, "%s must be 1 to 63 characters", what);
	for (const char *p = n->str; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return scn__bad(r, n, "%s '%s' may hold only letters, digits, '_', '-' "
					"and '.'",
					what, n->str);
	/* names become file and directory names (compare -o DIR writes DIR/VARIANT/) */
	if (!strcmp(n->str, ".") || !strcmp(n->str, ".."))
		return scn__bad(r, n, "%s cannot be '%s'", what, n->str);
	*out = scn__xstrdup(r, n, n->str);
	return *out != NULL;
}

/* machine.steal: a share of the time, 0 .. 0.5, as a number (0.05) or a percentage (5%). */
static bool read_steal(struct rd *r, const struct yn *v, double *out)
{
	char *end;
	double x;

	if (!scn__scalar(r, v, "machine.steal"))
		return false;
	x = strtod(v->str, &end);
	if (end != v->str && end[0] == '%' && !end[1]) {
		x /= 100;
		end++;
	}
	if (end == v->str || *end || !isfinite(x) || x < 0 || x > 0.5)
		return scn__bad(r, v, "machine.steal must be a share of the time from 0 to 0.5 "
				"(0.05, or 5%%), not '%s'", v->str);
	*out = x;
	return true;
}

bool scn__read_machine(struct rd *r, const struct yn *m, int *cpus, uint32_t *hz,
		       struct scenario *sc)
{
	static const char *const keys[] = { "cpus", "hz", "autogroup", "timer_latency",
					    "idle_exit", "clock_phase", "steal", "steal_period",
					    "costs", "topology", "numa", NULL };
	const struct yn *v;
	long long x;

	if (!scn__want(r, m, YN_MAP, "machine") || !scn__known_keys(r, m, keys, "machine"))
		return false;
	if ((v = yn_get(m, "cpus"))) {
		if (!scn__parse_int(r, v, "machine.cpus", 1, SCHED_MAX_CPUS, &x))
			return false;
		*cpus = (int)x;
	}
	if (!scn__read_topology(r, m, cpus, yn_get(m, "cpus") != NULL))
		return false;
	if ((v = yn_get(m, "hz"))) {
		if (!scn__parse_int(r, v, "machine.hz", 1, 10000, &x))
			return false;
		*hz = (uint32_t)x;
	}
	if ((v = yn_get(m, "autogroup"))) {
		if (!scn__parse_bool(r, v, "machine.autogroup", &sc->autogroup))
			return false;
	}
	if ((v = yn_get(m, "timer_latency")) &&
	    !scn__parse_dist(r, v, "machine.timer_latency", &sc->timer_latency))
		return false;
	if ((v = yn_get(m, "idle_exit")) && !scn__parse_dist(r, v, "machine.idle_exit", &sc->idle_exit))
		return false;
	if ((v = yn_get(m, "steal")) && !read_steal(r, v, &sc->steal))
		return false;
	if ((v = yn_get(m, "steal_period")) &&
	    !scn__parse_time(r, v, "machine.steal_period", 1000000, 1000000000, &sc->steal_period))
		return false;
	if ((v = yn_get(m, "clock_phase"))) {
		if (!scn__scalar(r, v, "machine.clock_phase"))
			return false;
		if (strcmp(v->str, "random")) {
			if (scn_parse_time(v->str, &sc->clock_phase))
				return scn__bad(r, v, "machine.clock_phase must be random or a "
						"time (e.g. 1.5ms), not '%s'", v->str);
			sc->clock_phase_set = true;
		}
	}
	return true;
}

/* scheduler.tunables: the sysctls, each in its unit and range. */
static bool read_tunables(struct rd *r, const struct yn *t, struct sched_config *cfg)
{
	static const char *const keys[] = { "base_slice", "latency", "min_granularity",
		"wakeup_granularity", "migration_cost", "nr_migrate", "tunable_scaling", NULL };

	if (!scn__want(r, t, YN_MAP, "scheduler.tunables") ||
	    !scn__known_keys(r, t, keys, "scheduler.tunables"))
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const char *k = t->keys[i]->str;
		const struct yn *val = t->kids[i];
		char what[64];
		uint64_t ns;
		long long x;

		snprintf(what, sizeof(what), "scheduler.tunables.%s", k);
		if (!strcmp(k, "nr_migrate")) {
			if (!scn__parse_int(r, val, what, 1, 1024, &x))
				return false;
			ns = (uint64_t)x;
		} else if (!strcmp(k, "tunable_scaling")) {
			if (!scn__scalar(r, val, what))
				return false;
			if (!strcmp(val->str, "none") || !strcmp(val->str, "0"))
				ns = 0;
			else if (!strcmp(val->str, "log") || !strcmp(val->str, "1"))
				ns = 1;
			else if (!strcmp(val->str, "linear") || !strcmp(val->str, "2"))
				ns = 2;
			else
				return scn__bad(r, val, "%s must be none, log or linear, not '%s'",
						what, val->str);
		} else if (!strcmp(k, "migration_cost")) {
			if (!scn__parse_time(r, val, what, 0, 1000000000ull, &ns))
				return false;
		} else if (!scn__parse_time(r, val, what, 100000, 1000000000ull, &ns)) {
			return false;
		}
		if (sched_tunable_set(&cfg->tun, k, ns))
			return scn__bad(r, val, "%s: value out of range", what);
	}
	return true;
}

/* scheduler.features: sched_feat switches by their kernel names. */
static bool read_features(struct rd *r, const struct yn *t, struct sched_config *cfg)
{
	if (!scn__want(r, t, YN_MAP, "scheduler.features"))
		return false;
	for (size_t i = 0; i < t->n; i++) {
		enum sched_feat f;
		char what[64];
		bool on;

		if (sched_feat_parse(t->keys[i]->str, &f)) {
			char list[600] = "";
			size_t len = 0;

			for (int k = 0; k < SCHED_FEAT_NR; k++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							k ? ", " : "",
							sched_feat_name((enum sched_feat)k));
			return scn__bad(r, t->keys[i], "unknown feature '%s' (expected one of: %s)",
					t->keys[i]->str, list);
		}
		snprintf(what, sizeof(what), "scheduler.features.%s", t->keys[i]->str);
		if (!scn__parse_bool(r, t->kids[i], what, &on))
			return false;
		cfg->feat[f] = on;
	}
	return true;
}

/* @what (scheduler.costs, machine.costs): the overhead model's costs, up to 100 us each. */
bool scn__read_costs(struct rd *r, const struct yn *t, const char *what,
		     struct sched_config *cfg)
{
	static const char *const keys[] = { "switch", "wakeup", "sleep", "tick", "level", "walk",
					    NULL };
	uint64_t *const field[] = { &cfg->cost.switch_ns, &cfg->cost.wakeup_ns,
				    &cfg->cost.sleep_ns, &cfg->cost.tick_ns, &cfg->cost.level_ns,
				    &cfg->cost.walk_ns };

	if (!scn__want(r, t, YN_MAP, what) || !scn__known_keys(r, t, keys, what))
		return false;
	for (size_t i = 0; i < t->n; i++) {
		char key[64];
		size_t k = 0;

		while (strcmp(keys[k], t->keys[i]->str))
			k++;	/* known_keys() found it */
		snprintf(key, sizeof(key), "%s.%s", what, keys[k]);
		if (!scn__parse_time(r, t->kids[i], key, 0, 100000, field[k]))
			return false;
	}
	return true;
}

/*
 * scheduler.kernel: the version whose defaults the configuration starts from, before anything
 * else of the scenario is read (the newest modelled when the file names none).
 */
bool scn__read_kernel(struct rd *r, const struct yn *sched, int cpus, struct sched_config *cfg)
{
	const struct yn *v = sched && sched->kind == YN_MAP ? yn_get(sched, "kernel") : NULL;
	struct sched_kernel k = SCN_DEFAULT_KERNEL;

	if (v) {
		if (!scn__scalar(r, v, "scheduler.kernel"))
			return false;
		if (sched_kernel_parse(v->str, &k))
			return scn__bad(r, v, "scheduler.kernel must be MAJOR.MINOR or "
					"MAJOR.MINOR.PATCH (e.g. 7.3, 6.12.65), not '%s'", v->str);
	}
	if (sched_config_kernel(cfg, k, cpus))
		return scn__bad(r, v, "scheduler.kernel %s is not a kernel cgsim models (expected "
				"MAJOR.MINOR or MAJOR.MINOR.PATCH of %s)", v ? v->str : "(default)",
				sched_kernels_modelled());
	return true;
}

/* scheduler.policy: the version's, or another, which brings its nearest kernel's features. */
static bool read_policy(struct rd *r, const struct yn *v, struct sched_config *cfg)
{
	char list[64] = "";
	size_t len = 0, n = 0;
	enum sched_policy pol;

	if (!scn__scalar(r, v, "scheduler.policy"))
		return false;
	if (!sched_policy_parse(v->str, &pol)) {
		sched_config_set_policy(cfg, pol);
		return true;
	}
	/* the names the scheduler takes, in its order */
	for (int p = 0; p <= SCHED_POLICY_EEVDF_FLAT; p++)
		n += !sched_policy_parse(sched_policy_name((enum sched_policy)p), &pol);
	for (int p = 0, i = 0; p <= SCHED_POLICY_EEVDF_FLAT; p++) {
		const char *name = sched_policy_name((enum sched_policy)p);

		if (sched_policy_parse(name, &pol))
			continue;
		i++;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i == 1 ? "" : (size_t)i == n ? " or " : ", ", name);
	}
	return scn__bad(r, v, "scheduler.policy must be %s, not '%s'", list, v->str);
}

/* scheduler.cgroup_mode: 7.3's switch; a kernel before it computes smp and takes no other. */
static bool read_cgroup_mode(struct rd *r, const struct yn *v, struct sched_config *cfg)
{
	enum sched_cgroup_mode mode;
	char k[SCHED_KERNEL_NAME_MAX];

	if (!scn__scalar(r, v, "scheduler.cgroup_mode"))
		return false;
	if (sched_cgroup_mode_parse(v->str, &mode)) {
		char list[64] = "";
		size_t len = 0;

		for (int m = 0; m < SCHED_CGROUP_NR; m++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						m ? ", " : "",
						sched_cgroup_mode_name((enum sched_cgroup_mode)m));
		return scn__bad(r, v, "unknown scheduler.cgroup_mode '%s' (expected one of: %s)",
				v->str, list);
	}
	if (mode != SCHED_CGROUP_SMP && !sched_kernel_has_cgroup_mode(cfg->kernel))
		return scn__bad(r, v, "scheduler.cgroup_mode %s needs kernel 7.3 or later: kernel "
				"%s has no cgroup_mode and weighs every group as smp",
				v->str, sched_kernel_name(cfg->kernel, k, sizeof(k)));
	cfg->cgroup_mode = mode;
	return true;
}

/*
 * scheduler: the version's defaults (scn__read_kernel(), already applied), then policy,
 * tunables, features and cgroup_mode over them, then what is cgsim's own.
 */
bool scn__read_scheduler(struct rd *r, const struct yn *m, struct sched_config *cfg)
{
	static const char *const keys[] = { "kernel", "policy", "cgroup_mode", "tunables",
					    "features", "costs", "tick_elision", "timeline_array",
					    "check", "load_attach", "blocked_load", "jitter",
					    "newidle_ratio", NULL };
	/* the on/off keys, each a bool of struct sched_config */
	static const struct {
		const char *key;
		size_t off;
	} switches[] = {
		{ "tick_elision", offsetof(struct sched_config, tick_elision) },
		{ "timeline_array", offsetof(struct sched_config, timeline_array) },
		{ "check", offsetof(struct sched_config, check) },
		{ "load_attach", offsetof(struct sched_config, load_attach) },
		{ "blocked_load", offsetof(struct sched_config, blocked_load) },
		{ "jitter", offsetof(struct sched_config, jitter) },
	};
	const struct yn *v, *t;

	if (!scn__want(r, m, YN_MAP, "scheduler") || !scn__known_keys(r, m, keys, "scheduler"))
		return false;
	if ((v = yn_get(m, "policy")) && !read_policy(r, v, cfg))
		return false;
	if (((t = yn_get(m, "tunables")) && !read_tunables(r, t, cfg)) ||
	    ((t = yn_get(m, "features")) && !read_features(r, t, cfg)) ||
	    ((v = yn_get(m, "cgroup_mode")) && !read_cgroup_mode(r, v, cfg)) ||
	    ((t = yn_get(m, "costs")) && !scn__read_costs(r, t, "scheduler.costs", cfg)))
		return false;
	if ((v = yn_get(m, "newidle_ratio"))) {
		long long x;

		if (!scn__parse_int(r, v, "scheduler.newidle_ratio", 0, 1024, &x))
			return false;
		cfg->newidle_ratio = (uint32_t)x;
	}
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		char what[64];

		if (!(v = yn_get(m, switches[i].key)))
			continue;
		snprintf(what, sizeof(what), "scheduler.%s", switches[i].key);
		if (!scn__parse_bool(r, v, what, (bool *)((char *)cfg + switches[i].off)))
			return false;
	}
	return true;
}

/* A cgroup path as the model takes it: "" for the root, no leading or trailing '/'. */
bool scn__read_path(struct rd *r, const struct yn *n, const char *what, char **out)
{
	const char *s;
	size_t len;

	if (!scn__scalar(r, n, what))
		return false;
	s = n->str;
	while (*s == '/')
		s++;
	len = strlen(s);
	while (len && s[len - 1] == '/')
		len--;
	if (len > 1024)
		return scn__bad(r, n, "%s is longer than 1024 characters", what);
	for (size_t i = 0; i < len; i++)
		if (s[i] == ' ' || s[i] == '\t' || (s[i] == '/' && i + 1 < len && s[i + 1] == '/'))
			return scn__bad(r, n, "%s '%s': cgroup names hold no blanks and no empty "
					"parts",
					what, n->str);
	*out = malloc(len + 1);
	if (!*out)
		return scn__bad(r, n, "out of memory");
	memcpy(*out, s, len);
	(*out)[len] = '\0';
	return true;
}

static const struct scn_cgroup *cg_sort_base;

/* By path, then by position in the file. */
static int cmp_cg_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(cg_sort_base[x].path, cg_sort_base[y].path);

	return c ? c : (x > y) - (x < y);
}

/*
 * Two entries that name the same cgroup once written out ("a", "/a" and "a/" are one path)
 * would be merged silently: refuse the later one, naming the earlier. Sorting keeps this
 * O(n log n) for the largest files allowed.
 */
static bool cgroups_distinct(struct rd *r, const struct yn *m)
{
	struct scenario *sc = r->sc;
	size_t *ix, later = 0, first = 0;
	bool dup = false;

	if (sc->ncgroups < 2)
		return true;
	ix = malloc(sc->ncgroups * sizeof(*ix));
	if (!ix)
		return scn__bad(r, m, "out of memory");
	for (size_t i = 0; i < sc->ncgroups; i++)
		ix[i] = i;
	cg_sort_base = sc->cgroups;
	qsort(ix, sc->ncgroups, sizeof(*ix), cmp_cg_index);
	for (size_t i = 1; i < sc->ncgroups; i++) {
		if (strcmp(sc->cgroups[ix[i - 1]].path, sc->cgroups[ix[i]].path))
			continue;
		/* report the pair whose later entry comes first in the file */
		if (!dup || ix[i] < later) {
			later = ix[i];
			first = ix[i - 1];
		}
		dup = true;
	}
	free(ix);
	if (!dup)
		return true;
	return scn__bad(r, m->keys[later], "cgroup '%s' is the same cgroup as '%s' at line %d",
			m->keys[later]->str, m->keys[first]->str, sc->cgroups[first].pos.line);
}

bool scn__read_cgroups(struct rd *r, const struct yn *m)
{
	struct scenario *sc = r->sc;

	if (!scn__want(r, m, YN_MAP, "cgroups"))
		return false;
	if (m->n > SCN_MAX_CGROUPS)
		return scn__bad(r, m, "more than %d cgroups", SCN_MAX_CGROUPS);
	sc->cgroups = calloc(m->n ? m->n : 1, sizeof(*sc->cgroups));
	if (!sc->cgroups)
		return scn__bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_cgroup *cg = &sc->cgroups[sc->ncgroups++];
		const struct yn *files = m->kids[i];

		cg->pos = scn__pos_of(m->keys[i]);
		if (!scn__read_path(r, m->keys[i], "a cgroup path", &cg->path))
			return false;
		if (files->kind == YN_SCALAR && !files->str[0])
			continue;	/* "vm:" with nothing: just mkdir */
		if (!scn__want(r, files, YN_MAP, "a cgroup's entry (its interface files)"))
			return false;
		cg->writes = calloc(files->n ? files->n : 1, sizeof(*cg->writes));
		if (!cg->writes)
			return scn__bad(r, files, "out of memory");
		for (size_t j = 0; j < files->n; j++) {
			struct scn_write *w = &cg->writes[cg->nwrites++];
			const struct yn *v = files->kids[j];

			w->pos = scn__pos_kv(files->keys[j], v);
			if (!(w->file = scn__xstrdup(r, files->keys[j], files->keys[j]->str)))
				return false;
			if (strchr(w->file, '/'))
				return scn__bad(r, files->keys[j], "'%s' is not an interface file "
						"name "
						"(write nested cgroups as their own entries, e.g. a/b:)",
						w->file);
			if (v->kind == YN_SEQ) {
				/* a list of words, written joined by spaces */
				size_t len = 1;

				for (size_t k = 0; k < v->n; k++) {
					if (!scn__scalar(r, v->kids[k], "a word of an interface "
							 "file value"))
						return false;
					len += strlen(v->kids[k]->str) + 1;
				}
				w->value = calloc(len, 1);
				if (!w->value)
					return scn__bad(r, v, "out of memory");
				for (size_t k = 0; k < v->n; k++) {
					if (k)
						strcat(w->value, " ");
					strcat(w->value, v->kids[k]->str);
				}
			} else {
				if (!scn__scalar(r, v, "an interface file value"))
					return false;
				if (!(w->value = scn__xstrdup(r, v, v->str)))
					return false;
			}
		}
	}
	return cgroups_distinct(r, m);
}

/* An affinity: "0-3,6" as a string, or a list of CPU numbers, into @mask (SIM_MASK_WORDS). */
bool scn__read_cpus(struct rd *r, const struct yn *n, int cpus, uint64_t *mask)
{
	memset(mask, 0, SIM_MASK_WORDS * sizeof(*mask));
	if (n->kind == YN_SEQ) {
		for (size_t i = 0; i < n->n; i++) {
			long long c;

			if (!scn__parse_int(r, n->kids[i], "an affinity CPU", 0, cpus - 1, &c))
				return false;
			mask[c / 64] |= 1ull << (c % 64);
		}
	} else {
		const char *p;

		if (!scn__scalar(r, n, "affinity"))
			return false;
		p = n->str;
		while (*p) {
			char *end;
			long a, b;

			if (*p < '0' || *p > '9')	/* no blank or sign before a number */
				goto syntax;
			a = strtol(p, &end, 10);
			if (end == p || a < 0)
				goto syntax;
			b = a;
			p = end;
			if (*p == '-') {
				if (p[1] < '0' || p[1] > '9')
					goto syntax;
				b = strtol(p + 1, &end, 10);
				if (end == p + 1 || b < a)
					goto syntax;
				p = end;
			}
			if (b >= cpus)
				return scn__bad(r, n, "affinity '%s' names CPU %ld; the machine "
						"has CPUs 0 to %d", n->str, b, cpus - 1);
			for (long c = a; c <= b; c++)
				mask[c / 64] |= 1ull << (c % 64);
			if (*p == ',')
				p++;
			else if (*p)
				goto syntax;
		}
	}
	for (size_t w = 0; w < SIM_MASK_WORDS; w++)
		if (mask[w])
			return true;
	return scn__bad(r, n, "affinity names no CPU");
syntax:
	return scn__bad(r, n, "affinity must be a CPU list like \"0-3,6\" or a list of CPU "
			"numbers, not '%s'", n->str);
}

static bool read_periodic(struct rd *r, const struct yn *body, struct scn_threads *t,
			  int cpus)
{
	static const char *const keys[] = { "run", "period", NULL };
	struct sim_behavior *b = &t->spec.behavior;
	const struct yn *v;

	(void)cpus;
	if (!scn__want(r, body, YN_MAP, "behavior.periodic") ||
	    !scn__known_keys(r, body, keys, "behavior.periodic"))
		return false;
	if (!(v = yn_get(body, "run")))
		return scn__bad(r, body, "behavior.periodic needs run (CPU time per period)");
	if (!scn__parse_dist(r, v, "behavior.periodic.run", &b->run))
		return false;
	if (!(v = yn_get(body, "period")))
		return scn__bad(r, body, "behavior.periodic needs period");
	return scn__parse_time(r, v, "behavior.periodic.period", 1000, SCN_MAX_DURATION_NS,
			       &b->period_ns);
}

static bool read_bursty(struct rd *r, const struct yn *body, struct scn_threads *t, int cpus)
{
	static const char *const keys[] = { "run", "sleep", NULL };
	struct sim_behavior *b = &t->spec.behavior;
	const struct yn *v;

	(void)cpus;
	if (!scn__want(r, body, YN_MAP, "behavior.bursty") ||
	    !scn__known_keys(r, body, keys, "behavior.bursty"))
		return false;
	if (!(v = yn_get(body, "run")))
		return scn__bad(r, body, "behavior.bursty needs run");
	if (!scn__parse_dist(r, v, "behavior.bursty.run", &b->run))
		return false;
	if (!(v = yn_get(body, "sleep")))
		return scn__bad(r, body, "behavior.bursty needs sleep");
	return scn__parse_dist(r, v, "behavior.bursty.sleep", &b->sleep);
}

/*
 * The behaviours a scenario can give a thread, besides the plain "busy": a new one is a row
 * here, a reader, and its kind in sim/workload/workload.h run by sim/machine/machine_events.c.
 */
static const struct {
	const char *name;
	enum sim_behavior_kind kind;
	bool (*read)(struct rd *r, const struct yn *body, struct scn_threads *t, int cpus);
} behaviors[] = {
	{ "periodic", SIM_BEHAV_PERIODIC, read_periodic },
	{ "bursty", SIM_BEHAV_BURSTY, read_bursty },
	{ "phases", SIM_BEHAV_PHASES, scn__read_phases },
};

static bool read_behavior(struct rd *r, const struct yn *n, struct scn_threads *t, int cpus)
{
	struct sim_behavior *b = &t->spec.behavior;

	if (n->kind == YN_SCALAR) {
		if (!strcmp(n->str, "busy")) {
			b->kind = SIM_BEHAV_BUSY;
			return true;
		}
		return scn__bad(r, n, "behavior must be busy or a mapping with one of periodic, "
				"bursty, phases; not '%s'", n->str);
	}
	if (!scn__want(r, n, YN_MAP, "behavior"))
		return false;
	if (n->n != 1)
		return scn__bad(r, n, "behavior must have exactly one of periodic, bursty, phases");
	for (size_t i = 0; i < sizeof(behaviors) / sizeof(behaviors[0]); i++) {
		if (strcmp(n->keys[0]->str, behaviors[i].name))
			continue;
		b->kind = behaviors[i].kind;
		return behaviors[i].read(r, n->kids[0], t, cpus);
	}
	return scn__bad(r, n->keys[0], "unknown behavior '%s' (expected busy, periodic, bursty or "
			"phases)", n->keys[0]->str);
}

static bool read_threads(struct rd *r, const struct yn *n, struct scn_threads *t, int cpus)
{
	static const char *const keys[] = { "count", "cgroup", "nice", "policy", "slice",
					    "affinity", "start", "stop", "behavior", NULL };
	const struct yn *v;
	long long x;

	t->count = 1;
	if (n->kind == YN_SCALAR && !n->str[0])
		return scn__bad(r, n, "thread '%s' needs at least a behavior", t->name);
	if (!scn__want(r, n, YN_MAP, "a thread entry") || !scn__known_keys(r, n, keys, "a thread "
									   "entry"))
		return false;
	if ((v = yn_get(n, "count"))) {
		if (!scn__parse_int(r, v, "count", 1, SCN_MAX_THREADS, &x))
			return false;
		t->count = (int)x;
	}
	if ((v = yn_get(n, "cgroup"))) {
		t->cgroup_pos = scn__pos_of(v);
		if (!scn__read_path(r, v, "cgroup", &t->cgroup))
			return false;
	}
	if ((v = yn_get(n, "nice"))) {
		if (!scn__parse_int(r, v, "nice", SCHED_NICE_MIN, SCHED_NICE_MAX, &x))
			return false;
		t->spec.nice = (int)x;
	}
	if ((v = yn_get(n, "policy"))) {
		if (!scn__scalar(r, v, "policy"))
			return false;
		if (!strcmp(v->str, "normal"))
			t->spec.policy = SCHED_THREAD_NORMAL;
		else if (!strcmp(v->str, "batch"))
			t->spec.policy = SCHED_THREAD_BATCH;
		else if (!strcmp(v->str, "idle"))
			t->spec.policy = SCHED_THREAD_IDLE;
		else
			return scn__bad(r, v, "policy must be normal, batch or idle, not '%s'", v->str);
	}
	if ((v = yn_get(n, "slice")) &&
	    !scn__parse_time(r, v, "slice", 100000, 100000000, &t->spec.slice_ns))
		return false;
	if ((v = yn_get(n, "affinity"))) {
		if (!scn__read_cpus(r, v, cpus, t->affinity))
			return false;
		t->has_affinity = true;
	}
	if ((v = yn_get(n, "start")) &&
	    !scn__parse_time(r, v, "start", 0, SCN_MAX_DURATION_NS, &t->spec.start_ns))
		return false;
	if ((v = yn_get(n, "stop")) &&
	    !scn__parse_time(r, v, "stop", 1, SCN_MAX_DURATION_NS, &t->spec.stop_ns))
		return false;
	if (t->spec.stop_ns && t->spec.stop_ns <= t->spec.start_ns)
		return scn__bad(r, yn_get(n, "stop"), "stop must come after start");
	if (!(v = yn_get(n, "behavior")))
		return scn__bad(r, n, "thread '%s' needs a behavior (busy, periodic, bursty or "
				"phases)",
				t->name);
	return read_behavior(r, v, t, cpus);
}

bool scn__read_processes(struct rd *r, const struct yn *m, int cpus)
{
	static const char *const keys[] = { "cgroup", "session", "threads", "trace", "select",
					    "speed", "mode", "sleeps", NULL };
	struct scenario *sc = r->sc;

	if (!scn__want(r, m, YN_MAP, "processes"))
		return false;
	if (!m->n)
		return scn__bad(r, m, "a scenario needs processes (at least one thread to run)");
	sc->procs = calloc(m->n ? m->n : 1, sizeof(*sc->procs));
	if (!sc->procs)
		return scn__bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_process *p = &sc->procs[sc->nprocs++];
		const struct yn *body = m->kids[i], *v, *th;

		p->pos = scn__pos_of(m->keys[i]);
		if (!scn__read_name(r, m->keys[i], "a process name", &p->name))
			return false;
		if (strchr(p->name, '.'))
			return scn__bad(r, m->keys[i], "a process name may not hold '.'");
		if (!scn__want(r, body, YN_MAP, "a process entry") ||
		    !scn__known_keys(r, body, keys, "a process entry"))
			return false;
		if ((v = yn_get(body, "cgroup"))) {
			p->cgroup_pos = scn__pos_of(v);
			if (!scn__read_path(r, v, "cgroup", &p->cgroup))
				return false;
		} else {
			p->cgroup_pos = p->pos;
			if (!(p->cgroup = scn__xstrdup(r, body, "")))
				return false;
		}
		if ((v = yn_get(body, "session")) && !scn__read_name(r, v, "session", &p->session))
			return false;
		if (yn_get(body, "trace")) {
			if (!scn__read_trace_process(r, body, p))
				return false;
			continue;
		}
		if ((v = yn_get(body, "select")) || (v = yn_get(body, "speed")) ||
		    (v = yn_get(body, "mode")) || (v = yn_get(body, "sleeps")))
			return scn__bad(r, v, "%s goes with trace", v == yn_get(body, "select") ?
					"select" : v == yn_get(body, "speed") ? "speed" :
					v == yn_get(body, "mode") ? "mode" : "sleeps");
		if (!(th = yn_get(body, "threads")))
			return scn__bad(r, body, "process '%s' needs threads", p->name);
		if (!scn__want(r, th, YN_MAP, "threads"))
			return false;
		if (!th->n)
			return scn__bad(r, th, "process '%s' needs at least one thread entry", p->name);
		p->threads = calloc(th->n, sizeof(*p->threads));
		if (!p->threads)
			return scn__bad(r, th, "out of memory");
		for (size_t j = 0; j < th->n; j++) {
			struct scn_threads *t = &p->threads[p->nthreads++];

			t->pos = scn__pos_of(th->keys[j]);
			if (!scn__read_name(r, th->keys[j], "a thread name", &t->name))
				return false;
			if (strchr(t->name, '.'))
				return scn__bad(r, th->keys[j], "a thread name may not hold '.'");
			if (!read_threads(r, th->kids[j], t, cpus))
				return false;
			if (sc->total_threads + t->count > SCN_MAX_THREADS)
				return scn__bad(r, th->keys[j], "more than %d threads in all",
						SCN_MAX_THREADS);
			sc->total_threads += t->count;
		}
	}
	return scn__trace_link(r);
}

/* sessions: { NAME: { nice: N } }: the nice value of each session's autogroup. */
bool scn__read_sessions(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "nice", NULL };
	struct scenario *sc = r->sc;

	if (!scn__want(r, m, YN_MAP, "sessions"))
		return false;
	sc->sessions = calloc(m->n ? m->n : 1, sizeof(*sc->sessions));
	if (!sc->sessions)
		return scn__bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_session *ss = &sc->sessions[sc->nsessions++];
		const struct yn *v;
		long long x;

		if (!scn__read_name(r, m->keys[i], "a session name", &ss->name))
			return false;
		if (!scn__want(r, m->kids[i], YN_MAP, "a session") ||
		    !scn__known_keys(r, m->kids[i], keys, "a session"))
			return false;
		if ((v = yn_get(m->kids[i], "nice"))) {
			if (!scn__parse_int(r, v, "nice", SCHED_NICE_MIN, SCHED_NICE_MAX, &x))
				return false;
			ss->nice = (int)x;
		}
	}
	return true;
}
