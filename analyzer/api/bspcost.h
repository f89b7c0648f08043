/* bspcost.h: the bspcost library, the BSP cost of a specification from a
 * program (bspcost(3)).
 *
 * The command line's work, without a process per question: load and check a
 * specification once, then ask it for its costs (formulas and exact values)
 * or for a ranking of the grid shapes of a number of processes, as often as
 * wanted, and walk the answers or render them in any of bspcost's formats.
 *
 *     bspcost_session *s = bspcost_session_new(60);
 *     bspcost_spec *spec = bspcost_spec_load(s, "lu.bsp");
 *     bspcost_request *rq = bspcost_request_new();
 *     bspcost_request_set(rq, "n", "4096");
 *     bspcost_request_procs(rq, 64);
 *     bspcost_request_machine(rq, "sp2-switch");
 *     bspcost_ranking *r;
 *     if (bspcost_rank(s, spec, rq, &r) == BSPCOST_OK)
 *             printf("%s\n", bspcost_ranking_shape(r, 0, 0));
 *
 * Types are opaque.  Ownership: a function named _new, _load, _parse,
 * bspcost_analyze or bspcost_rank gives an object the caller frees with the
 * matching _free; every const char * returned belongs to the object it came
 * from and lives as long as it does.  Nothing is global: a session, and what
 * was made with it, is used by one thread at a time; sessions on different
 * threads are independent.  Errors are values: a function returns an enum
 * bspcost_status (a constructor NULL, when out of memory or given NULL),
 * and bspcost_session_message says what went wrong, in the words of the
 * command line's diagnostics.  Numbers are exact: values are written as
 * integers or fractions ("7/2"), never rounded.  (The parser and checker
 * still abort the process when memory runs out, as the command line does.) */
#ifndef BSPCOST_LIBRARY_H_INCLUDED
#define BSPCOST_LIBRARY_H_INCLUDED

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define BSPCOST_API __attribute__((visibility("default")))
#else
#define BSPCOST_API
#endif

/* The library's version, "MAJOR.MINOR.PATCH" (the command line's). */
BSPCOST_API const char *bspcost_version(void);

/* The statuses, the command line's exit statuses. */
enum bspcost_status {
	BSPCOST_OK = 0,
	BSPCOST_ERROR = 1,   /* an error in the specification or the analysis, out of
			      * memory, or the session's time limit */
	BSPCOST_USAGE = 2,   /* a request that cannot be honoured (unknown name, a
			      * value out of range, options that do not go together) */
};

/* --- Sessions -------------------------------------------------------------- */

typedef struct bspcost_session bspcost_session;

/* A session whose time limit is SECONDS for each specification loaded and
 * each question asked with it (bspcost_analyze, bspcost_rank), 0 for none.
 * NULL when out of memory or SECONDS is not from 0 to 1000000. */
BSPCOST_API bspcost_session *bspcost_session_new(double seconds);
/* Frees S; what was made with it must have been freed first. */
BSPCOST_API void bspcost_session_free(bspcost_session *s);
/* What the last call on S that did not return BSPCOST_OK said (the command
 * line's diagnostics, lines ending in a new line), or "" after a success. */
BSPCOST_API const char *bspcost_session_message(const bspcost_session *s);

/* --- Specifications --------------------------------------------------------- */

typedef struct bspcost_spec bspcost_spec;

/* Reads, parses and checks the specification in file PATH; or TEXT, named
 * NAME in diagnostics.  The result holds its diagnostics even when it has
 * errors (bspcost_spec_status); NULL only when out of memory. */
BSPCOST_API bspcost_spec *bspcost_spec_load(bspcost_session *s, const char *path);
BSPCOST_API bspcost_spec *bspcost_spec_parse(bspcost_session *s, const char *name,
					     const char *text);
BSPCOST_API void bspcost_spec_free(bspcost_spec *spec);
/* BSPCOST_OK when the specification checked without error (it can be
 * analyzed), else BSPCOST_ERROR. */
BSPCOST_API enum bspcost_status bspcost_spec_status(const bspcost_spec *spec);

enum bspcost_severity { BSPCOST_SEVERITY_ERROR, BSPCOST_SEVERITY_WARNING,
			BSPCOST_SEVERITY_NOTE };
/* The diagnostics, in source order: I from 0 to bspcost_spec_ndiagnostics - 1.
 * A diagnostic that has no place in the text (the file cannot be read) has
 * line and column 0. */
BSPCOST_API int bspcost_spec_ndiagnostics(const bspcost_spec *spec);
BSPCOST_API enum bspcost_severity bspcost_spec_diagnostic_severity(const bspcost_spec *spec, int i);
BSPCOST_API int bspcost_spec_diagnostic_line(const bspcost_spec *spec, int i);
BSPCOST_API int bspcost_spec_diagnostic_column(const bspcost_spec *spec, int i);
BSPCOST_API const char *bspcost_spec_diagnostic_message(const bspcost_spec *spec, int i);

