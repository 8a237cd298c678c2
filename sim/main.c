/* SPDX-License-Identifier: MIT */
/*
 * sim/main.c - the command line (DESIGN.md, "Command line").
 *
 * Exit status: 0 success, 1 a check failed, 2 bad usage or bad input (one message on stderr
 * naming the file, line and column). --help and --version print to stdout and exit 0.
 */
#include "cgroup/cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CGSIM_VERSION
#define CGSIM_VERSION "unknown"
#endif

#define MAX_INPUT (64u << 20)	/* no script is larger than this: refuse rather than exhaust */

static const char usage_main[] =
	"usage: cgsim COMMAND [ARGS]\n"
	"\n"
	"A discrete-event simulator of the Linux fair scheduler and the cgroup hierarchy.\n"
	"\n"
	"commands:\n"
	"  cgroupfs [--semantics v2|rfc2017|v1] FILE.cgs|-\n"
	"            run a cgroupfs script against the cgroup model and print the result of\n"
	"            every operation (errno names as the kernel gives them)\n"
	"\n"
	"  cgsim --help, cgsim COMMAND --help, cgsim --version\n"
	"\n"
	"Exit status: 0 success, 1 a check failed, 2 bad usage or bad input.\n";

static const char usage_cgroupfs[] =
	"usage: cgsim cgroupfs [--semantics v2|rfc2017|v1] FILE.cgs|-\n"
	"\n"
	"Run a .cgs script (one operation per line: root-controllers, proc, mkdir, rmdir, write,\n"
	"read; '#' starts a comment) against a new cgroup hierarchy and print\n"
	"\"LINENO: OP ARGS -> RESULT\" for each operation. RESULT is ok, the kernel's errno name,\n"
	"or a file's content with its lines joined by '|'.\n"
	"\n"
	"  --semantics v2       cgroup v2 with thread mode as merged in Linux 4.14 (default)\n"
	"  --semantics rfc2017  Tejun Heo's February 2017 thread-mode proposal\n"
	"  --semantics v1       the cgroup v1 cpu hierarchy (tasks, cpu.shares, cpu.cfs_*)\n"
	"\n"
	"Exit status 0 when the script ran to its end, whatever each operation answered; 2 for a\n"
	"script that cannot be run (unreadable file, unknown operation, malformed line), with\n"
	"FILE:LINE:COL and what was expected on stderr and nothing on stdout.\n";

static int usage_error(const char *usage, const char *fmt, const char *arg)
{
	fprintf(stderr, "cgsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	return 2;
}

/* Read all of @f into a NUL-terminated buffer; refuses NUL bytes and oversized input. */
static int slurp(FILE *f, const char *name, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t n;

		if (len + 1 == cap) {
			char *nb;

			if (cap >= MAX_INPUT) {
				fprintf(stderr, "cgsim: %s: larger than %u MiB\n", name,
					MAX_INPUT >> 20);
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "cgsim: %s: read error: %s\n", name, strerror(errno));
		free(buf);
		return -EIO;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		size_t off = (size_t)((char *)memchr(buf, '\0', len) - buf);
		int line = 1;

		for (size_t i = 0; i < off; i++)
			line += buf[i] == '\n';
		fprintf(stderr, "cgsim: %s:%d: a NUL byte: not a text file\n", name, line);
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

static int cmd_cgroupfs(int argc, char **argv)
{
	enum cg_semantics sem = CG_SEM_V2;
	const char *file = NULL;
	char *text = NULL, *out = NULL, err[1024];
	FILE *f;
	int r;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_cgroupfs, stdout);
			return 0;
		}
		if (!strcmp(a, "--semantics") || !strncmp(a, "--semantics=", 12)) {
			const char *v = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v)
				return usage_error(usage_cgroupfs, "%s needs a value", a);
			if (cg_semantics_parse(v, &sem))
				return usage_error(usage_cgroupfs,
						   "unknown semantics '%s' (expected v2, rfc2017 or v1)",
						   v);
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error(usage_cgroupfs, "unknown option '%s'", a);
		if (file)
			return usage_error(usage_cgroupfs, "more than one script given ('%s')", a);
		file = a;
	}
	if (!file)
		return usage_error(usage_cgroupfs, "%s", "no script given (a FILE.cgs or - for stdin)");
	if (!strcmp(file, "-")) {
		f = stdin;
		file = "<stdin>";
	} else {
		f = fopen(file, "rb");
		if (!f) {
			fprintf(stderr, "cgsim: %s: %s\n", file, strerror(errno));
			return 2;
		}
	}
	r = slurp(f, file, &text);
	if (f != stdin)
		fclose(f);
	if (r)
		return 2;
	r = cg_script_run(sem, file, text, &out, err, sizeof(err));
	free(text);
	if (r) {
		fprintf(stderr, "%s\n", err[0] ? err : "cgsim: out of memory");
		free(out);
		return 2;
	}
	fputs(out, stdout);
	free(out);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cgsim: writing the output: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(usage_main, "%s", "no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cgsim %s\n", CGSIM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "cgroupfs"))
		return cmd_cgroupfs(argc - 1, argv + 1);
	return usage_error(usage_main, "unknown command '%s'", argv[1]);
}
