/* Formulas on a context: restriction, gist and pruning of the conditions,
 * and coalescing, which merges the pieces whose values are shown to agree (a
 * few witness points rule most pairs out before formula_proven_equal is
 * asked) and drops from max and min the operands another bounds on the
 * piece's condition (fml_poly_sign_on, formula_sign.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/val.h"

/* ---------------------------------------------------------------- restriction and gist */

/* F's pieces with conditions transformed by FN, which takes the condition (NULL
 * for everywhere) and returns the new one (NULL for everywhere) with *STATUS 0,
 * or sets *STATUS to 1 to drop the piece, -1 on error. */
static struct formula *map_conditions(const struct formula *f,
	__isl_give isl_set *(*fn)(__isl_take isl_set *, void *, int *), void *user)
{
	struct formula *r;
	int i, size = 0;

	f->vars->refs++;
	r = fml_formula_alloc(f->vars, 0);
	if (!r)
		return NULL;
	free(r->p);
	r->p = NULL;
	r->outside = f->outside;
	for (i = 0; i < f->n; i++) {
		int status = 0;
		isl_set *c = fn(f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL,
			user, &status);
		if (status < 0) {
			isl_set_free(c);
			formula_free(r);
			return NULL;
		}
		if (status > 0) {
			isl_set_free(c);
			continue;
		}
		if (fml_push_piece(r, &size, c, fml_node_copy(f->vars, f->p[i].val)) < 0) {
			formula_free(r);
			return NULL;
		}
	}
	return r;
}

static __isl_give isl_set *restrict_fn(__isl_take isl_set *c, void *user, int *status)
{
	isl_set *cond = user;

	c = c ? isl_set_intersect(c, isl_set_copy(cond)) : isl_set_copy(cond);
	if (!c)
		*status = -1;
	return c;
}

struct formula *formula_restrict(const struct formula *f, __isl_take isl_set *cond)
{
	struct formula *r, *g = NULL;

	if (!f || !cond) {
		isl_set_free(cond);
		return NULL;
	}
	if (f->outside == FORMULA_ZERO_OUTSIDE) {
		/* make the zero outside explicit before restricting */
		struct formula *z = formula_const_si(0);
		formula_set_outside(z, FORMULA_ZERO_OUTSIDE);
		g = formula_add(f, z);
		formula_free(z);
		if (!g) {
			isl_set_free(cond);
			return NULL;
		}
		f = g;
	}
	r = map_conditions(f, restrict_fn, cond);
	if (r)
		r->outside = FORMULA_UNDEFINED_OUTSIDE;
	formula_free(g);
	isl_set_free(cond);
	return r;
}

static __isl_give isl_set *gist_fn(__isl_take isl_set *c, void *user, int *status)
{
	isl_set *context = user;
	isl_bool empty;

	if (!c)
		return NULL;
	c = isl_set_intersect(c, isl_set_copy(context));
	empty = isl_set_is_empty(c);
	if (empty < 0 || empty) {
		*status = empty < 0 ? -1 : 1;
		return isl_set_free(c);
	}
	c = isl_set_gist(c, isl_set_copy(context));
	c = coalesce_set(c);
	if (!c)
		*status = -1;
	return c;
}

struct formula *formula_gist(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	return map_conditions(f, gist_fn, context);
}

static isl_stat add_bset_constraints(__isl_take isl_basic_set *b, void *user)
{
	isl_size *n = user;
	isl_size k = isl_basic_set_n_constraint(b);
	isl_basic_set_free(b);
	if (k < 0)
		return isl_stat_error;
	*n += k;
	return isl_stat_ok;
}

/* The number of constraints of SET's disjuncts, -1 on failure. */
static isl_size n_constraints(__isl_keep isl_set *set)
{
	isl_size n = 0;
	return isl_set_foreach_basic_set(set, &add_bset_constraints, &n) < 0 ? -1 : n;
}

int fml_names_more(__isl_keep isl_set *g, __isl_keep isl_set *b)
{
	isl_size np = isl_set_dim(g, isl_dim_param);
	for (int i = 0; np >= 0 && i < np; i++) {
		isl_bool in_g = isl_set_involves_dims(g, isl_dim_param, (unsigned)i, 1);
		if (in_g < 0)
			return -1;
		if (!in_g)
			continue;
		isl_id *id = isl_set_get_dim_id(g, isl_dim_param, (unsigned)i);
		int at = id ? isl_set_find_dim_by_id(b, isl_dim_param, id) : -1;
		isl_id_free(id);
		isl_bool in_b = at < 0 ? isl_bool_false
				       : isl_set_involves_dims(b, isl_dim_param, (unsigned)at, 1);
		if (in_b < 0)
			return -1;
		if (!in_b)
			return 1;
	}
	return np < 0 ? -1 : 0;
}

