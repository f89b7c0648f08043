#define _GNU_SOURCE /* asprintf */
/* What every report format shares: the quantities and their exact values. */
#include "analyzer/report/report.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

void param_value_get(mpq_t out, const struct param_value *pv)
{
	_Static_assert(sizeof(long) == sizeof(long long), "long is 64 bits");
	mpz_set_si(mpq_numref(out), (long)pv->value);
	mpz_set_si(mpq_denref(out), (long)(pv->den > 1 ? pv->den : 1));
	mpq_canonicalize(out);
}

const char *const quantity_name[Q_ALL] = {"w",	 "h",	 "h_in",    "h_out",   "ncom",
					   "cost", "mem", "msgs", "msgs_in", "msgs_out"};

enum msgs_shown report_msgs_shown(const struct analysis *a, int c, int s,
				  const struct step_cost *fs, const char **why)
{
	const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
	const struct step_cost *vs = ex && ex->status == COST_OK && s < ex->nsteps ? &ex->steps[s]
										   : NULL;
	const char *fwhy = NULL, *vwhy = NULL;
	bool f = fs && report_step_msgs(fs, &fwhy);
	bool v = vs && report_step_msgs(vs, &vwhy);
	*why = fs ? fwhy : vwhy;
	if (!f && !v)
		return MSGS_NONE;
	if ((f && !fwhy) || (v && !vwhy))
		return MSGS_LINES;
	if (!*why)
		*why = fwhy ? fwhy : vwhy;
	return MSGS_WHY;
}

bool report_step_msgs(const struct step_cost *s, const char **why)
{
	bool all = s->msgs && s->msgs_in && s->msgs_out;
	if (why)
		*why = all ? NULL : s->msgs_why ? s->msgs_why : "no exact form";
	return all || s->msgs_why;
}

void report_sizes_given(FILE *out, const struct analysis *a)
{
	for (int i = 0, k = 0; i < a->rq->ndefs; i++) {
		if (!report_given_size(a, i))
			continue;
		fputs(k++ ? ", " : "; ", out);
		fprintf(out, "%s = ", a->rq->defs[i].name);
		report_param_value(out, &a->rq->defs[i], false);
	}
}

const char *report_no_counts(const struct analysis *a, int c)
{
	const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
	if (!ex)
		return "not counted";
	if (ex->status != COST_OK)
		return ex->reason ? ex->reason : "not counted";
	return NULL;
}

bool report_step_sumless(const struct step_cost *s)
{
	return s->loop && !s->w && !s->refused;
}

const struct formula *step_quantity(const struct step_cost *s, enum quantity q)
{
	switch (q) {
	case Q_W:
		return s->w;
	case Q_H:
		return s->h;
	case Q_H_IN:
		return s->h_in;
	case Q_H_OUT:
		return s->h_out;
	case Q_NCOM:
		return s->ncom;
	case Q_COST:
		return s->cost;
	case Q_MEM:
		return s->mem;
	case Q_MSGS:
		return s->msgs;
	case Q_MSGS_IN:
		return s->msgs_in;
	case Q_MSGS_OUT:
		return s->msgs_out;
	case Q_ALL:
		break;
	}
	return NULL;
}

const char *report_step_refusal(const struct step_cost *s)
{
	if (!s->refused)
		return NULL;
	size_t n = strlen(s->name);
	return strncmp(s->refused, s->name, n) == 0 && strncmp(s->refused + n, ": ", 2) == 0
		       ? s->refused + n + 2 : s->refused;
}

const char *report_kept_note(const struct candidate_cost *cc)
{
	bool refused = false, sumless = false;
	for (int s = 0; s < cc->nsteps; s++) {
		refused |= cc->steps[s].refused != NULL;
		sumless |= report_step_sumless(&cc->steps[s]);
	}
	return refused && sumless ? "one run's where the runs have no sum; none where refused"
	       : refused	  ? "none where refused"
				  : "one run's where the runs have no sum";
}

const char *step_quantity_why(const struct step_cost *s, enum quantity q)
{
	if (s->refused)
		return q == Q_MEM ? NULL : report_step_refusal(s);
	return q == Q_NCOM && !s->ncom ? s->ncom_why : NULL;
}

const char *report_quantity_why(const struct analysis *a, int c, int s, enum quantity q)
{
	return s >= 0 && s < a->cands[c].nsteps ? step_quantity_why(&a->cands[c].steps[s], q)
						: NULL;
}

const enum quantity run_quantity[RUN_N] = {Q_W, Q_H, Q_NCOM, Q_COST};

