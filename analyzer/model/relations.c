/* Relations on a concrete grid and with every value known, built by position
 * (see relations.h).
 *
 * Each relation is first a set on the dimensions [q, e, x]: the process
 * coordinates, the array element (when there is one) and the variables of the
 * statement's space (when there are any), in that order.  Affine forms of the
 * model become isl_aff on that space by position: an axis is replaced by its
 * size, a parameter by its value (every value known) or by the ISL parameter
 * at its position (concrete grid), a variable is looked up by its statement
 * number.  The variables are then projected out, and the set becomes a map
 * from q. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/model/relations.h"
#include "analyzer/util/fail.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/val.h>

#include "analyzer/util/coalesce.h"
#include "analyzer/util/val.h"
#include "distributions/dist.h"

/* Where the affine forms of one relation live. */
struct frame {
	isl_ctx *ctx;
	const struct model *m;
	const struct model_candidate *c;
	const long long *params;  /* the parameters' values; NULL: ISL parameters */
	/* with ISL parameters, the values the block sizes cyclic(nb) take (those
	 * of their parameters are read); NULL: none known */
	const long long *blocks;
	const long *sizes;        /* the axes' sizes */
	int nq, ne, nx;           /* dimensions: coordinates, element, variables */
	const int *vidx;          /* the statement number of each variable */
	isl_space *space;         /* the set space [q, e, x] */
};

__isl_give isl_space *model_param_space(isl_ctx *ctx, const struct model *m, bool axes)
{
	int n = m->nparams + (axes ? m->naxes : 0);
	isl_space *space = isl_space_params_alloc(ctx, (unsigned)n);
	for (int p = 0; p < n && space; p++) {
		const char *name = p < m->nparams ? m->params[p] : m->axes[p - m->nparams];
		space = isl_space_set_dim_id(space, isl_dim_param, (unsigned)p,
					     isl_id_alloc(ctx, name, NULL));
	}
	return space;
}

static __isl_give isl_set *nonneg(__isl_take isl_aff *a)
{
	isl_aff *z = isl_aff_zero_on_domain(isl_local_space_from_space(isl_aff_get_domain_space(a)));
	return isl_aff_ge_set(a, z);
}

static __isl_give isl_set *zero(__isl_take isl_aff *a)
{
	return isl_set_from_basic_set(isl_aff_zero_basic_set(a));
}

static __isl_give isl_aff *zero_on(__isl_keep isl_space *space)
{
	return isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(space)));
}

/* A on SPACE: a parameter at its position in SPACE's parameters, or its value
 * when PARAMS is given; an axis at position NPARAMS + axis when AXES, or its
 * size from SIZES; a variable through VIDX at dimension FIRST_X + k.  NULL
 * when A names a variable SPACE does not have. */
static __isl_give isl_aff *aff_on(__isl_keep isl_space *space, const struct model_aff *a,
				  const long long *params, const long *sizes, int nparams,
				  const int *vidx, int nx, int first_x)
{
	isl_ctx *ctx = isl_space_get_ctx(space);
	isl_aff *aff = zero_on(space);
	isl_val *c = val_from_ll(ctx, a->constant);
	for (int i = 0; i < a->nterms && aff; i++) {
		const struct model_term *t = &a->terms[i];
		isl_val *coef = val_from_ll(ctx, t->coef);
		switch (t->kind) {
		case MODEL_PARAM:
			if (params) {
				c = isl_val_add(c, isl_val_mul(coef, val_from_ll(ctx, params[t->index])));
				continue;
			}
			aff = isl_aff_set_coefficient_val(aff, isl_dim_param, t->index, coef);
			continue;
		case MODEL_AXIS:
			if (sizes) {
				c = isl_val_add(c, isl_val_mul(coef, val_from_ll(ctx, sizes[t->index])));
				continue;
			}
			aff = isl_aff_set_coefficient_val(aff, isl_dim_param, nparams + t->index, coef);
			continue;
		case MODEL_VAR:
			break;
		}
		if (t->by) {
			/* times a loop's variable: a number at values only (build
			 * refuses the other grids first) */
			if (!params) {
				isl_val_free(coef);
				aff = isl_aff_free(aff);
				break;
			}
			coef = isl_val_mul(coef, val_from_ll(ctx, params[t->by - 1]));
		}
		int pos = -1;
		for (int k = 0; k < nx && pos < 0; k++)
			if (vidx[k] == t->index)
				pos = first_x + k;
		if (pos < 0) {
			isl_val_free(coef);
			aff = isl_aff_free(aff);
			break;
		}
		aff = isl_aff_set_coefficient_val(aff, isl_dim_in, pos, coef);
	}
	if (!aff) {
		isl_val_free(c);
		return NULL;
	}
	return isl_aff_set_constant_val(aff, c);
}

