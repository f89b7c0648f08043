/* Brute-force verification of a candidate's formulas (see verify.h). */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/cost/verify.h"
#include "analyzer/util/session.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

#include <gmp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/model/relations.h"

/* Parameter values of one point: the model's parameters, its axes, g and l. */
struct point {
	int n;
	const char **names;
	long long *values;
};

static unsigned next(unsigned *seed)
{
	/* xorshift32: reproducible across platforms, unlike rand(). */
	unsigned x = *seed ? *seed : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*seed = x;
	return x;
}

static long draw(unsigned *seed, long lo, long hi)
{
	return lo + (long)(next(seed) % (unsigned)(hi - lo + 1));
}

static int point_value(const struct point *p, const char *name, long long *v)
{
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->names[i], name) == 0) {
			*v = p->values[i];
			return 0;
		}
	return -1;
}

/* Whether the point satisfies the model's assumptions (ISL, and its facts
 * at values) and the candidate's conditions (formula grammar). */
static int satisfies(const struct point *p, const struct model *m,
		     __isl_keep isl_set *assumptions, const struct candidate_cost *cc)
{
	/* draw_point's order: the axes, then the parameters */
	if (!model_facts_hold(m, p->values + m->naxes, p->values))
		return 0;
	isl_set *s = isl_set_copy(assumptions);
	for (int i = 0; i < p->n; i++) {
		int pos = isl_set_find_dim_by_name(s, isl_dim_param, p->names[i]);
		if (pos >= 0)
			s = isl_set_fix_si(s, isl_dim_param, pos, (int)p->values[i]);
	}
	int ok = isl_set_is_empty(s) == isl_bool_false;
	isl_set_free(s);
	for (int i = 0; cc && i < cc->nconditions && ok; i++) {
		struct formula_expr *e = formula_parse_expr(cc->conditions[i], NULL);
		mpq_t v;
		mpq_init(v);
		ok = e && formula_expr_eval(e, p->names, p->values, p->n, v) == 0 && mpq_sgn(v) != 0;
		mpq_clear(v);
		formula_expr_free(e);
	}
	return ok;
}

/* The least value of parameter NAME in ASSUMPTIONS (kept) once the values
 * of P[0..n) are fixed, every other parameter free, into *LO; false when
 * there is none (no such parameter, no lower bound, or no point at all). */
static bool least(__isl_keep isl_set *assumptions, const struct point *p, const char *name,
		  long long *lo)
{
	int pos = isl_set_find_dim_by_name(assumptions, isl_dim_param, name);
	if (pos < 0)
		return false;
	isl_set *s = isl_set_copy(assumptions);
	for (int i = 0; s && i < p->n; i++) {
		int at = isl_set_find_dim_by_name(s, isl_dim_param, p->names[i]);
		if (at >= 0)
			s = isl_set_fix_si(s, isl_dim_param, (unsigned)at, (int)p->values[i]);
	}
	s = isl_set_move_dims(s, isl_dim_set, 0, isl_dim_param, (unsigned)pos, 1);
	s = isl_set_project_out(s, isl_dim_param, 0, isl_set_dim(s, isl_dim_param));
	isl_pw_aff *min = s ? isl_set_dim_min(s, 0) : NULL;
	bool ok = false;
	if (min && isl_pw_aff_n_piece(min) == 1 && isl_pw_aff_is_cst(min) == isl_bool_true) {
		isl_point *pt = isl_point_zero(isl_space_domain(isl_pw_aff_get_space(min)));
		isl_val *v = isl_pw_aff_eval(isl_pw_aff_copy(min), pt);
		ok = v && isl_val_is_int(v);
		if (ok)
			*lo = isl_val_get_num_si(v);
		isl_val_free(v);
	}
	isl_pw_aff_free(min);
	return ok;
}

/* Points drawn at random before they are built (draw_point). */
enum { DRAWN_TRIES = 500 };

/* Rounds up, in P, each parameter that a condition of CC ("D divides X", X a
 * parameter; the formulas' divisibility) needs to be a multiple of D at P,
 * until every such condition holds (a few passes: k a multiple of 32*M and
 * of 32*N).  Other conditions are left to satisfies(). */