const struct formula *run_formula(const struct step_cost *s, enum quantity q)
{
	return q == Q_W ? s->per_w : q == Q_H ? s->per_h : q == Q_NCOM ? s->per_ncom
	       : q == Q_COST ? s->per_cost : NULL;
}

/* *OUT = F at the integer -D values of OPT (g and l included when they are
 * integers); -1 when some parameter F needs has none. */
static int value_at(const struct formula *f, const struct report_request *opt, mpq_t out)
{
	const char **names = calloc((size_t)opt->ndefs + 1, sizeof(*names));
	long long *values = calloc((size_t)opt->ndefs + 1, sizeof(*values));
	int r = -1, n = 0;
	if (f && names && values) {
		for (int i = 0; i < opt->ndefs; i++)
			if (opt->defs[i].den <= 1) {
				names[n] = opt->defs[i].name;
				values[n++] = opt->defs[i].value;
			}
		r = formula_eval(f, names, values, n, out);
	}
	free(names);
	free(values);
	return r;
}

char *formula_value_text(const struct formula *f, const struct report_request *opt)
{
	mpq_t v;
	mpq_init(v);
	char *r = value_at(f, opt, v) == 0 ? report_number(v) : NULL;
	mpq_clear(v);
	return r;
}

char *formula_value_beside(const struct formula *f, const char *text,
			   const struct report_request *rq)
{
	char *v = f && text ? formula_value_text(f, rq) : NULL;
	if (v && strcmp(v, text) == 0) {
		free(v);
		v = NULL;
	}
	return v;
}

char *report_iterations_number(const struct analysis *a, int c, int s,
			       const struct step_cost *sc)
{
	/* the count at the values first: the formula holds only under the
	 * candidate's assumptions, which the values may break */
	const struct formula *n = a->exact && c >= 0 && c < a->ncands &&
				  a->exact[c].status == COST_OK && s < a->exact[c].nsteps
				  ? a->exact[c].steps[s].iterations : NULL;
	char *v = n ? formula_value_text(n, a->rq) : NULL;
	return v || !sc->iterations ? v : formula_value_text(sc->iterations, a->rq);
}

char *report_iterations_value(const struct analysis *a, int c, int s,
			      const struct step_cost *sc, const char *text)
{
	char *v = text ? report_iterations_number(a, c, s, sc) : NULL;
	if (v && strcmp(v, text) == 0) {
		free(v);
		v = NULL;
	}
	return v;
}

/* The last -D value of NAME in OPT into OUT; -1 when there is none. */
static int def_value(const struct report_request *opt, const char *name, mpq_t out)
{
	for (int i = opt->ndefs - 1; i >= 0; i--)
		if (strcmp(opt->defs[i].name, name) == 0) {
			param_value_get(out, &opt->defs[i]);
			return 0;
		}
	return -1;
}

const char *report_missing_coefs(char buf[64], const struct report_request *rq)
{
	const struct cost_model *cm = report_model(rq);
	const char *missing[8];
	int n = 0;
	mpq_t v;
	mpq_init(v);
	for (int k = 0; k < cm->ncoefs && n < 8; k++)
		if (def_value(rq, cm->coef_names[k], v) < 0)
			missing[n++] = cm->coef_names[k];
	mpq_clear(v);
	if (n == 0)   /* given, yet not enough: name them all */
		return report_coef_list(buf, cm);
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		len += (size_t)snprintf(buf + len, 64 - len, "%s%s",
					k == 0 ? "" : k + 1 == n ? " and " : ", ", missing[k]);
	return buf;
}

const char *report_coef_list(char buf[64], const struct cost_model *cm)
{
	if (!cm)
		cm = cost_model_default();
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < cm->ncoefs; k++)
		len += (size_t)snprintf(buf + len, 64 - len, "%s%s",
					k == 0 ? "" : k + 1 == cm->ncoefs ? " and " : ", ",
					cm->coef_names[k]);
	return buf;
}

void report_model_line(FILE *out, const struct cost_model *cm)
{
	if (cm && cm != cost_model_default())
		fprintf(out, "cost function %s: %s, summed over the supersteps\n", cm->name, cm->text);
}

const struct cost_model *report_model(const struct report_request *rq)
{
	return rq->model ? rq->model : cost_model_default();
}

/* *OUT = the cost of step S of CC (every step when S < 0): the cost
 * function's, of each, from the values of its quantities and the exact
 * coefficients given (fractions too); -1 when a value is missing. */
