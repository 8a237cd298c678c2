// SPDX-License-Identifier: MIT
/*
 * sim/report/report.c - text, JSON and CSV renderings of a run (sim/report/report.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/report/report.h"
#include "sim/trace/trace.h"
#include "sim/util/util.h"

void report_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static const char *policy(const struct run_result *r)
{
	return sched_policy_name(r->sc->sched.policy);
}

const char *report_kernel(const struct sched_config *cfg, char *buf, size_t len)
{
	sched_config_describe(cfg, buf, len);	/* cut short at worst */
	return buf;
}

void report_kernel_text(FILE *f, const struct sched_config *cfg, const char *indent)
{
	const char *names[SCHED_FEAT_NR + 16];
	size_t n = sched_config_overrides(cfg, names, sizeof(names) / sizeof(names[0]));
	char k[SCHED_KERNEL_NAME_MAX];
	size_t col;

	fprintf(f, "%skernel %s (%s, cgroup_mode %s)\n", indent,
		sched_kernel_name(cfg->kernel, k, sizeof(k)), sched_policy_name(cfg->policy),
		sched_cgroup_mode_name(cfg->cgroup_mode));
	if (!n)
		return;
	col = (size_t)fprintf(f, "%s  overridden:", indent);
	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++) {
		size_t w = strlen(names[i]) + (i + 1 < n);	/* the name and its comma */

		if (col + 1 + w > 80)
			col = (size_t)fprintf(f, "\n%s   ", indent) - 1;
		col += (size_t)fprintf(f, " %s%s", names[i], i + 1 < n ? "," : "");
	}
	fputc('\n', f);
}

void report_json_kernel(FILE *f, const struct sched_config *cfg)
{
	const char *names[SCHED_FEAT_NR + 16];
	size_t n = sched_config_overrides(cfg, names, sizeof(names) / sizeof(names[0]));
	char k[SCHED_KERNEL_NAME_MAX];

	fprintf(f, "\"kernel\": \"%s\", \"cgroup_mode\": \"%s\", \"overrides\": [",
		sched_kernel_name(cfg->kernel, k, sizeof(k)),
		sched_cgroup_mode_name(cfg->cgroup_mode));
	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", names[i]);
	fputc(']', f);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void report_label(FILE *f, const char *name, int width)
{
	if ((int)strlen(name) > width)
		fprintf(f, "%s\n%-*s", name, width, "");
	else
		fprintf(f, "%-*s", width, name);
}

/* The wakeup latency block: one row per thread that woke in the window, within 80 columns. */
static void text_latency(FILE *f, const struct run_result *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		char name[160];

		if (!t->lat_samples)
			continue;
		if (!any)
			fprintf(f, "\n%-16s %7s %7s %7s %7s %7s %7s %7s %7s\n", "wakeup latency",
				"p50 ms", "p90", "p99", "p99.9", "min", "max", "mean", "samples");
		any = true;
		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		report_label(f, name, 16);
		fprintf(f, " %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7llu\n", ms(t->lat_p50),
			ms(t->lat_p90), ms(t->lat_p99), ms(t->lat_p999), ms(t->lat_min),
			ms(t->lat_max), ms(t->lat_mean), (unsigned long long)t->lat_samples);
	}
}

static double ms_signed(int64_t ns)
{
	return (double)ns / 1e6;
}

/* rt-app's view of the periodic threads: one row per periodic thread, within 80 columns. */
static void text_activations(FILE *f, const struct run_result *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		char name[160];

		if (!t->periodic)
			continue;
		if (!any)
			fprintf(f, "\n%-16s %8s %8s %8s %11s %8s %8s\n", "periodic",
				"activ.", "overruns", "missed", "slack min", "p50", "mean ms");
		any = true;
		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		report_label(f, name, 16);
		if (!t->acts_done) {
			fprintf(f, " %8d %8s %8s %11s %8s %8s\n", 0, "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(f, " %8llu %8llu %8llu %11.3f %8.3f %8.3f\n",
			(unsigned long long)t->acts_done, (unsigned long long)t->overruns,
			(unsigned long long)t->acts_missed, ms_signed(t->slack_min),
			ms_signed(t->slack_p50), ms_signed(t->slack_mean));
	}
}

/* Room for any name or timeline result shown (a path is at most 1024 bytes, an operation a
 * YAML scalar of at most 4096), control characters shown as \xNN. */
#define VIS_SIZE REPORT_VISIBLE_SIZE(4096 + 1100)

