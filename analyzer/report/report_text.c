#define _GNU_SOURCE /* asprintf */
/* The text report: for people at a terminal. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"

/* A piece of a formula's text ("v if c; w if d; ...; z otherwise", as
 * FORMULA_TEXT writes it, whose separators only pieces use): its value
 * ends at VALUE_END, which is WHEN (" if ") or OTHERWISE (" otherwise") or
 * END; the next piece starts past END ("; ") unless END is the text's. */
struct piece {
	const char *end, *when, *otherwise, *value_end;
};

static struct piece piece_at(const char *p)
{
	struct piece x;
	x.end = strstr(p, "; ");
	if (!x.end)
		x.end = p + strlen(p);
	x.when = strstr(p, " if ");
	x.otherwise = strstr(p, " otherwise");
	if (x.when && x.when < x.end)
		x.value_end = x.when;
	else if (x.otherwise && x.otherwise < x.end)
		x.value_end = x.otherwise;
	else
		x.value_end = x.end;
	return x;
}

/* Whether S starts with one of SEPS (NULL-terminated). */
static bool at_separator(const char *s, const char *const *seps)
{
	for (int i = 0; seps[i]; i++)
		if (strncmp(s, seps[i], strlen(seps[i])) == 0)
			return true;
	return false;
}

/* The N characters at TEXT, which start at column COL, broken before each
 * of SEPS (" && ", " + ", ...) within at most one pair of parentheses (not
 * inside floor((n + 7)/12)) where the line would pass WIDTH; continuation
 * lines start at column INDENT with the operator. */
static void print_parts(FILE *out, const char *text, size_t n, int col, int width,
			const char *const *seps, int indent)
{
	int at = col, depth = 0;
	const char *p = text, *end = text + n;
	while (p < end) {
		/* the next part: up to the next separator at a shallow depth */
		const char *q = p;
		do {
			depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
			q++;
		} while (q < end && !(depth <= 1 && at_separator(q, seps)));
		int len = (int)(q - p);
		if (at > col && at + len > width) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
			if (*p == ' ') { /* the operator starts the line */
				p++;
				len--;
			}
		}
		fwrite(p, 1, (size_t)len, out);
		at += len;
		p = q;
	}
}

static const char *const cond_seps[] = {" && ", " || ", NULL};
static const char *const term_seps[] = {" + ", " - ", NULL};

/* TEXT, a formula as FORMULA_TEXT writes it, at column COL: on one line when
 * it fits in WIDTH (or WIDTH is 0), else a piece per line, the values in a
 * column and their conditions aligned after them, long conditions broken. */
static void print_wrapped(FILE *out, const char *text, int col, int width)
{
	if (width <= 0 || col + (int)strlen(text) <= width) {
		fputs(text, out);
		return;
	}
	if (!strstr(text, " if ")) { /* one piece: broken between its terms */
		print_parts(out, text, strlen(text), col, width, term_seps, col + 2);
		return;
	}
	/* the widest value, to align the conditions (unless that leaves them
	 * less than half the line) */
	int vmax = 0;
	for (const char *p = text; *p;) {
		struct piece x = piece_at(p);
		vmax = (int)(x.value_end - p) > vmax ? (int)(x.value_end - p) : vmax;
		p = *x.end ? x.end + 2 : x.end;
	}
	if (col + vmax > width / 2)
		vmax = 0;
	bool first = true;
	for (const char *p = text; *p;) {
		struct piece x = piece_at(p);
		const char *e = x.end, *w = x.when, *o = x.otherwise, *v = x.value_end;
		if (!first)
			fprintf(out, "\n%*s", col, "");
		first = false;
		int vlen = (int)(v - p);
		if (col + vlen > width) {
			/* a value longer than the line: broken between its terms */
			print_parts(out, p, (size_t)vlen, col, width, term_seps, col + 2);
			vlen = width; /* its condition on the next line */
		} else {
			fwrite(p, 1, (size_t)vlen, out);
		}
		if (v == w) {
			int pad = vmax > vlen ? vmax - vlen : 0;
			int c = col + vlen + pad + 4;
			if (c + 24 > width) {
				/* a long value: its condition on the next line */
				fprintf(out, "\n%*sif ", col + 2, "");
				c = col + 5;
			} else {
				fprintf(out, "%*s if ", pad, "");
			}
			print_parts(out, w + 4, (size_t)(e - w - 4), c, width, cond_seps, c + 1);
		} else if (v == o) {
			fprintf(out, "%*s otherwise", vmax > vlen ? vmax - vlen : 0, "");
		}
		p = *e ? e + 2 : e;
	}
}

