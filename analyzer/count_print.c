/* TEMPORARY formula printer for --count, until analyzer/formula.{c,h} (another
 * engineer's module: formula_from_pw_qpolynomial / formula_to_string) lands in
 * this tree; the integrator switches cmd_count over to it and deletes this file.
 *
 * It prints a piecewise quasi-polynomial on a parameter space as a correct infix
 * string in the tool's expression grammar: integers and names, + - * / ^,
 * parentheses, floor(), and for pieces `cond ? a : b` with comparisons, && and
 * ||; `/` is exact rational division.  Readability is the formula module's job;
 * this one only has to be right. */
#include "analyzer/count_print.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

struct sbuf {
	char *s;
	size_t n, cap;
	bool failed;
};

static void sb_put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_put(struct sbuf *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->failed = true;
			return;
		}
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->n + (size_t)k + 1)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->failed = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

static void sb_val(struct sbuf *b, __isl_keep isl_val *v)
{
	char *s = isl_val_to_str(v);
	if (!s) {
		b->failed = true;
		return;
	}
	sb_put(b, "%s", s);
	free(s);
}

static void print_aff_num(struct sbuf *b, __isl_keep isl_aff *aff);

/* floor(aff) where aff may have a denominator: floor((num)/d) */
static void print_floor(struct sbuf *b, __isl_keep isl_aff *inner)
{
	isl_val *d = isl_aff_get_denominator_val(inner);
	isl_aff *num = isl_aff_scale_val(isl_aff_copy(inner), isl_val_copy(d));
	sb_put(b, "floor((");
	print_aff_num(b, num);
	sb_put(b, ")/");
	sb_val(b, d);
	sb_put(b, ")");
	isl_aff_free(num);
	isl_val_free(d);
}

/* An affine expression with integer coefficients over parameters and divisions. */
static void print_aff_num(struct sbuf *b, __isl_keep isl_aff *aff)
{
	bool first = true;
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	if (np < 0 || nd < 0) {
		b->failed = true;
		return;
	}
	isl_local_space *ls = isl_aff_get_local_space(aff);
	for (int pass = 0; pass < 2; pass++) {
		int n = pass == 0 ? np : nd;
		for (int k = 0; k < n; k++) {
			isl_val *c = isl_aff_get_coefficient_val(aff, pass == 0 ? isl_dim_param : isl_dim_div, k);
			if (!c || isl_val_is_zero(c)) {
				isl_val_free(c);
				continue;
			}
			bool neg = isl_val_is_neg(c);
			if (neg)
				c = isl_val_neg(c);
			sb_put(b, "%s", first ? (neg ? "-" : "") : (neg ? " - " : " + "));
			if (!isl_val_is_one(c)) {
				sb_val(b, c);
				sb_put(b, "*");
			}
			if (pass == 0) {
				const char *name = isl_aff_get_dim_name(aff, isl_dim_param, (unsigned)k);
				sb_put(b, "%s", name ? name : "?");
			} else {
				isl_aff *inner = isl_local_space_get_div(ls, k);
				print_floor(b, inner);
				isl_aff_free(inner);
			}
			isl_val_free(c);
			first = false;
		}
	}
	isl_local_space_free(ls);
	isl_val *c = isl_aff_get_constant_val(aff);
	if (c && (!isl_val_is_zero(c) || first)) {
		bool neg = isl_val_is_neg(c) && !first;
		if (neg)
			c = isl_val_neg(c);
		sb_put(b, "%s", first ? "" : (neg ? " - " : " + "));
		sb_val(b, c);
	}
	isl_val_free(c);
}

/* ---- quasi-polynomials: terms with a common denominator */

struct qp_print {
	struct sbuf *b;
	isl_val *den;   /* lcm of the coefficients' denominators */
	isl_space *space;
	bool first;
	bool failed;
};

static isl_stat collect_den(__isl_take isl_term *term, void *user)
{
	struct qp_print *qpp = user;
	isl_val *c = isl_term_get_coefficient_val(term);
	isl_term_free(term);
	if (!c)
		return isl_stat_error;
	isl_val *d = isl_val_get_den_val(c);
	isl_val_free(c);
	isl_val *g = isl_val_gcd(isl_val_copy(qpp->den), isl_val_copy(d));
	qpp->den = isl_val_div(isl_val_mul(qpp->den, d), g);
	return qpp->den ? isl_stat_ok : isl_stat_error;
}

