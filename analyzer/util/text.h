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

#endif
