/* SPDX-License-Identifier: MIT */
/*
 * sim/app/main.c - the command line (cgsim --help).
 *
 * Exit status: 0 success, 1 a check failed, 2 bad usage or bad input (one message on stderr
 * naming the file, line and column). --help and --version print to stdout and exit 0, or 2
 * when stdout cannot be written.
 */
#include "cgroup/cgroup.h"
#include "sim/app/cli.h"
#include "sim/app/compare.h"
#include "sim/run/expect.h"
#include "sim/app/figures.h"
#include "sim/app/report.h"
#include "sim/run/seeds.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"
#include "sim/util/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CGSIM_VERSION
#define CGSIM_VERSION "unknown"
#endif

#define MAX_INPUT (64u << 20)	/* no script is larger than this: refuse rather than exhaust */

static const char usage_main[] =
	"usage: cgsim COMMAND [ARGS]\n"
	"\n"
	"A discrete-event simulator of the Linux fair scheduler and the cgroup hierarchy.\n"
	"\n"
	"commands:\n"
	"  run SCENARIO.yaml [--variant NAME] [--seed N] [--set KEY=VALUE]... [--json] [-o DIR]\n"
	"            [--max-events N]\n"
	"            simulate a scenario and report CPU shares against the ideal, fairness,\n"
	"            latencies and scheduler overhead\n"
	"  compare SCENARIO.yaml [--set KEY=VALUE]... [--markdown|--json] [-o DIR]\n"
	"            [--seeds N] [--jobs N] [--shard I/N] [--max-events N]\n"
	"            every variant side by side: shares against the ideal, fairness,\n"
	"            latency, switches, overhead\n"
	"  merge SHARD_DIR... [--markdown|--json] [-o DIR]\n"
	"            the shards of compare --shard I/N put together: what compare prints\n"
	"  shares SCENARIO.yaml [--variant NAME] [--set KEY=VALUE]... [--json]\n"
	"            the ideal shares of a scenario's layout, computed, not simulated\n"
	"  check [--tap] [--junit FILE] [--max-events N] SCENARIO.yaml...\n"
	"            evaluate the scenarios' expect: entries; exit 1 when one fails\n"
	"  cgroupfs [--semantics v2|rfc2017|v1] FILE.cgs|-\n"
	"            run a cgroupfs script against the cgroup model and print the result of\n"
	"            every operation (errno names as the kernel gives them)\n"
	"  validate SCENARIO.yaml --live [--reps N] [--tolerance POINTS] [--set KEY=VALUE]...\n"
	"            [--json]\n"
	"            run the scenario on this machine's kernel too (root) and compare the shares\n"
	"  calibrate --live [--reps N] [--round-trips N] [--profile FILE]\n"
	"            [--check [--costs FILE]] [--json] [-o FILE]\n"
	"            measure what a wakeup and a switch cost on this kernel per level of cgroup\n"
	"            hierarchy (root); write the machine's cost profile, check one\n"
	"\n"
	"  cgsim --help, cgsim COMMAND --help, cgsim --version\n"
	"\n"
	"Exit status: 0 success, 1 a check failed, 2 bad usage or bad input.\n";

static const char usage_cgroupfs[] =
	"usage: cgsim cgroupfs [--semantics v2|rfc2017|v1] [--live] FILE.cgs|-\n"
	"\n"
	"Run a .cgs script (one operation per line: root-controllers, proc, mkdir, rmdir, write,\n"
	"read; '#' starts a comment) against a new cgroup hierarchy and print\n"
	"\"LINENO: OP ARGS -> RESULT\" for each operation. RESULT is ok, the kernel's errno name,\n"
	"or a file's content with its lines joined by '|'.\n"
	"\n"
	"  --semantics v2       cgroup v2 with thread mode as merged in Linux 4.14 (default)\n"
	"  --semantics rfc2017  Tejun Heo's February 2017 thread-mode proposal\n"
	"  --semantics v1       the cgroup v1 cpu hierarchy (tasks, cpu.shares, cpu.cfs_*)\n"
	"  --live               replay it on the running kernel too (root; paths from the real\n"
	"                       root, names it touches must not exist; everything undone) and\n"
	"                       print each answer once, or \"model A, kernel B\" where they\n"
	"                       differ (docs/live.md)\n"
	"\n"
	"Exit status 0 when the script ran to its end, whatever each operation answered (with\n"
	"--live: and the kernel answered every operation as the model); 1 with --live when an\n"
	"answer differs; 2 for a script that cannot be run (unreadable file, unknown operation,\n"
	"malformed line), with FILE:LINE:COL and what was expected on stderr and nothing on\n"
	"stdout, or one that cannot be replayed here.\n";

