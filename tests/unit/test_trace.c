// SPDX-License-Identifier: MIT
/*
 * Unit tests of sim/trace/trace.h: each event's line against the kernel's TP_printk format for
 * it (include/trace/events/sched.h) and the context columns its trace file prints with the
 * record-tgid option, byte for byte.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"

static char *buf;
static size_t len;
static FILE *f;
static struct trace *tr;

static void setup(void)
{
	f = open_memstream(&buf, &len);
	cr_assert(f);
	tr = trace_new(f, 2);
	cr_assert(tr);
	/* tids 3 (main thread of its process) and 4 (same process), in the model */
	cr_assert_eq(trace_thread(tr, 3, 3, "web", "worker.1"), 0);
	cr_assert_eq(trace_thread(tr, 4, 3, "web", "a name with spaces.2"), 0);
}

static void teardown(void)
{
	trace_free(tr);
	fclose(f);
	free(buf);
}

/* The body so far, the header skipped: the text after the last comment line. */
static const char *body(void)
{
	const char *p, *last = NULL;

	fflush(f);
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (*p == '#')
			last = p;
	return last ? strchr(last, '\n') + 1 : buf;
}

static void ev(enum sched_trace_kind k, uint64_t at, int cpu, int tid, int prio, int prev,
	       enum sched_trace_state st, int orig, int dest)
{
	struct sched_trace_event e = { .kind = k, .at = at, .cpu = cpu, .tid = tid, .prio = prio,
				       .prev = prev, .prev_prio = 120, .prev_state = st,
				       .orig_cpu = orig, .dest_cpu = dest };

	trace_sched(tr, &e);
}

TestSuite(trace, .init = setup, .fini = teardown);

Test(trace, switch_lines_follow_the_kernel_format)
{
	trace_header(tr, NULL, 0);
	ev(SCHED_TRACE_SWITCH, 1500000000, 1, 3, 125, -1, SCHED_TRACE_SLEEPING, 0, 0);
	ev(SCHED_TRACE_SWITCH, 1500250999, 1, 4, 120, 3, SCHED_TRACE_PREEMPTED, 0, 0);
	ev(SCHED_TRACE_SWITCH, 1500300000, 1, -1, 120, 4, SCHED_TRACE_SLEEPING, 0, 0);
	cr_assert_str_eq(body(),
		"          <idle>-0       (-------) [001] d..2     1.500000: sched_switch: "
		"prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker.1 "
		"next_pid=1003 next_prio=125\n"
		"        worker.1-1003    (   1003) [001] d..2     1.500250: sched_switch: "
		"prev_comm=worker.1 prev_pid=1003 prev_prio=120 prev_state=R ==> "
		"next_comm=a_name_with_spa next_pid=1004 next_prio=120\n"
		" a_name_with_spa-1004    (   1003) [001] d..2     1.500300: sched_switch: "
		"prev_comm=a_name_with_spa prev_pid=1004 prev_prio=120 prev_state=S ==> "
		"next_comm=swapper/1 next_pid=0 next_prio=120\n");
}

Test(trace, wakeups_and_migrations_follow_the_kernel_format)
{
	trace_header(tr, NULL, 0);
	ev(SCHED_TRACE_WAKING, 12345000001999, 0, 3, 120, -1, 0, -1, 1);
	ev(SCHED_TRACE_MIGRATE, 12345000001999, 0, 3, 120, -1, 0, 0, 1);
	ev(SCHED_TRACE_WAKEUP, 12345000001999, 0, 3, 120, -1, 0, -1, 1);
	ev(SCHED_TRACE_WAKEUP_NEW, 12345000002000, 0, 4, 139, -1, 0, -1, 0);
	cr_assert_str_eq(body(),
		"          <idle>-0       (-------) [000] d..4 12345.000001: sched_waking: "
		"comm=worker.1 pid=1003 prio=120 target_cpu=001\n"
		"          <idle>-0       (-------) [000] d..2 12345.000001: sched_migrate_task: "
		"comm=worker.1 pid=1003 prio=120 orig_cpu=0 dest_cpu=1\n"
		"          <idle>-0       (-------) [000] d..3 12345.000001: sched_wakeup: "
		"comm=worker.1 pid=1003 prio=120 target_cpu=001\n"
		"          <idle>-0       (-------) [000] d..3 12345.000002: sched_wakeup_new: "
		"comm=a_name_with_spa pid=1004 prio=139 target_cpu=000\n");
}

