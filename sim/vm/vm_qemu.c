// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_qemu.c - boot the guest, wait for it within the time limit, collect what it left
 * (sim/vm/vm.h, docs/vm.md).
 *
 * QEMU runs as a child that dies with cgsim (PR_SET_PDEATHSIG), in a process group of its own
 * so that a terminal's ^C reaches only cgsim, which then kills it and removes the scratch
 * directory before ending by that signal. Its console (the guest's ttyS0) comes through a
 * pipe: read for the init's progress lines, kept for the reason of a failure and for --log.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm_internal.h"

#define CONSOLE_KEEP (256u << 10)	/* the console's last bytes kept for a failure's reason */
#define NSTOP 3

static volatile sig_atomic_t stop_sig;
static const int stop_sigs[NSTOP] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop(int sig)
{
	stop_sig = sig;
}

int vm_stop_signal(void)
{
	return stop_sig ? (int)stop_sig : SIGINT;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The console as it came, its tail kept; progress lines said on stderr. */
struct console {
	char buf[CONSOLE_KEEP + 1];
	size_t len;
	char line[512];
	size_t linelen;
	FILE *log;
	bool progress, ran, no9p, noshare, int3, mode_refused;
	double t0, t_run;
};

static void console_line(struct console *c, const char *line)
{
	const char *m = strstr(line, VM_MARK);

	/*
	 * die()'s line for a trap at an int3 that no handler claims: "Oops: int3: 0000 [#1]"
	 * (before 6.10 without "Oops: "). Under TCG that is a stale translation of code the
	 * kernel has just patched back (a static key), not a fault of the guest's work.
	 */
	if (strstr(line, "int3: 0000 [#"))
		c->int3 = true;
	if (!m)
		return;
	m += strlen(VM_MARK);
	if (!strncmp(m, "run", 3)) {
		c->ran = true;
		c->t_run = now_s();
		if (c->progress)
			fprintf(stderr, "cgsim: guest booted in %.1f s; running the command\n",
				c->t_run - c->t0);
	} else if (!strncmp(m, "no-9p", 5)) {
		c->no9p = true;
	} else if (!strncmp(m, "no-share", 8)) {
		c->noshare = true;
	} else if (!strncmp(m, "cgroup-mode-refused", 19)) {
		c->mode_refused = true;
	}
}

static void console_add(struct console *c, const char *data, size_t n)
{
	const char *keep = data;
	size_t nk = n;

	if (c->log)
		fwrite(data, 1, n, c->log);
	if (nk > CONSOLE_KEEP) {
		keep += nk - CONSOLE_KEEP;
		nk = CONSOLE_KEEP;
	}
	if (c->len + nk > CONSOLE_KEEP) {
		size_t drop = c->len + nk - CONSOLE_KEEP;

		memmove(c->buf, c->buf + drop, c->len - drop);
		c->len -= drop;
	}
	memcpy(c->buf + c->len, keep, nk);
	c->len += nk;
	c->buf[c->len] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n' || c->linelen + 1 == sizeof(c->line)) {
			c->line[c->linelen] = '\0';
			console_line(c, c->line);
			c->linelen = 0;
		} else if (data[i] != '\r') {
			c->line[c->linelen++] = data[i];
		}
	}
}

/* The console's last non-empty line without the kernel's time stamp, for a reason. */
static void console_last(const struct console *c, char *out, size_t outlen)
{
	size_t end = c->len;

	out[0] = '\0';
	while (end) {
		size_t start = end;

		while (start && c->buf[start - 1] != '\n')
			start--;
		if (end - start > 1) {
			const char *s = c->buf + start, *t = memchr(s, ']', end - start);

			if (*s == '[' && t)
				s = t + 1;
			while (s < c->buf + end && (*s == ' ' || *s == '\r'))
				s++;
			snprintf(out, outlen, "%.*s", (int)(c->buf + end - s), s);
			util_one_line(out, outlen);
			if (out[0])
				return;
		}
		end = start ? start - 1 : 0;
	}
}

