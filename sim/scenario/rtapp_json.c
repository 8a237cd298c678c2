// SPDX-License-Identifier: MIT
/*
 * sim/scenario/rtapp_json.c - an rt-app file as workgen and then rt-app read it.
 *
 * rt-app's own examples give a key twice in one object ("run": 275 ... "run": 4725) and write
 * "suspend" with no value; json-c would keep only the last "run" and refuse the bare key.
 * rt-app's documentation has such files go through workgen first, which renames the second
 * and later copies of a key at its level by appending a number (the level's counter, starting
 * at 1 and moved on only when the name it makes is taken) and gives a bare "suspend" its
 * task's name. A first pass here does the same on the tokens (workgen works on lines; on files
 * written a key a line, as rt-app's are, the two agree) and notes where every key is, since
 * json-c keeps no positions. json-c then parses the result, so that comments, trailing commas
 * and anything else it accepts or refuses behave as in rt-app; its error offset is taken back
 * to the original file through a map of where each byte came from.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/rtapp_internal.h"
#include "sim/util/util.h"

#define MAX_DEPTH 64

enum want { W_VALUE, W_KEY, W_COLON, W_COMMA };

struct frame {
	bool obj;
	enum want want;
	char *path;		/* this container's */
	char **keys;		/* an object's keys so far, as renamed */
	size_t nkeys, capkeys;
	unsigned curid;		/* workgen's counter for the renames at this level */
	char *key;		/* the key whose value comes next */
};

struct pass {
	const char *in;
	size_t len, i;
	int line, col;
	char *out;		/* the text json-c reads */
	uint32_t *from;		/* per byte of out: the offset in the input it stands for */
	size_t nout, capout, capfrom;
	struct frame st[MAX_DEPTH];
	size_t depth;
	bool lost;		/* past something it cannot follow: the rest is copied as it is */
	struct rta_pos *pos;
	size_t npos, cappos;
	int err;
};

static void emit(struct pass *p, const char *s, size_t n, size_t from)
{
	if (p->err)
		return;
	if (UTIL_GROW(p->out, p->capout, p->nout + n + 1) ||
	    UTIL_GROW(p->from, p->capfrom, p->nout + n + 1)) {
		p->err = -ENOMEM;
		return;
	}
	memcpy(p->out + p->nout, s, n);
	for (size_t k = 0; k < n; k++)
		p->from[p->nout + k] = (uint32_t)from;
	p->nout += n;
	p->out[p->nout] = '\0';
}

/* Copy input bytes [a, b) as they are, each standing for itself. */
static void copy_in(struct pass *p, size_t a, size_t b)
{
	size_t at = p->nout;

	emit(p, p->in + a, b - a, a);
	for (size_t k = 0; !p->err && k < b - a; k++)
		p->from[at + k] = (uint32_t)(a + k);
}

/* Move the cursor over @n input bytes, counting lines and columns. */
static void advance(struct pass *p, size_t n)
{
	for (size_t k = 0; k < n && p->i < p->len; k++, p->i++) {
		if (p->in[p->i] == '\n') {
			p->line++;
			p->col = 1;
		} else {
			p->col++;
		}
	}
}

/* Blanks and comments, copied; true when something else follows. */
static bool skip_blank(struct pass *p)
{
	while (p->i < p->len) {
		size_t a = p->i, b = a;
		char c = p->in[a];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			b = a + 1;
		} else if (c == '/' && a + 1 < p->len && p->in[a + 1] == '*') {
			const char *e = NULL;

			for (size_t k = a + 2; k + 1 < p->len && !e; k++)
				if (p->in[k] == '*' && p->in[k + 1] == '/')
					e = p->in + k + 2;
			b = e ? (size_t)(e - p->in) : p->len;
		} else if (c == '/' && a + 1 < p->len && p->in[a + 1] == '/') {
			for (b = a + 2; b < p->len && p->in[b] != '\n'; b++)
				;
		} else {
			return true;
		}
		copy_in(p, a, b);
		advance(p, b - a);
	}
	return false;
}

