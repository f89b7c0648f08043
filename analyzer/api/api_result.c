/* The library's answers (bspcost.h): an analysis and a ranking, kept as text
 * and exact values when the run hands them over (struct run_sink), walked,
 * evaluated and rendered afterwards. */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "analyzer/api/api_internal.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/formula/formula.h"
#include "analyzer/model/model.h"
#include "analyzer/report/report.h"

static const enum quantity api_quantity_of[API_NQ] = {
	[BSPCOST_W] = Q_W, [BSPCOST_H] = Q_H, [BSPCOST_H_IN] = Q_H_IN,
	[BSPCOST_H_OUT] = Q_H_OUT, [BSPCOST_NCOM] = Q_NCOM, [BSPCOST_COST] = Q_COST,
	[BSPCOST_MEM] = Q_MEM};

static const enum output_format api_format_of[API_NFORMATS] = {
	[BSPCOST_TEXT] = FORMAT_TEXT, [BSPCOST_JSON] = FORMAT_JSON, [BSPCOST_CSV] = FORMAT_CSV,
	[BSPCOST_MARKDOWN] = FORMAT_MARKDOWN, [BSPCOST_LATEX] = FORMAT_LATEX};

/* --- Keeping an analysis --------------------------------------------------- */

static void quantity_clear(struct api_quantity *q)
{
	free(q->formula);
	free(q->expr);
	free(q->value);
	free(q->why);
	formula_expr_free(q->parsed);
	memset(q, 0, sizeof(*q));
}

/* Q of formula F (NULL: none) and value VALUE (taken); -1 out of memory. */
static int quantity_keep(struct api_quantity *out, const struct formula *f, enum quantity q,
			 const struct cost_model *cm, char *value)
{
	out->value = value;
	if (!f)
		return 0;
	out->formula = report_quantity_text(f, q, FORMULA_TEXT, cm);
	out->expr = formula_to_string(f, FORMULA_EXPR_STRICT);
	/* a text that does not read back: no evaluation (bspcost_result_eval
	 * says BSPCOST_ERROR), the rest kept */
	out->parsed = formula_parse_expr(out->expr, NULL);
	return out->formula && out->expr ? 0 : -1;
}

/* The conditions and block lengths of CC's formulas read back, for
 * evaluating them; -1 out of memory (or a text that does not read). */
static int keep_locals(struct api_candidate *ac, const struct candidate_cost *cc)
{
	ac->conditions = calloc((size_t)cc->nconditions + 1, sizeof(*ac->conditions));
	ac->local_names = calloc((size_t)cc->nlocals + 1, sizeof(*ac->local_names));
	ac->local_values = calloc((size_t)cc->nlocals + 1, sizeof(*ac->local_values));
	if (!ac->conditions || !ac->local_names || !ac->local_values)
		return -1;
	/* each counted as soon as it is there, so that a failure frees it */
	for (int i = 0; i < cc->nconditions; i++)
		if (!(ac->conditions[ac->nconditions++] = formula_parse_expr(cc->conditions[i], NULL)))
			return -1;
	for (int i = 0; i < cc->nlocals; i++) {
		ac->nlocals++;
		if (!(ac->local_names[i] = strdup(cc->local_names[i])) ||
		    !(ac->local_values[i] = formula_parse_expr(cc->local_values[i], NULL)))
			return -1;
	}
	return 0;
}

/* Each process's counts in the supersteps of EX (--per-process: counted at
 * values) into AC's steps; -1 out of memory. */
static int keep_processes(struct api_candidate *ac, const struct candidate_cost *ex)
{
	for (int s = 0; s < ac->nsteps && s < ex->nsteps; s++) {
		const struct step_cost *sc = &ex->steps[s];
		struct api_step *st = &ac->steps[s];
		if (sc->nprocs <= 0 || !sc->procs)
			continue;
		if (!(st->procs = calloc((size_t)sc->nprocs, sizeof(*st->procs))))
			return -1;
		for (int p = 0; p < sc->nprocs; p++) {
			const struct process_cost *pc = &sc->procs[p];
			struct api_process *ap = &st->procs[st->nprocs++];
			memcpy(ap->coord, pc->q, sizeof(ap->coord));
			mpz_srcptr v[API_NPQ] = {pc->w, pc->in, pc->out, pc->msgs_in, pc->msgs_out};
			for (int k = 0; k < API_NPQ; k++) {
				if (k >= BSPCOST_PROCESS_MSGS_IN && !sc->msgs)
					continue;   /* not counted: NULL */
				if (!(ap->v[k] = mpz_get_str(NULL, 10, v[k])))
					return -1;
			}
		}
	}
	return 0;
}

