// SPDX-License-Identifier: MIT
/*
 * sim/live/live_kernel.c - the kernel validate --live measures: its release, the version the
 * simulation models for it, and its cgroup_mode (Linux 7.3's
 * /sys/kernel/debug/sched/cgroup_mode), read without disturbing the host (docs/live.md).
 *
 * debugfs is read where it is mounted. Where it is not, it is mounted in a mount namespace of a
 * child's own, on a copy of the host's mounts made private first: the host's mount table never
 * sees it, and nothing the host had mounted is ever unmounted.
 */
#define _GNU_SOURCE	/* unshare(), CLONE_NEWNS, pipe2() */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/live/live_internal.h"

/* MAJOR.MINOR[.PATCH] at the start of @s into @out; the characters read, or 0. */
static size_t version_at(const char *s, struct sched_kernel *out)
{
	unsigned long v[3] = { 0, 0, 0 };
	const char *p = s;
	int n = 0;

	while (n < 3 && *p >= '0' && *p <= '9') {
		char *end;

		v[n++] = strtoul(p, &end, 10);
		if (v[n - 1] > UINT16_MAX)
			return 0;
		p = end;
		if (n == 3 || *p != '.' || p[1] < '0' || p[1] > '9')
			break;
		p++;
	}
	if (n < 2)
		return 0;
	*out = (struct sched_kernel){ (uint16_t)v[0], (uint16_t)v[1], (uint16_t)v[2] };
	return (size_t)(p - s);
}

int live_kernel_version_parse(const char *release, const char *version, struct sched_kernel *out)
{
	struct sched_kernel k, deb;
	const char *d;

	if (!version_at(release, &k))
		return -EINVAL;
	/*
	 * Debian's 6.1 names its ABI, not its release ("6.1.0-57-amd64"); uname -v has the
	 * package's version: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-20)".
	 */
	if (version && (d = strstr(version, "Debian ")) && version_at(d + 7, &deb) &&
	    deb.major == k.major && deb.minor == k.minor && deb.patch > k.patch)
		k.patch = deb.patch;
	*out = k;
	return 0;
}

int live_cgroup_mode_parse(const char *text, enum sched_cgroup_mode *out)
{
	const char *open = strchr(text, '('), *close = open ? strchr(open, ')') : NULL;
	char name[16];

	if (!close || close - open - 1 <= 0 || close - open - 1 >= (long)sizeof(name))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(close - open - 1), open + 1);
	return sched_cgroup_mode_parse(name, out);
}

/* The file's first line into @buf: 0, -ENOENT (no such file) or another -errno. */
static int read_first_line(const char *path, char *buf, size_t len)
{
	return live__read_line(path, buf, len);
}

/*
 * /sys/kernel/debug/@rel read from a debugfs mounted in a mount namespace of a child's own. 0,
 * -ENOENT (debugfs has no such file, or this kernel has no debugfs), -EPERM (it could not be
 * mounted: not root, or a container that may not mount it).
 */
static int read_private_debugfs(const char *rel, char *buf, size_t len)
{
	int fds[2], st;
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	if (access("/sys/kernel/debug", F_OK))
		return -ENOENT;		/* built without debugfs */
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		char path[512], line[256];
		int e;

		close(fds[0]);
		/* private first: a mount in a namespace of shared mounts reaches the host's */
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV |
			  MS_NOEXEC, NULL))
			_exit(2);
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s", rel);
		e = read_first_line(path, line, sizeof(line));
		if (e)
			_exit(e == -ENOENT ? 1 : 3);
		if (write(fds[1], line, strlen(line)) < 0)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	while (got + 1 < len && (n = read(fds[0], buf + got, len - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st))
		return -EIO;
	switch (WEXITSTATUS(st)) {
	case 0:
		return 0;
	case 1:
		return -ENOENT;
	case 2:
		return -EPERM;
	}
	return -EIO;
}

int live_kernel_read(const char *mountinfo, bool may_mount, struct live_kernel *k)
{
	struct utsname u;
	char point[1024], path[1200], line[256] = "";
	int e;

	memset(k, 0, sizeof(*k));
	if (uname(&u)) {
		snprintf(k->release, sizeof(k->release), "?");
	} else {
		snprintf(k->release, sizeof(k->release), "%s", u.release);
		k->known = !live_kernel_version_parse(u.release, u.version, &k->version);
	}
	if (!live__find_fstype(mountinfo, "debugfs", point, sizeof(point))) {
		snprintf(path, sizeof(path), "%s/%s", point, LIVE_CGROUP_MODE_FILE);
		e = read_first_line(path, line, sizeof(line));
	} else {
		e = may_mount ? read_private_debugfs(LIVE_CGROUP_MODE_FILE, line, sizeof(line))
			      : -EPERM;
	}
	k->mode = SCHED_CGROUP_SMP;	/* what every kernel before 7.3 computes */
	if (!e && !live_cgroup_mode_parse(line, &k->mode)) {
		k->mode_file = true;
	} else if (e != -ENOENT) {
		/* debugfs out of reach: the release's default, which the caller notes */
		k->mode_unread = true;
		if (k->known && sched_kernel_has_cgroup_mode(k->version)) {
			struct sched_config d;

			/* the version's default; a newer one than cgsim knows, the newest's */
			if (sched_config_kernel(&d, k->version, 1))
				(void)sched_config_kernel(&d, sched_kernel_newest(), 1);
			k->mode = d.cgroup_mode;
		}
	}
	return 0;
}
