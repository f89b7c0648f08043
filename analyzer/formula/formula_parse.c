/* The machine grammar of formula.h: a recursive-descent parser, an exact
 * evaluator of what was parsed, and the conversion of its arithmetic subset back
 * into a struct formula.  Each parsing function opens with its rule. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/formula/formula_internal.h"

enum ekind { E_NUM, E_NAME, E_NEG, E_BIN, E_COND, E_CALL };

/* Binary operators: the character itself for + - * / % ^ < >, and these. */
enum { OP_EQ = 'E', OP_NE = 'N', OP_LE = 'L', OP_GE = 'G', OP_AND = '&', OP_OR = '|' };

struct formula_expr {
	enum ekind kind;
	int op;
	mpq_t num;  /* E_NUM (always initialized) */
	char *name; /* E_NAME, E_CALL */
	int n;
	struct formula_expr **c;
};

struct parser {
	const char *text;
	size_t pos;
	char *error;
};

static struct formula_expr *expr_new(enum ekind kind)
{
	struct formula_expr *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->kind = kind;
	mpq_init(e->num);
	return e;
}

void formula_expr_free(struct formula_expr *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < e->n; i++)
		formula_expr_free(e->c[i]);
	free(e->c);
	free(e->name);
	mpq_clear(e->num);
	free(e);
}

static int expr_push(struct formula_expr *e, struct formula_expr *child)
{
	struct formula_expr **c;

	if (!child)
		return -1;
	c = realloc(e->c, (e->n + 1) * sizeof(*c));
	if (!c) {
		formula_expr_free(child);
		return -1;
	}
	e->c = c;
	e->c[e->n++] = child;
	return 0;
}

static void fail(struct parser *p, const char *what)
{
	char buf[160];

	if (p->error)
		return;
	snprintf(buf, sizeof(buf), "column %zu: %s", p->pos + 1, what);
	p->error = strdup(buf);
}

static void skip(struct parser *p)
{
	while (isspace((unsigned char)p->text[p->pos]))
		p->pos++;
}

/* Consumes the token TOK if it comes next. */
static int accept(struct parser *p, const char *tok)
{
	size_t n = strlen(tok);

	skip(p);
	if (strncmp(p->text + p->pos, tok, n) != 0)
		return 0;
	/* "<" must not match the start of "<=", nor "=" of "==" etc. */
	if (n == 1 && strchr("<>!=", tok[0]) && p->text[p->pos + 1] == '=')
		return 0;
	if (n == 1 && (tok[0] == '&' || tok[0] == '|'))
		return 0;
	p->pos += n;
	return 1;
}

static struct formula_expr *binary(int op, struct formula_expr *a,
	struct formula_expr *b)
{
	struct formula_expr *e;

	if (!a || !b) {
		formula_expr_free(a);
		formula_expr_free(b);
		return NULL;
	}
	e = expr_new(E_BIN);
	if (!e) {
		formula_expr_free(a);
		formula_expr_free(b);
		return NULL;
	}
	e->op = op;
	if (expr_push(e, a) < 0) {
		formula_expr_free(b);
		formula_expr_free(e);
		return NULL;
	}
	if (expr_push(e, b) < 0) {
		formula_expr_free(e);
		return NULL;
	}
	return e;
}

static struct formula_expr *parse_expr(struct parser *p);
static struct formula_expr *parse_unary(struct parser *p);

/* atom := INTEGER | NAME | FUNC "(" expr { "," expr } ")" | "(" expr ")" */
static struct formula_expr *parse_atom(struct parser *p)
{
	const char *s;
	size_t start, n;
	struct formula_expr *e;

