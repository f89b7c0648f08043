/* Reading machine profiles (machine.h). */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "analyzer/machine/machine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/util/number.h"
#include "grammar/diag.h"

const char *const machine_key_name[MACHINE_NKEYS] = {"l", "g", "l_us", "g_us", "n_half", "s",
						     "g_i", "g_o", "g_M", "o", "L"};

/* The largest machine profile read: the bundled ones are a few KB. */
enum { MACHINE_MAX_BYTES = 1 << 20 };

/* The coefficient a key gives, or COEF_N. */
static enum cost_coef key_coef(int k)
{
	switch (k) {
	case MACHINE_G: return COEF_G;
	case MACHINE_L: return COEF_L;
	case MACHINE_G_I: return COEF_G_I;
	case MACHINE_G_O: return COEF_G_O;
	case MACHINE_G_M: return COEF_G_M;
	case MACHINE_N_HALF: return COEF_N_HALF;
	case MACHINE_O: return COEF_O;
	case MACHINE_LAT: return COEF_LAT;
	default: return COEF_N;
	}
}

/* Sets *ERROR to "PATH:LINE: error: " and the message; returns -1. */
static int bad(char **error, const char *path, int line, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (asprintf(error, "%s:%d: error: %s", path, line, msg ? msg : "out of memory") < 0)
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
	static const char *const top[] = {"machine", "title", "source", "s", "word", "unit", "per",
					  "p", "level"};
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

/* A `p N [MODEL] key value ...` line into a new entry of M. */
/* Whether entries fitted for A and B (NULL: the generic entry of g and l)
 * price one function: the same, or bsp and F_h (w + h*g + l both). */
static bool one_function(const struct cost_model *a, const struct cost_model *b)
{
	if (a == b)
		return true;
	const struct cost_model *fh = cost_model_find("F_h"), *bsp = cost_model_default();
	return a && b && (a == fh || a == bsp) && (b == fh || b == bsp);
}

static int read_entry(struct machine *m, char *s, char **error, const char *path, int line)
{
	long p = 0;
	if (count(word(&s), &p, "p", error, path, line) < 0)
		return -1;
	/* a cost function's name, when the coefficients are fitted for it */
	while (*s == ' ' || *s == '\t')
		s++;
	char *first = strndup(s, strcspn(s, " \t\r\n#"));
	if (!first)
		return bad(error, path, line, "out of memory");
	const struct cost_model *cm = cost_model_find(first);
	if (cm)
		word(&s);
	if (!cm && (first[0] == 'F' || first[0] == 'f') && first[1] == '_') {
		char *names = cost_model_names();
		int r = bad(error, path, line, "unknown cost function '%s' (one of: %s)", first,
			    names ? names : "?");
		free(names);
		free(first);
		return r;
	}
	free(first);
	for (int i = 0; i < m->n; i++)
		if (m->at[i].p == p && one_function(m->at[i].model, cm))
			return bad(error, path, line, "p %ld%s%s is given twice%s", p, cm ? " " : "",
				   cm ? cm->name : "",
				   cm && m->at[i].model != cm ? " (bsp and F_h are one function)" : "");
	struct machine_entry *at = realloc(m->at, (size_t)(m->n + 1) * sizeof(*at));
	if (!at)
		return bad(error, path, line, "out of memory");
	m->at = at;
	struct machine_entry *e = &m->at[m->n++];
	memset(e, 0, sizeof(*e));
	e->p = p;
	e->model = cm;
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
		enum cost_coef c = key_coef(k);
		if (cm && c != COEF_N && !cost_model_reads(cm, c))
			return bad(error, path, line, "'%s': %s (%s) has no coefficient %s", key,
				   cm->name, cm->text, key);
		if (!cm && (k == MACHINE_G_I || k == MACHINE_G_O || k == MACHINE_G_M))
			return bad(error, path, line, "'%s' is a coefficient of Bianco and Pucci's "
				   "functions: write the function's name after p %ld (p %ld F_ioM "
				   "g_i ... )", key, p, p);
		if (number(word(&s), e->v[k], key, error, path, line) < 0)
			return -1;
		e->has[k] = true;
	}
	if (!cm && (!e->has[MACHINE_L] || !e->has[MACHINE_G]))
		return bad(error, path, line, "p %ld needs both l and g", p);
	for (int c = 0; cm && c < COEF_N; c++) {
		int k = 0;
		while (key_coef(k) != (enum cost_coef)c)
			k++;
		if (cost_model_reads(cm, c) && !e->has[k])
			return bad(error, path, line, "p %ld %s needs %s (%s)", p, cm->name,
				   cost_coef_name[c], cm->text);
	}
	return 0;
}

