// SPDX-License-Identifier: MIT
/*
 * Unit tests of the ideal-share calculator (sim/run/ideal.h).
 *
 * Every expected number is derived by hand in the comment above its test,
 * from the definition in sim/run/ideal.h: the root gets min(cpus, what the tree
 * can use); each cgroup water-fills what it gets over its children by weight,
 * a thread using at most min(1, demand) CPUs and a cgroup at most
 * min(cpu.max, what its children can use). "Share" is CPUs / cpus. Weights
 * are sched_prio_to_weight (nice -5 = 3121, 0 = 1024, 5 = 335) and
 * cpu.shares (cpu.weight 100 = 1024). Exact results are compared to 1e-12,
 * far above double rounding on trees this small and far below any mistake.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim/run/ideal.h"

#define W_NICE_M5	3121.0
#define W_NICE_0	1024.0
#define W_NICE_5	335.0
#define BUSY		1.0
#define NOCAP		((double)INFINITY)
#define EPS		1e-12

#define TREE_MAX	64

struct tree {
	struct ideal_node nd[TREE_MAX];
	size_t n;
	double share[TREE_MAX];
};

static int tree_add(struct tree *t, struct ideal_node nd)
{
	cr_assert_lt(t->n, TREE_MAX);
	t->nd[t->n] = nd;
	return (int)t->n++;
}

/* A tree holding only the root cgroup (no cpu.max: the root has none). */
static void tree_init(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	tree_add(t, (struct ideal_node){ .parent = -1, .weight = W_NICE_0, .cap = NOCAP });
}

static int group(struct tree *t, int parent, double weight, double cap)
{
	return tree_add(t, (struct ideal_node){ .parent = parent, .weight = weight, .cap = cap });
}

static int thread(struct tree *t, int parent, double weight, double demand)
{
	return tree_add(t, (struct ideal_node){ .parent = parent, .thread = true,
						.weight = weight, .demand = demand });
}

static void compute(struct tree *t, int cpus)
{
	cr_assert_eq(ideal_compute(t->nd, t->n, cpus, t->share), 0);
}

static void expect(const struct tree *t, int i, double want, const char *what)
{
	cr_assert_leq(fabs(t->share[i] - want), EPS, "%s (node %d): share %.15g, expected %.15g",
		      what, i, t->share[i], want);
}

TestSuite(ideal);

/* ============================ 1. nice 0 against nice 5 ============================ */

/*
 * One CPU, two busy threads in the root. The tree can use 2 CPUs, so the
 * root gets min(1, 2) = 1. Split 1024 : 335 of 1359, neither reaches its one
 * CPU: 1024/1359 = 0.7535 and 335/1359 = 0.2465 of the one CPU.
 */
Test(ideal, nice0_vs_nice5_one_cpu)
{
	struct tree t;
	int a, b;

	tree_init(&t);
	a = thread(&t, 0, W_NICE_0, BUSY);
	b = thread(&t, 0, W_NICE_5, BUSY);
	compute(&t, 1);
	expect(&t, a, 1024.0 / 1359.0, "nice 0");
	expect(&t, b, 335.0 / 1359.0, "nice 5");
	expect(&t, 0, 1.0, "root");
}

/* ============================ 2. sched_init's example ============================ */

/*
 * The comment in the kernel's sched_init(): ten busy nice-0 threads in the
 * root and two groups A0, A1 of weight 1024 with one busy thread each, on
 * one CPU. Twelve children of weight 1024 share the root's 1 CPU: 1/12 each
 * (8.33 %), none capped. Each group passes its 1/12 to its only thread.
 */
Test(ideal, sched_init_example)
{
	struct tree t;
	int root_thr[10], grp[2], grp_thr[2];

	tree_init(&t);
	for (int i = 0; i < 10; i++)
		root_thr[i] = thread(&t, 0, W_NICE_0, BUSY);
	for (int i = 0; i < 2; i++) {
		grp[i] = group(&t, 0, 1024, NOCAP);
		grp_thr[i] = thread(&t, grp[i], W_NICE_0, BUSY);
	}
	compute(&t, 1);
	for (int i = 0; i < 10; i++)
		expect(&t, root_thr[i], 1.0 / 12, "root thread");
	for (int i = 0; i < 2; i++) {
		expect(&t, grp[i], 1.0 / 12, "group A");
		expect(&t, grp_thr[i], 1.0 / 12, "thread of group A");
	}
	expect(&t, 0, 1.0, "root");
}

