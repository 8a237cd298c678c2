/* SPDX-License-Identifier: MIT */
/*
 * sim/engine/rng.h - reproducible random streams and the scenario's distributions.
 *
 * Every simulated thread draws from its own stream, a GSL taus2 generator
 * seeded from the scenario seed and the thread's stream index, a hash of its
 * name (sim_rng_stream_seed()).
 * Streams share no state, so a change in what one thread draws (a new
 * behaviour, one more sleep) never shifts the values of another; and within
 * one scenario seed, distinct indices are guaranteed distinct generator seeds.
 *
 * Distributions are drawn with GSL's samplers. Their parameters are in the
 * unit of the value drawn (nanoseconds for durations); sim_dist_draw_ns()
 * turns a draw into a duration. docs/event-engine.md derives the
 * parametrisations.
 *
 * Errors: functions that can fail return 0 or a negative errno.
 */
#ifndef CGSIM_SIM_RNG_H
#define CGSIM_SIM_RNG_H

#include <stdbool.h>
#include <stdint.h>

/**
 * enum sim_dist_kind - the distributions of the scenario format
 * @SIM_DIST_FIXED:     fixed(v): always a = v.
 * @SIM_DIST_EXP:       exp(m): exponential with mean a = m > 0.
 * @SIM_DIST_UNIFORM:   uniform(a, b): uniform on [a, b), a <= b.
 * @SIM_DIST_NORMAL:    normal(m, s): Gaussian with mean a = m, standard
 *                      deviation b = s >= 0.
 * @SIM_DIST_LOGNORMAL: lognormal(m, s): log-normal whose *value* has mean
 *                      a = m > 0 and standard deviation b = s >= 0 (not the
 *                      parameters of the underlying normal).
 * @SIM_DIST_PARETO:    pareto(alpha, xm): Pareto with shape a = alpha > 0 and
 *                      scale (minimum) b = xm > 0; density
 *                      alpha xm^alpha / x^(alpha+1) for x >= xm.
 */
enum sim_dist_kind {
	SIM_DIST_FIXED,
	SIM_DIST_EXP,
	SIM_DIST_UNIFORM,
	SIM_DIST_NORMAL,
	SIM_DIST_LOGNORMAL,
	SIM_DIST_PARETO,
};

/*
 * struct sim_dist - a distribution and its two parameters, meaning as in
 * enum sim_dist_kind. Plain data: copy it, compare it, store it in the
 * scenario. Example: exp(3ms) is
 * (struct sim_dist){ SIM_DIST_EXP, 3e6, 0 }.
 */
struct sim_dist {
	enum sim_dist_kind kind;
	double a;
	double b;
};

/*
 * struct sim_rng - one random stream: the state of a GSL taus2 generator, in place.
 *
 * The words are private to sim/engine/rng.c; the struct is public so that owners can embed it.
 * taus2 (L'Ecuyer's maximally equidistributed combined Tausworthe generator, period 2^88) keeps
 * three words where MT19937 keeps 5 KB, so every stream owns its state from the start and a
 * stream needs neither allocation nor release: copying the struct copies the stream.
 */
struct sim_rng {
	unsigned long state[3];	/* gsl_rng_taus2's state (sim_rng_init() checks the size) */
};

/**
 * sim_rng_stream_seed - the GSL seed of stream @index of scenario seed @seed
 * @seed:  the scenario seed
 * @index: the stream index (a simulated thread's: the hash of its name)
 *
 * GSL seeds taus2 from 32 bits, so only 2^32 streams exist. The seed is
 * x = mix32(mix32(@index ^ k_lo) + k_hi), where k = splitmix64(@seed) and
 * mix32 is MurmurHash3's 32-bit finaliser. For a fixed @seed this is a
 * bijection of @index, and GSL's seeding of taus2 is one-to-one on every seed
 * but 27 (0, which it replaces by 1, and those whose state it must raise to
 * the generator's minima), so two indices share a stream with probability
 * 27 / 2^32 per index; across scenario seeds two streams coincide with
 * probability 2^-32 per pair.
 *
 * Return: the value given to gsl_rng_set().
 */
unsigned long sim_rng_stream_seed(uint64_t seed, uint32_t index);

/**
 * sim_rng_init - set up stream @index of scenario seed @seed
 * @rng:   the stream; the caller owns the struct
 * @seed:  the scenario seed
 * @index: the stream index
 *
 * Return: 0, or -ENOTSUP when the GSL library in use keeps a larger taus2
 * state than struct sim_rng holds (no GSL release has done so).
 */
int sim_rng_init(struct sim_rng *rng, uint64_t seed, uint32_t index);

/**
 * sim_rng_uniform - a uniform draw
 * @rng: the stream
 *
 * Return: a double in [0, 1) (gsl_rng_uniform()).
 */
double sim_rng_uniform(struct sim_rng *rng);

/**
 * sim_dist_validate - check a distribution's parameters
 * @dist: the distribution
 *
 * For the scenario loader: the ranges are those of enum sim_dist_kind, and
 * every parameter must be finite.
 *
 * Return: 0 when @dist can be drawn from, -EINVAL otherwise.
 */
int sim_dist_validate(const struct sim_dist *dist);

/**
 * sim_dist_draw - draw one value of @dist from @rng
 * @rng:  the stream
 * @dist: a distribution that passes sim_dist_validate()
 *
 * Uses one of GSL's samplers (docs/event-engine.md lists which), so the
 * number of uniforms consumed per draw depends on the kind.
 *
 * Return: the value drawn; normal draws may be negative.
 */
double sim_dist_draw(struct sim_rng *rng, const struct sim_dist *dist);

/**
 * sim_dist_draw_ns - draw a duration in ns
 * @rng:  the stream
 * @dist: a distribution of durations in ns
 *
 * Return: sim_dist_draw() rounded to the nearest integer (halves away from
 * zero), with negative values and NaN clamped to 0 and values of 2^64 or
 * more clamped to UINT64_MAX.
 */
uint64_t sim_dist_draw_ns(struct sim_rng *rng, const struct sim_dist *dist);

/**
 * sim_dist_to_ns - the rounding and clamping of sim_dist_draw_ns()
 * @x: a value in ns
 *
 * Return: @x rounded to the nearest integer as a uint64_t, clamped to
 * [0, UINT64_MAX]; 0 for NaN.
 */
uint64_t sim_dist_to_ns(double x);

/**
 * sim_dist_mean - the analytic mean of @dist
 * @dist: a distribution that passes sim_dist_validate()
 *
 * fixed v; exp m; uniform (a + b) / 2; normal m; lognormal m (by
 * construction); pareto alpha xm / (alpha - 1), or +infinity (HUGE_VAL)
 * for alpha <= 1. This is the mean before sim_dist_draw_ns() clamps
 * negative draws to 0.
 *
 * Return: the mean.
 */
double sim_dist_mean(const struct sim_dist *dist);

#endif /* CGSIM_SIM_RNG_H */
