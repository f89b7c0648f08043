/* The maximum of a count over the processes: exactly, or refused with the
 * reason.  Three ways, tried in order by count_max: one candidate that
 * dominates the others (count_max_of), ISL's tight bound of a polynomial over
 * a box of coordinates, and an affine piece's maximum by ISL's integer
 * optimization; count_max_values does the same with every value known, point
 * by point where it must.  The counting engine is count.c.
 *
 * Why this file is long: the three ways share their walks over the pieces
 * of a count and the proofs of non-negativity; apart, each would repeat
 * them. */
#include "analyzer/count/count.h"
#include "analyzer/count/count_internal.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/session.h"
#include "analyzer/util/val.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <flint/fmpq.h>
#include <flint/fmpq_mpoly.h>
#include <flint/fmpq_poly.h>
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/space.h>

/* Debugging output to stderr, compiled in only with -DBSPCOST_COUNT_DEBUG: the
 * analyzer prints nothing of its own otherwise. */

/* ---------------------------------------------------------------- maximum */

struct cst_check {
	bool all_nonneg_cst;
};

static isl_stat fold_qp_nonneg(__isl_take isl_qpolynomial *qp, void *user)
{
	struct cst_check *cc = user;
	isl_val *v = isl_qpolynomial_get_constant_val(qp);
	/* get_constant_val returns NaN when qp is not a constant */
	if (!v || isl_val_is_nan(v) || !isl_val_is_rat(v) || isl_val_is_neg(v))
		cc->all_nonneg_cst = false;
	isl_val_free(v);
	isl_qpolynomial_free(qp);
	return isl_stat_ok;
}

static isl_stat fold_piece_nonneg(__isl_take isl_set *set, __isl_take isl_qpolynomial_fold *fold,
				  void *user)
{
	isl_set_free(set);
	isl_stat st = isl_qpolynomial_fold_foreach_qpolynomial(fold, fold_qp_nonneg, user);
	isl_qpolynomial_fold_free(fold);
	return st;
}

struct aff_conv {
	isl_aff *aff;
	bool affine;
};

/* One term of degree <= 1 (a constant, a parameter, a set variable or a floor)
 * into an isl_aff on the term's domain. */
static isl_stat term_to_aff(__isl_take isl_term *term, void *user)
{
	struct aff_conv *ac = user;
	static const enum isl_dim_type types[] = {isl_dim_param, isl_dim_set, isl_dim_div};
	isl_val *c = isl_term_get_coefficient_val(term);
	int deg = 0, var = -1, vtype = -1;
	for (int t = 0; t < 3; t++) {
		isl_size n = isl_term_dim(term, types[t]);
		if (n < 0)
			deg = 2;
		for (int k = 0; k < n; k++) {
			isl_size e = isl_term_get_exp(term, types[t], (unsigned)k);
			deg += e;
			if (e) {
				var = k;
				vtype = t;
			}
		}
	}
	isl_aff *x = NULL;
	if (deg > 1 || !c) {
		ac->affine = false;
	} else if (deg == 0) {
		x = isl_aff_val_on_domain(isl_aff_get_domain_local_space(ac->aff), isl_val_copy(c));
	} else if (vtype == 2) {
		x = isl_aff_scale_val(isl_aff_floor(isl_term_get_div(term, (unsigned)var)),
				      isl_val_copy(c));
	} else {
		x = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(ac->aff));
		x = isl_aff_set_coefficient_val(x, vtype == 0 ? isl_dim_param : isl_dim_in, var,
						isl_val_copy(c));
	}
	isl_val_free(c);
	isl_term_free(term);
	if (!ac->affine)
		return isl_stat_error;
	ac->aff = isl_aff_add(ac->aff, x);
	return ac->aff ? isl_stat_ok : isl_stat_error;
}

struct nonneg_check {
	int result; /* 1 proven so far, 0 not proven, -1 error */
};

struct factor_scan {
	int np;
	int common[NSLOT]; /* smallest exponent of each parameter over the terms */
};

static isl_stat scan_factor(__isl_take isl_term *term, void *user)
{
	struct factor_scan *fs = user;
	for (int k = 0; k < fs->np && k < NSLOT; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_param, (unsigned)k);
		if (e < fs->common[k])
			fs->common[k] = e < 0 ? 0 : e;
	}
	isl_term_free(term);
	return isl_stat_ok;
}

struct divide_job {
	isl_qpolynomial *acc;
	int param;
};

/* acc += term / param (the term has param with exponent >= 1) */
static isl_stat divide_term(__isl_take isl_term *term, void *user)
{
	struct divide_job *dj = user;
	isl_space *space = isl_qpolynomial_get_domain_space(dj->acc);
	isl_qpolynomial *t = isl_qpolynomial_val_on_domain(isl_space_copy(space),
							   isl_term_get_coefficient_val(term));
	isl_size np = isl_term_dim(term, isl_dim_param);
	isl_size nd = isl_term_dim(term, isl_dim_div);
	for (int k = 0; k < np; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_param, (unsigned)k);
		if (k == dj->param)
			e--;
		if (e > 0)
			t = isl_qpolynomial_mul(t, isl_qpolynomial_pow(isl_qpolynomial_var_on_domain(
				isl_space_copy(space), isl_dim_param, (unsigned)k), (unsigned)e));
	}
	for (int k = 0; k < nd; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_div, (unsigned)k);
		if (e > 0)
			t = isl_qpolynomial_mul(t, isl_qpolynomial_pow(isl_qpolynomial_from_aff(
				isl_aff_floor(isl_term_get_div(term, (unsigned)k))), (unsigned)e));
	}
	isl_space_free(space);
	isl_term_free(term);
	dj->acc = isl_qpolynomial_add(dj->acc, t);
	return dj->acc ? isl_stat_ok : isl_stat_error;
}

static isl_stat piece_nonneg(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user);

/* qp = p * q with p a parameter that is >= 0 on dom: then qp >= 0 where q >= 0.
 * Returns 1 if it applied (and nc has the verdict), 0 if qp has no such factor. */
static int nonneg_by_factor(__isl_keep isl_set *dom, __isl_keep isl_qpolynomial *qp,
			    struct nonneg_check *nc)
{
	isl_size np = isl_set_dim(dom, isl_dim_param);
	struct factor_scan fs;
	fs.np = np < 0 ? 0 : np;
	for (int k = 0; k < NSLOT; k++)
		fs.common[k] = 1 << 20;
	if (isl_qpolynomial_foreach_term(qp, scan_factor, &fs) < 0)
		return 0;
	for (int p = 0; p < fs.np && p < NSLOT; p++) {
		if (fs.common[p] < 1 || fs.common[p] == 1 << 20)
			continue;
		/* p >= 0 on dom? */
		isl_set *neg = isl_set_upper_bound_si(isl_set_copy(dom), isl_dim_param,
						      (unsigned)p, -1);
		isl_bool e = isl_set_is_empty(neg);
		isl_set_free(neg);
		if (e != isl_bool_true)
			continue;
		struct divide_job dj = {isl_qpolynomial_zero_on_domain(
			isl_qpolynomial_get_domain_space(qp)), p};
		if (isl_qpolynomial_foreach_term(qp, divide_term, &dj) < 0 || !dj.acc) {
			isl_qpolynomial_free(dj.acc);
			return 0;
		}
		piece_nonneg(isl_set_copy(dom), dj.acc, nc);
		return 1;
	}
	return 0;
}

/* On one piece: is {qp < 0} empty?  Exact when qp is quasi-affine, or a product of
 * parameters that are non-negative on the piece and a quasi-affine factor. */