	skip(p);
	s = p->text + p->pos;
	if (isdigit((unsigned char)*s)) {
		char *digits;
		for (n = 0; isdigit((unsigned char)s[n]); n++)
			;
		digits = strndup(s, n);
		e = expr_new(E_NUM);
		if (!digits || !e || mpz_set_str(mpq_numref(e->num), digits, 10) < 0) {
			/* out of memory is formula_parse_expr's to say */
			if (digits && e)
				fail(p, "bad number");
			free(digits);
			formula_expr_free(e);
			return NULL;
		}
		free(digits);
		p->pos += n;
		return e;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		char *name;
		start = p->pos;
		for (n = 0; isalnum((unsigned char)s[n]) || s[n] == '_'; n++)
			;
		name = strndup(s, n);
		p->pos += n;
		if (!name)
			return NULL;
		/* a function only when called: a parameter may be named floor */
		size_t after = n;
		while (s[after] == ' ')
			after++;
		if (s[after] == '(' &&
		    (strcmp(name, "floor") == 0 || strcmp(name, "ceil") == 0 ||
		     strcmp(name, "min") == 0 || strcmp(name, "max") == 0 ||
		     strcmp(name, "log2") == 0)) {
			int one = name[0] == 'f' || name[0] == 'c' || name[0] == 'l';
			e = expr_new(E_CALL);
			if (!e) {
				free(name);
				return NULL;
			}
			e->name = name;
			if (!accept(p, "(")) {
				fail(p, "'(' expected after function name");
				formula_expr_free(e);
				return NULL;
			}
			do {
				if (expr_push(e, parse_expr(p)) < 0) {
					formula_expr_free(e);
					return NULL;
				}
			} while (accept(p, ","));
			if (!accept(p, ")")) {
				fail(p, "')' expected to close the function call");
				formula_expr_free(e);
				return NULL;
			}
			if (one && e->n != 1) {
				p->pos = start;
				fail(p, "floor, ceil and log2 take one argument");
				formula_expr_free(e);
				return NULL;
			}
			return e;
		}
		e = expr_new(E_NAME);
		if (!e) {
			free(name);
			return NULL;
		}
		e->name = name;
		return e;
	}
	if (accept(p, "(")) {
		e = parse_expr(p);
		if (e && !accept(p, ")")) {
			fail(p, "')' expected");
			formula_expr_free(e);
			return NULL;
		}
		return e;
	}
	fail(p, *s ? "number, name or '(' expected" : "unexpected end of input");
	return NULL;
}

/* power := atom [ "^" unary ] */
static struct formula_expr *parse_power(struct parser *p)
{
	struct formula_expr *e = parse_atom(p);

	if (e && accept(p, "^"))
		return binary('^', e, parse_unary(p));
	return e;
}

/* unary := "-" unary | power */
static struct formula_expr *parse_unary(struct parser *p)
{
	if (accept(p, "-")) {
		struct formula_expr *e = expr_new(E_NEG);
		if (!e || expr_push(e, parse_unary(p)) < 0) {
			formula_expr_free(e);
			return NULL;
		}
		return e;
	}
	return parse_power(p);
}

/* prod := unary { ("*" | "/" | "%") unary } */
static struct formula_expr *parse_prod(struct parser *p)
{
	struct formula_expr *e = parse_unary(p);

	while (e) {
		if (accept(p, "*"))
			e = binary('*', e, parse_unary(p));
		else if (accept(p, "/"))
			e = binary('/', e, parse_unary(p));
		else if (accept(p, "%"))
			e = binary('%', e, parse_unary(p));
		else
			break;
	}
	return e;
}

/* sum := prod { ("+" | "-") prod } */
static struct formula_expr *parse_sum(struct parser *p)
{
	struct formula_expr *e = parse_prod(p);

	while (e) {
		if (accept(p, "+"))
			e = binary('+', e, parse_prod(p));
		else if (accept(p, "-"))
			e = binary('-', e, parse_prod(p));
		else
			break;
	}
	return e;
}

/* cmp := sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=") sum ] */
static struct formula_expr *parse_cmp(struct parser *p)
{
	static const struct { const char *tok; int op; } ops[] = {
		{ "==", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE },
		{ "<", '<' }, { ">", '>' },
	};
	struct formula_expr *e = parse_sum(p);
	size_t i;

	if (!e)
		return NULL;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (accept(p, ops[i].tok))
			return binary(ops[i].op, e, parse_sum(p));
	return e;
}

