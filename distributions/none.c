/* '*': not distributed.  The dimension uses no grid axis; an axis that no
 * dimension of a layout uses is coordinate 0 (the paper's one-owner hypothesis). */
#include "distributions/dist.h"

static __isl_give isl_set *none_owner(const struct dist *d, __isl_take isl_aff *index,
				      __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
				      long size)
{
	(void)d;
	(void)extent;
	(void)size;
	isl_aff_free(index);
	return isl_set_from_basic_set(isl_aff_zero_basic_set(coord));
}

/* the whole dimension */
static void *none_share(const struct dist *d, const struct dist_arith *ar, void *x, void *p)
{
	(void)d;
	ar->free(ar->user, p);
	return x;
}

const struct dist_ops dist_none_ops = {
	.name = "*",
	.owner = none_owner,
	.digits = {.n = 1, .size = {DIGIT_EXTENT}, .owner = -1},
	.share = none_share,
};
