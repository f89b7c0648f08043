/* Substitution of a formula for a parameter (formula_subst): values are
 * translated into a ring that holds both formulas, and each condition is
 * rewritten with the parameter replaced, which ISL can do when the replacement
 * is affine in the parameters or such an affine function over one positive
 * parameter. */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/coalesce.h"

/* ---------------------------------------------------------------- substitution */

static int mpoly_affine(const struct fvars *V, const fmpq_mpoly_t num, fmpz *coef,
	fmpz_t c0, fmpz_t d);

/* R as D*R = sum COEF[i]*x_i + C0 with integer COEF, C0 and the x_i parameters;
 * -1 if R is not such an affine function. */
static int poly_affine(const struct fvars *V, const struct fnode *r, fmpz *coef,
	fmpz_t c0, fmpz_t d)
{
	slong i;

	if (r->kind != FK_POLY)
		return -1;
	for (i = 0; i < V->cap; i++)
		if (r->den[i])
			return -1;
	return mpoly_affine(V, r->num, coef, c0, d);
}

/* NUM (in ring V) as D*NUM = sum COEF[i]*x_i + C0, as poly_affine. */
static int mpoly_affine(const struct fvars *V, const fmpq_mpoly_t num, fmpz *coef,
	fmpz_t c0, fmpz_t d)
{
	slong i, j, len, *e;
	fmpq_t c;
	fmpz_t t;
	int ok = 0;

	if (fmpq_mpoly_total_degree_si(num, V->ctx) > 1)
		return -1;
	e = calloc(V->cap + 1, sizeof(slong));
	if (!e)
		return -1;
	fmpq_init(c);
	fmpz_init(t);
	fmpz_one(d);
	fmpz_zero(c0);
	len = fmpq_mpoly_length(num, V->ctx);
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_coeff_fmpq(c, num, j, V->ctx);
		fmpz_lcm(d, d, fmpq_denref(c));
	}
	for (j = 0; j < len; j++) {
		slong var = -1;
		fmpq_mpoly_get_term_exp_si(e, num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			if (e[i])
				var = i;
		if (var >= 0 && !V->v[var].name)
			goto done;
		fmpz_divexact(t, d, fmpq_denref(c));
		fmpz_mul(t, t, fmpq_numref(c));
		fmpz_set(var >= 0 ? coef + var : c0, t);
	}
	ok = 1;
done:
	fmpq_clear(c);
	fmpz_clear(t);
	free(e);
	return ok ? 0 : -1;
}

static __isl_give isl_val *val_from_fmpz(isl_ctx *ctx, const fmpz_t x, int negate)
{
	mpz_t z;
	isl_val *v;

	mpz_init(z);
	fmpz_get_mpz(z, x);
	if (negate)
		mpz_neg(z, z);
	v = isl_val_int_from_gmp(ctx, z);
	mpz_clear(z);
	return v;
}

/* COND (taken) with parameter NAME replaced by R over V: the points where
 * (NAME = R) lies in COND.  Sets *ERROR when NAME matters and R is not affine. */
/* Substituting R = A/P (A affine with integer coefficients over D, P one
 * positive parameter) for the parameter at POS of COND: every constraint
 * a*name + k >= 0 (or = 0) whose other terms are constants becomes
 * a*(D*A) + (D*k)*P >= 0, which is the same where P > 0.  Any other use of the
 * name makes it fail (*error). */
struct quotient {
	const struct fvars *V;
	const fmpz *coef;   /* D*A = sum coef[i]*x_i + c0 over the ring's variables */
	const fmpz *c0, *d;
	const char *pname;  /* P */
	int pos;            /* the replaced parameter in the condition's space */
	isl_basic_set *out;
	int error;
};

