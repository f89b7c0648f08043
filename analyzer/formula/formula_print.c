/* Printing formulas as text for people, as the machine grammar, and as LaTeX.
 *
 * Why this file is long: the three styles share one document tree and every
 * choice about grouping and order; the tree, its simplification and each
 * style's rendering are its sections.
 *
 * A value is first turned into a small document tree (sums, products, fractions,
 * powers, function calls), then rendered in the requested style, so the three
 * styles share every choice about grouping and order:
 *
 * - Variables are ordered by name, case-insensitively, then upper case first
 *   (g, l, M, m, N, n, o); floor atoms come after the parameters.
 * - A polynomial leaf splits into its terms with a monomial denominator (written
 *   over their common denominator, e.g. (...)/(M*N)) and its polynomial terms
 *   (written over their common integer denominator, e.g. n*(n+1)/2).
 * - A numerator is written in the shortest of three forms: the flat sum (terms by
 *   degree, then by variable order), the grouped sum (the variable that divides
 *   most terms is pulled out with the largest common monomial, recursively:
 *   o*m*N - o*m + o*n*M - o*n becomes m*o*(N-1) + n*o*(M-1)), or FLINT's
 *   factorization ((n+1)*(n+2)).  Ties go to the factored form, then the
 *   grouped one.
 * - Parenthesized factors of a product are written without blanks (n*(n+1));
 *   every other sum has blanks around its signs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/formula/latex_break.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/val.h"

/* ---------------------------------------------------------------- strings */

struct sbuf {
	char *s;
	size_t n, cap;
	int oom;
};

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *t;
		while (cap < b->n + n + 1)
			cap *= 2;
		t = realloc(b->s, cap);
		if (!t) {
			b->oom = 1;
			return;
		}
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static char *sb_finish(struct sbuf *b)
{
	if (b->oom) {
		free(b->s);
		return NULL;
	}
	if (!b->s)
		return strdup("");
	return b->s;
}

/* ---------------------------------------------------------------- documents */

enum dkind { D_NUM, D_NAME, D_POW, D_PROD, D_SUM, D_FRAC, D_FUNC, D_NEG };

/* Out of memory, a document is NULL or broken: a part of it could not be
 * allocated, and whatever holds it is broken too (doc_push), so that its
 * rendering fails rather than print a formula with a part missing.  The
 * builders below take and pass on NULL documents; those that move children
 * from one document to another carry the mark with them. */
struct doc {
	enum dkind kind;
	char *text;  /* D_NUM digits, D_NAME name, D_FUNC function name */
	slong exp;   /* D_POW */
	int tight;   /* D_SUM written without blanks */
	int broken;  /* a part is missing (out of memory): cannot be rendered */
	int n, size;
	struct doc **c;
	char *neg;   /* D_SUM: child i is subtracted */
};

static struct doc *doc_new(enum dkind kind, const char *text)
{
	struct doc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->kind = kind;
	if (text && !(d->text = strdup(text))) {
		free(d);
		return NULL;
	}
	return d;
}

static void doc_break(struct doc *d)
{
	if (d)
		d->broken = 1;
}

static void doc_free(struct doc *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		doc_free(d->c[i]);
	free(d->c);
	free(d->neg);
	free(d->text);
	free(d);
}

/* Appends CHILD (taken) to D.  A NULL or broken CHILD, or no room for it,
 * breaks D; with no D, CHILD is freed. */
static void doc_push(struct doc *d, struct doc *child, int neg)
{
	if (!d) {
		doc_free(child);
		return;
	}
	if (!child) {
		d->broken = 1;
		return;
	}
	if (d->n == d->size) {
		int size = d->size ? 2 * d->size : 4;
		struct doc **c = realloc(d->c, size * sizeof(*c));
		char *ng = c ? realloc(d->neg, size) : NULL;
		if (c)
			d->c = c;
		if (!ng) {
			doc_free(child);
			d->broken = 1;
			return;
		}
		d->neg = ng;
		d->size = size;
	}
	d->broken |= child->broken;
	d->c[d->n] = child;
	d->neg[d->n] = (char)neg;
	d->n++;
}

/* (FLINT's fmpz_get_str aborts when out of memory, as all of FLINT does.) */
static struct doc *doc_num(const fmpz_t x)
{
	char *s = fmpz_get_str(NULL, 10, x);
	struct doc *d = doc_new(D_NUM, s[0] == '-' ? s + 1 : s);

	flint_free(s);
	return d;
}

static struct doc *doc_unary(enum dkind kind, const char *text, struct doc *child)
{
	struct doc *d = doc_new(kind, text);

	doc_push(d, child, 0);
	return d;
}

/* A product that is just its one factor collapses (not a broken one: its
 * mark would go with it). */
static struct doc *prod_finish(struct doc *p)
{
	struct doc *c;

	if (!p || p->broken)
		return p;
	if (p->n == 0) {
		doc_free(p);
		return doc_new(D_NUM, "1");
	}
	if (p->n > 1)
		return p;
	c = p->c[0];
	p->n = 0;
	doc_free(p);
	return c;
}

/* A sum's value: NUM 0, its single term (negated if needed) or itself. */
static struct doc *sum_finish(struct doc *s)
{
	struct doc *c;
	int neg;

	if (!s || s->broken)
		return s;
	if (s->n == 0) {
		doc_free(s);
		return doc_new(D_NUM, "0");
	}
	if (s->n > 1)
		return s;
	c = s->c[0];
	neg = s->neg[0];
	s->n = 0;
	doc_free(s);
	return neg ? doc_unary(D_NEG, NULL, c) : c;
}

/* ---------------------------------------------------------------- rendering */

struct pctx {
	const struct fvars *V;
	enum formula_style style;
	slong *order;  /* variables by rank */
	slong *rank;   /* rank of each variable */
};

static int prec(const struct doc *d)
{
	switch (d->kind) {
	case D_SUM:
		return 1;
	case D_NEG:
		return 2;
	case D_PROD:
	case D_FRAC:
		return 3;
	case D_POW:
		return 4;
	default:
		return 5;
	}
}

static void render(const struct doc *d, enum formula_style style, int needed,
	struct sbuf *b);

static void latex_name(const char *name, struct sbuf *b)
{
	const char *p;

	if (strlen(name) == 1) {
		sb_puts(b, name);
		return;
	}
	sb_puts(b, "\\mathit{");
	for (p = name; *p; p++) {
		if (*p == '_')
			sb_puts(b, "\\_");
		else
			sb_putn(b, p, 1);
	}
	sb_puts(b, "}");
}

/* Whether a LaTeX factor is a single letter (juxtaposes without a space). */
static int latex_letter(const struct doc *d)
{
	return (d->kind == D_NAME && strlen(d->text) == 1) ||
		(d->kind == D_POW && latex_letter(d->c[0]));
}

static void render(const struct doc *d, enum formula_style style, int needed,
	struct sbuf *b)
{
	int latex = style == FORMULA_LATEX;
	int paren;
	int i;

	if (!d || d->broken) {
		b->oom = 1;
		return;
	}
	paren = prec(d) < needed;
	if (paren)
		sb_puts(b, "(");
	switch (d->kind) {
	case D_NUM:
		sb_puts(b, d->text);
		break;
	case D_NAME:
		if (latex)
			latex_name(d->text, b);
		else
			sb_puts(b, d->text);
		break;
	case D_POW: {
		char buf[32];
		render(d->c[0], style, 5, b);
		snprintf(buf, sizeof(buf), latex ? "^{%ld}" : "^%ld", d->exp);
		sb_puts(b, buf);
		break;
	}
	case D_NEG:
		sb_puts(b, "-");
		render(d->c[0], style, 3, b);
		break;
	case D_SUM:
		for (i = 0; i < d->n; i++) {
			if (i == 0)
				sb_puts(b, d->neg[i] ? "-" : "");
			else if (d->tight)
				sb_puts(b, d->neg[i] ? "-" : "+");
			else
				sb_puts(b, d->neg[i] ? " - " : " + ");
			render(d->c[i], style, 2, b);
		}
		break;
	case D_PROD:
		for (i = 0; i < d->n; i++) {
			if (i > 0 && !latex)
				sb_puts(b, "*");
			else if (i > 0) {
				const struct doc *l = d->c[i - 1], *r = d->c[i];
				if (l->kind == D_NUM && r->kind == D_NUM)
					sb_puts(b, " \\cdot ");
				else if (!(l->kind == D_NUM || r->kind == D_SUM ||
					   (latex_letter(l) && latex_letter(r))))
					sb_puts(b, "\\,");
			}
			render(d->c[i], style, 3, b);
		}
		break;
	case D_FRAC:
		if (latex) {
			sb_puts(b, "\\frac{");
			render(d->c[0], style, 0, b);
			sb_puts(b, "}{");
			render(d->c[1], style, 0, b);
			sb_puts(b, "}");
		} else {
			render(d->c[0], style, 3, b);
			sb_puts(b, "/");
			render(d->c[1], style, 4, b);
		}
		break;
	case D_FUNC:
		if (latex && (strcmp(d->text, "floor") == 0 || strcmp(d->text, "ceil") == 0)) {
			int fl = d->text[0] == 'f';
			sb_puts(b, fl ? "\\left\\lfloor " : "\\left\\lceil ");
			render(d->c[0], style, 0, b);
			sb_puts(b, fl ? " \\right\\rfloor" : " \\right\\rceil");
			break;
		}
		if (latex)
			sb_puts(b, "\\");
		sb_puts(b, d->text);
		sb_puts(b, "(");
		for (i = 0; i < d->n; i++) {
			if (i > 0)
				sb_puts(b, ", ");
			render(d->c[i], style, 0, b);
		}
		sb_puts(b, ")");
		break;
	}
	if (paren)
		sb_puts(b, ")");
}

static char *render_string(const struct doc *d, enum formula_style style)
{
	struct sbuf b = { 0 };

	render(d, style, 0, &b);
	return sb_finish(&b);
}

static size_t text_length(const struct doc *d)
{
	char *s = render_string(d, FORMULA_TEXT);
	size_t n = s ? strlen(s) : (size_t)-1;

	free(s);
	return n;
}

/* ---------------------------------------------------------------- terms */

struct pterm {
	fmpq_t c;
	slong *e;
};

struct tlist {
	struct pterm *t;
	int n, size;
	slong cap; /* exponent vector length */
	int oom;   /* a term could not be pushed: the list is incomplete */
};

static void tl_init(struct tlist *l, slong cap)
{
	memset(l, 0, sizeof(*l));
	l->cap = cap;
}

