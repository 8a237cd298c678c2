// SPDX-License-Identifier: MIT
/*
 * sim/scenario.c - the scenario format (docs/scenario-format.md): a YAML tree (sim/yaml.h),
 * overrides applied to it by dotted path, then read key by key into struct scenario with a
 * positioned message for anything not accepted.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "sim/util.h"
#include "sim/transform.h"
#include "sim/yaml.h"

struct rd {
	const char *file;
	char *err;
	size_t errlen;
	bool failed;
	struct scenario *sc;
};

static bool bad(struct rd *r, const struct yn *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Report at @n: "FILE:LINE:COL: error: ..." (or "--set K=V: error: ..." for an override). */
static bool bad(struct rd *r, const struct yn *n, const char *fmt, ...)
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

static char *xstrdup(struct rd *r, const struct yn *n, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		bad(r, n, "out of memory");
	return d;
}

static struct scn_pos pos_of(const struct yn *n)
{
	return (struct scn_pos){ n ? n->line : 0, n ? n->col : 0, n ? n->origin : NULL };
}

/* Where a key's value came from: the value's own place when an override put it there. */
static struct scn_pos pos_kv(const struct yn *key, const struct yn *val)
{
	if (val && (val->origin || val->line != key->line))
		return pos_of(val);
	return pos_of(key);
}

/* ---------------- shapes ---------------- */

static bool want(struct rd *r, const struct yn *n, enum yn_kind k, const char *what)
{
	if (n->kind == k)
		return true;
	return bad(r, n, "%s must be %s, not %s", what, yn_kind_name(k), yn_kind_name(n->kind));
}

/* Every key of @map must be in @allowed (NULL-terminated). */
static bool known_keys(struct rd *r, const struct yn *map, const char *const *allowed,
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
			return bad(r, map->keys[i], "unknown key '%s' in %s (expected one of: %s)", k,
				   what, list);
		}
	}
	return true;
}

static bool scalar(struct rd *r, const struct yn *n, const char *what)
{
	return want(r, n, YN_SCALAR, what);
}

/* ---------------- scalar types ---------------- */

