// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_kernel.c - the guest's kernel: a bzImage given, or Debian's package fetched into
 * the user's cache (sim/vm/vm.h, docs/vm.md).
 *
 * Debian's packages are found and downloaded with an apt configuration of cgsim's own, in a
 * temporary directory: the host's mirror with the suites that carry the series asked for
 * (7.x is in trixie-backports, forky and sid, which a bookworm host does not list), its own
 * lists, cache and state. The host's apt state is never written.
 *
 * Only the image and the modules that mount the host's files (9p over virtio and what they
 * depend on) are unpacked, about 12 MB of the packages' 120: the cache holds them in the
 * packages' own layout, kernels/VERSION/boot/vmlinuz-VERSION and
 * kernels/VERSION/lib/modules/VERSION/kernel/... (linux-image up to 6.18), or
 * kernels/VERSION/usr/lib/modules/VERSION/{vmlinuz,kernel/...} (linux-binary and linux-modules
 * since 6.19), so that a tree unpacked whole with `dpkg-deb -x` is used the same way.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/util/util.h"
#include "sim/vm/vm.h"
#include "sim/vm/vm_internal.h"

int vm_kernel_version(const char *path, char *out, size_t outlen)
{
	unsigned char hdr[0x8000];
	ssize_t n;
	size_t off;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, hdr, sizeof(hdr));
	close(fd);
	/* the x86 boot protocol: "HdrS" at 0x202; kernel_version at 0x20e, from 0x200 */
	if (n < 0x210 || memcmp(hdr + 0x202, "HdrS", 4))
		return -EINVAL;
	off = 0x200u + (size_t)(hdr[0x20e] | hdr[0x20f] << 8);
	if (off == 0x200 || off >= (size_t)n)
		return -EINVAL;
	/* "6.12.117+deb12-amd64 (debian-kernel@...) #1 SMP ...": the first word */
	for (n = 0; (size_t)n + 1 < outlen && off + (size_t)n < sizeof(hdr); n++) {
		unsigned char c = hdr[off + (size_t)n];

		if (c <= ' ' || c > '~')
			break;
		out[n] = (char)c;
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

bool vm_kernel_at_least(const struct vm_kernel *k, unsigned major, unsigned minor)
{
	unsigned a, b;

	if (sscanf(k->version, "%u.%u", &a, &b) != 2)
		return false;
	return a > major || (a == major && b >= minor);
}

/* Whether @path is a directory. */
static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The modules' tree of kernel @k: beside the image when it sits in a package's layout
 * (ROOT/boot/vmlinuz-V with ROOT/lib/modules/V, as Debian's linux-image packages up to 6.18
 * have it; ROOT/usr/lib/modules/V/vmlinuz in the tree of its modules, as linux-binary since
 * 6.19), else the host's /lib/modules/V (the kernel the host runs, or one installed), else none.
 */
static void find_moddir(struct vm_kernel *k)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", k->image);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* linux-binary's: the image at the top of its modules' tree */
	if (slash && !strcmp(slash + 1, "vmlinuz") &&
	    !vm__path(k->moddir, sizeof(k->moddir), "%s/kernel", dir) && is_dir(k->moddir)) {
		snprintf(k->moddir, sizeof(k->moddir), "%s", dir);
		return;
	}
	/* linux-image's: ROOT/boot/vmlinuz-V, the modules in ROOT/lib or ROOT/usr/lib */
	slash = slash ? strrchr(dir, '/') : NULL;
	if (slash && !strcmp(slash, "/boot")) {
		*slash = '\0';
		if (!vm__path(k->moddir, sizeof(k->moddir), "%s/lib/modules/%s", dir,
			      k->version) && is_dir(k->moddir))
			return;
		if (!vm__path(k->moddir, sizeof(k->moddir), "%s/usr/lib/modules/%s", dir,
			      k->version) && is_dir(k->moddir))
			return;
	}
	if (vm__path(k->moddir, sizeof(k->moddir), "/lib/modules/%s", k->version) ||
	    !is_dir(k->moddir))
		k->moddir[0] = '\0';
}