static void tl_push(struct tlist *l, const fmpq_t c, const slong *e)
{
	slong *x;

	if (l->oom)
		return;
	if (l->n == l->size) {
		int size = l->size ? 2 * l->size : 8;
		struct pterm *t = realloc(l->t, size * sizeof(*t));
		if (!t) {
			l->oom = 1;
			return;
		}
		l->t = t;
		l->size = size;
	}
	x = calloc(l->cap + 1, sizeof(slong));
	if (!x) {
		l->oom = 1;
		return;
	}
	memcpy(x, e, l->cap * sizeof(slong));
	fmpq_init(l->t[l->n].c);
	fmpq_set(l->t[l->n].c, c);
	l->t[l->n].e = x;
	l->n++;
}

static void tl_clear(struct tlist *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		fmpq_clear(l->t[i].c);
		free(l->t[i].e);
	}
	free(l->t);
	memset(l, 0, sizeof(*l));
}

/* The terms of a polynomial leaf, exponents net of its denominator. */
static void tl_from_poly(struct tlist *l, const struct fvars *V, const struct fnode *x)
{
	slong i, j, len = fmpq_mpoly_length(x->num, V->ctx);
	slong *e = calloc(V->cap + 1, sizeof(slong));
	fmpq_t c;

	tl_init(l, V->cap);
	if (!e) {
		l->oom = 1;
		return;
	}
	fmpq_init(c);
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_exp_si(e, x->num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, x->num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			e[i] -= x->den[i];
		tl_push(l, c, e);
	}
	fmpq_clear(c);
	free(e);
}

/* Display order of monomials: higher degree first, then higher powers of
 * earlier variables first. */
static int mono_cmp(const struct pctx *P, const slong *a, const slong *b, slong cap)
{
	slong i, da = 0, db = 0;

	for (i = 0; i < cap; i++) {
		da += a[i];
		db += b[i];
	}
	if (da != db)
		return da > db ? -1 : 1;
	for (i = 0; i < cap; i++) {
		slong v = P->order[i];
		if (a[v] != b[v])
			return a[v] > b[v] ? -1 : 1;
	}
	return 0;
}

static void tl_sort(const struct pctx *P, struct tlist *l)
{
	/* insertion sort: qsort has no user pointer in C11 */
	int i, j;

	for (i = 1; i < l->n; i++)
		for (j = i; j > 0 && mono_cmp(P, l->t[j - 1].e, l->t[j].e, l->cap) > 0;
		     j--) {
			struct pterm t = l->t[j];
			l->t[j] = l->t[j - 1];
			l->t[j - 1] = t;
		}
}

static struct doc *node_doc(const struct pctx *P, const struct fnode *x);

static struct doc *var_doc(const struct pctx *P, slong i)
{
	const struct fvar *v = &P->V->v[i];

	if (v->name)
		return doc_new(D_NAME, v->name);
	return doc_unary(D_FUNC, "floor", node_doc(P, v->arg));
}

/* Appends to PROD the factors x_i^E[i] (E[i] > 0) in variable order. */
static void mono_factors(const struct pctx *P, const slong *e, struct doc *prod)
{
	slong k;

	for (k = 0; k < P->V->cap; k++) {
		slong i = P->order[k];
		struct doc *x;
		if (e[i] <= 0)
			continue;
		x = var_doc(P, i);
		if (e[i] > 1) {
			x = doc_unary(D_POW, NULL, x);
			if (x)
				x->exp = e[i];
		}
		doc_push(prod, x, 0);
	}
}

/* |C| * x^E as a product (C an integer or a fraction). */
static struct doc *term_doc(const struct pctx *P, const fmpq_t c, const slong *e)
{
	struct doc *p = doc_new(D_PROD, NULL);
	slong i;
	int mono = 0;

	for (i = 0; i < P->V->cap; i++)
		mono |= e[i] != 0;
	if (!fmpz_is_pm1(fmpq_numref(c)) || !mono)
		doc_push(p, doc_num(fmpq_numref(c)), 0);
	mono_factors(P, e, p);
	p = prod_finish(p);
	if (!fmpz_is_one(fmpq_denref(c))) {
		struct doc *f = doc_new(D_FRAC, NULL);
		doc_push(f, p, 0);
		doc_push(f, doc_num(fmpq_denref(c)), 0);
		p = f;
	}
	return p;
}

/* ---------------------------------------------------------------- numerators */

/* The flat sum of L's terms in display order, appended to S; with OUTER
 * multiplied into every term. */
static void push_flat(const struct pctx *P, struct tlist *l, const slong *outer,
	struct doc *S)
{
	slong *e;
	int k;
	slong i;

	if (!S)
		return;
	e = calloc(l->cap + 1, sizeof(slong));
	if (!e || l->oom) {
		free(e);
		doc_break(S);
		return;
	}
	tl_sort(P, l);
	if (l->n > 1 && fmpq_sgn(l->t[0].c) < 0) {
		/* start with a positive term when there is one: n - m, not -m + n */
		for (k = 1; k < l->n && fmpq_sgn(l->t[k].c) < 0; k++)
			;
		if (k < l->n) {
			struct pterm t = l->t[k];
			memmove(l->t + 1, l->t, k * sizeof(*l->t));
			l->t[0] = t;
		}
	}
	for (k = 0; k < l->n; k++) {
		for (i = 0; i < l->cap; i++)
			e[i] = l->t[k].e[i] + (outer ? outer[i] : 0);
		doc_push(S, term_doc(P, l->t[k].c, e), fmpq_sgn(l->t[k].c) < 0);
	}
	free(e);
}

/* The variable to group L's terms by, or -1: the one dividing most terms (at
 * least two), ties to the earlier variable, provided the group is all of L or
 * the variable does not reappear inside the parentheses. */
static slong group_var(const struct pctx *P, const struct tlist *l)
{
	slong best = -1, k;
	int bestcount = 1;

	for (k = 0; k < l->cap; k++) {
		slong v = P->order[k];
		int count = 0, j, same = 1;
		slong e0 = -1;
		for (j = 0; j < l->n; j++) {
			if (l->t[j].e[v] <= 0)
				continue;
			count++;
			if (e0 < 0)
				e0 = l->t[j].e[v];
			else if (l->t[j].e[v] != e0)
				same = 0;
		}
		if (count < 2 || (count < l->n && !same))
			continue;
		if (count > bestcount) {
			bestcount = count;
			best = v;
		}
	}
	return best;
}

/* The grouped form of L (integer coefficients, exponents >= 0) appended to S. */
static void push_grouped(const struct pctx *P, struct tlist *l, const slong *outer,
	struct doc *S)
{
	struct tlist in, rest;
	slong x, i, *mu, *e;
	int k;

	if (!S)
		return;
	if (l->oom) {
		doc_break(S);
		return;
	}
	x = group_var(P, l);
	if (x < 0 || l->n < 2) {
		push_flat(P, l, outer, S);
		return;
	}
	tl_init(&in, l->cap);
	tl_init(&rest, l->cap);
	mu = calloc(l->cap + 1, sizeof(slong));
	e = calloc(l->cap + 1, sizeof(slong));
	if (!mu || !e) {
		doc_break(S);
		goto done;
	}
	for (i = 0; i < l->cap; i++)
		mu[i] = -1;
	for (k = 0; k < l->n; k++) {
		if (l->t[k].e[x] <= 0) {
			tl_push(&rest, l->t[k].c, l->t[k].e);
			continue;
		}
		for (i = 0; i < l->cap; i++)
			if (mu[i] < 0 || l->t[k].e[i] < mu[i])
				mu[i] = l->t[k].e[i];
	}
	for (k = 0; k < l->n; k++) {
		if (l->t[k].e[x] <= 0)
			continue;
		for (i = 0; i < l->cap; i++)
			e[i] = l->t[k].e[i] - mu[i];
		tl_push(&in, l->t[k].c, e);
	}
	if (in.oom || rest.oom) {
		doc_break(S);
		goto done;
	}
	for (i = 0; i < l->cap; i++)
		mu[i] += outer ? outer[i] : 0;
	if (group_var(P, &in) >= 0) {
		/* the inside groups further: distribute MU over its groups */
		push_grouped(P, &in, mu, S);
	} else {
		/* MU * content * (flat sum) */
		struct doc *prod = doc_new(D_PROD, NULL), *inner = doc_new(D_SUM, NULL);
		fmpz_t g;
		fmpq_t c;
		int neg;
		tl_sort(P, &in);
		fmpz_init(g);
		fmpq_init(c);
		for (k = 0; k < in.n; k++)
			fmpz_gcd(g, g, fmpq_numref(in.t[k].c));
		/* the sign goes outside the parentheses when the first term is
		 * negative, except that the first group of a sum stays positive
		 * when it can: m*(3*m-M), not -m*(M-3*m) */
		neg = fmpq_sgn(in.t[0].c) < 0;
		if (neg && S->n == 0)
			for (k = 0; k < in.n; k++)
				if (fmpq_sgn(in.t[k].c) > 0)
					neg = 0;
		for (k = 0; k < in.n; k++) {
			fmpq_div_fmpz(in.t[k].c, in.t[k].c, g);
			if (neg)
				fmpq_neg(in.t[k].c, in.t[k].c);
		}
		if (inner)
			inner->tight = 1;
		memset(e, 0, (l->cap + 1) * sizeof(slong));
		push_flat(P, &in, NULL, inner);
		if (!fmpz_is_one(g))
			doc_push(prod, doc_num(g), 0);
		mono_factors(P, mu, prod);
		doc_push(prod, inner, 0);
		doc_push(S, prod, neg);
		fmpz_clear(g);
		fmpq_clear(c);
	}
	if (rest.n > 0)
		push_grouped(P, &rest, outer, S);
done:
	tl_clear(&in);
	tl_clear(&rest);
	free(mu);
	free(e);
}

/* FLINT's factorization of L as a product, when it has at least two factors
 * that are not monomials (counted with multiplicity); else NULL.  *NEG gets the
 * sign; *OOM is set when out of memory (NULL then). */
static struct doc *factored(const struct pctx *P, const struct tlist *l, int *neg, int *oom)
{
	const struct fvars *V = P->V;
	fmpq_mpoly_t A, base;
	fmpq_mpoly_factor_t f;
	struct doc *prod = NULL;
	fmpq_t c;
	slong i, k, nontrivial = 0;
	ulong *u = calloc(V->cap + 1, sizeof(ulong));
	int sign = 1;

