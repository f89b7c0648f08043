/* -p without g and l: the rows no other row beats for any machine, and the
 * region of (g, l) where each is the best (analyzer/decide/pareto.h), as
 * text, JSON, CSV, Markdown or LaTeX. */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"
#include "analyzer/util/text.h"

static const char *cand_of(const struct ranking *r, const struct rank_row *row)
{
	return row->cand < 0 ? "every candidate" : r->cands[row->cand];
}

/* The region of the class of ranked row I, or NULL when it is dominated. */
static const struct pareto_region *region_of_row(const struct ranking *r, int i)
{
	const struct pareto *p = r->every_machine;
	if (p->dominated_by[i] >= 0)
		return NULL;
	for (int k = 0; k < p->nregions; k++)
		if (p->regions[k].cls == p->cls[i])
			return &p->regions[k];
	return NULL;
}

/* "X + Y*l": Q0 and the l-coefficient Q1, exactly. */
static void affine_l(FILE *f, mpq_srcptr q0, mpq_srcptr q1)
{
	bool any = mpq_sgn(q0) != 0 || mpq_sgn(q1) == 0;
	if (any) {
		char *s = report_number(q0);
		fputs(s ? s : "?", f);
		free(s);
	}
	if (mpq_sgn(q1) == 0)
		return;
	mpq_t a;
	mpq_init(a);
	mpq_abs(a, q1);
	fputs(mpq_sgn(q1) < 0 ? (any ? " - " : "-") : (any ? " + " : ""), f);
	char *num = mpz_get_str(NULL, 10, mpq_numref(a)), *den = mpz_get_str(NULL, 10, mpq_denref(a));
	if (mpz_cmp_ui(mpq_numref(a), 1) != 0)
		fprintf(f, "%s*", num);
	fputc('l', f);
	if (mpz_cmp_ui(mpq_denref(a), 1) != 0)
		fprintf(f, "/%s", den);
	free(num);
	free(den);
	mpq_clear(a);
}

/* One boundary, solved for g (or for l when g is not in it). */
static void cons_text(FILE *f, const struct pareto_cons *c)
{
	mpq_t x, y;
	mpq_inits(x, y, NULL);
	if (mpq_sgn(c->g) != 0) {
		/* g <= rhs/G - (L/G)*l, the sense flipped for G < 0 */
		mpq_div(x, c->rhs, c->g);
		mpq_div(y, c->l, c->g);
		mpq_neg(y, y);
		fputs(mpq_sgn(c->g) > 0 ? "g <= " : "g >= ", f);
		affine_l(f, x, y);
	} else {
		mpq_div(x, c->rhs, c->l);
		char *s = report_number(x);
		fprintf(f, "l %s %s", mpq_sgn(c->l) > 0 ? "<=" : ">=", s ? s : "?");
		free(s);
	}
	mpq_clears(x, y, NULL);
}

/* Where REG's class is the best, in words (malloc'd): "every g, l >= 0",
 * "g <= 25/2", "25/2 <= g <= 40", "g >= 40", the boundaries joined by
 * "and"; "only tied with another" (on a point or a segment), or "never"
 * (a row no other dominates, yet always beaten by one or another). */
static char *where_text(const struct pareto_region *reg)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	if (reg->empty) {
		fputs(reg->touches ? "only tied with another" : "never", t.f);
	} else if (reg->ncons == 0) {
		fputs("every g, l >= 0", t.f);
	} else if (reg->g_only) {
		char *lo = report_number(reg->lo), *hi = report_number(reg->hi);
		if (reg->unbounded)
			fprintf(t.f, "g >= %s", lo ? lo : "?");
		else if (mpq_sgn(reg->lo) == 0)
			fprintf(t.f, "g <= %s", hi ? hi : "?");
		else
			fprintf(t.f, "%s <= g <= %s", lo ? lo : "?", hi ? hi : "?");
		free(lo);
		free(hi);
	} else {
		for (int c = 0; c < reg->ncons; c++) {
			if (c)
				fputs(" and ", t.f);
			cons_text(t.f, &reg->cons[c]);
		}
	}
	return text_close(&t);
}

