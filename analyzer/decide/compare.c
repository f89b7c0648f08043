/* Where one candidate costs less than another: see compare.h. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/decide/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include "analyzer/model/relations.h"

static const enum formula_style styles[COMPARE_STYLES] = {
	FORMULA_TEXT, FORMULA_EXPR, FORMULA_LATEX,
};

static const char *const term_name[TERM_N] = {"w", "h", "h_in", "h_out", "NCom"};

/* The costs' coefficients but l, to collect the bound by. */
static int coefs_but_l(const struct cost_model *cm, const char *out[4])
{
	int n = 0;
	for (int i = 0; i < cm->ncoefs; i++)
		if (strcmp(cm->coef_names[i], "l") != 0)
			out[n++] = cm->coef_names[i];
	return n;
}

/* M's valid set in CTX (NULL: none), on a concrete grid GRID (NULL: the
 * symbolic one) with the axes at their sizes (n >= 2*M is n >= 4). */
static __isl_give isl_set *valid_set(isl_ctx *ctx, const struct model *m, const long *grid)
{
	isl_set *valid = ctx && m ? model_valid_set(ctx, m) : NULL;
	for (int a = 0; grid && valid && a < m->naxes; a++)
		valid = isl_set_fix_si(valid, isl_dim_param, (unsigned)(m->nparams + a),
				       (int)grid[a]);
	return valid;
}

/* D's pieces written by their signs where those are shown under the
 * specification's assumptions (M's valid set) and the coefficients >= 0
 * (formula_sign_fold): g*(2*P - 2*n)/P < 0 where n >= 2*P is g > 0.  The
 * conditions must share D's isl_ctx; D without conditions takes one of its
 * own, *OWN, which the caller frees after the result.  NULL when nothing
 * could be formed (D's own conditions then serve). */
static struct formula *by_signs(const struct formula *d, const struct model *m,
				const long *grid, const struct cost_model *cm, isl_ctx **own)
{
	isl_ctx *ctx = formula_get_ctx(d);
	*own = ctx || !m ? NULL : isl_ctx_alloc();
	if (*own)
		isl_options_set_on_error(*own, ISL_ON_ERROR_CONTINUE); /* as a session's */
	isl_set *valid = valid_set(ctx ? ctx : *own, m, grid);
	struct formula *f = formula_sign_fold(d, valid, cm->coef_names, cm->ncoefs);
	isl_set_free(valid);
	return f;
}

/* The conditions of D's sign, solved for l when D = X + c*l with c a
 * non-zero constant. */
static int conditions(struct comparison *out, const struct model *m, const long *grid,
		      const struct cost_model *cm, long nsteps_diff)
{
	const char *by[4];
	int nby = coefs_but_l(cm, by);
	struct formula *bound = NULL;
	int sign = 0;
	/* Every cost function adds l once per superstep, so D = X + c*l with c
	 * the difference of the numbers of supersteps: solved for l when that
	 * is not 0 (X = D at l = 0). */
	if (nsteps_diff != 0 && formula_involves(out->diff, "l") == 1) {
		struct formula *zero = formula_const_si(0);
		struct formula *x = formula_subst(out->diff, "l", zero);
		mpq_t k;
		mpq_init(k);
		mpq_set_si(k, nsteps_diff > 0 ? -1 : 1, (unsigned long)labs(nsteps_diff));
		bound = formula_scale(x, k);   /* -X/c */
		sign = nsteps_diff > 0 ? 1 : -1;
		mpq_clear(k);
		formula_free(zero);
		formula_free(x);
		if (!bound)
			return -1;
	}
	/* D < 0, D == 0, D > 0, or the same solved for l */
	static const char *const plain[CMP_N] = {"<", "==", ">"};
	const char *solved[CMP_N] = {sign > 0 ? "<" : ">", "==", sign > 0 ? ">" : "<"};
	isl_ctx *own = NULL;
	struct formula *signs = bound ? NULL : by_signs(out->diff, m, grid, cm, &own);
	const struct formula *d = signs ? signs : out->diff;
	/* the conditions are read under the assumptions (the report's
	 * "where:"): what they give is not written again */
	const struct formula *w = bound ? bound : d;
	isl_set *valid = formula_get_ctx(w) ? valid_set(formula_get_ctx(w), m, grid) : NULL;
	int bad = 0;
	for (int s = 0; s < COMPARE_STYLES && !bad; s++)
		for (int r = 0; r < CMP_N && !bad; r++) {
			out->cond[s][r] = bound
				? formula_sign_text(bound, "l", solved[r], styles[s], by, nby, 1,
						    valid)
				: formula_sign_text(d, NULL, plain[r], styles[s],
						    cm->coef_names, cm->ncoefs, 1, valid);
			bad = !out->cond[s][r];
		}
	isl_set_free(valid);
	out->solved = bound ? "l" : NULL;
	formula_free(bound);
	formula_free(signs);
	if (own)
		isl_ctx_free(own);
	return bad ? -1 : 0;
}

/* The sums over CC's supersteps of each quantity and its cost (CC counted
 * at the values); -1 when one is missing or not priced. */
static int totals(const struct candidate_cost *cc, const struct cost_prices *prices,
		  mpq_t sum[TERM_N], mpq_t cost)
{
	mpq_ptr s[TERM_N];
	for (int t = 0; t < TERM_N; t++)
		s[t] = sum[t];
	enum cost_value_status priced;
	return cc->status == COST_OK &&
	       candidate_cost_totals(cc, prices, s, cost, &priced, NULL) == 0 &&
	       priced == COST_VALUE_OK ? 0 : -1;
}

