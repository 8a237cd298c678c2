// SPDX-License-Identifier: MIT
/*
 * rbtree.c - rebalancing for the intrusive red-black tree of rbtree.h.
 *
 * The red-black rules, which every function here preserves:
 *
 *   (1) every node is red or black, and a NULL link counts as black;
 *   (2) the root is black;
 *   (3) a red node has no red child;
 *   (4) every path from a node down to a NULL link crosses the same number
 *       of black nodes, the node's black height bh.
 *
 * A subtree whose root has black height bh holds at least 2^bh - 1 nodes,
 * and by (3) at most every other node on a path is red, so a tree of n nodes
 * has height h <= 2 * log2(n + 1).  Insert and erase change O(1) colours per
 * level and make at most 2 (insert) or 3 (erase) rotations.
 *
 * Plain and augmented operations share one body, which takes the callbacks
 * as a pointer that is NULL for the plain tree.  The bodies are forced
 * inline so that each public function gets its own copy, and in the plain
 * copies the constant NULL removes every callback test: without this the
 * scheduler's requeue (erase leftmost, insert) costs about a third more on
 * small trees (bench/bench_rbtree.c).
 */
#include "scheduler/rbtree.h"

#if defined(__GNUC__)
#define rb_always_inline inline __attribute__((always_inline))
#else
#define rb_always_inline inline
#endif

#define RB_RED		((uintptr_t)0)
#define RB_BLACK	((uintptr_t)1)

/*
 * The longest root-to-NULL path of a valid tree: by the bound above with
 * n < 2^64, h <= 2 * 64.  rb_check() reports anything deeper.
 */
#define RB_MAX_DEPTH	128

/* NULL links are black, rule (1). */
static inline bool is_red(const struct rb_node *node)
{
	return node && (node->parent_color & 1) == RB_RED;
}

static inline uintptr_t color_of(const struct rb_node *node)
{
	return node->parent_color & 1;
}

static inline void set_black(struct rb_node *node)
{
	node->parent_color |= RB_BLACK;
}

static inline void set_red(struct rb_node *node)
{
	node->parent_color &= ~(uintptr_t)1;
}

static inline void set_parent(struct rb_node *node, struct rb_node *parent)
{
	node->parent_color = (uintptr_t)parent | color_of(node);
}

static inline void set_parent_color(struct rb_node *node,
				    struct rb_node *parent, uintptr_t color)
{
	node->parent_color = (uintptr_t)parent | color;
}

