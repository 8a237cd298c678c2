/* SPDX-License-Identifier: MIT */
/*
 * sim/vm/vm.h - a real kernel under QEMU (`cgsim validate --vm`, `cgroupfs --vm`; docs/vm.md).
 *
 * A guest is booted with the scenario's machine (CPUs, sockets, dies, cores, threads, NUMA
 * nodes and distances: the struct topo_machine the simulated scheduler builds its domains
 * from, scheduler/topology.h) from a small initramfs holding only a static busybox, the
 * guest's init script and the kernel's 9p modules. The init mounts the host's root read-only
 * over 9p, a scratch directory of the host's writable over a second 9p share, and runs THIS
 * cgsim binary, with the host's libraries and files, chrooted into the host's root: the guest
 * measures with exactly the code `validate --live` runs on the host. The command's stdout,
 * stderr and exit status, the guest's kernel version and the scheduling domains it built come
 * back through the scratch directory; the console is read for progress and kept for --log.
 */
#ifndef CGSIM_SIM_VM_H
#define CGSIM_SIM_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scheduler/topology.h"

/* A guest kernel and the 9p modules it needs (none when they are built in). */
struct vm_kernel {
	char image[4096];		/* the bzImage */
	char version[128];		/* from its header: "6.12.117+deb12-amd64" */
	char moddir[4096];		/* its modules' tree (lib/modules/VERSION), "" none found */
};

/* The series fetched when none is named: Debian's linux-image-6.12.*-amd64. */
#define VM_DEFAULT_SERIES "6.12"

/**
 * vm_kernel_find() - the kernel to boot: @file (--kernel, else $CGSIM_KERNEL, given by the
 * caller) when not NULL, else the newest of Debian's kernels of @want (a series "7.3", or a
 * release "7.3.4"; NULL: VM_DEFAULT_SERIES) in the cache ($XDG_CACHE_HOME/cgsim/kernels,
 * else ~/.cache/cgsim/kernels), fetched there when the cache has none: with an apt
 * configuration of its own (the host's mirror, the Debian suites that carry @want, private
 * lists; the host's apt state untouched), apt-get download of linux-image-VERSION, or of
 * linux-binary-VERSION and linux-modules-VERSION where Debian splits it (6.19 and later), and
 * only the image and its 9p modules unpacked. Never touches /boot. Says what it fetches on
 * stderr when @progress. 0, or -ENOENT/-EINVAL with a one-line reason (the mirror cannot be
 * read, no such kernel in its suites, the command that would help) in @err.
 */
int vm_kernel_find(const char *file, const char *series, bool progress, struct vm_kernel *k,
		   char *err, size_t errlen);

/*
 * vm_kernel_at_least() - whether kernel @k's version (its MAJOR.MINOR) is at least
 * @major.@minor; false when it does not start with one.
 */
bool vm_kernel_at_least(const struct vm_kernel *k, unsigned major, unsigned minor);

/*
 * vm_kernel_version() - the version string of the bzImage @path (its setup header's
 * kernel_version) into @out. 0, or -EINVAL when @path is not a bzImage.
 */
int vm_kernel_version(const char *path, char *out, size_t outlen);

/* One scheduling domain of one CPU, as the guest built it. */
struct vm_domain {
	int cpu, level;			/* /sys/kernel/debug/sched/domains/cpuCPU/domainLEVEL */
	char name[16];			/* SMT, CLS, MC, PKG, NUMA */
	char *span;			/* its CPUs as the kernel's log gives them: "0-3", "" unknown */
	char *flags;			/* "SD_BALANCE_NEWIDLE SD_..." */
};

/* What ran in the guest and what came back. */
struct vm_result {
	int status;			/* the guest command's exit status */
	char *out, *errout;		/* its stdout and stderr */
	char kernel[128];		/* the guest's uname -r */
	char cgroup_mode[64];		/* its /sys/kernel/debug/sched/cgroup_mode as it read once
					   set ("up smp (concur) max tasks"), "" without the file */
	char accel[8];			/* "tcg" or "kvm" */
	double boot_s;			/* host seconds from QEMU's start to the command's */
	double total_s;			/* host seconds in all */
	struct vm_domain *domains;	/* by CPU, then level */
	size_t ndomains;
};

