/* Supersteps in loops: their sums over the iterations.
 *
 * A loop's variable is a parameter of the model (model.h, struct
 * model_loop); each superstep in a loop is counted like any other with the
 * variable left a parameter, and this file turns one iteration's counts into
 * their sums: in closed form over the symbolic or a concrete grid
 * (cost_loop_totals), or as numbers with every value known
 * (cost_count_loop_values: the variable a parameter, the maxima over the
 * processes a few functions of it from one count at the values or one
 * function per process, summed by envelopes; else iteration by
 * iteration).
 *
 * Why this file is long: the values' path (the envelope of the processes'
 * functions, residue classes of the floors, the iteration-by-iteration
 * fallback) is one algorithm with its helpers. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/cost/cost_internal.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/count/count_compiled.h"
#include "analyzer/count/count_poly.h"
#include "analyzer/model/relations.h"
#include "analyzer/model/symbolic.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/session.h"
#include "analyzer/util/val.h"

/* --- supersteps in loops --- */

/* The positions of the variables of superstep S's loops among the model's
 * parameters, innermost first (the highest position first: an outer loop's
 * variable comes before an inner one's); returns their number. */
static int loop_params(const struct model *m, int s, int pos[])
{
	int n = 0;
	for (int l = m->steps[s].loop; l >= 0; l = m->loops[l].outer)
		pos[n++] = m->loops[l].param;
	return n;
}

/* The geometric loop s = 1, 2, 4, ... < B around superstep S, when it is
 * the superstep's only loop and B is one size or grid axis, on the
 * symbolic grid: its sums are taken under the assumption that B is a power
 * of two (geometric_sum); NULL otherwise.  *BOUND: B's name. */
const struct model_loop *cost_doubling_loop(const struct job *j, int s, const char **bound)
{
	int l = j->m->steps[s].loop;
	if (!j->symbolic || l < 0)
		return NULL;
	const struct model_loop *lp = &j->m->loops[l];
	const struct model_aff *hi = &lp->hi;
	if (lp->outer >= 0 || lp->ratio != 2 || lp->lo.nterms != 0 || lp->lo.constant != 1 ||
	    hi->constant != 0 || hi->nterms != 1 || hi->terms[0].coef != 1)
		return NULL;
	const struct model_term *t = &hi->terms[0];
	if (t->kind == MODEL_PARAM && t->index < j->m->nparams)
		*bound = j->m->params[t->index];
	else if (t->kind == MODEL_AXIS)
		*bound = j->m->axes[t->index];
	else
		return NULL;
	for (int k = 0; k < j->m->nloops; k++)
		if (strcmp(*bound, j->m->params[j->m->loops[k].param]) == 0)
			return NULL; /* an outer loop's variable: not a size */
	return lp;
}

/* The parameter that counts the iterations of the doubling loops up to
 * BOUND, log2(BOUND): lg_BOUND, or lg_BOUND_2, ... when that is taken;
 * made once per bound and job (J->geometric_*); NULL when out of memory or
 * past COST_DOUBLING_MAX bounds. */
const char *cost_doubling_name(struct job *j, const char *bound)
{
	for (int k = 0; k < j->ngeometric; k++)
		if (strcmp(j->geometric_bound[k], bound) == 0)
			return j->geometric_name[k];
	if (j->ngeometric == COST_DOUBLING_MAX)
		return NULL;
	char *name = NULL;
	for (int k = 1; k < 100; k++) {
		free(name);
		if ((k == 1 ? asprintf(&name, "lg_%s", bound)
			    : asprintf(&name, "lg_%s_%d", bound, k)) < 0)
			return NULL;
		bool taken = symbolic_name_taken(j->m, j->info, name);
		for (int g = 0; g < j->ngeometric; g++)
			taken |= strcmp(j->geometric_name[g], name) == 0;
		if (!taken)
			break;
	}
	char *b = strdup(bound);
	if (!b) {
		free(name);
		return NULL;
	}
	j->geometric_name[j->ngeometric] = name;
	j->geometric_bound[j->ngeometric++] = b;
	return name;
}

void cost_doubling_failed(struct job *j, const char *what)
{
	if (j->ngeometric < COST_DOUBLING_MAX) {
		cost_isl_op_failed(j, what);
		return;
	}
	char *why = NULL;
	if (asprintf(&why, "doubling loops up to more than %d different bounds in one program: "
			   "the symbolic grid sums the levels of %d bounds (lg_B each); -D counts them",
		     COST_DOUBLING_MAX, COST_DOUBLING_MAX) < 0)
		why = NULL;
	cost_job_fail(j, COST_REFUSED, why, what);
}

/* The largest power of S (set dimension 0) in TERM, and whether a floor
 * of the term involves S. */
struct s_degree {
	int degree;
	bool floor_s, failed;
};

static isl_stat s_degree_term(__isl_take isl_term *term, void *user)
{
	struct s_degree *sd = user;
	isl_size e = isl_term_get_exp(term, isl_dim_set, 0);
	sd->failed |= e < 0;
	if (e > sd->degree)
		sd->degree = e;
	isl_size n = isl_term_dim(term, isl_dim_div);
	sd->failed |= n < 0;
	for (int d = 0; d < n; d++) {
		isl_size x = isl_term_get_exp(term, isl_dim_div, (unsigned)d);
		if (x <= 0)
			continue;
		isl_aff *div = isl_term_get_div(term, (unsigned)d);
		isl_bool in = div ? isl_aff_involves_dims(div, isl_dim_in, 0, 1) : isl_bool_error;
		sd->failed |= in < 0;
		sd->floor_s |= in == isl_bool_true;
		isl_aff_free(div);
	}
	isl_term_free(term);
	return isl_stat_ok;
}

enum { GEOMETRIC_MAX_DEGREE = 4 };

/* geometric_sum: the state of the walk over F's pieces. */
struct geo_sum {
	isl_set *dom;               /* the iterations, 1 <= s < B, s a set dimension */
	isl_qpolynomial *S[GEOMETRIC_MAX_DEGREE + 1]; /* sum over s = 2^t < B of s^e */
	isl_pw_qpolynomial *acc;
	bool refused;
};

/* One piece of F: a polynomial in s of degree d at every iteration of its
 * sizes, q(s) = sum_k q(k) * L_k(s) (Lagrange at 0..d); its sum over the
 * iterations sum_k q(k) * sum_e [s^e]L_k * S[e]. */
static isl_stat geo_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct geo_sum *gs = user;
	isl_set *all = isl_set_intersect_params(isl_set_copy(gs->dom),
						isl_set_params(isl_set_copy(set)));
	isl_bool covers = isl_set_is_subset(all, set);
	isl_set_free(all);
	struct s_degree sd = {0, false, false};
	if (covers == isl_bool_true &&
	    isl_qpolynomial_foreach_term(qp, s_degree_term, &sd) < 0)
		sd.failed = true;
	if (covers != isl_bool_true || sd.failed || sd.floor_s ||
	    sd.degree > GEOMETRIC_MAX_DEGREE) {
		gs->refused = true;
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	int d = sd.degree;
	isl_ctx *ctx = isl_qpolynomial_get_ctx(qp);
	isl_space *pspace = isl_space_params(isl_qpolynomial_get_domain_space(qp));
	isl_pw_qpolynomial *sum = isl_pw_qpolynomial_from_qpolynomial(
		isl_qpolynomial_zero_on_domain(isl_space_copy(pspace)));
	for (int k = 0; k <= d && sum; k++) {
		/* N_k(s) = prod_{i != k} (s - i), D_k = prod_{i != k} (k - i) */
		long long c[GEOMETRIC_MAX_DEGREE + 1] = {1}, den = 1;
		for (int i = 0, deg = 0; i <= d; i++) {
			if (i == k)
				continue;
			for (int e = deg + 1; e >= 0; e--)
				c[e] = (e > 0 ? c[e - 1] : 0) - (long long)i * c[e];
			deg++;
			den *= k - i;
		}
		isl_qpolynomial *w = isl_qpolynomial_zero_on_domain(isl_space_copy(pspace));
		for (int e = 0; e <= d; e++)
			if (c[e])
				w = isl_qpolynomial_add(w, isl_qpolynomial_scale_val(
					isl_qpolynomial_copy(gs->S[e]),
					isl_val_div(isl_val_int_from_si(ctx, (long)c[e]),
						    isl_val_int_from_si(ctx, (long)den))));
		/* q(k): s fixed in the polynomial (its floors, of the sizes
		 * only, stay), on every point of the sizes */
		isl_pw_qpolynomial *qk = isl_pw_qpolynomial_fix_val(
			isl_pw_qpolynomial_from_qpolynomial(isl_qpolynomial_copy(qp)), isl_dim_in, 0,
			isl_val_int_from_si(ctx, k));
		qk = isl_pw_qpolynomial_project_domain_on_params(qk);
		sum = isl_pw_qpolynomial_add(
			sum, isl_pw_qpolynomial_mul(qk, isl_pw_qpolynomial_from_qpolynomial(w)));
	}
	isl_space_free(pspace);
	isl_qpolynomial_free(qp);
	isl_pw_qpolynomial *piece = isl_pw_qpolynomial_intersect_domain(sum, isl_set_params(set));
	gs->acc = gs->acc ? isl_pw_qpolynomial_add(gs->acc, piece) : piece;
	return gs->acc ? isl_stat_ok : isl_stat_error;
}

/* The sum of F (taken) over s = 1, 2, 4, ... < B, superstep S's doubling
 * loop (cost_doubling_loop), where B = 2^lg_B: a function of the other
 * parameters and lg_B.  Each piece of F must be one polynomial in s at
 * every iteration (s within 1 <= s < B, not only the powers of two: proven
 * for more than needed), without floors of s; then sum_{t < lg_B} (2^t)^e
 * is lg_B for e = 0 and (B^e - 1)/(2^e - 1) otherwise.  NULL after a
 * failure (the job refused). */
static __isl_give isl_pw_qpolynomial *geometric_sum(struct job *j, int s,
						    __isl_keep isl_set *context,
						    __isl_take isl_pw_qpolynomial *f, const char *what)
{
	const char *bound = NULL;
	const struct model_loop *lp = cost_doubling_loop(j, s, &bound);
	if (!lp) {
		isl_pw_qpolynomial_free(f);
		cost_isl_op_failed(j, what);
		return NULL;
	}
	const char *name = cost_doubling_name(j, bound);
	isl_ctx *ctx = j->engine->ctx;
	if (!name) {
		isl_pw_qpolynomial_free(f);
		cost_doubling_failed(j, what);
		return NULL;
	}
	isl_space *ps = isl_space_params(isl_pw_qpolynomial_get_domain_space(f));
	isl_size np = isl_space_dim(ps, isl_dim_param);
	ps = isl_space_add_dims(ps, isl_dim_param, 1);
	ps = isl_space_set_dim_name(ps, isl_dim_param, (unsigned)np, name);
	f = isl_pw_qpolynomial_intersect_params(f, isl_set_universe(isl_space_copy(ps)));
	isl_set *dom = isl_set_align_params(model_loops_set(ctx, j->m, s, NULL), isl_space_copy(ps));
	if (context)
		dom = isl_set_intersect_params(dom, isl_set_align_params(
			isl_set_params(isl_set_copy(context)), isl_space_copy(ps)));
	/* s by position: model_param_space puts the parameters first, and
	 * aligning only appends */
	int pos = lp->param;
	const char *at = isl_space_get_dim_name(ps, isl_dim_param, (unsigned)pos);
	bool placed = at && strcmp(at, j->m->params[pos]) == 0;
	struct geo_sum gs = {NULL, {NULL}, NULL, false};
	/* S[e] on the parameters without s, lg_B among them */
	isl_space *rest = isl_space_drop_dims(isl_space_copy(ps), isl_dim_param, (unsigned)pos, 1);
	int lpos = isl_space_find_dim_by_name(rest, isl_dim_param, name);
	int rb = isl_space_find_dim_by_name(rest, isl_dim_param, bound);
	if (!placed || lpos < 0 || rb < 0) {
		isl_space_free(rest);
		isl_space_free(ps);
		isl_set_free(dom);
		isl_pw_qpolynomial_free(f);
		cost_isl_op_failed(j, what);
		return NULL;
	}
	isl_qpolynomial *B = isl_qpolynomial_var_on_domain(isl_space_copy(rest), isl_dim_param,
							    (unsigned)rb);
	gs.S[0] = isl_qpolynomial_var_on_domain(isl_space_copy(rest), isl_dim_param, (unsigned)lpos);
	for (int e = 1; e <= GEOMETRIC_MAX_DEGREE; e++) {
		isl_qpolynomial *one = isl_qpolynomial_one_on_domain(isl_space_copy(rest));
		gs.S[e] = isl_qpolynomial_scale_val(
			isl_qpolynomial_sub(isl_qpolynomial_pow(isl_qpolynomial_copy(B), (unsigned)e), one),
			isl_val_div(isl_val_one(ctx), isl_val_int_from_si(ctx, (1L << e) - 1)));
	}
	isl_qpolynomial_free(B);
	isl_space_free(rest);
	isl_space_free(ps);
	/* s a set dimension */
	dom = isl_set_move_dims(isl_set_from_params(dom), isl_dim_set, 0, isl_dim_param,
				(unsigned)pos, 1);
	f = isl_pw_qpolynomial_move_dims(f, isl_dim_in, 0, isl_dim_param, (unsigned)pos, 1);
	f = isl_pw_qpolynomial_intersect_domain(f, isl_set_copy(dom));
	f = coalesce_pw_qpolynomial(f);
	gs.dom = dom;
	isl_stat st = f ? isl_pw_qpolynomial_foreach_piece(f, geo_piece, &gs) : isl_stat_error;
	if (st == isl_stat_ok && !gs.acc && f) /* no iteration anywhere: 0 */
		gs.acc = isl_pw_qpolynomial_from_qpolynomial(
			isl_qpolynomial_zero_on_domain(isl_space_params(isl_set_get_space(dom))));
	isl_pw_qpolynomial_free(f);
	isl_set_free(dom);
	for (int e = 0; e <= GEOMETRIC_MAX_DEGREE; e++)
		isl_qpolynomial_free(gs.S[e]);
	if (st != isl_stat_ok || !gs.acc) {
		isl_pw_qpolynomial_free(gs.acc);
		char *why = NULL;
		if (gs.refused &&
		    asprintf(&why, "one iteration's %s is not one polynomial in %s at every iteration "
				   "of %s (a floor of it, or a case that only some iterations meet): its "
				   "sum over the powers of two has no closed form here; --grid or -D "
				   "count it", what, lp->var, lp->range) < 0)
			why = NULL;
		if (gs.refused)
			cost_job_fail(j, COST_REFUSED, why, what);
		else
			cost_isl_op_failed(j, what);
		return NULL;
	}
	return gs.acc;
}