/* Its size parameters, its grid axes and its candidates, by position (0 when
 * it has errors). */
BSPCOST_API int bspcost_spec_nsizes(const bspcost_spec *spec);
BSPCOST_API const char *bspcost_spec_size(const bspcost_spec *spec, int i);
BSPCOST_API int bspcost_spec_naxes(const bspcost_spec *spec);
BSPCOST_API const char *bspcost_spec_axis(const bspcost_spec *spec, int i);
BSPCOST_API int bspcost_spec_ncandidates(const bspcost_spec *spec);
BSPCOST_API const char *bspcost_spec_candidate(const bspcost_spec *spec, int i);

/* --- Requests ---------------------------------------------------------------- */

typedef struct bspcost_request bspcost_request;

/* What to ask: the command line's options.  A setter called again replaces
 * what it set (a value of a name replaces its earlier value; a name has at
 * most one range, and not both a value and a range).  A request is read by
 * bspcost_analyze and bspcost_rank, never changed by them, and may serve
 * many specifications. */
BSPCOST_API bspcost_request *bspcost_request_new(void);
BSPCOST_API void bspcost_request_free(bspcost_request *rq);

/* -D NAME=VALUE: a size, an axis or a coefficient of the cost function (an
 * integer; a coefficient may be a decimal or a fraction, "2.5", "1/3"), or a
 * range of a size ("256..4096*2", "1..9+2") that bspcost_rank ranks at every
 * point.  BSPCOST_USAGE when VALUE is none of these (said on no session: the
 * request has none; bspcost_request_message says why). */
BSPCOST_API enum bspcost_status bspcost_request_set(bspcost_request *rq, const char *name,
						    const char *value);
/* Forgets the values, the ranges and the process counts set so far. */
BSPCOST_API void bspcost_request_clear_values(bspcost_request *rq);
/* --grid: a concrete grid of NAXES (1 to 3) axes of these sizes. */
BSPCOST_API enum bspcost_status bspcost_request_grid(bspcost_request *rq, int naxes,
						     const long sizes[]);
/* -p P: bspcost_rank ranks every grid shape of P processes (call again to
 * rank several counts, up to 256); it cannot go with a grid or values
 * alone (BSPCOST_USAGE when run). */
BSPCOST_API enum bspcost_status bspcost_request_procs(bspcost_request *rq, long p);
/* --model NAME (bsp, overlap, bp-fm, ...: bspcost(1)). */
BSPCOST_API enum bspcost_status bspcost_request_model(bspcost_request *rq, const char *name);
/* --machine NAME|FILE: the coefficients of the cost for each number of
 * processes (read when the request is run). */
BSPCOST_API enum bspcost_status bspcost_request_machine(bspcost_request *rq, const char *machine);
/* --h sum (SUM 1) or max (0, the default). */
BSPCOST_API void bspcost_request_h_sum(bspcost_request *rq, int sum);
/* --values (VALUES 1): with every value given, the numbers alone, no
 * formulas (faster: the formulas are what takes time). */
BSPCOST_API void bspcost_request_values_only(bspcost_request *rq, int values);
/* --per-process (ON 1): bspcost_analyze counts every process of the grid
 * (every size and axis given; at most 1024 processes) and the result holds
 * each one's work, fan-in, fan-out and messages (bspcost_result_nprocesses,
 * bspcost_result_process_coord, bspcost_result_process_value);
 * its renders are --per-process's report (text, JSON, CSV, Markdown: no
 * LaTeX, BSPCOST_USAGE). */
BSPCOST_API void bspcost_request_per_process(bspcost_request *rq, int on);
/* --compare A B: bspcost_analyze compares candidates A and B (by name; NULL
 * and NULL: no comparison): where each costs less (bspcost_result_condition),
 * their difference at the values, and the two candidates' results. */
BSPCOST_API enum bspcost_status bspcost_request_compare(bspcost_request *rq, const char *a,
							const char *b);
/* --assume CONDITION, added to the specification's assumptions. */
BSPCOST_API enum bspcost_status bspcost_request_assume(bspcost_request *rq, const char *condition);
/* -j: the threads one question uses (0: one per processor, the default). */
BSPCOST_API void bspcost_request_jobs(bspcost_request *rq, int jobs);
/* Why the last setter that returned BSPCOST_USAGE did ("" when none did). */
BSPCOST_API const char *bspcost_request_message(const bspcost_request *rq);

/* --- Analyses ------------------------------------------------------------------ */

typedef struct bspcost_result bspcost_result;

