// SPDX-License-Identifier: MIT
/*
 * test_rbtree_check.c - rb_check() finds every kind of broken tree.
 *
 * Only this suite knows the node layout (colour in bit 0 of parent_color), to build broken
 * trees on purpose from valid ones (tests/unit/rb_test_util.h). All randomness comes from
 * fixed seeds.
 */
#include "tests/unit/rb_test_util.h"

/* ---- rb_check() on broken trees ----------------------------------------- */

/* Knowledge of the layout, confined to this suite: bit 0 of parent_color. */
static bool node_is_red(const struct rb_node *node)
{
	return (node->parent_color & 1) == 0;
}

static void node_flip_color(struct rb_node *node)
{
	node->parent_color ^= 1;
}

/* A valid tree of @n items inserted in a shuffled order. */
static void build_tree(struct rb_root_cached *root, struct item *items, size_t n,
		       uint64_t seed)
{
	struct rng rng = { seed };
	size_t *order = make_order(n, &rng);
	size_t i;

	rb_root_init(root);
	for (i = 0; i < n; i++)
		items[i] = (struct item){ .key = i, .id = i };
	for (i = 0; i < n; i++)
		rb_add_cached(&items[order[i]].node, root, item_less);
	free(order);
	cr_assert_eq(rb_check(root, item_less), RB_CHECK_OK);
}

/* A red node with no child and not a child of the root, or NULL. */
static struct rb_node *find_red_leaf(const struct rb_root_cached *root)
{
	struct rb_node *node;

	for (node = rb_first(root); node; node = rb_next(node))
		if (node_is_red(node) && !node->left && !node->right &&
		    rb_parent(node) != root->root)
			return node;
	return NULL;
}

Test(rbtree_check, reports_each_broken_property)
{
	enum { N = 100 };
	struct item items[N];
	struct rb_root_cached root;
	struct rb_node *node, *saved, outsider;
	uintptr_t saved_pc;

	build_tree(&root, items, N, 13);

	/* The root claims a parent. */
	saved_pc = root.root->parent_color;
	root.root->parent_color = (uintptr_t)&outsider | (saved_pc & 1);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_ROOT_PARENT);
	root.root->parent_color = saved_pc;

	/* A child points to the wrong parent, itself. */
	node = rb_first(&root);
	saved_pc = node->parent_color;
	node->parent_color = (uintptr_t)node | (saved_pc & 1);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_PARENT);
	node->parent_color = saved_pc;

	/* The root is red; nothing else changes. */
	node_flip_color(root.root);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_ROOT_RED);
	node_flip_color(root.root);

	/* A red leaf turned black: its side gains a black node. */
	node = find_red_leaf(&root);
	cr_assert_not_null(node);
	node_flip_color(node);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_BLACK_HEIGHT);
	node_flip_color(node);

	/*
	 * The black parent of a red leaf turned red: a red-red pair, and also
	 * a black-height fault, of which the earlier property is reported.
	 */
	node = find_red_leaf(&root);
	cr_assert_not_null(node);
	node = rb_parent(node);
	cr_assert(node && !node_is_red(node));
	node_flip_color(node);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_RED_RED);
	node_flip_color(node);

	/* A key changed in place so that the minimum is no longer first. */
	item_of(rb_first(&root))->key = 1000;
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_ORDER);
	cr_assert_eq(rb_check(&root, NULL), RB_CHECK_OK);	/* order not checked */
	item_of(rb_first(&root))->key = 0;

	/* A stale leftmost cache. */
	saved = root.leftmost;
	root.leftmost = rb_next(saved);
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_LEFTMOST);
	root.leftmost = NULL;
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_LEFTMOST);
	root.leftmost = saved;

	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_OK);
}

Test(rbtree_check, cached_leftmost_of_empty_tree_must_be_null)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item it = { .key = 1 };

	root.leftmost = &it.node;
	cr_assert_eq(rb_check(&root, item_less), RB_CHECK_LEFTMOST);
}

/*
 * A left-leaning chain of 200 black nodes with consistent parent pointers:
 * too deep for any red-black tree, which the check reports before it would
 * recurse without bound on a cycle.
 */
Test(rbtree_check, reports_a_path_too_deep)
{
	enum { N = 200 };
	struct rb_node chain[N];
	struct rb_root_cached root = { &chain[0], &chain[N - 1] };
	size_t i;

	for (i = 0; i < N; i++) {
		chain[i].parent_color = (i ? (uintptr_t)&chain[i - 1] : 0) | 1;
		chain[i].left = i + 1 < N ? &chain[i + 1] : NULL;
		chain[i].right = NULL;
	}
	cr_assert_eq(rb_check(&root, NULL), RB_CHECK_DEPTH);

	/* A cycle: the last node's left link back to the first. */
	chain[N - 1].left = &chain[0];
	cr_assert_lt(rb_check(&root, NULL), 0);
}

Test(rbtree_check, describes_every_result)
{
	int r;

	for (r = RB_CHECK_LEFTMOST; r <= RB_CHECK_OK; r++) {
		const char *s = rb_check_describe(r);

		cr_assert(s && *s);
		cr_assert_str_neq(s, rb_check_describe(1));
	}
	cr_assert_str_eq(rb_check_describe(RB_CHECK_OK), "valid red-black tree");
}
