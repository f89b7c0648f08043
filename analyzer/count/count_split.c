/* A maximum of several functions as one function: the regions of the
 * parameters where each is the largest, every region proven.
 *
 * A maximum over the processes is often no single quasi-polynomial: on a
 * region of the sizes, two or more functions compete (the rows of the
 * process that owns the pivot against a full block).  A report may print
 * max(a, b); a sum over a loop's iterations cannot sum it.  Here each ISL
 * fold of functions v_1 .. v_m on a set S is split into the regions
 *
 *     R_i = { x in S : v_i(x) >= v_j(x) for every j }  (less R_1 .. R_{i-1})
 *
 * where v_i - v_j >= 0 is a set when the difference is quasi-affine, and is
 * otherwise proven on all of S (or its converse is, and v_i never wins over
 * v_j) by nonneg() below, or the split is refused.  The regions must cover S,
 * checked by ISL; on R_i the value is v_i, the largest there by construction.
 *
 * The proof of p >= 0 on a basic set B when p is no affine function: pick a
 * parameter x of degree 1, p = a*x + b (a, b free of x).  When a >= 0 on B
 * (proven the same way) and B bounds x below by L (one of its constraints,
 * x >= L), p >= a*L + b, which no longer has x: prove that instead; when
 * a <= 0, an upper bound the same way.  A proof is a chain of such
 * substitutions ending in an affine inequality ISL decides, so a "yes" is
 * always right; a "no" only means no chain was found within NONNEG_BUDGET
 * attempts, and the maximum is then refused. */
#include "analyzer/count/count.h"
#include "analyzer/count/count_internal.h"
#include "analyzer/util/coalesce.h"

#include <stdbool.h>
#include <stdlib.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

enum {
	NONNEG_DEPTH = 6,     /* substitutions in one chain */
	NONNEG_BUDGET = 400,  /* attempts per proof (ISL's operation limit bounds the rest) */
	CASES_DEPTH = 2,      /* remainders split on, per comparison */
	SPLIT_MAX_VALUES = 16 /* functions competing on one piece */
};

enum { PROVER_VARS = 64 };

struct prover {
	int budget;
	bool error;
	/* the variables the chain has substituted: not again (an equality
	 * 2*e = n would trade n for e and back) */
	bool used[2][PROVER_VARS];
};

static int nonneg(struct prover *pv, __isl_keep isl_set *dom, __isl_keep isl_qpolynomial *qp,
		  int depth);

/* A variable of a proof: a parameter (TY 0) or a set variable (TY 1). */
static const enum isl_dim_type term_types[] = {isl_dim_param, isl_dim_set};
static const enum isl_dim_type qp_types[] = {isl_dim_param, isl_dim_in};

/* QP's one term of the splitting: the term (its coefficient, parameters,
 * set variables and floors), with the exponent of variable X of type TX
 * lowered by one when DROP. */
static __isl_give isl_qpolynomial *term_qp(__isl_keep isl_term *term, __isl_keep isl_space *space,
					   int tx, int x, bool drop)
{
	isl_qpolynomial *t = isl_qpolynomial_val_on_domain(isl_space_copy(space),
							   isl_term_get_coefficient_val(term));
	for (int ty = 0; ty < 2 && t; ty++) {
		isl_size n = isl_term_dim(term, term_types[ty]);
		if (n < 0)
			return isl_qpolynomial_free(t);
		for (int k = 0; k < n; k++) {
			isl_size e = isl_term_get_exp(term, term_types[ty], (unsigned)k);
			if (e < 0)
				return isl_qpolynomial_free(t);
			if (drop && ty == tx && k == x)
				e--;
			if (e > 0)
				t = isl_qpolynomial_mul(t, isl_qpolynomial_pow(isl_qpolynomial_var_on_domain(
					isl_space_copy(space), term_types[ty], (unsigned)k), (unsigned)e));
		}
	}
	isl_size nd = isl_term_dim(term, isl_dim_div);
	if (nd < 0)
		return isl_qpolynomial_free(t);
	for (int k = 0; k < nd; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_div, (unsigned)k);
		if (e < 0)
			return isl_qpolynomial_free(t);
		if (e > 0)
			t = isl_qpolynomial_mul(t, isl_qpolynomial_pow(isl_qpolynomial_from_aff(
				isl_aff_floor(isl_term_get_div(term, (unsigned)k))), (unsigned)e));
	}
	return t;
}

/* QP = A*x + B for the variable X of type TX: the walk over QP's terms. */
struct linear_split {
	isl_space *space;
	int tx, x;
	isl_qpolynomial *a, *b;
	bool linear;
};

