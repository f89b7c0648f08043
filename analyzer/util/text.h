/* Building ISL text with stdio: a growing string behind a FILE *. */
#ifndef BSPCOST_TEXT_H
#define BSPCOST_TEXT_H

#include <stddef.h>
#include <stdio.h>

struct text {
	char *buf;
	size_t len;
	FILE *f;
};

/* Returns 0, or -1 when out of memory. */
int text_open(struct text *t);
/* Closes the stream and returns the text (the caller frees it), or NULL. */
char *text_close(struct text *t);

/* The one way bspcost writes a linear form for people (and for ISL's
 * parser): its terms in order, a zero coefficient skipped, a coefficient of
 * 1 or -1 unwritten, then the constant: "2*i - j + 3", "-k", "n - 1", "0".
 * Term by term on OUT: text_linear_term for each, then text_linear_end. */
struct text_linear {
	FILE *out;
	int nterms;   /* written so far */
};
void text_linear_term(struct text_linear *l, long long coef, const char *name);
void text_linear_end(struct text_linear *l, long long constant);

/* The next name in *P, text in the formula grammar (a number's digits are
 * no name): its start, with its length in *N and *P moved past it; NULL at
 * the end of the text. */
const char *text_next_name(const char **p, size_t *n);

#endif
