// SPDX-License-Identifier: MIT
/*
 * sim/report/report_live.c - cgsim validate --live's comparison, for people and for scripts
 * (sim/report/report.h). Shares are fractions of capacity with 4 decimals; differences are in
 * points of capacity (100 x), as the tolerance is.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sim/report/report.h"

static const char *hier_name(enum live_hier h)
{
	return h == LIVE_HIER_V2 ? "v2" : "v1";
}

/* The guest's machine and CPU 0's domains, two lines. */
static void vm_text(FILE *f, const struct report_vm *vm)
{
	const struct topo_machine *m = &vm->opts->machine;
	const struct vm_result *res = vm->result;
	size_t shown = 0;

	fprintf(f, "guest: QEMU (%s), %d vCPUs = %d socket%s x %d die%s x %d core%s x %d thread%s, "
		"%d NUMA node%s, %u MiB; booted in %.1f s\n", !strcmp(res->accel, "kvm") ? "KVM" :
		"TCG", m->cpus, m->sockets, m->sockets == 1 ? "" : "s", m->dies,
		m->dies == 1 ? "" : "s", m->cores, m->cores == 1 ? "" : "s", m->threads,
		m->threads == 1 ? "" : "s", m->nodes, m->nodes == 1 ? "" : "s",
		vm_machine_mem_mib(vm->opts), res->boot_s);
	fputs("its sched domains (CPU 0):", f);
	for (size_t i = 0; i < res->ndomains && !res->domains[i].cpu; i++)
		fprintf(f, "%s %s %s", shown++ ? "," : "", res->domains[i].name,
			res->domains[i].span[0] ? res->domains[i].span : "?");
	fputs(shown ? "\n" : " none (one CPU)\n", f);
}

static void vm_json(FILE *f, const struct report_vm *vm)
{
	const struct topo_machine *m = &vm->opts->machine;
	const struct vm_result *res = vm->result;

	fprintf(f, ",\n  \"vm\": {\"accel\": \"%s\", \"cpus\": %d, \"sockets\": %d, \"dies\": %d, "
		"\"cores\": %d, \"threads\": %d, \"nodes\": %d, \"memory_mib\": %u, "
		"\"boot_s\": %.1f,\n    \"domains\": [", res->accel, m->cpus, m->sockets, m->dies,
		m->cores, m->threads, m->nodes, vm_machine_mem_mib(vm->opts), res->boot_s);
	for (size_t i = 0; i < res->ndomains; i++) {
		const struct vm_domain *d = &res->domains[i];

		fprintf(f, "%s\n      {\"cpu\": %d, \"level\": %d, \"name\": ", i ? "," : "",
			d->cpu, d->level);
		report_json_string(f, d->name);
		fputs(", \"span\": ", f);
		report_json_string(f, d->span);
		fputs(", \"flags\": ", f);
		report_json_string(f, d->flags);
		fputc('}', f);
	}
	fputs(res->ndomains ? "\n    ]}" : "]}", f);
}

void report_live_text(FILE *f, const struct live_report *r, const struct report_vm *vm)
{
	char vis[REPORT_VISIBLE_SIZE(1100)];
	size_t w = 4, out = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		size_t n = strlen(report_visible(r->rows[i].name, vis, sizeof(vis)));

		w = n > w ? n : w;
	}
	fprintf(f, "%s on Linux %s (cgroup %s%s%s): %u repetition%s of %.1f s\n",
		report_visible(r->scenario, vis, sizeof(vis)), r->kernel, hier_name(r->hier),
		r->cgroup_mode_file ? ", cgroup_mode " : "",
		r->cgroup_mode_file ? sched_cgroup_mode_name(r->cgroup_mode) : "", r->reps,
		r->reps == 1 ? "" : "s", r->window_s);
	if (*r->model)	/* what the "simulated" column modelled (docs/kernels.md) */
		fprintf(f, "simulated as %s\n", r->model);
	if (vm)
		vm_text(f, vm);
	if (r->cpus == 1 && r->online > 1)
		fprintf(f, "the scenario's threads kept on CPU 0 of the machine's %d\n", r->online);
	else if (r->cpus < r->online)
		fprintf(f, "the scenario's threads kept on CPUs 0-%d of the machine's %d\n",
			r->cpus - 1, r->online);
	fprintf(f, "other work took %.1f %% of the machine (%.1f .. %.1f)", 100 * r->other.mean,
		100 * r->other.min, 100 * r->other.max);
	if (r->steal.max > 0)
		fprintf(f, "; steal %.1f %% (%.1f .. %.1f)", 100 * r->steal.mean,
			100 * r->steal.min, 100 * r->steal.max);
	fputs("\n", f);
	if (r->steal.mean - r->sim_steal >= 0.005 || r->sim_steal - r->steal.mean >= 0.005)
		fprintf(f, "(the simulation's steal was %.1f %%: --steal-measured, or --set "
			"machine.steal=%.4f, models what was measured)\n", 100 * r->sim_steal,
			r->steal.mean);
	else if (r->sim_steal > 0)
		fprintf(f, "(simulated with that steal, machine.steal=%.4f)\n", r->sim_steal);
	fputs("\n", f);
	fprintf(f, "%-7s  %-*s  %9s  %8s  %6s  %6s  %6s\n", "kind", (int)w, "name", "simulated",
		"measured", "min", "max", "diff");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct live_row *row = &r->rows[i];
		double d = 100 * (row->measured.mean - row->simulated);
		bool bad = d > r->tolerance || d < -r->tolerance;

		out += bad;
		fprintf(f, "%-7s  %-*s  %9.4f  %8.4f  %6.4f  %6.4f  %+6.2f%s\n", row->kind, (int)w,
			report_visible(row->name, vis, sizeof(vis)), row->simulated,
			row->measured.mean, row->measured.min, row->measured.max, d,
			bad ? "  outside" : "");
	}
	fprintf(f, "\n%zu rows within %.1f points, %zu outside\n", r->nrows - out, r->tolerance,
		out);
}

