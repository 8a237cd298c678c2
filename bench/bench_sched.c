// SPDX-License-Identifier: MIT
/*
 * bench/bench_sched.c - speed and memory of the whole simulator (cgroup model, scheduler,
 * engine). Figures and the machine they were measured on: docs/scheduler.md, "Speed".
 *
 *   (a) 64 busy nice-0 threads in the root on 4 CPUs, HZ 1000, EEVDF and CFS (goal: 10,000 x
 *       real time);
 *   (b) 1,024 threads in 256 cgroups four levels deep (4 x 4 x 4 x 4 leaves, 4 threads each) on
 *       64 CPUs, 30 % of the threads bursty (exp(2 ms) run, exp(8 ms) sleep), the rest busy,
 *       at HZ 250 (goal: 60 x real time) and at cgsim's default HZ 1000 (the case's only run
 *       until December 2026);
 *   (f) case b under Linux 7.3's flat pick (eevdf-flat: one tree of tasks a CPU instead of a
 *       tree at each of the four levels), at the same two HZ;
 *   (t) 10,000 and 100,000 busy threads of one process on 4 CPUs, 1 s simulated, run as cgsim
 *       runs a scenario, each in a child process: time and peak RSS (goal: 10,000 threads in
 *       20 MB), and the bytes per thread over a one-thread run;
 *   (d) depth 0..16: 64 busy threads in four cgroup chains of that depth, 4 CPUs, HZ 1000;
 *   (p) 1 to 256 CPUs, four busy threads per CPU in the root, HZ 250;
 *   (s) the same at 64 and 256 CPUs with a server's shape: 2 sockets in 2 NUMA nodes, LLCs
 *       (dies) of 4 cores x 2 SMT threads, balanced level by level (SMT, MC, PKG, NUMA), 30 %
 *       of the threads bursty so that wakeups cross the levels too (goal: cost per simulated
 *       second linear in CPUs: 256 CPUs at most 4.5 x 64).
 *
 *   bench_sched [a|b|f|t|d|p|s]...    default: all
 *
 * Output is one "name: value unit" line per figure; each case but t runs in a child process of
 * its own and ends with its peak RSS (KEY_peak_rss). Instructions per context switch come from
 * the CPU's counter (perf_event_open) where the machine offers one. Where it does not (most
 * virtual machines), cases a, b and f are run a second time under callgrind when valgrind is
 * installed (about a minute), each run's instructions counted from its start to its end by
 * client requests: the same seed gives the same switches, so the count divides the native
 * run's (BENCH_NO_CALLGRIND=1 in the environment skips it, e.g. when timing the whole program).
 * Otherwise the line says that no counter is here.
 */
#define _GNU_SOURCE		/* syscall() */

#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

#include "sim/machine/machine.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

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

/* The user-space instructions counter of this process, or -1 where there is none. */
static int counter_fd = -2;

/* The runs made without a counter: their switches, for the counts callgrind gives. */
struct switched {
	char name[64];
	uint64_t switches;
};
static struct switched switched[64];
static size_t nswitched;

