/* SPDX-License-Identifier: MIT */
/*
 * sim/study/compare_internal.h - what the comparison's files share (compare.c: loading, runs,
 * freeing; compare_rows.c: the rows and their figures; compare_print.c: the tables;
 * sweep.c: the sweeps). Not for other modules: sim/study/compare.h is the interface.
 */
#ifndef CGSIM_SIM_STUDY_COMPARE_INTERNAL_H
#define CGSIM_SIM_STUDY_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/study/compare.h"
#include "sim/report/report.h"
#include "sim/run/seeds.h"

/* Room for a cgroup path (at most 1024 bytes) or a sweep value with every byte as \xNN. */
#define VIS_SIZE REPORT_VISIBLE_SIZE(4096)

#define LABEL_W 22	/* the text table's label column */

static inline const char *compare__vname(const struct compare *c, size_t v)
{
	return c->sc[v]->variant;
}

/* Variant @v's run of seed S + @k (0: res[v]). */
static inline const struct run_result *compare__run_of(const struct compare *c, size_t v, size_t k)
{
	return k ? c->sum[v]->runs[k] : c->res[v];
}

/* ---------------- rows (compare_rows.c) ---------------- */

enum row_kind { ROW_GROUP, ROW_PROCESS, ROW_MACHINE };

enum machine_row {
	M_JAIN, M_MAX_ABS, M_P50, M_P99, M_SWITCHES, M_OVERHEAD, M_LEVEL_OPS, M_NR
};

/* A row's figures in one run: its share and ideal, and a process's largest wakeup p99. */
struct cell {
	double share, ideal;
	uint64_t p99;		/* ns, as expect: takes it */
	bool have, woke;
};

/*
 * Every group path and process name of any variant, in order of first appearance, and each
 * one's figures in every run, found once: looking each row up in each run by a linear search
 * made the tables quadratic (rows x threads) at 100,000 threads.
 */
struct labels {
	char **name;
	enum row_kind *kind;
	size_t n;
	bool *shared_tail;	/* its text label, cut, would read as another's */
	struct cell *cell;	/* row i in variant v's run of seed k: [(v * nseeds + k) * n + i] */
	size_t nseeds;
};

static inline struct cell *compare__cell_at(const struct labels *l, size_t v, size_t k, size_t i)
{
	return &l->cell[(v * l->nseeds + k) * l->n + i];
}

/* The text label's room for the name after "group " or "process ". */
static inline size_t compare__label_room(enum row_kind k)
{
	return LABEL_W - strlen(k == ROW_GROUP ? "group " : "process ");
}

/*
 * compare__collect() - every group (then every process) of seed S's runs, in the order they
 * are first met, variant after variant, and each one's figures in every run. 0 or -ENOMEM;
 * either way compare__free_labels() frees it.
 */
int compare__collect(const struct compare *c, struct labels *l);
void compare__free_labels(struct labels *l);
/*
 * compare__row_share() - row @i's share in variant @v summed up over its seeds, and its
 * ideal; false when the row is not in every one of them.
 */
bool compare__row_share(const struct compare *c, const struct labels *l, size_t i, size_t v,
			struct seeds_stat *st, double *ideal);
/* compare__machine_value() - a machine figure of one run (NAN: the run has none). */
double compare__machine_value(const struct run_result *r, enum machine_row m);
/* compare__machine_mean() - a machine figure of variant @v, the mean over its seeds. */
double compare__machine_mean(const struct compare *c, size_t v, enum machine_row m);

/* compare__markdown_head() - a markdown table's head (compare_print.c). */
void compare__markdown_head(FILE *f, const struct compare *c, const char *first, size_t from);

#endif /* CGSIM_SIM_STUDY_COMPARE_INTERNAL_H */
