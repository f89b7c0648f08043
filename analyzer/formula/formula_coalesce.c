/* Formulas on a context: restriction and gist of the conditions, and
 * coalescing, which merges the pieces whose values are shown to agree (a few
 * witness points rule most pairs out before formula_proven_equal is asked) and
 * drops from max and min the operands another bounds on the piece's condition. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
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

/* The number of constraints of SET's disjuncts, -1 on failure. */
static isl_size n_constraints(__isl_keep isl_set *set);

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

static isl_size n_constraints(__isl_keep isl_set *set)
{
	isl_size n = 0;
	return isl_set_foreach_basic_set(set, &add_bset_constraints, &n) < 0 ? -1 : n;
}

struct prune {
	isl_set *context;
	isl_set *kept;   /* the disjuncts kept so far */
};

/* One disjunct B of a condition: left out where it does not meet the
 * context, else simplified under it where that leaves fewer constraints
 * (a gist may also write out what the context implies: k0_P == 0 where
 * P == 1 and k0_P < P). */
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
	if (ng < 0 || n1 < 0) {
		isl_set_free(g);
		isl_set_free(one);
		return isl_stat_error;
	}
	if (ng < n1) {
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

struct witnesses {
	int np, n;                  /* parameters, points */
	const char **names;         /* the condition's, then the formula's others */
	long long *values;          /* n rows of np values */
};

static void witnesses_clear(struct witnesses *w)
{
	free(w->names);
	free(w->values);
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

/* The witness points of COND (none when it has no point ISL finds); FNAMES,
 * the formula's parameters, give values to those the condition leaves free. */
static void witnesses_find(struct witnesses *w, __isl_keep isl_set *cond, char **fnames, int fn)
{
	memset(w, 0, sizeof(*w));
	isl_size np = isl_set_dim(cond, isl_dim_param);
	isl_point *pt = isl_set_sample_point(isl_set_copy(cond));
	if (np < 0 || !pt || isl_point_is_void(pt) != isl_bool_false) {
		isl_point_free(pt);
		return;
	}
	w->names = calloc((size_t)(np + fn) + 1, sizeof(*w->names));
	if (!w->names) {
		isl_point_free(pt);
		return;
	}
	for (int k = 0; k < np; k++)
		w->names[w->np++] = isl_set_get_dim_name(cond, isl_dim_param, (unsigned)k);
	for (int k = 0; k < fn; k++) {
		if (isl_set_find_dim_by_name(cond, isl_dim_param, fnames[k]) < 0)
			w->names[w->np++] = fnames[k];
	}
	w->values = calloc((size_t)(w->np + 1) * WITNESS_MAX, sizeof(*w->values));
	if (!w->values || point_values(pt, (int)np, w->np, w->values) < 0) {
		isl_point_free(pt);
		witnesses_clear(w);
		return;
	}
	w->n = 1;
	/* For each parameter of COND, a point where it is larger than at the
	 * sample, and one where it is smaller, when there are such points. */
	for (int k = 0; k < np && w->n + 2 <= WITNESS_MAX; k++)
		for (int dir = 0; dir < 2; dir++) {
			long long s0 = w->values[k];
			if (s0 <= INT_MIN + 1 || s0 >= INT_MAX - 1)
				continue; /* a witness is a hint: not worth an overflow */
			isl_set *part = dir == 0
				? isl_set_lower_bound_si(isl_set_copy(cond), isl_dim_param, (unsigned)k,
							 (int)(s0 + 1))
				: isl_set_upper_bound_si(isl_set_copy(cond), isl_dim_param, (unsigned)k,
							 (int)(s0 - 1));
			isl_point *q = isl_set_sample_point(part);
			if (q && isl_point_is_void(q) == isl_bool_false &&
			    point_values(q, (int)np, w->np,
					 w->values + (size_t)w->n * (size_t)w->np) == 0)
				w->n++;
			isl_point_free(q);
		}
	isl_point_free(pt);
}

/* 1 when the values of pieces I and J differ at a witness point of J's
 * condition. */
static int differ_at_witness(const struct formula *r, int i, int j, const struct witnesses *w)
{
	int differ = 0;
	for (int p = 0; p < w->n && !differ; p++) {
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

/* A piece's condition and what is known of it: whether variable i of the
 * ring is at least 0 (at_least[0][i]) and at least 1 (at_least[1][i]) there,
 * each asked of ISL once (-1: not asked yet).  drop_bounded asks the same of
 * one condition for every pair of a max's operands. */
struct on_cond {
	isl_set *cond;          /* kept */
	signed char at_least[2][FML_MAX_VARS];
	/* param_range's answers: 1 known (lo, hi), 0 none, -1 not asked */
	signed char range[FML_MAX_VARS];
	isl_val *lo[FML_MAX_VARS], *hi[FML_MAX_VARS];
};

static void on_cond_init(struct on_cond *oc, __isl_keep isl_set *cond)
{
	oc->cond = cond;
	memset(oc->at_least, -1, sizeof(oc->at_least));
	memset(oc->range, -1, sizeof(oc->range));
}

static void on_cond_clear(struct on_cond *oc)
{
	for (int i = 0; i < FML_MAX_VARS; i++)
		if (oc->range[i] == 1) {
			isl_val_free(oc->lo[i]);
			isl_val_free(oc->hi[i]);
		}
}

/* Whether parameter I of V (named) is at least LO (0 or 1) on OC's condition. */
static int param_at_least(const struct fvars *V, struct on_cond *oc, slong i, int lo)
{
	signed char *known = &oc->at_least[lo][i];
	if (*known >= 0)
		return *known;
	*known = 0;
	int pos = V->v[i].name ? isl_set_find_dim_by_name(oc->cond, isl_dim_param, V->v[i].name)
			       : -1;
	if (pos < 0)
		return 0;
	isl_set *bound = isl_set_lower_bound_si(isl_set_universe(isl_set_get_space(oc->cond)),
						isl_dim_param, (unsigned)pos, lo);
	isl_bool sub = isl_set_is_subset(oc->cond, bound);
	isl_set_free(bound);
	*known = sub == isl_bool_true;
	return *known;
}

/* Whether some coefficient of P (in ring V) is positive (*POS), and some
 * negative (*NEG). */
static void coefficient_signs(const struct fvars *V, const fmpq_mpoly_t p, int *pos, int *neg)
{
	*pos = *neg = 0;
	fmpq_t c;
	fmpq_init(c);
	for (slong t = 0; t < fmpq_mpoly_length(p, V->ctx); t++) {
		fmpq_mpoly_get_term_coeff_fmpq(c, p, t, V->ctx);
		*pos |= fmpq_sgn(c) > 0;
		*neg |= fmpq_sgn(c) < 0;
	}
	fmpq_clear(c);
}

/* The least and the largest value of parameter I of V on OC's condition
 * (0 when it has no least one there, or is not a named parameter). */
static int param_range(const struct fvars *V, struct on_cond *oc, slong i, isl_val **lo,
		       isl_val **hi)
{
	*lo = *hi = NULL;
	if (oc->range[i] >= 0) {
		if (oc->range[i] == 1) {
			*lo = isl_val_copy(oc->lo[i]);
			*hi = isl_val_copy(oc->hi[i]);
		}
		return oc->range[i];
	}
	oc->range[i] = 0;
	int pos = V->v[i].name ? isl_set_find_dim_by_name(oc->cond, isl_dim_param, V->v[i].name)
			       : -1;
	if (pos < 0)
		return 0;
	isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(oc->cond));
	isl_aff *x = isl_aff_var_on_domain(ls, isl_dim_param, pos);
	*lo = isl_set_min_val(oc->cond, x);
	*hi = isl_set_max_val(oc->cond, x);
	isl_aff_free(x);
	if (!*lo || !*hi || !isl_val_is_int(*lo)) {
		isl_val_free(*lo);
		isl_val_free(*hi);
		*lo = *hi = NULL;
		return 0;
	}
	oc->range[i] = 1;
	oc->lo[i] = isl_val_copy(*lo);
	oc->hi[i] = isl_val_copy(*hi);
	return 1;
}

/* The sign on OC's condition of NUM (in ring V) with each variable moved to
 * its least value there, x = lo + y with y >= 0, and a variable the condition
 * fixes replaced by its value: coefficients of one sign then show the sign
 * (4 - nx*ny where M == 2 puts nx, ny >= 4: -12 - 4*y - 4*z - y*z).  1, -1, or
 * 0 when not shown (a floor atom, a variable without a least value, or
 * coefficients of both signs). */
static int shifted_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct on_cond *oc)
{
	/* a floor atom has no least value of its own: not shown, and no ISL */
	for (slong i = 0; i < V->n; i++)
		if (!V->v[i].name && fmpq_mpoly_degree_si(num, i, V->ctx) > 0)
			return 0;
	slong nv = V->cap;
	fmpq_mpoly_struct *sub = calloc((size_t)nv + 1, sizeof(*sub));
	fmpq_mpoly_struct **subp = calloc((size_t)nv + 1, sizeof(*subp));
	int ok = sub && subp;
	for (slong i = 0; ok && i < nv; i++) {
		fmpq_mpoly_init(sub + i, V->ctx);
		subp[i] = sub + i;
	}
	fmpq_mpoly_t shifted;
	fmpq_mpoly_init(shifted, V->ctx);
	for (slong i = 0; ok && i < nv; i++) {
		if (i >= V->n || fmpq_mpoly_degree_si(num, i, V->ctx) <= 0) {
			fmpq_mpoly_gen(sub + i, i, V->ctx);
			continue;
		}
		isl_val *lo, *hi;
		ok = param_range(V, oc, i, &lo, &hi);
		if (!ok)
			break;
		bool fixed = hi && isl_val_eq(lo, hi) == isl_bool_true;
		mpq_t q;
		mpq_init(q);
		fmpq_t c;
		fmpq_init(c);
		ok = val_to_mpq(isl_val_copy(lo), q);
		fmpq_set_mpq(c, q);
		if (!fixed)
			fmpq_mpoly_gen(sub + i, i, V->ctx);
		fmpq_mpoly_add_fmpq(sub + i, sub + i, c, V->ctx);
		fmpq_clear(c);
		mpq_clear(q);
		isl_val_free(lo);
		isl_val_free(hi);
	}
	int sign = 0;
	if (ok && fmpq_mpoly_compose_fmpq_mpoly(shifted, num, subp, V->ctx, V->ctx)) {
		int pos, neg;
		coefficient_signs(V, shifted, &pos, &neg);
		sign = pos && neg ? 0 : neg ? -1 : 1;
	}
	fmpq_mpoly_clear(shifted, V->ctx);
	for (slong i = 0; sub && subp && i < nv; i++)
		fmpq_mpoly_clear(sub + i, V->ctx);
	free(sub);
	free(subp);
	return sign;
}

/* The sign on COND of the polynomial NUM (in ring V, no denominator): 1 for
 * >= 0, -1 for <= 0, 0 when not shown.  Shown when its coefficients share a
 * sign and its variables are parameters >= 0 there, or, for an affine NUM,
 * when ISL finds COND on one side of NUM = 0. */
static int factor_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct on_cond *oc)
{
	isl_set *cond = oc->cond;
	slong len = fmpq_mpoly_length(num, V->ctx);
	if (len == 0)
		return 1;
	int pos, neg, vars_nonneg = 1;
	coefficient_signs(V, num, &pos, &neg);
	for (slong i = 0; i < V->n && vars_nonneg; i++)
		if (fmpq_mpoly_degree_si(num, i, V->ctx) > 0)
			vars_nonneg = V->v[i].name && param_at_least(V, oc, i, 0);
	if (!(pos && neg) && vars_nonneg)
		return pos ? 1 : -1;
	/* affine in the parameters and floors: NUM >= 0 (or <= 0) on all of COND? */
	isl_space *space = isl_set_get_space(cond);
	isl_aff *aff = fml_mpoly_aff(V, num, space);
	isl_space_free(space);
	int sign = 0;
	for (int negate = 0; negate < 2 && aff && !sign; negate++) {
		isl_aff *a = negate ? isl_aff_neg(isl_aff_copy(aff)) : isl_aff_copy(aff);
		isl_aff *z = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(a));
		isl_set *side = isl_set_from_basic_set(isl_aff_ge_basic_set(a, z));
		if (isl_set_is_subset(cond, side) == isl_bool_true)
			sign = negate ? -1 : 1;
		isl_set_free(side);
	}
	isl_aff_free(aff);
	return sign ? sign : shifted_sign_on(V, num, oc);
}

