// SPDX-License-Identifier: MIT
/*
 * sim/machine.c - the engine, the scheduler and the cgroup model wired together.
 *
 * Events:
 *   - one per thread (its behaviour's next wakeup, or its stop time);
 *   - one per CPU: the moment the thread running there finishes its current burst of work,
 *     recomputed (sched_cpu_finish_time) whenever the scheduler reports the CPU changed;
 *   - one for the scheduler: the earliest sched_next_tick() over all CPUs.
 * An event is only re-armed when its time really changes, so the engine's tie order between
 * events at the same nanosecond does not depend on how many ticks were processed: runs with
 * tick elision on and off see the same sequence of scheduler calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine.h"
#include "sim/util.h"

enum mstate {
	M_IDLE,		/* no behaviour, or not started */
	M_ASLEEP,	/* between activations */
	M_ACTIVE,	/* runnable with work to do */
	M_DONE,		/* stopped */
};

struct mthread {
	struct sim_event ev;		/* next wakeup or stop */
	struct sim_machine *m;
	int tid;
	bool alive;
	bool has_spec;
	bool rng_ready;
	enum mstate state;
	struct sim_thread_spec spec;
	struct sim_phase *phases;
	struct sim_rng rng;
	struct sim_rng noise;		/* the machine's wakeup noise (struct sim_wakeup_noise) */
	bool noise_ready;
	uint64_t due;			/* when the current sleep ends (the timer's target) */
	uint64_t target;		/* exec value at which the current burst ends; UINT64_MAX: busy */
	uint64_t next_period;
	size_t phase;
	uint32_t loop;
	/* metrics */
	int cgroup;			/* where it sits (for crediting CPU time) */
	int sid;			/* the scheduler task group it is in */
	bool has_affinity;		/* its own sched_setaffinity() mask */
	uint64_t affinity[SCHED_MAX_CPUS / 64];
	int session;			/* its session's key (default: its process's pid) */
	uint64_t credited;		/* exec already credited to cgroups */
	uint64_t base_exec, base_wait, base_sw, base_pre, base_mig, activations;
	uint64_t *lat;
	size_t nlat, caplat;
	uint64_t seen;			/* latency samples offered (nlat of them are kept) */
	uint64_t lat_max;
	uint64_t delayed;		/* latencies over SIM_DELAYED_NS */
	uint64_t overruns;		/* periodic activations that began after their period */
};

/* An autogroup: the hidden task group of one session (kernel/sched/autogroup.c). */
struct msession {
	int key;		/* the caller's session number */
	int nice;
	int sid;		/* its task group, -1 until a thread needs it */
};

struct mcpu {
	struct sim_event ev;		/* current burst ends */
	struct sim_machine *m;
	int id;
	int tid;			/* whose burst ev is for, -1 */
};

struct sim_machine {
	struct sim_engine eng;
	struct sched *s;
	struct cg_hier *h;
	uint64_t seed;
	struct sim_wakeup_noise noise;
	uint64_t phase_ns;		/* noise.tick_phase's offset */
	uint64_t tick_ns;
	bool has_noise;			/* any of it is not zero */
	bool threads_set;		/* sim_machine_set_thread() was called */
	int ncpu;
	struct mcpu *cpu;
	struct mthread **thr;
	int nthr;
	struct sim_event tick_ev;
	uint64_t *cg_cpu;		/* CPU time credited per cgroup id in the window (own threads) */
	uint64_t *cg_total;		/* the same since the start (cpu.stat) */
	int ncg;
	uint64_t window_start;
	struct sched_stats base_st;
	uint64_t base_events;
	size_t lat_keep;		/* latency samples kept per thread at most */
	/*
	 * Scheduler task group ids: cgroups get theirs in creation order, autogroups after, so
	 * that the ids stay dense (sid_of_cg[cgroup id], -1 for a cgroup with no cpu css).
	 */
	int *sid_of_cg;
	int nsid_of_cg;
	int next_sid;
	bool autogroup;
	struct msession *sessions;
	size_t nsessions, capsessions;
	struct util_imap session_ix;	/* session number -> index in sessions[] */
	int *todo;			/* threads whose burst ended while off-CPU */
	int ntodo, captodo;
	int err;
};

static uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static struct mthread *mt(const struct sim_machine *m, int tid)
{
	return tid >= 0 && tid < m->nthr ? m->thr[tid] : NULL;
}

static int grow_ptrs(void ***arr, int *n, int need)
{
	int k = *n ? *n : 16;
	void **p;

	if (need < *n)
		return 0;
	while (k <= need)
		k *= 2;
	p = realloc(*arr, (size_t)k * sizeof(void *));
	if (!p)
		return -ENOMEM;
	memset(p + *n, 0, (size_t)(k - *n) * sizeof(void *));
	*arr = p;
	*n = k;
	return 0;
}