	*oom = 0;
	fmpq_mpoly_init(A, V->ctx);
	fmpq_mpoly_init(base, V->ctx);
	fmpq_mpoly_factor_init(f, V->ctx);
	fmpq_init(c);
	if (!u || l->oom) {
		*oom = 1;
		goto done;
	}
	for (k = 0; k < l->n; k++) {
		for (i = 0; i < V->cap; i++)
			u[i] = (ulong)l->t[k].e[i];
		fmpq_mpoly_push_term_fmpq_ui(A, l->t[k].c, u, V->ctx);
	}
	fmpq_mpoly_sort_terms(A, V->ctx);
	fmpq_mpoly_combine_like_terms(A, V->ctx);
	if (!fml_factor(V, f, A) || !fmpq_mpoly_factor_make_integral(f, V->ctx))
		goto done;
	for (k = 0; k < f->num; k++)
		if (fmpq_mpoly_length(f->poly + k, V->ctx) > 1)
			nontrivial += fmpz_get_si(f->exp + k);
	if (nontrivial < 2)
		goto done;
	prod = doc_new(D_PROD, NULL);
	{
		/* monomial factors first, merged into one monomial */
		slong *e = calloc(V->cap + 1, sizeof(slong));
		slong *me = calloc(V->cap + 1, sizeof(slong));
		struct doc **sums = calloc(f->num + 1, sizeof(*sums));
		int nsums = 0, a, b;
		if (!prod || !e || !me || !sums)
			*oom = 1;
		for (k = 0; k < f->num && !*oom; k++) {
			slong ex = fmpz_get_si(f->exp + k);
			struct tlist fl;
			slong j, len = fmpq_mpoly_length(f->poly + k, V->ctx);
			struct doc *s;
			if (len == 1) {
				fmpq_mpoly_get_term_exp_si(e, f->poly + k, 0, V->ctx);
				fmpq_mpoly_get_term_coeff_fmpq(c, f->poly + k, 0, V->ctx);
				for (i = 0; i < V->cap; i++)
					me[i] += e[i] * ex;
				if (fmpq_sgn(c) < 0 && ex % 2)
					sign = -sign;
				continue;
			}
			tl_init(&fl, V->cap);
			for (j = 0; j < len; j++) {
				fmpq_mpoly_get_term_exp_si(e, f->poly + k, j, V->ctx);
				fmpq_mpoly_get_term_coeff_fmpq(c, f->poly + k, j, V->ctx);
				tl_push(&fl, c, e);
			}
			if (fl.oom) {
				tl_clear(&fl);
				*oom = 1;
				break;
			}
			tl_sort(P, &fl);
			if (fmpq_sgn(fl.t[0].c) < 0) {
				for (j = 0; j < fl.n; j++)
					fmpq_neg(fl.t[j].c, fl.t[j].c);
				if (ex % 2)
					sign = -sign;
			}
			s = doc_new(D_SUM, NULL);
			if (s)
				s->tight = 1;
			push_flat(P, &fl, NULL, s);
			tl_clear(&fl);
			if (ex > 1) {
				s = doc_unary(D_POW, NULL, s);
				if (s)
					s->exp = ex;
			}
			/* a NULL or broken sum fails the product below */
			sums[nsums++] = s;
		}
		if (!*oom) {
			fmpq_mpoly_factor_get_constant_fmpq(c, f, V->ctx);
			if (fmpq_sgn(c) < 0) {
				sign = -sign;
				fmpq_neg(c, c);
			}
			if (!fmpq_is_one(c)) {
				memset(e, 0, (V->cap + 1) * sizeof(slong));
				doc_push(prod, term_doc(P, c, e), 0);
			}
			mono_factors(P, me, prod);
		}
		/* the sums in a fixed order: shorter first, then by their text */
		for (a = 1; a < nsums && !*oom; a++)
			for (b = a; b > 0; b--) {
				char *x = render_string(sums[b - 1], FORMULA_TEXT);
				char *y = render_string(sums[b], FORMULA_TEXT);
				if (!x || !y) {
					free(x);
					free(y);
					*oom = 1;
					break;
				}
				size_t lx = strlen(x), ly = strlen(y);
				int gt = lx != ly ? lx > ly : strcmp(x, y) > 0;
				free(x);
				free(y);
				if (!gt)
					break;
				struct doc *t = sums[b];
				sums[b] = sums[b - 1];
				sums[b - 1] = t;
			}
		for (a = 0; a < nsums; a++)
			doc_push(*oom ? NULL : prod, sums[a], 0);
		free(sums);
		free(e);
		free(me);
		if (*oom || prod->broken) {
			*oom = 1;
			doc_free(prod);
			prod = NULL;
		}
	}
done:
	fmpq_mpoly_factor_clear(f, V->ctx);
	fmpq_mpoly_clear(A, V->ctx);
	fmpq_mpoly_clear(base, V->ctx);
	fmpq_clear(c);
	free(u);
	*neg = sign < 0;
	return prod;
}

/* The numerator L (integer coefficients, exponents >= 0) as a sum: the shortest
 * of the grouped, factored and flat forms; NULL when out of memory (any of
 * them could have been the shortest). */
static struct doc *numerator(const struct pctx *P, struct tlist *l)
{
	struct doc *grouped = doc_new(D_SUM, NULL), *flat = doc_new(D_SUM, NULL);
	struct doc *fac, *best;
	size_t lg, lf, lx = (size_t)-1;
	int neg, oom;

	push_grouped(P, l, NULL, grouped);
	push_flat(P, l, NULL, flat);
	fac = factored(P, l, &neg, &oom);
	if (fac) {
		struct doc *s = doc_new(D_SUM, NULL);
		doc_push(s, fac, neg);
		fac = s;
		oom |= !fac || fac->broken;
		if (!oom)
			lx = text_length(fac);
	}
	if (oom || !grouped || grouped->broken || !flat || flat->broken) {
		doc_free(grouped);
		doc_free(flat);
		doc_free(fac);
		return NULL;
	}
	lg = text_length(grouped);
	lf = text_length(flat);
	if (lg == (size_t)-1 || lf == (size_t)-1 || (fac && lx == (size_t)-1)) {
		doc_free(grouped);
		doc_free(flat);
		doc_free(fac);
		return NULL;
	}
	best = grouped;
	if (lx <= lg) {
		best = fac;
		lg = lx;
	}
	if (lf < lg)
		best = flat;
	if (best != grouped)
		doc_free(grouped);
	if (best != flat)
		doc_free(flat);
	if (best != fac)
		doc_free(fac);
	return best;
}

/* Appends to S the terms of L written over their common denominator: a
 * monomial one (from negative exponents) times an integer. */
static void push_fraction(const struct pctx *P, const struct tlist *l, struct doc *S)
{
	struct tlist num;
	slong *D, *e, i;
	fmpz_t d, g;
	fmpq_t c;
	int k, any = 0, allneg = 1;
	struct doc *nd, *den, *frac;

	if (!S || l->n == 0)
		return;
	D = calloc(l->cap + 1, sizeof(slong));
	e = calloc(l->cap + 1, sizeof(slong));
	if (!D || !e || l->oom) {
		free(D);
		free(e);
		doc_break(S);
		return;
	}
	fmpz_init(d);
	fmpz_init(g);
	fmpq_init(c);
	fmpz_one(d);
	for (k = 0; k < l->n; k++) {
		for (i = 0; i < l->cap; i++)
			if (-l->t[k].e[i] > D[i])
				D[i] = -l->t[k].e[i];
		fmpz_lcm(d, d, fmpq_denref(l->t[k].c));
	}
	tl_init(&num, l->cap);
	for (k = 0; k < l->n; k++) {
		fmpq_mul_fmpz(c, l->t[k].c, d);
		fmpz_gcd(g, g, fmpq_numref(c));
		for (i = 0; i < l->cap; i++)
			e[i] = l->t[k].e[i] + D[i];
		tl_push(&num, c, e);
	}
	fmpz_gcd(g, g, d);
	if (!fmpz_is_one(g)) {
		fmpz_divexact(d, d, g);
		for (k = 0; k < num.n; k++)
			fmpq_div_fmpz(num.t[k].c, num.t[k].c, g);
	}
	for (i = 0; i < l->cap; i++)
		any |= D[i] != 0;
	nd = numerator(P, &num);
	if (!nd) {
		doc_break(S);
		goto done;
	}
	if (!any && fmpz_is_one(d)) {
		for (k = 0; k < nd->n; k++)
			doc_push(S, nd->c[k], nd->neg[k]);
		nd->n = 0;
		doc_free(nd);
		goto done;
	}
	den = doc_new(D_PROD, NULL);
	if (!fmpz_is_one(d))
		doc_push(den, doc_num(d), 0);
	mono_factors(P, D, den);
	den = prod_finish(den);
	for (k = 0; k < nd->n; k++)
		allneg &= nd->neg[k];
	if (allneg)
		for (k = 0; k < nd->n; k++)
			nd->neg[k] = 0;
	frac = doc_new(D_FRAC, NULL);
	doc_push(frac, sum_finish(nd), 0);
	doc_push(frac, den, 0);
	doc_push(S, frac, allneg);
done:
	tl_clear(&num);
	free(D);
	free(e);
	fmpz_clear(d);
	fmpz_clear(g);
	fmpq_clear(c);
}

/* Appends to S the terms of L: those with a monomial denominator over their
 * common denominator, then the polynomial ones over theirs. */
static void push_terms(const struct pctx *P, const struct tlist *l, struct doc *S)
{
	struct tlist poly, frac;
	int k;
	slong i;

	if (!S)
		return;
	tl_init(&poly, l->cap);
	tl_init(&frac, l->cap);
	for (k = 0; k < l->n; k++) {
		int neg = 0;
		for (i = 0; i < l->cap; i++)
			neg |= l->t[k].e[i] < 0;
		tl_push(neg ? &frac : &poly, l->t[k].c, l->t[k].e);
	}
	if (l->oom || poly.oom || frac.oom) {
		doc_break(S);
	} else if (frac.n == 0 || poly.n == 0) {
		push_fraction(P, l, S);
	} else {
		/* Both kinds: over one denominator (n*(P-1)/P) unless that reads
		 * much longer than the two parts (m*n*o/(M*N) + l). */
		struct doc *split = doc_new(D_SUM, NULL), *one = doc_new(D_SUM, NULL);
		push_fraction(P, &frac, split);
		push_fraction(P, &poly, split);
		push_fraction(P, l, one);
		size_t lone = text_length(one), lsplit = text_length(split);
		if (lone == (size_t)-1 || lsplit == (size_t)-1) {
			/* either could have been the shorter */
			doc_break(S);
		} else {
			struct doc *pick = lone <= lsplit + 3 ? one : split;
			for (int j = 0; j < pick->n; j++)
				doc_push(S, pick->c[j], pick->neg[j]);
			pick->n = 0;
		}
		doc_free(split);
		doc_free(one);
	}
	tl_clear(&poly);
	tl_clear(&frac);
}

/* MONO (a product of parameters, taken) times X (taken), folded into a
 * fraction's numerator and after a leading number. */
static struct doc *mono_times(struct doc *mono, struct doc *x)
{
	struct doc *target = x, **slot = &x, *p;
	int k;

