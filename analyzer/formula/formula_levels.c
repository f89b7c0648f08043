/* Sums over the levels of a doubling loop (formula.h, formula_sum_powers). */
#include <stdlib.h>

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
