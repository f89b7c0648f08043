#define _GNU_SOURCE /* open_memstream */
#include "analyzer/check/load.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Whether A can only be conditions: sizes, numbers, arithmetic and
 * comparisons, commas between them (no ';' that would end the assume). */
static bool one_assumption(const char *a)
{
	bool any = false;
	for (const char *c = a; *c; c++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ "
			    "+-*/%()<>=!,&|", *c))
			return false;
		any |= *c != ' ';
	}
	return any;
}

int spec_load_assuming(struct loaded_spec *ls, const char *path, const char *const *assumes,
		       int n, FILE *err, struct session *session)
{
	for (int k = 0; k < n; k++)
		if (!one_assumption(assumes[k])) {
			memset(ls, 0, sizeof(*ls));
			fprintf(err, "bspcost: --assume '%s': error: not a condition on the sizes "
				"and grid axes (e.g. 'M == N', 'n >= 4*P')\n", assumes[k]);
			return -1;
		}
	if (spec_load(ls, path, err, session) < 0 || n == 0)
		return ls->cs ? 0 : -1;
	/* the text with "assume A;" appended, A's line in LINE[k] */
	char *text = NULL, *name = strdup(ls->src.name);
	size_t len = 0;
	int *line = calloc((size_t)n, sizeof(*line));
	FILE *f = name && line ? open_memstream(&text, &len) : NULL;
	if (f) {
		int nl = 1;
		for (size_t i = 0; i < ls->src.len; i++)
			nl += ls->src.text[i] == '\n';
		fwrite(ls->src.text, 1, ls->src.len, f);
		fputc('\n', f);
		for (int k = 0; k < n; k++) {
			line[k] = ++nl;
			fprintf(f, "assume %s;\n", assumes[k]);
		}
	}
	if (!f || fclose(f) != 0 || !text) {
		fprintf(err, "bspcost: %s: out of memory\n", path);
		free(text);
		free(name);
		free(line);
		spec_unload(ls);
		return -1;
	}
	spec_unload(ls);
	source_from_memory(&ls->src, name, text, len);
	free(text);
	ls->loaded = true;
	/* the file's own diagnostics were printed by its first load: here only
	 * the errors, each said of its assumption (never flushed) */
	diag_init(&ls->dg, err, &ls->src);
	bool parsed;
	ls->ast = parse_source(&ls->src, &ls->dg, &parsed);
	ls->cs = parsed ? check_spec(ls->ast, &ls->dg, session) : NULL;
	int errors = 0;
	for (int i = 0; i < ls->dg.n; i++) {
		const struct diag_entry *e = &ls->dg.v[i];
		if (e->level != DIAG_ERROR)
			continue;
		int k = 0;
		while (k < n && line[k] != e->span.first_line)
			k++;
		if (k < n)
			fprintf(err, "bspcost: --assume '%s': error: %s\n", assumes[k], e->msg);
		else
			fprintf(err, "bspcost: %s: error (with --assume): %s\n", name, e->msg);
		errors++;
	}
	diag_free(&ls->dg);
	diag_init(&ls->dg, err, &ls->src);
	free(name);
	free(line);
	if (errors || !ls->cs) {
		checked_spec_free(ls->cs);
		ls->cs = NULL;
		return -1;
	}
	return 0;
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
