// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_vm.c - the parts of validate --vm that need no guest (docs/vm.md): QEMU's
 * -smp/-numa/-m arguments as QEMU documents them, from the machine the scheduler's domains
 * are built from, the memory rule, a bzImage's version from the x86 boot protocol's setup
 * header, the domains from a 6.12 guest's listing and sched_verbose log (recorded from a
 * guest of 2 sockets x 2 cores x 2 threads), and the initramfs as the kernel's newc cpio
 * format defines it. Booting guests is tests/vm/.
 */
#define _GNU_SOURCE	/* memmem */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/vm/vm.h"
/* the initramfs writer, the scratch files' helpers and the console's marks have no vm.h API */
#include "sim/vm/vm_internal.h"

static char *joined(const struct vm_argv *a)
{
	static char buf[8192];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < a->n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "", a->v[i]);
	return buf;
}

Test(vm, smp_without_numa)
{
	struct vm_run_opts o = { .machine = { .cpus = 8, .sockets = 2, .dies = 1, .cores = 2,
					      .threads = 2, .nodes = 1 } };
	struct vm_argv a = { .v = NULL };

	cr_assert_eq(vm_machine_qemu_args(&o.machine, vm_machine_mem_mib(&o), &a), 0);
	cr_assert_str_eq(joined(&a), "-m 512M -smp 8,sockets=2,dies=1,cores=2,threads=2");
	cr_assert_null(a.v[a.n]);
	vm_argv_free(&a);
}

/* two nodes take CPUs 0-7 and 8-15 and half the memory each; the table's pair once */
Test(vm, numa_nodes_and_distances)
{
	static const uint8_t d[9] = { 10, 16, 32, 16, 10, 21, 32, 21, 10 };
	struct vm_run_opts o = { .machine = { .cpus = 16, .sockets = 2, .dies = 2, .cores = 2,
					      .threads = 2, .nodes = 2 } };
	struct vm_run_opts three = { .machine = { .cpus = 6, .sockets = 3, .dies = 1, .cores = 2,
						  .threads = 1, .nodes = 3, .distance = d } };
	struct vm_argv a = { .v = NULL };

	/* 256 + 24 x 16 = 640 MiB, a multiple of 2 x 64 */
	cr_assert_eq(vm_machine_mem_mib(&o), 640);
	cr_assert_eq(vm_machine_qemu_args(&o.machine, 640, &a), 0);
	cr_assert_str_eq(joined(&a), "-m 640M -smp 16,sockets=2,dies=2,cores=2,threads=2 "
			 "-object memory-backend-ram,size=320M,id=cgsim-m0 "
			 "-numa node,nodeid=0,cpus=0-7,memdev=cgsim-m0 "
			 "-object memory-backend-ram,size=320M,id=cgsim-m1 "
			 "-numa node,nodeid=1,cpus=8-15,memdev=cgsim-m1 "
			 "-numa dist,src=0,dst=1,val=20");
	vm_argv_free(&a);
	cr_assert_eq(vm_machine_qemu_args(&three.machine, vm_machine_mem_mib(&three), &a), 0);
	cr_assert(strstr(joined(&a), "-numa dist,src=0,dst=1,val=16 -numa dist,src=0,dst=2,val=32 "
			 "-numa dist,src=1,dst=2,val=21"));
	cr_assert(strstr(joined(&a), "cpus=4-5"));
	/* 512 MiB at least, rounded up to 3 x 64 */
	cr_assert_eq(vm_machine_mem_mib(&three), 576);
	vm_argv_free(&a);
}

/*
 * One struct topo_machine, 2 sockets x 2 cores x 2 threads in 2 nodes (a node a socket), is
 * both the guest's -smp and -numa and what the scheduler builds its domains from: SMT, MC
 * and NUMA, as Linux 6.12 built them in that guest (tests/kernel/domains-6.12.txt, "8n2":
 * PKG and NODE have MC's span and go).
 */
