/* -p: the ranking of every grid shape and candidate of a process count, and
 * a sweep's rankings (-D ranges), as text (an aligned table), JSON, CSV,
 * Markdown or LaTeX.  The ranking itself (order, ranks, ties) is
 * analyzer/decide/rank.c's; this prints it.
 *
 * Why this file is long: the two tables in five formats share their cells
 * (row_cells, sweep_cells), their titles and their wording; split by format,
 * a dozen helpers would move to a header for no reader's gain. */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* "8x8", "64", "2x2x4" */
void shape_label(char buf[64], const struct rank_table *t, int s)
{
	int n = 0;
	buf[0] = '\0';
	for (int a = 0; a < t->naxes; a++)
		n += snprintf(buf + n, (size_t)(64 - n), "%s%ld", a ? "x" : "", t->shapes[s][a]);
}

static const char *cand_name(const struct ranking *r, const struct rank_row *row)
{
	return row->cand < 0 ? "every candidate" : r->cands[row->cand];
}

/* The ranked rows shown (--top). */
static int shown(const struct ranking *r)
{
	const struct rank_table *t = r->t;
	return r->top > 0 && r->top < t->nranked ? r->top : t->nranked;
}

/* Rows neither ranked nor late: refused ones. */
static int nrefused(const struct rank_table *t)
{
	return t->nrows - t->nranked - t->nlate;
}

const char *report_rank_status(enum rank_status st)
{
	switch (st) {
	case RANK_OK:
		return "ranked";
	case RANK_OUTSIDE:
		return "outside";
	case RANK_REFUSED:
		return "refused";
	case RANK_FAILED:
		return "failed";
	case RANK_LATE:
		break;
	}
	return "late";
}

/* The (shape, candidate) pairs of the table, and those counted before the
 * deadline (a row refused for its shape stands for every candidate). */
static long pairs(const struct ranking *r)
{
	return (long)r->t->nshapes * r->ncands;
}

/* ---------------------------------------------------------------- text */

enum { COL_RANK, COL_CAND, COL_SHAPE, COL_W, COL_H, COL_NCOM, COL_MEM, COL_COST, COL_SECONDS,
       COL_GAP, NCOLS };

/* Whether column C is shown: seconds only with a machine's speed. */
static bool col_shown(const struct ranking *r, int c)
{
	return c != COL_SECONDS || r->speed;
}

/* The columns of LaTeX's table, which leaves out COL_GAP (its page is too
 * narrow for it): seconds only with a machine's speed. */
static int ncols(const struct ranking *r)
{
	return r->speed ? COL_GAP : COL_SECONDS;
}

/* *OUT = coefficient NAME of R's values (0 when it has none). */
static void coef_value(const struct ranking *r, const char *name, mpq_t out)
{
	mpq_set_ui(out, 0, 1);
	for (int i = 0; i < r->nvalues; i++)
		if (strcmp(r->values[i].name, name) == 0)
			param_value_get(out, &r->values[i]);
}

/* rank_row_gap of ranked row I at R's g and l (BY and PARTS initialized):
 * the number of parts. */
static int gap_of(const struct ranking *r, int i, mpq_t by, mpq_t parts[3])
{
	mpq_t g, l;
	mpq_inits(g, l, NULL);
	coef_value(r, "g", g);
	coef_value(r, "l", l);
	int n = rank_row_gap(r->t, i, r->model, g, l, by, parts);
	mpq_clears(g, l, NULL);
	return n;
}

static const char *const gap_name[3] = {"w", "h*g", "l"};

/* Why ranked row I costs more than the row above it, malloc'd: "+2148 (w
 * +2048, l +100)", the parts that are not 0 (rank_row_gap); "" for the first
 * row.  JSON: the same numbers (json_gap). */
static char *gap_text(const struct ranking *r, int i)
{
	if (i == 0)
		return strdup("");
	mpq_t by, parts[3];
	mpq_inits(by, parts[0], parts[1], parts[2], NULL);
	int n = gap_of(r, i, by, parts);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		char *b = report_number_digits(by, r->digits);
		fprintf(f, "+%s", b ? b : "?");
		free(b);
		int k = 0;
		for (int p = 0; p < n; p++) {
			if (mpq_sgn(parts[p]) == 0)
				continue;
			char *v = report_number_digits(parts[p], r->digits);
			fprintf(f, "%s%s %s%s", k++ ? ", " : " (", gap_name[p],
				mpq_sgn(parts[p]) > 0 ? "+" : "", v ? v : "?");
			free(v);
		}
		if (k)
			fputs(")", f);
		if (fclose(f) != 0) {
			free(text);
			text = NULL;
		}
	}
	mpq_clears(by, parts[0], parts[1], parts[2], NULL);
	return text;
}

/* COST / the machine's speed, malloc'd: exact when a short decimal, else
 * "~" and four significant digits (NULL without a speed).  With EXACT, the
 * exact number always. */
static char *seconds_text(const struct ranking *r, const mpq_t cost, bool exact)
{
	if (!r->speed)
		return NULL;
	mpq_t t;
	mpq_init(t);
	mpq_div(t, cost, r->speed);
	char *s = report_number(t), *approx = NULL;
	if (!exact && s)
		approx = r->digits > 0 ? report_number_digits(t, r->digits) : report_rounded(t);
	if (approx) {
		free(s);
		s = approx;
	}
	mpq_clear(t);
	return s;
}

static char *rank_text(const struct rank_row *row)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d%s", row->rank, row->tie ? "=" : "");
	return strdup(buf);
}

