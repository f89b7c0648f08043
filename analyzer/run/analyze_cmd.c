/* One analysis: the candidates of a loaded specification counted and reported
 * as a request asks (analyze_model; the files and their names:
 * analyze_file.c). */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/set.h>

#include "analyzer/run/analyze.h"
#include "analyzer/run/progress.h"
#include "analyzer/run/plot.h"
#include "analyzer/util/number.h"
#include "analyzer/run/commands.h"
#include "analyzer/cost/cost.h"
#include "analyzer/check/load.h"
#include "analyzer/model/lower.h"
#include "analyzer/model/relations.h"
#include "analyzer/report/report.h"
#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"
#include "grammar/diag.h"
#include "analyzer/cost/verify.h"
#include "analyzer/cost/workers.h"
#include "analyzer/util/limits.h"

/* "n = 2, P = 3": the values that went into the check above. */
static void print_given(FILE *out, const struct model *m, const struct options *opt,
			const struct cost_request *req)
{
	int k = 0;
	for (int a = 0; !req->symbolic && a < m->naxes; a++)
		if (!options_find_def(opt, m->axes[a]))
			fprintf(out, "%s%s = %ld", k++ ? ", " : "", m->axes[a], req->sizes[a]);
	for (int i = 0; i < opt->ndefs; i++) {
		bool known = false;
		for (int p = 0; p < model_nsizes(m) && !known; p++)
			known = strcmp(m->params[p], opt->defs[i].name) == 0;
		for (int a = 0; a < m->naxes && !known; a++)
			known = strcmp(m->axes[a], opt->defs[i].name) == 0;
		if (known)
			fprintf(out, "%s%s = %lld", k++ ? ", " : "", opt->defs[i].name,
				opt->defs[i].value);
	}
}

/* broken_assumptions at the values given: -D, and the grid of REQ when
 * concrete. */
static char *given_breaks(const struct loaded_spec *ls, const struct model *m,
			  const struct options *opt, const struct cost_request *req, int *n)
{
	long long values[m->nparams + 1];
	bool pknown[m->nparams + 1], aknown[3] = {false, false, false};
	long sizes[3] = {0, 0, 0};
	for (int i = 0; i < m->nparams; i++) {
		/* the loops' variables have no value: no assumption names them */
		const struct param_value *pv =
			i < model_nsizes(m) ? options_find_def(opt, m->params[i]) : NULL;
		pknown[i] = pv != NULL;
		values[i] = pv ? pv->value : 0;
	}
	for (int a = 0; a < m->naxes; a++) {
		const struct param_value *pv = options_find_def(opt, m->axes[a]);
		aknown[a] = !req->symbolic || pv;
		sizes[a] = !req->symbolic ? req->sizes[a] : pv ? (long)pv->value : 0;
	}
	*n = 0;
	return broken_assumptions(ls->ast, m, values, pknown, sizes, aknown, n);
}

static void clear_costs(struct candidate_cost *c, int n)
{
	for (int i = 0; c && i < n; i++)
		candidate_cost_clear(&c[i]);
	free(c);
}

/* Everything computed for the candidates, one slot each, filled by the workers. */
struct candidates_job {
	const struct model *m;
	const struct cost_request *req;
	struct cost_request at;             /* the grid of the -D values, when all are given */
	int verify;                         /* --verify points, 0 when off */
	unsigned seed;
	struct candidate_cost *costs;
	struct candidate_cost *exact;       /* on the grid AT, or NULL */
	bool skip_formulas;                 /* values only (--values, --per-process) */
	struct verify_result *vr;           /* with --verify */
	int *vstatus;
	bool *late;                         /* the run's deadline stopped its formulas */
	bool *late_values;                  /* ... its values (on the grid AT) */
	struct session *session;
};

void engine_setup(struct count_engine *e)
{
	/* The pieces of a count, on every grid (the symbolic grid's grow with
	 * its axes past two: cost.c).  Boundary cases of a 2-D stencil on a
	 * symbolic grid (M == 1, M == 2, M >= 3, times the same for N) need
	 * more pieces than a single count;
	 * a 9-point stencil dealt round over both axes, whose diagonal
	 * neighbours wrap around on either axis, needs more than 128.  (No
	 * example, target or brute-force specification needs more than 64:
	 * each is counted the same with 64 and with 192.) */
	e->max_pieces = 192;
}

/* The order in which the candidates are handed to the threads: the likely
 * longest first, so that no thread starts a long one when the others are done.
 * A guess only (it changes no result): each cyclic or block-cyclic dimension
 * adds boundary cases (the neighbours of the last process wrap around), so
 * candidates with more of them come first; ties keep their order. */
