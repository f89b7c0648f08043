#include "analyzer/check/load.h"

#include <string.h>

#include "grammar/parse.h"

int spec_load(struct loaded_spec *ls, const char *path, FILE *err, struct session *session)
{
	memset(ls, 0, sizeof(*ls));
	if (source_load(&ls->src, path, err) < 0)
		return -1;
	ls->loaded = true;
	diag_init(&ls->dg, err, &ls->src);
	const char *nul = memchr(ls->src.text, '\0', ls->src.len);
	if (nul) {
		int line, col;
		source_position(&ls->src, (size_t)(nul - ls->src.text), &line, &col);
		diag_error(&ls->dg, (struct span){line, col, line, col},
			   "NUL byte in the input: a specification is text");
		diag_flush(&ls->dg);
		return -1;
	}
	bool parsed;
	ls->ast = parse_source(&ls->src, &ls->dg, &parsed);
	ls->cs = parsed ? check_spec(ls->ast, &ls->dg, session) : NULL;
	diag_flush(&ls->dg);
	return ls->cs ? 0 : -1;
}

void spec_unload(struct loaded_spec *ls)
{
	checked_spec_free(ls->cs);
	ast_spec_free(ls->ast);
	if (ls->loaded) {
		diag_free(&ls->dg);
		source_free(&ls->src);
	}
	memset(ls, 0, sizeof(*ls));
}
