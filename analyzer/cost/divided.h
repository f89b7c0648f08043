/* A concrete grid's sizes counted as multiples of their blocks.
 *
 * On a concrete grid the owner of an index of a dimension of X elements, laid
 * out block, cyclic or block-cyclic(b) over an axis of P processes, is a floor
 * of the index by P or P*b, and the counts of every process are
 * quasi-polynomials in X with floor((X + c)/(P*b)) terms, one per residue of
 * X.  Where the symbolic grid gives no formulas (a dimension split two ways,
 * A- and B-stationary PDGEMM), counting with X = D*X' for D = P*b (the least
 * common multiple over every dimension X spans) makes those floors affine:
 * floor((128*m' + 31)/64) is 2*m'.  The formulas then hold where D divides X,
 * the assumption the symbolic grid's formulas state too ("128 divides m").
 *
 * Relations are rewritten by position: the parameter X is replaced by X' and
 * X' carries X's own isl_id, so the counts come out as functions of X' under
 * X's name; cost.c writes X/D back into the formulas. */
#ifndef BSPCOST_DIVIDED_H
#define BSPCOST_DIVIDED_H

#include <isl/map.h>
#include <isl/set.h>

#include "analyzer/model/relations.h"

/* The largest divisor a size is counted by (a block of 4096 on 4096
 * processes is 2^24; past this no formula is worth its floors anyway). */
enum { COST_DIVISOR_MAX = 1 << 24 };

/* Into DIV[p], for each size parameter p of M (model_nsizes; the rest 1):
 * the least common multiple, over the dimensions of the arrays of candidate
 * CAND whose extent is p itself, of the processes of the axis that splits the
 * dimension (SIZES, one per axis) times the block of block-cyclic; 1 where no
 * dimension splits p into blocks.  Returns how many are above 1, or -1 when
 * none may be used (a block that is a size, cyclic(nb); a divisor past
 * COST_DIVISOR_MAX). */
int cost_size_divisors(const struct model *m, int cand, const long *sizes, long *div);

/* SET or MAP (taken), over the size parameters of M (and possibly more),
 * with each size p whose DIV[p] > 1 replaced by p/DIV[p], under p's own name
 * and at p's own position.  NULL when ISL failed. */
__isl_give isl_set *cost_divided_set(__isl_take isl_set *set, const struct model *m,
				     const long *div);
__isl_give isl_map *cost_divided_map(__isl_take isl_map *map, const struct model *m,
				     const long *div);

/* Every relation of R so divided; 0, or -1 when ISL failed (R is then to be
 * cleared only). */
int cost_divide_relations(struct step_relations *r, const struct model *m, const long *div);

/* { sizes : DIV[p] divides p for every p }, on the size parameters of M. */
__isl_give isl_set *cost_divisible_set(isl_ctx *ctx, const struct model *m, const long *div);

#endif
