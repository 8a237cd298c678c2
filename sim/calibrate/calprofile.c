// SPDX-License-Identifier: MIT
/*
 * sim/calibrate/calprofile.c - from calibrate --live's medians to a machine cost profile, and a
 * profile's prediction of each point (calprofile.h, docs/overhead.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>

#include "sim/calibrate/calprofile.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

/* The simulated ping-pong: long enough for 10^4 round trips and more, after a warm-up. */
#define PP_DURATION	"110ms"
#define PP_WARMUP	"10ms"
/* The system calls of a half round trip in the simulation that counts (2.1-2.3 us measured). */
#define PP_COUNT_RUN_NS	2000

/* The defaults' proportions of a switch, a wakeup and a sleep (docs/scheduler.md). */
static const double share_switch = 1.0 / 1.8, share_wakeup = 0.5 / 1.8, share_sleep = 0.3 / 1.8;

/* Append to @b (of @len) at *@n; false when it is full. */
static bool put(char *b, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool put(char *b, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(b + *n, len - *n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= len - *n)
		return false;
	*n += (size_t)w;
	return true;
}

/*
 * The cgroups of @pt's chains as calibrate places the threads (live_calibrate.c), one
 * `cgroups:` line each into @b, and the two threads' own (0: ping, 1: pong) into @cg: "/" at
 * depth 0, else depth levels, the shared ones s1, s2, ... and those of each thread's own
 * (live_cal_level_own()) aL and bL. A cgroup2 point's threaded cgroups are domains here: the
 * scheduler sees the same task groups.
 */
static bool pp_cgroups(const struct live_cal_point *pt, char cg[2][256], char *b, size_t len,
		       size_t *n)
{
	size_t at[2] = { 0, 0 };
	bool ok = true;

	for (int k = 0; k < 2; k++)
		snprintf(cg[k], sizeof(cg[k]), "%s", pt->depth ? "" : "/");
	for (int lv = 1; ok && lv <= pt->depth; lv++)
		for (int k = 0; ok && k < 2; k++) {
			ok = put(cg[k], sizeof(cg[k]), &at[k], "%s%c%d", lv > 1 ? "/" : "",
				 live_cal_level_own(pt, lv) ? (k ? 'b' : 'a') : 's', lv);
			/* a level both threads share is one cgroup */
			if (ok && (!k || strcmp(cg[0], cg[1])))
				ok = put(b, len, n, "  %s: { cgroup.subtree_control: +cpu }\n",
					 cg[k]);
		}
	return ok;
}

/*
 * One thread of the ping-pong, into @b: @name runs the first half @a of its system calls (the
 * read that returns, the write up to its wakeup), posts @peer, runs the second half @z (the
 * rest of the write, the read up to where it blocks) and suspends; a post that finds the other
 * thread not yet suspended is kept, as the pipe keeps the byte, and its suspend then goes on
 * at once. @first starts at 1 ms; the other starts suspended.
 */
static bool pp_thread(char *b, size_t len, size_t *n, const char *name, const char *peer,
		      bool first, uint64_t a, uint64_t z)
{
	return put(b, len, n, "      %s: { %sbehavior: { phases: [ %s{ run: %" PRIu64 "ns }, "
		   "{ post: %s }, { run: %" PRIu64 "ns }%s ] } }\n", name,
		   first ? "start: 1ms, " : "", first ? "" : "suspend, ", a, peer, z,
		   first ? ", suspend" : "");
}

/*
 * The scenario of the ping-pong at @pt, @run_ns of system calls a half round trip split evenly
 * around the post (pp_thread()). With the scheduler's time charged to the task on the CPU,
 * the writer has run longer than the reader it wakes and is preempted by it, as in the kernel
 * (docs/overhead.md, "The simulated ping-pong"). Both threads in one process when they share
 * a cgroup, so that with autogroup they share its group as the helper's threads do. Costs: the
 * file @profile, else @cost inline.
 */
static int pp_text(const struct live_cal_point *pt, const char *profile,
		   const struct sched_costs *cost, uint64_t run_ns, char *b, size_t len)
{
	char cg[2][256];
	bool one = !pt->depth || pt->placement == LIVE_CAL_SAME;
	const char *pa = one ? "pp" : "pa", *pb = one ? "pp" : "pb";
	uint64_t a = run_ns / 2, z = run_ns - run_ns / 2;
	char ping[16], pong[16];
	size_t n = 0;
	bool ok;

	snprintf(ping, sizeof(ping), "%s/ping.1", pa);
	snprintf(pong, sizeof(pong), "%s/pong.1", pb);
	ok = put(b, len, &n, "name: calibrate-pingpong\nduration: " PP_DURATION "\nwarmup: "
		 PP_WARMUP "\nmachine: { cpus: 1, hz: 250, timer_latency: 0, idle_exit: 0, "
		 "clock_phase: 0, autogroup: %s, costs: ", pt->autogroup ? "true" : "false");
	if (profile)
		ok = ok && put(b, len, &n, "\"%s\" }\n", profile);
	else
		ok = ok && put(b, len, &n, "{ switch: %" PRIu64 "ns, wakeup: %" PRIu64 "ns, "
			       "sleep: %" PRIu64 "ns, tick: %" PRIu64 "ns, level: %" PRIu64
			       "ns, walk: %" PRIu64 "ns } }\n", cost->switch_ns, cost->wakeup_ns,
			       cost->sleep_ns, cost->tick_ns, cost->level_ns, cost->walk_ns);
	/*
	 * The kernel the costs are fitted on: calibrate --live measures walks of the hierarchical
	 * pick (every level a tree), which 6.18 runs; the flat pick of 7.3 walks differently.
	 */
	ok = ok && put(b, len, &n, "scheduler: { kernel: \"6.18\", jitter: false }\ncgroups:\n"
		       "  /: { cgroup.subtree_control: +cpu }\n") && pp_cgroups(pt, cg, b, len, &n);
	ok = ok && put(b, len, &n, "processes:\n  %s:\n    cgroup: %s\n    threads:\n", pa, cg[0]) &&
	     pp_thread(b, len, &n, "ping", pong, true, a, z);
	if (!one)
		ok = ok && put(b, len, &n, "  %s:\n    cgroup: %s\n    threads:\n", pb, cg[1]);
	ok = ok && pp_thread(b, len, &n, "pong", ping, false, a, z);
	return ok ? 0 : -ENAMETOOLONG;
}

/*
 * Run the ping-pong at @pt with @run_ns a half; *@res is the run's result (run_free() it),
 * *@trips its round trips and *@wakeups the wakeups in the measured window. Which thread
 * blocks in a round trip changes from time to time, so round trips are counted by the work
 * done: the CPU is never idle in the window, so its threads' work is the window less the
 * scheduler's time, and a round trip is two halves of work plus 1 ns for each thread woken
 * from its wait (docs/scenario-format.md, "suspend").
 */
static int pp_run(const struct live_cal_point *pt, const char *profile,
		  const struct sched_costs *cost, uint64_t run_ns, struct run_result **res,
		  double *trips, uint64_t *wakeups, char *err, size_t errlen)
{
	char text[4096];
	struct run_result *r;
	struct scenario *sc;
	uint64_t w = 0;
	int e;

	*res = NULL;
	if (pp_text(pt, profile, cost, run_ns, text, sizeof(text))) {
		snprintf(err, errlen, "cgsim: the ping-pong's scenario is too long");
		return -EINVAL;
	}
	/* a name without a directory: a relative profile name is read from the CWD */
	sc = scn_load("calibrate-pingpong", text, NULL, NULL, 0, err, errlen);
	if (!sc)
		return -EINVAL;
	e = run_scenario(sc, false, &r, err, errlen);
	scn_free(sc);
	if (e)
		return -EINVAL;
	for (size_t i = 0; i < r->nthreads; i++)
		w += r->threads[i].wakeups;
	if (r->overhead_ns + w >= r->measured_ns) {
		run_free(r);
		snprintf(err, errlen, "cgsim: the simulated ping-pong made no round trip");
		return -EINVAL;
	}
	*trips = (double)(r->measured_ns - r->overhead_ns - w) / (2.0 * (double)run_ns);
	*wakeups = w;
	*res = r;
	return 0;
}

int calprof_counts(const struct live_cal_point *pt, struct calprof_counts *out, char *err,
		   size_t errlen)
{
	struct sched_config def;
	struct run_result *r;
	uint64_t w;
	double n;
	int e;

	sched_config_default(&def, SCHED_POLICY_EEVDF, 1);
	e = pp_run(pt, NULL, &def.cost, PP_COUNT_RUN_NS, &r, &n, &w, err, errlen);
	if (e)
		return e;
	out->walks = (double)r->level_walks / n;
	out->ops = (double)r->level_ops / n;
	out->switches = (double)r->switches / n;
	out->wakeups = (double)w / n;
	run_free(r);
	return 0;
}

int calprof_predict(const struct live_cal_point *pt, const char *profile,
		    const struct sched_costs *cost, double run_ns, double *rt_ns, char *err,
		    size_t errlen)
{
	uint64_t half = run_ns >= 2 ? (uint64_t)llround(run_ns) : 2, w;
	struct run_result *r;
	double n;
	int e = pp_run(pt, profile, cost, half, &r, &n, &w, err, errlen);

	if (e)
		return e;
	*rt_ns = (double)r->measured_ns / n;
	run_free(r);
	return 0;
}

/* A non-negative fitted constant, in whole ns; *@clamped when it was negative. */
static uint64_t whole_ns(double x, bool *clamped)
{
	if (x < 0) {
		*clamped = true;
		return 0;
	}
	return (uint64_t)llround(x);
}

/*
 * The least-squares problem of report @r: a row of @X (1, walks, level operations) and @y (the
 * median round trip) per point; in *@events the sum of the points' weighted events.
 */
static int fit_design(const struct live_cal_report *r, gsl_matrix *X, gsl_vector *y,
		      double *events, char *err, size_t errlen)
{
	for (size_t i = 0; i < r->npoints; i++) {
		struct calprof_counts k;
		int e = calprof_counts(&r->points[i], &k, err, errlen);

		if (e)
			return e;
		/* the events of a round trip, weighted as their base costs are split below */
		*events += k.switches * share_switch + k.wakeups * (share_wakeup + share_sleep);
		gsl_matrix_set(X, i, 0, 1);
		gsl_matrix_set(X, i, 1, k.walks);
		gsl_matrix_set(X, i, 2, k.ops);
		gsl_vector_set(y, i, r->points[i].median_ns);
	}
	return 0;
}

/*
 * The intercept is a round trip without its levels: two halves of system calls and the
 * events the simulation counts in a round trip (two switches, and a wakeup and a sleep
 * for each time a thread blocks), their mean over the points (@mean_events). Split in the
 * defaults' proportions (switch : wakeup : sleep = 1 : 0.5 : 0.3): with E the mean of
 * (switches + 0.8 wakeups) / 1.8, intercept - 2 system calls = 1.8 E switch_ns, so
 * event = that / E and each cost is its share of event.
 */
static int split_base(const struct live_cal_report *r, struct calprof *out, double mean_events,
		      char *err, size_t errlen)
{
	double event = (out->base_ns - 2 * r->syscalls_ns) / mean_events;

	if (!(event > 0)) {
		snprintf(err, errlen, "cgsim: the system calls (%.0f ns a half round trip) leave "
			 "nothing of the fitted base (%.0f ns) to the scheduler; the machine was "
			 "disturbed?", r->syscalls_ns, out->base_ns);
		return -EINVAL;
	}
	out->cost.switch_ns = (uint64_t)llround(event * share_switch);
	out->cost.wakeup_ns = (uint64_t)llround(event * share_wakeup);
	out->cost.sleep_ns = (uint64_t)llround(event * share_sleep);
	return 0;
}

int calprof_fit(const struct live_cal_report *r, struct calprof *out, char *err, size_t errlen)
{
	size_t n = r->npoints;
	gsl_matrix *X = NULL, *cov = NULL;
	struct sched_config def;
	gsl_vector *y = NULL, *c = NULL;
	gsl_multifit_linear_workspace *w = NULL;
	gsl_error_handler_t *old;
	double chisq, events = 0;
	int e = 0;

	memset(out, 0, sizeof(*out));
	sched_config_default(&def, SCHED_POLICY_EEVDF, 1);
	out->cost = def.cost;
	if (n < 4 || n > LIVE_CAL_MAX_POINTS) {
		snprintf(err, errlen, "cgsim: %zu points cannot fit three constants", n);
		return -EINVAL;
	}
	X = gsl_matrix_alloc(n, 3);
	y = gsl_vector_alloc(n);
	c = gsl_vector_alloc(3);
	cov = gsl_matrix_alloc(3, 3);
	w = gsl_multifit_linear_alloc(n, 3);
	if (!X || !y || !c || !cov || !w) {
		snprintf(err, errlen, "cgsim: out of memory");
		e = -ENOMEM;
		goto out;
	}
	if ((e = fit_design(r, X, y, &events, err, errlen)))
		goto out;
	old = gsl_set_error_handler_off();
	if (gsl_multifit_linear(X, y, c, cov, &chisq, w)) {
		gsl_set_error_handler(old);
		snprintf(err, errlen, "cgsim: the least-squares fit failed");
		e = -EINVAL;
		goto out;
	}
	gsl_set_error_handler(old);
	out->n = n;
	out->base_ns = gsl_vector_get(c, 0);
	out->base_se = sqrt(gsl_matrix_get(cov, 0, 0));
	out->walk_se = sqrt(gsl_matrix_get(cov, 1, 1));
	out->level_se = sqrt(gsl_matrix_get(cov, 2, 2));
	out->cost.walk_ns = whole_ns(gsl_vector_get(c, 1), &out->clamped);
	out->cost.level_ns = whole_ns(gsl_vector_get(c, 2), &out->clamped);
	for (size_t i = 0; i < n; i++)
		out->residual_ns[i] = gsl_vector_get(y, i) -
				      (out->base_ns + gsl_vector_get(c, 1) * gsl_matrix_get(X, i, 1) +
				       gsl_vector_get(c, 2) * gsl_matrix_get(X, i, 2));
	e = split_base(r, out, events / (double)n, err, errlen);
out:
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	gsl_vector_free(y);
	gsl_matrix_free(X);
	return e;
}

/* @s as a YAML double-quoted string's contents: printable ASCII but quotes and backslashes. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			fputc(*s, f);
}

void calprof_write(FILE *f, const struct calprof *p, const struct live_cal_report *r,
		   const char *date)
{
	fprintf(f, "# A machine cost profile for cgsim's overhead model, written by cgsim calibrate "
		   "--live.\n# Use it with  machine: { costs: FILE }  (docs/overhead.md). tick is "
		   "the default: not measured.\ncgsim-costs: 1\n");
	fprintf(f, "costs: { switch: %" PRIu64 "ns, wakeup: %" PRIu64 "ns, sleep: %" PRIu64 "ns, "
		   "tick: %" PRIu64 "ns, level: %" PRIu64 "ns, walk: %" PRIu64 "ns }\n",
		p->cost.switch_ns, p->cost.wakeup_ns, p->cost.sleep_ns, p->cost.tick_ns,
		p->cost.level_ns, p->cost.walk_ns);
	fputs("measured: { kernel: \"", f);
	put_text(f, r->kernel);
	fputs("\", cpu_model: \"", f);
	put_text(f, r->cpu_model);
	fprintf(f, "\", date: \"%s\", cpu: %d, reps: %u, round_trips: %lu, syscalls_ns: %.1f, "
		   "base_ns: %.1f, base_se_ns: %.1f, walk_se_ns: %.2f, level_se_ns: %.2f }\n", date,
		r->cpu, r->reps, r->round_trips, r->syscalls_ns, p->base_ns, p->base_se,
		p->walk_se, p->level_se);
}
