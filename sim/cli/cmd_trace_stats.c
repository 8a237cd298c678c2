// SPDX-License-Identifier: MIT
/*
 * sim/cli/cmd_trace_stats.c - cgsim trace-stats: what a scheduler trace says each thread did,
 * as cgsim reads it (sim/replay/tread.h, sim/replay/tstats.h; docs/replay.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/report/report.h"
#include "sim/replay/tread.h"
#include "sim/replay/tstats.h"

enum { O_JSON };

static const struct cli_opt ts_opts[] = {
	[O_JSON] = { .name = "json", .help = "print JSON instead of the table" },
};

static int cmd_trace_stats(int argc, char **argv);

const struct cli_cmd cli_cmd_trace_stats = {
	.name = "trace-stats",
	.operands = "TRACE",
	.operand_glob = "*.@(txt|trace|dat.txt)",
	.summary = "what a scheduler trace says each thread did, as cgsim reads it",
	.description =
	"Read TRACE, the text of the kernel's trace file, of trace-cmd report, of\n"
	"perf script (perf sched script) or of cgsim run --trace, and print per thread its\n"
	"CPU time, its bursts (CPU time from a wakeup to the switch-out that sleeps), its\n"
	"sleeps, its wakeup latencies and who woke it (docs/replay.md). TRACE - reads\n"
	"stdin. Events other than the scheduler's are counted and skipped.",
	.exit_status =
	"Exit status 0, or 2 for bad usage or a trace that cannot be read (FILE:LINE:COL and the\n"
	"reason on stderr, nothing on stdout).",
	.opts = ts_opts,
	.nopts = CLI_NOPTS(ts_opts),
	.main = cmd_trace_stats,
};

struct ts_args {
	const char *trace;
	bool json;
};

static int ts_arg(const struct cli_parse *p, int k, void *ctx)
{
	struct ts_args *a = ctx;

	if (k == CLI_OPERAND)
		return cli_operand_once(&cli_cmd_trace_stats, &a->trace, p->val, "trace");
	a->json = true;
	return -1;
}

/* Threads by CPU time, most first; the order they appeared in for equal times. */
static int by_cpu(const void *x, const void *y)
{
	const struct tstats_thread *a = *(const struct tstats_thread *const *)x;
	const struct tstats_thread *b = *(const struct tstats_thread *const *)y;

	if (a->cpu_ns != b->cpu_ns)
		return a->cpu_ns < b->cpu_ns ? 1 : -1;
	return (a > b) - (a < b);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double mean_ms(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n / 1e6 : 0;
}

static double share(const struct tstats *st, const struct tstats_thread *t)
{
	uint64_t span = tstats_last(st) - tstats_first(st);

	if (!span || !tstats_ncpu(st))
		return 0;
	return (double)t->cpu_ns / ((double)span * tstats_ncpu(st));
}

static void print_json(FILE *f, const char *path, const struct tread *r, const struct tstats *st,
		       const struct tstats_thread *const *th, size_t n)
{
	const struct tread_counts *c = tread_counts(r);

	fputs("{\n  \"trace\": ", f);
	report_json_string(f, path);
	fprintf(f, ",\n  \"format\": \"%s\",\n", tread_format_name(tread_format(r)));
	fprintf(f, "  \"first_ns\": %llu,\n  \"last_ns\": %llu,\n  \"cpus\": %d,\n",
		(unsigned long long)tstats_first(st), (unsigned long long)tstats_last(st),
		tstats_ncpu(st));
	fprintf(f, "  \"events\": %llu,\n  \"other_events\": %llu,\n  \"lost_events\": %llu,\n"
		   "  \"unseen_switch_outs\": %llu,\n  \"truncated\": %s,\n  \"threads\": [",
		(unsigned long long)c->events, (unsigned long long)c->other,
		(unsigned long long)c->lost, (unsigned long long)tstats_unseen(st),
		c->truncated ? "true" : "false");
	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = th[i];

		fprintf(f, "%s\n    { \"pid\": %d, \"tgid\": %d, \"life\": %u, \"comm\": ",
			i ? "," : "", (int)t->pid, (int)t->tgid, t->life);
		report_json_string(f, t->comm);
		fprintf(f, ", \"cpu_ns\": %llu, \"share\": %.6f, \"bursts\": %llu, "
			   "\"burst_ns\": %llu, \"burst_max_ns\": %llu, \"sleeps\": %llu, "
			   "\"sleep_ns\": %llu, \"sleep_max_ns\": %llu, \"wakeups\": %llu, "
			   "\"latency_sum_ns\": %llu, \"latency_p50_ns\": %llu, "
			   "\"latency_p99_ns\": %llu, \"latency_max_ns\": %llu, \"wait_ns\": %llu, "
			   "\"preemptions\": %llu, "
			   "\"migrations\": %llu, \"woken_by_task\": %llu, \"woken_by_irq\": %llu, "
			   "\"exited\": %s }",
			(unsigned long long)t->cpu_ns, share(st, t), (unsigned long long)t->bursts,
			(unsigned long long)t->burst_ns, (unsigned long long)t->burst_max,
			(unsigned long long)t->sleeps, (unsigned long long)t->sleep_ns,
			(unsigned long long)t->sleep_max, (unsigned long long)t->wakeups,
			(unsigned long long)t->lat_ns,
			(unsigned long long)tstats_latency_q(t, 0.5),
			(unsigned long long)tstats_latency_q(t, 0.99),
			(unsigned long long)t->lat_max, (unsigned long long)t->wait_ns,
			(unsigned long long)t->preempts, (unsigned long long)t->migrations,
			(unsigned long long)t->woken_by_task, (unsigned long long)t->woken_by_irq,
			t->exited ? "true" : "false");
	}
	fputs("\n  ]\n}\n", f);
}

