// SPDX-License-Identifier: MIT
/*
 * scheduler/balance.c - SMP: the CPU a waking or new thread goes to (select_task_rq_fair for
 * one LLC), and load balancing (periodic, new-idle, NOHZ kick) over one domain spanning every
 * CPU. docs/scheduler.md, "SMP".
 */
#include "scheduler/sched_internal.h"

#define BUSY_FACTOR	16u	/* sd->busy_factor since 5.10 */
#define IMBALANCE_PCT	117u	/* sd->imbalance_pct since 5.10 */
#define CACHE_NICE_TRIES 1u	/* sd->cache_nice_tries at the MC level */
#define CAPACITY	1024u	/* SCHED_CAPACITY_SCALE: no RT, IRQ or thermal pressure */
#define NR_MIGRATE_BREAK 32u	/* SCHED_NR_MIGRATE_BREAK */
#define LOAD_AVG_PERIOD_NS (32 * NSEC_PER_MSEC)	/* nohz.next_blocked's step */
#define MAX_PINNED_INTERVAL_NS (512 * NSEC_PER_MSEC)	/* MAX_PINNED_INTERVAL */

static bool cpu_idle_for(const struct sched *s, const struct sched_cpu *rq)
{
	(void)s;
	/* available_idle_cpu() || sched_idle_cpu() */
	return !rq->curr || rq->nr_running == rq->cfs->h_nr_idle;
}

/*
 * The first CPU after @target, in the order target + 1, ..., ncpu - 1, 0, ..., target - 1,
 * that runs nothing and that @t may use; -1 when there is none. A word of the mask at a time.
 */
static int first_idle_after(const struct sched *s, const struct sched_thread *t, int target)
{
	size_t nw = s->mask_words, start = (size_t)(target + 1) / 64;

	for (size_t k = 0; k <= nw; k++) {
		size_t w = (start + k) % nw;
		uint64_t bits = s->idle_mask[w] & t->affinity[w];

		if (k == 0)	/* the first word: only CPUs above target */
			bits &= (target + 1) % 64 ? ~0ull << ((target + 1) % 64) : ~0ull;
		if (k == nw)	/* back in the first word: only CPUs below target + 1 */
			bits &= (target + 1) % 64 ? ~(~0ull << ((target + 1) % 64)) : 0;
		if (bits) {
			int c = (int)(w * 64) + __builtin_ctzll(bits);

			if (c < s->ncpu && c != target)
				return c;
		}
	}
	return -1;
}

/*
 * wake_affine() (WF_TTWU without WF_SYNC: a futex wakeup, as a mutex's or a condition's, is not
 * synchronous) between the waker's CPU @this and the wakee's previous CPU @prev: the CPU
 * select_idle_sibling() starts from. One LLC domain, every CPU of capacity CAPACITY.
 */
static int wake_affine(struct sched *s, struct sched_thread *t, int this, int prev, uint64_t now)
{
	struct sched_cpu *tr = &s->cpu[this], *pr = &s->cpu[prev];

	if (sched__feat(s, SCHED_FEAT_WA_IDLE)) {
		/* wake_affine_idle() */
		if (cpu_idle_for(s, tr))
			return cpu_idle_for(s, pr) ? prev : this;
		if (cpu_idle_for(s, pr))
			return prev;
	}
	if (sched__feat(s, SCHED_FEAT_WA_WEIGHT)) {
		/* wake_affine_weight(): cpu_load() as last updated, the wakee's task_h_load() */
		uint64_t task = sched__task_h_load(t, now);
		uint64_t this_eff = tr->cfs->avg.avg + task;
		uint64_t prev_eff = pr->cfs->avg.avg > task ? pr->cfs->avg.avg - task : 0;

		if (sched__feat(s, SCHED_FEAT_WA_BIAS)) {
			this_eff *= 100;
			prev_eff *= 100 + (IMBALANCE_PCT - 100) / 2;
		}
		if (this_eff * CAPACITY < prev_eff * CAPACITY)
			return this;
	}
	return prev;
}