static int use_file(const char *file, struct vm_kernel *k, char *err, size_t errlen)
{
	int e;

	if (access(file, R_OK)) {
		e = -errno;
		snprintf(err, errlen, "cgsim: the guest kernel %s: %s", file, strerror(-e));
		return e;
	}
	if (vm_kernel_version(file, k->version, sizeof(k->version))) {
		snprintf(err, errlen, "cgsim: the guest kernel %s is not an x86 bzImage (a vmlinuz "
			 "as /boot holds it)", file);
		return -EINVAL;
	}
	snprintf(k->image, sizeof(k->image), "%s", file);
	find_moddir(k);
	return 0;
}

/* Versions compared as people read them: digit runs as numbers ("6.12.9" < "6.12.117"). */
static int version_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

bool vm__kernel_match(const char *v, const char *want)
{
	size_t n = strlen(want), len = strlen(v);
	bool full = strchr(want, '.') != strrchr(want, '.');

	if (strncmp(v, want, n) || len < 6 || strcmp(v + len - 6, "-amd64"))
		return false;
	/* "7.3.4": "7.3.4+deb13-amd64", "6.1.0": "6.1.0-57-amd64"; never "7.3.40+..." */
	if (full ? v[n] != '+' && v[n] != '-' :
		   (v[n] != '.' && v[n] != '-') || v[n + 1] < '0' || v[n + 1] > '9')
		return false;
	return !strstr(v, "-cloud-") && !strstr(v, "-rt-") && !strstr(v, "-dbg") &&
	       !strstr(v, "-unsigned");
}

int vm__kernel_want_parse(const char *s, unsigned *major, unsigned *minor)
{
	unsigned part[3];
	int n = 0;

	while (n < 3) {
		size_t d = strspn(s, "0123456789");

		if (!d || d > 3 || (d > 1 && *s == '0'))
			return -EINVAL;
		part[n++] = (unsigned)strtoul(s, NULL, 10);
		s += d;
		if (!*s)
			break;
		if (*s++ != '.')
			return -EINVAL;
	}
	if (n < 2 || *s)
		return -EINVAL;
	*major = part[0];
	*minor = part[1];
	return 0;
}

/* The cache's directory of kernels, made if missing. */
static int cache_dir(char *out, size_t len, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char base[4096];

	if (xdg && *xdg == '/')
		snprintf(base, sizeof(base), "%s/cgsim", xdg);
	else if (home && *home)
		snprintf(base, sizeof(base), "%s/.cache/cgsim", home);
	else {
		snprintf(err, errlen, "cgsim: no cache directory for the guest kernel (set "
			 "XDG_CACHE_HOME or HOME, or give --kernel FILE)");
		return -ENOENT;
	}
	if (vm__path(out, len, "%s/kernels", base) || vm__mkdirs(out)) {
		snprintf(err, errlen, "cgsim: cannot make %s: %s", out, strerror(errno));
		return -errno;
	}
	return 0;
}

/* The image of version @v in the cache @dir, in either package layout: 0 or -ENOENT. */
static int cached_image(const char *dir, const char *v, char *out, size_t len)
{
	if (!vm__path(out, len, "%s/%s/boot/vmlinuz-%s", dir, v, v) && !access(out, R_OK))
		return 0;
	if (!vm__path(out, len, "%s/%s/usr/lib/modules/%s/vmlinuz", dir, v, v) &&
	    !access(out, R_OK))
		return 0;
	return -ENOENT;
}

/* The newest kernel matching @want in the cache @dir into @k; false when there is none. */
static bool newest_cached(const char *dir, const char *want, struct vm_kernel *k)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char best[128] = "";

	if (!d)
		return false;
	while ((de = readdir(d)))
		if (strlen(de->d_name) < sizeof(best) && vm__kernel_match(de->d_name, want) &&
		    (!best[0] || version_cmp(de->d_name, best) > 0) &&
		    !cached_image(dir, de->d_name, k->image, sizeof(k->image)))
			vm__path(best, sizeof(best), "%s", de->d_name);
	closedir(d);
	return best[0] && !cached_image(dir, best, k->image, sizeof(k->image)) &&
	       !vm_kernel_version(k->image, k->version, sizeof(k->version));
}

/* ---- Debian's packages, through an apt configuration of cgsim's own ---- */

/*
 * The suites that carry a series: Debian's stable (bookworm) has 6.1, and 6.12 in its security
 * suite; trixie has 6.12; anything newer comes through trixie-backports, forky (testing) and
 * sid (unstable). "S" marks a suite of the security mirror.
 */
static const char *const suites_6_1[] = { "bookworm", "bookworm-updates", "Sbookworm-security",
					  NULL };
