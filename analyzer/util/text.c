#include "analyzer/util/text.h"

#include <ctype.h>
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
	/* a write that failed (the stream could not grow) leaves the text
	 * short: ferror says so, fclose need not */
	int bad = ferror(t->f);

	if (fclose(t->f) != 0 || bad) {
		free(t->buf);
		return NULL;
	}
	return t->buf;
}

/* |C|, -2^63 included. */
static unsigned long long magnitude(long long c)
{
	return c < 0 ? 0ull - (unsigned long long)c : (unsigned long long)c;
}

void text_linear_term(struct text_linear *l, long long coef, const char *name)
{
	if (coef == 0)
		return;
	fputs(l->nterms ? (coef < 0 ? " - " : " + ") : (coef < 0 ? "-" : ""), l->out);
	if (coef != 1 && coef != -1)
		fprintf(l->out, "%llu*", magnitude(coef));
	fputs(name, l->out);
	l->nterms++;
}

void text_linear_end(struct text_linear *l, long long constant)
{
	if (!l->nterms)
		fprintf(l->out, "%lld", constant);
	else if (constant != 0)
		fprintf(l->out, " %c %llu", constant < 0 ? '-' : '+', magnitude(constant));
}

const char *text_next_name(const char **p, size_t *n)
{
	const char *q = *p;
	while (*q && !isalpha((unsigned char)*q) && *q != '_') {
		if (isdigit((unsigned char)*q))
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
		else
			q++;
	}
	if (!*q) {
		*p = q;
		return NULL;
	}
	size_t k = 0;
	while (isalnum((unsigned char)q[k]) || q[k] == '_')
		k++;
	*n = k;
	*p = q + k;
	return q;
}
