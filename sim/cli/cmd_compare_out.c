// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_compare_out.c - a comparison planned, finished, printed and written: what cgsim
 * compare and cgsim merge share (sim/cli/cmd_compare.h), so that the output cannot tell how
 * the runs were made.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cmd_compare.h"
#include "sim/study/figures.h"
#include "sim/util/util.h"

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

int cli_compare_format(const struct cli_parse *p, const struct cli_cmd *cmd,
		       struct cli_compare_opts *o)
{
	size_t f = CLI_FORMAT_ASKED(compare_formats, CLI_NOPTS(compare_formats), p->name);

	if (!f)
		return 0;
	return cli_format_set(&o->format, f, p->name,
			      o->format ? compare_formats[o->format].option : NULL, cmd) ? 2 : -1;
}

/* The tables on stdout, then where the figures are. 0 or 2. */
static int compare_print(const struct cli_compare_opts *o, const struct compare *c,
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

void cli_plan_free(struct cli_plan *p)
{
	jobs_free(&p->js);
	sweep_free(p->sw);
	compare_free(p->c);
	memset(p, 0, sizeof(*p));
}

int cli_plan_load(struct cli_plan *p, const char *file, const char *text,
		  const char *const *sets, size_t nsets, size_t nseeds, const char *trace_dir)
{
	char err[2048];
	struct scn_source *src;
	int e;

	memset(p, 0, sizeof(*p));
	nseeds = nseeds ? nseeds : 1;
	/* read and parsed once; every variant, seed and sweep value is a copy of it */
	src = scn_source_read(file, text, err, sizeof(err));
	e = src ? compare_load(src, sets, nsets, SCN_NO_SWEEP, nseeds, trace_dir, &p->c, err,
			       sizeof(err)) : -EINVAL;
	scn_source_put(src);	/* the comparison's scenarios hold it */
	if (e) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the comparison failed");
		return 2;
	}
	cli_notes(p->c->sc[0]);
	if (nseeds > 1 && p->c->sc[0]->nsweep && !strcmp(p->c->sc[0]->sweep_key, "seed")) {
		fprintf(stderr, "%s: the sweep sets seed: --seeds %zu would run each value with one "
			"seed only; leave out --seeds or sweep another key\n", file, nseeds);
		cli_plan_free(p);
		return 2;
	}
	e = p->c->sc[0]->nsweep ? sweep_load(p->c->sc[0], sets, nsets, nseeds, &p->sw, err,
					     sizeof(err)) : 0;
	if (e) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the sweep failed");
		cli_plan_free(p);
		return 2;
	}
	/* every load is made: the traces they read once need not ride along with the runs */
	scn_source_forget_traces(p->c->sc[0]->src);
	if (compare_jobs(p->c, &p->js) || (p->sw && sweep_jobs(p->sw, &p->js))) {
		fprintf(stderr, "cgsim: out of memory\n");
		cli_plan_free(p);
		return 2;
	}
	return 0;
}

int cli_plan_finish(struct cli_plan *p)
{
	char err[2048];

	if (compare_finish(p->c, err, sizeof(err)) ||
	    (p->sw && sweep_finish(p->sw, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return 0;
}

int cli_plan_output(const struct cli_compare_opts *o, struct cli_plan *p)
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
