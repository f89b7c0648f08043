/* The relations of one superstep for one candidate: who owns what, who uses what,
 * and where the work is, as ISL maps from process coordinates.  Built from the
 * model (analyzer/model.h) and the distribution kinds (distributions/). */
#ifndef BSPCOST_RELATIONS_H
#define BSPCOST_RELATIONS_H

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "analyzer/model.h"

struct step_relations {
	isl_set *processes;   /* { P[q...] : 0 <= q_a < size_a } */
	int narrays;
	isl_map **use;        /* [array] { P[q] -> A[e] }: A[e] occurs in R.q; NULL if unread */
	isl_map **own;        /* [array] { A[e] -> P[q] }: q owns A[e] */
	int nwork;
	isl_map **work;       /* { P[q] -> [v...] }: work_weight[k] units of q's work per point */
	long *work_weight;
};

/* The relations of superstep STEP under candidate CAND on a concrete grid of
 * SIZES[a] processes along axis a.  The size parameters stay symbolic; the grid
 * axes are replaced by their sizes.  Returns 0, or -1 with *REASON set
 * (malloc'd) when ISL rejects what was built. */
int relations_concrete(isl_ctx *ctx, const struct model *m, int cand, int step,
		       const long sizes[], struct step_relations *out, char **reason);

/* Restricts every relation of R to the parameter values of PARAMS (on the same
 * parameters or fewer).  Returns 0, or -1 if ISL failed (R is then only fit to
 * be cleared). */
int step_relations_restrict(struct step_relations *r, __isl_keep isl_set *params);

void step_relations_clear(struct step_relations *r);

/* Writes "[p1, ..., axis1, ...] -> ": the model's parameters and grid axes, the
 * parameter list every relation of the model starts with; the _list variant
 * writes the names alone. */
void print_model_params(FILE *out, const struct model *m);
void print_model_param_list(FILE *out, const struct model *m);

/* [parameters, axes] -> { : the specification's assumptions }, or NULL. */
__isl_give isl_set *model_assumption_set(isl_ctx *ctx, const struct model *m);

#endif
