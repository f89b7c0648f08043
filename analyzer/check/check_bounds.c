/* The bounds check: can an array reference fall outside its array?
 *
 * For each reference and each dimension, the set of points (parameters, grid
 * sizes, the variables in scope) that satisfy the assumptions, the ranges and
 * conditions of the enclosing quantifiers, and subscript < 0 (or subscript >=
 * extent) is built in ISL.  When it is not empty the reference is reported
 * with a witness: symbolic (i = n - 1) when the lexicographic extremum is one
 * affine piece, otherwise a sample point with every value.
 *
 * Assumed, besides the 'assume' facts: grid sizes and array extents are at
 * least 1.  A distribution predicate d(k) == v only contributes 0 <= v < the
 * size of d's axis, so the check may over-approximate, never miss. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/check/check_impl.h"
#include "analyzer/util/fail.h"
#include "analyzer/util/session.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/local_space.h>
#include <isl/mat.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOUNDS_MAX_OPERATIONS 2000000ul
/* The symbolic witness's own (symbolic_witness). */
#define WITNESS_MAX_OPERATIONS 100000ul

/* The most quotients by a constant in one subscript. */
#define BOUNDS_MAX_FLOORS 16

/* A quotient by a size, and the value it takes in one case. */
struct floor_case {
	const struct affine_floor *floor;
	int q;
};

int bounds_init(struct checker *ck, struct session *session)
{
	ck->session = session;
	ck->isl = session_ctx(session);
	if (!ck->isl)
		return -1;
	isl_ctx_set_max_operations(ck->isl, BOUNDS_MAX_OPERATIONS);
	return 0;
}

void bounds_done(struct checker *ck)
{
	if (ck->isl)
		session_ctx_free(ck->session, ck->isl);
	ck->isl = NULL;
}

/* SA * A + SB * B + K >= 0 (B may be NULL), the rows computing it exactly. */
struct bounds_goal {
	const struct affine *a;
	long long sa;
	const struct affine *b;
	long long sb;
	long long k;
};

/* The sets of the check are built by position: the parameters, then the
 * grid sizes, as ISL parameters; the variables in scope of the reference, in
 * scope order, as set dimensions.  No name is read back. */
struct bounds_space {
	const struct checked_spec *cs;
	const struct ref_info *ref;
	isl_space *space;     /* the set's */
	int *var_pos;         /* ast_var.index -> set dimension (-1: not in scope) */
	int nvar_pos;
	int nvars;            /* the variables in scope */
	/* the quotients by a constant in the goal: a set dimension each, after
	 * the variables */
	const struct affine_floor *cfloors[BOUNDS_MAX_FLOORS];
	int ncfloors;
	/* the value of each quotient by a size in this case */
	const struct floor_case *cases;
	int ncases;
};

/* The number of quotient FL among BS's quotients by a constant (its set
 * dimension after the variables), or -1. */
static int floor_dim(const struct bounds_space *bs, const struct affine_floor *fl)
{
	for (int k = 0; k < bs->ncfloors; k++)
		if (bs->cfloors[k] == fl)
			return k;
	return -1;
}

/* F as an isl_aff on the set's space. */
static __isl_give isl_aff *bounds_aff(const struct bounds_space *bs, const struct affine *f)
{
	isl_ctx *ctx = isl_space_get_ctx(bs->space);
	isl_aff *aff = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(bs->space)));
	aff = isl_aff_set_constant_val(aff, val_from_ll(ctx, f->constant));
	for (int i = 0; aff && i < f->nterms; i++) {
		const struct affine_term *t = &f->terms[i];
		enum isl_dim_type type = isl_dim_param;
		int pos = t->index;
		if (t->kind == SYM_GRID_AXIS) {
			pos = bs->cs->nparams + t->index;
		} else if (t->kind == SYM_FLOOR) {
			/* a quotient by a constant: its dimension after the variables */
			type = isl_dim_in;
			int k = floor_dim(bs, t->floor);
			if (k < 0)
				return isl_aff_free(aff);
			pos = bs->nvars + k;
		} else if (t->kind == SYM_VAR) {
			type = isl_dim_in; /* an isl_aff's domain dimensions */
			pos = t->index < bs->nvar_pos ? bs->var_pos[t->index] : -1;
			if (pos < 0)
				return isl_aff_free(aff); /* a variable out of scope: not ours */
		}
		isl_val *c = val_from_ll(ctx, t->coef);
		aff = isl_aff_set_coefficient_val(aff, type, pos,
						  isl_val_add(isl_aff_get_coefficient_val(aff, type, pos), c));
	}
	return aff;
}

/* The column of symbol T in a constraint row: the constant, the parameters,
 * the grid sizes, then the variables in scope; -1 for a variable out of scope. */
static int bounds_col(const struct bounds_space *bs, const struct affine_term *t)
{
	if (t->kind == SYM_PARAM)
		return 1 + t->index;
	if (t->kind == SYM_GRID_AXIS)
		return 1 + bs->cs->nparams + t->index;
	if (t->kind == SYM_FLOOR) {
		int k = floor_dim(bs, t->floor);
		return k < 0 ? -1 : 1 + bs->cs->nparams + bs->cs->naxes + bs->nvars + k;
	}
	int pos = t->index < bs->nvar_pos ? bs->var_pos[t->index] : -1;
	return pos < 0 ? -1 : 1 + bs->cs->nparams + bs->cs->naxes + pos;
}

