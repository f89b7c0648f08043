/* One level of a doubling loop as a program of its own.
 *
 * In `for s = 1, 2, 4, ... < B` (B one size or grid axis, a power of two for
 * the sum), every level has B = s*R with R = 2*H for a whole H >= 1.  A
 * superstep whose conditions divide by s ((c / s) % 2, the butterflies of
 * an FFT) has no affine form in s.  Its level does, once each variable v
 * that a condition divides by s is written as two digits,
 *
 *     v = s*q + e,     0 <= e < s,
 *
 * so that v / s = q: a constraint a*v + c*(s*x) + d*s + k*B + c0 (x a
 * quotient by s) is s*X + a*e + c0 with X = a*q + c*x + d + k*R affine,
 * and for 0 <= e < s it holds exactly when a constraint on X alone does
 * (X >= 0 for s*X + e >= 0, X >= 1 for s*X - e - 1 >= 0 and s*X - 1 >= 0,
 * X == 0 and e == 0 for s*X + e == 0, X == 0 and e == e' for
 * s*X + e - e' == 0); forms of other shapes are
 * refused.  An array dimension of extent B that such a variable indexes
 * becomes two dimensions of extents R and s, indexed by the digits (v + k*s
 * is (q + k, e)), and every subscript of it must be such a variable plus a
 * multiple of s.  The dimension is either laid out whole (*), or B is a
 * grid axis and the dimension is its identity (r[P] over P): the axis is
 * then two axes, R and s, and the dimension their identities, process
 * s*q + e being (q, e).  Every other use of such an axis is refused.
 *
 * The level's model has the sizes of M, then H, s (the loop's variable, by
 * its name) and R as sizes, or s and R as axes in place of B's where that
 * axis is split,
 * M's other axes, arrays, layouts and assumptions (those naming a split
 * axis left out: fewer assumptions, the same counts where they hold), with
 * s >= 1, H >= 1 and R == 2*H, and one candidate running one superstep: its
 * counts are exact for every s and H, and those of level s of M where
 * B = 2*s*H. */
#ifndef BSPCOST_LEVELS_H
#define BSPCOST_LEVELS_H

#include <isl/ctx.h>

#include "analyzer/model/model.h"

struct model_level {
	struct model *m;       /* the level's model (model_free) */
	/* the names of s (M's loop's, kept), R and H (the level model's) */
	const char *s, *r, *h;
};

/* Superstep STEP of candidate CAND of M, in the doubling loop 1, 2, 4, ...
 * < B alone, as the model of one level (above) into *OUT; 0, or 1 with
 * *REASON (malloc'd, NULL when out of memory) saying why the superstep has
 * no such form, or -1 when out of memory (*REASON NULL) or on a broken
 * invariant (*REASON "internal: ..."). */
int model_level(const struct model *m, int cand, int step, struct model_level *out,
		char **reason);

#endif