static isl_stat split_term(__isl_take isl_term *term, void *user)
{
	struct linear_split *ls = user;
	isl_size e = isl_term_get_exp(term, term_types[ls->tx], (unsigned)ls->x);
	if (e < 0 || e > 1) {
		ls->linear = false;
		isl_term_free(term);
		return isl_stat_error;
	}
	isl_qpolynomial *t = term_qp(term, ls->space, ls->tx, ls->x, e == 1);
	isl_term_free(term);
	if (e == 1)
		ls->a = isl_qpolynomial_add(ls->a, t);
	else
		ls->b = isl_qpolynomial_add(ls->b, t);
	return ls->a && ls->b ? isl_stat_ok : isl_stat_error;
}

/* *A and *B with QP = A*x + B, neither involving the variable X of type
 * TX; false when QP is not of degree 1 in X that way (X inside a floor
 * included). */
static bool linear_in(__isl_keep isl_qpolynomial *qp, int tx, int x,
		      __isl_give isl_qpolynomial **a, __isl_give isl_qpolynomial **b)
{
	isl_space *space = isl_qpolynomial_get_domain_space(qp);
	struct linear_split ls = {space, tx, x, isl_qpolynomial_zero_on_domain(isl_space_copy(space)),
				  isl_qpolynomial_zero_on_domain(isl_space_copy(space)), true};
	isl_stat st = isl_qpolynomial_foreach_term(qp, split_term, &ls);
	isl_space_free(space);
	bool ok = st >= 0 && ls.linear && ls.a && ls.b &&
		  isl_qpolynomial_involves_dims(ls.a, qp_types[tx], (unsigned)x, 1) == isl_bool_false &&
		  isl_qpolynomial_involves_dims(ls.b, qp_types[tx], (unsigned)x, 1) == isl_bool_false &&
		  isl_qpolynomial_is_zero(ls.a) == isl_bool_false;
	if (!ok) {
		isl_qpolynomial_free(ls.a);
		isl_qpolynomial_free(ls.b);
		return false;
	}
	*a = ls.a;
	*b = ls.b;
	return true;
}

/* QP / x for the variable X of type TX when every term of QP has x as a
 * factor; NULL otherwise. */
struct divide_split {
	isl_space *space;
	int tx, x;
	isl_qpolynomial *acc;
};

static isl_stat divide_term_by(__isl_take isl_term *term, void *user)
{
	struct divide_split *ds = user;
	isl_size e = isl_term_get_exp(term, term_types[ds->tx], (unsigned)ds->x);
	if (e < 1) {
		isl_term_free(term);
		ds->acc = isl_qpolynomial_free(ds->acc);
		return isl_stat_error;
	}
	ds->acc = isl_qpolynomial_add(ds->acc, term_qp(term, ds->space, ds->tx, ds->x, true));
	isl_term_free(term);
	return ds->acc ? isl_stat_ok : isl_stat_error;
}

static __isl_give isl_qpolynomial *divided_by(__isl_keep isl_qpolynomial *qp, int tx, int x)
{
	isl_space *space = isl_qpolynomial_get_domain_space(qp);
	struct divide_split ds = {space, tx, x, isl_qpolynomial_zero_on_domain(isl_space_copy(space))};
	if (isl_qpolynomial_foreach_term(qp, divide_term_by, &ds) < 0)
		ds.acc = isl_qpolynomial_free(ds.acc);
	isl_space_free(space);
	return ds.acc;
}

/* The sign BSET (kept) gives variable X of type TX: 1 when x >= 0 there,
 * -1 when x <= 0, 0 when neither is known. */
static int sign_of(__isl_keep isl_basic_set *bset, int tx, int x)
{
	isl_set *dom = isl_set_from_basic_set(isl_basic_set_copy(bset));
	isl_set *neg = isl_set_upper_bound_si(isl_set_copy(dom), term_types[tx], (unsigned)x, -1);
	isl_set *pos = isl_set_lower_bound_si(dom, term_types[tx], (unsigned)x, 1);
	int sign = isl_set_is_empty(neg) == isl_bool_true ? 1
		 : isl_set_is_empty(pos) == isl_bool_true ? -1 : 0;
	isl_set_free(neg);
	isl_set_free(pos);
	return sign;
}

/* The bounds of variable X (of type TX) that one basic set's constraints
 * give: each a quasi-affine function of the other variables, lower (x >= L)
 * or upper (x <= U) as asked. */
struct bounds {
	int tx, x;
	bool lower;
	isl_aff *aff[8];
	int n;
	bool equalities; /* the walk that takes the equalities (after the rest) */
};

