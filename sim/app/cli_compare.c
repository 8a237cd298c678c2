// SPDX-License-Identifier: MIT
/*
 * sim/app/cli_compare.c - cgsim compare and cgsim merge: the command lines of a comparison,
 * whether its runs are made here, in worker processes (--jobs N) or in shards put back
 * together later (--shard I/N, then merge). Every way ends in the same printing code, so that
 * the output cannot tell them apart (docs/scale-out.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/cli.h"
#include "sim/app/compare.h"
#include "sim/app/figures.h"
#include "sim/app/jobs.h"
#include "sim/app/report.h"
#include "sim/app/shard.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

static const char usage_compare[] =
	"usage: cgsim compare SCENARIO.yaml [--set KEY=VALUE]... [--markdown|--json] [-o DIR]\n"
	"                     [--seeds N] [--jobs N] [--shard I/N] [--trace] [--strict]\n"
	"                     [--max-events N]\n"
	"\n"
	"Run the base layout and every variant declared under variants:, with the same seed, and\n"
	"print them side by side: each group's and process's share of capacity against its ideal,\n"
	"Jain's index, the largest share error, p50/p99 wakeup latency (the worst thread), context\n"
	"switches and level operations per second, the scheduler overhead, and the change of each\n"
	"variant from the base (shares, each process's wakeup p99, overhead). The numbers are\n"
	"those of cgsim run --variant NAME --json.\n"
	"\n"
	"  --seeds N        run each variant (and each sweep value) with N seeds (1 to 1000),\n"
	"                   S to S+N-1: the tables show the means, each share's least-greatest\n"
	"                   and 95 % interval, and mark with ? a change from the base smaller\n"
	"                   than the spread; the JSON gives each variant as run --seeds --json;\n"
	"                   DIR/VARIANT/ holds seed S's run and seeds.json (not with --trace)\n"
	"  --jobs N         run N simulations at a time in worker processes (default 1; 0: one\n"
	"                   per online CPU); the output is the same for every N\n"
	"  --shard I/N      run only shard I of N of the runs (every Nth, from the Ith) and\n"
	"                   write them to -o DIR for cgsim merge (docs/scale-out.md)\n"
	"  --markdown       a markdown table instead of plain text\n"
	"  --json           one JSON object: each variant's run object in a list\n"
	"  -o DIR           also write DIR/compare.{txt,md,json} and each variant's CSV files in\n"
	"                   DIR/VARIANT/\n"
	"  --trace          with -o DIR: each variant's run as ftrace text in\n"
	"                   DIR/VARIANT/trace.txt (docs/trace.md; a sweep's runs are not traced)\n"
	"  --strict         exit 1 when the model refuses a timeline operation of a variant\n"
	"                   (said on stderr)\n"
	"  --max-events N   the most events each run may process (default 1000000000; 0: no\n"
	"                   limit)\n";

static const char usage_merge[] =
	"usage: cgsim merge SHARD_DIR... [--markdown|--json] [-o DIR] [--strict]\n"
	"\n"
	"Put together the shards that cgsim compare --shard I/N -o SHARD_DIR wrote, and print and\n"
	"write exactly what the comparison run in one go prints and writes. The shards must come\n"
	"from one scenario, one set of --set and --seeds options and one cgsim version, and all N\n"
	"must be given, each once (docs/scale-out.md).\n"
	"\n"
	"  --markdown       a markdown table instead of plain text\n"
	"  --json           one JSON object: each variant's run object in a list\n"
	"  -o DIR           also write DIR/compare.{txt,md,json}, each variant's CSV files in\n"
	"                   DIR/VARIANT/, the sweep's CSV files and the figures\n"
	"  --strict         exit 1 when the model refused a timeline operation of a variant\n";

static int sweep_csv_writer(FILE *f, const void *sw)
{
	return sweep_csv(f, sw);
}

/* DIR/sweep.csv, written atomically. */
static int write_sweep(const char *dir, const struct sweep *sw, char *err, size_t errlen)
{
	return util_write_file(dir, "sweep.csv", sweep_csv_writer, sw, err, errlen);
}

