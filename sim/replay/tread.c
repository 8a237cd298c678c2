// SPDX-License-Identifier: MIT
/*
 * sim/replay/tread.c - scheduler traces as text, one event at a time (tread.h).
 *
 * A line is taken apart from its CPU column, "[NNN]", which every format has and which a
 * comm cannot end at: what comes before is the task (COMM-PID, COMM-PID (TGID) or COMM TID),
 * what comes after is optional flags, the timestamp, the event's name and its arguments. A
 * comm may hold spaces, dashes, colons and brackets, so a comm value is read up to the key
 * that follows it (" prev_pid=", " pid=") rather than to a space, and a task up to its last
 * dash.
 */
#include "sim/replay/tread.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util/util.h"

struct tread {
	FILE *f;
	const char *path;
	char buf[TREAD_LINE_MAX + 1];
	enum tread_format format;
	struct tread_counts counts;
};

struct tread *tread_open(FILE *f, const char *path)
{
	struct tread *r = calloc(1, sizeof(*r));

	if (r) {
		r->f = f;
		r->path = path;
	}
	return r;
}

void tread_close(struct tread *r)
{
	free(r);
}

enum tread_format tread_format(const struct tread *r)
{
	return r->format;
}

const struct tread_counts *tread_counts(const struct tread *r)
{
	return &r->counts;
}

const char *tread_format_name(enum tread_format f)
{
	switch (f) {
	case TREAD_FMT_FTRACE:
		return "ftrace text";
	case TREAD_FMT_FTRACE_TGID:
		return "ftrace text with TGID";
	case TREAD_FMT_PERF:
		return "perf script";
	case TREAD_FMT_NONE:
		break;
	}
	return "no events";
}

/* A line being read: its text and where a complaint points. */
struct tline {
	struct tread *r;
	const char *s;		/* the line, without its end */
	char *err;
	size_t errlen;
};

