// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_arith.c - the scheduler's exact-arithmetic shortcuts give what the plain
 * 128-bit expression gives.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

/* calc_delta_fair() and virtual time's fixed point (sv_t) are internal: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_arith);

/* The expression sched__scale_sv() replaces: C's division truncates toward zero. */
static sv_t reference(sv_t x, uint64_t num, uint64_t den)
{
	return x * (sv_t)num / (sv_t)den;
}

static void expect_scale(sv_t x, uint64_t num, uint64_t den)
{
	sv_t got = sched__scale_sv(x, num, den), want = reference(x, num, den);

	cr_expect(got == want, "%lld * %llu / %llu: got %lld, want %lld", (long long)x,
		  (unsigned long long)num, (unsigned long long)den, (long long)got, (long long)want);
}

/* Worked by hand: truncation toward zero on both signs, and exact quotients. */
Test(sched_arith, scale_truncates_toward_zero)
{
	cr_expect(sched__scale_sv(7, 3, 2) == 10);
	cr_expect(sched__scale_sv(-7, 3, 2) == -10);
	cr_expect(sched__scale_sv(-1, 1, 2) == 0);
	cr_expect(sched__scale_sv(-6, 5, 3) == -10);
	cr_expect(sched__scale_sv(0, 5, 3) == 0);
}

/*
 * The edges of the 64-bit path: the extremes of x, a quotient whose product with num
 * overflows 64 bits (back to 128), weights at the limit, values beyond 64 bits (up to 2^80,
 * so that x num stays within 128 bits for every num here, as it must for the expression).
 */
Test(sched_arith, scale_edges)
{
	const uint64_t w[] = { 1, 2, 3, 1023, 1024, 1048576, 90891264, (1ull << 31) - 1,
			       1ull << 31, 1ull << 40 };
	const sv_t x[] = { 0, 1, -1, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
			   (sv_t)INT64_MAX + 1, (sv_t)INT64_MIN - 1, (sv_t)1 << 80,
			   -((sv_t)1 << 80), (sv_t)123456789 << 32, -((sv_t)987654321 << 32) };

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		for (size_t a = 0; a < sizeof(w) / sizeof(w[0]); a++)
			for (size_t b = 0; b < sizeof(w) / sizeof(w[0]); b++)
				expect_scale(x[i], w[a], w[b]);
}

/* A million pseudo-random lags and weights (xorshift, fixed seed). */
Test(sched_arith, scale_random)
{
	uint64_t s = 88172645463325252ull;
	int bad = 0;

	for (int i = 0; i < 1000000 && bad < 5; i++) {
		uint64_t t;
		int64_t v;
		uint64_t num, den;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		t = s * 0x9e3779b97f4a7c15ull;
		v = (int64_t)s >> (t % 64);
		num = (t >> 8) % ((1u << 31) - 1) + 1;
		den = (t >> 33) % ((1u << 31) - 1) + 1;
		if (i % 3 == 0)
			num = (t >> 8) % 3000 + 1, den = (t >> 20) % 3000 + 1;
		if (sched__scale_sv(v, num, den) != reference(v, num, den)) {
			bad++;
			expect_scale(v, num, den);
		}
	}
	cr_expect_eq(bad, 0);
}

/*
 * calc_delta_fair() multiplies in 64 x 64 bits: the same product as the 128-bit expression for
 * every weight an entity can have (the least, MIN_SHARES, has the largest increment) and every
 * delta, the largest included.
 */
Test(sched_arith, calc_delta_fair_is_the_full_product)
{
	static const uint64_t weights[] = { NICE_0_LOAD, 2ull << SCHED_LOAD_SHIFT,
					    3ull << SCHED_LOAD_SHIFT, 15ull << SCHED_LOAD_SHIFT,
					    88761ull << SCHED_LOAD_SHIFT, 1ull << SCHED_LOAD_SHIFT,
					    1 };
	static const uint64_t deltas[] = { 0, 1, 999, 1000000, 4000000, 1ull << 40,
					   UINT64_MAX / 3, UINT64_MAX };

	for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) {
		struct sched_entity se;

		memset(&se, 0, sizeof(se));
		sched__set_weight(&se, weights[i], 0);
		for (size_t j = 0; j < sizeof(deltas) / sizeof(deltas[0]); j++) {
			sv_t want = (sv_t)deltas[j] * se.inc;

			cr_expect(calc_delta_fair(deltas[j], &se) == want,
				  "weight %llu, delta %llu", (unsigned long long)weights[i],
				  (unsigned long long)deltas[j]);
		}
	}
}
