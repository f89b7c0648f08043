/* The registry of distribution kinds. */
#include "distributions/dist.h"


static const struct dist_ops *const kinds[DIST_NKINDS] = {
	[DIST_NONE] = &dist_none_ops,
	[DIST_BLOCK] = &dist_block_ops,
	[DIST_CYCLIC] = &dist_cyclic_ops,
	[DIST_BLOCK_CYCLIC] = &dist_block_cyclic_ops,
	[DIST_IDENTITY] = &dist_identity_ops,
};

const struct dist_ops *dist_ops(enum dist_kind kind)
{
	if ((int)kind < 0 || kind >= DIST_NKINDS)
		return NULL;
	return kinds[kind];
}