static isl_stat quotient_constraint(__isl_take isl_constraint *c, void *user)
{
	struct quotient *q = user;
	isl_ctx *ctx = isl_constraint_get_ctx(c);
	isl_val *a = isl_constraint_get_coefficient_val(c, isl_dim_param, q->pos);
	if (!a || isl_val_is_zero(a)) {
		isl_val_free(a);
		q->out = isl_basic_set_add_constraint(q->out, c);
		return q->out ? isl_stat_ok : isl_stat_error;
	}
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	for (int k = 0; k < np && !q->error; k++) {
		if (k == q->pos)
			continue;
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, k);
		if (!v || !isl_val_is_zero(v))
			q->error = 1;
		isl_val_free(v);
	}
	if (q->error || isl_constraint_dim(c, isl_dim_div) != 0) {
		q->error = 1;
		isl_val_free(a);
		isl_constraint_free(c);
		return isl_stat_error;
	}
	isl_val *k = isl_constraint_get_constant_val(c);
	int eq = isl_constraint_is_equality(c) == isl_bool_true;
	isl_local_space *ls = isl_local_space_from_space(isl_constraint_get_space(c));
	isl_space *space = isl_constraint_get_space(c);
	isl_constraint_free(c);
	isl_constraint *n = eq ? isl_constraint_alloc_equality(ls) : isl_constraint_alloc_inequality(ls);
	for (slong i = 0; i < q->V->n; i++) {
		if (!q->V->v[i].name || fmpz_is_zero(q->coef + i))
			continue;
		int p = isl_space_find_dim_by_name(space, isl_dim_param, q->V->v[i].name);
		isl_val *v = isl_val_mul(isl_val_copy(a), val_from_fmpz(ctx, q->coef + i, 0));
		n = isl_constraint_set_coefficient_val(n, isl_dim_param, p, v);
	}
	int pp = isl_space_find_dim_by_name(space, isl_dim_param, q->pname);
	isl_val *pc = isl_val_mul(isl_val_copy(k), val_from_fmpz(ctx, q->d, 0));
	n = isl_constraint_set_coefficient_val(n, isl_dim_param, pp, pc);
	n = isl_constraint_set_constant_val(n, isl_val_mul(a, val_from_fmpz(ctx, q->c0, 0)));
	isl_val_free(k);
	q->out = isl_basic_set_add_constraint(q->out, n);
	/* The rewrite multiplied by P: it holds where P >= 1, and says so. */
	isl_constraint *pos = isl_constraint_alloc_inequality(isl_local_space_from_space(space));
	pos = isl_constraint_set_coefficient_si(pos, isl_dim_param, pp, 1);
	pos = isl_constraint_set_constant_si(pos, -1);
	q->out = isl_basic_set_add_constraint(q->out, pos);
	return q->out ? isl_stat_ok : isl_stat_error;
}

static __isl_give isl_set *subst_cond_quotient(__isl_take isl_set *cond, int pos,
	const struct fvars *V, const struct fnode *r, int *error)
{
	slong pvar = -1;
	for (slong i = 0; i < V->n && r->kind == FK_POLY; i++) {
		if (r->den[i] == 0)
			continue;
		if (r->den[i] != 1 || pvar >= 0 || !V->v[i].name) {
			pvar = -2;
			break;
		}
		pvar = i;
	}
	if (pvar < 0) {
		*error = 1;
		return isl_set_free(cond);
	}
	/* A = R*P: the same numerator without the denominator. */
	struct fnode a = *r;
	slong *den = calloc(V->cap + 1, sizeof(slong));
	fmpz *coef = _fmpz_vec_init(V->cap + 1);
	fmpz_t c0, d;
	fmpz_init(c0);
	fmpz_init(d);
	a.den = den;
	if (!den || poly_affine(V, &a, coef, c0, d) < 0 || !fmpz_is_zero(coef + pvar)) {
		*error = 1;
		cond = isl_set_free(cond);
		goto done;
	}
	/* Every name A and P use must be a parameter of the condition. */
	const char *name = isl_set_get_dim_name(cond, isl_dim_param, pos);
	char *kept = name ? strdup(name) : NULL;
	isl_space *space = isl_set_get_space(cond);
	for (slong i = 0; i < V->n; i++)
		if (V->v[i].name && (i == pvar || !fmpz_is_zero(coef + i)) &&
		    isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name) < 0) {
			isl_size k = isl_space_dim(space, isl_dim_param);
			space = isl_space_add_dims(space, isl_dim_param, 1);
			space = isl_space_set_dim_name(space, isl_dim_param, k, V->v[i].name);
		}
	cond = isl_set_align_params(cond, space);
	pos = kept ? isl_set_find_dim_by_name(cond, isl_dim_param, kept) : -1;
	free(kept);
	struct quotient q = {V, coef, c0, d, V->v[pvar].name, pos, NULL, 0};
	isl_set *result = cond ? isl_set_empty(isl_set_get_space(cond)) : NULL;
	isl_basic_set_list *list = cond ? isl_set_get_basic_set_list(cond) : NULL;
	isl_size nb = list ? isl_basic_set_list_n_basic_set(list) : -1;
	for (int b = 0; b < nb && !q.error && pos >= 0; b++) {
		isl_basic_set *bset = isl_basic_set_list_get_basic_set(list, b);
		q.out = isl_basic_set_universe(isl_basic_set_get_space(bset));
		if (isl_basic_set_foreach_constraint(bset, &quotient_constraint, &q) < 0)
			q.error = 1;
		isl_basic_set_free(bset);
		result = isl_set_union(result, isl_set_from_basic_set(q.out));
		q.out = NULL;
	}
	isl_basic_set_list_free(list);
	isl_set_free(cond);
	if (q.error || nb < 0 || pos < 0 || !result) {
		*error = 1;
		cond = isl_set_free(result);
		goto done;
	}
	cond = isl_set_project_out(result, isl_dim_param, pos, 1);
	cond = coalesce_set(cond);
	if (!cond)
		*error = 1;