	if (!mono || !x || mono->broken || x->broken) {
		doc_free(mono);
		doc_free(x);
		return NULL;
	}
	if (x->kind == D_FRAC) {
		slot = &x->c[0];
		target = x->c[0];
	}
	p = doc_new(D_PROD, NULL);
	if (target->kind == D_NUM && strcmp(target->text, "1") != 0) {
		doc_push(p, target, 0);
		target = NULL;
	} else if (target->kind == D_PROD && target->c[0]->kind == D_NUM) {
		doc_push(p, target->c[0], 0);
		memmove(target->c, target->c + 1, (target->n - 1) * sizeof(*target->c));
		target->n--;
		target = prod_finish(target);
	} else if (target->kind == D_NUM) {
		doc_free(target);
		target = NULL;
	}
	if (mono->kind == D_PROD) {
		for (k = 0; k < mono->n; k++)
			doc_push(p, mono->c[k], 0);
		mono->n = 0;
		doc_free(mono);
	} else {
		doc_push(p, mono, 0);
	}
	if (target) {
		if (target->kind == D_PROD) {
			for (k = 0; k < target->n; k++)
				doc_push(p, target->c[k], 0);
			target->n = 0;
			doc_free(target);
		} else {
			doc_push(p, target, 0);
		}
	}
	*slot = prod_finish(p);
	if (slot != &x && (!*slot || (*slot)->broken))
		x->broken = 1;
	return x;
}

static int collected(const char *name, const char *const *by, int nby)
{
	int i;

	for (i = 0; name && i < nby; i++)
		if (strcmp(by[i], name) == 0)
			return 1;
	return 0;
}

/* A polynomial leaf, split first by the powers of the variables named BY. */
static struct doc *poly_doc(const struct pctx *P, const struct fnode *x,
	const char *const *by, int nby)
{
	const struct fvars *V = P->V;
	struct tlist all;
	struct doc *S = doc_new(D_SUM, NULL);
	char *isby = calloc(V->cap + 1, 1), *done = NULL;
	/* exponent vectors for the loop below, their entries of the variables
	 * not in BY 0 throughout (key, a, b) */
	slong *key = NULL, *kb = NULL, *a = NULL, *b = NULL, *pos = NULL;
	slong i;
	int k, j, any = 0;

	tl_from_poly(&all, V, x);
	if (!S || !isby || all.oom) {
		doc_free(S);
		S = NULL;
		goto done;
	}
	for (i = 0; i < V->n; i++) {
		isby[i] = (char)collected(V->v[i].name, by, nby);
		any |= isby[i];
	}
	if (!any) {
		push_terms(P, &all, S);
		goto done;
	}
	/* groups by the exponents of the BY variables, in display order with the
	 * group free of them first */
	done = calloc(all.n + 1, 1);
	key = calloc(V->cap + 1, sizeof(slong));
	kb = calloc(V->cap + 1, sizeof(slong));
	a = calloc(V->cap + 1, sizeof(slong));
	b = calloc(V->cap + 1, sizeof(slong));
	pos = calloc(V->cap + 1, sizeof(slong));
	if (!done || !key || !kb || !a || !b || !pos) {
		doc_break(S);
		goto done;
	}
	for (;;) {
		int best = -1;
		struct tlist g;
		for (k = 0; k < all.n; k++) {
			if (done[k])
				continue;
			if (best < 0) {
				best = k;
				continue;
			}
			{
				slong da = 0, db = 0;
				int cmp;
				for (i = 0; i < V->cap; i++)
					if (isby[i]) {
						a[i] = all.t[k].e[i];
						b[i] = all.t[best].e[i];
						da += a[i];
						db += b[i];
					}
				cmp = da != db ? (da < db ? -1 : 1) : mono_cmp(P, a, b, V->cap);
				if (cmp < 0)
					best = k;
			}
		}
		if (best < 0)
			break;
		for (i = 0; i < V->cap; i++)
			if (isby[i])
				key[i] = all.t[best].e[i];
		tl_init(&g, V->cap);
		for (k = 0; k < all.n; k++) {
			int same = 1;
			if (done[k])
				continue;
			for (i = 0; i < V->cap; i++)
				if (isby[i] && all.t[k].e[i] != key[i])
					same = 0;
			if (!same)
				continue;
			done[k] = 1;
			for (i = 0; i < V->cap; i++)
				kb[i] = isby[i] ? 0 : all.t[k].e[i];
			tl_push(&g, all.t[k].c, kb);
		}
		{
			struct doc *sub = doc_new(D_SUM, NULL), *mono;
			int monoany = 0, allneg = 1;
			push_terms(P, &g, sub);
			for (i = 0; i < V->cap; i++)
				monoany |= key[i] != 0;
			if (!sub || sub->broken) {
				doc_free(sub);
				doc_break(S);
			} else if (!monoany) {
				for (j = 0; j < sub->n; j++)
					doc_push(S, sub->c[j], sub->neg[j]);
				sub->n = 0;
				doc_free(sub);
			} else {
				for (j = 0; j < sub->n; j++)
					allneg &= sub->neg[j];
				if (allneg)
					for (j = 0; j < sub->n; j++)
						sub->neg[j] = 0;
				mono = doc_new(D_PROD, NULL);
				/* negative powers of BY variables go below */
				for (i = 0; i < V->cap; i++)
					pos[i] = key[i] > 0 ? key[i] : 0;
				mono_factors(P, pos, mono);
				mono = prod_finish(mono);
				doc_push(S, mono_times(mono, sum_finish(sub)), allneg);
			}
		}
		tl_clear(&g);
	}
done:
	free(done);
	free(key);
	free(kb);
	free(a);
	free(b);
	free(pos);
	tl_clear(&all);
	free(isby);
	return sum_finish(S);
}

/* ---------------------------------------------------------------- nodes */

struct sorted_doc {
	struct doc *d;
	char *key;
};

static int sorted_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sorted_doc *)a)->key,
		((const struct sorted_doc *)b)->key);
}

static struct doc *node_doc_by(const struct pctx *P, const struct fnode *x,
	const char *const *by, int nby)
{
	struct sorted_doc *kids;
	struct doc *d;
	int k;

	if (x->kind == FK_POLY)
		return poly_doc(P, x, by, nby);
	/* children in the order of their text: commutative operators print the
	 * same whatever order they were built in */
	kids = calloc(x->n, sizeof(*kids));
	if (!kids)
		return NULL;
	int bad = 0;
	for (k = 0; k < x->n; k++) {
		kids[k].d = node_doc_by(P, x->c[k], by, nby);
		/* NULL for a NULL or broken child, as when out of memory */
		kids[k].key = render_string(kids[k].d, FORMULA_TEXT);
		bad |= !kids[k].key;
	}
	if (bad) {
		for (k = 0; k < x->n; k++) {
			doc_free(kids[k].d);
			free(kids[k].key);
		}
		free(kids);
		return NULL;
	}
	qsort(kids, x->n, sizeof(*kids), sorted_cmp);
	if (x->kind == FK_ADD) {
		d = doc_new(D_SUM, NULL);
		for (k = 0; k < x->n; k++) {
			struct doc *c = kids[k].d;
			if (c->kind == D_NEG) {
				doc_push(d, c->c[0], 1);
				c->n = 0;
				doc_free(c);
			} else if (c->kind == D_SUM) {
				int j;
				for (j = 0; j < c->n; j++)
					doc_push(d, c->c[j], c->neg[j]);
				c->n = 0;
				doc_free(c);
			} else {
				doc_push(d, c, 0);
			}
		}
	} else if (x->kind == FK_MUL) {
		int neg = 0;
		d = doc_new(D_PROD, NULL);
		/* numbers first */
		for (k = 0; k < x->n; k++) {
			struct doc *c = kids[k].d;
			if (c->kind == D_NEG) {
				neg = !neg;
				kids[k].d = c->c[0];
				c->n = 0;
				doc_free(c);
			}
		}
		for (k = 0; k < x->n; k++)
			if (kids[k].d->kind == D_NUM)
				doc_push(d, kids[k].d, 0);
		for (k = 0; k < x->n; k++)
			if (kids[k].d->kind != D_NUM)
				doc_push(d, kids[k].d, 0);
		d = prod_finish(d);
		if (neg)
			d = doc_unary(D_NEG, NULL, d);
	} else {
		d = doc_new(D_FUNC, x->kind == FK_MAX ? "max" : "min");
		for (k = 0; k < x->n; k++)
			doc_push(d, kids[k].d, 0);
	}
	for (k = 0; k < x->n; k++)
		free(kids[k].key);
	free(kids);
	return d;
}

static struct doc *node_doc(const struct pctx *P, const struct fnode *x)
{
	return node_doc_by(P, x, NULL, 0);
}

/* ---------------------------------------------------------------- conditions */

static int name_cmp(const char *a, const char *b)
{
	int c = strcasecmp(a, b);

	return c ? c : strcmp(a, b);
}

static void val_fmpz(fmpz_t out, __isl_take isl_val *v)
{
	mpz_t z;

	mpz_init(z);
	isl_val_get_num_gmp(v, z);
	fmpz_set_mpz(out, z);
	mpz_clear(z);
	isl_val_free(v);
}

/* An affine term list: coefficients (integers) and the documents they
 * multiply, plus a constant. */
struct aterm {
	fmpz_t c;
	struct doc *d;
	char *key;
};

struct alist {
	struct aterm *t;
	int n;
	fmpz_t c0;
	int oom;   /* a term is missing or has no text: out of memory */
};

static void al_init(struct alist *l, int size)
{
	l->t = calloc(size + 1, sizeof(*l->t));
	l->n = 0;
	l->oom = !l->t;
	fmpz_init(l->c0);
}

static void al_clear(struct alist *l)
{
	int k;

	for (k = 0; k < l->n; k++) {
		fmpz_clear(l->t[k].c);
		doc_free(l->t[k].d);
		free(l->t[k].key);
	}
	free(l->t);
	fmpz_clear(l->c0);
}

/* Appends C * D (D taken); a NULL or broken D marks L. */
static void al_push(struct alist *l, const fmpz_t c, struct doc *d)
{
	struct aterm *t;

	if (!l->t) {
		doc_free(d);
		return;
	}
	t = &l->t[l->n++];
	fmpz_init_set(t->c, c);
	t->d = d;
	t->key = render_string(d, FORMULA_TEXT);
	if (!t->key)
		l->oom = 1;
}

static int aterm_cmp(const void *a, const void *b)
{
	const struct aterm *x = a, *y = b;
	int fx = x->d->kind == D_FUNC, fy = y->d->kind == D_FUNC;

	if (fx != fy)
		return fx - fy;
	return name_cmp(x->key, y->key);
}

/* The sum of the terms of L with coefficient sign SIGN (> 0 or < 0), their
 * absolute values, plus the constant K when non-zero; NULL when empty.  Out
 * of memory, L is marked. */
static struct doc *al_side(struct alist *l, int sign, const fmpz_t k)
{
	struct doc *s = doc_new(D_SUM, NULL);
	int j;