static const char usage_run[] =
	"usage: cgsim run SCENARIO.yaml [--variant NAME] [--seed N] [--seeds N]\n"
	"                 [--set KEY=VALUE]... [--json|--latency-table|--schbench] [-o DIR]\n"
	"                 [--trace FILE]\n"
	"                 [--timing] [--strict] [--max-events N]\n"
	"\n"
	"Simulate the scenario (docs/scenario-format.md) and report, for the measured window after\n"
	"the warm-up: each cgroup's and thread's CPU time and share of capacity against its ideal\n"
	"share, waits, wakeup latencies, switches and migrations; Jain's fairness index; the\n"
	"scheduler's overhead.\n"
	"\n"
	"  --variant NAME   run a variant declared under variants: (default: base)\n"
	"  --seed N         the random seed (same as --set seed=N)\n"
	"  --seeds N        N runs (1 to 1000), with seeds S to S+N-1 (S: --seed, or the file's):\n"
	"                   every share, latency and overhead as the mean, least, greatest and\n"
	"                   95 % interval of the mean over the runs (text or --json only)\n"
	"  --set KEY=VALUE  override any scalar of the file by its dotted path, e.g.\n"
	"                   --set machine.cpus=4 --set cgroups.vm.cpu.weight=200\n"
	"  --json           print one JSON object instead of the text report\n"
	"  --latency-table  print perf sched latency's table instead: per thread its CPU time,\n"
	"                   delays (runnable to running, after a wakeup or a preemption), their\n"
	"                   mean and longest, and when the longest began and ended (s)\n"
	"  --schbench       print schbench's wakeup latency percentiles (usec) instead, every\n"
	"                   thread's wakeups pooled, then per process\n"
	"  -o DIR           also write summary.json, threads.csv, groups.csv, timeseries.csv,\n"
	"                   activations.csv (periodic threads' activations, as rt-app logs them)\n"
	"  --trace FILE     write the whole run, warm-up included, as ftrace text (sched_switch,\n"
	"                   sched_waking, sched_wakeup, sched_migrate_task; the timeline as\n"
	"                   markers): what trace-cmd report prints, for Perfetto or LISA\n"
	"                   (docs/trace.md). FILE - is stdout, and then no report is printed\n"
	"  --timing         record the wall-clock time in wall_ns (otherwise 0, so that the same\n"
	"                   scenario and seed give the same bytes)\n"
	"  --strict         exit 1 when the model refuses a timeline operation (each refusal is\n"
	"                   said on stderr: FILE:LINE: at TIME s: OP -> ERRNO)\n"
	"  --max-events N   the most events a run may process (default 1000000000; 0: no\n"
	"                   limit); a run that needs more stops with exit status 2\n"
	"\n"
	"Exit status 0 (1 with --strict and a refused timeline operation), or 2 for bad usage or a\n"
	"scenario that cannot be run (FILE:LINE:COL on stderr, nothing on stdout, nothing in DIR).\n";

static const char usage_shares[] =
	"usage: cgsim shares SCENARIO.yaml [--variant NAME] [--set KEY=VALUE]... [--json]\n"
	"\n"
	"Apply the scenario's layout and print the ideal share of capacity of every cgroup and\n"
	"thread: hierarchical proportional sharing by weight, each thread capped at one CPU and at\n"
	"its demand, each group at its cpu.max, the excess redistributed (docs/ideal-shares.md).\n"
	"Nothing is simulated and the timeline is not applied.\n";

