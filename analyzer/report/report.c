/* What every report format shares: the quantities and their exact values. */
#include "analyzer/report/report.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

const char *const quantity_name[Q_N] = {"w", "h", "h_in", "h_out", "ncom", "cost"};

const struct formula *step_quantity(const struct step_cost *s, enum quantity q)
{
	switch (q) {
	case Q_W:
		return s->w;
	case Q_H:
		return s->h;
	case Q_H_IN:
		return s->h_in;
	case Q_H_OUT:
		return s->h_out;
	case Q_NCOM:
		return s->ncom;
	case Q_COST:
		return s->cost;
	case Q_N:
		break;
	}
	return NULL;
}

char *formula_value_text(const struct formula *f, const struct report_request *opt)
{
	const char **names = calloc((size_t)opt->ndefs + 1, sizeof(*names));
	long long *values = calloc((size_t)opt->ndefs + 1, sizeof(*values));
	char *r = NULL;
	if (f && names && values) {
		for (int i = 0; i < opt->ndefs; i++) {
			names[i] = opt->defs[i].name;
			values[i] = opt->defs[i].value;
		}
		mpq_t v;
		mpq_init(v);
		if (formula_eval(f, names, values, opt->ndefs, v) == 0)
			r = mpq_get_str(NULL, 10, v);
		mpq_clear(v);
	}
	free(names);
	free(values);
	return r;
}

char *report_value(const struct analysis *a, int c, int s, enum quantity q)
{
	const struct candidate_cost *cc = a->exact ? &a->exact[c] : &a->cands[c];
	if (cc->status != COST_OK)
		return NULL;
	return formula_value_text(s < 0 ? cc->cost : step_quantity(&cc->steps[s], q), a->rq);
}

char *report_broken_condition(const struct analysis *a, int c)
{
	const struct candidate_cost *cc = &a->cands[c];
	const struct report_request *opt = a->rq;
	const char **names = calloc((size_t)opt->ndefs + 1, sizeof(*names));
	long long *values = calloc((size_t)opt->ndefs + 1, sizeof(*values));
	char *broken = NULL;
	for (int i = 0; names && values && i < opt->ndefs; i++) {
		names[i] = opt->defs[i].name;
		values[i] = opt->defs[i].value;
	}
	for (int i = 0; names && values && i < cc->nconditions && !broken; i++) {
		struct formula_expr *e = formula_parse_expr(cc->conditions[i], NULL);
		mpq_t v;
		mpq_init(v);
		if (e && formula_expr_eval(e, names, values, opt->ndefs, v) == 0 && mpq_sgn(v) == 0)
			broken = strdup(cc->condition_texts[i]);
		mpq_clear(v);
		formula_expr_free(e);
	}
	free(names);
	free(values);
	return broken;
}
