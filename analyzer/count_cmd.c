/* Placeholder until the counting engine lands: refuses honestly. */
#include "analyzer/commands.h"

int cmd_count(const char *set_text, const struct options *opt)
{
	(void)set_text;
	fputs("bspcost: --count: the counting engine is not built yet\n", opt->err);
	return EXIT_SPEC;
}
