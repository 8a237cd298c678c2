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
#include <sys/stat.h>

#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"
#include "sim/scenario/rtapp.h"
#include "sim/scenario/transform.h"

static const char *const top_keys[] = { "name", "description", "seed", "duration", "warmup",
	"interval", "machine", "semantics", "scheduler", "cgroups", "sessions", "processes",
	"timeline", "variants", "sweep", "expect", "workload", NULL };


static char *slurp(const char *path, size_t *len, char *err, size_t errlen);
static char *beside(const char *path, const char *name);

/*
 * A machine cost profile (docs/overhead.md), as `cgsim calibrate --live --profile` writes it:
 *
 *	cgsim-costs: 1
 *	costs: { switch: 1.2us, wakeup: 0.6us, sleep: 0.36us, tick: 0.4us, level: 13ns, walk: 8ns }
 *	measured: { ... }	(what it was measured on; read as text, not used)
 *
 * Its messages name the profile's own lines. The version key comes first so that a file that
 * is not a profile is refused before anything of it is quoted back.
 */
static bool read_profile(struct rd *r, const struct yn *at, struct sched_config *cfg)
{
	static const char *const keys[] = { "cgsim-costs", "costs", "measured", NULL };
	char *file = beside(r->file, at->str), *text, err[2048];
	struct rd pr = { .err = r->err, .errlen = r->errlen, .sc = r->sc };
	struct stat st;
	const struct yn *v;
	struct yn *root;
	size_t len;

	if (!file)
		return scn__bad(r, at, "out of memory");
	/* a FIFO or a device named by a hostile file would block or never end */
	if (!stat(file, &st) && !S_ISREG(st.st_mode)) {
		scn__bad(r, at, "machine.costs: %s is not a regular file (a cost profile)", file);
		free(file);
		return false;
	}
	text = slurp(file, &len, err, sizeof(err));
	if (!text) {
		free(file);
		return scn__bad(r, at, "machine.costs: %s",
				strstr(err, ": ") ? strstr(err, ": ") + 2 : err);
	}
	root = yn_parse(file, text, len, r->err, r->errlen);
	free(text);
	pr.file = file;
	if (!root) {
		r->failed = true;	/* the message names the profile */
	} else if (root->kind != YN_MAP || !(v = yn_get(root, "cgsim-costs")) ||
		   v->kind != YN_SCALAR || strcmp(v->str, "1")) {
		scn__bad(&pr, root, "not a cgsim cost profile: expected 'cgsim-costs: 1' first "
			 "(a file written by cgsim calibrate --live --profile FILE)");
	} else if (scn__known_keys(&pr, root, keys, "a cost profile")) {
		if (!(v = yn_get(root, "costs")))
			scn__bad(&pr, root, "a cost profile needs costs: { switch, wakeup, sleep, "
				 "tick, level, walk }");
		else
			scn__read_costs(&pr, v, "costs", cfg);
	}
	r->failed = r->failed || pr.failed;
	yn_free(root);
	free(file);
	return !r->failed;
}

/* machine.costs: a cost profile's file name, or the same costs inline. */
static bool read_machine_costs(struct rd *r, const struct yn *v, struct sched_config *cfg)
{
	if (v->kind == YN_SCALAR)
		return read_profile(r, v, cfg);
	return scn__read_costs(r, v, "machine.costs", cfg);
}

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

/* What the scenario is called and what it is about, and its seed (1 when not given). */
static bool read_identity(struct rd *r, const struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *v;

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
	return true;
}

/*
 * How long the run is, how much of its start is warm-up (measured after it), and the interval
 * of its time series (100 ms when not given). An rt-app workload that runs until its threads
 * end gives no duration, which its message says.
 */
static bool read_times(struct rd *r, const struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *v;

	if (!(v = yn_get(root, "duration")) && r->rtapp)
		return scn__bad(r, root, "rt-app runs this workload until every thread ends or it is "
				"stopped (global.duration is -1 or absent): give the time to simulate, "
				"e.g. --set duration=10s");
	if (!v)
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
	return true;
}

/*
 * The scenario at @root, section by section, each read after what it needs of the others (the
 * machine's CPUs, the processes an expectation names).
 */