/* The constraints that are one row each, gathered before one basic set is
 * made of them: intersecting them one by one simplifies the set each time,
 * which grows steeply with the number of parameters. */
struct bounds_rows {
	const struct bounds_space *bs;
	isl_mat *ge, *eq;          /* rows >= 0, rows == 0 */
	int nge, neq;
	bool failed;               /* a variable out of scope, or ISL failed */
};

/* Row ROW of *M, column COL, += C (taken). */
static void rows_put(struct bounds_rows *r, __isl_keep isl_mat **m, int row, int col,
		     __isl_take isl_val *c)
{
	if (!*m || col < 0) {
		isl_val_free(c);
		r->failed = true;
		return;
	}
	c = isl_val_add(isl_mat_get_element_val(*m, row, col), c);
	*m = isl_mat_set_element_val(*m, row, col, c);
}

/* The value of quotient FL by a size in this case; false when it has none. */
static bool case_value(const struct bounds_space *bs, const struct affine_floor *fl, int *q)
{
	for (int k = 0; k < bs->ncases; k++)
		if (bs->cases[k].floor == fl) {
			*q = bs->cases[k].q;
			return true;
		}
	return false;
}

/* Row ROW of *M += SCALE * F, exactly, and K to its constant; a quotient by
 * a size is its value in the case (a remainder: num - q*den). */
static void rows_add_scaled(struct bounds_rows *r, __isl_keep isl_mat **m, int row,
			    const struct affine *f, __isl_keep isl_val *scale, long long k)
{
	isl_ctx *ctx = isl_space_get_ctx(r->bs->space);
	rows_put(r, m, row, 0, isl_val_mul(val_from_ll(ctx, f->constant), isl_val_copy(scale)));
	rows_put(r, m, row, 0, val_from_ll(ctx, k));
	for (int i = 0; *m && i < f->nterms; i++) {
		const struct affine_term *t = &f->terms[i];
		isl_val *c = isl_val_mul(val_from_ll(ctx, t->coef), isl_val_copy(scale));
		int q;
		if (t->kind != SYM_FLOOR || t->floor->den) {
			rows_put(r, m, row, bounds_col(r->bs, t), c);
		} else if (!case_value(r->bs, t->floor, &q)) {
			isl_val_free(c);
			r->failed = true;
		} else if (t->floor->kind == FLOOR_DIV) {
			rows_put(r, m, row, 0, isl_val_mul(c, val_from_ll(ctx, q)));
		} else {
			/* c * (num - q * den) */
			rows_add_scaled(r, m, row, &t->floor->num, c, 0);
			rows_put(r, m, row, bounds_col(r->bs, &t->floor->den_term),
				 isl_val_mul(isl_val_neg(c), val_from_ll(ctx, q)));
		}
	}
	if (!*m)
		r->failed = true;
}

/* Row ROW of *M += SIGN * F, exactly, and K to its constant. */
static void rows_add(struct bounds_rows *r, __isl_keep isl_mat **m, int row, const struct affine *f,
		     int sign, long long k)
{
	isl_val *scale = isl_val_int_from_si(isl_space_get_ctx(r->bs->space), sign);
	rows_add_scaled(r, m, row, f, scale, k);
	isl_val_free(scale);
}

/* A new row, B - A + K >= 0 (or == 0 with EQ); A may be NULL. */
static void rows_push(struct bounds_rows *r, bool eq, const struct affine *b, const struct affine *a,
		      long long k)
{
	isl_mat **m = eq ? &r->eq : &r->ge;
	int row = eq ? r->neq++ : r->nge++;
	rows_add(r, m, row, b, 1, k);
	if (a)
		rows_add(r, m, row, a, -1, 0);
}

/* { x : AFF(x) >= 0 }: -AFF - 1 < 0, AFF having integer values. */
static __isl_give isl_basic_set *nonneg(__isl_take isl_aff *aff)
{
	return isl_aff_neg_basic_set(isl_aff_add_constant_si(isl_aff_neg(aff), -1));
}

/* Atom A: a row or two of R, or (what needs a union or a division) a set to
 * intersect with; NULL when none. */
