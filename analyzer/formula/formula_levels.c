/* Sums over the levels of a doubling loop (formula.h, formula_sum_powers). */
#include <stdlib.h>

#include <isl/id.h>
#include <isl/set.h>
#include <isl/space.h>

#include "analyzer/formula/formula_internal.h"

/* Whether variable I of V occurs in X, atoms' arguments included; -1 when
 * out of memory. */
static int node_uses(const struct fvars *V, const struct fnode *x, slong i)
{
	char *used = calloc((size_t)V->cap + 1, 1);
	if (!used)
		return -1;
	fml_node_used(V, x, used);
	int r = used[i] != 0;
	free(used);
	return r;
}

/* Whether a floor atom X uses involves variable I. */
static int atom_uses(const struct fvars *V, const struct fnode *x, slong i)
{
	char *used = calloc((size_t)V->cap + 1, 1);
	if (!used)
		return -1;
	fml_node_used(V, x, used);
	int r = 0;
	for (slong k = 0; k < V->n && r == 0; k++)
		if (used[k] && V->v[k].arg)
			r = node_uses(V, V->v[k].arg, i);
	free(used);
	return r;
}

/* sum_{k = 1}^{K - 2} (2^k)^E: K - 2 for E = 0, else (TOP^E - 2^E)/(2^E - 1),
 * TOP = 2^(K - 1). */
static struct formula *power_sum(long e, const char *kname, const struct formula *top)
{
	if (e == 0) {
		struct formula *k = formula_param(kname), *two = formula_const_si(2);
		struct formula *r = formula_sub(k, two);
		formula_free(k);
		formula_free(two);
		return r;
	}
	mpq_t p, d;
	mpq_inits(p, d, NULL);
	mpq_set_ui(p, 1, 1);
	for (long i = 0; i < (e > 0 ? e : -e); i++)
		mpq_mul_2exp(p, p, 1);
	if (e < 0)
		mpq_inv(p, p);
	mpq_set_ui(d, 1, 1);
	mpq_sub(d, p, d);      /* 2^E - 1 */
	mpq_inv(d, d);
	struct formula *tp = formula_pow(top, e);
	struct formula *pe = formula_const_mpq(p);
	struct formula *num = formula_sub(tp, pe);
	struct formula *r = formula_scale(num, d);
	formula_free(tp);
	formula_free(pe);
	formula_free(num);
	mpq_clears(p, d, NULL);
	return r;
}

/* The formula of one piece: VAL (taken) where COND (kept) holds. */
static struct formula *piece_formula(struct fvars *V, __isl_keep isl_set *cond, struct fnode *val)
{
	V->refs++;
	struct formula *g = fml_formula_alloc(V, 1);
	int size = 1;
	if (!g) {
		fml_node_free(V, val);
		return NULL;
	}
	if (fml_push_piece(g, &size, cond ? isl_set_copy(cond) : NULL, val) < 0) {
		formula_free(g);
		return NULL;
	}
	return g;
}

/* ACC + A*B, ACC taken (NULL: 0), A and B kept. */
static struct formula *add_product(struct formula *acc, const struct formula *a,
				   const struct formula *b)
{
	struct formula *t = formula_mul(a, b);
	if (!t) {
		formula_free(acc);
		return NULL;
	}
	if (!acc)
		return t;
	struct formula *r = formula_add(acc, t);
	formula_free(acc);
	formula_free(t);
	return r;
}

/* Piece J of F summed: its value split by the power of variable P. */
static struct formula *sum_piece(const struct formula *f, int j, slong p, const char *kname,
				 const struct formula *top)
{
	struct fvars *V = f->vars;
	const struct fnode *val = f->p[j].val;
	isl_set *cond = f->p[j].cond;
	int uses = p >= 0 ? node_uses(V, val, p) : 0;
	if (uses < 0)
		return NULL;
	if (!uses) {
		struct formula *g = piece_formula(V, cond, fml_node_copy(V, val));
		struct formula *k = power_sum(0, kname, top);
		struct formula *r = g && k ? formula_mul(g, k) : NULL;
		formula_free(g);
		formula_free(k);
		return r;
	}
	if (val->kind != FK_POLY || atom_uses(V, val, p) != 0)
		return NULL;
	slong deg = fmpq_mpoly_degree_si(val->num, p, V->ctx);
	struct formula *acc = NULL;
	for (slong ex = 0; ex <= deg; ex++) {
		struct fnode *c = fml_node_alloc(V, FK_POLY);
		if (!c) {
			formula_free(acc);
			return NULL;
		}
		ulong uex = (ulong)ex;
		fmpq_mpoly_get_coeff_vars_ui(c->num, val->num, &p, &uex, 1, V->ctx);
		if (fmpq_mpoly_is_zero(c->num, V->ctx)) {
			fml_node_free(V, c);
			continue;
		}
		for (slong i = 0; i < V->n; i++)
			c->den[i] = i == p ? 0 : val->den[i];
		long e = (long)(ex - val->den[p]);
		if (e > FORMULA_SUM_POWERS_MAX || e < -FORMULA_SUM_POWERS_MAX || fml_poly_normalize(V, c) < 0) {
			fml_node_free(V, c);
			formula_free(acc);
			return NULL;
		}
		struct formula *cf = piece_formula(V, cond, c);
		struct formula *s = power_sum(e, kname, top);
		if (cf && s) {
			acc = add_product(acc, cf, s);
		} else {
			formula_free(acc);
			acc = NULL;
		}
		formula_free(cf);
		formula_free(s);
		if (!acc)
			return NULL;
	}
	if (!acc) /* the value was 0 */
		acc = piece_formula(V, cond, fml_poly_zero(V));
	return acc;
}