/* The set of the points of SPACE (kept) where C holds; AFF is C's form on it
 * (taken). */
static __isl_give isl_set *cons_holds(const struct model_cons *c, __isl_take isl_aff *a,
				      __isl_keep isl_space *space)
{
	switch (c->kind) {
	case MODEL_GE0:
		return nonneg(a);
	case MODEL_EQ0:
		return zero(a);
	case MODEL_NE0:
		return isl_aff_ne_set(a, zero_on(space));
	case MODEL_DIVIDES:
		return dist_multiple_of(a, val_from_ll(isl_space_get_ctx(space), c->divisor));
	}
	isl_aff_free(a);
	return NULL;
}

__isl_give isl_set *model_cons_param_set(__isl_keep isl_space *space, const struct model *m,
					 const struct model_cons *c)
{
	isl_space *set_space = isl_space_set_from_params(isl_space_copy(space));
	isl_aff *a = aff_on(set_space, &c->f, NULL, NULL, m->nparams, NULL, 0, 0);
	isl_set *set = isl_set_params(cons_holds(c, a, set_space));
	isl_space_free(set_space);
	return set;
}

__isl_give isl_set *model_assumption_set(isl_ctx *ctx, const struct model *m)
{
	isl_space *space = model_param_space(ctx, m, true);
	isl_set *set = isl_set_universe(isl_space_copy(space));
	for (int i = 0; i < m->nassume && set; i++)
		set = isl_set_intersect(set, model_cons_param_set(space, m, &m->assume[i]));
	isl_space_free(space);
	return set;
}

__isl_give isl_set *model_valid_set(isl_ctx *ctx, const struct model *m)
{
	isl_space *space = model_param_space(ctx, m, true);
	isl_set *set = model_assumption_set(ctx, m);
	for (int a = 0; a < m->naxes && set; a++)
		set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)(m->nparams + a), 1);
	for (int x = 0; x < m->narrays && set; x++)
		for (int d = 0; d < m->arrays[x].ndims && set; d++) {
			struct model_cons c = model_extent_positive(m, x, d);
			set = isl_set_intersect(set, model_cons_param_set(space, m, &c));
		}
	isl_space_free(space);
	return set;
}