/* A `level C g G l L [pf PF]` line into a new level of M. */
static int read_level(struct machine *m, char *s, char **error, const char *path, int line)
{
	long p = 0;
	if (count(word(&s), &p, "level", error, path, line) < 0)
		return -1;
	if (p < 2 || (p & (p - 1)) != 0)
		return bad(error, path, line, "level %ld: a level is a cluster of 2, 4, 8, ... "
			   "processes", p);
	for (int i = 0; i < m->nlevels; i++)
		if (m->levels[i].p == p)
			return bad(error, path, line, "level %ld is given twice", p);
	struct machine_level *lv = realloc(m->levels, (size_t)(m->nlevels + 1) * sizeof(*lv));
	if (!lv)
		return bad(error, path, line, "out of memory");
	m->levels = lv;
	struct machine_level *e = &m->levels[m->nlevels++];
	e->p = p;
	mpq_inits(e->g, e->l, e->pf, NULL);
	bool has[3] = {false, false, false};
	static const char *const keys[3] = {"g", "l", "pf"};
	for (char *key; (key = word(&s));) {
		int k = 0;
		while (k < 3 && strcmp(key, keys[k]) != 0)
			k++;
		if (k == 3)
			return bad(error, path, line, "unknown key '%s' in level %ld (g, l and pf)", key,
				   p);
		if (has[k])
			return bad(error, path, line, "'%s' is given twice for level %ld", key, p);
		mpq_ptr v = k == 0 ? e->g : k == 1 ? e->l : e->pf;
		if (number(word(&s), v, key, error, path, line) < 0)
			return -1;
		has[k] = true;
	}
	if (!has[0] || !has[1])
		return bad(error, path, line, "level %ld needs both g and l", p);
	return 0;
}

static int by_level(const void *a, const void *b)
{
	const struct machine_level *x = a, *y = b;
	return (x->p > y->p) - (x->p < y->p);
}

static int by_p(const void *a, const void *b)
{
	const struct machine_entry *x = a, *y = b;
	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	/* the entry of g and l first, then the functions' in the order of
	 * cost_model's table (pointers into it) */
	if (!x->model || !y->model)
		return (x->model != NULL) - (y->model != NULL);
	return (x->model > y->model) - (x->model < y->model);
}

