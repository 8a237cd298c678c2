// SPDX-License-Identifier: MIT
/*
 * sim/live/live_calibrate.c - cgsim calibrate --live: what a wakeup and a switch cost on the
 * running kernel, per level of cgroup hierarchy (docs/overhead.md).
 *
 * Two threads of one helper process, pinned to one CPU, wake each other through two pipes, as
 * `perf bench sched pipe` does: a round trip is two wakeups and two context switches, each of
 * which walks the threads' task groups. The threads are placed at depth 0 (the root cgroup,
 * with autogroup off and on) and at depths 1, 2, 4 and 8 in three ways: both in one cgroup
 * ("same": a switch between them walks nothing but their leaf), in sibling cgroups
 * ("siblings": the switch walks to their parent), and in two separate chains from the root
 * ("separate": it walks every level of both). Each point is measured @reps times, the points
 * interleaved so that a drift of the machine's speed spreads over all of them, and the medians
 * are fitted by least squares, cost = base + per_level x depth, per placement.
 *
 * Invariant, as for validate --live: everything made (cgroups, the helper, the autogroup
 * setting) is recorded as it is made and undone on every path out, a signal included; a
 * change to the system is written down first (LIVE_STATE_DIR) so that --cleanup can put back
 * what a SIGKILLed cgsim could not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>

#include "sim/live/live_internal.h"
#include "sim/util/util.h"

static const int depths[] = { 1, 2, 4, 8 };
#define NDEPTHS (sizeof(depths) / sizeof(depths[0]))
#define MAX_DEPTH 8
/* chains per placement: same 1, siblings 1 (with two leaves), separate 2 */
#define MAX_DIRS (NDEPTHS * (MAX_DEPTH + 1) * 4 + 8)

const char *const live_cal_placement_name[LIVE_CAL_NPLACEMENTS] = {
	"same", "siblings", "separate"
};

struct cal {
	const struct live_cal_opts *o;
	struct live_mount mnt;
	char prefix[64];		/* PREFIX-PID: the cgroups made are PREFIX-PID-... */
	char *dirs[MAX_DIRS];		/* made, in order (removed in reverse) */
	size_t ndirs;
	char autogroup_old[8];		/* "" when not changed */
	pid_t pid;			/* the helper, 0: none */
	int to, from;			/* its pipes */
	pid_t tid[2];			/* its two threads */
	int cpu;			/* the CPU they are pinned to */
	char *err;
	size_t errlen;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int fail(struct cal *c, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct cal *c, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return e;
}

/* ---------------- the fit ---------------- */

int live_cal_fit(const double *x, const double *y, size_t n, struct live_cal_fit *f)
{
	double c0, c1, cov00, cov01, cov11, sumsq, t;
	size_t i;

	for (i = 1; i < n && x[i] == x[0]; i++)
		;
	/* a line needs two x at least, and its interval a third point */
	if (n < 3 || i == n ||
	    gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq))
		return -EINVAL;
	f->base_ns = c0;
	f->per_level_ns = c1;
	f->base_se = sqrt(cov00);
	f->per_level_se = sqrt(cov11);
	/* the 95 % interval of the slope: Student's t with n - 2 degrees of freedom */
	t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 2));
	f->per_level_low = c1 - t * f->per_level_se;
	f->per_level_high = c1 + t * f->per_level_se;
	f->n = n;
	for (i = 0; i < n && i < LIVE_CAL_MAX_POINTS; i++)
		f->residual_ns[i] = y[i] - (c0 + c1 * x[i]);
	return 0;
}

/* ---------------- the helper ---------------- */

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

struct pong {
	int in, out;		/* B reads @in, writes @out */
	int cpu;
	int tidfd;		/* where B says its tid */
};

/* Thread B: answer every byte, forever (the process ends it). */
static void *pong_main(void *arg)
{
	const struct pong *p = arg;
	char line[32], b;
	int n;

	pin(p->cpu);
	n = snprintf(line, sizeof(line), "%d\n", (int)gettid_());
	if (write(p->tidfd, line, (size_t)n) != n)
		_exit(4);
	for (;;) {
		if (read(p->in, &b, 1) != 1 || write(p->out, &b, 1) != 1)
			_exit(5);
	}
	return NULL;
}

