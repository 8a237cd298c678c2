/* SPDX-License-Identifier: MIT */
/*
 * sim/report.h - what a run produced, for people (text), for scripts (JSON, docs/scenario-format.md's
 * schema plus a few fields) and for plots (CSV files in a directory, written atomically).
 * Every number is printed with a fixed format, so the same run gives the same bytes.
 */
#ifndef CGSIM_SIM_REPORT_H
#define CGSIM_SIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/run.h"

void report_text(FILE *f, const struct run_result *r);
void report_json(FILE *f, const struct run_result *r);
/* report_shares_text() - the ideal shares only (cgsim shares). */
void report_shares_text(FILE *f, const struct run_result *r);
void report_shares_json(FILE *f, const struct run_result *r);

/*
 * report_write_dir() - summary.json, threads.csv, groups.csv and timeseries.csv in @dir, and
 * for plotting groups-series.csv (time_s and one column per group) and latency-cdf.csv
 * (created if missing). Each file is written under a temporary name and all are renamed only
 * when every one was written, so a failure leaves @dir as it was. 0 or a negative errno with a
 * message in @err.
 */
int report_write_dir(const char *dir, const struct run_result *r, char *err, size_t errlen);

/* report_json_string() - @s as a JSON string literal, quotes included. */
void report_json_string(FILE *f, const char *s);

#endif /* CGSIM_SIM_REPORT_H */
