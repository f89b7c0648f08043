/* identity: index i lives on coordinate i (the extent equals the axis size). */
#include "distributions/dist.h"

static __isl_give isl_set *identity_owner(const struct dist *d, __isl_take isl_aff *index,
					  __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
					  long size)
{
	(void)d;
	(void)extent;
	(void)size;
	return isl_aff_eq_set(index, coord);
}

/* one index per coordinate */
static void *identity_share(const struct dist *d, const struct dist_arith *ar, void *x,
			    void *p)
{
	(void)d;
	ar->free(ar->user, x);
	ar->free(ar->user, p);
	return ar->constant(ar->user, 1);
}

const struct dist_ops dist_identity_ops = {
	.name = "identity",
	.owner = identity_owner,
	.digits = {.n = 1, .size = {DIGIT_AXIS}, .owner = 0},
	.share = identity_share,
};