static void counter_start(void)
{
	if (counter_fd == -2) {
		struct perf_event_attr pa;

		memset(&pa, 0, sizeof(pa));
		pa.type = PERF_TYPE_HARDWARE;
		pa.size = sizeof(pa);
		pa.config = PERF_COUNT_HW_INSTRUCTIONS;
		pa.disabled = 1;
		pa.exclude_kernel = 1;
		pa.exclude_hv = 1;
		counter_fd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
		if (counter_fd < 0)
			counter_fd = -1;
	}
	if (counter_fd >= 0) {
		ioctl(counter_fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(counter_fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

/* Instructions since counter_start(), or -1. */
static long long counter_stop(void)
{
	long long n;

	if (counter_fd < 0)
		return -1;
	ioctl(counter_fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(counter_fd, &n, sizeof(n)) != sizeof(n))
		return -1;
	return n;
}

static void report(const char *name, struct sim_machine *m, uint64_t sim_ns, double secs,
		   long long instr)
{
	struct sim_machine_metrics mm;

	sim_machine_metrics(m, &mm);
	printf("%s_sim_per_wall: %.0f x\n", name, (double)sim_ns / 1e9 / secs);
	printf("%s_ns_per_event: %.1f ns\n", name, secs * 1e9 / (double)mm.events);
	printf("%s_ns_per_switch: %.1f ns\n", name, secs * 1e9 / (double)(mm.switches ? mm.switches : 1));
	printf("%s_switches: %llu\n", name, (unsigned long long)mm.switches);
	printf("%s_switches_per_sim_sec: %.0f\n", name, (double)mm.switches * 1e9 / (double)sim_ns);
	printf("%s_migrations_per_sim_sec: %.0f\n", name,
	       (double)mm.migrations * 1e9 / (double)sim_ns);
	printf("%s_ticks_processed: %.1f %%\n", name,
	       100.0 * (double)mm.ticks_processed / (double)(mm.ticks ? mm.ticks : 1));
	if (instr >= 0)
		printf("%s_instructions_per_switch: %.0f\n", name,
		       (double)instr / (double)(mm.switches ? mm.switches : 1));
	else if (nswitched < sizeof(switched) / sizeof(switched[0])) {
		/* for callgrind_counts(), later */
		struct switched *w = &switched[nswitched++];

		snprintf(w->name, sizeof(w->name), "%s", name);
		w->switches = mm.switches;
	}
}

static void run(const char *name, struct sim_machine *m, uint64_t sim_ns)
{
	double t0;
	long long instr;
	int err;

	sim_machine_reset_metrics(m);
#ifdef HAVE_CALLGRIND
	if (RUNNING_ON_VALGRIND) {
		/* the child of callgrind_counts(): this run's instructions, in a dump of its own */
		CALLGRIND_ZERO_STATS;
		CALLGRIND_TOGGLE_COLLECT;
		err = sim_machine_run_until(m, sim_ns);
		CALLGRIND_TOGGLE_COLLECT;
		CALLGRIND_DUMP_STATS_AT(name);
		if (err)
			die("sim_machine_run_until", err);
		return;
	}
#endif
	counter_start();
	t0 = wall();
	err = sim_machine_run_until(m, sim_ns);
	instr = counter_stop();
	if (err)
		die("sim_machine_run_until", err);
	report(name, m, sim_ns, wall() - t0, instr);
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

static void bench_a_both(void)
{
	bench_a(SCHED_POLICY_EEVDF, "a_eevdf_64thr_4cpu");
	bench_a(SCHED_POLICY_CFS, "a_cfs_64thr_4cpu");
}

static void bench_b_at(enum sched_policy pol, unsigned hz, const char *name)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	struct sched_config cfg;
	struct sim_machine *m;
	char path[96], pid[16];
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
					char proc[32];
					int p;

					snprintf(path, sizeof(path), "a%d/b%d/c%d/d%d", a, b, c, d);
					if (cg_mkdir(h, path))
						die("cg_mkdir", -1);
					snprintf(proc, sizeof(proc), "p%d", n++);
					p = cg_proc_new(h, proc, 4);
					snprintf(pid, sizeof(pid), "%d", p);
					snprintf(path, sizeof(path), "a%d/b%d/c%d/d%d/cgroup.procs", a,
						 b, c, d);
					if (p < 0 || cg_write(h, path, pid))
						die("placing a process", -1);
				}
			}
		}
	}
	sched_config_default(&cfg, pol, 64);
	cfg.tun.hz = hz;
	m = sim_machine_new(&cfg, h, SEED, &err);
	if (!m)
		die("sim_machine_new", err);
	set_all(m, h, 1);
	run(name, m, 10 * NS);
	sim_machine_free(m);
	cg_hier_free(h);
}

