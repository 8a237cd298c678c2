// SPDX-License-Identifier: MIT
/*
 * bench_rbtree.c - cost of one erase + insert pair on the runqueue tree.
 *
 * For each tree size the tree is filled, then each timed iteration erases
 * one node and inserts it again with a new key, so the size stays fixed.
 * Three patterns:
 *
 *   rbtree_pair_nN            a random node, a random new key: the generic
 *                             cost, with the node anywhere in the tree;
 *   rbtree_pair_augmented_nN  the same with the EEVDF-style subtree minimum
 *                             maintained through the augment callbacks;
 *   rbtree_requeue_nN         the scheduler's pattern: erase the leftmost
 *                             (the running entity) and insert it with a
 *                             later key (its next deadline).
 *
 * Output is one 'name: value unit' line per measurement.  The figures
 * include one splitmix64 step per random number (about 1 ns).  Seeds are
 * fixed so runs are comparable.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "scheduler/rbtree.h"

#define BENCH_PAIRS	2000000UL	/* timed pairs per measurement */
#define BENCH_WARMUP	200000UL	/* untimed pairs before each one */

struct bench_node {
	uint64_t key;
	uint64_t id;
	uint64_t value;
	uint64_t min_value;
	struct rb_node node;
};

struct rng {
	uint64_t state;
};

static uint64_t rng_next(struct rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Uniform index in [0, n) for n < 2^32 by multiply and shift: a 64-bit
 * division would cost more than a small tree's whole insert.
 */
static size_t rng_index(struct rng *rng, size_t n)
{
	return (size_t)(((rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

static struct bench_node *bench_entry(const struct rb_node *node)
{
	return rb_entry(node, struct bench_node, node);
}

/* The scheduler's shape of comparison: signed key difference, then id. */
static bool bench_less(const struct rb_node *a, const struct rb_node *b)
{
	const struct bench_node *x = bench_entry(a), *y = bench_entry(b);
	int64_t d = (int64_t)(x->key - y->key);

	if (d != 0)
		return d < 0;
	return x->id < y->id;
}

static bool bench_compute_min(struct bench_node *n)
{
	uint64_t min = n->value;

	if (n->node.left && bench_entry(n->node.left)->min_value < min)
		min = bench_entry(n->node.left)->min_value;
	if (n->node.right && bench_entry(n->node.right)->min_value < min)
		min = bench_entry(n->node.right)->min_value;
	if (n->min_value == min)
		return false;
	n->min_value = min;
	return true;
}

RB_DECLARE_CALLBACKS(static, bench_min_cb, struct bench_node, node, min_value,
		     bench_compute_min);

enum bench_pattern {
	PATTERN_RANDOM,
	PATTERN_AUGMENTED,
	PATTERN_REQUEUE,
};

static const char *const pattern_name[] = {
	[PATTERN_RANDOM] = "rbtree_pair",
	[PATTERN_AUGMENTED] = "rbtree_pair_augmented",
	[PATTERN_REQUEUE] = "rbtree_requeue",
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Keys are drawn from [0, 2^40), far below the 2^63 span over which the
 * signed difference is a valid order; requeued keys grow by at most 2^20
 * per pair, which stays in range for any run length used here.
 */
static void run_pairs(enum bench_pattern pattern, struct bench_node *nodes,
		      size_t n, struct rb_root_cached *root, struct rng *rng,
		      unsigned long pairs, uint64_t *next_id)
{
	const uint64_t key_mask = (1ULL << 40) - 1;
	unsigned long i;

	for (i = 0; i < pairs; i++) {
		struct bench_node *b;

		switch (pattern) {
		case PATTERN_RANDOM:
			b = &nodes[rng_index(rng, n)];
			rb_erase_cached(&b->node, root);
			b->key = rng_next(rng) & key_mask;
			b->id = (*next_id)++;
			rb_add_cached(&b->node, root, bench_less);
			break;
		case PATTERN_AUGMENTED:
			b = &nodes[rng_index(rng, n)];
			rb_erase_augmented_cached(&b->node, root, &bench_min_cb);
			b->key = rng_next(rng) & key_mask;
			b->id = (*next_id)++;
			b->value = rng_next(rng) & key_mask;
			rb_add_augmented_cached(&b->node, root, bench_less, &bench_min_cb);
			break;
		case PATTERN_REQUEUE:
			b = bench_entry(rb_first_cached(root));
			rb_erase_cached(&b->node, root);
			b->key += 1 + (rng_next(rng) & ((1ULL << 20) - 1));
			b->id = (*next_id)++;
			rb_add_cached(&b->node, root, bench_less);
			break;
		}
	}
}

/*
 * Returns the mean ns per erase + insert pair, or a negative value if the
 * tree failed its check afterwards.
 */
static double bench_one(enum bench_pattern pattern, size_t n)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct bench_node *nodes = calloc(n, sizeof(*nodes));
	struct rng rng = { 0x5eed0000ULL + n };
	uint64_t next_id = 0, t0, t1;
	double ns;
	size_t i;

	if (!nodes)
		return -1.0;
	for (i = 0; i < n; i++) {
		nodes[i].key = rng_next(&rng) & ((1ULL << 40) - 1);
		nodes[i].id = next_id++;
		nodes[i].value = rng_next(&rng) & ((1ULL << 40) - 1);
		if (pattern == PATTERN_AUGMENTED)
			rb_add_augmented_cached(&nodes[i].node, &root, bench_less,
						&bench_min_cb);
		else
			rb_add_cached(&nodes[i].node, &root, bench_less);
	}
	run_pairs(pattern, nodes, n, &root, &rng, BENCH_WARMUP, &next_id);
	t0 = now_ns();
	run_pairs(pattern, nodes, n, &root, &rng, BENCH_PAIRS, &next_id);
	t1 = now_ns();
	ns = (double)(t1 - t0) / (double)BENCH_PAIRS;

	/* Also keeps the compiler from treating the timed work as dead. */
	if (rb_check(&root, bench_less) != RB_CHECK_OK)
		ns = -1.0;
	free(nodes);
	return ns;
}

int main(void)
{
	static const size_t sizes[] = { 8, 64, 1024, 10000 };
	static const enum bench_pattern patterns[] = {
		PATTERN_RANDOM, PATTERN_AUGMENTED, PATTERN_REQUEUE,
	};
	size_t p, s;

	for (p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			double ns = bench_one(patterns[p], sizes[s]);

			if (ns < 0) {
				fprintf(stderr, "%s_n%zu: tree check failed\n",
					pattern_name[patterns[p]], sizes[s]);
				return 1;
			}
			printf("%s_n%zu: %.1f ns/pair\n",
			       pattern_name[patterns[p]], sizes[s], ns);
		}
	}
	return 0;
}
