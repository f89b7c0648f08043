/* The LaTeX report: for papers and design documents, a fragment to \input
 * into a document that loads amsmath.  A subsubsection per candidate with its
 * assumptions and an align* environment: a line per superstep quantity,
 * named by the superstep, each followed by its value at the values given;
 * formulas wider than the text are broken into lines (formula_to_latex).
 * tests/resilience/latex_pdflatex.sh compiles every example's report with
 * pdflatex. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* The width of a line of the align* environment, in digits (5 pt each at
 * 10 pt: the 345 pt of article's text, less a margin for the estimate), and
 * what '&=' and the space around it take. */
enum { LINE_WIDTH = 55, EQUALS_WIDTH = 3 };

/* The most lines a formula may take: one line of align* cannot break across
 * pages, and pdflatex stops at a box taller than the page. */
enum { MAX_LINES = 40 };

/* S as LaTeX text: the special characters escaped; with BREAKS, a line may
 * break after each comma and slash (a candidate's name or a path has no
 * blank). */
static void latex_text_breaking(FILE *out, const char *s, bool breaks)
{
	/* each special character and what stands for it */
	static const char *const special[][2] = {
		{"_", "\\_"}, {"&", "\\&"}, {"%", "\\%"}, {"#", "\\#"}, {"$", "\\$"},
		{"{", "\\{"}, {"}", "\\}"}, {"\\", "\\textbackslash{}"},
		{"^", "\\textasciicircum{}"}, {"~", "\\textasciitilde{}"},
		{"<", "\\textless{}"}, {">", "\\textgreater{}"}, {"|", "\\textbar{}"},
	};
	for (; s && *s; s++) {
		size_t k = 0;
		while (k < sizeof(special) / sizeof(special[0]) && special[k][0][0] != *s)
			k++;
		if (k < sizeof(special) / sizeof(special[0]))
			fputs(special[k][1], out);
		else if ((*s == ',' || *s == '/') && breaks)
			fprintf(out, "%c\\allowbreak{}", *s);
		else
			fputc(*s, out);
	}
}

static void latex_text(FILE *out, const char *s)
{
	latex_text_breaking(out, s, false);
}

void report_latex_text(FILE *out, const char *s, bool breaks)
{
	latex_text_breaking(out, s, breaks);
}

/* S in typewriter type, breakable after its blanks. */
static void latex_code(FILE *out, const char *s)
{
	fputs("\\texttt{", out);
	latex_text(out, s);
	fputs("}", out);
}

/* S in typewriter type, breakable after its blanks, commas and slashes (an
 * assumption such as k_M = floor(k/(n/2)) at the end of a line). */
static void latex_code_breaking(FILE *out, const char *s)
{
	fputs("\\texttt{", out);
	latex_text_breaking(out, s, true);
	fputs("}", out);
}

/* NAME in math mode in the font FONT ("mathrm", "mathit"), '_' escaped. */
static void latex_math_font(FILE *out, const char *font, const char *name)
{
	fprintf(out, "\\%s{", font);
	for (const char *p = name; *p; p++) {
		if (*p == '_')
			fputs("\\_", out);
		else
			fputc(*p, out);
	}
	fputs("}", out);
}

/* NAME (a superstep's) in math mode: \mathrm{name}. */
static void latex_math_name(FILE *out, const char *name)
{
	latex_math_font(out, "mathrm", name);
}

/* NAME (a size or an axis) in math mode as the formulas write it: a letter
 * as is, a longer name \mathit{name}. */
static void latex_math_var(FILE *out, const char *name)
{
	if (strlen(name) == 1)
		fputs(name, out);
	else
		latex_math_font(out, "mathit", name);
}

/* A number as report_number writes it ("12", "10.2", "-1/3"), in math mode. */
static void latex_number(FILE *out, const char *v)
{
	if (v[0] == '~') { /* rounded (--digits) */
		fputs("\\approx ", out);
		v++;
	}
	const char *slash = strchr(v, '/');
	if (!slash) {
		fputs(v, out);
		return;
	}
	const char *num = v[0] == '-' ? v + 1 : v;
	fprintf(out, "%s\\frac{%.*s}{%s}", v[0] == '-' ? "-" : "", (int)(slash - num), num,
		slash + 1);
}

