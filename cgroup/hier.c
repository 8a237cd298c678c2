/* SPDX-License-Identifier: MIT */
/*
 * cgroup/hier.c - the hierarchy: cgroups, their types, paths, creation and removal, and the
 * invariants (processes and threads are in tasks.c, what a cgroup enables in control.c).
 * Each rule names the kernel function (kernel/cgroup/cgroup.c unless said otherwise) whose
 * checks it repeats, in the same order, so that the first failing check gives the same errno
 * as the kernel.
 */
#include "cgroup/cg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ctrl_names[CG_CTRL_COUNT] = {
	[CG_CTRL_CPUSET] = "cpuset",	 [CG_CTRL_CPU] = "cpu",	      [CG_CTRL_IO] = "io",
	[CG_CTRL_MEMORY] = "memory",	 [CG_CTRL_PERF_EVENT] = "perf_event",
	[CG_CTRL_HUGETLB] = "hugetlb", [CG_CTRL_PIDS] = "pids",    [CG_CTRL_RDMA] = "rdma",
	[CG_CTRL_MISC] = "misc",
};

/* Controllers a v2 root offers by default: every one but the implicit perf_event. */
#define VISIBLE_MASK (((cg_mask)1u << CG_CTRL_COUNT) - 1 - CG_MASK(CG_CTRL_PERF_EVENT))

const char *cg_ctrl_name(enum cg_ctrl c)
{
	return (unsigned)c < CG_CTRL_COUNT ? ctrl_names[c] : "?";
}

int cg_ctrl_parse(const char *name, enum cg_ctrl *out)
{
	for (int i = 0; i < CG_CTRL_COUNT; i++) {
		if (!strcmp(name, ctrl_names[i])) {
			*out = (enum cg_ctrl)i;
			return 0;
		}
	}
	return -EINVAL;
}

int cg_semantics_parse(const char *name, enum cg_semantics *out)
{
	if (!strcmp(name, "v2"))
		*out = CG_SEM_V2;
	else if (!strcmp(name, "rfc2017"))
		*out = CG_SEM_RFC2017;
	else if (!strcmp(name, "v1"))
		*out = CG_SEM_V1;
	else
		return -EINVAL;
	return 0;
}

const char *cg_semantics_name(enum cg_semantics sem)
{
	switch (sem) {
	case CG_SEM_V2: return "v2";
	case CG_SEM_RFC2017: return "rfc2017";
	case CG_SEM_V1: return "v1";
	}
	return "?";
}

/* ---- predicates (kernel/cgroup/cgroup.c, same names without the cgroup_ prefix) ---------- */

bool cg__is_threaded(const struct cg_cgroup *c)
{
	return c->dom_cgrp != c;
}

/* The root is not under domain-level resource control: it may mix threads and domains. */
bool cg__is_mixable(const struct cg_cgroup *c)
{
	return c->parent == NULL;
}

/* cgroup_can_be_thread_root(): the cgroup's own tasks do not count, populated domain children
 * and domain controllers in its subtree_control do. */
bool cg__can_be_thread_root(const struct cg_cgroup *c)
{
	if (cg__is_mixable(c))
		return true;
	if (cg__is_threaded(c))
		return false;
	if (c->nr_populated_domain_children)
		return false;
	if (c->subtree_control & ~CG_THREADED_MASK)
		return false;
	return true;
}

/* cgroup_is_thread_root(): a threaded child, or tasks together with a threaded controller. */
bool cg__is_thread_root(const struct cg_cgroup *c)
{
	if (cg__is_threaded(c))
		return false;
	if (c->nr_threaded_children)
		return true;
	if (c->tasks.count && (c->subtree_control & CG_THREADED_MASK))
		return true;
	return false;
}

/* cgroup_is_valid_domain(): neither threaded itself nor below a threaded cgroup or a
 * non-root thread root. */
bool cg__is_valid_domain(const struct cg_cgroup *c)
{
	if (cg__is_threaded(c))
		return false;
	while ((c = c->parent)) {
		if (!cg__is_mixable(c) && cg__is_thread_root(c))
			return false;
		if (cg__is_threaded(c))
			return false;
	}
	return true;
}

bool cg__is_populated(const struct cg_cgroup *c)
{
	return c->tasks.count + c->nr_populated_domain_children +
	       c->nr_populated_threaded_children;
}