/*
 * The thread table's two label columns. A thread whose name or cgroup is wider than its
 * column gets both, whole, on a line of their own and its figures on the next: a cut label
 * could read as another's, and the table stays within 80 columns.
 */
#define TEXT_THREAD_W	20
#define TEXT_CGROUP_W	17

static void text_threads(FILE *f, const struct run_result *r)
{
	char vis[VIS_SIZE];

	fprintf(f, "\n%-*s %-*s %7s %8s %9s %8s %5s\n", TEXT_THREAD_W, "thread", TEXT_CGROUP_W,
		"cgroup", "share", "ideal", "wait ms", "switches", "migr");
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];
		const char *cg = report_visible(t->cgroup, vis, sizeof(vis));
		char name[160];

		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		if (strlen(name) > TEXT_THREAD_W || strlen(cg) > TEXT_CGROUP_W)
			fprintf(f, "%s  %s\n%-*s", name, cg, TEXT_THREAD_W + 1 + TEXT_CGROUP_W, "");
		else
			fprintf(f, "%-*s %-*s", TEXT_THREAD_W, name, TEXT_CGROUP_W, cg);
		fprintf(f, t->ideal_bound ? " %7.4f %7.4f* %9.3f" : " %7.4f %8.4f %9.3f", t->share,
			t->ideal, ms(t->wait_ns));
		fprintf(f, " %8llu %5llu\n", (unsigned long long)t->switches,
			(unsigned long long)t->migrations);
	}
	if (r->bound_threads)
		fputs("* the ideal is only an upper bound: the thread sleeps or waits after it runs,\n"
		      "  so it asks for less when it waits longer (left out of the fairness figures)\n",
		      f);
}

/* ---------------- threads grouped by process ---------------- */

/* A thread's process and index; a process's threads, then, as [from, to) of these. */
struct procs_key {
	const char *process;
	size_t i;
};

struct procs_run {
	size_t first, from, to;
};

