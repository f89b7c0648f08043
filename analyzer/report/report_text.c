/* The text report: for people at a terminal. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

static const char *const cost_names[] = {"g", "l"};

/* Prints F and returns its text (malloc'd, or NULL). */
static char *print_formula(FILE *out, const struct formula *f, enum quantity q)
{
	char *s = q == Q_COST ? formula_to_string_by(f, FORMULA_TEXT, cost_names, 2)
			      : formula_to_string(f, FORMULA_TEXT);
	fputs(s ? s : "(cannot print)", out);
	return s;
}

static void print_value(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
			const char *formula)
{
	char *v = report_value(a, c, s, q);
	if (v && (!formula || strcmp(v, formula) != 0))
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

/* "  time = ... on MACHINE, p = P" when a machine gives its speed. */
static void print_seconds(FILE *out, const struct analysis *a, int c)
{
	char *t = report_seconds(a, c, NULL);
	if (t)
		fprintf(out, "  time = %s on %s, p = %ld (the cost in flops / s)\n", t,
			a->rq->machine, a->rq->machine_procs);
	free(t);
}

/* The exact numbers of candidate C on the grid of the -D values, for a candidate
 * that has no symbolic formula. */
static void print_values_only(FILE *out, const struct analysis *a, int c)
{
	const struct candidate_cost *ex = &a->exact[c];
	fputs("  the values given, counted on that grid:\n", out);
	for (int s = 0; s < ex->nsteps; s++) {
		fprintf(out, "  superstep %s\n", ex->steps[s].name);
		for (int q = 0; q < Q_N; q++) {
			char *v = report_value(a, c, s, q);
			fprintf(out, "    %-5s = %s\n", q == Q_NCOM ? "NCom" : quantity_name[q],
				v ? v : "(needs g and l)");
			free(v);
		}
	}
	char *v = report_value(a, c, -1, Q_COST);
	fprintf(out, "  cost = %s\n", v ? v : "(needs g and l)");
	free(v);
	print_seconds(out, a, c);
}

/* Why candidate EX has no values for the values given. */
static void print_no_values(FILE *out, const struct candidate_cost *ex)
{
	fprintf(out, "  no values for the values given: %s\n",
		ex->reason ? ex->reason : "unknown reason");
}

static void print_short(FILE *out, const struct formula *f, const char *why)
{
	char *s = f ? formula_to_string(f, FORMULA_TEXT) : NULL;
	if (s)
		fputs(s, out);
	else
		fprintf(out, "no exact formula (%s)", why ? why : "unknown reason");
	free(s);
}

/* --explain: the derivation of superstep S in the paper's terms. */
static void print_explanation(FILE *out, const struct analysis *a, const struct step_cost *sc,
			      int s)
{
	bool sized = false;
	fputs("    local postcondition R.q of process q (owner computes: q evaluates the\n"
	      "    instances whose left-hand element it owns):\n", out);
	const struct ast_superstep *ss = a->spec ? a->spec->supersteps[s] : NULL;
	for (int i = 0; ss && i < ss->nstmts; i++) {
		fputs("      ", out);
		print_stmt_line(out, ss->stmts[i]);
		fputs("\n", out);
	}
	for (int k = 0; k < sc->narrays; k++) {
		const struct array_occurrence *ao = &sc->arrays[k];
		fprintf(out, "    %s: NOcc.e = number of R.q reading e; its maximum over e: ", ao->name);
		print_short(out, ao->nocc, ao->nocc_why);
		fputs("\n      sum over e of NOcc.e = ", out);
		print_short(out, ao->occurrences, ao->occurrences_why);
		fputs("\n      elements read but not by their owner (A.e = 0): ", out);
		print_short(out, ao->unowned, ao->unowned_why);
		fputs("\n", out);
		if (ao->words != 1)
			fprintf(out, "      each element is %lld words (size %lld): it counts %lld in "
				     "NCom, fan_in and fan_out\n",
				ao->words, ao->words, ao->words);
		sized |= ao->words != 1;
	}
	fprintf(out, "    NCom = sum over e of %s(NOcc.e - A.e); h = max over q of max(fan_in_q, "
		     "fan_out_q)\n", sized ? "words.e * " : "");
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
			/* a time limit is no reason to leave the symbolic grid */
			if (cc->status == COST_REFUSED && a->symbolic && !cc->timed_out &&
			    !a->rq->values_only)
				fputs("  (a concrete grid, e.g. --grid 4x4, gives exact formulas)\n", out);
			if (a->exact && a->exact[c].status == COST_OK)
				print_values_only(out, a, c);
			else if (a->exact)
				print_no_values(out, &a->exact[c]);
			continue;
		}
		for (int i = 0; i < cc->nassumptions; i++)
			fprintf(out, "  assuming %s\n", cc->assumptions[i]);
		if (a->exact && a->exact[c].status != COST_OK)
			print_no_values(out, &a->exact[c]);
		char *broken = a->exact ? report_broken_condition(a, c) : NULL;
		if (broken)
			fprintf(out, "  note: the values given break '%s': the numbers in [] are exact "
				     "counts on that grid, not values of these formulas\n", broken);
		free(broken);
		for (int s = 0; s < cc->nsteps; s++) {
			fprintf(out, "  superstep %s\n", cc->steps[s].name);
			if (a->rq->explain)
				print_explanation(out, a, &cc->steps[s], s);
			for (int q = 0; q < Q_N; q++) {
				fprintf(out, "    %-5s = ", q == Q_NCOM ? "NCom" : quantity_name[q]);
				char *text = print_formula(out, step_quantity(&cc->steps[s], q), q);
				print_value(out, a, c, s, q, text);
				free(text);
				fputs("\n", out);
			}
		}
		fputs("  cost = ", out);
		char *text = print_formula(out, cc->cost, Q_COST);
		print_value(out, a, c, -1, Q_COST, text);
		free(text);
		fputs("\n", out);
		print_seconds(out, a, c);
	}
}
