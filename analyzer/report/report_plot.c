/* Pictures: gnuplot scripts.  The script holds its data inline (gnuplot 5's
 * datablocks), so that it alone redraws the picture; the driver runs
 * gnuplot on it (analyzer/run/plot.c).  Numbers in a picture are decimals
 * to 17 significant digits: a picture is read by eye, the reports keep the
 * exact values. */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* S as a gnuplot string in single quotes, each quote doubled: gnuplot
 * substitutes `commands` in double-quoted strings (a file or machine name
 * with backquotes would run them), never in single-quoted ones. */
static void gp_string(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputc('\'', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
	fputc('\'', out);
}

/* Q as a decimal for gnuplot. */
static void gp_number(FILE *out, const mpq_t q)
{
	mpf_t f;
	mpf_init2(f, 128);
	mpf_set_q(f, q);
	gmp_fprintf(out, "%.17Fg", f);
	mpf_clear(f);
}

enum plot_format plot_format_of(const char *file)
{
	const char *dot = file ? strrchr(file, '.') : NULL;
	if (dot && strcmp(dot, ".svg") == 0)
		return PLOT_SVG;
	if (dot && strcmp(dot, ".png") == 0)
		return PLOT_PNG;
	return PLOT_NONE;
}

/* "set output": PICTURE, or the script's first argument when gnuplot is run
 * as `gnuplot -c SCRIPT FILE` (the driver draws into a file of its own,
 * renamed to PICTURE once complete). */
static void output(FILE *out, const char *picture)
{
	fputs("set output (exists(\"ARG1\") && strlen(ARG1) > 0 ? ARG1 : ", out);
	gp_string(out, picture);
	fputs(")\n", out);
}

static void terminal(FILE *out, const char *picture)
{
	if (plot_format_of(picture) == PLOT_PNG)
		fputs("set terminal pngcairo size 1000,560 font \"sans,10\"\n", out);
	else
		fputs("set terminal svg size 1000,560 font \"sans,10\" background \"white\"\n", out);
	output(out, picture);
}

/* "cost w + h*g + l (flops)" and the end of the line. */
static void ylabel(FILE *out, const struct ranking *r)
{
	char label[128];
	snprintf(label, sizeof(label), "cost %s (flops)",
		 (r->model ? r->model : cost_model_default())->text);
	gp_string(out, label);
	fputs(" noenhanced\n", out);
}

/* "set logscale AXIS" when the positive values from LO to HI span more
 * than a factor of 100. */
static void log_scale(FILE *out, const char *axis, const mpq_t lo, const mpq_t hi)
{
	if (mpq_sgn(lo) <= 0)
		return;
	mpq_t k;
	mpq_init(k);
	mpq_set_ui(k, 100, 1);
	mpq_mul(k, k, lo);
	if (mpq_cmp(hi, k) > 0)
		fprintf(out, "set logscale %s\n", axis);
	mpq_clear(k);
}

/* The plot command: a line of linespoints per candidate, USING its columns,
 * then $best's rows circled. */
static void plot_candidates(FILE *out, const struct ranking *r, const char *using)
{
	fputs("plot \\\n", out);
	for (int c = 0; c < r->ncands; c++) {
		fprintf(out, "  $c%d using %s with linespoints title ", c, using);
		gp_string(out, r->cands[c]);
		fputs(", \\\n", out);
	}
	fputs("  $best using 1:2 with points pointtype 6 pointsize 3 linecolor rgb \"black\" "
	      "title \"best\"\n", out);
}

/* set title "FILE: WHAT, N processes; n = 1024, ... (machine)": every value
 * of R but value SKIP (-1: none). */
static void title_line(FILE *out, const struct ranking *r, const char *what, int skip)
{
	char *title = NULL;
	size_t len = 0;
	FILE *tf = open_memstream(&title, &len);
	if (tf) {
		fprintf(tf, "%s: %s, %ld process%s; ", r->file, what, r->t->procs,
			r->t->procs == 1 ? "" : "es");
		for (int i = 0, k = 0; i < r->nvalues; i++) {
			if (i == skip)
				continue;
			fprintf(tf, "%s%s = ", k++ ? ", " : "", r->values[i].name);
			report_param_value(tf, &r->values[i], false);
		}
		if (r->machine)
			fprintf(tf, " (%s)", r->machine);
		fclose(tf);
	}
	fputs("set title ", out);
	gp_string(out, title ? title : r->file);
	fputs(" noenhanced\n", out);
	free(title);
}

/* -p without g and l: each Pareto class's cost against g, at l = 0 (when
 * the classes run the same supersteps, l adds the same to each), over twice
 * the last g where the best changes. */
static void every_machine_plot(FILE *out, const struct ranking *r, const char *picture)
{
	const struct rank_table *t = r->t;
	const struct pareto *p = r->every_machine;
	fputs("# bspcost: the cost of the rows no other row beats, against g\n", out);
	terminal(out, picture);
	title_line(out, r, p->g_only ? "cost against g, for every l" : "cost against g, at l = 0", -1);
	fputs("set xlabel 'g (flops per word)'\nset ylabel ", out);
	gp_string(out, p->g_only ? "cost - S*l (flops)" : "cost at l = 0 (flops)");
	fputs(" noenhanced\nset grid\nset key outside right top noenhanced\n", out);
	mpq_t xmax;
	mpq_init(xmax);
	for (int k = 0; k < p->nregions; k++)
		if (!p->regions[k].empty && p->regions[k].g_only && !p->regions[k].unbounded &&
		    mpq_cmp(p->regions[k].hi, xmax) > 0)
			mpq_set(xmax, p->regions[k].hi);
	if (mpq_sgn(xmax) == 0)
		mpq_set_ui(xmax, 10, 1);
	else
		mpq_mul_2exp(xmax, xmax, 1);
	fputs("set xrange [0:", out);
	gp_number(out, xmax);
	fputs("]\nset samples 400\nplot \\\n", out);
	for (int k = 0; k < p->nregions; k++) {
		const struct pareto_region *reg = &p->regions[k];
		const struct rank_row *row = &t->rows[reg->cls];
		char shape[64], title[256];
		shape_label(shape, t, row->shape);
		int same = 0;
		for (int i = 0; i < t->nranked; i++)
			same += p->cls[i] == reg->cls;
		snprintf(title, sizeof(title), "%s %s%s", shape, r->cands[row->cand],
			 same > 1 ? " (and equal rows)" : "");
		fputs("  ", out);
		gp_number(out, row->cost);
		fputs(" + ", out);
		gp_number(out, row->gcoef);
		fputs("*x with lines linewidth 2 title ", out);
		gp_string(out, title);
		fputs(k + 1 < p->nregions ? ", \\\n" : "\n", out);
	}
	mpq_clear(xmax);
}

void report_rank_plot(FILE *out, const struct ranking *r, const char *picture)
{
	const struct rank_table *t = r->t;
	char shape[64];
	if (r->every_machine) {
		every_machine_plot(out, r, picture);
		return;
	}
	fputs("# bspcost: the cost of every candidate against the grid shape\n", out);
	terminal(out, picture);
	title_line(out, r, "cost against the grid shape", -1);
	fputs("set xlabel ", out);
	char axes[64] = "";
	for (int a = 0, n = 0; a < r->naxes && n < 60; a++)
		n += snprintf(axes + n, sizeof(axes) - (size_t)n, "%s%s", a ? " x " : "", r->axes[a]);
	char xlabel[128];
	snprintf(xlabel, sizeof(xlabel), "grid shape (%s)", axes);
	gp_string(out, xlabel);
	fputs(" noenhanced\nset ylabel ", out);
	ylabel(out, r);
	fputs("set grid ytics\nset key outside right top noenhanced\nset xtics rotate by -45\n",
	      out);
	/* a cost range of more than 100: a log scale */
	mpq_t lo, hi;
	mpq_inits(lo, hi, NULL);
	bool any = false;
	for (int i = 0; i < t->nranked; i++) {
		const struct rank_row *row = &t->rows[i];
		if (!any || mpq_cmp(row->cost, lo) < 0)
			mpq_set(lo, row->cost);
		if (!any || mpq_cmp(row->cost, hi) > 0)
			mpq_set(hi, row->cost);
		any = true;
	}
	if (any && mpq_sgn(lo) > 0) {
		mpq_t k;
		mpq_init(k);
		mpq_set_ui(k, 100, 1);
		mpq_mul(k, k, lo);
		if (mpq_cmp(hi, k) > 0)
			fputs("set logscale y\n", out);
		mpq_clear(k);
	}
	mpq_clears(lo, hi, NULL);
	/* a datablock per candidate: shape index, cost, shape; ranked rows only */
	for (int c = 0; c < r->ncands; c++) {
		fprintf(out, "$c%d << EOD\n", c);
		for (int s = 0; s < t->nshapes; s++)
			for (int i = 0; i < t->nranked; i++) {
				const struct rank_row *row = &t->rows[i];
				if (row->cand != c || row->shape != s)
					continue;
				shape_label(shape, t, s);
				fprintf(out, "%d ", s);
				gp_number(out, row->cost);
				fprintf(out, " %s\n", shape);
			}
		fputs("EOD\n", out);
	}
	/* the best rows (rank 1, ties included) */
	fputs("$best << EOD\n", out);
	for (int i = 0; i < t->nranked && t->rows[i].rank == 1; i++) {
		shape_label(shape, t, t->rows[i].shape);
		fprintf(out, "%d ", t->rows[i].shape);
		gp_number(out, t->rows[i].cost);
		fprintf(out, " %s\n", shape);
	}
	fputs("EOD\n", out);
	fputs("set xrange [-0.5:", out);
	fprintf(out, "%d.5]\n", t->nshapes - 1);
	plot_candidates(out, r, "1:2:xtic(3)");
}

/* Whether a row of candidate C in T was not counted in time. */
static bool cand_late(const struct rank_table *t, int c)
{
	for (int i = t->nranked; i < t->nrows; i++)
		if (t->rows[i].cand == c && t->rows[i].status == RANK_LATE)
			return true;
	return false;
}

void report_sweep_plot(FILE *out, const struct ranking *r, int n, const char *picture)
{
	const char *x = r->nswept > 0 ? r->values[r->swept[0]].name : "?";
	fputs("# bspcost: the cost of every candidate against a swept size\n", out);
	terminal(out, picture);
	char *what = NULL;
	if (asprintf(&what, "the lowest cost of each candidate against %s", x) < 0)
		what = NULL;
	title_line(out, r, what ? what : "the lowest cost of each candidate",
		   r->nswept > 0 ? r->swept[0] : -1);
	free(what);
	fputs("set xlabel ", out);
	gp_string(out, x);
	fputs(" noenhanced\nset ylabel ", out);
	ylabel(out, r);
	fputs("set grid\nset key outside right top noenhanced\n", out);
	/* the scales */
	mpq_t lo, hi, xlo, xhi;
	mpq_inits(lo, hi, xlo, xhi, NULL);
	bool any = false;
	for (int p = 0; p < n; p++)
		for (int i = 0; i < r[p].t->nranked; i++) {
			const mpq_t *c = &r[p].t->rows[i].cost;
			if (!any || mpq_cmp(*c, lo) < 0)
				mpq_set(lo, *c);
			if (!any || mpq_cmp(*c, hi) > 0)
				mpq_set(hi, *c);
			any = true;
		}
	if (any)
		log_scale(out, "y", lo, hi);
	if (n > 0 && r->nswept > 0) {
		mpq_set_si(xlo, (long)r[0].values[r->swept[0]].value, 1);
		mpq_set_si(xhi, (long)r[n - 1].values[r->swept[0]].value, 1);
		log_scale(out, "x", xlo, xhi);
	}
	mpq_clears(lo, hi, xlo, xhi, NULL);
	/* per candidate: its best row of each point (the rows are best first),
	 * none where one of its rows was not counted in time (it might be lower) */
	for (int c = 0; c < r->ncands; c++) {
		fprintf(out, "$c%d << EOD\n", c);
		for (int p = 0; p < n; p++)
			for (int i = 0; !cand_late(r[p].t, c) && i < r[p].t->nranked; i++) {
				const struct rank_row *row = &r[p].t->rows[i];
				if (row->cand != c)
					continue;
				char shape[64];
				shape_label(shape, r[p].t, row->shape);
				fprintf(out, "%lld ", r[p].values[r->swept[0]].value);
				gp_number(out, row->cost);
				fprintf(out, " %s\n", shape);
				break;
			}
		fputs("EOD\n", out);
	}
	fputs("$best << EOD\n", out);
	for (int p = 0; p < n; p++)
		if (r[p].t->nranked > 0 && r[p].t->nlate == 0) {
			fprintf(out, "%lld ", r[p].values[r->swept[0]].value);
			gp_number(out, r[p].t->rows[0].cost);
			fputs("\n", out);
		}
	fputs("EOD\n", out);
	plot_candidates(out, r, "1:2");
}

/* --per-process: a panel per candidate, each process's fan-in and fan-out
 * summed over the supersteps, as bars side by side; every k-th process
 * labelled when there are many. */
void report_process_plot(FILE *out, const struct analysis *a, const char *picture)
{
	int npanels = 0;
	for (int c = 0; c < a->ncands; c++)
		npanels += a->exact && a->exact[c].status == COST_OK && a->exact[c].nsteps > 0;
	int height = npanels > 2 ? 200 * npanels + 80 : 560;
	fputs("# bspcost: each process's fan-in and fan-out, a panel per candidate\n", out);
	if (plot_format_of(picture) == PLOT_PNG)
		fprintf(out, "set terminal pngcairo size 1000,%d font \"sans,10\"\n", height);
	else
		fprintf(out, "set terminal svg size 1000,%d font \"sans,10\" background \"white\"\n",
			height);
	output(out, picture);
	char *title = NULL;
	size_t len = 0;
	FILE *tf = open_memstream(&title, &len);
	if (tf) {
		fprintf(tf, "%s: each process's words in and out, summed over the supersteps; grid ",
			a->file);
		for (int k = 0; k < a->naxes; k++)
			fprintf(tf, "%s%s=%ld", k ? ", " : "", a->axes[k], a->sizes[k]);
		for (int i = 0; i < a->rq->ndefs; i++) {
			if (!report_given_size(a, i))
				continue;
			fprintf(tf, ", %s = ", a->rq->defs[i].name);
			report_param_value(tf, &a->rq->defs[i], false);
		}
		fclose(tf);
	}
	fprintf(out, "set multiplot layout %d,1 title ", npanels > 0 ? npanels : 1);
	gp_string(out, title ? title : a->file);
	fputs(" noenhanced\n", out);
	free(title);
	int most = 0;
	for (int c = 0; c < a->ncands; c++)
		if (a->exact && a->exact[c].status == COST_OK && a->exact[c].nsteps > 0 &&
		    a->exact[c].steps[0].nprocs > most)
			most = a->exact[c].steps[0].nprocs;
	/* bars side by side; past 64 processes, bars a pixel wide would blur:
	 * a line each, stepping from process to process */
	bool lines = most > 64;
	fprintf(out, "%s\nset grid ytics\nset yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n"
		     "set key outside right top noenhanced\nset ylabel \"words\"\n"
		     "set xtics scale 0%s\n",
		lines ? "set style data steps"
		      : "set style data histograms\nset style histogram clustered gap 1\n"
			"set style fill solid 0.8 border -1",
		most > 32 ? " rotate by 90 right" : "");
	char axes[64] = "";
	for (int k = 0, n = 0; k < a->naxes && n < 60; k++)
		n += snprintf(axes + n, sizeof(axes) - (size_t)n, "%s%s", k ? "," : "", a->axes[k]);
	fputs("set xlabel ", out);
	char xlabel[96];
	snprintf(xlabel, sizeof(xlabel), "process (%s)", axes);
	gp_string(out, xlabel);
	fputs(" noenhanced\n", out);
	mpz_t in, outw;
	mpz_inits(in, outw, NULL);
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		if (!ex || ex->status != COST_OK || ex->nsteps == 0)
			continue;
		int np = ex->steps[0].nprocs;
		int every = np > 16 ? (np + 15) / 16 : 1;
		fprintf(out, "$c%d << EOD\n", c);
		for (int i = 0; i < np; i++) {
			mpz_set_ui(in, 0);
			mpz_set_ui(outw, 0);
			for (int s = 0; s < ex->nsteps; s++) {
				if (i >= ex->steps[s].nprocs)
					continue;
				mpz_add(in, in, ex->steps[s].procs[i].in);
				mpz_add(outw, outw, ex->steps[s].procs[i].out);
			}
			char label[64] = "";
			for (int k = 0, n = 0; i % every == 0 && k < a->naxes && n < 60; k++)
				n += snprintf(label + n, sizeof(label) - (size_t)n, "%s%ld", k ? "," : "",
					      ex->steps[0].procs[i].q[k]);
			gmp_fprintf(out, "\"%s\" %Zd %Zd\n", label, in, outw);
		}
		fputs("EOD\nset title ", out);
		gp_string(out, a->cands[c].name);
		if (lines)
			fprintf(out, " noenhanced\nplot $c%d using 0:2:xtic(1) title \"fan-in\", "
				     "'' using 0:3 title \"fan-out\"\n", c);
		else
			fprintf(out, " noenhanced\nplot $c%d using 2:xtic(1) title \"fan-in\", "
				     "'' using 3 title \"fan-out\"\n", c);
	}
	mpz_clears(in, outw, NULL);
	fputs("unset multiplot\n", out);
}

