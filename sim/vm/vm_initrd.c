// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_initrd.c - the guest's initramfs: a static busybox, the 9p modules and the init
 * script (sim/vm/vm.h, docs/vm.md).
 *
 * Written as a cpio archive in the "newc" format the kernel unpacks (its
 * Documentation/driver-api/early-userspace/buffer-format.rst): per entry a 110-byte header of
 * "070701" and 13 eight-digit hex fields, the NUL-terminated name padded to a multiple of 4
 * bytes with the header, the data padded to 4; "TRAILER!!!" ends it. Every time stamp is 0,
 * so the same inputs give the same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm_internal.h"

#define MAX_MODULES 24

struct cpio {
	FILE *f;
	unsigned ino;
};

static void cpio_entry(struct cpio *c, const char *name, unsigned mode, unsigned rdev_major,
		       unsigned rdev_minor, const void *data, size_t len)
{
	static const char zero[4];
	size_t namesize = strlen(name) + 1;

	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ++c->ino,
		mode, 0u, 0u, (mode & 0170000) == 0040000 ? 2u : 1u, 0u, (unsigned)len, 0u, 0u,
		rdev_major, rdev_minor, (unsigned)namesize, 0u);
	fwrite(name, 1, namesize, c->f);
	fwrite(zero, 1, (4 - (110 + namesize) % 4) % 4, c->f);
	if (len)
		fwrite(data, 1, len, c->f);
	fwrite(zero, 1, (4 - len % 4) % 4, c->f);
}

/* Whether the ELF file @buf (@len bytes) has no program interpreter: a static program. */
static bool elf_static(const unsigned char *buf, size_t len)
{
	unsigned long long phoff;
	unsigned phentsize, phnum;

	if (len < 64 || memcmp(buf, "\177ELF", 4) || buf[4] != 2 || buf[5] != 1)
		return false;	/* 64-bit little-endian only: an x86-64 guest */
	memcpy(&phoff, buf + 32, 8);
	phentsize = buf[54] | buf[55] << 8;
	phnum = buf[56] | buf[57] << 8;
	for (unsigned i = 0; i < phnum; i++) {
		unsigned long long at = phoff + (unsigned long long)i * phentsize;
		unsigned type;

		if (at + 4 > len)
			return false;
		memcpy(&type, buf + at, 4);
		if (type == 3)	/* PT_INTERP */
			return false;
	}
	return true;
}

/* A module of the guest's kernel, its file's contents (decompressed). */
struct module {
	char name[64];
	unsigned char *data;
	size_t len;
};

struct modset {
	const char *moddir;
	struct module mod[MAX_MODULES];
	size_t n;
};

