/* SPDX-License-Identifier: MIT */
/*
 * sim/live/live_internal.h - what the files of sim/live/ share and nobody else may use.
 */
#ifndef CGSIM_SIM_LIVE_INTERNAL_H
#define CGSIM_SIM_LIVE_INTERNAL_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "sim/live/live.h"
#include "sim/run/run.h"

/* The helpers' name (/proc/PID/comm): what --cleanup may kill. */
#define LIVE_HELPER_COMM "cgsim-live"
/* Every cgroup cgsim makes on the kernel is named PREFIX-PID-...; PREFIX-PID is one run's. */
#define LIVE_PREFIX "cgsim"
/*
 * What a run changed outside its cgroups, and the value to put back, is written down in
 * LIVE_STATE_DIR/PID.restore ("autogroup OLD", "root-cpu", "root-cpuset") before it changes
 * it, and the file removed once it is put back: --cleanup puts back what a killed run could
 * not.
 */
#define LIVE_STATE_DIR "/run/cgsim"
#define LIVE_AUTOGROUP_FILE "/proc/sys/kernel/sched_autogroup_enabled"
/* Linux 7.3's cgroup_mode, below debugfs's mount point */
#define LIVE_CGROUP_MODE_FILE "sched/cgroup_mode"

/* live_load.c: the helper process of scenario process @proc (never returns). */
_Noreturn void live__load_main(const struct live_plan *plan, size_t proc, uint64_t seed,
			       int out_fd, int in_fd);

/*
 * live_rtapp.c: the real rt-app. live__rtapp_start() runs scenario @sc (an rt-app file) with
 * rt-app, its taskgroups below PREFIX-..., in cgroup file @cgfile ("" or NULL: where cgsim
 * is), on CPUs 0 .. @confine - 1 when @confine > 0, its scratch files in a new directory
 * named in @dir; *@pid and the @ntids threads' tids once they all run. -EINVAL with a reason;
 * on every path what was started is in *@pid (-1: nothing) and @dir ("": nothing) for
 * stop_helpers() and live__rtapp_clean().
 */
int live__rtapp_start(const struct scenario *sc, const char *prefix, const char *cgfile,
		      int confine, char *dir, size_t dirlen, pid_t *pid, pid_t *tids,
		      size_t ntids, char *err, size_t errlen);
void live__rtapp_clean(const char *dir);

/* live_sys.c: the running system */

/*
 * live__fork_helper() - fork a helper process (comm LIVE_HELPER_COMM) joined to cgsim by two
 * pipes. In the child it returns 0: signals at their defaults, killed when cgsim dies
 * (PR_SET_PDEATHSIG, a SIGKILLed cgsim too), *@in the end to read cgsim's bytes from, *@out the
 * end to write to cgsim. In cgsim it returns the pid, *@in the end to read the helper's output
 * from, *@out the end to write to it. -errno, nothing left open, on failure.
 */
pid_t live__fork_helper(int *in, int *out);

/* Where the cpu controller is: the hierarchy kind and its mount point. */
struct live_mount {
	enum live_hier hier;
	char path[1024];
};
/*
 * live__find_cpu() - the cgroup2 mount when it offers cpu, else the v1 hierarchy that binds
 * cpu, read from @mountinfo (/proc/self/mountinfo's format). 0, or -ENOENT with a reason.
 */
int live__find_cpu(const char *mountinfo, struct live_mount *m, char *err, size_t errlen);
/* live__find_mount() - the cgroup2 mount (@v2) or the v1 cpu hierarchy. 0 or -ENOENT. */
int live__find_mount(const char *mountinfo, bool v2, struct live_mount *m, char *err,
		     size_t errlen);
/* live__find_fstype() - the first mount point of file system @fstype in @mountinfo; 0 or -ENOENT. */
int live__find_fstype(const char *mountinfo, const char *fstype, char *out, size_t len);
/* live__mount_options() - the super options of the mount at @point, space-separated. */
int live__mount_options(const char *mountinfo, const char *point, char *buf, size_t len);
/* live__has_word() - whether the space-separated @list has the word @w. */
bool live__has_word(const char *list, const char *w);
/*
 * live__restore_file() - put @value back in @path (file @file of a cgroup); a
 * cgroup.subtree_control by enabling and disabling the difference. 0 or -errno.
 */
int live__restore_file(const char *path, const char *file, const char *value);
/* The most threads of one process of a replayed script. */
#define LIVE_CGS_MAX_THREADS 1024

/* live__write() - write @value to @path in one write(2): 0 or -errno. */
int live__write(const char *path, const char *value);
/* live__read_line() - the first line of @path into @buf ("" for an empty file): 0 or -errno. */
int live__read_line(const char *path, char *buf, size_t len);
/* live__schedstat_parse() - the CPU time (ns, the first field) of a schedstat line: 0 or -EINVAL. */
int live__schedstat_parse(const char *line, unsigned long long *ns);
/*
 * live__stat_busy() - from /proc/stat's text @text: the time every CPU spent busy (all but
 * idle and iowait) in USER_HZ ticks, into *@busy, and the steal (the hypervisor's, part of
 * busy; 0 on a kernel that does not count it) into *@steal. 0 or -EINVAL.
 */
int live__stat_busy(const char *text, unsigned long long *busy, unsigned long long *steal);

/* live__restore_path() - LIVE_STATE_DIR/@pid.restore into @buf. */
void live__restore_path(int pid, char *buf, size_t len);
/*
 * live__note_restore() - write down @line ("autogroup OLD", "root-cpu", "root-cpuset") in this
 * process's restore file before the change it undoes is made (live_cleanup.c puts back what a
 * killed cgsim could not). 0, or -EINVAL with a reason in @err. live__forget_restore() removes the
 * file once everything is put back.
 */
int live__note_restore(const char *line, char *err, size_t errlen);
void live__forget_restore(void);
/*
 * live__lock() - the one live run of the machine: an exclusive lock on LIVE_STATE_DIR/live.lock,
 * held until the returned descriptor is closed (or cgsim dies). Two live runs at once would
 * share the CPUs they measure and restore each other's autogroup setting wrongly (the second
 * notes the first's change as the value to put back). The descriptor, or -EBUSY naming the
 * other run's pid, or another negative errno, with a reason in @err.
 */
int live__lock(char *err, size_t errlen);
/*
 * The signals that stop a live run (SIGINT, SIGTERM, SIGHUP) only record themselves while it
 * runs, so that it can undo what it made before it ends: live__catch_stops() from the start of
 * the work (@old keeps the handlers it replaces), live__release_stops() at its end;
 * live__stopped() is the signal received, 0 while none; live_stop_signal() (live.h) the one
 * to end with once everything is undone.
 */
#define LIVE_NSTOP_SIGS 3
void live__catch_stops(struct sigaction old[LIVE_NSTOP_SIGS]);
void live__release_stops(const struct sigaction old[LIVE_NSTOP_SIGS]);
int live__stopped(void);

/* live__stats() - mean, min and max of @n values (n >= 1). */
struct live_stat live__stats(const double *v, size_t n);

#endif /* CGSIM_SIM_LIVE_INTERNAL_H */
