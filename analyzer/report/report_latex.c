/* The LaTeX report: an align* environment per candidate, for papers. */
#include <stdlib.h>

#include "analyzer/report/report.h"

static void latex_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '_' || *s == '&' || *s == '%' || *s == '#' || *s == '$')
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

/* printf formats taking the superstep number */
static const char *const tex_name[Q_N] = {"w_{%d}", "h_{%d}", "h_{\\mathrm{in},%d}",
					  "h_{\\mathrm{out},%d}", "N_{\\mathrm{Com},%d}",
					  "\\mathit{cost}_{%d}"};
static const char *const cost_names[] = {"g", "l"};

static char *latex_formula(const struct formula *f, enum quantity q)
{
	return q == Q_COST ? formula_to_string_by(f, FORMULA_LATEX, cost_names, 2)
			   : formula_to_string(f, FORMULA_LATEX);
}

void report_latex(FILE *out, const struct analysis *a)
{
	fputs("% bspcost: ", out);
	latex_text(out, a->file);
	fputs("\n", out);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		fputs("\\paragraph{", out);
		latex_text(out, cc->name);
		fputs("}\n", out);
		if (cc->status != COST_OK) {
			fputs("No exact formula: ", out);
			latex_text(out, cc->reason ? cc->reason : "unknown reason");
			fputs(".\n\n", out);
			continue;
		}
		fputs("\\begin{align*}\n", out);
		for (int s = 0; s < cc->nsteps; s++) {
			for (int q = 0; q < Q_N; q++) {
				char *f = latex_formula(step_quantity(&cc->steps[s], q), q);
				fprintf(out, tex_name[q], s);
				fprintf(out, " &= %s \\\\\n", f ? f : "?");
				free(f);
			}
		}
		char *f = latex_formula(cc->cost, Q_COST);
		fprintf(out, "\\mathit{cost} &= %s\n\\end{align*}\n\n", f ? f : "?");
		free(f);
	}
}
