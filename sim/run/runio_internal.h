/* SPDX-License-Identifier: MIT */
/*
 * sim/run/runio_internal.h - what runio.c (the tables, the writer) and runio_read.c (the
 * reader) share, and nobody else may use.
 */
#ifndef CGSIM_SIM_RUN_RUNIO_INTERNAL_H
#define CGSIM_SIM_RUN_RUNIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/run/run.h"

/* The latency distribution has at most 1000 points (sim/run/run.h). */
#define RUNIO_MAX_CDF		1000

/* What a field is, in the struct and in the text. */
enum runio__kind {
	RUNIO_K_U64, RUNIO_K_SIZE, RUNIO_K_I64, RUNIO_K_INT, RUNIO_K_BOOL, RUNIO_K_DBL, RUNIO_K_STR
};

struct runio__field {
	const char *name;
	enum runio__kind kind;
	size_t off;
	int lo, hi;		/* RUNIO_K_INT: its range */
};

/* One line of the format: its keyword and the fields of the struct it holds, in order. */
struct runio__line {
	const char *key;
	const struct runio__field *f;
	size_t n;
};

/* One point of the latency distribution, as the cdf section holds it. */
struct runio__cdf_point {
	double ms, frac;
};

/* The lines (runio.c): a record's keyword and fields. */
extern const struct runio__line runio__run_line, runio__fairness_line, runio__machine_line,
	runio__act_line, runio__group_line, runio__op_line, runio__refused_line,
	runio__point_line, runio__series_line;
/* a thread's first lines, in order, runio__nthread_lines of them */
extern const struct runio__line runio__thread_lines[];
extern const size_t runio__nthread_lines;

/* A byte a string holds as %XX: white space, controls, the quote, '%' and all but ASCII. */
bool runio__escaped(unsigned char c);

#endif /* CGSIM_SIM_RUN_RUNIO_INTERNAL_H */