Test(vm, qemu_and_the_domains_take_one_machine)
{
	static const uint8_t slit[4] = { 10, 21, 21, 10 };
	static const char *const want[2][3] = { { "SMT 0-1", "MC 0-3", "NUMA 0-7" },
						 { "SMT 4-5", "MC 4-7", "NUMA 0-7" } };
	struct vm_run_opts o = { .machine = { .cpus = 8, .sockets = 2, .dies = 1, .cores = 2,
					      .threads = 2, .nodes = 2, .distance = slit } };
	static struct topo_cpu cpus[8];
	struct vm_argv a = { .v = NULL };
	char span[64], got[80];

	cr_assert_eq(vm_machine_qemu_args(&o.machine, vm_machine_mem_mib(&o), &a), 0);
	cr_assert_str_eq(joined(&a), "-m 512M -smp 8,sockets=2,dies=1,cores=2,threads=2 "
			 "-object memory-backend-ram,size=256M,id=cgsim-m0 "
			 "-numa node,nodeid=0,cpus=0-3,memdev=cgsim-m0 "
			 "-object memory-backend-ram,size=256M,id=cgsim-m1 "
			 "-numa node,nodeid=1,cpus=4-7,memdev=cgsim-m1 "
			 "-numa dist,src=0,dst=1,val=21");
	vm_argv_free(&a);
	cr_assert_eq(topo_build(&o.machine, cpus), 0);
	for (int i = 0; i < 2; i++) {
		const struct topo_cpu *c = &cpus[i * 5];	/* CPUs 0 and 5 */

		cr_assert_eq(c->n, 3, "cpu %d: %d levels", i * 5, c->n);
		for (int l = 0; l < 3; l++) {
			topo_span_str(c->dom[l].span, span, sizeof(span));
			snprintf(got, sizeof(got), "%s %s", c->dom[l].name, span);
			cr_expect_str_eq(got, want[i][l], "cpu %d domain %d", i * 5, l);
		}
	}
}

Test(vm, memory_grows_with_cpus_and_threads)
{
	struct vm_run_opts o = { .machine = { .cpus = 64, .nodes = 2 }, .threads_hint = 128 };

	/* 256 + 24 x 64 + 128 = 1920, a multiple of 128 */
	cr_assert_eq(vm_machine_mem_mib(&o), 1920);
	o.mem_mib = 700;
	cr_assert_eq(vm_machine_mem_mib(&o), 768);
}

/* A file with the setup header's "HdrS" at 0x202 and kernel_version at 0x20e. */
static void fake_bzimage(const char *path, const char *version, bool magic)
{
	unsigned char img[0x1000] = { 0 };
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f);
	if (magic)
		memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00;	/* the string at 0x200 + 0x0c00 */
	img[0x20f] = 0x0c;
	snprintf((char *)img + 0xe00, 200, "%s (debian-kernel@lists.debian.org) #1 SMP", version);
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
}

Test(vm, bzimage_version)
{
	char path[] = "/tmp/cgsim-test-bz-XXXXXX", v[128];
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	fake_bzimage(path, "6.12.117+deb12-amd64", true);
	cr_assert_eq(vm_kernel_version(path, v, sizeof(v)), 0);
	cr_assert_str_eq(v, "6.12.117+deb12-amd64");
	fake_bzimage(path, "6.1.0-57-amd64", false);
	cr_assert_neq(vm_kernel_version(path, v, sizeof(v)), 0);
	unlink(path);
	cr_assert_neq(vm_kernel_version(path, v, sizeof(v)), 0);
}

static const char listing[] =
	"0 0 SMT SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_SHARE_CPUCAPACITY SD_SHARE_LLC \n"
	"0 1 MC SD_BALANCE_NEWIDLE SD_SHARE_LLC \n"
	"0 2 PKG SD_BALANCE_NEWIDLE SD_PREFER_SIBLING \n"
	"10 0 SMT SD_BALANCE_NEWIDLE \n"
	"1 0 SMT SD_BALANCE_NEWIDLE \n";
