#include "analyzer/util/text.h"

#include <stdlib.h>

int text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f ? 0 : -1;
}

char *text_close(struct text *t)
{
	if (fclose(t->f) != 0) {
		free(t->buf);
		return NULL;
	}
	return t->buf;
}
