// SPDX-License-Identifier: MIT
/*
 * Unit tests of the event engine (sim/engine/event.h).
 *
 * Events are embedded in a test struct, as the simulator embeds them in
 * threads and CPUs, and callbacks recover it with sim_container_of(). Every
 * test releases its engine; sim_engine_check() runs after each mutation.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/event.h"

#define MAX_FIRED 64

/* What the callbacks record: ids in firing order, with the clock at each. */
struct trace {
	int ids[MAX_FIRED];
	uint64_t times[MAX_FIRED];
	int n;
};

/* An owner with an embedded event, plus a script for its callback. */
struct probe {
	int id;
	struct trace *trace;
	struct sim_event ev;
	/* Optional actions run by the callback. */
	struct probe *schedule_now;	/* schedule this one at sim_now() */
	struct probe *cancel;		/* cancel this one */
	int repeat;			/* reschedule itself this many more times... */
	uint64_t period;		/* ...this far apart */
	bool stop;			/* call sim_stop() */
};

static void probe_fire(struct sim_engine *engine, struct sim_event *ev)
{
	struct probe *p = sim_container_of(ev, struct probe, ev);
	struct trace *t = p->trace;

	cr_assert_lt(t->n, MAX_FIRED);
	cr_assert_not(sim_event_pending(ev), "an event is idle in its own callback");
	cr_assert_eq(sim_now(engine), sim_event_time(ev));
	t->ids[t->n] = p->id;
	t->times[t->n] = sim_now(engine);
	t->n++;

	if (p->schedule_now)
		cr_assert_eq(sim_schedule(engine, &p->schedule_now->ev, sim_now(engine)), 0);
	if (p->cancel)
		sim_cancel(engine, &p->cancel->ev);
	if (p->repeat > 0) {
		p->repeat--;
		cr_assert_eq(sim_schedule_in(engine, ev, p->period), 0);
	}
	if (p->stop)
		sim_stop(engine);
	cr_assert_eq(sim_engine_check(engine), 0);
}

static void probes_init(struct probe *p, int n, struct trace *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		p[i] = (struct probe){ .id = i, .trace = t };
		sim_event_init(&p[i].ev, probe_fire);
	}
}

static void schedule_checked(struct sim_engine *e, struct probe *p, uint64_t time)
{
	cr_assert_eq(sim_schedule(e, &p->ev, time), 0);
	cr_assert(sim_event_pending(&p->ev));
	cr_assert_eq(sim_engine_check(e), 0);
}

static void expect_trace(const struct trace *t, const int *ids, int n)
{
	cr_assert_eq(t->n, n, "fired %d events, expected %d", t->n, n);
	for (int i = 0; i < n; i++)
		cr_assert_eq(t->ids[i], ids[i], "event %d: fired id %d, expected %d",
			     i, t->ids[i], ids[i]);
}

Test(sim_event, fresh_engine_is_empty_at_time_zero)
{
	struct sim_engine e;

	sim_engine_init(&e);
	cr_assert_eq(sim_now(&e), 0);
	cr_assert_eq(sim_engine_pending(&e), 0);
	cr_assert_eq(sim_engine_processed(&e), 0);
	cr_assert_null(sim_peek(&e));
	cr_assert_not(sim_next(&e));
	cr_assert_eq(sim_engine_check(&e), 0);
	sim_engine_release(&e);
}

Test(sim_event, fires_in_time_then_fifo_order)
{
	static const uint64_t times[] = { 30, 10, 20, 10, 0, 30, 10 };
	static const int order[] = { 4, 1, 3, 6, 2, 0, 5 };
	struct sim_engine e;
	struct probe p[7];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 7, &t);
	for (int i = 0; i < 7; i++)
		schedule_checked(&e, &p[i], times[i]);
	cr_assert_eq(sim_peek(&e), &p[4].ev, "peek is the earliest event");

	cr_assert_eq(sim_run_until(&e, 100), 0);
	expect_trace(&t, order, 7);
	for (int i = 0; i < 7; i++)
		cr_assert_eq(t.times[i], times[order[i]]);
	cr_assert_eq(sim_engine_processed(&e), 7);
	cr_assert_eq(sim_now(&e), 100, "the clock reads t_end after the run");
	sim_engine_release(&e);
}

