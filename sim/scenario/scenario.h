/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/scenario.h - a scenario file (docs/scenario-format.md), loaded and checked.
 *
 * Loading is strict: an unknown key, a wrong type, a value out of range is an error with the
 * file, line and column and what would be accepted. A scenario is loaded for one variant: the
 * variant's `set:` overrides and any `--set KEY=VALUE` are applied to the document before it is
 * read, so every value is checked the same way wherever it came from.
 *
 * A file whose text is rt-app JSON (sim/scenario/rtapp.h) is read as an rt-app workload, and a
 * scenario's `workload: FILE.json` adds one to the scenario's own processes and cgroups.
 */
#ifndef CGSIM_SIM_SCENARIO_H
#define CGSIM_SIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup/cgroup.h"
#include "scheduler/sched.h"
#include "sim/workload/workload.h"

/* Limits that keep any input from exhausting memory. */
#define SCN_MAX_THREADS		100000
#define SCN_MAX_CGROUPS		10000
/* The scheduler keeps an entity and a run queue per task group on every CPU (~600 bytes). */
#define SCN_MAX_CGROUP_CPUS	(1u << 20)	/* cgroups created x CPUs */
#define SCN_MAX_TIMELINE	100000
#define SCN_MAX_DURATION_NS	(1000000ull * 1000000000ull)	/* 10^6 s of simulated time */

/*
 * The kernel a scenario models when it names none (scheduler.kernel, docs/kernels.md): the
 * newest cgsim knows, as someone running today's kernels expects.
 */
#define SCN_DEFAULT_KERNEL	sched_kernel_newest()

/* Where something came from, for messages: a place in the file, or a command-line option. */
struct scn_pos {
	int line;
	int col;
	const char *origin;	/* "--set KEY=VALUE" when an override gave it; owned by the scenario */
};

/* One write of a `cgroups:` entry, in file order. */
struct scn_write {
	char *file;		/* interface file name */
	char *value;
	struct scn_pos pos;
};

struct scn_cgroup {
	char *path;		/* "" for the root */
	struct scn_write *writes;
	size_t nwrites;
	struct scn_pos pos;
};

struct scn_threads {
	char *name;		/* the thread group's name: threads are NAME.1 .. NAME.count */
	int count;
	char *cgroup;		/* NULL: the process's cgroup */
	struct sim_thread_spec spec;	/* behaviour, nice, policy, slice, start, stop, affinity */
	struct sim_phase *phases;	/* owned; spec.behavior.phases points here */
	size_t capsteps;		/* phases[], resume[] and step_pos[] hold this many */
	char **resume;		/* per step: a resume step's thread, PROCESS/NAME.N; else NULL */
	struct scn_pos *step_pos;	/* per step: where it is written */
	uint64_t *masks;		/* affinity steps' masks (spec.behavior.masks), owned */
	size_t nmasks;
	char **paths;			/* cgroup steps' paths (spec.behavior.paths), owned */
	size_t npaths;
	char **timers;			/* the names of its own (not shared) timers */
	size_t ntimers;
	uint64_t affinity[SCHED_MAX_CPUS / 64];
	bool has_affinity;
	struct scn_pos pos;
	struct scn_pos cgroup_pos;
};

struct scn_process {
	char *name;
	char *cgroup;		/* "" for the root */
	char *session;		/* NULL: a session of its own */
	struct scn_threads *threads;
	size_t nthreads;
	struct scn_pos pos;
	struct scn_pos cgroup_pos;
};

/* An autogroup session's settings (sessions:). */
struct scn_session {
	char *name;
	int nice;
};

struct scn_event {
	uint64_t at;
	char *op;		/* a .cgs operation */
	struct scn_pos pos;
};

enum scn_metric {
	SCN_M_SHARE,		/* group, process, thread */
	SCN_M_CPU,		/* ns */
	SCN_M_WAIT,
	SCN_M_LAT_P50,
	SCN_M_LAT_P90,
	SCN_M_LAT_P99,
	SCN_M_LAT_MAX,
	SCN_M_LAT_P999,
	SCN_M_LAT_MIN,
	SCN_M_LAT_MEAN,
	SCN_M_DELAYED,		/* fraction of wakeups that waited over SIM_DELAYED_NS */
	SCN_M_SWITCHES,
	SCN_M_MIGRATIONS,
	SCN_M_JAIN,		/* machine-wide */
	SCN_M_MAX_ABS_ERROR,
	SCN_M_MAX_REL_ERROR,
	SCN_M_OVERHEAD,		/* fraction of capacity */
	SCN_M_LEVEL_OPS,	/* per simulated second */
	SCN_M_SWITCH_RATE,	/* per simulated second */
};

enum scn_target {
	SCN_T_MACHINE,
	SCN_T_GROUP,
	SCN_T_PROCESS,
	SCN_T_THREAD,
};

struct scn_expect {
	char *variant;		/* NULL: every variant */
	enum scn_target target;
	char *name;		/* group path, process name, or "PROCESS/NAME.N" */
	enum scn_metric metric;
	double value;		/* with tolerance */
	double tolerance;
	bool has_value;
	double min, max;	/* bounds (±inf when absent) */
	struct scn_pos pos;
};

struct scn_variant {
	char *name;
	char *transform;	/* NULL or "interpose" */
	char *ipo_group;	/* interpose: the new group's name (default: the process's) */
	char *ipo_process;	/* interpose: only this process (default: every candidate) */
	unsigned ipo_weight;	/* interpose: the new group's cpu.weight (default 100) */
	struct scn_pos pos;
};

