// SPDX-License-Identifier: MIT
/*
 * fuzz/fuzz_runio.c - libFuzzer target: a run file, as cgsim merge reads it from a shard
 * directory (sim/run/runio.h), where it may come from anyone.
 *
 * The input goes through runio_read() with a fixed small scenario as its scenario. When the
 * reader takes it, the run is written back and read again: the second text must be the first
 * byte for byte (the format round-trips whatever the reader accepts), and each of run's
 * printers (text, JSON, the latency table, schbench's lines) prints it to /dev/null: nothing
 * the reader accepts may crash what merge prints from it. Seeds: the run files of shards of
 * a few scenarios (make fuzz-seeds).
 */
#include <stdio.h>

#include "fuzz/fuzz_common.h"
#include "sim/report/report.h"
#include "sim/run/runio.h"

static const char base[] =
	"name: fuzz-runio\n"
	"duration: 1s\n"
	"machine: { cpus: 2 }\n"
	"cgroups:\n"
	"  /:  { cgroup.subtree_control: +cpu }\n"
	"  vm: { cpu.weight: 100 }\n"
	"processes:\n"
	"  app: { threads: { worker: { count: 2, behavior: busy } } }\n"
	"  qemu: { cgroup: vm, threads: { vcpu: { behavior: busy } } }\n";

static struct scenario *sc;
static FILE *null;

/* @r written to a malloc'ed text (*@len bytes); NULL on failure. */
static char *text_of(const struct run_result *r, size_t *len)
{
	char *text = NULL;
	FILE *m = open_memstream(&text, len);

	if (!m)
		return NULL;
	if (runio_write(m, r)) {
		fclose(m);
		free(text);
		return NULL;
	}
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_result *r = NULL, *again = NULL;
	char err[2048], *t1, *t2;
	size_t n1 = 0, n2 = 0;

	if (!sc && !(sc = scn_load("fuzz.yaml", base, NULL, NULL, 0, err, sizeof(err))))
		abort();
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (runio_read((const char *)data, size, "fuzz.run", sc, &r, err, sizeof(err)))
		return 0;
	t1 = text_of(r, &n1);
	if (!t1 || runio_read(t1, n1, "again.run", sc, &again, err, sizeof(err)))
		abort();	/* what the reader took, the writer must write so that it reads */
	t2 = text_of(again, &n2);
	if (!t2 || n1 != n2 || memcmp(t1, t2, n1))
		abort();
	report_text(null, r);
	report_json(null, r);
	report_latency_table(null, r);
	report_schbench(null, r);
	free(t1);
	free(t2);
	run_free(again);
	run_free(r);
	return 0;
}