/* ========================= 3. Zijlstra's layout and Heo's ========================= */

/*
 * Two CPUs. Zijlstra: four busy root threads and group vm (1024) with two
 * busy vCPU threads. The tree can use 4 + 2 = 6 CPUs, the root gets 2. Five
 * children of weight 1024: 2/5 = 0.4 CPU each, below every limit (a thread's
 * 1, vm's 2). Of capacity: 0.4 / 2 = 0.2 for each root thread and for vm;
 * vm's threads split its 0.4 CPU: 0.2 CPU = 0.1 each.
 *
 * Heo's interposed layout: the four threads in their own group C (1024).
 * Two children of 1024 share 2 CPUs: 1 CPU each (within C's 4 and vm's 2),
 * 0.5 of capacity each; C's threads get 1/4 CPU = 0.125, vm's 1/2 CPU = 0.25.
 */
Test(ideal, zijlstra_root_threads_and_vm)
{
	struct tree t;
	int thr[4], vm, vcpu[2];

	tree_init(&t);
	for (int i = 0; i < 4; i++)
		thr[i] = thread(&t, 0, W_NICE_0, BUSY);
	vm = group(&t, 0, 1024, NOCAP);
	for (int i = 0; i < 2; i++)
		vcpu[i] = thread(&t, vm, W_NICE_0, BUSY);
	compute(&t, 2);
	for (int i = 0; i < 4; i++)
		expect(&t, thr[i], 0.2, "root thread");
	expect(&t, vm, 0.2, "vm");
	for (int i = 0; i < 2; i++)
		expect(&t, vcpu[i], 0.1, "vcpu");
	expect(&t, 0, 1.0, "root");
}

Test(ideal, heo_interposed_group)
{
	struct tree t;
	int c, thr[4], vm, vcpu[2];

	tree_init(&t);
	c = group(&t, 0, 1024, NOCAP);
	for (int i = 0; i < 4; i++)
		thr[i] = thread(&t, c, W_NICE_0, BUSY);
	vm = group(&t, 0, 1024, NOCAP);
	for (int i = 0; i < 2; i++)
		vcpu[i] = thread(&t, vm, W_NICE_0, BUSY);
	compute(&t, 2);
	expect(&t, c, 0.5, "C");
	expect(&t, vm, 0.5, "vm");
	for (int i = 0; i < 4; i++)
		expect(&t, thr[i], 0.125, "thread of C");
	for (int i = 0; i < 2; i++)
		expect(&t, vcpu[i], 0.25, "vcpu");
}

/* =============================== 4. nested groups =============================== */

/*
 * Two CPUs; a (1024) holds x (1024) and y (3072); b (1024) sits beside a;
 * x, y and b hold two busy threads each. Root: a and b can use 2 CPUs each
 * (four and two threads), equal weights: 1 CPU each = 0.5. Inside a, 1 : 3:
 * x 0.25 CPU = 0.125, y 0.75 CPU = 0.375, both under their 2 CPUs. Threads:
 * x's 0.125 CPU = 0.0625 each, y's 0.375 CPU = 0.1875, b's 0.5 CPU = 0.25.
 */
Test(ideal, nested_groups)
{
	struct tree t;
	int a, x, y, b, tx[2], ty[2], tb[2];

	tree_init(&t);
	a = group(&t, 0, 1024, NOCAP);
	x = group(&t, a, 1024, NOCAP);
	y = group(&t, a, 3072, NOCAP);
	b = group(&t, 0, 1024, NOCAP);
	for (int i = 0; i < 2; i++) {
		tx[i] = thread(&t, x, W_NICE_0, BUSY);
		ty[i] = thread(&t, y, W_NICE_0, BUSY);
		tb[i] = thread(&t, b, W_NICE_0, BUSY);
	}
	compute(&t, 2);
	expect(&t, a, 0.5, "a");
	expect(&t, x, 0.125, "a/x");
	expect(&t, y, 0.375, "a/y");
	expect(&t, b, 0.5, "b");
	for (int i = 0; i < 2; i++) {
		expect(&t, tx[i], 0.0625, "thread of a/x");
		expect(&t, ty[i], 0.1875, "thread of a/y");
		expect(&t, tb[i], 0.25, "thread of b");
	}
}

/* ============================== 5. the one-CPU cap ============================== */

