/* SPDX-License-Identifier: MIT */
/*
 * cgroup/control.c - what a cgroup enables for its subtree: thread mode
 * (cgroup.type), cgroup.subtree_control, and the rfc2017 proposal's "enable"/"disable" in
 * cgroup.threads (kernel/cgroup/cgroup.c).
 */
#include "cgroup/cg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- thread mode (v2) -------------------------------------------------------------------- */

/* cgroup_enable_threaded(), after cgroup_type_write() checked the value. */
int cg__enable_threaded(struct cg_hier *h, struct cg_cgroup *c)
{
	struct cg_cgroup *parent = c->parent;
	struct cg_cgroup *dom = parent->dom_cgrp;
	struct cg_event ev = { .kind = CG_EV_THREADED, .cgroup = c->id };

	if (cg__is_threaded(c))
		return 0;
	/*
	 * A populated cgroup or one with domain controllers cannot switch; checked explicitly
	 * because can_be_thread_root() below only catches it when the parent is not mixable.
	 */
	if (cg__is_populated(c))
		return cg__refuse(h, CG_RULE_TYPE_POPULATED, -EOPNOTSUPP);
	if (c->subtree_control & ~CG_THREADED_MASK)
		return cg__refuse(h, CG_RULE_TYPE_DOMAIN_CONTROLLERS, -EOPNOTSUPP);
	/* we join the parent's resource domain: it must be valid and able to be a thread root */
	if (!cg__is_valid_domain(dom) || !cg__can_be_thread_root(dom))
		return cg__refuse(h, CG_RULE_TYPE_PARENT, -EOPNOTSUPP);
	/* the cgroup and its already threaded descendants now belong to @dom (pre-order walk) */
	for (struct cg_cgroup *d = c; d; d = cg__next_pre(d, c))
		if (d == c || cg__is_threaded(d))
			d->dom_cgrp = dom;
	parent->nr_threaded_children++;
	cg__emit(h, &ev);
	return 0;
}

/* ---- subtree_control --------------------------------------------------------------------- */

/* Pre-order iteration over @root's subtree, @root included: for (d = root; d; d = next). */
struct cg_cgroup *cg__next_pre(struct cg_cgroup *d, const struct cg_cgroup *root)
{
	if (d->children)
		return d->children;
	while (d != root && !d->next)
		d = d->parent;
	return d == root ? NULL : d->next;
}

static void emit_moves(struct cg_hier *h, struct cg_cgroup *sub, int old_tg)
{
	for (struct cg_cgroup *d = sub; d; d = cg__next_pre(d, sub)) {
		for (struct cg_thread *t = d->tasks.head; t; t = t->next) {
			struct cg_event ev = { .kind = CG_EV_THREAD_MOVED, .thread = t->tid,
					       .cgroup = d->id, .old_tg = old_tg,
					       .new_tg = cg__tg_of(d) };
			if (ev.new_tg != ev.old_tg)
				cg__emit(h, &ev);
		}
	}
}

/*
 * Give or take the cpu css of @c's children after its subtree_control changed from @old. By
 * the top-down rules no grandchild has a cpu css on either side of the change, so every thread
 * below a child moves between @c's task group and that child's.
 */
static void apply_cpu_css(struct cg_hier *h, struct cg_cgroup *c, cg_mask old)
{
	bool had = old & CG_MASK(CG_CTRL_CPU);
	bool has = c->subtree_control & CG_MASK(CG_CTRL_CPU);
	int tg = cg__tg_of(c);

	if (had == has)
		return;
	for (struct cg_cgroup *k = c->children; k; k = k->next) {
		struct cg_event ev = { .cgroup = k->id, .parent_tg = tg };

		if (has) {
			k->has_cpu = true;
			cg__cpu_defaults(&k->cpu);
			ev.kind = CG_EV_TG_CREATED;
			cg__emit(h, &ev);
			emit_moves(h, k, tg);
		} else {
			int kt = k->id;

			k->has_cpu = false;
			emit_moves(h, k, kt);
			ev.kind = CG_EV_TG_DESTROYED;
			cg__emit(h, &ev);
		}
	}
}

/* cgroup_vet_subtree_control_enable() */
static int vet_enable_v2(struct cg_hier *h, const struct cg_cgroup *c, cg_mask enable)
{
	cg_mask domain_enable = enable & ~CG_THREADED_MASK;

	if (!enable)
		return 0;
	if (!cg__is_valid_domain(c->dom_cgrp))
		return cg__refuse(h, CG_RULE_DOMAIN_INVALID, -EOPNOTSUPP);
	if (cg__is_mixable(c))
		return 0;
	if (domain_enable) {
		/* no domain controllers inside a threaded subtree */
		if (cg__is_thread_root(c) || cg__is_threaded(c))
			return cg__refuse(h, CG_RULE_THREADED_DOMAIN_CONTROLLER, -EOPNOTSUPP);
	} else if (cg__can_be_thread_root(c) || cg__is_threaded(c)) {
		/* threaded controllers handle internal competition */
		return 0;
	}
	if (c->tasks.count)
		return cg__refuse(h, CG_RULE_NO_INTERNAL_PROCESSES, -EBUSY);
	return 0;
}