/* Writes the label of quantity Q of superstep NAME (NULL: the total) and
 * returns an estimate of its width. */
static double label(FILE *out, enum quantity q, const char *name)
{
	static const char *const tex[Q_ALL] = {"w", "h", "h", "h", "N", "\\mathit{cost}",
					       "\\mathit{mem}", "\\mathit{msgs}", "\\mathit{msgs}",
					       "\\mathit{msgs}"};
	static const char *const sub[Q_ALL] = {"", "", "\\mathrm{in},", "\\mathrm{out},",
					       "\\mathrm{Com},", "", "", "", "\\mathrm{in},",
					       "\\mathrm{out},"};
	fputs(tex[q], out);
	if (name) {
		fprintf(out, "_{%s", sub[q]);
		latex_math_name(out, name);
		fputs("}", out);
	} else if (q == Q_NCOM) {
		fputs("_{\\mathrm{Com}}", out);
	}
	double w = q == Q_COST || q == Q_MEM ? 4.5 : q == Q_NCOM ? 1.8 : 1.1;
	return w + (name ? 0.7 * 1.2 * (double)(strlen(name) + strlen(sub[q]) / 3) : 0);
}

/* One line of the align*: the label, the formula broken to fit beside it,
 * then its value on a line of its own when it has one the formula's text is
 * not already (e.g. not "0 = 0"); LAST: no line break after it. */
static void quantity_line(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
			  const struct formula *f, const char *name, bool last)
{
	double lw = label(out, q, name);
	double width = LINE_WIDTH - lw - EQUALS_WIDTH;
	const struct cost_model *cm = report_model(a->rq);
	char *text = q == Q_COST ? formula_to_latex(f, cm->coef_names, cm->ncoefs, width)
				 : formula_to_latex(f, NULL, 0, width);
	int lines = 1;
	for (const char *p = text; p && (p = strstr(p, "\\\\")); p += 2)
		lines++;
	if (lines > MAX_LINES)
		fprintf(out, " &= \\text{(%d lines, more than a page: see the text or JSON report)}",
			lines);
	else if (!f && s >= 0 && s < a->cands[c].nsteps && a->cands[c].steps[s].refused &&
		 q != Q_MEM)
		/* a refused superstep: why, below the lines */
		fputs(" &= \\text{no formula (below)}", out);
	else if (!f && report_quantity_why(a, c, s, q)) {
		/* one quantity without a formula (a transpose's NCom); the
		 * reason, a paragraph long, is the text report's */
		fputs(" &= \\text{no formula (the text report says why)}", out);
	} else
		/* no F: a refused candidate's loop without a sum, or its total */
		fprintf(out, " &= %s", text ? text : f ? "?" : s < 0 ? "\\text{no formula}"
									: "\\text{no sum (one run below)}");
	char *v = report_value_beside(a, c, s, q, f);
	if (v) {
		fputs(" \\\\\n &= ", out);
		latex_number(out, v);
	}
	fputs(last ? "\n" : " \\\\\n", out);
	free(v);
	free(text);
}

/* The supersteps of STEPS in loops: how many times each runs (its lines
 * are the sums over the runs) and, with formulas, one run's quantities. */
static void loop_notes(FILE *out, const struct analysis *a, int c,
		       const struct candidate_cost *steps)
{
	const struct cost_model *cm = report_model(a->rq);
	for (int s = 0; s < steps->nsteps; s++) {
		const struct step_cost *sc = &steps->steps[s];
		if (!sc->loop || sc->refused)
			continue;
		fputs("Superstep ", out);
		latex_code(out, sc->name);
		fputs(" runs in the loop ", out);
		latex_code(out, sc->loop);
		char *n = formula_to_latex(sc->iterations, NULL, 0, LINE_WIDTH);
		char *t = formula_to_string(sc->iterations, FORMULA_TEXT);
		char *v = report_iterations_value(a, c, s, sc, t);
		fprintf(out, ", $%s$ times", n ? n : "?");
		if (v) {
			fputs(" ($= ", out);
			latex_number(out, v);
			fputs("$)", out);
		}
		fputs(report_step_sumless(sc) && sc->per_w ? "; its runs have no sum."
					  : "; its lines are the sums over the runs.", out);
		free(n);
		free(v);
		free(t);
		if (!sc->per_w) {
			fputs("\n", out);
			continue;
		}
		fputs(" One run:\n\\begin{align*}\n", out);
		for (int k = 0; k < RUN_N; k++) {
			enum quantity q = run_quantity[k];
			double lw = label(out, q, sc->name);
			double width = LINE_WIDTH - lw - EQUALS_WIDTH;
			const struct formula *f = run_formula(sc, q);
			char *text = q == Q_COST ? formula_to_latex(f, cm->coef_names, cm->ncoefs, width)
						 : formula_to_latex(f, NULL, 0, width);
			fprintf(out, " &= %s%s\n", text ? text : f ? "?" : "\\text{no formula}",
				k + 1 < RUN_N ? " \\\\" : "");
			free(text);
		}
		fputs("\\end{align*}\n", out);
	}
}