/*
 * Two CPUs; one group holding busy threads of nice -5, 0 and 5 (3121, 1024,
 * 335; sum 4480). The group can use 3 CPUs, gets 2. By weight nice -5 would
 * get 2 * 3121/4480 = 1.393 CPUs, more than one thread can run: it takes
 * 1 CPU (share 0.5). The other CPU is split 1024 : 335 of 1359: 0.7535 and
 * 0.2465 CPU, both under 1, so shares 512/1359 = 0.37675 and
 * 167.5/1359 = 0.12325.
 */
Test(ideal, one_cpu_cap_per_thread)
{
	struct tree t;
	int g, m5, n0, p5;

	tree_init(&t);
	g = group(&t, 0, 1024, NOCAP);
	m5 = thread(&t, g, W_NICE_M5, BUSY);
	n0 = thread(&t, g, W_NICE_0, BUSY);
	p5 = thread(&t, g, W_NICE_5, BUSY);
	compute(&t, 2);
	expect(&t, m5, 0.5, "nice -5");
	expect(&t, n0, 512.0 / 1359.0, "nice 0");
	expect(&t, p5, 167.5 / 1359.0, "nice 5");
	expect(&t, g, 1.0, "group");
}

/* =============================== 6. demand caps =============================== */

/*
 * One CPU; a thread demanding 0.1 CPU (1 ms every 10 ms) beside a busy one,
 * both nice 0. The tree can use 1.1, the root gets 1. An equal split (0.5)
 * is more than the light thread wants: it takes 0.1, the busy one the
 * remaining 0.9.
 */
Test(ideal, demand_below_fair_share)
{
	struct tree t;
	int light, busy;

	tree_init(&t);
	light = thread(&t, 0, W_NICE_0, 0.1);
	busy = thread(&t, 0, W_NICE_0, BUSY);
	compute(&t, 1);
	expect(&t, light, 0.1, "light thread");
	expect(&t, busy, 0.9, "busy thread");
	expect(&t, 0, 1.0, "root");
}

/*
 * Two CPUs; two threads demanding 0.2 CPU each. The tree can use 0.4 CPU,
 * less than the machine: the root gets 0.4 CPU = 0.2 of capacity, each
 * thread its 0.2 CPU = 0.1. Nothing is handed out that nobody can use.
 */
Test(ideal, tree_demands_less_than_machine)
{
	struct tree t;
	int a, b;

	tree_init(&t);
	a = thread(&t, 0, W_NICE_0, 0.2);
	b = thread(&t, 0, W_NICE_0, 0.2);
	compute(&t, 2);
	expect(&t, a, 0.1, "thread a");
	expect(&t, b, 0.1, "thread b");
	expect(&t, 0, 0.2, "root");
}

/*
 * Two CPUs; group A (1024) whose only thread demands 0.3 CPU beside group B
 * (1024) with two busy threads. A can use only 0.3 (the sum of its subtree),
 * B 2. Equal split 1 : 1 gives A more than 0.3: A 0.3 CPU = 0.15, B the
 * remaining 1.7 CPU = 0.85, 0.85 CPU = 0.425 for each of its threads.
 */
Test(ideal, group_limited_by_subtree_demand)
{
	struct tree t;
	int a, ta, b, tb[2];

	tree_init(&t);
	a = group(&t, 0, 1024, NOCAP);
	ta = thread(&t, a, W_NICE_0, 0.3);
	b = group(&t, 0, 1024, NOCAP);
	tb[0] = thread(&t, b, W_NICE_0, BUSY);
	tb[1] = thread(&t, b, W_NICE_0, BUSY);
	compute(&t, 2);
	expect(&t, a, 0.15, "A");
	expect(&t, ta, 0.15, "thread of A");
	expect(&t, b, 0.85, "B");
	expect(&t, tb[0], 0.425, "thread of B");
	expect(&t, tb[1], 0.425, "thread of B");
}

/*
 * An idle machine and an empty cgroup. One CPU; an empty group E (1024)
 * beside a busy thread: E can use nothing and gets 0, the thread 1. With
 * the thread idle too (demand 0) the tree can use nothing: every share is 0.
 */
Test(ideal, empty_group_and_idle_tree)
{
	struct tree t;
	int e, th;

	tree_init(&t);
	e = group(&t, 0, 1024, NOCAP);
	th = thread(&t, 0, W_NICE_0, BUSY);
	compute(&t, 1);
	expect(&t, e, 0.0, "empty group");
	expect(&t, th, 1.0, "busy thread");
	t.nd[th].demand = 0;
	compute(&t, 1);
	for (int i = 0; i < (int)t.n; i++)
		cr_assert_eq(t.share[i], 0.0, "node %d of an idle tree: %g", i, t.share[i]);
}