done:
	free(den);
	_fmpz_vec_clear(coef, V->cap + 1);
	fmpz_clear(c0);
	fmpz_clear(d);
	return cond;
}

static __isl_give isl_set *subst_cond(__isl_take isl_set *cond, const char *name,
	const struct fvars *V, const struct fnode *r, int *error)
{
	static const char fresh[] = "__bspcost_subst";
	int pos;
	isl_bool involved;
	isl_space *space;
	isl_constraint *c;
	isl_ctx *ctx;
	fmpz *coef;
	fmpz_t c0, d;
	slong i;

	if (!cond)
		return NULL;
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, name);
	if (pos < 0)
		return cond;
	involved = isl_set_involves_dims(cond, isl_dim_param, pos, 1);
	if (involved < 0 || !involved) {
		if (involved < 0)
			*error = 1;
		return isl_set_project_out(cond, isl_dim_param, pos, 1);
	}
	ctx = isl_set_get_ctx(cond);
	coef = _fmpz_vec_init(V->cap + 1);
	fmpz_init(c0);
	fmpz_init(d);
	if (poly_affine(V, r, coef, c0, d) < 0) {
		/* R = A/P with A affine: each constraint a*name + c >= 0 (c a
		 * constant) becomes a*A + c*P >= 0, P being positive. */
		cond = subst_cond_quotient(cond, pos, V, r, error);
		goto done;
	}
	cond = isl_set_set_dim_name(cond, isl_dim_param, pos, fresh);
	space = isl_set_get_space(cond);
	for (i = 0; i < V->n; i++)
		if (V->v[i].name && !fmpz_is_zero(coef + i) &&
		    isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name) < 0) {
			isl_size k = isl_space_dim(space, isl_dim_param);
			space = isl_space_add_dims(space, isl_dim_param, 1);
			space = isl_space_set_dim_name(space, isl_dim_param, k,
				V->v[i].name);
		}
	cond = isl_set_align_params(cond, isl_space_copy(space));
	c = isl_constraint_alloc_equality(isl_local_space_from_space(space));
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, fresh);
	c = isl_constraint_set_coefficient_val(c, isl_dim_param, pos,
		val_from_fmpz(ctx, d, 0));
	for (i = 0; i < V->n; i++) {
		int p;
		if (!V->v[i].name || fmpz_is_zero(coef + i))
			continue;
		p = isl_set_find_dim_by_name(cond, isl_dim_param, V->v[i].name);
		c = isl_constraint_set_coefficient_val(c, isl_dim_param, p,
			val_from_fmpz(ctx, coef + i, 1));
	}
	c = isl_constraint_set_constant_val(c, val_from_fmpz(ctx, c0, 1));
	cond = isl_set_add_constraint(cond, c);
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, fresh);
	cond = isl_set_project_out(cond, isl_dim_param, pos, 1);
	cond = coalesce_set(cond);
	if (!cond)
		*error = 1;
done:
	_fmpz_vec_clear(coef, V->cap + 1);
	fmpz_clear(c0);
	fmpz_clear(d);
	return cond;
}

/* A formula of no pieces over T, holding a reference of its own to T
 * (fml_push_piece grows it); NULL when out of memory. */
static struct formula *empty_on(struct fvars *T)
{
	T->refs++;
	struct formula *res = fml_formula_alloc(T, 0);
	if (!res)
		return NULL;
	free(res->p);
	res->p = NULL;
	return res;
}

