/* SPDX-License-Identifier: MIT */
/*
 * rbtree.h - intrusive red-black tree with a cached leftmost node and optional
 * subtree augmentation, for the runqueues of the fair scheduler.
 *
 * The tree node is embedded in the user's structure and rb_entry() recovers
 * the structure from it, so the tree never allocates: inserting and erasing
 * cannot fail and cost O(log n) pointer updates.  The root remembers its
 * leftmost node, which makes the scheduler's "pick the smallest key" O(1).
 *
 * Ordering is defined by one callback, less(a, b), which must be a strict
 * weak order over the nodes in the tree.  Nodes that compare equal are kept
 * in insertion order (a new node goes after its equals); the scheduler breaks
 * ties with a monotonic id, so its order is total.
 *
 * Augmentation: a user may keep, in each node, an aggregate of a value over
 * the node's subtree (EEVDF keeps the minimum vruntime).  The augmented
 * insert and erase call back into the user at every structural change so
 * the aggregate stays exact; see struct rb_augment_callbacks and
 * RB_DECLARE_CALLBACKS() below, and docs/rbtree.md.
 *
 * Locking and ownership: none.  The caller owns every node and the root; a
 * node must be in at most one tree at a time and must stay at the same
 * address while it is in a tree.
 */
#ifndef CGSIM_SCHEDULER_RBTREE_H
#define CGSIM_SCHEDULER_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct rb_node - the link embedded in each element.
 *
 * @parent_color holds the parent pointer with the node's colour in bit 0
 * (0 = red, 1 = black).  Nodes are at least pointer-aligned, so bit 0 of a
 * node address is always free; packing saves a word per element, which
 * matters because a runqueue walk touches one node per level.  Use
 * rb_parent() rather than reading the field.  @left and @right may be read
 * directly (for example to write an augmented search) but only the functions
 * below may write them.
 */
struct rb_node {
	uintptr_t parent_color;
	struct rb_node *left;
	struct rb_node *right;
};

_Static_assert(_Alignof(struct rb_node) >= 2,
	       "rb_node must be aligned so that bit 0 of its address is free");

/*
 * struct rb_root_cached - a tree: its root and its leftmost (smallest) node.
 *
 * @leftmost is NULL exactly when @root is NULL.
 */
struct rb_root_cached {
	struct rb_node *root;
	struct rb_node *leftmost;
};

/* Initialiser for an empty tree: 'struct rb_root_cached rq = RB_ROOT_CACHED;' */
#define RB_ROOT_CACHED ((struct rb_root_cached){ NULL, NULL })

/*
 * rb_entry - the structure that embeds a node (container_of).
 * @ptr:    the struct rb_node pointer; must not be NULL.
 * @type:   the type of the embedding structure.
 * @member: the name of the struct rb_node member within @type.
 */
#define rb_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * rb_less_fn - the order of a tree.
 *
 * Returns true if @a must come before @b.  It must be a strict weak order
 * (irreflexive and transitive, equivalence transitive) and must not change
 * for nodes already in the tree.  Compare wrapping counters with a signed
 * difference, e.g. (int64_t)(a->deadline - b->deadline) < 0.
 */
typedef bool rb_less_fn(const struct rb_node *a, const struct rb_node *b);

/*
 * struct rb_augment_callbacks - keep a per-node subtree aggregate exact.
 *
 * Each node's aggregate is a function of its own value and of its children's
 * aggregates, e.g. agg(n) = min(value(n), agg(n->left), agg(n->right)).
 *
 * @propagate: recompute the aggregate of @node, then of its parent, and so
 *             on up to, but not including, @stop (NULL: up to the root).  It
 *             may stop early at the first node whose aggregate did not change,
 *             because then no ancestor's changes either.  With node == stop
 *             it does nothing.
 * @copy:      @new has taken the place of @old in the tree (erase of a node
 *             with two children); copy old's aggregate into @new.
 * @rotate:    a rotation made @new the parent of @old, in old's former place.
 *             @new now spans exactly old's former subtree, so copy old's
 *             aggregate into @new, then recompute @old from its new children.
 *             Called after the pointers have been updated.
 *
 * RB_DECLARE_CALLBACKS() writes all three from one compute function.
 */
struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

/*
 * enum rb_check_result - what rb_check() found, in the order it reports.
 *
 * The first three are structural: once one is found the shape cannot be
 * trusted and the walk stops.  The others are gathered over the whole tree
 * and the first in this list is returned.
 */
enum rb_check_result {
	RB_CHECK_OK		=  0,
	RB_CHECK_ROOT_PARENT	= -1,	/* the root has a parent */
	RB_CHECK_PARENT		= -2,	/* a child's parent is not the node above it */
	RB_CHECK_DEPTH		= -3,	/* a path too long for any red-black tree */
	RB_CHECK_ROOT_RED	= -4,	/* the root is red */
	RB_CHECK_RED_RED	= -5,	/* a red node has a red child */
	RB_CHECK_BLACK_HEIGHT	= -6,	/* two paths down cross unequal black counts */
	RB_CHECK_ORDER		= -7,	/* in-order walk not sorted by less() */
	RB_CHECK_LEFTMOST	= -8,	/* the cached leftmost is not the first node */
};

/**
 * rb_parent() - the parent of a node.
 * @node: a node in a tree.
 *
 * Returns the parent, or NULL for the root.
 */
static inline struct rb_node *rb_parent(const struct rb_node *node)
{
	return (struct rb_node *)(node->parent_color & ~(uintptr_t)1);
}

/**
 * rb_root_init() - make an empty tree.
 * @root: the tree; any previous content is forgotten, not released.
 */
static inline void rb_root_init(struct rb_root_cached *root)
{
	root->root = NULL;
	root->leftmost = NULL;
}

/**
 * rb_is_empty() - whether a tree has no node.
 * @root: the tree.
 *
 * Returns true if @root holds no node.
 */
static inline bool rb_is_empty(const struct rb_root_cached *root)
{
	return root->root == NULL;
}

/**
 * rb_first_cached() - the smallest node, in O(1).
 * @root: the tree.
 *
 * Returns the leftmost node, or NULL if the tree is empty.
 */
static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root)
{
	return root->leftmost;
}

/**
 * rb_node_clear() - mark a node as being in no tree.
 * @node: a node that is not in a tree.
 *
 * The tree never does this itself (erase leaves the node's fields stale);
 * callers that want to ask rb_node_is_clear() later mark nodes at creation
 * and after each erase.  A cleared node points to itself as its parent.
 */
static inline void rb_node_clear(struct rb_node *node)
{
	node->parent_color = (uintptr_t)node;
}

/**
 * rb_node_is_clear() - whether a node was marked by rb_node_clear().
 * @node: the node.
 *
 * Returns true if @node was cleared and not inserted since.
 */
static inline bool rb_node_is_clear(const struct rb_node *node)
{
	return node->parent_color == (uintptr_t)node;
}

/**
 * rb_insert_color() - rebalance after a node was linked as a red leaf.
 * @node: the node just linked (by rb_add_cached(), which calls this).
 * @root: the tree.
 */
void rb_insert_color(struct rb_node *node, struct rb_root_cached *root);

/**
 * rb_insert_augmented() - rb_insert_color() for an augmented tree.
 * @node: the node just linked, its and its ancestors' aggregates exact.
 * @root: the tree.
 * @cb:   the callbacks that maintain the aggregate (rotations call them).
 */
void rb_insert_augmented(struct rb_node *node, struct rb_root_cached *root,
			 const struct rb_augment_callbacks *cb);

/*
 * rb__link() - walk down from the root to the NULL link where @node belongs
 * and hang it there, red.  Equal nodes go right, so a node lands after its
 * equals.  The node is the new minimum exactly when the walk never turned
 * right: every node it passed is then greater than it.
 *
 * Inline, with the rest of the insert out of line, because the walk is where
 * the comparisons are: a call site that passes its own static less() gets it
 * inlined into the loop instead of called through a pointer at every level.
 */