/* ================================ 7. cpu.max caps ================================ */

/*
 * Two CPUs; group L (1024, cpu.max 50000 100000 = 0.5 CPU) and group U
 * (1024, max), two busy threads each. L can use min(0.5, 2) = 0.5, U 2. The
 * equal split (1 CPU each) is over L's cap: L 0.5 CPU = 0.25, U the other
 * 1.5 CPU = 0.75. Threads: L's 0.25 CPU = 0.125 each, U's 0.75 CPU = 0.375.
 */
Test(ideal, cpu_max_caps_group)
{
	struct tree t;
	int l, u, tl[2], tu[2];

	tree_init(&t);
	l = group(&t, 0, 1024, 50000.0 / 100000.0);
	u = group(&t, 0, 1024, NOCAP);
	for (int i = 0; i < 2; i++) {
		tl[i] = thread(&t, l, W_NICE_0, BUSY);
		tu[i] = thread(&t, u, W_NICE_0, BUSY);
	}
	compute(&t, 2);
	expect(&t, l, 0.25, "L");
	expect(&t, u, 0.75, "U");
	for (int i = 0; i < 2; i++) {
		expect(&t, tl[i], 0.125, "thread of L");
		expect(&t, tu[i], 0.375, "thread of U");
	}
}

/*
 * Four CPUs; P (1024, cpu.max 100000 100000 = 1 CPU) holds C (1024, cpu.max
 * 150000 100000 = 1.5 CPUs) with four busy threads; a busy thread T sits
 * beside P in the root. C can use min(1.5, 4) = 1.5, P min(1, 1.5) = 1: the
 * parent's cap wins. The tree can use 1 + 1 = 2 of 4 CPUs: P 1 CPU = 0.25,
 * T 1 CPU = 0.25; C gets P's whole 1 CPU = 0.25, not its own 1.5; its
 * threads 0.25 CPU = 0.0625 each.
 */
Test(ideal, child_cap_above_parent_cap)
{
	struct tree t;
	int p, c, th[4], tt;

	tree_init(&t);
	p = group(&t, 0, 1024, 1.0);
	c = group(&t, p, 1024, 1.5);
	for (int i = 0; i < 4; i++)
		th[i] = thread(&t, c, W_NICE_0, BUSY);
	tt = thread(&t, 0, W_NICE_0, BUSY);
	compute(&t, 4);
	expect(&t, p, 0.25, "P");
	expect(&t, c, 0.25, "P/C");
	expect(&t, tt, 0.25, "T");
	for (int i = 0; i < 4; i++)
		expect(&t, th[i], 0.0625, "thread of P/C");
	expect(&t, 0, 0.5, "root");
}

/* ====================== 8. redistribution over several rounds ====================== */

/*
 * One CPU; four nice-0 threads in the root demanding 0.1, 0.28, 0.305 and
 * busy. Done in rounds of "cap and redistribute":
 *   round 1: 1/4 = 0.25 each; the 0.1 thread is over its demand, 0.15 left;
 *   round 2: 0.25 + 0.15/3 = 0.30 each; 0.28 is over, 0.02 left;
 *   round 3: 0.30 + 0.02/2 = 0.31 each; 0.305 is over, 0.005 left;
 *   round 4: the busy thread 0.31 + 0.005 = 0.315, under its 1 CPU.
 * Result 0.1, 0.28, 0.305, 0.315 (sum 1).
 */
Test(ideal, cascade_of_demand_caps)
{
	struct tree t;
	int a, b, c, d;

	tree_init(&t);
	a = thread(&t, 0, W_NICE_0, 0.1);
	b = thread(&t, 0, W_NICE_0, 0.28);
	c = thread(&t, 0, W_NICE_0, 0.305);
	d = thread(&t, 0, W_NICE_0, BUSY);
	compute(&t, 1);
	expect(&t, a, 0.1, "0.1 thread");
	expect(&t, b, 0.28, "0.28 thread");
	expect(&t, c, 0.305, "0.305 thread");
	expect(&t, d, 0.315, "busy thread");
	expect(&t, 0, 1.0, "root");
}