__isl_give isl_set *model_loops_set(isl_ctx *ctx, const struct model *m, int step,
				    const long *sizes)
{
	isl_space *space = model_param_space(ctx, m, sizes == NULL);
	isl_space *set_space = isl_space_set_from_params(isl_space_copy(space));
	isl_set *set = isl_set_universe(isl_space_copy(set_space));
	for (int l = m->steps[step].loop; l >= 0 && set; l = m->loops[l].outer) {
		const struct model_loop *lp = &m->loops[l];
		isl_aff *k = isl_aff_set_coefficient_si(zero_on(set_space), isl_dim_param, lp->param, 1);
		isl_aff *lo = aff_on(set_space, &lp->lo, NULL, sizes, m->nparams, NULL, 0, 0);
		isl_aff *hi = aff_on(set_space, &lp->hi, NULL, sizes, m->nparams, NULL, 0, 0);
		/* k - lo >= 0, hi - k - 1 >= 0 */
		set = isl_set_intersect(set, nonneg(isl_aff_sub(isl_aff_copy(k), lo)));
		set = isl_set_intersect(set, nonneg(isl_aff_add_constant_si(isl_aff_sub(hi, k), -1)));
		/* a geometric loop whose bounds are numbers: its values alone */
		long long a, b;
		if (lp->ratio >= 2 && set && model_loop_bounds(lp, sizes, &a, &b)) {
			isl_set *pts = isl_set_empty(isl_set_get_space(set));
			for (long long v = a; v < b && pts;) {
				isl_set *one = isl_set_fix_val(
					isl_set_universe(isl_set_get_space(set)), isl_dim_param,
					(unsigned)lp->param, isl_val_int_from_si(isl_set_get_ctx(set), (long)v));
				pts = isl_set_union(pts, one);
				if (!model_loop_next(lp, &v))
					break;
			}
			set = isl_set_intersect(set, pts);
		}
	}
	isl_space_free(set_space);
	isl_space_free(space);
	return isl_set_params(set);
}

/* A on the frame; NULL when it names a variable the frame does not have. */
static __isl_give isl_aff *frame_aff(const struct frame *f, const struct model_aff *a)
{
	return aff_on(f->space, a, f->params, f->sizes, f->m->nparams, f->vidx, f->nx,
		      f->nq + f->ne);
}

static __isl_give isl_aff *dim_aff(const struct frame *f, int k)
{
	return isl_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(f->space)),
				     isl_dim_set, (unsigned)k);
}

static __isl_give isl_set *cons_set(const struct frame *f, const struct model_cons *c)
{
	return cons_holds(c, frame_aff(f, &c->f), f->space);
}

/* 0 <= COORD < SIZE (COORD taken). */
static __isl_give isl_set *coord_range(__isl_take isl_aff *coord, long size)
{
	isl_ctx *ctx = isl_aff_get_ctx(coord);
	isl_aff *top = isl_aff_add_constant_val(isl_aff_neg(isl_aff_copy(coord)),
						isl_val_int_from_si(ctx, size - 1));
	return isl_set_intersect(nonneg(coord), nonneg(top));
}

/* Coordinate COORD (taken) owns INDEX (taken) under D, a dimension of EXTENT. */
static __isl_give isl_set *owns(const struct frame *f, const struct dist *d, __isl_take isl_aff *index,
				__isl_take isl_aff *coord, const struct model_aff *extent)
{
	if (d->kind == DIST_NONE || d->axis < 0) {
		isl_aff_free(index);
		return zero(coord);
	}
	long size = f->sizes[d->axis];
	struct dist valued;
	if (d->block_param >= 0) {
		/* cyclic(nb): build() made sure nb has a value, at least 1 */
		valued = *d;
		valued.block = f->params   ? (long)f->params[d->block_param]
			       : f->blocks ? (long)f->blocks[d->block_param]
					   : 0;
		d = &valued;
	}
	isl_aff *x = frame_aff(f, extent);
	isl_set *range = coord_range(isl_aff_copy(coord), size);
	isl_set *own = x ? dist_ops(d->kind)->owner(d, index, coord, x, size) : NULL;
	if (!x) {
		isl_aff_free(index);
		isl_aff_free(coord);
	}
	isl_aff_free(x);
	return isl_set_intersect(range, own);
}