static void round_to_divisors(struct point *p, const struct candidate_cost *cc)
{
	for (int pass = 0; cc && pass < 8; pass++) {
		bool changed = false;
		for (int i = 0; i < cc->nconditions; i++) {
			const char *text = cc->condition_texts ? cc->condition_texts[i] : NULL;
			const char *sep = text ? strstr(text, " divides ") : NULL;
			if (!sep)
				continue;
			const char *x = sep + strlen(" divides ");
			int at = -1;
			for (int k = 0; k < p->n; k++)
				if (strcmp(p->names[k], x) == 0)
					at = k;
			char *d_text = strndup(text, (size_t)(sep - text));
			struct formula_expr *e = formula_parse_expr(d_text, NULL);
			mpq_t d;
			mpq_init(d);
			if (at >= 0 && e && formula_expr_eval(e, p->names, p->values, p->n, d) == 0 &&
			    mpz_cmp_ui(mpq_denref(d), 1) == 0 && mpz_sgn(mpq_numref(d)) > 0 &&
			    mpz_fits_slong_p(mpq_numref(d))) {
				long long dv = mpz_get_si(mpq_numref(d)), v = p->values[at];
				long long r = v > 0 ? (v + dv - 1) / dv * dv : dv;
				changed |= r != v;
				p->values[at] = r;
			}
			mpq_clear(d);
			formula_expr_free(e);
			free(d_text);
		}
		if (!changed)
			break;
	}
}

/* Draws a point: axes in [1, 6] on a symbolic grid (block lengths are written
 * back case by case up to AXIS >= 6, see cost.c), each parameter in [0, 24],
 * g and l at random.  BUILT: each parameter in [lo, lo + 24] instead, where
 * lo is its least value under ASSUMPTIONS (kept) given the axes and the
 * parameters drawn before it (0 without a lower bound): m >= 32*M gives m
 * near 32*M, so that a point satisfies the assumptions by construction, not
 * by luck.  The caller rejects points that miss an assumption or condition
 * (divisibility included). */
static void draw_point(struct point *p, const struct model *m, const struct cost_request *req,
		       __isl_keep isl_set *assumptions, bool built, unsigned *seed)
{
	int k = 0;
	for (int a = 0; a < m->naxes; a++) {
		p->names[k] = m->axes[a];
		p->values[k++] = req->symbolic ? draw(seed, 1, 6) : req->sizes[a];
	}
	for (int i = 0; i < model_nsizes(m); i++) {
		long long lo = 0;
		p->n = k;
		if (!built || !least(assumptions, p, m->params[i], &lo) || lo < 0 || lo > 1000000)
			lo = 0;
		p->names[k] = m->params[i];
		p->values[k++] = lo + draw(seed, 0, 24);
	}
	p->names[k] = "g";
	p->values[k++] = draw(seed, 1, 9);
	p->names[k] = "l";
	p->values[k++] = draw(seed, 0, 99);
	/* the other coefficients of the cost function, when it reads them (the
	 * default's points stay those of g and l alone) */
	const struct cost_model *cm = req->model ? req->model : cost_model_default();
	for (int c = COEF_G_I; c <= COEF_G_M; c++)
		if (cost_model_reads(cm, c)) {
			p->names[k] = cost_coef_name[c];
			p->values[k++] = draw(seed, 1, 9);
		}
	p->n = k;
}

static long count_val(__isl_take isl_set *set)
{
	isl_val *v = isl_set_count_val(set);
	isl_set_free(set);
	long long r = -1;
	if (!val_to_ll(v, &r))
		r = -1;
	return (long)r;
}

static __isl_give isl_map *fix_point(__isl_take isl_map *map, const struct point *p)
{
	for (int i = 0; i < p->n; i++) {
		int pos = isl_map_find_dim_by_name(map, isl_dim_param, p->names[i]);
		if (pos >= 0)
			map = isl_map_fix_si(map, isl_dim_param, pos, (int)p->values[i]);
	}
	return map;
}