/* A timer's wakeup comes from its interrupt, and the kernel says so: 'h' (hardirq). */
Test(trace, a_timers_wakeup_is_written_in_hardirq_context)
{
	struct sched_trace_event e = { .kind = SCHED_TRACE_WAKING, .at = 1000, .cpu = 0, .tid = 3,
				       .prio = 120, .prev = -1, .dest_cpu = 1, .irq = true };

	trace_header(tr, NULL, 0);
	trace_sched(tr, &e);
	e.kind = SCHED_TRACE_MIGRATE;
	e.orig_cpu = 0;
	trace_sched(tr, &e);
	e.kind = SCHED_TRACE_WAKEUP;
	trace_sched(tr, &e);
	cr_assert_str_eq(body(),
		"          <idle>-0       (-------) [000] d.h4     0.000001: sched_waking: "
		"comm=worker.1 pid=1003 prio=120 target_cpu=001\n"
		"          <idle>-0       (-------) [000] d.h2     0.000001: sched_migrate_task: "
		"comm=worker.1 pid=1003 prio=120 orig_cpu=0 dest_cpu=1\n"
		"          <idle>-0       (-------) [000] d.h3     0.000001: sched_wakeup: "
		"comm=worker.1 pid=1003 prio=120 target_cpu=001\n");
}

/* As Linux 6.18 shows them: a main thread's exit leaves a zombie, another thread's does not. */
Test(trace, an_exit_is_z_for_a_main_thread_x_for_another)
{
	trace_header(tr, NULL, 0);
	ev(SCHED_TRACE_SWITCH, 0, 0, 3, 120, -1, 0, 0, 0);
	ev(SCHED_TRACE_SWITCH, 1000, 0, 4, 120, 3, SCHED_TRACE_EXITED, 0, 0);
	ev(SCHED_TRACE_SWITCH, 2000, 0, -1, 120, 4, SCHED_TRACE_EXITED, 0, 0);
	cr_assert(strstr(body(), "prev_comm=worker.1 prev_pid=1003 prev_prio=120 prev_state=Z ==> "
			 "next_comm=a_name_with_spa next_pid=1004"));
	cr_assert(strstr(body(), "prev_comm=a_name_with_spa prev_pid=1004 prev_prio=120 "
			 "prev_state=X ==> next_comm=swapper/0 next_pid=0"));
}

/* A marker is an atrace slice of no length, on the marker writer's own track. */
Test(trace, markers_are_atrace_slices)
{
	trace_header(tr, NULL, 0);
	trace_mark(tr, 2000000000, "timeline 12: write a/cpu.weight 200 -> ok\nforged line");
	cr_assert_str_eq(body(),
		"           cgsim-1       (      1) [000] ....     2.000000: tracing_mark_write: "
		"B|1|timeline 12: write a/cpu.weight 200 -> ok?forged line\n"
		"           cgsim-1       (      1) [000] ....     2.000000: tracing_mark_write: E|1\n");
}

/* The header maps every pid to the report's name and starts as Perfetto recognises. */
Test(trace, header_maps_pids_to_names)
{
	const char *about[] = { "cgsim: scenario s, variant base, seed 1" };

	trace_header(tr, about, 1);
	fflush(f);
	cr_assert(!strncmp(buf, "# tracer: nop\n", 14));
	cr_assert(strstr(buf, "# cgsim: scenario s, variant base, seed 1\n"));
	cr_assert(strstr(buf, "#      1003      1003  worker.1         web/worker.1\n"));
	cr_assert(strstr(buf, "#      1004      1003  a_name_with_spa  web/a name with spaces.2\n"));
	cr_assert(strstr(buf, "#P:2\n"));
}
