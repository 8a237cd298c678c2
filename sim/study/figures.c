// SPDX-License-Identifier: MIT
/*
 * sim/study/figures.c - the figures of a comparison (sim/study/figures.h): the gnuplot scripts of
 * plots/ copied next to the data, each variant's inputs (sim/study/figvariant.h), a render.sh
 * that runs them, and the rendering itself when gnuplot is installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/study/figures.h"
#include "sim/study/figvariant.h"
#include "sim/report/report.h"
#include "sim/util/util.h"

#ifndef CGSIM_DATADIR
#define CGSIM_DATADIR "/usr/local/share/cgsim"
#endif

static const char *const scripts[] = { "common.gp", "shares-over-time.gp", "shares-bars.gp",
				       "sweep.gp", "latency-ccdf.gp", "latency-threads.gp" };
#define NSCRIPTS (sizeof(scripts) / sizeof(scripts[0]))

static bool readable(const char *dir)
{
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/common.gp", dir);
	return access(p, R_OK) == 0;
}

/*
 * Where plots/ is: $CGSIM_PLOTS; next to the executable (the build tree); the data directory of
 * an install beside the executable (<exe>/../share/cgsim, so that an installed tree still works
 * when it is moved); the working directory; the data directory the build was made for.
 */
static bool find_plots(char *out, size_t len)
{
	const char *env = getenv("CGSIM_PLOTS");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && readable(env)) {
		snprintf(out, len, "%s", env);
		return true;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(out, len, "%.4000s/plots", exe);
			if (readable(out))
				return true;
			snprintf(out, len, "%.4000s/../share/cgsim/plots", exe);
			if (readable(out))
				return true;
		}
	}
	snprintf(out, len, "plots");
	if (readable(out))
		return true;
	snprintf(out, len, "%s/plots", CGSIM_DATADIR);
	return readable(out);
}

/* A writer (util_write_file()) that copies the file named by @from. */
static int copy_writer(FILE *out, const void *from)
{
	FILE *in = fopen(from, "rb");
	char buf[8192];
	size_t n;
	int e = 0;

	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			e = -EIO;
	if (ferror(in))
		e = -EIO;
	fclose(in);
	return e;
}

static bool numeric(const char *s)
{
	char *end;

	strtod(s, &end);
	return end != s && !*end;
}

/* value,VARIANT,VARIANT ideal,...: the sweep's target for each value (numeric sweeps only). */
static int sweep_target_writer(FILE *f, const void *ctx)
{
	const struct sweep *sw = ctx;
	const struct compare *c0 = sw->at[0];

	fputs("value", f);
	for (size_t v = 0; v < c0->n; v++)
		fprintf(f, ",%s,%s ideal", c0->sc[v]->variant, c0->sc[v]->variant);
	fputc('\n', f);
	for (size_t k = 0; k < sw->n; k++) {
		fputs(sw->base->sweep_values[k], f);
		for (size_t v = 0; v < sw->at[k]->n; v++) {
			double s, i;

			if (!sweep_target_of(sw, k, v, &s, &i))
				fputs(",,", f);
			else
				fprintf(f, ",%.6f,%.6f", s, i != i ? s : i);
		}
		fputc('\n', f);
	}
	return 0;
}

/*
 * One gnuplot command line of render.sh, for both formats. Only names cgsim checked at load
 * time reach it (variant names: letters, digits, '_', '-' and '.'), so that nothing a file
 * says can be read by the shell as code: every other text goes through plots/labels.gp.
 */
static void render_line(FILE *f, const char *script, const char *out, const char *vars)
{
	fprintf(f, "for fmt in png svg; do\n  gnuplot -e \"term='$fmt'; out='figures/%s.$fmt'; %s\" "
		   "plots/labels.gp plots/%s || exit 1\ndone\n", out, vars, script);
}

/*
 * What the figures are drawn from: the comparison, what each variant's figures draw, and the
 * sweep when it sweeps numbers.
 */
struct figures {
	const struct compare *c;
	struct figv **fv;
	const struct sweep *sw;
};

