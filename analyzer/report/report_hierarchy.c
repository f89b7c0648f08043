/* --hierarchy: each superstep's H(0 .. k-1) and alpha (Soviani and Singh,
 * Definitions 2.3 and 2.4; analyzer/cost/hierarchy.h) on a concrete grid,
 * its processes numbered row-major, column-major, in Morton order or as a
 * file lists, as text, JSON, CSV, Markdown or LaTeX: at the values given
 * (step_cost.hier) or, the sizes left free, H(i)'s formulas in them
 * (step_cost.hf).  The counts are analyzer/cost's; this prints them. */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "analyzer/formula/formula.h"
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
	const char *numbered = a->numbering < NUMBERING_N ? how[a->numbering] : "as a file lists";
	if (md)
		report_md_text(out, a->file);
	else
		fputs(a->file, out);
	fputs(": the cluster hierarchy of the grid ", out);
	for (int k = 0; k < a->naxes; k++)
		fprintf(out, "%s%s=%ld", k ? ", " : "", a->axes[k], a->sizes[k]);
	fprintf(out, " (%d level%s, numbered %s)", levels(a), levels(a) == 1 ? "" : "s", numbered);
	if (a->topology)
		fprintf(out, " on %s", a->topology->title);
	report_sizes_given(out, a);
	if (!a->exact)
		fputs("; H(i) as formulas in the sizes", out);
	fputs("\n", out);
}


/* The counts of candidate C that A shows: its values (A->exact) or, the
 * sizes left free, its formulas (A->cands, whose steps have H's). */
static const struct candidate_cost *counts(const struct analysis *a, int c)
{
	return a->exact ? &a->exact[c] : &a->cands[c];
}

/* Why candidate C has no counts, or NULL. */
static const char *no_counts(const struct analysis *a, int c)
{
	if (a->exact)
		return report_no_counts(a, c);
	return a->cands[c].status == COST_OK ? NULL
	       : a->cands[c].reason	     ? a->cands[c].reason
					     : "not counted";
}

/* Why superstep SC has no H, or NULL. */
static const char *step_why(const struct step_cost *sc)
{
	return sc->hier || sc->hf ? NULL : sc->hier_why ? sc->hier_why : "not counted";
}

/* alpha, where H(i) are formulas: a log of their ratios, at values only */
static const char alpha_at_values[] = "at values only (-D every size)";

/* SC's H(I) as text in STYLE (its value, or its formula), malloc'd. */
static char *level_text(const struct step_cost *sc, int i, enum formula_style style)
{
	return sc->hier ? mpq_get_str(NULL, 10, sc->hier->H[i])
			: formula_to_string(sc->hf[i], style);
}

/* SC's alpha as text, malloc'd (hierarchy_alpha_text; alpha_at_values for
 * formulas). */
static char *alpha_text(const struct step_cost *sc)
{
	return sc->hier ? hierarchy_alpha_text(sc->hier) : strdup(alpha_at_values);
}

/* "H(i)'s formulas assume 4 divides m and 4 divides n" for CC's
 * hier_assumptions (malloc'd), NULL when it has none. */
