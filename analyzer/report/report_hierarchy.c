/* --hierarchy: each superstep's H(0 .. k-1) and alpha (Soviani and Singh,
 * Definitions 2.3 and 2.4; analyzer/cost/hierarchy.h) on the concrete grid
 * of the values given, its processes numbered row-major, column-major or
 * in Morton order, as text, JSON, CSV or Markdown.  The counts are
 * analyzer/cost's (step_cost.hier); this prints them. */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "analyzer/report/report.h"

/* The levels of A's grid (2^k processes). */
static int levels(const struct analysis *a)
{
	int k = hierarchy_levels(a->sizes, a->naxes);
	return k < 0 ? 0 : k;
}

/* "file: the cluster hierarchy of the grid P=8 (3 levels, numbered
 * row-major); n = 64" */
static void title(FILE *out, const struct analysis *a, bool md)
{
	static const char *const how[NUMBERING_N] = {"row-major", "column-major",
						     "in Morton order"};
	if (md)
		report_md_text(out, a->file);
	else
		fputs(a->file, out);
	fputs(": the cluster hierarchy of the grid ", out);
	for (int k = 0; k < a->naxes; k++)
		fprintf(out, "%s%s=%ld", k ? ", " : "", a->axes[k], a->sizes[k]);
	fprintf(out, " (%d level%s, numbered %s)", levels(a), levels(a) == 1 ? "" : "s",
		how[a->numbering]);
	for (int i = 0, k = 0; i < a->rq->ndefs; i++) {
		if (!report_given_size(a, i))
			continue;
		fputs(k++ ? ", " : "; ", out);
		fprintf(out, "%s = ", a->rq->defs[i].name);
		report_param_value(out, &a->rq->defs[i], false);
	}
	fputs("\n", out);
}

/* Why candidate C has no H, or NULL when it has them. */
static const char *no_counts(const struct analysis *a, int c)
{
	const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
	if (!ex)
		return "not counted";
	if (ex->status != COST_OK)
		return ex->reason ? ex->reason : "not counted";
	return NULL;
}

/* Why superstep SC has no H, or NULL. */
static const char *step_why(const struct step_cost *sc)
{
	return sc->hier ? NULL : "not counted";
}

/* For a superstep in loops: "in the loop 0 <= k < n - 1: H summed over its
 * 4 runs, alpha the least of theirs" (malloc'd); NULL otherwise. */
static char *loop_note(const struct step_cost *sc)
{
	char *s = NULL;
	if (!sc->loop || !sc->hier)
		return NULL;
	if (asprintf(&s, "in the loop %s: H summed over its %ld run%s, alpha the least of theirs",
		     sc->loop, sc->hier->runs, sc->hier->runs == 1 ? "" : "s") < 0)
		return NULL;
	return s;
}

/* Q as text, malloc'd ("1/4"). */
static char *q_text(mpq_srcptr q)
{
	return mpq_get_str(NULL, 10, q);
}

static const char legend[] =
	"H(i): the most words a cluster of 2^(k-i-1) processes (the machine's "
	"2^(i+1) parts) sends out of it or receives into it, divided by its "
	"processes; H(k-1) is h.  alpha: the largest with H(j) <= h / "
	"2^((k-j-1) alpha) at every level (Soviani and Singh, Definitions 2.3 "
	"and 2.4)";

