// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_compare.c - cgsim compare: the command line of a comparison, whether its runs
 * are made here, in worker processes (--jobs N) or in shards put back together later
 * (--shard I/N, then cgsim merge: sim/cli/cmd_merge.c). Every way ends in the same printing
 * code (sim/cli/cmd_compare_out.c), so that the output cannot tell them apart
 * (docs/scale-out.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cmd_compare.h"
#include "sim/study/figures.h"
#include "sim/report/report.h"
#include "sim/study/shard.h"
#include "sim/run/seeds.h"

enum { O_SET, O_SWEEP, O_MARKDOWN, O_JSON, O_DIR, O_SEEDS, O_JOBS, O_SHARD, O_TRACE, O_STRICT,
       O_MAX_EVENTS };

static const struct cli_opt compare_opts[] = {
	[O_SET] = { .name = "set", .meta = "KEY=VALUE",
		.help = "override any scalar of the file by its dotted path, as for cgsim run",
		.many = true },
	[O_SWEEP] = { .name = "sweep", .meta = "KEY=V1,V2,...",
		.help = "sweep KEY over the values instead of the file's sweep: (which keeps its "
			"group:, process: or thread: and metric:), e.g. scheduler.cgroup_mode="
			"smp,concur,max,tasks,up; the same as --set sweep=KEY=V1,V2,..." },
	[O_MARKDOWN] = CLI_COMPARE_MARKDOWN,
	[O_JSON] = CLI_COMPARE_JSON,
	[O_DIR] = { .short_name = 'o', .meta = "DIR",
		.help = "also write DIR/compare.{txt,md,json} and each variant's CSV files in "
			"DIR/VARIANT/", .files = true },
	[O_SEEDS] = { .name = "seeds", .meta = "N",
		.help = "run each variant (and each sweep value) with N seeds (1 to 1000), S to "
			"S+N-1: the tables show the means, each share's least-greatest and 95 % "
			"interval, and mark with ? a change from the base smaller than the "
			"spread; the JSON gives each variant as run --seeds --json; DIR/VARIANT/ "
			"holds seed S's run and seeds.json (not with --trace)" },
	[O_JOBS] = { .name = "jobs", .meta = "N",
		.help = "run N simulations at a time in worker processes (default 1; 0: one per "
			"online CPU); the output is the same for every N" },
	[O_SHARD] = { .name = "shard", .meta = "I/N",
		.help = "run only shard I of N of the runs (every Nth, from the Ith) and write "
			"them to -o DIR for cgsim merge (docs/scale-out.md)" },
	[O_TRACE] = { .name = "trace",
		.help = "with -o DIR: each variant's run as ftrace text in DIR/VARIANT/trace.txt "
			"(docs/trace.md; a sweep's runs are not traced)" },
	[O_STRICT] = { .name = "strict",
		.help = "exit 1 when the model refuses a timeline operation of a variant (said on "
			"stderr)" },
	[O_MAX_EVENTS] = { .name = "max-events", .meta = "N",
		.help = "the most events each run may process (default 1000000000; 0: no limit)" },
};

static int cmd_compare(int argc, char **argv);

const struct cli_cmd cli_cmd_compare = {
	.name = "compare",
	.operands = "SCENARIO.yaml",
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "every variant side by side: shares against the ideal, fairness, latency, "
		   "switches, overhead",
	.description =
	"Run the base layout and every variant declared under variants:, with the same seed, and\n"
	"print them side by side: each group's and process's share of capacity against its ideal,\n"
	"Jain's index, the largest share error, p50/p99 wakeup latency (the worst thread), context\n"
	"switches and level operations per second, the scheduler overhead, and the change of each\n"
	"variant from the base (shares, each process's wakeup p99, overhead). The numbers are\n"
	"those of cgsim run --variant NAME --json.",
	.exit_status =
	"Exit status 0 (1 with --strict and a refused timeline operation), or 2 for bad usage or a\n"
	"scenario that cannot be run (FILE:LINE:COL on stderr, nothing on stdout, nothing in DIR).",
	.opts = compare_opts,
	.nopts = CLI_NOPTS(compare_opts),
	.main = cmd_compare,
};

/* --shard I/N: 1 <= I <= N <= SHARD_MAX. */
static bool parse_shard(const char *v, size_t *i, size_t *n)
{
	const char *slash = strchr(v, '/');
	char first[32];
	uint64_t a, b;

	if (!slash || (size_t)(slash - v) >= sizeof(first))
		return false;
	memcpy(first, v, (size_t)(slash - v));
	first[slash - v] = '\0';
	if (!cli_parse_u64(first, &a) || !cli_parse_u64(slash + 1, &b) || a < 1 || b < a ||
	    b > SHARD_MAX)
		return false;
	*i = (size_t)a;
	*n = (size_t)b;
	return true;
}

/* One argument @k of compare (from @p): -1 to go on, else the exit status. */
static int compare_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_compare;
	struct cli_compare_opts *o = ctx;
	const char *v = p->val;
	uint64_t n;
	int rc = k >= 0 ? cli_compare_format(p, cmd, o) : 0;

	if (rc)
		return rc;
	if (k == CLI_OPERAND)
		return cli_operand_once(cmd, &o->file, v, "scenario");
	switch (k) {
	case O_TRACE:
		o->trace = true;
		break;
	case O_STRICT:
		o->strict = true;
		break;
	case O_SEEDS:
		return cli_seeds(cmd, v, &o->seeds);
	case O_JOBS:
		if (!cli_parse_u64(v, &n) || n > JOBS_MAX_WORKERS)
			return cli_usage_error(cmd, "--jobs needs a number of workers from 0 (one "
					       "per CPU) to 1024, not '%s'", v);
		o->jobs = n ? (size_t)n : jobs_online_cpus();
		break;
	case O_SHARD:
		if (!parse_shard(v, &o->shard, &o->shards))
			return cli_usage_error(cmd, "--shard needs I/N, shard I of N, 1 <= I <= N "
					       "<= 100000, not '%s'", v);
		break;
	case O_MAX_EVENTS:
		return cli_max_events(cmd, v);
	case O_DIR:
		o->dir = v;
		break;
	case O_SET:
		return cli_add_set(cmd, o->sets, &o->nsets, v);
	case O_SWEEP: {
		/* --set sweep=...: one, kept for the process's life (the shard files record it) */
		static char set[4096];

		if (set[0])
			return cli_usage_error(cmd, "%s", "one --sweep (several keys: a sweep: block "
					       "with key: [A, B])");
		if (strlen(v) + 7 > sizeof(set))
			return cli_usage_error(cmd, "%s", "--sweep is longer than 4 KiB");
		snprintf(set, sizeof(set), "sweep=%s", v);
		return cli_add_set(cmd, o->sets, &o->nsets, set);
	}
	}
	return -1;
}