int cli_usage_error(const char *usage, const char *fmt, const char *arg)
{
	const char *blank = strstr(usage, "\n\n"), *cmd = usage + strlen("usage: cgsim ");
	size_t cl = strcspn(cmd, " \n");

	fprintf(stderr, "cgsim: ");
	fprintf(stderr, fmt, arg);
	/* the usage lines only, then where the rest is (GNU's way) */
	fprintf(stderr, "\n%.*s\n", blank ? (int)(blank - usage) : (int)strlen(usage), usage);
	if (strncmp(usage, "usage: cgsim ", 13) || !strncmp(cmd, "COMMAND", cl))
		fputs("Try 'cgsim --help' for more information.\n", stderr);
	else
		fprintf(stderr, "Try 'cgsim %.*s --help' for more information.\n", (int)cl, cmd);
	return 2;
}

/*
 * The command line as the parsers take it, getopt_long's way: "--opt=VALUE" is "--opt VALUE"
 * for the options that take a value, and after "--" nothing is an option (an operand that
 * begins with '-' is given as "./-..."; operands are files). *@out is malloc'ed.
 */
static int normalize_args(int argc, char **argv, char ***out)
{
	static const char *const valued[] = { "--seed", "--seeds", "--set", "--variant", "--max-events",
		"--junit", "--reps", "--tolerance", "--semantics", "--trace", "--jobs", "--shard",
		"--round-trips", NULL };
	char **v = calloc((size_t)argc * 2 + 1, sizeof(*v));
	int n = 0;
	bool operands = false;

	if (!v)
		return -1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t k;

		if (operands) {
			v[n++] = a[0] == '-' ? util_asprintf("./%s", a) : strdup(a);
		} else if (i > 1 && !strcmp(a, "--")) {
			operands = true;
			continue;
		} else if (!strncmp(a, "--", 2) && eq) {
			for (k = 0; valued[k] && (strlen(valued[k]) != (size_t)(eq - a) ||
						  strncmp(a, valued[k], (size_t)(eq - a))); k++)
				;
			if (!valued[k]) {
				v[n++] = strdup(a);
			} else {
				v[n++] = strndup(a, (size_t)(eq - a));
				v[n++] = strdup(eq + 1);
			}
		} else {
			v[n++] = strdup(a);
		}
		if (!v[n - 1] || (n > 1 && !v[n - 2]))
			return -1;
	}
	*out = v;
	return n;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
	char **v = NULL;
	int n = normalize_args(argc, argv, &v), rc;

	if (n < 0) {
		fprintf(stderr, "cgsim: out of memory\n");
		return 2;
	}
	report_set_version(CGSIM_VERSION);
	rc = dispatch(n, v);
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}


