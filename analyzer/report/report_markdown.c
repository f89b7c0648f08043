/* The Markdown report: a table per candidate, formulas as code, for design notes. */
#include <stdlib.h>

#include "analyzer/report/report.h"

static const char *const cost_names[] = {"g", "l"};

static void cell(FILE *out, const struct formula *f, enum quantity q)
{
	char *s = q == Q_COST ? formula_to_string_by(f, FORMULA_TEXT, cost_names, 2)
			      : formula_to_string(f, FORMULA_TEXT);
	fprintf(out, " `%s` |", s ? s : "?");
	free(s);
}

void report_markdown(FILE *out, const struct analysis *a)
{
	fprintf(out, "## %s\n\n", a->file);
	fprintf(out, "Grid: %s", a->symbolic ? "symbolic" : "concrete");
	for (int x = 0; x < a->naxes; x++) {
		if (a->symbolic)
			fprintf(out, "%s%s", x ? " x " : " ", a->axes[x]);
		else
			fprintf(out, "%s%s = %ld", x ? " x " : " ", a->axes[x], a->sizes[x]);
	}
	fputs(".\n", out);
	for (int i = 0; i < a->nassumptions; i++)
		fprintf(out, "%s`%s`", i ? ", " : "Assumptions: ", a->assumptions[i]);
	fputs(a->nassumptions ? ".\n" : "", out);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		fprintf(out, "\n### %s\n\n", cc->name);
		if (cc->status != COST_OK) {
			fprintf(out, "No exact formula: %s\n", cc->reason ? cc->reason : "unknown reason");
			continue;
		}
		for (int i = 0; i < cc->nassumptions; i++)
			fprintf(out, "%s`%s`", i ? ", " : "Assuming ", cc->assumptions[i]);
		fputs(cc->nassumptions ? ".\n\n" : "", out);
		fputs("| superstep | w | h | h_in | h_out | NCom | cost |\n", out);
		fputs("|---|---|---|---|---|---|---|\n", out);
		for (int s = 0; s < cc->nsteps; s++) {
			fprintf(out, "| %s |", cc->steps[s].name);
			for (int q = 0; q < Q_N; q++)
				cell(out, step_quantity(&cc->steps[s], q), q);
			fputs("\n", out);
		}
		char *t = formula_to_string_by(cc->cost, FORMULA_TEXT, cost_names, 2);
		fprintf(out, "\nTotal cost: `%s`\n", t ? t : "?");
		free(t);
	}
}