static char *assumes_text(const struct candidate_cost *cc)
{
	if (cc->nhier_assumptions == 0)
		return NULL;
	size_t len = 64;
	for (int i = 0; i < cc->nhier_assumptions; i++)
		len += strlen(cc->hier_assumptions[i]) + 5;
	char *t = malloc(len);
	if (!t)
		return NULL;
	strcpy(t, "H(i)'s formulas assume ");
	for (int i = 0; i < cc->nhier_assumptions; i++) {
		if (i)
			strcat(t, i + 1 < cc->nhier_assumptions ? ", " : " and ");
		strcat(t, cc->hier_assumptions[i]);
	}
	return t;
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

/* Adds SC's D-BSP and flat BSP costs on A's topology to DBSP and FLAT
 * (root2_init'ed with its root); -1 (nothing added) when its w or h has no
 * value. */
static int add_step_costs(const struct analysis *a, const struct step_cost *sc,
			  struct root2 *dbsp, struct root2 *flat)
{
	mpq_t w, h;
	mpq_inits(w, h, NULL);
	int st = -1;
	if (sc->hier && sc->w && sc->h && formula_eval(sc->w, NULL, NULL, 0, w) == 0 &&
	    formula_eval(sc->h, NULL, NULL, 0, h) == 0) {
		topology_costs(a->topology, sc->hier->k, w, h, (const mpq_t *)sc->hier->ceil,
			       sc->hier->runs, dbsp, flat);
		st = 0;
	}
	mpq_clears(w, h, NULL);
	return st;
}

/* The costs of step S of candidate C (S = -1: the candidate's, the sum of
 * its supersteps') as text, exact and rounded: *DBSP and *FLAT malloc'd
 * ("24 + 8*2^(1/2)"), *DA and *FA their values; -1 when one has no value. */
static int costs_text(const struct analysis *a, int c, int s, char **dbsp, char **flat,
		      double *da, double *fa)
{
	const struct candidate_cost *ex = &a->exact[c];
	struct root2 d, f;
	root2_init(&d, a->topology->root);
	root2_init(&f, a->topology->root);
	int st = 0;
	for (int k = s < 0 ? 0 : s; k < (s < 0 ? ex->nsteps : s + 1) && st == 0; k++)
		st = add_step_costs(a, &ex->steps[k], &d, &f);
	*dbsp = st == 0 ? root2_text(&d) : NULL;
	*flat = st == 0 ? root2_text(&f) : NULL;
	*da = root2_approx(&d);
	*fa = root2_approx(&f);
	root2_clear(&d);
	root2_clear(&f);
	if (st == 0 && (!*dbsp || !*flat)) {
		free(*dbsp);
		free(*flat);
		*dbsp = *flat = NULL;
		st = -1;
	}
	return st;
}

/* Whether TEXT (root2_text's) is an integer. */
static bool integral(const char *text)
{
	return strspn(text + (text[0] == '-'), "0123456789") == strlen(text + (text[0] == '-'));
}

/* "D-BSP = 24 + 8*2^(1/2) (~35.31), BSP = 41" for step S of candidate C
 * (-1: the candidate), with INDENT; nothing when A has no topology. */
static void text_costs(FILE *out, const struct analysis *a, int c, int s, const char *indent)
{
	char *d, *f;
	double da, fa;
	if (!a->topology)
		return;
	if (costs_text(a, c, s, &d, &f, &da, &fa) < 0) {
		fprintf(out, "%sD-BSP, BSP: no value (w or h has none)\n", indent);
		return;
	}
	fprintf(out, "%sD-BSP = %s", indent, d);
	if (!integral(d))
		fprintf(out, " (~%.6g)", da);
	fprintf(out, "\n%sBSP   = %s", indent, f);
	if (!integral(f))
		fprintf(out, " (~%.6g)", fa);
	fputs("\n", out);
	free(d);
	free(f);
}

/* , "dbsp": ..., "dbsp_approx": ..., "bsp": ..., "bsp_approx": ... (an
 * integer a number, else a string) for step S of candidate C (-1: the
 * candidate); nothing when A has no topology. */
static void json_costs(FILE *out, const struct analysis *a, int c, int s)
{
	char *d, *f;
	double da, fa;
	if (!a->topology)
		return;
	if (costs_text(a, c, s, &d, &f, &da, &fa) < 0) {
		fputs(", \"dbsp\": null, \"bsp\": null", out);
		return;
	}
	const char *key[2] = {"dbsp", "bsp"};
	const char *text[2] = {d, f};
	double approx[2] = {da, fa};
	for (int k = 0; k < 2; k++) {
		fprintf(out, ", \"%s\": ", key[k]);
		if (integral(text[k]))
			fputs(text[k], out);
		else
			report_json_string(out, text[k]);
		fprintf(out, ", \"%s_approx\": %.17g", key[k], approx[k]);
	}
	free(d);
	free(f);
}

static const char legend[] =
	"H(i): the most words a cluster of 2^(k-i-1) processes (the machine's "
	"2^(i+1) parts) sends out of it or receives into it, divided by its "
	"processes; H(k-1) is h.  alpha: the largest with H(j) <= h / "
	"2^((k-j-1) alpha) at every level (Soviani and Singh, Definitions 2.3 "
	"and 2.4)";

static const char topo_legend[] =
	"D-BSP: Theorem 3.1's bound, w + the sum over the levels i of ceil(H(i)) g(i) + "
	"l(i) + Pf(i) (summed over the runs of a loop); BSP: w + h g(0) + l(0), the flat "
	"machine; g, l and Pf of an i-cluster of p' = 2^(k-i) processes as the topology "
	"gives them: leading terms with unit constants, an asymptotic model (bspcost(1))";

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
		const struct candidate_cost *ex = counts(a, c);
		char *assumes = assumes_text(ex);
		if (assumes)
			fprintf(out, "  %s (--all-sizes: for every size)\n", assumes);
		free(assumes);
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
			if (sc->hf) {   /* formulas: a line each */
				for (int i = 0; i < sc->hk; i++) {
					char *v = level_text(sc, i, FORMULA_TEXT);
					fprintf(out, "    H(%d)%*s = %s\n", i, i < 10 ? 1 : 0, "",
						v ? v : "?");
					free(v);
				}
				fprintf(out, "    alpha = %s\n", alpha_at_values);
				continue;
			}
			fputs("    H     = [", out);
			for (int i = 0; i < sc->hier->k; i++) {
				char *v = level_text(sc, i, FORMULA_TEXT);
				fprintf(out, "%s%s", i ? ", " : "", v ? v : "?");
				free(v);
			}
			char *al = alpha_text(sc);
			fprintf(out, "]\n    alpha = %s", al ? al : "?");
			if (sc->hier->alpha == ALPHA_LOG)
				fprintf(out, " (~%.4g)", sc->hier->approx);
			else if (sc->hier->alpha == ALPHA_NONE)
				fputs(" (no word moves)", out);
			else if (sc->hier->alpha == ALPHA_UNBOUNDED)
				fputs(" (no word leaves the 2-process clusters)", out);
			fputs("\n", out);
			free(al);
			text_costs(out, a, c, s, "    ");
		}
		if (a->topology) {
			fputs("  candidate total:\n", out);
			text_costs(out, a, c, -1, "    ");
		}
	}
	fprintf(out, "\n%s\n", legend);
	if (a->topology)
		fprintf(out, "%s\n", topo_legend);
}