/* Read all of @f into a NUL-terminated buffer; refuses NUL bytes and oversized input. */
static int slurp(FILE *f, const char *name, char **out)
{
	size_t len;
	char *buf, *nul;
	int e = util_read_stream(f, MAX_INPUT, &buf, &len);

	if (e == -EFBIG)
		fprintf(stderr, "cgsim: %s: larger than %u MiB\n", name, MAX_INPUT >> 20);
	else if (e && e != -ENOMEM)
		fprintf(stderr, "cgsim: %s: read error: %s\n", name, strerror(-e));
	if (e)
		return e;
	nul = memchr(buf, '\0', len);
	if (nul) {
		int line = 1;

		for (const char *p = buf; p < nul; p++)
			line += *p == '\n';
		fprintf(stderr, "cgsim: %s:%d: a NUL byte: not a text file\n", name, line);
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

/*
 * The model's lines @model and the kernel's @kernel, one per operation, side by side: a line
 * both gave once, else "PREFIX -> model A, kernel B". Returns how many differ.
 */
static size_t print_both(FILE *o, const char *model, const char *kernel)
{
	size_t differ = 0, same = 0;

	while (*model || *kernel) {
		size_t lm = strcspn(model, "\n"), lk = strcspn(kernel, "\n");
		const char *arrow = strstr(model, " ->");
		size_t pre = arrow && (size_t)(arrow - model) < lm ? (size_t)(arrow - model) + 3 : lm;

		if (lm == lk && !memcmp(model, kernel, lm)) {
			fprintf(o, "%.*s\n", (int)lm, model);
			same++;
		} else {
			fprintf(o, "%.*s model%.*s, kernel%.*s\n", (int)pre, model, (int)(lm - pre),
				model + pre, (int)(lk > pre ? lk - pre : 0), kernel + (lk > pre ? pre : lk));
			differ++;
		}
		model += lm + (model[lm] == '\n');
		kernel += lk + (kernel[lk] == '\n');
	}
	fprintf(o, "%zu operations answered alike, %zu differently\n", same, differ);
	return differ;
}

static int cmd_cgroupfs(int argc, char **argv)
{
	enum cg_semantics sem = CG_SEM_V2;
	const char *file = NULL, *mi = getenv("CGSIM_LIVE_MOUNTINFO");
	char *text = NULL, *out = NULL, *kout = NULL, err[1024];
	bool live = false;
	FILE *f;
	int r;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_cgroupfs, stdout);
			return cli_finish_stdout();
		}
		if (!strcmp(a, "--live")) {
			live = true;
			continue;
		}
		if (!strcmp(a, "--semantics") || !strncmp(a, "--semantics=", 12)) {
			const char *v = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v)
				return cli_usage_error(usage_cgroupfs, "%s needs a value", a);
			if (cg_semantics_parse(v, &sem))
				return cli_usage_error(usage_cgroupfs,
						   "unknown semantics '%s' (expected v2, rfc2017 or v1)",
						   v);
			continue;
		}
		if (a[0] == '-' && a[1])
			return cli_usage_error(usage_cgroupfs, "unknown option '%s'", a);
		if (file)
			return cli_usage_error(usage_cgroupfs, "more than one script given ('%s')", a);
		file = a;
	}
	if (!file)
		return cli_usage_error(usage_cgroupfs, "%s", "no script given (a FILE.cgs or - for stdin)");
	if (!strcmp(file, "-")) {
		f = stdin;
		file = "<stdin>";
	} else {
		f = fopen(file, "rb");
		if (!f) {
			fprintf(stderr, "cgsim: %s: %s\n", file, strerror(errno));
			return 2;
		}
	}
	r = slurp(f, file, &text);
	if (f != stdin)
		fclose(f);
	if (r)
		return 2;
	r = cg_script_run(sem, file, text, &out, err, sizeof(err));
	if (!r && live)
		r = live_cgs_replay(file, text, sem, mi && *mi ? mi : "/proc/self/mountinfo", &kout,
				    err, sizeof(err));
	free(text);
	if (r) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: out of memory");
		free(out);
		return 2;
	}
	if (live)
		r = print_both(stdout, out, kout) ? 1 : 0;
	else
		fputs(out, stdout);
	free(out);
	free(kout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cgsim: writing the output: %s\n", strerror(errno));
		return 2;
	}
	return r;
}


bool cli_parse_u64(const char *v, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 10);
	return *v && !*end && errno != ERANGE && strspn(v, "0123456789") == strlen(v);
}

_Static_assert(RUN_MAX_EVENTS == 1000000000ull, "the usage texts give the default work bound");

/* --max-events N: the work bound of every run of this command (sim/run/run.h). */
int cli_max_events(const char *usage, const char *v)
{
	uint64_t n;

	if (!cli_parse_u64(v, &n))
		return cli_usage_error(usage, "--max-events needs a number from 0 (no limit) to "
				   "18446744073709551615, not '%s'", v);
	run_set_max_events(n);
	return -1;
}

/* Output formats (sim/app/cli.h). */
size_t cli_format_asked(const void *t, size_t n, size_t size, const char *a)
{
	for (size_t i = 1; i < n; i++) {
		/* a row's first member, its option, is where the row starts */
		const char *opt = *(const char *const *)(const void *)((const char *)t + i * size);

		if (!strcmp(a, opt))
			return i;
	}
	return 0;
}

int cli_format_set(size_t *chosen, size_t f, const char *opt_f, const char *opt_chosen,
		      const char *usage)
{
	char both[64];

	if (*chosen && *chosen != f) {
		/* named in the table's order, whichever came first on the command line */
		snprintf(both, sizeof(both), "%s and %s", *chosen < f ? opt_chosen : opt_f,
			 *chosen < f ? opt_f : opt_chosen);
		return cli_usage_error(usage, "%s exclude each other", both);
	}
	*chosen = f;
	return 0;
}