static isl_stat print_term(__isl_take isl_term *term, void *user)
{
	struct qp_print *qpp = user;
	struct sbuf *b = qpp->b;
	isl_val *c = isl_term_get_coefficient_val(term);
	c = isl_val_mul(c, isl_val_copy(qpp->den)); /* now an integer */
	if (!c) {
		isl_term_free(term);
		return isl_stat_error;
	}
	bool neg = isl_val_is_neg(c);
	if (neg)
		c = isl_val_neg(c);
	sb_put(b, "%s", qpp->first ? (neg ? "-" : "") : (neg ? " - " : " + "));
	qpp->first = false;
	bool any = false;
	if (!isl_val_is_one(c)) {
		sb_val(b, c);
		any = true;
	}
	isl_val_free(c);
	isl_size np = isl_term_dim(term, isl_dim_param);
	isl_size nd = isl_term_dim(term, isl_dim_div);
	for (int k = 0; k < np; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_param, (unsigned)k);
		if (e <= 0)
			continue;
		const char *name = isl_space_get_dim_name(qpp->space, isl_dim_param, (unsigned)k);
		sb_put(b, "%s%s", any ? "*" : "", name ? name : "?");
		if (e > 1)
			sb_put(b, "^%d", (int)e);
		any = true;
	}
	for (int k = 0; k < nd; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_div, (unsigned)k);
		if (e <= 0)
			continue;
		isl_aff *inner = isl_term_get_div(term, (unsigned)k);
		sb_put(b, "%s", any ? "*" : "");
		print_floor(b, inner);
		isl_aff_free(inner);
		if (e > 1)
			sb_put(b, "^%d", (int)e);
		any = true;
	}
	if (!any)
		sb_put(b, "1");
	isl_term_free(term);
	return isl_stat_ok;
}

static void print_qp(struct sbuf *b, __isl_keep isl_qpolynomial *qp)
{
	isl_ctx *ctx = isl_qpolynomial_get_ctx(qp);
	struct qp_print qpp = {b, isl_val_one(ctx), isl_qpolynomial_get_domain_space(qp), true, false};
	if (isl_qpolynomial_foreach_term(qp, collect_den, &qpp) < 0) {
		b->failed = true;
		isl_val_free(qpp.den);
		isl_space_free(qpp.space);
		return;
	}
	bool frac = !isl_val_is_one(qpp.den);
	if (frac)
		sb_put(b, "(");
	if (isl_qpolynomial_foreach_term(qp, print_term, &qpp) < 0)
		b->failed = true;
	if (qpp.first)
		sb_put(b, "0");
	if (frac) {
		sb_put(b, ")/");
		sb_val(b, qpp.den);
	}
	isl_val_free(qpp.den);
	isl_space_free(qpp.space);
}

/* ---- conditions */

struct cond_print {
	struct sbuf *b;
	bool first;
};

static isl_stat print_constraint(__isl_take isl_constraint *c, void *user)
{
	struct cond_print *cp = user;
	bool eq = isl_constraint_is_equality(c) == isl_bool_true;
	isl_aff *aff = isl_constraint_get_aff(c);
	isl_constraint_free(c);
	sb_put(cp->b, "%s", cp->first ? "" : " && ");
	cp->first = false;
	print_aff_num(cp->b, aff);
	sb_put(cp->b, eq ? " == 0" : " >= 0");
	isl_aff_free(aff);
	return isl_stat_ok;
}

struct set_print {
	struct sbuf *b;
	int n;
};

static isl_stat print_bset(__isl_take isl_basic_set *bset, void *user)
{
	struct set_print *sp = user;
	struct cond_print cp = {sp->b, true};
	sb_put(sp->b, "%s(", sp->n ? " || " : "");
	sp->n++;
	isl_stat st = isl_basic_set_foreach_constraint(bset, print_constraint, &cp);
	if (cp.first)
		sb_put(sp->b, "1 == 1");
	sb_put(sp->b, ")");
	isl_basic_set_free(bset);
	return st;
}

struct pw_print {
	struct sbuf *b;
	int pieces;
	bool bare; /* a piece on the whole parameter space: no condition, no "0" */
};

static isl_stat print_piece(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user)
{
	struct pw_print *pp = user;
	isl_bool univ = isl_set_plain_is_universe(dom);
	if (univ == isl_bool_true) {
		print_qp(pp->b, qp);
		pp->bare = true;
	} else {
		struct set_print sp = {pp->b, 0};
		sb_put(pp->b, "(");
		isl_set *d = isl_set_compute_divs(dom);
		dom = NULL;
		if (isl_set_foreach_basic_set(d, print_bset, &sp) < 0)
			pp->b->failed = true;
		isl_set_free(d);
		sb_put(pp->b, ") ? (");
		print_qp(pp->b, qp);
		sb_put(pp->b, ") : ");
	}
	pp->pieces++;
	isl_set_free(dom);
	isl_qpolynomial_free(qp);
	return isl_stat_ok;
}

char *count_print_formula(__isl_keep isl_pw_qpolynomial *pwqp)
{
	struct sbuf b = {NULL, 0, 0, false};
	isl_size n = isl_pw_qpolynomial_n_piece(pwqp);
	if (n < 0)
		return NULL;
	if (n == 0)
		return strdup("0");
	struct pw_print pp = {&b, 0, false};
	if (isl_pw_qpolynomial_foreach_piece(pwqp, print_piece, &pp) < 0)
		b.failed = true;
	if (!pp.bare)
		sb_put(&b, "0");
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
