/* Identities between the symbolic grid's digits (digits.h). */
#include "analyzer/cost/digits.h"

#include "analyzer/cost/cost_internal.h"

#include <stdbool.h>
#include <stdlib.h>

#include <gmp.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

/* The carries (and differences of lower digits) tried: a piece's condition
 * that fixes one fixes it to one of these in every specification met so
 * far (a panel within one block, or across two). */
enum { CARRY_MIN = -1, CARRY_MAX = 1 };

/* The number of digits of the group whose first digit is local L. */
static int group_size(const struct symbolic_info *info, int l)
{
	int n = 1;
	while (l + n < info->nlocals && info->locals[l + n].digit == n)
		n++;
	return n;
}

/* A as a formula of the sizes and axes; NULL when it names a variable. */
static struct formula *aff_formula(const struct model *m, const struct model_aff *a)
{
	for (int t = 0; t < a->nterms; t++)
		if (a->terms[t].kind == MODEL_VAR || a->terms[t].by)
			return NULL;
	return cost_aff_formula(m, a, NULL);
}

/* The size of digit P of INFO as a formula (a block length X/(b*P) written
 * out); NULL when it has none. */
static struct formula *digit_size(const struct model *m, const struct symbolic_info *info,
				  const struct local_param *p)
{
	if (p->size_axis >= 0)
		return formula_param(m->axes[p->size_axis]);
	if (p->size_param >= 0)
		return formula_param(m->params[p->size_param]);
	if (p->size_local < 0)
		return formula_const_si(p->size_const);
	const struct local_param *bl = &info->locals[p->size_local];
	/* X over P, or over nb*P for cyclic(nb) */
	struct formula *div = formula_param(m->axes[bl->axis]);
	if (bl->block_param >= 0) {
		struct formula *nb = formula_param(m->params[bl->block_param]);
		struct formula *both = formula_mul(div, nb);
		formula_free(div);
		formula_free(nb);
		div = both;
	}
	struct formula *x = aff_formula(m, &bl->extent_aff);
	struct formula *inv = formula_pow(div, -1);
	struct formula *q = formula_mul(x, inv);
	formula_free(x);
	formula_free(div);
	formula_free(inv);
	if (bl->block_param >= 0 || bl->block == 1)
		return q;
	mpq_t r;
	mpq_init(r);
	mpq_set_si(r, 1, (unsigned long)bl->block);
	struct formula *s = formula_scale(q, r);
	mpq_clear(r);
	formula_free(q);
	return s;
}

/* The parameter set where B - A == C, A and B named parameters. */
static __isl_give isl_set *difference_set(isl_ctx *ctx, const char *a, const char *b, long c)
{
	isl_space *space = isl_space_params_alloc(ctx, 2);
	space = isl_space_set_dim_id(space, isl_dim_param, 0, isl_id_alloc(ctx, a, NULL));
	space = isl_space_set_dim_id(space, isl_dim_param, 1, isl_id_alloc(ctx, b, NULL));
	isl_local_space *ls = isl_local_space_from_space(isl_space_copy(space));
	isl_constraint *k = isl_constraint_alloc_equality(ls);
	k = isl_constraint_set_coefficient_si(k, isl_dim_param, 0, -1);
	k = isl_constraint_set_coefficient_si(k, isl_dim_param, 1, 1);
	k = isl_constraint_set_constant_si(k, (int)-c);
	return isl_set_add_constraint(isl_set_universe(space), k);
}

/* A + B*SCALE (A, B kept). */
static struct formula *plus_times(const struct formula *a, const struct formula *b, long scale)
{
	struct formula *c = formula_const_si(scale);
	struct formula *t = formula_mul(b, c);
	struct formula *r = formula_add(a, t);
	formula_free(c);
	formula_free(t);
	return r;
}

/* *F with, in the pieces where digit NAME_B of the second group differs
 * from NAME_A of the first by C, NAME_B written as NAME_A + C and digit
 * SUBST as BASE - C*STEP. */