/*
 * Two CPUs; G1 (1024, cap 0.2), G2 (1024, cap 0.55), G3 (2048, max), two busy
 * threads each; the tree can use 0.2 + 0.55 + 2, the root gets 2.
 *   round 1: 1 : 1 : 2 gives 0.5, 0.5, 1; G1 is over its 0.2, 0.3 left;
 *   round 2: G2 : G3 = 1 : 2 of 1.8 gives 0.6, 1.2; G2 is over its 0.55;
 *   round 3: G3 takes 2 - 0.2 - 0.55 = 1.25 CPU, under its 2.
 * Shares G1 0.1, G2 0.275, G3 0.625; G3's threads 0.625 CPU = 0.3125 each.
 */
Test(ideal, cascade_of_cpu_max_caps)
{
	struct tree t;
	int g1, g2, g3, t3[2];

	tree_init(&t);
	g1 = group(&t, 0, 1024, 0.2);
	thread(&t, g1, W_NICE_0, BUSY);
	thread(&t, g1, W_NICE_0, BUSY);
	g2 = group(&t, 0, 1024, 0.55);
	thread(&t, g2, W_NICE_0, BUSY);
	thread(&t, g2, W_NICE_0, BUSY);
	g3 = group(&t, 0, 2048, NOCAP);
	t3[0] = thread(&t, g3, W_NICE_0, BUSY);
	t3[1] = thread(&t, g3, W_NICE_0, BUSY);
	compute(&t, 2);
	expect(&t, g1, 0.1, "G1");
	expect(&t, g2, 0.275, "G2");
	expect(&t, g3, 0.625, "G3");
	expect(&t, t3[0], 0.3125, "thread of G3");
	expect(&t, t3[1], 0.3125, "thread of G3");
}

/* ========================= the example of docs/ideal-shares.md ========================= */

/*
 * Two CPUs; busy nice-0 threads T1, T2 in the root; vm (1024, cpu.max 0.5)
 * with two busy vCPUs; io (1024) with one thread of demand 0.2. Uses: 1, 1,
 * 0.5, 0.2; the root gets min(2, 2.7) = 2. io saturates (0.2 <= 2/4), then
 * vm (0.5 <= 1.8/3), then T1 and T2 split 1.3: 0.65 CPU each. Shares: T1, T2
 * 0.325, vm 0.25 (0.125 per vCPU), io 0.1.
 */
Test(ideal, docs_worked_example)
{
	struct tree t;
	int t1, t2, vm, v[2], io, tio;

	tree_init(&t);
	t1 = thread(&t, 0, W_NICE_0, BUSY);
	t2 = thread(&t, 0, W_NICE_0, BUSY);
	vm = group(&t, 0, 1024, 50000.0 / 100000.0);
	v[0] = thread(&t, vm, W_NICE_0, BUSY);
	v[1] = thread(&t, vm, W_NICE_0, BUSY);
	io = group(&t, 0, 1024, NOCAP);
	tio = thread(&t, io, W_NICE_0, 0.2);
	compute(&t, 2);
	expect(&t, t1, 0.325, "T1");
	expect(&t, t2, 0.325, "T2");
	expect(&t, vm, 0.25, "vm");
	expect(&t, v[0], 0.125, "vcpu");
	expect(&t, v[1], 0.125, "vcpu");
	expect(&t, io, 0.1, "io");
	expect(&t, tio, 0.1, "thread of io");
	expect(&t, 0, 1.0, "root");
}

/* ================================== affinity ================================== */

/*
 * Four CPUs; a busy thread allowed on one CPU alone in the root: it can
 * still use one CPU, 0.25 of capacity. Three busy threads each allowed on
 * one CPU (of three): the ideal gives 1/3 each, which assumes different
 * CPUs; a count cannot tell, and sim/run/ideal.h documents that pinning several
 * threads to one CPU is not modelled. The count never changes the result.
 */
Test(ideal, affinity_count_keeps_one_cpu_cap)
{
	struct tree t, u;
	int a;

	tree_init(&t);
	a = thread(&t, 0, W_NICE_0, BUSY);
	t.nd[a].cpus_allowed = 1;
	compute(&t, 4);
	expect(&t, a, 0.25, "pinned thread");

	tree_init(&t);
	for (int i = 0; i < 3; i++)
		t.nd[thread(&t, 0, W_NICE_0, BUSY)].cpus_allowed = 1;
	compute(&t, 3);
	for (int i = 1; i <= 3; i++)
		expect(&t, i, 1.0 / 3, "thread allowed on 1 CPU");

	u = t;
	for (int i = 1; i <= 3; i++)
		u.nd[i].cpus_allowed = 0;
	compute(&u, 3);
	cr_assert_eq(memcmp(t.share, u.share, t.n * sizeof(double)), 0);
}

