// SPDX-License-Identifier: MIT
/*
 * bench/bench_sched.c - speed and memory of the whole simulator (cgroup model, scheduler,
 * engine), on the three workloads issue 3 sets goals for:
 *
 *   (a) 64 busy nice-0 threads in the root on 4 CPUs, HZ 1000, EEVDF and CFS: simulated
 *       seconds per wall second (goal: 10,000) and events per second;
 *   (b) 1,024 threads in 256 cgroups four levels deep (4 x 4 x 4 x 4 leaves, 4 threads each) on
 *       64 CPUs, 30 % of the threads bursty (exp(2 ms) run, exp(8 ms) sleep), the rest busy
 *       (goal: 100 x real time);
 *   (c) peak memory with 10,000 threads in 100 cgroups on 64 CPUs after 1 s (goal: < 100 MB).
 *
 *   bench_sched [a|b|c]...      default: all three
 *
 * Output is one "name: value unit" line per figure. Instructions per event come from
 * callgrind: valgrind --tool=callgrind build/bench/bench_sched a (docs/scheduler.md).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sim/machine/machine.h"

#define SEED 1
#define NS 1000000000ull

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "bench_sched: %s failed (%d)\n", what, err);
	exit(1);
}

static void set_all(struct sim_machine *m, struct cg_hier *h, int bursty_every)
{
	int maxt = cg_thread_max_id(h);

	for (int tid = 1; tid < maxt; tid++) {
		struct sim_thread_spec sp;
		int err;

		memset(&sp, 0, sizeof(sp));
		sp.stream = (uint32_t)tid;	/* a stream of its own */
		sp.behavior.kind = SIM_BEHAV_BUSY;
		/* 3 in 10 threads bursty: tid % 10 < 3 */
		if (bursty_every && tid % 10 < 3) {
			sp.behavior.kind = SIM_BEHAV_BURSTY;
			sp.behavior.run = (struct sim_dist){ SIM_DIST_EXP, 2e6, 0 };
			sp.behavior.sleep = (struct sim_dist){ SIM_DIST_EXP, 8e6, 0 };
		}
		err = sim_machine_set_thread(m, tid, &sp);
		if (err)
			die("sim_machine_set_thread", err);
	}
}

static void report(const char *name, struct sim_machine *m, uint64_t sim_ns, double secs)
{
	struct sim_machine_metrics mm;

	sim_machine_metrics(m, &mm);
	printf("%s_sim_per_wall: %.0f x\n", name, (double)sim_ns / 1e9 / secs);
	printf("%s_events_per_sec: %.0f events/s\n", name, (double)mm.events / secs);
	printf("%s_ns_per_event: %.1f ns\n", name, secs * 1e9 / (double)mm.events);
	printf("%s_switches_per_sim_sec: %.0f\n", name, (double)mm.switches * 1e9 / (double)sim_ns);
	printf("%s_ticks_processed: %.1f %%\n", name,
	       100.0 * (double)mm.ticks_processed / (double)(mm.ticks ? mm.ticks : 1));
}

static void run(const char *name, struct sim_machine *m, uint64_t sim_ns)
{
	double t0;
	int err;

	sim_machine_reset_metrics(m);
	t0 = wall();
	err = sim_machine_run_until(m, sim_ns);
	if (err)
		die("sim_machine_run_until", err);
	report(name, m, sim_ns, wall() - t0);
}

static void bench_a(enum sched_policy pol, const char *name)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	struct sched_config cfg;
	struct sim_machine *m;
	int err;

	if (!h || cg_proc_new(h, "app", 64) < 0)
		die("setup", -1);
	sched_config_default(&cfg, pol, 4);
	cfg.tun.hz = 1000;
	m = sim_machine_new(&cfg, h, SEED, &err);
	if (!m)
		die("sim_machine_new", err);
	set_all(m, h, 0);
	run(name, m, 1000 * NS);
	sim_machine_free(m);
	cg_hier_free(h);
}

