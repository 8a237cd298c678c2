// SPDX-License-Identifier: MIT
/*
 * sim/live/live_cgs.c - a .cgs script replayed on the running kernel (cgsim cgroupfs --live,
 * docs/live.md), its answers in the format of the model's (docs/cgs-language.md).
 *
 * Paths are relative to the real root of the hierarchy, not to a scratch cgroup: the root is
 * special (mixable, exempt from the no-internal-process rule, without cgroup.type or cpu.*
 * files) and scripts test exactly that, so a scratch cgroup would change the answers. The
 * system is protected instead: the script must be one the model ran to its end; every
 * top-level name it makes, removes, writes or reads below must not exist before (so only what
 * it creates is touched, besides the root's own files); ".." is refused; a root file it writes
 * (other than the ones that move tasks) is saved first and put back after. Its processes are
 * helpers that only sleep, killed by pid at the end; its cgroups are removed deepest first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "sim/live/live_internal.h"
#include "sim/util/util.h"

#define MAX_WORDS 64

struct cgs_proc {
	char *name;
	pid_t pid;
	int to;			/* the helper's input: closed, it ends */
	int n;
	pid_t *tids;		/* NAME.1 .. NAME.n */
	bool alive;
};

struct replay {
	struct live_mount m;
	struct cgs_proc *procs;
	size_t nprocs, capprocs;
	pid_t *by_number;	/* the model's numbering: the script's n-th thread */
	size_t nnumbers, capnumbers;
	char **created;		/* cgroups made and not removed, in the order made */
	size_t ncreated, capcreated;
	char *saved_file[8], *saved_value[8];	/* root files, as they were */
	size_t nsaved;
	char *out;		/* the result lines */
	size_t outlen, outcap;
};

static int add_out(struct replay *rp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add_out(struct replay *rp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || UTIL_GROW(rp->out, rp->outcap, rp->outlen + (size_t)n + 1))
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(rp->out + rp->outlen, (size_t)n + 1, fmt, ap);
	va_end(ap);
	rp->outlen += (size_t)n;
	return 0;
}

/* Words of a line, comments dropped; returns how many (at most MAX_WORDS). */
static int split(char *line, char **w)
{
	int n = 0;

	line[strcspn(line, "#\n")] = '\0';
	for (char *s = strtok(line, " \t\r"); s && n < MAX_WORDS; s = strtok(NULL, " \t\r"))
		w[n++] = s;
	return n;
}

/* @p without "./" and repeated slashes ("" for the root), into @buf; false for "..". */
static bool norm(const char *p, char *buf, size_t len)
{
	char tmp[4096], *save = NULL;

	snprintf(tmp, sizeof(tmp), "%s", p);
	buf[0] = '\0';
	for (char *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, ".."))
			return false;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "/" : "", c);
	}
	return true;
}

/* ---- safety, before anything is run ---- */

/* Every top-level name the script touches must not exist; no "..". 0 or -EINVAL. */
static int check_names(struct replay *rp, const char *fname, const char *text, char *err,
		       size_t errlen)
{
	char *copy = strdup(text), *save = NULL, *w[MAX_WORDS], p[4096], top[5200];
	int lineno = 0, e = 0;

	if (!copy)
		return -ENOMEM;
	for (char *l = strtok_r(copy, "\n", &save); l && !e; l = strtok_r(NULL, "\n", &save)) {
		int n = split(l, w);
		bool dir;

		lineno++;
		if (n < 2 || (strcmp(w[0], "mkdir") && strcmp(w[0], "rmdir") &&
			      strcmp(w[0], "write") && strcmp(w[0], "read")))
			continue;
		if (!norm(w[1], p, sizeof(p))) {
			snprintf(err, errlen, "%s: path '%s' climbs with '..': not replayed", fname,
				 w[1]);
			e = -EINVAL;
			break;
		}
		dir = !strcmp(w[0], "mkdir") || !strcmp(w[0], "rmdir");
		if (!*p || (!dir && !strchr(p, '/')))
			continue;	/* the root itself, or one of its files */
		p[strcspn(p, "/")] = '\0';
		snprintf(top, sizeof(top), "%s/%s", rp->m.path, p);
		if (!access(top, F_OK)) {
			snprintf(err, errlen, "%s: %s exists already: not replayed (the script would "
				 "touch a cgroup it did not make)", fname, top);
			e = -EINVAL;
		}
	}
	free(copy);
	return e;
}