static void print_table(FILE *f, const char *path, const struct tread *r, const struct tstats *st,
			const struct tstats_thread *const *th, size_t n)
{
	const struct tread_counts *c = tread_counts(r);
	uint64_t first = tstats_first(st), last = tstats_last(st);

	fprintf(f, "%s: %s, %llu events on %d CPUs, %.6f .. %.6f s (%.3f s)\n", path,
		tread_format_name(tread_format(r)), (unsigned long long)c->events, tstats_ncpu(st),
		(double)first / 1e9, (double)last / 1e9, (double)(last - first) / 1e9);
	if (c->other)
		fprintf(f, "skipped: %llu events of other kinds\n", (unsigned long long)c->other);
	if (c->lost)
		fprintf(f, "lost: %llu times a CPU's events were lost or overwritten (what ran "
			   "there then is not known)\n", (unsigned long long)c->lost);
	if (c->truncated)
		fputs("skipped: the last line, cut off\n", f);
	if (tstats_unseen(st))
		fprintf(f, "unseen: %llu switch-outs the trace does not show (that time is not "
			   "counted)\n", (unsigned long long)tstats_unseen(st));
	fputs("\ntimes in ms; share: of the machine over the trace; burst: CPU time from a wakeup "
	      "to the\nswitch-out that sleeps; latency: from the wakeup to the switch-in; wait: all the time it\n"
	      "was runnable and not running (after its wakeups and its preemptions)\n\n", f);
	fprintf(f, "%-15s %9s %8s %10s %7s %7s %8s %7s %9s %7s %7s %7s %7s %9s %7s %5s %7s %7s\n",
		"thread", "pid", "tgid", "cpu ms", "share", "bursts", "mean", "sleeps", "mean",
		"wakeups", "p50", "p99", "max", "wait", "preempt", "migr", "by task", "by irq");
	for (size_t i = 0; i < n; i++) {
		const struct tstats_thread *t = th[i];
		char pid[24], tgid[16];

		if (t->life)
			snprintf(pid, sizeof(pid), "%d+%u", (int)t->pid, t->life);
		else
			snprintf(pid, sizeof(pid), "%d", (int)t->pid);
		if (t->tgid >= 0)
			snprintf(tgid, sizeof(tgid), "%d", (int)t->tgid);
		else
			snprintf(tgid, sizeof(tgid), "-");
		fprintf(f, "%-15s %9s %8s %10.3f %7.4f %7llu %8.3f %7llu %9.3f %7llu %7.3f %7.3f "
			   "%7.3f %9.3f %7llu %5llu %7llu %7llu\n",
			t->comm, pid, tgid, ms(t->cpu_ns), share(st, t), (unsigned long long)t->bursts,
			mean_ms(t->burst_ns, t->bursts), (unsigned long long)t->sleeps,
			mean_ms(t->sleep_ns, t->sleeps), (unsigned long long)t->wakeups,
			ms(tstats_latency_q(t, 0.5)), ms(tstats_latency_q(t, 0.99)), ms(t->lat_max),
			ms(t->wait_ns), (unsigned long long)t->preempts, (unsigned long long)t->migrations,
			(unsigned long long)t->woken_by_task, (unsigned long long)t->woken_by_irq);
	}
}

