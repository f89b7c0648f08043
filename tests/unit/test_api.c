/* libbspcost through its public header alone (bspcost.h): diagnostics as
 * data, requests refused with their reasons, results walked, formulas
 * evaluated against the values the library counts directly at the same
 * points, rankings, and sessions on two threads.  The bytes of its reports
 * are held against the command line's by tests/resilience/library_render.sh. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/api/bspcost.h"

static bspcost_session *session(void)
{
	bspcost_session *s = bspcost_session_new(60);
	assert_non_null(s);
	return s;
}

static void diagnostics_as_data(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_parse(s, "bad.bsp",
						"param n;\ngrid P;\narray A[n];\n"
						"layout A : block over Q;\n"
						"superstep s { forall i < n : A[i] = A[i]; }\n");
	assert_non_null(spec);
	assert_int_equal(bspcost_spec_status(spec), BSPCOST_ERROR);
	assert_int_equal(bspcost_spec_ndiagnostics(spec), 1);
	assert_int_equal(bspcost_spec_diagnostic_severity(spec, 0), BSPCOST_SEVERITY_ERROR);
	assert_int_equal(bspcost_spec_diagnostic_line(spec, 0), 4);
	assert_int_equal(bspcost_spec_diagnostic_column(spec, 0), 23);
	assert_string_equal(bspcost_spec_diagnostic_message(spec, 0), "undefined name 'Q'");
	assert_null(bspcost_spec_diagnostic_message(spec, 1));
	/* as the command line prints it */
	assert_non_null(strstr(bspcost_session_message(s), "bad.bsp:4:23: error: undefined name 'Q'"));
	assert_int_equal(bspcost_spec_ncandidates(spec), 0);
	/* nothing to analyze: the same diagnostics said again, no result */
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *r = (bspcost_result *)rq;   /* overwritten */
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_ERROR);
	assert_null(r);
	assert_non_null(strstr(bspcost_session_message(s), "undefined name 'Q'"));
	bspcost_request_free(rq);
	bspcost_spec_free(spec);

	spec = bspcost_spec_load(s, "/nonexistent/spec.bsp");
	assert_non_null(spec);
	assert_int_equal(bspcost_spec_status(spec), BSPCOST_ERROR);
	assert_int_equal(bspcost_spec_ndiagnostics(spec), 1);
	assert_int_equal(bspcost_spec_diagnostic_line(spec, 0), 0);
	assert_string_equal(bspcost_spec_diagnostic_message(spec, 0), "No such file or directory");
	assert_string_equal(bspcost_session_message(s),
			    "/nonexistent/spec.bsp: error: No such file or directory\n");
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

