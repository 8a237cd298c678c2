// SPDX-License-Identifier: MIT
/*
 * Unit tests of the random streams and distributions (sim/engine/rng.h).
 *
 * The statistical tests draw N = 100,000 values from a fixed seed, so they
 * are deterministic; their tolerances are still chosen so that a correct
 * implementation would pass for almost any seed. The sample mean of N draws
 * of a distribution with variance s^2 has standard error s / sqrt(N), and a
 * deviation beyond 5 standard errors has probability below 6e-7 under the
 * normal approximation. The sample variance has standard error
 * sqrt((mu4 - s^4) / N), mu4 being the fourth central moment, and gets the
 * same 5 standard errors.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "sim/engine/rng.h"

#define N_DRAWS 100000
#define N_SE 5.0

struct moments {
	double mean;
	double var;		/* unbiased sample variance */
};

/* Welford's running mean and variance: stable for large means (durations in ns). */
static struct moments draw_moments(const struct sim_dist *d, uint64_t seed, bool log_space)
{
	struct sim_rng rng;
	double mean = 0, m2 = 0;

	cr_assert_eq(sim_rng_init(&rng, seed, 0), 0);
	for (int i = 1; i <= N_DRAWS; i++) {
		double x = sim_dist_draw(&rng, d);
		double delta;

		if (log_space)
			x = log(x);
		delta = x - mean;
		mean += delta / i;
		m2 += delta * (x - mean);
	}
	sim_rng_release(&rng);
	return (struct moments){ mean, m2 / (N_DRAWS - 1) };
}

static void expect_mean(const char *what, struct moments got, double mean, double var)
{
	double se = sqrt(var / N_DRAWS);

	cr_assert_leq(fabs(got.mean - mean), N_SE * se,
		      "%s: sample mean %.6g, expected %.6g +- %.3g (5 SE)",
		      what, got.mean, mean, N_SE * se);
}

/* @mu4 is the fourth central moment of the distribution. */
static void expect_var(const char *what, struct moments got, double var, double mu4)
{
	double se = sqrt((mu4 - var * var) / N_DRAWS);

	cr_assert_leq(fabs(got.var - var), N_SE * se,
		      "%s: sample variance %.6g, expected %.6g +- %.3g (5 SE)",
		      what, got.var, var, N_SE * se);
}

/* ---- streams --------------------------------------------------------------- */

Test(sim_rng, same_seed_and_index_repeat_the_sequence)
{
	struct sim_rng a, b;

	cr_assert_eq(sim_rng_init(&a, 7, 3), 0);
	cr_assert_eq(sim_rng_init(&b, 7, 3), 0);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(sim_rng_uniform(&a), sim_rng_uniform(&b), "draw %d", i);
	sim_rng_release(&a);
	sim_rng_release(&b);
}

static int count_equal_draws(uint64_t seed_a, uint32_t index_a, uint64_t seed_b, uint32_t index_b)
{
	struct sim_rng a, b;
	int same = 0;

	cr_assert_eq(sim_rng_init(&a, seed_a, index_a), 0);
	cr_assert_eq(sim_rng_init(&b, seed_b, index_b), 0);
	for (int i = 0; i < 1000; i++)
		same += sim_rng_uniform(&a) == sim_rng_uniform(&b);
	sim_rng_release(&a);
	sim_rng_release(&b);
	return same;
}

Test(sim_rng, different_index_gives_a_different_sequence)
{
	cr_assert_eq(count_equal_draws(7, 0, 7, 1), 0);
	cr_assert_eq(count_equal_draws(7, 1, 7, 2), 0);
}

Test(sim_rng, different_seed_gives_a_different_sequence)
{
	cr_assert_eq(count_equal_draws(1, 0, 2, 0), 0);
	cr_assert_eq(count_equal_draws(0, 5, 1, 5), 0);
}

Test(sim_rng, extra_draws_on_one_stream_leave_another_unchanged)
{
	enum { N = 100 };
	struct sim_rng s1, s2;
	double alone[N];

	cr_assert_eq(sim_rng_init(&s2, 11, 2), 0);
	for (int i = 0; i < N; i++)
		alone[i] = sim_rng_uniform(&s2);
	sim_rng_release(&s2);

	/* Stream 1 now draws between and around stream 2's draws. */
	cr_assert_eq(sim_rng_init(&s1, 11, 1), 0);
	cr_assert_eq(sim_rng_init(&s2, 11, 2), 0);
	for (int k = 0; k < 500; k++)
		sim_rng_uniform(&s1);
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < i % 7; k++)
			sim_rng_uniform(&s1);
		cr_assert_eq(sim_rng_uniform(&s2), alone[i], "draw %d of stream 2 moved", i);
	}
	sim_rng_release(&s1);
	sim_rng_release(&s2);
}

