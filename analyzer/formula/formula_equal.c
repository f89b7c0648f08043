/* Whether two formulas are the same function where both are defined.
 *
 * formula_sub already builds the difference piece by piece on the non-empty
 * intersections of the operands' conditions (zero-outside operands included),
 * so the question is whether each piece of the difference is zero on its
 * condition:
 *   - proven when the value is the zero polynomial (sums cancel like terms, so
 *     identical max/min trees cancel too), or when ISL, given the numerator of
 *     the difference as a quasi-polynomial on the condition, says it is zero
 *     there (this sees equalities and divisibility in the condition and
 *     ISL's normal form of floors);
 *   - proven when, on every residue class of the parameters modulo the product
 *     of the floors' denominators that meets the condition, the numerator is a
 *     polynomial that vanishes on a grid large enough for its degree;
 *   - disproven by an integer point of the condition where the difference is
 *     defined and not zero, searched for in a box around the origin and in a
 *     box around a sample point of the condition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/session.h"
#include "analyzer/util/val.h"

/* ---------------------------------------------------------------- to ISL */

static __isl_give isl_aff *var_aff(const struct fvars *V, slong i, __isl_keep isl_space *space);

__isl_give isl_aff *fml_mpoly_aff(const struct fvars *V, const fmpq_mpoly_t num,
	__isl_keep isl_space *space)
{
	isl_ctx *ctx = isl_space_get_ctx(space);
	isl_aff *aff;
	slong i, j, len, *e;
	fmpq_t c;

	if (fmpq_mpoly_total_degree_si(num, V->ctx) > 1)
		return NULL;
	aff = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(space)));
	e = calloc(V->cap + 1, sizeof(slong));
	if (!e)
		return isl_aff_free(aff);
	fmpq_init(c);
	len = fmpq_mpoly_length(num, V->ctx);
	for (j = 0; j < len && aff; j++) {
		slong var = -1;
		isl_aff *t;
		fmpq_mpoly_get_term_exp_si(e, num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			if (e[i])
				var = i;
		if (var < 0) {
			aff = isl_aff_add_constant_val(aff, val_from_fmpq(ctx, c));
			continue;
		}
		t = var_aff(V, var, space);
		if (!t) {
			aff = isl_aff_free(aff);
			break;
		}
		aff = isl_aff_add(aff, isl_aff_scale_val(t, val_from_fmpq(ctx, c)));
	}
	fmpq_clear(c);
	free(e);
	return aff;
}

/* The affine value of polynomial X (degree <= 1, no denominator) on SPACE. */
static __isl_give isl_aff *poly_aff(const struct fvars *V, const struct fnode *x,
	__isl_keep isl_space *space)
{
	if (x->kind != FK_POLY)
		return NULL;
	for (slong i = 0; i < V->cap; i++)
		if (x->den[i])
			return NULL;
	return fml_mpoly_aff(V, x->num, space);
}

/* Variable I of V as an affine function on SPACE (a floor for an atom). */
static __isl_give isl_aff *var_aff(const struct fvars *V, slong i, __isl_keep isl_space *space)
{
	if (V->v[i].name) {
		int pos = isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name);
		if (pos < 0)
			return NULL;
		return isl_aff_var_on_domain(isl_local_space_from_space(
			isl_space_copy(space)), isl_dim_param, pos);
	}
	return isl_aff_floor(poly_aff(V, V->v[i].arg, space));
}

/* The numerator of polynomial X as a quasi-polynomial on SPACE; NULL when an
 * atom is not the floor of an affine expression. */
