// SPDX-License-Identifier: MIT
/*
 * cgroup/refusal.c - the rules by which operations are refused (cgroup.h's CG_RULES) and the
 * record of which one refused the last failed operation.
 *
 * Invariant: a public operation starts with cg__begin() and returns through cg__done(); every
 * site that refuses returns through cg__refuse() with its rule, so cg_refusal() never says
 * CG_RULE_NONE after a failure. Failures of memory deep inside helpers that have no hierarchy
 * at hand are the one case cg__done() names itself.
 */
#include <assert.h>
#include <errno.h>

#include "cgroup/cg_internal.h"

static const char *const rule_ids[CG_RULE_COUNT] = {
#define CG__RULE_ID(name, id, text) [CG_RULE_##name] = id,
	CG_RULES(CG__RULE_ID)
#undef CG__RULE_ID
};

static const char *const rule_texts[CG_RULE_COUNT] = {
#define CG__RULE_TEXT(name, id, text) [CG_RULE_##name] = text,
	CG_RULES(CG__RULE_TEXT)
#undef CG__RULE_TEXT
};

const char *cg_rule_id(enum cg_rule rule)
{
	return (unsigned)rule < CG_RULE_COUNT ? rule_ids[rule] : "?";
}

const char *cg_rule_text(enum cg_rule rule)
{
	return (unsigned)rule < CG_RULE_COUNT ? rule_texts[rule] : "?";
}

enum cg_rule cg_refusal(const struct cg_hier *h)
{
	return h->refusal;
}

int cg__refuse(struct cg_hier *h, enum cg_rule rule, int err)
{
	h->refusal = rule;
	return err;
}

void cg__begin(struct cg_hier *h)
{
	h->refusal = CG_RULE_NONE;
}

int cg__done(struct cg_hier *h, int r)
{
	if (r >= 0) {
		h->refusal = CG_RULE_NONE;
		return r;
	}
	if (h->refusal == CG_RULE_NONE && r == -ENOMEM)
		h->refusal = CG_RULE_OUT_OF_MEMORY;
	/* a refusal without its rule is a bug of this module, whatever the input */
	assert(h->refusal != CG_RULE_NONE);
	return r;
}