/* and := cmp { "&&" cmp } */
static struct formula_expr *parse_and(struct parser *p)
{
	struct formula_expr *e = parse_cmp(p);

	while (e && accept(p, "&&"))
		e = binary(OP_AND, e, parse_cmp(p));
	return e;
}

/* or := and { "||" and } */
static struct formula_expr *parse_or(struct parser *p)
{
	struct formula_expr *e = parse_and(p);

	while (e && accept(p, "||"))
		e = binary(OP_OR, e, parse_and(p));
	return e;
}

/* cond := or [ "?" expr ":" expr ] */
static struct formula_expr *parse_expr(struct parser *p)
{
	struct formula_expr *e = parse_or(p), *c;

	if (!e || !accept(p, "?"))
		return e;
	c = expr_new(E_COND);
	if (!c || expr_push(c, e) < 0) {
		if (!c)
			formula_expr_free(e);
		formula_expr_free(c);
		return NULL;
	}
	if (expr_push(c, parse_expr(p)) < 0) {
		formula_expr_free(c);
		return NULL;
	}
	if (!accept(p, ":")) {
		fail(p, "':' expected in 'c ? a : b'");
		formula_expr_free(c);
		return NULL;
	}
	if (expr_push(c, parse_expr(p)) < 0) {
		formula_expr_free(c);
		return NULL;
	}
	return c;
}

struct formula_expr *formula_parse_expr(const char *text, char **error)
{
	struct parser p = { text, 0, NULL };
	struct formula_expr *e;

	if (error)
		*error = NULL;
	if (!text)
		return NULL;
	e = parse_expr(&p);
	skip(&p);
	if (e && p.text[p.pos] != '\0') {
		fail(&p, "unexpected text after the expression");
		formula_expr_free(e);
		e = NULL;
	}
	if (!e && !p.error)
		fail(&p, "out of memory");
	if (error)
		*error = p.error;
	else
		free(p.error);
	return e;
}

/* ---------------------------------------------------------------- evaluation */

static void floor_q(mpq_t out, const mpq_t x)
{
	mpz_t q;

	mpz_init(q);
	mpz_fdiv_q(q, mpq_numref(x), mpq_denref(x));
	mpq_set_z(out, q);
	mpz_clear(q);
}

