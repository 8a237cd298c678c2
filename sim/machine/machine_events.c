// SPDX-License-Identifier: MIT
/*
 * sim/machine/machine_events.c - the machine's events (sim/machine/machine_internal.h): each thread's
 * wakeup, each CPU's end of burst and the scheduler's next tick kept in step with the
 * scheduler, and the behaviours that decide when a thread runs and for how long.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine_internal.h"

/* ---------------- keeping the events in step with the scheduler ---------------- */

void machine__arm(struct sim_machine *m, struct sim_event *ev, uint64_t t)
{
	if (t == UINT64_MAX) {
		sim_cancel(&m->eng, ev);
		return;
	}
	if (sim_event_pending(ev) && sim_event_time(ev) == t)
		return;
	if (t < sim_now(&m->eng))
		t = sim_now(&m->eng);
	if (sim_schedule(&m->eng, ev, t))
		machine__fail(m, -ENOMEM);
}

static void end_burst(struct sim_machine *m, struct mthread *t);

/*
 * Recompute when the burst running on @c ends. A thread switched out at the instant its work
 * was done (a tick or a wakeup at that very time preempted it) has not ended its burst: it makes
 * its next call (a sleep, an unlock) when it runs again, at once (its cpu event then comes
 * at the switch-in), as a task preempted on its way to a system call makes it once back on a
 * CPU. It is never put to sleep from the runqueue.
 */
static void refresh_cpu(struct sim_machine *m, struct mcpu *c)
{
	uint64_t now = sim_now(&m->eng);
	int cur = sched_cpu_curr(m->s, c->id);
	struct mthread *t;

	c->tid = cur;
	t = machine__mt(m, cur);
	if (!t || t->state != M_ACTIVE || t->target == UINT64_MAX) {
		sim_cancel(&m->eng, &c->ev);
		return;
	}
	{
		uint64_t work = sched_thread_work(m->s, cur, now);
		uint64_t left = t->target > work ? t->target - work : 0;

		machine__arm(m, &c->ev, sched_cpu_finish_time(m->s, c->id, now, left));
	}
}

/* Drain the scheduler's changed CPUs until nothing moves. */
void machine__sync(struct sim_machine *m)
{
	int c;

	while ((c = sched_pop_changed(m->s)) >= 0)
		refresh_cpu(m, &m->cpu[c]);
	machine__arm(m, &m->tick_ev, sched_next_tick_min(m->s));
}

/* ---------------- behaviours ---------------- */

static uint64_t draw(struct mthread *t, const struct sim_dist *d)
{
	uint64_t v = sim_dist_draw_ns(&t->rng, d);

	return v ? v : 1;	/* a burst of 0 ns would be no burst */
}

/* Start an activation of @len ns of work at now (waking the thread if it sleeps). */
static void activate(struct sim_machine *m, struct mthread *t, uint64_t len)
{
	uint64_t now = sim_now(&m->eng), work = sched_thread_work(m->s, t->tid, now);

	t->target = len == UINT64_MAX || work > UINT64_MAX - len ? UINT64_MAX : work + len;
	/*
	 * A phases behaviour's run step after a run step, or after a wakeup, is not a wakeup; nor
	 * is the thread's start (docs/latency.md), whose latency sample latency_hook() drops.
	 */
	if (!t->started)
		t->started = t->start_lat = true;
	else if (t->b->kind != SIM_BEHAV_PHASES || t->state != M_ACTIVE)
		t->activations++;
	if (t->b->kind == SIM_BEHAV_PERIODIC)
		machine__activation_begin(m, t, sched_thread_exec(m->s, t->tid, now));
	if (t->state == M_ASLEEP && t->noise_ready) {
		/* a sleep's timer: late by what go_to_sleep() drew, maybe on an idle CPU */
		uint64_t exit = sim_dist_draw_ns(&t->noise, &m->noise.idle_exit);

		t->state = M_ACTIVE;
		if (sched_wakeup_timed(m->s, t->tid, now, t->due, exit))
			machine__fail(m, -EINVAL);
	} else if (t->state != M_ACTIVE) {
		t->state = M_ACTIVE;
		if (sched_wakeup(m->s, t->tid, now))
			machine__fail(m, -EINVAL);
	} else {
		/* still runnable: the running CPU's burst end moves */
		struct sched_thread_stats st;

		if (!sched_thread_stats(m->s, t->tid, &st) && st.running)
			refresh_cpu(m, &m->cpu[st.cpu]);
	}
}