/* By process, then by index: each process's threads together, its first thread first. */
static int procs_key_cmp(const void *a, const void *b)
{
	const struct procs_key *x = a, *y = b;
	int c = strcmp(x->process, y->process);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int procs_run_cmp(const void *a, const void *b)
{
	const struct procs_run *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

void report_procs_free(struct report_procs *p)
{
	free(p->idx);
	free(p->start);
}

int report_procs_group(const struct run_result *r, struct report_procs *p)
{
	size_t n = r->nthreads, k = 0;
	struct procs_key *key = malloc((n ? n : 1) * sizeof(*key));
	struct procs_run *run = malloc((n ? n : 1) * sizeof(*run));

	memset(p, 0, sizeof(*p));
	p->idx = malloc((n ? n : 1) * sizeof(*p->idx));
	p->start = malloc((n + 1) * sizeof(*p->start));
	if (!key || !run || !p->idx || !p->start) {
		free(key);
		free(run);
		report_procs_free(p);
		memset(p, 0, sizeof(*p));
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		key[i] = (struct procs_key){ r->threads[i].process, i };
	qsort(key, n, sizeof(*key), procs_key_cmp);
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(key[i].process, key[i - 1].process))
			run[p->n++] = (struct procs_run){ key[i].i, i, i };
		run[p->n - 1].to = i + 1;
	}
	qsort(run, p->n, sizeof(*run), procs_run_cmp);
	for (size_t j = 0; j < p->n; j++) {
		p->start[j] = k;
		for (size_t i = run[j].from; i < run[j].to; i++)
			p->idx[k++] = key[i].i;
	}
	p->start[p->n] = k;
	free(key);
	free(run);
	return 0;
}

/*
 * The processes' roll-up: each process's threads summed, which is the figure the thread-mode
 * debate turns on (what a process gets, however its threads are spread over cgroups). Shown
 * only when some process has more than one thread; otherwise it repeats the thread table.
 * Processes appear in the order of their first thread.
 */
static void text_processes(FILE *f, const struct run_result *r)
{
	struct report_procs p;

	if (report_procs_group(r, &p)) {
		fputs("cgsim: out of memory\n", stderr);
		return;
	}
	/* fewer processes than threads: some process has several */
	if (p.n < r->nthreads)
		fprintf(f, "\n%-32s %7s %7s %8s\n", "process", "threads", "share", "ideal");
	for (size_t j = 0; p.n < r->nthreads && j < p.n; j++) {
		double share = 0, ideal = 0;
		bool bound = false;

		for (size_t k = p.start[j]; k < p.start[j + 1]; k++) {
			const struct run_thread *t = &r->threads[p.idx[k]];

			share += t->share;
			ideal += t->ideal;
			bound |= t->ideal_bound;
		}
		report_label(f, r->threads[p.idx[p.start[j]]].process, 32);
		fprintf(f, bound ? " %7zu %7.4f %7.4f*\n" : " %7zu %7.4f %8.4f\n",
			p.start[j + 1] - p.start[j], share, ideal);
	}
	report_procs_free(&p);
}

void report_text(FILE *f, const struct run_result *r)
{
	const struct scenario *sc = r->sc;
	double secs = (double)r->measured_ns / 1e9;
	char vis[VIS_SIZE];

	fprintf(f, "%s (variant %s, seed %llu)\n", sc->name, sc->variant,
		(unsigned long long)sc->seed);
	report_kernel_text(f, &sc->sched, "");
	fprintf(f, "%d CPUs, %s semantics, ", r->cpus, cg_semantics_name(sc->semantics));
	if (sc->steal > 0)	/* shares below are of wall time, the hypervisor's part included */
		fprintf(f, "%.1f %% stolen, ", 100 * sc->steal);
	fprintf(f, "%.3f s measured after %.3f s of warm-up\n\n", secs, (double)sc->warmup / 1e9);
	fprintf(f, "%-40s %10s %8s %8s\n", "cgroup", "cpu s", "share", "ideal");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct run_group *g = &r->groups[i];

		report_label(f, report_visible(g->path, vis, sizeof(vis)), 40);
		fprintf(f, " %10.3f %8.4f %8.4f\n", (double)g->cpu_ns / 1e9, g->share, g->ideal);
	}
	text_threads(f, r);
	text_processes(f, r);
	text_latency(f, r);
	text_activations(f, r);
	if (r->bound_threads)
		fprintf(f, "\nfairness: Jain %.4f over share/ideal of %zu threads (%zu marked * left "
			   "out)\n  largest error %.4f absolute, %.2f %% relative\n", r->jain,
			r->fair_threads, r->bound_threads, r->max_abs_error, 100 * r->max_rel_error);
	else
		fprintf(f, "\nfairness: Jain %.4f over share/ideal\n  largest error %.4f absolute, "
			   "%.2f %% relative\n", r->jain, r->max_abs_error, 100 * r->max_rel_error);
	fprintf(f, "scheduler: %.0f switches/s, %.0f migrations/s, %.0f level operations/s\n"
		   "  overhead %.3f ms (%.3f %% of capacity)\n",
		secs > 0 ? (double)r->switches / secs : 0, secs > 0 ? (double)r->migrations / secs : 0,
		secs > 0 ? (double)r->level_ops / secs : 0, ms(r->overhead_ns),
		100.0 * (double)r->overhead_ns / ((double)r->cpus * (double)r->measured_ns));
	for (size_t i = 0; i < r->nops; i++) {
		if (!i)
			fputs("timeline:\n", f);
		fprintf(f, "  at %.3f s  %s\n", (double)r->ops[i].at / 1e9,
			report_visible(r->ops[i].result, vis, sizeof(vis)));
	}
	for (size_t i = 0; i < r->nrefused; i++) {
		if (!i)
			fputs("refused steps (the thread stayed where it was):\n", f);
		fprintf(f, "  at %.3f s  %s\n", (double)r->refused[i].at / 1e9,
			report_visible(r->refused[i].result, vis, sizeof(vis)));
	}
	fprintf(f, "events: %llu\n", (unsigned long long)r->events);
}

/* ---------------- perf sched latency's table ---------------- */

/* The mean delay as perf computes it: the integer division of the total by the count. */
static uint64_t delay_avg(const struct run_thread *t)
{
	return t->delays ? t->delay_total / t->delays : 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/*
 * perf's default order, "avg, max, switch, runtime": each key descending, the first that
 * differs decides; full ties keep the order of their tids, as perf's tree insertion does.
 */
static int lat_row_cmp(const void *a, const void *b)
{
	const struct run_thread *x = *(const struct run_thread *const *)a;
	const struct run_thread *y = *(const struct run_thread *const *)b;
	int c = cmp_u64_desc(delay_avg(x), delay_avg(y));

	if (!c)
		c = cmp_u64_desc(x->delay_max, y->delay_max);
	if (!c)
		c = cmp_u64_desc(x->delays, y->delays);
	if (!c)
		c = cmp_u64_desc(x->cpu_ns, y->cpu_ns);
	return c ? c : (x->tid > y->tid) - (x->tid < y->tid);
}

/* A time as perf's timestamp__scnprintf_usec() writes it: seconds.microseconds. */
static const char *perf_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u / 1000u));
	return buf;
}