/* F, quantity Q, at column COL, then "  [= value]" when it has a value that
 * is not its own text. */
static void print_formula(FILE *out, const struct analysis *a, int c, int s, enum quantity q,
			  const struct formula *f, int col)
{
	char *text = report_quantity_text(f, q, FORMULA_TEXT, a->rq->model);
	const char *why = !f ? report_quantity_why(a, c, s, q) : NULL;
	char *no = NULL;
	if (text)
		print_wrapped(out, text, col, a->rq->width);
	else if (why && asprintf(&no, "no formula: %s", why) >= 0)
		print_wrapped(out, no, col, a->rq->width);
	else   /* none (the candidate's reason says why), or out of memory */
		fputs(f ? "(cannot print)" : "(no formula)", out);
	free(no);
	free(text);
	char *v = report_value_beside(a, c, s, q, f);
	if (v)
		fprintf(out, "  [= %s]", v);
	free(v);
}

/* The messages of step S of candidate C (SC), where they were counted: as
 * formulas (FORMULAS) or values. */
static void print_msgs(FILE *out, const struct analysis *a, int c, int s,
		       const struct step_cost *sc, bool formulas)
{
	const char *why = NULL;
	const struct step_cost *fs = formulas ? sc : NULL;
	enum msgs_shown shown = report_msgs_shown(a, c, s, fs, &why);
	if (shown == MSGS_NONE)
		return;
	if (shown == MSGS_WHY) {
		fprintf(out, "    msgs  = not counted: %s\n", why);
		return;
	}
	for (int q = Q_MSGS; q <= Q_MSGS_OUT; q++) {
		fprintf(out, "    %-5s = ", quantity_name[q]);
		const struct formula *f = fs ? step_quantity(fs, q) : NULL;
		if (f) {
			print_formula(out, a, c, s, q, f, 15);
		} else {
			char *v = report_value_shown(a, c, s, q);
			if (fs)
				fprintf(out, "(no formula: %s)%s%s%s", why ? why : "?", v ? "  [= " : "",
					v ? v : "", v ? "]" : "");
			else
				fputs(v ? v : "?", out);
			free(v);
		}
		fputs("\n", out);
	}
}

/* "  superstep NAME", and for a superstep in loops what its numbers are. */
static void print_step_head(FILE *out, const struct step_cost *sc)
{
	fprintf(out, "  superstep %s", sc->name);
	if (sc->loop)
		fprintf(out, " (in the loop %s; each quantity is the sum over its runs)", sc->loop);
	fputc('\n', out);
}

/* A formula of a superstep in loops, and its value at the -D values when it
 * has one that is not its text (none for a formula whose assumptions the
 * values BREAK). */
static void print_loop_formula(FILE *out, const struct analysis *a, const char *label,
			       const struct formula *f, enum quantity q, int c, int s,
			       const struct step_cost *runs, bool broken)
{
	int col = fprintf(out, "    %s = ", label);
	char *text = report_quantity_text(f, q, FORMULA_TEXT, a->rq->model);
	bool why = !f && report_quantity_why(a, c, s, q);
	if (text)
		print_wrapped(out, text, col, a->rq->width);
	else if (why)   /* NCom of a transpose: said above */
		fputs("no formula (as the sum's)", out);
	else   /* none (the candidate's reason says why), or out of memory */
		fputs(f ? "(cannot print)" : "(no formula)", out);
	char *v = runs ? report_iterations_value(a, c, s, runs, text)
		       : broken ? NULL : formula_value_beside(f, text, a->rq);
	if (v)
		fprintf(out, "  [= %s]", v);
	fputc('\n', out);
	free(text);
	free(v);
}