/* Threaded in the sense of the rule set: v2 threaded, rfc2017 a member below a thread root. */
bool cg__member_like(const struct cg_hier *h, const struct cg_cgroup *c)
{
	if (h->sem == CG_SEM_RFC2017)
		return c->rfc_root && c->rfc_root != c;
	if (h->sem == CG_SEM_V2)
		return cg__is_threaded(c);
	return false;
}

/* cgroup_control(): what cgroup.controllers shows and subtree_control may enable. */
cg_mask cg__control(const struct cg_hier *h, const struct cg_cgroup *c)
{
	cg_mask m;

	if (!c->parent)
		return h->root_mask;
	m = c->parent->subtree_control;
	if (cg__member_like(h, c))
		m &= CG_THREADED_MASK;
	return m;
}

/* cgroup_type_show(): the order of the tests matters (threaded wins over invalid). */
const char *cg__type_name(const struct cg_cgroup *c)
{
	if (cg__is_threaded(c))
		return "threaded";
	if (!cg__is_valid_domain(c))
		return "domain invalid";
	if (cg__is_thread_root(c))
		return "domain threaded";
	return "domain";
}

/* ---- hierarchy life cycle ---------------------------------------------------------------- */

void cg__cpu_defaults(struct cg_cpu_params *p)
{
	p->shares = 1024;	/* scale_load_down(NICE_0_LOAD): cpu.weight 100 */
	p->idle = false;
	p->quota_us = CG_QUOTA_MAX;
	p->period_us = 100000;	/* default_bw_period_us() */
	p->burst_us = 0;
}

void cg__emit(struct cg_hier *h, const struct cg_event *ev)
{
	if (h->obs)
		h->obs(h->obs_ctx, ev);
}

int cg__tg_of(const struct cg_cgroup *c)
{
	while (c->parent && !c->has_cpu)
		c = c->parent;
	return c->id;
}

int cg__grow(void **arr, int *cap, int need, size_t elem)
{
	void *p;
	int ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > INT_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static struct cg_cgroup *cgroup_alloc(struct cg_hier *h, const char *name, size_t len)
{
	struct cg_cgroup *c;

	if (cg__grow((void **)&h->cgroups, &h->cap_cgroups, h->nr_cgroups + 1, sizeof(*h->cgroups)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->name = malloc(len + 1);
	if (!c->name) {
		free(c);
		return NULL;
	}
	memcpy(c->name, name, len);
	c->name[len] = '\0';
	c->name_len = len;
	c->id = h->nr_cgroups;
	c->dom_cgrp = c;
	c->max_depth = INT_MAX;
	c->max_descendants = INT_MAX;
	cg__cpu_defaults(&c->cpu);
	h->cgroups[h->nr_cgroups++] = c;
	return c;
}

struct cg_hier *cg_hier_new(enum cg_semantics sem)
{
	struct cg_hier *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->sem = sem;
	h->root_mask = sem == CG_SEM_V1 ? CG_MASK(CG_CTRL_CPU) : VISIBLE_MASK;
	h->nr_threads = 1;	/* tid 0 is "the writer itself", never a model thread */
	h->max_threads = CG_MAX_THREADS;
	h->root = cgroup_alloc(h, "", 0);
	if (!h->root) {
		cg_hier_free(h);
		return NULL;
	}
	h->root->has_cpu = true;	/* the root task group always exists */
	cg__cpuset_init_root(h);
	return h;
}

void cg_hier_free(struct cg_hier *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->nr_cgroups; i++) {
		if (h->cgroups[i]) {
			free(h->cgroups[i]->name);
			free(h->cgroups[i]);
		}
	}
	for (int i = 1; i < h->nr_threads; i++)
		free(h->threads[i]);
	for (int i = 0; i < h->nr_procs; i++) {
		free(h->procs[i]->name);
		free(h->procs[i]->threads);
		free(h->procs[i]);
	}
	free(h->cgroups);
	free(h->threads);
	free(h->procs);
	free(h->name_slots);
	free(h->child_slots);
	free(h);
}

enum cg_semantics cg_hier_semantics(const struct cg_hier *h)
{
	return h->sem;
}

int cg_set_root_controllers(struct cg_hier *h, cg_mask mask)
{
	cg__begin(h);
	if (h->touched)
		return cg__done(h, cg__refuse(h, CG_RULE_ROOT_CONTROLLERS_FIXED, -EBUSY));
	if ((mask & CG_MASK(CG_CTRL_PERF_EVENT)) || (mask >> CG_CTRL_COUNT) ||
	    (h->sem == CG_SEM_V1 && mask != CG_MASK(CG_CTRL_CPU)))
		return cg__done(h, cg__refuse(h, CG_RULE_ROOT_CONTROLLERS_VALUE, -EINVAL));
	h->root_mask = mask;
	return cg__done(h, 0);
}

void cg_set_observer(struct cg_hier *h, cg_observer_fn *fn, void *ctx)
{
	h->obs = fn;
	h->obs_ctx = ctx;
}

void cg_set_stat_provider(struct cg_hier *h, cg_stat_fn *fn, void *ctx)
{
	h->stat = fn;
	h->stat_ctx = ctx;
}

/* ---- paths ------------------------------------------------------------------------------- */

uint64_t cg__name_hash(const char *s, size_t len)
{
	uint64_t x = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		x ^= (unsigned char)s[i];
		x *= 1099511628211ull;
	}
	return x;
}

static size_t child_hash(int parent, const char *name, size_t len, int cap)
{
	return (size_t)((cg__name_hash(name, len) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull)) &
			(uint64_t)(cap - 1));
}