/* Candidate C of A into AC; -1 out of memory. */
static int keep_candidate(struct api_candidate *ac, const struct analysis *a, int c)
{
	const struct candidate_cost *cc = &a->cands[c];
	const struct candidate_cost *ex = a->exact ? &a->exact[c] : NULL;
	const struct cost_model *cm = report_model(a->rq);
	if (!(ac->name = strdup(cc->name)))
		return -1;
	ac->ok = ex ? ex->status == COST_OK : cc->status == COST_OK;
	const char *why = cc->status != COST_OK ? cc->reason
			  : ex && ex->status != COST_OK ? ex->reason : NULL;
	if (why && !(ac->why = strdup(why)))
		return -1;
	if (keep_locals(ac, cc) < 0)
		return -1;
	ac->assumptions = calloc((size_t)cc->nassumptions + 1, sizeof(*ac->assumptions));
	if (!ac->assumptions)
		return -1;
	for (int i = 0; i < cc->nassumptions; i++)
		if (!(ac->assumptions[ac->nassumptions++] = strdup(cc->assumptions[i])))
			return -1;
	/* the supersteps: the formulas' where they were counted, else the
	 * values' (a candidate refused on the symbolic grid has no steps) */
	const struct candidate_cost *steps = cc->nsteps > 0 ? cc : ex;
	int n = steps ? steps->nsteps : 0;
	if (!(ac->steps = calloc((size_t)n + 1, sizeof(*ac->steps))))
		return -1;
	bool formulas = cc->status == COST_OK || cc->formulas_kept;
	for (int s = 0; s < n; s++) {
		struct api_step *st = &ac->steps[ac->nsteps++];
		if (!(st->name = strdup(steps->steps[s].name)))
			return -1;
		for (int k = 0; k < API_NQ; k++) {
			enum quantity q = api_quantity_of[k];
			const struct formula *f = formulas && s < cc->nsteps
				? (q == Q_MEM ? cc->steps[s].mem : step_quantity(&cc->steps[s], q))
				: NULL;
			if (quantity_keep(&st->q[k], f, q, cm, report_value(a, c, s, q)) < 0)
				return -1;
			const char *why = formulas && s < cc->nsteps
				? step_quantity_why(&cc->steps[s], q) : NULL;
			if (why && !(st->q[k].why = strdup(why)))
				return -1;
		}
	}
	if (ex && ex->status == COST_OK && keep_processes(ac, ex) < 0)
		return -1;
	if (quantity_keep(&ac->program[BSPCOST_COST], cc->status == COST_OK ? cc->cost : NULL,
			  Q_COST, cm, report_value(a, c, -1, Q_COST)) < 0 ||
	    quantity_keep(&ac->program[BSPCOST_MEM], formulas ? cc->mem : NULL, Q_MEM, cm,
			  report_value(a, c, -1, Q_MEM)) < 0)
		return -1;
	return 0;
}

static void candidate_clear(struct api_candidate *ac)
{
	free(ac->name);
	free(ac->why);
	for (int i = 0; i < ac->nassumptions; i++)
		free(ac->assumptions[i]);
	free(ac->assumptions);
	for (int i = 0; i < ac->nconditions; i++)
		formula_expr_free(ac->conditions[i]);
	free(ac->conditions);
	for (int i = 0; i < ac->nlocals; i++) {
		free(ac->local_names[i]);
		formula_expr_free(ac->local_values[i]);
	}
	free(ac->local_names);
	free(ac->local_values);
	for (int s = 0; s < ac->nsteps; s++) {
		free(ac->steps[s].name);
		for (int k = 0; k < API_NQ; k++)
			quantity_clear(&ac->steps[s].q[k]);
		for (int p = 0; p < ac->steps[s].nprocs; p++)
			for (int k = 0; k < API_NPQ; k++)
				free(ac->steps[s].procs[p].v[k]);
		free(ac->steps[s].procs);
	}
	free(ac->steps);
	for (int k = 0; k < API_NQ; k++)
		quantity_clear(&ac->program[k]);
}