/*
 * select_task_rq_fair(), reduced to one LLC domain: a new task goes to the least loaded allowed
 * CPU (find_idlest_cpu); a waking task starts from its previous CPU, or, woken by a thread on
 * another CPU it may use (@waker >= 0), from what wake_affine() chooses; then
 * select_idle_sibling(): that CPU if idle, else its previous CPU if idle, else the first idle
 * allowed CPU after it, else that CPU.
 */
struct sched_cpu *sched__select_cpu(struct sched *s, struct sched_thread *t, int waker,
				    uint64_t now)
{
	int n = s->ncpu, prev = t->cpu ? t->cpu->id : -1, target;

	if (prev < 0 || t->new_task) {
		struct sched_cpu *best = NULL;

		for (int c = 0; c < n; c++) {
			struct sched_cpu *rq = &s->cpu[c];

			if (!cpu_allowed(t, c))
				continue;
			if (!best || rq->nr_running < best->nr_running ||
			    (rq->nr_running == best->nr_running && rq->cfs->load < best->cfs->load))
				best = rq;
		}
		return best;
	}
	target = prev;
	if (waker >= 0 && waker < n && waker != prev && cpu_allowed(t, waker))
		target = wake_affine(s, t, waker, prev, now);
	if (cpu_allowed(t, target) && cpu_idle_for(s, &s->cpu[target]))
		return &s->cpu[target];
	if (prev != target && cpu_allowed(t, prev) && cpu_idle_for(s, &s->cpu[prev]))
		return &s->cpu[prev];
	if (!s->any_idle) {
		/* idle is "nothing running": the first allowed idle CPU after target, from the mask */
		int c = s->nr_idle ? first_idle_after(s, t, target) : -1;

		if (c >= 0)
			return &s->cpu[c];
	} else {
		for (int i = 1; i < n; i++) {
			int c = (target + i) % n;

			if (cpu_allowed(t, c) && cpu_idle_for(s, &s->cpu[c]))
				return &s->cpu[c];
		}
	}
	if (cpu_allowed(t, target))
		return &s->cpu[target];
	for (int c = 0; c < n; c++)
		if (cpu_allowed(t, c))
			return &s->cpu[c];
	return &s->cpu[0];
}

/* Move a queued, not running, not delayed task; the caller has asked can_migrate(). */
static void move_queued(struct sched *s, struct sched_thread *t, struct sched_cpu *dst,
			uint64_t now)
{
	struct sched_cpu *src = t->cpu;

	sched__dequeue_task(s, t, false, true, now);
	sched__task_set_cpu(s, t, dst, now);	/* DO_DETACH, then DO_ATTACH at the enqueue */
	sched__enqueue_task(s, t, false, false, now);
	t->st.migrations++;
	s->st.migrations++;
	sched__trace_task(s, SCHED_TRACE_MIGRATE, dst->id, t, src->id, dst->id, now);
	sched__rq_dirty(s, src, now);
	sched__rq_dirty(s, dst, now);
	sched__check_preempt(s, dst, t, false);
}

/* ---- statistics of the sched groups (one CPU each: an LLC domain without SMT) ---- */

enum group_type { GROUP_HAS_SPARE, GROUP_FULLY_BUSY, GROUP_OVERLOADED };
enum migration_type { MIGRATE_LOAD, MIGRATE_TASK };

struct sg_stats {
	uint64_t load;		/* cpu_load(): the root queue's load_avg */
	uint64_t util, runnable;
	unsigned nr;		/* sum_nr_running */
	unsigned h_nr;		/* cfs.h_nr_runnable */
	bool idle;		/* idle_cpus */
	enum group_type type;
};