/* ================================ 9. invalid input ================================ */

#define SENTINEL (-7.25)

/* ideal_compute() must fail with -EINVAL and leave @share as it was. */
static void expect_einval(const struct ideal_node *nd, size_t n, int cpus, const char *what)
{
	double share[TREE_MAX];

	for (size_t i = 0; i < TREE_MAX; i++)
		share[i] = SENTINEL;
	cr_assert_eq(ideal_compute(nd, n, cpus, share), -EINVAL, "%s: not rejected", what);
	for (size_t i = 0; i < TREE_MAX; i++)
		cr_assert_eq(share[i], SENTINEL, "%s: share[%zu] written", what, i);
}

/* A valid tree: root, group 1, threads 2 (in 1) and 3 (in the root). */
static void valid_tree(struct tree *t)
{
	int g;

	tree_init(t);
	g = group(t, 0, 1024, 0.5);
	thread(t, g, W_NICE_0, BUSY);
	thread(t, 0, W_NICE_0, 0.5);
}

Test(ideal, invalid_input_rejected_share_untouched)
{
	static const struct {
		const char *what;
		int node;
		enum { F_PARENT, F_THREAD, F_WEIGHT, F_DEMAND, F_CAP, F_ALLOWED } field;
		double value;
	} bad[] = {
		{ "root with a parent", 0, F_PARENT, 0 },
		{ "root with parent 1", 0, F_PARENT, 1 },
		{ "root is a thread", 0, F_THREAD, 1 },
		{ "root cap NaN", 0, F_CAP, (double)NAN },
		{ "root cap negative", 0, F_CAP, -1 },
		{ "second root", 1, F_PARENT, -1 },
		{ "parent below -1", 1, F_PARENT, -2 },
		{ "own parent", 1, F_PARENT, 1 },
		{ "parent after child", 1, F_PARENT, 3 },
		{ "parent out of range", 3, F_PARENT, 99 },
		{ "thread with a child", 3, F_PARENT, 2 },
		{ "group weight 0", 1, F_WEIGHT, 0 },
		{ "thread weight 0", 2, F_WEIGHT, 0 },
		{ "weight negative", 2, F_WEIGHT, -1024 },
		{ "weight NaN", 1, F_WEIGHT, (double)NAN },
		{ "weight infinite", 3, F_WEIGHT, (double)INFINITY },
		{ "demand negative", 3, F_DEMAND, -0.1 },
		{ "demand NaN", 3, F_DEMAND, (double)NAN },
		{ "cap negative", 1, F_CAP, -0.5 },
		{ "cap NaN", 1, F_CAP, (double)NAN },
		{ "cap minus infinity", 1, F_CAP, -(double)INFINITY },
		{ "cpus_allowed negative", 2, F_ALLOWED, -1 },
		{ "cpus_allowed above cpus", 2, F_ALLOWED, 3 },
	};
	struct tree t;

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct ideal_node *nd;

		valid_tree(&t);
		nd = &t.nd[bad[k].node];
		switch (bad[k].field) {
		case F_PARENT: nd->parent = (int)bad[k].value; break;
		case F_THREAD: nd->thread = true; break;
		case F_WEIGHT: nd->weight = bad[k].value; break;
		case F_DEMAND: nd->demand = bad[k].value; break;
		case F_CAP: nd->cap = bad[k].value; break;
		case F_ALLOWED: nd->cpus_allowed = (int)bad[k].value; break;
		}
		expect_einval(t.nd, t.n, 2, bad[k].what);
	}

	valid_tree(&t);
	expect_einval(t.nd, 0, 2, "no nodes");
	expect_einval(t.nd, t.n, 0, "0 CPUs");
	expect_einval(t.nd, t.n, -4, "negative CPUs");
	expect_einval(NULL, t.n, 2, "NULL nodes");
	cr_assert_eq(ideal_compute(t.nd, t.n, 2, NULL), -EINVAL, "NULL share");
}

/*
 * The edges that are accepted: fields that do not apply to a node's kind
 * are not checked (root weight, a group's demand and cpus_allowed, a
 * thread's cap), demand and cap may be infinite (busy, max) or 0, and
 * cpus_allowed may equal cpus. Root alone on 2 CPUs: group 1 capped at 0
 * gets nothing; thread 3 (infinite demand = busy) takes 1 CPU = 0.5.
 */
