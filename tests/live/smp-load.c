/* smp-load: the threads of one process of a live measurement (tests/live/smp-shares.sh,
 * tests/live/latency.sh).
 *
 *   smp-load [--setsid] [--out FILE] [--delayed-ns NS] SPEC...
 *
 * Each SPEC starts one thread: `busy` spins; `duty:RUN_US:PERIOD_US` runs RUN_US of its own CPU
 * time (counted without asking the kernel, see run_cpu()) at the start of every period of
 * PERIOD_US, sleeping in between. Activation k is due at
 * start + k x PERIOD_US on CLOCK_MONOTONIC (absolute times, so the grid never drifts); one due
 * before the previous activation has finished its run (an overrun) starts at once, as cgsim's
 * periodic behaviour. Options follow after commas: `pin:CPU` (sched_setaffinity of that thread
 * alone), `nice:N` (setpriority of that thread alone, as Linux allows), `slice:US` (the EEVDF
 * custom slice, sched_setattr's sched_runtime, 100 .. 100000 us: the kernel would clamp anything
 * else silently), `name:NAME` (the thread's comm, cut to 15 bytes), `phase:US` (the first activation US after a tick: at a multiple of the tick
 * period, --tick-us, default 4000, of CLOCK_MONOTONIC, where the kernel's ticks fall to within
 * tens of microseconds; 0 .. tick - 1). With --setsid the process starts a session of its own, so with autogroup on it
 * gets an autogroup of its own.
 *
 * Once every thread runs with its settings, the tids are printed one per line in SPEC order,
 * followed by "ready"; the process then runs until it is killed.
 *
 * Wakeup latency: every duty thread records, for each activation, the time it read right after
 * clock_nanosleep() returned minus the time the activation was due (0 for an overrun, which does
 * not sleep; those are counted apart). SIGUSR1 starts the measured window: only activations due
 * from then on are kept, earlier ones are dropped. SIGUSR2 ends it (activations due before then)
 * and writes one line per duty thread, in SPEC order,
 *
 *   TID N P50_NS P90_NS P99_NS MAX_NS DELAYED OVERRUNS
 *
 * to stdout, or with --out to FILE (written to FILE.tmp, then renamed, so that a reader never
 * sees half of it; FILE.raw then holds every latency of the window, `TID NS` per line). N is the activations in the window that slept (wakeups), the percentiles are
 * nearest rank over them, DELAYED counts their latencies over NS (default 200000), OVERRUNS the
 * other activations, those due before the previous one had finished its run (as cgsim counts). At most SAMPLES_MAX activations per thread and window are kept. A second
 * SIGUSR1 starts a new window; SIGUSR2 without any SIGUSR1 reports empty windows.
 *
 * Developer tool, never run by make test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/prctl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SAMPLES_MAX 1000000L
#define NO_WINDOW LLONG_MAX

/* One activation of a duty thread: when it was due, and its latency (-1: an overrun). */
struct sample {
	long long due, lat;
};

struct spec {
	long run_us, period_us; /* period 0: busy */
	int pin;                /* -1: any CPU */
	int nice;
	long slice_us;          /* 0: the default slice */
	long phase_us;          /* -1: start at once; else at this offset from a tick */
	char name[16];          /* its comm, "" to keep the process's */
	pid_t tid;
	int ready;

	/* latency recording; the arrays and the plain fields belong to the duty thread */
	struct sample *smp;     /* SAMPLES_MAX, touched once before the start (no page faults later) */
	long nrec;              /* samples kept in the current window */
	long long win;          /* the window start this thread saw last */
	_Atomic long published; /* nrec, for the main thread: smp[0 .. published) are complete */
	_Atomic long long seen; /* win, once the thread has dropped the earlier window's samples */
	_Atomic long long next; /* every activation due before this one has its sample */
};

/* sched_setattr(2)'s argument, SCHED_ATTR_SIZE_VER1; glibc before 2.41 has neither the struct
 * nor the wrapper, and a later one would clash with our own struct sched_attr. */
