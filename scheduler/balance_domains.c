// SPDX-License-Identifier: MIT
/*
 * scheduler/balance_domains.c - kernel/sched/fair.c: load balancing, when it runs: the tick's
 * sched_balance_trigger() and the softirq's sched_balance_domains() with their intervals
 * (get_sd_balance_interval()), NOHZ idle balancing on behalf of idle CPUs (the kick), and
 * sched_balance_newidle() for a CPU about to go idle; each calls sched_balance_rq() (balance.c)
 * level by level. docs/scheduler.md, "SMP".
 */
#include "scheduler/sched_internal.h"
#include "scheduler/topology.h"

#define F(x)		(1u << TOPO_SD_##x)
#define BUSY_FACTOR	16u	/* sd->busy_factor since 5.10 */
#define LOAD_AVG_PERIOD_NS (32 * NSEC_PER_MSEC)	/* nohz.next_blocked's step */

/* Whether @rq runs something other than SCHED_IDLE work: its domains balance at busy pace. */
static bool cpu_busy(const struct sched_cpu *rq)
{
	return rq->curr && rq->nr_running > rq->cfs->h_nr_idle;
}

/*
 * get_sd_balance_interval(): balance_interval (x busy_factor when busy) in jiffies, one jiffy
 * less when busy so that balancing periods are not multiples of each other, within
 * [1, max_load_balance_interval = HZ x CPUs / 10] jiffies.
 */
static uint64_t balance_period(const struct sched *s, const struct sched_sd *sd, bool busy)
{
	uint64_t hz = s->cfg.tun.hz;
	uint64_t ms = sd->balance_interval / NSEC_PER_MSEC * (busy ? BUSY_FACTOR : 1);
	uint64_t j = (ms * hz + 999) / 1000;	/* msecs_to_jiffies() rounds up */
	uint64_t max_j = umax(hz * (uint64_t)s->ncpu / 10, 1);

	if (busy && j > 0)
		j--;
	return umin(umax(j, 1), max_j) * s->tick_ns;
}

