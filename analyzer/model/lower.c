/* Lowering the checked specification to the polyhedral model.
 *
 * Affine forms become ISL text; conditions become ISL conditions, except
 * distribution predicates, which stay symbolic (model_pred) because the
 * distribution they name changes from candidate to candidate.  The work of a
 * statement is one unit per term of a sum (the paper's convention): the body of
 * `sum k < o : A[i][k]*B[k][j]` is one term per k, `a + b + c` is three. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/model/lower_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"

/* The largest `work` weight analyzed: --verify adds weights in 64 bits. */
enum { WORK_WEIGHT_MAX = 1000000000 };

/* Adds divisibility atom A, whose divisor is symbolic, to the model's facts. */
static void add_fact(struct lowering *lw, const struct cond_atom *a)
{
	struct model_aff f, d;
	if (lw_pos_aff(lw, &f, &a->f, 1, 0, 0, 0) < 0)
		return;
	if (lw_pos_aff(lw, &d, &a->divisor, 1, 0, 0, 0) == 0) {
		if (model_add_fact(lw->m, &f, &d) < 0)
			fail_nomem(&lw->fail);
		model_aff_clear(&d);
	}
	model_aff_clear(&f);
}

/* Adds the atoms that are plain conditions to *CONS (of *N), by position;
 * with FACTS, those whose divisor is symbolic to the model's facts. */
static void atoms_to_cons(struct lowering *lw, const struct cond_atom *atoms, int n,
			  struct model_cons **cons, int *ncons, bool facts)
{
	for (int i = 0; i < n && !failed(&lw->fail); i++) {
		const struct cond_atom *a = &atoms[i];
		enum model_cons_kind kind;
		long long divisor = 0;
		switch (a->kind) {
		case ATOM_GE0:
			kind = MODEL_GE0;
			break;
		case ATOM_EQ0:
			kind = MODEL_EQ0;
			break;
		case ATOM_NE0:
			kind = MODEL_NE0;
			break;
		case ATOM_DIVIDES:
			if (a->divisor.nterms != 0) {
				/* not affine: a fact checked at values (model_facts_hold),
				 * and written for people (print_atoms) */
				if (facts)
					add_fact(lw, a);
				continue;
			}
			kind = MODEL_DIVIDES;
			divisor = a->divisor.constant;
			break;
		default:
			continue; /* predicates: print_atoms */
		}
		struct model_aff f;
		if (lw_pos_aff(lw, &f, &a->f, 1, 0, 0, 0) < 0)
			return;
		if (model_cons_add(cons, ncons, kind, &f, divisor) < 0)
			fail_nomem(&lw->fail);
		model_aff_clear(&f);
	}
}

/* The extent of the dimensions distribution D spreads, from the first array
 * dimension any candidate lays out with it. */
static const struct affine *dist_extent(const struct checked_spec *cs, const struct ast_dist *d)
{
	for (int c = 0; c < cs->ncandidates; c++)
		for (int a = 0; a < cs->narrays; a++) {
			const struct cand_array *ca = &cs->candidates[c].arrays[a];
			for (int k = 0; ca->dims && k < ca->array->rank; k++)
				if (ca->dims[k].dist == d)
					return ca->array->extents[k]->aff;
		}
	return NULL;
}

/* Writes " and ATOM" for the atoms that are plain conditions; returns through
 * the space the distribution predicates. */
