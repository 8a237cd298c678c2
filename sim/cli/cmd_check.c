// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_check.c - cgsim check: every scenario's expect: entries judged (sim/run/expect.h),
 * said as text (PASS/FAIL lines and a closing "N passed, N failed"), as TAP (version 13) for
 * CI harnesses that read it, and as a JUnit XML file for those that read that.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/run/expect.h"
#include "sim/run/run.h"
#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"
#include "sim/util/util.h"

enum { O_TAP, O_JUNIT, O_STRICT, O_SEEDS, O_MAX_EVENTS };

static const struct cli_opt check_opts[] = {
	[O_TAP] = { .name = "tap",
		.help = "the lines as TAP (\"ok 1 - ...\", \"not ok 2 - ...\", then \"1..N\")" },
	[O_JUNIT] = { .name = "junit", .meta = "FILE",
		.help = "also write the verdicts to FILE as JUnit XML, one testsuite a scenario",
		.files = true },
	[O_STRICT] = { .name = "strict",
		.help = "a timeline operation the model refuses (said on stderr) fails the "
			"variant's check" },
	[O_SEEDS] = { .name = "seeds", .meta = "N",
		.help = "run each variant with seeds S to S+N-1 (N from 1 to 1000) and judge each "
			"entry on the mean over them (the line gives the least and greatest run "
			"too)" },
	[O_MAX_EVENTS] = { .name = "max-events", .meta = "N",
		.help = "the most events each run may process (default 1000000000; 0: no limit)" },
};

static int cmd_check(int argc, char **argv);

const struct cli_cmd cli_cmd_check = {
	.name = "check",
	.operands = "SCENARIO.yaml...",
	.operands_last = true,
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "evaluate the scenarios' expect: entries; exit 1 when one fails",
	.description =
	"Run every variant named by each scenario's expect: entries and print one line per entry,\n"
	"PASS or FAIL with the measured and expected values, then \"N passed, N failed\".",
	.exit_status =
	"Exit status 0 when all pass, 1 when one fails, 2 when a scenario cannot be loaded or run.",
	.opts = check_opts,
	.nopts = CLI_NOPTS(check_opts),
	.main = cmd_check,
};

/*
 * One verdict, kept for the JUnit file: its scenario, its name (what it checks, without the
 * values, so that a CI system follows one entry from run to run), what it says, and its kind.
 */
struct verdict {
	const char *file;
	char *id;
	char *text;
	int kind;	/* 0 pass, 1 fail, 2 error (the scenario could not be loaded or run) */
};

struct check {
	bool tap;
	bool strict;	/* a refused timeline operation fails the variant's check */
	const char *junit;
	size_t seeds;	/* --seeds N; 0: the scenario's seed alone */
	unsigned passed, failed, errors, n;
	struct verdict *v;
	size_t nv, capv;
	int err;	/* out of memory */
};

static void record(struct check *c, const char *file, const char *id, const char *text,
		   int kind)
{
	char *t, *i;

	c->n++;
	if (kind == 0)
		c->passed++;
	else if (kind == 1)
		c->failed++;
	else
		c->errors++;
	if (c->tap)
		printf("%sok %u - %s%s\n", kind ? "not " : "", c->n,
		       kind == 2 ? "cannot be checked: " : "", text);
	else if (kind < 2)
		printf("%s %s\n", kind ? "FAIL" : "PASS", text);
	if (!c->junit)
		return;
	t = strdup(text);
	i = strdup(id);
	if (!t || !i || UTIL_GROW(c->v, c->capv, c->nv + 1)) {
		free(t);
		free(i);
		c->err = -ENOMEM;
		return;
	}
	c->v[c->nv++] = (struct verdict){ file, i, t, kind };
}

/* A scenario that cannot be loaded or run: its message on stderr, and an error verdict. */
static int trouble(struct check *c, const char *file, const char *err)
{
	fprintf(stderr, "%s\n", err);
	record(c, file, file, err, 2);
	return 2;
}

/* One variant of @file run and judged. 0, 1 (an entry failed) or 2. */
/*
 * --seeds: @runs[1..) are @sc's variant again with seeds S+1 .. S+@nruns-1 (their scenarios
 * in @scs). 0, or 2 with the trouble recorded.
 */
static int more_seeds(struct check *c, const char *file, const struct scenario *sc,
		      size_t nruns, struct scenario **scs, struct run_result **runs)
{
	char err[2048];

	for (size_t k = 1; k < nruns; k++)
		if (seeds_run(sc->src, sc->variant, NULL, 0, SCN_NO_SWEEP, sc->seed, k,
			      &scs[k], &runs[k], err, sizeof(err)))
			return trouble(c, file, err);
	return 0;
}

static int check_variant(struct check *c, const char *file, struct scenario *sc)
{
	size_t nruns = c->seeds ? c->seeds : 1;
	struct scenario **scs = calloc(nruns, sizeof(*scs));
	struct run_result **runs = calloc(nruns, sizeof(*runs)), *res;
	struct expect_result *v;
	size_t n;
	char err[2048];
	int worst = 0;

	if (!scs || !runs) {
		free(scs);
		free(runs);
		return trouble(c, file, "cgsim: out of memory");
	}
	if (run_scenario(sc, false, &runs[0], err, sizeof(err)))
		worst = trouble(c, file, err[0] ? err : "cgsim: the run failed");
	else
		worst = more_seeds(c, file, sc, nruns, scs, runs);
	if (!worst && expect_results_seeds((const struct run_result *const *)runs, nruns, &v, &n))
		worst = trouble(c, file, "cgsim: out of memory");
	if (worst)
		goto out;
	res = runs[0];
	for (size_t i = 0; i < n; i++) {
		record(c, file, v[i].id, v[i].text, !v[i].ok);
		if (!v[i].ok)
			worst = 1;
	}
	if (cli_timeline_refusals(res, sc->variant) && c->strict) {
		char id[600];

		snprintf(id, sizeof(id), "%s [%s] timeline (--strict)", file, sc->variant);
		record(c, file, id, id, 1);
		worst = 1;
	}
	expect_results_free(v, n);
out:
	/* scs[0] stays NULL: @sc is the caller's */
	for (size_t k = 0; k < nruns; k++) {
		run_free(runs[k]);
		scn_free(scs[k]);
	}
	free(runs);
	free(scs);
	return worst;
}