/* run's and shares' formats */
struct run_format {
	const char *option;
	void (*print)(FILE *f, const struct run_result *r);
};

static const struct run_format run_formats[] = {
	{ NULL, report_text },
	{ "--json", report_json },
	{ "--latency-table", report_latency_table },
	{ "--schbench", report_schbench },
};

static const struct run_format shares_formats[] = {
	{ NULL, report_shares_text },
	{ "--json", report_shares_json },
};

struct run_opts {
	const char *file;
	const char *variant;
	const char *sets[CLI_MAX_SETS + 1];
	char seedset[48];
	size_t nsets;
	const char *dir;
	const char *trace;			/* --trace FILE */
	const struct run_format *formats;	/* the command's table */
	size_t nformats;
	size_t format;				/* the row asked for */
	unsigned seeds;				/* --seeds N; 0: one run */
	bool timing;
	bool strict;				/* --strict: a refused timeline operation fails */
};

/* Options of run and shares; returns -1 to go on, else the exit status. */
static int parse_run_opts(int argc, char **argv, const char *usage, bool full,
			  struct run_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;
		size_t f = a[0] == '-' ? CLI_FORMAT_ASKED(o->formats, o->nformats, a) : 0;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return cli_finish_stdout();
		}
		if (f) {
			int rc = cli_format_set(&o->format, f, a,
					    o->format ? o->formats[o->format].option : NULL, usage);

			if (rc)
				return rc;
			continue;
		}
		if (full && !strcmp(a, "--timing")) {
			o->timing = true;
			continue;
		}
		if (full && !strcmp(a, "--strict")) {
			o->strict = true;
			continue;
		}
		if (!strcmp(a, "--variant") || !strcmp(a, "--set") ||
		    (full && (!strcmp(a, "--seed") || !strcmp(a, "-o") || !strcmp(a, "--seeds") ||
			      !strcmp(a, "--max-events") || !strcmp(a, "--trace")))) {
			if (i + 1 >= argc)
				return cli_usage_error(usage, "%s needs a value", a);
			v = argv[++i];
			if (!strcmp(a, "--variant")) {
				o->variant = v;
			} else if (!strcmp(a, "--set")) {
				if (o->nsets >= CLI_MAX_SETS)
					return cli_usage_error(usage, "more than %s --set options", "256");
				o->sets[o->nsets++] = v;
			} else if (!strcmp(a, "--seed")) {
				uint64_t seed;

				if (!cli_parse_u64(v, &seed))
					return cli_usage_error(usage, "--seed needs a number from 0 to "
							   "18446744073709551615, not '%s'", v);
				snprintf(o->seedset, sizeof(o->seedset), "seed=%.30s", v);
			} else if (!strcmp(a, "--seeds")) {
				uint64_t n;

				if (!cli_parse_u64(v, &n) || n < 1 || n > SEEDS_MAX)
					return cli_usage_error(usage, "--seeds needs a number of runs from "
							   "1 to 1000, not '%s'", v);
				o->seeds = (unsigned)n;
			} else if (!strcmp(a, "--max-events")) {
				int rc = cli_max_events(usage, v);

				if (rc >= 0)
					return rc;
			} else if (!strcmp(a, "--trace")) {
				if (!v[0])
					return cli_usage_error(usage, "%s needs a file name", a);
				o->trace = v;
			} else {
				o->dir = v;
			}
			continue;
		}
		if (a[0] == '-' && a[1])
			return cli_usage_error(usage, "unknown option '%s'", a);
		if (o->file)
			return cli_usage_error(usage, "more than one scenario given ('%s')", a);
		o->file = a;
	}
	if (!o->file)
		return cli_usage_error(usage, "%s", "no scenario given");
	if (o->seedset[0])
		o->sets[o->nsets++] = o->seedset;	/* --seed wins over the file and --set */
	return -1;
}

int cli_finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cgsim: writing the output: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}