uint64_t get_sd_balance_interval(const struct sched *s, const struct sched_cpu *rq, int l)
{
	return balance_period(s, &rq->sd[l], cpu_busy(rq));
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

/*
 * When @sd's next balance is due, for a CPU busy or not: its last balance plus the interval
 * for that state, moved by its jitter (an early tick only where the interval leaves room).
 */
static uint64_t sd_due(const struct sched *s, const struct sched_sd *sd, bool busy)
{
	uint64_t p = balance_period(s, sd, busy);

	if (sd->jitter < 0 && p > s->tick_ns)
		p -= s->tick_ns;
	else if (sd->jitter > 0)
		p += s->tick_ns;
	return sd->last + p;
}

/* @sd balanced at @T: its next balance counts from there, with a new jitter draw. */
static void balanced_at(struct sched *s, struct sched_sd *sd, uint64_t T)
{
	sd->last = T;
	sd->jitter = s->cfg.jitter ? (int)jitter_ticks(s) : 0;
}

/*
 * sched_balance_domains() (rebalance_domains): each of @rq's levels whose balance is due,
 * lowest first, until should_we_balance() leaves the rest to another CPU.
 */
static void sched_balance_domains(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	uint64_t next = UINT64_MAX;
	bool busy = cpu_busy(rq), cont = true;

	/* the levels above one another CPU balances for this one are not this CPU's to plan */
	for (int l = 0; l < rq->nsd && cont; l++) {
		struct sched_sd *sd = &rq->sd[l];

		if (T >= sd_due(s, sd, busy)) {
			/* a pull may end the idleness: the interval ahead is the CPU's new one */
			if (sched_balance_rq(s, rq, l, idle_cpu(rq) ? LB_IDLE : LB_NOT_IDLE, &cont,
					     T))
				busy = cpu_busy(rq);
			balanced_at(s, sd, T);
		}
		next = umin(next, sd_due(s, sd, busy));
	}
	rq->next_balance = next;
}

/*
 * nohz_balancer_kick()'s reasons, idle CPUs aside: this CPU has tasks waiting, or (the LLC
 * rule) another CPU of its LLC is busy too, so that tasks could spread to an idle core or LLC.
 * On one LLC of single-thread cores the second reason could only refresh blocked load, which
 * the next busy balance does: it is left out there, which keeps tick elision.
 */
bool nohz_balancer_kick(const struct sched *s, const struct sched_cpu *rq)
{
	const struct sched_dom *llc;

	if (rq->nr_running >= 2)
		return true;
	if (!s->multi_llc_or_smt || rq->llc < 0 || !rq->curr)
		return false;
	llc = rq->sd[rq->llc].d;
	for (int i = 0; i < llc->weight; i++) {
		const struct sched_cpu *o = &s->cpu[llc->cpus[i]];

		if (o != rq && (o->curr || o->nr_running))
			return true;
	}
	return false;
}

/*
 * update_nohz_stats() for each idle CPU, and with @balance its own balance when due
 * (_nohz_idle_balance(), which the kernel runs CPU after CPU on the kicked CPU).
 */
static void nohz_idle_balance(struct sched *s, uint64_t T, bool balance)
{
	bool blocked = false;

	for (int c = 0; c < s->ncpu; c++) {
		struct sched_cpu *i = &s->cpu[c];

		if (i->curr || i->nr_running)
			continue;
		update_blocked_averages(s, i, T);
		blocked |= i->nleaf > 0;
		if (balance && T >= i->next_balance) {
			sched_balance_domains(s, i, T);
			sched__resched_if_needed(s, i, T);
		}
	}
	s->nohz_has_blocked = blocked;
	s->nohz_blocked_next = T + LOAD_AVG_PERIOD_NS;
}

/*
 * sched_balance_trigger() - what a processed tick at @T does for balancing on busy CPU @rq, up to
 * its reschedule: its own periodic balance when due (sched_balance_trigger, then the softirq,
 * which runs on the way out of the tick's interrupt, before the reschedule: blocked averages
 * first). Returns whether it kicks the idle CPUs into balancing (nohz_balancer_kick: this CPU
 * may kick and their earliest balance is due), which sched__balance_kicked() does after the
 * caller's reschedule. Without a kick, every 32 ms the idle CPUs' blocked load is decayed here.
 */
bool sched_balance_trigger(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	bool due = T >= rq->next_balance;
	bool kick = s->nr_idle && T >= s->nohz_next && nohz_balancer_kick(s, rq);

	/*
	 * The stats-only kick goes with this CPU's own balance: those ticks are processed
	 * whether ticks are elided or not, which keeps elision exact; a busy CPU balances every
	 * 28-60 ms at HZ 250, about the kernel's 32 ms stats period.
	 */
	if (!kick && due && s->nr_idle && s->nohz_has_blocked && T > s->nohz_blocked_next)
		nohz_idle_balance(s, T, false);
	if (due) {
		update_blocked_averages(s, rq, T);
		sched_balance_domains(s, rq, T);
	}
	return kick;
}

/*
 * sched__balance_kicked() - the idle CPUs that @rq's tick at @T kicked decay their blocked load
 * and balance, each whose balance is due. They do so after @rq's reschedule: the kick is an
 * IPI, and the kicked CPU runs its softirq tens of microseconds later (a 6.18 trace: 16-40 us),
 * when @rq has already switched on its way out of the tick; a task that tick preempted is then
 * the one waiting there, and cache hot.
 */
void sched__balance_kicked(struct sched *s, struct sched_cpu *rq, uint64_t T)
{
	uint64_t nn = UINT64_MAX, min_iv = UINT64_MAX;

	nohz_idle_balance(s, T, true);
	for (int c = 0; c < s->ncpu; c++)
		if (!s->cpu[c].curr && !s->cpu[c].nr_running)
			nn = umin(nn, s->cpu[c].next_balance);
	/*
	 * The next kick: when the first idle CPU's balance is due, at least one CPU's minimum
	 * interval away (nohz.next_balance). Only ever later, so the busy CPUs' plans, which
	 * hold it as a horizon, stay safe without a replan.
	 */
	for (int l = 0; l < rq->nsd; l++)
		min_iv = umin(min_iv, (uint64_t)rq->sd[l].d->weight * NSEC_PER_MSEC);
	if (min_iv == UINT64_MAX)
		min_iv = (uint64_t)s->ncpu * NSEC_PER_MSEC;
	s->nohz_next = T + umax(nn == UINT64_MAX || nn < T ? 0 : nn - T, min_iv);
}

/*
 * sched_balance_newidle() - @rq is about to go idle: if some CPU has tasks waiting (the root
 * domain is overloaded), decay the blocked averages and pull, level by level from the lowest,
 * until a task comes. The idle CPU's own next balances come within its idle intervals, which
 * NOHZ kicks honour.
 */
/*
 * update_newidle_stats(): one more new-idle balance of @sd counted, with @success (a pull
 * weighted by the inverse of the chance it had to run, 0 otherwise); every 1024 of them the
 * ratio becomes the successes and both counts are halved, a moving window.
 */
void update_newidle_stats(struct sched_sd *sd, uint32_t success)
{
	sd->newidle_call++;
	sd->newidle_success += success;
	if (sd->newidle_call >= 1024) {
		sd->newidle_ratio = sd->newidle_success;
		sd->newidle_call /= 2;
		sd->newidle_success /= 2;
	}
}

/* sched_rng() % 1024: NI_RANDOM's thousand-sided dice, a seeded stream per CPU */
static uint32_t newidle_dice(struct sched_cpu *rq)
{
	return (uint32_t)(sched__mix64(rq->ni_rng += 0x9e3779b97f4a7c15ull) >> 32) % 1024;
}

bool sched_balance_newidle(struct sched *s, struct sched_cpu *rq, uint64_t now)
{
	bool overloaded = false, pulled = false, cont = true;

	if (!rq->nsd)
		return false;
	for (int c = 0; c < s->ncpu && !overloaded; c++)
		overloaded = s->cpu[c].nr_running >= 2;
	if (overloaded) {
		/* PELT moves only at period ends: once per period is all that can change */
		if (now - rq->last_blocked >= 1024000 || !rq->last_blocked)
			update_blocked_averages(s, rq, now);
		for (int l = 0; l < rq->nsd && !pulled && cont; l++) {
			struct sched_sd *sd = &rq->sd[l];
			uint32_t weight = 1;

			if (!(sd->d->flags & F(BALANCE_NEWIDLE)))
				continue;
			/*
			 * NI_RANDOM: run in proportion to the level's recent success rate, and
			 * count a success at the inverse of that chance so that the rate stays
			 * that of all the calls, run or not
			 */
			if (sched__feat(s, SCHED_FEAT_NI_RANDOM)) {
				weight = 1 + sd->newidle_ratio;
				if (newidle_dice(rq) > weight) {
					update_newidle_stats(sd, 0);
					continue;
				}
				weight = (1024 + weight / 2) / weight;
			}
			pulled = sched_balance_rq(s, rq, l, LB_NEWLY_IDLE, &cont, now);
			update_newidle_stats(sd, pulled ? weight : 0);
		}
	}
	if (!pulled) {
		/* sched_balance_newidle(): the next balance as an idle CPU, if that is earlier */
		uint64_t next = UINT64_MAX;

		for (int l = 0; l < rq->nsd; l++)
			next = umin(next, sd_due(s, &rq->sd[l], false));
		rq->next_balance = umin(rq->next_balance, next);
		s->nohz_has_blocked = true;
	}
	return pulled;
}
