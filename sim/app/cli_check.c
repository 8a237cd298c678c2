// SPDX-License-Identifier: MIT
/*
 * sim/app/cli_check.c - cgsim check: every scenario's expect: entries judged (sim/run/expect.h),
 * said as text (PASS/FAIL lines and a closing "N passed, N failed"), as TAP (version 13) for
 * CI harnesses that read it, and as a JUnit XML file for those that read that.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/cli.h"
#include "sim/run/expect.h"
#include "sim/run/run.h"
#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"
#include "sim/util/util.h"

static const char usage_check[] =
	"usage: cgsim check [--tap] [--junit FILE] [--strict] [--seeds N] [--max-events N]\n"
	"                   SCENARIO.yaml...\n"
	"\n"
	"Run every variant named by each scenario's expect: entries and print one line per entry,\n"
	"PASS or FAIL with the measured and expected values, then \"N passed, N failed\". Exit\n"
	"status 0 when all pass, 1 when one fails, 2 when a scenario cannot be loaded or run.\n"
	"\n"
	"  --tap            the lines as TAP (\"ok 1 - ...\", \"not ok 2 - ...\", then \"1..N\")\n"
	"  --junit FILE     also write the verdicts to FILE as JUnit XML, one testsuite a scenario\n"
	"  --strict         a timeline operation the model refuses (said on stderr) fails the\n"
	"                   variant's check\n"
	"  --seeds N        run each variant with seeds S to S+N-1 (N from 1 to 1000) and judge\n"
	"                   each entry on the mean over them (the line gives the least and\n"
	"                   greatest run too)\n"
	"  --max-events N   the most events each run may process (default 1000000000; 0: no\n"
	"                   limit)\n";

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
		if (seeds_run(file, sc->text, sc->variant, NULL, 0, SCN_NO_SWEEP, sc->seed, k,
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
		sc = k ? scn_load(file, base->text, name, NULL, 0, err, sizeof(err)) : base;
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

int cli_check(int argc, char **argv)
{
	struct check c = { .tap = false };
	int worst = 0, files = 0, rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_check, stdout);
			return cli_finish_stdout();
		}
		if (!strcmp(a, "--tap")) {
			c.tap = true;
		} else if (!strcmp(a, "--strict")) {
			c.strict = true;
		} else if (!strcmp(a, "--junit") || !strcmp(a, "--max-events") ||
			   !strcmp(a, "--seeds")) {
			if (i + 1 >= argc)
				return cli_usage_error(usage_check, "%s needs a value", a);
			if (a[2] == 'j') {
				c.junit = argv[++i];
			} else if (!strcmp(a, "--seeds")) {
				uint64_t sn;

				if (!cli_parse_u64(argv[++i], &sn) || sn < 1 || sn > SEEDS_MAX)
					return cli_usage_error(usage_check, "--seeds needs a number "
							   "of runs from 1 to 1000, not '%s'", argv[i]);
				c.seeds = (size_t)sn;
			} else if ((rc = cli_max_events(usage_check, argv[++i])) >= 0)
				return rc;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(usage_check, "unknown option '%s'", a);
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--junit") || !strcmp(argv[i], "--max-events") ||
		    !strcmp(argv[i], "--seeds")) {
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--tap") || !strcmp(argv[i], "--strict"))
			continue;
		rc = check_file(&c, argv[i]);
		files++;
		if (rc > worst)
			worst = rc;
		fflush(stdout);
	}
	if (!files)
		return cli_usage_error(usage_check, "%s", "no scenario given");
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