/* The ranked rows in the order shown: the Pareto classes region by region
 * (each class's rows in the table's order), then the dominated rows. */
static int *row_order(const struct ranking *r, int *npareto)
{
	const struct pareto *p = r->every_machine;
	int n = r->t->nranked, k = 0;
	int *order = malloc(sizeof(int) * (size_t)(n + 1));
	if (!order)
		return NULL;
	for (int q = 0; q < p->nregions; q++)
		for (int i = 0; i < n; i++)
			if (p->dominated_by[i] < 0 && p->cls[i] == p->regions[q].cls)
				order[k++] = i;
	*npareto = k;
	for (int i = 0; i < n; i++)
		if (p->dominated_by[i] >= 0)
			order[k++] = i;
	return order;
}

static void print_sizes(FILE *out, const struct ranking *r)
{
	for (int i = 0; i < r->nvalues; i++) {
		fprintf(out, "%s%s = ", i ? ", " : "", r->values[i].name);
		report_param_value(out, &r->values[i], false);
	}
}

/* The rows of class CLS (rows of equal w, h and S): "shape 4x4, candidate
 * X"; for several, "shape 4x4, every candidate", "shape 4x4, candidates X,
 * Y", "shapes 2x8, 8x2, candidate X", or the pairs "4x4 X; 2x8 Y". */
static void put_raw(FILE *out, const char *s)
{
	fputs(s, out);
}

static void put_latex(FILE *out, const char *s)
{
	report_latex_text(out, s, true);
}

static void class_rows(FILE *out, const struct ranking *r, int cls,
		       void (*put)(FILE *, const char *))
{
	const struct pareto *p = r->every_machine;
	const struct rank_table *t = r->t;
	int n = 0, shape = -1, cand = -2;
	bool one_shape = true, one_cand = true;
	for (int i = 0; i < t->nranked; i++) {
		if (p->cls[i] != cls)
			continue;
		if (n++ == 0) {
			shape = t->rows[i].shape;
			cand = t->rows[i].cand;
		}
		one_shape &= t->rows[i].shape == shape;
		one_cand &= t->rows[i].cand == cand;
	}
	char label[64];
	if (one_shape) {
		shape_label(label, t, shape);
		fprintf(out, "shape %s, ", label);
		if (n == r->ncands && n > 1) {
			fputs("every candidate", out);
			return;
		}
		fputs(n > 1 ? "candidates " : "candidate ", out);
	} else if (one_cand) {
		fputs("shapes ", out);
	}
	for (int i = 0, k = 0; i < t->nranked; i++) {
		if (p->cls[i] != cls)
			continue;
		shape_label(label, t, t->rows[i].shape);
		fputs(k++ ? (one_shape || one_cand ? ", " : "; ") : "", out);
		if (one_shape) {
			put(out, cand_of(r, &t->rows[i]));
		} else if (one_cand) {
			fputs(label, out);
		} else {
			fprintf(out, "%s ", label);
			put(out, cand_of(r, &t->rows[i]));
		}
	}
	if (one_cand && !one_shape) {
		fputs(", candidate ", out);
		put(out, cand >= 0 ? r->cands[cand] : "every candidate");
	}
}

static void print_uncounted(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	for (int i = t->nranked; i < t->nrows; i++) {
		const struct rank_row *row = &t->rows[i];
		char shape[64];
		shape_label(shape, t, row->shape);
		fprintf(out, "  %s, %s: %s\n", shape, cand_of(r, row),
			row->reason ? row->reason : row->status == RANK_LATE ? "not counted in time"
									    : "unknown reason");
	}
}