/* Whether superstep S is in a geometric loop (1, 2, 4, ... < P) whose sum
 * has no closed form here: on the symbolic grid, or with a bound that is
 * not a number on the concrete one; the job is refused, with the reason. */
static bool geometric_refused(struct job *j, int s)
{
	const char *bound;
	if (cost_doubling_loop(j, s, &bound))
		return false; /* geometric_sum, under B a power of two */
	for (int l = j->m->steps[s].loop; l >= 0; l = j->m->loops[l].outer) {
		const struct model_loop *lp = &j->m->loops[l];
		long long lo, hi;
		if (lp->ratio < 2 || (!j->symbolic && model_loop_bounds(lp, j->req->sizes, &lo, &hi)))
			continue;
		char *why = NULL;
		if ((j->symbolic
			     ? asprintf(&why, "the iterations of %s are a geometric progression, whose "
					      "sums have no closed form on the symbolic grid here; a "
					      "concrete grid (--grid) or -D counts them", lp->range)
			     : asprintf(&why, "the iterations of %s: its bound is no number on this "
					      "grid (it names a size or an outer loop's variable); -D "
					      "gives it one", lp->range)) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, lp->var);
		return true;
	}
	return false;
}

/* The iterations of superstep S's loops, as a set whose dimensions are the
 * loops' variables (outermost first) on the remaining parameters of SPACE
 * (kept, a parameter space: F's); F (taken, may be NULL) moved onto it.
 * NULL after a failure (the job failed). */
static __isl_give isl_set *iteration_set(struct job *j, int s, __isl_keep isl_space *space,
					 __isl_give isl_pw_qpolynomial **f)
{
	const struct model *m = j->m;
	/* a geometric loop's values exactly: its bounds are numbers here
	 * (geometric_refused came first) */
	isl_set *dom = model_loops_set(j->engine->ctx, m, s, j->symbolic ? NULL : j->req->sizes);
	dom = isl_set_align_params(dom, isl_space_copy(space));
	if (f) /* onto DOM's parameters, in the same order (ISL aligns them) */
		*f = isl_pw_qpolynomial_intersect_params(
			*f, isl_set_universe(isl_set_get_space(dom)));
	int pos[MODEL_MAX_LOOPS], n = loop_params(m, s, pos);
	for (int k = 0; k < n && dom; k++) {
		/* by position: model_param_space puts the parameters first, and
		 * aligning only appends */
		const char *name = isl_set_get_dim_name(dom, isl_dim_param, (unsigned)pos[k]);
		if (!name || strcmp(name, m->params[pos[k]]) != 0) {
			dom = isl_set_free(dom);
			break;
		}
		dom = isl_set_move_dims(dom, isl_dim_set, 0, isl_dim_param, (unsigned)pos[k], 1);
		if (f)
			*f = isl_pw_qpolynomial_move_dims(*f, isl_dim_in, 0, isl_dim_param,
							  (unsigned)pos[k], 1);
	}
	if (!dom || (f && !*f)) {
		isl_set_free(dom);
		if (f)
			*f = isl_pw_qpolynomial_free(*f);
		cost_isl_op_failed(j, "the iterations of a loop");
		return NULL;
	}
	return dom;
}

/* The number of iterations of superstep S's loops, a function of the other
 * parameters of SPACE (kept); NULL after a failure (the job failed). */
static __isl_give isl_pw_qpolynomial *iterations(struct job *j, int s, __isl_keep isl_space *space)
{
	const char *bound;
	if (!failed(&j->fail) && cost_doubling_loop(j, s, &bound)) {
		/* lg_B: the sum of 1, on the model's parameters (the loop's
		 * variable at its position) and SPACE's */
		isl_set *iters = isl_set_align_params(model_loops_set(j->engine->ctx, j->m, s, NULL),
						      isl_space_copy(space));
		isl_pw_qpolynomial *one = isl_pw_qpolynomial_from_qpolynomial(
			isl_qpolynomial_one_on_domain(isl_space_params(isl_set_get_space(iters))));
		isl_set_free(iters);
		return geometric_sum(j, s, NULL, one, "the iterations");
	}
	isl_set *dom = failed(&j->fail) ? NULL : iteration_set(j, s, space, NULL);
	isl_pw_qpolynomial *n = NULL;
	char *reason = NULL;
	if (dom && count_points(j->engine, dom, &n, &reason) != COUNT_EXACT) {
		cost_job_fail(j, COST_REFUSED, reason, "the iterations");
		reason = NULL;
	}
	free(reason);
	isl_set_free(dom);
	return n;
}

/* Whether F involves none of the variables of superstep S's loops (at
 * their positions among the parameters); -1 when ISL failed. */
static int loop_free(const struct model *m, int s, __isl_keep isl_pw_qpolynomial *f)
{
	int pos[MODEL_MAX_LOOPS], n = loop_params(m, s, pos);
	for (int k = 0; k < n; k++) {
		isl_bool in = isl_pw_qpolynomial_involves_dims(f, isl_dim_param, (unsigned)pos[k], 1);
		if (in != isl_bool_false)
			return in == isl_bool_true ? 0 : -1;
	}
	return 1;
}

/* A sum that has no closed form here: refused with WHY (taken) when
 * REFUSED, else ISL's failure; F taken.  NULL. */
static isl_pw_qpolynomial *sum_refused(struct job *j, bool refused, char *why, const char *what,
				       __isl_take isl_pw_qpolynomial *f)
{
	if (refused) {
		cost_job_fail(j, COST_REFUSED, why, what);
	} else {
		free(why);
		cost_isl_op_failed(j, what);
	}
	isl_pw_qpolynomial_free(f);
	return NULL;
}

/* Whether the local L of INFO is a digit of a loop variable of superstep S. */
static bool loop_digit(const struct model *m, int s, const struct local_param *lp)
{
	return symbolic_loop_digit(m, s, lp) & SYMBOLIC_DIGIT_AROUND;
}

/* Whether F involves a digit of a loop variable of superstep S (which
 * process owns k): 1 yes, with *FIRST the first digit of its expression
 * (-2 when F involves digits of two decompositions, *OTHER the second's),
 * 0 no, -1 when ISL failed. */
static int loop_digits(struct job *j, int s, __isl_keep isl_pw_qpolynomial *f, int *first,
		       int *other)
{
	const struct symbolic_info *info = j->info;
	*first = *other = -1;
	for (int l = 0; info && l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		if (!loop_digit(j->m, s, lp))
			continue;
		int at = isl_pw_qpolynomial_find_dim_by_name(f, isl_dim_param, lp->name);
		if (at < 0)
			continue;
		isl_bool in = isl_pw_qpolynomial_involves_dims(f, isl_dim_param, (unsigned)at, 1);
		if (in < 0)
			return -1;
		if (!in)
			continue;
		int head = l - lp->digit;
		if (*first < 0) {
			*first = head;
		} else if (*first != head && *first >= 0) {
			*other = head;
			*first = -2 - *first;   /* both recorded: decoded by the caller */
			return 1;
		}
	}
	return *first >= 0;
}

/* digits_for_var: the state of the walk over F's pieces. */
struct var_subst {
	isl_pw_qpolynomial *acc;
	int kpos;                  /* the variable's parameter position */
	isl_qpolynomial *k;        /* the variable in its digits, on F's domain */
	bool refused;
};

struct div_check {
	int kpos;
	bool div_k, failed;
};

/* Whether a floor of TERM involves the parameter at DC->kpos. */
static isl_stat div_term(__isl_take isl_term *term, void *user)
{
	struct div_check *dc = user;
	isl_size n = isl_term_dim(term, isl_dim_div);
	dc->failed |= n < 0;
	for (int d = 0; d < n && !dc->div_k; d++) {
		isl_size e = isl_term_get_exp(term, isl_dim_div, (unsigned)d);
		if (e <= 0) {
			dc->failed |= e < 0;
			continue;
		}
		isl_aff *div = isl_term_get_div(term, (unsigned)d);
		isl_bool in = div ? isl_aff_involves_dims(div, isl_dim_param, (unsigned)dc->kpos, 1)
				  : isl_bool_error;
		dc->failed |= in < 0;
		dc->div_k |= in == isl_bool_true;
		isl_aff_free(div);
	}
	isl_term_free(term);
	return isl_stat_ok;
}

static isl_stat subst_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct var_subst *vs = user;
	isl_bool in_set = isl_set_involves_dims(set, isl_dim_param, (unsigned)vs->kpos, 1);
	if (in_set != isl_bool_false) {
		vs->refused = in_set == isl_bool_true;
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	/* a floor of the variable has no form in its digits */
	struct div_check dc = {vs->kpos, false, false};
	if (isl_qpolynomial_foreach_term(qp, div_term, &dc) < 0 || dc.failed || dc.div_k) {
		vs->refused = !dc.failed;
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	qp = isl_qpolynomial_substitute(qp, isl_dim_param, (unsigned)vs->kpos, 1, &vs->k);
	vs->acc = isl_pw_qpolynomial_add_disjoint(vs->acc, isl_pw_qpolynomial_alloc(set, qp));
	return vs->acc ? isl_stat_ok : isl_stat_error;
}

/* F (taken), whose first ND input dimensions are the digits INFO->locals[
 * FIRST ..] of the loop variable named K, with K itself (a parameter of F)
 * written in those digits: k = d0*W0 + d1*W1 + ..., W the sizes of the
 * digits below.  NULL, with *REFUSED, where K is in a condition or a floor;
 * NULL alone when ISL failed. */
static __isl_give isl_pw_qpolynomial *digits_for_var(struct job *j,
						     __isl_take isl_pw_qpolynomial *f,
						     const char *k, int first, int nd, bool *refused)
{
	const struct symbolic_info *info = j->info;
	isl_space *space = isl_pw_qpolynomial_get_domain_space(f);
	struct var_subst vs = {NULL, isl_pw_qpolynomial_find_dim_by_name(f, isl_dim_param, k),
			       NULL, false};
	isl_qpolynomial *sum = isl_qpolynomial_zero_on_domain(isl_space_copy(space));
	for (int d = 0; d < nd && sum; d++) {
		isl_qpolynomial *term = isl_qpolynomial_var_on_domain(isl_space_copy(space),
								      isl_dim_set, (unsigned)d);
		for (int e = d + 1; e < nd && term; e++) {
			const struct local_param *lp = &info->locals[first + e];
			const char *size = lp->size_axis >= 0 ? j->m->axes[lp->size_axis]
					   : lp->size_local >= 0 ? info->locals[lp->size_local].name
					   : lp->size_param >= 0 ? j->m->params[lp->size_param]
								 : NULL;
			isl_qpolynomial *w;
			if (size) {
				int at = isl_space_find_dim_by_name(space, isl_dim_param, size);
				w = at < 0 ? NULL
				    : isl_qpolynomial_var_on_domain(isl_space_copy(space),
								    isl_dim_param, (unsigned)at);
			} else {
				w = isl_qpolynomial_val_on_domain(
					isl_space_copy(space),
					isl_val_int_from_si(j->engine->ctx, lp->size_const));
			}
			term = w ? isl_qpolynomial_mul(term, w) : isl_qpolynomial_free(term);
		}
		sum = term ? isl_qpolynomial_add(sum, term) : isl_qpolynomial_free(sum);
	}
	vs.k = sum;
	vs.acc = isl_pw_qpolynomial_zero(isl_space_add_dims(
		isl_space_from_domain(isl_space_copy(space)), isl_dim_out, 1));
	isl_space_free(space);
	if (vs.kpos >= 0 && vs.k && vs.acc &&
	    isl_pw_qpolynomial_foreach_piece(f, subst_piece, &vs) >= 0) {
		isl_qpolynomial_free(vs.k);
		isl_pw_qpolynomial_free(f);
		return vs.acc;
	}
	*refused = vs.refused;
	isl_qpolynomial_free(vs.k);
	isl_pw_qpolynomial_free(vs.acc);
	isl_pw_qpolynomial_free(f);
	return NULL;
}

/* The sum of F (taken), a function of the parameters in which a loop
 * variable appears only through its digits INFO->locals[FIRST ..], over
 * the loop's iterations, summed on the digits; NULL after a failure (the
 * job failed). */
/* Whether CONTEXT (kept; may be NULL) implies ASSUMPTION, "C <= NAME" or
 * "C < NAME" (the symbolic grid's own): 1 yes, 0 no, -1 when ISL failed. */
static int implied_by(__isl_keep isl_set *context, const char *assumption)
{
	int pos, least;
	if (!symbolic_assumption_bound(assumption, context, &pos, &least))
		return 0;
	/* the violations: NAME <= least - 1 */
	isl_set *bad = isl_set_upper_bound_si(isl_set_copy(context), isl_dim_param,
					      (unsigned)pos, least - 1);
	isl_bool empty = isl_set_is_empty(bad);
	isl_set_free(bad);
	return empty < 0 ? -1 : empty == isl_bool_true;
}

/* lowest_bound: the one constraint of a basic set, NAME >= LEAST with
 * NAME a parameter. */
struct lowest_bound {
	int n;              /* constraints seen */
	int pos;            /* NAME's position, -1 when the constraint is not one */
	long least;
};

static isl_stat lowest_bound_of(__isl_take isl_constraint *c, void *user)
{
	struct lowest_bound *lb = user;
	lb->n++;
	lb->pos = -1;
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	bool ok = np >= 0 && !isl_constraint_is_equality(c);
	for (int p = 0; ok && p < np; p++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, p);
		if (!v || (!isl_val_is_zero(v) && !isl_val_is_one(v)))
			ok = false;
		else if (isl_val_is_one(v))
			ok = lb->pos < 0 ? (lb->pos = p, true) : false;
		isl_val_free(v);
	}
	isl_val *k = ok && lb->pos >= 0 ? isl_constraint_get_constant_val(c) : NULL;
	if (k && isl_val_is_int(k) && isl_val_get_num_si(k) > -INT_MAX &&
	    isl_val_get_num_si(k) < INT_MAX)
		lb->least = -isl_val_get_num_si(k);
	else
		lb->pos = -1;
	isl_val_free(k);
	isl_constraint_free(c);
	return isl_stat_ok;
}