static void dashes(FILE *f, int n)
{
	fputc(' ', f);
	while (n-- > 0)
		fputc('-', f);
	fputc('\n', f);
}

/*
 * `perf sched latency` (tools/perf/builtin-sched.c, the version with "max start" and "max
 * end"): one row per thread whose delay a switch-in ended in the window, TASK:TID, its CPU
 * time, that count ("Switches"), the mean and the longest delay, and when the longest began
 * and ended (seconds since the start of the run), then the total of the first two columns.
 */
void report_latency_table(FILE *f, const struct run_result *r)
{
	const struct run_thread **rows = malloc((r->nthreads ? r->nthreads : 1) * sizeof(*rows));
	uint64_t runtime = 0, count = 0;
	char vis[VIS_SIZE], a[32], b[32];
	size_t n = 0;

	if (!rows) {
		fputs("cgsim: out of memory\n", stderr);
		return;
	}
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].delays)
			rows[n++] = &r->threads[i];
	qsort(rows, n, sizeof(*rows), lat_row_cmp);
	fputc('\n', f);
	dashes(f, 139);
	fputs("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    "
	      "| Max delay start           | Max delay end          |\n", f);
	dashes(f, 139);
	for (size_t i = 0; i < n; i++) {
		const struct run_thread *t = rows[i];
		char name[160];
		int w;

		snprintf(name, sizeof(name), "%s/%s", t->process, t->name);
		/* the pid the thread has in cgsim's traces, so that the two read together */
		w = fprintf(f, "  %s:%d ", report_visible(name, vis, sizeof(vis)),
			    TRACE_PID_BASE + t->tid);
		fprintf(f, "%*s|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | "
			   "max end: %12s s\n", w < 24 ? 24 - w : 0, "", ms(t->cpu_ns),
			(unsigned long long)t->delays, ms(delay_avg(t)), ms(t->delay_max),
			perf_secs(t->delay_max_start, a, sizeof(a)),
			perf_secs(t->delay_max_end, b, sizeof(b)));
		runtime += t->cpu_ns;
		count += t->delays;
	}
	dashes(f, 113);
	fprintf(f, "  TOTAL:                |%11.3f ms |%9llu |\n", ms(runtime),
		(unsigned long long)count);
	dashes(f, 51);
	fputc('\n', f);
	free(rows);
}

/* ---------------- schbench's percentiles ---------------- */

/*
 * One block of schbench's show_latencies() over the kept latencies of threads @idx[0 ..
 * @n - 1] (threads 0 .. @n - 1 when @idx is NULL), pooled as schbench pools its workers'
 * histograms.
 */
static int schbench_block(FILE *f, const struct run_result *r, const size_t *idx, size_t nidx)
{
	static const double q[4] = { 50, 90, 99, 99.9 };
	uint64_t us[4], count[4], lo = UINT64_MAX, hi = 0, *all;
	size_t n = 0, k = 0;

	for (size_t j = 0; j < nidx; j++)
		n += r->threads[idx ? idx[j] : j].nlat;
	if (!n)
		return 0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t j = 0; j < nidx; j++) {
		const struct run_thread *t = &r->threads[idx ? idx[j] : j];

		if (!t->nlat)
			continue;
		memcpy(all + k, t->lat, t->nlat * sizeof(*all));
		k += t->nlat;
		lo = t->lat_min < lo ? t->lat_min : lo;
		hi = t->lat_max > hi ? t->lat_max : hi;
	}
	util_sort_u64(all, n);
	run_usec_percentiles(all, n, q, 4, us, count);
	free(all);
	fprintf(f, "Wakeup Latencies percentiles (usec) runtime %llu (s) (%zu total samples)\n",
		(unsigned long long)(r->measured_ns / 1000000000u), n);
	for (int j = 0; j < 4; j++)
		fprintf(f, "\t%s%2.1fth: %-10llu (%llu samples)\n", j == 2 ? "* " : "  ", q[j],
			(unsigned long long)us[j], (unsigned long long)count[j]);
	fprintf(f, "\t  min=%llu, max=%llu\n", (unsigned long long)(lo / 1000),
		(unsigned long long)(hi / 1000));
	return 0;
}

