/* -p: every grid shape of each process count, every candidate, ranked by cost.
 *
 * With a value for every size (-D), g and l, each (shape, candidate) is counted
 * directly at those values (cost_request.values, as the analysis does with
 * every value given: milliseconds a pair, whatever the sizes), on the worker
 * pool; the shapes and the ranking are analyzer/decide's, the tables
 * analyzer/report's.  A shape whose values break the specification's
 * assumptions is listed with the assumption it breaks, never ranked.  Without
 * every size, the symbolic analysis is printed once with the values to give. */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include "analyzer/run/analyze.h"
#include "analyzer/run/progress.h"
#include "analyzer/run/commands.h"
#include "analyzer/run/plot.h"
#include "analyzer/cost/cost_formulas.h"
#include "analyzer/cost/workers.h"
#include "analyzer/decide/pareto.h"
#include "analyzer/decide/rank.h"
#include "analyzer/report/report.h"
#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"

/* The rows of one process count's tables, every point of a sweep at once,
 * counted by the workers. */
struct rank_job {
	const struct model *m;
	struct cost_request req;    /* what every pair shares; sizes and values per row */
	struct rank_table *tabs;    /* a table per point */
	const long long *values;    /* the sizes' values, nparams a point */
	int (*rows)[2];             /* job i counts row rows[i][1] of table rows[i][0] */
	const struct cost_prices *prices;
	const char *machine;        /* whose prices (NULL: -D's) */
	/* each candidate's symbolic formulas, where it has them and there are
	 * rows enough to evaluate them at (NULL: every row counted) */
	struct cost_formulas **formulas;
};

/* From this many rows a candidate, its symbolic formulas are computed once
 * and each row takes them at its point where they hold: a symbolic
 * analysis (a second or so; more where it refuses) against milliseconds a
 * row counted. */
enum { ROWS_FOR_FORMULAS = 32 };

/* Job C: candidate C's symbolic formulas, as expressions any thread can
 * evaluate. */
static void rank_formulas(struct worker *w, int c, void *user)
{
	struct rank_job *job = user;
	struct cost_request req = job->req;
	req.symbolic = true;
	struct candidate_cost cc;
	if (cost_candidate(&w->engine, job->m, c, &req, &cc) == COST_OK)
		job->formulas[c] = cost_formulas_from(&cc);
	candidate_cost_clear(&cc);
}

static void rank_pair(struct worker *w, int i, void *user)
{
	struct rank_job *job = user;
	struct rank_table *t = &job->tabs[job->rows[i][0]];
	struct rank_row *row = &t->rows[job->rows[i][1]];
	struct cost_request req = job->req;
	req.values = job->values + (size_t)job->rows[i][0] * (size_t)job->m->nparams;
	memcpy(req.sizes, t->shapes[row->shape], sizeof(req.sizes));
	struct candidate_cost cc;
	/* the same exact numbers: the formulas where they hold, else counted */
	const struct cost_formulas *f = job->formulas ? job->formulas[row->cand] : NULL;
	if (!f || cost_formulas_at(f, job->m, req.values, req.sizes, &cc) < 0)
		cost_candidate(&w->engine, job->m, row->cand, &req, &cc);
	rank_row_measure(row, &cc, job->prices, job->machine);
	candidate_cost_clear(&cc);
}

/* Why the shape of REQ gets no number (a malloc'd sentence, *STATUS its
 * kind), or NULL when its values can be counted, or when the deadline came
 * first (its pairs are then left late).  Every assumption as written counts,
 * a divisibility by an axis (n % P == 0) included, which the analysis of
 * given values takes as a fact for people only: a shape it rules out is not
 * one the specification describes. */
