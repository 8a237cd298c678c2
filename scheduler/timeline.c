// SPDX-License-Identifier: MIT
/*
 * scheduler/timeline.c - a queue's timeline made and released; its operations are inline in
 * timeline.h (the policies' order compiled into them).
 */
#include <stdlib.h>

#include "scheduler/sched_internal.h"

void sched__tl_init(struct cfs_rq *q)
{
	rb_root_init(&q->tree);
	q->tl = q->tl_buf = NULL;
	q->tl_cap = 0;
	q->tl_n = 0;
	q->tl_tree = true;
	q->tl_first = NULL;
}

void sched__tl_free(struct cfs_rq *q)
{
	free(q->tl_buf);
	q->tl = q->tl_buf = NULL;
	q->tl_cap = 0;
}