static struct cg_cgroup *child_named(const struct cg_hier *h, const struct cg_cgroup *c,
				     const char *name, size_t len)
{
	if (!h->cap_child_slots)
		return NULL;
	for (size_t i = child_hash(c->id, name, len, h->cap_child_slots);;
	     i = (i + 1) & (size_t)(h->cap_child_slots - 1)) {
		int id = h->child_slots[i];
		struct cg_cgroup *k;

		if (id < 0)
			return NULL;
		k = h->cgroups[id];
		if (k->parent == c && k->name_len == len && !memcmp(k->name, name, len))
			return k;
	}
}

static void child_slot_put(int *slots, int cap, const struct cg_cgroup *c)
{
	size_t i = child_hash(c->parent->id, c->name, c->name_len, cap);

	while (slots[i] >= 0)
		i = (i + 1) & (size_t)(cap - 1);
	slots[i] = c->id;
}

/*
 * The open-addressing tables below are kept at most half full, sized in powers of two from 64.
 * When @n entries do not fit in @cap slots, *@slots gets a new table of every slot empty (-1)
 * and *@cap its size, for the caller to refill; 1 is returned. 0: they fit; -ENOMEM.
 */
int cg__table_grow(int n, int **slots, int *cap)
{
	int size = *cap ? *cap : 64;

	if (n * 2 <= *cap)
		return 0;
	while (n * 2 > size) {
		if (size > INT_MAX / 2)
			return -ENOMEM;
		size *= 2;
	}
	*slots = malloc((size_t)size * sizeof(**slots));
	if (!*slots)
		return -ENOMEM;
	for (int i = 0; i < size; i++)
		(*slots)[i] = -1;
	*cap = size;
	return 1;
}

/* Room for one more child entry. */
static int child_slots_reserve(struct cg_hier *h)
{
	int cap = h->cap_child_slots, *slots;
	int r = cg__table_grow(h->nr_child_slots + 1, &slots, &cap);

	if (r <= 0)
		return r;
	for (int id = 1; id < h->nr_cgroups; id++)
		if (h->cgroups[id])
			child_slot_put(slots, cap, h->cgroups[id]);
	free(h->child_slots);
	h->child_slots = slots;
	h->cap_child_slots = cap;
	return 0;
}

/*
 * Remove @c's entry. Linear probing without tombstones: the entries after the hole up to the
 * next empty slot move back when the hole lies on their probe path (between their home slot
 * and where they sit), so every remaining key stays reachable from its home slot.
 */
static void child_slot_remove(struct cg_hier *h, const struct cg_cgroup *c)
{
	size_t mask = (size_t)(h->cap_child_slots - 1);
	size_t hole = child_hash(c->parent->id, c->name, c->name_len, h->cap_child_slots);

	while (h->child_slots[hole] != c->id)
		hole = (hole + 1) & mask;
	for (size_t j = (hole + 1) & mask; h->child_slots[j] >= 0; j = (j + 1) & mask) {
		const struct cg_cgroup *k = h->cgroups[h->child_slots[j]];
		size_t home = child_hash(k->parent->id, k->name, k->name_len, h->cap_child_slots);

		/* k may fill the hole unless its home lies cyclically in (hole, j] */
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			h->child_slots[hole] = h->child_slots[j];
			hole = j;
		}
	}
	h->child_slots[hole] = -1;
	h->nr_child_slots--;
}