struct prune {
	isl_set *context;
	isl_set *kept;   /* the disjuncts kept so far */
};

/* One disjunct B of a condition: left out where it does not meet the
 * context, else simplified under it where that leaves fewer constraints
 * and names no parameter B does not (a gist may also write out what the
 * context implies: k0_P == 0 where P == 1 and k0_P < P). */
static isl_stat prune_bset(__isl_take isl_basic_set *b, void *user)
{
	struct prune *pr = user;
	isl_set *one = isl_set_from_basic_set(b);
	isl_set *meet = isl_set_intersect(isl_set_copy(one), isl_set_copy(pr->context));
	isl_bool empty = isl_set_is_empty(meet);
	isl_set_free(meet);
	if (empty != isl_bool_false) {
		isl_set_free(one);
		return empty < 0 ? isl_stat_error : isl_stat_ok;
	}
	isl_set *g = isl_set_gist(isl_set_copy(one), isl_set_copy(pr->context));
	isl_size ng = g ? n_constraints(g) : -1, n1 = n_constraints(one);
	int more = g ? fml_names_more(g, one) : -1;
	if (ng < 0 || n1 < 0 || more < 0) {
		isl_set_free(g);
		isl_set_free(one);
		return isl_stat_error;
	}
	if (ng < n1 && !more) {
		isl_set_free(one);
		one = g;
	} else {
		isl_set_free(g);
	}
	pr->kept = pr->kept ? isl_set_union(pr->kept, one) : one;
	return pr->kept ? isl_stat_ok : isl_stat_error;
}

static __isl_give isl_set *prune_fn(__isl_take isl_set *c, void *user, int *status)
{
	struct prune pr = {user, NULL};
	if (!c)
		return NULL;
	isl_stat st = isl_set_foreach_basic_set(c, &prune_bset, &pr);
	if (st < 0) {
		*status = -1;
		isl_set_free(pr.kept);
		isl_set_free(c);
		return NULL;
	}
	if (!pr.kept) {
		*status = 1; /* no disjunct meets the context: the piece goes */
		isl_set_free(c);
		return NULL;
	}
	isl_set_free(c);
	return pr.kept;
}

struct formula *formula_prune(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	return map_conditions(f, prune_fn, context);
}

/* The most disjuncts of a condition formula_hull_conditions writes as one. */
enum { HULL_MAX_DISJUNCTS = 16 };

static isl_stat has_div(__isl_take isl_basic_set *b, void *user)
{
	isl_size nd = isl_basic_set_dim(b, isl_dim_div);
	isl_basic_set_free(b);
	if (nd < 0)
		return isl_stat_error;
	if (nd > 0)
		*(bool *)user = true;
	return nd > 0 ? isl_stat_error : isl_stat_ok;   /* stop at the first */
}

/* The box of WITHIN (taken): each parameter's least and largest value there,
 * where it has them, as bounds; NULL when ISL failed. */
static __isl_give isl_set *param_box(__isl_take isl_set *within)
{
	isl_size np = isl_set_dim(within, isl_dim_param);
	isl_set *box = np >= 0 ? isl_set_universe(isl_set_get_space(within)) : NULL;
	for (int k = 0; box && k < np; k++) {
		isl_aff *x = isl_aff_var_on_domain(isl_local_space_from_space(
			isl_set_get_space(within)), isl_dim_param, (unsigned)k);
		isl_val *lo = isl_set_min_val(within, x), *hi = isl_set_max_val(within, x);
		isl_aff_free(x);
		if (!lo || !hi)
			box = isl_set_free(box);
		else {
			if (isl_val_is_int(lo))
				box = isl_set_lower_bound_val(box, isl_dim_param, (unsigned)k,
							      isl_val_copy(lo));
			if (isl_val_is_int(hi))
				box = isl_set_upper_bound_val(box, isl_dim_param, (unsigned)k,
							      isl_val_copy(hi));
		}
		isl_val_free(lo);
		isl_val_free(hi);
	}
	isl_set_free(within);
	return box;
}

