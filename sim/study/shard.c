// SPDX-License-Identifier: MIT
/*
 * sim/study/shard.c - shard directories written and read back (sim/study/shard.h).
 *
 * A shard directory comes back from another machine, another day, maybe from another person:
 * everything in it is read as hostile input. shard.json is parsed with json-c and each member
 * checked for its type and range; the runs go through runio_read()'s checks; and the shards
 * must agree on the job list's digest, which this cgsim recomputes from the scenario it loads,
 * before a single run is taken.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "sim/report/report.h"
#include "sim/study/shard.h"
#include "sim/run/runio.h"
#include "sim/run/seeds.h"
#include "sim/util/util.h"

#define MANIFEST "shard.json"
#define MAX_MANIFEST (64u << 20)	/* a list of 10^6 runs is under 8 MB */
#define MAX_RUN_TEXT (1u << 30)		/* one run's text: far above any run cgsim allows */

/* ---------------- digests ---------------- */

static void hash_str(struct util_sha256 *h, const char *s)
{
	/* with its NUL, so that "ab","c" and "a","bc" differ */
	util_sha256_update(h, s, strlen(s) + 1);
}

void shard_digests(const struct jobs *js, const char *version, const char *text,
		   const char *const *sets, size_t nsets, size_t seeds, char scenario_sha256[65],
		   char list_sha256[65])
{
	struct util_sha256 h;
	char line[800];

	util_sha256_init(&h);
	util_sha256_update(&h, text, strlen(text));
	util_sha256_final(&h, scenario_sha256);

	util_sha256_init(&h);
	hash_str(&h, "cgsim job list 1");
	hash_str(&h, version);
	hash_str(&h, scenario_sha256);
	for (size_t i = 0; i < nsets; i++)
		hash_str(&h, sets[i]);
	snprintf(line, sizeof(line), "seeds %zu jobs %zu", seeds, js->n);
	hash_str(&h, line);
	for (size_t j = 0; j < js->n; j++) {
		jobs_label(js, j, line, sizeof(line));
		hash_str(&h, line);
	}
	util_sha256_final(&h, list_sha256);
}

/* ---------------- writing ---------------- */

/*
 * The scenario's copy in a shard directory: "scenario." and the scenario's own extension (an
 * rt-app file is JSON) when it is letters and digits only, else "scenario.yaml". Writer and
 * reader name it with this one function, from the name shard.json records.
 */
static void scenario_file(const char *scenario, char *buf, size_t len)
{
	const char *dot = strrchr(scenario, '.'), *ext = "yaml";
	size_t n = dot ? strlen(dot + 1) : 0;

	if (n && n < 16 && !strchr(dot, '/') &&
	    strspn(dot + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == n)
		ext = dot + 1;
	snprintf(buf, len, "scenario.%s", ext);
}

static int write_text(FILE *f, const void *text)
{
	fputs(text, f);
	return 0;
}

static int write_run(FILE *f, const void *r)
{
	return runio_write(f, r);
}

static void json_member(FILE *f, const char *name, const char *value)
{
	fprintf(f, "  \"%s\": ", name);
	report_json_string(f, value);
	fputs(",\n", f);
}

struct manifest_ctx {
	const struct shard_info *s;
	const struct jobs *js;
};

static int write_manifest(FILE *f, const void *ctx)
{
	const struct shard_info *s = ((const struct manifest_ctx *)ctx)->s;
	const struct jobs *js = ((const struct manifest_ctx *)ctx)->js;

	fprintf(f, "{\n  \"cgsim_shard\": %d,\n", SHARD_FORMAT);
	json_member(f, "cgsim_version", s->version);
	json_member(f, "scenario", s->scenario);
	json_member(f, "scenario_sha256", s->scenario_sha256);
	fputs("  \"sets\": [", f);
	for (size_t i = 0; i < s->nsets; i++) {
		fputs(i ? ", " : "", f);
		report_json_string(f, s->sets[i]);
	}
	fprintf(f, "],\n  \"seeds\": %zu,\n", s->seeds);
	json_member(f, "job_list_sha256", s->list_sha256);
	fprintf(f, "  \"jobs\": %zu,\n  \"shard\": %zu,\n  \"shards\": %zu,\n  \"runs\": [",
		js->n, s->shard, s->shards);
	for (size_t j = 0, k = 0; j < js->n; j++) {
		if (!js->job[j].mine)
			continue;
		/* twelve a line */
		fprintf(f, "%s%zu", !k ? "" : k % 12 ? ", " : ",\n    ", j + 1);
		k++;
	}
	fputs("]\n}\n", f);
	return 0;
}

int shard_write(const char *dir, const struct shard_info *s, const struct jobs *js, char *err,
		size_t errlen)
{
	struct manifest_ctx ctx = { s, js };
	char name[64];
	int e;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cgsim: cannot create %.1000s: %s", dir, strerror(errno));
		return -errno;
	}
	scenario_file(s->scenario, name, sizeof(name));
	if ((e = util_write_file(dir, name, write_text, s->text, err, errlen)))
		return e;
	for (size_t j = 0; j < js->n; j++) {
		if (!js->job[j].mine)
			continue;
		snprintf(name, sizeof(name), "run-%06zu.txt", j + 1);
		if ((e = util_write_file(dir, name, write_run, *js->job[j].out, err, errlen)))
			return e;
	}
	return util_write_file(dir, MANIFEST, write_manifest, &ctx, err, errlen);
}