/* Make @parent (or the root when @parent is NULL) point to @new instead of @old. */
static inline void change_child(struct rb_node *old, struct rb_node *new,
				struct rb_node *parent, struct rb_root_cached *root)
{
	if (!parent)
		root->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/*
 * Rotations keep the in-order sequence and every node's colour; the caller
 * recolours.  The subtree keeps its place and its set of nodes, so only the
 * aggregates of the two nodes that swap levels change: the new top spans the
 * old top's former subtree (copy), the old top lost one child subtree
 * (recompute).  That is the cb->rotate contract.
 *
 *        x                  y
 *       / \                / \
 *      a   y      =>      x   c
 *         / \            / \
 *        b   c          a   b
 */
static inline void rotate_left(struct rb_node *x, struct rb_root_cached *root,
			       const struct rb_augment_callbacks *cb)
{
	struct rb_node *y = x->right;
	struct rb_node *parent = rb_parent(x);

	x->right = y->left;
	if (y->left)
		set_parent(y->left, x);
	y->left = x;
	set_parent(y, parent);
	change_child(x, y, parent, root);
	set_parent(x, y);
	if (cb)
		cb->rotate(x, y);
}

/* The mirror image of rotate_left(). */
static inline void rotate_right(struct rb_node *x, struct rb_root_cached *root,
				const struct rb_augment_callbacks *cb)
{
	struct rb_node *y = x->left;
	struct rb_node *parent = rb_parent(x);

	x->left = y->right;
	if (y->right)
		set_parent(y->right, x);
	y->right = x;
	set_parent(y, parent);
	change_child(x, y, parent, root);
	set_parent(x, y);
	if (cb)
		cb->rotate(x, y);
}

/*
 * Restore the rules after a red leaf @node was linked.  Only rule (3) can be
 * broken, and only between @node and its parent: a red node does not change
 * any black height.  Each pass either moves the red-red pair two levels up
 * (red uncle: recolour), or ends it with one or two rotations (black uncle).
 */
static rb_always_inline void insert_fixup(struct rb_node *node,
					  struct rb_root_cached *root,
					  const struct rb_augment_callbacks *cb)
{
	struct rb_node *parent, *gparent, *uncle;

	while ((parent = rb_parent(node)) && is_red(parent)) {
		/* A red parent is not the root, rule (2), so it has a parent. */
		gparent = rb_parent(parent);
		if (parent == gparent->left) {
			uncle = gparent->right;
			if (is_red(uncle)) {
				/*
				 * Push the grandparent's black down to both
				 * children: black heights below are kept, and
				 * the grandparent, now red, may clash with its
				 * own parent, so continue from there.
				 */
				set_black(parent);
				set_black(uncle);
				set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->right) {
				/* Make the red pair a left-left line. */
				rotate_left(parent, root, cb);
				node = parent;
				parent = rb_parent(node);
			}
			/*
			 * Lift the parent above the grandparent and swap their
			 * colours: each path keeps its black count, and the
			 * new top is black, so nothing above can clash.
			 */
			set_black(parent);
			set_red(gparent);
			rotate_right(gparent, root, cb);
			break;
		} else {
			uncle = gparent->left;
			if (is_red(uncle)) {
				set_black(parent);
				set_black(uncle);
				set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->left) {
				rotate_right(parent, root, cb);
				node = parent;
				parent = rb_parent(node);
			}
			set_black(parent);
			set_red(gparent);
			rotate_left(gparent, root, cb);
			break;
		}
	}
	/* Recolouring may have reached a red root; painting it black raises
	 * every black height by one, which keeps rule (4). */
	set_black(root->root);
}

/*
 * Restore rule (4) after a black node was removed from below @parent, which
 * leaves one side of @parent (the side whose link is @node; @node is NULL at
 * first) one black short of the other.  The sibling @sib of the short side
 * therefore has black height >= 1, so it is not NULL.
 *
 * Each pass either fixes the deficit with at most two rotations, or, when
 * the sibling and both its children are black, paints the sibling red so
 * both sides of @parent are short, and moves the deficit up to @parent.  A
 * red node met on the way up absorbs it by turning black; reaching the root
 * makes every path short by one, which is not a violation.
 */
static rb_always_inline void erase_fixup(struct rb_node *parent,
					 struct rb_root_cached *root,
					 const struct rb_augment_callbacks *cb)
{
	struct rb_node *node = NULL, *sib;

	for (;;) {
		/*
		 * @node == parent->left also holds when @node is NULL and
		 * the left link is the empty one: the right link, the
		 * sibling, is never NULL.
		 */
		if (node == parent->left) {
			sib = parent->right;
			if (is_red(sib)) {
				/*
				 * Make the sibling black: rotate the red one
				 * up, so @parent turns red with a black
				 * sibling (a child of the red one, not NULL
				 * since its black height is >= 1).
				 */
				set_black(sib);
				set_red(parent);
				rotate_left(parent, root, cb);
				sib = parent->right;
			}
			if (!is_red(sib->left) && !is_red(sib->right)) {
				set_red(sib);
				node = parent;
				parent = rb_parent(node);
				if (is_red(node) || !parent) {
					set_black(node);
					return;
				}
				continue;
			}
			if (!is_red(sib->right)) {
				/* Bring the red nephew to the far side. */
				set_black(sib->left);
				set_red(sib);
				rotate_right(sib, root, cb);
				sib = parent->right;
			}
			/*
			 * The far nephew is red.  Rotate the sibling up in
			 * parent's colour, with parent and far nephew black:
			 * the short side gains a black ancestor, the other
			 * paths keep their count.
			 */
			set_parent_color(sib, rb_parent(sib), color_of(parent));
			set_black(parent);
			set_black(sib->right);
			rotate_left(parent, root, cb);
			return;
		} else {
			sib = parent->left;
			if (is_red(sib)) {
				set_black(sib);
				set_red(parent);
				rotate_right(parent, root, cb);
				sib = parent->left;
			}
			if (!is_red(sib->left) && !is_red(sib->right)) {
				set_red(sib);
				node = parent;
				parent = rb_parent(node);
				if (is_red(node) || !parent) {
					set_black(node);
					return;
				}
				continue;
			}
			if (!is_red(sib->left)) {
				set_black(sib->right);
				set_red(sib);
				rotate_left(sib, root, cb);
				sib = parent->left;
			}
			set_parent_color(sib, rb_parent(sib), color_of(parent));
			set_black(parent);
			set_black(sib->left);
			rotate_right(parent, root, cb);
			return;
		}
	}
}

/*
 * Unlink @node, then rebalance.  Aggregates are made exact for the new shape
 * before erase_fixup() runs, whose rotations then keep them exact through
 * cb->rotate.
 */
static rb_always_inline void erase(struct rb_node *node,
				   struct rb_root_cached *root,
				   const struct rb_augment_callbacks *cb)
{
	struct rb_node *parent = rb_parent(node);
	struct rb_node *fix_parent = NULL;

	if (root->leftmost == node)
		root->leftmost = rb_next(node);

	if (!node->left || !node->right) {
		struct rb_node *child = node->left ? node->left : node->right;

		change_child(node, child, parent, root);
		if (child) {
			/*
			 * By rule (4) a node with one child has a red leaf
			 * child and is black itself; the child, painted
			 * black, replaces it exactly.
			 */
			set_parent_color(child, parent, RB_BLACK);
		} else if (!is_red(node) && parent) {
			/* A black leaf went: parent's side is one short. */
			fix_parent = parent;
		}
		if (cb && parent)
			cb->propagate(parent, NULL);
	} else {
		/*
		 * Two children: the successor @succ, the leftmost node of the
		 * right subtree, has no left child.  It takes node's place
		 * and colour, so the black count changes only where succ
		 * was: below @succ_parent, on the side of @child.
		 */
		struct rb_node *succ = node->right;
		struct rb_node *succ_parent, *child;
		bool succ_black;

		if (!succ->left) {
			/* succ keeps its right subtree and is its own fix point. */
			succ_parent = succ;
			child = succ->right;
			if (cb)
				cb->copy(node, succ);
		} else {
			do
				succ = succ->left;
			while (succ->left);
			succ_parent = rb_parent(succ);
			child = succ->right;
			succ_parent->left = child;
			succ->right = node->right;
			set_parent(node->right, succ);
			if (cb) {
				/*
				 * succ's aggregate now stands for node's
				 * subtree; the path from succ_parent up to
				 * succ lost succ itself.
				 */
				cb->copy(node, succ);
				cb->propagate(succ_parent, succ);
			}
		}
		succ_black = !is_red(succ);
		succ->left = node->left;
		set_parent(node->left, succ);
		succ->parent_color = node->parent_color;
		change_child(node, succ, parent, root);
		if (child) {
			/* As above: a lone child is a red leaf under a black succ. */
			set_parent_color(child, succ_parent, RB_BLACK);
		} else if (succ_black) {
			fix_parent = succ_parent;
		}
		/* succ's subtree is node's former one, minus node. */
		if (cb)
			cb->propagate(succ, NULL);
	}

	if (fix_parent)
		erase_fixup(fix_parent, root, cb);
}

void rb_insert_color(struct rb_node *node, struct rb_root_cached *root)
{
	insert_fixup(node, root, NULL);
}

void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	erase(node, root, NULL);
}