/* compare's formats */
static const struct {
	const char *option;
	int (*print)(FILE *f, const struct compare *c);
	bool sweep_table;	/* followed by the sweep's table, when there is one */
} compare_formats[] = {
	{ NULL, compare_text, true },
	{ "--markdown", compare_markdown, true },
	{ "--json", compare_json, false },
};

struct compare_opts {
	const char *file, *dir, *sets[CLI_MAX_SETS];
	bool trace;		/* --trace: DIR/VARIANT/trace.txt */
	bool strict;		/* --strict: a refused timeline operation fails */
	size_t nsets;
	size_t format;		/* index in compare_formats[] */
	size_t seeds;		/* --seeds N; 0: one */
	size_t jobs;		/* --jobs N (0 given: the online CPUs); 1 without */
	size_t shard, shards;	/* --shard I/N; 0/0 without */
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

/*
 * Whether @a is an option compare and merge share: --help (@usage printed) or a format, which
 * goes to *@format. *@rc: -1 to go on, else the exit status.
 */
static bool shared_opt(const char *a, const char *usage, size_t *format, int *rc)
{
	size_t f = a[0] == '-' ? CLI_FORMAT_ASKED(compare_formats, sizeof(compare_formats) /
					      sizeof(compare_formats[0]), a) : 0;

	*rc = -1;
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		fputs(usage, stdout);
		*rc = cli_finish_stdout();
		return true;
	}
	if (!f)
		return false;
	if (cli_format_set(format, f, a, *format ? compare_formats[*format].option : NULL, usage))
		*rc = 2;
	return true;
}

/* compare's options; returns -1 to go on, else the exit status. */
static int parse_compare_opts(int argc, char **argv, struct compare_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (shared_opt(a, usage_compare, &o->format, &rc)) {
			if (rc >= 0)
				return rc;
			continue;
		}
		if (!strcmp(a, "--trace")) {
			o->trace = true;
			continue;
		}
		if (!strcmp(a, "--strict")) {
			o->strict = true;
			continue;
		}
		if (!strcmp(a, "--set") || !strcmp(a, "-o") || !strcmp(a, "--max-events") ||
		    !strcmp(a, "--seeds") || !strcmp(a, "--jobs") || !strcmp(a, "--shard")) {
			int r;

			if (i + 1 >= argc)
				return cli_usage_error(usage_compare, "%s needs a value", a);
			if (!strcmp(a, "--seeds")) {
				uint64_t n;

				if (!cli_parse_u64(argv[++i], &n) || n < 1 || n > SEEDS_MAX)
					return cli_usage_error(usage_compare, "--seeds needs a number "
							   "of runs from 1 to 1000, not '%s'", argv[i]);
				o->seeds = (size_t)n;
			} else if (!strcmp(a, "--jobs")) {
				uint64_t n;

				if (!cli_parse_u64(argv[++i], &n) || n > JOBS_MAX_WORKERS)
					return cli_usage_error(usage_compare, "--jobs needs a number of "
							   "workers from 0 (one per CPU) to 1024, not "
							   "'%s'", argv[i]);
				o->jobs = n ? (size_t)n : jobs_online_cpus();
			} else if (!strcmp(a, "--shard")) {
				if (!parse_shard(argv[++i], &o->shard, &o->shards))
					return cli_usage_error(usage_compare, "--shard needs I/N, shard I "
							   "of N, 1 <= I <= N <= 100000, not '%s'",
							   argv[i]);
			} else if (!strcmp(a, "--max-events")) {
				if ((r = cli_max_events(usage_compare, argv[++i])) >= 0)
					return r;
			} else if (!strcmp(a, "-o")) {
				o->dir = argv[++i];
			} else if (o->nsets >= CLI_MAX_SETS) {
				return cli_usage_error(usage_compare, "more than %s --set options", "256");
			} else {
				o->sets[o->nsets++] = argv[++i];
			}
			continue;
		}
		if (a[0] == '-' && a[1])
			return cli_usage_error(usage_compare, "unknown option '%s'", a);
		if (o->file)
			return cli_usage_error(usage_compare, "more than one scenario given ('%s')", a);
		o->file = a;
	}
	if (!o->file)
		return cli_usage_error(usage_compare, "%s", "no scenario given");
	if (o->trace && !o->dir)
		return cli_usage_error(usage_compare, "%s", "--trace writes DIR/VARIANT/trace.txt: "
				       "give -o DIR");
	if (o->shards && !o->dir)
		return cli_usage_error(usage_compare, "%s", "--shard writes the shard's runs to a "
				       "directory for cgsim merge: give -o DIR");
	if (o->shards && (o->trace || o->format))
		return cli_usage_error(usage_compare, "%s", "--shard prints no tables and writes no "
				       "traces: leave out --trace, --markdown and --json (give "
				       "them to cgsim merge, or trace with one compare)");
	if (!o->jobs)
		o->jobs = 1;
	return -1;
}

