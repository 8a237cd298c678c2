// SPDX-License-Identifier: MIT
/*
 * sim/engine/rng.c - random streams on GSL's MT19937 and the scenario's distributions.
 */
#include "sim/engine/rng.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

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
	uint32_t x = mix32(mix32(index ^ (uint32_t)k) + (uint32_t)(k >> 32));

	/*
	 * gsl_rng_set() on MT19937 replaces a zero seed by 4357 and then keeps
	 * the low 32 bits. 2^32 is non-zero, so it gets past the replacement
	 * and is masked to the true seed 0. Where unsigned long has 32 bits the
	 * expression is 0 and that single index shares 4357's stream.
	 */
	if (x == 0)
		return (unsigned long)UINT32_MAX + 1;
	return x;
}

int sim_rng_init(struct sim_rng *rng, uint64_t seed, uint32_t index)
{
	*rng = (struct sim_rng){ .seed = seed, .index = index };
	rng->gsl = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng->gsl)
		return -ENOMEM;
	gsl_rng_set(rng->gsl, sim_rng_stream_seed(seed, index));
	return 0;
}

void sim_rng_init_lazy(struct sim_rng *rng, uint64_t seed, uint32_t index, gsl_rng *scratch)
{
	assert(scratch && scratch->type == gsl_rng_mt19937);
	*rng = (struct sim_rng){ .scratch = scratch, .seed = seed, .index = index };
}

void sim_rng_release(struct sim_rng *rng)
{
	gsl_rng_free(rng->gsl);		/* accepts NULL */
	rng->gsl = NULL;
}

static double draw_on(gsl_rng *r, const struct sim_dist *dist);

/*
 * The generator the next draw (of @dist, or a raw uniform when @dist is NULL)
 * is made on. For a lazy stream: the scratch generator, freshly seeded, at the
 * first draw; at the second, the stream's own state brought to where an eager
 * stream's is after the first draw. The replay is exact because a sampler's
 * consumption of uniforms depends only on the generator's state and the
 * distribution's parameters, which are those of the first draw.
 */
static gsl_rng *stream_gen(struct sim_rng *rng, const struct sim_dist *dist)
{
	unsigned long s;

	if (rng->gsl)
		return rng->gsl;
	s = sim_rng_stream_seed(rng->seed, rng->index);
	if (rng->ndrawn == 0) {
		rng->ndrawn = 1;
		rng->first_raw = !dist;
		if (dist) {
			rng->first_kind = (uint8_t)dist->kind;
			rng->first_a = dist->a;
			rng->first_b = dist->b;
		}
		gsl_rng_set(rng->scratch, s);
		return rng->scratch;
	}
	rng->gsl = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng->gsl)
		abort();	/* only reached when the program turned GSL's handler off */
	gsl_rng_set(rng->gsl, s);
	if (rng->first_raw)
		(void)gsl_rng_uniform(rng->gsl);
	else
		(void)draw_on(rng->gsl, &(struct sim_dist){ (enum sim_dist_kind)rng->first_kind,
							   rng->first_a, rng->first_b });
	return rng->gsl;
}

double sim_rng_uniform(struct sim_rng *rng)
{
	return gsl_rng_uniform(stream_gen(rng, NULL));
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
	return draw_on(stream_gen(rng, dist), dist);
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