static void every_machine_text(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	const struct pareto *p = r->every_machine;
	fprintf(out, "%s: %ld process%s, %d shape%s of ", r->file, t->procs,
		t->procs == 1 ? "" : "es", t->nshapes, t->nshapes == 1 ? "" : "s");
	for (int a = 0; a < r->naxes; a++)
		fprintf(out, "%s%s", a ? " x " : "", r->axes[a]);
	fprintf(out, ", %d candidate%s%s", r->ncands, r->ncands == 1 ? "" : "s",
		r->nvalues ? "; " : "");
	print_sizes(out, r);
	fputs("\nfor every machine (no g or l given): a row costs w + h*g + S*l, S its supersteps "
	      "run;\nthe rows no other row beats for any g, l >= 0, and where each is the best:\n",
	      out);
	int np = 0;
	int *order = row_order(r, &np);
	enum { C_CAND, C_SHAPE, C_W, C_H, C_S, C_NCOM, C_MEM, C_WHERE, C_N };
	static const char *const head[C_N] = {"candidate", "shape", "w", "h", "S", "NCom", "mem",
					      "best where"};
	char *(*cells)[C_N] = order ? calloc((size_t)np + 1, sizeof(*cells)) : NULL;
	size_t width[C_N];
	for (int c = 0; c < C_N; c++)
		width[c] = strlen(head[c]);
	for (int k = 0; cells && k < np; k++) {
		const struct rank_row *row = &t->rows[order[k]];
		char shape[64];
		shape_label(shape, t, row->shape);
		cells[k][C_CAND] = strdup(cand_of(r, row));
		cells[k][C_SHAPE] = strdup(shape);
		cells[k][C_W] = report_number(row->cost);
		cells[k][C_H] = report_number(row->gcoef);
		cells[k][C_S] = report_number(row->lcoef);
		cells[k][C_NCOM] = report_number(row->ncom);
		cells[k][C_MEM] = report_number(row->mem);
		const struct pareto_region *reg = region_of_row(r, order[k]);
		cells[k][C_WHERE] = reg ? where_text(reg) : NULL;
		for (int c = 0; c < C_N; c++)
			if (cells[k][c] && strlen(cells[k][c]) > width[c])
				width[c] = strlen(cells[k][c]);
	}
	bool left[C_N];
	for (int c = 0; c < C_N; c++)
		left[c] = c <= C_SHAPE || c == C_WHERE;
	for (int k = -1; cells && np > 0 && k < np; k++) {
		const char *shown[C_N];
		for (int c = 0; c < C_N; c++)
			shown[c] = k < 0 ? head[c] : cells[k][c] ? cells[k][c] : "?";
		report_aligned_row(out, shown, width, left, C_N);
	}
	for (int k = 0; cells && k < np; k++)
		for (int c = 0; c < C_N; c++)
			free(cells[k][c]);
	free(cells);
	free(order);

	/* the answer */
	const char *proviso = t->nuncounted ? " (not proven: rows not counted could do better)" : "";
	if (t->nranked == 0) {
		fputs("no row could be ranked\n", out);
	} else if (p->one_best) {
		fprintf(out, "best for every machine (every g, l >= 0)%s: ", proviso);
		class_rows(out, r, p->regions[0].cls, put_raw);
		fputs("\n", out);
	} else if (p->g_only) {
		fprintf(out, "the best depends on g alone (l adds the same to each)%s; it changes at g = ",
			proviso);
		for (int k = 0, m = 0; k < p->nregions; k++) {
			const struct pareto_region *reg = &p->regions[k];
			if (reg->empty || reg->unbounded)
				continue;
			char *hi = report_number(reg->hi);
			fprintf(out, "%s%s", m++ ? ", " : "", hi ? hi : "?");
			free(hi);
		}
		fputs("\n", out);
	} else {
		fprintf(out, "the best depends on g and l (the rows run different numbers of "
			     "supersteps)%s: see best where\n", proviso);
	}
	int dominated = t->nranked - np;
	if (dominated)
		fprintf(out, "dominated: %d row%s, each costing at least as much as one above for every "
			     "g, l >= 0 (-f json lists them)\n",
			dominated, dominated == 1 ? "" : "s");
	if (t->nrows > t->nranked) {
		fprintf(out, "not ranked:\n");
		print_uncounted(out, r);
	}
}

/* ---- JSON -------------------------------------------------------------- */

static void json_q(FILE *out, const mpq_t q)
{
	char *s = report_number(q);
	report_json_number_text(out, s);
	free(s);
}