/* ---------------- reading ---------------- */

/* DIR/NAME's bytes, NUL-terminated; NULL with a message. */
static char *read_all(const char *dir, const char *name, size_t max, size_t *len, char *err,
		      size_t errlen)
{
	char *path = util_asprintf("%s/%s", dir, name), *buf = NULL;
	FILE *f;
	int e;

	if (!path) {
		snprintf(err, errlen, "cgsim: out of memory");
		return NULL;
	}
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cgsim: %.1000s: cannot open %s: %s (not a shard directory "
			 "written by cgsim compare --shard I/N -o DIR?)", dir, name, strerror(errno));
		free(path);
		return NULL;
	}
	e = util_read_stream(f, max, &buf, len);
	fclose(f);
	if (e)
		snprintf(err, errlen, "cgsim: cannot read %.1000s: %s", path,
			 e == -EFBIG ? "too large" : strerror(-e));
	free(path);
	return e ? NULL : buf;
}

/* Member @name of @o as a string into *@out (a copy); false with a message. */
static bool get_string(json_object *o, const char *file, const char *name, char **out,
		       char *err, size_t errlen)
{
	json_object *m;

	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_string)) {
		util_errf(err, errlen, file, NULL, 0, 0, "\"%s\" must be a string", name);
		return false;
	}
	*out = strdup(json_object_get_string(m));
	if (!*out)
		snprintf(err, errlen, "cgsim: out of memory");
	return *out != NULL;
}

/* Member @name as a whole number from @lo to @hi; false with a message. */
static bool get_size(json_object *o, const char *file, const char *name, size_t lo, size_t hi,
		     size_t *out, char *err, size_t errlen)
{
	json_object *m;
	int64_t v;

	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_int) ||
	    (v = json_object_get_int64(m)) < 0 || (uint64_t)v < lo || (uint64_t)v > hi) {
		util_errf(err, errlen, file, NULL, 0, 0, "\"%s\" must be a whole number from %zu "
			  "to %zu", name, lo, hi);
		return false;
	}
	*out = (size_t)v;
	return true;
}

static bool is_digest(const char *s)
{
	if (strlen(s) != 64)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

/*
 * Member @name of @o as a list, @what its items in words (for the message): *@list, *@n its
 * length, and *@items room for that many of @size bytes. false with a message.
 */
static bool get_list(json_object *o, const char *file, const char *name, const char *what,
		     size_t size, json_object **list, size_t *n, void **items, char *err,
		     size_t errlen)
{
	if (!json_object_object_get_ex(o, name, list) ||
	    !json_object_is_type(*list, json_type_array)) {
		util_errf(err, errlen, file, NULL, 0, 0, "\"%s\" must be a list of %s", name, what);
		return false;
	}
	*n = json_object_array_length(*list);
	if (!(*items = calloc(*n ? *n : 1, size)))
		snprintf(err, errlen, "cgsim: out of memory");
	return *items != NULL;
}

/* "sets": a list of strings. */
static bool get_sets(json_object *o, const char *file, struct shard_info *s, char *err,
		     size_t errlen)
{
	json_object *m;
	size_t n;

	if (!get_list(o, file, "sets", "strings", sizeof(*s->sets), &m, &n, (void **)&s->sets,
		      err, errlen))
		return false;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(m, i);

		if (!json_object_is_type(e, json_type_string)) {
			util_errf(err, errlen, file, NULL, 0, 0, "\"sets\" must be a list of strings");
			return false;
		}
		if (!(s->sets[i] = strdup(json_object_get_string(e)))) {
			snprintf(err, errlen, "cgsim: out of memory");
			return false;
		}
		s->nsets = i + 1;
	}
	return true;
}