static isl_stat lowest_bound_bset(__isl_take isl_basic_set *bs, void *user)
{
	isl_stat st = isl_basic_set_foreach_constraint(bs, lowest_bound_of, user);
	isl_basic_set_free(bs);
	return st;
}

/* The sums on the digits are written in those of the loop's last iteration
 * (k - 1 for lo <= t < k), which lie in their ranges only where that is at
 * least 0: where it is not (k == 0) they are no digits at all
 * (floor(-1/(n/M))), every context that knows them leaves that case out,
 * and no piece of a formula speaks of it.  (Where k - 1 >= 0 but the loop
 * runs no time, lo > k - 1, the digits are in range and the sum on them is
 * 0.)  So where CONTEXT (kept: the sizes', without the loop) lets k - 1 be
 * negative, the candidate's formulas are claimed where it is not, an
 * assumption of its own in the symbolic grid's form "C <= NAME" (1 <= k),
 * which the contexts made from now on hold and the brute force reads: 0
 * (made, or not needed), 1 (*REASON) when that is no lower bound on one
 * size, -1 when ISL failed or out of memory. */
static int last_iteration_assumed(struct job *j, int s, __isl_keep isl_set *context,
				  char **reason)
{
	const struct model *m = j->m;
	const struct model_loop *loop = &m->loops[m->steps[s].loop];
	isl_space *space = model_param_space(j->engine->ctx, m, true);
	struct model_cons last = {.kind = MODEL_GE0};
	isl_set *exist = NULL;
	if (space && model_aff_copy(&last.f, &loop->hi) == 0) {
		last.f.constant -= 1;
		exist = model_cons_param_set(space, m, &last);
		model_aff_clear(&last.f);
	}
	isl_space_free(space);
	if (!exist)
		return -1;
	/* EXIST: where the last iteration's digits exist; SIZES: the sizes'
	 * context without the loop's variable (the bound names only sizes: a
	 * loop in loops is refused before) */
	isl_set *sizes = context ? isl_set_params(isl_set_copy(context))
			 : isl_set_universe(isl_set_get_space(exist));
	int pos[MODEL_MAX_LOOPS], n = loop_params(m, s, pos);
	for (int k = 0; k < n && sizes; k++) {
		int at = isl_set_find_dim_by_name(sizes, isl_dim_param, m->params[pos[k]]);
		if (at >= 0)
			sizes = isl_set_project_out(sizes, isl_dim_param, (unsigned)at, 1);
	}
	exist = isl_set_align_params(exist, isl_set_get_space(sizes));
	sizes = isl_set_align_params(sizes, isl_set_get_space(exist));
	isl_set *none = isl_set_subtract(isl_set_copy(sizes), isl_set_copy(exist));
	isl_bool always = isl_set_is_empty(none);
	isl_set_free(none);
	struct lowest_bound lb = {0, -1, 0};
	if (always == isl_bool_false) {
		exist = isl_set_gist(exist, isl_set_copy(sizes));
		if (exist && isl_set_n_basic_set(exist) == 1 &&
		    isl_set_foreach_basic_set(exist, lowest_bound_bset, &lb) < 0)
			always = isl_bool_error;
		if (lb.n != 1)
			lb.pos = -1;
	}
	const char *name = lb.pos >= 0 && exist
			   ? isl_set_get_dim_name(exist, isl_dim_param, (unsigned)lb.pos) : NULL;
	int st = always < 0 || !exist ? -1 : always ? 0 : name ? 0 : 1;
	if (st == 0 && name) {
		char *a = NULL;
		st = asprintf(&a, "%ld <= %s", lb.least, name) < 0 ? -1
		     : symbolic_info_assume(j->info, a);
		free(a);
	} else if (st == 1 &&
		   asprintf(reason, "they are written in the digits of its last iteration, "
				    "which exist only where that is at least 0; the "
				    "assumptions let the loop %s run no time, and where its "
				    "last iteration is at least 0 is no least value of one "
				    "size the formulas could assume (an assume that it runs "
				    "gives them; -D counts it at values)", loop->range) < 0) {
		*reason = NULL;
		st = -1;
	}
	isl_set_free(exist);
	isl_set_free(sizes);
	return st;
}

