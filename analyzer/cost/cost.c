/* The cost of one candidate: relations (concrete or symbolic grid), counts per
 * process, maxima over the processes, and the BSP cost, as formulas.
 *
 * Why this file is long: the three grids (symbolic, concrete, every value
 * known) share one job (struct job: deadline, operation budget, the first
 * failure) and the same per-process quantities; the block-length
 * substitution of the symbolic grid is the part that would leave first. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/cost/cost.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/cost/cost_internal.h"
#include "analyzer/cost/digits.h"
#include "analyzer/cost/divided.h"
#include "analyzer/cost/memory.h"
#include "analyzer/model/relations.h"
#include "analyzer/model/symbolic.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/session.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"
#include "analyzer/util/limits.h"

/* Every formula of a candidate, by number: 14 per superstep (a loop's five,
 * then the messages' three), then the total. */
enum { STEP_FORMULAS = 14, STEP_MSGS = 11 };

static int step_formulas(const struct step_cost *sc)
{
	return STEP_FORMULAS + 3 * sc->narrays;
}

static int nformulas(const struct candidate_cost *c)
{
	int n = 1;
	for (int s = 0; s < c->nsteps; s++)
		n += step_formulas(&c->steps[s]);
	return n;
}

/* The STEP_FORMULAS formulas of superstep SC, in their order, into ALL. */
static void step_slots(struct step_cost *sc, struct formula **all[STEP_FORMULAS])
{
	struct formula **slots[STEP_FORMULAS] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out,
						 &sc->ncom, &sc->cost, &sc->iterations,
						 &sc->per_w, &sc->per_h, &sc->per_ncom,
						 &sc->per_cost, &sc->msgs, &sc->msgs_in,
						 &sc->msgs_out};
	memcpy(all, slots, sizeof(slots));
}

/* Where formula K of C records why it is missing when it may be (an --explain
 * quantity, whose failure is its own), or NULL. */
static char **formula_why(struct candidate_cost *c, int k)
{
	for (int s = 0; s < c->nsteps; s++) {
		struct step_cost *sc = &c->steps[s];
		if (k >= step_formulas(sc)) {
			k -= step_formulas(sc);
			continue;
		}
		if (k < STEP_FORMULAS)
			return k >= STEP_MSGS ? &sc->msgs_why : NULL;
		k -= STEP_FORMULAS;
		struct array_occurrence *ao = &sc->arrays[k / 3];
		return k % 3 == 0 ? &ao->nocc_why : k % 3 == 1 ? &ao->occurrences_why
							       : &ao->unowned_why;
	}
	return NULL;
}

/* Formula K of C: each superstep's, then the total. */
static struct formula **formula_slot(struct candidate_cost *c, int k)
{
	for (int s = 0; s < c->nsteps; s++) {
		struct step_cost *sc = &c->steps[s];
		if (k >= step_formulas(sc)) {
			k -= step_formulas(sc);
			continue;
		}
		if (k < STEP_FORMULAS) {
			struct formula **all[STEP_FORMULAS];
			step_slots(sc, all);
			return all[k];
		}
		k -= STEP_FORMULAS;
		struct array_occurrence *ao = &sc->arrays[k / 3];
		return k % 3 == 0 ? &ao->nocc : k % 3 == 1 ? &ao->occurrences : &ao->unowned;
	}
	return &c->cost;
}


/* The typical point of a formula's pieces, for the order they print in:
 * large sizes, each a multiple of 720720 (so of every number up to 16: no
 * remainder class is singled out; a size that is no extent one more) and
 * no two equal (so that no case of m == n is taken for the typical one),
 * and on the symbolic grid every axis 8 and every block size of cyclic(nb)
 * 4 (grids of 3 or more per axis; issue 26's "typical case first").  The
 * sizes grow or shrink by factors of 4 in the order they are declared,
 * whichever meets the assumptions (k0 < n, kk + b <= o). */
enum { TYPICAL_AXIS = 8, TYPICAL_BLOCK = 4, TYPICAL_SIZES = 20 };
#define TYPICAL_UNIT 720720LL

/* Whether size P is an array's extent, or a term of one. */
static bool extent_size(const struct model *m, int p)
{
	for (int a = 0; a < m->narrays; a++)
		for (int d = 0; d < m->arrays[a].ndims; d++)
			for (int t = 0; t < m->arrays[a].extent_affs[d].nterms; t++)
				if (m->arrays[a].extent_affs[d].terms[t].kind == MODEL_PARAM &&
				    m->arrays[a].extent_affs[d].terms[t].index == p)
					return true;
	return false;
}

/* Whether size P is the block of a cyclic(nb) of some candidate: at the
 * typical point it is TYPICAL_BLOCK, as an axis is TYPICAL_AXIS, so that
 * the sizes it splits with an axis are whole blocks of blocks. */
static bool block_size(const struct model *m, int p)
{
	for (int c = 0; c < m->ncands; c++) {
		const struct model_candidate *mc = &m->cands[c];
		for (int i = 0; i < m->ndists; i++)
			if (mc->named[i].block_param == p)
				return true;
		for (int a = 0; a < m->narrays; a++)
			for (int d = 0; model_cand_has(m, c, a) && d < m->arrays[a].ndims; d++)
				if (mc->layout[a][d].block_param == p)
					return true;
	}
	return false;
}

/* The typical point into VALUES (sizes, then axes) when ORDER (1: growing,
 * -1: shrinking) meets M's assumptions and facts; false otherwise.  With
 * OFFSET, a size that is no extent (a pivot k0, a panel's start kk and
 * width b) is one more, so that it lies inside a block rather than at its
 * start, as a pivot does in general.  A block size of cyclic(nb) is
 * BLOCK (the other sizes BLOCK/4 times larger), or with BLOCK 0 a size
 * like the others. */
static bool typical_point(struct job *j, const struct model *m, const struct cost_request *req,
			  int order, bool offset, long long block, long long *values)
{
	int nsizes = model_nsizes(m), n = nsizes + m->naxes;
	if (nsizes > TYPICAL_SIZES)
		return false;
	/* a block of 16 or 64 scales the other sizes by 4 or 16, so that
	 * every size stays a multiple of 2^4 blocks on an axis of 8 */
	long long scale = block > TYPICAL_BLOCK ? block / TYPICAL_BLOCK : 1;
	for (int p = 0; p < nsizes; p++) {
		if (block && block_size(m, p)) {
			values[p] = block;
			continue;
		}
		if (__builtin_mul_overflow(scale, TYPICAL_UNIT << (2 * (order > 0 ? p + 1 : nsizes - p)),
					   &values[p]))
			return false; /* past 64 bits: no such point */
		values[p] += offset && !extent_size(m, p);
	}
	for (int a = 0; a < m->naxes; a++)
		values[nsizes + a] = req->symbolic ? TYPICAL_AXIS : req->sizes[a];
	/* the sizes, then the axes, as model_valid_set's parameters (the
	 * loops' variables between them are left free) */
	isl_set *valid = model_valid_set(j->engine->ctx, m);
	for (int p = 0; valid && p < n; p++)
		valid = isl_set_fix_val(valid, isl_dim_param,
					(unsigned)(p < nsizes ? p : m->nparams + p - nsizes),
					isl_val_int_from_si(j->engine->ctx, (long)values[p]));
	bool ok = valid && isl_set_is_empty(valid) == isl_bool_false &&
		  model_facts_hold(m, values, values + nsizes);
	isl_set_free(valid);
	return ok;
}

/* The symbolic grid's digits (kk_N = floor(kk/(o/N)), ...) at the typical
 * point NAMES[0..*N) = VALUES: each appended to both, *N counting them,
 * where its definition has a whole value there (a digit of an expression
 * that names a loop's variable has none: it stays free).  A formula in
 * digits has one piece that holds at the typical point only with them. */
static void typical_digits(const struct model *m, const struct symbolic_info *info,
			   const char **names, long long *values, int *n)
{
	int nsizes = model_nsizes(m);
	long *axes = calloc((size_t)m->naxes + 1, sizeof(*axes));
	for (int a = 0; axes && a < m->naxes; a++)
		axes[a] = (long)values[nsizes + a];
	/* the block lengths X/(b*P) first (an extent names sizes and axes
	 * only), where they are whole numbers */
	for (int l = 0; axes && info && l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		long long x, b, p;
		if (lp->digit < 0 && lp->name && symbolic_block_value(lp, values, &b) &&
		    !__builtin_mul_overflow(values[nsizes + lp->axis], b, &p) && p > 0 &&
		    cost_aff_value(&lp->extent_aff, values, axes, &x) && x % p == 0) {
			names[*n] = lp->name;
			values[(*n)++] = x / p;
		}
	}
	free(axes);
	mpq_t v;
	mpq_init(v);
	for (int l = 0; info && l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		if (lp->digit < 0 || !lp->value || !lp->name)
			continue;
		struct formula_expr *e = formula_parse_expr(lp->value, NULL);
		if (e && formula_expr_eval(e, names, values, *n, v) == 0 &&
		    mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_fits_slong_p(mpq_numref(v))) {
			names[*n] = lp->name;
			values[(*n)++] = mpz_get_si(mpq_numref(v));
		}
		formula_expr_free(e);
	}
	mpq_clear(v);
}

static __isl_give isl_set *cost_context(isl_ctx *ctx, const struct model *m,
					const struct cost_request *req,
					const struct symbolic_info *info);

/* Every formula of OUT with the identities between the symbolic grid's
 * digits written in its values (digits.h): the same values, read as a
 * designer writes them. */
static void relate_digits(struct job *j, const struct symbolic_info *info,
			  struct candidate_cost *out)
{
	/* only the writing changes: past the deadline, the formulas as
	 * they are (exact) rather than none */
	if (!info || info->nlocals == 0 || session_ctx_stopped(j->engine->ctx))
		return;
	isl_set *context = cost_context(j->engine->ctx, j->m, j->req, info);
	int n = nformulas(out);
	for (int k = 0; k <= n + out->nsteps && !failed(&j->fail); k++) {
		struct formula **f = k < n ? formula_slot(out, k)
				   : k == n ? &out->mem : &out->steps[k - n - 1].mem;
		if (!*f)
			continue;
		struct formula *r = context ? digits_relate(*f, j->m, info, context) : NULL;
		if (!r && session_ctx_stopped(j->engine->ctx))
			break;  /* the deadline: this one and the rest as they are */
		if (!r) {
			cost_isl_op_failed(j, "writing digits in one another's terms");
			break;
		}
		formula_free(*f);
		*f = r;
	}
	isl_set_free(context);
}

/* Every formula of OUT with the piece that holds at the typical point
 * first, when that point meets the specification's assumptions (else the
 * order is left as it is).  Pieces are disjoint: no value changes. */
static void typical_first(struct job *j, const struct model *m, const struct cost_request *req,
			  const struct symbolic_info *info, struct candidate_cost *out)
{
	int nsizes = model_nsizes(m), n = nsizes + m->naxes;
	int nlocals = info ? info->nlocals : 0;
	const char **names = calloc((size_t)(n + nlocals) + 1, sizeof(*names));
	long long *values = calloc((size_t)(n + nlocals) + 1, sizeof(*values));
	/* a block size TYPICAL_BLOCK, or larger where the assumptions say so */
	static const long long blocks[] = {TYPICAL_BLOCK, 4 * TYPICAL_BLOCK, 16 * TYPICAL_BLOCK, 0};
	bool ok = false, any = false;
	for (int p = 0; p < nsizes && !any; p++)
		any = block_size(m, p);
	for (int b = any ? 0 : 3; names && values && !ok && b < 4; b++)
		ok = typical_point(j, m, req, 1, true, blocks[b], values) ||
		     typical_point(j, m, req, -1, true, blocks[b], values) ||
		     typical_point(j, m, req, 1, false, blocks[b], values) ||
		     typical_point(j, m, req, -1, false, blocks[b], values);
	for (int p = 0; ok && p < n; p++)
		names[p] = p < nsizes ? m->params[p] : m->axes[p - nsizes];
	if (ok)
		typical_digits(m, info, names, values, &n);
	for (int k = 0; ok && k < nformulas(out); k++)
		ok = formula_typical_first(*formula_slot(out, k), names, values, n) > -2;
	if (ok && out->mem)
		formula_typical_first(out->mem, names, values, n);
	for (int s = 0; ok && s < out->nsteps; s++)
		if (out->steps[s].mem)
			formula_typical_first(out->steps[s].mem, names, values, n);
	free(names);
	free(values);
}

/* ISL operations allowed to one formula or set operation outside the counting
 * engine (which has its own limit per count): enough for every example, and a
 * bound on the time a large concrete grid can take before it is refused. */
enum { OPERATION_BUDGET = 5000000 };

/* The most processes a concrete grid is analyzed for, one by one. */
enum { MAX_PROCESSES = LIMIT_PROCESSES };

/* A block length is written back case by case of its axis up to AXIS >= this
 * (stencil2d's NOcc needs M + n__M >= 6: M = 1, ..., 4 and M >= 5). */
enum { MAX_AXIS_CASES = 6 };

static void budget(struct job *j)
{
	/* a failure before this one must not be taken for this one's */
	isl_ctx_reset_error(j->engine->ctx);
	isl_ctx_reset_operations(j->engine->ctx);
	isl_ctx_set_max_operations(j->engine->ctx, OPERATION_BUDGET);
}

/* Back to no limit: what follows (other candidates, --verify) is not charged. */
static void unbudget(struct job *j)
{
	isl_ctx_set_max_operations(j->engine->ctx, 0);
}

/* The reason for a NULL result of a budgeted operation. */
static char *budget_reason(struct job *j)
{
	if (isl_ctx_last_error(j->engine->ctx) == isl_error_quota) {
		isl_ctx_reset_error(j->engine->ctx);
		return strdup("too costly: the ISL operation budget ran out (a smaller grid or the "
			      "symbolic grid may do)");
	}
	return NULL;
}

/* The reason of a candidate the run's deadline stopped (analyzer/util/session.h). */
static const char deadline_reason[] = "the run's time limit ran out before this candidate "
				      "was finished";

/* The first failure wins.  Once the deadline has stopped ISL on this context,
 * every failure is the deadline's, whatever operation noticed it. */
void cost_job_fail(struct job *j, enum cost_status st, char *reason, const char *what)
{
	if (failed(&j->fail)) {
		free(reason);
		return;
	}
	if (session_ctx_stopped(j->engine->ctx)) {
		free(reason);
		j->timed_out = true;
		fail_set(&j->fail, FAIL_REFUSED, "%s", deadline_reason);
		return;
	}
	fail_set(&j->fail, (enum fail_kind)st, "%s: %s", what, reason ? reason : "out of memory");
	free(reason);
}

/* True, and the candidate refused, once the run's deadline has stopped ISL on
 * this context (between two ISL operations it may not have failed yet). */
bool cost_out_of_time(struct job *j)
{
	if (failed(&j->fail) || !session_ctx_stopped(j->engine->ctx))
		return false;
	cost_job_fail(j, COST_REFUSED, NULL, "time");
	return true;
}

enum cost_status cost_from_count(enum count_status st)
{
	return st == COUNT_REFUSED ? COST_REFUSED : COST_FAILED;
}

__isl_give isl_pw_qpolynomial *cost_sum_over(struct job *j, __isl_keep isl_set *set,
					     __isl_keep isl_pw_qpolynomial *f, const char *what)
{
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	enum count_status st = f && set ? count_sum(j->engine, set, f, &r, &reason) : COUNT_ERROR;
	if (st != COUNT_EXACT) {
		cost_job_fail(j, cost_from_count(st), reason, what);
		return NULL;
	}
	free(reason);
	return r;
}

/* A maximum of WHAT over OVER ("the processes", "the elements") had no exact
 * route (ST, REASON taken): the candidate is refused or fails with the reason. */
static void max_failed(struct job *j, enum count_status st, char *reason, const char *what,
		       const char *over)
{
	char where[96];
	snprintf(where, sizeof(where), "%s: maximum over %s", what, over);
	cost_job_fail(j, cost_from_count(st), reason, where);
}

/* ISL failed on an operation of J's that had its operands: the deadline and
 * the quota of budget() refuse the candidate, anything else fails it with
 * ISL's own message (analyzer/util/fail.h); a NULL is never taken for 0. */
void cost_isl_op_failed(struct job *j, const char *what)
{
	char *why = NULL;
	if (failed(&j->fail))
		return;
	if (session_ctx_stopped(j->engine->ctx))
		cost_job_fail(j, COST_REFUSED, NULL, what); /* the deadline's */
	else if ((why = budget_reason(j)))
		cost_job_fail(j, COST_REFUSED, why, what);
	else
		fail_isl(&j->fail, j->engine->ctx, "%s", what);
}

/* The number of points of SET, a set over the parameters (and the coordinates
 * moved to parameters), as an ISL quasi-polynomial; NULL after a failure. */
static __isl_give isl_pw_qpolynomial *count(struct job *j, __isl_take isl_set *set,
					    const char *what)
{
	if (failed(&j->fail) || !set) {
		isl_set_free(set);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, what);
		return NULL;
	}
	if (cost_out_of_time(j)) {
		isl_set_free(set);
		return NULL;
	}
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	enum count_status st = count_points(j->engine, set, &r, &reason);
	isl_set_free(set);
	if (st != COUNT_EXACT) {
		cost_job_fail(j, cost_from_count(st), reason, what); /* the deadline's, if it stopped it */
		return NULL;
	}
	free(reason);
	return r;
}

__isl_give isl_pw_qpolynomial *cost_count_set(struct job *j, __isl_take isl_set *set,
					      const char *what)
{
	return count(j, set, what);
}

/* MAP { P[q] -> X } with the coordinates moved in front of the parameters. */
static __isl_give isl_set *per_process(__isl_take isl_map *map, int naxes)
{
	map = isl_map_move_dims(map, isl_dim_param, 0, isl_dim_in, 0, naxes);
	return isl_map_range(map);
}


/* A + B (both taken); NULL after a failure only. */
static __isl_give isl_pw_qpolynomial *sum(struct job *j, __isl_take isl_pw_qpolynomial *a,
					  __isl_take isl_pw_qpolynomial *b)
{
	if (failed(&j->fail) || !a || !b) {
		isl_pw_qpolynomial_free(a);
		isl_pw_qpolynomial_free(b);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, "adding counts");
		return NULL;
	}
	/* Counts are 0 where they have no piece, so ISL's union-sum is the sum. */
	isl_pw_qpolynomial *r = isl_pw_qpolynomial_add(a, b);
	if (!r)
		cost_isl_op_failed(j, "adding counts");
	return r;
}

/* 0 as a count on the parameters of LIKE (taken): the start of a sum. */
static __isl_give isl_pw_qpolynomial *zero_count(struct job *j, __isl_take isl_set *like)
{
	isl_space *space = like ? isl_space_params(isl_set_get_space(like)) : NULL;
	isl_set_free(like);
	isl_pw_qpolynomial *z =
		space ? isl_pw_qpolynomial_zero(isl_space_add_dims(space, isl_dim_out, 1)) : NULL;
	if (!z)
		cost_isl_op_failed(j, "the counts");
	return z;
}

/* The parameters of the counts per process: the coordinates of PROCESSES
 * (kept) first, then the size parameters (per_process). */
static __isl_give isl_set *process_params(__isl_keep isl_set *processes, int naxes)
{
	return isl_set_params(isl_set_move_dims(isl_set_copy(processes), isl_dim_param, 0,
						isl_dim_set, 0, (unsigned)naxes));
}

/* Why WHAT has no formula: the limit on floor terms, malloc'd (NULL when out
 * of memory). */
static char *floor_limit_reason(const char *what)
{
	char *why = NULL;
	if (asprintf(&why, "%s has more distinct floor terms than a formula may hold (%d)", what,
		     FORMULA_MAX_TERMS) < 0)
		return NULL;
	return why;
}

/* F (kept) as a formula; NULL after a failure, which names the formulas'
 * limit on floor terms when F goes past it. */
static struct formula *as_formula(struct job *j, __isl_keep isl_pw_qpolynomial *f,
				  const char *what)
{
	struct formula *fm = formula_from_pw_qpolynomial_zero_outside(f);
	if (!fm && formula_pw_qpolynomial_too_large(f) == 1)
		cost_job_fail(j, COST_REFUSED, floor_limit_reason("the count"), what);
	else if (!fm)
		cost_isl_op_failed(j, what);
	return fm;
}

enum { MAX_PIECES_APART = 64, PIN_WIDTH = 3, MAX_CELLS = 512 };

/* OP(ACC, F), both taken, or F itself when ACC is NULL: the next value of a
 * fold over formulas; NULL when F or the operation is. */
static struct formula *fold(struct formula *acc, struct formula *f,
			    struct formula *(*op)(const struct formula *, const struct formula *))
{
	if (!acc)
		return f;
	struct formula *r = f ? op(acc, f) : NULL;
	formula_free(acc);
	formula_free(f);
	return r;
}

/* max_by_pieces: the state of the walk over a count's pieces. */
struct piece_max {
	int ns;       /* the coordinates: the first NS input dimensions */
	int n;        /* pieces seen */
	bool ok;
	/* the distinct values seen, each with where (in the sizes) some
	 * process has it: NV of them */
	int nv;
	isl_set *dom[MAX_PIECES_APART];
	isl_qpolynomial *val[MAX_PIECES_APART];
};

static isl_stat piece_max_add(struct piece_max *pm, __isl_take isl_set *set,
			      __isl_take isl_qpolynomial *qp, int depth);

/* piece_max_add on one basic set of a part cut by pin_coordinate. */
struct pinned_part {
	struct piece_max *pm;
	isl_set *set;          /* the piece */
	isl_qpolynomial *qp;   /* its value */
	int c, depth;
};

static isl_stat pinned_bset(__isl_take isl_basic_set *bset, void *user)
{
	struct pinned_part *pp = user;
	return piece_max_add(pp->pm, isl_set_from_basic_set(bset),
			     isl_qpolynomial_copy(pp->qp), pp->depth);
}

/* The degree of QP in set dimension C (c_degree_term over its terms); BAD
 * when a floor of QP involves C or ISL failed. */
struct c_degree {
	int c, degree;
	bool bad;
};

static isl_stat c_degree_term(__isl_take isl_term *term, void *user)
{
	struct c_degree *cd = user;
	isl_size e = isl_term_get_exp(term, isl_dim_set, (unsigned)cd->c);
	isl_size n = isl_term_dim(term, isl_dim_div);
	cd->bad |= e < 0 || n < 0;
	if (e > cd->degree)
		cd->degree = e;
	for (int d = 0; d < n && !cd->bad; d++) {
		isl_size x = isl_term_get_exp(term, isl_dim_div, (unsigned)d);
		if (x <= 0)
			continue;
		isl_aff *div = isl_term_get_div(term, (unsigned)d);
		isl_bool in = div ? isl_aff_involves_dims(div, isl_dim_in, (unsigned)cd->c, 1)
				  : isl_bool_error;
		cd->bad |= in != isl_bool_false;
		isl_aff_free(div);
	}
	isl_term_free(term);
	return isl_stat_ok;
}

enum { PIN_MAX_DEGREE = 4 };