/* "runs": ascending numbers from 1 to @s->jobs, stored 0-based. */
static bool get_runs(json_object *o, const char *file, struct shard_info *s, char *err,
		     size_t errlen)
{
	json_object *m;
	size_t n;

	if (!get_list(o, file, "runs", "run numbers", sizeof(*s->runs), &m, &n, (void **)&s->runs,
		      err, errlen))
		return false;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(m, i);
		int64_t v = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : 0;

		if (v < 1 || (uint64_t)v > s->jobs || (i && (size_t)v - 1 <= s->runs[i - 1])) {
			util_errf(err, errlen, file, NULL, 0, 0, "\"runs\" must be ascending run "
				  "numbers from 1 to %zu (item %zu is not)", s->jobs, i + 1);
			return false;
		}
		s->runs[i] = (size_t)v - 1;
	}
	s->nruns = n;
	return true;
}

/* The members of shard.json @o into @s. */
static bool take_manifest(json_object *o, const char *file, struct shard_info *s, char *err,
			  size_t errlen)
{
	size_t format;

	if (!json_object_is_type(o, json_type_object)) {
		util_errf(err, errlen, file, NULL, 0, 0, "not a JSON object");
		return false;
	}
	if (!get_size(o, file, "cgsim_shard", 0, SIZE_MAX, &format, err, errlen))
		return false;
	if (format != SHARD_FORMAT) {
		util_errf(err, errlen, file, NULL, 0, 0, "\"cgsim_shard\" %zu: this cgsim reads "
			  "shard format %d", format, SHARD_FORMAT);
		return false;
	}
	char *a = NULL, *b = NULL;
	bool ok = get_string(o, file, "cgsim_version", &s->version, err, errlen) &&
		  get_string(o, file, "scenario", &s->scenario, err, errlen) &&
		  get_string(o, file, "scenario_sha256", &a, err, errlen) &&
		  get_string(o, file, "job_list_sha256", &b, err, errlen);

	if (ok && (!is_digest(a) || !is_digest(b))) {
		util_errf(err, errlen, file, NULL, 0, 0, "\"scenario_sha256\" and "
			  "\"job_list_sha256\" must be 64 lowercase hex digits");
		ok = false;
	}
	if (ok) {
		memcpy(s->scenario_sha256, a, 65);
		memcpy(s->list_sha256, b, 65);
	}
	free(a);
	free(b);
	ok = ok && get_sets(o, file, s, err, errlen) &&
	     get_size(o, file, "seeds", 1, SEEDS_MAX, &s->seeds, err, errlen) &&
	     get_size(o, file, "jobs", 1, SIZE_MAX / 2, &s->jobs, err, errlen) &&
	     get_size(o, file, "shards", 1, SHARD_MAX, &s->shards, err, errlen) &&
	     get_size(o, file, "shard", 1, s->shards, &s->shard, err, errlen) &&
	     get_runs(o, file, s, err, errlen);
	return ok;
}

