// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_kernel.c - the guest's kernel: a bzImage given, or Debian's package fetched into
 * the user's cache (sim/vm/vm.h, docs/vm.md).
 *
 * Only the image and the modules that mount the host's files (9p over virtio and what they
 * depend on) are unpacked, about 12 MB of the package's 107: the cache holds
 * kernels/VERSION/boot/vmlinuz-VERSION and kernels/VERSION/lib/modules/VERSION/kernel/..., the
 * package's own layout, so that a tree unpacked whole with `dpkg-deb -x` is used the same way.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm.h"
#include "sim/vm/vm_internal.h"

int vm_kernel_version(const char *path, char *out, size_t outlen)
{
	unsigned char hdr[0x8000];
	ssize_t n;
	size_t off;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, hdr, sizeof(hdr));
	close(fd);
	/* the x86 boot protocol: "HdrS" at 0x202; kernel_version at 0x20e, from 0x200 */
	if (n < 0x210 || memcmp(hdr + 0x202, "HdrS", 4))
		return -EINVAL;
	off = 0x200u + (size_t)(hdr[0x20e] | hdr[0x20f] << 8);
	if (off == 0x200 || off >= (size_t)n)
		return -EINVAL;
	/* "6.12.117+deb12-amd64 (debian-kernel@...) #1 SMP ...": the first word */
	for (n = 0; (size_t)n + 1 < outlen && off + (size_t)n < sizeof(hdr); n++) {
		unsigned char c = hdr[off + (size_t)n];

		if (c <= ' ' || c > '~')
			break;
		out[n] = (char)c;
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

/* Whether @path is a directory. */
static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The modules' tree of kernel @k: beside the image when it sits in a package's layout
 * (ROOT/boot/vmlinuz-V, ROOT/lib/modules/V), else the host's /lib/modules/V (the kernel the
 * host runs, or one installed), else none.
 */
static void find_moddir(struct vm_kernel *k)
{
	char root[4096];
	char *slash;

	snprintf(root, sizeof(root), "%s", k->image);
	slash = strrchr(root, '/');
	if (slash) {
		*slash = '\0';
		slash = strrchr(root, '/');
	}
	k->moddir[0] = '\0';
	if (slash && !strcmp(slash, "/boot")) {
		*slash = '\0';
		if (!vm__path(k->moddir, sizeof(k->moddir), "%s/lib/modules/%s", root,
			      k->version) && is_dir(k->moddir))
			return;
	}
	if (vm__path(k->moddir, sizeof(k->moddir), "/lib/modules/%s", k->version) ||
	    !is_dir(k->moddir))
		k->moddir[0] = '\0';
}

static int use_file(const char *file, struct vm_kernel *k, char *err, size_t errlen)
{
	int e;

	if (access(file, R_OK)) {
		e = -errno;
		snprintf(err, errlen, "cgsim: the guest kernel %s: %s", file, strerror(-e));
		return e;
	}
	if (vm_kernel_version(file, k->version, sizeof(k->version))) {
		snprintf(err, errlen, "cgsim: the guest kernel %s is not an x86 bzImage (a vmlinuz "
			 "as /boot holds it)", file);
		return -EINVAL;
	}
	snprintf(k->image, sizeof(k->image), "%s", file);
	find_moddir(k);
	return 0;
}

/* Versions compared as people read them: digit runs as numbers ("6.12.9" < "6.12.117"). */
static int version_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/*
 * Whether @v is a version of @series' flavour amd64: the series, then '.' or '-' and a digit,
 * and "-amd64" at the end ("6.12.117+deb12-amd64", "6.1.0-57-amd64"; not "6.12-amd64", the
 * meta-package, nor "6.12.117+deb12-cloud-amd64", which lacks NUMA and SMT scheduling).
 */