static isl_stat piece_nonneg(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user)
{
	struct nonneg_check *nc = user;
	if (nonneg_by_factor(dom, qp, nc)) {
		isl_set_free(dom);
		isl_qpolynomial_free(qp);
		return nc->result == 1 ? isl_stat_ok : isl_stat_error;
	}
	isl_space *sp = isl_set_get_space(dom);
	struct aff_conv ac = {isl_aff_zero_on_domain(isl_local_space_from_space(sp)), true};
	isl_stat st = isl_qpolynomial_foreach_term(qp, term_to_aff, &ac);
	isl_qpolynomial_free(qp);
	if (st < 0 || !ac.affine || !ac.aff) {
		isl_aff_free(ac.aff);
		isl_set_free(dom);
		nc->result = ac.affine ? -1 : 0;
		return isl_stat_error;
	}
	isl_set *neg = isl_set_intersect(dom, isl_set_from_basic_set(isl_aff_neg_basic_set(ac.aff)));
	isl_bool empty = isl_set_is_empty(neg);
	isl_set_free(neg);
	if (empty < 0)
		nc->result = -1;
	else if (!empty)
		nc->result = 0;
	return nc->result == 1 ? isl_stat_ok : isl_stat_error;
}

/* Is d >= 0 for every integer parameter value (absent pieces are 0)?  Decided
 * exactly when every piece is quasi-affine; otherwise proven only when ISL's lower
 * bound of d is, on every piece, a non-negative constant.
 * Returns 1 proven, 0 not proven, -1 error. */
static int proven_nonneg(__isl_take isl_pw_qpolynomial *d)
{
	struct nonneg_check nc = {1};
	if (isl_pw_qpolynomial_foreach_piece(d, piece_nonneg, &nc) >= 0 && nc.result == 1) {
		isl_pw_qpolynomial_free(d);
		return 1;
	}
	if (nc.result < 0) {
		isl_pw_qpolynomial_free(d);
		return -1;
	}
	isl_size np = isl_pw_qpolynomial_dim(d, isl_dim_param);
	if (np < 0) {
		isl_pw_qpolynomial_free(d);
		return -1;
	}
	/* bound() bounds over the set dimensions: make the parameters set dims */
	d = isl_pw_qpolynomial_move_dims(d, isl_dim_in, 0, isl_dim_param, 0, (unsigned)np);
	isl_bool tight;
	isl_pw_qpolynomial_fold *lb = isl_pw_qpolynomial_bound(d, isl_fold_min, &tight);
	if (!lb)
		return -1;
	struct cst_check cc = {true};
	isl_stat st = isl_pw_qpolynomial_fold_foreach_piece(lb, fold_piece_nonneg, &cc);
	isl_pw_qpolynomial_fold_free(lb);
	if (st < 0)
		return -1;
	return cc.all_nonneg_cst ? 1 : 0;
}

struct max_point {
	isl_pw_qpolynomial *f;     /* restricted to the range, domain [P] -> {[s]} */
	isl_pw_qpolynomial **cand; /* one per point of the box */
	int n, cap;
	bool failed;
};

static isl_stat max_collect(__isl_take isl_point *pt, void *user)
{
	struct max_point *mp = user;
	if (mp->n >= mp->cap) {
		isl_point_free(pt);
		mp->failed = true;
		return isl_stat_error;
	}
	/* Fix the coordinates through a gist: isl_pw_qpolynomial_fix_val fails
	 * ("position out of bounds") on pieces with integer divisions in ISL 0.25. */
	isl_set *at = isl_set_from_point(pt);
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_intersect_domain(isl_pw_qpolynomial_copy(mp->f),
								    isl_set_copy(at));
	g = isl_pw_qpolynomial_gist(g, at);
	g = isl_pw_qpolynomial_project_domain_on_params(g);
	if (!g) {
		mp->failed = true;
		return isl_stat_error;
	}
	mp->cand[mp->n++] = g;
	return isl_stat_ok;
}

/* The values of the N candidates CAND at a few points of the parameters:
 * only a candidate that is the largest at every such point can be proven >=
 * every other, so only those are tried (the proofs are the cost).  An
 * unevaluable value rules nothing out.  NULL when out of memory. */
static bool *dominator_candidates(__isl_keep isl_pw_qpolynomial *const *cand, int n)
{
	bool *possible = calloc((size_t)n + 1, sizeof(*possible));
	isl_val **v = calloc((size_t)n + 1, sizeof(*v));
	if (!possible || !v) {
		free(possible);
		free(v);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		possible[i] = true;
	isl_set *params = NULL;
	for (int i = 0; i < n; i++) {
		isl_set *d = isl_set_params(isl_pw_qpolynomial_domain(isl_pw_qpolynomial_copy(cand[i])));
		params = params ? isl_set_union(params, d) : d;
	}
	isl_size np = params ? isl_set_dim(params, isl_dim_param) : -1;
	isl_point *base = params ? isl_set_sample_point(isl_set_copy(params)) : NULL;
	/* the sample, then for each parameter the points where it is 1, 2, 3 and
	 * 5 larger (other residues: a block's last process has less) */
	static const unsigned step[] = {1, 2, 3, 5};
	int nstep = (int)(sizeof(step) / sizeof(step[0]));
	for (int t = -1; base && np >= 0 && t < np * nstep; t++) {
		isl_point *pt = NULL;
		if (t < 0) {
			pt = isl_point_copy(base);
		} else {
			int k = t / nstep;
			isl_val *b = isl_point_get_coordinate_val(base, isl_dim_param, k);
			isl_set *more = isl_set_lower_bound_val(isl_set_copy(params), isl_dim_param,
								(unsigned)k,
								isl_val_add_ui(b, step[t % nstep]));
			pt = isl_set_sample_point(more);
		}
		if (!pt || isl_point_is_void(pt) != isl_bool_false) {
			isl_point_free(pt);
			continue;
		}
		isl_val *best = NULL;
		for (int i = 0; i < n; i++) {
			v[i] = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(cand[i]),
						       isl_point_copy(pt));
			if (v[i] && !isl_val_is_rat(v[i]))
				v[i] = isl_val_free(v[i]);
			if (v[i] && (!best || isl_val_gt(v[i], best)))
				best = v[i];
		}
		for (int i = 0; i < n; i++) {
			if (v[i] && best && isl_val_lt(v[i], best))
				possible[i] = false;
		}
		for (int i = 0; i < n; i++)
			v[i] = isl_val_free(v[i]);
		isl_point_free(pt);
	}
	isl_point_free(base);
	isl_set_free(params);
	free(v);
	return possible;
}

/* The index of a candidate proven >= every other for all parameters, -1 when
 * none is, -2 when a proof failed. */
static int dominator(__isl_keep isl_pw_qpolynomial *const *cand, int n)
{
	bool *possible = dominator_candidates(cand, n);
	if (!possible)
		return -2;
	int winner = -1;
	for (int i = 0; i < n && winner == -1; i++) {
		if (!possible[i])
			continue;
		bool dominates = true;
		for (int j = 0; j < n && dominates; j++) {
			if (j == i)
				continue;
			int pr = proven_nonneg(isl_pw_qpolynomial_sub(isl_pw_qpolynomial_copy(cand[i]),
								      isl_pw_qpolynomial_copy(cand[j])));
			if (pr < 0)
				winner = -2;
			dominates = pr == 1;
		}
		if (dominates && winner == -1)
			winner = i;
	}
	free(possible);
	return winner;
}

enum count_status count_max_of(struct count_engine *engine,
			       __isl_keep isl_pw_qpolynomial *const *cand, int n,
			       __isl_give isl_pw_qpolynomial **result, char **reason)
{
	*result = NULL;
	*reason = NULL;
	if (n < 1) {
		*reason = count_dup_msg("no function to maximize");
		return COUNT_ERROR;
	}
	unsigned long old = count_start_limits(engine);
	int w = dominator(cand, n);
	if (w >= 0)
		return count_max_result(engine->ctx, COUNT_EXACT, NULL, isl_pw_qpolynomial_copy(cand[w]),
				  result, reason, old);
	if (w == -2)
		return count_max_result(engine->ctx, COUNT_EXACT, NULL, NULL, result, reason, old);
	return count_max_result(engine->ctx, COUNT_REFUSED,
			  "no function is proven the largest for all parameters",
			  NULL, result, reason, old);
}