static int cost_value(const struct candidate_cost *cc, int s, const struct report_request *opt,
		      mpq_t out)
{
	struct cost_prices p;
	cost_prices_init(&p, report_model(opt));
	for (int c = 0; c < COEF_N; c++)
		p.has[c] = def_value(opt, cost_coef_name[c], p.coef[c]) == 0;
	mpq_t q[TERM_N], step;
	for (int t = 0; t < TERM_N; t++)
		mpq_init(q[t]);
	mpq_init(step);
	mpq_set_ui(out, 0, 1);
	int r = 0;
	for (int k = s < 0 ? 0 : s; r == 0 && k < (s < 0 ? cc->nsteps : s + 1); k++) {
		const struct step_cost *sc = &cc->steps[k];
		const struct formula *f[TERM_N] = {sc->w, sc->h, sc->h_in, sc->h_out, sc->ncom};
		for (int t = 0; t < TERM_N && r == 0; t++)
			if (value_at(f[t], opt, q[t]) < 0)
				r = -1;
		/* in loops, a cost that prices messages prices each run's loads
		 * with its latency */
		bool runs = p.model->messages != MSG_NONE && sc->iterations;
		if (r == 0 && (runs ? cost_prices_runs(&p, (const mpq_t *)q, sc->loads, sc->run_end,
						       sc->nruns, step, NULL)
				    : cost_prices_step(&p, (const mpq_t *)q, sc->loads, sc->nloads,
						       step, NULL)) != COST_VALUE_OK)
			r = -1;
		if (r == 0 && sc->iterations && !runs) {   /* a loop's: l once per iteration */
			mpq_t n;
			mpq_init(n);
			if (value_at(sc->iterations, opt, n) < 0 || !p.has[COEF_L])
				r = -1;
			else
				cost_loop_latency(&p, n, step);
			mpq_clear(n);
		}
		if (r == 0)
			mpq_add(out, out, step);
	}
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(step);
	cost_prices_clear(&p);
	return r;
}

/* The value of quantity Q of step S of candidate C, written with DIGITS: the
 * count at the values, or (some sizes given only) the formula's value, none
 * where the sizes given break the formula's assumptions. */
static char *value_text(const struct analysis *a, int c, int s, enum quantity q, int digits)
{
	const struct candidate_cost *cc = a->exact ? &a->exact[c] : &a->cands[c];
	if (cc->status != COST_OK)
		return NULL;
	if (!a->exact) {
		bool failed;
		char *broken = report_formulas_broken(a, c, &failed);
		free(broken);
		if (broken || failed)
			return NULL;
	}
	mpq_t v;
	mpq_init(v);
	int r = q == Q_MEM ? value_at(s < 0 ? cc->mem : cc->steps[s].mem, a->rq, v)
		: s < 0 || q == Q_COST ? cost_value(cc, s, a->rq, v)
				       : value_at(step_quantity(&cc->steps[s], q), a->rq, v);
	char *text = r == 0 ? report_number_digits(v, digits) : NULL;
	mpq_clear(v);
	return text;
}

char *report_value(const struct analysis *a, int c, int s, enum quantity q)
{
	return value_text(a, c, s, q, 0);
}

char *report_value_shown(const struct analysis *a, int c, int s, enum quantity q)
{
	return value_text(a, c, s, q, a->rq->digits);
}

char *report_quantity_text(const struct formula *f, enum quantity q, enum formula_style style,
			   const struct cost_model *cm)
{
	if (!f)
		return NULL;
	if (!cm)
		cm = cost_model_default();
	return q == Q_COST ? formula_to_string_by(f, style, cm->coef_names, cm->ncoefs)
			   : formula_to_string(f, style);
}

char *report_value_beside(const struct analysis *a, int c, int s, enum quantity q,
			  const struct formula *f)
{
	char *v = report_value_shown(a, c, s, q);
	if (!v || !f)
		return v;
	/* a formula of a parameter has a name in its text, which a number has
	 * not: only a constant's text is written again to compare */
	int n = 0;
	char **names = formula_params(f, &n);
	if (!names)
		n = 0; /* not known: compare the texts */
	formula_params_free(names, n);
	if (n != 0)
		return v;
	char *text = report_quantity_text(f, q, FORMULA_TEXT, a->rq->model);
	if (text && strcmp(text, v) == 0) {
		free(v);
		v = NULL;
	}
	free(text);
	return v;
}

int report_cost_number(const struct analysis *a, int c, mpq_t out)
{
	const struct candidate_cost *cc = a->exact ? &a->exact[c] : &a->cands[c];
	return cc->status == COST_OK ? cost_value(cc, -1, a->rq, out) : -1;
}