/* A line of values: the label of quantity Q of step S (the total when S < 0)
 * of candidate C and its value; LAST: no line break after it. */
static void value_line(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
		       const char *name, bool last)
{
	label(out, q, name);
	char *v = report_value_shown(a, c, s, q);
	fputs(" &= ", out);
	if (v)
		latex_number(out, v);
	else
		fputs("\\text{(needs $g$ and $l$)}", out);
	fputs(last ? "\n" : " \\\\\n", out);
	free(v);
}

/* The messages of step S of candidate C (SC) where they were counted, as
 * FORMULAS or values, or why they have none. */
static void msgs_lines(FILE *out, const struct analysis *a, int c, int s,
		       const struct step_cost *sc, bool formulas)
{
	const char *why = NULL;
	const struct step_cost *fs = formulas ? sc : NULL;
	enum msgs_shown shown = report_msgs_shown(a, c, s, fs, &why);
	if (shown == MSGS_NONE)
		return;
	for (int q = Q_MSGS; q <= (shown == MSGS_WHY ? Q_MSGS : Q_MSGS_OUT); q++) {
		const struct formula *f = fs ? step_quantity(fs, q) : NULL;
		if (f) {
			quantity_line(out, a, c, s, q, f, sc->name, false);
			continue;
		}
		if (!fs && shown == MSGS_LINES) {
			value_line(out, a, c, s, q, sc->name, false);
			continue;
		}
		label(out, q, sc->name);
		fprintf(out, " &= \\text{%s ", shown == MSGS_WHY ? "not counted:" : "no formula:");
		latex_text(out, why ? why : "?");
		fputs("}", out);
		char *v = shown == MSGS_LINES ? report_value_shown(a, c, s, q) : NULL;
		if (v) {
			fputs(" \\\\\n &= ", out);
			latex_number(out, v);
		}
		free(v);
		fputs(" \\\\\n", out);
	}
}

/* The values of STEPS, which has no formulas, in an align*. */
static void values_only(FILE *out, const struct analysis *a, int c,
			const struct candidate_cost *steps)
{
	fputs("The values given, counted at those values:\n\\begin{align*}\n", out);
	for (int s = 0; s < steps->nsteps; s++) {
		for (int q = 0; q < Q_N; q++)
			value_line(out, a, c, s, q, steps->steps[s].name, false);
		msgs_lines(out, a, c, s, &steps->steps[s], false);
	}
	value_line(out, a, c, -1, Q_COST, NULL, !steps->mem);
	if (steps->mem)
		value_line(out, a, c, -1, Q_MEM, NULL, true);
	fputs("\\end{align*}\n", out);
	loop_notes(out, a, -1, steps);
}

