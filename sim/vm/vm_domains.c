// SPDX-License-Identifier: MIT
/*
 * sim/vm/vm_domains.c - the scheduling domains a guest built (sim/vm/vm.h).
 *
 * Names and flags come from /sys/kernel/debug/sched/domains/cpuN/domainL/{name,flags} (there
 * with sched_verbose on 6.12), listed by the guest's init as "N L NAME FLAGS..."; the spans
 * only from the kernel's log, where sched_verbose prints per CPU
 *	CPU0 attaching sched-domain(s):
 *	 domain-0: span=0-1 level=SMT
 *	  groups: 0:{ span=0 cap=1016 }, 1:{ span=1 }
 *	  domain-1: span=0-3 level=MC
 * (a CPU attached again after a hotplug or a cpuset change prints again: the last block
 * counts).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util/util.h"
#include "sim/vm/vm.h"

static int domain_cmp(const void *a, const void *b)
{
	const struct vm_domain *x = a, *y = b;

	return x->cpu != y->cpu ? (x->cpu > y->cpu) - (x->cpu < y->cpu) :
				  (x->level > y->level) - (x->level < y->level);
}

/* The span of @cpu's domain @level in @dmesg, malloc'ed ("" when the log lacks it). */
static char *log_span(const char *dmesg, int cpu, int level)
{
	char head[48], dom[32];
	const char *p = NULL, *q, *end;

	snprintf(head, sizeof(head), "CPU%d attaching sched-domain(s):", cpu);
	for (q = dmesg; q && (q = strstr(q, head)); q += strlen(head))
		p = q;
	if (!p)
		return strdup("");
	/* the block ends at the next "CPUn attaching" or "attaching NULL" line */
	end = strstr(p + strlen(head), " attaching ");
	snprintf(dom, sizeof(dom), "domain-%d: span=", level);
	q = strstr(p, dom);
	if (!q || (end && q > end))
		return strdup("");
	q += strlen(dom);
	return util_asprintf("%.*s", (int)strcspn(q, " \n"), q);
}

int vm_domains_parse(const char *listing, const char *dmesg, struct vm_domain **out, size_t *n)
{
	struct vm_domain *d = NULL;
	size_t cap = 0, cnt = 0;

	*out = NULL;
	*n = 0;
	while (listing && *listing) {
		size_t len = strcspn(listing, "\n");
		int cpu, level, used = 0;
		char name[16];

		if (sscanf(listing, "%d %d %15s %n", &cpu, &level, name, &used) == 3 && used &&
		    (size_t)used <= len) {
			struct vm_domain *x;

			if (util_grow((void **)&d, &cap, cnt + 1, sizeof(*d)))
				goto nomem;
			x = &d[cnt];
			x->cpu = cpu;
			x->level = level;
			snprintf(x->name, sizeof(x->name), "%s", name);
			x->flags = util_asprintf("%.*s", (int)(len - (size_t)used), listing + used);
			x->span = log_span(dmesg ? dmesg : "", cpu, level);
			cnt++;
			if (!x->flags || !x->span)
				goto nomem;
			/* the flags end with a space in the kernel's file */
			for (size_t k = strlen(x->flags); k && x->flags[k - 1] == ' '; k--)
				x->flags[k - 1] = '\0';
		}
		listing += len + (listing[len] == '\n');
	}
	if (cnt)
		qsort(d, cnt, sizeof(*d), domain_cmp);
	*out = d;
	*n = cnt;
	return 0;
nomem:
	vm_domains_free(d, cnt);
	return -ENOMEM;
}

void vm_domains_free(struct vm_domain *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].span);
		free(d[i].flags);
	}
	free(d);
}