/* The cells of ranked row I, each malloc'd (NULL when out of memory). */
static void row_cells(const struct ranking *r, int i, char *cell[NCOLS])
{
	const struct rank_row *row = &r->t->rows[i];
	char shape[64];
	shape_label(shape, r->t, row->shape);
	cell[COL_RANK] = rank_text(row);
	cell[COL_CAND] = strdup(cand_name(r, row));
	cell[COL_SHAPE] = strdup(shape);
	cell[COL_W] = report_number_digits(row->w, r->digits);
	cell[COL_H] = report_number_digits(row->h, r->digits);
	cell[COL_NCOM] = report_number_digits(row->ncom, r->digits);
	cell[COL_MEM] = report_number_digits(row->mem, r->digits);
	cell[COL_COST] = report_number_digits(row->cost, r->digits);
	cell[COL_SECONDS] = seconds_text(r, row->cost, false);
	cell[COL_GAP] = gap_text(r, i);
}

static void print_values(FILE *out, const struct ranking *r)
{
	for (int i = 0; i < r->nvalues; i++) {
		fprintf(out, "%s%s = ", i ? ", " : "", r->values[i].name);
		report_param_value(out, &r->values[i], false);
	}
}

/* "best: ..." after the table: the first row, or the rows tied with it. */
static void print_best(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	if (t->nranked == 0)
		return;
	const struct rank_row *best = &t->rows[0];
	char shape[64];
	char *cost = report_number(best->cost);
	if (t->nuncounted)
		fprintf(out, "best of the counted rows (not proven: %d row%s not counted could cost "
			     "less): cost %s, ",
			t->nuncounted, t->nuncounted == 1 ? "" : "s", cost ? cost : "?");
	else
		fprintf(out, "best: cost %s, ", cost ? cost : "?");
	free(cost);
	if (!best->tie) {
		shape_label(shape, t, best->shape);
		fprintf(out, "shape %s, candidate %s\n", shape, cand_name(r, best));
		return;
	}
	int n = 0;
	while (n < t->nranked && t->rows[n].rank == 1)
		n++;
	/* the shapes and the candidates of the tie, each once, in order */
	int nshapes = 0, ncands = 0, cand = -1;
	for (int s = 0; s < t->nshapes; s++)
		for (int i = 0; i < n; i++)
			if (t->rows[i].shape == s) {
				nshapes++;
				break;
			}
	for (int c = 0; c < r->ncands; c++)
		for (int i = 0; i < n; i++)
			if (t->rows[i].cand == c) {
				ncands++;
				cand = c;
				break;
			}
	fprintf(out, "a tie of %d rows: shape%s ", n, nshapes == 1 ? "" : "s");
	int k = 0;
	for (int s = 0; s < t->nshapes; s++)
		for (int i = 0; i < n; i++)
			if (t->rows[i].shape == s) {
				shape_label(shape, t, s);
				fprintf(out, "%s%s", k++ ? ", " : "", shape);
				break;
			}
	if (ncands == 1)
		fprintf(out, "; candidate %s\n", r->cands[cand]);
	else if (ncands == r->ncands)
		fputs("; every candidate\n", out);
	else
		fprintf(out, "; %d of the %d candidates\n", ncands, r->ncands);
}

void report_rank_text(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	fprintf(out, "%s: %ld process%s, %d shape%s of ", r->file, t->procs,
		t->procs == 1 ? "" : "es", t->nshapes, t->nshapes == 1 ? "" : "s");
	for (int a = 0; a < r->naxes; a++)
		fprintf(out, "%s%s", a ? " x " : "", r->axes[a]);
	fprintf(out, ", %d candidate%s; ", r->ncands, r->ncands == 1 ? "" : "s");
	print_values(out, r);
	fputs("\n", out);
	report_model_line(out, r->model);

	int n = shown(r);
	static const char *const head[NCOLS] = {"rank", "candidate", "shape", "w", "h", "NCom",
						"mem", "cost", "seconds", "vs the row above"};
	char *(*cells)[NCOLS] = calloc((size_t)n + 1, sizeof(*cells));
	size_t width[NCOLS];
	for (int c = 0; c < NCOLS; c++)
		width[c] = strlen(head[c]);
	for (int i = 0; cells && i < n; i++) {
		row_cells(r, i, cells[i]);
		for (int c = 0; c < NCOLS; c++)
			if (cells[i][c] && strlen(cells[i][c]) > width[c])
				width[c] = strlen(cells[i][c]);
	}
	if (n == 0)
		fputs("no row could be ranked\n", out);
	bool left[NCOLS];
	for (int c = 0; c < NCOLS; c++)
		left[c] = c <= COL_SHAPE || c == COL_GAP;
	for (int i = -1; cells && n > 0 && i < n; i++) {
		const char *shown[NCOLS];
		for (int c = 0; c < NCOLS; c++) {
			const char *s = i < 0 ? head[c] : cells[i][c] ? cells[i][c] : "?";
			/* the first row: nothing above, no blanks */
			shown[c] = !col_shown(r, c) || (c == COL_GAP && !*s) ? NULL : s;
		}
		report_aligned_row(out, shown, width, left, NCOLS);
	}
	for (int i = 0; cells && i < n; i++)
		for (int c = 0; c < NCOLS; c++)
			free(cells[i][c]);
	free(cells);
	print_best(out, r);
	if (r->speed && n > 0)
		fprintf(out, "seconds: the cost in flops / s on %s (exact in JSON and CSV; ~ rounded "
			     "to %d digits)\n", r->machine, r->digits > 0 ? r->digits : 4);

	int refused = nrefused(t);
	if (n < t->nranked) {
		fprintf(out, "top %d of %d ranked rows", n, t->nranked);
		if (t->rows[n].rank == t->rows[n - 1].rank)
			fprintf(out, " (the tie at rank %d goes on)", t->rows[n].rank);
		if (refused)
			fprintf(out, "; %d row%s not ranked (listed without --top)", refused,
				refused == 1 ? "" : "s");
		fputs("\n", out);
	} else if (refused) {
		fputs("not ranked:\n", out);
		for (int i = t->nranked; i < t->nranked + refused; i++) {
			const struct rank_row *row = &t->rows[i];
			char shape[64];
			shape_label(shape, t, row->shape);
			fprintf(out, "  %s, %s: %s\n", shape, cand_name(r, row),
				row->reason ? row->reason : "unknown reason");
		}
	}
	if (t->nlate)
		fprintf(out, "incomplete: the run's time limit ran out with %ld of %ld (shape, "
			     "candidate) pairs counted; the others are not ranked\n",
			pairs(r) - t->nlate, pairs(r));
}