/* ---- processes that only sleep ---- */

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_cond = PTHREAD_COND_INITIALIZER;
static pid_t spawn_tids[LIVE_CGS_MAX_THREADS];
static int spawn_ready;

static void *sleeper(void *arg)
{
	size_t i = (size_t)(uintptr_t)arg;

	pthread_mutex_lock(&spawn_lock);
	spawn_tids[i] = (pid_t)syscall(SYS_gettid);
	spawn_ready++;
	pthread_cond_broadcast(&spawn_cond);
	pthread_mutex_unlock(&spawn_lock);
	for (;;)
		pause();
	return NULL;
}

/* In the child: @n threads (this one the first), their tids on @out_fd, then wait. */
static _Noreturn void spawn_main(int n, int out_fd, int in_fd)
{
	char line[32], c;

	spawn_tids[0] = getpid();
	spawn_ready = 1;
	for (int i = 1; i < n; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, sleeper, (void *)(uintptr_t)i))
			_exit(3);
	}
	pthread_mutex_lock(&spawn_lock);
	while (spawn_ready < n)
		pthread_cond_wait(&spawn_cond, &spawn_lock);
	pthread_mutex_unlock(&spawn_lock);
	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%d\n", (int)spawn_tids[i]);
		if (write(out_fd, line, strlen(line)) < 0)
			_exit(3);
	}
	close(out_fd);
	while (read(in_fd, &c, 1) > 0)	/* end of file: cgsim is gone */
		;
	_exit(0);
}

/* Start process @name with @n threads, its tids read back. 0 or -errno. */
static int spawn(struct replay *rp, const char *name, int n)
{
	struct cgs_proc *p;
	int in, out;
	FILE *f;

	if (UTIL_GROW(rp->procs, rp->capprocs, rp->nprocs + 1) ||
	    UTIL_GROW(rp->by_number, rp->capnumbers, rp->nnumbers + (size_t)n))
		return -ENOMEM;
	p = &rp->procs[rp->nprocs];
	*p = (struct cgs_proc){ .name = strdup(name), .to = -1, .n = n };
	p->tids = calloc((size_t)n, sizeof(*p->tids));
	if (!p->name || !p->tids) {
		free(p->name);
		free(p->tids);
		return -ENOMEM;
	}
	p->pid = live__fork_helper(&in, &out);
	if (p->pid == 0)
		spawn_main(n, out, in);
	rp->nprocs++;
	if (p->pid < 0)
		return (int)p->pid;
	p->to = out;
	p->alive = true;
	f = fdopen(in, "r");
	for (int i = 0; f && i < n; i++)
		if (fscanf(f, "%d", &p->tids[i]) != 1)
			break;
	if (f)
		fclose(f);
	else
		close(in);
	for (int i = 0; i < n; i++) {
		if (p->tids[i] <= 0)
			return -ECHILD;
		rp->by_number[rp->nnumbers++] = p->tids[i];
	}
	return 0;
}

/* ---- the operations ---- */

static int write_value(const char *path, const char *value)
{
	char buf[4200];

	snprintf(buf, sizeof(buf), "%s\n", value);	/* one write, as echo's */
	return live__write(path, buf);
}

/* A pid the kernel does not know: for "0" and numbers the script never made. */
static long unused_pid(void)
{
	char line[32], path[64];
	long n = 32767;

	if (!live__read_line("/proc/sys/kernel/pid_max", line, sizeof(line)))
		n = strtol(line, NULL, 10) - 1;
	for (snprintf(path, sizeof(path), "/proc/%ld", n); !access(path, F_OK);
	     snprintf(path, sizeof(path), "/proc/%ld", --n))
		;
	return n;
}

