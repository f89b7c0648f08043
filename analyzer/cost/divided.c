/* A concrete grid's sizes counted as multiples of their blocks (divided.h). */
#include "analyzer/cost/divided.h"

#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/space.h>

#include "analyzer/model/model.h"

/* The least common multiple of A and B, both positive; 0 past LONG_MAX. */
static long lcm(long a, long b)
{
	long x = a, y = b;
	while (y) {
		long t = x % y;
		x = y;
		y = t;
	}
	long q = a / x, r;
	return __builtin_mul_overflow(q, b, &r) ? 0 : r;
}

/* The size parameter that AFF is, with coefficient 1 and nothing else; -1. */
static int bare_param(const struct model *m, const struct model_aff *aff)
{
	if (aff->constant != 0 || aff->nterms != 1 || aff->terms[0].kind != MODEL_PARAM ||
	    aff->terms[0].coef != 1 || aff->terms[0].by != 0 ||
	    aff->terms[0].index >= model_nsizes(m))
		return -1;
	return aff->terms[0].index;
}

/* What D splits an extent into: its axis's processes times the block of
 * block-cyclic, when the kind's digits have a block length (X/P); 1 when
 * it has none (not distributed, identity). */
static long block_divisor(const struct dist *d, const long *sizes)
{
	const struct digits *dg = &dist_ops(d->kind)->digits;
	bool local = false, block = false;
	for (int k = 0; k < dg->n; k++) {
		local |= dg->size[k] == DIGIT_LOCAL;
		block |= dg->size[k] == DIGIT_BLOCK;
	}
	/* one process owns every block: no floor to take out */
	if (!local || d->axis < 0 || sizes[d->axis] == 1)
		return 1;
	long r;
	if (__builtin_mul_overflow(sizes[d->axis], block ? d->block : 1, &r) || r < 1)
		return 0;
	return r;
}

int cost_size_divisors(const struct model *m, int cand, const long *sizes, long *div)
{
	int nsizes = model_nsizes(m);
	for (int p = 0; p < m->nparams; p++)
		div[p] = 1;
	const struct model_candidate *c = &m->cands[cand];
	for (int x = 0; x < m->narrays; x++) {
		if (!model_cand_has(m, cand, x))
			continue;
		for (int d = 0; d < m->arrays[x].ndims; d++) {
			const struct dist *ds = &c->layout[x][d];
			if (ds->block_param >= 0)
				return -1;
			int p = bare_param(m, &m->arrays[x].extent_affs[d]);
			long b = block_divisor(ds, sizes);
			if (b == 0)
				return -1;
			if (p < 0 || p >= nsizes || b == 1)
				continue;
			div[p] = lcm(div[p], b);
			if (div[p] == 0 || div[p] > COST_DIVISOR_MAX)
				return -1;
		}
	}
	int n = 0;
	for (int p = 0; p < nsizes; p++)
		n += div[p] > 1;
	return n;
}

/* One of set and map: the operations below on either. */
struct divided_ops {
	isl_size (*dim)(void *, enum isl_dim_type);
	int (*find)(void *, enum isl_dim_type, __isl_keep isl_id *);
	isl_space *(*space)(void *);
	void *(*add_dims)(void *, enum isl_dim_type, unsigned);
	void *(*add_constraint)(void *, isl_constraint *);
	void *(*project_out)(void *, enum isl_dim_type, unsigned, unsigned);
	void *(*set_dim_id)(void *, enum isl_dim_type, unsigned, isl_id *);
	void *(*align_params)(void *, isl_space *);
	void (*free)(void *);
};

/* X (taken) with each size parameter p whose DIV[p] > 1 replaced by p/DIV[p]
 * under p's own name: the equality p = DIV[p]*p' added, p projected out
 * (ISL eliminates it exactly), p' named p.  The parameters keep their order. */
static void *divided(void *x, const struct divided_ops *op, const struct model *m,
		     const long *div)
{
	if (!x)
		return NULL;
	isl_space *order = op->space(x);
	isl_ctx *ctx = isl_space_get_ctx(order);
	isl_space *names = model_param_space(ctx, m, false);
	for (int p = 0; p < model_nsizes(m) && x; p++) {
		if (div[p] <= 1)
			continue;
		isl_id *id = isl_space_get_dim_id(names, isl_dim_param, (unsigned)p);
		int pos = op->find(x, isl_dim_param, id);
		isl_size n = op->dim(x, isl_dim_param);
		if (pos < 0 || n < 0) {
			isl_id_free(id);
			if (n < 0) {
				op->free(x);
				x = NULL;
			}
			continue;
		}
		x = op->add_dims(x, isl_dim_param, 1);
		isl_space *space = x ? op->space(x) : NULL;
		isl_constraint *c = space ? isl_constraint_alloc_equality(
						    isl_local_space_from_space(space))
					  : NULL;
		c = isl_constraint_set_coefficient_si(c, isl_dim_param, pos, 1);
		c = isl_constraint_set_coefficient_si(c, isl_dim_param, (int)n, (int)-div[p]);
		x = c ? op->add_constraint(x, c) : (op->free(x), NULL);
		x = x ? op->project_out(x, isl_dim_param, (unsigned)pos, 1) : NULL;
		x = x ? op->set_dim_id(x, isl_dim_param, (unsigned)n - 1, id) : (isl_id_free(id), NULL);
	}
	isl_space_free(names);
	if (!x) {
		isl_space_free(order);
		return NULL;
	}
	return op->align_params(x, order);
}

