// SPDX-License-Identifier: MIT
/*
 * sim/scenario/rtapp_file.c - an rt-app file as a whole (sim/scenario/rtapp.h): whether a text is
 * one, and the file the real rt-app runs for `cgsim validate --live`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/rtapp.h"
#include "sim/scenario/rtapp_internal.h"
#include "sim/util/util.h"

bool rta_is_workload(const char *text, size_t len)
{
	size_t i = 0;

	/* blanks and comments, then '{': is "tasks", "global" or "resources" among its keys? */
	for (int depth = 0; i < len;) {
		char c = text[i];

		if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			const char *e = NULL;

			for (size_t k = i + 2; k + 1 < len && !e; k++)
				if (text[k] == '*' && text[k + 1] == '/')
					e = text + k + 2;
			i = e ? (size_t)(e - text) : len;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == '"') {
			size_t a = ++i;

			if (!depth)
				return false;	/* a string first: not an object */
			while (i < len && text[i] != '"')
				i += text[i] == '\\' ? 2 : 1;
			/* rt-app's three top keys; a YAML scenario has none of them */
			if (depth == 1 && ((i - a == 5 && !strncmp(text + a, "tasks", 5)) ||
					   (i - a == 6 && !strncmp(text + a, "global", 6)) ||
					   (i - a == 9 && !strncmp(text + a, "resources", 9))))
				return true;
			i++;
		} else if (c == '{' || c == '[') {
			if (!depth && c != '{')
				return false;
			depth++;
			i++;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return false;
			i++;
		} else if (!depth && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			return false;
		} else {
			i++;
		}
	}
	return false;
}

/* ---------------- the file for the real rt-app (validate --live) ---------------- */

/* @obj's taskgroup "/A/B" as "/PREFIX-A/B" ("" and "/" stay). */
static int move_taskgroup(struct json_object *obj, const char *prefix)
{
	struct json_object *v;
	const char *s;
	char *moved;
	int e;

	if (!json_object_object_get_ex(obj, "taskgroup", &v) ||
	    !json_object_is_type(v, json_type_string))
		return 0;
	s = json_object_get_string(v);
	if (!s[0] || !strcmp(s, "/"))
		return 0;
	if (!(moved = util_asprintf("/%s-%s", prefix, s + 1)))
		return -ENOMEM;
	e = json_object_object_add(obj, "taskgroup", json_object_new_string(moved)) ? -ENOMEM : 0;
	free(moved);
	return e;
}

/* A task's instances, and whether cgsim's scenario has their threads (as translate()). */
static long long live_instances(struct json_object *obj, bool *made)
{
	struct json_object *v;
	long long inst = 1, loop = -1;

	if (json_object_object_get_ex(obj, "instance", &v))
		inst = json_object_get_int64(v);
	if (json_object_object_get_ex(obj, "loop", &v))
		loop = json_object_get_int64(v);
	/* a phases task with loop 0: rt-app makes a thread that ends at once, cgsim none */
	*made = !(loop == 0 && json_object_object_get_ex(obj, "phases", NULL));
	return inst > 0 ? inst : 0;
}

/* The threads rt-app makes and cgsim's scenario has, in order, with their comms. */
static int live_threads(struct json_object *tasks, struct rta_live *out)
{
	size_t n = 0, ind = 0;
	bool made;

	json_object_object_foreach(tasks, name, obj) {
		long long inst = live_instances(obj, &made);

		(void)name;
		n += made ? (size_t)inst : 0;
	}
	out->comm_old = calloc(n ? n : 1, sizeof(*out->comm_old));
	out->comm_new = calloc(n ? n : 1, sizeof(*out->comm_new));
	if (!out->comm_old || !out->comm_new)
		return -ENOMEM;
	json_object_object_foreach(tasks, name2, obj2) {
		long long inst = live_instances(obj2, &made);

		for (long long k = 0; k < inst; k++, ind++) {
			if (!made)
				continue;
			snprintf(out->comm_old[out->nthreads], 16, "%s", name2);
			snprintf(out->comm_new[out->nthreads], 16, "%s-%zu", name2, ind);
			out->nthreads++;
		}
	}
	return 0;
}

int rta_live_make(const char *fname, const char *text, size_t len, const char *prefix,
		  unsigned duration_s, const char *logdir, struct rta_live *out, char *err,
		  size_t errlen)
{
	struct rta_json j;
	struct json_object *tasks, *g;
	const char *s;
	int e;

	memset(out, 0, sizeof(*out));
	if ((e = rta__parse(fname, text, len, &j, err, errlen)))
		return e == -EFBIG ? -EINVAL : e;
	e = -EINVAL;
	if (!json_object_object_get_ex(j.root, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_object))
		goto out;
	if (!json_object_object_get_ex(j.root, "global", &g)) {
		g = json_object_new_object();
		if (!g || json_object_object_add(j.root, "global", g))
			goto nomem;
	}
	if (json_object_object_add(g, "duration", json_object_new_int((int)duration_s)) ||
	    json_object_object_add(g, "logdir", json_object_new_string(logdir)) ||
	    json_object_object_add(g, "log_basename", json_object_new_string("rt-app")) ||
	    json_object_object_add(g, "ftrace", json_object_new_boolean(0)) ||
	    json_object_object_add(g, "gnuplot", json_object_new_boolean(0)))
		goto nomem;
	json_object_object_foreach(tasks, name, obj) {
		struct json_object *phases;

		(void)name;
		if (move_taskgroup(obj, prefix))
			goto nomem;
		if (json_object_object_get_ex(obj, "phases", &phases) &&
		    json_object_is_type(phases, json_type_object)) {
			json_object_object_foreach(phases, pname, ph) {
				(void)pname;
				if (json_object_is_type(ph, json_type_object) &&
				    move_taskgroup(ph, prefix))
					goto nomem;
			}
		}
	}
	if (live_threads(tasks, out) ||
	    !(s = json_object_to_json_string_ext(j.root, JSON_C_TO_STRING_PRETTY)) ||
	    !(out->json = strdup(s)))
		goto nomem;
	e = 0;
	goto out;
nomem:
	e = -ENOMEM;
out:
	if (e == -EINVAL)
		snprintf(err, errlen, "%s: not an rt-app workload", fname);
	rta__json_free(&j);
	if (e)
		rta_live_free(out);
	return e;
}

void rta_live_free(struct rta_live *l)
{
	free(l->json);
	free(l->comm_old);
	free(l->comm_new);
	memset(l, 0, sizeof(*l));
}
