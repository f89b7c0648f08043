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

#include "analyzer/cli/analyze.h"
#include "analyzer/cli/commands.h"
#include "analyzer/cli/plot.h"
#include "analyzer/cost/workers.h"
#include "analyzer/decide/rank.h"
#include "analyzer/report/report.h"
#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"

/* One process count's rows being counted by the workers. */
struct rank_job {
	const struct model *m;
	struct cost_request req;    /* the sizes' values; the grid is each row's shape */
	struct rank_table *t;
	int *rows;                  /* job i counts row rows[i] */
	mpq_srcptr g, l;
};

static void rank_pair(struct worker *w, int i, void *user)
{
	struct rank_job *job = user;
	struct rank_row *row = &job->t->rows[job->rows[i]];
	struct cost_request req = job->req;
	memcpy(req.sizes, job->t->shapes[row->shape], sizeof(req.sizes));
	struct candidate_cost cc;
	cost_candidate(&w->engine, job->m, row->cand, &req, &cc);
	rank_row_measure(row, &cc, job->g, job->l);
	candidate_cost_clear(&cc);
}

/* Why the shape of REQ gets no number (a malloc'd sentence, *STATUS its
 * kind), or NULL when its values can be counted, or when the deadline came
 * first (its pairs are then left late).  Every assumption as written counts,
 * a divisibility by an axis (n % P == 0) included, which the analysis of
 * given values takes as a fact for people only: a shape it rules out is not
 * one the specification describes. */
static char *shape_refusal(isl_ctx *ctx, const struct loaded_spec *ls, const struct model *m,
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

/* The ranking of PROCS processes into T: every shape checked against the
 * assumptions, then every pair of an admissible shape and a candidate
 * counted.  Returns an exit status. */
static int rank_procs(const struct loaded_spec *ls, const struct model *m,
		      const struct options *opt, struct session *session, long procs,
		      const long long *values, const mpq_t g, const mpq_t l, struct rank_table *t)
{
	if (rank_table_init(t, procs, m->naxes) < 0)
		goto nomem;
	struct rank_job job = {.m = m, .t = t, .g = g, .l = l,
			       .req = {.h = opt->h_sum ? H_SUM : H_MAX, .values = values}};
	int status = EXIT_OK;
	isl_ctx *ctx = session_ctx(session);
	if (!ctx)
		goto nomem;
	for (int s = 0; s < t->nshapes; s++) {
		struct cost_request req = job.req;
		memcpy(req.sizes, t->shapes[s], sizeof(req.sizes));
		enum rank_status st = RANK_OK;
		char *why = shape_refusal(ctx, ls, m, opt, &req, values, &st);
		if (why) {
			struct rank_row *row = rank_table_add_row(t, s, -1);
			if (!row) {
				free(why);
				session_ctx_free(session, ctx);
				goto nomem;
			}
			row->status = st;
			row->reason = why;
			continue;
		}
		/* admissible (or not known to be, the deadline having come):
		 * a row per candidate, counted below or left late */
		for (int c = 0; c < m->ncands; c++)
			if (!rank_table_add_row(t, s, c)) {
				session_ctx_free(session, ctx);
				goto nomem;
			}
	}
	session_ctx_free(session, ctx);

	job.rows = calloc((size_t)t->nrows + 1, sizeof(*job.rows));
	if (!job.rows)
		goto nomem;
	int njobs = 0;
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].cand >= 0)
			job.rows[njobs++] = i;
	struct worker_pool *pool = NULL;
	if (njobs > 0 && !session_expired(session)) {
		pool = workers_run_ordered(session, workers_threads(opt->jobs, njobs), njobs, NULL,
					   rank_pair, &job, engine_setup);
		if (!pool) {
			free(job.rows);
			goto nomem;
		}
	}
	workers_free(pool);
	free(job.rows);
	rank_table_sort(t);
	for (int i = t->nranked; i < t->nrows; i++)
		if (t->rows[i].status == RANK_REFUSED || t->rows[i].status == RANK_FAILED ||
		    t->rows[i].status == RANK_LATE)
			status = EXIT_SPEC;
	return status;
nomem:
	fprintf(opt->err, "bspcost: %s: out of memory\n", ls->src.name);
	return EXIT_SPEC;
}