/* compare's options; returns -1 to go on, else the exit status. */
static int parse_compare_opts(int argc, char **argv, struct cli_compare_opts *o)
{
	const struct cli_cmd *cmd = &cli_cmd_compare;
	int rc = cli_parse(cmd, argc, argv, compare_arg, o);

	if (rc >= 0)
		return rc;
	if (!o->file)
		return cli_usage_error(cmd, "%s", "no scenario given");
	if (o->trace && !o->dir)
		return cli_usage_error(cmd, "%s", "--trace writes DIR/VARIANT/trace.txt: give -o DIR");
	if (o->shards && !o->dir)
		return cli_usage_error(cmd, "%s", "--shard writes the shard's runs to a directory "
				       "for cgsim merge: give -o DIR");
	if (o->shards && (o->trace || o->format))
		return cli_usage_error(cmd, "%s", "--shard prints no tables and writes no traces: "
				       "leave out --trace, --markdown and --json (give them to "
				       "cgsim merge, or trace with one compare)");
	if (!o->jobs)
		o->jobs = 1;
	return -1;
}

/* compare --shard I/N -o DIR: the shard's runs, and what they are, into DIR. */
static int write_shard(const struct cli_compare_opts *o, struct cli_plan *p)
{
	const struct scenario *sc = p->c->sc[0];
	struct shard_info s = {
		.version = (char *)report_version(), .scenario = (char *)o->file,
		.text = sc->text, .sets = (char **)o->sets, .nsets = o->nsets,
		.seeds = p->c->nseeds, .shard = o->shard, .shards = o->shards,
	};
	char err[2048];

	shard_digests(&p->js, s.version, sc->text, o->sets, o->nsets, s.seeds, s.scenario_sha256,
		      s.list_sha256);
	if (shard_write(o->dir, &s, &p->js, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	printf("shard %zu of %zu: %zu of the %zu runs in %s (job list %.12s)\n", o->shard,
	       o->shards, jobs_mine(&p->js), p->js.n, o->dir, s.list_sha256);
	return cli_finish_stdout();
}

static int cmd_compare(int argc, char **argv)
{
	struct cli_compare_opts o = { 0 };
	struct cli_plan p;
	char err[4096];
	int rc = parse_compare_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.seeds > 1 && o.trace)
		return cli_usage_error(&cli_cmd_compare, "%s", "--trace traces one run of each variant: "
				       "leave out --seeds");
	/* everything -o DIR will need, before the first byte of output */
	if (o.dir && !o.shards && figures_check(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if ((rc = cli_plan_load(&p, o.file, NULL, o.sets, o.nsets, o.seeds,
				 o.trace ? o.dir : NULL)))
		return rc;
	if (o.shards)
		jobs_shard(&p.js, o.shard, o.shards);
	if (jobs_run(&p.js, o.jobs, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		cli_plan_free(&p);
		return 2;
	}
	if (o.shards)
		rc = write_shard(&o, &p);
	else
		rc = cli_plan_finish(&p) ? 2 : cli_plan_output(&o, &p);
	cli_plan_free(&p);
	return rc;
}