static void print_atoms(struct lowering *lw, FILE *out, struct ast_var *const *vars,
			const struct cond_atom *atoms, int n, struct model_space *preds)
{
	for (int i = 0; i < n; i++) {
		const struct cond_atom *a = &atoms[i];
		switch (a->kind) {
		case ATOM_GE0:
		case ATOM_EQ0:
		case ATOM_NE0:
			fputs(" and ", out);
			if (affine_print(out, &a->f, lw->cs, vars) < 0)
				fail_nomem(&lw->fail);
			fputs(a->kind == ATOM_GE0 ? " >= 0" : a->kind == ATOM_EQ0 ? " = 0" : " != 0", out);
			break;
		case ATOM_DIVIDES:
			if (a->divisor.nterms != 0) {
				/* A symbolic divisor is a fact for people, not an ISL condition. */
				if (preds)
					fail_set(&lw->fail, FAIL_REFUSED, "a divisibility condition by a parameter in a "
						   "quantifier is not supported by the analysis yet");
				break;
			}
			fputs(" and (", out);
			if (affine_print(out, &a->f, lw->cs, vars) < 0)
				fail_nomem(&lw->fail);
			fprintf(out, ") mod %lld = 0", a->divisor.constant);
			break;
		case ATOM_OWNER:
			if (!preds) {
				fail_set(&lw->fail, FAIL_REFUSED, "%s", "a distribution predicate in an assumption is not "
							  "supported by the analysis");
				break;
			}
			if (!dist_extent(lw->cs, a->dist)) {
				fail_set(&lw->fail, FAIL_REFUSED, "distribution %s lays out no array, so the extent it "
					   "splits is unknown", a->dist->name);
				break;
			}
			char *idx = lw_affine_text(lw, vars, &a->f), *val = lw_affine_text(lw, vars, &a->value);
			if (!idx || !val || model_space_add_pred(preds, a->dist->index, idx, val) < 0)
				fail_nomem(&lw->fail);
			else
				preds->preds[preds->npreds - 1].negated = a->negated;
			free(idx);
			free(val);
			struct model_aff fi = {0}, fv = {0};
			if (!failed(&lw->fail) && lw_pos_aff(lw, &fi, &a->f, 1, 0, 0, 0) == 0) {
				if (lw_pos_aff(lw, &fv, &a->value, 1, 0, 0, 0) == 0 &&
				    model_pred_set_affs(preds, preds->npreds - 1, &fi, &fv) < 0)
					fail_nomem(&lw->fail);
				model_aff_clear(&fv);
			}
			model_aff_clear(&fi);
			break;
		}
	}
}

/* The condition of the quantifiers Q[0..n): ranges and conditions. */
static char *quant_cond(struct lowering *lw, struct ast_var *const *vars,
			const struct ast_quant *const *q, int n, struct model_space *preds)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	fputs("true", t.f);
	for (int k = 0; k < n; k++) {
		for (int v = 0; v < q[k]->nvars; v++) {
			const struct ast_var *var = q[k]->vars[v];
			fputs(" and ", t.f);
			if (affine_print(t.f, var->lo_aff, lw->cs, vars) < 0)
				fail_nomem(&lw->fail);
			fprintf(t.f, " <= %s < ", var->name);
			if (affine_print(t.f, var->hi_aff, lw->cs, vars) < 0)
				fail_nomem(&lw->fail);
		}
		if (q[k]->cond)
			print_atoms(lw, t.f, vars, q[k]->cond->atoms, q[k]->cond->natoms, preds);
	}
	return text_close(&t);
}

/* The variables of Q[0..n), in order. */
static const char **quant_vars(const struct ast_quant *const *q, int n, int *nvars)
{
	*nvars = 0;
	for (int k = 0; k < n; k++)
		*nvars += q[k]->nvars;
	const char **names = calloc((size_t)*nvars + 1, sizeof(*names));
	if (!names)
		return NULL;
	int i = 0;
	for (int k = 0; k < n; k++)
		for (int v = 0; v < q[k]->nvars; v++)
			names[i++] = q[k]->vars[v]->name;
	return names;
}

/* The positional form of the quantifiers Q[0..n): each variable's range
 * (v - lo >= 0, hi - v - 1 >= 0) and each condition, into S. */
