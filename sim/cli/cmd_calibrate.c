// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_calibrate.c - cgsim calibrate (docs/overhead.md): what a wakeup and a switch
 * cost on the running kernel per level of cgroup hierarchy measured, the machine's cost
 * profile fitted, written and checked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/calibrate/calprofile.h"
#include "sim/cli/cli.h"
#include "sim/report/report.h"
#include "sim/live/live.h"
#include "sim/util/util.h"

enum { O_LIVE, O_REPS, O_ROUND_TRIPS, O_PROFILE, O_CHECK, O_COSTS, O_JSON, O_DIR };

static const struct cli_opt calibrate_opts[] = {
	[O_LIVE] = { .name = "live",
		.help = "measure on this kernel (required)", .required = true },
	[O_REPS] = { .name = "reps", .meta = "N",
		.help = "repetitions of each point, 1 to 100 (default 5)" },
	[O_ROUND_TRIPS] = { .name = "round-trips", .meta = "N",
		.help = "round trips timed per point and repetition, 1000 to 100000000 (default "
			"200000)" },
	[O_PROFILE] = { .name = "profile", .meta = "FILE",
		.help = "write the cost profile to FILE, for machine: { costs: FILE }",
		.files = true },
	[O_CHECK] = { .name = "check",
		.help = "predict each point's round trip with the simulated ping-pong and compare "
			"it with the measurement (within 10 %)",
		.usage = "[--check [--costs FILE]]" },
	[O_COSTS] = { .name = "costs", .meta = "FILE",
		.help = "with --check: predict with this profile, not the one just fitted",
		.files = true, .usage = "" },
	[O_JSON] = { .name = "json",
		.help = "one JSON object instead of the tables" },
	[O_DIR] = { .short_name = 'o', .meta = "FILE",
		.help = "also write the JSON object to FILE", .files = true },
};

static int cmd_calibrate(int argc, char **argv);

const struct cli_cmd cli_cmd_calibrate = {
	.name = "calibrate",
	.summary = "measure what a wakeup and a switch cost on this kernel per level of cgroup "
		   "hierarchy (root); write the machine's cost profile, check one",
	.description =
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
	"machine: anything else on the CPU is measured too.",
	.exit_status =
	"Exit status: 0; 1 when --check finds a point off by more than 10 %; 2 for bad usage,\n"
	"when it cannot run here (with the reason), or when no profile could be fitted or\n"
	"simulated for --profile or --check (the measurement is still printed and written).",
	.opts = calibrate_opts,
	.nopts = CLI_NOPTS(calibrate_opts),
	.main = cmd_calibrate,
};

struct cal_opts {
	bool live, json, check;
	const char *out, *profile, *costs;
	struct live_cal_opts lo;
};

/* One argument @k of calibrate (from @p): -1 to go on, else the exit status. */
static int cal_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_calibrate;
	struct cal_opts *o = ctx;
	const char *v = p->val;
	uint64_t n;

	switch (k) {
	case CLI_OPERAND:
		return cli_usage_error(cmd, "calibrate takes no file ('%s')", v);
	case O_LIVE:
		o->live = true;
		break;
	case O_JSON:
		o->json = true;
		break;
	case O_CHECK:
		o->check = true;
		break;
	case O_DIR:
		o->out = v;
		break;
	case O_PROFILE:
		o->profile = v;
		break;
	case O_COSTS:
		o->costs = v;
		break;
	case O_REPS:
		if (!cli_parse_range(v, 1, 100, &n))
			return cli_usage_error(cmd, "--reps needs a number from 1 to 100, not '%s'",
					       v);
		o->lo.reps = (unsigned)n;
		break;
	case O_ROUND_TRIPS:
		if (!cli_parse_range(v, 1000, 100000000, &n))
			return cli_usage_error(cmd, "--round-trips needs a number from 1000 to "
					       "100000000, not '%s'", v);
		o->lo.round_trips = (unsigned long)n;
		break;
	}
	return -1;
}

static int parse_cal_opts(int argc, char **argv, struct cal_opts *o)
{
	const struct cli_cmd *cmd = &cli_cmd_calibrate;
	int rc = cli_parse(cmd, argc, argv, cal_arg, o);

	if (rc >= 0)
		return rc;
	if (!o->live)
		return cli_usage_error(cmd, "%s", "calibrate measures the running kernel: --live is "
				       "required");
	if (o->costs && !o->check)
		return cli_usage_error(cmd, "%s", "--costs FILE is the profile --check predicts "
				       "with: give --check too");
	if (o->out && o->profile && !strcmp(o->out, o->profile))
		return cli_usage_error(cmd, "-o and --profile name the same file '%s'", o->out);
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

static int cmd_calibrate(int argc, char **argv)
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
		return cli_live_failed(e, err, "cgsim: calibrate --live failed");
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