/* Check one file: every variant its entries name, base first. 0, 1 (a failure) or 2. */
static int check_file(struct check *c, const char *file)
{
	char err[2048];
	struct scenario *base = scn_load(file, NULL, NULL, NULL, 0, err, sizeof(err));
	int worst = 0;

	if (!base)
		return trouble(c, file, err);
	cli_notes(base);
	if (!base->nexpect && !c->tap)
		printf("NOTE %s: no expect: entries\n", file);
	for (size_t k = 0; k <= base->nvariants; k++) {
		const char *name = k ? base->variants[k - 1].name : "base";
		struct scenario *sc;
		bool used = false;
		int r;

		for (size_t i = 0; i < base->nexpect; i++)
			used |= expect_applies(&base->expect[i], name);
		if (!used)
			continue;
		/* each variant a copy of the file as parsed once */
		sc = k ? scn_source_load(base->src, name, NULL, 0, SCN_NO_SWEEP, err, sizeof(err))
		       : base;
		r = sc ? check_variant(c, file, sc) : trouble(c, file, err);
		if (r > worst)
			worst = r;
		if (sc != base)
			scn_free(sc);
	}
	scn_free(base);
	return worst;
}

/* @s in XML's attribute form: &, <, >, " escaped; control characters as spaces. */
static void xml_attr(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else
			fputc(ch < 0x20 ? ' ' : ch, f);
	}
}

/* The JUnit file: a testsuite per scenario, in the order checked; a testcase per verdict. */
static void write_junit(FILE *f, const struct check *c)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"cgsim check\" tests=\"%u\" failures=\"%u\" errors=\"%u\">\n",
		c->n, c->failed, c->errors);
	for (size_t i = 0; i < c->nv;) {
		size_t end = i;
		unsigned fails = 0, errs = 0;

		while (end < c->nv && !strcmp(c->v[end].file, c->v[i].file)) {
			fails += c->v[end].kind == 1;
			errs += c->v[end].kind == 2;
			end++;
		}
		fputs("  <testsuite name=\"", f);
		xml_attr(f, c->v[i].file);
		fprintf(f, "\" tests=\"%zu\" failures=\"%u\" errors=\"%u\">\n", end - i, fails, errs);
		for (; i < end; i++) {
			fputs("    <testcase classname=\"", f);
			xml_attr(f, c->v[i].file);
			fputs("\" name=\"", f);
			xml_attr(f, c->v[i].id);
			if (!c->v[i].kind) {
				fputs("\"/>\n", f);
				continue;
			}
			fprintf(f, "\"><%s message=\"", c->v[i].kind == 1 ? "failure" : "error");
			xml_attr(f, c->v[i].text);
			fprintf(f, "\"/></testcase>\n");
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

static int finish(struct check *c, int worst)
{
	char err[512];
	struct util_out o = { .f = NULL };

	if (c->tap)
		printf("1..%u\n# %u passed, %u failed\n", c->n, c->passed, c->failed + c->errors);
	else
		printf("%u passed, %u failed\n", c->passed, c->failed + c->errors);
	if (c->err) {
		fprintf(stderr, "cgsim: out of memory\n");
		return 2;
	}
	if (c->junit) {
		if (util_out_open(&o, c->junit, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		write_junit(o.f, c);
		if (util_out_commit(&o, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	}
	return worst;
}

/* What check's arguments ask for: the options, and the scenarios in their order. */
struct check_args {
	struct check *c;
	const char **files;
	size_t nfiles;
};

/* One argument @k (from @p): -1 to go on, else the exit status. */
static int check_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_check;
	struct check_args *a = ctx;

	switch (k) {
	case CLI_OPERAND:
		a->files[a->nfiles++] = p->val;
		break;
	case O_TAP:
		a->c->tap = true;
		break;
	case O_STRICT:
		a->c->strict = true;
		break;
	case O_JUNIT:
		a->c->junit = p->val;
		break;
	case O_SEEDS:
		return cli_seeds(cmd, p->val, &a->c->seeds);
	case O_MAX_EVENTS:
		return cli_max_events(cmd, p->val);
	}
	return -1;
}

static int cmd_check(int argc, char **argv)
{
	struct check c = { .tap = false };
	struct check_args a = { &c, calloc((size_t)argc + 1, sizeof(*a.files)), 0 };
	int worst = 0, rc = a.files ? cli_parse(&cli_cmd_check, argc, argv, check_arg, &a) : 2;

	if (!a.files)
		fputs("cgsim: out of memory\n", stderr);
	else if (rc < 0 && !a.nfiles)
		rc = cli_usage_error(&cli_cmd_check, "%s", "no scenario given");
	if (rc >= 0) {
		free(a.files);
		return rc;
	}
	for (size_t i = 0; i < a.nfiles; i++) {
		rc = check_file(&c, a.files[i]);
		if (rc > worst)
			worst = rc;
		fflush(stdout);
	}
	free(a.files);
	rc = finish(&c, worst);
	for (size_t i = 0; i < c.nv; i++) {
		free(c.v[i].text);
		free(c.v[i].id);
	}
	free(c.v);
	if (cli_finish_stdout())
		return 2;
	return rc;
}