static const char *const suites_6_12[] = { "bookworm", "bookworm-updates", "Sbookworm-security",
					   "trixie", "trixie-updates", "Strixie-security", NULL };
static const char *const suites_new[] = { "trixie-backports", "forky", "sid", NULL };

static const char *const *suites_of(unsigned major, unsigned minor)
{
	if (major < 6 || (major == 6 && minor < 12))
		return suites_6_1;
	return major == 6 && minor == 12 ? suites_6_12 : suites_new;
}

/* The suites' names, space-separated, for a message. */
static void suites_said(const char *const *s, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (; *s && n < len; s++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "",
				      **s == 'S' ? *s + 1 : *s);
}

/* Whether a suite of Debian's: a release's code name, or one of its -updates, -backports. */
static bool debian_suite(const char *s)
{
	static const char *const names[] = { "buster", "bullseye", "bookworm", "trixie", "forky",
					     "duke", "sid", "stable", "testing", "unstable",
					     "oldstable" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		if (!strncmp(s, names[i], n) && (!s[n] || s[n] == '-'))
			return true;
	}
	return false;
}

/* One source of the host's: its URIs, suites and Signed-By, from either format. */
static void take_source(struct vm_mirror *m, const char *uris, const char *suites,
			const char *signed_by)
{
	char u[512], su[256];
	const char *p = suites;

	if (sscanf(uris, "%511s", u) != 1)
		return;
	while (sscanf(p, "%255s", su) == 1) {
		size_t n = strlen(su);
		bool sec = n > 9 && !strcmp(su + n - 9, "-security");

		p = strstr(p, su) + n;
		if (!debian_suite(su))
			continue;
		if (sec && !m->security[0])
			snprintf(m->security, sizeof(m->security), "%s", u);
		else if (!sec && !m->uri[0])
			snprintf(m->uri, sizeof(m->uri), "%s", u);
		else
			continue;
		/* a file path; deb822 may also embed the key itself, which apt then uses */
		if (!m->keyring[0] && signed_by && *signed_by == '/')
			sscanf(signed_by, "%1023s", m->keyring);
	}
}

/* The one-line format: "deb [opt=v ...] URI SUITE COMPONENT...". */
static void one_line_sources(struct vm_mirror *m, char *text)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char uri[512] = "", suite[256] = "", signed_by[1024] = "", *opts;

		l += strspn(l, " \t");
		if (strncmp(l, "deb", 3) || (l[3] != ' ' && l[3] != '\t'))
			continue;
		l += 3;
		l += strspn(l, " \t");
		if (*l == '[' && (opts = strchr(l, ']'))) {
			char *sb = strstr(l, "signed-by=");

			if (sb && sb < opts)
				sscanf(sb + 10, "%1023[^] \t]", signed_by);
			l = opts + 1;
		}
		if (sscanf(l, "%511s %255s", uri, suite) == 2)
			take_source(m, uri, suite, signed_by);
	}
}

/* A deb822 stanza being read. */
struct stanza {
	char types[64], uris[512], suites[512], signed_by[1024];
	bool enabled;
};

static void stanza_end(struct vm_mirror *m, struct stanza *st)
{
	char word[16];
	const char *p = st->types;
	bool deb = false;

	while (sscanf(p, "%15s", word) == 1) {
		deb |= !strcmp(word, "deb");
		p = strstr(p, word) + strlen(word);
	}
	if (deb && st->enabled)
		take_source(m, st->uris, st->suites, st->signed_by);
	memset(st, 0, sizeof(*st));
	st->enabled = true;
}

/* deb822: stanzas of "Key: value" lines, a blank line between them. */
static void deb822_sources(struct vm_mirror *m, char *text)
{
	struct stanza st = { .enabled = true };

	for (char *l = text; l;) {
		char *nl = strchr(l, '\n'), *colon;

		if (nl)
			*nl = '\0';
		l[strcspn(l, "\r")] = '\0';
		if (!l[strspn(l, " \t")]) {
			stanza_end(m, &st);
		} else if (*l != '#' && *l != ' ' && *l != '\t' && (colon = strchr(l, ':'))) {
			const char *v = colon + 1 + strspn(colon + 1, " \t");

			*colon = '\0';
			if (!strcasecmp(l, "Types"))
				snprintf(st.types, sizeof(st.types), "%s", v);
			else if (!strcasecmp(l, "URIs"))
				snprintf(st.uris, sizeof(st.uris), "%s", v);
			else if (!strcasecmp(l, "Suites"))
				snprintf(st.suites, sizeof(st.suites), "%s", v);
			else if (!strcasecmp(l, "Signed-By"))
				snprintf(st.signed_by, sizeof(st.signed_by), "%s", v);
			else if (!strcasecmp(l, "Enabled"))
				st.enabled = strcasecmp(v, "no") != 0;
		}
		l = nl ? nl + 1 : NULL;
	}
	stanza_end(m, &st);
}

