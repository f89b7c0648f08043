/* -p with --hierarchy: every shape of each process count (a power of two),
 * every numbering of the grid onto the machine and every candidate, ranked
 * by the D-BSP cost on --topology's machine (analyzer/decide/hier_rank.h).
 *
 * Each row is counted at the values given (cost_request.values with
 * .hierarchy: H and its ceilings per superstep, milliseconds to a second a
 * row) on the worker pool; its costs are topology_costs' summed over the
 * candidate's supersteps; the ranking is analyzer/decide's, the tables
 * analyzer/report's. */
#define _GNU_SOURCE /* asprintf, getline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/run/analyze.h"
#include "analyzer/run/commands.h"
#include "analyzer/run/progress.h"
#include "analyzer/cost/workers.h"
#include "analyzer/decide/hier_rank.h"
#include "analyzer/formula/formula.h"
#include "analyzer/report/report.h"
#include "analyzer/util/limits.h"

struct hier_job {
	const struct model *m;
	struct cost_request req;        /* the values; sizes and numbering per row */
	struct hier_ranking *tabs;
	int (*rows)[2];                 /* job i: row rows[i][1] of table rows[i][0] */
};

/* ROW's costs from CC, counted: the sum over its supersteps of each one's
 * D-BSP and flat BSP costs on T's machine with 2^K processes. */
static void measure(struct hier_row *row, const struct candidate_cost *cc,
		    const struct topology *t, int k)
{
	if (cc->status != COST_OK) {
		row->reason = strdup(cc->reason ? cc->reason : "no value");
		row->late = cc->timed_out;
		row->failed = !cc->timed_out;
		return;
	}
	mpq_t w, h;
	mpq_inits(w, h, NULL);
	for (int s = 0; s < cc->nsteps; s++) {
		const struct step_cost *sc = &cc->steps[s];
		if (!sc->hier || !sc->w || !sc->h || formula_eval(sc->w, NULL, NULL, 0, w) < 0 ||
		    formula_eval(sc->h, NULL, NULL, 0, h) < 0) {
			if (asprintf(&row->reason, "superstep %s: no value", sc->name) < 0)
				row->reason = NULL;
			row->failed = true;
			mpq_clears(w, h, NULL);
			return;
		}
		topology_costs(t, k, w, h, (const mpq_t *)sc->hier->ceil, sc->hier->runs, &row->dbsp,
			       &row->flat);
	}
	mpq_clears(w, h, NULL);
	row->ok = true;
}

static void count_row(struct worker *w, int i, void *user)
{
	struct hier_job *job = user;
	struct hier_ranking *t = &job->tabs[job->rows[i][0]];
	struct hier_row *row = &t->rows[job->rows[i][1]];
	struct cost_request req = job->req;
	memcpy(req.sizes, t->shapes[row->shape], sizeof(req.sizes));
	req.numbering = row->nb;
	struct candidate_cost cc;
	cost_candidate(&w->engine, job->m, row->cand, &req, &cc);
	measure(row, &cc, t->topo, t->k);
	candidate_cost_clear(&cc);
}

/* Table T's rows: a row per refused shape, and for every other one a row
 * per numbering and candidate.  Returns 0, or -1 when out of memory. */
static int prepare(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
		   isl_ctx *ctx, const long long *values, struct hier_ranking *t)
{
	struct cost_request base = {.h = opt->h_sum ? H_SUM : H_MAX, .values = values,
				    .model = opt->model};
	for (int s = 0; s < t->nshapes; s++) {
		struct cost_request req = base;
		memcpy(req.sizes, t->shapes[s], sizeof(req.sizes));
		enum rank_status st;
		char *why = rank_shape_refusal(ctx, ls, m, opt, &req, values, &st);
		if (why) {
			struct hier_row *row = hier_ranking_add(t, s, opt->numbering, -1);
			if (!row) {
				free(why);
				return -1;
			}
			row->reason = why;
			row->failed = st == RANK_FAILED;
			continue;
		}
		int long_axes = 0;
		for (int a = 0; a < m->naxes; a++)
			long_axes += t->shapes[s][a] > 1;
		for (int nb = 0; nb < NUMBERING_N; nb++) {
			/* on a shape of one axis longer than 1 the numberings are one */
			if ((opt->numbering_given || long_axes <= 1) && nb != (int)opt->numbering)
				continue;
			for (int c = 0; c < m->ncands; c++)
				if (!hier_ranking_add(t, s, (enum numbering)nb, c))
					return -1;
		}
	}
	return 0;
}

