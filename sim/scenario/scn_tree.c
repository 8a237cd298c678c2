// SPDX-License-Identifier: MIT
/*
 * sim/scenario/scn_tree.c - the scenario loader's overrides (sim/scenario/scn_internal.h): a variant's set:
 * entries and the --set options, written into the YAML tree by dotted path before it is read.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scn_internal.h"

/* ---------------- overrides ---------------- */

/*
 * A dotted path split: @text is the path with a backslash and a dot read as a dot and two
 * backslashes as one, and sep[i] says whether text[i] is a dot that separates keys (an
 * escaped one never is: it is part of a key, as in a systemd unit's name, machine\.slice).
 */
struct dpath {
	char *text;
	bool *sep;
};

static bool dpath_make(struct dpath *d, const char *path)
{
	size_t n = strlen(path), k = 0;

	d->text = malloc(n + 1);
	d->sep = calloc(n + 1, sizeof(*d->sep));
	if (!d->text || !d->sep) {
		free(d->text);
		free(d->sep);
		return false;
	}
	for (size_t i = 0; i < n; i++, k++) {
		if (path[i] == '\\' && (path[i + 1] == '.' || path[i + 1] == '\\')) {
			d->text[k] = path[++i];
			continue;
		}
		d->text[k] = path[i];
		d->sep[k] = path[i] == '.';
	}
	d->text[k] = '\0';
	return true;
}

static void dpath_free(struct dpath *d)
{
	free(d->text);
	free(d->sep);
}

/* Whether the key of length @kl at @p of @d ends there: at the end or a separating dot. */
static bool key_ends(const struct dpath *d, const char *p, size_t kl)
{
	return !p[kl] || (p[kl] == '.' && d->sep[p + kl - d->text]);
}

/*
 * Find the node named by the dotted path @d below @root. Keys may hold dots themselves
 * (cpu.weight, a/b.c): at each level the longest key that matches a prefix of what is left,
 * up to a separating dot or the end, wins. A list is indexed by a number. When @create, a
 * missing last key is added to its mapping. Returns the slot that holds the node, with its
 * collection in *@parent; or NULL, with *@parent and *@lastkey (in @d->text) where a missing
 * key would go (NULL when it cannot).
 */
static struct yn **find_slot(struct yn *root, const struct dpath *d, bool create,
			     struct yn **parent, char **lastkey)
{
	struct yn *cur = root;
	const char *p = d->text;

