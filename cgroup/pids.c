/* SPDX-License-Identifier: MIT */
/*
 * cgroup/pids.c - the pids controller (kernel/cgroup/pids.c): its css, present where the
 * parent enables pids, and its v2 files pids.max, pids.current, pids.events and
 * pids.events.local. A .cgs script never forks, so no limit is ever hit and the event counts
 * stay 0; pids.peak (a watermark that migrations raise by one transiently, charge before
 * uncharge) is not modelled and answers ENOENT like any file the model does not have.
 */
#include "cgroup/cg_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* PIDS_MAX = PID_MAX_LIMIT + 1, PID_MAX_LIMIT being 4 * 1024 * 1024 on 64-bit kernels */
#define PIDS_MAX (4LL * 1024 * 1024 + 1)

/* cgroup_mkdir() + pids_css_alloc(): a new css has no limit. */
void cg__pids_mkdir(struct cg_cgroup *c)
{
	c->has_pids = c->parent->subtree_control & CG_MASK(CG_CTRL_PIDS);
	c->pids_max = PIDS_MAX;
}

/* @c's subtree_control went from @old: "+pids" gives each child a new css, "-pids" kills it. */
void cg__pids_apply(struct cg_cgroup *c, cg_mask old)
{
	bool had = old & CG_MASK(CG_CTRL_PIDS);
	bool has = c->subtree_control & CG_MASK(CG_CTRL_PIDS);

	if (had == has)
		return;
	for (struct cg_cgroup *k = c->children; k; k = k->next) {
		k->has_pids = has;
		k->pids_max = PIDS_MAX;
	}
}

int cg__pids_check(const struct cg_hier *h, const struct cg_cgroup *c)
{
	if (h->sem == CG_SEM_V1 ? c->has_pids
				: c->has_pids != !!(c->parent->subtree_control &
						    CG_MASK(CG_CTRL_PIDS)))
		return -EUCLEAN;
	return c->pids_max < 0 || c->pids_max > PIDS_MAX ? -EUCLEAN : 0;
}

/* pids_max_write(): "max", else kstrtoll(base 0) in 0 .. PIDS_MAX - 1 (EINVAL outside). */
static int w_max(struct cg_hier *h, struct cg_cgroup *c, const char *v)
{
	char *copy = strdup(v), *s;
	long long limit = PIDS_MAX;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	if (strcmp(s, "max")) {
		r = cg__kstrtoll(s, 0, &limit);
		if (!r && (limit < 0 || limit >= PIDS_MAX))
			r = -EINVAL;
	}
	free(copy);
	if (r)
		return cg__bad_value(h, CG_RULE_PIDS_MAX_VALUE, r);
	c->pids_max = limit;
	return 0;
}

/* pids_max_show() */
static int r_max(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	if (c->pids_max >= PIDS_MAX)
		cg__buf_printf(b, "max\n");
	else
		cg__buf_printf(b, "%lld\n", c->pids_max);
	return 0;
}

/*
 * pids_current_read(): the counter that forks and migrations charge to a task's css and every
 * ancestor's. The csses with pids form the top of the tree (the top-down rule), so every task
 * below @c counts in @c's css: the live threads of @c's subtree.
 */
static int r_current(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	long long n = 0;

	(void)h;
	for (struct cg_cgroup *d = c; d; d = cg__next_pre(d, c))
		n += d->tasks.count;
	cg__buf_printf(b, "%lld\n", n);
	return 0;
}

/* __pids_events_show(): forks refused for the limit; a script never forks. */
static int r_events(struct cg_hier *h, struct cg_cgroup *c, struct cg__buf *b)
{
	(void)h;
	(void)c;
	cg__buf_printf(b, "max 0\n");
	return 0;
}

/* pids_files: the pids controller's cftypes on the v2 hierarchy, none on the root */
const struct cg__file_def cg__pids_files[] = {
	{ "pids.max", CG__SEM_V2 | CG__SEM_RFC, CG__F_PIDS | CG__F_NOT_ON_ROOT, r_max, w_max },
	{ "pids.current", CG__SEM_V2 | CG__SEM_RFC, CG__F_PIDS | CG__F_NOT_ON_ROOT, r_current,
	  NULL },
	{ "pids.events", CG__SEM_V2 | CG__SEM_RFC, CG__F_PIDS | CG__F_NOT_ON_ROOT, r_events,
	  NULL },
	{ "pids.events.local", CG__SEM_V2 | CG__SEM_RFC, CG__F_PIDS | CG__F_NOT_ON_ROOT,
	  r_events, NULL },
	{ .name = NULL },
};