static int ensure_cg(struct sim_machine *m, int id)
{
	int k = m->ncg ? m->ncg : 16;
	uint64_t *p;

	if (id < m->ncg)
		return 0;
	while (k <= id)
		k *= 2;
	p = realloc(m->cg_cpu, (size_t)k * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + m->ncg, 0, (size_t)(k - m->ncg) * sizeof(*p));
	m->cg_cpu = p;
	p = realloc(m->cg_total, (size_t)k * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + m->ncg, 0, (size_t)(k - m->ncg) * sizeof(*p));
	m->cg_total = p;
	m->ncg = k;
	return 0;
}

/* Credit a thread's CPU time since the last credit to the cgroup it is in now. */
static void credit(struct sim_machine *m, struct mthread *t)
{
	uint64_t exec = sched_thread_exec(m->s, t->tid, sim_now(&m->eng));

	if (t->cgroup >= 0 && t->cgroup < m->ncg && exec > t->credited) {
		m->cg_cpu[t->cgroup] += exec - t->credited;
		m->cg_total[t->cgroup] += exec - t->credited;
	}
	t->credited = exec;
}

static void fail(struct sim_machine *m, int err)
{
	if (!m->err)
		m->err = err;
	sim_stop(&m->eng);
}

/* ---------------- keeping the events in step with the scheduler ---------------- */

/* @t + @d, or UINT64_MAX ("never") when that does not fit: a huge draw must not wrap to now. */
static uint64_t later(uint64_t t, uint64_t d)
{
	return t > UINT64_MAX - d ? UINT64_MAX : t + d;
}

static void arm(struct sim_machine *m, struct sim_event *ev, uint64_t t)
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
		fail(m, -ENOMEM);
}

static void push_todo(struct sim_machine *m, int tid)
{
	for (int i = 0; i < m->ntodo; i++)
		if (m->todo[i] == tid)
			return;
	if (m->ntodo == m->captodo) {
		int k = m->captodo ? 2 * m->captodo : 16;
		int *p = realloc(m->todo, (size_t)k * sizeof(*p));

		if (!p) {
			fail(m, -ENOMEM);
			return;
		}
		m->todo = p;
		m->captodo = k;
	}
	m->todo[m->ntodo++] = tid;
}

static void end_burst(struct sim_machine *m, struct mthread *t);

/* Recompute when the burst running on @c ends. */
static void refresh_cpu(struct sim_machine *m, struct mcpu *c)
{
	uint64_t now = sim_now(&m->eng);
	int cur = sched_cpu_curr(m->s, c->id);
	struct mthread *old = mt(m, c->tid), *t;

	if (c->tid != cur) {
		/* the thread that was here left: if its work is done it ends its burst now */
		if (old && old->state == M_ACTIVE && old->target != UINT64_MAX &&
		    sched_thread_exec(m->s, old->tid, now) >= old->target)
			push_todo(m, old->tid);
		c->tid = cur;
	}
	t = mt(m, cur);
	if (!t || t->state != M_ACTIVE || t->target == UINT64_MAX) {
		sim_cancel(&m->eng, &c->ev);
		return;
	}
	{
		uint64_t exec = sched_thread_exec(m->s, cur, now);
		uint64_t left = t->target > exec ? t->target - exec : 0;

		arm(m, &c->ev, sched_cpu_finish_time(m->s, c->id, now, left));
	}
}

/* Drain the scheduler's changed CPUs (and bursts that ended off-CPU) until nothing moves. */
static void sync(struct sim_machine *m)
{
	for (;;) {
		int c = sched_pop_changed(m->s);

		if (c >= 0) {
			refresh_cpu(m, &m->cpu[c]);
			continue;
		}
		if (m->ntodo) {
			struct mthread *t = mt(m, m->todo[--m->ntodo]);

			if (t && t->state == M_ACTIVE &&
			    sched_thread_exec(m->s, t->tid, sim_now(&m->eng)) >= t->target)
				end_burst(m, t);
			continue;
		}
		break;
	}
	arm(m, &m->tick_ev, sched_next_tick_min(m->s));
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
	uint64_t now = sim_now(&m->eng), exec = sched_thread_exec(m->s, t->tid, now);

	t->target = len == UINT64_MAX || exec > UINT64_MAX - len ? UINT64_MAX : exec + len;
	t->activations++;
	if (t->state == M_ASLEEP && t->noise_ready) {
		/* a sleep's timer: late by what go_to_sleep() drew, maybe on an idle CPU */
		uint64_t exit = sim_dist_draw_ns(&t->noise, &m->noise.idle_exit);

		t->state = M_ACTIVE;
		if (sched_wakeup_timed(m->s, t->tid, now, t->due, exit))
			fail(m, -EINVAL);
	} else if (t->state != M_ACTIVE) {
		t->state = M_ACTIVE;
		if (sched_wakeup(m->s, t->tid, now))
			fail(m, -EINVAL);
	} else {
		/* still runnable: the running CPU's burst end moves */
		struct sched_thread_stats st;

		if (!sched_thread_stats(m->s, t->tid, &st) && st.running)
			refresh_cpu(m, &m->cpu[st.cpu]);
	}
}