/* "alpha": a number, a string ("3/2", "log2(3)/2") or null, then
 * "alpha_approx" and, for null, "alpha_why" (HR NULL: H's are formulas). */
static void json_alpha(FILE *out, const struct hierarchy *hr)
{
	if (!hr) {
		fprintf(out, ", \"alpha\": null, \"alpha_approx\": null, \"alpha_why\": \"%s\"",
			alpha_at_values);
		return;
	}
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
	fprintf(out, "}, \"levels\": %d, \"H_as\": \"%s\", \"numbering\": \"%s\", \"topology\": ",
		levels(a), a->exact ? "values" : "formulas", numbering_label(a->numbering));
	if (a->topology)
		report_json_string(out, a->topology->name);
	else
		fputs("null", out);
	fputs(", \"values\": ", out);
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
		const struct candidate_cost *ex = counts(a, c);
		if (!a->exact) {   /* what H's formulas rest on */
			const char *key[2] = {"H_assumptions", "H_conditions"};
			for (int t = 0; t < 2; t++) {
				fprintf(out, ", \"%s\": [", key[t]);
				for (int i = 0; i < ex->nhier_assumptions; i++) {
					fputs(i ? ", " : "", out);
					report_json_string(out, t ? ex->hier_conditions[i]
								  : ex->hier_assumptions[i]);
				}
				fputs("]", out);
			}
		}
		fputs(", \"supersteps\": [", out);
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
			for (int i = 0; i < (sc->hier ? sc->hier->k : sc->hk); i++) {
				char *v = level_text(sc, i, FORMULA_EXPR);
				fputs(i ? ", " : "", out);
				if (!v)
					fputs("null", out);
				else if (sc->hier)
					report_json_number_text(out, v);
				else
					report_json_string(out, v);
				free(v);
			}
			fputs("]", out);
			json_alpha(out, sc->hier);
			json_costs(out, a, c, s);
			fputs("}", out);
		}
		fputs("]", out);
		json_costs(out, a, c, -1);
		fputs("}", out);
	}
	fputs("]}\n", out);
}

