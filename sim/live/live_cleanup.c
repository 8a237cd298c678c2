// SPDX-License-Identifier: MIT
/*
 * sim/live/live_cleanup.c - cgsim validate --cleanup: what a SIGKILLed live run left behind.
 *
 * A live run names every cgroup it makes PREFIX-PID-... (PID: its cgsim process) and its
 * helpers die with it (PR_SET_PDEATHSIG), so a killed run can leave only empty cgroups, or
 * cgroups whose helpers are still exiting. A cgroup is left alone while process PID is a
 * running cgsim; otherwise the helpers in it (comm cgsim-live, killed by their thread-group id)
 * are killed and its subtree removed, deepest first.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/live/live_internal.h"

/* Whether process @pid runs a program whose comm is @comm. */
static bool comm_is(int pid, const char *comm)
{
	char path[64], have[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	return !live__read_line(path, have, sizeof(have)) && !strcmp(have, comm);
}

/* Whether @pid is a cgsim still running (a zombie is not: its run is over). */
static bool cgsim_running(int pid)
{
	char path[64], line[512], *close_paren;

	if (!comm_is(pid, "cgsim"))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (live__read_line(path, line, sizeof(line)) || !(close_paren = strrchr(line, ')')))
		return false;
	return close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

/* The thread-group id of thread @tid, or -1. */
static int tgid_of(int tid)
{
	char path[64], line[256];
	FILE *f;
	int tgid = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Kill the helpers among the tasks of cgroup @dir (v1 tasks or v2 cgroup.threads). */
static void kill_helpers(const char *dir)
{
	static const char *const lists[] = { "tasks", "cgroup.threads" };

	for (size_t k = 0; k < 2; k++) {
		char path[4200];
		FILE *f;
		int tid;

		snprintf(path, sizeof(path), "%s/%s", dir, lists[k]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &tid) == 1) {
			int tgid = tgid_of(tid);

			if (tgid > 0 && comm_is(tgid, LIVE_HELPER_COMM))
				kill(tgid, SIGKILL);
		}
		fclose(f);
	}
}

/* Remove cgroup @dir and everything below it, deepest first: 0 or -errno. */
static int remove_tree(const char *dir, FILE *log)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int e = 0, tries = 0;

	if (!d)
		return -errno;
	kill_helpers(dir);
	while ((de = readdir(d))) {
		char sub[4200];

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (!e)
			e = remove_tree(sub, log);
	}
	closedir(d);
	if (e)
		return e;
	while (rmdir(dir) && errno == EBUSY && tries++ < 200)
		usleep(10000);	/* killed tasks still exiting */
	if (access(dir, F_OK) == 0)
		return -EBUSY;
	fprintf(log, "removed %s\n", dir);
	return 0;
}

/* Put back what the killed run @pid changed outside its cgroups, as its file says. */
static void restore(int pid, const struct live_mount *m, FILE *log)
{
	char path[128], line[64], file[1100];
	FILE *f;

	live__restore_path(pid, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char old[8], ctrl[16], minus[24];

		if (sscanf(line, "autogroup %7s", old) == 1 && !live__write(LIVE_AUTOGROUP_FILE, old))
			fprintf(log, "restored %s to %s\n", LIVE_AUTOGROUP_FILE, old);
		/* "root-cpu", "root-cpuset": a controller the run enabled in the root */
		if (sscanf(line, "root-%15[a-z_]", ctrl) == 1 &&
		    (!strcmp(ctrl, "cpu") || !strcmp(ctrl, "cpuset"))) {
			snprintf(file, sizeof(file), "%s/cgroup.subtree_control", m->path);
			snprintf(minus, sizeof(minus), "-%s", ctrl);
			if (!live__write(file, minus))
				fprintf(log, "removed %s from %s\n", ctrl, file);
		}
	}
	fclose(f);
	unlink(path);
}

/* The notes of killed runs in LIVE_STATE_DIR: put back what they say. */
static void restore_all(const struct live_mount *m, FILE *log)
{
	DIR *d = opendir(LIVE_STATE_DIR);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (pid > 0 && !strcmp(end, ".restore") && !cgsim_running((int)pid))
			restore((int)pid, m, log);
	}
	closedir(d);
}

int live_cleanup(const char *mountinfo, FILE *log, char *err, size_t errlen)
{
	struct live_mount m;
	DIR *d;
	struct dirent *de;
	size_t plen = strlen(LIVE_PREFIX);
	int e;

	if (geteuid() != 0) {
		snprintf(err, errlen, "cgsim: validate --cleanup needs root");
		return -EPERM;
	}
	if ((e = live__find_cpu(mountinfo, &m, err, errlen)))
		return e;
	d = opendir(m.path);
	if (!d) {
		snprintf(err, errlen, "cgsim: cannot read %s: %s", m.path, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		char path[2200], *end;
		long pid;

		if (de->d_type != DT_DIR || strncmp(de->d_name, LIVE_PREFIX, plen) ||
		    de->d_name[plen] != '-')
			continue;
		pid = strtol(de->d_name + plen + 1, &end, 10);
		if (end == de->d_name + plen + 1 || *end != '-' || pid <= 0)
			continue;
		if (cgsim_running((int)pid))
			continue;	/* a live run still going */
		snprintf(path, sizeof(path), "%s/%s", m.path, de->d_name);
		if ((e = remove_tree(path, log))) {
			snprintf(err, errlen, "cgsim: cannot remove %s: %s", path, strerror(-e));
			closedir(d);
			return e;
		}
	}
	closedir(d);
	/* the cgroups first: a root subtree_control with children using cpu cannot lose it */
	restore_all(&m, log);
	return 0;
}
