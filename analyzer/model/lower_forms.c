/* Lowering: the checker's quasi-affine forms by position (struct model_aff),
 * and the quotients of a statement's subscripts (see lower_internal.h). */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/model/lower_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"

char *lw_affine_text(struct lowering *lw, struct ast_var *const *vars, const struct affine *f)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	int r = affine_print(t.f, f, lw->cs, vars);
	char *text = text_close(&t);
	if (r < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* A positional form being summed up: one coefficient per term, merged. */
struct pos_acc {
	struct model_aff *out;
	int cap;
	bool overflow, nomem;
	bool unknown;        /* a quotient the statement's quotients do not know */
};

/* A += C * the symbol (KIND, INDEX), times the value of parameter BY - 1
 * when BY (model_term.by). */
static void acc_term_by(struct pos_acc *a, enum model_sym kind, int index, long long c, int by)
{
	struct model_aff *o = a->out;
	for (int i = 0; i < o->nterms; i++)
		if (o->terms[i].kind == kind && o->terms[i].index == index && o->terms[i].by == by) {
			a->overflow |= __builtin_add_overflow(o->terms[i].coef, c, &o->terms[i].coef);
			return;
		}
	if (o->nterms == a->cap) {
		int cap = 2 * a->cap + 4;
		struct model_term *t = realloc(o->terms, (size_t)cap * sizeof(*t));
		if (!t) {
			a->nomem = true;
			return;
		}
		o->terms = t;
		a->cap = cap;
	}
	o->terms[o->nterms++] = (struct model_term){kind, index, c, by};
}

static void acc_term(struct pos_acc *a, enum model_sym kind, int index, long long c)
{
	acc_term_by(a, kind, index, c, 0);
}

/* The model's parameter of the loop variable a level quotient FL divides
 * by, plus 1 (model_term.by): the checker's loop parameters come after the
 * sizes in the same order as the model's. */
static int level_by(const struct affine_floor *fl)
{
	return fl->den_term.index + 1;
}

/* The variable of quotient FL by a constant, or its value in this case (by
 * a size): -1 when the statement's quotients do not know it. */
static int quotient_var(const struct quotients *q, const struct affine_floor *fl)
{
	for (int k = 0; q && k < q->nvar; k++)
		if (q->var[k] == fl)
			return q->nvars + k;
	return -1;
}

static bool quotient_value(const struct quotients *q, const struct affine_floor *fl, int *v)
{
	for (int k = 0; q && k < q->nsym; k++)
		if (q->sym[k] == fl) {
			*v = q->q[k];
			return true;
		}
	return false;
}

/* A += SCALE * F, a quotient by a constant its variable, one by a size its
 * value in the case (a remainder num - q*den). */
static void acc_affine(struct lowering *lw, struct pos_acc *a, const struct affine *f, long long scale)
{
	long long c;
	a->overflow |= __builtin_mul_overflow(f->constant, scale, &c) ||
		       __builtin_add_overflow(a->out->constant, c, &a->out->constant);
	for (int i = 0; i < f->nterms; i++) {
		const struct affine_term *t = &f->terms[i];
		a->overflow |= __builtin_mul_overflow(t->coef, scale, &c);
		int q;
		switch (t->kind) {
		case SYM_PARAM:
			acc_term(a, MODEL_PARAM, t->index, c);
			break;
		case SYM_GRID_AXIS:
			acc_term(a, MODEL_AXIS, t->index, c);
			break;
		case SYM_FLOOR:
			if (t->floor->level) {
				/* its quotient's variable; a remainder num - d*s*q */
				int v = quotient_var(lw->quo, t->floor);
				long long cd;
				if (v < 0) {
					a->unknown = true;
				} else if (t->floor->kind == FLOOR_DIV) {
					acc_term(a, MODEL_VAR, v, c);
				} else {
					acc_affine(lw, a, &t->floor->num, c);
					a->overflow |= __builtin_mul_overflow(c, -t->floor->den_term.coef, &cd);
					acc_term_by(a, MODEL_VAR, v, cd, level_by(t->floor));
				}
			} else if (t->floor->den) {
				int v = quotient_var(lw->quo, t->floor);
				if (v < 0)
					a->unknown = true;
				else
					acc_term(a, MODEL_VAR, v, c);
			} else if (!quotient_value(lw->quo, t->floor, &q)) {
				a->unknown = true;
			} else if (t->floor->kind == FLOOR_DIV) {
				long long cq;
				a->overflow |= __builtin_mul_overflow(c, (long long)q, &cq) ||
					       __builtin_add_overflow(a->out->constant, cq,
								      &a->out->constant);
			} else {
				long long cq;
				acc_affine(lw, a, &t->floor->num, c);
				a->overflow |= __builtin_mul_overflow(c, -(long long)q, &cq);
				acc_term(a, t->floor->den_term.kind == SYM_PARAM ? MODEL_PARAM : MODEL_AXIS,
					 t->floor->den_term.index, cq);
			}
			break;
		default:
			acc_term(a, MODEL_VAR, t->index, c);
			break;
		}
	}
}

static int acc_finish(struct lowering *lw, struct pos_acc *pa);

/* F by position, plus VCOEF times statement variable VAR (none when VCOEF is
 * 0), all times SCALE, plus ADD: coefficients and constant checked for
 * overflow.  Returns 0, or -1 (and the lowering refused) on overflow or when
 * out of memory; *OUT is then empty. */
int lw_pos_aff(struct lowering *lw, struct model_aff *out, const struct affine *f,
		   long long scale, int var, long long vcoef, long long add)
{
	memset(out, 0, sizeof(*out));
	struct pos_acc a = {.out = out};
	if (f)
		acc_affine(lw, &a, f, scale);
	if (vcoef)
		acc_term(&a, MODEL_VAR, var, vcoef);
	a.overflow |= __builtin_add_overflow(out->constant, add, &out->constant);
	return acc_finish(lw, &a);
}

/* SIGN * num + KDEN * den + ADD of quotient FL by a size, by position. */
static int case_aff(struct lowering *lw, struct model_aff *out, const struct affine_floor *fl,
		    long long sign, long long kden, long long add)
{
	memset(out, 0, sizeof(*out));
	struct pos_acc a = {.out = out};
	acc_affine(lw, &a, &fl->num, sign);
	struct affine_term t = fl->den_term;
	t.coef = kden;
	struct affine d = {add, kden != 0, &t};
	acc_affine(lw, &a, &d, 1);
	return acc_finish(lw, &a);
}

/* The definition of quotient variable VAR = floor(num / (d*s)) of level
 * quotient FL: SIGN 1, num - d*s*VAR >= 0; SIGN -1, d*s*VAR + d*s - 1 - num
 * >= 0. */
static int level_aff(struct lowering *lw, struct model_aff *out, const struct affine_floor *fl,
		     long long sign, int var)
{
	memset(out, 0, sizeof(*out));
	struct pos_acc a = {.out = out};
	long long d = fl->den_term.coef;
	acc_affine(lw, &a, &fl->num, sign);
	acc_term_by(&a, MODEL_VAR, var, -sign * d, level_by(fl));
	if (sign < 0) {
		acc_term(&a, MODEL_PARAM, fl->den_term.index, d);
		a.overflow |= __builtin_add_overflow(out->constant, -1, &out->constant);
	}
	return acc_finish(lw, &a);
}

/* The form A summed up, compacted; 0, or -1 (the lowering failed, the form
 * cleared) on overflow, a quotient unknown or out of memory. */
static int acc_finish(struct lowering *lw, struct pos_acc *pa)
{
	struct pos_acc a = *pa;
	struct model_aff *out = a.out;
	int n = 0;
	for (int i = 0; i < out->nterms; i++)
		if (out->terms[i].coef != 0)
			out->terms[n++] = out->terms[i];
	out->nterms = n;
	if (!out->terms && !a.nomem)
		out->terms = calloc(1, sizeof(*out->terms));
	if (!out->terms || a.nomem) {
		fail_nomem(&lw->fail);
	} else if (a.unknown) {
		fail_set(&lw->fail, FAIL_ERROR, "a quotient in a subscript has no variable");
	} else if (a.overflow) {
		fail_set(&lw->fail, FAIL_REFUSED, "a coefficient or constant does not fit in 64 bits");
	} else {
		return 0;
	}
	model_aff_clear(out);
	return -1;
}


/* Adds the quotients of F not yet known to Q: those by a constant as
 * variables (inner ones first), those by a size at their least value. */
static void gather_quotients(struct lowering *lw, struct quotients *q, const struct affine *f)
{
	for (int i = 0; i < f->nterms && !failed(&lw->fail); i++) {
		const struct affine_floor *fl = f->terms[i].floor;
		int v;
		if (f->terms[i].kind != SYM_FLOOR)
			continue;
		gather_quotients(lw, q, &fl->num);
		if ((fl->den || fl->level) && quotient_var(q, fl) >= 0) {
			continue;   /* known */
		} else if (fl->den || fl->level) {
			if (q->nvar == LOWER_MAX_QUOTIENTS) {
				fail_set(&lw->fail, FAIL_REFUSED, "more than %d quotients in one statement",
					 LOWER_MAX_QUOTIENTS);
				return;
			}
			q->var[q->nvar++] = fl;
		} else if (!fl->den && !quotient_value(q, fl, &v)) {
			if (!fl->proven) {
				fail_set(&lw->fail, FAIL_REFUSED, "the range of a quotient by a size was not "
					 "proven (the bounds check did not run)");
				return;
			}
			if (q->nsym == LOWER_MAX_CASES) {
				fail_set(&lw->fail, FAIL_REFUSED, "too many quotients by sizes in one statement");
				return;
			}
			q->sym[q->nsym] = fl;
			q->q[q->nsym++] = fl->qlo;
		}
	}
}

/* The quotients of REF's subscripts added to Q; false (refused) when its
 * quotients by sizes, from FROM on, make more than LOWER_MAX_CASES cases. */
bool lw_ref_quotients(struct lowering *lw, struct quotients *q, const struct ref_info *ref, int from)
{
	for (int d = 0; d < ref->array->rank; d++)
		gather_quotients(lw, q, &ref->subs[d]);
	long cases = 1;
	for (int k = from; k < q->nsym && cases <= LOWER_MAX_CASES; k++)
		cases *= q->sym[k]->qhi - q->sym[k]->qlo + 1;
	if (cases > LOWER_MAX_CASES && !failed(&lw->fail))
		fail_set(&lw->fail, FAIL_REFUSED, "the quotients by sizes of one reference make more "
			 "than %d cases", LOWER_MAX_CASES);
	return !failed(&lw->fail);
}

bool lw_cond_quotients(struct lowering *lw, struct quotients *q, const struct ast_quant *forall)
{
	for (int k = 0; forall && forall->cond && k < forall->cond->natoms; k++)
		gather_quotients(lw, q, &forall->cond->atoms[k].f);
	return !failed(&lw->fail);
}

/* The next case of the quotients by sizes Q->sym[from..nsym); false after
 * the last. */
bool lw_next_quotient_case(struct quotients *q, int from)
{
	for (int k = from; k < q->nsym; k++) {
		if (q->q[k] < q->sym[k]->qhi) {
			q->q[k]++;
			return true;
		}
		q->q[k] = q->sym[k]->qlo;
	}
	return false;
}

void lw_add_cons(struct lowering *lw, struct model_space *s, struct model_aff *f)
{
	if (model_cons_add(&s->cons, &s->ncons, MODEL_GE0, f, 0) < 0)
		fail_nomem(&lw->fail);
	model_aff_clear(f);
}

/* Into S: the variables of the quotients by constants Q->var[from..to),
 * with their definitions 0 <= num - den*e <= den - 1 when DEFINE, and the
 * case of the quotients by sizes Q->sym[sfrom..sto): 0 <= num - q*den <=
 * den - 1. */
void lw_add_quotients(struct lowering *lw, const struct ast_stmt *st, struct model_space *s,
			  const struct quotients *q, int from, int to, bool define, int sfrom, int sto)
{
	for (int k = from; k < to && !failed(&lw->fail); k++) {
		const struct affine_floor *fl = q->var[k];
		char *text = floor_to_string(fl, lw->cs, st->vars), *name = NULL;
		/* a name of its own in S, for the counting engine's reasons */
		if (!text || asprintf(&name, "quotient %d, %s", k + 1, text) < 0)
			name = NULL;
		if (!name || model_space_add_var(s, name, q->nvars + k) < 0)
			fail_nomem(&lw->fail);
		free(text);
		free(name);
		struct model_aff lo, hi;
		if (!define || failed(&lw->fail))
			continue;
		if (fl->level) {
			if (level_aff(lw, &lo, fl, 1, q->nvars + k) < 0)
				return;
			lw_add_cons(lw, s, &lo);
			if (level_aff(lw, &hi, fl, -1, q->nvars + k) < 0)
				return;
			lw_add_cons(lw, s, &hi);
			continue;
		}
		if (lw_pos_aff(lw, &lo, &fl->num, 1, q->nvars + k, -fl->den, 0) < 0)
			return;
		lw_add_cons(lw, s, &lo);
		if (lw_pos_aff(lw, &hi, &fl->num, -1, q->nvars + k, fl->den, fl->den - 1) < 0)
			return;
		lw_add_cons(lw, s, &hi);
	}
	for (int k = sfrom; k < sto && !failed(&lw->fail); k++) {
		const struct affine_floor *fl = q->sym[k];
		long long qv = q->q[k];
		struct model_aff lo, hi;
		if (case_aff(lw, &lo, fl, 1, -qv, 0) < 0)
			return;
		lw_add_cons(lw, s, &lo);
		if (case_aff(lw, &hi, fl, -1, qv + 1, -1) < 0)
			return;
		lw_add_cons(lw, s, &hi);
	}
}
