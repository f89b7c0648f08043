/* The CSV report: one row per candidate, superstep and quantity, for spreadsheets. */
#include <stdbool.h>
#include <stdlib.h>

#include "analyzer/report/report.h"

/* One quantity of candidate C: step S of STEPS (the candidate's formulas or
 * its values), or the total when S < 0; F its formula, NULL when it has none. */
static void row(FILE *out, const struct analysis *a, int c, const struct candidate_cost *steps,
		int s, enum quantity q, const struct formula *f)
{
	report_csv_field(out, a->cands[c].name);
	fputc(',', out);
	report_csv_field(out, s < 0 ? "" : steps->steps[s].name);
	fputc(',', out);
	report_csv_field(out, quantity_name[q]);
	fputc(',', out);
	static const char *const cost_names[] = {"g", "l"};
	char *text = !f ? NULL
		     : q == Q_COST ? formula_to_string_by(f, FORMULA_EXPR, cost_names, 2)
				   : formula_to_string(f, FORMULA_EXPR);
	if (text)
		report_csv_field(out, text);
	free(text);
	fputc(',', out);
	char *v = report_value(a, c, s, q);
	if (v)
		report_csv_field(out, v);
	free(v);
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
	fputc('\n', out);
}

void report_csv(FILE *out, const struct analysis *a)
{
	fputs("candidate,superstep,quantity,formula,value\n", out);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		if (cc->status != COST_OK)
			status_row(out, cc->name, "status", cc->status, cc->reason);
		if (ex && ex->status != COST_OK)
			status_row(out, cc->name, "values", ex->status, ex->reason);
		bool formulas = cc->status == COST_OK;
		const struct candidate_cost *steps = formulas ? cc
						     : ex && ex->status == COST_OK ? ex : NULL;
		for (int s = 0; steps && s < steps->nsteps; s++)
			for (int q = 0; q < Q_N; q++)
				row(out, a, c, steps, s, q,
				    formulas ? step_quantity(&cc->steps[s], q) : NULL);
		if (steps)
			row(out, a, c, steps, -1, Q_COST, formulas ? cc->cost : NULL);
	}
}
