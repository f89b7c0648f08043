/* block (the paper's "linear"): consecutive blocks of ceil(X/P) indices.
 * Coordinate c owns c*B <= i < (c+1)*B with B = ceil(X/P); with P concrete, c*B
 * is affine only for a constant c, so the condition enumerates the coordinates. */
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

const struct dist_ops dist_block_ops = {
	.name = "block",
	.owner_concrete = block_owner_concrete,
	.digits = {.n = 2, .size = {DIGIT_AXIS, DIGIT_LOCAL}, .owner = 0},
};