static void quant_cons(struct lowering *lw, struct model_space *s, const struct ast_quant *const *q,
		       int n)
{
	for (int k = 0; k < n && !failed(&lw->fail); k++) {
		for (int v = 0; v < q[k]->nvars && !failed(&lw->fail); v++) {
			const struct ast_var *var = q[k]->vars[v];
			struct model_aff lo, hi;
			if (lw_pos_aff(lw, &lo, var->lo_aff, -1, var->index, 1, 0) < 0)
				return;
			if (lw_pos_aff(lw, &hi, var->hi_aff, 1, var->index, -1, -1) < 0) {
				model_aff_clear(&lo);
				return;
			}
			if (model_cons_add(&s->cons, &s->ncons, MODEL_GE0, &lo, 0) < 0 ||
			    model_cons_add(&s->cons, &s->ncons, MODEL_GE0, &hi, 0) < 0)
				fail_nomem(&lw->fail);
			model_aff_clear(&lo);
			model_aff_clear(&hi);
		}
		if (q[k]->cond)
			atoms_to_cons(lw, q[k]->cond->atoms, q[k]->cond->natoms, &s->cons, &s->ncons, false);
	}
}

/* Fills a space created by the model with the condition and predicates of the
 * sums Q[0..n) (the statement's own condition is the lhs space's).  The
 * space's variables are those of Q, after the statement's forall's when
 * WITH_FORALL. */
static void fill_space(struct lowering *lw, const struct ast_stmt *st, struct model_space *s,
		       const struct ast_quant *const *q, int n, bool with_forall)
{
	char *cond = quant_cond(lw, st->vars, q, n, s);
	if (!cond) {
		fail_nomem(&lw->fail);
		return;
	}
	free(s->cond);
	s->cond = cond;
	quant_cons(lw, s, q, n);
	int *vidx = calloc((size_t)s->nvars + 1, sizeof(*vidx));
	int k = 0;
	if (vidx && with_forall && st->forall)
		for (int v = 0; v < st->forall->nvars && k < s->nvars; v++)
			vidx[k++] = st->forall->vars[v]->index;
	for (int j = 0; vidx && j < n; j++)
		for (int v = 0; v < q[j]->nvars && k < s->nvars; v++)
			vidx[k++] = q[j]->vars[v]->index;
	if (!vidx || k != s->nvars || model_space_set_vidx(s, vidx) < 0)
		fail_nomem(&lw->fail);
	free(vidx);
}

/* The sums around a reference: its scopes without the statement's forall. */
static const struct ast_quant *const *sum_scopes(const struct ast_stmt *st,
						 const struct ref_info *r, int *n)
{
	int skip = r->nscopes > 0 && st->forall && r->scopes[0] == st->forall;
	*n = r->nscopes - skip;
	return r->scopes + skip;
}

/* One unit of work per point of the sums around E (STACK[0..depth)). */
static void add_unit(struct lowering *lw, const struct ast_stmt *st, struct model_stmt *ms,
		     const struct ast_quant **stack, int depth)
{
	int n;
	const char **extra = quant_vars(stack, depth, &n);
	struct model_space *s = extra ? model_add_term(ms, n, extra, NULL) : NULL;
	free(extra);
	if (!s) {
		fail_nomem(&lw->fail);
		return;
	}
	fill_space(lw, st, s, stack, depth, true);
}

/* The work of E, as units over the sums around it (STACK[0..depth)):
 *   terms: one unit per term of a sum, and per operand of a top-level + or -
 *          (the paper's convention: o per element of C = sum k < o : ...);
 *   flops: every + - * / and unary minus once per evaluation, and a sum of n
 *          terms n additions (accumulating from zero). */
