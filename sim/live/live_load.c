// SPDX-License-Identifier: MIT
/*
 * sim/live/live_load.c - a helper process: one scenario process's threads, run for real.
 *
 * The helper is a forked child of cgsim. It starts one thread per scenario thread; each gives
 * itself the scenario's policy, nice, custom slice and affinity, says its tid and waits. The
 * helper writes "TID\n" per thread in plan order, then "ready\n", on its output pipe, and waits
 * for a byte on its input pipe: the release, after cgsim has moved the threads to their
 * cgroups. Every thread then runs its behaviour, with its durations drawn from the same seed
 * and stream, in the same order, as the simulated thread's (sim/machine/machine_events.c),
 * until cgsim kills the helper.
 *
 * A run of D ns is D ns of the thread's own CPU time, counted from CLOCK_MONOTONIC (a vDSO read,
 * no system call) as the time between two reads, unless that is a gap of GAP_NS or more: the
 * thread was off the CPU. Reading CLOCK_THREAD_CPUTIME_ID as it goes would be a system call that
 * runs update_curr() on the thread, which makes the kernel reschedule it at that moment where an
 * ordinary thread waits for the next tick (measured on Linux 6.18: a 2 ms run polling it was
 * preempted 1.4 ms in). Interrupts shorter than the gap count as the thread's, as the kernel
 * counts them without IRQ time accounting.
 *
 * In a guest of validate --vm (the init sets CGSIM_VM_GUEST) a gap is not always time off the
 * CPU: under QEMU's TCG the vCPUs take turns on one host thread, and the turns of the others
 * are gaps the guest's kernel charges to the thread that was running (its clock went on). A
 * 2 ms / 10 ms periodic thread counting them out ran 4 ms and got 0.20 of a CPU on a 2-vCPU
 * guest instead of 0.10. There, after each gap, the count is set to what the kernel charged
 * (CLOCK_THREAD_CPUTIME_ID since the run began): one system call per gap, not per read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sim/live/live_internal.h"

#define GAP_NS 10000LL

/* sched_setattr(2)'s argument (SCHED_ATTR_SIZE_VER1); not every libc declares it. */
struct live_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

struct worker {
	const struct live_plan *plan;
	const struct live_thread *lt;
	struct sim_rng rng;
	pthread_t th;
	pid_t tid;		/* 0 until set; -errno when the thread could not set itself up */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int nready;
static long long release_ns = -1;	/* CLOCK_MONOTONIC of the release, -1 before it */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static _Noreturn void sleep_forever(void)
{
	for (;;)
		pause();
}

static bool gap_from_kernel;	/* in a guest: a gap's time asked of the kernel (above) */

/* This thread's CPU time as the kernel charged it, ns. */
static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Run @ns of this thread's CPU time, or until @stop (CLOCK_MONOTONIC ns, 0: none). */
static void run_cpu(long long ns, long long stop)
{
	long long done = 0, prev = now_ns(), cpu0 = gap_from_kernel ? cpu_ns() : 0;

	while (done < ns) {
		long long now = now_ns(), d = now - prev;

		if (d < GAP_NS)
			done += d;
		else if (gap_from_kernel)
			done = cpu_ns() - cpu0;
		prev = now;
		if (stop && now >= stop)
			sleep_forever();
	}
}

/* A duration drawn as the simulation draws it: never 0 (a burst of 0 ns is no burst). */
static long long draw(struct worker *w, const struct sim_dist *d)
{
	uint64_t v = sim_dist_draw_ns(&w->rng, d);

	return v ? (long long)(v > INT64_MAX / 2 ? INT64_MAX / 2 : v) : 1;
}

/* Sleep until @t, or for good if that is past @stop. */
static void sleep_to(long long t, long long stop)
{
	if (stop && t >= stop) {
		sleep_until(stop);
		sleep_forever();
	}
	sleep_until(t);
}

/* The behaviour, from the release on (machine_events.c's rules, in real time). */
static _Noreturn void behave(struct worker *w, long long t0)
{
	const struct sim_thread_spec *sp = &w->lt->grp->spec;
	const struct sim_behavior *b = &sp->behavior;
	long long stop = sp->stop_ns ? t0 + (long long)sp->stop_ns : 0;
	long long next = t0 + (long long)sp->start_ns;

	sleep_to(next, stop);
	switch (b->kind) {
	case SIM_BEHAV_BUSY:
		run_cpu(INT64_MAX / 2, stop);
		break;
	case SIM_BEHAV_PERIODIC:
		for (;;) {
			run_cpu(draw(w, &b->run), stop);
			next += (long long)b->period_ns;
			if (next > now_ns())	/* else an overrun: the next starts at once */
				sleep_to(next, stop);
		}
	case SIM_BEHAV_BURSTY:
		for (;;) {
			run_cpu(draw(w, &b->run), stop);
			sleep_to(now_ns() + draw(w, &b->sleep), stop);
		}
	case SIM_BEHAV_PHASES:
		for (uint32_t loop = 0; !b->loops || loop < b->loops; loop++)
			for (size_t i = 0; i < b->nphases; i++) {
				const struct sim_phase *p = &b->phases[i];

				/* live_plan refuses the synchronisation steps */
				if (p->kind == SIM_STEP_SLEEP && (p->flags & SIM_SLEEP_UNTIL)) {
					/* a replay's sleep that ends when it ended, from its start */
					if (next + (long long)p->ns > now_ns())
						sleep_to(next + (long long)p->ns, stop);
				} else if (p->kind == SIM_STEP_SLEEP) {
					sleep_to(now_ns() + draw(w, &p->d), stop);
				}
				else if (p->kind == SIM_STEP_RUN)
					run_cpu(draw(w, &p->d), stop);
			}
		break;
	case SIM_BEHAV_NONE:
		break;
	}
	sleep_forever();
}

/*
 * The scenario's policy, nice, custom slice and affinity for the calling thread, the affinity
 * within CPUs 0 .. @cpus - 1 when the plan is confined to them: 0 or -errno.
 */
static int set_up(const struct sim_thread_spec *sp, const struct scn_threads *g, int cpus,
		  bool confined)
{
	static const uint32_t policy[] = {
		[SCHED_THREAD_NORMAL] = SCHED_OTHER,
		[SCHED_THREAD_BATCH] = SCHED_BATCH,
		[SCHED_THREAD_IDLE] = SCHED_IDLE,
	};
	struct live_sched_attr a = {
		.size = sizeof(a),
		.sched_policy = policy[sp->policy],
		.sched_nice = sp->nice,
		.sched_runtime = sp->slice_ns,
	};

	if (syscall(SYS_sched_setattr, 0, &a, 0))
		return -errno;
	if (g->has_affinity || confined) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int c = 0; c < CPU_SETSIZE && c < SCHED_MAX_CPUS && c < cpus; c++)
			if (!g->has_affinity || (g->affinity[c / 64] >> (c % 64) & 1))
				CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return -errno;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int e = set_up(&w->lt->grp->spec, w->lt->grp, w->plan->cpus, w->plan->confined);
	const char *name = strrchr(w->lt->name, '/');
	long long t0;

