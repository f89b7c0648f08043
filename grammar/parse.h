/* Parsing a specification: the state the scanner and the parser share.
 *
 * One struct parser per parse; the flex scanner carries a pointer to it as its
 * extra data, and the bison parser gets it as its parse-param.  No globals. */
#ifndef BSPCOST_PARSE_H
#define BSPCOST_PARSE_H

#include <setjmp.h>
#include <stdbool.h>

#include "grammar/ast.h"
#include "grammar/diag.h"
#include "grammar/source.h"

/* Deepest nesting of ( [ { the scanner accepts. */
#define PARSE_MAX_NEST 200

/* The value of an integer token too large for 64 bits (the scanner has
 * reported it; every other integer token is >= 0). */
#define LEX_INT_TOO_LARGE (-1LL)

struct parser {
	const struct source *src;
	struct diag *dg;
	struct ast_spec *spec;   /* items are appended as they are parsed */
	/* scanner position (1-based) */
	int line, col;
	int end_line, end_col;   /* just after the last token */
	/* open brackets, innermost last */
	int nest;
	char open_char[PARSE_MAX_NEST + 1];
	struct span open_span[PARSE_MAX_NEST + 1];
	bool fatal;              /* give up: the scanner returns end of file, no more messages */
	bool nomem;              /* out of memory: the parse is abandoned, the tree freed */
	/* flex says it is out of memory only by YY_FATAL_ERROR, which must not
	 * return: while the scanner's buffer is set up (the only time flex
	 * allocates) it jumps to SETUP, which frees the SETUP_ALLOCS made so
	 * far (NSETUP_ALLOCS; -1 at any other time) */
	jmp_buf setup;
	void *setup_allocs[8];
	int nsetup_allocs;
	bool too_deep_reported;  /* expression depth: report once */
	int syntax_errors;       /* every error reported while scanning and parsing */
};

/* Parses SRC.  Returns the specification (parts that had errors are left
 * out); the errors are in DG, and *ok is false when there were any.  NULL
 * (and *ok false) when out of memory: nothing is left allocated, and DG
 * may lack some diagnostics. */
struct ast_spec *parse_source(const struct source *src, struct diag *dg, bool *ok);

#endif
