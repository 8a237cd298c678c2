// SPDX-License-Identifier: MIT
/*
 * bench/bench_trace.c - what reading a large scheduler trace costs (cgsim trace-stats; a
 * benchmark, not a test: timings depend on the machine and on what else it runs).
 *
 * A synthetic trace in the kernel's form with TGID is written to a temporary file: THREADS
 * threads on 64 CPUs, each in turn woken on a CPU and switched in and out (a burst of 1 to 3
 * ms, a sleep), until the file holds MB megabytes. It is then read as trace-stats reads it
 * (sim/replay/tread.h into sim/replay/tstats.h), and the file removed. The reading's memory
 * must follow the threads, not the events: the peak RSS is printed next to the size.
 *
 *   bench_trace [MB [THREADS]]      default 1024 MB, 10,000 threads
 *
 * Then what loading a scenario that replays a trace costs (cgsim run's reading, the steps
 * made, the ideal shares, 1 ms simulated): a trace of REPLAY_THREADS threads with long lives, a
 * step per burst and sleep, REPLAY_MB megabytes, each thread replayed by a process of its own,
 * all naming the same file. Its time must follow the trace's size, not the steps squared
 * (a phases duty cycle once looked at every later step for each step) nor the processes (each
 * once read the whole trace). Then the same scenario loaded 8 times from one source, as a
 * comparison's variants and seeds are: the trace is read once (each load once read it again).
 *
 * One "name: value unit" line per figure.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sim/replay/tread.h"
#include "sim/replay/tstats.h"
#include "sim/run/run.h"
#include "sim/scenario/scenario.h"

#define NCPU 64

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void line(FILE *f, int ctx, int cpu, uint64_t ns, const char *rest)
{
	fprintf(f, "%16s-%-7d (%7d) [%03d] d..2 %5llu.%06llu: %s\n", ctx ? "w" : "<idle>", ctx,
		ctx, cpu, (unsigned long long)(ns / 1000000000), (unsigned long long)(ns / 1000 % 1000000),
		rest);
}

/* The trace, about @mb MB of @threads threads, into @f; the events written. */
static uint64_t write_trace(FILE *f, long mb, int threads)
{
	uint64_t ns = 1000000, events = 0;
	char rest[256];
	long long target = mb * 1000000LL;

	fputs("# tracer: nop\n#\n", f);
	for (uint64_t k = 0; ftello(f) < target; k++) {
		int pid = 1000 + (int)(k % (uint64_t)threads), cpu = (int)(k % NCPU);
		uint64_t run = 1000000 + (k * 7919) % 2000000;

		snprintf(rest, sizeof(rest), "sched_waking: comm=w pid=%d prio=120 target_cpu=%03d",
			 pid, cpu);
		line(f, 0, cpu, ns, rest);
		snprintf(rest, sizeof(rest), "sched_switch: prev_comm=swapper/%d prev_pid=0 "
			 "prev_prio=120 prev_state=R ==> next_comm=w next_pid=%d next_prio=120",
			 cpu, pid);
		line(f, 0, cpu, ns + 20000, rest);
		snprintf(rest, sizeof(rest), "sched_switch: prev_comm=w prev_pid=%d prev_prio=120 "
			 "prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", pid, cpu);
		line(f, pid, cpu, ns + 20000 + run, rest);
		events += 3;
		ns += 50000;
	}
	return events;
}

#define REPLAY_MB 64
#define REPLAY_THREADS 4
#define REPLAY_LOADS 8

/*
 * The same scenario loaded REPLAY_LOADS times from one source, as compare loads its variants,
 * seeds and sweep values: the trace is read at the first load only. 0 or 1.
 */
