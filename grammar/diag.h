/* Diagnostics: one sink per specification.
 *
 * Errors, warnings and notes are collected with their spans and printed by
 * diag_flush, ordered by position, each as
 *
 *     file:line:col: error: message
 *     the source line
 *           ^~~~~
 *
 * A note belongs to the error or warning reported just before it.  After
 * DIAG_MAX_ERRORS errors the sink stops accepting more (diag_stopped), so no
 * input can flood the terminal.  Names longer than 64 characters are cut
 * short in messages. */
#ifndef BSPCOST_DIAG_H
#define BSPCOST_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "grammar/ast.h"
#include "grammar/source.h"

#define DIAG_MAX_ERRORS 50

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag_entry {
	enum diag_level level;
	struct span span;
	char *msg;
	int group;        /* a note shares the group of its error */
};

struct diag {
	FILE *out;
	const struct source *src;
	struct diag_entry *v;
	int n, cap;
	int group;
	int nerrors, nwarnings;
	bool stopped;     /* too many errors: stop scanning and checking */
	/* out of memory in the front end: an entry lost (still counted), or
	 * the parser or the checker could not go on; the specification is then
	 * refused with "out of memory", whatever the entries say */
	bool nomem;
};

void diag_init(struct diag *dg, FILE *out, const struct source *src);
/* Out of memory in the front end: DG->nomem set, and counted as an error
 * (so that nothing takes the specification for checked). */
void diag_nomem(struct diag *dg);
void diag_error(struct diag *dg, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warning(struct diag *dg, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_note(struct diag *dg, struct span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The order diag_flush prints DG's entries in: ORDER[k] (DG->n of them) is
 * the index of the k-th. */
void diag_order(const struct diag *dg, int *order);
/* Prints everything collected, in source order, and forgets it. */
void diag_flush(struct diag *dg);
void diag_free(struct diag *dg);

/* The edit distance between A and B (insertions, deletions, substitutions
 * and swaps of neighbours): how far a misspelt name is from the one meant,
 * for "did you mean" and for listing names closest first. */
size_t diag_edit_distance(const char *a, const char *b);

/* Whether TEXT is close enough to WORD (and not WORD) to be a misspelling of
 * it: one edit for words of up to four letters, two from five on, and fewer
 * edits than TEXT has letters. */
bool diag_misspelt(const char *text, const char *word);

#endif