static void relate_pair(isl_ctx *ctx, struct formula **f, const char *name_a, const char *name_b,
			const char *subst, const struct formula *base, const struct formula *step)
{
	struct formula *a = formula_param(name_a);
	for (long c = CARRY_MIN; *f && c <= CARRY_MAX; c++) {
		struct formula *by = plus_times(base, step, -c);
		struct formula *cf = formula_const_si(c);
		struct formula *apart = formula_add(a, cf);
		isl_set *where = difference_set(ctx, name_a, name_b, c);
		struct formula *g = by && apart && where ? formula_subst_where(*f, subst, by, where)
							 : NULL;
		struct formula *h = g ? formula_subst_where(g, name_b, apart, where) : NULL;
		isl_set_free(where);
		formula_free(by);
		formula_free(cf);
		formula_free(apart);
		formula_free(g);
		formula_free(*f);
		*f = h;
	}
	formula_free(a);
}

/* *F with the identities between group A's digits and group B's (two
 * each, of E and E + D under one distribution) written in. */
static void relate_groups(isl_ctx *ctx, struct formula **f, const struct model *m,
			  const struct symbolic_info *info, int a, int b)
{
	const struct local_param *hi_a = &info->locals[a], *lo_a = &info->locals[a + 1];
	const struct local_param *hi_b = &info->locals[b], *lo_b = &info->locals[b + 1];
	struct formula *ea = aff_formula(m, &hi_a->of), *eb = aff_formula(m, &hi_b->of);
	struct formula *d = formula_sub(eb, ea);          /* D */
	struct formula *w = digit_size(m, info, lo_a);    /* the upper digit's weight */
	struct formula *lo = formula_param(lo_a->name), *hi = formula_param(hi_a->name);
	formula_free(ea);
	formula_free(eb);
	/* upper digits apart by C: lo_b = lo_a + D - C*W */
	struct formula *base = formula_add(lo, d);
	if (base && w)
		relate_pair(ctx, f, hi_a->name, hi_b->name, lo_b->name, base, w);
	else {
		formula_free(*f);
		*f = NULL;
	}
	formula_free(base);
	/* lower digits apart by C: hi_b = hi_a + (D - C)/W, where 1/W is a
	 * formula (W a monomial: o/N, N, a constant) */
	struct formula *inv = *f && w ? formula_pow(w, -1) : NULL;
	if (inv) {
		struct formula *dw = formula_mul(d, inv);
		base = formula_add(hi, dw);
		formula_free(dw);
		if (base)
			relate_pair(ctx, f, lo_a->name, lo_b->name, hi_b->name, base, inv);
		else {
			formula_free(*f);
			*f = NULL;
		}
		formula_free(base);
	}
	formula_free(inv);
	formula_free(d);
	formula_free(w);
	formula_free(lo);
	formula_free(hi);
}

/* Whether groups A and B (first locals) are digits under one distribution. */
static bool same_split(const struct symbolic_info *info, int a, int b)
{
	const struct local_param *pa = &info->locals[a], *pb = &info->locals[b];
	return pa->kind == pb->kind && pa->block == pb->block &&
	       pa->block_param == pb->block_param && pa->axis == pb->axis &&
	       model_aff_equal(&pa->extent_aff, &pb->extent_aff);
}

struct formula *digits_relate(const struct formula *f, const struct model *m,
			      const struct symbolic_info *info, __isl_keep isl_set *context)
{
	isl_ctx *ctx = isl_set_get_ctx(context);
	struct formula *r = formula_copy(f);
	bool related = false;
	for (int b = 0; r && info && b < info->nlocals; b++) {
		if (info->locals[b].digit != 0 || group_size(info, b) != 2 ||
		    (formula_involves(r, info->locals[b].name) == 0 &&
		     formula_involves(r, info->locals[b + 1].name) == 0))
			continue;
		/* B's digits in terms of the first group of its split */
		for (int a = 0; r && a < b; a++)
			if (info->locals[a].digit == 0 && group_size(info, a) == 2 &&
			    same_split(info, a, b)) {
				relate_groups(ctx, &r, m, info, a, b);
				related = true;
				break;
			}
	}
	if (!related || !r)
		return r;
	/* what the identities make comparable: max(b*m*(N-1)/M, b*m/M) */
	struct formula *d = formula_drop_bounded(r, context);
	formula_free(r);
	/* conditions the identities rewrote (e2_Ni >= kk_Ni: b >= 1) without
	 * what CONTEXT implies, and no new name in them */
	struct formula *p = formula_prune(d, context);
	formula_free(d);
	return p;
}
