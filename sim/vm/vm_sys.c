// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_sys.c - the system calls sim/vm shares: directories, files, child programs.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm_internal.h"

int vm__mkdirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

void vm__remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = util_asprintf("%s/%s", path, de->d_name);
		if (sub)
			vm__remove_tree(sub);
		free(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

int vm__slurp(const char *path, size_t max, char **out)
{
	FILE *f = fopen(path, "rb");
	size_t len;
	int e;

	*out = NULL;
	if (!f)
		return -errno;
	e = util_read_stream(f, max, out, &len);
	fclose(f);
	return e;
}

int vm__path(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int vm__which(const char *name, char *out, size_t outlen)
{
	const char *path = getenv("PATH");

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (!vm__path(out, outlen, "%.*s/%s", (int)n, n ? path : ".", name) &&
		    !access(out, X_OK))
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

int vm__capture(const char *const *argv, const char *cwd, char **out, size_t *outlen)
{
	int fds[2], st;
	pid_t pid;
	FILE *f;
	size_t len = 0;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		st = -errno;
		close(fds[0]);
		close(fds[1]);
		return st;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 ||
		    (cwd && chdir(cwd)))
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "rb");
	if (f) {
		util_read_stream(f, 64u << 20, out, &len);
		fclose(f);
		if (outlen)
			*outlen = *out ? len : 0;
	} else {
		close(fds[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int vm_cleanup(FILE *log)
{
	const char *tmp = getenv("TMPDIR");
	const char *dir = tmp && *tmp == '/' ? tmp : "/tmp";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end, path[4200];
		long pid;

		if (strncmp(de->d_name, "cgsim-vm-", 9))
			continue;
		pid = strtol(de->d_name + 9, &end, 10);
		/* PID-XXXXXX of a cgsim that is gone (QEMU died with it: PR_SET_PDEATHSIG) */
		if (end == de->d_name + 9 || *end != '-' || pid <= 0 ||
		    !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		vm__remove_tree(path);
		fprintf(log, "removed %s (a guest's scratch directory)\n", path);
		n++;
	}
	closedir(d);
	return n;
}
