/* block (the paper's "linear"): consecutive blocks of ceil(X/P) indices.
 * Coordinate c owns c*B <= i < (c+1)*B with B = ceil(X/P); with P concrete but X
 * symbolic, c*B is affine only for a constant c, so the concrete condition
 * enumerates the coordinates; with X known too, B is a constant and c*B affine. */
#include "distributions/dist.h"

static void block_owner_concrete(FILE *out, const struct dist *d, const char *index,
				 const char *coord, const char *extent, long size)
{
	(void)d;
	fputs("(", out);
	for (long c = 0; c < size; c++)
		fprintf(out, "%s((%s) = %ld and %ld*floor((%s + %ld)/%ld) <= %s < %ld*floor((%s + %ld)/%ld))",
			c ? " or " : "", coord, c, c, extent, size - 1, size, index, c + 1, extent,
			size - 1, size);
	fputs(")", out);
}

/* B*c <= i < B*(c+1) with B = ceil(X/P): affine, with B a known constant. */
static __isl_give isl_set *block_owner_values(const struct dist *d, __isl_take isl_aff *index,
					      __isl_take isl_aff *coord, __isl_keep isl_val *extent,
					      long size)
{
	(void)d;
	isl_val *b = isl_val_ceil(isl_val_div(isl_val_copy(extent),
					      isl_val_int_from_si(isl_val_get_ctx(extent), size)));
	isl_aff *start = isl_aff_scale_val(coord, isl_val_copy(b));
	isl_aff *end = isl_aff_add_constant_val(isl_aff_copy(start), b);
	isl_set *lo = isl_aff_le_set(start, isl_aff_copy(index));
	return isl_set_intersect(lo, isl_aff_lt_set(index, end));
}

const struct dist_ops dist_block_ops = {
	.name = "block",
	.owner_concrete = block_owner_concrete,
	.owner_values = block_owner_values,
	.digits = {.n = 2, .size = {DIGIT_AXIS, DIGIT_LOCAL}, .owner = 0},
};
