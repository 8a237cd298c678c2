// SPDX-License-Identifier: MIT
/*
 * scheduler/pelt.c - PELT-style load averages (kernel/sched/pelt.c's geometric series).
 *
 * A signal x(t) (a queue's runnable load weight) is integrated over 1024 us periods of absolute
 * time. At each period end the running sum decays by y, y^32 = 1/2 (a 32 ms half-life), and the
 * period's integral is added:  sum' = floor(sum * y) + Σ x dt / 1 us.  The average is
 * sum * 1024 / pelt_full(), where pelt_full() is the value sum settles at for x = 1024, so an
 * always-runnable nice-0 load averages 1024, as the kernel's load_avg does.
 *
 * Differences from the kernel, on purpose: the kernel also adds the decayed part of the current
 * period (so its average moves within a period) and splits a period's contribution into decayed
 * pieces; here the average moves only at period ends. That makes the result independent of when
 * pelt_update() is called, which tick elision needs, and costs at most one period (1 ms) of lag.
 *
 * Besides the series itself: moving an entity's history into or out of a queue's average
 * (attach, detach, reweight), rescaling a group entity's runnable history (propagation), and
 * pelt_update_event(), which folds whole periods in closed form for averages updated only at
 * events (docs/scheduler.md, "Group shares and load tracking").
 */
#include "scheduler/sched_internal.h"

/* y * 2^32 rounded down (the kernel's runnable_avg_yN_inv[1], 0xfa83b2da). */
#define PELT_Y		4202935002ull

static uint64_t decay(uint64_t sum)
{
	return (uint64_t)(((unsigned __int128)sum * PELT_Y) >> 32);
}

uint64_t pelt_full(void)
{
	return PELT_FULL;
}

void pelt_init(struct pelt *p, uint64_t now)
{
	*p = (struct pelt){ .period = now / PELT_PERIOD_NS, .last = now, .settled = true };
}

/* sum x 1024 / full, in 64 bits whenever that cannot overflow (the usual case). */
static uint64_t avg_of(uint64_t sum)
{
	if (sum < (1ull << 53))
		return sum * 1024 / PELT_FULL;
	return (uint64_t)(((unsigned __int128)sum * 1024) / PELT_FULL);
}

/* One period end: fold the period's integral into the sum. */
static void boundary(struct pelt *p)
{
	uint64_t old = p->sum;
	bool pure = p->acc == p->x * PELT_PERIOD_NS;	/* x's integral alone */

	p->sum = decay(p->sum) + p->acc / 1000;
	p->settled = !p->x_changed && p->sum == old;
	p->fixed = p->settled && pure;
	p->acc = 0;
	p->x_changed = false;
	p->avg = avg_of(p->sum);
	p->period++;
}

/* pelt_update()'s slow path: @now is at or past the end of the open period. */
void pelt__cross(struct pelt *p, uint64_t now)
{
	uint64_t end = (p->period + 1) * PELT_PERIOD_NS, target;

	/* the open period ends */
	if (p->fixed && !p->x_changed) {
		/*
		 * The sum is a fixed point of the series under x (the last boundary, whose
		 * integral was x's alone, left it unchanged), and x held through this whole
		 * period with nothing else added (that clears @fixed): this boundary leaves it
		 * so too, and only the period moves on. "settled" alone does not say as much: an
		 * attached history can leave one boundary's sum unchanged by chance. The same
		 * holds where whole periods are skipped below, and for pelt_stable().
		 */
		p->acc = 0;
		p->period++;
	} else {
		p->acc += p->x * (end - p->last);
		boundary(p);
	}
	if (now < end + PELT_PERIOD_NS) {	/* the usual case: @now is in the next period */
		p->acc = p->x * (now - end);
		p->last = now;
		return;
	}
	target = now / PELT_PERIOD_NS;		/* the period holding @now */
	if (!p->fixed && p->period < target) {
		/*
		 * Whole periods under the constant x: each adds exactly x * 1024 (its integral,
		 * x * 1024000 ns, in weight * us), so boundary() reduces to a multiply, a shift
		 * and an add; the average is needed after the last one only. Bit for bit the
		 * series boundary() computes, at a tenth of its cost (an idle queue's sum takes
		 * about 32 periods per bit to reach 0).
		 */
		uint64_t c = p->x * (PELT_PERIOD_NS / 1000), sum = p->sum, old;

		do {
			old = sum;
			sum = decay(sum) + c;
			p->period++;
		} while (sum != old && p->period < target);
		/* once a whole period under a constant x left the sum unchanged, all later will */
		p->settled = sum == old;
		p->fixed = p->settled;	/* each of these periods was x's alone */
		p->sum = sum;
		p->avg = avg_of(sum);
	}
	if (p->period < target)		/* settled: jump to the period holding @now */
		p->period = target;
	p->last = target * PELT_PERIOD_NS;
	p->acc = p->x * (now - p->last);
	p->last = now;
}

/* From now on the signal is @x. */
static void set_x(struct pelt *p, uint64_t x)
{
	if (x != p->x) {
		p->x = x;
		p->x_changed = true;
		p->settled = false;
		p->fixed = false;
	}
}

void pelt_set(struct pelt *p, uint64_t now, uint64_t x)
{
	pelt_update(p, now);
	set_x(p, x);
}

/*
 * A runnable-time average that starts full, as init_entity_runnable_average() gives a new
 * task: "seen as heavy until it gets a chance to stabilize".
 */
void pelt_init_full(struct pelt *p, uint64_t now)
{
	pelt_init(p, now);
	p->sum = pelt_full();
	p->avg = 1024;
	p->settled = false;	/* full under x = 0 is no fixed point: the next boundary decays it */
	p->fixed = false;
}

