/* The library's sessions, specifications and requests (bspcost.h), and the
 * run that asks the command line's machinery a question on their behalf. */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "analyzer/api/api_internal.h"
#include "analyzer/run/analyze.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/machine/machine.h"
#include "analyzer/util/session.h"

#ifndef BSPCOST_VERSION
#define BSPCOST_VERSION "unknown"
#endif

const char *bspcost_version(void)
{
	return BSPCOST_VERSION;
}

/* --- Sessions ------------------------------------------------------------- */

bspcost_session *bspcost_session_new(double seconds)
{
	if (!(seconds >= 0 && seconds <= 1e6))
		return NULL;
	bspcost_session *s = calloc(1, sizeof(*s));
	if (!s || !(s->message = strdup(""))) {
		free(s);
		return NULL;
	}
	s->seconds = seconds;
	return s;
}

void bspcost_session_free(bspcost_session *s)
{
	if (!s)
		return;
	free(s->message);
	free(s);
}

/* What a session says when the copy of its message failed. */
static const char nomem_message[] = "bspcost: out of memory\n";

const char *bspcost_session_message(const bspcost_session *s)
{
	return !s ? "" : s->message ? s->message : s->nomem ? nomem_message : "";
}

void api_say(bspcost_session *s, const char *text)
{
	char *copy = strdup(text ? text : nomem_message);
	free(s->message);
	s->message = copy;   /* NULL: out of memory, said by nomem_message */
	s->nomem = !copy;
}

/* --- Specifications --------------------------------------------------------- */

/* SPEC's diagnostics as data: the checker's, or (none, and it failed) what
 * was said without a place (the file cannot be read), TEXT. */
static void spec_diagnostics(bspcost_spec *spec, const char *text)
{
	const struct loaded_spec *ls = &spec->ls;
	int n = ls->nkept > 0 || !spec->m ? ls->nkept + 1 : 0;
	spec->diags = calloc((size_t)n + 1, sizeof(*spec->diags));
	if (!spec->diags)
		return;
	static const enum bspcost_severity sev[] = {
		[DIAG_ERROR] = BSPCOST_SEVERITY_ERROR, [DIAG_WARNING] = BSPCOST_SEVERITY_WARNING,
		[DIAG_NOTE] = BSPCOST_SEVERITY_NOTE};
	for (int i = 0; i < ls->nkept; i++) {
		const struct diag_entry *e = &ls->kept[i];
		struct api_diagnostic *d = &spec->diags[spec->ndiags];
		d->severity = sev[e->level];
		d->line = e->span.first_line;
		d->column = e->span.first_column;
		if ((d->message = strdup(e->msg)))
			spec->ndiags++;
	}
	bool errors = false;
	for (int i = 0; i < spec->ndiags; i++)
		errors |= spec->diags[i].severity == BSPCOST_SEVERITY_ERROR;
	if (!spec->m && !errors) {
		/* "bspcost: NAME: reason" or "NAME: error: reason" (the file
		 * unread) without a place, said last: its reason */
		struct api_diagnostic *d = &spec->diags[spec->ndiags];
		const char *t = text && *text ? text : "cannot be analyzed\n", *last = t;
		for (const char *c = t; *c; c++)
			if (c[0] == '\n' && c[1])
				last = c + 1;
		char prefix[2][4096];
		snprintf(prefix[0], sizeof(prefix[0]), "bspcost: %s: ", spec->name);
		snprintf(prefix[1], sizeof(prefix[1]), "%s: error: ", spec->name);
		for (int k = 0; k < 2; k++)
			if (strncmp(last, prefix[k], strlen(prefix[k])) == 0)
				last += strlen(prefix[k]);
		d->severity = BSPCOST_SEVERITY_ERROR;
		if ((d->message = strndup(last, strcspn(last, "\n"))))
			spec->ndiags++;
	}
}

/* SPEC (its name and text set) loaded, checked and lowered under the
 * request's assumptions ASSUMES[0..N) into LS and *M, under SESSION's time
 * limit; what was said on ERR.  Returns an exit status. */
static int spec_load_into(const bspcost_spec *spec, const char *const *assumes, int n,
			  struct loaded_spec *ls, struct model **m, FILE *err,
			  struct session *session)
{
	*m = NULL;
	int r = spec_load_text(ls, spec->name, spec->text, spec->len, assumes, n, err, session);
	if (r < 0)
		return EXIT_SPEC;
	struct options opt = options_defaults(NULL, err);
	*m = analyze_lower(ls, &opt);
	return *m ? EXIT_OK : EXIT_SPEC;
}

