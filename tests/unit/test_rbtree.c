// SPDX-License-Identifier: MIT
/*
 * test_rbtree.c - the red-black tree against a sorted-array reference.
 *
 * Every sequence is checked with rb_check() (shape, colours, order, cached
 * leftmost) and by comparing the in-order walk with a sorted array of the
 * same items.  The augmented tests keep, as EEVDF does, the minimum of a
 * second value over each subtree, recompute it by brute force after every
 * operation, and use it to prune the "smallest key whose value is <= x"
 * search that pick_eevdf() makes.
 *
 * This is the tree's low-level suite, with test_rbtree_check.c (broken trees
 * made on purpose); the helpers both use are in rb_test_util.h.  All
 * randomness comes from fixed seeds.
 */
#include "tests/unit/rb_test_util.h"

/* ---- plain tree --------------------------------------------------------- */

Test(rbtree, empty_tree_is_valid)
{
	struct rb_root_cached root = RB_ROOT_CACHED;

	cr_assert(rb_is_empty(&root));
	cr_assert_null(rb_first_cached(&root));
	cr_assert_null(rb_first(&root));
	cr_assert_null(rb_last(&root));
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_OK);

	rb_root_init(&root);
	cr_assert(rb_is_empty(&root));
}

Test(rbtree, single_node_is_first_last_and_alone)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item it = { .key = 7 };

	cr_assert(rb_add_cached(&it.node, &root, item_less));
	cr_assert_eq(rb_first_cached(&root), &it.node);
	cr_assert_eq(rb_first(&root), &it.node);
	cr_assert_eq(rb_last(&root), &it.node);
	cr_assert_null(rb_next(&it.node));
	cr_assert_null(rb_prev(&it.node));
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_OK);
	rb_erase_cached(&it.node, &root);
	cr_assert(rb_is_empty(&root));
	cr_assert_null(rb_first_cached(&root));
}

Test(rbtree, ascending_insert_then_ascending_erase)
{
	enum { N = 2000 };
	struct item *items = make_items(N, 1);
	size_t *order = malloc(N * sizeof(*order));
	bool *expect = malloc(N * sizeof(*expect));
	size_t i;

	cr_assert(order && expect);
	for (i = 0; i < N; i++) {
		order[i] = i;
		expect[i] = i == 0;	/* only the first walk never turns right */
	}
	/* Erasing ascending always removes the cached leftmost. */
	run_sequence(items, N, order, order, expect);
	free(expect);
	free(order);
	free(items);
}

Test(rbtree, descending_insert_then_descending_erase)
{
	enum { N = 2000 };
	struct item *items = make_items(N, 2);
	size_t *order = malloc(N * sizeof(*order));
	bool *expect = malloc(N * sizeof(*expect));
	size_t i;

	cr_assert(order && expect);
	for (i = 0; i < N; i++) {
		order[i] = N - 1 - i;
		expect[i] = true;	/* each new item is the smallest so far */
	}
	run_sequence(items, N, order, order, expect);
	free(expect);
	free(order);
	free(items);
}

Test(rbtree, random_insert_then_random_erase)
{
	enum { N = 3000 };
	struct rng rng = { 3 };
	struct item *items = make_items(N, 3);
	size_t *order = make_order(N, &rng);
	size_t *erase_order = make_order(N, &rng);

	run_sequence(items, N, order, erase_order, NULL);
	free(erase_order);
	free(order);
	free(items);
}

Test(rbtree, duplicate_keys_ordered_by_id)
{
	enum { N = 1500 };
	struct rng rng = { 4 };
	struct item *items = make_items(N, 4);
	size_t *order = make_order(N, &rng);
	size_t *erase_order = make_order(N, &rng);
	size_t i;

	/* Eight distinct keys: nearly every comparison is a tie on key. */
	for (i = 0; i < N; i++)
		items[i].key = rng_below(&rng, 8);
	run_sequence(items, N, order, erase_order, NULL);
	free(erase_order);
	free(order);
	free(items);
}

