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

const struct dist_ops dist_identity_ops = {
	.name = "identity",
	.owner_concrete = identity_owner_concrete,
	.digits = {.n = 1, .size = {DIGIT_AXIS}, .owner = 0},
};