static void go_to_sleep(struct sim_machine *m, struct mthread *t, uint64_t wake)
{
	uint64_t now = sim_now(&m->eng);

	t->state = M_ASLEEP;
	if (sched_sleep(m->s, t->tid, now))
		fail(m, -EINVAL);
	t->due = wake;
	if (t->noise_ready)
		wake = later(wake, sim_dist_draw_ns(&t->noise, &m->noise.timer));
	arm(m, &t->ev, wake);
}

/* The next step of a phases behaviour from the current position: run, or sleep until. */
static void phases_next(struct sim_machine *m, struct mthread *t)
{
	const struct sim_behavior *b = &t->spec.behavior;

	for (;;) {
		const struct sim_phase *p;

		if (t->phase >= b->nphases) {
			t->phase = 0;
			t->loop++;
			if (b->loops && t->loop >= b->loops) {
				if (t->state == M_ACTIVE &&
				    sched_sleep(m->s, t->tid, sim_now(&m->eng)))
					fail(m, -EINVAL);
				t->state = M_DONE;
				sim_cancel(&m->eng, &t->ev);
				return;
			}
		}
		p = &t->phases[t->phase++];
		if (p->sleep) {
			go_to_sleep(m, t, later(sim_now(&m->eng), draw(t, &p->d)));
			return;
		}
		activate(m, t, draw(t, &p->d));
		return;
	}
}

/* The running burst of @t is complete. */
static void end_burst(struct sim_machine *m, struct mthread *t)
{
	uint64_t now = sim_now(&m->eng);
	const struct sim_behavior *b = &t->spec.behavior;

	switch (b->kind) {
	case SIM_BEHAV_PERIODIC:
		t->next_period = later(t->next_period, b->period_ns);
		if (t->next_period <= now) {
			/* overran its period: the next activation starts at once */
			t->overruns++;
			activate(m, t, draw(t, &b->run));
		} else {
			go_to_sleep(m, t, t->next_period);
		}
		break;
	case SIM_BEHAV_BURSTY:
		go_to_sleep(m, t, later(now, draw(t, &b->sleep)));
		break;
	case SIM_BEHAV_PHASES:
		phases_next(m, t);
		break;
	case SIM_BEHAV_BUSY:
	case SIM_BEHAV_NONE:
		break;
	}
}

static void thread_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct mthread *t = sim_container_of(ev, struct mthread, ev);
	struct sim_machine *m = t->m;
	const struct sim_behavior *b = &t->spec.behavior;
	uint64_t now = sim_now(eng);

	if (t->spec.stop_ns && now >= t->spec.stop_ns) {
		if (t->state == M_ACTIVE && sched_sleep(m->s, t->tid, now))
			fail(m, -EINVAL);
		t->state = M_DONE;
		sync(m);
		return;
	}
	if (t->state == M_ACTIVE) {	/* the stop timer of a thread still at work cannot be here */
		sync(m);
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
	if (t->spec.stop_ns && t->state == M_ACTIVE && !sim_event_pending(&t->ev))
		arm(m, &t->ev, t->spec.stop_ns);
	sync(m);
}

static void cpu_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct mcpu *c = sim_container_of(ev, struct mcpu, ev);
	struct sim_machine *m = c->m;
	struct mthread *t = mt(m, c->tid);

	sched_advance(m->s, sim_now(eng));
	if (t && t->state == M_ACTIVE && sched_thread_exec(m->s, t->tid, sim_now(eng)) >= t->target)
		end_burst(m, t);
	sync(m);
}

static void tick_event(struct sim_engine *eng, struct sim_event *ev)
{
	struct sim_machine *m = sim_container_of(ev, struct sim_machine, tick_ev);

	sched_advance(m->s, sim_now(eng));
	sync(m);
}

/* ---------------- the cgroup model's notifications ---------------- */

static int sid_of(const struct sim_machine *m, int cg)
{
	return cg >= 0 && cg < m->nsid_of_cg ? m->sid_of_cg[cg] : -1;
}

/* cpu.max and cpu.max.burst (v1: cfs_quota_us, cfs_period_us, cfs_burst_us) to the scheduler. */
static int set_bandwidth(struct sim_machine *m, int sid, const struct cg_cpu_params *p,
			 uint64_t now)
{
	uint64_t quota = p->quota_us == CG_QUOTA_MAX ? UINT64_MAX : p->quota_us * 1000;

	return sched_tg_set_bandwidth(m->s, sid, quota, p->period_us * 1000, p->burst_us * 1000,
				      now);
}