/* The condition of space S: its constraints and distribution predicates. */
static __isl_give isl_set *space_set(const struct frame *f, const struct model_space *s,
				     __isl_take isl_set *acc)
{
	for (int i = 0; i < s->ncons && acc; i++)
		acc = isl_set_intersect(acc, cons_set(f, &s->cons[i]));
	for (int i = 0; i < s->npreds && acc; i++) {
		const struct model_pred *p = &s->preds[i];
		const struct model_aff *ext;
		const char *text;
		if (!model_pred_extent(f->m, f->c, p->dist, &ext, &text)) {
			/* cost_candidate refuses such a candidate first */
			isl_set_free(acc);
			return NULL;
		}
		isl_set *own = owns(f, &f->c->named[p->dist], frame_aff(f, &p->index_aff),
				    frame_aff(f, &p->coord_aff), ext);
		/* d(i) != s: wherever d(i) == s does not hold (s no coordinate
		 * at all included) */
		acc = p->negated ? isl_set_subtract(acc, own) : isl_set_intersect(acc, own);
	}
	return acc;
}

/* The specification's assumptions, when the parameters stay parameters. */
static __isl_give isl_set *assumed(const struct frame *f, __isl_take isl_set *acc)
{
	for (int i = 0; !f->params && i < f->m->nassume && acc; i++)
		acc = isl_set_intersect(acc, cons_set(f, &f->m->assume[i]));
	return acc;
}

/* The coordinates (the first dimensions) own element SUBS (kept) of array A:
 * along each axis, the dimension of A's layout spread over it decides, and an
 * axis no dimension uses is coordinate 0. */
static __isl_give isl_set *owner_set(const struct frame *f, int a, __isl_keep isl_aff *const subs[])
{
	const struct model_array *arr = &f->m->arrays[a];
	isl_set *acc = isl_set_universe(isl_space_copy(f->space));
	for (int ax = 0; ax < f->m->naxes && acc; ax++) {
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (f->c->layout[a][d].kind != DIST_NONE && f->c->layout[a][d].axis == ax)
				dim = d;
		if (dim < 0 && f->c->replicate && (f->c->replicate[a] & (1u << ax))) {
			/* a copy on every coordinate of the axis */
			acc = isl_set_intersect(acc, coord_range(dim_aff(f, ax), f->sizes[ax]));
			continue;
		}
		if (dim < 0) {
			acc = isl_set_intersect(acc, zero(dim_aff(f, ax)));
			continue;
		}
		/* owns() bounds the coordinate to the axis */
		acc = isl_set_intersect(acc, owns(f, &f->c->layout[a][dim], isl_aff_copy(subs[dim]),
						  dim_aff(f, ax), &arr->extent_affs[dim]));
	}
	return acc;
}

/* A frame on BASE's values for the coordinates, an element of NE
 * dimensions and the variables of S (if any). */
static void frame_init(struct frame *f, const struct frame *base, int cand, int ne,
		       const struct model_space *s)
{
	const struct model *m = base->m;
	isl_ctx *ctx = base->ctx;
	*f = (struct frame){.ctx = ctx, .m = m, .c = &m->cands[cand], .params = base->params,
			    .blocks = base->blocks, .sizes = base->sizes, .nq = m->naxes, .ne = ne,
			    .nx = s ? s->nvars : 0, .vidx = s ? s->vidx : NULL};
	isl_space *p = f->params ? isl_space_params_alloc(ctx, 0) : model_param_space(ctx, m, false);
	f->space = isl_space_add_dims(isl_space_set_from_params(p), isl_dim_set,
				      (unsigned)(f->nq + f->ne + f->nx));
}

/* The affine forms F[0..n) on the frame, into OUT; -1 if one failed. */
static int frame_affs(const struct frame *f, const struct model_aff *F, int n,
		      __isl_give isl_aff **out)
{
	int bad = 0;
	for (int d = 0; d < n; d++)
		bad |= !(out[d] = frame_aff(f, &F[d]));
	return bad ? -1 : 0;
}

static void free_affs(__isl_take isl_aff **a, int n)
{
	for (int d = 0; d < n; d++)
		isl_aff_free(a[d]);
}

/* The instances of ST that the coordinates compute, on frame F (whose
 * variables start with the lhs space's): the lhs space's condition, and its
 * left-hand element owned by the coordinates. */
