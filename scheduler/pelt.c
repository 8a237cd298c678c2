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
 */
#include "scheduler/sched_internal.h"

#define PELT_PERIOD_NS	1024000ull
/* y * 2^32 rounded down (the kernel's runnable_avg_yN_inv[1], 0xfa83b2da). */
#define PELT_Y		4202935002ull

static uint64_t decay(uint64_t sum)
{
	return (uint64_t)(((unsigned __int128)sum * PELT_Y) >> 32);
}

uint64_t pelt_full(void)
{
	static uint64_t full;

	if (!full) {
		uint64_t sum = 0, next;

		/* Monotone and bounded, so it reaches its fixed point (about 1024 / (1 - y)). */
		for (;;) {
			next = decay(sum) + 1024 * 1024;
			if (next == sum)
				break;
			sum = next;
		}
		full = sum;
	}
	return full;
}

void pelt_init(struct pelt *p, uint64_t now)
{
	*p = (struct pelt){ .period = now / PELT_PERIOD_NS, .last = now, .settled = true };
}

/* One period end: fold the period's integral into the sum. */
static void boundary(struct pelt *p)
{
	uint64_t old = p->sum;

	p->sum = decay(p->sum) + p->acc / 1000;
	p->settled = !p->x_changed && p->sum == old;
	p->acc = 0;
	p->x_changed = false;
	p->avg = (uint64_t)(((unsigned __int128)p->sum * 1024) / pelt_full());
	p->period++;
}

void pelt_update(struct pelt *p, uint64_t now)
{
	if (now <= p->last)
		return;
	for (;;) {
		uint64_t end = (p->period + 1) * PELT_PERIOD_NS;

		if (now < end) {
			p->acc += p->x * (now - p->last);
			p->last = now;
			return;
		}
		p->acc += p->x * (end - p->last);
		p->last = end;
		boundary(p);
		/*
		 * Once a whole period under a constant x left the sum unchanged, every later
		 * one will too: jump to the period holding @now.
		 */
		if (p->settled) {
			uint64_t target = now / PELT_PERIOD_NS;

			if (target > p->period) {
				p->period = target;
				p->last = target * PELT_PERIOD_NS;
			}
		}
	}
}

void pelt_set(struct pelt *p, uint64_t now, uint64_t x)
{
	pelt_update(p, now);
	if (x != p->x) {
		p->x = x;
		p->x_changed = true;
		p->settled = false;
	}
}

bool pelt_stable(const struct pelt *p)
{
	return p->settled && !p->x_changed;
}