/* ---------------------------------------------------------------- JSON */

/* An exact number: an integer bare, a fraction as a string. */
static void json_number(FILE *out, const mpq_t q)
{
	char *s = report_number(q);
	report_json_number_text(out, s);
	free(s);
}

static void json_shape(FILE *out, const struct ranking *r, int s)
{
	fputs("\"shape\": [", out);
	for (int a = 0; a < r->naxes; a++)
		fprintf(out, "%s%ld", a ? ", " : "", r->t->shapes[s][a]);
	fputs("], \"grid\": {", out);
	for (int a = 0; a < r->naxes; a++) {
		fputs(a ? ", " : "", out);
		report_json_string(out, r->axes[a]);
		fprintf(out, ": %ld", r->t->shapes[s][a]);
	}
	fputs("}", out);
}

/* , "above": {"by": D, "w": .., "h*g": .., "l": ..}: why ranked row I costs
 * more than the row above it (rank_row_gap; only "by" for a cost function
 * that is not w + h*g + l), null for the first row. */
static void json_gap(FILE *out, const struct ranking *r, int i)
{
	fputs(", \"above\": ", out);
	if (i == 0) {
		fputs("null", out);
		return;
	}
	mpq_t by, parts[3];
	mpq_inits(by, parts[0], parts[1], parts[2], NULL);
	int n = gap_of(r, i, by, parts);
	fputs("{\"by\": ", out);
	json_number(out, by);
	for (int p = 0; p < n; p++) {
		fprintf(out, ", \"%s\": ", gap_name[p]);
		json_number(out, parts[p]);
	}
	fputs("}", out);
	mpq_clears(by, parts[0], parts[1], parts[2], NULL);
}

/* "ranking": [...], "refused": [...] of R, each row on a line starting with
 * INDENT. */
static void json_rows(FILE *out, const struct ranking *r, const char *indent)
{
	const struct rank_table *t = r->t;
	fputs("\"ranking\": [", out);
	int n = shown(r);
	for (int i = 0; i < n; i++) {
		const struct rank_row *row = &t->rows[i];
		fprintf(out, "%s%s{\"rank\": %d, \"tie\": %s, \"candidate\": ", i ? "," : "", indent,
			row->rank, row->tie ? "true" : "false");
		report_json_string(out, r->cands[row->cand]);
		fputs(", ", out);
		json_shape(out, r, row->shape);
		const char *names[] = {"w", "h", "h_in", "h_out", "ncom", "cost", "mem"};
		const mpq_t *vals[] = {&row->w, &row->h, &row->h_in, &row->h_out, &row->ncom,
				       &row->cost, &row->mem};
		for (int q = 0; q < 7; q++) {
			fprintf(out, ", \"%s\": ", names[q]);
			json_number(out, *vals[q]);
		}
		char *sec = seconds_text(r, row->cost, true);
		fputs(", \"seconds\": ", out);
		report_json_number_text(out, sec);
		free(sec);
		json_gap(out, r, i);
		fputs("}", out);
	}
	fputs("],\n   \"refused\": [", out);
	for (int i = t->nranked, k = 0; i < t->nranked + nrefused(t); i++, k++) {
		const struct rank_row *row = &t->rows[i];
		fprintf(out, "%s%s{\"candidate\": ", k ? "," : "", indent);
		if (row->cand < 0)
			fputs("null", out);
		else
			report_json_string(out, r->cands[row->cand]);
		fputs(", ", out);
		json_shape(out, r, row->shape);
		fprintf(out, ", \"status\": \"%s\", \"reason\": ", report_rank_status(row->status));
		report_json_string(out, row->reason ? row->reason : "unknown reason");
		fputs("}", out);
	}
	fputs("]", out);
}

/* Whether value I of R is swept. */
static bool is_swept(const struct ranking *r, int i)
{
	for (int k = 0; k < r->nswept; k++)
		if (r->swept[k] == i)
			return true;
	return false;
}

/* {"file": ..., "procs": ..., "machine": ..., "model": ..., "axes": [...],
 * "values": {...}: the head of the JSON of a ranking or of a sweep (whose
 * swept sizes are in each point's values, not here), its brace left open. */
void report_rank_json_head(FILE *out, const struct ranking *r)
{
	fputs("{\"file\": ", out);
	report_json_string(out, r->file);
	fprintf(out, ", \"procs\": %ld, \"machine\": ", r->t->procs);
	if (r->machine)
		report_json_string(out, r->machine);
	else
		fputs("null", out);
	fputs(", \"model\": ", out);
	report_json_string(out, (r->model ? r->model : cost_model_default())->name);
	fputs(", \"axes\": [", out);
	for (int a = 0; a < r->naxes; a++) {
		fputs(a ? ", " : "", out);
		report_json_string(out, r->axes[a]);
	}
	fputs("], \"values\": {", out);
	for (int i = 0, k = 0; i < r->nvalues; i++) {
		if (is_swept(r, i))
			continue;
		fputs(k++ ? ", " : "", out);
		report_json_string(out, r->values[i].name);
		fputs(": ", out);
		report_param_value(out, &r->values[i], true);
	}
	fputs("}", out);
}

/* "best_proven": whether the first ranked row of T is the best of every
 * row (no row uncounted), and "uncounted": how many rows could still cost
 * less; then a comma and a new line that starts with INDENT. */
