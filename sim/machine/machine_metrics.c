// SPDX-License-Identifier: MIT
/*
 * sim/machine/machine_metrics.c - what the machine measures (sim/machine/machine_internal.h): CPU time
 * credited to threads and cgroups over the window, and cpu.stat for the cgroup model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine_internal.h"

/* ---------------- metrics ---------------- */

void sim_machine_reset_metrics(struct sim_machine *m)
{
	uint64_t now = sim_now(&m->eng);

	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		struct sched_thread_stats st;

		if (!t || !t->alive || sched_thread_stats(m->s, t->tid, &st))
			continue;
		machine__credit(m, t);
		t->base_exec = sched_thread_exec(m->s, t->tid, now);
		t->base_wait = sched_thread_wait(m->s, t->tid, now);
		t->base_sw = st.switches;
		t->base_pre = st.preempted;
		t->base_mig = st.migrations;
		t->activations = 0;
		t->nlat = 0;
		t->seen = 0;
		t->lat_max = 0;
		t->lat_min = 0;
		t->lat_sum = 0;
		t->delayed = 0;
		t->overruns = 0;
		t->waits = t->wait_sum = t->wait_max = t->wait_max_since = t->wait_max_at = 0;
		if (t->pa) {
			t->pa->acts_done = t->pa->acts_overrun = t->pa->acts_missed = 0;
			t->pa->slack_min = t->pa->slack_sum = 0;
			t->pa->nacts = 0;
		}
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
	const struct mthread *t = machine__mt(m, tid);
	struct sched_thread_stats st;

	if (!t || sched_thread_stats(m->s, tid, &st))
		return -ENOENT;
	out->cpu_ns = sched_thread_exec(m->s, tid, sim_now(&m->eng)) - t->base_exec;
	out->wait_ns = sched_thread_wait(m->s, tid, sim_now(&m->eng)) - t->base_wait;
	out->switches = st.switches - t->base_sw;
	out->preempted = st.preempted - t->base_pre;
	out->migrations = st.migrations - t->base_mig;
	out->activations = t->activations;
	out->latency = t->lat;
	out->nlatency = t->nlat;
	out->latency_seen = t->seen;
	out->latency_max = t->lat_max;
	out->latency_min = t->lat_min;
	out->latency_sum = t->lat_sum;
	out->latency_delayed = t->delayed;
	out->overruns = t->overruns;
	out->waits = t->waits;
	out->wait_sum = t->wait_sum;
	out->wait_max = t->wait_max;
	out->wait_max_since = t->wait_max_since;
	out->wait_max_at = t->wait_max_at;
	if (t->pa) {
		out->acts_done = t->pa->acts_done;
		out->acts_overrun = t->pa->acts_overrun;
		out->acts_missed = t->pa->acts_missed;
		out->slack_min = t->pa->slack_min;
		out->slack_sum = t->pa->slack_sum;
		out->acts = t->pa->acts;
		out->nacts = t->pa->nacts;
	} else {
		out->acts_done = out->acts_overrun = out->acts_missed = 0;
		out->slack_min = out->slack_sum = 0;
		out->acts = NULL;
		out->nacts = 0;
	}
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
void machine__stat_provider(void *ctx, int cgroup, struct cg_cpu_stat *out)
{
	const struct sim_machine *m = ctx;
	uint64_t us = subtree_cpu(m, m->cg_total, cgroup) / 1000;

	int sid = machine__sid_of(m, cgroup);
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

int sim_machine_cgroup_cpu_all(struct sim_machine *m, uint64_t *out, int n)
{
	size_t keep = 0;

	/*
	 * Credit the time of the threads that ran since the last call to their cgroups: no other
	 * thread has any pending, its CPU time grows only while it runs and it runs only after a
	 * switch-in, which listed it. Keep those still on a CPU listed, for their time to come.
	 */
	for (size_t i = 0; i < m->nran; i++) {
		struct mthread *t = machine__mt(m, m->ran[i]);

		if (!t)
			continue;
		if (t->alive)
			machine__credit(m, t);
		t->ran = false;
	}
	m->nran = 0;
	for (int c = 0; c < m->ncpu; c++) {
		struct mthread *t = machine__mt(m, sched_cpu_curr(m->s, c));

		if (t && !t->ran) {
			t->ran = true;
			m->ran[keep++] = t->tid;	/* fits: it was listed when switched in */
		}
	}
	m->nran = keep;
	for (int cg = 0; cg < n; cg++)
		out[cg] = 0;
	/* each cgroup's own time to it and to every ancestor */
	for (int cg = 0; cg < m->ncg; cg++)
		for (int a = cg; a >= 0 && m->cg_cpu[cg]; a = cg_cgroup_parent(m->h, a))
			if (a < n)
				out[a] += m->cg_cpu[cg];
	return 0;
}

void sim_machine_metrics(const struct sim_machine *m, struct sim_machine_metrics *out)
{
	struct sched_stats st;

	sched_stats(m->s, &st);
	out->window_ns = sim_now(&m->eng) - m->window_start;
	out->overhead_ns = st.overhead_ns - m->base_st.overhead_ns;
	out->level_ops = st.level_ops - m->base_st.level_ops;
	out->level_walks = st.level_walks - m->base_st.level_walks;
	out->switches = st.switches - m->base_st.switches;
	out->migrations = st.migrations - m->base_st.migrations;
	out->ticks = st.ticks - m->base_st.ticks;
	out->ticks_processed = st.ticks_processed - m->base_st.ticks_processed;
	out->events = sim_engine_processed(&m->eng) - m->base_events;
}
