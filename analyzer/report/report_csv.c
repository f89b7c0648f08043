/* The CSV report: one row per candidate, superstep and quantity, for
 * spreadsheets; columns candidate, superstep, quantity, formula, value, note.
 * Before them, rows with no candidate: the values given (quantity: the
 * name; note "given", or "given by MACHINE, p = P") and the specification's
 * assumptions (quantity "assumption", the text in formula).  A candidate's
 * own assumptions are rows of quantity "assumption" too; its values, where
 * they break one, have the note "count: the values given break '...'"; with
 * some sizes given only, the formulas that do not hold at them have "the
 * values given break '...': it does not hold there". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* One quantity of candidate C: step S of STEPS (the candidate's formulas or
 * its values), or the total when S < 0; F its formula, NULL when it has none;
 * NOTE (may be NULL) beside a value, or beside a formula when no value is
 * printed at all (some sizes given only). */
static void row(FILE *out, const struct analysis *a, int c, const struct candidate_cost *steps,
		int s, enum quantity q, const struct formula *f, const char *note)
{
	/* no formula where the superstep's others have one: why, as the note */
	const char *why = !f ? report_quantity_why(a, c, s, q) : NULL;
	report_csv_field(out, a->cands[c].name);
	fputc(',', out);
	report_csv_field(out, s < 0 ? "" : steps->steps[s].name);
	fputc(',', out);
	report_csv_field(out, quantity_name[q]);
	fputc(',', out);
	char *text = report_quantity_text(f, q, FORMULA_EXPR, a->rq->model);
	if (text)
		report_csv_field(out, text);
	fputc(',', out);
	char *v = report_value(a, c, s, q);
	if (v)
		report_csv_field(out, v);
	fputc(',', out);
	if (why)
		report_csv_field(out, why);
	else if (note && (v || (text && !a->exact)))
		report_csv_field(out, note);
	free(text);
	free(v);
	fputc('\n', out);
}

/* A row of no superstep: CAND (NULL: none), QUANTITY, FORMULA, VALUE, NOTE. */
static void plain_row(FILE *out, const char *cand, const char *quantity, const char *formula,
		      const char *value, const char *note)
{
	const char *f[] = {cand, "", quantity, formula, value, note};
	for (int i = 0; i < 6; i++) {
		if (i)
			fputc(',', out);
		if (f[i] || i < 3)
			report_csv_field(out, f[i]);
	}
	fputc('\n', out);
}

/* NAME,"",WHAT,refused|failed,REASON: why a candidate has no formulas
 * (WHAT "status") or no values for the values given (WHAT "values"). */
static void status_row(FILE *out, const char *name, const char *what, enum cost_status st,
		       const char *reason)
{
	report_csv_field(out, name);
	fprintf(out, ",\"\",\"%s\",", what);
	report_csv_field(out, st == COST_REFUSED ? "refused" : "failed");
	fputc(',', out);
	report_csv_field(out, reason ? reason : "");
	fputs(",\n", out);
}

void report_csv(FILE *out, const struct analysis *a)
{
	const struct report_request *rq = a->rq;
	fputs("candidate,superstep,quantity,formula,value,note\n", out);
	char *by = NULL;
	if (rq->machine) {
		size_t len = strlen(rq->machine) + 64;
		by = malloc(len);
		if (by)
			snprintf(by, len, "given by %s, p = %ld", rq->machine, rq->machine_procs);
	}
	for (int i = 0; i < rq->ndefs; i++) {
		if (!report_given(a, i))
			continue;
		mpq_t q;
		mpq_init(q);
		param_value_get(q, &rq->defs[i]);
		char *v = report_number(q);
		bool machine = by && cost_coef_known(rq->defs[i].name);
		plain_row(out, NULL, rq->defs[i].name, NULL, v, machine ? by : "given");
		free(v);
		mpq_clear(q);
	}
	if (rq->model && rq->model != cost_model_default())
		plain_row(out, NULL, "cost function", rq->model->text, rq->model->name, NULL);
	for (int i = 0; i < a->nassumptions; i++)
		plain_row(out, NULL, "assumption", a->assumptions[i], NULL, NULL);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		if (cc->status != COST_OK)
			status_row(out, cc->name, "status", cc->status, cc->reason);
		if (ex && ex->status != COST_OK)
			status_row(out, cc->name, "values", ex->status, ex->reason);
		bool formulas = cc->status == COST_OK || cc->formulas_kept;
		for (int i = 0; formulas && i < cc->nassumptions; i++)
			plain_row(out, cc->name, "assumption", cc->assumptions[i], NULL, NULL);
		char *note = NULL, *broken = report_formulas_broken(a, c, NULL);
		if (broken) {
			size_t len = strlen(broken) + 80;
			note = malloc(len);
			if (note)
				snprintf(note, len, ex ? "count: the values given break '%s'"
						       : "the values given break '%s': it does not hold there",
					 broken);
		}
		free(broken);
		const struct candidate_cost *steps = formulas ? cc
						     : ex && ex->status == COST_OK ? ex : NULL;
		for (int s = 0; steps && s < steps->nsteps; s++) {
			for (int q = 0; q < Q_N; q++)
				row(out, a, c, steps, s, q,
				    formulas ? step_quantity(&cc->steps[s], q) : NULL, note);
			/* the messages where counted; a note where they have no form */
			const char *why = NULL;
			if (!report_step_msgs(&steps->steps[s], &why))
				continue;
			for (int q = Q_MSGS; q <= Q_MSGS_OUT; q++)
				row(out, a, c, steps, s, q,
				    formulas ? step_quantity(&cc->steps[s], q) : NULL,
				    why ? why : note);
		}
		if (steps) {
			row(out, a, c, steps, -1, Q_COST, formulas ? cc->cost : NULL, note);
			row(out, a, c, steps, -1, Q_MEM, formulas ? cc->mem : NULL, note);
		}
		free(note);
		char *exact = NULL;
		free(report_seconds(a, c, &exact));
		if (exact)
			plain_row(out, cc->name, "seconds", NULL, exact, "the cost in flops / s");
		free(exact);
	}
	free(by);
}
