// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_vm.c - the guest runs of cgsim validate --vm and cgroupfs --vm
 * (sim/cli/cmd_vm.h, docs/vm.md).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sim/cli/cmd_vm.h"

/*
 * "MAJOR.MINOR" (a series: its newest release) or "MAJOR.MINOR.PATCH" (that release), digits
 * without a leading zero: the start of Debian's package versions it chooses among.
 */
static bool series_ok(const char *s)
{
	int parts = 0;

	for (;;) {
		size_t d = strspn(s, "0123456789");

		if (!d || d > 3 || (d > 1 && *s == '0'))
			return false;
		parts++;
		s += d;
		if (!*s)
			return parts >= 2;
		if (*s++ != '.' || parts == 3)
			return false;
	}
}

int cli_vm_check(const struct cli_cmd *cmd, const struct cli_vm_opts *o, bool live)
{
	if (live && o->vm)
		return cli_usage_error(cmd, "%s", "--live and --vm: one kernel at a time");
	if (!o->vm && (o->kernel || o->series || o->log))
		return cli_usage_error(cmd, "%s", "--kernel, --kernel-version and --log go with "
				       "--vm");
	if (o->series && !series_ok(o->series))
		return cli_usage_error(cmd, "--kernel-version needs a series or release (7.3, "
				       "7.3.4), not '%s'", o->series);
	if (o->kernel && o->series)
		return cli_usage_error(cmd, "%s", "--kernel and --kernel-version: one kernel at a "
				       "time");
	return -1;
}

int cli_vm_run(const struct cli_vm_opts *o, struct vm_run_opts *ro, struct vm_kernel *k,
	       struct vm_result *r)
{
	const char *env = getenv("CGSIM_KERNEL");
	const char *file = o->kernel ? o->kernel : !o->series && env && *env ? env : NULL;
	char err[2048];
	int e = vm_kernel_find(file, o->series, ro->progress, k, err, sizeof(err));

	if (e) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	/*
	 * cgroup_mode came in 7.3; before it every kernel computes smp, so smp needs no file
	 * and any other mode cannot be given
	 */
	if (ro->cgroup_mode && !vm_kernel_at_least(k, 7, 3)) {
		if (strcmp(ro->cgroup_mode, "smp")) {
			fprintf(stderr, "cgsim: the guest kernel Linux %s has no cgroup_mode (it came "
				"in 7.3; before it every kernel computes smp): the scenario's "
				"cgroup_mode %s needs --kernel-version 7.3 or later\n", k->version,
				ro->cgroup_mode);
			return 2;
		}
		ro->cgroup_mode = NULL;
	}
	ro->kernel = k;
	ro->log = o->log;
	e = vm_run(ro, r, err, sizeof(err));
	if (!e)
		return 0;
	fprintf(stderr, "%s\n", err[0] ? err : "cgsim: the guest failed");
	if (e == -EINTR) {
		signal(vm_stop_signal(), SIG_DFL);
		raise(vm_stop_signal());
	}
	return 2;
}

bool cli_vm_guest_failed(const struct vm_result *r)
{
	if (r->status == 0 || r->status == 1)
		return false;
	if (r->errout && *r->errout)
		fputs(r->errout, stderr);
	else
		fprintf(stderr, "cgsim: the guest's cgsim ended with status %d and said nothing\n",
			r->status);
	return true;
}

/* Member @name of @o as a number. */
static bool get_num(json_object *o, const char *name, double *out)
{
	json_object *m;

	if (!json_object_object_get_ex(o, name, &m) || (!json_object_is_type(m, json_type_double) &&
							!json_object_is_type(m, json_type_int)))
		return false;
	*out = json_object_get_double(m);
	return true;
}

static bool get_str(json_object *o, const char *name, const char **out)
{
	json_object *m;

	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_string))
		return false;
	*out = json_object_get_string(m);
	return true;
}

static bool get_bool(json_object *o, const char *name)
{
	json_object *m;

	return json_object_object_get_ex(o, name, &m) &&
	       json_object_is_type(m, json_type_boolean) && json_object_get_boolean(m);
}

static bool read_row(json_object *o, struct live_row *row)
{
	static const char *const kinds[] = { "group", "process", "thread" };
	const char *kind, *name;

	if (!get_str(o, "kind", &kind) || !get_str(o, "name", &name) ||
	    !get_num(o, "simulated", &row->simulated) ||
	    !get_num(o, "measured", &row->measured.mean) ||
	    !get_num(o, "min", &row->measured.min) || !get_num(o, "max", &row->measured.max))
		return false;
	for (size_t k = 0; k < 3; k++)
		if (!strcmp(kind, kinds[k]))
			row->kind = kinds[k];
	return row->kind && (row->name = strdup(name));
}

int cli_vm_read_report(const char *json, struct live_report **out, char *err, size_t errlen)
{
	json_object *o = json_tokener_parse(json), *rows;
	struct live_report *r = calloc(1, sizeof(*r));
	const char *s, *hier, *kernel, *mode, *modelled;
	double reps = 0, cpus = 0, online = 0;
	bool ok = o && r && get_str(o, "scenario", &s) && (r->scenario = strdup(s)) &&
		  get_str(o, "kernel", &kernel) && get_str(o, "hierarchy", &hier) &&
		  get_num(o, "cpus", &cpus) && get_num(o, "online", &online) &&
		  get_num(o, "reps", &reps) && get_num(o, "window_s", &r->window_s) &&
		  get_num(o, "tolerance", &r->tolerance) && get_num(o, "other_load", &r->other.mean) &&
		  get_num(o, "other_load_min", &r->other.min) &&
		  get_num(o, "other_load_max", &r->other.max) &&
		  json_object_object_get_ex(o, "rows", &rows) &&
		  json_object_is_type(rows, json_type_array);

	if (ok) {
		size_t n = json_object_array_length(rows);

		/* steal: written since the report has it; 0 from an older guest's */
		if (!get_num(o, "steal", &r->steal.mean) || !get_num(o, "steal_min", &r->steal.min) ||
		    !get_num(o, "steal_max", &r->steal.max))
			r->steal = (struct live_stat){ 0, 0, 0 };
		if (!get_num(o, "simulated_steal", &r->sim_steal))
			r->sim_steal = 0;
		/* the kernel's cgroup_mode and the one modelled: since 7.3's; an older guest's
		   report has none (smp, the kernel 0.0.0) */
		if (get_str(o, "cgroup_mode", &mode) &&
		    !sched_cgroup_mode_parse(mode, &r->cgroup_mode))
			r->cgroup_mode_file = get_bool(o, "cgroup_mode_file");
		else
			r->cgroup_mode = SCHED_CGROUP_SMP;
		if (get_str(o, "modelled_kernel", &modelled))
			(void)sched_kernel_parse(modelled, &r->modelled);
		if (get_str(o, "simulated_kernel", &modelled))
			snprintf(r->model, sizeof(r->model), "%s", modelled);

		snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
		r->hier = !strcmp(hier, "v2") ? LIVE_HIER_V2 : LIVE_HIER_V1;
		r->cpus = (int)cpus;
		r->online = (int)online;
		r->reps = (unsigned)reps;
		r->rows = calloc(n ? n : 1, sizeof(*r->rows));
		ok = r->rows;
		for (size_t i = 0; ok && i < n; i++, r->nrows++)
			ok = read_row(json_object_array_get_idx(rows, i), &r->rows[i]);
	}
	json_object_put(o);
	if (!ok) {
		snprintf(err, errlen, "cgsim: the guest's report is not validate --live's JSON");
		live_report_free(r);
		return -EINVAL;
	}
	*out = r;
	return 0;
}
