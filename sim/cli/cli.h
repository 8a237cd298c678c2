/* SPDX-License-Identifier: MIT */
/*
 * sim/cli/cli.h - the command line's shared parts (sim/cli/cli.c): a command's option table,
 * the one parser every command uses (getopt_long's), the usage, --help and bash completion
 * made from the tables, and the helpers the commands share. Each command lives in
 * sim/cli/cmd_NAME.c; main.c only lists them and dispatches.
 */
#ifndef CGSIM_SIM_CLI_CLI_H
#define CGSIM_SIM_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/scenario/scenario.h"

#define CLI_MAX_SETS 256	/* --set options of one command */

/*
 * One option of a command. The parser, the usage lines, --help, the bash completion and so
 * the manual page are all made from these rows, so that none can drift from another.
 */
struct cli_opt {
	const char *name;	/* the long name without "--"; NULL for a short option alone */
	char short_name;	/* 'o' for -o; 0 for none */
	const char *meta;	/* its value's name ("N", "FILE"); NULL for a flag */
	const char *help;	/* what it does, for --help (wrapped there; '\n' breaks a line) */
	const char *words;	/* completion offers these words for the value ("v2 v1") */
	bool files;		/* completion offers file names for the value */
	bool many;		/* may be given again: "[--set KEY=VALUE]..." */
	bool required;		/* shown without brackets in the usage */
	int group;		/* nonzero: exclusive formats, one bracket "[--a|--b]" */
	const char *usage;	/* the usage's item instead of the one made; "" for none */
};

/* One command: what the parser, the usage, --help and the completion need of it. */
struct cli_cmd {
	const char *name;
	const char *operands;		/* "SCENARIO.yaml", "SHARD_DIR..."; NULL for none */
	bool operands_last;		/* in the usage, after the options */
	const char *operand_glob;	/* completion's files for operands, an extglob */
	const char *summary;		/* cgsim --help's line for it */
	const char *description;	/* its --help's paragraph, lines broken as printed */
	const char *exit_status;	/* its --help's last paragraph, lines broken as printed */
	const char *more_usage;		/* a second usage line ("cgsim validate --cleanup") */
	const struct cli_opt *opts;
	size_t nopts;
	int (*main)(int argc, char **argv);
};

#define CLI_NOPTS(t) (sizeof(t) / sizeof((t)[0]))

/*
 * The parse of one command's arguments, getopt_long's way: --opt VALUE, --opt=VALUE, -o DIR,
 * operands before, between or after the options in their order, "-" an operand, "--" the end
 * of the options. An abbreviation of a long option is refused: a prefix that is unique today
 * would become ambiguous when an option is added, and break the script that used it.
 */
struct cli_parse {
	const struct cli_cmd *cmd;
	int argc;
	char **argv;
	char name[48];		/* the option found, as "--name" or "-o" */
	const char *val;	/* its value (NULL for a flag), or the operand */
	int rc;			/* the parser's own: the exit status of --help or bad usage */
	int done;		/* getopt_long has ended: operands from argv[optind] on */
	void *lopts;		/* the getopt_long table, made from the command's */
	char optstring[32];
};

#define CLI_OPERAND	(-1)	/* an operand in ->val */

/*
 * cli_parse() - parse @argv (argv[0] the command's name) by @cmd's table: @each(@p, @k, @ctx)
 * for every option (@k its index in cmd->opts; p->name as written in full, p->val its value
 * or NULL) and operand (@k CLI_OPERAND, p->val), in their order. @each returns -1 to go on,
 * else an exit status, which ends the parse. --help prints the command's help and ends it;
 * a bad option is said with the usage (cli_usage_error()). Returns -1 when every argument
 * went, else the exit status.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      int (*each)(const struct cli_parse *p, int k, void *ctx), void *ctx);
/* The operand @v into *@slot, the first of its kind (@what: "scenario"); -1 or the exit status. */
int cli_operand_once(const struct cli_cmd *cmd, const char **slot, const char *v,
		     const char *what);

/*
 * "cgsim: " + @fmt with @arg on stderr, then @cmd's usage lines and where its help is (NULL:
 * the top level's): the exit status of bad usage, 2.
 */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, const char *arg);
/* The usage lines ("usage: cgsim run SCENARIO.yaml [--variant NAME] ...") within 80 columns. */
void cli_print_usage(FILE *f, const struct cli_cmd *cmd);
/* cgsim CMD --help: the usage, the description, one entry per option, the exit status. */
void cli_print_help(FILE *f, const struct cli_cmd *cmd);
/* cgsim --help's list of the @n commands: each one's usage and summary. */
void cli_print_commands(FILE *f, const struct cli_cmd *const *cmds, size_t n);
/* The bash completion script of the @n commands (cgsim --bash-completion). */
void cli_print_completion(FILE *f, const struct cli_cmd *const *cmds, size_t n,
			  const char *top_words);

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
/*
 * A live run that failed with @e: its reason @err (or @what) on stderr; stopped by a signal,
 * everything is undone already, so end as the signal would have ended us. Else 2.
 */
int cli_live_failed(int e, const char *err, const char *what);

/* A number from 0 to 2^64 - 1, digits only (no sign, blank or base prefix to wrap it). */
bool cli_parse_u64(const char *v, uint64_t *out);
/* cli_parse_u64() from @lo to @hi. */
bool cli_parse_range(const char *v, uint64_t lo, uint64_t hi, uint64_t *out);
/* --seeds N (1 to SEEDS_MAX runs) into *@out: -1, or the exit status of a bad value. */
int cli_seeds(const struct cli_cmd *cmd, const char *v, size_t *out);
/* --max-events N: sets the limit; -1, or the exit status of a bad value. */
int cli_max_events(const struct cli_cmd *cmd, const char *v);
/* --set KEY=VALUE into @sets (*@n of CLI_MAX_SETS): -1, or the exit status of one too many. */
int cli_add_set(const struct cli_cmd *cmd, const char **sets, size_t *n, const char *v);

/*
 * Output formats. Each command has a table of the formats it prints on stdout, one row each:
 * the option that asks for it (NULL in row 0, the default) first, then its printer. A new
 * format is a row and a printer function (and its option in the command's option table).
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
		   const struct cli_cmd *cmd);

/* The commands, one file each (sim/cli/cmd_NAME.c). */
extern const struct cli_cmd cli_cmd_run, cli_cmd_shares, cli_cmd_compare, cli_cmd_merge,
	cli_cmd_check, cli_cmd_cgroupfs, cli_cmd_validate, cli_cmd_calibrate, cli_cmd_trace_stats;

#endif /* CGSIM_SIM_CLI_CLI_H */
