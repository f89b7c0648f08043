/* The analysis command over its files (cmd_analyze): each specification
 * loaded and lowered once, the -D names checked against it, then analyzed
 * (analyze_cmd.c) or ranked (rank_cmd.c). */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include "analyzer/check/load.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/model/lower.h"
#include "analyzer/run/analyze.h"
#include "analyzer/run/commands.h"
#include "analyzer/util/number.h"
#include "analyzer/util/text.h"

/* Whether -D NAME names something of M: a size parameter, an axis, or a
 * coefficient of the cost function CM. */
static bool known_name(const struct model *m, const struct cost_model *cm, const char *name)
{
	if (cost_model_reads_name(cm, name))
		return true;
	for (int p = 0; p < model_nsizes(m); p++)
		if (strcmp(m->params[p], name) == 0)
			return true;
	for (int a = 0; a < m->naxes; a++)
		if (strcmp(m->axes[a], name) == 0)
			return true;
	return false;
}

/* "-D nn: ..., closest first: n, P, g, l" for a -D NAME that M does not have
 * (the coefficients those of CM). */
static void unknown_name(FILE *err, const char *file, const struct model *m,
			 const struct cost_model *cm, const char *name)
{
	/* the sizes, not the loops' variables, which no -D gives */
	int n = model_nsizes(m) + m->naxes + cm->ncoefs;
	const char **names = calloc((size_t)n, sizeof(*names));
	size_t *dist = calloc((size_t)n, sizeof(*dist));
	struct text t;
	if (text_open(&t) < 0 || !names || !dist) {
		if (t.f)
			fclose(t.f);
		free(t.buf);
		t.f = NULL;
		free(names);
		free(dist);
		report_text_error(err, file, &t, 0);
		return;
	}
	if (cost_coef_known(name))
		fprintf(t.f, "-D %s: the cost function %s (%s) has no coefficient %s, and the "
			     "specification no size parameter or grid axis of that name",
			name, cm->name, cm->text, name);
	else
		fprintf(t.f, "-D %s: the specification has no size parameter or grid axis of "
			     "that name", name);
	{
		int k = 0;
		for (int p = 0; p < model_nsizes(m); p++)
			names[k++] = m->params[p];
		for (int a = 0; a < m->naxes; a++)
			names[k++] = m->axes[a];
		for (int i = 0; i < cm->ncoefs; i++)
			names[k++] = cm->coef_names[i];
		for (int i = 0; i < n; i++)
			dist[i] = diag_edit_distance(name, names[i]);
		/* closest first; ties in the specification's order (a stable sort) */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && dist[j] < dist[j - 1]; j--) {
				size_t t = dist[j];
				dist[j] = dist[j - 1];
				dist[j - 1] = t;
				const char *s = names[j];
				names[j] = names[j - 1];
				names[j - 1] = s;
			}
		fputs(" (its names, closest first: ", t.f);
		for (int i = 0; i < n; i++)
			fprintf(t.f, "%s%s", i ? ", " : "", names[i]);
		fputs(")", t.f);
	}
	free(names);
	free(dist);
	report_text_error(err, file, &t, 0);
}

/* TABLES: the rankings of -p printed so far in the run (rank_model).  KNOWN
 * marks the -D names this specification has; with ALONE (the run's only
 * file), a name it does not have is an error before anything is counted. */
static int analyze_file(const char *path, const struct options *opt, struct session *session,
			int *tables, bool *known, bool alone)
{
	struct loaded_spec ls;
	if (spec_load_assuming(&ls, path, opt->assumes, opt->nassumes, opt->err, session) < 0) {
		spec_unload(&ls);
		return EXIT_SPEC;
	}
	struct model *m = analyze_lower(&ls, opt);
	int status = m ? analyze_loaded(&ls, m, opt, session, tables, known, alone) : EXIT_SPEC;
	model_free(m);
	spec_unload(&ls);
	return status;
}

struct model *analyze_lower(const struct loaded_spec *ls, const struct options *opt)
{
	char *reason = NULL;
	struct model *m = lower_spec(ls->cs, opt->work_flops ? WORK_FLOPS : WORK_TERMS, &reason);
	if (!m)
		report_error(opt->err, ls->src.name, "cannot analyze: %s",
			     reason ? reason : "out of memory");
	free(reason);
	return m;
}

