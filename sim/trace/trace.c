// SPDX-License-Identifier: MIT
/*
 * sim/trace/trace.c - ftrace text out of the scheduler's trace hook.
 *
 * A line is "COMM-PID (TGID) [CPU] FLAGS SECONDS.MICROS: EVENT: ARGS", as the kernel prints
 * with the record-tgid option. The context (COMM-PID) is the task running on the CPU the event
 * happens on, "<idle>-0" when none; the events' arguments follow the TP_printk formats of
 * include/trace/events/sched.h. The flags are the four of kernels before 5.15 ("d..2"): the
 * migrate-disable column added since then is not read by Perfetto's text importer, and its
 * value would mean nothing here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"
#include "sim/util/util.h"

#define TRACE_COMM_LEN	16	/* TASK_COMM_LEN: 15 bytes and the NUL */

struct trace_thread {
	char comm[TRACE_COMM_LEN];
	int pid, tgid;
	bool known;
};

struct trace {
	FILE *f;
	int ncpu;
	int *curr;			/* per CPU: the tid running, -1 idle */
	struct trace_thread *thr;	/* by tid */
	size_t nthr, capthr;
	char *map;			/* the header's pid map, one comment line per thread */
	size_t nmap, capmap;
	int err;
};

struct trace *trace_new(FILE *f, int ncpu)
{
	struct trace *tr = calloc(1, sizeof(*tr));

	if (!tr || ncpu <= 0 || !(tr->curr = malloc((size_t)ncpu * sizeof(*tr->curr)))) {
		free(tr);
		return NULL;
	}
	tr->f = f;
	tr->ncpu = ncpu;
	for (int c = 0; c < ncpu; c++)
		tr->curr[c] = -1;
	return tr;
}

void trace_free(struct trace *tr)
{
	if (!tr)
		return;
	free(tr->curr);
	free(tr->thr);
	free(tr->map);
	free(tr);
}

/*
 * A comm or a marker's text as parsers can split it: the importers cut the arguments at
 * spaces and at '=', so those become '_', and control characters become '?'.
 */
static void clean(char *s, bool in_args)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			*s = '?';
		else if (in_args && (c == ' ' || c == '='))
			*s = '_';
	}
}

/* Append to the header's pid map. */
static int map_add(struct trace *tr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int map_add(struct trace *tr, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = tr->capmap - tr->nmap;

		va_start(ap, fmt);
		n = vsnprintf(tr->map ? tr->map + tr->nmap : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < room) {
			tr->nmap += (size_t)n;
			return 0;
		}
		if (UTIL_GROW(tr->map, tr->capmap, tr->nmap + (size_t)n + 1))
			return -ENOMEM;
	}
}

/* Append @s to the pid map, control characters as '?'. */
static int map_add_clean(struct trace *tr, const char *s)
{
	size_t start = tr->nmap;
	int e = map_add(tr, "%s", s);

	if (!e)
		clean(tr->map + start, false);
	return e;
}

int trace_thread(struct trace *tr, int tid, int leader, const char *process, const char *name)
{
	struct trace_thread *t;

	if (tid < 0 || leader < 0 || tid > INT32_MAX - TRACE_PID_BASE ||
	    leader > INT32_MAX - TRACE_PID_BASE)
		return -EINVAL;
	if ((size_t)tid >= tr->nthr) {
		if (UTIL_GROW_ZERO(tr->thr, tr->capthr, (size_t)tid + 1))
			return -ENOMEM;
		tr->nthr = (size_t)tid + 1;
	}
	t = &tr->thr[tid];
	t->known = true;
	t->pid = TRACE_PID_BASE + tid;
	t->tgid = TRACE_PID_BASE + leader;
	snprintf(t->comm, sizeof(t->comm), "%s", name);
	clean(t->comm, true);
	if (map_add(tr, "# %9d %9d  %-15s  ", t->pid, t->tgid, t->comm) ||
	    map_add_clean(tr, process) || map_add(tr, "/") || map_add_clean(tr, name) ||
	    map_add(tr, "\n"))
		return -ENOMEM;
	return 0;
}

void trace_header(struct trace *tr, const char *const *about, size_t nabout)
{
	fputs("# tracer: nop\n#\n", tr->f);
	for (size_t i = 0; i < nabout; i++)
		fprintf(tr->f, "# %s\n", about[i]);
	fprintf(tr->f, "#\n# %9s %9s  %-15s  %s\n", "PID", "TGID", "COMM", "THREAD");
	fprintf(tr->f, "# %9d %9s  %-15s  %s\n", TRACE_MARKER_PID, "1", "cgsim",
		"(trace_marker writes: the timeline and cgroup moves)");
	if (tr->nmap)
		fwrite(tr->map, 1, tr->nmap, tr->f);
	fprintf(tr->f, "#\n# entries-in-buffer/entries-written: -/-   #P:%d\n#\n", tr->ncpu);
	fputs("#                                          _-----=> irqs-off\n"
	      "#                                         / _----=> need-resched\n"
	      "#                                        | / _---=> hardirq/softirq\n"
	      "#                                        || / _--=> preempt-depth\n"
	      "#                                        ||| /     delay\n"
	      "#           TASK-PID       TGID    CPU#  ||||   TIMESTAMP  FUNCTION\n"
	      "#              | |           |       |   ||||      |         |\n", tr->f);
}

static const struct trace_thread *thr(const struct trace *tr, int tid)
{
	return tid >= 0 && (size_t)tid < tr->nthr && tr->thr[tid].known ? &tr->thr[tid] : NULL;
}