static isl_stat take_qp(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	isl_qpolynomial **out = user;
	isl_set_free(set);
	if (*out) {   /* one piece only */
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	*out = qp;
	return isl_stat_ok;
}

/* QP (kept) at set dimension C = K, on the same space, not naming C; NULL
 * when ISL failed (isl_qpolynomial_substitute takes no polynomial with
 * floors, such as floor(n__P/2)). */
static __isl_give isl_qpolynomial *qp_fixed(__isl_keep isl_qpolynomial *qp, int c, int k)
{
	isl_ctx *ctx = isl_qpolynomial_get_ctx(qp);
	isl_pw_qpolynomial *pw = isl_pw_qpolynomial_fix_val(
		isl_pw_qpolynomial_from_qpolynomial(isl_qpolynomial_copy(qp)), isl_dim_in, (unsigned)c,
		isl_val_int_from_si(ctx, k));
	isl_qpolynomial *r = NULL;
	if (!pw || isl_pw_qpolynomial_foreach_piece(pw, take_qp, &r) < 0 || !r ||
	    isl_qpolynomial_involves_dims(r, isl_dim_in, (unsigned)c, 1) != isl_bool_false)
		r = isl_qpolynomial_free(r);
	isl_pw_qpolynomial_free(pw);
	return r;
}

/* QP (taken) with set dimension C replaced by AT (taken, an affine function
 * that may have floors, which isl_qpolynomial_substitute does not take):
 * QP is a polynomial of degree d in C, so QP = sum_k QP(C = k) * L_k(C) with
 * L_k Lagrange's basis at 0 .. d, and L_k(AT) is a product of AT - i.
 * NULL when QP has a floor of C, is of a degree above PIN_MAX_DEGREE, or ISL
 * failed. */
static __isl_give isl_qpolynomial *qp_at(__isl_take isl_qpolynomial *qp, int c,
					 __isl_take isl_aff *at)
{
	struct c_degree cd = {c, 0, false};
	if (!qp || !at || isl_qpolynomial_foreach_term(qp, c_degree_term, &cd) < 0 || cd.bad ||
	    cd.degree > PIN_MAX_DEGREE) {
		isl_qpolynomial_free(qp);
		isl_aff_free(at);
		return NULL;
	}
	isl_ctx *ctx = isl_qpolynomial_get_ctx(qp);
	isl_space *space = isl_qpolynomial_get_domain_space(qp);
	isl_qpolynomial *x = isl_qpolynomial_from_aff(at);
	isl_qpolynomial *sum = isl_qpolynomial_zero_on_domain(isl_space_copy(space));
	for (int k = 0; k <= cd.degree && sum; k++) {
		isl_qpolynomial *term = qp_fixed(qp, c, k);
		long den = 1;
		for (int i = 0; i <= cd.degree && term; i++) {
			if (i == k)
				continue;
			isl_qpolynomial *f = isl_qpolynomial_sub(
				isl_qpolynomial_copy(x),
				isl_qpolynomial_val_on_domain(isl_space_copy(space),
							      isl_val_int_from_si(ctx, i)));
			term = isl_qpolynomial_mul(term, f);
			den *= k - i;
		}
		term = isl_qpolynomial_scale_down_val(term, isl_val_int_from_si(ctx, den));
		sum = isl_qpolynomial_add(sum, term);
	}
	isl_space_free(space);
	isl_qpolynomial_free(x);
	isl_qpolynomial_free(qp);
	return sum;
}

/* One piece of the pinned coordinate's value, C = AT on DOM (a function of
 * the sizes, a floor maybe: ceil((P - 2)/2) in a stride's count): the part
 * of the piece where it holds, with C replaced by AT in the value, which a
 * gist does not do where AT has a floor. */
static isl_stat pinned_piece(__isl_take isl_set *dom, __isl_take isl_aff *at, void *user)
{
	struct pinned_part *pp = user;
	isl_set *part = isl_set_intersect(isl_set_copy(pp->set), dom);
	isl_aff *var = isl_aff_var_on_domain(isl_aff_get_domain_local_space(at), isl_dim_set,
					     (unsigned)pp->c);
	part = isl_set_intersect(part, isl_aff_eq_set(var, isl_aff_copy(at)));
	isl_qpolynomial *qp = qp_at(isl_qpolynomial_copy(pp->qp), pp->c, at);
	/* C out of the part, which the value no longer names (a gist would
	 * write C back for the floor it equals) */
	part = isl_set_eliminate(part, isl_dim_set, (unsigned)pp->c, 1);
	struct pinned_part one = {pp->pm, NULL, qp, pp->c, pp->depth};
	isl_stat st = part && qp ? isl_set_foreach_basic_set(part, pinned_bset, &one)
				 : isl_stat_error;
	isl_set_free(part);
	isl_qpolynomial_free(qp);
	return st;
}

/* A piece SET of the count whose value QP depends on coordinate C, where C
 * takes at most PIN_WIDTH + 1 values on the piece for any sizes, counted from
 * its least one lo (a function of the sizes, piecewise): the piece cut into
 * the parts C = lo + d, 0 <= d <= PIN_WIDTH, on each of which C is a function
 * of the sizes and drops out of the value (a process at the edge of the
 * grid next to one that is not: i1 in {N - 3, N - 2} when M = 1).  The parts
 * cover the piece exactly once, so their maxima are its maximum.  Fails where
 * C ranges wider. */
static isl_stat pin_coordinate(struct piece_max *pm, __isl_take isl_set *set,
			       __isl_take isl_qpolynomial *qp, int c, int depth)
{
	isl_ctx *ctx = isl_set_get_ctx(set);
	isl_pw_aff *lo = isl_set_dim_min(isl_set_copy(set), c);
	isl_pw_aff *hi = isl_set_dim_max(isl_set_copy(set), c);
	isl_pw_aff *width = isl_pw_aff_sub(hi, isl_pw_aff_copy(lo));
	isl_pw_aff *limit = isl_pw_aff_val_on_domain(isl_pw_aff_domain(isl_pw_aff_copy(width)),
						     isl_val_int_from_si(ctx, PIN_WIDTH));
	isl_set *wide = isl_pw_aff_gt_set(width, limit);
	isl_stat st = isl_set_is_empty(wide) == isl_bool_true ? isl_stat_ok : isl_stat_error;
	isl_set_free(wide);
	isl_space *space = isl_set_get_space(set);
	for (int d = 0; d <= PIN_WIDTH && st == isl_stat_ok; d++) {
		isl_pw_aff *at = isl_pw_aff_add(
			isl_pw_aff_copy(lo),
			isl_pw_aff_val_on_domain(isl_pw_aff_domain(isl_pw_aff_copy(lo)),
						 isl_val_int_from_si(ctx, d)));
		at = isl_pw_aff_insert_domain(at, isl_space_copy(space));
		struct pinned_part pp = {pm, set, qp, c, depth + 1};
		st = at ? isl_pw_aff_foreach_piece(at, pinned_piece, &pp) : isl_stat_error;
		isl_pw_aff_free(at);
	}
	isl_space_free(space);
	isl_pw_aff_free(lo);
	isl_set_free(set);
	isl_qpolynomial_free(qp);
	if (st != isl_stat_ok)
		pm->ok = false;
	return st;
}

/* The piece SET with value QP into PM's maximum: its value where some
 * coordinate reaches it, as a function of the sizes; a value that depends on
 * a coordinate, its coordinates pinned first (pin_coordinate, DEPTH of them
 * so far). */
static isl_stat piece_max_add(struct piece_max *pm, __isl_take isl_set *set,
			      __isl_take isl_qpolynomial *qp, int depth)
{
	qp = isl_qpolynomial_gist(qp, isl_set_copy(set));
	if (!qp || !set || ++pm->n > MAX_PIECES_APART) {
		pm->ok = false;
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	if (isl_set_is_empty(set) == isl_bool_true) {
		isl_set_free(set);
		isl_qpolynomial_free(qp);
		return isl_stat_ok;
	}
	for (int c = 0; c < pm->ns; c++) {
		isl_bool dep = isl_qpolynomial_involves_dims(qp, isl_dim_in, (unsigned)c, 1);
		if (dep == isl_bool_false)
			continue;
		if (dep < 0 || depth >= pm->ns) {
			pm->ok = false;
			isl_set_free(set);
			isl_qpolynomial_free(qp);
			return isl_stat_error;
		}
		return pin_coordinate(pm, set, qp, c, depth);
	}
	isl_set *dom = isl_set_params(set);
	qp = isl_qpolynomial_project_domain_on_params(qp);
	/* a value seen before: where either piece has it */
	for (int k = 0; qp && k < pm->nv; k++) {
		isl_bool same = isl_qpolynomial_plain_is_equal(pm->val[k], qp);
		if (same == isl_bool_true) {
			pm->dom[k] = isl_set_union(pm->dom[k], dom);
			isl_qpolynomial_free(qp);
			pm->ok = pm->dom[k] != NULL;
			return pm->ok ? isl_stat_ok : isl_stat_error;
		}
		if (same < 0)
			break;
	}
	if (!qp || !dom || pm->nv == MAX_PIECES_APART) {
		isl_set_free(dom);
		isl_qpolynomial_free(qp);
		pm->ok = false;
		return isl_stat_error;
	}
	pm->dom[pm->nv] = dom;
	pm->val[pm->nv++] = qp;
	return isl_stat_ok;
}

static isl_stat piece_max_formula(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp,
				  void *user)
{
	return piece_max_add(user, set, qp, 0);
}

/* The cells of the sizes on which the same values of a piece_max apply:
 * disjoint sets, each with the mask of the values some process has there. */
struct max_cells {
	int n;
	isl_set *set[MAX_CELLS];
	uint64_t mask[MAX_CELLS];
};

static void max_cells_clear(struct max_cells *c)
{
	for (int i = 0; i < c->n; i++)
		isl_set_free(c->set[i]);
	c->n = 0;
}

/* SET (taken) into C with MASK, unless it is empty; -1 on an ISL failure or
 * when C is full. */
static int max_cells_push(struct max_cells *c, __isl_take isl_set *set, uint64_t mask)
{
	isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
	if (empty == isl_bool_true) {
		isl_set_free(set);
		return 0;
	}
	if (empty < 0 || c->n == MAX_CELLS) {
		isl_set_free(set);
		return -1;
	}
	c->set[c->n] = set;
	c->mask[c->n++] = mask;
	return 0;
}

/* Cuts the sizes by where each of PM's values applies: every cell of the
 * result lies either within or outside each value's domain.  Each domain
 * splits each cell once (its part inside, the rest): a cell less one value's
 * domain, where formula_max took everything less the union of every piece
 * so far at each step.  The cells are not coalesced on the way (checked
 * coalescing took most of the time of LU's maxima, 10.3 s of lu_blocks'
 * against 6.5 s without); the conditions they end as are
 * (piece_max_formula_of). */
static int max_cells_cut(struct max_cells *cells, const struct piece_max *pm)
{
	struct max_cells next;
	isl_space *space = isl_set_get_space(pm->dom[0]);
	cells->n = 0;
	if (max_cells_push(cells, isl_set_universe(space), 0) < 0)
		return -1;
	for (int k = 0; k < pm->nv; k++) {
		next.n = 0;
		int st = 0;
		for (int i = 0; i < cells->n && st == 0; i++) {
			isl_set *in = isl_set_intersect(isl_set_copy(cells->set[i]),
							isl_set_copy(pm->dom[k]));
			isl_bool none = in ? isl_set_is_empty(in) : isl_bool_error;
			if (none == isl_bool_true) {
				isl_set_free(in);
				st = max_cells_push(&next, isl_set_copy(cells->set[i]),
						    cells->mask[i]);
				continue;
			}
			isl_set *out = none < 0 ? NULL
					: isl_set_subtract(isl_set_copy(cells->set[i]),
							   isl_set_copy(pm->dom[k]));
			st = none < 0 ? -1 : max_cells_push(&next, in, cells->mask[i] | (uint64_t)1 << k);
			if (none < 0)
				isl_set_free(in);
			if (st == 0)
				st = max_cells_push(&next, out, cells->mask[i]);
			else
				isl_set_free(out);
		}
		max_cells_clear(cells);
		*cells = next;
		if (st < 0)
			return -1;
	}
	return 0;
}

/* The largest of PM's values in MASK on COND (taken), undefined elsewhere. */
static struct formula *max_of_mask(const struct piece_max *pm, uint64_t mask,
				   __isl_take isl_set *cond)
{
	struct formula *acc = NULL;
	for (int k = 0; k < pm->nv && cond; k++) {
		if (!(mask >> k & 1))
			continue;
		isl_pw_qpolynomial *v = isl_pw_qpolynomial_alloc(
			isl_set_universe(isl_set_get_space(cond)), isl_qpolynomial_copy(pm->val[k]));
		struct formula *f = formula_from_pw_qpolynomial(v);
		isl_pw_qpolynomial_free(v);
		acc = fold(acc, f, formula_max);
		if (!acc)
			break;
	}
	struct formula *r = formula_restrict(acc, isl_set_copy(cond));
	formula_free(acc);
	isl_set_free(cond);
	return r;
}

/* PM's values as one formula, zero outside them: on each cell of the sizes
 * (max_cells_cut), the largest of the values that apply there; cells with
 * the same values are one piece. */
static struct formula *piece_max_formula_of(const struct piece_max *pm)
{
	if (pm->nv == 0) /* no piece: no process counts anything */
		return formula_const_si(0);
	struct max_cells cells = {0};
	if (max_cells_cut(&cells, pm) < 0) {
		max_cells_clear(&cells);
		return NULL;
	}
	struct formula *acc = NULL;
	bool ok = true;
	for (int i = 0; i < cells.n && ok; i++) {
		if (!cells.mask[i] || !cells.set[i])
			continue; /* the zero outside, or merged into an earlier one */
		isl_set *cond = cells.set[i];
		cells.set[i] = NULL;
		for (int j = i + 1; j < cells.n && cond; j++)
			if (cells.mask[j] == cells.mask[i]) {
				cond = isl_set_union(cond, cells.set[j]);
				cells.set[j] = NULL;
			}
		struct formula *f = max_of_mask(pm, cells.mask[i], coalesce_set(cond));
		acc = fold(acc, f, formula_join);
		ok = acc != NULL;
	}
	max_cells_clear(&cells);
	if (!ok)
		return NULL;
	if (!acc)
		acc = formula_const_si(0);
	else
		formula_set_outside(acc, FORMULA_ZERO_OUTSIDE);
	return acc;
}

static void piece_max_clear(struct piece_max *pm)
{
	for (int k = 0; k < pm->nv; k++) {
		isl_set_free(pm->dom[k]);
		isl_qpolynomial_free(pm->val[k]);
	}
	pm->nv = 0;
}

/* The maximum of G over RANGE (its first NS input dimensions) where no
 * piece's value depends on them, only its domain: the largest of the
 * pieces' values, each where some coordinate reaches it, as a formula with
 * max() (ISL's quasi-polynomials have no max of functions, and these may
 * compare as polynomials: L1*(N - 1 - k0_N) against L2*(M - 1 - k0_M));
 * NULL when a value depends on the coordinates or there are too many. */
static struct formula *max_by_pieces(__isl_keep isl_pw_qpolynomial *g, __isl_keep isl_set *range,
				     int ns)
{
	isl_pw_qpolynomial *h = isl_pw_qpolynomial_intersect_domain(isl_pw_qpolynomial_copy(g),
								    isl_set_copy(range));
	h = coalesce_pw_qpolynomial(h);
	struct piece_max pm = {.ns = ns, .ok = true};
	struct formula *r = NULL;
	if (h && isl_pw_qpolynomial_foreach_piece(h, piece_max_formula, &pm) >= 0 && pm.ok)
		r = piece_max_formula_of(&pm);
	isl_pw_qpolynomial_free(h);
	piece_max_clear(&pm);
	return r;
}

/* *F, one term of a sum about to be formed, on CONTEXT and simplified there
 * (as cost_tidy does) when that fits the operation budget; as it was when not
 * (the sum is then tidied whole).  A sum of two terms of 15 pieces each has
 * up to 256 pieces, of terms tidied first often a handful. */
static void tidy_part(struct job *j, struct formula **f, __isl_keep isl_set *context)
{
	if (!*f || !context || session_ctx_stopped(j->engine->ctx))
		return;
	budget(j);
	struct formula *on = formula_on(*f, context);
	struct formula *t = formula_coalesce_apart(on, context, j->locals, j->nlocals);
	unbudget(j);
	formula_free(on);
	if (!t) {
		isl_ctx_reset_error(j->engine->ctx);
		return;
	}
	formula_free(*f);
	*f = t;
}

/* The sum of TERMS[0..N) (NULL entries are 0) as a formula: the sum of the
 * terms' formulas, each tidied on CONTEXT first (tidy_part), as ISL's sum of
 * the terms has the product of their pieces; NULL, the job untouched, for
 * one term or none (the sum's own formula is the one) or when a term has
 * none. */
static struct formula *sum_by_terms(struct job *j, isl_pw_qpolynomial *const *terms, int n,
				    __isl_keep isl_set *context)
{
	struct formula *acc = NULL;
	int used = 0;
	for (int t = 0; t < n && !failed(&j->fail); t++) {
		if (!terms[t])
			continue;
		struct formula *ft = formula_from_pw_qpolynomial_zero_outside(terms[t]);
		tidy_part(j, &ft, context);
		acc = fold(acc, ft, formula_add);
		used++;
		if (!acc)
			break;
	}
	if (used > 1 && acc)
		return acc;
	formula_free(acc);
	return NULL;
}

/* The maximum over the processes of the sum of TERMS[0..N) (kept; NULL
 * entries are 0), each with the coordinates first among its parameters, when
 * it splits over the coordinates (count_separate): the sum of each group's
 * maximum, each found as max_over finds one (count_max, or the largest of
 * its pieces' maxima).  *KEEP (when KEEP) the maximum as one function where
 * every group has one.  NULL when it does not split or a group's maximum
 * has no formula (under KEEP, when a group's is no single function: the
 * largest of several would be dropped), the engine's error state
 * cleared. */
static struct formula *max_separable(struct job *j, isl_pw_qpolynomial *const *terms, int n,
				     __isl_keep isl_set *range, __isl_keep isl_set *context,
				     __isl_give isl_pw_qpolynomial **keep)
{
	isl_pw_qpolynomial **g = calloc((size_t)n + 1, sizeof(*g));
	struct count_groups cg = {0};
	char *reason = NULL;
	for (int t = 0; g && t < n; t++)
		if (terms[t])
			g[t] = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(terms[t]),
							    isl_dim_in, 0, isl_dim_param, 0,
							    j->naxes);
	enum count_status st = g ? count_separate(j->engine, g, n, range, &cg, &reason)
				 : COUNT_ERROR;
	free(reason);
	for (int t = 0; g && t < n; t++)
		isl_pw_qpolynomial_free(g[t]);
	free(g);
	struct formula *acc = NULL;
	isl_pw_qpolynomial *whole = NULL;
	bool ok = st == COUNT_EXACT, one = ok;
	if (ok && cg.constant) {
		acc = formula_from_pw_qpolynomial_zero_outside(cg.constant);
		whole = isl_pw_qpolynomial_copy(cg.constant);
		ok = acc != NULL;
	}
	for (int k = 0; ok && k < cg.n && !session_ctx_stopped(j->engine->ctx); k++) {
		isl_pw_qpolynomial *r = NULL;
		struct formula *fk = NULL;
		reason = NULL;
		if (count_max(j->engine, cg.f[k], cg.range[k], &r, &reason) == COUNT_EXACT) {
			fk = formula_from_pw_qpolynomial_zero_outside(r);
			/* a failed sum is no function, never a partial one */
			whole = k == 0 && !cg.constant ? isl_pw_qpolynomial_copy(r)
				: whole ? isl_pw_qpolynomial_add(whole, isl_pw_qpolynomial_copy(r))
					: NULL;
			one = one && whole;
		} else if (keep) {
			/* a loop's sum needs one function: the largest of several
			 * would be dropped below */
			isl_ctx_reset_error(j->engine->ctx);
			free(reason);
			isl_pw_qpolynomial_free(r);
			ok = one = false;
			break;
		} else {
			isl_ctx_reset_error(j->engine->ctx);
			fk = max_by_pieces(cg.f[k], cg.range[k], cg.ndims[k]);
			one = false;
		}
		free(reason);
		isl_pw_qpolynomial_free(r);
		tidy_part(j, &fk, context);
		acc = fold(acc, fk, formula_add);
		ok = acc != NULL;
	}
	count_groups_clear(&cg);
	if (!ok || session_ctx_stopped(j->engine->ctx)) {
		formula_free(acc);
		acc = NULL;
		isl_ctx_reset_error(j->engine->ctx);
	}
	if (keep && acc && one && whole)
		*keep = whole;
	else
		isl_pw_qpolynomial_free(whole);
	return acc;
}

/* PROCESSES (kept) as the domain of G (kept), a count with the process
 * coordinates moved in front of its parameters: what max_over maximizes
 * over. */
static __isl_give isl_set *process_range(__isl_keep isl_set *processes,
					 __isl_keep isl_pw_qpolynomial *g)
{
	isl_set *range = isl_set_reset_tuple_id(isl_set_copy(processes));
	return isl_set_align_params(range, isl_pw_qpolynomial_get_domain_space(g));
}

/* The small-grid cases of the symbolic grid's axes: each axis 1, 2, or 3
 * or more processes (3^naxes cells). */
enum { CELL_AXES_MAX = 3 };

/* The parameter set of cell C (base 3, a digit per axis: 0 one process,
 * 1 two, 2 three or more) in space PS (kept); NULL after a failure. */
static __isl_give isl_set *grid_cell(__isl_keep isl_space *ps, const int *pos, int naxes, int c)
{
	isl_set *cell = isl_set_universe(isl_space_copy(ps));
	for (int a = 0; a < naxes; a++, c /= 3) {
		unsigned at = (unsigned)pos[a];
		cell = c % 3 == 2 ? isl_set_lower_bound_si(cell, isl_dim_param, at, 3)
				  : isl_set_fix_si(cell, isl_dim_param, at, c % 3 + 1);
	}
	return cell;
}

/* What max_by_grid_cells maximizes, and over what. */
struct cells_of {
	isl_pw_qpolynomial *g;          /* the coordinates its first input dimensions */
	isl_set *range, *context;       /* RANGE the coordinates'; CONTEXT may be NULL */
	isl_pw_qpolynomial *const *terms;
	int nterms;
	bool keep;                      /* one function wanted */
};

/* The maximum of C's function on CELL (taken, a set of the parameters)
 * within C's context, as max_over finds one (the sum of separable terms'
 * maxima, count_max, or the largest of the pieces), there alone (its zero
 * written out, undefined elsewhere), and *R its function (one function
 * wanted, C->keep); NULL when it has none, or when the cell is outside
 * the context (*EMPTY then true: nothing to find). */
static struct formula *cell_max(struct job *j, const struct cells_of *c, __isl_take isl_set *cell,
				__isl_give isl_pw_qpolynomial **r, bool *empty)
{
	*r = NULL;
	*empty = false;
	isl_set *within = c->context ? isl_set_intersect_params(
		isl_set_params(isl_set_copy(c->context)), isl_set_copy(cell)) : NULL;
	isl_bool none = within ? isl_set_is_empty(within) : isl_bool_false;
	if (!cell || none != isl_bool_false) {
		*empty = none == isl_bool_true;
		isl_set_free(cell);
		isl_set_free(within);
		return NULL;
	}
	isl_set *rc = isl_set_intersect_params(isl_set_copy(c->range), isl_set_copy(cell));
	struct formula *fc = NULL;
	isl_pw_qpolynomial **tc = c->nterms > 1 ? calloc((size_t)c->nterms, sizeof(*tc)) : NULL;
	if (tc && rc) {
		for (int t = 0; t < c->nterms; t++)
			tc[t] = c->terms[t] ? isl_pw_qpolynomial_intersect_params(
				isl_pw_qpolynomial_copy(c->terms[t]), isl_set_copy(cell)) : NULL;
		fc = max_separable(j, tc, c->nterms, rc, within ? within : cell, c->keep ? r : NULL);
		for (int t = 0; t < c->nterms; t++)
			isl_pw_qpolynomial_free(tc[t]);
		if (fc && c->keep && !*r) {
			formula_free(fc);
			fc = NULL;
		}
	}
	free(tc);
	if (!fc) {
		isl_pw_qpolynomial *gc = isl_pw_qpolynomial_intersect_params(
			isl_pw_qpolynomial_copy(c->g), isl_set_copy(cell));
		gc = coalesce_pw_qpolynomial(isl_pw_qpolynomial_gist_params(
			gc, isl_set_copy(within ? within : cell)));
		char *reason = NULL;
		isl_pw_qpolynomial_free(*r);
		*r = NULL;
		if (gc && rc && count_max(j->engine, gc, rc, r, &reason) == COUNT_EXACT && *r)
			fc = formula_from_pw_qpolynomial_zero_outside(*r);
		free(reason);
		if (!fc && !c->keep && gc && rc) {
			/* the largest of several functions, as over every grid */
			isl_ctx_reset_error(j->engine->ctx);
			fc = max_by_pieces(gc, rc, j->naxes);
		}
		isl_pw_qpolynomial_free(gc);
	}
	isl_set_free(rc);
	isl_set_free(within);
	/* the cell's alone: its function too, for the sum of the cells' */
	if (*r)
		*r = isl_pw_qpolynomial_intersect_params(*r, isl_set_copy(cell));
	struct formula *on = fc ? formula_restrict(fc, isl_set_copy(cell)) : NULL;
	formula_free(fc);
	isl_set_free(cell);
	if (!on || (c->keep && !*r)) {
		formula_free(on);
		isl_pw_qpolynomial_free(*r);
		*r = NULL;
		isl_ctx_reset_error(j->engine->ctx);
		return NULL;
	}
	return on;
}

/* The block sizes of the symbolic grid's layouts, cyclic(nb) with nb a
 * size: their positions among the parameters of PS (kept), into POS (room
 * for MAX); their number. */
static int block_size_params(const struct job *j, __isl_keep isl_space *ps, int *pos, int max)
{
	int n = 0;
	for (int l = 0; j->info && l < j->info->nlocals; l++) {
		int bp = j->info->locals[l].block_param;
		int at = bp >= 0 && bp < j->m->nparams
			 ? isl_space_find_dim_by_name(ps, isl_dim_param, j->m->params[bp]) : -1;
		bool seen = false;
		for (int k = 0; k < n; k++)
			seen |= pos[k] == at;
		if (at >= 0 && !seen && n < max)
			pos[n++] = at;
	}
	return n;
}

enum { CELL_BLOCK_SIZES_MAX = 2 };

/* The cases' maxima joined so far, and the sum of their functions where
 * one function is wanted (KEEP). */
struct cases_acc {
	struct formula *f;
	isl_pw_qpolynomial *r;
	bool keep;
};

/* A case's maximum F and its function R (both taken) added to A; false
 * when either is missing (R only where one function is wanted) or the
 * join failed. */
static bool cases_add(struct cases_acc *a, struct formula *f, __isl_take isl_pw_qpolynomial *r)
{
	if (!f || (a->keep && !r)) {
		formula_free(f);
		isl_pw_qpolynomial_free(r);
		return false;
	}
	a->f = fold(a->f, f, formula_join);
	if (a->keep)
		a->r = a->r ? isl_pw_qpolynomial_add(a->r, r) : r;
	else
		isl_pw_qpolynomial_free(r);
	return a->f && (!a->keep || a->r);
}

static void cases_clear(struct cases_acc *a)
{
	formula_free(a->f);
	isl_pw_qpolynomial_free(a->r);
	a->f = NULL;
	a->r = NULL;
}

/* CELL (kept) cut by the NB block sizes at BPOS, each 1 (every row a
 * block of its own) or 2 and more, the parts' maxima joined into *F and
 * their functions' sum into *R (C->keep); 0, 1 when every part is outside
 * C's context (nothing to find), -1 when a part has no maximum (*F and *R
 * NULL). */
static int cell_by_block_sizes(struct job *j, const struct cells_of *c, __isl_keep isl_set *cell,
			       const int *bpos, int nb, struct formula **f,
			       __isl_give isl_pw_qpolynomial **r)
{
	struct cases_acc a = {NULL, NULL, c->keep};
	bool any = false;
	for (int sub = 0; sub < 1 << nb; sub++) {
		isl_set *part = isl_set_copy(cell);
		for (int b = 0; b < nb; b++)
			part = sub >> b & 1
			       ? isl_set_lower_bound_si(part, isl_dim_param, (unsigned)bpos[b], 2)
			       : isl_set_fix_si(part, isl_dim_param, (unsigned)bpos[b], 1);
		isl_pw_qpolynomial *rp = NULL;
		bool none;
		struct formula *fp = cell_max(j, c, part, &rp, &none);
		if (!fp && none)
			continue;
		any = true;
		if (!cases_add(&a, fp, rp)) {
			cases_clear(&a);
			break;
		}
	}
	*f = a.f;
	*r = a.r;
	return !any ? 1 : a.f ? 0 : -1;
}

/* The maximum over the processes of C's function (max_over's, as
 * cells_of describes it) cell by cell of the small-grid cases (grid_cell),
 * where no route finds it over every grid at once: which processes lie at
 * the grid's edges, and whether an edge is also another edge, changes with
 * the grid's size, and in each cell it does not.  A cell without a maximum
 * is cut again by each block size nb of a cyclic(nb), nb == 1 (every row
 * its own block) or nb >= 2.  The cells' maxima joined, and *KEEP (when
 * C->keep) their sum as one function.  NULL where a cell has none, the
 * engine's error state cleared. */
static struct formula *max_by_grid_cells(struct job *j, const struct cells_of *c,
					 __isl_give isl_pw_qpolynomial **keep)
{
	int na = j->naxes, pos[CELL_AXES_MAX], ncells = 1, bpos[CELL_BLOCK_SIZES_MAX];
	if (na < 1 || na > CELL_AXES_MAX || j->fixed)
		return NULL;
	isl_ctx_reset_error(j->engine->ctx);
	isl_space *ps = isl_space_params(isl_pw_qpolynomial_get_domain_space(c->g));
	for (int a = 0; a < na; a++) {
		pos[a] = ps ? isl_space_find_dim_by_name(ps, isl_dim_param, j->m->axes[a]) : -1;
		ncells *= 3;
		if (pos[a] < 0) {
			isl_space_free(ps);
			return NULL;
		}
	}
	int nb = block_size_params(j, ps, bpos, CELL_BLOCK_SIZES_MAX);
	struct cases_acc all = {NULL, NULL, c->keep};
	bool ok = true;
	for (int k = 0; k < ncells && ok && !session_ctx_stopped(j->engine->ctx); k++) {
		isl_set *cell = grid_cell(ps, pos, na, k);
		isl_pw_qpolynomial *r = NULL;
		bool empty;
		struct formula *fc = cell_max(j, c, isl_set_copy(cell), &r, &empty);
		if (!fc && !empty && nb > 0 && cell)
			empty = cell_by_block_sizes(j, c, cell, bpos, nb, &fc, &r) == 1;
		isl_set_free(cell);
		if (!fc && empty)
			isl_pw_qpolynomial_free(r);
		else
			ok = cases_add(&all, fc, r);
	}
	isl_space_free(ps);
	if (!ok || !all.f || session_ctx_stopped(j->engine->ctx)) {
		cases_clear(&all);
		isl_ctx_reset_error(j->engine->ctx);
		return NULL;
	}
	if (keep)
		*keep = all.r;
	return all.f;
}

static struct formula *max_over(struct job *j, __isl_keep isl_pw_qpolynomial *f,
				__isl_keep isl_set *processes, __isl_keep isl_set *context,
				const char *what, __isl_give isl_pw_qpolynomial **keep,
				isl_pw_qpolynomial *const *terms, int nterms)
{
	if (failed(&j->fail))
		return NULL;
	if (!f) {
		cost_isl_op_failed(j, what);
		return NULL;
	}
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(f), isl_dim_in,
							      0, isl_dim_param, 0, j->naxes);
	isl_set *range = process_range(processes, g);
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	/* a sum whose terms depend on different coordinates first: the sum of
	 * their maxima (each smaller than the whole's, whose maximum can spend
	 * minutes to fail); in a loop only as one function, which the loop's
	 * sum needs: otherwise the whole's route, whose maximum may be one */
	struct formula *fm = nterms > 1 ? max_separable(j, terms, nterms, range, context,
						      keep ? &r : NULL) : NULL;
	if (fm && keep && !r) {
		formula_free(fm);
		fm = NULL;
	}
	enum count_status st = fm ? COUNT_EXACT : count_max(j->engine, g, range, &r, &reason);
	/* for a loop's sum (KEEP) one function, split where each is the
	 * largest; without it the sum is refused (cost_loop_totals names the
	 * quantity), and one run's formula is the largest of several
	 * functions, as without KEEP */
	bool unsplit = false;
	if (!fm && st == COUNT_REFUSED && keep && !session_ctx_stopped(j->engine->ctx)) {
		char *why = NULL;
		isl_ctx_reset_error(j->engine->ctx);
		unsplit = count_max_split(j->engine, g, range, context, &r, &why) != COUNT_EXACT;
		free(why);
		if (unsplit) {
			isl_ctx_reset_error(j->engine->ctx);
			isl_pw_qpolynomial_free(r);
			r = NULL;
		}
	}
	/* one function for the loop's sum where each small-grid case has one */
	if (!fm && unsplit && !session_ctx_stopped(j->engine->ctx)) {
		isl_pw_qpolynomial *rc = NULL;
		struct cells_of co = {g, range, context, terms, nterms, true};
		if ((fm = max_by_grid_cells(j, &co, &rc))) {
			r = rc;
			unsplit = false;
			free(reason);
			reason = NULL;
		}
	}
	if (fm) {
		/* the separable sum's, or the small-grid cases' */
	} else if (st == COUNT_EXACT && !unsplit) {
		fm = as_formula(j, r, what);
	} else if (st == COUNT_REFUSED && !session_ctx_stopped(j->engine->ctx) &&
		   !(unsplit && j->fixed) && (fm = max_by_pieces(g, range, j->naxes))) {
		/* exact, as the largest of several functions (not for the
		 * symbolic grid's attempt on a concrete grid, refused next) */
		isl_ctx_reset_error(j->engine->ctx);
		free(reason);
		reason = NULL;
	} else if (st == COUNT_REFUSED && !session_ctx_stopped(j->engine->ctx) &&
		   (fm = max_by_grid_cells(j, &(struct cells_of){g, range, context, terms, nterms,
								   false}, NULL))) {
		/* exact in each small-grid case */
		free(reason);
		reason = NULL;
	} else if (unsplit) {
		/* no formula, no failure: the loop's sum says why */
		isl_ctx_reset_error(j->engine->ctx);
	} else {
		max_failed(j, st, reason, what, "the processes");
		reason = NULL;
	}
	free(reason);
	if (keep && fm)
		*keep = r;
	else
		isl_pw_qpolynomial_free(r);
	isl_pw_qpolynomial_free(g);
	isl_set_free(range);
	if (!fm && !unsplit && !failed(&j->fail))
		cost_isl_op_failed(j, what);
	return fm;
}