static void add_work(struct lowering *lw, const struct ast_stmt *st, struct model_stmt *ms,
		     const struct ast_expr *e, const struct ast_quant **stack, int depth)
{
	if (failed(&lw->fail))
		return;
	switch (e->kind) {
	case EXPR_SUM:
		if (depth >= AST_MAX_DEPTH) {
			fail_set(&lw->fail, FAIL_REFUSED, "sums nested too deeply");
			return;
		}
		stack[depth] = e->quant;
		if (lw->flops)
			add_unit(lw, st, ms, stack, depth + 1);
		add_work(lw, st, ms, e->lhs, stack, depth + 1);
		return;
	case EXPR_ADD:
	case EXPR_SUB:
		if (lw->flops)
			add_unit(lw, st, ms, stack, depth);
		add_work(lw, st, ms, e->lhs, stack, depth);
		add_work(lw, st, ms, e->rhs, stack, depth);
		return;
	case EXPR_MUL:
	case EXPR_DIV:
	case EXPR_MOD:
		if (!lw->flops) {
			add_unit(lw, st, ms, stack, depth);
			return;
		}
		add_unit(lw, st, ms, stack, depth);
		add_work(lw, st, ms, e->lhs, stack, depth);
		add_work(lw, st, ms, e->rhs, stack, depth);
		return;
	case EXPR_NEG:
		if (lw->flops)
			add_unit(lw, st, ms, stack, depth);
		add_work(lw, st, ms, e->lhs, stack, depth);
		return;
	default:
		if (!lw->flops)
			add_unit(lw, st, ms, stack, depth);
		return;
	}
}

/* The subscripts of REF by position, into A. */
static void set_subs(struct lowering *lw, struct model_access *a, const struct ref_info *ref)
{
	for (int d = 0; d < ref->array->rank && !failed(&lw->fail); d++) {
		struct model_aff f;
		if (lw_pos_aff(lw, &f, &ref->subs[d], 1, 0, 0, 0) < 0)
			return;
		if (model_access_set_sub(a, ref->array->rank, d, &f) < 0)
			fail_nomem(&lw->fail);
		model_aff_clear(&f);
	}
}

/* The subscripts of REF as text for people: the source's when they hold a
 * quotient. */
static char **ref_texts(struct lowering *lw, const struct ast_stmt *st, const struct ref_info *ref)
{
	char **t = calloc((size_t)ref->array->rank + 1, sizeof(*t));
	for (int d = 0; t && d < ref->array->rank; d++) {
		bool quotient = false;
		for (int k = 0; k < ref->subs[d].nterms; k++)
			quotient |= ref->subs[d].terms[k].kind == SYM_FLOOR;
		t[d] = quotient ? expr_to_string(ref->expr->args[d])
				: lw_affine_text(lw, st->vars, &ref->subs[d]);
		if (!t[d]) {
			for (int k = 0; k < d; k++)
				free(t[k]);
			free(t);
			return NULL;
		}
	}
	return t;
}

static void free_texts(char **t, int n)
{
	for (int d = 0; t && d < n; d++)
		free(t[d]);
	free(t);
}

/* Read REF of ST into MS, once per case of its quotients by sizes; Q holds
 * the left-hand side's quotients (its first LHS_NVAR and LHS_NSYM), which
 * every space of the statement has. */
static void lower_read(struct lowering *lw, const struct ast_stmt *st, struct model_stmt *ms,
		       const struct ref_info *ref, struct quotients *q, int lhs_nvar, int lhs_nsym)
{
	q->nvar = lhs_nvar;
	q->nsym = lhs_nsym;
	if (!lw_ref_quotients(lw, q, ref, lhs_nsym))
		return;
	int ns, nextra;
	const struct ast_quant *const *sums = sum_scopes(st, ref, &ns);
	do {
		const char **extra = quant_vars(sums, ns, &nextra);
		char **rs = ref_texts(lw, st, ref);
		struct model_access *a = extra && rs ? model_add_read(lw->m, ms, nextra, extra, NULL,
								       ref->array->index,
								       (const char *const *)rs)
						     : NULL;
		free_texts(rs, ref->array->rank);
		free(extra);
		if (!a) {
			fail_nomem(&lw->fail);
			return;
		}
		set_subs(lw, a, ref);
		fill_space(lw, st, &a->space, sums, ns, true);
		lw_add_quotients(lw, st, &a->space, q, lhs_nvar, q->nvar, true, lhs_nsym, q->nsym);
	} while (!failed(&lw->fail) && lw_next_quotient_case(q, lhs_nsym));
}

