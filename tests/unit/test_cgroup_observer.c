// SPDX-License-Identifier: MIT
/*
 * Unit tests of what the cgroup model tells its observer (cg_set_observer()).
 *
 * A task group is a cgroup with a cpu css: one whose parent has cpu in its subtree_control
 * (docs/cgroup-model.md, cgroup_control; the root always). The events follow from that
 * rule: a css appears (TG_CREATED) when cpu is enabled above an existing cgroup or a cgroup is
 * made under a parent that enables cpu; a thread's task group (nearest ancestor-or-self with a
 * cpu css) changes when it moves or when csses appear or go (THREAD_MOVED); a css goes
 * (TG_DESTROYED) on rmdir or when cpu is disabled, after its threads have been moved out.
 * A failed operation changes nothing and reports nothing.
 */
#include "tests/unit/cg_test_util.h"

TestSuite(cg_observer, .fini = cgt_fini);

#define REC_MAX 64

struct rec {
	struct cg_event ev[REC_MAX];
	int n;
};

static void record(void *ctx, const struct cg_event *ev)
{
	struct rec *r = ctx;

	if (r->n < REC_MAX)
		r->ev[r->n] = *ev;
	r->n++;
}

static void rec_start(struct cg_hier *h, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	cg_set_observer(h, record, r);
}

static void rec_clear(struct rec *r)
{
	memset(r, 0, sizeof(*r));
}

static int rec_count(const struct rec *r, enum cg_event_kind kind)
{
	int n = 0;

	cr_assert_leq(r->n, REC_MAX, "too many events: %d", r->n);
	for (int i = 0; i < r->n; i++)
		n += r->ev[i].kind == kind;
	return n;
}

/* Index of the event of @kind about @cgroup (TG events) or @thread (thread events), or -1. */
static int rec_find(const struct rec *r, enum cg_event_kind kind, int cgroup, int thread)
{
	for (int i = 0; i < r->n && i < REC_MAX; i++) {
		const struct cg_event *e = &r->ev[i];

		if (e->kind != kind)
			continue;
		if (thread > 0 ? e->thread == thread : e->cgroup == cgroup)
			return i;
	}
	return -1;
}

static const struct cg_event *rec_expect(const struct rec *r, enum cg_event_kind kind,
					 int cgroup, int thread)
{
	int i = rec_find(r, kind, cgroup, thread);

	cr_assert_geq(i, 0, "no event of kind %d for cgroup %d / thread %d (%d events)", kind,
		      cgroup, thread, r->n);
	return &r->ev[i];
}

static void expect_moved(const struct rec *r, int thread, int old_tg, int new_tg, int cgroup)
{
	const struct cg_event *e = rec_expect(r, CG_EV_THREAD_MOVED, -1, thread);

	cr_assert_eq(e->old_tg, old_tg, "thread %d: old_tg %d, want %d", thread, e->old_tg,
		     old_tg);
	cr_assert_eq(e->new_tg, new_tg, "thread %d: new_tg %d, want %d", thread, e->new_tg,
		     new_tg);
	cr_assert_eq(e->cgroup, cgroup, "thread %d: cgroup %d, want %d", thread, e->cgroup,
		     cgroup);
}

Test(cg_observer, proc_new_emits_thread_new_in_root_group)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;

	rec_start(h, &r);
	assert_proc(h, "P", 2, 1);
	cr_assert_eq(r.n, 2);
	for (int tid = 1; tid <= 2; tid++) {
		const struct cg_event *e = rec_expect(&r, CG_EV_THREAD_NEW, -1, tid);

		cr_assert_eq(e->new_tg, 0);
	}
	cg_set_observer(h, NULL, NULL);
	assert_proc(h, "Q", 1, 3);
	cr_assert_eq(r.n, 2, "events after cg_set_observer(NULL)");
	cgt_end(h);
}