char *rank_shape_refusal(isl_ctx *ctx, const struct loaded_spec *ls, const struct model *m,
			   const struct options *opt, const struct cost_request *req,
			   const long long *values, enum rank_status *status)
{
	char *why = NULL;
	char *implicit = broken_implicit(ctx, m, opt, req);
	int meet = implicit ? 1 : values_meet_assumptions(ctx, m, opt, req);
	if (session_ctx_stopped(ctx)) {
		free(implicit);
		return NULL;
	}
	int nnamed = 0;
	char *named = implicit ? NULL : broken_assumptions(ls->ast, m, values, NULL, req->sizes, NULL, &nnamed);
	*status = RANK_OUTSIDE;
	if (implicit) {
		if (asprintf(&why, "breaks the implicit assumption %s", implicit) < 0)
			why = NULL;
		free(implicit);
	} else if (named) {
		if (asprintf(&why, "breaks the assumption%s %s", nnamed == 1 ? "" : "s", named) < 0)
			why = NULL;
		free(named);
	} else if (meet == 0) {
		/* broken, but by no condition as written (an imported one): all of them */
		int na = 0;
		char **all = spec_assumptions(ls->ast, &na);
		struct text t;
		if (text_open(&t) == 0) {
			fputs("breaks the assumptions (", t.f);
			for (int i = 0; i < na; i++)
				fprintf(t.f, "%s%s", i ? ", " : "", all[i]);
			fputs(")", t.f);
			why = text_close(&t);
		}
		for (int i = 0; i < na; i++)
			free(all[i]);
		free(all);
	} else if (meet < 0) {
		struct fail f = {0};
		fail_isl(&f, ctx, "checking the values against the assumptions");
		*status = RANK_FAILED;
		why = fail_release(&f);
	} else {
		return NULL;
	}
	return why ? why : strdup("cannot say why (out of memory)");
}

/* The Pareto set of T's ranked rows (their costs at g = l = 0, gcoef,
 * lcoef: rank_row_measure) into P.  Returns 0, or -1 when out of memory. */
static int every_machine_front(const struct rank_table *t, struct pareto *p)
{
	int n = t->nranked;
	mpq_t *a = malloc(sizeof(mpq_t) * (size_t)(n + 1)), *b = malloc(sizeof(mpq_t) * (size_t)(n + 1)),
	      *c = malloc(sizeof(mpq_t) * (size_t)(n + 1));
	int r = -1;
	if (a && b && c) {
		/* shallow copies: pareto_compute only reads them */
		for (int i = 0; i < n; i++) {
			*a[i] = *t->rows[i].cost;
			*b[i] = *t->rows[i].gcoef;
			*c[i] = *t->rows[i].lcoef;
		}
		r = pareto_compute(p, n, (const mpq_t *)a, (const mpq_t *)b, (const mpq_t *)c);
	}
	free(a);
	free(b);
	free(c);
	return r;
}

/* The table T of PROCS processes (or of SHAPE alone) at VALUES: every shape
 * checked against the assumptions, a row for each refused one and for each
 * candidate of the others, left to be counted (rank_count).  Returns 0, or -1
 * when out of memory. */
static int rank_prepare(const struct loaded_spec *ls, const struct model *m,
			const struct options *opt, struct session *session, long procs,
			const long *shape, const long long *values, struct rank_table *t)
{
	if ((shape ? rank_table_init_shape(t, shape, m->naxes)
		   : rank_table_init(t, procs, m->naxes)) < 0)
		return -1;
	struct cost_request base = {.h = opt->h_sum ? H_SUM : H_MAX, .values = values,
				    .model = opt->model, .messages = opt->messages};
	isl_ctx *ctx = session_ctx(session);
	if (!ctx)
		return -1;
	int r = 0;
	for (int s = 0; s < t->nshapes && r == 0; s++) {
		struct cost_request req = base;
		memcpy(req.sizes, t->shapes[s], sizeof(req.sizes));
		enum rank_status st = RANK_OK;
		char *why = rank_shape_refusal(ctx, ls, m, opt, &req, values, &st);
		if (why) {
			struct rank_row *row = rank_table_add_row(t, s, -1);
			if (row) {
				row->status = st;
				row->reason = why;
			} else {
				free(why);
				r = -1;
			}
			continue;
		}
		/* admissible (or not known to be, the deadline having come):
		 * a row per candidate, counted by rank_count or left late */
		for (int c = 0; c < m->ncands && r == 0; c++)
			if (!rank_table_add_row(t, s, c))
				r = -1;
	}
	session_ctx_free(session, ctx);
	return r;
}