/* group_is_overloaded(), group_has_capacity() and group_classify() for one CPU. */
static enum group_type classify(const struct sg_stats *g)
{
	if (g->nr > 1 && ((uint64_t)CAPACITY * 100 < g->util * IMBALANCE_PCT ||
			  (uint64_t)CAPACITY * IMBALANCE_PCT < g->runnable * 100))
		return GROUP_OVERLOADED;
	if (g->nr < 1)
		return GROUP_HAS_SPARE;
	if ((uint64_t)CAPACITY * IMBALANCE_PCT < g->runnable * 100)
		return GROUP_FULLY_BUSY;
	if ((uint64_t)CAPACITY * 100 > g->util * IMBALANCE_PCT)
		return GROUP_HAS_SPARE;
	return GROUP_FULLY_BUSY;
}

static void group_stats(struct sched_cpu *rq, uint64_t now, struct sg_stats *g)
{
	pelt_update(&rq->cfs->avg, now);
	pelt_update_event(&rq->util, now);
	pelt_update_event(&rq->runnable, now);
	g->load = rq->cfs->avg.avg;
	g->util = umin(rq->util.avg, CAPACITY);
	g->runnable = rq->runnable.avg;
	g->nr = rq->nr_running;
	g->h_nr = rq->cfs->h_nr_runnable;
	g->idle = !rq->curr && !rq->nr_running;
	g->type = classify(g);
}

/* update_sd_pick_busiest() between two candidate groups. */
static bool busier(const struct sg_stats *g, const struct sg_stats *b)
{
	if (!g->h_nr)
		return false;
	if (g->type != b->type)
		return g->type > b->type;
	if (g->type == GROUP_HAS_SPARE)
		return g->idle < b->idle || (g->idle == b->idle && g->nr > b->nr);
	return g->load > b->load;
}

enum lb_idle { LB_NOT_IDLE, LB_IDLE, LB_NEWLY_IDLE };

struct lb_env {
	struct sched_cpu *dst, *src;
	enum lb_idle idle;
	enum migration_type type;
	int64_t imbalance;
	unsigned failed;	/* sd->nr_balance_failed */
	bool all_pinned;	/* LBF_ALL_PINNED */
};

/*
 * sched_balance_find_src_group() (find_busiest_group) and calculate_imbalance() for one domain
 * of single-CPU groups. Returns the busiest CPU, or NULL when the domain is balanced.
 */
static struct sched_cpu *find_busiest(struct sched *s, struct lb_env *env, uint64_t now)
{
	struct sg_stats local = { 0 }, busiest = { 0 }, g;
	struct sched_cpu *b = NULL;
	uint64_t total = 0, avg_load;

	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *rq = &s->cpu[c];

		group_stats(rq, now, &g);
		total += g.load;
		if (rq == env->dst) {
			local = g;
		} else if (!b ? g.h_nr > 0 : busier(&g, &busiest)) {
			busiest = g;
			b = rq;
		}
	}
	if (!b)
		return NULL;
	if (local.type > busiest.type)
		return NULL;
	avg_load = total / (uint64_t)s->ncpu;	/* total_load x SCALE / total_capacity */
	if (local.type == GROUP_OVERLOADED) {
		if (local.load >= busiest.load || local.load >= avg_load ||
		    100 * busiest.load <= IMBALANCE_PCT * local.load)
			return NULL;
	}
	if (busiest.type != GROUP_OVERLOADED) {
		/* a busy CPU leaves a non-overloaded group to an idle one; nothing waits */
		if (env->idle == LB_NOT_IDLE || busiest.h_nr == 1)
			return NULL;
	}
	/* calculate_imbalance() */
	if (local.type == GROUP_HAS_SPARE) {
		/* spread tasks evenly: sibling_imbalance() for groups of one CPU each */
		env->type = MIGRATE_TASK;
		env->imbalance = env->idle == LB_NOT_IDLE ? 0 :
			(busiest.nr > local.nr ? (int64_t)(busiest.nr - local.nr) / 2 : 0);
		if (!env->imbalance && env->idle != LB_NOT_IDLE && !local.nr && busiest.nr > 1)
			env->imbalance = 1;
	} else {
		if (local.type < GROUP_OVERLOADED &&
		    (local.load >= busiest.load || local.load >= avg_load))
			return NULL;
		env->type = MIGRATE_LOAD;
		env->imbalance = (int64_t)umin(busiest.load > avg_load ? busiest.load - avg_load : 0,
					       avg_load > local.load ? avg_load - local.load : 0);
	}
	if (env->imbalance <= 0)
		return NULL;
	/* sched_balance_find_src_rq(): a lone task heavier than the imbalance stays */
	if (env->type == MIGRATE_LOAD && busiest.h_nr == 1 && busiest.load > (uint64_t)env->imbalance)
		return NULL;
	return b;
}

