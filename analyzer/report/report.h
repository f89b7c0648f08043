/* Reports: the analysis of one specification in text, JSON, Markdown, LaTeX or
 * CSV.  The analyzer prints only through these. */
#ifndef BSPCOST_REPORT_H
#define BSPCOST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/check/check.h"
#include "analyzer/cost/cost.h"
#include "analyzer/decide/compare.h"
#include "analyzer/decide/hier_rank.h"
#include "analyzer/decide/pareto.h"
#include "analyzer/decide/rank.h"
#include "analyzer/machine/topology.h"

/* One -D NAME=VALUE: VALUE/DEN in lowest terms.  Sizes and axes are integers
 * (DEN 1, or 0, read as 1); g and l may be fractions (-D g=10.2 is 51/5). */
struct param_value {
	const char *name;
	long long value;
	long long den;
};

/* *OUT = PV's value, exactly (OUT initialized). */
void param_value_get(mpq_t out, const struct param_value *pv);

/* The report formats (-f). */
enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_MARKDOWN,
	FORMAT_LATEX,
	FORMAT_CSV,
};

/* What the user asked of a report. */
struct report_request {
	const struct param_value *defs;   /* -D values, in command-line order */
	int ndefs;
	bool explain;                     /* --explain */
	bool values_only;                 /* --values */
	bool summary;                     /* --summary: the summary alone */
	int width;                        /* --width: text wraps formulas at it (0: never) */
	int digits;                       /* --digits: values for people rounded (0: exact) */
	/* --machine: its name, the processes its g and l are for, and its flop/s
	 * (NULL when the profile gives none: no seconds) */
	const char *machine;
	long machine_procs;
	mpq_srcptr speed;
	const struct cost_model *model;   /* the cost function (NULL: w + h*g + l) */
};

struct analysis {
	const char *file;
	int nassumptions;
	char **assumptions;        /* the specification's own, as written */
	bool symbolic;
	int naxes;
	const char *const *axes;
	long sizes[3];             /* the grid, when !symbolic */
	int ncands;
	struct candidate_cost *cands;
	/* When every parameter has a value: the same candidates on that concrete
	 * grid, whose formulas give the exact numbers (NULL otherwise). */
	struct candidate_cost *exact;
	const struct report_request *rq; /* -D values, --explain */
	enum numbering numbering;  /* --hierarchy's (cost_request.numbering) */
	const struct topology *topology;  /* --topology's: D-BSP costs (NULL: none) */
	const struct checked_spec *spec; /* for --explain: the statements */
	const struct model *model;       /* analyzed (the library reads its assumptions) */
};

/* The quantities of a superstep, in report order: Q_N of them always, then
 * the messages' where they were counted (report_step_msgs). */
enum quantity { Q_W, Q_H, Q_H_IN, Q_H_OUT, Q_NCOM, Q_COST, Q_MEM, Q_N,
		Q_MSGS = Q_N, Q_MSGS_IN, Q_MSGS_OUT, Q_ALL };
extern const char *const quantity_name[Q_ALL];     /* "w", "h", "h_in", ... */
/* Whether S's messages were counted (then each of Q_MSGS .. Q_MSGS_OUT has
 * a formula, or *WHY says why none has; WHY may be NULL). */
bool report_step_msgs(const struct step_cost *s, const char **why);
/* How step S of candidate C shows its messages, FS its formulas (NULL:
 * values only): MSGS_NONE (not counted at all), MSGS_WHY (neither formulas
 * nor values: only *WHY), or MSGS_LINES (a line per quantity: the formulas
 * where FS has them, else "no formula: *WHY", and the values where the
 * counts at values have them). */
enum msgs_shown { MSGS_NONE, MSGS_WHY, MSGS_LINES };
enum msgs_shown report_msgs_shown(const struct analysis *a, int c, int s,
				  const struct step_cost *fs, const char **why);
const struct formula *step_quantity(const struct step_cost *s, enum quantity q);
/* Why superstep S has no formulas, its candidate keeping the others'
 * (step_cost.refused, without the superstep's name before it); NULL where
 * it has them. */
const char *report_step_refusal(const struct step_cost *s);
/* What the supersteps of a candidate whose formulas are kept
 * (candidate_cost.formulas_kept) lack: "one run's where the runs have no
 * sum", "none where refused", or both. */
const char *report_kept_note(const struct candidate_cost *cc);
/* Why quantity Q of step S has no formula while the others have (a
 * transpose's NCom, step_cost.ncom_why; every one but mem of a refused
 * superstep, report_step_refusal); NULL otherwise. */
