/* Relations with every value known: the sizes, the axes, the grid.
 *
 * With every size parameter and axis size a number, every distribution is
 * quasi-affine in the process coordinates (a block of ceil(X/P) elements is a
 * constant length, so B*q <= i < B*(q+1) is affine in q), so the coordinates
 * stay variables: one relation covers every process, whatever their number,
 * and the counts are functions of the coordinates whose maximum is taken by
 * ISL's exact integer optimization (count_max_values).  Nothing here grows with
 * the sizes or with the number of processes.
 *
 * The relations are built by position from the model's positional forms
 * (struct model_aff): ISL spaces, affine expressions and constraints, never
 * text, so that no name a user writes can change them. */
#ifndef BSPCOST_DIRECT_H
#define BSPCOST_DIRECT_H

#include <isl/ctx.h>

#include "analyzer/model.h"
#include "analyzer/relations.h"

/* A value for every size parameter and the size of every grid axis. */
struct model_values {
	const long long *params;   /* [model.nparams] */
	const long *sizes;         /* [model.naxes], each >= 1 */
};

/* The relations of superstep STEP of candidate CAND at the values V, as
 * relations_concrete's but with no parameter at all: the process coordinates
 * are the maps' input dimensions (named q0, q1, ... for ISL's parameter
 * alignment once moved there).  Returns 0, or -1 with *REASON (malloc'd). */
int relations_values(isl_ctx *ctx, const struct model *m, int cand, int step,
		     const struct model_values *v, struct step_relations *out, char **reason);

#endif
