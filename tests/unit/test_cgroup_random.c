/* SPDX-License-Identifier: MIT */
/*
 * Random operation sequences against the cgroup model, with the whole-structure checker after
 * every operation: populated counters, threaded-children counts, descendant counts, links,
 * the top-down rule and the cpu css placement must hold whatever is thrown at the model, in
 * each rule set. Also checks properties that hold after any sequence: a failed operation
 * changes nothing observable, and every live thread is in exactly one cgroup.procs listing
 * path (its own cgroup's cgroup.threads).
 */
#include "cgroup/cgroup.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static unsigned rnd(unsigned n)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (unsigned)((state * 2685821657736338717ull) >> 33) % n;
}

static const char *const dirs[] = { "A", "B", "A/B", "A/C", "A/B/C", "B/C", "C", "A/B/C/D" };
static const char *const files_v2[] = {
	"cgroup.type",	 "cgroup.procs",    "cgroup.threads", "cgroup.subtree_control",
	"cgroup.procs",	 "cgroup.threads",  "cgroup.subtree_control", "cgroup.kill",
	"cgroup.freeze", "cgroup.max.depth", "cgroup.max.descendants", "cpu.weight",
	"cpu.weight.nice", "cpu.max",	    "cpu.max.burst",  "cpu.idle",
	"cgroup.events", "cgroup.stat",	    "cpu.stat",	      "tasks",
};
static const char *const files_v1[] = {
	"tasks",	    "cgroup.procs",	 "tasks",	  "cgroup.procs", "cpu.shares",
	"cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.cfs_burst_us", "cpu.idle",   "cpu.stat",
	"cgroup.type",
};
#define NF(sem) ((sem) == CG_SEM_V1 ? sizeof(files_v1) / sizeof(files_v1[0]) \
				    : sizeof(files_v2) / sizeof(files_v2[0]))
#define FILE_AT(sem, i) ((sem) == CG_SEM_V1 ? files_v1[i] : files_v2[i])

/* Values that make sense for each kind of file, and a few that do not. */
static const char *const tasks[] = { "P", "P.2", "P.3", "Q", "Q.1", "R.2", "R.4", "-1", "0" };
static const char *const ctrls[] = { "+cpu", "-cpu", "+memory", "-memory", "+cpu +pids",
				     "+hugetlb", "-cpu -pids", "cpu" };
static const char *const numbers[] = { "1", "0", "-1", "max", "50000", "2000 4000", "100",
				       "10000", "-5", "2", "3", "enable", "disable", "threaded" };

static const char *value_for(const char *file)
{
	if (strstr(file, "procs") || strstr(file, "threads") || !strcmp(file, "tasks"))
		return rnd(8) ? tasks[rnd(sizeof(tasks) / sizeof(tasks[0]))] : "enable";
	if (strstr(file, "subtree_control"))
		return ctrls[rnd(sizeof(ctrls) / sizeof(ctrls[0]))];
	if (strstr(file, "cgroup.type"))
		return rnd(6) ? "threaded" : "domain";
	return numbers[rnd(sizeof(numbers) / sizeof(numbers[0]))];
}

/* Snapshot of everything a script could read: used to show a failed write changed nothing. */
static char *snapshot(struct cg_hier *h)
{
	size_t cap = 1 << 16, len = 0;
	char *s = malloc(cap);

	cr_assert(s);
	s[0] = '\0';
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]) + 1; d++) {
		for (size_t f = 0; f < NF(cg_hier_semantics(h)); f++) {
			char path[128], *text = NULL;
			int r;

			if (d == sizeof(dirs) / sizeof(dirs[0]))
				snprintf(path, sizeof(path), "%s", FILE_AT(cg_hier_semantics(h), f));
			else
				snprintf(path, sizeof(path), "%s/%s", dirs[d],
					 FILE_AT(cg_hier_semantics(h), f));
			r = cg_read(h, path, &text);
			len += (size_t)snprintf(s + len, cap - len, "%s=%d:%s;", path, r,
						r ? "" : text);
			free(text);
			cr_assert(len < cap);
		}
	}
	return s;
}

/*
 * A random write of a random file at @d (or at the root, one time in eight); every 64th
 * operation (@i), a refused write must leave the state as it was.
 */