/* C as the box of its disjuncts within CONTEXT (USER: each parameter's
 * least and largest value there) where that box holds no other point of
 * CONTEXT, simplified there: the four disjuncts (b <= 2 && M >= b + 2 &&
 * N >= 3 && n__bM == 1) || ... || (M >= 3 && N >= 3 && n__bM >= 2) that
 * make up M >= 3 && N >= 3.  C itself where it has one disjunct, more than
 * HULL_MAX_DISJUNCTS, or a disjunct with a quotient, and where the box is
 * larger or no shorter. */
static __isl_give isl_set *hull_fn(__isl_take isl_set *c, void *user, int *status)
{
	isl_set *context = user;
	if (!c)
		return NULL;
	isl_size n = isl_set_n_basic_set(c);
	bool divs = false;
	if (n < 0 || (n >= 2 && n <= HULL_MAX_DISJUNCTS &&
		      isl_set_foreach_basic_set(c, &has_div, &divs) < 0 && !divs)) {
		*status = -1;
		return isl_set_free(c);
	}
	if (n < 2 || n > HULL_MAX_DISJUNCTS || divs)
		return c;
	isl_set *box = param_box(isl_set_intersect(isl_set_copy(c), isl_set_copy(context)));
	isl_set *within = isl_set_intersect(isl_set_copy(box), isl_set_copy(context));
	isl_bool same = isl_set_is_subset(within, c);
	isl_set_free(within);
	if (same < 0) {
		isl_set_free(box);
		*status = -1;
		return isl_set_free(c);
	}
	if (!same) {
		isl_set_free(box);
		return c;
	}
	isl_set *g = coalesce_set(isl_set_gist(box, isl_set_copy(context)));
	isl_size ng = g ? isl_set_n_basic_set(g) : -1;
	/* (as prune_bset: no parameter the condition did not name, which the
	 * box may bound where the context ties it to one the condition names) */
	int more = g ? fml_names_more(g, c) : -1;
	if (ng < 0 || more < 0) {
		isl_set_free(g);
		*status = -1;
		return isl_set_free(c);
	}
	if (ng >= n || more) {
		isl_set_free(g);
		return c;
	}
	isl_set_free(c);
	return g;
}

struct formula *formula_hull_conditions(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	return map_conditions(f, hull_fn, context);
}

/* ---------------------------------------------------------------- coalescing */

/* The formula that is piece I's value on piece J's condition. */
static struct formula *value_on(const struct formula *f, int i, int j)
{
	f->vars->refs++;
	struct formula *g = fml_formula_alloc(f->vars, 1);
	if (!g)
		return NULL;
	g->n = 1;
	g->outside = FORMULA_UNDEFINED_OUTSIDE;
	g->p[0].cond = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
	g->p[0].val = fml_node_copy(f->vars, f->p[i].val);
	if (!g->p[0].val || (f->p[j].cond && !g->p[0].cond)) {
		formula_free(g);
		return NULL;
	}
	return g;
}

static void drop_piece(struct formula *r, int j)
{
	isl_set_free(r->p[j].cond);
	fml_node_free(r->vars, r->p[j].val);
	memmove(&r->p[j], &r->p[j + 1], sizeof(*r->p) * (size_t)(r->n - j - 1));
	r->n--;
}

/* A few points of a piece's condition at which values are compared before a
 * proof is attempted: a sample point, and the points a step or a few steps
 * away from it along each parameter that are still in the condition.  Values
 * that agree on all of them rarely agree everywhere; values that differ at one
 * need no proof to be told apart. */
enum { WITNESS_MAX = 24 };

/* The points are found as they are needed (witnesses_next): most pairs of
 * pieces differ at the first, and finding all 24 of each of the 16 pieces
 * of SUMMA's fan-in (conditions of 25 to 100 disjuncts) took half a second
 * of its 3 s tidy.  They are the points, in the order, found before all at
 * once: in COND as it was when they began, not in a merged piece's. */
struct witnesses {
	int np, n;                  /* parameters, points */
	const char **names;         /* the condition's, then the formula's others */
	long long *values;          /* n rows of np values */
	isl_set *cond;              /* where the next are found (NULL: no more) */
	int ncond, k, dir;          /* the condition's parameters; the next step */
};

