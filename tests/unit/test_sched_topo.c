// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_sched_topo.c - balancing over the levels of a machine's domains, from the
 * kernel's rules (kernel/sched/fair.c, docs/topology.md): an idle LLC takes tasks from an
 * overloaded one (migrate_util between LLCs), an idle SMT core takes the second task of a busy
 * core (group_smt_balance, then active balancing), a NUMA level leaves a small imbalance to a
 * node with room (adjust_numa_imbalance() with imb_numa_nr), a new task starts on an idle core
 * and in an idle LLC (the fork path's group choice), and a wakeup stays in its LLC.
 */
#include "tests/unit/sched_test_util.h"

/* the domains as the balancer holds them and a thread's CPU are internal: no public interface */
#include "scheduler/sched_internal.h"

TestSuite(sched_topo, .fini = stt_fini);

/* The config of a checked scheduler at HZ 250 on the CPUs of the shape given. */
static struct sched_config topo_config(int sockets, int dies, int cores, int threads, int nodes)
{
	struct sched_config cfg;

	sched_config_default(&cfg, SCHED_POLICY_EEVDF, sockets * dies * cores * threads);
	cfg.machine = (struct topo_machine){ sockets * dies * cores * threads, sockets, dies, cores,
					     threads, nodes, NULL };
	cfg.tun.hz = 250;
	cfg.check = true;
	return cfg;
}

/* A scheduler of @cfg, freed with the test (stt_fini) unless freed before. */
static struct sched *sched_of(const struct sched_config *cfg)
{
	struct sched *s = sched_new(cfg);

	cr_assert_not_null(s);
	stt_s = s;
	return s;
}

static struct sched *topo_sched(int sockets, int dies, int cores, int threads, int nodes)
{
	struct sched_config cfg = topo_config(sockets, dies, cores, threads, nodes);

	return sched_of(&cfg);
}

/* New busy thread @tid started pinned to @cpu at time 0, then let go on every CPU. */
static void start_on(struct sched *s, int tid, int cpu)
{
	cr_assert_eq(sched_thread_new(s, tid, 0, 0, 0, 0), 0);
	stt_pin(s, tid, cpu, 0);
	cr_assert_eq(sched_wakeup(s, tid, 0), 0);
	stt_drain(s);
	stt_pin(s, tid, -1, 0);
}

/*
 * New thread @tid that runs pinned to @cpu from time 0, goes to sleep at @t, and asleep may go
 * to every CPU again: its previous CPU is @cpu.
 */
static void asleep_after(struct sched *s, int tid, int cpu, uint64_t t)
{
	cr_assert_eq(sched_thread_new(s, tid, 0, 0, 0, 0), 0);
	stt_pin(s, tid, cpu, 0);
	cr_assert_eq(sched_wakeup(s, tid, 0), 0);
	stt_advance(s, t);
	cr_assert_eq(sched_sleep(s, tid, t), 0);
	stt_drain(s);
	stt_pin(s, tid, -1, t);
}

static int cpu_of(struct sched *s, int tid)
{
	return sched__thr_get(s, tid)->cpu->id;
}

/*
 * 2 sockets x 2 cores, one node: an LLC (MC) per socket under PKG. Four busy tasks start two
 * to a CPU on socket 0. Socket 1's idle CPUs, kicked because socket 0's LLC has two busy
 * CPUs, find at PKG an overloaded group next to their has_spare one in a domain without
 * SD_SHARE_LLC: migrate_util, up to the local group's spare capacity. Each CPU ends with one.
 */
Test(sched_topo, idle_llc_takes_from_overloaded_llc)
{
	struct sched *s = topo_sched(2, 1, 2, 1, 1);

	start_on(s, 1, 0);
	start_on(s, 2, 0);
	start_on(s, 3, 1);
	start_on(s, 4, 1);
	cr_assert_eq(s->cpu[0].nr_running, 2);
	cr_assert_eq(s->cpu[2].nr_running, 0);
	stt_advance(s, 2 * STT_SEC);
	for (int c = 0; c < 4; c++)
		cr_expect_eq(s->cpu[c].nr_running, 1, "CPU %d runs %u", c, s->cpu[c].nr_running);
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

/*
 * 1 socket of 2 cores x 2 threads. Two busy tasks start on the threads of core 0, one each:
 * nothing waits, but core 0 is an SMT group with two tasks, which to an idle CPU of core 1 is
 * group_smt_balance: migrate one task. The running task cannot be detached, so each pass fails
 * until nr_balance_failed passes cache_nice_tries + 2 and the stopper moves it (active
 * balancing). The two tasks end on different cores.
 */
Test(sched_topo, idle_core_takes_one_of_a_busy_core)
{
	struct sched *s = topo_sched(1, 1, 2, 2, 1);

	start_on(s, 1, 0);
	start_on(s, 2, 1);
	cr_assert_eq(cpu_of(s, 1) / 2, cpu_of(s, 2) / 2);
	stt_advance(s, 2 * STT_SEC);
	cr_expect_neq(cpu_of(s, 1) / 2, cpu_of(s, 2) / 2, "tasks on CPUs %d and %d",
		      cpu_of(s, 1), cpu_of(s, 2));
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

/*
 * 2 sockets x 4 cores in 2 nodes (SMT-less: MC per socket, NUMA above; PKG and NODE have MC's
 * span and go). imb_numa_nr is 1: a node of one LLC of 4 CPUs allows 4 >> 3, at least 1.
 * Two busy tasks on node 0: an idle CPU of node 1 sees sibling_imbalance 2, which
 * adjust_numa_imbalance() forgives (the local node would run 1 <= imb_numa_nr task and the
 * imbalance is <= NUMA_IMBALANCE_MIN): they stay. Four tasks on node 0: imbalance 4 is not
 * forgiven; two move (migrate_task, by active balancing: each runs alone on its CPU).
 */
Test(sched_topo, numa_level_allows_a_small_imbalance)
{
	struct sched *s = topo_sched(2, 1, 4, 1, 2);

	cr_assert_eq(s->cpu[0].nsd, 2);
	cr_assert_eq(s->cpu[0].sd[1].d->imb_numa_nr, 1u);
	start_on(s, 1, 0);
	start_on(s, 2, 1);
	stt_advance(s, 2 * STT_SEC);
	cr_expect(cpu_of(s, 1) < 4 && cpu_of(s, 2) < 4, "two tasks stay on node 0: CPUs %d, %d",
		  cpu_of(s, 1), cpu_of(s, 2));
}

Test(sched_topo, numa_level_spreads_a_large_imbalance)
{
	struct sched *s = topo_sched(2, 1, 4, 1, 2);
	int node1 = 0;

	for (int tid = 1; tid <= 4; tid++)
		start_on(s, tid, tid - 1);
	stt_advance(s, 4 * STT_SEC);
	for (int tid = 1; tid <= 4; tid++)
		node1 += cpu_of(s, tid) >= 4;
	cr_expect_eq(node1, 2, "%d of 4 tasks on node 1", node1);
	cr_expect_eq(sched_check(s, NULL, 0), 0);
}

/*
 * The fork path (sched_balance_find_dst_group() from the highest SD_BALANCE_FORK domain):
 * on 2 sockets x 2 cores x 2 threads, four new tasks forked one after another each find an
 * idle core in the less busy group: one per core, two per socket.
 */
Test(sched_topo, new_tasks_spread_over_cores_and_sockets)
{
	struct sched *s = topo_sched(2, 1, 2, 2, 1);
	bool core[4] = { false };

	for (int tid = 1; tid <= 4; tid++) {
		cr_assert_eq(sched_thread_new(s, tid, 0, 0, 0, 0), 0);
		cr_assert_eq(sched_wakeup(s, tid, 0), 0);
		stt_drain(s);
		cr_expect_not(core[cpu_of(s, tid) / 2], "task %d on CPU %d, a core already busy",
			      tid, cpu_of(s, tid));
		core[cpu_of(s, tid) / 2] = true;
	}
}

/*
 * Tick elision must not change a bit on a machine with a shape: the NOHZ kick now also comes
 * from a CPU whose LLC has another busy CPU, a horizon that depends on its neighbours. 2
 * sockets x 2 cores x 2 threads, two groups of weight 1024 and 3072, 5 busy tasks and one
 * that comes 300 ms later: every task's CPU time after 3 s, with and without elision.
 */
static void shaped_run(bool elision, uint64_t *exec)
{
	struct sched_config cfg = topo_config(2, 1, 2, 2, 1);
	struct sched *s;

	cfg.tick_elision = elision;
	s = sched_of(&cfg);
	cr_assert_eq(sched_tg_new(s, 1, 0, 1024, false, 0), 0);
	cr_assert_eq(sched_tg_new(s, 2, 0, 3072, false, 0), 0);
	for (int tid = 1; tid <= 5; tid++) {
		cr_assert_eq(sched_thread_new(s, tid, 1 + tid % 2, 0, 0, 0), 0);
		cr_assert_eq(sched_wakeup(s, tid, 0), 0);
		stt_drain(s);
	}
	stt_advance(s, 300 * STT_MS);
	cr_assert_eq(sched_thread_new(s, 6, 2, 0, 0, 300 * STT_MS), 0);
	cr_assert_eq(sched_wakeup(s, 6, 300 * STT_MS), 0);
	stt_drain(s);
	stt_advance(s, 3 * STT_SEC);
	for (int tid = 1; tid <= 6; tid++)
		exec[tid - 1] = sched_thread_exec(s, tid, 3 * STT_SEC);
	stt_sched_free();
}

Test(sched_topo, tick_elision_changes_nothing)
{
	uint64_t on[6], off[6];

	shaped_run(true, on);
	shaped_run(false, off);
	for (int i = 0; i < 6; i++)
		cr_expect_eq(on[i], off[i], "task %d: %" PRIu64 " ns with elision, %" PRIu64 " without",
			     i + 1, on[i], off[i]);
}

/*
 * wake_wide(): on 2 sockets x 2 cores (LLCs of 2 CPUs) a busy waker on CPU 0 wakes a thread
 * that last ran on CPU 2, whose socket is busy (three tasks on CPU 2, one on CPU 3). Without
 * flips wake_affine() weighs the waker's CPU against CPU 2 and takes CPU 0, and
 * select_idle_sibling() finds CPU 1 idle in that LLC. When both switch partners often (waker
 * 8 flips, wakee 4: the lesser at least the LLC's 2 CPUs, the greater at least 2 times it) the
 * wakeup is wide: no wake_affine(), and the wakee stays in CPU 2's LLC.
 */
static int wide_wakeup(unsigned waker_flips, unsigned wakee_flips)
{
	struct sched *s = topo_sched(2, 1, 2, 1, 1);
	uint64_t T = 100 * STT_MS;
	struct sched_thread *w, *t;

	start_on(s, 1, 0);
	for (int tid = 10; tid <= 12; tid++)
		start_on(s, tid, 2);
	start_on(s, 13, 3);
	start_on(s, 2, 2);
	/* every thread pinned where it is: nothing moves until the wakeup */
	for (int tid = 1; tid <= 13; tid++) {
		uint64_t one[SCHED_MAX_CPUS / 64] = { 0 };
		struct sched_thread *x = sched__thr_get(s, tid);

		if (!x)
			continue;
		one[0] = 1ull << x->cpu->id;
		cr_assert_eq(sched_thread_set_affinity(s, tid, one, SCHED_MAX_CPUS / 64, 0), 0);
		stt_drain(s);
	}
	cr_assert_eq(cpu_of(s, 2), 2);
	stt_advance(s, T / 2);
	cr_assert_eq(sched_sleep(s, 2, T / 2), 0);
	stt_drain(s);
	stt_advance(s, T);
	{
		/* the wakee, asleep, may go anywhere again */
		uint64_t all[SCHED_MAX_CPUS / 64];

		memset(all, 0xff, sizeof(all));
		cr_assert_eq(sched_thread_set_affinity(s, 2, all, SCHED_MAX_CPUS / 64, T), 0);
		stt_drain(s);
	}
	w = sched__thr_get(s, 1);
	t = sched__thr_get(s, 2);
	w->wakee_flips = waker_flips;
	w->last_wakee = 2;
	w->wakee_flip_decay = T;
	t->wakee_flips = wakee_flips;
	cr_assert_eq(sched_wakeup_by(s, 2, 1, T, 0), 0);
	stt_drain(s);
	return cpu_of(s, 2);
}

Test(sched_topo, wake_affine_pulls_to_the_wakers_llc)
{
	cr_expect_eq(wide_wakeup(0, 0), 1);
}

Test(sched_topo, wake_wide_leaves_the_wakee_in_its_llc)
{
	cr_expect_eq(wide_wakeup(8, 4), 2);
}

/*
 * select_idle_sibling()'s recently used CPU: on 4 CPUs of one LLC a thread that last ran on CPU
 * 2, busy, and earlier on CPU 1 wakes by its timer (target = prev = CPU 2). CPUs 1 and 3 are
 * idle; the scan from target + 1 would take CPU 3, but the recently used CPU comes first: CPU
 * 1. CPU 2 becomes the recently used one.
 */
Test(sched_topo, recently_used_cpu_comes_before_the_scan)
{
	struct sched *s = topo_sched(1, 1, 4, 1, 1);
	uint64_t two[SCHED_MAX_CPUS / 64] = { 1ull << 2 };

	start_on(s, 10, 2);
	cr_assert_eq(sched_thread_set_affinity(s, 10, two, SCHED_MAX_CPUS / 64, 0), 0);
	asleep_after(s, 2, 2, 20 * STT_MS);
	sched__thr_get(s, 2)->recent_used_cpu = 1;
	cr_assert_eq(sched_wakeup(s, 2, 30 * STT_MS), 0);
	stt_drain(s);
	cr_expect_eq(cpu_of(s, 2), 1);
	cr_expect_eq(sched__thr_get(s, 2)->recent_used_cpu, 2);
}

/*
 * SIS_UTIL (update_idle_cpu_scan(), select_idle_cpu()): on 4 CPUs of one LLC, with @busy CPUs
 * running a pinned busy thread each, the LLC's periodic balance sets the scan budget to
 * (1024 - x^2 117^2 / (10000 x 1024)) x 4 / 1024 CPUs, x the utilisation per CPU: 3 busy CPUs
 * (x = 768) give 0, 2 (x = 512) give 2. A thread that last ran on CPU 0 then wakes by its
 * timer with CPU 0 busy: with a budget of 0 it stays there, CPU 3 idle or not; without
 * SIS_UTIL the scan finds CPU 3.
 */
static int sis_wakeup(int busy, bool sis_util, int *budget)
{
	struct sched_config cfg = topo_config(1, 1, 4, 1, 1);
	struct sched *s;
	int cpu;

	cfg.feat[SCHED_FEAT_SIS_UTIL] = sis_util;
	s = sched_of(&cfg);
	for (int c = 0; c < busy; c++) {
		uint64_t one[SCHED_MAX_CPUS / 64] = { 1ull << c };

		start_on(s, 10 + c, c);
		cr_assert_eq(sched_thread_set_affinity(s, 10 + c, one, SCHED_MAX_CPUS / 64, 0), 0);
		stt_drain(s);
	}
	asleep_after(s, 2, 0, 10 * STT_MS);
	stt_advance(s, 2 * STT_SEC);	/* utilisation settled, the LLC balanced many times */
	*budget = s->cpu[0].sd[0].d->nr_idle_scan;
	cr_assert_eq(sched_wakeup(s, 2, 2 * STT_SEC), 0);
	stt_drain(s);
	cpu = cpu_of(s, 2);
	stt_sched_free();	/* a test runs this twice */
	return cpu;
}

Test(sched_topo, sis_util_stops_the_scan_of_a_busy_llc)
{
	int budget;

	cr_expect_eq(sis_wakeup(3, true, &budget), 0);
	cr_expect_eq(budget, 0);
	cr_expect_eq(sis_wakeup(3, false, &budget), 3);
}

Test(sched_topo, sis_util_scans_a_half_busy_llc)
{
	int budget;

	cr_expect_eq(sis_wakeup(2, true, &budget), 2);
	cr_expect_eq(budget, 2);
}
