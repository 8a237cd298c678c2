// SPDX-License-Identifier: MIT
/*
 * sim/live/live_sys.c - what the live run reads from and writes to the running system, and the
 * parsers of its text, which the unit tests feed with recorded text (no kernel needed).
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/live/live_internal.h"
#include "sim/util/util.h"

pid_t live__fork_helper(int *in, int *out)
{
	int down[2], up[2];	/* cgsim -> helper, helper -> cgsim */
	pid_t parent = getpid(), pid;
	int e;

	if (pipe2(down, O_CLOEXEC))
		return -errno;
	if (pipe2(up, O_CLOEXEC)) {
		e = -errno;
		close(down[0]);
		close(down[1]);
		return e;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* dies with cgsim, even a SIGKILLed one (checked: cgsim may be gone already) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(3);
		prctl(PR_SET_NAME, LIVE_HELPER_COMM);
		close(down[1]);
		close(up[0]);
		*in = down[0];
		*out = up[1];
		return 0;
	}
	e = pid < 0 ? -errno : 0;
	close(down[0]);
	close(up[1]);
	if (e) {
		close(down[1]);
		close(up[0]);
		return e;
	}
	*in = up[0];
	*out = down[1];
	return pid;
}

int live__write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(value);
	ssize_t k;
	int e = 0;

	if (fd < 0)
		return -errno;
	/* one write(2), as echo does: cgroupfs takes each write as one operation */
	k = write(fd, value, n);
	if (k < 0)
		e = -errno;
	else if ((size_t)k != n)
		e = -EIO;
	if (close(fd) && !e)
		e = -errno;
	return e;
}

int live__read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int e = 0;

	if (!f)
		return -errno;
	buf[0] = '\0';		/* an empty file is an empty line (an unset subtree_control) */
	if (!fgets(buf, (int)len, f) && ferror(f))
		e = -EIO;
	fclose(f);
	if (!e)
		buf[strcspn(buf, "\n")] = '\0';
	return e;
}

int live__schedstat_parse(const char *line, unsigned long long *ns)
{
	char *end;

	if (*line < '0' || *line > '9')
		return -EINVAL;
	errno = 0;
	*ns = strtoull(line, &end, 10);
	if (errno || (*end != ' ' && *end != '\n' && *end))
		return -EINVAL;
	return 0;
}

int live__stat_busy(const char *text, unsigned long long *busy, unsigned long long *steal)
{
	unsigned long long v[10] = { 0 };
	int n;

	/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" (guest counted
	 * in user already) */
	if (strncmp(text, "cpu ", 4))
		return -EINVAL;
	n = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	if (n < 7)
		return -EINVAL;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*steal = v[7];
	return 0;
}

void live__restore_path(int pid, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d.restore", LIVE_STATE_DIR, pid);
}

struct live_stat live__stats(const double *v, size_t n)
{
	struct live_stat s = { 0, v[0], v[0] };

	for (size_t i = 0; i < n; i++) {
		s.mean += v[i];
		s.min = v[i] < s.min ? v[i] : s.min;
		s.max = v[i] > s.max ? v[i] : s.max;
	}
	s.mean /= (double)n;
	return s;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/* Whether the comma-separated list @opts has the word @w. */
static bool has_word(const char *opts, const char *w, char sep)
{
	size_t n = strlen(w);

	for (const char *p = opts; p && *p; p = strchr(p, sep), p = p ? p + 1 : NULL)
		if (!strncmp(p, w, n) && (p[n] == sep || p[n] == '\0' || p[n] == '\n'))
			return true;
	return false;
}

/* A mountinfo line's mount point and file system type, and its super options. */
static bool mount_fields(char *line, char **point, char **fstype, char **super)
{
	char *f[6], *save = NULL, *dash;
	int i = 0;

	dash = strstr(line, " - ");
	if (!dash)
		return false;
	*dash = '\0';
	for (char *t = strtok_r(line, " ", &save); t && i < 6; t = strtok_r(NULL, " ", &save))
		f[i++] = t;
	if (i < 5)
		return false;
	*point = f[4];
	*fstype = strtok_r(dash + 3, " ", &save);
	strtok_r(NULL, " ", &save);		/* the source */
	*super = strtok_r(NULL, " \n", &save);
	if (!*fstype)
		return false;
	if (!*super)
		*super = (char *)"";
	unescape(*point);
	return true;
}

bool live__has_word(const char *list, const char *w)
{
	return has_word(list, w, ' ');
}

int live__find_fstype(const char *mountinfo, const char *fstype, char *out, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	char line[4096];
	int e = -ENOENT;

	if (!f)
		return -ENOENT;
	while (e && fgets(line, sizeof(line), f)) {
		char *pt, *type, *super;

		if (mount_fields(line, &pt, &type, &super) && !strcmp(type, fstype) &&
		    strlen(pt) < len) {
			snprintf(out, len, "%s", pt);
			e = 0;
		}
	}
	fclose(f);
	return e;
}

int live__mount_options(const char *mountinfo, const char *point, char *buf, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	char line[4096];

	buf[0] = '\0';
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *pt, *fstype, *super;

		if (mount_fields(line, &pt, &fstype, &super) && !strcmp(pt, point)) {
			snprintf(buf, len, "%s", super);
			for (char *s = buf; *s; s++)
				*s = *s == ',' ? ' ' : *s;
			break;
		}
	}
	fclose(f);
	return 0;
}

