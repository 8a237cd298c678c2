/* SPDX-License-Identifier: MIT */
/*
 * sim/report/report.h - what a run produced, for people (text), for scripts (JSON,
 * docs/scenario-format.md's schema plus a few fields) and for plots (CSV files in a directory,
 * written atomically). Every number is printed with a fixed format, so the same run gives the
 * same bytes. The reports only read results (a run's, the seeds', a validation's, a
 * calibration's): they include no room above them (the studies, the command line).
 */
#ifndef CGSIM_SIM_REPORT_REPORT_H
#define CGSIM_SIM_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/calibrate/calprofile.h"
#include "sim/live/live.h"
#include "sim/vm/vm.h"
#include "sim/run/run.h"

void report_text(FILE *f, const struct run_result *r);
void report_json(FILE *f, const struct run_result *r);
/*
 * report_latency_table() - the table `perf sched latency` prints, of the delays (a wakeup or
 * a preemption to the switch-in) of every thread that had one (docs/latency.md).
 */
void report_latency_table(FILE *f, const struct run_result *r);
/*
 * report_schbench() - schbench's wakeup latency percentiles (usec), every thread pooled, then
 * per process when there are several (docs/latency.md).
 */
void report_schbench(FILE *f, const struct run_result *r);
/* report_shares_text() - the ideal shares only (cgsim shares). */
/* cgsim run --seeds N: the runs summed up (sim/run/seeds.h), text and JSON. */
struct seeds;
void report_seeds_text(FILE *f, const struct seeds *s);
void report_seeds_json(FILE *f, const struct seeds *s);

void report_shares_text(FILE *f, const struct run_result *r);
void report_shares_json(FILE *f, const struct run_result *r);

/*
 * report_write_dir() - summary.json, threads.csv, groups.csv and timeseries.csv in @dir, and
 * for plotting groups-series.csv (time_s and one column per group) and latency-cdf.csv
 * (created if missing). Each file is written under its temporary name (util_tmp_path()) and
 * all are renamed only when every one was written, so a failure leaves @dir as it was. 0 or a negative errno with a
 * message in @err.
 */
int report_write_dir(const char *dir, const struct run_result *r, char *err, size_t errlen);

/* The guest of validate --vm: its machine and memory, and what it built. */
struct report_vm {
	const struct vm_run_opts *opts;
	const struct vm_result *result;
};

/*
 * cgsim validate's comparison (sim/report/report_live.c); @vm the guest's for --vm, else NULL.
 */
void report_live_text(FILE *f, const struct live_report *r, const struct report_vm *vm);
void report_live_json(FILE *f, const struct live_report *r, const struct report_vm *vm);
/* cgsim calibrate --live's measurements and fits (sim/report/report_live.c): costs per round trip. */
void report_cal_text(FILE *f, const struct calprof_outcome *o);
void report_cal_json(FILE *f, const struct calprof_outcome *o);

/*
 * Every JSON object cgsim prints begins with "schema_version" (REPORT_SCHEMA_VERSION: it moves
 * on when a field changes meaning or goes away, not when one is added) and "cgsim_version"
 * (what report_set_version() gave, "unknown" before): report_json_versions() writes the two.
 */
#define REPORT_SCHEMA_VERSION 1
void report_set_version(const char *version);
const char *report_version(void);
void report_json_versions(FILE *f);
/*
 * report_json_head() - the opening of a run's JSON object, up to "measured_ns"; @seeds > 0 adds
 * "seeds": @seeds after "seed" (@r: the first of that many runs).
 */
void report_json_head(FILE *f, const struct run_result *r, size_t seeds);
/*
 * What every report says of the kernel modelled (docs/kernels.md):
 * report_kernel() - @cfg's sched_config_describe(), "kernel 7.3 (eevdf-flat, cgroup_mode
 * concur)" and ", overridden: ..." when the scenario changed its defaults, into @buf
 * (REPORT_KERNEL_SIZE); @buf.
 * report_json_kernel() - "kernel": "7.3", "cgroup_mode": "concur", "overrides": [...].
 */
#define REPORT_KERNEL_SIZE 1024
const char *report_kernel(const struct sched_config *cfg, char *buf, size_t len);
void report_json_kernel(FILE *f, const struct sched_config *cfg);
/*
 * report_kernel_text() - the same as lines within 80 columns, each after @indent: "kernel 7.3
 * (eevdf-flat, cgroup_mode concur)", then "  overridden: ..." wrapped, when anything is.
 */
void report_kernel_text(FILE *f, const struct sched_config *cfg, const char *indent);

/*
 * A run's threads grouped by process: process p's threads are idx[start[p]] ..
 * idx[start[p + 1] - 1], in the run's order, and the processes are in the order of their first
 * thread, as every report lists them. Built by sorting, O(n log n): a pairwise search for each
 * thread's process made the text report quadratic (100,000 threads in 100 processes took
 * 38.5 s to print, against 0.52 s as JSON).
 *
 * report_procs_group() - @r's threads grouped into @p: 0, or -ENOMEM with @p empty (for
 * report_procs_free()).
 */
struct report_procs {
	size_t *idx, *start, n;
};
int report_procs_group(const struct run_result *r, struct report_procs *p);
void report_procs_free(struct report_procs *p);

/* report_json_string() - @s as a JSON string literal, quotes included. */
void report_json_string(FILE *f, const char *s);
/*
 * report_label() - a row label of @width columns: @name itself when it fits, else @name on a
 * line of its own and the row's figures on the next, so that a long name never pushes a table
 * past 80 columns.
 */
void report_label(FILE *f, const char *name, int width);

/*
 * Names come from the scenario file, and a cgroup name may hold anything but '/' and a line
 * break: these write one so that it cannot break the format it is written in.
 *
 * report_csv_field() - @s as one CSV field (RFC 4180): quoted, quotes doubled, when it holds
 * a comma, a quote or a line break.
 * report_visible() - @s for a terminal: every control character as \xNN, so that no escape
 * sequence reaches it and a column stays one line; @s itself when it has none, else @buf.
 * report_md_code() - @s as a markdown code span in a table cell: a '|' as \| (which GitHub's
 * tables require even in code), control characters as \xNN, and a fence longer than any run
 * of backquotes in it.
 */
void report_csv_field(FILE *f, const char *s);
const char *report_visible(const char *s, char *buf, size_t len);
void report_md_code(FILE *f, const char *s);

/* The size of a buffer that report_visible() never truncates for a name of @n bytes. */
#define REPORT_VISIBLE_SIZE(n)	(4 * (n) + 1)

#endif /* CGSIM_SIM_REPORT_REPORT_H */