/* The text of PATH ("-": standard input) into SPEC, or -1 after saying why
 * on ERR. */
static int read_text(bspcost_spec *spec, const char *path, FILE *err)
{
	struct source src;
	if (source_load(&src, path, err) < 0)
		return -1;
	spec->text = malloc(src.len + 1);
	if (spec->text) {
		memcpy(spec->text, src.text, src.len + 1);
		spec->len = src.len;
	} else {
		report_error(err, path, "out of memory");
	}
	source_free(&src);
	return spec->text ? 0 : -1;
}

static bspcost_spec *spec_new(bspcost_session *s, const char *name, const char *text,
			      const char *path)
{
	bspcost_spec *spec = calloc(1, sizeof(*spec));
	char *said = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&said, &len);
	if (!spec || !err || !(spec->name = strdup(name))) {
		if (err)
			fclose(err);
		free(said);
		free(spec);
		api_say(s, NULL);   /* out of memory */
		return NULL;
	}
	int status = EXIT_SPEC;
	bool read = path ? read_text(spec, path, err) == 0 : (spec->text = strdup(text)) != NULL;
	struct session *session = read ? session_start(s->seconds) : NULL;
	if (session) {
		if (!path)
			spec->len = strlen(text);
		status = spec_load_into(spec, NULL, 0, &spec->ls, &spec->m, err, session);
	} else if (!path || read) {   /* (read_text says why it could not) */
		report_error(err, name, "out of memory");
	}
	session_end(session);
	if (fclose(err) != 0) {
		free(said);
		said = NULL;
	}
	spec_diagnostics(spec, said);
	api_say(s, status == EXIT_OK ? "" : said);
	spec->said = said;
	return spec;
}

bspcost_spec *bspcost_spec_load(bspcost_session *s, const char *path)
{
	return s && path ? spec_new(s, path, NULL, path) : NULL;
}

bspcost_spec *bspcost_spec_parse(bspcost_session *s, const char *name, const char *text)
{
	return s && name && text ? spec_new(s, name, text, NULL) : NULL;
}

void bspcost_spec_free(bspcost_spec *spec)
{
	if (!spec)
		return;
	model_free(spec->m);
	spec_unload(&spec->ls);
	for (int i = 0; i < spec->ndiags; i++)
		free(spec->diags[i].message);
	free(spec->diags);
	free(spec->said);
	free(spec->text);
	free(spec->name);
	free(spec);
}

enum bspcost_status bspcost_spec_status(const bspcost_spec *spec)
{
	return spec && spec->m ? BSPCOST_OK : BSPCOST_ERROR;
}

int bspcost_spec_ndiagnostics(const bspcost_spec *spec)
{
	return spec ? spec->ndiags : 0;
}

static const struct api_diagnostic *diagnostic(const bspcost_spec *spec, int i)
{
	return spec && i >= 0 && i < spec->ndiags ? &spec->diags[i] : NULL;
}

enum bspcost_severity bspcost_spec_diagnostic_severity(const bspcost_spec *spec, int i)
{
	const struct api_diagnostic *d = diagnostic(spec, i);
	return d ? d->severity : BSPCOST_SEVERITY_ERROR;
}

int bspcost_spec_diagnostic_line(const bspcost_spec *spec, int i)
{
	const struct api_diagnostic *d = diagnostic(spec, i);
	return d ? d->line : 0;
}

int bspcost_spec_diagnostic_column(const bspcost_spec *spec, int i)
{
	const struct api_diagnostic *d = diagnostic(spec, i);
	return d ? d->column : 0;
}

const char *bspcost_spec_diagnostic_message(const bspcost_spec *spec, int i)
{
	const struct api_diagnostic *d = diagnostic(spec, i);
	return d ? d->message : NULL;
}

int bspcost_spec_nsizes(const bspcost_spec *spec)
{
	return spec && spec->m ? model_nsizes(spec->m) : 0;
}

const char *bspcost_spec_size(const bspcost_spec *spec, int i)
{
	return i >= 0 && i < bspcost_spec_nsizes(spec) ? spec->m->params[i] : NULL;
}

int bspcost_spec_naxes(const bspcost_spec *spec)
{
	return spec && spec->m ? spec->m->naxes : 0;
}

const char *bspcost_spec_axis(const bspcost_spec *spec, int i)
{
	return i >= 0 && i < bspcost_spec_naxes(spec) ? spec->m->axes[i] : NULL;
}

