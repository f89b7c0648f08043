/* --compare A B: where candidate A costs less than B, in every format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

static const char *const rel_key[CMP_N] = {"a_cheaper", "equal", "b_cheaper"};

/* The cost formula of candidate C as text in STYLE (malloc'd), or NULL. */
static char *cost_text(const struct analysis *a, int c, enum formula_style style)
{
	const struct candidate_cost *cc = &a->cands[c];
	return cc->status == COST_OK ? report_quantity_text(cc->cost, Q_COST, style, a->rq->model)
				     : NULL;
}

/* "the grid M x N" or "the grid M=2 x N=2". */
static void grid_text(FILE *out, const struct analysis *a)
{
	fprintf(out, "%s grid ", a->symbolic ? "symbolic" : "concrete");
	for (int x = 0; x < a->naxes; x++) {
		fprintf(out, "%s%s", x ? " x " : "", a->axes[x]);
		if (!a->symbolic)
			fprintf(out, "=%ld", a->sizes[x]);
	}
}

/* Which is cheaper at the values: "a", "b" or "equal". */
static const char *cheaper_key(const struct comparison *cmp)
{
	int s = mpq_sgn(cmp->diff_value);
	return s < 0 ? "a" : s > 0 ? "b" : "equal";
}

static void text_values(FILE *out, const struct analysis *a, int ca, int cb,
			const struct comparison *cmp)
{
	char *va = report_number(cmp->a), *vb = report_number(cmp->b);
	mpq_t d;
	mpq_init(d);
	mpq_abs(d, cmp->diff_value);
	char *vd = report_number(d);
	int s = mpq_sgn(cmp->diff_value);
	fprintf(out, "at the values given: %s costs %s, %s costs %s: ", a->cands[ca].name,
		va ? va : "?", a->cands[cb].name, vb ? vb : "?");
	if (s == 0)
		fputs("the same\n", out);
	else
		fprintf(out, "%s costs less by %s\n", a->cands[s < 0 ? ca : cb].name, vd ? vd : "?");
	if (cmp->nparts > 0) {
		fprintf(out, "  %s minus %s:", a->cands[ca].name, a->cands[cb].name);
		for (int i = 0; i < cmp->nparts; i++) {
			char *v = report_number(cmp->parts[i].diff);
			fprintf(out, "%s %s %s%s", i ? "," : "", cmp->parts[i].name,
				mpq_sgn(cmp->parts[i].diff) > 0 ? "+" : "", v ? v : "?");
			free(v);
		}
		fputs("\n", out);
	}
	mpq_clear(d);
	free(va);
	free(vb);
	free(vd);
}

static void list_assumptions(FILE *out, const char *who, char *const *as, int n, bool *first)
{
	if (n == 0)
		return;
	fprintf(out, "%s", *first ? "" : "; ");
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", as[i]);
	fprintf(out, " (%s)", who);
	*first = false;
}

/* "m > M, ... (the specification's); M divides m (example1's)" into OUT,
 * or "no assumption". */
static void where_text(FILE *out, const struct analysis *a, int ca, int cb)
{
	const struct candidate_cost *A = &a->cands[ca], *B = &a->cands[cb];
	bool first = true;
	list_assumptions(out, "the specification's", a->assumptions, a->nassumptions, &first);
	/* a refused candidate's (compared at values) are its kept
	 * supersteps', not the comparison's */
	char who[96];
	snprintf(who, sizeof(who), "%s's", A->name);
	if (A->status == COST_OK)
		list_assumptions(out, who, A->assumptions, A->nassumptions, &first);
	snprintf(who, sizeof(who), "%s's", B->name);
	if (B->status == COST_OK)
		list_assumptions(out, who, B->assumptions, B->nassumptions, &first);
	if (first)
		fputs("no assumption", out);
}

