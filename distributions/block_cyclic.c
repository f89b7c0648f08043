/* block-cyclic(b): blocks of the constant b dealt cyclically, floor(i/b) mod P. */
#include "distributions/dist.h"

static __isl_give isl_set *block_cyclic_owner(const struct dist *d, __isl_take isl_aff *index,
					      __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
					      long size)
{
	isl_ctx *ctx = isl_aff_get_ctx(extent);
	isl_aff *blk = isl_aff_floor(isl_aff_scale_down_val(index, isl_val_int_from_si(ctx, d->block)));
	return isl_aff_eq_set(isl_aff_mod_val(blk, isl_val_int_from_si(ctx, size)), coord);
}

const struct dist_ops dist_block_cyclic_ops = {
	.name = "block-cyclic",
	.owner = block_cyclic_owner,
	.digits = {.n = 3, .size = {DIGIT_LOCAL, DIGIT_AXIS, DIGIT_BLOCK}, .owner = 1},
};
