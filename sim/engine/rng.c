// SPDX-License-Identifier: MIT
/*
 * sim/engine/rng.c - random streams on GSL's taus2 and the scenario's distributions.
 */
#include "sim/engine/rng.h"

#include <assert.h>
#include <errno.h>
#include <math.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/*
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; constants from Vigna's reference code): the first
 * output of a splitmix64 generator whose state is @x. A bijection of uint64_t
 * with full avalanche, so nearby scenario seeds (1, 2, 3...) give unrelated
 * keys.
 */
static uint64_t splitmix64(uint64_t x)
{
	uint64_t z = x + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * MurmurHash3's fmix32 finaliser. Each step (xor with a right shift of
 * itself, multiplication by an odd constant mod 2^32) is invertible, so the
 * whole is a bijection of uint32_t; it also avalanches, so consecutive
 * indices give unrelated seeds.
 */
static uint32_t mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

unsigned long sim_rng_stream_seed(uint64_t seed, uint32_t index)
{
	uint64_t k = splitmix64(seed);

	/*
	 * GSL's taus2 seeding takes x mod 2^32 through Knuth's LCG, x -> 69069 x mod 2^32, three
	 * times (one word each), raising a word below its component's minimum (2, 8, 16). The LCG
	 * is a bijection and each word determines the next, so the state is one-to-one in x but
	 * where the first word is raised: x = 0 (replaced by 1 before) and x = 69069^-1, whose
	 * word 1 becomes 3, the word of x = 3 * 69069^-1. Raised later words keep the first word,
	 * which differs from every other seed's in its 31 bits that the generator uses or, in the
	 * other bit only, gives second words 69069 apart. The unit tests check both exceptions.
	 */
	return mix32(mix32(index ^ (uint32_t)k) + (uint32_t)(k >> 32));
}

int sim_rng_init(struct sim_rng *rng, uint64_t seed, uint32_t index)
{
	gsl_rng g = { gsl_rng_taus2, rng->state };

	*rng = (struct sim_rng){ { 0 } };
	if (gsl_rng_taus2->size > sizeof(rng->state))
		return -ENOTSUP;
	gsl_rng_set(&g, sim_rng_stream_seed(seed, index));
	return 0;
}

/*
 * A gsl_rng is a type and a pointer to its state; GSL's samplers take one. This one is made on
 * the stack for each draw, so the stream itself stays a plain struct that may be copied.
 */
#define STREAM_GEN(rng) (&(gsl_rng){ gsl_rng_taus2, (rng)->state })

double sim_rng_uniform(struct sim_rng *rng)
{
	return gsl_rng_uniform(STREAM_GEN(rng));
}

int sim_dist_validate(const struct sim_dist *dist)
{
	double a = dist->a, b = dist->b;

	if (!isfinite(a) || !isfinite(b))
		return -EINVAL;

	switch (dist->kind) {
	case SIM_DIST_FIXED:
		return 0;
	case SIM_DIST_EXP:
		return a > 0 ? 0 : -EINVAL;
	case SIM_DIST_UNIFORM:
		return a <= b ? 0 : -EINVAL;
	case SIM_DIST_NORMAL:
		return b >= 0 ? 0 : -EINVAL;
	case SIM_DIST_LOGNORMAL:
		return a > 0 && b >= 0 ? 0 : -EINVAL;
	case SIM_DIST_PARETO:
		return a > 0 && b > 0 ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/*
 * The log-normal is parametrised by the mean m and standard deviation s of
 * its value X = exp(Y), Y ~ N(mu, sigma^2). From E[X] = exp(mu + sigma^2/2)
 * and Var[X] = (exp(sigma^2) - 1) E[X]^2:
 *
 *   sigma^2 = ln(1 + s^2/m^2)
 *   mu      = ln m - sigma^2/2 = ln(m^2 / sqrt(s^2 + m^2))
 *
 * log1p() keeps sigma^2 accurate when s is much smaller than m.
 */
static double lognormal_draw(gsl_rng *r, double m, double s)
{
	double cv = s / m;
	double sigma2 = log1p(cv * cv);

	return gsl_ran_lognormal(r, log(m) - sigma2 / 2, sqrt(sigma2));
}

static double draw_on(gsl_rng *r, const struct sim_dist *dist)
{
	switch (dist->kind) {
	case SIM_DIST_FIXED:
		return dist->a;
	case SIM_DIST_EXP:
		return gsl_ran_exponential(r, dist->a);
	case SIM_DIST_UNIFORM:
		return gsl_ran_flat(r, dist->a, dist->b);
	case SIM_DIST_NORMAL:
		/* Marsaglia and Tsang's ziggurat: exact, and faster than Box-Muller. */
		return dist->a + gsl_ran_gaussian_ziggurat(r, dist->b);
	case SIM_DIST_LOGNORMAL:
		return lognormal_draw(r, dist->a, dist->b);
	case SIM_DIST_PARETO:
		/* GSL's gsl_ran_pareto(r, a, b) has density (a/b) / (x/b)^(a+1), x >= b. */
		return gsl_ran_pareto(r, dist->a, dist->b);
	}
	assert(!"unknown distribution kind");
	return (double)NAN;
}

double sim_dist_draw(struct sim_rng *rng, const struct sim_dist *dist)
{
	assert(sim_dist_validate(dist) == 0);

	if (dist->kind == SIM_DIST_FIXED)
		return dist->a;		/* consumes nothing, so needs no state */
	return draw_on(STREAM_GEN(rng), dist);
}

uint64_t sim_dist_to_ns(double x)
{
	/*
	 * 0x1p64 is 2^64, exactly representable. Every double below it is at
	 * most 2^64 - 2048, and round() of such a value still fits.
	 */
	if (!(x > 0))
		return 0;
	if (x >= 0x1p64)
		return UINT64_MAX;
	return (uint64_t)round(x);
}

uint64_t sim_dist_draw_ns(struct sim_rng *rng, const struct sim_dist *dist)
{
	return sim_dist_to_ns(sim_dist_draw(rng, dist));
}

double sim_dist_mean(const struct sim_dist *dist)
{
	switch (dist->kind) {
	case SIM_DIST_FIXED:
	case SIM_DIST_EXP:
	case SIM_DIST_NORMAL:
	case SIM_DIST_LOGNORMAL:
		return dist->a;
	case SIM_DIST_UNIFORM:
		return (dist->a + dist->b) / 2;
	case SIM_DIST_PARETO:
		if (dist->a <= 1)
			return HUGE_VAL;		/* +infinity, as a double */
		return dist->a * dist->b / (dist->a - 1);
	}
	assert(!"unknown distribution kind");
	return (double)NAN;
}