static __isl_give isl_set *computed(const struct frame *f, const struct model_stmt *st)
{
	const struct model_array *arr = &f->m->arrays[st->lhs.array];
	isl_aff *subs[MODEL_MAX_DIMS];
	if (frame_affs(f, st->lhs.sub_affs, arr->ndims, subs) < 0) {
		free_affs(subs, arr->ndims);
		return NULL;
	}
	isl_set *set = assumed(f, owner_set(f, st->lhs.array, subs));
	free_affs(subs, arr->ndims);
	return space_set(f, &st->lhs.space, set);
}

/* The id of coordinate A: named q0, q1, ..., and described for the counting
 * engine's reasons (see count.h) as the coordinate on its axis, so that no
 * reason names q0. */
static __isl_give isl_id *coord_id(isl_ctx *ctx, const struct model *m, int a)
{
	char name[16];
	snprintf(name, sizeof(name), "q%d", a);
	return isl_id_alloc(ctx, name, m->coords[a]);
}

__isl_give isl_id *relations_element_id(isl_ctx *ctx, int d)
{
	static const char *const what[MODEL_MAX_DIMS] = {
		"index 1 of an element", "index 2 of an element", "index 3 of an element",
		"index 4 of an element", "index 5 of an element", "index 6 of an element",
		"index 7 of an element", "index 8 of an element",
	};
	char name[16];
	snprintf(name, sizeof(name), "e__%d", d);
	return isl_id_alloc(ctx, name, (void *)what[d]);
}

/* The set on [q, e, x] as a map { [q] -> [e, x] }, with the variables X
 * projected out when KEEP_X is false.  The variables X keep the user's names
 * (VARS, for the reasons of the counting engine). */
static __isl_give isl_map *to_map(const struct frame *f, __isl_take isl_set *set, bool keep_x,
				  char *const *vars)
{
	if (!keep_x)
		set = isl_set_project_out(set, isl_dim_set, (unsigned)(f->nq + f->ne), (unsigned)f->nx);
	int nout = f->ne + (keep_x ? f->nx : 0);
	isl_map *map = isl_map_from_domain(set);
	map = isl_map_move_dims(map, isl_dim_out, 0, isl_dim_in, (unsigned)f->nq, (unsigned)nout);
	for (int a = 0; a < f->nq && map; a++)
		map = isl_map_set_dim_id(map, isl_dim_in, (unsigned)a, coord_id(f->ctx, f->m, a));
	for (int d = 0; d < f->ne && map; d++)
		map = isl_map_set_dim_id(map, isl_dim_out, (unsigned)d, relations_element_id(f->ctx, d));
	for (int k = 0; keep_x && vars && k < f->nx && map; k++)
		map = isl_map_set_dim_id(map, isl_dim_out, (unsigned)(f->ne + k),
					 isl_id_alloc(f->ctx, vars[k], NULL));
	return map;
}

/* { [q] -> [e] : an instance of ST that q computes reads element e through RD } */
static __isl_give isl_map *use_map(const struct frame *base, int cand,
				   const struct model_stmt *st, const struct model_access *rd)
{
	const struct model *m = base->m;
	int ne = m->arrays[rd->array].ndims;
	struct frame f;
	frame_init(&f, base, cand, ne, &rd->space);
	isl_set *set = space_set(&f, &rd->space, computed(&f, st));
	for (int d = 0; d < ne && set; d++) {
		isl_aff *sub = frame_aff(&f, &rd->sub_affs[d]);
		set = isl_set_intersect(set, isl_aff_eq_set(dim_aff(&f, f.nq + d), sub));
	}
	isl_map *map = to_map(&f, set, false, NULL);
	isl_space_free(f.space);
	return map;
}