/* Whether a thread of process @j of @p had a wakeup latency kept. */
static bool procs_woke(const struct run_result *r, const struct report_procs *p, size_t j)
{
	for (size_t k = p->start[j]; k < p->start[j + 1]; k++)
		if (r->threads[p->idx[k]].nlat)
			return true;
	return false;
}

/*
 * schbench's "Wakeup Latencies percentiles" block of every thread's wakeups pooled, then, when
 * more than one process woke, one block per process that woke, after a line naming it.
 */
void report_schbench(FILE *f, const struct run_result *r)
{
	char vis[VIS_SIZE];
	int e = schbench_block(f, r, NULL, r->nthreads);
	struct report_procs p = { 0 };
	size_t woke = 0;

	if (!e)
		e = report_procs_group(r, &p);
	for (size_t j = 0; !e && j < p.n; j++)
		woke += procs_woke(r, &p, j);
	for (size_t j = 0; !e && woke > 1 && j < p.n; j++) {
		if (!procs_woke(r, &p, j))
			continue;
		fprintf(f, "process %s\n", report_visible(r->threads[p.idx[p.start[j]]].process, vis,
							   sizeof(vis)));
		e = schbench_block(f, r, p.idx + p.start[j], p.start[j + 1] - p.start[j]);
	}
	report_procs_free(&p);
	if (e)
		fputs("cgsim: out of memory\n", stderr);
}

void report_shares_text(FILE *f, const struct run_result *r)
{
	char vis[VIS_SIZE];

	fprintf(f, "%s (variant %s): ideal shares on %d CPUs, of machine capacity\n\n",
		r->sc->name, r->sc->variant, r->cpus);
	fprintf(f, "%-32s %8s\n", "cgroup", "ideal");
	for (size_t i = 0; i < r->ngroups; i++)
		fprintf(f, "%-32s %8.4f\n", report_visible(r->groups[i].path, vis, sizeof(vis)),
			r->groups[i].ideal);
	fprintf(f, "\n%-32s %-16s %8s\n", "thread", "cgroup", "ideal");
	for (size_t i = 0; i < r->nthreads; i++) {
		char name[160];

		snprintf(name, sizeof(name), "%s/%s", r->threads[i].process, r->threads[i].name);
		fprintf(f, "%-32s %-16s %8.4f\n", name,
			report_visible(r->threads[i].cgroup, vis, sizeof(vis)), r->threads[i].ideal);
	}
}

static const char *cgsim_version = "unknown";

void report_set_version(const char *version)
{
	cgsim_version = version;
}

const char *report_version(void)
{
	return cgsim_version;
}

void report_json_versions(FILE *f)
{
	fprintf(f, "\"schema_version\": %d, \"cgsim_version\": ", REPORT_SCHEMA_VERSION);
	report_json_string(f, cgsim_version);
}

void report_json_head(FILE *f, const struct run_result *r, size_t seeds)
{
	const struct scenario *sc = r->sc;

	fputs("{\n  ", f);
	report_json_versions(f);
	fputs(",\n  \"scenario\": ", f);
	report_json_string(f, sc->name);
	fputs(", \"variant\": ", f);
	report_json_string(f, sc->variant);
	fprintf(f, ", \"seed\": %llu", (unsigned long long)sc->seed);
	if (seeds)
		fprintf(f, ", \"seeds\": %zu", seeds);
	fprintf(f, ",\n  \"cpus\": %d, \"policy\": \"%s\", \"semantics\": \"%s\",\n  ", r->cpus,
		policy(r), cg_semantics_name(sc->semantics));
	report_json_kernel(f, &sc->sched);
	fputs(",\n", f);
	fprintf(f, "  \"duration_ns\": %llu, \"measured_ns\": %llu,\n",
		(unsigned long long)sc->duration, (unsigned long long)r->measured_ns);
}

/* A thread's object up to its identity: process, name, cgroup. */
static void json_thread_head(FILE *f, const struct run_thread *t, size_t i)
{
	fputs(i ? ",\n    { \"process\": " : "\n    { \"process\": ", f);
	report_json_string(f, t->process);
	fputs(", \"name\": ", f);
	report_json_string(f, t->name);
	fputs(", \"cgroup\": ", f);
	report_json_string(f, t->cgroup);
}


/* "KEY": [ { "at_ns": N, "result": "..." }, ... ], */
static void json_ops(FILE *f, const char *key, const struct run_op *ops, size_t n)
{
	fprintf(f, "  \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{ \"at_ns\": %llu, \"result\": ", i ? ", " : "",
			(unsigned long long)ops[i].at);
		report_json_string(f, ops[i].result);
		fputs(" }", f);
	}
	fputs("],\n", f);
}