static bool parse_bool(struct rd *r, const struct yn *n, const char *what, bool *out)
{
	if (!scalar(r, n, what))
		return false;
	if (n->quoted)
		return bad(r, n, "%s must be an unquoted true or false, not the string \"%s\"", what,
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
	return bad(r, n, "%s must be true or false, not '%s'", what, n->str);
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

static bool parse_int(struct rd *r, const struct yn *n, const char *what, long long lo,
		      long long hi, long long *out)
{
	char *end;
	long long v;

	if (!scalar(r, n, what))
		return false;
	if (n->quoted)
		return bad(r, n, "%s must be an unquoted integer from %lld to %lld, not the string "
			   "\"%s\"", what, lo, hi, n->str);
	errno = 0;
	v = strtoll(n->str, &end, 10);
	if (n->quoted || !plain_integer(n->str, true) || *end || errno == ERANGE)
		return bad(r, n, "%s must be an integer from %lld to %lld, not '%s'", what, lo, hi,
			   n->str);
	if (v < lo || v > hi)
		return bad(r, n, "%s must be from %lld to %lld, not %lld", what, lo, hi, v);
	*out = v;
	return true;
}

static bool parse_u64(struct rd *r, const struct yn *n, const char *what, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!scalar(r, n, what))
		return false;
	if (n->quoted)
		return bad(r, n, "%s must be an unquoted integer, not the string \"%s\"", what,
			   n->str);
	errno = 0;
	v = strtoull(n->str, &end, 10);
	if (n->quoted || !plain_integer(n->str, false) || *end || errno == ERANGE)
		return bad(r, n, "%s must be an integer from 0 to 18446744073709551615, not '%s'",
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

static bool parse_time(struct rd *r, const struct yn *n, const char *what, uint64_t lo,
		       uint64_t hi, uint64_t *out)
{
	uint64_t v;
	int e;

	if (!scalar(r, n, what))
		return false;
	e = scn_parse_time(n->str, &v);
	if (e == -EINVAL && n->str[strspn(n->str, " ")] == '-')
		e = -ERANGE;	/* a negative time: say what the range is */
	if (e == -EINVAL)
		return bad(r, n, "%s must be a time with a unit (ns, us, ms or s), e.g. 10ms, "
			   "not '%s'", what, n->str);
	if (e || v < lo || v > hi) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "%.9gs", (double)lo / 1e9);
		snprintf(b, sizeof(b), "%.9gs", (double)hi / 1e9);
		return bad(r, n, "%s must be from %s to %s, not %s", what, a, b, n->str);
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

static bool parse_dist(struct rd *r, const struct yn *n, const char *what, struct sim_dist *d)
{
	int e;

	if (!scalar(r, n, what))
		return false;
	e = scn_parse_dist(n->str, d);
	if (e == -ERANGE)
		return bad(r, n, "%s: parameters out of range in '%s' (exp and lognormal need a "
			   "mean > 0, uniform a <= b, normal and lognormal a deviation >= 0, pareto "
			   "a shape and a minimum > 0)", what, n->str);
	if (e)
		return bad(r, n, "%s must be a time (e.g. 2ms) or a distribution: fixed(T), exp(T), "
			   "uniform(T, T), normal(T, T), lognormal(T, T), pareto(SHAPE, T); not '%s'",
			   what, n->str);
	return true;
}

/* ---------------- overrides ---------------- */

/*
 * Find the node named by the dotted @path below @root. Keys may hold dots themselves
 * (cpu.weight, a/b.c): at each level the longest key that matches a prefix of what is left,
 * up to a dot or the end, wins. A list is indexed by a number. When @create, a missing last
 * key is added to its mapping (with @pos for messages). Returns the slot that holds the node.
 */
static struct yn **find_slot(struct yn *root, const char *path, bool create, struct yn **parent,
			     char **lastkey)
{
	struct yn *cur = root;
	const char *p = path;

	*parent = NULL;
	*lastkey = NULL;
	for (;;) {
		struct yn **slot = NULL;
		size_t best = 0;

		if (cur->kind == YN_MAP) {
			for (size_t i = 0; i < cur->n; i++) {
				size_t kl = strlen(cur->keys[i]->str);

				if (kl > best && !strncmp(p, cur->keys[i]->str, kl) &&
				    (p[kl] == '.' || !p[kl])) {
					best = kl;
					slot = &cur->kids[i];
				}
			}
		} else if (cur->kind == YN_SEQ) {
			char *end;
			unsigned long idx = strtoul(p, &end, 10);

			if (end != p && (*end == '.' || !*end) && idx < cur->n) {
				best = (size_t)(end - p);
				slot = &cur->kids[idx];
			}
		}
		if (!slot) {
			if (create && cur->kind == YN_MAP) {
				*parent = cur;
				*lastkey = (char *)p;
			}
			return NULL;
		}
		if (!p[best])
			return slot;
		p += best + 1;
		cur = *slot;
	}
}

static int map_add(struct yn *map, struct yn *key, struct yn *val)
{
	struct yn **k = realloc(map->keys, (map->n + 1) * sizeof(*k));
	struct yn **v;

	if (!k)
		return -ENOMEM;
	map->keys = k;
	v = realloc(map->kids, (map->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	map->kids = v;
	k[map->n] = key;
	v[map->n] = val;
	map->n++;
	return 0;
}

static struct yn *yn_copy(const struct yn *n)
{
	struct yn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *n;
	c->str = NULL;
	c->kids = NULL;
	c->keys = NULL;
	c->n = 0;
	if (n->str && !(c->str = strdup(n->str)))
		goto fail;
	if (n->n) {
		c->kids = calloc(n->n, sizeof(*c->kids));
		if (!c->kids)
			goto fail;
		if (n->keys && !(c->keys = calloc(n->n, sizeof(*c->keys))))
			goto fail;
		for (size_t i = 0; i < n->n; i++, c->n++) {
			c->kids[i] = yn_copy(n->kids[i]);
			if (!c->kids[i] || (n->keys && !(c->keys[i] = yn_copy(n->keys[i])))) {
				c->n++;
				goto fail;
			}
		}
	}
	return c;
fail:
	yn_free(c);
	return NULL;
}

/* Put @val (owned) at @path; @at is where to point messages about a new key. */
static bool put_at(struct rd *r, struct yn *root, const char *path, struct yn *val,
		   const struct yn *at)
{
	struct yn *parent;
	char *lastkey;
	struct yn **slot = find_slot(root, path, true, &parent, &lastkey);

	if (slot) {
		if ((*slot)->kind != YN_SCALAR && val->kind == YN_SCALAR) {
			yn_free(val);
			return bad(r, at, "'%s' is %s in the file; only scalars can be set", path,
				   yn_kind_name((*slot)->kind));
		}
		yn_free(*slot);
		*slot = val;
		return true;
	}
	if (!parent) {
		yn_free(val);
		return bad(r, at, "'%s' names nothing in the file (a list entry is named by its "
			   "index, e.g. expect.0.share)", path);
	}
	/*
	 * Missing keys are added, as mappings down to the last. Under cgroups: the next part
	 * up to a dot is a cgroup path and the rest one interface file (cpu.weight).
	 */
	/* a cgroup's entry takes the rest as one interface file name (cgroup.subtree_control) */
	{
		const struct yn *cgs = yn_get(root, "cgroups");

		for (size_t i = 0; cgs && cgs->kind == YN_MAP && i < cgs->n; i++) {
			if (cgs->kids[i] != parent)
				continue;
			if (parent->kind != YN_MAP)
				break;
			{
				struct yn *fkey = yn_new_scalar(lastkey, at->line, at->col);

				if (fkey)
					fkey->origin = at->origin;
				if (!fkey || map_add(parent, fkey, val)) {
					yn_free(fkey);
					yn_free(val);
					return bad(r, at, "out of memory");
				}
				return true;
			}
		}
	}
	while (*lastkey) {
		bool cgroups = parent == yn_get(root, "cgroups");
		const char *dot = strchr(lastkey, '.');
		size_t len = dot ? (size_t)(dot - lastkey) : strlen(lastkey);
		bool last = !dot;
		char *name = strndup(lastkey, len);
		struct yn *key = name ? yn_new_scalar(name, at->line, at->col) : NULL;
		struct yn *child = NULL;

		free(name);
		if (key)
			key->origin = at->origin;
		if (!last) {
			child = calloc(1, sizeof(*child));
			if (child) {
				child->kind = YN_MAP;
				child->line = val->line;
				child->col = val->col;
				child->origin = val->origin;
			}
		}
		if (!key || (!last && !child) || map_add(parent, key, last ? val : child)) {
			yn_free(key);
			yn_free(child);
			yn_free(val);
			return bad(r, at, "out of memory");
		}
		if (last)
			return true;
		parent = child;
		lastkey = (char *)dot + 1;
		if (cgroups) {
			/* the rest is one file name */
			struct yn *fkey = yn_new_scalar(lastkey, at->line, at->col);

			if (fkey)
				fkey->origin = at->origin;
			if (!fkey || map_add(parent, fkey, val)) {
				yn_free(fkey);
				yn_free(val);
				return bad(r, at, "out of memory");
			}
			return true;
		}
	}
	yn_free(val);
	return bad(r, at, "'%s' ends with a dot", path);
}

/* ---------------- sections ---------------- */

static const char *const top_keys[] = { "name", "description", "seed", "duration", "warmup",
	"interval", "machine", "semantics", "scheduler", "cgroups", "sessions", "processes",
	"timeline", "variants", "sweep", "expect", NULL };

static bool read_name(struct rd *r, const struct yn *n, const char *what, char **out)
{
	if (!scalar(r, n, what))
		return false;
	if (!n->str[0] || strlen(n->str) > 63)
		return bad(r, n, "%s must be 1 to 63 characters", what);
	for (const char *p = n->str; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return bad(r, n, "%s '%s' may hold only letters, digits, '_', '-' and '.'",
				   what, n->str);
	/* names become file and directory names (compare -o DIR writes DIR/VARIANT/) */
	if (!strcmp(n->str, ".") || !strcmp(n->str, ".."))
		return bad(r, n, "%s cannot be '%s'", what, n->str);
	*out = xstrdup(r, n, n->str);
	return *out != NULL;
}

static bool read_machine(struct rd *r, const struct yn *m, int *cpus, uint32_t *hz,
			 struct scenario *sc)
{
	static const char *const keys[] = { "cpus", "hz", "autogroup", "timer_latency",
					    "idle_exit", "clock_phase", NULL };
	const struct yn *v;
	long long x;

	if (!want(r, m, YN_MAP, "machine") || !known_keys(r, m, keys, "machine"))
		return false;
	if ((v = yn_get(m, "cpus"))) {
		if (!parse_int(r, v, "machine.cpus", 1, SCHED_MAX_CPUS, &x))
			return false;
		*cpus = (int)x;
	}
	if ((v = yn_get(m, "hz"))) {
		if (!parse_int(r, v, "machine.hz", 1, 10000, &x))
			return false;
		*hz = (uint32_t)x;
	}
	if ((v = yn_get(m, "autogroup"))) {
		if (!parse_bool(r, v, "machine.autogroup", &sc->autogroup))
			return false;
	}
	if ((v = yn_get(m, "timer_latency")) &&
	    !parse_dist(r, v, "machine.timer_latency", &sc->timer_latency))
		return false;
	if ((v = yn_get(m, "idle_exit")) && !parse_dist(r, v, "machine.idle_exit", &sc->idle_exit))
		return false;
	if ((v = yn_get(m, "clock_phase"))) {
		if (!scalar(r, v, "machine.clock_phase"))
			return false;
		if (strcmp(v->str, "random")) {
			if (scn_parse_time(v->str, &sc->clock_phase))
				return bad(r, v, "machine.clock_phase must be random or a time (e.g. "
					   "1.5ms), not '%s'", v->str);
			sc->clock_phase_set = true;
		}
	}
	return true;
}

static bool read_scheduler(struct rd *r, const struct yn *m, struct sched_config *cfg)
{
	static const char *const keys[] = { "policy", "tunables", "features", "costs",
					    "tick_elision", "check", "load_attach", "blocked_load",
					    "jitter", NULL };
	static const char *const tun_keys[] = { "base_slice", "latency", "min_granularity",
		"wakeup_granularity", "migration_cost", "nr_migrate", "tunable_scaling", NULL };
	static const char *const cost_keys[] = { "switch", "wakeup", "sleep", "tick", "level",
						 NULL };
	/* the on/off keys, each a bool of struct sched_config */
	static const struct {
		const char *key;
		size_t off;
	} switches[] = {
		{ "tick_elision", offsetof(struct sched_config, tick_elision) },
		{ "check", offsetof(struct sched_config, check) },
		{ "load_attach", offsetof(struct sched_config, load_attach) },
		{ "blocked_load", offsetof(struct sched_config, blocked_load) },
		{ "jitter", offsetof(struct sched_config, jitter) },
	};
	const struct yn *v, *t;

	if (!want(r, m, YN_MAP, "scheduler") || !known_keys(r, m, keys, "scheduler"))
		return false;
	if ((v = yn_get(m, "policy"))) {
		enum sched_policy pol;

		if (!scalar(r, v, "scheduler.policy"))
			return false;
		if (sched_policy_parse(v->str, &pol))
			return bad(r, v, "scheduler.policy must be eevdf or cfs, not '%s'", v->str);
		if (pol != cfg->policy) {
			/* the other policy's feature defaults */
			for (int f = 0; f < SCHED_FEAT_NR; f++)
				cfg->feat[f] = sched_feat_default((enum sched_feat)f, pol);
			cfg->policy = pol;
		}
	}
	if ((t = yn_get(m, "tunables"))) {
		if (!want(r, t, YN_MAP, "scheduler.tunables") ||
		    !known_keys(r, t, tun_keys, "scheduler.tunables"))
			return false;
		for (size_t i = 0; i < t->n; i++) {
			const char *k = t->keys[i]->str;
			const struct yn *val = t->kids[i];
			char what[64];
			uint64_t ns;
			long long x;
			int e;

			snprintf(what, sizeof(what), "scheduler.tunables.%s", k);
			if (!strcmp(k, "nr_migrate")) {
				if (!parse_int(r, val, what, 1, 1024, &x))
					return false;
				ns = (uint64_t)x;
			} else if (!strcmp(k, "tunable_scaling")) {
				if (!scalar(r, val, what))
					return false;
				if (!strcmp(val->str, "none") || !strcmp(val->str, "0"))
					ns = 0;
				else if (!strcmp(val->str, "log") || !strcmp(val->str, "1"))
					ns = 1;
				else if (!strcmp(val->str, "linear") || !strcmp(val->str, "2"))
					ns = 2;
				else
					return bad(r, val, "%s must be none, log or linear, not '%s'",
						   what, val->str);
			} else if (!strcmp(k, "migration_cost")) {
				if (!parse_time(r, val, what, 0, 1000000000ull, &ns))
					return false;
			} else {
				if (!parse_time(r, val, what, 100000, 1000000000ull, &ns))
					return false;
			}
			e = sched_tunable_set(&cfg->tun, k, ns);
			if (e)
				return bad(r, val, "%s: value out of range", what);
		}
	}
	if ((t = yn_get(m, "features"))) {
		if (!want(r, t, YN_MAP, "scheduler.features"))
			return false;
		for (size_t i = 0; i < t->n; i++) {
			enum sched_feat f;
			char what[64];
			bool on;

			if (sched_feat_parse(t->keys[i]->str, &f)) {
				char list[600] = "";
				size_t len = 0;

				for (int k = 0; k < SCHED_FEAT_NR; k++)
					len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
								k ? ", " : "",
								sched_feat_name((enum sched_feat)k));
				return bad(r, t->keys[i], "unknown feature '%s' (expected one of: %s)",
					   t->keys[i]->str, list);
			}
			snprintf(what, sizeof(what), "scheduler.features.%s", t->keys[i]->str);
			if (!parse_bool(r, t->kids[i], what, &on))
				return false;
			cfg->feat[f] = on;
		}
	}
	if ((t = yn_get(m, "costs"))) {
		if (!want(r, t, YN_MAP, "scheduler.costs") ||
		    !known_keys(r, t, cost_keys, "scheduler.costs"))
			return false;
		for (size_t i = 0; i < t->n; i++) {
			const char *k = t->keys[i]->str;
			char what[64];
			uint64_t ns;

			snprintf(what, sizeof(what), "scheduler.costs.%s", k);
			if (!parse_time(r, t->kids[i], what, 0, 100000, &ns))	/* up to 100 us */
				return false;
			if (!strcmp(k, "switch"))
				cfg->cost.switch_ns = ns;
			else if (!strcmp(k, "wakeup"))
				cfg->cost.wakeup_ns = ns;
			else if (!strcmp(k, "sleep"))
				cfg->cost.sleep_ns = ns;
			else if (!strcmp(k, "tick"))
				cfg->cost.tick_ns = ns;
			else
				cfg->cost.level_ns = ns;
		}
	}
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		char what[64];

		if (!(v = yn_get(m, switches[i].key)))
			continue;
		snprintf(what, sizeof(what), "scheduler.%s", switches[i].key);
		if (!parse_bool(r, v, what, (bool *)((char *)cfg + switches[i].off)))
			return false;
	}
	return true;
}

/* A cgroup path as the model takes it: "" for the root, no leading or trailing '/'. */
static bool read_path(struct rd *r, const struct yn *n, const char *what, char **out)
{
	const char *s;
	size_t len;

	if (!scalar(r, n, what))
		return false;
	s = n->str;
	while (*s == '/')
		s++;
	len = strlen(s);
	while (len && s[len - 1] == '/')
		len--;
	if (len > 1024)
		return bad(r, n, "%s is longer than 1024 characters", what);
	for (size_t i = 0; i < len; i++)
		if (s[i] == ' ' || s[i] == '\t' || (s[i] == '/' && i + 1 < len && s[i + 1] == '/'))
			return bad(r, n, "%s '%s': cgroup names hold no blanks and no empty parts",
				   what, n->str);
	*out = malloc(len + 1);
	if (!*out)
		return bad(r, n, "out of memory");
	memcpy(*out, s, len);
	(*out)[len] = '\0';
	return true;
}

static const struct scn_cgroup *cg_sort_base;

/* By path, then by position in the file. */
static int cmp_cg_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(cg_sort_base[x].path, cg_sort_base[y].path);

	return c ? c : (x > y) - (x < y);
}

/*
 * Two entries that name the same cgroup once written out ("a", "/a" and "a/" are one path)
 * would be merged silently: refuse the later one, naming the earlier. Sorting keeps this
 * O(n log n) for the largest files allowed.
 */
static bool cgroups_distinct(struct rd *r, const struct yn *m)
{
	struct scenario *sc = r->sc;
	size_t *ix, later = 0, first = 0;
	bool dup = false;

	if (sc->ncgroups < 2)
		return true;
	ix = malloc(sc->ncgroups * sizeof(*ix));
	if (!ix)
		return bad(r, m, "out of memory");
	for (size_t i = 0; i < sc->ncgroups; i++)
		ix[i] = i;
	cg_sort_base = sc->cgroups;
	qsort(ix, sc->ncgroups, sizeof(*ix), cmp_cg_index);
	for (size_t i = 1; i < sc->ncgroups; i++) {
		if (strcmp(sc->cgroups[ix[i - 1]].path, sc->cgroups[ix[i]].path))
			continue;
		/* report the pair whose later entry comes first in the file */
		if (!dup || ix[i] < later) {
			later = ix[i];
			first = ix[i - 1];
		}
		dup = true;
	}
	free(ix);
	if (!dup)
		return true;
	return bad(r, m->keys[later], "cgroup '%s' is the same cgroup as '%s' at line %d",
		   m->keys[later]->str, m->keys[first]->str, sc->cgroups[first].pos.line);
}

static bool read_cgroups(struct rd *r, const struct yn *m)
{
	struct scenario *sc = r->sc;

	if (!want(r, m, YN_MAP, "cgroups"))
		return false;
	if (m->n > SCN_MAX_CGROUPS)
		return bad(r, m, "more than %d cgroups", SCN_MAX_CGROUPS);
	sc->cgroups = calloc(m->n ? m->n : 1, sizeof(*sc->cgroups));
	if (!sc->cgroups)
		return bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_cgroup *cg = &sc->cgroups[sc->ncgroups++];
		const struct yn *files = m->kids[i];

		cg->pos = pos_of(m->keys[i]);
		if (!read_path(r, m->keys[i], "a cgroup path", &cg->path))
			return false;
		if (files->kind == YN_SCALAR && !files->str[0])
			continue;	/* "vm:" with nothing: just mkdir */
		if (!want(r, files, YN_MAP, "a cgroup's entry (its interface files)"))
			return false;
		cg->writes = calloc(files->n ? files->n : 1, sizeof(*cg->writes));
		if (!cg->writes)
			return bad(r, files, "out of memory");
		for (size_t j = 0; j < files->n; j++) {
			struct scn_write *w = &cg->writes[cg->nwrites++];
			const struct yn *v = files->kids[j];

			w->pos = pos_kv(files->keys[j], v);
			if (!(w->file = xstrdup(r, files->keys[j], files->keys[j]->str)))
				return false;
			if (strchr(w->file, '/'))
				return bad(r, files->keys[j], "'%s' is not an interface file name "
					   "(write nested cgroups as their own entries, e.g. a/b:)",
					   w->file);
			if (v->kind == YN_SEQ) {
				/* a list of words, written joined by spaces */
				size_t len = 1;

				for (size_t k = 0; k < v->n; k++) {
					if (!scalar(r, v->kids[k], "a word of an interface file value"))
						return false;
					len += strlen(v->kids[k]->str) + 1;
				}
				w->value = calloc(len, 1);
				if (!w->value)
					return bad(r, v, "out of memory");
				for (size_t k = 0; k < v->n; k++) {
					if (k)
						strcat(w->value, " ");
					strcat(w->value, v->kids[k]->str);
				}
			} else {
				if (!scalar(r, v, "an interface file value"))
					return false;
				if (!(w->value = xstrdup(r, v, v->str)))
					return false;
			}
		}
	}
	return cgroups_distinct(r, m);
}

static bool read_affinity(struct rd *r, const struct yn *n, int cpus, struct scn_threads *t)
{
	/* "0-3,6" as a string, or a list of CPU numbers */
	memset(t->affinity, 0, sizeof(t->affinity));
	if (n->kind == YN_SEQ) {
		for (size_t i = 0; i < n->n; i++) {
			long long c;

			if (!parse_int(r, n->kids[i], "an affinity CPU", 0, cpus - 1, &c))
				return false;
			t->affinity[c / 64] |= 1ull << (c % 64);
		}
	} else {
		const char *p;

		if (!scalar(r, n, "affinity"))
			return false;
		p = n->str;
		while (*p) {
			char *end;
			long a, b;

			if (*p < '0' || *p > '9')	/* no blank or sign before a number */
				goto syntax;
			a = strtol(p, &end, 10);
			if (end == p || a < 0)
				goto syntax;
			b = a;
			p = end;
			if (*p == '-') {
				if (p[1] < '0' || p[1] > '9')
					goto syntax;
				b = strtol(p + 1, &end, 10);
				if (end == p + 1 || b < a)
					goto syntax;
				p = end;
			}
			if (b >= cpus)
				return bad(r, n, "affinity '%s' names CPU %ld; the machine has CPUs 0 "
					   "to %d", n->str, b, cpus - 1);
			for (long c = a; c <= b; c++)
				t->affinity[c / 64] |= 1ull << (c % 64);
			if (*p == ',')
				p++;
			else if (*p)
				goto syntax;
		}
	}
	for (size_t w = 0; w < SCHED_MAX_CPUS / 64; w++)
		if (t->affinity[w]) {
			t->has_affinity = true;
			return true;
		}
	return bad(r, n, "affinity names no CPU");
syntax:
	return bad(r, n, "affinity must be a CPU list like \"0-3,6\" or a list of CPU numbers, "
		   "not '%s'", n->str);
}

static bool read_behavior(struct rd *r, const struct yn *n, struct scn_threads *t)
{
	struct sim_behavior *b = &t->spec.behavior;
	const struct yn *body, *v;
	const char *kind;

	if (n->kind == YN_SCALAR) {
		if (!strcmp(n->str, "busy")) {
			b->kind = SIM_BEHAV_BUSY;
			return true;
		}
		return bad(r, n, "behavior must be busy or a mapping with one of periodic, bursty, "
			   "phases; not '%s'", n->str);
	}
	if (!want(r, n, YN_MAP, "behavior"))
		return false;
	if (n->n != 1)
		return bad(r, n, "behavior must have exactly one of periodic, bursty, phases");
	kind = n->keys[0]->str;
	body = n->kids[0];
	if (!strcmp(kind, "periodic")) {
		static const char *const keys[] = { "run", "period", NULL };

		b->kind = SIM_BEHAV_PERIODIC;
		if (!want(r, body, YN_MAP, "behavior.periodic") ||
		    !known_keys(r, body, keys, "behavior.periodic"))
			return false;
		if (!(v = yn_get(body, "run")))
			return bad(r, body, "behavior.periodic needs run (CPU time per period)");
		if (!parse_dist(r, v, "behavior.periodic.run", &b->run))
			return false;
		if (!(v = yn_get(body, "period")))
			return bad(r, body, "behavior.periodic needs period");
		return parse_time(r, v, "behavior.periodic.period", 1000, SCN_MAX_DURATION_NS,
				  &b->period_ns);
	}
	if (!strcmp(kind, "bursty")) {
		static const char *const keys[] = { "run", "sleep", NULL };

		b->kind = SIM_BEHAV_BURSTY;
		if (!want(r, body, YN_MAP, "behavior.bursty") ||
		    !known_keys(r, body, keys, "behavior.bursty"))
			return false;
		if (!(v = yn_get(body, "run")))
			return bad(r, body, "behavior.bursty needs run");
		if (!parse_dist(r, v, "behavior.bursty.run", &b->run))
			return false;
		if (!(v = yn_get(body, "sleep")))
			return bad(r, body, "behavior.bursty needs sleep");
		return parse_dist(r, v, "behavior.bursty.sleep", &b->sleep);
	}
	if (!strcmp(kind, "phases")) {
		static const char *const keys[] = { "loops", "steps", NULL };
		const struct yn *steps = body;

		b->kind = SIM_BEHAV_PHASES;
		if (body->kind == YN_MAP) {
			long long loops = 0;

			if (!known_keys(r, body, keys, "behavior.phases"))
				return false;
			if ((v = yn_get(body, "loops")) &&
			    !parse_int(r, v, "behavior.phases.loops", 0, 1000000000, &loops))
				return false;
			b->loops = (uint32_t)loops;
			if (!(steps = yn_get(body, "steps")))
				return bad(r, body, "behavior.phases needs steps");
		}
		if (!want(r, steps, YN_SEQ, "behavior.phases.steps"))
			return false;
		if (!steps->n || steps->n > 1000)
			return bad(r, steps, "behavior.phases.steps must have 1 to 1000 steps");
		t->phases = calloc(steps->n, sizeof(*t->phases));
		if (!t->phases)
			return bad(r, steps, "out of memory");
		for (size_t i = 0; i < steps->n; i++) {
			const struct yn *st = steps->kids[i];

			if (!want(r, st, YN_MAP, "a phase step"))
				return false;
			if (st->n != 1 ||
			    (strcmp(st->keys[0]->str, "run") && strcmp(st->keys[0]->str, "sleep")))
				return bad(r, st, "a phase step is {run: TIME} or {sleep: TIME}");
			t->phases[i].sleep = !strcmp(st->keys[0]->str, "sleep");
			if (!parse_dist(r, st->kids[0], t->phases[i].sleep ? "a sleep step"
									     : "a run step",
					&t->phases[i].d))
				return false;
		}
		b->phases = t->phases;
		b->nphases = steps->n;
		return true;
	}
	return bad(r, n->keys[0], "unknown behavior '%s' (expected busy, periodic, bursty or "
		   "phases)", kind);
}

static bool read_threads(struct rd *r, const struct yn *n, struct scn_threads *t, int cpus)
{
	static const char *const keys[] = { "count", "cgroup", "nice", "policy", "slice",
					    "affinity", "start", "stop", "behavior", NULL };
	const struct yn *v;
	long long x;

	t->count = 1;
	if (n->kind == YN_SCALAR && !n->str[0])
		return bad(r, n, "thread '%s' needs at least a behavior", t->name);
	if (!want(r, n, YN_MAP, "a thread entry") || !known_keys(r, n, keys, "a thread entry"))
		return false;
	if ((v = yn_get(n, "count"))) {
		if (!parse_int(r, v, "count", 1, SCN_MAX_THREADS, &x))
			return false;
		t->count = (int)x;
	}
	if ((v = yn_get(n, "cgroup"))) {
		t->cgroup_pos = pos_of(v);
		if (!read_path(r, v, "cgroup", &t->cgroup))
			return false;
	}
	if ((v = yn_get(n, "nice"))) {
		if (!parse_int(r, v, "nice", SCHED_NICE_MIN, SCHED_NICE_MAX, &x))
			return false;
		t->spec.nice = (int)x;
	}
	if ((v = yn_get(n, "policy"))) {
		if (!scalar(r, v, "policy"))
			return false;
		if (!strcmp(v->str, "normal"))
			t->spec.policy = SCHED_THREAD_NORMAL;
		else if (!strcmp(v->str, "batch"))
			t->spec.policy = SCHED_THREAD_BATCH;
		else if (!strcmp(v->str, "idle"))
			t->spec.policy = SCHED_THREAD_IDLE;
		else
			return bad(r, v, "policy must be normal, batch or idle, not '%s'", v->str);
	}
	if ((v = yn_get(n, "slice")) &&
	    !parse_time(r, v, "slice", 100000, 100000000, &t->spec.slice_ns))
		return false;
	if ((v = yn_get(n, "affinity")) && !read_affinity(r, v, cpus, t))
		return false;
	if ((v = yn_get(n, "start")) &&
	    !parse_time(r, v, "start", 0, SCN_MAX_DURATION_NS, &t->spec.start_ns))
		return false;
	if ((v = yn_get(n, "stop")) &&
	    !parse_time(r, v, "stop", 1, SCN_MAX_DURATION_NS, &t->spec.stop_ns))
		return false;
	if (t->spec.stop_ns && t->spec.stop_ns <= t->spec.start_ns)
		return bad(r, yn_get(n, "stop"), "stop must come after start");
	if (!(v = yn_get(n, "behavior")))
		return bad(r, n, "thread '%s' needs a behavior (busy, periodic, bursty or phases)",
			   t->name);
	return read_behavior(r, v, t);
}

static bool read_processes(struct rd *r, const struct yn *m, int cpus)
{
	static const char *const keys[] = { "cgroup", "session", "threads", NULL };
	struct scenario *sc = r->sc;

	if (!want(r, m, YN_MAP, "processes"))
		return false;
	if (!m->n)
		return bad(r, m, "a scenario needs processes (at least one thread to run)");
	sc->procs = calloc(m->n ? m->n : 1, sizeof(*sc->procs));
	if (!sc->procs)
		return bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_process *p = &sc->procs[sc->nprocs++];
		const struct yn *body = m->kids[i], *v, *th;

		p->pos = pos_of(m->keys[i]);
		if (!read_name(r, m->keys[i], "a process name", &p->name))
			return false;
		if (strchr(p->name, '.'))
			return bad(r, m->keys[i], "a process name may not hold '.'");
		if (!want(r, body, YN_MAP, "a process entry") ||
		    !known_keys(r, body, keys, "a process entry"))
			return false;
		if ((v = yn_get(body, "cgroup"))) {
			p->cgroup_pos = pos_of(v);
			if (!read_path(r, v, "cgroup", &p->cgroup))
				return false;
		} else {
			p->cgroup_pos = p->pos;
			if (!(p->cgroup = xstrdup(r, body, "")))
				return false;
		}
		if ((v = yn_get(body, "session")) && !read_name(r, v, "session", &p->session))
			return false;
		if (!(th = yn_get(body, "threads")))
			return bad(r, body, "process '%s' needs threads", p->name);
		if (!want(r, th, YN_MAP, "threads"))
			return false;
		if (!th->n)
			return bad(r, th, "process '%s' needs at least one thread entry", p->name);
		p->threads = calloc(th->n, sizeof(*p->threads));
		if (!p->threads)
			return bad(r, th, "out of memory");
		for (size_t j = 0; j < th->n; j++) {
			struct scn_threads *t = &p->threads[p->nthreads++];

			t->pos = pos_of(th->keys[j]);
			if (!read_name(r, th->keys[j], "a thread name", &t->name))
				return false;
			if (strchr(t->name, '.'))
				return bad(r, th->keys[j], "a thread name may not hold '.'");
			if (!read_threads(r, th->kids[j], t, cpus))
				return false;
			if (sc->total_threads + t->count > SCN_MAX_THREADS)
				return bad(r, th->keys[j], "more than %d threads in all",
					   SCN_MAX_THREADS);
			sc->total_threads += t->count;
		}
	}
	return true;
}

/* sessions: { NAME: { nice: N } }: the nice value of each session's autogroup. */
static bool read_sessions(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "nice", NULL };
	struct scenario *sc = r->sc;

	if (!want(r, m, YN_MAP, "sessions"))
		return false;
	sc->sessions = calloc(m->n ? m->n : 1, sizeof(*sc->sessions));
	if (!sc->sessions)
		return bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_session *ss = &sc->sessions[sc->nsessions++];
		const struct yn *v;
		long long x;

		if (!read_name(r, m->keys[i], "a session name", &ss->name))
			return false;
		if (!want(r, m->kids[i], YN_MAP, "a session") ||
		    !known_keys(r, m->kids[i], keys, "a session"))
			return false;
		if ((v = yn_get(m->kids[i], "nice"))) {
			if (!parse_int(r, v, "nice", SCHED_NICE_MIN, SCHED_NICE_MAX, &x))
				return false;
			ss->nice = (int)x;
		}
	}
	return true;
}