static void header(FILE *out, const struct analysis *a)
{
	const struct report_request *rq = a->rq;
	fputs("% bspcost: ", out);
	latex_text(out, a->file);
	fputs("\n% needs \\usepackage{amsmath}\n", out);
	fprintf(out, "\\paragraph{%s grid", a->symbolic ? "Symbolic" : "Concrete");
	for (int x = 0; x < a->naxes; x++) {
		fputs(x ? " $\\times$ " : " ", out);
		fputs("$", out);
		latex_math_var(out, a->axes[x]);
		if (!a->symbolic)
			fprintf(out, " = %ld", a->sizes[x]);
		fputs("$", out);
	}
	fputs(".}\n", out);
	int shown = 0;
	for (int i = 0; i < rq->ndefs; i++) {
		if (!report_given(a, i))
			continue;
		fputs(shown++ ? ", $" : "Values given: $", out);
		latex_math_var(out, rq->defs[i].name);
		fputs(" = ", out);
		report_param_value(out, &rq->defs[i], false);
		fputs("$", out);
	}
	if (shown && rq->machine) {
		fputs(" ($g$ and $l$ of ", out);
		latex_text(out, rq->machine);
		fprintf(out, ", $p = %ld$)", rq->machine_procs);
	}
	if (shown)
		fputs(a->exact ? "; the second line of a quantity is its value at those values.\n"
			       : ".\n",
		      out);
	for (int i = 0; i < a->nassumptions; i++) {
		fputs(i ? ", " : "Assumptions: ", out);
		latex_code(out, a->assumptions[i]);
	}
	fputs(a->nassumptions ? ".\n" : "", out);
	const struct cost_model *cm = a->rq->model;
	if (cm && cm != cost_model_default()) {
		fputs("Cost function ", out);
		latex_code(out, cm->name);
		fputs(": ", out);
		latex_code(out, cm->text);
		fputs(", summed over the supersteps.\n", out);
	}
	fputs("\n", out);
}

void report_latex(FILE *out, const struct analysis *a)
{
	header(out, a);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		fputs("\\subsubsection*{", out);
		latex_text_breaking(out, cc->name, true);
		fputs("}\n", out);
		if (cc->status != COST_OK) {
			fputs("No exact formula: ", out);
			latex_text(out, cc->reason ? cc->reason : "unknown reason");
			fputs(".\n", out);
			if (cc->formulas_kept)
				fprintf(out, "Its supersteps' formulas all the same (%s):\n",
					report_kept_note(cc));
			else if (ex && ex->status == COST_OK)
				values_only(out, a, c, ex);
		}
		if (ex && ex->status != COST_OK) {
			fputs("No values for the values given: ", out);
			latex_text(out, ex->reason ? ex->reason : "unknown reason");
			fputs(".\n", out);
		}
		if (cc->status != COST_OK && !cc->formulas_kept) {
			fputs("\n", out);
			continue;
		}
		for (int i = 0; i < cc->nassumptions; i++) {
			fputs(i ? ", " : "Assuming ", out);
			latex_code_breaking(out, cc->assumptions[i]);
		}
		fputs(cc->nassumptions ? ".\n" : "", out);
		char *broken = report_formulas_broken(a, c, NULL);
		if (broken) {
			fputs("The values given break ", out);
			latex_code(out, broken);
			fputs(a->exact ? ": the values below are exact counts at those values, not "
					 "values of these formulas.\n"
				       : ": these formulas do not hold there (with every value given, "
					 "they are counted exactly).\n",
			      out);
		}
		free(broken);
		fputs("\\begin{align*}\n", out);
		for (int s = 0; s < cc->nsteps; s++) {
			for (int q = 0; q < Q_N; q++)
				quantity_line(out, a, c, s, q, step_quantity(&cc->steps[s], q),
					      cc->steps[s].name, false);
			msgs_lines(out, a, c, s, &cc->steps[s], true);
		}
		quantity_line(out, a, c, -1, Q_COST, cc->cost, NULL, !cc->mem);
		if (cc->mem)
			quantity_line(out, a, c, -1, Q_MEM, cc->mem, NULL, true);
		fputs("\\end{align*}\n", out);
		for (int s = 0; s < cc->nsteps; s++) {
			if (!cc->steps[s].refused)
				continue;
			fputs("Superstep ", out);
			latex_code(out, cc->steps[s].name);
			fputs(" has no formula: ", out);
			latex_text(out, report_step_refusal(&cc->steps[s]));
			fputs(".\n", out);
		}
		loop_notes(out, a, c, cc);
		char *t = report_seconds(a, c, NULL);
		if (t) {
			fputs("Time: ", out);
			latex_text(out, t);
			fputs(" on ", out);
			latex_text(out, a->rq->machine);
			fprintf(out, ", $p = %ld$ (the cost in flops / s).\n", a->rq->machine_procs);
		}
		free(t);
		fputs("\n", out);
	}
}
