/* SPDX-License-Identifier: MIT */
/*
 * sim/live/live.h - a scenario on the running kernel (`cgsim validate --live`, docs/live.md).
 *
 * The plan (live_plan.c) is the scenario's layout said in the kernel's terms: the cgroups to
 * make with the files to write in them, and for each thread the cgroup it goes to and what it
 * runs. It is computed from the layout the cgroup model built (run_layout_build()), knows
 * nothing of the running system but the hierarchy kind, the prefix of its cgroups' names and the
 * CPUs online, and refuses what the kernel cannot be given, before anything is made.
 */
#ifndef CGSIM_SIM_LIVE_H
#define CGSIM_SIM_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/scenario/scenario.h"

/* The cgroup hierarchy the kernel offers the cpu controller on. */
enum live_hier {
	LIVE_HIER_V1,	/* the v1 cpu hierarchy: cpu.shares, cpu.cfs_*_us, tasks */
	LIVE_HIER_V2,	/* cgroup2 with cpu: cpu.weight, cpu.max, cgroup.procs */
};

#define LIVE_MAX_WRITES 6
/* A value's bytes with its NUL: the plan refuses a cpuset.cpus list longer than that. */
#define LIVE_WRITE_MAX 128

/* A file of a cgroup and the value written to it, in the order they are written. */
struct live_write {
	const char *file;
	char value[LIVE_WRITE_MAX];
};

/*
 * A cgroup to make: one per task group of the scenario but its root. Its writes follow its
 * mkdir, before any dir below it is made; on v2 they are, in this order: "threaded" to
 * cgroup.type (a threaded dir: before anything that depends on its type), "+cpu" to
 * cgroup.subtree_control (a dir with child dirs: before the children's cpu files exist; "+cpu
 * +cpuset" above a dir with a cpuset), its CPU list to cpuset.cpus (where the model's cpuset
 * narrows the parent's CPUs), then its cpu files.
 */
struct live_dir {
	char *path;		/* below the hierarchy's root, parents first: "cgsim-42-vm/app" */
	int cgroup;		/* the scenario's cgroup (the model's id) whose task group it is */
	int parent;		/* index of the parent's dir, -1: the hierarchy's root */
	bool has_children;	/* other dirs below it (v2: +cpu in its subtree_control) */
	bool threaded;		/* v2: its cgroup is threaded in the model (cgroup.type) */
	int domain;		/* v2: its threaded domain, the dir itself unless threaded, else its
				   parent's domain (-1: the root) */
	struct live_write writes[LIVE_MAX_WRITES];
	size_t nwrites;
};

/*
 * How a thread reaches its dir, in the plan's order of threads (a process's first thread, which
 * moves the process, comes before its others).
 */
enum live_move {
	LIVE_MOVE_TASKS,	/* v1: its tid to the dir's tasks */
	LIVE_MOVE_PROCS,	/* v2, a process's first thread: the process's pid to the dir's
				   cgroup.procs, which moves all its threads there */
	LIVE_MOVE_WITH_PROC,	/* v2: none, its process's cgroup.procs write put it there */
	LIVE_MOVE_THREADS,	/* v2: its tid to the dir's cgroup.threads, after its process moved
				   (thread mode: the two dirs share a threaded domain) */
};

/* A thread of the scenario, as the helper starts it. */
struct live_thread {
	char *name;			/* "PROCESS/THREADS.N", as the reports name it */
	size_t proc;			/* its process: index in plan->procs */
	const struct scn_threads *grp;	/* its entry: behaviour, nice, policy, slice, affinity */
	uint32_t stream;		/* the random stream the simulation draws it from */
	int dir;			/* index in plan->dirs, -1: the hierarchy's root */
	enum live_move move;		/* how it gets there */
};

/* A process of the scenario: one helper process, a session of its own. */
struct live_proc {
	const struct scn_process *p;
	int session_nice;		/* its autogroup's nice (written when not 0) */
	size_t first, n;		/* its threads: plan->threads[first .. first + n) */
};

