// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_values.c - the scenario loader's messages, shapes and scalar values
 * (sim/scenario/scn_internal.h): the positioned error, the checks of a node's kind and keys, and the
 * parsers of booleans, integers, times and distributions.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"
#include "sim/util/util.h"

/* Report at @n: "FILE:LINE:COL: error: ..." (or "--set K=V: error: ..." for an override). */
bool scn__bad(struct rd *r, const struct yn *n, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return false;
	r->failed = true;
	va_start(ap, fmt);
	util_verrf(r->err, r->errlen, r->file, n ? n->origin : NULL, n ? n->line : 0,
		   n ? n->col : 0, fmt, ap);
	va_end(ap);
	return false;
}

char *scn__xstrdup(struct rd *r, const struct yn *n, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		scn__bad(r, n, "out of memory");
	return d;
}

struct scn_pos scn__pos_of(const struct yn *n)
{
	return (struct scn_pos){ n ? n->line : 0, n ? n->col : 0, n ? n->origin : NULL };
}

/* Where a key's value came from: the value's own place when an override put it there. */
struct scn_pos scn__pos_kv(const struct yn *key, const struct yn *val)
{
	if (val && (val->origin || val->line != key->line))
		return scn__pos_of(val);
	return scn__pos_of(key);
}

/* ---------------- shapes ---------------- */

bool scn__want(struct rd *r, const struct yn *n, enum yn_kind k, const char *what)
{
	if (n->kind == k)
		return true;
	return scn__bad(r, n, "%s must be %s, not %s", what, yn_kind_name(k), yn_kind_name(n->kind));
}

/* Every key of @map must be in @allowed (NULL-terminated). */
bool scn__known_keys(struct rd *r, const struct yn *map, const char *const *allowed,
		     const char *what)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->str;
		bool ok = false;

		for (const char *const *a = allowed; *a; a++)
			ok |= !strcmp(k, *a);
		if (!ok) {
			char list[512] = "";
			size_t len = 0;

			for (const char *const *a = allowed; *a && len < sizeof(list) - 64; a++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							a == allowed ? "" : ", ", *a);
			return scn__bad(r, map->keys[i], "unknown key '%s' in %s (expected one "
					"of: %s)", k,
					what, list);
		}
	}
	return true;
}

bool scn__scalar(struct rd *r, const struct yn *n, const char *what)
{
	return scn__want(r, n, YN_SCALAR, what);
}

/* ---------------- scalar types ---------------- */

bool scn__parse_bool(struct rd *r, const struct yn *n, const char *what, bool *out)
{
	if (!scn__scalar(r, n, what))
		return false;
	if (n->quoted)
		return scn__bad(r, n, "%s must be an unquoted true or false, not the string \"%s\"", what,
				n->str);
	if (!n->quoted && (!strcmp(n->str, "true") || !strcmp(n->str, "yes") ||
			   !strcmp(n->str, "on"))) {
		*out = true;
		return true;
	}
	if (!n->quoted && (!strcmp(n->str, "false") || !strcmp(n->str, "no") ||
			   !strcmp(n->str, "off"))) {
		*out = false;
		return true;
	}
	return scn__bad(r, n, "%s must be true or false, not '%s'", what, n->str);
}

/*
 * Digits only, after one '-' when @sign: strtoll() and strtoull() would also take blanks, a '+'
 * and, for strtoull(), a '-' that wraps (" -5" is 2^64 - 5).
 */
static bool plain_integer(const char *s, bool sign)
{
	if (sign && *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

bool scn__parse_int(struct rd *r, const struct yn *n, const char *what, long long lo,
		    long long hi, long long *out)
{
	char *end;
	long long v;

	if (!scn__scalar(r, n, what))
		return false;
	if (n->quoted)
		return scn__bad(r, n, "%s must be an unquoted integer from %lld to %lld, not the "
				"string \"%s\"", what, lo, hi, n->str);
	errno = 0;
	v = strtoll(n->str, &end, 10);
	if (n->quoted || !plain_integer(n->str, true) || *end || errno == ERANGE)
		return scn__bad(r, n, "%s must be an integer from %lld to %lld, not '%s'", what, lo, hi,
				n->str);
	if (v < lo || v > hi)
		return scn__bad(r, n, "%s must be from %lld to %lld, not %lld", what, lo, hi, v);
	*out = v;
	return true;
}

bool scn__parse_u64(struct rd *r, const struct yn *n, const char *what, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!scn__scalar(r, n, what))
		return false;
	if (n->quoted)
		return scn__bad(r, n, "%s must be an unquoted integer, not the string \"%s\"", what,
				n->str);
	errno = 0;
	v = strtoull(n->str, &end, 10);
	if (n->quoted || !plain_integer(n->str, false) || *end || errno == ERANGE)
		return scn__bad(r, n, "%s must be an integer from 0 to 18446744073709551615, not "
				"'%s'",
				what, n->str);
	*out = v;
	return true;
}

/*
 * What strtod() read from @s to @end is a plain decimal number: it also reads hexadecimal
 * ("0x10"), "inf" and "nan", which a time or a shape must not be.
 */
static bool decimal_number(const char *s, const char *end)
{
	if (end == s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return false;
	for (; s < end; s++)
		if (!strchr("0123456789.eE+-", *s))
			return false;
	return true;
}

int scn_parse_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	char *end;
	double v;

	while (*s == ' ')
		s++;
	errno = 0;
	v = strtod(s, &end);
	if (!decimal_number(s, end) || !isfinite(v) || v < 0)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (!*end) {
		if (v != 0)
			return -EINVAL;	/* a time needs its unit (0 excepted) */
		*ns = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double x = v * units[i].mul;

			if (x >= 18446744073709551616.0)
				return -ERANGE;
			*ns = (uint64_t)llround(x);
			return 0;
		}
	}
	return -EINVAL;
}

