/* cyclic: index i lives on coordinate i mod P. */
#include "distributions/dist.h"

static __isl_give isl_set *cyclic_owner(const struct dist *d, __isl_take isl_aff *index,
					__isl_take isl_aff *coord, __isl_keep isl_aff *extent,
					long size)
{
	(void)d;
	/* i = size*k + coord, with 0 <= coord < size known */
	return dist_multiple_of(isl_aff_sub(index, coord),
				isl_val_int_from_si(isl_aff_get_ctx(extent), size));
}

static void *cyclic_share(const struct dist *d, const struct dist_arith *ar, void *x, void *p)
{
	(void)d;
	return dist_ceil_share(ar, x, p);
}

const struct dist_ops dist_cyclic_ops = {
	.name = "cyclic",
	.owner = cyclic_owner,
	.digits = {.n = 2, .size = {DIGIT_LOCAL, DIGIT_AXIS}, .owner = 1},
	.share = cyclic_share,
};
