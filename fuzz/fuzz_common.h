/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz_common.h - what the libFuzzer targets share (docs/fuzzing.md).
 *
 * Every input must give either a result or one error message: a crash, a leak, undefined
 * behaviour, a broken scheduler or cgroup invariant, or a run that does not end is a bug.
 */
#ifndef CGSIM_FUZZ_COMMON_H
#define CGSIM_FUZZ_COMMON_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

/* libFuzzer's entry point; declared here for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs are cut to this much simulated time, and skipped above this many threads. */
#define FUZZ_MAX_DURATION 200000000ull	/* 0.2 s */
#define FUZZ_MAX_THREADS 200
/* ... and stopped after this many events: a 0.2 s run of 200 threads needs far fewer. */
#define FUZZ_MAX_EVENTS 2000000ull

/* A NUL-terminated copy of the input (the loaders read C strings); NULL when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/*
 * The threads the timeline's 'proc' operations make, as their threads=N words say (1 without
 * one): the checker costs O(threads) at each of them, so a timeline of 50,000 threads would
 * take minutes (one did, 2026-12-03) where the declared threads are already bounded.
 */
static inline size_t fuzz_timeline_threads(const struct scenario *sc)
{
	size_t n = 0;

	for (size_t i = 0; i < sc->ntimeline; i++) {
		const char *op = sc->timeline[i].op, *t;

		while (*op == ' ' || *op == '\t')
			op++;
		if (strncmp(op, "proc", 4) || (op[4] != ' ' && op[4] != '\t'))
			continue;
		t = strstr(op, "threads=");
		n += t ? strtoul(t + 8, NULL, 10) : 1;
	}
	return n;
}

/*
 * A short run of a loaded scenario with the scheduler's invariant checker on: the checker
 * aborts on a broken invariant, which libFuzzer reports as a crash.
 */
static inline void fuzz_run(struct scenario *sc)
{
	struct run_result *r;
	char err[2048];

	if ((size_t)sc->total_threads + fuzz_timeline_threads(sc) > FUZZ_MAX_THREADS)
		return;
	sc->sched.check = true;
	if (sc->duration > FUZZ_MAX_DURATION) {
		sc->duration = FUZZ_MAX_DURATION;
		if (sc->warmup >= sc->duration)
			sc->warmup = 0;
	}
	run_set_max_events(FUZZ_MAX_EVENTS);
	if (!run_scenario(sc, false, &r, err, sizeof(err)))
		run_free(r);
}

#endif