static const char dmesg[] =
	"[    0.693560] CPU0 attaching sched-domain(s):\n"
	"[    0.693618]  domain-0: span=0-1 level=SMT\n"
	"[    0.693912]   groups: 0:{ span=0 cap=1016 }, 1:{ span=1 }\n"
	"[    0.694053]   domain-1: span=0-3 level=MC\n"
	"[    0.694068]    groups: 0:{ span=0-1 cap=2040 }, 2:{ span=2-3 cap=2048 }\n"
	"[    0.694101]    domain-2: span=0-7 level=PKG\n"
	"[    0.694679] CPU1 attaching sched-domain(s):\n"
	"[    0.694689]  domain-0: span=0-1 level=SMT\n"
	"[    0.794679] CPU10 attaching sched-domain(s):\n"
	"[    0.794689]  domain-0: span=10-11 level=SMT\n";

Test(vm, domains_from_listing_and_log)
{
	struct vm_domain *d;
	size_t n;

	cr_assert_eq(vm_domains_parse(listing, dmesg, &d, &n), 0);
	cr_assert_eq(n, 5);
	/* by CPU as a number (the guest's glob lists cpu10 before cpu1), then level */
	cr_assert_eq(d[0].cpu, 0);
	cr_assert_str_eq(d[0].name, "SMT");
	cr_assert_str_eq(d[0].span, "0-1");
	cr_assert_str_eq(d[0].flags, "SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_SHARE_CPUCAPACITY "
			 "SD_SHARE_LLC");
	cr_assert_str_eq(d[1].span, "0-3");
	cr_assert_str_eq(d[2].name, "PKG");
	cr_assert_str_eq(d[2].span, "0-7");
	cr_assert_eq(d[3].cpu, 1);
	cr_assert_str_eq(d[3].span, "0-1");
	cr_assert_eq(d[4].cpu, 10);
	cr_assert_str_eq(d[4].span, "10-11");
	vm_domains_free(d, n);
	/* without the log: the names, no spans */
	cr_assert_eq(vm_domains_parse(listing, "", &d, &n), 0);
	cr_assert_str_eq(d[1].span, "");
	vm_domains_free(d, n);
}

/* The hex field @k (0: c_ino ... 12: c_check) of the newc header at @h. */
static unsigned long field(const char *h, int k)
{
	char buf[9];

	memcpy(buf, h + 6 + 8 * k, 8);
	buf[8] = '\0';
	return strtoul(buf, NULL, 16);
}

Test(vm, initramfs_is_newc_cpio)
{
	char dir[] = "/tmp/cgsim-test-ir-XXXXXX", path[256], err[512] = "", *data;
	const char *argv[] = { "validate", "it's.yaml", "--live" };
	struct vm_kernel k = { .moddir = "" };
	size_t len, off = 0;
	bool init = false, busybox = false, console = false, trailer = false;
	FILE *f;

	if (access("/bin/busybox", R_OK))
		cr_skip_test("no /bin/busybox here (busybox-static)");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/initrd", dir);
	cr_assert_eq(vm__initrd_write(path, "/bin/busybox", &k, NULL, dir, "/work dir", "/usr/bin/cgsim",
				      argv, 3, err, sizeof(err)), 0, "%s", err);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	data = malloc(64u << 20);
	len = fread(data, 1, 64u << 20, f);
	fclose(f);
	while (off + 110 <= len && !trailer) {
		const char *h = data + off, *name = h + 110;
		unsigned long size = field(h, 6), namesize = field(h, 11), mode = field(h, 1);

		cr_assert(!memcmp(h, "070701", 6), "magic at %zu", off);
		cr_assert_eq(field(h, 5), 0, "mtime 0: the same bytes every time");
		cr_assert_eq(name[namesize - 1], '\0');
		off += (110 + namesize + 3) / 4 * 4;
		if (!strcmp(name, "init")) {
			init = true;
			cr_assert_eq(mode, 0100755);
			/* the arguments single-quoted, a quote inside as '\'' */
			cr_assert(memmem(data + off, size, "'it'\\''s.yaml'", 14));
			cr_assert(memmem(data + off, size, "'/work dir' '/usr/bin/cgsim'", 28));
		}
		busybox |= !strcmp(name, "bin/busybox") && size > 100000;
		console |= !strcmp(name, "dev/console") && mode == 0020600 && field(h, 9) == 5 &&
			   field(h, 10) == 1;
		trailer = !strcmp(name, "TRAILER!!!");
		off += (size + 3) / 4 * 4;
	}
	cr_assert(init && busybox && console && trailer);
	/* a dynamic program is refused as the guest's busybox */
	cr_assert_neq(vm__initrd_write(path, "/bin/sh", &k, NULL, dir, "/", "/x", argv, 0, err,
				       sizeof(err)), 0);
	cr_assert(strstr(err, "busybox-static"));
	free(data);
	unlink(path);
	rmdir(dir);
}