void report_live_json(FILE *f, const struct live_report *r, const struct report_vm *vm)
{
	char kname[SCHED_KERNEL_NAME_MAX];

	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"scenario\": ", f);
	report_json_string(f, r->scenario);
	fputs(", \"kernel\": ", f);
	report_json_string(f, r->kernel);
	fprintf(f, ", \"cgroup_mode\": \"%s\", \"cgroup_mode_file\": %s, "
		"\"modelled_kernel\": \"%s\"", sched_cgroup_mode_name(r->cgroup_mode),
		r->cgroup_mode_file ? "true" : "false",
		sched_kernel_name(r->modelled, kname, sizeof(kname)));
	fputs(", \"simulated_kernel\": ", f);
	report_json_string(f, r->model);
	fprintf(f, ", \"hierarchy\": \"%s\", \"cpus\": %d, \"online\": %d,\n  \"reps\": %u, "
		"\"window_s\": %.3f, \"tolerance\": %.2f, \"other_load\": %.4f, "
		"\"other_load_min\": %.4f, \"other_load_max\": %.4f, \"steal\": %.4f, "
		"\"steal_min\": %.4f, \"steal_max\": %.4f, \"simulated_steal\": %.4f",
		hier_name(r->hier), r->cpus, r->online, r->reps, r->window_s, r->tolerance,
		r->other.mean, r->other.min, r->other.max, r->steal.mean, r->steal.min,
		r->steal.max, r->sim_steal);
	if (vm)
		vm_json(f, vm);
	fputs(",\n  \"rows\": [", f);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct live_row *row = &r->rows[i];

		fprintf(f, "%s\n    {\"kind\": \"%s\", \"name\": ", i ? "," : "", row->kind);
		report_json_string(f, row->name);
		fprintf(f, ", \"simulated\": %.4f, \"measured\": %.4f, \"min\": %.4f, \"max\": %.4f}",
			row->simulated, row->measured.mean, row->measured.min, row->measured.max);
	}
	fputs("\n  ]\n}\n", f);
}

/* ---- cgsim calibrate --live ---- */

/* "KEY": X (or null when X is not a number), then @end. */
static void json_number(FILE *f, const char *key, double x, const char *end)
{
	if (isnan(x))
		fprintf(f, "\"%s\": null%s", key, end);
	else
		fprintf(f, "\"%s\": %.4f%s", key, x, end);
}

static const char *cal_label(const struct live_cal_point *p)
{
	return p->depth ? live_cal_placement_name[p->placement]
			: p->autogroup ? "root, autogroup" : "root";
}

/*
 * The points whose greatest cost is over 10 % above their least: a repetition that shared the
 * CPU with something else (docs/overhead.md: quiet runs here spread by 1-5 %, a disturbed one
 * by 30-50 %).
 */
static size_t cal_disturbed(const struct live_cal_report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->npoints; i++)
		n += r->points[i].max_ns > 1.1 * r->points[i].min_ns;
	return n;
}