/* plots/labels.gp: the scenario's name and the sweep's key and target, for the titles. */
static int labels_writer(FILE *f, const void *ctx)
{
	const struct figures *fg = ctx;
	const struct sweep *sw = fg->sw;

	char kernel[REPORT_KERNEL_SIZE], other[REPORT_KERNEL_SIZE];
	bool same = true;

	fputs("# Written by cgsim compare: the names the figures show, as gnuplot strings.\n", f);
	figv_gp_string(f, "scenario", fg->c->sc[0]->name);
	/* the kernel every variant (and every value drawn) models; '' when they differ */
	report_kernel(&fg->c->sc[0]->sched, kernel, sizeof(kernel));
	for (size_t v = 1; v < fg->c->n && same; v++)
		same = !strcmp(kernel, report_kernel(&fg->c->sc[v]->sched, other, sizeof(other)));
	for (size_t k = 0; sw && k < sw->n && same; k++)
		for (size_t v = 0; v < sw->at[k]->n && same; v++)
			same = !strcmp(kernel, report_kernel(&sw->at[k]->sc[v]->sched, other,
							     sizeof(other)));
	figv_gp_string(f, "kernel", same ? kernel : "");
	if (sw) {
		char target[2200];

		sweep_target_label(sw->base, target, sizeof(target));
		figv_gp_string(f, "key", sw->base->sweep_key);
		figv_gp_string(f, "what", target);
	}
	return 0;
}

/* render.sh: one gnuplot run per figure and format. */
static int render_writer(FILE *f, const void *ctx)
{
	const struct figures *fg = ctx;
	const struct compare *c = fg->c;
	const struct sweep *sw = fg->sw;
	char vars[1024], seeds[64] = "";
	bool cdf = false;

	/* several seeds: the bars are means; the series and latencies seed S's run */
	if (c->nseeds > 1)
		snprintf(seeds, sizeof(seeds), "seeds=%zu; seed=%llu; ", c->nseeds,
			 (unsigned long long)c->sc[0]->seed);
	fprintf(f, "#!/bin/sh\n# Renders the figures of this comparison with gnuplot into figures/ "
		   "(PNG and SVG).\n# Written by cgsim compare; the scripts are in plots/.\n"
		   "set -e\ncd \"$(dirname \"$0\")\"\nmkdir -p figures\n");
	for (size_t v = 0; v < c->n; v++) {
		const struct figv *fv = fg->fv[v];
		const char *vn = c->sc[v]->variant;
		char out[256];

		cdf |= c->res[v]->ncdf > 0;
		if (figv_series(fv)) {
			snprintf(vars, sizeof(vars), "data='%s/items-series.csv'; variant='%s'; "
				 "%sload 'plots/items-%s.gp'", vn, vn, seeds, vn);
			snprintf(out, sizeof(out), "shares-over-time-%s", vn);
			render_line(f, "shares-over-time.gp", out, vars);
		}
		if (figv_shares(fv)) {
			snprintf(vars, sizeof(vars), "data='%s/bars.csv'; variant='%s'; %s"
				 "load 'plots/items-%s.gp'", vn, vn, seeds, vn);
			snprintf(out, sizeof(out), "shares-bars-%s", vn);
			render_line(f, "shares-bars.gp", out, vars);
		}
		if (figv_latency(fv)) {
			snprintf(vars, sizeof(vars), "data='%s/latency-threads.csv'; variant='%s'; "
				 "%sload 'plots/latency-%s.gp'", vn, vn, seeds, vn);
			snprintf(out, sizeof(out), "latency-threads-%s", vn);
			render_line(f, "latency-threads.gp", out, vars);
		}
	}
	if (cdf) {
		char list[512] = "";
		size_t len = 0;

		for (size_t v = 0; v < c->n; v++) {
			size_t need = strlen(c->sc[v]->variant) + 1;

			if (!c->res[v]->ncdf || len + need >= sizeof(list))
				continue;	/* no wakeups, or no room: that variant is left out */
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? " " : "",
						c->sc[v]->variant);
		}
		snprintf(vars, sizeof(vars), "dir='.'; %svariants='%.500s'", seeds, list);
		render_line(f, "latency-ccdf.gp", "latency-ccdf", vars);
	}
	if (sw) {
		double lo = strtod(sw->base->sweep_values[0], NULL);
		double hi = strtod(sw->base->sweep_values[sw->base->nsweep - 1], NULL);

		snprintf(vars, sizeof(vars), "data='sweep-target.csv'; logx=%d",
			 lo > 0 && hi / lo >= 16);
		render_line(f, "sweep.gp", "sweep", vars);
	}
	return 0;
}