/* Whether the condition COND involves the parameter NAME. */
static int cond_involves(__isl_keep isl_set *cond, const char *name)
{
	if (!cond)
		return 0;
	int pos = isl_set_find_dim_by_name(cond, isl_dim_param, name);
	if (pos < 0)
		return 0;
	isl_bool in = isl_set_involves_dims(cond, isl_dim_param, (unsigned)pos, 1);
	return in < 0 ? -1 : in == isl_bool_true;
}

struct formula *formula_sum_powers(const struct formula *f, const char *name, const char *kname,
				   const struct formula *top)
{
	if (!f || !name || !kname || !top)
		return NULL;
	slong p = fml_vars_find(f->vars, name);
	struct formula *res = NULL;
	for (int j = 0; j < f->n; j++) {
		if (cond_involves(f->p[j].cond, name) != 0) {
			formula_free(res);
			return NULL;
		}
		struct formula *s = sum_piece(f, j, p, kname, top);
		if (!s) {
			formula_free(res);
			return NULL;
		}
		if (!res) {
			res = s;
			continue;
		}
		struct formula *r = formula_join(res, s);
		formula_free(res);
		formula_free(s);
		if (!(res = r))
			return NULL;
	}
	if (!res) { /* no piece */
		res = formula_const_si(0);
		if (res && f->outside != FORMULA_ZERO_OUTSIDE) {
			/* undefined everywhere: nothing to sum, and nothing known */
			formula_free(res);
			return NULL;
		}
		return res;
	}
	formula_set_outside(res, f->outside);
	return res;
}

/* Whether COND (NULL: everywhere) lies within NAME == C; -1 on failure. */
static int fixes(__isl_keep isl_set *cond, const char *name, long c)
{
	if (!cond)
		return 0;
	isl_ctx *ctx = isl_set_get_ctx(cond);
	isl_space *sp = isl_space_params_alloc(ctx, 1);
	sp = isl_space_set_dim_id(sp, isl_dim_param, 0, isl_id_alloc(ctx, name, NULL));
	isl_set *at = isl_set_fix_si(isl_set_universe(sp), isl_dim_param, 0, (int)c);
	int r = at ? fml_cond_within(cond, at) : -1;
	isl_set_free(at);
	return r;
}

/* V (kept) at B = C and K = LOG, on COND (kept); NULL on failure. */
static struct formula *at_bound(const struct formula *v, const char *bname, const char *kname,
				long c, long log, __isl_keep isl_set *cond)
{
	struct formula *bc = formula_const_si(c), *kc = formula_const_si(log);
	struct formula *sb = formula_subst(v, bname, bc);
	struct formula *sk = formula_subst(sb, kname, kc);
	struct formula *on = sk && cond ? formula_restrict(sk, isl_set_copy(cond)) : NULL;
	struct formula *all[] = {bc, kc, sb, sk};
	for (size_t k = 0; k < sizeof(all) / sizeof(*all); k++)
		formula_free(all[k]);
	return on;
}

/* Whether piece J's value is piece I's on I's condition, where B = C and
 * so K = LOG (formula_equal's proof: 1). */
static int same_there(const struct formula *f, int i, int j, const char *bname,
		      const char *kname, long c, long log)
{
	struct fvars *V = f->vars;
	struct formula *vj = piece_formula(V, NULL, fml_node_copy(V, f->p[j].val));
	struct formula *vi = piece_formula(V, NULL, fml_node_copy(V, f->p[i].val));
	struct formula *aj = at_bound(vj, bname, kname, c, log, f->p[i].cond);
	struct formula *ai = at_bound(vi, bname, kname, c, log, f->p[i].cond);
	int r = aj && ai ? formula_equal(aj, ai) : -1;
	struct formula *all[] = {vj, vi, aj, ai};
	for (size_t k = 0; k < sizeof(all) / sizeof(*all); k++)
		formula_free(all[k]);
	return r;
}

struct formula *formula_merge_levels(const struct formula *f, const char *bname, const char *kname)
{
	if (!f || !bname || !kname)
		return NULL;
	int *into = malloc(sizeof(*into) * (size_t)(f->n + 1));
	if (!into)
		return NULL;
	for (int i = 0; i < f->n; i++)
		into[i] = i;
	/* a piece of B == 1 or 2 whose value another piece's gives there */
	for (int i = 0; i < f->n; i++)
		for (long c = 1, log = 0; c <= 2 && into[i] == i; c *= 2, log++) {
			int at = fixes(f->p[i].cond, bname, c);
			for (int j = 0; at == 1 && j < f->n && into[i] == i; j++)
				if (j != i && into[j] == j && same_there(f, i, j, bname, kname, c, log) == 1)
					into[i] = j;
		}
	f->vars->refs++;
	struct formula *r = fml_formula_alloc(f->vars, f->n);
	int size = f->n;
	for (int j = 0; r && j < f->n; j++) {
		if (into[j] != j)
			continue;
		isl_set *cond = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
		for (int i = 0; cond && i < f->n; i++)
			if (i != j && into[i] == j)
				cond = isl_set_coalesce(isl_set_union(cond, isl_set_copy(f->p[i].cond)));
		if (fml_push_piece(r, &size, cond, fml_node_copy(f->vars, f->p[j].val)) < 0) {
			formula_free(r);
			r = NULL;
		}
	}
	free(into);
	if (r)
		r->outside = f->outside;
	return r;
}
