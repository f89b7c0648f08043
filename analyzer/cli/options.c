#include "analyzer/cli/options.h"

#include <string.h>

#include "analyzer/cost/cost_model.h"
#include "analyzer/model/model.h"

const struct param_value *options_find_def(const struct options *opt, const char *name)
{
	/* The last -D for a name wins, as with a C compiler. */
	for (int i = opt->ndefs - 1; i >= 0; i--)
		if (strcmp(opt->defs[i].name, name) == 0)
			return &opt->defs[i];
	return NULL;
}

bool options_give_sizes(const struct options *opt, const struct model *m)
{
	for (int i = 0; i < model_nsizes(m); i++)
		if (options_find_def(opt, m->params[i]))
			return true;
	for (int a = 0; a < m->naxes; a++)
		if (options_find_def(opt, m->axes[a]))
			return true;
	return false;
}

struct options options_defaults(FILE *out, FILE *err)
{
	return (struct options){.format = FORMAT_TEXT, .out = out, .err = err,
				.timeout = DEFAULT_TIMEOUT, .model = cost_model_default()};
}

struct report_request options_report_request(const struct options *opt)
{
	return (struct report_request){.defs = opt->defs, .ndefs = opt->ndefs,
				       .explain = opt->explain, .values_only = opt->values_only,
				       .summary = opt->summary, .width = opt->width,
				       .digits = opt->digits, .model = opt->model};
}