static bool series_match(const char *v, const char *series)
{
	size_t n = strlen(series), len = strlen(v);

	if (strncmp(v, series, n) || (v[n] != '.' && v[n] != '-') || v[n + 1] < '0' ||
	    v[n + 1] > '9' || len < 6 || strcmp(v + len - 6, "-amd64"))
		return false;
	return !strstr(v, "-cloud-") && !strstr(v, "-rt-") && !strstr(v, "-dbg") &&
	       !strstr(v, "-unsigned");
}

/* The cache's directory of kernels, made if missing. */
static int cache_dir(char *out, size_t len, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char base[4096];

	if (xdg && *xdg == '/')
		snprintf(base, sizeof(base), "%s/cgsim", xdg);
	else if (home && *home)
		snprintf(base, sizeof(base), "%s/.cache/cgsim", home);
	else {
		snprintf(err, errlen, "cgsim: no cache directory for the guest kernel (set "
			 "XDG_CACHE_HOME or HOME, or give --kernel FILE)");
		return -ENOENT;
	}
	if (vm__path(out, len, "%s/kernels", base) || vm__mkdirs(out)) {
		snprintf(err, errlen, "cgsim: cannot make %s: %s", out, strerror(errno));
		return -errno;
	}
	return 0;
}

/* The newest kernel of @series in the cache @dir into @k; false when there is none. */
static bool newest_cached(const char *dir, const char *series, struct vm_kernel *k)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char best[128] = "", image[4096];

	if (!d)
		return false;
	while ((de = readdir(d)))
		if (strlen(de->d_name) < sizeof(best) && series_match(de->d_name, series) &&
		    (!best[0] || version_cmp(de->d_name, best) > 0)) {
			if (!vm__path(image, sizeof(image), "%s/%s/boot/vmlinuz-%s", dir,
				      de->d_name, de->d_name) && !access(image, R_OK))
				vm__path(best, sizeof(best), "%s", de->d_name);
		}
	closedir(d);
	if (!best[0])
		return false;
	return !vm__path(k->image, sizeof(k->image), "%s/%s/boot/vmlinuz-%s", dir, best, best) &&
	       !vm_kernel_version(k->image, k->version, sizeof(k->version));
}

/* The newest package linux-image-VERSION of @series apt knows, its VERSION into @out. */
static int newest_package(const char *series, char *out, size_t outlen, char *err,
			  size_t errlen)
{
	const char *argv[] = { "apt-cache", "pkgnames", "linux-image-", NULL };
	char *text = NULL, *line, *save = NULL;
	int st = vm__capture(argv, NULL, &text, NULL);

	if (st < 0 || st == 127) {
		free(text);
		snprintf(err, errlen, "cgsim: no guest kernel in the cache and no apt-cache to fetch "
			 "one (give --kernel FILE, a bzImage)");
		return -ENOENT;
	}
	out[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *v = line + strlen("linux-image-");

		if (!strncmp(line, "linux-image-", 12) && strlen(v) < outlen &&
		    series_match(v, series) && (!out[0] || version_cmp(v, out) > 0))
			snprintf(out, outlen, "%s", v);
	}
	free(text);
	if (!out[0]) {
		snprintf(err, errlen, "cgsim: apt knows no package linux-image-%s.*-amd64 (run "
			 "apt-get update; or give --kernel FILE, a bzImage)", series);
		return -ENOENT;
	}
	return 0;
}

/* Run @argv in @cwd: 0, or -ENOENT said as "@what @pkg failed: ITS LAST WORDS". */
static int step(const char *const *argv, const char *cwd, const char *what, const char *pkg,
		char *err, size_t errlen)
{
	char *msg = NULL;
	int st = vm__capture(argv, cwd, &msg, NULL);

	if (st && msg)
		util_one_line(msg, strlen(msg) + 1);
	if (st)
		snprintf(err, errlen, "cgsim: %s %s failed%s%.300s", what, pkg,
			 msg && *msg ? ": " : "", msg ? msg : "");
	free(msg);
	return st ? -ENOENT : 0;
}