Test(sim_event, equal_times_fire_in_scheduling_order)
{
	enum { N = 40 };
	struct sim_engine e;
	struct probe p[N];
	struct trace t;
	int order[N];

	sim_engine_init(&e);
	probes_init(p, N, &t);
	/* Schedule in a scrambled id order; they must fire in that same order. */
	for (int i = 0; i < N; i++) {
		order[i] = (i * 17) % N;
		schedule_checked(&e, &p[order[i]], 5);
	}
	while (sim_next(&e))
		cr_assert_eq(sim_engine_check(&e), 0);
	expect_trace(&t, order, N);
	sim_engine_release(&e);
}

Test(sim_event, run_until_stops_at_t_end_inclusive)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	schedule_checked(&e, &p[0], 10);
	schedule_checked(&e, &p[1], 20);
	schedule_checked(&e, &p[2], 21);

	cr_assert_eq(sim_run_until(&e, 20), 0);
	expect_trace(&t, (int[]){ 0, 1 }, 2);
	cr_assert_eq(sim_now(&e), 20);
	cr_assert(sim_event_pending(&p[2].ev));
	cr_assert_eq(sim_engine_pending(&e), 1);

	cr_assert_eq(sim_run_until(&e, 20), 0, "running to now again does nothing");
	cr_assert_eq(t.n, 2);
	cr_assert_eq(sim_run_until(&e, 1000), 0);
	expect_trace(&t, (int[]){ 0, 1, 2 }, 3);
	cr_assert_eq(sim_now(&e), 1000);
	sim_engine_release(&e);
}

Test(sim_event, cancel_head_middle_and_last)
{
	enum { N = 15 };
	struct sim_engine e;
	struct probe p[N];
	struct trace t;
	int expected[N], n = 0;

	sim_engine_init(&e);
	probes_init(p, N, &t);
	/*
	 * Times 0..14 in id order never sift, so id i sits in slot i: id 0 is
	 * the head, id 14 the last slot, and id 5 an inner node with children.
	 */
	for (int i = 0; i < N; i++)
		schedule_checked(&e, &p[i], (uint64_t)i);
	cr_assert_eq(e.heap[e.nr - 1], &p[14].ev, "id 14 is in the last slot");

	cr_assert(sim_cancel(&e, &p[0].ev), "cancel the head");
	cr_assert_eq(sim_engine_check(&e), 0);
	cr_assert_eq(sim_peek(&e), &p[1].ev);
	cr_assert(sim_cancel(&e, &p[14].ev), "cancel the last slot");
	cr_assert_eq(sim_engine_check(&e), 0);
	cr_assert(sim_cancel(&e, &p[5].ev), "cancel from the middle");
	cr_assert_eq(sim_engine_check(&e), 0);
	cr_assert_eq(sim_engine_pending(&e), N - 3);

	for (int i = 0; i < 3; i++)
		cr_assert_not(sim_event_pending(&p[(int[]){ 0, 14, 5 }[i]].ev));
	cr_assert_not(sim_cancel(&e, &p[5].ev), "a second cancel is a no-op");

	cr_assert_eq(sim_run_until(&e, 100), 0);
	for (int i = 0; i < N; i++)
		if (i != 0 && i != 5 && i != 14)
			expected[n++] = i;
	expect_trace(&t, expected, n);
	sim_engine_release(&e);
}

Test(sim_event, cancel_of_idle_events_does_nothing)
{
	struct sim_engine e;
	struct probe p[2];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 2, &t);
	cr_assert_not(sim_cancel(&e, &p[0].ev), "never scheduled");
	schedule_checked(&e, &p[0], 1);
	cr_assert(sim_next(&e));
	cr_assert_not(sim_cancel(&e, &p[0].ev), "already fired");
	cr_assert_eq(sim_engine_check(&e), 0);
	sim_engine_release(&e);
}