struct formula *cost_to_formula(struct job *j, __isl_keep isl_pw_qpolynomial *f,
				  const char *what)
{
	if (failed(&j->fail))
		return NULL;
	if (!f) {
		cost_isl_op_failed(j, what);
		return NULL;
	}
	return as_formula(j, f, what);
}

/* { q -> [q' -> e] : (q', e) in USES, q sends e to q' } for array A of R
 * (relations_senders: its owner, or the replicated holder in line with q');
 * USES the remote uses, or all */
static __isl_give isl_map *sends(const struct step_relations *r, int a, __isl_keep isl_map *uses)
{
	return isl_map_reverse(relations_senders(r, a, uses));
}

/* F (taken) times W: the weight of a term of work, or the words of an
 * element. */
static __isl_give isl_pw_qpolynomial *times(struct job *j, __isl_take isl_pw_qpolynomial *f, long w)
{
	if (!f || w == 1)
		return f;
	isl_pw_qpolynomial *r = isl_pw_qpolynomial_scale_val(
		f, isl_val_int_from_si(isl_pw_qpolynomial_get_ctx(f), w));
	if (!r)
		cost_isl_op_failed(j, "weighting work");
	return r;
}

struct per_process {
	isl_pw_qpolynomial *fan_in, *fan_out, *work, *ncom;
	/* with cost_request.messages: the partners it receives from and
	 * sends to */
	isl_pw_qpolynomial *msgs_in, *msgs_out;
	/* each array's own fan-in and fan-out (NULL for an array not read):
	 * the terms of the sums above, for a maximum that splits over them */
	isl_pw_qpolynomial **in_terms, **out_terms;
	/* each array's words in NCom, the terms of ncom */
	isl_pw_qpolynomial **ncom_terms;
	int nterms;
	/* fan_in, fan_out and ncom still 0, their terms not yet added
	 * (count_step; per_process_whole adds them when they are needed) */
	bool pending;
};


void cost_per_iteration_clear(struct per_iteration *it)
{
	isl_pw_qpolynomial_free(it->w);
	isl_pw_qpolynomial_free(it->h_in);
	isl_pw_qpolynomial_free(it->h_out);
	isl_pw_qpolynomial_free(it->h);
	isl_pw_qpolynomial_free(it->ncom);
}

/* Sets every count of P to 0 on the spaces of the relations R; on failure
 * the job fails. */
static void per_process_init(struct job *j, const struct step_relations *r, struct per_process *p)
{
	p->fan_in = zero_count(j, process_params(r->processes, j->naxes));
	p->fan_out = zero_count(j, process_params(r->processes, j->naxes));
	p->work = zero_count(j, process_params(r->processes, j->naxes));
	p->ncom = zero_count(j, isl_set_params(isl_set_copy(r->processes)));
	p->in_terms = calloc((size_t)r->narrays + 1, sizeof(*p->in_terms));
	p->out_terms = calloc((size_t)r->narrays + 1, sizeof(*p->out_terms));
	p->ncom_terms = calloc((size_t)r->narrays + 1, sizeof(*p->ncom_terms));
	p->nterms = p->in_terms && p->out_terms && p->ncom_terms ? r->narrays : 0;
}

static void per_process_clear(struct per_process *p)
{
	isl_pw_qpolynomial_free(p->msgs_in);
	isl_pw_qpolynomial_free(p->msgs_out);
	isl_pw_qpolynomial_free(p->fan_in);
	isl_pw_qpolynomial_free(p->fan_out);
	isl_pw_qpolynomial_free(p->work);
	isl_pw_qpolynomial_free(p->ncom);
	for (int a = 0; a < p->nterms; a++) {
		isl_pw_qpolynomial_free(p->in_terms[a]);
		isl_pw_qpolynomial_free(p->out_terms[a]);
		isl_pw_qpolynomial_free(p->ncom_terms[a]);
	}
	free(p->in_terms);
	free(p->out_terms);
	free(p->ncom_terms);
}

/* { q' -> q : q sends q' an element of some array R reads } (receiver to
 * sender; never q' = q: only remote uses travel), each pair a message;
 * NULL when ISL failed.  The sender of an element is relations_senders'. */
static __isl_give isl_map *partners(const struct step_relations *r)
{
	isl_map *all = NULL;
	for (int a = 0; a < r->narrays; a++) {
		if (!r->use[a])
			continue;
		isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
						   isl_map_reverse(isl_map_copy(r->own[a])));
		isl_map *pairs = isl_map_range_factor_range(
			isl_map_curry(relations_senders(r, a, remote)));
		isl_map_free(remote);
		pairs = isl_map_coalesce(isl_map_detect_equalities(pairs));
		all = all ? isl_map_union(all, pairs) : pairs;
		if (!all)
			return NULL;
	}
	if (!all) {
		isl_space *s = isl_set_get_space(r->processes);
		all = isl_map_empty(isl_space_map_from_set(s));
	}
	return isl_map_coalesce(all);
}

/* The partners of each process of CELL (kept; NULL: every process), as
 * functions of its coordinates, from PAIRS (kept: partners()): *IN the
 * processes it receives from, *OUT those it sends to. */
static void count_partners(struct job *j, __isl_keep isl_map *pairs, __isl_keep isl_set *cell,
			   __isl_give isl_pw_qpolynomial **in, __isl_give isl_pw_qpolynomial **out)
{
	*in = *out = NULL;
	if (failed(&j->fail))
		return;
	if (!pairs) {
		cost_isl_op_failed(j, "the partners");
		return;
	}
	pairs = isl_map_copy(pairs);
	isl_map *to = isl_map_reverse(isl_map_copy(pairs));
	if (cell) {
		pairs = isl_map_intersect_domain(pairs, isl_set_copy(cell));
		to = isl_map_intersect_domain(to, isl_set_copy(cell));
	}
	*in = count(j, per_process(pairs, j->naxes), "msgs_in");
	*out = count(j, per_process(to, j->naxes), "msgs_out");
}

/* Which sum of a process's counts (per_process_whole). */
enum per_process_sum { PP_IN, PP_OUT, PP_NCOM, PP_BOTH };

/* P's sum WHICH (a new reference), its terms added first where they are
 * pending: in the order count_step counted them, so it is the sum counted
 * there would have been; NULL after a failure, which the job takes.  The
 * sums are put off because a maximum or NCom's formula mostly splits over
 * the terms (max_separable, sum_by_terms), and ISL's sum of two counts
 * has the product of their pieces (33 + 33 pieces make 1155). */
static __isl_give isl_pw_qpolynomial *per_process_whole(struct job *j, struct per_process *p,
						       enum per_process_sum which)
{
	if (which == PP_BOTH)
		return sum(j, per_process_whole(j, p, PP_IN), per_process_whole(j, p, PP_OUT));
	if (p->pending) {
		p->pending = false;
		for (int a = 0; a < p->nterms; a++) {
			if (p->in_terms[a])
				p->fan_in = sum(j, p->fan_in, isl_pw_qpolynomial_copy(p->in_terms[a]));
			if (p->out_terms[a])
				p->fan_out = sum(j, p->fan_out, isl_pw_qpolynomial_copy(p->out_terms[a]));
			if (p->ncom_terms[a])
				p->ncom = sum(j, p->ncom, isl_pw_qpolynomial_copy(p->ncom_terms[a]));
		}
	}
	isl_pw_qpolynomial *w = which == PP_IN ? p->fan_in : which == PP_OUT ? p->fan_out : p->ncom;
	if (!w && !failed(&j->fail))
		cost_isl_op_failed(j, "adding counts");
	return isl_pw_qpolynomial_copy(w);
}

/* max_over of P's sum WHICH, whose terms are TERMS[0..N): first the sum of
 * the terms' maxima (max_separable), with the sum itself added up only
 * where that gives none; the same formula either way as max_over of the
 * sum added up first. */
static struct formula *max_over_sum(struct job *j, struct per_process *p,
				    enum per_process_sum which, isl_pw_qpolynomial *const *terms,
				    int n, __isl_keep isl_set *processes, __isl_keep isl_set *context,
				    const char *what, __isl_give isl_pw_qpolynomial **keep)
{
	if (failed(&j->fail))
		return NULL;
	if (p->pending && n > 1) {
		/* the range as max_over aligns it: the sums' space is the zero
		 * count's they start from */
		isl_pw_qpolynomial *g = isl_pw_qpolynomial_move_dims(
			isl_pw_qpolynomial_copy(p->fan_in), isl_dim_in, 0, isl_dim_param, 0, j->naxes);
		isl_set *range = process_range(processes, g);
		isl_pw_qpolynomial_free(g);
		isl_pw_qpolynomial *r = NULL;
		struct formula *fm = range ? max_separable(j, terms, n, range, context,
							   keep ? &r : NULL) : NULL;
		isl_set_free(range);
		if (fm && (!keep || r)) {
			if (keep)
				*keep = r;
			return fm;
		}
		formula_free(fm);
		isl_pw_qpolynomial_free(r);
		n = 0;   /* tried: max_over need not again */
	}
	isl_pw_qpolynomial *f = per_process_whole(j, p, which);
	struct formula *fm = max_over(j, f, processes, context, what, keep, terms, n);
	isl_pw_qpolynomial_free(f);
	return fm;
}

static void count_step(struct job *j, const struct step_relations *r, struct per_process *p)
{
	/* each array's terms kept, their sums added when needed; added here
	 * when there is no room for the terms */
	p->pending = p->nterms == r->narrays;
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
						   isl_map_reverse(isl_map_copy(r->own[a])));
		const char *name = j->m->arrays[a].name;
		long words = (long)j->m->arrays[a].words;
		isl_pw_qpolynomial *ncom = times(j, count(j, isl_map_wrap(isl_map_copy(remote)), name),
						 words);
		isl_pw_qpolynomial *out = times(j, count(j, per_process(sends(r, a, remote), j->naxes),
							  name), words);
		isl_pw_qpolynomial *in = times(j, count(j, per_process(remote, j->naxes), name), words);
		if (!ncom || !out || !in) {
			isl_pw_qpolynomial_free(ncom);
			isl_pw_qpolynomial_free(out);
			isl_pw_qpolynomial_free(in);
			if (!failed(&j->fail))
				cost_isl_op_failed(j, "adding counts");
			break;
		}
		if (p->pending) {
			p->ncom_terms[a] = ncom;
			p->out_terms[a] = out;
			p->in_terms[a] = in;
			continue;
		}
		if (a < p->nterms) {
			p->ncom_terms[a] = isl_pw_qpolynomial_copy(ncom);
			p->out_terms[a] = isl_pw_qpolynomial_copy(out);
			p->in_terms[a] = isl_pw_qpolynomial_copy(in);
		}
		p->ncom = sum(j, p->ncom, ncom);
		p->fan_out = sum(j, p->fan_out, out);
		p->fan_in = sum(j, p->fan_in, in);
	}
	for (int k = 0; k < r->nwork && !failed(&j->fail); k++)
		p->work = sum(j, p->work, times(j, count(j, per_process(isl_map_copy(r->work[k]), j->naxes),
						   "work"),
					     r->work_weight[k]));
}

/* max over the elements of N (with its first NE parameters the element's
 * indices) within RANGE, the elements read. */
static struct formula *max_over_elements(struct job *j, __isl_take isl_pw_qpolynomial *n, int ne,
					 __isl_take isl_set *range, const char *what)
{
	if (failed(&j->fail) || !n || !range) {
		isl_pw_qpolynomial_free(n);
		isl_set_free(range);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, what);
		return NULL;
	}
	n = isl_pw_qpolynomial_move_dims(n, isl_dim_in, 0, isl_dim_param, 0, (unsigned)ne);
	range = isl_set_reset_tuple_id(range);
	range = isl_set_align_params(range, isl_pw_qpolynomial_get_domain_space(n));
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	enum count_status st = count_max(j->engine, n, range, &r, &reason);
	isl_pw_qpolynomial_free(n);
	isl_set_free(range);
	if (st != COUNT_EXACT) {
		max_failed(j, st, reason, what, "the elements");
		return NULL;
	}
	free(reason);
	struct formula *f = formula_from_pw_qpolynomial_zero_outside(r);
	isl_pw_qpolynomial_free(r);
	if (!f)
		cost_isl_op_failed(j, what);
	return f;
}

/* A job for one quantity of --explain: its failure is its own, recorded with
 * the quantity, and leaves the candidate's costs alone. */
struct job cost_explain_job(const struct job *j)
{
	struct job sub = *j;
	sub.fail = (struct fail){FAIL_NONE, NULL};
	return sub;
}

/* *WHY = the reason SUB failed (or NULL); the formula of a failed quantity is
 * dropped. */
static void explain_done(struct job *sub, struct formula **f, char **why)
{
	if (!failed(&sub->fail))
		return;
	formula_free(*f);
	*f = NULL;
	*why = fail_release(&sub->fail);
}

/* NOcc, occurrences and A.e of the arrays read in a superstep (--explain). */
static void count_occurrences(struct job *j, const struct step_relations *r, struct step_cost *sc)
{
	sc->arrays = calloc((size_t)r->narrays + 1, sizeof(*sc->arrays));
	if (!sc->arrays) {
		cost_job_fail(j, COST_FAILED, NULL, "occurrences");
		return;
	}
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		struct array_occurrence *ao = &sc->arrays[sc->narrays++];
		ao->name = j->m->arrays[a].name;
		ao->words = j->m->arrays[a].words;
		isl_map *use = isl_map_copy(r->use[a]);
		isl_size ne = isl_map_dim(use, isl_dim_out);
		for (int d = 0; d < ne; d++)
			use = isl_map_set_dim_id(use, isl_dim_out, (unsigned)d,
						 relations_element_id(j->engine->ctx, d));
		/* NOcc.e: the processes whose local postcondition reads e */
		struct job sub = cost_explain_job(j);
		isl_map *users = isl_map_reverse(isl_map_copy(use));
		users = isl_map_move_dims(users, isl_dim_param, 0, isl_dim_in, 0, (unsigned)ne);
		isl_pw_qpolynomial *n = count(&sub, isl_map_range(users), "NOcc");
		ao->nocc = max_over_elements(&sub, n, ne, isl_map_range(isl_map_copy(use)), "NOcc");
		explain_done(&sub, &ao->nocc, &ao->nocc_why);
		sub = cost_explain_job(j);
		isl_pw_qpolynomial *occ = count(&sub, isl_map_wrap(isl_map_copy(use)), "occurrences");
		ao->occurrences = cost_to_formula(&sub, occ, "occurrences");
		isl_pw_qpolynomial_free(occ);
		explain_done(&sub, &ao->occurrences, &ao->occurrences_why);
		/* A.e = 0: read, but not by its owner */
		sub = cost_explain_job(j);
		isl_map *mine = isl_map_intersect(isl_map_copy(use), isl_map_reverse(isl_map_copy(r->own[a])));
		isl_set *unowned = isl_set_subtract(isl_map_range(use), isl_map_range(mine));
		isl_pw_qpolynomial *u = count(&sub, unowned, "A.e");
		ao->unowned = cost_to_formula(&sub, u, "A.e");
		isl_pw_qpolynomial_free(u);
		explain_done(&sub, &ao->unowned, &ao->unowned_why);
	}
}

/* msgs_in, msgs_out and msgs of SC on the symbolic or a concrete grid: the
 * most partners of a process, maximized over the processes of R as h is;
 * their failure is their own (SC->msgs_why). */
static void count_messages(struct job *j, const struct step_relations *r,
			   __isl_keep isl_set *context, bool looped, struct step_cost *sc)
{
	if (failed(&j->fail) || !j->req->messages)
		return;
	if (looped) {
		sc->msgs_why = strdup("a superstep in loops: values only (-D every size)");
		return;
	}
	struct job sub = cost_explain_job(j);
	isl_pw_qpolynomial *in = NULL, *out = NULL;
	isl_map *pairs = partners(r);
	count_partners(&sub, pairs, NULL, &in, &out);
	isl_map_free(pairs);
	sc->msgs_in = max_over(&sub, in, r->processes, context, "msgs_in", NULL, NULL, 0);
	sc->msgs_out = max_over(&sub, out, r->processes, context, "msgs_out", NULL, NULL, 0);
	isl_pw_qpolynomial_free(in);
	isl_pw_qpolynomial_free(out);
	cost_tidy(&sub, &sc->msgs_in, context);
	cost_tidy(&sub, &sc->msgs_out, context);
	if (!failed(&sub.fail)) {
		sc->msgs = formula_max(sc->msgs_in, sc->msgs_out);
		if (!sc->msgs)
			cost_isl_op_failed(&sub, "msgs");
		cost_tidy(&sub, &sc->msgs, context);
	}
	if (failed(&sub.fail)) {
		formula_free(sc->msgs_in);
		formula_free(sc->msgs_out);
		formula_free(sc->msgs);
		sc->msgs_in = sc->msgs_out = sc->msgs = NULL;
		sc->msgs_why = fail_release(&sub.fail);
		if (!sc->msgs_why)
			sc->msgs_why = strdup("out of memory");
	}
}

/* The point { P[q] } of process number Q of the concrete grid SIZES. */
static __isl_give isl_set *process_point(__isl_keep isl_set *processes, int naxes,
					 const long sizes[], long q)
{
	isl_set *pt = isl_set_copy(processes);
	for (int a = 0; a < naxes; a++) {
		pt = isl_set_fix_si(pt, isl_dim_set, (unsigned)a, (int)(q % sizes[a]));
		q /= sizes[a];
	}
	return pt;
}

/* The maximum of the N per-process functions CAND (kept) as one function:
 * CAND[q] put on { [x] : x = q }, their union maximized over x by count_max
 * (when no process is the largest for all sizes, a value that depends on
 * the sizes alone where the processes only take turns).  *R on COUNT_EXACT;
 * a failure is the engine's, not the job's. */
enum count_status cost_max_over_union(struct job *j, __isl_keep isl_pw_qpolynomial **cand,
					long n, __isl_give isl_pw_qpolynomial **r)
{
	*r = NULL;
	isl_pw_qpolynomial *u = NULL;
	bool bad = false;
	for (long q = 0; q < n && !bad; q++) {
		isl_pw_qpolynomial *f = isl_pw_qpolynomial_add_dims(isl_pw_qpolynomial_copy(cand[q]),
								    isl_dim_in, 1);
		isl_set *at = isl_set_universe(isl_pw_qpolynomial_get_domain_space(f));
		at = isl_set_fix_si(at, isl_dim_set, 0, (int)q);
		f = isl_pw_qpolynomial_intersect_domain(f, at);
		u = u ? isl_pw_qpolynomial_add_disjoint(u, f) : f;
		bad = !u; /* never the maximum of the processes that are left */
	}
	if (!u) {
		isl_ctx_reset_error(j->engine->ctx);
		return COUNT_ERROR;
	}
	isl_set *range = isl_set_universe(isl_pw_qpolynomial_get_domain_space(u));
	range = isl_set_lower_bound_si(range, isl_dim_set, 0, 0);
	range = isl_set_upper_bound_si(range, isl_dim_set, 0, (int)(n - 1));
	char *reason = NULL;
	enum count_status st = count_max(j->engine, u, range, r, &reason);
	free(reason);
	isl_set_free(range);
	isl_pw_qpolynomial_free(u);
	return st;
}

struct formula *cost_max_of_processes(struct job *j, __isl_keep isl_pw_qpolynomial **cand,
				      long n, __isl_keep isl_set *context, const char *what,
				      __isl_give isl_pw_qpolynomial **keep)
{
	if (failed(&j->fail))
		return NULL;
	isl_pw_qpolynomial *r = NULL;
	char *reason = NULL;
	enum count_status st = count_max_of(j->engine, cand, (int)n, &r, &reason);
	free(reason);
	/* in a loop (KEEP): the processes as a dimension, maximized over it
	 * (count_max), for a single function of the loop's variable whose sum
	 * has a closed form */
	if (st != COUNT_EXACT && keep)
		st = cost_max_over_union(j, cand, n, &r);
	if (st != COUNT_EXACT && keep && !session_ctx_stopped(j->engine->ctx)) {
		isl_ctx_reset_error(j->engine->ctx);
		st = count_max_split_of(j->engine, cand, (int)n, context, &r, &reason);
		free(reason);
		reason = NULL;
	}
	if (st == COUNT_EXACT) {
		struct formula *f = as_formula(j, r, what);
		if (keep && f)
			*keep = r;
		else
			isl_pw_qpolynomial_free(r);
		return f;
	}
	struct formula *acc = NULL;
	bool too_large = false;
	budget(j);
	for (long q = 0; q < n; q++) {
		if (cost_out_of_time(j)) {
			unbudget(j);
			formula_free(acc);
			return NULL;
		}
		struct formula *z = formula_from_pw_qpolynomial_zero_outside(cand[q]);
		too_large = !z && formula_pw_qpolynomial_too_large(cand[q]) == 1;
		struct formula *f = formula_on(z, context);
		formula_free(z);
		too_large |= f && acc && formula_pair_too_large(acc, f);
		acc = fold(acc, f, formula_max);
		if (!acc)
			break;
	}
	unbudget(j);
	if (!acc) {
		char *why = budget_reason(j);
		if (!why && too_large)
			why = floor_limit_reason("the maximum over the processes");
		cost_job_fail(j, why ? COST_REFUSED : COST_FAILED, why, what);
	}
	return acc;
}

/* The sum of F[0..N) (kept, N >= 1), added as a balanced tree: no sum of
 * many pieces is refined against each new one. */
__isl_give isl_pw_qpolynomial *cost_sum_tree(struct job *j,
					       __isl_keep isl_pw_qpolynomial *const *f, long n)
{
	if (n <= 0 || failed(&j->fail))
		return NULL;
	if (n == 1)
		return isl_pw_qpolynomial_copy(f[0]);
	return sum(j, cost_sum_tree(j, f, n / 2), cost_sum_tree(j, f + n / 2, n - n / 2));
}

void cost_free_all(__isl_take isl_pw_qpolynomial **f, long n)
{
	for (long q = 0; f && q < n; q++)
		isl_pw_qpolynomial_free(f[q]);
	free(f);
}


void cost_process_functions_clear(struct process_functions *pf)
{
	cost_free_all(pf->fi, pf->n);
	cost_free_all(pf->fo, pf->n);
	cost_free_all(pf->w, pf->n);
	cost_free_all(pf->both, pf->n);
	memset(pf, 0, sizeof(*pf));
}

/* On a concrete grid: every process counted on its own, with its coordinates
 * fixed before anything else, which keeps each set simple (one block of each
 * layout): fan_in(q) = |used by q| - |owned by q|, fan_out(q) = the pairs
 * (q', e) with q' != q using an e that q owns. */
void cost_count_processes(struct job *j, const struct step_relations *r,
			    const struct cost_request *req, struct process_functions *pf)
{
	long nproc = 1;
	for (int a = 0; a < j->naxes; a++)
		nproc *= req->sizes[a];
	pf->n = nproc;
	isl_pw_qpolynomial **fi = pf->fi = calloc((size_t)nproc, sizeof(*fi));
	isl_pw_qpolynomial **fo = pf->fo = calloc((size_t)nproc, sizeof(*fo));
	isl_pw_qpolynomial **w = pf->w = calloc((size_t)nproc, sizeof(*w));
	isl_pw_qpolynomial **both = pf->both =
		req->h == H_SUM ? calloc((size_t)nproc, sizeof(*both)) : NULL;
	if (!fi || !fo || !w || (req->h == H_SUM && !both))
		cost_isl_op_failed(j, "the counts per process");
	/* every count starts at 0, on the size parameters */
	for (long q = 0; q < nproc && !failed(&j->fail); q++) {
		fi[q] = zero_count(j, isl_set_params(isl_set_copy(r->processes)));
		fo[q] = zero_count(j, isl_set_params(isl_set_copy(r->processes)));
		w[q] = zero_count(j, isl_set_params(isl_set_copy(r->processes)));
	}
	for (long q = 0; q < nproc && !failed(&j->fail) && !cost_out_of_time(j); q++) {
		budget(j);
		isl_set *me = process_point(r->processes, j->naxes, req->sizes, q);
		for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
			if (!r->use[a])
				continue;
			const char *name = j->m->arrays[a].name;
			long words = (long)j->m->arrays[a].words;
			isl_set *owned = isl_map_domain(isl_map_intersect_range(isl_map_copy(r->own[a]),
										isl_set_copy(me)));
			isl_set *used = isl_set_apply(isl_set_copy(me), isl_map_copy(r->use[a]));
			fi[q] = sum(j, fi[q],
				    times(j, count(j, isl_set_subtract(used, isl_set_copy(owned)), name),
					  words));
			/* the pairs (q', e) of another q' that q sends e: q' uses an
			 * element q owns; replicated, one q' holds not, in line with q */
			isl_set *others;
			if (!r->replicated[a]) {
				others = isl_map_wrap(isl_map_subtract_domain(
					isl_map_intersect_range(isl_map_copy(r->use[a]), owned),
					isl_set_copy(me)));
			} else {
				isl_set_free(owned);
				isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
								   isl_map_reverse(isl_map_copy(r->own[a])));
				others = isl_map_domain(isl_map_intersect_range(
					relations_senders(r, a, remote), isl_set_copy(me)));
				isl_map_free(remote);
			}
			fo[q] = sum(j, fo[q], times(j, count(j, others, name), words));
		}
		for (int k = 0; k < r->nwork && !failed(&j->fail); k++)
			w[q] = sum(j, w[q], times(j, count(j, isl_set_apply(isl_set_copy(me),
								      isl_map_copy(r->work[k])),
						     "work"),
					       r->work_weight[k]));
		isl_set_free(me);
		if (both)
			both[q] = sum(j, isl_pw_qpolynomial_copy(fi[q]), isl_pw_qpolynomial_copy(fo[q]));
	}
	unbudget(j);
}

/* On a concrete grid: the maxima over one function per process
 * (max_of_processes), and NCom the sum of the fan-ins (each remote
 * occurrence is received by exactly one process). */