static int *schedule(const struct model *m)
{
	int *order = calloc((size_t)m->ncands + 1, sizeof(*order));
	int *weight = calloc((size_t)m->ncands + 1, sizeof(*weight));
	if (!order || !weight) {
		free(order);
		free(weight);
		return NULL;
	}
	for (int c = 0; c < m->ncands; c++) {
		for (int a = 0; a < m->narrays; a++)
			for (int d = 0; d < m->arrays[a].ndims; d++) {
				enum dist_kind k = m->cands[c].layout[a][d].kind;
				weight[c] += k == DIST_CYCLIC || k == DIST_BLOCK_CYCLIC;
			}
		/* insertion: stable, descending weight */
		int i = c;
		while (i > 0 && weight[order[i - 1]] < weight[c]) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = c;
	}
	free(weight);
	return order;
}

/* With every value given, the formulas of a concrete grid larger than this
 * are the symbolic grid's only (cost_request.symbolic_only): counted process
 * by process they take seconds at 16 processes and minutes at 64, while the
 * values take milliseconds. */
enum { VALUES_FORMULA_PROCESSES = 16 };

/* CC, which its share of the deadline stopped (workers.h): its reason says so,
 * rather than that the run's time ran out. */
static void share_spent(struct candidate_cost *cc, double share, const struct session *session)
{
	char *why = NULL;
	if (asprintf(&why, "its share of the run's time limit (%.3g s of the %g s, while other "
			   "candidates waited) ran out before it was finished; --timeout S gives "
			   "each candidate more", share, session_limit(session)) < 0)
		return;
	free(cc->reason);
	cc->reason = why;
}

/* Job C < ncands: the formulas of candidate C (and --verify's points);
 * job ncands + C: its values at the -D values.  The values are handed out
 * first (milliseconds each), so that a deadline the formulas run into never
 * takes the values with it. */
static void analyze_candidate(struct worker *w, int c, void *user)
{
	struct candidates_job *job = user;
	if (c >= job->m->ncands) {
		c -= job->m->ncands;
		cost_candidate(&w->engine, job->m, c, &job->at, &job->exact[c]);
		if (job->exact[c].timed_out)
			job->late_values[c] = true;
		return;
	}
	if (job->skip_formulas) {
		struct candidate_cost *cc = &job->costs[c];
		memset(cc, 0, sizeof(*cc));
		cc->name = job->m->cands[c].name;
		cc->status = COST_REFUSED;
		const struct cost_model *cm = job->req->model;
		int r = cm && cm->messages != MSG_NONE
				? asprintf(&cc->reason, "formulas not computed: --model %s weighs "
							"each process's words and messages together, "
							"at the values given", cm->name)
				: asprintf(&cc->reason, "formulas not computed (--values)");
		cc->any_grid = cm && cm->messages != MSG_NONE;
		if (r < 0)
			cc->reason = NULL;
	} else {
		cost_candidate(&w->engine, job->m, c, job->req, &job->costs[c]);
	}
	if (job->verify > 0) {
		/* each candidate its own points, whatever thread draws them */
		unsigned seed = job->seed + 7919u * (unsigned)c;
		struct verify_result *vr = &job->vr[c];
		job->vstatus[c] = verify_candidate(w->ctx, &w->engine, job->m, c, job->req,
						   &job->costs[c], job->verify, &seed, vr);
	}
	if (job->costs[c].timed_out)
		job->late[c] = true;
	double share;
	if (job->costs[c].timed_out && session_ctx_share_spent(job->session, w->ctx, &share))
		share_spent(&job->costs[c], share, job->session);
}