/* How many times a superstep in loops runs, and (with formulas) one run's
 * quantities, in the loops' variables: their values at the -D values only
 * where the values meet the candidate's assumptions (one run's values are
 * not counted at the values: the formula's are the only ones). */
static void print_loop_lines(FILE *out, const struct analysis *a, const struct step_cost *sc,
			     int c, int s)
{
	if (!sc->loop)
		return;
	if (sc->iterations)
		print_loop_formula(out, a, "runs ", sc->iterations, Q_W, c, s, sc, false);
	if (!sc->per_w)
		return;
	fputs("    one run:\n", out);
	bool failed;
	char *broken = report_formulas_broken(a, c, &failed);
	for (int k = 0; k < RUN_N; k++) {
		enum quantity q = run_quantity[k];
		char label[16];
		snprintf(label, sizeof(label), "  %-5s", q == Q_NCOM ? "NCom" : quantity_name[q]);
		print_loop_formula(out, a, label, run_formula(sc, q), q, c, s, NULL,
				   broken || failed);
	}
	free(broken);
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
	char needs[80];
	snprintf(needs, sizeof(needs), "(needs %s)", report_coef_list((char[64]){0}, a->rq->model));
	fputs("  the values given, counted on that grid:\n", out);
	for (int s = 0; s < ex->nsteps; s++) {
		print_step_head(out, &ex->steps[s]);
		for (int q = 0; q < Q_N; q++) {
			char *v = report_value_shown(a, c, s, q);
			fprintf(out, "    %-5s = %s\n", q == Q_NCOM ? "NCom" : quantity_name[q],
				v ? v : needs);
			free(v);
		}
		print_msgs(out, a, c, s, &ex->steps[s], false);
		print_loop_lines(out, a, &ex->steps[s], -1, s);
	}
	char *v = report_value_shown(a, c, -1, Q_COST);
	fprintf(out, "  cost = %s\n", v ? v : needs);
	free(v);
	v = report_value_shown(a, c, -1, Q_MEM);
	if (v)
		fprintf(out, "  memory = %s\n", v);
	free(v);
	print_seconds(out, a, c);
}

/* A note when the values given break an assumption of candidate C's
 * formulas. */
static void print_broken(FILE *out, const struct analysis *a, int c)
{
	char *broken = report_formulas_broken(a, c, NULL);
	if (broken && a->exact)
		fprintf(out, "  note: the values given break '%s': the numbers in [] are exact "
			     "counts on that grid, not values of these formulas\n", broken);
	else if (broken)
		fprintf(out, "  note: the values given break '%s': these formulas do not hold "
			     "there (with every value given, -D, they are counted exactly)\n",
			broken);
	free(broken);
}

/* "  memory = ..." of candidate C, where it has a formula. */
static void print_memory(FILE *out, const struct analysis *a, int c)
{
	if (!a->cands[c].mem)
		return;
	fputs("  memory = ", out);
	print_formula(out, a, c, -1, Q_MEM, a->cands[c].mem, 11);
	fputs("\n", out);
}

/* Candidate C, refused because a loop's runs have no sum or a superstep
 * has no formulas (candidate_cost.formulas_kept): its supersteps' formulas
 * all the same, the sums where a loop has them, one run's where it has
 * none, and why a refused superstep has none. */