static inline bool rb__link(struct rb_node *node, struct rb_root_cached *root,
			    rb_less_fn *less)
{
	struct rb_node **link = &root->root;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	node->parent_color = (uintptr_t)parent;		/* red: bit 0 clear */
	node->left = NULL;
	node->right = NULL;
	*link = node;
	if (leftmost)
		root->leftmost = node;
	return leftmost;
}

/**
 * rb_add_cached() - insert a node.
 * @node: the node to insert; not in any tree, its fields need no setup.
 * @root: the tree.
 * @less: the tree's order.
 *
 * O(log n).  The node goes after any node it compares equal to.
 *
 * Returns true if @node became the leftmost node.
 */
static inline bool rb_add_cached(struct rb_node *node, struct rb_root_cached *root,
				 rb_less_fn *less)
{
	bool leftmost = rb__link(node, root, less);

	rb_insert_color(node, root);
	return leftmost;
}

/**
 * rb_erase_cached() - remove a node.
 * @node: a node in @root.
 * @root: the tree.
 *
 * O(log n).  If @node was leftmost its successor becomes leftmost.  The
 * fields of @node are left stale; the node may be inserted again, in this
 * or another tree, or freed.
 */
void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root);

/**
 * rb_add_augmented_cached() - insert a node into an augmented tree.
 * @node: the node to insert; its own value must be set, its aggregate
 *        need not be (the tree computes it through @cb).
 * @root: the tree.
 * @less: the tree's order.
 * @cb:   the callbacks that maintain the aggregate.
 *
 * Every node's aggregate is exact when this returns.
 *
 * Returns true if @node became the leftmost node.
 */
static inline bool rb_add_augmented_cached(struct rb_node *node,
					   struct rb_root_cached *root,
					   rb_less_fn *less,
					   const struct rb_augment_callbacks *cb)
{
	bool leftmost = rb__link(node, root, less);
	struct rb_node *parent = rb_parent(node);

	/*
	 * First compute the new leaf alone (stop at its parent): its previous
	 * aggregate is garbage, so "unchanged" there says nothing about the
	 * ancestors.  Then the ancestors, whose subtrees gained the leaf; there
	 * an unchanged aggregate does allow the early stop.
	 */
	cb->propagate(node, parent);
	if (parent)
		cb->propagate(parent, NULL);
	rb_insert_augmented(node, root, cb);
	return leftmost;
}

/**
 * rb_erase_augmented_cached() - remove a node from an augmented tree.
 * @node: a node in @root.
 * @root: the tree.
 * @cb:   the callbacks that maintain the aggregate.
 *
 * Every remaining node's aggregate is exact when this returns; the
 * aggregate left in @node is stale.
 */
void rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			       const struct rb_augment_callbacks *cb);

/**
 * rb_augment_propagate() - refresh aggregates after a value changed in place.
 * @node: a node in an augmented tree whose own value was changed without
 *        changing its position in the order.
 * @cb:   the tree's callbacks.
 *
 * Recomputes @node's aggregate and those of its ancestors, stopping early
 * once one does not change.  O(log n).  A change that moves the node in the
 * order needs erase and add instead.
 */
void rb_augment_propagate(struct rb_node *node,
			  const struct rb_augment_callbacks *cb);

/**
 * rb_first() - the smallest node, by walking down.
 * @root: the tree.
 *
 * O(log n); rb_first_cached() is O(1) and returns the same node.
 *
 * Returns the leftmost node, or NULL if the tree is empty.
 */
struct rb_node *rb_first(const struct rb_root_cached *root);

/**
 * rb_last() - the largest node.
 * @root: the tree.
 *
 * Returns the rightmost node, or NULL if the tree is empty.
 */
struct rb_node *rb_last(const struct rb_root_cached *root);

/**
 * rb_next() - the in-order successor.
 * @node: a node in a tree.
 *
 * Amortised O(1) over a full walk, O(log n) at worst.
 *
 * Returns the next node, or NULL if @node is the last.
 */
struct rb_node *rb_next(const struct rb_node *node);