/* The end of the string token at p->i (past its closing quote), or 0 if unterminated. */
static size_t string_end(const struct pass *p)
{
	for (size_t k = p->i + 1; k < p->len; k++) {
		if (p->in[k] == '\\')
			k++;
		else if (p->in[k] == '"')
			return k + 1;
	}
	return 0;
}

static char *join(const char *path, const char *key)
{
	return *path ? util_asprintf("%s%c%s", path, RTA_SEP, key) : util_asprintf("%s", key);
}

static int note_pos(struct pass *p, char *path, int line, int col)
{
	if (!path || UTIL_GROW(p->pos, p->cappos, p->npos + 1)) {
		free(path);
		return -ENOMEM;
	}
	p->pos[p->npos++] = (struct rta_pos){ path, line, col };
	return 0;
}

static bool has_key(const struct frame *f, const char *k)
{
	for (size_t i = 0; i < f->nkeys; i++)
		if (!strcmp(f->keys[i], k))
			return true;
	return false;
}

/* A key of the object @f: renamed as workgen would if it was seen there already. */
static void take_key(struct pass *p, struct frame *f, size_t a, size_t b, int line, int col)
{
	char *raw = util_asprintf("%.*s", (int)(b - a - 2), p->in + a + 1), *k = raw;

	if (raw && has_key(f, raw)) {
		k = util_asprintf("%s%u", raw, f->curid);
		while (k && has_key(f, k)) {
			free(k);
			k = util_asprintf("%s%u", raw, ++f->curid);
		}
		free(raw);
	}
	if (!k || UTIL_GROW(f->keys, f->capkeys, f->nkeys + 1)) {
		free(k);
		p->err = -ENOMEM;
		return;
	}
	f->keys[f->nkeys++] = k;
	f->key = k;
	emit(p, "\"", 1, a);
	emit(p, k, strlen(k), a + 1);
	emit(p, "\"", 1, b - 1);
	if (!p->err)
		p->err = note_pos(p, join(f->path, k), line, col);
}

static void push(struct pass *p, bool obj)
{
	struct frame *parent = p->depth ? &p->st[p->depth - 1] : NULL;
	struct frame *f;

	if (p->depth == MAX_DEPTH) {
		p->lost = true;
		return;
	}
	f = &p->st[p->depth++];
	*f = (struct frame){ .obj = obj, .want = obj ? W_KEY : W_VALUE, .curid = 1 };
	f->path = !parent ? util_asprintf("%s", "") : parent->obj ? join(parent->path, parent->key)
						    : util_asprintf("%s", parent->path);
	if (!f->path)
		p->err = -ENOMEM;
}

static void pop(struct pass *p)
{
	struct frame *f = &p->st[--p->depth];

	for (size_t i = 0; i < f->nkeys; i++)
		free(f->keys[i]);
	free(f->keys);
	free(f->path);
	if (p->depth)
		p->st[p->depth - 1].want = W_COMMA;
}

/* The task a bare "suspend" belongs to: the key under "tasks" on the way to it. */
static const char *task_of(const struct pass *p)
{
	return p->depth >= 2 && p->st[0].key && !strcmp(p->st[0].key, "tasks") ? p->st[1].key : "";
}