/* Start QEMU with @argv, its console on *@con. */
static pid_t spawn(char *const *argv, int *con)
{
	int fds[2];
	pid_t parent = getpid(), pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		for (int k = 0; k < NSTOP; k++)
			signal(stop_sigs[k], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent || null < 0 ||
		    dup2(null, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	setpgid(pid, pid);	/* also here: whichever runs first */
	*con = fds[0];
	return pid;
}

static void kill_wait(pid_t pid, int *status)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* Read the console until QEMU ends, the time is up or a signal comes. 0, -ETIMEDOUT, -EINTR. */
static int wait_guest(pid_t pid, int con, struct console *c, double deadline, int *status)
{
	char buf[8192];
	bool open_ = true;

	for (;;) {
		struct pollfd p = { .fd = con, .events = POLLIN };
		ssize_t n;

		if (stop_sig) {
			kill_wait(pid, status);
			return -EINTR;
		}
		if (now_s() > deadline) {
			kill_wait(pid, status);
			return -ETIMEDOUT;
		}
		if (!open_) {
			pid_t w = waitpid(pid, status, WNOHANG);

			if (w == pid)
				return 0;
			poll(NULL, 0, 50);
			continue;
		}
		if (poll(&p, 1, 200) <= 0)
			continue;
		n = read(con, buf, sizeof(buf));
		if (n > 0)
			console_add(c, buf, (size_t)n);
		else if (n == 0 || errno != EINTR)
			open_ = false;
	}
}

/* The command line: QEMU, the machine, the kernel and its options, the two 9p shares. */
static int qemu_argv(const struct vm_run_opts *o, const char *qemu, bool kvm, const char *scratch,
		     struct vm_argv *a)
{
	const struct topo_machine *m = &o->machine;
	int e = vm_argv_add(a, "%s", qemu) || vm_argv_add(a, "-M") || vm_argv_add(a, "q35") ||
		/*
		 * A vCPU a host thread: in single-threaded TCG's 100 ms turns the guest's
		 * balancer acts on stale loads and shares move (docs/vm.md, "Why
		 * multi-threaded TCG")
		 */
		vm_argv_add(a, "-accel") || vm_argv_add(a, kvm ? "kvm" : "tcg,thread=multi") ||
		vm_argv_add(a, "-cpu") ||
		/* Intel's CPUID leaves make QEMU's dies separate LLCs; AMD's do not */
		vm_argv_add(a, kvm ? "host" : "max,vendor=GenuineIntel");

	if (e || vm_machine_qemu_args(m, vm_machine_mem_mib(o), a))
		return -ENOMEM;
	if (vm_argv_add(a, "-nographic") || vm_argv_add(a, "-nodefaults") ||
	    vm_argv_add(a, "-serial") || vm_argv_add(a, "stdio") || vm_argv_add(a, "-no-reboot") ||
	    vm_argv_add(a, "-net") || vm_argv_add(a, "none") ||
	    vm_argv_add(a, "-kernel") || vm_argv_add(a, "%s", o->kernel->image) ||
	    vm_argv_add(a, "-initrd") || vm_argv_add(a, "%s/initrd", scratch) ||
	    vm_argv_add(a, "-append") ||
	    vm_argv_add(a, "console=ttyS0 quiet panic=-1 sched_verbose%s%s%s",
			o->memcg ? "" : " cgroup_disable=memory",
			o->autogroup ? "" : " noautogroup",
			m->nodes > 1 ? " numa_balancing=disable" : "") ||
	    vm_argv_add(a, "-virtfs") ||
	    vm_argv_add(a, "local,path=/,mount_tag=" VM_TAG_HOST ",security_model=none,"
			"readonly=on,multidevs=remap") ||
	    vm_argv_add(a, "-virtfs") ||
	    vm_argv_add(a, "local,path=%s,mount_tag=" VM_TAG_OUT ",security_model=none,"
			"multidevs=remap", scratch))
		return -ENOMEM;
	return 0;
}

/*
 * The guest's cgroup_mode as its init read it back (the scratch directory's "cgroup_mode")
 * into @r, and whether it is @want (NULL: anything): 0, or -EINVAL with the reason.
 */
static int check_mode(const char *scratch, const struct console *c, const char *want,
		      const struct vm_kernel *k, struct vm_result *r, char *err, size_t errlen)
{
	char path[4200], active[32], *text = NULL;

	snprintf(path, sizeof(path), "%s/cgroup_mode", scratch);
	if (!vm__slurp(path, 4096, &text)) {
		snprintf(r->cgroup_mode, sizeof(r->cgroup_mode), "%.*s", (int)strcspn(text, "\n"),
			 text);
		free(text);
	}
	if (!want)
		return 0;
	snprintf(active, sizeof(active), "(%s)", want);
	if (!r->cgroup_mode[0])
		snprintf(err, errlen, "cgsim: the guest's kernel (Linux %s) has no "
			 "/sys/kernel/debug/sched/cgroup_mode to set %s in", k->version, want);
	else if (c->mode_refused || !strstr(r->cgroup_mode, active))
		snprintf(err, errlen, "cgsim: the guest's kernel (Linux %s) did not take cgroup_mode "
			 "%s: its cgroup_mode reads '%s'", k->version, want, r->cgroup_mode);
	else
		return 0;
	return -EINVAL;
}

/* What the guest left in @scratch into @r; -EINVAL with a reason when it did not finish. */
static int collect(const char *scratch, const struct console *c, int qstatus,
		   const struct vm_run_opts *o, struct vm_result *r, char *err, size_t errlen)
{
	const struct vm_kernel *k = o->kernel;
	char path[4200], *text = NULL, *dmesg = NULL, last[300];
	int e;

	if (c->int3) {
		snprintf(err, errlen, "cgsim: the guest's kernel (Linux %s) stopped at a stray int3 "
			 "in each of %d boots, a hazard of QEMU's multi-threaded TCG (docs/vm.md)",
			 k->version, VM_BOOTS);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/status", scratch);
	if (vm__slurp(path, 64, &text) || sscanf(text, "%d", &r->status) != 1) {
		free(text);
		console_last(c, last, sizeof(last));
		if (c->no9p)
			snprintf(err, errlen, "cgsim: the guest kernel %s could not mount the host's "
				 "files over 9p (it needs 9p and 9pnet_virtio, built in or as "
				 "modules beside it: %s)", k->version,
				 k->moddir[0] ? k->moddir : "none found");
		else if (c->noshare)
			snprintf(err, errlen, "cgsim: the guest could not mount its scratch "
				 "directory %s", scratch);
		else if (!c->ran)
			snprintf(err, errlen, "cgsim: the guest (Linux %s) stopped before its init "
				 "ran (QEMU exit status %d)%s%s", k->version,
				 WIFEXITED(qstatus) ? WEXITSTATUS(qstatus) : -1, last[0] ? ": " : "",
				 last);
		else
			snprintf(err, errlen, "cgsim: the guest stopped before its command ended%s%s",
				 last[0] ? ": " : "", last);
		return -EINVAL;
	}
	free(text);
	text = NULL;
	snprintf(path, sizeof(path), "%s/out", scratch);
	e = vm__slurp(path, 256u << 20, &r->out);
	snprintf(path, sizeof(path), "%s/err", scratch);
	if (!e)
		e = vm__slurp(path, 16u << 20, &r->errout);
	snprintf(path, sizeof(path), "%s/kernel", scratch);
	if (!e && !vm__slurp(path, 4096, &text)) {
		snprintf(r->kernel, sizeof(r->kernel), "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
		text = NULL;
	}
	if (!e && (e = check_mode(scratch, c, o->cgroup_mode, k, r, err, errlen)))
		return e;
	snprintf(path, sizeof(path), "%s/dmesg", scratch);
	vm__slurp(path, 16u << 20, &dmesg);
	snprintf(path, sizeof(path), "%s/domains", scratch);
	if (!e && !vm__slurp(path, 16u << 20, &text))
		e = vm_domains_parse(text, dmesg, &r->domains, &r->ndomains);
	free(text);
	free(dmesg);
	if (e)
		snprintf(err, errlen, "cgsim: reading what the guest left in %s: %s", scratch,
			 strerror(-e));
	return e;
}

/*
 * Forget what a boot that stopped at int3 left in @scratch and read from its console, so that
 * the next boot's files and progress are its own.
 */
static void forget_boot(const char *scratch, struct console *c)
{
	static const char *const left[] = { "status", "out", "err", "kernel", "domains", "dmesg",
					    "cgroup_mode" };
	char path[4200];
	FILE *log = c->log;
	bool progress = c->progress;

	for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", scratch, left[i]);
		unlink(path);
	}
	memset(c, 0, sizeof(*c));
	c->log = log;
	c->progress = progress;
}

/* Check the tools, make the scratch directory and the initramfs. */
static int prepare(const struct vm_run_opts *o, char *qemu, size_t qlen, char *scratch,
		   size_t slen, char *err, size_t errlen)
{
	char busybox[4096], bin[4096], cwd[4096], path[4200];
	const char *tmp = getenv("TMPDIR");
	ssize_t n;
	int e;

	if (vm__which("qemu-system-x86_64", qemu, qlen)) {
		snprintf(err, errlen, "cgsim: qemu-system-x86_64 not found: apt-get install "
			 "qemu-system-x86 (or make deps)");
		return -EINVAL;
	}
	if (vm__which("busybox", busybox, sizeof(busybox)) &&
	    access(strcpy(busybox, "/bin/busybox"), X_OK)) {
		snprintf(err, errlen, "cgsim: busybox not found: apt-get install busybox-static "
			 "(or make deps)");
		return -EINVAL;
	}
	n = readlink("/proc/self/exe", bin, sizeof(bin) - 1);
	if (n <= 0 || !getcwd(cwd, sizeof(cwd))) {
		snprintf(err, errlen, "cgsim: cannot tell where this program or the current "
			 "directory is: %s", strerror(errno));
		return -EINVAL;
	}
	bin[n] = '\0';
	snprintf(scratch, slen, "%s/cgsim-vm-%ld-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp",
		 (long)getpid());
	if (!mkdtemp(scratch)) {
		snprintf(err, errlen, "cgsim: cannot make a scratch directory %s: %s", scratch,
			 strerror(errno));
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/initrd", scratch);
	e = vm__initrd_write(path, busybox, o->kernel, o->cgroup_mode, scratch, cwd, bin, o->argv,
			     o->argc, err, errlen);
	if (e)
		vm__remove_tree(scratch);
	return e;
}

/*
 * Boot the guest of command line @a, again while its kernel stops at a stray int3 (VM_BOOTS
 * boots at most), with SIGINT, SIGTERM and SIGHUP caught meanwhile (on_stop()), and set @r's
 * times. 0 with QEMU's exit status in *@qstatus, -EINTR, -ETIMEDOUT, or -EINVAL with a reason
 * in @err when QEMU cannot start.
 */
static int boot_guest(const struct vm_run_opts *o, const struct vm_argv *a, bool kvm,
		      const char *scratch, struct console *c, int *qstatus, struct vm_result *r,
		      char *err, size_t errlen)
{
	struct sigaction sa = { .sa_handler = on_stop }, old[NSTOP];
	double t_first;
	int e, con = -1;
	pid_t pid;

	stop_sig = 0;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < NSTOP; k++)
		sigaction(stop_sigs[k], &sa, &old[k]);
	t_first = now_s();
	for (int boot = 1;; boot++) {
		c->t0 = now_s();
		if (o->progress)
			fprintf(stderr, "cgsim: booting Linux %s under QEMU (%s), %d vCPUs\n",
				o->kernel->version, kvm ? "KVM" : "TCG", o->machine.cpus);
		pid = spawn(a->v, &con);
		if (pid < 0) {
			e = -EINVAL;
			snprintf(err, errlen, "cgsim: cannot start %s: %s", a->v[0], strerror(errno));
			break;
		}
		e = wait_guest(pid, con, c, c->t0 + o->timeout_s, qstatus);
		close(con);
		if (e || !c->int3 || boot == VM_BOOTS)
			break;
		/* always said: a user comparing run times or reading --log should know */
		fprintf(stderr, "cgsim: note: the guest's kernel stopped at a stray int3 %s, a "
			"hazard of QEMU's multi-threaded TCG (docs/vm.md): booting it again (%d of "
			"%d)\n", c->ran ? "while its command ran" : "during its boot", boot + 1,
			VM_BOOTS);
		if (c->log)
			fprintf(c->log, "\n---- cgsim: boot %d of %d ----\n", boot + 1, VM_BOOTS);
		forget_boot(scratch, c);
	}
	for (int k = 0; k < NSTOP; k++)
		sigaction(stop_sigs[k], &old[k], NULL);
	r->total_s = now_s() - t_first;
	r->boot_s = c->ran ? c->t_run - c->t0 : r->total_s;
	return e;
}

/*
 * What boot_guest()'s @e means: what the guest left in @scratch collected into @r (0), or
 * -EINTR or -EINVAL with the reason in @err (stopped, out of time, or it did not finish).
 */
static int outcome(const struct vm_run_opts *o, int e, const char *scratch,
		   const struct console *c, int qstatus, struct vm_result *r, char *err,
		   size_t errlen)
{
	char last[300];

	if (e == -EINTR) {
		snprintf(err, errlen, "cgsim: stopped by signal %d: the guest was killed",
			 (int)stop_sig);
	} else if (e == -ETIMEDOUT) {
		console_last(c, last, sizeof(last));
		snprintf(err, errlen, "cgsim: the guest did not finish within %u s (%s)%s%s",
			 o->timeout_s, c->ran ? "its command was running" : "it had not booted",
			 last[0] ? "; its console's last line: " : "", last);
		e = -EINVAL;
	} else if (!e) {
		e = collect(scratch, c, qstatus, o, r, err, errlen);
	}
	return e;
}

int vm_run(const struct vm_run_opts *o, struct vm_result *r, char *err, size_t errlen)
{
	char qemu[4096], scratch[4096], why[256];
	struct vm_argv a = { .v = NULL };
	struct console *c = NULL;
	bool kvm = vm_kvm_usable(why, sizeof(why));
	int e, qstatus = 0;

	memset(r, 0, sizeof(*r));
	if (errlen)
		err[0] = '\0';
	if ((e = prepare(o, qemu, sizeof(qemu), scratch, sizeof(scratch), err, errlen)))
		return e;
	if (why[0])
		fprintf(stderr, "cgsim: note: %s: the guest runs under TCG, QEMU's emulation\n",
			why);
	snprintf(r->accel, sizeof(r->accel), "%s", kvm ? "kvm" : "tcg");
	c = calloc(1, sizeof(*c));
	if (!c || qemu_argv(o, qemu, kvm, scratch, &a)) {
		e = -ENOMEM;
		snprintf(err, errlen, "cgsim: out of memory");
		goto out;
	}
	c->progress = o->progress;
	if (o->log && !(c->log = fopen(o->log, "w"))) {
		e = -EINVAL;
		snprintf(err, errlen, "cgsim: --log %s: %s", o->log, strerror(errno));
		goto out;
	}
	e = boot_guest(o, &a, kvm, scratch, c, &qstatus, r, err, errlen);
	e = outcome(o, e, scratch, c, qstatus, r, err, errlen);
	if (c->log && r->errout) {
		fputs("\n---- the command's stderr ----\n", c->log);
		fputs(r->errout, c->log);
	}
out:
	if (c && c->log && fclose(c->log) && !e) {
		e = -EINVAL;
		snprintf(err, errlen, "cgsim: --log %s: %s", o->log, strerror(errno));
	}
	vm__remove_tree(scratch);
	vm_argv_free(&a);
	free(c);
	if (e)
		vm_result_free(r);
	return e;
}

void vm_result_free(struct vm_result *r)
{
	free(r->out);
	free(r->errout);
	vm_domains_free(r->domains, r->ndomains);
	memset(r, 0, sizeof(*r));
}