void rb_insert_augmented(struct rb_node *node, struct rb_root_cached *root,
			 const struct rb_augment_callbacks *cb)
{
	insert_fixup(node, root, cb);
}

void rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			       const struct rb_augment_callbacks *cb)
{
	erase(node, root, cb);
}

void rb_augment_propagate(struct rb_node *node,
			  const struct rb_augment_callbacks *cb)
{
	cb->propagate(node, NULL);
}

struct rb_node *rb_first(const struct rb_root_cached *root)
{
	struct rb_node *node = root->root;

	if (!node)
		return NULL;
	while (node->left)
		node = node->left;
	return node;
}

struct rb_node *rb_last(const struct rb_root_cached *root)
{
	struct rb_node *node = root->root;

	if (!node)
		return NULL;
	while (node->right)
		node = node->right;
	return node;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	/* With a right subtree, the successor is its leftmost node. */
	if (node->right) {
		struct rb_node *next = node->right;

		while (next->left)
			next = next->left;
		return next;
	}
	/*
	 * Otherwise it is the first ancestor reached from its left side: the
	 * ancestors reached from their right side all come before @node.
	 */
	while ((parent = rb_parent(node)) && node == parent->right)
		node = parent;
	return parent;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->left) {
		struct rb_node *prev = node->left;

		while (prev->right)
			prev = prev->right;
		return prev;
	}
	while ((parent = rb_parent(node)) && node == parent->left)
		node = parent;
	return parent;
}

