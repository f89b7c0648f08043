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

/* Full rounds of P blocks of b, then what is left of the last round, of
 * which the first coordinate gets up to b: b*floor(X/(b*P)) +
 * min(b, X - b*P*floor(X/(b*P))). */
static void *block_cyclic_share(const struct dist *d, const struct dist_arith *ar, void *x,
				void *p)
{
	void *u = ar->user;
	void *b = d->block_param >= 0 ? ar->param(u, d->block_param) : ar->constant(u, d->block);
	void *bp = ar->mul(u, ar->copy(u, b), p);
	void *rounds = ar->floor_div(u, ar->copy(u, x), ar->copy(u, bp));
	void *full = ar->mul(u, ar->copy(u, b), ar->copy(u, rounds));
	void *left = ar->sub(u, x, ar->mul(u, bp, rounds));
	return ar->add(u, full, ar->min(u, b, left));
}

const struct dist_ops dist_block_cyclic_ops = {
	.name = "block-cyclic",
	.owner = block_cyclic_owner,
	.digits = {.n = 3, .size = {DIGIT_LOCAL, DIGIT_AXIS, DIGIT_BLOCK}, .owner = 1},
	.share = block_cyclic_share,
};
