/* Memory: the words each process holds of a candidate's arrays, its share of
 * each (received copies are h_in, not memory), the maximum over the
 * processes, exactly.
 *
 * Process q holds, of an array laid out D_1 x ... x D_r, the product over
 * the dimensions of the number of indices i < X_d that D_d gives q's
 * coordinate on its axis (X_d for a dimension not distributed; for an axis
 * the layout does not use, the array lives at coordinate 0 of it).  Each of
 * these numbers is largest at coordinate 0 (block and cyclic give
 * ceil(X/P) there and no more elsewhere; cyclic(B) gives process 0 the first
 * of every P blocks, no smaller than the later ones; identity gives 1 to each
 * coordinate), and each array's dimensions use distinct axes, so process 0
 * holds the most of every array at once: the maximum over the processes of
 * the sum over the arrays is the sum of process 0's shares,
 *     sum over the arrays of words * prod over the dimensions of
 *       ceil(X/P)                                    block, cyclic
 *       B*floor(X/(B*P)) + min(B, X - B*P*floor(X/(B*P)))   cyclic(B)
 *       1                                            identity
 *       X                                            not distributed, replicated
 * a formula in the sizes and the axis sizes, exact for every value; where
 * the candidate assumes B*P divides X (memory_words), X/P.
 * tests/brute checks it against an enumeration of every process's elements. */
#ifndef BSPCOST_MEMORY_H
#define BSPCOST_MEMORY_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/formula/formula.h"
#include "analyzer/model/model.h"
#include "analyzer/model/symbolic.h"

/* The most words a process holds of the arrays A of candidate CAND of M for
 * which TAKE[A] is true: with SIZES (NULL on the symbolic grid) the axis
 * sizes are those numbers.  On the symbolic grid, INFO (may be NULL) gives
 * the block lengths the candidate's other formulas assume whole (B*P divides
 * X): such a dimension's share is X/P, as exact as those formulas, under the
 * same assumptions; and so does WHOLE (NULL: none), for each array A whose
 * WHOLE[A] is set.  NULL when out of memory. */
struct formula *memory_words(const struct model *m, int cand, const bool take[],
			     const long *sizes, const struct symbolic_info *info,
			     const bool *whole);

/* The same number with every value known (size parameter i is VALUES[i],
 * axis a SIZES[a]) into OUT (initialized), in exact integers without
 * building a formula: what -p asks of every shape.  -1 when an extent is
 * not positive (the caller's values break the implicit assumptions). */
int memory_words_at(const struct model *m, int cand, const bool take[], const long *sizes,
		    const long long *values, mpz_t out);

/* TAKE[A] for the arrays superstep STEP of M reads or writes. */
void memory_step_arrays(const struct model *m, int step, bool take[]);

#endif
