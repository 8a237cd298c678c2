/* SPDX-License-Identifier: MIT */
/*
 * cgroup/tasks.c - processes and threads: their creation, names and pids, the
 * writes that migrate them (cgroup.procs, cgroup.threads, tasks) and cgroup.kill, with the
 * kernel's checks in the kernel's order (kernel/cgroup/cgroup.c).
 */
#include "cgroup/cg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- processes and threads --------------------------------------------------------------- */

/* Index in procs[] of the process called @name (@len bytes), or -1. */
static int proc_find(const struct cg_hier *h, const char *name, size_t len)
{
	if (!h->cap_slots)
		return -1;
	for (size_t i = cg__name_hash(name, len) & (size_t)(h->cap_slots - 1);;
	     i = (i + 1) & (size_t)(h->cap_slots - 1)) {
		int k = h->name_slots[i];

		if (k < 0)
			return -1;
		if (strlen(h->procs[k]->name) == len && !memcmp(h->procs[k]->name, name, len))
			return k;
	}
}

/* Room for @nprocs processes in the name table. */
static int slots_reserve(struct cg_hier *h, int nprocs)
{
	int cap = h->cap_slots, *slots;
	int r = cg__table_grow(nprocs, &slots, &cap);

	if (r <= 0)
		return r;
	for (int k = 0; k < h->nr_procs; k++) {
		const char *n = h->procs[k]->name;
		size_t i = cg__name_hash(n, strlen(n)) & (size_t)(cap - 1);

		while (slots[i] >= 0)
			i = (i + 1) & (size_t)(cap - 1);
		slots[i] = k;
	}
	free(h->name_slots);
	h->name_slots = slots;
	h->cap_slots = cap;
	return 0;
}