static bool is_file_name(const struct cg_hier *h, const struct cg_cgroup *c, const char *name,
			 size_t len)
{
	char buf[CG__NAME_MAX + 1];

	if (len > CG__NAME_MAX)
		return false;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return cg__file_exists(h, c, buf);
}

/*
 * Walk @path component by component as a path lookup in cgroupfs would: "" and "." stay,
 * ".." goes up (not above the root), a component naming an interface file is -ENOTDIR when
 * more follows, a missing one -ENOENT; *@why (when not NULL) gets the rule that refused.
 */
int cg__resolve(const struct cg_hier *h, const char *path, struct cg_cgroup **out,
		enum cg_rule *why)
{
	enum cg_rule dummy;
	struct cg_cgroup *c = h->root;
	const char *p = path;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		struct cg_cgroup *k;

		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* stay */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (c->parent)
				c = c->parent;
		} else if ((k = child_named(h, c, p, len))) {
			c = k;
		} else if (is_file_name(h, c, p, len)) {
			*(why ? why : &dummy) = CG_RULE_NOT_A_DIRECTORY;
			return -ENOTDIR;
		} else {
			*(why ? why : &dummy) = CG_RULE_NO_SUCH_CGROUP;
			return -ENOENT;
		}
		if (!e)
			break;
		p = e + 1;
	}
	*out = c;
	return 0;
}

int cg_lookup(const struct cg_hier *h, const char *path)
{
	struct cg_cgroup *c;
	int r = cg__resolve(h, path, &c, NULL);

	return r ? -ENOENT : c->id;
}

struct cg_cgroup *cg__cg_get(const struct cg_hier *h, int id)
{
	return id >= 0 && id < h->nr_cgroups ? h->cgroups[id] : NULL;
}

/* Write @c's path below the root at @pos; returns the new position (stops at the end of @buf). */
static size_t put_path(const struct cg_cgroup *c, char *buf, size_t len, size_t pos)
{
	int w;

	if (!c->parent)
		return pos;
	pos = put_path(c->parent, buf, len, pos);
	if (pos >= len)
		return pos;
	w = snprintf(buf + pos, len - pos, "%s%s", pos ? "/" : "", c->name);
	return w < 0 ? len : pos + (size_t)w;
}

const char *cg_path(const struct cg_hier *h, int cgroup, char *buf, size_t len)
{
	const struct cg_cgroup *c = cg__cg_get(h, cgroup);

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!c)
		return buf;
	if (!c->parent)
		snprintf(buf, len, "/");
	else
		put_path(c, buf, len, 0);
	return buf;
}

int cg_cgroup_parent(const struct cg_hier *h, int cgroup)
{
	const struct cg_cgroup *c = cg__cg_get(h, cgroup);

	return c && c->parent ? c->parent->id : -1;
}

bool cg_cgroup_alive(const struct cg_hier *h, int cgroup)
{
	return cg__cg_get(h, cgroup) != NULL;
}

int cg_cgroup_max_id(const struct cg_hier *h)
{
	return h->nr_cgroups;
}

/* ---- populated state (cgroup_update_populated) ------------------------------------------- */

/*
 * @c's own task count just changed; it was populated iff @was. Carry the change upward: a
 * populated child is counted once in its parent, as domain or threaded, and the walk stops at
 * the first cgroup whose populated state does not change, as in the kernel.
 */
static void propagate_populated(struct cg_cgroup *c, bool was)
{
	while (c->parent && was != cg__is_populated(c)) {
		struct cg_cgroup *p = c->parent;
		int adj = cg__is_populated(c) ? 1 : -1;

		was = cg__is_populated(p);
		if (cg__is_threaded(c))
			p->nr_populated_threaded_children += adj;
		else
			p->nr_populated_domain_children += adj;
		c = p;
	}
}

void cg__tasks_del(struct cg_thread *t)
{
	struct cg_cgroup *c = t->cg;
	bool was = cg__is_populated(c);

	if (t->prev)
		t->prev->next = t->next;
	else
		c->tasks.head = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->next = t->prev = NULL;
	t->cg = NULL;
	c->tasks.count--;
	propagate_populated(c, was);
}