/* Every candidate row of the NTABS tables TABS counted, on one pool of
 * workers (the points of a sweep share it: no thread waits for a point's
 * last pair; METER shows how far it is), then each table ranked.  VALUES holds the sizes of each table's
 * point, nparams apiece.  Returns an exit status. */
static int rank_count(const struct model *m, const struct options *opt, struct session *session,
		      const long long *values, const struct cost_prices *prices,
		      struct rank_table *tabs, int ntabs, struct progress_meter *meter,
		      struct cost_formulas **formulas, bool *formulas_tried)
{
	struct rank_job job = {.m = m, .tabs = tabs, .values = values, .prices = prices,
			       .machine = opt->machine ? opt->machine->name : NULL,
			       .req = {.h = opt->h_sum ? H_SUM : H_MAX, .model = opt->model,
				       .messages = opt->messages}};
	size_t total = 0;
	for (int k = 0; k < ntabs; k++)
		total += (size_t)tabs[k].nrows;
	job.rows = calloc(total + 1, sizeof(*job.rows));
	if (!job.rows)
		return -1;
	int njobs = 0;
	for (int k = 0; k < ntabs; k++)
		for (int i = 0; i < tabs[k].nrows; i++)
			if (tabs[k].rows[i].cand >= 0) {
				job.rows[njobs][0] = k;
				job.rows[njobs++][1] = i;
			}
	struct worker_pool *pool = NULL;
	/* FORMULAS (one per candidate, the caller's) are computed once for
	 * every process count: they do not depend on it */
	if (formulas && !*formulas_tried && njobs >= ROWS_FOR_FORMULAS * m->ncands &&
	    !session_expired(session)) {
		*formulas_tried = true;
		job.formulas = formulas;
		pool = workers_run_ordered(session, workers_threads(opt->jobs, m->ncands),
					   m->ncands, NULL, m->ncands, rank_formulas, &job,
					   engine_setup,
					   progress_pool(meter, "formulas of the candidates"));
		workers_free(pool);
		pool = NULL;
	}
	job.formulas = formulas && *formulas_tried ? formulas : NULL;
	if (njobs > 0 && !session_expired(session)) {
		pool = workers_run_ordered(session, workers_threads(opt->jobs, njobs), njobs, NULL,
					   njobs, rank_pair, &job, engine_setup,
					   progress_pool(meter, "rows of %ld processes", tabs[0].procs));
		if (!pool) {
			free(job.rows);
			return -1;
		}
	}
	workers_free(pool);
	free(job.rows);
	int status = EXIT_OK;
	for (int k = 0; k < ntabs; k++) {
		struct rank_table *t = &tabs[k];
		rank_table_sort(t);
		if (t->nuncounted > 0)
			status = EXIT_SPEC;   /* the best is not proven */
	}
	return status;
}

/* The range of OPT for NAME, or NULL. */
static const struct sweep *find_sweep(const struct options *opt, const char *name)
{
	for (int i = 0; i < opt->nsweeps; i++)
		if (strcmp(opt->sweeps[i].name, name) == 0)
			return &opt->sweeps[i];
	return NULL;
}

/* The value of range SW at its I-th point. */
static long long sweep_value(const struct sweep *sw, int i)
{
	long long v = sw->lo;
	while (i-- > 0)
		v = sw->geometric ? v * sw->step : v + sw->step;
	return v;
}

/* What one ranking run holds: the counts ranked, the points of its ranges
 * and a table of each. */
struct rank_run {
	bool fixed;                 /* no -p: the grid given, ranked at each point */
	long shape[3];              /* ... that grid */
	long fixed_procs;
	const long *procs;          /* the counts ranked, NPROCS of them */
	int nprocs;
	bool every_machine;         /* no g and l: the rows no machine makes lose */
	int npoints;                /* of the ranges (1 without) */
	int nvalues;                /* a point's: every size, then the coefficients */
	long long *values;          /* every point's sizes, nparams a point */
	struct param_value *given;  /* every point's values, NVALUES a point */
	const char **cands;
	struct rank_table *tabs;    /* a table per point */
	struct pareto *fronts;
	struct ranking *rs;
	int nswept;
	int *swept;                 /* the swept sizes, in the command line's order */
	/* each candidate's symbolic formulas, for every process count
	 * (rank_count); without them (out of memory) every row is counted */
	struct cost_formulas **formulas;
	bool formulas_tried;
};

