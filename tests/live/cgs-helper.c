/*
 * cgs-helper: the few system calls tests/live/cgs-replay.sh needs with an exact errno.
 *
 * Developer tool, compiled on the fly by cgs-replay.sh into a temporary directory; not part of
 * the simulator and not built by `make`.
 *
 *   cgs-helper write FILE VALUE   one write(2) of VALUE plus "\n"; prints "ok" or the errno name
 *   cgs-helper read FILE          prints the file's content (exit 0) or the errno name (exit 1)
 *   cgs-helper mkdir DIR          prints "ok" or the errno name
 *   cgs-helper rmdir DIR          prints "ok" or the errno name
 *   cgs-helper spawn N            starts N-1 extra threads, prints the N tids (main thread
 *                                 first, then in creation order) one per line, closes stdout
 *                                 and sleeps until killed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	static char buf[32];

	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ENXIO: return "ENXIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENODEV: return "ENODEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case EMLINK: return "EMLINK";
	case EDOM: return "EDOM";
	case ERANGE: return "ERANGE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";	/* == ENOTSUP on Linux */
	case EOVERFLOW: return "EOVERFLOW";
	default:
		snprintf(buf, sizeof(buf), "E%d", e);
		return buf;
	}
}

static int do_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	char *buf = malloc(len + 2);
	int fd;

	if (!buf)
		return puts("ENOMEM"), 0;
	memcpy(buf, value, len);
	buf[len] = '\n';
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		puts(errno_name(errno));
		goto out;
	}
	if (write(fd, buf, len + 1) < 0)
		puts(errno_name(errno));
	else
		puts("ok");
	close(fd);
out:
	free(buf);
	return 0;
}

static int do_read(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		puts(errno_name(errno));
		return 1;
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			/* nothing has been written yet when the first read fails */
			puts(errno_name(errno));
			close(fd);
			return 1;
		}
		if (n == 0)
			break;
		fwrite(buf, 1, (size_t)n, stdout);
	}
	close(fd);
	return 0;
}

static sem_t started;
static pid_t *tids;

static void *thread_main(void *arg)
{
	long i = (long)arg;

	tids[i] = (pid_t)syscall(SYS_gettid);
	sem_post(&started);
	for (;;)
		pause();
	return NULL;
}

static int do_spawn(int n)
{
	pthread_t th;
	long i;

	if (n < 1)
		n = 1;
	tids = calloc((size_t)n, sizeof(*tids));
	if (!tids || sem_init(&started, 0, 0))
		return 1;
	tids[0] = getpid();
	for (i = 1; i < n; i++) {
		if (pthread_create(&th, NULL, thread_main, (void *)i))
			return 1;
		while (sem_wait(&started) && errno == EINTR)
			;
	}
	for (i = 0; i < n; i++)
		printf("%d\n", (int)tids[i]);
	fflush(stdout);
	fclose(stdout);
	for (;;)
		pause();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "read"))
		return do_read(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mkdir"))
		return puts(mkdir(argv[2], 0755) ? errno_name(errno) : "ok"), 0;
	if (argc == 3 && !strcmp(argv[1], "rmdir"))
		return puts(rmdir(argv[2]) ? errno_name(errno) : "ok"), 0;
	if (argc == 3 && !strcmp(argv[1], "spawn"))
		return do_spawn(atoi(argv[2]));
	fprintf(stderr, "usage: cgs-helper write FILE VALUE | read FILE | mkdir DIR | rmdir DIR | spawn N\n");
	return 2;
}