static int tg_add(struct sim_machine *m, int cg, int parent, uint64_t now)
{
	struct cg_cpu_params p;
	uint64_t w;
	int err = cg_tg_params(m->h, cg, &p), sid;

	if (err)
		return err;
	if (cg >= m->nsid_of_cg) {
		int k = m->nsid_of_cg ? m->nsid_of_cg : 16, *a;

		while (k <= cg)
			k *= 2;
		a = realloc(m->sid_of_cg, (size_t)k * sizeof(*a));
		if (!a)
			return -ENOMEM;
		for (int i = m->nsid_of_cg; i < k; i++)
			a[i] = -1;
		m->sid_of_cg = a;
		m->nsid_of_cg = k;
	}
	sid = m->next_sid++;
	w = p.shares ? p.shares : SCHED_NICE_0_WEIGHT;
	err = sched_tg_new(m->s, sid, sid_of(m, parent), (uint32_t)umin(w, 262144), p.idle, now);
	if (!err)
		m->sid_of_cg[cg] = sid;
	if (!err)
		err = set_bandwidth(m, sid, &p, now);
	return err;
}

/* Session @key, added with nice @nice if it is new; NULL when out of memory. */
static struct msession *session_get(struct sim_machine *m, int key, int nice)
{
	int i;

	if (util_imap_get(&m->session_ix, key, &i))
		return &m->sessions[i];
	if (UTIL_GROW(m->sessions, m->capsessions, m->nsessions + 1) ||
	    util_imap_put(&m->session_ix, key, (int)m->nsessions))
		return NULL;
	m->sessions[m->nsessions] = (struct msession){ key, nice, -1 };
	return &m->sessions[m->nsessions++];
}

/* The autogroup of session @key, created on first use. */
static int session_sid(struct sim_machine *m, int key, uint64_t now)
{
	struct msession *ss = session_get(m, key, 0);

	if (!ss)
		return -ENOMEM;
	if (ss->sid < 0) {
		/* autogroup_create(): weight from the session's nice (sched_prio_to_weight) */
		int sid = m->next_sid++, e;

		e = sched_tg_new(m->s, sid, 0, sched_nice_weight(ss->nice), false, now);
		if (e)
			return e;
		ss->sid = sid;
	}
	return ss->sid;
}

/*
 * The task group a thread runs in: its cgroup's task group, or, with autogroup on, its
 * session's autogroup when that is the root (task_wants_autogroup()).
 */
static int thread_sid(struct sim_machine *m, int tid, int session, uint64_t now)
{
	int cg = cg_thread_tg(m->h, tid);

	if (m->autogroup && cg == 0)
		return session_sid(m, session, now);
	return sid_of(m, cg);
}

/* Put @t in the task group it belongs in now, if that changed. */
static int retarget(struct sim_machine *m, struct mthread *t, uint64_t now)
{
	int sid = thread_sid(m, t->tid, t->session, now), e;

	if (sid < 0)
		return sid;
	if (sid == t->sid)
		return 0;
	e = sched_thread_move(m->s, t->tid, sid, now);
	if (!e)
		t->sid = sid;
	return e;
}

static struct mthread *thread_add(struct sim_machine *m, int tid, uint64_t now)
{
	struct mthread *t;
	int session = cg_thread_pid(m->h, tid);
	int tg = thread_sid(m, tid, session, now);

	if (grow_ptrs((void ***)&m->thr, &m->nthr, tid))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->m = m;
	t->tid = tid;
	t->alive = true;
	t->cgroup = cg_thread_cgroup(m->h, tid);
	t->session = session;
	t->sid = tg;
	sim_event_init(&t->ev, thread_event);
	if (tg < 0 || ensure_cg(m, t->cgroup) || sched_thread_new(m->s, tid, tg, 0, 0, now)) {
		free(t);
		return NULL;
	}
	m->thr[tid] = t;
	return t;
}

/*
 * A cgroup's effective CPUs changed (cpuset.cpus): every thread governed by it gets its cpuset
 * intersected with the affinity it asked for (set_cpus_allowed_ptr; an empty intersection
 * falls back to the cpuset, as cpuset_cpus_allowed_fallback() does).
 */
static int apply_cpus(struct sim_machine *m, struct mthread *t, uint64_t now)
{
	uint64_t mask[SCHED_MAX_CPUS / 64], both[SCHED_MAX_CPUS / 64];
	bool any = false;

	if (cg_thread_cpus(m->h, t->tid, mask, SCHED_MAX_CPUS / 64))
		return 0;
	for (size_t w = 0; w < SCHED_MAX_CPUS / 64; w++) {
		both[w] = mask[w] & (t->has_affinity ? t->affinity[w] : ~0ull);
		any |= both[w] != 0;
	}
	return sched_thread_set_affinity(m->s, t->tid, any ? both : mask, SCHED_MAX_CPUS / 64,
					 now);
}