/* Read one line of up to @len - 1 bytes from @fd (a pipe), within @ms ms. 0 or -1. */
static int read_line(int fd, char *buf, size_t len, int ms)
{
	size_t n = 0;

	while (n + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, ms) <= 0 || read(fd, buf + n, 1) != 1)
			return -1;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return 0;
}

/*
 * The helper (never returns): thread A says both tids, then for each "go N\n" from cgsim
 * makes N round trips (after N / 10 not timed) and answers the nanoseconds they took; for
 * "sys N\n" it does the same with N writes and reads of a pipe of its own, which never block:
 * the system calls of a round trip's half without its wakeup, sleep and switch.
 */
static _Noreturn void helper_main(int cpu, int in, int out)
{
	int ab[2], ba[2], self[2];
	struct pong p;
	pthread_t t;
	char line[64], b = 'x', tid[32];
	int n;

	setsid();		/* a session, so an autogroup, of its own */
	if (pipe(ab) || pipe(ba) || pipe(self) || pin(cpu))
		_exit(3);
	p = (struct pong){ .in = ab[0], .out = ba[1], .cpu = cpu, .tidfd = out };
	n = snprintf(tid, sizeof(tid), "%d\n", (int)gettid_());
	if (write(out, tid, (size_t)n) != n || pthread_create(&t, NULL, pong_main, &p))
		_exit(3);
	while (!read_line(in, line, sizeof(line), -1)) {
		bool sys = !strncmp(line, "sys ", 4);
		unsigned long rounds = strtoul(line + (sys ? 4 : 3), NULL, 10);
		int wr = sys ? self[1] : ab[1], rd = sys ? self[0] : ba[0];
		struct timespec t0, t1;

		if ((!sys && strncmp(line, "go ", 3)) || !rounds)
			break;
		for (unsigned long i = 0; i < rounds / 10 + rounds; i++) {
			if (i == rounds / 10)
				clock_gettime(CLOCK_MONOTONIC, &t0);
			if (write(wr, &b, 1) != 1 || read(rd, &b, 1) != 1)
				_exit(5);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		n = snprintf(line, sizeof(line), "%lld\n",
			     (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
				     (t1.tv_nsec - t0.tv_nsec));
		if (write(out, line, (size_t)n) != n)
			_exit(4);
	}
	_exit(0);
}

static int start_helper(struct cal *c)
{
	char line[32];

	c->pid = live__fork_helper(&c->from, &c->to);
	if (c->pid < 0) {
		int e = (int)c->pid;

		c->pid = 0;
		return fail(c, e, "cgsim: cannot start the helper: %s", strerror(-e));
	}
	if (!c->pid)
		helper_main(c->cpu, c->from, c->to);
	for (int k = 0; k < 2; k++) {
		if (read_line(c->from, line, sizeof(line), 10000) || atoi(line) <= 0)
			return fail(c, -EINVAL, "cgsim: the helper did not start its threads");
		c->tid[k] = (pid_t)atoi(line);
	}
	return 0;
}

/* ---------------- cgroups ---------------- */

static int make_dir(struct cal *c, const char *rel)
{
	char *path;

	if (c->ndirs >= MAX_DIRS)
		return fail(c, -EINVAL, "cgsim: too many cgroups for the calibration");
	path = util_asprintf("%s/%s", c->mnt.path, rel);
	if (!path)
		return fail(c, -ENOMEM, "cgsim: out of memory");
	if (mkdir(path, 0755)) {
		int e = errno;

		free(path);
		return fail(c, -e, "cgsim: cannot make cgroup %s: %s", rel, strerror(e));
	}
	c->dirs[c->ndirs++] = path;
	return 0;
}

bool live_cal_level_own(const struct live_cal_point *pt, int lv)
{
	if (pt->threaded && lv == 1)
		return false;
	return pt->placement == LIVE_CAL_SEPARATE ||
	       (pt->placement == LIVE_CAL_SIBLINGS && lv == pt->depth);
}

/* Write @value to the file @name of cgroup @rel (relative to the hierarchy's root). */
static int cal_write(struct cal *c, const char *rel, const char *name, const char *value)
{
	char file[2100];
	int e;

	snprintf(file, sizeof(file), "%s%s%s/%s", c->mnt.path, rel[0] ? "/" : "", rel, name);
	if ((e = live__write(file, value)))
		return fail(c, e, "cgsim: cannot write '%s' to %s: %s", value, file, strerror(-e));
	return 0;
}

/*
 * cgroup2: a cgroup just made at level @lv of @pt's chains gets ready for threads. Below level
 * 1 it is threaded (the process stays in the level-1 domain, its thread root); a level with
 * levels below it passes the cpu controller on (the level-1 domain before any process is in
 * it, which the no-internal-process rule asks; a threaded cgroup any time).
 */
static int ready_v2(struct cal *c, const struct live_cal_point *pt, int lv, const char *rel)
{
	int e;

	if (lv > 1 && (e = cal_write(c, rel, "cgroup.type", "threaded")))
		return e;
	return lv < pt->depth ? cal_write(c, rel, "cgroup.subtree_control", "+cpu") : 0;
}

/*
 * The cgroup path (relative to the hierarchy's root) of thread @k (0: A, 1: B) at point @pt
 * (depth >= 1), into @buf, the path to level @upto at most. With @make, the directories are
 * made first (and made ready for threads on cgroup2).
 */
static int place_path(struct cal *c, const struct live_cal_point *pt, int k, int upto, bool make,
		      char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int lv = 1; lv <= pt->depth && lv <= upto; lv++) {
		bool own = live_cal_level_own(pt, lv);
		int w = lv == 1 ? snprintf(buf + n, len - n, "%s-%s%d%s", c->prefix,
					   live_cal_placement_name[pt->placement], pt->depth,
					   own ? (k ? "b" : "a") : "")
				: snprintf(buf + n, len - n, "/l%d%s", lv, own ? (k ? "b" : "a") : "");

		if (w < 0 || (size_t)w >= len - n)
			return fail(c, -ENAMETOOLONG, "cgsim: cgroup path too long");
		n += (size_t)w;
		if (make) {
			char probe[2100];
			struct stat st;
			int e;

			snprintf(probe, sizeof(probe), "%s/%s", c->mnt.path, buf);
			if (!stat(probe, &st))
				continue;	/* the other thread's, shared */
			if ((e = make_dir(c, buf)) || (pt->threaded && (e = ready_v2(c, pt, lv, buf))))
				return e;
		}
	}
	return 0;
}

static int make_dirs(struct cal *c, const struct live_cal_report *r)
{
	char buf[1024];
	int e;

	snprintf(buf, sizeof(buf), "%s-stage", c->prefix);
	if ((e = make_dir(c, buf)))
		return e;
	for (size_t i = 0; i < r->npoints; i++)
		for (int k = 0; k < 2 && r->points[i].depth; k++)
			if ((e = place_path(c, &r->points[i], k, INT_MAX, true, buf, sizeof(buf))))
				return e;
	return 0;
}

/*
 * cgroup2: the helper process into the level-1 domain of @pt (or, at depth 0, through
 * PREFIX-stage to the root: see place()), then each thread to its threaded cgroup below.
 */
static int place_v2(struct cal *c, const struct live_cal_point *pt)
{
	char rel[1024], id[16];
	int e;

	snprintf(id, sizeof(id), "%d", (int)c->pid);
	if (!pt->depth) {
		snprintf(rel, sizeof(rel), "%s-stage", c->prefix);
		return (e = cal_write(c, rel, "cgroup.procs", id)) ? e
								 : cal_write(c, "", "cgroup.procs", id);
	}
	if ((e = place_path(c, pt, 0, 1, false, rel, sizeof(rel))) ||
	    (e = cal_write(c, rel, "cgroup.procs", id)))
		return e;
	for (int k = 0; k < 2 && pt->depth > 1; k++) {
		snprintf(id, sizeof(id), "%d", (int)c->tid[k]);
		if ((e = place_path(c, pt, k, INT_MAX, false, rel, sizeof(rel))) ||
		    (e = cal_write(c, rel, "cgroup.threads", id)))
			return e;
	}
	return 0;
}

/*
 * Both threads into their cgroups at @pt (v1: their tids to tasks; cgroup2: place_v2()). To
 * the root, they go through PREFIX-stage first: a write to the cgroup a task is in already
 * moves nothing, and only a move makes the kernel choose the task's group again, autogroup or
 * not (sched_move_task()), so without it a change of sched_autogroup_enabled would not be seen.
 */
static int place(struct cal *c, const struct live_cal_point *pt)
{
	char rel[1024], tid[16];
	int e;

	if (pt->threaded)
		return place_v2(c, pt);
	for (int k = 0; k < 2; k++) {
		if (pt->depth)
			e = place_path(c, pt, k, INT_MAX, false, rel, sizeof(rel));
		else
			e = snprintf(rel, sizeof(rel), "%s-stage", c->prefix) < 0 ? -EINVAL : 0;
		if (e)
			return e;
		snprintf(tid, sizeof(tid), "%d", (int)c->tid[k]);
		if ((e = cal_write(c, rel, "tasks", tid)) ||
		    (!pt->depth && (e = cal_write(c, "", "tasks", tid))))
			return e;
	}
	return 0;
}

/* ---------------- the system ---------------- */

/* Autogroup on or off; the first change is written down, and put back by undo(). */
static int set_autogroup(struct cal *c, bool on)
{
	char now[8], line[32];
	int e;

	if (live__read_line(LIVE_AUTOGROUP_FILE, now, sizeof(now)))
		return 0;	/* no autogroup: no point asks for it (points_of()) */
	if (!strcmp(now, on ? "1" : "0"))
		return 0;
	if (!c->autogroup_old[0]) {
		snprintf(line, sizeof(line), "autogroup %s", now);
		if ((e = live__note_restore(line, c->err, c->errlen)))
			return e;
		snprintf(c->autogroup_old, sizeof(c->autogroup_old), "%s", now);
	}
	if ((e = live__write(LIVE_AUTOGROUP_FILE, on ? "1" : "0")))
		return fail(c, e, "cgsim: cannot write %s: %s", LIVE_AUTOGROUP_FILE, strerror(-e));
	return 0;
}

/* Everything made, taken back: the helper, the cgroups (deepest first), autogroup. */
static void undo(struct cal *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(c->to);
		close(c->from);
		c->pid = 0;
	}
	while (c->ndirs) {
		char *d = c->dirs[--c->ndirs];

		/* the helper's threads are gone once it is reaped: the cgroups are empty */
		for (int tries = 0; rmdir(d) && errno == EBUSY && tries < 100; tries++)
			usleep(10000);
		free(d);
	}
	if (c->autogroup_old[0]) {
		live__write(LIVE_AUTOGROUP_FILE, c->autogroup_old);
		c->autogroup_old[0] = '\0';
	}
	live__forget_restore();
}