struct load_sched_attr {
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static long long ns_of(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * A duty thread's run is CPU time, counted from CLOCK_MONOTONIC (a vDSO read, no system call):
 * the time between two reads counts unless it is a gap of GAP_NS or more, which is the thread
 * having been off the CPU. It must not read CLOCK_THREAD_CPUTIME_ID as it goes: that read is a
 * system call that runs update_curr() on the caller, and so reschedules it the very moment its
 * request is used up or its slice protection ends, which an ordinary thread only meets at the
 * next tick. Measured on Linux 6.18: a 2 ms run polling that clock was preempted 1.4 ms in,
 * mid-way between two ticks. (A loop calibrated at start-up avoids the clock altogether, as
 * rt-app does, but on this VM its speed varied by 40 % with the load on the other vCPU.)
 * Interrupts shorter than the gap count as the thread's, as the kernel counts them without
 * IRQ time accounting.
 */
#define GAP_NS 10000LL

static void run_cpu(long long ns)
{
	long long done = 0, prev = ns_of(CLOCK_MONOTONIC);

	while (done < ns) {
		long long now = ns_of(CLOCK_MONOTONIC), d = now - prev;

		if (d < GAP_NS)
			done += d;
		prev = now;
	}
}

/* The tick period (--tick-us) that `phase:` offsets count from. */
static long tick_us = 4000;

/* Start of the measured window (CLOCK_MONOTONIC ns), written by the main thread only. */
static _Atomic long long win_start = NO_WINDOW;


/* Keeps the sample of the activation due at @due. The thread drops its samples itself when it
 * sees a new window, and tells the main thread so through ->seen: the main thread never reads a
 * slot that is being rewritten. */
static void record(struct spec *s, long long due, long long lat)
{
	long long win = atomic_load_explicit(&win_start, memory_order_acquire);

	if (win != s->win) {
		s->win = win;
		s->nrec = 0;
		atomic_store_explicit(&s->published, 0, memory_order_relaxed);
		atomic_store_explicit(&s->seen, win, memory_order_release);
	}
	if (due >= win && s->nrec < SAMPLES_MAX) {
		s->smp[s->nrec].due = due;
		s->smp[s->nrec].lat = lat;
		s->nrec++;
		atomic_store_explicit(&s->published, s->nrec, memory_order_release);
	}
	atomic_store_explicit(&s->next, due + s->period_us * 1000LL, memory_order_release);
}

static void *body(void *arg)
{
	struct spec *s = arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	if (s->name[0] && prctl(PR_SET_NAME, s->name) != 0)
		perror("prctl"), exit(1);
	if (s->pin >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(s->pin, &set);
		if (sched_setaffinity(tid, sizeof set, &set) != 0)
			perror("sched_setaffinity"), exit(1);
	}
	if (s->nice && setpriority(PRIO_PROCESS, (id_t)tid, s->nice) != 0)
		perror("setpriority"), exit(1);
	if (s->slice_us) {
		/* sched_nice is applied too: pass the nice just set, or it would go back to 0 */
		struct load_sched_attr a = {
			.size = sizeof a,
			.sched_policy = SCHED_OTHER,
			.sched_nice = s->nice,
			.sched_runtime = (uint64_t)s->slice_us * 1000,
		};
		if (syscall(SYS_sched_setattr, tid, &a, 0) != 0)
			perror("sched_setattr"), exit(1);
	}
	pthread_mutex_lock(&lock);
	s->tid = tid;
	s->ready = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);

	if (!s->period_us)
		for (;;)
			__asm__ volatile("" ::: "memory");
	long long due = ns_of(CLOCK_MONOTONIC);
	if (s->phase_us >= 0) {
		/* the ticks fall on multiples of the tick period of CLOCK_MONOTONIC (within tens of
		 * microseconds on the kernels measured): start PHASE after one, 10 ms from now */
		long long t = tick_us * 1000LL;
		due = (due + 10000000LL + t - 1) / t * t + s->phase_us * 1000LL;
		struct timespec ts = { .tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	atomic_store_explicit(&s->next, due + s->period_us * 1000LL, memory_order_release);
	for (;;) {
		run_cpu(s->run_us * 1000LL);
		due += s->period_us * 1000LL;
		if (ns_of(CLOCK_MONOTONIC) >= due) {
			record(s, due, -1);
			continue;
		}
		struct timespec ts = { .tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		record(s, due, ns_of(CLOCK_MONOTONIC) - due);
	}
	return NULL;
}

static int parse(const char *arg, struct spec *s)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", arg);
	s->pin = -1;
	s->phase_us = -1;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "busy"))
			s->period_us = 0;
		else if (sscanf(tok, "duty:%ld:%ld", &s->run_us, &s->period_us) == 2) {
			if (s->run_us <= 0 || s->period_us <= 0)
				return -1;
		} else if (sscanf(tok, "pin:%d", &s->pin) == 1)
			;
		else if (sscanf(tok, "nice:%d", &s->nice) == 1)
			;
		else if (sscanf(tok, "phase:%ld", &s->phase_us) == 1) {
			if (s->phase_us < 0 || s->phase_us >= tick_us)
				return -1;
		} else if (sscanf(tok, "slice:%ld", &s->slice_us) == 1) {
			if (s->slice_us < 100 || s->slice_us > 100000)
				return -1;
		} else if (!strncmp(tok, "name:", 5) && tok[5])
			snprintf(s->name, sizeof s->name, "%s", tok + 5);
		else
			return -1;
	}
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* Nearest rank: the value at index ceil(p/100 x n) - 1 of the sorted samples. */
static long long rank(const long long *v, long n, int p)
{
	return n ? v[((long long)p * n + 99) / 100 - 1] : 0;
}

/* Writes the window [win, end) of every duty thread. Runs in the main thread, outside any
 * signal handler, so it may sort, allocate and do stdio. */
static void report(struct spec *s, int n, long long win, long long end, long long delayed_ns,
		   const char *out)
{
	/* the activations due just before the end may still be waiting for a CPU: give them up to
	 * 2 s to run, so that the worst latencies are not the ones left out */
	long long give_up = end + 2000000000LL;
	for (int i = 0; i < n; i++)
		while (s[i].period_us &&
		       (atomic_load_explicit(&s[i].seen, memory_order_acquire) != win ||
			atomic_load_explicit(&s[i].next, memory_order_acquire) < end) &&
		       ns_of(CLOCK_MONOTONIC) < give_up) {
			struct timespec ms = { 0, 1000000 };
			nanosleep(&ms, NULL);
		}

	char tmp[4096], rawname[4096];
	FILE *f = stdout, *raw = NULL;
	if (out) {
		snprintf(tmp, sizeof tmp, "%s.tmp", out);
		snprintf(rawname, sizeof rawname, "%s.raw", out);
		if (!(f = fopen(tmp, "w")) || !(raw = fopen(rawname, "w")))
			perror(out), exit(1);
	}
	long long *lat = malloc(SAMPLES_MAX * sizeof *lat);
	if (!lat)
		perror("malloc"), exit(1);
	for (int i = 0; i < n; i++) {
		if (!s[i].period_us)
			continue;
		long m = 0, delayed = 0, overruns = 0;
		/* a thread that has not yet seen this window may still hold the last one's samples */
		long avail = atomic_load_explicit(&s[i].seen, memory_order_acquire) == win ?
			atomic_load_explicit(&s[i].published, memory_order_acquire) : 0;
		for (long j = 0; j < avail && s[i].smp[j].due < end; j++) {
			long long l = s[i].smp[j].lat;
			if (l < 0) {	/* no sleep, no wakeup: not a latency */
				overruns++;
				continue;
			}
			if (l > delayed_ns)
				delayed++;
			lat[m++] = l;
			if (raw)
				fprintf(raw, "%d %lld\n", (int)s[i].tid, l);
		}
		qsort(lat, (size_t)m, sizeof *lat, cmp_ll);
		fprintf(f, "%d %ld %lld %lld %lld %lld %ld %ld\n", (int)s[i].tid, m, rank(lat, m, 50),
			rank(lat, m, 90), rank(lat, m, 99), m ? lat[m - 1] : 0, delayed, overruns);
	}
	free(lat);
	if (out) {
		/* FILE.raw is complete before FILE appears */
		if (fclose(raw) != 0 || fclose(f) != 0 || rename(tmp, out) != 0)
			perror(out), exit(1);
	} else {
		fflush(f);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: smp-load [--setsid] [--tick-us N] [--out FILE] [--delayed-ns NS] "
		"busy|duty:RUN_US:PERIOD_US[,pin:CPU][,nice:N][,slice:US][,phase:US]...\n");
}

/*
 * The options before the thread specs; returns the index of the first spec, or -1 (usage)
 * for an unknown or malformed option.
 */
static int parse_options(int argc, char **argv, const char **out, long long *delayed_ns)
{
	int first = 1;

	for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
		if (!strcmp(argv[first], "--setsid")) {
			if (setsid() < 0)
				perror("setsid"), exit(1);
		} else if (!strcmp(argv[first], "--tick-us") && first + 1 < argc &&
			   sscanf(argv[first + 1], "%ld", &tick_us) == 1 && tick_us > 0) {
			first++;
		} else if (!strcmp(argv[first], "--out") && first + 1 < argc) {
			*out = argv[++first];
		} else if (!strcmp(argv[first], "--delayed-ns") && first + 1 < argc &&
			   sscanf(argv[first + 1], "%lld", delayed_ns) == 1 && *delayed_ns >= 0) {
			first++;
		} else {
			return -1;
		}
	}
	return first;
}