int machine_read(struct machine *m, const char *path, char **error)
{
	memset(m, 0, sizeof(*m));
	mpq_init(m->s);
	*error = NULL;
	m->path = strdup(path);
	/* a regular file only, of a profile's size: a FIFO (whose open() would
	 * wait for a writer, hence O_NONBLOCK) or a device such as /dev/zero
	 * would never end */
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	const char *why = fd < 0 || fstat(fd, &st) != 0 ? strerror(errno)
			  : S_ISDIR(st.st_mode) ? "is a directory"
			  : !S_ISREG(st.st_mode) ? "is not a regular file (a FIFO, a device or a socket)"
			  : st.st_size > MACHINE_MAX_BYTES ? "is larger than a machine profile may be (1 MiB)"
							   : NULL;
	FILE *f = why ? NULL : fdopen(fd, "r");
	if (!f) {
		if (asprintf(error, "%s: error: %s", path, why ? why : strerror(errno)) < 0)
			*error = NULL;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	char *buf = NULL;
	size_t cap = 0;
	int line = 0, r = 0, per_line = 0;
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
		} else if (strcmp(key, "unit") == 0) {
			static const char *const units[] = {"flops", "s", "ms", "us"};
			char *v = word(&s);
			int u = 0;
			while (v && u < 4 && strcmp(v, units[u]) != 0)
				u++;
			if (m->unit_given)
				r = bad(error, path, line, "'unit' is given twice");
			else if (!v || u == 4)
				r = bad(error, path, line, "'unit' is flops, s, ms or us%s%s%s",
					v ? ", not '" : "", v ? v : "", v ? "'" : "");
			else if ((r = one_value(&s, "unit", error, path, line)) == 0) {
				m->unit = (enum machine_unit)u;
				m->unit_given = true;
			}
		} else if (strcmp(key, "per") == 0) {
			char *v = word(&s);
			if (!v || (strcmp(v, "word") != 0 && strcmp(v, "byte") != 0))
				r = bad(error, path, line, "'per' is word or byte%s%s%s",
					v ? ", not '" : "", v ? v : "", v ? "'" : "");
			else if (per_line)
				r = bad(error, path, line, "'per' is given twice");
			else if ((r = one_value(&s, "per", error, path, line)) == 0) {
				m->per_byte = strcmp(v, "byte") == 0;
				per_line = line;
			}
		} else if (strcmp(key, "p") == 0) {
			r = read_entry(m, s, error, path, line);
		} else if (strcmp(key, "level") == 0) {
			r = read_level(m, s, error, path, line);
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
	if (r == 0 && m->n == 0 && m->nlevels == 0)
		r = bad(error, path, line, "no 'p' or 'level' line: the profile gives no parameters");
	if (r == 0 && m->per_byte && !m->word)
		r = bad(error, path, per_line, "'per byte' needs 'word' (bytes per word): h counts "
			"words");
	if (r == 0 && m->n > 1)
		qsort(m->at, (size_t)m->n, sizeof(*m->at), by_p);
	if (r == 0 && m->nlevels > 1)
		qsort(m->levels, (size_t)m->nlevels, sizeof(*m->levels), by_level);
	return r;
}

/* Whether E prices CM (see machine_at): 2 when fitted for it, 1 when it
 * serves it, 0 when not. */
static int serves(const struct machine_entry *e, const struct cost_model *cm)
{
	if (e->model == cm)
		return 2;
	/* an entry of l and g serves the models that price messages when it
	 * gives what they read beyond them */
	if (!e->model && cm->messages == MSG_NHALF)
		return e->has[MACHINE_N_HALF] ? 1 : 0;
	if (!e->model && cm->messages == MSG_LOGP)
		return e->has[MACHINE_O] && e->has[MACHINE_LAT] ? 1 : 0;
	bool gl = cm->nterms == 1 && cm->coef[0] == COEF_G;   /* bsp, F_h, overlap */
	if (e->model && gl && !cm->overlap && e->model->nterms == 1 &&
	    e->model->coef[0] == COEF_G && !e->model->overlap)
		return 2;   /* bsp and F_h are one function */
	return !e->model && gl ? 1 : 0;
}

const struct machine_entry *machine_at(const struct machine *m, long p,
				       const struct cost_model *cm)
{
	const struct machine_entry *best = NULL;
	int how = 0;
	for (int i = 0; i < m->n; i++)
		if (m->at[i].p == p && serves(&m->at[i], cm) > how) {
			best = &m->at[i];
			how = serves(best, cm);
		}
	return best;
}

char *machine_counts(const struct machine *m, const struct cost_model *cm)
{
	size_t cap = (size_t)m->n * 24 + 1, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < m->n; i++)
		if (serves(&m->at[i], cm) && machine_at(m, m->at[i].p, cm) == &m->at[i])
			len += (size_t)snprintf(s + len, cap - len, "%s%ld", len ? ", " : "",
						m->at[i].p);
	return s;
}

