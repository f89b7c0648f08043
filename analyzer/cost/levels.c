/* A superstep in a doubling loop whose conditions divide by the loop's
 * variable, on the symbolic grid (cost_level_step).
 *
 * Level s of `for s = 1, 2, 4, ... < B`, B = 2^lg_B, is counted as a
 * program of its own (analyzer/model/levels.h): its formulas are exact for
 * every s >= 1 and H >= 1, and those of level s where B = 2*s*H.  The
 * levels are s = 1 (H = B/2), s = B/2 (H = 1) and, between them, those
 * with s >= 2 and H >= 2; for B = 2 the one level s = H = 1.  Each class
 * is the level formula simplified where s and H are in it, which must then
 * leave its conditions free of s and H: the first and the last are that
 * formula at their s and H, the middle ones its sum over s = 2^k, k = 1 ..
 * lg_B - 2, with H = B/(2*s), term by term (formula_sum_powers): exact for
 * every power of two B, stated under that assumption. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/id.h>
#include <isl/set.h>
#include <isl/space.h>

#include "analyzer/cost/cost_internal.h"
#include "analyzer/formula/formula.h"
#include "analyzer/model/levels.h"
#include "analyzer/util/text.h"

__isl_give isl_set *cost_one_or_more(isl_ctx *ctx, const char *S, const char *H, bool s_one,
				     bool h_one)
{
	isl_space *sp = isl_space_params_alloc(ctx, 2);
	sp = isl_space_set_dim_id(sp, isl_dim_param, 0, isl_id_alloc(ctx, S, NULL));
	sp = isl_space_set_dim_id(sp, isl_dim_param, 1, isl_id_alloc(ctx, H, NULL));
	isl_set *set = isl_set_universe(sp);
	for (unsigned k = 0; k < 2; k++)
		set = (k ? h_one : s_one) ? isl_set_fix_si(set, isl_dim_param, k, 1)
					  : isl_set_lower_bound_si(set, isl_dim_param, k, 2);
	return set;
}

/* {[B] : LO <= B <= HI}, no upper bound for HI < 0. */
static __isl_give isl_set *bound_range(isl_ctx *ctx, const char *B, int lo, int hi)
{
	isl_space *sp = isl_space_params_alloc(ctx, 1);
	sp = isl_space_set_dim_id(sp, isl_dim_param, 0, isl_id_alloc(ctx, B, NULL));
	isl_set *set = isl_set_lower_bound_si(isl_set_universe(sp), isl_dim_param, 0, lo);
	return hi >= 0 ? isl_set_upper_bound_si(set, isl_dim_param, 0, hi) : set;
}

/* The names and values a level's formulas are summed with. */
struct level_names {
	isl_ctx *ctx;
	const char *S, *R, *H, *B, *K;
	struct formula *one, *half, *per;   /* 1, B/2, B/(2*S) */
	struct formula *twoh;               /* 2*H, R's value */
};

/* F (kept) at one level: simplified where S and H are in the class
 * (S_ONE, H_ONE), the one of them that is 1 written as 1 first, the
 * other as V; NULL when a condition keeps S or H or on failure. */
static struct formula *at_level(const struct level_names *ln, const struct formula *f,
				bool s_one, bool h_one, const struct formula *v)
{
	isl_set *cls = cost_one_or_more(ln->ctx, ln->S, ln->H, s_one, h_one);
	struct formula *g = cls ? formula_gist(f, cls) : NULL;
	isl_set_free(cls);
	const char *first = s_one ? ln->S : ln->H, *second = s_one ? ln->H : ln->S;
	struct formula *a = formula_subst(g, first, ln->one);
	struct formula *b = formula_subst(a, second, v);
	formula_free(g);
	formula_free(a);
	if (b && (formula_involves(b, ln->S) || formula_involves(b, ln->H))) {
		formula_free(b);
		return NULL;
	}
	return b;
}

/* F (kept) where LO <= B <= HI (no upper bound for HI < 0), undefined
 * elsewhere, its zero outside its pieces written out within. */
