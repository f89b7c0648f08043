/* --per-process: each process's work, fan-in and fan-out in every superstep of
 * every candidate, on the concrete grid of the values given (Hill, Crumpton
 * and Burgess's communication profile, counted instead of measured), as text
 * (aligned tables), JSON, CSV or Markdown.  The counts are analyzer/cost's
 * (step_cost.procs, cost_request.per_process); this prints them. */
#include <stdio.h> /* before gmp.h: gmp_fprintf */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "analyzer/report/report.h"

/* "file: each process's counts on the grid M=2, N=4; n = 64, g = 1" */
static void title(FILE *out, const struct analysis *a, bool md)
{
	if (md)
		report_md_text(out, a->file);
	else
		fputs(a->file, out);
	fputs(": each process's counts on the grid ", out);
	for (int k = 0; k < a->naxes; k++)
		fprintf(out, "%s%s=%ld", k ? ", " : "", a->axes[k], a->sizes[k]);
	report_sizes_given(out, a);
	fputs("\n", out);
}


/* The columns: the messages' two where they were counted (ncols). */
enum { COL_W, COL_IN, COL_OUT, COL_MSGS_IN, COL_MSGS_OUT, NCOLS };
static const char *const col_name[NCOLS] = {"w", "fan-in", "fan-out", "msgs-in", "msgs-out"};
static const char *const col_key[NCOLS] = {"w", "fan_in", "fan_out", "msgs_in", "msgs_out"};

static mpz_srcptr col(const struct process_cost *pc, int k)
{
	return k == COL_W ? pc->w : k == COL_IN ? pc->in : k == COL_OUT ? pc->out
	       : k == COL_MSGS_IN ? pc->msgs_in : pc->msgs_out;
}

/* Column K of process PC of step SC as text (malloc'd): "-" for messages
 * not counted (a superstep in a loop), NULL when out of memory. */
static char *cell_text(const struct step_cost *sc, const struct process_cost *pc, int k)
{
	if (k >= COL_MSGS_IN && !sc->msgs)
		return strdup("-");
	return mpz_get_str(NULL, 10, col(pc, k));
}

/* The columns of A's tables: w, fan-in and fan-out, and the messages'
 * where some superstep's were counted. */
static int ncols(const struct analysis *a)
{
	for (int c = 0; a->exact && c < a->ncands; c++)
		for (int s = 0; a->exact[c].status == COST_OK && s < a->exact[c].nsteps; s++)
			if (a->exact[c].steps[s].msgs)
				return NCOLS;
	return COL_MSGS_IN;
}

/* The widths of the columns of step SC: the axes, then w, fan-in, fan-out. */
static void widths(const struct analysis *a, const struct step_cost *sc, size_t w[3 + NCOLS])
{
	for (int k = 0; k < a->naxes; k++)
		w[k] = strlen(a->axes[k]);
	for (int k = 0; k < ncols(a); k++)
		w[a->naxes + k] = strlen(col_name[k]);
	for (int i = 0; i < sc->nprocs; i++) {
		const struct process_cost *pc = &sc->procs[i];
		char num[32];
		for (int k = 0; k < a->naxes; k++) {
			size_t n = (size_t)snprintf(num, sizeof(num), "%ld", pc->q[k]);
			if (n > w[k])
				w[k] = n;
		}
		for (int k = 0; k < ncols(a); k++) {
			/* (GMP's size in base 10 may be one more: as the columns were) */
			size_t n = k >= COL_MSGS_IN && !sc->msgs
					   ? 1
					   : mpz_sizeinbase(col(pc, k), 10) + (mpz_sgn(col(pc, k)) < 0);
			if (n > w[a->naxes + k])
				w[a->naxes + k] = n;
		}
	}
}

static void text_step(FILE *out, const struct analysis *a, const struct step_cost *sc)
{
	size_t w[3 + NCOLS];
	widths(a, sc, w);
	fprintf(out, "  superstep %s", sc->name);
	if (sc->loop)
		fprintf(out, " (in the loop %s; each count is the sum over its runs)", sc->loop);
	fputs("\n   ", out);
	for (int k = 0; k < a->naxes; k++)
		fprintf(out, " %*s", (int)w[k], a->axes[k]);
	for (int k = 0; k < ncols(a); k++)
		fprintf(out, " %*s", (int)w[a->naxes + k], col_name[k]);
	fputs("\n", out);
	for (int i = 0; i < sc->nprocs; i++) {
		const struct process_cost *pc = &sc->procs[i];
		fputs("   ", out);
		for (int k = 0; k < a->naxes; k++)
			fprintf(out, " %*ld", (int)w[k], pc->q[k]);
		for (int k = 0; k < ncols(a); k++) {
			char *v = cell_text(sc, pc, k);
			fprintf(out, " %*s", (int)w[a->naxes + k], v ? v : "?");
			free(v);
		}
		fputs("\n", out);
	}
}

static void report_process_text(FILE *out, const struct analysis *a)
{
	title(out, a, false);
	for (int c = 0; c < a->ncands; c++) {
		fprintf(out, "\ncandidate %s\n", a->cands[c].name);
		const char *why = report_no_counts(a, c);
		if (why) {
			fprintf(out, "  no counts: %s\n", why);
			continue;
		}
		for (int s = 0; s < a->exact[c].nsteps; s++)
			text_step(out, a, &a->exact[c].steps[s]);
	}
	fputs("\nw: the process's work; fan-in, fan-out: the words it receives and sends "
	      "(the analysis's w, h_in and h_out are the maxima of these columns, NCom the "
	      "sum of fan-in)\n", out);
	if (ncols(a) > COL_MSGS_IN)
		fputs("msgs-in, msgs-out: the processes it receives from and sends to, a message "
		      "each (the maxima are msgs_in and msgs_out)\n", out);
}