/* ---------------- measuring ---------------- */

/*
 * The context switches of thread @tid of the helper so far, voluntary (it blocked) or not (it
 * was preempted); -1 when unknown.
 */
static long long ctxt_switches(const struct cal *c, pid_t tid, bool voluntary)
{
	const char *key = voluntary ? "voluntary_ctxt_switches:" : "nonvoluntary_ctxt_switches:";
	char path[64], line[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)c->pid, (int)tid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			n = atoll(line + strlen(key));
	fclose(f);
	return n;
}

/* Both threads' switches of one kind so far, -1 when unknown. */
static long long both_switches(const struct cal *c, bool voluntary)
{
	long long a = ctxt_switches(c, c->tid[0], voluntary);
	long long b = ctxt_switches(c, c->tid[1], voluntary);

	return a < 0 || b < 0 ? -1 : a + b;
}

/* (@n1 - @n0) per round trip of @rounds (and the untimed tenth), NAN when unknown. */
static double per_round(long long n0, long long n1, unsigned long rounds)
{
	return n0 < 0 || n1 < n0 ? (double)NAN : (double)(n1 - n0) / (double)(rounds / 10 + rounds);
}

/*
 * One measurement of the helper: @rounds round trips (@sys: pipe writes and reads), ns each;
 * *@pre and *@vol (unless @pre is NULL) the threads' involuntary and voluntary switches per
 * round trip, the untimed ones included, NAN when /proc does not say.
 */