static __isl_give isl_qpolynomial *poly_qp(const struct fvars *V, const struct fnode *x,
	__isl_keep isl_space *space)
{
	isl_ctx *ctx = isl_space_get_ctx(space);
	isl_qpolynomial *qp;
	slong i, j, len, *e;
	fmpq_t c;

	qp = isl_qpolynomial_zero_on_domain(isl_space_copy(space));
	e = calloc(V->cap + 1, sizeof(slong));
	if (!e)
		return isl_qpolynomial_free(qp);
	fmpq_init(c);
	len = fmpq_mpoly_length(x->num, V->ctx);
	for (j = 0; j < len && qp; j++) {
		isl_qpolynomial *t;
		fmpq_mpoly_get_term_exp_si(e, x->num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, x->num, j, V->ctx);
		t = isl_qpolynomial_val_on_domain(isl_space_copy(space),
			val_from_fmpq(ctx, c));
		for (i = 0; i < V->cap && t; i++) {
			isl_aff *a;
			if (e[i] == 0)
				continue;
			a = var_aff(V, i, space);
			if (!a) {
				t = isl_qpolynomial_free(t);
				break;
			}
			t = isl_qpolynomial_mul(t, isl_qpolynomial_pow(
				isl_qpolynomial_from_aff(a), (unsigned)e[i]));
		}
		if (!t) {
			qp = isl_qpolynomial_free(qp);
			break;
		}
		qp = isl_qpolynomial_add(qp, t);
	}
	fmpq_clear(c);
	free(e);
	return qp;
}

/* A parameter space with NAMES. */
static __isl_give isl_space *param_space(isl_ctx *ctx, char **names, int n)
{
	isl_space *space = isl_space_params_alloc(ctx, n);
	int i;

	for (i = 0; i < n; i++)
		space = isl_space_set_dim_name(space, isl_dim_param, i, names[i]);
	return space;
}

static isl_stat piece_is_zero(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	int *all = user;
	if (isl_qpolynomial_is_zero(qp) != isl_bool_true)
		*all = 0;
	isl_set_free(set);
	isl_qpolynomial_free(qp);
	return isl_stat_ok;
}

/* 1 when ISL shows that X's numerator vanishes on COND (NULL: everywhere). */
static int isl_says_zero(isl_ctx *ctx, const struct fvars *V, const struct fnode *x,
	__isl_keep isl_set *cond, char **names, int n)
{
	isl_space *space = param_space(ctx, names, n);
	isl_qpolynomial *qp;
	isl_pw_qpolynomial *pwqp;
	isl_set *dom;
	isl_bool zero;

	if (x->kind != FK_POLY) {
		isl_space_free(space);
		return 0;
	}
	qp = poly_qp(V, x, space);
	if (!qp) {
		isl_space_free(space);
		return 0;
	}
	dom = cond ? isl_set_align_params(isl_set_copy(cond), isl_space_copy(space))
		: isl_set_universe(isl_space_copy(space));
	isl_space_free(space);
	pwqp = isl_pw_qpolynomial_alloc(isl_set_copy(dom), qp);
	pwqp = isl_pw_qpolynomial_gist(pwqp, dom);
	/* isl_pw_qpolynomial_is_zero only says whether there is no piece: a piece
	 * whose polynomial the gist reduced to 0 must be looked at. */
	zero = isl_pw_qpolynomial_is_zero(pwqp);
	if (zero == isl_bool_false) {
		int all = 1;
		if (isl_pw_qpolynomial_foreach_piece(pwqp, &piece_is_zero, &all) < 0)
			all = 0;
		zero = all ? isl_bool_true : isl_bool_false;
	}
	isl_pw_qpolynomial_free(pwqp);
	return zero == isl_bool_true;
}


/* ---------------------------------------------------------------- periodicity */

/* 1 when COND (NULL: everything) meets the class p_k = L*t_k + R[k] of the
 * parameters NAMES, 0 when it does not, -1 when ISL fails. */