static void witnesses_clear(struct witnesses *w)
{
	free(w->names);
	free(w->values);
	isl_set_free(w->cond);
	memset(w, 0, sizeof(*w));
}

/* The coordinates of PT, the first NP of the NALL values of a witness row;
 * the others (parameters the condition leaves free) get fixed values. */
static int point_values(__isl_keep isl_point *pt, int np, int nall, long long *out)
{
	for (int k = 0; k < np; k++) {
		isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_param, k);
		if (!v || !isl_val_is_int(v) ||
		    isl_val_cmp_si(v, LLONG_MAX / 2) > 0 || isl_val_cmp_si(v, LLONG_MIN / 2) < 0) {
			isl_val_free(v);
			return -1;
		}
		out[k] = isl_val_get_num_si(v);
		isl_val_free(v);
	}
	for (int k = np; k < nall; k++)
		out[k] = 7 + 4 * (k - np); /* 7, 11, 15, ...: no special values */
	return 0;
}

/* The witnesses of COND (kept), none found yet; FNAMES, the formula's
 * parameters, give values to those the condition leaves free. */
static void witnesses_init(struct witnesses *w, __isl_keep isl_set *cond, char **fnames, int fn)
{
	memset(w, 0, sizeof(*w));
	isl_size np = isl_set_dim(cond, isl_dim_param);
	if (np < 0)
		return;
	w->names = calloc((size_t)(np + fn) + 1, sizeof(*w->names));
	if (!w->names)
		return;
	for (int k = 0; k < np; k++)
		w->names[w->np++] = isl_set_get_dim_name(cond, isl_dim_param, (unsigned)k);
	for (int k = 0; k < fn; k++) {
		if (isl_set_find_dim_by_name(cond, isl_dim_param, fnames[k]) < 0)
			w->names[w->np++] = fnames[k];
	}
	w->values = calloc((size_t)(w->np + 1) * WITNESS_MAX, sizeof(*w->values));
	if (!w->values) {
		witnesses_clear(w);
		return;
	}
	w->ncond = (int)np;
	w->cond = isl_set_copy(cond);
}

/* One more witness point of W's condition: first a sample point, then for
 * each parameter of the condition a point where it is larger than at the
 * sample, and one where it is smaller, when there are such points.  False
 * when there are no more. */
static bool witnesses_next(struct witnesses *w)
{
	while (w->cond) {
		long long *row = w->values + (size_t)w->n * (size_t)w->np;
		if (w->n == 0) {
			isl_point *pt = isl_set_sample_point(isl_set_copy(w->cond));
			bool found = pt && isl_point_is_void(pt) == isl_bool_false &&
				     point_values(pt, w->ncond, w->np, row) == 0;
			isl_point_free(pt);
			if (!found)
				break;
			w->n = 1;
			return true;
		}
		if (w->k >= w->ncond || (w->dir == 0 && w->n + 2 > WITNESS_MAX))
			break;
		int k = w->k, dir = w->dir;
		if (++w->dir == 2) {
			w->dir = 0;
			w->k++;
		}
		long long s0 = w->values[k];
		if (s0 <= INT_MIN + 1 || s0 >= INT_MAX - 1)
			continue; /* a witness is a hint: not worth an overflow */
		isl_set *part = dir == 0
			? isl_set_lower_bound_si(isl_set_copy(w->cond), isl_dim_param, (unsigned)k,
						 (int)(s0 + 1))
			: isl_set_upper_bound_si(isl_set_copy(w->cond), isl_dim_param, (unsigned)k,
						 (int)(s0 - 1));
		isl_point *q = isl_set_sample_point(part);
		bool found = q && isl_point_is_void(q) == isl_bool_false &&
			     point_values(q, w->ncond, w->np, row) == 0;
		isl_point_free(q);
		if (found) {
			w->n++;
			return true;
		}
	}
	isl_set_free(w->cond);
	w->cond = NULL;
	return false;
}

/* 1 when the values of pieces I and J differ at a witness point of J's
 * condition (W, its points found as far as needed). */
