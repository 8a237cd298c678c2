// SPDX-License-Identifier: MIT
/*
 * sim/scenario/transform.c - the interpose transform (sim/scenario/transform.h, docs/interpose.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/transform.h"
#include "sim/util/util.h"

static int fail(const struct scenario *sc, struct scn_pos pos, char *err, size_t errlen,
		const char *msg, const char *arg)
{
	util_errf(err, errlen, sc->file, pos.origin, pos.line, pos.col, msg, arg);
	return -EINVAL;
}

/* The parent path of @path ("" for a top-level cgroup). */
static size_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

static bool is_child_of(const char *c, const char *x)
{
	size_t n = strlen(x);

	if (!*c)
		return false;
	return parent_len(c) == n && !strncmp(c, x, n);
}

/* @c is @x or below it. */
static bool under(const char *c, const char *x)
{
	size_t n = strlen(x);

	return !*x || (!strncmp(c, x, n) && (c[n] == '/' || !c[n]));
}

static struct scn_cgroup *entry(struct scenario *sc, const char *path)
{
	for (size_t i = 0; i < sc->ncgroups; i++)
		if (!strcmp(sc->cgroups[i].path, path))
			return &sc->cgroups[i];
	return NULL;
}

/* Whether cgroup @x enables the cpu controller for its children in the scenario's writes. */
static bool enables_cpu(struct scenario *sc, const char *x)
{
	const struct scn_cgroup *cg = entry(sc, x);
	bool on = false;

	for (size_t j = 0; cg && j < cg->nwrites; j++) {
		const char *v = cg->writes[j].value;

		if (strcmp(cg->writes[j].file, "cgroup.subtree_control"))
			continue;
		for (const char *p = strstr(v, "cpu"); p; p = strstr(p + 1, "cpu"))
			if (p > v && (p[-1] == '+' || p[-1] == '-') &&
			    (p[3] == '\0' || p[3] == ' ' || p[3] == '\t'))
				on = p[-1] == '+';
	}
	return on;
}

/* The top-level cgroup below @x on the way to @c (c must be strictly under x): "x/t". */
static char *top_below(const char *c, const char *x)
{
	size_t n = *x ? strlen(x) + 1 : 0;
	const char *end = strchr(c + n, '/');
	size_t len = end ? (size_t)(end - c) : strlen(c);
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, c, len);
		s[len] = '\0';
	}
	return s;
}

/* Replace the prefix @from of path *@p by @to. */
static int rebase(char **p, const char *from, const char *to)
{
	size_t fl = strlen(from);
	char *n;

	if (!under(*p, from) || !*from)
		return 0;
	n = malloc(strlen(to) + strlen(*p) - fl + 1);
	if (!n)
		return -ENOMEM;
	strcpy(n, to);
	strcat(n, *p + fl);
	free(*p);
	*p = n;
	return 0;
}

/*
 * The threaded cgroups right below @x that hold some of @p's threads, each once: they move
 * under the new group. 0 with *@moved (malloc'ed, *@nmoved of them) set, or -ENOMEM.
 */
static int subtrees_to_move(const struct scn_process *p, const char *x, char ***moved,
			    size_t *nmoved)
{
	size_t cap = 0;

	*moved = NULL;
	*nmoved = 0;
	for (size_t j = 0; j < p->nthreads; j++) {
		const char *t = p->threads[j].cgroup;
		char *top;
		bool dup = false;

		if (!t || !under(t, x) || !strcmp(t, x))
			continue;
		top = top_below(t, x);
		if (!top)
			return -ENOMEM;
		for (size_t k = 0; k < *nmoved; k++)
			dup |= !strcmp((*moved)[k], top);
		if (dup) {
			free(top);
			continue;
		}
		if (UTIL_GROW(*moved, cap, *nmoved + 1)) {
			free(top);
			return -ENOMEM;
		}
		(*moved)[(*nmoved)++] = top;
	}
	return 0;
}

/*
 * The new group @c's entry, right after @x's own (or first, under the root): cpu.weight, and
 * +cpu in its subtree_control when threaded children move under it (they need cpu to weigh
 * their threads). @c is taken over. Its index in sc->cgroups, or -ENOMEM.
 */
static long add_group_entry(struct scenario *sc, const char *x, char *c,
			    const struct scn_variant *v, bool has_children)
{
	struct scn_cgroup *arr = realloc(sc->cgroups, (sc->ncgroups + 1) * sizeof(*arr));
	size_t at = 0;
	char w[16];

	if (!arr) {
		free(c);
		return -ENOMEM;
	}
	sc->cgroups = arr;
	for (size_t i = 0; i < sc->ncgroups; i++)
		if (!strcmp(sc->cgroups[i].path, x))
			at = i + 1;
	memmove(&arr[at + 1], &arr[at], (sc->ncgroups - at) * sizeof(*arr));
	sc->ncgroups++;
	memset(&arr[at], 0, sizeof(*arr));
	arr[at].path = c;
	arr[at].pos = v->pos;
	arr[at].writes = calloc(2, sizeof(*arr[at].writes));
	if (!arr[at].writes)
		return -ENOMEM;
	snprintf(w, sizeof(w), "%u", v->ipo_weight);
	arr[at].writes[0] = (struct scn_write){ strdup("cpu.weight"), strdup(w), v->pos };
	arr[at].nwrites = 1;
	if (has_children) {
		arr[at].writes[1] = (struct scn_write){ strdup("cgroup.subtree_control"),
							strdup("+cpu"), v->pos };
		arr[at].nwrites = 2;
	}
	for (size_t j = 0; j < arr[at].nwrites; j++)
		if (!arr[at].writes[j].file || !arr[at].writes[j].value)
			return -ENOMEM;
	return (long)at;
}

