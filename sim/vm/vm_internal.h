/* SPDX-License-Identifier: MIT */
/*
 * sim/vm/vm_internal.h - what the files of sim/vm share and nothing else includes.
 */
#ifndef CGSIM_SIM_VM_INTERNAL_H
#define CGSIM_SIM_VM_INTERNAL_H

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

/*
 * vm__initrd_write() - the initramfs at @path: a static busybox (@busybox), the modules the
 * guest needs to mount 9p from @k, and an init that mounts the shares and runs @bin with
 * @argv (@argc) chrooted into the host's root, in @cwd, its output into @share (the scratch
 * directory, host path). 0, or a negative errno with a reason in @err.
 */
int vm__initrd_write(const char *path, const char *busybox, const struct vm_kernel *k,
		     const char *share, const char *cwd, const char *bin,
		     const char *const *argv, size_t argc, char *err, size_t errlen);

#endif /* CGSIM_SIM_VM_INTERNAL_H */