Test(ideal, accepted_edges)
{
	struct tree t;

	valid_tree(&t);
	t.nd[0].weight = (double)NAN;
	t.nd[1].demand = (double)NAN;
	t.nd[1].cpus_allowed = -3;
	t.nd[1].cap = 0;
	t.nd[2].cap = (double)NAN;
	t.nd[2].cpus_allowed = 2;
	t.nd[3].demand = (double)INFINITY;
	compute(&t, 2);
	expect(&t, 1, 0.0, "group capped at 0");
	expect(&t, 2, 0.0, "thread of the group capped at 0");
	expect(&t, 3, 0.5, "busy thread");
	expect(&t, 0, 0.5, "root");

	tree_init(&t);
	compute(&t, 1);
	expect(&t, 0, 0.0, "root alone");
}

/* ============================ 10. randomized properties ============================ */

/* Knuth's MMIX LCG: fixed seed, so the trees are the same on every run. */
static uint64_t lcg_state;

static double lcg_uniform(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg_state >> 11) * 0x1p-53;
}

static int lcg_int(int n)
{
	return (int)(lcg_uniform() * n);
}

/*
 * A random tree of 1..40 nodes: each node under a random earlier cgroup;
 * 60 % threads with a random nice weight and a demand that is busy, idle or
 * uniform; cgroups with a random cpu.weight (1..10000, as shares) and a
 * cpu.max of 0.05..3 CPUs 40 % of the time.
 */
static size_t random_tree(struct ideal_node *nd, int *cpus)
{
	static const double nice_w[] = { 88761, 29154, 9548, 3121, 1024, 335, 110, 36, 15 };
	size_t n = 1 + (size_t)lcg_int(40);
	int groups[TREE_MAX], ng = 1;

	*cpus = 1 + lcg_int(8);
	nd[0] = (struct ideal_node){ .parent = -1, .weight = 1024, .cap = NOCAP };
	groups[0] = 0;
	for (size_t i = 1; i < n; i++) {
		struct ideal_node *x = &nd[i];

		*x = (struct ideal_node){ .parent = groups[lcg_int(ng)] };
		if (lcg_uniform() < 0.6) {
			double r = lcg_uniform();

			x->thread = true;
			x->weight = nice_w[lcg_int(9)];
			x->demand = r < 0.4 ? BUSY : r < 0.5 ? 0 : lcg_uniform();
			x->cpus_allowed = lcg_int(*cpus + 1);
		} else {
			x->weight = (double)((1 + lcg_int(10000)) * 1024 / 100);
			x->cap = lcg_uniform() < 0.4 ? 0.05 + 2.95 * lcg_uniform() : NOCAP;
			groups[ng++] = (int)i;
		}
	}
	return n;
}

/* What node i can use, by the definition, recursively. */
static double ref_use(const struct ideal_node *nd, size_t n, size_t i)
{
	double sum = 0;

	if (nd[i].thread)
		return fmin(1.0, nd[i].demand);
	for (size_t c = i + 1; c < n; c++)
		if ((size_t)nd[c].parent == i)
			sum += ref_use(nd, n, c);
	return fmin(nd[i].cap, sum);
}

/*
 * The textbook rounds, independent of the library's sorted pass: split what
 * is left by weight among the children not yet capped; fix every child whose
 * part exceeds what it can use at that amount; repeat until no part exceeds.
 */
static void ref_fill(const struct ideal_node *nd, size_t n, size_t g, double *alloc)
{
	bool capped[TREE_MAX] = { false };
	double use[TREE_MAX], left = alloc[g];

	for (size_t c = g + 1; c < n; c++)
		if ((size_t)nd[c].parent == g)
			use[c] = ref_use(nd, n, c);
	for (;;) {
		double w = 0;
		bool any = false;

		for (size_t c = g + 1; c < n; c++)
			if ((size_t)nd[c].parent == g && !capped[c])
				w += nd[c].weight;
		if (w == 0)
			break;
		for (size_t c = g + 1; c < n; c++) {
			if ((size_t)nd[c].parent != g || capped[c] || left * nd[c].weight / w <= use[c])
				continue;
			alloc[c] = use[c];
			capped[c] = true;
			any = true;
		}
		if (any) {
			left = alloc[g];
			for (size_t c = g + 1; c < n; c++)
				if ((size_t)nd[c].parent == g && capped[c])
					left -= alloc[c];
			continue;
		}
		for (size_t c = g + 1; c < n; c++)
			if ((size_t)nd[c].parent == g && !capped[c])
				alloc[c] = left * nd[c].weight / w;
		break;
	}
	for (size_t c = g + 1; c < n; c++)
		if ((size_t)nd[c].parent == g && !nd[c].thread)
			ref_fill(nd, n, c, alloc);
}