/* The grid of R: -p's counts, or the grid given (a range without -p), each
 * -D of an axis checked against it; EXIT_OK, or EXIT_USAGE after saying why. */
static int rank_grid(const struct loaded_spec *ls, const struct model *m,
		     const struct options *opt, struct rank_run *r)
{
	const char *file = ls->src.name;
	/* without -p, a sweep ranks the candidates on the grid given */
	bool fixed = r->fixed = opt->nprocs == 0;
	long *shape = r->shape;
	shape[0] = shape[1] = shape[2] = 1;
	if (m->naxes == 0 && !fixed) {
		report_error(opt->err, file, "-p ranks the shapes of the grid, and this "
					     "specification has no grid");
		return EXIT_USAGE;
	}
	if (fixed && grid_option_check(file, m, opt) != EXIT_OK)
		return EXIT_USAGE;
	for (int a = 0; a < m->naxes; a++) {
		const struct param_value *pv = options_find_def(opt, m->axes[a]);
		if (!fixed && (pv || find_sweep(opt, m->axes[a]))) {
			report_error(opt->err, file,
				     "-p gives the grid its shapes: -D %s cannot be combined "
				     "with it", m->axes[a]);
			return EXIT_USAGE;
		}
		if (fixed && find_sweep(opt, m->axes[a])) {
			report_error(opt->err, file,
				     "-D %s: a range of an axis: rank the shapes with -p instead",
				     m->axes[a]);
			return EXIT_USAGE;
		}
		if (fixed && opt->grid_naxes == m->naxes) {
			shape[a] = opt->grid[a];
		} else if (fixed && pv && (pv->value < 1 || pv->value > RANK_MAX_PROCS)) {
			report_error(opt->err, file,
				     "-D %s=%lld: the size of an axis is between 1 and %ld",
				     m->axes[a], pv->value, (long)RANK_MAX_PROCS);
			return EXIT_USAGE;
		} else if (fixed && pv) {
			shape[a] = (long)pv->value;
		} else if (fixed) {
			report_error(opt->err, file,
				     "a range of values needs a grid: --grid, -D of every axis, "
				     "or -p to rank the shapes");
			return EXIT_USAGE;
		}
	}
	r->fixed_procs = shape[0] * shape[1] * shape[2];
	r->procs = fixed ? &r->fixed_procs : opt->procs;
	r->nprocs = fixed ? 1 : opt->nprocs;
	return EXIT_OK;
}

/* What ranking R needs of the values: every size, and the coefficients
 * (-D or a machine for every count) unless none is given under
 * w + h*g + l (R->every_machine).  Without every size and any range, the
 * symbolic analysis is printed with the values to give.  Returns -1 to go
 * on, else the run's exit status. */
