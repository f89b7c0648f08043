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
 * comparisons, commas between them (no ';' that would end the assume, no
 * '#' that would comment out the rest, no new line). */
static bool one_assumption(const char *a)
{
	bool any = false;
	for (const char *c = a; *c; c++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t"
			    "+-*/%()<>=!,", *c))
			return false;
		any |= *c != ' ' && *c != '\t';
	}
	return any;
}

int spec_load_assuming(struct loaded_spec *ls, const char *path, const char *const *assumes,
		       int n, FILE *err, struct session *session)
{
	if (n == 0)
		return spec_load(ls, path, err, session);
	memset(ls, 0, sizeof(*ls));
	for (int k = 0; k < n; k++)
		if (!one_assumption(assumes[k])) {
			fprintf(err, "bspcost: %s: --assume '%s': error: not a condition on the sizes "
				"and grid axes (e.g. 'M == N', 'n >= 4*P')\n", path, assumes[k]);
			return -1;
		}
	struct source file;
	if (source_load(&file, path, err) < 0)
		return -1;
	if (memchr(file.text, '\0', file.len)) {
		/* as spec_load says it (the file read once: it may be a pipe) */
		fprintf(err, "%s: error: NUL byte in the input: a specification is text\n",
			file.name);
		source_free(&file);
		return -1;
	}
	/* the text with "assume A;" appended, A on line LINE[k] */
	char *text = NULL;
	size_t len = 0;
	int *line = calloc((size_t)n, sizeof(*line));
	FILE *f = line ? open_memstream(&text, &len) : NULL;
	if (f) {
		int nl = 1;
		for (size_t i = 0; i < file.len; i++)
			nl += file.text[i] == '\n';
		fwrite(file.text, 1, file.len, f);
		fputc('\n', f);
		for (int k = 0; k < n; k++) {
			line[k] = ++nl;
			fprintf(f, "assume %s;\n", assumes[k]);
		}
	}
	if (!f || fclose(f) != 0 || !text) {
		fprintf(err, "bspcost: %s: out of memory\n", path);
		free(text);
		free(line);
		source_free(&file);
		return -1;
	}
	source_from_memory(&ls->src, file.name, text, len);
	source_free(&file);
	free(text);
	ls->loaded = true;
	diag_init(&ls->dg, err, &ls->src);
	bool parsed;
	ls->ast = parse_source(&ls->src, &ls->dg, &parsed);
	ls->cs = parsed ? check_spec(ls->ast, &ls->dg, session) : NULL;
	/* a diagnostic on an appended line is said of its assumption; the
	 * file's own are printed as spec_load prints them */
	int kept = 0, errors = 0;
	static const char *const label[] = {"error", "warning", "note"};
	for (int i = 0; i < ls->dg.n; i++) {
		struct diag_entry *e = &ls->dg.v[i];
		int k = -1;
		while (k + 1 < n && line[k + 1] <= e->span.first_line)
			k++;
		if (k < 0) {
			ls->dg.v[kept++] = *e;
			continue;
		}
		fprintf(err, "bspcost: %s: --assume '%s': %s: %s\n", ls->src.name, assumes[k],
			label[e->level], e->msg);
		errors += e->level == DIAG_ERROR;
		free(e->msg);
	}
	ls->dg.n = kept;
	diag_flush(&ls->dg);
	free(line);
	if (errors && ls->cs) {
		checked_spec_free(ls->cs);
		ls->cs = NULL;
	}
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
