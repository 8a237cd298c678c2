/* SPDX-License-Identifier: MIT */
/*
 * cgroup/files.c - the interface files: which exist where (cgroup_base_files, cpu_files,
 * cpu_legacy_files, cpuset's dfl_files, pids_files with their CFTYPE_NOT_ON_ROOT flags), reads and writes
 * by path, and the suggestion for a name that does not exist. How each file reads and how a
 * write is parsed and checked is in the file of its controller: files_base.c (cgroup.*),
 * files_cpu.c (cpu.*), cpuset.c (cpuset.*), pids.c (pids.*).
 */
#include "cgroup/cg_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A value that did not parse (@r < 0) refused by @rule; running out of memory is no rule. */
int cg__bad_value(struct cg_hier *h, enum cg_rule rule, int r)
{
	return r == -ENOMEM ? r : cg__refuse(h, rule, r);
}

/* Every file the model has, in the order the look-up and the suggestions visit them. */
static const struct cg__file_def *const tables[] = {
	cg__base_files, cg__cpu_files, cg__cpu_legacy_files, cg__cpuset_files, cg__pids_files,
};

/* File @f, named and on this hierarchy: NULL and in *@why the reason when @c has no css for it. */
static const struct cg__file_def *check_file(const struct cg_hier *h, const struct cg_cgroup *c,
					     const struct cg__file_def *f, enum cg_rule *why)
{
	/* the cpu css exists only where cpu is enabled (and bound to the hierarchy) */
	if ((f->flags & CG__F_CPU) && (!c->has_cpu || !(h->root_mask & CG_MASK(CG_CTRL_CPU)))) {
		*why = CG_RULE_NO_CPU_CSS;
		return NULL;
	}
	/* the root has a cpuset css when cpuset is bound, a child when its parent enables it */
	if ((f->flags & CG__F_CPUSET) && (!(h->root_mask & CG_MASK(CG_CTRL_CPUSET)) ||
					  (c->parent && !c->has_cpuset))) {
		*why = CG_RULE_NO_CPUSET_CSS;
		return NULL;
	}
	/* a child has a pids css when its parent enables pids; the root has no pids file */
	if ((f->flags & CG__F_PIDS) && c->parent &&
	    (!(h->root_mask & CG_MASK(CG_CTRL_PIDS)) || !c->has_pids)) {
		*why = CG_RULE_NO_PIDS_CSS;
		return NULL;
	}
	if ((f->flags & CG__F_NOT_ON_ROOT) && !c->parent) {
		*why = CG_RULE_ROOT_HAS_NO_FILE;
		return NULL;
	}
	if ((f->flags & CG__F_ONLY_ON_ROOT) && c->parent) {
		*why = CG_RULE_ONLY_ON_ROOT;
		return NULL;
	}
	*why = CG_RULE_NONE;
	return f;
}

/* The file @name of cgroup @c, or NULL and in *@why the reason it does not exist there. */
static const struct cg__file_def *find_file(const struct cg_hier *h, const struct cg_cgroup *c,
					    const char *name, enum cg_rule *why)
{
	*why = CG_RULE_NO_SUCH_FILE;
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct cg__file_def *f = tables[t]; f->name; f++)
			if (!strcmp(f->name, name) && (f->sems & (1u << h->sem)))
				return check_file(h, c, f, why);
	return NULL;
}

bool cg__file_exists(const struct cg_hier *h, const struct cg_cgroup *c, const char *file)
{
	enum cg_rule why;

	return find_file(h, c, file, &why) != NULL;
}

/*
 * A write to a file without a write handler, or a read of one without a read handler, is
 * -EINVAL: cgroup_file_write() and cgroup_seqfile_show() have nothing to call (checked on a
 * 6.18 kernel: root may open the file, the operation itself fails).
 */
int cg__file_read(struct cg_hier *h, struct cg_cgroup *c, const char *file, char **out)
{
	enum cg_rule why;
	const struct cg__file_def *f = find_file(h, c, file, &why);
	struct cg__buf b = { 0 };
	int r;

	if (!f)
		return cg__refuse(h, why, -ENOENT);
	if (!f->read)
		return cg__refuse(h, CG_RULE_NOT_READABLE, -EINVAL);
	r = f->read(h, c, &b);
	if (r) {
		free(b.s);
		return r;
	}
	return cg__buf_finish(&b, out);
}

