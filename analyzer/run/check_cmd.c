/* --check and --print: load, parse and check each specification. */
#include "analyzer/run/commands.h"
#include "analyzer/check/load.h"
#include "analyzer/report/report.h"

/* Checks one file; returns an exit status. */
static int check_file(const char *path, const struct options *opt, struct session *session)
{
	struct loaded_spec ls;
	int status = spec_load_assuming(&ls, path, opt->assumes, opt->nassumes, opt->err,
					session) == 0 ? EXIT_OK : EXIT_SPEC;
	if (status == EXIT_OK) {
		if (opt->print)
			print_spec(opt->out, ls.ast);
		else
			report_check_summary(opt->out, ls.src.name, ls.cs);
	}
	spec_unload(&ls);
	return status;
}

int cmd_check(int nfiles, char *const files[], const struct options *opt,
	      struct session *session)
{
	int status = EXIT_OK;
	for (int i = 0; i < nfiles; i++) {
		if (session_expired(session)) {
			report_deadline(opt->err, files[i], session_limit(session), 0, 0, 0);
			status = EXIT_SPEC;
			continue;
		}
		if (check_file(files[i], opt, session) != EXIT_OK)
			status = EXIT_SPEC;
	}
	return status;
}
