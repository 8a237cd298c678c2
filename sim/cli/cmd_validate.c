// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_validate.c - cgsim validate (docs/live.md, docs/vm.md): a scenario simulated and
 * run on the running kernel, or on a kernel booted under QEMU with the scenario's machine, the
 * shares side by side; --cleanup for what a killed run left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/cli/cmd_vm.h"
#include "sim/report/report.h"
#include "sim/live/live.h"

enum {
	O_LIVE, O_VM, O_KERNEL, O_KVERSION, O_LOG, O_REPS, O_TOLERANCE, O_STEAL, O_SET, O_JSON,
	O_CLEANUP, O_FETCH
};

static const struct cli_opt validate_opts[] = {
	[O_LIVE] = { .name = "live", .usage = "--live|--vm",
		.help = "on the running kernel (root)" },
	CLI_VM_ROWS(O_VM, "", O_KERNEL, O_KVERSION, O_LOG),
	[O_REPS] = { .name = "reps", .meta = "N",
		.help = "repetitions of the live run, 1 to 100 (default 3)" },
	[O_TOLERANCE] = { .name = "tolerance", .meta = "POINTS",
		.help = "largest difference of a row, in points of capacity (default 1.5)" },
	[O_STEAL] = { .name = "steal-measured",
		.help = "simulate with the steal the repetitions measured (machine.steal): on a VM, "
			"the time its hypervisor took, which the kernel charges to no thread" },
	[O_SET] = { .name = "set", .meta = "KEY=VALUE",
		.help = "as for cgsim run", .many = true },
	[O_JSON] = { .name = "json",
		.help = "one JSON object instead of the table" },
	[O_CLEANUP] = { .name = "cleanup",
		.help = "remove what a killed run left behind (--live: cgroups and helpers; --vm: "
			"a guest's scratch directory), and nothing else", .usage = "" },
	[O_FETCH] = { .name = "fetch-kernel", .usage = "",
		.help = "fetch --vm's kernel into the cache unless it is there (with "
			"--kernel-version: that series), and print its version and path" },
};

static int cmd_validate(int argc, char **argv);

const struct cli_cmd cli_cmd_validate = {
	.name = "validate",
	.operands = "SCENARIO.yaml",
	.operand_glob = "*.@(yaml|yml|json)",
	.summary = "run the scenario on a real kernel too (this one, or one under QEMU) and "
		   "compare the shares",
	.description =
	"Simulate the scenario as cgsim run does, then build the same layout on a real kernel\n"
	"(cgroups named cgsim-PID-..., on cgroup v2 where it offers cpu, else the v1 cpu\n"
	"hierarchy), run its threads for real, measure their CPU time over the same window and\n"
	"print both shares side by side. --live: on the running kernel (root; everything it\n"
	"makes or changes is undone, also when it is stopped by a signal; docs/live.md). --vm:\n"
	"in a guest booted under QEMU with the scenario's CPUs, topology and NUMA nodes, cgroup\n"
	"v2 with the cpu controller, no root needed (docs/vm.md).",
	.exit_status =
	"Exit status: 0 every row within the tolerance, 1 a row outside it, 2 bad input or cannot\n"
	"run here (not root, no cpu controller, a layout the kernel cannot be given; no QEMU,\n"
	"no kernel, a guest that did not boot or finish in time).",
	.more_usage = "--cleanup | --fetch-kernel [--kernel-version SERIES]",
	.opts = validate_opts,
	.nopts = CLI_NOPTS(validate_opts),
	.main = cmd_validate,
};

struct validate_opts {
	const char *file, *sets[CLI_MAX_SETS];
	size_t nsets;
	bool live, cleanup, json, fetch;
	struct live_opts lo;
	struct cli_vm_opts vo;
};

/* One argument @k of validate (from @p): -1 to go on, else the exit status. */
static int validate_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_validate;
	struct validate_opts *o = ctx;
	const char *v = p->val;
	char *end;
	uint64_t n;

	switch (k) {
	case CLI_OPERAND:
		return cli_operand_once(cmd, &o->file, v, "scenario");
	case O_LIVE:
		o->live = true;
		break;
	case O_VM:
		o->vo.vm = true;
		break;
	case O_KERNEL:
		o->vo.kernel = v;
		break;
	case O_KVERSION:
		o->vo.series = v;
		break;
	case O_LOG:
		o->vo.log = v;
		break;
	case O_CLEANUP:
		o->cleanup = true;
		break;
	case O_FETCH:
		o->fetch = true;
		break;
	case O_JSON:
		o->json = true;
		break;
	case O_STEAL:
		o->lo.steal_measured = true;
		break;
	case O_SET:
		return cli_add_set(cmd, o->sets, &o->nsets, v);
	case O_REPS:
		if (!cli_parse_range(v, 1, 100, &n))
			return cli_usage_error(cmd, "--reps needs a number from 1 to 100, not '%s'",
					       v);
		o->lo.reps = (unsigned)n;
		break;
	case O_TOLERANCE: {
		double t = strtod(v, &end);

		if (*end || !*v || !(t >= 0 && t <= 100))
			return cli_usage_error(cmd, "--tolerance needs points of capacity from 0 to "
					       "100, not '%s'", v);
		o->lo.tolerance = t;
		break;
	}
	}
	return -1;
}

