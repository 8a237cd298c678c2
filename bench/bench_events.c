// SPDX-License-Identifier: MIT
/*
 * bench/bench_events.c - throughput of the event engine.
 *
 *   bench_events [EVENTS [TIMERS...]]     defaults: 10000000 events, 64 and 1024 timers
 *
 * Each of TIMERS recurring timers owns an event and a random stream, and on
 * firing reschedules itself after an interval drawn from exp(1 ms), as a
 * simulated thread does between bursts. The engine fires EVENTS events;
 * the heap then holds TIMERS events at every step. A second measurement
 * times the draws alone, so that the engine's own cost per event is about
 * ns_per_event minus ns_per_draw.
 *
 * Output is one "name: value unit" line per figure.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/engine/event.h"
#include "sim/engine/rng.h"

#define SEED 1

struct timer {
	struct sim_event ev;
	struct sim_rng rng;
};

static const struct sim_dist interval = { SIM_DIST_EXP, 1e6, 0 };	/* exp(1ms) */

static void timer_fire(struct sim_engine *engine, struct sim_event *ev)
{
	struct timer *t = sim_container_of(ev, struct timer, ev);

	/* Cannot fail: the engine reserved room for every timer. */
	sim_schedule_in(engine, ev, sim_dist_draw_ns(&t->rng, &interval));
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SIM_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void report(const char *name, size_t timers, double value, const char *unit)
{
	printf("%s.timers_%zu: %.6g %s\n", name, timers, value, unit);
}

static int bench_timers(size_t nr_timers, uint64_t nr_events)
{
	struct sim_engine engine;
	struct timer *timers;
	uint64_t start, wall, draws_wall, sink = 0;
	size_t ready = 0;
	int err;

	timers = calloc(nr_timers, sizeof(*timers));
	if (!timers)
		return -ENOMEM;
	sim_engine_init(&engine);
	err = sim_engine_reserve(&engine, nr_timers);
	if (err)
		goto out_release;
	for (; ready < nr_timers; ready++) {
		struct timer *t = &timers[ready];

		err = sim_rng_init(&t->rng, SEED, (uint32_t)ready);
		if (err)
			goto out_release;
		sim_event_init(&t->ev, timer_fire);
		sim_schedule(&engine, &t->ev, sim_dist_draw_ns(&t->rng, &interval));
	}

	start = monotonic_ns();
	for (uint64_t i = 0; i < nr_events; i++)
		sim_next(&engine);
	wall = monotonic_ns() - start;

	/* The draws alone, round-robin over the same streams. */
	start = monotonic_ns();
	for (uint64_t i = 0; i < nr_events; i++)
		sink += sim_dist_draw_ns(&timers[i % nr_timers].rng, &interval);
	draws_wall = monotonic_ns() - start;

	if (sim_engine_check(&engine) || sim_engine_processed(&engine) != nr_events) {
		fprintf(stderr, "bench_events: engine invariants broken\n");
		err = -EINVAL;
		goto out_release;
	}

	report("events", nr_timers, (double)nr_events, "events");
	report("wall", nr_timers, (double)wall / 1e9, "s");
	report("events_per_s", nr_timers, (double)nr_events / ((double)wall / 1e9), "events/s");
	report("ns_per_event", nr_timers, (double)wall / (double)nr_events, "ns");
	report("ns_per_draw", nr_timers, (double)draws_wall / (double)nr_events, "ns");
	report("ns_per_event_engine_only", nr_timers,
	       (double)(wall > draws_wall ? wall - draws_wall : 0) / (double)nr_events, "ns");
	report("sim_time_reached", nr_timers, (double)sim_now(&engine) / 1e9, "s");
	/* Printing the sum keeps the draw loop from being optimised away. */
	report("mean_interval", nr_timers, (double)sink / (double)nr_events / 1e6, "ms");

out_release:
	sim_engine_release(&engine);
	free(timers);
	return err;
}

static int parse_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0 || s[0] == '-')
		return -EINVAL;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t default_timers[] = { 64, 1024 };
	uint64_t nr_events = 10 * 1000 * 1000, n;
	int err;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s [EVENTS [TIMERS...]]\n", argv[0]);
		return 0;
	}
	if (argc > 1 && parse_count(argv[1], &nr_events)) {
		fprintf(stderr, "%s: EVENTS must be a positive integer, not '%s'\n", argv[0], argv[1]);
		return 2;
	}

	if (argc <= 2) {
		for (size_t i = 0; i < sizeof(default_timers) / sizeof(default_timers[0]); i++) {
			err = bench_timers(default_timers[i], nr_events);
			if (err)
				goto out_fail;
		}
		return 0;
	}
	for (int i = 2; i < argc; i++) {
		if (parse_count(argv[i], &n) || n > UINT32_MAX) {
			fprintf(stderr, "%s: TIMERS must be a positive integer below 2^32, not '%s'\n",
				argv[0], argv[i]);
			return 2;
		}
		err = bench_timers((size_t)n, nr_events);
		if (err)
			goto out_fail;
	}
	return 0;

out_fail:
	fprintf(stderr, "%s: %s\n", argv[0], strerror(-err));
	return 1;
}
