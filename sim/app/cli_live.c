// SPDX-License-Identifier: MIT
/*
 * sim/app/cli_live.c - cgsim validate (docs/live.md) and cgsim calibrate (docs/overhead.md):
 * their options, the live runs, their reports.
 */
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/app/calprofile.h"
#include "sim/app/cli.h"
#include "sim/app/report.h"
#include "sim/live/live.h"
#include "sim/util/util.h"

static const char usage_validate[] =
	"usage: cgsim validate SCENARIO.yaml --live [--reps N] [--tolerance POINTS]\n"
	"                      [--set KEY=VALUE]... [--json]\n"
	"       cgsim validate --cleanup\n"
	"\n"
	"Simulate the scenario as cgsim run does, then build the same layout on the running kernel\n"
	"(cgroups named cgsim-PID-..., on cgroup v2 where it offers cpu, else the v1 cpu\n"
	"hierarchy), run its threads for real, measure their CPU time over the same window and\n"
	"print both shares side by side (docs/live.md). Needs root; everything it makes or\n"
	"changes is undone, also when it is stopped by a signal.\n"
	"\n"
	"  --live              run on the kernel (required)\n"
	"  --reps N            repetitions of the live run, 1 to 100 (default 3)\n"
	"  --tolerance POINTS  largest difference of a row, in points of capacity (default 1.5)\n"
	"  --set KEY=VALUE     as for cgsim run\n"
	"  --json              one JSON object instead of the table\n"
	"  --cleanup           remove what a killed run left behind, and nothing else\n"
	"\n"
	"Exit status: 0 every row within the tolerance, 1 a row outside it, 2 bad input or cannot\n"
	"run here (not root, no cpu controller, a layout the kernel cannot be given).\n";

struct validate_opts {
	const char *file, *sets[CLI_MAX_SETS];
	size_t nsets;
	bool live, cleanup, json;
	struct live_opts lo;
};

/* validate's options; returns -1 to go on, else the exit status. */
static int parse_validate_opts(int argc, char **argv, struct validate_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_validate, stdout);
			return cli_finish_stdout();
		}
		if (!strcmp(a, "--live") || !strcmp(a, "--cleanup") || !strcmp(a, "--json")) {
			*(!strcmp(a, "--live") ? &o->live : !strcmp(a, "--json") ? &o->json
			  : &o->cleanup) = true;
			continue;
		}
		if (strcmp(a, "--set") && strcmp(a, "--reps") && strcmp(a, "--tolerance")) {
			if (a[0] == '-' && a[1])
				return cli_usage_error(usage_validate, "unknown option '%s'", a);
			if (o->file)
				return cli_usage_error(usage_validate, "more than one scenario given ('%s')",
						   a);
			o->file = a;
			continue;
		}
		if (i + 1 >= argc)
			return cli_usage_error(usage_validate, "%s needs a value", a);
		v = argv[++i];
		errno = 0;
		if (!strcmp(a, "--set")) {
			if (o->nsets >= CLI_MAX_SETS)
				return cli_usage_error(usage_validate, "more than %s --set options", "256");
			o->sets[o->nsets++] = v;
		} else if (!strcmp(a, "--reps")) {
			unsigned long n = strtoul(v, &end, 10);

			if (*end || !*v || *v == '-' || n < 1 || n > 100)
				return cli_usage_error(usage_validate, "--reps needs a number from 1 to 100, "
						   "not '%s'", v);
			o->lo.reps = (unsigned)n;
		} else {
			double t = strtod(v, &end);

			if (*end || !*v || !(t >= 0 && t <= 100))
				return cli_usage_error(usage_validate, "--tolerance needs points of capacity "
						   "from 0 to 100, not '%s'", v);
			o->lo.tolerance = t;
		}
	}
	if (o->cleanup)
		return o->file || o->live ? cli_usage_error(usage_validate, "%s", "--cleanup takes no "
							"scenario and no --live") : -1;
	if (!o->file)
		return cli_usage_error(usage_validate, "%s", "no scenario given");
	if (!o->live)
		return cli_usage_error(usage_validate, "%s", "validate compares with the running "
				   "kernel: --live is required");
	return -1;
}

/*
 * A live run that failed with @e: its reason @err (or @what) on stderr; stopped by a signal,
 * everything is undone already, so end as the signal would have ended us. Else 2.
 */
static int live_failed(int e, const char *err, const char *what)
{
	fprintf(stderr, "%s\n", err[0] ? err : what);
	if (e == -EINTR) {
		signal(live_stop_signal(), SIG_DFL);
		raise(live_stop_signal());
	}
	return 2;
}

