// SPDX-License-Identifier: MIT
/*
 * scheduler/fair.c - what CFS and EEVDF share: weights and their inverses, calc_delta_fair in
 * exact fixed point, min_vruntime, the EEVDF average, CFS slices, buddies, and the names and
 * defaults of features and tunables.
 */
#include <errno.h>
#include <string.h>

#include "scheduler/sched_internal.h"

uint32_t sched_nice_weight(int nice)
{
	return sched_prio_to_weight(nice);
}

uint32_t sched_nice_wmult(int nice)
{
	return sched_prio_to_wmult(nice);
}

/*
 * sched__set_weight() - set load.weight (scaled) and the derived fixed-point rate.
 * @wmult: the cached inverse to use (a task's sched_prio_to_wmult entry), or 0 to compute it
 *         as __update_inv_weight() does: WMULT_CONST / scale_load_down(weight).
 *
 * calc_delta_fair() is the identity for weight NICE_0_LOAD (the kernel short-cuts it), and
 * delta * 1024 * inv_weight / 2^32 otherwise; @inc keeps that product unshifted.
 */
void sched__set_weight(struct sched_entity *se, uint64_t weight, uint32_t wmult)
{
	uint64_t wd = weight >> SCHED_LOAD_SHIFT;

	if (wd < MIN_SHARES)
		wd = MIN_SHARES;
	se->weight = weight;
	se->wd = (uint32_t)wd;
	if (weight == NICE_0_LOAD) {
		se->inc = SV_ONE_NS;
		return;
	}
	if (!wmult)
		wmult = (uint32_t)(0xffffffffu / wd);
	se->inc = (sv_t)SCHED_NICE_0_WEIGHT * wmult;
}

sv_t sched__calc_delta_fair(uint64_t delta_ns, const struct sched_entity *se)
{
	__extension__ typedef unsigned __int128 u128;

	/*
	 * inc is at most 1024 x 2^31 (wmult of the least weight), so it fits in 64 bits and the
	 * product, below 2^106, in sv_t: one 64 x 64 multiply instead of a 128 x 128 one.
	 */
	return (sv_t)((u128)delta_ns * (uint64_t)se->inc);
}

/* sched__sv_to_ns_ceil() - the least progress (ns) that moves @se's vruntime by at least @v. */
uint64_t sched__sv_to_ns_ceil(sv_t v, const struct sched_entity *se)
{
	sv_t ns;

	if (v <= 0)
		return 0;
	if (se->inc == SV_ONE_NS)
		return v >> 32 > UINT64_MAX - 1 ? UINT64_MAX : (uint64_t)((v + SV_ONE_NS - 1) >> 32);
	if (v < ((sv_t)1 << 63) && se->inc < ((sv_t)1 << 62)) {
		/* both fit in 64 bits: a 64-bit division is several times cheaper */
		uint64_t a = (uint64_t)v, b = (uint64_t)se->inc;

		return a / b + (a % b != 0);
	}
	ns = (v + se->inc - 1) / se->inc;
	return ns > (sv_t)UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/* ---------------- EEVDF's average ---------------- */

/*
 * V = v0 + Σ (v_i - v0) w_i / Σ w_i over the queued entities and curr, w the scale_load_down
 * weights; the division rounds towards -inf so that V itself is eligible (avg_vruntime()).
 */
sv_t sched__avg_vruntime(const struct cfs_rq *cfs_rq)
{
	const struct sched_entity *curr = cfs_rq->curr;
	sv_t avg = cfs_rq->sum_w_vruntime;
	int64_t load = cfs_rq->sum_weight;

	if (curr && curr->on_rq) {
		avg += (curr->vruntime - cfs_rq->min_vruntime) * curr->wd;
		load += curr->wd;
	}
	if (load) {
		if (avg < 0)
			avg -= load - 1;
		if (avg >= INT64_MIN && avg <= INT64_MAX)
			avg = (int64_t)avg / load;	/* the common case, in 64 bits */
		else
			avg /= load;
	}
	return cfs_rq->min_vruntime + avg;
}

/* entity_eligible(): lag >= 0, i.e. Σ (v_j - v0) w_j >= (v_i - v0) Σ w_j, without dividing. */
bool sched__entity_eligible(const struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	const struct sched_entity *curr = cfs_rq->curr;
	sv_t avg = cfs_rq->sum_w_vruntime;
	int64_t load = cfs_rq->sum_weight;

	if (curr && curr->on_rq) {
		avg += (curr->vruntime - cfs_rq->min_vruntime) * curr->wd;
		load += curr->wd;
	}
	return avg >= (se->vruntime - cfs_rq->min_vruntime) * load;
}

/*
 * update_min_vruntime(): v0 follows the smallest vruntime among curr and the queued entities,
 * never backwards. The tree's minimum vruntime is the root's augmented minimum under EEVDF
 * (ordered by deadline) and the leftmost node under CFS (ordered by vruntime).
 */
void sched__update_min_vruntime(struct sched *s, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	sv_t v = cfs_rq->min_vruntime;
	bool have = false;

	if (curr && curr->on_rq) {
		v = curr->vruntime;
		have = true;
	}
	if (cfs_rq->tl_n) {
		sv_t m;

		if (s->ops->augmented)
			m = sched__tl_min_vruntime(cfs_rq);
		else
			m = sched__first(cfs_rq)->vruntime;
		if (!have || m < v)
			v = m;
		have = true;
	}
	if (have && v > cfs_rq->min_vruntime) {
		s->ops->v0_moved(cfs_rq, v - cfs_rq->min_vruntime);
		cfs_rq->min_vruntime = v;
	}
}

/*
 * x * num / den, truncated toward zero as C divides, for 0 < num, den < 2^31. With x in 64 bits
 * (a lag or a relative deadline: |x| < 2^31 ns of virtual time) it splits as x = q den + r,
 * |r| < den, so x num / den = q num + r num / den, where q num and r num share x's sign and
 * truncation passes over the integer part: two 64-bit divisions instead of the compiler's
 * 128-bit one, the same quotient. Otherwise, or should q num overflow, the 128-bit division.
 */
sv_t sched__scale_sv(sv_t x, uint64_t num, uint64_t den)
{
	if (x >= INT64_MIN && x <= INT64_MAX && num < (1ull << 31) && den < (1ull << 31)) {
		int64_t x64 = (int64_t)x, q = x64 / (int64_t)den, r = x64 % (int64_t)den, qn;

		if (!__builtin_mul_overflow(q, (int64_t)num, &qn))
			return (sv_t)qn + r * (int64_t)num / (int64_t)den;
	}
	return x * (sv_t)num / (sv_t)den;
}

/* ---------------- CFS slices ---------------- */

static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	if (!c)
		return a;
	if ((a | b) <= UINT32_MAX)	/* the product fits: one 64-bit division */
		return a * b / c;
	return (uint64_t)(((unsigned __int128)a * b) / c);
}