static void bench_b(void)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	struct sched_config cfg;
	struct sim_machine *m;
	char path[64], pid[16];
	int err, n = 0;

	if (!h || cg_write(h, "cgroup.subtree_control", "+cpu"))
		die("setup", -1);
	for (int a = 0; a < 4; a++) {
		snprintf(path, sizeof(path), "a%d", a);
		cg_mkdir(h, path);
		snprintf(path, sizeof(path), "a%d/cgroup.subtree_control", a);
		cg_write(h, path, "+cpu");
		for (int b = 0; b < 4; b++) {
			snprintf(path, sizeof(path), "a%d/b%d", a, b);
			cg_mkdir(h, path);
			snprintf(path, sizeof(path), "a%d/b%d/cgroup.subtree_control", a, b);
			cg_write(h, path, "+cpu");
			for (int c = 0; c < 4; c++) {
				snprintf(path, sizeof(path), "a%d/b%d/c%d", a, b, c);
				cg_mkdir(h, path);
				snprintf(path, sizeof(path), "a%d/b%d/c%d/cgroup.subtree_control", a,
					 b, c);
				cg_write(h, path, "+cpu");
				for (int d = 0; d < 4; d++) {
					char name[32];
					int p;

					snprintf(path, sizeof(path), "a%d/b%d/c%d/d%d", a, b, c, d);
					if (cg_mkdir(h, path))
						die("cg_mkdir", -1);
					snprintf(name, sizeof(name), "p%d", n++);
					p = cg_proc_new(h, name, 4);
					snprintf(pid, sizeof(pid), "%d", p);
					snprintf(path, sizeof(path), "a%d/b%d/c%d/d%d/cgroup.procs", a,
						 b, c, d);
					if (p < 0 || cg_write(h, path, pid))
						die("placing a process", -1);
				}
			}
		}
	}
	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 64);
	m = sim_machine_new(&cfg, h, SEED, &err);
	if (!m)
		die("sim_machine_new", err);
	set_all(m, h, 1);
	run("b_eevdf_1024thr_256grp_64cpu", m, 10 * NS);
	sim_machine_free(m);
	cg_hier_free(h);
}

static void bench_c(void)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	struct sched_config cfg;
	struct sim_machine *m;
	struct rusage ru;
	char path[64], pid[16];
	int err;

	if (!h || cg_write(h, "cgroup.subtree_control", "+cpu"))
		die("setup", -1);
	for (int g = 0; g < 100; g++) {
		char name[32];
		int p;

		snprintf(path, sizeof(path), "g%d", g);
		cg_mkdir(h, path);
		snprintf(name, sizeof(name), "p%d", g);
		p = cg_proc_new(h, name, 100);
		snprintf(pid, sizeof(pid), "%d", p);
		snprintf(path, sizeof(path), "g%d/cgroup.procs", g);
		if (p < 0 || cg_write(h, path, pid))
			die("placing a process", -1);
	}
	sched_config_default(&cfg, SCHED_POLICY_EEVDF, 64);
	m = sim_machine_new(&cfg, h, SEED, &err);
	if (!m)
		die("sim_machine_new", err);
	set_all(m, h, 1);
	run("c_eevdf_10000thr_100grp_64cpu", m, NS);
	getrusage(RUSAGE_SELF, &ru);
	printf("c_peak_rss: %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
	sim_machine_free(m);
	cg_hier_free(h);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "abc";

	for (int i = 1; i <= (argc > 1 ? argc - 1 : 1); i++) {
		which = argc > 1 ? argv[i] : "abc";
		if (strchr(which, 'a')) {
			bench_a(SCHED_POLICY_EEVDF, "a_eevdf_64thr_4cpu");
			bench_a(SCHED_POLICY_CFS, "a_cfs_64thr_4cpu");
		}
		if (strchr(which, 'b'))
			bench_b();
		if (strchr(which, 'c'))
			bench_c();
	}
	return 0;
}
