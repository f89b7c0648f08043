/* '*': not distributed.  The dimension uses no grid axis; an axis that no
 * dimension of a layout uses is coordinate 0 (the paper's one-owner hypothesis). */
#include "distributions/dist.h"

static void none_owner_concrete(FILE *out, const struct dist *d, const char *index,
				const char *coord, const char *extent, long size)
{
	(void)d;
	(void)index;
	(void)extent;
	(void)size;
	fprintf(out, "((%s) = 0)", coord);
}

const struct dist_ops dist_none_ops = {
	.name = "*",
	.owner_concrete = none_owner_concrete,
	.digits = {.n = 1, .size = {DIGIT_EXTENT}, .owner = -1},
};