/* validate's options; returns -1 to go on, else the exit status. */
static int parse_validate_opts(int argc, char **argv, struct validate_opts *o)
{
	const struct cli_cmd *cmd = &cli_cmd_validate;
	int rc = cli_parse(cmd, argc, argv, validate_arg, o);

	if (rc >= 0)
		return rc;
	if (o->fetch) {
		struct cli_vm_opts series = { .vm = true, .series = o->vo.series };

		return o->file || o->live || o->vo.vm || o->cleanup || o->vo.kernel || o->vo.log ?
		       cli_usage_error(cmd, "%s", "--fetch-kernel takes only --kernel-version") :
		       cli_vm_check(cmd, &series, false);
	}
	if (o->cleanup)
		return o->file || o->live || o->vo.vm ?
		       cli_usage_error(cmd, "%s", "--cleanup takes no scenario, no --live and no "
				       "--vm") : -1;
	if (!o->file)
		return cli_usage_error(cmd, "%s", "no scenario given");
	if (!o->live && !o->vo.vm)
		return cli_usage_error(cmd, "%s", "--live (this kernel) or --vm (one under QEMU) "
				       "is required");
	return cli_vm_check(cmd, &o->vo, o->live);
}

/*
 * The guest: the scenario's machine as it is, its memory sized for its threads, autogroup, and
 * the scenario's cgroup_mode, which the guest's init writes before the layout is made and the
 * guest's validate --live reads back for its simulation (docs/vm.md).
 */
static void guest_of(const struct scenario *sc, struct vm_run_opts *ro)
{
	ro->machine = sc->sched.machine;
	ro->threads_hint = sc->total_threads > 0 ? (unsigned)sc->total_threads : 0;
	ro->autogroup = sc->autogroup;
	/*
	 * The mode the scenario asks for itself (scheduler.cgroup_mode other than its kernel's
	 * default). A scenario that leaves the mode to its kernel asks the guest for none: the
	 * guest runs its own default, which is read back and simulated, so that a default
	 * scenario (7.3, concur) runs on a 7.2 guest as 7.2 runs it rather than being refused.
	 */
	const char *names[SCHED_FEAT_NR + 16];
	size_t n = sched_config_overrides(&sc->sched, names, sizeof(names) / sizeof(names[0]));
	bool asked = false;

	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++)
		asked |= !strcmp(names[i], "cgroup_mode");
	ro->cgroup_mode = asked ? sched_cgroup_mode_name(sc->sched.cgroup_mode) : NULL;
}

/*
 * The hard limit of a guest's run: boot (4-11 s measured at 2-64 vCPUs, so a wide margin),
 * then per repetition the measured run, which under TCG takes up to 2.5 times its guest
 * seconds at 64 vCPUs, and the setting up.
 */
static unsigned vm_timeout_s(const struct scenario *sc, unsigned reps)
{
	double run_s = (double)(sc->duration + sc->warmup) / 1e9;

	return 120u + 4u * (unsigned)sc->sched.machine.cpus + reps * (unsigned)(3 * run_s + 30);
}

/* The first thread group of @sc that sleeps on a timer (periodic, bursty, a sleep step). */
static const struct scn_threads *sleeper(const struct scenario *sc, const char **proc)
{
	for (size_t i = 0; i < sc->nprocs; i++)
		for (size_t j = 0; j < sc->procs[i].nthreads; j++) {
			const struct scn_threads *g = &sc->procs[i].threads[j];
			bool sleeps = g->spec.behavior.kind == SIM_BEHAV_PERIODIC ||
				      g->spec.behavior.kind == SIM_BEHAV_BURSTY;

			for (size_t k = 0; g->spec.behavior.kind == SIM_BEHAV_PHASES &&
			     k < g->spec.behavior.nphases; k++)
				sleeps |= g->phases[k].kind == SIM_STEP_SLEEP;
			if (sleeps) {
				*proc = sc->procs[i].name;
				return g;
			}
		}
	return NULL;
}