/* The tables on stdout, then where the figures are. 0 or 2. */
static int compare_print(const struct compare_opts *o, const struct compare *c,
			 const struct sweep *sw, bool rendered)
{
	bool tables = compare_formats[o->format].sweep_table;

	bool md = compare_formats[o->format].print == compare_markdown;

	if (compare_formats[o->format].print(stdout, c) ||
	    (sw && tables && (md ? sweep_markdown(stdout, sw) : sweep_text(stdout, sw)))) {
		fprintf(stderr, "cgsim: out of memory\n");
		return 2;
	}
	if (o->dir && tables) {
		if (rendered)
			printf("\nfigures: %s/figures/ (PNG and SVG)\n", o->dir);
		else
			printf("\ngnuplot is not installed: the data and scripts are in %s; "
			       "render with sh %s/render.sh\n", o->dir, o->dir);
	}
	return cli_finish_stdout();
}

/*
 * A comparison loaded and its runs listed: what compare makes from the command line and merge
 * from the shards' scenario, options and seeds, in exactly the same way.
 */
struct plan {
	struct compare *c;
	struct sweep *sw;
	struct jobs js;
};

static void plan_free(struct plan *p)
{
	jobs_free(&p->js);
	sweep_free(p->sw);
	compare_free(p->c);
	memset(p, 0, sizeof(*p));
}

/*
 * Load @file (@text: its bytes, or NULL to read it) with @sets and @nseeds seeds (0 or 1: one),
 * every sweep value too, and list the runs. 0, or 2 with the message on stderr.
 */
static int plan_load(struct plan *p, const char *file, const char *text,
		     const char *const *sets, size_t nsets, size_t nseeds, const char *trace_dir)
{
	char err[2048];
	int e;

	memset(p, 0, sizeof(*p));
	nseeds = nseeds ? nseeds : 1;
	if (compare_load(file, text, sets, nsets, SCN_NO_SWEEP, nseeds, trace_dir, &p->c, err,
			 sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the comparison failed");
		return 2;
	}
	cli_notes(p->c->sc[0]);
	if (nseeds > 1 && p->c->sc[0]->nsweep && !strcmp(p->c->sc[0]->sweep_key, "seed")) {
		fprintf(stderr, "%s: the sweep sets seed: --seeds %zu would run each value with one "
			"seed only; leave out --seeds or sweep another key\n", file, nseeds);
		plan_free(p);
		return 2;
	}
	e = p->c->sc[0]->nsweep ? sweep_load(file, p->c->sc[0], sets, nsets, nseeds, &p->sw, err,
					     sizeof(err)) : 0;
	if (e) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the sweep failed");
		plan_free(p);
		return 2;
	}
	if (compare_jobs(p->c, &p->js) || (p->sw && sweep_jobs(p->sw, &p->js))) {
		fprintf(stderr, "cgsim: out of memory\n");
		plan_free(p);
		return 2;
	}
	return 0;
}

