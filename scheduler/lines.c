// SPDX-License-Identifier: MIT
/*
 * scheduler/lines.c - queues and group entities on cache lines, from chunks on huge pages.
 *
 * A group has a queue on every CPU, and below the root an entity for each: 256 groups on 64
 * CPUs are 32,768 objects of five cache lines, 10 MB. A tick or a switch walks a chain of them,
 * and the simulator visits every CPU's chains in turn, so these walks miss the caches, and with
 * 4 KiB pages also the TLB: 2,560 pages are more than a core's second-level TLB holds. Taken from
 * 2 MiB chunks that the kernel may back with transparent huge pages (madvise(MADV_HUGEPAGE)),
 * the same objects sit on five pages. Measured on the deep benchmark (1,024 threads, 256 groups
 * four deep, 64 CPUs): 0.92 times the CPU time of one aligned_alloc() per object.
 *
 * Below the root a group's queue and its entity on a CPU are one object of ten lines, the
 * entity after the queue (sched__prefetch_my_q()).
 *
 * Chunks grow from 64 KiB by doubling up to 2 MiB, so a small machine's few queues take one
 * small chunk; only 2 MiB chunks, aligned to 2 MiB, are offered to the huge-page allocator. An
 * object freed (a group removed) goes on a free list of its size, which the next allocation of
 * that size takes. Chunks go back when the scheduler is freed.
 *
 * Under AddressSanitizer each object is allocated on its own instead, so that a write past one
 * object is still caught rather than landing in its neighbour.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, MADV_HUGEPAGE */
#endif
#include "scheduler/sched_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define LINES_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LINES_PLAIN 1
#endif
#endif

#define LINE		64
#define CHUNK_MIN	(64u << 10)
#define CHUNK_HUGE	(2u << 20)

/* a chunk's first line: the chunk list */
struct lines_chunk {
	struct lines_chunk *next;
	size_t size;
};

/* a free object's first bytes */
struct lines_free {
	struct lines_free *next;
};

static size_t round_lines(size_t size)
{
	return (size + LINE - 1) / LINE * LINE;
}

#ifdef LINES_PLAIN		/* each object on its own: what AddressSanitizer watches */
void *sched__lines_alloc(struct sched *s, size_t size)
{
	size_t n = round_lines(size);
	void *p = aligned_alloc(LINE, n);

	(void)s;
	if (p)
		memset(p, 0, n);
	return p;
}

void sched__lines_free(struct sched *s, void *p, size_t size)
{
	(void)s, (void)size;
	free(p);
}
#else			/* chunks, huge pages, free lists */
/* @size bytes aligned to @size (a power of two) from the kernel, or NULL */
static void *map_aligned(size_t size)
{
	char *m = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a, head;

	if (m == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)m + size - 1) & ~(uintptr_t)(size - 1);
	head = a - (uintptr_t)m;
	if (head)
		munmap(m, head);
	munmap((char *)a + size, size - head);
	return (void *)a;
}

static int new_chunk(struct sched_lines *l)
{
	size_t size = l->next_size ? l->next_size : CHUNK_MIN;
	struct lines_chunk *c = map_aligned(size);

	if (!c)
		return -1;
#ifdef MADV_HUGEPAGE
	if (size == CHUNK_HUGE)
		(void)madvise(c, size, MADV_HUGEPAGE);	/* a hint: without it, 4 KiB pages */
#endif
	c->next = l->chunks;
	c->size = size;
	l->chunks = c;
	l->cur = (char *)c + LINE;
	l->left = size - LINE;
	l->next_size = size < CHUNK_HUGE ? 2 * size : CHUNK_HUGE;
	return 0;
}

static int size_class(struct sched_lines *l, size_t n)
{
	for (int i = 0; i < l->nclass; i++)
		if (l->class_size[i] == n)
			return i;
	if (l->nclass == SCHED_LINES_CLASSES)
		return -1;
	l->class_size[l->nclass] = n;
	l->free[l->nclass] = NULL;
	return l->nclass++;
}

void *sched__lines_alloc(struct sched *s, size_t size)
{
	struct sched_lines *l = &s->lines;
	size_t n = round_lines(size);
	int k = size_class(l, n);
	void *p;

	if (k >= 0 && l->free[k]) {
		struct lines_free *f = l->free[k];

		l->free[k] = f->next;
		memset(f, 0, n);
		return f;
	}
	if (n > CHUNK_HUGE - LINE)
		return NULL;
	while (l->left < n)
		if (new_chunk(l))
			return NULL;
	p = l->cur;			/* zero: fresh from mmap, never handed out before */
	l->cur += n;
	l->left -= n;
	return p;
}

void sched__lines_free(struct sched *s, void *p, size_t size)
{
	struct sched_lines *l = &s->lines;
	struct lines_free *f = p;
	int k;

	if (!p)
		return;
	k = size_class(l, round_lines(size));
	if (k < 0)
		return;		/* never: each size was seen at its allocation */
	f->next = l->free[k];
	l->free[k] = f;
}
#endif

void sched__lines_release(struct sched *s)
{
	struct lines_chunk *c = s->lines.chunks;

	while (c) {
		struct lines_chunk *next = c->next;

		munmap(c, c->size);
		c = next;
	}
	s->lines = (struct sched_lines){ 0 };
}