static void bench_b(void)
{
	bench_b_at(SCHED_POLICY_EEVDF, 250, "b_eevdf_1024thr_256grp_64cpu");
	bench_b_at(SCHED_POLICY_EEVDF, 1000, "b_eevdf_1024thr_256grp_64cpu_hz1000");
}

static void bench_f(void)
{
	bench_b_at(SCHED_POLICY_EEVDF_FLAT, 250, "f_flat_1024thr_256grp_64cpu");
	bench_b_at(SCHED_POLICY_EEVDF_FLAT, 1000, "f_flat_1024thr_256grp_64cpu_hz1000");
}

/*
 * One scenario run in a child process, as `cgsim run` runs it, so that the peak RSS the child
 * reports (getrusage of itself, through a pipe) is the run's own. Returns the wall seconds of
 * the whole child and sets *kb to its peak RSS in KiB.
 */
static double run_child(const char *text, long *kb)
{
	double t0 = wall();
	int status, fd[2];
	pid_t pid = -1;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0)
		die("fork", -1);
	if (!pid) {
		char err[4096];
		struct scenario *sc = scn_load("bench.yaml", text, NULL, NULL, 0, err, sizeof(err));
		struct run_result *r = NULL;
		struct rusage ru;
		int rc = 1;
		long k;

		if (sc && !run_scenario(sc, false, &r, err, sizeof(err)))
			rc = 0;
		else
			fprintf(stderr, "bench_sched: %s\n", err);
		run_free(r);
		scn_free(sc);
		getrusage(RUSAGE_SELF, &ru);
		k = ru.ru_maxrss;
		if (write(fd[1], &k, sizeof(k)) != sizeof(k))
			rc = 1;
		_exit(rc);
	}
	close(fd[1]);
	if (read(fd[0], kb, sizeof(*kb)) != sizeof(*kb))
		*kb = -1;
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) || *kb < 0)
		die("the child's run", -1);
	return wall() - t0;
}

static double threads_run(int n, long *kb)
{
	char text[256];

	snprintf(text, sizeof(text),
		 "name: threads\nduration: 1s\nmachine: { cpus: 4 }\nprocesses:\n"
		 "  p: { threads: { t: { count: %d, behavior: busy } } }\n", n);
	return run_child(text, kb);
}

static void bench_threads(void)
{
	static const int counts[] = { 10000, 100000 };
	long base_kb;

	threads_run(1, &base_kb);
	printf("t_1thr_peak_rss: %.1f MB\n", (double)base_kb * 1024 / 1e6);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		long kb;
		double secs = threads_run(counts[i], &kb);

		printf("t_%dthr_4cpu_sim_per_wall: %.2f x\n", counts[i], 1.0 / secs);
		printf("t_%dthr_4cpu_peak_rss: %.1f MB\n", counts[i], (double)kb * 1024 / 1e6);
		printf("t_%dthr_4cpu_bytes_per_thread: %.0f B\n", counts[i],
		       (double)(kb - base_kb) * 1024 / counts[i]);
	}
}

static void cg_or_die(int err, const char *what)
{
	if (err)
		die(what, err);
}

/* Four chains of @depth nested cgroups (cpu enabled at every level), 16 busy threads at each
 * chain's end; depth 0 puts the threads in the root. */
