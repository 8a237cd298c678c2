/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/yaml.h - a YAML document as a tree of positioned nodes (libyaml's event parser
 * underneath), for the scenario loader.
 *
 * Every node remembers the line and column where it starts, so that any error found later
 * (an unknown key, a wrong type, a value out of range, an illegal layout) can name the place in
 * the file. Mappings keep their keys in file order; a key given twice is an error. Anchors and
 * aliases are refused (an alias can make a small file expand without bound), and so are tags
 * other than the plain ones. Limits on the input size, the number of nodes and the nesting
 * depth keep any input from exhausting memory or stack.
 */
#ifndef CGSIM_SIM_YAML_H
#define CGSIM_SIM_YAML_H

#include <stdbool.h>
#include <stddef.h>

#define YN_MAX_INPUT	(4u << 20)	/* bytes */
#define YN_MAX_NODES	1000000u
#define YN_MAX_DEPTH	32u
#define YN_MAX_SCALAR	4096u		/* bytes in one scalar */

enum yn_kind {
	YN_SCALAR,
	YN_SEQ,
	YN_MAP,
};

struct yn {
	enum yn_kind kind;
	int line;		/* 1-based */
	int col;		/* 1-based */
	char *str;		/* scalars: the text; map keys are scalars too */
	bool quoted;		/* scalars: written in quotes (so never a number or a bool) */
	const char *origin;	/* set by an override ("--set KEY=VALUE"): named in messages */
	struct yn **kids;	/* sequences: items; mappings: values, paired with keys[] */
	struct yn **keys;	/* mappings: the key scalars, in file order */
	size_t n;
	size_t cap;		/* kids[] (and keys[]) hold at least this many: grown by doubling */
};

/*
 * yn_parse() - parse @text (@len bytes, named @fname in messages) into a tree.
 * Returns the root node (an empty document is an empty mapping), or NULL with a message
 * "FNAME:LINE:COL: error: ..." in @err (size @errlen).
 */
struct yn *yn_parse(const char *fname, const char *text, size_t len, char *err, size_t errlen);
void yn_free(struct yn *n);

/* yn_get() - the value of key @key in mapping @map, NULL if absent (or @map is not a map). */
struct yn *yn_get(const struct yn *map, const char *key);

/* yn_map_add() - append the pair @key: @val (both taken over on success) to @map. 0 or -ENOMEM. */
int yn_map_add(struct yn *map, struct yn *key, struct yn *val);

/* yn_copy() - a deep copy of @n (positions and origins kept); NULL: ENOMEM. */
struct yn *yn_copy(const struct yn *n);
/* yn_new() - an empty sequence or mapping (@kind) at position (@line, @col); NULL: ENOMEM. */
struct yn *yn_new(enum yn_kind kind, int line, int col);
/* yn_seq_add() - append @item (taken over on success) to sequence @seq. 0 or -ENOMEM. */
int yn_seq_add(struct yn *seq, struct yn *item);

/* yn_new_scalar() - a scalar node holding a copy of @s at position (@line, @col); NULL: ENOMEM. */
struct yn *yn_new_scalar(const char *s, int line, int col);

/* yn_kind_name() - "a scalar", "a list", "a mapping". */
const char *yn_kind_name(enum yn_kind k);

#endif /* CGSIM_SIM_YAML_H */
