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

long dist_block_length(const struct dist *d)
{
	const struct digits *dg = &dist_ops(d->kind)->digits;
	for (int k = 0; k < dg->n; k++)
		if (dg->size[k] == DIGIT_BLOCK)
			return d->block;
	return 1;
}

void *dist_ceil_share(const struct dist_arith *ar, void *x, void *p)
{
	/* floor((X + P - 1)/P) */
	void *pm1 = ar->sub(ar->user, ar->copy(ar->user, p), ar->constant(ar->user, 1));
	return ar->floor_div(ar->user, ar->add(ar->user, x, pm1), p);
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
