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
 * A short run of a loaded scenario with the scheduler's invariant checker on: the checker
 * aborts on a broken invariant, which libFuzzer reports as a crash.
 */
static inline void fuzz_run(struct scenario *sc)
{
	struct run_result *r;
	char err[2048];

	sc->sched.check = true;
	if (sc->duration > FUZZ_MAX_DURATION) {
		sc->duration = FUZZ_MAX_DURATION;
		if (sc->warmup >= sc->duration)
			sc->warmup = 0;
	}
	if (sc->total_threads > FUZZ_MAX_THREADS)
		return;
	run_set_max_events(FUZZ_MAX_EVENTS);
	if (!run_scenario(sc, false, &r, err, sizeof(err)))
		run_free(r);
}

#endif