const char *step_quantity_why(const struct step_cost *s, enum quantity q);
/* The same for superstep S of candidate C of A's formulas; NULL for the
 * total (S < 0) or a superstep it has no formulas for. */
const char *report_quantity_why(const struct analysis *a, int c, int s, enum quantity q);
/* Whether S, a superstep in loops of a candidate's formulas, has no sums
 * over its runs (candidate_cost.formulas_kept: one run's formulas only). */
bool report_step_sumless(const struct step_cost *s);
/* The quantities the reports give of one run of a superstep in loops, in
 * order, and quantity Q of one run of S (NULL at values, and for another Q). */
enum { RUN_N = 4 };
extern const enum quantity run_quantity[RUN_N];
const struct formula *run_formula(const struct step_cost *s, enum quantity q);

/* The cost function of RQ (its model, or w + h*g + l). */
const struct cost_model *report_model(const struct report_request *rq);

/* CM's coefficients for a sentence, "g and l" or "g_i, g_o and l"
 * (at most 40 characters) into BUF. */
const char *report_coef_list(char buf[64], const struct cost_model *cm);
/* The coefficients of RQ's cost function that no -D gives, as above (all
 * of them when every one is given). */
const char *report_missing_coefs(char buf[64], const struct report_request *rq);

/* "cost function F_io: w + h_in*g_i + h_out*g_o + l, summed over the
 * supersteps" and a newline, when CM is not the default (nothing else). */
void report_model_line(FILE *out, const struct cost_model *cm);

/* F, quantity Q, as text in STYLE (malloc'd; NULL when F is NULL or on
 * failure): a cost collected by the coefficients of CM (g and l, ...),
 * every other quantity as it is. */
char *report_quantity_text(const struct formula *f, enum quantity q, enum formula_style style,
			   const struct cost_model *cm);

/* The value of quantity Q of candidate C (step S, the total when S < 0) to
 * print beside its formula F, rounded as --digits asks; NULL when it has
 * none, or when it is F's own text (a constant: "0", not "0 = 0"). */
char *report_value_beside(const struct analysis *a, int c, int s, enum quantity q,
			  const struct formula *f);

/* Whether the -D value I of A's request is one of A's: a size or an axis of
 * its specification, or g or l (with several files, each report lists its
 * own values). */
bool report_given(const struct analysis *a, int i);

/* The same, and not an axis of A's grid: a value the grid's own part of a
 * title does not already show (--per-process). */
bool report_given_size(const struct analysis *a, int i);

/* "; n = 64, m = 32": the sizes given (report_given_size) after "; ",
 * nothing when none is. */
void report_sizes_given(FILE *out, const struct analysis *a);

/* Why candidate C of A has no counts at values (A->exact), or NULL when it
 * has them (--per-process's tables, --hierarchy's levels). */
const char *report_no_counts(const struct analysis *a, int c);

/* {"m": 64, "g": "51/5", ...}: the -D values I of A for which KEEP(A, I)
 * (report_given or report_given_size), as JSON. */
void report_json_values(FILE *out, const struct analysis *a,
			bool (*keep)(const struct analysis *, int));

/* The exact value of F at the -D values of RQ, as a malloc'd decimal or
 * fraction, or NULL when some parameter it needs has no value. */
char *formula_value_text(const struct formula *f, const struct report_request *rq);
/* The same, NULL too when it is TEXT (F's text as printed) already: what a
 * report writes beside a formula. */
char *formula_value_beside(const struct formula *f, const char *text,
			   const struct report_request *rq);
/* The value beside TEXT, the iterations of superstep S of candidate C
 * (SC, its formulas' step): their formula at the -D values, else the number
 * counted at those values (a doubling loop's lg_P has no -D value); NULL
 * when neither differs from TEXT.  Caller frees. */
char *report_iterations_value(const struct analysis *a, int c, int s,
			      const struct step_cost *sc, const char *text);
/* The same number whatever TEXT is (JSON gives it always); NULL when there
 * is none. */
char *report_iterations_number(const struct analysis *a, int c, int s,
			       const struct step_cost *sc);

/* The exact value of quantity F of candidate C (step S, or the total when S < 0)
 * as a malloc'd decimal or fraction, or NULL when some parameter has no value. */
char *report_value(const struct analysis *a, int c, int s, enum quantity q);

/* The same for people: rounded as --digits asks (report_number_digits); the
 * text, Markdown and LaTeX reports print these, JSON and CSV the exact. */
char *report_value_shown(const struct analysis *a, int c, int s, enum quantity q);

/* *OUT = candidate C's total cost at the values given (exact); -1 when some
 * value is missing or C has no values. */
int report_cost_number(const struct analysis *a, int c, mpq_t out);

