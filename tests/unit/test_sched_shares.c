// SPDX-License-Identifier: MIT
/*
 * Unit tests of the scheduler driven by the whole machine (sim/machine/machine.h): the CPU shares that
 * nice values and cgroup weights give, wakeup latency with custom slices, exact tick elision
 * and determinism.
 *
 * Every expected share is derived in a comment from the kernel's rules
 * (docs/scheduler.md): sched_prio_to_weight (§4.1), the weight of a
 * cgroup (cpu.weight 100 = shares 1024, §3.1), fairness in proportion to weight on each queue
 * (§4.3 calc_delta_fair, §5 lag), group entities competing with tasks as equals (§4.6) with
 * calc_group_shares splitting tg.shares over the CPUs by load (§4.6), and the balancer (§7)
 * spreading load. "Share" is CPU time / (CPUs x window), a fraction of the machine's capacity;
 * the scheduler's own overhead takes well under 0.5 % of it with the default costs, inside
 * every tolerance below.
 *
 * Each scenario runs on both policies (CFS, before 6.6, and EEVDF, 6.6+): the long-run shares
 * do not depend on the policy, only on the weights.
 */
#include "tests/unit/sched_test_util.h"

#define WARM	(1 * STT_SEC)
#define WINDOW	(10 * STT_SEC)

/* sched_prio_to_weight (§4.1) */
#define W_NICE_M5	3121.0
#define W_NICE_0	1024.0
#define W_NICE_5	335.0

TestSuite(sched_shares, .fini = stt_fini);
TestSuite(sched_latency, .fini = stt_fini);
TestSuite(sched_elision, .fini = stt_fini);
TestSuite(sched_determinism, .fini = stt_fini);

/* ======================= 1. nice 0 against nice 5 on one CPU ======================= */

/*
 * Two always-runnable threads in the root on one CPU. Each queue shares its CPU in proportion
 * to its entities' weights: CFS advances vruntime by delta * 1024 / w and always runs the
 * smallest (§4.3); EEVDF keeps every lag w_i (V - v_i) bounded by a slice (§5). Over 10 s the
 * error is a slice or two (a few ms) against ~7.5 s, so the ratio of CPU times is the ratio
 * of weights: 1024 / 335 = 3.0567, to within 0.5 %.
 */
static void nice_ratio(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	int pid = stt_proc(h, "p", 2, NULL);
	struct sim_machine *m = stt_machine(h, pol, 1, 1, true, true);
	double want = W_NICE_0 / W_NICE_5, got;
	uint64_t c0, c5;

	stt_busy(m, pid, 0);
	stt_busy(m, pid + 1, 5);
	stt_run(m, WARM, WINDOW);
	c0 = stt_cpu(m, pid);
	c5 = stt_cpu(m, pid + 1);
	cr_assert_gt(c5, 0, "[%s] nice 5 got no CPU", sched_policy_name(pol));
	got = (double)c0 / (double)c5;
	stt_assert_near("cpu(nice 0) / cpu(nice 5)", pol, got, want, 0.005 * want);
	/* Together they use the whole CPU but the overhead (< 0.5 %). */
	stt_assert_near("share of nice 0 + nice 5", pol, stt_share(c0 + c5, 1, WINDOW), 1.0,
			0.005);
	stt_end();
}