/*
 * task_hot(): a task that ran within migration_cost is cache hot, and so is the next buddy
 * (CACHE_HOT_BUDDY) when the destination has work; SCHED_IDLE tasks never are.
 */
static bool task_hot(struct sched *s, const struct sched_thread *t, const struct lb_env *env,
		     uint64_t now)
{
	if (t->policy == SCHED_THREAD_IDLE)
		return false;
	/* EEVDF kernels count only the next buddy; CFS ones the last buddy too */
	if (sched__feat(s, SCHED_FEAT_CACHE_HOT_BUDDY) && env->dst->nr_running &&
	    (t->se.cfs_rq->next == &t->se ||
	     (s->ops->cfs_buddies && t->se.cfs_rq->last == &t->se)))
		return true;
	return t->last_ran && now - t->last_ran < s->cfg.tun.migration_cost_ns;
}

/* can_migrate_task() */
static bool can_migrate(struct sched *s, struct sched_thread *t, struct lb_env *env, uint64_t now)
{
	if (t->se.sched_delayed)
		return false;	/* cgsim does not move a delayed task (docs/scheduler.md) */
	if (sched__throttled_hierarchy(t->se.cfs_rq))
		return false;	/* throttled_lb_pair(): not on the CPU's books */
	if (!cpu_allowed(t, env->dst->id))
		return false;	/* LBF_SOME_PINNED */
	env->all_pinned = false;
	if (t->cpu->curr == t)
		return false;
	return !task_hot(s, t, env, now) || env->failed > CACHE_NICE_TRIES;
}

/* Move @t to the head of @rq's task list: detach_tasks() rotates the tasks it skips. */
static void list_rotate(struct sched_cpu *rq, struct sched_thread *t)
{
	if (rq->lhead == t)
		return;
	t->lprev->lnext = t->lnext;
	if (t->lnext)
		t->lnext->lprev = t->lprev;
	else
		rq->ltail = t->lprev;
	t->lprev = NULL;
	t->lnext = rq->lhead;
	rq->lhead->lprev = t;
	rq->lhead = t;
}

/* detach_tasks() + attach_tasks(): returns the number of tasks moved. */
static unsigned detach_tasks(struct sched *s, struct lb_env *env, uint64_t now)
{
	struct sched_cpu *src = env->src;
	unsigned moved = 0, loop = 0;
	unsigned loop_max = (unsigned)umin(s->cfg.tun.nr_migrate, src->nr_running);

	while (src->ltail && env->imbalance > 0) {
		struct sched_thread *t = src->ltail;
		bool take = false;

		/* don't steal all: the source would be treated likewise */
		if (env->idle != LB_NOT_IDLE && src->nr_running <= 1)
			break;
		loop++;
		if ((loop > loop_max && !env->all_pinned) || loop > NR_MIGRATE_BREAK)
			break;
		if (can_migrate(s, t, env, now)) {
			if (env->type == MIGRATE_LOAD) {
				uint64_t load = umax(sched__task_h_load(t, now), 1);

				take = !(sched__feat(s, SCHED_FEAT_LB_MIN) && load < 16 && !env->failed) &&
				       (load >> umin(env->failed, 63)) <= (uint64_t)env->imbalance;
				if (take)
					env->imbalance -= (int64_t)load;
			} else {
				take = true;
				env->imbalance--;
			}
		}
		if (!take) {
			list_rotate(src, t);
			continue;
		}
		move_queued(s, t, env->dst, now);
		moved++;
		/* NEWIDLE balancing stops after the first task (a preemptible kernel) */
		if (env->idle == LB_NEWLY_IDLE)
			break;
	}
	return moved;
}

