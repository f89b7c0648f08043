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

#include "analyzer/model/model.h"
#include "analyzer/model/relations.h"

/* A block-length parameter: name = extent / (axis * block).  Its name differs
 * from every other parameter's (the user's, the axes', g and l). */
struct local_param {
	char *name;
	char *extent;    /* the extent as the model prints it, for people */
	struct model_aff extent_aff;   /* the same by position */
	int axis;
	long block;      /* 1 except for block-cyclic */
};

struct symbolic_info {
	int nlocals;
	struct local_param *locals;
	int nassumptions;
	char **assumptions;   /* what the formulas rest on, one sentence each */
};

/* Like relations_concrete, with the axes as parameters (and the block lengths of
 * INFO added to them).  Returns 0; 1 when the step has no symbolic form, with
 * *REASON saying why; -1 on an ISL or memory failure, with *REASON. */
int relations_symbolic(isl_ctx *ctx, const struct model *m, int cand, int step,
		       struct step_relations *out, struct symbolic_info *info, char **reason);

void symbolic_info_clear(struct symbolic_info *info);

#endif