static void bench_depth(void)
{
	for (int depth = 0; depth <= 16; depth++) {
		struct cg_hier *h = cg_hier_new(CG_SEM_V2);
		struct sched_config cfg;
		struct sim_machine *m;
		char name[64];
		int err;

		if (!h)
			die("cg_hier_new", -1);
		for (int k = 0; k < 4; k++) {
			char path[256] = "", file[300], pid[16];
			size_t n = 0;
			int p;

			for (int d = 0; d < depth; d++) {
				snprintf(file, sizeof(file), "%s%scgroup.subtree_control", path,
					 n ? "/" : "");
				cg_or_die(cg_write(h, file, "+cpu"), "cgroup.subtree_control");
				n += (size_t)snprintf(path + n, sizeof(path) - n, "%sc%d_%d",
						      n ? "/" : "", k, d);
				cg_or_die(cg_mkdir(h, path), "cg_mkdir");
			}
			snprintf(name, sizeof(name), "p%d", k);
			p = cg_proc_new(h, name, 16);
			if (p < 0)
				die("cg_proc_new", p);
			if (depth) {
				snprintf(file, sizeof(file), "%s/cgroup.procs", path);
				snprintf(pid, sizeof(pid), "%d", p);
				cg_or_die(cg_write(h, file, pid), "cgroup.procs");
			}
		}
		sched_config_default(&cfg, SCHED_POLICY_EEVDF, 4);
		cfg.tun.hz = 1000;
		m = sim_machine_new(&cfg, h, SEED, &err);
		if (!m)
			die("sim_machine_new", err);
		set_all(m, h, 0);
		snprintf(name, sizeof(name), "d_eevdf_64thr_4cpu_depth%d", depth);
		run(name, m, 100 * NS);
		sim_machine_free(m);
		cg_hier_free(h);
	}
}

/*
 * Four threads a CPU in the root on @cpus CPUs for 10 s: busy, or 30 % of them bursty; the
 * machine one LLC, or the shape of case (s) when @shaped.
 */
static void cpus_case(const char *name, int cpus, bool shaped, int bursty_every)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	struct sched_config cfg;
	struct sim_machine *m;
	int err;

	if (!h || cg_proc_new(h, "app", 4 * cpus) < 0)
		die("setup", -1);
	sched_config_default(&cfg, SCHED_POLICY_EEVDF, cpus);
	if (shaped)	/* 2 sockets in 2 nodes, LLCs (dies) of 4 cores x 2 threads */
		cfg.machine = (struct topo_machine){ cpus, 2, cpus / 16, 4, 2, 2, NULL };
	m = sim_machine_new(&cfg, h, SEED, &err);
	if (!m)
		die("sim_machine_new", err);
	set_all(m, h, bursty_every);
	run(name, m, 10 * NS);
	sim_machine_free(m);
	cg_hier_free(h);
}

static void bench_cpus(void)
{
	char name[64];

	for (int cpus = 1; cpus <= 256; cpus *= 2) {
		snprintf(name, sizeof(name), "p_eevdf_%dthr_%dcpu", 4 * cpus, cpus);
		cpus_case(name, cpus, false, 0);
	}
}

static void bench_shape(void)
{
	char name[64];

	for (int cpus = 64; cpus <= 256; cpus *= 4) {
		snprintf(name, sizeof(name), "s_eevdf_%dthr_%dcpu_2s_llc8_smt2_2n", 4 * cpus, cpus);
		cpus_case(name, cpus, true, 1);
	}
}

/*
 * Where the CPU has no counter: run cases a, b and f (those that ran) again under callgrind,
 * each run dumped under its name by run(), and print each run's instructions per switch. The
 * child is this program with the same seed: its runs switch as the native ones did.
 */