/*
 * Adjacent streams are uncorrelated: Pearson's r of N pairs of independent
 * variables has standard error about 1 / sqrt(N).
 */
Test(sim_rng, adjacent_streams_are_uncorrelated)
{
	for (uint32_t index = 0; index < 4; index++) {
		struct sim_rng a, b;
		double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, r;

		cr_assert_eq(sim_rng_init(&a, 1, index), 0);
		cr_assert_eq(sim_rng_init(&b, 1, index + 1), 0);
		for (int i = 0; i < N_DRAWS; i++) {
			double x = sim_rng_uniform(&a), y = sim_rng_uniform(&b);

			sa += x;
			sb += y;
			saa += x * x;
			sbb += y * y;
			sab += x * y;
		}
		sim_rng_release(&a);
		sim_rng_release(&b);
		r = (N_DRAWS * sab - sa * sb) /
		    sqrt((N_DRAWS * saa - sa * sa) * (N_DRAWS * sbb - sb * sb));
		cr_assert_leq(fabs(r), N_SE / sqrt(N_DRAWS), "streams %u and %u: r = %.5f",
			      index, index + 1, r);
	}
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

Test(sim_rng, stream_seeds_are_distinct_within_a_scenario_seed)
{
	enum { N = 1 << 18 };
	static const uint64_t seeds[] = { 0, 1, 2, UINT64_MAX };
	unsigned long *v = malloc(N * sizeof(*v));

	cr_assert_not_null(v);
	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		for (uint32_t i = 0; i < N; i++) {
			v[i] = sim_rng_stream_seed(seeds[s], i);
			cr_assert_neq(v[i], 0, "a zero seed would alias GSL's default");
		}
		qsort(v, N, sizeof(*v), cmp_ulong);
		for (int i = 1; i < N; i++)
			cr_assert_neq(v[i - 1], v[i], "seed %llu: two indices share a stream",
				      (unsigned long long)seeds[s]);
	}
	free(v);
}

/* Guards the GSL behaviour that sim_rng_stream_seed() relies on for x == 0. */
Test(sim_rng, gsl_mt19937_seeds_2_to_the_32_as_zero_not_4357)
{
	gsl_rng *a, *b;

	if (ULONG_MAX <= UINT32_MAX)
		cr_skip_test("unsigned long has 32 bits here");
	a = gsl_rng_alloc(gsl_rng_mt19937);
	b = gsl_rng_alloc(gsl_rng_mt19937);
	cr_assert(a && b);
	gsl_rng_set(a, (unsigned long)UINT32_MAX + 1);
	gsl_rng_set(b, 4357);
	cr_assert_neq(gsl_rng_get(a), gsl_rng_get(b));
	/* Matsumoto and Nishimura's init_genrand(0) starts 2357136044, 2546248239. */
	gsl_rng_set(a, (unsigned long)UINT32_MAX + 1);
	cr_assert_eq(gsl_rng_get(a), 2357136044UL);
	cr_assert_eq(gsl_rng_get(a), 2546248239UL);
	gsl_rng_free(a);
	gsl_rng_free(b);
}

/*
 * Golden values: changing the derivation or the generator changes every
 * scenario's results, so it must be a deliberate act that updates these.
 */
Test(sim_rng, stream_derivation_is_stable)
{
	struct sim_rng rng;

	cr_assert_eq(sim_rng_stream_seed(1, 0), 745063825UL);
	cr_assert_eq(sim_rng_stream_seed(1, 1), 1526278829UL);
	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	cr_assert_eq(gsl_rng_get(rng.gsl), 3214075915UL);
	sim_rng_release(&rng);
}

Test(sim_rng, uniform_stays_in_the_unit_interval)
{
	struct sim_rng rng;
	double lo = 1, hi = 0;

	cr_assert_eq(sim_rng_init(&rng, 3, 0), 0);
	for (int i = 0; i < N_DRAWS; i++) {
		double x = sim_rng_uniform(&rng);

		cr_assert(x >= 0 && x < 1, "draw %d = %.17g", i, x);
		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}
	sim_rng_release(&rng);
	cr_assert_lt(lo, 1e-3);
	cr_assert_gt(hi, 1 - 1e-3);
}

Test(sim_rng, release_twice_is_harmless)
{
	struct sim_rng rng;

	cr_assert_eq(sim_rng_init(&rng, 1, 1), 0);
	sim_rng_release(&rng);
	sim_rng_release(&rng);
}