/* The quantities of a superstep, and of a candidate's whole program. */
enum bspcost_quantity {
	BSPCOST_W,      /* work of the busiest process */
	BSPCOST_H,      /* h: the words of the h-relation */
	BSPCOST_H_IN,   /* the most words a process receives */
	BSPCOST_H_OUT,  /* the most words a process sends */
	BSPCOST_NCOM,   /* the words sent in all */
	BSPCOST_COST,   /* the cost: w + h*g + l, or the request's cost function */
	BSPCOST_MEM,    /* the most words a process holds */
};
/* The superstep index of a candidate's whole program: its cost and memory. */
#define BSPCOST_PROGRAM (-1)

/* Every candidate of SPEC as RQ asks (the command line's default report): on
 * the symbolic grid, on RQ's grid, or at its values.  *OUT is set whenever
 * the status is BSPCOST_OK or BSPCOST_ERROR with something to walk (a refused
 * candidate, the time limit), else NULL. */
BSPCOST_API enum bspcost_status bspcost_analyze(bspcost_session *s, const bspcost_spec *spec,
						const bspcost_request *rq,
						bspcost_result **out);
BSPCOST_API void bspcost_result_free(bspcost_result *r);

BSPCOST_API int bspcost_result_ncandidates(const bspcost_result *r);
BSPCOST_API const char *bspcost_result_candidate(const bspcost_result *r, int c);
/* BSPCOST_OK when candidate C has its costs; else BSPCOST_ERROR, and
 * bspcost_result_why says why (no exact formula here, the time limit). */
BSPCOST_API enum bspcost_status bspcost_result_status(const bspcost_result *r, int c);
BSPCOST_API const char *bspcost_result_why(const bspcost_result *r, int c);
/* What candidate C's formulas assume beyond the specification ("M divides
 * n"), K from 0 to bspcost_result_nassumptions - 1. */
BSPCOST_API int bspcost_result_nassumptions(const bspcost_result *r, int c);
BSPCOST_API const char *bspcost_result_assumption(const bspcost_result *r, int c, int k);
BSPCOST_API int bspcost_result_nsupersteps(const bspcost_result *r, int c);
BSPCOST_API const char *bspcost_result_superstep(const bspcost_result *r, int c, int s);

/* Quantity Q of superstep S of candidate C (S = BSPCOST_PROGRAM: the whole
 * program's cost or memory; its other quantities have none):
 *   _formula: the formula as the text report prints it ("n*(M-1)/2");
 *   _expr:    the same in the formula grammar of bspcost(1) (JSON's), with
 *             every piece's condition, for other programs to read;
 *   _value:   its exact value at the request's values ("14336", "7/2").
 * NULL when there is none (a refused candidate, sizes not given, a cost
 * whose coefficients are not given); a candidate refused for one superstep
 * keeps its other supersteps' formulas (bspcost_result_formula_why says why
 * that one has none). */
BSPCOST_API const char *bspcost_result_formula(const bspcost_result *r, int c, int s,
					       enum bspcost_quantity q);
BSPCOST_API const char *bspcost_result_expr(const bspcost_result *r, int c, int s,
					    enum bspcost_quantity q);
/* Why quantity Q of superstep S of candidate C has no formula where the
 * candidate's others have one (a transpose between blocks over two axes:
 * its NCom, whose sum changes with the axes' common factors; every quantity
 * but mem of a superstep the symbolic grid refuses, its candidate keeping
 * the others' formulas); NULL otherwise. */
BSPCOST_API const char *bspcost_result_formula_why(const bspcost_result *r, int c, int s,
						   enum bspcost_quantity q);
BSPCOST_API const char *bspcost_result_value(const bspcost_result *r, int c, int s,
					     enum bspcost_quantity q);
/* The formula of quantity Q evaluated exactly at NAMES[i] = VALUES[i]
 * (0 <= i < N), without counting again: the numerator and denominator of
 * the value into *NUM and *DEN (DEN > 0; NULL pointers are not written), and
 * the value as a double into *APPROX (may be NULL).  Give every size and
 * axis (and g and l for a cost): the point is checked against the
 * specification's assumptions, every axis at least 1, and what the
 * formulas rest on (bspcost_result_assumption).  BSPCOST_USAGE when a name
 * needed has no value or the point breaks one of these (the formula
 * promises nothing there); BSPCOST_ERROR when the value does not fit in 64
 * bits or there is no formula. */
BSPCOST_API enum bspcost_status bspcost_result_eval(const bspcost_result *r, int c, int s,
						    enum bspcost_quantity q, int n,
						    const char *const names[],
						    const long long values[], long long *num,
						    long long *den, double *approx);

/* --- Each process's counts (bspcost_request_per_process) --------------------- */