/* The start of a line: context, CPU, flags and the time in seconds with 6 decimals. */
static void head_as(struct trace *tr, const char *comm, int pid, const char *tgid, int cpu,
		    const char *flags, uint64_t at)
{
	fprintf(tr->f, "%16s-%-7d (%7s) [%03d] %s %5llu.%06llu: ", comm, pid, tgid, cpu, flags,
		(unsigned long long)(at / 1000000000u), (unsigned long long)(at % 1000000000u / 1000u));
}

/* The start of a line in the context of the task running on @cpu. */
static void head(struct trace *tr, int cpu, const char *flags, uint64_t at)
{
	const struct trace_thread *t = cpu >= 0 && cpu < tr->ncpu ? thr(tr, tr->curr[cpu]) : NULL;
	char tgid[16];

	if (!t) {
		head_as(tr, "<idle>", 0, "-------", cpu, flags, at);
		return;
	}
	snprintf(tgid, sizeof(tgid), "%d", t->tgid);
	head_as(tr, t->comm, t->pid, tgid, cpu, flags, at);
}

/* A task's comm and pid in the arguments; the idle task is swapper/CPU, pid 0. */
static void task_args(struct trace *tr, const char *prefix, int tid, int cpu)
{
	const struct trace_thread *t = thr(tr, tid);

	if (t)
		fprintf(tr->f, "%scomm=%s %spid=%d", prefix, t->comm, prefix, t->pid);
	else if (tid < 0)
		fprintf(tr->f, "%scomm=swapper/%d %spid=0", prefix, cpu, prefix);
	else	/* a thread the run did not name: still one pid per thread */
		fprintf(tr->f, "%scomm=<...> %spid=%d", prefix, prefix, TRACE_PID_BASE + tid);
}

/*
 * prev_state as Linux 6.x prints it. A thread switched out while still runnable shows "R":
 * a user-space thread is preempted on its way back to user mode, a voluntary schedule for
 * the kernel ("R+" marks only a preemption inside the kernel, which the model has no room
 * for). An exiting main thread stays a zombie for its parent ("Z"); another thread is reaped
 * at once ("X").
 */
static const char *state_name(const struct trace *tr, int tid, enum sched_trace_state st)
{
	const struct trace_thread *t = thr(tr, tid);

	switch (st) {
	case SCHED_TRACE_PREEMPTED:
		return "R";
	case SCHED_TRACE_SLEEPING:
		return "S";
	case SCHED_TRACE_EXITED:
		return t && t->pid == t->tgid ? "Z" : "X";
	}
	return "R";
}

void trace_sched(void *ctx, const struct sched_trace_event *ev)
{
	struct trace *tr = ctx;

	switch (ev->kind) {
	case SCHED_TRACE_SWITCH:
		head(tr, ev->cpu, "d..2", ev->at);
		fputs("sched_switch: ", tr->f);
		task_args(tr, "prev_", ev->prev, ev->cpu);
		fprintf(tr->f, " prev_prio=%d prev_state=%s ==> ", ev->prev_prio,
			ev->prev < 0 ? "R" : state_name(tr, ev->prev, ev->prev_state));
		task_args(tr, "next_", ev->tid, ev->cpu);
		fprintf(tr->f, " next_prio=%d\n", ev->prio);
		if (ev->cpu >= 0 && ev->cpu < tr->ncpu)
			tr->curr[ev->cpu] = ev->tid;
		break;
	case SCHED_TRACE_WAKING:
	case SCHED_TRACE_WAKEUP:
	case SCHED_TRACE_WAKEUP_NEW:
		/* a timer's wakeup comes from its interrupt: 'h' (hardirq), as the kernel prints it */
		head(tr, ev->cpu, ev->kind == SCHED_TRACE_WAKING ? (ev->irq ? "d.h4" : "d..4")
								 : (ev->irq ? "d.h3" : "d..3"), ev->at);
		fputs(ev->kind == SCHED_TRACE_WAKING ? "sched_waking: "
		      : ev->kind == SCHED_TRACE_WAKEUP ? "sched_wakeup: " : "sched_wakeup_new: ",
		      tr->f);
		task_args(tr, "", ev->tid, ev->cpu);
		fprintf(tr->f, " prio=%d target_cpu=%03d\n", ev->prio, ev->dest_cpu);
		break;
	case SCHED_TRACE_MIGRATE:
		head(tr, ev->cpu, ev->irq ? "d.h2" : "d..2", ev->at);
		fputs("sched_migrate_task: ", tr->f);
		task_args(tr, "", ev->tid, ev->cpu);
		fprintf(tr->f, " prio=%d orig_cpu=%d dest_cpu=%d\n", ev->prio, ev->orig_cpu,
			ev->dest_cpu);
		break;
	}
	if (!tr->err && ferror(tr->f))
		tr->err = -EIO;
}

void trace_mark(struct trace *tr, uint64_t at, const char *text)
{
	head_as(tr, "cgsim", TRACE_MARKER_PID, "1", 0, "....", at);
	fprintf(tr->f, "tracing_mark_write: B|%d|", TRACE_MARKER_PID);
	for (const char *p = text; *p; p++) {
		unsigned char c = (unsigned char)*p;

		fputc(c < 0x20 || c == 0x7f ? '?' : c, tr->f);
	}
	fputc('\n', tr->f);
	head_as(tr, "cgsim", TRACE_MARKER_PID, "1", 0, "....", at);
	fprintf(tr->f, "tracing_mark_write: E|%d\n", TRACE_MARKER_PID);
	if (!tr->err && ferror(tr->f))
		tr->err = -EIO;
}

int trace_error(const struct trace *tr)
{
	return tr->err;
}