static int eval(const struct formula_expr *e, const char *const names[],
	const long long values[], int n, mpq_t out)
{
	mpq_t a, b;
	int i, r = 0;

	switch (e->kind) {
	case E_NUM:
		mpq_set(out, e->num);
		return 0;
	case E_NAME:
		for (i = 0; i < n; i++)
			if (strcmp(names[i], e->name) == 0) {
				mpz_set_si(mpq_numref(out), (long)values[i]);
				mpz_set_ui(mpq_denref(out), 1);
				return 0;
			}
		return -1;
	case E_NEG:
		if (eval(e->c[0], names, values, n, out) < 0)
			return -1;
		mpq_neg(out, out);
		return 0;
	case E_COND:
		if (eval(e->c[0], names, values, n, out) < 0)
			return -1;
		return eval(e->c[mpq_sgn(out) != 0 ? 1 : 2], names, values, n, out);
	case E_CALL:
		if (eval(e->c[0], names, values, n, out) < 0)
			return -1;
		if (strcmp(e->name, "floor") == 0) {
			floor_q(out, out);
			return 0;
		}
		if (strcmp(e->name, "ceil") == 0) {
			mpq_neg(out, out);
			floor_q(out, out);
			mpq_neg(out, out);
			return 0;
		}
		if (strcmp(e->name, "log2") == 0) {
			/* exact: of a power of two only */
			if (mpz_cmp_ui(mpq_denref(out), 1) != 0 || mpz_sgn(mpq_numref(out)) <= 0 ||
			    mpz_popcount(mpq_numref(out)) != 1)
				return -1;
			mpz_set_ui(mpq_numref(out), (unsigned long)mpz_scan1(mpq_numref(out), 0));
			return 0;
		}
		mpq_init(a);
		for (i = 1; i < e->n && r == 0; i++) {
			r = eval(e->c[i], names, values, n, a);
			if (r == 0 && (e->name[1] == 'a') == (mpq_cmp(a, out) > 0))
				mpq_set(out, a);
		}
		mpq_clear(a);
		return r;
	case E_BIN:
		break;
	}
	mpq_init(a);
	mpq_init(b);
	if (eval(e->c[0], names, values, n, a) < 0)
		goto error;
	/* && and || do not need (nor check) their right operand when decided */
	if ((e->op == OP_AND && mpq_sgn(a) == 0) || (e->op == OP_OR && mpq_sgn(a) != 0)) {
		mpq_set_ui(out, e->op == OP_OR, 1);
		goto done;
	}
	if (eval(e->c[1], names, values, n, b) < 0)
		goto error;
	switch (e->op) {
	case '+':
		mpq_add(out, a, b);
		break;
	case '-':
		mpq_sub(out, a, b);
		break;
	case '*':
		mpq_mul(out, a, b);
		break;
	case '/':
		if (mpq_sgn(b) == 0)
			goto error;
		mpq_div(out, a, b);
		break;
	case '%':
		/* a - b*floor(a/b) */
		if (mpq_sgn(b) == 0)
			goto error;
		mpq_div(out, a, b);
		floor_q(out, out);
		mpq_mul(out, out, b);
		mpq_sub(out, a, out);
		break;
	case '^': {
		long k;
		if (mpz_cmp_ui(mpq_denref(b), 1) != 0 || !mpz_fits_slong_p(mpq_numref(b)))
			goto error;
		k = mpz_get_si(mpq_numref(b));
		if (k < 0) {
			if (mpq_sgn(a) == 0)
				goto error;
			mpq_inv(a, a);
			k = -k;
		}
		mpz_pow_ui(mpq_numref(out), mpq_numref(a), (unsigned long)k);
		mpz_pow_ui(mpq_denref(out), mpq_denref(a), (unsigned long)k);
		mpq_canonicalize(out);
		break;
	}
	case OP_EQ:
		mpq_set_ui(out, mpq_equal(a, b) != 0, 1);
		break;
	case OP_NE:
		mpq_set_ui(out, mpq_equal(a, b) == 0, 1);
		break;
	case '<':
		mpq_set_ui(out, mpq_cmp(a, b) < 0, 1);
		break;
	case OP_LE:
		mpq_set_ui(out, mpq_cmp(a, b) <= 0, 1);
		break;
	case '>':
		mpq_set_ui(out, mpq_cmp(a, b) > 0, 1);
		break;
	case OP_GE:
		mpq_set_ui(out, mpq_cmp(a, b) >= 0, 1);
		break;
	case OP_AND:
	case OP_OR:
		mpq_set_ui(out, mpq_sgn(b) != 0, 1);
		break;
	default:
		goto error;
	}
done:
	mpq_clear(a);
	mpq_clear(b);
	return 0;
error:
	mpq_clear(a);
	mpq_clear(b);
	return -1;
}

int formula_expr_eval(const struct formula_expr *e, const char *const names[],
	const long long values[], int n, mpq_t out)
{
	if (!e)
		return -1;
	return eval(e, names, values, n, out);
}

/* ---------------------------------------------------------------- to formula */

/* The terms of a chain of + and - (as parsed, nested on the left): how many,
 * and with TERMS and NEG non-null, each term and whether it is subtracted. */
static int sum_terms(const struct formula_expr *e, bool neg,
		     const struct formula_expr **terms, bool *negs)
{
	if (e->kind != E_BIN || (e->op != '+' && e->op != '-')) {
		if (terms) {
			terms[0] = e;
			negs[0] = neg;
		}
		return 1;
	}
	int k = sum_terms(e->c[0], neg, terms, negs);
	return k + sum_terms(e->c[1], neg != (e->op == '-'), terms ? terms + k : NULL,
			     negs ? negs + k : NULL);
}