Test(sched_shares, nice0_vs_nice5_eevdf) { nice_ratio(SCHED_POLICY_EEVDF); }
Test(sched_shares, nice0_vs_nice5_cfs) { nice_ratio(SCHED_POLICY_CFS); }
Test(sched_shares, nice0_vs_nice5_eevdf_flat) { nice_ratio(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 2. weights 100 : 200 : 50 on two CPUs ======================= */

/*
 * cpu.weight 100, 200, 50 are tg.shares 1024, 2048, 512 (DIV_ROUND_CLOSEST(w * 1024, 100),
 * §3.1). Each group has 2 busy threads and there are 2 CPUs: the balancer leaves one thread of
 * each group per CPU (any other placement differs in load by far more than imbalance_pct 117 %,
 * §7), so calc_group_shares gives each group half its shares on each CPU (equal load on both:
 * shares * load / (2 * load)): 512, 1024, 256. On each CPU the three group entities share it
 * 512 : 1024 : 256 = 2 : 4 : 1, so of the machine: A 2/7 = 28.57 %, B 4/7 = 57.14 %,
 * C 1/7 = 14.29 % (±1 percentage point).
 */
static void weights_2_4_1(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int a, b, c;

	stt_cgroup(h, "A", 100);
	stt_cgroup(h, "B", 200);
	stt_cgroup(h, "C", 50);
	a = stt_proc(h, "a", 2, "A");
	b = stt_proc(h, "b", 2, "B");
	c = stt_proc(h, "c", 2, "C");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, a, 2);
	stt_busy_n(m, b, 2);
	stt_busy_n(m, c, 2);
	stt_run(m, WARM, WINDOW);
	stt_assert_near("A (weight 100)", pol, stt_cg_share(m, h, "A", 2, WINDOW), 2.0 / 7, 0.01);
	stt_assert_near("B (weight 200)", pol, stt_cg_share(m, h, "B", 2, WINDOW), 4.0 / 7, 0.01);
	stt_assert_near("C (weight 50)", pol, stt_cg_share(m, h, "C", 2, WINDOW), 1.0 / 7, 0.01);
	stt_end();
}

Test(sched_shares, weights_100_200_50_eevdf) { weights_2_4_1(SCHED_POLICY_EEVDF); }
Test(sched_shares, weights_100_200_50_cfs) { weights_2_4_1(SCHED_POLICY_CFS); }
Test(sched_shares, weights_100_200_50_eevdf_flat) { weights_2_4_1(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 3. the sched_init() example ======================= */

/*
 * kernel/sched/core.c sched_init() (§4.6): 10 nice-0 tasks in the root and two groups A0, A1
 * of weight 1024 (cpu.weight 100) with one busy thread each, on one CPU. The root group has no
 * entity: its tasks and the two group entities all sit on rq->cfs. On one CPU a group's
 * entity weight is its whole tg.shares (calc_group_shares: shares * load / load), 1024. So
 * 12 entities of 1024 share the CPU: each group and each root thread gets
 * 1024 / (10 * 1024 + 1024 + 1024) = 1/12 = 8.33 % (±0.5 percentage point).
 */
static void sched_init_example(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int r, a0, a1;

	stt_cgroup(h, "A0", 100);
	stt_cgroup(h, "A1", 100);
	r = stt_proc(h, "root", 10, NULL);
	a0 = stt_proc(h, "p0", 1, "A0");
	a1 = stt_proc(h, "p1", 1, "A1");
	m = stt_machine(h, pol, 1, 1, true, true);
	stt_busy_n(m, r, 10);
	stt_busy(m, a0, 0);
	stt_busy(m, a1, 0);
	stt_run(m, WARM, WINDOW);
	stt_assert_near("group A0", pol, stt_cg_share(m, h, "A0", 1, WINDOW), 1.0 / 12, 0.005);
	stt_assert_near("group A1", pol, stt_cg_share(m, h, "A1", 1, WINDOW), 1.0 / 12, 0.005);
	for (int i = 0; i < 10; i++) {
		char what[32];

		snprintf(what, sizeof(what), "root thread %d", i + 1);
		stt_assert_near(what, pol, stt_share(stt_cpu(m, r + i), 1, WINDOW), 1.0 / 12,
				0.005);
	}
	stt_end();
}

Test(sched_shares, sched_init_example_eevdf) { sched_init_example(SCHED_POLICY_EEVDF); }
Test(sched_shares, sched_init_example_cfs) { sched_init_example(SCHED_POLICY_CFS); }
Test(sched_shares, sched_init_example_eevdf_flat) { sched_init_example(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 4. Zijlstra's layout, then the interposed one ======================= */

/*
 * 4 busy threads of one process in the root and a cgroup "vm" (weight 100, shares 1024) with a
 * 2-thread busy process, on 2 CPUs. Balanced placement (§7): each CPU has 2 root threads and 1
 * vm thread (every other placement is off by more than 17 % in load). vm's load is equal on
 * both CPUs, so calc_group_shares gives its entity 1024 * 1024 / 2048 = 512 on each. Per CPU:
 * 2 root threads of 1024 against the vm entity of 512: vm gets 512 / 2560 = 20 % of each CPU,
 * so 20 % of the machine, and each root thread 1024 / 2560 = 40 % of a CPU = 20 % of the
 * machine (±1 percentage point). The root threads, not being in a group, are not held to one
 * group's weight: 4 of them take 80 %.
 */
static void zijlstra(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int app, vm;

	stt_cgroup(h, "vm", 100);
	app = stt_proc(h, "app", 4, NULL);
	vm = stt_proc(h, "guest", 2, "vm");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, app, 4);
	stt_busy_n(m, vm, 2);
	stt_run(m, WARM, WINDOW);
	stt_assert_near("vm", pol, stt_cg_share(m, h, "vm", 2, WINDOW), 0.20, 0.01);
	for (int i = 0; i < 4; i++) {
		char what[32];

		snprintf(what, sizeof(what), "root thread app.%d", i + 1);
		stt_assert_near(what, pol, stt_share(stt_cpu(m, app + i), 2, WINDOW), 0.20, 0.01);
	}
	stt_end();
}

/*
 * The same with the 4-thread process moved into its own cgroup "app" (weight 100). Now each
 * CPU holds two group entities: app with 2 of its 4 threads there, 1024 * 2048 / 4096 = 512,
 * and vm with 1 of its 2, 1024 * 1024 / 2048 = 512. Equal weights: 50 % / 50 % (±1 point).
 */
static void zijlstra_interposed(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int app, vm;

	stt_cgroup(h, "vm", 100);
	stt_cgroup(h, "app", 100);
	app = stt_proc(h, "app", 4, "app");
	vm = stt_proc(h, "guest", 2, "vm");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, app, 4);
	stt_busy_n(m, vm, 2);
	stt_run(m, WARM, WINDOW);
	stt_assert_near("vm", pol, stt_cg_share(m, h, "vm", 2, WINDOW), 0.50, 0.01);
	stt_assert_near("app", pol, stt_cg_share(m, h, "app", 2, WINDOW), 0.50, 0.01);
	stt_end();
}

Test(sched_shares, zijlstra_root_threads_eevdf) { zijlstra(SCHED_POLICY_EEVDF); }
Test(sched_shares, zijlstra_root_threads_cfs) { zijlstra(SCHED_POLICY_CFS); }
Test(sched_shares, zijlstra_root_threads_eevdf_flat) { zijlstra(SCHED_POLICY_EEVDF_FLAT); }
Test(sched_shares, zijlstra_interposed_eevdf) { zijlstra_interposed(SCHED_POLICY_EEVDF); }
Test(sched_shares, zijlstra_interposed_cfs) { zijlstra_interposed(SCHED_POLICY_CFS); }
Test(sched_shares, zijlstra_interposed_eevdf_flat) { zijlstra_interposed(SCHED_POLICY_EEVDF_FLAT); }

/*
 * The interposition done while running: the layout of zijlstra() for 1 s, then the process is
 * moved into "app" (cgroup.procs) and the window starts 1 s later, once load averages and group
 * shares have settled (PELT's half-life is 32 ms, §7). Same expectation: 50 % / 50 %.
 */
static void zijlstra_move_live(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int app, vm, rc;

	stt_cgroup(h, "vm", 100);
	stt_cgroup(h, "app", 100);
	app = stt_proc(h, "app", 4, NULL);
	vm = stt_proc(h, "guest", 2, "vm");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, app, 4);
	stt_busy_n(m, vm, 2);
	rc = sim_machine_run_until(m, WARM);
	cr_assert_eq(rc, 0);
	stt_write(h, "app/cgroup.procs", "app");
	stt_run(m, 2 * WARM, WINDOW);
	stt_assert_near("vm", pol, stt_cg_share(m, h, "vm", 2, WINDOW), 0.50, 0.01);
	stt_assert_near("app", pol, stt_cg_share(m, h, "app", 2, WINDOW), 0.50, 0.01);
	stt_end();
}

Test(sched_shares, zijlstra_move_live_eevdf) { zijlstra_move_live(SCHED_POLICY_EEVDF); }
Test(sched_shares, zijlstra_move_live_cfs) { zijlstra_move_live(SCHED_POLICY_CFS); }
Test(sched_shares, zijlstra_move_live_eevdf_flat) { zijlstra_move_live(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 5. nested weights ======================= */

/*
 * a (100) { x (100), y (300) } and b (100), 2 busy threads in each of x, y, b; 2 CPUs. Balanced:
 * one thread of each of x, y, b per CPU. Top level, per CPU: a's entity and b's entity, each
 * half of 1024 (equal load on both CPUs) = 512 : 512, so a and b get 50 % each. Inside a, per
 * CPU: x's entity 1024 / 2 = 512 against y's 3072 / 2 = 1536, 1 : 3, so x gets 1/4 of a's 50 %
 * = 12.5 % and y 3/4 = 37.5 %. b 50 % (±1.5 percentage points).
 */
static void nested(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int x, y, b;

	stt_cgroup(h, "a", 100);
	stt_cgroup(h, "b", 100);
	stt_enable_cpu(h, "a");
	stt_cgroup(h, "a/x", 100);
	stt_cgroup(h, "a/y", 300);
	x = stt_proc(h, "x", 2, "a/x");
	y = stt_proc(h, "y", 2, "a/y");
	b = stt_proc(h, "b", 2, "b");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, x, 2);
	stt_busy_n(m, y, 2);
	stt_busy_n(m, b, 2);
	stt_run(m, WARM, WINDOW);
	stt_assert_near("a/x (100 in a)", pol, stt_cg_share(m, h, "a/x", 2, WINDOW), 0.125, 0.015);
	stt_assert_near("a/y (300 in a)", pol, stt_cg_share(m, h, "a/y", 2, WINDOW), 0.375, 0.015);
	stt_assert_near("a (x + y)", pol, stt_cg_share(m, h, "a", 2, WINDOW), 0.50, 0.015);
	stt_assert_near("b", pol, stt_cg_share(m, h, "b", 2, WINDOW), 0.50, 0.015);
	stt_end();
}

Test(sched_shares, nested_weights_eevdf) { nested(SCHED_POLICY_EEVDF); }
Test(sched_shares, nested_weights_cfs) { nested(SCHED_POLICY_CFS); }
Test(sched_shares, nested_weights_eevdf_flat) { nested(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 6. nice values inside one cgroup ======================= */

/*
 * Threads of nice 0, 5 and -5 (weights 1024, 335, 3121) of one process in one cgroup, 2 CPUs.
 * A thread can use one CPU at most: 50 % of the machine. The naive weighted split of the whole
 * machine would give nice -5 3121 / 4480 = 69.7 %, which it cannot reach. The balancer (§7)
 * ends with nice -5 alone on one CPU (load 3121 against 1359; putting 0 or 5 with it would
 * make that CPU's load 4145 or 3456 against 335 or 1024) and 0 and 5 sharing the other:
 * nice -5 50 %, nice 0 1024 / 1359 of a CPU = 37.67 % of the machine, nice 5 335 / 1359 of a
 * CPU = 12.33 % (±1.5 percentage points). The group's entities are alone on their CPUs, so
 * their weights do not matter.
 */
static void nice_in_group(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int p;
	double s0, s5, sm5;

	stt_cgroup(h, "grp", 100);
	p = stt_proc(h, "p", 3, "grp");
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy(m, p, 0);
	stt_busy(m, p + 1, 5);
	stt_busy(m, p + 2, -5);
	stt_run(m, WARM, WINDOW);
	s0 = stt_share(stt_cpu(m, p), 2, WINDOW);
	s5 = stt_share(stt_cpu(m, p + 1), 2, WINDOW);
	sm5 = stt_share(stt_cpu(m, p + 2), 2, WINDOW);
	stt_assert_near("nice -5", pol, sm5, 0.50, 0.015);
	stt_assert_near("nice 0", pol, s0, 0.5 * W_NICE_0 / (W_NICE_0 + W_NICE_5), 0.015);
	stt_assert_near("nice 5", pol, s5, 0.5 * W_NICE_5 / (W_NICE_0 + W_NICE_5), 0.015);
	cr_expect(fabs(sm5 - W_NICE_M5 / (W_NICE_M5 + W_NICE_0 + W_NICE_5)) > 0.10,
		  "[%s] nice -5 got %.4f, the naive 3121/4480 = 0.697", sched_policy_name(pol),
		  sm5);
	stt_end();
}

Test(sched_shares, nice_mix_in_group_eevdf) { nice_in_group(SCHED_POLICY_EEVDF); }
Test(sched_shares, nice_mix_in_group_cfs) { nice_in_group(SCHED_POLICY_CFS); }
Test(sched_shares, nice_mix_in_group_eevdf_flat) { nice_in_group(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= accounting consistency ======================= */

/*
 * The root cgroup's CPU includes every cgroup below it, so it is the sum of all threads' CPU;
 * and a cgroup's is the sum of its threads' (the threads never move here). Short run, nested
 * layout of nested() with one root thread more.
 */
static void cgroup_sums(enum sched_policy pol)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	int x, y, b, r;
	uint64_t sum = 0, sx, sy;

	stt_cgroup(h, "a", 100);
	stt_cgroup(h, "b", 100);
	stt_enable_cpu(h, "a");
	stt_cgroup(h, "a/x", 100);
	stt_cgroup(h, "a/y", 300);
	x = stt_proc(h, "x", 2, "a/x");
	y = stt_proc(h, "y", 2, "a/y");
	b = stt_proc(h, "b", 2, "b");
	r = stt_proc(h, "r", 1, NULL);
	m = stt_machine(h, pol, 2, 1, true, true);
	stt_busy_n(m, x, 2);
	stt_busy_n(m, y, 2);
	stt_busy_n(m, b, 2);
	stt_busy(m, r, 0);
	stt_run(m, STT_SEC / 10, STT_SEC / 2);
	for (int t = x; t <= r; t++)
		sum += stt_cpu(m, t);
	sx = stt_cpu(m, x) + stt_cpu(m, x + 1);
	sy = stt_cpu(m, y) + stt_cpu(m, y + 1);
	cr_expect_eq(sim_machine_cgroup_cpu(m, 0), sum,
		     "[%s] root cgroup cpu %" PRIu64 " != sum of threads %" PRIu64,
		     sched_policy_name(pol), sim_machine_cgroup_cpu(m, 0), sum);
	cr_expect_eq(sim_machine_cgroup_cpu(m, stt_cgid(h, "a/x")), sx, "[%s] a/x %" PRIu64
		     " != %" PRIu64, sched_policy_name(pol),
		     sim_machine_cgroup_cpu(m, stt_cgid(h, "a/x")), sx);
	cr_expect_eq(sim_machine_cgroup_cpu(m, stt_cgid(h, "a")), sx + sy, "[%s] a %" PRIu64
		     " != %" PRIu64, sched_policy_name(pol),
		     sim_machine_cgroup_cpu(m, stt_cgid(h, "a")), sx + sy);
	/* Never more than the machine: 2 CPUs for the window. */
	cr_expect_leq(sum, 2 * (STT_SEC / 2), "[%s] %" PRIu64 " ns of CPU in a 2-CPU 0.5 s window",
		      sched_policy_name(pol), sum);
	stt_end();
}

Test(sched_shares, cgroup_cpu_sums_eevdf) { cgroup_sums(SCHED_POLICY_EEVDF); }
Test(sched_shares, cgroup_cpu_sums_cfs) { cgroup_sums(SCHED_POLICY_CFS); }
Test(sched_shares, cgroup_cpu_sums_eevdf_flat) { cgroup_sums(SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 7. latency with a custom slice (EEVDF) ======================= */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile @p (0 < p <= 100) of @n samples; sorts a copy. */
static uint64_t percentile(const uint64_t *v, size_t n, double p)
{
	uint64_t *c, r;
	size_t k;

	cr_assert_gt(n, 0);
	c = malloc(n * sizeof(*c));
	cr_assert_not_null(c);
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_u64);
	k = (size_t)ceil(p / 100.0 * (double)n);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	r = c[k - 1];
	free(c);
	return r;
}

struct lat_result {
	uint64_t p50, p99;
	size_t n;
	uint64_t cpu;
	uint64_t preempt_cost;	/* wakeup + immediate switch, from the configured costs */
	uint64_t switch_in, tick;	/* the costs charged to the periodic thread */
};

/*
 * One CPU: a periodic thread (1 ms of CPU every 10 ms) and 3 busy threads, all nice 0 in the
 * root. It needs 10 % of the CPU, less than its fair 25 %, so every activation completes
 * before the next: 1000 activations and 1 s of work in the 10 s window. Its CPU time also
 * counts what the kernel charges it of the scheduler's time: the switch to it (charged from
 * __schedule()'s clock) and the ticks while it runs (one or two in each activation of 1 ms at
 * HZ 1000); its wakeup, by a timer, runs while a busy thread is on the CPU and is that thread's.
 *
 * Its first wakeup is at 0.37 ms, so every wakeup falls between two ticks (HZ 1000), as
 * wakeups do on a real machine. (Wakeups on the tick grid coincide with a tick that has just
 * handed the CPU to a fresh request; a thread with positive lag can then hold a deadline
 * earlier than the wakee's V + 0.1 ms, and the wakee waits a whole tick even with the short
 * slice - about 8 % of activations here, which puts both 99th percentiles at one tick.)
 */
static struct lat_result latency_run(enum sched_policy pol, uint64_t slice_ns)
{
	struct cg_hier *h = stt_hier();
	struct sim_machine *m;
	struct sim_thread_spec sp;
	struct sim_thread_metrics tm;
	struct sched_config cfg;
	struct lat_result r;
	int per, busy;

	per = stt_proc(h, "per", 1, NULL);
	busy = stt_proc(h, "busy", 3, NULL);
	m = stt_machine(h, pol, 1, 1, true, true);
	memset(&sp, 0, sizeof(sp));
	sp.behavior.kind = SIM_BEHAV_PERIODIC;
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 1e6, 0 };
	sp.behavior.period_ns = 10 * STT_MS;
	sp.slice_ns = slice_ns;
	sp.start_ns = 370000;
	stt_set(m, per, &sp);
	stt_busy_n(m, busy, 3);
	stt_run(m, WARM, WINDOW);
	tm = stt_tm(m, per);
	r.n = tm.nlatency;
	r.cpu = tm.cpu_ns;
	r.p50 = percentile(tm.latency, tm.nlatency, 50);
	r.p99 = percentile(tm.latency, tm.nlatency, 99);
	/*
	 * A wakee that preempts at once starts after its wakeup (wakeup_ns + one level
	 * enqueued, and walked) and the switch (switch_ns + the pick's walk of the root +
	 * put prev + set next: two level operations, all in the root).
	 */
	cfg = *sched_config(sim_machine_sched(m));
	r.preempt_cost = cfg.cost.wakeup_ns + cfg.cost.level_ns + cfg.cost.walk_ns +
			 cfg.cost.switch_ns + cfg.cost.walk_ns + 2 * cfg.cost.level_ns;
	r.switch_in = cfg.cost.switch_ns + cfg.cost.walk_ns + 2 * cfg.cost.level_ns;
	r.tick = cfg.cost.tick_ns + cfg.cost.walk_ns;
	stt_end();
	return r;
}

/*
 * EEVDF with RUN_TO_PARITY (§5): a waking thread with the base slice cannot preempt the
 * running thread before its request (0.7 ms on one CPU) is used up, which only a tick notices:
 * it waits at least until the next tick (0.63 ms here). With a custom slice of 0.1 ms,
 * PREEMPT_SHORT cancels that protection and the wakee - eligible (lag 0 after its sleep) and
 * with the earliest deadline V + 0.1 ms - preempts at once, so its median latency is exactly
 * the cost of its wakeup and of the switch. Both the median and the 99th percentile are lower
 * with the custom slice.
 */
Test(sched_latency, custom_slice_lowers_latency_eevdf)
{
	struct lat_result def = latency_run(SCHED_POLICY_EEVDF, 0);
	struct lat_result cus = latency_run(SCHED_POLICY_EEVDF, 100000);

	cr_log_info("latency default slice: n %zu p50 %" PRIu64 " p99 %" PRIu64 " cpu %" PRIu64,
		    def.n, def.p50, def.p99, def.cpu);
	cr_log_info("latency 0.1 ms slice: n %zu p50 %" PRIu64 " p99 %" PRIu64 " cpu %" PRIu64,
		    cus.n, cus.p50, cus.p99, cus.cpu);
	cr_expect(def.n >= 999 && def.n <= 1001, "default slice: %zu latency samples, want 1000",
		  def.n);
	cr_expect(cus.n >= 999 && cus.n <= 1001, "custom slice: %zu latency samples, want 1000",
		  cus.n);
	/*
	 * 1000 activations of 1 ms, give or take the one straddling each window edge, and for
	 * each the switch to it and one or two ticks.
	 */
	cr_expect(def.cpu >= 999 * STT_MS + 1000 * (def.switch_in + def.tick) &&
		  def.cpu <= 1001 * STT_MS + 1000 * (def.switch_in + 2 * def.tick),
		  "default slice: cpu %" PRIu64 " ns, want 1 s +- 1 ms and the overhead", def.cpu);
	cr_expect(cus.cpu >= 999 * STT_MS + 1000 * (cus.switch_in + cus.tick) &&
		  cus.cpu <= 1001 * STT_MS + 1000 * (cus.switch_in + 2 * cus.tick),
		  "custom slice: cpu %" PRIu64 " ns, want 1 s +- 1 ms and the overhead", cus.cpu);
	cr_expect_lt(cus.p50, def.p50, "median latency: custom slice %" PRIu64
		     " ns, default %" PRIu64 " ns", cus.p50, def.p50);
	cr_expect_lt(cus.p99, def.p99, "p99 latency: custom slice %" PRIu64
		     " ns, default %" PRIu64 " ns", cus.p99, def.p99);
	cr_expect_eq(cus.p50, cus.preempt_cost, "custom slice median %" PRIu64
		     " ns, want the immediate preemption's cost %" PRIu64 " ns", cus.p50,
		     cus.preempt_cost);
	/* RUN_TO_PARITY: the default-slice wakee waits for a tick, 0.63 ms away at least. */
	cr_expect_geq(def.p50, 630000, "default slice median %" PRIu64 " ns < 0.63 ms",
		      def.p50);
}

/* ======================= 8. tick elision is exact ======================= */

enum workload { WL_NESTED_BUSY, WL_PERIODIC_MIX, WL_BURSTY };

/* What a workload is built for, and the threads it made (the snapshot's). */
struct wl_build {
	enum sched_policy pol;
	uint64_t seed;
	bool elision, check;
	int tids[32], n;
};

/* Threads @p .. @p + @count - 1 are the workload's. */
static void wl_add(struct wl_build *b, int p, int count)
{
	for (int i = 0; i < count; i++)
		b->tids[b->n++] = p + i;
}

/* nested(): a { x, y }, b; 2 busy threads each; 2 CPUs. */
static struct sim_machine *wl_nested_busy(struct cg_hier *h, struct wl_build *b)
{
	struct sim_machine *m;

	stt_cgroup(h, "a", 100);
	stt_cgroup(h, "b", 100);
	stt_enable_cpu(h, "a");
	stt_cgroup(h, "a/x", 100);
	stt_cgroup(h, "a/y", 300);
	wl_add(b, stt_proc(h, "x", 2, "a/x"), 2);
	wl_add(b, stt_proc(h, "y", 2, "a/y"), 2);
	wl_add(b, stt_proc(h, "b", 2, "b"), 2);
	m = stt_machine(h, b->pol, 2, b->seed, b->check, b->elision);
	for (int i = 0; i < b->n; i++)
		stt_busy(m, b->tids[i], 0);
	return m;
}

/*
 * One CPU: two periodic threads (one with a 0.1 ms custom slice) in a cgroup of weight 200,
 * 3 busy threads in the root.
 */
static struct sim_machine *wl_periodic_mix(struct cg_hier *h, struct wl_build *b)
{
	struct sim_thread_spec sp;
	struct sim_machine *m;

	memset(&sp, 0, sizeof(sp));
	stt_cgroup(h, "rt", 200);
	wl_add(b, stt_proc(h, "per", 2, "rt"), 2);
	wl_add(b, stt_proc(h, "busy", 3, NULL), 3);
	m = stt_machine(h, b->pol, 1, b->seed, b->check, b->elision);
	sp.behavior.kind = SIM_BEHAV_PERIODIC;
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 1e6, 0 };
	sp.behavior.period_ns = 10 * STT_MS;
	stt_set(m, b->tids[0], &sp);
	sp.behavior.run = (struct sim_dist){ SIM_DIST_FIXED, 3e5, 0 };
	sp.behavior.period_ns = 4 * STT_MS;
	sp.slice_ns = 100000;
	sp.start_ns = 1234567;
	stt_set(m, b->tids[1], &sp);
	for (int i = 2; i < b->n; i++)
		stt_busy(m, b->tids[i], i - 3);	/* nice -1, 0, 1 */
	return m;
}

/*
 * 4 CPUs: 6 bursty threads (run exp(2 ms), sleep exp(3 ms)) in "web" (weight 200), 4 (run
 * exp(5 ms), sleep exp(1 ms)) in "batch" (weight 50), 2 in the root (run exp(0.3 ms), sleep
 * exp(0.7 ms)), one of them nice 3.
 */
static struct sim_machine *wl_bursty(struct cg_hier *h, struct wl_build *b)
{
	struct sim_thread_spec sp;
	struct sim_machine *m;

	memset(&sp, 0, sizeof(sp));
	stt_cgroup(h, "web", 200);
	stt_cgroup(h, "batch", 50);
	wl_add(b, stt_proc(h, "w", 6, "web"), 6);
	wl_add(b, stt_proc(h, "bt", 4, "batch"), 4);
	wl_add(b, stt_proc(h, "r", 2, NULL), 2);
	m = stt_machine(h, b->pol, 4, b->seed, b->check, b->elision);
	sp.behavior.kind = SIM_BEHAV_BURSTY;
	for (int i = 0; i < b->n; i++) {
		if (i < 6) {
			sp.behavior.run = (struct sim_dist){ SIM_DIST_EXP, 2e6, 0 };
			sp.behavior.sleep = (struct sim_dist){ SIM_DIST_EXP, 3e6, 0 };
		} else if (i < 10) {
			sp.behavior.run = (struct sim_dist){ SIM_DIST_EXP, 5e6, 0 };
			sp.behavior.sleep = (struct sim_dist){ SIM_DIST_EXP, 1e6, 0 };
		} else {
			sp.behavior.run = (struct sim_dist){ SIM_DIST_EXP, 3e5, 0 };
			sp.behavior.sleep = (struct sim_dist){ SIM_DIST_EXP, 7e5, 0 };
		}
		sp.nice = i == b->n - 1 ? 3 : 0;
		stt_set(m, b->tids[i], &sp);
	}
	return m;
}

/*
 * Builds workload @wl on a fresh hierarchy and machine, runs it, snapshots every metric and
 * frees the machine. Returns the snapshot (freed by stt_fini).
 */
static struct stt_snap *workload_run(enum workload wl, enum sched_policy pol, uint64_t seed,
				     bool elision, bool check)
{
	static struct sim_machine *(*const build[])(struct cg_hier *h, struct wl_build *b) = {
		[WL_NESTED_BUSY] = wl_nested_busy,
		[WL_PERIODIC_MIX] = wl_periodic_mix,
		[WL_BURSTY] = wl_bursty,
	};
	struct wl_build b = { .pol = pol, .seed = seed, .elision = elision, .check = check };
	struct sim_machine *m = build[wl](stt_hier(), &b);
	struct stt_snap *sn;

	stt_run(m, STT_SEC / 2, 2 * STT_SEC);
	sn = stt_snapshot(m, b.tids, b.n);
	stt_end();
	return sn;
}

static const char *const wl_name[] = { "nested busy", "periodic mix", "bursty" };

/*
 * docs: ticks are elided only when they provably change nothing (sched.h, tick_elision), so a
 * run with elision must be the run without it, bit for bit: every thread's CPU time, switches,
 * migrations, wait and latency samples, and the machine's overhead, level operations, switches,
 * migrations and tick count (ticks counts processed and elided ticks). Only ticks_processed may
 * differ, and for always-busy threads elision must actually skip ticks.
 */
static void elision_exact(enum workload wl, enum sched_policy pol)
{
	struct stt_snap *on = workload_run(wl, pol, 7, true, true);
	struct stt_snap *off = workload_run(wl, pol, 7, false, true);
	char why[2048];
	int nd = stt_snap_diff(on, off, true, why, sizeof(why));

	cr_log_info("[%s] %s: ticks %" PRIu64 " processed %" PRIu64 " (elision) vs %" PRIu64
		    " (none); overhead %" PRIu64 " vs %" PRIu64, sched_policy_name(pol),
		    wl_name[wl], on->mm.ticks, on->mm.ticks_processed, off->mm.ticks_processed,
		    on->mm.overhead_ns, off->mm.overhead_ns);
	cr_expect_eq(nd, 0, "[%s] %s: elision on vs off differ in %d fields: %s",
		     sched_policy_name(pol), wl_name[wl], nd, why);
	cr_expect_leq(on->mm.ticks_processed, off->mm.ticks_processed,
		      "[%s] %s: ticks processed with elision %" PRIu64 " > without %" PRIu64,
		      sched_policy_name(pol), wl_name[wl], on->mm.ticks_processed,
		      off->mm.ticks_processed);
	if (wl == WL_NESTED_BUSY)
		cr_expect_lt(on->mm.ticks_processed, off->mm.ticks_processed,
			     "[%s] busy workload: elision processed %" PRIu64
			     " ticks, no fewer than the %" PRIu64 " without",
			     sched_policy_name(pol), on->mm.ticks_processed,
			     off->mm.ticks_processed);
	/* Without elision every tick is processed. */
	cr_expect_eq(off->mm.ticks_processed, off->mm.ticks,
		     "[%s] %s: elision off processed %" PRIu64 " of %" PRIu64 " ticks",
		     sched_policy_name(pol), wl_name[wl], off->mm.ticks_processed, off->mm.ticks);
}

Test(sched_elision, nested_busy_eevdf) { elision_exact(WL_NESTED_BUSY, SCHED_POLICY_EEVDF); }
Test(sched_elision, nested_busy_cfs) { elision_exact(WL_NESTED_BUSY, SCHED_POLICY_CFS); }
Test(sched_elision, nested_busy_eevdf_flat)
{
	elision_exact(WL_NESTED_BUSY, SCHED_POLICY_EEVDF_FLAT);
}
Test(sched_elision, periodic_mix_eevdf) { elision_exact(WL_PERIODIC_MIX, SCHED_POLICY_EEVDF); }
Test(sched_elision, periodic_mix_cfs) { elision_exact(WL_PERIODIC_MIX, SCHED_POLICY_CFS); }
Test(sched_elision, periodic_mix_eevdf_flat)
{
	elision_exact(WL_PERIODIC_MIX, SCHED_POLICY_EEVDF_FLAT);
}
Test(sched_elision, bursty_eevdf) { elision_exact(WL_BURSTY, SCHED_POLICY_EEVDF); }
Test(sched_elision, bursty_cfs) { elision_exact(WL_BURSTY, SCHED_POLICY_CFS); }
Test(sched_elision, bursty_eevdf_flat) { elision_exact(WL_BURSTY, SCHED_POLICY_EEVDF_FLAT); }

/* ======================= 9. determinism ======================= */

/*
 * machine.h: the same hierarchy, specs, configuration and seed give the same run, event for
 * event; each thread draws from its own stream. So two runs with seed 7 agree in every metric,
 * and a run with seed 8 of the bursty workload (whose run and sleep times are all drawn)
 * differs from them somewhere.
 */
static void determinism(enum workload wl, enum sched_policy pol)
{
	struct stt_snap *a = workload_run(wl, pol, 7, true, true);
	struct stt_snap *b = workload_run(wl, pol, 7, true, true);
	char why[2048];
	int nd = stt_snap_diff(a, b, true, why, sizeof(why));

	cr_expect_eq(nd, 0, "[%s] %s: two runs with seed 7 differ in %d fields: %s",
		     sched_policy_name(pol), wl_name[wl], nd, why);
	if (wl == WL_BURSTY) {
		struct stt_snap *c = workload_run(wl, pol, 8, true, true);

		nd = stt_snap_diff(a, c, false, NULL, 0);
		cr_expect_gt(nd, 0, "[%s] seeds 7 and 8 gave identical thread metrics",
			     sched_policy_name(pol));
	}
}

Test(sched_determinism, bursty_eevdf) { determinism(WL_BURSTY, SCHED_POLICY_EEVDF); }
Test(sched_determinism, bursty_cfs) { determinism(WL_BURSTY, SCHED_POLICY_CFS); }
Test(sched_determinism, bursty_eevdf_flat) { determinism(WL_BURSTY, SCHED_POLICY_EEVDF_FLAT); }
Test(sched_determinism, periodic_mix_eevdf) { determinism(WL_PERIODIC_MIX, SCHED_POLICY_EEVDF); }
Test(sched_determinism, periodic_mix_cfs) { determinism(WL_PERIODIC_MIX, SCHED_POLICY_CFS); }
Test(sched_determinism, periodic_mix_eevdf_flat)
{
	determinism(WL_PERIODIC_MIX, SCHED_POLICY_EEVDF_FLAT);
}