static struct formula *on_bound(const struct level_names *ln, const struct formula *f, int lo,
				int hi)
{
	isl_set *range = bound_range(ln->ctx, ln->B, lo, hi);
	struct formula *r = range ? formula_on(f, range) : NULL;
	isl_set_free(range);
	return r;
}

/* Whether the formula of B >= 4, MANY, at B = B0 and lg_B = K0 is V's
 * value at B = B0 (formula_equal's answer: 1 proven). */
static int agrees_at(const struct level_names *ln, const struct formula *many, long b0, long k0,
		     const struct formula *v)
{
	struct formula *b = formula_const_si(b0), *k = formula_const_si(k0);
	struct formula *mb = formula_subst(many, ln->B, b);
	struct formula *mk = formula_subst(mb, ln->K, k);
	struct formula *vb = formula_subst(v, ln->B, b);
	/* where the general formula has no piece at B0 (its pieces start at
	 * B = 4) it says nothing there: no agreement */
	int r = !mk || !vb ? -1 : formula_covers(mk, vb) != 1 ? 0 : formula_equal(mk, vb);
	struct formula *all[] = {b, k, mb, mk, vb};
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		formula_free(all[i]);
	return r;
}

/* The sum of F (kept), a level's formula, over every level; NULL where it
 * has none here. */
static struct formula *level_sum(const struct level_names *ln, const struct formula *f)
{
	struct formula *only = at_level(ln, f, true, true, ln->one);
	struct formula *first = at_level(ln, f, true, false, ln->half);
	struct formula *last = at_level(ln, f, false, true, ln->half);
	isl_set *cls = cost_one_or_more(ln->ctx, ln->S, ln->H, false, false);
	struct formula *g = cls ? formula_gist(f, cls) : NULL;
	isl_set_free(cls);
	struct formula *mid_f = formula_subst(g, ln->H, ln->per);
	struct formula *mid = formula_sum_powers(mid_f, ln->S, ln->K, ln->half);
	formula_free(g);
	formula_free(mid_f);
	if (mid && (formula_involves(mid, ln->S) || formula_involves(mid, ln->H))) {
		formula_free(mid);
		mid = NULL;
	}
	struct formula *fm = formula_add(first, mid);
	struct formula *many = formula_add(fm, last);
	struct formula *zero = formula_const_si(0);
	/* B = 1 (no level) and B = 2 (one) in the formula of B >= 4 where
	 * it gives their values there (lg_B = 0, 1): one piece, not three */
	int from = 4;
	if (many && agrees_at(ln, many, 2, 1, only) == 1)
		from = agrees_at(ln, many, 1, 0, zero) == 1 ? 1 : 2;
	/* each part on its range of B, a zero-outside one with its zero
	 * written out there (formula_on: formula_restrict would leave it
	 * undefined where it has no piece) */
	struct formula *none = zero && from > 1 ? on_bound(ln, zero, 1, 1) : NULL;
	struct formula *two = only && from > 2 ? on_bound(ln, only, 2, 2) : NULL;
	struct formula *gen = many ? on_bound(ln, many, from, -1) : NULL;
	struct formula *lo = none && two ? formula_join(none, two) : NULL;
	struct formula *r = !gen ? NULL : from == 1 ? formula_copy(gen)
				      : from == 2 ? (none ? formula_join(none, gen) : NULL)
				      : (lo ? formula_join(lo, gen) : NULL);
	struct formula *all[] = {only, first, last, mid, fm, many, zero, none, two, gen, lo};
	for (size_t k = 0; k < sizeof(all) / sizeof(*all); k++)
		formula_free(all[k]);
	return r;
}

/* One level's formula F (kept) in the loop's variable and B: H written
 * B/(2*s); NULL where a condition keeps H. */
static struct formula *per_level(const struct level_names *ln, const struct formula *f)
{
	return f ? formula_subst(f, ln->H, ln->per) : NULL;
}

