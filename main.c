/* bspcost: the command line, a client of the library's runs.
 *
 * argv becomes a request through cli/args.c's table of options; the request
 * goes to one command (analyzer/run/commands.h) under one deadline.  Usage
 * errors exit with EXIT_USAGE; everything else is the command's status. */
#include <stdio.h>
#include <stdlib.h>

#include <flint/flint.h>

#include "analyzer/run/commands.h"
#include "analyzer/run/options.h"
#include "analyzer/util/session.h"
#include "cli/args.h"

int main(int argc, char **argv)
{
	struct options opt = options_defaults(stdout, stderr);
	struct args a;
	struct session *session = NULL;
	int status = args_parse(argc, argv, &opt, &a);
	if (status == EXIT_OK && !a.done) {
		/* One deadline for the whole run, from here (analyzer/util/session.h). */
		session = session_start(opt.timeout);
		if (!session) {
			report_error(stderr, NULL,
				     "cannot start the time limit's watchdog (out of memory or "
				     "threads)");
			status = EXIT_SPEC;
		} else if (a.count_set) {
			status = cmd_count(a.count_set, &opt, session);
		} else if (opt.check_only || opt.print) {
			status = cmd_check(a.nfiles, a.files, &opt, session);
		} else {
			status = cmd_analyze(a.nfiles, a.files, &opt, session);
		}
	}
	session_end(session);
	args_clear(&opt, &a);
	flint_cleanup(); /* FLINT's caches, so that leak checkers see a clean exit */
	if (fflush(stdout) != 0 && status == EXIT_OK) {
		report_error(stderr, NULL, "error writing output");
		status = EXIT_SPEC;
	}
	return status;
}