/* Term T of ST's work weight, coef * f1 * ... * fk, as a term of work of
 * MS: one point per instance and per (u1, ..., uk) with 0 <= ui < fi (the
 * checker proved every fi >= 0), weighing coef. */
static void lower_work_term(struct lowering *lw, const struct ast_stmt *st, struct model_stmt *ms,
			    const struct work_term *t)
{
	if (!t->proven) {
		fail_set(&lw->fail, FAIL_REFUSED, "a factor of a work weight was not proven "
			 "non-negative (the bounds check did not finish)");
		return;
	}
	if (t->coef > WORK_WEIGHT_MAX) {
		fail_set(&lw->fail, FAIL_REFUSED, "work %s above 1000000000 are not supported",
			 t->nfactors ? "coefficients" : "weights");
		return;
	}
	struct model_space *s = model_add_term(ms, 0, NULL, NULL);
	if (!s) {
		fail_nomem(&lw->fail);
		return;
	}
	fill_space(lw, st, s, NULL, 0, true);
	s->weight = (long)t->coef;
	for (int k = 0; k < t->nfactors && !failed(&lw->fail); k++) {
		/* numbered past the statement's variables and its quotients' */
		int var = st->nvars + LOWER_MAX_QUOTIENTS + k;
		char *name = NULL;
		char *ft = lw_affine_text(lw, st->vars, &t->factors[k]);
		if (!ft || asprintf(&name, "a unit of work factor %d (%s)", k + 1, ft) < 0)
			name = NULL;
		free(ft);
		if (!name || model_space_add_var(s, name, var) < 0) {
			free(name);
			fail_nomem(&lw->fail);
			return;
		}
		free(name);
		/* for people: what the condition of the space is made of */
		char *cond = NULL;
		ft = lw_affine_text(lw, st->vars, &t->factors[k]);
		if (!ft || asprintf(&cond, "%s and work factor %s", s->cond, ft) < 0) {
			free(ft);
			fail_nomem(&lw->fail);
			return;
		}
		free(ft);
		free(s->cond);
		s->cond = cond;
		struct model_aff lo, hi;
		if (lw_pos_aff(lw, &lo, NULL, 1, var, 1, 0) < 0)
			return;
		lw_add_cons(lw, s, &lo);
		if (lw_pos_aff(lw, &hi, &t->factors[k], 1, var, -1, -1) < 0)
			return;
		lw_add_cons(lw, s, &hi);
	}
}

/* ST into superstep STEP, for the case of its left-hand side's quotients by
 * sizes in Q (its first LHS_NVAR and LHS_NSYM are the left-hand side's). */
static void lower_stmt_case(struct lowering *lw, int step, const struct ast_stmt *st,
			    struct quotients *q, int lhs_nvar, int lhs_nsym)
{
	const struct ast_quant *forall[1] = {st->forall};
	int nf = st->forall ? 1 : 0;
	int nvars;
	const char **vars = quant_vars(forall, nf, &nvars);
	const struct ref_info *lhs = &st->refs[0];
	char **subs = ref_texts(lw, st, lhs);
	struct model_stmt *ms = vars && subs ? model_add_stmt(lw->m, step, nvars, vars, NULL,
							      lhs->array->index,
							      (const char *const *)subs)
					     : NULL;
	free_texts(subs, lhs->array->rank);
	free(vars);
	if (!ms) {
		fail_nomem(&lw->fail);
		return;
	}
	set_subs(lw, &ms->lhs, lhs);
	fill_space(lw, st, &ms->lhs.space, forall, nf, false);