/* A word written to cgroup.procs, cgroup.threads or tasks, as the kernel should see it. */
static void translate(const struct replay *rp, const char *v, char *out, size_t len)
{
	char *end;
	long n;

	for (size_t i = 0; i < rp->nprocs; i++) {
		const struct cgs_proc *p = &rp->procs[i];
		size_t k = strlen(p->name);

		if (!strcmp(v, p->name)) {
			snprintf(out, len, "%d", (int)p->pid);
			return;
		}
		if (!strncmp(v, p->name, k) && v[k] == '.') {
			n = strtol(v + k + 1, &end, 10);
			if (!*end && n >= 1 && n <= p->n) {
				snprintf(out, len, "%d", (int)p->tids[n - 1]);
				return;
			}
		}
	}
	n = strtol(v, &end, 10);
	if (*v >= '0' && *v <= '9' && !*end) {
		if (n >= 1 && (size_t)n <= rp->nnumbers)
			snprintf(out, len, "%d", (int)rp->by_number[n - 1]);
		else
			snprintf(out, len, "%ld", unused_pid());
		return;
	}
	snprintf(out, len, "%s", v);
}

/* Save root file @file before the script first writes it (not those that move tasks). */
static void save_root_file(struct replay *rp, const char *file)
{
	char path[5200], value[1024] = "";

	if (strchr(file, '/') || !strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
	    !strcmp(file, "tasks") || !strcmp(file, "cgroup.kill") || rp->nsaved >= 8)
		return;
	for (size_t i = 0; i < rp->nsaved; i++)
		if (!strcmp(rp->saved_file[i], file))
			return;
	snprintf(path, sizeof(path), "%s/%s", rp->m.path, file);
	if (access(path, F_OK) || live__read_line(path, value, sizeof(value)))
		return;
	rp->saved_file[rp->nsaved] = strdup(file);
	rp->saved_value[rp->nsaved] = strdup(value);
	if (rp->saved_file[rp->nsaved] && rp->saved_value[rp->nsaved])
		rp->nsaved++;
}

/* The name of task @id among the script's ("NAME" for a process, "NAME.k" for a thread). */
static bool name_of(const struct replay *rp, long id, bool procs, char *buf, size_t len)
{
	for (size_t i = 0; i < rp->nprocs; i++)
		for (int k = 0; k < rp->procs[i].n; k++)
			if (rp->procs[i].tids[k] == id && (!procs || k == 0)) {
				if (procs)
					snprintf(buf, len, "%s", rp->procs[i].name);
				else
					snprintf(buf, len, "%s.%d", rp->procs[i].name, k + 1);
				return true;
			}
	return false;
}

/* Names sorted as the model prints them: by process name, then thread number. */
static int by_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strcspn(x, "."), ly = strcspn(y, ".");
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c || lx != ly)
		return c ? c : lx < ly ? -1 : 1;
	return atoi(x[lx] ? x + lx + 1 : "0") - atoi(y[ly] ? y + ly + 1 : "0");
}

/* A read's content, ids as the script's names (others dropped), lines joined by '|'. */
static int print_content(struct replay *rp, const char *file, char *text)
{
	bool ids = !strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
		   !strcmp(file, "tasks");
	char **names = NULL, *save = NULL;
	size_t n = 0, cap = 0;
	int e = 0;

	if (!ids) {
		size_t len = strlen(text);

		while (len && text[len - 1] == '\n')
			text[--len] = '\0';
		for (char *s = text; *s; s++)
			*s = *s == '\n' ? '|' : *s;
		return add_out(rp, "%s%s\n", *text ? " " : "", text);
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[160];

		if (!name_of(rp, strtol(l, NULL, 10), !strcmp(file, "cgroup.procs"), name,
			     sizeof(name)))
			continue;	/* the machine's other tasks */
		if (UTIL_GROW(names, cap, n + 1) || !(names[n] = strdup(name))) {
			e = -ENOMEM;
			break;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	e = e ? e : add_out(rp, "%s", n ? " " : "");
	for (size_t i = 0; i < n; i++) {
		if (!e && (!i || strcmp(names[i], names[i - 1])))
			e = add_out(rp, "%s%s", i ? "|" : "", names[i]);
		free(names[i]);
	}
	free(names);
	return e ? e : add_out(rp, "\n");
}

static int op_read(struct replay *rp, const char *p)
{
	char path[5200], *text = NULL;
	size_t len = 0;
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "%s%s%s", rp->m.path, *p ? "/" : "", p);
	f = fopen(path, "re");
	if (!f)
		return add_out(rp, " %s\n", cg_errno_name(errno));
	e = util_read_stream(f, 1 << 20, &text, &len);
	fclose(f);
	if (e) {
		free(text);
		return add_out(rp, " %s\n", cg_errno_name(-e));
	}
	e = print_content(rp, strrchr(p, '/') ? strrchr(p, '/') + 1 : p, text);
	free(text);
	return e;
}

/* After a successful cgroup.kill: wait until @dir is unpopulated, reap the dead helpers. */
static void reap_killed(struct replay *rp, const char *dir)
{
	char path[5300], line[64];

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "re");
		bool done = true;

		while (f && fgets(line, sizeof(line), f))
			if (!strcmp(line, "populated 1\n"))
				done = false;
		if (f)
			fclose(f);
		if (done)
			break;
		usleep(10000);
	}
	for (size_t i = 0; i < rp->nprocs; i++)
		if (rp->procs[i].alive && waitpid(rp->procs[i].pid, NULL, WNOHANG) > 0)
			rp->procs[i].alive = false;
}

