/* SPDX-License-Identifier: MIT */
/*
 * sim/replay/tread.h - reading scheduler traces as text, one event at a time (docs/replay.md).
 *
 * Three texts are read, each recognised line by line:
 *
 *   the kernel's trace file and `trace-cmd report`:  COMM-PID [CPU] [FLAGS] SECS: EVENT: ARGS
 *   the same with the record-tgid option (cgsim's --trace): COMM-PID (TGID) [CPU] ...
 *   `perf script` / `perf sched script`:            COMM TID [CPU] SECS: sched:EVENT: ARGS
 *
 * The sched events' arguments are read in the kernel's key=value form and in the form that
 * trace-cmd's and perf's sched plugins print (comm:pid [prio] S ==> comm:pid [prio]).
 * Comments, headers and blank lines are skipped; "CPU:N [LOST M EVENTS]" and "##### CPU N
 * buffer started ####" (a CPU's earlier events overwritten) become TREAD_LOST events; events
 * other than the sched ones below are TREAD_OTHER, by name. A line that cannot be read is an
 * error naming file, line and column, except the last one when it has no line end: a trace cut
 * off while being written (counted as truncated).
 *
 * Memory is one line buffer: a trace of any size is read in one pass.
 */
#ifndef CGSIM_SIM_REPLAY_TREAD_H
#define CGSIM_SIM_REPLAY_TREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TREAD_COMM	16	/* the kernel's TASK_COMM_LEN: 15 bytes and the NUL */
#define TREAD_LINE_MAX	8192	/* longer lines are an error */

enum tread_kind {
	TREAD_SWITCH,		/* a: prev, b: next, prev_state */
	TREAD_WAKING,		/* a: the woken; target_cpu (-1 when not given) */
	TREAD_WAKEUP,
	TREAD_WAKEUP_NEW,
	TREAD_MIGRATE,		/* a: the thread; orig_cpu, dest_cpu */
	TREAD_FORK,		/* a: the parent, b: the child */
	TREAD_EXIT,		/* a: the thread */
	TREAD_LOST,		/* events of @cpu were lost (or overwritten before the trace's start) */
	TREAD_OTHER,		/* any other event: @name */
};

/* How the lines are written: from the first event line read. */
enum tread_format {
	TREAD_FMT_NONE,		/* no event line yet */
	TREAD_FMT_FTRACE,	/* the trace file, trace-cmd report */
	TREAD_FMT_FTRACE_TGID,	/* the same with record-tgid's (TGID) column */
	TREAD_FMT_PERF,		/* perf script */
};

struct tread_task {
	int32_t pid;
	int prio;		/* -1 when not given */
	char comm[TREAD_COMM];
};

struct tread_event {
	enum tread_kind kind;
	uint64_t ns;		/* the timestamp in ns */
	int cpu;		/* the CPU column (for TREAD_LOST: the CPU whose events were lost) */
	/* the task the line was written in the context of (the one running on @cpu) */
	int32_t ctx_pid;
	int32_t ctx_tgid;	/* -1: not in the line */
	char ctx_comm[TREAD_COMM];
	bool irq;		/* the flags say hard or soft interrupt context ("d.h2", "..s1") */
	struct tread_task a, b;
	char prev_state[8];	/* TREAD_SWITCH: "R", "R+", "S", "D", "X", ... */
	int target_cpu, orig_cpu, dest_cpu;
	char name[48];		/* the event's name as written, without a "sched:" system */
	long line;		/* where it was read */
};

/* What was read so far, besides the events returned. */
struct tread_counts {
	uint64_t lines;		/* lines read */
	uint64_t events;	/* events returned, TREAD_LOST and TREAD_OTHER included */
	uint64_t other;		/* TREAD_OTHER events */
	uint64_t lost;		/* TREAD_LOST events */
	bool truncated;		/* the last line had no end and could not be read: skipped */
	bool flags;		/* some event line had latency flags (which say interrupt context) */
};

struct tread;

/*
 * tread_open() - read @f (not owned), called @path in messages. NULL when out of memory.
 */
struct tread *tread_open(FILE *f, const char *path);
void tread_close(struct tread *r);

/*
 * tread_next() - the next event into @ev: 1, or 0 at the end of the text, or -1 with the
 * message ("FILE:LINE:COL: error: ...") in @err.
 */
int tread_next(struct tread *r, struct tread_event *ev, char *err, size_t errlen);

enum tread_format tread_format(const struct tread *r);
const struct tread_counts *tread_counts(const struct tread *r);
/* The format's name, for a report: "ftrace text", "ftrace text with TGID", "perf script". */
const char *tread_format_name(enum tread_format f);

#endif /* CGSIM_SIM_REPLAY_TREAD_H */
