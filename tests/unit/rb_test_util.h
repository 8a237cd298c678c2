/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/rb_test_util.h - what the red-black tree's suites share: the test item (ordered by
 * (key, id), augmented with the subtree minimum of a second value, as EEVDF keeps it), a
 * seeded random stream, the sorted-array reference and the whole-tree assertions.
 */
#ifndef CGSIM_TESTS_RB_TEST_UTIL_H
#define CGSIM_TESTS_RB_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/rbtree.h"

/*
 * A test element: ordered by (key, id), as the scheduler orders entities by
 * (deadline, id), and augmented with the subtree minimum of @value, as EEVDF
 * keeps min_vruntime.
 */
struct item {
	uint64_t key;
	uint64_t id;
	uint64_t value;
	uint64_t min_value;	/* aggregate: min of value over the subtree */
	struct rb_node node;	/* not the first member, so rb_entry must subtract */
	bool on_tree;
};

/* splitmix64: small, fast, and the same sequence on every platform. */
struct rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound); the modulo bias is irrelevant for tests. */
static inline uint64_t rng_below(struct rng *rng, uint64_t bound)
{
	return rng_next(rng) % bound;
}

static inline struct item *item_of(const struct rb_node *node)
{
	return rb_entry(node, struct item, node);
}

static inline bool item_before(const struct item *a, const struct item *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return a->id < b->id;
}

static inline bool item_less(const struct rb_node *a, const struct rb_node *b)
{
	return item_before(item_of(a), item_of(b));
}

/* An order with ties (key only), to test that equal nodes stay FIFO. */
static inline bool key_less(const struct rb_node *a, const struct rb_node *b)
{
	return item_of(a)->key < item_of(b)->key;
}

/* ---- augmentation: min of value over the subtree ------------------------ */

static inline bool item_compute_min(struct item *it)
{
	uint64_t min = it->value;

	if (it->node.left) {
		const struct item *l = item_of(it->node.left);

		if (l->min_value < min)
			min = l->min_value;
	}
	if (it->node.right) {
		const struct item *r = item_of(it->node.right);

		if (r->min_value < min)
			min = r->min_value;
	}
	if (it->min_value == min)
		return false;
	it->min_value = min;
	return true;
}

RB_DECLARE_CALLBACKS(static, item_min_cb, struct item, node, min_value,
		     item_compute_min);

/*
 * Recompute the subtree minimum below @node from scratch and count the nodes
 * whose stored aggregate disagrees.  Returns the true minimum (UINT64_MAX for
 * an empty subtree).
 */
static inline uint64_t brute_min(const struct rb_node *node, size_t *wrong)
{
	const struct item *it;
	uint64_t min, sub;

	if (!node)
		return UINT64_MAX;
	it = item_of(node);
	min = it->value;
	sub = brute_min(node->left, wrong);
	if (sub < min)
		min = sub;
	sub = brute_min(node->right, wrong);
	if (sub < min)
		min = sub;
	if (it->min_value != min)
		(*wrong)++;
	return min;
}

static inline size_t count_wrong_aggregates(const struct rb_root_cached *root)
{
	size_t wrong = 0;

	brute_min(root->root, &wrong);
	return wrong;
}

/*
 * The EEVDF pick pattern: the smallest (key, id) among the items whose value
 * is <= @limit, in O(log n).  The tree is sorted by key, so if the left
 * subtree holds any qualifying item (its minimum is <= limit) the answer is
 * there; otherwise it is this node if it qualifies, otherwise in the right
 * subtree.  Each step descends one level, never backtracks.
 */
static inline struct item *pick_first_within(const struct rb_root_cached *root,
				      uint64_t limit)
{
	struct rb_node *node = root->root;

	while (node) {
		struct item *it = item_of(node);

		if (node->left && item_of(node->left)->min_value <= limit)
			node = node->left;
		else if (it->value <= limit)
			return it;
		else if (node->right && item_of(node->right)->min_value <= limit)
			node = node->right;
		else
			return NULL;
	}
	return NULL;
}

/* ---- the reference: a sorted array of item pointers --------------------- */

struct ref {
	struct item **v;
	size_t n;
};

static inline void ref_init(struct ref *ref, size_t capacity)
{
	ref->v = calloc(capacity ? capacity : 1, sizeof(*ref->v));
	cr_assert_not_null(ref->v);
	ref->n = 0;
}

static inline void ref_release(struct ref *ref)
{
	free(ref->v);
	ref->v = NULL;
	ref->n = 0;
}