enum count_status count_max_of_index(struct count_engine *engine,
				     __isl_keep isl_pw_qpolynomial *const *cand, int n, int *index,
				     char **reason)
{
	*index = -1;
	*reason = NULL;
	if (n < 1) {
		*reason = count_dup_msg("no function to maximize");
		return COUNT_ERROR;
	}
	unsigned long old = count_start_limits(engine);
	int w = dominator(cand, n);
	isl_ctx_set_max_operations(engine->ctx, old);
	if (session_ctx_stopped(engine->ctx)) {
		*reason = count_dup_msg(COUNT_DEADLINE_REASON);
		return COUNT_REFUSED;
	}
	if (w == -2) {
		struct fail f = {0};
		fail_isl(&f, engine->ctx, "the maximum");
		*reason = fail_release(&f);
		return (enum count_status)f.kind;
	}
	if (w < 0) {
		*reason = count_dup_msg("no function is proven the largest for all parameters");
		return COUNT_REFUSED;
	}
	*index = w;
	return COUNT_EXACT;
}

struct fold_conv {
	isl_pw_qpolynomial *acc;
	bool single;
};

static isl_stat fold_qp_take(__isl_take isl_qpolynomial *qp, void *user)
{
	isl_qpolynomial **out = user;
	if (*out) {
		isl_qpolynomial_free(*out);
		*out = NULL;
		isl_qpolynomial_free(qp);
		return isl_stat_error; /* more than one */
	}
	*out = qp;
	return isl_stat_ok;
}

static isl_stat fold_piece_to_pw(__isl_take isl_set *set, __isl_take isl_qpolynomial_fold *fold,
				 void *user)
{
	struct fold_conv *fc = user;
	isl_qpolynomial *qp = NULL;
	isl_stat st = isl_qpolynomial_fold_foreach_qpolynomial(fold, fold_qp_take, &qp);
	isl_qpolynomial_fold_free(fold);
	if (st < 0 || !qp) {
		fc->single = false;
		isl_qpolynomial_free(qp);
		isl_set_free(set);
		return isl_stat_error;
	}
	fc->acc = isl_pw_qpolynomial_add_disjoint(fc->acc, isl_pw_qpolynomial_alloc(set, qp));
	return fc->acc ? isl_stat_ok : isl_stat_error;
}

/* The pieces of a function whose values do not involve its NS set dimensions,
 * each folded (max) over its domain projected on the parameters: a first pass
 * (FOLD false) only checks that no value involves them. */
struct qfree {
	isl_pw_qpolynomial_fold *acc;
	int ns;
	bool fold;
	bool ok;
};

static isl_stat qfree_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct qfree *fq = user;
	isl_bool dep = isl_qpolynomial_involves_dims(qp, isl_dim_in, 0, (unsigned)fq->ns);
	if (dep == isl_bool_true) {
		/* equalities of the domain (q = 0) substituted, it may not */
		qp = isl_qpolynomial_gist(qp, isl_set_copy(set));
		dep = isl_qpolynomial_involves_dims(qp, isl_dim_in, 0, (unsigned)fq->ns);
	}
	if (dep != isl_bool_false || !fq->fold) {
		fq->ok = dep == isl_bool_false;
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return fq->ok ? isl_stat_ok : isl_stat_error;
	}
	qp = isl_qpolynomial_project_domain_on_params(qp);
	isl_pw_qpolynomial_fold *f = isl_pw_qpolynomial_fold_from_pw_qpolynomial(
		isl_fold_max, isl_pw_qpolynomial_alloc(isl_set_params(set), qp));
	fq->acc = fq->acc ? isl_pw_qpolynomial_fold_fold(fq->acc, f) : f;
	if (!fq->acc)
		fq->ok = false;
	return fq->acc ? isl_stat_ok : isl_stat_error;
}

__isl_give isl_pw_qpolynomial_fold *count_fold_of_pieces(__isl_keep isl_pw_qpolynomial *g)
{
	isl_size ns = isl_pw_qpolynomial_dim(g, isl_dim_in);
	if (ns < 0)
		return NULL;
	struct qfree check = {NULL, ns, false, true}, fq = {NULL, ns, true, true};
	if (isl_pw_qpolynomial_foreach_piece(g, qfree_piece, &check) >= 0 && check.ok &&
	    isl_pw_qpolynomial_foreach_piece(g, qfree_piece, &fq) >= 0 && fq.ok && fq.acc)
		return fq.acc;
	return isl_pw_qpolynomial_fold_free(fq.acc);
}

__isl_give isl_aff *count_qp_aff(__isl_keep isl_qpolynomial *qp)
{
	struct aff_conv ac = {isl_aff_zero_on_domain(isl_local_space_from_space(
				      isl_qpolynomial_get_domain_space(qp))),
			      true};
	if (isl_qpolynomial_foreach_term(qp, term_to_aff, &ac) < 0 || !ac.affine)
		return isl_aff_free(ac.aff);
	return ac.aff;
}

enum { MAX_SPREAD = 8, MAX_SPLITS = 3 };

/* Bounds of one coordinate read off a basic set's constraints: e_i >= L(P)
 * and e_i <= U(P), L and U affine in the parameters with integer coefficients. */
struct spread_scan {
	int i, np;
	int nlo, nhi;
	long lo[8][NSLOT + 1], hi[8][NSLOT + 1]; /* parameter coefficients, then constant */
};

static isl_stat spread_constraint(__isl_take isl_constraint *c, void *user)
{
	struct spread_scan *sc = user;
	isl_size ns = isl_constraint_dim(c, isl_dim_set);
	isl_size nd = isl_constraint_dim(c, isl_dim_div);
	long a = 0;
	bool plain = ns >= 0 && nd >= 0;
	for (int k = 0; k < ns && plain; k++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_set, k);
		long x = v && isl_val_is_int(v) && isl_val_cmp_si(v, 1L << 30) < 0 &&
				 isl_val_cmp_si(v, -(1L << 30)) > 0
			 ? isl_val_get_num_si(v)
			 : 99;
		isl_val_free(v);
		if (k == sc->i)
			a = x;
		else
			plain = x == 0;
	}
	for (int k = 0; k < nd && plain; k++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_div, k);
		plain = v && isl_val_is_zero(v);
		isl_val_free(v);
	}
	long row[NSLOT + 1];
	for (int k = 0; k <= sc->np && plain; k++) {
		isl_val *v = k < sc->np ? isl_constraint_get_coefficient_val(c, isl_dim_param, k)
					: isl_constraint_get_constant_val(c);
		plain = v && isl_val_is_int(v) && isl_val_cmp_si(v, 1L << 30) < 0 &&
			isl_val_cmp_si(v, -(1L << 30)) > 0;
		row[k] = plain ? isl_val_get_num_si(v) : 0;
		isl_val_free(v);
	}
	bool eq = isl_constraint_is_equality(c) == isl_bool_true;
	isl_constraint_free(c);
	if (!plain || (a != 1 && a != -1))
		return isl_stat_ok;
	/* a*e + row >= 0: a = 1 gives e >= -row, a = -1 gives e <= row */
	for (int side = 0; side < (eq ? 2 : 1); side++) {
		long s = side ? -a : a;
		if (s > 0 && sc->nlo < 8) {
			for (int k = 0; k <= sc->np; k++)
				sc->lo[sc->nlo][k] = -(side ? -row[k] : row[k]);
			sc->nlo++;
		} else if (s < 0 && sc->nhi < 8) {
			for (int k = 0; k <= sc->np; k++)
				sc->hi[sc->nhi][k] = side ? -row[k] : row[k];
			sc->nhi++;
		}
	}
	return isl_stat_ok;
}

static __isl_give isl_pw_aff *piece_max(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp,
					int splits);

/* DOM (a basic set) bounds its coordinate I by L(P) <= e_i <= L(P) + c for a
 * constant c <= MAX_SPREAD, read off its constraints: the maximum of QP over DOM
 * is the largest of its maxima with e_i = L + t, t = 0..c. */
