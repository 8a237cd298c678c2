// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_run.c - cgsim run: one variant of a scenario simulated and reported (or N seeds
 * of it summed up), in the format asked for, with its files in -o DIR and its ftrace text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scheduler/topology.h"
#include "sim/cli/cli.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"
#include "sim/util/util.h"

enum { O_VARIANT, O_SEED, O_SEEDS, O_SET, O_JSON, O_LATENCY, O_SCHBENCH, O_DIR, O_TRACE,
       O_TIMING, O_STRICT, O_MAX_EVENTS, O_DOMAINS };

static const struct cli_opt run_opts[] = {
	[O_VARIANT] = { .name = "variant", .meta = "NAME",
		.help = "run a variant declared under variants: (default: base)" },
	[O_SEED] = { .name = "seed", .meta = "N",
		.help = "the random seed (same as --set seed=N)" },
	[O_SEEDS] = { .name = "seeds", .meta = "N",
		.help = "N runs (1 to 1000), with seeds S to S+N-1 (S: --seed, or the file's): "
			"every share, latency and overhead as the mean, least, greatest and 95 % "
			"interval of the mean over the runs (text or --json only)" },
	[O_SET] = { .name = "set", .meta = "KEY=VALUE",
		.help = "override any scalar of the file by its dotted path, e.g.\n--set "
			"machine.cpus=4 --set cgroups.vm.cpu.weight=200", .many = true },
	[O_JSON] = { .name = "json",
		.help = "print one JSON object instead of the text report", .group = 1 },
	[O_LATENCY] = { .name = "latency-table",
		.help = "print perf sched latency's table instead: per thread its CPU time, "
			"delays (runnable to running, after a wakeup or a preemption), their mean "
			"and longest, and when the longest began and ended (s)", .group = 1 },
	[O_SCHBENCH] = { .name = "schbench",
		.help = "print schbench's wakeup latency percentiles (usec) instead, every "
			"thread's wakeups pooled, then per process", .group = 1 },
	[O_DIR] = { .short_name = 'o', .meta = "DIR",
		.help = "also write summary.json (what --json prints), threads.csv, groups.csv, "
			"timeseries.csv, groups-series.csv, latency-cdf.csv, activations.csv "
			"(periodic threads' activations, as rt-app logs them)", .files = true },
	[O_TRACE] = { .name = "trace", .meta = "FILE",
		.help = "write the whole run, warm-up included, as ftrace text (sched_switch, "
			"sched_waking, sched_wakeup, sched_migrate_task; the timeline as "
			"markers): what trace-cmd report prints, for Perfetto or LISA "
			"(docs/trace.md). FILE - is stdout, and then no report is printed",
		.files = true },
	[O_TIMING] = { .name = "timing",
		.help = "record the wall-clock time in wall_ns (otherwise 0, so that the same "
			"scenario and seed give the same bytes)" },
	[O_STRICT] = { .name = "strict",
		.help = "exit 1 when the model refuses a timeline operation (each refusal is said "
			"on stderr: FILE:LINE: at TIME s: OP -> ERRNO)" },
	[O_MAX_EVENTS] = { .name = "max-events", .meta = "N",
		.help = "the most events a run may process (default 1000000000; 0: no limit); a "
			"run that needs more stops with exit status 2" },
	[O_DOMAINS] = { .name = "domains",
		.help = "print the scheduling domains Linux builds for the scenario's machine "
			"instead, and run nothing: a line per CPU and level, \"cpuN/domainL NAME "
			"SPAN FLAGS\", as /sys/kernel/debug/sched/domains and the kernel's log "
			"give them (docs/topology.md)" },
};

static int cmd_run(int argc, char **argv);