/* One row a level: candidate, superstep, level i, the processes of its
 * clusters, H(i), alpha (the superstep's, on every row). */
static void report_hierarchy_csv(FILE *out, const struct analysis *a)
{
	fputs("candidate,superstep,level,cluster_processes,H,alpha,dbsp,bsp,note\n", out);
	int k = levels(a);
	for (int c = 0; c < a->ncands; c++) {
		const char *why = no_counts(a, c);
		if (why) {
			report_csv_field(out, a->cands[c].name);
			fputs(",,,,,,,,", out);
			report_csv_field(out, why);
			fputs("\n", out);
			continue;
		}
		const struct candidate_cost *ex = counts(a, c);
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			const char *swhy = step_why(sc);
			if (swhy) {
				report_csv_field(out, a->cands[c].name);
				fputs(",", out);
				report_csv_field(out, sc->name);
				fputs(",,,,,,,", out);
				report_csv_field(out, swhy);
				fputs("\n", out);
				continue;
			}
			char *al = alpha_text(sc);
			/* formulas: what they assume, on every row */
			char *note = a->exact ? loop_note(sc) : assumes_text(ex);
			char *d = NULL, *f = NULL;
			double da, fa;
			if (a->topology)
				costs_text(a, c, s, &d, &f, &da, &fa);
			for (int i = 0; i < k; i++) {
				char *v = level_text(sc, i, FORMULA_EXPR);
				report_csv_field(out, a->cands[c].name);
				fputs(",", out);
				report_csv_field(out, sc->name);
				fprintf(out, ",%d,%ld,", i, 1L << (k - i - 1));
				if (sc->hier)   /* a number */
					fputs(v ? v : "", out);
				else
					report_csv_field(out, v ? v : "");
				fputs(",", out);
				report_csv_field(out, al ? al : "");
				fputs(",", out);
				if (d)
					report_csv_field(out, d);
				fputs(",", out);
				if (f)
					report_csv_field(out, f);
				fputs(",", out);
				if (note)
					report_csv_field(out, note);
				fputs("\n", out);
				free(v);
			}
			free(note);
			free(al);
			free(d);
			free(f);
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
		/* formulas: no alpha column (a sentence below says why) */
		int alpha_col = a->exact ? 1 : 0;
		fputs("\n| superstep |", out);
		for (int i = 0; i < k; i++)
			fprintf(out, " H(%d) |", i);
		fputs(a->topology ? " alpha | D-BSP | BSP |\n|---|" : alpha_col ? " alpha |\n|---|"
									  : "\n|---|", out);
		for (int i = 0; i < k + alpha_col + (a->topology ? 2 : 0); i++)
			fputs("---:|", out);
		fputs("\n", out);
		const struct candidate_cost *ex = counts(a, c);
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			fputs("| ", out);
			report_md_code(out, sc->name, true);
			fputs(" |", out);
			if (step_why(sc)) {
				for (int i = 0; i < k + alpha_col + (a->topology ? 2 : 0); i++)
					fputs(" - |", out);
				fputs("\n", out);
				continue;
			}
			for (int i = 0; i < k; i++) {
				char *v = level_text(sc, i, FORMULA_TEXT);
				fputs(" ", out);
				if (sc->hier)
					fputs(v ? v : "?", out);
				else
					report_md_code(out, v ? v : "?", true);
				fputs(" |", out);
				free(v);
			}
			if (alpha_col) {
				char *al = alpha_text(sc);
				fputs(" ", out);
				report_md_text(out, al ? al : "?");
				fputs(" |", out);
				free(al);
			}
			char *d = NULL, *f = NULL;
			double da, fa;
			if (a->topology && costs_text(a, c, s, &d, &f, &da, &fa) == 0) {
				fputs(" ", out);
				report_md_text(out, d);
				fputs(" | ", out);
				report_md_text(out, f);
				fputs(" |", out);
			} else if (a->topology) {
				fputs(" - | - |", out);
			}
			fputs("\n", out);
			free(d);
			free(f);
		}
		char *d = NULL, *f = NULL;
		double da, fa;
		if (a->topology && costs_text(a, c, -1, &d, &f, &da, &fa) == 0) {
			fputs("\nThe candidate's D-BSP cost: ", out);
			report_md_text(out, d);
			fputs("; its BSP cost: ", out);
			report_md_text(out, f);
			fputs(".\n", out);
		}
		free(d);
		free(f);
		char *assumes = assumes_text(ex);
		if (assumes) {
			fputs("\n", out);
			report_md_text(out, assumes);
			fputs(" (`--all-sizes`: for every size).\n", out);
			free(assumes);
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
	if (!a->exact)
		fprintf(out, "\nH(i) as formulas in the sizes; alpha %s.\n", alpha_at_values);
	if (a->topology) {
		fputs("\n", out);
		report_md_text(out, topo_legend);
		fputs(".\n", out);
	}
}

/* S in typewriter type, its special characters escaped, breakable after
 * commas and slashes. */
static void latex_tt(FILE *out, const char *s)
{
	fputs("\\texttt{", out);
	report_latex_text(out, s, true);
	fputs("}", out);
}

/* LaTeX: a paragraph per candidate, and per superstep a table of its levels
 * (a row each, so that 12 levels fit the page as well as 2), its alpha and
 * costs below. */
static void report_hierarchy_latex(FILE *out, const struct analysis *a)
{
	static const char *const how[NUMBERING_N] = {"row-major", "column-major",
						     "in Morton order"};
	int k = levels(a);
	fputs("% bspcost: ", out);
	report_latex_text(out, a->file, false);
	fputs("\n% needs \\usepackage{amsmath}\n\\paragraph{The cluster hierarchy of the grid", out);
	for (int x = 0; x < a->naxes; x++) {
		fputs(x ? " $\\times$ " : " ", out);
		report_latex_text(out, a->axes[x], false);
		fprintf(out, " = %ld", a->sizes[x]);
	}
	fprintf(out, " (%d level%s, numbered %s)", k, k == 1 ? "" : "s",
		a->numbering < NUMBERING_N ? how[a->numbering] : "as a file lists");
	if (a->topology) {
		fputs(" on ", out);
		report_latex_text(out, a->topology->title, true);
	}
	fputs(".}\n", out);
	int shown = 0;
	for (int i = 0; i < a->rq->ndefs; i++) {
		if (!report_given_size(a, i))
			continue;
		fputs(shown++ ? ", " : "Values given: ", out);
		report_latex_text(out, a->rq->defs[i].name, false);
		fputs(" = ", out);
		report_param_value(out, &a->rq->defs[i], false);
	}
	fputs(shown ? ".\n\n" : "\n", out);
	if (!a->exact)
		fputs("$H(i)$ as formulas in the sizes.\n\n", out);
	for (int c = 0; c < a->ncands; c++) {
		fputs("\\subsubsection*{Candidate ", out);
		latex_tt(out, a->cands[c].name);
		fputs("}\n", out);
		const char *why = no_counts(a, c);
		if (why) {
			fputs("No counts: ", out);
			report_latex_text(out, why, true);
			fputs(".\n\n", out);
			continue;
		}
		const struct candidate_cost *ex = counts(a, c);
		char *assumes = assumes_text(ex);
		if (assumes) {
			report_latex_text(out, assumes, true);
			fputs(" (\\texttt{-{}-all-sizes}: for every size).\n\n", out);
			free(assumes);
		}
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			fputs("\\paragraph{Superstep ", out);
			latex_tt(out, sc->name);
			fputs(".}\n", out);
			char *note = loop_note(sc);
			if (note) {
				report_latex_text(out, note, true);
				fputs(".\n", out);
				free(note);
			}
			if (step_why(sc)) {
				fputs("No H: ", out);
				report_latex_text(out, step_why(sc), true);
				fputs(".\n\n", out);
				continue;
			}
			if (sc->hf) {   /* formulas: a line each, broken to fit the page */
				enum { WIDTH = 48 };
				fputs("\\begin{align*}\n", out);
				for (int i = 0; i < sc->hk; i++) {
					char *v = formula_to_latex(sc->hf[i], NULL, 0, WIDTH);
					fprintf(out, "H(%d) &= %s%s\n", i, v ? v : "?",
						i + 1 < sc->hk ? " \\\\" : "");
					free(v);
				}
				fputs("\\end{align*}\n$\\alpha$: ", out);
				report_latex_text(out, alpha_at_values, true);
				fputs(".\n\n", out);
				continue;
			}
			fputs("\n\\begin{tabular}{rrr}\nlevel $i$ & processes of a cluster & $H(i)$ "
			      "\\\\ \\hline\n", out);
			for (int i = 0; i < sc->hier->k; i++) {
				char *v = level_text(sc, i, FORMULA_TEXT);
				fprintf(out, "%d & %ld & $%s$ \\\\\n", i, 1L << (k - i - 1), v ? v : "?");
				free(v);
			}
			char *al = alpha_text(sc);
			fputs("\\end{tabular}\n\n$\\alpha$ = ", out);
			latex_tt(out, al ? al : "?");
			if (sc->hier->alpha == ALPHA_LOG)
				fprintf(out, " ($\\approx %.4g$)", sc->hier->approx);
			free(al);
			char *d = NULL, *f = NULL;
			double da, fa;
			if (a->topology && costs_text(a, c, s, &d, &f, &da, &fa) == 0) {
				fputs("; D-BSP cost ", out);
				latex_tt(out, d);
				if (!integral(d))
					fprintf(out, " ($\\approx %.6g$)", da);
				fputs(", BSP cost ", out);
				latex_tt(out, f);
				if (!integral(f))
					fprintf(out, " ($\\approx %.6g$)", fa);
			}
			free(d);
			free(f);
			fputs(".\n\n", out);
		}
	}
	report_latex_text(out, legend, true);
	fputs(".\n", out);
	if (a->topology) {
		fputs("\n", out);
		report_latex_text(out, topo_legend, true);
		fputs(".\n", out);
	}
}