static int op_write(struct replay *rp, const char *p, char **w, int n)
{
	char path[5200], value[4096] = "", one[64];
	const char *file = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
	bool ids = !strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
		   !strcmp(file, "tasks");
	int e;

	for (int i = 0; i < n; i++) {
		if (ids)
			translate(rp, w[i], one, sizeof(one));
		snprintf(value + strlen(value), sizeof(value) - strlen(value), "%s%s", i ? " " : "",
			 ids ? one : w[i]);
	}
	save_root_file(rp, p);
	snprintf(path, sizeof(path), "%s%s%s", rp->m.path, *p ? "/" : "", p);
	e = write_value(path, value);
	if (!e && !strcmp(file, "cgroup.kill")) {
		path[strlen(path) - strlen("/cgroup.kill")] = '\0';
		reap_killed(rp, path);
	}
	return add_out(rp, " %s\n", e ? cg_errno_name(-e) : "ok");
}

static int op_dir(struct replay *rp, const char *p, bool make)
{
	char path[5200];
	int e = 0;

	snprintf(path, sizeof(path), "%s%s%s", rp->m.path, *p ? "/" : "", p);
	if (make ? mkdir(path, 0755) : rmdir(path))
		e = errno;
	if (!e && make) {
		if (UTIL_GROW(rp->created, rp->capcreated, rp->ncreated + 1) ||
		    !(rp->created[rp->ncreated] = strdup(p)))
			return -ENOMEM;
		rp->ncreated++;
	}
	for (size_t i = 0; !e && !make && i < rp->ncreated; i++)
		if (rp->created[i] && !strcmp(rp->created[i], p)) {
			free(rp->created[i]);
			rp->created[i] = NULL;
		}
	return add_out(rp, " %s\n", e ? cg_errno_name(e) : "ok");
}

/* root-controllers: "ok" when the kernel offers exactly these (v1: binds them), else what. */
static int op_root_controllers(struct replay *rp, enum cg_semantics sem, const char *mountinfo,
			       char **w, int n)
{
	char have[512] = "", path[1200];
	bool ok = true;

	if (sem == CG_SEM_V2) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", rp->m.path);
		live__read_line(path, have, sizeof(have));
	} else {
		live__mount_options(mountinfo, rp->m.path, have, sizeof(have));
	}
	for (int i = 0; i < n; i++)
		ok = ok && live__has_word(have, w[i]);
	if (sem == CG_SEM_V2) {	/* and nothing more */
		char copy[512], *save = NULL;

		snprintf(copy, sizeof(copy), "%s", have);
		for (char *c = strtok_r(copy, " ", &save); c; c = strtok_r(NULL, " ", &save)) {
			bool listed = false;

			for (int i = 0; i < n; i++)
				listed = listed || !strcmp(w[i], c);
			ok = ok && listed;
		}
	}
	return ok ? add_out(rp, " ok\n") : add_out(rp, " MISMATCH (the kernel offers: %s)\n", have);
}

