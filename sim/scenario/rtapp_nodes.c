// SPDX-License-Identifier: MIT
/*
 * sim/scenario/rtapp_nodes.c - the rt-app translation's toolbox (sim/scenario/rtapp_internal.h):
 * its messages and notes, placed at the JSON they are about; the scenario tree's nodes, placed
 * the same way and attached as they are made; and rt-app's values read as rt-app reads them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/rtapp.h"
#include "sim/scenario/rtapp_internal.h"
#include "sim/util/util.h"

/* ---------------- messages and nodes ---------------- */

bool rta__bad(struct rta_tr *t, const char *path, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	if (t->failed)
		return false;
	rta__where(&t->j, path, &line, &col);
	va_start(ap, fmt);
	util_verrf(t->err, t->errlen, t->fname, NULL, line, col, fmt, ap);
	va_end(ap);
	t->failed = -EINVAL;
	return false;
}

bool rta__oom(struct rta_tr *t)
{
	if (!t->failed) {
		snprintf(t->err, t->errlen, "cgsim: out of memory");
		t->failed = -ENOMEM;
	}
	return false;
}

void rta__note(struct rta_tr *t, const char *path, const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	char **grown;
	int line, col, *at;

	rta__where(&t->j, path, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	grown = realloc(t->doc->notes, (t->doc->nnotes + 1) * sizeof(*grown));
	if (grown)
		t->doc->notes = grown;
	at = grown ? realloc(t->note_at, (t->doc->nnotes + 1) * sizeof(*at)) : NULL;
	if (!at) {
		rta__oom(t);
		return;
	}
	t->note_at = at;
	at[t->doc->nnotes] = line * 65536 + (col < 65536 ? col : 65535);
	if (!(grown[t->doc->nnotes] =
		      util_asprintf("%s:%d:%d: note: %s", t->fname, line, col, msg)))
		rta__oom(t);
	else
		t->doc->nnotes++;
}

/* A node placed where the key at @path is written (a scalar holding @s, or a collection). */
struct yn *rta__mk(struct rta_tr *t, enum yn_kind kind, const char *s, const char *path)
{
	int line, col;
	struct yn *n;

	rta__where(&t->j, path, &line, &col);
	n = kind == YN_SCALAR ? yn_new_scalar(s, line, col) : yn_new(kind, line, col);
	if (!n) {
		rta__oom(t);
		return NULL;
	}
	if (t->origins) {
		char **grown = realloc(t->doc->origins, (t->doc->norigins + 1) * sizeof(*grown));
		char *o = grown ? util_asprintf("%s:%d:%d", t->fname, line, col) : NULL;

		if (grown)
			t->doc->origins = grown;
		if (!o) {
			yn_free(n);
			rta__oom(t);
			return NULL;
		}
		t->doc->origins[t->doc->norigins++] = o;
		n->origin = o;
	}
	return n;
}

/* @map's KEY: @val (taken over, freed on failure), both placed at @path. */
bool rta__put(struct rta_tr *t, struct yn *map, const char *key, struct yn *val, const char *path)
{
	struct yn *k;

	if (!val)
		return t->failed ? false : rta__oom(t);
	if (!(k = rta__mk(t, YN_SCALAR, key, path)) || yn_map_add(map, k, val)) {
		yn_free(k);
		yn_free(val);
		return k ? rta__oom(t) : false;
	}
	return true;
}

bool rta__put_str(struct rta_tr *t, struct yn *map, const char *key, const char *val,
		  const char *path)
{
	return rta__put(t, map, key, rta__mk(t, YN_SCALAR, val, path), path);
}

bool rta__put_us(struct rta_tr *t, struct yn *map, const char *key, long long us, const char *path)
{
	char v[32];

	snprintf(v, sizeof(v), "%lldus", us);
	return rta__put_str(t, map, key, v, path);
}

/* Append the step {KEY: VALUE} (a scalar value) to @seq. */
bool rta__step(struct rta_tr *t, struct yn *seq, const char *key, const char *val, const char *path)
{
	struct yn *m = rta__mk(t, YN_MAP, NULL, path);

	if (!m || !rta__put_str(t, m, key, val, path)) {
		yn_free(m);
		return false;
	}
	if (yn_seq_add(seq, m)) {
		yn_free(m);
		return rta__oom(t);
	}
	return true;
}

bool rta__step_node(struct rta_tr *t, struct yn *seq, struct yn *m)
{
	if (!m)
		return false;
	if (yn_seq_add(seq, m)) {
		yn_free(m);
		return rta__oom(t);
	}
	return true;
}

/* @path, then @key below it, into @buf (RTA_PATH_LEN; a longer one is cut, and found nowhere). */
/*
 * A new mapping appended to @seq (a step), or put in mapping @map under @key: attached as it
 * is made, so that freeing the tree's root frees it whatever fails later. NULL on failure.
 */
struct yn *rta__seq_map(struct rta_tr *t, struct yn *seq, const char *path)
{
	struct yn *m = rta__mk(t, YN_MAP, NULL, path);

	return m && rta__step_node(t, seq, m) ? m : NULL;
}

struct yn *rta__map_child(struct rta_tr *t, struct yn *map, const char *key, enum yn_kind kind,
			  const char *path)
{
	struct yn *c = rta__mk(t, kind, NULL, path);

	return c && rta__put(t, map, key, c, path) ? c : NULL;
}

const char *rta__sub(char *buf, const char *path, const char *key)
{
	size_t a = strlen(path), b = strlen(key);

	if (a + 1 + b >= RTA_PATH_LEN)
		a = b = 0;
	memmove(buf, path, a);
	buf[a] = RTA_SEP;
	memcpy(buf + a + 1, key, b);
	buf[a + 1 + b] = '\0';
	return buf;
}

/* ---------------- values ---------------- */

/* An int of @obj's key @key (absent: @def); false after a message when it is not an int. */
bool rta__get_int(struct rta_tr *t, struct json_object *obj, const char *path, const char *key,
		  long long def, long long *out)
{
	struct json_object *v;
	char p[RTA_PATH_LEN];

	*out = def;
	if (!json_object_object_get_ex(obj, key, &v))
		return true;
	if (!json_object_is_type(v, json_type_int))
		return rta__bad(t, rta__sub(p, path, key),
				"%s must be an integer (rt-app refuses the file "
				"otherwise)",
				key);
	*out = json_object_get_int64(v);
	return true;
}

const char *rta__get_str(struct json_object *obj, const char *key, const char *def)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
		return def;
	return json_object_get_string(v);
}

