// SPDX-License-Identifier: MIT
/*
 * sim/scenario/yaml.c - libyaml events to a tree of positioned nodes (sim/scenario/yaml.h).
 *
 * The builder keeps a stack of open collections. libyaml gives 0-based marks; nodes store them
 * 1-based, as editors and the error messages count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sim/util/util.h"
#include "sim/scenario/yaml.h"

struct builder {
	const char *fname;
	char *err;
	size_t errlen;
	size_t nodes;
	struct yn *stack[YN_MAX_DEPTH + 1];
	size_t depth;
	struct yn *root;
	bool failed;
};

static void fail_at(struct builder *b, int line, int col, const char *msg)
{
	if (!b->failed)
		util_errf(b->err, b->errlen, b->fname, NULL, line, col, "%s", msg);
	b->failed = true;
}

const char *yn_kind_name(enum yn_kind k)
{
	return k == YN_SCALAR ? "a scalar" : k == YN_SEQ ? "a list" : "a mapping";
}

void yn_free(struct yn *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		yn_free(n->kids[i]);
		if (n->keys)
			yn_free(n->keys[i]);
	}
	free(n->kids);
	free(n->keys);
	free(n->str);
	free(n);
}

static struct yn *node_new(struct builder *b, enum yn_kind kind, const yaml_mark_t *m)
{
	struct yn *n;

	if (++b->nodes > YN_MAX_NODES) {
		char msg[64];

		snprintf(msg, sizeof(msg), "the document has more than %u nodes", YN_MAX_NODES);
		fail_at(b, (int)m->line + 1, (int)m->column + 1, msg);
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n) {
		fail_at(b, (int)m->line + 1, (int)m->column + 1, "out of memory");
		return NULL;
	}
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

struct yn *yn_copy(const struct yn *n)
{
	struct yn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *n;
	c->str = NULL;
	c->kids = NULL;
	c->keys = NULL;
	c->n = 0;
	c->cap = n->n;
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

struct yn *yn_new(enum yn_kind kind, int line, int col)
{
	struct yn *n = calloc(1, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->line = line;
		n->col = col;
	}
	return n;
}

struct yn *yn_new_scalar(const char *s, int line, int col)
{
	struct yn *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->kind = YN_SCALAR;
	n->line = line;
	n->col = col;
	n->str = strdup(s);
	if (!n->str) {
		free(n);
		return NULL;
	}
	return n;
}

static int push_item(struct yn *parent, struct yn *item)
{
	if (UTIL_GROW(parent->kids, parent->cap, parent->n + 1))
		return -ENOMEM;
	parent->kids[parent->n++] = item;
	return 0;
}

int yn_seq_add(struct yn *seq, struct yn *item)
{
	return push_item(seq, item);
}

int yn_map_add(struct yn *map, struct yn *key, struct yn *val)
{
	size_t keys_cap = map->cap;	/* keys[] was grown with kids[] */

	if (UTIL_GROW(map->keys, keys_cap, map->n + 1) ||
	    UTIL_GROW(map->kids, map->cap, map->n + 1))
		return -ENOMEM;
	map->keys[map->n] = key;
	map->kids[map->n++] = val;
	return 0;
}

