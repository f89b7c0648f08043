/* The Markdown report: a table per candidate, formulas as code, for design
 * notes.  Written for GitHub Flavored Markdown (tables); the text around the
 * code spans has every character CommonMark could read as markup escaped, and
 * the code spans in table cells have their '|' escaped (GFM splits a row at
 * every unescaped '|', code spans included).  tests/resilience/
 * markdown_gfm.sh renders it with cmark-gfm and counts the cells of every
 * row. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* A formula and, when it differs from the formula's text, its value at the
 * values given: "`3*n/P` = 750". */
static void formula_and_value(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
			      const struct formula *f, bool cell)
{
	char *text = report_quantity_text(f, q, FORMULA_TEXT, a->rq->model);
	if (f)
		report_md_code(out, text ? text : "?", cell);
	char *v = report_value_beside(a, c, s, q, f);
	if (v) {
		fputs(f ? " = " : "", out);
		report_md_text(out, v);
	} else if (!f) {
		char coefs[64];
		const char *why = report_quantity_why(a, c, s, q);
		if (q == Q_COST)
			fprintf(out, "(needs %s)", report_coef_list(coefs, a->rq->model));
		else if (why) {
			fputs("no formula: ", out);
			report_md_text(out, why);
		}
	}
	free(v);
	free(text);
}

/* Where messages were counted, their table (as steps_table's). */
static void msgs_table(FILE *out, const struct analysis *a, int c,
		       const struct candidate_cost *steps, bool formulas)
{
	bool any = false;
	const char *why = NULL;
	for (int s = 0; s < steps->nsteps; s++)
		any |= report_msgs_shown(a, c, s, formulas ? &steps->steps[s] : NULL, &why) != MSGS_NONE;
	if (!any)
		return;
	fputs("\n| superstep | msgs | msgs_in | msgs_out |\n|---|---|---|---|\n", out);
	for (int s = 0; s < steps->nsteps; s++) {
		const struct step_cost *fs = formulas ? &steps->steps[s] : NULL;
		enum msgs_shown shown = report_msgs_shown(a, c, s, fs, &why);
		if (shown == MSGS_NONE)
			continue;
		fputs("| ", out);
		report_md_text(out, steps->steps[s].name);
		fputs(" |", out);
		for (int q = Q_MSGS; q <= Q_MSGS_OUT; q++) {
			fputs(" ", out);
			const struct formula *f = fs ? step_quantity(fs, q) : NULL;
			if (shown == MSGS_WHY || (fs && !f)) {
				if (q == Q_MSGS || shown == MSGS_LINES) {
					fputs(shown == MSGS_WHY ? "not counted: " : "no formula: ", out);
					report_md_text(out, why ? why : "?");
				}
				char *v = shown == MSGS_LINES ? report_value_shown(a, c, s, q) : NULL;
				if (v) {
					fputs(" = ", out);
					report_md_text(out, v);
				}
				free(v);
			} else {
				formula_and_value(out, a, c, s, q, f, true);
			}
			fputs(" |", out);
		}
		fputs("\n", out);
	}
}

/* The table of the supersteps of STEPS (candidate C's formulas, or with
 * FORMULAS false its values alone). */
static void steps_table(FILE *out, const struct analysis *a, int c,
			const struct candidate_cost *steps, bool formulas)
{
	fputs("| superstep | w | h | h_in | h_out | NCom | cost | mem |\n", out);
	fputs("|---|---|---|---|---|---|---|---|\n", out);
	for (int s = 0; s < steps->nsteps; s++) {
		fputs("| ", out);
		report_md_text(out, steps->steps[s].name);
		fputs(" |", out);
		const struct step_cost *sc = &steps->steps[s];
		/* a refused candidate's loop without a sum: one run's below */
		bool sumless = formulas && report_step_sumless(sc) && sc->per_w;
		bool refused = formulas && sc->refused;
		for (int q = 0; q < Q_N; q++) {
			fputs(" ", out);
			char *v = (sumless || refused) && q != Q_MEM
					  ? report_value_beside(a, c, s, q, NULL) : NULL;
			if (refused && !v && q != Q_MEM)
				fputs("no formula", out);   /* why: below the table */
			else if (v)
				report_md_text(out, v);   /* the count at the values given */
			else if (sumless && q != Q_MEM)
				fputs("no sum", out);
			else
				formula_and_value(out, a, c, s, q, formulas ? step_quantity(sc, q) : NULL,
						  true);
			free(v);
			fputs(" |", out);
		}
		fputs("\n", out);
	}
	msgs_table(out, a, c, steps, formulas);
	for (int s = 0; formulas && s < steps->nsteps; s++) {
		const struct step_cost *sc = &steps->steps[s];
		if (!sc->refused)
			continue;
		fputs("\nSuperstep ", out);
		report_md_text(out, sc->name);
		fputs(" has no formula: ", out);
		report_md_text(out, report_step_refusal(sc));
		fputs(".\n", out);
	}
	for (int s = 0; s < steps->nsteps; s++) {
		const struct step_cost *sc = &steps->steps[s];
		if (!sc->loop || (formulas && sc->refused))
			continue;
		fputs("\nSuperstep ", out);
		report_md_text(out, sc->name);
		fputs(" runs in the loop ", out);
		report_md_code(out, sc->loop, false);
		fputs(", ", out);
		char *n = formula_to_string(sc->iterations, FORMULA_TEXT);
		char *v = report_iterations_value(a, c, s, sc, n);
		report_md_code(out, n ? n : "?", false);
		if (v) {
			fputs(" = ", out);
			report_md_text(out, v);
		}
		/* (a refused candidate's loop without a sum: one run's only) */
		fputs(formulas && report_step_sumless(sc) && sc->per_w ? " times; its runs have no sum."
						      : " times; its row is the sum over the runs.",
		      out);
		free(n);
		free(v);
		if (formulas && sc->per_w) {
			fputs(" One run:", out);
			for (int k = 0; k < RUN_N; k++) {
				enum quantity q = run_quantity[k];
				char *t = report_quantity_text(run_formula(sc, q), q, FORMULA_TEXT,
							       a->rq->model);
				fprintf(out, "%s %s = ", k ? "," : "",
					q == Q_NCOM ? "NCom" : quantity_name[q]);
				if (t || run_formula(sc, q))
					report_md_code(out, t ? t : "?", false);
				else
					fputs("no formula", out);
				free(t);
			}
			fputs(".", out);
		}
		fputs("\n", out);
	}
	fputs("\nTotal cost: ", out);
	char *total = formulas && !steps->cost && steps->formulas_kept
			      ? report_value(a, c, -1, Q_COST) : NULL;
	if (formulas && !steps->cost && steps->formulas_kept && !total)
		/* refused: a superstep without a sum or a formula */
		fputs("no formula", out);
	else
		formula_and_value(out, a, c, -1, Q_COST, formulas ? steps->cost : NULL, false);
	free(total);
	fputs("\n\nMemory (words per process, at most): ", out);
	formula_and_value(out, a, c, -1, Q_MEM, formulas ? steps->mem : NULL, false);
	fputs("\n", out);
	char *t = report_seconds(a, c, NULL);
	if (t) {
		fprintf(out, "\nTime: %s on ", t);
		report_md_text(out, a->rq->machine);
		fprintf(out, ", p = %ld (the cost in flops / s).\n", a->rq->machine_procs);
	}
	free(t);
}