/* { [e] -> [q] : q owns element e of array A, within A's bounds } */
static __isl_give isl_map *own_map(const struct frame *base, int cand, int a)
{
	const struct model *m = base->m;
	const struct model_array *arr = &m->arrays[a];
	struct frame f;
	frame_init(&f, base, cand, arr->ndims, NULL);
	isl_aff *e[MODEL_MAX_DIMS];
	isl_set *set = assumed(&f, isl_set_universe(isl_space_copy(f.space)));
	for (int d = 0; d < arr->ndims; d++) {
		e[d] = dim_aff(&f, f.nq + d);
		isl_aff *x = frame_aff(&f, &arr->extent_affs[d]);
		isl_aff *top = isl_aff_add_constant_si(isl_aff_sub(x, isl_aff_copy(e[d])), -1);
		set = isl_set_intersect(set, nonneg(isl_aff_copy(e[d])));
		set = isl_set_intersect(set, nonneg(top));
	}
	set = isl_set_intersect(set, owner_set(&f, a, e));
	free_affs(e, arr->ndims);
	isl_map *map = to_map(&f, set, false, NULL);
	isl_space_free(f.space);
	return isl_map_reverse(map);
}

/* { [q] -> [x] : a point of work term T of ST in an instance q computes } */
static __isl_give isl_map *work_map(const struct frame *base, int cand,
				    const struct model_stmt *st, const struct model_space *t)
{
	struct frame f;
	frame_init(&f, base, cand, 0, t);
	isl_set *set = space_set(&f, t, computed(&f, st));
	isl_map *map = to_map(&f, set, true, t->vars);
	isl_space_free(f.space);
	return map;
}

/* Why ISL failed building a relation (analyzer/util/fail.h). */
static char *isl_reason(isl_ctx *ctx)
{
	struct fail f = {0};
	fail_isl(&f, ctx, "building a relation");
	return fail_release(&f);
}

/* Why D, block-cyclic by a size cyclic(nb), cannot be built with the block
 * sizes KNOWN (NULL: none known): NULL when it can (or is no such dist). */
static char *block_unknown(const struct model *m, const struct dist *d, const long long *known)
{
	int bp = d->block_param;
	if (bp < 0 || (known && known[bp] >= 1 && known[bp] <= LONG_MAX))
		return NULL;
	const char *nb = m->params[bp];
	char *r = NULL;
	int n = !known ? asprintf(&r, "the block size of cyclic(%s) is a size: this layout is "
				  "counted with every size given (-D %s=...)", nb, nb)
		       : asprintf(&r, "cyclic(%s) needs %s >= 1; %s = %lld", nb, nb, nb, known[bp]);
	return n < 0 ? strdup("out of memory") : r;
}

/* Why the block sizes that are sizes, cyclic(nb), of candidate CAND cannot
 * be built on frame BASE (NULL when they can): every value is needed, and
 * each at least 1. */
static char *block_sizes_unknown(const struct frame *base, int cand)
{
	const struct model *m = base->m;
	const struct model_candidate *c = &m->cands[cand];
	const long long *known = base->params ? base->params : base->blocks;
	char *r = NULL;
	for (int a = 0; a < m->narrays && !r; a++)
		for (int d = 0; d < m->arrays[a].ndims && !r; d++)
			r = block_unknown(m, &c->layout[a][d], known);
	for (int i = 0; i < m->ndists && !r; i++)
		r = block_unknown(m, &c->named[i], known);
	return r;
}