int analyze_loaded(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
		   struct session *session, int *tables, bool *known, bool alone)
{
	int unknown = -1;
	for (int i = 0; i < opt->ndefs; i++) {
		bool k = known_name(m, opt->model, opt->defs[i].name);
		known[i] |= k;
		if (!k && unknown < 0)
			unknown = i;
	}
	if (alone && unknown >= 0) {
		unknown_name(opt->err, ls->src.name, m, opt->model, opt->defs[unknown].name);
		return EXIT_USAGE;
	}
	/* a size, a loop's variable or an axis with the name of a coefficient of
	 * the cost function would be one symbol for two things (g and l the
	 * checker refuses) */
	for (int k = 0; k < opt->model->ncoefs; k++) {
		const char *c = opt->model->coef_names[k];
		bool clash = false;
		for (int i = 0; i < m->nparams; i++)
			clash |= strcmp(m->params[i], c) == 0;
		for (int a = 0; a < m->naxes; a++)
			clash |= strcmp(m->axes[a], c) == 0;
		if (clash) {
			report_error(opt->err, ls->src.name,
				     "'%s' names a coefficient of the cost function %s (%s); "
				     "rename it in the specification",
				     c, opt->model->name, opt->model->text);
			return EXIT_USAGE;
		}
	}
	for (int k = 0; k < opt->nsweeps; k++)
		if (!known_name(m, opt->model, opt->sweeps[k].name)) {
			unknown_name(opt->err, ls->src.name, m, opt->model, opt->sweeps[k].name);
			return EXIT_USAGE;
		}
	/* -p, or a range of values: a ranking per count and point */
	return opt->nprocs > 0 || opt->nsweeps > 0 ? rank_model(ls, m, opt, session, tables)
						   : analyze_model(ls, m, opt, session);
}

int analyze_open_machine(struct options *opt, struct machine *machine)
{
	memset(machine, 0, sizeof(*machine));
	if (!opt->machine_arg)
		return EXIT_OK;
	int status = machine_open(opt->machine_arg, machine, opt->err);
	if (status != EXIT_OK)
		return status;
	if (opt->speed_arg && number_parse(opt->speed_arg, machine->s) == 0) {
		/* --speed: s for every number of processes */
		machine->has_s = true;
		machine->s_forced = true;
	}
	opt->machine = machine;
	return EXIT_OK;
}

int cmd_analyze(int nfiles, char *const files[], const struct options *opt,
		struct session *session)
{
	int status = EXIT_OK, tables = 0;
	bool *known = calloc((size_t)opt->ndefs + 1, sizeof(*known));
	if (!known) {
		report_error(opt->err, NULL, "out of memory");
		return EXIT_SPEC;
	}
	struct options with = *opt;
	struct machine machine;
	status = analyze_open_machine(&with, &machine);
	if (status != EXIT_OK) {
		machine_clear(&machine);
		free(known);
		return status;
	}
	opt = &with;
	struct numbering_map map = {0};
	if (opt->hierarchy && opt->numbering == NUMBERING_MAP) {
		status = numbering_map_read(opt->numbering_file, &map, opt->err);
		if (status != EXIT_OK) {
			numbering_map_clear(&map);
			if (with.machine)
				machine_clear(&machine);
			free(known);
			return status;
		}
		with.numbering_map = &map;
		opt = &with;
	}
	for (int i = 0; i < nfiles; i++) {
		int st = analyze_file(files[i], opt, session, &tables, known, nfiles == 1);
		if (st > status)
			status = st;
	}
	/* several files: a -D name none of them has is a mistake too */
	for (int i = 0; nfiles > 1 && i < opt->ndefs; i++)
		if (!known[i]) {
			bool said = false;
			for (int k = 0; k < i; k++)
				said |= strcmp(opt->defs[k].name, opt->defs[i].name) == 0;
			if (!said)
				report_error(opt->err, NULL,
					     "-D %s: none of the specifications has a size "
					     "parameter or grid axis of that name",
					     opt->defs[i].name);
			if (status < EXIT_USAGE)
				status = EXIT_USAGE;
		}
	free(known);
	if (with.machine)
		machine_clear(&machine);
	numbering_map_clear(&map);
	return status;
}