	/*
	 * Its comm is its name, NAME.N cut to 15 bytes as cgsim's own traces write it, so that
	 * a trace recorded meanwhile (docs/replay.md) and top -H tell the threads apart.
	 */
	(void)prctl(PR_SET_NAME, name ? name + 1 : w->lt->name, 0, 0, 0);

	pthread_mutex_lock(&lock);
	w->tid = e ? e : (pid_t)syscall(SYS_gettid);
	nready++;
	pthread_cond_broadcast(&cond);
	while (release_ns < 0)
		pthread_cond_wait(&cond, &lock);
	t0 = release_ns;
	pthread_mutex_unlock(&lock);
	if (e)
		sleep_forever();
	behave(w, t0);
}

/* Write all of @s to @fd. */
static int put(int fd, const char *s)
{
	for (size_t n = strlen(s); n;) {
		ssize_t k = write(fd, s, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

_Noreturn void live__load_main(const struct live_plan *plan, size_t proc, uint64_t seed,
			       int out_fd, int in_fd)
{
	const struct live_proc *lp = &plan->procs[proc];
	struct worker *w = calloc(lp->n, sizeof(*w));
	char line[64], go;

	if (!w)
		_exit(3);
	gap_from_kernel = getenv("CGSIM_VM_GUEST") != NULL;
	for (size_t i = 0; i < lp->n; i++) {
		w[i].plan = plan;
		w[i].lt = &plan->threads[lp->first + i];
		if (sim_rng_init(&w[i].rng, seed, w[i].lt->stream) ||
		    pthread_create(&w[i].th, NULL, worker_main, &w[i]))
			_exit(3);
	}
	pthread_mutex_lock(&lock);
	while ((size_t)nready < lp->n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < lp->n; i++) {
		snprintf(line, sizeof(line), "%d\n", (int)w[i].tid);
		if (put(out_fd, line))
			_exit(3);
	}
	if (put(out_fd, "ready\n"))
		_exit(3);
	/* the release; end of file (cgsim gone) ends the helper */
	if (read(in_fd, &go, 1) != 1)
		_exit(0);
	pthread_mutex_lock(&lock);
	release_ns = now_ns();
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	sleep_forever();
}
