/* --check and --print: load, parse and check each specification. */
#include "analyzer/commands.h"
#include "analyzer/check.h"
#include "grammar/diag.h"
#include "grammar/parse.h"
#include "grammar/source.h"

#include <string.h>

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
	struct source src;
	if (source_load(&src, path, opt->err) < 0)
		return EXIT_SPEC;
	struct diag dg;
	diag_init(&dg, opt->err, &src);
	const char *nul = memchr(src.text, '\0', src.len);
	if (nul) {
		int line, col;
		source_position(&src, (size_t)(nul - src.text), &line, &col);
		diag_error(&dg, (struct span){line, col, line, col},
			   "NUL byte in the input: a specification is text");
		diag_flush(&dg);
		diag_free(&dg);
		source_free(&src);
		return EXIT_SPEC;
	}
	bool parsed;
	struct ast_spec *spec = parse_source(&src, &dg, &parsed);
	struct checked_spec *cs = parsed ? check_spec(spec, &dg) : NULL;
	diag_flush(&dg);
	int status = cs ? EXIT_OK : EXIT_SPEC;
	if (cs) {
		if (opt->print)
			print_spec(opt->out, spec);
		else
			print_summary(opt->out, src.name, cs);
	}
	checked_spec_free(cs);
	ast_spec_free(spec);
	diag_free(&dg);
	source_free(&src);
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