/*
 * sched_balance_rq() (load_balance) for the one domain spanning every CPU, with @dst pulling.
 * Keeps the domain's bookkeeping as the kernel does: a pass that finds the domain balanced
 * resets nr_balance_failed and (periodic passes) doubles the interval up to max_interval (up
 * to MAX_PINNED_INTERVAL when every task was pinned away); a pass that finds an imbalance
 * resets the interval to min_interval and counts a failure when it could move nothing.
 * Returns whether it moved any task.
 */
static bool balance_rq(struct sched *s, struct sched_cpu *dst, uint64_t now, enum lb_idle idle)
{
	struct lb_env env = { .dst = dst, .idle = idle, .failed = dst->nr_balance_failed,
			      .all_pinned = true };
	uint64_t min_iv = (uint64_t)s->ncpu * NSEC_PER_MSEC, max_iv = 2 * min_iv;
	unsigned moved = 0;

	s->st.balance_runs++;
	env.src = find_busiest(s, &env, now);
	if (!env.src) {
		dst->nr_balance_failed = 0;	/* out_balanced */
		if (idle != LB_NEWLY_IDLE && dst->balance_interval < max_iv)
			dst->balance_interval *= 2;
		return false;
	}
	sched__rq_account(s, env.src, now);
	sched__rq_account(s, dst, now);
	if (env.src->nr_running > 1) {
		moved = detach_tasks(s, &env, now);
		if (!moved && env.all_pinned) {
			/*
			 * out_all_pinned: every task there is pinned away from here. Balanced as far
			 * as this CPU can tell: no failure, and the interval may grow up to
			 * MAX_PINNED_INTERVAL. (With more CPUs the kernel retries without the
			 * busiest one; cgsim waits for the next pass.)
			 */
			dst->nr_balance_failed = 0;
			if (idle != LB_NEWLY_IDLE && dst->balance_interval < MAX_PINNED_INTERVAL_NS)
				dst->balance_interval *= 2;
			return false;
		}
	}
	if (!moved) {
		if (idle != LB_NEWLY_IDLE)
			dst->nr_balance_failed++;
	} else {
		dst->nr_balance_failed = 0;
	}
	dst->balance_interval = min_iv;
	return moved > 0;
}

/*
 * get_sd_balance_interval(): balance_interval (x busy_factor when busy) in jiffies, one jiffy
 * less when busy so that balancing periods are not multiples of each other, within
 * [1, max_load_balance_interval = HZ x CPUs / 10] jiffies.
 */
uint64_t sched__balance_period(const struct sched *s, const struct sched_cpu *rq)
{
	uint64_t hz = s->cfg.tun.hz, busy = rq->curr && rq->nr_running > rq->cfs->h_nr_idle;
	uint64_t ms = rq->balance_interval / NSEC_PER_MSEC * (busy ? BUSY_FACTOR : 1);
	uint64_t j = (ms * hz + 999) / 1000;	/* msecs_to_jiffies() rounds up */
	uint64_t max_j = umax(hz * (uint64_t)s->ncpu / 10, 1);

	if (busy && j > 0)
		j--;
	return umin(umax(j, 1), max_j) * s->tick_ns;
}

/* A draw of -1, 0 or +1 tick (1/4, 1/2, 1/4) from the seeded jitter stream (splitmix64). */
static int64_t jitter_ticks(struct sched *s)
{
	uint64_t z = sched__mix64(s->jitter += 0x9e3779b97f4a7c15ull);

	switch (z >> 62) {
	case 0:
		return -1;
	case 3:
		return 1;
	default:
		return 0;
	}
}