/* The February 2017 proposal: domain controllers are refused anywhere in a threaded subtree. */
static int vet_enable_rfc(struct cg_hier *h, const struct cg_cgroup *c, cg_mask enable)
{
	if (!enable)
		return 0;
	if (c->rfc_root)
		return (enable & ~CG_THREADED_MASK)
		       ? cg__refuse(h, CG_RULE_RFC_THREADED_DOMAIN_CONTROLLER, -EBUSY) : 0;
	if (cg__is_mixable(c) || !c->tasks.count)
		return 0;
	return cg__refuse(h, CG_RULE_NO_INTERNAL_PROCESSES, -EBUSY);
}

/* cgroup_subtree_control_write() */
int cg__subtree_control_write(struct cg_hier *h, struct cg_cgroup *c, const char *buf)
{
	cg_mask enable = 0, disable = 0, old;
	char *copy = strdup(buf), *s, *tok;
	int r;

	if (!copy)
		return -ENOMEM;
	s = cg__strstrip(copy);
	/* strsep(&buf, " "): tokens are separated by single spaces, empty ones skipped */
	for (tok = s; tok; tok = s) {
		enum cg_ctrl ss;

		s = strchr(tok, ' ');
		if (s)
			*s++ = '\0';
		if (!tok[0])
			continue;
		if (cg_ctrl_parse(tok + 1, &ss)) {
			free(copy);
			return cg__refuse(h, CG_RULE_CONTROL_SYNTAX, -EINVAL);
		}
		if (tok[0] == '+') {
			enable |= CG_MASK(ss);
			disable &= ~CG_MASK(ss);
		} else if (tok[0] == '-') {
			disable |= CG_MASK(ss);
			enable &= ~CG_MASK(ss);
		} else {
			free(copy);
			return cg__refuse(h, CG_RULE_CONTROL_SYNTAX, -EINVAL);
		}
	}
	free(copy);

	/* in subsystem order, as the kernel walks them */
	for (int ss = 0; ss < CG_CTRL_COUNT; ss++) {
		cg_mask m = CG_MASK(ss);

		if (enable & m) {
			if (c->subtree_control & m) {
				enable &= ~m;
				continue;
			}
			if (!(cg__control(h, c) & m))
				return cg__refuse(h, CG_RULE_CONTROL_NOT_AVAILABLE, -ENOENT);
		} else if (disable & m) {
			if (!(c->subtree_control & m)) {
				disable &= ~m;
				continue;
			}
			for (struct cg_cgroup *k = c->children; k; k = k->next)
				if (k->subtree_control & m)
					return cg__refuse(h, CG_RULE_CONTROL_USED_BELOW, -EBUSY);
		}
	}
	if (!enable && !disable)
		return 0;
	r = h->sem == CG_SEM_RFC2017 ? vet_enable_rfc(h, c, enable) : vet_enable_v2(h, c, enable);
	if (r)
		return r;
	h->touched = true;
	old = c->subtree_control;
	c->subtree_control = (c->subtree_control | enable) & ~disable;
	/* csses come and go in subsystem order: cpuset, then cpu (pids' own no one sees) */
	cg__cpuset_apply(h, c, old);
	apply_cpu_css(h, c, old);
	cg__pids_apply(c, old);
	return 0;
}

/* ---- rfc2017: "enable" / "disable" written to cgroup.threads ----------------------------- */

int cg__rfc_threads_mode(struct cg_hier *h, struct cg_cgroup *c, bool enable)
{
	if (enable) {
		if (c->rfc_root)
			return 0;
		if (c->children || c->subtree_control)
			return cg__refuse(h, CG_RULE_RFC_THREAD_ROOT_BUSY, -EBUSY);
		c->rfc_root = c;
		h->touched = true;
		{
			struct cg_event ev = { .kind = CG_EV_THREADED, .cgroup = c->id };
			cg__emit(h, &ev);
		}
		return 0;
	}
	if (!c->rfc_root)
		return 0;
	if (c->rfc_root != c)
		return cg__refuse(h, CG_RULE_RFC_NOT_THREAD_ROOT, -EINVAL);
	if (c->children || c->subtree_control)
		return cg__refuse(h, CG_RULE_RFC_THREAD_ROOT_BUSY, -EBUSY);
	c->rfc_root = NULL;
	return 0;
}