static int rank_needs(const struct loaded_spec *ls, const struct model *m,
		      const struct options *opt, struct session *session, struct rank_run *r)
{
	const char *file = ls->src.name;
	bool fixed = r->fixed;
	const struct cost_model *cm = opt->model;
	const char **missing = calloc((size_t)m->nparams + COEF_N + 1, sizeof(*missing));
	if (!missing) {
		report_error(opt->err, file, "out of memory");
		return EXIT_SPEC;
	}
	int nmissing = 0;
	for (int i = 0; i < model_nsizes(m); i++)
		if (!options_find_def(opt, m->params[i]) && !find_sweep(opt, m->params[i]))
			missing[nmissing++] = m->params[i];
	bool sizes = nmissing == 0;
	int nsizes_missing = nmissing;
	for (int k = 0; !opt->machine && k < cm->ncoefs; k++)
		if (!options_find_def(opt, cm->coef_names[k]))
			missing[nmissing++] = cm->coef_names[k];
	if (!sizes && !fixed && opt->nsweeps == 0) {
		/* the formulas in the axes, once, and what to give to rank (a
		 * machine's coefficients need a number of processes: not yet) */
		struct options symbolic = *opt;
		symbolic.machine = NULL;
		/* a sink that takes no analysis (the library's ranking): the
		 * values to give, without formulas nothing reads */
		int status = opt->sink && !opt->sink->analysis
				     ? EXIT_OK : analyze_model(ls, m, &symbolic, session);
		/* under w + h*g + l, g and l are optional: without them, the
		 * ranking is for every machine */
		int optional = !opt->machine && rank_model_linear(cm) &&
			       nmissing == nsizes_missing + cm->ncoefs ? cm->ncoefs : 0;
		report_rank_needs_values(opt->format == FORMAT_TEXT ? opt->out : opt->err, file,
					 opt->procs, opt->nprocs, missing, nmissing, optional);
		free(missing);
		return status;
	}
	/* every size and no coefficient, under w + h*g + l: the rows no
	 * other beats for any machine, and where each is the best */
	bool every_machine = sizes && !fixed && opt->nsweeps == 0 && !opt->machine &&
			     rank_model_linear(cm) && cm->ncoefs > 0 && nmissing == cm->ncoefs;
	r->every_machine = every_machine;
	if (nmissing > 0 && !every_machine) {
		struct text t;
		if (text_open(&t) == 0) {
			fprintf(t.f, "%s by the cost %s, which needs %s",
				fixed ? "a range of values ranks the candidates" : "-p ranks", cm->text,
				sizes ? "" : "every size, ");
			for (int k = 0; k < cm->ncoefs; k++)
				fprintf(t.f, "%s%s",
					k == 0 ? "" : k + 1 == cm->ncoefs ? " and " : ", ",
					cm->coef_names[k]);
			fputs(": give", t.f);
			for (int i = 0; i < nmissing; i++)
				fprintf(t.f, " -D %s=VALUE", missing[i]);
			/* every size given: only coefficients are missing; what
			 * ranks without them */
			if (sizes && !fixed && !opt->machine && rank_model_linear(cm)) {
				if (opt->nsweeps > 0)
					fputs(" (a range of values needs them; without one, -p ranks "
					      "for every machine)", t.f);
				else
					fputs(" (or neither, to rank for every machine)", t.f);
			}
		}
		free(missing);
		return report_text_error(opt->err, file, &t, EXIT_USAGE);
	}
	free(missing);
	/* a machine prices every count ranked, or nothing is counted */
	for (int p = 0; opt->machine && p < r->nprocs; p++) {
		struct machine_pick pick;
		int got = machine_for(opt->machine, cm, r->procs[p], file, &pick, opt->err);
		machine_pick_clear(&pick);
		if (got < 0)
			return EXIT_USAGE;
	}
	return -1;
}

/* R's tables and values allocated, every point's values set; 0, or -1 when
 * out of memory. */
static int rank_points(const struct model *m, const struct options *opt, struct rank_run *r)
{
	const struct cost_model *cm = opt->model;
	/* every size, then the coefficients: what the values are counted at;
	 * one copy of them per point of the sweep (one point without) */
	r->npoints = 1;
	for (int i = 0; i < opt->nsweeps; i++)
		r->npoints *= opt->sweeps[i].npoints;
	r->nvalues = model_nsizes(m) + cm->ncoefs;
	size_t npoints = (size_t)r->npoints;
	r->values = calloc((size_t)m->nparams * npoints + 1, sizeof(*r->values));
	r->given = calloc((size_t)r->nvalues * npoints + 1, sizeof(*r->given));
	r->cands = calloc((size_t)m->ncands + 1, sizeof(*r->cands));
	r->tabs = calloc(npoints, sizeof(*r->tabs));
	r->fronts = calloc(npoints, sizeof(*r->fronts));
	r->rs = calloc(npoints, sizeof(*r->rs));
	r->swept = calloc((size_t)opt->nsweeps + 1, sizeof(*r->swept));
	r->formulas = calloc((size_t)m->ncands + 1, sizeof(*r->formulas));
	if (!r->values || !r->given || !r->cands || !r->tabs || !r->fronts || !r->rs || !r->swept)
		return -1;
	struct param_value *given = r->given;
	for (int i = 0; i < model_nsizes(m); i++) {
		const struct param_value *pv = options_find_def(opt, m->params[i]);
		if (pv)
			given[i] = *pv;
		else
			given[i] = (struct param_value){.value = find_sweep(opt, m->params[i])->lo,
							.den = 1};
		given[i].name = m->params[i];
	}
	/* the swept sizes, in the order of the command line */
	for (int k = 0; k < opt->nsweeps; k++)
		for (int i = 0; i < model_nsizes(m); i++)
			if (strcmp(m->params[i], opt->sweeps[k].name) == 0)
				r->swept[r->nswept++] = i;
	for (int k = 0; !opt->machine && k < cm->ncoefs; k++)
		given[model_nsizes(m) + k] = r->every_machine
			? (struct param_value){.name = cm->coef_names[k], .value = 0, .den = 1}
			: *options_find_def(opt, cm->coef_names[k]);
	for (int c = 0; c < m->ncands; c++)
		r->cands[c] = m->cands[c].name;
	return 0;
}