/* The next balance of @rq after one at @T. */
static void next_balance(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	uint64_t next = T + sched__balance_period(s, rq);

	if (s->cfg.jitter) {
		int64_t j = jitter_ticks(s);

		if (j < 0 && next - s->tick_ns > T)
			next -= s->tick_ns;
		else if (j > 0)
			next += s->tick_ns;
	}
	rq->next_balance = next;
}

/*
 * sched__balance_tick() - what a processed tick at @T does for balancing on busy CPU @rq: its own
 * periodic balance when due (sched_balance_trigger, then the softirq: blocked averages first),
 * and the NOHZ kick (nohz_balancer_kick): every 32 ms the blocked load of idle CPUs is
 * decayed, and when this CPU has tasks waiting each idle CPU whose balance is due balances.
 * A reschedule it asks of @rq is the caller's to make, after the tick is charged.
 */
void sched__balance_tick(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	bool due = T >= rq->next_balance;
	bool kick = s->nr_idle && rq->nr_running >= 2 && T >= s->nohz_next;
	/*
	 * The stats kick goes with this CPU's own balance or a balance kick: those ticks are
	 * processed whether ticks are elided or not, which keeps elision exact; a busy CPU
	 * balances every 28-60 ms at HZ 250, about the kernel's 32 ms stats period.
	 */
	bool stats = kick || (due && s->nr_idle && s->nohz_has_blocked && T > s->nohz_blocked_next);

	if (stats) {
		uint64_t nn = UINT64_MAX;
		bool blocked = false;

		for (int c = 0; c < s->ncpu; c++) {
			struct sched_cpu *i = &s->cpu[c];

			if (i->curr || i->nr_running)
				continue;
			sched__update_blocked_averages(s, i, T);
			blocked |= i->nleaf > 0;
			if (kick && T >= i->next_balance) {
				balance_rq(s, i, T, LB_IDLE);
				next_balance(s, i, T);
				sched__resched_if_needed(s, i, T);
			}
			if (!i->curr && !i->nr_running)
				nn = umin(nn, i->next_balance);
		}
		s->nohz_has_blocked = blocked;
		s->nohz_blocked_next = T + LOAD_AVG_PERIOD_NS;
		/*
		 * The next kick: when the first idle CPU's balance is due, at least one CPU's
		 * minimum interval away (nohz.next_balance). Only ever later, so the busy CPUs'
		 * plans, which hold it as a horizon, stay safe without a replan.
		 */
		if (kick)
			s->nohz_next = T + umax(nn == UINT64_MAX || nn < T ? 0 : nn - T,
						(uint64_t)s->ncpu * NSEC_PER_MSEC);
	}
	if (due) {
		sched__update_blocked_averages(s, rq, T);
		balance_rq(s, rq, T, rq->curr ? LB_NOT_IDLE : LB_IDLE);
		next_balance(s, rq, T);
	}
}

/*
 * sched__balance_newidle() - @rq is about to go idle: if some CPU has tasks waiting (the root
 * domain is overloaded), decay the blocked averages and pull. The idle CPU's own next balance
 * comes within its idle interval, which NOHZ kicks honour.
 */
bool sched__balance_newidle(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	bool overloaded = false, pulled;

	if (s->ncpu < 2)
		return false;
	for (int c = 0; c < s->ncpu && !overloaded; c++)
		overloaded = s->cpu[c].nr_running >= 2;
	if (overloaded) {
		/* PELT moves only at period ends: once per period is all that can change */
		if (now - rq->last_blocked >= 1024000 || !rq->last_blocked)
			sched__update_blocked_averages(s, rq, now);
		pulled = balance_rq(s, rq, now, LB_NEWLY_IDLE);
	} else {
		pulled = false;
	}
	if (!pulled) {
		uint64_t idle_next = now + sched__balance_period(s, rq);

		if (idle_next < rq->next_balance)
			rq->next_balance = idle_next;
		s->nohz_has_blocked = true;
	}
	return pulled;
}
