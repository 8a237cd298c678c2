// SPDX-License-Identifier: MIT
/*
 * sim/study/jobs.c - a comparison's runs, here or in worker processes (sim/study/jobs.h).
 *
 * A worker is a fork() of this process made once every scenario is loaded, so it has them all
 * (copy-on-write) and needs only a job's number: it runs the jobs it is given one at a time,
 * answers each with the result as runio text (or the run's error message) on a pipe, and
 * leaves with _exit() once its requests end, so that nothing of the parent's stdio is flushed
 * twice. The parent keeps each worker QUEUE jobs ahead, in the list's order, reads the
 * answers as they come (a result can be larger than a pipe holds, so they are read while the
 * worker writes), and parses each result into its job's slot.
 *
 * Long-lived workers rather than a process per job: a run of a small scenario costs about a
 * millisecond, and a process that exits after one job costs more than that in its tear-down
 * (measured: a blocking wait of about 2.7 ms for each exiting worker). A job that crashes its
 * worker fails the comparison: the parent sees the answer end early and says how the worker
 * died.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/study/jobs.h"
#include "sim/run/runio.h"
#include "sim/util/util.h"

int jobs_add(struct jobs *js, const struct scenario *sc, struct run_result **out, FILE *trace,
	     size_t value)
{
	if (UTIL_GROW(js->job, js->cap, js->n + 1))
		return -ENOMEM;
	js->job[js->n++] = (struct jobs_job){ .sc = sc, .out = out, .trace = trace,
					      .value = value, .mine = true };
	return 0;
}

void jobs_free(struct jobs *js)
{
	free(js->job);
	memset(js, 0, sizeof(*js));
}

void jobs_label(const struct jobs *js, size_t j, char *buf, size_t len)
{
	const struct jobs_job *jb = &js->job[j];
	const struct scenario *sc = jb->sc;

	if (jb->value != SCN_NO_SWEEP && jb->value < sc->nsweep)
		snprintf(buf, len, "variant %.200s, %.200s=%.200s, seed %llu", sc->variant,
			 sc->sweep_key, sc->sweep_values[jb->value], (unsigned long long)sc->seed);
	else
		snprintf(buf, len, "variant %.200s, seed %llu", sc->variant,
			 (unsigned long long)sc->seed);
}

void jobs_shard(struct jobs *js, size_t i, size_t n)
{
	for (size_t j = 0; j < js->n; j++)
		js->job[j].mine = j % n == i - 1;
}

size_t jobs_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (size_t)n : 1;
}

size_t jobs_mine(const struct jobs *js)
{
	size_t n = 0;

	for (size_t j = 0; j < js->n; j++)
		n += js->job[j].mine;
	return n;
}

/* "\rcgsim: N of M runs done" on a terminal; @done == @total clears the line. */
static void progress(bool tty, size_t done, size_t total)
{
	if (!tty)
		return;
	if (done < total)
		fprintf(stderr, "\rcgsim: %zu of %zu runs done", done, total);
	else
		fputs("\r\033[K", stderr);
}

/*
 * The message of job @j's failure @msg, with which run it was when the list has more than one:
 * "MSG\ncgsim: in run J of N (variant ..., seed S)".
 */
static void fail_msg(const struct jobs *js, size_t j, const char *msg, char *err, size_t errlen)
{
	char what[700];

	if (js->n == 1) {
		snprintf(err, errlen, "%s", msg);
		return;
	}
	jobs_label(js, j, what, sizeof(what));
	snprintf(err, errlen, "%.1500s\ncgsim: in run %zu of %zu (%s)", msg, j + 1, js->n, what);
}

/* The jobs that are mine, here, one after another. */
static int run_here(struct jobs *js, char *err, size_t errlen)
{
	size_t total = jobs_mine(js), done = 0;
	bool tty = isatty(STDERR_FILENO);
	char msg[2048];

	for (size_t j = 0; j < js->n; j++) {
		struct jobs_job *jb = &js->job[j];
		int e;

		if (!jb->mine)
			continue;
		progress(tty, done, total);
		msg[0] = '\0';
		e = run_scenario_trace(jb->sc, false, jb->trace, jb->out, msg, sizeof(msg));
		if (e) {
			progress(tty, total, total);
			fail_msg(js, j, msg[0] ? msg : "cgsim: the run failed", err, errlen);
			return e;
		}
		done++;
	}
	progress(tty, total, total);
	return 0;
}