/* The tables of process count number P of R counted and reported (one, or
 * one per point of the ranges); *TABLES and *LATE counted on.  Returns the
 * exit status of this count. */
static int rank_count_procs(const struct loaded_spec *ls, const struct model *m,
			    const struct options *opt, struct session *session, struct rank_run *r,
			    int p, int *tables, struct progress_meter *meter, int *late)
{
	const char *file = ls->src.name;
	const struct cost_model *cm = opt->model;
	int status = EXIT_OK;
	/* the coefficients: -D's, or the machine's for this count */
	struct machine_pick pick;
	if (opt->machine) {
		machine_for(opt->machine, cm, r->procs[p], file, &pick, opt->err);
		memcpy(r->given + model_nsizes(m), pick.coefs,
		       (size_t)pick.ncoefs * sizeof(*r->given));
	} else {
		memset(&pick, 0, sizeof(pick));
		cost_prices_init(&pick.prices, cm);
		mpq_init(pick.per_second);
		for (int k = 0; k < cm->ncoefs; k++)
			for (int c = 0; c < COEF_N; c++)
				if (strcmp(cost_coef_name[c], cm->coef_names[k]) == 0) {
					param_value_get(pick.prices.coef[c],
							&r->given[model_nsizes(m) + k]);
					pick.prices.has[c] = true;
				}
	}
	int got = 0;
	for (int pt = 0; pt < r->npoints && got == 0; pt++) {
		/* the point's values: the first range varies slowest */
		struct param_value *at = r->given + (size_t)pt * (size_t)r->nvalues;
		long long *sizes = r->values + (size_t)pt * (size_t)m->nparams;
		if (pt > 0)
			memcpy(at, r->given, (size_t)r->nvalues * sizeof(*at));
		for (int k = opt->nsweeps - 1, rest = pt; k >= 0; k--) {
			at[r->swept[k]].value = sweep_value(&opt->sweeps[k],
							    rest % opt->sweeps[k].npoints);
			rest /= opt->sweeps[k].npoints;
		}
		for (int i = 0; i < model_nsizes(m); i++)
			sizes[i] = at[i].value;
		got = rank_prepare(ls, m, opt, session, r->procs[p], r->fixed ? r->shape : NULL,
				   sizes, &r->tabs[pt]);
		r->rs[pt] = (struct ranking){
			.file = file, .naxes = m->naxes, .axes = (const char *const *)m->axes,
			.ncands = m->ncands, .cands = r->cands,
			/* for every machine: the sizes, no g = 0 */
			.nvalues = r->every_machine ? model_nsizes(m) : r->nvalues,
			.values = at, .t = &r->tabs[pt], .top = opt->top,
			.machine = opt->machine ? opt->machine->name : NULL,
			.speed = pick.timed ? pick.per_second : NULL,
			.model = cm,
			.digits = opt->digits,
			.first = *tables == 0 && pt == 0,
			.nswept = r->nswept, .swept = r->swept,
		};
	}
	if (got == 0)
		got = rank_count(m, opt, session, r->values, &pick.prices, r->tabs, r->npoints,
				 meter, r->formulas, &r->formulas_tried);
	progress_end(meter);   /* the line erased before the table is printed */
	if (got < 0) {
		report_error(opt->err, file, "out of memory");
		status = EXIT_SPEC;
	} else if (got > status) {
		status = got;
	}
	int done = 0;
	for (int pt = 0; pt < r->npoints && got >= 0; pt++) {
		if (!r->tabs[pt].sorted)
			break;
		if (r->every_machine) {
			if (every_machine_front(&r->tabs[pt], &r->fronts[pt]) < 0) {
				report_error(opt->err, file, "out of memory");
				status = EXIT_SPEC;
				break;
			}
			r->rs[pt].every_machine = &r->fronts[pt];
		}
		*late += r->tabs[pt].nlate > 0;
		done++;
		if (opt->sink) {
			/* the library: each point's ranking as data */
			if (opt->sink->ranking && opt->sink->ranking(opt->sink->user, &r->rs[pt]) < 0) {
				report_error(opt->err, file, "out of memory");
				status = EXIT_SPEC;
			}
			continue;
		}
		if (opt->nsweeps > 0)
			continue;
		report_ranking(opt->out, opt->format, &r->rs[pt], *tables);
		++*tables;
		int ps = opt->plot ? plot_exit_status(plot_ranking(&r->rs[pt], opt->plot,
								   opt->err, session))
				   : EXIT_OK;
		if (status < ps)
			status = ps;
	}
	if (opt->nsweeps > 0 && done > 0 && !opt->sink) {
		report_sweep(opt->out, opt->format, r->rs, done, *tables);
		++*tables;
		int ps = opt->plot ? plot_exit_status(plot_sweep(r->rs, done, opt->plot,
								 opt->err, session))
				   : EXIT_OK;
		if (status < ps)
			status = ps;
	}
	for (int pt = 0; pt < r->npoints; pt++) {
		rank_table_clear(&r->tabs[pt]);
		pareto_clear(&r->fronts[pt]);
		r->rs[pt].every_machine = NULL;
	}
	machine_pick_clear(&pick);
	return status;
}