static int differ_at_witness(const struct formula *r, int i, int j, struct witnesses *w)
{
	int differ = 0;
	for (int p = 0; !differ && (p < w->n || witnesses_next(w)); p++) {
		struct feval_env env;
		if (fml_env_init(&env, r->vars, w->names, w->values + (size_t)p * (size_t)w->np,
				 w->np) != 0)
			break;
		fmpq_t a, b;
		fmpq_init(a);
		fmpq_init(b);
		if (fml_node_eval(r->vars, r->p[i].val, &env, a) == 0 &&
		    fml_node_eval(r->vars, r->p[j].val, &env, b) == 0)
			differ = !fmpq_equal(a, b);
		fmpq_clear(a);
		fmpq_clear(b);
		fml_env_clear(&env, r->vars);
	}
	return differ;
}

static int is_zero_piece(const struct formula *r, int j)
{
	return r->p[j].val->kind == FK_POLY && fml_poly_is_zero(r->vars, r->p[j].val);
}

/* F on CONTEXT: every condition intersected with it; for a zero-outside formula
 * the part of CONTEXT no piece covers becomes an explicit zero piece.  The result
 * keeps F's outside. */
static struct formula *on_context(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	struct formula *r = formula_copy(f);
	if (!r)
		return NULL;
	r->typical = false;   /* a new formula: its pieces are not F's */
	/* each condition is F's within CONTEXT, and the zero piece below is
	 * what none of them covers */
	r->apart_in = f->apart_in ? isl_set_copy(f->apart_in) : NULL;
	for (int i = 0; i < r->n; i++) {
		r->p[i].cond = r->p[i].cond ? isl_set_intersect(r->p[i].cond, isl_set_copy(context))
					    : isl_set_copy(context);
		isl_bool empty = isl_set_is_empty(r->p[i].cond);
		if (empty < 0) {
			formula_free(r);
			return NULL;
		}
		if (empty)
			drop_piece(r, i--);
	}
	if (f->outside == FORMULA_ZERO_OUTSIDE) {
		isl_set *rest = isl_set_copy(context);
		for (int i = 0; i < r->n && rest; i++)
			rest = isl_set_subtract(rest, isl_set_copy(r->p[i].cond));
		isl_bool empty = isl_set_is_empty(rest);
		struct fpiece *p = empty == isl_bool_false
					   ? realloc(r->p, sizeof(*r->p) * (size_t)(r->n + 1))
					   : NULL;
		if (p) {
			r->p = p;
			p[r->n].cond = rest;
			p[r->n].val = fml_poly_zero(r->vars);
			rest = NULL;
			if (!p[r->n++].val) {
				formula_free(r);
				return NULL;
			}
		}
		isl_set_free(rest);
		if (empty < 0 || (empty == isl_bool_false && !p)) {
			formula_free(r);
			return NULL;
		}
	}
	return r;
}

struct formula *formula_on(const struct formula *f, __isl_keep isl_set *context)
{
	struct formula *r = on_context(f, context);
	if (r)
		r->outside = FORMULA_UNDEFINED_OUTSIDE;
	return r;
}

struct apart {
	const char *const *names;
	int n;
	int found;
};

static isl_stat constraint_relates(__isl_take isl_constraint *c, void *user)
{
	struct apart *ap = user;
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	int named = 0, others = 0;
	for (int k = 0; k < np; k++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, k);
		int nonzero = v && !isl_val_is_zero(v);
		isl_val_free(v);
		if (!nonzero)
			continue;
		const char *name = isl_constraint_get_dim_name(c, isl_dim_param, (unsigned)k);
		int listed = 0;
		for (int i = 0; name && i < ap->n && !listed; i++)
			listed = strcmp(name, ap->names[i]) == 0;
		if (listed)
			named++;
		else
			others++;
	}
	if (named && named + others > 1)
		ap->found = 1;
	isl_constraint_free(c);
	return ap->found ? isl_stat_error : isl_stat_ok;
}

static isl_stat bset_relates(__isl_take isl_basic_set *bset, void *user)
{
	isl_stat st = isl_basic_set_foreach_constraint(bset, &constraint_relates, user);
	isl_basic_set_free(bset);
	return st;
}

/* 1 when a constraint of COND relates one of AP's names to another parameter. */
static int relates(__isl_keep isl_set *cond, const char *const names[], int n)
{
	struct apart ap = {names, n, 0};
	if (!cond || n == 0)
		return 0;
	isl_set_foreach_basic_set(cond, &bset_relates, &ap);
	return ap.found;
}

/* X with, in each max and min, the operands another is shown to bound on COND
 * (their difference has a sign there, fml_poly_sign_on) left out; NULL on failure. */
