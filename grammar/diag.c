/* Diagnostics: collect, order, print with the source line and a caret. */
#include "grammar/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_SHOWN 64

void diag_init(struct diag *dg, FILE *out, const struct source *src)
{
	memset(dg, 0, sizeof(*dg));
	dg->out = out;
	dg->src = src;
}

static int is_ident_char(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Cuts every run of identifier characters longer than NAME_MAX_SHOWN (MSG
 * taken; out of memory: MSG as it is). */
static char *shorten_names(char *msg)
{
	size_t len = strlen(msg), o = 0;
	char *out = malloc(len + 1);
	if (!out)
		return msg;
	for (size_t i = 0; i < len;) {
		if (!is_ident_char((unsigned char)msg[i])) {
			out[o++] = msg[i++];
			continue;
		}
		size_t j = i;
		while (j < len && is_ident_char((unsigned char)msg[j]))
			j++;
		if (j - i > NAME_MAX_SHOWN) {
			memcpy(out + o, msg + i, NAME_MAX_SHOWN - 3);
			o += NAME_MAX_SHOWN - 3;
			memcpy(out + o, "...", 3);
			o += 3;
		} else {
			memcpy(out + o, msg + i, j - i);
			o += j - i;
		}
		i = j;
	}
	out[o] = '\0';
	free(msg);
	return out;
}

static void add(struct diag *dg, enum diag_level level, struct span sp, const char *fmt, va_list ap)
{
	if (dg->stopped)
		return;
	if (level == DIAG_ERROR && dg->nerrors >= DIAG_MAX_ERRORS) {
		dg->stopped = true;
		return;
	}
	va_list ap2;
	va_copy(ap2, ap);
	int need = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (need < 0)
		need = 0;
	/* out of memory, the entry is lost, but an error is still counted:
	 * the specification is not taken for sound */
	if (level == DIAG_ERROR)
		dg->nerrors++;
	else if (level == DIAG_WARNING)
		dg->nwarnings++;
	char *msg = malloc((size_t)need + 1);
	if (msg && dg->n == dg->cap) {
		int cap = dg->cap ? 2 * dg->cap : 16;
		struct diag_entry *v = ast_array_grow(dg->v, (size_t)cap, sizeof(*dg->v));
		if (v) {
			dg->v = v;
			dg->cap = cap;
		}
	}
	if (!msg || dg->n == dg->cap) {
		free(msg);
		dg->nomem = true;
		return;
	}
	vsnprintf(msg, (size_t)need + 1, fmt, ap);
	if (level != DIAG_NOTE)
		dg->group++;
	dg->v[dg->n++] = (struct diag_entry){level, sp, shorten_names(msg), dg->group};
}

void diag_nomem(struct diag *dg)
{
	dg->nomem = true;
	dg->nerrors++;
}

void diag_error(struct diag *dg, struct span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(dg, DIAG_ERROR, sp, fmt, ap);
	va_end(ap);
}

void diag_warning(struct diag *dg, struct span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(dg, DIAG_WARNING, sp, fmt, ap);
	va_end(ap);
}

void diag_note(struct diag *dg, struct span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(dg, DIAG_NOTE, sp, fmt, ap);
	va_end(ap);
}

/* The length of the valid UTF-8 sequence at P (at most N bytes), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
		   : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (len == 0 || len > n || (len == 2 && p[0] < 0xC2))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* Prints the line of SP and a caret (tildes for the rest of the span on that
 * line).  Control characters and invalid UTF-8 show as '?', one column each;
 * very long lines are shown as a window around the column. */
static void show_line(FILE *out, const struct source *src, struct span sp)
{
	size_t len;
	const char *text = source_line(src, sp.first_line, &len);
	if (!text)
		return;
	const unsigned char *line = (const unsigned char *)text;
	size_t col = sp.first_column > 0 ? (size_t)sp.first_column - 1 : 0;
	if (col > len)
		col = len;
	size_t last = col + 1;
	if (sp.last_line > sp.first_line)
		last = len;
	else if (sp.last_column > sp.first_column)
		last = (size_t)sp.last_column;
	enum { WIDTH = 240 };   /* columns shown around the caret */
	size_t start = 0, end = len;
	const size_t width = WIDTH;
	if (col > 2 * width / 3)
		start = col - width / 3;
	while (start > 0 && start < len && (line[start] & 0xC0) == 0x80)
		start--;
	if (end - start > width)
		end = start + width;
	if (last > end)
		last = end;
	/* the line, and the caret line under it, walking the same characters
	 * (at most WIDTH, and "..." before) */
	char marks[WIDTH + 8];
	size_t m = 0;
	if (start > 0) {
		fputs("...", out);
		memcpy(marks, "   ", 3);
		m = 3;
	}
	for (size_t i = start; i < end;) {
		size_t n = utf8_len(line + i, end - i);
		bool shown = n > 0 && !(n == 1 && (line[i] < 0x20 || line[i] == 0x7f) && line[i] != '\t');
		if (!shown)
			n = 1;
		char mark = col >= i && col < i + n ? '^' : i < col ? (line[i] == '\t' ? '\t' : ' ')
			    : i < last ? '~' : 0;
		if (shown)
			fwrite(line + i, 1, n, out);
		else
			fputc('?', out);
		if (mark)
			marks[m++] = mark;
		i += n;
	}
	if (end < len)
		fputs("...", out);
	fputc('\n', out);
	if (col >= end)
		marks[m++] = '^';
	fwrite(marks, 1, m, out);
	fputc('\n', out);
}

struct sort_key {
	int line, col, first, seq;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	if (x->line != y->line)
		return (x->line > y->line) - (x->line < y->line);
	if (x->col != y->col)
		return (x->col > y->col) - (x->col < y->col);
	if (x->first != y->first)
		return (x->first > y->first) - (x->first < y->first);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void diag_order(const struct diag *dg, int *order)
{
	/* Groups (an error or warning with its notes) in the order of their first
	 * entry's position; inside a group, the order they were reported in. */
	int *first = calloc((size_t)dg->group + 1, sizeof(*first));
	struct sort_key *keys = calloc((size_t)dg->n + 1, sizeof(*keys));
	if (!first || !keys) {   /* out of memory: the order they came in */
		for (int k = 0; k < dg->n; k++)
			order[k] = k;
		free(first);
		free(keys);
		return;
	}
	for (int g = 0; g <= dg->group; g++)
		first[g] = -1;
	for (int i = 0; i < dg->n; i++)
		if (first[dg->v[i].group] < 0)
			first[dg->v[i].group] = i;
	for (int i = 0; i < dg->n; i++) {
		const struct diag_entry *head = &dg->v[first[dg->v[i].group]];
		keys[i] = (struct sort_key){head->span.first_line, head->span.first_column,
					    first[dg->v[i].group], i};
	}
	qsort(keys, (size_t)dg->n, sizeof(*keys), cmp_key);
	for (int k = 0; k < dg->n; k++)
		order[k] = keys[k].seq;
	free(keys);
	free(first);
}

void diag_flush(struct diag *dg)
{
	int *order = calloc((size_t)dg->n + 1, sizeof(*order));
	if (order)
		diag_order(dg, order);
	static const char *const label[] = {"error", "warning", "note"};
	for (int k = 0; k < dg->n; k++) {
		const struct diag_entry *e = &dg->v[order ? order[k] : k];
		fprintf(dg->out, "%s:%d:%d: %s: %s\n", dg->src->name, e->span.first_line,
			e->span.first_column, label[e->level], e->msg);
		show_line(dg->out, dg->src, e->span);
	}
	if (dg->stopped)
		fprintf(dg->out, "%s: too many errors (more than %d); stopping\n", dg->src->name,
			DIAG_MAX_ERRORS);
	free(order);
	for (int i = 0; i < dg->n; i++)
		free(dg->v[i].msg);
	dg->n = 0;
	dg->group = 0;
}

void diag_free(struct diag *dg)
{
	for (int i = 0; i < dg->n; i++)
		free(dg->v[i].msg);
	free(dg->v);
	dg->v = NULL;
	dg->n = dg->cap = 0;
}

size_t diag_edit_distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	size_t *d = calloc((na + 1) * (nb + 1), sizeof(*d));
	if (!d)
		return na > nb ? na : nb;
#define D(i, j) d[(i) * (nb + 1) + (j)]
	for (size_t i = 0; i <= na; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= nb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			size_t best = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);
			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	size_t r = D(na, nb);
#undef D
	free(d);
	return r;
}

bool diag_misspelt(const char *text, const char *word)
{
	size_t d = diag_edit_distance(text, word);
	/* d < |TEXT|: a one-letter name is no misspelling of another */
	return d > 0 && d < strlen(text) && d <= (strlen(word) >= 5 ? 2u : 1u);
}
