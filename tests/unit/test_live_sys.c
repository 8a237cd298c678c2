// SPDX-License-Identifier: MIT
/*
 * Unit tests of what the live run reads from the system (sim/live/live_sys.c), fed with text in
 * the kernel's formats (Documentation/filesystems/proc.rst: /proc/PID/mountinfo, /proc/stat,
 * /proc/PID/task/TID/schedstat), so that no kernel and no mount is needed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* internal: live.h reaches these parsers only through a live run (root, a kernel) */
#include "sim/live/live_internal.h"

/* schedstat: "sum_exec_runtime run_delay pcount", times in ns. */
Test(live_sys, schedstat_gives_the_cpu_time)
{
	unsigned long long ns = 0;

	cr_assert_eq(live__schedstat_parse("8123456789 1234 56", &ns), 0);
	cr_assert_eq(ns, 8123456789ull);
	cr_assert_eq(live__schedstat_parse("0 0 0\n", &ns), 0);
	cr_assert_eq(ns, 0);
	cr_assert_eq(live__schedstat_parse("", &ns), -EINVAL);
	cr_assert_eq(live__schedstat_parse("-1 0 0", &ns), -EINVAL);
	cr_assert_eq(live__schedstat_parse("12x 0 0", &ns), -EINVAL);
}

/* /proc/stat's first line: busy = user + nice + system + irq + softirq + steal. */
Test(live_sys, stat_busy_leaves_out_idle_and_iowait)
{
	unsigned long long busy = 0, steal = 0;

	cr_assert_eq(live__stat_busy("cpu  100 2 30 5000 40 5 6 7 0 0\ncpu0 50 1 15 2500 20 2 3 3 "
				     "0 0\n", &busy, &steal), 0);
	cr_assert_eq(busy, 100 + 2 + 30 + 5 + 6 + 7);
	cr_assert_eq(steal, 7, "the eighth field");
	cr_assert_eq(live__stat_busy("cpu  1 2 3 4 5 6 7\n", &busy, &steal), 0, "no steal field");
	cr_assert_eq(steal, 0);
	cr_assert_eq(live__stat_busy("cpu0 1 2 3 4 5 6 7 8\n", &busy, &steal), -EINVAL,
		     "the total line");
	cr_assert_eq(live__stat_busy("cpu  1 2 3\n", &busy, &steal), -EINVAL, "too few fields");
}

Test(live_sys, stats_mean_min_max)
{
	const double v[] = { 0.25, 0.5, 0.75 };
	struct live_stat s = live__stats(v, 3);

	cr_assert_float_eq(s.mean, 0.5, 1e-12);
	cr_assert_float_eq(s.min, 0.25, 1e-12);
	cr_assert_float_eq(s.max, 0.75, 1e-12);
}

static char tmpdir[64];

static void rm_tmp(void)
{
	char cmd[128];

	if (tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		cr_expect_eq(system(cmd), 0);
	}
	tmpdir[0] = '\0';
}

