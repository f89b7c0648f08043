/* A count compiled for evaluation at many points: a piecewise
 * quasi-polynomial over parameters only (no set dimensions), its pieces'
 * domains and floors turned into integer rows, evaluated in 128-bit integer
 * arithmetic instead of through ISL (isl_pw_qpolynomial_eval decides each
 * domain's membership with a feasibility test: about 9 us a point, against
 * a fraction of that here).
 *
 * Exact or nothing: count_compiled_eval fails (and the caller asks ISL) when
 * a value does not fit in 64 bits; count_compiled_new refuses a function whose
 * compiled values differ from ISL's at any of the probe points it is given,
 * or that it cannot represent. */
#ifndef BSPCOST_COUNT_COMPILED_H
#define BSPCOST_COUNT_COMPILED_H

#include <gmp.h>
#include <isl/polynomial.h>

struct count_compiled;

/* F (kept) compiled, checked against ISL at the NPROBE points PROBE (each
 * NP values, NP the number of F's parameters, in their order); NULL when F
 * has set dimensions, a coefficient beyond 64 bits, a domain ISL cannot
 * give every floor of, a value that differs at a probe, or no probe the
 * compiled form can evaluate (all past 64 bits). */
struct count_compiled *count_compiled_new(__isl_keep isl_pw_qpolynomial *f,
					  const long long *probe, int nprobe);

/* OUT = F at the parameters' values X[0 .. NP); 0, or -1 when an
 * intermediate value does not fit (OUT untouched). */
int count_compiled_eval(const struct count_compiled *c, const long long *x, mpq_t out);

/* For C of one parameter x, at X0 <= HI: *NEXT, the least x > X0 (at most
 * HI + 1) at which one of its pieces' constraints or floors (the domains'
 * and the terms') changes, so that on X0 <= x < *NEXT C is one polynomial
 * in x: its coefficients into COEF[0 .. MAXDEG] (initialized), its degree
 * into *DEG.  0, or -1 when C has several parameters, a term of a higher
 * degree, or a value past 64 bits (COEF then undefined). */
int count_compiled_poly_at(const struct count_compiled *c, long long x0, long long hi,
			   long long *next, mpq_t *coef, int maxdeg, int *deg);

void count_compiled_free(struct count_compiled *c);

/* OUT = F (kept, on parameters only) at the parameters' values X, by ISL's
 * own evaluation (the reference the compiled form is checked against); 0,
 * or -1 when ISL has no value there. */
int count_isl_eval(__isl_keep isl_pw_qpolynomial *f, const long long *x, mpq_t out);

#endif
