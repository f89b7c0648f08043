/* Polynomials in one integer variable with rational coefficients, exactly:
 * their values, their sums over a range of integers, where they turn
 * positive, and the sum over a range of the largest of several.
 *
 * A loop's functions of its variable k are, between the points where one
 * of their floors or pieces changes (count_compiled_poly_at), polynomials
 * in k of a small degree; their sums and the sum of their upper envelope
 * over thousands of iterations are then a few dozen evaluations, with no
 * proof asked of ISL and nothing evaluated per iteration. */
#ifndef BSPCOST_COUNT_POLY_H
#define BSPCOST_COUNT_POLY_H

#include <gmp.h>

/* The highest degree handled. */
enum { COUNT_POLY_MAXDEG = 8 };

/* c[0] + c[1]*x + ... + c[deg]*x^deg; every c[e] past deg is 0. */
struct count_poly {
	int deg;
	mpq_t c[COUNT_POLY_MAXDEG + 1];
};

void count_poly_init(struct count_poly *p);
void count_poly_clear(struct count_poly *p);

/* OUT = P(X). */
void count_poly_eval(const struct count_poly *p, long long x, mpq_t out);

/* OUT += the sum of P(x) over A <= x <= B (nothing when A > B). */
void count_poly_add_sum(const struct count_poly *p, long long a, long long b, mpq_t out);

/* *X = the least x with A <= x <= B at which P(x) > 0, or B + 1 when
 * there is none; 0, or -1 when out of memory. */
int count_poly_first_positive(const struct count_poly *p, long long a, long long b,
			      long long *x);

/* OUT += the sum over A <= x <= B of the largest of P[0 .. N)(x); N >= 1.
 * -1 when out of memory (OUT then partly added to). */
int count_poly_add_max_sum(const struct count_poly *p, int n, long long a, long long b, mpq_t out);

#endif