static void check_properties(const struct ideal_node *nd, size_t n, int cpus, int trial)
{
	double share[TREE_MAX], again[TREE_MAX], ref[TREE_MAX] = { 0 };

	cr_assert_eq(ideal_compute(nd, n, cpus, share), 0, "trial %d", trial);

	/* Deterministic: the same tree gives the same bits. */
	cr_assert_eq(ideal_compute(nd, n, cpus, again), 0);
	cr_assert_eq(memcmp(share, again, n * sizeof(double)), 0, "trial %d: not repeatable", trial);

	/* The same numbers as the textbook rounds. */
	ref[0] = fmin((double)cpus, ref_use(nd, n, 0));
	ref_fill(nd, n, 0, ref);
	for (size_t i = 0; i < n; i++)
		cr_assert_leq(fabs(share[i] - ref[i] / cpus), 1e-12,
			      "trial %d node %zu: %.15g, rounds give %.15g", trial, i, share[i],
			      ref[i] / cpus);

	for (size_t i = 0; i < n; i++) {
		double sum = 0, cpus_got = share[i] * cpus;

		/* Within [0, caps]. */
		cr_assert_geq(share[i], 0.0, "trial %d node %zu", trial, i);
		if (nd[i].thread)
			cr_assert_leq(cpus_got, fmin(1.0, nd[i].demand) + EPS,
				      "trial %d thread %zu over its cap", trial, i);
		else
			cr_assert_leq(cpus_got, nd[i].cap + EPS, "trial %d group %zu over cpu.max",
				      trial, i);
		if (nd[i].thread)
			continue;
		/* A cgroup's share is what its children got: nothing is lost or made up. */
		for (size_t c = i + 1; c < n; c++)
			if ((size_t)nd[c].parent == i)
				sum += share[c];
		cr_assert_leq(fabs(sum - share[i]), EPS, "trial %d group %zu: children sum %.15g, "
			      "group %.15g", trial, i, sum, share[i]);
	}
	cr_assert_leq(share[0], 1.0 + EPS);
}

/* With no cpu.max the root serves every demand it can: min(1, sum / cpus). */
static void check_uncapped_total(struct ideal_node *nd, size_t n, int cpus, int trial)
{
	double share[TREE_MAX], demand = 0;

	for (size_t i = 0; i < n; i++) {
		if (nd[i].thread)
			demand += fmin(1.0, nd[i].demand);
		else
			nd[i].cap = NOCAP;
	}
	cr_assert_eq(ideal_compute(nd, n, cpus, share), 0);
	cr_assert_leq(fabs(share[0] - fmin(1.0, demand / cpus)), EPS,
		      "trial %d: root %.15g, demand %.15g on %d CPUs", trial, share[0], demand, cpus);
}

/* Raising one node's weight never lowers its share. */
static void check_monotone(struct ideal_node *nd, size_t n, int cpus, int trial)
{
	double before[TREE_MAX], after[TREE_MAX];
	size_t i;

	if (n < 2)
		return;
	i = 1 + (size_t)lcg_int((int)n - 1);
	cr_assert_eq(ideal_compute(nd, n, cpus, before), 0);
	nd[i].weight *= 1.0 + 4.0 * lcg_uniform();
	cr_assert_eq(ideal_compute(nd, n, cpus, after), 0);
	cr_assert_geq(after[i], before[i] - EPS, "trial %d node %zu: %.15g fell to %.15g",
		      trial, i, before[i], after[i]);
}

Test(ideal, random_trees_properties)
{
	struct ideal_node nd[TREE_MAX];

	lcg_state = 20170707;
	for (int trial = 0; trial < 3000; trial++) {
		int cpus;
		size_t n = random_tree(nd, &cpus);

		check_properties(nd, n, cpus, trial);
		check_monotone(nd, n, cpus, trial);
		check_uncapped_total(nd, n, cpus, trial);
	}
}
