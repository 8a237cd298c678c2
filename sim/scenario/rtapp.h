/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/rtapp.h - rt-app's JSON workloads (docs/rt-app.md), read as scenario documents.
 *
 * rt-app reads its file with json-c, so cgsim does too: comments, trailing commas and what
 * else json-c accepts are accepted. Keys that a file gives twice in one object are kept in
 * file order and renamed as rt-app's workgen renames them ("run", "run1", ...), and a
 * "suspend" with no value is given its task's name, as workgen gives it; every event is kept.
 *
 * The workload becomes the tree a YAML scenario would be (sim/scenario/yaml.h): one process
 * "rt-app" whose thread entries are the tasks, each a phases behaviour whose steps are rt-app's
 * events (docs/scenario-format.md, "Phase steps"), with the taskgroups as cgroups. Every node
 * is positioned at the JSON it came from, so that any error found later names the place in the
 * rt-app file. What rt-app does that cgsim cannot model (real-time and deadline policies,
 * memory and I/O work, forks) is refused with its place; what cgsim ignores is noted.
 */
#ifndef CGSIM_SIM_RTAPP_H
#define CGSIM_SIM_RTAPP_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/scenario/yaml.h"

/*
 * rta_is_workload() - whether @text is rt-app JSON: an object with one of rt-app's top keys,
 * "tasks", "global" or "resources" (one without "tasks" is then refused as rt-app refuses it).
 */
bool rta_is_workload(const char *text, size_t len);

struct rta_doc {
	struct yn *root;	/* the scenario document */
	char **notes;		/* "FILE:LINE:COL: note: ..." for what is ignored, in file order */
	size_t nnotes;
	char **origins;		/* with @origins: the strings the nodes' origin fields point to */
	size_t norigins;
};

/*
 * rta_read() - read rt-app workload @text (@len bytes, named @fname in messages) into @out.
 * @origins: also name each node's place in its origin field ("FNAME:LINE:COL"), for a tree
 * merged into a document of another file. Returns 0, or -EINVAL with "FNAME:LINE:COL: error:
 * ..." in @err (-ENOMEM: out of memory). @out is empty on failure.
 */
int rta_read(const char *fname, const char *text, size_t len, bool origins, struct rta_doc *out,
	     char *err, size_t errlen);
/* rta_doc_free() - free what @d holds (the members set to NULL have been taken over). */
void rta_doc_free(struct rta_doc *d);

/*
 * What `cgsim validate --live` gives the real rt-app (docs/live.md): the workload as rt-app
 * reads it (after workgen's renaming), with its taskgroups moved below the run's own cgroups
 * (a taskgroup "/A/B" becomes "/PREFIX-A/B"), its duration and log directory set, ftrace and
 * gnuplot off; and for each thread of the scenario's process rt-app, in its order, the comm
 * rt-app gives it: the task's name under rt-app 1.0, "TASK-I" (I counting rt-app's threads)
 * under later versions, both cut to the kernel's 15 bytes.
 */
struct rta_live {
	char *json;
	char (*comm_old)[16];
	char (*comm_new)[16];
	size_t nthreads;
};

int rta_live_make(const char *fname, const char *text, size_t len, const char *prefix,
		  unsigned duration_s, const char *logdir, struct rta_live *out, char *err,
		  size_t errlen);
void rta_live_free(struct rta_live *l);

#endif /* CGSIM_SIM_RTAPP_H */
