/* SPDX-License-Identifier: MIT */
/*
 * cgroup/files_base.c - the core interface files of every cgroup, cgroup_base_files in
 * kernel/cgroup/cgroup.c (cgroup.procs, cgroup.threads, cgroup.subtree_control, ... and v1's
 * tasks): how each reads and how a write is parsed and checked. Where each exists is
 * files.c's.
 */
#include "cgroup/cg_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* kstrtoint(strstrip(buf), 0, ...) */
static int parse_int_stripped(const char *v, long long lo, long long hi, long long *out)
{
	char *copy = strdup(v);
	int r;

	if (!copy)
		return -ENOMEM;
	r = cg__kstrtoll(cg__strstrip(copy), 0, out);
	free(copy);
	if (!r && (*out < lo || *out > hi))
		r = -ERANGE;
	return r;
}

/* ---- name lists: pids and tids shown as names, sorted ------------------------------------ */

static int cmp_thread(const void *a, const void *b)
{
	const struct cg_thread *x = *(const struct cg_thread *const *)a;
	const struct cg_thread *y = *(const struct cg_thread *const *)b;
	int r = strcmp(x->proc->name, y->proc->name);

	return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* Print the threads of @v (@n of them) sorted; @procs prints each process once by name. */
static int print_tasks(struct cg__buf *b, struct cg_thread **v, size_t n, bool procs)
{
	const struct cg_process *last = NULL;

	qsort(v, n, sizeof(*v), cmp_thread);
	for (size_t i = 0; i < n; i++) {
		if (procs) {
			if (v[i]->proc != last)
				cg__buf_printf(b, "%s\n", v[i]->proc->name);
			last = v[i]->proc;
		} else {
			cg__buf_printf(b, "%s.%d\n", v[i]->proc->name, v[i]->index);
		}
	}
	free(v);
	return 0;
}

enum collect_mode {
	COLLECT_SELF,		/* the threads attached to @c itself */
	COLLECT_DOMAIN_LEADERS,	/* leaders in @c or in threaded cgroups whose domain is @c */
	COLLECT_SUBTREE,	/* every thread in @c's subtree */
};

/* Gather threads of @c into a malloc'ed array (*out, *n) for print_tasks(). */
static int collect(struct cg_cgroup *c, enum collect_mode mode, struct cg_thread ***out,
		   size_t *n)
{
	size_t cap = 16, k = 0;
	struct cg_thread **v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (struct cg_cgroup *d = c; d; d = mode == COLLECT_SELF ? NULL : cg__next_pre(d, c)) {
		if (mode == COLLECT_DOMAIN_LEADERS && d != c &&
		    !(cg__is_threaded(d) && d->dom_cgrp == c))
			continue;
		for (struct cg_thread *t = d->tasks.head; t; t = t->next) {
			if (mode == COLLECT_DOMAIN_LEADERS && t != t->proc->threads[0])
				continue;
			if (k == cap) {
				struct cg_thread **nv = realloc(v, 2 * cap * sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap *= 2;
			}
			v[k++] = t;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

static void print_mask(struct cg__buf *b, cg_mask m)
{
	bool first = true;

	for (int i = 0; i < CG_CTRL_COUNT; i++) {
		if (!(m & CG_MASK(i)))
			continue;
		cg__buf_printf(b, "%s%s", first ? "" : " ", cg_ctrl_name((enum cg_ctrl)i));
		first = false;
	}
	if (!first)
		cg__buf_add(b, "\n", 1);
}

/* ---- cgroup core files ------------------------------------------------------------------- */

static int r_type(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%s\n", cg__type_name(c));
	return 0;
}

/* cgroup_type_write(): only "threaded" (white space stripped) may be written. */
static int w_type(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	char *copy = strdup(v);
	int bad;

	if (!copy)
		return -ENOMEM;
	bad = strcmp(cg__strstrip(copy), "threaded");
	free(copy);
	if (bad)
		return cg__refuse(h, CG_RULE_TYPE_VALUE, -EINVAL);
	return cg__enable_threaded(h, c);
}

/*
 * cgroup.procs: v2 refuses the read in a threaded cgroup and, in a thread root, lists the
 * processes whose leader is anywhere in its threaded subtree (cgroup_procs_start with
 * CSS_TASK_ITER_PROCS | CSS_TASK_ITER_THREADED). rfc2017 refuses it inside a threaded subtree
 * (EINVAL) and lists every process with a thread in the subtree at its thread root. v1 lists
 * the process of every thread in the cgroup.
 */
static int r_procs(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	struct cg_thread **v;
	size_t n;
	int r;

	switch (h->sem) {
	case CG_SEM_V2:
		if (cg__is_threaded(c))
			return cg__refuse(h, CG_RULE_PROCS_THREADED, -EOPNOTSUPP);
		r = collect(c, COLLECT_DOMAIN_LEADERS, &v, &n);
		break;
	case CG_SEM_RFC2017:
		if (c->rfc_root && c->rfc_root != c)
			return cg__refuse(h, CG_RULE_RFC_PROCS_MEMBER, -EINVAL);
		/* every cgroup below a thread root is a member: a thread root takes its subtree */
		r = collect(c, c->rfc_root == c ? COLLECT_SUBTREE : COLLECT_SELF, &v, &n);
		break;
	default:
		r = collect(c, COLLECT_SELF, &v, &n);
		break;
	}
	if (r)
		return r;
	return print_tasks(b, v, n, true);
}

static int w_procs(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__procs_write(h, c, v, true);
}

/* cgroup.threads (and v1 tasks): the threads in this very cgroup. */
static int r_threads(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	struct cg_thread **v;
	size_t n;
	int r;

	if (h->sem == CG_SEM_RFC2017 && !c->rfc_root)
		return cg__refuse(h, CG_RULE_RFC_THREADS_OUTSIDE, -EINVAL);
	r = collect(c, COLLECT_SELF, &v, &n);
	if (r)
		return r;
	return print_tasks(b, v, n, false);
}

static int w_threads(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	if (h->sem == CG_SEM_RFC2017) {
		char *copy = strdup(v);
		int mode = 0;

		if (!copy)
			return -ENOMEM;
		if (!strcmp(cg__strstrip(copy), "enable"))
			mode = 1;
		else if (!strcmp(cg__strstrip(copy), "disable"))
			mode = 2;
		free(copy);
		if (mode)
			return cg__rfc_threads_mode(h, c, mode == 1);
	}
	return cg__procs_write(h, c, v, false);
}

static int r_controllers(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	print_mask(b, cg__control(h, c));
	return 0;
}

static int r_subtree_control(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	print_mask(b, c->subtree_control);
	return 0;
}

static int w_subtree_control(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__subtree_control_write(h, c, v);
}

/* A cgroup is frozen when it or an ancestor has cgroup.freeze 1 (the model freezes at once). */
static bool e_freeze(const struct cg_cgroup *c)
{
	for (; c; c = c->parent)
		if (c->freeze)
			return true;
	return false;
}

static int r_events(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "populated %d\nfrozen %d\n", cg__is_populated(c) ? 1 : 0,
		       e_freeze(c) ? 1 : 0);
	return 0;
}

static int r_max_count(struct cg__buf *b, int v)
{
	if (v == INT_MAX)
		cg__buf_printf(b, "max\n");
	else
		cg__buf_printf(b, "%d\n", v);
	return 0;
}

/* cgroup_max_descendants_write() / cgroup_max_depth_write(): "max" or kstrtoint >= 0. */
static int parse_max_count(const char *v, int *out)
{
	char *copy = strdup(v), *s;
	long long n;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	if (!strcmp(s, "max")) {
		*out = INT_MAX;
	} else {
		r = cg__kstrtoll(s, 0, &n);
		if (!r && (n < INT_MIN || n > INT_MAX))
			r = -ERANGE;
		if (!r && n < 0)
			r = -ERANGE;
		if (!r)
			*out = (int)n;
	}
	free(copy);
	return r;
}

static int r_max_depth(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	return r_max_count(b, c->max_depth);
}

static int w_max_depth(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__bad_value(h, CG_RULE_MAX_COUNT_VALUE, parse_max_count(v, &c->max_depth));
}

static int r_max_desc(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	return r_max_count(b, c->max_descendants);
}

static int w_max_desc(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	return cg__bad_value(h, CG_RULE_MAX_COUNT_VALUE, parse_max_count(v, &c->max_descendants));
}

/* Does cgroup @d have a css of controller @ss? Implicit perf_event is everywhere. */
static bool has_css(const struct cg_hier *h, const struct cg_cgroup *d, int ss)
{
	if (ss == CG_CTRL_PERF_EVENT)
		return true;
	if (!d->parent)
		return h->root_mask & CG_MASK(ss);
	return cg__control(h, d) & CG_MASK(ss);
}

/* cgroup_stat_show(): descendants and, per bound controller, the csses in the subtree. */
static int r_stat(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	cg_mask bound = h->root_mask | CG_MASK(CG_CTRL_PERF_EVENT);

	cg__buf_printf(b, "nr_descendants %d\n", c->nr_descendants);
	for (int ss = 0; ss < CG_CTRL_COUNT; ss++) {
		int n = 0;

		if (!(bound & CG_MASK(ss)))
			continue;
		for (struct cg_cgroup *d = c; d; d = cg__next_pre(d, c))
			n += has_css(h, d, ss);
		cg__buf_printf(b, "nr_subsys_%s %d\n", cg_ctrl_name((enum cg_ctrl)ss), n);
	}
	cg__buf_printf(b, "nr_dying_descendants 0\n");
	for (int ss = 0; ss < CG_CTRL_COUNT; ss++)
		if (bound & CG_MASK(ss))
			cg__buf_printf(b, "nr_dying_subsys_%s 0\n", cg_ctrl_name((enum cg_ctrl)ss));
	return 0;
}

/* cgroup_freeze_write(): 0 or 1, else -ERANGE. */
static int r_freeze(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	cg__buf_printf(b, "%d\n", c->freeze ? 1 : 0);
	return 0;
}

static int w_freeze(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long f;
	int r = parse_int_stripped(v, INT_MIN, INT_MAX, &f);

	if (r)
		return cg__bad_value(h, CG_RULE_FREEZE_VALUE, r);
	if (f < 0 || f > 1)
		return cg__refuse(h, CG_RULE_FREEZE_VALUE, -ERANGE);
	c->freeze = f;
	return 0;
}

/* cgroup_kill_write(): exactly 1, else -ERANGE. */
static int w_kill(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	long long k;
	int r = parse_int_stripped(v, INT_MIN, INT_MAX, &k);

	if (r)
		return cg__bad_value(h, CG_RULE_KILL_VALUE, r);
	if (k != 1)
		return cg__refuse(h, CG_RULE_KILL_VALUE, -ERANGE);
	return cg__kill(h, c);
}

const struct cg__file_def cg__base_files[] = {
	{ "cgroup.type", CG__SEM_V2, CG__F_NOT_ON_ROOT, r_type, w_type },
	{ "cgroup.procs", CG__SEM_V2 | CG__SEM_RFC | CG__SEM_V1, 0, r_procs, w_procs },
	{ "cgroup.threads", CG__SEM_V2 | CG__SEM_RFC, 0, r_threads, w_threads },
	{ "tasks", CG__SEM_V1, 0, r_threads, w_threads },
	{ "cgroup.controllers", CG__SEM_V2 | CG__SEM_RFC, 0, r_controllers, NULL },
	{ "cgroup.subtree_control", CG__SEM_V2 | CG__SEM_RFC, 0,
	  r_subtree_control, w_subtree_control },
	{ "cgroup.events", CG__SEM_V2 | CG__SEM_RFC, CG__F_NOT_ON_ROOT, r_events, NULL },
	{ "cgroup.max.descendants", CG__SEM_V2 | CG__SEM_RFC, 0, r_max_desc, w_max_desc },
	{ "cgroup.max.depth", CG__SEM_V2 | CG__SEM_RFC, 0, r_max_depth, w_max_depth },
	{ "cgroup.stat", CG__SEM_V2 | CG__SEM_RFC, 0, r_stat, NULL },
	{ "cgroup.freeze", CG__SEM_V2 | CG__SEM_RFC, CG__F_NOT_ON_ROOT, r_freeze, w_freeze },
	{ "cgroup.kill", CG__SEM_V2 | CG__SEM_RFC, CG__F_NOT_ON_ROOT, NULL, w_kill },
	{ .name = NULL },
};
