// SPDX-License-Identifier: MIT
/*
 * sim/run/runio_read.c - a run's result read back from its text (sim/run/runio.h), by the
 * tables of runio.c.
 *
 * The reader walks the input once, with no copy of it, and allocates nothing that the input's
 * size does not pay for: it reads files users hand it (cgsim merge).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run/runio.h"
#include "sim/run/runio_internal.h"
#include "sim/util/util.h"

/* ---------------- reading ---------------- */

struct rd {
	const char *p, *end;	/* the rest of the input */
	const char *line;	/* where the current line starts */
	size_t lineno;
	const char *name;
	char *err;
	size_t errlen;
	/* where the reader is, for messages: "thread 3 of 9, activation 2 of 5: " */
	struct {
		const char *what;
		size_t i, n;
	} at[2];
	int depth;
};

/* The reader goes into @n records, each one @what (at most two deep). */
static void push(struct rd *r, const char *what, size_t n)
{
	r->at[r->depth].what = what;
	r->at[r->depth].i = 0;
	r->at[r->depth++].n = n;
}

/* Why a token is missing. */
enum tok_end { TOK_OK, TOK_EOF, TOK_EOL, TOK_EMPTY };

static int __attribute__((format(printf, 3, 4))) fail(struct rd *r, const char *at,
							const char *fmt, ...)
{
	char msg[400], where[160] = "";
	size_t col = (size_t)(at - r->line) + 1, k = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (int d = 0; d < r->depth && k < sizeof(where); d++) {
		int w = snprintf(where + k, sizeof(where) - k, "%s%s %zu of %zu%s", d ? ", " : "",
				 r->at[d].what, r->at[d].i + 1, r->at[d].n, d + 1 == r->depth ? ": " : "");

		k += w > 0 ? (size_t)w : 0;
	}
	util_errf(r->err, r->errlen, r->name, NULL, r->lineno > INT_MAX ? INT_MAX : (int)r->lineno,
		  col > INT_MAX ? INT_MAX : (int)col, "%s%s", where, msg);
	return -EINVAL;
}

static int nomem(struct rd *r)
{
	util_errf(r->err, r->errlen, r->name, NULL, 0, 0, "out of memory");
	return -ENOMEM;
}

/* @s (@n bytes) as a message quotes it: at most 40 bytes of it, and no NUL. */
static const char *shown(const char *s, size_t n, char *buf, size_t len)
{
	size_t k = n < 40 ? n : 40;

	if (k + 4 > len)
		k = len - 4;
	for (size_t i = 0; i < k; i++)
		buf[i] = s[i] ? s[i] : '?';
	strcpy(buf + k, n > k ? "..." : "");
	return buf;
}

/* Up to the next space or line break, from @r->p: the word's length. */
static size_t word(struct rd *r)
{
	const char *s = r->p;

	while (r->p < r->end && *r->p != ' ' && *r->p != '\n')
		r->p++;
	return (size_t)(r->p - s);
}

/* The next value of the line (after one space) into @s, @n; TOK_OK or why there is none. */
static enum tok_end tok(struct rd *r, const char **s, size_t *n)
{
	if (r->p == r->end)
		return TOK_EOF;
	if (*r->p != ' ')
		return TOK_EOL;
	*s = ++r->p;
	*n = word(r);
	return *n ? TOK_OK : TOK_EMPTY;
}

/* The message for a value @what that tok() found missing (@why). */
static int tok_fail(struct rd *r, enum tok_end why, const char *what)
{
	if (why == TOK_EOF)
		return fail(r, r->p, "the input ends (truncated?): expected %s", what);
	if (why == TOK_EOL)
		return fail(r, r->p, "the line ends: expected %s", what);
	return fail(r, r->p, "expected %s, not %s", what, r->p == r->end ? "the end of the input" :
		    *r->p == ' ' ? "a second space" : "a space at the end of the line");
}

static int r_eol(struct rd *r)
{
	if (r->p == r->end)
		return fail(r, r->p, "the input ends (truncated?): expected a line break");
	if (*r->p != '\n')
		return fail(r, r->p + 1, "expected the end of the line, not more values");
	r->p++;
	r->lineno++;
	r->line = r->p;
	return 0;
}