static int op_proc(struct replay *rp, char **w, int n)
{
	char path[1200], num[24];
	int threads = n > 2 ? atoi(w[2] + strlen("threads=")) : 1, e;

	if (threads < 1 || threads > LIVE_CGS_MAX_THREADS)
		return -EINVAL;	/* the model took it: the replay's own limit */
	if ((e = spawn(rp, w[1], threads)))
		return e;
	snprintf(path, sizeof(path), "%s/cgroup.procs", rp->m.path);
	snprintf(num, sizeof(num), "%d", (int)rp->procs[rp->nprocs - 1].pid);
	if ((e = write_value(path, num)))
		return e;
	return add_out(rp, " ok\n");
}

static int run_line(struct replay *rp, enum cg_semantics sem, const char *mountinfo, int lineno,
		    char **w, int n)
{
	char p[4096] = "";
	int e;

	if ((e = add_out(rp, "%d:", lineno)))
		return e;
	for (int i = 0; i < n; i++)
		if ((e = add_out(rp, " %s", w[i])))
			return e;
	if ((e = add_out(rp, " ->")))
		return e;
	if (n > 1)
		norm(w[1], p, sizeof(p));
	if (!strcmp(w[0], "root-controllers"))
		return op_root_controllers(rp, sem, mountinfo, w + 1, n - 1);
	if (!strcmp(w[0], "proc"))
		return op_proc(rp, w, n);
	if (!strcmp(w[0], "mkdir") || !strcmp(w[0], "rmdir"))
		return op_dir(rp, p, !strcmp(w[0], "mkdir"));
	if (!strcmp(w[0], "write"))
		return op_write(rp, p, w + 2, n - 2);
	return op_read(rp, p);
}

/* Kill the helpers, remove the cgroups made (deepest first), put the root files back. */
static void undo(struct replay *rp)
{
	char path[5200];

	for (size_t i = 0; i < rp->nprocs; i++) {
		struct cgs_proc *p = &rp->procs[i];

		if (p->pid > 0) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
		}
		if (p->to >= 0)
			close(p->to);
		free(p->name);
		free(p->tids);
	}
	for (size_t i = rp->ncreated; i-- > 0;) {
		int tries = 0;

		if (!rp->created[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", rp->m.path, rp->created[i]);
		while (rmdir(path) && errno == EBUSY && tries++ < 200)
			usleep(10000);
		free(rp->created[i]);
	}
	for (size_t i = 0; i < rp->nsaved; i++) {
		snprintf(path, sizeof(path), "%s/%s", rp->m.path, rp->saved_file[i]);
		live__restore_file(path, rp->saved_file[i], rp->saved_value[i]);
		free(rp->saved_file[i]);
		free(rp->saved_value[i]);
	}
	free(rp->procs);
	free(rp->by_number);
	free(rp->created);
}

int live_cgs_replay(const char *fname, const char *text, enum cg_semantics sem,
		    const char *mountinfo, char **out, char *err, size_t errlen)
{
	struct replay rp = { 0 };
	char *copy, *w[MAX_WORDS];
	int lineno = 0, e = 0;

	*out = NULL;
	if (sem == CG_SEM_RFC2017) {
		snprintf(err, errlen, "cgsim: rfc2017 was never merged: no kernel to replay it on");
		return -EINVAL;
	}
	if (geteuid() != 0) {
		snprintf(err, errlen, "cgsim: cgroupfs --live needs root");
		return -EINVAL;
	}
	if ((e = live__find_mount(mountinfo, sem == CG_SEM_V2, &rp.m, err, errlen)) ||
	    (e = check_names(&rp, fname, text, err, errlen)))
		return e == -ENOMEM ? e : -EINVAL;
	if (!(copy = strdup(text)))
		return -ENOMEM;
	/* strtok_r would merge blank lines: count them by hand to keep the line numbers */
	for (char *l = copy, *next; l && !e; l = next) {
		int n;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		n = split(l, w);
		if (n)
			e = run_line(&rp, sem, mountinfo, lineno, w, n);
	}
	free(copy);
	undo(&rp);
	if (e) {
		snprintf(err, errlen, "cgsim: replaying %s on the kernel: line %d: %s", fname,
			 lineno, strerror(-e));
		free(rp.out);
		return -EINVAL;
	}
	*out = rp.out ? rp.out : strdup("");
	return *out ? 0 : -ENOMEM;
}
