/* Signs of polynomials on a piece's condition: the sign of a Laurent
 * polynomial (fml_poly_sign_on, which coalescing asks of the differences of
 * a max's operands, and formula_bound.c of h_in - h_out) where ISL bounds
 * its variables or its affine factors, with the condition's equalities put
 * in, split into parts of one sign by a parameter, or with a lower bound of
 * a parameter put in; its strict sign; and a formula's values written by
 * their signs (formula_sign_fold, for --compare's conditions).  Each is a
 * proof or "not shown", never a guess; a polynomial > 0 and < 0 at points of
 * the condition (formula_points.c) is "not shown" without a search. */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/val.h"


void fml_on_cond_init(struct fml_on_cond *oc, __isl_keep isl_set *cond)
{
	oc->cond = cond;
	memset(oc->at_least, -1, sizeof(oc->at_least));
	memset(oc->range, -1, sizeof(oc->range));
	oc->hull = NULL;
	oc->ineq_v = NULL;
	oc->ineq = NULL;
	oc->nineq = 0;
	oc->bounding = false;
	oc->pt_names = NULL;
	oc->pts = NULL;
	oc->row = NULL;
	oc->pt_np = oc->npts = 0;
}

void fml_on_cond_clear(struct fml_on_cond *oc)
{
	for (int i = 0; i < FML_MAX_VARS; i++)
		if (oc->range[i] == 1) {
			isl_val_free(oc->lo[i]);
			isl_val_free(oc->hi[i]);
		}
	isl_basic_set_free(oc->hull);
	for (int k = 0; oc->ineq_v && k < oc->nineq; k++)
		fmpq_mpoly_clear(oc->ineq + k, oc->ineq_v->ctx);
	free(oc->ineq);
	free(oc->pt_names);
	free(oc->pts);
	free(oc->row);
}

/* Whether parameter I of V (named) is at least LO (0 or 1) on OC's condition. */
static int param_at_least(const struct fvars *V, struct fml_on_cond *oc, slong i, int lo)
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
void fml_coefficient_signs(const struct fvars *V, const fmpq_mpoly_t p, int *pos, int *neg)
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
static int param_range(const struct fvars *V, struct fml_on_cond *oc, slong i, isl_val **lo,
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

/* A substitution of ring V's variables, each its own generator until the
 * caller sets it: what fmpq_mpoly_compose_fmpq_mpoly takes. */
struct gens {
	fmpq_mpoly_struct *sub;
	fmpq_mpoly_struct **subp;
	slong n;
};

/* G the identity substitution of V; false when out of memory (G cleared). */
static bool gens_init(const struct fvars *V, struct gens *g)
{
	g->n = V->cap;
	g->sub = calloc((size_t)g->n + 1, sizeof(*g->sub));
	g->subp = calloc((size_t)g->n + 1, sizeof(*g->subp));
	if (!g->sub || !g->subp) {
		free(g->sub);
		free(g->subp);
		g->sub = NULL;
		g->subp = NULL;
		return false;
	}
	for (slong i = 0; i < g->n; i++) {
		fmpq_mpoly_init(g->sub + i, V->ctx);
		fmpq_mpoly_gen(g->sub + i, i, V->ctx);
		g->subp[i] = g->sub + i;
	}
	return true;
}

static void gens_clear(const struct fvars *V, struct gens *g)
{
	for (slong i = 0; g->sub && i < g->n; i++)
		fmpq_mpoly_clear(g->sub + i, V->ctx);
	free(g->sub);
	free(g->subp);
}

/* The sign on OC's condition of NUM (in ring V) with each variable moved to
 * its least value there, x = lo + y with y >= 0, and a variable the condition
 * fixes replaced by its value: coefficients of one sign then show the sign
 * (4 - nx*ny where M == 2 puts nx, ny >= 4: -12 - 4*y - 4*z - y*z).  1, -1, or
 * 0 when not shown (a floor atom, a variable without a least value, or
 * coefficients of both signs). */
static int shifted_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc)
{
	/* a floor atom has no least value of its own: not shown, and no ISL */
	for (slong i = 0; i < V->n; i++)
		if (!V->v[i].name && fmpq_mpoly_degree_si(num, i, V->ctx) > 0)
			return 0;
	struct gens g;
	int ok = gens_init(V, &g);
	fmpq_mpoly_t shifted;
	fmpq_mpoly_init(shifted, V->ctx);
	for (slong i = 0; ok && i < V->n; i++) {
		if (fmpq_mpoly_degree_si(num, i, V->ctx) <= 0)
			continue;
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
		if (fixed)
			fmpq_mpoly_zero(g.sub + i, V->ctx);
		fmpq_mpoly_add_fmpq(g.sub + i, g.sub + i, c, V->ctx);
		fmpq_clear(c);
		mpq_clear(q);
		isl_val_free(lo);
		isl_val_free(hi);
	}
	int sign = 0;
	if (ok && fmpq_mpoly_compose_fmpq_mpoly(shifted, num, g.subp, V->ctx, V->ctx)) {
		int pos, neg;
		fml_coefficient_signs(V, shifted, &pos, &neg);
		sign = pos && neg ? 0 : neg ? -1 : 1;
	}
	fmpq_mpoly_clear(shifted, V->ctx);
	gens_clear(V, &g);
	return sign;
}