/**
 * rb_prev() - the in-order predecessor.
 * @node: a node in a tree.
 *
 * Returns the previous node, or NULL if @node is the first.
 */
struct rb_node *rb_prev(const struct rb_node *node);

/**
 * rb_check() - verify every invariant of a tree.
 * @root: the tree.
 * @less: the tree's order, or NULL to skip the order check.
 *
 * Checks, in this order: the root has no parent, every child points back to
 * its parent, no path is deeper than 128 nodes (so a cycle cannot hang the
 * check), the root is black, no red node has a red child, every path from
 * a node down to a NULL link crosses the same number of black nodes, the
 * in-order walk never has a node less() than its predecessor, and the cached
 * leftmost is the first node.  O(n) time, O(height) stack.
 *
 * Returns 0 (RB_CHECK_OK) if the tree is valid, otherwise the negative
 * enum rb_check_result of the first broken property.
 */
int rb_check(const struct rb_root_cached *root, rb_less_fn *less);

/**
 * rb_check_describe() - a sentence naming an rb_check() result.
 * @result: a value returned by rb_check().
 *
 * Returns a static string; never NULL.
 */
const char *rb_check_describe(int result);

/*
 * RB_DECLARE_CALLBACKS - define augment callbacks from one compute function.
 * @rbstatic:    storage class of the callbacks object: static or empty.
 * @rbname:      name of the const struct rb_augment_callbacks to define.
 * @rbstruct:    the embedding type, e.g. struct sched_entity.
 * @rbfield:     its struct rb_node member.
 * @rbaugmented: its aggregate member (any assignable type, a struct too).
 * @rbcompute:   bool rbcompute(rbstruct *e): sets e->rbaugmented from e's own
 *               value and its children's aggregates; returns true if the
 *               stored aggregate changed.
 *
 * The early stop in propagate is what the "changed" result is for: if a
 * node's aggregate is unchanged, each ancestor combines the same inputs as
 * before, so none of them can change either.
 *
 * Example, a subtree minimum (see docs/rbtree.md for the EEVDF version):
 *
 *	static bool item_compute(struct item *it)
 *	{
 *		uint64_t min = it->value;
 *		if (it->node.left) {
 *			struct item *l = rb_entry(it->node.left, struct item, node);
 *			if (l->min_value < min)
 *				min = l->min_value;
 *		}
 *		(the same for it->node.right)
 *		if (it->min_value == min)
 *			return false;
 *		it->min_value = min;
 *		return true;
 *	}
 *	RB_DECLARE_CALLBACKS(static, item_cb, struct item, node, min_value,
 *			     item_compute);
 */
#define RB_DECLARE_CALLBACKS(rbstatic, rbname, rbstruct, rbfield,		\
			     rbaugmented, rbcompute)				\
static void rbname##_propagate(struct rb_node *rb, struct rb_node *stop)	\
{										\
	while (rb != stop) {							\
		rbstruct *node = rb_entry(rb, rbstruct, rbfield);		\
		if (!rbcompute(node))						\
			break;							\
		rb = rb_parent(&node->rbfield);					\
	}									\
}										\
static void rbname##_copy(struct rb_node *rb_old, struct rb_node *rb_new)	\
{										\
	rb_entry(rb_new, rbstruct, rbfield)->rbaugmented =			\
		rb_entry(rb_old, rbstruct, rbfield)->rbaugmented;		\
}										\
static void rbname##_rotate(struct rb_node *rb_old, struct rb_node *rb_new)	\
{										\
	rbstruct *old = rb_entry(rb_old, rbstruct, rbfield);			\
	rb_entry(rb_new, rbstruct, rbfield)->rbaugmented = old->rbaugmented;	\
	(void)rbcompute(old);							\
}										\
rbstatic const struct rb_augment_callbacks rbname = {				\
	.propagate = rbname##_propagate,					\
	.copy = rbname##_copy,							\
	.rotate = rbname##_rotate,						\
}

#endif /* CGSIM_SCHEDULER_RBTREE_H */