static isl_stat bound_of(__isl_take isl_constraint *c, void *user)
{
	struct bounds *bd = user;
	isl_val *v = isl_constraint_get_coefficient_val(c, term_types[bd->tx], bd->x);
	bool eq = isl_constraint_is_equality(c) == isl_bool_true;
	int sgn = v ? isl_val_sgn(v) : 0;
	/* c*x + rest >= 0: x >= -rest/c when c > 0, x <= rest/(-c) when c < 0;
	 * an equality gives both */
	if (sgn == 0 || bd->n >= 8 || eq != bd->equalities || (!eq && (sgn > 0) != bd->lower)) {
		isl_val_free(v);
		isl_constraint_free(c);
		return isl_stat_ok;
	}
	isl_aff *aff = isl_constraint_get_aff(c);
	isl_constraint_free(c);
	if (!aff) { /* a constraint through a division ISL cannot name: not a bound */
		isl_val_free(v);
		return isl_stat_ok;
	}
	if (eq && (sgn > 0) != bd->lower) {
		aff = isl_aff_neg(aff);
		v = isl_val_neg(v);
	}
	/* aff = c*x + rest with c > 0 for a lower bound, c < 0 for an upper */
	isl_aff *x = isl_aff_var_on_domain(isl_aff_get_domain_local_space(aff), term_types[bd->tx],
					   (unsigned)bd->x);
	isl_aff *rest = isl_aff_sub(aff, isl_aff_scale_val(x, isl_val_copy(v)));
	/* x >= -rest/c, x <= rest/|c|: rational bounds, weaker than their
	 * integer roundings but with no floor, which ISL's substitution takes */
	isl_val *abs = isl_val_abs(v);
	isl_aff *b = isl_aff_scale_down_val(bd->lower ? isl_aff_neg(rest) : rest, abs);
	isl_size nd = isl_aff_dim(b, isl_dim_div);
	if (!b || nd < 0) {
		isl_aff_free(b);
		return isl_stat_error;
	}
	if (nd > 0 && isl_aff_involves_dims(b, isl_dim_div, 0, (unsigned)nd) != isl_bool_false) {
		isl_aff_free(b); /* a bound through an existential variable */
		return isl_stat_ok;
	}
	bd->aff[bd->n++] = b;
	return isl_stat_ok;
}

/* QP (a polynomial: no floors) >= 0 on the basic set BSET (kept) by one
 * substitution of a variable by one of its bounds, then the rest of the
 * chain (nonneg). */
static int nonneg_by_bound(struct prover *pv, __isl_keep isl_basic_set *bset,
			   __isl_keep isl_qpolynomial *qp, int depth)
{
	isl_set *dom = isl_set_from_basic_set(isl_basic_set_copy(bset));
	int proven = 0;
	/* a factor x of every term, of one sign on BSET: the quotient's sign */
	for (int tx = 0; tx < 2 && !proven; tx++) {
		isl_size nx = isl_basic_set_dim(bset, term_types[tx]);
		for (int x = 0; x < nx && !proven && !pv->error && pv->budget > 0; x++) {
			isl_qpolynomial *q = divided_by(qp, tx, x);
			int sign = q ? sign_of(bset, tx, x) : 0;
			if (sign < 0)
				q = isl_qpolynomial_neg(q);
			if (sign && q && nonneg(pv, dom, q, depth - 1) == 1)
				proven = 1;
			isl_qpolynomial_free(q);
		}
	}
	for (int tx = 0; tx < 2 && !proven; tx++) {
		isl_size nx = isl_basic_set_dim(bset, term_types[tx]);
		for (int x = 0; x < nx && !proven && !pv->error && pv->budget > 0; x++) {
			isl_qpolynomial *a, *b;
			if (x >= PROVER_VARS || pv->used[tx][x] || !linear_in(qp, tx, x, &a, &b))
				continue;
			/* the sign of x's coefficient says which bound to take */
			int dir = nonneg(pv, dom, a, depth - 1) == 1 ? 1 : 0;
			if (!dir) {
				isl_qpolynomial *na = isl_qpolynomial_neg(isl_qpolynomial_copy(a));
				dir = nonneg(pv, dom, na, depth - 1) == 1 ? -1 : 0;
				isl_qpolynomial_free(na);
			}
			isl_qpolynomial_free(a);
			isl_qpolynomial_free(b);
			if (!dir)
				continue;
			struct bounds bd = {tx, x, dir > 0, {NULL}, 0, false};
			isl_stat st = isl_basic_set_foreach_constraint(bset, bound_of, &bd);
			bd.equalities = true;
			if (st < 0 || isl_basic_set_foreach_constraint(bset, bound_of, &bd) < 0)
				pv->error = true;
			for (int k = 0; k < bd.n; k++) {
				if (!proven && !pv->error && pv->budget > 0) {
					isl_qpolynomial *sub =
						isl_qpolynomial_from_aff(isl_aff_copy(bd.aff[k]));
					isl_qpolynomial *q = isl_qpolynomial_substitute(
						isl_qpolynomial_copy(qp), qp_types[tx], (unsigned)x, 1,
						&sub);
					isl_qpolynomial_free(sub);
					if (!q)
						pv->error = true;
					pv->used[tx][x] = true;
					if (q && nonneg(pv, dom, q, depth - 1) == 1)
						proven = 1;
					pv->used[tx][x] = false;
					isl_qpolynomial_free(q);
				}
				isl_aff_free(bd.aff[k]);
			}
		}
	}
	isl_set_free(dom);
	return pv->error ? -1 : proven;
}