/*
 * sched_slice(): period(nr) scaled by weight / queue load at every level from @se up; the
 * period counts the CPU's tasks with ALT_PERIOD, else the queue's entities; BASE_SLICE floors
 * the result at min_granularity.
 */
uint64_t sched__slice_cfs(struct sched *s, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned nr = sched__feat(s, SCHED_FEAT_ALT_PERIOD) ? cfs_rq->rq->cfs->h_nr_runnable
							   : cfs_rq->nr_queued;
	struct sched_entity *init = se;
	uint64_t slice;

	if (!se->on_rq)
		nr++;
	slice = nr > s->nr_latency ? nr * s->min_gran : s->latency;
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;
		uint64_t load = q->load;

		if (!se->on_rq)
			load += se->weight;
		slice = mul_div(slice, se->weight, load);
	}
	if (sched__feat(s, SCHED_FEAT_BASE_SLICE) && init->task && slice < s->min_gran)
		slice = s->min_gran;
	return slice;
}

/* ---------------- buddies ---------------- */

/*
 * clear_buddies(): @se and the entities above it stop being anyone's buddy, level by level
 * while they are. The skip buddy (CFS's yield) has a walk of its own, as in 6.5's
 * __clear_buddies_skip(): it stops at the first level whose skip is not the entity there,
 * whatever the next and last buddies are.
 */
void sched__clear_buddies(struct sched_entity *se)
{
	for (struct sched_entity *e = se; e && e->cfs_rq->skip == e; e = e->parent)
		e->cfs_rq->skip = NULL;
	for (; se; se = se->parent) {
		struct cfs_rq *q = se->cfs_rq;
		bool any = false;

		if (q->next == se) {
			q->next = NULL;
			any = true;
		}
		if (q->last == se) {
			q->last = NULL;
			any = true;
		}
		if (!any)
			break;
	}
}

void sched__set_next_buddy(struct sched_entity *se)
{
	for (; se; se = se->parent)
		se->cfs_rq->next = se;
}

/* ---------------- names and defaults ---------------- */

static const char *const feat_names[SCHED_FEAT_NR] = {
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = #name,
#include "scheduler/features.h"
#undef SCHED_FEAT
};

const char *sched_feat_name(enum sched_feat f)
{
	return (unsigned)f < SCHED_FEAT_NR ? feat_names[f] : "?";
}

int sched_feat_parse(const char *name, enum sched_feat *out)
{
	for (int f = 0; f < SCHED_FEAT_NR; f++) {
		if (!strcmp(name, feat_names[f])) {
			*out = (enum sched_feat)f;
			return 0;
		}
	}
	return -EINVAL;
}