static bool read_all(struct rd *r, struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *v;
	int cpus = 1;
	uint32_t hz = 1000;

	if (!scn__want(r, root, YN_MAP, "a scenario") || !scn__known_keys(r, root, top_keys, "a "
									  "scenario"))
		return false;
	if (!read_identity(r, root) || !read_times(r, root))
		return false;
	/*
	 * The wakeup path of the machine the defaults were measured on (docs/latency.md): Linux
	 * 6.18 in a 2-vCPU Firecracker VM, HZ 250. Medians 65 us and 52 us.
	 */
	sc->timer_latency = (struct sim_dist){ SIM_DIST_LOGNORMAL, 65000, 5000 };
	sc->steal_period = 10000000;
	sc->idle_exit = (struct sim_dist){ SIM_DIST_LOGNORMAL, 53000, 10000 };
	/*
	 * the kernel's defaults first, on one CPU without machine:, whose reader sets the machine
	 * (scn__read_topology()); the rest of scheduler: overrides them (scn__read_scheduler())
	 */
	if (!scn__read_kernel(r, yn_get(root, "scheduler"), cpus, &sc->sched))
		return false;
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
	sc->sched.tun.hz = hz;
	if ((v = yn_get(yn_get(root, "machine"), "costs")) && !read_machine_costs(r, v, &sc->sched))
		return false;
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
	free_names(sc->notes, sc->nnotes);
	free(sc->file);
	free(sc->name);
	free(sc->description);
	free(sc->variant);
	free((void *)sc->sched.machine.distance);	/* the scenario's (scn_topology.c) */
	scn_source_put(sc->src);
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

/* Whether @path is a cgroup the layout has: declared, an ancestor of one, or a timeline mkdir. */
static bool known_group(const struct scenario *sc, const char *path)
{
	size_t len = strlen(path);

	if (!len)
		return true;	/* the root */
	for (size_t i = 0; i < sc->ncgroups; i++) {
		const char *c = sc->cgroups[i].path;

		if (!strncmp(c, path, len) && (!c[len] || c[len] == '/'))
			return true;
	}
	for (size_t i = 0; i < sc->ntimeline; i++) {
		const char *op = sc->timeline[i].op, *a;

		while (*op == ' ' || *op == '\t')
			op++;
		if (strncmp(op, "mkdir ", 6))
			continue;
		for (a = op + 6; *a == ' ' || *a == '/'; a++)
			;
		if (!strncmp(a, path, len) && (!a[len] || a[len] == '/' || a[len] == ' '))
			return true;
	}
	return false;
}

static bool expect_for(const struct scn_expect *e, const char *variant)
{
	return !strcmp(e->variant ? e->variant : "base", variant);
}

/*
 * The groups the variant's expect: entries name exist in its layout (after its transform,
 * which makes groups of its own): a misspelt one is a load error, not a FAIL at the end.
 */
static bool check_groups(struct rd *r)
{
	const struct scenario *sc = r->sc;

	for (size_t i = 0; i < sc->nexpect; i++) {
		const struct scn_expect *e = &sc->expect[i];

		if (e->target != SCN_T_GROUP || !expect_for(e, sc->variant) ||
		    known_group(sc, e->name))
			continue;
		r->failed = true;
		util_errf(r->err, r->errlen, r->file, e->pos.origin, e->pos.line, e->pos.col,
			  "no group '%s' in the layout of variant %s (groups are the cgroups: "
			  "entries, their parents and timeline mkdirs)", e->name, sc->variant);
		return false;
	}
	return true;
}


/*
 * A scenario file read and parsed once (sim/scenario/scenario.h): its bytes, its document with
 * a workload: merged in, and what an rt-app workload brought along. Each scenario loaded from
 * it works on a copy of @root and holds a reference: the copies' nodes name @origins.
 */
struct scn_source {
	unsigned refs;
	char *path;
	char *text;		/* the bytes as read (a pipe can be read only once) */
	struct yn *root;	/* never changed once read: every load copies it */
	bool rtapp;		/* the file is an rt-app workload itself */
	char **notes;		/* "FILE:LINE:COL: note: ..." of what cgsim ignores */
	size_t nnotes;
	char **origins;		/* the strings the nodes' origin fields point to */
	size_t norigins;
	struct scn_traces *traces;	/* what trace: processes read, for every load (scn_trace.c) */
};

/* Take @d's notes and origins into @s (@d keeps its tree). */
static bool take_doc(struct scn_source *s, struct rta_doc *d)
{
	char **o = realloc(s->origins, (s->norigins + d->norigins + 1) * sizeof(*o));
	char **n = o ? realloc(s->notes, (s->nnotes + d->nnotes + 1) * sizeof(*n)) : NULL;

	if (o)
		s->origins = o;
	if (!n)
		return false;
	s->notes = n;
	for (size_t i = 0; i < d->norigins; i++)
		s->origins[s->norigins++] = d->origins[i];
	for (size_t i = 0; i < d->nnotes; i++)
		s->notes[s->nnotes++] = d->notes[i];
	free(d->origins);
	free(d->notes);
	d->origins = d->notes = NULL;
	d->norigins = d->nnotes = 0;
	return true;
}

/* The path of @name, named in scenario @path: relative to the scenario's directory. */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');

	if (*name == '/' || !slash || !strcmp(path, "-"))
		return util_asprintf("%s", name);
	return util_asprintf("%.*s/%s", (int)(slash - path), path, name);
}