/* The sign of the Laurent polynomial X on COND: its denominator is a product
 * of parameters (positive when each is >= 1 there), and its numerator's sign is
 * that of its factors (factor_sign_on).  1 for X >= 0, -1 for X <= 0, 0 when
 * that is not shown. */
static int poly_sign_on(const struct fvars *V, const struct fnode *x, struct on_cond *oc)
{
	if (x->kind != FK_POLY || !oc->cond)
		return 0;
	for (slong i = 0; i < V->n; i++)
		if (x->den[i] > 0 && (!V->v[i].name || !param_at_least(V, oc, i, 1)))
			return 0;
	int sign = factor_sign_on(V, x->num, oc);
	if (sign)
		return sign;
	fmpq_mpoly_factor_t f;
	fmpq_mpoly_factor_init(f, V->ctx);
	if (fml_factor(V, f, x->num)) {
		fmpq_t c;
		fmpq_init(c);
		fmpq_mpoly_factor_get_constant_fmpq(c, f, V->ctx);
		sign = fmpq_sgn(c);
		fmpq_clear(c);
		for (slong k = 0; k < f->num && sign; k++) {
			int sk = factor_sign_on(V, f->poly + k, oc);
			if (fmpz_is_even(f->exp + k))
				sk = 1; /* an even power is >= 0 */
			sign *= sk;
		}
	}
	fmpq_mpoly_factor_clear(f, V->ctx);
	return sign;
}

