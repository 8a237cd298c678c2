// SPDX-License-Identifier: MIT
/*
 * fuzz/fuzz_trace.c - libFuzzer target: a scheduler trace's text, as cgsim trace-stats reads
 * it (sim/replay/tread.h, sim/replay/tstats.h), where it may come from anyone.
 *
 * Every event the reader gives goes to the per-thread figures, recording the replay's steps,
 * which are then read as the command and a replay read them, quantiles included. A reader's error must name the file and line. Seeds:
 * cgsim's traces of a few scenarios, cut to 0.3 s (make fuzz-seeds).
 */
#include <stdio.h>

#include "fuzz/fuzz_common.h"
#include "sim/replay/tread.h"
#include "sim/replay/tstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	struct tread *r;
	struct tstats *st;
	struct tread_event ev;
	char err[1024];
	int rc;

	if (!size || !(f = fmemopen((void *)data, size, "r")))
		return 0;
	r = tread_open(f, "fuzz.txt");
	st = tstats_new();
	if (!r || !st)
		abort();
	tstats_record(st);	/* the replay's steps too */
	while ((rc = tread_next(r, &ev, err, sizeof(err))) > 0)
		if (tstats_add(st, &ev) == -ENOMEM)
			abort();
	if (rc < 0 && strncmp(err, "fuzz.txt:", 9))
		abort();		/* an error that does not say where */
	tstats_finish(st);
	for (size_t i = 0; i < tstats_nthreads(st); i++) {
		const struct tstats_thread *t = tstats_thread(st, i);

		uint64_t run = 0;

		if (t->burst_ns > t->cpu_ns || tstats_latency_q(t, 0.99) > t->lat_max)
			abort();	/* bursts are CPU time; no quantile above the largest value */
		for (size_t k = 0; k < t->nsteps; k++)
			run += t->steps[k].kind == TSTATS_RUN ? t->steps[k].ns : 0;
		if (run > t->cpu_ns)
			abort();	/* the replay's bursts are CPU time the trace showed */
	}
	tstats_free(st);
	tread_close(r);
	fclose(f);
	return 0;
}
