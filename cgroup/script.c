/* SPDX-License-Identifier: MIT */
/*
 * cgroup/script.c - the .cgs interpreter (docs/cgs-language.md).
 *
 * One operation per line; '#' starts a comment; words are separated by runs of blanks. Each
 * operation prints "LINENO: OP ARGS -> RESULT". A malformed line (unknown operation, missing or
 * extra argument, a process name never created) stops the script with "FILE:LINE:COL: error:
 * ..." and no output at all, so that a caller never sees half a transcript.
 */
#include "cgroup/cg_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64
#define MAX_PROC_THREADS 100000	/* threads=N of one process */

struct word {
	const char *s;
	size_t len;
	int col;	/* 1-based */
};

struct script {
	const char *fname;
	int line;
	char *err;
	size_t errlen;
	struct cg__buf out;
	struct cg_hier *h;
	bool ran_op;	/* an operation was run: root-controllers may no longer come */
};

static int syntax(struct script *sc, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int syntax(struct script *sc, int col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(sc->err, sc->errlen, "%s:%d:%d: error: ", sc->fname, sc->line, col);

	if (n >= 0 && (size_t)n < sc->errlen) {
		va_start(ap, fmt);
		vsnprintf(sc->err + n, sc->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

const char *cg_errno_name(int err)
{
	static const struct {
		int e;
		const char *name;
	} tab[] = {
		{ EPERM, "EPERM" },	  { ENOENT, "ENOENT" },	      { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" },	  { EIO, "EIO" },	      { E2BIG, "E2BIG" },
		{ EBADF, "EBADF" },	  { EAGAIN, "EAGAIN" },	      { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" },	  { EFAULT, "EFAULT" },	      { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" },	  { EXDEV, "EXDEV" },	      { ENODEV, "ENODEV" },
		{ ENOTDIR, "ENOTDIR" },	  { EISDIR, "EISDIR" },	      { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" },	  { EROFS, "EROFS" },	      { ERANGE, "ERANGE" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENOTEMPTY, "ENOTEMPTY" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EUCLEAN, "EUCLEAN" }, { EOVERFLOW, "EOVERFLOW" },
		{ ENOSYS, "ENOSYS" },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (tab[i].e == err)
			return tab[i].name;
	return "E?";
}

static bool word_is(const struct word *w, const char *s)
{
	return strlen(s) == w->len && !memcmp(w->s, s, w->len);
}

static char *word_dup(const struct word *w)
{
	char *s = malloc(w->len + 1);

	if (s) {
		memcpy(s, w->s, w->len);
		s[w->len] = '\0';
	}
	return s;
}

/* "LINENO: OP ARGS -> " */
static void echo_op(struct script *sc, const struct word *w, int n)
{
	cg__buf_printf(&sc->out, "%d:", sc->line);
	for (int i = 0; i < n; i++)
		cg__buf_printf(&sc->out, " %.*s", (int)w[i].len, w[i].s);
	cg__buf_add(&sc->out, " ->", 3);
}

static void result(struct script *sc, int r)
{
	if (r == 0)
		cg__buf_printf(&sc->out, " ok\n");
	else
		cg__buf_printf(&sc->out, " %s\n", cg_errno_name(-r));
}

/* Lines of a file, joined by '|', without the final newline. */
static void print_content(struct script *sc, const char *text)
{
	size_t n = strlen(text);

	while (n && text[n - 1] == '\n')
		n--;
	if (!n) {
		cg__buf_add(&sc->out, "\n", 1);
		return;
	}
	cg__buf_add(&sc->out, " ", 1);
	for (size_t i = 0; i < n; i++)
		cg__buf_add(&sc->out, text[i] == '\n' ? "|" : &text[i], 1);
	cg__buf_add(&sc->out, "\n", 1);
}

static int need_args(struct script *sc, const struct word *w, int n, int min, int max,
		     const char *usage)
{
	if (n - 1 < min)
		return syntax(sc, w[n - 1].col + (int)w[n - 1].len, "'%.*s' needs %s",
			      (int)w[0].len, w[0].s, usage);
	if (max >= 0 && n - 1 > max)
		return syntax(sc, w[max + 1].col, "unexpected '%.*s': '%.*s' takes %s",
			      (int)w[max + 1].len, w[max + 1].s, (int)w[0].len, w[0].s, usage);
	return 0;
}

static int op_root_controllers(struct script *sc, struct word *w, int n)
{
	cg_mask m = 0;

	if (sc->ran_op)
		return syntax(sc, w[0].col,
			      "'root-controllers' may only be the first operation of a script");
	for (int i = 1; i < n; i++) {
		char name[32];
		enum cg_ctrl c;

		snprintf(name, sizeof(name), "%.*s", (int)w[i].len, w[i].s);
		if (w[i].len >= sizeof(name) || cg_ctrl_parse(name, &c))
			return syntax(sc, w[i].col,
				      "unknown controller '%.*s' (expected cpuset, cpu, io, memory, "
				      "hugetlb, pids, rdma or misc)",
				      (int)w[i].len, w[i].s);
		if (c == CG_CTRL_PERF_EVENT)
			return syntax(sc, w[i].col,
				      "perf_event is implicit on cgroup v2: it is never listed in "
				      "cgroup.controllers");
		m |= CG_MASK(c);
	}
	if (cg_set_root_controllers(sc->h, m))
		return syntax(sc, w[1].col,
			      "the v1 cpu hierarchy carries exactly one controller: cpu");
	echo_op(sc, w, n);
	result(sc, 0);
	return 0;
}

static int op_proc(struct script *sc, struct word *w, int n)
{
	long long nthreads = 1;
	char *name;
	int r = need_args(sc, w, n, 1, 2, "a process NAME and optionally threads=N");

	if (r)
		return r;
	if (n == 3) {
		char num[24];

		if (w[2].len < 9 || memcmp(w[2].s, "threads=", 8) || w[2].len - 8 >= sizeof(num))
			return syntax(sc, w[2].col, "expected threads=N, got '%.*s'", (int)w[2].len,
				      w[2].s);
		memcpy(num, w[2].s + 8, w[2].len - 8);
		num[w[2].len - 8] = '\0';
		r = num[0] < '0' || num[0] > '9' ? -EINVAL : cg__kstrtoll(num, 10, &nthreads);
		if (r == -EINVAL)
			return syntax(sc, w[2].col + 8,
				      "thread count must be an integer from 1 to %d, got '%s'",
				      MAX_PROC_THREADS, num);
		if (r || nthreads > MAX_PROC_THREADS)
			return syntax(sc, w[2].col + 8, "%s threads: at most %d per process", num,
				      MAX_PROC_THREADS);
		if (nthreads < 1)
			return syntax(sc, w[2].col + 8, "%s threads: a process has at least 1",
				      num);
	}
	name = word_dup(&w[1]);
	if (!name)
		return -ENOMEM;
	r = cg_proc_new(sc->h, name, (int)nthreads);
	free(name);
	if (r == -EEXIST)
		return syntax(sc, w[1].col, "process '%.*s' already exists", (int)w[1].len, w[1].s);
	if (r == -EAGAIN)
		return syntax(sc, n == 3 ? w[2].col + 8 : w[1].col,
			      "%lld thread%s: the model holds at most %d threads in all, and %d more "
			      "fit", nthreads, nthreads == 1 ? "" : "s", sc->h->max_threads,
			      cg_threads_left(sc->h));
	if (r == -EINVAL)
		return syntax(sc, w[1].col,
			      "bad process name '%.*s' (letters, digits, '_' and '-', not starting "
			      "with a digit or '-', at most 63 characters)",
			      (int)w[1].len, w[1].s);
	if (r < 0)
		return r;
	echo_op(sc, w, n);
	result(sc, 0);
	return 0;
}

static int op_dir(struct script *sc, struct word *w, int n, bool make)
{
	char *path;
	int r = need_args(sc, w, n, 1, 1, "one PATH");

	if (r)
		return r;
	path = word_dup(&w[1]);
	if (!path)
		return -ENOMEM;
	r = make ? cg_mkdir(sc->h, path) : cg_rmdir(sc->h, path);
	free(path);
	if (r == -ENOMEM)
		return r;
	echo_op(sc, w, n);
	result(sc, r);
	return 0;
}

static int op_write(struct script *sc, struct word *w, int n)
{
	char *path, *value;
	size_t len = 0, pos = 0;
	int r = need_args(sc, w, n, 2, -1, "PATH/FILE and a VALUE");

	if (r)
		return r;
	for (int i = 2; i < n; i++)
		len += w[i].len + 1;
	path = word_dup(&w[1]);
	value = malloc(len);
	if (!path || !value) {
		free(path);
		free(value);
		return -ENOMEM;
	}
	for (int i = 2; i < n; i++) {
		memcpy(value + pos, w[i].s, w[i].len);
		pos += w[i].len;
		value[pos++] = i + 1 < n ? ' ' : '\0';
	}
	r = cg_write(sc->h, path, value);
	free(path);
	free(value);
	if (r == -CG_ENONAME)
		return syntax(sc, w[2].col,
			      "no process or thread named '%.*s' (create it first with 'proc')",
			      (int)w[2].len, w[2].s);
	if (r == -ENOMEM)
		return r;
	echo_op(sc, w, n);
	result(sc, r);
	return 0;
}

static int op_read(struct script *sc, struct word *w, int n)
{
	char *path, *text = NULL;
	int r = need_args(sc, w, n, 1, 1, "one PATH/FILE");

	if (r)
		return r;
	path = word_dup(&w[1]);
	if (!path)
		return -ENOMEM;
	r = cg_read(sc->h, path, &text);
	free(path);
	if (r == -ENOMEM)
		return r;
	echo_op(sc, w, n);
	if (r)
		result(sc, r);
	else
		print_content(sc, text);
	free(text);
	return 0;
}

static int run_line(struct script *sc, char *line)
{
	struct word w[MAX_WORDS];
	int n = 0;
	char *hash = strchr(line, '#');
	const char *p = line;
	int r;

	if (hash)
		*hash = '\0';
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (n == MAX_WORDS)
			return syntax(sc, (int)(p - line) + 1, "more than %d words on a line",
				      MAX_WORDS);
		w[n].s = p;
		w[n].col = (int)(p - line) + 1;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		w[n].len = (size_t)(p - w[n].s);
		n++;
	}
	if (!n)
		return 0;
	if (word_is(&w[0], "root-controllers"))
		r = op_root_controllers(sc, w, n);
	else if (word_is(&w[0], "proc"))
		r = op_proc(sc, w, n);
	else if (word_is(&w[0], "mkdir"))
		r = op_dir(sc, w, n, true);
	else if (word_is(&w[0], "rmdir"))
		r = op_dir(sc, w, n, false);
	else if (word_is(&w[0], "write"))
		r = op_write(sc, w, n);
	else if (word_is(&w[0], "read"))
		r = op_read(sc, w, n);
	else
		return syntax(sc, w[0].col,
			      "unknown operation '%.*s' (expected root-controllers, proc, mkdir, "
			      "rmdir, write or read)",
			      (int)w[0].len, w[0].s);
	sc->ran_op = true;
	return r;
}

int cg_script_run(enum cg_semantics sem, const char *fname, const char *text, char **out,
		  char *err, size_t errlen)
{
	struct script sc = { .fname = fname, .err = err, .errlen = errlen };
	const char *p = text;
	int r = 0;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	sc.h = cg_hier_new(sem);
	if (!sc.h)
		return -ENOMEM;
	while (*p && !r) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = malloc(len + 1);

		if (!line) {
			r = -ENOMEM;
			break;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		sc.line++;
		r = run_line(&sc, line);
		free(line);
		p = e ? e + 1 : p + len;
		if (!r && sc.out.oom)
			r = -ENOMEM;
	}
	cg_hier_free(sc.h);
	if (r) {
		free(sc.out.s);
		if (r == -ENOMEM && errlen)
			snprintf(err, errlen, "%s: out of memory", fname);
		return r;
	}
	return cg__buf_finish(&sc.out, out);
}

int cg_script_line(struct cg_hier *h, const char *fname, int lineno, const char *line, char **out,
		   char *err, size_t errlen)
{
	/* root-controllers only opens a script: in a running hierarchy it is too late */
	struct script sc = { .fname = fname, .line = lineno, .err = err, .errlen = errlen, .h = h,
			     .ran_op = true };
	char *copy = strdup(line);
	int r;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!copy)
		return -ENOMEM;
	r = run_line(&sc, copy);
	free(copy);
	if (!r && sc.out.oom)
		r = -ENOMEM;
	if (r) {
		free(sc.out.s);
		if (r == -ENOMEM && errlen)
			snprintf(err, errlen, "%s: out of memory", fname);
		return r;
	}
	return cg__buf_finish(&sc.out, out);
}
