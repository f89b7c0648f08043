/* Relations on a symbolic grid: the axis sizes stay parameters.
 *
 * Each quantified variable that meets a distribution is written as the digits of
 * that distribution (distributions/dist.h: block i = s*L + u, cyclic i = u*P + s,
 * ...), with the block length L = X/P a parameter of its own, so that ownership
 * is a digit and every relation stays affine.  The homogeneous form assumes P
 * divides X; the caller substitutes X/P for L in the counts.
 *
 * Not every specification has such a form: a variable distributed two different
 * ways in one relation (a transpose over M x N), a condition relating two
 * distributed variables (k <= i), a subscript other than variable + constant in a
 * distributed dimension.  Then relations_symbolic refuses with one sentence that
 * says why, and the concrete grid takes over. */
#ifndef BSPCOST_SYMBOLIC_H
#define BSPCOST_SYMBOLIC_H

#include <stdbool.h>

#include "analyzer/model/model.h"
#include "analyzer/model/relations.h"

/* A parameter of the symbolic grid's own, with a name that differs from
 * every other parameter's (the user's, the axes', g and l):
 *  - a block length (DIGIT < 0): name = extent / (axis * block);
 *  - a digit of a size expression (DIGIT >= 0): where a distributed dimension
 *    is subscripted or bounded by an expression E of the sizes (a pivot k0, a
 *    panel offset kk, a loop's variable), E is written as digits of that
 *    distribution like any index, and each digit is a parameter: for block
 *    over M, k0_M = floor(k0/(n/M)) (the process row that owns k0) and
 *    k0_Mi = k0 % (n/M) (where in its block).  The counts are exact functions
 *    of the digits; VALUE says how to compute each from the sizes. */
struct local_param {
	char *name;
	char *extent;    /* the extent as the model prints it, for people */
	struct model_aff extent_aff;   /* the same by position */
	int axis;
	unsigned axes;   /* a block length: every axis it is over, as bits (AXIS,
			  * and those the assumptions or a concrete grid make
			  * equal to it, which share it) */
	long block;      /* 1 except for block-cyclic */
	int block_param; /* cyclic(nb), nb a size: its index (BLOCK unused), else -1 */
	/* digits only */
	int digit;                 /* its position, most significant first; -1: a block length */
	enum dist_kind kind;       /* the distribution E is written in */
	struct model_aff of;       /* E, of the sizes and axes only */
	int size_local;            /* its size: this block length, */
	int size_axis;             /* else this axis, */
	long size_const;           /* else this constant, */
	int size_param;            /* unless this size is it (cyclic(nb)'s nb), -1 */
	char *value;               /* the digit in the formula grammar (block lengths written out) */
	char *shown;               /* NAME = the same for people: k0_M = floor(k0/(n/M)) */
};

struct symbolic_info {
	int nlocals;
	struct local_param *locals;
	int nassumptions;
	char **assumptions;   /* what the formulas rest on, one sentence each */
	/* Set by the caller (not owned): the axis sizes of the concrete grid
	 * the symbolic grid's formulas are made for, NULL for none.  Two axes
	 * of one size there are one, as where the assumptions make them
	 * equal (a variable split the same way over both has one set of
	 * digits); the caller's context must then hold them equal too. */
	const long *fixed;
};

/* Whether NAME is a size, a loop's variable, an axis, a local of INFO (may
 * be NULL) or a cost coefficient (g, l): a name the report's own
 * parameters (digits, block lengths, lg_P) must not take. */
bool symbolic_name_taken(const struct model *m, const struct symbolic_info *info,
			 const char *name);

/* Like relations_concrete, with the axes as parameters (and the block lengths of
 * INFO added to them).  Returns 0; 1 when the step has no symbolic form, with
 * *REASON saying why; -1 on an ISL or memory failure, with *REASON. */
int relations_symbolic(isl_ctx *ctx, const struct model *m, int cand, int step,
		       struct step_relations *out, struct symbolic_info *info, char **reason);

/* SET (taken, on [sizes, axes, every local of INFO]) where every block length
 * is at least 1 and every digit within its range. */
__isl_give isl_set *symbolic_local_ranges(__isl_take isl_set *set, const struct model *m,
					  const struct symbolic_info *info);

/* How local LP is a digit of an expression naming a loop's variable: of a
 * loop around superstep STEP (SYMBOLIC_DIGIT_AROUND), of one that is not
 * (SYMBOLIC_DIGIT_OTHER), both, or neither (0); STEP -1: no loop is around
 * (every loop's digit is OTHER). */
enum { SYMBOLIC_DIGIT_AROUND = 1, SYMBOLIC_DIGIT_OTHER = 2 };
unsigned symbolic_loop_digit(const struct model *m, int step, const struct local_param *lp);

/* SET (taken, on [sizes, axes, every local of INFO]) with no constraint on
 * the digits of a loop's variable whose loop is not around superstep STEP
 * (their ranges, which an earlier superstep's loop needed): STEP's counts
 * do not depend on them, and must not split on them. */
__isl_give isl_set *symbolic_without_foreign_digits(__isl_take isl_set *set, const struct model *m,
						    const struct symbolic_info *info, int step);

/* SET (taken, on [sizes, axes, every local of INFO]) where the digits of two
 * expressions of one decomposition are in the order the assumptions give
 * the expressions (kk's digits at most those of kk + b - 1 when b >= 1): a
 * union, for simplifying formulas, not for counting (ISL's maxima over a
 * union of contexts cost more than they save). */
__isl_give isl_set *symbolic_digit_orders(__isl_take isl_set *set, const struct model *m,
					  const struct symbolic_info *info);

/* The iterations of the loop whose variable k the digits INFO->locals[FIRST
 * ..] write (FIRST its most significant digit), on the digits: a set whose
 * dimensions are k's digits, most significant first, on the parameters
 * [sizes, axes, every local of INFO] (the bounds may add digits of their
 * own to INFO).  0; 1 when the loop's bounds have no such form, with
 * *REASON; -1 on an ISL or memory failure. */
int symbolic_iterations(isl_ctx *ctx, const struct model *m, int step, struct symbolic_info *info,
			int first, __isl_give isl_set **out, char **reason);

/* The parameter set [sizes, axes, every local of INFO] where the locals are
 * within their ranges (symbolic_local_ranges). */
__isl_give isl_set *symbolic_local_context(isl_ctx *ctx, const struct model *m,
					   const struct symbolic_info *info);

/* Whether ASSUMPTION is one the symbolic grid makes of a size, "C <= NAME"
 * or "C < NAME" (2 <= n__P: an offset within a block), with NAME among the
 * parameters of SET (kept): then *POS is its position and *LEAST the least
 * value it may take. */
bool symbolic_assumption_bound(const char *assumption, __isl_keep isl_set *set, int *pos,
			       int *least);

/* ASSUMPTION (copied) among INFO's, unless it is there already: 0, or -1
 * when out of memory. */
int symbolic_info_assume(struct symbolic_info *info, const char *assumption);

void symbolic_info_clear(struct symbolic_info *info);
/* INFO as it was with its first NLOCALS locals and NASSUMPTIONS
 * assumptions, those made since freed (a refused superstep's). */
void symbolic_info_truncate(struct symbolic_info *info, int nlocals, int nassumptions);

/* The block of block length or digit LP (its BLOCK, or the value of its
 * size BLOCK_PARAM in VALUES, indexed as the model's parameters): false
 * when that is no positive number. */
bool symbolic_block_value(const struct local_param *lp, const long long *values, long long *out);

#endif
