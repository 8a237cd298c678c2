/* SPDX-License-Identifier: MIT */
/*
 * sim/engine/event.h - the discrete-event engine: an integer-nanosecond clock and an
 * intrusive binary min-heap of pending events.
 *
 * The engine never allocates an event. Each owner (a thread, a CPU, the
 * timeline) embeds a struct sim_event in its own struct, initialises it once
 * with sim_event_init(), and gets back to itself in the callback with
 * sim_container_of(). The engine only owns its heap array, an array of
 * pointers to the pending events that grows geometrically; see
 * docs/event-engine.md for why an array rather than libuv's pointer heap.
 *
 * Ordering invariant: pending events are totally ordered by the key
 * (time, seq), where seq is taken from a per-engine counter that increases
 * by one on every sim_schedule(). Two events due at the same nanosecond
 * therefore fire in the order they were (last) scheduled, and an event
 * scheduled "now" from inside a callback fires after every event already
 * pending at "now".
 *
 * Time is uint64_t nanoseconds since the start of the simulation, never a
 * double: sums of doubles lose nanoseconds after 2^53 ns (104 days) and are
 * not associative, which would make runs depend on the order of additions.
 * UINT64_MAX (584 years) is the "never" that saturating arithmetic clamps to.
 *
 * Errors: functions that can fail return 0 or a negative errno.
 */
#ifndef CGSIM_SIM_EVENT_H
#define CGSIM_SIM_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Nanoseconds in one microsecond, millisecond and second. */
#define SIM_NSEC_PER_USEC	1000ULL
#define SIM_NSEC_PER_MSEC	1000000ULL
#define SIM_NSEC_PER_SEC	1000000000ULL

/**
 * sim_container_of - the struct that embeds @ptr as its member @member
 * @ptr:    pointer to the member
 * @type:   type of the embedding struct
 * @member: name of the member inside @type
 *
 * The usual container_of(): subtracts the member's offset. @ptr must really
 * point into a @type; nothing checks it.
 */
#define sim_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct sim_engine;
struct sim_event;

/**
 * typedef sim_event_fn - an event's callback
 * @engine: the engine that fired the event; sim_now(@engine) is the event's time
 * @ev:     the event, no longer pending when the callback starts
 *
 * The callback may schedule, reschedule and cancel any event of @engine,
 * @ev included, and may free the struct that embeds @ev once @ev is not
 * pending. It must not call sim_engine_release() or sim_run_until().
 */
typedef void sim_event_fn(struct sim_engine *engine, struct sim_event *ev);

/*
 * struct sim_event - a node of the engine's heap, embedded in its owner.
 *
 * Every field is private to sim/engine/event.c: read them through sim_event_time()
 * and sim_event_pending(). The struct is public only so that owners can
 * embed it and know its size (libuv's habit).
 */
struct sim_event {
	uint64_t time;		/* due time in ns; valid while pending */
	uint64_t seq;		/* tie-breaker: the engine's counter at scheduling */
	size_t index;		/* slot in engine->heap, or SIM_EVENT_IDLE */
	sim_event_fn *fn;	/* called when the event fires */
};

/* The heap index of an event that is not pending. */
#define SIM_EVENT_IDLE SIZE_MAX

/*
 * struct sim_engine - the clock and the heap of pending events.
 *
 * Private to sim/engine/event.c except through the functions below. The heap is
 * an array of nr pointers; heap[i]->index == i for every i, and no event
 * orders before its parent heap[(i - 1) / 2] (sim_engine_check()).
 */
struct sim_engine {
	struct sim_event **heap;	/* array of cap slots, nr in use */
	size_t nr;
	size_t cap;
	uint64_t now;			/* time of the last event fired, or of sim_run_until() */
	uint64_t next_seq;		/* seq of the next sim_schedule() */
	uint64_t processed;		/* callbacks run so far */
	uint64_t limit;			/* sim_run_until() fires no more (0: none) */
	bool stopped;			/* set by sim_stop(), cleared by sim_run_until() */
};