Test(sim_event, only_pending_event_cancels_to_empty)
{
	struct sim_engine e;
	struct probe p[1];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 1, &t);
	schedule_checked(&e, &p[0], 7);
	cr_assert(sim_cancel(&e, &p[0].ev));
	cr_assert_eq(sim_engine_pending(&e), 0);
	cr_assert_null(sim_peek(&e));
	cr_assert_eq(sim_engine_check(&e), 0);
	cr_assert_eq(sim_run_until(&e, 10), 0);
	cr_assert_eq(t.n, 0, "a cancelled event never fires");
	sim_engine_release(&e);
}

Test(sim_event, reschedule_moves_a_pending_event)
{
	struct sim_engine e;
	struct probe p[4];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 4, &t);
	for (int i = 0; i < 4; i++)
		schedule_checked(&e, &p[i], 10 * (uint64_t)(i + 1));	/* 10 20 30 40 */

	schedule_checked(&e, &p[3], 5);		/* last to first: sifts up */
	cr_assert_eq(sim_peek(&e), &p[3].ev);
	schedule_checked(&e, &p[3], 35);	/* first to third: sifts down */
	schedule_checked(&e, &p[0], 50);	/* head to last */
	cr_assert_eq(sim_engine_pending(&e), 4, "rescheduling does not duplicate");
	cr_assert_eq(sim_event_time(&p[0].ev), 50);

	cr_assert_eq(sim_run_until(&e, 100), 0);
	expect_trace(&t, (int[]){ 1, 2, 3, 0 }, 4);
	sim_engine_release(&e);
}

Test(sim_event, reschedule_at_same_time_goes_behind_peers)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	for (int i = 0; i < 3; i++)
		schedule_checked(&e, &p[i], 10);
	schedule_checked(&e, &p[0], 10);	/* same time, new sequence number */
	cr_assert_eq(sim_run_until(&e, 10), 0);
	expect_trace(&t, (int[]){ 1, 2, 0 }, 3);
	sim_engine_release(&e);
}

Test(sim_event, callback_scheduling_at_now_runs_after_pending_peers)
{
	struct sim_engine e;
	struct probe p[4];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 4, &t);
	/* 0 and 1 are due at 10; 0's callback schedules 3 at 10, then 1 fires. */
	p[0].schedule_now = &p[3];
	schedule_checked(&e, &p[0], 10);
	schedule_checked(&e, &p[1], 10);
	schedule_checked(&e, &p[2], 11);
	cr_assert_eq(sim_run_until(&e, 20), 0);
	expect_trace(&t, (int[]){ 0, 1, 3, 2 }, 4);
	cr_assert_eq(t.times[2], 10, "the event scheduled at now fires at now");
	sim_engine_release(&e);
}

Test(sim_event, callback_rescheduling_itself_at_now_takes_turns)
{
	struct sim_engine e;
	struct probe p[2];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 2, &t);
	/* Both reschedule themselves at now twice: they alternate, neither starves. */
	for (int i = 0; i < 2; i++) {
		p[i].repeat = 2;
		p[i].period = 0;
		schedule_checked(&e, &p[i], 3);
	}
	cr_assert_eq(sim_run_until(&e, 3), 0);
	expect_trace(&t, (int[]){ 0, 1, 0, 1, 0, 1 }, 6);
	sim_engine_release(&e);
}

Test(sim_event, callback_reschedules_itself_periodically)
{
	struct sim_engine e;
	struct probe p[1];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 1, &t);
	p[0].repeat = 4;
	p[0].period = 25;
	schedule_checked(&e, &p[0], 0);
	cr_assert_eq(sim_run_until(&e, 1000), 0);
	cr_assert_eq(t.n, 5);
	for (int i = 0; i < 5; i++)
		cr_assert_eq(t.times[i], 25 * (uint64_t)i);
	cr_assert_eq(sim_engine_processed(&e), 5);
	sim_engine_release(&e);
}

/*
 * The event limit bounds a run that never ends by itself (an event rescheduled at now): the
 * run stops with -E2BIG after exactly the limit, the clock at the last event fired, and a
 * raised limit lets it go on where it stopped.
 */