#define SCN_MAX_NODES	64	/* machine.numa.nodes */

struct scn_source;

struct scenario {
	char *file;
	char *text;		/* the file's bytes as read (@src's: not this scenario's to free) */
	struct scn_source *src;	/* the file read and parsed once: other variants load from it */
	char *name;
	char *description;
	char *variant;		/* the variant this was loaded for ("base") */
	uint64_t seed;
	uint64_t duration;
	uint64_t warmup;
	uint64_t interval;	/* time series interval */
	enum cg_semantics semantics;
	struct sched_config sched;	/* its machine from machine: (sim/scenario/scn_topology.c) */
	bool autogroup;
	struct sim_dist timer_latency;	/* machine.timer_latency (struct sim_wakeup_noise) */
	struct sim_dist idle_exit;	/* machine.idle_exit */
	double steal;			/* machine.steal, 0 .. 0.5 (struct sim_wakeup_noise) */
	uint64_t steal_period;		/* machine.steal_period */
	uint64_t clock_phase;		/* machine.clock_phase when a time ... */
	bool clock_phase_set;		/* ... rather than random */
	struct scn_cgroup *cgroups;
	size_t ncgroups;
	struct scn_process *procs;
	size_t nprocs;
	struct scn_session *sessions;
	size_t nsessions;
	struct scn_event *timeline;
	size_t ntimeline;
	struct scn_variant *variants;	/* declared variants, base excluded */
	size_t nvariants;
	struct scn_expect *expect;
	size_t nexpect;
	int total_threads;
	/* sweep: run every variant with KEY set to each of VALUES (cgsim compare) */
	char *sweep_key;
	char **sweep_values;
	size_t nsweep;
	enum scn_target sweep_target;	/* what the sweep's table shows */
	enum scn_metric sweep_metric;	/* of it: SCN_M_SHARE, a latency, SCN_M_DELAYED; for the
					 * machine, SCN_M_OVERHEAD */
	char *sweep_name;
	struct scn_pos sweep_pos;
	/* what synchronisation steps name, by kind; index = sim_phase.obj (or obj2) */
	char **mutexes;		/* lock, unlock; wait's and sync's mutex */
	size_t nmutexes;
	char **conds;		/* wait, sync, signal, broadcast */
	size_t nconds;
	char **barriers;
	size_t nbarriers;
	char **timers;		/* shared timers */
	size_t ntimers;
	char **origins;		/* the strings scn_pos.origin points to */
	size_t norigins;
	bool rtapp;		/* the file is an rt-app workload itself (text: its JSON) */
	/* "FILE:LINE:COL: note: ..." for what an rt-app workload has that cgsim ignores */
	char **notes;
	size_t nnotes;
};

/*
 * A scenario file is read and parsed once, into a source; each variant, seed and sweep value
 * is then a copy of its document with the overrides applied, read into a scenario of its own.
 *
 * scn_source_read() - read @path (or @text when non-NULL, named @path in messages: standard
 * input can be read only once) and parse it, an rt-app workload named by its workload: key
 * merged in. The source, holding one reference, or NULL with "FILE:LINE:COL: error: ..." (or
 * "cgsim: ...") in @err.
 * scn_source_load() - the scenario of @src for @variant ("base" or NULL for the file as
 * written), applying @nsets overrides "KEY=VALUE" (dotted paths into the document) after the
 * variant's own, then the file's sweep value @sweep (0-based) at the sweep's key as one more
 * (SCN_NO_SWEEP: none). The scenario holds a reference to @src (as its @src). NULL with the
 * message in @err.
 * scn_source_get(), scn_source_put() - take and drop a reference; the last frees the source.
 */
#define SCN_NO_SWEEP ((size_t)-1)
struct scn_source *scn_source_read(const char *path, const char *text, char *err,
				   size_t errlen);
struct scenario *scn_source_load(struct scn_source *src, const char *variant,
				 const char *const *sets, size_t nsets, size_t sweep, char *err,
				 size_t errlen);
struct scn_source *scn_source_get(struct scn_source *src);
void scn_source_put(struct scn_source *src);
/* scn_source_path() - the path @src was read as (what its messages name). */
const char *scn_source_path(const struct scn_source *src);
/*
 * The traces that processes with trace: name are read once per source, at the first load that
 * needs them (the same file: device, inode, size and modification time), and kept for the
 * source's other loads: its variants, seeds and sweep values. scn_source_forget_traces()
 * drops them once every load is made, so that the runs do not carry them (a later load reads
 * them again).
 */
void scn_source_forget_traces(struct scn_source *src);

/* scn_load(), scn_load_swept() - a source read, one scenario loaded from it, the source put. */
struct scenario *scn_load(const char *path, const char *text, const char *variant,
			  const char *const *sets, size_t nsets, char *err, size_t errlen);
struct scenario *scn_load_swept(const char *path, const char *text, const char *variant,
				const char *const *sets, size_t nsets, size_t sweep, char *err,
				size_t errlen);
void scn_free(struct scenario *sc);


/* scn_parse_time() - "10s", "1.5ms", "250us", "100ns" (or "0") to ns; -EINVAL / -ERANGE. */
int scn_parse_time(const char *s, uint64_t *ns);
/* scn_parse_dist() - "exp(3ms)", "uniform(1ms, 2ms)", ..., or a bare time (fixed). */
int scn_parse_dist(const char *s, struct sim_dist *d);

#endif /* CGSIM_SIM_SCENARIO_H */
