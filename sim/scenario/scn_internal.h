/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/scn_internal.h - what the files of the scenario loader share, and nothing else includes.
 *
 * The loader reads a YAML tree (sim/scenario/yaml.h) into struct scenario (sim/scenario/scenario.h): scenario.c
 * drives it (read the file, apply the overrides, read each section, check the names), and each
 * of the others owns a part, named in the groups below. Every function here reports what it
 * refuses through scn__bad(), at the node it refuses, and returns false; the first message
 * wins.
 */
#ifndef CGSIM_SIM_SCN_INTERNAL_H
#define CGSIM_SIM_SCN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml.h"

/* What a process that takes threads from a trace selected (scn_trace.c), for a later `rest` */
#define SCN_TRACE_SELS 64
struct scn_trace_sel {
	const char *trace;	/* the trace as written (the YAML tree's string) */
	const char *comm;	/* NULL: any */
	long long tgid, pid;	/* -1: any */
};

/* The state of one load: where messages go and the scenario being filled. */
struct rd {
	const char *file;
	char *err;
	size_t errlen;
	bool failed;
	bool rtapp;		/* the file is an rt-app workload (sim/scenario/rtapp.h) */
	struct scenario *sc;
	struct scn_trace_sel tsel[SCN_TRACE_SELS];	/* the trace processes read so far */
	size_t ntsel;
	struct scn_chain *chain;	/* chained trace processes to link (scn_trace.c) */
	struct scn_traces **traces;	/* the source's traces, read once for all its loads */
};

/* scn_values.c: messages, shapes, scalar values */
bool scn__bad(struct rd *r, const struct yn *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool scn__known_keys(struct rd *r, const struct yn *map, const char *const *allowed,
		     const char *what);
bool scn__parse_bool(struct rd *r, const struct yn *n, const char *what, bool *out);
bool scn__parse_dist(struct rd *r, const struct yn *n, const char *what, struct sim_dist *d);
bool scn__parse_int(struct rd *r, const struct yn *n, const char *what, long long lo,
		    long long hi, long long *out);
bool scn__parse_time(struct rd *r, const struct yn *n, const char *what, uint64_t lo,
		     uint64_t hi, uint64_t *out);
bool scn__parse_u64(struct rd *r, const struct yn *n, const char *what, uint64_t *out);
struct scn_pos scn__pos_kv(const struct yn *key, const struct yn *val);
struct scn_pos scn__pos_of(const struct yn *n);
bool scn__scalar(struct rd *r, const struct yn *n, const char *what);
bool scn__want(struct rd *r, const struct yn *n, enum yn_kind k, const char *what);
char *scn__xstrdup(struct rd *r, const struct yn *n, const char *s);

/* scn_tree.c: overrides */
bool scn__apply_overrides(struct rd *r, struct yn *root, const char *variant,
			  const char *const *sets, size_t nsets, size_t sweep);

/* scn_layout.c: machine, scheduler, cgroups, sessions, processes */
bool scn__read_cgroups(struct rd *r, const struct yn *m);
bool scn__read_machine(struct rd *r, const struct yn *m, int *cpus, uint32_t *hz,
		       struct scenario *sc);
bool scn__read_name(struct rd *r, const struct yn *n, const char *what, char **out);
bool scn__read_path(struct rd *r, const struct yn *n, const char *what, char **out);
bool scn__read_processes(struct rd *r, const struct yn *m, int cpus);
/* scn_trace.c: a process entry with trace: (its threads from the trace) into @p */
bool scn__read_trace_process(struct rd *r, const struct yn *body, struct scn_process *p);
/* ...once every process is read, the chained ones' steps; then what they kept, freed */
bool scn__trace_link(struct rd *r);
/* what scn__trace_link() would free, on a load that failed before it */
void scn__trace_free(struct rd *r);
/* the traces a source's loads have read (scn_source_forget_traces(), the source's end) */
struct scn_traces;
void scn__traces_free(struct scn_traces *t);
/* scheduler.kernel's defaults into @cfg (SCN_DEFAULT_KERNEL's without it), on @cpus CPUs */
bool scn__read_kernel(struct rd *r, const struct yn *sched, int cpus, struct sched_config *cfg);
bool scn__read_scheduler(struct rd *r, const struct yn *m, struct sched_config *cfg);
bool scn__read_costs(struct rd *r, const struct yn *t, const char *what,
		     struct sched_config *cfg);
bool scn__read_sessions(struct rd *r, const struct yn *m);
bool scn__read_cpus(struct rd *r, const struct yn *n, int cpus, uint64_t *mask);

/*
 * scn_topology.c: machine.topology and machine.numa into the config's machine (@r->sc->sched
 * .machine, machine.cpus single-thread cores in one LLC without them); *@cpus from them unless
 * @cpus_given
 */
bool scn__read_topology(struct rd *r, const struct yn *machine, int *cpus, bool cpus_given);

/* scn_steps.c: the phases behaviour and its steps; the barriers' threads, once all are read */
bool scn__read_phases(struct rd *r, const struct yn *body, struct scn_threads *t, int cpus);
bool scn__count_barriers(struct rd *r);

/* scn_plan.c: timeline, expect, variants, sweep */
bool scn__read_expect(struct rd *r, const struct yn *s);
bool scn__read_sweep(struct rd *r, const struct yn *m);
bool scn__read_timeline(struct rd *r, const struct yn *s);
bool scn__read_variants_decl(struct rd *r, const struct yn *m);

#endif /* CGSIM_SIM_SCN_INTERNAL_H */