void report_json(FILE *f, const struct run_result *r)
{
	report_json_head(f, r, 0);
	fputs("  \"groups\": [", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct run_group *g = &r->groups[i];

		fputs(i ? ",\n    { \"path\": " : "\n    { \"path\": ", f);
		report_json_string(f, g->path);
		fprintf(f, ", \"cpu_ns\": %llu, \"share\": %.6f, \"ideal\": %.6f }",
			(unsigned long long)g->cpu_ns, g->share, g->ideal);
	}
	fputs(r->ngroups ? "\n  ],\n  \"threads\": [" : "],\n  \"threads\": [", f);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];

		json_thread_head(f, t, i);
		fprintf(f, ", \"cpu_ns\": %llu, \"share\": %.6f, \"ideal\": %.6f, \"wait_ns\": %llu, "
			   "\"latency_p50_ns\": %llu, \"latency_p90_ns\": %llu, \"latency_p99_ns\": "
			   "%llu, \"latency_max_ns\": %llu, \"switches\": %llu, \"migrations\": %llu, "
			   "\"wakeups\": %llu, \"wakeups_delayed\": %llu, \"overruns\": %llu, "
			   "\"latency_p999_ns\": %llu, \"latency_min_ns\": %llu, \"latency_mean_ns\": "
			   "%llu, \"latency_samples\": %llu, \"delays\": %llu, \"delay_total_ns\": %llu, "
			   "\"delay_max_ns\": %llu, \"delay_max_start_ns\": %llu, "
			   "\"delay_max_end_ns\": %llu, \"activations\": %llu, \"missed_periods\": "
			   "%llu, \"slack_min_ns\": %lld, \"slack_p50_ns\": %lld, \"slack_mean_ns\": "
			   "%lld, \"ideal_bound\": %s }",
			(unsigned long long)t->cpu_ns, t->share, t->ideal,
			(unsigned long long)t->wait_ns, (unsigned long long)t->lat_p50,
			(unsigned long long)t->lat_p90, (unsigned long long)t->lat_p99,
			(unsigned long long)t->lat_max, (unsigned long long)t->switches,
			(unsigned long long)t->migrations, (unsigned long long)t->wakeups,
			(unsigned long long)t->delayed, (unsigned long long)t->overruns,
			(unsigned long long)t->lat_p999, (unsigned long long)t->lat_min,
			(unsigned long long)t->lat_mean, (unsigned long long)t->lat_samples,
			(unsigned long long)t->delays, (unsigned long long)t->delay_total,
			(unsigned long long)t->delay_max, (unsigned long long)t->delay_max_start,
			(unsigned long long)t->delay_max_end, (unsigned long long)t->acts_done,
			(unsigned long long)t->acts_missed, (long long)t->slack_min,
			(long long)t->slack_p50, (long long)t->slack_mean, t->ideal_bound ? "true" : "false");
	}
	fputs(r->nthreads ? "\n  ],\n" : "],\n", f);
	fprintf(f, "  \"fairness\": { \"jain\": %.6f, \"max_abs_error\": %.6f, \"max_rel_error\": "
		   "%.6f, \"threads\": %zu, \"bounded\": %zu },\n", r->jain, r->max_abs_error,
		r->max_rel_error, r->fair_threads, r->bound_threads);
	fprintf(f, "  \"overhead\": { \"sched_ns\": %llu, \"fraction\": %.8f, \"level_ops\": %llu, "
		   "\"level_walks\": %llu, \"switches\": %llu, \"migrations\": %llu },\n",
		(unsigned long long)r->overhead_ns,
		(double)r->overhead_ns / ((double)r->cpus * (double)r->measured_ns),
		(unsigned long long)r->level_ops, (unsigned long long)r->level_walks,
		(unsigned long long)r->switches,
		(unsigned long long)r->migrations);
	json_ops(f, "timeline", r->ops, r->nops);
	json_ops(f, "refused_steps", r->refused, r->nrefused);
	fprintf(f, "  \"events\": %llu, \"wall_ns\": %llu\n}\n", (unsigned long long)r->events,
		(unsigned long long)r->wall_ns);
}

