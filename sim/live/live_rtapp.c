// SPDX-License-Identifier: MIT
/*
 * sim/live/live_rtapp.c - `cgsim validate --live` of an rt-app file with the real rt-app
 * (docs/live.md, docs/rt-app.md): the workload is given to rt-app as it would be run by hand,
 * its taskgroups moved below the run's own cgroups, and rt-app's threads are found and
 * measured as the helpers' are.
 *
 * rt-app is started from a helper fork (killed with cgsim, whatever kills cgsim), in a
 * session of its own, in its process's cgroup and confined to the scenario's CPUs, with its
 * output in a log of the run's scratch directory. Its threads are told apart by their comm
 * (the task's name under rt-app 1.0, "TASK-I" later) and, within a task, by their order of
 * creation, which is their tids' order.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/live/live_internal.h"
#include "sim/scenario/rtapp.h"
#include "sim/util/util.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The child: its cgroup, its CPUs, its output, then rt-app; on failure errno to @out. */
static _Noreturn void exec_rtapp(const char *json, const char *log, const char *cgfile,
				 int cpus, int out)
{
	char pid[24];
	int fd, e;

	setsid();	/* a session, so an autogroup, of its own */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (cgfile && (e = live__write(cgfile, pid)))
		goto fail;
	if (cpus > 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int c = 0; c < cpus; c++)
			CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			e = -errno;
			goto fail;
		}
	}
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
		e = -errno;
		goto fail;
	}
	execlp("rt-app", "rt-app", json, (char *)NULL);
	e = -errno;
fail:
	if (write(out, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(126);
	_exit(127);
}

/* The last line of rt-app's log, for a message. */
static void log_tail(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "re");
	char line[512];

	snprintf(buf, len, "(no output)");
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%.300s", line);
		}
	if (f)
		fclose(f);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* rt-app's threads (all but its main one), by tid. -errno. */
static int list_threads(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t cap = 0;

	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -errno;
	while ((de = readdir(d))) {
		long t = strtol(de->d_name, NULL, 10);

		if (t <= 0 || t == pid)
			continue;
		if (UTIL_GROW(*tids, cap, *n + 1)) {
			closedir(d);
			return -ENOMEM;
		}
		(*tids)[(*n)++] = (pid_t)t;
	}
	closedir(d);
	qsort(*tids, *n, sizeof(**tids), cmp_pid);
	return 0;
}

/*
 * Each of the scenario's threads, in order, the first thread by tid not yet taken whose comm
 * is the one rt-app gives it: true when every one is found.
 */
static bool match(pid_t pid, const struct rta_live *l, pid_t *out)
{
	pid_t *tids = NULL;
	size_t n;
	char (*comm)[16] = NULL;
	bool *taken = NULL, ok = !list_threads(pid, &tids, &n);

	if (ok && n) {
		comm = calloc(n, sizeof(*comm));
		taken = calloc(n, sizeof(*taken));
		ok = comm && taken;
	}
	for (size_t k = 0; ok && k < n; k++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tids[k]);
		if (live__read_line(path, comm[k], sizeof(comm[k])))
			comm[k][0] = '\0';
	}
	for (size_t i = 0; ok && i < l->nthreads; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if (!taken[k] && (!strcmp(comm[k], l->comm_old[i]) ||
					  !strcmp(comm[k], l->comm_new[i])))
				break;
		ok = k < n;
		if (ok) {
			taken[k] = true;
			out[i] = tids[k];
		}
	}
	free(tids);
	free(comm);
	free(taken);
	return ok && l->nthreads;
}

/*
 * Wait for exec (the pipe closes) or its errno; then for the threads, 30 s at most (rt-app
 * calibrates its busy loop first, which once took over 15 s here).
 */
static int wait_threads(pid_t pid, int in, const struct rta_live *l, const char *log, pid_t *tids,
			char *err, size_t errlen)
{
	struct pollfd pfd = { in, POLLIN, 0 };
	double end = now_s() + 30;
	int e = 0;
	ssize_t k;
	char tail[400];

	while (poll(&pfd, 1, 15000) < 0 && errno == EINTR)
		;
	k = read(in, &e, sizeof(e));
	if (k == (ssize_t)sizeof(e)) {
		snprintf(err, errlen, "cgsim: cannot run rt-app: %s%s", strerror(-e),
			 e == -ENOENT ? " (it is not installed: on Debian, apt-get install rt-app)"
				      : "");
		return -EINVAL;
	}
	for (;;) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			log_tail(log, tail, sizeof(tail));
			snprintf(err, errlen, "cgsim: rt-app ended before its threads ran: %s", tail);
			return -ESRCH;	/* reaped: not to be killed again */
		}
		if (match(pid, l, tids))
			return 0;
		if (now_s() > end) {
			log_tail(log, tail, sizeof(tail));
			snprintf(err, errlen, "cgsim: rt-app did not start its %zu threads within 30 s "
				 "(its last line: %s)", l->nthreads, tail);
			return -EINVAL;
		}
		usleep(2000);
	}
}

int live__rtapp_start(const struct scenario *sc, const char *prefix, const char *cgfile,
		      int confine, char *dir, size_t dirlen, pid_t *pid, pid_t *tids,
		      size_t ntids, char *err, size_t errlen)
{
	struct rta_live l;
	char json[600], log[600];
	const char *tmp = getenv("TMPDIR");	/* a guest of validate --vm sets it */
	unsigned dur = (unsigned)((sc->duration + 999999999ull) / 1000000000ull) + 2;
	int e, in, out;
	pid_t child;
	FILE *f;

	*pid = -1;
	snprintf(dir, dirlen, "%s/%s-rtapp-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp", prefix);
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cgsim: cannot make a scratch directory: %s", strerror(errno));
		dir[0] = '\0';
		return -EINVAL;
	}
	if ((e = rta_live_make(sc->file, sc->text, strlen(sc->text), prefix, dur, dir, &l, err,
			       errlen)))
		return e;
	if (l.nthreads != ntids) {
		snprintf(err, errlen, "cgsim: rt-app makes %zu threads, the scenario %zu",
			 l.nthreads, ntids);
		rta_live_free(&l);
		return -EINVAL;
	}
	snprintf(json, sizeof(json), "%s/workload.json", dir);
	snprintf(log, sizeof(log), "%s/rt-app.log", dir);
	f = fopen(json, "we");
	e = !f || fputs(l.json, f) < 0;
	if (f && fclose(f))
		e = 1;
	if (e) {
		snprintf(err, errlen, "cgsim: cannot write %s", json);
		rta_live_free(&l);
		return -EINVAL;
	}
	child = live__fork_helper(&in, &out);
	if (child == 0)
		exec_rtapp(json, log, cgfile, confine, out);
	if (child < 0) {
		snprintf(err, errlen, "cgsim: starting rt-app: %s", strerror((int)-child));
		rta_live_free(&l);
		return -EINVAL;
	}
	close(out);
	e = wait_threads(child, in, &l, log, tids, err, errlen);
	close(in);
	rta_live_free(&l);
	if (e == -ESRCH)
		return -EINVAL;
	*pid = child;
	return e;
}

void live__rtapp_clean(const char *dir)
{
	char path[600];

	if (!dir[0])
		return;
	/* what rt-app writes there: its log and its threads' logs (rt-app-TASK-N.log) */
	{
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
		if (d)
			closedir(d);
	}
	rmdir(dir);
}
