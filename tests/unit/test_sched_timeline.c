// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_timeline.c - a queue's timeline (scheduler/timeline.h) in both of its
 * forms, the augmented tree and the sorted array, answers as the timeline it stands for: a
 * set of entities in a total order (the key, then the order of insertion), with the least
 * vruntime and the least slice over them. Checked against a plain sorted list through random
 * adds and removals that cross every limit between the forms many times; then, for the whole
 * scheduler, runs with the array form allowed and forbidden give the same bits.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "tests/unit/sched_test_util.h"
/* the timeline (timeline.h) is internal: no public interface */
#include "scheduler/sched_internal.h"
#include "scheduler/timeline.h"

TestSuite(sched_timeline);

/* The test's order, as a policy's: the key (here the deadline), then the order of insertion. */
static bool less_key(const struct rb_node *a, const struct rb_node *b)
{
	const struct sched_entity *x = sched__se_of(a), *y = sched__se_of(b);

	if (x->deadline != y->deadline)
		return x->deadline < y->deadline;
	return x->qseq < y->qseq;
}

#define NE 40	/* entities: enough to cross TL_SMALL (32) and come back below TL_ARRAY_OUT (3) */

struct model {
	struct cfs_rq q;
	struct sched_entity e[NE];
	bool in[NE];
	struct sched_entity *ref[NE];	/* the timeline as a sorted list */
	unsigned n;
	uint64_t seq;
	unsigned trees, arrays;		/* how often each form was seen after a change */
};

static void ref_add(struct model *m, struct sched_entity *se)
{
	unsigned i = m->n;

	while (i > 0 && less_key(&se->node, &m->ref[i - 1]->node)) {
		m->ref[i] = m->ref[i - 1];
		i--;
	}
	m->ref[i] = se;
	m->n++;
}

static void ref_del(struct model *m, const struct sched_entity *se)
{
	unsigned i = 0;

	while (m->ref[i] != se)
		i++;
	memmove(&m->ref[i], &m->ref[i + 1], (m->n - i - 1) * sizeof(m->ref[0]));
	m->n--;
}

/* The timeline gives what the sorted list says: count, order (first, then each next), minima. */
static void expect_same(struct model *m, bool aug, const char *when)
{
	const struct sched_entity *se = sched__first(&m->q);

	m->trees += m->q.tl_tree;
	m->arrays += !m->q.tl_tree;
	cr_assert_eq(m->q.tl_n, m->n, "%s: count %u, want %u", when, m->q.tl_n, m->n);
	for (unsigned i = 0; i < m->n; i++) {
		cr_assert_eq(se, m->ref[i], "%s: entity %u of %u differs (%s form)", when, i, m->n,
			     m->q.tl_tree ? "tree" : "array");
		se = sched__tl_next(&m->q, se);
	}
	cr_assert_null(se, "%s: an entity after the last", when);
	if (m->q.tl_tree)
		cr_assert_eq(rb_check(&m->q.tree, less_key), 0, "%s: the tree is broken", when);
	if (aug && m->n) {
		sv_t mv = m->ref[0]->vruntime;
		uint64_t ms = m->ref[0]->slice;

		for (unsigned i = 1; i < m->n; i++) {
			if (m->ref[i]->vruntime < mv)
				mv = m->ref[i]->vruntime;
			if (m->ref[i]->slice < ms)
				ms = m->ref[i]->slice;
		}
		cr_assert(sched__tl_min_vruntime(&m->q) == mv, "%s: least vruntime wrong (%s form)",
			  when, m->q.tl_tree ? "tree" : "array");
		cr_assert_eq(sched__tl_min_slice(&m->q), ms, "%s: least slice wrong", when);
	}
}

/*
 * Random adds and removals with a drift that takes the size up towards NE and back, keys and
 * vruntimes drawn from a small range (so that ties on the key, broken by insertion, are
 * common), and sometimes a key changed before the entity leaves (dequeue_entity() does that).
 */