static void report_hierarchy_text(FILE *out, const struct analysis *a)
{
	title(out, a, false);
	for (int c = 0; c < a->ncands; c++) {
		fprintf(out, "\ncandidate %s\n", a->cands[c].name);
		const char *why = no_counts(a, c);
		if (why) {
			fprintf(out, "  no counts: %s\n", why);
			continue;
		}
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			char *note = loop_note(sc);
			fprintf(out, "  superstep %s%s%s%s\n", sc->name, note ? " (" : "",
				note ? note : "", note ? ")" : "");
			free(note);
			const char *swhy = step_why(sc);
			if (swhy) {
				fprintf(out, "    no H: %s\n", swhy);
				continue;
			}
			fputs("    H     = [", out);
			for (int i = 0; i < sc->hier->k; i++) {
				char *v = q_text(sc->hier->H[i]);
				fprintf(out, "%s%s", i ? ", " : "", v ? v : "?");
				free(v);
			}
			char *al = hierarchy_alpha_text(sc->hier);
			fprintf(out, "]\n    alpha = %s", al ? al : "?");
			if (sc->hier->alpha == ALPHA_LOG)
				fprintf(out, " (~%.4g)", sc->hier->approx);
			else if (sc->hier->alpha == ALPHA_NONE)
				fputs(" (no word moves)", out);
			else if (sc->hier->alpha == ALPHA_UNBOUNDED)
				fputs(" (no word leaves the 2-process clusters)", out);
			fputs("\n", out);
			free(al);
		}
	}
	fprintf(out, "\n%s\n", legend);
}

/* "alpha": a number, a string ("3/2", "log2(3)/2") or null, then
 * "alpha_approx" and, for null, "alpha_why". */
static void json_alpha(FILE *out, const struct hierarchy *hr)
{
	char *al = hierarchy_alpha_text(hr);
	fputs(", \"alpha\": ", out);
	if (hr->alpha == ALPHA_RATIONAL && mpz_cmp_ui(mpq_denref(hr->value), 1) == 0)
		fputs(al ? al : "null", out);
	else if (hr->alpha == ALPHA_RATIONAL || hr->alpha == ALPHA_LOG)
		report_json_string(out, al ? al : "?");
	else
		fputs("null", out);
	if (hr->alpha == ALPHA_RATIONAL || hr->alpha == ALPHA_LOG)
		fprintf(out, ", \"alpha_approx\": %.17g", hr->approx);
	else
		fprintf(out, ", \"alpha_approx\": null, \"alpha_why\": \"%s\"",
			hr->alpha == ALPHA_NONE ? "no word moves" : "unbounded");
	free(al);
}