/* The defaults of scheduler/features.h, per policy. */
bool sched_feat_default(enum sched_feat f, enum sched_policy p)
{
	static const bool def[2][SCHED_FEAT_NR] = {
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = eevdf,
		[SCHED_POLICY_EEVDF] = {
#include "scheduler/features.h"
		},
#undef SCHED_FEAT
#define SCHED_FEAT(name, eevdf, cfs) [SCHED_FEAT_##name] = cfs,
		[SCHED_POLICY_CFS] = {
#include "scheduler/features.h"
		},
#undef SCHED_FEAT
	};

	return (unsigned)f < SCHED_FEAT_NR && def[p == SCHED_POLICY_CFS][f];
}

const char *sched_policy_name(enum sched_policy p)
{
	return p == SCHED_POLICY_CFS ? "cfs" : "eevdf";
}

int sched_policy_parse(const char *name, enum sched_policy *out)
{
	if (!strcmp(name, "eevdf"))
		*out = SCHED_POLICY_EEVDF;
	else if (!strcmp(name, "cfs"))
		*out = SCHED_POLICY_CFS;
	else
		return -EINVAL;
	return 0;
}

unsigned sched_scaling_factor(enum sched_scaling sc, int cpus)
{
	unsigned n = cpus < 8 ? (unsigned)cpus : 8u, lg = 0;

	if (n < 1)
		n = 1;
	switch (sc) {
	case SCHED_SCALING_NONE:
		return 1;
	case SCHED_SCALING_LINEAR:
		return n;
	case SCHED_SCALING_LOG:
		break;
	}
	while (n >>= 1)
		lg++;
	return 1 + lg;
}

void sched_config_default(struct sched_config *cfg, enum sched_policy policy, int cpus)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->machine = topo_machine_flat(cpus);
	cfg->policy = policy;
	for (int f = 0; f < SCHED_FEAT_NR; f++)
		cfg->feat[f] = sched_feat_default((enum sched_feat)f, policy);
	cfg->tun = (struct sched_tunables){
		.base_slice_ns = 700000,	/* 0.70 ms since 6.15 (0.75 ms in 6.6-6.14) */
		.latency_ns = 6000000,
		.min_granularity_ns = 750000,
		.wakeup_granularity_ns = 1000000,
		.migration_cost_ns = 500000,
		.nr_migrate = 32,
		.tunable_scaling = SCHED_SCALING_LOG,
		.hz = 1000,
	};
	/*
	 * docs/overhead.md: each the median of five calibrations of this project's machine
	 * (calibrate --live); tick_ns is an estimate, not measured.
	 */
	cfg->cost = (struct sched_costs){
		.switch_ns = 672,
		.wakeup_ns = 336,
		.sleep_ns = 202,
		.tick_ns = 400,
		.level_ns = 24,
		.walk_ns = 19,
	};
	cfg->tick_elision = true;
	cfg->timeline_array = true;
	cfg->load_attach = true;
	cfg->blocked_load = true;
	cfg->newidle_ratio = 512;
	cfg->jitter = true;
	cfg->seed = 1;
}

int sched_tunable_set(struct sched_tunables *t, const char *name, uint64_t v)
{
	const uint64_t max_ns = 1000000000ull;	/* the kernel's debugfs limits are wider; 1 s */

	if (!strcmp(name, "base_slice") || !strcmp(name, "latency") ||
	    !strcmp(name, "min_granularity") || !strcmp(name, "wakeup_granularity")) {
		if (v < 100000 || v > max_ns)	/* 0.1 ms .. 1 s */
			return -ERANGE;
		if (!strcmp(name, "base_slice"))
			t->base_slice_ns = v;
		else if (!strcmp(name, "latency"))
			t->latency_ns = v;
		else if (!strcmp(name, "min_granularity"))
			t->min_granularity_ns = v;
		else
			t->wakeup_granularity_ns = v;
	} else if (!strcmp(name, "migration_cost")) {
		if (v > max_ns)
			return -ERANGE;
		t->migration_cost_ns = v;
	} else if (!strcmp(name, "nr_migrate")) {
		if (v < 1 || v > 1024)
			return -ERANGE;
		t->nr_migrate = (uint32_t)v;
	} else if (!strcmp(name, "tunable_scaling")) {
		if (v > 2)
			return -ERANGE;
		t->tunable_scaling = (enum sched_scaling)v;
	} else if (!strcmp(name, "hz")) {
		if (v < 1 || v > 10000)
			return -ERANGE;
		t->hz = (uint32_t)v;
	} else {
		return -EINVAL;
	}
	return 0;
}