/* The sign on COND of the polynomial NUM (in ring V, no denominator): 1 for
 * >= 0, -1 for <= 0, 0 when not shown.  Shown when its coefficients share a
 * sign and its variables are parameters >= 0 there, or, for an affine NUM,
 * when ISL finds COND on one side of NUM = 0. */
static int factor_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc)
{
	isl_set *cond = oc->cond;
	slong len = fmpq_mpoly_length(num, V->ctx);
	if (len == 0)
		return 1;
	int pos, neg, vars_nonneg = 1;
	fml_coefficient_signs(V, num, &pos, &neg);
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

/* The strict sign on OC's condition of the polynomial NUM: 1 when NUM > 0
 * at every integer point there, -1 when NUM < 0, 0 when that is not shown.
 * NUM over its content has integer coefficients and integer values (its
 * variables are parameters and floors): it is > 0 where it is >= 1, < 0
 * where it is <= -1. */
static int strict_sign_of(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc)
{
	fmpq_mpoly_t y, t;
	fmpq_mpoly_init(y, V->ctx);
	fmpq_mpoly_init(t, V->ctx);
	fmpq_mpoly_set(y, num, V->ctx);
	fmpq_t c;
	fmpq_init(c);
	fmpq_mpoly_content(c, y, V->ctx);
	fmpq_mpoly_scalar_div_fmpq(y, y, c, V->ctx);
	int sign = 0;
	for (int s = 1; s >= -1 && !sign; s -= 2) {
		fmpq_mpoly_sub_si(t, y, s, V->ctx);   /* y - 1, then y + 1 */
		if (factor_sign_on(V, t, oc) == s)
			sign = s;
	}
	fmpq_mpoly_clear(t, V->ctx);
	fmpq_mpoly_clear(y, V->ctx);
	fmpq_clear(c);
	return sign;
}

/* Whether NUM is affine and 0 at every point of OC's condition. */
static bool affine_zero_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc)
{
	isl_space *space = isl_set_get_space(oc->cond);
	isl_aff *aff = fml_mpoly_aff(V, num, space);
	isl_space_free(space);
	if (!aff)
		return false;
	isl_set *zero = isl_set_from_basic_set(isl_aff_zero_basic_set(aff));
	isl_bool sub = isl_set_is_subset(oc->cond, zero);
	isl_set_free(zero);
	return sub == isl_bool_true;
}

/* Constraint C's expression (its constant plus its parameters' terms) as a
 * polynomial of ring V into OUT (initialized), and the ring variable of
 * its last parameter with a coefficient, the pivot of ISL's echelon form,
 * into *LAST and that coefficient into LAST_COEF; false when C involves an
 * existential or a set dimension (a condition has none), or a parameter
 * that is no named variable of V (then C says nothing here), or on
 * failure. */
static bool constraint_poly(const struct fvars *V, __isl_keep isl_constraint *c, fmpq_mpoly_t out,
			    slong *last, fmpq_t last_coef)
{
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	isl_size nd = isl_constraint_dim(c, isl_dim_div);
	isl_size ns = isl_constraint_dim(c, isl_dim_set);
	if (np < 0 || nd < 0 || ns < 0 ||
	    isl_constraint_involves_dims(c, isl_dim_div, 0, (unsigned)nd) != isl_bool_false ||
	    isl_constraint_involves_dims(c, isl_dim_set, 0, (unsigned)ns) != isl_bool_false)
		return false;
	isl_space *space = isl_constraint_get_space(c);
	fmpq_mpoly_t t;
	fmpq_mpoly_init(t, V->ctx);
	mpq_t q;
	mpq_init(q);
	fmpq_t f;
	fmpq_init(f);
	*last = -1;
	bool ok = space && val_to_mpq(isl_constraint_get_constant_val(c), q);
	if (ok) {
		fmpq_set_mpq(f, q);
		fmpq_mpoly_set_fmpq(out, f, V->ctx);
	}
	for (int k = 0; ok && k < np; k++) {
		isl_val *co = isl_constraint_get_coefficient_val(c, isl_dim_param, k);
		if (co && isl_val_is_zero(co)) {
			isl_val_free(co);
			continue;
		}
		const char *name = isl_space_get_dim_name(space, isl_dim_param, (unsigned)k);
		slong v = name ? fml_vars_find(V, name) : -1;
		if (v < 0 || v >= V->n || !V->v[v].name) {
			isl_val_free(co);
			ok = false;
			break;
		}
		ok = co && val_to_mpq(co, q);   /* takes CO */
		fmpq_set_mpq(f, q);
		fmpq_mpoly_gen(t, v, V->ctx);
		fmpq_mpoly_scalar_mul_fmpq(t, t, f, V->ctx);
		fmpq_mpoly_add(out, out, t, V->ctx);
		*last = v;
		fmpq_set(last_coef, f);
	}
	fmpq_clear(f);
	mpq_clear(q);
	fmpq_mpoly_clear(t, V->ctx);
	isl_space_free(space);
	return ok;
}