/* The sum of F[0..N) (taken, each may be NULL), added as a balanced tree:
 * a formula's ring of atoms is translated at every addition, so that a long
 * chain added left to right would translate the ever larger sum once per
 * term (500 distinct floors: seconds; as a tree, milliseconds). */
static struct formula *sum_tree(struct formula **f, int n)
{
	if (n == 1)
		return f[0];
	struct formula *a = sum_tree(f, n / 2), *b = sum_tree(f + n / 2, n - n / 2);
	struct formula *r = formula_add(a, b);
	formula_free(a);
	formula_free(b);
	return r;
}

struct formula *formula_from_expr(const struct formula_expr *e)
{
	struct formula *a = NULL, *b = NULL, *r = NULL;
	int i;

	if (!e)
		return NULL;
	if (e->kind == E_BIN && (e->op == '+' || e->op == '-')) {
		int n = sum_terms(e, false, NULL, NULL);
		const struct formula_expr **terms = calloc((size_t)n, sizeof(*terms));
		bool *negs = calloc((size_t)n, sizeof(*negs));
		struct formula **f = calloc((size_t)n, sizeof(*f));
		bool ok = terms && negs && f;
		if (ok)
			sum_terms(e, false, terms, negs);
		for (i = 0; ok && i < n; i++) {
			f[i] = formula_from_expr(terms[i]);
			if (negs[i]) {
				a = f[i];
				f[i] = formula_neg(a);
				formula_free(a);
			}
			ok = f[i] != NULL;
		}
		r = ok ? sum_tree(f, n) : NULL;
		for (i = 0; !ok && f && i < n; i++)
			formula_free(f[i]);
		free(terms);
		free(negs);
		free(f);
		return r;
	}
	switch (e->kind) {
	case E_NUM:
		return formula_const_mpq(e->num);
	case E_NAME:
		return formula_param(e->name);
	case E_NEG:
		a = formula_from_expr(e->c[0]);
		r = formula_neg(a);
		break;
	case E_COND:
		return NULL;
	case E_CALL:
		if (strcmp(e->name, "log2") == 0)
			return NULL; /* no formula: a value at a point only */
		a = formula_from_expr(e->c[0]);
		if (strcmp(e->name, "floor") == 0) {
			r = fml_formula_floor(a);
		} else if (strcmp(e->name, "ceil") == 0) {
			b = formula_neg(a);
			formula_free(a);
			a = fml_formula_floor(b);
			r = formula_neg(a);
		} else {
			for (i = 1; i < e->n && a; i++) {
				formula_free(b);
				b = formula_from_expr(e->c[i]);
				r = e->name[1] == 'a' ? formula_max(a, b) : formula_min(a, b);
				formula_free(a);
				a = r;
			}
			r = a;
			a = NULL;
		}
		break;
	case E_BIN:
		a = formula_from_expr(e->c[0]);
		if (e->op == '^') {
			mpq_t k;
			if (e->c[1]->kind != E_NUM && !(e->c[1]->kind == E_NEG &&
			    e->c[1]->c[0]->kind == E_NUM))
				break;
			mpq_init(k);
			if (formula_expr_eval(e->c[1], NULL, NULL, 0, k) == 0 &&
			    mpz_cmp_ui(mpq_denref(k), 1) == 0 && mpz_fits_slong_p(mpq_numref(k)))
				r = fml_formula_pow(a, mpz_get_si(mpq_numref(k)));
			mpq_clear(k);
			break;
		}
		b = formula_from_expr(e->c[1]);
		switch (e->op) {
		case '+':
			r = formula_add(a, b);
			break;
		case '-':
			r = formula_sub(a, b);
			break;
		case '*':
			r = formula_mul(a, b);
			break;
		case '/': {
			struct formula *inv = fml_formula_pow(b, -1);
			r = formula_mul(a, inv);
			formula_free(inv);
			break;
		}
		default:
			break;
		}
		break;
	}
	formula_free(a);
	formula_free(b);
	return r;
}