static int by_key_then_place(const void *a, const void *b)
{
	const struct yn *x = *(const struct yn *const *)a, *y = *(const struct yn *const *)b;
	int c = strcmp(x->str, y->str);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

static bool before(const struct yn *x, const struct yn *y)
{
	return x->line < y->line || (x->line == y->line && x->col < y->col);
}

/*
 * Every key a scalar, none given twice. The first offence in file order is reported, as a
 * reader going down the file meets it. Duplicates are found by sorting the keys (by text, then
 * place), so that a mapping of n keys costs O(n log n), not the O(n^2) of comparing each key
 * with every earlier one; the first duplicate in file order is the earliest second member of a
 * run of equal keys.
 */
static bool check_keys(struct builder *b, struct yn **keys, size_t n)
{
	size_t scalars = 0;
	struct yn **sorted, *dup = NULL, *first = NULL;

	if (!n)
		return true;
	while (scalars < n && keys[scalars]->kind == YN_SCALAR)
		scalars++;
	sorted = malloc((scalars ? scalars : 1) * sizeof(*sorted));
	if (!sorted) {
		fail_at(b, keys[0]->line, keys[0]->col, "out of memory");
		return false;
	}
	memcpy(sorted, keys, scalars * sizeof(*sorted));
	qsort(sorted, scalars, sizeof(*sorted), by_key_then_place);
	for (size_t i = 1; i < scalars; i++) {
		if (strcmp(sorted[i - 1]->str, sorted[i]->str) ||
		    (i >= 2 && !strcmp(sorted[i - 2]->str, sorted[i]->str)))
			continue;
		if (!dup || before(sorted[i], dup)) {
			dup = sorted[i];
			first = sorted[i - 1];
		}
	}
	free(sorted);
	if (dup) {
		char msg[YN_MAX_SCALAR + 96];

		snprintf(msg, sizeof(msg), "key '%s' given twice (first at line %d)", dup->str,
			 first->line);
		fail_at(b, dup->line, dup->col, msg);
		return false;
	}
	if (scalars < n) {
		fail_at(b, keys[scalars]->line, keys[scalars]->col,
			"a mapping key must be a plain scalar, not a list or a mapping");
		return false;
	}
	return true;
}

/*
 * A mapping is built as a flat sequence key, value, key, value, ... while it is open (the
 * builder does not know which is which until the count is even); close_map() splits it.
 */
static bool close_map(struct builder *b, struct yn *m)
{
	size_t pairs = m->n / 2;
	struct yn **keys = calloc(pairs ? pairs : 1, sizeof(*keys));
	struct yn **vals = calloc(pairs ? pairs : 1, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		fail_at(b, m->line, m->col, "out of memory");
		return false;
	}
	for (size_t i = 0; i < pairs; i++) {
		keys[i] = m->kids[2 * i];
		vals[i] = m->kids[2 * i + 1];
	}
	free(m->kids);
	m->kids = vals;
	m->keys = keys;
	m->n = pairs;
	m->cap = pairs ? pairs : 1;
	return check_keys(b, keys, pairs);
}

static void attach(struct builder *b, struct yn *n)
{
	if (!b->depth) {
		b->root = n;
		return;
	}
	if (push_item(b->stack[b->depth - 1], n)) {
		fail_at(b, n->line, n->col, "out of memory");
		yn_free(n);
	}
}

static bool open_node(struct builder *b, struct yn *n)
{
	if (b->depth >= YN_MAX_DEPTH) {
		fail_at(b, n->line, n->col, "nested deeper than 32 levels");
		yn_free(n);
		return false;
	}
	attach(b, n);
	if (b->failed)
		return false;
	b->stack[b->depth++] = n;
	return true;
}

/* Only untagged nodes: a tag (even !!int) would make a value's type differ from its text. */
static bool plain_tag(const yaml_char_t *tag)
{
	return !tag;
}

/* A scalar: a plain one (no anchor, no tag), of at most YN_MAX_SCALAR bytes, no NUL. */
static void scalar_event(struct builder *b, const yaml_event_t *ev)
{
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	struct yn *n;

	if (ev->data.scalar.anchor) {
		fail_at(b, line, col, "anchors and aliases are not supported");
		return;
	}
	if (!plain_tag(ev->data.scalar.tag)) {
		fail_at(b, line, col, "tags are not supported");
		return;
	}
	if (ev->data.scalar.length > YN_MAX_SCALAR) {
		fail_at(b, line, col, "a scalar longer than 4096 bytes");
		return;
	}
	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length)) {
		fail_at(b, line, col, "a scalar holds a NUL character");
		return;
	}
	n = node_new(b, YN_SCALAR, &ev->start_mark);
	if (!n)
		return;
	n->str = malloc(ev->data.scalar.length + 1);
	if (!n->str) {
		yn_free(n);
		fail_at(b, line, col, "out of memory");
		return;
	}
	memcpy(n->str, ev->data.scalar.value, ev->data.scalar.length);
	n->str[ev->data.scalar.length] = '\0';
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	attach(b, n);
}

