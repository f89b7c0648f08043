#define _GNU_SOURCE /* open_memstream */
#include "analyzer/check/load.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/parse.h"

int spec_load(struct loaded_spec *ls, const char *path, FILE *err, struct session *session)
{
	return spec_load_assuming(ls, path, NULL, 0, err, session);
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

/* SRC's text with "assume A;" appended for each of ASSUMES[0..N), A on line
 * LINE[k] (LINE: N entries); 0, or -1 out of memory (SRC unchanged). */
static int append_assumptions(struct source *src, const char *const *assumes, int n, int *line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -1;
	int nl = 1;
	for (size_t i = 0; i < src->len; i++)
		nl += src->text[i] == '\n';
	fwrite(src->text, 1, src->len, f);
	fputc('\n', f);
	for (int k = 0; k < n; k++) {
		line[k] = ++nl;
		fprintf(f, "assume %s;\n", assumes[k]);
	}
	char *name = fclose(f) == 0 && text ? strdup(src->name) : NULL;
	if (!name) {
		free(text);
		return -1;
	}
	struct source grown;
	int r = source_from_memory(&grown, name, text, len);
	free(name);
	free(text);
	if (r < 0)
		return -1;
	source_free(src);
	*src = grown;
	return 0;
}

/* LS->dg's diagnostics copied into LS->kept, before diag_flush forgets them
 * (out of memory: fewer are kept). */
static void keep_diagnostics(struct loaded_spec *ls)
{
	struct diag_entry *v = realloc(ls->kept, ((size_t)ls->nkept + (size_t)ls->dg.n + 1) *
						 sizeof(*v));
	int *order = calloc((size_t)ls->dg.n + 1, sizeof(*order));
	if (v)
		ls->kept = v;
	if (!v || !order) {
		free(order);
		return;
	}
	diag_order(&ls->dg, order);   /* in the order they are printed */
	for (int k = 0; k < ls->dg.n; k++) {
		struct diag_entry e = ls->dg.v[order[k]];
		if ((e.msg = strdup(e.msg)))
			ls->kept[ls->nkept++] = e;
	}
	free(order);
}

static int check_source(struct loaded_spec *ls, const char *const *assumes, int n, FILE *err,
			struct session *session);

/* ASSUMES[0..N), each one condition, or -1 after saying which is not. */
static int assumptions_ok(const char *path, const char *const *assumes, int n, FILE *err)
{
	for (int k = 0; k < n; k++)
		if (!one_assumption(assumes[k])) {
			fprintf(err, "bspcost: %s: --assume '%s': error: not a condition on the sizes "
				"and grid axes (e.g. 'M == N', 'n >= 4*P')\n", path, assumes[k]);
			return -1;
		}
	return 0;
}

int spec_load_assuming(struct loaded_spec *ls, const char *path, const char *const *assumes,
		       int n, FILE *err, struct session *session)
{
	memset(ls, 0, sizeof(*ls));
	if (assumptions_ok(path, assumes, n, err) < 0)
		return -1;
	if (source_load(&ls->src, path, err) < 0)
		return -1;
	return check_source(ls, assumes, n, err, session);
}

int spec_load_text(struct loaded_spec *ls, const char *name, const char *text, size_t len,
		   const char *const *assumes, int n, FILE *err, struct session *session)
{
	memset(ls, 0, sizeof(*ls));
	if (assumptions_ok(name, assumes, n, err) < 0)
		return -1;
	if (source_from_memory(&ls->src, name, text, len) < 0) {
		fprintf(err, "bspcost: %s: out of memory\n", name);
		return -1;
	}
	return check_source(ls, assumes, n, err, session);
}

/* LS->src (loaded) parsed and checked, with ASSUMES[0..N) appended. */
static int check_source(struct loaded_spec *ls, const char *const *assumes, int n, FILE *err,
			struct session *session)
{
	ls->loaded = true;
	diag_init(&ls->dg, err, &ls->src);
	const char *nul = memchr(ls->src.text, '\0', ls->src.len);
	if (nul) {
		int line, col;
		source_position(&ls->src, (size_t)(nul - ls->src.text), &line, &col);
		diag_error(&ls->dg, (struct span){line, col, line, col},
			   "NUL byte in the input: a specification is text");
		keep_diagnostics(ls);
		diag_flush(&ls->dg);
		return -1;
	}
	/* the file read once (it may be a pipe), the assumptions appended */
	int *line = n > 0 ? calloc((size_t)n, sizeof(*line)) : NULL;
	if (n > 0 && (!line || append_assumptions(&ls->src, assumes, n, line) < 0)) {
		fprintf(err, "bspcost: %s: out of memory\n", ls->src.name);
		free(line);
		return -1;
	}
	bool parsed;
	ls->ast = parse_source(&ls->src, &ls->dg, &parsed);
	ls->cs = parsed ? check_spec(ls->ast, &ls->dg, session) : NULL;
	if (ls->dg.nomem || !ls->ast) {
		/* what was said may lack a part: nothing of it is printed */
		checked_spec_free(ls->cs);
		ls->cs = NULL;
		diag_free(&ls->dg);
		diag_init(&ls->dg, err, &ls->src);
		/* (the source's name now: the assumptions replaced the source) */
		fprintf(err, "bspcost: %s: out of memory\n", ls->src.name);
		free(line);
		return -1;
	}
	/* a diagnostic on an appended line is said of its assumption; the
	 * file's own are printed as they are */
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
	keep_diagnostics(ls);
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
	for (int i = 0; i < ls->nkept; i++)
		free(ls->kept[i].msg);
	free(ls->kept);
	if (ls->loaded) {
		diag_free(&ls->dg);
		source_free(&ls->src);
	}
	memset(ls, 0, sizeof(*ls));
}