/* The time of candidate C's cost on the machine of A's request (cost / s),
 * malloc'd: exact (report_number), then " (~2.695 s)" rounded to four
 * significant digits when it is no short decimal; NULL without a machine's
 * speed or without the cost's value.  *EXACT (may be NULL) gets the exact
 * number alone. */
char *report_seconds(const struct analysis *a, int c, char **exact);

/* The first of candidate C's conditions (what its formulas rest on) that the -D
 * values break, malloc'd, or NULL when they hold or cannot be tested; NULL
 * with *FAILED set (FAILED may be NULL) when out of memory, when whether
 * they hold is not known: no value of a formula is to be printed then. */
char *report_broken_condition(const struct analysis *a, int c, bool *failed);

/* The same for the note under candidate C's formulas, NULL as well when C
 * has none or no -D value is given (report_given_size: a size, or g or l,
 * which no condition names; an axis alone on the symbolic grid is not
 * tested).  With every value given (a->exact) the
 * numbers printed are exact counts there, not values of the formulas; with
 * some sizes only, the formulas do not hold at them (a condition that names
 * only sizes given can be tested: 128 divides m, with -D m=500). */
char *report_formulas_broken(const struct analysis *a, int c, bool *failed);

/* Q exactly, malloc'd: "12", a decimal when Q has one ("10.2", "-0.125"),
 * else a fraction ("1/3"); NULL when out of memory. */
char *report_number(const mpq_t q);

/* Q for people, with --digits DIGITS (0: exactly, as report_number): an
 * integer, or a decimal of at most DIGITS significant digits, exactly;
 * anything else rounded to DIGITS significant digits and marked so
 * ("~0.3333").  Malloc'd; NULL when out of memory. */
char *report_number_digits(const mpq_t q, int digits);

/* Q rounded to four significant digits and marked so ("~0.0003361"),
 * malloc'd, when report_number would write a fraction or more than 10
 * characters; NULL when that exact text is short enough to show as is. */
char *report_rounded(const mpq_t q);

/* PV's value as report_number writes it (in JSON, a string unless an
 * integer). */
void report_param_value(FILE *out, const struct param_value *pv, bool json);

/* S as a CSV field: quoted, its quotes doubled (NULL: ""). */
void report_csv_field(FILE *out, const char *s);
/* A line of an aligned table: CELL[c] padded to WIDTH[c], LEFT[c] to the
 * left (else right), two spaces between; NULL cells are left out, and the
 * last cell is not padded. */
void report_aligned_row(FILE *out, const char *const cell[], const size_t width[],
			const bool left[], int ncols);

/* An exact number as report_number writes it, in JSON: null for NULL, bare
 * when an integer, else a string (no JSON number is exact). */
void report_json_number_text(FILE *out, const char *s);

/* S as Markdown text within a line (never at its start): every character
 * that could start inline markup or end a GFM table cell backslashed. */
void report_md_text(FILE *out, const char *s);

/* S as LaTeX text, its special characters escaped; with BREAKS, a line may
 * break after each of its commas and slashes. */
void report_latex_text(FILE *out, const char *s, bool breaks);

/* S as a Markdown code span, delimited by one more backquote than its longest
 * run of them; in a GFM table cell (CELL) with every '|' escaped, as GFM
 * splits a row at every unescaped '|', code spans included. */
void report_md_code(FILE *out, const char *s, bool cell);

/* S as a JSON string, quotes included. */
void report_json_string(FILE *out, const char *s);

/* --check: "FILE: ok: 1 param, grid 1 axis (P), ..." */
void report_check_summary(FILE *out, const char *name, const struct checked_spec *cs);

/* --count: the count's FORMULA and, when every parameter has a value, its
 * VALUE (NULL otherwise), as text or as JSON. */
void report_count(FILE *out, bool json, const char *formula, const char *value);

/* The one form of an error of the command line or of a run, on ERR:
 * "bspcost: WHAT: MESSAGE" (WHAT, the file or option it is about, may be
 * NULL: "bspcost: MESSAGE"), MESSAGE as printf writes FMT, then a new line.
 * A specification's own diagnostics are grammar/diag.h's (FILE:LINE:COLUMN:
 * error: MESSAGE). */