/* The file @path's text through @parse, when it can be read. */
static void read_sources(struct vm_mirror *m, const char *path,
			 void (*parse)(struct vm_mirror *, char *))
{
	char *text = NULL;

	if (!vm__slurp(path, 1u << 20, &text))
		parse(m, text);
	free(text);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int vm__apt_mirror(const char *etc, struct vm_mirror *m)
{
	const char *env = getenv("CGSIM_DEBIAN_MIRROR");
	char path[4096], *names[256];
	size_t n = 0;
	DIR *d;
	struct dirent *de;

	memset(m, 0, sizeof(*m));
	if (env && *env) {
		/* the mirror's own security suites are at the sibling debian-security */
		snprintf(m->uri, sizeof(m->uri), "%s", env);
		snprintf(m->security, sizeof(m->security), "%s-security", env);
	} else {
		snprintf(path, sizeof(path), "%s/sources.list", etc);
		read_sources(m, path, one_line_sources);
		snprintf(path, sizeof(path), "%s/sources.list.d", etc);
		/* in apt's order: the directory's files sorted by name */
		if ((d = opendir(path))) {
			while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0]))
				if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
					n++;
			closedir(d);
		}
		qsort(names, n, sizeof(names[0]), name_cmp);
		for (size_t i = 0; i < n; i++) {
			size_t len = strlen(names[i]);

			snprintf(path, sizeof(path), "%s/sources.list.d/%s", etc, names[i]);
			if (len > 5 && !strcmp(names[i] + len - 5, ".list"))
				read_sources(m, path, one_line_sources);
			else if (len > 8 && !strcmp(names[i] + len - 8, ".sources"))
				read_sources(m, path, deb822_sources);
			free(names[i]);
		}
	}
	if (!m->uri[0])
		snprintf(m->uri, sizeof(m->uri), "%s", VM_DEBIAN_MIRROR);
	if (!m->security[0]) {
		size_t len = strlen(m->uri);

		/* beside the mirror's debian/, as deb.debian.org has it (when it fits) */
		if (len > 7 && !strcmp(m->uri + len - 7, "/debian") &&
		    len + sizeof("-security") <= sizeof(m->security)) {
			memcpy(m->security, m->uri, len);
			memcpy(m->security + len, "-security", sizeof("-security"));
		} else
			snprintf(m->security, sizeof(m->security), "%s-security",
				 VM_DEBIAN_MIRROR);
	}
	if (!m->keyring[0])
		snprintf(m->keyring, sizeof(m->keyring), "%s", VM_DEBIAN_KEYRING);
	return 0;
}

/* The private apt: its configuration file, and what runs apt with it. */
struct apt {
	char dir[4096];		/* DIR/apt: etc/, state/, cache/ */
	char conf[4200];	/* DIR/apt/apt.conf, given as APT_CONFIG */
	struct vm_mirror mirror;
	const char *const *suites;
};

/*
 * The lines of the host's apt configuration a fetch needs: how to reach the network (proxies)
 * and whether a mirror's Release files may be out of date (a snapshot mirror's are).
 */
static void host_settings(FILE *f)
{
	const char *argv[] = { "apt-config", "dump", NULL };
	char *text = NULL, *save = NULL;

	if (vm__capture(argv, NULL, &text, NULL) == 0 && text)
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (!strncmp(l, "Acquire::http::Proxy", 20) ||
			    !strncmp(l, "Acquire::https::Proxy", 21) ||
			    !strncmp(l, "Acquire::ftp::Proxy", 19) ||
			    !strncmp(l, "Acquire::Check-Valid-Until ", 27) ||
			    !strncmp(l, "Acquire::Check-Date ", 20))
				fprintf(f, "%s\n", l);
	free(text);
}

/*
 * The configuration: its own sources (the host's mirror, the suites of the series), lists,
 * package cache and an empty dpkg status; none of the host's apt.conf.d (whose hooks would
 * run after an update), only its network settings.
 */