/* Substituting one equality of a condition into a polynomial. */
struct equality_sub {
	const struct fvars *V;
	fmpq_mpoly_struct *p;   /* the polynomial, rewritten in place */
	int failed;
};

/* Equality C of a condition's affine hull, e = 0, solved for its pivot x
 * (in no other equality) where x has a unit coefficient u and every
 * parameter of C is a named variable of the ring: x = x - u*e, put in the
 * polynomial. */
static isl_stat substitute_equality(__isl_take isl_constraint *c, void *user)
{
	struct equality_sub *es = user;
	const struct fvars *V = es->V;
	fmpq_mpoly_t e, x;
	fmpq_mpoly_init(e, V->ctx);
	fmpq_mpoly_init(x, V->ctx);
	fmpq_t u;
	fmpq_init(u);
	slong pivot = -1;
	bool ok = isl_constraint_is_equality(c) == isl_bool_true &&
		  constraint_poly(V, c, e, &pivot, u) && pivot >= 0 &&
		  (fmpq_is_one(u) || fmpq_equal_si(u, -1)) &&
		  fmpq_mpoly_degree_si(es->p, pivot, V->ctx) > 0;
	if (ok) {
		fmpq_mpoly_gen(x, pivot, V->ctx);
		fmpq_mpoly_scalar_mul_fmpq(e, e, u, V->ctx);
		fmpq_mpoly_sub(x, x, e, V->ctx);
		struct gens g;
		bool room = gens_init(V, &g);
		if (room)
			fmpq_mpoly_set(g.sub + pivot, x, V->ctx);
		if (room && fmpq_mpoly_compose_fmpq_mpoly(e, es->p, g.subp, V->ctx, V->ctx))
			fmpq_mpoly_swap(es->p, e, V->ctx);
		else
			es->failed = 1;
		if (room)
			gens_clear(V, &g);
	}
	fmpq_clear(u);
	fmpq_mpoly_clear(e, V->ctx);
	fmpq_mpoly_clear(x, V->ctx);
	isl_constraint_free(c);
	return es->failed ? isl_stat_error : isl_stat_ok;
}

/* *OUT = NUM (in ring V) with the equalities of OC's condition put in
 * (kk_Ni == e2_Ni, e2_N == N - 1), its values the same at every point
 * there; NUM itself when the condition has none or on failure. */
static void substitute_equalities(const struct fvars *V, fmpq_mpoly_t out,
				  const fmpq_mpoly_t num, struct fml_on_cond *oc)
{
	fmpq_mpoly_set(out, num, V->ctx);
	if (!oc->hull)
		oc->hull = isl_set_affine_hull(isl_set_copy(oc->cond));
	if (!oc->hull || isl_basic_set_n_constraint(oc->hull) <= 0)
		return;
	struct equality_sub es = {V, out, 0};
	if (isl_basic_set_foreach_constraint(oc->hull, &substitute_equality, &es) < 0 ||
	    es.failed)
		fmpq_mpoly_set(out, num, V->ctx);
}

/* The sign of NUM on OC's condition by its factors (fml_factor), STRICT or
 * not: the constant's times each factor's, an even power's >= 0 (and > 0
 * where its base is not 0); STRICT, 2 where a factor is affine and 0 all
 * over.  0 when not shown. */
static int factors_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc,
			   bool strict)
{
	int sign = 0;
	fmpq_mpoly_factor_t f;
	fmpq_mpoly_factor_init(f, V->ctx);
	if (fml_factor(V, f, num)) {
		fmpq_t c;
		fmpq_init(c);
		fmpq_mpoly_factor_get_constant_fmpq(c, f, V->ctx);
		sign = fmpq_sgn(c);
		fmpq_clear(c);
		/* a factor 0 all over makes the product 0 (N - 1 where N == 1),
		 * whatever the others' signs */
		for (slong k = 0; strict && k < f->num && sign != 2; k++)
			if (affine_zero_on(V, f->poly + k, oc))
				sign = 2;
		for (slong k = 0; k < f->num && sign && sign != 2; k++) {
			int sk = strict ? strict_sign_of(V, f->poly + k, oc)
					: factor_sign_on(V, f->poly + k, oc);
			if (fmpz_is_even(f->exp + k) && (sk || !strict))
				sk = 1;
			sign *= sk;
		}
	}
	fmpq_mpoly_factor_clear(f, V->ctx);
	return sign;
}

/* Collecting a condition's inequalities as polynomials (condition_inequalities). */
struct ineq_collect {
	const struct fvars *V;
	struct fml_on_cond *oc;
	int cap;
};