int grid_option_check(const char *file, const struct model *m, const struct options *opt)
{
	if (opt->grid_naxes == 0)
		return EXIT_OK;
	if (opt->grid_naxes != m->naxes) {
		report_error(opt->err, file, "--grid gives %d axis size%s but the grid has %d",
			     opt->grid_naxes, opt->grid_naxes == 1 ? "" : "s", m->naxes);
		return EXIT_USAGE;
	}
	for (int a = 0; a < m->naxes; a++) {
		const struct param_value *pv = options_find_def(opt, m->axes[a]);
		if (pv && pv->value != opt->grid[a]) {
			report_error(opt->err, file,
				     "--grid gives %s = %ld but -D %s=%lld: give the axis one "
				     "size", m->axes[a], opt->grid[a], m->axes[a], pv->value);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int analyze_at(const struct loaded_spec *ls, const struct model *m,
		      const struct options *opt, struct session *session);

/* With --machine: the number of processes (the --grid, or -D of every axis)
 * picks the cost function's coefficients from the profile, appended to the
 * -D values; and its speed gives seconds. */
int analyze_model(const struct loaded_spec *ls, const struct model *m,
		  const struct options *opt, struct session *session)
{
	/* without a machine, or with a --grid of the wrong axes (said there) */
	if (!opt->machine || opt->hierarchy || (opt->grid_naxes > 0 && opt->grid_naxes != m->naxes))
		return analyze_at(ls, m, opt, session);
	long p = 1;
	for (int a = 0; a < m->naxes; a++) {
		const struct param_value *pv = options_find_def(opt, m->axes[a]);
		if (opt->grid_naxes == m->naxes) {
			p *= opt->grid[a];
		} else if (pv && (pv->value < 1 || pv->value > LIMIT_AXIS)) {
			report_error(opt->err, ls->src.name,
				     "the size of axis %s must be between 1 and " LIMIT_TEXT(LIMIT_AXIS),
				     m->axes[a]);
			return EXIT_USAGE;
		} else if (pv) {
			p *= (long)pv->value;
		} else {
			report_error(opt->err, ls->src.name,
				     "--machine %s gives the coefficients of the cost for a "
				     "number of processes: give --grid or -D for every axis, or "
				     "rank with -p", opt->machine->name);
			return EXIT_USAGE;
		}
	}
	struct options with = *opt;
	struct param_value *defs = calloc((size_t)opt->ndefs + COEF_N, sizeof(*defs));
	struct machine_pick pick;
	int r = machine_for(opt->machine, opt->model, p, ls->src.name, &pick, opt->err);
	if (!defs || r < 0) {
		if (!defs)
			report_error(opt->err, ls->src.name, "out of memory");
		free(defs);
		machine_pick_clear(&pick);
		return defs ? EXIT_USAGE : EXIT_SPEC;
	}
	memcpy(defs, opt->defs, (size_t)opt->ndefs * sizeof(*defs));
	memcpy(defs + opt->ndefs, pick.coefs, (size_t)pick.ncoefs * sizeof(*defs));
	with.defs = defs;
	with.ndefs = opt->ndefs + pick.ncoefs;
	with.speed_known = pick.timed;
	with.speed = pick.per_second;
	with.machine_procs = p;
	int status = analyze_at(ls, m, &with, session);
	machine_pick_clear(&pick);
	free(defs);
	return status;
}

/* What one analysis holds from its request to its report. */
struct analysis_run {
	struct cost_request req;
	int cmp[2];                  /* --compare's candidates, -1 without */
	struct candidates_job job;
	long long *values;           /* every size's value (job.at.values) */
	bool need_exact;             /* every value given: counted at them */
	struct topology from_profile;   /* --machine's levels, for --hierarchy */
	const struct topology *topo;
	struct worker_pool *pool;    /* NULL: out of memory */
	int asked, finished, cut;    /* candidates asked for, finished, --verify's cut short */
};

/* The grid OPT asks for into R->req (symbolic, or concrete by --grid or -D
 * of every axis); EXIT_OK, or EXIT_USAGE after saying why. */
static int request_grid(const struct loaded_spec *ls, const struct model *m,
			const struct options *opt, struct cost_request *req)
{
	*req = (struct cost_request){.h = opt->h_sum ? H_SUM : H_MAX, .symbolic = true,
				     .explain = opt->explain, .model = opt->model,
				     .all_sizes = opt->all_sizes, .messages = opt->messages};
	if (opt->grid_naxes > 0) {
		if (grid_option_check(ls->src.name, m, opt) != EXIT_OK)
			return EXIT_USAGE;
		req->symbolic = false;
		memcpy(req->sizes, opt->grid, sizeof(req->sizes));
	} else if (m->naxes > 0 && !all_values(m, opt)) {
		/* -D for every axis (and not every size) asks for a concrete grid; with
		 * every value given, the symbolic formulas are shown and the numbers
		 * come from that very grid (below). */
		bool every = true;
		for (int a = 0; a < m->naxes; a++) {
			const struct param_value *pv = options_find_def(opt, m->axes[a]);
			every &= pv != NULL;
			if (pv)
				req->sizes[a] = (long)pv->value;
		}
		req->symbolic = !every;
	}
	if (opt->all_sizes && req->symbolic && m->naxes > 0) {
		report_error(opt->err, ls->src.name,
			     "--all-sizes is for the formulas of a concrete grid: %s",
			     all_values(m, opt) ? "with every size and axis given by -D, the formulas "
						  "are the symbolic grid's; give the axes by --grid"
						: "give --grid (or -D for every axis)");
		return EXIT_USAGE;
	}
	if (opt->all_sizes && opt->hierarchy && all_params(m, opt)) {
		report_error(opt->err, ls->src.name,
			     "--hierarchy --all-sizes gives H(i)'s formulas for every size: "
			     "leave the sizes free (with every value given, H(i) is a number)");
		return EXIT_USAGE;
	}
	for (int a = 0; !req->symbolic && a < m->naxes; a++)
		if (req->sizes[a] < 1 || req->sizes[a] > LIMIT_AXIS) {
			report_error(opt->err, ls->src.name,
				     "the size of axis %s must be between 1 and " LIMIT_TEXT(LIMIT_AXIS),
				     m->axes[a]);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

/* --compare A B: the two candidates, by name, into CMP (-1, -1 without);
 * EXIT_OK, or EXIT_USAGE after saying which is not one. */
static int compare_pair(const struct loaded_spec *ls, const struct model *m,
			const struct options *opt, int cmp[2])
{
	cmp[0] = cmp[1] = -1;
	for (int k = 0; opt->compare[0] && k < 2; k++) {
		for (int c = 0; c < m->ncands && cmp[k] < 0; c++)
			if (strcmp(m->cands[c].name, opt->compare[k]) == 0)
				cmp[k] = c;
		if (cmp[k] < 0) {
			struct text t;
			if (text_open(&t) == 0) {
				fprintf(t.f, "--compare: no candidate '%s' (the candidates: ",
					opt->compare[k]);
				for (int c = 0; c < m->ncands; c++)
					fprintf(t.f, "%s%s", c ? ", " : "", m->cands[c].name);
				fputs(")", t.f);
			}
			return report_text_error(opt->err, ls->src.name, &t, EXIT_USAGE);
		}
	}
	return EXIT_OK;
}

/* The values given against the specification's assumptions and the
 * implicit ones (REQ's grid among them); EXIT_OK, else the status after
 * saying which they break (or that the deadline came first). */
static int values_admitted(const struct loaded_spec *ls, const struct model *m,
			   const struct options *opt, const struct cost_request *req,
			   struct session *session)
{
	isl_ctx *vctx = session_ctx(session);
	char *implicit = vctx ? broken_implicit(vctx, m, opt, req) : NULL;
	int meet = vctx ? values_meet_assumptions(vctx, m, opt, req) : -1;
	bool stopped = vctx && session_ctx_stopped(vctx);
	struct fail vfail = {0};
	if (meet < 0)
		fail_isl(&vfail, vctx, "checking the values given against the assumptions");
	session_ctx_free(session, vctx);
	if (stopped) {
		fail_clear(&vfail);
		report_deadline(opt->err, ls->src.name, session_limit(session), 0, 0, 0);
		free(implicit);
		return EXIT_SPEC;
	}
	struct text t;
	if (implicit) {
		if (text_open(&t) == 0) {
			fputs("the values given (", t.f);
			print_given(t.f, m, opt, req);
			fprintf(t.f, ") break the implicit assumption %s", implicit);
		}
		free(implicit);
		fail_clear(&vfail);
		return report_text_error(opt->err, ls->src.name, &t, EXIT_USAGE);
	}
	int nnamed = 0;
	char *named = meet >= 0 ? given_breaks(ls, m, opt, req, &nnamed) : NULL;
	if (named) {
		/* named as written, a divisibility by an axis included, which no
		 * set of the model holds */
		if (text_open(&t) == 0) {
			fputs("the values given (", t.f);
			print_given(t.f, m, opt, req);
			fprintf(t.f, ") break the assumption%s %s, under which alone the formulas "
				     "hold", nnamed == 1 ? "" : "s", named);
		}
		free(named);
		fail_clear(&vfail);
		return report_text_error(opt->err, ls->src.name, &t, EXIT_USAGE);
	}
	if (meet <= 0) {
		int status = meet == 0 ? EXIT_USAGE : EXIT_SPEC;
		if (meet == 0) {
			/* broken, but by no condition as written (an imported one): all of them */
			int na = 0;
			char **as = spec_assumptions(ls->ast, &na);
			bool none = req->symbolic && !options_give_sizes(opt, m); /* contradictory */
			if (text_open(&t) == 0) {
				fprintf(t.f, "%s (", none ? "no sizes meet the assumptions"
							  : "the values given");
				if (!none)
					print_given(t.f, m, opt, req);
				fputs(none ? "" : ") break the assumptions (", t.f);
				for (int i = 0; i < na; i++)
					fprintf(t.f, "%s%s", i ? ", " : "", as[i]);
				fputs(none ? "): there is nothing to analyze"
					   : "), under which alone the formulas hold", t.f);
			}
			for (int i = 0; i < na; i++)
				free(as[i]);
			free(as);
			status = report_text_error(opt->err, ls->src.name, &t, status);
		} else {
			report_error(opt->err, ls->src.name, "%s", fail_reason(&vfail));
		}
		fail_clear(&vfail);
		return status;
	}
	return EXIT_OK;
}

/* With every value given, R->job set to count them too (R->need_exact),
 * and what --per-process and --hierarchy need of the grid checked; else
 * what counting without them needs.  EXIT_OK, or EXIT_USAGE after saying
 * why. */
static int prepare_values(const struct loaded_spec *ls, const struct model *m,
			  const struct options *opt, struct analysis_run *r)
{
	struct cost_request *req = &r->req;
	struct candidates_job *job = &r->job;
	/* Every value known (-D, and --grid or -D for the axes): the numbers are
	 * counted directly for those values. */
	r->need_exact = r->values && (req->symbolic ? all_values(m, opt) : all_params(m, opt));
	if (r->need_exact) {
		job->at = *req;
		job->at.symbolic = false;
		job->at.explain = false;
		job->at.values = r->values;
		for (int i = 0; i < model_nsizes(m); i++)
			r->values[i] = options_find_def(opt, m->params[i])->value;
		for (int a = 0; req->symbolic && a < m->naxes; a++)
			job->at.sizes[a] = (long)options_find_def(opt, m->axes[a])->value;
		job->exact = calloc((size_t)m->ncands + 1, sizeof(*job->exact));
		long nproc = 1;
		for (int a = 0; a < m->naxes; a++)
			nproc *= req->sizes[a];
		/* a cost that prices messages is counted at values only */
		job->skip_formulas = opt->values_only || opt->per_process || opt->hierarchy ||
				     opt->model->messages != MSG_NONE;
		/* past a few processes, a grid's formulas counted process by
		 * process take minutes: the symbolic grid's only, unless
		 * --all-sizes asks */
		req->symbolic_only = !req->symbolic && !req->all_sizes &&
				     nproc > VALUES_FORMULA_PROCESSES;
		req->values_apart = !req->symbolic && !req->all_sizes;
		long at_procs = 1;
		for (int a = 0; a < m->naxes; a++)  /* no overflow: stops past the limit */
			if (at_procs <= PER_PROCESS_MAX)
				at_procs *= job->at.sizes[a] < 1 || job->at.sizes[a] > PER_PROCESS_MAX
						    ? PER_PROCESS_MAX + 1 : job->at.sizes[a];
		job->at.per_process = opt->per_process;
		job->at.hierarchy = opt->hierarchy;
		job->at.numbering = opt->numbering;
		job->at.map = opt->numbering_map;
		int k = opt->hierarchy ? hierarchy_levels(job->at.sizes, m->naxes) : 0;
		if (k < 0)
			report_hierarchy_grid(opt->err, ls->src.name, m->naxes,
					      (const char *const *)m->axes, job->at.sizes);
		char *bad_map = NULL;
		if (k >= 0 && opt->hierarchy && opt->numbering == NUMBERING_MAP &&
		    numbering_map_check(opt->numbering_map, job->at.sizes, m->naxes, &bad_map) < 0)
			report_error(opt->err, ls->src.name, "--numbering %s",
				     bad_map ? bad_map : "out of memory");
		if (k < 0 || bad_map ||
		    (opt->hierarchy && hierarchy_topology(opt, ls->src.name, k, &r->from_profile,
							  &r->topo) != EXIT_OK)) {
			free(bad_map);
			return EXIT_USAGE;
		}
		if (opt->per_process && at_procs > PER_PROCESS_MAX) {
			report_error(opt->err, ls->src.name,
				     "--per-process counts each process on its own: at most %d "
				     "processes (the grid has more)", PER_PROCESS_MAX);
			return EXIT_USAGE;
		}
	} else if (opt->hierarchy && !opt->values_only && !opt->per_process &&
		   opt->model->messages == MSG_NONE) {
		/* H(i)'s formulas in the sizes, on the concrete grid */
		if (hierarchy_formulas_asked(opt, ls->src.name, m, req->symbolic, req->sizes) !=
		    EXIT_OK)
			return EXIT_USAGE;
		req->hierarchy = true;
		req->numbering = opt->numbering;
	} else if (opt->values_only || opt->per_process || opt->hierarchy ||
		   opt->model->messages != MSG_NONE) {
		char model[64];
		snprintf(model, sizeof(model), "--model %s", opt->model->name);
		report_error(opt->err, ls->src.name,
			     "%s needs a value for every size and axis (-D, and -D or --grid for "
			     "the axes)%s",
			     opt->per_process ? "--per-process" : opt->values_only ? "--values"
				: opt->model->messages != MSG_NONE ? model : "--hierarchy",
			     opt->model->messages == MSG_NONE || opt->values_only || opt->per_process
				? ""
				: ": it weighs each process's words and messages together, "
				  "process by process");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Every candidate asked for counted on R's pool of workers (R->pool NULL
 * when out of memory). */
static void count_candidates(const struct model *m, const struct options *opt,
			     struct session *session, struct analysis_run *r)
{
	struct candidates_job *job = &r->job;
	if (opt->verify > 0) {
		job->vr = calloc((size_t)m->ncands + 1, sizeof(*job->vr));
		job->vstatus = calloc((size_t)m->ncands + 1, sizeof(*job->vstatus));
	}
	job->late = calloc((size_t)m->ncands + 1, sizeof(*job->late));
	job->late_values = calloc((size_t)m->ncands + 1, sizeof(*job->late_values));
	int *order = schedule(m);
	int ntodo = m->ncands;
	if (order && r->cmp[0] >= 0) {
		/* --compare: those two only */
		order[0] = r->cmp[0];
		order[1] = r->cmp[1];
		ntodo = 2;
	}
	if (order && job->exact) {
		/* the values of the same candidates first (analyze_candidate) */
		int *both = calloc(2 * (size_t)ntodo, sizeof(*both));
		for (int k = 0; both && k < ntodo; k++) {
			both[k] = m->ncands + order[k];
			both[ntodo + k] = order[k];
		}
		free(order);
		order = both;
		ntodo *= 2;
	}
	if (job->costs && job->late && job->late_values && order &&
	    (!r->need_exact || job->exact) && (!opt->verify || (job->vr && job->vstatus))) {
		struct progress_meter meter;
		progress_start(&meter, opt->err);
		/* --compare: both candidates on one thread, so that their formulas
		 * share its isl_ctx (one parameter P, not one per context) when
		 * their difference is formed */
		int nthreads = r->cmp[0] >= 0 ? 1 : workers_threads(opt->jobs, ntodo);
		job->session = session;
		/* the candidates' formulas share the deadline; the values (first,
		 * milliseconds each) and formulas not computed do not */
		int first_shared = job->skip_formulas ? ntodo : job->exact ? ntodo / 2 : 0;
		/* One thread: the likely longest last, where it is owed all the
		 * time the others left (workers.h), rather than first with its
		 * even part of the limit while the others wait. */
		for (int a = first_shared, b = ntodo - 1; nthreads == 1 && a < b; a++, b--) {
			int t = order[a];
			order[a] = order[b];
			order[b] = t;
		}
		r->pool = workers_run_ordered(session, nthreads, ntodo, order, first_shared,
					      analyze_candidate, job, engine_setup,
					      progress_pool(&meter, "counts of the candidates"));
		progress_end(&meter);
	}
	free(order);
}

/* The run's status from its candidates' outcomes and the deadline (said
 * when it came). */
static int counted_status(const struct loaded_spec *ls, const struct model *m,
			  const struct options *opt, struct session *session,
			  struct analysis_run *r)
{
	const struct candidates_job *job = &r->job;
	const struct candidate_cost *costs = job->costs, *exact = job->exact;
	int status = EXIT_OK;
	/* the candidates asked for: --compare's two, or every one */
	r->asked = r->cmp[0] >= 0 ? 2 : m->ncands;
	int values_late = 0;
	r->finished = r->cut = 0;
	for (int c = 0; c < m->ncands; c++) {
		if (r->cmp[0] >= 0 && c != r->cmp[0] && c != r->cmp[1])
			continue;
		r->finished += !job->late[c] && !job->late_values[c];
		values_late += job->late_values[c];
		r->cut += job->vr && job->vr[c].stopped;
		enum cost_status st = costs[c].status;
		/* with every value given, the values decide (a formula's refusal is
		 * said in the report) */
		if (st == COST_FAILED || (st == COST_REFUSED && !r->req.symbolic && !exact))
			status = EXIT_SPEC;
		if (exact && exact[c].status != COST_OK)
			status = EXIT_SPEC;
	}

	/* the deadline: what finished is reported, and the run fails; before
	 * it, only candidates' shares of it can have run out */
	if (!session_expired(session) && (r->finished < r->asked || r->cut > 0)) {
		report_deadline_shares(opt->err, ls->src.name, session_limit(session),
				       r->asked - r->finished, r->asked, exact && values_late == 0,
				       r->cut);
		status = EXIT_SPEC;
	} else if (exact && values_late == 0 && r->finished < r->asked && r->cut == 0) {
		report_deadline_formulas(opt->err, ls->src.name, session_limit(session),
					 r->asked - r->finished, r->asked);
		status = EXIT_SPEC;
	} else if (r->finished < r->asked || r->cut > 0) {
		report_deadline(opt->err, ls->src.name, session_limit(session), r->finished,
				r->asked, r->cut);
		status = EXIT_SPEC;
	}
	return status;
}

/* --compare's report: the conditions under which each candidate costs less;
 * the run's status after it. */
static int report_comparison(const struct loaded_spec *ls, const struct model *m,
			     const struct options *opt, struct session *session,
			     const struct analysis_run *r, const struct analysis *a,
			     const struct report_request *rq, int status)
{
	const struct candidate_cost *costs = a->cands, *exact = a->exact;
	const int *cmp = r->cmp;
	struct cost_prices prices;
	cost_prices_init(&prices, report_model(rq));
	for (int k = 0; k < COEF_N; k++) {
		const struct param_value *pv = options_find_def(opt, cost_coef_name[k]);
		if ((prices.has[k] = pv != NULL))
			param_value_get(prices.coef[k], pv);
	}
	struct comparison cv;
	/* the conditions are computed under the deadline too */
	bool watched = workers_watch(r->pool) == 0;
	int formed = compare_candidates(&costs[cmp[0]], &costs[cmp[1]],
					exact ? &exact[cmp[0]] : NULL,
					exact ? &exact[cmp[1]] : NULL, &prices, m,
					r->req.symbolic ? NULL : r->req.sizes, &cv);
	if (watched)
		workers_unwatch(r->pool);
	/* the conditions could not be formed, and the deadline is why (a
	 * candidate without a formula has its own reason, kept) */
	if (formed < 0 && session_expired(session) && !(r->finished < r->asked || r->cut > 0)) {
		free(cv.why);
		cv.why = strdup("the run's time limit ran out before the conditions were formed");
		report_deadline(opt->err, ls->src.name, session_limit(session), 0, 0, 0);
		status = EXIT_SPEC;
	}
	if (!opt->sink)
		report_compare(opt->out, opt->format, a, cmp[0], cmp[1], &cv);
	else if (opt->sink->comparison &&
		 opt->sink->comparison(opt->sink->user, a, cmp[0], cmp[1], &cv) < 0) {
		report_error(opt->err, ls->src.name, "out of memory");
		status = EXIT_SPEC;
	}
	/* no condition (said why) and no values either: nothing answered */
	if (!cv.diff && !cv.valued && status == EXIT_OK)
		status = EXIT_SPEC;
	comparison_clear(&cv);
	cost_prices_clear(&prices);
	return status;
}

/* --hierarchy's report and picture; the run's status after them. */
static int report_hierarchy_run(const struct loaded_spec *ls, const struct model *m,
				const struct options *opt, struct session *session,
				const struct analysis *a, int status)
{
	const struct candidate_cost *costs = a->cands, *exact = a->exact;
	report_hierarchy(opt->out, opt->format, a);
	/* formulas: a superstep without H's (in loops, refused, out of
	 * time) is said in the report, and the run has not answered all */
	for (int c = 0; costs && !exact && c < m->ncands; c++)
		for (int s = 0; costs[c].status == COST_OK && s < costs[c].nsteps; s++)
			if (!costs[c].steps[s].hf && status < EXIT_SPEC)
				status = EXIT_SPEC;
	int counted = 0, ps = EXIT_OK;
	for (int c = 0; exact && c < m->ncands; c++)
		counted += exact[c].status == COST_OK;
	if (opt->plot && counted == 0) {
		report_error(opt->err, ls->src.name, "--plot: no candidate has counts to draw");
		ps = EXIT_USAGE;
	} else if (opt->plot) {
		ps = plot_exit_status(plot_hierarchy(a, opt->plot, opt->err, session));
	}
	if (status < ps)
		status = ps;
	return status;
}

/* --per-process's report and picture; the run's status after them. */
static int report_per_process_run(const struct loaded_spec *ls, const struct model *m,
				  const struct options *opt, struct session *session,
				  const struct analysis *a, int status)
{
	const struct candidate_cost *exact = a->exact;
	if (opt->sink) {   /* the library's: no picture */
		if (opt->sink->analysis && opt->sink->analysis(opt->sink->user, a) < 0) {
			report_error(opt->err, ls->src.name, "out of memory");
			status = EXIT_SPEC;
		}
		return status;
	}
	report_per_process(opt->out, opt->format, a);
	int counted = 0;
	for (int c = 0; exact && c < m->ncands; c++)
		counted += exact[c].status == COST_OK;
	if (opt->plot && counted == 0) {
		report_error(opt->err, ls->src.name, "--plot: no candidate has counts to draw");
		if (status < EXIT_USAGE)
			status = EXIT_USAGE;
	} else if (opt->plot) {
		int ps = plot_exit_status(plot_per_process(a, opt->plot, opt->err, session));
		if (status < ps)
			status = ps;
	}
	return status;
}

/* --verify's summary: each candidate's points and mismatches; the run's
 * status after it. */
static int report_verification(const struct loaded_spec *ls, const struct model *m,
			       const struct options *opt, const struct analysis_run *r,
			       int status)
{
	const struct candidate_cost *costs = r->job.costs;
	/* The summary goes with a text report, or to the diagnostics stream
	 * so that machine formats stay well formed. */
	FILE *vout = opt->format == FORMAT_TEXT ? opt->out : opt->err;
	int points = 0, checks = 0, bad = 0;
	for (int c = 0; c < m->ncands; c++) {
		struct verify_result *vr = &r->job.vr[c];
		points += vr->points;
		checks += vr->checks;
		bad += vr->mismatches;
		if (r->job.vstatus[c] < 0 || vr->mismatches > 0) {
			report_verify_candidate(vout, costs[c].name,
						vr->first ? vr->first : "verification failed");
			status = EXIT_SPEC;
		} else if (vr->stopped) {
			/* the deadline: the run fails (above), whatever was checked */
			char *why = NULL;
			if (asprintf(&why, "not verified: the run's time limit ran out after %d "
					   "point%s", vr->points, vr->points == 1 ? "" : "s") < 0)
				why = NULL;
			report_verify_candidate(vout, costs[c].name, why ? why : "not verified");
			free(why);
		} else if (vr->points == 0) {
			/* nothing checked is not a success */
			char *why = NULL;
			if (asprintf(&why, "not verified: %s",
				     vr->skipped ? vr->skipped : "no point was checked") < 0)
				why = NULL;
			report_verify_candidate(vout, costs[c].name, why ? why : "not verified");
			free(why);
			if (!opt->allow_unverified)
				status = EXIT_SPEC;
		} else {
			report_verify_points(vout, costs[c].name, vr->points);
		}
	}
	report_verify_total(vout, ls->src.name, points, checks, bad);
	return status;
}

/* The analysis of M (LS) counted and reported as OPT asks. */
static int analyze_at(const struct loaded_spec *ls, const struct model *m,
		      const struct options *opt, struct session *session)
{
	struct analysis_run r = {.topo = NULL};
	int status = request_grid(ls, m, opt, &r.req);
	if (status == EXIT_OK)
		status = compare_pair(ls, m, opt, r.cmp);
	if (status == EXIT_OK)
		status = values_admitted(ls, m, opt, &r.req, session);
	if (status != EXIT_OK)
		return status;
	r.job = (struct candidates_job){.m = m, .req = &r.req, .verify = opt->verify,
					.seed = opt->seed ? opt->seed : 20260101u};
	r.job.costs = calloc((size_t)m->ncands + 1, sizeof(*r.job.costs));
	r.values = calloc((size_t)m->nparams + 1, sizeof(*r.values));
	if (!r.job.costs || !r.values) {
		/* (prepare_values would take no values for none given) */
		report_error(opt->err, ls->src.name, "out of memory");
		status = EXIT_SPEC;
	} else {
		status = prepare_values(ls, m, opt, &r);
	}
	if (status != EXIT_OK) {
		free(r.values);
		free(r.job.costs);
		free(r.job.exact);
		return status;
	}
	count_candidates(m, opt, session, &r);
	struct candidate_cost *costs = r.pool ? r.job.costs : NULL;
	struct candidate_cost *exact = r.pool ? r.job.exact : NULL;
	if (!r.pool) {
		report_error(opt->err, ls->src.name, "out of memory");
		status = EXIT_SPEC;
	} else {
		status = counted_status(ls, m, opt, session, &r);
	}

	struct report_request rq = options_report_request(opt);
	if (opt->machine) {
		rq.machine = opt->machine->name;
		rq.machine_procs = opt->machine_procs;
		rq.speed = opt->speed_known ? opt->speed : NULL;
	}
	struct analysis a = {
		.file = ls->src.name,
		.symbolic = r.req.symbolic,
		.naxes = m->naxes,
		.axes = (const char *const *)m->axes,
		.ncands = costs ? m->ncands : 0,
		.cands = costs,
		.exact = exact,
		.rq = &rq,
		.spec = ls->cs,
		.model = m,
	};
	memcpy(a.sizes, (opt->per_process || opt->hierarchy) && exact ? r.job.at.sizes
								    : r.req.sizes,
	       sizeof(a.sizes));
	a.numbering = opt->numbering;
	a.topology = r.topo;
	a.assumptions = spec_assumptions(ls->ast, &a.nassumptions);
	if (r.cmp[0] >= 0 && costs)
		status = report_comparison(ls, m, opt, session, &r, &a, &rq, status);
	else if (opt->hierarchy)
		status = report_hierarchy_run(ls, m, opt, session, &a, status);
	else if (opt->per_process)
		status = report_per_process_run(ls, m, opt, session, &a, status);
	else if (opt->sink && opt->sink->analysis &&
		 opt->sink->analysis(opt->sink->user, &a) < 0) {
		report_error(opt->err, ls->src.name, "out of memory");
		status = EXIT_SPEC;
	} else if (!opt->sink)
		report_analysis(opt->out, opt->format, &a);
	if (opt->verify > 0 && costs)
		status = report_verification(ls, m, opt, &r, status);

	for (int i = 0; i < a.nassumptions; i++)
		free(a.assumptions[i]);
	free(a.assumptions);
	for (int c = 0; r.job.vr && c < m->ncands; c++)
		verify_result_clear(&r.job.vr[c]);
	free(r.job.vr);
	free(r.job.vstatus);
	free(r.job.late);
	free(r.job.late_values);
	free(r.values);
	/* The formulas live in the workers' contexts: freed first. */
	clear_costs(r.job.exact, m->ncands);
	clear_costs(r.job.costs, m->ncands);
	workers_free(r.pool);
	return status;
}