static int class_meets(isl_ctx *ctx, __isl_keep isl_set *cond, char **names, int n,
	long long L, const long long *R)
{
	isl_space *space;
	isl_local_space *ls;
	isl_set *cls;
	isl_bool empty;
	int k;

	if (!cond || n == 0)
		return 1;
	space = param_space(ctx, names, n);
	ls = isl_local_space_from_space(isl_space_copy(space));
	cls = isl_set_universe(space);
	for (k = 0; k < n; k++) {
		/* (p_k - R[k]) mod L == 0 */
		isl_aff *a = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_param,
						   (unsigned)k);
		a = isl_aff_add_constant_si(a, (int)-R[k]);
		a = isl_aff_mod_val(a, isl_val_int_from_si(ctx, (long)L));
		cls = isl_set_intersect(cls, isl_set_from_basic_set(isl_aff_zero_basic_set(a)));
	}
	isl_local_space_free(ls);
	cls = isl_set_intersect(isl_set_align_params(cls, isl_set_get_space(cond)),
				isl_set_copy(cond));
	empty = isl_set_is_empty(cls);
	isl_set_free(cls);
	return empty < 0 ? -1 : !empty;
}

/* 1 when X's numerator is shown to vanish on every residue class of the
 * parameters that meets COND.  With L the product of the atoms' denominators,
 * every floor atom is affine on a class p = L*t + r, so there the numerator is
 * a polynomial in t of total degree at most D; one that vanishes on the grid
 * {0..D}^n is zero (a non-zero polynomial of degree <= D in each variable cannot
 * vanish on a grid with D+1 values per variable).  0 when not shown (or the
 * grid would be too large). */
static int periodic_zero(isl_ctx *ctx, const struct fvars *V, const struct fnode *x,
	__isl_keep isl_set *cond, char **names, int n)
{
	char *used = calloc(V->cap + 1, 1);
	struct fnode *y = NULL;
	long long *r = calloc(n + 1, sizeof(long long));
	long long *t = calloc(n + 1, sizeof(long long));
	long long *v = calloc(n + 1, sizeof(long long));
	long long L = 1, D, points = 1;
	slong i, j;
	int k, result = 0;

	if (x->kind != FK_POLY || !used || !r || !t || !v)
		goto done;
	fml_node_used(V, x, used);
	for (i = 0; i < V->n; i++) {
		fmpz_t d;
		fmpq_t c;
		slong len;
		const struct fnode *arg = V->v[i].arg;
		if (!used[i] || !arg)
			continue;
		if (arg->kind != FK_POLY)
			goto done;
		for (j = 0; j < V->cap; j++)
			if (arg->den[j])
				goto done;
		fmpz_init(d);
		fmpq_init(c);
		fmpz_one(d);
		len = fmpq_mpoly_length(arg->num, V->ctx);
		for (j = 0; j < len; j++) {
			fmpq_mpoly_get_term_coeff_fmpq(c, arg->num, j, V->ctx);
			fmpz_lcm(d, d, fmpq_denref(c));
		}
		if (fmpz_cmp_si(d, 1000) > 0)
			L = 1000000;
		else
			L *= fmpz_get_si(d);
		fmpz_clear(d);
		fmpq_clear(c);
		if (L > 1000)
			goto done;
	}
	D = fmpq_mpoly_total_degree_si(x->num, V->ctx);
	if (D < 0)
		D = 0;
	for (k = 0; k < n; k++) {
		points *= L * (D + 1);
		if (points > 20000)
			goto done;
	}
	y = fml_node_copy(V, x);
	if (!y)
		goto done;
	memset(y->den, 0, V->cap * sizeof(slong));
	for (;;) {
		/* The value first: a class where it vanishes needs no look at COND,
		 * and only a class where it does not must be shown to miss COND. */
		int nonzero = 0;
		for (k = 0; k < n; k++)
			t[k] = 0;
		for (;;) {
			struct feval_env env;
			fmpq_t val;
			int e;
			for (k = 0; k < n; k++)
				v[k] = L * t[k] + r[k];
			if (fml_env_init(&env, V, (const char *const *)names, v, n) < 0)
				goto done;
			fmpq_init(val);
			e = fml_node_eval(V, y, &env, val);
			if (e < 0) {
				fmpq_clear(val);
				fml_env_clear(&env, V);
				goto done;
			}
			nonzero = !fmpq_is_zero(val);
			fmpq_clear(val);
			fml_env_clear(&env, V);
			if (nonzero)
				break;
			for (k = 0; k < n && ++t[k] > D; k++)
				t[k] = 0;
			if (k == n)
				break;
		}
		if (nonzero) {
			int meets = class_meets(ctx, cond, names, n, L, r);
			if (meets != 0)
				goto done; /* it meets COND (or ISL failed): not shown */
		}
		for (k = 0; k < n && ++r[k] >= L; k++)
			r[k] = 0;
		if (k == n)
			break;
	}
	result = 1;
done:
	fml_node_free(V, y);
	free(used);
	free(r);
	free(t);
	free(v);
	return result;
}