/* A mountinfo file of @lines in a scratch directory; returns its path. */
static const char *mountinfo(const char *lines, char *path, size_t len)
{
	FILE *f;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/cgsim-mi.XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(path, len, "%s/mountinfo", tmpdir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(lines, f);
	fclose(f);
	return path;
}

TestSuite(live_mounts, .fini = rm_tmp);

/*
 * A scratch directory standing for a cgroup2 mount whose cgroup.controllers is @controllers,
 * and a mountinfo file of @lines, where %s is that directory. Returns the mountinfo's path.
 */
static const char *fake_mounts(const char *controllers, const char *lines, char *path,
			       size_t len)
{
	char text[2048], ctl[160];
	FILE *f;

	mountinfo("", path, len);
	snprintf(ctl, sizeof(ctl), "%s/cgroup.controllers", tmpdir);
	f = fopen(ctl, "w");
	cr_assert_not_null(f);
	fputs(controllers, f);
	fclose(f);
	snprintf(text, sizeof(text), lines, tmpdir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* This project's machines: cgroup2 offers only hugetlb; v1 binds cpu with cpuacct. */
Test(live_mounts, v1_when_cgroup2_lacks_cpu)
{
	char path[128], err[256];
	struct live_mount m;

	fake_mounts("hugetlb\n",
		    "25 22 0:22 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro,mode=755\n"
		    "30 25 0:26 / /sys/fs/cgroup/cpuset rw,relatime shared:11 - cgroup cgroup "
		    "rw,cpuset\n"
		    "31 25 0:27 / /sys/fs/cgroup/cpu\\040x rw,relatime shared:12 - cgroup cgroup "
		    "rw,cpu,cpuacct\n"
		    "40 25 0:30 / %s rw,relatime shared:20 - cgroup2 none rw\n", path, sizeof(path));
	cr_assert_eq(live__find_cpu(path, &m, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(m.hier, LIVE_HIER_V1);
	cr_assert_str_eq(m.path, "/sys/fs/cgroup/cpu x", "\\040 is a space, cpuset is not cpu");
}

Test(live_mounts, v2_when_it_offers_cpu)
{
	char path[128], err[256];
	struct live_mount m;

	fake_mounts("cpuset cpu io memory pids\n",
		    "31 25 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n"
		    "40 25 0:30 / %s rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
		    path, sizeof(path));
	cr_assert_eq(live__find_cpu(path, &m, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(m.hier, LIVE_HIER_V2);
	cr_assert_str_eq(m.path, tmpdir);
}

Test(live_mounts, none_is_a_clear_refusal)
{
	char path[128], err[256];
	struct live_mount m;

	mountinfo("22 1 0:21 / /proc rw - proc proc rw\n"
		  "30 25 0:26 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n",
		  path, sizeof(path));
	cr_assert_eq(live__find_cpu(path, &m, err, sizeof(err)), -ENOENT);
	cr_assert_not_null(strstr(err, "no cpu controller"), "%s", err);
}

/*
 * The kernel validate --live models (sim/live/live_kernel.c): its version from uname's
 * release as Debian and others write it, and Linux 7.3's cgroup_mode as debugfs prints it:
 * every mode, the active one in parentheses (kernel/sched/debug.c).
 */
Test(live_kernel, version_from_the_release)
{
	struct sched_kernel k;

	cr_assert_eq(live_kernel_version_parse("7.3.4+deb13-amd64", NULL, &k), 0);
	cr_assert(k.major == 7 && k.minor == 3 && k.patch == 4);
	cr_assert_eq(live_kernel_version_parse("6.18.44-fc-v1300", "#1 SMP", &k), 0);
	cr_assert(k.major == 6 && k.minor == 18 && k.patch == 44);
	/* Debian's 6.1 names its ABI; uname -v has the release */
	cr_assert_eq(live_kernel_version_parse("6.1.0-57-amd64", "#1 SMP PREEMPT_DYNAMIC Debian "
					       "6.1.158-1 (2025-11-20)", &k), 0);
	cr_assert(k.major == 6 && k.minor == 1 && k.patch == 158);
	/* ... but never another series' */
	cr_assert_eq(live_kernel_version_parse("6.12.0-rc7", "Debian 6.1.158-1", &k), 0);
	cr_assert(k.major == 6 && k.minor == 12 && k.patch == 0);
	cr_assert_eq(live_kernel_version_parse("7.3-amd64", NULL, &k), 0);
	cr_assert(k.major == 7 && k.minor == 3 && k.patch == 0);
	cr_assert_eq(live_kernel_version_parse("linux", NULL, &k), -EINVAL);
	cr_assert_eq(live_kernel_version_parse("7", NULL, &k), -EINVAL);
}

Test(live_kernel, cgroup_mode_is_the_one_in_parentheses)
{
	enum sched_cgroup_mode m;

	cr_assert_eq(live_cgroup_mode_parse("up smp (concur) max tasks", &m), 0);
	cr_assert_eq(m, SCHED_CGROUP_CONCUR);
	cr_assert_eq(live_cgroup_mode_parse("up (smp) concur max tasks\n", &m), 0);
	cr_assert_eq(m, SCHED_CGROUP_SMP);
	cr_assert_eq(live_cgroup_mode_parse("up smp concur max (tasks)", &m), 0);
	cr_assert_eq(m, SCHED_CGROUP_TASKS);
	cr_assert_eq(live_cgroup_mode_parse("up smp concur max tasks", &m), -EINVAL);
	cr_assert_eq(live_cgroup_mode_parse("up () smp", &m), -EINVAL);
	cr_assert_eq(live_cgroup_mode_parse("(flat) up", &m), -EINVAL);
}

TestSuite(live_kernel_mode, .fini = rm_tmp);

/* A debugfs mounted at a scratch directory, with @text in sched/cgroup_mode (NULL: none). */
static const char *fake_debugfs(const char *text, char *path, size_t len)
{
	char file[256], lines[512];
	FILE *f;

	mountinfo("", path, len);
	snprintf(file, sizeof(file), "%s/sched", tmpdir);
	cr_assert_eq(mkdir(file, 0755), 0);
	if (text) {
		snprintf(file, sizeof(file), "%s/sched/cgroup_mode", tmpdir);
		cr_assert_not_null(f = fopen(file, "w"));
		fputs(text, f);
		fclose(f);
	}
	snprintf(lines, sizeof(lines), "22 1 0:21 / /proc rw - proc proc rw\n"
		 "33 24 0:7 / %s rw,nosuid,nodev,noexec,relatime shared:15 - debugfs debugfs rw\n",
		 tmpdir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(lines, f);
	fclose(f);
	return path;
}

Test(live_kernel_mode, read_where_debugfs_is_mounted)
{
	char path[128];
	struct live_kernel k;

	fake_debugfs("up smp (concur) max tasks\n", path, sizeof(path));
	cr_assert_eq(live_kernel_read(path, false, &k), 0);
	cr_assert_eq(k.mode, SCHED_CGROUP_CONCUR);
	cr_assert(k.mode_file && !k.mode_unread);
	cr_assert(k.release[0]);
}

/* before 7.3 (this project's hosts run 6.18): no file, and the kernel computes smp */
Test(live_kernel_mode, smp_without_the_file)
{
	char path[128];
	struct live_kernel k;

	fake_debugfs(NULL, path, sizeof(path));
	cr_assert_eq(live_kernel_read(path, false, &k), 0);
	cr_assert_eq(k.mode, SCHED_CGROUP_SMP);
	cr_assert(!k.mode_file && !k.mode_unread);
}

/* no debugfs mounted and none to be mounted: the release's default, said as unread */
Test(live_kernel_mode, unread_without_debugfs)
{
	char path[128];
	struct live_kernel k;

	mountinfo("22 1 0:21 / /proc rw - proc proc rw\n", path, sizeof(path));
	cr_assert_eq(live_kernel_read(path, false, &k), 0);
	cr_assert(!k.mode_file && k.mode_unread);
	cr_assert_eq(k.mode, k.known && (k.version.major > 7 || (k.version.major == 7 &&
								 k.version.minor >= 3))
			     ? SCHED_CGROUP_CONCUR : SCHED_CGROUP_SMP);
}