/* The inequalities of a basic set, for nonneg_by_cases. */
struct ineqs {
	isl_aff *aff[24];
	int n;
};

static isl_stat collect_ineq(__isl_take isl_constraint *c, void *user)
{
	struct ineqs *in = user;
	isl_aff *aff = in->n < 24 && isl_constraint_is_equality(c) == isl_bool_false
		       ? isl_constraint_get_aff(c) : NULL;
	if (aff) /* one through a division ISL cannot name is left out */
		in->aff[in->n++] = aff;
	isl_constraint_free(c);
	return isl_stat_ok;
}

/* QP >= 0 on BSET (kept) case by case: two inequalities t >= 0 and
 * K - t >= 0 hold an affine form t within 0..K (K <= CASES_MAX: a
 * remainder, n - 2*floor(n/2)); with t fixed at each value, the equality
 * lowers QP's degree (ISL's gist substitutes it), and each case is proven on
 * its own. */
enum { CASES_MAX = 3 };

static int nonneg_by_cases(struct prover *pv, __isl_keep isl_basic_set *bset,
			   __isl_keep isl_qpolynomial *qp, int depth)
{
	struct ineqs in = {{NULL}, 0};
	if (isl_basic_set_foreach_constraint(bset, collect_ineq, &in) < 0)
		pv->error = true;
	int proven = 0;
	for (int i = 0; i < in.n && !proven && !pv->error && pv->budget > 0; i++) {
		for (int k = i + 1; k < in.n && !proven && !pv->error && pv->budget > 0; k++) {
			isl_aff *sum = isl_aff_add(isl_aff_copy(in.aff[i]), isl_aff_copy(in.aff[k]));
			isl_bool cst = isl_aff_is_cst(sum);
			isl_val *width = cst == isl_bool_true ? isl_aff_get_constant_val(sum) : NULL;
			isl_aff_free(sum);
			long K = width && isl_val_is_int(width) ? isl_val_get_num_si(width) : -1;
			isl_val_free(width);
			if (cst < 0)
				pv->error = true;
			if (K < 0 || K > CASES_MAX)
				continue;
			int all = 1;
			for (long v = 0; v <= K && all == 1; v++) {
				isl_aff *t = isl_aff_add_constant_si(isl_aff_copy(in.aff[i]), (int)-v);
				isl_set *dom = isl_set_intersect(
					isl_set_from_basic_set(isl_basic_set_copy(bset)),
					isl_set_from_basic_set(isl_aff_zero_basic_set(t)));
				isl_qpolynomial *q = isl_qpolynomial_gist(isl_qpolynomial_copy(qp),
									  isl_set_copy(dom));
				all = dom && q ? nonneg(pv, dom, q, depth - 1) : -1;
				isl_qpolynomial_free(q);
				isl_set_free(dom);
			}
			if (all < 0)
				pv->error = true;
			proven = all == 1;
		}
	}
	for (int i = 0; i < in.n; i++)
		isl_aff_free(in.aff[i]);
	return pv->error ? -1 : proven;
}

struct bset_proof {
	struct prover *pv;
	isl_qpolynomial *qp;
	int depth;
	int result;
};

/* One basic set of the domain with the floors of the value made variables
 * of it (isl_qpolynomial_as_polynomial_on_domain): POLY has none. */
static isl_stat lifted_nonneg(__isl_take isl_basic_set *bset, __isl_take isl_qpolynomial *poly,
			      void *user)
{
	struct bset_proof *bp = user;
	int r = nonneg_by_bound(bp->pv, bset, poly, bp->depth);
	if (r == 0)
		r = nonneg_by_cases(bp->pv, bset, poly, bp->depth);
	isl_basic_set_free(bset);
	isl_qpolynomial_free(poly);
	if (r != 1) {
		bp->result = r;
		return isl_stat_error;
	}
	return isl_stat_ok;
}

static isl_stat bset_nonneg(__isl_take isl_basic_set *bset, void *user)
{
	struct bset_proof *bp = user;
	isl_stat st = isl_qpolynomial_as_polynomial_on_domain(bp->qp, bset, lifted_nonneg, bp);
	isl_basic_set_free(bset);
	if (st < 0 && bp->result == 1)
		bp->result = -1;
	return bp->result == 1 ? isl_stat_ok : isl_stat_error;
}

/* 1 when QP >= 0 at every integer point of DOM (both kept, DOM on QP's
 * domain space) is proven, 0 when it is not, -1 when ISL failed. */
