// SPDX-License-Identifier: MIT
/*
 * sim/machine/machine_steps.c - the steps of a phases behaviour that take no time of their own
 * (docs/scenario-format.md, "Synchronisation" and "Attributes"): mutexes, condition variables,
 * barriers, suspend and resume, timers, and the changes a thread makes to its own nice,
 * policy, slice, affinity and cgroup.
 *
 * The objects follow the pthread calls that rt-app makes. A mutex is handed to its longest
 * waiter when unlocked. A condition has no memory: a signal with nobody waiting is lost. A
 * thread woken from a condition takes its mutex again before its next step, and waits in the
 * mutex's queue if another thread holds it. Every wakeup by another thread is a wakeup of the
 * scheduler's (sched_wakeup_by()): the woken thread runs 1 ns (its return from the futex)
 * before its next step, so that what it does next happens when it runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine_internal.h"

/* ---------------- waiting queues ---------------- */

static int q_push(struct mqueue *q, int tid, int mutex)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 4;
		struct mwaiter *v = malloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < q->n; i++)
			v[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = v;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->n++) % q->cap] = (struct mwaiter){ tid, mutex };
	return 0;
}

/* The longest waiter still waiting in state @why (others left: stopped, or moved on). */
static struct mthread *q_pop(struct sim_machine *m, struct mqueue *q, enum mstate why,
			     int *mutex)
{
	while (q->n) {
		struct mwaiter w = q->v[q->head];
		struct mthread *t = machine__mt(m, w.tid);

		q->head = (q->head + 1) % q->cap;
		q->n--;
		if (t && t->alive && t->state == why) {
			if (mutex)
				*mutex = w.mutex;
			return t;
		}
	}
	return NULL;
}

/* Object @id of a table grown as steps name them (zeroed: free mutexes, empty queues). */
#define OBJ_GET(m, tab, n, id) \
	((id) < 0 ? NULL : (size_t)(id) < (n) ? &(tab)[id] : \
	 obj_grow((void **)&(tab), &(n), (size_t)(id), sizeof(*(tab))) ? NULL : &(tab)[id])

static int obj_grow(void **tab, size_t *n, size_t id, size_t size)
{
	size_t cap = *n;

	if (util_grow_zero(tab, &cap, id + 1, size))
		return -ENOMEM;
	*n = cap;
	return 0;
}

void machine__steps_free(struct sim_machine *m)
{
	for (size_t i = 0; i < m->nmutex; i++)
		free(m->mutex[i].q.v);
	for (size_t i = 0; i < m->ncond; i++)
		free(m->cond[i].v);
	for (size_t i = 0; i < m->nbarrier; i++)
		free(m->barrier[i].v);
	free(m->mutex);
	free(m->cond);
	free(m->barrier);
	free(m->timer);
	free(m->fails);
}

/* ---------------- blocking and waking ---------------- */

/* @t stops where it is, until another thread's step wakes it. */
static void block(struct sim_machine *m, struct mthread *t, enum mstate why)
{
	if (t->state == M_ACTIVE && sched_sleep(m->s, t->tid, sim_now(&m->eng)))
		machine__fail(m, -EINVAL);
	t->state = why;
}

/*
 * Thread @by's step wakes @t: it becomes runnable at once (no timer between them; the CPU it
 * lands on may still have to leave its idle state; @by's CPU takes part in choosing it) with
 * 1 ns of work, its return from the futex, after which it goes on with its steps.
 */
static void wake_blocked(struct sim_machine *m, struct mthread *t, const struct mthread *by)
{
	uint64_t now = sim_now(&m->eng);
	uint64_t exit = t->noise_ready ? sim_dist_draw_ns(&t->noise, &m->noise.idle_exit) : 0;

	t->target = sched_thread_work(m->s, t->tid, now) + 1;
	t->activations++;
	t->state = M_ACTIVE;
	if (sched_wakeup_by(m->s, t->tid, by->tid, now, exit))
		machine__fail(m, -EINVAL);
}

/* ---------------- mutexes ---------------- */

/* lock: take @id, or wait in its queue (false: @t blocked). */
static bool lock_step(struct sim_machine *m, struct mthread *t, int id)
{
	struct mmutex *x = OBJ_GET(m, m->mutex, m->nmutex, id);

	if (!x) {
		machine__fail(m, -ENOMEM);
		return false;
	}
	if (!x->owner || x->owner == t->tid) {	/* a second lock by the holder: no deadlock */
		x->owner = t->tid;
		return true;
	}
	if (q_push(&x->q, t->tid, -1)) {
		machine__fail(m, -ENOMEM);
		return false;
	}
	block(m, t, M_BLOCKED);
	return false;
}

