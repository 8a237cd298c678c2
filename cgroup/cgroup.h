/* SPDX-License-Identifier: MIT */
/*
 * cgroup/cgroup.h - the cgroup hierarchy model: the module's whole interface.
 *
 * One `struct cg_hier` is one mounted hierarchy with one rule set (v2, rfc2017 or v1). It holds
 * cgroups, processes and their threads, and answers cgroupfs operations (mkdir, rmdir, read and
 * write of interface files) exactly as the kernel does, errno included; docs/cgroup-model.md
 * lists every rule with the kernel function it mirrors.
 *
 * Conventions: functions return 0 or a negative errno (the kernel's numbers from <errno.h>);
 * -CG_ENONAME is our own code for "the value names no process or thread the model knows"
 * (a script error, not a kernel answer). Cgroups and threads are identified by small integer
 * ids that are never reused: cgroup 0 is the root, thread ids are the tids (1, 2, ... in
 * creation order). The model knows nothing of the scheduler; it tells an observer what changed.
 */
#ifndef CGSIM_CGROUP_H
#define CGSIM_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CG_ENONAME 4095	/* returned negated: no process or thread of that name */

enum cg_semantics {
	CG_SEM_V2,	/* cgroup v2, thread mode as merged in 4.14 */
	CG_SEM_RFC2017,	/* Tejun Heo's February 2017 thread-mode proposal */
	CG_SEM_V1,	/* the cgroup v1 cpu hierarchy */
};

/* Controllers in the kernel's subsystem order (include/linux/cgroup_subsys.h). */
enum cg_ctrl {
	CG_CTRL_CPUSET,
	CG_CTRL_CPU,
	CG_CTRL_IO,
	CG_CTRL_MEMORY,
	CG_CTRL_PERF_EVENT,	/* implicit on v2: never listed, never enabled by hand */
	CG_CTRL_HUGETLB,
	CG_CTRL_PIDS,
	CG_CTRL_RDMA,
	CG_CTRL_MISC,
	CG_CTRL_COUNT
};

typedef uint32_t cg_mask;
#define CG_MASK(c) ((cg_mask)1u << (c))
/* Controllers with .threaded = true (cpu, cpuset, perf_event, pids). */
#define CG_THREADED_MASK \
	(CG_MASK(CG_CTRL_CPUSET) | CG_MASK(CG_CTRL_CPU) | CG_MASK(CG_CTRL_PERF_EVENT) | \
	 CG_MASK(CG_CTRL_PIDS))

/*
 * CPU masks (cg_thread_cpus(), cg_cpuset_effective()) are arrays of 64-bit words, CPU c being
 * bit c % 64 of word c / 64, like the kernel's cpumask on a 64-bit machine.
 */
#define CG_NR_CPUS_MAX 1024
#define CG_NR_CPUS_DEFAULT 8	/* until cg_set_nr_cpus(): room for lists in .cgs scripts */
#define CG_CPUMASK_WORDS (CG_NR_CPUS_MAX / 64)

/* The kernel's RUNTIME_INF: no quota. */
#define CG_QUOTA_MAX UINT64_MAX

/* The cpu controller's settings of one task group, in kernel units. */
struct cg_cpu_params {
	unsigned long shares;	/* tg->shares unscaled: 1024 for cpu.weight 100 */
	bool idle;		/* cpu.idle */
	uint64_t quota_us;	/* CG_QUOTA_MAX when unlimited */
	uint64_t period_us;
	uint64_t burst_us;
};

/* What the observer is told. Ids are cgroup ids; a task group has its cgroup's id. */
enum cg_event_kind {
	CG_EV_TG_CREATED,	/* cgroup got a cpu css: .cgroup, .parent_tg */
	CG_EV_TG_DESTROYED,	/* cgroup lost its cpu css (no thread is left in it) */
	CG_EV_THREAD_NEW,	/* .thread created, in task group .new_tg */
	CG_EV_THREAD_MOVED,	/* .thread from task group .old_tg to .new_tg (cgroup .cgroup) */
	CG_EV_THREAD_EXITED,	/* .thread killed (cgroup.kill), it was in .old_tg */
	CG_EV_TG_PARAMS,	/* weight, idle or bandwidth of task group .cgroup changed */
	CG_EV_THREADED,		/* cgroup .cgroup became threaded (informational) */
	CG_EV_CPUSET,		/* the effective CPUs of cgroup .cgroup changed (see below) */
};