static struct fnode *drop_bounded(const struct fvars *V, const struct fnode *x,
				  struct fml_on_cond *oc)
{
	if (x->kind == FK_POLY)
		return fml_node_copy(V, x);
	int n = x->n;
	struct fnode **c = calloc((size_t)n + 1, sizeof(*c));
	if (!c)
		return NULL;
	int ok = 1;
	for (int i = 0; i < n && ok; i++)
		ok = (c[i] = drop_bounded(V, x->c[i], oc)) != NULL;
	if (ok && (x->kind == FK_MAX || x->kind == FK_MIN)) {
		/* each pair once: the sign of c[i] - c[j] (i < j) decides both
		 * ways; equal operands keep the first */
		for (int i = 0; i < n && ok; i++)
			for (int j = i + 1; j < n && ok && c[i]; j++) {
				if (!c[j] || c[i]->kind != FK_POLY || c[j]->kind != FK_POLY)
					continue;
				struct fnode *d = fml_poly_add(V, c[i], c[j], 1); /* c[i] - c[j] */
				if (!d) {
					ok = 0;
					break;
				}
				int sg = fml_poly_sign_on(V, d, oc);
				bool zero = d->kind == FK_POLY && fmpq_mpoly_is_zero(d->num, V->ctx);
				fml_node_free(V, d);
				/* for max, c[i] >= c[j] makes c[j] useless, c[i] <= c[j]
				 * makes c[i] useless; for min the other way */
				int keep_i = x->kind == FK_MAX ? sg : -sg;
				if (zero || keep_i > 0) {
					fml_node_free(V, c[j]);
					c[j] = NULL;
				} else if (keep_i < 0) {
					fml_node_free(V, c[i]);
					c[i] = NULL;
				}
			}
	}
	struct fnode *r = NULL;
	for (int i = 0; i < n && ok; i++) {
		if (!c[i])
			continue;
		struct fnode *ci = c[i];
		c[i] = NULL;
		if (!r)
			r = ci;
		else if (x->kind == FK_ADD)
			r = fml_add_take(V, r, ci);
		else if (x->kind == FK_MUL)
			r = fml_mul_take(V, r, ci);
		else
			r = fml_maxmin_take(V, x->kind, r, ci);
		if (!r)
			ok = 0;
	}
	for (int i = 0; i < n; i++)
		fml_node_free(V, c[i]);
	free(c);
	if (!ok) {
		fml_node_free(V, r);
		return NULL;
	}
	return r;
}

/* The pairs of pieces that formula_coalesce_apart found apart (no value of
 * one holds on the other's condition, or their union would relate what is
 * kept apart).  Each piece has an id, a new one when a merge changes it;
 * a pair of ids is a bit.  Without memory (bits NULL) nothing is known and
 * every pair is looked at again, as before. */
struct decided {
	int *id;           /* the id of the piece at each position */
	int next, cap;     /* the next id; ids are below cap */
	unsigned char *bits;
};

/* Room for N pieces and the N - 1 merges they can make; no memory past
 * 4096 pieces (a matrix of 8193^2 bits, 8 MB), where the scan is slow
 * whatever it remembers. */
static void decided_init(struct decided *a, int n)
{
	a->cap = 2 * n + 1;
	a->next = n;
	a->id = n <= 4096 ? malloc(sizeof(*a->id) * (size_t)(n + 1)) : NULL;
	size_t nbits = (size_t)a->cap * (size_t)a->cap;
	a->bits = a->id ? calloc(nbits / 8 + 1, 1) : NULL;
	if (!a->bits) {
		free(a->id);
		a->id = NULL;
		return;
	}
	for (int k = 0; k < n; k++)
		a->id[k] = k;
}

static size_t decided_bit(const struct decided *a, int i, int j)
{
	return (size_t)a->id[i] * (size_t)a->cap + (size_t)a->id[j];
}

/* Whether the pieces at positions I < J were found apart. */
static bool decided_apart(const struct decided *a, int i, int j)
{
	if (!a->bits)
		return false;
	size_t b = decided_bit(a, i, j);
	return a->bits[b / 8] & (1u << (b % 8));
}

static void decided_note(struct decided *a, int i, int j)
{
	if (!a->bits)
		return;
	size_t b = decided_bit(a, i, j);
	a->bits[b / 8] |= (unsigned char)(1u << (b % 8));
}

