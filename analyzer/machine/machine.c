/* Reading machine profiles (machine.h). */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "analyzer/machine/machine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/number.h"
#include "grammar/diag.h"

const char *const machine_key_name[MACHINE_NKEYS] = {"l", "g", "l_us", "g_us", "n_half", "s"};

/* Sets *ERROR to "PATH:LINE: " and the message; returns -1. */
static int bad(char **error, const char *path, int line, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (asprintf(error, "%s:%d: %s", path, line, msg ? msg : "out of memory") < 0)
		*error = NULL;
	free(msg);
	return -1;
}

/* The next word of *S (spaces skip; '#' ends the line), cut in place; NULL
 * at the end of the line. */
static char *word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '\0' || *p == '#' || *p == '\n')
		return NULL;
	char *w = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '#')
		p++;
	if (*p == '#')
		*p = '\0'; /* the rest is a comment */
	else if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* The rest of the line after *S, trimmed (for title and source). */
static char *rest(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* A number for KEY at LINE into OUT: exact and at least 0. */
static int number(const char *text, mpq_t out, const char *key, char **error, const char *path,
		  int line)
{
	if (!text)
		return bad(error, path, line, "'%s' needs a value", key);
	if (number_parse(text, out) != 0)
		return bad(error, path, line, "'%s': '%s' is not a number (12, 7.5, 26e6 or 1/3)",
			   key, text);
	if (mpq_sgn(out) < 0)
		return bad(error, path, line, "'%s': %s is negative", key, text);
	if (strcmp(key, "s") == 0 && mpq_sgn(out) == 0)
		return bad(error, path, line, "'s': a speed of 0 flop/s");
	return 0;
}

/* -1 (with the message) when the line goes on after its one value. */
static int one_value(char **s, const char *key, char **error, const char *path, int line)
{
	return word(s) ? bad(error, path, line, "'%s' takes one value", key) : 0;
}

/* A positive integer for KEY at LINE. */
static int count(const char *text, long *out, const char *key, char **error, const char *path,
		 int line)
{
	char *end = NULL;
	errno = 0;
	long v = text ? strtol(text, &end, 10) : 0;
	if (!text || *end || errno || v < 1 || v > 1000000)
		return bad(error, path, line, "'%s' needs a whole number from 1 to 1000000%s%s%s",
			   key, text ? ", not '" : "", text ? text : "", text ? "'" : "");
	*out = v;
	return 0;
}

/* "unknown key 'gg'", with the closest key when one is close. */
static int unknown_key(const char *key, char **error, const char *path, int line, bool in_p)
{
	static const char *const top[] = {"machine", "title", "source", "s", "word", "p"};
	const char *best = NULL;
	for (int k = 0; k < MACHINE_NKEYS && !best; k++)
		if (diag_misspelt(key, machine_key_name[k]))
			best = machine_key_name[k];
	for (size_t k = 0; k < sizeof(top) / sizeof(*top) && !best; k++)
		if (diag_misspelt(key, top[k]))
			best = top[k];
	return bad(error, path, line, "unknown %s '%s'%s%s%s", in_p ? "value" : "line", key,
		   best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
}

/* A `p N key value ...` line into a new entry of M. */
static int read_entry(struct machine *m, char *s, char **error, const char *path, int line)
{
	long p = 0;
	if (count(word(&s), &p, "p", error, path, line) < 0)
		return -1;
	for (int i = 0; i < m->n; i++)
		if (m->at[i].p == p)
			return bad(error, path, line, "p %ld is given twice", p);
	struct machine_entry *at = realloc(m->at, (size_t)(m->n + 1) * sizeof(*at));
	if (!at)
		return bad(error, path, line, "out of memory");
	m->at = at;
	struct machine_entry *e = &m->at[m->n++];
	memset(e, 0, sizeof(*e));
	e->p = p;
	for (int k = 0; k < MACHINE_NKEYS; k++)
		mpq_init(e->v[k]);
	for (char *key; (key = word(&s));) {
		int k = 0;
		while (k < MACHINE_NKEYS && strcmp(key, machine_key_name[k]) != 0)
			k++;
		if (k == MACHINE_NKEYS)
			return unknown_key(key, error, path, line, true);
		if (e->has[k])
			return bad(error, path, line, "'%s' is given twice for p %ld", key, p);
		if (number(word(&s), e->v[k], key, error, path, line) < 0)
			return -1;
		e->has[k] = true;
	}
	if (!e->has[MACHINE_L] || !e->has[MACHINE_G])
		return bad(error, path, line, "p %ld needs both l and g (in flops)", p);
	return 0;
}

static int by_p(const void *a, const void *b)
{
	const struct machine_entry *x = a, *y = b;
	return (x->p > y->p) - (x->p < y->p);
}

int machine_read(struct machine *m, const char *path, char **error)
{
	memset(m, 0, sizeof(*m));
	mpq_init(m->s);
	*error = NULL;
	m->path = strdup(path);
	FILE *f = fopen(path, "r");
	if (!f) {
		if (asprintf(error, "%s: %s", path, strerror(errno)) < 0)
			*error = NULL;
		return -1;
	}
	char *buf = NULL;
	size_t cap = 0;
	int line = 0, r = 0;
	while (r == 0 && getline(&buf, &cap, f) >= 0) {
		line++;
		char *s = buf, *key = word(&s);
		if (!key)
			continue;
		char **text = strcmp(key, "machine") == 0 ? &m->name
			      : strcmp(key, "title") == 0 ? &m->title
			      : strcmp(key, "source") == 0 ? &m->source : NULL;
		if (text) {
			char *v = strcmp(key, "machine") == 0 ? word(&s) : rest(s);
			if (!v || !*v)
				r = bad(error, path, line, "'%s' needs a value", key);
			else if (*text)
				r = bad(error, path, line, "'%s' is given twice", key);
			else if (!(*text = strdup(v)))
				r = bad(error, path, line, "out of memory");
			else if (text == &m->name && word(&s))
				r = bad(error, path, line, "a machine's name is one word");
		} else if (strcmp(key, "s") == 0) {
			if (m->has_s)
				r = bad(error, path, line, "'s' is given twice");
			else if ((r = number(word(&s), m->s, "s", error, path, line)) == 0 &&
				 (r = one_value(&s, "s", error, path, line)) == 0)
				m->has_s = true;
		} else if (strcmp(key, "word") == 0) {
			if (m->word)
				r = bad(error, path, line, "'word' is given twice");
			else if ((r = count(word(&s), &m->word, "word", error, path, line)) == 0)
				r = one_value(&s, "word", error, path, line);
		} else if (strcmp(key, "p") == 0) {
			r = read_entry(m, s, error, path, line);
		} else {
			r = unknown_key(key, error, path, line, false);
		}
	}
	free(buf);
	bool read_error = ferror(f);
	fclose(f);
	if (r == 0 && read_error)
		r = bad(error, path, line, "cannot read the file");
	if (r == 0 && !m->name)
		r = bad(error, path, line, "no 'machine NAME' line");
	if (r == 0 && m->n == 0)
		r = bad(error, path, line, "no 'p' line: the profile gives no parameters");
	if (r == 0)
		qsort(m->at, (size_t)m->n, sizeof(*m->at), by_p);
	return r;
}

const struct machine_entry *machine_at(const struct machine *m, long p)
{
	for (int i = 0; i < m->n; i++)
		if (m->at[i].p == p)
			return &m->at[i];
	return NULL;
}

char *machine_counts(const struct machine *m)
{
	size_t cap = (size_t)m->n * 24 + 1, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < m->n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%ld", i ? ", " : "", m->at[i].p);
	return s;
}

int machine_speed(const struct machine *m, const struct machine_entry *e, mpq_t out)
{
	if (e && e->has[MACHINE_S])
		mpq_set(out, e->v[MACHINE_S]);
	else if (m->has_s)
		mpq_set(out, m->s);
	else
		return -1;
	return mpq_sgn(out) > 0 ? 0 : -1;
}

void machine_clear(struct machine *m)
{
	for (int i = 0; i < m->n; i++)
		for (int k = 0; k < MACHINE_NKEYS; k++)
			mpq_clear(m->at[i].v[k]);
	free(m->at);
	free(m->name);
	free(m->title);
	free(m->source);
	free(m->path);
	mpq_clear(m->s);
	memset(m, 0, sizeof(*m));
}
