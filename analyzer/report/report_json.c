/* The JSON report: the contract of bspcost(1), for tools. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* {"formula": TEXT (or null)[, "value": VALUE]}. */
static void json_formula(FILE *out, const char *text, bool with_value, const char *value)
{
	fputs("{\"formula\": ", out);
	if (text)
		report_json_string(out, text);
	else
		fputs("null", out);
	if (with_value) {
		fputs(", \"value\": ", out);
		report_json_number_text(out, value);
	}
	fputs("}", out);
}

/* {"formula": "...", "value": N or null}; a fraction value is a string. */
static void json_quantity(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
			  const struct formula *f)
{
	char *text = report_quantity_text(f, q, FORMULA_EXPR, a->rq->model);
	char *v = report_value(a, c, s, q);
	json_formula(out, f ? (text ? text : "") : NULL, true, v);
	free(text);
	free(v);
}

/* Where messages were counted: "msgs", "msgs_in", "msgs_out" as the other
 * quantities (the formulas of FS, may be NULL; SC the values'), and
 * "msgs_why" where they have none. */
static void json_msgs(FILE *out, const struct analysis *a, int c, int s,
		      const struct step_cost *sc, const struct step_cost *fs)
{
	const char *why = NULL, *fwhy = NULL;
	if (!report_step_msgs(sc, &why) && !(fs && report_step_msgs(fs, &fwhy)))
		return;
	if (fs)
		report_step_msgs(fs, &fwhy);
	for (int q = Q_MSGS; q <= Q_MSGS_OUT; q++) {
		fprintf(out, ",\n     \"%s\": ", quantity_name[q]);
		json_quantity(out, a, c, s, q, fs ? step_quantity(fs, q) : NULL);
	}
	if (why || fwhy) {
		fputs(", \"msgs_why\": ", out);
		report_json_string(out, why ? why : fwhy);
	}
}

/* A superstep in loops: "loop" (its range), "iterations" (how many times it
 * runs: a formula and its value) and "per_iteration" (one run's w, h, ncom
 * and cost, each {"formula": ...} in the loops' variables; null at values).
 * Its quantities are the sums over the runs. */
static void json_loop(FILE *out, const struct analysis *a, int c, int s,
		      const struct step_cost *sc, bool formula)
{
	if (!sc->loop)
		return;
	fputs(",\n     \"loop\": ", out);
	report_json_string(out, sc->loop);
	char *text = formula ? formula_to_string(sc->iterations, FORMULA_EXPR) : NULL;
	char *v = sc->iterations ? report_iterations_number(a, c, s, sc) : NULL;
	fputs(", \"iterations\": ", out);
	json_formula(out, text, true, v);
	free(v);
	free(text);
	fputs(",\n     \"per_iteration\": ", out);
	if (!sc->per_w) {
		fputs("null", out);
		return;
	}
	for (int k = 0; k < RUN_N; k++) {
		enum quantity q = run_quantity[k];
		char *t = report_quantity_text(run_formula(sc, q), q, FORMULA_EXPR, a->rq->model);
		fprintf(out, "%s\"%s\": ", k ? ", " : "{", quantity_name[q]);
		json_formula(out, t, false, NULL);
		free(t);
	}
	fputs("}", out);
}

