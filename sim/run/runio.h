/* SPDX-License-Identifier: MIT */
/*
 * sim/run/runio.h - a run's result (sim/run/run.h's struct run_result) as text, and back.
 *
 * Why: `cgsim compare --jobs N` runs each simulation in a forked worker, which hands its result
 * to the parent as this text, and `compare --shard I/N` writes results to a directory that
 * `cgsim merge` reads later, perhaps on another day. The tables printed from a result read back
 * must be byte-identical to those printed from the result in memory, so every field of the
 * result goes through, doubles bit for bit.
 *
 * The format, version 2 (version 1 had no LEVEL_WALKS). One record a line, each line a keyword and its values, separated by
 * one space, ended by "\n" (no other white space, no blank line):
 *
 *	cgsim-run 2
 *	run CPUS MEASURED_NS WALL_NS
 *	fairness JAIN MAX_ABS_ERROR MAX_REL_ERROR FAIR_THREADS BOUND_THREADS
 *	machine OVERHEAD_NS LEVEL_OPS LEVEL_WALKS SWITCHES MIGRATIONS EVENTS
 *	threads NTHREADS                      then for each thread:
 *	thread TID PROCESS NAME CGROUP
 *	cpu CPU_NS WAIT_NS SWITCHES MIGRATIONS WAKEUPS DELAYED OVERRUNS SHARE IDEAL IDEAL_BOUND
 *	latency P50 P90 P99 P999 MAX MIN MEAN SAMPLES
 *	delays DELAYS TOTAL MAX MAX_START MAX_END
 *	periodic PERIODIC PERIOD_NS ACTS_DONE ACTS_MISSED SLACK_MIN SLACK_P50 SLACK_MEAN
 *	lat NLAT V1 D2 ... DNLAT              the kept latency samples (sorted), each after the
 *	                                      first as its difference from the one before,
 *	                                      modulo 2^64
 *	acts NACTS                            then NACTS lines:
 *	act IDX PERIOD_START WAKEUP START END RUN SLACK MISSED
 *	groups NGROUPS                        then NGROUPS lines:
 *	group CGROUP PATH CPU_NS SHARE IDEAL
 *	ops NOPS                              then NOPS lines (the timeline's operations):
 *	op AT FAILED RESULT
 *	refused NREFUSED                      then NREFUSED lines (the refused cgroup steps):
 *	op AT FAILED RESULT
 *	series INTERVAL NSAMPLES SERIES_THREADS    then NSAMPLES lines of NGROUPS + SERIES_THREADS:
 *	row V1 ... VN
 *	cdf NCDF                              then NCDF lines:
 *	point MS FRAC
 *	end
 *
 * Values, each written one way only:
 *  - unsigned integers (uint64_t, size_t): decimal digits, no sign, no leading zero;
 *  - signed integers (int64_t, int): the same with a '-' before a negative one (never "-0");
 *  - booleans: 0 or 1;
 *  - doubles: C99 hex floats as printf's "%a" writes them (-?0x[01](.HEX{1,13})?p[+-]DEC{1,4},
 *    read with strtod(), which is exact for them; both in the C locale, which cgsim never
 *    changes), or inf, -inf, nan, -nan (a NaN's sign is kept, as printf shows it; its
 *    payload is not);
 *  - strings: between double quotes, every byte <= 0x20, '"', '%', 0x7f and >= 0x80 written
 *    %XX (two upper-case hex digits; %00 never: a string holds no NUL), so that a string is
 *    one token whatever it holds (UTF-8, line breaks, spaces); "" is the empty string. No
 *    string of a run is NULL, and the reader refuses the bare - that the writer would write
 *    for one.
 *
 * Invariants the reader checks, as it reads files that users hand it: the lines in this order
 * and nothing after "end\n"; every count at most what the rest of the input could hold (so the
 * memory it allocates is a small multiple of the input's size) and NTHREADS <= 100,000,
 * NGROUPS <= 10,001 (10,000 cgroups and the root), NOPS <= 100,000, NCDF <= 1,000 (the limits
 * of docs/limits.md); SERIES_THREADS <= NTHREADS; CPUS from 1 to 1,024, TID from 0 to
 * 100,000, CGROUP from 0 to 10,000. It does not check that the run is one of the scenario's:
 * that is the caller's to check.
 *
 * As run_scenario() leaves them, a result read back has its threads, groups and series arrays
 * allocated even when empty, and its lat, acts, ops, refused and cdf arrays NULL when empty.
 */
#ifndef CGSIM_SIM_RUNIO_H
#define CGSIM_SIM_RUNIO_H

#include <stddef.h>
#include <stdio.h>

#include "sim/run/run.h"

/* The first line of a run file: the format's name and version. */
#define RUNIO_MAGIC	"cgsim-run"
#define RUNIO_VERSION	2

/* runio_write() - @r as text on @f (format above). 0, or -EIO when a write fails. */
int runio_write(FILE *f, const struct run_result *r);

/*
 * runio_read() - one run written by runio_write(), from @text (@len bytes, need not be
 * NUL-terminated), with @sc as its scenario (the reader does not write the scenario; the
 * caller reattaches the one it loaded). @name names the input in messages
 * ("NAME:LINE:COL: error: ..." via util_errf). 0 with *@out set (free with run_free()), or
 * -EINVAL with a message in @err (malformed, truncated, counts beyond limits, trailing
 * bytes), -ENOMEM.
 */
int runio_read(const char *text, size_t len, const char *name, const struct scenario *sc,
	       struct run_result **out, char *err, size_t errlen);

#endif /* CGSIM_SIM_RUNIO_H */
