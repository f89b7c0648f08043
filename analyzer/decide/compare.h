/* Decisions: where one candidate costs less than another (--compare A B).
 *
 * From the two candidates' cost formulas (analyzer/cost/cost.h), the
 * difference D = cost(A) - cost(B), exact and piecewise as the costs are, and
 * the three conditions on the sizes, grid sizes and coefficients under which
 * D < 0 (A costs less), D == 0 and D > 0 (B costs less).  When D is
 * X + c*l with c a non-zero constant (two programs with different numbers of
 * supersteps), the conditions are solved for the latency:
 * A costs less exactly when l > -X/c (c < 0) or l < -X/c (c > 0), which is
 * how Niculescu states his: ((o - n)*m*(N - 1)*g - m*n*N)/(M*N) > l.
 *
 * With every value given, the two exact costs at that point, their
 * difference and, for a cost function that is a sum (w + h*g + l and
 * Bianco and Pucci's), the difference term by term: which of w, h*g, ... and
 * l makes it.
 *
 * The conditions hold where both formulas do: under the specification's
 * assumptions and each candidate's own (cost.h, candidate_cost.assumptions),
 * which the report lists beside them. */
#ifndef BSPCOST_COMPARE_H
#define BSPCOST_COMPARE_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/cost/cost.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/formula/formula.h"

enum compare_rel { CMP_A_CHEAPER, CMP_EQUAL, CMP_B_CHEAPER, CMP_N };

/* The styles the conditions are written in (formula.h). */
enum { COMPARE_STYLES = 3 };

/* One part of a difference at the values: "w", "h*g", "NCom*g_M", "l". */
struct compare_part {
	char name[24];
	mpq_t diff;             /* A's minus B's */
};

struct comparison {
	/* the formulas: D, and the conditions in each formula_style */
	struct formula *diff;   /* NULL when a cost has no formula (why says why) */
	char *why;
	const char *solved;     /* "l" when the conditions are solved for it */
	char *cond[COMPARE_STYLES][CMP_N];
	/* the values given */
	bool valued;
	mpq_t a, b, diff_value; /* the costs and A's minus B's */
	int nparts;             /* 0 when the cost function is not a sum */
	struct compare_part parts[5];
};

/* Compares FA and FB, the costs of candidates A and B (formulas: NULL when a
 * candidate has none), and, when EA and EB (the same candidates counted at
 * the values) are not NULL, their values priced by PRICES.  M (may be
 * NULL) is their model and GRID the sizes of its axes (NULL on the
 * symbolic grid): under its assumptions, with every coefficient of the
 * cost >= 0, a piece of D whose sign shows is written by it (D < 0 is
 * "g > 0" where D = g*(2*P - 2*n)/P and n >= 2*P).  Fills *OUT
 * (clear it with comparison_clear) and returns 0, or -1 when out of memory
 * or ISL failed (OUT->why says so). */
int compare_candidates(const struct candidate_cost *fa, const struct candidate_cost *fb,
		       const struct candidate_cost *ea, const struct candidate_cost *eb,
		       const struct cost_prices *prices, const struct model *m, const long *grid,
		       struct comparison *out);
void comparison_clear(struct comparison *c);

#endif