static int nonneg(struct prover *pv, __isl_keep isl_set *dom, __isl_keep isl_qpolynomial *qp,
		  int depth)
{
	if (pv->error || --pv->budget < 0)
		return pv->error ? -1 : 0;
	isl_aff *aff = count_qp_aff(qp);
	if (aff) {
		isl_set *neg = isl_set_intersect(isl_set_copy(dom),
						 isl_set_from_basic_set(isl_aff_neg_basic_set(aff)));
		isl_bool empty = isl_set_is_empty(neg);
		isl_set_free(neg);
		if (empty < 0)
			pv->error = true;
		return empty < 0 ? -1 : empty == isl_bool_true;
	}
	if (depth <= 0)
		return 0;
	struct bset_proof bp = {pv, qp, depth, 1};
	if (isl_set_foreach_basic_set(dom, bset_nonneg, &bp) < 0 && bp.result == 1)
		bp.result = -1;
	if (bp.result < 0)
		pv->error = true;
	return bp.result;
}

int count_proven_nonneg_on(__isl_keep isl_set *dom, __isl_keep isl_qpolynomial *qp)
{
	struct prover pv = {NONNEG_BUDGET, false, {{false}}};
	return nonneg(&pv, dom, qp, NONNEG_DEPTH);
}

/* --------------------------------------------------------------- splitting */

struct values {
	isl_qpolynomial *v[SPLIT_MAX_VALUES];
	int n;
	bool too_many;
};