/* Each variant's figure inputs (sim/study/figvariant.h), in DIR/VARIANT/ and DIR/plots/. */
static int write_variant_inputs(const char *dir, const char *plots, const struct figures *fg,
				char *err, size_t errlen)
{
	for (size_t v = 0; v < fg->c->n; v++) {
		char vdir[PATH_MAX + 300];
		int e;

		snprintf(vdir, sizeof(vdir), "%s/%s", dir, fg->c->sc[v]->variant);
		if ((e = figv_write(fg->fv[v], vdir, plots, err, errlen)))
			return e;
	}
	return 0;
}

extern char **environ;	/* POSIX: the environment, for posix_spawnp() */

/* Run "sh @path" with its output thrown away, without a shell parsing @path. 0 on success. */
static int run_script(const char *path)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)"sh", (char *)path, NULL };
	pid_t pid;
	int st = -1, e;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	e = posix_spawnp(&pid, "sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

int figures_check(char *err, size_t errlen)
{
	char src[PATH_MAX];

	if (find_plots(src, sizeof(src)))
		return 0;
	snprintf(err, errlen, "cgsim: the gnuplot scripts (plots/*.gp) are not found: set "
		 "CGSIM_PLOTS to their directory");
	return -ENOENT;
}

/* figures_write() once each variant's figures are known (@fg->fv). */
static int write_all(const char *dir, struct figures *fg, bool *rendered, char *err,
		     size_t errlen)
{
	char src[PATH_MAX], path[PATH_MAX + 64], from[PATH_MAX + 64];
	const struct sweep *sw = fg->sw;
	int e;

	if (!find_plots(src, sizeof(src))) {
		snprintf(err, errlen, "cgsim: the gnuplot scripts (plots/*.gp) are not found: set "
			 "CGSIM_PLOTS to their directory");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/plots", dir);
	if (mkdir(path, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cgsim: cannot create %.1000s: %s", path, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < NSCRIPTS; i++) {
		snprintf(from, sizeof(from), "%s/%s", src, scripts[i]);
		if ((e = util_write_file(path, scripts[i], copy_writer, from, err, errlen)))
			return e;
	}
	if (sw) {
		/* A sweep over names (or an empty one) has no x axis: no sweep figure. */
		bool all = sw->n > 0;

		for (size_t k = 0; k < sw->base->nsweep; k++)
			all &= numeric(sw->base->sweep_values[k]);
		/* "6.6" < "6.12": a kernel version is a name here, not a number */
		if (strstr(sw->base->sweep_key, "scheduler.kernel"))
			all = false;
		if (!all)
			fg->sw = NULL;
	}
	if ((fg->sw && (e = util_write_file(dir, "sweep-target.csv", sweep_target_writer, fg->sw,
					    err, errlen))) ||
	    (e = util_write_file(path, "labels.gp", labels_writer, fg, err, errlen)) ||
	    (e = write_variant_inputs(dir, path, fg, err, errlen)) ||
	    (e = util_write_file(dir, "render.sh", render_writer, fg, err, errlen)))
		return e;
	snprintf(path, sizeof(path), "%s/render.sh", dir);
	chmod(path, 0755);
	if (system("gnuplot --version >/dev/null 2>&1") != 0)
		return 0;
	if (run_script(path)) {
		snprintf(err, errlen, "cgsim: %.1000s failed (gnuplot)", path);
		return -EIO;
	}
	*rendered = true;
	return 0;
}

int figures_write(const char *dir, const struct compare *c, const struct sweep *sw,
		  bool *rendered, char *err, size_t errlen)
{
	struct figures fg = { c, calloc(c->n, sizeof(*fg.fv)), sw };
	int e = fg.fv ? 0 : -ENOMEM;

	*rendered = false;
	for (size_t v = 0; !e && v < c->n; v++)
		e = figv_build(c, v, &fg.fv[v]);
	if (e)
		snprintf(err, errlen, "cgsim: out of memory");
	else
		e = write_all(dir, &fg, rendered, err, errlen);
	for (size_t v = 0; fg.fv && v < c->n; v++)
		figv_free(fg.fv[v]);
	free(fg.fv);
	return e;
}