void bspcost_result_free(bspcost_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nassume; i++)
		formula_expr_free(r->assume[i]);
	free(r->assume);
	for (int c = 0; c < r->ncands; c++)
		candidate_clear(&r->cands[c]);
	free(r->cands);
	for (int f = 0; f < API_NFORMATS; f++)
		free(r->render[f]);
	if (r->cmp) {
		for (int k = 0; k < 2; k++)
			for (int rel = 0; rel < CMP_N; rel++)
				free(r->cmp->cond[k][rel]);
		free(r->cmp->why);
		free(r->cmp->difference);
		free(r->cmp);
	}
	free(r);
}

/* Report A in every format into RENDER (PER_PROCESS: --per-process's
 * report, which has no LaTeX); -1 out of memory. */
static int render_analysis(char *render[API_NFORMATS], const struct analysis *a,
			   bool per_process)
{
	for (int f = 0; f < API_NFORMATS; f++) {
		if (per_process && f == BSPCOST_LATEX)
			continue;
		size_t len = 0;
		FILE *out = open_memstream(&render[f], &len);
		if (!out)
			return -1;
		if (per_process)
			report_per_process(out, api_format_of[f], a);
		else
			report_analysis(out, api_format_of[f], a);
		if (fclose(out) != 0)
			return -1;
	}
	return 0;
}

/* The specification's assumptions of A, read back for bspcost_result_eval,
 * into R; -1 out of memory. */
static int keep_assumptions(bspcost_result *r, const struct analysis *a)
{
	int n = 0;
	char **assume = model_assumption_exprs(a->model, &n);
	r->assume = calloc((size_t)n + 1, sizeof(*r->assume));
	bool ok = assume && r->assume;
	for (int i = 0; ok && i < n; i++)
		ok = (r->assume[r->nassume++] = formula_parse_expr(assume[i], NULL)) != NULL;
	for (int i = 0; assume && i < n; i++)
		free(assume[i]);
	free(assume);
	return ok ? 0 : -1;
}

static int keep_analysis(void *user, const struct analysis *a)
{
	bspcost_result *r = user;
	if (r->cands)
		return 0;   /* one analysis per question */
	if (keep_assumptions(r, a) < 0 ||
	    !(r->cands = calloc((size_t)a->ncands + 1, sizeof(*r->cands))))
		return -1;
	for (int c = 0; c < a->ncands; c++)
		if (keep_candidate(&r->cands[r->ncands++], a, c) < 0)
			return -1;   /* cleared with the others */
	r->naxes = a->naxes;
	return render_analysis(r->render, a, r->per_process);
}

/* --compare: candidates CA and CB of A (the result's two) and CMP's
 * conditions, difference and report in every format. */
static int keep_comparison(void *user, const struct analysis *a, int ca, int cb,
			   const struct comparison *cmp)
{
	bspcost_result *r = user;
	if (r->cands)
		return 0;
	if (keep_assumptions(r, a) < 0 || !(r->cands = calloc(2, sizeof(*r->cands))) ||
	    keep_candidate(&r->cands[r->ncands++], a, ca) < 0 ||
	    keep_candidate(&r->cands[r->ncands++], a, cb) < 0 ||
	    !(r->cmp = calloc(1, sizeof(*r->cmp))))
		return -1;
	/* the text's conditions, and the formula grammar's (COMPARE_STYLES:
	 * text, expr, LaTeX) */
	for (int k = 0; k < 2; k++)
		for (int rel = 0; rel < CMP_N; rel++)
			if (cmp->cond[k][rel] && !(r->cmp->cond[k][rel] = strdup(cmp->cond[k][rel])))
				return -1;
	if ((cmp->why && !(r->cmp->why = strdup(cmp->why))) ||
	    (cmp->valued && !(r->cmp->difference = mpq_get_str(NULL, 10, cmp->diff_value))))
		return -1;
	r->naxes = a->naxes;
	for (int f = 0; f < API_NFORMATS; f++) {
		size_t len = 0;
		FILE *out = open_memstream(&r->render[f], &len);
		if (!out)
			return -1;
		report_compare(out, api_format_of[f], a, ca, cb, cmp);
		if (fclose(out) != 0)
			return -1;
	}
	return 0;
}