static bool read_timeline(struct rd *r, const struct yn *s)
{
	static const char *const keys[] = { "at", "do", NULL };
	struct scenario *sc = r->sc;

	if (!want(r, s, YN_SEQ, "timeline"))
		return false;
	if (s->n > SCN_MAX_TIMELINE)
		return bad(r, s, "more than %d timeline entries", SCN_MAX_TIMELINE);
	sc->timeline = calloc(s->n ? s->n : 1, sizeof(*sc->timeline));
	if (!sc->timeline)
		return bad(r, s, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		struct scn_event *e = &sc->timeline[sc->ntimeline++];
		const struct yn *n = s->kids[i], *v;

		if (!want(r, n, YN_MAP, "a timeline entry") ||
		    !known_keys(r, n, keys, "a timeline entry"))
			return false;
		if (!(v = yn_get(n, "at")))
			return bad(r, n, "a timeline entry needs at (a time)");
		if (!parse_time(r, v, "at", 0, SCN_MAX_DURATION_NS, &e->at))
			return false;
		if (!(v = yn_get(n, "do")))
			return bad(r, n, "a timeline entry needs do (a cgroupfs operation, e.g. "
				   "\"write vm/cpu.weight 400\")");
		if (!scalar(r, v, "do"))
			return false;
		e->pos = pos_of(v);
		if (!(e->op = xstrdup(r, v, v->str)))
			return false;
		if (i && e->at < sc->timeline[i - 1].at)
			return bad(r, yn_get(n, "at"), "timeline entries must be in time order");
	}
	return true;
}