/* Rename subtree @from (right below @x) to below @to: its entries and where threads go. */
static int move_subtree(struct scenario *sc, struct scn_process *p, size_t at, const char *x,
			const char *from)
{
	const char *leaf = from + (*x ? strlen(x) + 1 : 0);
	char *to = malloc(strlen(sc->cgroups[at].path) + strlen(leaf) + 2);
	int e = 0;

	if (!to)
		return -ENOMEM;
	sprintf(to, "%s/%s", sc->cgroups[at].path, leaf);
	for (size_t i = 0; i < sc->ncgroups && !e; i++)
		if (i != at)
			e = rebase(&sc->cgroups[i].path, from, to);
	for (size_t j = 0; j < p->nthreads && !e; j++)
		if (p->threads[j].cgroup)
			e = rebase(&p->threads[j].cgroup, from, to);
	free(to);
	return e;
}

static int interpose_one(struct scenario *sc, struct scn_process *p, const struct scn_variant *v,
			 char *err, size_t errlen)
{
	const char *x = p->cgroup, *name = v->ipo_group ? v->ipo_group : p->name;
	char *c = malloc(strlen(x) + strlen(name) + 2), **moved = NULL;
	size_t nmoved = 0;
	long at;
	int e = -ENOMEM;

	if (!c)
		goto out;
	/* each interposed process adds a cgroup: stop at the limit, before the quadratic work */
	_Static_assert(SCN_MAX_CGROUPS == 10000, "the message below names the limit");
	if (sc->ncgroups >= SCN_MAX_CGROUPS) {
		e = fail(sc, v->pos, err, errlen, "interpose: more than %s cgroups (each process "
			 "interposed gets one)", "10000");
		goto out;
	}
	sprintf(c, "%s%s%s", x, *x ? "/" : "", name);
	if (entry(sc, c)) {
		e = fail(sc, v->pos, err, errlen, "interpose: cgroup '%s' exists already (choose "
			 "another with interpose: { group: NAME })", c);
		goto out;
	}
	if (subtrees_to_move(p, x, &moved, &nmoved))
		goto out;
	at = add_group_entry(sc, x, c, v, nmoved > 0);
	c = NULL;
	if (at < 0)
		goto out;
	for (size_t k = 0; k < nmoved; k++)
		if (move_subtree(sc, p, (size_t)at, x, moved[k]))
			goto out;
	free(p->cgroup);
	p->cgroup = strdup(sc->cgroups[at].path);
	e = p->cgroup ? 0 : -ENOMEM;
out:
	free(c);
	for (size_t k = 0; k < nmoved; k++)
		free(moved[k]);
	free(moved);
	if (e == -ENOMEM)
		snprintf(err, errlen, "cgsim: out of memory");
	return e;
}

int scn_interpose(struct scenario *sc, const struct scn_variant *v, char *err, size_t errlen)
{
	size_t done = 0;

	for (size_t i = 0; i < sc->nprocs; i++) {
		struct scn_process *p = &sc->procs[i];
		bool sibling = false;
		int e;

		if (v->ipo_process && strcmp(v->ipo_process, p->name))
			continue;
		/* its threads compete in X next to child groups of X that have cpu */
		if (!enables_cpu(sc, p->cgroup))
			continue;
		for (size_t k = 0; k < sc->ncgroups && !sibling; k++) {
			const char *cg = sc->cgroups[k].path;
			bool holds = false;

			if (!is_child_of(cg, p->cgroup))
				continue;
			for (size_t j = 0; j < p->nthreads; j++)
				holds |= p->threads[j].cgroup && under(p->threads[j].cgroup, cg);
			sibling = !holds;
		}
		if (!sibling)
			continue;
		e = interpose_one(sc, p, v, err, errlen);
		if (e)
			return e;
		done++;
	}
	if (!done)
		return fail(sc, v->pos, err, errlen, "variant '%s': interpose found no process "
			    "competing next to cgroups with the cpu controller (nothing to interpose)",
			    v->name);
	if (v->ipo_group && done > 1)
		return fail(sc, v->pos, err, errlen, "variant '%s': interpose: group: names one group "
			    "but several processes qualify; choose one with interpose: { process: NAME }",
			    v->name);
	return 0;
}