static bool valid_proc_name(const char *s, size_t len)
{
	if (len == 0 || len > 63 || isdigit((unsigned char)s[0]) || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

static int proc_new(struct cg_hier *h, const char *name, int nthreads)
{
	size_t len = strlen(name);
	struct cg_process *p;
	int pid;

	if (!valid_proc_name(name, len))
		return cg__refuse(h, CG_RULE_PROC_NAME, -EINVAL);
	if (nthreads < 1)
		return cg__refuse(h, CG_RULE_PROC_THREADS, -EINVAL);
	if (proc_find(h, name, len) >= 0)
		return cg__refuse(h, CG_RULE_PROC_EXISTS, -EEXIST);
	if (nthreads > cg_threads_left(h))
		return cg__refuse(h, CG_RULE_THREADS_MAX, -EAGAIN);
	if (slots_reserve(h, h->nr_procs + 1) ||
	    cg__grow((void **)&h->procs, &h->cap_procs, h->nr_procs + 1, sizeof(*h->procs)) ||
	    cg__grow((void **)&h->threads, &h->cap_threads, h->nr_threads + nthreads,
		 sizeof(*h->threads)))
		return -ENOMEM;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->name = strdup(name);
	p->threads = calloc((size_t)nthreads, sizeof(*p->threads));
	if (!p->name || !p->threads)
		goto fail;
	for (int i = 0; i < nthreads; i++) {
		p->threads[i] = calloc(1, sizeof(**p->threads));
		if (!p->threads[i])
			goto fail;
	}
	p->nthreads = nthreads;
	h->touched = true;
	pid = h->nr_threads;
	for (int i = 0; i < nthreads; i++) {
		struct cg_thread *t = p->threads[i];
		struct cg_event ev = { .kind = CG_EV_THREAD_NEW };

		t->tid = h->nr_threads;
		t->index = i + 1;
		t->proc = p;
		h->threads[h->nr_threads++] = t;
		cg__tasks_add(t, h->root);
		ev.thread = t->tid;
		ev.cgroup = 0;
		ev.new_tg = ev.old_tg = 0;
		cg__emit(h, &ev);
	}
	{
		size_t i = cg__name_hash(name, len) & (size_t)(h->cap_slots - 1);

		while (h->name_slots[i] >= 0)
			i = (i + 1) & (size_t)(h->cap_slots - 1);
		h->name_slots[i] = h->nr_procs;
	}
	h->procs[h->nr_procs++] = p;
	return pid;
fail:
	if (p->threads)
		for (int i = 0; i < nthreads; i++)
			free(p->threads[i]);
	free(p->threads);
	free(p->name);
	free(p);
	return -ENOMEM;
}

int cg_proc_new(struct cg_hier *h, const char *name, int nthreads)
{
	cg__begin(h);
	return cg__done(h, proc_new(h, name, nthreads));
}

static struct cg_thread *thread_get(const struct cg_hier *h, int tid)
{
	return tid >= 1 && tid < h->nr_threads ? h->threads[tid] : NULL;
}

/*
 * Find a process or thread the model knows by "NAME" or "NAME.N" (@len bytes); NULL when no
 * such name was ever created.
 */
static struct cg_thread *thread_by_name(const struct cg_hier *h, const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	size_t plen = dot ? (size_t)(dot - s) : len;
	unsigned long long n = 1;
	int k;

	if (dot) {
		char num[24];
		size_t nlen = len - plen - 1;

		if (nlen == 0 || nlen >= sizeof(num) || dot[1] == '0')
			return NULL;
		memcpy(num, dot + 1, nlen);
		num[nlen] = '\0';
		for (size_t i = 0; i < nlen; i++)
			if (!isdigit((unsigned char)num[i]))
				return NULL;
		n = strtoull(num, NULL, 10);
	}
	k = proc_find(h, s, plen);
	if (k < 0 || n < 1 || n > (unsigned long long)h->procs[k]->nthreads)
		return NULL;
	return h->procs[k]->threads[n - 1];
}

int cg_thread_lookup(const struct cg_hier *h, const char *name)
{
	struct cg_thread *t = thread_by_name(h, name, strlen(name));

	return t ? t->tid : -CG_ENONAME;
}

/* Does @s look like a process or thread name (as opposed to garbage the kernel would refuse)? */
static bool name_syntax(const char *s)
{
	const char *dot = strchr(s, '.');
	size_t plen = dot ? (size_t)(dot - s) : strlen(s);

	if (!valid_proc_name(s, plen))
		return false;
	if (dot) {
		if (!dot[1])
			return false;
		for (const char *q = dot + 1; *q; q++)
			if (!isdigit((unsigned char)*q))
				return false;
	}
	return true;
}

/*
 * cgroup_procs_write_start(): the buffer is stripped and must be a non-negative integer
 * (kstrtoint, base 0), else -EINVAL; 0 means the writer, which the model does not contain, and
 * an unknown pid is -ESRCH. The model also accepts a process or thread name in place of the
 * number; a name it never created is -CG_ENONAME, the name of a killed thread -ESRCH.
 */
int cg__task_lookup(struct cg_hier *h, const char *buf, struct cg_thread **out)
{
	char tmp[128];
	char *s;
	size_t n = strlen(buf);
	struct cg_thread *t;

	if (n >= sizeof(tmp))
		return cg__refuse(h, CG_RULE_PID_SYNTAX, -EINVAL);
	memcpy(tmp, buf, n + 1);
	s = cg__strstrip(tmp);
	if (*s && !name_syntax(s)) {
		long long pid;

		if (cg__kstrtoll(s, 0, &pid) || pid < 0 || pid > INT_MAX)
			return cg__refuse(h, CG_RULE_PID_SYNTAX, -EINVAL);
		t = thread_get(h, (int)pid);
		if (!t || t->dead)
			return cg__refuse(h, CG_RULE_NO_SUCH_TASK, -ESRCH);
		*out = t;
		return 0;
	}
	if (!*s)
		return cg__refuse(h, CG_RULE_PID_SYNTAX, -EINVAL);
	t = thread_by_name(h, s, strlen(s));
	if (!t)
		return cg__refuse(h, CG_RULE_NO_SUCH_NAME, -CG_ENONAME);
	if (t->dead)
		return cg__refuse(h, CG_RULE_NO_SUCH_TASK, -ESRCH);
	*out = t;
	return 0;
}

int cg_thread_max_id(const struct cg_hier *h)
{
	return h->nr_threads;
}

int cg_threads_left(const struct cg_hier *h)
{
	return h->max_threads - (h->nr_threads - 1);
}

bool cg_thread_alive(const struct cg_hier *h, int tid)
{
	const struct cg_thread *t = thread_get(h, tid);

	return t && !t->dead;
}

int cg_thread_cgroup(const struct cg_hier *h, int tid)
{
	const struct cg_thread *t = thread_get(h, tid);

	return t && !t->dead ? t->cg->id : -ESRCH;
}

const char *cg_thread_name(const struct cg_hier *h, int tid, char *buf, size_t len)
{
	const struct cg_thread *t = thread_get(h, tid);

	if (len)
		buf[0] = '\0';
	if (t)
		snprintf(buf, len, "%s.%d", t->proc->name, t->index);
	return buf;
}

int cg_thread_pid(const struct cg_hier *h, int tid)
{
	const struct cg_thread *t = thread_get(h, tid);

	return t ? t->proc->threads[0]->tid : -ESRCH;
}

int cg_thread_tg(const struct cg_hier *h, int tid)
{
	const struct cg_thread *t = thread_get(h, tid);

	return t && !t->dead ? cg__tg_of(t->cg) : -ESRCH;
}

bool cg_is_tg(const struct cg_hier *h, int cgroup)
{
	const struct cg_cgroup *c = cg__cg_get(h, cgroup);

	return c && c->has_cpu;
}

int cg_tg_parent(const struct cg_hier *h, int cgroup)
{
	const struct cg_cgroup *c = cg__cg_get(h, cgroup);

	return c && c->has_cpu && c->parent ? cg__tg_of(c->parent) : -1;
}

int cg_tg_params(const struct cg_hier *h, int cgroup, struct cg_cpu_params *out)
{
	const struct cg_cgroup *c = cg__cg_get(h, cgroup);

	if (!c || !c->has_cpu)
		return -ENOENT;
	*out = c->cpu;
	return 0;
}

/* Move @t to @dst and tell the observer (also when the task group stays the same: per-cgroup
 * accounting needs to know). */
static void attach(struct cg_hier *h, struct cg_thread *t, struct cg_cgroup *dst)
{
	struct cg_event ev = { .kind = CG_EV_THREAD_MOVED };

	if (t->cg == dst)
		return;
	ev.old_tg = cg__tg_of(t->cg);
	cg__tasks_del(t);
	cg__tasks_add(t, dst);
	ev.thread = t->tid;
	ev.cgroup = dst->id;
	ev.new_tg = cg__tg_of(dst);
	cg__emit(h, &ev);
}

/* ---- migration --------------------------------------------------------------------------- */

/* cgroup_migrate_vet_dst() */
static int vet_dst_v2(struct cg_hier *h, const struct cg_cgroup *dst)
{
	if (!cg__is_valid_domain(dst->dom_cgrp))
		return cg__refuse(h, CG_RULE_DOMAIN_INVALID, -EOPNOTSUPP);
	if (cg__can_be_thread_root(dst) || cg__is_threaded(dst))
		return 0;
	if (dst->subtree_control)
		return cg__refuse(h, CG_RULE_NO_INTERNAL_PROCESSES, -EBUSY);
	return 0;
}

/* The 2017 proposal: the thread root is the only way into a threaded subtree by process. */
static int vet_dst_rfc(struct cg_hier *h, const struct cg_cgroup *src,
		       const struct cg_cgroup *dst, bool threadgroup)
{
	if (!threadgroup) {
		if (!dst->rfc_root)
			return cg__refuse(h, CG_RULE_RFC_THREADS_OUTSIDE, -EINVAL);
		if (src->rfc_root != dst->rfc_root)
			return cg__refuse(h, CG_RULE_THREAD_DOMAIN, -EOPNOTSUPP);
		return 0;
	}
	if (dst->rfc_root)
		return dst->rfc_root == dst ? 0 : cg__refuse(h, CG_RULE_RFC_PROCS_MEMBER, -EINVAL);
	if (!cg__is_mixable(dst) && dst->subtree_control)
		return cg__refuse(h, CG_RULE_NO_INTERNAL_PROCESSES, -EBUSY);
	return 0;
}

/*
 * __cgroup_procs_write() / __cgroup1_procs_write(): find the task, take its group leader for a
 * whole-process move, vet the destination, refuse a thread move out of its resource domain,
 * then attach (every thread of the process when @threadgroup).
 */
int cg__procs_write(struct cg_hier *h, struct cg_cgroup *dst, const char *buf, bool threadgroup)
{
	struct cg_thread *t;
	struct cg_cgroup *src;
	int r = cg__task_lookup(h, buf, &t);

	if (r)
		return r;
	if (threadgroup)
		t = t->proc->threads[0];
	src = t->cg;
	switch (h->sem) {
	case CG_SEM_V2:
		r = vet_dst_v2(h, dst);
		if (!r && !threadgroup && src->dom_cgrp != dst->dom_cgrp)
			r = cg__refuse(h, CG_RULE_THREAD_DOMAIN, -EOPNOTSUPP);
		break;
	case CG_SEM_RFC2017:
		r = vet_dst_rfc(h, src, dst, threadgroup);
		break;
	case CG_SEM_V1:
		break;
	}
	if (r)
		return r;
	h->touched = true;
	if (threadgroup) {
		struct cg_process *p = t->proc;

		for (int i = 0; i < p->nthreads; i++)
			if (!p->threads[i]->dead)
				attach(h, p->threads[i], dst);
	} else {
		attach(h, t, dst);
	}
	return 0;
}

/* ---- cgroup.kill ------------------------------------------------------------------------- */

/*
 * cgroup_kill(): SIGKILL to every process whose leader is in the subtree (the iteration uses
 * CSS_TASK_ITER_PROCS | CSS_TASK_ITER_THREADED); a signal kills the whole thread group, so every
 * thread of those processes exits, wherever it sits. Refused in a threaded cgroup because it
 * is a process-directed operation (cgroup_kill_write()).
 */
int cg__kill(struct cg_hier *h, struct cg_cgroup *c)
{
	if (cg__member_like(h, c))
		return cg__refuse(h, CG_RULE_KILL_THREADED, -EOPNOTSUPP);
	for (int k = 0; k < h->nr_procs; k++) {
		struct cg_process *p = h->procs[k];
		struct cg_cgroup *a;

		if (p->dead)
			continue;
		for (a = p->threads[0]->cg; a && a != c; a = a->parent)
			;
		if (!a)
			continue;
		p->dead = true;
		for (int i = 0; i < p->nthreads; i++) {
			struct cg_thread *t = p->threads[i];
			struct cg_event ev = { .kind = CG_EV_THREAD_EXITED, .thread = t->tid };

			ev.cgroup = t->cg->id;
			ev.old_tg = cg__tg_of(t->cg);
			cg__tasks_del(t);
			t->dead = true;
			cg__emit(h, &ev);
		}
	}
	return 0;
}