unsigned cli_timeline_refusals(const struct run_result *res, const char *variant)
{
	unsigned n = 0;

	for (size_t i = 0; i < res->nops; i++) {
		const char *r = res->ops[i].result, *colon = strchr(r, ':');

		if (!res->ops[i].failed || !colon)
			continue;
		n++;
		fprintf(stderr, "%s:%.*s: at %.3f s%s%s%s:%s\n", res->sc->file, (int)(colon - r), r,
			(double)res->ops[i].at / 1e9, variant ? " [" : "", variant ? variant : "",
			variant ? "]" : "", colon + 1);
	}
	return n;
}

void cli_notes(const struct scenario *sc)
{
	static char said[1024];	/* variants and sweeps load the same file again */

	if (!sc || !sc->nnotes || !strncmp(said, sc->file, sizeof(said) - 1))
		return;
	snprintf(said, sizeof(said), "%s", sc->file);
	for (size_t i = 0; i < sc->nnotes; i++)
		fprintf(stderr, "%s\n", sc->notes[i]);
}

struct scenario *cli_load(const char *file, const char *variant, const char *const *sets,
			  size_t nsets)
{
	char err[2048];
	struct scenario *sc = scn_load(file, NULL, variant, sets, nsets, err, sizeof(err));

	if (!sc)
		fprintf(stderr, "%s\n", err);
	cli_notes(sc);
	return sc;
}

static struct scenario *load(const struct run_opts *o)
{
	return cli_load(o->file, o->variant, o->sets, o->nsets);
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
			fprintf(stderr, "\rcgsim: run %zu of %u", done + 1, o->seeds);
		if (seeds_run(o->file, first->text, o->variant, o->sets, o->nsets, SCN_NO_SWEEP,
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

static int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .formats = run_formats,
			      .nformats = sizeof(run_formats) / sizeof(run_formats[0]) };
	struct scenario *sc;
	struct run_result *res;
	struct util_out trace = { .f = NULL };
	char err[2048];
	int rc = parse_run_opts(argc, argv, usage_run, true, &o);

	if (rc >= 0)
		return rc;
	if (o.seeds && (o.dir || o.trace || o.format > 1))
		return cli_usage_error(usage_run, "--seeds gives the text report or --json only, not "
				       "%s", o.dir ? "-o DIR" : o.trace ? "--trace" :
				       run_formats[o.format].option);
	sc = load(&o);
	if (!sc)
		return 2;
	if (o.seeds) {
		rc = run_seeds(&o, sc);
		scn_free(sc);
		return rc;
	}
	if (o.trace && util_out_open(&trace, o.trace, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		scn_free(sc);
		return 2;
	}
	if (run_scenario_trace(sc, o.timing, o.trace ? trace.f : NULL, &res, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the run failed");
		util_out_abort(&trace);
		scn_free(sc);
		return 2;
	}
	/* the trace is renamed into place last: a failure before leaves no file at all */
	if ((o.dir && report_write_dir(o.dir, res, err, sizeof(err))) ||
	    (o.trace && util_out_commit(&trace, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		util_out_abort(&trace);
		rc = 2;
	} else if (o.trace && !strcmp(o.trace, "-")) {
		rc = 0;		/* stdout holds the trace */
	} else {
		run_formats[o.format].print(stdout, res);
		rc = cli_finish_stdout();
	}
	if (cli_timeline_refusals(res, NULL) && o.strict && !rc)
		rc = 1;
	run_free(res);
	scn_free(sc);
	return rc;
}

static int cmd_shares(int argc, char **argv)
{
	struct run_opts o = { .formats = shares_formats,
			      .nformats = sizeof(shares_formats) / sizeof(shares_formats[0]) };
	struct scenario *sc;
	struct run_result *res;
	char err[2048];
	int rc = parse_run_opts(argc, argv, usage_shares, false, &o);

	if (rc >= 0)
		return rc;
	sc = load(&o);
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

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(usage_main, "%s", "no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage_main, stdout);
		return cli_finish_stdout();
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cgsim %s\n", CGSIM_VERSION);
		return cli_finish_stdout();
	}
	if (!strcmp(argv[1], "cgroupfs"))
		return cmd_cgroupfs(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "shares"))
		return cmd_shares(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cli_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cli_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cli_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "validate"))
		return cli_validate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "calibrate"))
		return cli_calibrate(argc - 1, argv + 1);
	return cli_usage_error(usage_main, "unknown command '%s'", argv[1]);
}