/* Find NAME.ko[.xz|.zst] below @dir into @out; 0 or -ENOENT. */
static int find_module(const char *dir, const char *name, char *out, size_t outlen, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = strlen(name);
	int e = -ENOENT;

	if (!d || depth > 8) {
		if (d)
			closedir(d);
		return -ENOENT;
	}
	while (e && (de = readdir(d))) {
		const char *s = de->d_name;
		char sub[4096];
		struct stat st;

		if (s[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, s);
		if (!strncmp(s, name, n) && (!strcmp(s + n, ".ko") || !strcmp(s + n, ".ko.xz") ||
					     !strcmp(s + n, ".ko.zst"))) {
			snprintf(out, outlen, "%s", sub);
			e = 0;
		} else if (!lstat(sub, &st) && S_ISDIR(st.st_mode)) {
			e = find_module(sub, name, out, outlen, depth + 1);
		}
	}
	closedir(d);
	return e;
}

/* The file @path's contents, decompressed with xz or zstd by its name. */
static int read_module(const char *path, unsigned char **data, size_t *len, char *err,
		       size_t errlen)
{
	size_t n = strlen(path);
	const char *tool = n > 3 && !strcmp(path + n - 3, ".xz") ? "xz" :
			   n > 4 && !strcmp(path + n - 4, ".zst") ? "zstd" : NULL;
	char *buf = NULL;
	int e;

	if (!tool) {
		FILE *f = fopen(path, "rb");

		e = f ? util_read_stream(f, 64u << 20, &buf, len) : -errno;
		if (f)
			fclose(f);
	} else {
		const char *argv[] = { tool, "-dc", path, NULL };

		e = vm__capture(argv, NULL, &buf, len);
		e = e == 127 ? -ENOENT : e ? -EINVAL : 0;
	}
	if (e) {
		free(buf);
		snprintf(err, errlen, "cgsim: cannot read the guest's module %s%s%s", path,
			 tool ? " with " : "", tool ? tool : "");
		return e < 0 ? e : -EINVAL;
	}
	*data = (unsigned char *)buf;
	return 0;
}

/* The names after "depends=" in the module's .modinfo, comma-separated, into @out. */
static void module_depends(const struct module *m, char *out, size_t outlen)
{
	static const char key[] = "depends=";

	out[0] = '\0';
	for (size_t i = 1; i + sizeof(key) < m->len; i++)
		if (!m->data[i - 1] && !memcmp(m->data + i, key, sizeof(key) - 1)) {
			snprintf(out, outlen, "%.*s", (int)strnlen((const char *)m->data + i +
								   sizeof(key) - 1,
								   m->len - i - sizeof(key) + 1),
				 (const char *)m->data + i + sizeof(key) - 1);
			return;
		}
}

/*
 * Add module @name after the modules it depends on (depth first, so @s->mod is an order
 * insmod accepts). A module without a file is taken as built into the kernel.
 */
static int add_module(struct modset *s, const char *name, int depth, char *err, size_t errlen)
{
	char path[4096], deps[512], *save = NULL;
	struct module m = { .data = NULL };
	int e;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->mod[i].name, name))
			return 0;
	if (depth > 8 || s->n == MAX_MODULES)
		return 0;
	if (find_module(s->moddir, name, path, sizeof(path), 0)) {
		/* file names use '_' where module names may say '-' */
		char alt[64];

		snprintf(alt, sizeof(alt), "%s", name);
		for (char *p = alt; *p; p++)
			*p = *p == '-' ? '_' : *p;
		if (!strcmp(alt, name) || find_module(s->moddir, alt, path, sizeof(path), 0))
			return 0;
	}
	if ((e = read_module(path, &m.data, &m.len, err, errlen)))
		return e;
	snprintf(m.name, sizeof(m.name), "%s", name);
	module_depends(&m, deps, sizeof(deps));
	for (char *d = strtok_r(deps, ",", &save); d; d = strtok_r(NULL, ",", &save))
		if ((e = add_module(s, d, depth + 1, err, errlen))) {
			free(m.data);
			return e;
		}
	s->mod[s->n++] = m;
	return 0;
}

/* @s single-quoted for sh into @f. */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/*
 * The init: mount what the command needs, run it chrooted into the host's root, report, power
 * off. Every step that can fail says so on the console (VM_MARK lines), which the host reads.
 */
static void write_init(FILE *f, const struct modset *s, const char *cgroup_mode,
		       const char *share, const char *cwd, const char *bin,
		       const char *const *argv, size_t argc)
{
	fputs("#!/bin/busybox sh\n"
	      "# cgsim's guest init (docs/vm.md): written for one run, by the host.\n"
	      "B=/bin/busybox\n"
	      "say() { $B echo \"" VM_MARK "$*\"; }\n"
	      "off() { $B sync; $B poweroff -f; }\n"
	      "$B mkdir -p /proc /sys /dev /host\n"
	      "$B mount -t proc proc /proc\n"
	      "$B mount -t devtmpfs dev /dev 2>/dev/null\n", f);
	for (size_t i = 0; i < s->n; i++)
		fprintf(f, "$B insmod /lib/%s.ko || say insmod-failed %s\n", s->mod[i].name,
			s->mod[i].name);
	fputs("O=trans=virtio,version=9p2000.L,msize=262144\n"
	      "$B mount -t 9p -o $O,ro " VM_TAG_HOST " /host || { say no-9p; off; }\n"
	      "H=/host\n"
	      "S=", f);
	sh_quote(f, share);
	fputs("\n$B mkdir -p \"$H$S\" 2>/dev/null\n"
	      "$B mount -t 9p -o $O " VM_TAG_OUT " \"$H$S\" || { say no-share; off; }\n"
	      "$B mount -t proc proc $H/proc\n"
	      "$B mount -t sysfs sys $H/sys\n"
	      "$B mount -t cgroup2 cgroup2 $H/sys/fs/cgroup\n"
	      "$B mount -t debugfs debugfs $H/sys/kernel/debug\n"
	      "$B mount -t devtmpfs dev $H/dev\n"
	      /*
	       * Linux 7.3's cgroup_mode, set before the command makes its layout, and read back
	       * as the kernel has it (the command reads it again for its simulation)
	       */
	      "M=$H/sys/kernel/debug/" VM_CGROUP_MODE_FILE "\n", f);
	if (cgroup_mode) {
		fputs("if [ -f $M ]; then $B echo ", f);
		sh_quote(f, cgroup_mode);
		fputs(" > $M || say cgroup-mode-refused; fi\n", f);
	}
	fputs("[ -f $M ] && $B cat $M > \"$H$S/cgroup_mode\"\n"
	      /* the host's /tmp stays visible (scenarios may be there); scratch files go to /run */
	      "$B mount -t tmpfs run $H/run && $B mkdir -p $H/run/cgsim-tmp\n"
	      "$B uname -r > \"$H$S/kernel\"\n"
	      "for d in $H/sys/kernel/debug/sched/domains/cpu*/domain*; do\n"
	      "  [ -f \"$d/name\" ] || continue\n"
	      "  c=${d%/domain*}; c=${c##*/cpu}; l=${d##*/domain}\n"
	      "  $B echo \"$c $l $($B cat $d/name) $($B cat $d/flags)\"\n"
	      "done > \"$H$S/domains\"\n"
	      "$B dmesg > \"$H$S/dmesg\"\n"
	      "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "
	      "TMPDIR=/run/cgsim-tmp CGSIM_VM_GUEST=1\n"
	      "say run\n"
	      "$B chroot $H /bin/sh -c 'cd \"$1\" && shift && exec \"$@\"' sh ", f);
	sh_quote(f, cwd);
	fputc(' ', f);
	sh_quote(f, bin);
	for (size_t i = 0; i < argc; i++) {
		fputc(' ', f);
		sh_quote(f, argv[i]);
	}
	fputs(" > \"$H$S/out\" 2> \"$H$S/err\"\n"
	      "$B echo $? > \"$H$S/status\"\n"
	      "say done\n"
	      "off\n", f);
}