/* X with, in each max and min, the operands another is shown to bound on COND
 * (their difference has a sign there, poly_sign_on) left out; NULL on failure. */
static struct fnode *drop_bounded(const struct fvars *V, const struct fnode *x,
				  struct on_cond *oc)
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
				int sg = poly_sign_on(V, d, oc);
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
 * 8192 pieces (8 MB), where the scan is slow whatever it remembers. */
static void decided_init(struct decided *a, int n)
{
	a->cap = 2 * n + 1;
	a->next = n;
	a->id = n <= 8192 ? malloc(sizeof(*a->id) * (size_t)(n + 1)) : NULL;
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
	struct formula *g = r ? formula_gist(r, context) : NULL;
	formula_free(r);
	return g;
}

struct formula *formula_coalesce(const struct formula *f, __isl_keep isl_set *context)
{
	return formula_coalesce_apart(f, context, NULL, 0);
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
	for (int i = 0; i < r->n; i++) {
		if (r->p[i].val->kind == FK_POLY || !r->p[i].cond)
			continue;
		struct on_cond oc;
		on_cond_init(&oc, r->p[i].cond);
		struct fnode *v = drop_bounded(r->vars, r->p[i].val, &oc);
		on_cond_clear(&oc);
		if (!v) {
			formula_free(r);
			return NULL;
		}
		fml_node_free(r->vars, r->p[i].val);
		r->p[i].val = v;
	}
	/* Disjoint pieces, so that any two can merge without changing who wins. */
	for (int j = 1; j < r->n; j++)
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
			witnesses_find(&w[j], r->p[j].cond, fnames, fn);
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
				if (a && b && formula_proven_equal(a, b))
					keep = to;
				formula_free(a);
				formula_free(b);
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
			if (!r->p[keep].cond) {
				for (int k = 0; k < r->n; k++)
					witnesses_clear(&w[k]);
				free(w);
				decided_clear(&apart);
				formula_params_free(fnames, fn);
				formula_free(r);
				return NULL;
			}
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
	struct formula *g = formula_gist(r, context);
	formula_free(r);
	return g;
}