struct live_plan {
	enum live_hier hier;
	bool autogroup;			/* sched_autogroup_enabled during the run */
	int cpus;			/* the scenario's CPUs: 0 .. cpus - 1 of the machine */
	bool confined;			/* fewer than online: every thread is kept on them */
	bool root_cpu;			/* v2: +cpu in the root's subtree_control */
	bool root_cpuset;		/* v2: +cpuset there too (a dir writes cpuset.cpus) */
	bool rtapp;			/* an rt-app file: the real rt-app runs it (v1 only) */
	struct live_dir *dirs;
	size_t ndirs;
	struct live_thread *threads;
	size_t nthreads;
	struct live_proc *procs;
	size_t nprocs;
};

/**
 * live_plan_make() - the plan of scenario @sc for hierarchy @hier, its top-level cgroups named
 * "@prefix-NAME", on a machine with @cpus CPUs online.
 *
 * A scenario with fewer CPUs than @cpus runs on CPUs 0 .. its count - 1 (plan->confined: every
 * thread's affinity is kept within them). On v2 a dir whose cgroup the model made threaded is
 * made threaded, and a process whose threads are in several dirs is moved whole to its first
 * thread's dir, its other threads then one by one (thread mode), and a dir whose cgroup's cpuset
 * narrows its parent's CPUs gets them in cpuset.cpus. Refused with -EINVAL and a one-line
 * reason in @err: a layout the kernel cannot be given (timeline operations, processes sharing a
 * session, the rfc2017 rule set, more CPUs than online; on v1 any cpuset; on v2 a cpuset on a
 * cgroup that is no task group, a process whose dirs are not all in one threaded domain, a
 * thread in a domain beside a child group that holds threads and is not threaded, a thread in a
 * domain below a thread root or a threaded cgroup), or one the model refuses (its positioned
 * message). -ENOMEM when out of memory.
 */
int live_plan_make(const struct scenario *sc, enum live_hier hier, const char *prefix, int cpus,
		   struct live_plan **out, char *err, size_t errlen);
void live_plan_free(struct live_plan *plan);

/* ---- the live run and its comparison ---- */

/* One row's measured values over the repetitions. */
struct live_stat {
	double mean, min, max;
};

struct live_row {
	const char *kind;		/* "group", "process", "thread" */
	char *name;			/* as cgsim run names it: "vm/app", "/", "qemu", "qemu/v.1" */
	double simulated;		/* share of capacity, as cgsim run gives it */
	struct live_stat measured;	/* share of capacity on the kernel */
};

struct live_report {
	char *scenario;			/* its name */
	char kernel[128];		/* uname -r */
	enum sched_cgroup_mode cgroup_mode;	/* what the kernel ran: its cgroup_mode, SMP
						   before 7.3 */
	bool cgroup_mode_file;		/* read from its /sys/kernel/debug/sched/cgroup_mode */
	struct sched_kernel modelled;	/* the kernel the simulation modelled */
	char model[512];		/* the kernel simulated (sched_config_describe()); "" unknown */
	enum live_hier hier;
	int cpus;			/* the scenario's CPUs: 0 .. cpus - 1 of the machine */
	int online;			/* the machine's */
	unsigned reps;
	double window_s;		/* the measured window of each repetition */
	struct live_stat other;		/* the share of capacity other work took in the window */
	struct live_stat steal;		/* steal time, /proc/stat's (0 off a VM) */
	double sim_steal;		/* the simulation's (machine.steal) */
	double tolerance;		/* points of capacity */
	struct live_row *rows;		/* groups, then processes, then threads */
	size_t nrows;
};

struct live_opts {
	unsigned reps;			/* repetitions, >= 1 */
	double tolerance;		/* points of capacity */
	const char *mountinfo;		/* where to find the cgroup mounts (/proc/self/mountinfo) */
	bool may_mount;			/* debugfs may be mounted (privately) to read cgroup_mode:
					   false when @mountinfo is a test's */
	bool progress;			/* say on stderr what is being done */
	bool steal_measured;		/* simulate after, with the steal measured (machine.steal) */
};

