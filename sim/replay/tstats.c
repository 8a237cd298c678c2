// SPDX-License-Identifier: MIT
/*
 * sim/replay/tstats.c - per-thread figures from a trace's events (tstats.h).
 */
#include "sim/replay/tstats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util/util.h"

enum tstate { T_UNKNOWN, T_RUNNING, T_RUNNABLE, T_SLEEPING, T_DEAD };

struct tthread {
	struct tstats_thread pub;
	enum tstate state;
	int cpu;		/* where it last ran, -1 never */
	uint64_t since;		/* running, runnable or sleeping since */
	uint64_t wake_ns;	/* RUNNABLE by a wakeup at this time (@woken) */
	bool woken;
	uint64_t burst_acc;	/* CPU time of the burst under way */
	bool burst_known;	/* the burst under way began in the trace */
	bool exiting;		/* sched_process_exit seen: its last switch-out ends it */
	uint64_t epoch;		/* its CPU's lost-events epoch when it was last there */
	struct tstats_step *steps;	/* tstats_record(): pub.steps, owned */
	size_t capsteps;
	bool started;		/* its recorded life has begun (pub.start_ns) */
	uint64_t burst_wall;	/* when the burst under way began, wall time */
	uint64_t burst_pushed;	/* of burst_acc, what RUN steps hold already */
};

struct tcpu {
	bool seen;
	uint64_t since;		/* its last switch, or its first event */
	uint64_t epoch;		/* how many times its events were lost */
	int32_t cur;		/* the thread its last switch put there: 0 idle, -1 not known */
};

struct tstats {
	struct tthread *thr;
	size_t nthr, cap;
	struct util_imap by_pid;	/* pid -> index of its latest thread */
	struct tcpu *cpu;
	size_t ncpu, capcpu;
	uint64_t first, last;
	bool any;
	bool record;		/* tstats_record() */
	uint64_t unseen;	/* switch-outs the trace does not show (tstats_unseen()) */
	size_t nsteps;		/* steps recorded in all */
	uint64_t events[TREAD_OTHER + 1];
};

struct tstats *tstats_new(void)
{
	return calloc(1, sizeof(struct tstats));
}

void tstats_free(struct tstats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nthr; i++) {
		free(st->thr[i].pub.lat_hist);
		free(st->thr[i].steps);
	}
	free(st->thr);
	free(st->cpu);
	util_imap_free(&st->by_pid);
	free(st);
}

/*
 * What a thread was doing on a CPU whose events were lost since is not known. Checked when
 * the thread is next met, so that a note of lost events costs O(1), not O(threads).
 */
static void check_epoch(const struct tstats *st, struct tthread *th)
{
	if (th->cpu >= 0 && th->state != T_DEAD && th->epoch != st->cpu[th->cpu].epoch) {
		th->state = T_UNKNOWN;
		th->burst_known = false;
		th->woken = false;
		th->epoch = st->cpu[th->cpu].epoch;
	}
}

static uint64_t since_to(uint64_t since, uint64_t t)
{
	return t > since ? t - since : 0;	/* a clock a little behind across CPUs: nothing */
}

/* The thread @pid is now (a new one once the last with that pid has exited), or NULL. */
static struct tthread *thread_of(struct tstats *st, int32_t pid, const char *comm, uint64_t t,
				 bool fresh)
{
	struct tthread *th;
	unsigned life = 0;
	int i;

	if (pid <= 0)
		return NULL;		/* idle (swapper), or a pid the kernel never gives */
	if (util_imap_get(&st->by_pid, pid, &i)) {
		th = &st->thr[i];
		check_epoch(st, th);
		if (th->state != T_DEAD && !fresh) {
			if (comm && *comm)
				memcpy(th->pub.comm, comm, TREAD_COMM);
			th->pub.last_ns = t;
			return th;
		}
		life = th->pub.life + 1;
	}
	if (UTIL_GROW(st->thr, st->cap, st->nthr + 1) ||
	    util_imap_put(&st->by_pid, pid, (int)st->nthr))
		return NULL;
	th = &st->thr[st->nthr++];
	*th = (struct tthread){ .state = T_UNKNOWN, .cpu = -1 };
	th->pub.pid = pid;
	th->pub.tgid = -1;
	th->pub.prio = -1;
	th->pub.life = life;
	th->pub.first_ns = th->pub.last_ns = t;
	if (comm)
		memcpy(th->pub.comm, comm, TREAD_COMM);
	return th;
}