/* --explain's quantities of one array read in a superstep, by enumeration. */
struct measured_array {
	long nocc;          /* max over the elements read of the processes reading it */
	long occurrences;   /* (process, element) pairs */
	long unowned;       /* elements read, but not by their owner */
};

/* The quantities of one superstep at one point, by enumeration; ARRAYS (when
 * asked for) in the order of --explain's: the arrays read, by number. */
struct measured {
	long w, h, h_in, h_out, ncom;
	int narrays;
	struct measured_array *arrays;
};

struct nocc_scan {
	isl_map *readers;   /* e -> q */
	long max;
	bool bad;
};

static isl_stat nocc_point(__isl_take isl_point *pt, void *user)
{
	struct nocc_scan *ns = user;
	long n = count_val(isl_set_apply(isl_set_from_point(pt), isl_map_copy(ns->readers)));
	if (n < 0)
		ns->bad = true;
	if (n > ns->max)
		ns->max = n;
	return ns->bad ? isl_stat_error : isl_stat_ok;
}

/* NOcc, occurrences and A.e of the read USE { q -> e } with ownership OWN
 * { e -> q }, both at a point: -1 in *BAD's place when a set is unbounded. */
static void measure_array(__isl_keep isl_map *use, __isl_keep isl_map *own,
			  struct measured_array *out, int *bad)
{
	struct nocc_scan ns = {isl_map_reverse(isl_map_copy(use)), 0, false};
	isl_set *read = isl_map_range(isl_map_copy(use));
	if (isl_set_foreach_point(read, &nocc_point, &ns) < 0 || ns.bad)
		*bad = 1;
	isl_map_free(ns.readers);
	out->nocc = ns.max;
	out->occurrences = count_val(isl_map_wrap(isl_map_copy(use)));
	isl_map *mine = isl_map_intersect(isl_map_copy(use), isl_map_reverse(isl_map_copy(own)));
	out->unowned = count_val(isl_set_subtract(read, isl_map_range(mine)));
	*bad |= out->occurrences < 0 || out->unowned < 0;
}