static void random_walk(bool aug, uint64_t seed)
{
	struct model *m = calloc(1, sizeof(*m));
	uint64_t rng = seed;
	char when[64];

	cr_assert_not_null(m);
	sched__tl_init(&m->q);
	m->q.tl_array_ok = true;
	for (int i = 0; i < NE; i++)
		rb_node_clear(&m->e[i].node);
	for (int step = 0; step < 40000; step++) {
		/* grow for 120 steps, shrink for 120: every limit is crossed both ways */
		bool grow = (step / 120) % 2 == 0;
		unsigned pick = stt_lcg(&rng) % NE;
		struct sched_entity *se = &m->e[pick];
		bool add = (stt_lcg(&rng) % 4 != 0) == grow;

		if (add && !m->in[pick]) {
			se->deadline = (sv_t)(stt_lcg(&rng) % 50) << 32;
			se->vruntime = (sv_t)(stt_lcg(&rng) % 70) << 30;
			se->slice = 100000 + stt_lcg(&rng) % 4 * 100000;
			se->qseq = ++m->seq;
			se->on_rq = true;
			sched__tl_add(&m->q, se, less_key, aug);
			ref_add(m, se);
			m->in[pick] = true;
		} else if (!add && m->in[pick]) {
			if (stt_lcg(&rng) % 3 == 0)
				se->deadline -= se->vruntime;	/* made relative, then it leaves */
			sched__tl_del(&m->q, se, less_key, aug);
			ref_del(m, se);
			m->in[pick] = false;
			cr_assert(rb_node_is_clear(&se->node), "a removed entity still looks queued");
		} else {
			continue;
		}
		snprintf(when, sizeof(when), "step %d (%s, %u queued)", step, add ? "add" : "del",
			 m->n);
		expect_same(m, aug, when);
	}
	cr_expect_gt(m->trees, 1000, "the tree form was hardly used");
	cr_expect_gt(m->arrays, 1000, "the array form was hardly used");
	sched__tl_free(&m->q);
	free(m);
}

Test(sched_timeline, both_forms_hold_the_order_and_minima)
{
	random_walk(true, 1);
	random_walk(true, 77);
}

Test(sched_timeline, both_forms_hold_the_order_without_minima)
{
	random_walk(false, 5);
}

/*
 * A key changed while the entity waits to leave (EEVDF's relative deadline on a migration
 * dequeue) does not lose it: the array finds entities by address, as the tree's erase does.
 */
Test(sched_timeline, an_entity_leaves_after_its_key_changed)
{
	struct model *m = calloc(1, sizeof(*m));

	cr_assert_not_null(m);
	sched__tl_init(&m->q);
	m->q.tl_array_ok = true;
	for (int i = 0; i < 10; i++) {
		m->e[i].deadline = (sv_t)(10 + i) << 32;
		m->e[i].vruntime = (sv_t)i << 32;
		m->e[i].slice = 700000;
		m->e[i].qseq = (uint64_t)i + 1;
		m->e[i].on_rq = true;
		sched__tl_add(&m->q, &m->e[i], less_key, true);
		ref_add(m, &m->e[i]);
	}
	cr_assert(!m->q.tl_tree, "10 entities should be an array");
	m->e[4].deadline -= m->e[4].vruntime + ((sv_t)100 << 32);	/* now before every key */
	sched__tl_del(&m->q, &m->e[4], less_key, true);
	ref_del(m, &m->e[4]);
	expect_same(m, true, "after the changed key left");
	sched__tl_free(&m->q);
	free(m);
}

/*
 * The switch's pattern: the first entity leaves and comes back at the end with a later key, as
 * a running thread is put back. The array slides along its buffer and is moved back to the
 * start when it reaches the end (every 54 rounds here); order and minima hold throughout.
 */
Test(sched_timeline, round_robin_slides_the_array)
{
	struct model *m = calloc(1, sizeof(*m));
	char when[48];

	cr_assert_not_null(m);
	sched__tl_init(&m->q);
	m->q.tl_array_ok = true;
	for (int i = 0; i < 10; i++) {
		m->e[i].deadline = (sv_t)(i + 1) << 32;
		m->e[i].vruntime = (sv_t)i << 32;
		m->e[i].slice = 700000;
		m->e[i].qseq = ++m->seq;
		m->e[i].on_rq = true;
		sched__tl_add(&m->q, &m->e[i], less_key, true);
		ref_add(m, &m->e[i]);
	}
	for (int round = 0; round < 300; round++) {
		struct sched_entity *se = m->ref[0];

		sched__tl_del(&m->q, se, less_key, true);
		ref_del(m, se);
		se->vruntime += (sv_t)10 << 32;		/* it ran */
		se->deadline = se->vruntime + ((sv_t)1 << 32);
		se->qseq = ++m->seq;
		sched__tl_add(&m->q, se, less_key, true);
		ref_add(m, se);
		snprintf(when, sizeof(when), "round %d", round);
		cr_assert(!m->q.tl_tree, "%s: 10 entities should be an array", when);
		expect_same(m, true, when);
	}
	sched__tl_free(&m->q);
	free(m);
}

/*
 * What one run did, per thread: CPU time, switches, preemptions, wait, and the entity's exact
 * vruntime and deadline.
 */