Test(cg_observer, enabling_cpu_creates_groups_and_moves_threads_inside)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a, b, c;

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "Q", 1, 3);
	assert_proc(h, "R", 1, 4);
	assert_proc(h, "S", 1, 5);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/C", 0);
	assert_mkdir(h, "B", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "B/cgroup.procs", "Q", 0);
	assert_write(h, "A/C/cgroup.procs", "S", 0);
	a = cgt_id(h, "A");
	b = cgt_id(h, "B");
	c = cgt_id(h, "A/C");
	rec_start(h, &r);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	/* A and B get a cpu css; A/C does not (A does not enable cpu). */
	cr_assert_eq(rec_count(&r, CG_EV_TG_CREATED), 2);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, a, 0)->parent_tg, 0);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, b, 0)->parent_tg, 0);
	cr_assert_eq(rec_find(&r, CG_EV_TG_CREATED, c, 0), -1);
	/* Every thread whose nearest cpu css changed: those of A, B and A/C, not R's. */
	cr_assert_eq(rec_count(&r, CG_EV_THREAD_MOVED), 4);
	expect_moved(&r, 1, 0, a, a);
	expect_moved(&r, 2, 0, a, a);
	expect_moved(&r, 3, 0, b, b);
	expect_moved(&r, 5, 0, a, c);
	cr_assert_eq(rec_find(&r, CG_EV_THREAD_MOVED, -1, 4), -1);
	/* A group exists before threads move into it. */
	cr_assert_lt(rec_find(&r, CG_EV_TG_CREATED, a, 0), rec_find(&r, CG_EV_THREAD_MOVED, -1, 1));
	cr_assert_lt(rec_find(&r, CG_EV_TG_CREATED, a, 0), rec_find(&r, CG_EV_THREAD_MOVED, -1, 5));
	cr_assert_lt(rec_find(&r, CG_EV_TG_CREATED, b, 0), rec_find(&r, CG_EV_THREAD_MOVED, -1, 3));
	cr_assert_eq(r.n, 6);
	cr_assert_eq(cg_thread_tg(h, 5), a);
	cgt_end(h);
}

Test(cg_observer, mkdir_under_cpu_enabled_parent_emits_tg_created)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a;

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	rec_start(h, &r);
	assert_mkdir(h, "A", 0);
	a = cgt_id(h, "A");
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.ev[0].kind, CG_EV_TG_CREATED);
	cr_assert_eq(r.ev[0].cgroup, a);
	cr_assert_eq(r.ev[0].parent_tg, 0);
	/* A does not enable cpu: no css for A/B. */
	rec_clear(&r);
	assert_mkdir(h, "A/B", 0);
	cr_assert_eq(r.n, 0);
	/* Enabling it creates the css of the existing child... */
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, cgt_id(h, "A/B"), 0)->parent_tg, a);
	/* ...and of the next one made. */
	rec_clear(&r);
	assert_mkdir(h, "A/C", 0);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, cgt_id(h, "A/C"), 0)->parent_tg, a);
	cgt_end(h);
}

Test(cg_observer, cpu_file_writes_emit_tg_params)
{
	static const struct { const char *file; const char *value; } writes[] = {
		{ "A/cpu.weight", "200" }, { "A/cpu.weight.nice", "5" },
		{ "A/cpu.max", "50000 100000" }, { "A/cpu.max.burst", "1000" },
		{ "A/cpu.idle", "1" },
	};
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a;

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	a = cgt_id(h, "A");
	rec_start(h, &r);
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		rec_clear(&r);
		assert_write(h, writes[i].file, writes[i].value, 0);
		cr_assert_eq(r.n, 1, "%s: %d events", writes[i].file, r.n);
		cr_assert_eq(r.ev[0].kind, CG_EV_TG_PARAMS, "%s", writes[i].file);
		cr_assert_eq(r.ev[0].cgroup, a, "%s", writes[i].file);
	}
	cgt_end(h);
}

Test(cg_observer, thread_move_between_task_groups_emits_thread_moved)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a, b;

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "B", 0);
	a = cgt_id(h, "A");
	b = cgt_id(h, "B");
	rec_start(h, &r);
	assert_write(h, "A/cgroup.procs", "P", 0);
	cr_assert_eq(r.n, 2);
	expect_moved(&r, 1, 0, a, a);
	expect_moved(&r, 2, 0, a, a);
	rec_clear(&r);
	assert_write(h, "B/cgroup.procs", "P", 0);
	cr_assert_eq(r.n, 2);
	expect_moved(&r, 1, a, b, b);
	expect_moved(&r, 2, a, b, b);
	cgt_end(h);
}