static int measure(struct cal *c, bool sys, unsigned long rounds, double *ns, double *pre,
		   double *vol)
{
	long long p0 = pre ? both_switches(c, false) : -1, v0 = pre ? both_switches(c, true) : -1;
	char line[64];
	int n = snprintf(line, sizeof(line), "%s %lu\n", sys ? "sys" : "go", rounds);
	long long total;

	if (write(c->to, line, (size_t)n) != n)
		return fail(c, -EIO, "cgsim: the helper is gone");
	/* 10 ms a poll, so that a signal is seen soon; 10 minutes at most */
	for (int waited = 0;; waited += 10) {
		struct pollfd p = { .fd = c->from, .events = POLLIN };

		if (live__stopped())
			return fail(c, -EINTR, "cgsim: stopped by signal %d; everything made was "
				    "removed", live__stopped());
		if (poll(&p, 1, 10) > 0)
			break;
		if (waited > 600000)
			return fail(c, -ETIMEDOUT, "cgsim: the helper did not answer in 10 minutes");
	}
	if (read_line(c->from, line, sizeof(line), 1000) || (total = atoll(line)) <= 0)
		return fail(c, -EIO, "cgsim: the helper's answer was lost");
	*ns = (double)total / (double)rounds;
	if (pre) {
		*pre = per_round(p0, both_switches(c, false), rounds);
		*vol = per_round(v0, both_switches(c, true), rounds);
	}
	return 0;
}

