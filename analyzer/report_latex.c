/* The LaTeX report: an align* environment per candidate, for papers. */
#include <stdlib.h>

#include "analyzer/report.h"

static void latex_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '_' || *s == '&' || *s == '%' || *s == '#' || *s == '$')
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

static const char *const tex_name[Q_N] = {"w", "h", "h_{in}", "h_{out}", "N_{Com}", "\\mathit{cost}"};

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
				char *f = formula_to_string(step_quantity(&cc->steps[s], q), FORMULA_LATEX);
				fprintf(out, "%s_{%d} &= %s \\\\\n", tex_name[q], s, f ? f : "?");
				free(f);
			}
		}
		char *f = formula_to_string(cc->cost, FORMULA_LATEX);
		fprintf(out, "\\mathit{cost} &= %s\n\\end{align*}\n\n", f ? f : "?");
		free(f);
	}
}