static int replay_loads(const char *ypath)
{
	char err[1024];
	struct scn_source *src = scn_source_read(ypath, NULL, err, sizeof(err));
	double t0 = wall();
	int e = !src;

	for (int i = 0; !e && i < REPLAY_LOADS; i++) {
		struct scenario *sc = scn_source_load(src, NULL, NULL, 0, SCN_NO_SWEEP, err,
						      sizeof(err));

		e = !sc;
		scn_free(sc);
	}
	if (!e)
		printf("replay_%d_loads_s: %.2f s\n", REPLAY_LOADS, wall() - t0);
	else
		fprintf(stderr, "bench_trace: %s\n", err);
	scn_source_put(src);
	return e;
}

/* Load and run (1 ms) a scenario replaying a REPLAY_MB trace, a process per thread: 0 or 1. */
static int replay_load(void)
{
	char tpath[] = "/tmp/cgsim-bench-replay-XXXXXX", ypath[64], err[1024];
	int fd = mkstemp(tpath);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *y;
	struct run_result *res = NULL;
	struct scenario *sc;
	double t0, secs;
	int e = 1;

	if (!f)
		return 1;
	write_trace(f, REPLAY_MB, REPLAY_THREADS);
	fclose(f);
	snprintf(ypath, sizeof(ypath), "%s.yaml", tpath);
	if (!(y = fopen(ypath, "w"))) {
		unlink(tpath);
		return 1;
	}
	fputs("name: bench-replay\nduration: 1ms\nwarmup: 0\nmachine: { cpus: 64 }\nprocesses:\n",
	      y);
	for (int i = 0; i < REPLAY_THREADS; i++)
		fprintf(y, "  p%d: { trace: %s, select: { pid: %d } }\n", i, strrchr(tpath, '/') + 1,
			1000 + i);
	fclose(y);
	t0 = wall();
	sc = scn_load(ypath, NULL, NULL, NULL, 0, err, sizeof(err));
	if (sc && !run_scenario(sc, false, &res, err, sizeof(err))) {
		secs = wall() - t0;
		printf("replay_trace_mb: %d MB\n", REPLAY_MB);
		printf("replay_processes: %d\n", REPLAY_THREADS);
		printf("replay_load_run_s: %.2f s\n", secs);
		e = 0;
	} else {
		fprintf(stderr, "bench_trace: %s\n", err);
	}
	if (!e)
		e = replay_loads(ypath);
	run_free(res);
	scn_free(sc);
	unlink(ypath);
	unlink(tpath);
	return e;
}

int main(int argc, char **argv)
{
	long mb = argc > 1 ? atol(argv[1]) : 1024;
	int threads = argc > 2 ? atoi(argv[2]) : 10000;
	char path[] = "/tmp/cgsim-bench-trace-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	struct tread_event ev;
	struct tstats *st = tstats_new();
	struct tread *r;
	struct rusage ru;
	char err[1024];
	uint64_t events;
	double t0, secs;
	int rc;

	if (mb < 1 || threads < 1 || !f || !st) {
		fprintf(stderr, "usage: bench_trace [MB [THREADS]] (and a writable /tmp)\n");
		return 2;
	}
	unlink(path);			/* gone when closed, whatever happens */
	events = write_trace(f, mb, threads);
	fflush(f);
	rewind(f);
	r = tread_open(f, path);
	t0 = wall();
	while ((rc = tread_next(r, &ev, err, sizeof(err))) > 0)
		if (tstats_add(st, &ev)) {
			fprintf(stderr, "bench_trace: out of memory\n");
			return 1;
		}
	tstats_finish(st);
	secs = wall() - t0;
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("trace_mb: %ld MB\n", mb);
	printf("trace_events: %llu\n", (unsigned long long)events);
	printf("trace_threads: %zu\n", tstats_nthreads(st));
	printf("trace_read_s: %.2f s\n", secs);
	printf("trace_read_mb_per_s: %.0f MB/s\n", (double)mb / secs);
	printf("trace_ns_per_event: %.1f ns\n", secs * 1e9 / (double)events);
	printf("trace_peak_rss: %.1f MB\n", (double)ru.ru_maxrss * 1024 / 1e6);
	tstats_free(st);
	tread_close(r);
	fclose(f);
	return replay_load();
}