/* ---------------- workers ---------------- */

/*
 * A worker reads job numbers ("J\n") from its request pipe and answers each on its answer
 * pipe with a frame: "ok LEN\n" and LEN bytes of runio text, or "error LEN\n" and the
 * message. It ends at the end of its requests.
 *
 * Each worker has up to QUEUE jobs given and not answered: the one it runs and the next, so
 * that it goes on to the next while its answer waits for the parent, which shares the CPUs
 * with the workers (with one job at a time, --jobs 2 on 2 CPUs ran 240 runs of a millisecond
 * only 1.2 times as fast as --jobs 1: each worker idled until the parent was scheduled).
 */
#define QUEUE 2

struct worker {
	pid_t pid;
	int req, ans;		/* our ends: the requests we write, the answers we read */
	size_t q[QUEUE], nq;	/* the jobs given, oldest (answered next) first */
	char *buf;		/* answer bytes read and not yet taken */
	size_t len, cap;
};

/* In the child: one job, its answer framed on @f. false when the answer cannot be written. */
static bool serve_one(struct jobs_job *jb, FILE *f)
{
	struct run_result *r = NULL;
	char msg[2048] = "", *text = NULL;
	size_t len = 0;
	FILE *m;
	int e;

	e = run_scenario_trace(jb->sc, false, jb->trace, &r, msg, sizeof(msg));
	if (e) {
		if (!msg[0])
			snprintf(msg, sizeof(msg), "cgsim: the run failed");
		fprintf(f, "error %zu\n%s", strlen(msg), msg);
		return !fflush(f);
	}
	/* the frame needs the length first: the text is made in memory */
	m = open_memstream(&text, &len);
	if (!m)
		return false;
	e = runio_write(m, r);
	if (fclose(m) || e) {
		free(text);
		return false;
	}
	run_free(r);
	fprintf(f, "ok %zu\n", len);
	fwrite(text, 1, len, f);
	free(text);
	return !fflush(f);
}

/*
 * A worker runs one job after another, each allocating and freeing the same large buffers;
 * glibc would hand them back to the kernel after each (munmap, a shrinking brk) and map them
 * again for the next, and each unmapping flushes the TLB of every CPU the process ran on: a
 * sixth of a 2-CPU --jobs 2 run's time went there (perf). A worker keeps its heap instead.
 */