/* The kernel validate --live runs on (live_kernel.c). */
struct live_kernel {
	char release[128];		/* uname -r: "7.3.4+deb13-amd64" */
	struct sched_kernel version;	/* from the release: 7.3.4 */
	bool known;			/* the release has a version (MAJOR.MINOR at its start) */
	enum sched_cgroup_mode mode;	/* the active cgroup_mode; SMP without the file */
	bool mode_file;			/* read from /sys/kernel/debug/sched/cgroup_mode */
	bool mode_unread;		/* debugfs out of reach: @mode is the release's default */
};

/**
 * live_kernel_read() - the running kernel's release, its version, and its cgroup_mode: the
 * file in the debugfs @mountinfo lists, else (when @may_mount) in a debugfs mounted in a mount
 * namespace of a child's own, which the host's mount table never sees. A kernel without the
 * file (before 7.3) runs SMP. 0.
 */
int live_kernel_read(const char *mountinfo, bool may_mount, struct live_kernel *k);
/*
 * live_kernel_version_parse() - the version of kernel release @release (uname -r: "7.3.4+deb13-
 * amd64", "6.18.44-fc-v1300"; PATCH 0 when it has none), its patch taken from @version (uname
 * -v, may be NULL) where Debian names only the ABI there ("6.1.0-57-amd64" with "... Debian
 * 6.1.158-1 ..." is 6.1.158). 0, or -EINVAL when it does not start with MAJOR.MINOR.
 */
int live_kernel_version_parse(const char *release, const char *version, struct sched_kernel *out);
/*
 * live_cgroup_mode_parse() - the active mode of the text of cgroup_mode, the one in
 * parentheses ("up smp (concur) max tasks"). 0, or -EINVAL.
 */
int live_cgroup_mode_parse(const char *text, enum sched_cgroup_mode *out);

/**
 * live_validate() - simulate @sc, run it on this machine @o->reps times and compare
 * (docs/live.md). Needs root. 0 with *@out set; -EINVAL (cannot be done here: not root, no cpu
 * controller, a layout the kernel cannot be given, a failure of the kernel's while setting up)
 * or -EINTR (a signal stopped it) with a one-line reason in @err; everything made is removed on
 * every path.
 */
int live_validate(const struct scenario *sc, const struct live_opts *o, struct live_report **out,
		  char *err, size_t errlen);
/* live_stop_signal() - the signal that stopped the last live_validate() with -EINTR. */
int live_stop_signal(void);
/* live_within() - whether every row's measured mean is within the tolerance of its share. */
bool live_within(const struct live_report *r);
void live_report_free(struct live_report *r);

/* ---- cgsim calibrate --live (live_calibrate.c, docs/overhead.md) ---- */

/* Where the two threads of a ping-pong are, at a depth d >= 1. */
enum live_cal_placement {
	LIVE_CAL_SAME,		/* both in one cgroup at depth d */
	LIVE_CAL_SIBLINGS,	/* in two sibling cgroups at depth d (one parent at d - 1) */
	LIVE_CAL_SEPARATE,	/* in two chains of d cgroups from the root */
	LIVE_CAL_NPLACEMENTS
};
extern const char *const live_cal_placement_name[LIVE_CAL_NPLACEMENTS];

#define LIVE_CAL_MAX_POINTS 16

/* One measured point: the cost of a round trip (two wakeups, two switches), ns. */
struct live_cal_point {
	enum live_cal_placement placement;	/* depth 0: both in the root cgroup */
	int depth;
	bool autogroup;				/* depth 0 only: in an autogroup of their own */
	/*
	 * cgroup2 (every point there): the threads' chains hang below one domain at depth 1
	 * (their process's; the levels below it are threaded cgroups), so even separate chains
	 * share level 1, and the process moves through cgroup.procs.
	 */
	bool threaded;
	double median_ns, min_ns, max_ns;	/* over the repetitions */
	/*
	 * The two threads' context switches per round trip (medians over the repetitions):
	 * involuntary (a wakeup that preempted the writer before it blocked) and voluntary (a
	 * thread that blocked). Without preemption each round trip has two voluntary switches;
	 * with it, the reader's answer finds the writer runnable and only the reader blocks.
	 */
	double preempted, voluntary;
};