static int enumerate_step(isl_ctx *ctx, const struct model *m, int cand, int step,
			  const struct cost_request *req, const struct point *p, bool occurrences,
			  struct measured *out, char **reason)
{
	long sizes[3] = {1, 1, 1};
	for (int a = 0; a < m->naxes; a++) {
		long long v = 1;
		point_value(p, m->axes[a], &v);
		sizes[a] = (long)v;
	}
	/* the point's sizes, for the block sizes that are sizes (cyclic(nb));
	 * a condition by a loop's variable: every value, the loops' too, with
	 * no parameter left (fix_point then has nothing to fix) */
	long long *vals = calloc((size_t)m->nparams + 1, sizeof(*vals));
	bool level = m->steps[step].by_loop >= 0;
	for (int i = 0; vals && i < (level ? m->nparams : model_nsizes(m)); i++)
		point_value(p, m->params[i], &vals[i]);
	struct step_relations r;
	bool nomem = !vals;
	struct model_values mvals = {vals, sizes};
	int built = !vals ? -1
		    : level ? relations_values(ctx, m, cand, step, &mvals, &r, reason)
			    : relations_concrete_blocks(ctx, m, cand, step, sizes, vals, &r, reason);
	free(vals);
	if (built != 0) {
		if (nomem)
			*reason = strdup("out of memory");
		return -1;
	}
	long nproc = 1;
	for (int a = 0; a < m->naxes; a++)
		nproc *= sizes[a];
	long *fin = calloc((size_t)nproc, sizeof(long)), *fout = calloc((size_t)nproc, sizeof(long));
	long *work = calloc((size_t)nproc, sizeof(long));
	memset(out, 0, sizeof(*out));
	if (occurrences)
		out->arrays = calloc((size_t)r.narrays + 1, sizeof(*out->arrays));
	int bad = !fin || !fout || !work || (occurrences && !out->arrays);
	for (int a = 0; a < r.narrays && !bad; a++) {
		if (!r.use[a])
			continue;
		isl_map *own = fix_point(isl_map_copy(r.own[a]), p);
		isl_map *use = fix_point(isl_map_copy(r.use[a]), p);
		if (occurrences)
			measure_array(use, own, &out->arrays[out->narrays++], &bad);
		isl_map *remote = isl_map_subtract(use, isl_map_reverse(isl_map_copy(own)));
		long n = count_val(isl_map_wrap(isl_map_copy(remote)));
		long words = (long)m->arrays[a].words; /* h and NCom count words */
		bad |= n < 0;
		out->ncom += n * words;
		/* who sends a replicated element: relations_senders' rule, once */
		isl_map *send = r.replicated[a] ? relations_senders(&r, a, remote) : NULL;
		for (long q = 0; q < nproc && !bad; q++) {
			isl_map *mine = isl_map_copy(remote), *owned = isl_map_copy(own);
			for (int x = 0, rest = (int)q; x < m->naxes; x++) {
				int coord = (int)(rest % sizes[x]);
				rest /= (int)sizes[x];
				mine = isl_map_fix_si(mine, isl_dim_in, (unsigned)x, coord);
				owned = isl_map_fix_si(owned, isl_dim_out, (unsigned)x, coord);
			}
			long fi = count_val(isl_map_range(mine));
			long fo;
			if (!send) {
				/* the remote uses of what q owns */
				fo = count_val(isl_map_wrap(isl_map_intersect_range(
					isl_map_copy(remote), isl_map_domain(owned))));
			} else {
				isl_map_free(owned);
				isl_map *to = isl_map_copy(send);
				for (int x = 0, rest = (int)q; x < m->naxes; x++) {
					to = isl_map_fix_si(to, isl_dim_out, (unsigned)x,
							    (int)(rest % sizes[x]));
					rest /= (int)sizes[x];
				}
				fo = count_val(isl_map_domain(to));
			}
			bad |= fi < 0 || fo < 0;
			fin[q] += fi * words;
			fout[q] += fo * words;
		}
		isl_map_free(send);
		isl_map_free(remote);
		isl_map_free(own);
	}
	for (int k = 0; k < r.nwork && !bad; k++) {
		isl_map *wm = fix_point(isl_map_copy(r.work[k]), p);
		for (long q = 0; q < nproc && !bad; q++) {
			isl_map *mine = isl_map_copy(wm);
			for (int x = 0, rest = (int)q; x < m->naxes; x++) {
				mine = isl_map_fix_si(mine, isl_dim_in, (unsigned)x, (int)(rest % sizes[x]));
				rest /= (int)sizes[x];
			}
			long n = count_val(isl_map_range(mine));
			bad |= n < 0;
			work[q] += n * r.work_weight[k];
		}
		isl_map_free(wm);
	}
	for (long q = 0; q < nproc && !bad; q++) {
		long hq = req->h == H_SUM ? fin[q] + fout[q] : (fin[q] > fout[q] ? fin[q] : fout[q]);
		if (fin[q] > out->h_in)
			out->h_in = fin[q];
		if (fout[q] > out->h_out)
			out->h_out = fout[q];
		if (hq > out->h)
			out->h = hq;
		if (work[q] > out->w)
			out->w = work[q];
	}
	free(fin);
	free(fout);
	free(work);
	step_relations_clear(&r);
	if (bad) {
		free(out->arrays);
		out->arrays = NULL;
		*reason = strdup("enumeration failed (a set was unbounded at a fixed point)");
		return -1;
	}
	return 0;
}

static long step_price(const struct cost_prices *prices, const struct measured *mv);

/* The value of A at P (parameters and axes by name); false when one has none
 * or it does not fit. */
static bool aff_at(const struct model *m, const struct model_aff *a, const struct point *p,
		   long long *out)
{
	long long v = a->constant;
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		long long x, y;
		const char *name = t->kind == MODEL_PARAM ? m->params[t->index]
				 : t->kind == MODEL_AXIS  ? m->axes[t->index] : NULL;
		if (!name || point_value(p, name, &x) < 0 || __builtin_mul_overflow(x, t->coef, &y) ||
		    __builtin_add_overflow(v, y, &v))
			return false;
	}
	*out = v;
	return true;
}