/* One token at p->i (not a blank): follow the structure, rename, fill a bare suspend. */
static void token(struct pass *p)
{
	struct frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
	size_t a = p->i, b = a + 1;
	int line = p->line, col = p->col;
	char c = p->in[a];

	if (c == '"' && !(b = string_end(p))) {
		p->lost = true;
		return;
	}
	if (c != '"' && !strchr("{}[]:,", c))
		while (b < p->len && !strchr(" \t\r\n{}[]:,\"/", p->in[b]))
			b++;
	if (f && f->obj && f->want == W_KEY && c == '"') {
		take_key(p, f, a, b, line, col);
		f->want = W_COLON;
		advance(p, b - a);
		return;
	}
	if (f && f->obj && f->want == W_COLON && (c == ',' || c == '}') &&
	    !strncmp(f->key, "suspend", 7)) {
		/* workgen: "suspend" alone is "suspend": "TASK" */
		char *fill = util_asprintf(": \"%s\"", task_of(p));

		if (!fill) {
			p->err = -ENOMEM;
			return;
		}
		emit(p, fill, strlen(fill), a);
		free(fill);
		f->want = W_COMMA;
	}
	copy_in(p, a, b);
	advance(p, b - a);
	if (!f) {
		if (c == '{')
			push(p, true);
		else
			p->lost = true;
		return;
	}
	switch (f->want) {
	case W_COLON:
		if (c == ':')
			f->want = W_VALUE;
		else
			p->lost = true;
		break;
	case W_VALUE:
		if (c == '{' || c == '[')
			push(p, c == '{');
		else if (c == ']' && !f->obj)
			pop(p);
		else if (strchr("}:,]", c))
			p->lost = true;
		else
			f->want = W_COMMA;
		break;
	case W_KEY:
	case W_COMMA:
		if (c == ',')
			f->want = f->obj ? W_KEY : W_VALUE;
		else if ((c == '}' && f->obj) || (c == ']' && !f->obj))
			pop(p);
		else
			p->lost = true;
		break;
	}
}

static int pos_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rta_pos *)a)->path, ((const struct rta_pos *)b)->path);
}

/* Line and column of input offset @off. */
static void line_col(const char *s, size_t len, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t k = 0; k < off && k < len; k++) {
		if (s[k] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int json_parse(const char *fname, struct pass *p, struct rta_json *j, char *err,
		      size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error e;
	int line, col;
	size_t end;

	if (!tok)
		return -ENOMEM;
	j->root = json_tokener_parse_ex(tok, p->out, (int)p->nout);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (j->root && e == json_tokener_success)
		return 0;
	json_object_put(j->root);
	j->root = NULL;
	line_col(p->in, p->len, end < p->nout ? p->from[end] : p->len, &line, &col);
	util_errf(err, errlen, fname, NULL, line, col, "%s (rt-app reads its file with json-c, "
		  "which takes comments and trailing commas but not this)",
		  e == json_tokener_continue ? "the file ends inside a value"
					     : json_tokener_error_desc(e));
	return -EINVAL;
}

int rta__parse(const char *fname, const char *text, size_t len, struct rta_json *j, char *err,
	       size_t errlen)
{
	struct pass p = { .in = text, .len = len, .line = 1, .col = 1 };
	int e;

	memset(j, 0, sizeof(*j));
	if (len >= UINT32_MAX)
		return -EFBIG;
	while (!p.err && !p.lost && skip_blank(&p)) {
		token(&p);
		if (!p.depth && p.nout && !p.lost && !p.err)
			break;	/* the top object is whole */
	}
	if (!p.err && p.i < len)
		copy_in(&p, p.i, len);
	while (p.depth)
		pop(&p);
	e = p.err ? p.err : json_parse(fname, &p, j, err, errlen);
	free(p.out);
	free(p.from);
	if (e) {
		for (size_t k = 0; k < p.npos; k++)
			free(p.pos[k].path);
		free(p.pos);
		return e;
	}
	if (p.npos)
		qsort(p.pos, p.npos, sizeof(*p.pos), pos_cmp);
	j->pos = p.pos;
	j->npos = p.npos;
	return 0;
}

void rta__json_free(struct rta_json *j)
{
	json_object_put(j->root);
	for (size_t k = 0; k < j->npos; k++)
		free(j->pos[k].path);
	free(j->pos);
	memset(j, 0, sizeof(*j));
}

bool rta__where(const struct rta_json *j, const char *path, int *line, int *col)
{
	struct rta_pos key = { .path = (char *)path };
	const struct rta_pos *hit = j->npos ? bsearch(&key, j->pos, j->npos, sizeof(*j->pos),
						     pos_cmp) : NULL;

	*line = hit ? hit->line : 1;
	*col = hit ? hit->col : 1;
	return hit != NULL;
}