/* The keyword that starts a line: @key, or a message saying it expected @what. */
static int r_key(struct rd *r, const char *key, const char *what)
{
	const char *s = r->p;
	size_t n = word(r);
	char buf[48];

	if (n == strlen(key) && !memcmp(s, key, n))
		return 0;
	if (s == r->end)
		return fail(r, s, "the input ends (truncated?): expected %s", what);
	if (!n)
		return fail(r, s, "expected %s, not %s", what, *s == ' ' ? "a space" : "an empty line");
	return fail(r, s, "expected %s, not '%s'", what, shown(s, n, buf, sizeof(buf)));
}

/* Decimal digits, no sign, no leading zero, at most UINT64_MAX. */
static bool parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	/* 19 digits cannot overflow; 20 must be at most UINT64_MAX's, compared as text */
	if (!n || n > 20 || (n > 1 && s[0] == '0') ||
	    (n == 20 && memcmp(s, "18446744073709551615", 20) > 0))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';

		if (d > 9)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* parse_u64()'s digits, with a '-' before a negative number (not "-0"). */
static bool parse_i64(const char *s, size_t n, int64_t *v)
{
	bool neg = n && s[0] == '-';
	uint64_t u;

	if (!parse_u64(s + neg, n - neg, &u))
		return false;
	if (neg ? !u || u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
		return false;
	*v = !neg ? (int64_t)u : u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	return true;
}

/*
 * A double as w_dbl() writes it: inf, -inf, nan, -nan, or -?0x[01](.HEX{1,13})?p[+-]DEC{1,4},
 * which strtod() reads exactly (no rounding: 53 bits at most, no underflow, no overflow).
 */
/*
 * A double as printf's %a writes it: [-]0x(0|1)[.h{1,13}]p(+|-)d{1,4}, with a value that a
 * double holds exactly (as every one %a writes does). The value is computed without strtod(),
 * a fifth of the parent's time when it reads the results of compare --jobs: the digits make an
 * integer below 2^53, which a double holds, scaled by a power of two, which is exact unless
 * it overflows or rounds, which the check below refuses.
 */
static bool parse_dbl(const char *s, size_t n, double *v)
{
	size_t i = s[0] == '-', i0, nd = 0;
	uint64_t mant;
	long exp = 0;
	bool neg;

	if (n - i == 3 && (!memcmp(s + i, "nan", 3) || !memcmp(s + i, "inf", 3))) {
		*v = copysign(s[i] == 'n' ? (double)NAN : (double)INFINITY, i ? -1.0 : 1.0);
		return true;
	}
	if (n < i + 6 || memcmp(s + i, "0x", 2) || (s[i + 2] != '0' && s[i + 2] != '1'))
		return false;
	mant = (uint64_t)(s[i + 2] - '0');
	i += 3;
	if (s[i] == '.') {
		for (i++; i < n && nd < 14 && ((s[i] >= '0' && s[i] <= '9') ||
					       (s[i] >= 'a' && s[i] <= 'f')); i++, nd++)
			mant = mant << 4 | (uint64_t)(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
		if (nd < 1 || nd > 13)
			return false;
	}
	if (i + 2 >= n || s[i] != 'p' || (s[i + 1] != '+' && s[i + 1] != '-'))
		return false;
	neg = s[i + 1] == '-';
	i0 = i += 2;
	for (; i < n && s[i] >= '0' && s[i] <= '9' && i - i0 < 4; i++)
		exp = exp * 10 + (s[i] - '0');
	if (i == i0 || i != n)
		return false;
	exp = (neg ? -exp : exp) - 4 * (long)nd;
	*v = ldexp((double)mant, (int)exp);
	/* a value a double holds exactly, as every one %a writes is: not rounded, not infinite */
	if (!isfinite(*v) || ldexp(*v, (int)-exp) != (double)mant)
		return false;
	if (s[0] == '-')
		*v = -*v;
	return true;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * A string as w_str() writes it, into *@out (malloc'ed). 0,
 * -ENOMEM, or -EINVAL with *@bad at the offending byte.
 */
static int parse_str(const char *s, size_t n, char **out, const char **bad)
{
	size_t k = 0;
	char *o;

	*bad = s;
	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return -EINVAL;
	if (!(o = malloc(n - 1)))
		return -ENOMEM;
	for (size_t i = 1; i < n - 1; i++) {
		unsigned char c = (unsigned char)s[i];
		int hi, lo;

		if (c == '%' && i + 2 < n - 1 && (hi = hex_digit(s[i + 1])) >= 0 &&
		    (lo = hex_digit(s[i + 2])) >= 0 && runio__escaped((unsigned char)(hi << 4 | lo)) &&
		    (hi | lo)) {
			o[k++] = (char)(hi << 4 | lo);
			i += 2;
		} else if (!runio__escaped(c)) {
			o[k++] = (char)c;
		} else {
			*bad = s + i;
			free(o);
			return -EINVAL;
		}
	}
	o[k] = '\0';
	*out = o;
	return 0;
}

/* What field @f holds, for a message: "cpu_ns (an unsigned integer)". */
static const char *describe(const struct runio__field *f, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[RUNIO_K_U64] = "an unsigned integer", [RUNIO_K_SIZE] = "an unsigned integer",
		[RUNIO_K_I64] = "an integer", [RUNIO_K_INT] = "an integer", [RUNIO_K_BOOL] = "0 or 1",
		[RUNIO_K_DBL] = "a hex float as printf's %a writes it, inf, -inf, nan or -nan",
		[RUNIO_K_STR] = "a string in double quotes, with %XX escapes",
	};

	if (f->kind == RUNIO_K_INT)
		snprintf(buf, len, "%s (an integer from %d to %d)", f->name, f->lo, f->hi);
	else
		snprintf(buf, len, "%s (%s)", f->name, kinds[f->kind]);
	return buf;
}

/* Value @s, @n of field @f into @p: 0, -EINVAL (not one) or -ENOMEM; *@bad where it fails. */
static int parse_field(const struct runio__field *f, const char *s, size_t n, char *p,
		       const char **bad)
{
	uint64_t u;
	int64_t i;

	*bad = s;
	switch (f->kind) {
	case RUNIO_K_U64:
		return parse_u64(s, n, (uint64_t *)(void *)p) ? 0 : -EINVAL;
	case RUNIO_K_SIZE:
		if (!parse_u64(s, n, &u) || u > SIZE_MAX)
			return -EINVAL;
		*(size_t *)(void *)p = (size_t)u;
		return 0;
	case RUNIO_K_I64:
		return parse_i64(s, n, (int64_t *)(void *)p) ? 0 : -EINVAL;
	case RUNIO_K_INT:
		if (!parse_i64(s, n, &i) || i < f->lo || i > f->hi)
			return -EINVAL;
		*(int *)(void *)p = (int)i;
		return 0;
	case RUNIO_K_BOOL:
		if (n != 1 || (s[0] != '0' && s[0] != '1'))
			return -EINVAL;
		*(bool *)(void *)p = s[0] == '1';
		return 0;
	case RUNIO_K_DBL:
		return parse_dbl(s, n, (double *)(void *)p) ? 0 : -EINVAL;
	case RUNIO_K_STR:
		return parse_str(s, n, (char **)(void *)p, bad);
	}
	return -EINVAL;
}

/* The next value of the line, for field @f of the struct at @base. */
static int r_field(struct rd *r, const struct runio__field *f, void *base)
{
	char what[160], buf[48];
	const char *s = NULL, *bad;
	size_t n = 0;
	enum tok_end t = tok(r, &s, &n);
	int e;

	if (t != TOK_OK)
		return tok_fail(r, t, describe(f, what, sizeof(what)));
	e = parse_field(f, s, n, (char *)base + f->off, &bad);
	if (e == -ENOMEM)
		return nomem(r);
	if (e && bad != s)
		return fail(r, bad, "%s: this byte is not one a string holds as it is, nor a %%XX "
			    "escape of one that needs it", describe(f, what, sizeof(what)));
	if (e)
		return fail(r, s, "expected %s, not '%s'", describe(f, what, sizeof(what)),
			    shown(s, n, buf, sizeof(buf)));
	return 0;
}

/* What a line of @l holds, for a message: "'cpu' and its 10 values (cpu_ns ...)". */
static const char *line_about(const struct runio__line *l, char *buf, size_t len)
{
	int k = snprintf(buf, len, "'%s' and its %zu value%s (", l->key, l->n, l->n == 1 ? "" : "s");

	for (size_t i = 0; i < l->n && k > 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s%s", i ? " " : "", l->f[i].name);
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ")");
	return buf;
}

/* A line of @l into the struct at @base. */
static int r_line(struct rd *r, const struct runio__line *l, void *base)
{
	const char *s = r->p;
	char about[300];
	size_t n = word(r);
	int e = 0;

	if (n != strlen(l->key) || memcmp(s, l->key, n)) {
		r->p = s;
		return r_key(r, l->key, line_about(l, about, sizeof(about)));
	}
	for (size_t i = 0; i < l->n && !e; i++)
		e = r_field(r, &l->f[i], base);
	return e ? e : r_eol(r);
}

/* The fewest bytes a line of @l takes: each value at least one byte after its space. */
static size_t line_min(const struct runio__line *l)
{
	return strlen(l->key) + 2 * l->n + 1;
}

/* The next value of the line, an unsigned integer, @what, into *@v; *@at where it is. */
static int r_u64(struct rd *r, const char *what, uint64_t *v, const char **at)
{
	size_t n = 0;
	enum tok_end t = tok(r, at, &n);
	char about[120], buf[48];

	*v = 0;		/* defined on every path: fail()'s non-zero return is not visible here */
	if (t == TOK_OK && parse_u64(*at, n, v))
		return 0;
	snprintf(about, sizeof(about), "%s (an unsigned integer)", what);
	if (t != TOK_OK)
		return tok_fail(r, t, about);
	return fail(r, *at, "expected %s, not '%s'", about, shown(*at, n, buf, sizeof(buf)));
}

/* @n unsigned values of the line into @v, each one @what. */
static int r_u64s(struct rd *r, uint64_t *v, size_t n, const char *what)
{
	const char *at;
	int e = 0;

	for (size_t i = 0; i < n && !e; i++)
		e = r_u64(r, what, &v[i], &at);
	return e;
}

/* What w_u64_deltas() wrote: the values back, by the same sums modulo 2^64. */
static int r_u64_deltas(struct rd *r, uint64_t *v, size_t n, const char *what)
{
	const char *at;
	int e = 0;

	for (size_t i = 0; i < n && !e; i++)
		if (!(e = r_u64(r, what, &v[i], &at)) && i)
			v[i] += v[i - 1];
	return e;
}

/*
 * The next value of the line, a count of @what: at most @max, and at most what the rest of the
 * input could hold at @unit bytes an element at least.
 */
static int r_count(struct rd *r, const char *what, size_t max, size_t unit, size_t *out)
{
	const char *s = NULL;
	size_t left;
	uint64_t v;
	int e = r_u64(r, what, &v, &s);

	*out = 0;
	if (e)
		return e;
	if (v > max)
		return fail(r, s, "%llu %s: at most %zu", (unsigned long long)v, what, max);
	left = (size_t)(r->end - r->p);
	if (v > left / unit)
		return fail(r, s, "%llu %s cannot be in the %zu bytes left of the input (truncated?)",
			    (unsigned long long)v, what, left);
	*out = (size_t)v;
	return 0;
}

/* A section's first line, "KEY N": @what counted (see r_count()), the line ended. */
static int r_section(struct rd *r, const char *key, const char *what, size_t max, size_t unit,
		     size_t *out)
{
	char about[120];
	int e;

	snprintf(about, sizeof(about), "'%s' and the number of %s", key, what);
	if ((e = r_key(r, key, about)) || (e = r_count(r, what, max, unit, out)))
		return e;
	return r_eol(r);
}

/*
 * A section "KEY N" and its N lines of @l (each one @what) into a new array *@arr of @size-byte
 * elements, *@count of them: NULL when empty unless @always (run_scenario() allocates some
 * arrays even when empty). Set even on an error, for run_free(): the caller stores them
 * whatever this returns.
 */
static int r_records(struct rd *r, const char *key, const char *what, size_t max,
		     const struct runio__line *l, size_t size, bool always, void **arr, size_t *count)
{
	char plural[40];
	size_t n;
	int e;

	snprintf(plural, sizeof(plural), "%ss", what);
	if ((e = r_section(r, key, plural, max, line_min(l), &n)))
		return e;
	if ((n || always) && !(*arr = calloc(n ? n : 1, size)))
		return nomem(r);
	*count = n;
	push(r, what, n);
	for (; r->at[r->depth - 1].i < n && !e; r->at[r->depth - 1].i++)
		e = r_line(r, l, (char *)*arr + r->at[r->depth - 1].i * size);
	r->depth--;
	return e;
}

static int r_thread(struct rd *r, struct run_thread *t)
{
	void *p = NULL;
	size_t n;
	int e = 0;

	for (size_t i = 0; i < runio__nthread_lines && !e; i++)
		e = r_line(r, &runio__thread_lines[i], t);
	if (e || (e = r_key(r, "lat", "'lat' and the latency samples")) ||
	    (e = r_count(r, "latency samples", SIZE_MAX, 2, &n)))
		return e;
	if (n) {
		if (!(t->lat = malloc(n * sizeof(*t->lat))))
			return nomem(r);
		t->nlat = n;
	}
	if ((e = r_u64_deltas(r, t->lat, n, "a latency sample")) || (e = r_eol(r)))
		return e;
	e = r_records(r, "acts", "activation", SIZE_MAX, &runio__act_line, sizeof(*t->acts), false, &p,
		      &t->nacts);
	t->acts = p;
	return e;
}

static int r_threads(struct rd *r, struct run_result *res)
{
	size_t n, unit = strlen("lat 0\nacts 0\n");
	int e;

	for (size_t i = 0; i < runio__nthread_lines; i++)
		unit += line_min(&runio__thread_lines[i]);
	if ((e = r_section(r, "threads", "threads", SCN_MAX_THREADS, unit, &n)))
		return e;
	/* allocated even when empty, as run_scenario() does */
	if (!(res->threads = calloc(n ? n : 1, sizeof(*res->threads))))
		return nomem(r);
	res->nthreads = n;
	push(r, "thread", n);
	for (; r->at[0].i < n && !e; r->at[0].i++)
		e = r_thread(r, &res->threads[r->at[0].i]);
	r->depth--;
	return e;
}

/* The groups, the timeline's operations and the refused steps. */
static int r_lists(struct rd *r, struct run_result *res)
{
	void *p = NULL;
	int e = r_records(r, "groups", "group", SCN_MAX_CGROUPS + 1, &runio__group_line,
			  sizeof(*res->groups), true, &p, &res->ngroups);

	res->groups = p;
	if (e)
		return e;
	p = NULL;
	e = r_records(r, "ops", "timeline operation", SCN_MAX_TIMELINE, &runio__op_line, sizeof(*res->ops),
		      false, &p, &res->nops);
	res->ops = p;
	if (e)
		return e;
	p = NULL;
	e = r_records(r, "refused", "refused step", SIZE_MAX, &runio__refused_line, sizeof(*res->refused),
		      false, &p, &res->nrefused);
	res->refused = p;
	return e;
}

/* "series INTERVAL NSAMPLES SERIES_THREADS", then the rows. */
static int r_series(struct rd *r, struct run_result *res)
{
	size_t rows, st, items, cells;
	const char *at;
	int e;

	if ((e = r_key(r, "series", "'series' and its interval, samples and threads")) ||
	    (e = r_field(r, &runio__series_line.f[0], res)))
		return e;
	at = r->p + 1;
	if ((e = r_count(r, "samples", SIZE_MAX, strlen("row\n"), &rows)) ||
	    (e = r_count(r, "series threads", res->nthreads, 1, &st)))
		return e;
	/* each value takes two bytes at least: its space and a digit */
	items = res->ngroups + st;
	if (items && rows > (size_t)(r->end - r->p) / 2 / items)
		return fail(r, at, "%zu samples of %zu values cannot be in the %zu bytes left of "
			    "the input (truncated?)", rows, items, (size_t)(r->end - r->p));
	if ((e = r_eol(r)))
		return e;
	cells = rows * items;
	/* allocated even when empty, as run_scenario() does */
	if (!(res->series = calloc(cells ? cells : 1, sizeof(*res->series))))
		return nomem(r);
	res->nsamples = rows;
	res->series_threads = st;
	push(r, "sample", rows);
	for (; r->at[0].i < rows && !e; r->at[0].i++) {
		if (!(e = r_key(r, "row", "'row' and its values (groups, then threads)")) &&
		    !(e = r_u64s(r, &res->series[r->at[0].i * items], items, "a value of the row")))
			e = r_eol(r);
	}
	r->depth--;
	return e;
}

static int r_cdf(struct rd *r, struct run_result *res)
{
	void *v = NULL;
	size_t n = 0;
	int e = r_records(r, "cdf", "point", RUNIO_MAX_CDF, &runio__point_line,
			  sizeof(struct runio__cdf_point), false, &v, &n);
	const struct runio__cdf_point *p = v;

	if (!e && n) {
		res->cdf_ms = malloc(n * sizeof(*res->cdf_ms));
		res->cdf_frac = malloc(n * sizeof(*res->cdf_frac));
		if (!res->cdf_ms || !res->cdf_frac)
			e = nomem(r);
		for (size_t i = 0; i < n && !e; i++) {
			res->cdf_ms[i] = p[i].ms;
			res->cdf_frac[i] = p[i].frac;
		}
		res->ncdf = e ? 0 : n;
	}
	free(v);
	return e;
}

/* "cgsim-run 2" */
static int r_magic(struct rd *r)
{
	const char *at = r->p;
	uint64_t v;
	int e;

	if (r->p == r->end)
		return fail(r, r->p, "the input is empty: expected '%s %d'", RUNIO_MAGIC, RUNIO_VERSION);
	if ((e = r_key(r, RUNIO_MAGIC, "'" RUNIO_MAGIC "' and the format's version (not a run "
		       "file written by cgsim?)")) || (e = r_u64(r, "the format's version", &v, &at)))
		return e;
	if (v != RUNIO_VERSION)
		return fail(r, at, "version %llu of the run format: this cgsim reads version %d",
			    (unsigned long long)v, RUNIO_VERSION);
	return r_eol(r);
}

static int r_end(struct rd *r)
{
	int e = r_key(r, "end", "'end'");

	if (e || (e = r_eol(r)))
		return e;
	if (r->p != r->end)
		return fail(r, r->p, "expected nothing after 'end' (%zu more byte%s)",
			    (size_t)(r->end - r->p), r->end - r->p == 1 ? "" : "s");
	return 0;
}

int runio_read(const char *text, size_t len, const char *name, const struct scenario *sc,
	       struct run_result **out, char *err, size_t errlen)
{
	struct rd r = { .p = text ? text : "", .lineno = 1, .name = name, .err = err,
			.errlen = errlen };
	struct run_result *res;
	int e;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	r.end = r.p + (text ? len : 0);
	r.line = r.p;
	if (!(res = calloc(1, sizeof(*res))))
		return nomem(&r);
	res->sc = sc;
	if ((e = r_magic(&r)) || (e = r_line(&r, &runio__run_line, res)) ||
	    (e = r_line(&r, &runio__fairness_line, res)) || (e = r_line(&r, &runio__machine_line, res)) ||
	    (e = r_threads(&r, res)) || (e = r_lists(&r, res)) || (e = r_series(&r, res)) ||
	    (e = r_cdf(&r, res)) || (e = r_end(&r))) {
		run_free(res);
		return e;
	}
	*out = res;
	return 0;
}
