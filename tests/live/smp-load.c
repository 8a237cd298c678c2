/* smp-load: the threads of one process of a live share measurement (tests/live/smp-shares.sh).
 *
 *   smp-load [--setsid] SPEC...
 *
 * Each SPEC starts one thread: `busy` spins; `duty:RUN_US:PERIOD_US` runs RUN_US of its own CPU
 * time at the start of every period of PERIOD_US (absolute times, an overrun starts the next
 * period at once, as cgsim's periodic behaviour), sleeping in between. Options follow after
 * commas: `pin:CPU` (sched_setaffinity of that thread alone), `nice:N` (setpriority of that
 * thread alone, as Linux allows). With --setsid the process starts a session of its own, so
 * with autogroup on it gets an autogroup of its own.
 *
 * Once every thread runs with its settings, the tids are printed one per line in SPEC order,
 * followed by "ready"; the process then runs until it is killed. Developer tool, never run by
 * make test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct spec {
	long run_us, period_us; /* period 0: busy */
	int pin;                /* -1: any CPU */
	int nice;
	pid_t tid;
	int ready;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static long long ns_of(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *body(void *arg)
{
	struct spec *s = arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	if (s->pin >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(s->pin, &set);
		if (sched_setaffinity(tid, sizeof set, &set) != 0)
			perror("sched_setaffinity"), exit(1);
	}
	if (s->nice && setpriority(PRIO_PROCESS, (id_t)tid, s->nice) != 0)
		perror("setpriority"), exit(1);
	pthread_mutex_lock(&lock);
	s->tid = tid;
	s->ready = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);

	if (!s->period_us)
		for (;;)
			__asm__ volatile("" ::: "memory");
	long long next = ns_of(CLOCK_MONOTONIC);
	for (;;) {
		long long c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
		while (ns_of(CLOCK_THREAD_CPUTIME_ID) - c0 < s->run_us * 1000LL)
			;
		next += s->period_us * 1000LL;
		long long now = ns_of(CLOCK_MONOTONIC);
		if (now >= next) {
			next = now;
			continue;
		}
		struct timespec ts = { .tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return NULL;
}

static int parse(const char *arg, struct spec *s)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", arg);
	s->pin = -1;
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
		else
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int first = 1;
	if (argc > 1 && !strcmp(argv[1], "--setsid")) {
		if (setsid() < 0)
			perror("setsid"), exit(1);
		first = 2;
	}
	int n = argc - first;
	if (n <= 0) {
		fprintf(stderr, "usage: smp-load [--setsid] busy|duty:RUN_US:PERIOD_US[,pin:CPU][,nice:N]...\n");
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
	for (;;)
		pause();
}
