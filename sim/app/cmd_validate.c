// SPDX-License-Identifier: MIT
/*
 * sim/app/cmd_validate.c - cgsim validate (docs/live.md): a scenario simulated and run on the
 * running kernel, the shares side by side; --cleanup for what a killed run left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/app/cli.h"
#include "sim/app/report.h"
#include "sim/live/live.h"

enum { O_LIVE, O_REPS, O_TOLERANCE, O_SET, O_JSON, O_CLEANUP };

static const struct cli_opt validate_opts[] = {
	[O_LIVE] = { .name = "live",
		.help = "run on the kernel (required)", .required = true },
	[O_REPS] = { .name = "reps", .meta = "N",
		.help = "repetitions of the live run, 1 to 100 (default 3)" },
	[O_TOLERANCE] = { .name = "tolerance", .meta = "POINTS",
		.help = "largest difference of a row, in points of capacity (default 1.5)" },
	[O_SET] = { .name = "set", .meta = "KEY=VALUE",
		.help = "as for cgsim run", .many = true },
	[O_JSON] = { .name = "json",
		.help = "one JSON object instead of the table" },
	[O_CLEANUP] = { .name = "cleanup",
		.help = "remove what a killed run left behind, and nothing else", .usage = "" },
};

static int cmd_validate(int argc, char **argv);

const struct cli_cmd cli_cmd_validate = {
	.name = "validate",
	.operands = "SCENARIO.yaml",
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "run the scenario on this machine's kernel too (root) and compare the shares",
	.description =
	"Simulate the scenario as cgsim run does, then build the same layout on the running kernel\n"
	"(cgroups named cgsim-PID-..., on cgroup v2 where it offers cpu, else the v1 cpu\n"
	"hierarchy), run its threads for real, measure their CPU time over the same window and\n"
	"print both shares side by side (docs/live.md). Needs root; everything it makes or\n"
	"changes is undone, also when it is stopped by a signal.",
	.exit_status =
	"Exit status: 0 every row within the tolerance, 1 a row outside it, 2 bad input or cannot\n"
	"run here (not root, no cpu controller, a layout the kernel cannot be given).",
	.more_usage = "--cleanup",
	.opts = validate_opts,
	.nopts = CLI_NOPTS(validate_opts),
	.main = cmd_validate,
};

struct validate_opts {
	const char *file, *sets[CLI_MAX_SETS];
	size_t nsets;
	bool live, cleanup, json;
	struct live_opts lo;
};

/* One argument @k of validate (from @p): -1 to go on, else the exit status. */
static int validate_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_validate;
	struct validate_opts *o = ctx;
	const char *v = p->val;
	char *end;
	uint64_t n;

	switch (k) {
	case CLI_OPERAND:
		return cli_operand_once(cmd, &o->file, v, "scenario");
	case O_LIVE:
		o->live = true;
		break;
	case O_CLEANUP:
		o->cleanup = true;
		break;
	case O_JSON:
		o->json = true;
		break;
	case O_SET:
		return cli_add_set(cmd, o->sets, &o->nsets, v);
	case O_REPS:
		if (!cli_parse_range(v, 1, 100, &n))
			return cli_usage_error(cmd, "--reps needs a number from 1 to 100, not '%s'",
					       v);
		o->lo.reps = (unsigned)n;
		break;
	case O_TOLERANCE: {
		double t = strtod(v, &end);

		if (*end || !*v || !(t >= 0 && t <= 100))
			return cli_usage_error(cmd, "--tolerance needs points of capacity from 0 to "
					       "100, not '%s'", v);
		o->lo.tolerance = t;
		break;
	}
	}
	return -1;
}

/* validate's options; returns -1 to go on, else the exit status. */
static int parse_validate_opts(int argc, char **argv, struct validate_opts *o)
{
	const struct cli_cmd *cmd = &cli_cmd_validate;
	int rc = cli_parse(cmd, argc, argv, validate_arg, o);

	if (rc >= 0)
		return rc;
	if (o->cleanup)
		return o->file || o->live ? cli_usage_error(cmd, "%s", "--cleanup takes no scenario "
							    "and no --live") : -1;
	if (!o->file)
		return cli_usage_error(cmd, "%s", "no scenario given");
	if (!o->live)
		return cli_usage_error(cmd, "%s", "validate compares with the running kernel: "
				       "--live is required");
	return -1;
}

static int cmd_validate(int argc, char **argv)
{
	struct validate_opts o = { .lo = { .reps = 3, .tolerance = 1.5 } };
	struct scenario *sc;
	struct live_report *rep;
	char err[2048];
	const char *mi = getenv("CGSIM_LIVE_MOUNTINFO");	/* for tests: docs/live.md */
	int rc = parse_validate_opts(argc, argv, &o), e;

	if (rc >= 0)
		return rc;
	o.lo.mountinfo = mi && *mi ? mi : "/proc/self/mountinfo";
	o.lo.progress = isatty(STDERR_FILENO);
	if (o.cleanup) {
		if (live_cleanup(o.lo.mountinfo, stdout, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		return cli_finish_stdout();
	}
	sc = cli_load(o.file, NULL, o.sets, o.nsets);
	if (!sc)
		return 2;
	e = live_validate(sc, &o.lo, &rep, err, sizeof(err));
	scn_free(sc);
	if (e)
		return cli_live_failed(e, err, "cgsim: validate --live failed");
	(o.json ? report_live_json : report_live_text)(stdout, rep);
	rc = live_within(rep) ? 0 : 1;
	live_report_free(rep);
	return cli_finish_stdout() ? 2 : rc;
}