/*
 * CG_EV_CPUSET is sent once for each cgroup whose effective CPU set (cg_cpuset_effective())
 * changed, parents before children, after the whole change is applied: a cpuset.cpus write,
 * "-cpuset" in a subtree_control (its children lose their css and take their parent's set),
 * cg_set_nr_cpus(). The threads attached to that very cgroup are those whose cg_thread_cpus()
 * changed; a cgroup without a cpuset css gets the event when the set it inherits changes. No
 * event for a new cgroup or "+cpuset" (the inherited set stays the same); a thread that moves
 * or is created is reported by CG_EV_THREAD_MOVED / CG_EV_THREAD_NEW, whose receiver asks
 * cg_thread_cpus() again.
 */

struct cg_event {
	enum cg_event_kind kind;
	int cgroup;
	int parent_tg;
	int thread;
	int old_tg;
	int new_tg;
};

typedef void cg_observer_fn(void *ctx, const struct cg_event *ev);

/* cpu.stat counters supplied by whoever runs the simulation (all zero without one). */
struct cg_cpu_stat {
	uint64_t usage_usec, user_usec, system_usec, nice_usec;
	uint64_t nr_periods, nr_throttled, throttled_usec, nr_bursts, burst_usec;
};
typedef void cg_stat_fn(void *ctx, int cgroup, struct cg_cpu_stat *out);

struct cg_hier;

/**
 * cg_hier_new() - create a hierarchy holding only its root cgroup.
 * @sem: the rule set.
 *
 * The root offers every controller the model knows (v2, rfc2017) until cg_set_root_controllers()
 * says otherwise. Returns NULL when out of memory; free with cg_hier_free().
 */
struct cg_hier *cg_hier_new(enum cg_semantics sem);
void cg_hier_free(struct cg_hier *h);
enum cg_semantics cg_hier_semantics(const struct cg_hier *h);

/** cg_semantics_parse() - "v2", "rfc2017" or "v1" to its enum; -EINVAL otherwise. */
int cg_semantics_parse(const char *name, enum cg_semantics *out);
const char *cg_semantics_name(enum cg_semantics sem);

/** cg_ctrl_name() - the controller's name as cgroupfs spells it. */
const char *cg_ctrl_name(enum cg_ctrl c);
/** cg_ctrl_parse() - name to controller; -EINVAL for a name the model does not know. */
int cg_ctrl_parse(const char *name, enum cg_ctrl *out);

/**
 * cg_set_root_controllers() - choose the controllers bound to this hierarchy (what the root's
 * cgroup.controllers lists). Only before any cgroup, process or subtree_control change;
 * -EBUSY after, -EINVAL for perf_event (implicit) or on v1 for anything but cpu.
 */
int cg_set_root_controllers(struct cg_hier *h, cg_mask mask);

/**
 * cg_set_nr_cpus() - the machine's number of CPUs (the kernel's nr_cpu_ids), 1 ..
 * CG_NR_CPUS_MAX; CG_NR_CPUS_DEFAULT until called. The root's cpuset.cpus.effective is
 * 0 .. @n - 1 and cpuset.cpus writes naming CPU @n or above fail with -ERANGE. Meant for setup;
 * a later call drops CPUs >= @n from every cpuset.cpus, recomputes the effective sets and sends
 * CG_EV_CPUSET for each that changed. Returns 0 or -EINVAL for @n out of range.
 */
int cg_set_nr_cpus(struct cg_hier *h, int n);
int cg_nr_cpus(const struct cg_hier *h);

