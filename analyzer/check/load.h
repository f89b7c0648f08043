/* Loading a specification: read, parse and check, with every diagnostic printed. */
#ifndef BSPCOST_LOAD_H
#define BSPCOST_LOAD_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/check/check.h"
#include "grammar/ast.h"
#include "grammar/diag.h"
#include "grammar/source.h"

struct loaded_spec {
	struct source src;
	struct diag dg;
	struct ast_spec *ast;
	struct checked_spec *cs;  /* NULL when the specification has an error */
	bool loaded;              /* src and dg hold something to free */
	/* every diagnostic printed, in source order (the library's, as data) */
	struct diag_entry *kept;
	int nkept;
};

/* Loads PATH ("-" for standard input) and prints its diagnostics on ERR; the
 * check's ISL context comes from SESSION (may be NULL).
 * Returns 0 when it checked without error (ls->cs is set), -1 otherwise.
 * Either way, release it with spec_unload. */
int spec_load(struct loaded_spec *ls, const char *path, FILE *err, struct session *session);
/* The same, with each of ASSUMES[0..N) (the command line's --assume, a
 * condition of the language: 'M == N') added to the specification's
 * assumptions, as if it ended with "assume A;".  An assumption's error is
 * printed as "bspcost: --assume 'A': error: ..." (the file's own warnings
 * once).  An assumption with a character no condition has (';', '{', '#',
 * a new line, ...) is refused, so that it can only ever be one condition. */
int spec_load_assuming(struct loaded_spec *ls, const char *path, const char *const *assumes,
		       int n, FILE *err, struct session *session);
/* The same for TEXT (LEN bytes, copied), named NAME in diagnostics. */
int spec_load_text(struct loaded_spec *ls, const char *name, const char *text, size_t len,
		   const char *const *assumes, int n, FILE *err, struct session *session);
void spec_unload(struct loaded_spec *ls);

#endif
