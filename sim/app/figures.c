// SPDX-License-Identifier: MIT
/*
 * sim/app/figures.c - the figures of a comparison (sim/app/figures.h): the gnuplot scripts of plots/
 * copied next to the data, a render.sh that runs them, and the rendering itself when gnuplot
 * is installed.
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

#include "sim/app/figures.h"
#include "sim/app/report.h"
#include "sim/util/util.h"

#ifndef CGSIM_DATADIR
#define CGSIM_DATADIR "/usr/local/share/cgsim"
#endif

static const char *const scripts[] = { "common.gp", "shares-over-time.gp", "shares-bars.gp",
				       "sweep.gp", "latency-cdf.gp" };
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
 * NAME = 'TEXT' as gnuplot reads it: in a single-quoted string nothing is substituted (no
 * backquoted command, no macro) and a quote is written twice. Control characters, which a
 * cgroup name may hold, become '?' in a title.
 */
static void gp_string(FILE *f, const char *name, const char *text)
{
	fprintf(f, "%s = '", name);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\'')
			fputs("''", f);
		else
			fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
	}
	fputs("'\n", f);
}

/* What the figures are drawn from: the comparison, and its sweep when it sweeps numbers. */
struct figures {
	const struct compare *c;
	const struct sweep *sw;
};

/* plots/labels.gp: the scenario's name and the sweep's key and target, for the titles. */
static int labels_writer(FILE *f, const void *ctx)
{
	const struct figures *fg = ctx;
	const struct sweep *sw = fg->sw;

	fputs("# Written by cgsim compare: the names the figures show, as gnuplot strings.\n", f);
	gp_string(f, "scenario", fg->c->sc[0]->name);
	if (sw) {
		char target[2200];

		sweep_target_label(sw->base, target, sizeof(target));
		gp_string(f, "key", sw->base->sweep_key);
		gp_string(f, "what", target);
	}
	return 0;
}

/*
 * plots/groups-VARIANT.gp: the array glabel of that variant's cgroup paths, in the order of its
 * groups.csv rows and groups-series.csv columns. The figures take their labels from it, not
 * from the data: gnuplot reads a backslash in a data file as an escape, so a systemd unit's
 * "\x2d" would lose its backslash. "/" is there too (row 1) though no figure draws it.
 */
static int group_labels_writer(FILE *f, const void *ctx)
{
	const struct run_result *r = ctx;
	size_t width = 1;

	fprintf(f, "# Written by cgsim compare: variant %s's cgroups, as gnuplot strings.\n"
		   "array glabel[%zu]\n", r->sc->variant, r->ngroups);
	for (size_t i = 1; i < r->ngroups; i++)
		if (strlen(r->groups[i].path) > width)
			width = strlen(r->groups[i].path);
	/* the longest label below "/", for the bar chart's bottom margin */
	fprintf(f, "glabel_width = %zu\n", width);
	for (size_t i = 0; i < r->ngroups; i++) {
		char name[32];

		snprintf(name, sizeof(name), "glabel[%zu]", i + 1);
		gp_string(f, name, r->groups[i].path);
	}
	return 0;
}

/*
 * VARIANT/groups-seeds.csv, for the bar chart of a comparison over several seeds:
 * path,share,share_min,share_max,ideal, the share the mean over the seeds, in the order of
 * groups.csv (and so of glabel).
 */
static int groups_seeds_writer(FILE *f, const void *ctx)
{
	const struct seeds *s = ctx;
	const struct run_result *r = s->runs[0];

	fputs("path,share,share_min,share_max,ideal\n", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		report_csv_field(f, r->groups[i].path);
		fprintf(f, ",%.6f,%.6f,%.6f,%.6f\n", s->groups[i].mean, s->groups[i].min,
			s->groups[i].max, r->groups[i].ideal);
	}
	return 0;
}

/* render.sh: one gnuplot run per figure and format. */
static int render_writer(FILE *f, const void *ctx)
{
	const struct figures *fg = ctx;
	const struct compare *c = fg->c;
	const struct sweep *sw = fg->sw;
	char vars[1024];
	bool cdf = false;

	fprintf(f, "#!/bin/sh\n# Renders the figures of this comparison with gnuplot into figures/ "
		   "(PNG and SVG).\n# Written by cgsim compare; the scripts are in plots/.\n"
		   "set -e\ncd \"$(dirname \"$0\")\"\nmkdir -p figures\n");
	for (size_t v = 0; v < c->n; v++) {
		const char *vn = c->sc[v]->variant;
		char out[256];

		cdf |= c->res[v]->ncdf > 0;
		/*
		 * The root is always 1.0 of the machine (less the overhead): drawn, it would only
		 * squeeze the others. A layout with no cgroup below it has nothing to draw.
		 */
		if (c->res[v]->ngroups < 2)
			continue;
		/* a run shorter than one sampling interval has no time series to draw */
		if (c->res[v]->nsamples) {
			snprintf(vars, sizeof(vars), "data='%s/groups-series.csv'; variant='%s'; "
				 "load 'plots/groups-%s.gp'", vn, vn, vn);
			snprintf(out, sizeof(out), "shares-over-time-%s", vn);
			render_line(f, "shares-over-time.gp", out, vars);
		}
		/* several seeds: the means, with bars from the least to the greatest */
		if (c->nseeds > 1)
			snprintf(vars, sizeof(vars), "data='%s/groups-seeds.csv'; seeds=%zu; "
				 "variant='%s'; load 'plots/groups-%s.gp'", vn, c->nseeds, vn, vn);
		else
			snprintf(vars, sizeof(vars), "data='%s/groups.csv'; variant='%s'; "
				 "load 'plots/groups-%s.gp'", vn, vn, vn);
		snprintf(out, sizeof(out), "shares-bars-%s", vn);
		render_line(f, "shares-bars.gp", out, vars);
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
		snprintf(vars, sizeof(vars), "dir='.'; variants='%.500s'", list);
		render_line(f, "latency-cdf.gp", "latency-cdf", vars);
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

/* plots/groups-VARIANT.gp for each variant; with several seeds, DIR/VARIANT/groups-seeds.csv */
static int write_group_labels(const char *dir, const char *path, const struct compare *c,
			      char *err, size_t errlen)
{
	for (size_t v = 0; v < c->n; v++) {
		char name[300], vdir[PATH_MAX + 300];
		int e;

		snprintf(name, sizeof(name), "groups-%.200s.gp", c->sc[v]->variant);
		if ((e = util_write_file(path, name, group_labels_writer, c->res[v], err, errlen)))
			return e;
		snprintf(vdir, sizeof(vdir), "%s/%s", dir, c->sc[v]->variant);
		if (c->nseeds > 1 && (e = util_write_file(vdir, "groups-seeds.csv",
							  groups_seeds_writer, c->sum[v], err,
							  errlen)))
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

int figures_write(const char *dir, const struct compare *c, const struct sweep *sw,
		  bool *rendered, char *err, size_t errlen)
{
	char src[PATH_MAX], path[PATH_MAX + 64], from[PATH_MAX + 64];
	struct figures fg = { c, sw };
	int e;

	*rendered = false;
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
		if (!all)
			fg.sw = NULL;
	}
	if ((fg.sw && (e = util_write_file(dir, "sweep-target.csv", sweep_target_writer, fg.sw,
					   err, errlen))) ||
	    (e = util_write_file(path, "labels.gp", labels_writer, &fg, err, errlen)) ||
	    (e = write_group_labels(dir, path, c, err, errlen)) ||
	    (e = util_write_file(dir, "render.sh", render_writer, &fg, err, errlen)))
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