static __isl_give isl_pw_qpolynomial *sum_on_digits(struct job *j, int s, int first,
						    __isl_keep isl_set *context,
						    __isl_take isl_pw_qpolynomial *f,
						    const char *what)
{
	isl_ctx *ctx = j->engine->ctx;
	const struct model *m = j->m;
	const char *range = m->loops[m->steps[s].loop].range;
	/* the loop's own bounds on k are the digits' now */
	isl_set *loops = isl_set_align_params(model_loops_set(ctx, m, s, NULL),
					      isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
	f = isl_pw_qpolynomial_gist_params(f, loops);
	int pos[MODEL_MAX_LOOPS], n = loop_params(m, s, pos);
	isl_bool direct = isl_bool_false;
	for (int k = 0; k < n && f && direct == isl_bool_false; k++) {
		int at = isl_pw_qpolynomial_find_dim_by_name(f, isl_dim_param, m->params[pos[k]]);
		if (at >= 0)
			direct = isl_pw_qpolynomial_involves_dims(f, isl_dim_param, (unsigned)at, 1);
	}
	if (!f || direct < 0) {
		isl_pw_qpolynomial_free(f);
		cost_isl_op_failed(j, what);
		return NULL;
	}
	const struct local_param *lp = &j->info->locals[first];
	if (n > 1) {
		char *why = NULL;
		if (asprintf(&why, "one iteration's %s depends on which process owns the loop's "
				   "variable (%s), in nested loops: its sum over %s is not written in "
				   "those digits (-D counts it at values)", what, lp->shown, range) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, what);
		isl_pw_qpolynomial_free(f);
		return NULL;
	}
	isl_set *dom = NULL;
	char *reason = NULL;
	int had = j->info->nassumptions;
	int st = symbolic_iterations(ctx, m, s, j->info, first, &dom, &reason);
	/* an offset the bounds carry may rest on an assumption (4 <= n__P):
	 * only one the context implies, which then needs no saying */
	for (int a = had; st == 0 && a < j->info->nassumptions; a++) {
		int implied = implied_by(context, j->info->assumptions[a]);
		if (implied == 1)
			continue;
		st = implied < 0 ? -1 : 1;
		if (st > 0 && asprintf(&reason, "they would rest on '%s', which the assumptions "
				       "do not imply", j->info->assumptions[a]) < 0)
			reason = NULL;
	}
	while (j->info->nassumptions > had)
		free(j->info->assumptions[--j->info->nassumptions]);
	if (st == 0)
		st = last_iteration_assumed(j, s, context, &reason);
	if (st != 0) {
		isl_set_free(dom);
		dom = NULL;
	}
	if (st != 0) {
		char *why = NULL;
		/* (no REASON: out of memory, which sum_refused says for a NULL WHY) */
		if (st > 0 && reason &&
		    asprintf(&why, "the iterations of %s on the digits of %s: %s", range,
			     m->loops[m->steps[s].loop].var, reason) < 0)
			why = NULL;
		free(reason);
		return sum_refused(j, st > 0, why, what, f);
	}
	/* the digits: parameters of F, dimensions of DOM, in the same order */
	lp = &j->info->locals[first];
	int nd = dist_ops(lp->kind)->digits.n;
	isl_space *params = isl_set_get_space(dom);
	params = isl_space_params(params);
	f = isl_pw_qpolynomial_intersect_params(f, isl_set_universe(isl_space_copy(params)));
	dom = isl_set_align_params(dom, isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
	isl_space_free(params);
	for (int k = 0; k < nd && f && dom; k++) {
		const char *name = j->info->locals[first + k].name;
		int at = isl_pw_qpolynomial_find_dim_by_name(f, isl_dim_param, name);
		if (at < 0) {
			f = isl_pw_qpolynomial_free(f);
			break;
		}
		f = isl_pw_qpolynomial_move_dims(f, isl_dim_in, (unsigned)k, isl_dim_param,
						 (unsigned)at, 1);
		at = isl_set_find_dim_by_name(dom, isl_dim_param, name);
		if (at >= 0)
			dom = isl_set_project_out(dom, isl_dim_param, (unsigned)at, 1);
	}
	bool refused = false;
	if (f && dom && direct)
		f = digits_for_var(j, f, m->params[pos[0]], first, nd, &refused);
	if (refused) {
		char *why = NULL;
		if (asprintf(&why, "one iteration's %s depends on the loop's variable %s through "
				   "a floor or a condition as well as through its digits (%s): its "
				   "sum over %s is not written in those digits (-D counts it at values)",
			     what, m->loops[m->steps[s].loop].var, j->info->locals[first].shown,
			     range) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, what);
		isl_set_free(dom);
		return NULL;
	}
	if (f && dom)
		dom = isl_set_align_params(dom, isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
	if (f && dom)
		f = isl_pw_qpolynomial_intersect_params(f, isl_set_params(isl_set_copy(dom)));
	/* the same parameters in the same order (DOM may have had digits of
	 * its bounds that F lacked) */
	if (f && dom)
		dom = isl_set_align_params(dom, isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
	isl_pw_qpolynomial *r = NULL;
	enum count_status cst = f && dom ? count_sum(j->engine, dom, f, &r, &reason) : COUNT_ERROR;
	if (!f || !dom) {
		cost_isl_op_failed(j, what);
	} else if (cst != COUNT_EXACT) {
		char *why = NULL;
		if (asprintf(&why, "the sum of %s over the iterations of %s, on the digits of %s: %s",
			     what, range, m->loops[m->steps[s].loop].var,
			     reason ? reason : "no exact route") < 0)
			why = NULL;
		cost_job_fail(j, cost_from_count(cst), why, what);
	}
	free(reason);
	isl_set_free(dom);
	isl_pw_qpolynomial_free(f);
	return r;
}

/* drop_implied_digits: the state of the walk over F's pieces. */
struct implied_digits {
	struct job *j;
	int s;
	isl_set *context;          /* the digits within their ranges */
	isl_pw_qpolynomial *acc;
};

/* A piece whose value does not involve a digit D of the loop's variable and
 * whose condition says nothing of D that CONTEXT does not (M = 1 and t_M = 0,
 * where t_M ranges over 0 <= t_M < M): the same piece with D's constraints
 * left out, so that it no longer depends on which process owns k. */
static isl_stat implied_digits_piece(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp,
				     void *user)
{
	struct implied_digits *id = user;
	const struct symbolic_info *info = id->j->info;
	for (int l = 0; dom && qp && l < info->nlocals; l++) {
		if (!loop_digit(id->j->m, id->s, &info->locals[l]))
			continue;
		int at = isl_set_find_dim_by_name(dom, isl_dim_param, info->locals[l].name);
		if (at < 0)
			continue;
		isl_bool in_value = isl_qpolynomial_involves_dims(qp, isl_dim_param, (unsigned)at, 1);
		isl_bool in_cond = isl_set_involves_dims(dom, isl_dim_param, (unsigned)at, 1);
		if (in_value != isl_bool_false || in_cond != isl_bool_true)
			continue;
		isl_set *on = isl_set_intersect_params(isl_set_copy(dom), isl_set_copy(id->context));
		isl_set *loose = isl_set_eliminate(isl_set_copy(on), isl_dim_param, (unsigned)at, 1);
		isl_set *back = isl_set_intersect_params(isl_set_copy(loose),
							 isl_set_copy(id->context));
		isl_bool same = isl_set_is_equal(back, on);
		isl_set_free(back);
		isl_set_free(on);
		if (same == isl_bool_true) {
			isl_set_free(dom);
			dom = isl_set_gist_params(loose, isl_set_copy(id->context));
		} else {
			isl_set_free(loose);
		}
	}
	isl_pw_qpolynomial *piece = isl_pw_qpolynomial_alloc(dom, qp);
	id->acc = isl_pw_qpolynomial_add_disjoint(id->acc, piece);
	return id->acc ? isl_stat_ok : isl_stat_error;
}

/* F (taken) with the pieces that only seem to depend on a digit of the loop's
 * variable written without it (implied_digits_piece); F itself when that
 * fails. */
static __isl_give isl_pw_qpolynomial *drop_implied_digits(struct job *j, int s,
							  __isl_take isl_pw_qpolynomial *f,
							  __isl_keep isl_set *context)
{
	struct implied_digits id = {j, s, isl_set_copy(context), NULL};
	id.acc = isl_pw_qpolynomial_zero(isl_pw_qpolynomial_get_space(f));
	if (id.acc && isl_pw_qpolynomial_foreach_piece(f, implied_digits_piece, &id) >= 0 &&
	    id.acc) {
		isl_pw_qpolynomial_free(f);
		f = id.acc;
	} else {
		isl_pw_qpolynomial_free(id.acc);
		isl_ctx_reset_error(j->engine->ctx);
	}
	isl_set_free(id.context);
	return f;
}

/* The sum of F (taken), a function of the parameters, over the iterations
 * of superstep S's loops (CONTEXT, kept, may be NULL: what the counts may
 * take for granted): a function of the other parameters; NULL after a
 * failure (the job failed, refused with the engine's reason).  F the same
 * at every iteration (its floors of sizes included, which the engine does
 * not sum) is F times the iterations. */
static __isl_give isl_pw_qpolynomial *sum_over_loops(struct job *j, int s,
						     __isl_keep isl_set *context,
						     __isl_take isl_pw_qpolynomial *f,
						     const char *what)
{
	if (failed(&j->fail) || !f) {
		isl_pw_qpolynomial_free(f);
		return NULL;
	}
	int first, other;
	if (j->info && j->info->nlocals && context) {
		/* what the context says of the digits (their ranges) is no
		 * dependence on them */
		/* every local's range, those the sums of earlier quantities
		 * made too (the digits of a loop's bound k, e2_P), which
		 * CONTEXT, made before them, does not name */
		isl_set *c = symbolic_local_context(j->engine->ctx, j->m, j->info);
		isl_set *pc = isl_set_params(isl_set_copy(context));
		c = isl_set_align_params(c, isl_set_get_space(pc));
		pc = isl_set_align_params(pc, isl_set_get_space(c));
		c = isl_set_intersect(c, pc);
		c = isl_set_align_params(c, isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
		f = coalesce_pw_qpolynomial(isl_pw_qpolynomial_gist_params(f, isl_set_copy(c)));
		f = f ? drop_implied_digits(j, s, f, c) : NULL;
		isl_set_free(c);
		if (!f) {
			cost_isl_op_failed(j, what);
			return NULL;
		}
	}
	const char *bound;
	if (cost_doubling_loop(j, s, &bound))
		return geometric_sum(j, s, context, f, what);
	int dig = loop_digits(j, s, f, &first, &other);
	if (dig > 0 && first >= 0)
		return sum_on_digits(j, s, first, context, f, what);
	if (dig != 0) {
		char *why = NULL;
		const char *range = j->m->loops[j->m->steps[s].loop].range;
		if (dig > 0 &&
		    asprintf(&why, "one iteration's %s depends on which process owns the loop's "
				   "variable in two distributions (%s; %s): its sum over %s has no "
				   "closed form in the sizes in general (it depends on how the two "
				   "distributions' blocks interleave); -D counts it at values",
			     what, j->info->locals[-2 - first].shown, j->info->locals[other].shown,
			     range) < 0)
			why = NULL;
		return sum_refused(j, dig > 0, why, what, f);
	}
	isl_space *space = isl_pw_qpolynomial_get_domain_space(f);
	int same = loop_free(j->m, s, f);
	if (same == 1) {
		isl_pw_qpolynomial *n = iterations(j, s, space);
		isl_space_free(space);
		if (!n) {
			isl_pw_qpolynomial_free(f);
			return NULL;
		}
		/* on the same parameters, then the loops' variables dropped */
		f = isl_pw_qpolynomial_intersect_params(f, isl_set_universe(
			isl_space_params(isl_pw_qpolynomial_get_domain_space(n))));
		n = isl_pw_qpolynomial_intersect_params(n, isl_set_universe(
			isl_space_params(isl_pw_qpolynomial_get_domain_space(f))));
		isl_pw_qpolynomial *r = isl_pw_qpolynomial_mul(f, n);
		if (!r)
			cost_isl_op_failed(j, what);
		return r;
	}
	isl_set *dom = same == 0 ? iteration_set(j, s, space, &f) : NULL;
	isl_space_free(space);
	if (same < 0)
		cost_isl_op_failed(j, what);
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	enum count_status st = dom ? count_sum(j->engine, dom, f, &r, &reason) : COUNT_ERROR;
	isl_set_free(dom);
	isl_pw_qpolynomial_free(f);
	if (dom && st != COUNT_EXACT) {
		char *why = NULL;
		if (asprintf(&why, "the sum of %s over the iterations of %s: %s", what,
			     j->m->loops[j->m->steps[s].loop].range, reason ? reason : "no exact route") < 0)
			why = NULL;
		cost_job_fail(j, cost_from_count(st), why, what);
	}
	free(reason);
	return r;
}

/* A per-iteration maximum over the processes that is no single function: its
 * sum is refused, with WHAT named (J->sumless, the first superstep's; the
 * job goes on for the other supersteps' formulas and this one's per
 * iteration). */
static void no_single_max(struct job *j, int s, const char *what)
{
	if (j->sumless || failed(&j->fail))
		return;
	char *why = NULL;
	/* in the designer's words: which process is the busiest moves as the
	 * loop runs (LU's pivot row and column), and the iterations where it
	 * moves are no inequality in the variable and the sizes */
	const struct model_loop *lp = &j->m->loops[j->m->steps[s].loop];
	if (asprintf(&why, "the process with the most %s changes as %s runs over %s, at "
			   "iterations that no inequality in %s and the sizes separates, so its "
			   "sum over the iterations has no closed form here (where those "
			   "iterations are quotients by the grid's sizes it has none at all, "
			   "as LU's on an M x N grid: bspcost(1)): one iteration's "
			   "formulas are given, -D counts the sum at values, and a concrete grid "
			   "(--grid) may sum it",
		     what, lp->var, lp->range, lp->var) < 0) {
		cost_job_fail(j, COST_FAILED, NULL, what);
		return;
	}
	if (j->fixed || session_ctx_stopped(j->engine->ctx)) {
		/* the symbolic grid's attempt on a concrete grid, which counts
		 * the grid itself next: refused at once, nothing more made (a
		 * deadline, which may be why no function was found, is said
		 * as such by cost_job_fail) */
		cost_job_fail(j, COST_REFUSED, why, what);
		j->loop_max = !j->timed_out;
		return;
	}
	j->loop_max = true;
	if (asprintf(&j->sumless, "%s: %s", what, why) < 0) {
		j->sumless = NULL;
		cost_job_fail(j, COST_FAILED, NULL, what);
	}
	free(why);
}

void cost_loop_runs(struct job *j, int s, __isl_keep isl_set *context, struct step_cost *sc)
{
	isl_space *space = isl_set_get_space(context);
	isl_pw_qpolynomial *n = iterations(j, s, space);
	isl_space_free(space);
	if (n) {
		sc->iterations = cost_to_formula(j, n, "the iterations");
		cost_tidy(j, &sc->iterations, context);
	}
	isl_pw_qpolynomial_free(n);
}

/* The cost of a superstep in loops from its sums: the cost function on the
 * sums, with l once per iteration (every function but overlap is w plus
 * terms linear in the quantities plus l). */
void cost_loop_cost(struct job *j, struct step_cost *sc)
{
	if (failed(&j->fail))
		return;
	const struct cost_model *cm = j->req->model;
	if (cm && cm->messages != MSG_NONE) {
		/* each run's loads priced on their own, its latency with it */
		formula_free(sc->cost);
		sc->cost = cost_model_runs_formula(cm, sc->w, sc->loads, sc->run_end, sc->nruns);
		if (!sc->cost)
			cost_isl_op_failed(j, sc->name);
		return;
	}
	struct formula *once = cost_step_cost_formula(j->req, sc);
	struct formula *l = formula_param("l");
	struct formula *minus = formula_sub(once, l);
	struct formula *ls = formula_mul(sc->iterations, l);
	formula_free(sc->cost);
	sc->cost = formula_add(minus, ls);
	formula_free(once);
	formula_free(l);
	formula_free(minus);
	formula_free(ls);
	if (!sc->cost)
		cost_isl_op_failed(j, sc->name);
}

/* Whether F (kept) is the same at every run of superstep S: it names no
 * variable of S's loops and no digit of one. */
static bool same_every_run(const struct job *j, int s, const struct formula *f)
{
	const struct model *m = j->m;
	int pos[MODEL_MAX_LOOPS], n = loop_params(m, s, pos);
	if (!f)
		return false;
	for (int k = 0; k < n; k++)
		if (formula_involves(f, m->params[pos[k]]))
			return false;
	for (int l = 0; j->info && l < j->info->nlocals; l++)
		if (loop_digit(m, s, &j->info->locals[l]) &&
		    formula_involves(f, j->info->locals[l].name))
			return false;
	return true;
}

/* SC's sums where one run's formulas (SC's per_, PER_IN and PER_OUT, all
 * kept) are the same at every run though some maximum over the processes
 * is no single function (the largest of several): the runs times them,
 * exact; false (nothing made) when they are not. */
static bool sums_of_alike_runs(struct job *j, int s, __isl_keep isl_set *context,
			       struct step_cost *sc, const struct formula *per_in,
			       const struct formula *per_out)
{
	const struct formula *per[5] = {sc->per_w, sc->per_h, per_in, per_out, sc->per_ncom};
	for (int k = 0; k < 5; k++)
		if (!same_every_run(j, s, per[k]))
			return false;
	cost_loop_runs(j, s, context, sc);
	if (failed(&j->fail) || !sc->iterations)
		return true;
	struct formula **slot[5] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out, &sc->ncom};
	for (int k = 0; k < 5 && !failed(&j->fail); k++) {
		*slot[k] = formula_mul(sc->iterations, per[k]);
		if (!*slot[k])
			cost_isl_op_failed(j, sc->name);
		else
			cost_tidy(j, slot[k], context);
	}
	cost_loop_cost(j, sc);
	return true;
}

/* cost_loop_totals's sums, SC's per_ formulas one run's (PER_IN and
 * PER_OUT its h_in and h_out, kept). */
static void per_run_totals(struct job *j, int s, struct per_iteration *it,
			   __isl_keep isl_set *context, struct step_cost *sc,
			   const struct formula *per_in, const struct formula *per_out)
{
	if (j->req->h == H_MAX && it->h_in && it->h_out) {
		isl_pw_qpolynomial *both[2] = {it->h_in, it->h_out};
		char *reason = NULL;
		if (count_max_of(j->engine, both, 2, &it->h, &reason) != COUNT_EXACT &&
		    cost_max_over_union(j, both, 2, &it->h) != COUNT_EXACT) {
			free(reason);
			reason = NULL;
			if (count_max_split_of(j->engine, both, 2, context, &it->h, &reason) != COUNT_EXACT)
				it->h = NULL;
		}
		free(reason);
	}
	const char *missing = !it->w ? "w" : !it->h_in ? "h_in" : !it->h_out ? "h_out"
			    : !it->h ? (j->req->h == H_MAX ? "h = max(h_in, h_out)" : "h") : NULL;
	if (missing && sums_of_alike_runs(j, s, context, sc, per_in, per_out))
		return;
	if (missing) {
		/* one run's formulas kept, and how many runs: no sums */
		no_single_max(j, s, missing);
		cost_loop_runs(j, s, context, sc);
		return;
	}
	isl_pw_qpolynomial *sums[5] = {
		sum_over_loops(j, s, context, isl_pw_qpolynomial_copy(it->w), "w"),
		sum_over_loops(j, s, context, isl_pw_qpolynomial_copy(it->h), "h"),
		sum_over_loops(j, s, context, isl_pw_qpolynomial_copy(it->h_in), "h_in"),
		sum_over_loops(j, s, context, isl_pw_qpolynomial_copy(it->h_out), "h_out"),
		sum_over_loops(j, s, context, isl_pw_qpolynomial_copy(it->ncom), "NCom"),
	};
	struct formula **slot[5] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out, &sc->ncom};
	const char *what[5] = {"w", "h", "h_in", "h_out", "NCom"};
	/* the sums hold for every value of the loop's variable: tidied under
	 * a context that says nothing of its digits (which would bring them
	 * back, k_P == 0 where P == 1) */
	isl_set *outer = isl_set_copy(context);
	if (j->info && outer) {
		/* digits the sums made (of a loop's bounds) within their ranges too */
		isl_set *ranges = symbolic_without_foreign_digits(
			symbolic_local_context(j->engine->ctx, j->m, j->info), j->m, j->info, s);
		outer = isl_set_align_params(outer, isl_set_get_space(ranges));
		ranges = isl_set_align_params(ranges, isl_set_get_space(outer));
		outer = isl_set_intersect(outer, ranges);
	}
	for (int l = 0; j->info && outer && l < j->info->nlocals; l++) {
		if (!loop_digit(j->m, s, &j->info->locals[l]))
			continue;
		int at = isl_set_find_dim_by_name(outer, isl_dim_param, j->info->locals[l].name);
		if (at >= 0)
			outer = isl_set_project_out(outer, isl_dim_param, (unsigned)at, 1);
	}
	if (!outer)
		cost_isl_op_failed(j, "the loop's context");
	for (int k = 0; k < 5; k++) {
		*slot[k] = cost_to_formula(j, sums[k], what[k]);
		isl_pw_qpolynomial_free(sums[k]);
		if (outer)
			cost_tidy(j, slot[k], outer);
	}
	cost_loop_runs(j, s, context, sc);
	cost_loop_cost(j, sc);
	if (sc->cost && formula_n_pieces(sc->cost) > 1 && outer)
		cost_tidy(j, &sc->cost, outer);
	isl_set_free(outer);
}

/* Superstep S in loops, counted with the loops' variables as parameters:
 * keeps SC's formulas as one iteration's and replaces them by their sums over
 * the iterations (IT: the same as functions), tidy on CONTEXT (the sizes'). */
void cost_loop_totals(struct job *j, int s, struct per_iteration *it,
			__isl_keep isl_set *context, struct step_cost *sc)
{
	if (failed(&j->fail) || geometric_refused(j, s))
		return;
	sc->per_w = sc->w;
	sc->per_h = sc->h;
	sc->per_ncom = sc->ncom;
	sc->per_cost = sc->cost;
	struct formula *per_in = sc->h_in, *per_out = sc->h_out;
	sc->w = sc->h = sc->ncom = sc->cost = sc->h_in = sc->h_out = NULL;
	per_run_totals(j, s, it, context, sc, per_in, per_out);
	formula_free(per_in);
	formula_free(per_out);
}

/* Sums of one superstep's counts over the iterations of its loops. */
struct loop_values {
	int cand, s;
	const struct cost_request *req;
	long long *vals;            /* the parameters' values, the loops' set in turn */
	int loops[MODEL_MAX_LOOPS], nloops;
	mpq_t sum[TERM_N];
	long long iterations;
	struct step_cost *sc;       /* per process: its procs summed */
	/* counting messages: msgs_in, msgs_out and msgs summed over the runs,
	 * and each run's loads appended to SC's */
	bool messages;
	mpq_t msgs[3];
	int cap_loads, cap_runs;
};

static void add_process_counts(struct job *j, struct step_cost *into, struct step_cost *one)
{
	if (!one->procs)
		return;
	if (!into->procs) {
		into->procs = one->procs;
		into->nprocs = one->nprocs;
		one->procs = NULL;
		one->nprocs = 0;
		return;
	}
	if (into->nprocs != one->nprocs) {
		cost_isl_op_failed(j, "the counts per process");
		return;
	}
	for (int q = 0; q < into->nprocs; q++) {
		mpz_add(into->procs[q].w, into->procs[q].w, one->procs[q].w);
		mpz_add(into->procs[q].in, into->procs[q].in, one->procs[q].in);
		mpz_add(into->procs[q].out, into->procs[q].out, one->procs[q].out);
		mpz_add(into->procs[q].msgs_in, into->procs[q].msgs_in, one->procs[q].msgs_in);
		mpz_add(into->procs[q].msgs_out, into->procs[q].msgs_out, one->procs[q].msgs_out);
	}
}

/* One run's messages (ONE, counted at values) into LV: their maxima added
 * up, its loads appended to LV's superstep as a run of their own. */
static void add_run_messages(struct job *j, struct loop_values *lv, struct step_cost *one)
{
	struct step_cost *sc = lv->sc;
	const struct formula *f[3] = {one->msgs_in, one->msgs_out, one->msgs};
	mpq_t x;
	mpq_init(x);
	for (int k = 0; k < 3 && !failed(&j->fail); k++) {
		if (!f[k] || formula_eval(f[k], NULL, NULL, 0, x) < 0)
			cost_isl_op_failed(j, "counting the messages");
		else
			mpq_add(lv->msgs[k], lv->msgs[k], x);
	}
	mpq_clear(x);
	/* the loads where a cost function prices them */
	if (failed(&j->fail) || !lv->req->model || lv->req->model->messages == MSG_NONE)
		return;
	if (sc->nloads + one->nloads > lv->cap_loads) {
		int c = 2 * (sc->nloads + one->nloads) + 4;
		struct message_load *more = realloc(sc->loads, (size_t)c * sizeof(*more));
		if (!more) {
			cost_isl_op_failed(j, "the loads of the processes");
			return;
		}
		sc->loads = more;
		lv->cap_loads = c;
	}
	if (sc->nruns == lv->cap_runs) {
		int c = 2 * lv->cap_runs + 4;
		int *more = realloc(sc->run_end, (size_t)c * sizeof(*more));
		if (!more) {
			cost_isl_op_failed(j, "the loads of the processes");
			return;
		}
		sc->run_end = more;
		lv->cap_runs = c;
	}
	/* the loads move: ONE keeps none */
	if (one->nloads > 0)
		memcpy(sc->loads + sc->nloads, one->loads,
		       (size_t)one->nloads * sizeof(*one->loads));
	sc->nloads += one->nloads;
	sc->run_end[sc->nruns++] = sc->nloads;
	free(one->loads);
	one->loads = NULL;
	one->nloads = 0;
}

static void free_procs(struct step_cost *sc)
{
	for (int q = 0; sc->procs && q < sc->nprocs; q++) {
		mpz_clears(sc->procs[q].w, sc->procs[q].in, sc->procs[q].out, sc->procs[q].msgs_in,
			   sc->procs[q].msgs_out, NULL);
	}
	free(sc->procs);
	sc->procs = NULL;
	sc->nprocs = 0;
}

/* With cost_request.hierarchy: the H and alpha of the run of R (ONE's)
 * added to LV's superstep's. */
static void add_run_hierarchy(struct job *j, const struct step_relations *r,
			      struct loop_values *lv, struct step_cost *one)
{
	cost_count_hierarchy(j, r, lv->req, one);
	if (!one->hier)
		return;
	if (!lv->sc->hier) {
		lv->sc->hier = calloc(1, sizeof(*lv->sc->hier));
		if (!lv->sc->hier || hierarchy_init(lv->sc->hier, one->hier->k) < 0) {
			if (lv->sc->hier)
				hierarchy_clear(lv->sc->hier);
			free(lv->sc->hier);
			lv->sc->hier = NULL;
			cost_isl_op_failed(j, "H");
		} else {
			lv->sc->hier->runs = 0;
		}
	}
	if (lv->sc->hier)
		hierarchy_add_run(lv->sc->hier, one->hier);
	hierarchy_clear(one->hier);
	free(one->hier);
	one->hier = NULL;
}

/* Loop D of LV's superstep and the loops inside it, from the values of the
 * outer ones: each iteration counted at values (count_step_values) and
 * added up. */
static void loop_values_at(struct job *j, struct loop_values *lv, int d)
{
	const struct model *m = j->m;
	if (d == lv->nloops) {
		struct step_relations r;
		char *reason = NULL;
		struct model_values mv = {lv->vals, lv->req->sizes};
		int st = relations_values(j->engine->ctx, m, lv->cand, lv->s, &mv, &r, &reason);
		if (st != 0) {
			cost_job_fail(j, st > 0 ? COST_REFUSED : COST_FAILED, reason, m->steps[lv->s].name);
			return;
		}
		struct step_cost one = {.name = lv->sc->name};
		cost_count_step_values(j, &r, lv->req, &one);
		if (lv->req->hierarchy && !failed(&j->fail))
			add_run_hierarchy(j, &r, lv, &one);
		step_relations_clear(&r);
		const struct formula *q[TERM_N] = {one.w, one.h, one.h_in, one.h_out, one.ncom};
		mpq_t x;
		mpq_init(x);
		for (int t = 0; t < TERM_N && !failed(&j->fail); t++) {
			if (!q[t] || formula_eval(q[t], NULL, NULL, 0, x) < 0)
				cost_isl_op_failed(j, m->steps[lv->s].name);
			else
				mpq_add(lv->sum[t], lv->sum[t], x);
		}
		mpq_clear(x);
		if (!failed(&j->fail))
			add_process_counts(j, lv->sc, &one);
		if (!failed(&j->fail) && lv->messages)
			add_run_messages(j, lv, &one);
		lv->iterations++;
		formula_free(one.msgs);
		formula_free(one.msgs_in);
		formula_free(one.msgs_out);
		free(one.msgs_why);
		message_loads_free(one.loads, one.nloads);
		formula_free(one.w);
		formula_free(one.h);
		formula_free(one.h_in);
		formula_free(one.h_out);
		formula_free(one.ncom);
		free_procs(&one);
		return;
	}
	const struct model_loop *lp = &m->loops[lv->loops[d]];
	long long lo, hi;
	if (!cost_aff_value(&lp->lo, lv->vals, lv->req->sizes, &lo) ||
	    !cost_aff_value(&lp->hi, lv->vals, lv->req->sizes, &hi)) {
		char *why = NULL;
		if (asprintf(&why, "a bound of %s does not fit in 64 bits at these values",
			     lp->range) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, lp->var);
		return;
	}
	for (long long v = lo; v < hi && !failed(&j->fail);) {
		if (cost_out_of_time(j))
			return;
		lv->vals[lp->param] = v;
		loop_values_at(j, lv, d + 1);
		if (!model_loop_next(lp, &v))
			break;   /* past any bound */
	}
}

/* --- a loop at values, its variable a parameter ---
 *
 * With every size known, a superstep in one loop is counted with the
 * loop's variable k left the only parameter: the symbolic grid's relations
 * once at the values, each maximum over the processes then a few functions
 * of k (cost_loop_maxima), or else once per process, each process's
 * fan-in, fan-out and work functions of k alone.  Between the points where
 * one of their floors of k, pieces or constraints changes, every function
 * is a polynomial in k: where those stretches are few (a block layout's
 * floors of k/(n/P) step P times), the sums of the maxima are exact sums of
 * polynomials and of their upper envelopes over each stretch
 * (sums_by_stretches, count_poly.h), whatever the number of iterations.
 * Where floors step every few iterations (a cyclic layout: k mod P), k runs
 * over each residue class k = L*t + r of their common denominator L on its
 * own, where they are affine in t, and each class stretch by stretch; a
 * class whose functions do not compile takes the interval route: on an
 * interval where one function is proven the largest (count_max_of), the
 * exact sum of that one (count_sum); elsewhere the interval is halved, down
 * to a few iterations, each the maximum of the functions' values.  Where the
 * classes hold few iterations each (block-cyclic layouts: L = nb*P), or L is
 * too large, and the stretches are many, every function is evaluated at
 * every iteration instead (sums_by_evaluation).  Exact in every route. */
struct by_k {
	struct job *j;
};

/* The largest denominator L (the residue classes) the floors of a loop's
 * functions may have, and the fewest iterations a residue class must have
 * on average: a class rebuilds every process's functions, which costs about
 * what evaluating them at some tens of iterations does (LU on cyclic(32)
 * blocks over 8 x 8 processes, L = 256, n = 4096: 30 s by classes, 11 s
 * evaluated). */
enum { BY_K_PERIOD_MAX = 1024, BY_K_EVAL_PER_CLASS = 64 };

/* F (kept, on the one parameter k) on lo <= k <= hi. */
static __isl_give isl_pw_qpolynomial *on_interval(__isl_keep isl_pw_qpolynomial *f, long long lo,
						  long long hi)
{
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(f);
	isl_set *iv = isl_set_universe(isl_space_params(isl_pw_qpolynomial_get_domain_space(f)));
	iv = isl_set_lower_bound_val(iv, isl_dim_param, 0, val_from_ll(ctx, lo));
	iv = isl_set_upper_bound_val(iv, isl_dim_param, 0, val_from_ll(ctx, hi));
	return isl_pw_qpolynomial_intersect_params(isl_pw_qpolynomial_copy(f), iv);
}

/* OUT += the sum of F (kept) over lo <= k <= hi; -1 after a failure (the job
 * failed). */
static int add_sum(const struct by_k *b, __isl_keep isl_pw_qpolynomial *f, long long lo,
		   long long hi, mpq_t out)
{
	struct job *j = b->j;
	if (failed(&j->fail))
		return -1;
	if (lo > hi)
		return 0;
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(f);
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(f), isl_dim_in,
							      0, isl_dim_param, 0, 1);
	isl_set *iv = isl_set_universe(isl_pw_qpolynomial_get_domain_space(g));
	iv = isl_set_lower_bound_val(iv, isl_dim_set, 0, val_from_ll(ctx, lo));
	iv = isl_set_upper_bound_val(iv, isl_dim_set, 0, val_from_ll(ctx, hi));
	isl_pw_qpolynomial *r = cost_sum_over(j, iv, g, "a loop's sum");
	isl_set_free(iv);
	isl_pw_qpolynomial_free(g);
	if (!r)
		return -1;
	/* no parameter is left: its value anywhere */
	char *reason = NULL;
	isl_val *v = count_eval(r, 0, NULL, NULL, &reason);
	isl_pw_qpolynomial_free(r);
	mpq_t x;
	mpq_init(x);
	if (!val_to_mpq(v, x)) {
		mpq_clear(x);
		cost_job_fail(j, COST_FAILED, reason, "a loop's sum");
		return -1;
	}
	free(reason);
	mpq_add(out, out, x);
	mpq_clear(x);
	return 0;
}

/* The few iterations an interval is left at before each is evaluated. */
enum { BY_K_LEAF = 8 };

/* The upper envelope of functions of k over an interval: pieces a <= k <= b
 * in order, on each of which one function (a copy of it) is the largest. */
struct envelope {
	struct env_piece {
		long long a, b;
		isl_pw_qpolynomial *f;
	} *p;
	int n, cap;
};

static void envelope_clear(struct envelope *e)
{
	for (int i = 0; i < e->n; i++)
		isl_pw_qpolynomial_free(e->p[i].f);
	free(e->p);
	memset(e, 0, sizeof(*e));
}

/* Appends F (taken) on a <= k <= b, merged with the last piece when it is
 * the same function; -1 when out of memory. */
static int envelope_add(struct envelope *e, long long a, long long b,
			__isl_take isl_pw_qpolynomial *f)
{
	if (!f)
		return -1;
	if (e->n > 0 && e->p[e->n - 1].f == f && e->p[e->n - 1].b + 1 == a) {
		e->p[e->n - 1].b = b;
		isl_pw_qpolynomial_free(f);
		return 0;
	}
	if (e->n == e->cap) {
		int cap = e->cap ? 2 * e->cap : 16;
		struct env_piece *p = realloc(e->p, (size_t)cap * sizeof(*p));
		if (!p) {
			isl_pw_qpolynomial_free(f);
			return -1;
		}
		e->p = p;
		e->cap = cap;
	}
	e->p[e->n++] = (struct env_piece){a, b, f};
	return 0;
}

/* The index of the largest of the N functions F at k = K (the first of
 * equals), or -1. */
static long argmax_at(isl_pw_qpolynomial **f, long n, long long k)
{
	mpq_t best, x;
	mpq_init(best);
	mpq_init(x);
	long arg = -1;
	for (long q = 0; q < n; q++) {
		if (count_isl_eval(f[q], &k, x) < 0) {
			arg = -1;
			break;
		}
		if (arg < 0 || mpq_cmp(x, best) > 0) {
			mpq_set(best, x);
			arg = q;
		}
	}
	mpq_clear(best);
	mpq_clear(x);
	return arg;
}

/* The envelope of the N functions F (kept) on lo <= k <= hi, added to E:
 * one function proven the largest on the whole interval (count_max_of), or
 * the two halves; a few iterations, each its largest function. */
static int envelope_of(const struct by_k *b, isl_pw_qpolynomial **f, long n, long long lo,
		       long long hi, struct envelope *e)
{
	struct job *j = b->j;
	if (lo > hi)
		return 0;
	if (failed(&j->fail) || cost_out_of_time(j))
		return -1;
	if (n == 1 && envelope_add(e, lo, hi, isl_pw_qpolynomial_copy(f[0])) < 0) {
		cost_isl_op_failed(j, "a loop's maximum");
		return -1;
	}
	if (n == 1)
		return 0;
	if (hi - lo + 1 > BY_K_LEAF) {
		/* a proof is tried only where the largest one at both ends is the
		 * same function */
		long x = argmax_at(f, n, lo), y = argmax_at(f, n, hi);
		if (x >= 0 && x == y) {
			isl_pw_qpolynomial **on = calloc((size_t)n, sizeof(*on));
			bool ok = on != NULL;
			for (long q = 0; ok && q < n; q++)
				ok = (on[q] = on_interval(f[q], lo, hi)) != NULL;
			/* the one proven the largest kept as F[w] itself, so
			 * that equal pieces merge */
			int w = -1;
			char *reason = NULL;
			if (ok)
				count_max_of_index(j->engine, on, (int)n, &w, &reason);
			free(reason);
			cost_free_all(on, n);
			if (!ok) {
				cost_isl_op_failed(j, "a loop's maximum");
				return -1;
			}
			if (w >= 0 && envelope_add(e, lo, hi, isl_pw_qpolynomial_copy(f[w])) < 0) {
				cost_isl_op_failed(j, "a loop's maximum");
				return -1;
			}
			if (w >= 0)
				return 0;
		}
		long long mid = lo + (hi - lo) / 2;
		if (envelope_of(b, f, n, lo, mid, e) < 0)
			return -1;
		return envelope_of(b, f, n, mid + 1, hi, e);
	}
	for (long long k = lo; k <= hi; k++) {
		long x = argmax_at(f, n, k);
		if (x < 0 || envelope_add(e, k, k, isl_pw_qpolynomial_copy(f[x])) < 0) {
			cost_isl_op_failed(j, "a loop's maximum");
			return -1;
		}
	}
	return 0;
}

/* OUT += the sum of the envelope E. */
static int add_envelope_sum(const struct by_k *b, const struct envelope *e, mpq_t out)
{
	for (int i = 0; i < e->n; i++)
		if (add_sum(b, e->p[i].f, e->p[i].a, e->p[i].b, out) < 0)
			return -1;
	return 0;
}

/* Adds to E the envelope of max(X(k), Y(k)), X and Y two envelopes of the
 * same interval: on each piece of their common refinement, the envelope of
 * the two functions there. */
static int merge_envelopes(const struct by_k *b, const struct envelope *x,
			   const struct envelope *y, struct envelope *e)
{
	int r = 0;
	for (int i = 0, k = 0; r == 0 && i < x->n && k < y->n;) {
		long long a = x->p[i].a > y->p[k].a ? x->p[i].a : y->p[k].a;
		long long z = x->p[i].b < y->p[k].b ? x->p[i].b : y->p[k].b;
		isl_pw_qpolynomial *two[2] = {x->p[i].f, y->p[k].f};
		r = envelope_of(b, two, two[0] == two[1] ? 1 : 2, a, z, e);
		if (x->p[i].b == z)
			i++;
		if (y->p[k].b == z)
			k++;
	}
	return r;
}

/* The envelope of the N functions F (kept) on lo <= k <= hi, into E: as a
 * tournament, the envelopes of the two halves merged, so that each proof
 * compares two functions only. */
static int envelope_tree(const struct by_k *b, isl_pw_qpolynomial **f, long n, long long lo,
			 long long hi, struct envelope *e)
{
	if (n <= 2)
		return envelope_of(b, f, n, lo, hi, e);
	struct envelope x = {0}, y = {0};
	int r = envelope_tree(b, f, n / 2, lo, hi, &x);
	if (r == 0)
		r = envelope_tree(b, f + n / 2, n - n / 2, lo, hi, &y);
	if (r == 0)
		r = merge_envelopes(b, &x, &y, e);
	envelope_clear(&x);
	envelope_clear(&y);
	return r;
}

/* OUT += the sum over the iterations of max(X(k), Y(k)). */
static int add_max_of_envelopes(const struct by_k *b, const struct envelope *x,
				const struct envelope *y, mpq_t out)
{
	struct envelope e = {0};
	int r = merge_envelopes(b, x, y, &e);
	if (r == 0)
		r = add_envelope_sum(b, &e, out);
	envelope_clear(&e);
	return r;
}

/* The least common multiple of the periods in k of the floors in F that
 * change value often over the iterations (RANGE of them); a floor that
 * changes value at most BY_K_STEPS times is left as it is: the stretches
 * between its steps are few (sums_by_stretches; LU's blocks of n/M rows: M
 * steps, whatever n). */
struct period {
	long l;
	bool too_large;
	long long range;
};

enum { BY_K_STEPS = 64 };

static isl_stat period_of_aff(__isl_take isl_aff *div, struct period *p)
{
	/* floor(v*k + ...): it steps about |v|*RANGE times, its period is
	 * v's denominator; a floor within it (a division of a division) is
	 * not read: the whole denominator then */
	isl_size nd = isl_aff_dim(div, isl_dim_div);
	isl_val *v = isl_aff_get_coefficient_val(div, isl_dim_param, 0);
	bool nested = false;
	for (int i = 0; i < nd && !nested; i++) {
		isl_val *c = isl_aff_get_coefficient_val(div, isl_dim_div, i);
		nested = !c || !isl_val_is_zero(c);
		isl_val_free(c);
	}
	/* |v| <= BY_K_STEPS / RANGE */
	isl_val *most = v && !nested && nd >= 0
		? isl_val_div(isl_val_int_from_si(isl_val_get_ctx(v), BY_K_STEPS),
			      val_from_ll(isl_val_get_ctx(v), p->range))
		: NULL;
	isl_val *size = most ? isl_val_abs(isl_val_copy(v)) : NULL;
	isl_bool rare = size && most ? isl_val_le(size, most) : isl_bool_false;
	isl_val_free(size);
	isl_val_free(v);
	isl_val_free(most);
	if (rare == isl_bool_true) {
		isl_aff_free(div);
		return isl_stat_ok;
	}
	isl_val *d = isl_aff_get_denominator_val(div);
	isl_aff_free(div);
	long long x;
	if (!val_to_ll(d, &x) || x <= 0 || x > BY_K_PERIOD_MAX) {
		p->too_large = true;
		return isl_stat_error;
	}
	long a = p->l, b = (long)x;
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	p->l = p->l / a * (long)x;
	if (p->l > BY_K_PERIOD_MAX) {
		p->too_large = true;
		return isl_stat_error;
	}
	return isl_stat_ok;
}

static isl_stat period_term(__isl_take isl_term *t, void *user)
{
	isl_size nd = isl_term_dim(t, isl_dim_div);
	isl_stat st = nd < 0 ? isl_stat_error : isl_stat_ok;
	for (int i = 0; i < nd && st == isl_stat_ok; i++)
		st = period_of_aff(isl_term_get_div(t, (unsigned)i), user);
	isl_term_free(t);
	return st;
}

static isl_stat period_bset(__isl_take isl_basic_set *bs, void *user)
{
	isl_size nd = isl_basic_set_dim(bs, isl_dim_div);
	isl_stat st = nd < 0 ? isl_stat_error : isl_stat_ok;
	for (int i = 0; i < nd && st == isl_stat_ok; i++)
		st = period_of_aff(isl_basic_set_get_div(bs, i), user);
	isl_basic_set_free(bs);
	return st;
}

static isl_stat period_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	isl_stat st = isl_qpolynomial_foreach_term(qp, period_term, user);
	if (st == isl_stat_ok)
		st = isl_set_foreach_basic_set(set, period_bset, user);
	isl_set_free(set);
	isl_qpolynomial_free(qp);
	return st;
}

/* F (kept, on the one parameter k) at k = L*t + R, as a function of t (in
 * k's place): each term rebuilt, its floors pulled back (ISL then reduces
 * floor((L*t + c)/L) to t + floor(c/L)). */
struct residue {
	isl_multi_aff *ma;          /* [t] -> [L*t + R] */
	isl_qpolynomial *sub;       /* L*t + R */
	isl_qpolynomial *qp;        /* the piece's, being rebuilt */
};

static isl_stat residue_term(__isl_take isl_term *t, void *user)
{
	struct residue *rs = user;
	isl_space *dom = isl_qpolynomial_get_domain_space(rs->sub);
	isl_qpolynomial *q = isl_qpolynomial_val_on_domain(dom, isl_term_get_coefficient_val(t));
	isl_size e = isl_term_get_exp(t, isl_dim_set, 0);
	if (e > 0)
		q = isl_qpolynomial_mul(q, isl_qpolynomial_pow(isl_qpolynomial_copy(rs->sub),
							       (unsigned)e));
	isl_size nd = isl_term_dim(t, isl_dim_div);
	for (int d = 0; d < nd && q; d++) {
		isl_size f = isl_term_get_exp(t, isl_dim_div, (unsigned)d);
		if (f <= 0)
			continue;
		/* the division as an affine quotient (no floor): floored here */
		isl_aff *div = isl_aff_pullback_multi_aff(isl_aff_floor(isl_term_get_div(t, (unsigned)d)),
							  isl_multi_aff_copy(rs->ma));
		q = isl_qpolynomial_mul(q, isl_qpolynomial_pow(isl_qpolynomial_from_aff(div),
							       (unsigned)f));
	}
	isl_term_free(t);
	rs->qp = isl_qpolynomial_add(rs->qp, q);
	return e < 0 || nd < 0 || !rs->qp ? isl_stat_error : isl_stat_ok;
}

struct residues_acc {
	struct residue *rs;
	isl_pw_qpolynomial *acc;
};

static isl_stat residue_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct residues_acc *ra = user;
	struct residue *rs = ra->rs;
	set = isl_set_preimage_multi_aff(set, isl_multi_aff_copy(rs->ma));
	rs->qp = isl_qpolynomial_zero_on_domain(isl_qpolynomial_get_domain_space(rs->sub));
	isl_stat st = isl_qpolynomial_foreach_term(qp, residue_term, rs);
	isl_qpolynomial_free(qp);
	isl_qpolynomial *q = rs->qp;
	rs->qp = NULL;
	if (st < 0) {
		isl_set_free(set);
		isl_qpolynomial_free(q);
		return isl_stat_error;
	}
	ra->acc = isl_pw_qpolynomial_add_disjoint(ra->acc, isl_pw_qpolynomial_alloc(set, q));
	return ra->acc ? isl_stat_ok : isl_stat_error;
}

