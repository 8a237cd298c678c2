// SPDX-License-Identifier: MIT
/*
 * fuzz/fuzz_cgs.c - libFuzzer target: the .cgs interpreter under every rule set.
 *
 * Each input is a .cgs script, run twice under each of v2, rfc2017 and v1: whole, with
 * cg_script_run() (root-controllers, the stop at the first malformed line, the transcript), and
 * line by line with cg_script_line() against one hierarchy, as a scenario's timeline drives it,
 * going on past malformed lines and checking the hierarchy's invariants (cg_check()) after every
 * line; when no line is malformed the two transcripts must be the same. A broken invariant or
 * two different transcripts abort, which libFuzzer reports as a crash. Scripts that ask for
 * more than 20000 threads in all are skipped: they are only slow.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cgroup/cgroup.h"
#include "fuzz/fuzz_common.h"

#define MAX_THREADS 20000

/* The threads the script's "threads=N" words ask for, roughly (a bound, not the parse). */
static long long threads_asked(const char *text)
{
	long long sum = 0;
	const char *p = text;

	while ((p = strstr(p, "threads=")) != NULL) {
		long long n = 0;

		/* decimal digits, as the interpreter reads them; a count past the bound stops here */
		p += 8;
		while (*p >= '0' && *p <= '9' && n <= MAX_THREADS)
			n = n * 10 + (*p++ - '0');
		sum += n;
		if (sum > MAX_THREADS)
			break;
	}
	return sum;
}

static void check(const struct cg_hier *h, enum cg_semantics sem, int lineno)
{
	if (cg_check(h)) {
		fprintf(stderr, "fuzz_cgs: cg_check failed under %s after line %d\n",
			cg_semantics_name(sem), lineno);
		abort();
	}
}

/*
 * Line by line against one hierarchy, past malformed lines. When every line is well formed, the
 * transcript must be the one cg_script_run() gave (@whole; NULL if that failed).
 */
static void by_line(enum cg_semantics sem, const char *text, const char *whole)
{
	struct cg_hier *h = cg_hier_new(sem);
	const char *p = text;
	char *all = NULL;
	size_t alllen = 0;
	int lineno = 0;
	bool same = whole != NULL;

	if (!h)
		return;
	check(h, sem, 0);
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = malloc(len + 1), *out = NULL, err[512];
		int r;

		if (!line)
			break;
		memcpy(line, p, len);
		line[len] = '\0';
		r = cg_script_line(h, "fuzz.cgs", ++lineno, line, &out, err, sizeof(err));
		free(line);
		check(h, sem, lineno);
		if (r)
			same = false;
		if (same && out) {
			size_t n = strlen(out);
			char *grown = realloc(all, alllen + n + 1);

			if (!grown) {
				same = false;
			} else {
				all = grown;
				memcpy(all + alllen, out, n + 1);
				alllen += n;
			}
		}
		free(out);
		if (r == -ENOMEM)
			break;
		p = e ? e + 1 : p + len;
	}
	if (same && strcmp(all ? all : "", whole)) {
		fprintf(stderr, "fuzz_cgs: under %s, line by line gave\n%s\nbut the whole script\n%s\n",
			cg_semantics_name(sem), all ? all : "", whole);
		abort();
	}
	free(all);
	cg_hier_free(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	if (threads_asked(text) <= MAX_THREADS) {
		/* every rule set the model knows: cg_semantics_name() says "?" past the last */
		for (int s = 0; strcmp(cg_semantics_name((enum cg_semantics)s), "?"); s++) {
			char *out = NULL, err[512];

			if (cg_script_run((enum cg_semantics)s, "fuzz.cgs", text, &out, err,
					  sizeof(err)))
				out = NULL;
			by_line((enum cg_semantics)s, text, out);
			free(out);
		}
	}
	free(text);
	return 0;
}