/* --hierarchy --plot: H(i) against the level i, a panel per candidate, a
 * line per superstep, and dashed beside it the bound h / 2^((k-i-1) alpha)
 * its alpha sets (Definition 2.4).  The levels' H are fractions: decimals
 * here, exact in the reports. */
void report_hierarchy_plot(FILE *out, const struct analysis *a, const char *picture)
{
	int npanels = 0, k = 0;
	for (int c = 0; c < a->ncands; c++)
		if (a->exact && a->exact[c].status == COST_OK && a->exact[c].nsteps > 0 &&
		    a->exact[c].steps[0].hier) {
			npanels++;
			k = a->exact[c].steps[0].hier->k;
		}
	int height = npanels > 2 ? 220 * npanels + 80 : 560;
	fputs("# bspcost: H(i) of every superstep against the level i, a panel per candidate\n",
	      out);
	if (plot_format_of(picture) == PLOT_PNG)
		fprintf(out, "set terminal pngcairo size 1000,%d font \"sans,10\"\n", height);
	else
		fprintf(out, "set terminal svg size 1000,%d font \"sans,10\" background \"white\"\n",
			height);
	output(out, picture);
	char *title = NULL;
	size_t len = 0;
	FILE *tf = open_memstream(&title, &len);
	if (tf) {
		fprintf(tf, "%s: the words per process that leave a cluster of 2^(k-i-1) processes, "
			    "H(i); grid ", a->file);
		for (int x = 0; x < a->naxes; x++)
			fprintf(tf, "%s%s=%ld", x ? ", " : "", a->axes[x], a->sizes[x]);
		for (int i = 0; i < a->rq->ndefs; i++) {
			if (!report_given_size(a, i))
				continue;
			fprintf(tf, ", %s = ", a->rq->defs[i].name);
			report_param_value(tf, &a->rq->defs[i], false);
		}
		fclose(tf);
	}
	fprintf(out, "set multiplot layout %d,1 title ", npanels > 0 ? npanels : 1);
	gp_string(out, title ? title : a->file);
	fputs(" noenhanced\n", out);
	free(title);
	/* a log scale where the words span more than a hundredfold (a level
	 * without words is then left out of its line) */
	mpq_t lo, hi;
	mpq_inits(lo, hi, NULL);
	for (int c = 0; c < a->ncands; c++)
		for (int s = 0; a->exact && a->exact[c].status == COST_OK && s < a->exact[c].nsteps;
		     s++) {
			const struct hierarchy *hr = a->exact[c].steps[s].hier;
			for (int i = 0; hr && i < hr->k; i++) {
				if (mpq_sgn(hr->H[i]) > 0 && (mpq_sgn(lo) == 0 || mpq_cmp(hr->H[i], lo) < 0))
					mpq_set(lo, hr->H[i]);
				if (mpq_cmp(hr->H[i], hi) > 0)
					mpq_set(hi, hr->H[i]);
			}
		}
	mpq_t ratio;
	mpq_init(ratio);
	if (mpq_sgn(lo) > 0)
		mpq_div(ratio, hi, lo);
	bool logy = mpq_sgn(lo) > 0 && mpq_cmp_ui(ratio, 100, 1) > 0;
	mpq_clears(lo, hi, ratio, NULL);
	fprintf(out, "set grid\nset key outside right top noenhanced\nset ylabel \"H(i), words "
		     "per process\"\nset xlabel \"level i (the machine's 2^(i+1) clusters)\" noenhanced\n"
		     "set xtics 1\nset xrange [-0.25:%d.25]\n%s", k > 0 ? k - 1 : 0,
		logy ? "set logscale y 2\n" : "set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n");
	for (int c = 0; c < a->ncands; c++) {
		const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
		if (!ex || ex->status != COST_OK || ex->nsteps == 0 || !ex->steps[0].hier)
			continue;
		fprintf(out, "$c%d << EOD\n", c);
		for (int i = 0; i < k; i++) {
			fprintf(out, "%d", i);
			for (int s = 0; s < ex->nsteps; s++) {
				const struct hierarchy *hr = ex->steps[s].hier;
				fputs(" ", out);
				if (!hr || i >= hr->k || (logy && mpq_sgn(hr->H[i]) == 0))
					fputs("NaN", out);
				else
					gp_number(out, hr->H[i]);
				/* the bound of its alpha: h / 2^((k-i-1) alpha) */
				if (hr && i < hr->k && (hr->alpha == ALPHA_RATIONAL || hr->alpha == ALPHA_LOG))
					fprintf(out, " %.17g", mpq_get_d(hr->H[hr->k - 1]) /
								  exp2((double)(hr->k - i - 1) * hr->approx));
				else
					fputs(" NaN", out);
			}
			fputs("\n", out);
		}
		fputs("EOD\nset title ", out);
		gp_string(out, a->cands[c].name);
		fputs(" noenhanced\nplot ", out);
		for (int s = 0; s < ex->nsteps; s++) {
			fprintf(out, "%s$c%d using 1:%d with linespoints lw 2 lc %d title ", s ? ", " : "",
				c, 2 + 2 * s, s + 1);
			gp_string(out, ex->steps[s].name);
			fprintf(out, ", $c%d using 1:%d with lines dt 2 lc %d notitle", c, 3 + 2 * s, s + 1);
		}
		fputs("\n", out);
	}
	fputs("unset multiplot\n", out);
}