/** cg_set_observer() - the one observer told of every change (NULL to stop). */
void cg_set_observer(struct cg_hier *h, cg_observer_fn *fn, void *ctx);
/** cg_set_stat_provider() - where cpu.stat reads get their numbers. */
void cg_set_stat_provider(struct cg_hier *h, cg_stat_fn *fn, void *ctx);

/* ---- cgroupfs operations. Paths are relative to the root; "" or "." is the root. ---- */

int cg_mkdir(struct cg_hier *h, const char *path);
int cg_rmdir(struct cg_hier *h, const char *path);
/**
 * cg_write() - write @value to the interface file @path ("DIR/FILE" or "FILE" for the root's).
 * Returns 0 or the kernel's negative errno (ENOENT for a file that does not exist there).
 */
int cg_write(struct cg_hier *h, const char *path, const char *value);
/**
 * cg_read() - read the interface file @path.
 * @out: on success, a malloc'ed NUL-terminated copy of the content (lines end in '\n'; pids and
 *       tids are written as names, sorted by process name then thread number); the caller frees.
 * Returns 0 or a negative errno (*out untouched).
 */
int cg_read(struct cg_hier *h, const char *path, char **out);

/* The threads one hierarchy holds at most, over all its processes (tids are ints). */
#define CG_MAX_THREADS 10000000

/**
 * cg_proc_new() - create process @name with @nthreads threads (NAME.1 .. NAME.N) in the root.
 * Returns the process's pid (the tid of NAME.1) or -EINVAL for a bad name (letters, digits,
 * '_', '-', not starting with a digit, at most 63 bytes) or a count below 1, -EEXIST for a name
 * in use, -EAGAIN when the hierarchy would hold more than CG_MAX_THREADS threads (as fork()
 * fails past threads-max; cg_threads_left() says how many more fit), -ENOMEM.
 */
int cg_proc_new(struct cg_hier *h, const char *name, int nthreads);
/** cg_threads_left() - how many more threads the hierarchy can hold. */
int cg_threads_left(const struct cg_hier *h);

/* ---- typed queries, for the scheduler and the scenario loader ---- */

/** cg_lookup() - cgroup id of @path, or -ENOENT. */
int cg_lookup(const struct cg_hier *h, const char *path);
/** cg_path() - the cgroup's path ("/" for the root) into @buf; returns @buf. */
const char *cg_path(const struct cg_hier *h, int cgroup, char *buf, size_t len);
/** cg_cgroup_parent() - parent cgroup id, -1 for the root or a dead id. */
int cg_cgroup_parent(const struct cg_hier *h, int cgroup);
/** cg_cgroup_alive() - whether @cgroup names a live cgroup. */
bool cg_cgroup_alive(const struct cg_hier *h, int cgroup);
/** cg_cgroup_max_id() - one more than the largest cgroup id ever given. */
int cg_cgroup_max_id(const struct cg_hier *h);

/** cg_thread_max_id() - one more than the largest tid ever given (tids start at 1). */
int cg_thread_max_id(const struct cg_hier *h);
/** cg_thread_lookup() - tid of "NAME.N" or of process "NAME" (its main thread); -CG_ENONAME. */
int cg_thread_lookup(const struct cg_hier *h, const char *name);
/** cg_thread_alive() - whether @tid is a live thread. */
bool cg_thread_alive(const struct cg_hier *h, int tid);
/** cg_thread_cgroup() - the cgroup holding thread @tid, or -ESRCH. */
int cg_thread_cgroup(const struct cg_hier *h, int tid);
/** cg_thread_name() - "NAME.N" into @buf; returns @buf. */
const char *cg_thread_name(const struct cg_hier *h, int tid, char *buf, size_t len);
/** cg_thread_pid() - tid of the thread's process leader. */
int cg_thread_pid(const struct cg_hier *h, int tid);

/**
 * cg_thread_tg() - the thread's cpu task group: the nearest ancestor-or-self of its cgroup that
 * has a cpu css (cpu enabled in its parent's subtree_control; every cgroup on v1), else 0.
 */