/* A superstep in loops, enumerated: enumerate_step at every iteration of
 * the loops (LOOPS[D..N), their variables' values appended to P), its
 * quantities and its cost at PRICES summed into OUT and *COST. */
static int enumerate_loops(isl_ctx *ctx, const struct model *m, int cand, int step,
			   const struct cost_request *req, struct point *p, const int *loops, int n,
			   int d, const struct cost_prices *prices, struct measured *out, long *cost,
			   char **reason)
{
	if (d == n) {
		struct measured one;
		if (enumerate_step(ctx, m, cand, step, req, p, false, &one, reason) < 0)
			return -1;
		out->w += one.w;
		out->h += one.h;
		out->h_in += one.h_in;
		out->h_out += one.h_out;
		out->ncom += one.ncom;
		free(one.arrays);
		long c = step_price(prices, &one);
		*cost = c == LONG_MIN || *cost == LONG_MIN ? LONG_MIN : *cost + c;
		return 0;
	}
	const struct model_loop *lp = &m->loops[loops[d]];
	long long lo, hi;
	if (!aff_at(m, &lp->lo, p, &lo) || !aff_at(m, &lp->hi, p, &hi)) {
		*reason = strdup("enumeration failed (a loop bound has no value at the point)");
		return -1;
	}
	int at = p->n++;
	p->names[at] = m->params[lp->param];
	int r = 0;
	for (long long v = lo; v < hi && r == 0;) {
		p->values[at] = v;
		r = enumerate_loops(ctx, m, cand, step, req, p, loops, n, d + 1, prices, out, cost,
				    reason);
		if (!model_loop_next(lp, &v))
			break;
	}
	p->n--;
	return r;
}

static void describe_point(FILE *f, const struct point *p)
{
	for (int i = 0; i < p->n; i++)
		fprintf(f, "%s%s=%lld", i ? " " : "", p->names[i], p->values[i]);
}

/* Compares the formula F at P with WANT; records a mismatch. */
static void compare(struct verify_result *vr, const struct formula *f, const struct point *p,
		    long want, const char *cand, const char *step, const char *what)
{
	mpq_t v;
	mpq_init(v);
	vr->checks++;
	int defined = f && formula_eval(f, p->names, p->values, p->n, v) == 0;
	int ok = defined && mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_cmp_si(mpq_numref(v), want) == 0;
	if (!ok) {
		vr->mismatches++;
		if (!vr->first) {
			struct text t;
			if (text_open(&t) == 0) {
				FILE *s = t.f;
				char *got = defined ? mpq_get_str(NULL, 10, v) : NULL;
				fprintf(s, "candidate %s, superstep %s: %s is %s by the formula but %ld by "
					   "enumeration at ",
					cand, step, what, got ? got : "undefined", want);
				describe_point(s, p);
				free(got);
				vr->first = text_close(&t);
			}
		}
	}
	mpq_clear(v);
}

/* The cost of a superstep whose quantities were enumerated (MV), at the
 * integer coefficients of PRICES: an integer. */
static long step_price(const struct cost_prices *prices, const struct measured *mv)
{
	mpq_t q[TERM_N], cost;
	long v[TERM_N] = {mv->w, mv->h, mv->h_in, mv->h_out, mv->ncom};
	for (int t = 0; t < TERM_N; t++) {
		mpq_init(q[t]);
		mpq_set_si(q[t], v[t], 1);
	}
	mpq_init(cost);
	long r = cost_prices_value(prices, (const mpq_t *)q, cost, NULL) == COST_VALUE_OK
		 ? mpz_get_si(mpq_numref(cost)) : LONG_MIN;
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(cost);
	return r;
}

/* The values counted directly at P (cost_candidate with every value known),
 * into *OUT; -1 with VR's first failure set when they could not be. */