static void keep_heap(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/* In the child: serve requests until they end; never returns. */
static void serve(struct jobs *js, int req, int ans)
{
	FILE *in = fdopen(req, "r"), *out = fdopen(ans, "w");
	char line[32], *end;
	unsigned long long j;

	signal(SIGPIPE, SIG_DFL);
	if (!in || !out)
		_exit(3);
	keep_heap();
	/* a line at a time: a scanf() format would wait for the next request to end this one */
	while (fgets(line, sizeof(line), in)) {
		j = strtoull(line, &end, 10);
		if (*end != '\n' || j >= js->n || !serve_one(&js->job[j], out))
			_exit(1);
	}
	_exit(0);
}

/* Start worker @k (its pipes and its process). 0 or a negative errno with a message. */
static int spawn(struct jobs *js, struct worker *w, size_t k, char *err, size_t errlen)
{
	int req[2], ans[2], e;

	if (pipe(req)) {
		e = errno;
		goto fail;
	}
	if (pipe(ans)) {
		e = errno;
		close(req[0]);
		close(req[1]);
		goto fail;
	}
	fflush(stdout);		/* nothing buffered may be written twice */
	fflush(stderr);
	w[k].pid = fork();
	if (w[k].pid < 0) {
		e = errno;
		w[k].pid = 0;
		close(req[0]), close(req[1]), close(ans[0]), close(ans[1]);
		goto fail;
	}
	if (!w[k].pid) {
		/* the earlier workers' pipes: held open here, they would never see their end */
		for (size_t i = 0; i < k; i++)
			close(w[i].req), close(w[i].ans);
		close(req[1]);
		close(ans[0]);
		serve(js, req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	w[k].req = req[1];
	w[k].ans = ans[0];
	w[k].nq = 0;
	return 0;
fail:
	snprintf(err, errlen, "cgsim: cannot start a worker: %s", strerror(e));
	return -e;
}

/* Give job @j to worker @w, which has room for it. 0, or a negative errno with a message. */
static int give(struct worker *w, size_t j, char *err, size_t errlen)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%zu\n", j);

	/* a few bytes into a pipe that holds at most QUEUE requests: written whole, never blocks */
	if (write(w->req, line, (size_t)n) != n) {
		snprintf(err, errlen, "cgsim: cannot give a worker its run: %s", strerror(errno));
		return -EIO;
	}
	w->q[w->nq++] = j;
	return 0;
}

/* A whole frame at the head of @w's buffer: 1 with its parts; 0: not yet; -1: malformed. */
static int frame(const struct worker *w, size_t *head, size_t *body, bool *ok)
{
	const char *nl = w->len ? memchr(w->buf, '\n', w->len) : NULL, *p;
	size_t n = 0;

	if (!nl)
		return w->len > 64 ? -1 : 0;
	/* the buffer holds no NUL: the header is parsed up to its line break, by hand */
	*ok = nl - w->buf >= 3 && !memcmp(w->buf, "ok ", 3);
	if (!*ok && (nl - w->buf < 6 || memcmp(w->buf, "error ", 6)))
		return -1;
	for (p = w->buf + (*ok ? 3 : 6); p < nl && *p >= '0' && *p <= '9' && n < SIZE_MAX / 10; p++)
		n = n * 10 + (size_t)(*p - '0');
	if (p != nl || p == w->buf + (*ok ? 3 : 6))
		return -1;
	*head = (size_t)(nl - w->buf) + 1;
	*body = n;
	return w->len - *head >= *body;
}

/* Read what worker @w has written (poll() said there is something). 0, or -1 at its end. */
static int drain(struct worker *w)
{
	ssize_t got;

	if (w->cap - w->len < 65536 && UTIL_GROW(w->buf, w->cap, w->len + 65536))
		return -1;
	do
		got = read(w->ans, w->buf + w->len, w->cap - w->len);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return -1;
	w->len += (size_t)got;
	return 0;
}

/*
 * Worker @w's frame (@head bytes of header, @body of answer): the result into its job's slot.
 * 0, or a negative errno with the failure's message (without the job's label) in @msg.
 */
static int take(struct jobs *js, struct worker *w, size_t head, size_t body, bool ok, char *msg,
		size_t msglen)
{
	const struct jobs_job *jb = &js->job[w->q[0]];
	char name[64];
	int e;

	if (ok) {
		snprintf(name, sizeof(name), "cgsim: the worker of run %zu", w->q[0] + 1);
		e = runio_read(w->buf + head, body, name, jb->sc, jb->out, msg, msglen);
	} else {
		snprintf(msg, msglen, "%.*s", (int)(body < 2000 ? body : 2000), w->buf + head);
		e = -EINVAL;
	}
	memmove(w->buf, w->buf + head + body, w->len - head - body);
	w->len -= head + body;
	memmove(w->q, w->q + 1, --w->nq * sizeof(*w->q));
	return e;
}

/* Worker @w died on its job: why, from its exit status, in @msg. */
static int died(struct worker *w, char *msg, size_t msglen)
{
	int status = 0;

	close(w->ans);
	close(w->req);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	if (WIFSIGNALED(status))
		snprintf(msg, msglen, "cgsim: the worker was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(msg, msglen, "cgsim: the worker ended (status %d) without a result",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return -ECHILD;
}

/* The end of the requests for every worker, then each one reaped. */
static void stop_all(struct worker *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i].pid)
			close(w[i].req);
	for (size_t i = 0; i < n; i++) {
		if (!w[i].pid)
			continue;
		close(w[i].ans);
		while (waitpid(w[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
		w[i].pid = 0;
	}
}

/* Wait for any busy worker's answers to be readable; its index, or -1 with errno. */
static long wait_any(struct worker *w, size_t n, struct pollfd *pfd)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (w[i].pid && w[i].nq)
			pfd[m++] = (struct pollfd){ .fd = w[i].ans, .events = POLLIN };
	while (poll(pfd, m, -1) < 0)
		if (errno != EINTR)
			return -1;
	for (size_t i = 0, k = 0; i < n; i++) {
		if (!w[i].pid || !w[i].nq)
			continue;
		if (pfd[k++].revents)
			return (long)i;
	}
	return -1;
}

/*
 * The first failure in the list's order. After one, no job is started, but those running are
 * let finish: jobs start in the list's order, so every job before the failed one has then
 * ended, and the failure reported is the one a run here, one job after another, would report,
 * whichever worker happened to end first.
 */
#define NO_FAILURE ((size_t)-1)

struct failure {
	size_t job;		/* NO_FAILURE: none yet */
	int e;
	char msg[2048];
};

/* Job @j failed with @e and @msg: kept if it is the first failure in the list's order. */
static void note_failure(struct failure *f, size_t j, int e, const char *msg)
{
	if (j >= f->job)
		return;
	f->job = j;
	f->e = e;
	snprintf(f->msg, sizeof(f->msg), "%s", msg);
}

/* The next job that is mine from @next on; js->n when there is none. */
static size_t next_mine(const struct jobs *js, size_t next)
{
	while (next < js->n && !js->job[next].mine)
		next++;
	return next;
}

/*
 * Take worker @w's answers once drain() has read (@e 0) or met its end (@e -1): every whole
 * frame in its buffer (one read can bring two), or its death, which ends every job it was
 * given. How many jobs ended.
 */
static size_t collect(struct jobs *js, struct worker *w, int e, struct failure *f)
{
	size_t head, body, ended = 0;
	char msg[2048];
	bool ok;

	if (!e)
		e = frame(w, &head, &body, &ok);
	while (e > 0) {
		size_t j = w->q[0];

		if ((e = take(js, w, head, body, ok, msg, sizeof(msg))))
			note_failure(f, j, e, msg);
		ended++;
		e = w->nq ? frame(w, &head, &body, &ok) : 0;
	}
	if (e < 0) {
		note_failure(f, w->q[0], died(w, msg, sizeof(msg)), msg);
		ended += w->nq;
		w->nq = 0;
	}
	return ended;
}

/* Hand out and collect every job; the failure, if any, in @f. */
static void dispatch(struct jobs *js, struct worker *w, size_t nw, struct pollfd *pfd,
		     struct failure *f)
{
	size_t next = next_mine(js, 0), busy = 0, done = 0, total = jobs_mine(js);
	bool tty = isatty(STDERR_FILENO);
	char msg[2048];

	for (;;) {
		size_t ended;
		long i;
		int e;

		for (size_t k = 0; k < nw && f->job == NO_FAILURE && next < js->n; k++) {
			while (w[k].pid && w[k].nq < QUEUE && f->job == NO_FAILURE && next < js->n) {
				if ((e = give(&w[k], next, msg, sizeof(msg))))
					note_failure(f, next, e, msg);
				else
					busy++;
				next = next_mine(js, next + 1);
			}
		}
		if (!busy)
			break;
		progress(tty, done, total);
		if ((i = wait_any(w, nw, pfd)) < 0) {
			snprintf(msg, sizeof(msg), "cgsim: waiting for the workers: %s",
				 strerror(errno));
			note_failure(f, 0, -ECHILD, msg);
			break;
		}
		ended = collect(js, &w[i], drain(&w[i]), f);
		busy -= ended;
		done += ended;
	}
	progress(tty, total, total);
}

static int run_workers(struct jobs *js, size_t nw, char *err, size_t errlen)
{
	struct worker *w = calloc(nw, sizeof(*w));
	struct pollfd *pfd = calloc(nw, sizeof(*pfd));
	struct failure f = { .job = NO_FAILURE };
	int e = 0;

	if (!w || !pfd) {
		free(w);
		free(pfd);
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	for (size_t k = 0; !e && k < nw; k++)
		e = spawn(js, w, k, err, errlen);
	if (!e)
		dispatch(js, w, nw, pfd, &f);
	stop_all(w, nw);
	for (size_t i = 0; i < nw; i++)
		free(w[i].buf);
	free(w);
	free(pfd);
	if (!e && f.job != NO_FAILURE) {
		fail_msg(js, f.job, f.msg, err, errlen);
		e = f.e;
	}
	return e;
}

int jobs_run(struct jobs *js, size_t workers, char *err, size_t errlen)
{
	size_t mine = jobs_mine(js);

	if (workers > mine)
		workers = mine;
	if (workers <= 1)
		return run_here(js, err, errlen);
	return run_workers(js, workers, err, errlen);
}