/* Whether TEXT (formula grammar, or people's) names NAME. */
static bool text_names(const char *text, const char *name)
{
	size_t n, len = strlen(name);
	for (const char *p = text, *at; (at = text_next_name(&p, &n)) != NULL;)
		if (n == len && strncmp(at, name, n) == 0)
			return true;
	return false;
}

/* Whether TEXT names s, R or H, the level's own symbols. */
static bool names_level(const struct level_names *ln, const char *text)
{
	return text_names(text, ln->S) || text_names(text, ln->R) || text_names(text, ln->H);
}

/* J refused about WHAT: one level's formulas rest on TEXT, which changes
 * from level to level. */
static void rests_on_level(struct job *j, const char *text, const char *what)
{
	char *why = NULL;
	if (asprintf(&why, "one level's formulas rest on %s, which changes from level to level",
		     text) < 0)
		why = NULL;
	cost_job_fail(j, COST_REFUSED, why, what);
}

/* What the level's formulas rest on (SUB's), onto OUT: refused (-1, with
 * the job failed) where it names s, R or H. */
static int level_assumptions(struct job *j, const struct level_names *ln,
			     const struct candidate_cost *sub, struct candidate_cost *out,
			     const char *what)
{
	if (sub->nlocals > 0) {
		char *why = NULL;
		if (asprintf(&why, "one level's formulas keep %s, which its sum over the levels "
				   "does not write",
			     sub->local_names[0]) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, what);
		return -1;
	}
	for (int k = 0; k < sub->nconditions; k++) {
		if (names_level(ln, sub->conditions[k])) {
			rests_on_level(j, sub->condition_texts[k], what);
			return -1;
		}
		char *c = strdup(sub->conditions[k]), *t = strdup(sub->condition_texts[k]);
		if (cost_add_condition(out, c, t) < 0) {
			cost_job_fail(j, COST_FAILED, NULL, what);
			return -1;
		}
	}
	for (int k = 0; k < sub->nassumptions; k++) {
		if (names_level(ln, sub->assumptions[k])) {
			rests_on_level(j, sub->assumptions[k], what);
			return -1;
		}
		if (cost_add_assumption(out, strdup(sub->assumptions[k])) < 0) {
			cost_job_fail(j, COST_FAILED, NULL, what);
			return -1;
		}
	}
	return 0;
}

/* F (kept) with R written 2*H; NULL on failure. */
static struct formula *without_r(const struct level_names *ln, const struct formula *f)
{
	return f ? formula_subst(f, ln->R, ln->twoh) : NULL;
}

/* The sums of SUB's one superstep into SC, with one level's formulas. */
static void level_sums(struct job *j, const struct level_names *ln, const struct step_cost *one,
		       struct step_cost *sc, const char *what)
{
	const struct formula *from[6] = {one->w, one->h, one->h_in, one->h_out, one->ncom, one->cost};
	struct formula *at[6];
	bool ok = true;
	for (int k = 0; k < 6; k++)
		ok &= (at[k] = without_r(ln, from[k])) != NULL;
	struct formula **to[5] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out, &sc->ncom};
	const char *names[5] = {"w", "h", "h_in", "h_out", "NCom"};
	if (!ok)
		cost_isl_op_failed(j, what);
	for (int k = 0; k < 5 && !failed(&j->fail); k++) {
		*to[k] = level_sum(ln, at[k]);
		if (!*to[k]) {
			char *why = NULL;
			if (asprintf(&why, "one level's %s is not one polynomial in %s and %s = %s/(2*%s) "
					   "on the levels between the first and the last (a floor of "
					   "them, a maximum, a case that only some levels meet, or a "
					   "power of %s past %d): its sum over the levels has no closed "
					   "form here; -D counts it",
				     names[k], ln->S, ln->H, ln->B, ln->S, ln->S, FORMULA_SUM_POWERS_MAX) < 0)
				why = NULL;
			cost_job_fail(j, COST_REFUSED, why, what);
		}
	}
	sc->per_w = per_level(ln, at[0]);
	sc->per_h = per_level(ln, at[1]);
	sc->per_ncom = per_level(ln, at[4]);
	sc->per_cost = per_level(ln, at[5]);
	for (int k = 0; k < 6; k++)
		formula_free(at[k]);
	if (!sc->per_w || !sc->per_h || !sc->per_ncom || !sc->per_cost) {
		/* one level's formulas shown only all together */
		struct formula **per[4] = {&sc->per_w, &sc->per_h, &sc->per_ncom, &sc->per_cost};
		for (int k = 0; k < 4; k++) {
			formula_free(*per[k]);
			*per[k] = NULL;
		}
	}
	sc->iterations = formula_param(ln->K);
	if (!failed(&j->fail) && !sc->iterations)
		cost_isl_op_failed(j, what);
	if (!failed(&j->fail))
		cost_loop_cost(j, sc);
}