void cg__tasks_add(struct cg_thread *t, struct cg_cgroup *c)
{
	bool was = cg__is_populated(c);

	t->cg = c;
	t->prev = NULL;
	t->next = c->tasks.head;
	if (c->tasks.head)
		c->tasks.head->prev = t;
	c->tasks.head = t;
	c->tasks.count++;
	propagate_populated(c, was);
}

/* ---- mkdir / rmdir ----------------------------------------------------------------------- */

/*
 * cgroup_check_hierarchy_limits(): every ancestor's max.descendants and max.depth. @level is
 * the depth of the new cgroup's parent below each ancestor, so max.depth 1 allows children and
 * refuses grandchildren (checked on a 6.18 kernel).
 */
static enum cg_rule hierarchy_limits(const struct cg_cgroup *parent)
{
	int level = 0;

	for (const struct cg_cgroup *c = parent; c; c = c->parent) {
		if (c->nr_descendants >= c->max_descendants)
			return CG_RULE_MAX_DESCENDANTS;
		if (level >= c->max_depth)
			return CG_RULE_MAX_DEPTH;
		level++;
	}
	return CG_RULE_NONE;
}

static void split_last(const char *path, char *dir, size_t dlen, const char **last)
{
	const char *end = path + strlen(path);
	const char *slash;

	while (end > path && end[-1] == '/')
		end--;
	slash = end;
	while (slash > path && slash[-1] != '/')
		slash--;
	*last = slash;
	snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
}

#define CG_MAX_PATH 4096

static int do_mkdir(struct cg_hier *h, const char *path)
{
	char dir[CG_MAX_PATH], name[CG__NAME_MAX + 2];
	const char *last;
	struct cg_cgroup *parent, *c;
	enum cg_rule why = CG_RULE_NONE;
	size_t len;
	int r;

	if (strlen(path) >= CG_MAX_PATH)
		return cg__refuse(h, CG_RULE_PATH_TOO_LONG, -ENAMETOOLONG);
	split_last(path, dir, sizeof(dir), &last);
	len = strcspn(last, "/");
	r = cg__resolve(h, dir, &parent, &why);
	if (r)
		return cg__refuse(h, why, r);
	if (len == 0 || (len == 1 && last[0] == '.') || (len == 2 && !memcmp(last, "..", 2)))
		return cg__refuse(h, CG_RULE_NAME_EXISTS, -EEXIST); /* the VFS finds . and .. */
	if (len > CG__NAME_MAX)
		return cg__refuse(h, CG_RULE_PATH_TOO_LONG, -ENAMETOOLONG);
	memcpy(name, last, len);
	name[len] = '\0';
	if (child_named(h, parent, name, len) || cg__file_exists(h, parent, name))
		return cg__refuse(h, CG_RULE_NAME_EXISTS, -EEXIST);
	/* cgroup_mkdir(): '\n' would make /proc/PID/cgroup unparsable */
	if (strchr(name, '\n'))
		return cg__refuse(h, CG_RULE_NAME_NEWLINE, -EINVAL);
	why = hierarchy_limits(parent);
	if (why != CG_RULE_NONE)
		return cg__refuse(h, why, -EAGAIN);
	if (child_slots_reserve(h))
		return -ENOMEM;
	c = cgroup_alloc(h, name, len);
	if (!c)
		return -ENOMEM;
	h->touched = true;
	c->parent = parent;
	c->level = parent->level + 1;
	c->prev = parent->last_child;
	if (parent->last_child)
		parent->last_child->next = c;
	else
		parent->children = c;
	parent->last_child = c;
	child_slot_put(h->child_slots, h->cap_child_slots, c);
	h->nr_child_slots++;
	for (struct cg_cgroup *a = parent; a; a = a->parent)
		a->nr_descendants++;
	/* rfc2017: everything created below a thread root belongs to its threaded subtree */
	if (h->sem == CG_SEM_RFC2017)
		c->rfc_root = parent->rfc_root;
	c->has_cpu = h->sem == CG_SEM_V1 ||
		     (parent->subtree_control & CG_MASK(CG_CTRL_CPU));
	cg__cpuset_mkdir(c);
	cg__pids_mkdir(c);
	if (c->has_cpu) {
		struct cg_event ev = { .kind = CG_EV_TG_CREATED, .cgroup = c->id,
				       .parent_tg = cg__tg_of(parent) };
		cg__emit(h, &ev);
	}
	return 0;
}