int cli_validate(int argc, char **argv)
{
	struct validate_opts o = { .lo = { .reps = 3, .tolerance = 1.5 } };
	struct scenario *sc;
	struct live_report *rep;
	char err[2048];
	const char *mi = getenv("CGSIM_LIVE_MOUNTINFO");	/* for tests: docs/live.md */
	int rc = parse_validate_opts(argc, argv, &o), e;

	if (rc >= 0)
		return rc;
	o.lo.mountinfo = mi && *mi ? mi : "/proc/self/mountinfo";
	o.lo.progress = isatty(STDERR_FILENO);
	if (o.cleanup) {
		if (live_cleanup(o.lo.mountinfo, stdout, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		return cli_finish_stdout();
	}
	sc = cli_load(o.file, NULL, o.sets, o.nsets);
	if (!sc)
		return 2;
	e = live_validate(sc, &o.lo, &rep, err, sizeof(err));
	scn_free(sc);
	if (e)
		return live_failed(e, err, "cgsim: validate --live failed");
	(o.json ? report_live_json : report_live_text)(stdout, rep);
	rc = live_within(rep) ? 0 : 1;
	live_report_free(rep);
	return cli_finish_stdout() ? 2 : rc;
}

static const char usage_calibrate[] =
	"usage: cgsim calibrate --live [--reps N] [--round-trips N] [--profile FILE]\n"
	"                       [--check [--costs FILE]] [--json] [-o FILE]\n"
	"\n"
	"Measure on the running kernel what scheduling costs per event and per level of cgroup\n"
	"hierarchy: two threads of one process, pinned to one CPU, wake each other through pipes\n"
	"(as perf bench sched pipe does), in the root cgroup (autogroup off and on) and at depths\n"
	"1, 2, 4 and 8: both in one cgroup, in sibling cgroups, and in separate chains. Prints the\n"
	"median cost of a round trip (two switches, a wakeup or two) at each point and, per\n"
	"placement, the least-squares fit base + per_level x depth with the slope's 95 % interval\n"
	"and the residuals, then the machine cost profile those medians give the overhead model:\n"
	"cgsim simulates the same ping-pong at every point and fits the medians to what the model\n"
	"walks and changes there (docs/overhead.md). Needs root and the cpu controller (v1, or\n"
	"cgroup2 through threaded cgroups); the cgroups it makes (cgsim-PID-...) and the\n"
	"autogroup setting are undone on every exit, a signal included. Run it on a quiet\n"
	"machine: anything else on the CPU is measured too.\n"
	"\n"
	"  --live             measure on this kernel (required)\n"
	"  --reps N           repetitions of each point, 1 to 100 (default 5)\n"
	"  --round-trips N    round trips timed per point and repetition, 1000 to 100000000\n"
	"                     (default 200000)\n"
	"  --profile FILE     write the cost profile to FILE, for machine: { costs: FILE }\n"
	"  --check            predict each point's round trip with the simulated ping-pong and\n"
	"                     compare it with the measurement (within 10 %)\n"
	"  --costs FILE       with --check: predict with this profile, not the one just fitted\n"
	"  --json             one JSON object instead of the tables\n"
	"  -o FILE            also write the JSON object to FILE\n"
	"\n"
	"Exit status: 0; 1 when --check finds a point off by more than 10 %; 2 for bad usage,\n"
	"when it cannot run here (with the reason), or when no profile could be fitted or\n"
	"simulated for --profile or --check (the measurement is still printed and written).\n";

struct cal_opts {
	bool live, json, check;
	const char *out, *profile, *costs;
	struct live_cal_opts lo;
};

/* A whole number from @lo to @hi, digits only. */
static bool parse_count(const char *v, unsigned long lo, unsigned long hi, unsigned long *out)
{
	uint64_t n;

	if (!cli_parse_u64(v, &n) || n < lo || n > hi)
		return false;
	*out = (unsigned long)n;
	return true;
}

static int parse_cal_opts(int argc, char **argv, struct cal_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long n;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_calibrate, stdout);
			return cli_finish_stdout();
		}
		if (!strcmp(a, "--live") || !strcmp(a, "--json") || !strcmp(a, "--check")) {
			*(!strcmp(a, "--live") ? &o->live : !strcmp(a, "--json") ? &o->json
										: &o->check) = true;
			continue;
		}
		if (strcmp(a, "--reps") && strcmp(a, "--round-trips") && strcmp(a, "-o") &&
		    strcmp(a, "--profile") && strcmp(a, "--costs"))
			return cli_usage_error(usage_calibrate, a[0] == '-' ? "unknown option '%s'" :
					       "calibrate takes no file ('%s')", a);
		if (i + 1 >= argc)
			return cli_usage_error(usage_calibrate, "%s needs a value", a);
		if (!strcmp(a, "-o") || !strcmp(a, "--profile") || !strcmp(a, "--costs")) {
			*(!strcmp(a, "-o") ? &o->out : !strcmp(a, "--profile") ? &o->profile
									: &o->costs) = argv[++i];
		} else if (!strcmp(a, "--reps")) {
			if (!parse_count(argv[++i], 1, 100, &n))
				return cli_usage_error(usage_calibrate, "--reps needs a number from 1 "
						       "to 100, not '%s'", argv[i]);
			o->lo.reps = (unsigned)n;
		} else {
			if (!parse_count(argv[++i], 1000, 100000000, &n))
				return cli_usage_error(usage_calibrate, "--round-trips needs a number "
						       "from 1000 to 100000000, not '%s'", argv[i]);
			o->lo.round_trips = n;
		}
	}
	if (!o->live)
		return cli_usage_error(usage_calibrate, "%s", "calibrate measures the running "
				       "kernel: --live is required");
	if (o->costs && !o->check)
		return cli_usage_error(usage_calibrate, "%s", "--costs FILE is the profile --check "
				       "predicts with: give --check too");
	if (o->out && o->profile && !strcmp(o->out, o->profile))
		return cli_usage_error(usage_calibrate, "-o and --profile name the same file '%s'",
				       o->out);
	return -1;
}