	if (!s) {
		l->oom = 1;
		return NULL;
	}
	for (j = 0; j < l->n; j++) {
		struct doc *p;
		fmpz_t a;
		if (fmpz_sgn(l->t[j].c) != sign)
			continue;
		fmpz_init(a);
		fmpz_abs(a, l->t[j].c);
		p = doc_new(D_PROD, NULL);
		if (!fmpz_is_one(a))
			doc_push(p, doc_num(a), 0);
		doc_push(p, l->t[j].d, 0);
		l->t[j].d = doc_new(D_NUM, "0"); /* moved */
		doc_push(s, prod_finish(p), 0);
		fmpz_clear(a);
	}
	if (!fmpz_is_zero(k))
		doc_push(s, doc_num(k), fmpz_sgn(k) < 0);
	if (s->broken)
		l->oom = 1;
	if (s->n == 0) {
		doc_free(s);
		return NULL;
	}
	return sum_finish(s);
}

static struct doc *aff_doc(__isl_take isl_aff *aff);

/* The documents of the parameters and divisions of a local space, as a list
 * with the coefficients from GET. */
static void aff_terms(struct alist *l, __isl_keep isl_aff *aff)
{
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	isl_val *den = isl_aff_get_denominator_val(aff);
	fmpz_t c;
	int i;

	fmpz_init(c);
	al_init(l, np + nd);
	for (i = 0; i < np; i++) {
		isl_val *v = isl_aff_get_coefficient_val(aff, isl_dim_param, i);
		v = isl_val_mul(v, isl_val_copy(den));
		val_fmpz(c, v);
		if (!fmpz_is_zero(c))
			al_push(l, c, doc_new(D_NAME,
				isl_aff_get_dim_name(aff, isl_dim_param, i)));
	}
	for (i = 0; i < nd; i++) {
		isl_val *v = isl_aff_get_coefficient_val(aff, isl_dim_div, i);
		v = isl_val_mul(v, isl_val_copy(den));
		val_fmpz(c, v);
		if (!fmpz_is_zero(c))
			al_push(l, c, doc_unary(D_FUNC, "floor",
				aff_doc(isl_aff_get_div(aff, i))));
	}
	val_fmpz(l->c0, isl_val_mul(isl_aff_get_constant_val(aff), isl_val_copy(den)));
	if (!l->oom)   /* every term has its text */
		qsort(l->t, l->n, sizeof(*l->t), aterm_cmp);
	isl_val_free(den);
	fmpz_clear(c);
}

/* AFF (taken), the argument of a floor, as (sum)/denominator. */
static struct doc *aff_doc(__isl_take isl_aff *aff)
{
	struct alist l;
	struct doc *s = doc_new(D_SUM, NULL), *d;
	fmpz_t den;
	int j;

	fmpz_init(den);
	val_fmpz(den, isl_aff_get_denominator_val(aff));
	aff_terms(&l, aff);
	if (l.oom)
		doc_break(s);
	for (j = 0; j < l.n; j++) {
		struct doc *p = doc_new(D_PROD, NULL);
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(a, l.t[j].c);
		if (!fmpz_is_one(a))
			doc_push(p, doc_num(a), 0);
		doc_push(p, l.t[j].d, 0);
		l.t[j].d = NULL;
		doc_push(s, prod_finish(p), fmpz_sgn(l.t[j].c) < 0);
		fmpz_clear(a);
	}
	if (!fmpz_is_zero(l.c0))
		doc_push(s, doc_num(l.c0), fmpz_sgn(l.c0) < 0);
	d = sum_finish(s);
	if (!fmpz_is_one(den)) {
		struct doc *f = doc_new(D_FRAC, NULL);
		doc_push(f, d, 0);
		doc_push(f, doc_num(den), 0);
		d = f;
	}
	al_clear(&l);
	fmpz_clear(den);
	isl_aff_free(aff);
	return d;
}

struct cstr {
	char *text;
	int is_mod;
};

/* The definition of the one division of constraint C with a non-zero
 * coefficient (*K its position), when it is known and has no division in
 * turn; NULL otherwise. */
static __isl_give isl_aff *only_div(__isl_keep isl_constraint *c, int *k)
{
	isl_size nd = isl_constraint_dim(c, isl_dim_div);
	isl_aff *div;
	int i, ok = 1;

	*k = -1;
	for (i = 0; i < nd; i++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_div, i);
		int zero = isl_val_is_zero(v) == isl_bool_true;
		isl_val_free(v);
		if (zero)
			continue;
		if (*k >= 0)
			return NULL;
		*k = i;
	}
	if (*k < 0)
		return NULL;
	div = isl_constraint_get_div(c, *k);
	if (!div || isl_aff_is_nan(div) != isl_bool_false) {
		isl_aff_free(div);
		return NULL; /* an existential without a known definition */
	}
	for (i = 0; i < isl_aff_dim(div, isl_dim_div) && ok; i++) {
		isl_val *v = isl_aff_get_coefficient_val(div, isl_dim_div, i);
		ok = isl_val_is_zero(v) == isl_bool_true;
		isl_val_free(v);
	}
	if (!ok)
		return isl_aff_free(div);
	return div;
}

/* "g % d == k" when constraint C (an equality) says that an affine g is a
 * multiple of d plus k through its one division; NULL otherwise, and NULL
 * with *OOM set when out of memory. */
static char *divisibility(__isl_keep isl_constraint *c, enum formula_style style, int *oom)
{
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	int k = -1, i, ok = 1;
	fmpz_t ck, d, r, g, t;
	isl_aff *div;
	struct alist l;
	struct doc *lhs;
	struct sbuf b = { 0 };
	char buf[64];

	if (!isl_constraint_is_equality(c))
		return NULL;
	div = only_div(c, &k);
	if (!div)
		return NULL;
	fmpz_init(ck);
	fmpz_init(d);
	fmpz_init(r);
	fmpz_init(g);
	fmpz_init(t);
	val_fmpz(ck, isl_constraint_get_coefficient_val(c, isl_dim_div, k));
	val_fmpz(d, isl_aff_get_denominator_val(div));
	/* r*d + ck*g == 0, coefficient by coefficient; for the constants,
	 * r0*d + ck*g0 == ck*rem, the remainder rem of g by d (0 <= rem < d):
	 * ck*floor(g/d) + r.x + r0 == 0 with r = -ck*h/d, g = h + g0, says
	 * (g - rem)/d - h/d == -r0/ck (2*floor(n/2) == n - 1: rem 1) */
	for (i = 0; i <= np && ok; i++) {
		isl_val *gv = i < np ? isl_aff_get_coefficient_val(div, isl_dim_param, i)
			: isl_aff_get_constant_val(div);
		gv = isl_val_mul(gv, isl_aff_get_denominator_val(div));
		val_fmpz(g, gv);
		val_fmpz(r, i < np ? isl_constraint_get_coefficient_val(c, isl_dim_param, i)
			: isl_constraint_get_constant_val(c));
		fmpz_mul(t, r, d);
		fmpz_addmul(t, ck, g);
		if (i < np) {
			ok = fmpz_is_zero(t);
		} else {
			/* rem = t/ck, a whole number in 0 .. d - 1 */
			ok = !fmpz_is_zero(ck) && fmpz_divisible(t, ck);
			if (ok) {
				fmpz_divexact(r, t, ck);
				ok = fmpz_sgn(r) >= 0 && fmpz_cmp(r, d) < 0;
			}
		}
	}
	if (!ok) {
		isl_aff_free(div);
		fmpz_clear(ck);
		fmpz_clear(d);
		fmpz_clear(r);
		fmpz_clear(g);
		fmpz_clear(t);
		return NULL;
	}
	/* g = h + c0 with g % d == rem (r): print h % d == (rem - c0) mod d */
	aff_terms(&l, div);
	fmpz_sub(t, r, l.c0);
	fmpz_mod(t, t, d);
	{
		struct doc *s = doc_new(D_SUM, NULL);
		int j;
		for (j = 0; j < l.n; j++) {
			struct doc *p = doc_new(D_PROD, NULL);
			fmpz_t a;
			fmpz_init(a);
			fmpz_abs(a, l.t[j].c);
			if (!fmpz_is_one(a))
				doc_push(p, doc_num(a), 0);
			doc_push(p, l.t[j].d, 0);
			l.t[j].d = doc_new(D_NUM, "0");
			doc_push(s, prod_finish(p), fmpz_sgn(l.t[j].c) < 0);
			fmpz_clear(a);
		}
		lhs = sum_finish(s);
	}
	if (l.oom)
		b.oom = 1;
	if (style == FORMULA_LATEX) {
		render(lhs, style, 0, &b);
		sb_puts(&b, " \\equiv ");
		sb_puts(&b, fmpz_get_str(buf, 10, t));
		sb_puts(&b, " \\pmod{");
		sb_puts(&b, fmpz_get_str(buf, 10, d));
		sb_puts(&b, "}");
	} else {
		render(lhs, style, 3, &b);
		sb_puts(&b, " % ");
		sb_puts(&b, fmpz_get_str(buf, 10, d));
		sb_puts(&b, " == ");
		sb_puts(&b, fmpz_get_str(buf, 10, t));
	}
	doc_free(lhs);
	al_clear(&l);
	isl_aff_free(div);
	fmpz_clear(ck);
	fmpz_clear(d);
	fmpz_clear(r);
	fmpz_clear(g);
	fmpz_clear(t);
	char *text = sb_finish(&b);
	if (!text)
		*oom = 1;
	return text;
}

static const char *op_text(const char *op, enum formula_style style)
{
	if (style != FORMULA_LATEX)
		return op;
	if (strcmp(op, ">=") == 0)
		return "\\geq";
	if (strcmp(op, "<=") == 0)
		return "\\leq";
	if (strcmp(op, "==") == 0)
		return "=";
	return op;
}