static void report_hierarchy_json(FILE *out, const struct analysis *a)
{
	fputs("{\"file\": ", out);
	report_json_string(out, a->file);
	fputs(", \"grid\": {", out);
	for (int k = 0; k < a->naxes; k++) {
		fputs(k ? ", " : "", out);
		report_json_string(out, a->axes[k]);
		fprintf(out, ": %ld", a->sizes[k]);
	}
	fprintf(out, "}, \"levels\": %d, \"numbering\": \"%s\", \"values\": ", levels(a),
		numbering_name[a->numbering]);
	report_json_values(out, a, report_given_size);
	fputs(",\n \"candidates\": [", out);
	for (int c = 0; c < a->ncands; c++) {
		fputs(c ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		report_json_string(out, a->cands[c].name);
		const char *why = no_counts(a, c);
		if (why) {
			fputs(", \"reason\": ", out);
			report_json_string(out, why);
			fputs("}", out);
			continue;
		}
		fputs(", \"supersteps\": [", out);
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			fputs(s ? ",\n   {\"name\": " : "\n   {\"name\": ", out);
			report_json_string(out, sc->name);
			if (sc->loop && sc->hier) {   /* H summed over its runs */
				fputs(", \"loop\": ", out);
				report_json_string(out, sc->loop);
				fprintf(out, ", \"runs\": %ld", sc->hier->runs);
			}
			const char *swhy = step_why(sc);
			if (swhy) {
				fputs(", \"H\": null, \"alpha\": null, \"why\": ", out);
				report_json_string(out, swhy);
				fputs("}", out);
				continue;
			}
			fputs(", \"H\": [", out);
			for (int i = 0; i < sc->hier->k; i++) {
				char *v = q_text(sc->hier->H[i]);
				fputs(i ? ", " : "", out);
				report_json_number_text(out, v ? v : "null");
				free(v);
			}
			fputs("]", out);
			json_alpha(out, sc->hier);
			fputs("}", out);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

/* One row a level: candidate, superstep, level i, the processes of its
 * clusters, H(i), alpha (the superstep's, on every row). */
static void report_hierarchy_csv(FILE *out, const struct analysis *a)
{
	fputs("candidate,superstep,level,cluster_processes,H,alpha,note\n", out);
	int k = levels(a);
	for (int c = 0; c < a->ncands; c++) {
		const char *why = no_counts(a, c);
		if (why) {
			report_csv_field(out, a->cands[c].name);
			fputs(",,,,,,", out);
			report_csv_field(out, why);
			fputs("\n", out);
			continue;
		}
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			const char *swhy = step_why(sc);
			if (swhy) {
				report_csv_field(out, a->cands[c].name);
				fputs(",", out);
				report_csv_field(out, sc->name);
				fputs(",,,,,", out);
				report_csv_field(out, swhy);
				fputs("\n", out);
				continue;
			}
			char *al = hierarchy_alpha_text(sc->hier);
			char *note = loop_note(sc);
			for (int i = 0; i < k; i++) {
				char *v = q_text(sc->hier->H[i]);
				report_csv_field(out, a->cands[c].name);
				fputs(",", out);
				report_csv_field(out, sc->name);
				fprintf(out, ",%d,%ld,%s,", i, 1L << (k - i - 1), v ? v : "");
				report_csv_field(out, al ? al : "");
				fputs(",", out);
				if (note)
					report_csv_field(out, note);
				fputs("\n", out);
				free(v);
			}
			free(note);
			free(al);
		}
	}
}

static void report_hierarchy_markdown(FILE *out, const struct analysis *a)
{
	int k = levels(a);
	fputs("# ", out);
	title(out, a, true);
	for (int c = 0; c < a->ncands; c++) {
		fputs("\n## Candidate ", out);
		report_md_code(out, a->cands[c].name, false);
		fputs("\n", out);
		const char *why = no_counts(a, c);
		if (why) {
			fputs("\nNo counts: ", out);
			report_md_text(out, why);
			fputs("\n", out);
			continue;
		}
		fputs("\n| superstep |", out);
		for (int i = 0; i < k; i++)
			fprintf(out, " H(%d) |", i);
		fputs(" alpha |\n|---|", out);
		for (int i = 0; i < k; i++)
			fputs("---:|", out);
		fputs("---:|\n", out);
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			fputs("| ", out);
			report_md_code(out, sc->name, true);
			fputs(" |", out);
			if (step_why(sc)) {
				for (int i = 0; i <= k; i++)
					fputs(" - |", out);
				fputs("\n", out);
				continue;
			}
			for (int i = 0; i < k; i++) {
				char *v = q_text(sc->hier->H[i]);
				fprintf(out, " %s |", v ? v : "?");
				free(v);
			}
			char *al = hierarchy_alpha_text(sc->hier);
			fputs(" ", out);
			report_md_text(out, al ? al : "?");
			fputs(" |\n", out);
			free(al);
		}
		for (int s = 0; s < ex->nsteps; s++) {
			char *note = loop_note(&ex->steps[s]);
			const char *why = note ? note : step_why(&ex->steps[s]);
			if (why) {
				fputs("\n", out);
				report_md_code(out, ex->steps[s].name, false);
				fputs(": ", out);
				report_md_text(out, why);
				fputs(".\n", out);
			}
			free(note);
		}
	}
	fputs("\n", out);
	report_md_text(out, legend);
	fputs(".\n", out);
}

void report_hierarchy(FILE *out, enum output_format format, const struct analysis *a)
{
	if (format == FORMAT_JSON)
		report_hierarchy_json(out, a);
	else if (format == FORMAT_CSV)
		report_hierarchy_csv(out, a);
	else if (format == FORMAT_MARKDOWN)
		report_hierarchy_markdown(out, a);
	else
		report_hierarchy_text(out, a);
}

void report_hierarchy_grid(FILE *err, const char *file, int naxes, const char *const *axes,
			   const long sizes[])
{
	fprintf(err, "bspcost: %s: --hierarchy needs a grid of 2^k processes, each axis a power "
		     "of two (", file);
	for (int a = 0; a < naxes; a++)
		fprintf(err, "%s%s = %ld", a ? ", " : "", axes[a], sizes[a]);
	fputs(")\n", err);
}