	for (int r = 1; r < st->nrefs && !failed(&lw->fail); r++)
		lower_read(lw, st, ms, &st->refs[r], q, lhs_nvar, lhs_nsym);
	q->nvar = lhs_nvar;
	q->nsym = lhs_nsym;
	if (failed(&lw->fail))
		return;
	if (st->work) {
		for (int i = 0; i < st->nwork_terms && !failed(&lw->fail); i++)
			lower_work_term(lw, st, ms, &st->work_terms[i]);
	} else {
		const struct ast_quant *stack[AST_MAX_DEPTH];
		add_work(lw, st, ms, st->rhs, stack, 0);
		/* a + b + c is three units on one space: counted once, weight 3
		 * (spaces whole: not when out of memory left one without text) */
		if (!failed(&lw->fail))
			model_merge_terms(ms);
	}
	/* the left-hand side's quotients: defined in its space (which every
	 * relation of the statement intersects), variables of every space */
	lw_add_quotients(lw, st, &ms->lhs.space, q, 0, lhs_nvar, true, 0, lhs_nsym);
	for (int r = 0; r < ms->nreads; r++)
		lw_add_quotients(lw, st, &ms->reads[r].space, q, 0, lhs_nvar, false, 0, 0);
	for (int k = 0; k < ms->nterms; k++)
		lw_add_quotients(lw, st, &ms->terms[k], q, 0, lhs_nvar, false, 0, 0);
}

/* ST into superstep STEP: once per case of its left-hand side's quotients
 * by sizes. */
static void lower_stmt(struct lowering *lw, int step, const struct ast_stmt *st)
{
	struct quotients q = {.nvars = st->nvars};
	lw->quo = &q;
	if (lw_cond_quotients(lw, &q, st->forall) && lw_ref_quotients(lw, &q, &st->refs[0], 0)) {
		int lhs_nvar = q.nvar, lhs_nsym = q.nsym;
		/* a condition by a loop's variable: that loop, for the reasons */
		for (int k = 0; k < q.nvar; k++)
			for (int l = 0; q.var[k]->level && l < lw->m->nloops; l++)
				if (lw->m->loops[l].param == q.var[k]->den_term.index)
					lw->m->steps[step].by_loop = l;
		do
			lower_stmt_case(lw, step, st, &q, lhs_nvar, lhs_nsym);
		while (!failed(&lw->fail) && lw_next_quotient_case(&q, 0));
	}
	lw->quo = NULL;
}

static char *assumptions_text(struct lowering *lw)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	fputs("true", t.f);
	print_atoms(lw, t.f, NULL, lw->cs->assumptions, lw->cs->nassumptions, NULL);
	return text_close(&t);
}

_Static_assert(CHECK_MAX_LOOP_DEPTH <= MODEL_MAX_LOOPS, "the model holds every loop nest");

/* The index of loop L among the specification's loops, -1 for none. */
static int loop_index(const struct ast_spec *spec, const struct ast_loop *l)
{
	for (int i = 0; l && i < spec->nloops; i++)
		if (spec->loops[i] == l)
			return i;
	return -1;
}

/* Every loop of the specification, in its order: the model's parameters
 * past the sizes, as the checker numbered them. */