static char *constraint_text(__isl_keep isl_constraint *c, enum formula_style style)
{
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	isl_size nd = isl_constraint_dim(c, isl_dim_div);
	int eq = isl_constraint_is_equality(c), i;
	struct alist l;
	struct doc *lhs, *rhs;
	const char *op;
	struct sbuf b = { 0 };
	fmpz_t k, zero;

	al_init(&l, np + nd);
	fmpz_init(k);
	fmpz_init(zero);
	for (i = 0; i < np; i++) {
		val_fmpz(k, isl_constraint_get_coefficient_val(c, isl_dim_param, i));
		if (!fmpz_is_zero(k))
			al_push(&l, k, doc_new(D_NAME,
				isl_constraint_get_dim_name(c, isl_dim_param, i)));
	}
	for (i = 0; i < nd; i++) {
		val_fmpz(k, isl_constraint_get_coefficient_val(c, isl_dim_div, i));
		if (!fmpz_is_zero(k))
			al_push(&l, k, doc_unary(D_FUNC, "floor",
				aff_doc(isl_constraint_get_div(c, i))));
	}
	val_fmpz(l.c0, isl_constraint_get_constant_val(c));
	if (!l.oom)   /* every term has its text */
		qsort(l.t, l.n, sizeof(*l.t), aterm_cmp);
	fmpz_neg(k, l.c0);
	lhs = al_side(&l, 1, zero);
	if (lhs) {
		/* lhs >= rhs - c0 */
		rhs = al_side(&l, -1, k);
		op = eq ? "==" : ">=";
		if (!eq && rhs && fmpz_is_one(k) && rhs->kind == D_SUM &&
		    rhs->n >= 2 && !rhs->neg[rhs->n - 1]) {
			/* m >= n + 1 reads better as m > n */
			doc_free(rhs->c[--rhs->n]);
			rhs = sum_finish(rhs);
			op = ">";
		}
		if (!rhs)
			rhs = doc_new(D_NUM, "0");
	} else {
		/* c0 - rhs >= 0: rhs <= c0 */
		lhs = al_side(&l, -1, zero);
		if (!lhs)
			lhs = doc_new(D_NUM, "0");
		rhs = doc_num(l.c0);
		if (fmpz_sgn(l.c0) < 0)
			rhs = doc_unary(D_NEG, NULL, rhs);
		op = eq ? "==" : "<=";
		if (!eq && fmpz_equal_si(l.c0, -1)) {
			/* n <= -1 reads better as n < 0 */
			doc_free(rhs);
			rhs = doc_new(D_NUM, "0");
			op = "<";
		}
	}
	if (l.oom)   /* a side may be missing a term (or be NULL for it) */
		b.oom = 1;
	render(lhs, style, 1, &b);
	sb_puts(&b, " ");
	sb_puts(&b, op_text(op, style));
	sb_puts(&b, " ");
	render(rhs, style, 1, &b);
	doc_free(lhs);
	doc_free(rhs);
	al_clear(&l);
	fmpz_clear(k);
	fmpz_clear(zero);
	return sb_finish(&b);
}

/* 1 when inequality C only restates the definition of one of its divisions
 * e = floor(f/d): f - d*e >= k with k <= 0, or d*e - f >= k with k <= -(d-1).
 * Such a constraint holds wherever the division does; printed, it reads like a
 * condition (5*floor((n - 1)/5) >= n - 5) but says nothing. */
static int div_definition(__isl_keep isl_constraint *c)
{
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	int k = -1, ok = 1, i, sign;
	fmpz_t ce, d, a, ci, t;
	isl_aff *div;

	if (isl_constraint_is_equality(c) || np < 0)
		return 0;
	div = only_div(c, &k);
	if (!div)
		return 0;
	fmpz_init(ce);
	fmpz_init(d);
	fmpz_init(a);
	fmpz_init(ci);
	fmpz_init(t);
	val_fmpz(ce, isl_constraint_get_coefficient_val(c, isl_dim_div, k));
	val_fmpz(d, isl_aff_get_denominator_val(div));
	/* ce = -d: f - d*e + rest; ce = d: d*e - f + rest */
	sign = fmpz_equal(ce, d) ? 1 : 0;
	fmpz_neg(t, d);
	if (!sign && !fmpz_equal(ce, t))
		ok = 0;
	for (i = 0; i <= np && ok; i++) {
		/* the numerator's coefficient: the aff's times d */
		isl_val *av = i < np ? isl_aff_get_coefficient_val(div, isl_dim_param, i)
			: isl_aff_get_constant_val(div);
		av = isl_val_mul(av, isl_aff_get_denominator_val(div));
		val_fmpz(a, av);
		val_fmpz(ci, i < np ? isl_constraint_get_coefficient_val(c, isl_dim_param, i)
			: isl_constraint_get_constant_val(c));
		if (sign)
			fmpz_neg(a, a);
		if (i < np) {
			ok = fmpz_equal(ci, a);
		} else {
			/* constant: f - d*e + ci >= 0 needs ci >= a0 (k <= 0);
			 * d*e - f + ci >= 0 needs ci >= -a0 + d - 1 */
			if (sign) {
				fmpz_add(a, a, d);
				fmpz_sub_ui(a, a, 1);
			}
			ok = fmpz_cmp(ci, a) >= 0;
		}
	}
	isl_aff_free(div);
	fmpz_clear(ce);
	fmpz_clear(d);
	fmpz_clear(a);
	fmpz_clear(ci);
	fmpz_clear(t);
	return ok;
}

struct cons_data {
	struct cstr *c;
	int n, size;
	enum formula_style style;
};

static isl_stat cons_fn(__isl_take isl_constraint *c, void *user)
{
	struct cons_data *data = user;
	if (div_definition(c)) {
		isl_constraint_free(c);
		return isl_stat_ok;
	}
	int oom = 0;
	char *s = divisibility(c, data->style, &oom);
	int is_mod = s != NULL;

	if (!s && !oom)
		s = constraint_text(c, data->style);
	isl_constraint_free(c);
	if (!s)
		return isl_stat_error;
	if (data->n == data->size) {
		int size = data->size ? 2 * data->size : 8;
		struct cstr *t = realloc(data->c, size * sizeof(*t));
		if (!t) {
			free(s);
			return isl_stat_error;
		}
		data->c = t;
		data->size = size;
	}
	data->c[data->n].text = s;
	data->c[data->n].is_mod = is_mod;
	data->n++;
	return isl_stat_ok;
}

static int cstr_cmp(const void *a, const void *b)
{
	const struct cstr *x = a, *y = b;

	if (x->is_mod != y->is_mod)
		return x->is_mod - y->is_mod;
	return name_cmp(x->text, y->text);
}

struct bset_data {
	char **conj;
	int n, size;
	enum formula_style style;
};

static isl_stat bset_fn(__isl_take isl_basic_set *bset, void *user)
{
	struct bset_data *data = user;
	struct cons_data cd = { NULL, 0, 0, data->style };
	struct sbuf b = { 0 };
	int k;

	bset = isl_basic_set_remove_redundancies(bset);
	if (isl_basic_set_foreach_constraint(bset, &cons_fn, &cd) < 0) {
		isl_basic_set_free(bset);
		for (k = 0; k < cd.n; k++)
			free(cd.c[k].text);
		free(cd.c);
		return isl_stat_error;
	}
	isl_basic_set_free(bset);
	qsort(cd.c, cd.n, sizeof(*cd.c), cstr_cmp);
	for (k = 0; k < cd.n; k++) {
		if (k > 0)
			sb_puts(&b, data->style == FORMULA_LATEX ? " \\land " : " && ");
		sb_puts(&b, cd.c[k].text);
		free(cd.c[k].text);
	}
	if (cd.n == 0)
		sb_puts(&b, "1");
	free(cd.c);
	char *text = sb_finish(&b);
	if (!text)
		return isl_stat_error;
	if (data->n == data->size) {
		int size = data->size ? 2 * data->size : 4;
		char **t = realloc(data->conj, size * sizeof(*t));
		if (!t) {
			free(text);
			return isl_stat_error;
		}
		data->conj = t;
		data->size = size;
	}
	data->conj[data->n] = text;
	data->n++;
	return isl_stat_ok;
}

static int str_cmp(const void *a, const void *b)
{
	return name_cmp(*(char *const *)a, *(char *const *)b);
}

/* COND as "a && b", alternatives joined by "||" (parenthesized when there are
 * several and they are conjunctions). */
static char *cond_text(__isl_keep isl_set *cond, enum formula_style style)
{
	struct bset_data data = { NULL, 0, 0, style };
	struct sbuf b = { 0 };
	/* every existential written as a floor, before and after coalescing
	 * (which may leave one with no definition: floor(0/0) once) */
	isl_set *s = coalesce_set(isl_set_compute_divs(isl_set_copy(cond)));
	if (s && set_has_unknown_div(s) != 0)
		s = isl_set_compute_divs(s);
	int k;

	if (!s || isl_set_foreach_basic_set(s, &bset_fn, &data) < 0) {
		isl_set_free(s);
		for (k = 0; k < data.n; k++)
			free(data.conj[k]);
		free(data.conj);
		return NULL;
	}
	isl_set_free(s);
	qsort(data.conj, data.n, sizeof(*data.conj), str_cmp);
	for (k = 0; k < data.n; k++) {
		int paren = data.n > 1 && (strstr(data.conj[k], "&&") ||
			strstr(data.conj[k], "\\land"));
		if (k > 0)
			sb_puts(&b, style == FORMULA_LATEX ? " \\lor " : " || ");
		if (paren)
			sb_puts(&b, style == FORMULA_LATEX ? "(" : "(");
		sb_puts(&b, data.conj[k]);
		if (paren)
			sb_puts(&b, ")");
		free(data.conj[k]);
	}
	if (data.n == 0)
		sb_puts(&b, "0");
	free(data.conj);
	return sb_finish(&b);
}

/* ---------------------------------------------------------------- formulas */

static int rank_cmp_ctx(const struct fvars *V, slong a, slong b, char **atext)
{
	const struct fvar *x = &V->v[a], *y = &V->v[b];

	if (!x->name != !y->name)
		return x->name ? -1 : 1;
	if (x->name)
		return name_cmp(x->name, y->name);
	return strcmp(atext[a], atext[b]);
}

static int make_order(struct pctx *P)
{
	const struct fvars *V = P->V;
	char **atext = calloc(V->cap + 1, sizeof(char *));
	slong i, j;

	P->order = calloc(V->cap + 1, sizeof(slong));
	P->rank = calloc(V->cap + 1, sizeof(slong));
	if (!atext || !P->order || !P->rank)
		goto error;
	/* a first order (atoms by index) to name the atoms, then the real one */
	for (i = 0; i < V->cap; i++)
		P->order[i] = i;
	for (i = 1; i < V->n; i++)
		for (j = i; j > 0 && V->v[P->order[j]].name && V->v[P->order[j - 1]].name &&
		     name_cmp(V->v[P->order[j - 1]].name, V->v[P->order[j]].name) > 0; j--) {
			slong t = P->order[j];
			P->order[j] = P->order[j - 1];
			P->order[j - 1] = t;
		}
	for (i = 0; i < V->n; i++)
		if (!V->v[i].name) {
			struct doc *d = node_doc(P, V->v[i].arg);
			atext[i] = render_string(d, FORMULA_TEXT);
			doc_free(d);
			if (!atext[i])
				goto error;
		}
	for (i = 0; i < V->n; i++)
		P->order[i] = i;
	for (i = 1; i < V->n; i++)
		for (j = i; j > 0 && rank_cmp_ctx(V, P->order[j - 1], P->order[j], atext) > 0;
		     j--) {
			slong t = P->order[j];
			P->order[j] = P->order[j - 1];
			P->order[j - 1] = t;
		}
	for (i = 0; i < V->cap; i++)
		P->rank[P->order[i]] = i;
	for (i = 0; i < V->n; i++)
		free(atext[i]);
	free(atext);
	return 0;
error:
	for (i = 0; atext && i < V->n; i++)
		free(atext[i]);
	free(atext);
	free(P->order);
	free(P->rank);
	P->order = P->rank = NULL;
	return -1;
}