static void count_step_concrete(struct job *j, const struct step_relations *r,
				const struct cost_request *req, __isl_keep isl_set *context,
				struct step_cost *sc, struct per_iteration *keep)
{
	struct process_functions pf = {0};
	cost_count_processes(j, r, req, &pf);
	long nproc = pf.n;
	/* NCom is summed by ISL: pieces with divisions add more cheaply there than
	 * as formulas */
	isl_pw_qpolynomial *ncom = NULL;
	sc->w = cost_max_of_processes(j, pf.w, nproc, context, "w", keep ? &keep->w : NULL);
	sc->h_in = cost_max_of_processes(j, pf.fi, nproc, context, "h_in", keep ? &keep->h_in : NULL);
	sc->h_out = cost_max_of_processes(j, pf.fo, nproc, context, "h_out", keep ? &keep->h_out : NULL);
	if (pf.both)
		sc->h = cost_max_of_processes(j, pf.both, nproc, context, "h", keep ? &keep->h : NULL);
	if (!failed(&j->fail))
		ncom = cost_sum_tree(j, pf.fi, nproc);
	sc->ncom = cost_to_formula(j, ncom, "NCom");
	if (keep && sc->ncom)
		keep->ncom = ncom;
	else
		isl_pw_qpolynomial_free(ncom);
	cost_process_functions_clear(&pf);
}

/* The distinct values of F's pieces (kept; the coordinates its first
 * parameters) over PROCESSES, as max_by_pieces finds them, each a function
 * of the other parameters, zero outside where some process has it: *OUT
 * (*N of them, at least one).  Every value is a count, never negative, so
 * the largest of them is at every point the maximum over the processes.
 * -1, nothing failed, where a value depends on a coordinate that pinning
 * does not resolve or there are too many values. */
static int pieces_apart(struct job *j, __isl_keep isl_pw_qpolynomial *f,
			__isl_keep isl_set *processes, isl_pw_qpolynomial ***out, long *n)
{
	*out = NULL;
	*n = 0;
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(f), isl_dim_in,
							      0, isl_dim_param, 0, j->naxes);
	isl_set *range = process_range(processes, g);
	isl_pw_qpolynomial *h = coalesce_pw_qpolynomial(isl_pw_qpolynomial_intersect_domain(g, range));
	struct piece_max pm = {.ns = j->naxes, .ok = true};
	bool ok = h && isl_pw_qpolynomial_foreach_piece(h, piece_max_formula, &pm) >= 0 && pm.ok;
	isl_space *params = ok ? isl_space_params(isl_pw_qpolynomial_get_domain_space(h)) : NULL;
	isl_pw_qpolynomial_free(h);
	long nv = pm.nv > 0 ? pm.nv : 1;
	isl_pw_qpolynomial **v = ok ? calloc((size_t)nv, sizeof(*v)) : NULL;
	for (int k = 0; v && k < pm.nv; k++) {
		v[k] = isl_pw_qpolynomial_alloc(pm.dom[k], pm.val[k]);
		pm.dom[k] = NULL;
		pm.val[k] = NULL;
		if (!v[k])
			ok = false;
	}
	if (v && pm.nv == 0 &&
	    !(v[0] = isl_pw_qpolynomial_zero(isl_space_add_dims(isl_space_copy(params),
								isl_dim_out, 1))))
		ok = false;
	isl_space_free(params);
	piece_max_clear(&pm);
	if (!ok || !v) {
		cost_free_all(v, nv);
		isl_ctx_reset_error(j->engine->ctx);
		return -1;
	}
	*out = v;
	*n = nv;
	return 0;
}

void cost_step_maxima_clear(struct step_maxima *sm)
{
	for (int t = 0; t < MAXIMA_N; t++)
		cost_free_all(sm->f[t], sm->n[t]);
	isl_pw_qpolynomial_free(sm->ncom);
	memset(sm, 0, sizeof(*sm));
}

int cost_count_maxima(struct job *j, const struct step_relations *r,
		      const struct cost_request *req, struct step_maxima *sm)
{
	memset(sm, 0, sizeof(*sm));
	struct per_process p = {0};
	per_process_init(j, r, &p);
	if (!failed(&j->fail))
		count_step(j, r, &p);
	isl_pw_qpolynomial *in = per_process_whole(j, &p, PP_IN);
	isl_pw_qpolynomial *out = per_process_whole(j, &p, PP_OUT);
	isl_pw_qpolynomial *ncom = per_process_whole(j, &p, PP_NCOM);
	isl_pw_qpolynomial *both = req->h == H_SUM && !failed(&j->fail)
		? sum(j, isl_pw_qpolynomial_copy(in), isl_pw_qpolynomial_copy(out))
		: NULL;
	isl_pw_qpolynomial *const of[MAXIMA_N] = {p.work, in, out, both};
	int st = failed(&j->fail) ? -1 : 0;
	for (int t = 0; st == 0 && t < MAXIMA_N; t++)
		if (of[t])
			st = pieces_apart(j, of[t], r->processes, &sm->f[t], &sm->n[t]);
	if (st == 0) {
		sm->ncom = ncom;
		ncom = NULL;
	} else {
		cost_step_maxima_clear(sm);
	}
	isl_pw_qpolynomial_free(in);
	isl_pw_qpolynomial_free(out);
	isl_pw_qpolynomial_free(ncom);
	isl_pw_qpolynomial_free(both);
	per_process_clear(&p);
	return st;
}

/* With every value known: the exact maximum over the processes of F (a
 * function of the coordinates, the first parameters), a number. */
static __isl_give isl_val *max_values(struct job *j, __isl_keep isl_pw_qpolynomial *f,
				      __isl_keep isl_set *processes, const char *what)
{
	if (failed(&j->fail))
		return NULL;
	if (!f) {
		cost_isl_op_failed(j, what);
		return NULL;
	}
	isl_set *box = isl_set_move_dims(isl_set_copy(processes), isl_dim_param, 0, isl_dim_set, 0,
					 (unsigned)j->naxes);
	isl_val *v = NULL;
	char *reason = NULL;
	if (!box) {
		cost_isl_op_failed(j, what);
		return NULL;
	}
	enum count_status st = count_max_values(j->engine, f, box, MAX_PROCESSES, &v, &reason);
	isl_set_free(box);
	if (st != COUNT_EXACT) {
		max_failed(j, st, reason, what, "the processes");
		return NULL;
	}
	free(reason);
	return v;
}

/* V (taken) as a formula, or NULL after a failure. */
static struct formula *number(struct job *j, __isl_take isl_val *v, const char *what)
{
	if (failed(&j->fail) || !v) {
		isl_val_free(v);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, what);
		return NULL;
	}
	struct formula *f = formula_const_val(v);
	if (!f)
		cost_isl_op_failed(j, what);
	return f;
}

/* A - B (both taken) */
static __isl_give isl_pw_qpolynomial *difference(struct job *j, __isl_take isl_pw_qpolynomial *a,
						 __isl_take isl_pw_qpolynomial *b)
{
	return sum(j, a, isl_pw_qpolynomial_neg(b));
}

/* The counts of count_step, with every value known, as differences of sets
 * that need no complement (a complement of a cyclic layout over two axes is a
 * union of many pieces; these sets stay as simple as the layouts):
 *   self(q)    = |used by q and owned by q|
 *   fan_in(q)  = |used by q| - self(q)
 *   fan_out(q) = |{(q', e) : q' uses e, q owns e}| - self(q)
 *   NCom       = |{(q, e) : q uses e}| - |{(q, e) : q uses e, q owns e}| */
/* The sets behind the counts of array A, per process q of CELL (kept, a set
 * of coordinates; NULL: every process; the coordinates the sets' first
 * parameters): the elements q uses and owns (SELF), those q uses (USED), the
 * pairs (q', e) of a q' using an e that q owns (PAIRS), and for NCom the
 * pairs (q, e) of a q using e (USES) and of a q using an e it owns (MINE). */
enum { SELF, USED, PAIRS, USES, MINE, DIRECT_SETS };
static void direct_sets(const struct step_relations *r, int a, int naxes, __isl_keep isl_set *cell,
			__isl_give isl_set *sets[DIRECT_SETS])
{
	isl_map *use = isl_map_copy(r->use[a]);
	isl_map *pairs = sends(r, a, r->use[a]);
	if (cell) {
		use = isl_map_intersect_domain(use, isl_set_copy(cell));
		pairs = isl_map_intersect_domain(pairs, isl_set_copy(cell));
	}
	isl_map *mine = isl_map_intersect(isl_map_copy(use), isl_map_reverse(isl_map_copy(r->own[a])));
	sets[SELF] = per_process(isl_map_copy(mine), naxes);
	sets[USED] = per_process(isl_map_copy(use), naxes);
	sets[PAIRS] = per_process(pairs, naxes);
	sets[USES] = isl_map_wrap(use);
	sets[MINE] = isl_map_wrap(mine);
}

/* The counts of the processes of CELL (kept) as functions of their
 * coordinates, into P (0 outside CELL). */
static void count_step_direct(struct job *j, const struct step_relations *r,
			      __isl_keep isl_set *cell, struct per_process *p)
{
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		const char *name = j->m->arrays[a].name;
		isl_set *sets[DIRECT_SETS];
		direct_sets(r, a, j->naxes, cell, sets);
		isl_pw_qpolynomial *self = count(j, sets[SELF], name);
		isl_pw_qpolynomial *in = difference(j, count(j, sets[USED], name),
						    isl_pw_qpolynomial_copy(self));
		isl_pw_qpolynomial *out = difference(j, count(j, sets[PAIRS], name), self);
		isl_pw_qpolynomial *ncom = difference(j, count(j, sets[USES], name),
						      count(j, sets[MINE], name));
		long words = (long)j->m->arrays[a].words;
		p->fan_in = sum(j, p->fan_in, times(j, in, words));
		p->fan_out = sum(j, p->fan_out, times(j, out, words));
		p->ncom = sum(j, p->ncom, times(j, ncom, words));
	}
	for (int k = 0; k < r->nwork && !failed(&j->fail); k++) {
		isl_map *work = isl_map_intersect_domain(isl_map_copy(r->work[k]), isl_set_copy(cell));
		p->work = sum(j, p->work,
			      times(j, count(j, per_process(work, j->naxes), "work"), r->work_weight[k]));
	}
}

/* The number of points of SET (taken; the coordinates its first parameters)
 * at the process Q, a number; NULL after a failure. */
static __isl_give isl_val *count_at(struct job *j, __isl_take isl_set *set, const long q[],
				    const char *what)
{
	for (int a = 0; set && a < j->naxes; a++)
		set = isl_set_fix_si(set, isl_dim_param, (unsigned)a, (int)q[a]);
	set = set ? isl_set_project_out(set, isl_dim_param, 0, (unsigned)j->naxes) : NULL;
	isl_pw_qpolynomial *c = count(j, set, what);
	if (!c)
		return NULL;
	isl_space *space = isl_pw_qpolynomial_get_domain_space(c);
	isl_val *v = isl_pw_qpolynomial_eval(c, isl_point_zero(space));
	if (!v)
		cost_isl_op_failed(j, what);
	return v;
}

/* *ACC = max(*ACC, V) (V taken) */
static void keep_max(__isl_keep isl_val **acc, __isl_take isl_val *v)
{
	*acc = isl_val_max(*acc, v);
}

/* The quantities of a step at values, gathered cell by cell of processes:
 * maxima over the processes, NCom summed. */
struct each_process {
	struct job *j;
	const struct step_relations *r;
	const struct cost_request *req;
	isl_val *w, *h, *h_in, *h_out, *ncom;
	struct step_cost *sc;   /* its procs, with cost_request.per_process */
	int refused;            /* cells whose count was refused, then cut */
	long nprocs;            /* the grid's processes */
	/* with cost_request.messages: the most partners; and with a model
	 * that prices messages, the loads no other beats (cost_model.h) */
	isl_val *msgs_in, *msgs_out;
	isl_map *pairs;         /* partners(), once for every cell and process */
	bool loads;
	struct message_load *load;
	int nloads, cap;
};

/* Whether E counts messages: asked, or a cost function prices them. */
static bool counts_messages(const struct each_process *e)
{
	return e->req->messages || e->loads;
}

/* The most cells of one step whose count is refused and cut again (a
 * stencil's boundaries take one or two): past it, a grid of at most
 * EACH_PROCESS_MAX processes (cost_internal.h) is counted process by
 * process, and a larger one is refused (its counts have no exact route in
 * reasonable time) rather than cut down to every process until the
 * deadline. */
enum { CELL_REFUSALS = 16 };

/* The most processes whose loads (words and messages, cost_model.h) are
 * counted one by one, for a model that prices messages. */
enum { LOADS_MAX = 4096 };

/* V (kept, an integer) into OUT; false when it is not one. */
static bool val_to_mpz(__isl_keep isl_val *v, mpz_t out)
{
	if (!v || !isl_val_is_int(v))
		return false;
	char *text = isl_val_to_str(v);
	bool ok = text && mpz_set_str(out, text, 10) == 0;
	free(text);
	return ok;
}

/* The counts of process Q (W, IN and OUT kept) into E->sc->procs, the
 * first axis slowest. */
static void record_process(struct each_process *e, const long q[3], __isl_keep isl_val *w,
			   __isl_keep isl_val *in, __isl_keep isl_val *out, __isl_keep isl_val *mi,
			   __isl_keep isl_val *mo)
{
	struct step_cost *sc = e->sc;
	long idx = 0;
	for (int a = 0; a < e->j->naxes; a++)
		idx = idx * e->req->sizes[a] + q[a];
	if (!sc->procs || idx < 0 || idx >= sc->nprocs) {
		fail_set(&e->j->fail, FAIL_ERROR, "a process outside the grid");
		return;
	}
	struct process_cost *pc = &sc->procs[idx];
	memcpy(pc->q, q, sizeof(pc->q));
	if (!val_to_mpz(w, pc->w) || !val_to_mpz(in, pc->in) || !val_to_mpz(out, pc->out) ||
	    (mi && !val_to_mpz(mi, pc->msgs_in)) || (mo && !val_to_mpz(mo, pc->msgs_out)))
		cost_isl_op_failed(e->j, "counting process by process");
}

/* A process's load (WORDS, MSGS, kept) into E's loads. */
static void add_load(struct each_process *e, __isl_keep isl_val *words, __isl_keep isl_val *msgs)
{
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	if (!val_to_mpz(words, a) || !val_to_mpz(msgs, b) ||
	    message_loads_add(&e->load, &e->nloads, &e->cap, a, b) < 0)
		cost_isl_op_failed(e->j, "the loads of the processes");
	mpz_clears(a, b, NULL);
}

/* Process's partners MI and MO (taken; NULL when not counted) with its
 * words IN and OUT (kept) into E: the maxima and the loads. */
static void add_partners(struct each_process *e, __isl_keep isl_val *in, __isl_keep isl_val *out,
			 __isl_take isl_val *mi, __isl_take isl_val *mo)
{
	struct job *j = e->j;
	if (!counts_messages(e) || failed(&j->fail)) {
		isl_val_free(mi);
		isl_val_free(mo);
		return;
	}
	if (!mi || !mo) {
		isl_val_free(mi);
		isl_val_free(mo);
		cost_isl_op_failed(j, "counting the messages");
		return;
	}
	if (e->loads && e->req->h == H_SUM) {
		isl_val *words = isl_val_add(isl_val_copy(in), isl_val_copy(out));
		isl_val *msgs = isl_val_add(isl_val_copy(mi), isl_val_copy(mo));
		add_load(e, words, msgs);
		isl_val_free(words);
		isl_val_free(msgs);
	} else if (e->loads) {
		add_load(e, in, mi);
		add_load(e, out, mo);
	}
	keep_max(&e->msgs_in, mi);
	keep_max(&e->msgs_out, mo);
	if (!e->msgs_in || !e->msgs_out)
		cost_isl_op_failed(j, "counting the messages");
}

/* The counts of process Q (IN, OUT and WORK taken; NULL after a failure)
 * into E: its own record (with cost_request.per_process) and the maxima;
 * NCom is the caller's. */
static void add_process(struct each_process *e, const long q[3], __isl_take isl_val *in,
			__isl_take isl_val *out, __isl_take isl_val *work, __isl_take isl_val *mi,
			__isl_take isl_val *mo)
{
	struct job *j = e->j;
	if (!in || !out || !work) {
		isl_val_free(in);
		isl_val_free(out);
		isl_val_free(work);
		isl_val_free(mi);
		isl_val_free(mo);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, "counting process by process");
		return;
	}
	if (e->sc)
		record_process(e, q, work, in, out, mi, mo);
	add_partners(e, in, out, mi, mo);
	keep_max(&e->h, e->req->h == H_SUM ? isl_val_add(isl_val_copy(in), isl_val_copy(out))
					    : isl_val_max(isl_val_copy(in), isl_val_copy(out)));
	keep_max(&e->h_in, in);
	keep_max(&e->h_out, out);
	keep_max(&e->w, work);
	if (!failed(&j->fail) && (!e->h || !e->h_in || !e->h_out || !e->w))
		cost_isl_op_failed(j, "counting process by process");
}

/* The coordinates of PT (taken) into Q. */
static void point_coordinates(__isl_take isl_point *pt, enum isl_dim_type type, int naxes,
			      long q[3])
{
	for (int a = 0; a < naxes; a++) {
		isl_val *c = isl_point_get_coordinate_val(pt, type, a);
		q[a] = c ? isl_val_get_num_si(c) : 0;
		isl_val_free(c);
	}
	isl_point_free(pt);
}

/* One process counted with its coordinates fixed: each count is of a set
 * without parameters. */
static isl_stat count_process(__isl_take isl_point *pt, void *user)
{
	struct each_process *e = user;
	struct job *j = e->j;
	const struct step_relations *r = e->r;
	long q[3] = {0, 0, 0};
	point_coordinates(pt, isl_dim_set, j->naxes, q);
	isl_ctx *ctx = j->engine->ctx;
	isl_val *in = isl_val_zero(ctx), *out = isl_val_zero(ctx), *work = isl_val_zero(ctx);
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		const char *name = j->m->arrays[a].name;
		isl_set *sets[DIRECT_SETS];
		direct_sets(r, a, j->naxes, NULL, sets);
		isl_set_free(sets[USES]);
		isl_set_free(sets[MINE]);
		isl_val *self = count_at(j, sets[SELF], q, name);
		isl_val *used = count_at(j, sets[USED], q, name);
		isl_val *pairs = count_at(j, sets[PAIRS], q, name);
		unsigned long words = (unsigned long)j->m->arrays[a].words;
		in = isl_val_add(in, isl_val_mul_ui(isl_val_sub(used, isl_val_copy(self)), words));
		out = isl_val_add(out, isl_val_mul_ui(isl_val_sub(pairs, self), words));
	}
	for (int k = 0; k < r->nwork && !failed(&j->fail); k++)
		work = isl_val_add(work, isl_val_mul_ui(count_at(j, per_process(isl_map_copy(r->work[k]),
										 j->naxes),
								 q, "work"),
							(unsigned long)r->work_weight[k]));
	e->ncom = isl_val_add(e->ncom, isl_val_copy(in));
	isl_val *mi = NULL, *mo = NULL;
	if (counts_messages(e) && !failed(&j->fail)) {
		mi = count_at(j, per_process(isl_map_copy(e->pairs), j->naxes), q, "msgs_in");
		mo = count_at(j, per_process(isl_map_reverse(isl_map_copy(e->pairs)), j->naxes), q,
			      "msgs_out");
	}
	add_process(e, q, in, out, work, mi, mo);
	return !failed(&j->fail) && !cost_out_of_time(j) ? isl_stat_ok : isl_stat_error;
}

/* F (kept, on the coordinates as parameters) at the process PT (kept). */
static __isl_give isl_val *value_at(__isl_keep isl_pw_qpolynomial *f, __isl_keep isl_point *pt,
				    int naxes)
{
	isl_point *at = isl_point_zero(isl_pw_qpolynomial_get_domain_space(f));
	for (int a = 0; at && a < naxes; a++)
		at = isl_point_set_coordinate_val(at, isl_dim_param, a,
						  isl_point_get_coordinate_val(pt, isl_dim_set, a));
	return isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(f), at);
}

struct cell_points {
	struct each_process *e;
	const struct per_process *p;
};

/* With cost_request.per_process: one process of a cell counted as a whole,
 * its counts read off the cell's functions of the coordinates. */
static isl_stat record_point(__isl_take isl_point *pt, void *user)
{
	struct cell_points *cp = user;
	struct job *j = cp->e->j;
	long q[3] = {0, 0, 0};
	isl_val *in = value_at(cp->p->fan_in, pt, j->naxes);
	isl_val *out = value_at(cp->p->fan_out, pt, j->naxes);
	isl_val *work = value_at(cp->p->work, pt, j->naxes);
	isl_val *mi = cp->p->msgs_in ? value_at(cp->p->msgs_in, pt, j->naxes) : NULL;
	isl_val *mo = cp->p->msgs_out ? value_at(cp->p->msgs_out, pt, j->naxes) : NULL;
	point_coordinates(pt, isl_dim_set, j->naxes, q);
	add_process(cp->e, q, in, out, work, mi, mo);
	return !failed(&j->fail) && !cost_out_of_time(j) ? isl_stat_ok : isl_stat_error;
}

/* The maxima of the counts P of the processes of CELL (kept), into E. */
static void add_cell_maxima(struct each_process *e, const struct per_process *p,
			    __isl_keep isl_set *cell)
{
	struct job *j = e->j;
	isl_val *h_in = max_values(j, p->fan_in, cell, "h_in");
	isl_val *h_out = max_values(j, p->fan_out, cell, "h_out");
	isl_val *h = NULL;
	if (e->req->h == H_SUM) {
		isl_pw_qpolynomial *both = sum(j, isl_pw_qpolynomial_copy(p->fan_in),
					       isl_pw_qpolynomial_copy(p->fan_out));
		h = max_values(j, both, cell, "h");
		isl_pw_qpolynomial_free(both);
	} else if (h_in && h_out) {
		h = isl_val_max(isl_val_copy(h_in), isl_val_copy(h_out));
	}
	isl_val *w = max_values(j, p->work, cell, "w");
	if (failed(&j->fail) || !h_in || !h_out || !h || !w) {
		isl_val_free(h_in);
		isl_val_free(h_out);
		isl_val_free(h);
		isl_val_free(w);
		if (!failed(&j->fail))
			cost_isl_op_failed(j, "the maxima over the processes");
		return;
	}
	keep_max(&e->h_in, h_in);
	keep_max(&e->h_out, h_out);
	keep_max(&e->h, h);
	keep_max(&e->w, w);
	if (counts_messages(e) && !failed(&j->fail)) {
		isl_val *mi = max_values(j, p->msgs_in, cell, "msgs_in");
		isl_val *mo = max_values(j, p->msgs_out, cell, "msgs_out");
		if (mi && mo) {
			keep_max(&e->msgs_in, mi);
			keep_max(&e->msgs_out, mo);
		} else {
			isl_val_free(mi);
			isl_val_free(mo);
		}
		if (!failed(&j->fail) && (!mi || !mo || !e->msgs_in || !e->msgs_out))
			cost_isl_op_failed(j, "counting the messages");
	}
}

/* A box of processes: coordinates LO[a] ..= HI[a] on each axis a. */
struct cell {
	long lo[3], hi[3];
};

/* The processes of R in box C, a set of coordinates. */
static __isl_give isl_set *cell_set(const struct step_relations *r, int naxes, const struct cell *c)
{
	isl_set *set = isl_set_copy(r->processes);
	for (int a = 0; a < naxes; a++) {
		set = isl_set_lower_bound_si(set, isl_dim_set, (unsigned)a, (int)c->lo[a]);
		set = isl_set_upper_bound_si(set, isl_dim_set, (unsigned)a, (int)c->hi[a]);
	}
	return set;
}

/* Every quantity of the processes of box C of R's grid into E.  The cell
 * is counted once, its counts functions of the coordinates
 * (count_step_direct), and their maxima taken by ISL's integer optimization.
 * When that has no exact route within the engine's limits (pieces, steps,
 * operations: a cell holding the first, the last and the inner processes of
 * several axes at once has many cases), the cell is cut along its widest
 * axis (its first and last process alone, the inner ones in two halves) and
 * each part counted the same way, down to single processes, whose counts are
 * of sets without parameters; past CELL_REFUSALS refused cells, see there.
 * The cells cover the grid once, so the maxima of the cells are the grid's
 * and their NComs add up to its NCom: exact either way. */
static void count_cell(struct each_process *e, const struct cell *c)
{
	struct job *j = e->j;
	int widest = -1;
	for (int a = 0; a < j->naxes; a++)
		if (c->hi[a] > c->lo[a] &&
		    (widest < 0 || c->hi[a] - c->lo[a] > c->hi[widest] - c->lo[widest]))
			widest = a;
	isl_set *cell = cell_set(e->r, j->naxes, c);
	if (!cell) {
		cost_isl_op_failed(j, "the cells of processes");
		return;
	}
	if (widest < 0) {
		/* one process */
		isl_set_foreach_point(cell, count_process, e);
		isl_set_free(cell);
		return;
	}
	struct per_process p = {0};
	per_process_init(j, e->r, &p);
	count_step_direct(j, e->r, cell, &p);
	if (counts_messages(e))
		count_partners(j, e->pairs, cell, &p.msgs_in, &p.msgs_out);
	isl_val *ncom = max_values(j, p.ncom, e->r->processes, "NCom");
	/* each process on its own where its record or its loads are wanted */
	if (!failed(&j->fail) && (e->sc || e->loads)) {
		struct cell_points cp = {e, &p};
		isl_set_foreach_point(cell, record_point, &cp);
	} else {
		add_cell_maxima(e, &p, cell);
	}
	per_process_clear(&p);
	if (!failed(&j->fail)) {
		isl_set_free(cell);
		e->ncom = isl_val_add(e->ncom, ncom);
		if (!e->ncom)
			cost_isl_op_failed(j, "NCom");
		return;
	}
	isl_val_free(ncom);
	if (j->fail.kind != FAIL_REFUSED || j->timed_out || session_ctx_stopped(j->engine->ctx)) {
		isl_set_free(cell);
		return;
	}
	if (++e->refused > CELL_REFUSALS && e->nprocs <= EACH_PROCESS_MAX) {
		/* a small grid: this cell's processes one by one, as a last resort */
		fail_clear(&j->fail);
		isl_set_foreach_point(cell, count_process, e);
		isl_set_free(cell);
		return;
	}
	isl_set_free(cell);
	if (e->refused > CELL_REFUSALS) {
		char *last = fail_release(&j->fail);
		fail_set(&j->fail, FAIL_REFUSED, "the counts of more than %d cells of processes were "
			 "refused (the last: %s)", CELL_REFUSALS, last ? last : "out of memory");
		free(last);
		return;
	}
	fail_clear(&j->fail);
	/* the first and the last processes of the axis alone (where a
	 * distribution's boundary cases are), and the inner ones in two halves */
	long lo = c->lo[widest], hi = c->hi[widest];
	long cut[5] = {lo, lo + 1, lo + 1 + (hi - lo - 1) / 2, hi, hi + 1};
	for (int k = 0; k < 4 && !failed(&j->fail); k++) {
		struct cell part = *c;
		part.lo[widest] = cut[k];
		part.hi[widest] = cut[k + 1] - 1;
		if (part.lo[widest] <= part.hi[widest])
			count_cell(e, &part);
	}
}

/* With every value known: every quantity of the step, a number, counted
 * cell by cell of processes (count_cell): the whole grid at once when its
 * counts have an exact form as functions of the coordinates, smaller cells
 * where they have not.  With cost_request.per_process, each process's counts
 * too, read off its cell's functions. */