#define NT 48

struct outcome {
	struct sched_thread_stats st[NT + 1];
	sv_t v[NT + 1], d[NT + 1];
	unsigned arrays;	/* queues seen in the array form at the samples */
};

/*
 * NT threads of mixed nice values and slices, half in a group of weight 300 and half in the
 * root, on @cpus CPUs, 1 s: at pseudo-random times a pseudo-random thread sleeps or wakes,
 * with the drift of the wakeups changing every 50 ms, so that the queues go from 2 or 3
 * entities to 40 and back. With the invariant checker on after every call.
 */
static void mixed_run(enum sched_policy pol, int cpus, bool array, struct outcome *out)
{
	struct sched_config cfg;
	struct sched *s;
	uint64_t rng = 1234, now = 0;

	sched_config_default(&cfg, pol, cpus);
	cfg.check = true;
	cfg.timeline_array = array;
	s = stt_sched_cfg(&cfg);
	STT_OK(s, sched_tg_new(s, 1, 0, 300, false, 0));
	for (int tid = 1; tid <= NT; tid++) {
		int nice = (int)(stt_lcg(&rng) % 11) - 5;
		uint64_t slice = tid % 5 == 0 ? 300000 + tid * 10000ull : 0;

		STT_OK(s, sched_thread_new(s, tid, tid % 2, nice, slice, 0));
		STT_OK(s, sched_wakeup(s, tid, 0));
	}
	while (now < 995 * STT_MS) {
		int tid = 1 + (int)(stt_lcg(&rng) % NT);
		bool wake_more = (now / (50 * STT_MS)) % 2 == 0;
		bool wake = (stt_lcg(&rng) % 8 != 0) == wake_more;

		now += 20000 + stt_lcg(&rng) % 300000;
		stt_advance(s, now);
		if (wake)
			STT_OK(s, sched_wakeup(s, tid, now));
		else
			STT_OK(s, sched_sleep(s, tid, now));
		for (int c = 0; c < cpus; c++)
			out->arrays += !s->cpu[c].cfs->tl_tree;
	}
	stt_advance(s, 1000 * STT_MS);
	/* an entry point that accounts every CPU to now: the running threads' progress too */
	STT_OK(s, sched_tg_set(s, 1, 300, false, 1000 * STT_MS));
	for (int tid = 1; tid <= NT; tid++) {
		const struct sched_thread *t = sched__thr_get(s, tid);

		cr_assert_eq(sched_thread_stats(s, tid, &out->st[tid]), 0);
		out->v[tid] = t->se.vruntime;
		out->d[tid] = t->se.deadline;
	}
	stt_sched_free();
}

Test(sched_timeline, the_array_form_changes_no_result)
{
	static const enum sched_policy pols[] = { SCHED_POLICY_EEVDF, SCHED_POLICY_CFS,
						  SCHED_POLICY_EEVDF_FLAT };

	for (int p = 0; p < 3; p++) {
		enum sched_policy pol = pols[p];

		for (int cpus = 1; cpus <= 2; cpus++) {
			struct outcome *on = calloc(1, sizeof(*on)), *off = calloc(1, sizeof(*off));
			const char *n = sched_policy_name(pol);
			uint64_t switches = 0;

			cr_assert(on && off);
			mixed_run(pol, cpus, true, on);
			mixed_run(pol, cpus, false, off);
			cr_expect_gt(on->arrays, 100, "[%s, %d CPUs] the array form was not used", n,
				     cpus);
			cr_expect_eq(off->arrays, 0, "[%s, %d CPUs] an array although forbidden", n,
				     cpus);
			for (int tid = 1; tid <= NT; tid++) {
				cr_expect_eq(on->st[tid].sum_exec_ns, off->st[tid].sum_exec_ns,
					     "[%s, %d CPUs] thread %d cpu time", n, cpus, tid);
				cr_expect_eq(on->st[tid].switches, off->st[tid].switches,
					     "[%s, %d CPUs] thread %d switches", n, cpus, tid);
				cr_expect_eq(on->st[tid].wait_ns, off->st[tid].wait_ns,
					     "[%s, %d CPUs] thread %d wait", n, cpus, tid);
				cr_expect(on->v[tid] == off->v[tid] && on->d[tid] == off->d[tid],
					  "[%s, %d CPUs] thread %d virtual times", n, cpus, tid);
				switches += on->st[tid].switches;
			}
			cr_expect_gt(switches, 300, "[%s, %d CPUs] too few switches to tell", n, cpus);
			free(on);
			free(off);
		}
	}
}