enum bspcost_status bspcost_analyze(bspcost_session *s, const bspcost_spec *spec,
				    const bspcost_request *rq, bspcost_result **out)
{
	if (out)
		*out = NULL;
	if (!s || !spec || !rq || !out)
		return BSPCOST_USAGE;
	bspcost_result *r = calloc(1, sizeof(*r));
	if (!r) {
		api_say(s, NULL);
		return BSPCOST_ERROR;
	}
	r->per_process = rq->opt.per_process;
	struct run_sink sink = {.user = r, .analysis = keep_analysis,
				.comparison = keep_comparison};
	int status = api_run(s, spec, rq, &sink, false, NULL);
	if (!r->cands) {
		bspcost_result_free(r);
		return status == EXIT_OK ? BSPCOST_ERROR : (enum bspcost_status)status;
	}
	*out = r;
	return (enum bspcost_status)status;
}

/* --- Walking an analysis ------------------------------------------------------- */

static const struct api_candidate *candidate(const bspcost_result *r, int c)
{
	return r && c >= 0 && c < r->ncands ? &r->cands[c] : NULL;
}

static const struct api_quantity *quantity(const bspcost_result *r, int c, int s,
					   enum bspcost_quantity q)
{
	const struct api_candidate *ac = candidate(r, c);
	if (!ac || (int)q < 0 || (int)q >= API_NQ)
		return NULL;
	if (s == BSPCOST_PROGRAM)
		return &ac->program[q];
	return s >= 0 && s < ac->nsteps ? &ac->steps[s].q[q] : NULL;
}

int bspcost_result_ncandidates(const bspcost_result *r)
{
	return r ? r->ncands : 0;
}

const char *bspcost_result_candidate(const bspcost_result *r, int c)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac ? ac->name : NULL;
}

enum bspcost_status bspcost_result_status(const bspcost_result *r, int c)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac && ac->ok ? BSPCOST_OK : BSPCOST_ERROR;
}

const char *bspcost_result_why(const bspcost_result *r, int c)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac ? ac->why : NULL;
}

int bspcost_result_nassumptions(const bspcost_result *r, int c)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac ? ac->nassumptions : 0;
}

const char *bspcost_result_assumption(const bspcost_result *r, int c, int k)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac && k >= 0 && k < ac->nassumptions ? ac->assumptions[k] : NULL;
}

int bspcost_result_nsupersteps(const bspcost_result *r, int c)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac ? ac->nsteps : 0;
}

const char *bspcost_result_superstep(const bspcost_result *r, int c, int s)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac && s >= 0 && s < ac->nsteps ? ac->steps[s].name : NULL;
}

const char *bspcost_result_formula(const bspcost_result *r, int c, int s, enum bspcost_quantity q)
{
	const struct api_quantity *x = quantity(r, c, s, q);
	return x ? x->formula : NULL;
}

const char *bspcost_result_formula_why(const bspcost_result *r, int c, int s,
				       enum bspcost_quantity q)
{
	const struct api_quantity *x = quantity(r, c, s, q);
	return x ? x->why : NULL;
}

const char *bspcost_result_expr(const bspcost_result *r, int c, int s, enum bspcost_quantity q)
{
	const struct api_quantity *x = quantity(r, c, s, q);
	return x ? x->expr : NULL;
}

const char *bspcost_result_value(const bspcost_result *r, int c, int s, enum bspcost_quantity q)
{
	const struct api_quantity *x = quantity(r, c, s, q);
	return x ? x->value : NULL;
}

/* --- Comparisons ------------------------------------------------------------------ */

_Static_assert((int)BSPCOST_A_CHEAPER == CMP_A_CHEAPER && (int)BSPCOST_SAME == CMP_EQUAL &&
		       (int)BSPCOST_B_CHEAPER == CMP_B_CHEAPER,
	       "bspcost_relation is compare_rel");

const char *bspcost_result_condition(const bspcost_result *r, enum bspcost_relation rel,
				     int expr)
{
	if (!r || !r->cmp || (int)rel < 0 || (int)rel >= CMP_N)
		return NULL;
	return r->cmp->cond[expr ? 1 : 0][rel];
}

const char *bspcost_result_comparison_why(const bspcost_result *r)
{
	return r && r->cmp ? r->cmp->why : NULL;
}

const char *bspcost_result_difference(const bspcost_result *r)
{
	return r && r->cmp ? r->cmp->difference : NULL;
}

/* --- Each process's counts ------------------------------------------------------ */