static void lower_loops(struct lowering *lw, const struct ast_spec *spec)
{
	for (int i = 0; i < spec->nloops && !failed(&lw->fail); i++) {
		const struct ast_loop *l = spec->loops[i];
		struct model_aff lo, hi;
		if (lw_pos_aff(lw, &lo, l->var->lo_aff, 1, 0, 0, 0) < 0)
			return;
		if (lw_pos_aff(lw, &hi, l->var->hi_aff, 1, 0, 0, 0) < 0) {
			model_aff_clear(&lo);
			return;
		}
		char *tlo = lw_affine_text(lw, NULL, l->var->lo_aff);
		char *thi = lw_affine_text(lw, NULL, l->var->hi_aff);
		char *range = NULL;
		/* a geometric loop as written: its bound may be '<=' */
		long long a = l->var->ratio ? l->var->lo->value : 0, r = l->var->ratio;
		char *bound = r ? expr_to_string(l->var->hi) : NULL;
		if (!tlo || !thi || (r && !bound) ||
		    (r ? asprintf(&range, "%s = %lld, %lld, %lld, ... %s %s", l->var->name, a, a * r,
				  a * r * r, l->var->hi_op == CMP_LE ? "<=" : "<", bound)
		       : asprintf(&range, "%s <= %s < %s", tlo, l->var->name, thi)) < 0)
			range = NULL;
		free(bound);
		int k = range ? model_add_loop(lw->m, l->var->name, range, &lo, &hi, r,
					       loop_index(spec, l->outer))
			      : -1;
		if (k < 0)
			fail_nomem(&lw->fail);
		else if (lw->m->loops[k].param != l->param->index)
			fail_set(&lw->fail, FAIL_ERROR, "loop %s: its parameter is out of order",
				 l->var->name);
		free(tlo);
		free(thi);
		free(range);
		model_aff_clear(&lo);
		model_aff_clear(&hi);
	}
}