static __isl_give isl_set *bounds_atom(struct bounds_rows *r, const struct cond_atom *a)
{
	const struct bounds_space *bs = r->bs;
	switch (a->kind) {
	case ATOM_GE0:
		rows_push(r, false, &a->f, NULL, 0);
		return NULL;
	case ATOM_EQ0:
		rows_push(r, true, &a->f, NULL, 0);
		return NULL;
	case ATOM_NE0: {
		/* f <= -1 or f >= 1 */
		isl_aff *f = bounds_aff(bs, &a->f);
		isl_set *below = isl_set_from_basic_set(
			nonneg(isl_aff_add_constant_si(isl_aff_neg(isl_aff_copy(f)), -1)));
		isl_set *above = isl_set_from_basic_set(nonneg(isl_aff_add_constant_si(f, -1)));
		return isl_set_union(below, above);
	}
	case ATOM_DIVIDES:
		if (a->divisor.nterms == 0) {
			isl_ctx *ctx = isl_space_get_ctx(bs->space);
			isl_aff *m = isl_aff_mod_val(bounds_aff(bs, &a->f),
						     val_from_ll(ctx, a->divisor.constant));
			return isl_set_from_basic_set(isl_aff_zero_basic_set(m));
		}
		return NULL; /* a symbolic divisor is not affine: left out */
	case ATOM_OWNER:
		if (!a->negated && a->dist->axis) {
			/* 0 <= value < the axis's size */
			struct affine_term t = {SYM_GRID_AXIS, a->dist->axis->index, 1, NULL};
			struct affine axis = {0, 1, &t};
			rows_push(r, false, &a->value, NULL, 0);
			rows_push(r, false, &axis, &a->value, -1);
		}
		return NULL;
	}
	return NULL;
}

static int atom_rows(const struct cond_atom *a)
{
	return a->kind == ATOM_OWNER ? 2 : 1;
}

/* Whether F holds a quotient by a geometric loop's variable. */
static bool has_level(const struct affine *f)
{
	for (int i = 0; i < f->nterms; i++)
		if (f->terms[i].kind == SYM_FLOOR &&
		    (f->terms[i].floor->level || has_level(&f->terms[i].floor->num)))
			return true;
	return false;
}

static bool atom_has_level(const struct cond_atom *a)
{
	return has_level(&a->f) || has_level(&a->value);
}

/* Whether a condition around REF has a quotient by a loop's variable (left
 * out of the check). */
static bool scopes_have_level(const struct ref_info *ref)
{
	for (int s = 0; s < ref->nscopes; s++)
		for (int k = 0; ref->scopes[s]->cond && k < ref->scopes[s]->cond->natoms; k++)
			if (atom_has_level(&ref->scopes[s]->cond->atoms[k]))
				return true;
	return false;
}

/* Adds the quotients by a constant in F (and in their dividends) to BS,
 * inner ones first; false when there are too many. */
static bool gather_floors(struct bounds_space *bs, const struct affine *f)
{
	for (int i = 0; i < f->nterms; i++) {
		const struct affine_floor *fl = f->terms[i].floor;
		if (f->terms[i].kind != SYM_FLOOR)
			continue;
		if (!gather_floors(bs, &fl->num))
			return false;
		if (!fl->den)
			continue;
		bool seen = false;
		for (int k = 0; k < bs->ncfloors; k++)
			seen |= bs->cfloors[k] == fl;
		if (seen)
			continue;
		if (bs->ncfloors == BOUNDS_MAX_FLOORS)
			return false;
		bs->cfloors[bs->ncfloors++] = fl;
	}
	return true;
}

/* Adds the quotients by a constant of the conditions around REF (a
 * forall's; those by a loop's variable are left out with their atoms) to
 * BS; false when there are too many. */
static bool gather_scope_floors(struct bounds_space *bs, const struct ref_info *ref)
{
	for (int s = 0; s < ref->nscopes; s++)
		for (int k = 0; ref->scopes[s]->cond && k < ref->scopes[s]->cond->natoms; k++)
			if (!atom_has_level(&ref->scopes[s]->cond->atoms[k]) &&
			    !gather_floors(bs, &ref->scopes[s]->cond->atoms[k].f))
				return false;
	return true;
}

/* The points (parameters, grid sizes, variables in scope, then one
 * dimension per quotient by a constant in GOAL) of REF's domain
 * (assumptions, the implicit ones included, ranges, conditions) where
 * GOAL holds, each quotient by a size taking its value in CASES[0..ncases);
 * with PARAMS_AS_DIMS the parameters and grid sizes are set dimensions in
 * front, so that one point gives every value.  NULL when ISL failed. */