static int apt_setup(struct apt *a, const char *tmp, char *err, size_t errlen)
{
	static const char *const dirs[] = { "etc/parts", "state/lists/partial",
					    "cache/archives/partial" };
	char path[4300];
	FILE *f;

	if (vm__path(a->dir, sizeof(a->dir), "%s/apt", tmp) ||
	    vm__path(a->conf, sizeof(a->conf), "%s/apt.conf", a->dir))
		return -ENAMETOOLONG;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", a->dir, dirs[i]);
		if (vm__mkdirs(path)) {
			snprintf(err, errlen, "cgsim: cannot make %s: %s", path, strerror(errno));
			return -errno;
		}
	}
	snprintf(path, sizeof(path), "%s/state/status", a->dir);
	if (!(f = fopen(path, "w")) || fclose(f))
		goto fail;
	snprintf(path, sizeof(path), "%s/etc/sources.list", a->dir);
	if (!(f = fopen(path, "w")))
		goto fail;
	for (const char *const *s = a->suites; *s; s++)
		fprintf(f, "deb [arch=amd64 signed-by=%s] %s %s main\n", a->mirror.keyring,
			**s == 'S' ? a->mirror.security : a->mirror.uri, **s == 'S' ? *s + 1 : *s);
	if (fclose(f))
		goto fail;
	snprintf(path, sizeof(path), "%s", a->conf);
	if (!(f = fopen(path, "w")))
		goto fail;
	fprintf(f, "Dir::Etc::main \"%s\";\nDir::Etc::parts \"%s/etc/parts\";\n"
		"Dir::Etc::sourcelist \"%s/etc/sources.list\";\nDir::Etc::sourceparts \"-\";\n"
		"Dir::State \"%s/state\";\nDir::State::status \"%s/state/status\";\n"
		"Dir::Cache \"%s/cache\";\nAPT::Architecture \"amd64\";\n"
		"APT::Architectures { \"amd64\"; };\nAcquire::Languages \"none\";\n"
		/* a suite that cannot be read is an error, not a warning and old lists */
		"APT::Update::Error-Mode \"any\";\n", a->conf,
		a->dir, a->dir, a->dir, a->dir, a->dir);
	/* root's downloads into a directory the sandbox user _apt may not reach */
	if (!geteuid())
		fputs("APT::Sandbox::User \"root\";\n", f);
	host_settings(f);
	if (fclose(f))
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "cgsim: cannot write %s: %s", path, strerror(errno));
	return -EIO;
}

