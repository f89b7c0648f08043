/* A progress meter for long runs: what is done of what, and the time left,
 * on the standard error when it is a terminal, once a run has taken about a
 * second (-p and its sweeps, concrete grids' formulas, --per-process).  It
 * prints nothing otherwise, so that reports and their tests never see it. */
#ifndef BSPCOST_PROGRESS_H
#define BSPCOST_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "analyzer/cost/workers.h"

struct progress_meter {
	FILE *err;
	bool tty;                /* ERR is a terminal */
	bool shown;              /* a line is on the terminal */
	struct timespec start;   /* the run's, for the second before anything shows */
	char what[64];           /* the jobs of the pool being run */
	struct timespec pool_start;
	struct workers_progress hook;
};

/* Starts METER on ERR (kept), at the start of a run. */
void progress_start(struct progress_meter *meter, FILE *err);

/* The hook of a pool of jobs, WHAT (printf-like: "rows of -p %ld"), for
 * workers_run_ordered; NULL when ERR is no terminal (nothing to show). */
const struct workers_progress *progress_pool(struct progress_meter *meter, const char *what, ...)
	__attribute__((format(printf, 2, 3)));

/* Ends METER: its line, if shown, is erased. */
void progress_end(struct progress_meter *meter);

#endif