static __isl_give isl_set *bounds_set(isl_ctx *ctx, const struct checked_spec *cs,
				      const struct ast_loop *loop, const struct ref_info *ref,
				      const struct bounds_goal *goal, const struct floor_case *cases,
				      int ncases, bool params_as_dims)
{
	int nvars = 0, maxindex = 0, nrows = cs->naxes + 1 + 2 * ncases;
	for (int s = 0; s < ref->nscopes; s++) {
		const struct ast_quant *q = ref->scopes[s];
		for (int v = 0; v < q->nvars; v++) {
			nvars++;
			if (q->vars[v]->index + 1 > maxindex)
				maxindex = q->vars[v]->index + 1;
		}
		nrows += 2 * q->nvars;
		for (int k = 0; q->cond && k < q->cond->natoms; k++)
			nrows += atom_rows(&q->cond->atoms[k]);
	}
	for (int a = 0; a < cs->narrays; a++)
		nrows += cs->arrays[a]->rank;
	for (int i = 0; i < cs->nassumptions; i++)
		nrows += atom_rows(&cs->assumptions[i]);
	for (const struct ast_loop *l = loop; l; l = l->outer)
		nrows += l->nrange;

	struct bounds_space bs = {.cs = cs, .ref = ref, .var_pos = calloc((size_t)maxindex + 1, sizeof(int)),
				  .nvar_pos = maxindex, .nvars = nvars, .cases = cases, .ncases = ncases};
	if (!bs.var_pos) {   /* ISL's error, as its own would be: isl_trouble says it */
		isl_handle_error(ctx, isl_error_alloc, "out of memory", __FILE__, __LINE__);
		return NULL;
	}
	bool gathered = gather_floors(&bs, goal->a) && (!goal->b || gather_floors(&bs, goal->b)) &&
			gather_scope_floors(&bs, ref);
	if (!gathered) {
		free(bs.var_pos);
		return NULL;
	}
	nrows += 2 * bs.ncfloors;
	for (int i = 0; i < maxindex; i++)
		bs.var_pos[i] = -1;
	int pos = 0;
	for (int s = 0; s < ref->nscopes; s++)
		for (int v = 0; v < ref->scopes[s]->nvars; v++)
			bs.var_pos[ref->scopes[s]->vars[v]->index] = pos++;
	bs.space = isl_space_set_alloc(ctx, (unsigned)(cs->nparams + cs->naxes),
				       (unsigned)(nvars + bs.ncfloors));
	unsigned ncols = 1 + (unsigned)(cs->nparams + cs->naxes + nvars + bs.ncfloors);
	struct bounds_rows r = {&bs, isl_mat_alloc(ctx, (unsigned)nrows, ncols),
				isl_mat_alloc(ctx, (unsigned)nrows, ncols), 0, 0, false};
	for (int i = 0; i < nrows; i++)
		for (unsigned c = 0; c < ncols; c++) {
			r.ge = isl_mat_set_element_si(r.ge, i, (int)c, 0);
			r.eq = isl_mat_set_element_si(r.eq, i, (int)c, 0);
		}

	isl_set *extra = isl_set_universe(isl_space_copy(bs.space));
	struct affine one = {1, 0, NULL}, zero = {0, 0, NULL};
	for (int g = 0; g < cs->naxes; g++) {
		struct affine_term t = {SYM_GRID_AXIS, g, 1, NULL};
		struct affine axis = {0, 1, &t};
		rows_push(&r, false, &axis, &one, 0);
	}
	for (int a = 0; a < cs->narrays; a++)
		for (int d = 0; d < cs->arrays[a]->rank; d++)
			if (cs->arrays[a]->extents[d]->aff)
				rows_push(&r, false, cs->arrays[a]->extents[d]->aff, &one, 0);
	for (int i = 0; i < cs->nassumptions; i++) {
		isl_set *x = bounds_atom(&r, &cs->assumptions[i]);
		if (x)
			extra = isl_set_intersect(extra, x);
	}
	/* the ranges of the loops around the statement (GE0 atoms) */
	for (const struct ast_loop *l = loop; l; l = l->outer)
		for (int i = 0; i < l->nrange; i++)
			bounds_atom(&r, &l->range[i]);
	for (int s = 0; s < ref->nscopes; s++) {
		const struct ast_quant *q = ref->scopes[s];
		for (int v = 0; v < q->nvars; v++) {
			struct affine_term t = {SYM_VAR, q->vars[v]->index, 1, NULL};
			struct affine var = {0, 1, &t};
			rows_push(&r, false, &var, q->vars[v]->lo_aff, 0);
			rows_push(&r, false, q->vars[v]->hi_aff, &var, -1);
		}
		for (int k = 0; q->cond && k < q->cond->natoms; k++) {
			if (atom_has_level(&q->cond->atoms[k]))
				continue;   /* not affine: left out, a superset */
			isl_set *x = bounds_atom(&r, &q->cond->atoms[k]);
			if (x)
				extra = isl_set_intersect(extra, x);
		}
	}
	/* each quotient e = floor(num / d): 0 <= num - d*e <= d - 1 */
	for (int k = 0; k < bs.ncfloors; k++) {
		const struct affine_floor *fl = bs.cfloors[k];
		struct affine_term t = {SYM_FLOOR, -1, fl->den, fl};
		struct affine de = {0, 1, &t};
		rows_push(&r, false, &fl->num, &de, 0);
		rows_push(&r, false, &de, &fl->num, fl->den - 1);
	}
	/* each quotient q by a size d in its case: 0 <= num - q*d <= d - 1 */
	for (int k = 0; k < ncases; k++) {
		const struct affine_floor *fl = cases[k].floor;
		struct affine_term t = fl->den_term;
		t.coef = cases[k].q;
		struct affine qd = {0, 1, &t};
		rows_push(&r, false, &fl->num, cases[k].q ? &qd : NULL, 0);
		t.coef = cases[k].q + 1;
		rows_push(&r, false, t.coef ? &qd : &zero, &fl->num, -1);
	}
	{
		int row = r.nge++;
		isl_val *sa = val_from_ll(ctx, goal->sa);
		rows_add_scaled(&r, &r.ge, row, goal->a, sa, goal->k);
		isl_val_free(sa);
		if (goal->b) {
			isl_val *sb = val_from_ll(ctx, goal->sb);
			rows_add_scaled(&r, &r.ge, row, goal->b, sb, 0);
			isl_val_free(sb);
		}
	}

	isl_set *set = NULL;
	if (!r.failed) {
		r.ge = isl_mat_drop_rows(r.ge, (unsigned)r.nge, (unsigned)(nrows - r.nge));
		r.eq = isl_mat_drop_rows(r.eq, (unsigned)r.neq, (unsigned)(nrows - r.neq));
		isl_basic_set *bset = isl_basic_set_from_constraint_matrices(
			isl_space_copy(bs.space), r.eq, r.ge, isl_dim_cst, isl_dim_param, isl_dim_set,
			isl_dim_div);
		r.eq = r.ge = NULL;
		set = isl_set_intersect(isl_set_from_basic_set(bset), extra);
		extra = NULL;
	}
	isl_mat_free(r.ge);
	isl_mat_free(r.eq);
	isl_set_free(extra);
	if (params_as_dims)
		set = isl_set_move_dims(set, isl_dim_set, 0, isl_dim_param, 0,
					(unsigned)(cs->nparams + cs->naxes));
	isl_space_free(bs.space);
	free(bs.var_pos);
	return set;
}