/* ---- distributions --------------------------------------------------------- */

Test(sim_dist, fixed_always_returns_its_value)
{
	struct sim_dist d = { SIM_DIST_FIXED, 2.5e6, 0 };
	struct sim_rng rng;

	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(sim_dist_draw(&rng, &d), 2.5e6);
	cr_assert_eq(sim_dist_draw_ns(&rng, &d), 2500000);
	sim_rng_release(&rng);
	cr_assert_eq(sim_dist_mean(&d), 2.5e6);
}

/* exp(m): variance m^2, fourth central moment 9 m^4. */
Test(sim_dist, exp_sample_moments_within_5_standard_errors)
{
	double m = 3e6;
	struct sim_dist d = { SIM_DIST_EXP, m, 0 };
	struct moments got = draw_moments(&d, 101, false);

	cr_assert_eq(sim_dist_mean(&d), m);
	expect_mean("exp", got, m, m * m);
	expect_var("exp", got, m * m, 9 * pow(m, 4));
}

/* uniform(a, b): variance w^2/12, fourth central moment w^4/80, w = b - a. */
Test(sim_dist, uniform_sample_moments_within_5_standard_errors)
{
	double a = 2e3, b = 10e3, w = b - a;
	struct sim_dist d = { SIM_DIST_UNIFORM, a, b };
	struct moments got = draw_moments(&d, 102, false);

	cr_assert_eq(sim_dist_mean(&d), (a + b) / 2);
	expect_mean("uniform", got, (a + b) / 2, w * w / 12);
	expect_var("uniform", got, w * w / 12, pow(w, 4) / 80);
}

Test(sim_dist, uniform_stays_within_its_bounds)
{
	struct sim_dist d = { SIM_DIST_UNIFORM, -3, 5 };
	struct sim_rng rng;

	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	for (int i = 0; i < 10000; i++) {
		double x = sim_dist_draw(&rng, &d);

		cr_assert(x >= -3 && x < 5, "draw %d = %g", i, x);
	}
	sim_rng_release(&rng);
}

/* normal(m, s): variance s^2, fourth central moment 3 s^4. */
Test(sim_dist, normal_sample_moments_within_5_standard_errors)
{
	double m = 5e5, s = 2e5;
	struct sim_dist d = { SIM_DIST_NORMAL, m, s };
	struct moments got = draw_moments(&d, 103, false);

	cr_assert_eq(sim_dist_mean(&d), m);
	expect_mean("normal", got, m, s * s);
	expect_var("normal", got, s * s, 3 * pow(s, 4));
}

/*
 * lognormal(m, s): the value's mean is m and its variance s^2 by
 * construction. Its fourth moment is large, so the parametrisation is
 * checked exactly in log space instead: ln X ~ N(mu, sigma^2) with
 * sigma^2 = ln(1 + s^2/m^2) and mu = ln(m^2 / sqrt(s^2 + m^2)).
 */
Test(sim_dist, lognormal_sample_mean_within_5_standard_errors)
{
	double m = 4e6, s = 3e6;
	struct sim_dist d = { SIM_DIST_LOGNORMAL, m, s };
	struct moments got = draw_moments(&d, 104, false);

	cr_assert_eq(sim_dist_mean(&d), m);
	expect_mean("lognormal", got, m, s * s);
}

Test(sim_dist, lognormal_log_moments_match_the_parametrisation)
{
	double m = 4e6, s = 3e6;
	double sigma2 = log(1 + s * s / (m * m));
	double mu = log(m * m / sqrt(s * s + m * m));
	struct sim_dist d = { SIM_DIST_LOGNORMAL, m, s };
	struct moments got = draw_moments(&d, 105, true);

	expect_mean("ln lognormal", got, mu, sigma2);
	expect_var("ln lognormal", got, sigma2, 3 * sigma2 * sigma2);
}

Test(sim_dist, lognormal_with_zero_sd_is_its_mean)
{
	struct sim_dist d = { SIM_DIST_LOGNORMAL, 1e6, 0 };
	struct sim_rng rng;

	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	for (int i = 0; i < 100; i++)
		cr_assert_float_eq(sim_dist_draw(&rng, &d), 1e6, 1e-3);
	sim_rng_release(&rng);
}

/*
 * pareto(alpha, xm), alpha = 3.5: mean alpha xm / (alpha - 1), variance
 * xm^2 alpha / ((alpha - 1)^2 (alpha - 2)), finite for alpha > 2 (the fourth
 * moment is finite only for alpha > 4, so only the mean is tested).
 */