static int bad(const struct tline *l, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const struct tline *l, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	util_verrf(l->err, l->errlen, l->r->path, NULL, (int)l->r->counts.lines,
		   (int)(at - l->s) + 1, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A decimal number of at most 18 digits at @p: its end, or NULL. */
static const char *num(const char *p, long long *v, bool sign)
{
	bool neg = false;
	long long x = 0;
	int n = 0;

	if (sign && *p == '-') {
		neg = true;
		p++;
	}
	while (isdigit((unsigned char)*p) && n < 18) {
		x = x * 10 + (*p++ - '0');
		n++;
	}
	if (!n || isdigit((unsigned char)*p))
		return NULL;
	*v = neg ? -x : x;
	return p;
}

/* @n bytes of @s as a comm: at most 15 kept, as the kernel keeps them */
static void comm_set(char *dst, const char *s, size_t n)
{
	if (n > TREAD_COMM - 1)
		n = TREAD_COMM - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static const char *timestamp(const char *p, uint64_t *ns);

/* The CPU column "[NNN]" after a blank: its '[', or NULL. */
static const char *cpu_column(const char *s, int *cpu)
{
	for (const char *p = strchr(s, '['); p; p = strchr(p + 1, '[')) {
		long long v;
		const char *e;

		if (p == s || (p[-1] != ' ' && p[-1] != '\t'))
			continue;
		e = num(p + 1, &v, false);
		if (e && *e == ']' && v < 100000) {
			*cpu = (int)v;
			return p;
		}
	}
	return NULL;
}

/*
 * trace-cmd report -l's CPU and flags in one word, "0d..2." (CPU 0, flags "d..2."): a word of
 * digits then 4 or 5 flag characters, followed by the timestamp, starting before @end. Its
 * start, or NULL; *@flags: where the flags start.
 */
static const char *latency_column(const char *s, const char *end, int *cpu, const char **flags)
{
	for (const char *w = s; *w && w < end; w++) {
		const char *d = w, *f;
		long long v;
		uint64_t ns;

		if (w == s || (w[-1] != ' ' && w[-1] != '\t') || !isdigit((unsigned char)*w))
			continue;
		while (isdigit((unsigned char)*d))
			d++;
		for (f = d; *f && (*f == '.' || isalnum((unsigned char)*f)); f++)
			;
		if (f - d < 4 || f - d > 5 || (*f != ' ' && *f != '\t') || !timestamp(skip_sp(f), &ns) ||
		    !num(w, &v, false) || v >= 100000)
			continue;
		*cpu = (int)v;
		*flags = d;
		return w;
	}
	return NULL;
}

/*
 * The task before the CPU column, [@s, @end): COMM-PID, COMM-PID (TGID) or perf's COMM TID
 * (or COMM PID/TID). Sets the event's context and, on the first line, the format.
 */
static int task_field(const struct tline *l, const char *s, const char *end, struct tread_event *ev)
{
	enum tread_format fmt;
	const char *p = end, *digits;
	long long v, tgid = -1;

	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	if (p > s && p[-1] == ')') {		/* (TGID), or (-------) when the kernel had none */
		const char *open = p - 1;

		while (open > s && open[-1] != '(')
			open--;
		if (open == s)
			return bad(l, p - 1, "a ')' without its '(' in the task column");
		if (!num(skip_sp(open), &tgid, false))
			tgid = -1;
		p = open - 1;
		while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
			p--;
		fmt = TREAD_FMT_FTRACE_TGID;
	} else {
		fmt = TREAD_FMT_FTRACE;
	}
	digits = p;
	while (digits > s && isdigit((unsigned char)digits[-1]))
		digits--;
	if (digits == p || !num(digits, &v, false))
		return bad(l, p, "the task column does not end in a pid (COMM-PID, or perf's COMM TID)");
	if (digits > s && digits[-1] == '/' && fmt == TREAD_FMT_FTRACE) {	/* perf: PID/TID */
		const char *q = digits - 1;

		while (q > s && isdigit((unsigned char)q[-1]))
			q--;
		if (!num(q, &tgid, false))
			return bad(l, q, "expected perf's PID/TID");
		digits = q;
		fmt = TREAD_FMT_PERF;
	}
	if (digits > s && digits[-1] == '-' && fmt != TREAD_FMT_PERF) {
		s = skip_sp(s);
		comm_set(ev->ctx_comm, s, (size_t)(digits - 1 - s));
	} else if (digits > s && (digits[-1] == ' ' || digits[-1] == '\t') && fmt != TREAD_FMT_FTRACE_TGID) {
		const char *c = digits;

		while (c > s && (c[-1] == ' ' || c[-1] == '\t'))
			c--;
		s = skip_sp(s);
		comm_set(ev->ctx_comm, s, c > s ? (size_t)(c - s) : 0);
		fmt = TREAD_FMT_PERF;
	} else {
		return bad(l, digits, "expected COMM-PID before the CPU column");
	}
	ev->ctx_pid = (int32_t)v;
	ev->ctx_tgid = (int32_t)tgid;
	if (l->r->format == TREAD_FMT_NONE)
		l->r->format = fmt;
	return 0;
}

/* "SECS.FRACTION:" at @p, 1 to 9 decimals, into ns: its end after the ':', or NULL. */
static const char *timestamp(const char *p, uint64_t *ns)
{
	long long sec;
	uint64_t frac = 0;
	int n = 0;

	p = num(p, &sec, false);
	if (!p || *p != '.' || sec > 9000000000LL)
		return NULL;
	for (p++; isdigit((unsigned char)*p); p++, n++) {
		if (n == 9)
			return NULL;
		frac = frac * 10 + (uint64_t)(*p - '0');
	}
	if (!n || *p != ':')
		return NULL;
	for (; n < 9; n++)
		frac *= 10;
	*ns = (uint64_t)sec * 1000000000ull + frac;
	return p + 1;
}

/*
 * A key's place in the arguments: "KEY=" at their start or after a blank, so that "pid=" is
 * not found in "prev_pid=". NULL when absent.
 */
static const char *key_at(const char *args, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = strstr(args, key); p; p = strstr(p + 1, key))
		if ((p == args || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static int key_num(const struct tline *l, const char *args, const char *key, long long *v)
{
	const char *p = key_at(args, key);

	if (!p)
		return bad(l, args, "no %s= in the event's arguments", key);
	if (!num(p, v, true))
		return bad(l, p, "%s= is not a number", key);
	return 0;
}

/* A comm value: from "KEY=" up to " NEXT=" (a comm may hold blanks). */
static int key_comm(const struct tline *l, const char *args, const char *key, const char *next,
		    char *out)
{
	const char *p = key_at(args, key), *e;
	char pat[24];

	if (!p)
		return bad(l, args, "no %s= in the event's arguments", key);
	snprintf(pat, sizeof(pat), " %s=", next);
	e = strstr(p, pat);
	if (!e)
		return bad(l, p, "no %s= after %s=", next, key);
	comm_set(out, p, (size_t)(e - p));
	return 0;
}

/* key=value form: comm= pid= prio= of one task (as in sched_waking, sched_migrate_task) */
static int kv_task(const struct tline *l, const char *args, struct tread_task *t)
{
	long long pid, prio = -1;

	if (key_comm(l, args, "comm", "pid", t->comm) || key_num(l, args, "pid", &pid))
		return -1;
	if (key_at(args, "prio") && key_num(l, args, "prio", &prio))
		return -1;
	t->pid = (int32_t)pid;
	t->prio = (int)prio;
	return 0;
}

/*
 * The plugins' form of a task, "COMM:PID [PRIO]" ending at @end: its start, or NULL. The
 * priority is optional; the comm is whatever comes before the last ':' of the part.
 */
static const char *plugin_task(const char *s, const char *end, struct tread_task *t)
{
	const char *p = end, *colon;
	long long v, prio = -1;

	while (p > s && p[-1] == ' ')
		p--;
	if (p > s && p[-1] == ']') {
		const char *o = p - 1;

		while (o > s && o[-1] != '[')
			o--;
		if (o == s || !num(o, &prio, true))
			return NULL;
		p = o - 1;
		while (p > s && p[-1] == ' ')
			p--;
	}
	colon = p;
	while (colon > s && isdigit((unsigned char)colon[-1]))
		colon--;
	if (colon == p || colon == s || colon[-1] != ':' || !num(colon, &v, false))
		return NULL;
	t->pid = (int32_t)v;
	t->prio = (int)prio;
	comm_set(t->comm, skip_sp(s), (size_t)(colon - 1 - skip_sp(s)));
	return s;
}

/* sched_switch's SIDE_comm= SIDE_pid= SIDE_prio= (SIDE: prev, next) */
static int kv_side(const struct tline *l, const char *args, const char *side, struct tread_task *t)
{
	char comm[16], pid[16], prio[16];
	long long v;

	snprintf(comm, sizeof(comm), "%s_comm", side);
	snprintf(pid, sizeof(pid), "%s_pid", side);
	snprintf(prio, sizeof(prio), "%s_prio", side);
	if (key_comm(l, args, comm, pid, t->comm) || key_num(l, args, pid, &v))
		return -1;
	t->pid = (int32_t)v;
	if (key_num(l, args, prio, &v))
		return -1;
	t->prio = (int)v;
	return 0;
}

static int parse_switch(const struct tline *l, const char *args, struct tread_event *ev)
{
	const char *arrow = strstr(args, " ==> ");

	if (!arrow)
		return bad(l, args, "sched_switch without ' ==> '");
	if (key_at(args, "prev_comm")) {
		const char *st;
		size_t n = 0;

		if (kv_side(l, args, "prev", &ev->a) || kv_side(l, arrow, "next", &ev->b))
			return -1;
		if (!(st = key_at(args, "prev_state")))
			return bad(l, args, "no prev_state= in sched_switch");
		while (st[n] && st[n] != ' ' && n < sizeof(ev->prev_state) - 1)
			n++;
		memcpy(ev->prev_state, st, n);
		ev->prev_state[n] = '\0';
		return 0;
	}
	/* plugin form: COMM:PID [PRIO] STATE ==> COMM:PID [PRIO] */
	{
		const char *st = arrow, *end = args + strlen(args);
		size_t n;

		while (st > args && st[-1] != ' ' && st[-1] != ']')
			st--;
		n = (size_t)(arrow - st);
		if (!n || n >= sizeof(ev->prev_state))
			return bad(l, st, "expected the previous task's state before ' ==> '");
		memcpy(ev->prev_state, st, n);
		ev->prev_state[n] = '\0';
		if (!plugin_task(args, st, &ev->a))
			return bad(l, args, "expected COMM:PID [PRIO] before the state");
		while (end > arrow && (end[-1] == ' ' || end[-1] == '\n'))
			end--;
		if (!plugin_task(arrow + 5, end, &ev->b))
			return bad(l, arrow + 5, "expected COMM:PID [PRIO] after ' ==> '");
	}
	return 0;
}

/* sched_waking, sched_wakeup, sched_wakeup_new: key=value, or the plugin's COMM:PID [PRIO] CPU:N */
static int parse_wakeup(const struct tline *l, const char *args, struct tread_event *ev)
{
	long long v;
	const char *cpu;

	ev->target_cpu = -1;
	if (key_at(args, "comm")) {
		if (kv_task(l, args, &ev->a))
			return -1;
		if (key_at(args, "target_cpu")) {
			if (key_num(l, args, "target_cpu", &v))
				return -1;
			ev->target_cpu = (int)v;
		}
		return 0;
	}
	cpu = strstr(args, "CPU:");
	{
		const char *end = cpu ? cpu : args + strlen(args);
		const char *s = strstr(args, " success=");

		if (s && s < end)
			end = s;
		if (!plugin_task(args, end, &ev->a))
			return bad(l, args, "expected comm= pid= or COMM:PID [PRIO]");
	}
	if (cpu) {
		if (!num(cpu + 4, &v, false))
			return bad(l, cpu + 4, "CPU: is not a number");
		ev->target_cpu = (int)v;
	}
	return 0;
}

static int parse_args(const struct tline *l, const char *args, struct tread_event *ev)
{
	long long v;

	if (!strcmp(ev->name, "sched_switch")) {
		ev->kind = TREAD_SWITCH;
		return parse_switch(l, args, ev);
	}
	if (!strcmp(ev->name, "sched_waking") || !strcmp(ev->name, "sched_wakeup") ||
	    !strcmp(ev->name, "sched_wakeup_new")) {
		ev->kind = ev->name[11] == 'g' ? TREAD_WAKING :
			   ev->name[12] == '_' ? TREAD_WAKEUP_NEW : TREAD_WAKEUP;
		return parse_wakeup(l, args, ev);
	}
	if (!strcmp(ev->name, "sched_migrate_task")) {
		ev->kind = TREAD_MIGRATE;
		if (kv_task(l, args, &ev->a) || key_num(l, args, "orig_cpu", &v))
			return -1;
		ev->orig_cpu = (int)v;
		if (key_num(l, args, "dest_cpu", &v))
			return -1;
		ev->dest_cpu = (int)v;
		return 0;
	}
	if (!strcmp(ev->name, "sched_process_fork")) {
		ev->kind = TREAD_FORK;
		if (key_comm(l, args, "comm", "pid", ev->a.comm) || key_num(l, args, "pid", &v))
			return -1;
		ev->a.pid = (int32_t)v;
		if (key_comm(l, args, "child_comm", "child_pid", ev->b.comm) ||
		    key_num(l, args, "child_pid", &v))
			return -1;
		ev->b.pid = (int32_t)v;
		ev->a.prio = ev->b.prio = -1;
		return 0;
	}
	if (!strcmp(ev->name, "sched_process_exit")) {
		ev->kind = TREAD_EXIT;
		return kv_task(l, args, &ev->a);
	}
	ev->kind = TREAD_OTHER;
	return 0;
}

/* "CPU:N [LOST M EVENTS]", "CPU N: lost events", "##### CPU N buffer started ####" */
static bool lost_line(const char *s, struct tread_event *ev)
{
	long long v;
	const char *p;

	if (!strncmp(s, "#####", 5) && (p = strstr(s, "CPU ")) && num(p + 4, &v, false) &&
	    strstr(s, "buffer started")) {
		ev->cpu = (int)v;
		return true;
	}
	if (strncmp(s, "CPU", 3))
		return false;
	p = skip_sp(s + 3);
	if (*p == ':')
		p = skip_sp(p + 1);
	if (!(p = num(p, &v, false)))
		return false;
	if (!strstr(p, "LOST") && !strstr(p, "lost"))
		return false;
	ev->cpu = (int)v;
	return true;
}

/* Lines that say nothing about the run: trace-cmd report's header, a CPU with no data. */
static bool header_line(const char *s)
{
	return !strncmp(s, "cpus=", 5) || !strncmp(s, "version", 7) ||
	       (!strncmp(s, "CPU", 3) && strstr(s, "is empty"));
}

/* One line @s: 1 an event, 0 nothing, -1 an error. */
static int parse_line(struct tline *l, struct tread_event *ev)
{
	const char *s = skip_sp(l->s), *col, *p, *name, *after;
	size_t n;
	int cpu;

	memset(ev, 0, sizeof(*ev));
	ev->line = (long)l->r->counts.lines;
	ev->target_cpu = ev->orig_cpu = ev->dest_cpu = -1;
	ev->a.prio = ev->b.prio = -1;
	if (!*s || header_line(s))
		return 0;
	if (lost_line(s, ev)) {
		ev->kind = TREAD_LOST;
		strcpy(ev->name, "lost events");
		return 1;
	}
	if (*s == '#')
		return 0;
	/* a "[120]" of the plugin's arguments comes after the latency form's column */
	if ((col = cpu_column(s, &cpu)))
		after = skip_sp(strchr(col, ']') + 1);
	if ((p = latency_column(s, col ? col : s + strlen(s), &cpu, &after)))
		col = p;
	else if (!col)
		return bad(l, s, "no CPU column ([NNN], or trace-cmd report -l's 0d..2.): not a "
			   "line of a trace");
	ev->cpu = cpu;
	if (task_field(l, s, col, ev))
		return -1;
	p = after;
	if (!timestamp(p, &ev->ns)) {		/* flags first (d..2, dNh1.): one word */
		const char *f = p;

		while (*p && *p != ' ' && *p != '\t')
			p++;
		/* the third: 'h' hardirq, 's' softirq, 'H' hardirq inside softirq, 'z'/'Z' NMI */
		ev->irq = p - f >= 4 && strchr("hsHzZ", f[2]);
		l->r->counts.flags = true;
		p = skip_sp(p);
	}
	if (!(p = timestamp(p, &ev->ns)))
		return bad(l, after, "expected a timestamp in seconds (1234.567890:)");
	name = skip_sp(p);
	/* the name ends at ": " or at the end; perf writes it "sched:sched_switch:" */
	for (p = name; *p && !(p[0] == ':' && (p[1] == ' ' || p[1] == '\0')); p++)
		;
	if (p == name || !*p)
		return bad(l, name, "expected an event's name and ': '");
	{
		const char *last = name;

		for (const char *q = name; q < p; q++)
			if (*q == ':')
				last = q + 1;
		n = (size_t)(p - last);
		if (!n || n >= sizeof(ev->name))
			return bad(l, name, "an event's name of %zu bytes", n);
		memcpy(ev->name, last, n);
		ev->name[n] = '\0';
	}
	return parse_args(l, skip_sp(p + 1), ev) ? -1 : 1;
}

/*
 * The next line into r->buf, without its end: its length, or -1 at the end of the text, -2 for
 * a line too long, -3 for a NUL byte (at *@at), -4 for a read error. *@complete: it ended with
 * a line end (the last line of a text may not).
 */
static long read_line(struct tread *r, bool *complete, size_t *at)
{
	size_t n = 0;
	int c;

	*complete = false;
	while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
		if (n == TREAD_LINE_MAX) {
			while ((c = getc_unlocked(r->f)) != EOF && c != '\n')
				;
			return -2;
		}
		if (!c) {
			*at = n;
			return -3;
		}
		r->buf[n++] = (char)c;
	}
	if (c == EOF && ferror(r->f))
		return -4;
	if (c == EOF && !n)
		return -1;
	*complete = c == '\n';
	if (n && r->buf[n - 1] == '\r')
		n--;
	r->buf[n] = '\0';
	return (long)n;
}

int tread_next(struct tread *r, struct tread_event *ev, char *err, size_t errlen)
{
	for (;;) {
		struct tline l = { r, r->buf, err, errlen };
		bool complete;
		size_t at = 0;
		long n = read_line(r, &complete, &at);
		int rc;

		if (n == -1)
			return 0;
		if (n == -4) {
			util_errf(err, errlen, r->path, NULL, 0, 0, "cannot be read");
			return -1;
		}
		r->counts.lines++;
		if (n == -2)
			return bad(&l, r->buf + TREAD_LINE_MAX, "a line longer than %d bytes",
				   TREAD_LINE_MAX);
		if (n == -3) {
			r->buf[at] = '\0';
			return bad(&l, r->buf + at, "a NUL byte in a line");
		}
		rc = parse_line(&l, ev);
		if (rc < 0 && !complete) {	/* the last line, cut off: skipped */
			r->counts.truncated = true;
			return 0;
		}
		if (rc < 0)
			return -1;
		if (rc > 0) {
			r->counts.events++;
			r->counts.other += ev->kind == TREAD_OTHER;
			r->counts.lost += ev->kind == TREAD_LOST;
			return 1;
		}
	}
}
