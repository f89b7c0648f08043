/* --plot FILE.svg|png: a picture of a ranking, through gnuplot. */
#ifndef BSPCOST_PLOT_H
#define BSPCOST_PLOT_H

#include <stdio.h>

#include "analyzer/report/report.h"

struct session;

/* What the plot functions return when the deadline stopped gnuplot. */
enum { PLOT_LATE = -2 };

/* The exit status a plot function's result RC calls for: EXIT_OK, EXIT_SPEC
 * when the deadline stopped gnuplot (as it does the rest of a run),
 * EXIT_USAGE when the picture could not be drawn otherwise. */
int plot_exit_status(int rc);

/* Writes the gnuplot script of R's picture to PICTURE.gp and runs gnuplot on
 * it, which writes PICTURE (its format by its suffix, .svg or .png), within
 * the deadline of SESSION (NULL: none; past it gnuplot is killed).  0 on
 * success; else PLOT_LATE (stopped by the deadline) or -1 (gnuplot missing
 * or failing), said on ERR, and no picture. */
int plot_ranking(const struct ranking *r, const char *picture, FILE *err,
		 struct session *session);

/* The same for a sweep of one range, R[0..N): cost against the swept size. */
int plot_sweep(const struct ranking *r, int n, const char *picture, FILE *err,
	       struct session *session);

/* The same for --per-process: each process's fan-in and fan-out, a panel per
 * candidate. */
int plot_per_process(const struct analysis *a, const char *picture, FILE *err,
		     struct session *session);

/* The same for --hierarchy: H(i) against the level, a panel per candidate. */
int plot_hierarchy(const struct analysis *a, const char *picture, FILE *err,
		   struct session *session);

#endif
