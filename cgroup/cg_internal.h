/* SPDX-License-Identifier: MIT */
/*
 * cgroup/cg_internal.h - what the files of cgroup/ share and nobody else may use.
 *
 * The structures mirror the kernel's fields of the same names (struct cgroup in
 * include/linux/cgroup-defs.h) where the model keeps the same state; derived predicates live in
 * hier.c, as in kernel/cgroup/cgroup.c.
 */
#ifndef CGSIM_CG_INTERNAL_H
#define CGSIM_CG_INTERNAL_H

#include "cgroup/cgroup.h"

#include <limits.h>

#define CG__NAME_MAX 255	/* kernfs: NAME_MAX */

/* A CPU mask as the kernel's cpumask: bit c is word c / 64, bit c % 64. */
struct cg__cpumask {
	uint64_t w[CG_CPUMASK_WORDS];
};

struct cg_thread;

/* Intrusive doubly linked list of the threads attached to one cgroup. */
struct cg__tlist {
	struct cg_thread *head;
	int count;
};

struct cg_cgroup {
	int id;
	char *name;
	size_t name_len;
	struct cg_cgroup *parent;
	struct cg_cgroup *children;	/* first child; siblings in creation order */
	struct cg_cgroup *last_child;
	struct cg_cgroup *next, *prev;	/* siblings */
	int level;			/* root 0 */

	/*
	 * v2: the resource domain. Itself for a domain or thread root, the thread root for a
	 * threaded cgroup; cgroup_is_threaded(c) is dom_cgrp != c (kernel: cgrp->dom_cgrp).
	 */
	struct cg_cgroup *dom_cgrp;
	int nr_threaded_children;	/* live threaded children */

	/* Populated state as cgroup_update_populated() keeps it. */
	struct cg__tlist tasks;		/* threads here; tasks.count stands for nr_populated_csets */
	int nr_populated_domain_children;
	int nr_populated_threaded_children;

	int nr_descendants;
	int max_depth;			/* INT_MAX = "max" */
	int max_descendants;

	cg_mask subtree_control;
	bool freeze;			/* cgroup.freeze as written */

	/* rfc2017: the thread root of the subtree this cgroup is in, NULL outside thread mode. */
	struct cg_cgroup *rfc_root;

	/* The cpu css: present iff cpu is in the parent's subtree_control (always on v1). */
	bool has_cpu;
	struct cg_cpu_params cpu;

	/*
	 * The cpuset css of a non-root cgroup: present iff cpuset is in the parent's
	 * subtree_control (never on v1). cpus_req is cpuset.cpus as written (the kernel's
	 * cpus_allowed; empty when nothing was requested, always empty without a css and on the
	 * root). cpus_eff is kept for every cgroup: cpuset.cpus.effective where there is a css,
	 * else the parent's cpus_eff (the set that governs the cgroup's threads); the root's is
	 * CPUs 0 .. nr_cpus - 1.
	 */
	bool has_cpuset;
	struct cg__cpumask cpus_req;
	struct cg__cpumask cpus_eff;
	/*
	 * cpuset.mems as written, on a machine of one memory node (node 0): whether node 0 is
	 * requested (the kernel's mems_allowed; false without a css and on the root). The effective
	 * set is node 0 everywhere: the request & the parent's, or the parent's when that is empty.
	 */
	bool mems_req;

	/* The pids css: present iff pids is in the parent's subtree_control (never on v1). */
	bool has_pids;
	long long pids_max;		/* pids.max; PIDS_MAX (pids.c) = "max" */
};

struct cg_process;

struct cg_thread {
	int tid;
	int index;			/* N of NAME.N, 1-based */
	bool dead;
	struct cg_process *proc;
	struct cg_cgroup *cg;
	struct cg_thread *next, *prev;	/* in cg->tasks */
};

struct cg_process {
	char *name;
	int nthreads;
	bool dead;
	struct cg_thread **threads;	/* [0] is the leader, NAME.1 */
};

struct cg_hier {
	enum cg_semantics sem;
	cg_mask root_mask;		/* controllers bound to the hierarchy (cgroup.controllers of /) */
	bool touched;			/* something happened: the root mask is fixed */

	struct cg_cgroup **cgroups;	/* by id; NULL once removed */
	int nr_cgroups, cap_cgroups;
	struct cg_cgroup *root;

	struct cg_thread **threads;	/* by tid; [0] unused */
	int nr_threads, cap_threads;
	int max_threads;	/* CG_MAX_THREADS; the unit tests lower it */

	struct cg_process **procs;	/* in creation order */
	int nr_procs, cap_procs;
	/* Open-addressing hash of process names to indexes in procs[]. */
	int *name_slots;
	int cap_slots;
	/*
	 * Open-addressing hash of live non-root cgroups by (parent, name) to ids, as kernfs
	 * keeps each directory's entries in a tree: a look-up costs O(1), not O(siblings).
	 */
	int *child_slots;
	int cap_child_slots, nr_child_slots;

	int nr_cpus;			/* the machine's CPUs: nr_cpu_ids */

	cg_observer_fn *obs;
	void *obs_ctx;
	cg_stat_fn *stat;
	void *stat_ctx;

	enum cg_rule refusal;		/* what refused the last operation (refusal.c) */
};

/*
 * refusal.c: every public operation is cg__begin() ... return cg__done(h, r); every refusal is
 * return cg__refuse(h, CG_RULE_..., -Exxx).
 */
void cg__begin(struct cg_hier *h);
int cg__done(struct cg_hier *h, int r);
int cg__refuse(struct cg_hier *h, enum cg_rule rule, int err);