	*parent = NULL;
	*lastkey = NULL;
	for (;;) {
		struct yn **slot = NULL;
		size_t best = 0;

		if (cur->kind == YN_MAP) {
			for (size_t i = 0; i < cur->n; i++) {
				size_t kl = strlen(cur->keys[i]->str);

				if (kl > best && !strncmp(p, cur->keys[i]->str, kl) &&
				    key_ends(d, p, kl)) {
					best = kl;
					slot = &cur->kids[i];
				}
			}
		} else if (cur->kind == YN_SEQ) {
			char *end;
			unsigned long idx = strtoul(p, &end, 10);

			if (end != p && key_ends(d, p, (size_t)(end - p)) && idx < cur->n) {
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
		if (!p[best]) {
			*parent = cur;
			return slot;
		}
		p += best + 1;
		cur = *slot;
	}
}

/* YAML's null, unquoted: ~ or null. As an override's value it removes the key. */
static bool is_null(const struct yn *v)
{
	return v->kind == YN_SCALAR && !v->quoted && (!strcmp(v->str, "~") ||
						      !strcmp(v->str, "null"));
}

/* Remove the entry at @slot of @coll (a mapping's key and value, or a list's item). */
static void remove_slot(struct yn *coll, struct yn **slot)
{
	size_t i = (size_t)(slot - coll->kids);

	yn_free(coll->kids[i]);
	if (coll->keys)
		yn_free(coll->keys[i]);
	memmove(&coll->kids[i], &coll->kids[i + 1], (coll->n - i - 1) * sizeof(*coll->kids));
	if (coll->keys)
		memmove(&coll->keys[i], &coll->keys[i + 1],
			(coll->n - i - 1) * sizeof(*coll->keys));
	coll->n--;
}

/* Put @val (owned) at @path; @at is where to point messages about a new key. */
/* Add @val to the cgroup entry @parent under the interface file name @file (all of it, dots
 * included: cpu.weight is one key). @val is consumed. */
static bool add_file(struct rd *r, struct yn *parent, const char *file, struct yn *val,
		     const struct yn *at)
{
	struct yn *fkey = yn_new_scalar(file, at->line, at->col);

	if (fkey)
		fkey->origin = at->origin;
	if (!fkey || yn_map_add(parent, fkey, val)) {
		yn_free(fkey);
		yn_free(val);
		return scn__bad(r, at, "out of memory");
	}
	return true;
}

static bool put_new(struct rd *r, struct yn *root, const struct dpath *d, struct yn *parent,
		    char *lastkey, struct yn *val, const struct yn *at);

static bool put_at(struct rd *r, struct yn *root, const char *path, struct yn *val,
		   const struct yn *at)
{
	struct yn *parent;
	char *lastkey;
	struct yn **slot;
	struct dpath d;
	bool ok;

	if (!dpath_make(&d, path)) {
		yn_free(val);
		return scn__bad(r, at, "out of memory");
	}
	slot = find_slot(root, &d, true, &parent, &lastkey);
	if (slot && is_null(val)) {
		/* ~: the key goes (a variant can take a file's setting away) */
		yn_free(val);
		remove_slot(parent, slot);
		ok = true;
	} else if (slot) {
		ok = (*slot)->kind == YN_SCALAR || val->kind != YN_SCALAR;
		if (ok) {
			yn_free(*slot);
			*slot = val;
		} else {
			yn_free(val);
			scn__bad(r, at, "'%s' is %s in the file; only scalars can be set", path,
				 yn_kind_name((*slot)->kind));
		}
	} else if (is_null(val)) {
		yn_free(val);
		ok = scn__bad(r, at, "'%s' names nothing to remove", path);
	} else if (!parent) {
		yn_free(val);
		ok = scn__bad(r, at, "'%s' names nothing in the file (a list entry is named by its "
			      "index, e.g. expect.0.share)", path);
	} else {
		ok = put_new(r, root, &d, parent, lastkey, val, at);
	}
	dpath_free(&d);
	return ok;
}

/*
 * Missing keys are added, as mappings down to the last, split at the separating dots. Under
 * cgroups: the next part is a cgroup path and the rest one interface file (cpu.weight).
 */
static bool put_new(struct rd *r, struct yn *root, const struct dpath *d, struct yn *parent,
		    char *lastkey, struct yn *val, const struct yn *at)
{
	/* a cgroup's entry takes the rest as one interface file name (cgroup.subtree_control) */
	const struct yn *cgs = yn_get(root, "cgroups");

	for (size_t i = 0; cgs && cgs->kind == YN_MAP && i < cgs->n; i++) {
		if (cgs->kids[i] != parent)
			continue;
		if (parent->kind != YN_MAP)
			break;
		return add_file(r, parent, lastkey, val, at);
	}
	while (*lastkey) {
		bool cgroups = parent == yn_get(root, "cgroups");
		const char *dot = lastkey;
		size_t len;
		bool last;
		char *name;
		struct yn *key, *child = NULL;

		while (*dot && !(*dot == '.' && d->sep[dot - d->text]))
			dot++;
		len = (size_t)(dot - lastkey);
		last = !*dot;
		name = strndup(lastkey, len);
		key = name ? yn_new_scalar(name, at->line, at->col) : NULL;
		free(name);
		if (key)
			key->origin = at->origin;
		if (!last && (child = yn_new(YN_MAP, val->line, val->col)))
			child->origin = val->origin;
		if (!key || (!last && !child) || yn_map_add(parent, key, last ? val : child)) {
			yn_free(key);
			yn_free(child);
			yn_free(val);
			return scn__bad(r, at, "out of memory");
		}
		if (last)
			return true;
		parent = child;
		lastkey = (char *)dot + 1;
		if (cgroups)
			return add_file(r, parent, lastkey, val, at);	/* the rest: one file name */
	}
	yn_free(val);
	return scn__bad(r, at, "a key of the override ends with a dot");
}

/* One value of the sweep written at one key (see apply_sweep_value()). */
static bool put_sweep_value(struct rd *r, struct yn *root, const struct yn *key,
			    const struct yn *v)
{
	struct yn *val;

	if (key->kind != YN_SCALAR || v->kind != YN_SCALAR)
		return scn__bad(r, v, "a sweep value is a scalar");
	val = yn_copy(v);
	if (!val)
		return scn__bad(r, v, "out of memory");
	val->quoted = false;
	return put_at(r, root, key->str, val, v);
}

/*
 * The sweep's value @k written at its key (or, for a list of keys, each of its parts at the
 * key of the same rank), as the file has it: the value's node, with its place, so that a value
 * that cannot be applied is reported where the file says it. Its text counts as --set text
 * would (a quoted "4" is still a number), since the values are words. scn__read_sweep() has
 * checked the shapes when the file was read; a variant's or --set's change to the sweep is
 * checked again here.
 */
static bool apply_sweep_value(struct rd *r, struct yn *root, size_t k)
{
	const struct yn *sw = yn_get(root, "sweep"), *key = yn_get(sw, "key");
	const struct yn *vals = yn_get(sw, "values"), *v;

	if (!key || !vals || vals->kind != YN_SEQ || k >= vals->n)
		return scn__bad(r, sw, "the sweep has no value %zu", k + 1);
	v = vals->kids[k];
	if (key->kind != YN_SEQ)
		return put_sweep_value(r, root, key, v);
	if (v->kind != YN_SEQ || v->n != key->n)
		return scn__bad(r, v, "a value of a sweep over %zu keys is a list of %zu values",
				key->n, key->n);
	for (size_t j = 0; j < key->n; j++)
		if (!put_sweep_value(r, root, key->kids[j], v->kids[j]))
			return false;
	return true;
}

/* @key: @val appended to @map, both taken over (freed on failure, and NULL ones fail). */
static bool add_pair(struct yn *map, struct yn *key, struct yn *val)
{
	if (key && val && !yn_map_add(map, key, val))
		return true;
	yn_free(key);
	yn_free(val);
	return false;
}

/*
 * --set sweep=KEY=V1,V2,... (what compare --sweep KEY=V1,V2,... gives): the file's sweep block,
 * or a new one, with KEY and the values, its target and metric kept, its labels dropped (they
 * were the file's values'). Each node names @origin in messages.
 */
static struct yn *sweep_block(struct rd *r, const struct yn *root, const char *spec,
			      const struct yn *at)
{
	const struct yn *old = yn_get(root, "sweep");
	const char *eq = strchr(spec, '=');
	struct yn *m, *vals;
	char *key;
	bool ok;

	if (!eq || eq == spec || !eq[1]) {
		scn__bad(r, at, "sweep takes KEY=V1,V2,... (e.g. --sweep scheduler.cgroup_mode="
			 "smp,concur), not '%s'", spec);
		return NULL;
	}
	m = yn_new(YN_MAP, 0, 0);
	vals = yn_new(YN_SEQ, 0, 0);
	key = strndup(spec, (size_t)(eq - spec));
	ok = m && vals && key;
	for (size_t i = 0; ok && old && old->kind == YN_MAP && i < old->n; i++) {
		const char *name = old->keys[i]->str;

		if (strcmp(name, "key") && strcmp(name, "values") && strcmp(name, "labels"))
			ok = add_pair(m, yn_copy(old->keys[i]), yn_copy(old->kids[i]));
	}
	for (const char *v = eq + 1; ok && v;) {
		const char *comma = strchr(v, ',');
		char *one = comma ? strndup(v, (size_t)(comma - v)) : strdup(v);
		struct yn *item = one ? yn_new_scalar(one, 0, 0) : NULL;

		free(one);
		ok = item && !yn_seq_add(vals, item);
		if (ok)
			item->origin = at->origin;
		else
			yn_free(item);
		v = comma ? comma + 1 : NULL;
	}
	ok = ok && add_pair(m, yn_new_scalar("key", 0, 0), yn_new_scalar(key, 0, 0));
	if (ok)
		m->kids[m->n - 1]->origin = at->origin;
	ok = ok && add_pair(m, yn_new_scalar("values", 0, 0), vals);
	vals = ok ? NULL : vals;	/* the map's now */
	free(key);
	if (!ok) {
		yn_free(vals);
		yn_free(m);
		scn__bad(r, at, "out of memory");
		return NULL;
	}
	m->origin = at->origin;
	return m;
}

/* Apply the variant's set: entries, the --set overrides, then the sweep's value @sweep. */
bool scn__apply_overrides(struct rd *r, struct yn *root, const char *variant,
			  const char *const *sets, size_t nsets, size_t sweep)
{
	/* the --set origins go after any the document has (a workload's places) */
	char **origins = realloc(r->sc->origins, (r->sc->norigins + nsets + 1) * sizeof(*origins));
	size_t base = r->sc->norigins;

	if (!origins)
		return scn__bad(r, NULL, "out of memory");
	r->sc->origins = origins;
	origins += base;
	if (variant && strcmp(variant, "base")) {
		const struct yn *vs = yn_get(root, "variants"), *body, *set;

		if (!vs || !(body = yn_get(vs, variant))) {
			char list[512] = "base";
			size_t len = 4;

			for (size_t i = 0; vs && vs->kind == YN_MAP && i < vs->n &&
					   len < sizeof(list) - 80; i++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, ", %s",
							vs->keys[i]->str);
			return scn__bad(r, NULL, "no variant '%s' (the file has: %s)", variant, list);
		}
		if (body->kind == YN_MAP && (set = yn_get(body, "set")) && set->kind == YN_MAP) {
			/* copy first: the overrides may replace parts of the variants section */
			struct yn *copy = yn_copy(set);

			if (!copy)
				return scn__bad(r, set, "out of memory");
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
			return scn__bad(r, NULL, "out of memory");
		r->sc->norigins = base + i + 1;
		sprintf(origins[i], "--set %s", sets[i]);
		at.origin = origins[i];
		if (!eq || eq == sets[i])
			return scn__bad(r, &at, "expected KEY=VALUE, e.g. --set machine.cpus=4");
		key = strndup(sets[i], (size_t)(eq - sets[i]));
		if (key && !strcmp(key, "sweep")) {
			val = sweep_block(r, root, eq + 1, &at);
			if (!val || !put_at(r, root, key, val, &at)) {
				free(key);
				return false;
			}
			free(key);
			continue;
		}
		val = yn_new_scalar(eq + 1, 0, 0);
		if (!key || !val) {
			free(key);
			yn_free(val);
			return scn__bad(r, &at, "out of memory");
		}
		val->origin = origins[i];
		if (!put_at(r, root, key, val, &at)) {
			free(key);
			return false;
		}
		free(key);
	}
	return sweep == SCN_NO_SWEEP || apply_sweep_value(r, root, sweep);
}