static __isl_give isl_pw_aff *max_by_spread(__isl_keep isl_set *dom,
					    __isl_keep isl_qpolynomial *qp, int i, int splits)
{
	isl_size np = isl_set_dim(dom, isl_dim_param);
	if (np < 0 || np > NSLOT || isl_set_n_basic_set(dom) != 1)
		return NULL;
	isl_basic_set_list *list = isl_set_get_basic_set_list(dom);
	isl_basic_set *bset = isl_basic_set_list_get_basic_set(list, 0);
	isl_basic_set_list_free(list);
	struct spread_scan *sc = calloc(1, sizeof(*sc));
	if (!sc || !bset) {
		free(sc);
		isl_basic_set_free(bset);
		return NULL;
	}
	sc->i = i;
	sc->np = np;
	isl_basic_set_foreach_constraint(bset, spread_constraint, sc);
	isl_basic_set_free(bset);
	int best = -1;
	long spread = MAX_SPREAD + 1;
	for (int l = 0; l < sc->nlo; l++)
		for (int h = 0; h < sc->nhi; h++) {
			bool same = true;
			for (int k = 0; k < np && same; k++)
				same = sc->lo[l][k] == sc->hi[h][k];
			long w = sc->hi[h][np] - sc->lo[l][np];
			if (same && w >= 0 && w < spread) {
				spread = w;
				best = l;
			}
		}
	isl_pw_aff *r = NULL;
	bool ok = best >= 0;
	for (long t = 0; ok && t <= spread; t++) {
		/* e_i - L - t = 0 */
		isl_constraint *e = isl_constraint_alloc_equality(
			isl_local_space_from_space(isl_set_get_space(dom)));
		e = isl_constraint_set_coefficient_si(e, isl_dim_set, i, 1);
		for (int k = 0; k < np; k++)
			e = isl_constraint_set_coefficient_si(e, isl_dim_param, k,
							      (int)-sc->lo[best][k]);
		e = isl_constraint_set_constant_si(e, (int)(-sc->lo[best][np] - t));
		isl_set *part = isl_set_add_constraint(isl_set_copy(dom), e);
		isl_bool empty = isl_set_is_empty(part);
		if (empty != isl_bool_false) {
			isl_set_free(part);
			ok = empty == isl_bool_true;
			continue;
		}
		isl_pw_aff *m = piece_max(part, isl_qpolynomial_copy(qp), splits + 1);
		ok = m != NULL;
		r = !m ? r : r ? isl_pw_aff_union_max(r, m) : m;
	}
	free(sc);
	if (!ok)
		r = isl_pw_aff_free(r);
	return r;
}

/* The maximum of QP over DOM (both taken) as a piecewise affine function of the
 * parameters (on the parameters where DOM has points), or NULL: exact, by ISL's
 * parametric integer programming, when QP is affine; otherwise after
 * enumerating the few values of a coordinate that QP involves. */
static __isl_give isl_pw_aff *piece_max(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp,
					int splits)
{
	qp = isl_qpolynomial_gist(qp, isl_set_copy(dom));
	isl_aff *aff = qp ? count_qp_aff(qp) : NULL;
	isl_pw_aff *r = NULL;
	if (aff) {
		isl_map *val = isl_map_intersect_domain(isl_map_from_aff(aff), isl_set_copy(dom));
		r = isl_set_dim_max(isl_map_range(val), 0);
		/* unbounded above: ISL gives NaN there, which is no maximum */
		if (isl_pw_aff_involves_nan(r) != isl_bool_false)
			r = isl_pw_aff_free(r);
	} else if (qp && splits < MAX_SPLITS) {
		isl_size ns = isl_set_dim(dom, isl_dim_set);
		for (int i = 0; i < ns && !r; i++)
			if (isl_qpolynomial_involves_dims(qp, isl_dim_in, (unsigned)i, 1) ==
			    isl_bool_true)
				r = max_by_spread(dom, qp, i, splits);
	}
	isl_set_free(dom);
	isl_qpolynomial_free(qp);
	return r;
}

struct affine_max {
	isl_pw_aff *acc;
	bool failed;
};

struct affine_piece {
	struct affine_max *am;
	isl_qpolynomial *qp;
};

static isl_stat affine_max_bset(__isl_take isl_basic_set *bset, void *user)
{
	struct affine_piece *ap = user;
	isl_pw_aff *m = piece_max(isl_set_from_basic_set(bset), isl_qpolynomial_copy(ap->qp), 0);
	if (!m) {
		ap->am->failed = true;
		return isl_stat_error;
	}
	ap->am->acc = ap->am->acc ? isl_pw_aff_union_max(ap->am->acc, m) : m;
	return ap->am->acc ? isl_stat_ok : isl_stat_error;
}

/* A piece this route may do: its value is affine, or involves a coordinate
 * (which may have few values on the piece).  A value that is not affine in the
 * parameters alone (n__M*m__N) has no affine maximum. */
static isl_stat affine_candidate(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp,
				 void *user)
{
	struct affine_max *am = user;
	isl_size ns = isl_set_dim(set, isl_dim_set);
	qp = isl_qpolynomial_gist(qp, set);
	isl_bool dep = ns < 0 || !qp ? isl_bool_error
				     : isl_qpolynomial_involves_dims(qp, isl_dim_in, 0, (unsigned)ns);
	isl_aff *aff = dep == isl_bool_false ? count_qp_aff(qp) : NULL;
	am->failed |= dep < 0 || (dep == isl_bool_false && !aff);
	isl_aff_free(aff);
	isl_qpolynomial_free(qp);
	return am->failed ? isl_stat_error : isl_stat_ok;
}

/* A piece whose value is affine in the coordinates and the parameters, or
 * becomes so once a coordinate with few values is fixed; each basic set of its
 * domain on its own, where the ranges of the coordinates are plainer. */
static isl_stat affine_max_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp,
				 void *user)
{
	struct affine_max *am = user;
	struct affine_piece ap = {am, qp};
	isl_stat st = isl_set_foreach_basic_set(set, affine_max_bset, &ap);
	isl_set_free(set);
	isl_qpolynomial_free(qp);
	return st;
}

/* Whether a floor of AFF has another floor in its argument.  ISL 0.25 turns
 * such an affine function into a wrong quasi-polynomial (see emit_flat), and
 * the formulas cannot print it, so route 3c refuses those. */
static isl_stat nested_floor(__isl_take isl_set *set, __isl_take isl_aff *aff, void *user)
{
	bool *nested = user;
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	for (int k = 0; k < nd && !*nested; k++) {
		isl_aff *d = isl_aff_get_div(aff, k);
		isl_size inner = d ? isl_aff_dim(d, isl_dim_div) : -1;
		isl_bool uses = isl_bool_false;
		for (int i = 0; i < inner && uses == isl_bool_false; i++) {
			isl_val *c = isl_aff_get_coefficient_val(d, isl_dim_div, i);
			uses = c ? isl_bool_not(isl_val_is_zero(c)) : isl_bool_error;
			isl_val_free(c);
		}
		*nested = inner < 0 || uses != isl_bool_false;
		isl_aff_free(d);
	}
	*nested |= nd < 0;
	isl_set_free(set);
	isl_aff_free(aff);
	return *nested ? isl_stat_error : isl_stat_ok;
}

/* Route 3c of count_max: G (a count: absent means 0) piece by piece as the
 * maximum of an affine value over the piece (see piece_max), and the largest
 * of those; NULL when a piece has no such form, or ISL failed. */
static __isl_give isl_pw_qpolynomial *max_affine_pieces(__isl_keep isl_pw_qpolynomial *g)
{
	struct affine_max am = {NULL, false};
	/* first, without any maximum: no piece is beyond this route */
	if (isl_pw_qpolynomial_foreach_piece(g, affine_candidate, &am) < 0 || am.failed)
		return NULL;
	bool nested = false;
	if (isl_pw_qpolynomial_foreach_piece(g, affine_max_piece, &am) < 0 || am.failed ||
	    !am.acc || isl_pw_aff_foreach_piece(am.acc, nested_floor, &nested) < 0 || nested) {
		isl_pw_aff_free(am.acc);
		return NULL;
	}
	return isl_pw_qpolynomial_from_pw_aff(am.acc);
}

