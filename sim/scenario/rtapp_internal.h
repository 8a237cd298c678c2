/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/rtapp_internal.h - what the files of the rt-app reader share: the JSON as json-c
 * parsed it after workgen's renaming (rtapp_json.c), with the place of every key; the state
 * and toolbox of its translation into a scenario document (rtapp.c, rtapp_nodes.c).
 */
#ifndef CGSIM_SIM_RTAPP_INTERNAL_H
#define CGSIM_SIM_RTAPP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* Where a key is written: its path (the keys from the top, joined by RTA_SEP), line, column. */
#define RTA_SEP '\x1f'

struct rta_pos {
	char *path;
	int line;
	int col;
};

struct rta_json {
	struct json_object *root;
	struct rta_pos *pos;	/* sorted by path */
	size_t npos;
};

/*
 * rta__parse() - @text as workgen then json-c read it, with its keys' places. 0, -EINVAL with
 * "FNAME:LINE:COL: error: ..." in @err, or -ENOMEM.
 */
int rta__parse(const char *fname, const char *text, size_t len, struct rta_json *j, char *err,
	       size_t errlen);
void rta__json_free(struct rta_json *j);
/* rta__where() - the place of the key at @path (false: not found; *line = *col = 1). */
bool rta__where(const struct rta_json *j, const char *path, int *line, int *col);


/* ---- the translation into a scenario document (rtapp.c), and its toolbox (rtapp_nodes.c) ---- */

#include "sim/scenario/rtapp.h"

#define RTA_MAX_TASKGROUPS	32	/* rt-app's max_nbr_tgs */
#define RTA_PATH_LEN	1024

struct rta_tr {
	const char *fname;
	struct rta_json j;
	struct rta_doc *doc;
	bool origins;
	char *err;
	size_t errlen;
	int failed;		/* 0, or the negative errno the read ends with */
	const char *def_policy;	/* global.default_policy, as rt-app names it */
	char **tgs;		/* the taskgroups, as cgroup paths ("" the root) */
	size_t ntgs;
	char **names;		/* thread entries made so far */
	size_t nnames;
	int *note_at;		/* per note: line x 65536 + column, to give them in file order */
};

/*
 * Messages and notes at the key of @path (its place in the file): rta__bad() records the first
 * error only and returns false, rta__oom() likewise for -ENOMEM; notes are kept for the doc.
 */
bool rta__bad(struct rta_tr *t, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool rta__oom(struct rta_tr *t);
void rta__note(struct rta_tr *t, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @path, then @key below it, into @buf (RTA_PATH_LEN; a longer one is found nowhere). */
const char *rta__sub(char *buf, const char *path, const char *key);

/*
 * Nodes placed where the key at @path is written: a scalar holding @s, or an empty collection.
 * The adders take their value over (freed on failure) and return false after a message; a
 * node made by rta__seq_map() and rta__map_child() is attached as it is made, so that freeing
 * the root frees it whatever fails later.
 */
struct yn *rta__mk(struct rta_tr *t, enum yn_kind kind, const char *s, const char *path);
bool rta__put(struct rta_tr *t, struct yn *map, const char *key, struct yn *val,
	      const char *path);
bool rta__put_str(struct rta_tr *t, struct yn *map, const char *key, const char *val,
		  const char *path);
bool rta__put_us(struct rta_tr *t, struct yn *map, const char *key, long long us,
		 const char *path);
bool rta__step(struct rta_tr *t, struct yn *seq, const char *key, const char *val,
	       const char *path);
bool rta__step_node(struct rta_tr *t, struct yn *seq, struct yn *m);
struct yn *rta__seq_map(struct rta_tr *t, struct yn *seq, const char *path);
struct yn *rta__map_child(struct rta_tr *t, struct yn *map, const char *key, enum yn_kind kind,
			  const char *path);

/* rt-app's values, read as rt-app reads them; false after a message. */
bool rta__get_int(struct rta_tr *t, struct json_object *obj, const char *path, const char *key,
		  long long def, long long *out);
const char *rta__get_str(struct json_object *obj, const char *key, const char *def);
/* The scenario's name of a fair policy ("normal", ...), NULL for the others. */
const char *rta__fair_policy(const char *rtapp);
bool rta__check_policy(struct rta_tr *t, const char *pol, const char *path);
/* A taskgroup ("" none: *@out NULL), checked and counted; *@out malloc'ed. */
bool rta__taskgroup(struct rta_tr *t, struct json_object *obj, const char *path, char **out);
/* cpus: [N, ...] as an affinity list, NULL when absent (*@ok false after a message). */
struct yn *rta__cpus_node(struct rta_tr *t, struct json_object *obj, const char *path, bool *ok);

#endif /* CGSIM_SIM_RTAPP_INTERNAL_H */
