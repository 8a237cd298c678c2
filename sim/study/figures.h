/* SPDX-License-Identifier: MIT */
/*
 * sim/study/figures.h - the figures of a comparison (the gnuplot scripts of plots/,
 * docs/figures.md): for every variant its cgroups' (else processes', else threads') shares
 * against their ideal and over time, its threads' wakeup latencies; all variants' latencies;
 * the sweep curve. PNG (pngcairo) and SVG, titled and labelled, readable in grey.
 */
#ifndef CGSIM_SIM_STUDY_FIGURES_H
#define CGSIM_SIM_STUDY_FIGURES_H

#include <stdbool.h>

#include "sim/study/compare.h"

/*
 * figures_check() - 0 if the gnuplot scripts can be found (figures_write() needs them), else
 * -ENOENT with the message in @err: compare -o checks before it runs or prints anything.
 */
int figures_check(char *err, size_t errlen);

/*
 * figures_write() - in @dir (where compare_write_dir() has written the data): plots/ (the
 * scripts and their labels), each variant's inputs in @dir/VARIANT/, sweep-target.csv when
 * @sw sweeps numbers, and render.sh; then, when gnuplot runs, render.sh itself, which writes
 * figures/NAME.png and .svg (*@rendered true). The scripts are looked for in $CGSIM_PLOTS,
 * next to the executable, in ./plots and in the install's data directory. 0 or a negative errno with a message in @err.
 */
int figures_write(const char *dir, const struct compare *c, const struct sweep *sw,
		  bool *rendered, char *err, size_t errlen);

#endif /* CGSIM_SIM_STUDY_FIGURES_H */