static int direct_values(struct count_engine *engine, const struct model *m, int cand,
			 const struct cost_request *req, const struct point *p,
			 struct candidate_cost *out, struct verify_result *vr)
{
	long long *values = calloc((size_t)m->nparams + 1, sizeof(*values));
	struct cost_request at = *req;
	at.symbolic = false;
	at.explain = false;
	at.values = values;
	for (int i = 0; values && i < model_nsizes(m); i++)
		point_value(p, m->params[i], &values[i]);
	for (int a = 0; a < m->naxes; a++) {
		long long v = 1;
		point_value(p, m->axes[a], &v);
		at.sizes[a] = (long)v;
	}
	int st = values && cost_candidate(engine, m, cand, &at, out) == COST_OK ? 0 : -1;
	free(values);
	if (st < 0 && !vr->first) {
		struct text t;
		if (text_open(&t) == 0) {
			FILE *s = t.f;
			fprintf(s, "candidate %s: no values counted directly at ", out->name);
			describe_point(s, p);
			fprintf(s, ": %s", out->reason ? out->reason : "out of memory");
			vr->first = text_close(&t);
		}
	}
	return st;
}

/* The next point for candidate CC (FORMULAS: it has them) into P: drawn at
 * random first (small sizes, cheap to enumerate), built when that keeps
 * missing (PDGEMM's m >= 32*M and 32*M divides k); the block lengths its
 * formulas kept get their values there.  Returns 0; 1 when the deadline
 * came (VR->stopped); 2 when no point small enough meets the assumptions
 * (said in VR->skipped when none was checked). */
static int next_point(isl_ctx *ctx, const struct model *m, const struct cost_request *req,
		      __isl_keep isl_set *assumptions, const struct candidate_cost *cc,
		      bool formulas, unsigned *seed, struct point *p, struct verify_result *vr)
{
	int tries = 0;
	do {
		bool built = tries >= DRAWN_TRIES;
		draw_point(p, m, req, assumptions, built, seed);
		if (built)
			round_to_divisors(p, formulas ? cc : NULL);
	} while (!satisfies(p, m, assumptions, formulas ? cc : NULL) && ++tries < 5000 &&
		 !session_ctx_stopped(ctx));
	if (session_ctx_stopped(ctx)) {
		/* the deadline stopped ISL in satisfies(): no point was refused
		 * for the assumptions, none is checked any more */
		vr->stopped = true;
		return 1;
	}
	if (tries >= 5000) {
		if (vr->points == 0)
			vr->skipped = strdup("no point small enough to enumerate satisfies the assumptions");
		return 2;
	}
	/* Block lengths the formulas kept get their values at this point. */
	for (int l = 0; formulas && l < cc->nlocals; l++) {
		struct formula_expr *e = formula_parse_expr(cc->local_values[l], NULL);
		mpq_t v;
		mpq_init(v);
		if (e && formula_expr_eval(e, p->names, p->values, p->n, v) == 0 &&
		    mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_fits_slong_p(mpq_numref(v))) {
			p->names[p->n] = cc->local_names[l];
			p->values[p->n++] = mpz_get_si(mpq_numref(v));
		}
		mpq_clear(v);
		formula_expr_free(e);
	}
	return 0;
}

/* MV's w, h, h_in, h_out, NCom and COST against the formulas of S (a
 * superstep of candidate CC), each named with HOW after it. */
static void compare_quantities(struct verify_result *vr, const struct point *p,
			       const struct candidate_cost *cc, const struct step_cost *s,
			       const struct measured *mv, long cost, const char *how)
{
	static const char *const name[] = {"w", "h", "h_in", "h_out", "NCom", "cost"};
	const struct formula *f[] = {s->w, s->h, s->h_in, s->h_out, s->ncom, s->cost};
	const long value[] = {mv->w, mv->h, mv->h_in, mv->h_out, mv->ncom, cost};
	for (int i = 0; i < 6; i++) {
		char what[64];
		/* NCom without a formula, saying why (a transpose's): none to check */
		if (!f[i] && i == 4 && s->ncom_why)
			continue;
		snprintf(what, sizeof(what), "%s%s", name[i], how);
		compare(vr, f[i], p, value[i], cc->name, s->name, what);
	}
}