/* An isl_aff over the parameters of bounds_set as our affine form, if it is
 * one (no division, integer coefficients). */
static bool aff_from_isl(struct checker *ck, __isl_keep isl_aff *aff, struct affine *out)
{
	if (!aff || isl_aff_dim(aff, isl_dim_div) != 0 || isl_aff_dim(aff, isl_dim_in) != 0)
		return false;
	isl_val *den = isl_aff_get_denominator_val(aff);
	bool one = den && isl_val_is_one(den) == isl_bool_true;
	isl_val_free(den);
	if (!one)
		return false;
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	if (np < 0)
		return false;
	out->nterms = 0;
	out->terms = arena_alloc(ck->arena, (size_t)np * sizeof(*out->terms) + 1);
	if (!out->terms)
		return false;
	if (!val_to_ll(isl_aff_get_constant_val(aff), &out->constant))
		return false;
	for (int k = 0; k < np; k++) {
		long long c;
		if (!val_to_ll(isl_aff_get_coefficient_val(aff, isl_dim_param, k), &c))
			return false;
		if (c == 0)
			continue;
		/* by position: the parameters, then the grid sizes (bounds_set) */
		int np_spec = ck->cs->nparams;
		out->terms[out->nterms++] = (struct affine_term){k < np_spec ? SYM_PARAM : SYM_GRID_AXIS,
								 k < np_spec ? k : k - np_spec, c, NULL};
	}
	/* in our canonical order already: parameters, then grid sizes, by index */
	return true;
}

struct piece_data {
	isl_multi_aff *ma;
};

static isl_stat grab_piece(__isl_take isl_set *set, __isl_take isl_multi_aff *ma, void *user)
{
	struct piece_data *d = user;
	isl_set_free(set);
	isl_multi_aff_free(d->ma);
	d->ma = ma;
	return isl_stat_ok;
}