int vm__initrd_write(const char *path, const char *busybox, const struct vm_kernel *k,
		     const char *cgroup_mode, const char *share, const char *cwd, const char *bin,
		     const char *const *argv, size_t argc, char *err, size_t errlen)
{
	struct modset s = { .moddir = k->moddir };
	struct cpio c = { .f = NULL };
	char *bb = NULL, *init = NULL;
	size_t bblen = 0, initlen = 0;
	FILE *bf = fopen(busybox, "rb"), *mf;
	int e = bf ? util_read_stream(bf, 64u << 20, &bb, &bblen) : -errno;

	if (bf)
		fclose(bf);
	if (e || !elf_static((unsigned char *)bb, bblen)) {
		snprintf(err, errlen, "cgsim: %s is not a static busybox (apt-get install "
			 "busybox-static)", busybox);
		free(bb);
		return -EINVAL;
	}
	e = 0;
	/* the PCI transport first (no module names it in depends=), then 9p over it */
	for (size_t i = 0; k->moddir[0] && i < 3 && !e; i++)
		e = add_module(&s, (const char *[]){ "virtio_pci", "9pnet_virtio", "9p" }[i], 0,
			       err, errlen);
	mf = e ? NULL : open_memstream(&init, &initlen);
	if (!e && mf) {
		write_init(mf, &s, cgroup_mode, share, cwd, bin, argv, argc);
		if (fclose(mf))
			e = -ENOMEM;
	} else if (!e) {
		e = -ENOMEM;
	}
	if (!e && !(c.f = fopen(path, "wb")))
		e = -errno;
	if (!e) {
		static const char *const dirs[] = { "bin", "dev", "lib", "proc", "sys", "host" };

		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
			cpio_entry(&c, dirs[i], 0040755, 0, 0, NULL, 0);
		cpio_entry(&c, "dev/console", 0020600, 5, 1, NULL, 0);
		cpio_entry(&c, "bin/busybox", 0100755, 0, 0, bb, bblen);
		for (size_t i = 0; i < s.n; i++) {
			char name[96];

			snprintf(name, sizeof(name), "lib/%s.ko", s.mod[i].name);
			cpio_entry(&c, name, 0100644, 0, 0, s.mod[i].data, s.mod[i].len);
		}
		cpio_entry(&c, "init", 0100755, 0, 0, init, initlen);
		cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
		if (ferror(c.f) | fclose(c.f))
			e = -EIO;
		if (e)
			snprintf(err, errlen, "cgsim: cannot write the guest's initramfs %s", path);
	} else if (e != -ENOMEM && !err[0]) {
		snprintf(err, errlen, "cgsim: cannot write the guest's initramfs %s: %s", path,
			 strerror(-e));
	}
	for (size_t i = 0; i < s.n; i++)
		free(s.mod[i].data);
	free(bb);
	free(init);
	return e;
}
