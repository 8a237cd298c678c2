/* SPDX-License-Identifier: MIT */
/*
 * sim/vm/vm_internal.h - what the files of sim/vm share and nothing else includes.
 */
#ifndef CGSIM_SIM_VM_INTERNAL_H
#define CGSIM_SIM_VM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/vm/vm.h"

/* The 9p shares' tags: the host's root (read-only) and the scratch directory (writable). */
#define VM_TAG_HOST "cgsimhost"
#define VM_TAG_OUT "cgsimout"
/* The console lines the guest's init writes for the host: "cgsim-vm: WORD". */
#define VM_MARK "cgsim-vm: "
/*
 * Boots of one guest at most when its kernel stops at a stray int3 (docs/vm.md, "A guest that
 * stops at int3"): 4 of 31 boots of an 8-vCPU guest under QEMU 7.2's multi-threaded TCG.
 */
#define VM_BOOTS 4

/* The Debian mirror and keyring taken when the host's apt sources name none. */
#define VM_DEBIAN_MIRROR "http://deb.debian.org/debian"
#define VM_DEBIAN_KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"

/* Where Debian's kernels are fetched from. */
struct vm_mirror {
	char uri[512];		/* the archive: "http://deb.debian.org/debian" */
	char security[512];	/* its security suites: "http://deb.debian.org/debian-security" */
	char keyring[1024];	/* what signs them */
};

/*
 * vm__apt_mirror() - the Debian mirror of the host's apt sources under @etc ("/etc/apt":
 * sources.list and sources.list.d/, one-line *.list and deb822 *.sources files): the URI of
 * its first source of a Debian suite, of its first -security suite, and their Signed-By
 * keyring; VM_DEBIAN_MIRROR, its sibling debian-security and VM_DEBIAN_KEYRING for what it
 * does not name. $CGSIM_DEBIAN_MIRROR, when set, is the archive (and ITS-security the
 * security suites'). 0.
 */
int vm__apt_mirror(const char *etc, struct vm_mirror *m);
/*
 * vm__kernel_want_parse() - the MAJOR.MINOR or MAJOR.MINOR.PATCH of --kernel-version @s;
 * 0, or -EINVAL.
 */
int vm__kernel_want_parse(const char *s, unsigned *major, unsigned *minor);
/*
 * vm__kernel_match() - whether Debian's kernel version @v (a package's: "7.3.4+deb13-amd64",
 * "6.1.0-57-amd64") is one of @want: a series ("7.3": the series, '.' or '-' and a digit) or
 * a release ("7.3.4": then '+' or '-'), of flavour amd64 (not the meta-package "7.3-amd64",
 * nor -cloud-, which lacks NUMA and SMT scheduling, -rt-, -dbg or -unsigned).
 */
bool vm__kernel_match(const char *v, const char *want);

/* mkdir -p @path (mode 0755); 0 or -1 with errno. */
int vm__mkdirs(const char *path);
/* rm -rf @path, not following symbolic links; errors are ignored. */
void vm__remove_tree(const char *path);
/*
 * vm__capture() - run @argv (found in the PATH) in @cwd (NULL: here) with stdin from
 * /dev/null, its stdout and stderr into *@out (malloc'ed, NUL-terminated, may be NULL) and
 * their length into *@outlen (when not NULL). Its exit status, 127
 * when it could not be run, 128 + N when killed by signal N, or a negative errno.
 */
int vm__capture(const char *const *argv, const char *cwd, char **out, size_t *outlen);
/* vm__slurp() - the file @path (at most @max bytes) NUL-terminated into *@out; 0 or -errno. */
int vm__slurp(const char *path, size_t max, char **out);
/* vm__path() - a path printed by @fmt into @out; 0, or -ENAMETOOLONG when it does not fit. */
int vm__path(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* vm__which() - @name's path in the PATH into @out; 0 or -ENOENT. */
int vm__which(const char *name, char *out, size_t outlen);

/* Linux 7.3's cgroup_mode, below debugfs's mount point */
#define VM_CGROUP_MODE_FILE "sched/cgroup_mode"

/*
 * vm__initrd_write() - the initramfs at @path: a static busybox (@busybox), the modules the
 * guest needs to mount 9p from @k, and an init that mounts the shares, writes @cgroup_mode
 * (NULL: none) to the kernel's cgroup_mode where it has the file and copies what the file
 * then reads to the scratch directory's "cgroup_mode", and runs @bin with @argv (@argc)
 * chrooted into the host's root, in @cwd, its output into @share (the scratch directory, host
 * path). 0, or a negative errno with a reason in @err.
 */
int vm__initrd_write(const char *path, const char *busybox, const struct vm_kernel *k,
		     const char *cgroup_mode, const char *share, const char *cwd, const char *bin,
		     const char *const *argv, size_t argc, char *err, size_t errlen);

#endif /* CGSIM_SIM_VM_INTERNAL_H */
