/* The library's objects (analyzer/api only): what bspcost.h keeps opaque. */
#ifndef BSPCOST_API_INTERNAL_H
#define BSPCOST_API_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/api/bspcost.h"
#include "analyzer/check/load.h"
#include "analyzer/run/options.h"
#include "analyzer/model/model.h"

struct bspcost_session {
	double seconds;      /* each question's time limit (0: none) */
	char *message;       /* the last failure's diagnostics ("" after a success) */
	bool nomem;          /* MESSAGE could not be copied: out of memory */
};

struct api_diagnostic {
	enum bspcost_severity severity;
	int line, column;
	char *message;
};

struct bspcost_spec {
	char *name;          /* as given: a path, or the name of a text */
	char *text;          /* the text read, for a request with --assume */
	size_t len;
	struct loaded_spec ls;
	struct model *m;     /* NULL when it has errors */
	int ndiags;
	struct api_diagnostic *diags;
	char *said;          /* the diagnostics as the command line prints them */
};

struct bspcost_request {
	struct options opt;  /* out, err, model and the rest filled in per run */
	char **args;         /* the -D arguments (OPT's names point into them) */
	int nargs;
	char *machine;
	char *compare[2];    /* --compare's candidates (OPT's point here) */
	char **assumes;
	char *message;       /* why the last setter refused ("" none) */
};

/* One quantity of the results: texts for people, for programs, its value. */
struct api_quantity {
	char *formula, *expr, *value;
	char *why;                     /* why there is no formula, the others having one */
	struct formula_expr *parsed;   /* EXPR read back, for bspcost_result_eval */
};

enum { API_NQ = BSPCOST_MEM + 1, API_NFORMATS = BSPCOST_LATEX + 1 };

enum { API_NPQ = BSPCOST_PROCESS_MSGS_OUT + 1 };

/* One process's counts in a superstep (--per-process). */
struct api_process {
	long coord[3];
	char *v[API_NPQ];   /* NULL: not counted */
};

struct api_step {
	char *name;
	struct api_quantity q[API_NQ];
	int nprocs;
	struct api_process *procs;
};

struct api_candidate {
	char *name;
	bool ok;
	char *why;
	int nassumptions;
	char **assumptions;
	/* what the formulas rest on, in the formula grammar, and the block
	 * lengths they name (NAME = VALUE), for evaluating them */
	int nconditions;
	struct formula_expr **conditions;
	int nlocals;
	char **local_names;
	struct formula_expr **local_values;
	int nsteps;
	struct api_step *steps;
	struct api_quantity program[API_NQ];   /* the cost and memory only */
};

/* --compare's answer: the conditions in text and in the formula grammar,
 * why there are none, and the difference at the values. */
struct api_comparison {
	char *cond[2][3];    /* [text, expr][A cheaper, the same, B cheaper] */
	char *why;
	char *difference;
};

struct bspcost_result {
	bool per_process;    /* the request's --per-process: its report, its counts */
	struct api_comparison *cmp;   /* --compare's; NULL without */
	int naxes;
	/* the specification's assumptions, read back for bspcost_result_eval */
	int nassume;
	struct formula_expr **assume;
	int ncands;
	struct api_candidate *cands;
	char *render[API_NFORMATS];
};

struct api_row {
	int rank;
	char *shape, *candidate, *cost, *why;
};

struct api_table {
	long procs;
	int npoint;
	char **point_names, **point_values;
	int nrows;
	struct api_row *rows;
};

struct bspcost_ranking {
	int ntables;
	struct api_table *tables;
	/* each format's text, written table by table while the run goes */
	FILE *stream[API_NFORMATS];
	size_t len[API_NFORMATS];
	char *render[API_NFORMATS];
};

/* The question of SPEC and RQ (RANK: bspcost_rank's, else bspcost_analyze's)
 * asked of the command line's machinery, its answers handed to SINK.
 * Returns the exit status; S's message gets the diagnostics when it is not
 * EXIT_OK.  With PRINTED, *PRINTED gets what the run printed on its output
 * stream (malloc'd; NULL when out of memory). */
int api_run(bspcost_session *s, const bspcost_spec *spec, const bspcost_request *rq,
	    const struct run_sink *sink, bool rank, char **printed);

/* S's message set to TEXT (copied; NULL: out of memory). */
void api_say(bspcost_session *s, const char *text);

#endif
