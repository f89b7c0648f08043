/* The CSV report: one row per candidate, superstep and quantity, for spreadsheets. */
#include <stdlib.h>

#include "analyzer/report.h"

static void csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void row(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
		const struct formula *f)
{
	const struct candidate_cost *cc = &a->cands[c];
	csv_field(out, cc->name);
	fputc(',', out);
	csv_field(out, s < 0 ? "" : cc->steps[s].name);
	fputc(',', out);
	csv_field(out, quantity_name[q]);
	fputc(',', out);
	static const char *const cost_names[] = {"g", "l"};
	char *text = q == Q_COST ? formula_to_string_by(f, FORMULA_EXPR, cost_names, 2)
				 : formula_to_string(f, FORMULA_EXPR);
	csv_field(out, text);
	free(text);
	fputc(',', out);
	char *v = report_value(a, c, s, q);
	if (v)
		csv_field(out, v);
	free(v);
	fputc('\n', out);
}

void report_csv(FILE *out, const struct analysis *a)
{
	fputs("candidate,superstep,quantity,formula,value\n", out);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		if (cc->status != COST_OK) {
			csv_field(out, cc->name);
			fputs(",\"\",\"status\",", out);
			csv_field(out, cc->status == COST_REFUSED ? "refused" : "failed");
			fputc(',', out);
			csv_field(out, cc->reason);
			fputc('\n', out);
			continue;
		}
		for (int s = 0; s < cc->nsteps; s++)
			for (int q = 0; q < Q_N; q++)
				row(out, a, c, s, q, step_quantity(&cc->steps[s], q));
		row(out, a, c, -1, Q_COST, cc->cost);
	}
}