static char *value_text(const struct pctx *P, const struct fnode *x,
	const char *const *by, int nby)
{
	struct doc *d = node_doc_by(P, x, by, nby);
	char *s = render_string(d, P->style);

	doc_free(d);
	return s;
}

/* How the pieces of a formula are written, one after the other, in a style
 * for people: "v if c; w otherwise" or a LaTeX cases environment.  (The
 * machine grammar nests conditionals instead: c ? v : w.) */
struct cases {
	const char *open, *sep, *when, *otherwise, *zero_otherwise, *close;
};

static const struct cases text_cases = {
	"", "; ", " if ", " otherwise", "; 0 otherwise", "",
};

static const struct cases latex_cases = {
	"\\begin{cases} ", " \\\\ ", " & \\text{if } ", " & \\text{otherwise}",
	" \\\\ 0 & \\text{otherwise}", " \\end{cases}",
};

/* ---------------------------------------------------------------- piece order */

/* The key of a condition: its lexicographic minimum over the parameters, in
 * the order of its space (which follows the model's, not the names): for
 * each parameter the least value it takes where the earlier ones take
 * theirs, -infinity when it has none (the parameter is then left free).
 * NaN for an empty condition or a failure of ISL's; NULL with *NP_OUT -1
 * when out of memory. */
static isl_val **cond_key(__isl_keep isl_set *cond, int *np_out)
{
	isl_size np = isl_set_dim(cond, isl_dim_param);
	*np_out = np < 0 ? 0 : np;
	if (np <= 0)
		return NULL;
	isl_val **key = calloc((size_t)np, sizeof(*key));
	if (!key) {
		*np_out = -1;
		return NULL;
	}
	isl_set *s = isl_set_move_dims(isl_set_copy(cond), isl_dim_set, 0, isl_dim_param, 0,
				       (unsigned)np);
	for (int k = 0; key && k < np; k++) {
		isl_val *v = s ? isl_set_dim_min_val(isl_set_copy(s), k) : NULL;
		if (v && isl_val_is_int(v))
			s = isl_set_fix_val(s, isl_dim_set, (unsigned)k, isl_val_copy(v));
		key[k] = v;
	}
	isl_set_free(s);
	return key;
}

/* -1, 0 or 1 as key A comes before, with or after B: -infinity first, NaN
 * (or no value) last. */
static int key_cmp(isl_val **a, isl_val **b, int np)
{
	for (int k = 0; k < np; k++) {
		int ra = !a[k] || isl_val_is_nan(a[k]) ? 2 : isl_val_is_neginfty(a[k]) ? 0 : 1;
		int rb = !b[k] || isl_val_is_nan(b[k]) ? 2 : isl_val_is_neginfty(b[k]) ? 0 : 1;
		if (ra != rb)
			return ra < rb ? -1 : 1;
		if (ra == 1 && !isl_val_eq(a[k], b[k]))
			return isl_val_lt(a[k], b[k]) ? -1 : 1;
	}
	return 0;
}

/* The order F's pieces are written in for people: the typical piece first
 * when F has one (formula_typical_first), then by their conditions' keys
 * (P == 1, then P == 2, then P >= 3), a piece of no condition last, ties in
 * F's order.  Malloc'd; NULL when out of memory. */
static int *piece_order(const struct formula *f)
{
	int *order = malloc(sizeof(*order) * (size_t)(f->n + 1));
	isl_val ***keys = calloc((size_t)f->n + 1, sizeof(*keys));
	int *nps = calloc((size_t)f->n + 1, sizeof(*nps));
	int i, j, oom = 0;

	if (!order || !keys || !nps) {
		free(order);
		free(keys);
		free(nps);
		return NULL;
	}
	/* the conditions on one parameter space, so that a key's k-th value is
	 * the same parameter's in every piece (the pieces of a formula may come
	 * from conditions built in different orders) */
	isl_space *space = NULL;
	for (i = 0; i < f->n; i++)
		if (f->p[i].cond) {
			isl_space *ci = isl_space_params(isl_set_get_space(f->p[i].cond));
			space = space ? isl_space_align_params(space, ci) : ci;
		}
	for (i = 0; i < f->n; i++) {
		isl_set *c = f->p[i].cond && space
				     ? isl_set_align_params(isl_set_copy(f->p[i].cond),
							    isl_space_copy(space))
				     : NULL;
		keys[i] = c ? cond_key(c, &nps[i]) : NULL;
		isl_set_free(c);
		if (nps[i] < 0)
			oom = 1;
	}
	isl_space_free(space);
	/* the typical piece first (formula_typical_first), the others sorted
	 * after it */
	int first = f->typical ? 1 : 0;
	if (first)
		order[0] = 0;
	for (i = first; i < f->n; i++) {
		int x = i;
		/* insertion: stable */
		for (j = i; j > first; j--) {
			int y = order[j - 1];
			int before;
			if (!keys[x] || !keys[y])
				before = keys[x] && !keys[y] && f->p[y].cond == NULL;
			else
				before = nps[x] == nps[y] && key_cmp(keys[x], keys[y], nps[x]) < 0;
			if (!before)
				break;
			order[j] = y;
		}
		order[j] = x;
	}
	for (i = 0; i < f->n; i++) {
		for (j = 0; keys[i] && j < nps[i]; j++)
			isl_val_free(keys[i][j]);
		free(keys[i]);
	}
	free(keys);
	free(nps);
	if (oom) {
		free(order);
		return NULL;
	}
	return order;
}

/* The pieces of F for people, in the order of their conditions: "v if c; w
 * otherwise" (FORMULA_TEXT) or a cases environment (FORMULA_LATEX).  With a
 * WIDTH (LaTeX only), long values and conditions are broken into lines, and
 * when a piece does not fit beside its condition every condition goes on a
 * line of its own below its value ("\quad if condition"). */
static void write_pieces(struct sbuf *b, const struct pctx *P, const struct formula *f,
	const char *const names[], int n, enum formula_style style, double width,
	int zero_otherwise)
{
	const struct cases *k = style == FORMULA_LATEX ? &latex_cases : &text_cases;
	char **v = calloc((size_t)f->n + 1, sizeof(*v));
	char **c = calloc((size_t)f->n + 1, sizeof(*c));
	int *order = piece_order(f);
	int i, stacked = 0;

	/* a text that could not be written fails the whole: a formula is
	 * printed whole or not at all */
	if (!v || !c || !order) {
		free(v);
		free(c);
		free(order);
		b->oom = 1;
		return;
	}
	for (i = 0; i < f->n; i++) {
		int j = order[i];
		v[i] = value_text(P, f->p[j].val, names, n);
		c[i] = f->p[j].cond ? cond_text(f->p[j].cond, style) : NULL;
		if (!v[i] || (f->p[j].cond && !c[i]))
			b->oom = 1;
		/* value, 2 between the columns, "if ", condition */
		if (width > 0 && latex_width(v[i]) + 5 + latex_width(c[i]) > width)
			stacked = 1;
	}
	sb_puts(b, k->open);
	for (i = 0; i < f->n && !b->oom; i++) {
		char *bv = width > 0 ? latex_break(v[i], width) : NULL;
		char *bc = c[i] && stacked ? latex_break(c[i], width - 4) : NULL;
		int cond = f->p[order[i]].cond != NULL;
		if ((width > 0 && !bv) || (c[i] && stacked && !bc))
			b->oom = 1;
		if (i > 0)
			sb_puts(b, k->sep);
		sb_puts(b, bv ? bv : v[i]);
		if (stacked)
			sb_puts(b, cond ? " \\\\ \\quad \\text{if } " : " \\\\ \\quad \\text{otherwise}");
		else
			sb_puts(b, cond ? k->when : k->otherwise);
		if (cond)
			sb_puts(b, bc ? bc : c[i]);
		free(bv);
		free(bc);
	}
	for (i = 0; i < f->n; i++) {
		free(v[i]);
		free(c[i]);
	}
	free(order);
	if (zero_otherwise)
		sb_puts(b, stacked ? " \\\\ 0 \\\\ \\quad \\text{otherwise}" : k->zero_otherwise);
	sb_puts(b, k->close);
	free(v);
	free(c);
}

static char *to_string(const struct formula *f, enum formula_style style,
	const char *const names[], int n, double width);

char *formula_to_string_by(const struct formula *f, enum formula_style style,
	const char *const names[], int n)
{
	return to_string(f, style, names, n, 0);
}

char *formula_to_latex(const struct formula *f, const char *const names[], int n, double width)
{
	return to_string(f, FORMULA_LATEX, names, n, width);
}

static char *to_string(const struct formula *f, enum formula_style style,
	const char *const names[], int n, double width)
{
	struct pctx P = { 0 };
	struct sbuf b = { 0 };
	int i, zero = 0, everywhere = 0;

	if (!f)
		return NULL;
	/* FORMULA_EXPR with the last condition too, undefined as 0/0 */
	int strict = style == FORMULA_EXPR_STRICT;
	if (strict)
		style = FORMULA_EXPR;
	P.V = f->vars;
	P.style = style;
	if (make_order(&P) < 0)
		return NULL;
	zero = f->outside == FORMULA_ZERO_OUTSIDE;
	for (i = 0; i < f->n; i++)
		if (!f->p[i].cond)
			everywhere = 1;
	if (f->n == 0) {
		sb_puts(&b, zero ? "0" : style == FORMULA_EXPR ? "0/0" :
			style == FORMULA_LATEX ? "\\text{undefined}" : "undefined");
	} else if (f->n == 1 && !f->p[0].cond) {
		char *v = value_text(&P, f->p[0].val, names, n);
		char *bv = width > 0 && v ? latex_break(v, width) : NULL;
		if (!v || (width > 0 && !bv))
			b.oom = 1;
		else
			sb_puts(&b, bv ? bv : v);
		free(bv);
		free(v);
	} else if (style != FORMULA_EXPR) {
		write_pieces(&b, &P, f, names, n, style, width, zero && !everywhere);
	} else {
		for (i = 0; i < f->n; i++) {
			char *v = value_text(&P, f->p[i].val, names, n);
			int last = !f->p[i].cond || (i == f->n - 1 && !zero && !strict);
			if (!last) {
				char *c = cond_text(f->p[i].cond, style);
				if (c) {
					sb_puts(&b, c);
					sb_puts(&b, " ? ");
				} else {
					b.oom = 1;
				}
				free(c);
			}
			if (v)
				sb_puts(&b, v);
			else
				b.oom = 1;
			free(v);
			if (last)
				break;
			sb_puts(&b, " : ");
		}
		if (i == f->n)
			sb_puts(&b, zero ? "0" : "0/0");
	}
	free(P.order);
	free(P.rank);
	return sb_finish(&b);
}