static const struct api_process *process(const bspcost_result *r, int c, int s, int p)
{
	const struct api_candidate *ac = candidate(r, c);
	if (!ac || s < 0 || s >= ac->nsteps || p < 0 || p >= ac->steps[s].nprocs)
		return NULL;
	return &ac->steps[s].procs[p];
}

int bspcost_result_nprocesses(const bspcost_result *r, int c, int s)
{
	const struct api_candidate *ac = candidate(r, c);
	return ac && s >= 0 && s < ac->nsteps ? ac->steps[s].nprocs : 0;
}

long bspcost_result_process_coord(const bspcost_result *r, int c, int s, int p, int a)
{
	const struct api_process *ap = process(r, c, s, p);
	return ap && a >= 0 && a < r->naxes && a < 3 ? ap->coord[a] : -1;
}

const char *bspcost_result_process_value(const bspcost_result *r, int c, int s, int p,
					 enum bspcost_process_quantity q)
{
	const struct api_process *ap = process(r, c, s, p);
	return ap && (int)q >= 0 && (int)q < API_NPQ ? ap->v[q] : NULL;
}

/* The point NAMES/VALUES (N of them) with AC's block lengths added
 * (NAMES2/VALUES2, N + AC->nlocals entries); 0, or -1 when a length is no
 * integer there, the point breaks an assumption of the specification (RES's)
 * or of the formulas (AC's), or a name they need has no value. */
static int with_locals(const bspcost_result *res, const struct api_candidate *ac, int n,
		       const char *const names[], const long long values[], const char **names2,
		       long long *values2)
{
	memcpy(names2, names, (size_t)n * sizeof(*names2));
	memcpy(values2, values, (size_t)n * sizeof(*values2));
	mpq_t v;
	mpq_init(v);
	int r = 0;
	for (int i = 0; i < ac->nlocals && r == 0; i++) {
		/* a length may use the ones before it */
		if (formula_expr_eval(ac->local_values[i], names2, values2, n + i, v) < 0 ||
		    mpz_cmp_ui(mpq_denref(v), 1) != 0 || !mpz_fits_slong_p(mpq_numref(v)))
			r = -1;
		else {
			names2[n + i] = ac->local_names[i];
			values2[n + i] = mpz_get_si(mpq_numref(v));
		}
	}
	/* the specification's assumptions, then what the formulas rest on */
	for (int i = 0; i < res->nassume && r == 0; i++)
		if (formula_expr_eval(res->assume[i], names2, values2, n + ac->nlocals, v) < 0 ||
		    mpq_sgn(v) == 0)
			r = -1;
	for (int i = 0; i < ac->nconditions && r == 0; i++)
		if (formula_expr_eval(ac->conditions[i], names2, values2, n + ac->nlocals, v) < 0 ||
		    mpq_sgn(v) == 0)
			r = -1;
	mpq_clear(v);
	return r;
}

enum bspcost_status bspcost_result_eval(const bspcost_result *r, int c, int s,
					enum bspcost_quantity q, int n, const char *const names[],
					const long long values[], long long *num, long long *den,
					double *approx)
{
	const struct api_candidate *ac = candidate(r, c);
	const struct api_quantity *x = quantity(r, c, s, q);
	if (!x || !x->parsed)
		return BSPCOST_ERROR;
	if (n < 0 || (n > 0 && (!names || !values)))
		return BSPCOST_USAGE;
	const char **names2 = calloc((size_t)(n + ac->nlocals) + 1, sizeof(*names2));
	long long *values2 = calloc((size_t)(n + ac->nlocals) + 1, sizeof(*values2));
	enum bspcost_status st = BSPCOST_ERROR;
	mpq_t v;
	mpq_init(v);
	if (names2 && values2) {
		st = BSPCOST_USAGE;
		if (with_locals(r, ac, n, names, values, names2, values2) == 0 &&
		    formula_expr_eval(x->parsed, names2, values2, n + ac->nlocals, v) == 0) {
			st = mpz_fits_slong_p(mpq_numref(v)) && mpz_fits_slong_p(mpq_denref(v))
				     ? BSPCOST_OK : BSPCOST_ERROR;
		}
	}
	if (st == BSPCOST_OK) {
		if (num)
			*num = mpz_get_si(mpq_numref(v));
		if (den)
			*den = mpz_get_si(mpq_denref(v));
		if (approx)
			*approx = mpq_get_d(v);
	}
	mpq_clear(v);
	free(names2);
	free(values2);
	return st;
}

