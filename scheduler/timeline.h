// SPDX-License-Identifier: MIT
/*
 * scheduler/timeline.h - a queue's timeline (the kernel's cfs_rq->tasks_timeline): its queued
 * entities other than curr, in the policy's order, with (EEVDF) the minimum vruntime and the
 * minimum slice over them. docs/scheduler.md, "The timeline".
 *
 * The kernel keeps it in an augmented red-black tree. Where a queue holds a dozen entities (16
 * busy threads a CPU, say), the tree's upkeep costs more than the work it saves: an insert
 * walks down and rebalances, an erase refreshes the aggregates up the path, and every step is
 * a dependent load. So a timeline of TL_ARRAY_IN to TL_SMALL entities is a sorted array instead,
 * with its aggregates kept as suffix minima (tl_fix_before()). Below that the tree stays: a queue
 * of one to a few entities (a group's queue on one CPU) costs the tree little, and an array
 * would be memory of its own to touch at every pick, where the tree's nodes are the entities
 * themselves. Above it the tree keeps every operation O(log n) whatever the load. The limits
 * of each form are apart (TL_ARRAY_OUT, TL_BACK), so that a queue that hovers at one does not
 * convert at every change.
 *
 * Both forms hold the same entities in the same order, and every question asked of a timeline
 * (the first, the one after an entity, the minima, the leftmost entity satisfying a condition)
 * has the same answer from either: the order is total (ties are broken by the order of
 * insertion), so nothing depends on the form or the shape in which it is stored.
 *
 * Everything here is inline, included by the policies (eevdf.c, cfs.c) only: each passes its
 * own order as a constant, so the comparisons and the tree's callbacks are compiled into its
 * operations as the kernel's rb_add_cached() does, not called through pointers. Only the
 * policies add to and take from a timeline; other files read it through sched_internal.h
 * (sched__first(), sched__tl_min_vruntime(), sched__tl_min_slice()) and sched_check().
 */
#ifndef CGSIM_SCHEDULER_TIMELINE_H
#define CGSIM_SCHEDULER_TIMELINE_H

#include <stdlib.h>
#include <string.h>

#include "scheduler/sched_internal.h"

/* The slow paths stay out of line: inlined, they would cost the common path its registers. */
#if defined(__GNUC__)
#define tl_noinline __attribute__((noinline))
#else
#define tl_noinline
#endif

/*
 * The forms' limits: a tree that grows to TL_ARRAY_IN entities becomes an array, and one that
 * shrinks to TL_BACK (it was larger than TL_SMALL) too; an array that would grow beyond
 * TL_SMALL becomes a tree, and one that shrinks to TL_ARRAY_OUT too.
 */
#define TL_ARRAY_IN	7
#define TL_ARRAY_OUT	3
#define TL_SMALL	32
#define TL_BACK		16

/*
 * The array slides in a buffer of twice its largest size: taking out the first entry moves
 * where it starts instead of moving the rest, and an entry added at the end goes after the
 * last; only when the end of the buffer is reached is the array moved back to its start, at
 * most once every TL_BUF - TL_SMALL additions.
 */
#define TL_BUF		(2 * TL_SMALL)

/* ---- the tree's aggregate (EEVDF) ---- */

/* (*@v, *@sl) becomes the least of itself and (@ov, @osl), member by member. */
static inline void tl_min2(sv_t *v, uint64_t *sl, sv_t ov, uint64_t osl)
{
	if (ov < *v)
		*v = ov;
	if (osl < *sl)
		*sl = osl;
}

static inline bool tl_aug_compute(struct sched_entity *se)
{
	sv_t minv = se->vruntime;
	uint64_t mins = se->slice;

	if (se->node.left)
		tl_min2(&minv, &mins, sched__se_of(se->node.left)->min_vruntime,
			sched__se_of(se->node.left)->min_slice);
	if (se->node.right)
		tl_min2(&minv, &mins, sched__se_of(se->node.right)->min_vruntime,
			sched__se_of(se->node.right)->min_slice);
	if (se->min_vruntime == minv && se->min_slice == mins)
		return false;
	se->min_vruntime = minv;
	se->min_slice = mins;
	return true;
}