Test(sim_event, limit_stops_a_run_after_that_many_events)
{
	struct sim_engine e;
	struct probe p[1];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 1, &t);
	p[0].repeat = 5;
	p[0].period = 10;
	schedule_checked(&e, &p[0], 0);
	sim_engine_set_limit(&e, 3);
	cr_assert_eq(sim_run_until(&e, 1000), -E2BIG);
	cr_assert_eq(sim_engine_processed(&e), 3);
	cr_assert_eq(sim_now(&e), 20, "the clock stays at the last event fired");
	sim_engine_set_limit(&e, 0);
	cr_assert_eq(sim_run_until(&e, 1000), 0);
	cr_assert_eq(t.n, 6);
	cr_assert_eq(sim_now(&e), 1000);
	sim_engine_release(&e);
}

Test(sim_event, callback_cancels_peer_due_at_same_time)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	p[0].cancel = &p[1];
	for (int i = 0; i < 3; i++)
		schedule_checked(&e, &p[i], 8);
	cr_assert_eq(sim_run_until(&e, 8), 0);
	expect_trace(&t, (int[]){ 0, 2 }, 2);
	sim_engine_release(&e);
}

Test(sim_event, callback_cancelling_itself_is_harmless)
{
	struct sim_engine e;
	struct probe p[1];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 1, &t);
	p[0].cancel = &p[0];
	schedule_checked(&e, &p[0], 1);
	cr_assert_eq(sim_run_until(&e, 2), 0);
	expect_trace(&t, (int[]){ 0 }, 1);
	sim_engine_release(&e);
}

Test(sim_event, stop_ends_the_run_at_the_callbacks_time)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	p[1].stop = true;
	for (int i = 0; i < 3; i++)
		schedule_checked(&e, &p[i], 10 * (uint64_t)(i + 1));
	cr_assert_eq(sim_run_until(&e, 100), -ECANCELED);
	cr_assert_eq(sim_now(&e), 20);
	expect_trace(&t, (int[]){ 0, 1 }, 2);
	cr_assert_eq(sim_run_until(&e, 100), 0, "a later call resumes");
	expect_trace(&t, (int[]){ 0, 1, 2 }, 3);
	sim_engine_release(&e);
}

Test(sim_event, schedule_in_saturates_at_uint64_max)
{
	struct sim_engine e;
	struct probe p[2];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 2, &t);
	cr_assert_eq(sim_run_until(&e, UINT64_MAX - 10), 0);
	cr_assert_eq(sim_schedule_in(&e, &p[0].ev, 100), 0);
	cr_assert_eq(sim_event_time(&p[0].ev), UINT64_MAX);
	cr_assert_eq(sim_schedule(&e, &p[1].ev, UINT64_MAX), 0);
	cr_assert_eq(sim_run_until(&e, UINT64_MAX), 0);
	expect_trace(&t, (int[]){ 0, 1 }, 2);
	cr_assert_eq(sim_now(&e), UINT64_MAX);
	sim_engine_release(&e);
}

Test(sim_event, time_add_sat_clamps_only_on_overflow)
{
	cr_assert_eq(sim_time_add_sat(1, 2), 3);
	cr_assert_eq(sim_time_add_sat(UINT64_MAX - 1, 1), UINT64_MAX);
	cr_assert_eq(sim_time_add_sat(UINT64_MAX - 1, 2), UINT64_MAX);
	cr_assert_eq(sim_time_add_sat(UINT64_MAX, UINT64_MAX), UINT64_MAX);
	cr_assert_eq(sim_time_add_sat(0, UINT64_MAX), UINT64_MAX);
}

Test(sim_event, reserve_makes_room_without_further_growth)
{
	enum { N = 1000 };
	struct sim_engine e;
	struct probe *p = calloc(N, sizeof(*p));
	struct trace t;
	struct sim_event **heap;

	cr_assert_not_null(p);
	sim_engine_init(&e);
	probes_init(p, N, &t);
	cr_assert_eq(sim_engine_reserve(&e, N), 0);
	heap = e.heap;
	for (int i = 0; i < N; i++)
		cr_assert_eq(sim_schedule(&e, &p[i].ev, (uint64_t)(N - i)), 0);
	cr_assert_eq(e.heap, heap, "no reallocation within the reserved room");
	cr_assert_eq(sim_engine_check(&e), 0);
	sim_engine_release(&e);
	free(p);
}

