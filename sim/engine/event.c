// SPDX-License-Identifier: MIT
/*
 * sim/engine/event.c - the discrete-event engine.
 *
 * The pending events form a binary min-heap stored as an array of pointers:
 * the children of slot i are slots 2i + 1 and 2i + 2, and no event orders
 * before its parent under before(). Each event records its own slot in
 * ev->index, which is what makes cancelling any event O(log n): the engine
 * finds it without a search, moves the last event into the hole and sifts
 * that one up or down.
 *
 * The sifts move a hole rather than swapping pairs: the moving event is held
 * aside, each displaced event is written once (with its new index), and the
 * moving event is written last. That halves the stores of a swap-based sift.
 */
#include "sim/engine/event.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

/* Smallest heap array, so that small simulations grow once or never. */
#define HEAP_MIN_CAP 64

/*
 * The total order of pending events: time, then sequence number. Plain
 * unsigned comparisons are correct here, unlike the kernel's signed
 * difference for vruntime: the clock saturates at UINT64_MAX instead of
 * wrapping, and a 64-bit sequence counter incremented once per schedule
 * cannot wrap in any run (that would take centuries at 10^9 events/s).
 * Sequence numbers are unique, so two distinct events never compare equal,
 * which makes the firing order independent of the heap's shape.
 */
static inline bool before(const struct sim_event *a, const struct sim_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static inline void place(struct sim_engine *engine, size_t i, struct sim_event *ev)
{
	engine->heap[i] = ev;
	ev->index = i;
}

/* Moves @ev from the hole at @i towards the root while it orders before the parent. */
static void sift_up(struct sim_engine *engine, size_t i, struct sim_event *ev)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		struct sim_event *p = engine->heap[parent];

		if (!before(ev, p))
			break;
		place(engine, i, p);
		i = parent;
	}
	place(engine, i, ev);
}

/* Moves @ev from the hole at @i towards the leaves while a child orders before it. */
static void sift_down(struct sim_engine *engine, size_t i, struct sim_event *ev)
{
	size_t nr = engine->nr;

	for (;;) {
		size_t child = 2 * i + 1;
		struct sim_event *c;

		if (child >= nr)
			break;
		c = engine->heap[child];
		if (child + 1 < nr && before(engine->heap[child + 1], c))
			c = engine->heap[++child];
		if (!before(c, ev))
			break;
		place(engine, i, c);
		i = child;
	}
	place(engine, i, ev);
}

/* Puts @ev, whose key has changed or which has just been put at slot @i, in order. */
static void sift(struct sim_engine *engine, size_t i, struct sim_event *ev)
{
	if (i > 0 && before(ev, engine->heap[(i - 1) / 2]))
		sift_up(engine, i, ev);
	else
		sift_down(engine, i, ev);
}

/* Removes the event at slot @i; the caller marks it idle. */
static void remove_at(struct sim_engine *engine, size_t i)
{
	struct sim_event *last = engine->heap[--engine->nr];

	engine->heap[engine->nr] = NULL;
	if (i < engine->nr)
		sift(engine, i, last);
}

/*
 * Grows the array to hold at least @want pointers. Doubling keeps the
 * amortised cost of an insertion O(1) and means a run allocates O(log n)
 * times in all, never once per event.
 */
static int grow(struct sim_engine *engine, size_t want)
{
	size_t cap = engine->cap ? engine->cap : HEAP_MIN_CAP;
	struct sim_event **heap;

	while (cap < want) {
		if (cap > SIZE_MAX / 2 / sizeof(*heap))
			return -ENOMEM;
		cap *= 2;
	}
	if (cap == engine->cap)
		return 0;
	heap = realloc(engine->heap, cap * sizeof(*heap));
	if (!heap)
		return -ENOMEM;
	engine->heap = heap;
	engine->cap = cap;
	return 0;
}

void sim_engine_init(struct sim_engine *engine)
{
	*engine = (struct sim_engine){ 0 };
}

void sim_engine_release(struct sim_engine *engine)
{
	for (size_t i = 0; i < engine->nr; i++)
		engine->heap[i]->index = SIM_EVENT_IDLE;
	free(engine->heap);
	sim_engine_init(engine);
}

int sim_engine_reserve(struct sim_engine *engine, size_t nr)
{
	return grow(engine, nr);
}

void sim_event_init(struct sim_event *ev, sim_event_fn *fn)
{
	*ev = (struct sim_event){ .index = SIM_EVENT_IDLE, .fn = fn };
}

int sim_schedule(struct sim_engine *engine, struct sim_event *ev, uint64_t time)
{
	assert(time >= engine->now);
	assert(engine->next_seq < UINT64_MAX);

	if (sim_event_pending(ev)) {
		assert(ev->index < engine->nr && engine->heap[ev->index] == ev);
		ev->time = time;
		ev->seq = engine->next_seq++;
		sift(engine, ev->index, ev);
		return 0;
	}

	if (engine->nr == engine->cap) {
		int err = grow(engine, engine->nr + 1);

		if (err)
			return err;
	}
	ev->time = time;
	ev->seq = engine->next_seq++;
	sift_up(engine, engine->nr++, ev);
	return 0;
}

int sim_schedule_in(struct sim_engine *engine, struct sim_event *ev, uint64_t delay)
{
	return sim_schedule(engine, ev, sim_time_add_sat(engine->now, delay));
}

bool sim_cancel(struct sim_engine *engine, struct sim_event *ev)
{
	if (!sim_event_pending(ev))
		return false;
	assert(ev->index < engine->nr && engine->heap[ev->index] == ev);
	remove_at(engine, ev->index);
	ev->index = SIM_EVENT_IDLE;
	return true;
}

bool sim_next(struct sim_engine *engine)
{
	struct sim_event *ev;

	if (!engine->nr)
		return false;
	ev = engine->heap[0];
	remove_at(engine, 0);
	ev->index = SIM_EVENT_IDLE;

	assert(ev->time >= engine->now);
	engine->now = ev->time;
	engine->processed++;
	ev->fn(engine, ev);
	return true;
}

/*
 * libuv's uv__run_timers() moves every due timer to a ready queue before
 * running any, so that a timer started "now" waits for the next loop pass.
 * The (time, seq) order already gives that guarantee here: an event
 * scheduled during a callback gets a larger seq than every event pending at
 * the same time, so it fires after them. A ready queue would add a second
 * place where a due event can sit, which sim_cancel() would have to search.
 */
int sim_run_until(struct sim_engine *engine, uint64_t t_end)
{
	assert(t_end >= engine->now);

	engine->stopped = false;
	while (engine->nr && engine->heap[0]->time <= t_end) {
		if (engine->limit && engine->processed >= engine->limit)
			return -E2BIG;
		sim_next(engine);
		if (engine->stopped) {
			engine->stopped = false;
			return -ECANCELED;
		}
	}
	engine->now = t_end;
	return 0;
}

void sim_stop(struct sim_engine *engine)
{
	engine->stopped = true;
}

int sim_engine_check(const struct sim_engine *engine)
{
	if (engine->nr > engine->cap || (engine->cap && !engine->heap))
		return -EINVAL;

	for (size_t i = 0; i < engine->nr; i++) {
		const struct sim_event *ev = engine->heap[i];

		if (!ev || ev->index != i)
			return -EINVAL;
		if (i > 0 && before(ev, engine->heap[(i - 1) / 2]))
			return -EINVAL;
		if (ev->time < engine->now || ev->seq >= engine->next_seq)
			return -EINVAL;
	}
	return 0;
}