/**
 * sim_time_add_sat - add two times or durations, clamping at UINT64_MAX
 * @a: a time or duration in ns
 * @b: a time or duration in ns
 *
 * Return: @a + @b, or UINT64_MAX when the sum does not fit.
 */
static inline uint64_t sim_time_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/**
 * sim_engine_init - set up an empty engine at time 0
 * @engine: the engine; the caller owns the struct
 *
 * Allocates nothing: the heap array is allocated on the first
 * sim_schedule() or by sim_engine_reserve().
 */
void sim_engine_init(struct sim_engine *engine);

/**
 * sim_engine_release - free the engine's heap array
 * @engine: an engine set up by sim_engine_init()
 *
 * Events still pending are dropped and marked idle, so their owners may
 * schedule them on another engine or free them. The struct itself is the
 * caller's; after this call it is as if freshly initialised, time included.
 */
void sim_engine_release(struct sim_engine *engine);

/**
 * sim_engine_reserve - make room for @nr pending events
 * @engine: the engine
 * @nr:     number of events that may be pending at once
 *
 * After a successful call, sim_schedule() cannot fail while at most @nr
 * events are pending. A simulation knows its events up front (one or two per
 * thread and CPU, one for the timeline) and should reserve them at setup.
 *
 * Return: 0, or -ENOMEM (the engine is unchanged).
 */
int sim_engine_reserve(struct sim_engine *engine, size_t nr);

/**
 * sim_event_init - prepare an event embedded in its owner
 * @ev: the event; owned by the caller, typically a member of a larger struct
 * @fn: the callback to run when @ev fires
 *
 * @ev starts idle (not pending). Initialise an event only when it is not
 * pending: a pending event is linked into its engine's heap.
 */
void sim_event_init(struct sim_event *ev, sim_event_fn *fn);

/**
 * sim_schedule - make @ev fire at @time, or move it there if already pending
 * @engine: the engine
 * @ev:     an initialised event, idle or pending on @engine
 * @time:   absolute due time in ns; must not be before sim_now(@engine)
 *
 * @ev takes the next sequence number, so it fires after every other event
 * due at @time that is already pending, whether @ev was pending or not.
 * Rescheduling a pending event sifts it in place and never allocates.
 * Scheduling in the past is a programming error and fails an assertion.
 * The engine keeps a pointer to @ev until it fires or is cancelled: the
 * owner must not free or re-initialise it meanwhile.
 *
 * Return: 0, or -ENOMEM when the heap array had to grow and could not (@ev
 * is then left as it was). Never fails within sim_engine_reserve()'s room.
 */
int sim_schedule(struct sim_engine *engine, struct sim_event *ev, uint64_t time);

/**
 * sim_schedule_in - sim_schedule() at sim_now() + @delay, clamped at UINT64_MAX
 * @engine: the engine
 * @ev:     an initialised event, idle or pending on @engine
 * @delay:  delay in ns from now
 *
 * Return: as sim_schedule().
 */
int sim_schedule_in(struct sim_engine *engine, struct sim_event *ev, uint64_t delay);

/**
 * sim_cancel - remove @ev from the pending events
 * @engine: the engine
 * @ev:     an initialised event, idle or pending on @engine
 *
 * O(log n). Cancelling an idle event (one that already fired, was cancelled
 * or was never scheduled) does nothing. The callback of a cancelled event
 * is not called.
 *
 * Return: true when @ev was pending.
 */
bool sim_cancel(struct sim_engine *engine, struct sim_event *ev);

/**
 * sim_event_pending - whether @ev is scheduled and has not yet fired
 * @ev: an initialised event
 *
 * An event is not pending while its own callback runs, until the callback
 * schedules it again.
 *
 * Return: true when pending.
 */
static inline bool sim_event_pending(const struct sim_event *ev)
{
	return ev->index != SIM_EVENT_IDLE;
}