static void event(struct builder *b, const yaml_event_t *ev)
{
	struct yn *n;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		scalar_event(b, ev);
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		const yaml_char_t *anchor = ev->type == YAML_SEQUENCE_START_EVENT
					    ? ev->data.sequence_start.anchor
					    : ev->data.mapping_start.anchor;
		const yaml_char_t *tag = ev->type == YAML_SEQUENCE_START_EVENT
					 ? ev->data.sequence_start.tag
					 : ev->data.mapping_start.tag;

		if (anchor || !plain_tag(tag)) {
			fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
				anchor ? "anchors and aliases are not supported"
				       : "tags are not supported");
			return;
		}
		n = node_new(b, ev->type == YAML_SEQUENCE_START_EVENT ? YN_SEQ : YN_MAP,
			     &ev->start_mark);
		if (n)
			open_node(b, n);
		break;
	}
	case YAML_SEQUENCE_END_EVENT:
		b->depth--;
		break;
	case YAML_MAPPING_END_EVENT:
		n = b->stack[--b->depth];
		close_map(b, n);
		break;
	case YAML_ALIAS_EVENT:
		fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			"anchors and aliases are not supported");
		break;
	case YAML_DOCUMENT_START_EVENT:
		if (b->root) {
			fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
				"only one YAML document per file");
		}
		break;
	case YAML_NO_EVENT:
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		break;
	}
}

/* Line and column (1-based) of byte @at of @text. */
static void place_of(const char *text, size_t at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < at; i++, (*col)++)
		if (text[i] == '\n') {
			(*line)++;
			*col = 0;
		}
}

/* libyaml's complaint about @text, at its place. */
static void syntax_error(struct builder *b, const yaml_parser_t *p, const char *text, size_t len)
{
	char msg[512];
	int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;

	snprintf(msg, sizeof(msg), "YAML syntax: %s%s%s", p->problem ? p->problem : "malformed input",
		 p->context ? " " : "", p->context ? p->context : "");
	if (p->error == YAML_READER_ERROR) {
		/* the reader gives a byte offset, not a mark: point at the start of the broken
		 * UTF-8 sequence */
		size_t at = p->problem_offset < len ? p->problem_offset : len;

		while (at && ((unsigned char)text[at - 1] & 0xc0) == 0x80)
			at--;
		if (at && (unsigned char)text[at - 1] >= 0xc0)
			at--;
		place_of(text, at, &line, &col);
	}
	fail_at(b, line, col, msg);
}

struct yn *yn_parse(const char *fname, const char *text, size_t len, char *err, size_t errlen)
{
	struct builder b = { .fname = fname, .err = err, .errlen = errlen };
	yaml_parser_t p;
	bool done = false;

	if (errlen)
		err[0] = '\0';
	if (len > YN_MAX_INPUT) {
		fail_at(&b, 1, 1, "the file is larger than 4 MiB");
		return NULL;
	}
	if (memchr(text, '\0', len)) {
		int line, col;

		place_of(text, (size_t)((const char *)memchr(text, '\0', len) - text), &line, &col);
		fail_at(&b, line, col, "the file holds a NUL byte (not a text file)");
		return NULL;
	}
	if (!yaml_parser_initialize(&p)) {
		fail_at(&b, 1, 1, "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!done && !b.failed) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			syntax_error(&b, &p, text, len);
			break;
		}
		event(&b, &ev);
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (b.failed) {
		/* the open collections hang from the root (attach() links before descending) */
		yn_free(b.root);
		return NULL;
	}
	if (!b.root) {
		struct yn *m = calloc(1, sizeof(*m));

		if (!m) {
			fail_at(&b, 1, 1, "out of memory");
			return NULL;
		}
		m->kind = YN_MAP;
		m->line = m->col = 1;
		b.root = m;
	}
	return b.root;
}

struct yn *yn_get(const struct yn *map, const char *key)
{
	if (!map || map->kind != YN_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i]->str, key))
			return map->kids[i];
	return NULL;
}