static const struct {
	const char *key;
	enum scn_metric m;
	bool time;
	bool machine;
} metrics[] = {
	{ "share", SCN_M_SHARE, false, false },
	{ "cpu", SCN_M_CPU, true, false },
	{ "wait", SCN_M_WAIT, true, false },
	{ "latency_p50", SCN_M_LAT_P50, true, false },
	{ "latency_p90", SCN_M_LAT_P90, true, false },
	{ "latency_p99", SCN_M_LAT_P99, true, false },
	{ "latency_max", SCN_M_LAT_MAX, true, false },
	{ "delayed", SCN_M_DELAYED, false, false },
	{ "switches", SCN_M_SWITCHES, false, false },
	{ "migrations", SCN_M_MIGRATIONS, false, false },
	{ "jain", SCN_M_JAIN, false, true },
	{ "max_abs_error", SCN_M_MAX_ABS_ERROR, false, true },
	{ "max_rel_error", SCN_M_MAX_REL_ERROR, false, true },
	{ "overhead", SCN_M_OVERHEAD, false, true },
	{ "level_ops_per_sec", SCN_M_LEVEL_OPS, false, true },
	{ "switches_per_sec", SCN_M_SWITCH_RATE, false, true },
};

/* A number, or a time for time metrics. */
static bool expect_number(struct rd *r, const struct yn *n, bool time, const char *s,
			  double *out)
{
	char *end;
	uint64_t ns;

	if (time) {
		if (scn_parse_time(s, &ns))
			return bad(r, n, "expected a time with a unit (e.g. 2ms), not '%s'", s);
		*out = (double)ns;
		return true;
	}
	*out = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (end == s || *end || !isfinite(*out))
		return bad(r, n, "expected a number, not '%s'", s);
	return true;
}