Test(sim_event, release_leaves_pending_events_idle)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	for (int i = 0; i < 3; i++)
		schedule_checked(&e, &p[i], 5);
	sim_engine_release(&e);
	for (int i = 0; i < 3; i++)
		cr_assert_not(sim_event_pending(&p[i].ev));
	cr_assert_eq(sim_engine_pending(&e), 0);
	cr_assert_eq(sim_engine_check(&e), 0);

	/* The engine is reusable after release, from time 0. */
	schedule_checked(&e, &p[0], 0);
	cr_assert(sim_next(&e));
	sim_engine_release(&e);
}

Test(sim_event, check_detects_broken_heap)
{
	struct sim_engine e;
	struct probe p[3];
	struct trace t;
	struct sim_event *tmp;

	sim_engine_init(&e);
	probes_init(p, 3, &t);
	for (int i = 0; i < 3; i++)
		schedule_checked(&e, &p[i], (uint64_t)i);

	/* The only test that reaches inside: break each invariant, restore it. */
	tmp = e.heap[0];
	e.heap[0] = e.heap[1];
	e.heap[1] = tmp;
	cr_assert_neq(sim_engine_check(&e), 0, "swapped slots break the back-pointers");
	e.heap[0]->index = 0;
	e.heap[1]->index = 1;
	cr_assert_neq(sim_engine_check(&e), 0, "a child before its parent");
	e.heap[1] = e.heap[0];
	e.heap[0] = tmp;
	e.heap[0]->index = 0;
	e.heap[1]->index = 1;
	cr_assert_eq(sim_engine_check(&e), 0);
	p[2].ev.index = 0;
	cr_assert_neq(sim_engine_check(&e), 0, "a wrong back-pointer");
	p[2].ev.index = 2;
	cr_assert_eq(sim_engine_check(&e), 0);
	sim_engine_release(&e);
}

/*
 * The assertion is caught rather than left to kill the test: POSIX lets a
 * SIGABRT handler that does not return stop abort(), so the handler jumps
 * back here and the test ends normally, releasing everything. (A test that
 * dies by the signal would leave Criterion's buffers for valgrind to report.)
 * Criterion captures stderr, so the expected assertion message stays out of the log.
 */
static sigjmp_buf abort_jmp;

static void abort_handler(int sig)
{
	(void)sig;
	siglongjmp(abort_jmp, 1);
}

Test(sim_event, schedule_in_the_past_fails_an_assertion, .init = cr_redirect_stderr)
{
	struct sigaction sa = { .sa_handler = abort_handler }, old;
	struct sim_engine e;
	struct sim_event ev;
	volatile bool aborted = false;

#ifdef NDEBUG
	cr_skip_test("assertions are compiled out");
#endif
	sim_engine_init(&e);
	sim_event_init(&ev, NULL);
	cr_assert_eq(sim_run_until(&e, 10), 0);

	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGABRT, &sa, &old), 0);
	if (sigsetjmp(abort_jmp, 1) == 0)
		sim_schedule(&e, &ev, 9);
	else
		aborted = true;
	cr_assert_eq(sigaction(SIGABRT, &old, NULL), 0);

	cr_assert(aborted, "scheduling at 9 when the clock reads 10 must assert");
	cr_assert_not(sim_event_pending(&ev));
	cr_assert_eq(sim_engine_check(&e), 0);
	sim_engine_release(&e);
}

/* ---- randomised comparison against a sorted-array model ------------------ */

/*
 * The model keeps the pending events as (time, seq, id) sorted ascending,
 * mirroring the engine's order: each schedule takes the next sequence number,
 * exactly as sim_schedule() does. Insertion and removal are O(n) memmoves,
 * which is fine for a few hundred pending events.
 */
struct model_entry {
	uint64_t time;
	uint64_t seq;
	int id;
};

struct model {
	struct model_entry *v;
	int n;
	uint64_t next_seq;
	int fired;			/* id of the last event fired, or -1 */
};

struct slot {
	struct sim_event ev;
	int id;
	struct model *model;
};

static uint64_t rand_state;