int live__find_mount(const char *mountinfo, bool v2, struct live_mount *m, char *err,
		     size_t errlen)
{
	FILE *f = fopen(mountinfo, "re");
	char line[4096];

	if (!f) {
		snprintf(err, errlen, "cgsim: cannot read %s: %s", mountinfo, strerror(errno));
		return -ENOENT;
	}
	m->path[0] = '\0';
	while (!m->path[0] && fgets(line, sizeof(line), f)) {
		char *point, *fstype, *super;

		if (!mount_fields(line, &point, &fstype, &super))
			continue;
		if (v2 ? !strcmp(fstype, "cgroup2")
		       : !strcmp(fstype, "cgroup") && has_word(super, "cpu", ','))
			snprintf(m->path, sizeof(m->path), "%s", point);
	}
	fclose(f);
	m->hier = v2 ? LIVE_HIER_V2 : LIVE_HIER_V1;
	if (m->path[0])
		return 0;
	snprintf(err, errlen, "cgsim: no %s here (%s)", v2 ? "cgroup2 mount"
		 : "cgroup v1 hierarchy with the cpu controller", mountinfo);
	return -ENOENT;
}

int live__restore_file(const char *path, const char *file, const char *value)
{
	char now[1024] = "", diff[2100] = "", copy[1024], *save = NULL;

	if (strcmp(file, "cgroup.subtree_control"))
		return live__write(path, value);
	/* a subtree_control is put back by enabling and disabling the difference */
	live__read_line(path, now, sizeof(now));
	snprintf(copy, sizeof(copy), "%s", value);
	for (char *c = strtok_r(copy, " ", &save); c; c = strtok_r(NULL, " ", &save))
		if (!live__has_word(now, c))
			snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff), " +%s", c);
	snprintf(copy, sizeof(copy), "%s", now);
	for (char *c = strtok_r(copy, " ", &save); c; c = strtok_r(NULL, " ", &save))
		if (!live__has_word(value, c))
			snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff), " -%s", c);
	return diff[0] ? live__write(path, diff + 1) : 0;
}

int live__find_cpu(const char *mountinfo, struct live_mount *m, char *err, size_t errlen)
{
	char ctl[1100], have[512];

	if (!live__find_mount(mountinfo, true, m, err, errlen)) {
		snprintf(ctl, sizeof(ctl), "%s/cgroup.controllers", m->path);
		if (!live__read_line(ctl, have, sizeof(have)) && has_word(have, "cpu", ' '))
			return 0;
	}
	if (!live__find_mount(mountinfo, false, m, err, errlen))
		return 0;
	if (access(mountinfo, R_OK))
		return -ENOENT;		/* find_mount said it cannot read it */
	snprintf(err, errlen, "cgsim: no cpu controller here: no cgroup2 mount offers cpu and no "
		 "cgroup v1 hierarchy binds it (%s)", mountinfo);
	return -ENOENT;
}

int live__note_restore(const char *line, char *err, size_t errlen)
{
	char path[128];
	FILE *f;

	mkdir(LIVE_STATE_DIR, 0700);
	live__restore_path((int)getpid(), path, sizeof(path));
	f = fopen(path, "ae");
	if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f)) {
		snprintf(err, errlen, "cgsim: cannot write %s, where a change to the system is "
			 "noted before it is made: %s", path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

void live__forget_restore(void)
{
	char path[128];

	live__restore_path((int)getpid(), path, sizeof(path));
	unlink(path);
}

int live__lock(char *err, size_t errlen)
{
	char path[128], who[32] = "";
	int fd, e, n;

	mkdir(LIVE_STATE_DIR, 0700);
	snprintf(path, sizeof(path), "%s/live.lock", LIVE_STATE_DIR);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cgsim: cannot open %s: %s", path, strerror(e));
		return -e;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		e = errno;
		n = (int)pread(fd, who, sizeof(who) - 1, 0);
		who[n > 0 ? n : 0] = '\0';
		who[strcspn(who, "\n")] = '\0';
		close(fd);
		if (e != EWOULDBLOCK) {
			snprintf(err, errlen, "cgsim: cannot lock %s: %s", path, strerror(e));
			return -e;
		}
		snprintf(err, errlen, "cgsim: another live run (cgsim pid %s) is under way: two would "
			 "measure each other and fight over the autogroup setting; wait for it",
			 who[0] ? who : "?");
		return -EBUSY;
	}
	n = snprintf(who, sizeof(who), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, who, (size_t)n, 0) != n) {
		/* the pid is only for the message: the lock holds without it */
	}
	return fd;
}

/* The signal that asked a live run to stop, 0 while none has (the handler only records it). */
static volatile sig_atomic_t stop_sig;
static const int stop_sigs[LIVE_NSTOP_SIGS] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop(int sig)
{
	stop_sig = sig;
}

void live__catch_stops(struct sigaction old[LIVE_NSTOP_SIGS])
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	stop_sig = 0;
	for (int k = 0; k < LIVE_NSTOP_SIGS; k++)
		sigaction(stop_sigs[k], &sa, &old[k]);
}

void live__release_stops(const struct sigaction old[LIVE_NSTOP_SIGS])
{
	for (int k = 0; k < LIVE_NSTOP_SIGS; k++)
		sigaction(stop_sigs[k], &old[k], NULL);
}

int live__stopped(void)
{
	return (int)stop_sig;
}

int live_stop_signal(void)
{
	return stop_sig ? (int)stop_sig : SIGINT;
}