struct formula *formula_subst(const struct formula *f, const char *name,
	const struct formula *r)
{
	struct fvars *T;
	struct fnode **vr = NULL, **vf = NULL;
	struct fplist lr;
	struct formula *res = NULL;
	slong p;
	int j, k, size = 0, ok = 0;

	if (!f || !name || !r)
		return NULL;
	p = fml_vars_find(f->vars, name);
	memset(&lr, 0, sizeof(lr));
	T = fml_vars_new(r->vars->n + f->vars->n * (r->n + 1));
	if (!T)
		return NULL;
	vr = calloc(r->vars->n + 1, sizeof(*vr));
	if (!vr || fml_vars_import(T, r->vars, vr) < 0 || fml_plist_make(&lr, r, T, vr) < 0)
		goto done;
	res = empty_on(T);
	if (!res)
		goto done;
	for (k = 0; k < lr.n; k++) {
		vf = calloc(f->vars->n + 1, sizeof(*vf));
		if (!vf)
			goto done;
		/* a copy that failed would leave NAME to be imported as itself */
		if (p >= 0 && !(vf[p] = fml_node_copy(T, lr.val[k])))
			goto done;
		if (fml_vars_import(T, f->vars, vf) < 0)
			goto done;
		for (j = 0; j < f->n; j++) {
			int error = 0;
			isl_set *c = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
			isl_set *m;
			c = subst_cond(c, name, T, lr.val[k], &error);
			if (error) {
				isl_set_free(c);
				goto done;
			}
			m = fml_cond_meet(c, lr.cond[k]);
			isl_set_free(c);
			if (fml_push_piece(res, &size, m,
				fml_translate(f->vars, f->p[j].val, T, vf)) < 0)
				goto done;
		}
		fml_vmap_free(T, vf, f->vars->n);
		vf = NULL;
	}
	res->outside = f->outside == FORMULA_ZERO_OUTSIDE &&
		(r->outside == FORMULA_ZERO_OUTSIDE || (r->n == 1 && !r->p[0].cond)) ?
		FORMULA_ZERO_OUTSIDE : FORMULA_UNDEFINED_OUTSIDE;
	ok = 1;
done:
	fml_vmap_free(T, vf, f->vars->n);
	fml_vmap_free(T, vr, r->vars->n);
	fml_plist_free(T, &lr);
	fml_vars_unref(T);
	if (!ok) {
		formula_free(res);
		return NULL;
	}
	return res;
}

int fml_cond_within(__isl_keep isl_set *cond, __isl_keep isl_set *where)
{
	if (!cond)
		return 0;
	/* a parameter WHERE constrains and COND does not: COND leaves it
	 * free, so it is not within (cheap, and most pieces) */
	int more = fml_names_more(where, cond);
	if (more != 0)
		return more < 0 ? -1 : 0;
	isl_set *c = isl_set_align_params(isl_set_copy(cond), isl_set_get_space(where));
	isl_set *w = isl_set_align_params(isl_set_copy(where), isl_set_get_space(c));
	isl_bool sub = isl_set_is_subset(c, w);
	isl_set_free(c);
	isl_set_free(w);
	return sub < 0 ? -1 : sub == isl_bool_true;
}

