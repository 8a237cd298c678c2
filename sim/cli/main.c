/* SPDX-License-Identifier: MIT */
/*
 * sim/cli/main.c - the command line (cgsim --help): the table of commands, the top level's
 * usage, --help, --version and --bash-completion, and the dispatch. Each command is a file of
 * its own (sim/cli/cmd_NAME.c) with its option table; what they share is sim/cli/cli.c.
 *
 * Exit status: 0 success, 1 a check failed, 2 bad usage or bad input (one message on stderr
 * naming the file, line and column). --help and --version print to stdout and exit 0, or 2
 * when stdout cannot be written.
 */
#include "sim/cli/cli.h"
#include "sim/report/report.h"

#include <stdio.h>
#include <string.h>

#ifndef CGSIM_VERSION
#define CGSIM_VERSION "unknown"
#endif

/* In cgsim --help's order. */
static const struct cli_cmd *const commands[] = {
	&cli_cmd_run, &cli_cmd_compare, &cli_cmd_merge, &cli_cmd_shares, &cli_cmd_check,
	&cli_cmd_cgroupfs, &cli_cmd_validate, &cli_cmd_calibrate, &cli_cmd_trace_stats,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_main_help(FILE *f)
{
	fputs("usage: cgsim COMMAND [ARGS]\n"
	      "\n"
	      "A discrete-event simulator of the Linux fair scheduler and the cgroup hierarchy.\n"
	      "\n"
	      "commands:\n", f);
	cli_print_commands(f, commands, NCOMMANDS);
	fputs("\n"
	      "  cgsim --help, cgsim COMMAND --help, cgsim --version\n"
	      "  cgsim --bash-completion   print the bash completion script (for packagers)\n"
	      "\n"
	      "An option takes its value as --opt VALUE or --opt=VALUE and is written in full\n"
	      "(no abbreviations); -- ends the options.\n"
	      "\n"
	      "Exit status: 0 success, 1 a check failed, 2 bad usage or bad input.\n", f);
}

static int dispatch(int argc, char **argv)
{
	const char *a = argv[1];

	if (argc < 2)
		return cli_usage_error(NULL, "%s", "no command given");
	if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
		print_main_help(stdout);
		return cli_finish_stdout();
	}
	if (!strcmp(a, "--version")) {
		printf("cgsim %s\n", CGSIM_VERSION);
		return cli_finish_stdout();
	}
	if (!strcmp(a, "--bash-completion")) {
		cli_print_completion(stdout, commands, NCOMMANDS,
				     "--help --version --bash-completion");
		return cli_finish_stdout();
	}
	for (size_t k = 0; k < NCOMMANDS; k++)
		if (!strcmp(a, commands[k]->name))
			return commands[k]->main(argc - 1, argv + 1);
	if (a[0] == '-' && a[1])
		return cli_usage_error(NULL, "unknown option '%s'", a);
	return cli_usage_error(NULL, "unknown command '%s'", a);
}

int main(int argc, char **argv)
{
	report_set_version(CGSIM_VERSION);
	return dispatch(argc, argv);
}