static void report_process_json(FILE *out, const struct analysis *a)
{
	fputs("{\"file\": ", out);
	report_json_string(out, a->file);
	fputs(", \"grid\": {", out);
	for (int k = 0; k < a->naxes; k++) {
		fputs(k ? ", " : "", out);
		report_json_string(out, a->axes[k]);
		fprintf(out, ": %ld", a->sizes[k]);
	}
	fputs("}, \"values\": ", out);
	report_json_values(out, a, report_given_size);
	fputs(",\n \"candidates\": [", out);
	for (int c = 0; c < a->ncands; c++) {
		fputs(c ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		report_json_string(out, a->cands[c].name);
		const char *why = report_no_counts(a, c);
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
			if (sc->loop) {   /* the counts are the sums over its runs */
				fputs(", \"loop\": ", out);
				report_json_string(out, sc->loop);
			}
			fputs(", \"processes\": [", out);
			for (int i = 0; i < sc->nprocs; i++) {
				const struct process_cost *pc = &sc->procs[i];
				fputs(i ? ",\n    {\"q\": [" : "\n    {\"q\": [", out);
				for (int k = 0; k < a->naxes; k++)
					fprintf(out, "%s%ld", k ? ", " : "", pc->q[k]);
				fputs("]", out);
				for (int k = 0; k < ncols(a); k++) {
					char *v = cell_text(sc, pc, k);
					fprintf(out, ", \"%s\": ", col_key[k]);
					report_json_number_text(out, v && strcmp(v, "-") ? v : "null");
					free(v);
				}
				fputs("}", out);
			}
			fputs("]}", out);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

static void report_process_csv(FILE *out, const struct analysis *a)
{
	fputs("candidate,superstep", out);
	for (int k = 0; k < a->naxes; k++) {
		fputs(",", out);
		report_csv_field(out, a->axes[k]);
	}
	for (int k = 0; k < ncols(a); k++)
		fprintf(out, ",%s", col_key[k]);
	fputs(",note\n", out);
	for (int c = 0; c < a->ncands; c++) {
		const char *why = report_no_counts(a, c);
		if (why) {
			report_csv_field(out, a->cands[c].name);
			fputs(",", out);
			for (int k = 0; k < a->naxes; k++)
				fputs(",", out);
			fputs(",", out);   /* the superstep (above), then the columns */
			for (int k = 0; k < ncols(a); k++)
				fputs(",", out);
			report_csv_field(out, why);
			fputs("\n", out);
			continue;
		}
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++)
			for (int i = 0; i < ex->steps[s].nprocs; i++) {
				const struct process_cost *pc = &ex->steps[s].procs[i];
				report_csv_field(out, a->cands[c].name);
				fputs(",", out);
				report_csv_field(out, ex->steps[s].name);
				for (int k = 0; k < a->naxes; k++)
					fprintf(out, ",%ld", pc->q[k]);
				for (int k = 0; k < ncols(a); k++)
					if (k >= COL_MSGS_IN && !ex->steps[s].msgs)
						fputs(",", out);
					else
						gmp_fprintf(out, ",%Zd", col(pc, k));
				fputs(",\n", out);
			}
	}
}

static void report_process_markdown(FILE *out, const struct analysis *a)
{
	fputs("# ", out);
	title(out, a, true);
	for (int c = 0; c < a->ncands; c++) {
		fputs("\n## Candidate ", out);
		report_md_code(out, a->cands[c].name, false);
		fputs("\n", out);
		const char *why = report_no_counts(a, c);
		if (why) {
			fputs("\nNo counts: ", out);
			report_md_text(out, why);
			fputs("\n", out);
			continue;
		}
		const struct candidate_cost *ex = &a->exact[c];
		for (int s = 0; s < ex->nsteps; s++) {
			const struct step_cost *sc = &ex->steps[s];
			fputs("\nSuperstep ", out);
			report_md_code(out, sc->name, false);
			fputs(":\n\n|", out);
			for (int k = 0; k < a->naxes; k++) {
				fputs(" ", out);
				report_md_text(out, a->axes[k]);
				fputs(" |", out);
			}
			for (int k = 0; k < ncols(a); k++)
				fprintf(out, " %s |", col_name[k]);
			fputs("\n|", out);
			for (int k = 0; k < a->naxes + ncols(a); k++)
				fputs("---:|", out);
			fputs("\n", out);
			for (int i = 0; i < sc->nprocs; i++) {
				const struct process_cost *pc = &sc->procs[i];
				fputs("|", out);
				for (int k = 0; k < a->naxes; k++)
					fprintf(out, " %ld |", pc->q[k]);
				for (int k = 0; k < ncols(a); k++)
					if (k >= COL_MSGS_IN && !sc->msgs)
						fputs(" - |", out);
					else
						gmp_fprintf(out, " %Zd |", col(pc, k));
				fputs("\n", out);
			}
		}
	}
	fputs("\nw: the process's work; fan-in, fan-out: the words it receives and sends "
	      "(the analysis's w, h_in and h_out are the maxima of these columns, NCom the "
	      "sum of fan-in).\n", out);
	if (ncols(a) > COL_MSGS_IN)
		fputs("\nmsgs-in, msgs-out: the processes it receives from and sends to, a message "
		      "each (the maxima are msgs_in and msgs_out).\n", out);
}

void report_per_process(FILE *out, enum output_format format, const struct analysis *a)
{
	if (format == FORMAT_JSON)
		report_process_json(out, a);
	else if (format == FORMAT_CSV)
		report_process_csv(out, a);
	else if (format == FORMAT_MARKDOWN)
		report_process_markdown(out, a);
	else
		report_process_text(out, a);
}