static void cal_profile_text(FILE *f, const struct calprof_outcome *o)
{
	const struct calprof *p = o->prof;
	const struct live_cal_report *r = o->r;

	fprintf(f, "\npipe write + read, no wakeup: %.1f ns (%.1f to %.1f)\n", r->syscalls_ns,
		r->syscalls_min_ns, r->syscalls_max_ns);
	if (!p) {
		fprintf(f, "no cost profile: %s\n", o->fit_err);
		return;
	}
	fprintf(f, "cost profile (median = base + walk_ns x walks + level_ns x operations, the "
		"model's\ncounts per round trip; least squares over %zu points):\n"
		"  walk  %3" PRIu64 " ns (+-%.1f)   level %3" PRIu64 " ns (+-%.1f)   base %.0f ns "
		"(+-%.0f)\n  switch %" PRIu64 " ns, wakeup %" PRIu64 " ns, sleep %" PRIu64 " ns "
		"(base - 2 x %.0f ns of system calls,\n  split 1 : 0.5 : 0.3); tick %" PRIu64
		" ns (the default)%s\n  residuals", p->n, p->cost.walk_ns, p->walk_se,
		p->cost.level_ns, p->level_se, p->base_ns, p->base_se, p->cost.switch_ns,
		p->cost.wakeup_ns, p->cost.sleep_ns, r->syscalls_ns, p->cost.tick_ns,
		p->clamped ? "; a negative constant was set to 0" : "");
	for (size_t i = 0; i < p->n; i++)
		fprintf(f, " %+.0f", p->residual_ns[i]);
	fputc('\n', f);
}

/* The kernel the calibration's ping-pong simulates: calprofile.c's sched_config_default(). */
static const char *cal_model(char *buf, size_t len)
{
	struct sched_config def;

	sched_config_default(&def, SCHED_POLICY_EEVDF, 1);
	sched_config_describe(&def, buf, len);
	return buf;
}

static void cal_check_text(FILE *f, const struct calprof_outcome *o)
{
	const struct live_cal_report *r = o->r;
	char model[REPORT_KERNEL_SIZE];

	fprintf(f, "\ncheck: the simulated ping-pong with %s%s, each half running the measured "
		"system calls,\nsimulated as %s\n%-16s %5s  %10s  %10s  %7s\n", o->check_costs ?
		"the profile " : "the profile just fitted", o->check_costs ? o->check_costs : "",
		cal_model(model, sizeof(model)), "placement", "depth", "measured", "predicted",
		"error");
	for (size_t i = 0; i < r->npoints; i++) {
		const struct calprof_check *c = &o->check[i];

		fprintf(f, "%-16s %5d  %10.1f  %10.1f  %+6.1f%%\n", cal_label(&r->points[i]),
			r->points[i].depth, c->measured_ns, c->predicted_ns, 100 * c->error);
	}
	fprintf(f, "%s: every point within %.0f %%\n", o->check_ok ? "PASS" : "FAIL",
		100 * CALPROF_CHECK_TOLERANCE);
}

void report_cal_text(FILE *f, const struct calprof_outcome *o)
{
	const struct live_cal_report *r = o->r;

	fprintf(f, "calibrate on Linux %s (cgroup %s): two threads on CPU %d waking each other "
		"through pipes,\n%lu round trips timed per point, median of %u repetition%s\n\n",
		r->kernel, hier_name(r->hier), r->cpu, r->round_trips, r->reps,
		r->reps == 1 ? "" : "s");
	fprintf(f, "%-16s %5s  %10s  %10s  %10s  %9s  %7s\n", "placement", "depth", "median ns",
		"min", "max", "preempted", "blocked");
	for (size_t i = 0; i < r->npoints; i++) {
		const struct live_cal_point *p = &r->points[i];

		fprintf(f, "%-16s %5d  %10.1f  %10.1f  %10.1f  %9.3f  %7.3f\n", cal_label(p),
			p->depth, p->median_ns, p->min_ns, p->max_ns, p->preempted, p->voluntary);
	}
	fputs("(per round trip, the threads' switches: preempted, a writer preempted by the reader it "
	      "woke;\nblocked, a thread that went to sleep)\n", f);
	if (cal_disturbed(r))
		fprintf(f, "\n%zu of the %zu points spread over 10 %% between repetitions: something "
			"else ran on CPU %d;\nthe medians hold against a few disturbed repetitions, "
			"more --reps against more\n", cal_disturbed(r), r->npoints, r->cpu);
	fputs("\nper round trip: base + per_level x depth (least squares over depths 0, 1, 2, 4, "
	      "8;\n95 % interval of the slope)\n", f);
	for (int k = 0; k < LIVE_CAL_NPLACEMENTS; k++) {
		const struct live_cal_fit *t = &r->fits[k];

		fprintf(f, "%-9s base %7.1f ns (+-%.1f), per level %6.1f ns (%.1f to %.1f); "
			"residuals", live_cal_placement_name[t->placement], t->base_ns, t->base_se,
			t->per_level_ns, t->per_level_low, t->per_level_high);
		for (size_t i = 0; i < t->n; i++)
			fprintf(f, " %+.0f", t->residual_ns[i]);
		fputc('\n', f);
	}
	cal_profile_text(f, o);
	if (o->check)
		cal_check_text(f, o);
}