enum count_status count_max_result(isl_ctx *ctx, enum count_status st, const char *msg,
				   __isl_take isl_pw_qpolynomial *r,
				   __isl_give isl_pw_qpolynomial **result, char **reason,
				   unsigned long old)
{
	if (st == COUNT_EXACT && !r && !session_ctx_stopped(ctx)) {
		struct fail f = {0};
		fail_isl(&f, ctx, "the maximum");
		isl_ctx_set_max_operations(ctx, old);
		*result = NULL;
		st = (enum count_status)f.kind;
		*reason = fail_release(&f);
		return st;
	}
	isl_ctx_set_max_operations(ctx, old);
	if (session_ctx_stopped(ctx)) {
		isl_pw_qpolynomial_free(r);
		*result = NULL;
		*reason = count_dup_msg(COUNT_DEADLINE_REASON);
		return COUNT_REFUSED;
	}
	if (st == COUNT_EXACT) {
		*result = count_clean_result(r);
		*reason = NULL;
		if (!*result) {
			struct fail f = {0};
			fail_isl(&f, ctx, "simplifying the maximum");
			st = (enum count_status)f.kind;
			*reason = fail_release(&f);
			return st;
		}
	} else {
		isl_pw_qpolynomial_free(r);
		*result = NULL;
		*reason = count_dup_msg(msg ? msg : "no exact route");
	}
	return st;
}

enum count_status count_max(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
			    __isl_keep isl_set *range, __isl_give isl_pw_qpolynomial **result,
			    char **reason)
{
	*result = NULL;
	*reason = NULL;
	if (!f) {
		*reason = count_dup_msg("no function to maximize");
		return COUNT_ERROR;
	}
	unsigned long old = count_start_limits(engine);
	isl_ctx *ctx = engine->ctx;
	isl_size ns = isl_pw_qpolynomial_dim(f, isl_dim_in);
	isl_size np = isl_pw_qpolynomial_dim(f, isl_dim_param);
	if (ns < 0 || np < 0)
		return count_max_result(ctx, COUNT_EXACT, NULL, NULL, result, reason, old);
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_copy(f);
	if (range)
		g = isl_pw_qpolynomial_intersect_domain(g, isl_set_copy(range));
	g = coalesce_pw_qpolynomial(g);
	isl_size npieces = isl_pw_qpolynomial_n_piece(g);
	isl_bool dep = isl_pw_qpolynomial_involves_dims(g, isl_dim_in, 0, (unsigned)ns);
	if (npieces < 0 || dep < 0) {
		isl_pw_qpolynomial_free(g);
		return count_max_result(ctx, COUNT_EXACT, NULL, NULL, result, reason, old);
	}
	/* Route 1: one piece whose value does not depend on the coordinates. */
	if (!dep && npieces <= 1) {
		isl_pw_qpolynomial *r = isl_pw_qpolynomial_project_domain_on_params(g);
		return count_max_result(ctx, COUNT_EXACT, NULL, r, result, reason, old);
	}
	/* Route 2: a finite, parameter-free box of coordinates: one candidate per
	 * point, and one candidate that is >= every other for all parameters. */
	isl_set *box = range ? isl_set_copy(range) : isl_pw_qpolynomial_domain(isl_pw_qpolynomial_copy(g));
	box = isl_set_project_out(box, isl_dim_param, 0, (unsigned)np);
	isl_bool bounded = isl_set_is_bounded(box);
	isl_val *npts = bounded == isl_bool_true ? isl_set_count_val(box) : NULL;
	long long count = -1;
	if (!val_to_ll(npts, &count))
		count = -1;
	if (bounded == isl_bool_true && count >= 0 && count <= 4096) {
		struct max_point mp = {g, NULL, 0, (int)count, false};
		mp.cand = calloc((size_t)count + 1, sizeof(*mp.cand));
		isl_stat st = mp.cand ? isl_set_foreach_point(box, max_collect, &mp) : isl_stat_error;
		int winner = st >= 0 && !mp.failed && mp.n > 0 ? dominator(mp.cand, mp.n) : -1;
		if (winner == -2)
			mp.failed = true;
		isl_pw_qpolynomial *r = NULL;
		if (winner >= 0)
			r = isl_pw_qpolynomial_copy(mp.cand[winner]);
		else if (mp.n == 0 && st >= 0 && !mp.failed)
			r = isl_pw_qpolynomial_zero(isl_space_add_dims(
				isl_space_params(isl_pw_qpolynomial_get_domain_space(g)), isl_dim_out, 1));
		for (int i = 0; i < mp.n; i++)
			isl_pw_qpolynomial_free(mp.cand[i]);
		free(mp.cand);
		if (r || st < 0 || mp.failed) {
			isl_set_free(box);
			isl_pw_qpolynomial_free(g);
			if (!r)
				return count_max_result(ctx, COUNT_EXACT, NULL, NULL, result, reason, old);
			return count_max_result(ctx, COUNT_EXACT, NULL, r, result, reason, old);
		}
	}
	isl_set_free(box);
	/* Route 3: no piece's value depends on the coordinates (only its domain
	 * does): the maximum is that of the values of the pieces some coordinate
	 * reaches, each piece a fold over its domain's projection on the
	 * parameters; exact when the folds reduce to one value per piece. */
	{
		isl_pw_qpolynomial_fold *fold = count_fold_of_pieces(g);
		if (fold) {
			struct fold_conv fc = {NULL, true};
			fc.acc = isl_pw_qpolynomial_zero(isl_space_add_dims(
				isl_space_params(isl_pw_qpolynomial_fold_get_domain_space(fold)),
				isl_dim_out, 1));
			if (isl_pw_qpolynomial_fold_foreach_piece(fold, fold_piece_to_pw, &fc) >= 0 &&
			    fc.single) {
				isl_pw_qpolynomial_fold_free(fold);
				isl_pw_qpolynomial_free(g);
				return count_max_result(ctx, COUNT_EXACT, NULL, fc.acc, result, reason, old);
			}
			isl_pw_qpolynomial_free(fc.acc);
		}
		isl_pw_qpolynomial_fold_free(fold);
	}
	/* Route 3c: each piece's value is affine, or becomes so once the few
	 * values of a coordinate are fixed: the parametric integer maximum of each,
	 * and the largest of those (before ISL's bound, which can spend its whole
	 * operation limit on such pieces and fail). */
	{
		isl_pw_qpolynomial *am = max_affine_pieces(g);
		if (am) {
			isl_pw_qpolynomial_free(g);
			return count_max_result(ctx, COUNT_EXACT, NULL, am, result, reason, old);
		}
		isl_ctx_reset_error(ctx);
	}
	/* Route 4: ISL's bound, when it says the bound is tight and each piece is a
	 * single quasi-polynomial. */
	isl_bool tight = isl_bool_false;
	isl_pw_qpolynomial_fold *ub = isl_pw_qpolynomial_bound(isl_pw_qpolynomial_copy(g),
							       isl_fold_max, &tight);
	isl_pw_qpolynomial_free(g);
	if (!ub)
		return count_max_result(ctx, COUNT_EXACT, NULL, NULL, result, reason, old);
	if (tight == isl_bool_true) {
		struct fold_conv fc = {NULL, true};
		fc.acc = isl_pw_qpolynomial_zero(isl_space_add_dims(
			isl_space_params(isl_pw_qpolynomial_fold_get_domain_space(ub)), isl_dim_out, 1));
		if (isl_pw_qpolynomial_fold_foreach_piece(ub, fold_piece_to_pw, &fc) >= 0 && fc.single) {
			isl_pw_qpolynomial_fold_free(ub);
			return count_max_result(ctx, COUNT_EXACT, NULL, fc.acc, result, reason, old);
		}
		isl_pw_qpolynomial_free(fc.acc);
	}
	isl_pw_qpolynomial_fold_free(ub);
	return count_max_result(ctx, COUNT_REFUSED,
			  "none of them is the largest for all sizes, and the largest has no "
			  "exact formula here (they range over no fixed box, and ISL's bound "
			  "is not proven exact); -D counts it at values",
			  NULL, result, reason, old);
}

