// SPDX-License-Identifier: MIT
/*
 * scheduler/select.c - kernel/sched/fair.c: wakeup CPU selection. The CPU a waking or new thread
 * goes to: select_task_rq_fair() over the scheduling domains (scheduler/sd.c). A new thread takes
 * the fork path's search (sched_balance_find_dst_cpu(), scheduler/balance.c); a waking one starts
 * from its previous CPU or, when a domain of the waker's CPU with SD_WAKE_AFFINE spans that CPU,
 * from what wake_affine() chooses, then select_idle_sibling() looks for an idle CPU within that
 * CPU's LLC. docs/scheduler.md, "SMP", and docs/topology.md.
 */
#include "scheduler/sched_internal.h"
#include "scheduler/topology.h"

#define IMBALANCE_PCT	117u	/* the LLC domain's imbalance_pct: wake_affine_weight()'s bias */
#define CAPACITY	1024u	/* SCHED_CAPACITY_SCALE: every CPU's capacity */

static bool cpu_idle_for(const struct sched_cpu *rq)
{
	/* available_idle_cpu() || sched_idle_cpu() */
	return !rq->curr || rq->nr_running == rq->cfs->h_nr_idle;
}

/* cpus_share_cache() */
static bool cpus_share_cache(const struct sched *s, int a, int b)
{
	return s->cpu[a].llc_id == s->cpu[b].llc_id;
}

/* The LLC's CPUs of @cpu as a mask: its sd_llc's span, all CPUs without one. */
static const uint64_t *llc_span(const struct sched *s, int cpu)
{
	const struct sched_cpu *rq = &s->cpu[cpu];

	return rq->llc >= 0 ? rq->sd[rq->llc].d->span : s->all_mask;
}

/*
 * The first CPU of @span after @target, in the order target + 1, ..., ncpu - 1, 0, ...,
 * target - 1, that runs nothing and that @t may use; -1 when there is none. A word at a time.
 */
