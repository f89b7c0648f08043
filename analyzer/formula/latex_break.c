/* Long LaTeX formulas broken into lines (analyzer/formula/latex_break.h). */
#include "analyzer/formula/latex_break.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/text.h"

static void put_n(struct text *b, const char *s, size_t n)
{
	fwrite(s, 1, n, b->f);
}

static void put(struct text *b, const char *s)
{
	fputs(s, b->f);
}

/* The end of the group that starts at S (S[0] == '{'): the matching '}'. */
static const char *group_end(const char *s)
{
	int depth = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
	}
	return s + strlen(s);
}

/* The command name at S (S[0] == '\\'): its length, backslash included. */
static size_t command_len(const char *s)
{
	size_t n = 1;
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z'))
		n++;
	return n == 1 && s[1] ? 2 : n;
}

static bool is_command(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && strncmp(s, name, n) == 0;
}

/* The width of the N characters at S, in the width of a digit (5 pt at 10
 * pt), as Computer Modern sets math: a digit 1, a lowercase letter 1.1, a
 * capital 1.8, a binary operator with its spaces 2.4, a relation 2.8, a
 * fraction its wider part, scripts 0.7 of their text. */
static double width_n(const char *s, size_t n)
{
	double w = 0;
	const char *end = s + n;
	for (const char *p = s; p < end;) {
		if (*p == '\\') {
			size_t k = command_len(p);
			const char *q = p + k;
			if (is_command(p, k, "\\frac") && q < end && *q == '{') {
				const char *a = group_end(q);
				const char *b = a < end && a[1] == '{' ? group_end(a + 1) : a;
				double wa = width_n(q + 1, (size_t)(a - q - 1));
				double wb = b > a ? width_n(a + 2, (size_t)(b - a - 2)) : 0;
				w += (wa > wb ? wa : wb) + 0.4;
				p = b < end ? b + 1 : end;
				continue;
			}
			if ((is_command(p, k, "\\text") || is_command(p, k, "\\mathit") ||
			     is_command(p, k, "\\mathrm")) && q < end && *q == '{') {
				const char *e = group_end(q);
				w += width_n(q + 1, (size_t)(e - q - 1));
				p = e < end ? e + 1 : end;
				continue;
			}
			if (is_command(p, k, "\\left") || is_command(p, k, "\\right") ||
			    is_command(p, k, "\\bigl") || is_command(p, k, "\\bigr") ||
			    is_command(p, k, "\\begin") || is_command(p, k, "\\end")) {
				p = q;
				if (p < end && *p == '{') { /* an environment's name */
					const char *e = group_end(p);
					p = e < end ? e + 1 : end;
				}
				continue;
			}
			if (is_command(p, k, "\\pmod") && q < end && *q == '{') {
				/* "(mod 12)" after a space of 18 mu */
				const char *e = group_end(q);
				w += 7 + width_n(q + 1, (size_t)(e - q - 1));
				p = e < end ? e + 1 : end;
				continue;
			}
			if (is_command(p, k, "\\,"))
				w += 0.3;
			else if (is_command(p, k, "\\max") || is_command(p, k, "\\min"))
				w += 3;
			else if (is_command(p, k, "\\quad"))
				w += 2;
			else if (is_command(p, k, "\\geq") || is_command(p, k, "\\leq") ||
				 is_command(p, k, "\\neq") || is_command(p, k, "\\equiv") ||
				 is_command(p, k, "\\mid") ||
				 is_command(p, k, "\\nmid"))
				w += 2.8;
			else if (is_command(p, k, "\\land") || is_command(p, k, "\\lor") ||
				 is_command(p, k, "\\cdot"))
				w += 2.4;
			else if (k == 2 && strchr("_%&#$", p[1]))
				w += 1;
			else
				w += 1.2;
			p = q;
			continue;
		}
		if ((*p == '^' || *p == '_') && p + 1 < end && p[1] == '{') {
			const char *e = group_end(p + 1);
			w += 0.7 * width_n(p + 2, (size_t)(e - p - 2));
			p = e < end ? e + 1 : end;
			continue;
		}
		if (*p == '{' || *p == '}' || *p == ' ' || *p == '&') {
			p++;
			continue;
		}
		if (strchr("=<>", *p))
			w += 2.8;
		else if (strchr("+-", *p))
			w += 2.4;
		else if (strchr("()[]|,;.", *p))
			w += 0.8;
		else if (*p >= 'A' && *p <= 'Z')
			w += 1.8;
		else if (*p >= 'a' && *p <= 'z')
			w += 1.1;
		else
			w += 1;
		p++;
	}
	return w;
}

double latex_width(const char *s)
{
	return s ? width_n(s, strlen(s)) : 0;
}