static void callgrind_counts(void)
{
	char keys[4] = "";
	size_t n = 0;

	for (size_t i = 0; i < nswitched; i++)
		for (const char *k = "abf"; *k; k++)
			if (switched[i].name[0] == *k && switched[i].name[1] == '_' &&
			    !strchr(keys, *k))
				keys[n++] = *k;
	if (!nswitched)
		return;
#ifdef HAVE_CALLGRIND
	char dir[] = "/tmp/bench_sched-cg-XXXXXX", cmd[1024], line[256], path[300];

	if (n && !getenv("BENCH_NO_CALLGRIND") && !system("valgrind --version > /dev/null 2>&1") &&
	    mkdtemp(dir)) {
		fflush(stdout);
		fprintf(stderr, "bench_sched: no hardware counter: counting case(s) %s under "
			"callgrind (about a minute)\n", keys);
		snprintf(cmd, sizeof(cmd), "valgrind --tool=callgrind --collect-atstart=no "
			 "--callgrind-out-file=%s/cg /proc/%ld/exe %s > /dev/null 2> %s/log",
			 dir, (long)getpid(), keys, dir);
		if (system(cmd))
			die("valgrind --tool=callgrind", -1);
		/* a file a dump, cg.1, cg.2, ...: its "desc: Trigger: Client Request: NAME" line
		 * and its "totals:" line */
		for (int k = 1;; k++) {
			char name[64] = "";
			unsigned long long total = 0;
			FILE *f;

			snprintf(path, sizeof(path), "%s/cg.%d", dir, k);
			if (!(f = fopen(path, "r")))
				break;
			while (fgets(line, sizeof(line), f)) {
				const char *d = strstr(line, "Client Request: ");

				if (!strncmp(line, "desc: Trigger:", 14) && d)
					sscanf(d + 16, "%63s", name);
				sscanf(line, "totals: %llu", &total);
			}
			fclose(f);
			unlink(path);
			for (size_t i = 0; i < nswitched; i++)
				if (!strcmp(switched[i].name, name) && switched[i].switches)
					printf("%s_instructions_per_switch: %.0f (callgrind)\n", name,
					       (double)total / (double)switched[i].switches);
		}
		for (const char *const *f = (const char *const[]){ "cg", "log", NULL }; *f; f++) {
			snprintf(path, sizeof(path), "%s/%s", dir, *f);
			unlink(path);
		}
		rmdir(dir);
		return;
	}
#endif
	printf("instructions_per_switch: unavailable (no hardware counter here%s)\n",
	       n ? ", and no valgrind" : "");
}

/*
 * Case @key run in a child process, so that the peak RSS printed is the case's own (a process's
 * peak only grows, and the cases run one after another). The child sends back the switch
 * counts its runs recorded, for callgrind_counts(). Its peak includes the few MB of this
 * process it starts with (t_1thr_peak_rss shows about how much a process needs at all).
 */
static void run_case(char key, void (*fn)(void))
{
	struct switched w;
	struct rusage ru;
	int fd[2], status;
	pid_t pid = -1;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0)
		die("fork", -1);
	if (!pid) {
		int rc = 0;

		close(fd[0]);
		nswitched = 0;
		fn();
		fflush(stdout);
		for (size_t i = 0; i < nswitched; i++)
			if (write(fd[1], &switched[i], sizeof(switched[i])) != sizeof(switched[i]))
				rc = 1;
		_exit(rc);
	}
	close(fd[1]);
	while (read(fd[0], &w, sizeof(w)) == sizeof(w))
		if (nswitched < sizeof(switched) / sizeof(switched[0]))
			switched[nswitched++] = w;
	close(fd[0]);
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("case's child", -1);
	printf("%c_peak_rss: %.1f MB\n", key, (double)ru.ru_maxrss * 1024 / 1e6);
}

int main(int argc, char **argv)
{
	static const struct {
		char key;
		void (*fn)(void);
	} cases[] = {
		/* first: a child inherits the parent's pages, so its peak RSS includes them */
		{ 't', bench_threads },
		{ 'a', bench_a_both }, { 'b', bench_b }, { 'f', bench_f }, { 'd', bench_depth },
		{ 'p', bench_cpus },
		{ 's', bench_shape },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		bool want = argc < 2;

		for (int i = 1; i < argc; i++)
			want |= strchr(argv[i], cases[k].key) != NULL;
		if (!want)
			continue;
#ifdef HAVE_CALLGRIND
		if (RUNNING_ON_VALGRIND) {	/* callgrind_counts()'s run: one process, one dump file */
			cases[k].fn();
			continue;
		}
#endif
		if (cases[k].key == 't')	/* its runs are children already, each with its peak */
			cases[k].fn();
		else
			run_case(cases[k].key, cases[k].fn);
	}
#ifdef HAVE_CALLGRIND
	if (RUNNING_ON_VALGRIND)
		return 0;
#endif
	callgrind_counts();
	return 0;
}