int bspcost_spec_ncandidates(const bspcost_spec *spec)
{
	return spec && spec->m ? spec->m->ncands : 0;
}

const char *bspcost_spec_candidate(const bspcost_spec *spec, int i)
{
	return i >= 0 && i < bspcost_spec_ncandidates(spec) ? spec->m->cands[i].name : NULL;
}

/* --- Requests ----------------------------------------------------------------- */

/* RQ's message: TEXT (copied), and STATUS returned. */
static enum bspcost_status refuse(bspcost_request *rq, enum bspcost_status status,
				  const char *text)
{
	char *copy = strdup(text ? text : "out of memory");
	if (copy) {
		free(rq->message);
		rq->message = copy;
	}
	return status;
}

bspcost_request *bspcost_request_new(void)
{
	bspcost_request *rq = calloc(1, sizeof(*rq));
	if (!rq || !(rq->message = strdup(""))) {
		free(rq);
		return NULL;
	}
	rq->opt = options_defaults(NULL, NULL);
	return rq;
}

void bspcost_request_clear_values(bspcost_request *rq)
{
	if (!rq)
		return;
	for (int i = 0; i < rq->nargs; i++)
		free(rq->args[i]);
	free(rq->args);
	free(rq->opt.defs);
	rq->args = NULL;
	rq->nargs = 0;
	rq->opt.defs = NULL;
	rq->opt.ndefs = 0;
	rq->opt.nsweeps = 0;
	rq->opt.nprocs = 0;
}

void bspcost_request_free(bspcost_request *rq)
{
	if (!rq)
		return;
	bspcost_request_clear_values(rq);
	for (int i = 0; i < rq->opt.nassumes; i++)
		free(rq->assumes[i]);
	free(rq->assumes);
	free(rq->machine);
	free(rq->compare[0]);
	free(rq->compare[1]);
	free(rq->message);
	free(rq);
}

const char *bspcost_request_message(const bspcost_request *rq)
{
	return rq && rq->message ? rq->message : "";
}

enum bspcost_status bspcost_request_set(bspcost_request *rq, const char *name, const char *value)
{
	if (!rq || !name || !value)
		return BSPCOST_USAGE;
	char *arg = NULL;
	if (asprintf(&arg, "%s=%s", name, value) < 0)
		return refuse(rq, BSPCOST_ERROR, NULL);
	/* room for one more value, and the argument kept: OPT's names point
	 * into it */
	char **args = realloc(rq->args, ((size_t)rq->nargs + 1) * sizeof(*args));
	if (args)
		rq->args = args;
	struct param_value *defs = args ? realloc(rq->opt.defs, ((size_t)rq->opt.ndefs + 1) *
								sizeof(*defs))
					: NULL;
	if (!defs) {
		free(arg);
		return refuse(rq, BSPCOST_ERROR, NULL);
	}
	rq->opt.defs = defs;
	char *why = NULL;
	if (options_add_define(&rq->opt, arg, &why) < 0) {
		enum bspcost_status st = why ? refuse(rq, BSPCOST_USAGE, why)
					     : refuse(rq, BSPCOST_ERROR, NULL);
		free(why);
		free(arg);
		return st;
	}
	rq->args[rq->nargs++] = arg;
	return refuse(rq, BSPCOST_OK, "");
}

enum bspcost_status bspcost_request_grid(bspcost_request *rq, int naxes, const long sizes[])
{
	if (!rq)
		return BSPCOST_USAGE;
	if (naxes < 1 || naxes > 3 || !sizes)
		return refuse(rq, BSPCOST_USAGE, "--grid: a grid has 1 to 3 axes");
	for (int a = 0; a < naxes; a++)
		if (sizes[a] < 1 || sizes[a] > LIMIT_AXIS)
			return refuse(rq, BSPCOST_USAGE, "--grid: each size is between 1 and "
					  LIMIT_TEXT(LIMIT_AXIS));
	rq->opt.grid_naxes = naxes;
	memcpy(rq->opt.grid, sizes, (size_t)naxes * sizeof(*sizes));
	return refuse(rq, BSPCOST_OK, "");
}

