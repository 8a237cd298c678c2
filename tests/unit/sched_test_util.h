/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/sched_test_util.h - helpers shared by the unit tests of the scheduler.
 *
 * Every expected value in these tests comes from the kernel's rules
 * (docs/scheduler.md), never from the program's output.
 *
 * A test that drives the whole machine builds its cgroup hierarchy with stt_hier(), its
 * machine with stt_machine(), and frees both with stt_end(). The suites declare
 * `.fini = stt_fini`, so the machine, the hierarchy, a bare scheduler (stt_sched()) and any
 * metric snapshot are freed even when an assertion aborts the test: no leak under valgrind or
 * ASan in either case.
 */
#ifndef CGSIM_TESTS_SCHED_TEST_UTIL_H
#define CGSIM_TESTS_SCHED_TEST_UTIL_H

#include <criterion/criterion.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgroup.h"
#include "scheduler/sched.h"
#include "sim/machine/machine.h"

#define STT_MS	1000000ull
#define STT_SEC	1000000000ull

/* What the running test owns; stt_fini() frees whatever is left. */
static struct cg_hier *stt_h;
static struct sim_machine *stt_m;
static struct sched *stt_s;

/* ---------------- metric snapshots (outlive their machine) ---------------- */

struct stt_thread_snap {
	int tid;
	struct sim_thread_metrics tm;	/* tm.latency points into lat */
	uint64_t *lat;
};

struct stt_snap {
	struct sim_machine_metrics mm;
	uint64_t root_cpu;
	int n;
	struct stt_thread_snap *t;
};

#define STT_MAX_SNAPS 4
static struct stt_snap *stt_snaps[STT_MAX_SNAPS];

static inline void stt_snap_free(struct stt_snap *sn)
{
	if (!sn)
		return;
	for (int i = 0; i < sn->n; i++)
		free(sn->t[i].lat);
	free(sn->t);
	free(sn);
	for (int i = 0; i < STT_MAX_SNAPS; i++)
		if (stt_snaps[i] == sn)
			stt_snaps[i] = NULL;
}

static inline void stt_fini(void)
{
	if (stt_m)
		sim_machine_free(stt_m);
	stt_m = NULL;
	if (stt_h)
		cg_hier_free(stt_h);
	stt_h = NULL;
	if (stt_s)
		sched_free(stt_s);
	stt_s = NULL;
	for (int i = 0; i < STT_MAX_SNAPS; i++)
		stt_snap_free(stt_snaps[i]);
}

/* ---------------- driving a bare scheduler (stt_s) ---------------- */

/* A scheduler configured by @cfg; freed by stt_sched_free() or stt_fini(). */
static inline struct sched *stt_sched_cfg(const struct sched_config *cfg)
{
	struct sched *s = sched_new(cfg);

	cr_assert_not_null(s, "sched_new failed");
	stt_s = s;
	return s;
}

/*
 * A scheduler for @pol on @cpus CPUs, tick elision and sched_check() after every call as given,
 * costs @cost (NULL: sched_config_default()'s); freed by stt_sched_free() or stt_fini().
 */
static inline struct sched *stt_sched(enum sched_policy pol, int cpus, bool elision,
				      const struct sched_costs *cost, bool check)
{
	struct sched_config cfg;

	sched_config_default(&cfg, pol, cpus);
	cfg.tick_elision = elision;
	cfg.check = check;
	if (cost)
		cfg.cost = *cost;
	return stt_sched_cfg(&cfg);
}

static inline void stt_sched_free(void)
{
	sched_free(stt_s);
	stt_s = NULL;
}

/* What sched_set_latency_hook() reported last, and how many times. */
struct stt_lat_probe {
	int n;
	int tid;
	uint64_t lat;
};

static inline void stt_lat_hook(void *ctx, int tid, uint64_t latency_ns)
{
	struct stt_lat_probe *p = ctx;

	p->n++;
	p->tid = tid;
	p->lat = latency_ns;
}