void report_cal_json(FILE *f, const struct calprof_outcome *o)
{
	const struct live_cal_report *r = o->r;

	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"kernel\": ", f);
	report_json_string(f, r->kernel);
	fputs(", \"simulated_kernel\": ", f);
	{
		char model[REPORT_KERNEL_SIZE];

		report_json_string(f, cal_model(model, sizeof(model)));
	}
	fprintf(f, ", \"hierarchy\": \"%s\", \"cpu\": %d, \"reps\": %u, \"round_trips\": %lu, "
		"\"disturbed_points\": %zu,\n  \"fits\": [", hier_name(r->hier), r->cpu, r->reps,
		r->round_trips, cal_disturbed(r));
	for (int k = 0; k < LIVE_CAL_NPLACEMENTS; k++) {
		const struct live_cal_fit *t = &r->fits[k];

		fprintf(f, "%s\n    {\"placement\": \"%s\", \"base_ns\": %.1f, \"base_se_ns\": %.1f, "
			"\"per_level_ns\": %.1f, \"per_level_se_ns\": %.1f, \"per_level_low\": %.1f, "
			"\"per_level_high\": %.1f, \"residuals_ns\": [", k ? "," : "",
			live_cal_placement_name[t->placement], t->base_ns, t->base_se,
			t->per_level_ns, t->per_level_se, t->per_level_low, t->per_level_high);
		for (size_t i = 0; i < t->n; i++)
			fprintf(f, "%s%.1f", i ? ", " : "", t->residual_ns[i]);
		fputs("]}", f);
	}
	fputs("\n  ],\n  \"medians\": [", f);
	for (size_t i = 0; i < r->npoints; i++) {
		const struct live_cal_point *p = &r->points[i];

		fprintf(f, "%s\n    {\"placement\": \"%s\", \"depth\": %d, \"autogroup\": %s, "
			"\"median_ns\": %.1f, \"min_ns\": %.1f, \"max_ns\": %.1f, ", i ? "," : "",
			p->depth ? live_cal_placement_name[p->placement] : "root", p->depth,
			p->autogroup ? "true" : "false", p->median_ns, p->min_ns, p->max_ns);
		json_number(f, "preempted", p->preempted, ", ");
		json_number(f, "blocked", p->voluntary, "}");
	}
	fprintf(f, "\n  ],\n  \"syscalls_ns\": %.1f, \"syscalls_min_ns\": %.1f, "
		"\"syscalls_max_ns\": %.1f,\n  \"profile\": ", r->syscalls_ns, r->syscalls_min_ns,
		r->syscalls_max_ns);
	if (o->prof) {
		const struct calprof *p = o->prof;

		fprintf(f, "{\"switch_ns\": %" PRIu64 ", \"wakeup_ns\": %" PRIu64 ", \"sleep_ns\": %"
			PRIu64 ", \"tick_ns\": %" PRIu64 ", \"level_ns\": %" PRIu64 ", \"walk_ns\": %"
			PRIu64 ", \"level_se_ns\": %.2f, \"walk_se_ns\": %.2f, \"base_ns\": %.1f, "
			"\"base_se_ns\": %.1f, \"clamped\": %s, \"residuals_ns\": [", p->cost.switch_ns,
			p->cost.wakeup_ns, p->cost.sleep_ns, p->cost.tick_ns, p->cost.level_ns,
			p->cost.walk_ns, p->level_se, p->walk_se, p->base_ns, p->base_se,
			p->clamped ? "true" : "false");
		for (size_t i = 0; i < p->n; i++)
			fprintf(f, "%s%.1f", i ? ", " : "", p->residual_ns[i]);
		fputs("]}", f);
	} else {
		fputs("null, \"profile_error\": ", f);
		report_json_string(f, o->fit_err);
	}
	if (o->check) {
		fputs(",\n  \"check\": {\"costs\": ", f);
		if (o->check_costs)
			report_json_string(f, o->check_costs);
		else
			fputs("null", f);
		fprintf(f, ", \"tolerance\": %.2f, \"pass\": %s, \"points\": [",
			CALPROF_CHECK_TOLERANCE, o->check_ok ? "true" : "false");
		for (size_t i = 0; i < r->npoints; i++) {
			const struct calprof_check *c = &o->check[i];

			fprintf(f, "%s\n    {\"placement\": \"%s\", \"depth\": %d, \"autogroup\": %s, "
				"\"measured_ns\": %.1f, \"predicted_ns\": %.1f, \"error\": %.4f}",
				i ? "," : "", r->points[i].depth ?
				live_cal_placement_name[r->points[i].placement] : "root",
				r->points[i].depth, r->points[i].autogroup ? "true" : "false",
				c->measured_ns, c->predicted_ns, c->error);
		}
		fputs("\n  ]}", f);
	}
	fputs("\n}\n", f);
}
