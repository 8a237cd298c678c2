/* SPDX-License-Identifier: MIT */
/*
 * sim/util/util.h - the small toolbox every part of sim/ uses, so that each job is done one way:
 * growing an array, sorting samples, formatting a positioned error, reading a whole file,
 * writing a file atomically.
 */
#ifndef CGSIM_SIM_UTIL_H
#define CGSIM_SIM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * util_grow() - make the array *@arr of @size-byte elements, *@cap of them allocated, hold at
 * least @need. The capacity at least doubles each time, so that n appends cost O(n) copies in
 * all (an array grown by one element a time costs O(n^2)). 0, or -ENOMEM with the array as it
 * was. Use through UTIL_GROW(), which takes the element size from the array's type.
 */
int util_grow(void **arr, size_t *cap, size_t need, size_t size);
#define UTIL_GROW(arr, cap, need) util_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))
/*
 * util_grow_zero() - util_grow() for tables indexed by id: the elements it adds (from the old
 * capacity to the new) are zero bytes. Use through UTIL_GROW_ZERO().
 */
int util_grow_zero(void **arr, size_t *cap, size_t need, size_t size);
#define UTIL_GROW_ZERO(arr, cap, need) \
	util_grow_zero((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/*
 * util_sort_u64() - sort @n values ascending, as qsort() with a three-way comparison does, in
 * O(n) for large arrays (latency samples: a run sorts every thread's, and all of them at once).
 */
void util_sort_u64(uint64_t *v, size_t n);

/*
 * struct util_imap - a hash map from int keys to int values (open addressing, at most half
 * full), for look-ups that a linear search would make quadratic: sessions by their number,
 * say, among 100,000 processes. Zero-initialised it is empty; util_imap_free() frees it.
 */
struct util_imap {
	int *keys, *vals;
	unsigned char *used;
	size_t cap, n;
};

/* util_imap_get() - true with *@val set when @key is in @m. */
bool util_imap_get(const struct util_imap *m, int key, int *val);
/* util_imap_put() - set @key to @val (added or replaced). 0 or -ENOMEM. */
int util_imap_put(struct util_imap *m, int key, int val);
void util_imap_free(struct util_imap *m);

/* util_asprintf() - a malloc'ed string printed by @fmt; NULL when out of memory. */
char *util_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * util_errf() - the one form of a message about an input: "FILE:LINE:COL: error: TEXT" at a
 * place, "FILE: error: TEXT" for the whole file (@line 0), "ORIGIN: error: TEXT" for
 * something a command-line option said (@origin non-NULL, e.g. "--set machine.cpus=0"). Line
 * breaks and control characters in the result are escaped, so that it stays one line.
 */
void util_errf(char *err, size_t errlen, const char *file, const char *origin, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void util_verrf(char *err, size_t errlen, const char *file, const char *origin, int line, int col,
		const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));

/* util_one_line() - escape line breaks and control characters in @msg (size @len) in place. */
void util_one_line(char *msg, size_t len);

/*
 * util_read_stream() - all of @f into a NUL-terminated buffer *@out of *@len bytes. 0;
 * -EFBIG when longer than @max bytes; the read error's -errno; -ENOMEM. The caller opens the
 * file and words the messages (its input's limits differ).
 */
int util_read_stream(FILE *f, size_t max, char **out, size_t *len);

/*
 * util_write_file() - write DIR/NAME with @fn(f, @ctx) through DIR/.NAME.tmp (util_tmp_path()),
 * renamed into place only when complete: a failure, or a kill, never leaves a partial NAME.
 * 0, or a negative errno with "cgsim: cannot write ..." in @err.
 */
typedef int util_writer_fn(FILE *f, const void *ctx);
int util_write_file(const char *dir, const char *name, util_writer_fn *fn, const void *ctx,
		    char *err, size_t errlen);

/*
 * util_tmp_path() - where DIR/NAME is written before it is renamed into place:
 * DIR/.NAME.tmp. The name is the same on every run (no pid in it), so a run killed while
 * writing leaves at most one hidden file per output, which the next run into DIR overwrites
 * and renames away.
 */
void util_tmp_path(char *buf, size_t len, const char *dir, const char *name);

/*
 * struct util_out - a file written like util_write_file()'s, by a writer that needs the FILE
 * for longer than one call: util_out_open() creates PATH's temporary name (DIR/.NAME.tmp),
 * util_out_commit() closes it and renames it into place, util_out_abort() removes it. A PATH
 * of "-" is stdout, written directly (commit flushes it).
 */
struct util_out {
	char path[4200], tmp[8400];
	FILE *f;
};
int util_out_open(struct util_out *o, const char *path, char *err, size_t errlen);
int util_out_commit(struct util_out *o, char *err, size_t errlen);
void util_out_abort(struct util_out *o);

/* SHA-256 (FIPS 180-4), incremental: util_sha256_init(), _update() any number of times, _final(). */
struct util_sha256 { uint32_t h[8]; uint64_t bytes; unsigned char buf[64]; size_t nbuf; };
void util_sha256_init(struct util_sha256 *s);
void util_sha256_update(struct util_sha256 *s, const void *data, size_t len);
/* util_sha256_final() - the digest as 64 lowercase hex digits and a NUL in @hex. */
void util_sha256_final(struct util_sha256 *s, char hex[65]);

#endif /* CGSIM_SIM_UTIL_H */
