// SPDX-License-Identifier: MIT
/*
 * sim/machine/machine_cgroup.c - the machine's side of the cgroup model (sim/machine/machine_internal.h):
 * task groups made, changed and removed as the model says, autogroup sessions, and each
 * thread placed in the task group and on the CPUs it belongs to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine_internal.h"
#include "sim/trace/trace.h"

/* ---------------- the cgroup model's notifications ---------------- */

int machine__sid_reserve(struct sim_machine *m, int cg)
{
	size_t cap = (size_t)m->nsid_of_cg;

	if (cg < m->nsid_of_cg)
		return 0;
	if (UTIL_GROW(m->sid_of_cg, cap, (size_t)cg + 1))
		return -ENOMEM;
	for (size_t i = (size_t)m->nsid_of_cg; i < cap; i++)
		m->sid_of_cg[i] = -1;	/* no task group yet */
	m->nsid_of_cg = (int)cap;
	return 0;
}

int machine__sid_of(const struct sim_machine *m, int cg)
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

/* A task group's weight: its cpu.shares, which the model keeps within the kernel's range. */
static uint32_t tg_weight(const struct cg_cpu_params *p)
{
	uint64_t w = p->shares;

	return (uint32_t)(w < SCHED_SHARES_MIN ? SCHED_SHARES_MIN
			  : w > SCHED_SHARES_MAX ? SCHED_SHARES_MAX : w);
}

/*
 * The CPUs the task group of cgroup @cg may use, as Linux 7.3's tg_cpus() counts them for the
 * cgroup modes max and concur: cpuset_num_cpus() of the group's cgroup. On cgroup v2 (and
 * rfc2017, whose cpusets are v2's) that is the size of the cgroup's effective cpuset, which is
 * its nearest ancestor's when it has no cpuset of its own (cgroup_e_css()) and all CPUs at the
 * root; tg_cpus() asks only once some non-root cpuset exists (cpusets_enabled()), and before
 * that the answer is all CPUs anyway. On v1 the cpu and cpuset controllers are separate
 * hierarchies, and cpuset_num_cpus() counts the online CPUs unless the v1 cpuset hierarchy is
 * mounted with cpuset_v2_mode: a v1 group counts every CPU whatever its tasks' cpuset, so it is
 * never told anything. Autogroups have no cgroup: all CPUs.
 */
static int set_tg_cpus(struct sim_machine *m, int cg, uint64_t now)
{
	uint64_t mask[SCHED_MAX_CPUS / 64];
	int sid = machine__sid_of(m, cg), cpus = sched_config(m->s)->machine.cpus, n = 0;

	if (sid <= 0 || cg_hier_semantics(m->h) == CG_SEM_V1 ||
	    cg_cpuset_effective(m->h, cg, mask, SCHED_MAX_CPUS / 64))
		return 0;
	for (size_t w = 0; w < SCHED_MAX_CPUS / 64; w++)
		n += __builtin_popcountll(mask[w]);
	return sched_tg_set_cpus(m->s, sid, n >= cpus ? 0 : n, now);
}

int machine__tg_add(struct sim_machine *m, int cg, int parent, uint64_t now)
{
	struct cg_cpu_params p;
	int err = cg_tg_params(m->h, cg, &p), sid;

	if (err)
		return err;
	if (machine__sid_reserve(m, cg))
		return -ENOMEM;
	sid = m->next_sid++;
	err = sched_tg_new(m->s, sid, machine__sid_of(m, parent), tg_weight(&p), p.idle, now);
	if (!err)
		m->sid_of_cg[cg] = sid;
	if (!err)
		err = set_bandwidth(m, sid, &p, now);
	if (!err)	/* a new task group can sit under a restricted cpuset */
		err = set_tg_cpus(m, cg, now);
	return err;
}

/* Session @key, added with nice @nice if it is new; NULL when out of memory. */
struct msession *machine__session_get(struct sim_machine *m, int key, int nice)
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
	struct msession *ss = machine__session_get(m, key, 0);

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
	return machine__sid_of(m, cg);
}