/* splitmix64 as the test's own generator, independent of sim/rng. */
static uint64_t rand_next(void)
{
	uint64_t z = (rand_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rand_below(uint64_t n)
{
	return rand_next() % n;
}

static bool entry_before(const struct model_entry *a, const struct model_entry *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static int model_find(const struct model *m, int id)
{
	for (int i = 0; i < m->n; i++)
		if (m->v[i].id == id)
			return i;
	return -1;
}

static void model_remove(struct model *m, int id)
{
	int i = model_find(m, id);

	if (i < 0)
		return;
	memmove(&m->v[i], &m->v[i + 1], (size_t)(m->n - i - 1) * sizeof(m->v[0]));
	m->n--;
}

static void model_schedule(struct model *m, int id, uint64_t time)
{
	struct model_entry x = { time, m->next_seq++, id };
	int i;

	model_remove(m, id);
	for (i = m->n; i > 0 && entry_before(&x, &m->v[i - 1]); i--)
		;
	memmove(&m->v[i + 1], &m->v[i], (size_t)(m->n - i) * sizeof(m->v[0]));
	m->v[i] = x;
	m->n++;
}

static void slot_fire(struct sim_engine *engine, struct sim_event *ev)
{
	struct slot *s = sim_container_of(ev, struct slot, ev);

	(void)engine;
	s->model->fired = s->id;
}

Test(sim_event, random_operations_match_sorted_model)
{
	enum { SLOTS = 500, OPS = 100000 };
	struct sim_engine e;
	struct model m = { .fired = -1 };
	struct slot *slots = calloc(SLOTS, sizeof(*slots));

	cr_assert_not_null(slots);
	m.v = calloc(SLOTS, sizeof(*m.v));
	cr_assert_not_null(m.v);
	rand_state = 42;
	sim_engine_init(&e);
	for (int i = 0; i < SLOTS; i++) {
		slots[i].id = i;
		slots[i].model = &m;
		sim_event_init(&slots[i].ev, slot_fire);
	}

	for (int op = 0; op < OPS; op++) {
		uint64_t r = rand_below(100);
		int id = (int)rand_below(SLOTS);

		if (r < 45) {
			/*
			 * Schedule or reschedule. Small delays (with many
			 * zeroes) make equal times, and so the FIFO rule, common.
			 */
			uint64_t delay = rand_below(4) == 0 ? 0 : rand_below(50);
			uint64_t time = sim_now(&e) + delay;

			cr_assert_eq(sim_schedule(&e, &slots[id].ev, time), 0);
			model_schedule(&m, id, time);
		} else if (r < 70) {
			bool was = model_find(&m, id) >= 0;

			cr_assert_eq(sim_cancel(&e, &slots[id].ev), was, "op %d: cancel %d", op, id);
			model_remove(&m, id);
		} else {
			/* Fire the next event: both must agree on which. */
			m.fired = -1;
			if (m.n == 0) {
				cr_assert_not(sim_next(&e));
			} else {
				struct model_entry head = m.v[0];

				cr_assert_eq(sim_peek(&e), &slots[head.id].ev);
				model_remove(&m, head.id);
				cr_assert(sim_next(&e));
				cr_assert_eq(m.fired, head.id, "op %d: fired %d, model says %d",
					     op, m.fired, head.id);
				cr_assert_eq(sim_now(&e), head.time);
			}
		}

		cr_assert_eq(sim_engine_pending(&e), (size_t)m.n);
		for (int k = 0; k < 4; k++) {
			int probe = (int)rand_below(SLOTS);

			cr_assert_eq(sim_event_pending(&slots[probe].ev), model_find(&m, probe) >= 0);
		}
		if (op % 16 == 0)
			cr_assert_eq(sim_engine_check(&e), 0, "op %d", op);
	}

	/* Drain: the remaining events fire in the model's order. */
	while (m.n > 0) {
		int want = m.v[0].id;

		model_remove(&m, want);
		cr_assert(sim_next(&e));
		cr_assert_eq(m.fired, want);
	}
	cr_assert_not(sim_next(&e));
	cr_assert_eq(sim_engine_check(&e), 0);

	sim_engine_release(&e);
	free(m.v);
	free(slots);
}