static bool read_expect(struct rd *r, const struct yn *s)
{
	struct scenario *sc = r->sc;

	if (!want(r, s, YN_SEQ, "expect"))
		return false;
	sc->expect = calloc(s->n ? s->n : 1, sizeof(*sc->expect));
	if (!sc->expect)
		return bad(r, s, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		struct scn_expect *e = &sc->expect[sc->nexpect++];
		const struct yn *n = s->kids[i], *mv = NULL, *v;
		size_t mi = 0;
		int targets = 0;

		e->min = -INFINITY;
		e->max = INFINITY;
		e->pos = pos_of(n);
		if (!want(r, n, YN_MAP, "an expect entry"))
			return false;
		for (size_t k = 0; k < n->n; k++) {
			const char *key = n->keys[k]->str;
			bool found = false;

			if (!strcmp(key, "variant") || !strcmp(key, "tolerance"))
				continue;
			if (!strcmp(key, "group") || !strcmp(key, "process") ||
			    !strcmp(key, "thread")) {
				if (targets++)
					return bad(r, n->keys[k], "an expect entry names at most one "
						   "of group, process, thread");
				e->target = key[0] == 'g' ? SCN_T_GROUP
					    : key[0] == 'p' ? SCN_T_PROCESS : SCN_T_THREAD;
				if (!scalar(r, n->kids[k], key))
					return false;
				if (e->target == SCN_T_GROUP) {
					if (!read_path(r, n->kids[k], "group", &e->name))
						return false;
				} else if (!(e->name = xstrdup(r, n->kids[k], n->kids[k]->str))) {
					return false;
				}
				continue;
			}
			for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
				if (!strcmp(key, metrics[m].key)) {
					if (mv)
						return bad(r, n->keys[k], "an expect entry checks one "
							   "metric; '%s' and '%s' are two",
							   metrics[mi].key, key);
					mv = n->kids[k];
					mi = m;
					found = true;
				}
			}
			if (!found)
				return bad(r, n->keys[k], "unknown key '%s' in an expect entry "
					   "(expected variant, group, process or thread, tolerance, "
					   "and one metric: share, cpu, wait, latency_p50, latency_p90, "
					   "latency_p99, latency_max, delayed, switches, migrations, jain, "
					   "max_abs_error, max_rel_error, overhead, level_ops_per_sec, "
					   "switches_per_sec)", key);
		}
		if (targets > 1)
			return bad(r, n, "an expect entry names at most one of group, process, "
				   "thread");
		if (!mv)
			return bad(r, n, "an expect entry needs a metric (share, latency_p99, jain, "
				   "...)");
		e->metric = metrics[mi].m;
		if (metrics[mi].machine && targets)
			return bad(r, n, "'%s' is a machine-wide metric: no group, process or "
				   "thread", metrics[mi].key);
		if (!metrics[mi].machine && !targets)
			return bad(r, n, "'%s' needs a group, process or thread", metrics[mi].key);
		if (!scalar(r, mv, metrics[mi].key))
			return false;
		{
			const char *t = mv->str;
			int cmp = 0;	/* 1 <, 2 <=, 3 >, 4 >= */

			if (t[0] == '<' || t[0] == '>') {
				cmp = t[0] == '<' ? 1 : 3;
				t++;
				if (*t == '=') {
					cmp++;
					t++;
				}
				while (*t == ' ')
					t++;
			}
			{
				double x;

				if (!expect_number(r, mv, metrics[mi].time, t, &x))
					return false;
				if (cmp == 1 || cmp == 2)
					e->max = x;
				else if (cmp == 3 || cmp == 4)
					e->min = x;
				else {
					e->value = x;
					e->has_value = true;
				}
			}
		}
		v = yn_get(n, "tolerance");
		if (e->has_value) {
			if (!v)
				return bad(r, n, "'%s: %s' needs a tolerance (or write a bound: "
					   "\"< X\", \">= X\")", metrics[mi].key, mv->str);
			if (!scalar(r, v, "tolerance") ||
			    !expect_number(r, v, metrics[mi].time, v->str, &e->tolerance))
				return false;
			if (e->tolerance < 0)
				return bad(r, v, "tolerance must not be negative");
		} else if (v) {
			return bad(r, v, "a tolerance goes with a value, not with a bound");
		}
		if ((v = yn_get(n, "variant"))) {
			if (!read_name(r, v, "variant", &e->variant))
				return false;
		}
	}
	return true;
}

