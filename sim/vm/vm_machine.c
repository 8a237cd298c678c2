// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_machine.c - the guest's hardware in QEMU's words: memory, -smp, -numa; whether KVM
 * can be used (sim/vm/vm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm.h"

int vm_argv_add(struct vm_argv *a, const char *fmt, ...)
{
	va_list ap;
	char buf[4400], *s;
	int n;

	if (util_grow((void **)&a->v, &a->cap, a->n + 2, sizeof(*a->v)))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);	/* paths are at most 4096 */
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf) || !(s = strdup(buf)))
		return -ENOMEM;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

void vm_argv_free(struct vm_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/*
 * The memory: 256 MiB for the kernel and the page cache of the host's files the guest reads,
 * 24 MiB per CPU (per-CPU areas, runqueues, the stacks of per-CPU kernel threads; 64 vCPUs did
 * not boot in 1 GiB) and 1 MiB per scenario thread (stacks, the helper processes), rounded up
 * to a multiple of 64 MiB per node, as the nodes' memory must add up to -m exactly.
 */
unsigned vm_machine_mem_mib(const struct vm_run_opts *o)
{
	const struct topo_machine *m = &o->machine;
	unsigned nodes = m->nodes > 1 ? (unsigned)m->nodes : 1, unit = 64 * nodes;
	unsigned mib = o->mem_mib ? o->mem_mib :
		       256 + 24 * (unsigned)m->cpus + (o->threads_hint < 4096 ? o->threads_hint :
						       4096);

	if (mib < 512)
		mib = 512;
	return (mib + unit - 1) / unit * unit;
}

int vm_machine_qemu_args(const struct topo_machine *m, unsigned mib, struct vm_argv *a)
{
	int e = vm_argv_add(a, "-m") || vm_argv_add(a, "%uM", mib) || vm_argv_add(a, "-smp") ||
		vm_argv_add(a, "%d,sockets=%d,dies=%d,cores=%d,threads=%d", m->cpus, m->sockets,
			    m->dies, m->cores, m->threads);

	if (e || m->nodes <= 1)
		return e ? -ENOMEM : 0;
	for (int i = 0; i < m->nodes; i++) {
		int per = m->cpus / m->nodes;

		if (vm_argv_add(a, "-object") ||
		    vm_argv_add(a, "memory-backend-ram,size=%uM,id=cgsim-m%d", mib / (unsigned)m->nodes,
				i) ||
		    vm_argv_add(a, "-numa") ||
		    vm_argv_add(a, "node,nodeid=%d,cpus=%d-%d,memdev=cgsim-m%d", i, i * per,
				(i + 1) * per - 1, i))
			return -ENOMEM;
	}
	/* QEMU takes the table as symmetric when only one direction of a pair is given */
	for (int i = 0; i < m->nodes; i++)
		for (int j = i + 1; j < m->nodes; j++)
			if (vm_argv_add(a, "-numa") ||
			    vm_argv_add(a, "dist,src=%d,dst=%d,val=%u", i, j,
					m->distance ? m->distance[i * m->nodes + j] : 20u))
				return -ENOMEM;
	return 0;
}

/* /dev/kvm's ioctls (linux/kvm.h: _IO(0xAE, 0x00) and _IO(0xAE, 0x01)). */
#define VM_KVM_GET_API_VERSION 0xAE00
#define VM_KVM_CREATE_VM 0xAE01

bool vm_kvm_usable(char *why, size_t whylen)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm;
	char *cpuinfo = NULL;
	FILE *f;
	size_t len;
	bool virt = false;

	why[0] = '\0';
	if (fd < 0) {
		if (errno != ENOENT)
			snprintf(why, whylen, "/dev/kvm cannot be opened (%s)", strerror(errno));
		return false;
	}
	if (ioctl(fd, VM_KVM_GET_API_VERSION, 0) != 12) {
		snprintf(why, whylen, "/dev/kvm does not answer as KVM does");
		close(fd);
		return false;
	}
	f = fopen("/proc/cpuinfo", "r");
	if (f && !util_read_stream(f, 16u << 20, &cpuinfo, &len))
		virt = strstr(cpuinfo, " vmx") || strstr(cpuinfo, " svm");
	if (f)
		fclose(f);
	free(cpuinfo);
	/* a nested host can offer /dev/kvm without them: its guests die at once */
	if (!virt) {
		snprintf(why, whylen, "/dev/kvm is there but this CPU has no vmx or svm "
			 "(virtualisation not passed through)");
		close(fd);
		return false;
	}
	vm = ioctl(fd, VM_KVM_CREATE_VM, 0);
	if (vm < 0)
		snprintf(why, whylen, "/dev/kvm refuses to make a guest (%s)", strerror(errno));
	else
		close(vm);
	close(fd);
	return vm >= 0;
}
