// SPDX-License-Identifier: MIT
/*
 * Unit tests of the reports' per-process figures (sim/report/report.h): a process is the sum of
 * its threads wherever they are in the run's order, and processes are listed in the order of
 * their first thread.
 *
 * The run is made by hand: threads of process A, then B, then A again, then C, with shares and
 * ideals chosen so that every sum below is worked out by hand (A: 0.1250 + 0.3750 = 0.5000,
 * ideals 0.1500 + 0.3500 = 0.5000).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "sim/report/report.h"
#include "sim/scenario/scenario.h"

static struct scenario *sc;

/* The header's scenario: only its name, variant, seed and policy are printed. */
static void load_scenario(void)
{
	char err[512];

	sc = scn_load("t.yaml", "name: t\nduration: 1s\nmachine: { cpus: 1 }\nprocesses:\n"
		      "  p: { threads: { t: { behavior: busy } } }\n", NULL, NULL, 0, err,
		      sizeof(err));
	cr_assert_not_null(sc, "%s", err);
}

static void free_scenario(void)
{
	scn_free(sc);
}

/* A thread of the hand-made run; the run is never run_free()d, so its names stay literals. */
static struct run_thread thread(const char *process, const char *name, double share,
				double ideal)
{
	return (struct run_thread){ .process = (char *)process, .name = (char *)name,
				    .cgroup = (char *)"/", .share = share, .ideal = ideal };
}

/* @printer's output for @r, NUL-terminated (fmemopen() adds the NUL on fclose()). */
static const char *print(void (*printer)(FILE *, const struct run_result *),
			 const struct run_result *r)
{
	static char out[16384];
	FILE *f;

	cr_assert_not_null(f = fmemopen(out, sizeof(out) - 1, "w"));
	printer(f, r);
	cr_assert_eq(fclose(f), 0);
	return out;
}

/* The row of @process in the text's process block: its thread count, share and ideal. */
static bool process_row(const char *text, const char *process, size_t *n, double *share,
			double *ideal)
{
	const char *block = strstr(text, "\nprocess ");
	char want[64];

	if (!block)
		return false;
	snprintf(want, sizeof(want), "\n%s ", process);
	block = strstr(block, want);
	return block && sscanf(block + strlen(want), "%zu %lf %lf", n, share, ideal) == 3;
}

Test(report_process, text_sums_interleaved_threads, .init = load_scenario,
     .fini = free_scenario)
{
	struct run_thread t[5] = {
		thread("A", "a.1", 0.125, 0.15), thread("B", "b.1", 0.25, 0.2),
		thread("A", "a.2", 0.375, 0.35), thread("C", "c.1", 0.0625, 0.1),
		thread("B", "b.2", 0.1875, 0.2),
	};
	struct run_result r = { .sc = sc, .cpus = 1, .measured_ns = 1000000000, .threads = t,
				.nthreads = 5 };
	const char *text = print(report_text, &r);
	double share, ideal;
	size_t n;

	cr_assert(process_row(text, "A", &n, &share, &ideal), "%s", text);
	cr_expect_eq(n, 2);
	cr_expect_float_eq(share, 0.5, 1e-9);
	cr_expect_float_eq(ideal, 0.5, 1e-9);
	cr_assert(process_row(text, "B", &n, &share, &ideal), "%s", text);
	cr_expect_eq(n, 2);
	cr_expect_float_eq(share, 0.4375, 1e-9);
	cr_expect_float_eq(ideal, 0.4, 1e-9);
	cr_assert(process_row(text, "C", &n, &share, &ideal), "%s", text);
	cr_expect_eq(n, 1);
	cr_expect_float_eq(share, 0.0625, 1e-9);
	/* in the order of each process's first thread: A, B, C, each once */
	{
		const char *block = strstr(text, "\nprocess ");
		const char *a = strstr(block, "\nA "), *b = strstr(block, "\nB "),
			   *c = strstr(block, "\nC ");

		cr_expect(a && b && c && a < b && b < c, "%s", block);
		cr_expect_null(strstr(a + 1, "\nA "));
	}
}

/* One thread per process: the block would repeat the thread table, so there is none. */
Test(report_process, text_no_block_for_single_threads, .init = load_scenario,
     .fini = free_scenario)
{
	struct run_thread t[3] = {
		thread("A", "a.1", 0.25, 0.25), thread("B", "b.1", 0.25, 0.25),
		thread("C", "c.1", 0.5, 0.5),
	};
	struct run_result r = { .sc = sc, .cpus = 1, .measured_ns = 1000000000, .threads = t,
				.nthreads = 3 };
	const char *text = print(report_text, &r);

	cr_expect_null(strstr(text, "\nprocess "), "%s", text);
}

/*
 * schbench's blocks pool a process's threads wherever they are: A's 1, 2 and 3 us (threads 1
 * and 3), B's 5 us. The pooled block has 4 samples, A's 3 (min 1, max 3), B's 1 (min = max 5).
 */
Test(report_process, schbench_pools_interleaved_threads, .init = load_scenario,
     .fini = free_scenario)
{
	uint64_t a1[2] = { 1000, 2000 }, b1[1] = { 5000 }, a2[1] = { 3000 };
	struct run_thread t[3] = {
		thread("A", "a.1", 0.25, 0.25), thread("B", "b.1", 0.25, 0.25),
		thread("A", "a.2", 0.5, 0.5),
	};
	struct run_result r = { .sc = sc, .cpus = 1, .measured_ns = 1000000000, .threads = t,
				.nthreads = 3 };
	const char *all, *a, *b;
	const char *text;

	t[0].lat = a1, t[0].nlat = 2, t[0].lat_min = 1000, t[0].lat_max = 2000;
	t[1].lat = b1, t[1].nlat = 1, t[1].lat_min = 5000, t[1].lat_max = 5000;
	t[2].lat = a2, t[2].nlat = 1, t[2].lat_min = 3000, t[2].lat_max = 3000;
	text = print(report_schbench, &r);
	all = strstr(text, "(4 total samples)");
	a = strstr(text, "process A\n");
	b = strstr(text, "process B\n");
	cr_assert(all && a && b && all < a && a < b, "%s", text);
	cr_expect_not_null(strstr(a, "(3 total samples)"), "%s", text);
	cr_expect_not_null(strstr(a, "min=1, max=3\n"), "%s", text);
	cr_expect_not_null(strstr(b, "(1 total samples)"), "%s", text);
	cr_expect_not_null(strstr(b, "min=5, max=5\n"), "%s", text);
	cr_expect_null(strstr(a + 1, "process A\n"), "%s", text);
}