static bool read_variants_decl(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "set", "transform", "interpose", NULL };
	static const char *const ipo_keys[] = { "group", "weight", "process", NULL };
	struct scenario *sc = r->sc;

	if (!want(r, m, YN_MAP, "variants"))
		return false;
	sc->variants = calloc(m->n ? m->n : 1, sizeof(*sc->variants));
	if (!sc->variants)
		return bad(r, m, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		struct scn_variant *v = &sc->variants[sc->nvariants++];
		const struct yn *body = m->kids[i], *t;

		v->pos = pos_of(m->keys[i]);
		if (!read_name(r, m->keys[i], "a variant name", &v->name))
			return false;
		if (!strcmp(v->name, "base"))
			return bad(r, m->keys[i], "'base' is the file as written; it cannot be "
				   "declared");
		if (!want(r, body, YN_MAP, "a variant") || !known_keys(r, body, keys, "a variant"))
			return false;
		if ((t = yn_get(body, "set")) && !want(r, t, YN_MAP, "a variant's set"))
			return false;
		if ((t = yn_get(body, "transform"))) {
			if (!scalar(r, t, "transform"))
				return false;
			if (strcmp(t->str, "interpose"))
				return bad(r, t, "transform must be interpose, not '%s'", t->str);
			if (!(v->transform = xstrdup(r, t, t->str)))
				return false;
		}
		v->ipo_weight = 100;
		if ((t = yn_get(body, "interpose"))) {
			const struct yn *o;
			long long w;

			if (!v->transform)
				return bad(r, t, "interpose: options go with transform: interpose");
			if (!want(r, t, YN_MAP, "interpose") ||
			    !known_keys(r, t, ipo_keys, "interpose"))
				return false;
			if ((o = yn_get(t, "group")) &&
			    !read_name(r, o, "interpose.group", &v->ipo_group))
				return false;
			if ((o = yn_get(t, "process")) &&
			    !read_name(r, o, "interpose.process", &v->ipo_process))
				return false;
			if ((o = yn_get(t, "weight"))) {
				if (!parse_int(r, o, "interpose.weight", 1, 10000, &w))
					return false;
				v->ipo_weight = (unsigned)w;
			}
		}
	}
	return true;
}

