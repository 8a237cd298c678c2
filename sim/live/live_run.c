// SPDX-License-Identifier: MIT
/*
 * sim/live/live_run.c - cgsim validate --live: the plan made real, measured, compared and
 * undone (docs/live.md).
 *
 * Invariant: whatever has been made is recorded in struct live_run as it is made (dirs made,
 * helpers started, settings changed), and undo() takes back exactly that, on every path out:
 * the end of a repetition, an error, a signal (the handler only records it; every wait checks
 * it at least every 10 ms).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/live/live_internal.h"
#include "sim/util/util.h"

#define AUTOGROUP_FILE LIVE_AUTOGROUP_FILE

struct helper {
	pid_t pid;
	int to;			/* its input: the release */
	int from;		/* its output: tids, then "ready" */
};

struct live_run {
	const struct scenario *sc;
	const struct live_plan *plan;
	struct live_mount mnt;
	struct helper *helpers;
	size_t nhelpers;
	pid_t *tids;			/* per plan thread */
	size_t ndirs_made;
	char autogroup_old[8];		/* "" when not changed */
	bool root_cpu_added;		/* v2: +cpu written to the root's subtree_control */
	bool root_cpuset_added;		/* v2: +cpuset written there */
	char prefix[64];		/* of the cgroups made: PREFIX-PID */
	char rtapp_dir[600];		/* rt-app's scratch directory, "" when none */
	bool progress;
	char *err;
	size_t errlen;
};

static int fail(struct live_run *r, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct live_run *r, int e, const char *fmt, ...)
{
	va_list ap;

	if (r->err[0])		/* the first reason stands */
		return e;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return e;
}