/* To sleep until @wake, and the timer's latency after it (@noise) as the machine draws it. */
static void go_to_sleep(struct sim_machine *m, struct mthread *t, uint64_t wake, bool noise)
{
	uint64_t now = sim_now(&m->eng);

	t->state = M_ASLEEP;
	if (sched_sleep(m->s, t->tid, now))
		machine__fail(m, -EINVAL);
	t->due = wake;
	if (t->noise_ready && noise)
		wake = machine__later(wake, sim_dist_draw_ns(&t->noise, &m->noise.timer));
	machine__arm(m, &t->ev, wake);
}

/* Whether @t is on a CPU now. */
static bool on_cpu(const struct sim_machine *m, const struct mthread *t)
{
	struct sched_thread_stats st;

	return !sched_thread_stats(m->s, t->tid, &st) && st.running;
}

/* Steps that a sleeping thread takes without running: time steps and repeats. */
static bool no_cpu(enum sim_step_kind k)
{
	return k == SIM_STEP_RUN || k == SIM_STEP_RUNTIME || k == SIM_STEP_SLEEP ||
	       k == SIM_STEP_TIMER || k == SIM_STEP_REPEAT;
}

/*
 * The next step of a phases behaviour from the current position: run, sleep until, block, or
 * go on at once with the step after (machine__step(): the steps that take no time).
 */
static void phases_next(struct sim_machine *m, struct mthread *t)
{
	const struct sim_behavior *b = t->b;
	uint64_t now = sim_now(&m->eng), wake;

	t->rt_end = 0;
	if (t->relock >= 0 && !machine__relock(m, t))
		return;	/* back from a condition: its mutex again, or its queue */
	for (;;) {
		const struct sim_phase *p;

		if (t->phase >= b->nphases) {
			t->phase = 0;
			t->loop++;
			if (b->loops && t->loop >= b->loops) {
				if (t->state == M_ACTIVE && sched_sleep(m->s, t->tid, now))
					machine__fail(m, -EINVAL);
				t->state = M_DONE;
				sim_cancel(&m->eng, &t->ev);
				return;
			}
		}
		p = &t->b->phases[t->phase++];
		if (!no_cpu(p->kind) && (t->state != M_ACTIVE || !on_cpu(m, t))) {
			/*
			 * A thread makes its calls when it runs: back from a sleep (or at its
			 * start), it wakes and runs 1 ns, its return to user space, first; preempted
			 * by its last call's wakeup (an unlock's, a signal's), it runs 1 ns once it
			 * is back.
			 */
			t->phase--;
			activate(m, t, 1);
			return;
		}
		switch (p->kind) {
		case SIM_STEP_SLEEP:
			wake = p->flags & SIM_SLEEP_UNTIL ? machine__later(t->t_first, p->ns)
							  : machine__later(now, draw(t, &p->d));
			if (wake <= now)
				break;	/* an end already past: on at once */
			go_to_sleep(m, t, wake, !(p->flags & SIM_SLEEP_RECORDED));
			return;
		case SIM_STEP_RUN:
			activate(m, t, draw(t, &p->d));
			return;
		case SIM_STEP_RUNTIME:
			/* busy until the wall clock says so: at most that much CPU time */
			wake = draw(t, &p->d);
			activate(m, t, wake);
			t->rt_end = machine__later(now, wake);
			machine__arm(m, &t->ev, t->stop_ns ? machine__umin(t->rt_end,
						t->stop_ns) : t->rt_end);
			return;
		case SIM_STEP_TIMER:
			if (machine__timer_step(m, t, p, &wake)) {
				go_to_sleep(m, t, wake, true);
				return;
			}
			break;
		case SIM_STEP_YIELD:
			/* sched_yield(), then its next step when it runs again */
			if (t->state == M_ACTIVE && sched_thread_yield(m->s, t->tid, now))
				machine__fail(m, -EINVAL);
			activate(m, t, 1);
			return;
		case SIM_STEP_REPEAT:
			if (++t->repeats[t->phase - 1] < p->count) {
				t->phase = (size_t)p->obj;
			} else {
				t->repeats[t->phase - 1] = 0;
			}
			break;
		default:
			if (!machine__step(m, t, p, t->phase - 1))
				return;
			break;
		}
	}
}