static struct tcpu *cpu_of(struct tstats *st, int c, uint64_t t)
{
	if (c < 0 || c >= TSTATS_MAX_CPUS)
		return NULL;
	if ((size_t)c >= st->ncpu) {
		if (UTIL_GROW_ZERO(st->cpu, st->capcpu, (size_t)c + 1))
			return NULL;
		st->ncpu = (size_t)c + 1;
	}
	if (!st->cpu[c].seen) {
		st->cpu[c].seen = true;
		st->cpu[c].since = t;
		st->cpu[c].cur = -1;
	}
	return &st->cpu[c];
}

/* Bucket of a latency: 16 linear steps in each power of two. */
static unsigned bucket_of(uint64_t v)
{
	unsigned e;

	if (v < TSTATS_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);	/* v in [2^e, 2^(e+1)), e >= 4 */
	return (e - 3) * TSTATS_SUB + (unsigned)((v >> (e - 4)) & (TSTATS_SUB - 1));
}

/* The largest value of bucket @b. */
static uint64_t bucket_top(unsigned b)
{
	unsigned e = b / TSTATS_SUB + 3, k = b % TSTATS_SUB;

	if (b < TSTATS_SUB)
		return b;
	return ((uint64_t)(TSTATS_SUB + k + 1) << (e - 4)) - 1;
}

static int latency(struct tthread *th, uint64_t v)
{
	struct tstats_thread *p = &th->pub;

	if (!p->lat_hist && !(p->lat_hist = calloc(TSTATS_BUCKETS, sizeof(*p->lat_hist))))
		return -ENOMEM;
	p->lat_hist[bucket_of(v)]++;
	p->wakeups++;
	p->lat_ns += v;
	if (v > p->lat_max)
		p->lat_max = v;
	return 0;
}

uint64_t tstats_latency_q(const struct tstats_thread *t, double q)
{
	uint64_t want, seen = 0;

	if (!t->wakeups || !t->lat_hist)
		return 0;
	/* the nearest rank; 1e-9 keeps 0.07 * 100 = 7.000000000000001 at rank 7 */
	want = (uint64_t)ceil(q * (double)t->wakeups - 1e-9);
	if (want < 1)
		want = 1;
	if (want > t->wakeups)
		want = t->wakeups;
	for (unsigned b = 0; b < TSTATS_BUCKETS; b++) {
		seen += t->lat_hist[b];
		if (seen >= want)
			return bucket_top(b) < t->lat_max ? bucket_top(b) : t->lat_max;
	}
	return t->lat_max;
}

void tstats_record(struct tstats *st)
{
	st->record = true;
}

/* The recorded life of @th begins at @t, unless it has begun. */
static void start(struct tthread *th, uint64_t t)
{
	if (!th->started) {
		th->started = true;
		th->pub.start_ns = t;
	}
}

_Static_assert(sizeof(struct tstats_step) == 24, "a step is 24 bytes (TSTATS_MAX_STEPS)");

/* One more step of @th (a RUN after a RUN adds to it; a RUN or SLEEP of nothing is none). */
static int push(struct tstats *st, struct tthread *th, struct tstats_step step)
{
	struct tstats_step *last;

	if (!st->record || !th->started || (!step.ns && step.kind != TSTATS_WAKE))
		return 0;
	last = th->pub.nsteps ? &th->steps[th->pub.nsteps - 1] : NULL;
	if (last && last->kind == TSTATS_RUN && step.kind == TSTATS_RUN) {
		last->ns += step.ns;
		return 0;
	}
	if (st->nsteps >= TSTATS_MAX_STEPS)
		return -E2BIG;
	if (UTIL_GROW(th->steps, th->capsteps, th->pub.nsteps + 1))
		return -ENOMEM;
	th->steps[th->pub.nsteps++] = step;
	th->pub.steps = th->steps;
	st->nsteps++;
	return 0;
}