/* A place to break a line: the line ends before END, the next starts at
 * NEXT (past a blank that the break replaces). */
struct brk {
	size_t end, next;
};

/* The places to break S outside every group and every \left ... \right:
 * before the operator of " + ", " - ", " \land " and " \lor ", before a '+'
 * or '-' written without blanks after a term (inside (m-32...)), and after
 * the comma of ", " (between the arguments of max).  *N gets their number. */
static struct brk *break_points(const char *s, int *n)
{
	size_t len = strlen(s);
	struct brk *at = malloc(sizeof(*at) * (len + 1));
	int depth = 0, lr = 0;
	*n = 0;
	if (!at)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		bool top = depth == 0 && lr == 0;
		if (s[i] == '\\') {
			size_t k = command_len(s + i);
			if (is_command(s + i, k, "\\left"))
				lr++;
			else if (is_command(s + i, k, "\\right"))
				lr--;
			else if (top && i > 0 && s[i - 1] == ' ' &&
				 (is_command(s + i, k, "\\land") || is_command(s + i, k, "\\lor")) &&
				 s[i + k] == ' ')
				at[(*n)++] = (struct brk){i - 1, i};
			i += k - 1;
			continue;
		}
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}')
			depth--;
		else if (!top)
			continue;
		else if ((s[i] == '+' || s[i] == '-') && i > 0 && s[i - 1] == ' ' && s[i + 1] == ' ')
			at[(*n)++] = (struct brk){i - 1, i};
		else if ((s[i] == '+' || s[i] == '-') && i > 0 &&
			 (isalnum((unsigned char)s[i - 1]) || s[i - 1] == ')' || s[i - 1] == '}'))
			at[(*n)++] = (struct brk){i, i};
		else if (s[i] == ',' && s[i + 1] == ' ')
			at[(*n)++] = (struct brk){i + 1, i + 2};
	}
	return at;
}

/* S with each top-level \frac{A}{B} whose A is wider than WIDTH written
 * \frac{1}{B}\bigl(A\bigr), so that A's terms can go on lines of their own. */
static char *open_fractions(const char *s, double width)
{
	struct text b;
	int depth = 0;
	if (text_open(&b) < 0)
		return NULL;
	for (const char *p = s; *p;) {
		if (*p == '\\') {
			size_t k = command_len(p);
			if (depth == 0 && is_command(p, k, "\\frac") && p[k] == '{') {
				const char *a = group_end(p + k);
				const char *e = *a && a[1] == '{' ? group_end(a + 1) : NULL;
				if (e && *e && width_n(p + k + 1, (size_t)(a - p - k - 1)) > width) {
					put(&b, "\\frac{1}{");
					put_n(&b, a + 2, (size_t)(e - a - 2));
					put(&b, "}\\bigl(");
					put_n(&b, p + k + 1, (size_t)(a - p - k - 1));
					put(&b, "\\bigr)");
					p = e + 1;
					continue;
				}
			}
			put_n(&b, p, k);
			p += k;
			continue;
		}
		if (*p == '{')
			depth++;
		else if (*p == '}')
			depth--;
		put_n(&b, p, 1);
		p++;
	}
	return text_close(&b);
}

char *latex_break(const char *s, double width)
{
	if (!s)
		return NULL;
	if (width <= 0 || latex_width(s) <= width)
		return strdup(s);
	char *t = open_fractions(s, width);
	int n;
	struct brk *at = t ? break_points(t, &n) : NULL;
	if (!at) {
		/* out of memory: not S whole, which is wider than asked */
		free(t);
		return NULL;
	}
	if (n == 0) {
		/* nowhere to break: as it was (an opened fraction is wider) */
		free(at);
		free(t);
		return strdup(s);
	}
	struct text b;
	if (text_open(&b) < 0) {
		free(at);
		free(t);
		return NULL;
	}
	put(&b, "\\begin{aligned}[t] &");
	size_t start = 0; /* the line's first character */
	int last = -1;    /* the last break that fits on the line, or -1 */
	double indent = 2; /* \quad before a continuation */
	for (int i = 0; i <= n; i++) {
		size_t end = i < n ? at[i].end : strlen(t);
		/* the line so far, up to this break, if it still fits */
		double w = width_n(t + start, end - start) + (start ? indent : 0);
		if (w > width && last >= 0 && at[last].end > start) {
			put_n(&b, t + start, at[last].end - start);
			/* {} keeps a leading + or - a binary operator */
			put(&b, " \\\\ &\\quad {}");
			start = at[last].next;
		}
		if (i < n)
			last = i;
	}
	put_n(&b, t + start, strlen(t) - start);
	put(&b, " \\end{aligned}");
	free(at);
	free(t);
	return text_close(&b);
}