static isl_stat collect_inequality(__isl_take isl_constraint *c, void *user)
{
	struct ineq_collect *ic = user;
	const struct fvars *V = ic->V;
	struct fml_on_cond *oc = ic->oc;
	fmpq_mpoly_t e;
	fmpq_mpoly_init(e, V->ctx);
	fmpq_t u;
	fmpq_init(u);
	slong last;
	if (oc->nineq < ic->cap && isl_constraint_is_equality(c) == isl_bool_false &&
	    constraint_poly(V, c, e, &last, u)) {
		fmpq_mpoly_init(oc->ineq + oc->nineq, V->ctx);
		fmpq_mpoly_swap(oc->ineq + oc->nineq, e, V->ctx);
		oc->nineq++;
	}
	fmpq_clear(u);
	fmpq_mpoly_clear(e, V->ctx);
	isl_constraint_free(c);
	return isl_stat_ok;
}

/* OC's inequalities e >= 0 (of its condition's simple hull, each true at
 * every point of the condition) whose parameters are all named in V, as
 * polynomials of V: computed once. */
static void condition_inequalities(const struct fvars *V, struct fml_on_cond *oc)
{
	if (oc->ineq_v)
		return;
	oc->ineq_v = V;
	isl_basic_set *h = isl_set_simple_hull(isl_set_copy(oc->cond));
	isl_size n = h ? isl_basic_set_n_constraint(h) : -1;
	oc->ineq = n > 0 ? calloc((size_t)n, sizeof(*oc->ineq)) : NULL;
	struct ineq_collect ic = {V, oc, n > 0 ? (int)n : 0};
	if (oc->ineq)
		isl_basic_set_foreach_constraint(h, &collect_inequality, &ic);
	isl_basic_set_free(h);
}

/* The most polynomials split_sign_on looks at for one sign, and the
 * parameters it splits by at each step. */
enum { SPLIT_BUDGET = 16, SPLIT_TRIES = 2, BOUND_BUDGET = 6 };

/* Whether parameter A splits a polynomial before B: in more of its terms
 * (TERMS), then of a lower degree (DEG), then first in the ring. */
static bool splits_before(const slong *terms, const slong *deg, slong a, slong b)
{
	if (terms[a] != terms[b])
		return terms[a] > terms[b];
	if (deg[a] != deg[b])
		return deg[a] < deg[b];
	return a < b;
}

static int split_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc,
			 int *budget);

/* The sign LEAD of NUM = C1*v + C0 on OC's condition, C1 of sign LEAD
 * there, where C1*L + C0 has it for a lower bound L of v there (an
 * inequality v - L >= 0 of the condition, v's coefficient 1): NUM is
 * (C1*L + C0) + C1*(v - L), both of sign LEAD (o*(M - 1 - e) + k - f - 1
 * >= 0 where o >= f + 1 and M - 1 - e >= 1: (M - 2 - e)*(f + 1) + k).
 * 0 when no bound shows it. */
static int lower_bound_sign(const struct fvars *V, const fmpq_mpoly_t num, slong v, int lead,
			    struct fml_on_cond *oc, int *budget)
{
	condition_inequalities(V, oc);
	fmpq_mpoly_t c0, c1, bound, t;
	fmpq_mpoly_init(c0, V->ctx);
	fmpq_mpoly_init(c1, V->ctx);
	fmpq_mpoly_init(bound, V->ctx);
	fmpq_mpoly_init(t, V->ctx);
	ulong zero = 0, one = 1;
	fmpq_mpoly_get_coeff_vars_ui(c0, num, &v, &zero, 1, V->ctx);
	fmpq_mpoly_get_coeff_vars_ui(c1, num, &v, &one, 1, V->ctx);
	/* C1*L + C0 for each bound, the shortest first: the bound that cancels
	 * most of C0 (o >= f + 1 against - f - 1) */
	fmpq_mpoly_struct *cand = calloc((size_t)oc->nineq + 1, sizeof(*cand));
	int ncand = 0;
	for (int k = 0; cand && k < oc->nineq; k++) {
		/* e = v + rest >= 0: the bound L = v - e */
		fmpq_mpoly_get_coeff_vars_ui(t, oc->ineq + k, &v, &one, 1, V->ctx);
		if (!fmpq_mpoly_is_one(t, V->ctx) || fmpq_mpoly_degree_si(oc->ineq + k, v, V->ctx) != 1)
			continue;
		fmpq_mpoly_gen(bound, v, V->ctx);
		fmpq_mpoly_sub(bound, bound, oc->ineq + k, V->ctx);
		fmpq_mpoly_struct *x = cand + ncand++;
		fmpq_mpoly_init(x, V->ctx);
		fmpq_mpoly_mul(x, c1, bound, V->ctx);
		fmpq_mpoly_add(x, x, c0, V->ctx);
		for (int at = ncand - 1; at > 0 && fmpq_mpoly_length(cand + at, V->ctx) <
						    fmpq_mpoly_length(cand + at - 1, V->ctx); at--)
			fmpq_mpoly_swap(cand + at, cand + at - 1, V->ctx);
	}
	/* each bound on a budget of its own, and no bound within it */
	int sign = 0;
	oc->bounding = true;
	for (int k = 0; k < ncand && !sign && *budget >= 0; k++) {
		int within = BOUND_BUDGET;
		--*budget;
		if (split_sign_on(V, cand + k, oc, &within) == lead)
			sign = lead;
	}
	oc->bounding = false;
	for (int k = 0; k < ncand; k++)
		fmpq_mpoly_clear(cand + k, V->ctx);
	free(cand);
	fmpq_mpoly_clear(c0, V->ctx);
	fmpq_mpoly_clear(c1, V->ctx);
	fmpq_mpoly_clear(bound, V->ctx);
	fmpq_mpoly_clear(t, V->ctx);
	return sign;
}