/* unlock: the longest waiter still waiting gets @id; an unlock by another thread is a no-op. */
static void unlock_step(struct sim_machine *m, struct mthread *t, int id)
{
	struct mmutex *x = id >= 0 && (size_t)id < m->nmutex ? &m->mutex[id] : NULL;
	struct mthread *w;

	if (!x || x->owner != t->tid)
		return;
	x->owner = 0;
	if ((w = q_pop(m, &x->q, M_BLOCKED, NULL))) {
		x->owner = w->tid;	/* handed over: it holds the mutex as it wakes */
		wake_blocked(m, w, t);
	}
}

bool machine__relock(struct sim_machine *m, struct mthread *t)
{
	int id = t->relock;

	t->relock = -1;
	return lock_step(m, t, id);
}

/* ---------------- conditions and barriers ---------------- */

/* pthread_cond_wait(): give the mutex up (if held), wait; the mutex again once woken. */
static void wait_step(struct sim_machine *m, struct mthread *t, int cond, int mutex)
{
	struct mqueue *q = OBJ_GET(m, m->cond, m->ncond, cond);
	bool held = mutex >= 0 && (size_t)mutex < m->nmutex && m->mutex[mutex].owner == t->tid;

	if (!q || q_push(q, t->tid, held ? mutex : -1)) {
		machine__fail(m, -ENOMEM);
		return;
	}
	if (held)
		unlock_step(m, t, mutex);
	block(m, t, M_WAITING);
}

/* pthread_cond_signal() (@all false) or _broadcast(): wake the waiters there are now. */
static void signal_step(struct sim_machine *m, struct mthread *t, int cond, bool all)
{
	struct mqueue *q = cond >= 0 && (size_t)cond < m->ncond ? &m->cond[cond] : NULL;
	size_t n = q ? q->n : 0;	/* a waiter woken now cannot wait again before it runs */
	struct mthread *w;
	int mutex;

	while (n-- && (w = q_pop(m, q, M_WAITING, &mutex))) {
		w->relock = mutex;
		wake_blocked(m, w, t);
		if (!all)
			break;
	}
}

/*
 * rt-app's barrier: the threads that arrive wait until the last of @count has; that one wakes
 * them all and goes on (false: @t waits).
 */
static bool barrier_step(struct sim_machine *m, struct mthread *t, int id, uint32_t count)
{
	struct mqueue *q = OBJ_GET(m, m->barrier, m->nbarrier, id);
	struct mthread *w;

	if (!q) {
		machine__fail(m, -ENOMEM);
		return false;
	}
	if (q->n + 1 >= count) {
		while ((w = q_pop(m, q, M_WAITING, NULL)))
			wake_blocked(m, w, t);
		return true;
	}
	if (q_push(q, t->tid, -1)) {
		machine__fail(m, -ENOMEM);
		return false;
	}
	block(m, t, M_WAITING);
	return false;
}

/*
 * rt-app's timer event: the timer's next expiry moves on by its period from the last (the
 * first from when the thread began); the thread sleeps until it, or, if that is past, goes on
 * at once, and a relative timer then counts its next period from now.
 */
bool machine__timer_step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p,
			 uint64_t *wake)
{
	uint64_t now = sim_now(&m->eng);
	struct mtimer *tm = p->flags & SIM_TIMER_SHARED ? OBJ_GET(m, m->timer, m->ntimer, p->obj)
						       : OBJ_GET(m, t->timers, t->ntimers, p->obj);

	if (!tm) {
		machine__fail(m, -ENOMEM);
		return false;
	}
	if (!tm->init) {
		tm->init = true;
		tm->next = t->t_first;
	}
	tm->next = machine__later(tm->next, p->ns);
	machine__timer_activation(m, t, tm->next, p->ns, now < tm->next);
	if (now < tm->next) {
		*wake = tm->next;
		return true;
	}
	/* missed: the next activation starts at once (counted as a periodic overrun is) */
	t->activations++;
	t->overruns++;
	if (!(p->flags & SIM_TIMER_ABSOLUTE))
		tm->next = now;
	return false;
}

/* ---------------- attributes ---------------- */

static void step_failed(struct sim_machine *m, struct mthread *t, size_t i, int err)
{
	uint64_t now = sim_now(&m->eng);

	for (size_t k = 0; k < m->nfails; k++)
		if (m->fails[k].tid == t->tid && m->fails[k].step == i) {
			m->fails[k].count++;
			return;
		}
	if (UTIL_GROW(m->fails, m->capfails, m->nfails + 1)) {
		machine__fail(m, -ENOMEM);
		return;
	}
	m->fails[m->nfails++] = (struct sim_step_failure){ t->tid, i, err, cg_refusal(m->h), now,
							   1 };
}

size_t sim_machine_step_failures(const struct sim_machine *m,
				 const struct sim_step_failure **out)
{
	*out = m->fails;
	return m->nfails;
}

/*
 * The thread writes its tid to the cgroup's cgroup.threads (v1: tasks), as rt-app's taskgroup
 * does at a phase's start; the cgroup model answers as the kernel would. Nothing happens when
 * it is there already (rt-app does not write again).
 */
