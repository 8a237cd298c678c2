/* SPDX-License-Identifier: MIT */
/*
 * sim/cli/cmd_compare.h - what cgsim compare (sim/cli/cmd_compare.c) and cgsim merge
 * (sim/cli/cmd_merge.c) share (sim/cli/cmd_compare_out.c): a comparison loaded and its runs
 * listed, then printed and written in one way, so that the output cannot tell them apart
 * (docs/scale-out.md). For these three files only.
 */
#ifndef CGSIM_SIM_CLI_CMD_COMPARE_H
#define CGSIM_SIM_CLI_CMD_COMPARE_H

#include "sim/cli/cli.h"
#include "sim/study/compare.h"
#include "sim/study/jobs.h"

/* What compare's and merge's options ask for. */
struct cli_compare_opts {
	const char *file, *dir, *sets[CLI_MAX_SETS];
	bool trace;		/* --trace: DIR/VARIANT/trace.txt */
	bool strict;		/* --strict: a refused timeline operation fails */
	size_t nsets;
	size_t format;		/* the format asked for: 0 text, else cli_compare_format()'s */
	size_t seeds;		/* --seeds N; 0: one */
	size_t jobs;		/* --jobs N (0 given: the online CPUs); 1 without */
	size_t shard, shards;	/* --shard I/N; 0/0 without */
};

/* The formats' rows of compare's and merge's option tables: one group, one text. */
#define CLI_COMPARE_MARKDOWN \
	{ "markdown", 0, NULL, "a markdown table instead of plain text", .group = 1 }
#define CLI_COMPARE_JSON \
	{ "json", 0, NULL, "one JSON object: each variant's run object in a list", .group = 1 }

/*
 * Option @p->name of @cmd as a format (--markdown, --json) into @o->format: 0 when it is not
 * one, -1 when it is and goes, else the exit status of a second format.
 */
int cli_compare_format(const struct cli_parse *p, const struct cli_cmd *cmd,
		       struct cli_compare_opts *o);

/*
 * A comparison loaded and its runs listed: what compare makes from the command line and merge
 * from the shards' scenario, options and seeds, in exactly the same way.
 */
struct cli_plan {
	struct compare *c;
	struct sweep *sw;
	struct jobs js;
};

/*
 * Load @file (@text: its bytes, or NULL to read it) with @sets and @nseeds seeds (0 or 1: one),
 * every sweep value too, and list the runs. 0, or 2 with the message on stderr.
 */
int cli_plan_load(struct cli_plan *p, const char *file, const char *text,
		  const char *const *sets, size_t nsets, size_t nseeds, const char *trace_dir);
/* Every run in place: the seeds summed up. 0, or 2 with the message on stderr. */
int cli_plan_finish(struct cli_plan *p);
/*
 * What a comparison prints and writes once every run is in: -o DIR's files and figures (a
 * failure there comes before any output), the tables, the timeline refusals. The exit status.
 */
int cli_plan_output(const struct cli_compare_opts *o, struct cli_plan *p);
void cli_plan_free(struct cli_plan *p);

#endif /* CGSIM_SIM_CLI_CMD_COMPARE_H */