void report_error(FILE *err, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* report_error of a message written in parts on T (util/text.h; T->f NULL
 * when text_open failed), T closed; returns STATUS, or 1 (EXIT_SPEC) when
 * the message could not be written for want of memory, which it says
 * instead. */
struct text;
int report_text_error(FILE *err, const char *what, struct text *t, int status);

/* The one form of an error in a file bspcost reads beside the specification
 * (a numbering of the processes), as a specification's diagnostics read:
 * "FILE:LINE: error: MESSAGE", or "FILE: error: MESSAGE" for LINE 0 (the
 * file as a whole), then a new line. */
void report_file_error(FILE *err, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The run's deadline of SECONDS passed during WHAT ("--count", a file's
 * name): said once, on OUT (the diagnostics), with FINISHED of TOTAL
 * candidates finished when TOTAL > 0, and the number of candidates whose
 * --verify it cut short (VERIFY_CUT). */
void report_deadline(FILE *out, const char *what, double seconds, int finished, int total,
		     int verify_cut);

/* A progress line on a terminal: DONE of TOTAL WHAT done, SECONDS so far,
 * about LEFT more (LEFT < 0: no guess); written over the previous one.
 * report_progress_end erases it. */
void report_progress(FILE *out, const char *what, int done, int total, double seconds,
		     double left);
void report_progress_end(FILE *out);

/* The same when the deadline cut the formulas of LATE of TOTAL candidates
 * while every value at the -D values was counted. */
void report_deadline_formulas(FILE *out, const char *what, double seconds, int late, int total);
/* The same when the deadline has not passed but LATE of TOTAL candidates (and
 * VERIFY_CUT --verify runs) were stopped at their share of it while others
 * waited (workers.h); VALUES_COUNTED: their values were counted all the same. */
void report_deadline_shares(FILE *out, const char *what, double seconds, int late, int total,
			    bool values_counted, int verify_cut);

/* --verify: one candidate's failure or the reason it was skipped (WHAT), and
 * the total for FILE. */
void report_verify_candidate(FILE *out, const char *cand, const char *what);
void report_verify_total(FILE *out, const char *file, int points, int checks, int mismatches);
/* --verify: the number of points CAND was checked at. */
void report_verify_points(FILE *out, const char *cand, int points);

/* -p: the ranking of one process count of one file (report_rank.c). */
struct ranking {
	const char *file;
	int naxes;
	const char *const *axes;
	int ncands;
	const char *const *cands;      /* the candidates' names */
	int nvalues;                   /* the values counted at: every size, then the
					* cost function's coefficients (g and l) */
	const struct param_value *values;
	const struct rank_table *t;    /* sorted (rank_table_sort) */
	int top;                       /* --top: the ranked rows shown (0: all) */
	bool first;                    /* the run's first ranking (CSV: the header) */
	const char *machine;           /* --machine's name (NULL: none) */
	mpq_srcptr speed;              /* its flop/s for this count (NULL: no seconds) */
	const struct cost_model *model;   /* the cost function (NULL: w + h*g + l) */
	int digits;                    /* --digits: text and Markdown round (0: exact) */
	/* a point of a sweep (-D n=256..8192*2): VALUES[SWEPT[k]] are its
	 * swept sizes (NSWEPT 0: no sweep) */
	int nswept;
	const int *swept;
	/* -p without g and l (w + h*g + l): the rows no other beats for any
	 * machine and where each is the best (NULL: the prices are given) */
	const struct pareto *every_machine;
};

/* R when R->every_machine is set (-p without g and l): the rows no other
 * row beats for any g, l >= 0, each with the region of (g, l) where it is
 * the best; the dominated rows (JSON and CSV list them), and the rows not
 * counted. */
void report_every_machine(FILE *out, enum output_format format, const struct ranking *r);

/* {"file", "procs", "machine", "model", "axes", "values" (but the swept
 * ones): the head of the JSON of a ranking or a sweep, its brace open. */
void report_rank_json_head(FILE *out, const struct ranking *r);

/* A row's status as JSON and CSV name it: "ranked", "outside", "refused",
 * "failed" or "late". */
const char *report_rank_status(enum rank_status st);

/* Shape S of T as "8x8" (at most 63 characters). */
void shape_label(char buf[64], const struct rank_table *t, int s);

/* A sweep: R[0..N), one ranking per point of the ranges, every other field
 * as R[0]'s.  Text and Markdown: a row per point, its best row (and how many
 * tie with it); JSON: {"file", "procs", "machine", "model", "axes", "values"
 * (the fixed ones), "points": [{"values", "ranking", "refused"}]}; CSV: the
 * rows of -p's CSV with a column per swept size. */
/* A ranking, or the points R[0..N) of a sweep, in FORMAT (not LaTeX: text
 * then); TABLES is how many the run printed before (text and Markdown put a
 * blank line between them). */
void report_ranking(FILE *out, enum output_format format, const struct ranking *r, int tables);

/* --compare A B (report_compare.c): candidates CA and CB of A (A.cands their
 * formulas), compared as CMP found: their costs, the assumptions the
 * conditions rest on, the three conditions (A costs less, the same, B costs
 * less) and, with the values given, the two costs and their difference term
 * by term. */
void report_compare(FILE *out, enum output_format format, const struct analysis *a, int ca,
		    int cb, const struct comparison *cmp);
void report_sweep(FILE *out, enum output_format format, const struct ranking *r, int n,
		  int tables);

void report_sweep_text(FILE *out, const struct ranking *r, int n);
void report_sweep_json(FILE *out, const struct ranking *r, int n);
void report_sweep_csv(FILE *out, const struct ranking *r, int n);
void report_sweep_markdown(FILE *out, const struct ranking *r, int n);

void report_rank_text(FILE *out, const struct ranking *r);
void report_rank_json(FILE *out, const struct ranking *r);
void report_rank_csv(FILE *out, const struct ranking *r);
void report_rank_markdown(FILE *out, const struct ranking *r);
void report_rank_latex(FILE *out, const struct ranking *r);
void report_sweep_latex(FILE *out, const struct ranking *r, int n);

/* --plot: pictures drawn by gnuplot (report_plot.c), by the file's suffix. */
enum plot_format { PLOT_NONE, PLOT_SVG, PLOT_PNG };
enum plot_format plot_format_of(const char *file);

/* The gnuplot script that draws PICTURE (an .svg or .png file): the cost of
 * every candidate of R against the grid shape, a line per candidate, the
 * shapes in their order (1x64, 2x32, ..., 64x1), the ranked rows only. */
void report_rank_plot(FILE *out, const struct ranking *r, const char *picture);

/* The gnuplot script of a sweep of one range, R[0..N) (report_sweep_text):
 * for every candidate, its lowest cost over the shapes against the swept
 * size, a line each, the best of every point circled; log scales where the
 * values span more than a factor of 100. */
void report_sweep_plot(FILE *out, const struct ranking *r, int n, const char *picture);

/* --per-process: the counts of each process of A's concrete grid (A->exact,
 * counted with cost_request.per_process), in FORMAT (not LaTeX); and the
 * gnuplot script of their picture: a panel per candidate, each process's
 * fan-in and fan-out summed over the supersteps, as bars. */
void report_per_process(FILE *out, enum output_format format, const struct analysis *a);
void report_process_plot(FILE *out, const struct analysis *a, const char *picture);
/* --hierarchy --plot: the gnuplot script of H(i) against the level i, a
 * panel per candidate of A->exact, a line per superstep and the bound its
 * alpha sets. */
void report_hierarchy_plot(FILE *out, const struct analysis *a, const char *picture);

/* --hierarchy: each superstep's H(0 .. k-1) and alpha on A's concrete grid
 * of 2^k processes (A->exact, counted with cost_request.hierarchy, the
 * processes numbered A->numbering), in FORMAT (not LaTeX). */
void report_hierarchy(FILE *out, enum output_format format, const struct analysis *a);
/* -p --hierarchy: the N tables TABS (sorted), one per process count, of
 * FILE's shapes (its AXES), numberings and candidates (CANDS), ranked
 * by D-BSP cost; DEFS the -D values; in FORMAT (not LaTeX). */
void report_hierarchy_ranking(FILE *out, enum output_format format, const char *file,
			      const struct param_value *defs, int ndefs, const char *const *axes,
			      const char *const *cands, const struct hier_ranking *tabs, int n);

/* FILE's grid (the NAXES AXES of SIZES) is no grid of 2^k processes, on
 * ERR. */
void report_hierarchy_grid(FILE *err, const char *file, int naxes, const char *const *axes,
			   const long sizes[]);

/* -p without a value for every size: the line that follows the symbolic
 * analysis, naming the NMISSING values MISSING to give to rank the shapes of
 * the NPROCS counts PROCS, the last OPTIONAL of them (g and l) said to be
 * optional: without them the ranking is for every machine. */
void report_rank_needs_values(FILE *out, const char *file, const long *procs, int nprocs,
			      const char *const *missing, int nmissing, int optional);

/* -p: the N process counts PROCS the deadline left unranked. */
void report_rank_not_started(FILE *out, const char *file, const long *procs, int n);

void report_text(FILE *out, const struct analysis *a);
void report_json(FILE *out, const struct analysis *a);
void report_markdown(FILE *out, const struct analysis *a);
void report_latex(FILE *out, const struct analysis *a);
void report_csv(FILE *out, const struct analysis *a);
/* A in FORMAT: one of the five above. */
void report_analysis(FILE *out, enum output_format format, const struct analysis *a);

#endif