/* MV, what superstep SC (NULL: no formulas) measured at P with COST,
 * against its formulas and (DC when not NULL) the values counted directly
 * at P; --explain's quantities with a formula too. */
static void compare_step(struct verify_result *vr, const struct point *p,
			 const struct candidate_cost *cc, const struct step_cost *sc,
			 const struct step_cost *d, const struct measured *mv, long cost)
{
	if (d)
		compare_quantities(vr, p, cc, d, mv, cost, " (counted directly)");
	if (!sc)
		return;
	compare_quantities(vr, p, cc, sc, mv, cost, "");
	/* --explain's: those with a formula (a refused one says so) */
	for (int k = 0; k < sc->narrays && k < mv->narrays; k++) {
		const struct array_occurrence *ao = &sc->arrays[k];
		const struct measured_array *ma = &mv->arrays[k];
		char what[96];
		snprintf(what, sizeof(what), "NOcc of %s", ao->name);
		if (ao->nocc)
			compare(vr, ao->nocc, p, ma->nocc, cc->name, sc->name, what);
		snprintf(what, sizeof(what), "the sum of NOcc.e of %s", ao->name);
		if (ao->occurrences)
			compare(vr, ao->occurrences, p, ma->occurrences, cc->name, sc->name, what);
		snprintf(what, sizeof(what), "A.e = 0 elements of %s", ao->name);
		if (ao->unowned)
			compare(vr, ao->unowned, p, ma->unowned, cc->name, sc->name, what);
	}
}

/* Superstep K of candidate CAND enumerated at P (the variables of loops
 * around other supersteps at 0) and held against its formulas (FORMULAS)
 * and DC (NULL: not counted directly); its cost added to *TOTAL.  Returns
 * 0; 1 when the deadline stopped it (VR->stopped set, the point not
 * counted); -1 when the enumeration failed (VR->first says why). */
static int verify_step(isl_ctx *ctx, const struct model *m, int cand, int k,
		       const struct cost_request *req, struct point *p,
		       const struct cost_prices *prices, const struct candidate_cost *cc,
		       bool formulas, const struct candidate_cost *dc, struct verify_result *vr,
		       long *total)
{
	struct measured mv;
	char *reason = NULL;
	const struct step_cost *sc = formulas ? &cc->steps[k] : NULL;
	int step = model_cand_step(m, cand, k);
	int loops[MODEL_MAX_LOOPS], nloops = model_step_loops(m, step, loops);
	long cost = 0;
	int got, n0 = p->n;
	/* the variables of the other loops: any value (0), so that the
	 * relations have no free parameter */
	for (int l = 0; l < m->nloops; l++) {
		bool mine = false;
		for (int x = 0; x < nloops; x++)
			mine |= loops[x] == l;
		if (!mine) {
			p->names[p->n] = m->params[m->loops[l].param];
			p->values[p->n++] = 0;
		}
	}
	if (nloops > 0) {
		/* every iteration; --explain's quantities are one iteration's
		 * functions of the loops' variables: not compared with these sums */
		memset(&mv, 0, sizeof(mv));
		got = enumerate_loops(ctx, m, cand, step, req, p, loops, nloops, 0, prices, &mv,
				      &cost, &reason);
	} else {
		got = enumerate_step(ctx, m, cand, step, req, p, sc && sc->arrays != NULL, &mv,
				     &reason);
	}
	p->n = n0;
	if (got < 0 && session_ctx_stopped(ctx)) {
		/* the deadline, not a failure: this point is not checked */
		free(reason);
		vr->stopped = true;
		vr->points--;
		return 1;
	}
	if (got < 0) {
		free(vr->first);
		vr->first = reason;
		return -1;
	}
	if (nloops == 0)
		cost = step_price(prices, &mv);
	*total = cost == LONG_MIN || *total == LONG_MIN ? LONG_MIN : *total + cost;
	compare_step(vr, p, cc, sc, dc ? &dc->steps[k] : NULL, &mv, cost);
	free(mv.arrays);
	return 0;
}

