/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/rtapp_internal.h - what the two files of the rt-app reader share: the JSON as
 * json-c parsed it after workgen's renaming (rtapp_json.c), with the place of every key, for
 * the translation into a scenario document (rtapp.c).
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

#endif /* CGSIM_SIM_RTAPP_INTERNAL_H */