static __isl_give isl_pw_qpolynomial *residue(__isl_keep isl_pw_qpolynomial *f, long l, long r)
{
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(f), isl_dim_in,
							      0, isl_dim_param, 0, 1);
	if (!g)
		return NULL;
	isl_space *dom = isl_pw_qpolynomial_get_domain_space(g);
	isl_aff *t = isl_aff_var_on_domain(isl_local_space_from_space(dom), isl_dim_set, 0);
	t = isl_aff_add_constant_si(isl_aff_scale_val(t, isl_val_int_from_si(
					    isl_pw_qpolynomial_get_ctx(g), l)), (int)r);
	struct residue rs = {isl_multi_aff_from_aff(isl_aff_copy(t)), isl_qpolynomial_from_aff(t),
			     NULL};
	struct residues_acc ra = {&rs, isl_pw_qpolynomial_zero(isl_pw_qpolynomial_get_space(g))};
	if (isl_pw_qpolynomial_foreach_piece(g, residue_piece, &ra) < 0)
		ra.acc = isl_pw_qpolynomial_free(ra.acc);
	isl_pw_qpolynomial_free(g);
	isl_multi_aff_free(rs.ma);
	isl_qpolynomial_free(rs.sub);
	return isl_pw_qpolynomial_move_dims(ra.acc, isl_dim_param, 0, isl_dim_in, 0, 1);
}

