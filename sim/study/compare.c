// SPDX-License-Identifier: MIT
/*
 * sim/study/compare.c - every variant of a scenario side by side (cgsim compare;
 * sim/study/compare.h): the variants and seeds loaded, their runs listed, summed up and freed.
 * The tables are in compare_print.c, the rows they are made of in compare_rows.c, the sweeps
 * in sweep.c.
 *
 * Each variant is loaded and run exactly as `cgsim run --variant NAME` would (same seed, same
 * function), so every number in the table is the one that command reports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/study/compare.h"
#include "sim/study/compare_internal.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

/* A directory for the traces; *@made when this call created it. */
static int trace_mkdir(const char *path, bool *made, char *err, size_t errlen)
{
	if (!mkdir(path, 0777)) {
		*made = true;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	snprintf(err, errlen, "cgsim: cannot create %.1000s: %s", path, strerror(errno));
	return -errno;
}

/* Each variant's trace file, under its temporary name in DIR/VARIANT/. */
static int trace_open(struct compare *c, const char *dir, char *err, size_t errlen)
{
	char path[4200];
	int e;

	c->trace = calloc(c->n, sizeof(*c->trace));
	c->made_dir = calloc(c->n + 1, sizeof(*c->made_dir));
	c->trace_dir = strdup(dir);
	if (!c->trace || !c->made_dir || !c->trace_dir) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	if ((e = trace_mkdir(dir, &c->made_dir[0], err, errlen)))
		return e;
	for (size_t v = 0; v < c->n; v++) {
		snprintf(path, sizeof(path), "%s/%s", dir, compare__vname(c, v));
		if ((e = trace_mkdir(path, &c->made_dir[1 + v], err, errlen)))
			return e;
		snprintf(path, sizeof(path), "%s/%s/trace.txt", dir, compare__vname(c, v));
		if ((e = util_out_open(&c->trace[v], path, err, errlen)))
			return e;
	}
	return 0;
}

/* Whatever traces are not in place yet go, and the directories made for them if empty. */
static void trace_close(struct compare *c)
{
	char path[4200];

	if (!c->trace)
		return;
	for (size_t v = c->n; v-- > 0;) {
		util_out_abort(&c->trace[v]);
		snprintf(path, sizeof(path), "%s/%s", c->trace_dir, compare__vname(c, v));
		if (c->made_dir[1 + v])
			rmdir(path);	/* fails, as it should, once the variant's files are in it */
	}
	if (c->made_dir[0])
		rmdir(c->trace_dir);
}

/*
 * Every variant's scenario for seeds S+1 .. S+@nseeds-1 (S: the variant's seed) into
 * c->more_sc, and the slots of their runs. 0 or a negative errno with the message in @err.
 */
static int load_seeds(struct compare *c, struct scn_source *src, const char *const *sets,
		      size_t nsets, size_t sweep, size_t nseeds, char *err, size_t errlen)
{
	size_t m = nseeds - 1;
	int e = 0;

	c->nseeds = nseeds;
	c->more_sc = calloc(c->n * m, sizeof(*c->more_sc));
	c->more_res = calloc(c->n * m, sizeof(*c->more_res));
	c->sum = calloc(c->n, sizeof(*c->sum));
	if (!c->more_sc || !c->more_res || !c->sum) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	for (size_t v = 0; !e && v < c->n; v++)
		for (size_t k = 1; !e && k < nseeds; k++)
			e = seeds_load(src, c->sc[v]->variant, sets, nsets, sweep, c->sc[v]->seed, k,
				       &c->more_sc[v * m + k - 1], err, errlen);
	return e;
}

int compare_load(struct scn_source *src, const char *const *sets, size_t nsets, size_t sweep,
		 size_t nseeds, const char *trace_dir, struct compare **out, char *err,
		 size_t errlen)
{
	struct scenario *base = scn_source_load(src, NULL, sets, nsets, sweep, err, errlen);
	struct compare *c;
	int e = 0;

	*out = NULL;
	if (!base)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (c) {
		c->n = base->nvariants + 1;
		c->sc = calloc(c->n, sizeof(*c->sc));
		c->res = calloc(c->n, sizeof(*c->res));
	}
	if (!c || !c->sc || !c->res) {
		snprintf(err, errlen, "cgsim: out of memory");
		scn_free(base);
		compare_free(c);
		return -ENOMEM;
	}
	c->sc[0] = base;
	c->nseeds = 1;
	c->sweep = sweep;
	for (size_t v = 1; v < c->n; v++) {
		c->sc[v] = scn_source_load(src, base->variants[v - 1].name, sets, nsets, sweep,
					   err, errlen);
		if (!c->sc[v]) {
			e = -EINVAL;
			break;
		}
	}
	if (!e && nseeds > 1)
		e = load_seeds(c, src, sets, nsets, sweep, nseeds, err, errlen);
	if (!e && trace_dir)
		e = trace_open(c, trace_dir, err, errlen);
	if (e) {
		compare_free(c);
		return e;
	}
	*out = c;
	return 0;
}

int compare_jobs(struct compare *c, struct jobs *js)
{
	size_t m = c->nseeds - 1;

	for (size_t v = 0; v < c->n; v++)
		for (size_t k = 0; k < c->nseeds; k++) {
			int e = k ? jobs_add(js, c->more_sc[v * m + k - 1],
					     &c->more_res[v * m + k - 1], NULL, c->sweep)
				  : jobs_add(js, c->sc[v], &c->res[v],
					     c->trace ? c->trace[v].f : NULL, c->sweep);

			if (e)
				return e;
		}
	return 0;
}

int compare_finish(struct compare *c, char *err, size_t errlen)
{
	size_t m = c->nseeds - 1;

	for (size_t v = 0; m && v < c->n; v++) {
		struct run_result **runs = calloc(c->nseeds, sizeof(*runs));
		int e;

		if (!runs) {
			snprintf(err, errlen, "cgsim: out of memory");
			return -ENOMEM;
		}
		runs[0] = c->res[v];
		memcpy(runs + 1, &c->more_res[v * m], m * sizeof(*runs));
		if ((e = seeds_sum(runs, c->nseeds, c->sc[v]->seed, &c->sum[v], err, errlen))) {
			free(runs);
			return e;
		}
		/* the sum owns the runs now */
		memset(&c->more_res[v * m], 0, m * sizeof(*runs));
	}
	return 0;
}

/* The seeds' runs and sums, res[] among them: what compare_free() frees of --seeds. */
static void free_seeds(struct compare *c)
{
	size_t m = c->nseeds ? c->nseeds - 1 : 0;

	for (size_t v = 0; c->sum && v < c->n; v++) {
		if (c->sum[v]) {
			seeds_free(c->sum[v]);	/* runs[0] is res[v] */
			c->res[v] = NULL;
		}
	}
	for (size_t j = 0; c->more_sc && j < c->n * m; j++)
		scn_free(c->more_sc[j]);
	for (size_t j = 0; c->more_res && j < c->n * m; j++)
		run_free(c->more_res[j]);
	free(c->sum);
	free(c->more_sc);
	free(c->more_res);
	c->sum = NULL;
	c->more_sc = NULL;
	c->more_res = NULL;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	free_seeds(c);
	trace_close(c);
	free(c->trace);
	free(c->made_dir);
	free(c->trace_dir);
	for (size_t v = 0; v < c->n; v++) {
		run_free(c->res ? c->res[v] : NULL);
		scn_free(c->sc ? c->sc[v] : NULL);
	}
	free(c->res);
	free(c->sc);
	free(c);
}
