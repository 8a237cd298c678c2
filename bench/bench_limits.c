// SPDX-License-Identifier: MIT
/*
 * bench/bench_limits.c - time and peak memory of the largest inputs cgsim accepts, against the
 * bounds docs/limits.md promises (a benchmark, not a test: timings depend on the machine).
 *
 *   (a) 100,000 threads (the thread limit), busy, on 2 CPUs, 100 ms simulated;
 *   (b) 10,000 cgroups at full depth (20 chains of 500 levels under the v1 rules, so that every
 *       level is a task group) on 104 CPUs, at the cgroups x CPUs limit, one busy thread per
 *       leaf, 1 s simulated;
 *   (c) 100,000 timeline entries (the timeline limit), weight writes on a small layout;
 *   (d) loading a document of 1,000,001 YAML nodes and one of 99,001 keys with a duplicate at
 *       the end: both refused, the time is what refusing costs;
 *   (e) a short file that asks for 10^12 wakeups, against a work limit of 10^8 events: the
 *       time to reach the limit (the default limit, 10^9, costs ten times that).
 *
 *   bench_limits [a|b|c|d|e]...      default: all
 *
 * Each case runs in a child process, so that its peak RSS (getrusage of the child) is its own.
 * One "name: value unit (bound B)" line per figure; exit status 1 when one is over its bound.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

/* A growing text buffer for the generated scenarios. */
struct text {
	char *s;
	size_t n, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			exit(2);
		if (t->s && t->n + (size_t)k < t->cap)
			break;
		t->cap = (t->cap + (size_t)k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			exit(2);
	}
	t->n += (size_t)k;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Load and run @text in this process; @expect_error: the load or the run must fail (the
 * refusal is what is measured). Exit status 0 when it went as expected.
 */
static int load_and_run(const struct text *t, bool expect_error)
{
	char err[4096];
	struct scenario *sc = scn_load("bench.yaml", t->s, NULL, NULL, 0, err, sizeof(err));
	struct run_result *r = NULL;
	int e;

	if (!sc)
		return expect_error ? 0 : (fprintf(stderr, "%s\n", err), 1);
	e = run_scenario(sc, false, &r, err, sizeof(err));
	run_free(r);
	scn_free(sc);
	if (e && !expect_error)
		fprintf(stderr, "%s\n", err);
	return (e != 0) == expect_error ? 0 : 1;
}

static bool over;

/*
 * Run @t in a child, which reports its own peak RSS through a pipe when done (POSIX has no
 * per-child rusage); print the wall time and the peak against the bounds.
 */
static void measure(const char *name, const struct text *t, bool expect_error, double max_s,
		    double max_mb)
{
	double t0 = wall(), secs, mb;
	long kb = -1;
	int status, fd[2];
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid) {
		struct rusage ru;
		int rc = load_and_run(t, expect_error);

		getrusage(RUSAGE_SELF, &ru);
		kb = ru.ru_maxrss;
		if (write(fd[1], &kb, sizeof(kb)) != sizeof(kb))
			rc = 1;
		_exit(rc);
	}
	close(fd[1]);
	if (read(fd[0], &kb, sizeof(kb)) != sizeof(kb))
		kb = -1;
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		exit(2);
	}
	secs = wall() - t0;
	mb = (double)kb / 1024.0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || kb < 0) {
		printf("%s: FAILED (%s)\n", name, expect_error ? "was not refused" : "did not run");
		over = true;
		return;
	}
	printf("%s: %.2f s (bound %.0f s), peak %.0f MB (bound %.0f MB)%s\n", name, secs, max_s,
	       mb, max_mb, secs > max_s || mb > max_mb ? "  OVER" : "");
	over |= secs > max_s || mb > max_mb;
}

static void case_threads(void)
{
	struct text t = { 0 };

	add(&t, "name: threads\nduration: 100ms\nmachine: { cpus: 2 }\nprocesses:\n"
		"  p: { threads: { t: { count: %d, behavior: busy } } }\n", SCN_MAX_THREADS);
	measure("a 100,000 threads, 2 CPUs, 0.1 s", &t, false, 30, 1500);
	free(t.s);
}

static void case_deep(void)
{
	struct text t = { 0 };

	add(&t, "name: deep\nduration: 1s\nsemantics: v1\nmachine: { cpus: %u }\ncgroups:\n",
	    SCN_MAX_CGROUP_CPUS / SCN_MAX_CGROUPS);
	for (int c = 0; c < 20; c++) {
		add(&t, "  c%d", c);
		for (int d = 1; d < 500; d++)
			add(&t, "/a");
		add(&t, ": { cpu.shares: %d }\n", 1024 + 10 * c);
	}
	add(&t, "processes:\n");
	for (int c = 0; c < 20; c++) {
		add(&t, "  p%d: { cgroup: c%d", c, c);
		for (int d = 1; d < 500; d++)
			add(&t, "/a");
		add(&t, ", threads: { t: { behavior: busy } } }\n");
	}
	measure("b 10,000 cgroups 500 deep, 104 CPUs, 1 s", &t, false, 30, 1000);
	free(t.s);
}

static void case_timeline(void)
{
	struct text t = { 0 };

	add(&t, "name: timeline\nduration: 11s\nmachine: { cpus: 2 }\ncgroups:\n"
		"  /: { cgroup.subtree_control: +cpu }\n  a:\n  b:\nprocesses:\n"
		"  p: { cgroup: a, threads: { t: { count: 2, behavior: busy } } }\n"
		"  q: { cgroup: b, threads: { t: { count: 2, behavior: busy } } }\ntimeline:\n");
	/* 100 a millisecond, short enough for 100,000 to fit in 4 MiB */
	for (int i = 0; i < SCN_MAX_TIMELINE; i++)
		add(&t, "- {at: %dms, do: write a/cpu.weight %d}\n", 1 + i / 100, 1 + i % 9);
	measure("c 100,000 timeline entries, 11 s", &t, false, 30, 300);
	free(t.s);
}

static void case_yaml(void)
{
	struct text t = { 0 };

	add(&t, "x: [0");
	for (int i = 1; i <= 1000000; i++)
		add(&t, ",0");
	add(&t, "]\n");
	measure("d 1,000,001 YAML nodes, refused", &t, true, 5, 300);
	free(t.s);
	t = (struct text){ 0 };
	add(&t, "name: t\nduration: 1s\nx:\n");
	for (int i = 0; i < 99000; i++)
		add(&t, "  k%06d: 1\n", i);
	add(&t, "  k000000: 1\n");
	measure("d 99,001 keys with a duplicate, refused", &t, true, 5, 300);
	free(t.s);
}

static void case_work(void)
{
	struct text t = { 0 };

	add(&t, "name: work\nduration: 1000000s\nmachine: { cpus: 2 }\nprocesses:\n"
		"  p: { threads: { t: { count: 8, behavior: { periodic: { period: 1us, "
		"run: 100ns } } } } }\n");
	run_set_max_events(100000000ull);
	measure("e 10^12 wakeups asked, stopped at 10^8 events", &t, true, 60, 100);
	run_set_max_events(RUN_MAX_EVENTS);
	free(t.s);
}

int main(int argc, char **argv)
{
	static const struct {
		char key;
		void (*fn)(void);
	} cases[] = { { 'a', case_threads }, { 'b', case_deep }, { 'c', case_timeline },
		      { 'd', case_yaml }, { 'e', case_work } };

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		bool want = argc < 2;

		for (int i = 1; i < argc; i++)
			want |= argv[i][0] == cases[k].key;
		if (want)
			cases[k].fn();
	}
	return over ? 1 : 0;
}
