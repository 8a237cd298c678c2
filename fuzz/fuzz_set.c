// SPDX-License-Identifier: MIT
/*
 * fuzz/fuzz_set.c - libFuzzer target: --set KEY=VALUE overrides over a fixed scenario.
 *
 * The input is split at NUL bytes into at most 8 strings, used as scn_load()'s overrides (what
 * `cgsim run --set` passes) over a small valid scenario that has cgroups, a variant and a
 * sweep; when it loads, it runs for at most 0.2 simulated seconds with the scheduler's invariant
 * checker on. Seeds: fuzz/set.seeds, one input a line, its strings separated by tabs.
 */
#include "fuzz/fuzz_common.h"

#define MAX_SETS 8

/* Zijlstra's layout (scenarios/zijlstra-root-vm.yaml), shortened, with more knobs to turn. */
static const char base[] =
	"name: fuzz-set\n"
	"duration: 1s\n"
	"warmup: 0.1s\n"
	"seed: 1\n"
	"machine: { cpus: 2, hz: 250 }\n"
	"semantics: v2\n"
	"scheduler: { policy: eevdf }\n"
	"cgroups:\n"
	"  /:  { cgroup.subtree_control: +cpu }\n"
	"  vm: { cpu.weight: 100 }\n"
	"processes:\n"
	"  app:\n"
	"    threads:\n"
	"      worker: { count: 4, behavior: busy }\n"
	"      tick: { behavior: { periodic: { run: 0.5ms, period: 5ms } } }\n"
	"  qemu:\n"
	"    cgroup: vm\n"
	"    threads:\n"
	"      vcpu: { count: 2, behavior: busy }\n"
	"variants:\n"
	"  autogroup: { set: { machine.autogroup: true } }\n"
	"  interposed: { transform: interpose }\n"
	"sweep:\n"
	"  key: processes.app.threads.worker.count\n"
	"  values: [1, 2, 4]\n"
	"  group: vm\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	const char *sets[MAX_SETS];
	size_t nsets = 0, pos = 0;
	struct scenario *sc;
	char err[2048];

	if (!text)
		return 0;
	/* the strings between NUL bytes; the copy's own NUL ends the last one */
	while (pos <= size && nsets < MAX_SETS) {
		sets[nsets++] = text + pos;
		pos += strlen(text + pos) + 1;
	}
	sc = scn_load("fuzz.yaml", base, NULL, sets, nsets, err, sizeof(err));
	if (sc) {
		fuzz_run(sc);
		scn_free(sc);
	}
	free(text);
	return 0;
}