/*
 * A stand-in for QEMU on the PATH: its first $FAILS boots print the oops of a stray int3 and
 * end as panic=-1 and -no-reboot end a guest; the next one leaves what the guest's init leaves
 * in the scratch directory (the -virtfs share tagged VM_TAG_OUT).
 */
static const char fake_qemu[] =
	"#!/bin/sh\n"
	"for a; do case $a in local,path=*,mount_tag=" VM_TAG_OUT "*)\n"
	"  d=${a#local,path=}; d=${d%%,mount_tag=*};; esac; done\n"
	"n=$(cat \"$BOOTS\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$BOOTS\"\n"
	"if [ $n -le $FAILS ]; then\n"
	"  echo '[    1.891715] Oops: int3: 0000 [#1] PREEMPT SMP PTI'\n"
	"  echo '[    1.906561] Kernel panic - not syncing: Fatal exception in interrupt'\n"
	"  exit 0\n"
	"fi\n"
	"echo '" VM_MARK "run'\n"
	"echo \"boot $n\" > \"$d/out\"; : > \"$d/err\"; echo 6.12.0 > \"$d/kernel\"\n"
	"[ -z \"$CGMODE\" ] || echo \"$CGMODE\" > \"$d/cgroup_mode\"\n"
	"echo 0 > \"$d/status\"\n";

/*
 * vm_run() with the stand-in failing @fails boots, asked to set @mode while the guest's file
 * reads @reads (NULL: no file): its return, *@boots, @r and @err set.
 */
static int fake_guest(int fails, const char *mode, const char *reads, int *boots,
		      struct vm_result *r, char *err, size_t errlen)
{
	char dir[] = "/tmp/cgsim-test-qemu-XXXXXX", path[256], count[300], n[16], *old, *text;
	const char *argv[] = { "run", "x.yaml" };
	struct vm_kernel k = { .moddir = "", .version = "6.12.0" };
	struct vm_run_opts o = { .kernel = &k, .argv = argv, .argc = 2, .timeout_s = 60,
				 .cgroup_mode = mode,
				 .machine = { .cpus = 2, .sockets = 1, .dies = 1, .cores = 2,
					      .threads = 1, .nodes = 1 } };
	FILE *f;
	int e;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(fake_qemu, f);
	fclose(f);
	chmod(path, 0755);
	snprintf(k.image, sizeof(k.image), "%s", path);
	snprintf(count, sizeof(count), "%s/boots", dir);
	snprintf(n, sizeof(n), "%d", fails);
	old = strdup(getenv("PATH"));
	snprintf(path, sizeof(path), "%s:/usr/bin:/bin", dir);
	setenv("PATH", path, 1);
	setenv("BOOTS", count, 1);
	setenv("FAILS", n, 1);
	if (reads)
		setenv("CGMODE", reads, 1);
	else
		unsetenv("CGMODE");
	e = vm_run(&o, r, err, errlen);
	unsetenv("CGMODE");
	setenv("PATH", old, 1);
	free(old);
	cr_assert_eq(vm__slurp(count, 64, &text), 0);
	*boots = atoi(text);
	free(text);
	vm__remove_tree(dir);
	return e;
}