/* The costs at the values, and their difference term by term. */
static void values(struct comparison *out, const struct candidate_cost *ea,
		   const struct candidate_cost *eb, const struct cost_prices *prices)
{
	mpq_t sa[TERM_N], sb[TERM_N];
	for (int t = 0; t < TERM_N; t++) {
		mpq_init(sa[t]);
		mpq_init(sb[t]);
	}
	out->valued = totals(ea, prices, sa, out->a) == 0 && totals(eb, prices, sb, out->b) == 0;
	const struct cost_model *cm = prices->model;
	if (out->valued) {
		mpq_sub(out->diff_value, out->a, out->b);
		/* a sum w + coef*term + ... + l splits; max(w, ...) does not */
		bool sum = !cm->overlap && prices->has[COEF_L];
		for (int k = 0; sum && k < cm->nterms; k++)
			sum = prices->has[cm->coef[k]];
		if (sum) {
			struct compare_part *p = &out->parts[out->nparts++];
			snprintf(p->name, sizeof(p->name), "w");
			mpq_sub(p->diff, sa[TERM_W], sb[TERM_W]);
			for (int k = 0; k < cm->nterms; k++) {
				p = &out->parts[out->nparts++];
				snprintf(p->name, sizeof(p->name), "%s*%s", term_name[cm->term[k]],
					 cost_coef_name[cm->coef[k]]);
				mpq_sub(p->diff, sa[cm->term[k]], sb[cm->term[k]]);
				mpq_mul(p->diff, p->diff, prices->coef[cm->coef[k]]);
			}
			p = &out->parts[out->nparts++];
			snprintf(p->name, sizeof(p->name), "l");
			mpq_set_si(p->diff, (long)ea->nsteps - (long)eb->nsteps, 1);
			mpq_mul(p->diff, p->diff, prices->coef[COEF_L]);
		}
	}
	for (int t = 0; t < TERM_N; t++) {
		mpq_clear(sa[t]);
		mpq_clear(sb[t]);
	}
}

/* The candidate of A and B with a parameter of its own that the
 * difference could mix up: a block length kept (n__P: the same name in the
 * other's formula may be another length, and two lengths of one size, n__P
 * and n__2P, would be compared as if free of each other), or a doubling
 * loop's number of levels (lg_P = log2(P)) that the other defines
 * otherwise, or names in its cost without defining it; NULL when there is
 * none, each lg_P meaning one thing in both. */
static const struct candidate_cost *foreign_local(const struct candidate_cost *a,
						  const struct candidate_cost *b)
{
	const struct candidate_cost *c[2] = {a, b};
	for (int k = 0; k < 2; k++) {
		const struct candidate_cost *x = c[k], *y = c[1 - k];
		for (int i = 0; i < x->nlocals; i++) {
			if (strncmp(x->local_values[i], "log2(", 5) != 0)
				return x;
			int j = 0;
			while (j < y->nlocals && strcmp(y->local_names[j], x->local_names[i]) != 0)
				j++;
			if (j < y->nlocals ? strcmp(y->local_values[j], x->local_values[i]) != 0
					   : formula_involves(y->cost, x->local_names[i]) != 0)
				return x;
		}
	}
	return NULL;
}

int compare_candidates(const struct candidate_cost *fa, const struct candidate_cost *fb,
		       const struct candidate_cost *ea, const struct candidate_cost *eb,
		       const struct cost_prices *prices, const struct model *m, const long *grid,
		       struct comparison *out)
{
	memset(out, 0, sizeof(*out));
	mpq_init(out->a);
	mpq_init(out->b);
	mpq_init(out->diff_value);
	for (int i = 0; i < 5; i++)
		mpq_init(out->parts[i].diff);
	int r = 0;
	const struct candidate_cost *none = fa->status != COST_OK || !fa->cost ? fa
					  : fb->status != COST_OK || !fb->cost ? fb : NULL;
	const struct candidate_cost *local = !none ? foreign_local(fa, fb) : NULL;
	if (none) {
		if (asprintf(&out->why, "%s has no cost formula (%s)", none->name,
			     none->reason ? none->reason : "no reason given") < 0)
			out->why = NULL;
	} else if (local) {
		if (asprintf(&out->why, "the cost of %s keeps parameters of its own (%s = %s%s) that "
				   "are not written in the sizes; a concrete grid compares them",
			     local->name,
			     local->local_names[0], local->local_values[0],
			     local->nlocals > 1 ? ", ..." : "") < 0)
			out->why = NULL;
	} else {
		out->diff = formula_sub(fa->cost, fb->cost);
		if (!out->diff || conditions(out, m, grid, prices->model, (long)fa->nsteps - (long)fb->nsteps) < 0) {
			free(out->why);
			out->why = strdup(!out->diff && formula_pair_too_large(fa->cost, fb->cost)
					  ? "the difference has more terms than a formula may hold"
					  : "the difference could not be formed (out of memory or ISL failed)");
			for (int s = 0; s < COMPARE_STYLES; s++)
				for (int k = 0; k < CMP_N; k++) {
					free(out->cond[s][k]);
					out->cond[s][k] = NULL;
				}
			formula_free(out->diff);
			out->diff = NULL;
			r = -1;
		}
	}
	if (ea && eb)
		values(out, ea, eb, prices);
	return r;
}

void comparison_clear(struct comparison *c)
{
	formula_free(c->diff);
	free(c->why);
	for (int s = 0; s < COMPARE_STYLES; s++)
		for (int k = 0; k < CMP_N; k++)
			free(c->cond[s][k]);
	mpq_clear(c->a);
	mpq_clear(c->b);
	mpq_clear(c->diff_value);
	for (int i = 0; i < 5; i++)
		mpq_clear(c->parts[i].diff);
	memset(c, 0, sizeof(*c));
}