/* A superstep's functions of k, for the sums over a loop's iterations:
 * per quantity (MAXIMA_W .. MAXIMA_BOTH) the functions whose largest is the
 * maximum over the processes, and the functions whose sum is NCom.  Either
 * one per process (PROCS: cost_count_processes, NCom the sum of the
 * fan-ins, NCOM NULL), or a few per quantity (cost_count_maxima, NCOM its
 * sum over the processes). */
struct k_functions {
	isl_pw_qpolynomial **f[MAXIMA_N];
	long n[MAXIMA_N];
	isl_pw_qpolynomial **ncom;
	long nncom;
	bool procs;
};

static void k_functions_clear(struct k_functions *kf)
{
	for (int t = 0; t < MAXIMA_N; t++)
		cost_free_all(kf->f[t], kf->n[t]);
	cost_free_all(kf->ncom, kf->nncom);
	memset(kf, 0, sizeof(*kf));
}

/* KF from PF's functions (taken), one per process. */
static void k_functions_of_processes(struct k_functions *kf, struct process_functions *pf)
{
	*kf = (struct k_functions){.procs = true};
	isl_pw_qpolynomial **const of[MAXIMA_N] = {pf->w, pf->fi, pf->fo, pf->both};
	for (int t = 0; t < MAXIMA_N; t++) {
		kf->f[t] = of[t];
		kf->n[t] = of[t] ? pf->n : 0;
	}
	memset(pf, 0, sizeof(*pf));
}

/* KF from SM's functions (taken). */
static int k_functions_of_maxima(struct job *j, struct k_functions *kf, struct step_maxima *sm)
{
	*kf = (struct k_functions){.procs = false};
	for (int t = 0; t < MAXIMA_N; t++) {
		kf->f[t] = sm->f[t];
		kf->n[t] = sm->n[t];
		sm->f[t] = NULL;
		sm->n[t] = 0;
	}
	kf->ncom = calloc(1, sizeof(*kf->ncom));
	if (!kf->ncom) {
		cost_step_maxima_clear(sm);
		cost_isl_op_failed(j, "a loop's values");
		return -1;
	}
	kf->ncom[0] = sm->ncom;
	kf->nncom = 1;
	sm->ncom = NULL;
	return 0;
}

/* The functions NCom adds: KF's own, or its fan-ins. */
static isl_pw_qpolynomial **ncom_terms(const struct k_functions *kf, long *n)
{
	*n = kf->ncom ? kf->nncom : kf->n[MAXIMA_IN];
	return kf->ncom ? kf->ncom : kf->f[MAXIMA_IN];
}

/* F[0..N) (kept) at k = L*t + R, into *OUT (all of them when L is 1). */
static int residues_of(struct job *j, isl_pw_qpolynomial *const *f, long n, long l, long r,
		       isl_pw_qpolynomial ***out)
{
	*out = NULL;
	if (!f)
		return 0;
	*out = calloc((size_t)n + 1, sizeof(**out));
	for (long q = 0; *out && q < n; q++)
		if (!((*out)[q] = l == 1 ? isl_pw_qpolynomial_copy(f[q]) : residue(f[q], l, r))) {
			cost_isl_op_failed(j, "a loop's residues");
			return -1;
		}
	if (!*out) {
		cost_isl_op_failed(j, "a loop's residues");
		return -1;
	}
	return 0;
}