void cost_count_step_values(struct job *j, const struct step_relations *r,
			      const struct cost_request *req, struct step_cost *sc)
{
	isl_ctx *ctx = j->engine->ctx;
	/* counts are at least 0, so every maximum starts there */
	struct each_process e = {.j = j, .r = r, .req = req, .w = isl_val_zero(ctx),
				 .h = isl_val_zero(ctx), .h_in = isl_val_zero(ctx),
				 .h_out = isl_val_zero(ctx), .ncom = isl_val_zero(ctx), .nprocs = 1};
	e.loads = req->model && req->model->messages != MSG_NONE;
	if (counts_messages(&e)) {
		e.msgs_in = isl_val_zero(ctx);
		e.msgs_out = isl_val_zero(ctx);
		e.pairs = partners(r);
		if (!e.pairs)
			cost_isl_op_failed(j, "the partners");
	}
	if (req->per_process) {
		long n = 1;
		for (int a = 0; a < j->naxes; a++)
			n *= req->sizes[a];
		sc->procs = n <= PER_PROCESS_MAX ? calloc((size_t)n, sizeof(*sc->procs)) : NULL;
		if (!sc->procs) {
			fail_set(&j->fail, n <= PER_PROCESS_MAX ? FAIL_ERROR : FAIL_REFUSED,
				 n <= PER_PROCESS_MAX ? "out of memory"
						      : "more processes than are counted one by one");
		} else {
			sc->nprocs = (int)n;
			for (long i = 0; i < n; i++) {
				mpz_inits(sc->procs[i].w, sc->procs[i].in, sc->procs[i].out,
					  sc->procs[i].msgs_in, sc->procs[i].msgs_out, NULL);
			}
			e.sc = sc;
		}
	}
	struct cell all = {{0, 0, 0}, {0, 0, 0}};
	for (int a = 0; a < j->naxes; a++) {
		all.hi[a] = req->sizes[a] - 1;
		e.nprocs *= req->sizes[a];
	}
	if (e.loads && e.nprocs > LOADS_MAX && !failed(&j->fail))
		fail_set(&j->fail, FAIL_REFUSED, "--model %s weighs each process's words and "
			 "messages together, process by process: at most %d processes, not %ld",
			 req->model->name, LOADS_MAX, e.nprocs);
	if (!failed(&j->fail))
		count_cell(&e, &all);
	sc->w = number(j, e.w, "w");
	sc->h = number(j, e.h, "h");
	sc->h_in = number(j, e.h_in, "h_in");
	sc->h_out = number(j, e.h_out, "h_out");
	sc->ncom = number(j, e.ncom, "NCom");
	if (counts_messages(&e)) {
		sc->msgs_in = number(j, e.msgs_in, "msgs_in");
		sc->msgs_out = number(j, e.msgs_out, "msgs_out");
		sc->msgs = !failed(&j->fail) ? formula_max(sc->msgs_in, sc->msgs_out) : NULL;
		if (!failed(&j->fail) && !sc->msgs)
			cost_isl_op_failed(j, "msgs");
	}
	sc->loads = e.load;
	sc->nloads = e.nloads;
	isl_map_free(e.pairs);
}

/* The cost of SC under the request's cost function. */
struct formula *cost_step_cost_formula(const struct cost_request *req, const struct step_cost *sc)
{
	const struct cost_model *cm = req->model ? req->model : cost_model_default();
	if (cm->messages != MSG_NONE)   /* the loads are counted at values only */
		return req->values ? cost_model_message_formula(cm, sc->w, sc->loads, sc->nloads)
				   : NULL;
	const struct formula *q[TERM_N] = {sc->w, sc->h, sc->h_in, sc->h_out, sc->ncom};
	return cost_model_formula(cm, q);
}

/* Replaces *F by REPLACE(*F) when that succeeds. */
/* { AXIS = V } (V > 0) or { AXIS >= -V } (V < 0), over AXIS alone. */
static __isl_give isl_set *axis_part(isl_ctx *ctx, const char *axis, long v)
{
	isl_space *space = isl_space_params_alloc(ctx, 1);
	space = isl_space_set_dim_id(space, isl_dim_param, 0, isl_id_alloc(ctx, axis, NULL));
	isl_set *set = isl_set_universe(space);
	if (v > 0)
		return isl_set_fix_si(set, isl_dim_param, 0, (int)v);
	return isl_set_lower_bound_si(set, isl_dim_param, 0, (int)-v);
}

/* G (gisted in CONTEXT) with NAME = VALUE, where VALUE is X/AXIS: case by case
 * of AXIS = 1, ..., K-1 and AXIS >= K for the smallest K <= MAX_AXIS_CASES that
 * rids every condition of what has no affine form (M + n__M >= 4 is n >= 3
 * where M = 1, and holds where M >= 2 if n__M >= 2).  NULL when no K does. */
static struct formula *subst_by_axis(const struct formula *g, const char *name,
				     const struct formula *value, const char *axis,
				     __isl_keep isl_set *context)
{
	isl_ctx *ctx = isl_set_get_ctx(context);
	for (long k = 2; k <= MAX_AXIS_CASES; k++) {
		struct formula *acc = NULL;
		bool good = true;
		for (long v = 1; v <= k && good; v++) {
			long which = v < k ? v : -k;
			isl_set *part = axis_part(ctx, axis, which);
			isl_set *here = part ? isl_set_intersect_params(isl_set_copy(context),
									isl_set_copy(part))
					     : NULL;
			isl_bool empty = here ? isl_set_is_empty(here) : isl_bool_error;
			struct formula *s = NULL;
			if (empty == isl_bool_false) {
				struct formula *r = formula_restrict(g, isl_set_copy(part));
				struct formula *h = formula_gist(r, here);
				struct formula *t = formula_subst(h, name, value);
				s = formula_restrict(t, isl_set_copy(part));
				formula_free(r);
				formula_free(h);
				formula_free(t);
				if (s && acc) {
					struct formula *j = formula_join(acc, s);
					formula_free(acc);
					formula_free(s);
					s = acc = j;
				} else if (s) {
					acc = s;
				}
			}
			good = empty == isl_bool_true || (empty == isl_bool_false && s);
			isl_set_free(here);
			isl_set_free(part);
		}
		if (good && acc)
			return acc;
		formula_free(acc);
	}
	return NULL;
}

/* *F with the block length NAME written VALUE (on AXIS), under CONTEXT;
 * *CHANGED set where *F named it, *OK cleared where it could not be. */
static void subst_local(struct formula **f, const char *name, const struct formula *value,
			const char *axis, __isl_keep isl_set *context, bool *ok, bool *changed)
{
	if (!*f)
		return;
	int involved = formula_involves(*f, name);
	if (involved == 0)
		return;
	/* gisted by this pass's first substitution in *F: what the gist takes
	 * out of the conditions, the later ones find out already (LU's and
	 * SUMMA's formulas, gisted once per block length, took a sixth of
	 * their time) */
	bool gisted = *changed;
	*changed = true;
	struct formula *g = involved < 0 ? NULL : gisted ? formula_copy(*f) : formula_gist(*f, context);
	struct formula *s = formula_subst(g, name, value);
	if (g && !s)
		s = subst_by_axis(g, name, value, axis, context);
	formula_free(g);
	if (!s) {
		*ok = false;
		return;
	}
	formula_free(*f);
	*f = s;
}

static int add_unique(char ***list, int *n, char *text)
{
	if (!text)
		return -1;
	for (int i = 0; i < *n; i++)
		if (strcmp((*list)[i], text) == 0) {
			free(text);
			return 0;
		}
	char **p = realloc(*list, sizeof(*p) * (size_t)(*n + 1));
	if (!p) {
		free(text);
		return -1;
	}
	*list = p;
	p[(*n)++] = text;
	return 0;
}

int cost_add_assumption(struct candidate_cost *out, char *text)
{
	return add_unique(&out->assumptions, &out->nassumptions, text);
}

/* Records condition COND (formula grammar) with TEXT, how people read it; both
 * taken, and either NULL (out of memory) fails. */
int cost_add_condition(struct candidate_cost *out, char *cond, char *text)
{
	int n = out->nconditions;
	if (!text) {
		free(cond);
		return -1;
	}
	int r = add_unique(&out->conditions, &out->nconditions, cond);
	if (r < 0 || out->nconditions == n) {   /* failed, or known already */
		free(text);
		return r;
	}
	char **t = realloc(out->condition_texts, sizeof(*t) * (size_t)out->nconditions);
	if (!t) {
		/* the condition goes too: each has its text */
		free(out->conditions[--out->nconditions]);
		free(text);
		return -1;
	}
	out->condition_texts = t;
	t[n] = text;
	return 0;
}

/* X/(b*P) as a formula, from the ISL text of the extent X (b the size
 * nb of cyclic(nb) where it is one). */
static struct formula *local_value(const struct model *m, const struct local_param *lp,
				   const char *axis)
{
	char *text;
	if ((lp->block_param >= 0
		     ? asprintf(&text, "(%s)/(%s*%s)", lp->extent, m->params[lp->block_param], axis)
		     : asprintf(&text, "(%s)/(%ld*%s)", lp->extent, lp->block, axis)) < 0)
		return NULL;
	struct formula_expr *e = formula_parse_expr(text, NULL);
	free(text);
	struct formula *f = formula_from_expr(e);
	formula_expr_free(e);
	return f;
}

/* The axis of M named by the N characters at P, or -1. */
static int axis_named(const struct model *m, const char *p, size_t n)
{
	for (int a = 0; a < m->naxes; a++)
		if (strlen(m->axes[a]) == n && strncmp(p, m->axes[a], n) == 0)
			return a;
	return -1;
}

/* The divisor b*P of block length LP as text: "P", "2*P", or with the
 * axes FIXED (may be NULL) their product, "8". */
static void print_divisor(FILE *f, const struct model *m, const struct local_param *lp,
			  const long *fixed, bool exact)
{
	if (lp->block_param >= 0 && fixed)
		fprintf(f, exact ? "%s*%ld" : "(%s*%ld)", m->params[lp->block_param], fixed[lp->axis]);
	else if (lp->block_param >= 0)
		fprintf(f, exact ? "%s*%s" : "(%s*%s)", m->params[lp->block_param], m->axes[lp->axis]);
	else if (fixed)
		fprintf(f, "%ld", lp->block * fixed[lp->axis]);
	else if (exact || lp->block != 1)
		fprintf(f, exact ? "%ld*%s" : "(%ld*%s)", lp->block, m->axes[lp->axis]);
	else
		fputs(m->axes[lp->axis], f);
}

/* TEXT with every block-length name written as X/P: for people, or (EXACT) as
 * ((X)/(b*P)) in the formula grammar.  With the axes FIXED (may be NULL),
 * each axis is written as its size. */
static char *local_display(const struct symbolic_info *info, const struct model *m,
			   const char *text, bool exact, const long *fixed)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	FILE *f = t.f;
	for (const char *p = text; *p;) {
		/* whole identifiers only: a name may be another's prefix */
		bool start = (isalpha((unsigned char)*p) || *p == '_') &&
			     (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
		size_t n = 0;
		while (start && (isalnum((unsigned char)p[n]) || p[n] == '_'))
			n++;
		int hit = -1;
		for (int l = 0; l < info->nlocals && hit < 0 && n; l++)
			if (info->locals[l].digit < 0 && strlen(info->locals[l].name) == n &&
			    strncmp(p, info->locals[l].name, n) == 0)
				hit = l;
		/* an axis, not a function's name (an axis may be called floor) */
		size_t next = n;
		while (p[next] == ' ')
			next++;
		int axis = fixed && n && hit < 0 && p[next] != '(' ? axis_named(m, p, n) : -1;
		if (axis >= 0) {
			fprintf(f, "%ld", fixed[axis]);
			p += n;
			continue;
		}
		if (hit < 0) {
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fputc(*p++, f);
			}
			continue;
		}
		const struct local_param *lp = &info->locals[hit];
		char *extent = fixed ? local_display(info, m, lp->extent, exact, fixed) : NULL;
		const char *x = extent ? extent : lp->extent;
		/* (n - 1)/P, never n - 1/P */
		fprintf(f, exact ? "((%s)/(" : strpbrk(x, " +-*/") ? "(%s)/" : "%s/", x);
		print_divisor(f, m, lp, fixed, exact);
		if (exact)
			fputs("))", f);
		free(extent);
		p += n;
	}
	return text_close(&t);
}

/* OUT keeps the parameter NAME of its own, whose value at a point is VALUE
 * (taken; in the formula grammar). */
static int keep_local(struct candidate_cost *out, const char *name, char *value)
{
	char **names = realloc(out->local_names, sizeof(char *) * (size_t)(out->nlocals + 1));
	if (names)
		out->local_names = names;
	char **values = realloc(out->local_values, sizeof(char *) * (size_t)(out->nlocals + 1));
	if (values)
		out->local_values = values;
	char *kept = names && values && value ? strdup(name) : NULL;
	if (!kept) {
		/* out of memory (VALUE too): no name without its definition */
		free(value);
		return -1;
	}
	names[out->nlocals] = kept;
	values[out->nlocals++] = value;
	return 0;
}

/* TEXT (kept) with each axis written as its size on a fixed grid
 * (job.fixed), as a new string. */
static char *with_axes(const struct job *j, const char *text)
{
	struct symbolic_info none = {0};
	return j->fixed ? local_display(&none, j->m, text, false, j->fixed) : strdup(text);
}

/* Whether A - B is a number, into *C. */
static bool aff_constant_difference(const struct model_aff *a, const struct model_aff *b,
				    long long *c)
{
	const struct model_aff *both[2] = {a, b};
	for (int x = 0; x < 2; x++)
		for (int t = 0; t < both[x]->nterms; t++) {
			const struct model_term *u = &both[x]->terms[t];
			long long sum = 0;
			for (int y = 0; y < 2; y++)
				for (int v = 0; v < both[y]->nterms; v++) {
					const struct model_term *w = &both[y]->terms[v];
					if (w->kind == u->kind && w->index == u->index && w->by == u->by &&
					    __builtin_add_overflow(sum, y ? -w->coef : w->coef, &sum))
						return false;
				}
			if (sum != 0)
				return false;
		}
	return !__builtin_sub_overflow(a->constant, b->constant, c);
}

static long long gcd_ll(long long a, long long b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The number block length LP's divisor b*P is a multiple of: its constant
 * block b, or 1 for cyclic(nb) (nb*P divides X where P does, and nb = 1
 * may be all the assumptions allow): what the checks below can say of it. */
static long known_block(const struct local_param *lp)
{
	return lp->block_param >= 0 ? 1 : lp->block;
}

/* The symbolic grid's block lengths X/(b*P) assume that b*P divides each X,
 * and the specification may say so of others (n % P == 0).  Two extents of
 * one axis whose difference is a number c, divided by c' = gcd(b, b')*P
 * both, make c' divide c: the formulas would hold on a few grids only (ghost
 * cells of n + 2 with n % P == 0: P = 1, 2), or on none.  The reason to
 * refuse them (malloc'd), or NULL; NULL with *OOM set when that reason
 * could not be written (out of memory: they are refused all the same). */
static char *divisors_apart(const struct model *m, const struct symbolic_info *info, bool *oom)
{
	enum { MOST = 64, LISTED = 64 };
	for (int a = 0; a < m->naxes; a++) {
		const struct model_aff *x[MOST];
		const char *text[MOST];
		long long mult[MOST];
		int n = 0;
		for (int l = 0; l < info->nlocals && n < MOST; l++)
			if (info->locals[l].digit < 0 && info->locals[l].axis == a) {
				text[n] = info->locals[l].extent;
				mult[n] = known_block(&info->locals[l]);
				x[n++] = &info->locals[l].extent_aff;
			}
		int from_spec = n;
		for (int i = 0; i < m->nfacts && n < MOST; i++) {
			const struct model_aff *d = &m->facts[i].divisor;
			/* c*P divides f */
			if (d->constant == 0 && d->nterms == 1 && d->terms[0].kind == MODEL_AXIS &&
			    d->terms[0].index == a && d->terms[0].by == 0 && d->terms[0].coef >= 1) {
				text[n] = NULL;
				mult[n] = d->terms[0].coef;
				x[n++] = &m->facts[i].f;
			}
		}
		/* P divides G (0: no such number found); NONE: no P at all */
		long long g = 0;
		bool none = false, named[MOST] = {false};
		/* pairs with a block length (the specification's facts among
		 * themselves are the specification's business) */
		for (int i = 0; i < from_spec; i++)
			for (int k = i + 1; k < n; k++) {
				long long c;
				if (!aff_constant_difference(x[i], x[k], &c) || c == 0)
					continue;
				long long b = gcd_ll(mult[i], mult[k]);
				named[i] = named[k] = true;
				if (c % b != 0)
					none = true;
				else
					g = gcd_ll(g, c / b);
			}
		if (g == 0 && !none)
			continue;
		char *list = NULL, *values = NULL;
		size_t len = 0, vlen = 0;
		FILE *f = open_memstream(&list, &len);
		int shown = 0, last = -1;
		for (int i = 0; f && i < from_spec; i++)
			if (named[i])
				last = i;
		for (int i = 0; f && i < from_spec; i++) {
			if (!named[i])
				continue;
			fprintf(f, "%s%s", shown == 0 ? "" : i == last ? " and " : ", ", text[i]);
			shown++;
		}
		bool spec = false;
		for (int i = from_spec; i < n; i++)
			spec |= named[i];
		/* the grids that meet them: the divisors of G, listed when few */
		FILE *v = f ? open_memstream(&values, &vlen) : NULL;
		const char *axis = m->axes[a];
		if (v && (none || g == 1))
			fprintf(v, "%s", none ? "on no grid" : "only where ");
		if (v && !none && g == 1)
			fprintf(v, "%s = 1", axis);
		else if (v && !none && g <= LISTED) {
			int nd = 0, k = 0;
			for (long long d = 1; d <= g; d++)
				nd += g % d == 0;
			fprintf(v, "only where %s divides %lld (%s = ", axis, g, axis);
			for (long long d = 1; d <= g; d++)
				if (g % d == 0) {
					k++;
					fprintf(v, "%s%lld", k == 1 ? "" : k == nd ? " or " : ", ", d);
				}
			fprintf(v, ")");
		} else if (v && !none)
			fprintf(v, "only where %s divides %lld", axis, g);
		if (v)
			fclose(v);
		if (f)
			fclose(f);
		char *why = NULL;
		if (!list || !values ||
		    asprintf(&why, "its formulas would rest on %s's blocks dividing %s evenly, which %s "
				   "%s: --grid or -D count it exactly",
			     axis, list,
			     spec ? shown > 1 ? "with the specification's own divisibility assumptions hold"
					      : "with the specification's own divisibility assumptions holds"
				  : "hold together",
			     values) < 0)
			why = NULL;
		free(list);
		free(values);
		if (!why)
			why = strdup("its formulas would rest on divisibilities that hold on a few "
				     "grids only: --grid or -D count it exactly");
		*oom = !why;
		return why;
	}
	return NULL;
}

/* Writes the block lengths back as X/P in every formula of OUT, and records the
 * assumptions they rest on; the digits of expressions stay, with their
 * definitions.  CHANGED[k] (one per formula_slot) is set where formula k
 * named one, written back or not. */
static void substitute_locals(struct job *j, const struct symbolic_info *info,
			      __isl_keep isl_set *context, struct candidate_cost *out,
			      bool *changed)
{
	/* an assumption, a condition or a definition that could not be kept
	 * (out of memory) fails the job: no formula without what it rests on */
	bool kept = true;
	for (int l = 0; l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		const char *axis = j->m->axes[lp->axis];
		if (lp->digit >= 0) {
			/* a digit of an expression of the sizes: kept, defined */
			kept &= keep_local(out, lp->name, with_axes(j, lp->value)) == 0;
			kept &= cost_add_assumption(out, with_axes(j, lp->shown)) == 0;
			continue;
		}
		struct formula *v = local_value(j->m, lp, axis);
		bool ok = v != NULL;
		for (int k = 0; v && k < nformulas(out); k++)
			subst_local(formula_slot(out, k), lp->name, v, axis, context, &ok,
				    &changed[k]);
		formula_free(v);
		if (ok && lp->block_param < 0 && lp->block == 1 && strcmp(lp->extent, axis) == 0)
			continue;   /* P divides P: no assumption, nothing kept */
		/* the divisor b*P, as people read it and in the formula grammar:
		 * "2*P" and "2*P", "P" and "1*P", or on a fixed grid "8" */
		char *d = NULL, *dx = NULL;
		const char *extent = lp->extent;
		char *fixed_extent = j->fixed ? local_display(info, j->m, lp->extent, false, j->fixed)
					      : NULL;
		int r;
		const char *nb = lp->block_param >= 0 ? j->m->params[lp->block_param] : NULL;
		if (j->fixed) {
			extent = fixed_extent ? fixed_extent : extent;
			r = nb ? asprintf(&d, "%s*%ld", nb, j->fixed[lp->axis])
			       : asprintf(&d, "%ld", lp->block * j->fixed[lp->axis]);
			dx = r < 0 ? NULL : strdup(d);
		} else if (nb) {
			r = asprintf(&d, "%s*%s", nb, axis);
			dx = r < 0 ? NULL : strdup(d);
		} else {
			r = lp->block == 1 ? asprintf(&d, "%s", axis)
					   : asprintf(&d, "%ld*%s", lp->block, axis);
			if (r >= 0 && asprintf(&dx, "%ld*%s", lp->block, axis) < 0)
				dx = NULL;
		}
		if (r < 0)
			d = NULL;
		if (!d || !dx || (j->fixed && !fixed_extent))
			cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
		char *text = NULL;
		/* 1 divides n: nothing to assume (a fixed grid of one row) */
		bool trivial = j->fixed && !nb && lp->block * j->fixed[lp->axis] == 1;
		r = r < 0 || !dx ? -1 : trivial ? 0 : asprintf(&text, "%s divides %s", d, extent);
		if (!trivial)
			kept &= cost_add_assumption(out, r < 0 ? NULL : strdup(text)) == 0;
		char *cond = NULL;
		int rc = r < 0 || trivial ? r : asprintf(&cond, "(%s) %% (%s) == 0", extent, dx);
		if (!trivial)
			kept &= cost_add_condition(out, rc < 0 ? NULL : cond, r < 0 ? NULL : text) == 0;
		else
			free(text);
		if (!ok) {
			char *v = NULL;
			if (!dx || asprintf(&v, "(%s)/(%s)", extent, dx) < 0)
				v = NULL;
			kept &= keep_local(out, lp->name, v) == 0;
			char *s;
			const char *fmt = strpbrk(extent, " +-*/") ? "%s = (%s)/" : "%s = %s/";
			char *head = NULL;
			r = d ? asprintf(&head, fmt, lp->name, extent) : -1;
			r = r < 0 ? r
			    : strchr(d, '*') ? asprintf(&s, "%s(%s)", head, d)
					     : asprintf(&s, "%s%s", head, d);
			free(head);
			kept &= r >= 0 && cost_add_assumption(out, s) == 0;
		}
		free(d);
		free(dx);
		free(fixed_extent);
	}
	for (int i = 0; i < info->nassumptions; i++) {
		kept &= cost_add_assumption(out, local_display(info, j->m, info->assumptions[i], false,
							  j->fixed)) == 0;
		kept &= cost_add_condition(out, local_display(info, j->m, info->assumptions[i], true,
							 j->fixed),
				      local_display(info, j->m, info->assumptions[i], false,
						    j->fixed)) == 0;
	}
	if (!kept)
		cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
}

/* The number of iterations of each doubling loop, lg_B = log2(B), kept in
 * OUT's formulas with its definition and the assumption that B is a power
 * of two (loops.c, geometric_sum). */
static void keep_doubling(struct job *j, struct candidate_cost *out)
{
	for (int k = 0; k < j->ngeometric; k++) {
		char *b = with_axes(j, j->geometric_bound[k]);
		char *value = NULL, *shown = NULL, *pow2 = NULL, *cond = NULL;
		if (!b) {
			cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
			return;
		}
		if (asprintf(&value, "log2(%s)", b) < 0)
			value = NULL;
		if (asprintf(&shown, "%s = log2(%s)", j->geometric_name[k], b) < 0)
			shown = NULL;
		if (asprintf(&pow2, "%s is a power of two", b) < 0)
			pow2 = NULL;
		if (asprintf(&cond, "2^log2(%s) == %s", b, b) < 0)
			cond = NULL;
		bool kept = cost_add_assumption(out, pow2 ? strdup(pow2) : NULL) == 0;
		kept &= cost_add_condition(out, cond, pow2) == 0;
		kept &= keep_local(out, j->geometric_name[k], value) == 0;
		kept &= cost_add_assumption(out, shown) == 0;
		free(b);
		if (!kept) {
			cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
			return;
		}
	}
}

/* Each of OUT's formulas with the pieces of a doubling loop's bound at 1
 * or 2 joined to the general one where it gives their values there
 * (formula_merge_levels); CHANGED[k]: formula k has fewer pieces.  Returns
 * how many have. */
static int merge_levels(struct job *j, struct candidate_cost *out, bool *changed)
{
	int n = 0;
	for (int k = 0; k < nformulas(out) && !failed(&j->fail); k++) {
		struct formula **f = formula_slot(out, k);
		changed[k] = false;
		for (int g = 0; *f && g < j->ngeometric; g++) {
			struct formula *m = formula_merge_levels(*f, j->geometric_bound[g],
								 j->geometric_name[g]);
			if (!m) {
				cost_job_fail(j, COST_FAILED, NULL, "joining the levels' pieces");
				return n;
			}
			changed[k] |= formula_n_pieces(m) < formula_n_pieces(*f);
			formula_free(*f);
			*f = m;
		}
		n += changed[k];
	}
	return n;
}

struct facts {
	isl_set *out;         /* the context being built, on [params, axes, locals] */
	int lpos;             /* the block length's parameter position */
	long block;
	int xpos, ppos;       /* the extent's and the axis's parameter positions */
};

/* One assumption a*X + c*P + k >= 0 (nothing else) about a block length L with
 * X = b*P*L, P >= 1: then a*b*L + c >= -k/P, so a*b*L + c + k >= 0 when k >= 0
 * and a*b*L + c >= 1 when k < 0.  Equalities with k = 0 carry over exactly. */
static isl_stat local_fact(__isl_take isl_constraint *c, void *user)
{
	struct facts *fx = user;
	long a = 0, cp = 0, k = 0;
	int other = 0;
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	for (int i = 0; i < np; i++) {
		long long x = 0;
		if (!val_to_ll(isl_constraint_get_coefficient_val(c, isl_dim_param, i), &x))
			other = 1; /* beyond 64 bits: no fact read from it */
		if (i == fx->xpos)
			a = x;
		else if (i == fx->ppos)
			cp = x;
		else if (x)
			other = 1;
	}
	long long kk = 0;
	if (!val_to_ll(isl_constraint_get_constant_val(c), &kk))
		other = 1;
	k = (long)kk;
	int eq = isl_constraint_is_equality(c) == isl_bool_true;
	int divs = isl_constraint_dim(c, isl_dim_div) != 0;
	isl_constraint_free(c);
	if (other || divs || a == 0 || (eq && k != 0))
		return isl_stat_ok;
	/* eq: a*b*L + cp = 0; else a*b*L + cp - (k >= 0 ? -k : 1) >= 0 */
	isl_ctx *ctx = isl_set_get_ctx(fx->out);
	isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(fx->out));
	isl_constraint *f = eq ? isl_constraint_alloc_equality(ls) : isl_constraint_alloc_inequality(ls);
	/* in ISL's exact integers: a*b or cp + k may pass 64 bits */
	f = isl_constraint_set_coefficient_val(f, isl_dim_param, fx->lpos,
					       isl_val_mul(isl_val_int_from_si(ctx, a),
							   isl_val_int_from_si(ctx, fx->block)));
	isl_val *rhs = isl_val_int_from_si(ctx, cp);
	if (!eq)
		rhs = k >= 0 ? isl_val_add(rhs, isl_val_int_from_si(ctx, k))
			     : isl_val_sub(rhs, isl_val_one(ctx));
	f = isl_constraint_set_constant_val(f, rhs);
	fx->out = isl_set_add_constraint(fx->out, f);
	return isl_stat_ok;
}

static isl_stat local_facts_bset(__isl_take isl_basic_set *bset, void *user)
{
	isl_stat st = isl_basic_set_foreach_constraint(bset, &local_fact, user);
	isl_basic_set_free(bset);
	return st;
}

/* The parameter position of X when it is one parameter or axis; -1 if not. */
static int single_param(const struct model *m, const struct model_aff *x)
{
	if (x->constant != 0 || x->nterms != 1 || x->terms[0].coef != 1 ||
	    x->terms[0].kind == MODEL_VAR)
		return -1;
	return x->terms[0].kind == MODEL_PARAM ? x->terms[0].index : m->nparams + x->terms[0].index;
}