/* The adaptors: ISL's functions for sets and maps, with void pointers. */
#define ADAPT(T)                                                                              \
	static isl_size T##_dim_(void *x, enum isl_dim_type t) { return isl_##T##_dim(x, t); } \
	static int T##_find_(void *x, enum isl_dim_type t, isl_id *id)                       \
	{                                                                                     \
		return isl_##T##_find_dim_by_id(x, t, id);                                    \
	}                                                                                     \
	static isl_space *T##_space_(void *x) { return isl_##T##_get_space(x); }              \
	static void *T##_add_dims_(void *x, enum isl_dim_type t, unsigned n)                  \
	{                                                                                     \
		return isl_##T##_add_dims(x, t, n);                                           \
	}                                                                                     \
	static void *T##_add_constraint_(void *x, isl_constraint *c)                          \
	{                                                                                     \
		return isl_##T##_add_constraint(x, c);                                        \
	}                                                                                     \
	static void *T##_project_out_(void *x, enum isl_dim_type t, unsigned f, unsigned n)   \
	{                                                                                     \
		return isl_##T##_project_out(x, t, f, n);                                     \
	}                                                                                     \
	static void *T##_set_dim_id_(void *x, enum isl_dim_type t, unsigned p, isl_id *id)    \
	{                                                                                     \
		return isl_##T##_set_dim_id(x, t, p, id);                                     \
	}                                                                                     \
	static void *T##_align_params_(void *x, isl_space *s)                                 \
	{                                                                                     \
		return isl_##T##_align_params(x, s);                                          \
	}                                                                                     \
	static void T##_free_(void *x) { isl_##T##_free(x); }                                 \
	static const struct divided_ops T##_ops = {                                           \
		T##_dim_,	  T##_find_,	   T##_space_,	      T##_add_dims_,		\
		T##_add_constraint_, T##_project_out_, T##_set_dim_id_, T##_align_params_,      \
		T##_free_,                                                                    \
	};

ADAPT(set)
ADAPT(map)

__isl_give isl_set *cost_divided_set(__isl_take isl_set *set, const struct model *m,
				     const long *div)
{
	return divided(set, &set_ops, m, div);
}

__isl_give isl_map *cost_divided_map(__isl_take isl_map *map, const struct model *m,
				     const long *div)
{
	return divided(map, &map_ops, m, div);
}

int cost_divide_relations(struct step_relations *r, const struct model *m, const long *div)
{
	int bad = 0;
	r->processes = cost_divided_set(r->processes, m, div);
	bad |= !r->processes;
	for (int a = 0; a < r->narrays; a++) {
		if (r->use[a]) {
			r->use[a] = cost_divided_map(r->use[a], m, div);
			bad |= !r->use[a];
		}
		if (r->own[a]) {
			r->own[a] = cost_divided_map(r->own[a], m, div);
			bad |= !r->own[a];
		}
	}
	for (int k = 0; k < r->nwork; k++) {
		r->work[k] = cost_divided_map(r->work[k], m, div);
		bad |= !r->work[k];
	}
	return bad ? -1 : 0;
}

__isl_give isl_set *cost_divisible_set(isl_ctx *ctx, const struct model *m, const long *div)
{
	isl_space *space = model_param_space(ctx, m, false);
	isl_set *set = isl_set_universe(isl_space_copy(space));
	for (int p = 0; p < model_nsizes(m) && set; p++) {
		if (div[p] <= 1)
			continue;
		isl_space *on = isl_space_set_from_params(isl_space_copy(space));
		isl_aff *x = isl_aff_var_on_domain(isl_local_space_from_space(on), isl_dim_param,
						   (unsigned)p);
		set = isl_set_intersect(
			set, isl_set_params(dist_multiple_of(x, isl_val_int_from_si(ctx, div[p]))));
	}
	isl_space_free(space);
	return set;
}