Test(sim_dist, pareto_sample_mean_within_5_standard_errors)
{
	double alpha = 3.5, xm = 2e3;
	double mean = alpha * xm / (alpha - 1);
	double var = xm * xm * alpha / ((alpha - 1) * (alpha - 1) * (alpha - 2));
	struct sim_dist d = { SIM_DIST_PARETO, alpha, xm };
	struct moments got = draw_moments(&d, 106, false);

	cr_assert_float_eq(sim_dist_mean(&d), mean, 1e-9 * mean);
	expect_mean("pareto", got, mean, var);
}

Test(sim_dist, pareto_never_draws_below_its_scale)
{
	struct sim_dist d = { SIM_DIST_PARETO, 1.5, 100 };
	struct sim_rng rng;

	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	for (int i = 0; i < 10000; i++)
		cr_assert_geq(sim_dist_draw(&rng, &d), 100);
	sim_rng_release(&rng);
}

Test(sim_dist, pareto_mean_is_infinite_for_alpha_at_most_1)
{
	cr_assert(isinf(sim_dist_mean(&(struct sim_dist){ SIM_DIST_PARETO, 1, 5 })));
	cr_assert(isinf(sim_dist_mean(&(struct sim_dist){ SIM_DIST_PARETO, 0.5, 5 })));
	cr_assert_float_eq(sim_dist_mean(&(struct sim_dist){ SIM_DIST_PARETO, 2, 5 }), 10, 1e-12);
}

Test(sim_dist, to_ns_rounds_to_nearest_and_clamps)
{
	cr_assert_eq(sim_dist_to_ns(0), 0);
	cr_assert_eq(sim_dist_to_ns(-0.0), 0);
	cr_assert_eq(sim_dist_to_ns(-5), 0);
	cr_assert_eq(sim_dist_to_ns(-HUGE_VAL), 0);
	cr_assert_eq(sim_dist_to_ns((double)NAN), 0);
	cr_assert_eq(sim_dist_to_ns(0.49), 0);
	cr_assert_eq(sim_dist_to_ns(0.5), 1, "halves round away from zero");
	cr_assert_eq(sim_dist_to_ns(2.4), 2);
	cr_assert_eq(sim_dist_to_ns(2.6), 3);
	cr_assert_eq(sim_dist_to_ns(1e9), 1000000000);
	cr_assert_eq(sim_dist_to_ns(0x1p63), 1ULL << 63);
	cr_assert_eq(sim_dist_to_ns(0x1p64 - 2048), UINT64_MAX - 2047, "largest double below 2^64");
	cr_assert_eq(sim_dist_to_ns(0x1p64), UINT64_MAX);
	cr_assert_eq(sim_dist_to_ns(1e30), UINT64_MAX);
	cr_assert_eq(sim_dist_to_ns(HUGE_VAL), UINT64_MAX);
}

Test(sim_dist, draw_ns_clamps_negative_normal_draws_to_zero)
{
	struct sim_dist d = { SIM_DIST_NORMAL, 0, 1e3 };
	struct sim_rng rng;
	int zeros = 0;

	cr_assert_eq(sim_rng_init(&rng, 1, 0), 0);
	for (int i = 0; i < 1000; i++)
		zeros += sim_dist_draw_ns(&rng, &d) == 0;
	sim_rng_release(&rng);
	/* Half the draws are negative: Binomial(1000, 1/2) has sd 15.8. */
	cr_assert(zeros > 500 - 80 && zeros < 500 + 80, "%d zeros", zeros);
}