const struct cli_cmd cli_cmd_run = {
	.name = "run",
	.operands = "SCENARIO.yaml",
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "simulate a scenario and report CPU shares against the ideal, fairness, "
		   "latencies and scheduler overhead",
	.description =
	"Simulate the scenario (docs/scenario-format.md) and report, for the measured window after\n"
	"the warm-up: each cgroup's and thread's CPU time and share of capacity against its ideal\n"
	"share, waits, wakeup latencies, switches and migrations; Jain's fairness index; the\n"
	"scheduler's overhead.",
	.exit_status =
	"Exit status 0 (1 with --strict and a refused timeline operation), or 2 for bad usage or a\n"
	"scenario that cannot be run (FILE:LINE:COL on stderr, nothing on stdout, nothing in DIR).",
	.opts = run_opts,
	.nopts = CLI_NOPTS(run_opts),
	.main = cmd_run,
};

/* run's formats */
static const struct run_format {
	const char *option;
	void (*print)(FILE *f, const struct run_result *r);
} run_formats[] = {
	{ NULL, report_text },
	{ "--json", report_json },
	{ "--latency-table", report_latency_table },
	{ "--schbench", report_schbench },
};

struct run_opts {
	const char *file;
	const char *variant;
	const char *sets[CLI_MAX_SETS + 1];
	char seedset[48];
	size_t nsets;
	const char *dir;
	const char *trace;			/* --trace FILE */
	size_t format;				/* the row of run_formats[] asked for */
	size_t seeds;				/* --seeds N; 0: one run */
	bool timing;
	bool strict;				/* --strict: a refused timeline operation fails */
	bool domains;				/* --domains: print them, run nothing */
};

/* One argument @k (from @p): -1 to go on, else the exit status. */
static int run_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_run;
	struct run_opts *o = ctx;
	const char *v = p->val;
	size_t f = CLI_FORMAT_ASKED(run_formats, CLI_NOPTS(run_formats), p->name);
	uint64_t n;

	if (k == CLI_OPERAND)
		return cli_operand_once(cmd, &o->file, v, "scenario");
	if (f)
		return cli_format_set(&o->format, f, p->name,
				      o->format ? run_formats[o->format].option : NULL, cmd) ? 2 : -1;
	switch (k) {
	case O_VARIANT:
		o->variant = v;
		break;
	case O_SET:
		return cli_add_set(cmd, o->sets, &o->nsets, v);
	case O_SEED:
		if (!cli_parse_u64(v, &n))
			return cli_usage_error(cmd, "--seed needs a number from 0 to "
					       "18446744073709551615, not '%s'", v);
		snprintf(o->seedset, sizeof(o->seedset), "seed=%.30s", v);
		break;
	case O_SEEDS:
		return cli_seeds(cmd, v, &o->seeds);
	case O_MAX_EVENTS:
		return cli_max_events(cmd, v);
	case O_TRACE:
		if (!v[0])
			return cli_usage_error(cmd, "%s needs a file name", p->name);
		o->trace = v;
		break;
	case O_DIR:
		o->dir = v;
		break;
	case O_TIMING:
		o->timing = true;
		break;
	case O_STRICT:
		o->strict = true;
		break;
	case O_DOMAINS:
		o->domains = true;
		break;
	}
	return -1;
}

/* run's options; returns -1 to go on, else the exit status. */
static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	int rc = cli_parse(&cli_cmd_run, argc, argv, run_arg, o);

	if (rc >= 0)
		return rc;
	if (!o->file)
		return cli_usage_error(&cli_cmd_run, "%s", "no scenario given");
	if (o->seedset[0])
		o->sets[o->nsets++] = o->seedset;	/* --seed wins over the file and --set */
	return -1;
}

/*
 * cgsim run --seeds N: the scenario loaded and run once per seed (the seed set last, so that it
 * wins over the file, --set and --seed), then summed up. The scenarios live as long as the
 * runs, which point into them.
 */