char *report_seconds(const struct analysis *a, int c, char **exact)
{
	if (exact)
		*exact = NULL;
	const struct candidate_cost *cc = a->exact ? &a->exact[c] : &a->cands[c];
	if (!a->rq->speed || cc->status != COST_OK)
		return NULL;
	mpq_t t;
	mpq_init(t);
	char *text = NULL;
	if (cost_value(cc, -1, a->rq, t) == 0) {
		mpq_div(t, t, a->rq->speed);
		char *e = report_number(t), *approx = NULL;
		if (e && a->rq->digits > 0) {
			/* --digits: rounded so, unless that is the exact text */
			approx = report_number_digits(t, a->rq->digits);
			if (approx && strcmp(approx, e) == 0) {
				free(approx);
				approx = NULL;
			}
		} else if (e) {
			approx = report_rounded(t);
		}
		if (e && asprintf(&text, approx ? "%s s (%s s)" : "%s s", e, approx) < 0)
			text = NULL;
		free(approx);
		if (exact)
			*exact = e;
		else
			free(e);
	}
	mpq_clear(t);
	return text;
}

char *report_broken_condition(const struct analysis *a, int c, bool *failed)
{
	const struct candidate_cost *cc = &a->cands[c];
	const struct report_request *opt = a->rq;
	const char **names = calloc((size_t)opt->ndefs + 1, sizeof(*names));
	long long *values = calloc((size_t)opt->ndefs + 1, sizeof(*values));
	char *broken = NULL;
	bool oom = !names || !values;
	int n = 0;
	for (int i = 0; names && values && i < opt->ndefs; i++)
		if (opt->defs[i].den <= 1) {
			names[n] = opt->defs[i].name;
			values[n++] = opt->defs[i].value;
		}
	for (int i = 0; !oom && i < cc->nconditions && !broken; i++) {
		/* (a condition the grammar parses: NULL only out of memory) */
		struct formula_expr *e = formula_parse_expr(cc->conditions[i], NULL);
		mpq_t v;
		mpq_init(v);
		if (e && formula_expr_eval(e, names, values, n, v) == 0 && mpq_sgn(v) == 0)
			oom = !(broken = strdup(cc->condition_texts[i]));
		oom |= !e;
		mpq_clear(v);
		formula_expr_free(e);
	}
	free(names);
	free(values);
	if (failed)
		*failed = oom;
	return broken;
}

char *report_formulas_broken(const struct analysis *a, int c, bool *failed)
{
	if (failed)
		*failed = false;
	if (a->cands[c].status != COST_OK && !a->cands[c].formulas_kept)
		return NULL;
	bool some = a->exact != NULL;
	for (int i = 0; !some && i < a->rq->ndefs; i++)
		some = report_given_size(a, i);
	return some ? report_broken_condition(a, c, failed) : NULL;
}

bool report_given_size(const struct analysis *a, int i)
{
	if (!report_given(a, i))
		return false;
	for (int k = 0; k < a->naxes; k++)
		if (strcmp(a->axes[k], a->rq->defs[i].name) == 0)
			return false;
	return true;
}

bool report_given(const struct analysis *a, int i)
{
	const char *name = a->rq->defs[i].name;
	const struct checked_spec *cs = a->spec;
	if (!cs || cost_coef_known(name))
		return true;
	for (int k = 0; k < cs->nsizes; k++)
		if (strcmp(cs->params[k]->name, name) == 0)
			return true;
	for (int k = 0; k < cs->naxes; k++)
		if (strcmp(cs->axes[k]->name, name) == 0)
			return true;
	return false;
}

void report_json_values(FILE *out, const struct analysis *a,
			bool (*keep)(const struct analysis *, int))
{
	fputs("{", out);
	for (int i = 0, shown = 0; i < a->rq->ndefs; i++) {
		if (!keep(a, i))
			continue;
		fputs(shown++ ? ", " : "", out);
		report_json_string(out, a->rq->defs[i].name);
		fputs(": ", out);
		report_param_value(out, &a->rq->defs[i], true);
	}
	fputs("}", out);
}

void report_analysis(FILE *out, enum output_format format, const struct analysis *a)
{
	switch (format) {
	case FORMAT_TEXT:
		report_text(out, a);
		break;
	case FORMAT_JSON:
		report_json(out, a);
		break;
	case FORMAT_MARKDOWN:
		report_markdown(out, a);
		break;
	case FORMAT_LATEX:
		report_latex(out, a);
		break;
	case FORMAT_CSV:
		report_csv(out, a);
		break;
	}
}