int cg__file_write(struct cg_hier *h, struct cg_cgroup *c, const char *file, const char *value)
{
	enum cg_rule why;
	const struct cg__file_def *f = find_file(h, c, file, &why);

	if (!f)
		return cg__refuse(h, why, -ENOENT);
	if (!f->write)
		return cg__refuse(h, CG_RULE_NOT_WRITABLE, -EINVAL);
	return f->write(h, c, value);
}

/* ---- entry points by path ---------------------------------------------------------------- */

/* Split "DIR/FILE" and resolve DIR; a path that names a cgroup is -EISDIR. */
static int resolve_file(struct cg_hier *h, const char *path, struct cg_cgroup **c,
			const char **file)
{
	const char *slash = strrchr(path, '/');
	enum cg_rule why = CG_RULE_NONE;
	char dir[4096];
	int r;

	if (strlen(path) >= sizeof(dir))
		return cg__refuse(h, CG_RULE_PATH_TOO_LONG, -ENAMETOOLONG);
	if (slash) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		*file = slash + 1;
	} else {
		dir[0] = '\0';
		*file = path;
	}
	r = cg__resolve(h, dir, c, &why);
	if (r)
		return cg__refuse(h, why, r);
	if (!**file || !strcmp(*file, ".") || !strcmp(*file, ".."))
		return cg__refuse(h, CG_RULE_IS_A_DIRECTORY, -EISDIR);
	{
		struct cg_cgroup *k;

		if (!cg__resolve(h, path, &k, NULL) && k != *c)
			return cg__refuse(h, CG_RULE_IS_A_DIRECTORY, -EISDIR);
	}
	return 0;
}

int cg_write(struct cg_hier *h, const char *path, const char *value)
{
	struct cg_cgroup *c;
	const char *file;
	int r;

	cg__begin(h);
	r = resolve_file(h, path, &c, &file);
	return cg__done(h, r ? r : cg__file_write(h, c, file, value));
}

int cg_read(struct cg_hier *h, const char *path, char **out)
{
	struct cg_cgroup *c;
	const char *file;
	int r;

	cg__begin(h);
	r = resolve_file(h, path, &c, &file);
	return cg__done(h, r ? r : cg__file_read(h, c, file, out));
}

/* The optimal string alignment distance of @a and @b (a transposition costs 1), capped. */
static size_t osa_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *cg_file_suggest(enum cg_semantics sem, const char *name)
{
	/* the same setting under the other rule sets' names */
	static const struct {
		const char *name, *v2, *v1;
	} same[] = {
		{ "cpu.shares", "cpu.weight", NULL },
		{ "cpu.cfs_quota_us", "cpu.max", NULL },
		{ "cpu.cfs_period_us", "cpu.max", NULL },
		{ "cpu.cfs_burst_us", "cpu.max.burst", NULL },
		{ "tasks", "cgroup.threads", NULL },
		{ "cpu.weight", NULL, "cpu.shares" },
		{ "cpu.weight.nice", NULL, "cpu.shares" },
		{ "cpu.max", NULL, "cpu.cfs_quota_us" },
		{ "cpu.max.burst", NULL, "cpu.cfs_burst_us" },
		{ "cgroup.threads", NULL, "tasks" },
	};
	const char *best = NULL;
	size_t bestd = 3;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct cg__file_def *f = tables[t]; f->name; f++) {
			size_t dist;

			if (!(f->sems & (1u << sem)))
				continue;
			dist = osa_distance(name, f->name);
			if (!dist)
				return NULL;	/* it exists: nothing to suggest */
			if (dist < bestd && 2 * dist < strlen(f->name)) {
				bestd = dist;
				best = f->name;
			}
		}
	for (size_t i = 0; !best && i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(name, same[i].name))
			best = sem == CG_SEM_V1 ? same[i].v1 : same[i].v2;
	return best;
}