/* sweep: { key: DOTTED.PATH, values: [V, ...], group: PATH | process: NAME } */
static bool read_sweep(struct rd *r, const struct yn *m)
{
	static const char *const keys[] = { "key", "values", "group", "process", NULL };
	struct scenario *sc = r->sc;
	const struct yn *v;

	if (!want(r, m, YN_MAP, "sweep") || !known_keys(r, m, keys, "sweep"))
		return false;
	sc->sweep_pos = pos_of(m);
	if (!(v = yn_get(m, "key")))
		return bad(r, m, "sweep needs key (a dotted path, e.g. "
			   "processes.app.threads.worker.count)");
	if (!scalar(r, v, "sweep.key") || !(sc->sweep_key = xstrdup(r, v, v->str)))
		return false;
	if (strpbrk(v->str, "'\"`$\\ \t"))
		return bad(r, v, "sweep.key is a dotted path: no quotes, blanks or '$'");
	if (!(v = yn_get(m, "values")))
		return bad(r, m, "sweep needs values (a list)");
	if (!want(r, v, YN_SEQ, "sweep.values"))
		return false;
	if (!v->n || v->n > 1000)
		return bad(r, v, "sweep.values must have 1 to 1000 values");
	sc->sweep_values = calloc(v->n, sizeof(*sc->sweep_values));
	sc->sweep_value_pos = calloc(v->n, sizeof(*sc->sweep_value_pos));
	if (!sc->sweep_values || !sc->sweep_value_pos)
		return bad(r, v, "out of memory");
	for (size_t i = 0; i < v->n; i++) {
		if (!scalar(r, v->kids[i], "a sweep value"))
			return false;
		sc->sweep_value_pos[i] = pos_of(v->kids[i]);
		if (!(sc->sweep_values[sc->nsweep++] = xstrdup(r, v->kids[i], v->kids[i]->str)))
			return false;
	}
	sc->sweep_target = SCN_T_MACHINE;
	if ((v = yn_get(m, "group"))) {
		sc->sweep_target = SCN_T_GROUP;
		if (!read_path(r, v, "sweep.group", &sc->sweep_name))
			return false;
	}
	if ((v = yn_get(m, "process"))) {
		if (sc->sweep_target != SCN_T_MACHINE)
			return bad(r, v, "sweep shows a group or a process, not both");
		sc->sweep_target = SCN_T_PROCESS;
		if (!read_name(r, v, "sweep.process", &sc->sweep_name))
			return false;
	}
	return true;
}

/* Check that the expectations name variants, processes and threads that exist. */
static bool check_names(struct rd *r, const struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *ex = yn_get(root, "expect");

	for (size_t i = 0; i < sc->nexpect; i++) {
		struct scn_expect *e = &sc->expect[i];
		const struct yn *n = ex ? ex->kids[i] : NULL;
		bool ok = !e->variant || !strcmp(e->variant, "base");

		for (size_t v = 0; v < sc->nvariants && !ok; v++)
			ok = !strcmp(sc->variants[v].name, e->variant);
		if (!ok)
			return bad(r, yn_get(n, "variant"), "no variant '%s' (declare it under "
				   "variants:)", e->variant);
		if (e->target == SCN_T_PROCESS || e->target == SCN_T_THREAD) {
			const char *slash = strchr(e->name, '/');
			size_t plen = e->target == SCN_T_THREAD && slash ? (size_t)(slash - e->name)
									   : strlen(e->name);
			const struct scn_process *p = NULL;

			if (e->target == SCN_T_THREAD && !slash)
				return bad(r, yn_get(n, "thread"), "thread must be PROCESS/NAME.N, "
					   "e.g. qemu/vcpu.1, not '%s'", e->name);
			for (size_t k = 0; k < sc->nprocs; k++)
				if (strlen(sc->procs[k].name) == plen &&
				    !strncmp(sc->procs[k].name, e->name, plen))
					p = &sc->procs[k];
			if (!p)
				return bad(r, yn_get(n, e->target == SCN_T_THREAD ? "thread" : "process"),
					   "no process '%.*s'", (int)plen, e->name);
			if (e->target == SCN_T_THREAD) {
				const char *tn = slash + 1, *dot = strrchr(tn, '.');
				bool found = false;

				for (size_t k = 0; dot && k < p->nthreads; k++) {
					char *end;
					long idx = strtol(dot + 1, &end, 10);

					if (strlen(p->threads[k].name) == (size_t)(dot - tn) &&
					    !strncmp(p->threads[k].name, tn, (size_t)(dot - tn)) &&
					    !*end && idx >= 1 && idx <= p->threads[k].count)
						found = true;
				}
				if (!found)
					return bad(r, yn_get(n, "thread"), "process '%s' has no thread "
						   "'%s'", p->name, tn);
			}
		}
	}
	return true;
}

static bool read_all(struct rd *r, struct yn *root)
{
	struct scenario *sc = r->sc;
	const struct yn *v;
	int cpus = 1;
	uint32_t hz = 1000;

	if (!want(r, root, YN_MAP, "a scenario") || !known_keys(r, root, top_keys, "a scenario"))
		return false;
	if (!(v = yn_get(root, "name")))
		return bad(r, root, "a scenario needs a name");
	if (!read_name(r, v, "name", &sc->name))
		return false;
	if ((v = yn_get(root, "description"))) {
		if (!scalar(r, v, "description") || !(sc->description = xstrdup(r, v, v->str)))
			return false;
	}
	sc->seed = 1;
	if ((v = yn_get(root, "seed")) && !parse_u64(r, v, "seed", &sc->seed))
		return false;
	if (!(v = yn_get(root, "duration")))
		return bad(r, root, "a scenario needs a duration (e.g. duration: 10s)");
	if (!parse_time(r, v, "duration", 1000000, SCN_MAX_DURATION_NS, &sc->duration))
		return false;
	if ((v = yn_get(root, "warmup"))) {
		if (!parse_time(r, v, "warmup", 0, SCN_MAX_DURATION_NS, &sc->warmup))
			return false;
		if (sc->warmup >= sc->duration)
			return bad(r, v, "warmup must be shorter than the duration");
	}
	sc->interval = 100000000;
	if ((v = yn_get(root, "interval")) &&
	    !parse_time(r, v, "interval", 1000000, SCN_MAX_DURATION_NS, &sc->interval))
		return false;
	/*
	 * The wakeup path of the machine the defaults were measured on (docs/latency.md): Linux
	 * 6.18 in a 2-vCPU Firecracker VM, HZ 250. Medians 65 us and 52 us.
	 */
	sc->timer_latency = (struct sim_dist){ SIM_DIST_LOGNORMAL, 65000, 5000 };
	sc->idle_exit = (struct sim_dist){ SIM_DIST_LOGNORMAL, 53000, 10000 };
	if ((v = yn_get(root, "machine")) && !read_machine(r, v, &cpus, &hz, sc))
		return false;
	if (sc->clock_phase_set && sc->clock_phase >= 1000000000ull / hz)
		return bad(r, yn_get(yn_get(root, "machine"), "clock_phase"),
			   "machine.clock_phase must be shorter than the tick period (%llu ns at hz %u)",
			   1000000000ull / hz, (unsigned)hz);
	sc->semantics = CG_SEM_V2;
	if ((v = yn_get(root, "semantics"))) {
		if (!scalar(r, v, "semantics"))
			return false;
		if (cg_semantics_parse(v->str, &sc->semantics))
			return bad(r, v, "semantics must be v2, rfc2017 or v1, not '%s'", v->str);
	}
	sched_config_default(&sc->sched, SCHED_POLICY_EEVDF, cpus);
	sc->sched.tun.hz = hz;
	if ((v = yn_get(root, "scheduler")) && !read_scheduler(r, v, &sc->sched))
		return false;
	if ((v = yn_get(root, "cgroups")) && !read_cgroups(r, v))
		return false;
	if ((v = yn_get(root, "sessions")) && !read_sessions(r, v))
		return false;
	if (!(v = yn_get(root, "processes")))
		return bad(r, root, "a scenario needs processes (at least one thread to run)");
	if (!read_processes(r, v, cpus))
		return false;
	if ((v = yn_get(root, "timeline")) && !read_timeline(r, v))
		return false;
	if ((v = yn_get(root, "variants")) && !read_variants_decl(r, v))
		return false;
	if ((v = yn_get(root, "sweep")) && !read_sweep(r, v))
		return false;
	if ((v = yn_get(root, "expect")) && !read_expect(r, v))
		return false;
	return check_names(r, root);
}