static void json_row_id(FILE *out, const struct ranking *r, int i)
{
	const struct rank_row *row = &r->t->rows[i];
	fputs("{\"candidate\": ", out);
	if (row->cand < 0)
		fputs("null", out);   /* a shape refused for every candidate */
	else
		report_json_string(out, r->cands[row->cand]);
	fputs(", \"shape\": [", out);
	for (int a = 0; a < r->naxes; a++)
		fprintf(out, "%s%ld", a ? ", " : "", r->t->shapes[row->shape][a]);
	fputs("]", out);
}

static void every_machine_json(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	const struct pareto *p = r->every_machine;
	report_rank_json_head(out, r);
	fputs(", \"every_machine\": true", out);
	fprintf(out, ",\n \"best_proven\": %s, \"uncounted\": %d, \"one_best\": %s, "
		     "\"depends_on\": \"%s\",\n \"changes_at_g\": ",
		t->nuncounted == 0 && t->nranked > 0 ? "true" : "false", t->nuncounted,
		p->one_best ? "true" : "false",
		t->nranked == 0 ? "no row" : p->one_best ? "nothing" : p->g_only ? "g" : "g and l");
	if (p->g_only && !p->one_best && t->nranked > 0) {
		fputs("[", out);
		for (int k = 0, m = 0; k < p->nregions; k++)
			if (!p->regions[k].empty && !p->regions[k].unbounded) {
				fputs(m++ ? ", " : "", out);
				json_q(out, p->regions[k].hi);
			}
		fputs("]", out);
	} else {
		fputs("null", out);
	}
	int np = 0;
	int *order = row_order(r, &np);
	fputs(",\n \"rows\": [", out);
	for (int k = 0; order && k < t->nranked; k++) {
		int i = order[k];
		const struct rank_row *row = &t->rows[i];
		fputs(k ? ",\n  " : "\n  ", out);
		json_row_id(out, r, i);
		fputs(", \"w\": ", out);
		json_q(out, row->cost);
		fputs(", \"h\": ", out);
		json_q(out, row->gcoef);
		fputs(", \"supersteps\": ", out);
		json_q(out, row->lcoef);
		fputs(", \"ncom\": ", out);
		json_q(out, row->ncom);
		fputs(", \"mem\": ", out);
		json_q(out, row->mem);
		fprintf(out, ", \"pareto\": %s, \"dominated_by\": ", k < np ? "true" : "false");
		if (p->dominated_by[i] >= 0) {
			json_row_id(out, r, p->dominated_by[i]);
			fputs("}", out);
		} else {
			fputs("null", out);
		}
		const struct pareto_region *reg = region_of_row(r, i);
		fputs(", \"best_where\": ", out);
		if (!reg || reg->empty) {
			fputs("null", out);
		} else {
			/* each boundary as {"g": G, "l": L, "le": RHS}: G*g + L*l <= RHS */
			fputs("[", out);
			for (int c = 0; c < reg->ncons; c++) {
				fputs(c ? ", {\"g\": " : "{\"g\": ", out);
				json_q(out, reg->cons[c].g);
				fputs(", \"l\": ", out);
				json_q(out, reg->cons[c].l);
				fputs(", \"le\": ", out);
				json_q(out, reg->cons[c].rhs);
				fputs("}", out);
			}
			fputs("]", out);
		}
		char *w = reg ? where_text(reg) : NULL;
		fputs(", \"best_where_text\": ", out);
		if (w)
			report_json_string(out, w);
		else
			fputs("null", out);
		free(w);
		fputs("}", out);
	}
	free(order);
	fputs("],\n \"refused\": [", out);
	for (int i = t->nranked; i < t->nrows; i++) {
		const struct rank_row *row = &t->rows[i];
		fputs(i > t->nranked ? ",\n  " : "\n  ", out);
		json_row_id(out, r, i);
		fprintf(out, ", \"status\": \"%s\", \"reason\": ", report_rank_status(row->status));
		report_json_string(out, row->reason ? row->reason
					: row->status == RANK_LATE ? "not counted in time"
								   : "unknown reason");
		fputs("}", out);
	}
	fputs("]}\n", out);
}

/* ---- CSV --------------------------------------------------------------- */

