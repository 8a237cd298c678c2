// SPDX-License-Identifier: MIT
/*
 * scheduler/account.c - kernel/sched/fair.c's update_curr() and core.c's clocks: time. Charging the
 * running thread's CPU time to every level of its hierarchy (update_curr) by the clock, the
 * scheduler's own time included as the kernel does, while its own work advances only outside the
 * scheduler; the ticks accounted without being processed (in closed form), the overhead model, and
 * the read-only views of progress and cost the driver and reports use.
 */
#include <errno.h>

#include "scheduler/sched_internal.h"

/* A tick walks every level of curr (entity_tick() at each) and changes none. */
uint64_t sched__tick_cost(const struct sched *s, const struct sched_cpu *rq)
{
	return s->cfg.cost.tick_ns + s->cfg.cost.walk_ns * levels_of(rq->curr);
}

/*
 * Overhead: the CPU spends the event's cost, @base_ns plus what @w walked and changed, in the
 * scheduler from max(now, whatever it owed before).
 */
void sched__rq_charge_overhead(struct sched *s, struct sched_cpu *rq, uint64_t now,
			       uint64_t base_ns, struct sched_walk w)
{
	uint64_t cost = base_ns + s->cfg.cost.level_ns * w.ops + s->cfg.cost.walk_ns * w.walks;

	rq->exec_start = umax(rq->exec_start, now) + cost;
	rq->overhead += cost;
	s->st.overhead_ns += cost;
	s->st.level_ops += w.ops;
	s->st.level_walks += w.walks;
}

/*
 * Tick accounting. A tick at grid time T on a busy CPU costs c = tick_cost: the CPU is in the
 * scheduler during [max(T, e), max(T, e) + c), where e is when curr's progress would resume.
 * Ticks up to @upto that were not processed are accounted here in closed form; the result is
 * the same as processing each (docs/scheduler.md, "Tick elision"). Returns curr's progress in
 * the intervals before those ticks and sets *e, *last, *n to the new resume time, last tick
 * accounted and number of ticks.
 */
static uint64_t ticks_between(const struct sched *s, const struct sched_cpu *rq, uint64_t upto,
			      uint64_t *e_out, uint64_t *last_out, uint64_t *n_out)
{
	uint64_t P = s->tick_ns, c = sched__tick_cost(s, rq), e = rq->exec_start;
	uint64_t T = rq->last_tick + P, prog = 0, n = 0, k;

	*last_out = rq->last_tick;
	if (T > upto) {
		*e_out = e;
		*n_out = 0;
		return 0;
	}
	/* (upto - T) / P + 1, most often a tick or two: compare before dividing */
	k = upto - T < P ? 1 : upto - T < 2 * P ? 2 : (upto - T) / P + 1;
	*last_out = T + (k - 1) * P;
	*n_out = k;
	/* Ticks that fall while the CPU is still in the scheduler only push e further. */
	while (n < k && e >= T) {
		e += c;
		T += P;
		n++;
	}
	if (n < k) {
		uint64_t rest = k - n;

		prog += T - e;
		if (c < P) {
			prog += (rest - 1) * (P - c);
			e = T + (rest - 1) * P + c;
		} else {
			e = T + rest * c;
		}
	}
	*e_out = e;
	return prog;
}

/*
 * update_curr() under the flat pick (7.3): every level's h_curr is charged the time (sum_exec,
 * the bandwidth runtime), but only the task's vruntime advances, at the rate of its h_load,
 * and the root queue's count decides the reschedule.
 */
static void charge_flat(struct sched *s, struct sched_cpu *rq, uint64_t delta, uint64_t now)
{
	struct sched_entity *se = &rq->curr->se;
	struct cfs_rq *root = rq->cfs;

	for (struct sched_entity *e = se; e; e = e->parent) {
		e->sum_exec += delta;
		if (account_cfs_rq_runtime(s, e->cfs_rq, delta, now))
			rq->resched = true;
	}
	se->vruntime += calc_delta_fair(delta, se);
	update_min_vruntime(s, root);
	if (root->curr == se && s->ops->charged(s, root, se))
		rq->resched = true;
}