/* What the driver does after every call: drain sched_pop_changed(). */
static inline void stt_drain(struct sched *s)
{
	int n = 0;

	while (sched_pop_changed(s) >= 0)
		cr_assert_lt(++n, 100000, "sched_pop_changed never ends");
}

/* Thread @tid may run on CPU @cpu only (-1: on every CPU) from @now; the driver drains. */
static inline void stt_pin(struct sched *s, int tid, int cpu, uint64_t now)
{
	uint64_t mask[SCHED_MAX_CPUS / 64] = { 0 };

	if (cpu < 0)
		memset(mask, 0xff, sizeof(mask));
	else
		mask[cpu / 64] = 1ull << (cpu % 64);
	cr_assert_eq(sched_thread_set_affinity(s, tid, mask, SCHED_MAX_CPUS / 64, now), 0);
	stt_drain(s);
}

/* sched_advance() to @t, then drain, as the driver does. */
static inline void stt_advance(struct sched *s, uint64_t t)
{
	sched_advance(s, t);
	stt_drain(s);
}

/* sched_check() passes, or the test fails saying after what. */
static inline void stt_check_ok(struct sched *s, const char *when)
{
	char why[512] = "";
	int rc = sched_check(s, why, sizeof(why));

	cr_assert_eq(rc, 0, "sched_check after %s: %d (%s)", when, rc, why);
}

/* @call on scheduler @s returns 0; then the driver's drain. */
#define STT_OK(s, call)                                                                       \
	do {                                                                                  \
		int rc_ = (call);                                                             \
		cr_assert_eq(rc_, 0, "%s: %d", #call, rc_);                                   \
		stt_drain(s);                                                                 \
	} while (0)

/* ---------------- building a scenario ---------------- */

/* A v2 hierarchy whose root enables the cpu controller. */
static inline struct cg_hier *stt_hier(void)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	int rc;

	cr_assert_not_null(h, "cg_hier_new failed");
	stt_h = h;
	rc = cg_write(h, "cgroup.subtree_control", "+cpu");
	cr_assert_eq(rc, 0, "root +cpu: %d", rc);
	return h;
}

static inline void stt_write(struct cg_hier *h, const char *path, const char *value)
{
	int rc = cg_write(h, path, value);

	cr_assert_eq(rc, 0, "write %s \"%s\": %d", path, value, rc);
}

/*
 * Cgroup @path with cpu.weight @weight; its parent must enable cpu already (the root does;
 * stt_enable_cpu() for an inner cgroup).
 */
static inline void stt_cgroup(struct cg_hier *h, const char *path, unsigned weight)
{
	char file[256], val[32];
	int rc = cg_mkdir(h, path);

	cr_assert_eq(rc, 0, "mkdir %s: %d", path, rc);
	snprintf(file, sizeof(file), "%s/cpu.weight", path);
	snprintf(val, sizeof(val), "%u", weight);
	stt_write(h, file, val);
}

static inline void stt_enable_cpu(struct cg_hier *h, const char *path)
{
	char file[256];

	snprintf(file, sizeof(file), "%s/cgroup.subtree_control", path);
	stt_write(h, file, "+cpu");
}

/* Process @name with @n threads, moved into cgroup @path (NULL: stays in the root). */
static inline int stt_proc(struct cg_hier *h, const char *name, int n, const char *path)
{
	int pid = cg_proc_new(h, name, n);

	cr_assert_gt(pid, 0, "proc %s: %d", name, pid);
	if (path) {
		char file[256];

		snprintf(file, sizeof(file), "%s/cgroup.procs", path);
		stt_write(h, file, name);
	}
	return pid;
}

static inline int stt_cgid(const struct cg_hier *h, const char *path)
{
	int id = cg_lookup(h, path);

	cr_assert_geq(id, 0, "cg_lookup %s: %d", path, id);
	return id;
}

static inline struct sim_machine *stt_machine(struct cg_hier *h, enum sched_policy pol,
					      int cpus, uint64_t seed, bool check,
					      bool elision)
{
	struct sched_config cfg;
	struct sim_machine *m;
	int err = 0;

	sched_config_default(&cfg, pol, cpus);
	cfg.check = check;
	cfg.tick_elision = elision;
	m = sim_machine_new(&cfg, h, seed, &err);
	cr_assert_not_null(m, "sim_machine_new: %d", err);
	stt_m = m;
	return m;
}