/* "file,procs,candidate,shape" of ROW, no comma after. */
static void csv_head(FILE *out, const struct ranking *r, const struct rank_row *row)
{
	char shape[64];
	shape_label(shape, r->t, row->shape);
	report_csv_field(out, r->file);
	fprintf(out, ",%ld,", r->t->procs);
	report_csv_field(out, cand_of(r, row));
	fputc(',', out);
	report_csv_field(out, shape);
}

static void every_machine_csv(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	const struct pareto *p = r->every_machine;
	if (r->first)
		fputs("file,procs,candidate,shape,w,h,supersteps,ncom,mem,pareto,best_where\n", out);
	int np = 0;
	int *order = row_order(r, &np);
	for (int k = 0; order && k < t->nranked; k++) {
		int i = order[k];
		const struct rank_row *row = &t->rows[i];
		csv_head(out, r, row);
		mpq_srcptr q[] = {row->cost, row->gcoef, row->lcoef, row->ncom, row->mem};
		for (int c = 0; c < 5; c++) {
			char *s = report_number(q[c]);
			fprintf(out, ",%s", s ? s : "");
			free(s);
		}
		fprintf(out, ",%s,", p->dominated_by[i] < 0 ? "yes" : "no");
		const struct pareto_region *reg = region_of_row(r, i);
		char *w = reg ? where_text(reg) : NULL;
		if (w)
			report_csv_field(out, w);
		free(w);
		fputc('\n', out);
	}
	free(order);
	/* the rows not ranked: no numbers, pareto "not counted" (could be
	 * cheaper: the answer is not proven) or "outside" (the shape breaks
	 * the assumptions), and the reason */
	for (int i = t->nranked; i < t->nrows; i++) {
		const struct rank_row *row = &t->rows[i];
		csv_head(out, r, row);
		fprintf(out, ",,,,,,%s,", row->status == RANK_OUTSIDE ? "outside" : "not counted");
		report_csv_field(out, row->reason ? row->reason
				      : row->status == RANK_LATE ? "not counted in time" : "unknown reason");
		fputc('\n', out);
	}
}

/* ---- Markdown and LaTeX ------------------------------------------------ */