/* The CPU time of @th's burst that no RUN step holds yet, as one. */
static int push_run(struct tstats *st, struct tthread *th)
{
	uint64_t ns = th->burst_acc - th->burst_pushed;

	th->burst_pushed = th->burst_acc;
	return push(st, th, (struct tstats_step){ .ns = ns, .kind = TSTATS_RUN });
}

static void end_burst(struct tthread *th)
{
	struct tstats_thread *p = &th->pub;

	if (th->burst_known) {
		p->bursts++;
		p->burst_ns += th->burst_acc;
		if (th->burst_acc > p->burst_max)
			p->burst_max = th->burst_acc;
	}
	th->burst_acc = 0;
	th->burst_pushed = 0;
	th->burst_known = true;		/* the next begins at a wakeup this trace will show */
}

/*
 * The thread @cur, which this CPU's last switch put there, left it without a switch the trace
 * shows (kernels miss one now and then): when is not known, so its time there counts for
 * nothing, and neither does the burst it was in. Looked up, not made: making a thread may move
 * the array, and on_switch()'s pointers come after.
 */
static void lost_switch_out(struct tstats *st, int cpu, int32_t cur)
{
	int i;

	if (util_imap_get(&st->by_pid, cur, &i)) {
		struct tthread *gone = &st->thr[i];

		if (gone->state == T_RUNNING && gone->cpu == cpu) {
			gone->state = T_UNKNOWN;
			gone->burst_known = false;
			gone->burst_acc = gone->burst_pushed = 0;
		}
	}
	st->unseen++;
}

/*
 * @prev leaves @cpu at the switch @ev: its time there is CPU time of its burst, from when it
 * came or, when that was before what the trace shows of @cpu, from there (the burst's start
 * then unknown). Preempted, it stays runnable; else its burst ends and it sleeps or, exiting,
 * is dead.
 */
static int switch_out(struct tstats *st, const struct tread_event *ev, const struct tcpu *cpu,
		      struct tthread *prev)
{
	uint64_t t = ev->ns, run;
	int e;

	if (ev->a.prio >= 0)
		prev->pub.prio = ev->a.prio;
	if (prev->state == T_RUNNING && prev->cpu == ev->cpu) {
		run = since_to(prev->since, t);
	} else {	/* it ran from before what the trace shows of this CPU */
		run = since_to(cpu->since, t);
		prev->burst_known = false;
		if (prev->state != T_RUNNABLE)
			prev->burst_wall = cpu->since;
		start(prev, cpu->since);
	}
	prev->pub.cpu_ns += run;
	prev->burst_acc += run;
	prev->cpu = ev->cpu;
	prev->epoch = cpu->epoch;
	prev->since = t;
	prev->woken = false;
	if (ev->prev_state[0] == 'R') {
		prev->state = T_RUNNABLE;
		prev->pub.preempts++;
	} else {
		if ((e = push_run(st, prev)))
			return e;
		end_burst(prev);
		prev->state = T_SLEEPING;
		if (prev->exiting || ev->prev_state[0] == 'X' || ev->prev_state[0] == 'Z') {
			prev->state = T_DEAD;
			prev->pub.exited = true;
		}
	}
	return 0;
}

/*
 * @next runs on @cpu from the switch @ev: the wait since its wakeup (a latency) or its
 * preemption ends there; without a wakeup in the trace, it begins a burst of unknown start.
 */
static int switch_in(const struct tread_event *ev, const struct tcpu *cpu, struct tthread *next)
{
	uint64_t t = ev->ns;

	if (ev->b.prio >= 0)
		next->pub.prio = ev->b.prio;
	start(next, t);
	if (next->state == T_RUNNABLE && next->woken && latency(next, since_to(next->wake_ns, t)))
		return -ENOMEM;
	if (next->state == T_RUNNABLE)	/* since its wakeup or its preemption */
		next->pub.wait_ns += since_to(next->since, t);
	if (next->state != T_RUNNABLE) {	/* its wakeup is not in the trace */
		next->burst_known = false;
		next->burst_wall = t;
	}
	if (next->cpu >= 0 && next->cpu != ev->cpu)
		next->pub.migrations++;
	next->state = T_RUNNING;
	next->cpu = ev->cpu;
	next->epoch = cpu->epoch;
	next->since = t;
	next->woken = false;
	return 0;
}