static isl_stat collect_value(__isl_take isl_qpolynomial *qp, void *user)
{
	struct values *vs = user;
	if (vs->n >= SPLIT_MAX_VALUES) {
		vs->too_many = true;
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	vs->v[vs->n++] = qp;
	return isl_stat_ok;
}

struct split {
	isl_pw_qpolynomial *acc;
	bool ok;
};

static __isl_give isl_set *ge_region(struct prover *pv, __isl_keep isl_set *dom,
				     __isl_keep isl_qpolynomial *qp, int depth);

/* A remainder of BSET (kept): an affine form t (*T) that BSET holds within
 * 0..*K (two inequalities t >= 0, K - t >= 0, 1 <= K <= CASES_MAX) and does
 * not fix; false when it has none. */
static bool remainder_of(__isl_keep isl_basic_set *bset, __isl_give isl_aff **t, long *k)
{
	struct ineqs in = {{NULL}, 0};
	bool found = false;
	if (isl_basic_set_foreach_constraint(bset, collect_ineq, &in) < 0)
		in.n = in.n; /* what was collected is freed below */
	for (int i = 0; i < in.n && !found; i++) {
		for (int m = i + 1; m < in.n && !found; m++) {
			isl_aff *sum = isl_aff_add(isl_aff_copy(in.aff[i]), isl_aff_copy(in.aff[m]));
			isl_val *width = isl_aff_is_cst(sum) == isl_bool_true
					 ? isl_aff_get_constant_val(sum) : NULL;
			isl_aff_free(sum);
			long K = width && isl_val_is_int(width) ? isl_val_get_num_si(width) : -1;
			isl_val_free(width);
			if (K < 1 || K > CASES_MAX)
				continue;
			/* not fixed: t takes two values at least on BSET */
			isl_set *dom = isl_set_from_basic_set(isl_basic_set_copy(bset));
			isl_val *lo = isl_set_min_val(dom, in.aff[i]);
			isl_val *hi = isl_set_max_val(dom, in.aff[i]);
			isl_set_free(dom);
			bool spread = lo && hi && isl_val_is_int(lo) && isl_val_is_int(hi) &&
				      isl_val_lt(lo, hi) == isl_bool_true;
			isl_val_free(lo);
			isl_val_free(hi);
			if (!spread)
				continue;
			*t = isl_aff_copy(in.aff[i]);
			*k = K;
			found = *t != NULL;
		}
	}
	for (int i = 0; i < in.n; i++)
		isl_aff_free(in.aff[i]);
	return found;
}

/* ge_region on one basic set of the domain, its floors lifted. */
struct lifted_region {
	struct prover *pv;
	int depth;
	int nset;      /* the domain's set dimensions before the lifting */
	isl_set *acc;  /* the region so far, on the domain's space */
	bool unknown;
};

static isl_stat lifted_ge(__isl_take isl_basic_set *bset, __isl_take isl_qpolynomial *poly,
			  void *user)
{
	struct lifted_region *lr = user;
	isl_aff *t = NULL;
	long K = 0;
	isl_set *r = NULL;
	if (lr->depth > 0 && remainder_of(bset, &t, &K)) {
		r = isl_set_empty(isl_basic_set_get_space(bset));
		for (long v = 0; v <= K && r; v++) {
			isl_aff *tv = isl_aff_add_constant_si(isl_aff_copy(t), (int)-v);
			isl_set *dom = isl_set_intersect(isl_set_from_basic_set(isl_basic_set_copy(bset)),
							 isl_set_from_basic_set(isl_aff_zero_basic_set(tv)));
			isl_qpolynomial *q = isl_qpolynomial_gist(isl_qpolynomial_copy(poly),
								  isl_set_copy(dom));
			isl_set *part = dom && q ? ge_region(lr->pv, dom, q, lr->depth - 1) : NULL;
			isl_qpolynomial_free(q);
			isl_set_free(dom);
			r = part ? isl_set_union(r, part) : isl_set_free(r);
		}
		isl_aff_free(t);
	}
	isl_basic_set_free(bset);
	isl_qpolynomial_free(poly);
	isl_size n = r ? isl_set_dim(r, isl_dim_set) : -1;
	if (!r || n < 0) {
		isl_set_free(r);
		lr->unknown = true;
		return isl_stat_error;
	}
	/* the lifted floors are functions of the rest: their projection is exact */
	r = isl_set_project_out(r, isl_dim_set, (unsigned)lr->nset, (unsigned)(n - lr->nset));
	lr->acc = lr->acc ? isl_set_union(lr->acc, r) : r;
	return lr->acc ? isl_stat_ok : isl_stat_error;
}

struct bset_region {
	struct prover *pv;
	isl_qpolynomial *qp;
	int depth;
	isl_set *acc;
	bool unknown;
};

static isl_stat bset_ge(__isl_take isl_basic_set *bset, void *user)
{
	struct bset_region *br = user;
	isl_size nset = isl_basic_set_dim(bset, isl_dim_set);
	struct lifted_region lr = {br->pv, br->depth, nset < 0 ? 0 : nset, NULL, false};
	isl_stat st = isl_qpolynomial_as_polynomial_on_domain(br->qp, bset, lifted_ge, &lr);
	isl_basic_set_free(bset);
	if (st < 0 || lr.unknown || !lr.acc) {
		isl_set_free(lr.acc);
		br->unknown = true;
		return isl_stat_error;
	}
	lr.acc = isl_set_reset_space(lr.acc, isl_set_get_space(br->acc));
	br->acc = isl_set_union(br->acc, lr.acc);
	return br->acc ? isl_stat_ok : isl_stat_error;
}

/* DOM (kept) cut by S*A >= 0 (A taken) when QP (kept) >= 0 is proven on that
 * part and QP <= 0 on the rest; NULL otherwise (nothing failed). */
static __isl_give isl_set *sign_cut(struct prover *pv, __isl_keep isl_set *dom,
				    __isl_keep isl_qpolynomial *qp, __isl_take isl_aff *a, int s)
{
	if (s < 0)
		a = isl_aff_neg(a);
	isl_set *ge = a ? isl_set_intersect(isl_set_copy(dom),
					    isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(a)))
			: NULL;
	isl_set *rest = ge ? isl_set_subtract(isl_set_copy(dom), isl_set_copy(ge)) : NULL;
	/* a cut that leaves DOM whole on one side is the proof on all of DOM
	 * ge_region tried first */
	if (rest && (isl_set_is_empty(ge) != isl_bool_false ||
		     isl_set_is_empty(rest) != isl_bool_false)) {
		isl_set_free(ge);
		isl_set_free(rest);
		return NULL;
	}
	isl_qpolynomial *neg = rest ? isl_qpolynomial_neg(isl_qpolynomial_copy(qp)) : NULL;
	pv->budget = NONNEG_BUDGET;
	int yes = neg ? nonneg(pv, ge, qp, NONNEG_DEPTH) : -1;
	pv->budget = NONNEG_BUDGET;
	int no = yes == 1 ? nonneg(pv, rest, neg, NONNEG_DEPTH) : -1;
	pv->budget = NONNEG_BUDGET;
	isl_qpolynomial_free(neg);
	isl_set_free(rest);
	if (yes == 1 && no == 1)
		return ge;
	isl_set_free(ge);
	return NULL;
}

/* The part of DOM (kept) where QP (kept) >= 0 for a product QP = F*L of an
 * affine L and a factor F of one sign on DOM (LU's pivot process against a
 * full block: (M - 1 - k_M)*(n/M - 2 - 2*k_Mi), M - 1 - k_M >= 1), when no
 * remainder or proof wrote it.  For a variable x of degree 1 in QP, QP =
 * A*x + B: x in F makes A a multiple of L, so A >= 0 or -A >= 0 is the
 * candidate cut, kept only when QP >= 0 is proven on its side and QP <= 0 on
 * the other (sign_cut); NULL when no variable gives one. */