/* Give thread @tid @spec, with a random stream of its own (index tid) unless it names one. */
static inline void stt_set(struct sim_machine *m, int tid, const struct sim_thread_spec *spec)
{
	struct sim_thread_spec sp = *spec;
	int rc;

	if (!sp.stream)
		sp.stream = (uint32_t)tid;
	rc = sim_machine_set_thread(m, tid, &sp);

	cr_assert_eq(rc, 0, "set_thread %d: %d", tid, rc);
}

static inline void stt_busy(struct sim_machine *m, int tid, int nice)
{
	struct sim_thread_spec sp;

	memset(&sp, 0, sizeof(sp));
	sp.behavior.kind = SIM_BEHAV_BUSY;
	sp.nice = nice;
	stt_set(m, tid, &sp);
}

/* Threads pid .. pid + n - 1 busy at nice 0. */
static inline void stt_busy_n(struct sim_machine *m, int pid, int n)
{
	for (int i = 0; i < n; i++)
		stt_busy(m, pid + i, 0);
}

/* Run @warm, start the window, run @window more. */
static inline void stt_run(struct sim_machine *m, uint64_t warm, uint64_t window)
{
	int rc = sim_machine_run_until(m, warm);

	cr_assert_eq(rc, 0, "run_until warm-up: %d", rc);
	sim_machine_reset_metrics(m);
	rc = sim_machine_run_until(m, warm + window);
	cr_assert_eq(rc, 0, "run_until end: %d", rc);
}

static inline struct sim_thread_metrics stt_tm(const struct sim_machine *m, int tid)
{
	struct sim_thread_metrics tm;
	int rc = sim_machine_thread_metrics(m, tid, &tm);

	cr_assert_eq(rc, 0, "thread_metrics %d: %d", tid, rc);
	return tm;
}

static inline uint64_t stt_cpu(const struct sim_machine *m, int tid)
{
	return stt_tm(m, tid).cpu_ns;
}

/* Share of the machine's capacity: cpu / (cpus * window). */
static inline double stt_share(uint64_t cpu_ns, int cpus, uint64_t window)
{
	return (double)cpu_ns / ((double)cpus * (double)window);
}

static inline double stt_cg_share(const struct sim_machine *m, const struct cg_hier *h,
				  const char *path, int cpus, uint64_t window)
{
	return stt_share(sim_machine_cgroup_cpu(m, stt_cgid(h, path)), cpus, window);
}

static inline void stt_end(void)
{
	sim_machine_free(stt_m);
	stt_m = NULL;
	cg_hier_free(stt_h);
	stt_h = NULL;
}

/* |got - want| <= tol, with a message naming what, the policy and both values. */
#define stt_assert_near(what, pol, got, want, tol)                                            \
	do {                                                                                  \
		double g_ = (got), w_ = (want), t_ = (tol);                                   \
		cr_log_info("%s [%s]: measured %.4f, expected %.4f +- %.4f", (what),          \
			    sched_policy_name(pol), g_, w_, t_);                              \
		cr_expect(fabs(g_ - w_) <= t_, "%s [%s]: measured %.4f, expected %.4f +- %.4f", \
			  (what), sched_policy_name(pol), g_, w_, t_);                        \
	} while (0)

/* ---------------- snapshots ---------------- */