char *machine_models(const struct machine *m)
{
	char *names = cost_model_names(), *out = malloc(names ? strlen(names) + 1 : 1);
	if (!names || !out) {
		free(names);
		free(out);
		return NULL;
	}
	out[0] = '\0';
	char *save = NULL;
	for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
		const struct cost_model *cm = cost_model_find(name);
		bool any = false;
		for (int i = 0; i < m->n && !any; i++)
			any = serves(&m->at[i], cm) > 0;
		if (any) {
			strcat(out, *out ? ", " : "");
			strcat(out, name);
		}
	}
	free(names);
	return out;
}

int machine_prices(const struct machine *m, const struct machine_entry *e,
		   struct cost_prices *p, mpq_t speed)
{
	/* a time unit in seconds */
	static const unsigned long per[] = {1, 1, 1000, 1000000};
	bool has_speed = machine_speed(m, e, speed) == 0;
	if (m->unit != UNIT_FLOPS && !has_speed)
		return -1;
	mpq_t u;
	mpq_init(u);
	for (int k = 0; k < MACHINE_NKEYS; k++) {
		enum cost_coef c = key_coef(k);
		if (c == COEF_N || !e->has[k])
			continue;
		mpq_set(p->coef[c], e->v[k]);
		if (m->unit != UNIT_FLOPS && c != COEF_N_HALF) {   /* n_half: words */
			/* seconds times flop/s: flops */
			mpq_set_ui(u, 1, per[m->unit]);
			mpq_mul(p->coef[c], p->coef[c], u);
			mpq_mul(p->coef[c], p->coef[c], speed);
		}
		if (m->per_byte && (c == COEF_G || c == COEF_G_I || c == COEF_G_O || c == COEF_G_M)) {
			mpq_set_ui(u, (unsigned long)m->word, 1);
			mpq_mul(p->coef[c], p->coef[c], u);
		}
		p->has[c] = true;
	}
	mpq_clear(u);
	return has_speed ? 0 : 1;
}

int machine_speed(const struct machine *m, const struct machine_entry *e, mpq_t out)
{
	if (m->s_forced)
		mpq_set(out, m->s);
	else if (e && e->has[MACHINE_S])
		mpq_set(out, e->v[MACHINE_S]);
	else if (m->has_s)
		mpq_set(out, m->s);
	else
		return -1;
	return mpq_sgn(out) > 0 ? 0 : -1;
}

int machine_level(const struct machine *m, long p, mpq_t g, mpq_t l, mpq_t pf)
{
	static const unsigned long per[] = {1, 1, 1000, 1000000};
	const struct machine_level *e = NULL;
	for (int i = 0; i < m->nlevels && !e; i++)
		if (m->levels[i].p == p)
			e = &m->levels[i];
	mpq_t speed, u;
	mpq_inits(speed, u, NULL);
	int r = e && (m->unit == UNIT_FLOPS || machine_speed(m, NULL, speed) == 0) ? 0 : -1;
	if (r == 0) {
		mpq_set(g, e->g);
		mpq_set(l, e->l);
		mpq_set(pf, e->pf);
		if (m->unit != UNIT_FLOPS) {   /* seconds times flop/s: flops */
			mpq_set_ui(u, 1, per[m->unit]);
			mpq_mul(u, u, speed);
			mpq_mul(g, g, u);
			mpq_mul(l, l, u);
			mpq_mul(pf, pf, u);
		}
		if (m->per_byte) {
			mpq_set_ui(u, (unsigned long)m->word, 1);
			mpq_mul(g, g, u);
		}
	}
	mpq_clears(speed, u, NULL);
	return r;
}

void machine_clear(struct machine *m)
{
	for (int i = 0; i < m->nlevels; i++)
		mpq_clears(m->levels[i].g, m->levels[i].l, m->levels[i].pf, NULL);
	free(m->levels);
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
