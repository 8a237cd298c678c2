/* mixload: the workload of tests/replay/record.sh, a small program whose threads wake each
 * other through a pipe and a mutex, beside a periodic thread and two busy ones.
 *
 *   mixload
 *
 * Threads, each named by its comm (prctl PR_SET_NAME):
 *   pipe-client  every 2 ms (absolute times on CLOCK_MONOTONIC) writes a byte to the server's
 *                pipe, blocks reading the reply, then runs 0.1 ms;
 *   pipe-server  blocks reading its pipe, runs 0.5 ms, writes the reply;
 *   lock-1/2     lock one pthread mutex, run 1 ms, unlock, sleep 2 ms (relative), again;
 *   tick         runs 0.5 ms at the start of every 5 ms (absolute times; one due before the
 *                last has finished starts at once);
 *   spin-1/2     run forever.
 * "Runs" counts the thread's own CPU time as the kernel charges it (CLOCK_THREAD_CPUTIME_ID),
 * so time the CPU spent elsewhere (another thread, an interrupt, the hypervisor) is not work.
 *
 * Once every thread exists it prints `NAME TID` per thread and `ready`, and waits for a line
 * on stdin; then the threads start, and the process runs until it is killed.
 *
 * Developer tool, never run by make test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000LL

static pthread_barrier_t start;
static pthread_mutex_t rows = PTHREAD_MUTEX_INITIALIZER;
static int req[2], rep[2];

static long long ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spin until this thread has been charged @ns more of CPU time. */
static void run_cpu(long long ns)
{
	long long end = ns_of(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static void sleep_until(long long t)
{
	struct timespec ts = { (time_t)(t / 1000000000LL), (long)(t % 1000000000LL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void xwrite(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("mixload: write");
}

static void xread(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("mixload: read");
}

static void *client(void *arg)
{
	long long t = ns_of(CLOCK_MONOTONIC);

	(void)arg;
	for (;; t += 2 * MS) {
		sleep_until(t);
		xwrite(req[1]);
		xread(rep[0]);
		run_cpu(MS / 10);
	}
	return NULL;
}

static void *server(void *arg)
{
	(void)arg;
	for (;;) {
		xread(req[0]);
		run_cpu(MS / 2);
		xwrite(rep[1]);
	}
	return NULL;
}

static void *locker(void *arg)
{
	struct timespec two = { 0, 2 * MS };

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&rows);
		run_cpu(MS);
		pthread_mutex_unlock(&rows);
		nanosleep(&two, NULL);
	}
	return NULL;
}

static void *ticker(void *arg)
{
	long long t = ns_of(CLOCK_MONOTONIC);

	(void)arg;
	for (;; t += 5 * MS) {
		if (ns_of(CLOCK_MONOTONIC) < t)
			sleep_until(t);
		run_cpu(MS / 2);
	}
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	for (;;)
		;
	return NULL;
}

static const struct {
	const char *name;
	void *(*fn)(void *);
} threads[] = {
	{ "pipe-client", client }, { "pipe-server", server }, { "lock-1", locker },
	{ "lock-2", locker },	   { "tick", ticker },	      { "spin-1", spinner },
	{ "spin-2", spinner },
};
#define NTHREADS (sizeof(threads) / sizeof(threads[0]))

static pid_t tids[NTHREADS];

struct start_arg {
	size_t i;
};

static void *trampoline(void *p)
{
	size_t i = ((struct start_arg *)p)->i;

	prctl(PR_SET_NAME, threads[i].name, 0, 0, 0);
	__atomic_store_n(&tids[i], (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	pthread_barrier_wait(&start);
	return threads[i].fn(NULL);
}

int main(void)
{
	static struct start_arg args[NTHREADS];
	pthread_t t;
	char line[16];

	if (pipe(req) || pipe(rep))
		die("mixload: pipe");
	if (pthread_barrier_init(&start, NULL, NTHREADS + 1))
		die("mixload: barrier");
	for (size_t i = 0; i < NTHREADS; i++) {
		args[i].i = i;
		if (pthread_create(&t, NULL, trampoline, &args[i]))
			die("mixload: pthread_create");
	}
	for (size_t i = 0; i < NTHREADS; i++) {
		while (!__atomic_load_n(&tids[i], __ATOMIC_ACQUIRE))
			usleep(1000);
		printf("%s %d\n", threads[i].name, (int)tids[i]);
	}
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	pthread_barrier_wait(&start);
	for (;;)
		pause();
}
