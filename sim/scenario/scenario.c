// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scenario.c - the scenario format (docs/scenario-format.md): a YAML tree (sim/scenario/yaml.h),
 * overrides applied to it by dotted path (scn_tree.c), then read section by section
 * (scn_layout.c, scn_plan.c, with scn_values.c's parsers) into struct scenario, with a
 * positioned message for anything not accepted. This file drives the load and frees.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"
#include "sim/scenario/transform.h"

static const char *const top_keys[] = { "name", "description", "seed", "duration", "warmup",
	"interval", "machine", "semantics", "scheduler", "cgroups", "sessions", "processes",
	"timeline", "variants", "sweep", "expect", NULL };

/* Check that the expectations name variants, processes and threads that exist. */
static bool check_names(struct rd *r, const struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *ex = yn_get(root, "expect");

	for (size_t i = 0; i < sc->nexpect; i++) {
		struct scn_expect *e = &sc->expect[i];
		const struct yn *n = ex ? ex->kids[i] : NULL;
		bool ok = !e->variant || !strcmp(e->variant, "base");

		for (size_t v = 0; v < sc->nvariants && !ok; v++)
			ok = !strcmp(sc->variants[v].name, e->variant);
		if (!ok)
			return scn__bad(r, yn_get(n, "variant"), "no variant '%s' (declare it "
					"under variants:)", e->variant);
		if (e->target == SCN_T_PROCESS || e->target == SCN_T_THREAD) {
			const char *slash = strchr(e->name, '/');
			size_t plen = e->target == SCN_T_THREAD && slash ? (size_t)(slash - e->name)
									   : strlen(e->name);
			const struct scn_process *p = NULL;

			if (e->target == SCN_T_THREAD && !slash)
				return scn__bad(r, yn_get(n, "thread"), "thread must be "
						"PROCESS/NAME.N, "
						"e.g. qemu/vcpu.1, not '%s'", e->name);
			for (size_t k = 0; k < sc->nprocs; k++)
				if (strlen(sc->procs[k].name) == plen &&
				    !strncmp(sc->procs[k].name, e->name, plen))
					p = &sc->procs[k];
			if (!p)
				return scn__bad(r, yn_get(n, e->target == SCN_T_THREAD ? "thread" : "process"),
						"no process '%.*s'", (int)plen, e->name);
			if (e->target == SCN_T_THREAD) {
				const char *tn = slash + 1, *dot = strrchr(tn, '.');
				bool found = false;

				for (size_t k = 0; dot && k < p->nthreads; k++) {
					char *end;
					long idx = strtol(dot + 1, &end, 10);

					if (strlen(p->threads[k].name) == (size_t)(dot - tn) &&
					    !strncmp(p->threads[k].name, tn, (size_t)(dot - tn)) &&
					    !*end && idx >= 1 && idx <= p->threads[k].count)
						found = true;
				}
				if (!found)
					return scn__bad(r, yn_get(n, "thread"), "process '%s' has "
							"no thread '%s'", p->name, tn);
			}
		}
	}
	return true;
}

static bool read_all(struct rd *r, struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *v;
	int cpus = 1;
	uint32_t hz = 1000;

	if (!scn__want(r, root, YN_MAP, "a scenario") || !scn__known_keys(r, root, top_keys, "a "
									  "scenario"))
		return false;
	if (!(v = yn_get(root, "name")))
		return scn__bad(r, root, "a scenario needs a name");
	if (!scn__read_name(r, v, "name", &sc->name))
		return false;
	if ((v = yn_get(root, "description"))) {
		if (!scn__scalar(r, v, "description") || !(sc->description = scn__xstrdup(r, v, v->str)))
			return false;
	}
	sc->seed = 1;
	if ((v = yn_get(root, "seed")) && !scn__parse_u64(r, v, "seed", &sc->seed))
		return false;
	if (!(v = yn_get(root, "duration")))
		return scn__bad(r, root, "a scenario needs a duration (e.g. duration: 10s)");
	if (!scn__parse_time(r, v, "duration", 1000000, SCN_MAX_DURATION_NS, &sc->duration))
		return false;
	if ((v = yn_get(root, "warmup"))) {
		if (!scn__parse_time(r, v, "warmup", 0, SCN_MAX_DURATION_NS, &sc->warmup))
			return false;
		if (sc->warmup >= sc->duration)
			return scn__bad(r, v, "warmup must be shorter than the duration");
	}
	sc->interval = 100000000;
	if ((v = yn_get(root, "interval")) &&
	    !scn__parse_time(r, v, "interval", 1000000, SCN_MAX_DURATION_NS, &sc->interval))
		return false;
	/*
	 * The wakeup path of the machine the defaults were measured on (docs/latency.md): Linux
	 * 6.18 in a 2-vCPU Firecracker VM, HZ 250. Medians 65 us and 52 us.
	 */
	sc->timer_latency = (struct sim_dist){ SIM_DIST_LOGNORMAL, 65000, 5000 };
	sc->idle_exit = (struct sim_dist){ SIM_DIST_LOGNORMAL, 53000, 10000 };
	if ((v = yn_get(root, "machine")) && !scn__read_machine(r, v, &cpus, &hz, sc))
		return false;
	if (sc->clock_phase_set && sc->clock_phase >= 1000000000ull / hz)
		return scn__bad(r, yn_get(yn_get(root, "machine"), "clock_phase"),
				"machine.clock_phase must be shorter than the tick period (%llu ns at hz %u)",
				1000000000ull / hz, (unsigned)hz);
	sc->semantics = CG_SEM_V2;
	if ((v = yn_get(root, "semantics"))) {
		if (!scn__scalar(r, v, "semantics"))
			return false;
		if (cg_semantics_parse(v->str, &sc->semantics))
			return scn__bad(r, v, "semantics must be v2, rfc2017 or v1, not '%s'", v->str);
	}
	sched_config_default(&sc->sched, SCHED_POLICY_EEVDF, cpus);
	sc->sched.tun.hz = hz;
	if ((v = yn_get(root, "scheduler")) && !scn__read_scheduler(r, v, &sc->sched))
		return false;
	if ((v = yn_get(root, "cgroups")) && !scn__read_cgroups(r, v))
		return false;
	if ((v = yn_get(root, "sessions")) && !scn__read_sessions(r, v))
		return false;
	if (!(v = yn_get(root, "processes")))
		return scn__bad(r, root, "a scenario needs processes (at least one thread to run)");
	if (!scn__read_processes(r, v, cpus) || !scn__count_barriers(r))
		return false;
	if ((v = yn_get(root, "timeline")) && !scn__read_timeline(r, v))
		return false;
	if ((v = yn_get(root, "variants")) && !scn__read_variants_decl(r, v))
		return false;
	if ((v = yn_get(root, "sweep")) && !scn__read_sweep(r, v))
		return false;
	if ((v = yn_get(root, "expect")) && !scn__read_expect(r, v))
		return false;
	return check_names(r, root);
}

static void free_threads(struct scn_threads *t)
{
	free(t->name);
	free(t->cgroup);
	for (size_t i = 0; t->resume && i < t->spec.behavior.nphases; i++)
		free(t->resume[i]);
	free(t->resume);
	free(t->step_pos);
	free(t->phases);
	free(t->masks);
	for (size_t i = 0; i < t->npaths; i++)
		free(t->paths[i]);
	free(t->paths);
	for (size_t i = 0; i < t->ntimers; i++)
		free(t->timers[i]);
	free(t->timers);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void scn_free(struct scenario *sc)
{
	if (!sc)
		return;
	free(sc->text);
	free_names(sc->mutexes, sc->nmutexes);
	free_names(sc->conds, sc->nconds);
	free_names(sc->barriers, sc->nbarriers);
	free_names(sc->timers, sc->ntimers);
	for (size_t i = 0; i < sc->ncgroups; i++) {
		for (size_t j = 0; j < sc->cgroups[i].nwrites; j++) {
			free(sc->cgroups[i].writes[j].file);
			free(sc->cgroups[i].writes[j].value);
		}
		free(sc->cgroups[i].writes);
		free(sc->cgroups[i].path);
	}
	free(sc->cgroups);
	for (size_t i = 0; i < sc->nprocs; i++) {
		for (size_t j = 0; j < sc->procs[i].nthreads; j++)
			free_threads(&sc->procs[i].threads[j]);
		free(sc->procs[i].threads);
		free(sc->procs[i].name);
		free(sc->procs[i].cgroup);
		free(sc->procs[i].session);
	}
	free(sc->procs);
	for (size_t i = 0; i < sc->nsessions; i++)
		free(sc->sessions[i].name);
	free(sc->sessions);
	for (size_t i = 0; i < sc->ntimeline; i++)
		free(sc->timeline[i].op);
	free(sc->timeline);
	for (size_t i = 0; i < sc->nvariants; i++) {
		free(sc->variants[i].name);
		free(sc->variants[i].transform);
		free(sc->variants[i].ipo_group);
		free(sc->variants[i].ipo_process);
	}
	free(sc->variants);
	for (size_t i = 0; i < sc->nexpect; i++) {
		free(sc->expect[i].variant);
		free(sc->expect[i].name);
	}
	free(sc->expect);
	for (size_t i = 0; i < sc->nsweep; i++)
		free(sc->sweep_values[i]);
	free(sc->sweep_values);
	free(sc->sweep_key);
	free(sc->sweep_name);
	for (size_t i = 0; i < sc->norigins; i++)
		free(sc->origins[i]);
	free(sc->origins);
	free(sc->file);
	free(sc->name);
	free(sc->description);
	free(sc->variant);
	free(sc);
}

/* The scenario file ("-": standard input), with the messages its limits ask for. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf;
	int e;

	if (!f) {
		snprintf(err, errlen, "cgsim: cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	e = util_read_stream(f, YN_MAX_INPUT, &buf, len);
	if (f != stdin)
		fclose(f);
	if (e == -EFBIG)
		snprintf(err, errlen, "%s:1:1: error: the file is larger than 4 MiB", path);
	else if (e == -ENOMEM)
		snprintf(err, errlen, "cgsim: out of memory reading %s", path);
	else if (e)
		snprintf(err, errlen, "cgsim: cannot read %s: %s", path, strerror(-e));
	return e ? NULL : buf;
}

struct scenario *scn_load(const char *path, const char *text, const char *variant,
			  const char *const *sets, size_t nsets, char *err, size_t errlen)
{
	return scn_load_swept(path, text, variant, sets, nsets, SCN_NO_SWEEP, err, errlen);
}

struct scenario *scn_load_swept(const char *path, const char *text, const char *variant,
				const char *const *sets, size_t nsets, size_t sweep, char *err,
				size_t errlen)
{
	struct rd r = { .file = path, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t len;
	struct yn *root;
	struct scenario *sc = NULL;
	bool ok;

	if (errlen)
		err[0] = '\0';
	if (!text) {
		buf = slurp(path, &len, err, errlen);
		if (!buf)
			return NULL;
		text = buf;
	} else {
		len = strlen(text);
	}
	root = yn_parse(path, text, len, err, errlen);
	if (!root) {
		free(buf);
		return NULL;
	}
	sc = calloc(1, sizeof(*sc));
	if (sc)
		sc->origins = calloc(nsets ? nsets : 1, sizeof(*sc->origins));
	if (!sc || !sc->origins) {
		snprintf(err, errlen, "cgsim: out of memory");
		ok = false;
	} else {
		r.sc = sc;
		/* kept, so that variants load from these bytes: a pipe can be read only once */
		sc->text = buf ? buf : strdup(text);
		buf = NULL;
		sc->file = strdup(path);
		sc->variant = strdup(variant ? variant : "base");
		ok = sc->file && sc->variant && sc->text;
		if (!ok)
			snprintf(err, errlen, "cgsim: out of memory");
		ok = ok && scn__apply_overrides(&r, root, variant, sets, nsets, sweep) &&
		     read_all(&r, root);
		for (size_t i = 0; ok && variant && i < sc->nvariants; i++)
			if (!strcmp(sc->variants[i].name, variant) && sc->variants[i].transform)
				ok = !scn_interpose(sc, &sc->variants[i], err, errlen);
	}
	yn_free(root);
	free(buf);
	if (!ok) {
		scn_free(sc);
		return NULL;
	}
	return sc;
}