/* The relations of STEP on frame BASE (its parameters and sizes). */
static int build(const struct frame *base, int cand, int step, struct step_relations *out,
		 char **reason)
{
	const struct model *m = base->m;
	const struct model_superstep *s = &m->steps[step];
	*reason = NULL;
	if ((*reason = block_sizes_unknown(base, cand)) != NULL ||
	    (!base->params && (*reason = model_step_level_reason(m, step)) != NULL)) {
		memset(out, 0, sizeof(*out));
		return 1;
	}
	if (step_relations_alloc(out, m, step) < 0) {
		*reason = strdup("out of memory"); /* a plain allocation */
		goto fail;
	}

	isl_set *procs = isl_set_universe(isl_space_set_alloc(base->ctx, 0, (unsigned)m->naxes));
	for (int a = 0; a < m->naxes && procs; a++) {
		procs = isl_set_lower_bound_si(procs, isl_dim_set, (unsigned)a, 0);
		procs = isl_set_upper_bound_si(procs, isl_dim_set, (unsigned)a,
					       (int)(base->sizes[a] - 1));
		procs = isl_set_set_dim_id(procs, isl_dim_set, (unsigned)a,
					   coord_id(base->ctx, m, a));
	}
	out->processes = procs;
	if (!procs)
		goto isl_fail;
	for (int i = 0; i < s->nstmts; i++) {
		const struct model_stmt *st = &s->stmts[i];
		for (int r = 0; r < st->nreads; r++) {
			const struct model_access *rd = &st->reads[r];
			/* the union takes the reads so far even when U is NULL
			 * (a deadline's abort): never dropped unfreed */
			isl_map *u = use_map(base, cand, st, rd);
			if (out->use[rd->array])
				u = isl_map_union(out->use[rd->array], u);
			/* with parameters, the union of the reads is simpler once
			 * coalesced (and coalesce_map keeps its points, where
			 * isl_map_coalesce may add some); with values (or the
			 * sizes known but a loop's variable), the counts are
			 * cheaper without: LU on 8 x 8 at n = 4096 6.4 s -> 4.7 s */
			out->use[rd->array] = base->params || base->blocks ? u : coalesce_map(u);
			if (!out->use[rd->array])
				goto isl_fail;
		}
		for (int k = 0; k < st->nterms; k++) {
			isl_map *w = work_map(base, cand, st, &st->terms[k]);
			if (!w)
				goto isl_fail;
			out->work_weight[out->nwork] = st->terms[k].weight;
			out->work[out->nwork++] = w;
		}
	}
	for (int a = 0; a < m->narrays; a++) {
		for (int d = 0; d < m->arrays[a].ndims; d++) {
			const struct dist *dd = &m->cands[cand].layout[a][d];
			if (dist_ops(dd->kind)->replicated && dd->axis >= 0 && dd->axis < 3)
				out->replicated[a] |= 1u << dd->axis;
		}
		if (m->cands[cand].replicate)
			out->replicated[a] |= m->cands[cand].replicate[a];
		if (!out->use[a])
			continue;
		out->own[a] = own_map(base, cand, a);
		if (!out->own[a])
			goto isl_fail;
	}
	return 0;
isl_fail:
	*reason = isl_reason(base->ctx);
fail:
	step_relations_clear(out);
	return -1;
}

int relations_concrete(isl_ctx *ctx, const struct model *m, int cand, int step,
		       const long sizes[], struct step_relations *out, char **reason)
{
	struct frame base = {.ctx = ctx, .m = m, .params = NULL, .sizes = sizes};
	return build(&base, cand, step, out, reason);
}

int relations_concrete_blocks(isl_ctx *ctx, const struct model *m, int cand, int step,
			      const long sizes[], const long long values[],
			      struct step_relations *out, char **reason)
{
	struct frame base = {.ctx = ctx, .m = m, .params = NULL, .blocks = values, .sizes = sizes};
	return build(&base, cand, step, out, reason);
}

int relations_values(isl_ctx *ctx, const struct model *m, int cand, int step,
		     const struct model_values *v, struct step_relations *out, char **reason)
{
	struct frame base = {.ctx = ctx, .m = m, .params = v->params, .sizes = v->sizes};
	return build(&base, cand, step, out, reason);
}