static void print_sumless(FILE *out, const struct analysis *a, int c)
{
	const struct candidate_cost *cc = &a->cands[c];
	fprintf(out, "  its supersteps' formulas (%s):\n", report_kept_note(cc));
	for (int i = 0; i < cc->nassumptions; i++)
		fprintf(out, "  assuming %s\n", cc->assumptions[i]);
	print_broken(out, a, c);
	for (int s = 0; s < cc->nsteps; s++) {
		const struct step_cost *sc = &cc->steps[s];
		if (sc->refused) {
			fprintf(out, "  superstep %s: no formula: %s\n", sc->name,
				report_step_refusal(sc));
			if (sc->mem) {
				fprintf(out, "    %-5s = ", quantity_name[Q_MEM]);
				print_formula(out, a, c, s, Q_MEM, sc->mem, 12);
				fputs("\n", out);
			}
			continue;
		}
		bool summed = !report_step_sumless(sc);
		if (summed)
			print_step_head(out, sc);
		else
			fprintf(out, "  superstep %s (in the loop %s; its runs have no sum)\n", sc->name,
				sc->loop);
		for (int q = 0; q < Q_N; q++) {
			if (!summed && q != Q_MEM)
				continue;
			fprintf(out, "    %-5s = ", q == Q_NCOM ? "NCom" : quantity_name[q]);
			print_formula(out, a, c, s, q, step_quantity(sc, q), 12);
			fputs("\n", out);
		}
		if (summed)
			print_msgs(out, a, c, s, sc, true);
		print_loop_lines(out, a, sc, c, s);
	}
	print_memory(out, a, c);
}

/* Why candidate EX has no values for the values given. */
static void print_no_values(FILE *out, const struct candidate_cost *ex)
{
	fprintf(out, "  no values for the values given: %s\n",
		ex->reason ? ex->reason : "unknown reason");
}

static void print_short(FILE *out, const struct formula *f, const char *why)
{
	char *s = formula_to_string(f, FORMULA_TEXT);
	if (s)
		fputs(s, out);
	else
		fprintf(out, "no exact formula (%s)", why ? why : "unknown reason");
	free(s);
}