int shard_read(const char *dir, struct shard_info *s, char *err, size_t errlen)
{
	char *file = util_asprintf("%s/%s", dir, MANIFEST), *text, name[64];
	enum json_tokener_error je = json_tokener_success;
	json_object *o = NULL;
	struct util_sha256 h;
	char digest[65];
	size_t len;
	bool ok;

	memset(s, 0, sizeof(*s));
	if (!file || !(s->dir = strdup(dir))) {
		free(file);
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	text = read_all(dir, MANIFEST, MAX_MANIFEST, &len, err, errlen);
	if (text && !(o = json_tokener_parse_verbose(text, &je)))
		util_errf(err, errlen, file, NULL, 0, 0, "not JSON: %s", json_tokener_error_desc(je));
	free(text);
	ok = o && take_manifest(o, file, s, err, errlen);
	json_object_put(o);
	free(file);
	if (!ok)
		return -EINVAL;
	scenario_file(s->scenario, name, sizeof(name));
	if (!(s->text = read_all(dir, name, 4u << 20, &len, err, errlen)))
		return -EINVAL;
	util_sha256_init(&h);
	util_sha256_update(&h, s->text, len);
	util_sha256_final(&h, digest);
	if (strcmp(digest, s->scenario_sha256) || strlen(s->text) != len) {
		snprintf(err, errlen, "cgsim: %.1000s/%s is not the scenario the shard was run from "
			 "(its SHA-256 is %s, shard.json says %s)", dir, name, digest,
			 s->scenario_sha256);
		return -EINVAL;
	}
	return 0;
}

void shard_info_free(struct shard_info *s)
{
	for (size_t i = 0; i < s->nsets; i++)
		free(s->sets[i]);
	free(s->sets);
	free(s->runs);
	free(s->dir);
	free(s->version);
	free(s->scenario);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

/* ---------------- checking and merging ---------------- */

/* @a and @b were run from one job list by one cgsim; -EINVAL with a message if not. */
static int same_list(const struct shard_info *a, const struct shard_info *b, char *err,
		     size_t errlen)
{
	const char *what = strcmp(a->version, b->version) ? "cgsim versions" :
			   strcmp(a->list_sha256, b->list_sha256) ? "job lists" :
			   a->shards != b->shards ? "shard counts" : NULL;

	if (!what)
		return 0;
	snprintf(err, errlen, "cgsim: %.1000s and %.1000s do not belong together: their %s differ "
		 "(%s %zu/%zu of %s, job list %.12s; %s %zu/%zu of %s, job list %.12s)", a->dir,
		 b->dir, what, a->dir, a->shard, a->shards, a->version, a->list_sha256, b->dir,
		 b->shard, b->shards, b->version, b->list_sha256);
	return -EINVAL;
}

/* Shard @s holds exactly its part of the list (the jobs j with j % N == I - 1). */
static int holds_its_part(const struct shard_info *s, size_t total, char *err, size_t errlen)
{
	size_t want = total / s->shards + (s->shard - 1 < total % s->shards);
	bool ok = s->nruns == want;

	for (size_t i = 0; ok && i < s->nruns; i++)
		ok = s->runs[i] == (s->shard - 1) + i * s->shards;
	if (ok)
		return 0;
	snprintf(err, errlen, "cgsim: %.1000s/%s: shard %zu of %zu should hold runs %zu, %zu, ... "
		 "(%zu of the %zu), not the %zu it lists", s->dir, MANIFEST, s->shard, s->shards,
		 s->shard, s->shard + s->shards, want, total, s->nruns);
	return -EINVAL;
}

int shard_check(const struct shard_info *s, size_t n, const struct jobs *js,
		const char *list_sha256, char *err, size_t errlen)
{
	size_t N = s[0].shards;
	const struct shard_info **by = calloc(N, sizeof(*by));
	int e = 0;

	if (!by) {
		snprintf(err, errlen, "cgsim: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 1; !e && i < n; i++)
		e = same_list(&s[0], &s[i], err, errlen);
	if (!e && strcmp(s[0].list_sha256, list_sha256)) {
		snprintf(err, errlen, "cgsim: %.1000s: the shards' job list (%.12s) is not the one "
			 "this cgsim makes of their scenario (%.12s): they were run with another "
			 "cgsim or another workload file", s[0].dir, s[0].list_sha256, list_sha256);
		e = -EINVAL;
	}
	for (size_t i = 0; !e && i < n; i++) {
		const struct shard_info *o = by[s[i].shard - 1];

		if (o) {
			snprintf(err, errlen, "cgsim: shard %zu of %zu given twice: %.1000s and "
				 "%.1000s", s[i].shard, N, o->dir, s[i].dir);
			e = -EINVAL;
		} else if (!(e = holds_its_part(&s[i], js->n, err, errlen))) {
			by[s[i].shard - 1] = &s[i];
		}
	}
	for (size_t k = 0; !e && k < N; k++) {
		if (by[k] || k >= js->n)
			continue;
		char what[700];

		jobs_label(js, k, what, sizeof(what));
		snprintf(err, errlen, "cgsim: shard %zu of %zu is missing: runs %zu, %zu, ... (the "
			 "first: %s) are in no directory given", k + 1, N, k + 1, k + 1 + N, what);
		e = -EINVAL;
	}
	free(by);
	return e;
}

int shard_take_runs(const struct shard_info *s, size_t n, struct jobs *js, char *err,
		    size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < s[i].nruns; k++) {
			struct jobs_job *jb = &js->job[s[i].runs[k]];
			char name[64], *text, *where;
			size_t len;
			int e;

			snprintf(name, sizeof(name), "run-%06zu.txt", s[i].runs[k] + 1);
			if (!(text = read_all(s[i].dir, name, MAX_RUN_TEXT, &len, err, errlen)))
				return -EINVAL;
			where = util_asprintf("%s/%s", s[i].dir, name);
			e = where ? runio_read(text, len, where, jb->sc, jb->out, err, errlen)
				  : -ENOMEM;
			if (e == -ENOMEM && !where)
				snprintf(err, errlen, "cgsim: out of memory");
			free(where);
			free(text);
			if (e)
				return e;
		}
	}
	return 0;
}