/* The sign of NUM = T * R on OC's condition, T the monomial every term of
 * NUM has (n*(o*(M - 1 - e) + k - f - 1)) and >= 0 there, by R's
 * (split_sign_on: the factors of NUM are shown only whole); 0 when not
 * shown or T is 1. */
static int content_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc,
			   int *budget)
{
	fmpq_mpoly_t t, r;
	fmpq_mpoly_init(t, V->ctx);
	fmpq_mpoly_init(r, V->ctx);
	fmpq_mpoly_term_content(t, num, V->ctx);
	int sign = 0;
	bool nonneg = !fmpq_mpoly_is_fmpq(t, V->ctx);
	/* the content's coefficient is 1 (FLINT's monic content) */
	for (slong v = 0; nonneg && v < V->n; v++) {
		slong d = fmpq_mpoly_degree_si(t, v, V->ctx);
		nonneg = d <= 0 || d % 2 == 0 || (V->v[v].name && param_at_least(V, oc, v, 0));
	}
	for (slong v = V->n; nonneg && v < V->cap; v++)
		nonneg = fmpq_mpoly_degree_si(t, v, V->ctx) <= 0;
	if (nonneg && fmpq_mpoly_divides(r, num, t, V->ctx))
		sign = split_sign_on(V, r, oc, budget);
	fmpq_mpoly_clear(t, V->ctx);
	fmpq_mpoly_clear(r, V->ctx);
	return sign;
}

/* The sign (>= 0 or <= 0) of NUM on OC's condition, shown whole
 * (factor_sign_on), by its factors, or by its parts in a parameter v that
 * is >= 0 there: NUM = sum_d v^d * C_d, where no C_d holds v, has the sign
 * every C_d has (0 or one sign), each shown the same way.  The difference
 * of a maximum's operands over two axes is mostly a sum of one part per
 * axis, each of one sign and neither a product: m*N*(N - 1 - e) +
 * n*M*(M - 1 - f), split by m, then by n.  The parameters tried are those
 * in the most terms, of the least degree (m there, not N or e, which cut
 * N - 1 - e apart), SPLIT_TRIES at each step; *BUDGET bounds the
 * polynomials looked at.  0 when not shown. */
static int split_sign_on(const struct fvars *V, const fmpq_mpoly_t num, struct fml_on_cond *oc,
			 int *budget)
{
	int sign = factor_sign_on(V, num, oc);
	/* an affine NUM's sign on the condition was asked of ISL whole */
	if (sign || fmpq_mpoly_total_degree_si(num, V->ctx) <= 1 || --*budget < 0)
		return sign;
	sign = factors_sign_on(V, num, oc, false);
	if (!sign)
		sign = content_sign_on(V, num, oc, budget);
	slong len = fmpq_mpoly_length(num, V->ctx);
	slong *terms = calloc((size_t)V->cap + 1, sizeof(*terms));
	slong *deg = calloc((size_t)V->cap + 1, sizeof(*deg));
	slong *exp = calloc((size_t)V->cap + 1, sizeof(*exp));
	slong *order = calloc((size_t)V->cap + 1, sizeof(*order));
	bool room = terms && deg && exp && order;
	for (slong t = 0; room && !sign && t < len; t++) {
		fmpq_mpoly_get_term_exp_si(exp, num, t, V->ctx);
		for (slong v = 0; v < V->n; v++)
			terms[v] += exp[v] > 0;
	}
	/* the candidates: named, in some terms but not all (in all, the
	 * factors had it), by splits_before */
	slong nc = 0;
	for (slong v = 0; room && !sign && v < V->n; v++) {
		deg[v] = fmpq_mpoly_degree_si(num, v, V->ctx);
		if (deg[v] <= 0 || terms[v] == len || !V->v[v].name)
			continue;
		slong at = nc++;
		while (at > 0 && splits_before(terms, deg, v, order[at - 1])) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = v;
	}
	fmpq_mpoly_t c;
	fmpq_mpoly_init(c, V->ctx);
	for (slong k = 0, tried = 0; k < nc && tried < SPLIT_TRIES && !sign && *budget >= 0; k++) {
		slong v = order[k];
		if (!param_at_least(V, oc, v, 0))
			continue;
		tried++;
		/* shown only when every part is, none left out by the budget */
		int s = 0, lead = 0;
		slong d;
		for (d = deg[v]; d >= 0; d--) {
			ulong e = (ulong)d;
			fmpq_mpoly_get_coeff_vars_ui(c, num, &v, &e, 1, V->ctx);
			if (fmpq_mpoly_is_zero(c, V->ctx))
				continue;
			int sd = *budget >= 0 ? split_sign_on(V, c, oc, budget) : 0;
			if (d == deg[v])
				lead = sd;
			if (!sd || (s && sd != s))
				break;
			s = sd;
		}
		sign = d < 0 ? s : 0;
		if (!sign && lead && deg[v] == 1 && !oc->bounding)
			sign = lower_bound_sign(V, num, v, lead, oc, budget);
	}
	fmpq_mpoly_clear(c, V->ctx);
	free(terms);
	free(deg);
	free(exp);
	free(order);
	return sign;
}