/* The running burst of @t is complete. */
static void end_burst(struct sim_machine *m, struct mthread *t)
{
	uint64_t now = sim_now(&m->eng);
	const struct sim_behavior *b = t->b;

	switch (b->kind) {
	case SIM_BEHAV_PERIODIC:
		machine__activation_end(m, t);
		t->next_period = machine__later(t->next_period, b->period_ns);
		if (t->next_period <= now) {
			/* overran its period: the next activation starts at once */
			t->overruns++;
			activate(m, t, draw(t, &b->run));
		} else {
			go_to_sleep(m, t, t->next_period, true);
		}
		break;
	case SIM_BEHAV_BURSTY:
		go_to_sleep(m, t, machine__later(now, draw(t, &b->sleep)), true);
		break;
	case SIM_BEHAV_PHASES:
		phases_next(m, t);
		break;
	case SIM_BEHAV_BUSY:
	case SIM_BEHAV_NONE:
		break;
	}
}

void machine__thread_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct mthread *t = sim_container_of(ev, struct mthread, ev);
	struct sim_machine *m = t->m;
	const struct sim_behavior *b = t->b;
	uint64_t now = sim_now(eng);

	if (t->stop_ns && now >= t->stop_ns) {
		if (t->state == M_ACTIVE && sched_sleep(m->s, t->tid, now))
			machine__fail(m, -EINVAL);
		t->state = M_DONE;
		machine__sync(m);
		return;
	}
	if (t->state == M_ACTIVE && t->rt_end && now >= t->rt_end) {
		/*
		 * A runtime step's wall time is over: rt-app's loop sees it at its next clock
		 * read, within a few us of work if it runs now, as soon as it runs if not.
		 */
		t->rt_end = 0;
		activate(m, t, 1);
		if (t->stop_ns)
			machine__arm(m, &t->ev, t->stop_ns);
		machine__sync(m);
		return;
	}
	if (t->state != M_IDLE && t->state != M_ASLEEP) {
		/* at work, or waiting for another thread: only its stop time brings it here */
		machine__sync(m);
		return;
	}
	switch (b->kind) {
	case SIM_BEHAV_BUSY:
		activate(m, t, UINT64_MAX);
		break;
	case SIM_BEHAV_PERIODIC:
		if (t->state == M_IDLE)
			t->next_period = now;
		activate(m, t, draw(t, &b->run));
		break;
	case SIM_BEHAV_BURSTY:
		activate(m, t, draw(t, &b->run));
		break;
	case SIM_BEHAV_PHASES:
		if (t->state == M_IDLE)
			t->state = M_ASLEEP;
		phases_next(m, t);
		break;
	case SIM_BEHAV_NONE:
		break;
	}
	/* a stop time still to come is the thread event's job while it is at work */
	if (t->stop_ns && t->state == M_ACTIVE && !sim_event_pending(&t->ev))
		machine__arm(m, &t->ev, t->stop_ns);
	machine__sync(m);
}

void machine__cpu_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct mcpu *c = sim_container_of(ev, struct mcpu, ev);
	struct sim_machine *m = c->m;
	struct mthread *t = machine__mt(m, c->tid);

	sched_advance(m->s, sim_now(eng));
	/* a tick due now comes first: if it preempted the thread, its burst ends when it is back */
	if (t && t->state == M_ACTIVE && sched_cpu_curr(m->s, c->id) == t->tid &&
	    sched_thread_work(m->s, t->tid, sim_now(eng)) >= t->target)
		end_burst(m, t);
	machine__sync(m);
}

/* The hypervisor's turn on a CPU: noise.steal of its period, then the next turn a period on. */
void machine__steal_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct mcpu *c = sim_container_of(ev, struct mcpu, steal_ev);
	struct sim_machine *m = c->m;
	uint64_t now = sim_now(eng);

	if (sched_steal(m->s, c->id, now, m->steal_ns))
		machine__fail(m, -EINVAL);
	machine__arm(m, &c->steal_ev, machine__later(now, m->noise.steal_period_ns));
	machine__sync(m);
}

void machine__tick_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct sim_machine *m = sim_container_of(ev, struct sim_machine, tick_ev);

	sched_advance(m->s, sim_now(eng));
	machine__sync(m);
}