static int random_write(struct cg_hier *h, enum cg_semantics sem, const char *d, int i)
{
	const char *file = FILE_AT(sem, rnd((unsigned)NF(sem)));
	const char *v = value_for(file);
	char path[128], *before = NULL, *after;
	int r;

	if (rnd(8) == 0)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", d, file);
	if (i % 64 == 0)
		before = snapshot(h);
	r = cg_write(h, path, v);
	if (before && r) {
		after = snapshot(h);
		cr_assert_str_eq(after, before, "failed write %s %s (%d) changed state", path, v,
				 r);
		free(after);
	}
	free(before);
	return r;
}

/* How many of dirs[] are threaded cgroups with threads in them. */
static int threaded_populated_count(struct cg_hier *h)
{
	int n = 0;

	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		char p2[128], *t1 = NULL, *t2 = NULL;

		snprintf(p2, sizeof(p2), "%s/cgroup.type", dirs[k]);
		if (!cg_read(h, p2, &t1) && !strcmp(t1, "threaded\n")) {
			snprintf(p2, sizeof(p2), "%s/cgroup.threads", dirs[k]);
			if (!cg_read(h, p2, &t2) && t2[0])
				n++;
		}
		free(t1);
		free(t2);
	}
	return n;
}

/* Every live thread is listed in its own cgroup's thread file, exactly once. */
static void assert_threads_listed(struct cg_hier *h, enum cg_semantics sem)
{
	for (int tid = 1; tid < cg_thread_max_id(h); tid++) {
		char cgp[256], name[64], file[300], *text = NULL, *hit;
		int cg;

		if (!cg_thread_alive(h, tid))
			continue;
		cg = cg_thread_cgroup(h, tid);
		cg_path(h, cg, cgp, sizeof(cgp));
		snprintf(file, sizeof(file), "%s/%s", cg ? cgp : "",
			 sem == CG_SEM_V1 ? "tasks" : "cgroup.threads");
		cg_thread_name(h, tid, name, sizeof(name));
		if (cg_read(h, file, &text))
			continue;	/* rfc2017 refuses cgroup.threads outside thread mode */
		hit = strstr(text, name);
		cr_assert(hit, "%s not listed in %s", name, file);
		free(text);
	}
}

static void run(enum cg_semantics sem, uint64_t seed, int nops)
{
	struct cg_hier *h = cg_hier_new(sem);

	state = seed;
	cr_assert(h);
	cr_assert_gt(cg_proc_new(h, "P", 3), 0);
	cr_assert_gt(cg_proc_new(h, "Q", 1), 0);
	cr_assert_gt(cg_proc_new(h, "R", 4), 0);
	int ok = 0, threaded_populated = 0;

	for (int i = 0; i < nops; i++) {
		const char *d = dirs[rnd(sizeof(dirs) / sizeof(dirs[0]))];
		unsigned op = rnd(20);
		int r;

		if (op < 5)
			r = cg_mkdir(h, d);
		else if (op < 6)
			r = cg_rmdir(h, d);
		else
			r = random_write(h, sem, d, i);
		cr_assert_eq(cg_check(h), 0, "invariants broken after op %d (seed %llu)", i,
			     (unsigned long long)seed);
		ok += r == 0;
		/* count the states that matter: a populated threaded cgroup */
		if (sem == CG_SEM_V2 && i % 16 == 0)
			threaded_populated += threaded_populated_count(h);
	}
	/* the sequence must exercise the model, not bounce off its first checks */
	cr_assert_gt(ok, nops / 20, "only %d of %d operations succeeded", ok, nops);
	if (sem == CG_SEM_V2)
		cr_assert_gt(threaded_populated, 0, "no populated threaded cgroup was reached");
	assert_threads_listed(h, sem);
	cg_hier_free(h);
}

Test(cg_random, v2_invariants_hold_after_every_operation)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run(CG_SEM_V2, seed * 0x9e3779b97f4a7c15ull, 3000);
}

Test(cg_random, rfc2017_invariants_hold_after_every_operation)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run(CG_SEM_RFC2017, seed * 0x9e3779b97f4a7c15ull, 3000);
}

Test(cg_random, v1_invariants_hold_after_every_operation)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run(CG_SEM_V1, seed * 0x9e3779b97f4a7c15ull, 3000);
}