/* Run apt's @tool with @args (NULL-terminated, 8 at most) under the private configuration. */
static int apt_run(const struct apt *a, const char *tool, const char *const *args,
		   const char *cwd, char **out)
{
	char env[4300];
	const char *argv[12] = { "env", env, tool };
	size_t n = 3;

	snprintf(env, sizeof(env), "APT_CONFIG=%s", a->conf);
	for (size_t i = 0; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return vm__capture(argv, cwd, out, NULL);
}

/*
 * What apt said, in one line for a message: its first error ("E: Failed to fetch URL  Could
 * not connect ..."; the last ones only sum up), else its last line.
 */
static const char *last_words(char *msg)
{
	char *end, *start;

	if (!msg)
		return "";
	start = !strncmp(msg, "E: ", 3) ? msg : strstr(msg, "\nE: ");
	if (start) {
		start += *start == '\n';
		start[strcspn(start, "\n")] = '\0';
	} else {
		end = msg + strlen(msg);
		while (end > msg && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		start = strrchr(msg, '\n');
		start = start ? start + 1 : msg;
	}
	util_one_line(start, strlen(start) + 1);
	return start;
}

/* The private package lists: apt-get update. 0, or -ENOENT with apt's reason. */
static int apt_update(const struct apt *a, char *err, size_t errlen)
{
	static const char *const args[] = { "update", "-q", NULL };
	char *msg = NULL, suites[256];
	int st = apt_run(a, "apt-get", args, NULL, &msg);

	if (st) {
		suites_said(a->suites, suites, sizeof(suites));
		snprintf(err, errlen, "cgsim: cannot read Debian's package lists (%s at %s): %s%.300s",
			 suites, a->mirror.uri, st == 127 ? "no apt-get here" : "",
			 st == 127 ? "" : last_words(msg));
	}
	free(msg);
	return st ? -ENOENT : 0;
}

/* The names apt knows that start with @prefix, one a line, into *@out. */
static int apt_names(const struct apt *a, const char *prefix, char **out)
{
	const char *args[] = { "pkgnames", prefix, NULL };

	return apt_run(a, "apt-cache", args, NULL, out) ? -ENOENT : 0;
}

/* Whether the lines of @names have @name exactly. */
static bool has_line(const char *names, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = names; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/*
 * The package(s) of the newest kernel matching @want the lists have: its VERSION into @v and
 * into @pkgs what to download: linux-binary-VERSION and linux-modules-VERSION where the image
 * package is split (since 6.19: linux-image-VERSION then only depends on both), else
 * linux-image-VERSION. 0, or -ENOENT with a reason.
 */
static int apt_choose(const struct apt *a, const char *want, char *v, size_t vlen,
		      char pkgs[2][160], size_t *npkgs, char *err, size_t errlen)
{
	char *images = NULL, *binaries = NULL, *modules = NULL, *save = NULL, suites[256];
	int e = 0;

	v[0] = '\0';
	*npkgs = 0;
	if (apt_names(a, "linux-image-", &images) || apt_names(a, "linux-binary-", &binaries) ||
	    apt_names(a, "linux-modules-", &modules)) {
		snprintf(err, errlen, "cgsim: apt-cache cannot list Debian's kernels");
		e = -ENOENT;
		goto out;
	}
	for (char *l = strtok_r(images, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *lv = l + strlen("linux-image-");

		if (!strncmp(l, "linux-image-", 12) && strlen(lv) < vlen &&
		    vm__kernel_match(lv, want) && (!v[0] || version_cmp(lv, v) > 0))
			snprintf(v, vlen, "%s", lv);
	}
	suites_said(a->suites, suites, sizeof(suites));
	if (!v[0]) {
		snprintf(err, errlen, "cgsim: Debian has no kernel %s (linux-image-%s%s-amd64) in "
			 "%s at %s", want, want, strchr(want, '.') != strrchr(want, '.') ? "+*" :
			 ".*", suites, a->mirror.uri);
		e = -ENOENT;
		goto out;
	}
	snprintf(pkgs[0], 160, "linux-binary-%s", v);
	snprintf(pkgs[1], 160, "linux-modules-%s", v);
	if (!has_line(binaries, pkgs[0])) {
		snprintf(pkgs[0], 160, "linux-image-%s", v);
		*npkgs = 1;
	} else if (!has_line(modules, pkgs[1])) {
		snprintf(err, errlen, "cgsim: Debian's %s has %s but not its modules, %s (at %s)",
			 suites, pkgs[0], pkgs[1], a->mirror.uri);
		e = -ENOENT;
	} else {
		*npkgs = 2;
	}
out:
	free(images);
	free(binaries);
	free(modules);
	return e;
}

/* Run @argv in @cwd: 0, or -ENOENT said as "@what @pkg failed: ITS LAST WORDS". */
static int step(const char *const *argv, const char *cwd, const char *what, const char *pkg,
		char *err, size_t errlen)
{
	char *msg = NULL;
	int st = vm__capture(argv, cwd, &msg, NULL);

	if (st)
		snprintf(err, errlen, "cgsim: %s %s failed%s%.300s", what, pkg,
			 msg && *msg ? ": " : "", last_words(msg));
	free(msg);
	return st ? -ENOENT : 0;
}

/*
 * apt-get download the packages @pkgs of a kernel into @tmp and unpack what a guest needs:
 * the image (boot/vmlinuz-VERSION, or usr/lib/modules/VERSION/vmlinuz), and the directories
 * of 9p, its transport over virtio and what they may depend on (netfs; fscache before 6.4
 * merged it into netfs; virtio and its PCI transport, modules in Debian's 6.1 and built in
 * since), whichever package holds them. Listed first, then extracted by name: tar fails on a
 * pattern that matches nothing, and which of them exist depends on the version.
 */
static int fetch(const struct apt *a, const char *tmp, char pkgs[2][160], size_t npkgs,
		 char *err, size_t errlen)
{
	const char *dl[] = { "download", "-q", pkgs[0], npkgs > 1 ? pkgs[1] : NULL, NULL };
	const char *unpack[] = {
		"/bin/sh", "-c",
		"set -e; mkdir unpacked; for deb in ./*.deb; do "
		"dpkg-deb --fsys-tarfile \"$deb\" | tar -t | "
		"grep -E '^\\./boot/vmlinuz-|^\\./usr/lib/modules/[^/]*/vmlinuz$|"
		"/kernel/(fs/(9p|netfs|fscache)|net/9p|drivers/virtio)/.' > list || true; "
		"if [ -s list ]; then dpkg-deb --fsys-tarfile \"$deb\" | "
		"tar -x -C unpacked -T list; fi; rm -f \"$deb\" list; done",
		NULL
	};
	char *msg = NULL;
	int st = apt_run(a, "apt-get", dl, tmp, &msg);

	if (st) {
		snprintf(err, errlen, "cgsim: apt-get download %s%s%s failed: %.300s", pkgs[0],
			 npkgs > 1 ? " " : "", npkgs > 1 ? pkgs[1] : "", last_words(msg));
		free(msg);
		return -ENOENT;
	}
	free(msg);
	return step(unpack, tmp, "dpkg-deb unpacking", pkgs[0], err, errlen);
}

static int fetch_into_cache(const char *dir, const char *want, bool progress,
			    struct vm_kernel *k, char *err, size_t errlen)
{
	char v[128], tmp[4096], from[4096], to[4096], pkgs[2][160], suites[256];
	struct apt a = { .dir = "" };
	unsigned major, minor;
	size_t npkgs;
	int e;

	if (vm__kernel_want_parse(want, &major, &minor)) {
		snprintf(err, errlen, "cgsim: no kernel version %s", want);
		return -EINVAL;
	}
	a.suites = suites_of(major, minor);
	vm__apt_mirror("/etc/apt", &a.mirror);
	if (vm__path(tmp, sizeof(tmp), "%s/.fetch-%ld", dir, (long)getpid()) ||
	    vm__path(from, sizeof(from), "%s/unpacked", tmp)) {
		snprintf(err, errlen, "cgsim: the cache directory's path %s is too long", dir);
		return -ENAMETOOLONG;
	}
	vm__remove_tree(tmp);
	if (mkdir(tmp, 0755)) {
		snprintf(err, errlen, "cgsim: cannot make %s: %s", tmp, strerror(errno));
		return -errno;
	}
	suites_said(a.suites, suites, sizeof(suites));
	if (progress)
		fprintf(stderr, "cgsim: reading Debian's package lists (%s at %s)\n", suites,
			a.mirror.uri);
	e = apt_setup(&a, tmp, err, errlen);
	if (!e)
		e = apt_update(&a, err, errlen);
	if (!e)
		e = apt_choose(&a, want, v, sizeof(v), pkgs, &npkgs, err, errlen);
	if (!e && vm__path(to, sizeof(to), "%s/%s", dir, v))
		e = -ENAMETOOLONG;
	if (!e && progress)
		fprintf(stderr, "cgsim: fetching the guest kernel %s%s%s (about 120 MB) into %s\n",
			pkgs[0], npkgs > 1 ? " and " : "", npkgs > 1 ? pkgs[1] : "", dir);
	if (!e)
		e = fetch(&a, tmp, pkgs, npkgs, err, errlen);
	if (!e && rename(from, to) && errno != EEXIST && errno != ENOTEMPTY) {
		snprintf(err, errlen, "cgsim: cannot move the kernel into %s: %s", to,
			 strerror(errno));
		e = -errno;
	}
	vm__remove_tree(tmp);
	if (e)
		return e;
	if (cached_image(dir, v, k->image, sizeof(k->image)) ||
	    vm_kernel_version(k->image, k->version, sizeof(k->version))) {
		snprintf(err, errlen, "cgsim: %s of %s has no bzImage", to, pkgs[0]);
		return -EINVAL;
	}
	return 0;
}

int vm_kernel_find(const char *file, const char *want, bool progress, struct vm_kernel *k,
		   char *err, size_t errlen)
{
	char dir[4096];
	int e;

	memset(k, 0, sizeof(*k));
	if (file)
		return use_file(file, k, err, errlen);
	if (!want)
		want = VM_DEFAULT_SERIES;
	if ((e = cache_dir(dir, sizeof(dir), err, errlen)))
		return e;
	if (!newest_cached(dir, want, k) &&
	    (e = fetch_into_cache(dir, want, progress, k, err, errlen)))
		return e;
	find_moddir(k);
	return 0;
}