enum bspcost_status bspcost_request_procs(bspcost_request *rq, long p)
{
	if (!rq)
		return BSPCOST_USAGE;
	if (p < 1 || p > RANK_MAX_PROCS)
		return refuse(rq, BSPCOST_USAGE, "-p: a number of processes is between 1 and "
				  LIMIT_TEXT(LIMIT_PROCESSES));
	for (int i = 0; i < rq->opt.nprocs; i++)
		if (rq->opt.procs[i] == p)
			return refuse(rq, BSPCOST_OK, "");
	if (rq->opt.nprocs == RANK_MAX_COUNTS)
		return refuse(rq, BSPCOST_USAGE, "-p: at most 256 process counts");
	rq->opt.procs[rq->opt.nprocs++] = p;
	return refuse(rq, BSPCOST_OK, "");
}

enum bspcost_status bspcost_request_model(bspcost_request *rq, const char *name)
{
	if (!rq || !name)
		return BSPCOST_USAGE;
	const struct cost_model *cm = cost_model_find(name);
	if (!cm) {
		char *names = cost_model_names(), *msg = NULL;
		if (asprintf(&msg, "--model '%s': no such cost function (one of: %s)", name,
			     names ? names : "") < 0)
			msg = NULL;
		enum bspcost_status st = refuse(rq, BSPCOST_USAGE, msg);
		free(msg);
		free(names);
		return st;
	}
	rq->opt.model = cm;
	rq->opt.messages = cm->messages != MSG_NONE;
	return refuse(rq, BSPCOST_OK, "");
}

enum bspcost_status bspcost_request_machine(bspcost_request *rq, const char *machine)
{
	if (!rq || !machine)
		return BSPCOST_USAGE;
	char *copy = strdup(machine);
	if (!copy)
		return refuse(rq, BSPCOST_ERROR, NULL);
	free(rq->machine);
	rq->machine = copy;
	rq->opt.machine_arg = copy;
	return refuse(rq, BSPCOST_OK, "");
}

enum bspcost_status bspcost_request_compare(bspcost_request *rq, const char *a, const char *b)
{
	if (!rq)
		return BSPCOST_USAGE;
	if ((!a) != (!b))
		return refuse(rq, BSPCOST_USAGE, "--compare needs two candidates (or none)");
	char *ca = a ? strdup(a) : NULL, *cb = b ? strdup(b) : NULL;
	if (a && (!ca || !cb)) {
		free(ca);
		free(cb);
		return refuse(rq, BSPCOST_ERROR, NULL);
	}
	free(rq->compare[0]);
	free(rq->compare[1]);
	rq->opt.compare[0] = rq->compare[0] = ca;
	rq->opt.compare[1] = rq->compare[1] = cb;
	return refuse(rq, BSPCOST_OK, "");
}

void bspcost_request_h_sum(bspcost_request *rq, int sum)
{
	if (rq)
		rq->opt.h_sum = sum != 0;
}

void bspcost_request_per_process(bspcost_request *rq, int on)
{
	if (rq)
		rq->opt.per_process = on != 0;
}

void bspcost_request_values_only(bspcost_request *rq, int values)
{
	if (rq)
		rq->opt.values_only = values != 0;
}

void bspcost_request_jobs(bspcost_request *rq, int jobs)
{
	if (rq)
		rq->opt.jobs = jobs < 0 ? 0 : jobs;
}

enum bspcost_status bspcost_request_assume(bspcost_request *rq, const char *condition)
{
	if (!rq || !condition)
		return BSPCOST_USAGE;
	char **as = realloc(rq->assumes, ((size_t)rq->opt.nassumes + 1) * sizeof(*as));
	if (!as)
		return refuse(rq, BSPCOST_ERROR, NULL);
	rq->assumes = as;
	if (!(as[rq->opt.nassumes] = strdup(condition)))
		return refuse(rq, BSPCOST_ERROR, NULL);
	rq->opt.nassumes++;
	rq->opt.assumes = (const char **)rq->assumes;
	return refuse(rq, BSPCOST_OK, "");
}

/* --- Running ------------------------------------------------------------------ */

/* What the command line refuses before a run and the library's setters
 * cannot see alone (the options together); NULL or a malloc'd message
 * (*OOM set when memory ran out instead). */