/* The sign of the Laurent polynomial X on OC's condition, STRICT or not:
 * its denominator is a product of parameters (positive when each is >= 1
 * there), and its numerator's sign is shown whole or by its factors' (an
 * even power's is >= 0, and > 0 where its base is not 0); STRICT, 2 where
 * the numerator or one of its factors is affine and 0 all over. */
static int laurent_sign_on(const struct fvars *V, const struct fnode *x, struct fml_on_cond *oc,
			   bool strict)
{
	if (x->kind != FK_POLY || !oc->cond)
		return 0;
	for (slong i = 0; i < V->n; i++)
		if (x->den[i] > 0 && (!V->v[i].name || !param_at_least(V, oc, i, 1)))
			return 0;
	if (strict && affine_zero_on(V, x->num, oc))
		return 2;
	int sign = strict ? strict_sign_of(V, x->num, oc) : factor_sign_on(V, x->num, oc);
	if (sign)
		return sign;
	return factors_sign_on(V, x->num, oc, strict);
}

/* The sign of the Laurent polynomial X on OC's condition, >= 0 (1) or <= 0
 * (-1), or 0 when not shown: its denominator as laurent_sign_on's, its
 * numerator with the condition's equalities put in (substitute_equalities)
 * shown whole, by its factors or by its parts (split_sign_on).  Where the
 * numerator is not shown whole and X has both signs at points of the
 * condition, 0 at once: the search by parts (most of tidying LU's time,
 * and in vain there) cannot succeed. */
static int poly_sign_on(const struct fvars *V, const struct fnode *x, struct fml_on_cond *oc)
{
	if (x->kind != FK_POLY || !oc->cond)
		return 0;
	for (slong i = 0; i < V->n; i++)
		if (x->den[i] > 0 && (!V->v[i].name || !param_at_least(V, oc, i, 1)))
			return 0;
	fmpq_mpoly_t y;
	fmpq_mpoly_init(y, V->ctx);
	substitute_equalities(V, y, x->num, oc);
	int budget = SPLIT_BUDGET;
	/* split_sign_on asks factor_sign_on again (cheap: OC keeps what ISL
	 * said) */
	int sign = factor_sign_on(V, y, oc);
	if (!sign && fmpq_mpoly_total_degree_si(y, V->ctx) > 1 && !fml_both_signs_at_points(V, x, oc))
		sign = split_sign_on(V, y, oc, &budget);
	fmpq_mpoly_clear(y, V->ctx);
	return sign;
}

/* 1 for X >= 0 on OC's condition, -1 for X <= 0, 0 when that is not shown. */
int fml_poly_sign_on(const struct fvars *V, const struct fnode *x, struct fml_on_cond *oc)
{
	return poly_sign_on(V, x, oc);
}

/* 1 when X > 0 at every integer point of OC's condition, -1 when X < 0, 2
 * when X is 0, 0 when that is not shown (a product: 2*n*(N - m) where
 * n >= 2*M and m >= 2*N, by its factors). */
__attribute__((noinline)) /* inlined, gcc 12 warns of a 56-byte read from an 8-byte
			    * region (-Wstringop-overread): a false alarm */
static int strict_sign_on(const struct fvars *V, const struct fnode *x, struct fml_on_cond *oc)
{
	if (x->kind == FK_POLY && fmpq_mpoly_is_zero(x->num, V->ctx))
		return 2;
	return laurent_sign_on(V, x, oc, true);
}

/* X (a polynomial node) with its numerator NUM (taken over: set into a
 * copy); NULL when out of memory. */
static struct fnode *with_num(const struct fvars *V, const struct fnode *x, const fmpq_mpoly_t num)
{
	struct fnode *y = fml_node_copy(V, x);
	if (y)
		fmpq_mpoly_set(y->num, num, V->ctx);
	return y;
}

/* Piece I's value of R written by its sign where that is shown: X = A +
 * sum_c B_c * c, linear in the names NAMES[0..N) (the cost's coefficients,
 * >= 0), each of A and B_c 0 or of one strict sign SIGMA on the piece's
 * condition within CONTEXT, becomes SIGMA where A is not 0 and SIGMA *
 * (the sum of the names whose B_c is not 0) where it is.  Both have X's
 * sign wherever the names are >= 0.  1 when rewritten, 0 when not shown,
 * -1 on failure. */