/* v * w / 1024, in 128 bits: w is a scale_load_down() weight, at most 2^18 or so. */
static uint64_t scaled(uint64_t v, uint64_t w)
{
	return (uint64_t)(((unsigned __int128)v * w) >> 10);
}

static void add_sat(uint64_t *x, uint64_t d, bool sub)
{
	if (!sub)
		*x = *x > UINT64_MAX - d ? UINT64_MAX : *x + d;
	else
		*x = *x > d ? *x - d : 0;
}

/*
 * pelt_attach() - add (or with @sub take away) the history of a runnable-time average @r of
 * an entity of weight @w to the load average @q of a queue: the kernel's
 * attach/detach_entity_load_avg() and the dequeue/enqueue_load_avg() pair of reweight_entity().
 * Both must have been brought to the same time. A queue's sum is (up to rounding) the sum over
 * the entities attached to it of weight x runnable sum, because the series is linear; this
 * keeps it so when an entity comes or goes with its past. Subtraction saturates at 0, as the
 * kernel's sub_positive() does.
 */
void pelt_attach(struct pelt *q, const struct pelt *r, uint64_t w, bool sub)
{
	add_sat(&q->sum, scaled(r->sum, w), sub);
	add_sat(&q->acc, scaled(r->acc, w), sub);
	add_sat(&q->avg, scaled(r->avg, w), sub);
	q->settled = false;
	q->fixed = false;
}

/*
 * pelt_reweight() - the entity whose runnable-time average is @r changed weight from @w0 to
 * @w1: its share of the queue's average @q follows (dequeue_load_avg() with the old weight,
 * enqueue_load_avg() with the new one, in one step). Both brought to the same time.
 */
void pelt_reweight(struct pelt *q, const struct pelt *r, uint64_t w0, uint64_t w1)
{
	bool sub = w1 < w0;
	uint64_t d = sub ? w0 - w1 : w1 - w0;

	add_sat(&q->sum, scaled(r->sum, d), sub);
	add_sat(&q->acc, scaled(r->acc, d), sub);
	add_sat(&q->avg, scaled(r->avg, d), sub);
	q->settled = false;
	q->fixed = false;
}

/* pelt_add_avg() - add (or take away) an average of @avg, with the sum that settles at it. */
void pelt_add_avg(struct pelt *p, uint64_t avg, bool sub)
{
	add_sat(&p->sum, (uint64_t)(((unsigned __int128)avg * pelt_full()) >> 10), sub);
	add_sat(&p->avg, avg, sub);
	p->settled = false;
	p->fixed = false;
}

/*
 * pelt_set_runnable() - set a runnable-time average to @sum (clamped to [0, full]), scaling
 * the current period's part and the average with it: update_tg_cfs_load()'s new runnable_sum
 * for a group entity.
 */
void pelt_set_runnable(struct pelt *p, uint64_t sum)
{
	uint64_t full = pelt_full(), old = p->sum;

	if (sum > full)
		sum = full;
	if (sum == old)
		return;
	if (old) {
		/* acc < 2^30 (1024 x one period in ns), avg <= 1024 and sum <= full < 2^26 for a
		 * runnable-time average: the products fit in 64 bits */
		p->acc = p->acc * sum / old;
		p->avg = p->avg * sum / old;
	} else {
		p->avg = (uint64_t)(((unsigned __int128)sum * 1024) / full);
	}
	if (p->avg > 1024)
		p->avg = 1024;
	p->sum = sum;
	p->settled = false;
	p->fixed = false;
}

/* y^k x 2^32 for k = 0 .. 31, by repeated multiplication (integers, the same on every build). */
static const uint64_t *y_pow(void)
{
	static uint64_t t[32];

	if (!t[0]) {
		t[0] = 1ull << 32;
		for (int k = 1; k < 32; k++)
			t[k] = (t[k - 1] * PELT_Y) >> 32;
	}
	return t;
}

static uint64_t decay_n(uint64_t sum, uint64_t n)
{
	if (n >= 64 * 32)
		return 0;
	sum >>= n / 32;
	return (uint64_t)(((unsigned __int128)sum * y_pow()[n % 32]) >> 32);
}

/*
 * pelt_update_event() - pelt_update() for an average read only when something happens to its
 * entity or CPU (entities' runnable averages, a CPU's utilisation and runnable averages):
 * whole periods under a constant x are folded in closed form, as the kernel's
 * accumulate_sum() does, sum y^n + x/1024 (full - full y^n), instead of period by period.
 * The last bits can differ from period-by-period folding, so it is used only for averages
 * whose updates come at the same times whether ticks are elided or not.
 */
void pelt_update_event(struct pelt *p, uint64_t now)
{
	uint64_t target;

	if (now <= p->last)
		return;
	if (now < (p->period + 1) * PELT_PERIOD_NS) {	/* within the open period */
		p->acc += p->x * (now - p->last);
		p->last = now;
		return;
	}
	target = now / PELT_PERIOD_NS;

	if (target > p->period + 1) {
		uint64_t n, full = pelt_full();

		pelt_update(p, (p->period + 1) * PELT_PERIOD_NS);	/* close the open period */
		n = target - p->period;
		/* a period that left the sum as it was under this x will leave it so again */
		if (!p->fixed) {
			p->sum = decay_n(p->sum, n) +
				 (uint64_t)(((unsigned __int128)(full - decay_n(full, n)) * p->x) >> 10);
			p->avg = avg_of(p->sum);
		}
		p->period = target;
		p->last = target * PELT_PERIOD_NS;
		p->x_changed = false;
	}
	pelt_update(p, now);
}

void pelt_set_event(struct pelt *p, uint64_t now, uint64_t x)
{
	pelt_update_event(p, now);
	set_x(p, x);
}