static __isl_give isl_set *factor_region(struct prover *pv, __isl_keep isl_set *dom,
					 __isl_keep isl_qpolynomial *qp)
{
	isl_set *r = NULL;
	for (int tx = 0; tx < 2 && !r && !pv->error; tx++) {
		isl_size nx = isl_set_dim(dom, term_types[tx]);
		for (int x = 0; x < nx && !r && !pv->error; x++) {
			isl_qpolynomial *a, *b;
			if (!linear_in(qp, tx, x, &a, &b))
				continue;
			isl_qpolynomial_free(b);
			isl_aff *aff = count_qp_aff(a);
			isl_qpolynomial_free(a);
			if (aff && isl_aff_is_cst(aff) == isl_bool_false) {
				r = sign_cut(pv, dom, qp, isl_aff_copy(aff), 1);
				if (!r)
					r = sign_cut(pv, dom, qp, isl_aff_copy(aff), -1);
			}
			isl_aff_free(aff);
		}
	}
	return r;
}

/* The part of DOM (kept) where QP (kept) >= 0, when it can be written:
 * all of DOM or none of it by a proof (nonneg), DOM cut by an affine
 * inequality, or case by case over a remainder the floors bring (n - 2*
 * floor(n/2) in 0..1), each case one of those, or by the sign of a factor
 * (factor_region); NULL when unknown. */
static __isl_give isl_set *ge_region(struct prover *pv, __isl_keep isl_set *dom,
				     __isl_keep isl_qpolynomial *qp, int depth)
{
	isl_aff *aff = count_qp_aff(qp);
	if (aff)
		return isl_set_intersect(isl_set_copy(dom), isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(aff)));
	/* each proof with a budget of its own */
	pv->budget = NONNEG_BUDGET;
	int yes = nonneg(pv, dom, qp, NONNEG_DEPTH);
	pv->budget = NONNEG_BUDGET;
	if (yes == 1)
		return isl_set_copy(dom);
	isl_qpolynomial *neg = yes == 0 ? isl_qpolynomial_neg(isl_qpolynomial_copy(qp)) : NULL;
	int no = neg ? nonneg(pv, dom, neg, NONNEG_DEPTH) : -1;
	isl_qpolynomial_free(neg);
	if (no == 1)
		return isl_set_empty(isl_set_get_space(dom));
	if (no < 0)
		return NULL;
	if (depth > 0) {
		struct bset_region br = {pv, qp, depth, isl_set_empty(isl_set_get_space(dom)),
					 false};
		if (isl_set_foreach_basic_set(dom, bset_ge, &br) >= 0 && !br.unknown)
			return br.acc;
		isl_set_free(br.acc);
		if (pv->error)
			return NULL;
	}
	return factor_region(pv, dom, qp);
}

/* The part of SET where V_I >= V_J (its complement in SET: V_J >= V_I,
 * V_J > V_I where the comparison was an inequality), or NULL when it cannot
 * be written. */
static __isl_give isl_set *compare_values(__isl_keep isl_set *set, __isl_keep isl_qpolynomial *vi,
					  __isl_keep isl_qpolynomial *vj)
{
	isl_qpolynomial *d = isl_qpolynomial_sub(isl_qpolynomial_copy(vi), isl_qpolynomial_copy(vj));
	struct prover pv = {NONNEG_BUDGET, false, {{false}}};
	isl_set *ge = d ? ge_region(&pv, set, d, 2 * CASES_DEPTH) : NULL;
	isl_qpolynomial_free(d);
	return ge;
}

static isl_stat split_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial_fold *fold,
			    void *user)
{
	struct split *sp = user;
	struct values vs = {{NULL}, 0, false};
	isl_stat st = isl_qpolynomial_fold_foreach_qpolynomial(fold, collect_value, &vs);
	isl_qpolynomial_fold_free(fold);
	int n = vs.n;
	isl_set *region[SPLIT_MAX_VALUES] = {NULL};
	bool error = st < 0 || n == 0;
	for (int i = 0; i < n && !error; i++)
		region[i] = isl_set_copy(set);
	/* each pair compared once: the regions of both from one verdict */
	for (int i = 0; i < n && !error; i++) {
		for (int j = i + 1; j < n && !error; j++) {
			isl_set *ge = compare_values(set, vs.v[i], vs.v[j]);
			if (!ge) {
				error = true;
				break;
			}
			/* v_i where v_i >= v_j; v_j where v_j > v_i */
			isl_set *gt_j = isl_set_subtract(isl_set_copy(set), isl_set_copy(ge));
			region[i] = isl_set_intersect(region[i], ge);
			region[j] = isl_set_intersect(region[j], gt_j);
			error |= !region[i] || !region[j];
		}
	}
	/* the regions cover SET (a cycle of proven ties would leave a hole) */
	isl_set *covered = NULL;
	for (int i = 0; i < n && !error; i++)
		covered = covered ? isl_set_union(covered, isl_set_copy(region[i]))
				  : isl_set_copy(region[i]);
	isl_bool all = error || !covered ? isl_bool_error : isl_set_is_subset(set, covered);
	isl_set_free(covered);
	if (all != isl_bool_true)
		error = true;
	/* disjoint, each value on its own region */
	isl_set *taken = NULL;
	for (int i = 0; i < n && !error; i++) {
		isl_set *r = region[i];
		region[i] = NULL;
		if (taken)
			r = isl_set_subtract(r, isl_set_copy(taken));
		taken = taken ? isl_set_union(taken, isl_set_copy(r)) : isl_set_copy(r);
		isl_bool empty = isl_set_is_empty(r);
		if (empty == isl_bool_false)
			sp->acc = isl_pw_qpolynomial_add_disjoint(
				sp->acc, isl_pw_qpolynomial_alloc(r, isl_qpolynomial_copy(vs.v[i])));
		else
			isl_set_free(r);
		error = empty < 0 || !sp->acc || !taken;
	}
	isl_set_free(taken);
	for (int i = 0; i < n; i++) {
		isl_set_free(region[i]);
		isl_qpolynomial_free(vs.v[i]);
	}
	isl_set_free(set);
	if (error)
		sp->ok = false;
	return error ? isl_stat_error : isl_stat_ok;
}