/* No window yet; a periodic thread's sample buffer, its pages touched before any window. */
static void prepare_samples(struct spec *s, int n)
{
	for (int i = 0; i < n; i++) {
		s[i].win = NO_WINDOW;
		atomic_init(&s[i].seen, NO_WINDOW);
		if (!s[i].period_us)
			continue;
		if (!(s[i].smp = malloc(SAMPLES_MAX * sizeof *s[i].smp)))
			perror("malloc"), exit(1);
		/* not zero: a zeroing memset after malloc may be turned into calloc, which would
		 * leave the pages to be faulted in during the measurement */
		memset(s[i].smp, 0xff, SAMPLES_MAX * sizeof *s[i].smp);
	}
}

/* The threads started, each ready, and their tids printed, one a line, then "ready". */
static void start_threads(struct spec *s, int n)
{
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, body, &s[i]) != 0)
			perror("pthread_create"), exit(1);
	}
	pthread_mutex_lock(&lock);
	for (int i = 0; i < n; i++)
		while (!s[i].ready)
			pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		printf("%d\n", (int)s[i].tid);
	printf("ready\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	long long delayed_ns = 200000;
	int first = parse_options(argc, argv, &out, &delayed_ns);
	if (first < 0) {
		usage();
		return 2;
	}
	int n = argc - first;
	if (n <= 0) {
		usage();
		return 2;
	}
	struct spec *s = calloc((size_t)n, sizeof *s);
	if (!s)
		return 1;
	for (int i = 0; i < n; i++)
		if (parse(argv[first + i], &s[i]) != 0) {
			fprintf(stderr, "smp-load: bad thread spec '%s'\n", argv[first + i]);
			return 2;
		}
	prepare_samples(s, n);
	/* SIGUSR1/2 are taken by sigwait() in this thread alone: blocked here before the threads
	 * exist, so every thread inherits the mask and none is ever interrupted by them */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGUSR2);
	if (pthread_sigmask(SIG_BLOCK, &sigs, NULL) != 0)
		perror("pthread_sigmask"), exit(1);
	start_threads(s, n);
	long long win = NO_WINDOW;
	for (;;) {
		int sig;
		if (sigwait(&sigs, &sig) != 0)
			continue;
		long long now = ns_of(CLOCK_MONOTONIC);
		if (sig == SIGUSR1) {
			/* strictly later than the last window: the threads tell windows apart by it */
			win = win != NO_WINDOW && now <= win ? win + 1 : now;
			atomic_store_explicit(&win_start, win, memory_order_release);
		} else {
			report(s, n, win, now, delayed_ns, out);
		}
	}
}
