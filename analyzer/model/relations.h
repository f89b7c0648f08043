/* The relations of one superstep for one candidate: who owns what, who uses what,
 * and where the work is, as ISL maps from process coordinates.  Built from the
 * model (analyzer/model/model.h) and the distribution kinds (distributions/) by
 * position: ISL spaces, affine expressions and constraints, never text, so that
 * no name a user writes can change them.  User names appear only as the names
 * of the ISL parameters, for the formulas that are read off the counts.
 *
 * Three grids:
 *   - concrete (relations_concrete): the axis sizes are numbers, the size
 *     parameters stay ISL parameters; block over a symbolic extent is a union
 *     over the coordinates, every other kind is quasi-affine;
 *   - every value known (relations_values): no parameter at all; a block of
 *     ceil(X/P) elements is a constant length, so every distribution is
 *     quasi-affine in the coordinates and one relation covers every process,
 *     whatever their number;
 *   - symbolic (symbolic.h): the axis sizes are parameters too. */
#ifndef BSPCOST_RELATIONS_H
#define BSPCOST_RELATIONS_H

#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include "analyzer/model/model.h"

struct step_relations {
	isl_set *processes;   /* { [q...] : 0 <= q_a < size_a } */
	int narrays;
	isl_map **use;        /* [array] { [q] -> [e] }: A[e] occurs in R.q; NULL if unread */
	isl_map **own;        /* [array] { [e] -> [q] }: q owns A[e] (one q, or
			       * every q of an axis the layout replicates over) */
	unsigned *replicated; /* [array] the axes (bit a: axis a) its layout
			       * replicates over */
	int nwork;
	isl_map **work;       /* { [q] -> [v...] }: work_weight[k] units of q's work per point */
	long *work_weight;
};

/* A value for every size parameter and the size of every grid axis. */
struct model_values {
	const long long *params;   /* [model.nparams] */
	const long *sizes;         /* [model.naxes], each >= 1 */
};

/* The relations of superstep STEP under candidate CAND on a concrete grid of
 * SIZES[a] processes along axis a.  The size parameters stay parameters (named
 * as the user named them); every relation holds under the specification's
 * assumptions.  Returns 0, or -1 with *REASON set (malloc'd) when ISL failed,
 * or 1 with *REASON when the candidate cannot be built there (a block size
 * that is a size, cyclic(nb), needs its value: relations_values). */
int relations_concrete(isl_ctx *ctx, const struct model *m, int cand, int step,
		       const long sizes[], struct step_relations *out, char **reason);

/* The same, the block sizes that are sizes, cyclic(nb), at their values in
 * VALUES (indexed as the model's parameters; the others are not read). */
int relations_concrete_blocks(isl_ctx *ctx, const struct model *m, int cand, int step,
			      const long sizes[], const long long values[],
			      struct step_relations *out, char **reason);

/* The same at the values V, with no parameter at all: the process coordinates
 * are the maps' input dimensions (named q0, q1, ...).  Returns 0, or -1 with
 * *REASON (malloc'd), or 1 with *REASON when a block size cyclic(nb) is below
 * 1 at V. */
int relations_values(isl_ctx *ctx, const struct model *m, int cand, int step,
		     const struct model_values *v, struct step_relations *out, char **reason);

/* Sets *OUT to empty relations for superstep STEP of M: the arrays and the
 * terms of work allocated, every map NULL.  Returns 0, or -1 when out of
 * memory (*OUT is then fit to be cleared). */
int step_relations_alloc(struct step_relations *out, const struct model *m, int step);

/* Restricts every relation of R to the parameter values of PARAMS (on the same
 * parameters or fewer).  Returns 0, or -1 if ISL failed (R is then only fit to
 * be cleared). */
int step_relations_restrict(struct step_relations *r, __isl_keep isl_set *params);

/* Projects out every parameter of R but the one at position KEEP (after
 * step_relations_restrict has fixed them).  Returns 0, or -1 if ISL failed. */
int step_relations_keep_param(struct step_relations *r, int keep);

void step_relations_clear(struct step_relations *r);

/* { [q' -> e] -> [q] : (q', e) in USES (kept: R's uses of array A, or some
 * of them), q sends e to q' } (a new map): the owner of e; for a replicated
 * element, the one holder that has q''s coordinate on every axis the layout
 * replicates over (there is exactly one, and a holder sends to itself).
 * bspcost(5) states the rule. */
__isl_give isl_map *relations_senders(const struct step_relations *r, int a,
				      __isl_keep isl_map *uses);

/* The id of dimension D (< MODEL_MAX_DIMS) of the elements of the relations:
 * named e__D, and described for the reasons of the counting engine (see
 * count.h) as "index D+1 of an element". */
__isl_give isl_id *relations_element_id(isl_ctx *ctx, int d);

/* The parameter space [p1, ..., axis1, ...] of the model (the axes only when
 * AXES), each parameter an isl_id with the user's name. */
__isl_give isl_space *model_param_space(isl_ctx *ctx, const struct model *m, bool axes);

/* [parameters, axes] -> { : the specification's assumptions }, or NULL. */
__isl_give isl_set *model_assumption_set(isl_ctx *ctx, const struct model *m);

/* The same with what every specification assumes without saying: every
 * axis and every extent is at least 1.  Values are only ever drawn or
 * accepted there. */
__isl_give isl_set *model_valid_set(isl_ctx *ctx, const struct model *m);

/* The positional constraint C (of parameters and axes only) as a set on the
 * parameter space SPACE (kept) of model_param_space(ctx, m, true). */
__isl_give isl_set *model_cons_param_set(__isl_keep isl_space *space, const struct model *m,
					 const struct model_cons *c);

/* The values of the variables of the loops around superstep STEP of M where
 * its body runs (lo <= k < hi for each; a geometric loop's values alone when
 * its bounds are numbers on SIZES, else that interval, a superset), as a set
 * on model_param_space(ctx,
 * m, SIZES == NULL): the axes are parameters on the symbolic grid, their
 * SIZES on a concrete one.  The universe for a superstep in no loop; NULL
 * when ISL failed. */
__isl_give isl_set *model_loops_set(isl_ctx *ctx, const struct model *m, int step,
				    const long *sizes);

#endif