static void json_proven(FILE *out, const struct rank_table *t, const char *indent)
{
	fprintf(out, ", \"best_proven\": %s, \"uncounted\": %d,\n%s",
		t->nranked > 0 && t->nuncounted == 0 ? "true" : "false", t->nuncounted, indent);
}

/* One point of a ranking or a sweep, R: {"values": {every value},
 * "ranked": ..., "complete": ..., "counted": ..., "pairs": ...,
 * "best_proven": ..., "uncounted": ..., "ranking": [...], "refused": [...]}. */
static void json_point(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	fputs("{\"values\": {", out);
	for (int i = 0; i < r->nvalues; i++) {
		fputs(i ? ", " : "", out);
		report_json_string(out, r->values[i].name);
		fputs(": ", out);
		report_param_value(out, &r->values[i], true);
	}
	fprintf(out, "}, \"ranked\": %d, \"complete\": %s, \"counted\": %ld, \"pairs\": %ld",
		t->nranked, t->nlate ? "false" : "true", pairs(r) - t->nlate, pairs(r));
	json_proven(out, t, "   ");
	json_rows(out, r, "\n    ");
	fputs("}", out);
}

/* A ranking is a sweep of one point: one shape for both. */
void report_rank_json(FILE *out, const struct ranking *r)
{
	report_sweep_json(out, r, 1);
}

/* ---------------------------------------------------------------- CSV */

static void csv_number(FILE *out, const mpq_t q)
{
	char *s = report_number(q);
	fputs(s ? s : "", out);
	free(s);
}

void report_rank_csv(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	if (r->first) {
		fputs("file,procs,", out);
		for (int k = 0; k < r->nswept; k++) {
			report_csv_field(out, r->values[r->swept[k]].name);
			fputc(',', out);
		}
		fputs("rank,tie,candidate,shape,w,h,h_in,h_out,ncom,cost,status,reason,seconds,mem\n",
		      out);
	}
	int n = shown(r);
	for (int i = 0; i < t->nranked + nrefused(t); i++) {
		if (i >= n && i < t->nranked)
			continue;
		const struct rank_row *row = &t->rows[i];
		char shape[64];
		shape_label(shape, t, row->shape);
		report_csv_field(out, r->file);
		fprintf(out, ",%ld,", t->procs);
		for (int k = 0; k < r->nswept; k++)
			fprintf(out, "%lld,", r->values[r->swept[k]].value);
		if (row->status == RANK_OK)
			fprintf(out, "%d,%s", row->rank, row->tie ? "yes" : "no");
		else
			fputs(",", out);
		fputc(',', out);
		report_csv_field(out, cand_name(r, row));
		fputc(',', out);
		report_csv_field(out, shape);
		const mpq_t *vals[] = {&row->w, &row->h, &row->h_in, &row->h_out, &row->ncom,
				       &row->cost};
		for (int q = 0; q < 6; q++) {
			fputc(',', out);
			if (row->status == RANK_OK)
				csv_number(out, *vals[q]);
		}
		fprintf(out, ",%s,", report_rank_status(row->status));
		if (row->status != RANK_OK)
			report_csv_field(out, row->reason ? row->reason : "unknown reason");
		fputc(',', out);
		char *sec = row->status == RANK_OK ? seconds_text(r, row->cost, true) : NULL;
		fputs(sec ? sec : "", out);
		free(sec);
		fputc(',', out);
		if (row->status == RANK_OK)
			csv_number(out, row->mem);
		fputc('\n', out);
	}
}

/* ---------------------------------------------------------------- Markdown */

/* "Top N of M ranked rows; K rows not ranked (...)." after a table cut by
 * --top (Markdown, LaTeX). */
static void print_top(FILE *out, const struct rank_table *t, int n, int refused)
{
	fprintf(out, "\nTop %d of %d ranked rows", n, t->nranked);
	if (refused)
		fprintf(out, "; %d row%s not ranked (listed without --top)", refused,
			refused == 1 ? "" : "s");
	fputs(".\n", out);
}

void report_rank_markdown(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	fputs("## ", out);
	report_md_text(out, r->file);
	fprintf(out, ": %ld process%s\n\n", t->procs, t->procs == 1 ? "" : "es");
	fprintf(out, "%d shape%s of ", t->nshapes, t->nshapes == 1 ? "" : "s");
	for (int a = 0; a < r->naxes; a++) {
		fputs(a ? " x " : "", out);
		report_md_text(out, r->axes[a]);
	}
	fprintf(out, ", %d candidate%s; ", r->ncands, r->ncands == 1 ? "" : "s");
	print_values(out, r);
	fputs(".\n\n", out);
	if (r->model && r->model != cost_model_default()) {
		report_model_line(out, r->model);
		fputs("\n", out);
	}
	int n = shown(r);
	if (n > 0) {
		fputs(r->speed ? "| rank | candidate | shape | w | h | NCom | mem | cost | seconds | vs the row above |\n"
			       : "| rank | candidate | shape | w | h | NCom | mem | cost | vs the row above |\n", out);
		fputs(r->speed ? "|---|---|---|--:|--:|--:|--:|--:|--:|---|\n"
			       : "|---|---|---|--:|--:|--:|--:|--:|---|\n", out);
	}
	for (int i = 0; i < n; i++) {
		char *cell[NCOLS];
		row_cells(r, i, cell);
		fputs("|", out);
		for (int c = 0; c < NCOLS; c++) {
			if (col_shown(r, c) && c == COL_CAND) {
				fputs(" ", out);
				report_md_code(out, cell[c] ? cell[c] : "?", true);
				fputs(" |", out);
			} else if (col_shown(r, c)) {
				fputs(" ", out);
				report_md_text(out, cell[c] ? cell[c] : "?");
				fputs(" |", out);
			}
			free(cell[c]);
		}
		fputs("\n", out);
	}
	if (n == 0)
		fputs("No row could be ranked.\n", out);
	if (t->nranked > 0) {
		fputs("\n", out);
		print_best(out, r);
		if (r->speed)
			fprintf(out, "\nseconds: the cost in flops / s on %s (~: rounded to %d digits).\n",
				r->machine, r->digits > 0 ? r->digits : 4);
	}
	int refused = nrefused(t);
	if (n < t->nranked) {
		print_top(out, t, n, refused);
	} else if (refused) {
		fputs("\nNot ranked:\n\n", out);
		for (int i = t->nranked; i < t->nranked + refused; i++) {
			const struct rank_row *row = &t->rows[i];
			char shape[64];
			shape_label(shape, t, row->shape);
			fprintf(out, "- %s, ", shape);
			report_md_text(out, row->cand < 0 ? "every candidate" : r->cands[row->cand]);
			fputs(": ", out);
			report_md_text(out, row->reason ? row->reason : "unknown reason");
			fputs("\n", out);
		}
	}
	if (t->nlate)
		fprintf(out, "\nIncomplete: the run's time limit ran out with %ld of %ld (shape, "
			     "candidate) pairs counted; the others are not ranked.\n",
			pairs(r) - t->nlate, pairs(r));
}