Test(sim_dist, validate_accepts_the_documented_ranges_only)
{
	static const struct sim_dist good[] = {
		{ SIM_DIST_FIXED, -1, 0 },
		{ SIM_DIST_EXP, 1, 0 },
		{ SIM_DIST_UNIFORM, 3, 3 },
		{ SIM_DIST_NORMAL, -4, 0 },
		{ SIM_DIST_LOGNORMAL, 1, 0 },
		{ SIM_DIST_PARETO, 0.5, 1 },
	};
	static const struct sim_dist bad[] = {
		{ SIM_DIST_EXP, 0, 0 },
		{ SIM_DIST_EXP, -1, 0 },
		{ SIM_DIST_UNIFORM, 3, 2 },
		{ SIM_DIST_NORMAL, 0, -1 },
		{ SIM_DIST_LOGNORMAL, 0, 1 },
		{ SIM_DIST_LOGNORMAL, 1, -1 },
		{ SIM_DIST_PARETO, 0, 1 },
		{ SIM_DIST_PARETO, 1, 0 },
		{ (enum sim_dist_kind)99, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_assert_eq(sim_dist_validate(&good[i]), 0, "good[%zu]", i);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(sim_dist_validate(&bad[i]), -EINVAL, "bad[%zu]", i);
	cr_assert_eq(sim_dist_validate(&(struct sim_dist){ SIM_DIST_FIXED, HUGE_VAL, 0 }), -EINVAL);
	cr_assert_eq(sim_dist_validate(&(struct sim_dist){ SIM_DIST_NORMAL, 0, (double)NAN }),
		     -EINVAL);
}

/*
 * Lazy streams must draw exactly what eager streams of the same seed and index draw,
 * whatever the first draw's kind (each sampler consumes its own number of uniforms: the
 * ziggurat one or more, the log-normal a Gaussian's), with fixed(v) draws in between that
 * consume nothing, and with other lazy streams reseeding the shared scratch generator
 * between any two draws.
 */
static const struct sim_dist lazy_kinds[] = {
	{ SIM_DIST_EXP, 3e6, 0 },
	{ SIM_DIST_UNIFORM, 1, 5 },
	{ SIM_DIST_NORMAL, 10, 4 },
	{ SIM_DIST_LOGNORMAL, 2e6, 1e6 },
	{ SIM_DIST_PARETO, 1.5, 2 },
	{ SIM_DIST_FIXED, 7, 0 },
};
#define N_KINDS (sizeof(lazy_kinds) / sizeof(lazy_kinds[0]))

/* draw i of stream j: kind (i * 5 + j) mod 6, a raw uniform every seventh */
static double lazy_draw(struct sim_rng *r, int i, int j)
{
	if ((i + j) % 7 == 3)
		return sim_rng_uniform(r);
	return sim_dist_draw(r, &lazy_kinds[(size_t)(i * 5 + j) % N_KINDS]);
}

Test(sim_rng, lazy_streams_draw_what_eager_streams_draw)
{
	enum { NSTREAMS = 8, NDRAWS = 40 };
	gsl_rng *scratch = gsl_rng_alloc(gsl_rng_mt19937);
	struct sim_rng eager[NSTREAMS], lazy[NSTREAMS];

	cr_assert_not_null(scratch);
	for (int j = 0; j < NSTREAMS; j++) {
		cr_assert_eq(sim_rng_init(&eager[j], 42, (uint32_t)(100 + j)), 0);
		sim_rng_init_lazy(&lazy[j], 42, (uint32_t)(100 + j), scratch);
	}
	/* interleaved: every stream's draw i before any stream's draw i + 1 */
	for (int i = 0; i < NDRAWS; i++)
		for (int j = 0; j < NSTREAMS; j++) {
			double want = lazy_draw(&eager[j], i + j, j);
			double got = lazy_draw(&lazy[j], i + j, j);

			cr_assert_eq(got, want, "stream %d draw %d: %.17g, eager %.17g", j, i,
				     got, want);
		}
	for (int j = 0; j < NSTREAMS; j++) {
		sim_rng_release(&eager[j]);
		sim_rng_release(&lazy[j]);
	}
	gsl_rng_free(scratch);
}

Test(sim_rng, lazy_stream_allocates_at_its_second_random_draw)
{
	gsl_rng *scratch = gsl_rng_alloc(gsl_rng_mt19937);
	const struct sim_dist fixed = { SIM_DIST_FIXED, 5, 0 }, e = { SIM_DIST_EXP, 1, 0 };
	struct sim_rng eager, lazy;
	double want;

	cr_assert_not_null(scratch);
	cr_assert_eq(sim_rng_init(&eager, 3, 9), 0);
	sim_rng_init_lazy(&lazy, 3, 9, scratch);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(sim_dist_draw(&lazy, &fixed), 5.0);
	cr_assert_null(lazy.gsl, "fixed draws consume nothing");
	want = sim_dist_draw(&eager, &e);
	cr_assert_eq(sim_dist_draw(&lazy, &e), want);
	cr_assert_null(lazy.gsl, "the first draw is made on the scratch generator");
	/* another stream reseeds the scratch generator in between */
	(void)sim_dist_draw(&(struct sim_rng){ .scratch = scratch, .seed = 3, .index = 10 }, &e);
	want = sim_dist_draw(&eager, &e);
	cr_assert_eq(sim_dist_draw(&lazy, &e), want);
	cr_assert_not_null(lazy.gsl, "the second draw has a state of its own");
	cr_assert_eq(gsl_rng_get(lazy.gsl), gsl_rng_get(eager.gsl));
	sim_rng_release(&lazy);
	sim_rng_release(&lazy);		/* twice is harmless, as for eager streams */
	sim_rng_release(&eager);
	gsl_rng_free(scratch);
}