int numbering_map_read(const char *path, struct numbering_map *map, FILE *err)
{
	memset(map, 0, sizeof(*map));
	map->path = path;
	FILE *f = fopen(path, "r");
	if (!f) {
		report_error(err, NULL, "--numbering %s: %s (not row, col or morton either)",
			     path, strerror(errno));
		return EXIT_USAGE;
	}
	char *buf = NULL;
	size_t cap = 0;
	int line = 0, status = EXIT_OK;
	while (status == EXIT_OK && getline(&buf, &cap, f) >= 0) {
		line++;
		char *s = buf;
		s[strcspn(s, "#")] = '\0';
		long q[3];
		int d = 0;
		for (char *end; d < 4; d++, s = end) {
			errno = 0;
			long v = strtol(s, &end, 10);
			if (end == s)
				break;
			if (d == 3 || errno || v < 0 || v > 65535) {
				d = -1;
				break;
			}
			q[d] = v;
		}
		while (d >= 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
			s++;
		if (d == 0 && *s == '\0')
			continue;   /* a blank line or a comment */
		if (d <= 0 || *s != '\0' || (map->n > 0 && d != map->dims)) {
			report_file_error(err, path, line,
					  "a line is the grid coordinates of the next process number, 1 "
					  "to 3 whole numbers from 0 (as many as the lines before)");
			status = EXIT_USAGE;
			break;
		}
		void *nq = map->n < LIMIT_PROCESSES
				   ? realloc(map->q, sizeof(*map->q) * (size_t)(map->n + 1))
				   : NULL;
		if (!nq && map->n >= LIMIT_PROCESSES) {
			report_file_error(err, path, line, "more processes than a grid has ("
					  LIMIT_TEXT(LIMIT_PROCESSES) ")");
			status = EXIT_USAGE;
			break;
		}
		if (!nq) {
			report_error(err, path, "out of memory");
			status = EXIT_SPEC;
			break;
		}
		map->q = nq;
		map->dims = d;
		memcpy(map->q[map->n++], q, sizeof(*map->q));
	}
	free(buf);
	fclose(f);
	if (status == EXIT_OK && map->n == 0) {
		report_file_error(err, path, 0, "no process listed");
		status = EXIT_USAGE;
	}
	return status;
}

void numbering_map_clear(struct numbering_map *map)
{
	free(map->q);
	memset(map, 0, sizeof(*map));
}

int hierarchy_topology(const struct options *opt, const char *file, int k, struct topology *buf,
		       const struct topology **out)
{
	*out = opt->topology;
	if (opt->machine && opt->machine->nlevels == 0 && !opt->topology) {
		report_error(opt->err, file, "--machine %s gives no level entries to price "
					     "--hierarchy's levels on: give --topology, or a "
					     "profile with 'level' lines", opt->machine->name);
		return EXIT_USAGE;
	}
	if (opt->machine && opt->machine->nlevels > 0) {
		if (opt->topology) {
			report_error(opt->err, file,
				     "--topology %s and machine %s's levels both price the "
				     "hierarchy: give one",
				     opt->topology->name, opt->machine->name);
			return EXIT_USAGE;
		}
		topology_from_machine(opt->machine, buf);
		*out = buf;
	}
	char *why = NULL;
	if (*out && k >= 0 && !topology_covers(*out, k, &why)) {
		report_error(opt->err, file, "%s", why ? why : "out of memory");
		free(why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int hierarchy_formulas_asked(const struct options *opt, const char *file, const struct model *m,
			     bool symbolic, const long sizes[])
{
	const char *values_only = opt->numbering == NUMBERING_MAP ? "--numbering FILE"
				  : opt->topology ? "--topology"
				  : opt->machine ? "--machine"
				  : opt->plot ? "--plot" : NULL;
	if (symbolic) {
		report_error(opt->err, file, "--hierarchy needs a concrete grid of 2^k processes "
					     "(--grid, or -D for the axes); with the sizes left "
					     "free it gives H(i)'s formulas in them");
		return EXIT_USAGE;
	}
	if (hierarchy_levels(sizes, m->naxes) < 0) {
		report_hierarchy_grid(opt->err, file, m->naxes, (const char *const *)m->axes, sizes);
		return EXIT_USAGE;
	}
	if (values_only) {
		report_error(opt->err, file, "--hierarchy with %s counts at values: give -D for "
					     "every size (without them, H(i) comes as formulas "
					     "in the sizes, under a named numbering)",
			     values_only);
		return EXIT_USAGE;
	}
	/* some sizes given, not all: neither numbers nor formulas in them all */
	for (int i = 0; i < model_nsizes(m); i++)
		if (options_find_def(opt, m->params[i])) {
			report_error(opt->err, file,
				     "--hierarchy counts H(i) at values (-D for every size) or "
				     "as formulas in the sizes (none given): %s is given, not "
				     "every size", m->params[i]);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

int hierarchy_rank_model(const struct loaded_spec *ls, const struct model *m,
			 const struct options *opt, struct session *session)
{
	const char *file = ls->src.name;
	struct topology from_profile;
	const struct topology *topo;
	if (hierarchy_topology(opt, file, -1, &from_profile, &topo) != EXIT_OK)
		return EXIT_USAGE;
	if (opt->format == FORMAT_LATEX) {
		report_error(opt->err, file, "-p --hierarchy's rankings are text, json, csv or "
					     "markdown (not latex)");
		return EXIT_USAGE;
	}
	if (!topo) {
		report_error(opt->err, file, "-p --hierarchy ranks by the D-BSP cost on a "
					     "machine: give --topology (%s) or --machine with "
					     "level entries", topology_names());
		return EXIT_USAGE;
	}
	if (m->naxes == 0) {
		report_error(opt->err, file, "-p ranks the shapes of the grid, and this "
					     "specification has no grid");
		return EXIT_USAGE;
	}
	if (opt->numbering == NUMBERING_MAP) {
		report_error(opt->err, file, "--numbering %s numbers one grid, and -p ranks "
					     "every shape: give the grid (-D or --grid) instead "
					     "of -p", opt->numbering_map->path);
		return EXIT_USAGE;
	}
	for (int a = 0; a < m->naxes; a++)
		if (options_find_def(opt, m->axes[a])) {
			report_error(opt->err, file,
				     "-p gives the grid its shapes: -D %s cannot be combined "
				     "with it", m->axes[a]);
			return EXIT_USAGE;
		}
	for (int p = 0; p < opt->nprocs; p++) {
		int k = hierarchy_levels(&opt->procs[p], 1);
		char *why = NULL;
		if (k < 0) {
			report_error(opt->err, file, "-p %ld: --hierarchy needs 2^k processes",
				     opt->procs[p]);
			return EXIT_USAGE;
		}
		if (!topology_covers(topo, k, &why)) {
			report_error(opt->err, file, "-p %ld: %s",
				     opt->procs[p], why ? why : "out of memory");
			free(why);
			return EXIT_USAGE;
		}
	}
	if (!all_params(m, opt)) {
		report_error(opt->err, file, "-p --hierarchy counts every row at values: give -D "
					     "for every size");
		return EXIT_USAGE;
	}
	long long *values = calloc((size_t)m->nparams + 1, sizeof(*values));
	struct hier_ranking *tabs = calloc((size_t)opt->nprocs + 1, sizeof(*tabs));
	isl_ctx *ctx = session_ctx(session);
	int status = EXIT_OK;
	int ntabs = 0;
	size_t njobs = 0;
	for (int i = 0; values && i < model_nsizes(m); i++)
		values[i] = options_find_def(opt, m->params[i])->value;
	for (int p = 0; values && tabs && ctx && p < opt->nprocs; p++, ntabs++) {
		if (hier_ranking_init(&tabs[p], opt->procs[p], m->naxes, topo) < 0) {
			status = EXIT_SPEC;
			ntabs++;
			break;
		}
		if (prepare(ls, m, opt, ctx, values, &tabs[p]) < 0) {
			status = EXIT_SPEC;
			ntabs++;
			break;
		}
		njobs += (size_t)tabs[p].nrows;
	}
	session_ctx_free(session, ctx);
	int (*rows)[2] = status == EXIT_OK && values && tabs && ctx
				 ? calloc(njobs + 1, sizeof(*rows)) : NULL;
	int n = 0;
	for (int k = 0; rows && k < ntabs; k++)
		for (int i = 0; i < tabs[k].nrows; i++)
			if (tabs[k].rows[i].cand >= 0) {
				rows[n][0] = k;
				rows[n++][1] = i;
			}
	struct hier_job job = {.m = m, .tabs = tabs, .rows = rows,
			       .req = {.h = opt->h_sum ? H_SUM : H_MAX, .values = values,
				       .model = opt->model, .hierarchy = true}};
	struct worker_pool *pool = NULL;
	if (rows && n > 0) {
		struct progress_meter meter;
		progress_start(&meter, opt->err);
		pool = workers_run_ordered(session, workers_threads(opt->jobs, n), n, NULL, n,
					   count_row, &job, engine_setup,
					   progress_pool(&meter, "rows of the hierarchy"));
		progress_end(&meter);
	}
	if (!rows || (n > 0 && !pool)) {
		report_error(opt->err, file, "out of memory");
		status = EXIT_SPEC;
	} else {
		bool late = false, uncounted = false;
		for (int k = 0; k < ntabs; k++) {
			for (int i = 0; i < tabs[k].nrows; i++) {
				struct hier_row *row = &tabs[k].rows[i];
				if (row->cand >= 0 && !row->ok && !row->reason) {
					row->reason = strdup("not counted: the run's time limit ran out");
					row->late = true;
				}
				late |= row->late;
				uncounted |= row->failed;
			}
			hier_ranking_sort(&tabs[k]);
		}
		const char **names = calloc((size_t)m->ncands + 1, sizeof(*names));
		for (int c = 0; names && c < m->ncands; c++)
			names[c] = m->cands[c].name;
		if (names)
			report_hierarchy_ranking(opt->out, opt->format, file, opt->defs, opt->ndefs,
						 (const char *const *)m->axes, names, tabs, ntabs);
		else
			status = EXIT_SPEC;
		free(names);
		if (late) {
			report_deadline(opt->err, file, session_limit(session), 0, 0, 0);
			status = EXIT_SPEC;
		} else if (uncounted) {
			status = EXIT_SPEC;   /* a row without its cost: the best is not proven */
		}
	}
	workers_free(pool);
	free(rows);
	for (int k = 0; tabs && k < ntabs; k++)
		hier_ranking_clear(&tabs[k]);
	free(tabs);
	free(values);
	return status;
}
