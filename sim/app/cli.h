/* SPDX-License-Identifier: MIT */
/*
 * sim/app/cli.h - what the files of the command line share (sim/app/main.c and the commands
 * that live in files of their own).
 */
#ifndef CGSIM_SIM_APP_CLI_H
#define CGSIM_SIM_APP_CLI_H

#include <stddef.h>

#include "sim/scenario/scenario.h"

#define CLI_MAX_SETS 256	/* --set options of one command */

/* "cgsim: " + @fmt with @arg on stderr, then @usage: the exit status of bad usage, 2. */
int cli_usage_error(const char *usage, const char *fmt, const char *arg);
/* Flush stdout: 0, or 2 with a message when the output could not be written. */
int cli_finish_stdout(void);
/*
 * The scenario @file with its variant and --sets, or NULL with its message on stderr; an
 * rt-app workload's notes (what cgsim ignores) go to stderr, once a file (cli_notes()).
 */
struct scenario *cli_load(const char *file, const char *variant, const char *const *sets,
			  size_t nsets);
void cli_notes(const struct scenario *sc);
/*
 * cli_timeline_refusals() - say on stderr each timeline operation of @res the model refused
 * ("FILE:LINE: at 0.500 s [VARIANT]: OP -> ERRNO"; no VARIANT when NULL); how many.
 */
struct run_result;
unsigned cli_timeline_refusals(const struct run_result *res, const char *variant);

/* --max-events N: sets the limit; -1, or the exit status of a bad value. */
/* A number from 0 to 2^64 - 1, digits only (no sign, blank or base prefix to wrap it). */
bool cli_parse_u64(const char *v, uint64_t *out);
int cli_max_events(const char *usage, const char *v);

/*
 * Output formats. Each command has a table of the formats it prints on stdout, one row each:
 * the option that asks for it (NULL in row 0, the default) first, then its printer. A new
 * format is a row and a printer function.
 *
 * cli_format_asked() - the row of format table @t (@n rows of @size bytes) whose option is
 * @a; 0 when none is. Use through CLI_FORMAT_ASKED().
 * cli_format_set() - row @f of a table was asked for (@opt_f its option), *@chosen is the row
 * asked for before (@opt_chosen, 0 and NULL for none): one format at most. 0, or the usage
 * error's exit status.
 */
size_t cli_format_asked(const void *t, size_t n, size_t size, const char *a);
#define CLI_FORMAT_ASKED(t, n, a) cli_format_asked((t), (n), sizeof((t)[0]), (a))
int cli_format_set(size_t *chosen, size_t f, const char *opt_f, const char *opt_chosen,
		   const char *usage);

/* cgsim compare and cgsim merge (sim/app/cli_compare.c). */
int cli_compare(int argc, char **argv);
int cli_merge(int argc, char **argv);

/* cgsim check (sim/app/cli_check.c). */
int cli_check(int argc, char **argv);

/* cgsim validate and cgsim calibrate (sim/app/cli_live.c). */
int cli_validate(int argc, char **argv);
int cli_calibrate(int argc, char **argv);

#endif /* CGSIM_SIM_APP_CLI_H */