/* ---------------------------------------------------------------- witnesses */

struct search {
	const struct fvars *V;
	const struct fnode *x;
	char **names;
	int n;
	long long *values;
	int found;
};

static isl_stat point_fn(__isl_take isl_point *pnt, void *user)
{
	struct search *s = user;
	struct feval_env env;
	fmpq_t v;
	int i, r;

	for (i = 0; i < s->n; i++) {
		isl_val *c = isl_point_get_coordinate_val(pnt, isl_dim_set, i);
		s->values[i] = isl_val_get_num_si(c);
		isl_val_free(c);
	}
	isl_point_free(pnt);
	if (fml_env_init(&env, s->V, (const char *const *)s->names, s->values, s->n) < 0)
		return isl_stat_error;
	fmpq_init(v);
	r = fml_node_eval(s->V, s->x, &env, v);
	if (r == 0 && !fmpq_is_zero(v))
		s->found = 1;
	fmpq_clear(v);
	fml_env_clear(&env, s->V);
	/* stop the enumeration once a witness is found */
	return s->found ? isl_stat_error : isl_stat_ok;
}

/* The points of SET (parameters NAMES, moved to set dimensions) within B of
 * CENTER, each checked for a non-zero difference. */
static void search_box(struct search *s, __isl_take isl_set *set, const long long *center,
	int B)
{
	int i;

	for (i = 0; i < s->n; i++) {
		set = isl_set_lower_bound_si(set, isl_dim_set, i, (int)(center[i] - B));
		set = isl_set_upper_bound_si(set, isl_dim_set, i, (int)(center[i] + B));
	}
	isl_set_foreach_point(set, &point_fn, s);
	isl_set_free(set);
}

static int witness(isl_ctx *ctx, const struct fvars *V, const struct fnode *x,
	__isl_keep isl_set *cond, char **names, int n)
{
	isl_space *space = param_space(ctx, names, n);
	isl_set *set;
	isl_point *sample;
	struct search s = { V, x, names, n, NULL, 0 };
	long long *center = calloc(n + 1, sizeof(long long));
	int B = 8, i;

	s.values = calloc(n + 1, sizeof(long long));
	if (!center || !s.values) {
		/* no witness searched for: the caller takes it for "not shown zero" */
		isl_space_free(space);
		free(center);
		free(s.values);
		return 0;
	}

	/* about 3000 points per box */
	while (B > 1) {
		double count = 1;
		for (i = 0; i < n; i++)
			count *= 2 * B + 1;
		if (count <= 3000)
			break;
		B--;
	}
	set = cond ? isl_set_align_params(isl_set_copy(cond), space)
		: isl_set_universe(space);
	set = isl_set_move_dims(set, isl_dim_set, 0, isl_dim_param, 0, n);
	search_box(&s, isl_set_copy(set), center, B);
	if (!s.found) {
		sample = isl_set_sample_point(isl_set_copy(set));
		if (sample && isl_point_is_void(sample) == isl_bool_false) {
			for (i = 0; i < n; i++) {
				isl_val *c = isl_point_get_coordinate_val(sample, isl_dim_set, i);
				center[i] = isl_val_get_num_si(c);
				isl_val_free(c);
			}
			search_box(&s, isl_set_copy(set), center, B);
		}
		isl_point_free(sample);
	}
	isl_set_free(set);
	free(s.values);
	free(center);
	return s.found;
}