static int cpuset_changed(struct sim_machine *m, int cgroup, uint64_t now)
{
	(void)cgroup;
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		int e;

		if (t && t->alive && (e = apply_cpus(m, t, now)))
			return e;
	}
	return 0;
}

static void observe(void *ctx, const struct cg_event *ev)
{
	struct sim_machine *m = ctx;
	uint64_t now = sim_now(&m->eng);
	struct mthread *t;
	int err = 0;

	switch (ev->kind) {
	case CG_EV_TG_CREATED:
		err = ensure_cg(m, ev->cgroup);
		if (!err)
			err = tg_add(m, ev->cgroup, ev->parent_tg, now);
		break;
	case CG_EV_TG_DESTROYED:
		err = sched_tg_free(m->s, sid_of(m, ev->cgroup), now);
		if (!err)
			m->sid_of_cg[ev->cgroup] = -1;
		break;
	case CG_EV_THREAD_NEW:
		if (!thread_add(m, ev->thread, now))
			err = -ENOMEM;
		break;
	case CG_EV_THREAD_MOVED:
		t = mt(m, ev->thread);
		if (t) {
			credit(m, t);
			t->cgroup = ev->cgroup;
			err = ensure_cg(m, ev->cgroup);
		}
		if (!err && t)
			err = retarget(m, t, now);
		break;
	case CG_EV_THREAD_EXITED:
		t = mt(m, ev->thread);
		if (t) {
			credit(m, t);
			t->alive = false;
			t->state = M_DONE;
			sim_cancel(&m->eng, &t->ev);
		}
		err = sched_thread_exit(m->s, ev->thread, now);
		break;
	case CG_EV_TG_PARAMS: {
		struct cg_cpu_params p;

		err = cg_tg_params(m->h, ev->cgroup, &p);
		if (!err)
			err = sched_tg_set(m->s, sid_of(m, ev->cgroup),
					   (uint32_t)umin(p.shares ? p.shares : 1, 262144), p.idle,
					   now);
		if (!err)
			err = set_bandwidth(m, sid_of(m, ev->cgroup), &p, now);
		break;
	}
	case CG_EV_THREADED:
		break;
	case CG_EV_CPUSET:
		err = cpuset_changed(m, ev->cgroup, now);
		break;
	}
	if (err)
		fail(m, err);
	sync(m);
}

/* ---------------- construction ---------------- */

/* splitmix64: a stateless, deterministic hash for the reservoir's choices. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Keep every wakeup latency until the thread has m->lat_keep of them, then a uniform sample
 * of that size (reservoir sampling: the k-th sample replaces a random kept one with probability
 * keep/k), so that memory stays bounded however long the run. The largest is kept exactly. The
 * choices come from a hash of (seed, tid, k), not from the thread's stream, so keeping samples
 * never changes what the thread draws.
 */
static void latency_hook(void *ctx, int tid, uint64_t lat)
{
	struct sim_machine *m = ctx;
	struct mthread *t = mt(m, tid);

	if (!t)
		return;
	t->seen++;
	if (lat > SIM_DELAYED_NS)
		t->delayed++;
	if (lat > t->lat_max)
		t->lat_max = lat;
	if (t->nlat >= m->lat_keep) {
		uint64_t j = mix64(m->seed ^ mix64(((uint64_t)tid << 32) ^ t->seen)) % t->seen;

		if (j < t->nlat)
			t->lat[j] = lat;
		return;
	}
	if (t->nlat == t->caplat) {
		size_t k = t->caplat ? 2 * t->caplat : 64;
		uint64_t *p;

		if (k > m->lat_keep)
			k = m->lat_keep;
		p = realloc(t->lat, k * sizeof(*p));
		if (!p) {
			fail(m, -ENOMEM);
			return;
		}
		t->lat = p;
		t->caplat = k;
	}
	t->lat[t->nlat++] = lat;
}