void report_rank_needs_values(FILE *out, const char *file, const long *procs, int nprocs,
			      const char *const *missing, int nmissing, int optional)
{
	fprintf(out, "%s: to rank the grid shapes of ", file);
	if (nprocs <= 4) {
		for (int i = 0; i < nprocs; i++)
			fprintf(out, "%s%ld", i == 0 ? "" : i + 1 == nprocs ? " and " : ", ", procs[i]);
		fputs(nprocs == 1 && procs[0] == 1 ? " process" : " processes", out);
	} else {
		fprintf(out, "each of the %d process counts", nprocs);
	}
	fputs(", give", out);
	for (int i = 0; i < nmissing - optional; i++)
		fprintf(out, " -D %s=VALUE", missing[i]);
	if (optional > 0) {
		fputs(", and for one machine", out);
		for (int i = nmissing - optional; i < nmissing; i++)
			fprintf(out, " -D %s=VALUE", missing[i]);
		fputs(" (without them, the ranking is for every machine)", out);
	}
	fputs("\n", out);
}

void report_rank_not_started(FILE *out, const char *file, const long *procs, int n)
{
	fprintf(out, "%s: not ranked, the run's time limit having run out: ", file);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%ld", i ? ", " : "", procs[i]);
	fprintf(out, " process%s\n", n == 1 && procs[0] == 1 ? "" : "es");
}

/* ---------------------------------------------------------------- sweeps */

/* "file: 16 processes, 5 shapes of M x N, 16 candidates; m = 1024, g = 4,
 * l = 100; n from 256 to 8192, 6 points" (no newline) */
static void sweep_title(FILE *out, const struct ranking *r, int n, bool md)
{
	const struct rank_table *t = r->t;
	if (md)
		report_md_text(out, r->file);
	else
		fputs(r->file, out);
	fprintf(out, ": %ld process%s, %d shape%s of ", t->procs, t->procs == 1 ? "" : "es",
		t->nshapes, t->nshapes == 1 ? "" : "s");
	for (int a = 0; a < r->naxes; a++)
		fprintf(out, "%s%s", a ? " x " : "", r->axes[a]);
	fprintf(out, ", %d candidate%s; ", r->ncands, r->ncands == 1 ? "" : "s");
	for (int i = 0, k = 0; i < r->nvalues; i++) {
		if (is_swept(r, i))
			continue;
		fprintf(out, "%s%s = ", k++ ? ", " : "", r->values[i].name);
		report_param_value(out, &r->values[i], false);
	}
	fprintf(out, "; %d point%s of ", n, n == 1 ? "" : "s");
	for (int k = 0; k < r->nswept; k++)
		fprintf(out, "%s%s", k ? ", " : "", r->values[r->swept[k]].name);
}

enum { SW_COST, SW_SECONDS, SW_SHAPE, SW_CAND, SW_TIES, SW_NCOLS };
enum { MAX_SWEEP_COLS = 4 + SW_NCOLS };   /* MAX_SWEEPS swept sizes, then those */

/* The cells after the swept sizes of point R: its best row, or why it has
 * none; each malloc'd. */
static void sweep_cells(const struct ranking *r, char *cell[SW_NCOLS])
{
	const struct rank_table *t = r->t;
	memset(cell, 0, sizeof(char *) * SW_NCOLS);
	if (t->nranked == 0 || t->nlate > 0) {
		/* no best: none ranked, or a late row might be better */
		cell[SW_COST] = strdup("-");
		cell[SW_SECONDS] = strdup("-");
		cell[SW_SHAPE] = strdup("-");
		bool one_reason = t->nrows > 0 && t->nlate == 0;
		for (int i = 1; one_reason && i < t->nrows; i++)
			one_reason = t->rows[i].reason && t->rows[0].reason &&
				     strcmp(t->rows[i].reason, t->rows[0].reason) == 0;
		char *why = NULL;
		if (t->nlate > 0) {
			if (asprintf(&why, "not counted in time (%d of %d rows)", t->nlate,
				     t->nrows) < 0)
				why = NULL;
		} else if (one_reason && t->rows[0].reason) {
			if (asprintf(&why, "no row could be ranked: %s", t->rows[0].reason) < 0)
				why = NULL;
		} else {
			why = strdup("no row could be ranked (-f json gives each reason)");
		}
		cell[SW_CAND] = why;
		cell[SW_TIES] = strdup("");
		return;
	}
	const struct rank_row *best = &t->rows[0];
	char shape[64];
	shape_label(shape, t, best->shape);
	int tied = 0;
	while (tied + 1 < t->nranked && t->rows[tied + 1].rank == 1)
		tied++;
	/* rows the engine could not count: the best is among the others */
	int uncounted = t->nuncounted;
	char ties[64];
	if (uncounted)
		snprintf(ties, sizeof(ties), tied ? "+%d, %d not counted" : "%d not counted",
			 tied ? tied : uncounted, uncounted);
	else
		snprintf(ties, sizeof(ties), tied ? "+%d" : "", tied);
	cell[SW_COST] = report_number_digits(best->cost, r->digits);
	cell[SW_SECONDS] = seconds_text(r, best->cost, false);
	cell[SW_SHAPE] = strdup(shape);
	cell[SW_CAND] = strdup(cand_name(r, best));
	cell[SW_TIES] = strdup(ties);
}