/* ---------------------------------------------------------------- the test */

struct zero_job {
	isl_ctx *ctx;
	const struct fvars *V;
	const struct fnode *x;
	char **names;
	int n;
	int all;
};

static isl_stat zero_on_bset(__isl_take isl_basic_set *bset, void *user)
{
	struct zero_job *zj = user;
	isl_set *part = isl_set_from_basic_set(bset);
	if (!isl_says_zero(zj->ctx, zj->V, zj->x, part, zj->names, zj->n) &&
	    !periodic_zero(zj->ctx, zj->V, zj->x, part, zj->names, zj->n))
		zj->all = 0;
	isl_set_free(part);
	return zj->all ? isl_stat_ok : isl_stat_error;
}

/* 1 when X's numerator is shown to vanish on COND (NULL: everywhere): on the
 * whole of it, or else on each of its disjuncts (a value may vanish on each
 * for a different reason: M == 1 on one, n == 2 on the other). */
static int zero_on(isl_ctx *ctx, const struct fvars *V, const struct fnode *x,
	__isl_keep isl_set *cond, char **names, int n)
{
	if (isl_says_zero(ctx, V, x, cond, names, n) || periodic_zero(ctx, V, x, cond, names, n))
		return 1;
	if (!cond || isl_set_n_basic_set(cond) < 2)
		return 0;
	struct zero_job zj = { ctx, V, x, names, n, 1 };
	if (isl_set_foreach_basic_set(cond, &zero_on_bset, &zj) < 0)
		return 0;
	return zj.all;
}

/* The identity test; with SEARCH, a failed proof looks for a witness point. */
static int equal(const struct formula *f, const struct formula *g, int search)
{
	struct formula *d;
	isl_ctx *own = NULL;
	int i, result = 1;

	if (!f || !g)
		return -1;
	d = formula_sub(f, g);
	if (!d)
		return -1;
	for (i = 0; i < d->n && result != 0; i++) {
		const struct fnode *x = d->p[i].val;
		/* Parameters the condition does not involve would stay behind when it
		 * is aligned to the names below and give it a different space. */
		isl_set *cond = d->p[i].cond ? isl_set_drop_unused_params(isl_set_copy(d->p[i].cond))
					     : NULL;
		isl_ctx *ctx;
		char **names;
		int n;

		if (fml_poly_is_zero(d->vars, x)) {
			isl_set_free(cond);
			continue;
		}
		if (cond) {
			ctx = isl_set_get_ctx(cond);
		} else {
			if (!own)
				own = session_ctx(NULL); /* no set to take one from */
			ctx = own;
			if (!ctx) {
				result = -1;
				break;
			}
		}
		{
			/* the parameters of this piece: its value's and its condition's */
			struct formula one = { d->vars, 1, d->p + i, FORMULA_UNDEFINED_OUTSIDE, false, NULL };
			names = formula_params(&one, &n);
		}
		if (!names) {
			isl_set_free(cond);
			result = -1;
			break;
		}
		if (!zero_on(ctx, d->vars, x, cond, names, n)) {
			if (search && witness(ctx, d->vars, x, cond, names, n))
				result = 0;
			else
				result = -1;
		}
		formula_params_free(names, n);
		isl_set_free(cond);
	}
	formula_free(d);
	if (own)
		session_ctx_free(NULL, own);
	return result;
}

int formula_equal(const struct formula *f, const struct formula *g)
{
	return equal(f, g, 1);
}

int formula_proven_equal(const struct formula *f, const struct formula *g)
{
	return equal(f, g, 0) == 1;
}