/* rt-app's policy names: the fair ones as the scenario names them, NULL for the others. */
const char *rta__fair_policy(const char *rtapp)
{
	if (!strcmp(rtapp, "SCHED_OTHER"))
		return "normal";
	if (!strcmp(rtapp, "SCHED_BATCH"))
		return "batch";
	if (!strcmp(rtapp, "SCHED_IDLE"))
		return "idle";
	return NULL;
}

static bool known_policy(const char *rtapp)
{
	return rta__fair_policy(rtapp) || !strcmp(rtapp, "SCHED_FIFO") ||
	       !strcmp(rtapp, "SCHED_RR") || !strcmp(rtapp, "SCHED_DEADLINE");
}

/* A policy rt-app takes that cgsim does not model, or one it does not know: refused. */
bool rta__check_policy(struct rta_tr *t, const char *pol, const char *path)
{
	if (rta__fair_policy(pol))
		return true;
	if (!known_policy(pol))
		return rta__bad(t, path,
				"unknown policy '%s' (rt-app takes SCHED_OTHER, SCHED_BATCH, "
				"SCHED_IDLE, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE)",
				pol);
	return rta__bad(t, path,
			"%s is not modelled: cgsim simulates the fair scheduler "
			"(SCHED_OTHER, SCHED_BATCH, SCHED_IDLE) only",
			pol);
}

/* A taskgroup: "" none (NULL), else a path that starts with '/'; *out the cgroup path. */
bool rta__taskgroup(struct rta_tr *t, struct json_object *obj, const char *path, char **out)
{
	struct json_object *v;
	char p[RTA_PATH_LEN];
	const char *s;
	size_t k;

	*out = NULL;
	if (!json_object_object_get_ex(obj, "taskgroup", &v))
		return true;
	rta__sub(p, path, "taskgroup");
	if (!json_object_is_type(v, json_type_string))
		return rta__bad(t, p, "taskgroup must be a string (a cgroup path from /)");
	s = json_object_get_string(v);
	if (!*s)
		return true;
	if (*s != '/')
		return rta__bad(t, p, "taskgroup '%s' has to start with '/' (rt-app refuses it)",
				s);
	for (k = 0; k < t->ntgs && strcmp(t->tgs[k], s); k++)
		;
	if (k == t->ntgs) {
		char **grown;

		if (t->ntgs == RTA_MAX_TASKGROUPS)
			return rta__bad(t, p, "more than %d taskgroups (rt-app's limit)",
					RTA_MAX_TASKGROUPS);
		if (!(grown = realloc(t->tgs, (t->ntgs + 1) * sizeof(*grown))))
			return rta__oom(t);
		t->tgs = grown;
		if (!(t->tgs[t->ntgs] = strdup(s)))
			return rta__oom(t);
		t->ntgs++;
	}
	if (!(*out = strdup(s)))
		return rta__oom(t);
	return true;
}

/* cpus: [N, ...] as the scenario's affinity list; NULL when absent. */
struct yn *rta__cpus_node(struct rta_tr *t, struct json_object *obj, const char *path, bool *ok)
{
	struct json_object *v;
	struct yn *seq;
	char p[RTA_PATH_LEN];

	*ok = true;
	if (!json_object_object_get_ex(obj, "cpus", &v))
		return NULL;
	rta__sub(p, path, "cpus");
	if (!json_object_is_type(v, json_type_array) || !json_object_array_length(v)) {
		*ok = rta__bad(t, p, "cpus must be a list of CPU numbers");
		return NULL;
	}
	if (!(seq = rta__mk(t, YN_SEQ, NULL, p))) {
		*ok = false;
		return NULL;
	}
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		struct json_object *c = json_object_array_get_idx(v, i);
		char num[24];

		if (!json_object_is_type(c, json_type_int)) {
			yn_free(seq);
			*ok = rta__bad(t, p, "cpus must be a list of CPU numbers");
			return NULL;
		}
		snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(c));
		if (!rta__step_node(t, seq, rta__mk(t, YN_SCALAR, num, p))) {
			yn_free(seq);
			*ok = false;
			return NULL;
		}
	}
	return seq;
}