static int sign_fold_piece(struct formula *r, int i, __isl_keep isl_set *context,
			   const char *const names[], int n)
{
	const struct fvars *V = r->vars;
	struct fnode *x = r->p[i].val;
	if (x->kind != FK_POLY || n > 8)
		return 0;
	slong at[8];
	for (int k = 0; k < n; k++) {
		at[k] = fml_vars_find(V, names[k]);
		if (at[k] >= 0 && (x->den[at[k]] > 0 ||
				   fmpq_mpoly_degree_si(x->num, at[k], V->ctx) > 1))
			return 0;
	}
	isl_set *cond = r->p[i].cond ? isl_set_intersect(isl_set_copy(r->p[i].cond),
							   isl_set_copy(context))
				     : isl_set_copy(context);
	if (!cond)
		return -1;
	struct fml_on_cond oc;
	fml_on_cond_init(&oc, cond);
	fmpq_mpoly_t rest, b, cb;
	fmpq_mpoly_init(rest, V->ctx);
	fmpq_mpoly_init(b, V->ctx);
	fmpq_mpoly_init(cb, V->ctx);
	fmpq_mpoly_set(rest, x->num, V->ctx);
	int sigma = 0, ok = 1, fail = 0, constant = 0;
	bool involved[8] = {false};
	for (int k = 0; k <= n && ok; k++) {
		if (k < n) {
			if (at[k] < 0)
				continue;
			ulong one = 1;
			slong var = at[k];
			fmpq_mpoly_get_coeff_vars_ui(b, x->num, &var, &one, 1, V->ctx);
			/* the part in names[k]: taken out of the rest */
			fmpq_mpoly_gen(cb, var, V->ctx);
			fmpq_mpoly_mul(cb, cb, b, V->ctx);
			fmpq_mpoly_sub(rest, rest, cb, V->ctx);
			/* no product of two names (g*l) */
			for (int m = 0; m < n && ok; m++)
				ok = at[m] < 0 || fmpq_mpoly_degree_si(b, at[m], V->ctx) <= 0;
		} else {
			/* the rest holds none of the names */
			for (int m = 0; m < n && ok; m++)
				ok = at[m] < 0 || fmpq_mpoly_degree_si(rest, at[m], V->ctx) <= 0;
			fmpq_mpoly_set(b, rest, V->ctx);
		}
		if (!ok)
			break;
		struct fnode *part = with_num(V, x, b);
		if (!part) {
			fail = 1;
			break;
		}
		int sg = strict_sign_on(V, part, &oc);
		fml_node_free(V, part);
		if (sg == 2)
			continue;   /* this part is 0 */
		ok = sg != 0 && (sigma == 0 || sg == sigma);
		sigma = sg;
		if (k < n)
			involved[k] = true;
		else
			constant = 1;
	}
	fmpq_mpoly_clear(rest, V->ctx);
	fmpq_mpoly_clear(b, V->ctx);
	fmpq_mpoly_clear(cb, V->ctx);
	fml_on_cond_clear(&oc);
	isl_set_free(cond);
	if (fail)
		return -1;
	if (!ok)
		return 0;
	struct fnode *v = NULL;
	if (sigma == 0) {
		v = fml_poly_zero(V);   /* every part 0 there */
	} else if (constant) {
		v = fml_poly_si(V, sigma);
	} else {
		v = fml_poly_zero(V);
		for (int k = 0; k < n && v; k++) {
			if (!involved[k])
				continue;
			struct fnode *c = fml_poly_var(V, at[k]);
			struct fnode *t = c ? fml_poly_add(V, v, c, sigma < 0) : NULL;
			fml_node_free(V, c);
			fml_node_free(V, v);
			v = t;
		}
	}
	if (!v)
		return -1;
	fml_node_free(V, r->p[i].val);
	r->p[i].val = v;
	return 1;
}

/* An affine factor F of X's numerator that is >= 0 (or <= 0) on COND but
 * may be 0 there (N - 1 where N >= 1), none of the names NAMES; NULL when
 * there is none. */
static __isl_give isl_aff *split_factor(const struct fvars *V, const struct fnode *x,
					__isl_keep isl_set *cond, const char *const names[], int n,
					int *sign)
{
	if (x->kind != FK_POLY || fmpq_mpoly_is_zero(x->num, V->ctx))
		return NULL;
	struct fml_on_cond oc;
	fml_on_cond_init(&oc, cond);
	isl_aff *found = NULL;
	fmpq_mpoly_factor_t f;
	fmpq_mpoly_factor_init(f, V->ctx);
	if (fml_factor(V, f, x->num)) {
		for (slong k = 0; k < f->num && !found; k++) {
			bool named = false;
			for (int c = 0; c < n && !named; c++) {
				slong v = fml_vars_find(V, names[c]);
				named = v >= 0 && fmpq_mpoly_degree_si(f->poly + k, v, V->ctx) > 0;
			}
			if (named)
				continue;
			int sg = factor_sign_on(V, f->poly + k, &oc);
			if (!sg || strict_sign_of(V, f->poly + k, &oc))
				continue;
			isl_space *space = isl_set_get_space(cond);
			found = fml_mpoly_aff(V, f->poly + k, space);
			isl_space_free(space);
			*sign = sg;
		}
	}
	fmpq_mpoly_factor_clear(f, V->ctx);
	fml_on_cond_clear(&oc);
	return found;
}