/* What the specification's assumptions say of each block length, added to
 * SET (on [params, axes, locals]). */
static __isl_give isl_set *add_local_facts(__isl_take isl_set *set, isl_ctx *ctx,
					   const struct model *m, const struct symbolic_info *info)
{
	isl_set *as = model_assumption_set(ctx, m);
	/* Only a conjunction says something of every point. */
	if (as && isl_set_n_basic_set(as) == 1) {
		for (int l = 0; l < info->nlocals && set; l++) {
			const struct local_param *lp = &info->locals[l];
			if (lp->digit >= 0 || lp->block_param >= 0)
				continue; /* a digit: its range is all there is to say; a
					   * block nb*L: no affine fact */
			struct facts fx = {set, m->nparams + m->naxes + l, lp->block,
					   single_param(m, &lp->extent_aff), m->nparams + lp->axis};
			if (fx.xpos >= 0)
				isl_set_foreach_basic_set(as, &local_facts_bset, &fx);
			set = fx.out;
		}
	}
	isl_set_free(as);
	return set;
}

/* SET (taken, on SPACE, model_param_space with the axes) with the
 * specification's facts whose divisor is a number on the grid SIZES: n % P
 * == 0 is 4 divides n on a grid of 4, which a set can hold. */
static __isl_give isl_set *grid_facts(__isl_take isl_set *set, __isl_keep isl_space *space,
				     const struct model *m, const long sizes[3])
{
	for (int i = 0; i < m->nfacts && set; i++) {
		const struct model_aff *d = &m->facts[i].divisor;
		long long v = d->constant;
		bool number = true;
		for (int t = 0; t < d->nterms && number; t++) {
			long long x;
			number = d->terms[t].kind == MODEL_AXIS && d->terms[t].by == 0 &&
				 !__builtin_mul_overflow(d->terms[t].coef,
							 (long long)sizes[d->terms[t].index], &x) &&
				 !__builtin_add_overflow(v, x, &v);
		}
		if (!number || v <= 0)
			continue;
		struct model_cons c = {.kind = MODEL_DIVIDES, .f = m->facts[i].f, .divisor = v};
		set = isl_set_intersect(set, model_cons_param_set(space, m, &c));
	}
	return set;
}

/* What the formulas may take for granted: the specification's assumptions, axis
 * sizes and extents at least 1, block lengths at least 1; on a concrete grid the
 * axes are fixed and gone. */
static __isl_give isl_set *cost_context(isl_ctx *ctx, const struct model *m,
					const struct cost_request *req,
					const struct symbolic_info *info)
{
	int np = m->nparams + m->naxes;
	isl_space *base = model_param_space(ctx, m, true);
	isl_space *space = isl_space_add_dims(isl_space_copy(base), isl_dim_param,
					      (unsigned)info->nlocals);
	for (int l = 0; l < info->nlocals && space; l++)
		space = isl_space_set_dim_id(space, isl_dim_param, (unsigned)(np + l),
					     isl_id_alloc(ctx, info->locals[l].name, NULL));
	isl_set *set = isl_set_align_params(model_assumption_set(ctx, m), isl_space_copy(space));
	for (int a = 0; a < m->naxes && set; a++) {
		if (req->symbolic)
			set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)(m->nparams + a), 1);
		else
			set = isl_set_fix_si(set, isl_dim_param, (unsigned)(m->nparams + a),
					     (int)req->sizes[a]);
		/* the symbolic grid's formulas for a concrete grid: its axes of
		 * one size are one (symbolic_info.fixed) */
		for (int b = 0; req->symbolic && info->fixed && b < a && set; b++)
			if (info->fixed[a] == info->fixed[b])
				set = isl_set_equate(set, isl_dim_param, (unsigned)(m->nparams + a),
						     isl_dim_param, (unsigned)(m->nparams + b));
	}
	for (int x = 0; x < m->narrays && set; x++)
		for (int d = 0; d < m->arrays[x].ndims && set; d++) {
			struct model_cons c = model_extent_positive(m, x, d);
			set = isl_set_intersect_params(set, model_cons_param_set(base, m, &c));
		}
	if (!req->symbolic)
		set = grid_facts(set, base, m, req->sizes);
	set = symbolic_local_ranges(set, m, info);
	set = add_local_facts(set, ctx, m, info);
	/* the symbolic grid's own assumptions (2 <= n__P: an offset within a
	 * block): the formulas are claimed only where they hold, so no piece
	 * outside them is printed */
	for (int i = 0; i < info->nassumptions && set; i++) {
		int pos, least;
		if (symbolic_assumption_bound(info->assumptions[i], set, &pos, &least))
			set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)pos, least);
	}
	isl_space_free(base);
	isl_space_free(space);
	if (!req->symbolic && set)
		set = isl_set_project_out(set, isl_dim_param, (unsigned)m->nparams,
					  (unsigned)m->naxes);
	return set;
}

/* SET (taken, on [sizes, axes, the locals of INFO]) with nothing said of
 * the digits of a loop's variable: the totals hold for every value of it
 * (a range of k_P would write k_P == 0 into a piece where P == 1). */
static __isl_give isl_set *without_loop_digits(const struct model *m,
					       const struct symbolic_info *info,
					       __isl_take isl_set *set)
{
	for (int l = 0; l < info->nlocals && set; l++) {
		const struct local_param *lp = &info->locals[l];
		int at = symbolic_loop_digit(m, -1, lp)
			 ? isl_set_find_dim_by_name(set, isl_dim_param, lp->name) : -1;
		if (at >= 0)
			set = isl_set_project_out(set, isl_dim_param, (unsigned)at, 1);
	}
	return set;
}

bool cost_aff_value(const struct model_aff *a, const long long *vals, const long *sizes,
		    long long *out)
{
	long long v = a->constant;
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		long long x = t->kind == MODEL_PARAM ? vals[t->index]
			    : t->kind == MODEL_AXIS  ? (long long)sizes[t->index] : 0, p;
		if (t->kind == MODEL_VAR || __builtin_mul_overflow(x, t->coef, &p) ||
		    __builtin_add_overflow(v, p, &v))
			return false;
	}
	*out = v;
	return true;
}

/* The value of A at the values VALS of the sizes (0 at KPOS, whose
 * coefficient is *KCOEF) and the axes' SIZES, less its term in k; false on
 * an overflow, a variable or a quotient term. */
static bool aff_at_values(const struct model_aff *a, const long long *vals, const long *sizes,
			  int kpos, long long *kcoef, long long *out)
{
	*kcoef = 0;
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		if (t->by != 0)
			return false;
		if (t->kind == MODEL_PARAM && t->index == kpos)
			*kcoef += t->coef;
	}
	return vals[kpos] == 0 && cost_aff_value(a, vals, sizes, out);
}

/* The points of SPACE (kept: [sizes, axes, the locals of INFO]) of the
 * request's values, the loop variable at KPOS left free within lo..hi: the
 * sizes and axes fixed, each block length its extent's share (false where
 * it does not divide), each group of digits the digits of its expression
 * (most significant first, each below its size).  NULL with *BAD where the
 * values give the symbolic grid's form no point. */
static __isl_give isl_set *value_points(isl_ctx *ctx, const struct model *m,
					const struct symbolic_info *info,
					const struct cost_request *req, int kpos, long long lo,
					long long hi, __isl_keep isl_space *space, bool *bad)
{
	int np = m->nparams, na = m->naxes;
	long long *vals = calloc((size_t)np + 1, sizeof(*vals));
	long long *lval = calloc((size_t)info->nlocals + 1, sizeof(*lval));
	isl_set *set = vals && lval ? isl_set_universe(isl_space_copy(space)) : NULL;
	*bad = false;
	for (int p = 0; set && p < np; p++) {
		vals[p] = p < model_nsizes(m) ? req->values[p] : 0;
		if (p != kpos)
			set = isl_set_fix_val(set, isl_dim_param, (unsigned)p, val_from_ll(ctx, vals[p]));
	}
	if (set) {
		set = isl_set_lower_bound_val(set, isl_dim_param, (unsigned)kpos, val_from_ll(ctx, lo));
		set = isl_set_upper_bound_val(set, isl_dim_param, (unsigned)kpos, val_from_ll(ctx, hi));
	}
	for (int a = 0; set && a < na; a++)
		set = isl_set_fix_si(set, isl_dim_param, (unsigned)(np + a), (int)req->sizes[a]);
	/* the block lengths first: the digits' sizes may be one */
	for (int l = 0; set && l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		if (lp->digit >= 0)
			continue;
		long long ext, kc, b, d;
		if (!symbolic_block_value(lp, vals, &b) ||
		    __builtin_mul_overflow((long long)req->sizes[lp->axis], b, &d) ||
		    !aff_at_values(&lp->extent_aff, vals, req->sizes, kpos, &kc, &ext) || kc != 0 ||
		    d <= 0 || ext % d != 0 || ext / d < 1) {
			*bad = true;
			set = isl_set_free(set);
			break;
		}
		lval[l] = ext / d;
		set = isl_set_fix_val(set, isl_dim_param, (unsigned)(np + na + l),
				      val_from_ll(ctx, lval[l]));
	}
	for (int l = 0; set && l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		if (lp->digit != 0)
			continue;
		/* the group l .. l + nd - 1: E = sum of d_i * W_i */
		int nd = 1;
		while (l + nd < info->nlocals && info->locals[l + nd].digit == nd)
			nd++;
		long long e, kc;
		if (!aff_at_values(&lp->of, vals, req->sizes, kpos, &kc, &e)) {
			*bad = true;
			set = isl_set_free(set);
			break;
		}
		isl_local_space *ls = isl_local_space_from_space(isl_space_copy(space));
		isl_constraint *c = isl_constraint_alloc_equality(isl_local_space_copy(ls));
		c = isl_constraint_set_constant_val(c, val_from_ll(ctx, e));
		c = isl_constraint_set_coefficient_val(c, isl_dim_param, kpos, val_from_ll(ctx, kc));
		long long w = 1;
		for (int d = nd - 1; d >= 0 && c; d--) {
			const struct local_param *dp = &info->locals[l + d];
			long long size = dp->size_axis >= 0 ? (long long)req->sizes[dp->size_axis]
					 : dp->size_local >= 0 ? lval[dp->size_local]
					 : dp->size_param >= 0 ? vals[dp->size_param]
							       : dp->size_const;
			c = isl_constraint_set_coefficient_val(c, isl_dim_param, np + na + l + d,
							       val_from_ll(ctx, -w));
			set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)(np + na + l + d), 0);
			set = isl_set_upper_bound_val(set, isl_dim_param, (unsigned)(np + na + l + d),
						      val_from_ll(ctx, size - 1));
			if (size < 1 || __builtin_mul_overflow(w, size, &w)) {
				*bad = true;
				set = isl_set_free(set);
				break;
			}
		}
		set = c && set ? isl_set_add_constraint(set, c) : (isl_constraint_free(c), isl_set_free(set));
		isl_local_space_free(ls);
	}
	free(vals);
	free(lval);
	return set;
}

/* F (taken, on [sizes, axes, locals]) at the points POINTS (kept, the same
 * space), a function of the one parameter at KPOS: the sum over the points
 * of each k.  Exact because each k has one point: value_points fixes every
 * size, axis and block length, and each group of digits is the mixed-radix
 * decomposition of its expression, which is unique. */
static __isl_give isl_pw_qpolynomial *at_points(struct job *j, __isl_take isl_pw_qpolynomial *f,
						__isl_keep isl_set *points, int kpos)
{
	isl_size np = isl_set_dim(points, isl_dim_param);
	/* by position below: F's parameters the points' own, in their order */
	isl_space *fs = f ? isl_pw_qpolynomial_get_domain_space(f) : NULL;
	isl_space *ps = isl_set_get_space(points);
	isl_bool same = fs && ps ? isl_space_has_equal_params(fs, ps) : isl_bool_error;
	isl_space_free(fs);
	isl_space_free(ps);
	if (!f || np < 0 || same != isl_bool_true) {
		isl_pw_qpolynomial_free(f);
		cost_job_fail(j, COST_FAILED, NULL, "a loop's values");
		return NULL;
	}
	unsigned after = (unsigned)(np - kpos - 1);
	f = isl_pw_qpolynomial_move_dims(f, isl_dim_in, 0, isl_dim_param, 0, (unsigned)kpos);
	f = isl_pw_qpolynomial_move_dims(f, isl_dim_in, (unsigned)kpos, isl_dim_param, 1, after);
	isl_set *at = isl_set_from_params(isl_set_copy(points));
	at = isl_set_move_dims(at, isl_dim_set, 0, isl_dim_param, 0, (unsigned)kpos);
	at = isl_set_move_dims(at, isl_dim_set, (unsigned)kpos, isl_dim_param, 1, after);
	isl_pw_qpolynomial *r = cost_sum_over(j, at, f, "a loop's values");
	isl_set_free(at);
	isl_pw_qpolynomial_free(f);
	return r;
}

int cost_loop_maxima(struct job *j, int cand, int s, const struct cost_request *req,
		     long long lo, long long hi, struct step_maxima *sm)
{
	const struct model *m = j->m;
	isl_ctx *ctx = j->engine->ctx;
	memset(sm, 0, sizeof(*sm));
	struct step_relations r;
	struct symbolic_info info = {0};
	char *reason = NULL;
	int st = relations_symbolic(ctx, m, cand, s, &r, &info, &reason);
	free(reason);
	if (st != 0) {
		symbolic_info_clear(&info);
		return -1;
	}
	int kpos = m->loops[m->steps[s].loop].param;
	struct cost_request sreq = *req;
	sreq.symbolic = true;
	isl_set *context = cost_context(ctx, m, &sreq, &info);
	if (context)
		context = isl_set_intersect(context, isl_set_align_params(
			model_loops_set(ctx, m, s, NULL), isl_set_get_space(context)));
	bool bad = false;
	isl_space *space = context ? isl_set_get_space(context) : NULL;
	isl_set *points = space ? value_points(ctx, m, &info, req, kpos, lo, hi, space, &bad) : NULL;
	isl_space_free(space);
	/* the form holds at every iteration's values: each in the context, and
	 * each iteration with its point */
	isl_bool in = points ? isl_set_is_subset(points, context) : isl_bool_error;
	isl_size np = points ? isl_set_dim(points, isl_dim_param) : -1;
	isl_set *ks = in == isl_bool_true && np > kpos ? isl_set_copy(points) : NULL;
	ks = isl_set_project_out(ks, isl_dim_param, (unsigned)kpos + 1, (unsigned)(np - kpos - 1));
	ks = isl_set_project_out(ks, isl_dim_param, 0, (unsigned)kpos);
	isl_set *all = ks ? isl_set_universe(isl_set_get_space(ks)) : NULL;
	if (all) {
		all = isl_set_lower_bound_val(all, isl_dim_param, 0, val_from_ll(ctx, lo));
		all = isl_set_upper_bound_val(all, isl_dim_param, 0, val_from_ll(ctx, hi));
	}
	isl_bool covered = all ? isl_set_is_subset(all, ks) : isl_bool_error;
	isl_set_free(all);
	isl_set_free(ks);
	st = covered == isl_bool_true ? 0 : -1;
	isl_set_free(context);
	if (st == 0 && step_relations_restrict(&r, points) < 0)
		st = -1;
	struct step_maxima at = {0};
	if (st == 0)
		st = cost_count_maxima(j, &r, req, &at);
	step_relations_clear(&r);
	symbolic_info_clear(&info);
	/* each function at the points: a function of k */
	for (int t = 0; st == 0 && t < MAXIMA_N; t++) {
		if (!at.f[t])
			continue;
		sm->f[t] = calloc((size_t)at.n[t], sizeof(*sm->f[t]));
		sm->n[t] = at.n[t];
		if (!sm->f[t]) {
			cost_isl_op_failed(j, "a loop's values");
			st = -1;
		}
		for (long q = 0; st == 0 && q < at.n[t]; q++)
			if (!(sm->f[t][q] = at_points(j, isl_pw_qpolynomial_copy(at.f[t][q]), points, kpos)))
				st = -1;
	}
	if (st == 0 && !(sm->ncom = at_points(j, isl_pw_qpolynomial_copy(at.ncom), points, kpos)))
		st = -1;
	cost_step_maxima_clear(&at);
	isl_set_free(points);
	if (st < 0) {
		cost_step_maxima_clear(sm);
		if (!failed(&j->fail))
			isl_ctx_reset_error(ctx);
	}
	return st;
}

/* Whether the assumptions of INFO that bound a block length or an axis from
 * below ("3 <= n__P", "1 < M": an offset that must fit in a digit, written by
 * symbolic.c as "C <= NAME" or "C < NAME") can hold together with CONTEXT
 * (kept): false when no sizes meet them all, and the formulas would rest on
 * nothing.  The first one that cannot is *WHICH.  Unparsed ones are skipped
 * (they can only make the test answer true). */
static isl_bool assumptions_met(__isl_keep isl_set *context, const struct symbolic_info *info,
				const char **which)
{
	isl_set *set = isl_set_copy(context);
	isl_bool met = isl_bool_true;
	for (int i = 0; i < info->nassumptions && set && met == isl_bool_true; i++) {
		int pos, least;
		if (!symbolic_assumption_bound(info->assumptions[i], set, &pos, &least))
			continue;
		set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)pos, least);
		isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
		if (empty == isl_bool_true) {
			*which = info->assumptions[i];
			met = isl_bool_false;
		} else if (empty < 0) {
			met = isl_bool_error;
		}
	}
	if (!set)
		met = isl_bool_error;
	isl_set_free(set);
	return met;
}

/* *F on CONTEXT only, simplified there: conditions that always hold there go,
 * and pieces with the same value merge.  When merging runs out of the
 * operation budget (81 pieces of max() values, each pair a proof), only
 * pieces written the same merge (formula_merge_same): the same exact values,
 * written longer. */
void cost_tidy(struct job *j, struct formula **f, __isl_keep isl_set *context)
{
	/* a failed job's formulas are dropped: nothing to tidy */
	if (!*f || failed(&j->fail) || cost_out_of_time(j))
		return;
	/* Values are claimed only under the assumptions: undefined outside them. */
	budget(j);
	struct formula *on = formula_on(*f, context);
	struct formula *h = formula_coalesce_apart(on, context, j->locals, j->nlocals);
	unbudget(j);
	char *why = h ? NULL : budget_reason(j);
	if (!h && on && why && !cost_out_of_time(j)) {
		budget(j);
		h = formula_merge_same(on, context);
		unbudget(j);
		if (h) {
			free(why);
			why = NULL;
		} else {
			free(why);
			why = budget_reason(j);
		}
	}
	formula_free(on);
	/* floor(n__P/2) as (n__P - 1)/2 where a piece has n__P % 2 == 1: after
	 * the merging, which sees more in a floor's one form than in the
	 * residues' (T*floor((n + 6)/8) is one piece, not one per residue) */
	if (h) {
		budget(j);
		struct formula *folded = formula_fold_residues(h);
		unbudget(j);
		formula_free(h);
		h = folded;
		if (!h && !why)
			why = budget_reason(j);
	}
	if (!h) {
		cost_job_fail(j, why ? COST_REFUSED : COST_FAILED, why, "simplifying a formula");
		return;
	}
	formula_free(*f);
	*f = h;
}


/* tidy for an --explain quantity: a failure is recorded in *WHY and drops the
 * quantity, not the candidate. */
__isl_give isl_set *cost_sizes_context(struct job *j)
{
	struct symbolic_info none = {0};
	return cost_context(j->engine->ctx, j->m, j->req, &none);
}

static void tidy_explain(struct job *j, struct formula **f, char **why, __isl_keep isl_set *context)
{
	if (failed(&j->fail))
		return;
	struct job sub = cost_explain_job(j);
	cost_tidy(&sub, f, context);
	if (failed(&sub.fail) && !*why)
		explain_done(&sub, f, why);
	else
		fail_clear(&sub.fail);
}

/* The step's cost (computed first when it is not) added to *TOTAL. */
static void finish_step(struct job *j, const struct model *m, int s, struct step_cost *sc,
			struct formula **total)
{
	if (failed(&j->fail))
		return;
	if (!sc->cost)
		sc->cost = cost_step_cost_formula(j->req, sc);
	struct formula *t = formula_add(*total, sc->cost);
	formula_free(*total);
	*total = t;
	if (!sc->h || !sc->cost || !*total)
		cost_isl_op_failed(j, m->steps[s].name);
}

/* A distribution that a predicate of candidate CAND's program names and that
 * it lays out no array with (so the extent it splits is unknown), or -1. */
static int predicate_without_extent(const struct model *m, int cand)
{
	const struct model_candidate *c = &m->cands[cand];
	for (int k = 0; k < model_cand_nsteps(m, cand); k++) {
		const struct model_superstep *st = &m->steps[model_cand_step(m, cand, k)];
		for (int i = 0; i < st->nstmts; i++) {
			const struct model_stmt *x = &st->stmts[i];
			int nspaces = 1 + x->nreads + x->nterms;
			for (int sp = 0; sp < nspaces; sp++) {
				const struct model_space *s = sp == 0 ? &x->lhs.space
							    : sp <= x->nreads ? &x->reads[sp - 1].space
									      : &x->terms[sp - 1 - x->nreads];
				for (int p = 0; p < s->npreds; p++) {
					const struct model_aff *aff;
					const char *text;
					if (!model_pred_extent(m, c, s->preds[p].dist, &aff, &text))
						return s->preds[p].dist;
				}
			}
		}
	}
	return -1;
}

/* The memory of the arrays TAKE of candidate CAND (memory.h): a number when
 * every value is known, else over the sizes (and the axes on the symbolic
 * grid).  NULL when out of memory. */
static struct formula *memory(const struct model *m, int cand, const struct cost_request *req,
			      const bool take[], const struct symbolic_info *info,
			      const bool *whole)
{
	if (!req->values)
		return memory_words(m, cand, take, req->symbolic ? NULL : req->sizes, info, whole);
	mpq_t v;
	mpq_init(v);
	struct formula *n = memory_words_at(m, cand, take, req->sizes, req->values,
					    mpq_numref(v)) == 0 ? formula_const_mpq(v) : NULL;
	mpq_clear(v);
	return n;
}

/* The memory of each superstep of OUT and of the whole program; WHOLE as
 * memory_words has it. */
static void memories(const struct model *m, int cand, const struct cost_request *req,
		     const struct symbolic_info *info, const bool *whole,
		     struct candidate_cost *out)
{
	bool *take = calloc((size_t)m->narrays + 1, sizeof(*take));
	if (!take)
		return;
	for (int k = 0; k < out->nsteps; k++) {
		memory_step_arrays(m, model_cand_step(m, cand, k), take);
		out->steps[k].mem = memory(m, cand, req, take, info, whole);
	}
	for (int a = 0; a < m->narrays; a++)
		take[a] = true;
	out->mem = memory(m, cand, req, take, info, whole);
	free(take);
}

/* Whether TEXT, in the formula grammar, names nothing but functions (a
 * name followed by "(": a size may be called floor): a number once the axes
 * are written as their sizes. */
static bool names_nothing(const char *text)
{
	static const char *const funcs[] = {"floor", "ceil", "log2", "min", "max"};
	size_t n;
	for (const char *p = text, *name; (name = text_next_name(&p, &n)) != NULL;) {
		const char *next = p;
		while (*next == ' ')
			next++;
		bool func = false;
		for (size_t f = 0; f < sizeof(funcs) / sizeof(*funcs) && *next == '('; f++)
			func |= strlen(funcs[f]) == n && strncmp(name, funcs[f], n) == 0;
		if (!func)
			return false;
	}
	return true;
}

/* The value of TEXT (formula grammar, names nothing) into V: 0, or -1 when
 * it has none (a division by zero, log2 of no power of two). */
static int constant_value(const char *text, mpq_t v)
{
	struct formula_expr *e = formula_parse_expr(text, NULL);
	int st = e ? formula_expr_eval(e, NULL, NULL, 0, v) : -1;
	formula_expr_free(e);
	return st;
}

static void drop_string(char **list, int *n, int i)
{
	free(list[i]);
	memmove(&list[i], &list[i + 1], sizeof(*list) * (size_t)(*n - i - 1));
	(*n)--;
}

/* Drops OUT's assumption TEXT, or those that start with TEXT when PREFIX. */
static void drop_assumption(struct candidate_cost *out, const char *text, bool prefix)
{
	for (int i = out->nassumptions - 1; i >= 0; i--)
		if (prefix ? strncmp(out->assumptions[i], text, strlen(text)) == 0
			   : strcmp(out->assumptions[i], text) == 0)
			drop_string(out->assumptions, &out->nassumptions, i);
}

/* Every formula of OUT (its supersteps', the total, the memories) with NAME
 * replaced by V (taken). */
static void subst_all(struct job *j, struct candidate_cost *out, const char *name,
		      struct formula *v)
{
	int n = nformulas(out) + 1 + out->nsteps;
	if (!v)   /* out of memory: NAME would stay */
		cost_job_fail(j, COST_FAILED, NULL, "writing the grid's sizes in a formula");
	for (int k = 0; v && k < n && !failed(&j->fail); k++) {
		int s = k - nformulas(out) - 1;
		struct formula **f = k < nformulas(out) ? formula_slot(out, k)
				     : s < 0 ? &out->mem : &out->steps[s].mem;
		if (!*f)
			continue;
		struct formula *r = formula_subst(*f, name, v);
		if (!r)
			cost_job_fail(j, COST_FAILED, NULL, "writing the grid's sizes in a formula");
		formula_free(*f);
		*f = r;
	}
	if (!v)
		cost_job_fail(j, COST_FAILED, NULL, "writing the grid's sizes in a formula");
	formula_free(v);
}

/* Whether some sizes meet, on the grid CONCRETE, the specification's
 * assumptions and facts (n % P == 0 is one there) together with what the
 * symbolic grid's formulas rest on: each block length's divisibility (4
 * divides n + 2) and each offset within a block (3 <= (n - 1)/4).  1; 0 when
 * none does (the formulas would hold nowhere); -1 when ISL failed. */
static int grid_meets(struct job *j, const struct cost_request *concrete)
{
	const struct model *m = j->m;
	const struct symbolic_info *info = j->info;
	isl_ctx *ctx = j->engine->ctx;
	isl_space *space = model_param_space(ctx, m, true);
	isl_set *set = model_valid_set(ctx, m);
	for (int a = 0; a < m->naxes && set; a++)
		set = isl_set_fix_si(set, isl_dim_param, (unsigned)(m->nparams + a),
				     (int)concrete->sizes[a]);
	set = grid_facts(set, space, m, concrete->sizes);
	for (int l = 0; info && l < info->nlocals && set; l++) {
		const struct local_param *lp = &info->locals[l];
		if (lp->digit < 0) {
			/* cyclic(nb): said where it may be (only a grid's refusal
			 * is lost where the assumptions bar nb = 1) */
			struct model_cons c = {.kind = MODEL_DIVIDES, .f = lp->extent_aff,
					       .divisor = known_block(lp) * concrete->sizes[lp->axis]};
			set = isl_set_intersect(set, model_cons_param_set(space, m, &c));
		}
	}
	for (int i = 0; info && i < info->nassumptions && set; i++) {
		/* "C <= NAME" or "C < NAME" of a block length NAME (symbolic.c) */
		long long c;
		char op[3], name[128];
		if (sscanf(info->assumptions[i], "%lld %2s %127s", &c, op, name) != 3 ||
		    (strcmp(op, "<=") != 0 && strcmp(op, "<") != 0) || c > INT_MAX || c < INT_MIN)
			continue;
		for (int l = 0; l < info->nlocals && set; l++) {
			const struct local_param *lp = &info->locals[l];
			if (lp->digit >= 0 || strcmp(lp->name, name) != 0)
				continue;
			/* X >= least*b*P */
			long long least = strcmp(op, "<") == 0 ? c + 1 : c;
			struct model_cons k = {.kind = MODEL_GE0, .f = lp->extent_aff};
			if (__builtin_mul_overflow(least, known_block(lp) * concrete->sizes[lp->axis],
						   &least) ||
			    __builtin_sub_overflow(k.f.constant, least, &k.f.constant))
				continue;   /* past 64 bits: nothing said (only adds pieces) */
			set = isl_set_intersect(set, model_cons_param_set(space, m, &k));
		}
	}
	isl_space_free(space);
	isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
	isl_set_free(set);
	return empty < 0 ? -1 : !empty;
}