int sim_machine_set_session(struct sim_machine *m, int tid, int session, int nice)
{
	struct mthread *t = mt(m, tid);
	struct msession *ss;

	if (!t || !t->alive)
		return -ENOENT;
	if (nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	ss = session_get(m, session, nice);	/* a new session gets @nice */
	if (!ss)
		return -ENOMEM;
	if (ss->nice != nice) {
		if (ss->sid >= 0)
			return -EBUSY;	/* autogroup_set_nice() after use is not modelled */
		ss->nice = nice;
	}
	t->session = session;
	return m->autogroup ? retarget(m, t, sim_now(&m->eng)) : 0;
}

int sim_machine_set_noise(struct sim_machine *m, const struct sim_wakeup_noise *noise)
{
	if (m->threads_set)
		return -EBUSY;
	if (sim_dist_validate(&noise->timer) || sim_dist_validate(&noise->idle_exit))
		return -EINVAL;
	m->noise = *noise;
	m->phase_ns = (noise->tick_phase ? mix64(m->seed ^ 0x7068617365ull) : noise->phase_ns) %
		      m->tick_ns;
	m->has_noise = sim_dist_mean(&noise->timer) > 0 || sim_dist_mean(&noise->idle_exit) > 0 ||
		       noise->timer.b > 0 || noise->idle_exit.b > 0;
	return 0;
}

int sim_machine_set_autogroup(struct sim_machine *m, bool on)
{
	m->autogroup = on;
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		int e;

		if (t && t->alive && (e = retarget(m, t, sim_now(&m->eng))))
			return e;
	}
	sync(m);
	return m->err;
}

void sim_machine_set_latency_keep(struct sim_machine *m, size_t keep)
{
	m->lat_keep = keep ? keep : 1;
}

static void stat_provider(void *ctx, int cgroup, struct cg_cpu_stat *out);

struct sim_machine *sim_machine_new(const struct sched_config *cfg, struct cg_hier *h,
				    uint64_t seed, int *err)
{
	struct sim_machine *m = calloc(1, sizeof(*m));
	int e = -ENOMEM, maxcg, maxtid;

	if (!m)
		goto out;
	sim_engine_init(&m->eng);
	m->h = h;
	m->seed = seed;
	m->ncpu = cfg->cpus;
	m->tick_ns = 1000000000ull / (cfg->tun.hz ? cfg->tun.hz : 1);
	m->lat_keep = 1u << 20;
	{
		/* the balancer's timing jitter draws from the scenario's seed too */
		struct sched_config c = *cfg;

		c.seed = seed;
		m->s = sched_new(&c);
	}
	if (!m->s) {
		e = -EINVAL;
		goto fail;
	}
	sched_set_latency_hook(m->s, latency_hook, m);
	/* the hierarchy's cpusets are of this machine */
	e = cg_set_nr_cpus(h, cfg->cpus);
	if (e)
		goto fail;
	e = -ENOMEM;
	m->cpu = calloc((size_t)m->ncpu, sizeof(*m->cpu));
	if (!m->cpu)
		goto fail;
	for (int c = 0; c < m->ncpu; c++) {
		m->cpu[c].m = m;
		m->cpu[c].id = c;
		m->cpu[c].tid = -1;
		sim_event_init(&m->cpu[c].ev, cpu_event);
	}
	sim_event_init(&m->tick_ev, tick_event);
	/* the task groups that exist: parents have smaller ids (created first); root is 0 */
	maxcg = cg_cgroup_max_id(h);
	if (ensure_cg(m, maxcg))
		goto fail;
	m->sid_of_cg = malloc(16 * sizeof(*m->sid_of_cg));
	if (!m->sid_of_cg)
		goto fail;
	m->nsid_of_cg = 16;
	for (int i = 0; i < 16; i++)
		m->sid_of_cg[i] = -1;
	m->sid_of_cg[0] = 0;
	m->next_sid = 1;
	for (int cg = 1; cg < maxcg; cg++) {
		if (!cg_cgroup_alive(h, cg) || !cg_is_tg(h, cg))
			continue;
		e = tg_add(m, cg, cg_tg_parent(h, cg), 0);
		if (e)
			goto fail;
	}
	maxtid = cg_thread_max_id(h);
	for (int tid = 1; tid < maxtid; tid++) {
		if (!cg_thread_alive(h, tid))
			continue;
		if (!thread_add(m, tid, 0)) {
			e = -ENOMEM;
			goto fail;
		}
	}
	cg_set_observer(h, observe, m);
	cg_set_stat_provider(h, stat_provider, m);
	/* cpusets of the layout as it is */
	for (int tid = 1; tid < m->nthr; tid++)
		if (m->thr[tid] && (e = apply_cpus(m, m->thr[tid], 0)))
			goto fail;
	return m;
fail:
	sim_machine_free(m);
	m = NULL;
out:
	if (err)
		*err = e;
	return m;
}

void sim_machine_free(struct sim_machine *m)
{
	if (!m)
		return;
	if (m->h) {
		cg_set_observer(m->h, NULL, NULL);
		cg_set_stat_provider(m->h, NULL, NULL);
	}
	/* the engine marks its pending events idle: release it while they still exist */
	sim_engine_release(&m->eng);
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];

		if (!t)
			continue;
		if (t->rng_ready)
			sim_rng_release(&t->rng);
		if (t->noise_ready)
			sim_rng_release(&t->noise);
		free(t->phases);
		free(t->lat);
		free(t);
	}
	free(m->thr);
	free(m->cpu);
	free(m->cg_cpu);
	free(m->cg_total);
	free(m->sid_of_cg);
	free(m->sessions);
	util_imap_free(&m->session_ix);
	free(m->todo);
	sched_free(m->s);
	free(m);
}