/* Whether a point of the sweep R[0..N) has rows that were not counted. */
static bool sweep_uncounted(const struct ranking *r, int n)
{
	for (int p = 0; p < n; p++)
		if (r[p].t->nuncounted > 0)
			return true;
	return false;
}

void report_sweep_text(FILE *out, const struct ranking *r, int n)
{
	sweep_title(out, r, n, false);
	fputs("\n", out);
	report_model_line(out, r->model);
	static const char *const head[SW_NCOLS] = {"best cost", "seconds", "shape", "candidate",
						   "tied"};
	int ncol = r->nswept + SW_NCOLS;
	char **cells = calloc((size_t)(n + 1) * (size_t)ncol, sizeof(*cells));
	size_t *width = calloc((size_t)ncol, sizeof(*width));
	if (!cells || !width) {
		free(cells);
		free(width);
		fputs("out of memory\n", out);
		return;
	}
	for (int k = 0; k < r->nswept; k++)
		cells[k] = strdup(r->values[r->swept[k]].name);
	for (int c = 0; c < SW_NCOLS; c++)
		cells[r->nswept + c] = strdup(head[c]);
	for (int i = 0; i < n; i++) {
		char **row = cells + (size_t)(i + 1) * (size_t)ncol;
		for (int k = 0; k < r->nswept; k++) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%lld", r[i].values[r->swept[k]].value);
			row[k] = strdup(buf);
		}
		sweep_cells(&r[i], row + r->nswept);
	}
	for (int i = 0; i <= n; i++)
		for (int c = 0; c < ncol; c++) {
			const char *s = cells[(size_t)i * (size_t)ncol + c];
			if (s && strlen(s) > width[c])
				width[c] = strlen(s);
		}
	/* the columns shown: seconds only with a speed, tied only with a tie */
	bool show[MAX_SWEEP_COLS] = {false};
	int last = 0;
	for (int c = 0; c < ncol && c < MAX_SWEEP_COLS; c++) {
		show[c] = true;
		if (c == r->nswept + SW_SECONDS)
			show[c] = r->speed != NULL;
		if (c == r->nswept + SW_TIES) {
			show[c] = false;
			for (int i = 1; i <= n; i++)
				show[c] |= cells[(size_t)i * (size_t)ncol + c] &&
					   *cells[(size_t)i * (size_t)ncol + c];
		}
		if (show[c])
			last = c;
	}
	for (int i = 0; i <= n; i++) {
		char **row = cells + (size_t)i * (size_t)ncol;
		/* the row's last non-empty cell ends it: no trailing blanks */
		int end = last;
		while (end > 0 && (!show[end] || !row[end] || !*row[end]))
			end--;
		for (int c = 0; c <= end; c++) {
			if (!show[c])
				continue;
			const char *s = row[c] ? row[c] : "?";
			if (c >= r->nswept + SW_SHAPE)   /* words: left, the last unpadded */
				fprintf(out, "%-*s", c == end ? 0 : (int)width[c], s);
			else
				fprintf(out, "%*s", (int)width[c], s);
			fputs(c < end ? "  " : "\n", out);
		}
	}
	for (int i = 0; i <= n; i++)
		for (int c = 0; c < ncol; c++)
			free(cells[(size_t)i * (size_t)ncol + c]);
	free(cells);
	free(width);
	fputs("best: the lowest cost of every shape and candidate at each point", out);
	fputs(show[r->nswept + SW_TIES] ? "; tied: how many more rows have it (-f json lists them)"
					 : "", out);
	fputs(sweep_uncounted(r, n) ? "; not counted: rows the engine refused (-f json says why): "
				      "the best of such a point is not proven, they could cost less\n"
				    : "\n", out);
	if (r->speed)
		fprintf(out, "seconds: the cost in flops / s on %s (exact in JSON and CSV; ~ rounded "
			     "to %d digits)\n", r->machine, r->digits > 0 ? r->digits : 4);
}

void report_sweep_json(FILE *out, const struct ranking *r, int n)
{
	report_rank_json_head(out, r);
	fprintf(out, ", \"shapes\": %d, \"candidates\": %d,\n \"points\": [", r->t->nshapes,
		r->ncands);
	for (int p = 0; p < n; p++) {
		fputs(p ? ",\n  " : "\n  ", out);
		json_point(out, &r[p]);
	}
	fputs("]}\n", out);
}

void report_sweep_csv(FILE *out, const struct ranking *r, int n)
{
	for (int p = 0; p < n; p++)
		report_rank_csv(out, &r[p]);
}