static void decided_clear(struct decided *a)
{
	free(a->id);
	free(a->bits);
	a->id = NULL;
	a->bits = NULL;
}

/* The piece at position GONE was dropped (N pieces are left) and the one
 * now at KEEP changed: a new id, no pair of it known. */
static void decided_merged(struct decided *a, int keep, int gone, int n)
{
	if (!a->bits)
		return;
	memmove(&a->id[gone], &a->id[gone + 1], sizeof(*a->id) * (size_t)(n - gone));
	if (a->next >= a->cap) {
		decided_clear(a);
		return;
	}
	a->id[keep] = a->next++;
}

struct formula *formula_merge_same(const struct formula *f, __isl_keep isl_set *context)
{
	struct formula *r = on_context(f, context);
	/* the pieces of a formula are disjoint on its context (ISL's pieces,
	 * their intersections, the zero on the rest): pieces with one value
	 * merge in any order */
	for (int i = 0; r && i < r->n; i++)
		for (int j = r->n - 1; j > i; j--) {
			if (!fml_node_equal(r->vars, r->p[i].val, r->p[j].val))
				continue;
			if (!r->p[i].cond || !r->p[j].cond) {
				isl_set_free(r->p[i].cond);
				r->p[i].cond = NULL;
			} else {
				r->p[i].cond = isl_set_union(r->p[i].cond,
							     isl_set_copy(r->p[j].cond));
				if (!r->p[i].cond) {
					formula_free(r);
					return NULL;
				}
			}
			drop_piece(r, j);
		}
	for (int i = 0; r && i < r->n; i++)
		if (r->p[i].cond && !(r->p[i].cond = coalesce_set(r->p[i].cond))) {
			formula_free(r);
			return NULL;
		}
	for (int j = 0; r && j < r->n && r->outside == FORMULA_ZERO_OUTSIDE; j++)
		if (is_zero_piece(r, j))
			drop_piece(r, j--);
	struct formula *g = formula_gist(r, context);
	formula_free(r);
	return g;
}

/* R's values, in place, with the operands of max and min another bounds on
 * the piece's condition within CONTEXT (NULL: the condition alone) left
 * out (drop_bounded); 0, or -1 on failure. */
static int drop_bounded_pieces(struct formula *r, __isl_keep isl_set *context)
{
	for (int i = 0; i < r->n; i++) {
		if (r->p[i].val->kind == FK_POLY || !r->p[i].cond)
			continue;
		isl_set *within = fml_cond_meet(r->p[i].cond, context);
		if (!within)
			return -1;
		struct fml_on_cond oc;
		fml_on_cond_init(&oc, within);
		struct fnode *v = drop_bounded(r->vars, r->p[i].val, &oc);
		fml_on_cond_clear(&oc);
		isl_set_free(within);
		if (!v)
			return -1;
		fml_node_free(r->vars, r->p[i].val);
		r->p[i].val = v;
	}
	return 0;
}

struct formula *formula_drop_bounded(const struct formula *f, __isl_keep isl_set *context)
{
	if (!context)
		return NULL;
	struct formula *r = formula_copy(f);
	if (r && drop_bounded_pieces(r, context) < 0) {
		formula_free(r);
		return NULL;
	}
	return r;
}

struct formula *formula_coalesce(const struct formula *f, __isl_keep isl_set *context)
{
	return formula_coalesce_apart(f, context, NULL, 0);
}

/* Whether A lies in B (both kept), shown plainly or by ISL; no when ISL
 * cannot tell (its error cleared: only a shortcut is lost). */
static bool lies_in(__isl_keep isl_set *a, __isl_keep isl_set *b)
{
	if (isl_set_plain_is_equal(a, b) == isl_bool_true)
		return true;
	isl_bool sub = isl_set_is_subset(a, b);
	if (sub < 0)
		isl_ctx_reset_error(isl_set_get_ctx(a));
	return sub == isl_bool_true;
}