static int first_idle_after(const struct sched *s, const struct sched_thread *t,
			    const uint64_t *span, int target)
{
	size_t nw = s->mask_words, start = (size_t)(target + 1) / 64;

	for (size_t k = 0; k <= nw; k++) {
		size_t w = (start + k) % nw;
		uint64_t bits = s->idle_mask[w] & t->affinity[w] & span[w];

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
 * select_idle_sibling() starts from. Every CPU of capacity CAPACITY.
 */
static int wake_affine(struct sched *s, struct sched_thread *t, int this, int prev, uint64_t now)
{
	struct sched_cpu *tr = &s->cpu[this], *pr = &s->cpu[prev];

	if (sched__feat(s, SCHED_FEAT_WA_IDLE)) {
		/* wake_affine_idle(): an idle waker's CPU only within prev's LLC */
		if (cpu_idle_for(tr) && cpus_share_cache(s, this, prev))
			return cpu_idle_for(pr) ? prev : this;
		if (cpu_idle_for(pr))
			return prev;
	}
	if (sched__feat(s, SCHED_FEAT_WA_WEIGHT)) {
		/* wake_affine_weight(): cpu_load() as last updated, the wakee's task_h_load() */
		uint64_t task = task_h_load(t, now);
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

/* The CPUs of @span that @t may use in [lo, hi): what an idle scan counts against its budget. */
static int allowed_in(const struct sched_thread *t, const uint64_t *span, int lo, int hi)
{
	int n = 0;

	for (int w = lo / 64; lo < hi && w <= (hi - 1) / 64; w++) {
		uint64_t bits = span[w] & t->affinity[w];

		if (w == lo / 64)
			bits &= ~0ull << (lo % 64);
		if (w == (hi - 1) / 64 && hi % 64)
			bits &= ~(~0ull << (hi % 64));
		n += __builtin_popcountll(bits);
	}
	return n;
}

/*
 * SIS_UTIL: whether idle CPU @c, found scanning @target's LLC from target + 1, is within the
 * scan's budget of nr_idle_scan CPUs (those @t may use), as select_idle_cpu() stops.
 */
static bool within_scan(const struct sched *s, const struct sched_thread *t,
			const uint64_t *span, int target, int c)
{
	const struct sched_cpu *rq = &s->cpu[target];
	int before;

	if (!sched__feat(s, SCHED_FEAT_SIS_UTIL) || rq->llc < 0)
		return true;
	before = c > target ? allowed_in(t, span, target + 1, c) :
			      allowed_in(t, span, target + 1, s->ncpu) +
			      allowed_in(t, span, 0, c);
	return before < rq->sd[rq->llc].d->nr_idle_scan;
}

/* Whether every SMT sibling of @cpu's core is idle. */
static bool core_idle(const struct sched *s, int cpu)
{
	int first = cpu / s->threads * s->threads;

	for (int c = first; c < first + s->threads; c++)
		if (!cpu_idle_for(&s->cpu[c]))
			return false;
	return true;
}

/*
 * select_idle_core() over @target's LLC, from target + 1 wrapping: the first allowed idle CPU
 * of a core whose threads are all idle; failing that, the first allowed idle CPU seen (-1).
 */
static int select_idle_core(const struct sched *s, const struct sched_thread *t, int target)
{
	const struct sched_cpu *rq = &s->cpu[target];
	const struct sched_dom *llc = rq->sd[rq->llc].d;
	int any = -1, start = 0;

	/* the LLC's CPUs from the first above target, wrapping */
	while (start < llc->weight && llc->cpus[start] <= target)
		start++;
	for (int i = 0; i < llc->weight; i++) {
		int c = llc->cpus[(start + i) % llc->weight];

		if (!cpu_allowed(t, c) || !cpu_idle_for(&s->cpu[c]))
			continue;
		if (core_idle(s, c))
			return c;
		if (any < 0)
			any = c;
	}
	return any;
}

/*
 * select_idle_sibling(): @target if idle; else @prev if idle and in target's LLC; else the
 * thread's recently used CPU if idle and in target's LLC (that becomes @prev); with SMT,
 * when no core of the LLC is idle, an idle sibling of prev; then an idle CPU of target's LLC
 * (an idle core first with SMT), scanning from target + 1; else target.
 */
static struct sched_cpu *select_idle_sibling(struct sched *s, struct sched_thread *t, int prev,
					     int target)
{
	const uint64_t *span = llc_span(s, target);
	int c = -1, recent;
	bool scan;

	if (cpu_allowed(t, target) && cpu_idle_for(&s->cpu[target]))
		return &s->cpu[target];
	if (prev != target && cpus_share_cache(s, prev, target) && cpu_allowed(t, prev) &&
	    cpu_idle_for(&s->cpu[prev]))
		return &s->cpu[prev];
	/* a recently used CPU, idle, in target's LLC; the previous CPU becomes the recent one */
	recent = t->recent_used_cpu;
	t->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target &&
	    cpus_share_cache(s, recent, target) && cpu_allowed(t, recent) &&
	    cpu_idle_for(&s->cpu[recent]))
		return &s->cpu[recent];
	/* SIS_UTIL: an LLC that its last balance found 85 % busy is not scanned at all */
	scan = !sched__feat(s, SCHED_FEAT_SIS_UTIL) || s->cpu[target].llc < 0 ||
	       s->cpu[target].sd[s->cpu[target].llc].d->nr_idle_scan > 0;
	if (s->threads > 1) {
		/* SMT cores exist only with an SMT domain, below an LLC */
		c = select_idle_core(s, t, target);
		if (c >= 0 && !core_idle(s, c) && cpus_share_cache(s, prev, target)) {
			/* no idle core: select_idle_smt(), an idle sibling of prev */
			int first = prev / s->threads * s->threads;

			for (int k = first; k < first + s->threads; k++)
				if (k != prev && cpu_allowed(t, k) && cpu_idle_for(&s->cpu[k]))
					return &s->cpu[k];
		}
		/* an idle core is taken whatever the budget; a lone idle CPU within it */
		if (c >= 0 && (!scan || (!core_idle(s, c) && !within_scan(s, t, span, target, c))))
			c = -1;
	} else if (!scan) {
		c = -1;
	} else if (!s->any_idle) {
		/* idle is "nothing running": the first allowed idle CPU after target, from the mask */
		c = s->nr_idle ? first_idle_after(s, t, span, target) : -1;
		if (c >= 0 && !within_scan(s, t, span, target, c))
			c = -1;
	} else {
		for (int i = 1; i < s->ncpu && c < 0; i++) {
			int o = (target + i) % s->ncpu;

			if ((span[o / 64] >> (o % 64) & 1) && cpu_allowed(t, o) &&
			    cpu_idle_for(&s->cpu[o]))
				c = o;
		}
		if (c >= 0 && !within_scan(s, t, span, target, c))
			c = -1;
	}
	if (c >= 0)
		return &s->cpu[c];
	if (cpu_allowed(t, target))
		return &s->cpu[target];
	for (c = 0; c < s->ncpu; c++)
		if (cpu_allowed(t, c))
			return &s->cpu[c];
	return &s->cpu[0];
}

/* Whether a domain of @this with SD_WAKE_AFFINE spans @prev (want_affine's walk). */
static bool affine_domain(const struct sched *s, int this, int prev)
{
	const struct sched_cpu *rq = &s->cpu[this];

	for (int l = 0; l < rq->nsd; l++) {
		const struct sched_dom *d = rq->sd[l].d;

		if ((d->flags & (1u << TOPO_SD_WAKE_AFFINE)) && (d->span[prev / 64] >> (prev % 64) & 1))
			return true;
	}
	return false;
}

/*
 * record_wakee(): the thread @w that wakes @t (the one running where the wakeup is made)
 * counts a flip when it wakes another thread than last time; its flips halve once a second
 * (HZ jiffies after the last halving).
 */
static void record_wakee(struct sched *s, struct sched_thread *w, const struct sched_thread *t,
			 uint64_t now)
{
	uint64_t second = (uint64_t)s->cfg.tun.hz * s->tick_ns;

	if (now > w->wakee_flip_decay + second) {
		w->wakee_flips >>= 1;
		w->wakee_flip_decay = now;
	}
	if (w->last_wakee != t->tid) {
		w->last_wakee = t->tid;
		w->wakee_flips++;
	}
}

/*
 * wake_wide(): a waker and wakee that both switch partners at least as often as the waker's
 * LLC has CPUs, one of them that many times more than the other (a dispatcher and its
 * workers), are spread rather than pulled to the waker: no wake_affine().
 */
static bool wake_wide(const struct sched *s, const struct sched_thread *w,
		      const struct sched_thread *t, int this)
{
	const struct sched_cpu *rq = &s->cpu[this];
	uint64_t master = w->wakee_flips, slave = t->wakee_flips;
	uint64_t factor = rq->llc >= 0 ? (uint64_t)rq->sd[rq->llc].d->weight : 1;

	if (master < slave) {
		uint64_t x = master;

		master = slave;
		slave = x;
	}
	return !(slave < factor || master < slave * factor);
}

/*
 * select_task_rq_fair(): a new task goes where the fork path's search puts it, forked on the
 * waker's CPU (@waker >= 0) or else on its last or first allowed CPU; a waking task starts
 * from its previous CPU, or, woken by a thread on another CPU it may use whose domains reach
 * that CPU with SD_WAKE_AFFINE, from what wake_affine() chooses; then select_idle_sibling().
 */
struct sched_cpu *select_task_rq_fair(struct sched *s, struct sched_thread *t, int waker,
				      uint64_t now)
{
	int n = s->ncpu, prev = t->cpu ? t->cpu->id : -1, target;
	struct sched_thread *cur;

	if (prev < 0 || t->new_task) {
		int from = waker >= 0 && waker < n ? waker : prev;

		for (int c = 0; c < n && from < 0; c++)
			if (cpu_allowed(t, c))
				from = c;
		return sched_balance_find_dst_cpu(s, t, from < 0 ? 0 : from, now);
	}
	target = prev;
	/* current: the waking thread, or the one running where the sleeper's timer fires */
	cur = waker >= 0 && waker < n ? s->cpu[waker].curr : s->cpu[prev].curr;
	if (cur && cur != t)
		record_wakee(s, cur, t, now);
	if (waker >= 0 && waker < n && waker != prev && cpu_allowed(t, waker) &&
	    !(cur && wake_wide(s, cur, t, waker)) && affine_domain(s, waker, prev))
		target = wake_affine(s, t, waker, prev, now);
	return select_idle_sibling(s, t, prev, target);
}