static void header(FILE *out, const struct analysis *a)
{
	fputs("## ", out);
	report_md_text(out, a->file);
	fprintf(out, "\n\nGrid: %s", a->symbolic ? "symbolic" : "concrete");
	for (int x = 0; x < a->naxes; x++) {
		fputs(x ? " x " : " ", out);
		report_md_text(out, a->axes[x]);
		if (!a->symbolic)
			fprintf(out, " = %ld", a->sizes[x]);
	}
	fputs(".\n", out);
	const struct report_request *rq = a->rq;
	int shown = 0;
	for (int i = 0; i < rq->ndefs; i++) {
		if (!report_given(a, i))
			continue;
		fputs(shown++ ? ", " : "Values given: ", out);
		report_md_text(out, rq->defs[i].name);
		fputs(" = ", out);
		report_param_value(out, &rq->defs[i], false);
	}
	if (shown) {
		if (rq->machine) {
			char coefs[64];
			fprintf(out, " (%s of ", report_coef_list(coefs, rq->model));
			report_md_text(out, rq->machine);
			fprintf(out, ", p = %ld)", rq->machine_procs);
		}
		fputs(a->exact ? "; the numbers after = are counted at these values.\n" : ".\n", out);
	}
	for (int i = 0; i < a->nassumptions; i++) {
		fputs(i ? ", " : "Assumptions: ", out);
		report_md_code(out, a->assumptions[i], false);
	}
	fputs(a->nassumptions ? ".\n" : "", out);
	const struct cost_model *cm = a->rq->model;
	if (cm && cm != cost_model_default()) {
		fputs("Cost function ", out);
		report_md_text(out, cm->name);
		fputs(": ", out);
		report_md_code(out, cm->text, false);
		fputs(", summed over the supersteps.\n", out);
	}
}

void report_markdown(FILE *out, const struct analysis *a)
{
	header(out, a);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		fputs("\n### ", out);
		report_md_text(out, cc->name);
		fputs("\n\n", out);
		if (cc->status != COST_OK) {
			fputs("No exact formula: ", out);
			report_md_text(out, cc->reason ? cc->reason : "unknown reason");
			fputs(".\n", out);
			if (cc->formulas_kept)
				fprintf(out, "\nIts supersteps' formulas all the same (%s)%s:\n\n",
					report_kept_note(cc),
					ex ? ", with the values given beside them" : "");
			else if (ex && ex->status == COST_OK) {
				fputs("\nThe values given, counted on that grid:\n\n", out);
				steps_table(out, a, c, ex, false);
			}
		}
		if (ex && ex->status != COST_OK) {
			fputs(cc->status == COST_OK ? "" : "\n", out);
			fputs("No values for the values given: ", out);
			report_md_text(out, ex->reason ? ex->reason : "unknown reason");
			fputs(cc->status == COST_OK ? ".\n\n" : ".\n", out);
		}
		if (cc->status != COST_OK && !cc->formulas_kept)
			continue;
		for (int i = 0; i < cc->nassumptions; i++) {
			fputs(i ? ", " : "Assuming ", out);
			report_md_code(out, cc->assumptions[i], false);
		}
		fputs(cc->nassumptions ? ".\n\n" : "", out);
		char *broken = report_formulas_broken(a, c, NULL);
		if (broken) {
			fputs("**Note:** the values given break ", out);
			report_md_code(out, broken, false);
			fputs(a->exact ? ": the numbers after = are exact counts on that grid, not "
					 "values of these formulas.\n\n"
				       : ": these formulas do not hold there (with every value given, "
					 "they are counted exactly).\n\n",
			      out);
		}
		free(broken);
		steps_table(out, a, c, cc, true);
	}
}
