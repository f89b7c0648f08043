/* --plot FILE.svg|png: a picture of a ranking, through gnuplot. */
#ifndef BSPCOST_PLOT_H
#define BSPCOST_PLOT_H

#include <stdio.h>

#include "analyzer/report/report.h"

/* Writes the gnuplot script of R's picture to PICTURE.gp and runs gnuplot on
 * it, which writes PICTURE (its format by its suffix, .svg or .png).  0 on
 * success; else -1, said on ERR (gnuplot missing or failing, no picture). */
int plot_ranking(const struct ranking *r, const char *picture, FILE *err);

/* The same for a sweep of one range, R[0..N): cost against the swept size. */
int plot_sweep(const struct ranking *r, int n, const char *picture, FILE *err);

/* The same for --per-process: each process's fan-in and fan-out, a panel per
 * candidate. */
int plot_per_process(const struct analysis *a, const char *picture, FILE *err);

#endif