void report_sweep_markdown(FILE *out, const struct ranking *r, int n)
{
	fputs("## ", out);
	sweep_title(out, r, n, true);
	fputs("\n\n", out);
	if (r->model && r->model != cost_model_default()) {
		report_model_line(out, r->model);
		fputs("\n", out);
	}
	fputs("|", out);
	for (int k = 0; k < r->nswept; k++) {
		fputs(" ", out);
		report_md_text(out, r->values[r->swept[k]].name);
		fputs(" |", out);
	}
	fputs(r->speed ? " best cost | seconds | shape | candidate | tied |\n|"
		       : " best cost | shape | candidate | tied |\n|", out);
	for (int k = 0; k < r->nswept; k++)
		fputs("--:|", out);
	fputs(r->speed ? "--:|--:|---|---|--:|\n" : "--:|---|---|--:|\n", out);
	for (int p = 0; p < n; p++) {
		fputs("|", out);
		for (int k = 0; k < r->nswept; k++)
			fprintf(out, " %lld |", r[p].values[r->swept[k]].value);
		char *cell[SW_NCOLS];
		sweep_cells(&r[p], cell);
		for (int c = 0; c < SW_NCOLS; c++) {
			if (c == SW_SECONDS && !r->speed) {
				free(cell[c]);
				continue;
			}
			fputs(" ", out);
			if (c == SW_CAND && r[p].t->nranked > 0 && r[p].t->nlate == 0)
				report_md_code(out, cell[c] ? cell[c] : "?", true);
			else
				report_md_text(out, cell[c] ? cell[c] : "?");
			fputs(" |", out);
			free(cell[c]);
		}
		fputs("\n", out);
	}
	fputs("\nBest: the lowest cost of every shape and candidate at each point; tied: how many "
	      "more rows have it (the JSON report lists them).\n", out);
	if (sweep_uncounted(r, n))
		fputs("\nNot counted: rows the engine refused (the JSON report says why); the best of "
		      "such a point is not proven, they could cost less.\n", out);
	if (r->speed)
		fprintf(out, "\nseconds: the cost in flops / s on %s (~: rounded to %d digits).\n",
			r->machine, r->digits > 0 ? r->digits : 4);
}

/* ---------------------------------------------------------------- LaTeX */