/* The aggregate is a pair; RB_DECLARE_CALLBACKS copies one member, so write them out. */
static inline void tl_aug_propagate(struct rb_node *rb, struct rb_node *stop)
{
	while (rb != stop) {
		struct sched_entity *se = sched__se_of(rb);

		if (!tl_aug_compute(se))
			break;
		rb = rb_parent(&se->node);
	}
}

static inline void tl_aug_copy(struct rb_node *o, struct rb_node *n)
{
	sched__se_of(n)->min_vruntime = sched__se_of(o)->min_vruntime;
	sched__se_of(n)->min_slice = sched__se_of(o)->min_slice;
}

static inline void tl_aug_rotate(struct rb_node *o, struct rb_node *n)
{
	tl_aug_copy(o, n);
	(void)tl_aug_compute(sched__se_of(o));
}

static const struct rb_augment_callbacks tl_aug_cb = {
	.propagate = tl_aug_propagate,
	.copy = tl_aug_copy,
	.rotate = tl_aug_rotate,
};

static inline void tl_tree_insert(struct cfs_rq *q, struct sched_entity *se, rb_less_fn *less,
				  bool aug)
{
	if (aug) {
		se->min_vruntime = se->vruntime;
		se->min_slice = se->slice;
		rb_add_augmented_cached(&se->node, &q->tree, less, &tl_aug_cb);
	} else {
		rb_add_cached(&se->node, &q->tree, less);
	}
}

/* The tree's erase (tl_n already counts it out). */
static inline void tl_erase(struct cfs_rq *q, struct sched_entity *se, bool aug)
{
	if (aug)
		rb_erase_augmented_cached(&se->node, &q->tree, &tl_aug_cb);
	else
		rb_erase_cached(&se->node, &q->tree);
	rb_node_clear(&se->node);
	q->tl_first = q->tl_n ? sched__se_of(rb_first_cached(&q->tree)) : NULL;
}

/* ---- the array ---- */

/* An entity in the array is marked as in a timeline (sched_check() asks rb_node_is_clear()). */
static inline void tl_mark_in(struct sched_entity *se)
{
	se->node.parent_color = 0;
}

/*
 * The minima of the array kept as suffix minima: tl[i].min_v is the least vruntime of
 * tl[i..n-1] (and min_slice likewise), so tl[0] holds the whole array's, and they do not
 * increase along it. Taking out the first entity (what a switch does) leaves the others'
 * right; adding an entity changes the entries before it only until one already holds as
 * little (an entity that just ran, put back at the end, changes none). tl_fix_before() brings
 * tl[0..i-1] up to date from tl[i] on, stopping at the first entry that does not change.
 */
static inline void tl_fix_before(struct cfs_rq *q, unsigned i)
{
	while (i-- > 0) {
		struct sched_tl_ent *e = &q->tl[i];
		sv_t v = e->se->vruntime;
		uint64_t sl = e->se->slice;

		if (i + 1 < q->tl_n)
			tl_min2(&v, &sl, e[1].min_v, e[1].min_slice);
		if (e->min_v == v && e->min_slice == sl)
			return;
		e->min_v = v;
		e->min_slice = sl;
	}
}