char *formula_to_string(const struct formula *f, enum formula_style style)
{
	return formula_to_string_by(f, style, NULL, 0);
}

/* ------------------------------------------------------------- conditions */

/* The sign of X (-1, 0, 1) when it is a constant; 2 when it is not. */
static int const_sign(const struct fvars *V, const struct fnode *x)
{
	struct feval_env env;
	fmpq_t v;
	int r = 2;

	if (fml_env_init(&env, V, NULL, NULL, 0) < 0)
		return 2;
	fmpq_init(v);
	if (fml_node_eval(V, x, &env, v) == 0)
		r = fmpq_sgn(v);
	fmpq_clear(v);
	fml_env_clear(&env, V);
	return r;
}

/* -X when X is a polynomial whose every coefficient is negative; NULL
 * otherwise (or when out of memory). */
static struct fnode *all_negative_negated(const struct fvars *V, const struct fnode *x)
{
	if (x->kind != FK_POLY || fmpq_mpoly_is_zero(x->num, V->ctx))
		return NULL;
	int pos, neg;
	fml_coefficient_signs(V, x->num, &pos, &neg);
	struct fnode *y = !pos ? fml_node_copy(V, x) : NULL;
	if (y)
		fmpq_mpoly_neg(y->num, y->num, V->ctx);
	return y;
}

/* OP with its sides swapped: X OP 0 is -X op_turned(OP) 0. */
static const char *op_turned(const char *op)
{
	static const char *const pairs[][2] = {
		{"<", ">"}, {">", "<"}, {"<=", ">="}, {">=", "<="}, {"==", "=="}, {"!=", "!="},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (strcmp(op, pairs[i][0]) == 0)
			return pairs[i][1];
	return op;
}

static int op_holds(const char *op, int sign)
{
	if (strcmp(op, "<") == 0)
		return sign < 0;
	if (strcmp(op, "<=") == 0)
		return sign <= 0;
	if (strcmp(op, ">") == 0)
		return sign > 0;
	if (strcmp(op, ">=") == 0)
		return sign >= 0;
	if (strcmp(op, "==") == 0)
		return sign == 0;
	return sign != 0;
}

/* Whether X is a sum of products of the names NAMES[0..N) with positive
 * coefficients: >= 0 where they are. */
static int nonneg_in_names(const struct fvars *V, const struct fnode *x, const char *const names[],
			   int n)
{
	if (x->kind != FK_POLY || fmpq_mpoly_is_zero(x->num, V->ctx))
		return 0;
	for (slong i = 0; i < V->n; i++) {
		if (x->den[i] > 0)
			return 0;
		if (fmpq_mpoly_degree_si(x->num, i, V->ctx) <= 0)
			continue;
		int named = 0;
		for (int k = 0; k < n && !named; k++)
			named = fml_vars_find(V, names[k]) == i;
		if (!named)
			return 0;
	}
	int pos, neg;
	fml_coefficient_signs(V, x->num, &pos, &neg);
	return !neg;
}

/* "VALUE OP 0" (or "LHS OP VALUE") for piece I of F, in *CMP; NULL with 1
 * when it holds wherever the piece does, 0 when it holds nowhere there (a
 * constant value, or with NONNEG a value of the names >= 0: g < 0); -1 on
 * failure. */
static int piece_cmp(struct pctx *P, const struct formula *f, int i, const char *lhs,
		     const char *op, const char *const names[], int n, int nonneg, char **cmp)
{
	*cmp = NULL;
	int sign = lhs ? 2 : const_sign(P->V, f->p[i].val);
	if (sign != 2)
		return op_holds(op, sign);
	/* -g < 0 reads g > 0: a value whose every term is negative is written
	 * negated, the comparison turned */
	struct fnode *neg = lhs ? NULL : all_negative_negated(P->V, f->p[i].val);
	const struct fnode *val = neg ? neg : f->p[i].val;
	const char *o = neg ? op_turned(op) : op;
	if (!lhs && nonneg && nonneg_in_names(P->V, val, names, n)) {
		/* >= 0 wherever the names are: < 0 nowhere, >= 0 everywhere,
		 * <= 0 only at 0 */
		if (strcmp(o, "<") == 0 || strcmp(o, ">=") == 0) {
			fml_node_free(P->V, neg);
			return strcmp(o, ">=") == 0;
		}
		if (strcmp(o, "<=") == 0)
			o = "==";
	}
	char *v = value_text(P, val, names, n);
	fml_node_free(P->V, neg);
	if (!v)
		return -1;
	struct sbuf t = { 0 };
	sb_puts(&t, lhs ? lhs : v);
	sb_puts(&t, " ");
	sb_puts(&t, op_text(o, P->style));
	sb_puts(&t, " ");
	sb_puts(&t, lhs ? v : "0");
	free(v);
	*cmp = sb_finish(&t);
	return *cmp ? 1 : -1;
}

char *formula_sign_text(const struct formula *f, const char *lhs, const char *op,
	enum formula_style style, const char *const names[], int n, int nonneg,
	__isl_keep isl_set *context)
{
	struct pctx P = { 0 };
	struct sbuf b = { 0 };
	int i, nparts = 0, always = 0, failed = 0;
	isl_set *before = NULL;   /* the conditions of the earlier pieces */

	if (!f || f->outside == FORMULA_ZERO_OUTSIDE)
		return NULL;
	/* the pieces where the comparison may hold: where each applies and
	 * its comparison (NULL: wherever it applies); pieces with the same
	 * comparison are one part, their regions joined */
	isl_set **where = calloc((size_t)f->n + 1, sizeof(*where));
	char **cmp = calloc((size_t)f->n + 1, sizeof(*cmp));
	char **part = calloc((size_t)f->n + 1, sizeof(*part));
	if (!where || !cmp || !part) {
		free(where);
		free(cmp);
		free(part);
		return NULL;
	}
	P.V = f->vars;
	P.style = style;
	if (make_order(&P) < 0) {
		free(where);
		free(cmp);
		free(part);
		return NULL;
	}
	int nw = 0;
	for (i = 0; i < f->n && !always && !failed; i++) {
		/* where this piece applies: its condition, less the earlier ones */
		isl_set *here = NULL;
		int everywhere = !f->p[i].cond && !before;
		if (!everywhere) {
			if (f->p[i].cond)
				here = isl_set_copy(f->p[i].cond);
			else
				here = isl_set_universe(isl_set_get_space(before));
			if (before)
				here = isl_set_subtract(here, isl_set_copy(before));
			before = !before ? isl_set_copy(f->p[i].cond ? f->p[i].cond : here)
				: isl_set_union(before, isl_set_copy(f->p[i].cond ? f->p[i].cond
									       : here));
			int empty = here ? isl_set_is_empty(here) : -1;
			if (empty < 0 || !before) {
				isl_set_free(here);
				failed = 1;
				break;
			}
			if (empty) {
				isl_set_free(here);
				continue;
			}
		}
		char *c = NULL;
		int holds = piece_cmp(&P, f, i, lhs, op, names, n, nonneg, &c);
		if (holds <= 0) {
			isl_set_free(here);
			failed = holds < 0;
			if (everywhere)
				break;  /* never, and no other piece applies */
			continue;       /* never here */
		}
		if (everywhere) {
			if (!c)
				always = 1;
			else
				part[nparts++] = c;
			break;
		}
		int same = -1;
		for (int k = 0; k < nw && same < 0; k++)
			if (c ? cmp[k] && strcmp(cmp[k], c) == 0 : !cmp[k])
				same = k;
		if (same >= 0) {
			where[same] = isl_set_coalesce(isl_set_union(where[same], here));
			free(c);
			failed = !where[same];
		} else {
			where[nw] = here;
			cmp[nw++] = c;
		}
	}
	/* each region within CONTEXT, what that gives left out (M >= 1 of
	 * M == 1 or M >= 2): the same points there */
	for (int k = 0; k < nw && context && !failed; k++) {
		if (isl_set_get_ctx(where[k]) != isl_set_get_ctx(context))
			break;
		isl_set *g = isl_set_gist(isl_set_copy(where[k]), isl_set_copy(context));
		isl_bool all = g ? isl_set_plain_is_universe(g) : isl_bool_error;
		isl_bool none = all == isl_bool_false
				? isl_set_is_disjoint(where[k], context) : isl_bool_false;
		if (none == isl_bool_true) {
			/* nowhere within the context: no part */
			isl_set_free(where[k]);
			where[k] = NULL;
			free(cmp[k]);
			cmp[k] = NULL;
		} else if (all == isl_bool_true && !cmp[k]) {
			always = 1;   /* wherever the context holds */
		} else if (all == isl_bool_false) {
			isl_set_free(where[k]);
			where[k] = g;
			g = NULL;
		} else if (all == isl_bool_true) {
			/* the comparison alone: its region is the context */
			part[nparts++] = cmp[k];
			cmp[k] = NULL;
			isl_set_free(where[k]);
			where[k] = NULL;
		}
		isl_set_free(g);
	}
	for (int k = 0; k < nw && !failed && !always; k++) {
		if (!where[k])
			continue;   /* written above */
		char *c = cond_text(where[k], style);
		if (!c) {
			failed = 1;
			break;
		}
		if (!cmp[k]) {
			part[nparts++] = c;
			continue;
		}
		const char *and = style == FORMULA_LATEX ? " \\land " : " && ";
		int paren = strstr(c, "||") || strstr(c, "\\lor");
		struct sbuf t = { 0 };
		sb_puts(&t, paren ? "(" : "");
		sb_puts(&t, c);
		sb_puts(&t, paren ? ")" : "");
		sb_puts(&t, and);
		sb_puts(&t, cmp[k]);
		char *both = sb_finish(&t);
		free(c);
		if (!both) {
			failed = 1;
			break;
		}
		part[nparts++] = both;
	}
	for (int k = 0; k < nw; k++) {
		isl_set_free(where[k]);
		free(cmp[k]);
	}
	free(where);
	free(cmp);
	isl_set_free(before);
	if (!failed) {
		if (always)
			sb_puts(&b, style == FORMULA_EXPR ? "1" : style == FORMULA_LATEX
				? "\\text{always}" : "always");
		else if (nparts == 0)
			sb_puts(&b, style == FORMULA_EXPR ? "0" : style == FORMULA_LATEX
				? "\\text{never}" : "never");
		for (i = 0; !always && i < nparts; i++) {
			int paren = nparts > 1;
			if (i > 0)
				sb_puts(&b, style == FORMULA_LATEX ? " \\lor " : " || ");
			if (paren)
				sb_puts(&b, "(");
			sb_puts(&b, part[i]);
			if (paren)
				sb_puts(&b, ")");
		}
	}
	for (i = 0; i < nparts; i++)
		free(part[i]);
	free(part);
	free(P.order);
	free(P.rank);
	if (failed) {
		free(sb_finish(&b));
		return NULL;
	}
	return sb_finish(&b);
}