int cg_thread_tg(const struct cg_hier *h, int tid);
/** cg_is_tg() - whether @cgroup is a task group (has a cpu css; the root always). */
bool cg_is_tg(const struct cg_hier *h, int cgroup);
/** cg_tg_parent() - the parent task group of task group @cgroup (-1 for the root). */
int cg_tg_parent(const struct cg_hier *h, int cgroup);
/** cg_tg_params() - the cpu settings of task group @cgroup; -ENOENT if it is none. */
int cg_tg_params(const struct cg_hier *h, int cgroup, struct cg_cpu_params *out);

/**
 * cg_cpuset_effective() - the effective CPUs of cgroup @cgroup into @mask, all @nwords words
 * written (at least (nr_cpus + 63) / 64 of them): its cpuset.cpus.effective when it has a cpuset
 * css, else that of its nearest ancestor with one, else the root's (all CPUs).
 * Returns 0, -ENOENT for a dead or unknown cgroup, -EINVAL when @nwords is too small.
 */
int cg_cpuset_effective(const struct cg_hier *h, int cgroup, uint64_t *mask, size_t nwords);
/**
 * cg_thread_cpus() - the CPUs thread @tid may run on as far as cpusets go: the effective set of
 * its cgroup, as cg_cpuset_effective(). Returns 0, -ESRCH for an unknown or killed thread,
 * -EINVAL when @nwords is too small.
 */
int cg_thread_cpus(const struct cg_hier *h, int tid, uint64_t *mask, size_t nwords);

/**
 * cg_check() - verify the model's invariants (counters, links, types, cpusets: every effective
 * set non-empty, within its parent's, and what the rules give); 0 or -EUCLEAN.
 */
int cg_check(const struct cg_hier *h);

/* ---- the .cgs interpreter (cgroup/script.c); see docs/cgroup-model.md ---- */

/**
 * cg_script_run() - run the script @text (named @fname in messages) against a new hierarchy
 * with rule set @sem and append one result line per operation to @out (docs/cgs-language.md's
 * format). On a malformed line nothing more is run, a message "FNAME:LINE:COL: ..." is put in
 * @err (size @errlen) and -EINVAL returned; -ENOMEM when out of memory; 0 otherwise.
 * @out is a malloc'ed buffer the caller frees (set even on error, possibly NULL).
 */
int cg_script_run(enum cg_semantics sem, const char *fname, const char *text, char **out,
		  char *err, size_t errlen);

/**
 * cg_script_line() - run one .cgs operation @line against the existing hierarchy @h, as line
 * @lineno of @fname. On success *@out holds its result line ("LINENO: OP ARGS -> RESULT\n",
 * malloc'ed; NULL for a blank or comment line) and 0 is returned, whatever the operation's
 * errno. A malformed line gives -EINVAL and "FNAME:LINENO:COL: error: ..." in @err;
 * root-controllers is refused (a hierarchy in use cannot change its controllers).
 */
int cg_script_line(struct cg_hier *h, const char *fname, int lineno, const char *line, char **out,
		   char *err, size_t errlen);

/* ---- why an operation was refused -------------------------------------------------------- */

/*
 * Every refusal of an operation comes from one rule, one row here: its enum name, a short
 * stable id (for messages and docs/cgroup-model.md's list) and a sentence that states the rule.
 * The errno is the operation's return value; one rule may answer different errnos (a number
 * kstrtoull() refuses is EINVAL, one it cannot hold ERANGE).
 */