int cg_mkdir(struct cg_hier *h, const char *path)
{
	cg__begin(h);
	return cg__done(h, do_mkdir(h, path));
}

static int do_rmdir(struct cg_hier *h, const char *path)
{
	struct cg_cgroup *c, *p;
	enum cg_rule why = CG_RULE_NONE;
	int r = cg__resolve(h, path, &c, &why);

	if (r)
		return cg__refuse(h, why, r);
	if (!c->parent)
		return cg__refuse(h, CG_RULE_RMDIR_ROOT, -EBUSY);	/* the mount point */
	/* cgroup_destroy_locked() */
	if (cg__is_populated(c))
		return cg__refuse(h, CG_RULE_RMDIR_POPULATED, -EBUSY);
	if (c->children)
		return cg__refuse(h, CG_RULE_RMDIR_CHILDREN, -EBUSY);
	p = c->parent;
	if (cg__is_threaded(c))
		p->nr_threaded_children--;
	if (c->prev)
		c->prev->next = c->next;
	else
		p->children = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		p->last_child = c->prev;
	child_slot_remove(h, c);
	for (struct cg_cgroup *a = p; a; a = a->parent)
		a->nr_descendants--;
	if (c->has_cpu) {
		struct cg_event ev = { .kind = CG_EV_TG_DESTROYED, .cgroup = c->id,
				       .parent_tg = cg__tg_of(p) };
		cg__emit(h, &ev);
	}
	h->cgroups[c->id] = NULL;
	free(c->name);
	free(c);
	return 0;
}

int cg_rmdir(struct cg_hier *h, const char *path)
{
	cg__begin(h);
	return cg__done(h, do_rmdir(h, path));
}

/* ---- invariants -------------------------------------------------------------------------- */

int cg_check(const struct cg_hier *h)
{
	int nthreads = 0;

	for (int i = 0; i < h->nr_cgroups; i++) {
		const struct cg_cgroup *c = h->cgroups[i];
		int n = 0, pd = 0, pt = 0, nthr = 0, ndesc = 0;

		if (!c)
			continue;
		if (c->id != i || (c->parent && h->cgroups[c->parent->id] != c->parent))
			return -EUCLEAN;
		for (const struct cg_thread *t = c->tasks.head; t; t = t->next) {
			if (t->cg != c || t->dead || (t->next && t->next->prev != t))
				return -EUCLEAN;
			n++;
		}
		if (n != c->tasks.count)
			return -EUCLEAN;
		nthreads += n;
		for (const struct cg_cgroup *k = c->children; k; k = k->next) {
			if (k->parent != c || (k->next && k->next->prev != k))
				return -EUCLEAN;
			if (cg__is_populated(k)) {
				if (cg__is_threaded(k))
					pt++;
				else
					pd++;
			}
			if (cg__is_threaded(k))
				nthr++;
		}
		for (const struct cg_cgroup *d = c; d; d = cg__next_pre((struct cg_cgroup *)d, c))
			ndesc += d != c;
		if (pd != c->nr_populated_domain_children ||
		    pt != c->nr_populated_threaded_children || ndesc != c->nr_descendants)
			return -EUCLEAN;
		if (h->sem == CG_SEM_V2 && nthr != c->nr_threaded_children)
			return -EUCLEAN;
		/* a threaded cgroup's domain is a non-threaded ancestor */
		if (cg__is_threaded(c)) {
			const struct cg_cgroup *a = c->parent;

			while (a && a != c->dom_cgrp)
				a = a->parent;
			if (!a || cg__is_threaded(a))
				return -EUCLEAN;
		}
		/* top-down: subtree_control is within what the cgroup is offered */
		if (h->sem != CG_SEM_V1 && (c->subtree_control & ~cg__control(h, c)))
			return -EUCLEAN;
		if (h->sem != CG_SEM_V1 && c->parent &&
		    c->has_cpu != !!(c->parent->subtree_control & CG_MASK(CG_CTRL_CPU)))
			return -EUCLEAN;
		if (cg__cpuset_check(h, c) || (c->parent && cg__pids_check(h, c)))
			return -EUCLEAN;
	}
	for (int tid = 1; tid < h->nr_threads; tid++) {
		const struct cg_thread *t = h->threads[tid];

		if (t->tid != tid || (!t->dead && !t->cg) || (t->dead && t->cg))
			return -EUCLEAN;
		nthreads -= !t->dead;
	}
	return nthreads ? -EUCLEAN : 0;
}