static void rank_run_clear(const struct model *m, struct rank_run *r)
{
	free(r->values);
	free(r->given);
	free(r->cands);
	free(r->tabs);
	free(r->fronts);
	free(r->rs);
	free(r->swept);
	for (int c = 0; r->formulas && c < m->ncands; c++)
		cost_formulas_free(r->formulas[c]);
	free(r->formulas);
}

int rank_model(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
	       struct session *session, int *tables)
{
	if (opt->hierarchy)
		return hierarchy_rank_model(ls, m, opt, session);
	struct rank_run r = {.fixed = false};
	int status = rank_grid(ls, m, opt, &r);
	if (status != EXIT_OK)
		return status;
	status = rank_needs(ls, m, opt, session, &r);
	if (status >= 0)
		return status;
	if (rank_points(m, opt, &r) < 0) {
		rank_run_clear(m, &r);
		report_error(opt->err, ls->src.name, "out of memory");
		return EXIT_SPEC;
	}
	status = EXIT_OK;
	int late = 0;
	struct progress_meter meter;
	progress_start(&meter, opt->err);
	for (int p = 0; p < r.nprocs; p++) {
		if ((p > 0 || *tables > 0) && session_expired(session)) {
			/* the deadline passed: the counts left are named, not tabled */
			report_rank_not_started(opt->format == FORMAT_TEXT ||
						opt->format == FORMAT_MARKDOWN ? opt->out : opt->err,
						ls->src.name, r.procs + p, r.nprocs - p);
			late++;
			status = EXIT_SPEC;
			break;
		}
		int st = rank_count_procs(ls, m, opt, session, &r, p, tables, &meter, &late);
		if (status < st)
			status = st;
	}
	if (late)
		report_deadline(opt->err, ls->src.name, session_limit(session), 0, 0, 0);
	rank_run_clear(m, &r);
	return status;
}