#define CG_RULES(X)									\
	X(NONE, "none", "no refusal")							\
	X(OUT_OF_MEMORY, "out-of-memory", "the model ran out of memory")			\
	/* paths and files */								\
	X(NO_SUCH_CGROUP, "no-such-cgroup", "no cgroup has that path")			\
	X(NOT_A_DIRECTORY, "not-a-directory",						\
	  "a component of the path is an interface file, not a cgroup")			\
	X(PATH_TOO_LONG, "path-too-long",						\
	  "a path has at most 4095 bytes and a cgroup name at most 255")		\
	X(IS_A_DIRECTORY, "is-a-directory", "the path names a cgroup, not an interface file") \
	X(NO_SUCH_FILE, "no-such-file",							\
	  "no interface file of that name exists in this rule set")			\
	X(ROOT_HAS_NO_FILE, "root-has-no-file", "the root cgroup has no such file")	\
	X(ONLY_ON_ROOT, "only-on-root", "the file exists on the root cgroup only")	\
	X(NO_CPU_CSS, "no-cpu-css",							\
	  "the cpu files exist only where the parent enables cpu in its "		\
	  "cgroup.subtree_control")							\
	X(NO_CPUSET_CSS, "no-cpuset-css",						\
	  "the cpuset files exist only where the parent enables cpuset in its "		\
	  "cgroup.subtree_control")							\
	X(NO_PIDS_CSS, "no-pids-css",							\
	  "the pids files exist only where the parent enables pids in its "		\
	  "cgroup.subtree_control")							\
	X(NOT_WRITABLE, "not-writable", "the file is read-only")			\
	X(NOT_READABLE, "not-readable", "the file is write-only")			\
	/* mkdir, rmdir */								\
	X(NAME_EXISTS, "name-exists",							\
	  "a cgroup or an interface file of that name exists already")			\
	X(NAME_NEWLINE, "name-newline", "a cgroup name cannot contain a newline")	\
	X(MAX_DESCENDANTS, "max-descendants",						\
	  "an ancestor has as many descendants as its cgroup.max.descendants allows")	\
	X(MAX_DEPTH, "max-depth",							\
	  "the new cgroup would be deeper below an ancestor than its cgroup.max.depth allows") \
	X(RMDIR_ROOT, "rmdir-root", "the root cgroup cannot be removed")		\
	X(RMDIR_POPULATED, "rmdir-populated",						\
	  "a cgroup with threads in it or below it cannot be removed")			\
	X(RMDIR_CHILDREN, "rmdir-children", "a cgroup with child cgroups cannot be removed") \
	/* processes and migration */							\
	X(PROC_NAME, "proc-name",							\
	  "a process name is letters, digits, '_' and '-', not starting with a digit, "	\
	  "at most 63 bytes")								\
	X(PROC_THREADS, "proc-threads", "a process has at least one thread")		\
	X(PROC_EXISTS, "proc-exists", "a process of that name exists already")		\
	X(THREADS_MAX, "threads-max", "the hierarchy holds at most 10,000,000 threads")	\
	X(PID_SYNTAX, "pid-syntax",							\
	  "the value must be one pid or tid (or a process or thread name)")		\
	X(NO_SUCH_TASK, "no-such-task", "no live process or thread has that pid or tid")	\
	X(NO_SUCH_NAME, "no-such-name", "no process or thread has that name")		\
	X(DOMAIN_INVALID, "domain-invalid",						\
	  "the cgroup is 'domain invalid' (a domain below a thread root): it takes no "	\
	  "processes and enables no controllers until it is made threaded")		\
	X(NO_INTERNAL_PROCESSES, "no-internal-processes",				\
	  "no internal processes: a cgroup cannot hold processes and enable controllers " \
	  "for its children at once (the root and thread roots excepted)")		\
	X(THREAD_DOMAIN, "thread-domain",						\
	  "a thread can move only within its process's resource domain (its threaded "	\
	  "subtree)")									\
	X(RFC_THREADS_OUTSIDE, "rfc-threads-outside",					\
	  "under rfc2017, cgroup.threads works only inside a threaded subtree")		\
	X(RFC_PROCS_MEMBER, "rfc-procs-member",						\
	  "under rfc2017, whole processes enter a threaded subtree only at its thread root") \
	X(PROCS_THREADED, "procs-threaded",						\
	  "cgroup.procs cannot be read in a threaded cgroup (its thread root lists the "	\
	  "processes)")									\
	/* cgroup.type and thread mode */						\
	X(TYPE_VALUE, "type-value", "only 'threaded' can be written to cgroup.type")	\
	X(TYPE_POPULATED, "type-populated",						\
	  "a cgroup with threads in it or below it cannot become threaded")		\
	X(TYPE_DOMAIN_CONTROLLERS, "type-domain-controllers",				\
	  "a cgroup that enables domain controllers cannot become threaded")		\
	X(TYPE_PARENT, "type-parent",							\
	  "a cgroup can become threaded only if its parent's domain is valid and can be a " \
	  "thread root (no populated domain children, no domain controllers enabled)")	\
	X(RFC_THREAD_ROOT_BUSY, "rfc-thread-root-busy",					\
	  "under rfc2017, thread mode changes only in a cgroup with no children and "	\
	  "nothing in its cgroup.subtree_control")					\
	X(RFC_NOT_THREAD_ROOT, "rfc-not-thread-root",					\
	  "under rfc2017, thread mode is disabled at its thread root only")		\
	/* cgroup.subtree_control */							\
	X(CONTROL_SYNTAX, "control-syntax",						\
	  "cgroup.subtree_control takes words +NAME or -NAME of known controllers, "	\
	  "separated by spaces")							\
	X(CONTROL_NOT_AVAILABLE, "control-not-available",				\
	  "the controller is not available here: the parent must enable it first "	\
	  "(top-down; a threaded cgroup gets only the threaded ones)")			\
	X(CONTROL_USED_BELOW, "control-used-below",					\
	  "a controller cannot be disabled while a child cgroup enables it")		\
	X(THREADED_DOMAIN_CONTROLLER, "threaded-domain-controller",			\
	  "a thread root or a threaded cgroup can enable only threaded controllers "	\
	  "(cpu, cpuset, perf_event, pids)")						\
	X(RFC_THREADED_DOMAIN_CONTROLLER, "rfc-threaded-domain-controller",		\
	  "under rfc2017, a threaded subtree can enable only threaded controllers")	\
	/* values of interface files */						\
	X(VALUE_SYNTAX, "value-syntax",							\
	  "the value is not an integer the kernel's kstrto*() accepts (one number, "	\
	  "decimal, 0x hex or 0 octal, one trailing newline)")				\
	X(MAX_COUNT_VALUE, "max-count-value",						\
	  "cgroup.max.depth and cgroup.max.descendants take 'max' or an integer >= 0")	\
	X(FREEZE_VALUE, "freeze-value", "cgroup.freeze takes 0 or 1")			\
	X(KILL_VALUE, "kill-value", "cgroup.kill takes only 1")				\
	X(KILL_THREADED, "kill-threaded",						\
	  "cgroup.kill kills whole processes: a threaded cgroup refuses it")		\
	X(WEIGHT_RANGE, "weight-range", "cpu.weight takes an integer from 1 to 10000")	\
	X(WEIGHT_NICE_RANGE, "weight-nice-range",					\
	  "cpu.weight.nice takes an integer from -20 to 19")				\
	X(WEIGHT_IDLE, "weight-idle",							\
	  "the weight of an idle group (cpu.idle 1) cannot be changed")		\
	X(ROOT_CPU, "root-cpu", "the root task group's weight, bandwidth and idle state are fixed") \
	X(IDLE_VALUE, "idle-value", "cpu.idle takes 0 or 1")				\
	X(CPU_MAX_SYNTAX, "cpu-max-syntax",						\
	  "cpu.max takes 'max' or a quota in microseconds, then optionally a period")	\
	X(BANDWIDTH_OVERFLOW, "bandwidth-overflow",					\
	  "quota, period and burst must fit in 64 bits as nanoseconds")			\
	X(BANDWIDTH_MIN, "bandwidth-min", "quota and period are at least 1000 us (1 ms)")	\
	X(PERIOD_MAX, "period-max", "the period is at most 1000000 us (1 s)")		\
	X(QUOTA_MAX, "quota-max", "the quota is at most 2^44 - 1 us")			\
	X(BURST_RANGE, "burst-range",							\
	  "the burst is at most the quota, and burst + quota at most 2^44 - 1 us")	\
	X(V1_HIERARCHICAL_QUOTA, "v1-hierarchical-quota",				\
	  "on v1, a group's quota/period ratio may not exceed that of its nearest "	\
	  "limited ancestor")								\
	X(CPULIST_SYNTAX, "cpulist-syntax",						\
	  "cpuset.cpus takes a CPU list such as 0-3,6 of CPUs below the machine's count") \
	X(PIDS_MAX_VALUE, "pids-max-value",						\
	  "pids.max takes 'max' or an integer from 0 to 4194304")			\
	X(CPUSET_EMPTY, "cpuset-empty",							\
	  "a populated cgroup's cpuset.cpus cannot go from a set of CPUs to empty")	\
	X(NODELIST_SYNTAX, "nodelist-syntax",						\
	  "cpuset.mems takes a node list such as 0 or 0-1 of nodes below 1024 "		\
	  "(MAX_NUMNODES)")								\
	X(MEMS_NODE, "mems-node",							\
	  "cpuset.mems takes only nodes that have memory: the model's machine has one, "	\
	  "node 0")									\
	X(MEMS_EMPTY, "mems-empty",							\
	  "a populated cgroup's cpuset.mems cannot go from a set of nodes to empty")	\
	X(PARTITION_VALUE, "partition-value",						\
	  "cpuset.cpus.partition takes 'member', 'root' or 'isolated'")		\
	X(NOT_MODELLED, "not-modelled",							\
	  "the model does not model this operation (cpuset partitions and exclusive "	\
	  "CPUs): it answers ENOSYS rather than guess the kernel's answer")		\
	/* set-up of a hierarchy */							\
	X(ROOT_CONTROLLERS_FIXED, "root-controllers-fixed",				\
	  "the controllers of a hierarchy are chosen before anything else happens in it") \
	X(ROOT_CONTROLLERS_VALUE, "root-controllers-value",				\
	  "a hierarchy binds known controllers other than perf_event (implicit), "	\
	  "on v1 exactly cpu")								\
	X(NR_CPUS_RANGE, "nr-cpus-range", "the machine has 1 to 1024 CPUs")