struct model *lower_spec(const struct checked_spec *cs, enum work_measure work, char **reason)
{
	struct lowering lw = {.cs = cs, .flops = work == WORK_FLOPS};
	char *assume = assumptions_text(&lw);
	lw.m = assume ? model_new(assume) : NULL;
	free(assume);
	if (!lw.m) {
		if (!failed(&lw.fail))
			fail_nomem(&lw.fail);
		*reason = fail_release(&lw.fail);
		return NULL;
	}
	struct model *m = lw.m;
	atoms_to_cons(&lw, cs->assumptions, cs->nassumptions, &m->assume, &m->nassume, true);
	/* positions as the checker numbered them: each one added, or nothing */
	for (int p = 0; p < cs->nsizes && !failed(&lw.fail); p++)
		if (model_add_param(m, cs->params[p]->name) < 0)
			fail_nomem(&lw.fail);
	for (int a = 0; a < cs->naxes && !failed(&lw.fail); a++)
		if (model_add_axis(m, cs->axes[a]->name) < 0)
			fail_nomem(&lw.fail);
	lower_loops(&lw, cs->ast);
	for (int d = 0; d < cs->ndists; d++) {
		const struct affine *ext = dist_extent(cs, cs->dists[d]);
		char *text = ext ? lw_affine_text(&lw, NULL, ext) : strdup("0");
		if (!text || model_add_dist(m, cs->dists[d]->name, text) < 0)
			fail_nomem(&lw.fail);
		free(text);
		struct model_aff f;
		if (!failed(&lw.fail) && lw_pos_aff(&lw, &f, ext, 1, 0, 0, 0) == 0) {
			if (model_dist_set_extent(m, d, &f) < 0)
				fail_nomem(&lw.fail);
			model_aff_clear(&f);
		}
	}
	for (int a = 0; a < cs->narrays && !failed(&lw.fail); a++) {
		const struct ast_array *arr = cs->arrays[a];
		if (arr->rank > MODEL_MAX_DIMS) {
			fail_set(&lw.fail, FAIL_REFUSED, "array %s has %d dimensions; the analysis handles at most %d",
			       arr->name, arr->rank, MODEL_MAX_DIMS);
			break;
		}
		char *ext[MODEL_MAX_DIMS];
		bool texts = true;
		for (int d = 0; d < arr->rank; d++)
			texts &= (ext[d] = lw_affine_text(&lw, NULL, arr->extents[d]->aff)) != NULL;
		int k = texts ? model_add_array(m, arr->name, arr->rank, (const char *const *)ext) : -1;
		if (k < 0)
			fail_nomem(&lw.fail);
		else
			m->arrays[k].words = arr->elem_size > 0 ? arr->elem_size : 1;
		for (int d = 0; d < arr->rank && !failed(&lw.fail); d++) {
			struct model_aff f;
			if (lw_pos_aff(&lw, &f, arr->extents[d]->aff, 1, 0, 0, 0) < 0)
				break;
			if (model_array_set_extent(&m->arrays[k], d, &f) < 0)
				fail_nomem(&lw.fail);
			model_aff_clear(&f);
		}
		for (int d = 0; d < arr->rank; d++)
			free(ext[d]);
	}
	for (int c = 0; c < cs->ncandidates && !failed(&lw.fail); c++) {
		const struct candidate *cd = &cs->candidates[c];
		int k = model_add_candidate(m, cd->name);
		if (k < 0) {
			fail_nomem(&lw.fail);
			break;
		}
		for (int d = 0; d < cs->ndists; d++) {
			const struct ast_dist *ad = cs->dists[d];
			const struct ast_dkind *alt = &ad->alts[cd->choice[d]];
			m->cands[k].named[d] = (struct dist){alt->kind, ad->axis ? ad->axis->index : -1,
							     alt->block, alt->block_param};
		}
		for (int a = 0; a < cs->narrays && !failed(&lw.fail); a++) {
			if (!cd->arrays[a].dims) {   /* another variant's array */
				if (model_candidate_drop_array(m, k, a) < 0)
					fail_nomem(&lw.fail);
				continue;
			}
			for (int d = 0; d < cs->arrays[a]->rank; d++) {
				const struct dim_dist *dd = &cd->arrays[a].dims[d];
				m->cands[k].layout[a][d] = (struct dist){dd->kind, dd->axis, dd->block,
									 dd->block_param};
			}
			m->cands[k].replicate[a] = cd->arrays[a].replicated_axes;
		}
		/* the extent each dist splits in its predicates: the first array
		 * it sees laid out with it */
		struct model_candidate *mc = &m->cands[k];
		mc->pred_array = malloc(((size_t)cs->ndists + 1) * sizeof(int));
		mc->pred_dim = malloc(((size_t)cs->ndists + 1) * sizeof(int));
		if (!mc->pred_array || !mc->pred_dim) {
			fail_nomem(&lw.fail);
			break;
		}
		for (int d = 0; d < cs->ndists; d++) {
			mc->pred_array[d] = mc->pred_dim[d] = -1;
			for (int a = 0; a < cs->narrays && mc->pred_array[d] < 0; a++)
				for (int x = 0; cd->arrays[a].dims && x < cs->arrays[a]->rank; x++)
					if (cd->arrays[a].dims[x].dist == cs->dists[d]) {
						mc->pred_array[d] = a;
						mc->pred_dim[d] = x;
						break;
					}
		}
		/* its program, explicitly (even when empty) */
		if (!failed(&lw.fail) && !(m->cands[k].steps = calloc(1, sizeof(int))))
			fail_nomem(&lw.fail);
		for (int s = 0; s < cd->nsteps && !failed(&lw.fail); s++)
			if (model_candidate_add_step(m, k, cd->steps[s]->index) < 0)
				fail_nomem(&lw.fail);
	}
	for (int s = 0; s < cs->nsupersteps && !failed(&lw.fail); s++) {
		const struct ast_superstep *ss = cs->supersteps[s];
		if (model_add_superstep(m, ss->name) < 0) {
			fail_nomem(&lw.fail);
			break;
		}
		m->steps[s].loop = loop_index(cs->ast, ss->loop);
		for (int i = 0; i < ss->nstmts && !failed(&lw.fail); i++)
			lower_stmt(&lw, s, ss->stmts[i]);
	}
	if (failed(&lw.fail)) {
		model_free(m);
		*reason = fail_release(&lw.fail);
		return NULL;
	}
	return m;
}