/* Move @from's value of @key (if any) into @to's entries, unless @to has it already. */
static bool merge_entries(struct rd *r, struct yn *to, struct yn *from, const char *what)
{
	for (size_t i = 0; from && i < from->n; i++) {
		const char *k = from->keys[i]->str;
		struct yn *had = NULL;

		for (size_t j = 0; j < to->n && !had; j++) {
			const char *a = to->keys[j]->str, *b = k;

			while (*a == '/')
				a++;
			while (*b == '/')
				b++;
			if (!strcmp(a, b))
				had = to->keys[j];
		}
		if (had && !strcmp(what, "process"))
			return scn__bad(r, had, "the scenario has a process '%s' already: the "
					"workload's threads are process %s", k, k);
		if (had)
			continue;
		if (yn_map_add(to, from->keys[i], from->kids[i]))
			return scn__bad(r, to, "out of memory");
		from->keys[i] = from->kids[i] = NULL;
	}
	return true;
}

/* A key @key of @root, made an empty mapping when absent; NULL after a message. */
static struct yn *section(struct rd *r, struct yn *root, const char *key, const struct yn *at)
{
	struct yn *v = yn_get(root, key), *k;

	if (v)
		return scn__want(r, v, YN_MAP, key) ? v : NULL;
	k = yn_new_scalar(key, at->line, at->col);
	v = yn_new(YN_MAP, at->line, at->col);
	if (!k || !v || yn_map_add(root, k, v)) {
		yn_free(k);
		yn_free(v);
		scn__bad(r, at, "out of memory");
		return NULL;
	}
	return v;
}

/*
 * workload: FILE.json: the rt-app workload's process, its taskgroups as cgroups the scenario
 * does not declare, and its duration when the scenario gives none, into @root.
 */
static bool merge_workload(struct rd *r, struct scn_source *s, struct yn *root)
{
	const struct yn *w = yn_get(root, "workload");
	struct rta_doc d;
	char *file, *text, err[2048];
	size_t len;
	struct yn *procs, *cgs;
	bool ok;

	if (!w)
		return true;
	if (!scn__scalar(r, w, "workload"))
		return false;
	if (!(file = beside(r->file, w->str)))
		return scn__bad(r, w, "out of memory");
	text = slurp(file, &len, err, sizeof(err));
	if (!text) {
		free(file);
		return scn__bad(r, w, "workload: %s", strstr(err, ": ") ? strstr(err, ": ") + 2 : err);
	}
	if (!rta_is_workload(text, len)) {
		free(file);
		free(text);
		return scn__bad(r, w, "workload must name an rt-app JSON file (an object with a "
				"\"tasks\" key)");
	}
	ok = !rta_read(file, text, len, true, &d, r->err, r->errlen);
	free(text);
	free(file);
	if (!ok) {
		r->failed = true;	/* the message names the JSON file */
		return false;
	}
	ok = take_doc(s, &d) && (procs = section(r, root, "processes", w)) &&
	     merge_entries(r, procs, yn_get(d.root, "processes"), "process");
	if (ok && yn_get(d.root, "cgroups"))
		ok = (cgs = section(r, root, "cgroups", w)) &&
		     merge_entries(r, cgs, yn_get(d.root, "cgroups"), "cgroup");
	if (ok && !yn_get(root, "duration") && yn_get(d.root, "duration")) {
		struct yn *dur = yn_new_scalar("duration", w->line, w->col);

		ok = dur && !yn_map_add(root, dur, yn_copy(yn_get(d.root, "duration")));
	}
	if (!ok && !r->failed)
		scn__bad(r, w, "out of memory");
	rta_doc_free(&d);
	return ok;
}

/* The document of @text: rt-app JSON or YAML. */
static struct yn *parse_doc(struct rd *r, const char *path, const char *text, size_t len,
			    struct rta_doc *d)
{
	memset(d, 0, sizeof(*d));
	if (!rta_is_workload(text, len))
		return yn_parse(path, text, len, r->err, r->errlen);
	r->rtapp = true;
	if (rta_read(path, text, len, false, d, r->err, r->errlen))
		return NULL;
	return d->root;
}