/* State of one rb_check() walk. */
struct check_walk {
	rb_less_fn *less;
	const struct rb_node *prev;	/* last node visited in order */
	const struct rb_node *first;	/* first node visited in order */
	unsigned int found;		/* bit -k set: property k is broken */
};

static void check_found(struct check_walk *walk, enum rb_check_result result)
{
	walk->found |= 1u << -result;
}

/*
 * Visit the subtree of @node (whose parent must be @parent) in order.
 * Returns a structural error code, or else the subtree's black height, in
 * which a NULL link counts 0; a mismatch is recorded and the left height
 * returned, so that one fault is not reported again above.
 */
static int check_subtree(struct check_walk *walk, const struct rb_node *node,
			 const struct rb_node *parent, int depth)
{
	int lh, rh;

	if (!node)
		return 0;
	if (rb_parent(node) != parent)
		return RB_CHECK_PARENT;
	if (depth >= RB_MAX_DEPTH)
		return RB_CHECK_DEPTH;
	if (is_red(node) && (is_red(node->left) || is_red(node->right)))
		check_found(walk, RB_CHECK_RED_RED);

	lh = check_subtree(walk, node->left, node, depth + 1);
	if (lh < 0)
		return lh;

	if (!walk->prev)
		walk->first = node;
	else if (walk->less && walk->less(node, walk->prev))
		check_found(walk, RB_CHECK_ORDER);
	walk->prev = node;

	rh = check_subtree(walk, node->right, node, depth + 1);
	if (rh < 0)
		return rh;
	if (lh != rh)
		check_found(walk, RB_CHECK_BLACK_HEIGHT);
	return lh + !is_red(node);
}

int rb_check(const struct rb_root_cached *root, rb_less_fn *less)
{
	struct check_walk walk = { .less = less };
	int ret, k;

	if (root->root && rb_parent(root->root))
		return RB_CHECK_ROOT_PARENT;
	ret = check_subtree(&walk, root->root, NULL, 0);
	if (ret < 0)
		return ret;
	if (is_red(root->root))
		check_found(&walk, RB_CHECK_ROOT_RED);
	if (root->leftmost != walk.first)
		check_found(&walk, RB_CHECK_LEFTMOST);

	for (k = -RB_CHECK_ROOT_RED; k <= -RB_CHECK_LEFTMOST; k++)
		if (walk.found & (1u << k))
			return -k;
	return RB_CHECK_OK;
}

const char *rb_check_describe(int result)
{
	switch (result) {
	case RB_CHECK_OK:
		return "valid red-black tree";
	case RB_CHECK_ROOT_PARENT:
		return "the root has a parent";
	case RB_CHECK_PARENT:
		return "a child's parent pointer does not point to the node above it";
	case RB_CHECK_DEPTH:
		return "a path is deeper than any red-black tree can be (a cycle?)";
	case RB_CHECK_ROOT_RED:
		return "the root is red";
	case RB_CHECK_RED_RED:
		return "a red node has a red child";
	case RB_CHECK_BLACK_HEIGHT:
		return "paths hold different numbers of black nodes";
	case RB_CHECK_ORDER:
		return "the in-order walk is not sorted by less()";
	case RB_CHECK_LEFTMOST:
		return "the cached leftmost is not the first node";
	default:
		return "unknown rb_check() result";
	}
}