/* First position whose item is not before @it. */
static inline size_t ref_lower_bound(const struct ref *ref, const struct item *it)
{
	size_t lo = 0, hi = ref->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (item_before(ref->v[mid], it))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Returns the position @it was inserted at. */
static inline size_t ref_insert(struct ref *ref, struct item *it)
{
	size_t pos = ref_lower_bound(ref, it);

	memmove(&ref->v[pos + 1], &ref->v[pos], (ref->n - pos) * sizeof(*ref->v));
	ref->v[pos] = it;
	ref->n++;
	return pos;
}

static inline void ref_erase(struct ref *ref, const struct item *it)
{
	size_t pos = ref_lower_bound(ref, it);

	cr_assert(pos < ref->n && ref->v[pos] == it,
		  "item %llu/%llu missing from the reference",
		  (unsigned long long)it->key, (unsigned long long)it->id);
	memmove(&ref->v[pos], &ref->v[pos + 1], (ref->n - pos - 1) * sizeof(*ref->v));
	ref->n--;
}

/* ---- whole-tree assertions ---------------------------------------------- */

static inline void assert_valid(const struct rb_root_cached *root, rb_less_fn *less,
			 size_t step)
{
	int ret = rb_check(root, less);

	cr_assert_eq(ret, RB_CHECK_OK, "step %zu: rb_check() = %d: %s",
		     step, ret, rb_check_describe(ret));
}

/*
 * The tree is valid and its in-order walk, both ways, is exactly the
 * reference.  O(n).
 */
static inline void assert_matches(const struct rb_root_cached *root,
			   const struct ref *ref, size_t step)
{
	const struct rb_node *node;
	size_t i = 0;

	assert_valid(root, item_less, step);
	for (node = rb_first_cached(root); node; node = rb_next(node)) {
		if (i >= ref->n || item_of(node) != ref->v[i])
			break;
		i++;
	}
	cr_assert(!node && i == ref->n,
		  "step %zu: forward walk differs from the reference at %zu of %zu",
		  step, i, ref->n);

	i = ref->n;
	for (node = rb_last(root); node; node = rb_prev(node)) {
		if (i == 0 || item_of(node) != ref->v[i - 1])
			break;
		i--;
	}
	cr_assert(!node && i == 0,
		  "step %zu: backward walk differs from the reference at %zu",
		  step, i);
}

/* O(1) checks worth making after every single step. */
static inline void assert_ends(const struct rb_root_cached *root, const struct ref *ref,
			size_t step)
{
	struct rb_node *first = rb_first_cached(root);

	if (ref->n == 0) {
		cr_assert(first == NULL && rb_is_empty(root),
			  "step %zu: empty reference, non-empty tree", step);
		return;
	}
	cr_assert(first && item_of(first) == ref->v[0],
		  "step %zu: cached leftmost is not the minimum", step);
}

/* Items 0..n-1 with key = 10 * i and id = i, values spread by @seed. */
static inline struct item *make_items(size_t n, uint64_t seed)
{
	struct item *items = calloc(n, sizeof(*items));
	struct rng rng = { seed };
	size_t i;

	cr_assert_not_null(items);
	for (i = 0; i < n; i++) {
		items[i].key = 10 * (uint64_t)i;
		items[i].id = i;
		items[i].value = rng_below(&rng, 1000);
		rb_node_clear(&items[i].node);
	}
	return items;
}

/* Fisher-Yates shuffle of an index permutation. */
static inline size_t *make_order(size_t n, struct rng *rng)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	size_t i;

	cr_assert_not_null(order);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(rng, i);
		size_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	return order;
}

/*
 * Insert the items in @order, then erase them in @erase_order, checking the
 * whole tree after every step.  @leftmost_expected, if not NULL, is what each
 * rb_add_cached() must return.
 */
static inline void run_sequence(struct item *items, size_t n, const size_t *order,
			 const size_t *erase_order, const bool *leftmost_expected)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct ref ref;
	size_t step;

	ref_init(&ref, n);
	for (step = 0; step < n; step++) {
		struct item *it = &items[order[step]];
		bool leftmost = rb_add_cached(&it->node, &root, item_less);
		size_t pos = ref_insert(&ref, it);

		cr_assert_eq(leftmost, pos == 0,
			     "step %zu: rb_add_cached() returned %d at position %zu",
			     step, leftmost, pos);
		if (leftmost_expected)
			cr_assert_eq(leftmost, leftmost_expected[step]);
		assert_matches(&root, &ref, step);
	}
	for (step = 0; step < n; step++) {
		struct item *it = &items[erase_order[step]];

		rb_erase_cached(&it->node, &root);
		ref_erase(&ref, it);
		assert_matches(&root, &ref, n + step);
	}
	cr_assert(rb_is_empty(&root) && rb_first_cached(&root) == NULL);
	ref_release(&ref);
}

#endif /* CGSIM_TESTS_RB_TEST_UTIL_H */
