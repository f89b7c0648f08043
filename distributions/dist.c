/* The registry of distribution kinds. */
#include "distributions/dist.h"


static const struct dist_ops *const kinds[DIST_NKINDS] = {
	[DIST_NONE] = &dist_none_ops,
	[DIST_BLOCK] = &dist_block_ops,
	[DIST_CYCLIC] = &dist_cyclic_ops,
	[DIST_BLOCK_CYCLIC] = &dist_block_cyclic_ops,
	[DIST_IDENTITY] = &dist_identity_ops,
	[DIST_REPLICATED] = &dist_replicated_ops,
};

const struct dist_ops *dist_ops(enum dist_kind kind)
{
	if ((int)kind < 0 || kind >= DIST_NKINDS)
		return NULL;
	return kinds[kind];
}

__isl_give isl_set *dist_multiple_of(__isl_take isl_aff *f, __isl_take isl_val *m)
{
	isl_size n = isl_aff_dim(f, isl_dim_in);
	if (n < 0) {
		isl_aff_free(f);
		isl_val_free(m);
		return NULL;
	}
	f = isl_aff_add_dims(f, isl_dim_in, 1);
	isl_aff *k = isl_aff_var_on_domain(isl_aff_get_domain_local_space(f), isl_dim_set,
					   (unsigned)n);
	f = isl_aff_sub(f, isl_aff_scale_val(k, m));
	isl_set *set = isl_set_from_basic_set(isl_aff_zero_basic_set(f));
	return isl_set_project_out(set, isl_dim_set, (unsigned)n, 1);
}
