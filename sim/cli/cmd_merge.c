// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_merge.c - cgsim merge: the shards of compare --shard I/N read, checked against
 * the plan their scenario makes, and printed and written as the comparison run in one go
 * (sim/cli/cmd_compare_out.c; docs/scale-out.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/cli/cmd_compare.h"
#include "sim/study/figures.h"
#include "sim/report/report.h"
#include "sim/study/shard.h"

enum { O_MARKDOWN, O_JSON, O_DIR, O_STRICT };

static const struct cli_opt merge_opts[] = {
	[O_MARKDOWN] = CLI_COMPARE_MARKDOWN,
	[O_JSON] = CLI_COMPARE_JSON,
	[O_DIR] = { .short_name = 'o', .meta = "DIR",
		.help = "also write DIR/compare.{txt,md,json}, each variant's CSV files in "
			"DIR/VARIANT/, the sweep's CSV files and the figures", .files = true },
	[O_STRICT] = { .name = "strict",
		.help = "exit 1 when the model refused a timeline operation of a variant" },
};

static int cmd_merge(int argc, char **argv);

const struct cli_cmd cli_cmd_merge = {
	.name = "merge",
	.operands = "SHARD_DIR...",
	.summary = "the shards of compare --shard I/N put together: what compare prints",
	.description =
	"Put together the shards that cgsim compare --shard I/N -o SHARD_DIR wrote, and print and\n"
	"write exactly what the comparison run in one go prints and writes. The shards must come\n"
	"from one scenario, one set of --set and --seeds options and one cgsim version, and all N\n"
	"must be given, each once (docs/scale-out.md).",
	.exit_status =
	"Exit status 0 (1 with --strict and a refused timeline operation), or 2 for bad usage or\n"
	"shards that cannot be put together (the reason on stderr, nothing on stdout).",
	.opts = merge_opts,
	.nopts = CLI_NOPTS(merge_opts),
	.main = cmd_merge,
};

/* What merge's arguments ask for: its format, -o DIR, --strict, and the shard directories. */
struct merge_args {
	struct cli_compare_opts *o;
	const char **dirs;
	size_t ndirs;
};

/* One argument @k of merge (from @p): -1 to go on, else the exit status. */
static int merge_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_merge;
	struct merge_args *a = ctx;

	if (k == CLI_OPERAND && a->ndirs >= SHARD_MAX)
		return cli_usage_error(cmd, "more than %s shard directories", "100000");
	if (k == CLI_OPERAND)
		a->dirs[a->ndirs++] = p->val;
	else if (k == O_STRICT)
		a->o->strict = true;
	else if (k == O_DIR)
		a->o->dir = p->val;
	else
		return cli_compare_format(p, cmd, a->o);
	return -1;
}

/* The shards in @dirs read and checked against the plan made from the first one's scenario. */
static int merge_shards(struct shard_info *s, const char **dirs, size_t n, struct cli_plan *p)
{
	char err[4096], digest[65], list[65];
	int rc;

	for (size_t i = 0; i < n; i++)
		if (shard_read(dirs[i], &s[i], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	if ((rc = cli_plan_load(p, s[0].scenario, s[0].text, (const char *const *)s[0].sets,
			    s[0].nsets, s[0].seeds, NULL)))
		return rc;
	shard_digests(&p->js, report_version(), s[0].text, (const char *const *)s[0].sets,
		      s[0].nsets, s[0].seeds, digest, list);
	if (shard_check(s, n, &p->js, list, err, sizeof(err)) ||
	    shard_take_runs(s, n, &p->js, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return cli_plan_finish(p);
}

static int cmd_merge(int argc, char **argv)
{
	struct cli_compare_opts o = { 0 };
	struct merge_args a = { &o, calloc((size_t)argc + 1, sizeof(*a.dirs)), 0 };
	const char **dirs = a.dirs;
	struct shard_info *s = NULL;
	struct cli_plan p = { 0 };
	size_t n;
	char err[2048];
	int rc = dirs ? cli_parse(&cli_cmd_merge, argc, argv, merge_arg, &a) : 2;

	if (!dirs)
		fprintf(stderr, "cgsim: out of memory\n");
	else if (rc < 0 && !a.ndirs)
		rc = cli_usage_error(&cli_cmd_merge, "%s", "no shard directory given");
	n = a.ndirs;
	if (rc >= 0) {
		free(dirs);
		return rc;
	}
	if (o.dir && figures_check(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(dirs);
		return 2;
	}
	if (!(s = calloc(n, sizeof(*s)))) {
		fprintf(stderr, "cgsim: out of memory\n");
		free(dirs);
		return 2;
	}
	rc = merge_shards(s, dirs, n, &p);
	if (!rc)
		rc = cli_plan_output(&o, &p);
	cli_plan_free(&p);
	for (size_t i = 0; i < n; i++)
		shard_info_free(&s[i]);
	free(s);
	free(dirs);
	return rc;
}