static int cal_json_writer(FILE *f, const void *o)
{
	report_cal_json(f, o);
	return 0;
}

/* --check: each point's round trip predicted, against its median. */
static int cal_check(struct calprof_outcome *o, const struct cal_opts *opts,
		     struct calprof_check *chk, char *err, size_t errlen)
{
	const struct live_cal_report *r = o->r;

	o->check_costs = opts->costs;
	o->check_ok = true;
	for (size_t i = 0; i < r->npoints; i++) {
		struct calprof_check *c = &chk[i];
		int e = calprof_predict(&r->points[i], opts->costs,
					o->prof ? &o->prof->cost : NULL, r->syscalls_ns,
					&c->predicted_ns, err, errlen);

		if (e)
			return e;
		c->measured_ns = r->points[i].median_ns;
		c->error = c->predicted_ns / c->measured_ns - 1;
		o->check_ok = o->check_ok && fabs(c->error) <= CALPROF_CHECK_TOLERANCE;
	}
	o->check = chk;
	return 0;
}

/* Today's date, UTC, for the profile's record of when it was measured. */
static void today(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d", &tm))
		snprintf(buf, len, "unknown");
}

static int cal_profile_writer(FILE *f, const void *o)
{
	const struct calprof_outcome *oc = o;
	char date[16];

	today(date, sizeof(date));
	calprof_write(f, oc->prof, oc->r, date);
	return 0;
}

/* Write @o to @path with @writer (temporary name, then rename); 0 or 2 with the reason said. */
static int cal_write(struct util_out *u, int (*writer)(FILE *, const void *),
		     const struct calprof_outcome *o)
{
	char err[2048];

	if (writer(u->f, o), util_out_commit(u, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return 0;
}

int cli_calibrate(int argc, char **argv)
{
	struct cal_opts o = { .lo = { .reps = 5, .round_trips = 200000 } };
	struct live_cal_report *rep;
	struct util_out out = { 0 }, prof_out = { 0 };
	struct calprof prof;
	struct calprof_check chk[LIVE_CAL_MAX_POINTS];
	struct calprof_outcome oc = { 0 };
	char err[2048], fit_err[512];
	const char *mi = getenv("CGSIM_LIVE_MOUNTINFO");	/* for tests: docs/live.md */
	int rc = parse_cal_opts(argc, argv, &o), e;

	if (rc >= 0)
		return rc;
	o.lo.mountinfo = mi && *mi ? mi : "/proc/self/mountinfo";
	o.lo.progress = isatty(STDERR_FILENO);
	if (o.costs) {
		/* a profile that cannot be read fails now, not after minutes of measuring */
		struct live_cal_point root = { .placement = LIVE_CAL_SAME };
		double rt;

		if (calprof_predict(&root, o.costs, NULL, 1000, &rt, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	}
	/* the output files' temporary names first: a path that cannot be written fails now */
	if ((o.out && util_out_open(&out, o.out, err, sizeof(err))) ||
	    (o.profile && util_out_open(&prof_out, o.profile, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		if (out.f)
			util_out_abort(&out);
		return 2;
	}
	e = live_calibrate(&o.lo, &rep, err, sizeof(err));
	if (e) {
		if (o.out)
			util_out_abort(&out);
		if (o.profile)
			util_out_abort(&prof_out);
		return live_failed(e, err, "cgsim: calibrate --live failed");
	}
	oc.r = rep;
	if (calprof_fit(rep, &prof, fit_err, sizeof(fit_err)))
		oc.fit_err = fit_err;
	else
		oc.prof = &prof;
	/*
	 * What the measurement gives is kept (-o, the report) even when a step after it fails:
	 * no profile to write (or check) when the fit failed, or a check that cannot simulate.
	 */
	err[0] = '\0';
	if ((o.profile || (o.check && !o.costs)) && !oc.prof)
		snprintf(err, sizeof(err), "%s", fit_err);
	else if (o.check && cal_check(&oc, &o, chk, err, sizeof(err)))
		oc.check = NULL;
	rc = o.out ? cal_write(&out, cal_json_writer, &oc) : 0;
	if (o.profile) {
		if (rc || err[0])
			util_out_abort(&prof_out);
		else
			rc = cal_write(&prof_out, cal_profile_writer, &oc);
	}
	if (!rc)
		(o.json ? report_cal_json : report_cal_text)(stdout, &oc);
	live_cal_report_free(rep);
	if (rc)
		return rc;
	rc = cli_finish_stdout();
	if (err[0]) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return rc ? rc : o.check && !oc.check_ok ? 1 : 0;
}
