/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario/transform.h - layout transforms applied to a loaded scenario (docs/interpose.md).
 */
#ifndef CGSIM_SIM_TRANSFORM_H
#define CGSIM_SIM_TRANSFORM_H

#include <stddef.h>

#include "sim/scenario/scenario.h"

/*
 * scn_interpose() - Tejun Heo's 2017 layout: every process (or only v->ipo_process) whose
 * threads compete directly in a cgroup X next to child cgroups of X that have the cpu
 * controller moves into a new cgroup X/NAME (NAME: v->ipo_group, default the process's name)
 * of cpu.weight v->ipo_weight, which also takes over the threaded cgroups holding its threads
 * and so becomes their thread root. The scenario is rewritten; the cgroup model then applies it
 * like any layout. Returns 0, or -EINVAL with "FILE:LINE:COL: error: ..." in @err.
 */
int scn_interpose(struct scenario *sc, const struct scn_variant *v, char *err, size_t errlen);

#endif /* CGSIM_SIM_TRANSFORM_H */