/* Copy every metric of threads @tids[0 .. n-1] and of the machine. */
static inline struct stt_snap *stt_snapshot(const struct sim_machine *m, const int *tids, int n)
{
	struct stt_snap *sn = calloc(1, sizeof(*sn));
	int slot = -1;

	cr_assert_not_null(sn);
	for (int i = 0; i < STT_MAX_SNAPS; i++)
		if (!stt_snaps[i]) {
			slot = i;
			break;
		}
	if (slot < 0) {
		free(sn);
		cr_assert_fail("too many snapshots");
	}
	stt_snaps[slot] = sn;
	sn->t = calloc((size_t)n, sizeof(*sn->t));
	cr_assert_not_null(sn->t);
	sn->n = n;
	sim_machine_metrics(m, &sn->mm);
	sn->root_cpu = sim_machine_cgroup_cpu(m, 0);
	for (int i = 0; i < n; i++) {
		struct stt_thread_snap *ts = &sn->t[i];

		ts->tid = tids[i];
		ts->tm = stt_tm(m, tids[i]);
		if (ts->tm.nlatency) {
			ts->lat = malloc(ts->tm.nlatency * sizeof(uint64_t));
			cr_assert_not_null(ts->lat);
			memcpy(ts->lat, ts->tm.latency, ts->tm.nlatency * sizeof(uint64_t));
		}
		ts->tm.latency = ts->lat;
	}
	return sn;
}

/*
 * Compare two snapshots field by field. Writes every difference (up to @len bytes) into @why
 * and returns how many fields differ. @machine_too: also the machine-wide counters.
 */
static inline int stt_snap_diff(const struct stt_snap *a, const struct stt_snap *b,
				bool machine_too, char *why, size_t len)
{
	int ndiff = 0;
	size_t off = 0;

#define STT_DIFF(fmt, ...)                                                                    \
	do {                                                                                  \
		ndiff++;                                                                      \
		if (off < len) {                                                              \
			int w_ = snprintf(why + off, len - off, fmt "; ", __VA_ARGS__);      \
			if (w_ > 0)                                                           \
				off += (size_t)w_;                                            \
		}                                                                             \
	} while (0)
#define STT_CMP_T(field)                                                                      \
	do {                                                                                  \
		if (ta->tm.field != tb->tm.field)                                             \
			STT_DIFF("tid %d " #field " %" PRIu64 " vs %" PRIu64, ta->tid,        \
				 (uint64_t)ta->tm.field, (uint64_t)tb->tm.field);             \
	} while (0)
#define STT_CMP_M(field)                                                                      \
	do {                                                                                  \
		if (a->mm.field != b->mm.field)                                               \
			STT_DIFF("machine " #field " %" PRIu64 " vs %" PRIu64,                \
				 (uint64_t)a->mm.field, (uint64_t)b->mm.field);               \
	} while (0)

	if (why && len)
		why[0] = '\0';
	cr_assert_eq(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		const struct stt_thread_snap *ta = &a->t[i], *tb = &b->t[i];

		STT_CMP_T(cpu_ns);
		STT_CMP_T(switches);
		STT_CMP_T(migrations);
		STT_CMP_T(preempted);
		STT_CMP_T(wait_ns);
		STT_CMP_T(activations);
		STT_CMP_T(nlatency);
		if (ta->tm.nlatency == tb->tm.nlatency) {
			for (size_t k = 0; k < ta->tm.nlatency; k++) {
				if (ta->lat[k] != tb->lat[k]) {
					STT_DIFF("tid %d latency[%zu] %" PRIu64 " vs %" PRIu64,
						 ta->tid, k, ta->lat[k], tb->lat[k]);
					break;
				}
			}
		}
	}
	if (machine_too) {
		STT_CMP_M(window_ns);
		STT_CMP_M(overhead_ns);
		STT_CMP_M(level_ops);
		STT_CMP_M(switches);
		STT_CMP_M(migrations);
		STT_CMP_M(ticks);
		if (a->root_cpu != b->root_cpu)
			STT_DIFF("root cgroup cpu %" PRIu64 " vs %" PRIu64, a->root_cpu,
				 b->root_cpu);
	}
#undef STT_CMP_M
#undef STT_CMP_T
#undef STT_DIFF
	return ndiff;
}

/* ---------------- a deterministic generator for the tests themselves ---------------- */

/* Knuth's MMIX LCG; the high bits are the good ones. */
static inline uint32_t stt_lcg(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*state >> 33);
}

#endif /* CGSIM_TESTS_SCHED_TEST_UTIL_H */