/* The functions of KF at k = L*t + R. */
static int residues(struct job *j, const struct k_functions *kf, long l, long r,
		    struct k_functions *out)
{
	*out = (struct k_functions){.procs = kf->procs};
	for (int t = 0; t < MAXIMA_N; t++) {
		out->n[t] = kf->n[t];
		if (residues_of(j, kf->f[t], kf->n[t], l, r, &out->f[t]) < 0)
			return -1;
	}
	out->nncom = kf->nncom;
	return residues_of(j, kf->ncom, kf->nncom, l, r, &out->ncom);
}

/* KF's functions as lists: the four quantities' (MAXIMA_W .. MAXIMA_BOTH),
 * then NCom's own terms as a fifth (none where NCom is the sum of the
 * fan-ins: KF one function per process). */
enum { K_LISTS = MAXIMA_N + 1 };

static void k_lists(const struct k_functions *kf, isl_pw_qpolynomial **fs[K_LISTS],
		    long ns[K_LISTS])
{
	for (int t = 0; t < MAXIMA_N; t++) {
		fs[t] = kf->f[t];
		ns[t] = kf->f[t] ? kf->n[t] : 0;
	}
	fs[MAXIMA_N] = kf->ncom;
	ns[MAXIMA_N] = kf->ncom ? kf->nncom : 0;
}

/* The points count_compiled_new checks a compiled function at against ISL:
 * the ends of lo..hi, its middle and a few iterations between. */
enum { K_PROBES = 8 };

static void k_probes(long long lo, long long hi, long long probe[K_PROBES])
{
	for (int p = 0; p < K_PROBES; p++)
		probe[p] = lo + (long long)((__int128)(hi - lo) * p / (K_PROBES - 1));
}

/* The sums of KF's maxima over lo <= k <= hi, each iteration's functions
 * evaluated at its k (no count per iteration): for floors of k whose
 * residue classes hold few iterations each, where rebuilding every function
 * per class costs more than evaluating it.  Added to SUM and, per process,
 * to SC (PROC_AT: where process Q's counts go; KF one function per
 * process); -1 after a failure. */
static int sums_by_evaluation(struct job *j, const struct k_functions *kf,
			      const struct cost_request *req, long long lo, long long hi,
			      mpq_t sum[TERM_N], struct step_cost *sc, const long *proc_at)
{
	mpq_t x, best[MAXIMA_N], tot;
	mpq_init(x);
	mpq_init(tot);
	for (int t = 0; t < MAXIMA_N; t++)
		mpq_init(best[t]);
	isl_pw_qpolynomial **fs[K_LISTS];
	long ns[K_LISTS];
	k_lists(kf, fs, ns);
	/* each function compiled (count_compiled.h), checked against ISL at
	 * the probes; ISL evaluates one that is not */
	long long probe[K_PROBES];
	k_probes(lo, hi, probe);
	struct count_compiled **cc[K_LISTS] = {0};
	for (int t = 0; t < K_LISTS; t++) {
		cc[t] = calloc((size_t)ns[t] + 1, sizeof(**cc));
		for (long q = 0; cc[t] && q < ns[t]; q++)
			cc[t][q] = count_compiled_new(fs[t][q], probe, K_PROBES);
	}
	int r = 0;
	for (long long k = lo; k <= hi && r == 0; k++) {
		if (cost_out_of_time(j)) {
			r = -1;
			break;
		}
		mpq_set_ui(tot, 0, 1);
		for (int t = 0; t < K_LISTS && r == 0; t++) {
			for (long q = 0; q < ns[t] && r == 0; q++) {
				const struct count_compiled *c = cc[t] ? cc[t][q] : NULL;
				if ((!c || count_compiled_eval(c, &k, x) < 0) &&
				    count_isl_eval(fs[t][q], &k, x) < 0) {
					cost_isl_op_failed(j, "a loop's values");
					r = -1;
					break;
				}
				if (t == MAXIMA_N) {
					mpq_add(tot, tot, x);
					continue;
				}
				if (q == 0 || mpq_cmp(x, best[t]) > 0)
					mpq_set(best[t], x);
				if (t == MAXIMA_IN && !kf->ncom)
					mpq_add(tot, tot, x);
				if (proc_at && kf->procs && t < MAXIMA_BOTH) {
					struct process_cost *pc = &sc->procs[proc_at[q]];
					mpz_ptr to = t == MAXIMA_W ? pc->w
						   : t == MAXIMA_IN ? pc->in : pc->out;
					mpz_add(to, to, mpq_numref(x));
				}
			}
		}
		if (r != 0)
			break;
		mpq_add(sum[TERM_W], sum[TERM_W], best[MAXIMA_W]);
		mpq_add(sum[TERM_H_IN], sum[TERM_H_IN], best[MAXIMA_IN]);
		mpq_add(sum[TERM_H_OUT], sum[TERM_H_OUT], best[MAXIMA_OUT]);
		if (req->h == H_MAX)
			mpq_add(sum[TERM_H], sum[TERM_H],
				mpq_cmp(best[MAXIMA_IN], best[MAXIMA_OUT]) >= 0 ? best[MAXIMA_IN]
										: best[MAXIMA_OUT]);
		else
			mpq_add(sum[TERM_H], sum[TERM_H], best[MAXIMA_BOTH]);
		mpq_add(sum[TERM_NCOM], sum[TERM_NCOM], tot);
	}
	mpq_clear(x);
	mpq_clear(tot);
	for (int t = 0; t < MAXIMA_N; t++)
		mpq_clear(best[t]);
	for (int t = 0; t < K_LISTS; t++) {
		for (long q = 0; cc[t] && q < ns[t]; q++)
			count_compiled_free(cc[t][q]);
		free(cc[t]);
	}
	return r;
}

/* The most stretches a loop's functions may split lo..hi into for
 * sums_by_stretches: past it (a floor that steps every few iterations) the
 * residue classes or each iteration's values do better. */
enum { BY_K_STRETCHES = 2048 };

/* The most stretches worth walking over lo..hi before the residue
 * classes: on average eight iterations each (a cyclic layout's floors of k/P
 * step every P iterations), and BY_K_STRETCHES at most. */
static long by_k_stretches(long long lo, long long hi)
{
	long long most = (hi - lo + 1) / 8;
	return most < 1 ? 1 : most > BY_K_STRETCHES ? BY_K_STRETCHES : (long)most;
}

/* The sums of KF's maxima over lo <= k <= hi stretch by stretch: each
 * function compiled (count_compiled.h), split where one of its floors,
 * pieces or constraints changes, so that on each stretch every function is
 * a polynomial in k; there the sums of the largest and of NCom's terms
 * are exact sums of polynomials (count_poly.h), with no proof and no
 * evaluation per iteration.  Added to SUM and, per process, to SC
 * (PROC_AT as for sums_by_evaluation) only when all of it is done.  0;
 * 1 when a function does not compile, has a term past COUNT_POLY_MAXDEG,
 * or the stretches are more than MOST (nothing added: another route
 * counts it); -1 when out of memory or time (the job failed). */
static int sums_by_stretches(struct job *j, const struct k_functions *kf,
			     const struct cost_request *req, long long lo, long long hi, long most,
			     mpq_t sum[TERM_N], struct step_cost *sc, const long *proc_at)
{
	/* (NCom the fan-ins: added from the MAXIMA_IN list's polynomials) */
	isl_pw_qpolynomial **fs[K_LISTS];
	long ns[K_LISTS];
	k_lists(kf, fs, ns);
	/* every list's functions one after another (FIRST[t]: list t's first) */
	long total = 0;
	for (int t = 0; t < K_LISTS; t++)
		total += ns[t];
	long long probe[K_PROBES];
	k_probes(lo, hi, probe);
	struct count_compiled **cc = calloc((size_t)total + 1, sizeof(*cc));
	struct count_poly *poly = calloc((size_t)total + 1, sizeof(*poly));
	struct count_poly *both = calloc((size_t)(ns[MAXIMA_IN] + ns[MAXIMA_OUT]) + 1,
					 sizeof(*both));
	long nproc = proc_at && kf->procs ? kf->n[MAXIMA_W] : 0;
	mpq_t *acc = calloc((size_t)(TERM_N + 3 * nproc), sizeof(*acc));
	int r = cc && poly && both && acc ? 0 : -1;
	for (long q = 0; poly && q < total; q++)
		count_poly_init(&poly[q]);
	for (long q = 0; acc && q < TERM_N + 3 * nproc; q++)
		mpq_init(acc[q]);
	for (int t = 0, at = 0; r == 0 && t < K_LISTS; at += (int)ns[t], t++)
		for (long q = 0; r == 0 && q < ns[t]; q++)
			if (!(cc[at + q] = count_compiled_new(fs[t][q], probe, K_PROBES)))
				r = 1;
	long first[K_LISTS];
	for (int t = 0, at = 0; t < K_LISTS; at += (int)ns[t], t++)
		first[t] = at;
	long stretches = 0;
	for (long long x = lo; r == 0 && x <= hi;) {
		bool late = cost_out_of_time(j);
		if (late || ++stretches > most) {
			r = late ? -1 : 1;
			break;
		}
		long long next = hi + 1;
		for (long q = 0; r == 0 && q < total; q++) {
			long long nx;
			if (count_compiled_poly_at(cc[q], x, hi, &nx, poly[q].c, COUNT_POLY_MAXDEG,
						   &poly[q].deg) < 0)
				r = 1;
			else if (nx < next)
				next = nx;
		}
		if (r != 0)
			break;
		/* x .. next - 1: polynomials all */
		const enum cost_term to[MAXIMA_N] = {TERM_W, TERM_H_IN, TERM_H_OUT, TERM_H};
		for (int t = 0; r == 0 && t < MAXIMA_N; t++) {
			if (t == MAXIMA_BOTH && req->h == H_MAX)
				continue;
			if (ns[t] > 0 && count_poly_add_max_sum(&poly[first[t]], (int)ns[t], x,
								next - 1, acc[to[t]]) < 0)
				r = -1;
		}
		if (r == 0 && req->h == H_MAX && ns[MAXIMA_IN] + ns[MAXIMA_OUT] > 0) {
			/* the same polynomials, side by side (shallow copies) */
			long nb = 0;
			for (long q = 0; q < ns[MAXIMA_IN]; q++)
				both[nb++] = poly[first[MAXIMA_IN] + q];
			for (long q = 0; q < ns[MAXIMA_OUT]; q++)
				both[nb++] = poly[first[MAXIMA_OUT] + q];
			if (count_poly_add_max_sum(both, (int)nb, x, next - 1, acc[TERM_H]) < 0)
				r = -1;
		}
		for (long q = 0; r == 0 && q < ns[MAXIMA_N]; q++)
			count_poly_add_sum(&poly[first[MAXIMA_N] + q], x, next - 1, acc[TERM_NCOM]);
		for (long q = 0; r == 0 && !kf->ncom && q < ns[MAXIMA_IN]; q++)
			count_poly_add_sum(&poly[first[MAXIMA_IN] + q], x, next - 1, acc[TERM_NCOM]);
		for (long q = 0; r == 0 && q < nproc; q++) {
			count_poly_add_sum(&poly[first[MAXIMA_W] + q], x, next - 1, acc[TERM_N + 3 * q]);
			count_poly_add_sum(&poly[first[MAXIMA_IN] + q], x, next - 1,
					   acc[TERM_N + 3 * q + 1]);
			count_poly_add_sum(&poly[first[MAXIMA_OUT] + q], x, next - 1,
					   acc[TERM_N + 3 * q + 2]);
		}
		x = next;
	}
	if (r == 0) {
		for (int t = 0; t < TERM_N; t++)
			mpq_add(sum[t], sum[t], acc[t]);
		for (long q = 0; q < nproc; q++) {
			struct process_cost *pc = &sc->procs[proc_at[q]];
			mpz_add(pc->w, pc->w, mpq_numref(acc[TERM_N + 3 * q]));
			mpz_add(pc->in, pc->in, mpq_numref(acc[TERM_N + 3 * q + 1]));
			mpz_add(pc->out, pc->out, mpq_numref(acc[TERM_N + 3 * q + 2]));
		}
	}
	for (long q = 0; cc && q < total; q++)
		count_compiled_free(cc[q]);
	for (long q = 0; poly && q < total; q++)
		count_poly_clear(&poly[q]);
	for (long q = 0; acc && q < TERM_N + 3 * nproc; q++)
		mpq_clear(acc[q]);
	free(cc);
	free(poly);
	free(both);
	free(acc);
	if (r < 0 && !failed(&j->fail))
		cost_isl_op_failed(j, "a loop's sums");
	return r;
}