void report_shares_json(FILE *f, const struct run_result *r)
{
	report_json_head(f, r, 0);
	fputs("  \"groups\": [", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		fputs(i ? ",\n    { \"path\": " : "\n    { \"path\": ", f);
		report_json_string(f, r->groups[i].path);
		fprintf(f, ", \"ideal\": %.6f }", r->groups[i].ideal);
	}
	fputs(r->ngroups ? "\n  ],\n  \"threads\": [" : "],\n  \"threads\": [", f);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];

		json_thread_head(f, t, i);
		fprintf(f, ", \"ideal\": %.6f }", t->ideal);
	}
	fputs(r->nthreads ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* ---------------- CSV files ---------------- */

void report_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static bool control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

const char *report_visible(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 0;

	while (*p && !control(*p))
		p++;
	if (!*p)
		return s;
	if (len < 5)
		return "?";
	for (p = (const unsigned char *)s; *p && k + 5 <= len; p++) {
		if (control(*p))
			k += (size_t)snprintf(buf + k, len - k, "\\x%02x", *p);
		else
			buf[k++] = (char)*p;
	}
	buf[k] = '\0';
	return buf;
}

void report_md_code(FILE *f, const char *s)
{
	size_t run = 0, longest = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
	if (longest)
		fputc(' ', f);	/* a space keeps a backquote at the edge out of the fence */
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '|')
			fputs("\\|", f);
		else if (control(*p))
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
	if (longest)
		fputc(' ', f);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
}

static void write_threads_csv(FILE *f, const struct run_result *r)
{
	fputs("process,name,cgroup,cpu_ns,share,ideal,wait_ns,latency_p50_ns,latency_p99_ns,"
	      "latency_max_ns,switches,migrations,wakeups,latency_p90_ns,latency_p999_ns,"
	      "latency_min_ns,latency_mean_ns,latency_samples,delays,delay_total_ns,delay_max_ns,"
	      "delay_max_start_ns,delay_max_end_ns,activations,missed_periods,slack_min_ns,"
	      "slack_p50_ns,slack_mean_ns,ideal_bound\n", f);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];

		report_csv_field(f, t->process);
		fputc(',', f);
		report_csv_field(f, t->name);
		fputc(',', f);
		report_csv_field(f, t->cgroup);
		fprintf(f, ",%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
			   "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%lld,%lld,%d\n",
			(unsigned long long)t->cpu_ns, t->share,
			t->ideal,
			(unsigned long long)t->wait_ns, (unsigned long long)t->lat_p50,
			(unsigned long long)t->lat_p99, (unsigned long long)t->lat_max,
			(unsigned long long)t->switches, (unsigned long long)t->migrations,
			(unsigned long long)t->wakeups, (unsigned long long)t->lat_p90,
			(unsigned long long)t->lat_p999, (unsigned long long)t->lat_min,
			(unsigned long long)t->lat_mean, (unsigned long long)t->lat_samples,
			(unsigned long long)t->delays, (unsigned long long)t->delay_total,
			(unsigned long long)t->delay_max, (unsigned long long)t->delay_max_start,
			(unsigned long long)t->delay_max_end, (unsigned long long)t->acts_done,
			(unsigned long long)t->acts_missed, (long long)t->slack_min,
			(long long)t->slack_p50, (long long)t->slack_mean, t->ideal_bound);
	}
}

/*
 * rt-app's per-activation log, for the activations kept: thread, idx, period start, wakeup,
 * start, end (ns since the start of the run), run (CPU time), the period, slack, wakeup
 * latency (start less period start), overrun, periods missed.
 */
static void write_activations_csv(FILE *f, const struct run_result *r)
{
	fputs("process,thread,idx,period_start_ns,wakeup_ns,start_ns,end_ns,run_ns,period_ns,"
	      "slack_ns,wu_lat_ns,overrun,missed\n", f);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct run_thread *t = &r->threads[i];

		for (size_t k = 0; k < t->nacts; k++) {
			const struct run_activation *a = &t->acts[k];

			report_csv_field(f, t->process);
			fputc(',', f);
			report_csv_field(f, t->name);
			fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%llu,%d,%llu\n",
				(unsigned long long)a->idx, (unsigned long long)a->period_start,
				(unsigned long long)a->wakeup, (unsigned long long)a->start,
				(unsigned long long)a->end, (unsigned long long)a->run,
				(unsigned long long)t->period_ns, (long long)a->slack,
				(unsigned long long)(a->start - a->period_start), a->slack <= 0,
				(unsigned long long)a->missed);
		}
	}
}

