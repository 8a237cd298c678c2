/* SPDX-License-Identifier: MIT */
/*
 * bench/bench_cgroup.c - 100,000 random cgroupfs operations on a hierarchy of 1,000 cgroups and
 * 10,000 threads, through the same path-based interface the .cgs interpreter and the scenario
 * loader use. Prints operations per second and how the answers were distributed (so that a
 * change that makes most operations fail fast does not pass for a speed-up).
 *
 * Layout: the root gives cpu to 10 domains d0..d9; each is a thread root with 10 threaded
 * children t0..t9, each with 9 threaded grandchildren u0..u8 (10 + 100 + 900 = 1,010 cgroups below the root).
 * 100 processes of 100 threads start one per domain group.
 */
#include "cgroup/cgroup.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NDOM 10
#define NT 10
#define NU 9
#define NPROC 100
#define NTHR 100
#define NOPS 100000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: the benchmark's own fixed stream, independent of the simulator's. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static unsigned rndn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A random cgroup of the tree: level 1, 2 or 3, weighted by how many there are. */
static void random_cgroup(char *buf, size_t len)
{
	unsigned k = rndn(1000), d = rndn(NDOM), t = rndn(NT), u = rndn(NU);

	if (k < 10)
		snprintf(buf, len, "d%u", d);
	else if (k < 110)
		snprintf(buf, len, "d%u/t%u", d, t);
	else
		snprintf(buf, len, "d%u/t%u/u%u", d, t, u);
}

static void must(int r, const char *what)
{
	if (r < 0) {
		fprintf(stderr, "bench_cgroup: setup failed: %s: %d\n", what, r);
		exit(1);
	}
}

/* The layout above: 10 thread roots of 10 + 90 threaded cgroups, 100 processes. */
static void build_tree(struct cg_hier *h)
{
	char path[128];

	must(cg_write(h, "cgroup.subtree_control", "+cpu +memory"), "root +cpu");
	for (int d = 0; d < NDOM; d++) {
		snprintf(path, sizeof(path), "d%d", d);
		must(cg_mkdir(h, path), path);
		snprintf(path, sizeof(path), "d%d/cgroup.subtree_control", d);
		must(cg_write(h, path, "+cpu"), path);
		for (int t = 0; t < NT; t++) {
			snprintf(path, sizeof(path), "d%d/t%d", d, t);
			must(cg_mkdir(h, path), path);
			snprintf(path, sizeof(path), "d%d/t%d/cgroup.type", d, t);
			must(cg_write(h, path, "threaded"), path);
			for (int u = 0; u < NU; u++) {
				snprintf(path, sizeof(path), "d%d/t%d/u%d", d, t, u);
				must(cg_mkdir(h, path), path);
				snprintf(path, sizeof(path), "d%d/t%d/u%d/cgroup.type", d, t, u);
				must(cg_write(h, path, "threaded"), path);
			}
			snprintf(path, sizeof(path), "d%d/t%d/cgroup.subtree_control", d, t);
			must(cg_write(h, path, "+cpu"), path);
		}
	}
	for (int p = 0; p < NPROC; p++) {
		char name[16];

		snprintf(name, sizeof(name), "p%d", p);
		must(cg_proc_new(h, name, NTHR), name);
		snprintf(path, sizeof(path), "d%d/cgroup.procs", p % NDOM);
		must(cg_write(h, path, name), path);
	}
}

/* One random operation, in the mix of a busy manager; *@extra numbers the short-lived cgroups. */
static int random_op(struct cg_hier *h, int *extra)
{
	unsigned op = rndn(100);
	char cg[64], path[128], val[64];
	char *text = NULL;
	int r;

	random_cgroup(cg, sizeof(cg));
	if (op < 40) {		/* move one thread: legal only inside its domain */
		snprintf(path, sizeof(path), "%s/cgroup.threads", cg);
		snprintf(val, sizeof(val), "p%u.%u", rndn(NPROC), 1 + rndn(NTHR));
		r = cg_write(h, path, val);
	} else if (op < 50) {	/* move a whole process to a thread root */
		snprintf(path, sizeof(path), "d%u/cgroup.procs", rndn(NDOM));
		snprintf(val, sizeof(val), "p%u", rndn(NPROC));
		r = cg_write(h, path, val);
	} else if (op < 65) {	/* set a weight */
		snprintf(path, sizeof(path), "%s/cpu.weight", cg);
		snprintf(val, sizeof(val), "%u", 1 + rndn(10000));
		r = cg_write(h, path, val);
	} else if (op < 75) {	/* read a type */
		snprintf(path, sizeof(path), "%s/cgroup.type", cg);
		r = cg_read(h, path, &text);
	} else if (op < 80) {	/* list threads */
		snprintf(path, sizeof(path), "%s/cgroup.threads", cg);
		r = cg_read(h, path, &text);
	} else if (op < 85) {	/* list a thread root's processes */
		snprintf(path, sizeof(path), "d%u/cgroup.procs", rndn(NDOM));
		r = cg_read(h, path, &text);
	} else if (op < 95) {	/* a short-lived cgroup: created, then removed */
		snprintf(path, sizeof(path), "%s/x%d", cg, (*extra)++);
		r = cg_mkdir(h, path);
		if (!r)
			r = cg_rmdir(h, path);
	} else {		/* toggle cpu on a leaf's (empty) subtree_control */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", cg);
		r = cg_write(h, path, rndn(2) ? "+cpu" : "-cpu");
	}
	free(text);
	return r;
}

int main(void)
{
	struct cg_hier *h = cg_hier_new(CG_SEM_V2);
	long answers[5] = { 0 };	/* ok, EOPNOTSUPP, EBUSY, ENOENT/EEXIST, other */
	double t0, t1;
	int extra = 0;

	if (!h)
		return 1;
	build_tree(h);

	t0 = now_s();
	for (int i = 0; i < NOPS; i++) {
		int r = random_op(h, &extra);

		if (r == 0)
			answers[0]++;
		else if (r == -EOPNOTSUPP)
			answers[1]++;
		else if (r == -EBUSY)
			answers[2]++;
		else if (r == -ENOENT || r == -EEXIST)
			answers[3]++;
		else
			answers[4]++;
	}
	t1 = now_s();

	if (cg_check(h)) {
		fprintf(stderr, "bench_cgroup: invariants broken after the run\n");
		return 1;
	}
	printf("cgroup_ops: %d ops on %d cgroups, %d threads\n", NOPS, 1 + NDOM * (1 + NT * (1 + NU)),
	       NPROC * NTHR);
	printf("cgroup_ops_per_s: %.0f ops/s\n", NOPS / (t1 - t0));
	printf("cgroup_ns_per_op: %.0f ns/op\n", (t1 - t0) * 1e9 / NOPS);
	printf("cgroup_answers: ok %ld, EOPNOTSUPP %ld, EBUSY %ld, ENOENT/EEXIST %ld, other %ld\n",
	       answers[0], answers[1], answers[2], answers[3], answers[4]);
	cg_hier_free(h);
	return 0;
}
