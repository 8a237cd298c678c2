/* SPDX-License-Identifier: MIT */
/*
 * cgroup/parse.c - number parsing as the kernel does it (lib/kstrtox.c), and a text buffer.
 *
 * Interface files are parsed by kstrtoull()/kstrtoll() with base 0 (cgroup_file_write), so
 * "0x10" is 16, "010" is 8, a leading '+' is accepted, one trailing newline is allowed and
 * anything else after the digits is -EINVAL; a value that does not fit is -ERANGE. Using the C
 * library's strtoull() instead would accept leading blanks and negative numbers, which the
 * kernel refuses.
 */
#include "cgroup/cg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

static int parse_ull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	bool overflow = false;
	const char *p;

	s = fixup_radix(s, &base);
	for (p = s; *p; p++) {
		unsigned int d;
		int c = tolower((unsigned char)*p);

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (p == s)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*res = v;
	return 0;
}

int cg__kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return parse_ull(s, base, res);
}

int cg__kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long t;
	int rv;

	if (s[0] == '-') {
		rv = parse_ull(s + 1, base, &t);
		if (rv < 0)
			return rv;
		if (t > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = t == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)t;
		return 0;
	}
	rv = cg__kstrtoull(s, base, &t);
	if (rv < 0)
		return rv;
	if (t > (unsigned long long)LLONG_MAX)
		return -ERANGE;
	*res = (long long)t;
	return 0;
}

/* ---- CPU lists: bitmap_parselist() of lib/bitmap-str.c, as cpulist_parse() calls it ---- */

/* The kernel's isspace() (lib/ctype.c): the C locale's six, and Latin-1 no-break space. */
static bool k_isspace(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (unsigned char)c == 0xa0;
}

static bool end_of_str(char c)
{
	return c == '\0' || c == '\n';
}

/* Separators before a region: white space and commas. */
static bool sep_char(char c)
{
	return k_isspace(c) || c == ',';
}

static bool end_of_region(char c)
{
	return sep_char(c) || end_of_str(c);
}

struct region {
	unsigned int start, end, off, group_len, nbits;
};

/*
 * bitmap_getnum(): 'N' is the last bit; else decimal digits (no sign, no prefix), none is
 * -EINVAL, a value above UINT_MAX -EOVERFLOW. Returns the rest of the string or NULL with *err.
 */
static const char *getnum(const char *s, unsigned int *num, unsigned int lastbit, int *err)
{
	unsigned long long n = 0;
	bool overflow = false;
	const char *p = s;

	if (*s == 'N') {
		*num = lastbit;
		return s + 1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (n > (~0ULL - d) / 10)
			overflow = true;
		n = n * 10 + d;
	}
	if (p == s) {
		*err = -EINVAL;
		return NULL;
	}
	if (overflow || n > UINT_MAX) {
		*err = -EOVERFLOW;
		return NULL;
	}
	*num = (unsigned int)n;
	return p;
}

/*
 * bitmap_parse_region(): "all", "A", "A-B", each optionally ":USED/GROUP". Returns where the
 * next region may start, NULL at the end of the string (*err 0) or on error (*err set).
 */
static const char *parse_region(const char *s, struct region *r, int *err)
{
	unsigned int lastbit = r->nbits - 1;

	*err = 0;
	if (!strncasecmp(s, "all", 3)) {
		r->start = 0;
		r->end = lastbit;
		s += 3;
	} else {
		s = getnum(s, &r->start, lastbit, err);
		if (!s)
			return NULL;
		if (end_of_region(*s)) {
			r->end = r->start;
			goto no_pattern;
		}
		if (*s != '-') {
			*err = -EINVAL;
			return NULL;
		}
		s = getnum(s + 1, &r->end, lastbit, err);
		if (!s)
			return NULL;
	}
	if (end_of_region(*s))
		goto no_pattern;
	if (*s != ':') {
		*err = -EINVAL;
		return NULL;
	}
	s = getnum(s + 1, &r->off, lastbit, err);
	if (!s)
		return NULL;
	if (*s != '/') {
		*err = -EINVAL;
		return NULL;
	}
	/* the kernel returns what follows the group size as is, even if it is not a separator */
	return getnum(s + 1, &r->group_len, lastbit, err);
no_pattern:
	r->off = r->end + 1;
	r->group_len = r->end + 1;
	return end_of_str(*s) ? NULL : s;
}

/* bitmap_check_region(): a malformed region is -EINVAL before a too large one is -ERANGE. */
static int check_region(const struct region *r)
{
	if (r->start > r->end || r->group_len == 0 || r->off > r->group_len)
		return -EINVAL;
	if (r->end >= r->nbits)
		return -ERANGE;
	return 0;
}

/*
 * cpulist_parse() = bitmap_parselist(buf, mask, nr_cpu_ids): regions separated by commas and
 * white space, each checked and set before the next one is read, so the leftmost bad region
 * gives the errno. A string of separators only is the empty set.
 */
int cg__cpulist_parse(const char *buf, int nbits, struct cg__cpumask *out)
{
	struct region r = { .nbits = (unsigned int)nbits };
	const char *s = buf;
	int err;

	memset(out, 0, sizeof(*out));
	while (s) {
		while (sep_char(*s))
			s++;
		if (end_of_str(*s))
			return 0;
		s = parse_region(s, &r, &err);
		if (err)
			return err;
		err = check_region(&r);
		if (err)
			return err;
		/* bitmap_set_region(): USED bits at the start of every GROUP bits */
		for (unsigned int start = r.start; start <= r.end; start += r.group_len) {
			unsigned int n = r.end - start + 1 < r.off ? r.end - start + 1 : r.off;

			for (unsigned int b = start; b < start + n; b++)
				out->w[b / 64] |= 1ULL << (b % 64);
		}
	}
	return 0;
}

/* strstrip(): remove leading and trailing white space in place. */
char *cg__strstrip(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

void cg__buf_add(struct cg__buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void cg__buf_printf(struct cg__buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		cg__buf_add(b, small, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (!big) {
			b->oom = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		cg__buf_add(b, big, (size_t)n);
		free(big);
	}
}

/* Hand the text to the caller (an empty file is "", never NULL); -ENOMEM frees it. */
int cg__buf_finish(struct cg__buf *b, char **out)
{
	if (!b->oom && !b->s)
		cg__buf_add(b, "", 0);
	if (b->oom) {
		free(b->s);
		b->s = NULL;
		return -ENOMEM;
	}
	*out = b->s;
	b->s = NULL;
	return 0;
}