struct formula *formula_subst_where(const struct formula *f, const char *name,
	const struct formula *r, __isl_keep isl_set *where)
{
	struct fvars *T;
	struct fnode **vr = NULL, **vs = NULL, **vi = NULL;
	struct formula *res = NULL;
	int size = 0, ok = 0;

	if (!f || !name || !r || !where || r->n != 1 || r->p[0].cond)
		return NULL;
	slong p = fml_vars_find(f->vars, name);
	if (p < 0)
		return formula_copy(f);
	T = fml_vars_new(r->vars->n + 2 * f->vars->n + 1);
	if (!T)
		return NULL;
	vr = calloc(r->vars->n + 1, sizeof(*vr));
	vs = calloc(f->vars->n + 1, sizeof(*vs));
	vi = calloc(f->vars->n + 1, sizeof(*vi));
	if (!vr || !vs || !vi || fml_vars_import(T, r->vars, vr) < 0)
		goto done;
	vs[p] = fml_translate(r->vars, r->p[0].val, T, vr);
	if (!vs[p])
		goto done;
	/* R affine with integer coefficients: conditions can take it */
	fmpz *coef = _fmpz_vec_init(T->cap + 1);
	fmpz_t c0, d;
	fmpz_init(c0);
	fmpz_init(d);
	int affine = poly_affine(T, vs[p], coef, c0, d) >= 0 && fmpz_is_one(d);
	/* ... unless NAME is what WHERE decides by: the identity holds where
	 * the condition says so, which must go on saying it */
	int wpos = isl_set_find_dim_by_name(where, isl_dim_param, name);
	if (wpos >= 0 && isl_set_involves_dims(where, isl_dim_param, (unsigned)wpos, 1) != isl_bool_false)
		affine = 0;
	_fmpz_vec_clear(coef, T->cap + 1);
	fmpz_clear(c0);
	fmpz_clear(d);
	if (fml_vars_import(T, f->vars, vs) < 0 || fml_vars_import(T, f->vars, vi) < 0)
		goto done;
	res = empty_on(T);
	if (!res)
		goto done;
	for (int j = 0; j < f->n; j++) {
		int in = fml_cond_within(f->p[j].cond, where);
		if (in < 0)
			goto done;
		isl_set *c = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
		if (in && affine) {
			/* the condition too, where it can say it: an identity
			 * on the piece leaves its points there as they are */
			int error = 0;
			isl_set *sc = subst_cond(isl_set_copy(c), name, T, vs[p], &error);
			if (!error) {
				isl_set_free(c);
				c = sc;
			} else {
				isl_set_free(sc);
			}
		}
		if (fml_push_piece(res, &size, c,
				   fml_translate(f->vars, f->p[j].val, T, in ? vs : vi)) < 0)
			goto done;
	}
	res->outside = f->outside;
	ok = 1;
done:
	fml_vmap_free(T, vr, r->vars->n);
	fml_vmap_free(T, vs, f->vars->n);
	fml_vmap_free(T, vi, f->vars->n);
	fml_vars_unref(T);
	if (!ok) {
		formula_free(res);
		return NULL;
	}
	return res;
}

/* The largest denominator of a floor's argument formula_fold_residues
 * checks residues for (one subset test per residue). */
enum { FOLD_MAX_DEN = 64 };

/* The residue r of floor atom A's argument's numerator modulo its
 * denominator d (into R and D) that COND implies: 1, 0 when none (or the
 * argument is not affine in COND's parameters), -1 on failure. */
static int atom_residue(const struct fvars *V, const struct fvar *a, __isl_keep isl_set *cond,
	fmpz_t r, fmpz_t d)
{
	const struct fnode *x = a->arg;
	if (!x || x->kind != FK_POLY || fmpq_mpoly_total_degree_si(x->num, V->ctx) > 1)
		return 0;
	isl_space *space = isl_set_get_space(cond);
	for (slong i = 0; i < V->n; i++) {
		if (x->den && x->den[i] != 0) {
			isl_space_free(space);
			return 0;
		}
		if (fmpq_mpoly_degree_si(x->num, i, V->ctx) <= 0)
			continue;
		if (!V->v[i].name ||
		    isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name) < 0) {
			isl_space_free(space);
			return 0; /* an atom, or a parameter COND leaves free */
		}
	}
	isl_aff *aff = fml_mpoly_aff(V, x->num, space);
	isl_space_free(space);
	if (!aff)
		return -1;
	isl_val *den = isl_aff_get_denominator_val(aff);
	long dd = den && isl_val_is_int(den) ? isl_val_get_num_si(den) : 0;
	if (dd < 2 || dd > FOLD_MAX_DEN) {
		isl_val_free(den);
		isl_aff_free(aff);
		return dd < 1 ? -1 : 0;
	}
	isl_aff *num = isl_aff_scale_val(aff, isl_val_copy(den));
	int found = 0;
	for (long k = 0; k < dd && !found; k++) {
		isl_aff *m = isl_aff_mod_val(isl_aff_copy(num), isl_val_copy(den));
		isl_aff *c = isl_aff_val_on_domain(isl_aff_get_domain_local_space(m),
						   isl_val_int_from_si(isl_set_get_ctx(cond), k));
		isl_set *at = isl_aff_eq_set(m, c);
		isl_bool sub = isl_set_is_subset(cond, at);
		isl_set_free(at);
		if (sub < 0) {
			found = -1;
			break;
		}
		if (sub) {
			fmpz_set_si(r, k);
			fmpz_set_si(d, dd);
			found = 1;
		}
	}
	isl_aff_free(num);
	isl_val_free(den);
	return found;
}