/* The formulas of OUT but the memories tidied under CONTEXT (kept): those
 * whose ONLY[k] is set, or every one for ONLY NULL; an array's occurrence
 * counts keep why they have none.  A formula written as one tidied before
 * it takes that one's result (a program of one superstep: its cost and the
 * total), as tidying it again would give: tidying is deterministic, its
 * budget counted in ISL's operations. */
static void tidy_some(struct job *j, struct candidate_cost *out, __isl_keep isl_set *context,
		      const bool *only)
{
	int n = nformulas(out);
	char **before = calloc((size_t)n + 1, sizeof(*before));
	for (int k = 0; context && k < n && !failed(&j->fail); k++) {
		if (only && !only[k])
			continue;
		struct formula **f = formula_slot(out, k);
		char **why = formula_why(out, k);
		if (why) {
			tidy_explain(j, f, why, context);
			continue;
		}
		char *text = before && *f ? formula_to_string(*f, FORMULA_EXPR_STRICT) : NULL;
		int same = -1;
		for (int i = 0; text && i < k && same < 0; i++)
			if (before[i] && strcmp(before[i], text) == 0 && *formula_slot(out, i))
				same = i;
		if (same >= 0 && formula_get_outside(*f) ==
					 formula_get_outside(*formula_slot(out, same))) {
			struct formula *t = formula_copy(*formula_slot(out, same));
			if (t) {
				formula_free(*f);
				*f = t;
				free(text);
				continue;
			}
		}
		cost_tidy(j, f, context);
		if (before)
			before[k] = text;
		else
			free(text);
	}
	for (int k = 0; before && k < n; k++)
		free(before[k]);
	free(before);
}

static void tidy_all(struct job *j, struct candidate_cost *out, __isl_keep isl_set *context)
{
	tidy_some(j, out, context, NULL);
}

/* *F (NULL: none) replaced by SIMPLIFY's form of it under CONTEXT (kept);
 * the job fails where that fails. */
static void simplify_in_place(struct job *j, struct formula **f,
			      struct formula *(*simplify)(const struct formula *, isl_set *),
			      __isl_keep isl_set *context)
{
	struct formula *g = *f ? simplify(*f, context) : NULL;
	if (*f && !g)
		cost_job_fail(j, COST_FAILED, NULL, "simplifying a formula");
	formula_free(*f);
	*f = g;
}

/* Every formula of OUT but the memories pruned under CONTEXT (kept,
 * formula_prune): nothing merged, no condition longer. */
static void prune_all(struct job *j, struct candidate_cost *out, __isl_keep isl_set *context)
{
	for (int k = 0; context && k < nformulas(out) && !failed(&j->fail); k++) {
		simplify_in_place(j, formula_slot(out, k), formula_prune, context);
		simplify_in_place(j, formula_slot(out, k), formula_hull_conditions, context);
	}
}

/* The memories of OUT (the candidate's and each superstep's) simplified
 * under CONTEXT (kept). */
static void gist_memories(struct job *j, struct candidate_cost *out, __isl_keep isl_set *context)
{
	for (int s = -1; context && s < out->nsteps && !failed(&j->fail); s++)
		simplify_in_place(j, s < 0 ? &out->mem : &out->steps[s].mem, formula_gist, context);
}

/* OUT, the symbolic grid's formulas, on the concrete grid CONCRETE: each axis
 * replaced by its size, the assumptions that became numbers checked (true:
 * dropped; false: the symbolic formulas do not hold on this grid, and the job
 * is refused, so that the caller counts it on the grid itself), the kept
 * parameters that became numbers (lg_P = log2(8)) replaced by them, and every
 * formula simplified where the grid's sizes hold. */
static void specialize(struct job *j, const struct cost_request *concrete,
		       struct candidate_cost *out)
{
	const struct model *m = j->m;
	mpq_t v;
	mpq_init(v);
	for (int i = out->nconditions - 1; i >= 0 && !failed(&j->fail); i--) {
		if (!names_nothing(out->conditions[i]))
			continue;
		if (constant_value(out->conditions[i], v) < 0 || mpq_sgn(v) == 0) {
			char *why = NULL;
			if (asprintf(&why, "the symbolic grid's formulas rest on '%s', which this grid "
					   "does not meet", out->condition_texts[i]) < 0)
				why = NULL;
			cost_job_fail(j, COST_REFUSED, why, "the grid");
			break;
		}
		drop_assumption(out, out->condition_texts[i], false);
		int ntexts = out->nconditions;
		drop_string(out->condition_texts, &ntexts, i);
		drop_string(out->conditions, &out->nconditions, i);
	}
	int meets = failed(&j->fail) ? 1 : grid_meets(j, concrete);
	if (meets == 0)
		cost_job_fail(j, COST_REFUSED,
			      strdup("the symbolic grid's formulas rest on assumptions that no sizes "
				     "meet on this grid together with the specification's"),
			      "the grid");
	else if (meets < 0)
		cost_isl_op_failed(j, "checking the assumptions on this grid");
	for (int a = 0; a < m->naxes && !failed(&j->fail); a++)
		subst_all(j, out, m->axes[a], formula_const_si(concrete->sizes[a]));
	for (int i = out->nlocals - 1; i >= 0 && !failed(&j->fail); i--) {
		if (!out->local_values[i] || !names_nothing(out->local_values[i]))
			continue;
		if (constant_value(out->local_values[i], v) < 0) {
			char *why = NULL;
			if (asprintf(&why, "the symbolic grid's formulas name %s = %s, which has no "
					   "value on this grid", out->local_names[i],
				     out->local_values[i]) < 0)
				why = NULL;
			cost_job_fail(j, COST_REFUSED, why, "the grid");
			break;
		}
		subst_all(j, out, out->local_names[i], formula_const_mpq(v));
		char *def = NULL;
		if (asprintf(&def, "%s = ", out->local_names[i]) >= 0)
			drop_assumption(out, def, true);
		else   /* its definition would stay */
			cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
		free(def);
		int nnames = out->nlocals;
		drop_string(out->local_names, &nnames, i);
		drop_string(out->local_values, &out->nlocals, i);
	}
	mpq_clear(v);
	struct symbolic_info none = {0};
	isl_set *sizes = failed(&j->fail) ? NULL
			 : cost_context(j->engine->ctx, m, concrete, &none);
	if (!sizes && !failed(&j->fail))
		cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
	tidy_all(j, out, sizes);
	gist_memories(j, out, sizes);
	isl_set_free(sizes);
}

static enum cost_status candidate_costs(struct count_engine *engine, const struct model *m,
					int cand, const struct cost_request *req,
					const struct cost_request *concrete,
					struct candidate_cost *out);

/* The divisors of candidate CAND's sizes on the concrete grid of REQ
 * (divided.h), malloc'd, one per parameter of M; NULL when they would not
 * help (no size split into blocks) or may not be used: a superstep in a loop
 * (its loops' sets speak of the sizes themselves), a block that is a size.
 * *SIZES: where the specification's sizes are such multiples, on the sizes
 * (undivided), when the divisors are returned; else NULL. */
static long *size_divisors(isl_ctx *ctx, const struct model *m, int cand,
			   const struct cost_request *req, __isl_give isl_set **sizes)
{
	*sizes = NULL;
	if (model_cand_block_param(m, cand) >= 0)
		return NULL;
	for (int k = 0; k < model_cand_nsteps(m, cand); k++)
		if (m->steps[model_cand_step(m, cand, k)].loop >= 0)
			return NULL;
	long *div = malloc(sizeof(*div) * ((size_t)m->nparams + 1));
	if (div && cost_size_divisors(m, cand, req->sizes, div) <= 0) {
		free(div);
		return NULL;
	}
	/* no sizes of the specification are such multiples (k <= 150 where
	 * 192 would divide it): every size counted, or nothing would hold */
	struct symbolic_info none = {0};
	isl_set *meet = div ? isl_set_intersect(cost_context(ctx, m, req, &none),
						cost_divisible_set(ctx, m, div))
			    : NULL;
	isl_bool empty = meet ? isl_set_is_empty(meet) : isl_bool_error;
	if (empty != isl_bool_false) {
		isl_set_free(meet);
		isl_ctx_reset_error(ctx);
		free(div);
		return NULL;
	}
	*sizes = meet;
	return div;
}

/* "D divides X" for size P of M, as people read it (*TEXT) and as a
 * condition in the formula grammar (*COND), both malloc'd; -1 (both NULL)
 * when out of memory. */
static int divides_texts(const struct model *m, int p, long d, char **text, char **cond)
{
	*text = *cond = NULL;
	if (asprintf(text, "%ld divides %s", d, m->params[p]) < 0) {
		*text = NULL;
		return -1;
	}
	if (asprintf(cond, "(%s) %% (%ld) == 0", m->params[p], d) < 0) {
		free(*text);
		*text = *cond = NULL;
		return -1;
	}
	return 0;
}

/* Size P of M divided by D, X/D, as a formula; NULL when out of memory. */
static struct formula *size_over(const struct model *m, int p, long d)
{
	mpq_t inv;
	mpq_init(inv);
	mpq_set_si(inv, 1, (unsigned long)d);
	struct formula *x = formula_param(m->params[p]);
	struct formula *v = formula_scale(x, inv);
	formula_free(x);
	mpq_clear(inv);
	return v;
}

/* The formulas of OUT, counted with each size X as X/DIV[X] (divided.h),
 * written in X again: X/D for X in every formula, the assumption "D divides
 * X" and its condition, all simplified under CONTEXT (kept, the sizes'). */
static void undivide(struct job *j, const long *div, __isl_keep isl_set *context,
		     struct candidate_cost *out)
{
	const struct model *m = j->m;
	for (int p = 0; p < model_nsizes(m) && !failed(&j->fail); p++) {
		if (div[p] <= 1)
			continue;
		struct formula *v = size_over(m, p, div[p]);
		/* the memories, counted in X, first in X' (D*X' for X): their
		 * floors of X/D then have an integer argument */
		struct formula *x = formula_param(m->params[p]);
		struct formula *times = formula_const_si(div[p]);
		struct formula *dx = formula_mul(x, times);
		formula_free(times);
		formula_free(x);
		for (int s = -1; dx && s < out->nsteps && !failed(&j->fail); s++) {
			struct formula **f = s < 0 ? &out->mem : &out->steps[s].mem;
			struct formula *g = formula_subst(*f, m->params[p], dx);
			if (*f && !g)
				cost_job_fail(j, COST_FAILED, NULL, "writing the sizes in a formula");
			formula_free(*f);
			*f = g;
		}
		if (!dx)
			cost_job_fail(j, COST_FAILED, NULL, "writing the sizes in a formula");
		formula_free(dx);
		subst_all(j, out, m->params[p], v);
		char *text, *cond;
		int r = divides_texts(m, p, div[p], &text, &cond) == 0
				? cost_add_assumption(out, strdup(text)) : -1;
		if (r == 0) {
			r = cost_add_condition(out, cond, text); /* takes both */
			cond = text = NULL;
		}
		free(cond);
		free(text);
		if (r < 0)
			cost_job_fail(j, COST_FAILED, NULL, "writing the assumptions");
	}
	tidy_all(j, out, context);
	gist_memories(j, out, context);
}

/* On a concrete grid with sizes left free, the symbolic grid's formulas
 * with the axes given their sizes (as fast and as readable as the symbolic
 * grid's), under its assumptions (P divides n); where the symbolic
 * grid has none, or they do not hold on this grid, or cost_request.all_sizes
 * asks for formulas for every size, the grid is counted process by process. */
static enum cost_status candidate_formulas(struct count_engine *engine, const struct model *m,
					   int cand, const struct cost_request *req,
					   struct candidate_cost *out)
{
	if (req->symbolic && !req->values && !req->engine_limit) {
		/* the symbolic grid itself: its counts get the larger limit
		 * (a cyclic axis of a 3-D stencil, block-cyclic x block-cyclic
		 * stencils: 1 to 2 million operations); its attempt on a
		 * concrete grid below keeps the engine's, the grid's own count
		 * following it, and so do that attempt's levels */
		unsigned long limit = engine->max_operations;
		engine->max_operations = engine->symbolic_max_operations;
		enum cost_status st = candidate_costs(engine, m, cand, req, NULL, out);
		engine->max_operations = limit;
		return st;
	}
	if (req->symbolic || req->values || req->all_sizes)
		return candidate_costs(engine, m, cand, req, NULL, out);
	struct cost_request sym = *req;
	sym.symbolic = true;
	enum cost_status st = candidate_costs(engine, m, cand, &sym, req, out);
	if (st == COST_OK || out->timed_out)
		return st;
	/* with every value given, a loop whose per-iteration maximum over the
	 * processes the symbolic grid could not sum, counted process by
	 * process past a 2 x 2 grid: tens of seconds where it ends at all (LU
	 * on 3 x 3) */
	enum { LOOP_FORMULA_PROCESSES = 4 };
	long nproc = 1;
	for (int a = 0; a < m->naxes; a++)
		nproc *= req->sizes[a];
	if (req->symbolic_only ||
	    (req->values_apart && out->loop_max && nproc > LOOP_FORMULA_PROCESSES)) {
		char *why = NULL;
		if (asprintf(&why, "the symbolic grid gives no formulas here (%s), and this grid is "
				   "not counted process by process with every value given (%s)",
			     out->reason ? out->reason : "no reason",
			     req->symbolic_only ? "leave out -D for its formulas"
						: "its loops would take tens of seconds; leave out "
						  "-D for its formulas") < 0)
			why = NULL;
		if (why) {
			free(out->reason);
			out->reason = why;
		}
		return st;
	}
	char *why = out->reason;
	out->reason = NULL;
	candidate_cost_clear(out);
	st = candidate_costs(engine, m, cand, req, NULL, out);
	if (st == COST_REFUSED && nproc > MAX_PROCESSES && why) {
		/* the symbolic grid was tried: say why it gave nothing */
		char *both = NULL;
		if (asprintf(&both, "a concrete grid of %ld processes (more than %d) is not counted "
				    "process by process, and the symbolic grid gives no formulas here "
				    "(%s)", nproc, MAX_PROCESSES, why) >= 0) {
			free(out->reason);
			out->reason = both;
		}
	}
	free(why);
	return st;
}

/* H's formulas of SC, counted with each size X as X/DIV[X] (divided.h),
 * written in X again (X/D for X), simplified under CONTEXT (kept, the
 * sizes' where the divisors divide them); a failure is theirs. */
static void undivide_levels(struct job *j, const long *div, __isl_keep isl_set *context,
			    struct step_cost *sc)
{
	const struct model *m = j->m;
	struct job sub = cost_explain_job(j);
	for (int p = 0; p < model_nsizes(m) && sc->hf; p++) {
		if (div[p] <= 1)
			continue;
		struct formula *v = size_over(m, p, div[p]);
		for (int i = 0; i < sc->hk && !failed(&sub.fail); i++) {
			struct formula *g = formula_subst(sc->hf[i], m->params[p], v);
			if (!g)
				cost_isl_op_failed(&sub, "writing the sizes in H");
			formula_free(sc->hf[i]);
			sc->hf[i] = g;
		}
		formula_free(v);
	}
	for (int i = 0; sc->hf && i < sc->hk && !failed(&sub.fail); i++)
		cost_tidy(&sub, &sc->hf[i], context);
	if (failed(&sub.fail))
		cost_levels_failed(sc, &sub.fail);
}

/* OUT's hier_assumptions: "D divides X" for every size X counted as a
 * multiple of D (DIV), as people read it and as a condition; -1 when out
 * of memory. */
static int level_assumptions(const struct model *m, const long *div, struct candidate_cost *out)
{
	for (int p = 0; p < model_nsizes(m); p++) {
		if (div[p] <= 1)
			continue;
		char **t = realloc(out->hier_assumptions,
				   sizeof(*t) * ((size_t)out->nhier_assumptions + 1));
		if (t)
			out->hier_assumptions = t;
		char **c = realloc(out->hier_conditions,
				   sizeof(*c) * ((size_t)out->nhier_assumptions + 1));
		if (c)
			out->hier_conditions = c;
		char *text, *cond;
		if (!t || !c || divides_texts(m, p, div[p], &text, &cond) < 0)
			return -1;
		out->hier_assumptions[out->nhier_assumptions] = text;
		out->hier_conditions[out->nhier_assumptions++] = cond;
	}
	return 0;
}

/* With cost_request.hierarchy on a concrete grid, the sizes left free: each
 * superstep's H(i) as formulas in the sizes (cost_hierarchy_formulas), from
 * the grid's own relations whatever grid gave the other formulas; unless
 * cost_request.all_sizes, each size counted as a multiple of the processes
 * that split it (divided.h, stated in OUT's hier_assumptions), as the
 * other formulas are on a concrete grid.  A superstep in loops says why it
 * has none. */
static void hierarchy_formulas(struct count_engine *engine, const struct model *m, int cand,
			       const struct cost_request *req, struct candidate_cost *out)
{
	struct job j = {.engine = engine, .m = m, .naxes = m->naxes, .req = req};
	struct symbolic_info none = {0};
	isl_set *context = cost_context(engine->ctx, m, req, &none);
	isl_set *divisible = NULL;
	long *div = req->all_sizes ? NULL : size_divisors(engine->ctx, m, cand, req, &divisible);
	isl_set *counted = div && context ? cost_divided_set(isl_set_copy(context), m, div)
					  : isl_set_copy(context);
	if (div && level_assumptions(m, div, out) < 0)
		counted = isl_set_free(counted);
	for (int k = 0; k < out->nsteps; k++) {
		int s = model_cand_step(m, cand, k);
		struct step_cost *sc = &out->steps[k];
		if (m->steps[s].loop >= 0) {
			sc->hier_why = strdup("a superstep in loops: its H is summed run by run, at "
					      "values only (-D every size)");
			continue;
		}
		struct step_relations r;
		char *reason = NULL;
		int st = counted ? relations_concrete(engine->ctx, m, cand, s, req->sizes, &r,
						      &reason)
				 : -1;
		if (st == 0 && div && cost_divide_relations(&r, m, div) < 0) {
			step_relations_clear(&r);
			st = -1;
		}
		if (st != 0) {
			sc->hier_why = reason ? reason : strdup("out of memory");
			isl_ctx_reset_error(engine->ctx);
			continue;
		}
		cost_hierarchy_formulas(&j, &r, req, counted, sc);
		step_relations_clear(&r);
		if (div)
			undivide_levels(&j, div, divisible, sc);
	}
	isl_set_free(counted);
	isl_set_free(context);
	isl_set_free(divisible);
	free(div);
}

/* --hierarchy with the sizes left free: H's formulas only (its report
 * prints nothing else), every superstep named, one without them saying
 * why (step_cost.hier_why); COST_FAILED when out of memory. */
static enum cost_status hierarchy_only(struct count_engine *engine, const struct model *m,
				       int cand, const struct cost_request *req,
				       struct candidate_cost *out)
{
	memset(out, 0, sizeof(*out));
	out->name = m->cands[cand].name;
	int nsteps = model_cand_nsteps(m, cand);
	out->steps = calloc((size_t)nsteps + 1, sizeof(*out->steps));
	if (!out->steps) {
		out->reason = strdup("out of memory");
		return out->status = COST_FAILED;
	}
	for (int k = 0; k < nsteps; k++) {
		int s = model_cand_step(m, cand, k);
		out->steps[k].name = m->steps[s].name;
		if (m->steps[s].loop >= 0)
			out->steps[k].loop = m->loops[m->steps[s].loop].range;
	}
	out->nsteps = nsteps;
	hierarchy_formulas(engine, m, cand, req, out);
	return out->status = COST_OK;
}

/* The axes (bit a: axis a) that candidate CAND deals an array over in
 * blocks whose size is a size (cyclic(nb), nb a parameter). */
static unsigned block_size_axes(const struct model *m, int cand)
{
	const struct model_candidate *c = &m->cands[cand];
	unsigned axes = 0;
	for (int x = 0; x < m->narrays; x++)
		for (int d = 0; model_cand_has(m, cand, x) && d < m->arrays[x].ndims; d++) {
			const struct dist *ds = &c->layout[x][d];
			if (ds->block_param >= 0 && ds->axis >= 0 && ds->axis < 32)
				axes |= 1u << ds->axis;
		}
	return axes;
}

/* The pieces a query of candidate CAND may have on the symbolic grid: the
 * engine's limit (on every grid) for two axes, three times it for each
 * axis past two, and twice that for each axis it deals in blocks of a size
 * nb.  Each axis brings its small-grid cases (1, 2, 3 or more processes),
 * so a 3-D stencil on an M x N x Q grid has three times a 2-D one's
 * pieces, and each such block size its own (one row a block, or more: a
 * 5-point stencil in blocks of b over both axes has 384); the limit, which
 * keeps formulas readable and their handling fast, grows with them. */
static int symbolic_piece_limit(const struct count_engine *engine, const struct model *m,
				int cand)
{
	long limit = engine->max_pieces;
	for (int a = 2; a < m->naxes && limit <= INT_MAX / 3; a++)
		limit *= 3;
	unsigned axes = block_size_axes(m, cand);
	for (int a = 0; a < m->naxes && a < 32 && limit <= INT_MAX / 2; a++)
		if (axes & (1u << a))
			limit *= 2;
	return (int)limit;
}

enum cost_status cost_candidate(struct count_engine *engine, const struct model *m, int cand,
				const struct cost_request *req, struct candidate_cost *out)
{
	if (req->hierarchy && !req->values && !req->symbolic)
		return hierarchy_only(engine, m, cand, req, out);
	if (!req->symbolic)
		return candidate_formulas(engine, m, cand, req, out);
	struct count_engine scaled = *engine;
	scaled.max_pieces = symbolic_piece_limit(engine, m, cand);
	return candidate_formulas(&scaled, m, cand, req, out);
}

enum cost_status cost_candidate_within(struct job *j, const struct model *m, int cand,
				       const struct cost_request *req, struct candidate_cost *out)
{
	return req->symbolic ? candidate_formulas(j->engine, m, cand, req, out)
			     : cost_candidate(j->engine, m, cand, req, out);
}

/* Candidate CAND refused before its supersteps are counted: too many
 * processes to count one by one, a predicate naming a distribution that
 * lays out none of its arrays; and OUT->any_grid set where it is counted
 * at values only. */
static void candidate_refusals(struct job *j, const struct model *m, int cand,
			       const struct cost_request *req, struct candidate_cost *out)
{
	long nproc = 1;
	for (int a = 0; !req->symbolic && a < m->naxes; a++)
		nproc *= req->sizes[a];
	/* with every value known, the processes are not analyzed one by one */
	if (!req->values && nproc > MAX_PROCESSES) {
		char *why = NULL;
		if (asprintf(&why, "a concrete grid of %ld processes (more than %d) is not analyzed "
				   "process by process; the symbolic grid may do", nproc,
			     MAX_PROCESSES) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, "grid");
	}
	if (!out->steps)
		cost_job_fail(j, COST_FAILED, NULL, "cost");
	int nodist = predicate_without_extent(m, cand);
	if (nodist >= 0) {
		char *why = NULL;
		if (asprintf(&why, "the predicates of %s name distribution %s, which lays out no "
				   "array of this candidate: the extent it splits is unknown",
			     m->cands[cand].name, m->dists[nodist]) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, "predicate");
		out->any_grid = true;
	}
	/* a condition by a loop's variable: counted at values only, on
	 * every grid */
	for (int k = 0; !req->values && k < model_cand_nsteps(m, cand); k++)
		if (m->steps[model_cand_step(m, cand, k)].by_loop >= 0)
			out->any_grid = true;
}

/* Whether the cost function of REQ cannot price superstep S without
 * every value (it prices messages) or in a loop (the overlap cost); the
 * refusal is then J's failure. */
static bool step_model_refused(struct job *j, const struct model *m, int s,
			       const struct cost_request *req)
{
	const struct cost_model *cm = req->model ? req->model : cost_model_default();
	if (cm->messages != MSG_NONE && !req->values) {
		cost_job_fail(j, COST_REFUSED,
			      strdup("a cost function that prices messages weighs each "
				     "process's words and messages together: every size "
				     "needs its value (-D)"),
			      m->steps[s].name);
		return true;
	}
	if (m->steps[s].loop >= 0 && cm->overlap) {
		cost_job_fail(j, COST_REFUSED,
			 strdup("the overlap cost max(w, g*h) + l of a superstep in a loop is "
				"not summed over its iterations (bsp and the F_ functions are)"),
			 m->steps[s].name);
		return true;
	}
	return false;
}

/* Whether A >= B is shown all over CONTEXT, piece by piece of A - B
 * (formula_nonnegative_on); false when not shown, or after a failure, where
 * the max of the two is tidied instead. */
static bool bounds_all_over(struct job *j, const struct formula *a, const struct formula *b,
			    __isl_keep isl_set *context)
{
	budget(j);
	struct formula *d = formula_sub(a, b);
	int bounds = d ? formula_nonnegative_on(d, context) : -1;
	unbudget(j);
	formula_free(d);
	return bounds == 1;
}

/* The shorter of two formulas of the same values: fewer pieces, then
 * fewer characters; A on a tie. */
static const struct formula *shorter(const struct formula *a, const struct formula *b)
{
	int na = formula_n_pieces(a), nb = formula_n_pieces(b);
	if (na != nb)
		return nb < na ? b : a;
	char *ta = formula_to_string(a, FORMULA_EXPR_STRICT);
	char *tb = formula_to_string(b, FORMULA_EXPR_STRICT);
	bool take_b = ta && tb && strlen(tb) < strlen(ta);
	free(ta);
	free(tb);
	return take_b ? b : a;
}

/* The most pieces of h_in times those of h_out for which h_of_max tidies
 * their max even where one bounds the other. */
enum { FEW_PIECES = 36 };

/* h = max(H_IN, H_OUT) (tidy, both kept), tidy: one of them where it is
 * shown to bound the other all over CONTEXT (SUMMA's h_out, 16 pieces,
 * where the max's 81 took seconds to tidy), the shorter where each
 * bounds the other, or their max tidied where they have few pieces and
 * that is shorter still; else their max tidied.  NULL after a failure,
 * which J takes. */
static struct formula *h_of_max(struct job *j, const struct formula *h_in,
				const struct formula *h_out, __isl_keep isl_set *context)
{
	bool in_bounds = bounds_all_over(j, h_in, h_out, context);
	bool out_bounds = bounds_all_over(j, h_out, h_in, context);
	if (in_bounds || out_bounds) {
		const struct formula *a = in_bounds && out_bounds ? shorter(h_in, h_out)
					  : in_bounds ? h_in : h_out;
		/* few pieces: their max tidied as well, where that merges
		 * pieces of both into a shorter one (its failure its own) */
		if (formula_n_pieces(h_in) * formula_n_pieces(h_out) <= FEW_PIECES) {
			struct job sub = cost_explain_job(j);
			struct formula *mx = formula_max(h_in, h_out);
			cost_tidy(&sub, &mx, context);
			bool ok = mx && !failed(&sub.fail);
			fail_clear(&sub.fail);
			if (ok && shorter(mx, a) == mx)
				return mx;
			formula_free(mx);
		}
		struct formula *h = formula_copy(a);
		if (!h)
			cost_isl_op_failed(j, "h");
		return h;
	}
	struct formula *h = formula_max(h_in, h_out);
	cost_tidy(j, &h, context);
	return h;
}

/* Whether LP is a digit of an expression of the variables of loops around
 * superstep S (and sizes: t, n - 1 - t) of which S names no loop's
 * variable: no subscript of S is that expression, and every run of S is
 * alike whichever process owns row t. */
static bool unnamed_loop_digit(const struct model *m, int s, const struct local_param *lp)
{
	if (!(symbolic_loop_digit(m, s, lp) & SYMBOLIC_DIGIT_AROUND))
		return false;
	for (int t = 0; t < lp->of.nterms; t++)
		if (lp->of.terms[t].kind == MODEL_PARAM &&
		    lp->of.terms[t].index >= model_nsizes(m) &&
		    model_step_names_param(m, s, lp->of.terms[t].index))
			return false;
	return true;
}