/* count_max_values: the state of the walk over F's pieces. */
struct max_values {
	isl_set *box;          /* the coordinates, as set dimensions */
	isl_val *best;         /* the largest value so far */
	long points_left;      /* points that may still be enumerated */
	isl_qpolynomial *qp;   /* the piece being enumerated */
	struct fail fail;      /* the first failure (analyzer/util/fail.h) */
};

static void max_values_take(struct max_values *mv, __isl_take isl_val *v)
{
	if (!v || isl_val_is_nan(v) || isl_val_is_infty(v) || isl_val_is_neginfty(v)) {
		if (!v)
			fail_isl(&mv->fail, isl_set_get_ctx(mv->box), "optimizing over the processes");
		else
			fail_set(&mv->fail, FAIL_ERROR,
				 "optimizing over the processes: no finite maximum");
		isl_val_free(v);
		return;
	}
	if (isl_val_gt(v, mv->best)) {
		isl_val_free(mv->best);
		mv->best = v;
	} else {
		isl_val_free(v);
	}
}

static isl_stat max_values_point(__isl_take isl_point *pt, void *user)
{
	struct max_values *mv = user;
	if (mv->points_left-- <= 0) {
		isl_point_free(pt);
		fail_set(&mv->fail, FAIL_REFUSED,
			 "a value that is not affine in the process coordinates over more "
			 "processes than are enumerated one by one");
		return isl_stat_error;
	}
	max_values_take(mv, isl_qpolynomial_eval(isl_qpolynomial_copy(mv->qp), pt));
	return !failed(&mv->fail) ? isl_stat_ok : isl_stat_error;
}

/* The points of DOM one by one, QP's value at each: bounded by max_points,
 * not by the operation limit (an enumeration needs a few ISL operations a
 * point, and the number of points is what bounds it). */
static void max_values_enumerate(struct max_values *mv, __isl_keep isl_set *dom,
				 __isl_keep isl_qpolynomial *qp)
{
	isl_ctx *ctx = isl_set_get_ctx(dom);
	unsigned long limit = isl_ctx_get_max_operations(ctx);
	isl_ctx_set_max_operations(ctx, 0);
	mv->qp = qp;
	if (isl_set_foreach_point(dom, max_values_point, mv) < 0 && !failed(&mv->fail))
		fail_isl(&mv->fail, ctx, "optimizing over the processes");
	mv->qp = NULL;
	isl_ctx_reset_operations(ctx);
	isl_ctx_set_max_operations(ctx, limit);
}

/* max_values_cells: the distinct floors of a piece's value and the cell of
 * the piece's domain being evaluated (every floor fixed to one value). */
enum { MAX_CELL_DIVS = 8, MAX_CELLS = 1024 };

struct cells {
	int ndivs;
	isl_aff *div[MAX_CELL_DIVS];  /* floor(div[k]) takes the values lo[k]..hi[k] */
	long lo[MAX_CELL_DIVS], hi[MAX_CELL_DIVS], at[MAX_CELL_DIVS];
	isl_aff *aff;                 /* the value on the cell, being built */
	bool ok;                      /* every floor known (collecting) / affine (building) */
	bool error;                   /* an ISL operation failed */
};

/* The index of the floor of TERM's div POS among C's, added when new; -1 when
 * there are too many. */
static int cells_div(struct cells *c, __isl_keep isl_term *term, unsigned pos)
{
	isl_aff *d = isl_aff_floor(isl_term_get_div(term, pos));
	if (!d)
		return -1;
	for (int k = 0; k < c->ndivs; k++) {
		isl_bool eq = isl_aff_plain_is_equal(c->div[k], d);
		if (eq != isl_bool_false) {
			isl_aff_free(d);
			return eq == isl_bool_true ? k : -1;
		}
	}
	if (c->ndivs == MAX_CELL_DIVS) {
		isl_aff_free(d);
		return -1;
	}
	c->div[c->ndivs] = d;
	return c->ndivs++;
}

static isl_stat cells_collect(__isl_take isl_term *term, void *user)
{
	struct cells *c = user;
	isl_size nd = isl_term_dim(term, isl_dim_div);
	if (nd < 0)
		c->ok = false;
	for (int j = 0; j < nd && c->ok; j++)
		if (isl_term_get_exp(term, isl_dim_div, (unsigned)j) != 0 &&
		    cells_div(c, term, (unsigned)j) < 0)
			c->ok = false;
	isl_term_free(term);
	return c->ok ? isl_stat_ok : isl_stat_error;
}

/* One term of the value with every floor at its value in the cell C->at: a
 * constant or a multiple of one coordinate, added to C->aff; C->ok false when
 * the term is of a higher degree in the coordinates. */
static isl_stat cells_term(__isl_take isl_term *term, void *user)
{
	struct cells *c = user;
	isl_val *v = isl_term_get_coefficient_val(term);
	isl_size nd = isl_term_dim(term, isl_dim_div);
	isl_size ns = isl_term_dim(term, isl_dim_set);
	isl_size np = isl_term_dim(term, isl_dim_param);
	int deg = 0, var = -1;
	if (nd < 0 || ns < 0 || np != 0)
		c->ok = false;
	for (int j = 0; j < nd && c->ok; j++) {
		isl_size e = isl_term_get_exp(term, isl_dim_div, (unsigned)j);
		int k = e ? cells_div(c, term, (unsigned)j) : 0;
		if (e < 0 || k < 0)
			c->ok = false;
		for (int r = 0; r < e && c->ok; r++)
			v = isl_val_mul(v, isl_val_int_from_si(isl_term_get_ctx(term), c->at[k]));
	}
	if (!v) {
		/* never a partial sum: the cell's value is then unknown */
		c->ok = false;
		c->error = true;
	}
	for (int i = 0; i < ns && c->ok; i++) {
		isl_size e = isl_term_get_exp(term, isl_dim_set, (unsigned)i);
		if (e < 0)
			c->ok = false;
		deg += e;
		if (e)
			var = i;
	}
	if (deg > 1)
		c->ok = false;
	if (c->ok && v) {
		isl_aff *x = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(c->aff));
		x = deg == 0 ? isl_aff_add_constant_val(x, v)
			     : isl_aff_set_coefficient_val(x, isl_dim_in, var, v);
		v = NULL;
		c->aff = isl_aff_add(c->aff, x);
	}
	isl_val_free(v);
	isl_term_free(term);
	return c->ok && c->aff ? isl_stat_ok : isl_stat_error;
}

/* The maximum of AFF over SET taken into MV; false, having taken nothing,
 * when ISL's optimization is too costly (floors of several coordinates). */
static bool max_values_aff(struct max_values *mv, __isl_keep isl_set *set,
			   __isl_take isl_aff *aff)
{
	/* ISL maximizes integer expressions: (12 - q)/3 as 12 - q, then / 3 */
	isl_ctx *ctx = isl_set_get_ctx(set);
	isl_val *den = isl_aff_get_denominator_val(aff);
	aff = isl_aff_scale_val(aff, isl_val_copy(den));
	isl_val *v = isl_set_max_val(set, aff);
	isl_aff_free(aff);
	if (!v && isl_ctx_last_error(ctx) == isl_error_quota) {
		isl_val_free(den);
		isl_ctx_reset_error(ctx);
		return false;
	}
	max_values_take(mv, isl_val_div(v, den));
	return true;
}

/* The cells of DOM, floors K.. still to fix; the affine value on each cell
 * maximized by ISL, or, where it is not affine, the cell's points one by one. */