int verify_candidate(isl_ctx *ctx, struct count_engine *engine, const struct model *m, int cand,
		     const struct cost_request *req, const struct candidate_cost *cc, int npoints,
		     unsigned *seed, struct verify_result *vr)
{
	memset(vr, 0, sizeof(*vr));
	struct point p;
	bool formulas = cc->status == COST_OK;
	/* draw_point fills the first nparams + naxes + COEF_N at most; block
	 * lengths follow */
	int cap = m->nparams + m->naxes + COEF_N + (formulas ? cc->nlocals : 0);
	p.names = calloc((size_t)cap, sizeof(*p.names));
	p.values = calloc((size_t)cap, sizeof(*p.values));
	isl_set *assumptions = model_valid_set(ctx, m);
	struct cost_prices prices;
	cost_prices_init(&prices, req->model ? req->model : cost_model_default());
	int status = 0;
	if (session_ctx_stopped(ctx)) {
		vr->stopped = true;
		status = 1; /* no point: the deadline */
	} else if (!p.names || !p.values || !assumptions || (!formulas && !engine)) {
		vr->first = strdup("cannot verify: no formulas or no assumptions");
		status = -1;
	}
	for (int k = 0; k < npoints && status == 0; k++) {
		if (session_ctx_stopped(ctx)) {
			vr->stopped = true;
			break;
		}
		if (next_point(ctx, m, req, assumptions, cc, formulas, seed, &p, vr) != 0)
			break;
		vr->points++;
		/* what this point found, to take back if the deadline stops ISL
		 * while it is checked (a formula's conditions are ISL sets: an
		 * aborted test would read as a mismatch) */
		int checks0 = vr->checks, mismatches0 = vr->mismatches;
		bool had_first = vr->first != NULL;
		/* the cost function's coefficients at this point */
		for (int c = 0; c < COEF_N; c++) {
			long long v = 0;
			prices.has[c] = point_value(&p, cost_coef_name[c], &v) == 0;
			mpq_set_si(prices.coef[c], (long)v, 1);
		}
		long total = 0;
		/* the values counted directly are checked too, formula or not */
		struct candidate_cost dc = {0};
		bool direct = engine && direct_values(engine, m, cand, req, &p, &dc, vr) == 0;
		if (engine && !direct && dc.timed_out) {
			/* the deadline, not a mismatch: this point is not checked */
			vr->stopped = true;
			vr->points--;
			candidate_cost_clear(&dc);
			break;
		}
		if (engine && !direct) {
			vr->mismatches++;
			vr->checks++;
		}
		for (int k = 0; k < model_cand_nsteps(m, cand) && status == 0 && !vr->stopped; k++)
			if (verify_step(ctx, m, cand, k, req, &p, &prices, cc, formulas,
					direct ? &dc : NULL, vr, &total) < 0)
				status = -1;
		if (vr->stopped) {
			candidate_cost_clear(&dc);
			break;
		}
		if (status == 0 && formulas)
			compare(vr, cc->cost, &p, total, cc->name, "(all)", "cost");
		if (status == 0 && direct)
			compare(vr, dc.cost, &p, total, cc->name, "(all)", "cost (counted directly)");
		candidate_cost_clear(&dc);
		if (session_ctx_stopped(ctx)) {
			vr->checks = checks0;
			vr->mismatches = mismatches0;
			if (!had_first) {
				free(vr->first);
				vr->first = NULL;
			}
			vr->points--;
			vr->stopped = true;
			status = 0;
			break;
		}
	}
	isl_set_free(assumptions);
	cost_prices_clear(&prices);
	free(p.names);
	free(p.values);
	return status < 0 ? -1 : 0;
}

void verify_result_clear(struct verify_result *vr)
{
	free(vr->first);
	free(vr->skipped);
	memset(vr, 0, sizeof(*vr));
}
