/* libFuzzer harness: the input as a small specification, checked and then
 * analyzed as `bspcost FILE` does, twice:
 *   - on the symbolic grid (the formulas of analyzer/model/symbolic.c),
 *   - on a concrete grid of 2 processes per axis with every size given (-D,
 *     each size the same small value drawn from the input): the grid's
 *     formulas for every size (--all-sizes: analyzer/model/relations.c, each
 *     process counted) and the numbers counted directly for
 *     those values (relations_values, the same file); when the values break the
 *     specification's assumptions (refused, exit 2), the grid's formulas alone.
 * Reports and messages go to /dev/null, except the concrete grid's report with
 * values, read back (CSV) to hold the analysis to one property: on a concrete
 * grid counted for every size, every formula holds for any sizes (without
 * --all-sizes they are the symbolic grid's, under its assumptions), so its
 * value at the sizes given is
 * the number counted directly.  A formula that disagrees, or cannot be
 * evaluated there, aborts with both.  Beyond that, only a crash, a sanitizer
 * report, a leak, an exit status other than 0, 1 or 2, or one input that runs
 * past libFuzzer's -timeout is a finding.
 *
 * An analysis can be long however small the text (the cost of counting grows
 * with the number of parameters, axes and candidates), so inputs beyond the
 * bounds below are skipped before any analysis, and each analysis gets a
 * deadline of RUN_SECONDS (as --timeout does): an input that runs much
 * longer than that is itself a finding (the deadline is not honoured
 * somewhere).  The limit is wall-clock time, which is the one thing here that
 * depends on the machine, so it is far above what an input within the bounds
 * takes: an abort inside ISL may leak in ISL's own paths, which LeakSanitizer
 * would report as a finding of the machine's load (one did at 2 s, on a
 * loaded machine, and showed a leak of ours on that path, now fixed). */
#include "tests/fuzz/fuzz.h"

#include <gmp.h>

#include "analyzer/formula/formula.h"
#include "analyzer/check/load.h"

enum {
	MAX_BYTES = 2048,
	MAX_AXES = 2,
	MAX_ARRAYS = 3,
	MAX_PARAMS = 4,
	MAX_CANDIDATES = 4,
	MAX_SUPERSTEPS = 3,
	GRID_SIZE = 2,        /* processes per axis of the concrete grid */
	MAX_SIZE_VALUE = 7,   /* every size parameter is given 1 ... this with -D */
};

#define RUN_SECONDS 20.0

static int analyze(const char *path, struct options *opt)
{
	char *const files[] = {(char *)path};
	struct session *session = session_start(RUN_SECONDS);
	if (!session)
		fuzz_die("cannot start a session");
	int st = cmd_analyze(1, files, opt, session);
	session_end(session);
	if (st != EXIT_OK && st != EXIT_SPEC && st != EXIT_USAGE)
		fuzz_die("analysis: exit status neither 0, 1 nor 2");
	return st;
}

/* Whether every array extent is at least 1 at the sizes given (axes GRID_SIZE).
 * bspcost(5) assumes so, and bspcost refuses values that break it (exit 2):
 * there is then nothing to compare. */
static bool extents_positive(const struct checked_spec *cs, long long value)
{
	for (int a = 0; a < cs->narrays; a++)
		for (int d = 0; d < cs->arrays[a]->rank; d++) {
			const struct affine *f = cs->arrays[a]->extents[d]->aff;
			if (!f)
				return false;
			long long v = f->constant;
			for (int t = 0; t < f->nterms; t++) {
				long long x = f->terms[t].kind == SYM_GRID_AXIS ? GRID_SIZE : value;
				if (__builtin_mul_overflow(f->terms[t].coef, x, &x) ||
				    __builtin_add_overflow(v, x, &v))
					return false;
			}
			if (v < 1)
				return false;
		}
	return true;
}

/* The next CSV field of *P (quoted with "" inside, or bare) as a malloc'd
 * string; *P is left after its comma.  NULL at the end of the line. */
static char *csv_field(const char **p)
{
	const char *s = *p;
	if (*s == '\n' || *s == '\0')
		return NULL;
	size_t n = strlen(s) + 1;
	char *out = malloc(n), *o = out;
	if (!out)
		fuzz_die("out of memory");
	if (*s == '"') {
		for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			*o++ = *s;
		}
		if (*s == '"')
			s++;
	} else {
		while (*s && *s != ',' && *s != '\n')
			*o++ = *s++;
	}
	*o = '\0';
	if (*s == ',')
		s++;
	*p = s;
	return out;
}

/* Every row of the CSV report CSV that has a formula and a value: the formula
 * evaluated at DEFS must be the value. */
