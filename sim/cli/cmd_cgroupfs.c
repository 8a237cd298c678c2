// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_cgroupfs.c - cgsim cgroupfs: a .cgs script run against the cgroup model (and
 * with --live replayed on the running kernel, the answers side by side).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "sim/cli/cli.h"
#include "sim/cli/cmd_vm.h"
#include "sim/live/live.h"
#include "sim/util/util.h"

#define MAX_INPUT (64u << 20)	/* no script is larger than this: refuse rather than exhaust */

enum { O_SEMANTICS, O_LIVE, O_VM, O_KERNEL, O_KVERSION, O_LOG };

static const struct cli_opt cgroupfs_opts[] = {
	[O_SEMANTICS] = { .name = "semantics", .meta = "v2|rfc2017|v1",
		.help = "the rules: v2, cgroup v2 with thread mode as merged in Linux 4.14 "
			"(default);\nrfc2017, Tejun Heo's February 2017 thread-mode "
			"proposal;\nv1, the cgroup v1 cpu hierarchy (tasks, cpu.shares, cpu.cfs_*)",
		.words = "v2 rfc2017 v1" },
	[O_LIVE] = { .name = "live",
		.help = "replay it on the running kernel too (root; paths from the real root, "
			"names it touches must not exist; everything undone) and print each "
			"answer once, or \"model A, kernel B\" where they differ (docs/live.md)",
		.group = 1 },
	CLI_VM_ROWS(O_VM, NULL, O_KERNEL, O_KVERSION, O_LOG),
};

static int cmd_cgroupfs(int argc, char **argv);

const struct cli_cmd cli_cmd_cgroupfs = {
	.name = "cgroupfs",
	.operands = "FILE.cgs|-",
	.operands_last = true,
	.operand_glob = "*.cgs",
	.summary = "run a cgroupfs script against the cgroup model and print the result of every "
		   "operation (errno names as the kernel gives them)",
	.description =
	"Run a .cgs script (one operation per line: root-controllers, proc, mkdir, rmdir, write,\n"
	"read; '#' starts a comment) against a new cgroup hierarchy and print\n"
	"\"LINENO: OP ARGS -> RESULT\" for each operation. RESULT is ok, the kernel's errno name,\n"
	"or a file's content with its lines joined by '|'.",
	.exit_status =
	"Exit status 0 when the script ran to its end, whatever each operation answered (with\n"
	"--live or --vm: and the kernel answered every operation as the model); 1 with --live\n"
	"or --vm when an answer differs; 2 for a script that cannot be run (unreadable file,\n"
	"unknown operation, malformed line), with FILE:LINE:COL and what was expected on stderr\n"
	"and nothing on stdout, or one that cannot be replayed here (no QEMU, no kernel).",
	.opts = cgroupfs_opts,
	.nopts = CLI_NOPTS(cgroupfs_opts),
	.main = cmd_cgroupfs,
};

