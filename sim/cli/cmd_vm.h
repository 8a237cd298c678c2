/* SPDX-License-Identifier: MIT */
/*
 * sim/cli/cmd_vm.h - what cgsim validate --vm and cgsim cgroupfs --vm share
 * (sim/cli/cmd_vm.c): the options that choose the guest's kernel and log, the kernel found or
 * fetched, the guest run with its failures said, the guest's validate --live report read back.
 * For sim/cli/cmd_validate.c and sim/cli/cmd_cgroupfs.c only.
 */
#ifndef CGSIM_SIM_CLI_CMD_VM_H
#define CGSIM_SIM_CLI_CMD_VM_H

#include "sim/cli/cli.h"
#include "sim/live/live.h"
#include "sim/vm/vm.h"

/* The rows of the option tables, the same in both commands. */
#define CLI_VM_ROWS(vm, vmusage, kernel, version, log) \
	[vm] = { .name = "vm", .usage = vmusage, .group = 1, \
		.help = "in a real kernel booted under QEMU with the scenario's machine " \
			"(docs/vm.md)" }, \
	[kernel] = { .name = "kernel", .meta = "FILE", .files = true, \
		.help = "with --vm: the guest's kernel, a bzImage (default $CGSIM_KERNEL, else " \
			"Debian's linux-image-6.12.*-amd64, fetched into ~/.cache/cgsim once)" }, \
	[version] = { .name = "kernel-version", .meta = "SERIES", .words = "7.3 7.2 6.12 6.1", \
		.help = "with --vm: Debian's newest kernel of that series (7.3, 7.2, 6.12, 6.1: " \
			"CFS), or that release (7.3.4), instead; fetched from the host's Debian " \
			"mirror with the suites that carry it (docs/vm.md)" }, \
	[log] = { .name = "log", .meta = "FILE", .files = true, \
		.help = "with --vm: write the guest's console and its command's stderr there" }

struct cli_vm_opts {
	bool vm;
	const char *kernel, *series, *log;
};

/*
 * cli_vm_check() - @cmd's usage error when --live (@live) and --vm are both given, a guest's
 * option without --vm, or two kernels; else -1.
 */
int cli_vm_check(const struct cli_cmd *cmd, const struct cli_vm_opts *o, bool live);

/*
 * cli_vm_run() - find the kernel (@o), boot the guest with @ro's machine and command, wait.
 * @ro->cgroup_mode other than smp on a kernel before 7.3 (which has no cgroup_mode) is
 * refused before the guest boots; smp there needs nothing written. 0 with @r set; else the
 * failure said on stderr and the exit status 2 (a signal: cgsim ends by it, as validate
 * --live does).
 */
int cli_vm_run(const struct cli_vm_opts *o, struct vm_run_opts *ro, struct vm_kernel *k,
	       struct vm_result *r);

/*
 * cli_vm_guest_failed() - whether the guest's command ended with another status than 0 or 1;
 * then its stderr is said as ours.
 */
bool cli_vm_guest_failed(const struct vm_result *r);

/*
 * cli_vm_read_report() - the JSON of validate --live --json (report_live_json()) back into a
 * report. 0, or -EINVAL with a reason.
 */
int cli_vm_read_report(const char *json, struct live_report **out, char *err, size_t errlen);

#endif /* CGSIM_SIM_CLI_CMD_VM_H */