/* "i = n - 1" for the variables of the subscript, or NULL. */
static char *symbolic_witness(struct checker *ck, __isl_keep isl_set *set,
			      const struct ref_info *ref, int dim, bool upper,
			      const struct ast_stmt *s)
{
	const struct affine *sub = &ref->subs[dim];
	bool has_var = false;
	for (int i = 0; i < sub->nterms; i++)
		has_var |= sub->terms[i].kind == SYM_VAR;
	if (!has_var)
		return NULL;
	/* under a budget of its own: the extreme of a set of many quotients
	 * can take seconds to sample (20 s for a fuzzed condition of nine
	 * moduli and four quotients), and then the sample point is given */
	unsigned long budget = isl_ctx_get_max_operations(ck->isl);
	isl_ctx_reset_operations(ck->isl);
	isl_ctx_set_max_operations(ck->isl, WITNESS_MAX_OPERATIONS);
	isl_pw_multi_aff *pma = upper ? isl_set_lexmax_pw_multi_aff(isl_set_copy(set))
				      : isl_set_lexmin_pw_multi_aff(isl_set_copy(set));
	if (!pma && isl_ctx_last_error(ck->isl) == isl_error_quota)
		isl_ctx_reset_error(ck->isl);
	isl_ctx_reset_operations(ck->isl);
	isl_ctx_set_max_operations(ck->isl, budget);
	if (!pma || isl_pw_multi_aff_n_piece(pma) != 1) {
		isl_pw_multi_aff_free(pma);
		return NULL;
	}
	struct piece_data d = {NULL};
	isl_pw_multi_aff_foreach_piece(pma, grab_piece, &d);
	isl_pw_multi_aff_free(pma);
	if (!d.ma)
		return NULL;
	struct text txt;
	if (text_open(&txt) < 0) {
		isl_multi_aff_free(d.ma);
		diag_nomem(ck->dg);
		return NULL;
	}
	FILE *out = txt.f;
	bool ok = true;
	const char *sep = "";
	int pos = 0;
	for (int sc = 0; sc < ref->nscopes && ok; sc++)
		for (int v = 0; v < ref->scopes[sc]->nvars && ok; v++, pos++) {
			const struct ast_var *var = ref->scopes[sc]->vars[v];
			bool in_sub = false;
			for (int i = 0; i < sub->nterms; i++)
				in_sub |= sub->terms[i].kind == SYM_VAR && sub->terms[i].index == var->index;
			if (!in_sub)
				continue;
			struct affine f;
			isl_aff *aff = isl_multi_aff_get_at(d.ma, pos);
			ok = aff_from_isl(ck, aff, &f);
			isl_aff_free(aff);
			if (!ok)
				break;
			char *t = affine_to_string(&f, ck->cs, s->vars);
			if (!t) {
				diag_nomem(ck->dg);
				ok = false;
				break;
			}
			fprintf(out, "%s%s = %s", sep, var->name, t);
			free(t);
			sep = ", ";
		}
	char *buf = text_close(&txt);
	isl_multi_aff_free(d.ma);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "n = 2, P = 1, i = 1": one point of SET (all of whose dimensions are
 * parameters, grid sizes, then the variables in scope). */
static char *sample_witness(struct checker *ck, __isl_take isl_set *flat,
			    const struct ref_info *ref)
{
	const struct checked_spec *cs = ck->cs;
	/* the least point, parameters first, when there is one: small values
	 * read best; any point otherwise (a parameter with no lower bound) */
	isl_set *least = isl_set_lexmin(isl_set_copy(flat));
	isl_point *pt = least ? isl_set_sample_point(least) : NULL;
	if (!pt || isl_point_is_void(pt) != isl_bool_false) {
		isl_point_free(pt);
		isl_ctx_reset_error(ck->isl);
		pt = isl_set_sample_point(flat);
	} else {
		isl_set_free(flat);
	}
	if (!pt || isl_point_is_void(pt) != isl_bool_false) {
		isl_point_free(pt);
		return NULL;
	}
	struct text txt;
	if (text_open(&txt) < 0) {
		isl_point_free(pt);
		diag_nomem(ck->dg);
		return NULL;
	}
	FILE *out = txt.f;
	int pos = 0;
	const char *sep = "";
	bool ok = true;
	for (int p = 0; p < cs->nparams + cs->naxes && ok; p++, pos++) {
		long long v;
		ok = val_to_ll(isl_point_get_coordinate_val(pt, isl_dim_set, pos), &v);
		const char *name = p < cs->nparams ? cs->params[p]->name : cs->axes[p - cs->nparams]->name;
		if (p < cs->nparams && !param_in_scope(cs, p, ck->loop))
			continue;   /* another loop's variable: not this statement's */
		fprintf(out, "%s%s = %lld", sep, name, v);
		sep = ", ";
	}
	for (int sc = 0; sc < ref->nscopes && ok; sc++)
		for (int v = 0; v < ref->scopes[sc]->nvars && ok; v++, pos++) {
			long long x;
			ok = val_to_ll(isl_point_get_coordinate_val(pt, isl_dim_set, pos), &x);
			fprintf(out, "%s%s = %lld", sep, ref->scopes[sc]->vars[v]->name, x);
		}
	char *buf = text_close(&txt);
	isl_point_free(pt);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void isl_trouble(struct checker *ck, const struct ref_info *ref)
{
	if (session_ctx_stopped(ck->isl)) {
		/* an error: a specification whose bounds were not checked goes no further */
		if (!ck->stopped) {
			char *t = expr_text(ck, ref->expr);
			diag_error(ck->dg, ref->expr->span,
				   "the run's time limit ran out while checking the bounds of "
				   "'%s'; the bounds that follow are not checked", t);
			free(t);
		}
		ck->stopped = true;
		return;
	}
	if (isl_ctx_last_error(ck->isl) == isl_error_alloc) {
		/* out of memory (ISL's, or bounds_set's own): the spec is refused */
		diag_nomem(ck->dg);
		return;
	}
	char *t = expr_text(ck, ref->expr);
	struct fail f = {0};
	fail_isl(&f, ck->isl, "could not check the bounds of '%s'", t);
	diag_warning(ck->dg, ref->expr->span, "%s", fail_reason(&f));
	fail_clear(&f);
	free(t);
}

/* The quotients by a size in F (and in the dividends of its quotients by a
 * constant), added to LIST[0..*n) once each at their least value; false past
 * MAX of them. */
static bool gather_cases(const struct affine *f, struct floor_case *list, int *n, int max)
{
	for (int i = 0; i < f->nterms; i++) {
		const struct affine_floor *fl = f->terms[i].floor;
		if (f->terms[i].kind != SYM_FLOOR)
			continue;
		if (fl->den) {
			if (!gather_cases(&fl->num, list, n, max))
				return false;
			continue;
		}
		bool seen = false;
		for (int k = 0; k < *n; k++)
			seen |= list[k].floor == fl;
		if (seen)
			continue;
		if (*n == max)
			return false;
		list[(*n)++] = (struct floor_case){fl, fl->qlo};
	}
	return true;
}

/* The next case of LIST[0..n) (an odometer over each quotient's range);
 * false after the last. */
static bool next_case(struct floor_case *list, int n)
{
	for (int k = 0; k < n; k++) {
		if (list[k].q < list[k].floor->qhi) {
			list[k].q++;
			return true;
		}
		list[k].q = list[k].floor->qlo;
	}
	return false;
}

/* The most quotients by a size in one subscript. */
#define BOUNDS_MAX_CASES 3

/* Returns true when it reported something for REF. */
static bool check_one(struct checker *ck, const struct ast_stmt *s, const struct ref_info *ref, int dim,
		      bool upper)
{
	const struct affine *sub = &ref->subs[dim];
	/* sub - extent >= 0, or -sub - 1 >= 0 */
	struct bounds_goal goal = upper ? (struct bounds_goal){sub, 1, ref->array->extents[dim]->aff, -1, 0}
					: (struct bounds_goal){sub, -1, NULL, 0, -1};
	struct floor_case cases[BOUNDS_MAX_CASES];
	int ncases = 0;
	bool fine = gather_cases(sub, cases, &ncases, BOUNDS_MAX_CASES);
	bool proven = true;
	for (int k = 0; fine && k < ncases; k++)
		proven &= cases[k].floor->proven;
	/* the quotients by numbers bounds_set gives a dimension each */
	struct bounds_space probe = {.cs = ck->cs};
	fine = fine && gather_floors(&probe, sub) && gather_scope_floors(&probe, ref);
	if (!fine || !proven) {
		char *st = expr_text(ck, ref->expr->args[dim]);
		if (!fine)
			diag_error(ck->dg, ref->expr->args[dim]->span,
				   "subscript %s: too many quotients (at most %d by sizes, %d by numbers, "
				   "with those of the forall's condition)",
				   st, BOUNDS_MAX_CASES, BOUNDS_MAX_FLOORS);
		else
			diag_error(ck->dg, ref->expr->args[dim]->span,
				   "subscript %s: the range of its quotient by a size could not be "
				   "proven (ISL gave up); its bounds are not checked", st);
		free(st);
		return true;
	}
	isl_set *set = NULL;
	do {
		isl_ctx_reset_operations(ck->isl);
		set = bounds_set(ck->isl, ck->cs, ck->loop, ref, &goal, cases, ncases, false);
		isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
		if (empty == isl_bool_error) {
			isl_set_free(set);
			isl_trouble(ck, ref);
			return true;
		}
		if (empty == isl_bool_false)
			break;
		isl_set_free(set);
		set = NULL;
	} while (next_case(cases, ncases));
	if (!set)
		return false;
	char *witness = symbolic_witness(ck, set, ref, dim, upper, s);
	isl_set_free(set);
	if (!witness) {
		isl_ctx_reset_operations(ck->isl);
		witness = sample_witness(ck, bounds_set(ck->isl, ck->cs, ck->loop, ref, &goal, cases,
							ncases, true), ref);
	}
	char *rt = expr_text(ck, ref->expr);
	char *st = expr_text(ck, ref->expr->args[dim]);
	char *et = upper ? expr_text(ck, ref->array->extents[dim]) : NULL;
	/* a condition by a loop's variable was left out: say how to state it */
	char *hint = NULL;
	if (scopes_have_level(ref) &&
	    asprintf(&hint, " (this check leaves out quotients by a loop's variable: if the "
			    "condition keeps it in bounds, add '%s %s %s' to the condition)",
		     st, upper ? "<" : ">=", upper ? et : "0") < 0)
		hint = NULL;
	if (upper)
		diag_error(ck->dg, ref->expr->span, "'%s' is out of bounds%s%s: subscript %s must be less than %s%s",
			   rt, witness ? " for " : "", witness ? witness : "", st, et, hint ? hint : "");
	else
		diag_error(ck->dg, ref->expr->span, "'%s' is out of bounds%s%s: subscript %s must not be negative%s",
			   rt, witness ? " for " : "", witness ? witness : "", st, hint ? hint : "");
	free(hint);
	free(et);
	isl_ctx_reset_error(ck->isl);
	free(rt);
	free(st);
	free(witness);
	return true;
}

/* Whether REF's domain has a point where GOAL >= 0: 1 yes, 0 no, -1 when
 * ISL failed (reported). */
static int reachable(struct checker *ck, const struct ref_info *ref, const struct bounds_goal *goal)
{
	isl_ctx_reset_operations(ck->isl);
	isl_set *set = bounds_set(ck->isl, ck->cs, ck->loop, ref, goal, NULL, 0, false);
	isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
	isl_set_free(set);
	if (empty == isl_bool_error) {
		isl_trouble(ck, ref);
		return -1;
	}
	return empty == isl_bool_false;
}

/* The range of quotient FL of REF by a size d: its divisor is positive, and
 * its dividend lies within CHECK_MAX_QUOTIENTS multiples of d wherever REF
 * is evaluated.  Sets FL's qlo, qhi and proven, or reports why not. */
static void prove_quotient(struct checker *ck, const struct ast_stmt *s, const struct ref_info *ref,
			   struct affine_floor *fl)
{
	struct affine d = {0, 1, &fl->den_term};
	const int far = 8;
	char *num = affine_to_string(&fl->num, ck->cs, s->vars);
	char *den = affine_to_string(&d, ck->cs, NULL);
	char *text = expr_text(ck, fl->expr);
	int r;
	if (!num || !den || !text) {
		diag_nomem(ck->dg);
		goto done;
	}
	/* d <= 0 */
	if ((r = reachable(ck, ref, &(struct bounds_goal){&d, -1, NULL, 0, 0})) < 0)
		goto done;
	if (r) {
		diag_error(ck->dg, fl->expr->span, "the divisor of '%s' must be positive wherever it "
			   "is evaluated: assume %s >= 1, or bound the range that uses it", text, den);
		goto done;
	}
	/* qlo: the largest q in [-far, far] with num >= q*d everywhere */
	int lo = -far - 1;
	for (int q = -far; q <= far; q++) {
		/* num < q*d: q*d - num - 1 >= 0 */
		if ((r = reachable(ck, ref, &(struct bounds_goal){&d, q, &fl->num, -1, -1})) < 0)
			goto done;
		if (r)
			break;
		lo = q;
	}
	int hi = lo > -far - 1 ? lo + CHECK_MAX_QUOTIENTS : lo;
	for (int q = lo; q < hi; q++) {
		/* num >= (q + 1)*d: num - (q + 1)*d >= 0 */
		if ((r = reachable(ck, ref, &(struct bounds_goal){&fl->num, 1, &d, -(q + 1), 0})) < 0)
			goto done;
		if (!r) {
			fl->qlo = lo;
			fl->qhi = q;
			fl->proven = true;
			goto done;
		}
	}
	diag_error(ck->dg, fl->expr->span, "'%s': %s must lie within %d multiples of %s wherever "
		   "it is evaluated, e.g. 0 <= %s < %d*%s, which the ranges and assumptions do not show",
		   text, num, CHECK_MAX_QUOTIENTS, den, num, CHECK_MAX_QUOTIENTS, den);
done:
	free(num);
	free(den);
	free(text);
}

/* Proves the range of every quotient by a size in F (a subscript of REF). */
static void prove_quotients(struct checker *ck, const struct ast_stmt *s, const struct ref_info *ref,
			    const struct affine *f)
{
	for (int i = 0; i < f->nterms && !ck->stopped; i++) {
		struct affine_floor *fl = (struct affine_floor *)f->terms[i].floor;
		if (f->terms[i].kind != SYM_FLOOR)
			continue;
		if (fl->den)
			prove_quotients(ck, s, ref, &fl->num);
		else if (!fl->proven)
			prove_quotient(ck, s, ref, fl);
	}
}

/* Every factor of S's work weight is non-negative wherever S runs (its
 * left-hand side's domain: the forall): each term proven so; otherwise an
 * error with values (the term stays unproven, and the model refuses it,
 * when ISL could not tell). */
static void check_work_factors(struct checker *ck, const struct ast_stmt *s)
{
	const struct ref_info *lhs = &s->refs[0];
	for (int i = 0; i < s->nwork_terms && !ck->stopped; i++) {
		struct work_term *t = (struct work_term *)&s->work_terms[i];
		bool all = true;
		for (int k = 0; k < t->nfactors; k++) {
			const struct affine *f = &t->factors[k];
			/* f <= -1 */
			struct bounds_goal below = {f, -1, NULL, 0, -1};
			int r = reachable(ck, lhs, &below);
			all &= r == 0;
			if (r <= 0)
				continue;
			isl_ctx_reset_operations(ck->isl);
			char *witness = sample_witness(ck, bounds_set(ck->isl, ck->cs, ck->loop, lhs, &below,
								      NULL, 0, true), lhs);
			char *ft = affine_to_string(f, ck->cs, s->vars);
			char *wt = expr_text(ck, s->work);
			if (!ft || !wt)
				diag_nomem(ck->dg);
			else
				diag_error(ck->dg, s->work->span, "work '%s': its factor %s is "
					   "negative%s%s; each factor of a work weight must be "
					   "non-negative", wt, ft, witness ? " for " : "",
					   witness ? witness : "");
			isl_ctx_reset_error(ck->isl);
			free(witness);
			free(ft);
			free(wt);
			return;
		}
		t->proven = all;
	}
}

void check_stmt_bounds(struct checker *ck, const struct ast_stmt *s)
{
	if (!ck->isl_ready || !ck->isl || ck->stopped)
		return;
	check_work_factors(ck, s);
	for (int r = 0; r < s->nrefs && !ck->stopped; r++) {
		const struct ref_info *ref = &s->refs[r];
		bool reported = false;
		int before = ck->dg->nerrors;
		for (int d = 0; d < ref->array->rank && !ck->stopped; d++)
			prove_quotients(ck, s, ref, &ref->subs[d]);
		if (ck->dg->nerrors != before)
			continue;
		for (int d = 0; d < ref->array->rank && !reported; d++) {
			if (!ref->array->extents[d]->aff)
				break;
			reported = check_one(ck, s, ref, d, false) || check_one(ck, s, ref, d, true);
		}
	}
}