static int on_switch(struct tstats *st, const struct tread_event *ev, struct tcpu *cpu)
{
	struct tthread *prev, *next;
	int e;

	if (cpu->cur > 0 && cpu->cur != ev->a.pid)
		lost_switch_out(st, ev->cpu, cpu->cur);
	prev = thread_of(st, ev->a.pid, ev->a.comm, ev->ns, false);
	if (ev->a.pid > 0 && !prev)
		return -ENOMEM;
	if (prev && (e = switch_out(st, ev, cpu, prev)))
		return e;
	next = thread_of(st, ev->b.pid, ev->b.comm, ev->ns, false);
	if (ev->b.pid > 0 && !next)
		return -ENOMEM;
	if (next && (e = switch_in(ev, cpu, next)))
		return e;
	cpu->since = ev->ns;
	cpu->cur = ev->b.pid;
	return 0;
}

/*
 * Recording, a wakeup ends @w's sleep: the sleep, and who ended it. A task whose context the
 * wakeup was written in, and which was on that CPU, woke @w from inside its burst: its CPU time
 * up to here becomes a step of its own, then the wakeup.
 */
static int record_wake(struct tstats *st, const struct tread_event *ev, struct tthread **wp)
{
	struct tthread *by = NULL, *w = *wp;
	int32_t wpid = w->pub.pid;
	int e;

	if (st->record && ev->ctx_pid > 0 && ev->ctx_pid != wpid && !ev->irq) {
		by = thread_of(st, ev->ctx_pid, NULL, ev->ns, false);
		if (!by)
			return -ENOMEM;
		w = *wp = thread_of(st, wpid, NULL, ev->ns, false);	/* the array may have moved */
		if (!w)
			return -ENOMEM;
		if (by->state != T_RUNNING || by->cpu != ev->cpu)
			by = NULL;
	}
	if ((e = push(st, w, (struct tstats_step){ .ns = since_to(w->since, ev->ns),
						   .at = ev->ns, .kind = TSTATS_SLEEP,
						   .life = by ? by->pub.life : 0,
						   .pid = by ? by->pub.pid : 0 })))
		return e;
	if (!by)
		return 0;
	{
		uint64_t part = since_to(by->since, ev->ns);

		by->pub.cpu_ns += part;
		by->burst_acc += part;
		by->since = ev->ns;
	}
	if ((e = push_run(st, by)))
		return e;
	return push(st, by, (struct tstats_step){ .kind = TSTATS_WAKE, .life = w->pub.life,
						  .pid = w->pub.pid });
}

static int on_wake(struct tstats *st, const struct tread_event *ev)
{
	struct tthread *w = thread_of(st, ev->a.pid, ev->a.comm, ev->ns, false);
	int e;

	if (ev->a.pid > 0 && !w)
		return -ENOMEM;
	if (!w)
		return 0;
	if (ev->a.prio >= 0)
		w->pub.prio = ev->a.prio;
	switch (w->state) {
	case T_SLEEPING:
		if ((e = record_wake(st, ev, &w)))
			return e;
		w->pub.sleeps++;
		w->pub.sleep_ns += since_to(w->since, ev->ns);
		if (since_to(w->since, ev->ns) > w->pub.sleep_max)
			w->pub.sleep_max = since_to(w->since, ev->ns);
		/* fall through */
	case T_UNKNOWN:
	case T_DEAD:
		if (w->state != T_SLEEPING)
			w->burst_known = true;	/* a wakeup begins a burst, whatever came before */
		start(w, ev->ns);
		w->burst_wall = ev->ns;
		w->state = T_RUNNABLE;
		w->since = w->wake_ns = ev->ns;
		w->woken = true;
		if (ev->ctx_pid == 0 || ev->irq)
			w->pub.woken_by_irq++;
		else if (ev->ctx_pid != w->pub.pid)
			w->pub.woken_by_task++;
		break;
	case T_RUNNABLE:	/* sched_wakeup after sched_waking, or a preempted thread */
	case T_RUNNING:		/* woken before it got off its CPU: no sleep */
		break;
	}
	return 0;
}

