/* replicated: every index lives on every coordinate of the axis (Niculescu's
 * set distributions: an element has a set of owners, the whole axis). */
#include "distributions/dist.h"

static __isl_give isl_set *replicated_owner(const struct dist *d, __isl_take isl_aff *index,
					    __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
					    long size)
{
	(void)d;
	(void)extent;
	(void)size;
	/* no constraint: the coordinate is already known to lie on the axis */
	isl_set *all = isl_set_universe(isl_aff_get_domain_space(index));
	isl_aff_free(index);
	isl_aff_free(coord);
	return all;
}

/* every holder has the whole dimension */
static void *replicated_share(const struct dist *d, const struct dist_arith *ar, void *x,
			      void *p)
{
	(void)d;
	ar->free(ar->user, p);
	return x;
}

const struct dist_ops dist_replicated_ops = {
	.name = "replicated",
	.owner = replicated_owner,
	/* no owner digit: the symbolic grid does not take it (symbolic.c) */
	.digits = {.n = 1, .size = {DIGIT_EXTENT}, .owner = -1},
	.share = replicated_share,
	.replicated = true,
};