void report_hierarchy(FILE *out, enum output_format format, const struct analysis *a)
{
	if (format == FORMAT_LATEX) {
		report_hierarchy_latex(out, a);
		return;
	}
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

/* ------------------------------------------------ -p --hierarchy's rankings */

/* "8x8" */
static void shape_text(FILE *out, const struct hier_ranking *t, int s)
{
	for (int a = 0; a < t->naxes; a++)
		fprintf(out, "%s%ld", a ? "x" : "", t->shapes[s][a]);
}

/* ROW's cost KIND (0: D-BSP, 1: BSP) exactly, malloc'd. */
static char *row_cost(const struct hier_row *row, int kind)
{
	return root2_text(kind ? &row->flat : &row->dbsp);
}

static void rank_title(FILE *out, const char *file, const struct param_value *defs, int ndefs,
		       const struct topology *topo, bool md)
{
	if (md)
		report_md_text(out, file);
	else
		fputs(file, out);
	fprintf(out, ": shapes, numberings and candidates ranked by their D-BSP cost on %s",
		topo->title);
	for (int i = 0; i < ndefs; i++) {
		fputs(i ? ", " : "; ", out);
		fprintf(out, "%s = ", defs[i].name);
		report_param_value(out, &defs[i], false);
	}
	fputs("\n", out);
}

static const char rank_legend[] =
	"D-BSP: w + the sum over the levels i of ceil(H(i)) g(i) + l(i) + Pf(i) "
	"(Theorem 3.1), summed over the supersteps; BSP: w + h g(0) + l(0) on the same "
	"machine; the topology's g, l and Pf are leading terms with unit constants, an "
	"asymptotic model (bspcost(1))";

static void ranking_text(FILE *out, const char *file, const struct param_value *defs, int ndefs,
			 const char *const *cands, const struct hier_ranking *tabs, int n)
{
	rank_title(out, file, defs, ndefs, tabs[0].topo, false);
	for (int k = 0; k < n; k++) {
		const struct hier_ranking *t = &tabs[k];
		if (t->k < 0 || t->why) {
			fprintf(out, "\n%ld processes: %s\n", t->procs,
				t->why ? t->why : "no power of two, no cluster hierarchy");
			continue;
		}
		fprintf(out, "\n%ld processes (%d level%s)\n", t->procs, t->k, t->k == 1 ? "" : "s");
		for (int i = 0; i < t->nrows; i++) {
			const struct hier_row *row = &t->rows[i];
			if (row->ok)
				fprintf(out, "  %3d%s ", row->rank, row->tie ? "=" : " ");
			else
				fputs("    - ", out);
			shape_text(out, t, row->shape);
			fprintf(out, " %s %s", row->cand >= 0 ? numbering_label(row->nb) : "-",
				row->cand >= 0 ? cands[row->cand] : "(every candidate)");
			if (!row->ok) {
				fprintf(out, ": %s\n", row->reason ? row->reason : "not counted");
				continue;
			}
			for (int kind = 0; kind < 2; kind++) {
				char *v = row_cost(row, kind);
				const struct root2 *x = kind ? &row->flat : &row->dbsp;
				fprintf(out, "%s%s", kind ? ", BSP " : ": D-BSP ", v ? v : "?");
				if (v && !integral(v))
					fprintf(out, " (~%.6g)", root2_approx(x));
				free(v);
			}
			fputs("\n", out);
		}
	}
	fprintf(out, "\n%s\n", rank_legend);
}

static void ranking_json(FILE *out, const char *file, const struct param_value *defs, int ndefs,
			 const char *const *axes, const char *const *cands,
			 const struct hier_ranking *tabs, int n)
{
	fputs("{\"file\": ", out);
	report_json_string(out, file);
	fputs(", \"topology\": ", out);
	report_json_string(out, tabs[0].topo->name);
	fputs(", \"values\": {", out);
	for (int i = 0; i < ndefs; i++) {
		fputs(i ? ", " : "", out);
		report_json_string(out, defs[i].name);
		fputs(": ", out);
		report_param_value(out, &defs[i], true);
	}
	fputs("},\n \"rankings\": [", out);
	for (int k = 0; k < n; k++) {
		const struct hier_ranking *t = &tabs[k];
		fprintf(out, "%s\n  {\"procs\": %ld, \"levels\": ", k ? "," : "", t->procs);
		if (t->k < 0)
			fputs("null, \"reason\": \"no power of two\", \"rows\": [", out);
		else if (t->why) {
			fprintf(out, "%d, \"reason\": ", t->k);
			report_json_string(out, t->why);
			fputs(", \"rows\": [", out);
		} else
			fprintf(out, "%d, \"rows\": [", t->k);
		for (int i = 0; i < t->nrows; i++) {
			const struct hier_row *row = &t->rows[i];
			fputs(i ? ",\n   {\"rank\": " : "\n   {\"rank\": ", out);
			if (row->ok)
				fprintf(out, "%d, \"tie\": %s", row->rank, row->tie ? "true" : "false");
			else
				fputs("null, \"tie\": false", out);
			fputs(", \"shape\": {", out);
			for (int a = 0; a < t->naxes; a++) {
				fputs(a ? ", " : "", out);
				report_json_string(out, axes[a]);
				fprintf(out, ": %ld", t->shapes[row->shape][a]);
			}
			if (row->cand >= 0)
				fprintf(out, "}, \"numbering\": \"%s\", \"candidate\": ",
					numbering_label(row->nb));
			else
				fputs("}, \"numbering\": null, \"candidate\": ", out);
			if (row->cand >= 0)
				report_json_string(out, cands[row->cand]);
			else
				fputs("null", out);
			if (!row->ok) {
				fputs(", \"reason\": ", out);
				report_json_string(out, row->reason ? row->reason : "not counted");
			}
			for (int kind = 0; row->ok && kind < 2; kind++) {
				char *v = row_cost(row, kind);
				fprintf(out, ", \"%s\": ", kind ? "bsp" : "dbsp");
				if (v && integral(v))
					fputs(v, out);
				else
					report_json_string(out, v ? v : "?");
				fprintf(out, ", \"%s_approx\": %.17g", kind ? "bsp" : "dbsp",
					root2_approx(kind ? &row->flat : &row->dbsp));
				free(v);
			}
			fputs("}", out);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

static void ranking_csv(FILE *out, const char *const *cands, const struct hier_ranking *tabs,
			int n)
{
	fputs("procs,rank,tie,shape,numbering,candidate,dbsp,dbsp_approx,bsp,bsp_approx,note\n", out);
	for (int k = 0; k < n; k++) {
		const struct hier_ranking *t = &tabs[k];
		if (t->k < 0 || t->why) {
			fprintf(out, "%ld,,,,,,,,,,", t->procs);
			report_csv_field(out, t->why ? t->why : "no power of two");
			fputs("\n", out);
			continue;
		}
		for (int i = 0; i < t->nrows; i++) {
			const struct hier_row *row = &t->rows[i];
			fprintf(out, "%ld,", t->procs);
			if (row->ok)
				fprintf(out, "%d,%s", row->rank, row->tie ? "yes" : "no");
			else
				fputs(",", out);
			fputs(",", out);
			shape_text(out, t, row->shape);
			fprintf(out, ",%s,", row->cand >= 0 ? numbering_label(row->nb) : "");
			if (row->cand >= 0)
				report_csv_field(out, cands[row->cand]);
			for (int kind = 0; kind < 2; kind++) {
				char *v = row->ok ? row_cost(row, kind) : NULL;
				fputs(",", out);
				if (v)
					report_csv_field(out, v);
				fputs(",", out);
				if (v)
					fprintf(out, "%.17g", root2_approx(kind ? &row->flat : &row->dbsp));
				free(v);
			}
			fputs(",", out);
			if (!row->ok)
				report_csv_field(out, row->reason ? row->reason : "not counted");
			fputs("\n", out);
		}
	}
}

static void ranking_markdown(FILE *out, const char *file, const struct param_value *defs,
			     int ndefs, const char *const *cands, const struct hier_ranking *tabs,
			     int n)
{
	fputs("# ", out);
	rank_title(out, file, defs, ndefs, tabs[0].topo, true);
	for (int k = 0; k < n; k++) {
		const struct hier_ranking *t = &tabs[k];
		fprintf(out, "\n## %ld processes\n\n", t->procs);
		if (t->k < 0 || t->why) {
			report_md_text(out, t->why ? t->why : "No power of two: no cluster hierarchy");
			fputs(".\n", out);
			continue;
		}
		fputs("| rank | shape | numbering | candidate | D-BSP | BSP |\n"
		      "|---:|---|---|---|---:|---:|\n", out);
		for (int i = 0; i < t->nrows; i++) {
			const struct hier_row *row = &t->rows[i];
			if (row->ok)
				fprintf(out, "| %d%s | ", row->rank, row->tie ? "=" : "");
			else
				fputs("| - | ", out);
			shape_text(out, t, row->shape);
			fprintf(out, " | %s | ", row->cand >= 0 ? numbering_label(row->nb) : "-");
			if (row->cand >= 0)
				report_md_code(out, cands[row->cand], true);
			else
				fputs("(every candidate)", out);
			for (int kind = 0; kind < 2; kind++) {
				char *v = row->ok ? row_cost(row, kind) : NULL;
				fputs(" | ", out);
				report_md_text(out, v ? v : (kind ? "" : row->reason ? row->reason
										: "not counted"));
				free(v);
			}
			fputs(" |\n", out);
		}
	}
	fputs("\n", out);
	report_md_text(out, rank_legend);
	fputs(".\n", out);
}

void report_hierarchy_ranking(FILE *out, enum output_format format, const char *file,
			      const struct param_value *defs, int ndefs, const char *const *axes,
			      const char *const *cands, const struct hier_ranking *tabs, int n)
{
	if (n == 0)
		return;
	if (format == FORMAT_JSON)
		ranking_json(out, file, defs, ndefs, axes, cands, tabs, n);
	else if (format == FORMAT_CSV)
		ranking_csv(out, cands, tabs, n);
	else if (format == FORMAT_MARKDOWN)
		ranking_markdown(out, file, defs, ndefs, cands, tabs, n);
	else
		ranking_text(out, file, defs, ndefs, cands, tabs, n);
}