struct formula *formula_coalesce_apart(const struct formula *f, __isl_keep isl_set *context,
				       const char *const keep_apart[], int napart)
{
	/* Conditions keep all they know (M == 1 rather than M <= 1 given M >= 1)
	 * while values are compared: the gist comes at the end. */
	struct formula *r = on_context(f, context);
	if (!r)
		return NULL;
	/* max(a, b) is b where b - a >= 0 is plain from the signs */
	if (drop_bounded_pieces(r, NULL) < 0) {
		formula_free(r);
		return NULL;
	}
	/* Disjoint pieces, so that any two can merge without changing who wins
	 * (as they are already where they were made so on a set CONTEXT lies
	 * in: a sum of two formulas coalesced on CONTEXT, SUMMA's fan-in, whose
	 * 16 pieces of up to 100 disjuncts took seconds to subtract). */
	bool known = r->apart_in && lies_in(context, r->apart_in);
	for (int j = 1; !known && j < r->n; j++)
		for (int i = 0; i < j && r->p[j].cond; i++) {
			if (!r->p[i].cond) {
				drop_piece(r, j--);
				break;
			}
			r->p[j].cond = isl_set_subtract(r->p[j].cond, isl_set_copy(r->p[i].cond));
			if (!r->p[j].cond) {
				formula_free(r);
				return NULL;
			}
		}
	/* Witness points per piece; a merged piece's condition only grows, so its
	 * points stay valid. */
	struct witnesses *w = calloc((size_t)r->n + 1, sizeof(*w));
	if (!w) {
		formula_free(r);
		return NULL;
	}
	int fn = 0;
	char **fnames = formula_params(r, &fn);
	for (int j = 0; fnames && j < r->n; j++)
		if (r->p[j].cond)
			witnesses_init(&w[j], r->p[j].cond, fnames, fn);
	/* After a merge the scan starts over, as the merged piece may now meet
	 * others; a pair of pieces that neither merge changed was decided
	 * already, and the same way: APART remembers it (NULL: no memory). */
	struct decided apart;
	decided_init(&apart, r->n);
	for (int j = 1; j < r->n; j++) {
		for (int i = 0; i < j; i++) {
			if (!r->p[i].cond || !r->p[j].cond || decided_apart(&apart, i, j))
				continue;
			/* Does one value hold on the other's condition too? */
			int keep = -1;
			for (int dir = 0; dir < 2 && keep < 0; dir++) {
				int from = dir ? i : j, to = dir ? j : i;
				/* a point of FROM's condition where the two differ rules
				 * this direction out without a proof */
				if (differ_at_witness(r, to, from, &w[from]))
					continue;
				struct formula *a = value_on(r, to, from), *b = value_on(r, from, from);
				bool made = a && b;
				if (made && formula_proven_equal(a, b))
					keep = to;
				formula_free(a);
				formula_free(b);
				if (!made)
					goto error;
			}
			if (keep < 0) {
				decided_note(&apart, i, j);
				continue;
			}
			int gone = keep == i ? j : i;
			isl_set *merged = coalesce_set(
				isl_set_union(isl_set_copy(r->p[keep].cond), isl_set_copy(r->p[gone].cond)));
			if (merged && napart > 0 && relates(merged, keep_apart, napart) &&
			    !relates(r->p[keep].cond, keep_apart, napart) &&
			    !relates(r->p[gone].cond, keep_apart, napart)) {
				isl_set_free(merged);
				decided_note(&apart, i, j);
				continue;
			}
			isl_set_free(r->p[keep].cond);
			r->p[keep].cond = merged;
			if (!r->p[keep].cond)
				goto error;
			drop_piece(r, gone);
			witnesses_clear(&w[gone]);
			memmove(&w[gone], &w[gone + 1], sizeof(*w) * (size_t)(r->n - gone));
			decided_merged(&apart, keep < gone ? keep : keep - 1, gone, r->n);
			j = 0; /* start over: the merged piece may now meet others */
			break;
		}
	}
	for (int k = 0; k < r->n; k++)
		witnesses_clear(&w[k]);
	free(w);
	decided_clear(&apart);
	formula_params_free(fnames, fn);
	for (int j = 0; j < r->n && r->outside == FORMULA_ZERO_OUTSIDE; j++)
		if (is_zero_piece(r, j))
			drop_piece(r, j--);
	/* the gist keeps each condition's part in CONTEXT (gist_fn) */
	struct formula *g = formula_gist(r, context);
	formula_free(r);
	if (g && !(g->apart_in = isl_set_copy(context))) {
		formula_free(g);
		g = NULL;
	}
	return g;
error:
	for (int k = 0; k < r->n; k++)
		witnesses_clear(&w[k]);
	free(w);
	decided_clear(&apart);
	formula_params_free(fnames, fn);
	formula_free(r);
	return NULL;
}