/*
 * validate --vm: the guest runs this cgsim's validate --live on its kernel; the report comes
 * back as JSON and is printed here with the guest's machine and domains.
 */
static int validate_vm(struct validate_opts *o, const struct scenario *sc)
{
	struct vm_run_opts ro = { .progress = o->lo.progress };
	const char *argv[9 + 2 * CLI_MAX_SETS];
	char reps[16], tol[32], err[2048];
	struct live_plan *plan;
	struct live_report *rep;
	struct vm_kernel k;
	struct vm_result r;
	size_t n = 0;
	int rc;

	/* what the guest would refuse, refused before it boots */
	if (live_plan_make(sc, LIVE_HIER_V2, "cgsim-vm", sc->sched.machine.cpus, &plan, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	live_plan_free(plan);
	/* a distortion of QEMU's emulation the scenario depends on (docs/vm.md) */
	if (sc->sched.machine.cpus > 2 && !vm_kvm_usable(err, sizeof(err))) {
		long host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
		const char *proc;
		const struct scn_threads *g = sleeper(sc, &proc);

		if (g)
			fprintf(stderr, "%s:%d: note: thread '%s/%s' sleeps on timers, and under TCG "
				"a timer wakeup comes 10-50 ms late at 4 or more vCPUs: its share "
				"on the guest may not be the kernel's (docs/vm.md)\n", sc->file,
				g->pos.line, proc, g->name);
		/*
		 * Measured: guests of up to twice the host's CPUs agree with the model on
		 * every level kind; beyond, their busy threads keep moving (docs/topology.md)
		 */
		if (host_cpus > 0 && sc->sched.machine.cpus > 2 * host_cpus)
			fprintf(stderr, "cgsim: note: %d vCPUs take turns on this host's %ld CPUs "
				"under TCG, and beyond twice as many a guest's balancer moves busy "
				"threads that a machine of its size would leave: shares on several "
				"levels of domains may not be the kernel's (docs/vm.md)\n",
				sc->sched.machine.cpus, host_cpus);
	}
	snprintf(reps, sizeof(reps), "%u", o->lo.reps);
	snprintf(tol, sizeof(tol), "%.17g", o->lo.tolerance);
	argv[n++] = "validate";
	argv[n++] = o->file;
	argv[n++] = "--live";
	argv[n++] = "--json";
	argv[n++] = "--reps";
	argv[n++] = reps;
	argv[n++] = "--tolerance";
	argv[n++] = tol;
	if (o->lo.steal_measured)
		argv[n++] = "--steal-measured";
	for (size_t i = 0; i < o->nsets; i++) {
		argv[n++] = "--set";
		argv[n++] = o->sets[i];
	}
	ro.argv = argv;
	ro.argc = n;
	ro.timeout_s = vm_timeout_s(sc, o->lo.reps);
	guest_of(sc, &ro);
	if ((rc = cli_vm_run(&o->vo, &ro, &k, &r)))
		return rc;
	if (cli_vm_guest_failed(&r)) {
		vm_result_free(&r);
		return 2;
	}
	if (cli_vm_read_report(r.out, &rep, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		vm_result_free(&r);
		return 2;
	}
	{
		struct report_vm vm = { .opts = &ro, .result = &r };

		(o->json ? report_live_json : report_live_text)(stdout, rep, &vm);
	}
	rc = live_within(rep) ? 0 : 1;
	live_report_free(rep);
	vm_result_free(&r);
	return cli_finish_stdout() ? 2 : rc;
}

static int cmd_validate(int argc, char **argv)
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
	o.lo.may_mount = !(mi && *mi);
	o.lo.progress = isatty(STDERR_FILENO);
	if (o.cleanup) {
		vm_cleanup(stdout);
		if (live_cleanup(o.lo.mountinfo, stdout, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		return cli_finish_stdout();
	}
	if (o.fetch) {
		struct vm_kernel k;

		if (vm_kernel_find(NULL, o.vo.series, true, &k, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		printf("%s\t%s\n", k.version, k.image);
		return cli_finish_stdout();
	}
	sc = cli_load(o.file, NULL, o.sets, o.nsets);
	if (!sc)
		return 2;
	if (o.vo.vm) {
		rc = validate_vm(&o, sc);
		scn_free(sc);
		return rc;
	}
	e = live_validate(sc, &o.lo, &rep, err, sizeof(err));
	scn_free(sc);
	if (e)
		return cli_live_failed(e, err, "cgsim: validate --live failed");
	(o.json ? report_live_json : report_live_text)(stdout, rep, NULL);
	rc = live_within(rep) ? 0 : 1;
	live_report_free(rep);
	return cli_finish_stdout() ? 2 : rc;
}
