// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_shares.c - cgsim shares: the ideal shares of a scenario's layout, computed from
 * the weights and limits (sim/run/ideal.h), nothing simulated.
 */
#include <stdio.h>

#include "sim/cli/cli.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

enum { O_VARIANT, O_SET, O_JSON };

static const struct cli_opt shares_opts[] = {
	[O_VARIANT] = { .name = "variant", .meta = "NAME",
		.help = "the layout of a variant declared under variants: (default: base)" },
	[O_SET] = { .name = "set", .meta = "KEY=VALUE",
		.help = "override any scalar of the file by its dotted path, as for cgsim run",
		.many = true },
	[O_JSON] = { .name = "json",
		.help = "print one JSON object instead of the text report" },
};

static int cmd_shares(int argc, char **argv);

const struct cli_cmd cli_cmd_shares = {
	.name = "shares",
	.operands = "SCENARIO.yaml",
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "the ideal shares of a scenario's layout, computed, not simulated",
	.description =
	"Apply the scenario's layout and print the ideal share of capacity of every cgroup and\n"
	"thread: hierarchical proportional sharing by weight, each thread capped at one CPU and at\n"
	"its demand, each group at its cpu.max, the excess redistributed (docs/ideal-shares.md).\n"
	"Nothing is simulated and the timeline is not applied.",
	.exit_status =
	"Exit status 0, or 2 for bad usage or a scenario that cannot be loaded (FILE:LINE:COL on\n"
	"stderr, nothing on stdout).",
	.opts = shares_opts,
	.nopts = CLI_NOPTS(shares_opts),
	.main = cmd_shares,
};

/* shares' formats */
static const struct {
	const char *option;
	void (*print)(FILE *f, const struct run_result *r);
} shares_formats[] = {
	{ NULL, report_shares_text },
	{ "--json", report_shares_json },
};

struct shares_opts {
	const char *file, *variant, *sets[CLI_MAX_SETS];
	size_t nsets, format;
};

/* One argument @k (from @p): -1 to go on, else the exit status. */
static int shares_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_shares;
	struct shares_opts *o = ctx;
	size_t f = k >= 0 ? CLI_FORMAT_ASKED(shares_formats, CLI_NOPTS(shares_formats), p->name)
			  : 0;

	if (f)
		return cli_format_set(&o->format, f, p->name, o->format ?
				      shares_formats[o->format].option : NULL, cmd) ? 2 : -1;
	if (k == O_VARIANT)
		o->variant = p->val;
	else if (k == O_SET)
		return cli_add_set(cmd, o->sets, &o->nsets, p->val);
	else if (k == CLI_OPERAND)
		return cli_operand_once(cmd, &o->file, p->val, "scenario");
	return -1;
}

/* shares' options; returns -1 to go on, else the exit status. */
static int parse_shares_opts(int argc, char **argv, struct shares_opts *o)
{
	int rc = cli_parse(&cli_cmd_shares, argc, argv, shares_arg, o);

	if (rc < 0 && !o->file)
		return cli_usage_error(&cli_cmd_shares, "%s", "no scenario given");
	return rc;
}

static int cmd_shares(int argc, char **argv)
{
	struct shares_opts o = { .file = NULL };
	struct scenario *sc;
	struct run_result *res;
	char err[2048];
	int rc = parse_shares_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	sc = cli_load(o.file, o.variant, o.sets, o.nsets);
	if (!sc)
		return 2;
	if (run_ideal(sc, &res, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: failed");
		scn_free(sc);
		return 2;
	}
	shares_formats[o.format].print(stdout, res);
	run_free(res);
	scn_free(sc);
	return cli_finish_stdout();
}
