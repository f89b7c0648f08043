/* --check and --print: load, parse and check each specification. */
#include "analyzer/cli/commands.h"
#include "analyzer/check/load.h"

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_summary(FILE *out, const char *name, const struct checked_spec *cs)
{
	fprintf(out, "%s: ok: %d %s, grid %d %s (", name, cs->nparams, plural(cs->nparams, "param", "params"),
		cs->naxes, plural(cs->naxes, "axis", "axes"));
	for (int i = 0; i < cs->naxes; i++)
		fprintf(out, "%s%s", i ? ", " : "", cs->axes[i]->name);
	fprintf(out, "), %d %s, %d %s, %d %s\n", cs->narrays, plural(cs->narrays, "array", "arrays"),
		cs->ncandidates, plural(cs->ncandidates, "candidate", "candidates"), cs->nsupersteps,
		plural(cs->nsupersteps, "superstep", "supersteps"));
}

/* Checks one file; returns an exit status. */
static int check_file(const char *path, const struct options *opt)
{
	struct loaded_spec ls;
	int status = spec_load(&ls, path, opt->err) == 0 ? EXIT_OK : EXIT_SPEC;
	if (status == EXIT_OK) {
		if (opt->print)
			print_spec(opt->out, ls.ast);
		else
			print_summary(opt->out, ls.src.name, ls.cs);
	}
	spec_unload(&ls);
	return status;
}

int cmd_check(int nfiles, char *const files[], const struct options *opt)
{
	int status = EXIT_OK;
	for (int i = 0; i < nfiles; i++)
		if (check_file(files[i], opt) != EXIT_OK)
			status = EXIT_SPEC;
	return status;
}
