// SPDX-License-Identifier: MIT
/*
 * fuzz/fuzz_scenario.c - libFuzzer target: the scenario loader (YAML, or rt-app JSON), then a
 * short run.
 *
 * The input is a scenario file or an rt-app workload. When it loads, it runs for at most 0.2 simulated seconds with
 * the scheduler's invariant checker on (skipped above 200 threads, which only makes runs slow).
 * Seeds: scenarios/, tests/bad-scenarios/, tests/cli/, tests/rtapp/ (make fuzz copies them).
 */
#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct scenario *sc;
	char err[2048];

	if (!text)
		return 0;
	sc = scn_load("fuzz.yaml", text, NULL, NULL, 0, err, sizeof(err));
	if (sc) {
		fuzz_run(sc);
		scn_free(sc);
	}
	free(text);
	return 0;
}
