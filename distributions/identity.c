/* identity: index i lives on coordinate i (the extent equals the axis size). */
#include "distributions/dist.h"

static void identity_owner_concrete(FILE *out, const struct dist *d, const char *index,
				    const char *coord, const char *extent, long size)
{
	(void)d;
	(void)extent;
	(void)size;
	fprintf(out, "((%s) = %s)", index, coord);
}

static __isl_give isl_set *identity_owner_values(const struct dist *d, __isl_take isl_aff *index,
						 __isl_take isl_aff *coord, __isl_keep isl_val *extent,
						 long size)
{
	(void)d;
	(void)extent;
	(void)size;
	return isl_aff_eq_set(index, coord);
}

const struct dist_ops dist_identity_ops = {
	.name = "identity",
	.owner_concrete = identity_owner_concrete,
	.owner_values = identity_owner_values,
	.digits = {.n = 1, .size = {DIGIT_AXIS}, .owner = 0},
};