static void max_values_cell_walk(struct max_values *mv, struct cells *c, int k,
				 __isl_take isl_set *cell, __isl_keep isl_qpolynomial *qp)
{
	/* each cell its own operation budget: there are at most MAX_CELLS */
	isl_ctx_reset_operations(isl_set_get_ctx(cell));
	isl_bool empty = isl_set_is_empty(cell);
	if (empty < 0)
		fail_isl(&mv->fail, isl_set_get_ctx(cell), "optimizing over the processes");
	if (empty != isl_bool_false || failed(&mv->fail)) {
		isl_set_free(cell);
		return;
	}
	if (k < c->ndivs) {
		for (long v = c->lo[k]; v <= c->hi[k] && !failed(&mv->fail); v++) {
			isl_aff *d = isl_aff_add_constant_si(isl_aff_copy(c->div[k]), -v);
			c->at[k] = v;
			max_values_cell_walk(mv, c, k + 1,
					     isl_set_intersect(isl_set_copy(cell),
							       isl_set_from_basic_set(isl_aff_zero_basic_set(d))),
					     qp);
		}
		isl_set_free(cell);
		return;
	}
	c->ok = true;
	c->aff = isl_aff_zero_on_domain(isl_local_space_from_space(isl_set_get_space(cell)));
	if ((isl_qpolynomial_foreach_term(qp, cells_term, c) < 0 && c->ok) || c->error)
		fail_isl(&mv->fail, isl_set_get_ctx(cell), "optimizing over the processes");
	bool taken = c->ok && !failed(&mv->fail) && max_values_aff(mv, cell, c->aff);
	if (!(c->ok && !failed(&mv->fail)))
		isl_aff_free(c->aff);
	c->aff = NULL;
	if (!taken && !failed(&mv->fail))
		max_values_enumerate(mv, cell, qp);
	isl_set_free(cell);
}

/* The maximum of QP over DOM by cells: each floor of QP takes few values over
 * DOM (its minimum and maximum by ISL), and with every floor fixed the value
 * is affine in the coordinates on most cells.  Returns false, having done
 * nothing, when QP has too many floors or DOM too many cells. */
static bool max_values_cells(struct max_values *mv, __isl_keep isl_set *dom,
			     __isl_keep isl_qpolynomial *qp)
{
	struct cells c = {.ok = true};
	bool done = false;
	isl_ctx *ctx = isl_set_get_ctx(dom);
	/* after a direct optimization that ran out of operations, a budget of
	 * its own (each cell then has one: there are at most MAX_CELLS) */
	isl_ctx_reset_operations(ctx);
	if (isl_qpolynomial_foreach_term(qp, cells_collect, &c) < 0 || !c.ok || c.ndivs == 0)
		goto out;
	long ncells = 1;
	for (int k = 0; k < c.ndivs; k++) {
		isl_val *lo = isl_set_min_val(dom, c.div[k]);
		isl_val *hi = isl_set_max_val(dom, c.div[k]);
		bool fits = lo && hi && isl_val_is_int(lo) && isl_val_is_int(hi) &&
			    isl_val_cmp_si(lo, -(1L << 40)) > 0 && isl_val_cmp_si(hi, 1L << 40) < 0;
		if (fits) {
			c.lo[k] = isl_val_get_num_si(lo);
			c.hi[k] = isl_val_get_num_si(hi);
		}
		isl_val_free(lo);
		isl_val_free(hi);
		if (!fits && isl_ctx_last_error(ctx) != isl_error_none &&
		    isl_ctx_last_error(ctx) != isl_error_quota) {
			fail_isl(&mv->fail, ctx, "optimizing over the processes");
			done = true;
			goto out;
		}
		if (!fits) {
			isl_ctx_reset_error(ctx);
			goto out;
		}
		ncells *= c.hi[k] - c.lo[k] + 1;
		if (ncells > MAX_CELLS)
			goto out;
	}
	max_values_cell_walk(mv, &c, 0, isl_set_copy(dom), qp);
	done = true;
out:
	for (int k = 0; k < c.ndivs; k++)
		isl_aff_free(c.div[k]);
	return done;
}

static isl_stat max_values_piece(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp,
				 void *user)
{
	struct max_values *mv = user;
	dom = isl_set_intersect(dom, isl_set_copy(mv->box));
	isl_bool empty = isl_set_is_empty(dom);
	isl_aff *aff = empty == isl_bool_false ? count_qp_aff(qp) : NULL;
	if (empty < 0) {
		fail_isl(&mv->fail, isl_set_get_ctx(mv->box), "optimizing over the processes");
	} else if (aff) {
		/* an optimization too costly (floors of several coordinates): by
		 * cells, or the piece's points one by one, within the limit */
		if (!max_values_aff(mv, dom, aff) && !max_values_cells(mv, dom, qp))
			max_values_enumerate(mv, dom, qp);
	} else if (!empty && !max_values_cells(mv, dom, qp)) {
		max_values_enumerate(mv, dom, qp);
	}
	isl_set_free(dom);
	isl_qpolynomial_free(qp);
	return !failed(&mv->fail) ? isl_stat_ok : isl_stat_error;
}

enum count_status count_max_values(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
				   __isl_keep isl_set *box, long max_points,
				   __isl_give isl_val **result, char **reason)
{
	*result = NULL;
	*reason = NULL;
	isl_ctx *ctx = engine->ctx;
	unsigned long old = count_start_limits(engine);
	/* f and box on the same parameters, in the same order */
	/* (the intersection aligns the parameters; box is on parameters only) */
	isl_set *pbox = isl_set_params(isl_set_copy(box));
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_intersect_domain(isl_pw_qpolynomial_copy(f),
								    isl_set_copy(pbox));
	isl_set *b = g ? isl_set_align_params(isl_set_copy(pbox),
					      isl_pw_qpolynomial_get_domain_space(g))
		       : NULL;
	isl_set_free(pbox);
	isl_size np = b ? isl_set_dim(b, isl_dim_param) : -1;
	isl_size nb = b ? isl_set_dim(box, isl_dim_param) : -1;
	isl_size ns = g ? isl_pw_qpolynomial_dim(g, isl_dim_in) : -1;
	struct max_values mv = {.best = isl_val_zero(ctx), .points_left = max_points};
	if (np < 0 || nb < 0 || ns < 0) {
		fail_isl(&mv.fail, ctx, "optimizing over the processes");
	} else if (np != nb || ns != 0) {
		fail_set(&mv.fail, FAIL_ERROR,
			 "the function to maximize depends on more than the process coordinates");
	} else {
		g = isl_pw_qpolynomial_move_dims(g, isl_dim_in, 0, isl_dim_param, 0, (unsigned)np);
		mv.box = isl_set_move_dims(b, isl_dim_set, 0, isl_dim_param, 0, (unsigned)np);
		b = NULL;
		if (!g || !mv.box) {
			fail_isl(&mv.fail, ctx, "optimizing over the processes");
		} else {
			isl_pw_qpolynomial_foreach_piece(g, max_values_piece, &mv);
		}
	}
	isl_set_free(b);
	isl_set_free(mv.box);
	isl_pw_qpolynomial_free(g);
	if (!failed(&mv.fail) && isl_ctx_last_error(ctx) == isl_error_quota)
		fail_isl(&mv.fail, ctx, "optimizing over the processes");
	isl_ctx_set_max_operations(ctx, old);
	if (failed(&mv.fail)) {
		isl_val_free(mv.best);
		enum count_status st = (enum count_status)mv.fail.kind;
		*reason = fail_release(&mv.fail);
		isl_ctx_reset_error(ctx);
		return st;
	}
	*result = mv.best;
	return COUNT_EXACT;
}

enum count_status count_max_of_count(struct count_engine *engine, __isl_keep isl_set *set,
				     int n_max, __isl_give isl_pw_qpolynomial **result,
				     char **reason)
{
	*result = NULL;
	*reason = NULL;
	isl_size np = isl_set_dim(set, isl_dim_param);
	isl_size nd = isl_set_dim(set, isl_dim_set);
	if (np < 0 || nd < 0 || n_max < 0 || n_max > nd) {
		*reason = count_dup_msg("bad set or number of maximized coordinates");
		return COUNT_ERROR;
	}
	/* the coordinates become parameters, counted over; then back to set dims */
	isl_set *s = isl_set_move_dims(isl_set_copy(set), isl_dim_param, (unsigned)np,
				       isl_dim_set, 0, (unsigned)n_max);
	isl_set *range = isl_set_params(isl_set_copy(s));
	isl_pw_qpolynomial *c;
	enum count_status st = count_points(engine, s, &c, reason);
	isl_set_free(s);
	if (st != COUNT_EXACT) {
		isl_set_free(range);
		return st;
	}
	c = isl_pw_qpolynomial_move_dims(c, isl_dim_in, 0, isl_dim_param, (unsigned)np,
					 (unsigned)n_max);
	range = isl_set_move_dims(range, isl_dim_set, 0, isl_dim_param, (unsigned)np,
				  (unsigned)n_max);
	st = count_max(engine, c, range, result, reason);
	isl_pw_qpolynomial_free(c);
	isl_set_free(range);
	return st;
}