static char *request_problem(const struct options *opt, bool rank, bool *oom)
{
	char *why = NULL;
	*oom = false;
	if (options_check_defines(opt, &why) < 0) {
		*oom = !why;
		return why;
	}
	const char *text = NULL;
	if (!rank && (opt->nprocs > 0 || opt->nsweeps > 0))
		text = "bspcost_analyze: -p and -D ranges are for bspcost_rank";
	else if (rank && opt->nprocs == 0 && opt->nsweeps == 0)
		text = "bspcost_rank: give a number of processes (bspcost_request_procs) or a range "
		       "of a size";
	else if (rank && opt->nprocs > 0 && opt->grid_naxes > 0)
		text = "-p cannot be combined with --grid";
	else if (rank && opt->compare[0])
		text = opt->nprocs > 0 ? "--compare cannot be combined with -p"
				       : "--compare cannot be combined with a -D range";
	else if (opt->compare[0] && opt->per_process)
		text = "--compare cannot be combined with --per-process";
	else if (opt->compare[0] && opt->values_only)
		text = "--compare cannot be combined with --values";
	else if (rank && opt->per_process)
		text = opt->nprocs > 0 ? "--per-process cannot be combined with -p"
				       : "--per-process cannot be combined with a -D range";
	else if (rank && opt->nprocs > 0 && opt->values_only)
		text = "-p cannot be combined with --values";
	else if (rank && opt->values_only)
		text = "a -D range cannot be combined with --values";
	int n = 0;
	if (!text && opt->compare[0] && strcmp(opt->compare[0], opt->compare[1]) == 0)
		n = asprintf(&why, "--compare '%s' '%s': give two different candidates",
			     opt->compare[0], opt->compare[1]);
	else if (!text && opt->compare[0] && opt->model && opt->model->messages != MSG_NONE)
		n = asprintf(&why, "--model %s: --compare checks and compares the costs of g and l "
				   "alone (bsp, overlap and Bianco and Pucci's F_)", opt->model->name);
	if (n < 0)
		why = NULL;
	if (why || n < 0) {
		*oom = !why;
		return why;
	}
	if (!text)
		return NULL;
	*oom = !(why = strdup(text));
	return why;
}

int api_run(bspcost_session *s, const bspcost_spec *spec, const bspcost_request *rq,
	    const struct run_sink *sink, bool rank, char **printed_out)
{
	char *said = NULL, *printed = NULL;
	size_t nsaid = 0, nprinted = 0;
	FILE *err = open_memstream(&said, &nsaid), *out = open_memstream(&printed, &nprinted);
	struct options opt = rq->opt;
	opt.out = out;
	opt.err = err;
	opt.sink = sink;
	opt.width = 0;
	int status = EXIT_SPEC;
	char *why = NULL;
	bool oom = false;
	if (!err || !out) {
		if (err)   /* else said below */
			report_error(err, NULL, "out of memory");
	} else if (!spec->m) {
		/* what loading it said */
		fputs(spec->said ? spec->said : "", err);
	} else if ((why = request_problem(&opt, rank, &oom)) || oom) {
		report_error(err, NULL, "%s", why ? why : "out of memory");
		status = oom ? EXIT_SPEC : EXIT_USAGE;
	} else {
		struct machine machine;
		struct session *session = session_start(s->seconds);
		struct loaded_spec with_assumptions;
		struct model *m = NULL;
		const struct loaded_spec *ls = &spec->ls;
		/* the profile read (and cleared below) whether or not it is one */
		bool opened = session && opt.machine_arg;
		status = session ? analyze_open_machine(&opt, &machine) : EXIT_SPEC;
		if (!session)
			report_error(err, NULL, "cannot start the time limit's watchdog");
		if (status == EXIT_OK && opt.nassumes > 0) {
			/* --assume: the text read again with the conditions, under the
			 * question's time limit */
			status = spec_load_into(spec, opt.assumes, opt.nassumes, &with_assumptions,
						&m, err, session);
			ls = &with_assumptions;
		}
		if (status == EXIT_OK) {
			int tables = 0;
			bool *known = calloc((size_t)opt.ndefs + 1, sizeof(*known));
			status = known ? analyze_loaded(ls, m ? m : spec->m, &opt, session, &tables,
							known, true)
				       : EXIT_SPEC;
			if (!known)
				report_error(err, NULL, "out of memory");
			free(known);
		}
		if (opt.nassumes > 0 && ls == &with_assumptions) {
			model_free(m);
			spec_unload(&with_assumptions);
		}
		if (opened)
			machine_clear(&machine);
		session_end(session);
	}
	free(why);
	bool written = err && fclose(err) == 0;
	if (out && fclose(out) != 0) {
		free(printed);
		printed = NULL;
	}
	api_say(s, status == EXIT_OK ? "" : written ? said : NULL);
	free(said);
	if (printed_out)
		*printed_out = printed;
	else
		free(printed);
	return status;
}