/* cost = base + per_level x depth, least squares over one placement's points. */
struct live_cal_fit {
	enum live_cal_placement placement;
	double base_ns, per_level_ns;
	double base_se, per_level_se;		/* standard errors */
	double per_level_low, per_level_high;	/* the slope's 95 % interval (Student's t) */
	size_t n;				/* points fitted */
	double residual_ns[LIVE_CAL_MAX_POINTS];	/* measured less fitted, in order of depth */
};

struct live_cal_report {
	char kernel[128];
	char cpu_model[128];		/* /proc/cpuinfo's model name, "" when not found */
	enum live_hier hier;
	int cpu;			/* the CPU both threads ran on */
	unsigned reps;
	unsigned long round_trips;	/* timed per repetition and point */
	struct live_cal_point points[LIVE_CAL_MAX_POINTS];	/* depth 0 (autogroup off,
								   then on if the kernel has
								   it), then each placement's
								   depths */
	size_t npoints;
	struct live_cal_fit fits[LIVE_CAL_NPLACEMENTS];
	/* a pipe write and read that do not block: a half round trip less the scheduler, ns */
	double syscalls_ns, syscalls_min_ns, syscalls_max_ns;
};

struct live_cal_opts {
	unsigned reps;			/* >= 1 */
	unsigned long round_trips;	/* >= 1 */
	const char *mountinfo;
	bool progress;			/* say on stderr what is being measured */
};

/*
 * live_cal_level_own() - whether level @lv (1 .. @pt->depth) of @pt's chains is a cgroup of
 * each thread's own, not shared: every level of separate chains, the leaf of siblings, none of
 * one cgroup; never level 1 when @pt->threaded. A point whose chains would split at level 1
 * there (siblings or separate at depth 1 on cgroup2) is not measured.
 */
bool live_cal_level_own(const struct live_cal_point *pt, int lv);

/*
 * live_cal_fit() - the least-squares line through the @n >= 3 points (@x[i], @y[i]) into @f
 * (all but its placement). 0, or -EINVAL when the points do not make a line (all one x).
 */
int live_cal_fit(const double *x, const double *y, size_t n, struct live_cal_fit *f);

/**
 * live_calibrate() - measure the ping-pong at every point @o->reps times and fit each
 * placement (docs/overhead.md). Needs root and the v1 cpu hierarchy. 0 with *@out set;
 * -EINVAL (cannot be done here) or -EINTR (a signal) with a one-line reason in @err;
 * everything made is removed on every path.
 */
int live_calibrate(const struct live_cal_opts *o, struct live_cal_report **out, char *err,
		   size_t errlen);
void live_cal_report_free(struct live_cal_report *r);

/**
 * live_cleanup() - remove what runs killed with SIGKILL left: every PREFIX-PID-* cgroup of the
 * cpu hierarchy whose PID is not a running cgsim, after killing the helpers (comm cgsim-live) in
 * it. Says on @log what it removes. 0, or a negative errno with a reason in @err.
 */
int live_cleanup(const char *mountinfo, FILE *log, char *err, size_t errlen);

/**
 * live_cgs_replay() - replay the .cgs script @text (named @fname) on the running kernel's
 * hierarchy for @sem (the cgroup2 mount for v2, the v1 cpu hierarchy for v1), paths relative to
 * its real root, and put its result lines, in the model's format, in *@out (malloc'ed). The
 * script must be one the model ran to its end. Refused with -EINVAL and a reason in @err: not
 * root, no such hierarchy, rfc2017, a top-level name the script touches that exists already,
 * a path with "..". Everything made is undone and the root files written are put back.
 */
int live_cgs_replay(const char *fname, const char *text, enum cg_semantics sem,
		    const char *mountinfo, char **out, char *err, size_t errlen);

#endif /* CGSIM_SIM_LIVE_H */