__isl_give isl_pw_qpolynomial *count_split_fold(__isl_take isl_pw_qpolynomial_fold *fold)
{
	if (!fold)
		return NULL;
	struct split sp = {isl_pw_qpolynomial_zero(isl_space_add_dims(
				   isl_space_params(isl_pw_qpolynomial_fold_get_domain_space(fold)),
				   isl_dim_out, 1)),
			   true};
	isl_stat st = isl_pw_qpolynomial_fold_foreach_piece(fold, split_piece, &sp);
	isl_pw_qpolynomial_fold_free(fold);
	if (st < 0 || !sp.ok) {
		isl_pw_qpolynomial_free(sp.acc);
		return NULL;
	}
	return sp.acc;
}

/* F (taken) where the parameters lie in CONTEXT: the functions, never the
 * fold of them, are restricted.  ISL 0.25 restricting a fold to a domain
 * with an equality between parameters (M == N on a square grid, a piece's
 * own or the context's) gists every function of the fold but the first
 * with the equality misapplied: 2*(M - 1 - k)*(n - 1) became
 * 2*(-1 - k)*(n - 1), a wrong maximum for LU's sum over k (see
 * test_count_split's fold case). */
static __isl_give isl_pw_qpolynomial *on_context(__isl_take isl_pw_qpolynomial *f,
						 __isl_keep isl_set *context)
{
	return isl_pw_qpolynomial_intersect_params(f, isl_set_params(isl_set_copy(context)));
}

enum count_status count_max_split_of(struct count_engine *engine,
				     __isl_keep isl_pw_qpolynomial *const *cand, int n,
				     __isl_keep isl_set *context,
				     __isl_give isl_pw_qpolynomial **result, char **reason)
{
	*result = NULL;
	*reason = NULL;
	unsigned long old = count_start_limits(engine);
	isl_pw_qpolynomial_fold *fold = NULL;
	bool bad = n < 1;
	for (int i = 0; i < n && !bad; i++) {
		isl_pw_qpolynomial *c = isl_pw_qpolynomial_copy(cand[i]);
		if (context)
			c = on_context(c, context);
		isl_pw_qpolynomial_fold *f = isl_pw_qpolynomial_fold_from_pw_qpolynomial(isl_fold_max, c);
		fold = fold ? isl_pw_qpolynomial_fold_fold(fold, f) : f;
		bad = !fold; /* never a maximum of the functions that are left */
	}
	if (bad)
		fold = isl_pw_qpolynomial_fold_free(fold);
	isl_pw_qpolynomial *r = fold ? count_split_fold(fold) : NULL;
	return count_max_result(engine->ctx, r ? COUNT_EXACT : COUNT_REFUSED,
				bad ? "no functions to maximize, or ISL failed on them"
				    : "the functions compete on regions where neither their "
				      "difference is affine nor one is proven the larger",
				r, result, reason, old);
}

enum count_status count_max_split(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
				  __isl_keep isl_set *range, __isl_keep isl_set *context,
				  __isl_give isl_pw_qpolynomial **result, char **reason)
{
	*result = NULL;
	*reason = NULL;
	unsigned long old = count_start_limits(engine);
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_copy(f);
	if (range)
		g = isl_pw_qpolynomial_intersect_domain(g, isl_set_copy(range));
	if (context)
		g = on_context(g, context);
	g = coalesce_pw_qpolynomial(g);
	isl_pw_qpolynomial_fold *fold = count_fold_of_pieces(g);
	isl_pw_qpolynomial_free(g);
	bool folded = fold != NULL;
	isl_pw_qpolynomial *r = fold ? count_split_fold(fold) : NULL;
	return count_max_result(engine->ctx, r ? COUNT_EXACT : COUNT_REFUSED,
				folded ? "the pieces' values compete on regions where neither their "
				       "difference is affine nor one is proven the larger"
				       : "a piece's value depends on the maximized variables (or ISL "
					 "failed on them)",
				r, result, reason, old);
}