static void every_machine_markdown(FILE *out, const struct ranking *r, bool latex)
{
	const struct rank_table *t = r->t;
	const struct pareto *p = r->every_machine;
	int np = 0;
	int *order = row_order(r, &np);
	if (latex) {
		fputs("% bspcost: ", out);
		report_latex_text(out, r->file, false);
		fprintf(out, ", -p %ld, for every machine\n\\paragraph{", t->procs);
		report_latex_text(out, r->file, true);
		fprintf(out, ": %ld process%s, for every machine.}\n", t->procs,
			t->procs == 1 ? "" : "es");
		for (int i = 0; i < r->nvalues; i++) {
			fprintf(out, "%s", i ? ", " : "");
			report_latex_text(out, r->values[i].name, false);
			fputs(" = ", out);
			report_param_value(out, &r->values[i], false);
		}
		if (r->nvalues)
			fputs(".\n", out);
		fputs("The rows no other row beats for any $g, l \\ge 0$ (a row costs "
		      "$w + h g + S l$, $S$ its supersteps run), and where each is the best.\n\n"
		      "\\begin{tabular}{llrrrl}\n\\hline\ncandidate & shape & $w$ & $h$ & $S$ & "
		      "best where \\\\\n\\hline\n", out);
	} else {
		fputs("## ", out);
		report_md_text(out, r->file);
		fprintf(out, ": %ld process%s, for every machine\n\n", t->procs,
			t->procs == 1 ? "" : "es");
		if (r->nvalues) {
			print_sizes(out, r);
			fputs(".\n\n", out);
		}
		fputs("The rows no other row beats for any g, l >= 0 (a row costs w + h\\*g + S\\*l, "
		      "S its supersteps run), and where each is the best.\n\n"
		      "| candidate | shape | w | h | S | best where |\n|---|---|--:|--:|--:|---|\n",
		      out);
	}
	for (int k = 0; order && k < np; k++) {
		int i = order[k];
		const struct rank_row *row = &t->rows[i];
		char shape[64];
		shape_label(shape, t, row->shape);
		char *w = report_number(row->cost), *h = report_number(row->gcoef),
		     *s = report_number(row->lcoef);
		const struct pareto_region *reg = region_of_row(r, i);
		char *where = reg ? where_text(reg) : NULL;
		if (latex) {
			report_latex_text(out, cand_of(r, row), false);
			fprintf(out, " & %s & %s & %s & %s & ", shape, w ? w : "?", h ? h : "?",
				s ? s : "?");
			if (!where || !reg || reg->empty || reg->ncons == 0) {
				/* words: "every g, l >= 0", "never", ... */
				report_latex_text(out, where ? where : "?", false);
			} else {
				/* inequalities in g and l: math, "and" as a word */
				fputs("$", out);
				for (const char *c = where; *c; c++) {
					if ((c[0] == '<' || c[0] == '>') && c[1] == '=') {
						fputs(c[0] == '<' ? "\\le " : "\\ge ", out);
						c++;
					} else if (*c == '*') {
						fputs("\\,", out);
					} else if (strncmp(c, "and", 3) == 0) {
						fputs("\\text{ and }", out);
						c += 2;
					} else {
						fputc(*c, out);
					}
				}
				fputs("$", out);
			}
			fputs(" \\\\\n", out);
		} else {
			fputs("| ", out);
			report_md_code(out, cand_of(r, row), true);
			fprintf(out, " | %s | %s | %s | %s | ", shape, w ? w : "?", h ? h : "?",
				s ? s : "?");
			report_md_text(out, where ? where : "?");
			fputs(" |\n", out);
		}
		free(w);
		free(h);
		free(s);
		free(where);
	}
	free(order);
	if (latex)
		fputs("\\hline\n\\end{tabular}\n\n", out);
	else
		fputs("\n", out);
	if (t->nranked == 0) {
		fputs("No row could be ranked.\n", out);
	} else if (p->one_best) {
		fputs(latex ? "Best for every machine: " : "**Best for every machine:** ", out);
		class_rows(out, r, p->regions[0].cls, latex ? put_latex : report_md_text);
		fputs(".\n", out);
	} else if (p->g_only) {
		fputs("The best depends on g alone; it changes at g = ", out);
		for (int k = 0, m = 0; k < p->nregions; k++)
			if (!p->regions[k].empty && !p->regions[k].unbounded) {
				char *hi = report_number(p->regions[k].hi);
				fprintf(out, "%s%s", m++ ? ", " : "", hi ? hi : "?");
				free(hi);
			}
		fputs(".\n", out);
	} else {
		fputs("The best depends on g and l.\n", out);
	}
	if (t->nuncounted)
		fprintf(out, "\nNot proven: %d row%s not counted could do better.\n", t->nuncounted,
			t->nuncounted == 1 ? "" : "s");
	if (t->nranked > np)
		fprintf(out, "\n%d row%s dominated.\n", t->nranked - np, t->nranked - np == 1 ? "" : "s");
	if (t->nrows > t->nranked)
		fputs(latex ? "\nNot ranked:\n\\begin{itemize}\n" : "\nNot ranked:\n\n", out);
	for (int i = t->nranked; i < t->nrows; i++) {
		const struct rank_row *row = &t->rows[i];
		char shape[64];
		shape_label(shape, t, row->shape);
		const char *why = row->reason ? row->reason
				  : row->status == RANK_LATE ? "not counted in time" : "unknown reason";
		fprintf(out, "%s%s, ", latex ? "\\item " : "- ", shape);
		if (latex) {
			report_latex_text(out, cand_of(r, row), true);
			fputs(": ", out);
			report_latex_text(out, why, true);
		} else {
			report_md_text(out, cand_of(r, row));
			fputs(": ", out);
			report_md_text(out, why);
		}
		fputs("\n", out);
	}
	if (latex && t->nrows > t->nranked)
		fputs("\\end{itemize}\n", out);
}

void report_every_machine(FILE *out, enum output_format format, const struct ranking *r)
{
	if (format == FORMAT_JSON)
		every_machine_json(out, r);
	else if (format == FORMAT_CSV)
		every_machine_csv(out, r);
	else if (format == FORMAT_MARKDOWN || format == FORMAT_LATEX)
		every_machine_markdown(out, r, format == FORMAT_LATEX);
	else
		every_machine_text(out, r);
}