struct vm_run_opts {
	const struct vm_kernel *kernel;
	struct topo_machine machine;	/* the guest's hardware: QEMU's -smp and -numa (1 node:
					   no -numa) */
	/* the guest's own options, none of them the hardware's shape */
	unsigned mem_mib;		/* 0: sized from the CPUs and threads */
	unsigned threads_hint;		/* the scenario's threads, for the memory size */
	bool autogroup;			/* false: noautogroup on the command line */
	bool memcg;			/* keep the memory controller (cgroupfs --vm); otherwise
					   cgroup_disable=memory */
	const char *cgroup_mode;	/* written to the kernel's cgroup_mode (7.3 and later)
					   before the command runs ("concur"); NULL: its own */
	const char *const *argv;	/* the cgsim command run in the guest, without "cgsim" */
	size_t argc;
	unsigned timeout_s;		/* the hard limit on the whole guest, boot included */
	const char *log;		/* where the console and the command's stderr go, or NULL */
	bool progress;			/* say on stderr what the guest is doing */
};

/**
 * vm_run() - boot a guest, run cgsim @o->argv in it and power it off (docs/vm.md). 0 with @r
 * set (whatever the command's exit status); -EINVAL with a one-line reason in @err (no QEMU or
 * busybox, with the command that installs it; the guest did not boot, could not mount the
 * host's files, did not take @o->cgroup_mode, or ran out of time); -EINTR when SIGINT, SIGTERM or SIGHUP stopped it
 * (vm_stop_signal()). QEMU and the scratch directory are gone on every path; QEMU dies with
 * cgsim even when cgsim is killed with SIGKILL.
 */
int vm_run(const struct vm_run_opts *o, struct vm_result *r, char *err, size_t errlen);
void vm_result_free(struct vm_result *r);
/* vm_stop_signal() - the signal that stopped the last vm_run() with -EINTR. */
int vm_stop_signal(void);
/*
 * vm_cleanup() - remove the scratch directories ($TMPDIR or /tmp, cgsim-vm-PID-*) of guests
 * whose cgsim is gone (killed with SIGKILL: QEMU died with it), saying each on @log. How many.
 */
int vm_cleanup(FILE *log);

/* A growable argument vector, NULL-terminated. */
struct vm_argv {
	char **v;
	size_t n, cap;
};
int vm_argv_add(struct vm_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vm_argv_free(struct vm_argv *a);

/*
 * vm_machine_qemu_args() - QEMU's -m (@mem_mib MiB, split evenly over the nodes), -smp and
 * -numa arguments for machine @m, added to @a. 0 or -ENOMEM.
 */
int vm_machine_qemu_args(const struct topo_machine *m, unsigned mem_mib, struct vm_argv *a);
/*
 * vm_machine_mem_mib() - the memory of @o's guest in MiB: @o->mem_mib, else sized from its
 * machine and @o->threads_hint.
 */
unsigned vm_machine_mem_mib(const struct vm_run_opts *o);

/*
 * vm_domains_parse() - the domains from the guest's listing @listing (lines "CPU LEVEL NAME
 * FLAGS...") with the spans from its kernel log @dmesg (sched_verbose's "CPUn attaching
 * sched-domain(s):" blocks). 0 or -ENOMEM.
 */
int vm_domains_parse(const char *listing, const char *dmesg, struct vm_domain **out, size_t *n);
void vm_domains_free(struct vm_domain *d, size_t n);

/*
 * vm_kvm_usable() - whether /dev/kvm can run a guest here: it opens, answers its API version
 * and the host CPU has vmx or svm (a nested host without them fails at the first instruction).
 * When not, a note on why into @why (empty when there is no /dev/kvm at all).
 */
bool vm_kvm_usable(char *why, size_t whylen);

#endif /* CGSIM_SIM_VM_H */
