// SPDX-License-Identifier: MIT
/*
 * sim/run/ideal.c - ideal shares by hierarchical weighted water-filling.
 *
 * Two passes over the array. Bottom-up (children have larger indices than
 * their parents, so a reverse scan sees every child first): use[i], the CPUs
 * node i can use at most. Top-down: the root gets min(cpus, use[0]), and each
 * cgroup, once its allocation is known, water-fills it over its children.
 *
 * Water-filling a over children with weights w_i and limits u_i, where
 * a <= sum u_i (true by construction, since use[g] <= sum u_i): the result is
 * x_i = min(u_i, L w_i) with the level L such that sum x_i = a. Sort the
 * children by u_i / w_i. Walking in that order with what is left, A, and the
 * weight not yet served, W, a child with u_i / w_i <= A / W is saturated at
 * L (its limit is below an equal split of what is left), so it takes u_i;
 * the first child above A / W, and every child after it, is not saturated,
 * so L = A / W and each of them takes L w_i. A / W never decreases along the
 * walk (removing a child whose u_i / w_i <= A / W cannot lower the ratio),
 * which is why one sorted pass does what rounds of "cap and redistribute the
 * excess" do.
 */
#include "sim/run/ideal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* One child of the cgroup being filled, sorted by (ratio, idx). */
struct fill_slot {
	double ratio;		/* use / weight: the level at which it saturates */
	double wsuf;		/* weight of this slot and all after it, in sorted order */
	size_t idx;		/* node index, the tie-breaker that makes the order total */
};

/* Scratch memory of one ideal_compute(). */
struct ideal_scratch {
	size_t *first;		/* n + 1 entries: children of g are kids[first[g] .. first[g + 1]) */
	size_t *kids;		/* n entries: node indices grouped by parent, ascending within */
	double *use;		/* n entries: what each node can use, in CPUs (always finite) */
	struct fill_slot *slots;	/* n entries: the children of one cgroup while filling */
};

static bool weight_ok(double w)
{
	return w > 0 && isfinite(w);
}

/* "!(x >= 0)" rejects NaN as well as negatives; +INFINITY passes. */
static bool amount_ok(double x)
{
	return x >= 0;
}

static int check_tree(const struct ideal_node *nodes, size_t n, int cpus)
{
	if (cpus < 1 || n == 0)
		return -EINVAL;
	if (nodes[0].parent != -1 || nodes[0].thread || !amount_ok(nodes[0].cap))
		return -EINVAL;
	for (size_t i = 1; i < n; i++) {
		const struct ideal_node *nd = &nodes[i];

		if (nd->parent < 0 || (size_t)nd->parent >= i || nodes[nd->parent].thread)
			return -EINVAL;
		if (!weight_ok(nd->weight))
			return -EINVAL;
		if (nd->thread) {
			if (!amount_ok(nd->demand) || nd->cpus_allowed < 0 ||
			    nd->cpus_allowed > cpus)
				return -EINVAL;
		} else if (!amount_ok(nd->cap)) {
			return -EINVAL;
		}
	}
	return 0;
}

static void scratch_release(struct ideal_scratch *s)
{
	free(s->first);
	free(s->kids);
	free(s->use);
	free(s->slots);
}

static int scratch_init(struct ideal_scratch *s, size_t n)
{
	*s = (struct ideal_scratch){ 0 };
	if (n > SIZE_MAX / sizeof(struct fill_slot) - 1)
		return -ENOMEM;
	s->first = calloc(n + 1, sizeof(*s->first));
	s->kids = calloc(n, sizeof(*s->kids));
	s->use = calloc(n, sizeof(*s->use));
	s->slots = calloc(n, sizeof(*s->slots));
	if (!s->first || !s->kids || !s->use || !s->slots) {
		scratch_release(s);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Children lists in compressed form, by a counting sort on the parent: after
 * the prefix sums first[g + 1] is the end of g's range; filling from the last
 * node backwards moves it down to the start, so first[] ends up shifted by
 * one place, which the last loop undoes. Each range is in ascending index.
 */
static void link_children(const struct ideal_node *nodes, size_t n, struct ideal_scratch *s)
{
	for (size_t i = 1; i < n; i++)
		s->first[(size_t)nodes[i].parent + 1]++;
	for (size_t g = 0; g < n; g++)
		s->first[g + 1] += s->first[g];
	for (size_t i = n; i-- > 1;) {
		size_t p = (size_t)nodes[i].parent;

		s->kids[--s->first[p + 1]] = i;
	}
	for (size_t g = 0; g < n; g++)
		s->first[g] = s->first[g + 1];
	s->first[n] = n - 1;
}

static void compute_use(const struct ideal_node *nodes, size_t n, struct ideal_scratch *s)
{
	for (size_t i = n; i-- > 0;) {
		const struct ideal_node *nd = &nodes[i];
		double sum = 0;

		if (nd->thread) {
			s->use[i] = fmin(1.0, nd->demand);
			continue;
		}
		for (size_t k = s->first[i]; k < s->first[i + 1]; k++)
			sum += s->use[s->kids[k]];
		s->use[i] = fmin(nd->cap, sum);
	}
}

static int slot_cmp(const void *a, const void *b)
{
	const struct fill_slot *x = a, *y = b;

	if (x->ratio != y->ratio)
		return x->ratio < y->ratio ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Spread alloc[g] over g's children: alloc[c] = min(use[c], L weight[c]). */
static void fill_group(const struct ideal_node *nodes, size_t g, struct ideal_scratch *s,
		       double *alloc)
{
	size_t lo = s->first[g], k = s->first[g + 1] - lo;
	struct fill_slot *sl = s->slots;
	double left = alloc[g], wsuf = 0;

	if (k == 0)
		return;
	for (size_t j = 0; j < k; j++) {
		size_t c = s->kids[lo + j];

		sl[j] = (struct fill_slot){ s->use[c] / nodes[c].weight, 0, c };
	}
	qsort(sl, k, sizeof(*sl), slot_cmp);
	for (size_t j = k; j-- > 0;) {
		wsuf += nodes[sl[j].idx].weight;
		sl[j].wsuf = wsuf;
	}
	for (size_t j = 0; j < k; j++) {
		double level = left / sl[j].wsuf;

		if (sl[j].ratio <= level) {
			alloc[sl[j].idx] = s->use[sl[j].idx];
			left = fmax(0.0, left - s->use[sl[j].idx]);
			continue;
		}
		for (size_t m = j; m < k; m++)
			alloc[sl[m].idx] = level * nodes[sl[m].idx].weight;
		return;
	}
}

int ideal_compute(const struct ideal_node *nodes, size_t n, int cpus, double *share)
{
	struct ideal_scratch s;
	int err;

	if (!nodes || !share)
		return -EINVAL;
	err = check_tree(nodes, n, cpus);
	if (err)
		return err;
	err = scratch_init(&s, n);
	if (err)
		return err;

	link_children(nodes, n, &s);
	compute_use(nodes, n, &s);
	/* share[] holds allocations in CPUs until the last loop. */
	share[0] = fmin((double)cpus, s.use[0]);
	for (size_t g = 0; g < n; g++)
		if (!nodes[g].thread)
			fill_group(nodes, g, &s, share);
	for (size_t i = 0; i < n; i++)
		share[i] /= (double)cpus;

	scratch_release(&s);
	return 0;
}