Test(cg_observer, move_within_one_task_group_changes_no_group)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a;

	assert_proc(h, "P", 1, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "A/C", 0);
	a = cgt_id(h, "A");
	assert_write(h, "A/B/cgroup.procs", "P", 0);
	rec_start(h, &r);
	assert_write(h, "A/C/cgroup.procs", "P", 0);
	/* A/B and A/C have no cpu css: both are in task group A. Nothing to report, or, if the
	 * model reports the move, a move from A to A. */
	for (int i = 0; i < r.n; i++) {
		cr_assert_eq(r.ev[i].kind, CG_EV_THREAD_MOVED);
		cr_assert_eq(r.ev[i].old_tg, a);
		cr_assert_eq(r.ev[i].new_tg, a);
	}
	cr_assert_eq(cg_thread_tg(h, 1), a);
	assert_thread_in(h, "P.1", "A/C");
	cgt_end(h);
}

Test(cg_observer, disabling_cpu_moves_threads_back_before_destroying_group)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a, b, destroyed;

	/* P.1 and P.2 in thread root A, P.3 in its threaded child A/B. */
	assert_proc(h, "P", 3, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_write(h, "A/B/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/B/cgroup.threads", "P.3", 0);
	a = cgt_id(h, "A");
	b = cgt_id(h, "A/B");
	cr_assert_eq(cg_thread_tg(h, 3), b);
	rec_start(h, &r);
	/* A/B loses its css: P.3 falls back to A. */
	assert_write(h, "A/cgroup.subtree_control", "-cpu", 0);
	cr_assert_eq(r.n, 2);
	expect_moved(&r, 3, b, a, b);
	destroyed = rec_find(&r, CG_EV_TG_DESTROYED, b, 0);
	cr_assert_gt(destroyed, rec_find(&r, CG_EV_THREAD_MOVED, -1, 3));
	cr_assert_not(cg_is_tg(h, b));
	/* A loses its css: all of P falls back to the root. */
	rec_clear(&r);
	assert_write(h, "cgroup.subtree_control", "-cpu", 0);
	cr_assert_eq(r.n, 4);
	expect_moved(&r, 1, a, 0, a);
	expect_moved(&r, 2, a, 0, a);
	expect_moved(&r, 3, a, 0, b);
	destroyed = rec_find(&r, CG_EV_TG_DESTROYED, a, 0);
	cr_assert_eq(destroyed, 3, "TG_DESTROYED at %d, want after the 3 moves", destroyed);
	for (int tid = 1; tid <= 3; tid++)
		cr_assert_eq(cg_thread_tg(h, tid), 0);
	cgt_end(h);
}

Test(cg_observer, rmdir_of_task_group_emits_tg_destroyed)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a;

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	a = cgt_id(h, "A");
	rec_start(h, &r);
	/* A/B is no task group: nothing to report. */
	assert_rmdir(h, "A/B", 0);
	cr_assert_eq(r.n, 0);
	assert_rmdir(h, "A", 0);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.ev[0].kind, CG_EV_TG_DESTROYED);
	cr_assert_eq(r.ev[0].cgroup, a);
	cgt_end(h);
}

Test(cg_observer, kill_emits_thread_exited_per_thread)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a;

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "Q", 1, 3);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	a = cgt_id(h, "A");
	rec_start(h, &r);
	assert_write(h, "A/cgroup.kill", "1", 0);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(rec_expect(&r, CG_EV_THREAD_EXITED, -1, 1)->old_tg, a);
	cr_assert_eq(rec_expect(&r, CG_EV_THREAD_EXITED, -1, 2)->old_tg, a);
	cr_assert_eq(rec_find(&r, CG_EV_THREAD_EXITED, -1, 3), -1);
	cgt_end(h);
}

Test(cg_observer, making_cgroup_threaded_emits_threaded)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;

	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A/T", 0);
	rec_start(h, &r);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	/* T keeps its cpu css (cpu is threaded): only the type change is reported. */
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.ev[0].kind, CG_EV_THREADED);
	cr_assert_eq(r.ev[0].cgroup, cgt_id(h, "A/T"));
	/* Already threaded: a no-op, nothing new. */
	rec_clear(&r);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	cr_assert_eq(r.n, 0);
	cgt_end(h);
}