Test(rbtree, equal_keys_keep_insertion_order)
{
	enum { N = 600, KEYS = 4 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(N, 5);
	struct rng rng = { 5 };
	const struct rb_node *node;
	uint64_t last_key = 0, last_id = 0;
	size_t i, seen = 0;

	/* Ids follow insertion order; the tree is told only about keys. */
	for (i = 0; i < N; i++) {
		items[i].key = rng_below(&rng, KEYS);
		rb_add_cached(&items[i].node, &root, key_less);
	}
	cr_assert_eq(rb_check(&root, key_less), RB_CHECK_OK);
	/* Remove every third item: erase must not reorder equals either. */
	for (i = 0; i < N; i += 3)
		rb_erase_cached(&items[i].node, &root);
	cr_assert_eq(rb_check(&root, key_less), RB_CHECK_OK);

	for (node = rb_first_cached(&root); node; node = rb_next(node)) {
		const struct item *it = item_of(node);

		if (seen)
			cr_assert(it->key > last_key ||
				  (it->key == last_key && it->id > last_id),
				  "item %llu (key %llu) not after item %llu (key %llu)",
				  (unsigned long long)it->id, (unsigned long long)it->key,
				  (unsigned long long)last_id, (unsigned long long)last_key);
		last_key = it->key;
		last_id = it->id;
		seen++;
	}
	cr_assert_eq(seen, N - (N + 2) / 3);
	for (i = 0; i < N; i++)
		if (i % 3)
			rb_erase_cached(&items[i].node, &root);
	cr_assert(rb_is_empty(&root));
	free(items);
}

Test(rbtree, leftmost_follows_min_key)
{
	enum { POOL = 300, STEPS = 20000 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(POOL, 6);
	struct rng rng = { 6 };
	struct ref ref;
	size_t step, i, next_id = POOL;

	ref_init(&ref, POOL);
	for (step = 0; step < STEPS; step++) {
		struct item *it = &items[rng_below(&rng, POOL)];

		if (it->on_tree) {
			bool was_first = rb_first_cached(&root) == &it->node;
			struct rb_node *successor = rb_next(&it->node);

			rb_erase_cached(&it->node, &root);
			ref_erase(&ref, it);
			/* The cache moves only when the leftmost goes, to its successor. */
			if (was_first)
				cr_assert_eq(rb_first_cached(&root), successor);
			it->on_tree = false;
		} else {
			struct rb_node *old_first = rb_first_cached(&root);
			bool leftmost;

			it->key = rng_below(&rng, 5000);
			it->id = next_id++;
			leftmost = rb_add_cached(&it->node, &root, item_less);
			cr_assert_eq(leftmost, ref_insert(&ref, it) == 0, "step %zu", step);
			cr_assert_eq(rb_first_cached(&root),
				     leftmost ? &it->node : old_first, "step %zu", step);
			it->on_tree = true;
		}
		assert_ends(&root, &ref, step);
		cr_assert_eq(rb_first_cached(&root), rb_first(&root), "step %zu", step);
		if (step % 16 == 0)
			assert_matches(&root, &ref, step);
	}
	for (i = 0; i < POOL; i++)
		if (items[i].on_tree)
			rb_erase_cached(&items[i].node, &root);
	cr_assert(rb_is_empty(&root));
	ref_release(&ref);
	free(items);
}

/*
 * Build a tree of @n items inserted in @order, erase item @victim, check the
 * rest against the reference, then empty the tree.
 */
static void erase_one(struct item *items, size_t n, const size_t *order,
		      size_t victim)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct ref ref;
	size_t i;

	ref_init(&ref, n);
	for (i = 0; i < n; i++)
		items[i] = (struct item){ .key = i, .id = i };
	for (i = 0; i < n; i++) {
		rb_add_cached(&items[order[i]].node, &root, item_less);
		ref_insert(&ref, &items[order[i]]);
	}
	rb_erase_cached(&items[victim].node, &root);
	ref_erase(&ref, &items[victim]);
	assert_matches(&root, &ref, n * 1000 + victim);
	for (i = 0; i < n; i++)
		if (i != victim)
			rb_erase_cached(&items[i].node, &root);
	cr_assert(rb_is_empty(&root));
	ref_release(&ref);
}

/*
 * Every position of every small tree, from ascending, descending and random
 * insertion orders: this reaches each erase case (leaf, one child, successor
 * adjacent or deep, red or black) in many shapes.
 */
Test(rbtree, erase_every_position_of_small_trees)
{
	enum { MAX_N = 40 };
	struct item items[MAX_N];
	size_t ascending[MAX_N], descending[MAX_N];
	struct rng rng = { 7 };
	size_t n, victim, i;

	for (n = 1; n <= MAX_N; n++) {
		for (i = 0; i < n; i++) {
			ascending[i] = i;
			descending[i] = n - 1 - i;
		}
		for (victim = 0; victim < n; victim++) {
			size_t *shuffled = make_order(n, &rng);

			erase_one(items, n, ascending, victim);
			erase_one(items, n, descending, victim);
			erase_one(items, n, shuffled, victim);
			free(shuffled);
		}
	}
}

Test(rbtree, node_clear_marks_membership)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item a = { .key = 1 }, b = { .key = 2 };

	rb_node_clear(&a.node);
	rb_node_clear(&b.node);
	cr_assert(rb_node_is_clear(&a.node));
	rb_add_cached(&a.node, &root, item_less);
	rb_add_cached(&b.node, &root, item_less);
	cr_assert_not(rb_node_is_clear(&a.node));
	cr_assert_not(rb_node_is_clear(&b.node));
	rb_erase_cached(&a.node, &root);
	rb_node_clear(&a.node);
	cr_assert(rb_node_is_clear(&a.node));
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_OK);
	rb_erase_cached(&b.node, &root);
	cr_assert(rb_is_empty(&root));
}