/* Every run in place: the seeds summed up. 0, or 2 with the message on stderr. */
static int plan_finish(struct plan *p)
{
	char err[2048];

	if (compare_finish(p->c, err, sizeof(err)) ||
	    (p->sw && sweep_finish(p->sw, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return 0;
}

/*
 * What a comparison prints and writes once every run is in: -o DIR's files and figures (a
 * failure there comes before any output), the tables, the timeline refusals. The exit status.
 */
static int plan_output(const struct compare_opts *o, struct plan *p)
{
	bool rendered = false;
	char err[2048];
	int rc;

	if (o->dir && (compare_write_dir(o->dir, p->c, err, sizeof(err)) ||
		       (p->sw && write_sweep(o->dir, p->sw, err, sizeof(err))) ||
		       figures_write(o->dir, p->c, p->sw, &rendered, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		rc = 2;
	} else {
		rc = compare_print(o, p->c, p->sw, rendered);
	}
	for (size_t v = 0; v < p->c->n; v++)
		if (cli_timeline_refusals(p->c->res[v], p->c->sc[v]->variant) && o->strict && !rc)
			rc = 1;
	return rc;
}

/* compare --shard I/N -o DIR: the shard's runs, and what they are, into DIR. */
static int write_shard(const struct compare_opts *o, struct plan *p)
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

int cli_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct plan p;
	char err[4096];
	int rc = parse_compare_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.seeds > 1 && o.trace)
		return cli_usage_error(usage_compare, "%s", "--trace traces one run of each variant: "
				       "leave out --seeds");
	/* everything -o DIR will need, before the first byte of output */
	if (o.dir && !o.shards && figures_check(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if ((rc = plan_load(&p, o.file, NULL, o.sets, o.nsets, o.seeds, o.trace ? o.dir : NULL)))
		return rc;
	if (o.shards)
		jobs_shard(&p.js, o.shard, o.shards);
	if (jobs_run(&p.js, o.jobs, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		plan_free(&p);
		return 2;
	}
	if (o.shards)
		rc = write_shard(&o, &p);
	else
		rc = plan_finish(&p) ? 2 : plan_output(&o, &p);
	plan_free(&p);
	return rc;
}

/* merge's options into @o (its format, -o DIR, --strict) and the shard directories. */
static int parse_merge_opts(int argc, char **argv, struct compare_opts *o, const char **dirs,
			    size_t *ndirs)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (shared_opt(a, usage_merge, &o->format, &rc)) {
			if (rc >= 0)
				return rc;
		} else if (!strcmp(a, "--strict")) {
			o->strict = true;
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc)
				return cli_usage_error(usage_merge, "%s needs a value", a);
			o->dir = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(usage_merge, "unknown option '%s'", a);
		} else if (*ndirs >= SHARD_MAX) {
			return cli_usage_error(usage_merge, "more than %s shard directories", "100000");
		} else {
			dirs[(*ndirs)++] = a;
		}
	}
	if (!*ndirs)
		return cli_usage_error(usage_merge, "%s", "no shard directory given");
	return -1;
}

/* The shards in @dirs read and checked against the plan made from the first one's scenario. */
static int merge_shards(struct shard_info *s, const char **dirs, size_t n, struct plan *p)
{
	char err[4096], digest[65], list[65];
	int rc;

	for (size_t i = 0; i < n; i++)
		if (shard_read(dirs[i], &s[i], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	if ((rc = plan_load(p, s[0].scenario, s[0].text, (const char *const *)s[0].sets,
			    s[0].nsets, s[0].seeds, NULL)))
		return rc;
	shard_digests(&p->js, report_version(), s[0].text, (const char *const *)s[0].sets,
		      s[0].nsets, s[0].seeds, digest, list);
	if (shard_check(s, n, &p->js, list, err, sizeof(err)) ||
	    shard_take_runs(s, n, &p->js, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return plan_finish(p);
}

int cli_merge(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	struct shard_info *s = NULL;
	struct plan p = { 0 };
	size_t n = 0;
	char err[2048];
	int rc = dirs ? parse_merge_opts(argc, argv, &o, dirs, &n) : 2;

	if (!dirs)
		fprintf(stderr, "cgsim: out of memory\n");
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
		rc = plan_output(&o, &p);
	plan_free(&p);
	for (size_t i = 0; i < n; i++)
		shard_info_free(&s[i]);
	free(s);
	free(dirs);
	return rc;
}