/*
 * The points, in the order of report->points; the root with autogroup on only when the kernel
 * has autogroup (CONFIG_SCHED_AUTOGROUP: the sysctl is there).
 */
static size_t points_of(struct live_cal_point *pt, bool threaded)
{
	char now[8];
	size_t n = 0;

	pt[n++] = (struct live_cal_point){ .placement = LIVE_CAL_SAME, .threaded = threaded };
	if (!live__read_line(LIVE_AUTOGROUP_FILE, now, sizeof(now)))
		pt[n++] = (struct live_cal_point){ .placement = LIVE_CAL_SAME, .autogroup = true,
						   .threaded = threaded };
	for (int p = 0; p < LIVE_CAL_NPLACEMENTS; p++)
		for (size_t i = 0; i < NDEPTHS; i++) {
			struct live_cal_point x = { .placement = (enum live_cal_placement)p,
						    .depth = depths[i], .threaded = threaded };

			/* on cgroup2 two chains cannot part at level 1, their process's */
			if (!(threaded && x.depth == 1 && p != LIVE_CAL_SAME))
				pt[n++] = x;
		}
	return n;
}

static int run_point(struct cal *c, const struct live_cal_point *pt, double *ns, double *pre,
		     double *vol)
{
	int e;

	if ((e = set_autogroup(c, pt->autogroup)))
		return e;
	/* moving the threads (to the root too) makes the kernel choose their group again */
	if ((e = place(c, pt)))
		return e;
	return measure(c, false, c->o->round_trips, ns, pre, vol);
}

/* The median of @n values (sorted in place). */
static double median_of(double *s, size_t n)
{
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static int run_all(struct cal *c, struct live_cal_report *r)
{
	size_t n = r->npoints;
	/* each point's repetitions, the system calls', each point's preemptions and blocks */
	double *v = calloc((3 * n + 1) * c->o->reps, sizeof(*v));
	double *sys = v ? v + n * c->o->reps : NULL, *pre = v ? sys + c->o->reps : NULL;
	double *vol = v ? pre + n * c->o->reps : NULL;
	bool tty = c->o->progress;
	int e = 0;

	if (!v)
		return fail(c, -ENOMEM, "cgsim: out of memory");
	/* rep-major: each repetition measures every point once */
	for (unsigned k = 0; !e && k < c->o->reps; k++)
		for (size_t i = 0; !e && i < n; i++) {
			if (tty)
				fprintf(stderr, "\rcgsim: repetition %u of %u, point %zu of %zu", k + 1,
					c->o->reps, i + 1, n);
			e = run_point(c, &r->points[i], &v[i * c->o->reps + k],
				      &pre[i * c->o->reps + k], &vol[i * c->o->reps + k]);
			if (!e && i == n - 1)
				e = measure(c, true, c->o->round_trips, &sys[k], NULL, NULL);
		}
	if (tty)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; !e && i < n; i++) {
		double *s = &v[i * c->o->reps];
		struct live_stat st = live__stats(s, c->o->reps);

		r->points[i].median_ns = median_of(s, c->o->reps);
		r->points[i].min_ns = st.min;
		r->points[i].max_ns = st.max;
		r->points[i].preempted = median_of(&pre[i * c->o->reps], c->o->reps);
		r->points[i].voluntary = median_of(&vol[i * c->o->reps], c->o->reps);
	}
	if (!e) {
		struct live_stat st = live__stats(sys, c->o->reps);

		r->syscalls_ns = median_of(sys, c->o->reps);
		r->syscalls_min_ns = st.min;
		r->syscalls_max_ns = st.max;
	}
	free(v);
	return e;
}