static void cgroup_step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p,
			size_t i)
{
	const char *path = p->obj >= 0 && (size_t)p->obj < t->b->npaths
			   ? t->b->paths[p->obj] : NULL;
	char file[1200], tid[16];
	int cg, e;

	if (!path)
		return;
	cg = cg_lookup(m->h, path);
	if (cg >= 0 && cg == cg_thread_cgroup(m->h, t->tid))
		return;
	snprintf(file, sizeof(file), "%s%s%s", path, *path ? "/" : "",
		 cg_hier_semantics(m->h) == CG_SEM_V1 ? "tasks" : "cgroup.threads");
	snprintf(tid, sizeof(tid), "%d", t->tid);
	if ((e = cg_write(m->h, file, tid)))
		step_failed(m, t, i, e);
}

static void affinity_step(struct sim_machine *m, struct mthread *t, int mask)
{
	const struct sim_behavior *b = t->b;
	uint64_t now = sim_now(&m->eng);

	if (mask < 0 || (size_t)mask >= b->nmasks) {
		if (!t->has_affinity)
			return;
		t->has_affinity = false;
	} else {
		const uint64_t *w = b->masks + (size_t)mask * SIM_MASK_WORDS;
		uint64_t *aff;

		if (t->has_affinity && !memcmp(t->affinity, w, M_AFFINITY_WORDS * sizeof(*w)))
			return;
		if (!(aff = machine__affinity(t))) {
			machine__fail(m, -ENOMEM);
			return;
		}
		memcpy(aff, w, M_AFFINITY_WORDS * sizeof(*w));
		t->has_affinity = true;
	}
	if (machine__apply_cpus(m, t, now))
		machine__fail(m, -EINVAL);
}

/* nice, policy, slice, affinity, cgroup: as the thread's own system call would. */
static void attr_step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p,
		      size_t i)
{
	uint64_t now = sim_now(&m->eng);
	int e = 0;

	switch (p->kind) {
	case SIM_STEP_NICE:
		if (t->nice != p->obj && !(e = sched_thread_set_nice(m->s, t->tid, p->obj, now)))
			t->nice = p->obj;
		break;
	case SIM_STEP_POLICY:
		if (t->policy != (enum sched_thread_policy)p->obj &&
		    !(e = sched_thread_set_policy(m->s, t->tid, (enum sched_thread_policy)p->obj,
						  now)))
			t->policy = (enum sched_thread_policy)p->obj;
		break;
	case SIM_STEP_SLICE:
		if (t->slice_ns != p->ns &&
		    !(e = sched_thread_set_slice(m->s, t->tid, p->ns, now)))
			t->slice_ns = p->ns;
		break;
	case SIM_STEP_AFFINITY:
		affinity_step(m, t, p->obj);
		break;
	case SIM_STEP_CGROUP:
		cgroup_step(m, t, p, i);
		break;
	default:
		break;
	}
	if (e)
		machine__fail(m, -EINVAL);
}

/* ---------------- dispatch ---------------- */

bool machine__step(struct sim_machine *m, struct mthread *t, const struct sim_phase *p, size_t i)
{
	struct mthread *o;

	switch (p->kind) {
	case SIM_STEP_LOCK:
		return lock_step(m, t, p->obj);
	case SIM_STEP_UNLOCK:
		unlock_step(m, t, p->obj);
		return true;
	case SIM_STEP_SUSPEND:
		if (t->posts) {		/* a post came first: no sleep (a pipe with data) */
			t->posts--;
			return true;
		}
		block(m, t, M_SUSPENDED);
		return false;
	case SIM_STEP_RESUME:
		o = machine__mt(m, p->obj);
		if (o && o != t && o->alive && o->state == M_SUSPENDED)
			wake_blocked(m, o, t);
		else if (o && o != t && o->alive && p->count)
			o->posts++;	/* post: kept for its next suspend; resume: lost */
		return true;
	case SIM_STEP_WAIT:
		wait_step(m, t, p->obj, p->obj2);
		return false;
	case SIM_STEP_SYNC:
		signal_step(m, t, p->obj, false);
		wait_step(m, t, p->obj, p->obj2);
		return false;
	case SIM_STEP_SIGNAL:
	case SIM_STEP_BROADCAST:
		signal_step(m, t, p->obj, p->kind == SIM_STEP_BROADCAST);
		return true;
	case SIM_STEP_BARRIER:
		return barrier_step(m, t, p->obj, p->count);
	case SIM_STEP_NICE:
	case SIM_STEP_POLICY:
	case SIM_STEP_SLICE:
	case SIM_STEP_AFFINITY:
	case SIM_STEP_CGROUP:
		attr_step(m, t, p, i);
		return true;
	default:
		return true;	/* the timed steps are machine_events.c's */
	}
}