/* Put @t in the task group it belongs in now, if that changed. */
int machine__retarget(struct sim_machine *m, struct mthread *t, uint64_t now)
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

struct mthread *machine__thread_add(struct sim_machine *m, int tid, uint64_t now)
{
	struct mthread *t;
	int session = cg_thread_pid(m->h, tid);
	int tg = thread_sid(m, tid, session, now);

	{
		size_t cap = (size_t)m->nthr;

		if (UTIL_GROW_ZERO(m->thr, cap, (size_t)tid + 1))
			return NULL;
		m->nthr = (int)cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->m = m;
	t->tid = tid;
	t->relock = -1;
	t->alive = true;
	t->b = &machine__no_behavior;
	t->cgroup = cg_thread_cgroup(m->h, tid);
	t->session = session;
	t->sid = tg;
	sim_event_init(&t->ev, machine__thread_event);
	if (tg < 0 || machine__ensure_cg(m, t->cgroup) || sched_thread_new(m->s, tid, tg, 0, 0, now)) {
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
uint64_t *machine__affinity(struct mthread *t)
{
	/* most threads never ask for one: 128 bytes each saved */
	if (!t->affinity)
		t->affinity = calloc(M_AFFINITY_WORDS, sizeof(*t->affinity));
	return t->affinity;
}

int machine__apply_cpus(struct sim_machine *m, struct mthread *t, uint64_t now)
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
	int err = set_tg_cpus(m, cgroup, now);

	if (err)
		return err;
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		int e;

		if (t && t->alive && (e = machine__apply_cpus(m, t, now)))
			return e;
	}
	return 0;
}

/* A cgroup move as a trace marker: "move NAME.N (pid P) to PATH". */
static void trace_move(struct sim_machine *m, int tid, int cgroup, uint64_t now)
{
	char name[256], path[4096], text[4500];

	cg_thread_name(m->h, tid, name, sizeof(name));
	cg_path(m->h, cgroup, path, sizeof(path));
	snprintf(text, sizeof(text), "move %s (pid %d) to %s", name, TRACE_PID_BASE + tid, path);
	trace_mark(m->trace, now, text);
}

void machine__observe(void *ctx, const struct cg_event *ev)
{
	struct sim_machine *m = ctx;
	uint64_t now = sim_now(&m->eng);
	struct mthread *t;
	int err = 0;

	switch (ev->kind) {
	case CG_EV_TG_CREATED:
		err = machine__ensure_cg(m, ev->cgroup);
		if (!err)
			err = machine__tg_add(m, ev->cgroup, ev->parent_tg, now);
		break;
	case CG_EV_TG_DESTROYED:
		err = sched_tg_free(m->s, machine__sid_of(m, ev->cgroup), now);
		if (!err)
			m->sid_of_cg[ev->cgroup] = -1;
		break;
	case CG_EV_THREAD_NEW:
		if (!machine__thread_add(m, ev->thread, now))
			err = -ENOMEM;
		break;
	case CG_EV_THREAD_MOVED:
		if (m->trace)
			trace_move(m, ev->thread, ev->cgroup, now);
		t = machine__mt(m, ev->thread);
		if (t) {
			machine__credit(m, t);
			t->cgroup = ev->cgroup;
			err = machine__ensure_cg(m, ev->cgroup);
		}
		if (!err && t)
			err = machine__retarget(m, t, now);
		break;
	case CG_EV_THREAD_EXITED:
		t = machine__mt(m, ev->thread);
		if (t) {
			machine__credit(m, t);
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
			err = sched_tg_set(m->s, machine__sid_of(m, ev->cgroup), tg_weight(&p),
					   p.idle, now);
		if (!err)
			err = set_bandwidth(m, machine__sid_of(m, ev->cgroup), &p, now);
		break;
	}
	case CG_EV_THREADED:
		break;
	case CG_EV_CPUSET:
		err = cpuset_changed(m, ev->cgroup, now);
		break;
	}
	if (err)
		machine__fail(m, err);
	machine__sync(m);
}