/* What WRITE prints of R, as LaTeX text (escaped). */
static void latex_of(FILE *out, const struct ranking *r,
		     void (*write)(FILE *, const struct ranking *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	write(f, r);
	fclose(f);
	report_latex_text(out, text, false);
	free(text);
}

/* A tabular does not break across pages: a table of more rows is closed and
 * opened again, its head repeated, every LATEX_ROWS rows. */
enum { LATEX_ROWS = 10 };

static void latex_table_open(FILE *out, const char *size, const char *spec, const char *head)
{
	fprintf(out, "\\begin{center}%s\\setlength{\\tabcolsep}{3pt}\n"
		     "\\begin{tabular}{%s}\n%s \\\\\n\\hline\n", size, spec, head);
}

static void latex_table_close(FILE *out)
{
	fputs("\\end{tabular}\n\\end{center}\n", out);
}

static void latex_model(FILE *out, const struct ranking *r)
{
	if (!r->model || r->model == cost_model_default())
		return;
	fputs("Cost function \\texttt{", out);
	report_latex_text(out, r->model->name, false);
	fputs("}: \\texttt{", out);
	report_latex_text(out, r->model->text, false);
	fputs("}, summed over the supersteps.\n\n", out);
}

/* A fragment for a document that \input's it (plain LaTeX): the table of
 * the ranking, as in the text report. */
void report_rank_latex(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	fputs("% bspcost: ", out);
	report_latex_text(out, r->file, false);
	fprintf(out, ", -p %ld\n\\paragraph{", t->procs);
	report_latex_text(out, r->file, true);
	fprintf(out, ": %ld process%s.}\n", t->procs, t->procs == 1 ? "" : "es");
	fprintf(out, "%d shape%s of ", t->nshapes, t->nshapes == 1 ? "" : "s");
	for (int a = 0; a < r->naxes; a++) {
		fputs(a ? " $\\times$ " : "", out);
		report_latex_text(out, r->axes[a], false);
	}
	fprintf(out, ", %d candidate%s; ", r->ncands, r->ncands == 1 ? "" : "s");
	latex_of(out, r, print_values);
	fputs(".\n\n", out);
	latex_model(out, r);
	int n = shown(r);
	/* the candidate's column what the others leave of an article's 345 pt
	 * (a \\scriptsize character about 4.4 pt, 8 pt between columns: measured) */
	size_t widest[NCOLS] = {0};
	for (int i = 0; i < n; i++) {
		char *cell[NCOLS];
		row_cells(r, i, cell);
		for (int c = 0; c < NCOLS; c++) {
			if (c != COL_CAND && cell[c] && strlen(cell[c]) > widest[c])
				widest[c] = strlen(cell[c]);
			free(cell[c]);
		}
	}
	double used = 8.0 * ncols(r);
	for (int c = 0; c < ncols(r); c++)
		used += 4.4 * (double)widest[c];
	int cand = (int)(100.0 * (345.0 - used) / 345.0);
	/* numbers wider than that: a smaller type (\\tiny, about 3.4 pt) */
	const char *size = cand < 10 ? "\\tiny" : "\\scriptsize";
	if (cand < 10)
		cand = (int)(100.0 * (345.0 - used * 3.4 / 4.4) / 345.0);
	char spec[64];
	snprintf(spec, sizeof(spec), "rp{0.%02d\\linewidth}lrrrrr%s", cand < 10 ? 10 : cand > 36 ? 36 : cand,
		 r->speed ? "r" : "");
	const char *head = r->speed ? "rank & candidate & shape & $w$ & $h$ & NCom & mem & cost & seconds"
				    : "rank & candidate & shape & $w$ & $h$ & NCom & mem & cost";
	for (int i = 0; i < n; i++) {
		if (i % LATEX_ROWS == 0) {
			if (i > 0)
				latex_table_close(out);
			latex_table_open(out, size, spec, head);
		}
		char *cell[NCOLS];
		row_cells(r, i, cell);
		for (int c = 0; c < NCOLS; c++) {
			if (c < ncols(r)) {
				fputs(c ? " & " : "", out);
				if (c == COL_CAND)
					fputs("\\texttt{", out);
				report_latex_text(out, cell[c] ? cell[c] : "?", c == COL_CAND);
				if (c == COL_CAND)
					fputs("}", out);
			}
			free(cell[c]);
		}
		fputs(" \\\\\n", out);
	}
	if (n > 0)
		latex_table_close(out);
	else
		fputs("No row could be ranked.\n", out);
	if (t->nranked > 0) {
		latex_of(out, r, print_best);
		if (r->speed) {
			fputs("\nseconds: the cost in flops / s on ", out);
			report_latex_text(out, r->machine, false);
			fprintf(out, " (\\textasciitilde: rounded to %d digits).\n",
				r->digits > 0 ? r->digits : 4);
		}
	}
	int refused = nrefused(t);
	if (n < t->nranked) {
		print_top(out, t, n, refused);
	} else if (refused) {
		fputs("\nNot ranked:\n\\begin{itemize}\n", out);
		for (int i = t->nranked; i < t->nranked + refused; i++) {
			const struct rank_row *row = &t->rows[i];
			char shape[64];
			shape_label(shape, t, row->shape);
			fprintf(out, "\\item %s, ", shape);
			report_latex_text(out, row->cand < 0 ? "every candidate" : r->cands[row->cand],
					  true);
			fputs(": ", out);
			report_latex_text(out, row->reason ? row->reason : "unknown reason", false);
			fputs("\n", out);
		}
		fputs("\\end{itemize}\n", out);
	}
	if (t->nlate)
		fprintf(out, "\nIncomplete: the run's time limit ran out with %ld of %ld (shape, "
			     "candidate) pairs counted; the others are not ranked.\n",
			pairs(r) - t->nlate, pairs(r));
}

void report_sweep_latex(FILE *out, const struct ranking *r, int n)
{
	fputs("% bspcost: ", out);
	report_latex_text(out, r->file, false);
	fputs(", a sweep\n\\paragraph{", out);
	char *title = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&title, &len);
	if (f) {
		sweep_title(f, r, n, false);
		fclose(f);
	}
	report_latex_text(out, title ? title : r->file, true);
	free(title);
	fputs(".}\n", out);
	latex_model(out, r);
	/* the candidate's column narrower for each swept size and the seconds */
	char spec[64];
	int width = 36 - 6 * r->nswept - (r->speed ? 8 : 0);
	snprintf(spec, sizeof(spec), "%.*s%sp{0.%02d\\linewidth}r", r->nswept, "rrrr",
		 r->speed ? "rrl" : "rl", width > 10 ? width : 10);
	char *head = NULL;
	size_t hlen = 0;
	FILE *hf = open_memstream(&head, &hlen);
	if (hf) {
		for (int k = 0; k < r->nswept; k++) {
			report_latex_text(hf, r->values[r->swept[k]].name, false);
			fputs(" & ", hf);
		}
		fputs(r->speed ? "best cost & seconds & shape & candidate & tied"
			       : "best cost & shape & candidate & tied", hf);
		fclose(hf);
	}
	for (int p = 0; p < n; p++) {
		if (p % LATEX_ROWS == 0) {
			if (p > 0)
				latex_table_close(out);
			latex_table_open(out, "\\scriptsize", spec, head ? head : "");
		}
		for (int k = 0; k < r->nswept; k++)
			fprintf(out, "%lld & ", r[p].values[r->swept[k]].value);
		char *cell[SW_NCOLS];
		sweep_cells(&r[p], cell);
		bool first = true;
		for (int c = 0; c < SW_NCOLS; c++) {
			if (c == SW_SECONDS && !r->speed) {
				free(cell[c]);
				continue;
			}
			fputs(first ? "" : " & ", out);
			first = false;
			bool code = c == SW_CAND && r[p].t->nranked > 0 && r[p].t->nlate == 0;
			if (code)
				fputs("\\texttt{", out);
			report_latex_text(out, cell[c] ? cell[c] : "?", c == SW_CAND);
			if (code)
				fputs("}", out);
			free(cell[c]);
		}
		fputs(" \\\\\n", out);
	}
	if (n > 0)
		latex_table_close(out);
	free(head);
	fputs("Best: the lowest cost of every shape and candidate at each point; tied: how many "
	      "more rows have it (the JSON report lists them).\n", out);
	if (r->speed) {
		fputs("\nseconds: the cost in flops / s on ", out);
		report_latex_text(out, r->machine, false);
		fprintf(out, " (\\textasciitilde: rounded to %d digits).\n",
			r->digits > 0 ? r->digits : 4);
	}
}

void report_ranking(FILE *out, enum output_format format, const struct ranking *r, int tables)
{
	if (tables > 0 && (format == FORMAT_TEXT || format == FORMAT_MARKDOWN ||
			   format == FORMAT_LATEX))
		fputs("\n", out);
	if (r->every_machine)
		report_every_machine(out, format, r);
	else if (format == FORMAT_JSON)
		report_rank_json(out, r);
	else if (format == FORMAT_CSV)
		report_rank_csv(out, r);
	else if (format == FORMAT_MARKDOWN)
		report_rank_markdown(out, r);
	else if (format == FORMAT_LATEX)
		report_rank_latex(out, r);
	else
		report_rank_text(out, r);
}

void report_sweep(FILE *out, enum output_format format, const struct ranking *r, int n,
		  int tables)
{
	if (tables > 0 && (format == FORMAT_TEXT || format == FORMAT_MARKDOWN ||
			   format == FORMAT_LATEX))
		fputs("\n", out);
	if (format == FORMAT_JSON)
		report_sweep_json(out, r, n);
	else if (format == FORMAT_CSV)
		report_sweep_csv(out, r, n);
	else if (format == FORMAT_MARKDOWN)
		report_sweep_markdown(out, r, n);
	else if (format == FORMAT_LATEX)
		report_sweep_latex(out, r, n);
	else
		report_sweep_text(out, r, n);
}