static void write_groups_csv(FILE *f, const struct run_result *r)
{
	fputs("path,cpu_ns,share,ideal\n", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		report_csv_field(f, r->groups[i].path);
		fprintf(f, ",%llu,%.6f,%.6f\n", (unsigned long long)r->groups[i].cpu_ns,
			r->groups[i].share, r->groups[i].ideal);
	}
}

/* One row per interval end and item: time_s,kind,name,share (of capacity in the interval). */
static void write_series_csv(FILE *f, const struct run_result *r)
{
	size_t items = r->ngroups + r->series_threads;
	double cap = (double)r->cpus * (double)r->interval;

	fputs("time_s,kind,name,share\n", f);
	for (size_t k = 0; k < r->nsamples; k++) {
		double t = (double)(r->sc->warmup + (k + 1) * r->interval) / 1e9;

		for (size_t j = 0; j < items; j++) {
			char name[160];

			if (j < r->ngroups) {
				fprintf(f, "%.6f,group,", t);
				report_csv_field(f, r->groups[j].path);
			} else {
				const struct run_thread *th = &r->threads[j - r->ngroups];

				snprintf(name, sizeof(name), "%s/%s", th->process, th->name);
				fprintf(f, "%.6f,thread,", t);
				report_csv_field(f, name);
			}
			fprintf(f, ",%.6f\n", (double)r->series[k * items + j] / cap);
		}
	}
}

/* time_s,GROUP,...: each group's share in each interval, wide, for plotting. */
static void write_groups_series_csv(FILE *f, const struct run_result *r)
{
	size_t items = r->ngroups + r->series_threads;
	double cap = (double)r->cpus * (double)r->interval;

	fputs("time_s", f);
	for (size_t g = 0; g < r->ngroups; g++) {
		fputc(',', f);
		report_csv_field(f, r->groups[g].path);
	}
	fputc('\n', f);
	for (size_t k = 0; k < r->nsamples; k++) {
		fprintf(f, "%.6f", (double)(r->sc->warmup + (k + 1) * r->interval) / 1e9);
		for (size_t g = 0; g < r->ngroups; g++)
			fprintf(f, ",%.6f", (double)r->series[k * items + g] / cap);
		fputc('\n', f);
	}
}

static void write_latency_cdf_csv(FILE *f, const struct run_result *r)
{
	fputs("latency_ms,fraction\n", f);
	for (size_t j = 0; j < r->ncdf; j++)
		fprintf(f, "%.6f,%.6f\n", r->cdf_ms[j], r->cdf_frac[j]);
}

/* report_write_dir()'s files, in the order they are written, each with its writer. */
static const struct dir_file {
	const char *name;
	void (*write)(FILE *f, const struct run_result *r);
} dir_files[] = {
	{ "summary.json", report_json },
	{ "threads.csv", write_threads_csv },
	{ "groups.csv", write_groups_csv },
	{ "timeseries.csv", write_series_csv },
	{ "groups-series.csv", write_groups_series_csv },
	{ "latency-cdf.csv", write_latency_cdf_csv },
	{ "activations.csv", write_activations_csv },
};

#define NFILES (sizeof(dir_files) / sizeof(dir_files[0]))

int report_write_dir(const char *dir, const struct run_result *r, char *err, size_t errlen)
{
	char tmp[NFILES][4200], fin[NFILES][4200];
	size_t n;
	int e = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cgsim: cannot create %s: %s", dir, strerror(errno));
		return -errno;
	}
	for (n = 0; n < NFILES; n++) {
		FILE *f;

		snprintf(fin[n], sizeof(fin[n]), "%s/%s", dir, dir_files[n].name);
		util_tmp_path(tmp[n], sizeof(tmp[n]), dir, dir_files[n].name);
		f = fopen(tmp[n], "w");
		if (!f) {
			e = -errno;
			snprintf(err, errlen, "cgsim: cannot write %s: %s", tmp[n], strerror(errno));
			break;
		}
		dir_files[n].write(f, r);
		if (ferror(f) | fclose(f)) {
			e = -EIO;
			snprintf(err, errlen, "cgsim: cannot write %s", tmp[n]);
			n++;
			break;
		}
	}
	if (e) {
		for (size_t i = 0; i < n; i++)
			unlink(tmp[i]);
		return e;
	}
	for (size_t i = 0; i < NFILES; i++) {
		if (rename(tmp[i], fin[i])) {
			e = -errno;
			snprintf(err, errlen, "cgsim: cannot rename %s: %s", tmp[i], strerror(errno));
			for (size_t j = i; j < NFILES; j++)
				unlink(tmp[j]);
			return e;
		}
	}
	return 0;
}
