/* -p: the ranking of every grid shape and candidate of a process count, as
 * text (an aligned table), JSON, CSV or Markdown.  The ranking itself (order,
 * ranks, ties) is analyzer/decide/rank.c's; this prints it. */
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

static const char *status_name(enum rank_status st)
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

enum { COL_RANK, COL_CAND, COL_SHAPE, COL_W, COL_H, COL_NCOM, COL_COST, COL_SECONDS, NCOLS };

/* The columns shown: seconds only with a machine's speed. */
static int ncols(const struct ranking *r)
{
	return r->speed ? NCOLS : NCOLS - 1;
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
	cell[COL_COST] = report_number_digits(row->cost, r->digits);
	cell[COL_SECONDS] = seconds_text(r, row->cost, false);
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
	fprintf(out, "best%s: cost %s, ", t->nlate ? " so far" : "", cost ? cost : "?");
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

	int n = shown(r);
	static const char *const head[NCOLS] = {"rank", "candidate", "shape", "w", "h", "NCom",
						"cost", "seconds"};
	const int nc = ncols(r);
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
	for (int i = -1; cells && n > 0 && i < n; i++) {
		for (int c = 0; c < nc; c++) {
			const char *s = i < 0 ? head[c] : cells[i][c] ? cells[i][c] : "?";
			int left = c <= COL_SHAPE;
			int pad = (int)(width[c] - strlen(s));
			if (c)
				fputs("  ", out);
			if (!left)
				fprintf(out, "%*s", pad, "");
			fputs(s, out);
			if (left && c + 1 < nc)
				fprintf(out, "%*s", pad, "");
		}
		fputs("\n", out);
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

void report_rank_json(FILE *out, const struct ranking *r)
{
	const struct rank_table *t = r->t;
	fputs("{\"file\": ", out);
	report_json_string(out, r->file);
	fprintf(out, ", \"procs\": %ld, \"machine\": ", t->procs);
	if (r->machine)
		report_json_string(out, r->machine);
	else
		fputs("null", out);
	fputs(", \"axes\": [", out);
	for (int a = 0; a < r->naxes; a++) {
		fputs(a ? ", " : "", out);
		report_json_string(out, r->axes[a]);
	}
	fputs("], \"values\": {", out);
	for (int i = 0; i < r->nvalues; i++) {
		fputs(i ? ", " : "", out);
		report_json_string(out, r->values[i].name);
		fputs(": ", out);
		report_param_value(out, &r->values[i], true);
	}
	fprintf(out, "},\n \"shapes\": %d, \"candidates\": %d, \"ranked\": %d, \"complete\": %s, "
		     "\"counted\": %ld, \"pairs\": %ld,\n \"ranking\": [",
		t->nshapes, r->ncands, t->nranked, t->nlate ? "false" : "true",
		pairs(r) - t->nlate, pairs(r));
	int n = shown(r);
	for (int i = 0; i < n; i++) {
		const struct rank_row *row = &t->rows[i];
		fprintf(out, "%s\n  {\"rank\": %d, \"tie\": %s, \"candidate\": ", i ? "," : "",
			row->rank, row->tie ? "true" : "false");
		report_json_string(out, r->cands[row->cand]);
		fputs(", ", out);
		json_shape(out, r, row->shape);
		const char *names[] = {"w", "h", "h_in", "h_out", "ncom", "cost"};
		const mpq_t *vals[] = {&row->w, &row->h, &row->h_in, &row->h_out, &row->ncom,
				       &row->cost};
		for (int q = 0; q < 6; q++) {
			fprintf(out, ", \"%s\": ", names[q]);
			json_number(out, *vals[q]);
		}
		char *sec = seconds_text(r, row->cost, true);
		fputs(", \"seconds\": ", out);
		report_json_number_text(out, sec);
		free(sec);
		fputs("}", out);
	}
	fputs("],\n \"refused\": [", out);
	for (int i = t->nranked, k = 0; i < t->nranked + nrefused(t); i++, k++) {
		const struct rank_row *row = &t->rows[i];
		fputs(k ? ",\n  {\"candidate\": " : "\n  {\"candidate\": ", out);
		if (row->cand < 0)
			fputs("null", out);
		else
			report_json_string(out, r->cands[row->cand]);
		fputs(", ", out);
		json_shape(out, r, row->shape);
		fprintf(out, ", \"status\": \"%s\", \"reason\": ", status_name(row->status));
		report_json_string(out, row->reason ? row->reason : "unknown reason");
		fputs("}", out);
	}
	fputs("]}\n", out);
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
	if (r->first)
		fputs("file,procs,rank,tie,candidate,shape,w,h,h_in,h_out,ncom,cost,status,reason,"
		      "seconds\n", out);
	int n = shown(r);
	for (int i = 0; i < t->nranked + nrefused(t); i++) {
		if (i >= n && i < t->nranked)
			continue;
		const struct rank_row *row = &t->rows[i];
		char shape[64];
		shape_label(shape, t, row->shape);
		report_csv_field(out, r->file);
		fprintf(out, ",%ld,", t->procs);
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
		fprintf(out, ",%s,", status_name(row->status));
		if (row->status != RANK_OK)
			report_csv_field(out, row->reason ? row->reason : "unknown reason");
		fputc(',', out);
		char *sec = row->status == RANK_OK ? seconds_text(r, row->cost, true) : NULL;
		fputs(sec ? sec : "", out);
		free(sec);
		fputc('\n', out);
	}
}

/* ---------------------------------------------------------------- Markdown */

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
	int n = shown(r);
	if (n > 0) {
		fputs(r->speed ? "| rank | candidate | shape | w | h | NCom | cost | seconds |\n"
			       : "| rank | candidate | shape | w | h | NCom | cost |\n", out);
		fputs(r->speed ? "|---|---|---|--:|--:|--:|--:|--:|\n" : "|---|---|---|--:|--:|--:|--:|\n",
		      out);
	}
	for (int i = 0; i < n; i++) {
		char *cell[NCOLS];
		row_cells(r, i, cell);
		fputs("|", out);
		for (int c = 0; c < NCOLS; c++) {
			if (c < ncols(r) && c == COL_CAND) {
				fputs(" ", out);
				report_md_code(out, cell[c] ? cell[c] : "?", true);
				fputs(" |", out);
			} else if (c < ncols(r)) {
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
		fprintf(out, "\nTop %d of %d ranked rows", n, t->nranked);
		if (refused)
			fprintf(out, "; %d row%s not ranked (listed without --top)", refused,
				refused == 1 ? "" : "s");
		fputs(".\n", out);
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
			      const char *const *missing, int nmissing)
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
	for (int i = 0; i < nmissing; i++)
		fprintf(out, " -D %s=VALUE", missing[i]);
	fputs("\n", out);
}

void report_rank_not_started(FILE *out, const char *file, const long *procs, int n)
{
	fprintf(out, "%s: not ranked, the run's time limit having run out: ", file);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%ld", i ? ", " : "", procs[i]);
	fprintf(out, " process%s\n", n == 1 && procs[0] == 1 ? "" : "es");
}