Test(cg_observer, failed_operations_emit_nothing)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;

	assert_proc(h, "P", 2, 1);
	assert_proc(h, "Q", 1, 3);
	assert_write(h, "cgroup.subtree_control", "+cpu +memory", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	assert_mkdir(h, "M", 0);
	assert_mkdir(h, "M/N", 0);
	assert_write(h, "M/cgroup.subtree_control", "+memory +cpu", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "M/N/cgroup.procs", "Q", 0);
	rec_start(h, &r);
	assert_mkdir(h, "A", -EEXIST);
	assert_rmdir(h, "A", -EBUSY);
	assert_rmdir(h, "M/N", -EBUSY);
	assert_write(h, "A/cgroup.type", "domain", -EINVAL);
	assert_write(h, "A/cgroup.type", "threaded", -EOPNOTSUPP);
	assert_write(h, "A/cpu.weight", "0", -ERANGE);
	assert_write(h, "A/cpu.max", "999", -EINVAL);
	assert_write(h, "A/cpu.idle", "2", -EINVAL);
	assert_write(h, "M/cgroup.procs", "P", -EBUSY);
	assert_write(h, "M/cgroup.threads", "P.2", -EBUSY);
	assert_write(h, "M/N/cgroup.threads", "P.2", -EOPNOTSUPP);
	assert_write(h, "cgroup.subtree_control", "-cpu", -EBUSY);
	assert_write(h, "A/cgroup.subtree_control", "+memory", -EBUSY);
	assert_write(h, "A/cgroup.kill", "0", -ERANGE);
	assert_write(h, "A/cgroup.procs", "99", -ESRCH);
	assert_proc(h, "P", 1, -EEXIST);
	cr_assert_eq(r.n, 0, "%d events from failed operations (first kind %d)", r.n,
		     r.ev[0].kind);
	cgt_end(h);
}

Test(cg_observer, v1_every_cgroup_is_a_task_group)
{
	struct cg_hier *h = cgt_new(CG_SEM_V1);
	struct rec r;
	int a, b;

	assert_proc(h, "P", 2, 1);
	rec_start(h, &r);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/B", 0);
	a = cgt_id(h, "A");
	b = cgt_id(h, "A/B");
	cr_assert_eq(r.n, 2);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, a, 0)->parent_tg, 0);
	cr_assert_eq(rec_expect(&r, CG_EV_TG_CREATED, b, 0)->parent_tg, a);
	rec_clear(&r);
	assert_write(h, "A/B/tasks", "P.2", 0);
	cr_assert_eq(r.n, 1);
	expect_moved(&r, 2, 0, b, b);
	rec_clear(&r);
	assert_write(h, "A/cgroup.procs", "P", 0);
	cr_assert_eq(r.n, 2);
	expect_moved(&r, 1, 0, a, a);
	expect_moved(&r, 2, b, a, a);
	rec_clear(&r);
	assert_write(h, "A/cpu.shares", "2048", 0);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.ev[0].kind, CG_EV_TG_PARAMS);
	cr_assert_eq(r.ev[0].cgroup, a);
	rec_clear(&r);
	assert_rmdir(h, "A/B", 0);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.ev[0].kind, CG_EV_TG_DESTROYED);
	cr_assert_eq(r.ev[0].cgroup, b);
	cgt_end(h);
}

Test(cg_observer, thread_moves_inside_threaded_subtree_between_task_groups)
{
	struct cg_hier *h = cgt_new(CG_SEM_V2);
	struct rec r;
	int a, t;

	assert_proc(h, "P", 2, 1);
	assert_write(h, "cgroup.subtree_control", "+cpu", 0);
	assert_mkdir(h, "A", 0);
	assert_mkdir(h, "A/T", 0);
	assert_write(h, "A/T/cgroup.type", "threaded", 0);
	assert_write(h, "A/cgroup.subtree_control", "+cpu", 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	a = cgt_id(h, "A");
	t = cgt_id(h, "A/T");
	rec_start(h, &r);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	cr_assert_eq(r.n, 1);
	expect_moved(&r, 2, a, t, t);
	/* A whole-process move reports each thread from its own group. */
	rec_clear(&r);
	assert_write(h, "cgroup.procs", "P", 0);
	cr_assert_eq(r.n, 2);
	expect_moved(&r, 1, a, 0, 0);
	expect_moved(&r, 2, t, 0, 0);
	assert_write(h, "A/cgroup.procs", "P", 0);
	assert_write(h, "A/T/cgroup.threads", "P.2", 0);
	rec_clear(&r);
	assert_write(h, "A/T/cgroup.kill", "1", -EOPNOTSUPP);
	assert_write(h, "A/cgroup.kill", "1", 0);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(rec_expect(&r, CG_EV_THREAD_EXITED, -1, 1)->old_tg, a);
	cr_assert_eq(rec_expect(&r, CG_EV_THREAD_EXITED, -1, 2)->old_tg, t);
	cgt_end(h);
}