/* hier.c */
bool cg__is_threaded(const struct cg_cgroup *c);
bool cg__is_mixable(const struct cg_cgroup *c);
bool cg__can_be_thread_root(const struct cg_cgroup *c);
bool cg__is_thread_root(const struct cg_cgroup *c);
bool cg__is_valid_domain(const struct cg_cgroup *c);
bool cg__is_populated(const struct cg_cgroup *c);
cg_mask cg__control(const struct cg_hier *h, const struct cg_cgroup *c);
const char *cg__type_name(const struct cg_cgroup *c);
int cg__resolve(const struct cg_hier *h, const char *path, struct cg_cgroup **out,
		enum cg_rule *why);
int cg__enable_threaded(struct cg_hier *h, struct cg_cgroup *c);
int cg__subtree_control_write(struct cg_hier *h, struct cg_cgroup *c, const char *buf);
int cg__procs_write(struct cg_hier *h, struct cg_cgroup *dst, const char *buf, bool threadgroup);
int cg__kill(struct cg_hier *h, struct cg_cgroup *c);
int cg__rfc_threads_mode(struct cg_hier *h, struct cg_cgroup *c, bool enable);
int cg__task_lookup(struct cg_hier *h, const char *buf, struct cg_thread **out);
void cg__emit(struct cg_hier *h, const struct cg_event *ev);
void cg__cpu_defaults(struct cg_cpu_params *p);
int cg__tg_of(const struct cg_cgroup *c);
struct cg_cgroup *cg__next_pre(struct cg_cgroup *d, const struct cg_cgroup *root);

/* files.c */
int cg__file_read(struct cg_hier *h, struct cg_cgroup *c, const char *file, char **out);
int cg__file_write(struct cg_hier *h, struct cg_cgroup *c, const char *file, const char *value);
bool cg__file_exists(const struct cg_hier *h, const struct cg_cgroup *c, const char *file);
int cg__bad_value(struct cg_hier *h, enum cg_rule rule, int r);

/* parse.c: the kernel's kstrto*() and friends, so that odd input is refused as it refuses it */
int cg__kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int cg__kstrtoll(const char *s, unsigned int base, long long *res);
char *cg__strstrip(char *s);
int cg__cpulist_parse(const char *buf, int nbits, struct cg__cpumask *out);

/* A growable text buffer for file contents. */
struct cg__buf {
	char *s;
	size_t len, cap;
	bool oom;
};
void cg__buf_printf(struct cg__buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cg__buf_add(struct cg__buf *b, const char *s, size_t n);
int cg__buf_finish(struct cg__buf *b, char **out);

/*
 * An interface file as the kernel's struct cftype: on which rule sets it exists, where, and its
 * handlers (NULL: the operation is -EINVAL). Each controller's file keeps its own table, ended
 * by a NULL name; files.c looks a name up in them in the order of its list.
 */
#define CG__SEM_V2 (1u << CG_SEM_V2)
#define CG__SEM_RFC (1u << CG_SEM_RFC2017)
#define CG__SEM_V1 (1u << CG_SEM_V1)

enum {
	CG__F_NOT_ON_ROOT = 1,	/* CFTYPE_NOT_ON_ROOT */
	CG__F_CPU = 2,		/* a cpu file: needs the cpu css */
	CG__F_CPUSET = 4,	/* cpuset file: needs the cpuset css (the root's: cpuset bound) */
	CG__F_PIDS = 8,		/* a pids file: needs the pids css */
	CG__F_ONLY_ON_ROOT = 16,	/* CFTYPE_ONLY_ON_ROOT */
};

struct cg__file_def {
	const char *name;
	unsigned int sems;
	unsigned int flags;
	int (*read)(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b);
	int (*write)(struct cg_hier *h, struct cg_cgroup *c, const char *v);
};

extern const struct cg__file_def cg__base_files[];	/* files_base.c: cgroup.* */
extern const struct cg__file_def cg__cpu_files[];	/* files_cpu.c: cpu.* of v2 */
extern const struct cg__file_def cg__cpu_legacy_files[];	/* files_cpu.c: cpu.* of v1 */
extern const struct cg__file_def cg__cpuset_files[];	/* cpuset.c: cpuset.* */
extern const struct cg__file_def cg__pids_files[];	/* pids.c: pids.* */

/* cpuset.c */
void cg__cpuset_init_root(struct cg_hier *h);
void cg__cpuset_mkdir(struct cg_cgroup *c);
void cg__cpuset_apply(struct cg_hier *h, struct cg_cgroup *c, cg_mask old);
int cg__cpuset_write(struct cg_hier *h, struct cg_cgroup *c, const char *buf);
void cg__cpulist_print(struct cg__buf *b, const struct cg__cpumask *m, int nbits);
int cg__cpuset_check(const struct cg_hier *h, const struct cg_cgroup *c);

/* pids.c */
void cg__pids_mkdir(struct cg_cgroup *c);
void cg__pids_apply(struct cg_cgroup *c, cg_mask old);
int cg__pids_check(const struct cg_hier *h, const struct cg_cgroup *c);

/* hier.c and tasks.c: what the files of the hierarchy share */
struct cg_cgroup *cg__cg_get(const struct cg_hier *h, int id);
int cg__grow(void **arr, int *cap, int need, size_t elem);
bool cg__member_like(const struct cg_hier *h, const struct cg_cgroup *c);
uint64_t cg__name_hash(const char *s, size_t len);
int cg__table_grow(int n, int **slots, int *cap);
void cg__tasks_add(struct cg_thread *t, struct cg_cgroup *c);
void cg__tasks_del(struct cg_thread *t);

#endif /* CGSIM_CG_INTERNAL_H */