int step_relations_alloc(struct step_relations *out, const struct model *m, int step)
{
	const struct model_superstep *s = &m->steps[step];
	memset(out, 0, sizeof(*out));
	out->narrays = m->narrays;
	out->use = calloc((size_t)m->narrays + 1, sizeof(*out->use));
	out->own = calloc((size_t)m->narrays + 1, sizeof(*out->own));
	out->replicated = calloc((size_t)m->narrays + 1, sizeof(*out->replicated));
	int nwork = 0;
	for (int i = 0; i < s->nstmts; i++)
		nwork += s->stmts[i].nterms;
	out->work = calloc((size_t)nwork + 1, sizeof(*out->work));
	out->work_weight = calloc((size_t)nwork + 1, sizeof(*out->work_weight));
	return out->use && out->own && out->replicated && out->work && out->work_weight ? 0 : -1;
}

int step_relations_restrict(struct step_relations *r, __isl_keep isl_set *params)
{
	bool ok = true;
	r->processes = isl_set_intersect_params(r->processes, isl_set_copy(params));
	ok &= r->processes != NULL;
	for (int a = 0; a < r->narrays; a++) {
		if (r->use[a]) {
			r->use[a] = isl_map_intersect_params(r->use[a], isl_set_copy(params));
			ok &= r->use[a] != NULL;
		}
		if (r->own[a]) {
			r->own[a] = isl_map_intersect_params(r->own[a], isl_set_copy(params));
			ok &= r->own[a] != NULL;
		}
	}
	for (int k = 0; k < r->nwork; k++) {
		r->work[k] = isl_map_intersect_params(r->work[k], isl_set_copy(params));
		ok &= r->work[k] != NULL;
	}
	return ok ? 0 : -1;
}

/* M (taken) with every parameter but the one at KEEP projected out. */
static __isl_give isl_map *map_keep_param(__isl_take isl_map *m, int keep)
{
	isl_size np = isl_map_dim(m, isl_dim_param);
	if (np < 0)
		return isl_map_free(m);
	m = isl_map_project_out(m, isl_dim_param, (unsigned)keep + 1, (unsigned)(np - keep - 1));
	return isl_map_project_out(m, isl_dim_param, 0, (unsigned)keep);
}

int step_relations_keep_param(struct step_relations *r, int keep)
{
	bool ok = true;
	isl_map *p = isl_map_from_range(r->processes);
	r->processes = isl_map_range(map_keep_param(p, keep));
	ok &= r->processes != NULL;
	for (int a = 0; a < r->narrays; a++) {
		if (r->use[a]) {
			r->use[a] = map_keep_param(r->use[a], keep);
			ok &= r->use[a] != NULL;
		}
		if (r->own[a]) {
			r->own[a] = map_keep_param(r->own[a], keep);
			ok &= r->own[a] != NULL;
		}
	}
	for (int k = 0; k < r->nwork; k++) {
		r->work[k] = map_keep_param(r->work[k], keep);
		ok &= r->work[k] != NULL;
	}
	return ok ? 0 : -1;
}

__isl_give isl_map *relations_senders(const struct step_relations *r, int a,
				      __isl_keep isl_map *uses)
{
	/* [q' -> e] -> e -> its holders, then the one in line with q' */
	isl_map *s = isl_map_apply_range(isl_map_range_map(isl_map_copy(uses)),
					 isl_map_copy(r->own[a]));
	for (int ax = 0; r->replicated && ax < 3 && s; ax++)
		if (r->replicated[a] & (1u << ax))
			s = isl_map_equate(s, isl_dim_in, (unsigned)ax, isl_dim_out, (unsigned)ax);
	return s;
}

void step_relations_clear(struct step_relations *r)
{
	isl_set_free(r->processes);
	for (int a = 0; a < r->narrays; a++) {
		if (r->use)
			isl_map_free(r->use[a]);
		if (r->own)
			isl_map_free(r->own[a]);
	}
	for (int k = 0; k < r->nwork; k++)
		isl_map_free(r->work[k]);
	free(r->use);
	free(r->own);
	free(r->replicated);
	free(r->work);
	free(r->work_weight);
	memset(r, 0, sizeof(*r));
}
