// SPDX-License-Identifier: MIT
/*
 * bench/bench_jobs.c - what compare --jobs N gains on this machine (a benchmark, not a test:
 * timings depend on the machine and on what else it runs).
 *
 * Each case is a comparison of a scenario from scenarios/ with --seeds K, run with --jobs 1
 * and with --jobs N (N: the online CPUs, at least 2), REPS times each, alternating; it prints
 * the median wall time of each, the speed-up, and whether the outputs were the same bytes
 * (they must be: exit status 1 when not).
 *
 *   bench_jobs [REPS]       default 5; run from the repository root after make (make bench
 *                           does both): it times ./cgsim, the whole command
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/study/jobs.h"

struct bench_case {
	const char *file, *seeds;
	size_t runs;		/* the length of its job list, for the line printed */
};

static const struct bench_case cases[] = {
	/* 3 variants x (1 + 7 sweep values) x 10 seeds: many short runs */
	{ "scenarios/zijlstra-root-vm.yaml", "10", 240 },
	/* 1 variant x (1 + 9 depths) x 4 seeds: fewer, longer runs of unequal length */
	{ "scenarios/depth-overhead.yaml", "4", 40 },
	/* 3 variants x 20 seeds, no sweep */
	{ "scenarios/bursty-mix.yaml", "20", 60 },
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One ./cgsim compare with @jobs workers, its stdout into @out; the wall seconds, or -1. */
static double one(const struct bench_case *c, const char *jobs, const char *out)
{
	double t0 = wall();
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		execl("./cgsim", "cgsim", "compare", c->file, "--seeds", c->seeds, "--jobs", jobs,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return wall() - t0;
}

static bool same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	int x, y;

	while (same) {
		x = getc(fa);
		y = getc(fb);
		same = x == y;
		if (x == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	size_t n = jobs_online_cpus() < 2 ? 2 : jobs_online_cpus();
	char jn[16], one_out[] = "/tmp/bench_jobs.1.XXXXXX", n_out[] = "/tmp/bench_jobs.n.XXXXXX";
	double *t1, *tn;
	int bad = 0, f1 = mkstemp(one_out), fn = mkstemp(n_out);

	if (reps < 1 || reps > 100 || f1 < 0 || fn < 0) {
		fprintf(stderr, "usage: bench_jobs [REPS, 1 to 100]\n");
		return 2;
	}
	close(f1);
	close(fn);
	t1 = calloc((size_t)reps, sizeof(*t1));
	tn = calloc((size_t)reps, sizeof(*tn));
	if (!t1 || !tn)
		return 2;
	snprintf(jn, sizeof(jn), "%zu", n);
	printf("compare --jobs 1 against --jobs %zu (%zu online CPUs), median of %d\n", n,
	       jobs_online_cpus(), reps);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bool same = true;

		for (int r = 0; r < reps; r++) {
			t1[r] = one(&cases[c], "1", one_out);
			tn[r] = one(&cases[c], jn, n_out);
			same = same && t1[r] >= 0 && tn[r] >= 0 && same_file(one_out, n_out);
		}
		qsort(t1, (size_t)reps, sizeof(*t1), cmp_double);
		qsort(tn, (size_t)reps, sizeof(*tn), cmp_double);
		printf("%-32s --seeds %-3s %4zu runs: jobs 1 %.3f s, jobs %zu %.3f s, x%.2f, %s\n",
		       cases[c].file, cases[c].seeds, cases[c].runs, t1[reps / 2], n, tn[reps / 2],
		       t1[reps / 2] / tn[reps / 2], same ? "same bytes" : "OUTPUTS DIFFER");
		bad |= !same;
	}
	unlink(one_out);
	unlink(n_out);
	free(t1);
	free(tn);
	return bad;
}
