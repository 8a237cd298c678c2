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