/**
 * sim_event_time - the time @ev is (or was last) due
 * @ev: an event that has been scheduled at least once
 *
 * Return: the due time in ns.
 */
static inline uint64_t sim_event_time(const struct sim_event *ev)
{
	return ev->time;
}

/**
 * sim_now - the engine's clock
 * @engine: the engine
 *
 * Return: the time of the event being (or last) fired, or the end time of
 * the last sim_run_until() that reached it, in ns.
 */
static inline uint64_t sim_now(const struct sim_engine *engine)
{
	return engine->now;
}

/**
 * sim_engine_set_limit - bound the number of events an engine fires
 * @engine: the engine
 * @max:    the most callbacks sim_run_until() may run in the engine's life; 0: no bound
 *
 * A run's cost is bounded by the events it fires (each does O(log n) work on the heap and a
 * bounded amount in its owner), so this is how a caller bounds the work a hostile or mistaken
 * input can ask for. sim_next() ignores it.
 */
static inline void sim_engine_set_limit(struct sim_engine *engine, uint64_t max)
{
	engine->limit = max;
}

/**
 * sim_engine_processed - the number of events fired so far
 * @engine: the engine
 *
 * Return: the number of callbacks run (or being run) since sim_engine_init().
 */
static inline uint64_t sim_engine_processed(const struct sim_engine *engine)
{
	return engine->processed;
}

/**
 * sim_engine_pending - the number of pending events
 * @engine: the engine
 *
 * Return: the number of events scheduled and not yet fired or cancelled.
 */
static inline size_t sim_engine_pending(const struct sim_engine *engine)
{
	return engine->nr;
}

/**
 * sim_peek - the event that fires next, in O(1)
 * @engine: the engine
 *
 * Return: the pending event with the smallest (time, seq), still pending
 * and owned as before; NULL when nothing is pending.
 */
static inline struct sim_event *sim_peek(const struct sim_engine *engine)
{
	return engine->nr ? engine->heap[0] : NULL;
}

/**
 * sim_next - fire the next event
 * @engine: the engine
 *
 * Removes the pending event with the smallest (time, seq), advances the
 * clock to its time, counts it and calls its callback. O(log n) plus the
 * callback.
 *
 * Return: true when an event was fired, false when nothing was pending.
 */
bool sim_next(struct sim_engine *engine);

/**
 * sim_run_until - fire every event due at or before @t_end, in order
 * @engine: the engine
 * @t_end:  the end time in ns; must not be before sim_now(@engine)
 *
 * Events that callbacks schedule at or before @t_end fire in the same call.
 * A model that keeps rescheduling an event at "now" therefore never returns
 * unless the engine has a limit (sim_engine_set_limit()): the (time, seq)
 * order makes such an event take turns with the other events due now rather
 * than starve them, but the clock cannot move past it.
 *
 * Return: 0 when every event due by @t_end has fired; the clock then reads
 * @t_end. -ECANCELED when a callback called sim_stop(); the clock then reads
 * the time of that callback's event, and a later call resumes the run.
 * -E2BIG when the engine's limit of events is reached with one still due;
 * the clock reads the time of the last event fired.
 */
int sim_run_until(struct sim_engine *engine, uint64_t t_end);

/**
 * sim_stop - make the running sim_run_until() return after this callback
 * @engine: the engine
 *
 * For a callback that meets an error it cannot return (a failed timeline
 * operation, a broken invariant). Outside a callback it has no effect:
 * sim_run_until() clears the request on entry.
 */
void sim_stop(struct sim_engine *engine);

/**
 * sim_engine_check - verify the heap's invariants
 * @engine: the engine
 *
 * Checks in O(n) that every slot holds an event whose index is that slot,
 * that no event orders before its parent, that no pending event is due
 * before sim_now() and that every sequence number was handed out. Meant for
 * tests and debug runs, after any operation.
 *
 * Return: 0 when all hold, -EINVAL otherwise.
 */
int sim_engine_check(const struct sim_engine *engine);

#endif /* CGSIM_SIM_EVENT_H */