/* Piece I of F (kept) into R, folded (sign_fold_piece); where that shows
 * nothing and its value has a factor F of one sign that may be 0 there,
 * as two pieces, where F == 0 and where it is not, when both fold (g*m*o*
 * (N - 1)/(M*N): 0 where N == 1, g where N >= 2).  -1 on failure. */
static int fold_into(struct formula *r, int *size, const struct formula *f, int i,
		     __isl_keep isl_set *context, const char *const names[], int n)
{
	const struct fvars *V = f->vars;
	isl_set *cond = f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL;
	int before = r->n;
	/* takes COND, and frees it where the copy failed */
	if (fml_push_piece(r, size, cond, fml_node_copy(V, f->p[i].val)) < 0)
		return -1;
	if (r->n == before)
		return 0;       /* an empty piece, left out */
	int at = r->n - 1;
	int st = sign_fold_piece(r, at, context, names, n);
	if (st != 0)
		return st < 0 ? -1 : 0;
	isl_set *where = f->p[i].cond ? isl_set_intersect(isl_set_copy(f->p[i].cond),
							    isl_set_copy(context))
				      : isl_set_copy(context);
	if (!where)
		return -1;
	int sign = 0;
	isl_aff *fa = split_factor(V, f->p[i].val, where, names, n, &sign);
	isl_set_free(where);
	if (!fa)
		return 0;   /* none, or not affine (an ISL failure is seen below) */
	/* where F == 0, and where F >= 1 (F <= -1 where F <= 0): the rest of
	 * the piece within the assumptions, which is where it is claimed (its
	 * points outside them, F < 0, go: written N >= 2, not N != 1) */
	isl_set *base = f->p[i].cond ? isl_set_copy(f->p[i].cond)
				     : isl_set_universe(isl_set_get_space(context));
	isl_aff *one = isl_aff_val_on_domain(isl_aff_get_domain_local_space(fa),
					     isl_val_int_from_si(isl_aff_get_ctx(fa), sign));
	isl_set *c0 = isl_set_intersect(isl_set_copy(base),
					isl_set_from_basic_set(isl_aff_zero_basic_set(isl_aff_copy(fa))));
	isl_set *c1 = isl_set_intersect(base, isl_set_from_basic_set(
		sign > 0 ? isl_aff_ge_basic_set(fa, one) : isl_aff_le_basic_set(fa, one)));
	if (!c0 || !c1) {
		isl_set_free(c0);
		isl_set_free(c1);
		return -1;
	}
	f->vars->refs++;
	struct formula *two = fml_formula_alloc(f->vars, 0);
	int tsize = 0, ok = two != NULL;
	if (!ok) {
		isl_set_free(c0);
		isl_set_free(c1);
	} else {
		free(two->p);
		two->p = NULL;
		/* fml_push_piece takes the condition, pushed or not */
		ok = fml_push_piece(two, &tsize, c0, fml_node_copy(V, f->p[i].val)) == 0;
		if (ok)
			ok = fml_push_piece(two, &tsize, c1, fml_node_copy(V, f->p[i].val)) == 0;
		else
			isl_set_free(c1);
	}
	int folded = 0;
	for (int k = 0; ok && k < two->n; k++) {
		int sk = sign_fold_piece(two, k, context, names, n);
		ok = sk >= 0;
		folded += sk > 0;
	}
	/* both sides have points: a side without any leaves the piece whole */
	if (ok && two->n == 2 && folded == 2) {
		/* the two pieces in place of the one */
		isl_set_free(r->p[at].cond);
		fml_node_free(V, r->p[at].val);
		r->n--;
		for (int k = 0; k < 2 && ok; k++) {
			ok = fml_push_piece(r, size, two->p[k].cond, two->p[k].val) == 0;
			two->p[k].cond = NULL;  /* taken, pushed or freed */
			two->p[k].val = NULL;
		}
		for (int k = 0; k < 2; k++) {
			isl_set_free(two->p[k].cond);
			fml_node_free(V, two->p[k].val);
		}
		two->n = 0;
	}
	formula_free(two);
	return ok ? 0 : -1;
}

struct formula *formula_sign_fold(const struct formula *f, __isl_keep isl_set *context,
				  const char *const names[], int n)
{
	if (!f || !context)
		return NULL;
	f->vars->refs++;
	struct formula *r = fml_formula_alloc(f->vars, 0);
	if (!r)
		return NULL;
	free(r->p);
	r->p = NULL;
	r->outside = f->outside;
	int size = 0;
	for (int i = 0; i < f->n; i++)
		if (fold_into(r, &size, f, i, context, names, n) < 0) {
			formula_free(r);
			return NULL;
		}
	return r;
}