void scn_source_put(struct scn_source *s)
{
	if (!s || --s->refs)
		return;
	scn__traces_free(s->traces);
	yn_free(s->root);
	free_names(s->notes, s->nnotes);
	free_names(s->origins, s->norigins);
	free(s->text);
	free(s->path);
	free(s);
}

struct scn_source *scn_source_read(const char *path, const char *text, char *err, size_t errlen)
{
	struct rd r = { .file = path, .err = err, .errlen = errlen };
	struct scn_source *s = calloc(1, sizeof(*s));
	struct rta_doc d;
	size_t len;
	bool ok;

	memset(&d, 0, sizeof(d));
	if (errlen)
		err[0] = '\0';
	if (!s || !(s->path = strdup(path))) {
		free(s);
		snprintf(err, errlen, "cgsim: out of memory");
		return NULL;
	}
	s->refs = 1;
	if (!text) {
		s->text = slurp(path, &len, err, errlen);
	} else {
		len = strlen(text);
		s->text = strdup(text);
		if (!s->text)
			snprintf(err, errlen, "cgsim: out of memory");
	}
	ok = s->text && (s->root = parse_doc(&r, path, s->text, len, &d));
	if (ok) {
		d.root = NULL;	/* the source's now */
		s->rtapp = r.rtapp;
		ok = take_doc(s, &d);
		if (!ok)
			snprintf(err, errlen, "cgsim: out of memory");
		/* a workload: is the file's own content: merged once, before any override */
		ok = ok && (s->rtapp || merge_workload(&r, s, s->root));
	}
	rta_doc_free(&d);
	if (!ok) {
		scn_source_put(s);
		return NULL;
	}
	return s;
}

struct scn_source *scn_source_get(struct scn_source *s)
{
	s->refs++;
	return s;
}

const char *scn_source_path(const struct scn_source *s)
{
	return s->path;
}

void scn_source_forget_traces(struct scn_source *s)
{
	if (!s)
		return;
	scn__traces_free(s->traces);
	s->traces = NULL;
}

/* @sc's copies of the source's notes, said once per file (cli_notes()) but kept by each. */
static bool copy_notes(struct scenario *sc, const struct scn_source *s)
{
	if (!s->nnotes)
		return true;
	sc->notes = calloc(s->nnotes, sizeof(*sc->notes));
	if (!sc->notes)
		return false;
	for (; sc->nnotes < s->nnotes; sc->nnotes++)
		if (!(sc->notes[sc->nnotes] = strdup(s->notes[sc->nnotes])))
			return false;
	return true;
}

struct scenario *scn_source_load(struct scn_source *s, const char *variant,
				 const char *const *sets, size_t nsets, size_t sweep, char *err,
				 size_t errlen)
{
	struct rd r = { .file = s->path, .err = err, .errlen = errlen, .rtapp = s->rtapp,
			.traces = &s->traces };
	struct yn *root = yn_copy(s->root);
	struct scenario *sc = root ? calloc(1, sizeof(*sc)) : NULL;
	bool ok;

	if (errlen)
		err[0] = '\0';
	if (sc) {
		sc->src = scn_source_get(s);
		sc->text = s->text;
		sc->origins = calloc(nsets ? nsets : 1, sizeof(*sc->origins));
		sc->file = strdup(s->path);
		sc->variant = strdup(variant ? variant : "base");
		sc->rtapp = s->rtapp;
	}
	ok = sc && sc->origins && sc->file && sc->variant && copy_notes(sc, s);
	if (!ok) {
		snprintf(err, errlen, "cgsim: out of memory");
	} else {
		r.sc = sc;
		ok = scn__apply_overrides(&r, root, variant, sets, nsets, sweep) &&
		     read_all(&r, root);
		scn__trace_free(&r);	/* a load that failed before the chained ones were linked */
		for (size_t i = 0; ok && variant && i < sc->nvariants; i++)
			if (!strcmp(sc->variants[i].name, variant) && sc->variants[i].transform)
				ok = !scn_interpose(sc, &sc->variants[i], err, errlen);
		ok = ok && check_groups(&r);
	}
	yn_free(root);
	if (!ok) {
		scn_free(sc);
		return NULL;
	}
	return sc;
}

struct scenario *scn_load_swept(const char *path, const char *text, const char *variant,
				const char *const *sets, size_t nsets, size_t sweep, char *err,
				size_t errlen)
{
	struct scn_source *s = scn_source_read(path, text, err, errlen);
	struct scenario *sc = s ? scn_source_load(s, variant, sets, nsets, sweep, err, errlen)
			       : NULL;

	scn_source_put(s);
	return sc;
}