enum cg_rule {
#define CG__RULE_ENUM(name, id, text) CG_RULE_##name,
	CG_RULES(CG__RULE_ENUM)
#undef CG__RULE_ENUM
	CG_RULE_COUNT
};

/**
 * cg_refusal() - the rule that refused the last operation on @h that failed (cg_mkdir(),
 * cg_rmdir(), cg_write(), cg_read(), cg_proc_new(), cg_set_root_controllers(),
 * cg_set_nr_cpus()); CG_RULE_NONE when that operation succeeded. Never CG_RULE_NONE after a
 * failure: every refusal names its rule.
 */
enum cg_rule cg_refusal(const struct cg_hier *h);
/** cg_rule_id() - the rule's short stable id ("no-internal-processes"); "?" if unknown. */
const char *cg_rule_id(enum cg_rule rule);
/** cg_rule_text() - the rule as a sentence without its final full stop. */
const char *cg_rule_text(enum cg_rule rule);

/**
 * cg_file_suggest() - for an interface file @name that rule set @sem does not have, the one
 * it most likely meant: the closest of its files by spelling (two edits at most, a swap of
 * neighbours one), else the same setting under @sem's name (cpu.shares: cpu.weight on v2);
 * NULL when @name is a file of @sem or nothing is close.
 */
const char *cg_file_suggest(enum cg_semantics sem, const char *name);

/** cg_errno_name() - "EBUSY" for EBUSY (EOPNOTSUPP for 95); "E?" if unknown. */
const char *cg_errno_name(int err);

#endif /* CGSIM_CGROUP_H */