/*
 * apt-get download the package of kernel @v into @tmp and unpack what a guest needs: the
 * image, and the directories of 9p, its transport over virtio and what they may depend on
 * (netfs; fscache before 6.4 merged it into netfs; virtio and its PCI transport, modules in
 * Debian's 6.1 and built in since). Listed first, then extracted by name: tar
 * fails on a pattern that matches nothing, and which of them exist depends on the version.
 */
static int fetch(const char *tmp, const char *v, char *err, size_t errlen)
{
	char pkg[160];
	const char *dl[] = { "apt-get", "download", "-q", pkg, NULL };
	const char *unpack[] = {
		"/bin/sh", "-c",
		"set -e; deb=$(ls ./*.deb); mkdir unpacked; "
		"dpkg-deb --fsys-tarfile \"$deb\" | tar -t | "
		"grep -E '^\\./boot/vmlinuz-|/kernel/(fs/(9p|netfs|fscache)|net/9p|drivers/virtio)/.' > list; "
		"dpkg-deb --fsys-tarfile \"$deb\" | tar -x -C unpacked -T list; rm -f \"$deb\"",
		NULL
	};

	snprintf(pkg, sizeof(pkg), "linux-image-%s", v);
	if (step(dl, tmp, "apt-get download", pkg, err, errlen))
		return -ENOENT;
	return step(unpack, tmp, "dpkg-deb unpacking", pkg, err, errlen);
}

static int fetch_into_cache(const char *dir, const char *series, bool progress,
			    struct vm_kernel *k, char *err, size_t errlen)
{
	char v[128], tmp[4096], from[4096], to[4096];
	int e = newest_package(series, v, sizeof(v), err, errlen);

	if (e)
		return e;
	if (vm__path(tmp, sizeof(tmp), "%s/.fetch-%ld", dir, (long)getpid()) ||
	    vm__path(from, sizeof(from), "%s/unpacked", tmp) ||
	    vm__path(to, sizeof(to), "%s/%s", dir, v)) {
		snprintf(err, errlen, "cgsim: the cache directory's path %s is too long", dir);
		return -ENAMETOOLONG;
	}
	vm__remove_tree(tmp);
	if (mkdir(tmp, 0755)) {
		snprintf(err, errlen, "cgsim: cannot make %s: %s", tmp, strerror(errno));
		return -errno;
	}
	if (progress)
		fprintf(stderr, "cgsim: fetching the guest kernel linux-image-%s (about 110 MB) "
			"into %s\n", v, dir);
	e = fetch(tmp, v, err, errlen);
	if (!e && rename(from, to) && errno != EEXIST && errno != ENOTEMPTY) {
		snprintf(err, errlen, "cgsim: cannot move the kernel into %s: %s", to,
			 strerror(errno));
		e = -errno;
	}
	vm__remove_tree(tmp);
	if (e)
		return e;
	if (vm__path(k->image, sizeof(k->image), "%s/boot/vmlinuz-%s", to, v) ||
	    vm_kernel_version(k->image, k->version, sizeof(k->version))) {
		snprintf(err, errlen, "cgsim: %s is not a bzImage", k->image);
		return -EINVAL;
	}
	return 0;
}

int vm_kernel_find(const char *file, const char *series, bool progress, struct vm_kernel *k,
		   char *err, size_t errlen)
{
	char dir[4096];
	int e;

	memset(k, 0, sizeof(*k));
	if (file)
		return use_file(file, k, err, errlen);
	if (!series)
		series = VM_DEFAULT_SERIES;
	if ((e = cache_dir(dir, sizeof(dir), err, errlen)))
		return e;
	if (!newest_cached(dir, series, k) &&
	    (e = fetch_into_cache(dir, series, progress, k, err, errlen)))
		return e;
	find_moddir(k);
	return 0;
}