static void say(const struct live_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct live_run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->progress)
		return;
	va_start(ap, fmt);
	fputc('\r', stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\033[K", stderr);
	va_end(ap);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait @s seconds, or less when a signal asks to stop: 0 or -EINTR. */
static int wait_s(double s)
{
	double end = mono_s() + s;

	while (!live__stopped()) {
		double left = end - mono_s();
		struct timespec ts;

		if (left <= 0)
			return 0;
		left = left > 0.01 ? 0.01 : left;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return -EINTR;
}

static void dir_file(const struct live_run *r, const char *dir, const char *file, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s%s%s/%s", r->mnt.path, dir ? "/" : "", dir ? dir : "", file);
}

/* ---- undoing ---- */

/* Write down, before changing it, what to put back if cgsim is killed (live_cleanup.c). */
static int note_restore(struct live_run *r, const char *line)
{
	char msg[512];
	int e = live__note_restore(line, msg, sizeof(msg));

	return e ? fail(r, e, "%s", msg) : 0;
}

static void stop_helpers(struct live_run *r)
{
	for (size_t i = 0; i < r->nhelpers; i++) {
		struct helper *h = &r->helpers[i];

		if (h->pid > 0) {
			kill(h->pid, SIGKILL);	/* only the processes cgsim started, by pid */
			while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (h->to >= 0)
			close(h->to);
		if (h->from >= 0)
			close(h->from);
	}
	r->nhelpers = 0;
}

/* Remove the dirs made, deepest first; a cgroup whose tasks are still exiting is retried. */
static void remove_dirs(struct live_run *r)
{
	while (r->ndirs_made) {
		const char *d = r->plan->dirs[r->ndirs_made - 1].path;
		char path[2200];
		int tries = 0;

		snprintf(path, sizeof(path), "%s/%s", r->mnt.path, d);
		while (rmdir(path) && errno == EBUSY && tries++ < 200)
			usleep(10000);
		r->ndirs_made--;
	}
}

static void undo(struct live_run *r)
{
	char path[1200];

	stop_helpers(r);
	remove_dirs(r);
	live__rtapp_clean(r->rtapp_dir);
	r->rtapp_dir[0] = '\0';
	dir_file(r, NULL, "cgroup.subtree_control", path, sizeof(path));
	if (r->root_cpuset_added) {
		live__write(path, "-cpuset");
		r->root_cpuset_added = false;
	}
	if (r->root_cpu_added) {
		live__write(path, "-cpu");
		r->root_cpu_added = false;
	}
	if (r->autogroup_old[0]) {
		live__write(AUTOGROUP_FILE, r->autogroup_old);
		r->autogroup_old[0] = '\0';
	}
	live__forget_restore();
}

/* ---- making ---- */

static int write_or_fail(struct live_run *r, const char *path, const char *value)
{
	int e = live__write(path, value);

	if (e)
		return fail(r, -EINVAL, "cgsim: writing '%s' to %s: %s", value, path, strerror(-e));
	return 0;
}

/*
 * Controller @ctrl in the root's subtree_control, written only when it is not there already
 * (and then noted as @note for a killed run's cleanup, and taken back by undo()).
 */
static int root_enable(struct live_run *r, const char *ctrl, const char *note, bool *added)
{
	char have[512] = "", file[1200], plus[16];
	int e;

	dir_file(r, NULL, "cgroup.subtree_control", file, sizeof(file));
	live__read_line(file, have, sizeof(have));
	if (live__has_word(have, ctrl))
		return 0;
	if ((e = note_restore(r, note)))
		return e;
	*added = true;
	snprintf(plus, sizeof(plus), "+%s", ctrl);
	return write_or_fail(r, file, plus);
}

static int make_dirs(struct live_run *r)
{
	const struct live_plan *p = r->plan;
	char path[2200], file[2300];
	int e;

	/* the notes "root-CONTROLLER": what a killed run's cleanup takes back (live_cleanup.c) */
	if ((p->root_cpu && (e = root_enable(r, "cpu", "root-cpu", &r->root_cpu_added))) ||
	    (p->root_cpuset && (e = root_enable(r, "cpuset", "root-cpuset",
						&r->root_cpuset_added))))
		return e;
	for (size_t i = 0; i < p->ndirs; i++) {
		const struct live_dir *d = &p->dirs[i];

		snprintf(path, sizeof(path), "%s/%s", r->mnt.path, d->path);
		if (mkdir(path, 0755))
			return fail(r, -EINVAL, "cgsim: cannot make cgroup %s: %s", path,
				    strerror(errno));
		r->ndirs_made = i + 1;
		for (size_t k = 0; k < d->nwrites; k++) {
			dir_file(r, d->path, d->writes[k].file, file, sizeof(file));
			if ((e = write_or_fail(r, file, d->writes[k].value)))
				return e;
		}
	}
	return 0;
}

static int set_autogroup(struct live_run *r)
{
	char old[8], line[32];
	const char *want = r->plan->autogroup ? "1" : "0";
	int e;

	if (live__read_line(AUTOGROUP_FILE, old, sizeof(old))) {
		if (r->plan->autogroup)
			return fail(r, -EINVAL, "cgsim: the scenario has autogroup on and this kernel "
				    "has no %s", AUTOGROUP_FILE);
		return 0;
	}
	if (!strcmp(old, want))
		return 0;
	snprintf(line, sizeof(line), "autogroup %s", old);
	if ((e = note_restore(r, line)))
		return e;
	snprintf(r->autogroup_old, sizeof(r->autogroup_old), "%s", old);
	return write_or_fail(r, AUTOGROUP_FILE, want);
}

/* Read the helper's lines: one tid per thread, then "ready" (10 s at most). */
static int read_tids(struct live_run *r, size_t proc)
{
	const struct live_proc *lp = &r->plan->procs[proc];
	struct helper *h = &r->helpers[proc];
	char buf[4096];
	size_t len = 0, got = 0;
	double end = mono_s() + 10;

	for (;;) {
		struct pollfd pfd = { h->from, POLLIN, 0 };
		char *nl;
		ssize_t k;

		if (live__stopped())
			return -EINTR;
		if (mono_s() > end)
			return fail(r, -EINVAL, "cgsim: the helper of process '%s' did not start its "
				    "threads within 10 s", lp->p->name);
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		k = read(h->from, buf + len, sizeof(buf) - 1 - len);
		if (k <= 0)
			return fail(r, -EINVAL, "cgsim: the helper of process '%s' ended before its "
				    "threads were ready", lp->p->name);
		len += (size_t)k;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (!strcmp(buf, "ready"))
				return got == lp->n ? 0 : fail(r, -EINVAL, "cgsim: helper of '%s': %zu "
							       "threads of %zu", lp->p->name,
							       got, lp->n);
			if (got < lp->n) {
				long tid = strtol(buf, NULL, 10);

				if (tid <= 0)
					return fail(r, -EINVAL, "cgsim: thread '%s' cannot take its "
						    "policy, nice, slice or affinity: %s",
						    r->plan->threads[lp->first + got].name,
						    strerror((int)-tid));
				r->tids[lp->first + got++] = (pid_t)tid;
			}
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
	}
}

static int start_helper(struct live_run *r, size_t proc)
{
	struct helper *h = &r->helpers[proc];
	int in, out;
	pid_t pid;

	*h = (struct helper){ -1, -1, -1 };
	r->nhelpers = proc + 1;
	pid = live__fork_helper(&in, &out);
	if (pid == 0) {
		setsid();	/* a session, so an autogroup, of its own */
		live__load_main(r->plan, proc, r->sc->seed, out, in);
	}
	if (pid < 0)
		return fail(r, -EINVAL, "cgsim: starting a helper: %s", strerror((int)-pid));
	*h = (struct helper){ pid, out, in };
	return read_tids(r, proc);
}

/*
 * An rt-app file: rt-app itself, in the root (its threads move to their taskgroups
 * themselves), as the one "helper" whose threads are measured.
 */
static int start_rtapp(struct live_run *r)
{
	const struct live_plan *p = r->plan;
	char cgfile[2300];
	pid_t pid;
	int e;

	r->helpers[0] = (struct helper){ -1, -1, -1 };
	r->nhelpers = 1;
	dir_file(r, NULL, p->hier == LIVE_HIER_V1 ? "tasks" : "cgroup.procs", cgfile,
		 sizeof(cgfile));
	e = live__rtapp_start(r->sc, r->prefix, cgfile, p->confined ? p->cpus : 0, r->rtapp_dir,
			      sizeof(r->rtapp_dir), &pid, r->tids, p->nthreads, r->err, r->errlen);
	r->helpers[0].pid = pid;
	return e;
}

/*
 * Every thread to its cgroup as the plan says: v1 one by one through tasks; v2 each process
 * whole through cgroup.procs, then its threads in other cgroups of its threaded domain one by
 * one through cgroup.threads (the plan puts a process's first thread before its others).
 */
static int place(struct live_run *r)
{
	const struct live_plan *p = r->plan;
	char file[2300], num[24];
	int e;

	for (size_t i = 0; i < p->nthreads; i++) {
		const struct live_thread *t = &p->threads[i];
		static const char *const via[] = {
			[LIVE_MOVE_TASKS] = "tasks",
			[LIVE_MOVE_PROCS] = "cgroup.procs",
			[LIVE_MOVE_THREADS] = "cgroup.threads",
		};

		if (t->move == LIVE_MOVE_WITH_PROC)
			continue;
		dir_file(r, t->dir >= 0 ? p->dirs[t->dir].path : NULL, via[t->move], file,
			 sizeof(file));
		snprintf(num, sizeof(num), "%d", (int)(t->move == LIVE_MOVE_PROCS
						       ? r->helpers[t->proc].pid : r->tids[i]));
		if ((e = write_or_fail(r, file, num)))
			return e;
	}
	for (size_t k = 0; k < p->nprocs && p->autogroup; k++)
		if (p->procs[k].session_nice) {
			snprintf(file, sizeof(file), "/proc/%d/autogroup", (int)r->helpers[k].pid);
			snprintf(num, sizeof(num), "%d", p->procs[k].session_nice);
			if ((e = write_or_fail(r, file, num)))
				return e;
		}
	return 0;
}

/*
 * Each thread's affinity (its own, within the scenario's CPUs when confined) again once it is
 * in its cgroup, where the move took it: a kernel without 6.2's "sched: Enforce user requested
 * affinity" gives a thread that enters another cpuset that cpuset's CPUs (cpuset_attach()).
 * Measured under QEMU, two threads pinned to CPU 1 in a cpuset 0-1 of 4 CPUs: 0.4996 of the
 * machine on Debian's 6.1, 0.2498 on 6.12 (the model's 0.25), which keeps it. Only a mask that
 * the move widened is written again; one the cpuset leaves no CPU of stays the cpuset's, as
 * 6.12 leaves it.
 */
static int keep_affinity(struct live_run *r)
{
	const struct live_plan *p = r->plan;

	for (size_t i = 0; i < p->nthreads; i++) {
		const struct scn_threads *g = p->threads[i].grp;
		cpu_set_t want, now, both;

		if (!g->has_affinity && !p->confined)
			continue;
		CPU_ZERO(&want);
		for (int c = 0; c < CPU_SETSIZE && c < SCHED_MAX_CPUS && c < p->cpus; c++)
			if (!g->has_affinity || (g->affinity[c / 64] >> (c % 64) & 1))
				CPU_SET(c, &want);
		if (sched_getaffinity(r->tids[i], sizeof(now), &now))
			return fail(r, -EINVAL, "cgsim: reading the affinity of thread '%s': %s",
				    p->threads[i].name, strerror(errno));
		CPU_AND(&both, &want, &now);
		if (!CPU_COUNT(&both) || CPU_EQUAL(&both, &now))
			continue;
		if (sched_setaffinity(r->tids[i], sizeof(both), &both))
			return fail(r, -EINVAL, "cgsim: thread '%s' cannot take its affinity again "
				    "in its cgroup: %s", p->threads[i].name, strerror(errno));
	}
	return 0;
}

/* ---- measuring ---- */

/* Each thread's CPU time (ns) and the machine's busy time (USER_HZ ticks), and when. */
static int sample(struct live_run *r, unsigned long long *cpu, unsigned long long *busy,
		  unsigned long long *steal, double *at)
{
	char path[128], line[512], *text = NULL;
	FILE *f;
	size_t len = 0;
	int e;

	*at = mono_s();
	for (size_t i = 0; i < r->plan->nthreads; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat",
			 (int)r->helpers[r->plan->threads[i].proc].pid, (int)r->tids[i]);
		if ((e = live__read_line(path, line, sizeof(line))) ||
		    (e = live__schedstat_parse(line, &cpu[i])))
			return fail(r, -EINVAL, "cgsim: reading %s: %s", path, strerror(-e));
	}
	f = fopen("/proc/stat", "re");
	if (!f || util_read_stream(f, 1 << 20, &text, &len)) {
		if (f)
			fclose(f);
		free(text);
		return fail(r, -EINVAL, "cgsim: cannot read /proc/stat");
	}
	fclose(f);
	e = live__stat_busy(text, busy, steal);
	free(text);
	return e ? fail(r, -EINVAL, "cgsim: /proc/stat has no cpu line") : 0;
}

/*
 * One repetition: shares[i] of every thread (of the scenario's CPUs' capacity), and the share
 * of the whole machine's (its @online CPUs') other work took, and the steal /proc/stat counted.
 */
static int repetition(struct live_run *r, long online, double *shares, double *other,
		      double *steal)
{
	size_t n = r->plan->nthreads;
	unsigned long long *c0 = calloc(n ? n : 1, sizeof(*c0)), *c1 = calloc(n ? n : 1, sizeof(*c1));
	unsigned long long b0, b1, s0, s1;
	double t0, t1, cap, ours = 0, hz = (double)sysconf(_SC_CLK_TCK);
	int e = 0;

	if (!c0 || !c1) {
		e = -ENOMEM;
		goto out;
	}
	r->helpers = calloc(r->plan->nprocs ? r->plan->nprocs : 1, sizeof(*r->helpers));
	if (!r->helpers) {
		e = -ENOMEM;
		goto out;
	}
	say(r, "setting up");
	if ((e = make_dirs(r)) || (e = set_autogroup(r)))
		goto out;
	if (r->plan->rtapp) {
		/*
		 * rt-app 1.0 (Debian's) has no taskgroups: each thread is put in its task's,
		 * as a later rt-app puts it at its start (it finds it there already).
		 */
		if ((e = start_rtapp(r)) || (e = place(r)))
			goto out;
	} else {
		for (size_t k = 0; k < r->plan->nprocs && !e; k++)
			e = start_helper(r, k);
		if (e || (e = place(r)) ||
		    (r->plan->hier == LIVE_HIER_V2 && (e = keep_affinity(r))))
			goto out;
		for (size_t k = 0; k < r->nhelpers; k++)
			if (write(r->helpers[k].to, "g", 1) != 1) {
				e = fail(r, -EINVAL, "cgsim: cannot release the threads");
				goto out;
			}
	}
	say(r, "warm-up, %.1f s", (double)r->sc->warmup / 1e9);
	if ((e = wait_s((double)r->sc->warmup / 1e9)) || (e = sample(r, c0, &b0, &s0, &t0)))
		goto out;
	say(r, "measuring, %.1f s", (double)(r->sc->duration - r->sc->warmup) / 1e9);
	if ((e = wait_s((double)(r->sc->duration - r->sc->warmup) / 1e9)) ||
	    (e = sample(r, c1, &b1, &s1, &t1)))
		goto out;
	cap = (double)r->sc->sched.machine.cpus * (t1 - t0) * 1e9;
	for (size_t i = 0; i < n; i++) {
		shares[i] = (double)(c1[i] - c0[i]) / cap;
		ours += (double)(c1[i] - c0[i]);
	}
	cap = (double)online * (t1 - t0) * 1e9;
	*other = ((double)(b1 - b0) / hz * 1e9 - ours) / cap;
	*steal = (double)(s1 - s0) / hz * 1e9 / cap;
	if (*other < 0)
		*other = 0;	/* tick-granular /proc/stat against ns schedstat */
out:
	undo(r);
	free(r->helpers);
	r->helpers = NULL;
	free(c0);
	free(c1);
	return e;
}

/* ---- the comparison ---- */

/* Whether a thread in cgroup @c counts for group @g (itself or below it). */
static bool in_group(const char *c, const char *g)
{
	size_t n = strlen(g);

	return !strcmp(g, "/") || !strcmp(c, g) || (!strncmp(c, g, n) && c[n] == '/');
}

static int add_row(struct live_report *rep, const char *kind, char *name, double sim,
		   const double *meas, unsigned reps)
{
	struct live_row *row = &rep->rows[rep->nrows++];

	row->kind = kind;
	row->name = name;
	row->simulated = sim;
	row->measured = live__stats(meas, reps);
	return name ? 0 : -ENOMEM;
}

/* Groups, processes, threads: the simulated share and each repetition's measured one. */
static int make_rows(struct live_report *rep, const struct run_result *res,
		     const struct scenario *sc, const double *shares, unsigned reps)
{
	size_t nt = res->nthreads;
	double *m = calloc(reps, sizeof(*m));
	int e = 0;

	rep->rows = calloc(res->ngroups + sc->nprocs + nt, sizeof(*rep->rows));
	if (!m || !rep->rows) {
		free(m);
		return -ENOMEM;
	}
	for (size_t g = 0; g < res->ngroups && !e; g++) {
		for (unsigned k = 0; k < reps; k++) {
			m[k] = 0;
			for (size_t i = 0; i < nt; i++)
				if (in_group(res->threads[i].cgroup, res->groups[g].path))
					m[k] += shares[k * nt + i];
		}
		e = add_row(rep, "group", strdup(res->groups[g].path), res->groups[g].share, m, reps);
	}
	for (size_t p = 0; p < sc->nprocs && !e; p++) {
		double sim = 0;

		for (unsigned k = 0; k < reps; k++)
			m[k] = 0;
		for (size_t i = 0; i < nt; i++)
			if (!strcmp(res->threads[i].process, sc->procs[p].name)) {
				sim += res->threads[i].share;
				for (unsigned k = 0; k < reps; k++)
					m[k] += shares[k * nt + i];
			}
		e = add_row(rep, "process", strdup(sc->procs[p].name), sim, m, reps);
	}
	for (size_t i = 0; i < nt && !e; i++) {
		for (unsigned k = 0; k < reps; k++)
			m[k] = shares[k * nt + i];
		e = add_row(rep, "thread", util_asprintf("%s/%s", res->threads[i].process,
							 res->threads[i].name),
			    res->threads[i].share, m, reps);
	}
	free(m);
	return e;
}

bool live_within(const struct live_report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		double d = 100 * (r->rows[i].measured.mean - r->rows[i].simulated);

		if (d > r->tolerance || d < -r->tolerance)
			return false;
	}
	return true;
}

void live_report_free(struct live_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrows; i++)
		free(r->rows[i].name);
	free(r->rows);
	free(r->scenario);
	free(r);
}

/* The threads of the plan and of the simulation are the scenario's, in its order. */
static bool same_threads(const struct live_plan *p, const struct run_result *res)
{
	if (p->nthreads != res->nthreads)
		return false;
	for (size_t i = 0; i < p->nthreads; i++) {
		const char *n = p->threads[i].name;
		size_t lp = strlen(res->threads[i].process);

		if (strncmp(n, res->threads[i].process, lp) || n[lp] != '/' ||
		    strcmp(n + lp + 1, res->threads[i].name))
			return false;
	}
	return true;
}

/* The repetitions, with the signal handlers that let a signal stop them cleanly. */
static int run_reps(struct live_run *r, unsigned reps, long online, double *shares,
		    double *other, double *steal)
{
	struct sigaction old[LIVE_NSTOP_SIGS];
	int e = 0;

	live__catch_stops(old);
	for (unsigned k = 0; k < reps && !e; k++) {
		say(r, "repetition %u of %u", k + 1, reps);
		e = repetition(r, online, shares + (size_t)k * r->plan->nthreads, &other[k],
			       &steal[k]);
	}
	if (r->progress)
		fputs("\r\033[K", stderr);
	live__release_stops(old);
	if (live__stopped())
		return fail(r, -EINTR, "cgsim: stopped by signal %d; everything made was removed",
			    live__stopped());
	return e;
}

/*
 * What validate --live needs before it plans anything: root, the cgroup hierarchy with the cpu
 * controller (into @r->mnt) and the lock that keeps two runs apart (into *@lock). 0, or an
 * error with its message in @r->err.
 */
static int preflight(struct live_run *r, const char *mountinfo, int *lock)
{
	if (geteuid() != 0)
		return fail(r, -EINVAL, "cgsim: validate --live needs root: it makes cgroups and "
			    "moves threads into them");
	if (live__find_cpu(mountinfo, &r->mnt, r->err, r->errlen))
		return -EINVAL;
	if ((*lock = live__lock(r->err, r->errlen)) < 0)
		return -EINVAL;
	return 0;
}

/*
 * The simulation again (into *@res, the first one freed), the scenario's machine losing to
 * steal what this one did in the repetitions (at most half its time): the simulated shares
 * then answer for the same machine as the measured ones.
 */
static int resimulate_with_steal(const struct scenario *sc, struct live_report *rep,
				 struct run_result **res, char *err, size_t errlen)
{
	struct scenario with = *sc;
	int e;

	with.steal = rep->steal.mean < 0.5 ? rep->steal.mean : 0.5;
	run_free(*res);
	*res = NULL;
	if ((e = run_scenario(&with, false, res, err, errlen)))
		return e;
	rep->sim_steal = with.steal;
	return 0;
}

/*
 * The scenario as the simulation runs it against this kernel: @sc with the kernel's version
 * and the cgroup_mode it runs (docs/live.md, "The kernel modelled").
 */
static void model_kernel(const struct scenario *sc, const struct live_opts *o,
			 struct scenario *run, struct live_kernel *k)
{
	*run = *sc;
	live_kernel_read(o->mountinfo, o->may_mount, k);
	if (k->known) {
		/*
		 * The defaults of the kernel that runs, with what the scenario sets itself; a
		 * stable release cgsim does not list falls back to its series.
		 */
		struct sched_kernel series = k->version;

		series.patch = SCHED_KERNEL_SERIES;
		if (sched_config_rebase(&run->sched, k->version) &&
		    sched_config_rebase(&run->sched, series))
			fprintf(stderr, "cgsim: note: Linux %s is not a kernel cgsim models "
				"(%s): simulating the scenario's\n", k->release,
				sched_kernels_modelled());
	}
	run->sched.cgroup_mode = k->mode;
	if (k->mode_unread)
		fprintf(stderr, "cgsim: note: cannot read this kernel's cgroup_mode (debugfs cannot "
			"be reached): simulating %s, Linux %s's default\n",
			sched_cgroup_mode_name(k->mode), k->release);
}

int live_validate(const struct scenario *sc, const struct live_opts *o, struct live_report **out,
		  char *err, size_t errlen)
{
	struct scenario run_sc;
	struct live_kernel kern;
	struct live_run r = { .sc = sc, .err = err, .errlen = errlen, .progress = o->progress };
	struct live_plan *plan = NULL;
	struct run_result *res = NULL;
	struct live_report *rep = NULL;
	double *shares = NULL, *other = NULL, *steal = NULL;
	char prefix[64];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int e, lock;

	*out = NULL;
	err[0] = '\0';
	if ((e = preflight(&r, o->mountinfo, &lock)))
		return e;
	snprintf(prefix, sizeof(prefix), "%s-%d", LIVE_PREFIX, (int)getpid());
	snprintf(r.prefix, sizeof(r.prefix), "%s", prefix);
	if ((e = live_plan_make(sc, r.mnt.hier, prefix, (int)cpus, &plan, err, errlen))) {
		close(lock);
		return e;
	}
	r.plan = plan;
	model_kernel(sc, o, &run_sc, &kern);
	if ((e = run_scenario(&run_sc, false, &res, err, errlen)))
		goto out;
	if (!same_threads(plan, res)) {
		e = fail(&r, -EINVAL, "cgsim: the plan's threads are not the run's");
		goto out;
	}
	r.tids = calloc(plan->nthreads ? plan->nthreads : 1, sizeof(*r.tids));
	shares = calloc((size_t)o->reps * (plan->nthreads ? plan->nthreads : 1), sizeof(*shares));
	other = calloc(o->reps, sizeof(*other));
	steal = calloc(o->reps, sizeof(*steal));
	rep = calloc(1, sizeof(*rep));
	if (!r.tids || !shares || !other || !steal || !rep) {
		e = fail(&r, -ENOMEM, "cgsim: out of memory");
		goto out;
	}
	if ((e = run_reps(&r, o->reps, cpus, shares, other, steal)))
		goto out;
	rep->steal = live__stats(steal, o->reps);
	rep->sim_steal = sc->steal;
	/* the same scenario, its machine losing what this one did */
	if (o->steal_measured && rep->steal.mean > 0 &&
	    (e = resimulate_with_steal(&run_sc, rep, &res, err, errlen)))
		goto out;
	rep->scenario = strdup(sc->name);
	snprintf(rep->kernel, sizeof(rep->kernel), "%s", kern.release);
	rep->cgroup_mode = kern.mode;
	rep->cgroup_mode_file = kern.mode_file;
	rep->modelled = run_sc.sched.kernel;
	sched_config_describe(&run_sc.sched, rep->model, sizeof(rep->model));
	rep->hier = r.mnt.hier;
	rep->cpus = sc->sched.machine.cpus;
	rep->online = (int)cpus;
	rep->reps = o->reps;
	rep->window_s = (double)(sc->duration - sc->warmup) / 1e9;
	rep->other = live__stats(other, o->reps);
	rep->tolerance = o->tolerance;
	if (!rep->scenario || (e = make_rows(rep, res, sc, shares, o->reps)))
		e = fail(&r, -ENOMEM, "cgsim: out of memory");
out:
	free(r.tids);
	free(shares);
	free(other);
	free(steal);
	run_free(res);
	live_plan_free(plan);
	close(lock);
	if (e) {
		live_report_free(rep);
		return e;
	}
	*out = rep;
	return 0;
}
