/* libFuzzer harness: the input as a small specification, checked and then
 * analyzed as `bspcost FILE` does, three times:
 *   - on the symbolic grid (the formulas of analyzer/symbolic.c),
 *   - on a concrete grid of 2 processes per axis (analyzer/relations.c),
 *   - with every size given (-D, each size 5, on that concrete grid) and
 *     --values: the numbers counted directly (analyzer/direct.c).
 * Reports and messages go to /dev/null.  Only a crash, a sanitizer report, a
 * leak, an exit status other than 0, 1 or 2, or one input that runs past
 * libFuzzer's -timeout counts as a finding.
 *
 * An analysis can be long however small the text (the cost of counting grows
 * with the number of parameters, axes and candidates), so inputs beyond the
 * bounds below are skipped before any analysis, and each candidate gets
 * --timeout CANDIDATE_SECONDS: an input that runs much longer than its
 * candidates' time limits is itself a finding (the deadline is not honoured
 * somewhere).  The limit is wall-clock time, which is the one thing here that
 * depends on the machine; it only decides between a formula and "time limit
 * ran out", never whether a run is a finding. */
#include "tests/fuzz/fuzz.h"

#include "analyzer/load.h"

enum {
	MAX_BYTES = 2048,
	MAX_AXES = 2,
	MAX_ARRAYS = 3,
	MAX_PARAMS = 4,
	MAX_CANDIDATES = 4,
	MAX_SUPERSTEPS = 3,
	GRID_SIZE = 2,        /* processes per axis of the concrete grid */
	SIZE_VALUE = 5,       /* the value of every size parameter with -D */
};

#define CANDIDATE_SECONDS 1.0

static void analyze(const char *path, struct options *opt)
{
	char *const files[] = {(char *)path};
	int st = cmd_analyze(1, files, opt);
	if (st != EXIT_OK && st != EXIT_SPEC && st != EXIT_USAGE)
		fuzz_die("analysis: exit status neither 0, 1 nor 2");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file f;
	if (size > MAX_BYTES)
		return 0;
	const char *path = fuzz_file_set(&f, data, size);

	struct loaded_spec ls;
	if (spec_load(&ls, path, fuzz_devnull()) < 0) {
		spec_unload(&ls);
		return 0;
	}
	const struct checked_spec *cs = ls.cs;
	if (cs->naxes > MAX_AXES || cs->narrays > MAX_ARRAYS || cs->nparams > MAX_PARAMS ||
	    cs->ncandidates > MAX_CANDIDATES || cs->nsupersteps > MAX_SUPERSTEPS) {
		spec_unload(&ls);
		return 0;
	}

	/* one thread: the worker pool runs the candidates on this one, so that
	 * libFuzzer's coverage and the sanitizers see every step in order */
	struct options opt = {.format = FORMAT_TEXT, .jobs = 1, .timeout = CANDIDATE_SECONDS,
			      .out = fuzz_devnull(), .err = fuzz_devnull()};
	analyze(path, &opt);

	if (cs->naxes > 0) {
		opt.grid_naxes = cs->naxes;
		for (int a = 0; a < cs->naxes; a++)
			opt.grid[a] = GRID_SIZE;
		analyze(path, &opt);
	}

	struct param_value defs[MAX_PARAMS];
	for (int i = 0; i < cs->nparams; i++)
		defs[i] = (struct param_value){cs->params[i]->name, SIZE_VALUE};
	opt.defs = defs;
	opt.ndefs = cs->nparams;
	opt.values_only = true;
	analyze(path, &opt);

	spec_unload(&ls);
	return 0;
}