/*
 * Charge curr @delta ns of CPU time at every level (update_curr at each level) and credit its
 * own work with @prog ns. The kernel charges the running task by the clock, the scheduler's own
 * time included (rq_clock_task() counts it, only IRQ time and steal being taken out, and this
 * model's ticks are not IRQ time: CONFIG_IRQ_TIME_ACCOUNTING off), so @delta is wall time
 * since rq->charge_from while @prog leaves out the time the CPU spent in the scheduler.
 */
static void charge_curr(struct sched *s, struct sched_cpu *rq, uint64_t delta, uint64_t prog,
			uint64_t now)
{
	struct sched_entity *se;

	rq->curr->work += prog;
	if (!delta)
		return;
	if (s->ops->flat) {
		charge_flat(s, rq, delta, now);
		return;
	}
	for (se = &rq->curr->se; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;

		se->sum_exec += delta;
		se->vruntime += calc_delta_fair(delta, se);
		update_min_vruntime(s, q);
		if (s->ops->charged(s, q, se))
			rq->resched = true;
		if (account_cfs_rq_runtime(s, q, delta, now))
			rq->resched = true;
	}
}

/* Charge curr by the clock up to @to (nothing when it is charged that far already). */
static void charge_to(struct sched *s, struct sched_cpu *rq, uint64_t to, uint64_t prog,
		      uint64_t now)
{
	uint64_t delta = to > rq->charge_from ? to - rq->charge_from : 0;
	struct sched_thread *t = rq->curr;

	if (delta) {
		if (t->charged_to != rq->charge_from)
			t->charged_since = rq->charge_from;
		t->charged_to = to;
	}
	rq->charge_from = umax(rq->charge_from, to);
	charge_curr(s, rq, delta, prog, now);
}

/*
 * Where the next task's charge starts. The kernel charges a task from the rq clock that
 * __schedule() used to switch to it: read on entry, after a sleeping task's dequeue is
 * decided, so a sleep and the switch are the next task's; but a wakeup that asks for a
 * reschedule skips that read (wakeup_preempt()'s rq_clock_skip_update()), so the switch uses
 * the wakeup's clock and the wakee's enqueue is the next task's too, whether it is the wakee
 * or the task that was running and is picked again. A task that goes on running after a
 * wakeup that did not reschedule is charged for it by the clock. All of which is: the task on
 * the CPU after a switch at @now is charged from @now, or from where the charge of the CPU's
 * time stands if that is later (an idle CPU's wakeup, below).
 */
void sched__rq_charge_next(struct sched_cpu *rq, uint64_t now)
{
	rq->charge_from = umax(now, rq->charge_from);
}

/*
 * A tick (and its balance) that asks for a reschedule: the switch reads the clock again after
 * the tick's own work, which the task that was running pays, as it pays by the clock for a
 * tick that changes nothing. Charged only then, so that elided and processed ticks charge
 * alike: a tick that reschedules is never elided.
 */
void sched__rq_charge_tick(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	charge_to(s, rq, rq->exec_start, 0, now);
}

/*
 * A wakeup's overhead. On an idle CPU it runs after the CPU left its idle state (the idle
 * exit, which no task is charged for): the task it brings is charged from there, its enqueue
 * included.
 */
void sched__rq_charge_wakeup(struct sched *s, struct sched_cpu *rq, uint64_t now,
			     struct sched_walk w)
{
	if (!rq->curr)
		rq->charge_from = umax(now, rq->exec_start);
	sched__rq_charge_overhead(s, rq, now, s->cfg.cost.wakeup_ns, w);
}

/*
 * EEVDF refreshes the deadline of an entity alone on its queue at every tick that finds its
 * request used up (update_deadline() without a resched). Such ticks change nothing else, so
 * they are elided and their refreshes replayed here. The i-th tick after rq->last_tick comes
 * at T_i = last_tick + i P, and its update_curr() charges curr up to T_i: the first tick that
 * reaches the deadline is the first with T_i - charge_from >= need, and it sets
 * deadline = v(T_i) + vslice, as the tick would have.
 */