int rank_model(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
	       struct session *session, int *tables)
{
	const char *file = ls->src.name;
	if (m->naxes == 0) {
		fprintf(opt->err, "bspcost: %s: -p ranks the shapes of the grid, and this "
				  "specification has no grid\n", file);
		return EXIT_USAGE;
	}
	for (int a = 0; a < m->naxes; a++)
		if (options_find_def(opt, m->axes[a])) {
			fprintf(opt->err, "bspcost: %s: -p gives the grid its shapes: -D %s cannot be "
					  "combined with it\n", file, m->axes[a]);
			return EXIT_USAGE;
		}
	const char **missing = calloc((size_t)m->nparams + 3, sizeof(*missing));
	if (!missing) {
		fprintf(opt->err, "bspcost: %s: out of memory\n", file);
		return EXIT_SPEC;
	}
	int nmissing = 0;
	for (int i = 0; i < m->nparams; i++)
		if (!options_find_def(opt, m->params[i]))
			missing[nmissing++] = m->params[i];
	bool sizes = nmissing == 0;
	if (!opt->machine && !options_find_def(opt, "g"))
		missing[nmissing++] = "g";
	if (!opt->machine && !options_find_def(opt, "l"))
		missing[nmissing++] = "l";
	if (!sizes) {
		/* the formulas in the axes, once, and what to give to rank (a
		 * machine's g and l need a number of processes: not yet) */
		struct options symbolic = *opt;
		symbolic.machine = NULL;
		int status = analyze_model(ls, m, &symbolic, session);
		report_rank_needs_values(opt->format == FORMAT_TEXT ? opt->out : opt->err, file,
					 opt->procs, opt->nprocs, missing, nmissing);
		free(missing);
		return status;
	}
	if (nmissing > 0) {
		fprintf(opt->err, "bspcost: %s: -p ranks by the cost w + h*g + l, which needs g and "
				  "l: give", file);
		for (int i = 0; i < nmissing; i++)
			fprintf(opt->err, " -D %s=VALUE", missing[i]);
		fputs("\n", opt->err);
		free(missing);
		return EXIT_USAGE;
	}
	free(missing);
	/* a machine lists every count ranked, or nothing is counted */
	struct param_value gl[2];
	for (int p = 0; opt->machine && p < opt->nprocs; p++)
		if (!machine_for(opt->machine, opt->procs[p], file, gl, opt->err))
			return EXIT_USAGE;

	/* every size, then g and l: what the values are counted at */
	int nvalues = m->nparams + 2;
	long long *values = calloc((size_t)m->nparams + 1, sizeof(*values));
	struct param_value *given = calloc((size_t)nvalues, sizeof(*given));
	const char **cands = calloc((size_t)m->ncands + 1, sizeof(*cands));
	if (!values || !given || !cands) {
		free(values);
		free(given);
		free(cands);
		fprintf(opt->err, "bspcost: %s: out of memory\n", file);
		return EXIT_SPEC;
	}
	for (int i = 0; i < m->nparams; i++) {
		given[i] = *options_find_def(opt, m->params[i]);
		given[i].name = m->params[i];
		values[i] = given[i].value;
	}
	mpq_t g, l, speed;
	mpq_inits(g, l, speed, NULL);
	if (!opt->machine) {
		given[m->nparams] = *options_find_def(opt, "g");
		given[m->nparams + 1] = *options_find_def(opt, "l");
	}
	for (int c = 0; c < m->ncands; c++)
		cands[c] = m->cands[c].name;

	int status = EXIT_OK, late = 0;
	for (int p = 0; p < opt->nprocs; p++) {
		if ((p > 0 || *tables > 0) && session_expired(session)) {
			/* the deadline passed: the counts left are named, not tabled */
			report_rank_not_started(opt->format == FORMAT_TEXT ||
						opt->format == FORMAT_MARKDOWN ? opt->out : opt->err,
						file, opt->procs + p, opt->nprocs - p);
			late++;
			status = EXIT_SPEC;
			break;
		}
		/* g and l: -D's, or the machine's for this count */
		const struct machine_entry *e =
			opt->machine ? machine_for(opt->machine, opt->procs[p], file,
						   given + m->nparams, opt->err) : NULL;
		bool timed = e && machine_speed(opt->machine, e, speed) == 0;
		param_value_get(g, &given[m->nparams]);
		param_value_get(l, &given[m->nparams + 1]);
		struct rank_table t;
		int st = rank_procs(ls, m, opt, session, opt->procs[p], values, g, l, &t);
		if (st > status)
			status = st;
		if (t.sorted) {
			struct ranking r = {
				.file = file, .naxes = m->naxes, .axes = (const char *const *)m->axes,
				.ncands = m->ncands, .cands = cands, .nvalues = nvalues,
				.values = given, .t = &t, .top = opt->top,
				.machine = opt->machine ? opt->machine->name : NULL,
				.speed = timed ? speed : NULL,
				.digits = opt->digits,
				.first = *tables == 0,
			};
			late += t.nlate > 0;
			switch (opt->format) {
			case FORMAT_JSON:
				report_rank_json(opt->out, &r);
				break;
			case FORMAT_CSV:
				report_rank_csv(opt->out, &r);
				break;
			case FORMAT_MARKDOWN:
				if (*tables > 0)
					fputs("\n", opt->out);
				report_rank_markdown(opt->out, &r);
				break;
			default:
				if (*tables > 0)
					fputs("\n", opt->out);
				report_rank_text(opt->out, &r);
				break;
			}
			++*tables;
			if (opt->plot && plot_ranking(&r, opt->plot, opt->err) != 0 &&
			    status < EXIT_USAGE)
				status = EXIT_USAGE;
		}
		rank_table_clear(&t);
	}
	if (late)
		report_deadline(opt->err, file, session_limit(session), 0, 0, 0);
	free(values);
	free(given);
	mpq_clears(g, l, speed, NULL);
	free(cands);
	return status;
}