/* Read all of @r into @st, with progress on a terminal: 0, or 2 with the message said. */
static int read_all(struct tread *r, struct tstats *st, FILE *in, const char *path)
{
	struct tread_event ev;
	char err[1024];
	struct stat sb;
	bool tty = isatty(STDERR_FILENO);
	off_t size = !fstat(fileno(in), &sb) && S_ISREG(sb.st_mode) ? sb.st_size : 0;
	int rc;

	while ((rc = tread_next(r, &ev, err, sizeof(err))) > 0) {
		int e = tstats_add(st, &ev);

		if (e == -EINVAL) {
			fprintf(stderr, "%s:%ld: error: CPU %d: at most %d CPUs are read\n", path,
				ev.line, ev.cpu, TSTATS_MAX_CPUS);
			return 2;
		}
		if (e) {
			fprintf(stderr, "cgsim: out of memory\n");
			return 2;
		}
		if (tty && size && !(tread_counts(r)->lines & 0xfffff))
			fprintf(stderr, "\rreading %s: %3.0f %%", path,
				100.0 * (double)ftello(in) / (double)size);
	}
	if (tty && size)
		fputs("\r\033[K", stderr);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	tstats_finish(st);
	return 0;
}

static int cmd_trace_stats(int argc, char **argv)
{
	struct ts_args a = { 0 };
	int rc = cli_parse(&cli_cmd_trace_stats, argc, argv, ts_arg, &a);
	const struct tstats_thread **th = NULL;
	struct tstats *st = NULL;
	struct tread *r = NULL;
	FILE *in;
	size_t n;

	if (rc >= 0)
		return rc;
	if (!a.trace)
		return cli_usage_error(&cli_cmd_trace_stats, "%s", "no trace given");
	in = strcmp(a.trace, "-") ? fopen(a.trace, "r") : stdin;
	if (!in) {
		fprintf(stderr, "%s: error: cannot open: %s\n", a.trace, strerror(errno));
		return 2;
	}
	r = tread_open(in, strcmp(a.trace, "-") ? a.trace : "<stdin>");
	st = tstats_new();
	rc = r && st ? read_all(r, st, in, a.trace) : 2;
	if (!r || !st)
		fprintf(stderr, "cgsim: out of memory\n");
	n = rc ? 0 : tstats_nthreads(st);
	if (!rc && n && !(th = calloc(n, sizeof(*th)))) {
		fprintf(stderr, "cgsim: out of memory\n");
		rc = 2;
	}
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			th[i] = tstats_thread(st, i);
		if (n)
			qsort(th, n, sizeof(*th), by_cpu);
		if (a.json)
			print_json(stdout, a.trace, r, st, th, n);
		else
			print_table(stdout, a.trace, r, st, th, n);
		rc = cli_finish_stdout();
	}
	free(th);
	tstats_free(st);
	tread_close(r);
	if (in != stdin)
		fclose(in);
	return rc;
}