enum bspcost_process_quantity {
	BSPCOST_PROCESS_W,         /* its work */
	BSPCOST_PROCESS_IN,        /* the words it receives (fan-in) */
	BSPCOST_PROCESS_OUT,       /* the words it sends (fan-out) */
	BSPCOST_PROCESS_MSGS_IN,   /* the processes it receives from */
	BSPCOST_PROCESS_MSGS_OUT,  /* the processes it sends to */
};
/* The processes of superstep S of candidate C counted one by one: every
 * process of the grid, the first axis slowest; 0 without per-process
 * counts (not asked for, the candidate refused). */
BSPCOST_API int bspcost_result_nprocesses(const bspcost_result *r, int c, int s);
/* Process P's coordinate on axis A (0-based; -1 when there is none). */
BSPCOST_API long bspcost_result_process_coord(const bspcost_result *r, int c, int s, int p,
					      int a);
/* Quantity Q of process P, exact ("1536"); NULL when there is none (the
 * messages of a superstep in a loop are not counted). */
BSPCOST_API const char *bspcost_result_process_value(const bspcost_result *r, int c, int s,
						     int p, enum bspcost_process_quantity q);

/* --- Comparisons (bspcost_request_compare) ---------------------------------- */

enum bspcost_relation {
	BSPCOST_A_CHEAPER,   /* A costs less */
	BSPCOST_SAME,        /* they cost the same */
	BSPCOST_B_CHEAPER,   /* B costs less */
};
/* Where REL holds, on the sizes, axes and coefficients: as the text report
 * writes it (EXPR 0: "P >= 2 && g > 0", "never", "always") or in the formula
 * grammar (EXPR 1: "(P >= 2 && g > 0)", "0", "1").  NULL without a
 * comparison or without conditions (a cost that has no formula:
 * bspcost_result_comparison_why says why).  The result's candidates are A
 * and B, in that order. */
BSPCOST_API const char *bspcost_result_condition(const bspcost_result *r,
						 enum bspcost_relation rel, int expr);
BSPCOST_API const char *bspcost_result_comparison_why(const bspcost_result *r);
/* A's cost minus B's at the request's values, exact; NULL without them. */
BSPCOST_API const char *bspcost_result_difference(const bspcost_result *r);

/* --- Rankings --------------------------------------------------------------- */

typedef struct bspcost_ranking bspcost_ranking;

/* The ranking of every grid shape of each process count of RQ
 * (bspcost_request_procs), every candidate at every point of its ranges, as
 * -p: one table per count and point, in the order of the command line.
 * RQ gives every size, and g and l (or a machine, or neither for the rows
 * no machine makes lose: bspcost(1)). */
BSPCOST_API enum bspcost_status bspcost_rank(bspcost_session *s, const bspcost_spec *spec,
					     const bspcost_request *rq, bspcost_ranking **out);
BSPCOST_API void bspcost_ranking_free(bspcost_ranking *r);

BSPCOST_API int bspcost_ranking_ntables(const bspcost_ranking *r);
/* Table T's number of processes, and the value of NAME at its point (a
 * size or a coefficient; NULL when it has none). */
BSPCOST_API long bspcost_ranking_procs(const bspcost_ranking *r, int t);
BSPCOST_API const char *bspcost_ranking_point(const bspcost_ranking *r, int t, const char *name);
/* Its rows, best first: the ranked ones (rank 1, 2, ...; equal costs share a
 * rank), then the rows without a cost (rank 0, bspcost_ranking_why says
 * why). */
BSPCOST_API int bspcost_ranking_nrows(const bspcost_ranking *r, int t);
BSPCOST_API int bspcost_ranking_rank(const bspcost_ranking *r, int t, int row);
/* The row's grid shape ("8x8"), candidate (NULL for a shape every candidate
 * shares a refusal of), cost (exact; NULL without one) and reason. */
BSPCOST_API const char *bspcost_ranking_shape(const bspcost_ranking *r, int t, int row);
BSPCOST_API const char *bspcost_ranking_candidate(const bspcost_ranking *r, int t, int row);
BSPCOST_API const char *bspcost_ranking_cost(const bspcost_ranking *r, int t, int row);
BSPCOST_API const char *bspcost_ranking_why(const bspcost_ranking *r, int t, int row);

/* --- Reports ------------------------------------------------------------------ */

enum bspcost_format { BSPCOST_TEXT, BSPCOST_JSON, BSPCOST_CSV, BSPCOST_MARKDOWN,
		      BSPCOST_LATEX };

/* R as the command line prints it in FORMAT (the same bytes as bspcost -f
 * FORMAT with the same options, the text not wrapped), on OUT; a ranking
 * with a range of values renders each point's table, where the command
 * line prints one table of the sweep.  Returns BSPCOST_ERROR when writing
 * failed. */
BSPCOST_API enum bspcost_status bspcost_result_render(const bspcost_result *r,
						      enum bspcost_format format, FILE *out);
BSPCOST_API enum bspcost_status bspcost_ranking_render(const bspcost_ranking *r,
						       enum bspcost_format format, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