/* Each placement's fit over depth 0 (autogroup off) and its four depths. */
static int fit_all(struct cal *c, struct live_cal_report *r)
{
	for (int p = 0; p < LIVE_CAL_NPLACEMENTS; p++) {
		double x[LIVE_CAL_MAX_POINTS], y[LIVE_CAL_MAX_POINTS];
		size_t n = 0;

		for (size_t i = 0; i < r->npoints; i++) {
			const struct live_cal_point *pt = &r->points[i];

			if (pt->autogroup || (pt->depth && pt->placement != (enum live_cal_placement)p))
				continue;
			x[n] = pt->depth;
			y[n++] = pt->median_ns;
		}
		if (live_cal_fit(x, y, n, &r->fits[p]))
			return fail(c, -EINVAL, "cgsim: the fit failed");
		r->fits[p].placement = (enum live_cal_placement)p;
	}
	return 0;
}

/* The "model name" of /proc/cpuinfo into @buf, "" when there is none. */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* What the machine must offer; the CPU to pin to (the last online: away from CPU 0's chores). */
static int check_system(struct cal *c, struct live_cal_report *r)
{
	struct utsname u;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int e;

	if (geteuid())
		return fail(c, -EINVAL, "cgsim: calibrate --live needs root: it makes cgroups and "
			    "moves its own threads into them");
	if ((e = live__find_cpu(c->o->mountinfo, &c->mnt, c->err, c->errlen)))
		return e;
	if (c->mnt.hier == LIVE_HIER_V2) {
		/* the root must give its children cpu: cgsim does not change that for you */
		char path[2100], ctl[256], *w, *save = NULL;
		bool cpu = false;

		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", c->mnt.path);
		if (!live__read_line(path, ctl, sizeof(ctl)))
			for (w = strtok_r(ctl, " ", &save); w; w = strtok_r(NULL, " ", &save))
				cpu = cpu || !strcmp(w, "cpu");
		if (!cpu)
			return fail(c, -EINVAL, "cgsim: the cgroup2 root at %s does not give its "
				    "children the cpu controller; enable it first (echo +cpu > "
				    "%s) and run again", c->mnt.path, path);
	}
	c->cpu = online > 1 ? (int)online - 1 : 0;
	r->cpu = c->cpu;
	r->hier = c->mnt.hier;
	if (!uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	cpu_model(r->cpu_model, sizeof(r->cpu_model));
	return 0;
}

int live_calibrate(const struct live_cal_opts *o, struct live_cal_report **out, char *err,
		   size_t errlen)
{
	struct sigaction old[LIVE_NSTOP_SIGS];
	struct cal c = { .o = o, .err = err, .errlen = errlen };
	struct live_cal_report *r = calloc(1, sizeof(*r));
	int e, lock = -1;

	*out = NULL;
	if (!r)
		return fail(&c, -ENOMEM, "cgsim: out of memory");
	r->reps = o->reps;
	r->round_trips = o->round_trips;
	snprintf(c.prefix, sizeof(c.prefix), "%s-%d", LIVE_PREFIX, (int)getpid());
	live__catch_stops(old);
	e = check_system(&c, r);
	r->npoints = points_of(r->points, c.mnt.hier == LIVE_HIER_V2);
	if (!e && (lock = live__lock(err, errlen)) < 0)
		e = -EINVAL;
	if (!e)
		e = make_dirs(&c, r);
	if (!e)
		e = start_helper(&c);
	if (!e)
		e = run_all(&c, r);
	undo(&c);
	if (lock >= 0)
		close(lock);
	live__release_stops(old);
	if (!e)
		e = fit_all(&c, r);
	if (e) {
		free(r);
		return e;
	}
	*out = r;
	return 0;
}

void live_cal_report_free(struct live_cal_report *r)
{
	free(r);
}
