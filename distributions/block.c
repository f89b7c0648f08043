/* block (the paper's "linear"): consecutive blocks of ceil(X/P) indices.
 * Coordinate c owns c*B <= i < (c+1)*B with B = ceil(X/P).  With X known, B is
 * a constant and c*B is affine in the coordinate; with X a parameter, c*B is
 * affine only for a constant c, so the coordinates are enumerated. */
#include "distributions/dist.h"

#include <isl/local_space.h>

/* start <= index < start + len (index taken; start and len kept). */
static __isl_give isl_set *within(__isl_take isl_aff *index, __isl_keep isl_aff *start,
				  __isl_keep isl_aff *len)
{
	isl_aff *end = isl_aff_add(isl_aff_copy(start), isl_aff_copy(len));
	isl_set *lo = isl_aff_le_set(isl_aff_copy(start), isl_aff_copy(index));
	return isl_set_intersect(lo, isl_aff_lt_set(index, end));
}

static __isl_give isl_set *block_owner(const struct dist *d, __isl_take isl_aff *index,
				       __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
				       long size)
{
	(void)d;
	isl_ctx *ctx = isl_aff_get_ctx(extent);
	/* B = floor((X + size - 1) / size) */
	isl_aff *b = isl_aff_add_constant_val(isl_aff_copy(extent), isl_val_int_from_si(ctx, size - 1));
	b = isl_aff_floor(isl_aff_scale_down_val(b, isl_val_int_from_si(ctx, size)));
	isl_bool cst = isl_aff_is_cst(b);
	isl_set *own = NULL;
	if (cst == isl_bool_true) {
		isl_aff *start = isl_aff_scale_val(coord, isl_aff_get_constant_val(b));
		own = within(index, start, b);
		isl_aff_free(start);
		isl_aff_free(b);
		return own;
	}
	if (cst == isl_bool_false) {
		/* the union over c of { coord = c and c*B <= index < (c+1)*B } */
		own = isl_set_empty(isl_aff_get_domain_space(index));
		for (long c = 0; c < size && own; c++) {
			isl_aff *at = isl_aff_add_constant_val(isl_aff_copy(coord), isl_val_int_from_si(ctx, -c));
			isl_set *here = isl_set_from_basic_set(isl_aff_zero_basic_set(at));
			isl_aff *start = isl_aff_scale_val(isl_aff_copy(b), isl_val_int_from_si(ctx, c));
			here = isl_set_intersect(here, within(isl_aff_copy(index), start, b));
			isl_aff_free(start);
			own = isl_set_union(own, here);
		}
	}
	isl_aff_free(b);
	isl_aff_free(index);
	isl_aff_free(coord);
	return own;
}

static void *block_share(const struct dist *d, const struct dist_arith *ar, void *x, void *p)
{
	(void)d;
	return dist_ceil_share(ar, x, p);
}

const struct dist_ops dist_block_ops = {
	.name = "block",
	.owner = block_owner,
	.digits = {.n = 2, .size = {DIGIT_AXIS, DIGIT_LOCAL}, .owner = 0},
	.share = block_share,
};