static void introspection(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil2d.bsp");
	assert_int_equal(bspcost_spec_status(spec), BSPCOST_OK);
	assert_string_equal(bspcost_session_message(s), "");
	assert_int_equal(bspcost_spec_nsizes(spec), 2);
	assert_string_equal(bspcost_spec_size(spec, 0), "n");
	assert_string_equal(bspcost_spec_size(spec, 1), "m");
	assert_null(bspcost_spec_size(spec, 2));
	assert_int_equal(bspcost_spec_naxes(spec), 2);
	assert_string_equal(bspcost_spec_axis(spec, 1), "N");
	assert_int_equal(bspcost_spec_ncandidates(spec), 4);
	assert_string_equal(bspcost_spec_candidate(spec, 0), "rows=block,cols=block");
	assert_null(bspcost_spec_candidate(spec, -1));
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

static void requests_refused(void **state)
{
	(void)state;
	bspcost_request *rq = bspcost_request_new();
	assert_int_equal(bspcost_request_set(rq, "n", "abc"), BSPCOST_USAGE);
	assert_string_equal(bspcost_request_message(rq),
			    "bad -D 'n=abc': expected NAME=INTEGER (the cost's coefficients, g, l, "
			    "..., may also be a decimal, 10.2 or 26e6, or a fraction, 1/3)");
	assert_int_equal(bspcost_request_set(rq, "n", "1..8*1"), BSPCOST_USAGE);
	assert_string_equal(bspcost_request_message(rq),
			    "bad -D 'n=1..8*1': a geometric range multiplies by K >= 2");
	assert_int_equal(bspcost_request_set(rq, "n", "64"), BSPCOST_OK);
	assert_string_equal(bspcost_request_message(rq), "");
	assert_int_equal(bspcost_request_model(rq, "nope"), BSPCOST_USAGE);
	assert_non_null(strstr(bspcost_request_message(rq), "--model 'nope': no such cost function"));
	long none[1] = {0};
	assert_int_equal(bspcost_request_grid(rq, 1, none), BSPCOST_USAGE);
	assert_int_equal(bspcost_request_grid(rq, 4, none), BSPCOST_USAGE);
	assert_int_equal(bspcost_request_procs(rq, 0), BSPCOST_USAGE);

	/* what only a specification can tell: a name it does not have, values
	 * that break its assumptions, sizes in a coefficient's place */
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil1d.bsp");
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_request_set(rq, "zz", "3"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_null(r);
	assert_non_null(strstr(bspcost_session_message(s), "examples/stencil1d.bsp: -D zz"));
	bspcost_request_clear_values(rq);
	assert_int_equal(bspcost_request_set(rq, "n", "2"), BSPCOST_OK);
	assert_int_equal(bspcost_request_set(rq, "P", "8"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_non_null(strstr(bspcost_session_message(s), "break the assumption n >= 2 * P"));
	bspcost_request_clear_values(rq);
	assert_int_equal(bspcost_request_set(rq, "n", "1/2"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_non_null(strstr(bspcost_session_message(s), "sizes and axes are integers"));
	/* -p is for bspcost_rank */
	bspcost_request_clear_values(rq);
	assert_int_equal(bspcost_request_procs(rq, 4), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	bspcost_ranking *k = NULL;
	/* a ranking needs every size: what -p says is the message */
	assert_int_equal(bspcost_rank(s, spec, rq, &k), BSPCOST_USAGE);
	assert_null(k);
	assert_non_null(strstr(bspcost_session_message(s), "give -D n=VALUE"));
	bspcost_spec_free(spec);
	bspcost_request_free(rq);
	bspcost_session_free(s);
}

/* A transpose between blocks over two axes: formulas for all but NCom,
 * which says why it has none. */
static void formula_why(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/transpose.bsp");
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	assert_string_equal(bspcost_result_candidate(r, 0), "blocks");
	assert_int_equal(bspcost_result_status(r, 0), BSPCOST_OK);
	assert_string_equal(bspcost_result_formula(r, 0, 0, BSPCOST_H),
			    "m*n/(M*N) if M >= 2 && N >= 2; m*n*(N-1)/N^2 if M == 1; "
			    "m*n*(M-1)/M^2 if M >= 2 && N == 1");
	assert_null(bspcost_result_formula_why(r, 0, 0, BSPCOST_H));
	assert_null(bspcost_result_formula(r, 0, 0, BSPCOST_NCOM));
	const char *why = bspcost_result_formula_why(r, 0, 0, BSPCOST_NCOM);
	assert_non_null(why);
	assert_non_null(strstr(why, "common factors of M and N"));
	/* the aligned candidate has an NCom formula, and no reason */
	assert_string_equal(bspcost_result_formula(r, 2, 0, BSPCOST_NCOM), "0");
	assert_null(bspcost_result_formula_why(r, 2, 0, BSPCOST_NCOM));
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

/* A candidate the symbolic grid refuses for one superstep keeps the
 * others' formulas: PDGEMM's A-stationary, its partial products split over
 * both axes, its combine step whole. */
static void refused_superstep(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/pdgemm.bsp");
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	assert_string_equal(bspcost_result_candidate(r, 1), "a_stationary");
	assert_int_equal(bspcost_result_status(r, 1), BSPCOST_ERROR);
	assert_non_null(strstr(bspcost_result_why(r, 1), "partial: l is split both"));
	assert_int_equal(bspcost_result_nsupersteps(r, 1), 2);
	assert_string_equal(bspcost_result_superstep(r, 1, 0), "partial");
	assert_null(bspcost_result_formula(r, 1, 0, BSPCOST_H));
	const char *why = bspcost_result_formula_why(r, 1, 0, BSPCOST_H);
	assert_non_null(why);
	assert_true(strncmp(why, "l is split both", 15) == 0);   /* without "partial: " */
	assert_string_equal(bspcost_result_superstep(r, 1, 1), "combine");
	assert_string_equal(bspcost_result_formula(r, 1, 1, BSPCOST_H), "m*n*(N-1)/(M*N)");
	assert_null(bspcost_result_formula_why(r, 1, 1, BSPCOST_H));
	/* no total */
	assert_null(bspcost_result_formula(r, 1, BSPCOST_PROGRAM, BSPCOST_COST));
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

static void symbolic_result(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil1d.bsp");
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	assert_int_equal(bspcost_result_ncandidates(r), 2);
	assert_string_equal(bspcost_result_candidate(r, 0), "d=block");
	assert_int_equal(bspcost_result_status(r, 0), BSPCOST_OK);
	assert_null(bspcost_result_why(r, 0));
	assert_int_equal(bspcost_result_nassumptions(r, 0), 1);
	assert_string_equal(bspcost_result_assumption(r, 0, 0), "P divides n");
	assert_int_equal(bspcost_result_nsupersteps(r, 0), 1);
	assert_string_equal(bspcost_result_superstep(r, 0, 0), "relax");
	assert_string_equal(bspcost_result_formula(r, 0, BSPCOST_PROGRAM, BSPCOST_COST),
			    "3*n/P + 2*g + l if P >= 3; 3*n/P - 6 + l if P == 1; "
			    "3*n/P - 3 + g + l if P == 2");
	assert_string_equal(bspcost_result_formula(r, 1, 0, BSPCOST_H), "2*n/P if P >= 3; 0 if P == 1; n/P if P == 2");
	assert_string_equal(bspcost_result_formula(r, 0, 0, BSPCOST_MEM), "2*n/P");
	assert_null(bspcost_result_value(r, 0, 0, BSPCOST_H));   /* no values given */
	assert_null(bspcost_result_formula(r, 0, BSPCOST_PROGRAM, BSPCOST_H));
	assert_null(bspcost_result_formula(r, 2, 0, BSPCOST_H));

	/* 3*64/8 + 2*1 + 10 */
	const char *names[] = {"n", "P", "g", "l"};
	long long values[] = {64, 8, 1, 10}, num = 0, den = 0;
	double approx = 0;
	assert_int_equal(bspcost_result_eval(r, 0, BSPCOST_PROGRAM, BSPCOST_COST, 4, names, values,
					     &num, &den, &approx),
			 BSPCOST_OK);
	assert_int_equal(num, 36);
	assert_int_equal(den, 1);
	assert_true(approx == 36.0);
	/* P does not divide n: the formulas promise nothing there */
	long long off[] = {63, 8, 1, 10};
	assert_int_equal(bspcost_result_eval(r, 0, BSPCOST_PROGRAM, BSPCOST_COST, 4, names, off,
					     &num, &den, NULL),
			 BSPCOST_USAGE);
	/* g missing */
	assert_int_equal(bspcost_result_eval(r, 0, BSPCOST_PROGRAM, BSPCOST_COST, 2, names, values,
					     &num, &den, NULL),
			 BSPCOST_USAGE);
	/* every format rendered, the machine grammar among them */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(bspcost_result_render(r, BSPCOST_JSON, out), BSPCOST_OK);
	fclose(out);
	assert_non_null(strstr(text, "\"name\": \"d=block\""));
	free(text);
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

/* Every quantity of every superstep and program of FILE's symbolic
 * formulas, evaluated through bspcost_result_eval at each point of POINTS
 * (NAMES[0..N) each, then g = 3, l = 17), against the value the library
 * counts at that point (a question with those values alone).  A formula
 * that gives a value must give the count.  INSIDE[p] says whether point p
 * meets what every candidate's formulas assume: there every formula must
 * give a value, elsewhere some formula must refuse the point.  Returns how
 * many values were compared. */
static int eval_against_counts(const char *file, int n, const char *const names[],
			       const long long *points, const bool *inside, int npoints)
{
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, file);
	assert_int_equal(bspcost_spec_status(spec), BSPCOST_OK);
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *sym = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &sym), BSPCOST_OK);
	bspcost_request_values_only(rq, 1);   /* counted at the values alone */
	int compared = 0;
	const char *all[8];
	long long v[8];
	for (int i = 0; i < n; i++)
		all[i] = names[i];
	all[n] = "g";
	all[n + 1] = "l";
	for (int p = 0; p < npoints; p++) {
		bspcost_request_clear_values(rq);
		char text[32];
		for (int i = 0; i < n; i++) {
			v[i] = points[p * n + i];
			snprintf(text, sizeof(text), "%lld", v[i]);
			assert_int_equal(bspcost_request_set(rq, names[i], text), BSPCOST_OK);
		}
		v[n] = 3;
		v[n + 1] = 17;
		assert_int_equal(bspcost_request_set(rq, "g", "3"), BSPCOST_OK);
		assert_int_equal(bspcost_request_set(rq, "l", "17"), BSPCOST_OK);
		bspcost_result *at = NULL;
		assert_int_equal(bspcost_analyze(s, spec, rq, &at), BSPCOST_OK);
		int formulas = 0, refused = 0;
		for (int c = 0; c < bspcost_result_ncandidates(sym); c++)
			for (int st = BSPCOST_PROGRAM; st < bspcost_result_nsupersteps(sym, c); st++)
				for (int q = BSPCOST_W; q <= BSPCOST_MEM; q++) {
					if (!bspcost_result_formula(sym, c, st, q))
						continue;
					formulas++;
					long long num, den;
					enum bspcost_status e = bspcost_result_eval(sym, c, st, q, n + 2, all,
										    v, &num, &den, NULL);
					refused += e == BSPCOST_USAGE;
					if (!inside[p] && e == BSPCOST_USAGE)
						continue;
					if (e != BSPCOST_OK)
						fail_msg("%s: point %d: quantity %d of candidate %d, superstep "
							 "%d does not evaluate (status %d)", file, p, q, c, st, e);
					const char *want = bspcost_result_value(at, c, st, q);
					assert_non_null(want);
					char got[64];
					if (den == 1)
						snprintf(got, sizeof(got), "%lld", num);
					else
						snprintf(got, sizeof(got), "%lld/%lld", num, den);
					if (strcmp(got, want) != 0)
						fail_msg("%s: candidate %d, superstep %d, quantity %d at point %d: "
							 "the formula gives %s, the count %s",
							 file, c, st, q, p, got, want);
					compared++;
				}
		assert_true(formulas > 0);
		/* outside: some formula (a candidate's whose assumptions the point
		 * breaks) refuses it; every value given is still the count */
		if (!inside[p] && refused == 0)
			fail_msg("%s: point %d breaks an assumption of the formulas, yet none "
				 "refuses it", file, p);
		bspcost_result_free(at);
	}
	bspcost_result_free(sym);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
	return compared;
}

static void eval_equals_counts(void **state)
{
	(void)state;
	/* stencil1d: n and P; P divides n or the formulas promise nothing */
	const char *n1[] = {"n", "P"};
	const long long p1[] = {16, 1, 16, 2, 24, 3, 32, 4, 40, 5, 18, 4, 64, 8};
	const bool i1[] = {true, true, true, true, true, false, true};
	assert_int_equal(eval_against_counts("examples/stencil1d.bsp", 2, n1, p1, i1, 7), 6 * 2 * 9);
	/* reduce: a doubling loop, lg_P = log2(P) among the names the formulas
	 * need; P = 6 is no power of two */
	const char *n2[] = {"P"};
	const long long p2[] = {1, 2, 4, 8, 16, 6};
	const bool i2[] = {true, true, true, true, true, false};
	assert_true(eval_against_counts("examples/reduce.bsp", 1, n2, p2, i2, 6) >= 5 * 2 * 9);
	/* jacobi: T sweeps, sums over the loop */
	const char *n3[] = {"n", "T", "P"};
	const long long p3[] = {16, 3, 2, 24, 5, 4, 12, 1, 3, 14, 2, 4};
	const bool i3[] = {true, true, true, false};
	assert_true(eval_against_counts("examples/jacobi.bsp", 3, n3, p3, i3, 4) >= 3 * 9);
	/* matvec: two axes */
	const char *n4[] = {"m", "n", "M", "N"};
	const long long p4[] = {8, 8, 2, 2, 12, 6, 3, 2, 6, 9, 1, 3, 6, 9, 4, 3};
	const bool i4[] = {true, true, true, false};
	assert_true(eval_against_counts("examples/matvec.bsp", 4, n4, p4, i4, 4) >= 3 * 9);

	/* a point the specification's own assumptions exclude (n >= 2 * P),
	 * and one without a process */
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil1d.bsp");
	bspcost_request *rq = bspcost_request_new();
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	const char *names[] = {"n", "P", "g", "l"};
	long long small[] = {8, 8, 1, 1}, none[] = {0, 0, 1, 1}, ok[] = {16, 8, 1, 1}, num;
	assert_int_equal(bspcost_result_eval(r, 0, 0, BSPCOST_W, 4, names, ok, &num, NULL, NULL),
			 BSPCOST_OK);
	assert_int_equal(num, 6);
	assert_int_equal(bspcost_result_eval(r, 0, 0, BSPCOST_W, 4, names, small, &num, NULL, NULL),
			 BSPCOST_USAGE);
	assert_int_equal(bspcost_result_eval(r, 0, 0, BSPCOST_W, 4, names, none, &num, NULL, NULL),
			 BSPCOST_USAGE);
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

static void ranking(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/matmul.bsp");
	bspcost_request *rq = bspcost_request_new();
	const char *set[][2] = {{"m", "64"}, {"n", "64"}, {"o", "64"}, {"g", "1"}, {"l", "100"}};
	for (int i = 0; i < 5; i++)
		assert_int_equal(bspcost_request_set(rq, set[i][0], set[i][1]), BSPCOST_OK);
	assert_int_equal(bspcost_request_procs(rq, 4), BSPCOST_OK);
	assert_int_equal(bspcost_request_procs(rq, 2), BSPCOST_OK);
	bspcost_ranking *k = NULL;
	assert_int_equal(bspcost_rank(s, spec, rq, &k), BSPCOST_OK);
	assert_int_equal(bspcost_ranking_ntables(k), 2);
	assert_int_equal(bspcost_ranking_procs(k, 0), 4);
	assert_int_equal(bspcost_ranking_procs(k, 1), 2);
	assert_string_equal(bspcost_ranking_point(k, 0, "o"), "64");
	assert_string_equal(bspcost_ranking_point(k, 0, "l"), "100");
	assert_null(bspcost_ranking_point(k, 0, "M"));
	/* 3 shapes of 4 (1x4, 2x2, 4x1), 16 candidates; 2x2 first:
	 * w = 64^3/4, h = 2048, and l */
	assert_int_equal(bspcost_ranking_nrows(k, 0), 48);
	assert_int_equal(bspcost_ranking_rank(k, 0, 0), 1);
	assert_string_equal(bspcost_ranking_shape(k, 0, 0), "2x2");
	assert_string_equal(bspcost_ranking_cost(k, 0, 0), "67684");
	assert_null(bspcost_ranking_why(k, 0, 0));
	/* down the ranked rows, ranks and costs never decrease, and a rank is
	 * shared exactly by equal costs */
	for (int i = 1; i < bspcost_ranking_nrows(k, 0); i++) {
		int r0 = bspcost_ranking_rank(k, 0, i - 1), r1 = bspcost_ranking_rank(k, 0, i);
		if (r1 == 0)
			break;
		double c0 = atof(bspcost_ranking_cost(k, 0, i - 1)),
		       c1 = atof(bspcost_ranking_cost(k, 0, i));
		assert_true(r1 >= r0);
		assert_true(c1 >= c0);
		assert_true((r1 == r0) == (strcmp(bspcost_ranking_cost(k, 0, i),
						   bspcost_ranking_cost(k, 0, i - 1)) == 0));
	}
	bspcost_ranking_free(k);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

struct job {
	const char *file;
	char *json;
};

static void *analyze_json(void *arg)
{
	struct job *j = arg;
	bspcost_session *s = bspcost_session_new(60);
	bspcost_spec *spec = bspcost_spec_load(s, j->file);
	bspcost_request *rq = bspcost_request_new();
	bspcost_request_jobs(rq, 1);
	bspcost_result *r = NULL;
	if (bspcost_analyze(s, spec, rq, &r) == BSPCOST_OK) {
		size_t len = 0;
		FILE *out = open_memstream(&j->json, &len);
		bspcost_result_render(r, BSPCOST_JSON, out);
		fclose(out);
	}
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
	return NULL;
}

static void sessions_on_threads(void **state)
{
	(void)state;
	struct job jobs[3] = {{"examples/stencil1d.bsp", NULL}, {"examples/stencil1d.bsp", NULL},
			      {"examples/jacobi.bsp", NULL}};
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&t[i], NULL, analyze_json, &jobs[i]), 0);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	struct job alone = {"examples/stencil1d.bsp", NULL};
	analyze_json(&alone);
	for (int i = 0; i < 3; i++)
		assert_non_null(jobs[i].json);
	assert_non_null(alone.json);
	assert_string_equal(jobs[0].json, alone.json);
	assert_string_equal(jobs[1].json, alone.json);
	assert_non_null(strstr(jobs[2].json, "jacobi.bsp"));
	for (int i = 0; i < 3; i++)
		free(jobs[i].json);
	free(alone.json);
}

/* stencil1d's counts of process S of P (n values), written out here: v[i]
 * for 1 <= i < n - 1 reads u[i-1], u[i], u[i+1] (work 3); block owns
 * i / ceil(n/P), cyclic i % P.  W, the words received (each element once)
 * and sent (each element once per process that reads it). */
/* The integer of TEXT, which must be there. */
static long number(const char *text)
{
	assert_non_null(text);
	return atol(text);
}

static void stencil1d_process(bool cyclic, long n, long P, long S, long *w, long *in, long *out)
{
	long b = (n + P - 1) / P;
	*w = *in = *out = 0;
	for (long e = 0; e < n; e++) {
		long owner = cyclic ? e % P : e / b;
		bool read_by[64] = {false};
		for (long i = 1; i < n - 1; i++)
			if (e >= i - 1 && e <= i + 1)
				read_by[cyclic ? i % P : i / b] = true;
		if (owner != S && read_by[S])
			(*in)++;
		for (long q = 0; owner == S && q < P; q++)
			*out += q != S && read_by[q];
	}
	for (long i = 1; i < n - 1; i++)
		*w += 3 * ((cyclic ? i % P : i / b) == S);
}

static void per_process(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil1d.bsp");
	bspcost_request *rq = bspcost_request_new();
	bspcost_request_per_process(rq, 1);
	const long sizes[][2] = {{64, 4}, {13, 3}, {40, 5}};
	for (int k = 0; k < 3; k++) {
		char n[32], P[32];
		snprintf(n, sizeof(n), "%ld", sizes[k][0]);
		snprintf(P, sizeof(P), "%ld", sizes[k][1]);
		assert_int_equal(bspcost_request_set(rq, "n", n), BSPCOST_OK);
		assert_int_equal(bspcost_request_set(rq, "P", P), BSPCOST_OK);
		bspcost_result *r = NULL;
		assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
		assert_int_equal(bspcost_result_ncandidates(r), 2);
		for (int c = 0; c < 2; c++) {
			bool cyclic = strstr(bspcost_result_candidate(r, c), "cyclic") != NULL;
			assert_int_equal(bspcost_result_nprocesses(r, c, 0), sizes[k][1]);
			for (int p = 0; p < sizes[k][1]; p++) {
				long w, in, out;
				stencil1d_process(cyclic, sizes[k][0], sizes[k][1], p, &w, &in, &out);
				assert_int_equal(bspcost_result_process_coord(r, c, 0, p, 0), p);
				assert_int_equal(bspcost_result_process_coord(r, c, 0, p, 1), -1);
				assert_int_equal(number(bspcost_result_process_value(
						 r, c, 0, p, BSPCOST_PROCESS_W)), w);
				assert_int_equal(number(bspcost_result_process_value(
						 r, c, 0, p, BSPCOST_PROCESS_IN)), in);
				assert_int_equal(number(bspcost_result_process_value(
						 r, c, 0, p, BSPCOST_PROCESS_OUT)), out);
				/* messages are not asked for */
				assert_null(bspcost_result_process_value(r, c, 0, p,
									 BSPCOST_PROCESS_MSGS_IN));
			}
			assert_null(bspcost_result_process_value(r, c, 0, (int)sizes[k][1],
								 BSPCOST_PROCESS_W));
		}
		FILE *devnull = fopen("/dev/null", "w");
		assert_non_null(devnull);
		assert_int_equal(bspcost_result_render(r, BSPCOST_CSV, devnull), BSPCOST_OK);
		assert_int_equal(bspcost_result_render(r, BSPCOST_LATEX, devnull), BSPCOST_USAGE);
		fclose(devnull);
		bspcost_result_free(r);
	}
	/* every size is needed, and -p is another question */
	bspcost_request_clear_values(rq);
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_null(r);
	assert_non_null(strstr(bspcost_session_message(s), "--per-process needs a value for every"));
	assert_int_equal(bspcost_request_set(rq, "n", "64"), BSPCOST_OK);
	assert_int_equal(bspcost_request_procs(rq, 4), BSPCOST_OK);
	bspcost_ranking *rk = NULL;
	assert_int_equal(bspcost_rank(s, spec, rq, &rk), BSPCOST_USAGE);
	assert_string_equal(bspcost_session_message(s),
			    "bspcost: --per-process cannot be combined with -p\n");
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

static void comparison(void **state)
{
	(void)state;
	bspcost_session *s = session();
	bspcost_spec *spec = bspcost_spec_load(s, "examples/stencil1d.bsp");
	bspcost_request *rq = bspcost_request_new();
	assert_int_equal(bspcost_request_compare(rq, "d=block", "d=cyclic"), BSPCOST_OK);
	bspcost_result *r = NULL;
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	assert_int_equal(bspcost_result_ncandidates(r), 2);
	assert_string_equal(bspcost_result_candidate(r, 0), "d=block");
	assert_string_equal(bspcost_result_candidate(r, 1), "d=cyclic");
	assert_string_equal(bspcost_result_condition(r, BSPCOST_A_CHEAPER, 0), "P >= 2 && g > 0");
	assert_string_equal(bspcost_result_condition(r, BSPCOST_SAME, 0),
			    "(P >= 2 && g == 0) || (P == 1)");
	assert_string_equal(bspcost_result_condition(r, BSPCOST_B_CHEAPER, 0), "never");
	assert_string_equal(bspcost_result_condition(r, BSPCOST_B_CHEAPER, 1), "0");
	assert_non_null(bspcost_result_condition(r, BSPCOST_A_CHEAPER, 1));
	assert_null(bspcost_result_condition(r, (enum bspcost_relation)3, 0));
	assert_null(bspcost_result_comparison_why(r));
	assert_null(bspcost_result_difference(r));   /* no values */
	bspcost_result_free(r);
	/* at values: the difference is the two costs' */
	const char *names[] = {"n", "P", "g", "l"}, *values[] = {"64", "4", "3", "20"};
	for (int k = 0; k < 4; k++)
		assert_int_equal(bspcost_request_set(rq, names[k], values[k]), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	long a = number(bspcost_result_value(r, 0, BSPCOST_PROGRAM, BSPCOST_COST));
	long b = number(bspcost_result_value(r, 1, BSPCOST_PROGRAM, BSPCOST_COST));
	/* by hand: block 3*64/4 + 2*g + l, cyclic 3*64/4 + 2*g*64/4 + l */
	assert_int_equal(a, 48 + 6 + 20);
	assert_int_equal(b, 48 + 96 + 20);
	assert_int_equal(number(bspcost_result_difference(r)), a - b);
	bspcost_result_free(r);
	/* refused as the command line refuses them */
	assert_int_equal(bspcost_request_compare(rq, "d=block", NULL), BSPCOST_USAGE);
	assert_string_equal(bspcost_request_message(rq), "--compare needs two candidates (or none)");
	assert_int_equal(bspcost_request_compare(rq, "d=block", "d=nope"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_non_null(strstr(bspcost_session_message(s), "--compare: no candidate 'd=nope'"));
	assert_int_equal(bspcost_request_compare(rq, "d=block", "d=block"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_string_equal(bspcost_session_message(s), "bspcost: --compare 'd=block' 'd=block': "
			    "give two different candidates\n");
	assert_int_equal(bspcost_request_compare(rq, "d=block", "d=cyclic"), BSPCOST_OK);
	bspcost_request_values_only(rq, 1);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_string_equal(bspcost_session_message(s),
			    "bspcost: --compare cannot be combined with --values\n");
	bspcost_request_values_only(rq, 0);
	assert_int_equal(bspcost_request_model(rq, "nhalf"), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_USAGE);
	assert_string_equal(bspcost_session_message(s),
			    "bspcost: --model nhalf: --compare checks and compares the costs of g "
			    "and l alone (bsp, overlap and Bianco and Pucci's F_)\n");
	assert_int_equal(bspcost_request_model(rq, "bsp"), BSPCOST_OK);
	assert_int_equal(bspcost_request_compare(rq, NULL, NULL), BSPCOST_OK);
	assert_int_equal(bspcost_analyze(s, spec, rq, &r), BSPCOST_OK);
	assert_null(bspcost_result_condition(r, BSPCOST_A_CHEAPER, 0));   /* no comparison */
	bspcost_result_free(r);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diagnostics_as_data),
		cmocka_unit_test(introspection),
		cmocka_unit_test(requests_refused),
		cmocka_unit_test(symbolic_result),
		cmocka_unit_test(formula_why),
		cmocka_unit_test(refused_superstep),
		cmocka_unit_test(eval_equals_counts),
		cmocka_unit_test(ranking),
		cmocka_unit_test(per_process),
		cmocka_unit_test(comparison),
		cmocka_unit_test(sessions_on_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
