/* cyclic: index i lives on coordinate i mod P. */
#include "distributions/dist.h"

static void cyclic_owner_concrete(FILE *out, const struct dist *d, const char *index,
				  const char *coord, const char *extent, long size)
{
	(void)d;
	(void)extent;
	fprintf(out, "((%s) mod %ld = %s)", index, size, coord);
}

const struct dist_ops dist_cyclic_ops = {
	.name = "cyclic",
	.owner_concrete = cyclic_owner_concrete,
	.digits = {.n = 2, .size = {DIGIT_LOCAL, DIGIT_AXIS}, .owner = 1},
};