/* Apply the variant's set: entries and the --set overrides to the tree. */
static bool apply_overrides(struct rd *r, struct yn *root, const char *variant,
			    const char *const *sets, size_t nsets)
{
	char **origins = r->sc->origins;

	if (variant && strcmp(variant, "base")) {
		const struct yn *vs = yn_get(root, "variants"), *body, *set;

		if (!vs || !(body = yn_get(vs, variant))) {
			char list[512] = "base";
			size_t len = 4;

			for (size_t i = 0; vs && vs->kind == YN_MAP && i < vs->n &&
					   len < sizeof(list) - 80; i++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, ", %s",
							vs->keys[i]->str);
			return bad(r, NULL, "no variant '%s' (the file has: %s)", variant, list);
		}
		if (body->kind == YN_MAP && (set = yn_get(body, "set")) && set->kind == YN_MAP) {
			/* copy first: the overrides may replace parts of the variants section */
			struct yn *copy = yn_copy(set);

			if (!copy)
				return bad(r, set, "out of memory");
			for (size_t i = 0; i < copy->n; i++) {
				struct yn *val = copy->kids[i];

				copy->kids[i] = NULL;
				if (!put_at(r, root, copy->keys[i]->str, val, copy->keys[i])) {
					yn_free(copy);
					return false;
				}
			}
			yn_free(copy);
		}
	}
	for (size_t i = 0; i < nsets; i++) {
		const char *eq = strchr(sets[i], '=');
		struct yn *val, at = { .kind = YN_SCALAR };
		char *key;

		origins[i] = malloc(strlen(sets[i]) + 8);
		if (!origins[i])
			return bad(r, NULL, "out of memory");
		r->sc->norigins = i + 1;
		sprintf(origins[i], "--set %s", sets[i]);
		at.origin = origins[i];
		if (!eq || eq == sets[i])
			return bad(r, &at, "expected KEY=VALUE, e.g. --set machine.cpus=4");
		key = strndup(sets[i], (size_t)(eq - sets[i]));
		val = yn_new_scalar(eq + 1, 0, 0);
		if (!key || !val) {
			free(key);
			yn_free(val);
			return bad(r, &at, "out of memory");
		}
		val->origin = origins[i];
		if (!put_at(r, root, key, val, &at)) {
			free(key);
			return false;
		}
		free(key);
	}
	return true;
}

static void free_threads(struct scn_threads *t)
{
	free(t->name);
	free(t->cgroup);
	free(t->phases);
}

void scn_free(struct scenario *sc)
{
	if (!sc)
		return;
	free(sc->text);
	for (size_t i = 0; i < sc->ncgroups; i++) {
		for (size_t j = 0; j < sc->cgroups[i].nwrites; j++) {
			free(sc->cgroups[i].writes[j].file);
			free(sc->cgroups[i].writes[j].value);
		}
		free(sc->cgroups[i].writes);
		free(sc->cgroups[i].path);
	}
	free(sc->cgroups);
	for (size_t i = 0; i < sc->nprocs; i++) {
		for (size_t j = 0; j < sc->procs[i].nthreads; j++)
			free_threads(&sc->procs[i].threads[j]);
		free(sc->procs[i].threads);
		free(sc->procs[i].name);
		free(sc->procs[i].cgroup);
		free(sc->procs[i].session);
	}
	free(sc->procs);
	for (size_t i = 0; i < sc->nsessions; i++)
		free(sc->sessions[i].name);
	free(sc->sessions);
	for (size_t i = 0; i < sc->ntimeline; i++)
		free(sc->timeline[i].op);
	free(sc->timeline);
	for (size_t i = 0; i < sc->nvariants; i++) {
		free(sc->variants[i].name);
		free(sc->variants[i].transform);
		free(sc->variants[i].ipo_group);
		free(sc->variants[i].ipo_process);
	}
	free(sc->variants);
	for (size_t i = 0; i < sc->nexpect; i++) {
		free(sc->expect[i].variant);
		free(sc->expect[i].name);
	}
	free(sc->expect);
	for (size_t i = 0; i < sc->nsweep; i++)
		free(sc->sweep_values[i]);
	free(sc->sweep_values);
	free(sc->sweep_value_pos);
	free(sc->sweep_key);
	free(sc->sweep_name);
	for (size_t i = 0; i < sc->norigins; i++)
		free(sc->origins[i]);
	free(sc->origins);
	free(sc->file);
	free(sc->name);
	free(sc->description);
	free(sc->variant);
	free(sc);
}

/* The scenario file ("-": standard input), with the messages its limits ask for. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf;
	int e;

	if (!f) {
		snprintf(err, errlen, "cgsim: cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	e = util_read_stream(f, YN_MAX_INPUT, &buf, len);
	if (f != stdin)
		fclose(f);
	if (e == -EFBIG)
		snprintf(err, errlen, "%s:1:1: error: the file is larger than 4 MiB", path);
	else if (e == -ENOMEM)
		snprintf(err, errlen, "cgsim: out of memory reading %s", path);
	else if (e)
		snprintf(err, errlen, "cgsim: cannot read %s: %s", path, strerror(-e));
	return e ? NULL : buf;
}

struct scenario *scn_load(const char *path, const char *text, const char *variant,
			  const char *const *sets, size_t nsets, char *err, size_t errlen)
{
	struct rd r = { .file = path, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t len;
	struct yn *root;
	struct scenario *sc = NULL;
	bool ok;

	if (errlen)
		err[0] = '\0';
	if (!text) {
		buf = slurp(path, &len, err, errlen);
		if (!buf)
			return NULL;
		text = buf;
	} else {
		len = strlen(text);
	}
	root = yn_parse(path, text, len, err, errlen);
	if (!root) {
		free(buf);
		return NULL;
	}
	sc = calloc(1, sizeof(*sc));
	if (sc)
		sc->origins = calloc(nsets ? nsets : 1, sizeof(*sc->origins));
	if (!sc || !sc->origins) {
		snprintf(err, errlen, "cgsim: out of memory");
		ok = false;
	} else {
		r.sc = sc;
		/* kept, so that variants load from these bytes: a pipe can be read only once */
		sc->text = buf ? buf : strdup(text);
		buf = NULL;
		sc->file = strdup(path);
		sc->variant = strdup(variant ? variant : "base");
		ok = sc->file && sc->variant && sc->text;
		if (!ok)
			snprintf(err, errlen, "cgsim: out of memory");
		ok = ok && apply_overrides(&r, root, variant, sets, nsets) && read_all(&r, root);
		for (size_t i = 0; ok && variant && i < sc->nvariants; i++)
			if (!strcmp(sc->variants[i].name, variant) && sc->variants[i].transform)
				ok = !scn_interpose(sc, &sc->variants[i], err, errlen);
	}
	yn_free(root);
	free(buf);
	if (!ok) {
		scn_free(sc);
		return NULL;
	}
	return sc;
}