int tstats_add(struct tstats *st, const struct tread_event *ev)
{
	struct tcpu *cpu;
	struct tthread *th;

	st->events[ev->kind]++;
	if (ev->kind == TREAD_LOST) {
		if (ev->cpu >= 0 && (size_t)ev->cpu < st->ncpu) {
			st->cpu[ev->cpu].seen = false;	/* its time runs from its next event */
			st->cpu[ev->cpu].epoch++;	/* what ran or slept there is forgotten */
		}
		return 0;
	}
	if (!(cpu = cpu_of(st, ev->cpu, ev->ns)))
		return ev->cpu < 0 || ev->cpu >= TSTATS_MAX_CPUS ? -EINVAL : -ENOMEM;
	if (!st->any)
		st->first = ev->ns;
	st->any = true;
	if (ev->ns > st->last)
		st->last = ev->ns;
	/* the context says which process a thread belongs to, with the TGID column */
	if (ev->ctx_pid > 0 && ev->ctx_tgid > 0 && ev->kind != TREAD_FORK) {
		th = thread_of(st, ev->ctx_pid, ev->ctx_comm, ev->ns, false);
		if (!th)
			return -ENOMEM;
		th->pub.tgid = ev->ctx_tgid;
	}
	switch (ev->kind) {
	case TREAD_SWITCH:
		return on_switch(st, ev, cpu);
	case TREAD_WAKING:
	case TREAD_WAKEUP:
	case TREAD_WAKEUP_NEW:
		return on_wake(st, ev);
	case TREAD_MIGRATE:
		return thread_of(st, ev->a.pid, ev->a.comm, ev->ns, false) || ev->a.pid <= 0 ? 0
												 : -ENOMEM;
	case TREAD_FORK:
		th = thread_of(st, ev->b.pid, ev->b.comm, ev->ns, true);
		return th || ev->b.pid <= 0 ? 0 : -ENOMEM;
	case TREAD_EXIT:
		th = thread_of(st, ev->a.pid, ev->a.comm, ev->ns, false);
		if (th)
			th->exiting = true;
		return th || ev->a.pid <= 0 ? 0 : -ENOMEM;
	case TREAD_LOST:
	case TREAD_OTHER:
		break;
	}
	return 0;
}

int tstats_finish(struct tstats *st)
{
	int e = 0;

	for (size_t i = 0; i < st->nthr; i++) {
		struct tthread *th = &st->thr[i];

		check_epoch(st, th);
		if (th->state == T_RUNNING) {
			uint64_t run = since_to(th->since, st->last);

			th->pub.cpu_ns += run;
			th->burst_acc += run;
			th->since = st->last;
		}
		if (th->state == T_RUNNABLE) {
			th->pub.wait_ns += since_to(th->since, st->last);
			th->since = st->last;
		}
		/* the burst under way at the end, run or preempted: a replay runs it too */
		if (th->state == T_RUNNING || th->state == T_RUNNABLE) {
			th->pub.open_end = true;
			th->pub.open_wall_ns = since_to(th->burst_wall, st->last);
			if (!e)
				e = push_run(st, th);
		}
	}
	return e;
}

size_t tstats_nthreads(const struct tstats *st)
{
	return st->nthr;
}

const struct tstats_thread *tstats_thread(const struct tstats *st, size_t i)
{
	return &st->thr[i].pub;
}

uint64_t tstats_first(const struct tstats *st)
{
	return st->first;
}

uint64_t tstats_last(const struct tstats *st)
{
	return st->last;
}

int tstats_ncpu(const struct tstats *st)
{
	return (int)st->ncpu;
}

uint64_t tstats_unseen(const struct tstats *st)
{
	return st->unseen;
}

uint64_t tstats_events(const struct tstats *st, enum tread_kind kind)
{
	return st->events[kind];
}
