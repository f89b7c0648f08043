/* block-cyclic(b): blocks of the constant b dealt cyclically, floor(i/b) mod P. */
#include "distributions/dist.h"

static void block_cyclic_owner_concrete(FILE *out, const struct dist *d, const char *index,
					const char *coord, const char *extent, long size)
{
	(void)extent;
	fprintf(out, "(floor((%s)/%ld) mod %ld = %s)", index, d->block, size, coord);
}

const struct dist_ops dist_block_cyclic_ops = {
	.name = "block-cyclic",
	.owner_concrete = block_cyclic_owner_concrete,
	.digits = {.n = 3, .size = {DIGIT_LOCAL, DIGIT_AXIS, DIGIT_BLOCK}, .owner = 1},
};