void report_json(FILE *out, const struct analysis *a)
{
	fputs("{\"file\": ", out);
	report_json_string(out, a->file);
	fprintf(out, ", \"mode\": \"%s\", \"machine\": ", a->symbolic ? "symbolic" : "concrete");
	if (a->rq->machine)
		report_json_string(out, a->rq->machine);
	else
		fputs("null", out);
	fputs(", \"model\": ", out);
	report_json_string(out, report_model(a->rq)->name);
	/* the values given (-D, and a machine's g and l), as in -p's JSON */
	fputs(", \"values\": ", out);
	report_json_values(out, a, report_given);
	fputs(", \"assumptions\": [", out);
	for (int i = 0; i < a->nassumptions; i++) {
		fputs(i ? ", " : "", out);
		report_json_string(out, a->assumptions[i]);
	}
	fputs("],\n \"candidates\": [", out);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		fputs(c ? ",\n  {" : "\n  {", out);
		fputs("\"name\": ", out);
		report_json_string(out, cc->name);
		fputs(", \"grid\": {", out);
		for (int x = 0; x < a->naxes; x++) {
			fputs(x ? ", " : "", out);
			report_json_string(out, a->axes[x]);
			if (a->symbolic)
				fputs(": null", out);
			else
				fprintf(out, ": %ld", a->sizes[x]);
		}
		fputs("}, \"status\": ", out);
		report_json_string(out, cc->status == COST_OK ? "ok" : cc->status == COST_REFUSED ? "refused"
											    : "failed");
		if (cc->status != COST_OK) {
			fputs(", \"reason\": ", out);
			report_json_string(out, cc->reason ? cc->reason : "");
		}
		/* With every value given: whether the values were counted, and why
		 * not when they were not (a null value is never left unexplained). */
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		if (ex) {
			fputs(", \"values\": ", out);
			report_json_string(out, ex->status == COST_OK ? "ok" : ex->status == COST_REFUSED ? "refused"
												 : "failed");
			if (ex->status != COST_OK) {
				fputs(", \"values_reason\": ", out);
				report_json_string(out, ex->reason ? ex->reason : "");
			}
		}
		/* the values are counts where the formulas do not apply; with
		 * some sizes only, the formulas do not hold at them */
		char *broken = report_formulas_broken(a, c, NULL);
		if (broken) {
			fputs(", \"broken_assumption\": ", out);
			report_json_string(out, broken);
		}
		free(broken);
		/* the steps: the formulas' own, or (no formula) the values'; a
		 * candidate refused for a loop's sum its formulas all the same
		 * (null where a loop's runs have no sum, "per_iteration" there) */
		const struct candidate_cost *vals = cc->status == COST_OK ? cc
						    : ex && ex->status == COST_OK ? ex : NULL;
		bool formulas = vals == cc || cc->formulas_kept;
		const struct candidate_cost *steps = formulas ? cc : vals;
		if (!steps) {
			fputs("}", out);
			continue;
		}
		fputs(", \"assumptions\": [", out);
		for (int i = 0; formulas && i < cc->nassumptions; i++) {
			fputs(i ? ", " : "", out);
			report_json_string(out, cc->assumptions[i]);
		}
		fputs("],\n   \"supersteps\": [", out);
		for (int s = 0; s < steps->nsteps; s++) {
			fputs(s ? ",\n    {" : "\n    {", out);
			fputs("\"name\": ", out);
			report_json_string(out, steps->steps[s].name);
			for (int q = 0; q < Q_N; q++) {
				fprintf(out, ",\n     \"%s\": ", quantity_name[q]);
				json_quantity(out, a, c, s, q,
					      formulas ? step_quantity(&cc->steps[s], q) : NULL);
			}
			const char *refused = formulas ? report_step_refusal(&cc->steps[s]) : NULL;
			const char *nwhy = formulas && !refused ? step_quantity_why(&cc->steps[s], Q_NCOM)
								: NULL;
			if (refused) {
				fputs(", \"refused\": ", out);
				report_json_string(out, refused);
			}
			if (nwhy) {
				fputs(", \"ncom_why\": ", out);
				report_json_string(out, nwhy);
			}
			json_msgs(out, a, c, s, vals ? &vals->steps[s] : &steps->steps[s],
				  formulas ? &cc->steps[s] : NULL);
			/* a refused superstep's loop: the values' where counted,
			 * its runs a number (no formula) */
			if (!refused)
				json_loop(out, a, c, s, &steps->steps[s], true);
			else if (vals && vals != cc)
				json_loop(out, a, c, s, &vals->steps[s], false);
			fputs("}", out);
		}
		fputs("],\n   \"cost\": ", out);
		json_quantity(out, a, c, -1, Q_COST, formulas ? cc->cost : NULL);
		fputs(",\n   \"mem\": ", out);
		json_quantity(out, a, c, -1, Q_MEM, formulas ? cc->mem : NULL);
		if (a->rq->machine) {
			/* exact: a string unless an integer */
			char *exact = NULL;
			free(report_seconds(a, c, &exact));
			fputs(", \"seconds\": ", out);
			report_json_number_text(out, exact);
			free(exact);
		}
		fputs("}", out);
	}
	fputs("]}\n", out);
}
