/* A candidate's symbolic formulas, evaluated at many points: see
 * cost_formulas.h. */
#include "analyzer/cost/cost_formulas.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/formula/formula.h"

/* The quantities of a superstep kept, in the order of struct step_cost. */
enum { Q_W, Q_H, Q_IN, Q_OUT, Q_NCOM, Q_RUNS, Q_STEP };

struct cost_formulas {
	const char *name;               /* the model's */
	int nsteps;
	const char **step_names;        /* the model's */
	struct formula_expr **q;        /* Q_STEP a superstep; runs NULL outside loops */
	struct formula_expr *mem;
	int nconds;
	struct formula_expr **conds;
	int nlocals;
	char **local_names;
	struct formula_expr **locals;
};

void cost_formulas_free(struct cost_formulas *f)
{
	if (!f)
		return;
	for (int i = 0; f->q && i < f->nsteps * Q_STEP; i++)
		formula_expr_free(f->q[i]);
	free(f->q);
	free(f->step_names);
	formula_expr_free(f->mem);
	for (int i = 0; f->conds && i < f->nconds; i++)
		formula_expr_free(f->conds[i]);
	free(f->conds);
	for (int i = 0; i < f->nlocals; i++) {
		free(f->local_names ? f->local_names[i] : NULL);
		formula_expr_free(f->locals ? f->locals[i] : NULL);
	}
	free(f->local_names);
	free(f->locals);
	free(f);
}

/* F as an expression; NULL on failure. */
static struct formula_expr *expr_of(const struct formula *f)
{
	char *text = formula_to_string(f, FORMULA_EXPR_STRICT);
	struct formula_expr *e = formula_parse_expr(text, NULL);
	free(text);
	return e;
}

struct cost_formulas *cost_formulas_from(const struct candidate_cost *cc)
{
	if (cc->status != COST_OK || !cc->cost || !cc->mem)
		return NULL;
	struct cost_formulas *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->name = cc->name;
	f->nsteps = cc->nsteps;
	f->q = calloc((size_t)cc->nsteps * Q_STEP + 1, sizeof(*f->q));
	f->step_names = calloc((size_t)cc->nsteps + 1, sizeof(*f->step_names));
	f->conds = calloc((size_t)cc->nconditions + 1, sizeof(*f->conds));
	f->local_names = calloc((size_t)cc->nlocals + 1, sizeof(*f->local_names));
	f->locals = calloc((size_t)cc->nlocals + 1, sizeof(*f->locals));
	bool ok = f->q && f->step_names && f->conds && f->local_names && f->locals;
	for (int s = 0; ok && s < cc->nsteps; s++) {
		const struct step_cost *sc = &cc->steps[s];
		const struct formula *q[Q_STEP] = {sc->w, sc->h, sc->h_in, sc->h_out, sc->ncom,
						   sc->iterations};
		f->step_names[s] = sc->name;
		for (int k = 0; ok && k < Q_STEP; k++) {
			if (k == Q_RUNS && !q[k]) {
				ok = !sc->loop;   /* a superstep that runs once */
				continue;
			}
			f->q[s * Q_STEP + k] = expr_of(q[k]);
			ok = f->q[s * Q_STEP + k] != NULL;
		}
	}
	f->mem = ok ? expr_of(cc->mem) : NULL;
	ok = ok && f->mem;
	for (; ok && f->nconds < cc->nconditions; f->nconds++) {
		f->conds[f->nconds] = formula_parse_expr(cc->conditions[f->nconds], NULL);
		ok = f->conds[f->nconds] != NULL;
	}
	for (; ok && f->nlocals < cc->nlocals; f->nlocals++) {
		int i = f->nlocals;
		f->local_names[i] = strdup(cc->local_names[i]);
		f->locals[i] = cc->local_values[i] ? formula_parse_expr(cc->local_values[i], NULL)
						   : NULL;
		ok = f->local_names[i] && f->locals[i];
	}
	if (!ok) {
		/* the arrays are zeroed: what was not made is NULL */
		cost_formulas_free(f);
		return NULL;
	}
	return f;
}

/* E at the point NAMES = VALUES (N of them) as a formula constant; NULL when
 * it has no value there. */
static struct formula *value_at(const struct formula_expr *e, const char **names,
				const long long *values, int n)
{
	mpq_t v;
	mpq_init(v);
	struct formula *r = formula_expr_eval(e, names, values, n, v) == 0 ? formula_const_mpq(v)
									    : NULL;
	mpq_clear(v);
	return r;
}

int cost_formulas_at(const struct cost_formulas *f, const struct model *m,
		     const long long *values, const long sizes[3], struct candidate_cost *out)
{
	memset(out, 0, sizeof(*out));
	int nsizes = model_nsizes(m), n = nsizes + m->naxes;
	const char **names = calloc((size_t)(n + f->nlocals) + 1, sizeof(*names));
	long long *at = calloc((size_t)(n + f->nlocals) + 1, sizeof(*at));
	mpq_t v;
	mpq_init(v);
	bool ok = names && at;
	for (int i = 0; ok && i < n; i++) {
		names[i] = i < nsizes ? m->params[i] : m->axes[i - nsizes];
		at[i] = i < nsizes ? values[i] : sizes[i - nsizes];
	}
	/* the kept parameters, each an integer at the point, from its definition */
	for (int l = 0; ok && l < f->nlocals; l++) {
		ok = formula_expr_eval(f->locals[l], names, at, n, v) == 0 &&
		     mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_fits_slong_p(mpq_numref(v));
		if (ok) {
			names[n] = f->local_names[l];
			at[n++] = mpz_get_si(mpq_numref(v));
		}
	}
	/* every condition the formulas rest on */
	for (int i = 0; ok && i < f->nconds; i++)
		ok = formula_expr_eval(f->conds[i], names, at, n, v) == 0 && mpq_sgn(v) != 0;
	mpq_clear(v);
	out->steps = ok ? calloc((size_t)f->nsteps + 1, sizeof(*out->steps)) : NULL;
	ok = ok && out->steps;
	for (int s = 0; ok && s < f->nsteps; s++) {
		struct step_cost *sc = &out->steps[s];
		struct formula **q[Q_STEP] = {&sc->w, &sc->h, &sc->h_in, &sc->h_out, &sc->ncom,
					      &sc->iterations};
		out->nsteps++;
		sc->name = f->step_names[s];
		for (int k = 0; ok && k < Q_STEP; k++) {
			const struct formula_expr *e = f->q[s * Q_STEP + k];
			if (!e)
				continue;
			*q[k] = value_at(e, names, at, n);
			ok = *q[k] != NULL;
		}
	}
	out->mem = ok ? value_at(f->mem, names, at, n) : NULL;
	ok = ok && out->mem;
	free(names);
	free(at);
	if (!ok) {
		candidate_cost_clear(out);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	out->name = f->name;
	out->status = COST_OK;
	return 0;
}