/* --- Rankings -------------------------------------------------------------------- */

static void table_clear(struct api_table *t)
{
	for (int i = 0; i < t->npoint; i++) {
		free(t->point_names[i]);
		free(t->point_values[i]);
	}
	free(t->point_names);
	free(t->point_values);
	for (int i = 0; i < t->nrows; i++) {
		free(t->rows[i].shape);
		free(t->rows[i].candidate);
		free(t->rows[i].cost);
		free(t->rows[i].why);
	}
	free(t->rows);
}

void bspcost_ranking_free(bspcost_ranking *r)
{
	if (!r)
		return;
	for (int t = 0; t < r->ntables; t++)
		table_clear(&r->tables[t]);
	free(r->tables);
	for (int f = 0; f < API_NFORMATS; f++)
		free(r->render[f]);
	free(r);
}

/* ROW's cost as text: the number, or without g and l (every machine) the
 * linear formula in them. */
static char *row_cost(const struct ranking *r, const struct rank_row *row)
{
	if (row->status != RANK_OK)
		return NULL;
	if (!r->every_machine)
		return report_number(row->cost);
	char *c = report_number(row->cost), *g = report_number(row->gcoef),
	     *l = report_number(row->lcoef), *text = NULL;
	if (c && g && l && asprintf(&text, "%s + %s*g + %s*l", c, g, l) < 0)
		text = NULL;
	free(c);
	free(g);
	free(l);
	return text;
}

/* R into table T; -1 out of memory. */
static int keep_table(struct api_table *t, const struct ranking *r)
{
	const struct rank_table *rt = r->t;
	t->procs = rt->procs;
	t->point_names = calloc((size_t)r->nvalues + 1, sizeof(*t->point_names));
	t->point_values = calloc((size_t)r->nvalues + 1, sizeof(*t->point_values));
	t->rows = calloc((size_t)rt->nrows + 1, sizeof(*t->rows));
	if (!t->point_names || !t->point_values || !t->rows)
		return -1;
	for (int i = 0; i < r->nvalues; i++, t->npoint++) {
		mpq_t v;
		mpq_init(v);
		param_value_get(v, &r->values[i]);
		t->point_names[i] = strdup(r->values[i].name);
		t->point_values[i] = report_number(v);
		mpq_clear(v);
		if (!t->point_names[i] || !t->point_values[i]) {
			t->npoint++;
			return -1;
		}
	}
	for (int i = 0; i < rt->nrows; i++, t->nrows++) {
		const struct rank_row *row = &rt->rows[i];
		struct api_row *ar = &t->rows[i];
		char shape[64];
		shape_label(shape, rt, row->shape);
		/* for every machine the order is no ranking: the picture says which
		 * rows win where (bspcost_ranking_render) */
		ar->rank = row->status == RANK_OK && !r->every_machine ? row->rank : 0;
		ar->shape = strdup(shape);
		ar->candidate = row->cand >= 0 ? strdup(r->cands[row->cand]) : NULL;
		ar->cost = row_cost(r, row);
		ar->why = row->reason ? strdup(row->reason) : NULL;
		if (!ar->shape || (row->cand >= 0 && !ar->candidate) ||
		    (row->status == RANK_OK && !ar->cost) || (row->reason && !ar->why)) {
			t->nrows++;
			return -1;
		}
	}
	return 0;
}

static int keep_ranking(void *user, const struct ranking *r)
{
	bspcost_ranking *rk = user;
	struct api_table *t = realloc(rk->tables, ((size_t)rk->ntables + 1) * sizeof(*t));
	if (!t)
		return -1;
	rk->tables = t;
	memset(&t[rk->ntables], 0, sizeof(*t));
	int k = rk->ntables++;
	if (keep_table(&t[k], r) < 0)
		return -1;
	/* each format's text: the tables one after another, as -p prints them */
	struct ranking with = *r;
	with.first = k == 0;
	for (int f = 0; f < API_NFORMATS; f++)
		report_ranking(rk->stream[f], api_format_of[f], &with, k);
	return 0;
}