/* Read all of @f into a NUL-terminated buffer; refuses NUL bytes and oversized input. */
static int slurp(FILE *f, const char *name, char **out)
{
	size_t len;
	char *buf, *nul;
	int e = util_read_stream(f, MAX_INPUT, &buf, &len);

	if (e == -EFBIG)
		fprintf(stderr, "cgsim: %s: larger than %u MiB\n", name, MAX_INPUT >> 20);
	else if (e && e != -ENOMEM)
		fprintf(stderr, "cgsim: %s: read error: %s\n", name, strerror(-e));
	if (e)
		return e;
	nul = memchr(buf, '\0', len);
	if (nul) {
		int line = 1;

		for (const char *p = buf; p < nul; p++)
			line += *p == '\n';
		fprintf(stderr, "cgsim: %s:%d: a NUL byte: not a text file\n", name, line);
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

/*
 * The model's lines @model and the kernel's @kernel, one per operation, side by side: a line
 * both gave once, else "PREFIX -> model A, kernel B". Returns how many differ.
 */
static size_t print_both(FILE *o, const char *model, const char *kernel)
{
	size_t differ = 0, same = 0;

	while (*model || *kernel) {
		size_t lm = strcspn(model, "\n"), lk = strcspn(kernel, "\n");
		const char *arrow = strstr(model, " ->");
		size_t pre = arrow && (size_t)(arrow - model) < lm ? (size_t)(arrow - model) + 3 : lm;

		if (lm == lk && !memcmp(model, kernel, lm)) {
			fprintf(o, "%.*s\n", (int)lm, model);
			same++;
		} else {
			fprintf(o, "%.*s model%.*s, kernel%.*s\n", (int)pre, model, (int)(lm - pre),
				model + pre, (int)(lk > pre ? lk - pre : 0), kernel + (lk > pre ? pre : lk));
			differ++;
		}
		model += lm + (model[lm] == '\n');
		kernel += lk + (kernel[lk] == '\n');
	}
	fprintf(o, "%zu operations answered alike, %zu differently\n", same, differ);
	return differ;
}

struct cgroupfs_opts {
	enum cg_semantics sem;
	const char *file;
	bool live;
	struct cli_vm_opts vo;
};

/* One argument @k (from @p): -1 to go on, else the exit status. */
static int cgroupfs_arg(const struct cli_parse *p, int k, void *ctx)
{
	const struct cli_cmd *cmd = &cli_cmd_cgroupfs;
	struct cgroupfs_opts *o = ctx;

	if (k == O_LIVE)
		o->live = true;
	else if (k == O_VM)
		o->vo.vm = true;
	else if (k == O_KERNEL)
		o->vo.kernel = p->val;
	else if (k == O_KVERSION)
		o->vo.series = p->val;
	else if (k == O_LOG)
		o->vo.log = p->val;
	else if (k == O_SEMANTICS && cg_semantics_parse(p->val, &o->sem))
		return cli_usage_error(cmd, "unknown semantics '%s' (expected v2, rfc2017 or v1)",
				       p->val);
	else if (k == CLI_OPERAND)
		return cli_operand_once(cmd, &o->file, p->val, "script");
	return -1;
}

/* cgroupfs' options; returns -1 to go on, else the exit status. */
static int parse_cgroupfs_opts(int argc, char **argv, struct cgroupfs_opts *o)
{
	const struct cli_cmd *cmd = &cli_cmd_cgroupfs;
	int rc = cli_parse(cmd, argc, argv, cgroupfs_arg, o);

	if (rc >= 0)
		return rc;
	if (!o->file)
		return cli_usage_error(cmd, "%s", "no script given (a FILE.cgs or - for stdin)");
	if (o->vo.vm && !strcmp(o->file, "-"))
		return cli_usage_error(cmd, "%s", "--vm replays a script file, not stdin");
	return cli_vm_check(cmd, &o->vo, o->live);
}

/*
 * cgroupfs --vm: the guest runs this cgsim's cgroupfs --live at its cgroup2 root, which offers
 * cpu, cpuset, pids and the domain controllers (the memory controller kept), on as many vCPUs
 * as the model's scripts have CPUs; the side-by-side lines come back as they are.
 */
static int cgroupfs_vm(const struct cgroupfs_opts *o)
{
	const char *argv[] = { "cgroupfs", "--live", "--semantics", cg_semantics_name(o->sem),
			       o->file };
	struct vm_run_opts ro = {
		.argv = argv,
		.argc = sizeof(argv) / sizeof(argv[0]),
		.timeout_s = 300,
		.progress = isatty(STDERR_FILENO),
		/* the model's CPUs in a script (CG_NR_CPUS_DEFAULT), so that cpusets agree */
		.machine = topo_machine_flat(CG_NR_CPUS_DEFAULT),
		.autogroup = true, .memcg = true,
	};
	struct vm_kernel k;
	struct vm_result r;
	int rc = cli_vm_run(&o->vo, &ro, &k, &r);

	if (rc)
		return rc;
	if (cli_vm_guest_failed(&r)) {
		vm_result_free(&r);
		return 2;
	}
	fputs(r.out, stdout);
	rc = r.status;
	vm_result_free(&r);
	return cli_finish_stdout() ? 2 : rc;
}

static int cmd_cgroupfs(int argc, char **argv)
{
	struct cgroupfs_opts o = { .sem = CG_SEM_V2 };
	const char *file, *mi = getenv("CGSIM_LIVE_MOUNTINFO");
	char *text = NULL, *out = NULL, *kout = NULL, err[1024];
	FILE *f;
	int r = parse_cgroupfs_opts(argc, argv, &o);

	if (r >= 0)
		return r;
	file = o.file;
	if (o.vo.vm && o.sem != CG_SEM_V2) {
		fprintf(stderr, "cgsim: --vm replays a script at a guest's cgroup2 root: --semantics "
			"v2 only (%s)\n", o.sem == CG_SEM_V1 ? "a v1 script replays with --live" :
			"the rfc2017 rule set was never merged: no kernel runs it");
		return 2;
	}
	if (!strcmp(file, "-")) {
		f = stdin;
		file = "<stdin>";
	} else {
		f = fopen(file, "rb");
		if (!f) {
			fprintf(stderr, "cgsim: %s: %s\n", file, strerror(errno));
			return 2;
		}
	}
	r = slurp(f, file, &text);
	if (f != stdin)
		fclose(f);
	if (r)
		return 2;
	r = cg_script_run(o.sem, file, text, &out, err, sizeof(err));
	if (!r && o.vo.vm) {
		free(text);
		free(out);
		return cgroupfs_vm(&o);
	}
	if (!r && o.live)
		r = live_cgs_replay(file, text, o.sem, mi && *mi ? mi : "/proc/self/mountinfo", &kout,
				    err, sizeof(err));
	free(text);
	if (r) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: out of memory");
		free(out);
		return 2;
	}
	if (o.live)
		r = print_both(stdout, out, kout) ? 1 : 0;
	else
		fputs(out, stdout);
	free(out);
	free(kout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cgsim: writing the output: %s\n", strerror(errno));
		return 2;
	}
	return r;
}
