/* The text report: for people at a terminal. */
#include <stdlib.h>

#include "analyzer/report.h"

static const char *const cost_names[] = {"g", "l"};

static void print_formula(FILE *out, const struct formula *f, enum quantity q)
{
	char *s = q == Q_COST ? formula_to_string_by(f, FORMULA_TEXT, cost_names, 2)
			      : formula_to_string(f, FORMULA_TEXT);
	fputs(s ? s : "(cannot print)", out);
	free(s);
}

static void print_value(FILE *out, const struct analysis *a, int c, int s, enum quantity q)
{
	char *v = report_value(a, c, s, q);
	if (v)
		fprintf(out, "  [= %s]", v);
	free(v);
}

static void print_grid(FILE *out, const struct analysis *a)
{
	for (int x = 0; x < a->naxes; x++) {
		if (a->symbolic)
			fprintf(out, "%s%s", x ? " x " : "", a->axes[x]);
		else
			fprintf(out, "%s%s=%ld", x ? " x " : "", a->axes[x], a->sizes[x]);
	}
	if (a->naxes == 0)
		fputs("(no grid)", out);
}

void report_text(FILE *out, const struct analysis *a)
{
	fprintf(out, "%s: %d candidate%s, %s grid ", a->file, a->ncands, a->ncands == 1 ? "" : "s",
		a->symbolic ? "symbolic" : "concrete");
	print_grid(out, a);
	fputs("\n", out);
	for (int i = 0; i < a->nassumptions; i++)
		fprintf(out, "assume %s\n", a->assumptions[i]);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		fprintf(out, "\ncandidate %s\n", cc->name);
		if (cc->status != COST_OK) {
			fprintf(out, "  %s: %s\n",
				cc->status == COST_REFUSED ? "no exact formula" : "analysis failed",
				cc->reason ? cc->reason : "unknown reason");
			if (cc->status == COST_REFUSED && a->symbolic)
				fputs("  (a concrete grid, e.g. --grid 4x4, gives exact formulas)\n", out);
			continue;
		}
		for (int i = 0; i < cc->nassumptions; i++)
			fprintf(out, "  assuming %s\n", cc->assumptions[i]);
		for (int s = 0; s < cc->nsteps; s++) {
			fprintf(out, "  superstep %s\n", cc->steps[s].name);
			for (int q = 0; q < Q_N; q++) {
				fprintf(out, "    %-5s = ", q == Q_NCOM ? "NCom" : quantity_name[q]);
				print_formula(out, step_quantity(&cc->steps[s], q), q);
				print_value(out, a, c, s, q);
				fputs("\n", out);
			}
		}
		fputs("  cost = ", out);
		print_formula(out, cc->cost, Q_COST);
		print_value(out, a, c, -1, Q_COST);
		fputs("\n", out);
	}
}