static int fake_boots(int fails, int *boots, struct vm_result *r, char *err, size_t errlen)
{
	return fake_guest(fails, NULL, NULL, boots, r, err, errlen);
}

/* a boot that stops at int3 is booted again, VM_BOOTS times at most, and said when it fails */
Test(vm, int3_boot_is_booted_again, .init = cr_redirect_stderr)
{
	struct vm_result r;
	char err[512] = "";
	int boots;

	if (access("/bin/busybox", R_OK))
		cr_skip_test("no /bin/busybox here (busybox-static)");
	cr_assert_eq(fake_boots(1, &boots, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(boots, 2);
	cr_assert_str_eq(r.out, "boot 2\n");
	cr_assert_eq(r.status, 0);
	vm_result_free(&r);

	cr_assert_eq(fake_boots(VM_BOOTS - 1, &boots, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(boots, VM_BOOTS);
	vm_result_free(&r);

	cr_assert_eq(fake_boots(VM_BOOTS, &boots, &r, err, sizeof(err)), -EINVAL);
	cr_assert_eq(boots, VM_BOOTS);
	cr_assert(strstr(err, "stray int3"), "%s", err);
}

/*
 * The cgroup_mode asked for is what the guest's kernel must read back once set, the active
 * mode in parentheses as Linux 7.3's debugfs prints it; a kernel without the file or that
 * kept another mode fails the run.
 */
Test(vm, cgroup_mode_is_read_back, .init = cr_redirect_stderr)
{
	struct vm_result r;
	char err[512] = "";
	int boots;

	if (access("/bin/busybox", R_OK))
		cr_skip_test("no /bin/busybox here (busybox-static)");
	cr_assert_eq(fake_guest(0, "concur", "up smp (concur) max tasks", &boots, &r, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(r.cgroup_mode, "up smp (concur) max tasks");
	vm_result_free(&r);
	/* asked for none: whatever it reads is kept for the report */
	cr_assert_eq(fake_guest(0, NULL, "up smp (concur) max tasks", &boots, &r, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(r.cgroup_mode, "up smp (concur) max tasks");
	vm_result_free(&r);
	cr_assert_eq(fake_guest(0, NULL, NULL, &boots, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(r.cgroup_mode, "");
	vm_result_free(&r);

	cr_assert_eq(fake_guest(0, "smp", "up smp (concur) max tasks", &boots, &r, err,
				sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "did not take cgroup_mode smp: its cgroup_mode reads 'up smp "
			 "(concur) max tasks'"), "%s", err);
	cr_assert_eq(fake_guest(0, "max", NULL, &boots, &r, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "has no /sys/kernel/debug/sched/cgroup_mode to set max in"), "%s",
		  err);
}

/* the init writes the mode before the command runs, and copies what the file then reads */
Test(vm, init_sets_the_cgroup_mode)
{
	char dir[] = "/tmp/cgsim-test-ir-XXXXXX", path[256], err[512] = "", *data;
	const char *argv[] = { "validate", "x.yaml", "--live" };
	struct vm_kernel k = { .moddir = "" };
	const char *set, *copy, *run;
	size_t len;
	FILE *f;

	if (access("/bin/busybox", R_OK))
		cr_skip_test("no /bin/busybox here (busybox-static)");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/initrd", dir);
	cr_assert_eq(vm__initrd_write(path, "/bin/busybox", &k, "concur", dir, "/", "/x", argv, 3,
				      err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(f = fopen(path, "rb"));
	data = malloc(64u << 20);
	len = fread(data, 1, 64u << 20, f);
	fclose(f);
	set = memmem(data, len, "$B echo 'concur' > $M", 21);
	copy = memmem(data, len, "[ -f $M ] && $B cat $M > \"$H$S/cgroup_mode\"", 42);
	run = memmem(data, len, "say run", 7);
	cr_assert(memmem(data, len, "M=$H/sys/kernel/debug/sched/cgroup_mode", 39));
	cr_assert(set && copy && run && set < copy && copy < run);
	cr_assert_eq(vm__initrd_write(path, "/bin/busybox", &k, NULL, dir, "/", "/x", argv, 3,
				      err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(f = fopen(path, "rb"));
	len = fread(data, 1, 64u << 20, f);
	fclose(f);
	cr_assert_null(memmem(data, len, "> $M", 4), "nothing written when no mode is asked");
	free(data);
	unlink(path);
	rmdir(dir);
}

Test(vm, kernel_versions_asked_and_matched)
{
	unsigned a, b;
	struct vm_kernel k = { .version = "7.3.4+deb13-amd64" };

	cr_assert(vm__kernel_match("7.3.4+deb13-amd64", "7.3"));
	cr_assert(vm__kernel_match("7.3.4+deb13-amd64", "7.3.4"));
	cr_assert(!vm__kernel_match("7.3.40+deb13-amd64", "7.3.4"));
	cr_assert(!vm__kernel_match("7.30.1+deb13-amd64", "7.3"));
	cr_assert(vm__kernel_match("6.1.0-57-amd64", "6.1"));
	cr_assert(!vm__kernel_match("6.12.118+deb12-amd64", "6.1"));
	/* the meta-package (7.3~rc7 in experimental), the cloud, rt, dbg and unsigned flavours */
	cr_assert(!vm__kernel_match("7.3-amd64", "7.3"));
	cr_assert(!vm__kernel_match("7.3.4+deb13-cloud-amd64", "7.3"));
	cr_assert(!vm__kernel_match("7.3.4+deb13-rt-amd64", "7.3"));
	cr_assert(!vm__kernel_match("7.3.4+deb13-amd64-dbg", "7.3"));
	cr_assert(!vm__kernel_match("6.12.118+deb12-amd64-unsigned", "6.12"));
	cr_assert(!vm__kernel_match("7.3.4+deb13-arm64", "7.3"));

	cr_assert_eq(vm__kernel_want_parse("7.3", &a, &b), 0);
	cr_assert(a == 7 && b == 3);
	cr_assert_eq(vm__kernel_want_parse("6.12.118", &a, &b), 0);
	cr_assert(a == 6 && b == 12);
	cr_assert_eq(vm__kernel_want_parse("7", &a, &b), -EINVAL);
	cr_assert_eq(vm__kernel_want_parse("7.3.4.1", &a, &b), -EINVAL);
	cr_assert_eq(vm__kernel_want_parse("07.3", &a, &b), -EINVAL);
	cr_assert_eq(vm__kernel_want_parse("7.3-rc1", &a, &b), -EINVAL);

	cr_assert(vm_kernel_at_least(&k, 7, 3));
	cr_assert(!vm_kernel_at_least(&k, 7, 4));
	snprintf(k.version, sizeof(k.version), "6.12.118+deb12-amd64");
	cr_assert(!vm_kernel_at_least(&k, 7, 3));
	cr_assert(vm_kernel_at_least(&k, 6, 12));
	snprintf(k.version, sizeof(k.version), "8.0.1");
	cr_assert(vm_kernel_at_least(&k, 7, 3));
	snprintf(k.version, sizeof(k.version), "custom");
	cr_assert(!vm_kernel_at_least(&k, 0, 0));
}

/* An /etc/apt of @list (sources.list) and sources.list.d/@name of @text, in @dir. */
static void fake_etc_apt(char *dir, const char *list, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	if (list) {
		snprintf(path, sizeof(path), "%s/sources.list", dir);
		cr_assert_not_null(f = fopen(path, "w"));
		fputs(list, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/sources.list.d", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	if (name) {
		snprintf(path, sizeof(path), "%s/sources.list.d/%s", dir, name);
		cr_assert_not_null(f = fopen(path, "w"));
		fputs(text, f);
		fclose(f);
	}
}

/* The mirror a fetch reuses, from the host's sources in either format. */
Test(vm, mirror_from_the_host_sources)
{
	char dir[] = "/tmp/cgsim-test-apt-XXXXXX";
	struct vm_mirror m;

	unsetenv("CGSIM_DEBIAN_MIRROR");
	/* deb822, as Debian's images write it; a third party's source of another suite first */
	fake_etc_apt(dir, "deb https://packages.example.com/apt cloud-sdk main\n", "debian.sources",
		     "Types: deb\n"
		     "# http://snapshot.debian.org/archive/debian/20250520T000000Z\n"
		     "URIs: http://mirror.example.org/debian\n"
		     "Suites: bookworm bookworm-updates\n"
		     "Components: main\n"
		     "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
		     "\n"
		     "Types: deb-src\n"
		     "URIs: http://src.example.org/debian\n"
		     "Suites: bookworm\n"
		     "\n"
		     "Types: deb\n"
		     "URIs: http://security.example.org/debian-security\n"
		     "Suites: bookworm-security\n"
		     "Components: main\n");
	cr_assert_eq(vm__apt_mirror(dir, &m), 0);
	cr_assert_str_eq(m.uri, "http://mirror.example.org/debian");
	cr_assert_str_eq(m.security, "http://security.example.org/debian-security");
	cr_assert_str_eq(m.keyring, "/usr/share/keyrings/debian-archive-keyring.gpg");
	vm__remove_tree(dir);

	/* one-line, with its options; the security suite then beside the mirror */
	snprintf(dir, sizeof(dir), "/tmp/cgsim-test-apt-XXXXXX");
	fake_etc_apt(dir, "# deb http://old.example.org/debian buster main\n"
		     "deb [arch=amd64 signed-by=/etc/apt/keyrings/d.gpg] "
		     "http://ftp.example.net/debian trixie main contrib\n", NULL, NULL);
	cr_assert_eq(vm__apt_mirror(dir, &m), 0);
	cr_assert_str_eq(m.uri, "http://ftp.example.net/debian");
	cr_assert_str_eq(m.security, "http://ftp.example.net/debian-security");
	cr_assert_str_eq(m.keyring, "/etc/apt/keyrings/d.gpg");
	vm__remove_tree(dir);

	/* none: Debian's own */
	snprintf(dir, sizeof(dir), "/tmp/cgsim-test-apt-XXXXXX");
	fake_etc_apt(dir, NULL, "other.list", "deb http://example.com/ubuntu noble main\n");
	cr_assert_eq(vm__apt_mirror(dir, &m), 0);
	cr_assert_str_eq(m.uri, VM_DEBIAN_MIRROR);
	cr_assert_str_eq(m.security, VM_DEBIAN_MIRROR "-security");
	cr_assert_str_eq(m.keyring, VM_DEBIAN_KEYRING);

	/* $CGSIM_DEBIAN_MIRROR first */
	setenv("CGSIM_DEBIAN_MIRROR", "http://127.0.0.1:9/debian", 1);
	cr_assert_eq(vm__apt_mirror(dir, &m), 0);
	unsetenv("CGSIM_DEBIAN_MIRROR");
	cr_assert_str_eq(m.uri, "http://127.0.0.1:9/debian");
	cr_assert_str_eq(m.security, "http://127.0.0.1:9/debian-security");
	vm__remove_tree(dir);
}