/* Where @se belongs in the array by its key: after every entity before it in the order. */
static inline unsigned tl_small_index(const struct cfs_rq *q, const struct sched_entity *se,
				      rb_less_fn *less)
{
	unsigned lo = 0, hi = q->tl_n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (less(&q->tl[mid].se->node, &se->node))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Where @se is in the array: by its address, since a key may change before the entity leaves
 * (dequeue_entity() makes an EEVDF deadline relative first, as the kernel does; its tree's
 * erase needs no key either). The first place is the usual one (set_next_entity()).
 */
static inline unsigned tl_small_find(const struct cfs_rq *q, const struct sched_entity *se)
{
	unsigned i = 0;

	while (i < q->tl_n && q->tl[i].se != se)
		i++;
	return i;
}

/*
 * The array, allocated the first time the timeline takes that form; false when memory ran out
 * (the timeline stays a tree).
 */
static inline bool tl_small_reserve(struct cfs_rq *q)
{
	if (!q->tl_buf) {
		q->tl_buf = aligned_alloc(_Alignof(struct sched_tl_ent), TL_BUF * sizeof(q->tl[0]));
		if (!q->tl_buf)
			return false;
		q->tl_cap = TL_BUF;
	}
	q->tl = q->tl_buf;
	return true;
}

/* Room for one more entry after the array's last: move it back to the buffer's start. */
static inline void tl_small_room(struct cfs_rq *q)
{
	if (q->tl + q->tl_n == q->tl_buf + q->tl_cap) {
		memmove(q->tl_buf, q->tl, q->tl_n * sizeof(q->tl[0]));
		q->tl = q->tl_buf;
	}
}

/* A tree's aggregates from scratch, bottom-up (after plain inserts). */
static inline void tl_aug_rebuild(struct rb_node *n)
{
	struct sched_entity *se;

	if (!n)
		return;
	tl_aug_rebuild(n->left);
	tl_aug_rebuild(n->right);
	se = sched__se_of(n);
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	(void)tl_aug_compute(se);
}

/*
 * The array becomes the tree: linked without the aggregates, which are then computed once
 * (the augmented insert stays at one call site, sched__tl_add(), where it is inlined).
 */
static inline void tl_to_tree(struct cfs_rq *q, rb_less_fn *less, bool aug)
{
	for (unsigned i = 0; i < q->tl_n; i++)
		rb_add_cached(&q->tl[i].se->node, &q->tree, less);
	if (aug)
		tl_aug_rebuild(q->tree.root);
	q->tl_tree = true;
	q->tl_first = q->tl_n ? sched__se_of(rb_first_cached(&q->tree)) : NULL;
}

/* The tree becomes the array, in order (unless memory for it ran out). */
static inline void tl_to_small(struct cfs_rq *q, bool aug)
{
	unsigned i = 0;

	if (!tl_small_reserve(q))
		return;
	for (struct rb_node *n = rb_first_cached(&q->tree); n; n = rb_next(n))
		q->tl[i++].se = sched__se_of(n);
	/* only now: rb_next() climbs by the parent links that tl_mark_in() overwrites */
	for (i = 0; i < q->tl_n; i++)
		tl_mark_in(q->tl[i].se);
	rb_root_init(&q->tree);
	q->tl_tree = false;
	q->tl_first = q->tl_n ? q->tl[0].se : NULL;
	/* every suffix minimum, from the end */
	for (unsigned k = q->tl_n; aug && k-- > 0;) {
		struct sched_tl_ent *e = &q->tl[k];

		e->min_v = e->se->vruntime;
		e->min_slice = e->se->slice;
		if (k + 1 < q->tl_n)
			tl_min2(&e->min_v, &e->min_slice, e[1].min_v, e[1].min_slice);
	}
}

/* ---- the interface ---- */

/*
 * The array's insert, and the conversions to and from it: out of line, so that the tree's
 * path in sched__tl_add() stays as small as the kernel's rb_add_cached().
 */
static tl_noinline void tl_add_slow(struct cfs_rq *q, struct sched_entity *se,
				    rb_less_fn *less, bool aug)
{
	unsigned n = q->tl_n, i;
	struct sched_tl_ent *e;

	if (q->tl_tree) {		/* the tree reaches TL_ARRAY_IN */
		tl_tree_insert(q, se, less, aug);
		q->tl_n = n + 1;
		if (q->tl_array_ok)
			tl_to_small(q, aug);
		if (q->tl_tree)		/* not wanted, or no memory for it */
			q->tl_first = sched__se_of(rb_first_cached(&q->tree));
		return;
	}
	if (n == TL_SMALL) {		/* the array is full */
		tl_to_tree(q, less, aug);
		tl_tree_insert(q, se, less, aug);
		q->tl_n = n + 1;
		q->tl_first = sched__se_of(rb_first_cached(&q->tree));
		return;
	}
	/* most entities join at the end (their key is the latest): try that first */
	tl_small_room(q);
	if (!n || !less(&se->node, &q->tl[n - 1].se->node)) {
		i = n;
	} else {
		i = tl_small_index(q, se, less);
		memmove(&q->tl[i + 1], &q->tl[i], (n - i) * sizeof(q->tl[0]));
	}
	q->tl_n = n + 1;
	e = &q->tl[i];
	e->se = se;
	q->tl_first = q->tl[0].se;
	tl_mark_in(se);
	if (aug) {
		e->min_v = se->vruntime;
		e->min_slice = se->slice;
		if (i < n)
			tl_min2(&e->min_v, &e->min_slice, e[1].min_v, e[1].min_slice);
		/*
		 * An insert only lowers the minima before it, and none of them moves when the
		 * entry before already holds no more than the new one: the usual case (an entity
		 * put back at the end after it ran), decided without reading that entity.
		 */
		if (i > 0 && e[-1].min_v <= e->min_v && e[-1].min_slice <= e->min_slice)
			return;
		tl_fix_before(q, i);
	}
}

static tl_noinline void tl_del_slow(struct cfs_rq *q, struct sched_entity *se,
				    rb_less_fn *less, bool aug)
{
	unsigned i;

	if (q->tl_tree) {		/* the tree shrinks to TL_BACK */
		tl_erase(q, se, aug);
		if (q->tl_array_ok)
			tl_to_small(q, aug);
		return;
	}
	i = tl_small_find(q, se);
	if (i == 0)
		q->tl++;	/* the first leaves (a switch): the rest stay where they are */
	else
		memmove(&q->tl[i], &q->tl[i + 1], (q->tl_n - i) * sizeof(q->tl[0]));
	q->tl_first = q->tl_n ? q->tl[0].se : NULL;
	rb_node_clear(&se->node);
	if (aug)
		tl_fix_before(q, i);
	if (q->tl_n == TL_ARRAY_OUT)
		tl_to_tree(q, less, aug);
}

/* sched__tl_add() - add @se (its key set) in the order @less; @aug: keep the minima (EEVDF). */
static inline void sched__tl_add(struct cfs_rq *q, struct sched_entity *se, rb_less_fn *less,
				 bool aug)
{
	if (q->tl_tree && q->tl_n + 1 != TL_ARRAY_IN) {
		tl_tree_insert(q, se, less, aug);
		q->tl_n++;
		q->tl_first = sched__se_of(rb_first_cached(&q->tree));
		return;
	}
	tl_add_slow(q, se, less, aug);
}

/*
 * sched__tl_del() - take @se out. Its vruntime and slice must be what they were when it was
 * added (the minima); its key need not be.
 */
static inline void sched__tl_del(struct cfs_rq *q, struct sched_entity *se, rb_less_fn *less,
				 bool aug)
{
	q->tl_n--;
	if (q->tl_tree && q->tl_n != TL_BACK) {
		tl_erase(q, se, aug);
		return;
	}
	tl_del_slow(q, se, less, aug);
}

/* sched__tl_next() - the entity after @se in the timeline, or NULL. */
static inline struct sched_entity *sched__tl_next(const struct cfs_rq *q,
						  const struct sched_entity *se)
{
	struct rb_node *n;
	unsigned i;

	if (q->tl_tree) {
		n = rb_next(&se->node);
		return n ? sched__se_of(n) : NULL;
	}
	i = tl_small_find(q, se) + 1;
	return i < q->tl_n ? q->tl[i].se : NULL;
}

#endif