bool scn__parse_time(struct rd *r, const struct yn *n, const char *what, uint64_t lo,
		     uint64_t hi, uint64_t *out)
{
	uint64_t v;
	int e;

	if (!scn__scalar(r, n, what))
		return false;
	e = scn_parse_time(n->str, &v);
	if (e == -EINVAL && n->str[strspn(n->str, " ")] == '-')
		e = -ERANGE;	/* a negative time: say what the range is */
	if (e == -EINVAL)
		return scn__bad(r, n, "%s must be a time with a unit (ns, us, ms or s), e.g. 10ms, "
				"not '%s'", what, n->str);
	if (e || v < lo || v > hi) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "%.9gs", (double)lo / 1e9);
		snprintf(b, sizeof(b), "%.9gs", (double)hi / 1e9);
		return scn__bad(r, n, "%s must be from %s to %s, not %s", what, a, b, n->str);
	}
	*out = v;
	return true;
}

/* One argument of a distribution: a time (durations are what every distribution draws). */
static int dist_arg(const char *s, size_t len, double *out, bool plain)
{
	char buf[64];
	uint64_t ns;
	char *end;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (plain) {	/* pareto's shape has no unit */
		const char *p = buf;
		double v;

		while (*p == ' ')
			p++;
		v = strtod(p, &end);
		if (!decimal_number(p, end) || !isfinite(v))
			return -EINVAL;
		while (*end == ' ')
			end++;
		if (*end)
			return -EINVAL;
		*out = v;
		return 0;
	}
	if (scn_parse_time(buf, &ns))
		return -EINVAL;
	*out = (double)ns;
	return 0;
}

int scn_parse_dist(const char *s, struct sim_dist *d)
{
	static const struct {
		const char *name;
		enum sim_dist_kind kind;
		int nargs;
	} kinds[] = {
		{ "fixed", SIM_DIST_FIXED, 1 },	    { "exp", SIM_DIST_EXP, 1 },
		{ "uniform", SIM_DIST_UNIFORM, 2 }, { "normal", SIM_DIST_NORMAL, 2 },
		{ "lognormal", SIM_DIST_LOGNORMAL, 2 }, { "pareto", SIM_DIST_PARETO, 2 },
	};
	const char *open = strchr(s, '(');
	uint64_t ns;

	if (!open) {
		if (scn_parse_time(s, &ns))
			return -EINVAL;
		*d = (struct sim_dist){ SIM_DIST_FIXED, (double)ns, 0 };
		return 0;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t nl = strlen(kinds[i].name);
		const char *p = open + 1, *close = strrchr(s, ')'), *comma;
		double a = 0, b = 0;

		if ((size_t)(open - s) != nl || strncmp(s, kinds[i].name, nl))
			continue;
		if (!close || close[1])
			return -EINVAL;
		comma = memchr(p, ',', (size_t)(close - p));
		if ((kinds[i].nargs == 2) != (comma != NULL))
			return -EINVAL;
		if (kinds[i].nargs == 1) {
			if (dist_arg(p, (size_t)(close - p), &a, false))
				return -EINVAL;
		} else {
			bool pareto = kinds[i].kind == SIM_DIST_PARETO;

			if (dist_arg(p, (size_t)(comma - p), &a, pareto) ||
			    dist_arg(comma + 1, (size_t)(close - comma - 1), &b, false))
				return -EINVAL;
		}
		*d = (struct sim_dist){ kinds[i].kind, a, b };
		return sim_dist_validate(d) ? -ERANGE : 0;
	}
	return -EINVAL;
}

bool scn__parse_dist(struct rd *r, const struct yn *n, const char *what, struct sim_dist *d)
{
	int e;

	if (!scn__scalar(r, n, what))
		return false;
	e = scn_parse_dist(n->str, d);
	if (e == -ERANGE)
		return scn__bad(r, n, "%s: parameters out of range in '%s' (exp and lognormal "
				"need a "
				"mean > 0, uniform a <= b, normal and lognormal a deviation >= 0, pareto "
				"a shape and a minimum > 0)", what, n->str);
	if (e)
		return scn__bad(r, n, "%s must be a time (e.g. 2ms) or a distribution: fixed(T), "
				"exp(T), "
				"uniform(T, T), normal(T, T), lognormal(T, T), pareto(SHAPE, T); not '%s'",
				what, n->str);
	return true;
}
