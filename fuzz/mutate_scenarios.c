// SPDX-License-Identifier: MIT
/*
 * fuzz/mutate_scenarios.c - a mutation fuzzer for the scenario loader and the runner.
 *
 *   mutate_scenarios ITERATIONS SEED FILE.yaml...
 *
 * Each iteration takes one of the files, applies one to four random edits (a byte changed, a
 * byte removed, a YAML or scenario token inserted), loads the result and, when it loads, runs
 * it for at most 0.2 simulated seconds (and only with at most 200 threads). Build it with the
 * sanitizers (`make fuzz`), with the scheduler's invariant checker on: any crash, leak,
 * undefined behaviour or broken invariant is a bug, since every input must give either a run or
 * one error message. Prints how many loaded and ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/run.h"
#include "sim/scenario.h"

#define MAX_LEN (1u << 20)

static uint64_t rnd_state;

static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rnd_state >> 33) % (n ? n : 1);
}

static const char *const tokens[] = { "0", "-1", "99999999", "{", "}", "[", "]", ":", ",",
	"\n  ", "\n", "exp(", "ms", "busy", "/", "..", "a/b", "threaded", "cpu.max", "1e308s", "'",
	"\"", "#", "&a", "*a", "!!str", "- ", "cgroup.procs", "+cpu", "periodic", "max" };

static size_t mutate(char *m, size_t len)
{
	int k = 1 + (int)rnd(4);

	for (int j = 0; j < k; j++) {
		size_t pos = rnd((unsigned)(len ? len : 1));
		unsigned op = rnd(3);

		if (op == 0 && len) {
			m[pos] = (char)(rnd(95) + 32);
		} else if (op == 1 && len > 1) {
			memmove(m + pos, m + pos + 1, len - pos);
			len--;
		} else {
			const char *t = tokens[rnd(sizeof(tokens) / sizeof(tokens[0]))];
			size_t tl = strlen(t);

			if (len + tl < MAX_LEN - 1) {
				memmove(m + pos + tl, m + pos, len - pos + 1);
				memcpy(m + pos, t, tl);
				len += tl;
			}
		}
	}
	m[len] = '\0';
	return len;
}

int main(int argc, char **argv)
{
	static char buf[16][MAX_LEN], m[MAX_LEN];
	size_t lens[16];
	int nfiles = 0, loaded = 0, ran = 0, iters;

	if (argc < 4) {
		fprintf(stderr, "usage: mutate_scenarios ITERATIONS SEED FILE.yaml...\n");
		return 2;
	}
	iters = atoi(argv[1]);
	rnd_state = strtoull(argv[2], NULL, 10);
	for (int i = 3; i < argc && nfiles < 16; i++) {
		FILE *f = fopen(argv[i], "rb");

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		lens[nfiles] = fread(buf[nfiles], 1, MAX_LEN / 2, f);
		buf[nfiles][lens[nfiles]] = '\0';
		fclose(f);
		nfiles++;
	}
	for (int it = 0; it < iters; it++) {
		int which = (int)rnd((unsigned)nfiles);
		char err[2048];
		struct scenario *sc;
		struct run_result *r;

		memcpy(m, buf[which], lens[which] + 1);
		mutate(m, lens[which]);
		sc = scn_load("fuzz.yaml", m, NULL, NULL, 0, err, sizeof(err));
		if (!sc)
			continue;
		loaded++;
		sc->sched.check = true;	/* every invariant after every scheduler call */
		if (sc->duration > 200000000ull) {
			sc->duration = 200000000ull;
			if (sc->warmup >= sc->duration)
				sc->warmup = 0;
		}
		if (sc->total_threads <= 200 && !run_scenario(sc, false, &r, err, sizeof(err))) {
			ran++;
			run_free(r);
		}
		scn_free(sc);
	}
	printf("mutate_scenarios: %d iterations, %d loaded, %d ran\n", iters, loaded, ran);
	return 0;
}