static void lone_deadlines(struct sched *s, struct sched_cpu *rq, uint64_t n)
{
	uint64_t P = s->tick_ns, c0 = rq->charge_from, last = rq->last_tick;

	if (!s->ops->deadlines)
		return;
	for (struct sched_entity *se = &rq->curr->se; se; se = se->parent) {
		uint64_t from = 1;

		/* under the flat pick only the task has a deadline, alone on the root's tree */
		if (s->ops->flat) {
			if (!se->task || rq->cfs->curr != se || sched__flat_nr(rq->cfs) != 1)
				break;
		} else if (se->cfs_rq->nr_queued != 1) {
			continue;
		}
		while (from <= n) {
			sv_t v0 = se->vruntime;
			uint64_t need = sched__sv_to_ns_ceil(se->deadline - v0, se), i;

			/* the first tick index i >= from with last + i P >= c0 + need */
			if (need > UINT64_MAX - c0)
				break;
			i = c0 + need > last ? (c0 + need - last + P - 1) / P : 0;
			if (i < from)
				i = from;
			if (i > n)
				break;
			if (!se->custom_slice)
				se->slice = s->base_slice;
			se->deadline = v0 + calc_delta_fair(last + i * P - c0, se) +
				       calc_delta_fair(se->slice, se);
			from = i + 1;
		}
	}
}

/* Account elided ticks up to @upto (inclusive) and curr's progress up to @now. */
void sched__rq_account_to(struct sched *s, struct sched_cpu *rq, uint64_t upto, uint64_t now)
{
	uint64_t e, last, n, prog;

	if (!rq->curr) {
		rq->last_tick = umax(rq->last_tick, grid_floor(s, now));
		return;
	}
	prog = ticks_between(s, rq, upto, &e, &last, &n);
	if (n) {
		uint64_t c = sched__tick_cost(s, rq);

		lone_deadlines(s, rq, n);
		rq->overhead += n * c;
		s->st.overhead_ns += n * c;
		s->st.level_walks += n * levels_of(rq->curr);
		s->st.ticks += n;
		rq->last_tick = last;
	}
	if (now > e) {
		prog += now - e;
		e = now;
	}
	rq->exec_start = e;
	charge_to(s, rq, now, prog, now);
}

/*
 * While advance() processes the ticks due at time T, CPUs after the current one may not have
 * had theirs yet: touching one of them accounts its elided ticks before T only, so that its
 * tick at T is processed (if what was just done to it made it significant) or elided later,
 * exactly as when every tick is processed in CPU order.
 */
void update_curr(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	sched__rq_account_to(s, rq, s->in_tick && now ? now - 1 : now, now);
}

/* Progress curr would have at @now beyond what is charged (pure: changes nothing). */
static uint64_t rq_peek_progress(const struct sched *s, const struct sched_cpu *rq, uint64_t now)
{
	uint64_t e, last, n, prog;

	if (!rq->curr)
		return 0;
	prog = ticks_between(s, rq, now, &e, &last, &n);
	if (now > e)
		prog += now - e;
	return prog;
}

/*
 * The time at which curr's progress since its last charge reaches @target, with every tick to
 * come costing its tick cost (the same arithmetic as ticks_between(), run forward).
 */
static uint64_t progress_time(const struct sched *s, const struct sched_cpu *rq, uint64_t target)
{
	uint64_t P = s->tick_ns, c = sched__tick_cost(s, rq), e = rq->exec_start;
	uint64_t T = rq->last_tick + P;

	for (;;) {
		if (e >= T) {
			if (c >= P)
				return UINT64_MAX;	/* the CPU does nothing but tick */
			e += c;
			T += P;
			continue;
		}
		if (target <= T - e)
			return e + target;
		target -= T - e;
		if (c >= P)
			return UINT64_MAX;
		/* whole periods of P - c progress each */
		{
			uint64_t per = P - c, k = target / per;

			if (k > 1) {
				k--;
				if (k > (UINT64_MAX - T) / P - 1)
					return UINT64_MAX;
				target -= k * per;
				T += k * P;
			}
		}
		e = T + c;
		T += P;
	}
}