void cost_level_step(struct job *j, int cand, int s, struct step_cost *sc,
		     struct candidate_cost *out)
{
	const struct model *m = j->m;
	const char *what = m->steps[s].name, *bound = NULL;
	if (j->req->messages)
		sc->msgs_why = strdup("a superstep in loops: values only (-D every size)");
	/* the level's model first: its refusal names the loop's shape */
	struct model_level lm;
	char *reason = NULL;
	int st = model_level(m, cand, s, &lm, &reason);
	if (st != 0) {
		cost_job_fail(j, st > 0 ? COST_REFUSED : COST_FAILED, reason, what);
		return;
	}
	if (!cost_doubling_loop(j, s, &bound)) {
		cost_job_fail(j, COST_REFUSED, model_step_level_reason(m, s), what);
		model_free(lm.m);
		return;
	}
	const char *K = cost_doubling_name(j, bound);
	struct cost_request req = *j->req;
	req.explain = false;
	req.messages = false;
	req.hierarchy = false;
	req.per_process = false;
	req.values = NULL; /* M's, not the level's (the caller's request has none) */
	/* the symbolic grid's attempt on a concrete grid: its levels too keep
	 * the engine's operation limit */
	req.engine_limit = j->req->engine_limit || j->fixed != NULL;
	struct candidate_cost sub;
	if (!K) {
		cost_doubling_failed(j, what);
		model_free(lm.m);
		return;
	}
	enum cost_status cs = cost_candidate(j->engine, lm.m, 0, &req, &sub);
	if (cs != COST_OK) {
		char *why = NULL;
		if (asprintf(&why, "one level of it (%s a power of two, %s = %s/(2*%s)): %s",
			     m->loops[m->steps[s].loop].var, lm.h, bound,
			     m->loops[m->steps[s].loop].var, sub.reason ? sub.reason : "no formula") < 0)
			why = NULL;
		cost_job_fail(j, cs, why, what);
		j->timed_out |= sub.timed_out;
	} else {
		struct level_names ln = {j->engine->ctx, lm.s, lm.r, lm.h, bound, K,
					 formula_const_si(1), NULL, NULL, NULL};
		struct formula *b = formula_param(bound);
		struct formula *sv = formula_param(lm.s);
		struct formula *s2 = formula_pow(sv, -1);
		mpq_t half;
		mpq_init(half);
		mpq_set_ui(half, 1, 2);
		ln.half = formula_scale(b, half);
		struct formula *bs = formula_mul(b, s2);
		ln.per = formula_scale(bs, half);
		mpq_clear(half);
		struct formula *hv = formula_param(lm.h), *two = formula_const_si(2);
		ln.twoh = formula_mul(hv, two);
		formula_free(hv);
		formula_free(two);
		formula_free(b);
		formula_free(sv);
		formula_free(s2);
		formula_free(bs);
		if (!ln.one || !ln.half || !ln.per || !ln.twoh)
			cost_isl_op_failed(j, what);
		else if (level_assumptions(j, &ln, &sub, out, what) == 0)
			level_sums(j, &ln, &sub.steps[0], sc, what);
		formula_free(ln.one);
		formula_free(ln.half);
		formula_free(ln.per);
		formula_free(ln.twoh);
	}
	candidate_cost_clear(&sub);
	model_free(lm.m);
}
