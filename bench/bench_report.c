// SPDX-License-Identifier: MIT
/*
 * bench/bench_report.c - what printing a large run's reports costs (a benchmark, not a test:
 * timings depend on the machine and on what else it runs).
 *
 * The run: 100,000 threads (the thread limit) in 100 processes of 1,000, each thread waking
 * every few milliseconds, on 2 CPUs for 20 ms simulated (a fraction of a second to run). Its
 * reports are printed to /dev/null, each REPS times, the best time kept:
 *
 *   text, json        cgsim run's two reports; then text/json, the ratio, which issue 38 bounds
 *                     at 2 (the text's per-process summary was quadratic: 38.5 s against 0.52 s)
 *   schbench          the --schbench blocks (every thread pooled, then per process)
 *   latency table     perf sched latency's table
 *   compare text, compare markdown, compare json
 *                     the same run in two variants (CFS and EEVDF) put side by side
 *
 *   bench_report [REPS]      default 5
 *
 * One "name: value unit" line per figure; exit status 1 when text/json is over its bound.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/study/compare.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

#define BENCH_PROCS		100
#define BENCH_THREADS_PER	1000	/* 100 x 1,000: the thread limit */
#define BENCH_RATIO_BOUND	2.0	/* text within 2x of JSON (issue 38) */

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The scenario: processes p0 .. p99 of 1,000 threads each, two variants. */
static char *scenario_text(void)
{
	size_t cap = 256 + BENCH_PROCS * 128, n;
	char *s = malloc(cap);

	if (!s)
		exit(2);
	n = (size_t)snprintf(s, cap, "name: report-bench\nduration: 20ms\nwarmup: 0ms\n"
			     "machine: { cpus: 2 }\nprocesses:\n");
	for (int p = 0; p < BENCH_PROCS; p++)
		n += (size_t)snprintf(s + n, cap - n, "  p%d: { threads: { t: { count: %d, "
				      "behavior: { bursty: { run: exp(0.1ms), sleep: exp(5ms) } } "
				      "} } }\n", p, BENCH_THREADS_PER);
	snprintf(s + n, cap - n, "variants:\n  cfs: { set: { scheduler.policy: cfs } }\n");
	return s;
}

typedef void run_printer(FILE *f, const struct run_result *r);
typedef int compare_printer(FILE *f, const struct compare *c);

/* The best of @reps prints of @r (or @c) to @out, in seconds. */
static double best_of(int reps, FILE *out, run_printer *rp, const struct run_result *r,
		      compare_printer *cp, const struct compare *c)
{
	double best = 0;

	for (int k = 0; k < reps; k++) {
		double t0 = wall(), t;

		if (rp)
			rp(out, r);
		else if (cp(out, c))
			exit(2);
		fflush(out);
		t = wall() - t0;
		if (!k || t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	FILE *out = fopen("/dev/null", "w");
	char *text = scenario_text(), err[4096];
	struct scn_source *src;
	struct compare *c;
	double text_s, json_s, t0 = wall();

	if (reps < 1 || !out)
		return 2;
	src = scn_source_read("bench.yaml", text, err, sizeof(err));
	if (!src || compare_load(src, NULL, 0, SCN_NO_SWEEP, 1, NULL, &c, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	scn_source_put(src);
	for (size_t v = 0; v < c->n; v++)
		if (run_scenario(c->sc[v], false, &c->res[v], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	if (compare_finish(c, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	printf("runs of %zu threads in %d processes, %zu variants: %.2f s\n",
	       c->res[0]->nthreads, BENCH_PROCS, c->n, wall() - t0);
	text_s = best_of(reps, out, report_text, c->res[0], NULL, NULL);
	json_s = best_of(reps, out, report_json, c->res[0], NULL, NULL);
	printf("report text: %.3f s\nreport json: %.3f s\n", text_s, json_s);
	printf("report text/json: %.2f (bound %.0f)%s\n", text_s / json_s, BENCH_RATIO_BOUND,
	       text_s > BENCH_RATIO_BOUND * json_s ? "  OVER" : "");
	printf("report schbench: %.3f s\n", best_of(reps, out, report_schbench, c->res[0], NULL,
						     NULL));
	printf("report latency table: %.3f s\n", best_of(reps, out, report_latency_table,
							  c->res[0], NULL, NULL));
	printf("compare text: %.3f s\n", best_of(reps, out, NULL, NULL, compare_text, c));
	printf("compare markdown: %.3f s\n", best_of(reps, out, NULL, NULL, compare_markdown, c));
	printf("compare json: %.3f s\n", best_of(reps, out, NULL, NULL, compare_json, c));
	compare_free(c);
	fclose(out);
	free(text);
	return text_s > BENCH_RATIO_BOUND * json_s ? 1 : 0;
}