/* --explain: the derivation of candidate C's superstep S in the paper's terms. */
static void print_explanation(FILE *out, const struct analysis *a, const struct step_cost *sc,
			      int c, int s)
{
	bool sized = false;
	fputs("    local postcondition R.q of process q (owner computes: q evaluates the\n"
	      "    instances whose left-hand element it owns):\n", out);
	const struct ast_superstep *ss = a->spec && c < a->spec->ncandidates &&
						 s < a->spec->candidates[c].nsteps
						 ? a->spec->candidates[c].steps[s] : NULL;
	for (int i = 0; ss && i < ss->nstmts; i++) {
		fputs("      ", out);
		print_stmt_line(out, ss->stmts[i]);
		fputs("\n", out);
	}
	if (sc->loop && sc->narrays > 0)
		fputs("    (NOcc, its sum and A.e below are one run's, in the loop's variables)\n", out);
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

/* A line of the summary: candidates of one total cost. */
struct group {
	char *formula;     /* the cost's formula (NULL: none) */
	char *why;         /* no formula and no value: the reason (shared) */
	bool valued;
	mpq_t value;       /* at the values given (valued) */
	int n, *members;   /* candidates, in the specification's order */
};

/* Candidate C's group among G[0..*N): the one of the same formula (or the
 * same reason) and the same value, else a new one; -1 when out of memory. */
static int join(struct group *g, int *n, const struct analysis *a, int c)
{
	const struct candidate_cost *cc = &a->cands[c];
	char *formula = cc->status == COST_OK ? report_quantity_text(cc->cost, Q_COST, FORMULA_TEXT, a->rq->model)
					      : NULL;
	mpq_t v;
	mpq_init(v);
	bool valued = report_cost_number(a, c, v) == 0;
	/* no cost at all: why the values (when asked for) or the formula are
	 * missing; a value without a formula: why, when the deadline cut it */
	const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
	/* values counted but no cost among them: the formula's reason, and
	 * that the values need the machine's coefficients */
	char *both = NULL;
	if (!formula && !valued && ex && ex->status == COST_OK &&
	    asprintf(&both, "%s; the values need %s", cc->reason ? cc->reason : "no formula",
		     report_missing_coefs((char[64]){0}, a->rq)) < 0)
		both = NULL;
	/* a formula whose values were refused (cyclic(nb) at nb = 0): why */
	const char *why = formula ? (!valued && ex && ex->status != COST_OK
					     ? (ex->reason ? ex->reason : "unknown reason") : NULL)
			  : valued ? (cc->timed_out ? "not finished in time" : NULL)
			  : ex && ex->status != COST_OK ? (ex->reason ? ex->reason : "unknown reason")
			  : both ? both
			  : cc->reason ? cc->reason : "unknown reason";
	int k = 0;
	for (; k < *n; k++) {
		bool same = (g[k].formula && formula ? strcmp(g[k].formula, formula) == 0
						     : !g[k].formula && !formula) &&
			    g[k].valued == valued && (!valued || mpq_equal(g[k].value, v)) &&
			    (g[k].why && why ? strcmp(g[k].why, why) == 0 : !g[k].why && !why);
		if (same)
			break;
	}
	if (k == *n) {
		g[k].formula = formula;
		g[k].why = why ? strdup(why) : NULL;
		g[k].valued = valued;
		mpq_init(g[k].value);
		mpq_set(g[k].value, v);
		g[k].n = 0;
		g[k].members = calloc((size_t)a->ncands, sizeof(int));
		(*n)++;
	} else {
		free(formula);
	}
	mpq_clear(v);
	free(both);
	if (!g[k].members || (why && !g[k].why))
		return -1;
	g[k].members[g[k].n++] = c;
	return 0;
}

/* Groups with values first, by value; then the rest in order. */
static int by_value(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	if (a->valued != b->valued)
		return a->valued ? -1 : 1;
	int c = a->valued ? mpq_cmp(a->value, b->value) : 0;
	if (c)
		return c;
	return (a->members ? a->members[0] : 0) - (b->members ? b->members[0] : 0);
}

static void groups_free(struct group *g, int n)
{
	for (int k = 0; k < n; k++) {
		free(g[k].formula);
		free(g[k].why);
		free(g[k].members);
		mpq_clear(g[k].value);
	}
	free(g);
}

/* The summary, before the details: candidates of one total cost on one line,
 * best first when the values give numbers (a tie marked '='). */
static void print_summary(FILE *out, const struct analysis *a)
{
	struct group *g = calloc((size_t)a->ncands + 1, sizeof(*g));
	if (!g)
		return;
	int n = 0, valued = 0, costs = 0;
	bool joined = true;
	for (int c = 0; c < a->ncands && joined; c++)
		joined = join(g, &n, a, c) == 0;
	if (!joined) {   /* out of memory: no summary, as without G */
		groups_free(g, n);
		return;
	}
	qsort(g, (size_t)n, sizeof(*g), by_value);
	for (int k = 0; k < n; k++) {
		valued += g[k].valued;
		costs += g[k].valued || g[k].formula;
	}
	fprintf(out, "\nsummary: %d candidate%s, ", a->ncands, a->ncands == 1 ? "" : "s");
	if (costs == 0)
		fputs("no cost", out);
	else
		fprintf(out, "%d cost%s", costs, costs == 1 ? "" : "s");
	fprintf(out, "%s\n", valued > 1 ? ", best first at the values given" : "");
	for (int k = 0; k < n; k++) {
		struct group *x = &g[k];
		int col = fprintf(out, "  ");
		if (valued > 1) {
			int rank = 1;
			bool tie = false;
			for (int j = 0; j < n; j++)
				if (j != k && g[j].valued && x->valued) {
					int c = mpq_cmp(g[j].value, x->value);
					rank += c < 0;
					tie |= c == 0;
				}
			if (x->valued)
				col += fprintf(out, "%d%s  ", rank, tie ? "=" : "");
			else
				col += fprintf(out, "-   ");
		}
		if (x->n == a->ncands && a->ncands > 1)
			col += fprintf(out, "every candidate");
		else if (x->n > 1)
			col += fprintf(out, "%d candidates (", x->n);
		for (int i = 0; (x->n < a->ncands || a->ncands == 1) && i < x->n; i++)
			col += fprintf(out, "%s%s", i ? ", " : "", a->cands[x->members[i]].name);
		if (x->n > 1 && x->n < a->ncands)
			col += fprintf(out, ")");
		if (x->formula) {
			col += fprintf(out, ": cost =");
			int width = a->rq->width;
			/* too long for the rest of the line: on lines of its own */
			if (width > 0 && col + 1 + (int)strlen(x->formula) > width && col > 8) {
				fputs("\n        ", out);
				col = 8;
			} else {
				col += fprintf(out, " ");
			}
			print_wrapped(out, x->formula, col, width);
			if (!x->valued && x->why)
				fprintf(out, "  (no value: %s)", x->why);
		} else if (x->valued && x->why)
			fprintf(out, ": cost (no formula: %s)", x->why);
		else if (x->valued)
			fputs(": cost (no formula)", out);
		else
			fprintf(out, ": no cost (%s)", x->why);
		if (x->valued) {
			char *v = report_number_digits(x->value, a->rq->digits);
			if (v && (!x->formula || strcmp(v, x->formula) != 0))
				fprintf(out, "  [= %s]", v);
			free(v);
			char *t = report_seconds(a, x->members[0], NULL);
			if (t)
				fprintf(out, ", time %s", t);
			free(t);
		}
		fputs("\n", out);
	}
	groups_free(g, n);
}

void report_text(FILE *out, const struct analysis *a)
{
	fprintf(out, "%s: %d candidate%s, %s grid ", a->file, a->ncands, a->ncands == 1 ? "" : "s",
		a->symbolic ? "symbolic" : "concrete");
	print_grid(out, a);
	fputs("\n", out);
	for (int i = 0; i < a->nassumptions; i++)
		fprintf(out, "assume %s\n", a->assumptions[i]);
	report_model_line(out, a->rq->model);
	const struct report_request *rq = a->rq;
	int shown = 0;
	for (int i = 0; i < rq->ndefs; i++) {
		if (!report_given(a, i))
			continue;
		fprintf(out, "%s%s = ", shown++ ? ", " : "values ", rq->defs[i].name);
		report_param_value(out, &rq->defs[i], false);
	}
	if (shown && rq->machine)
		fprintf(out, " (%s of %s, p = %ld)", report_coef_list((char[64]){0}, rq->model),
			rq->machine, rq->machine_procs);
	fputs(shown ? "\n" : "", out);
	if (a->ncands > 1 || a->rq->summary)
		print_summary(out, a);
	for (int c = 0; c < a->ncands && !a->rq->summary; c++) {
		const struct candidate_cost *cc = &a->cands[c];
		fprintf(out, "\ncandidate %s\n", cc->name);
		if (cc->status != COST_OK) {
			fprintf(out, "  %s: %s\n",
				cc->status == COST_REFUSED ? "no exact formula" : "analysis failed",
				cc->reason ? cc->reason : "unknown reason");
			/* a time limit is no reason to leave the symbolic grid; a
			 * loop's largest of several functions meets the same on a
			 * concrete grid of any size worth the name (LU on 3 x 3) */
			if (cc->status == COST_REFUSED && a->symbolic && !cc->timed_out &&
			    !cc->any_grid && !cc->loop_max && !a->rq->values_only)
				fprintf(out, "  (a concrete grid, e.g. --grid %s, gives exact formulas)\n",
					a->naxes == 1 ? "4" : a->naxes == 2 ? "4x4" : "2x2x2");
			if (cc->formulas_kept && !a->rq->values_only)
				print_sumless(out, a, c);
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
		print_broken(out, a, c);
		for (int s = 0; s < cc->nsteps; s++) {
			print_step_head(out, &cc->steps[s]);
			if (a->rq->explain)
				print_explanation(out, a, &cc->steps[s], c, s);
			for (int q = 0; q < Q_N; q++) {
				fprintf(out, "    %-5s = ", q == Q_NCOM ? "NCom" : quantity_name[q]);
				print_formula(out, a, c, s, q, step_quantity(&cc->steps[s], q), 12);
				fputs("\n", out);
			}
			print_msgs(out, a, c, s, &cc->steps[s], true);
			print_loop_lines(out, a, &cc->steps[s], c, s);
		}
		fputs("  cost = ", out);
		print_formula(out, a, c, -1, Q_COST, cc->cost, 9);
		fputs("\n", out);
		print_memory(out, a, c);
		print_seconds(out, a, c);
	}
}