uint64_t sched_cpu_finish_time(struct sched *s, int cpu, uint64_t now, uint64_t work_ns)
{
	const struct sched_cpu *rq;
	uint64_t done;

	if (cpu < 0 || cpu >= s->ncpu || !s->cpu[cpu].curr)
		return UINT64_MAX;
	rq = &s->cpu[cpu];
	done = rq_peek_progress(s, rq, now);
	if (work_ns > UINT64_MAX - done)
		return UINT64_MAX;
	return progress_time(s, rq, done + work_ns);
}

/*
 * A thread's CPU time as a function of the clock alone: a charge that ran ahead of @now (to the
 * end of a tick's or a switch's work) counts only up to @now, and curr's time since its charge
 * is added. So the CPU times read at two instants never add up to more than the CPUs had
 * between them, wherever the instants fall.
 */
uint64_t sched_thread_exec(const struct sched *s, int tid, uint64_t now)
{
	const struct sched_thread *t = sched__thr_get(s, tid);
	uint64_t e;

	if (!t)
		return 0;
	e = t->se.sum_exec;
	if (t->charged_to > now)
		e -= t->charged_to - umax(now, t->charged_since);
	if (t->cpu && t->cpu->curr == t && now > t->cpu->charge_from)
		e += now - t->cpu->charge_from;
	return e;
}

/*
 * update_rq_clock_task() takes steal out of the task clock: the charge and the thread's
 * progress both resume @ns later, after whatever the CPU still owed (the scheduler's own work,
 * charged already, comes first). PELT's clock leaves steal out in the kernel as well
 * (rq_clock_pelt() follows clock_task); here it runs on, and the capacity steal takes from a
 * CPU (NONTASK_CAPACITY) is not modelled: on CPUs that lose alike it moves no balance.
 */
int sched_steal(struct sched *s, int cpu, uint64_t now, uint64_t ns)
{
	struct sched_cpu *rq;
	int err;

	if (cpu < 0 || cpu >= s->ncpu)
		return -EINVAL;
	if ((err = sched__enter(s, now)))
		return err;
	rq = &s->cpu[cpu];
	if (rq->curr && ns) {
		uint64_t from;

		update_curr(s, rq, now);
		from = umax(umax(rq->exec_start, rq->charge_from), now);
		ns = from < UINT64_MAX / 4 ? umin(ns, UINT64_MAX / 4 - from) : 0;
		rq->exec_start = umax(rq->exec_start, now) + ns;
		rq->charge_from = umax(rq->charge_from, now) + ns;
		s->st.steal_ns += ns;
		sched__rq_dirty(s, rq, now);
	}
	sched__finish(s);
	return 0;
}

uint64_t sched_thread_work(const struct sched *s, int tid, uint64_t now)
{
	const struct sched_thread *t = sched__thr_get(s, tid);

	if (!t)
		return 0;
	if (t->cpu && t->cpu->curr == t)
		return t->work + rq_peek_progress(s, t->cpu, now);
	return t->work;
}

/*
 * Ticks up to the last time the scheduler was called that were elided and not yet accounted
 * are counted here, so that what a caller observes does not depend on tick elision.
 */
static void pending_ticks(const struct sched *s, const struct sched_cpu *rq, uint64_t *n,
			  uint64_t *cost, uint64_t *walks)
{
	uint64_t e, last;

	*n = *cost = *walks = 0;
	if (!rq->curr)
		return;
	(void)ticks_between(s, rq, s->now, &e, &last, n);
	*cost = *n * sched__tick_cost(s, rq);
	*walks = *n * levels_of(rq->curr);
}

void sched_stats(const struct sched *s, struct sched_stats *out)
{
	*out = s->st;
	for (int c = 0; c < s->ncpu; c++) {
		uint64_t n, cost, walks;

		pending_ticks(s, &s->cpu[c], &n, &cost, &walks);
		out->ticks += n;
		out->overhead_ns += cost;
		out->level_walks += walks;
	}
}

uint64_t sched_cpu_overhead(const struct sched *s, int cpu)
{
	uint64_t n, cost, walks;

	if (cpu < 0 || cpu >= s->ncpu)
		return 0;
	pending_ticks(s, &s->cpu[cpu], &n, &cost, &walks);
	return s->cpu[cpu].overhead + cost;
}