/* The most checks (a piece's condition against an atom's residues)
 * formula_fold_residues makes before it leaves a formula as it is. */
enum { FOLD_MAX_CHECKS = 4096 };

static struct formula *fold_residues(const struct formula *f);

struct formula *formula_fold_residues(const struct formula *f)
{
	if (!f)
		return NULL;
	/* a rewriting for people, of the same values: where it cannot be made
	 * (too many pieces and floors to check, its ring full, ISL's budget),
	 * the formula as it is */
	long atoms = 0;
	for (slong i = 0; i < f->vars->n; i++)
		atoms += !f->vars->v[i].name;
	if (atoms == 0 || atoms * f->n > FOLD_MAX_CHECKS)
		return formula_copy(f);
	struct formula *r = fold_residues(f);
	if (r)
		return r;
	isl_ctx *ctx = formula_get_ctx(f);
	if (ctx)
		isl_ctx_reset_error(ctx);
	return formula_copy(f);
}

static struct formula *fold_residues(const struct formula *f)
{
	const struct fvars *V = f->vars;
	/* most formulas have no floor, or no piece that fixes one: a copy */
	{
		int any = 0;
		fmpz_t r0, d0;
		fmpz_init(r0);
		fmpz_init(d0);
		for (int j = 0; j < f->n && !any; j++)
			for (slong i = 0; f->p[j].cond && i < V->n && !any; i++)
				if (!V->v[i].name)
					any = atom_residue(V, &V->v[i], f->p[j].cond, r0, d0);
		fmpz_clear(r0);
		fmpz_clear(d0);
		if (any == 0)
			return formula_copy(f);
		if (any < 0)
			return NULL;
	}
	/* room for V's variables twice: an atom whose argument names a
	 * folded one is made again, at most once per piece (the import
	 * merges equal ones); a ring that fills up fails, and the formula
	 * stays as it is */
	struct fvars *T = fml_vars_new(2 * V->n + 8);
	struct fnode **vf = NULL, **vid = NULL;
	struct formula *res = NULL;
	int size = 0, ok = 0;
	fmpz_t r, d;
	fmpq_t q;
	fmpz_init(r);
	fmpz_init(d);
	fmpq_init(q);
	if (!T)
		goto done;
	res = empty_on(T);
	if (!res)
		goto done;
	for (int j = 0; j < f->n; j++) {
		isl_set *cond = f->p[j].cond;
		vf = calloc(V->n + 1, sizeof(*vf));
		if (!vf)
			goto done;
		for (slong i = 0; cond && i < V->n; i++) {
			if (V->v[i].name)
				continue;
			int st = atom_residue(V, &V->v[i], cond, r, d);
			if (st < 0)
				goto done;
			if (st == 0)
				continue;
			/* floor(a) = a - r/d: a's own translation, less r/d */
			if (!vid) {
				vid = calloc(V->n + 1, sizeof(*vid));
				if (!vid || fml_vars_import(T, V, vid) < 0)
					goto done;
			}
			struct fnode *arg = fml_translate(V, V->v[i].arg, T, vid);
			fmpq_set_fmpz_frac(q, r, d);
			fmpq_neg(q, q);
			struct fnode *c = fml_poly_fmpq(T, q);
			vf[i] = arg && c ? fml_add_take(T, arg, c) : NULL;
			if (!vf[i]) {
				if (!arg || !c) {
					fml_node_free(T, arg);
					fml_node_free(T, c);
				}
				goto done;
			}
		}
		if (fml_vars_import(T, V, vf) < 0)
			goto done;
		if (fml_push_piece(res, &size, cond ? isl_set_copy(cond) : NULL,
				   fml_translate(V, f->p[j].val, T, vf)) < 0)
			goto done;
		fml_vmap_free(T, vf, V->n);
		vf = NULL;
	}
	res->outside = f->outside;
	res->typical = f->typical;
	ok = 1;
done:
	fml_vmap_free(T, vf, V->n);
	fml_vmap_free(T, vid, V->n);
	if (T)
		fml_vars_unref(T);
	fmpz_clear(r);
	fmpz_clear(d);
	fmpq_clear(q);
	if (!ok) {
		formula_free(res);
		return NULL;
	}
	return res;
}