int sim_machine_set_thread(struct sim_machine *m, int tid, const struct sim_thread_spec *spec)
{
	struct mthread *t = mt(m, tid);
	const struct sim_behavior *b = &spec->behavior;
	uint64_t now = sim_now(&m->eng);
	int err;

	if (!t || !t->alive)
		return -ENOENT;
	if (t->has_spec)
		return -EBUSY;
	if (spec->nice < SCHED_NICE_MIN || spec->nice > SCHED_NICE_MAX)
		return -EINVAL;
	switch (b->kind) {
	case SIM_BEHAV_PERIODIC:
		if (!b->period_ns || sim_dist_validate(&b->run))
			return -EINVAL;
		break;
	case SIM_BEHAV_BURSTY:
		if (sim_dist_validate(&b->run) || sim_dist_validate(&b->sleep))
			return -EINVAL;
		break;
	case SIM_BEHAV_PHASES:
		if (!b->nphases || !b->phases)
			return -EINVAL;
		for (size_t i = 0; i < b->nphases; i++)
			if (sim_dist_validate(&b->phases[i].d))
				return -EINVAL;
		break;
	case SIM_BEHAV_NONE:
	case SIM_BEHAV_BUSY:
		break;
	default:
		return -EINVAL;
	}
	if (b->kind == SIM_BEHAV_PHASES) {
		t->phases = malloc(b->nphases * sizeof(*t->phases));
		if (!t->phases)
			return -ENOMEM;
		memcpy(t->phases, b->phases, b->nphases * sizeof(*t->phases));
	}
	if (sim_rng_init(&t->rng, m->seed, (uint32_t)tid))
		return -ENOMEM;
	t->rng_ready = true;
	m->threads_set = true;
	if (m->has_noise) {
		/* a family of streams apart from the behaviours' (same index, another seed) */
		if (sim_rng_init(&t->noise, m->seed ^ 0x6e6f697365ull, (uint32_t)tid))
			return -ENOMEM;
		t->noise_ready = true;
	}
	t->spec = *spec;
	t->spec.behavior.phases = t->phases;
	t->has_spec = true;
	err = sched_thread_set_nice(m->s, tid, spec->nice, now);
	if (!err && spec->policy != SCHED_THREAD_NORMAL)
		err = sched_thread_set_policy(m->s, tid, spec->policy, now);
	if (!err && spec->affinity) {
		memset(t->affinity, 0, sizeof(t->affinity));
		for (size_t w = 0; w < spec->affinity_words && w < SCHED_MAX_CPUS / 64; w++)
			t->affinity[w] = spec->affinity[w];
		t->has_affinity = true;
	}
	if (!err)
		err = apply_cpus(m, t, now);
	if (!err && spec->slice_ns)
		err = sched_thread_set_slice(m->s, tid, spec->slice_ns, now);
	if (err)
		return err;
	if (b->kind != SIM_BEHAV_NONE) {
		uint64_t start = spec->start_ns > now ? spec->start_ns : now;

		arm(m, &t->ev, later(start, m->phase_ns));
	}
	sync(m);
	return m->err;
}

int sim_machine_run_until(struct sim_machine *m, uint64_t t)
{
	int err;

	if (m->err)
		return m->err;
	err = sim_run_until(&m->eng, t);
	if (m->err)
		return m->err;
	if (err)
		return err;
	sched_advance(m->s, t);
	sync(m);
	return m->err;
}

void sim_machine_set_event_limit(struct sim_machine *m, uint64_t max)
{
	sim_engine_set_limit(&m->eng, max);
}

uint64_t sim_machine_now(const struct sim_machine *m)
{
	return sim_now(&m->eng);
}

struct sched *sim_machine_sched(struct sim_machine *m)
{
	return m->s;
}

/* ---------------- metrics ---------------- */

void sim_machine_reset_metrics(struct sim_machine *m)
{
	uint64_t now = sim_now(&m->eng);

	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		struct sched_thread_stats st;

		if (!t || !t->alive || sched_thread_stats(m->s, t->tid, &st))
			continue;
		credit(m, t);
		t->base_exec = sched_thread_exec(m->s, t->tid, now);
		t->base_wait = st.wait_ns;
		t->base_sw = st.switches;
		t->base_pre = st.preempted;
		t->base_mig = st.migrations;
		t->activations = 0;
		t->nlat = 0;
		t->seen = 0;
		t->lat_max = 0;
		t->delayed = 0;
		t->overruns = 0;
	}
	if (m->cg_cpu)
		memset(m->cg_cpu, 0, (size_t)m->ncg * sizeof(*m->cg_cpu));
	sched_stats(m->s, &m->base_st);
	m->base_events = sim_engine_processed(&m->eng);
	m->window_start = now;
}