/* What WRITE writes, as a malloc'd string (NULL when out of memory). */
static char *captured(void (*write)(FILE *, const struct analysis *, int, int,
				    const struct comparison *),
		      const struct analysis *a, int ca, int cb, const struct comparison *cmp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	write(f, a, ca, cb, cmp);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static void where_write(FILE *out, const struct analysis *a, int ca, int cb,
			const struct comparison *cmp)
{
	(void)cmp;
	where_text(out, a, ca, cb);
}

static void report_compare_text(FILE *out, const struct analysis *a, int ca, int cb,
				const struct comparison *cmp)
{
	const struct candidate_cost *A = &a->cands[ca], *B = &a->cands[cb];
	fprintf(out, "%s: %s against %s, ", a->file, A->name, B->name);
	grid_text(out, a);
	fputs("\n", out);
	report_model_line(out, a->rq->model);
	for (int k = 0; k < 2; k++) {
		int c = k ? cb : ca;
		char *t = cost_text(a, c, FORMULA_TEXT);
		if (t)
			fprintf(out, "  %s: cost = %s\n", a->cands[c].name, t);
		else
			fprintf(out, "  %s: no cost formula (%s)\n", a->cands[c].name,
				a->cands[c].reason ? a->cands[c].reason : "no reason given");
		free(t);
	}
	fputs("  where: ", out);
	where_text(out, a, ca, cb);
	fputs("\n", out);
	if (cmp->cond[0][0]) {
		fprintf(out, "%s costs less when:\n  %s\n", A->name, cmp->cond[0][CMP_A_CHEAPER]);
		fprintf(out, "they cost the same when:\n  %s\n", cmp->cond[0][CMP_EQUAL]);
		fprintf(out, "%s costs less when:\n  %s\n", B->name, cmp->cond[0][CMP_B_CHEAPER]);
	} else {
		fprintf(out, "no condition: %s\n", cmp->why ? cmp->why : "unknown reason");
	}
	if (cmp->valued)
		text_values(out, a, ca, cb, cmp);
}

static void report_compare_json(FILE *out, const struct analysis *a, int ca, int cb,
				const struct comparison *cmp)
{
	fputs("{\"file\": ", out);
	report_json_string(out, a->file);
	fputs(", \"a\": ", out);
	report_json_string(out, a->cands[ca].name);
	fputs(", \"b\": ", out);
	report_json_string(out, a->cands[cb].name);
	fputs(", \"model\": ", out);
	report_json_string(out, report_model(a->rq)->name);
	fputs(", \"grid\": {", out);
	for (int x = 0; x < a->naxes; x++) {
		fprintf(out, "%s", x ? ", " : "");
		report_json_string(out, a->axes[x]);
		if (a->symbolic)
			fputs(": null", out);
		else
			fprintf(out, ": %ld", a->sizes[x]);
	}
	fputs("},\n \"values\": ", out);
	report_json_values(out, a, report_given);
	fputs(",\n \"assumptions\": [", out);
	for (int i = 0; i < a->nassumptions; i++) {
		fputs(i ? ", " : "", out);
		report_json_string(out, a->assumptions[i]);
	}
	fputs("]", out);
	for (int k = 0; k < 2; k++) {
		const struct candidate_cost *cc = &a->cands[k ? cb : ca];
		fprintf(out, ",\n \"%s_assumptions\": [", k ? "b" : "a");
		for (int i = 0; i < cc->nconditions; i++) {
			fputs(i ? ", " : "", out);
			report_json_string(out, cc->conditions[i]);
		}
		fprintf(out, "],\n \"%s_cost\": ", k ? "b" : "a");
		char *t = cost_text(a, k ? cb : ca, FORMULA_EXPR);
		if (t)
			report_json_string(out, t);
		else
			fputs("null", out);
		free(t);
	}
	fputs(",\n \"solved_for\": ", out);
	if (cmp->solved)
		report_json_string(out, cmp->solved);
	else
		fputs("null", out);
	for (int r = 0; r < CMP_N; r++) {
		fprintf(out, ",\n \"%s\": ", rel_key[r]);
		if (cmp->cond[1][r])
			report_json_string(out, cmp->cond[1][r]);
		else
			fputs("null", out);
	}
	fputs(",\n \"why\": ", out);
	if (cmp->why)
		report_json_string(out, cmp->why);
	else
		fputs("null", out);
	fputs(",\n \"at_values\": ", out);
	if (!cmp->valued) {
		fputs("null}\n", out);
		return;
	}
	const mpq_srcptr v[3] = {cmp->a, cmp->b, cmp->diff_value};
	static const char *const key[3] = {"a", "b", "difference"};
	fputs("{", out);
	for (int i = 0; i < 3; i++) {
		char *t = report_number(v[i]);
		fprintf(out, "\"%s\": ", key[i]);
		report_json_number_text(out, t ? t : "null");
		fputs(", ", out);
		free(t);
	}
	fprintf(out, "\"cheaper\": \"%s\", \"parts\": {", cheaper_key(cmp));
	for (int i = 0; i < cmp->nparts; i++) {
		char *t = report_number(cmp->parts[i].diff);
		fputs(i ? ", " : "", out);
		report_json_string(out, cmp->parts[i].name);
		fputs(": ", out);
		report_json_number_text(out, t ? t : "null");
		free(t);
	}
	fputs("}}}\n", out);
}

static void report_compare_csv(FILE *out, const struct analysis *a, int ca, int cb,
			       const struct comparison *cmp)
{
	fputs("file,a,b,a_cheaper,equal,b_cheaper,a_value,b_value,difference,where\n", out);
	report_csv_field(out, a->file);
	fputs(",", out);
	report_csv_field(out, a->cands[ca].name);
	fputs(",", out);
	report_csv_field(out, a->cands[cb].name);
	for (int r = 0; r < CMP_N; r++) {
		fputs(",", out);
		if (cmp->cond[1][r])
			report_csv_field(out, cmp->cond[1][r]);
	}
	const mpq_srcptr v[3] = {cmp->a, cmp->b, cmp->diff_value};
	for (int i = 0; i < 3; i++) {
		fputs(",", out);
		char *t = cmp->valued ? report_number(v[i]) : NULL;
		if (t)
			fputs(t, out);
		free(t);
	}
	fputs(",", out);
	char *w = captured(where_write, a, ca, cb, cmp);
	report_csv_field(out, w ? w : "");
	free(w);
	fputs("\n", out);
}

static void report_compare_markdown(FILE *out, const struct analysis *a, int ca, int cb,
				    const struct comparison *cmp)
{
	const char *name[2] = {a->cands[ca].name, a->cands[cb].name};
	fputs("## ", out);
	report_md_text(out, name[0]);
	fputs(" against ", out);
	report_md_text(out, name[1]);
	fputs("\n\n", out);
	fputs("| | condition |\n|---|---|\n", out);
	for (int k = 0; k < 2; k++) {
		char *t = cost_text(a, k ? cb : ca, FORMULA_TEXT);
		fputs("| cost of ", out);
		report_md_text(out, name[k]);
		fputs(" | ", out);
		if (t)
			report_md_code(out, t, true);
		else
			fputs("no formula", out);
		fputs(" |\n", out);
		free(t);
	}
	static const char *const what[CMP_N] = {"costs less", "the same", "costs less"};
	for (int r = 0; r < CMP_N; r++) {
		fputs("| ", out);
		if (r != CMP_EQUAL) {
			report_md_text(out, name[r == CMP_A_CHEAPER ? 0 : 1]);
			fputs(" ", out);
		}
		fputs(what[r], out);
		fputs(" | ", out);
		if (cmp->cond[0][r])
			report_md_code(out, cmp->cond[0][r], true);
		else
			report_md_text(out, cmp->why ? cmp->why : "no condition");
		fputs(" |\n", out);
	}
	char *w = captured(where_write, a, ca, cb, cmp);
	fputs("\nWhere: ", out);
	report_md_text(out, w ? w : "?");
	fputs(".\n", out);
	free(w);
	if (cmp->valued) {
		char *v = captured(text_values, a, ca, cb, cmp);
		fputs("\n", out);
		report_md_text(out, v ? v : "?");
		free(v);
	}
}

static void report_compare_latex(FILE *out, const struct analysis *a, int ca, int cb,
				 const struct comparison *cmp)
{
	const char *name[2] = {a->cands[ca].name, a->cands[cb].name};
	for (int k = 0; k < 2; k++) {
		char *t = cost_text(a, k ? cb : ca, FORMULA_LATEX);
		fputs("\\noindent Cost of \\texttt{", out);
		report_latex_text(out, name[k], false);
		fputs("}:", out);
		if (t)
			fprintf(out, "\n\\[ %s \\]\n", t);
		else
			fputs(" no formula.\n\n", out);
		free(t);
	}
	for (int r = 0; r < CMP_N; r++) {
		fputs("\\noindent ", out);
		if (r == CMP_EQUAL) {
			fputs("They cost the same when", out);
		} else {
			fputs("\\texttt{", out);
			report_latex_text(out, name[r == CMP_A_CHEAPER ? 0 : 1], false);
			fputs("} costs less when", out);
		}
		if (cmp->cond[2][r]) {
			fprintf(out, "\n\\[ %s \\]\n", cmp->cond[2][r]);
		} else {
			fputs(": ", out);
			report_latex_text(out, cmp->why ? cmp->why : "no condition", false);
			fputs(".\n\n", out);
		}
	}
	char *w = captured(where_write, a, ca, cb, cmp);
	fputs("\\noindent Where: ", out);
	report_latex_text(out, w ? w : "?", false);
	fputs(".\n", out);
	free(w);
	if (cmp->valued) {
		char *v = captured(text_values, a, ca, cb, cmp);
		fputs("\n\\noindent ", out);
		report_latex_text(out, v ? v : "?", false);
		fputs("\n", out);
		free(v);
	}
}

void report_compare(FILE *out, enum output_format format, const struct analysis *a, int ca,
		    int cb, const struct comparison *cmp)
{
	switch (format) {
	case FORMAT_TEXT:
		report_compare_text(out, a, ca, cb, cmp);
		break;
	case FORMAT_JSON:
		report_compare_json(out, a, ca, cb, cmp);
		break;
	case FORMAT_CSV:
		report_compare_csv(out, a, ca, cb, cmp);
		break;
	case FORMAT_MARKDOWN:
		report_compare_markdown(out, a, ca, cb, cmp);
		break;
	case FORMAT_LATEX:
		report_compare_latex(out, a, ca, cb, cmp);
		break;
	}
}