static void compare_rows(const char *csv, const struct param_value *defs, int n)
{
	const char *names[MAX_PARAMS];
	long long values[MAX_PARAMS];
	for (int i = 0; i < n; i++) {
		names[i] = defs[i].name;
		values[i] = defs[i].value;
	}
	const char *line = strchr(csv, '\n'); /* after the header */
	for (; line && *++line; line = strchr(line, '\n')) {
		const char *p = line;
		char *field[5] = {NULL};
		for (int k = 0; k < 5; k++)
			field[k] = csv_field(&p);
		/* rows "status" and "values" say why a candidate has no formulas or
		 * no values: their fields are words */
		bool quantity = field[2] && strcmp(field[2], "status") != 0 &&
				strcmp(field[2], "values") != 0;
		if (quantity && field[3] && field[4] && field[3][0] && field[4][0]) {
			struct formula_expr *e = formula_parse_expr(field[3], NULL);
			mpq_t v;
			mpq_init(v);
			char *got = e && formula_expr_eval(e, names, values, n, v) == 0
				    ? mpq_get_str(NULL, 10, v) : NULL;
			if (!got || strcmp(got, field[4]) != 0) {
				fprintf(stderr, "candidate %s, superstep %s, %s: formula %s is %s at",
					field[0], field[1], field[2], field[3], got ? got : "(no value)");
				for (int i = 0; i < n; i++)
					fprintf(stderr, "%s %s = %lld", i ? "," : "", names[i], values[i]);
				fprintf(stderr, " on the %d-per-axis grid; counted directly: %s\n",
					GRID_SIZE, field[4]);
				fuzz_die("analysis: a formula of a concrete grid disagrees with the "
					 "values counted directly");
			}
			free(got);
			mpq_clear(v);
			formula_expr_free(e);
		}
		for (int k = 0; k < 5; k++)
			free(field[k]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file f;
	if (size > MAX_BYTES)
		return 0;
	const char *path = fuzz_file_set(&f, data, size);

	struct loaded_spec ls;
	if (spec_load(&ls, path, fuzz_devnull(), NULL) < 0) {
		spec_unload(&ls);
		return 0;
	}
	const struct checked_spec *cs = ls.cs;
	if (cs->naxes > MAX_AXES || cs->narrays > MAX_ARRAYS || cs->nsizes > MAX_PARAMS ||
	    cs->ncandidates > MAX_CANDIDATES || cs->nsupersteps > MAX_SUPERSTEPS) {
		spec_unload(&ls);
		return 0;
	}

	/* one thread: the worker pool runs the candidates on this one, so that
	 * libFuzzer's coverage and the sanitizers see every step in order */
	struct options opt = options_defaults(fuzz_devnull(), fuzz_devnull());
	opt.jobs = 1;
	opt.timeout = RUN_SECONDS;
	analyze(path, &opt);

	/* the sizes' value from the input, so that small sizes (1, 2: fewer
	 * elements than processes) are tried as often as larger ones */
	unsigned h = 0;
	for (size_t i = 0; i < size; i++)
		h = h * 31 + data[i];
	long long value = 1 + h % MAX_SIZE_VALUE;
	struct param_value defs[MAX_PARAMS];
	for (int i = 0; i < cs->nsizes; i++)
		defs[i] = (struct param_value){cs->params[i]->name, value, 1};
	opt.defs = defs;
	opt.ndefs = cs->nsizes;
	opt.all_sizes = true;
	opt.grid_naxes = cs->naxes;
	for (int a = 0; a < cs->naxes; a++)
		opt.grid[a] = GRID_SIZE;
	char *csv = NULL;
	size_t csvlen = 0;
	opt.format = FORMAT_CSV;
	opt.out = open_memstream(&csv, &csvlen);
	if (!opt.out)
		fuzz_die("open_memstream failed");
	int st = analyze(path, &opt);
	if (fclose(opt.out) != 0)
		fuzz_die("closing a memstream failed");
	if (st != EXIT_USAGE && cs->naxes > 0 && extents_positive(cs, value))
		compare_rows(csv, defs, cs->nsizes);
	free(csv);

	/* Values that break the assumptions are refused before any analysis
	 * (exit 2): the concrete grid's formulas, then, without them (the
	 * symbolic grid's with the grid's sizes, where it has them). */
	if (st == EXIT_USAGE && cs->naxes > 0) {
		opt.defs = NULL;
		opt.ndefs = 0;
		opt.all_sizes = false;
		opt.format = FORMAT_TEXT;
		opt.out = fuzz_devnull();
		analyze(path, &opt);
	}

	spec_unload(&ls);
	return 0;
}