static int run_seeds(const struct run_opts *o, const struct scenario *first)
{
	struct scenario **scs = calloc(o->seeds, sizeof(*scs));
	struct run_result **runs = calloc(o->seeds, sizeof(*runs));
	struct seeds *sum = NULL;
	bool tty = isatty(STDERR_FILENO);
	char err[2048];
	size_t done = 0;
	int rc = 2;

	if (!scs || !runs) {
		fputs("cgsim: out of memory\n", stderr);
		goto out;
	}
	for (; done < o->seeds; done++) {
		if (tty)
			fprintf(stderr, "\rcgsim: run %zu of %zu", done + 1, o->seeds);
		if (seeds_run(first->src, o->variant, o->sets, o->nsets, SCN_NO_SWEEP,
			      first->seed, done, &scs[done], &runs[done], err, sizeof(err))) {
			fprintf(stderr, "%s%s\n", tty ? "\n" : "", err);
			goto out;
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (seeds_sum(runs, done, first->seed, &sum, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	runs = NULL;	/* the sum owns them */
	if (o->format)
		report_seeds_json(stdout, sum);
	else
		report_seeds_text(stdout, sum);
	rc = cli_finish_stdout();
	/* the timeline is the same in every run: its refusals are said once */
	if (cli_timeline_refusals(sum->runs[0], NULL) && o->strict && !rc)
		rc = 1;
out:
	seeds_free(sum);
	for (size_t k = 0; runs && k < done; k++)
		run_free(runs[k]);
	free(runs);
	for (size_t k = 0; scs && k < o->seeds; k++)
		scn_free(scs[k]);
	free(scs);
	return rc;
}

/* One run of @sc: -o DIR, the trace, the report. The exit status. */
static int run_once(const struct run_opts *o, struct scenario *sc)
{
	struct run_result *res;
	struct util_out trace = { .f = NULL };
	char err[2048];
	int rc;

	if (o->trace && util_out_open(&trace, o->trace, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (run_scenario_trace(sc, o->timing, o->trace ? trace.f : NULL, &res, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the run failed");
		util_out_abort(&trace);
		return 2;
	}
	/* the trace is renamed into place last: a failure before leaves no file at all */
	if ((o->dir && report_write_dir(o->dir, res, err, sizeof(err))) ||
	    (o->trace && util_out_commit(&trace, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		util_out_abort(&trace);
		rc = 2;
	} else if (o->trace && !strcmp(o->trace, "-")) {
		rc = 0;		/* stdout holds the trace */
	} else {
		run_formats[o->format].print(stdout, res);
		rc = cli_finish_stdout();
	}
	if (cli_timeline_refusals(res, NULL) && o->strict && !rc)
		rc = 1;
	run_free(res);
	return rc;
}

/* run --domains: the domains of @sc's machine. */
static int run_domains(const struct scenario *sc)
{
	const struct topo_machine *m = &sc->sched.machine;
	struct topo_cpu *cpus = calloc((size_t)m->cpus, sizeof(*cpus));
	char span[4096];

	if (!cpus || topo_build(m, cpus)) {
		free(cpus);
		fprintf(stderr, "cgsim: %s: cannot build the machine's domains\n", sc->file);
		return 2;
	}
	for (int c = 0; c < m->cpus; c++)
		for (int l = 0; l < cpus[c].n; l++) {
			const struct topo_domain *d = &cpus[c].dom[l];

			topo_span_str(d->span, span, sizeof(span));
			printf("cpu%d/domain%d %s %s", c, l, d->name, span);
			for (int f = 0; f < TOPO_NFLAGS; f++)
				if (d->flags & (1u << f))
					printf(" %s", topo_flag_name((enum topo_flag)f));
			putchar('\n');
		}
	free(cpus);
	return cli_finish_stdout();
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .file = NULL };
	struct scenario *sc;
	int rc = parse_run_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.seeds && (o.dir || o.trace || o.format > 1))
		return cli_usage_error(&cli_cmd_run, "--seeds gives the text report or --json only, "
				       "not %s", o.dir ? "-o DIR" : o.trace ? "--trace" :
				       run_formats[o.format].option);
	if (o.domains && (o.seeds || o.dir || o.trace || o.format))
		return cli_usage_error(&cli_cmd_run, "--domains prints only the domains, not %s",
				       o.seeds ? "--seeds" : o.dir ? "-o DIR" : o.trace ? "--trace" :
				       run_formats[o.format].option);
	sc = cli_load(o.file, o.variant, o.sets, o.nsets);
	if (!sc)
		return 2;
	rc = o.domains ? run_domains(sc) : o.seeds ? run_seeds(&o, sc) : run_once(&o, sc);
	scn_free(sc);
	return rc;
}
