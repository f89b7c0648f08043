/* A specification's text, read once into memory, with a line map.
 *
 * The diagnostics module prints source lines through this map; the lexer scans
 * the text.  Nothing here is global. */
#ifndef BSPCOST_SOURCE_H
#define BSPCOST_SOURCE_H

#include <stddef.h>
#include <stdio.h>

/* Largest input accepted: a specification is a few kilobytes. */
#define SOURCE_MAX_BYTES (64u << 20)

struct source {
	char *name;       /* as given, "<stdin>" for "-" */
	char *text;       /* len bytes, then a '\0' that is not part of the text */
	size_t len;
	size_t *lines;    /* lines[k] is the offset where line k + 1 starts */
	int nlines;
};

/* Reads PATH ("-" is standard input).  On failure prints
 * "bspcost: PATH: reason" on ERR and returns -1; src is then empty. */
int source_load(struct source *src, const char *path, FILE *err);

/* Wraps text already in memory (copied); -1 when out of memory (SRC then
 * empty). */
int source_from_memory(struct source *src, const char *name, const char *text, size_t len);

void source_free(struct source *src);

/* Line LINE (1-based) without its newline; NULL when there is no such line. */
const char *source_line(const struct source *src, int line, size_t *len);

/* The 1-based line and column of byte OFFSET. */
void source_position(const struct source *src, size_t offset, int *line, int *col);

#endif
