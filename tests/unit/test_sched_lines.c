// SPDX-License-Identifier: MIT
/*
 * Unit tests of where queues and group entities live (scheduler/lines.c): every object zeroed,
 * on whole cache lines of its own, however many are taken (across chunks of every size, up to
 * the 2 MiB ones), and a freed one given out again zeroed, to an allocation of its size only.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sched_test_util.h"
/* the allocator of queues and entities (lines.c) is internal: no public interface */
#include "scheduler/sched_internal.h"

/* 40,000 objects of two sizes, 11 MB: every chunk size from 64 KiB and several 2 MiB ones */
#define N_OBJ 40000

static size_t obj_size(int i)
{
	return i % 2 ? sizeof(struct cfs_rq) : sizeof(struct sched_entity);
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* every byte of object i holds i's low byte, so an overlap shows as a wrong byte */
static void fill(void *p, int i)
{
	memset(p, i & 0xff, obj_size(i));
}

static bool filled(const void *p, int i)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < obj_size(i); k++)
		if (b[k] != (unsigned char)(i & 0xff))
			return false;
	return true;
}

/* N_OBJ objects of both sizes in turn, each checked and filled as it comes */
static void **alloc_all(struct sched *s)
{
	void **p = calloc(N_OBJ, sizeof(*p));

	cr_assert_not_null(p);
	for (int i = 0; i < N_OBJ; i++) {
		p[i] = sched__lines_alloc(s, obj_size(i));
		cr_assert_not_null(p[i]);
		cr_assert_eq((uintptr_t)p[i] % 64, 0, "object %d not on a cache line", i);
		cr_assert(all_zero(p[i], obj_size(i)), "object %d not zeroed", i);
		fill(p[i], i);
	}
	return p;
}

/* Every object back: under AddressSanitizer each is an allocation of its own */
static void free_all(struct sched *s, void **p)
{
	for (int i = 0; i < N_OBJ; i++)
		sched__lines_free(s, p[i], obj_size(i));
	free(p);
}

Test(sched_lines, objects_are_zeroed_aligned_and_apart)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, false, NULL, false);
	void **p = alloc_all(s);

	for (int i = 0; i < N_OBJ; i++)
		cr_assert(filled(p[i], i), "object %d overwritten by another", i);
	free_all(s, p);
	stt_sched_free();
}

Test(sched_lines, freed_objects_come_back_zeroed_for_their_size)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 1, false, NULL, false);
	void **p = alloc_all(s);

	/* every third object back, then as many again, of both sizes in turn */
	for (int i = 0; i < N_OBJ; i += 3)
		sched__lines_free(s, p[i], obj_size(i));
	for (int i = 0; i < N_OBJ; i += 3) {
		p[i] = sched__lines_alloc(s, obj_size(i));
		cr_assert_not_null(p[i]);
		cr_assert_eq((uintptr_t)p[i] % 64, 0);
		cr_assert(all_zero(p[i], obj_size(i)), "object %d given again not zeroed", i);
		fill(p[i], i);
	}
	for (int i = 0; i < N_OBJ; i++)
		cr_assert(filled(p[i], i), "object %d overwritten by another", i);
	sched__lines_free(s, NULL, 64);		/* as free(NULL) */
	free_all(s, p);
	stt_sched_free();
}

Test(sched_lines, a_machine_of_many_groups_runs_and_frees)
{
	struct sched *s = stt_sched(SCHED_POLICY_EEVDF, 64, false, NULL, true);

	/*
	 * 40 groups on 64 CPUs, a binary tree below the root (id 0): 5,056 objects. Removing
	 * them and making them again takes the freed ones.
	 */
	for (int round = 0; round < 3; round++) {
		for (int g = 1; g <= 40; g++)
			cr_assert_eq(sched_tg_new(s, g, g / 2, 1024, false, 0), 0);
		for (int g = 40; g >= 1; g--)
			cr_assert_eq(sched_tg_free(s, g, 0), 0);
	}
	stt_sched_free();
}
