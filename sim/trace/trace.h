/* SPDX-License-Identifier: MIT */
/*
 * sim/trace/trace.h - a run as ftrace text (docs/trace.md): the lines the kernel's trace file
 * and `trace-cmd report` print for the sched events, which Perfetto's and LISA's text importers
 * read. The scheduler's trace hook (sched_set_trace_hook()) feeds it; the run adds its timeline
 * operations and the machine its cgroup moves, as trace_marker writes.
 *
 * Every thread has a fixed pid, TRACE_PID_BASE + its tid in the cgroup model, and its process
 * the pid of its main thread; its comm is its name (NAME.N) cut to the kernel's 15 bytes. The
 * header's comment lines map each pid to the report's name (PROCESS/NAME.N).
 *
 * Lines are written as the events happen, which is in time order: the scheduler is driven in
 * time order and timestamps its events with the time it is called at.
 */
#ifndef CGSIM_SIM_TRACE_H
#define CGSIM_SIM_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "scheduler/sched.h"

#define TRACE_PID_BASE	1000
/* The pid of the timeline's marker writes: a stand-in for the tool writing trace_marker. */
#define TRACE_MARKER_PID	1

struct trace;

/* trace_new() - a trace of a machine with @ncpu CPUs, written to @f (not owned). NULL: ENOMEM. */
struct trace *trace_new(FILE *f, int ncpu);
void trace_free(struct trace *tr);

/*
 * trace_thread() - thread @tid of the model, in process @leader (the tid of its main thread),
 * called @process/@name in the report. Before trace_header(); 0 or -ENOMEM, -EINVAL.
 */
int trace_thread(struct trace *tr, int tid, int leader, const char *process, const char *name);

/*
 * trace_header() - the header: "# tracer: nop", @about lines (each a comment; may be NULL),
 * the pid map and the column legend. Before any event.
 */
void trace_header(struct trace *tr, const char *const *about, size_t nabout);

/* trace_sched() - a sched_trace_fn: @ctx is the trace. */
void trace_sched(void *ctx, const struct sched_trace_event *ev);

/*
 * trace_mark() - a trace_marker write at @at holding @text (control characters replaced), as
 * an atrace slice of no length (B|pid|text, then E|pid) so that Perfetto shows it on the
 * timeline's track.
 */
void trace_mark(struct trace *tr, uint64_t at, const char *text);

/* trace_error() - 0, or the first write error (a negative errno). */
int trace_error(const struct trace *tr);

#endif /* CGSIM_SIM_TRACE_H */