/* ------------------------------------------------------- separable maximum */

struct constraint_groups {
	int *parent;
	int ns;
	bool failed;
};

/* Each constraint of the range links the coordinates it names. */
static isl_stat link_constraint(__isl_take isl_constraint *c, void *user)
{
	struct constraint_groups *cg = user;
	unsigned long long mask = 0;
	for (int d = 0; d < cg->ns; d++) {
		isl_bool inv = isl_constraint_involves_dims(c, isl_dim_set, (unsigned)d, 1);
		if (inv < 0)
			cg->failed = true;
		if (inv == isl_bool_true)
			mask |= 1ull << d;
	}
	isl_constraint_free(c);
	count_group_link(cg->parent, cg->ns, mask);
	return cg->failed ? isl_stat_error : isl_stat_ok;
}

/* F (taken) without the coordinates outside MASK, which it does not involve;
 * RANGE likewise, projected (exact: a product of its groups). */
static __isl_give isl_pw_qpolynomial *keep_coordinates(__isl_take isl_pw_qpolynomial *f, int ns,
						       unsigned long long mask)
{
	for (int d = ns - 1; d >= 0 && f; d--)
		if (!(mask >> d & 1))
			f = isl_pw_qpolynomial_drop_dims(f, isl_dim_in, (unsigned)d, 1);
	return f;
}

static __isl_give isl_set *keep_range(__isl_take isl_set *range, int ns, unsigned long long mask)
{
	for (int d = ns - 1; d >= 0 && range; d--)
		if (!(mask >> d & 1))
			range = isl_set_project_out(range, isl_dim_set, (unsigned)d, 1);
	return range;
}

enum count_status count_separate(struct count_engine *engine,
				 __isl_keep isl_pw_qpolynomial *const *terms, int n,
				 __isl_keep isl_set *range, struct count_groups *out, char **reason)
{
	memset(out, 0, sizeof(*out));
	*reason = NULL;
	isl_ctx *ctx = engine->ctx;
	isl_size ns = range ? isl_set_dim(range, isl_dim_set) : -1;
	if (ns < 1 || ns > 63 || n < 2) {
		*reason = count_dup_msg("no sum of terms over a box of coordinates");
		return COUNT_REFUSED;
	}
	int parent[64];
	for (int d = 0; d < ns; d++)
		parent[d] = d;
	/* the range: one basic set without existentials, each constraint
	 * linking the coordinates it names */
	isl_set *box = isl_set_coalesce(isl_set_copy(range));
	isl_basic_set_list *bl = box ? isl_set_get_basic_set_list(box) : NULL;
	isl_size nb = bl ? isl_basic_set_list_n_basic_set(bl) : -1;
	isl_basic_set *bs = nb == 1 ? isl_basic_set_list_get_basic_set(bl, 0) : NULL;
	isl_basic_set_list_free(bl);
	isl_set_free(box);
	struct constraint_groups cg = {parent, ns, false};
	if (!bs || isl_basic_set_dim(bs, isl_dim_div) != 0 ||
	    isl_basic_set_foreach_constraint(bs, link_constraint, &cg) < 0 || cg.failed) {
		isl_basic_set_free(bs);
		isl_ctx_reset_error(ctx);
		*reason = count_dup_msg("the coordinates range over no box");
		return COUNT_REFUSED;
	}
	isl_basic_set_free(bs);
	/* each term, on the range, and the coordinates it involves */
	isl_pw_qpolynomial **g = calloc((size_t)n, sizeof(*g));
	unsigned long long *mask = calloc((size_t)n, sizeof(*mask));
	bool bad = !g || !mask;
	for (int t = 0; t < n && !bad; t++) {
		if (!terms[t])
			continue;
		g[t] = isl_pw_qpolynomial_intersect_domain(isl_pw_qpolynomial_copy(terms[t]),
							   isl_set_copy(range));
		g[t] = isl_pw_qpolynomial_gist(g[t], isl_set_copy(range));
		for (int d = 0; d < ns && g[t]; d++) {
			isl_bool inv = isl_pw_qpolynomial_involves_dims(g[t], isl_dim_in, (unsigned)d, 1);
			bad |= inv < 0;
			if (inv == isl_bool_true)
				mask[t] |= 1ull << d;
		}
		bad |= !g[t];
		count_group_link(parent, ns, mask[t]);
	}
	/* the groups that some term involves */
	bool root_used[64] = {false};
	int ngroups = 0;
	for (int t = 0; t < n && !bad; t++) {
		if (!mask[t])
			continue;
		int root = count_group_root(parent, __builtin_ctzll(mask[t]));
		ngroups += !root_used[root];
		root_used[root] = true;
	}
	enum count_status st = COUNT_EXACT;
	if (bad) {
		st = COUNT_ERROR;
	} else if (ngroups < 2) {
		st = COUNT_REFUSED;
		*reason = count_dup_msg("the terms do not split over the coordinates");
	} else {
		out->f = calloc((size_t)ngroups, sizeof(*out->f));
		out->range = calloc((size_t)ngroups, sizeof(*out->range));
		out->ndims = calloc((size_t)ngroups, sizeof(*out->ndims));
		if (!out->f || !out->range || !out->ndims)
			st = COUNT_ERROR;
	}
	/* the terms that involve no coordinate: their value, once */
	for (int t = 0; t < n && st == COUNT_EXACT; t++) {
		if (!g[t] || mask[t])
			continue;
		/* where the range has points: the gist dropped the range's own
		 * conditions on the parameters (M >= 1) with the rest */
		isl_pw_qpolynomial *c = isl_pw_qpolynomial_project_domain_on_params(
			keep_coordinates(isl_pw_qpolynomial_copy(g[t]), ns, 0));
		c = isl_pw_qpolynomial_intersect_params(c, isl_set_params(isl_set_copy(range)));
		out->constant = out->constant ? isl_pw_qpolynomial_add(out->constant, c) : c;
		if (!out->constant)
			st = COUNT_ERROR;
	}
	/* each group: the sum of its terms, on its own coordinates */
	for (int root = 0; root < ns && st == COUNT_EXACT; root++) {
		if (!root_used[root])
			continue;
		unsigned long long dims = 0;
		for (int d = 0; d < ns; d++)
			if (count_group_root(parent, d) == root)
				dims |= 1ull << d;
		isl_pw_qpolynomial *sum = NULL;
		for (int t = 0; t < n; t++) {
			if (!g[t] || !mask[t] || (mask[t] & ~dims))
				continue;
			isl_pw_qpolynomial *x = isl_pw_qpolynomial_copy(g[t]);
			sum = sum ? isl_pw_qpolynomial_add(sum, x) : x;
		}
		int k = out->n++;
		out->f[k] = keep_coordinates(sum, ns, dims);
		out->range[k] = keep_range(isl_set_copy(range), ns, dims);
		out->ndims[k] = __builtin_popcountll(dims);
		if (!out->f[k] || !out->range[k])
			st = COUNT_ERROR;
	}
	for (int t = 0; g && t < n; t++)
		isl_pw_qpolynomial_free(g[t]);
	free(g);
	free(mask);
	if (st != COUNT_EXACT) {
		count_groups_clear(out);
		if (st == COUNT_ERROR) {
			struct fail f = {0};
			fail_isl(&f, ctx, "splitting a sum over the coordinates");
			*reason = fail_release(&f);
			st = (enum count_status)f.kind;
		}
	}
	return st;
}

void count_groups_clear(struct count_groups *g)
{
	for (int k = 0; k < g->n; k++) {
		isl_pw_qpolynomial_free(g->f[k]);
		isl_set_free(g->range[k]);
	}
	free(g->f);
	free(g->range);
	free(g->ndims);
	isl_pw_qpolynomial_free(g->constant);
	memset(g, 0, sizeof(*g));
}
