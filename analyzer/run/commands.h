/* The commands the driver dispatches to.  Each returns an enum exit_status.
 * SESSION holds the run's deadline and makes every ISL context; once its
 * deadline has passed a command reports what it finished, says so, and
 * returns EXIT_SPEC. */
#ifndef BSPCOST_COMMANDS_H
#define BSPCOST_COMMANDS_H

#include "analyzer/run/options.h"
#include "analyzer/util/session.h"

/* --check / --print: parse and check each specification ("-" is standard input).
 * With --check, one summary line per file; with --print, the canonical form.
 * Every error in a file is reported before moving to the next file. */
int cmd_check(int nfiles, char *const files[], const struct options *opt,
	      struct session *session);

/* The default: the BSP cost of every candidate of each specification, with the
 * formulas in opt->format; --grid, -D, --h, --verify and --explain as documented
 * in bspcost(1). */
int cmd_analyze(int nfiles, char *const files[], const struct options *opt,
		struct session *session);

/* --count SET: the number of points of an ISL set as a formula in its parameters,
 * and its value when -D gives every parameter. */
int cmd_count(const char *set_text, const struct options *opt, struct session *session);

#endif