enum bspcost_status bspcost_rank(bspcost_session *s, const bspcost_spec *spec,
				 const bspcost_request *rq, bspcost_ranking **out)
{
	if (out)
		*out = NULL;
	if (!s || !spec || !rq || !out)
		return BSPCOST_USAGE;
	bspcost_ranking *r = calloc(1, sizeof(*r));
	if (!r) {
		api_say(s, NULL);
		return BSPCOST_ERROR;
	}
	struct run_sink sink = {.user = r, .ranking = keep_ranking};
	char *printed = NULL;
	bool streams = true;
	for (int f = 0; f < API_NFORMATS; f++)
		streams &= (r->stream[f] = open_memstream(&r->render[f], &r->len[f])) != NULL;
	int status = streams ? api_run(s, spec, rq, &sink, true, &printed) : EXIT_SPEC;
	for (int f = 0; f < API_NFORMATS; f++)
		if (r->stream[f] && fclose(r->stream[f]) != 0 && status == EXIT_OK)
			status = EXIT_SPEC;
	memset(r->stream, 0, sizeof(r->stream));
	if (!streams)
		api_say(s, NULL);
	if (r->ntables == 0) {
		/* nothing ranked: the sizes not given (what -p prints, said) */
		if (status == EXIT_OK) {
			status = EXIT_USAGE;
			api_say(s, printed);
		}
		bspcost_ranking_free(r);
		free(printed);
		return (enum bspcost_status)status;
	}
	free(printed);
	*out = r;
	return (enum bspcost_status)status;
}

static const struct api_table *table(const bspcost_ranking *r, int t)
{
	return r && t >= 0 && t < r->ntables ? &r->tables[t] : NULL;
}

static const struct api_row *row_of(const bspcost_ranking *r, int t, int row)
{
	const struct api_table *x = table(r, t);
	return x && row >= 0 && row < x->nrows ? &x->rows[row] : NULL;
}

int bspcost_ranking_ntables(const bspcost_ranking *r)
{
	return r ? r->ntables : 0;
}

long bspcost_ranking_procs(const bspcost_ranking *r, int t)
{
	const struct api_table *x = table(r, t);
	return x ? x->procs : 0;
}

const char *bspcost_ranking_point(const bspcost_ranking *r, int t, const char *name)
{
	const struct api_table *x = table(r, t);
	for (int i = 0; x && name && i < x->npoint; i++)
		if (strcmp(x->point_names[i], name) == 0)
			return x->point_values[i];
	return NULL;
}

int bspcost_ranking_nrows(const bspcost_ranking *r, int t)
{
	const struct api_table *x = table(r, t);
	return x ? x->nrows : 0;
}

int bspcost_ranking_rank(const bspcost_ranking *r, int t, int row)
{
	const struct api_row *x = row_of(r, t, row);
	return x ? x->rank : 0;
}

const char *bspcost_ranking_shape(const bspcost_ranking *r, int t, int row)
{
	const struct api_row *x = row_of(r, t, row);
	return x ? x->shape : NULL;
}

const char *bspcost_ranking_candidate(const bspcost_ranking *r, int t, int row)
{
	const struct api_row *x = row_of(r, t, row);
	return x ? x->candidate : NULL;
}

const char *bspcost_ranking_cost(const bspcost_ranking *r, int t, int row)
{
	const struct api_row *x = row_of(r, t, row);
	return x ? x->cost : NULL;
}

const char *bspcost_ranking_why(const bspcost_ranking *r, int t, int row)
{
	const struct api_row *x = row_of(r, t, row);
	return x ? x->why : NULL;
}

/* --- Rendering --------------------------------------------------------------------- */

static enum bspcost_status render(char *const text[API_NFORMATS], enum bspcost_format format,
				  FILE *out)
{
	if ((int)format < 0 || (int)format >= API_NFORMATS || !out)
		return BSPCOST_USAGE;
	const char *t = text[format] ? text[format] : "";
	return fputs(t, out) < 0 && *t ? BSPCOST_ERROR : BSPCOST_OK;
}

enum bspcost_status bspcost_result_render(const bspcost_result *r, enum bspcost_format format,
					  FILE *out)
{
	if (!r || (r->per_process && format == BSPCOST_LATEX))
		return BSPCOST_USAGE;   /* --per-process has no LaTeX report */
	return render(r->render, format, out);
}

enum bspcost_status bspcost_ranking_render(const bspcost_ranking *r, enum bspcost_format format,
					   FILE *out)
{
	return r ? render(r->render, format, out) : BSPCOST_USAGE;
}