/* floor(a / b), b > 0. */
static long long floor_div(long long a, long long b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The sums of KF's maxima over lo <= k <= hi by the residue classes of k
 * modulo L (all of it when L is 1), each class's functions rebuilt on k =
 * L*t + r and summed stretch by stretch (with STRETCHES) or else by their
 * envelopes (above); added to SUM and, per process, to SC (PROC_AT as for
 * sums_by_evaluation).  -1 after a failure. */
static int sums_by_classes(struct job *j, const struct k_functions *kf,
			   const struct cost_request *req, long l, long long lo, long long hi,
			   bool stretches, mpq_t sum[TERM_N], struct step_cost *sc,
			   const long *proc_at)
{
	struct by_k b = {j};
	long nproc = kf->n[MAXIMA_W];
	mpq_t x;
	mpq_init(x);
	for (long rr = 0; rr < l && !failed(&j->fail); rr++) {
		/* k = L*t + rr for tlo <= t <= thi */
		long long tlo = -floor_div(-(lo - rr), l), thi = floor_div(hi - rr, l);
		if (tlo > thi)
			continue;
		struct k_functions g = {0};
		int by_stretches = 1;
		if (residues(j, kf, l, rr, &g) == 0 && stretches)
			by_stretches = sums_by_stretches(j, &g, req, tlo, thi, BY_K_STRETCHES, sum, sc,
							 proc_at);
		if (by_stretches == 0 || failed(&j->fail)) {
			k_functions_clear(&g);
			continue;
		}
		if (!failed(&j->fail)) {
			struct envelope ew = {0}, ei = {0}, eo = {0}, eh = {0};
			if (envelope_tree(&b, g.f[MAXIMA_W], g.n[MAXIMA_W], tlo, thi, &ew) == 0)
				add_envelope_sum(&b, &ew, sum[TERM_W]);
			if (envelope_tree(&b, g.f[MAXIMA_IN], g.n[MAXIMA_IN], tlo, thi, &ei) == 0)
				add_envelope_sum(&b, &ei, sum[TERM_H_IN]);
			if (envelope_tree(&b, g.f[MAXIMA_OUT], g.n[MAXIMA_OUT], tlo, thi, &eo) == 0)
				add_envelope_sum(&b, &eo, sum[TERM_H_OUT]);
			/* h = max(h_in, h_out), or the largest fi + fo */
			if (req->h == H_MAX && !failed(&j->fail))
				add_max_of_envelopes(&b, &ei, &eo, sum[TERM_H]);
			else if (envelope_tree(&b, g.f[MAXIMA_BOTH], g.n[MAXIMA_BOTH], tlo, thi,
					       &eh) == 0)
				add_envelope_sum(&b, &eh, sum[TERM_H]);
			envelope_clear(&ew);
			envelope_clear(&ei);
			envelope_clear(&eo);
			envelope_clear(&eh);
			long gn;
			isl_pw_qpolynomial **gf = ncom_terms(&g, &gn);
			isl_pw_qpolynomial *ncom = cost_sum_tree(j, gf, gn);
			if (ncom)
				add_sum(&b, ncom, tlo, thi, sum[TERM_NCOM]);
			isl_pw_qpolynomial_free(ncom);
		}
		/* each process's counts summed over the iterations */
		for (long q = 0; proc_at && q < nproc && !failed(&j->fail); q++) {
			struct process_cost *pc = &sc->procs[proc_at[q]];
			isl_pw_qpolynomial *fs[3] = {g.f[MAXIMA_W][q], g.f[MAXIMA_IN][q],
						     g.f[MAXIMA_OUT][q]};
			mpz_ptr to[3] = {pc->w, pc->in, pc->out};
			for (int t = 0; t < 3 && !failed(&j->fail); t++) {
				mpq_set_ui(x, 0, 1);
				if (add_sum(&b, fs[t], tlo, thi, x) == 0)
					mpz_add(to[t], to[t], mpq_numref(x));
			}
		}
		k_functions_clear(&g);
	}
	mpq_clear(x);
	return failed(&j->fail) ? -1 : 0;
}

/* Superstep S of candidate CAND in exactly one loop, every value known: its
 * sums over the iterations lo <= k <= hi with k a parameter (above), added
 * to SUM (TERM_W .. TERM_NCOM) and, per process, to SC.  The maxima over
 * the processes come from one count of the symbolic grid's relations at the
 * values (cost_loop_maxima: a few functions of k, whatever the number of
 * processes), or, where the symbolic grid has no form there or each
 * process's sums are asked for, from each process counted on its own (up to
 * EACH_PROCESS_MAX of them).  -1 when it could not (the job
 * failed: the caller counts iteration by iteration then). */
static int loop_values_by_k(struct job *j, int cand, int s, const struct cost_request *req,
			    long long lo, long long hi, mpq_t sum[TERM_N], struct step_cost *sc)
{
	const struct model *m = j->m;
	int kpos = m->loops[m->steps[s].loop].param;
	long nproc = 1;
	for (int a = 0; a < j->naxes; a++)
		nproc *= req->sizes[a];
	struct k_functions kf = {0};
	bool counted = false;
	/* (past PER_PROCESS_MAX processes --per-process prints no table) */
	if (!req->per_process || nproc > PER_PROCESS_MAX) {
		/* its own job: where it has no form, the processes one by one */
		struct job sub = cost_explain_job(j);
		struct step_maxima sm;
		if (cost_loop_maxima(&sub, cand, s, req, lo, hi, &sm) == 0) {
			counted = k_functions_of_maxima(j, &kf, &sm) == 0;
		} else if (sub.timed_out || session_ctx_stopped(j->engine->ctx)) {
			/* the deadline: the job fails with it */
			j->fail = sub.fail;
			j->timed_out = true;
			cost_out_of_time(j);
		} else {
			fail_clear(&sub.fail);
			isl_ctx_reset_error(j->engine->ctx);
		}
	}
	if (!counted && !failed(&j->fail) && nproc > EACH_PROCESS_MAX)
		cost_job_fail(j, COST_REFUSED,
			      strdup("its maximum over the processes needs each process counted, "
				     "and there are too many"),
			      m->steps[s].name);
	if (!counted && !failed(&j->fail)) {
		struct step_relations r;
		char *reason = NULL;
		int st = relations_concrete_blocks(j->engine->ctx, m, cand, s, req->sizes,
						   req->values, &r, &reason);
		if (st != 0) {
			cost_job_fail(j, st > 0 ? COST_REFUSED : COST_FAILED, reason, m->steps[s].name);
			return -1;
		}
		/* every parameter at its value but k (another loop's variable: 0),
		 * then k the only one */
		isl_space *space = model_param_space(j->engine->ctx, m, false);
		isl_set *at = isl_set_universe(space);
		for (int p = 0; p < m->nparams; p++)
			if (p != kpos)
				at = isl_set_fix_val(at, isl_dim_param, (unsigned)p,
						     val_from_ll(j->engine->ctx,
								 p < model_nsizes(m) ? req->values[p] : 0));
		if (!at || step_relations_restrict(&r, at) < 0 ||
		    step_relations_keep_param(&r, kpos) < 0)
			cost_isl_op_failed(j, m->steps[s].name);
		isl_set_free(at);
		struct process_functions pf = {0};
		if (!failed(&j->fail))
			cost_count_processes(j, &r, req, &pf);
		k_functions_of_processes(&kf, &pf);
		step_relations_clear(&r);
	}
	/* the residue classes of k the floors need */
	struct period per = {1, false, hi - lo + 1};
	long nn;
	isl_pw_qpolynomial **nf = ncom_terms(&kf, &nn);
	for (int t = 0; t <= MAXIMA_N && !failed(&j->fail) && !per.too_large; t++) {
		isl_pw_qpolynomial **f = t < MAXIMA_N ? kf.f[t] : nf;
		long n = t < MAXIMA_N ? kf.n[t] : nn;
		for (long q = 0; f && q < n && !per.too_large; q++)
			if (isl_pw_qpolynomial_foreach_piece(f[q], period_piece, &per) < 0 &&
			    !per.too_large)
				cost_isl_op_failed(j, "a loop's residues");
	}
	/* few iterations per residue class, or too many classes: each
	 * iteration's functions evaluated instead */
	bool evaluate = per.too_large || (per.l > 1 && (hi - lo + 1) / per.l < BY_K_EVAL_PER_CLASS);
	bool each = kf.procs && req->per_process && nproc <= PER_PROCESS_MAX;
	if (!failed(&j->fail) && each && !(sc->procs = calloc((size_t)nproc, sizeof(*sc->procs))))
		cost_isl_op_failed(j, "the counts per process");
	if (!failed(&j->fail) && each) {
		sc->nprocs = (int)nproc;
		for (long q = 0; q < nproc; q++) {
			struct process_cost *pc = &sc->procs[q];
			mpz_inits(pc->w, pc->in, pc->out, pc->msgs_in, pc->msgs_out, NULL);
			/* the first axis slowest */
			for (int a = j->naxes - 1, rest = (int)q; a >= 0; a--) {
				pc->q[a] = rest % req->sizes[a];
				rest /= (int)req->sizes[a];
			}
		}
	}
	/* count_processes' process Q (the first axis fastest) in SC's order
	 * (the first axis slowest) */
	long *proc_at = sc->procs ? calloc((size_t)nproc + 1, sizeof(*proc_at)) : NULL;
	if (sc->procs && !proc_at)
		cost_isl_op_failed(j, "the counts per process");
	for (long q = 0; proc_at && q < nproc; q++) {
		long at = 0;
		for (int a = 0, rest = (int)q; a < j->naxes; a++) {
			long c = rest % req->sizes[a];
			rest /= (int)req->sizes[a];
			int below = 1;
			for (int y = a + 1; y < j->naxes; y++)
				below *= (int)req->sizes[y];
			at += c * below;
		}
		proc_at[q] = at;
	}
	/* stretch by stretch where they are few (a block layout's floors step
	 * at the blocks' ends only), in residue classes where floors step
	 * every few iterations, or else iteration by iteration */
	bool few = per.l == 1 && !per.too_large, tried = !failed(&j->fail) && (few || evaluate);
	bool done = tried && sums_by_stretches(j, &kf, req, lo, hi,
					       few ? BY_K_STRETCHES : by_k_stretches(lo, hi), sum,
					       sc, proc_at) == 0;
	if (done || failed(&j->fail)) {
		per.l = 0;
	} else if (evaluate) {
		sums_by_evaluation(j, &kf, req, lo, hi, sum, sc, proc_at);
		per.l = 0; /* no residue classes */
	}
	if (per.l > 0 && !failed(&j->fail))
		/* (one class of the same functions: the stretches were tried) */
		sums_by_classes(j, &kf, req, per.l, lo, hi, !(tried && per.l == 1), sum, sc, proc_at);
	free(proc_at);
	k_functions_clear(&kf);
	return failed(&j->fail) ? -1 : 0;
}

/* Superstep S of candidate CAND in loops, with every value known: every
 * iteration counted at its values, SC's quantities their sums. */
void cost_count_loop_values(struct job *j, int cand, int s, const struct cost_request *req,
			      struct step_cost *sc)
{
	const struct model *m = j->m;
	struct loop_values lv = {.cand = cand, .s = s, .req = req, .sc = sc};
	lv.vals = calloc((size_t)m->nparams + 1, sizeof(*lv.vals));
	if (!lv.vals) {
		cost_isl_op_failed(j, sc->name);
		return;
	}
	for (int p = 0; p < model_nsizes(m); p++)
		lv.vals[p] = req->values[p];
	lv.nloops = model_step_loops(m, s, lv.loops);
	for (int t = 0; t < TERM_N; t++)
		mpq_init(lv.sum[t]);
	/* messages: every run counted on its own, with its loads */
	lv.messages = req->messages || (req->model && req->model->messages != MSG_NONE);
	for (int k = 0; k < 3; k++)
		mpq_init(lv.msgs[k]);
	/* one loop: its variable a parameter, counted once (loop_values_by_k);
	 * refused there, or in nested loops, or counting messages, iteration
	 * by iteration */
	long long lo, hi;
	const struct model_loop *lp = &m->loops[lv.loops[0]];
	bool counted = false;
	if (!lv.messages && !req->hierarchy && lv.nloops == 1 && lp->ratio < 2 &&
	    cost_aff_value(&lp->lo, lv.vals, req->sizes, &lo) &&
	    cost_aff_value(&lp->hi, lv.vals, req->sizes, &hi) && hi - lo > BY_K_LEAF) {
		struct job sub = cost_explain_job(j);
		if (loop_values_by_k(&sub, cand, s, req, lo, hi - 1, lv.sum, sc) == 0) {
			lv.iterations = hi - lo;
			counted = true;
		} else if (sub.timed_out || session_ctx_stopped(j->engine->ctx)) {
			/* the deadline: no time for the iterations either */
			j->fail = sub.fail;
			j->timed_out = sub.timed_out;
			counted = true;
		} else {
			fail_clear(&sub.fail);
			free_procs(sc);
			for (int t = 0; t < TERM_N; t++)
				mpq_set_ui(lv.sum[t], 0, 1);
		}
	}
	if (!counted)
		loop_values_at(j, &lv, 0);
	struct formula **slot[TERM_N] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out, &sc->ncom};
	for (int t = 0; t < TERM_N; t++) {
		if (!failed(&j->fail) && !(*slot[t] = formula_const_mpq(lv.sum[t])))
			cost_isl_op_failed(j, sc->name);
		mpq_clear(lv.sum[t]);
	}
	if (!failed(&j->fail) && !(sc->iterations = formula_const_si((long)lv.iterations)))
		cost_isl_op_failed(j, sc->name);
	struct formula **msgs[3] = {&sc->msgs_in, &sc->msgs_out, &sc->msgs};
	for (int k = 0; k < 3; k++) {
		if (lv.messages && !failed(&j->fail) && !(*msgs[k] = formula_const_mpq(lv.msgs[k])))
			cost_isl_op_failed(j, sc->name);
		mpq_clear(lv.msgs[k]);
	}
	if (!failed(&j->fail) && req->hierarchy && !sc->hier) {
		/* no run: no word */
		int k = hierarchy_levels(req->sizes, j->naxes);
		sc->hier = calloc(1, sizeof(*sc->hier));
		if (!sc->hier || k < 0 || hierarchy_init(sc->hier, k) < 0) {
			if (sc->hier && k >= 0)
				hierarchy_clear(sc->hier);
			free(sc->hier);
			sc->hier = NULL;
			cost_isl_op_failed(j, "H");
		} else {
			sc->hier->runs = 0;
			hierarchy_alpha(sc->hier);
		}
	}
	if (!failed(&j->fail) && req->per_process && !sc->procs) {
		/* no iteration: every process counts 0 */
		long n = 1;
		for (int a = 0; a < j->naxes; a++)
			n *= req->sizes[a];
		if (n <= PER_PROCESS_MAX && !(sc->procs = calloc((size_t)n, sizeof(*sc->procs))))
			cost_isl_op_failed(j, "the counts per process");
		if (sc->procs) {
			sc->nprocs = (int)n;
			for (long q = 0; q < n; q++) {
				mpz_inits(sc->procs[q].w, sc->procs[q].in, sc->procs[q].out,
					  sc->procs[q].msgs_in, sc->procs[q].msgs_out, NULL);
			}
		}
	}
	free(lv.vals);
}

