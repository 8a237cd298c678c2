// SPDX-License-Identifier: MIT
/*
 * sim/util/util.c - the toolbox of sim/ (sim/util/util.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/util/util.h"

int util_grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 4;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return -ENOMEM;
		n *= 2;
	}
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

int util_grow_zero(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t old = *cap;
	int e = util_grow(arr, cap, need, size);

	if (!e && *cap > old)
		memset((char *)*arr + old * size, 0, (*cap - old) * size);
	return e;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Below a few dozen values an insertion sort; above, a least-significant-digit radix sort by
 * bytes: one pass counts all eight bytes' values, then each byte that does not hold the same
 * value in every key moves the keys, stably, between @v and a buffer. Latencies in ns leave
 * their top three or four bytes zero, so a sort takes four or five passes over the keys instead
 * of qsort's log2 n rounds of calls to a comparison. Equal keys being indistinguishable, the
 * result is the one array qsort() would give.
 */
void util_sort_u64(uint64_t *v, size_t n)
{
	size_t (*count)[256];
	uint64_t *tmp, *from = v, *to;

	if (n < 48) {
		for (size_t i = 1; i < n; i++) {
			uint64_t x = v[i];
			size_t j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	count = calloc(8, sizeof(*count));
	tmp = malloc(n * sizeof(*tmp));
	if (!count || !tmp) {
		free(count);
		free(tmp);
		qsort(v, n, sizeof(*v), u64_cmp);
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			count[b][(v[i] >> (8 * b)) & 0xff]++;
	to = tmp;
	for (int b = 0; b < 8; b++) {
		size_t pos = 0;
		uint64_t *swap;

		if (count[b][(from[0] >> (8 * b)) & 0xff] == n)
			continue;	/* every key has the same byte here: order unchanged */
		for (int d = 0; d < 256; d++) {	/* counts become each digit's first position */
			size_t c = count[b][d];

			count[b][d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[b][(from[i] >> (8 * b)) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(tmp);
	free(count);
}

static size_t imap_slot(const struct util_imap *m, int key)
{
	/* Fibonacci hashing of the key's bits: consecutive keys (pids) spread over the table */
	size_t i = (size_t)(((uint64_t)(unsigned)key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);

	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool util_imap_get(const struct util_imap *m, int key, int *val)
{
	size_t i;

	if (!m->cap)
		return false;
	i = imap_slot(m, key);
	if (!m->used[i])
		return false;
	*val = m->vals[i];
	return true;
}

int util_imap_put(struct util_imap *m, int key, int val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct util_imap g = { .cap = m->cap ? 2 * m->cap : 64 };

		g.keys = malloc(g.cap * sizeof(*g.keys));
		g.vals = malloc(g.cap * sizeof(*g.vals));
		g.used = calloc(g.cap, 1);
		if (!g.keys || !g.vals || !g.used) {
			util_imap_free(&g);
			return -ENOMEM;
		}
		for (size_t k = 0; k < m->cap; k++)
			if (m->used[k]) {
				i = imap_slot(&g, m->keys[k]);
				g.used[i] = 1;
				g.keys[i] = m->keys[k];
				g.vals[i] = m->vals[k];
			}
		g.n = m->n;
		util_imap_free(m);
		*m = g;
	}
	i = imap_slot(m, key);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = val;
	return 0;
}

void util_imap_free(struct util_imap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	*m = (struct util_imap){ 0 };
}

void util_one_line(char *msg, size_t len)
{
	/* a value quoted in a message may hold line breaks: write them as \n so that the message
	 * stays one line */
	size_t n = strlen(msg);

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c >= 0x20 && c != 0x7f)
			continue;
		if (n + 2 > len) {
			msg[i] = '?';
			continue;
		}
		memmove(msg + i + 2, msg + i + 1, n - i);
		msg[i] = '\\';
		msg[i + 1] = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '?';
		n++;
		i++;
	}
}

void util_verrf(char *err, size_t errlen, const char *file, const char *origin, int line, int col,
		const char *fmt, va_list ap)
{
	int k;

	if (!errlen)
		return;
	if (origin)
		k = snprintf(err, errlen, "%s: error: ", origin);
	else if (line)
		k = snprintf(err, errlen, "%s:%d:%d: error: ", file, line, col);
	else
		k = snprintf(err, errlen, "%s: error: ", file);
	if (k >= 0 && (size_t)k < errlen)
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	util_one_line(err, errlen);
}

void util_errf(char *err, size_t errlen, const char *file, const char *origin, int line, int col,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	util_verrf(err, errlen, file, origin, line, col, fmt, ap);
	va_end(ap);
}

int util_read_stream(FILE *f, size_t max, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int e = 0;

	errno = 0;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			if (n > max) {
				e = -EFBIG;
				break;
			}
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap + 1);	/* + 1: the NUL */
			if (!nb) {
				e = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				e = errno ? -errno : -EIO;
			break;
		}
	}
	if (!e && n > max)
		e = -EFBIG;
	if (e) {
		free(buf);
		return e;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

char *util_asprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void util_tmp_path(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/.%s.tmp", dir, name);
}

int util_out_open(struct util_out *o, const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (strlen(path) >= sizeof(dir)) {
		snprintf(err, errlen, "cgsim: %.100s...: path too long", path);
		return -ENAMETOOLONG;
	}
	if (slash && !slash[1]) {
		snprintf(err, errlen, "cgsim: %.1000s names a directory, not a file", path);
		return -EISDIR;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	util_tmp_path(o->tmp, sizeof(o->tmp), dir, slash ? slash + 1 : path);
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		int e = -errno;

		snprintf(err, errlen, "cgsim: cannot write %.1000s: %s", path, strerror(errno));
		return e;
	}
	return 0;
}

int util_out_commit(struct util_out *o, char *err, size_t errlen)
{
	if (o->f == stdout) {
		o->f = NULL;
		if (fflush(stdout) || ferror(stdout)) {
			snprintf(err, errlen, "cgsim: writing the output: %s", strerror(errno));
			return -EIO;
		}
		return 0;
	}
	if (ferror(o->f) | fclose(o->f) || rename(o->tmp, o->path)) {
		o->f = NULL;
		unlink(o->tmp);
		snprintf(err, errlen, "cgsim: cannot write %.1000s", o->path);
		return -EIO;
	}
	o->f = NULL;
	return 0;
}

void util_out_abort(struct util_out *o)
{
	if (!o->f || o->f == stdout) {
		o->f = NULL;
		return;
	}
	fclose(o->f);
	unlink(o->tmp);
	o->f = NULL;
}

int util_write_file(const char *dir, const char *name, util_writer_fn *fn, const void *ctx,
		    char *err, size_t errlen)
{
	struct util_out o;
	char path[4200];
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((e = util_out_open(&o, path, err, errlen)))
		return e;
	e = fn(o.f, ctx);
	if (e) {
		util_out_abort(&o);
		snprintf(err, errlen, "cgsim: cannot write %.1000s", path);
		return e;
	}
	return util_out_commit(&o, err, errlen);
}