int sim_machine_thread_metrics(const struct sim_machine *m, int tid,
			       struct sim_thread_metrics *out)
{
	const struct mthread *t = mt(m, tid);
	struct sched_thread_stats st;

	if (!t || sched_thread_stats(m->s, tid, &st))
		return -ENOENT;
	out->cpu_ns = sched_thread_exec(m->s, tid, sim_now(&m->eng)) - t->base_exec;
	out->wait_ns = st.wait_ns - t->base_wait;
	out->switches = st.switches - t->base_sw;
	out->preempted = st.preempted - t->base_pre;
	out->migrations = st.migrations - t->base_mig;
	out->activations = t->activations;
	out->latency = t->lat;
	out->nlatency = t->nlat;
	out->latency_seen = t->seen;
	out->latency_max = t->lat_max;
	out->latency_delayed = t->delayed;
	out->overruns = t->overruns;
	return 0;
}

/* CPU time of @cgroup and its descendants: what @acc credits, plus what is not credited yet. */
static uint64_t subtree_cpu(const struct sim_machine *m, const uint64_t *acc, int cgroup)
{
	uint64_t sum = 0, now = sim_now(&m->eng);

	/* time credited to a cgroup since removed is counted for that cgroup only */
	for (int cg = 0; cg < m->ncg; cg++) {
		int a = cg;

		while (a >= 0 && a != cgroup)
			a = cg_cgroup_parent(m->h, a);
		if (a == cgroup)
			sum += acc[cg];
	}
	for (int i = 0; i < m->nthr; i++) {
		const struct mthread *t = m->thr[i];
		int a;

		if (!t || !t->alive)
			continue;
		for (a = t->cgroup; a >= 0 && a != cgroup; a = cg_cgroup_parent(m->h, a))
			;
		if (a == cgroup) {
			uint64_t exec = sched_thread_exec(m->s, t->tid, now);

			if (exec > t->credited)
				sum += exec - t->credited;
		}
	}
	return sum;
}

uint64_t sim_machine_cgroup_cpu(const struct sim_machine *m, int cgroup)
{
	return subtree_cpu(m, m->cg_cpu, cgroup);
}

/* cpu.stat: usage since the start, all of it user time (the model has no system time). */
static void stat_provider(void *ctx, int cgroup, struct cg_cpu_stat *out)
{
	const struct sim_machine *m = ctx;
	uint64_t us = subtree_cpu(m, m->cg_total, cgroup) / 1000;

	int sid = sid_of(m, cgroup);
	struct sched_bw_stats bw;

	memset(out, 0, sizeof(*out));
	out->usage_usec = us;
	out->user_usec = us;
	if (sid > 0 && !sched_tg_bw_stats(m->s, sid, &bw)) {
		out->nr_periods = bw.nr_periods;
		out->nr_throttled = bw.nr_throttled;
		out->throttled_usec = bw.throttled_ns / 1000;
		out->nr_bursts = bw.nr_bursts;
		out->burst_usec = bw.burst_ns / 1000;
	}
}

int sim_machine_cgroup_cpu_all(const struct sim_machine *m, uint64_t *out, int n)
{
	uint64_t now = sim_now(&m->eng);

	for (int cg = 0; cg < n; cg++)
		out[cg] = 0;
	/* credit each cgroup's own time and each live thread's pending time to every ancestor */
	for (int cg = 0; cg < m->ncg; cg++)
		for (int a = cg; a >= 0 && m->cg_cpu[cg]; a = cg_cgroup_parent(m->h, a))
			if (a < n)
				out[a] += m->cg_cpu[cg];
	for (int i = 0; i < m->nthr; i++) {
		const struct mthread *t = m->thr[i];
		uint64_t exec;

		if (!t || !t->alive)
			continue;
		exec = sched_thread_exec(m->s, t->tid, now);
		if (exec <= t->credited)
			continue;
		for (int a = t->cgroup; a >= 0; a = cg_cgroup_parent(m->h, a))
			if (a < n)
				out[a] += exec - t->credited;
	}
	return 0;
}

void sim_machine_metrics(const struct sim_machine *m, struct sim_machine_metrics *out)
{
	struct sched_stats st;

	sched_stats(m->s, &st);
	out->window_ns = sim_now(&m->eng) - m->window_start;
	out->overhead_ns = st.overhead_ns - m->base_st.overhead_ns;
	out->level_ops = st.level_ops - m->base_st.level_ops;
	out->switches = st.switches - m->base_st.switches;
	out->migrations = st.migrations - m->base_st.migrations;
	out->ticks = st.ticks - m->base_st.ticks;
	out->ticks_processed = st.ticks_processed - m->base_st.ticks_processed;
	out->events = sim_engine_processed(&m->eng) - m->base_events;
}