/*
 * The long soak: 100,000 random inserts and erases over a pool of 4096
 * items, with keys from a small range so ties on key (broken by id) are
 * common.  The insert probability alternates between 3/4 and 1/4 every
 * 10,000 steps, so the tree repeatedly grows towards the whole pool and
 * shrinks towards empty.  The full check runs after every one of the first
 * 5,000 steps and every 61st step after that; the O(1) checks every step.
 */
Test(rbtree, random_ops_match_sorted_reference, .timeout = 300)
{
	enum { POOL = 4096, STEPS = 100000, FULL_CHECK_STEPS = 5000, EVERY = 61 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(POOL, 8);
	size_t *on = malloc(POOL * sizeof(*on));	/* indices in the tree */
	size_t *off = malloc(POOL * sizeof(*off));	/* indices out of it */
	size_t n_on = 0, n_off = POOL, step, i, next_id = 0;
	struct rng rng = { 8 };
	struct ref ref;

	cr_assert(on && off);
	for (i = 0; i < POOL; i++)
		off[i] = i;
	ref_init(&ref, POOL);

	for (step = 0; step < STEPS; step++) {
		bool grow_phase = (step / 10000) % 2 == 0;
		uint64_t p_insert = grow_phase ? 3 : 1;	/* in quarters */
		bool insert = n_on == 0 ||
			      (n_off > 0 && rng_below(&rng, 4) < p_insert);

		if (insert) {
			size_t k = (size_t)rng_below(&rng, n_off);
			struct item *it = &items[off[k]];

			off[k] = off[--n_off];
			on[n_on++] = (size_t)(it - items);
			it->key = rng_below(&rng, 2048);
			it->id = next_id++;
			cr_assert_eq(rb_add_cached(&it->node, &root, item_less),
				     ref_insert(&ref, it) == 0, "step %zu", step);
		} else {
			size_t k = (size_t)rng_below(&rng, n_on);
			struct item *it = &items[on[k]];

			on[k] = on[--n_on];
			off[n_off++] = (size_t)(it - items);
			rb_erase_cached(&it->node, &root);
			ref_erase(&ref, it);
		}
		assert_ends(&root, &ref, step);
		if (step < FULL_CHECK_STEPS || step % EVERY == 0)
			assert_matches(&root, &ref, step);
	}
	assert_matches(&root, &ref, STEPS);

	while (n_on > 0) {
		struct item *it = &items[on[--n_on]];

		rb_erase_cached(&it->node, &root);
		ref_erase(&ref, it);
	}
	assert_matches(&root, &ref, STEPS + 1);
	ref_release(&ref);
	free(off);
	free(on);
	free(items);
}

/* ---- augmented tree ----------------------------------------------------- */

static void assert_aggregates(const struct rb_root_cached *root, size_t step)
{
	size_t wrong = count_wrong_aggregates(root);

	cr_assert_eq(wrong, 0, "step %zu: %zu nodes hold a wrong subtree minimum",
		     step, wrong);
}

/*
 * Random inserts, erases and in-place value changes on an augmented tree
 * keyed like EEVDF's (deadline-like key, vruntime-like value); after every
 * operation the tree is checked and every node's subtree minimum is
 * recomputed from scratch.
 */
Test(rbtree_augmented, min_value_matches_brute_force, .timeout = 300)
{
	enum { POOL = 512, STEPS = 30000 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(POOL, 9);
	struct rng rng = { 9 };
	struct ref ref;
	size_t step, i, next_id = 0;

	ref_init(&ref, POOL);
	for (step = 0; step < STEPS; step++) {
		struct item *it = &items[rng_below(&rng, POOL)];
		uint64_t op = rng_below(&rng, 8);

		if (!it->on_tree) {
			it->key = rng_below(&rng, 4096);
			it->id = next_id++;
			it->value = rng_below(&rng, 100000);
			it->min_value = rng_next(&rng);	/* garbage: the tree sets it */
			cr_assert_eq(rb_add_augmented_cached(&it->node, &root,
							     item_less, &item_min_cb),
				     ref_insert(&ref, it) == 0, "step %zu", step);
			it->on_tree = true;
		} else if (op < 3) {
			/* Change the value, not the key: the node stays put. */
			it->value = op == 0 ? 0 : rng_below(&rng, 100000);
			rb_augment_propagate(&it->node, &item_min_cb);
		} else {
			rb_erase_augmented_cached(&it->node, &root, &item_min_cb);
			ref_erase(&ref, it);
			it->on_tree = false;
		}
		assert_ends(&root, &ref, step);
		assert_valid(&root, item_less, step);
		assert_aggregates(&root, step);
		if (step % 97 == 0)
			assert_matches(&root, &ref, step);
	}
	for (i = 0; i < POOL; i++) {
		if (!items[i].on_tree)
			continue;
		rb_erase_augmented_cached(&items[i].node, &root, &item_min_cb);
		ref_erase(&ref, &items[i]);
		assert_aggregates(&root, STEPS + i);
	}
	assert_matches(&root, &ref, STEPS + POOL);
	ref_release(&ref);
	free(items);
}

/*
 * A new node whose stale aggregate happens to equal its own value must still
 * update its ancestors: the insert computes the new leaf separately, so the
 * "unchanged, stop" shortcut cannot skip them.
 */
Test(rbtree_augmented, stale_aggregate_of_new_node_is_ignored)
{
	enum { N = 64 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(N, 10);
	size_t i;

	for (i = 0; i < N; i++) {
		items[i].value = N - i;		/* each new one is a new minimum */
		items[i].min_value = items[i].value;
		rb_add_augmented_cached(&items[i].node, &root, item_less, &item_min_cb);
		assert_aggregates(&root, i);
		cr_assert_eq(item_of(root.root)->min_value, items[i].value);
	}
	for (i = 0; i < N; i++) {
		rb_erase_augmented_cached(&items[i].node, &root, &item_min_cb);
		assert_aggregates(&root, N + i);
	}
	cr_assert(rb_is_empty(&root));
	free(items);
}

Test(rbtree_augmented, erase_every_position_of_small_trees)
{
	enum { MAX_N = 32 };
	struct item items[MAX_N];
	struct rng rng = { 11 };
	size_t n, victim, i;

	for (n = 1; n <= MAX_N; n++) {
		for (victim = 0; victim < n; victim++) {
			struct rb_root_cached root = RB_ROOT_CACHED;
			size_t *order = make_order(n, &rng);

			for (i = 0; i < n; i++)
				items[i] = (struct item){ .key = i, .id = i,
							  .value = rng_below(&rng, 50) };
			for (i = 0; i < n; i++)
				rb_add_augmented_cached(&items[order[i]].node, &root,
							item_less, &item_min_cb);
			free(order);
			assert_aggregates(&root, n * 1000 + victim);
			rb_erase_augmented_cached(&items[victim].node, &root, &item_min_cb);
			assert_valid(&root, item_less, n * 1000 + victim);
			assert_aggregates(&root, n * 1000 + victim);
			for (i = 0; i < n; i++)
				if (i != victim)
					rb_erase_augmented_cached(&items[i].node, &root,
								  &item_min_cb);
			cr_assert(rb_is_empty(&root));
		}
	}
}

/* The answer pick_first_within() must give, by a scan of the sorted reference. */
static struct item *brute_first_within(const struct ref *ref, uint64_t limit)
{
	size_t i;

	for (i = 0; i < ref->n; i++)
		if (ref->v[i]->value <= limit)
			return ref->v[i];
	return NULL;
}

/*
 * The EEVDF pick: the smallest key among items whose value is <= a limit,
 * found by pruning with the subtree minimum, equals a linear scan, for limits
 * below, inside and above the range of values.
 */
Test(rbtree_augmented, pick_first_within_limit_matches_brute_force)
{
	enum { POOL = 400, STEPS = 20000, QUERIES = 8 };
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item *items = make_items(POOL, 12);
	struct rng rng = { 12 };
	struct ref ref;
	size_t step, q, i, next_id = 0, found = 0, empty = 0;

	ref_init(&ref, POOL);
	for (step = 0; step < STEPS; step++) {
		struct item *it = &items[rng_below(&rng, POOL)];

		if (it->on_tree) {
			rb_erase_augmented_cached(&it->node, &root, &item_min_cb);
			ref_erase(&ref, it);
			it->on_tree = false;
		} else {
			it->key = rng_below(&rng, 10000);
			it->id = next_id++;
			it->value = rng_below(&rng, 10000);
			rb_add_augmented_cached(&it->node, &root, item_less, &item_min_cb);
			ref_insert(&ref, it);
			it->on_tree = true;
		}
		for (q = 0; q < QUERIES; q++) {
			/*
			 * Values are in [0, 10000): limit 0 usually finds
			 * nothing, limits past 9999 always find the leftmost.
			 */
			uint64_t limit = q == 0 ? 0 : rng_below(&rng, 10500);
			struct item *want = brute_first_within(&ref, limit);
			struct item *got = pick_first_within(&root, limit);

			cr_assert_eq(got, want, "step %zu limit %llu: got %p want %p",
				     step, (unsigned long long)limit,
				     (void *)got, (void *)want);
			if (want)
				found++;
			else
				empty++;
		}
	}
	/* Both outcomes must actually have been exercised. */
	cr_assert_gt(found, 0);
	cr_assert_gt(empty, 0);
	assert_matches(&root, &ref, STEPS);
	assert_aggregates(&root, STEPS);
	for (i = 0; i < POOL; i++)
		if (items[i].on_tree)
			rb_erase_augmented_cached(&items[i].node, &root, &item_min_cb);
	cr_assert(rb_is_empty(&root));
	ref_release(&ref);
	free(items);
}