/* *MAP (NULL: none) with nothing said of parameter NAME; false when ISL
 * failed (*MAP NULL). */
static bool eliminate_named(isl_map **map, const char *name)
{
	int at = *map ? isl_map_find_dim_by_name(*map, isl_dim_param, name) : -1;
	if (at >= 0)
		*map = isl_map_eliminate(*map, isl_dim_param, (unsigned)at, 1);
	return at < 0 || *map;
}

/* Superstep S's relations R and *CONTEXT with nothing said of the digits
 * of a loop's variable that S does not name (unnamed_loop_digit): the
 * relations say only that such a digit is within its range, whatever it
 * is, and the context ties it to the variable and the sizes, which would
 * write t_M == 0 into a piece where M == 1, as if a run of a sweep
 * depended on which process owns row t.  Exact: the relations are the
 * same at every digit within its range, and each range holds some.
 * 0, or -1 when ISL failed. */
static int without_unnamed_loop_digits(const struct model *m, const struct symbolic_info *info,
				       int s, struct step_relations *r, isl_set **context)
{
	bool ok = *context != NULL;
	for (int l = 0; l < info->nlocals && ok; l++) {
		const struct local_param *lp = &info->locals[l];
		if (!unnamed_loop_digit(m, s, lp))
			continue;
		int at = isl_set_find_dim_by_name(*context, isl_dim_param, lp->name);
		if (at >= 0)
			*context = isl_set_eliminate(*context, isl_dim_param, (unsigned)at, 1);
		at = isl_set_find_dim_by_name(r->processes, isl_dim_param, lp->name);
		if (at >= 0)
			r->processes = isl_set_eliminate(r->processes, isl_dim_param, (unsigned)at, 1);
		ok = *context && r->processes;
		for (int a = 0; a < r->narrays; a++)
			ok &= eliminate_named(&r->use[a], lp->name) &&
			      eliminate_named(&r->own[a], lp->name);
		for (int w = 0; w < r->nwork; w++)
			ok &= eliminate_named(&r->work[w], lp->name);
	}
	return ok ? 0 : -1;
}

/* Superstep S of candidate CAND, its relations R (consumed), counted on the
 * symbolic grid or a concrete one without values: SC's formulas, added to
 * *TOTAL.  INFO: the symbolic grid's decomposition; DIV: the sizes' divisors
 * (size_divisors) or NULL; CONCRETE: the grid of the symbolic grid's attempt. */
static void step_count(struct job *j, const struct model *m, int s,
			  const struct cost_request *req, const struct cost_request *concrete,
			  const long *div, struct step_relations *r, struct symbolic_info *info,
			  struct step_cost *sc, struct formula **total)
{
	bool looped = m->steps[s].loop >= 0;
	j->info = info;
	const char **names = realloc(j->locals, sizeof(*names) * (size_t)(info->nlocals + 1));
	if (names) {
		j->locals = names;
		for (j->nlocals = 0; j->nlocals < info->nlocals; j->nlocals++)
			names[j->nlocals] = info->locals[j->nlocals].name;
	}
	/* The context this step's counts live in; tidy each quantity once,
	 * and what is built from tidy parts only when it has pieces to merge. */
	isl_set *context = symbolic_without_foreign_digits(
		cost_context(j->engine->ctx, m, req, info), m, info, s);
	if (div)
		context = cost_divided_set(context, m, div);
	if (context && req->symbolic && looped &&
	    without_unnamed_loop_digits(m, info, s, r, &context) < 0)
		cost_isl_op_failed(j, "the loop's digits");
	/* a superstep in loops: its counts where the loops run it */
	isl_set *base = looped && context ? isl_set_copy(context) : NULL;
	if (looped && context)
		context = isl_set_intersect(context, isl_set_align_params(
			model_loops_set(j->engine->ctx, m, s, req->symbolic ? NULL : req->sizes),
			isl_set_get_space(context)));
	if (!context)
		cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
	const char *never = NULL;
	bool oom = false;
	char *apart = req->symbolic && !concrete && context ? divisors_apart(m, info, &oom) : NULL;
	if (apart || oom)
		cost_job_fail(j, apart ? COST_REFUSED : COST_FAILED, apart, m->steps[s].name);
	else if (context && req->symbolic &&
		 assumptions_met(context, info, &never) == isl_bool_false) {
		char *shown = local_display(info, m, never, false, j->fixed);
		char *why = NULL;
		if (asprintf(&why, "its formulas would rest on '%s', which no sizes meet under "
				   "the specification's assumptions (an offset wider than the "
				   "block); --grid or -D count it exactly",
			     shown ? shown : never) < 0)
			why = NULL;
		free(shown);
		cost_job_fail(j, COST_REFUSED, why, m->steps[s].name);
	}
	/* On the symbolic grid the formulas hold only under the assumptions
	 * (with each block length X/P), so the counts need not cover the
	 * rest: a block length of 1 where the assumptions give it 2 or more
	 * only adds pieces.  A concrete grid counts for any sizes, so that
	 * values given with -D are exact even outside the assumptions. */
	if (context && req->symbolic && step_relations_restrict(r, context) < 0)
		cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
	struct per_process p = {0};
	struct per_iteration it = {0};
	if (req->symbolic) {
		per_process_init(j, r, &p);
		count_step(j, r, &p);
	}
	else if (context)
		count_step_concrete(j, r, req, context, sc, looped ? &it : NULL);
	if (req->explain)
		count_occurrences(j, r, sc);
	if (req->symbolic) {
		sc->h_in = max_over_sum(j, &p, PP_IN, p.in_terms, p.nterms, r->processes, context,
					"h_in", looped ? &it.h_in : NULL);
		sc->h_out = max_over_sum(j, &p, PP_OUT, p.out_terms, p.nterms, r->processes, context,
					 "h_out", looped ? &it.h_out : NULL);
		sc->w = max_over(j, p.work, r->processes, context, "w", looped ? &it.w : NULL,
				 NULL, 0);
	}
	if (req->h == H_SUM && req->symbolic) {
		isl_pw_qpolynomial **terms = calloc(2 * (size_t)p.nterms + 1, sizeof(*terms));
		if (!terms)   /* not a maximum without its terms: out of memory */
			cost_job_fail(j, COST_FAILED, NULL, "h");
		for (int a = 0; terms && a < p.nterms; a++) {
			terms[a] = p.in_terms[a];
			terms[p.nterms + a] = p.out_terms[a];
		}
		sc->h = max_over_sum(j, &p, PP_BOTH, terms, terms ? 2 * p.nterms : 0, r->processes,
				     context, "h", looped ? &it.h : NULL);
		free(terms);
	}
	/* a loop whose maximum over the processes is no single function
	 * has no sum (cost_loop_totals says why): one run's formulas
	 * are made all the same, the designer's per-iteration terms;
	 * but the symbolic grid's attempt on a concrete grid (which
	 * counts the grid next) is refused here, before NCom's formula
	 * and any tidying (LU on 2 x 2: half its time) */
	if (concrete && looped && !failed(&j->fail) &&
	    (!it.w || !it.h_in || !it.h_out || (req->h == H_SUM && !it.h)))
		cost_loop_totals(j, s, &it, base, sc);
	if (req->symbolic) {
		sc->ncom = sum_by_terms(j, p.ncom_terms, p.nterms, context);
		if (!sc->ncom) {
			isl_pw_qpolynomial *ncom = per_process_whole(j, &p, PP_NCOM);
			sc->ncom = cost_to_formula(j, ncom, "NCom");
			isl_pw_qpolynomial_free(ncom);
		}
		if (looped && sc->ncom)
			it.ncom = per_process_whole(j, &p, PP_NCOM);
	}
	cost_tidy(j, &sc->ncom, context);
	cost_tidy(j, &sc->h_in, context);
	cost_tidy(j, &sc->h_out, context);
	cost_tidy(j, &sc->w, context);
	cost_tidy(j, &sc->h, context);
	for (int k = 0; k < sc->narrays; k++) {
		struct array_occurrence *ao = &sc->arrays[k];
		tidy_explain(j, &ao->nocc, &ao->nocc_why, context);
		tidy_explain(j, &ao->occurrences, &ao->occurrences_why, context);
		tidy_explain(j, &ao->unowned, &ao->unowned_why, context);
	}
	/* h before the cost, which then has h's simpler form: tidy merges
	 * pieces and leaves out of the max an operand the other bounds
	 * (2*floor((n + 5)/8) >= floor((n + 3)/8) + floor((n + 5)/8)) */
	if (!failed(&j->fail) && req->h == H_MAX)
		sc->h = h_of_max(j, sc->h_in, sc->h_out, context);
	if (!failed(&j->fail)) {
		sc->cost = cost_step_cost_formula(req, sc);
		if (formula_n_pieces(sc->cost) > 1)
			cost_tidy(j, &sc->cost, context);
		if (looped)
			cost_loop_totals(j, s, &it, base, sc);
		/* no sum over its runs (J.sumless, the sums NULL): no
		 * total either */
		if (!looped || sc->w)
			finish_step(j, m, s, sc, total);
	}
	/* last: their own failure, and what time is left */
	if (context)
		count_messages(j, r, context, looped, sc);
	isl_set_free(context);
	isl_set_free(base);
	cost_per_iteration_clear(&it);
	per_process_clear(&p);
	step_relations_clear(r);
}

/* The whole program's formulas of OUT, its supersteps counted: the total
 * tidied, the block lengths written back in the sizes, and what the
 * assumptions exclude pruned. */
static void program_formulas(struct job *j, const struct model *m,
			     const struct cost_request *req, struct symbolic_info *info,
			     const long *div, int nsteps, struct candidate_cost *out)
{
	isl_set *context = without_loop_digits(m, info, cost_context(j->engine->ctx, m, req, info));
	if (div)
		context = cost_divided_set(context, m, div);
	if (!context)
		cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
	else if (formula_n_pieces(out->cost) > 1 && nsteps > 1)
		cost_tidy(j, &out->cost, context); /* one step: its cost, tidy already */
	/* the formulas that named a block length (written back or
	 * kept), or every one with a doubling loop's lg_P: tidied again
	 * below, where their conditions speak of the sizes */
	bool *changed = context && req->symbolic
			? calloc((size_t)nformulas(out) + 1, sizeof(*changed)) : NULL;
	if (context && req->symbolic && !changed)
		cost_job_fail(j, COST_FAILED, NULL, "writing the sizes in a formula");
	if (changed) {
		substitute_locals(j, info, context, out, changed);
		if (j->ngeometric > 0) {
			keep_doubling(j, out);
			for (int k = 0; k < nformulas(out); k++)
				changed[k] = true;
		}
		/* Conditions now speak of the sizes themselves (n >= 4*P):
		 * simplify again under the specification's own assumptions. */
		j->nlocals = 0; /* written back, or kept for good */
		isl_set *sizes = cost_sizes_context(j);
		if (!sizes)
			cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
		tidy_some(j, out, sizes, changed);
		/* The sizes' context knows nothing of the digits and block
		 * lengths kept (k0_M < M, n__M >= 1): what they exclude
		 * goes, under CONTEXT. */
		/* and the digits' order (an aid: without it, when ISL
		 * fails on it, the pruning is only less thorough) */
		isl_set *ordered = symbolic_digit_orders(isl_set_copy(context), m, info);
		prune_all(j, out, ordered ? ordered : context);
		isl_set_free(ordered);
		/* a doubling bound's pieces at 1 and 2 joined to the general
		 * one, simplified by now (its max of the few-process cases
		 * gone), and those formulas tidied again */
		if (j->ngeometric > 0 && sizes && merge_levels(j, out, changed) > 0)
			tidy_some(j, out, sizes, changed);
		isl_set_free(sizes);
	}
	free(changed);
	isl_set_free(context);
}

/* What a superstep may add to its candidate's state, as it was before the
 * superstep: put back where the symbolic grid refuses it
 * (keep_refused_step), so that the others' formulas rest on what they make
 * themselves. */
struct step_mark {
	int nlocals, nassumptions;             /* the symbolic_info's */
	int assumptions, conditions, locals;   /* the candidate's */
	int ngeometric;                        /* the job's doubling names */
	bool sumless, loop_max;                /* the job's */
	int whole[2];                          /* entries of WHOLE set, or -1 */
	bool was[2];                           /* ... and what they were */
};

static void step_mark(struct step_mark *mk, const struct job *j,
		      const struct symbolic_info *info, const struct candidate_cost *out)
{
	*mk = (struct step_mark){info->nlocals, info->nassumptions, out->nassumptions,
				 out->nconditions, out->nlocals, j->ngeometric, j->sumless != NULL,
				 j->loop_max, {-1, -1}, {false, false}};
}

/* WHOLE[X] and WHOLE[Y] set (a transpose between blocks), what they were
 * kept in MK. */
static void mark_whole(struct step_mark *mk, bool *whole, int x, int y)
{
	mk->whole[0] = x;
	mk->was[0] = whole[x];
	mk->whole[1] = y;
	mk->was[1] = whole[y];
	whole[x] = whole[y] = true;
}

static void free_from(char **list, int from, int *n)
{
	for (int i = from; i < *n; i++)
		free(list[i]);
	if (from < *n)
		*n = from;
}

/* Superstep SC just refused (not for the time limit) where KEEP: the
 * refusal is the superstep's (SC->refused), its formulas dropped, and the
 * job goes on with the others, whose formulas a designer still gets
 * (candidate_cost.formulas_kept: a 2-D FFT's row pass where its column pass
 * has none).  What it added since MK goes: to INFO (locals, assumptions),
 * to OUT (assumptions, conditions, block lengths), to the job (doubling
 * names, a loop without a sum) and to WHOLE, so that the others' formulas
 * rest on their own assumptions only (two supersteps whose blocks divide no
 * size together: the second's refusal, not the first's formulas under
 * both).  Counted in *NREFUSED. */
static void keep_refused_step(struct job *j, bool keep, struct step_cost *sc,
			      struct symbolic_info *info, struct candidate_cost *out, bool *whole,
			      const struct step_mark *mk, int *nrefused)
{
	if (!keep || j->fail.kind != FAIL_REFUSED || j->timed_out || cost_out_of_time(j))
		return;
	symbolic_info_truncate(info, mk->nlocals, mk->nassumptions);
	if (j->nlocals > info->nlocals)
		j->nlocals = info->nlocals;   /* their names, freed */
	free_from(out->assumptions, mk->assumptions, &out->nassumptions);
	int nc = out->nconditions;
	free_from(out->conditions, mk->conditions, &out->nconditions);
	free_from(out->condition_texts, mk->conditions, &nc);
	int nl = out->nlocals;
	free_from(out->local_names, mk->locals, &out->nlocals);
	free_from(out->local_values, mk->locals, &nl);
	for (int k = mk->ngeometric; k < j->ngeometric; k++) {
		free(j->geometric_name[k]);
		free(j->geometric_bound[k]);
	}
	if (mk->ngeometric < j->ngeometric)
		j->ngeometric = mk->ngeometric;
	if (!mk->sumless) {
		free(j->sumless);
		j->sumless = NULL;
	}
	j->loop_max = mk->loop_max;
	for (int k = 1; k >= 0 && whole; k--)
		if (mk->whole[k] >= 0)
			whole[mk->whole[k]] = mk->was[k];
	sc->refused = fail_release(&j->fail);
	struct formula **f[STEP_FORMULAS];
	step_slots(sc, f);
	for (int k = 0; k < STEP_FORMULAS; k++) {
		formula_free(*f[k]);
		*f[k] = NULL;
	}
	(*nrefused)++;
}

static enum cost_status candidate_costs(struct count_engine *engine, const struct model *m,
					int cand, const struct cost_request *req,
					const struct cost_request *concrete,
					struct candidate_cost *out)
{
	memset(out, 0, sizeof(*out));
	out->name = m->cands[cand].name;
	out->steps = calloc((size_t)m->nsteps + 1, sizeof(*out->steps));
	struct job j = {.engine = engine, .m = m, .naxes = m->naxes,
			.symbolic = req->symbolic, .req = req,
			.fixed = concrete ? concrete->sizes : NULL};
	if (!out->steps)
		fail_nomem(&j.fail);
	else
		candidate_refusals(&j, m, cand, req, out);
	/* the symbolic grid's attempt on a concrete grid: its axes of one
	 * size are one (LU's digits of k on 4 x 4) */
	struct symbolic_info info = {.fixed = req->symbolic && concrete ? concrete->sizes : NULL};
	struct formula *total = formula_const_si(0);
	/* cost_candidate's fallback, the symbolic grid having given nothing on
	 * this concrete grid: each size counted as a multiple of its blocks
	 * (divided.h), the floors of every residue left out */
	isl_set *divisible = NULL;
	long *div = !req->symbolic && !req->values && !req->all_sizes && !concrete &&
			    !failed(&j.fail) && !out->any_grid
			    ? size_divisors(engine->ctx, m, cand, req, &divisible)
			    : NULL;

	int nsteps = model_cand_nsteps(m, cand);
	bool *whole = NULL;   /* the arrays of transposes between blocks */
	/* on the symbolic grid itself, a refused superstep leaves the
	 * others their formulas (keep_refused_step) */
	bool keep = req->symbolic && !req->values && !concrete && !div;
	int nrefused = 0;
	for (int k = 0; k < nsteps && !failed(&j.fail); k++) {
		int s = model_cand_step(m, cand, k);   /* the model's superstep */
		struct step_cost *sc = &out->steps[k];
		struct step_mark mk;
		step_mark(&mk, &j, &info, out);
		if (req->symbolic && !req->values && m->steps[s].by_loop >= 0) {
			/* a condition by a doubling loop's variable: level by
			 * level, summed */
			out->nsteps++;
			sc->name = m->steps[s].name;
			sc->loop = m->loops[m->steps[s].loop].range;
			if (step_model_refused(&j, m, s, req))
				goto next;
			cost_level_step(&j, cand, s, sc, out);
			finish_step(&j, m, s, sc, &total);
			goto next;
		}
		struct step_relations r;
		char *reason = NULL;
		struct model_values mv = {req->values, req->sizes};
		int st = req->values	 ? relations_values(engine->ctx, m, cand, s, &mv, &r, &reason)
			 : req->symbolic ? relations_symbolic(engine->ctx, m, cand, s, &r, &info, &reason)
					 : relations_concrete(engine->ctx, m, cand, s, req->sizes, &r, &reason);
		int rx, ry;
		if (st > 0 && req->symbolic && !req->values && !concrete &&
		    cost_is_redistribution(m, cand, s, &rx, &ry)) {
			/* a transpose whose index is blocked over two axes
			 * (which no assumption makes one): from the copy's
			 * shape (redistribute.c), its arrays' blocks assumed
			 * whole */
			free(reason);
			if (!whole && !(whole = calloc((size_t)m->narrays + 1, sizeof(*whole)))) {
				fail_nomem(&j.fail);
				goto next;
			}
			mark_whole(&mk, whole, rx, ry);
			out->nsteps++;
			sc->name = m->steps[s].name;
			if (m->steps[s].loop >= 0)
				sc->loop = m->loops[m->steps[s].loop].range;
			if (step_model_refused(&j, m, s, req))
				goto next;
			cost_redistribute_step(&j, cand, s, sc, out);
			finish_step(&j, m, s, sc, &total);
			goto next;
		}
		out->nsteps++;
		sc->name = m->steps[s].name;
		bool looped = m->steps[s].loop >= 0;
		if (looped)
			sc->loop = m->loops[m->steps[s].loop].range;
		if (st == 0 && step_model_refused(&j, m, s, req)) {
			step_relations_clear(&r);
			goto next;
		}
		if (st != 0) {
			cost_job_fail(&j, st > 0 ? COST_REFUSED : COST_FAILED, reason, m->steps[s].name);
			goto next;
		}
		if (div && cost_divide_relations(&r, m, div) < 0) {
			step_relations_clear(&r);
			cost_isl_op_failed(&j, "dividing the sizes");
			goto next;
		}
		if (req->values && looped) {
			step_relations_clear(&r);
			cost_count_loop_values(&j, cand, s, req, sc);
			cost_loop_cost(&j, sc);
			finish_step(&j, m, s, sc, &total);
			goto next;
		}
		if (req->values) {
			cost_count_step_values(&j, &r, req, sc);
			if (req->hierarchy && !failed(&j.fail))
				cost_count_hierarchy(&j, &r, req, sc);
			finish_step(&j, m, s, sc, &total);
			step_relations_clear(&r);
			goto next;
		}
		step_count(&j, m, s, req, concrete, div, &r, &info, sc, &total);
	next:
		keep_refused_step(&j, keep, sc, &info, out, whole, &mk, &nrefused);
	}
	/* every superstep refused: the candidate's refusal is the first's,
	 * as it was before the others were tried */
	for (int k = 0; nrefused > 0 && nrefused == out->nsteps && k < out->nsteps; k++) {
		if (out->steps[k].refused && !failed(&j.fail)) {
			fail_take(&j.fail, FAIL_REFUSED, out->steps[k].refused);
			out->steps[k].refused = NULL;
		}
		free(out->steps[k].refused);
		out->steps[k].refused = NULL;
	}
	if (j.sumless || nrefused > 0) {
		/* a superstep's runs have no sum, or a superstep has no
		 * formulas: the total has none */
		formula_free(total);
		total = NULL;
	}
	out->cost = total;
	if (!failed(&j.fail) && !req->values)
		program_formulas(&j, m, req, &info, div, nsteps, out);
	if (!failed(&j.fail))
		memories(m, cand, req, &info, whole, out);
	free(whole);
	if (!failed(&j.fail) && !req->values && !div)
		relate_digits(&j, &info, out);
	if (!failed(&j.fail) && div)
		undivide(&j, div, divisible, out);
	isl_set_free(divisible);
	free(div);
	if (!failed(&j.fail) && concrete)
		specialize(&j, concrete, out);
	if (!failed(&j.fail) && !req->values)
		typical_first(&j, m, concrete ? concrete : req, &info, out);
	symbolic_info_clear(&info);
	free(j.locals);
	for (int k = 0; k < j.ngeometric; k++) {
		free(j.geometric_name[k]);
		free(j.geometric_bound[k]);
	}
	/* a loop's sum refused (no_single_max) and nothing else failed:
	 * refused, with every superstep's formulas kept; the deadline said
	 * as such (cost_out_of_time); another failure is the reason, and
	 * then not the loop's (LOOP_MAX false) */
	bool loop_reason = j.loop_max && !j.sumless;
	for (int k = 0; nrefused > 0 && k < out->nsteps && !failed(&j.fail); k++)
		if (out->steps[k].refused && !cost_out_of_time(&j)) {
			/* the first refused superstep's reason, the others'
			 * formulas kept */
			fail_set(&j.fail, FAIL_REFUSED, "%s", out->steps[k].refused);
			out->formulas_kept = true;
			loop_reason = false;
		}
	if (j.sumless && !failed(&j.fail) && !cost_out_of_time(&j)) {
		fail_set(&j.fail, FAIL_REFUSED, "%s", j.sumless);
		out->formulas_kept = loop_reason = true;
	}
	free(j.sumless);
	out->status = (enum cost_status)j.fail.kind;
	out->reason = fail_release(&j.fail);
	out->timed_out = j.timed_out;
	out->loop_max = loop_reason && out->status == COST_REFUSED && !out->timed_out;
	return out->status;
}

void candidate_cost_clear(struct candidate_cost *c)
{
	/* the total (slot 0) too where no superstep could be allocated */
	for (int k = 0; k < nformulas(c); k++)
		formula_free(*formula_slot(c, k));
	formula_free(c->mem);
	for (int s = 0; c->steps && s < c->nsteps; s++) {
		formula_free(c->steps[s].mem);
		for (int k = 0; c->steps[s].arrays && k < c->steps[s].narrays; k++) {
			free(c->steps[s].arrays[k].nocc_why);
			free(c->steps[s].arrays[k].occurrences_why);
			free(c->steps[s].arrays[k].unowned_why);
		}
		free(c->steps[s].arrays);
		free(c->steps[s].msgs_why);
		free(c->steps[s].ncom_why);
		free(c->steps[s].refused);
		message_loads_free(c->steps[s].loads, c->steps[s].nloads);
		free(c->steps[s].run_end);
		for (int i = 0; c->steps[s].procs && i < c->steps[s].nprocs; i++)
			mpz_clears(c->steps[s].procs[i].w, c->steps[s].procs[i].in,
				   c->steps[s].procs[i].out, c->steps[s].procs[i].msgs_in,
				   c->steps[s].procs[i].msgs_out, NULL);
		free(c->steps[s].procs);
		if (c->steps[s].hier)
			hierarchy_clear(c->steps[s].hier);
		free(c->steps[s].hier);
		for (int i = 0; c->steps[s].hf && i < c->steps[s].hk; i++)
			formula_free(c->steps[s].hf[i]);
		free(c->steps[s].hf);
		free(c->steps[s].hier_why);
	}
	for (int i = 0; i < c->nhier_assumptions; i++) {
		free(c->hier_assumptions[i]);
		free(c->hier_conditions[i]);
	}
	free(c->hier_assumptions);
	free(c->hier_conditions);
	free(c->steps);
	for (int i = 0; i < c->nassumptions; i++)
		free(c->assumptions[i]);
	free(c->assumptions);
	for (int i = 0; i < c->nconditions; i++) {
		free(c->conditions[i]);
		free(c->condition_texts[i]);
	}
	free(c->conditions);
	free(c->condition_texts);
	for (int i = 0; i < c->nlocals; i++) {
		free(c->local_names[i]);
		free(c->local_values[i]);
	}
	free(c->local_names);
	free(c->local_values);
	free(c->reason);
	memset(c, 0, sizeof(*c));
}

void cost_loop_latency(const struct cost_prices *prices, const mpq_t iterations, mpq_t cost)
{
	if (!prices->has[COEF_L])
		return;
	mpq_t x;
	mpq_init(x);
	mpq_set_si(x, -1, 1);
	mpq_add(x, x, iterations);
	mpq_mul(x, x, prices->coef[COEF_L]);
	mpq_add(cost, cost, x);
	mpq_clear(x);
}

int candidate_cost_totals(const struct candidate_cost *cc, const struct cost_prices *prices,
			  mpq_ptr sum[TERM_N], mpq_t cost, enum cost_value_status *priced,
			  enum cost_coef *missing)
{
	mpq_t q[TERM_N], step;
	for (int t = 0; t < TERM_N; t++)
		mpq_init(q[t]);
	mpq_init(step);
	mpq_set_ui(cost, 0, 1);
	*priced = COST_VALUE_OK;
	int bad = 0;
	for (int s = 0; s < cc->nsteps && !bad; s++) {
		const struct step_cost *sc = &cc->steps[s];
		const struct formula *f[TERM_N] = {sc->w, sc->h, sc->h_in, sc->h_out, sc->ncom};
		for (int t = 0; t < TERM_N && !bad; t++) {
			/* the values counted directly: numbers, no parameter */
			if (formula_eval(f[t], NULL, NULL, 0, q[t]) < 0)
				bad = 1;
			else
				mpq_add(sum[t], sum[t], q[t]);
		}
		/* in loops, a cost that prices messages prices each run's loads
		 * with its latency (cost_prices_runs) */
		bool runs = prices->model->messages != MSG_NONE && sc->iterations;
		if (!bad && *priced == COST_VALUE_OK) {
			*priced = runs ? cost_prices_runs(prices, (const mpq_t *)q, sc->loads,
							  sc->run_end, sc->nruns, step, missing)
				       : cost_prices_step(prices, (const mpq_t *)q, sc->loads,
							  sc->nloads, step, missing);
			mpq_add(cost, cost, step);
		}
		/* in loops: l once per iteration, the other terms summed already */
		if (!bad && *priced == COST_VALUE_OK && sc->iterations && !runs) {
			mpq_t n;
			mpq_init(n);
			if (formula_eval(sc->iterations, NULL, NULL, 0, n) < 0)
				bad = 1;
			else
				cost_loop_latency(prices, n, cost);
			mpq_clear(n);
		}
	}
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(step);
	return bad ? -1 : 0;
}
