/* Unit tests of the formula library (analyzer/formula/formula.h).
 *
 * Table-driven: each case is an ISL quasi-polynomial, optionally followed by
 * substitutions of parameters (to reach Laurent values such as m/M), with the
 * exact TEXT, EXPR and LATEX strings it must print.  For every case the tests
 * check the three strings, the value against ISL's own evaluation (or against a
 * hand-written expected expression when there are substitutions) at many integer
 * points, and that the EXPR string, parsed back, evaluates to the same values.
 *
 * FORMULA_DUMP=1 prints the strings the library produces instead of failing,
 * as C literals, for reviewing new cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula.h"
#include "analyzer/util/session.h"

struct fcase {
	const char *name;
	const char *isl;    /* a pw_qpolynomial over parameters */
	int zero;           /* zero outside (a count) */
	const char *subst;  /* "p=EXPR;q=EXPR" applied in order, or NULL */
	const char *expect; /* with subst: the expected value in EXPR grammar */
	const char *text, *expr, *latex;
};

static const struct fcase cases[] = {
	{ "triangle", "[n] -> { 1/2*n*(n+1) : n >= 0 }", 1, NULL, NULL,
	  "n*(n+1)/2 if n >= 0; 0 otherwise",
	  "n >= 0 ? n*(n+1)/2 : 0",
	  "\\begin{cases} \\frac{n(n+1)}{2} & \\text{if } n \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "triangle_everywhere", "[n] -> { 1/2*n*(n+1) }", 0, NULL, NULL,
	  "n*(n+1)/2", "n*(n+1)/2", "\\frac{n(n+1)}{2}" },
	{ "block_ceil", "[m] -> { floor((m+3)/4) : m >= 0 }", 1, NULL, NULL,
	  "floor((m + 3)/4) if m >= 0; 0 otherwise",
	  "m >= 0 ? floor((m + 3)/4) : 0",
	  "\\begin{cases} \\left\\lfloor \\frac{m + 3}{4} \\right\\rfloor & \\text{if } m \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	/* the defining inequalities of e = floor((n - 1)/5) say nothing and are
	 * not printed; the condition left is 4*e >= n - 4 */
	{ "div_definition_dropped",
	  "[n] -> { 1 : exists e: 5e >= n - 5 and n > 5e and 4e >= n - 4 }", 1, NULL, NULL,
	  "1 if 4*floor((n - 1)/5) >= n - 4; 0 otherwise",
	  "4*floor((n - 1)/5) >= n - 4 ? 1 : 0",
	  "\\begin{cases} 1 & \\text{if } 4\\left\\lfloor \\frac{n - 1}{5} \\right\\rfloor \\geq n - 4 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "constant", "[n] -> { 7 }", 0, NULL, NULL, "7", "7", "7" },
	/* ISL drops pieces whose value is 0: a zero is zero-outside */
	{ "zero", "[n] -> { 0 }", 1, NULL, NULL, "0", "0", "0" },
	{ "negative_rational", "[n] -> { -3/4 }", 0, NULL, NULL,
	  "-3/4", "-3/4", "-\\frac{3}{4}" },
	{ "box", "[n, m] -> { n*m : n >= 0 and m >= 0 }", 1, NULL, NULL,
	  "m*n if m >= 0 && n >= 0; 0 otherwise",
	  "m >= 0 && n >= 0 ? m*n : 0",
	  "\\begin{cases} mn & \\text{if } m \\geq 0 \\land n \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "square_pyramid", "[n] -> { 1/6*n*(n+1)*(2n+1) : n >= 0 }", 1, NULL, NULL,
	  "n*(n+1)*(2*n+1)/6 if n >= 0; 0 otherwise",
	  "n >= 0 ? n*(n+1)*(2*n+1)/6 : 0",
	  "\\begin{cases} \\frac{n(n+1)(2n+1)}{6} & \\text{if } n \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "factored_quadratic", "[n] -> { n^2 + 3n + 2 }", 0, NULL, NULL,
	  "(n+1)*(n+2)", "(n+1)*(n+2)", "(n+1)(n+2)" },
	{ "difference", "[n, m] -> { n - m : n > m and m >= 0 }", 1, NULL, NULL,
	  "n - m if m >= 0 && n > m; 0 otherwise",
	  "m >= 0 && n > m ? n - m : 0",
	  "\\begin{cases} n - m & \\text{if } m \\geq 0 \\land n > m \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "two_pieces", "[n, m] -> { n*m - n + 1 : n >= 0 and m >= 1; 7 : n < 0 }", 1,
	  NULL, NULL,
	  "7 if n < 0; n*(m-1) + 1 if m >= 1 && n >= 0; 0 otherwise",
	  "m >= 1 && n >= 0 ? n*(m-1) + 1 : n < 0 ? 7 : 0",
	  "\\begin{cases} 7 & \\text{if } n < 0 \\\\ n(m-1) + 1 & \\text{if } m \\geq 1 \\land n \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "two_pieces_undefined", "[n] -> { n : n >= 0; -n : n < 0 }", 0, NULL, NULL,
	  "-n if n < 0; n if n >= 0",
	  "n >= 0 ? n : -n",
	  "\\begin{cases} -n & \\text{if } n < 0 \\\\ n & \\text{if } n \\geq 0 \\end{cases}" },
	{ "divisible", "[n] -> { 1/4*n : n >= 1 and n mod 4 = 0 }", 1, NULL, NULL,
	  "n/4 if n >= 1 && n % 4 == 0; 0 otherwise",
	  "n >= 1 && n % 4 == 0 ? n/4 : 0",
	  "\\begin{cases} \\frac{n}{4} & \\text{if } n \\geq 1 \\land n \\equiv 0 \\pmod{4} \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "residue", "[m, n] -> { n + 1 : n >= 0 and m mod 3 = 1 }", 1, NULL, NULL,
	  "n + 1 if n >= 0 && m % 3 == 1; 0 otherwise",
	  "n >= 0 && m % 3 == 1 ? n + 1 : 0",
	  "\\begin{cases} n + 1 & \\text{if } n \\geq 0 \\land m \\equiv 1 \\pmod{3} \\\\ 0 & \\text{otherwise} \\end{cases}" },
	/* a residue through a division another disjunct shares: 2*floor(n/2)
	 * == n - 1 is n % 2 == 1 */
	{ "residue_shared_div", "[n, P] -> { 1 : (2*floor(n/2) = n - 1 and P = 1) or (n mod 2 = 0 and P >= 1) }", 1,
	  NULL, NULL, "1 if (P == 1 && n % 2 == 1) || (P >= 1 && n % 2 == 0); 0 otherwise",
	  "(P == 1 && n % 2 == 1) || (P >= 1 && n % 2 == 0) ? 1 : 0",
	  "\\begin{cases} 1 & \\text{if } (P = 1 \\land n \\equiv 1 \\pmod{2}) \\lor (P \\geq 1 \\land n \\equiv 0 \\pmod{2}) \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "nested_floor", "[n, m, k] -> { floor((n + floor(m/3))/2) + k*floor(m/3) : n >= 0 }",
	  1, NULL, NULL,
	  "k*floor(m/3) + floor((m + 3*n)/6) if n >= 0; 0 otherwise",
	  "n >= 0 ? k*floor(m/3) + floor((m + 3*n)/6) : 0",
	  "\\begin{cases} k\\,\\left\\lfloor \\frac{m}{3} \\right\\rfloor + \\left\\lfloor \\frac{m + 3n}{6} \\right\\rfloor & \\text{if } n \\geq 0 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "floor_power", "[n] -> { floor(n/2)^2 - 1/3*n : n >= 5 or n <= -5 }", 1, NULL, NULL,
	  "(3*floor(n/2)^2 - n)/3 if n <= -5 || n >= 5; 0 otherwise",
	  "n <= -5 || n >= 5 ? (3*floor(n/2)^2 - n)/3 : 0",
	  "\\begin{cases} \\frac{3\\left\\lfloor \\frac{n}{2} \\right\\rfloor^{2} - n}{3} & \\text{if } n \\geq 5 \\lor n \\leq -5 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "cyclic_count", "[n] -> { floor((n - 1)/3) + 1 : n >= 1 }", 1, NULL, NULL,
	  /* ISL normalizes floor((n - 1)/3) + 1 */
	  "floor((n + 2)/3) if n >= 1; 0 otherwise",
	  "n >= 1 ? floor((n + 2)/3) : 0",
	  "\\begin{cases} \\left\\lfloor \\frac{n + 2}{3} \\right\\rfloor & \\text{if } n \\geq 1 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "stencil_pairs", "[n, m] -> { 2n*m - n - m : n >= 1 and m >= 1 }", 1, NULL, NULL,
	  "m*(2*n-1) - n if m >= 1 && n >= 1; 0 otherwise",
	  "m >= 1 && n >= 1 ? m*(2*n-1) - n : 0",
	  "\\begin{cases} m(2n-1) - n & \\text{if } m \\geq 1 \\land n \\geq 1 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "multi_letter", "[mb, nb] -> { mb*nb + 2mb }", 0, NULL, NULL,
	  "mb*(nb+2)", "mb*(nb+2)", "\\mathit{mb}(\\mathit{nb}+2)" },
	{ "cubic_flat", "[n] -> { n^3 - 2n + 5 }", 0, NULL, NULL,
	  "n^3 - 2*n + 5", "n^3 - 2*n + 5", "n^{3} - 2n + 5" },
	{ "ncom_example1", "[o, m, n, M, N] -> { o*m*N - o*m + o*n*M - o*n }", 0, NULL, NULL,
	  "m*o*(N-1) + n*o*(M-1)", "m*o*(N-1) + n*o*(M-1)", "mo(N-1) + no(M-1)" },
	/* Laurent values: block lengths replaced by quotients */
	{ "w_example1", "[mb, nb, o] -> { mb*nb*o }", 0, "mb=m/M;nb=n/N", "m*n*o/(M*N)",
	  "m*n*o/(M*N)", "m*n*o/(M*N)", "\\frac{mno}{MN}" },
	{ "h_example1", "[mb, nb, oN, oM, M, N] -> { mb*(N-1)*oN + (M-1)*oM*nb }", 0,
	  "mb=m/M;nb=n/N;oN=o/N;oM=o/M", "(o*m*(N-1) + o*n*(M-1))/(M*N)",
	  "(m*o*(N-1) + n*o*(M-1))/(M*N)", "(m*o*(N-1) + n*o*(M-1))/(M*N)",
	  "\\frac{mo(N-1) + no(M-1)}{MN}" },
	{ "h0_example2", "[oM, nb, M] -> { oM*nb*(M-1) }", 0, "oM=o/M;nb=n/N",
	  "o*n*(M-1)/(M*N)",
	  "n*o*(M-1)/(M*N)", "n*o*(M-1)/(M*N)", "\\frac{no(M-1)}{MN}" },
	{ "mixed_denominators", "[mb, n] -> { mb + n^2 + 1 }", 0, "mb=m/M",
	  "m/M + n^2 + 1",
	  "m/M + n^2 + 1", "m/M + n^2 + 1", "\\frac{m}{M} + n^{2} + 1" },
	{ "negative_power", "[mb] -> { 3*mb^2 - mb }", 0, "mb=m/M", "3*m^2/M^2 - m/M",
	  "m*(3*m-M)/M^2", "m*(3*m-M)/M^2", "\\frac{m(3m-M)}{M^{2}}" },
	{ "shift_subst", "[n, m] -> { n*m + n : n >= 0 and m >= 0 }", 1, "n=n+1",
	  "n >= -1 && m >= 0 ? (n+1)*(m+1) : 0",
	  "(m+1)*(n+1) if m >= 0 && n >= -1; 0 otherwise",
	  "m >= 0 && n >= -1 ? (m+1)*(n+1) : 0",
	  "\\begin{cases} (m+1)(n+1) & \\text{if } m \\geq 0 \\land n \\geq -1 \\\\ 0 & \\text{otherwise} \\end{cases}" },
	{ "floor_subst_constant", "[n, k] -> { k*floor((n+1)/2) }", 0, "n=5",
	  "3*k", "3*k", "3*k", "3k" },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

/* ------------------------------------------------------------------ helpers */

static int dump_mode(void)
{
	const char *s = getenv("FORMULA_DUMP");
	return s && *s && strcmp(s, "0") != 0;
}

/* A deterministic pseudo-random sequence (no global state: the caller keeps it). */
static long long next_value(uint64_t *seed, long long lo, long long hi)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (long long)((*seed >> 33) % (uint64_t)(hi - lo + 1));
}

/* Grid sizes (names starting with an upper-case letter) stay positive, as
 * divisors must; other parameters range over negative values too. */
static void random_point(uint64_t *seed, char **names, int n, long long *values)
{
	int i;

	for (i = 0; i < n; i++)
		values[i] = isupper((unsigned char)names[i][0]) ?
			next_value(seed, 1, 6) : next_value(seed, -5, 12);
}

/* The formula of a case, with its substitutions applied. */
static struct formula *build(isl_ctx *ctx, const struct fcase *c,
	isl_pw_qpolynomial **pwqp_out)
{
	isl_pw_qpolynomial *pwqp = isl_pw_qpolynomial_read_from_str(ctx, c->isl);
	struct formula *f;
	char *subst, *tok, *save = NULL;

	assert_non_null(pwqp);
	f = c->zero ? formula_from_pw_qpolynomial_zero_outside(pwqp)
		: formula_from_pw_qpolynomial(pwqp);
	assert_non_null(f);
	if (pwqp_out)
		*pwqp_out = pwqp;
	else
		isl_pw_qpolynomial_free(pwqp);
	if (!c->subst)
		return f;
	subst = strdup(c->subst);
	for (tok = strtok_r(subst, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(tok, '='), *err = NULL;
		struct formula_expr *e;
		struct formula *r, *g;
		assert_non_null(eq);
		*eq = '\0';
		e = formula_parse_expr(eq + 1, &err);
		assert_non_null(e);
		r = formula_from_expr(e);
		assert_non_null(r);
		g = formula_subst(f, tok, r);
		assert_non_null(g);
		formula_free(f);
		formula_free(r);
		formula_expr_free(e);
		f = g;
	}
	free(subst);
	return f;
}

/* The parameter names to vary: the formula's, plus the ISL space's. */
static char **case_params(const struct formula *f, isl_pw_qpolynomial *pwqp, int *n)
{
	int nf, i, k;
	char **fn = formula_params(f, &nf);
	isl_space *space = isl_pw_qpolynomial_get_space(pwqp);
	int np = isl_space_dim(space, isl_dim_param);
	char **all = calloc(nf + np + 1, sizeof(*all));

	*n = 0;
	for (i = 0; i < nf; i++)
		all[(*n)++] = strdup(fn[i]);
	for (i = 0; i < np; i++) {
		const char *name = isl_space_get_dim_name(space, isl_dim_param, i);
		for (k = 0; k < *n; k++)
			if (strcmp(all[k], name) == 0)
				break;
		if (k == *n)
			all[(*n)++] = strdup(name);
	}
	isl_space_free(space);
	formula_params_free(fn, nf);
	return all;
}

static void free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ISL's value of PWQP at the point (0 outside its domain). */
static void isl_value(isl_pw_qpolynomial *pwqp, char **names, const long long *values,
	int n, mpq_t out)
{
	isl_space *space = isl_pw_qpolynomial_get_domain_space(pwqp);
	isl_point *pnt = isl_point_zero(isl_space_copy(space));
	isl_val *v;
	mpz_t z;
	int i, np = isl_space_dim(space, isl_dim_param);

	for (i = 0; i < np; i++) {
		const char *name = isl_space_get_dim_name(space, isl_dim_param, i);
		int k;
		for (k = 0; k < n; k++)
			if (strcmp(names[k], name) == 0)
				pnt = isl_point_set_coordinate_val(pnt, isl_dim_param, i,
					isl_val_int_from_si(isl_space_get_ctx(space),
						(long)values[k]));
	}
	isl_space_free(space);
	v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(pwqp), pnt);
	assert_non_null(v);
	mpz_init(z);
	isl_val_get_num_gmp(v, z);
	mpq_set_num(out, z);
	isl_val_get_den_gmp(v, z);
	mpq_set_den(out, z);
	mpq_canonicalize(out);
	mpz_clear(z);
	isl_val_free(v);
}

/* Whether PWQP's domain holds the point. */
static int isl_in_domain(isl_pw_qpolynomial *pwqp, char **names,
	const long long *values, int n)
{
	isl_set *dom = isl_pw_qpolynomial_domain(isl_pw_qpolynomial_copy(pwqp));
	int i, np = isl_set_dim(dom, isl_dim_param), empty;

	for (i = 0; i < np; i++) {
		const char *name = isl_set_get_dim_name(dom, isl_dim_param, i);
		int k;
		for (k = 0; k < n; k++)
			if (strcmp(names[k], name) == 0)
				break;
		dom = isl_set_fix_si(dom, isl_dim_param, i, (int)values[k]);
	}
	empty = isl_set_is_empty(dom);
	isl_set_free(dom);
	return !empty;
}

static void print_literal(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

/* ------------------------------------------------------------------ per case */

static void test_strings(void **state)
{
	const struct fcase *c = *state;
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = build(ctx, c, NULL);
	const char *want[3] = { c->text, c->expr, c->latex };
	int s;

	for (s = 0; s < 3; s++) {
		char *got = formula_to_string(f, (enum formula_style)s);
		char *again = formula_to_string(f, (enum formula_style)s);
		assert_non_null(got);
		assert_string_equal(got, again); /* deterministic */
		if (dump_mode()) {
			printf("# %s %d: ", c->name, s);
			print_literal(got);
			putchar('\n');
		} else if (want[s]) {
			assert_string_equal(got, want[s]);
		}
		free(got);
		free(again);
	}
	formula_free(f);
	isl_ctx_free(ctx);
}

/* formula_eval against ISL (or the expected expression), and the printed EXPR
 * (and TEXT, when it is in the grammar) parsed back, at 40 points. */
static void test_values(void **state)
{
	const struct fcase *c = *state;
	isl_ctx *ctx = session_ctx(NULL);
	isl_pw_qpolynomial *pwqp;
	struct formula *f = build(ctx, c, &pwqp);
	char *expr = formula_to_string(f, FORMULA_EXPR);
	char *strict = formula_to_string(f, FORMULA_EXPR_STRICT);
	char *text = formula_to_string(f, FORMULA_TEXT);
	struct formula_expr *pe, *ps, *pt = NULL, *want = NULL;
	char **names, *err = NULL;
	int n, i, checked = 0;
	long long values[16];
	uint64_t seed = 12345;
	mpq_t a, b;

	pe = formula_parse_expr(expr, &err);
	if (!pe)
		fail_msg("EXPR %s does not parse: %s", expr, err);
	ps = formula_parse_expr(strict, &err);
	if (!ps)
		fail_msg("EXPR_STRICT %s does not parse: %s", strict, err);
	if (!strstr(text, " if ") && !strstr(text, "otherwise")) {
		pt = formula_parse_expr(text, &err);
		if (!pt)
			fail_msg("TEXT %s does not parse: %s", text, err);
	}
	if (c->expect) {
		want = formula_parse_expr(c->expect, &err);
		assert_non_null(want);
	}
	names = case_params(f, pwqp, &n);
	assert_true(n <= 16);
	mpq_init(a);
	mpq_init(b);
	for (i = 0; i < 40; i++) {
		int defined;
		random_point(&seed, names, n, values);
		defined = c->zero || c->subst || isl_in_domain(pwqp, names, values, n);
		if (formula_eval(f, (const char *const *)names, values, n, a) < 0) {
			if (defined && !c->subst)
				fail_msg("%s: formula_eval failed inside the domain", c->name);
			/* where no piece applies, the strict text has no value either */
			if (formula_expr_eval(ps, (const char *const *)names, values, n, b) == 0)
				fail_msg("%s: EXPR_STRICT %s has a value where the formula has "
					 "none", c->name, strict);
			continue;
		}
		assert_int_equal(formula_expr_eval(ps, (const char *const *)names, values, n, b), 0);
		if (!mpq_equal(a, b))
			fail_msg("%s: EXPR_STRICT %s gives %s, formula %s", c->name, strict,
				 mpq_get_str(NULL, 10, b), mpq_get_str(NULL, 10, a));
		if (want) {
			assert_int_equal(formula_expr_eval(want, (const char *const *)names,
				values, n, b), 0);
		} else {
			assert_true(defined);
			isl_value(pwqp, names, values, n, b);
		}
		if (!mpq_equal(a, b))
			fail_msg("%s: point %d: formula %s, expected %s", c->name, i,
				mpq_get_str(NULL, 10, a), mpq_get_str(NULL, 10, b));
		assert_int_equal(formula_expr_eval(pe, (const char *const *)names, values,
			n, b), 0);
		if (!mpq_equal(a, b))
			fail_msg("%s: EXPR %s gives %s at point %d, formula %s", c->name,
				expr, mpq_get_str(NULL, 10, b), i, mpq_get_str(NULL, 10, a));
		if (pt) {
			assert_int_equal(formula_expr_eval(pt, (const char *const *)names,
				values, n, b), 0);
			assert_true(mpq_equal(a, b));
		}
		checked++;
	}
	assert_true(checked >= 20);
	mpq_clear(a);
	mpq_clear(b);
	free_names(names, n);
	formula_expr_free(pe);
	formula_expr_free(ps);
	formula_expr_free(pt);
	formula_expr_free(want);
	free(expr);
	free(strict);
	free(text);
	formula_free(f);
	isl_pw_qpolynomial_free(pwqp);
	isl_ctx_free(ctx);
}

/* ------------------------------------------------------------------ conditions */

/* formula_sign_text's condition, read back in the machine grammar, holds at
 * n exactly where F is defined and its value compares with 0 as OP says,
 * the first piece winning where two apply; the text style folds the
 * constant piece away. */
static void test_sign_text(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	isl_pw_qpolynomial *p = isl_pw_qpolynomial_read_from_str(ctx,
		"[n] -> { (n - 5) : 0 <= n <= 10 }");
	isl_pw_qpolynomial *q = isl_pw_qpolynomial_read_from_str(ctx,
		"[n] -> { -1 : 5 <= n <= 20 }");
	struct formula *a = formula_from_pw_qpolynomial(p);
	struct formula *b = formula_from_pw_qpolynomial(q);
	struct formula *f = formula_join(a, b);   /* overlapping on 5..10: a wins */
	static const char *const ops[] = { "<", "<=", "==", "!=", ">", ">=" };
	const char *names[] = { "n" };
	mpq_t v;

	(void)state;
	mpq_init(v);
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		char *text = formula_sign_text(f, NULL, ops[k], FORMULA_EXPR, NULL, 0, 0, NULL);
		assert_non_null(text);
		struct formula_expr *e = formula_parse_expr(text, NULL);
		assert_non_null(e);
		for (long long n = -3; n <= 24; n++) {
			int defined = (n >= 0 && n <= 20);
			long long val = n <= 10 ? n - 5 : -1;
			int sign = val < 0 ? -1 : val > 0;
			int want = 0;
			if (defined)
				want = strcmp(ops[k], "<") == 0 ? sign < 0 : strcmp(ops[k], "<=") == 0 ? sign <= 0
				     : strcmp(ops[k], "==") == 0 ? sign == 0 : strcmp(ops[k], "!=") == 0 ? sign != 0
				     : strcmp(ops[k], ">") == 0 ? sign > 0 : sign >= 0;
			assert_int_equal(formula_expr_eval(e, names, &n, 1, v), 0);
			if ((mpq_sgn(v) != 0) != want)
				fail_msg("%s 0 at n = %lld: condition '%s' gives %d", ops[k], n, text,
					 mpq_sgn(v) != 0);
		}
		formula_expr_free(e);
		free(text);
	}
	/* solved for a name: "l OP VALUE" per piece */
	char *text = formula_sign_text(a, "l", ">", FORMULA_TEXT, NULL, 0, 0, NULL);
	assert_string_equal(text, "n <= 10 && n >= 0 && l > n - 5");
	free(text);
	/* a constant folds: true where it applies, and everywhere: always */
	struct formula *c = formula_const_si(-2);
	text = formula_sign_text(c, NULL, "<", FORMULA_TEXT, NULL, 0, 0, NULL);
	assert_string_equal(text, "always");
	free(text);
	text = formula_sign_text(c, NULL, ">", FORMULA_EXPR, NULL, 0, 0, NULL);
	assert_string_equal(text, "0");
	free(text);
	text = formula_sign_text(b, NULL, "<", FORMULA_TEXT, NULL, 0, 0, NULL);
	assert_string_equal(text, "n <= 20 && n >= 5");
	free(text);
	/* read within a context: what it gives is left out (n >= 0 within
	 * n >= 0), and a region that is all of it is the comparison alone */
	isl_set *nonneg = isl_set_read_from_str(ctx, "[n] -> { : n >= 0 }");
	text = formula_sign_text(a, "l", ">", FORMULA_TEXT, NULL, 0, 0, nonneg);
	assert_string_equal(text, "n <= 10 && l > n - 5");
	free(text);
	isl_set *upto = isl_set_read_from_str(ctx, "[n] -> { : 0 <= n <= 10 }");
	text = formula_sign_text(a, "l", ">", FORMULA_TEXT, NULL, 0, 0, upto);
	assert_string_equal(text, "l > n - 5");
	free(text);
	text = formula_sign_text(b, NULL, "<", FORMULA_TEXT, NULL, 0, 0, upto);
	assert_string_equal(text, "n >= 5");
	free(text);
	isl_set *mid = isl_set_read_from_str(ctx, "[n] -> { : 5 <= n <= 20 }");
	text = formula_sign_text(b, NULL, "<", FORMULA_EXPR, NULL, 0, 0, mid);
	assert_string_equal(text, "1");
	free(text);
	/* a region outside the context is no part (not "0 && n - 5 < 0") */
	isl_set *past = isl_set_read_from_str(ctx, "[n] -> { : n >= 11 }");
	text = formula_sign_text(f, NULL, "<", FORMULA_TEXT, NULL, 0, 0, past);
	assert_string_equal(text, "n <= 20");
	free(text);
	isl_set_free(past);
	isl_set_free(nonneg);
	isl_set_free(upto);
	isl_set_free(mid);
	mpq_clear(v);
	formula_free(a);
	formula_free(b);
	formula_free(c);
	formula_free(f);
	isl_pw_qpolynomial_free(p);
	isl_pw_qpolynomial_free(q);
	isl_ctx_free(ctx);
}

/* ------------------------------------------------------------------ evaluation */

static void test_eval_undefined(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	isl_pw_qpolynomial *p = isl_pw_qpolynomial_read_from_str(ctx,
		"[n] -> { 1/2*n*(n+1) : n >= 0 }");
	struct formula *u = formula_from_pw_qpolynomial(p);
	struct formula *z = formula_from_pw_qpolynomial_zero_outside(p);
	const char *names[] = { "n", "m" };
	long long in[] = { 10, 3 }, out[] = { -3, 3 };
	mpq_t v;

	(void)state;
	mpq_init(v);
	assert_int_equal(formula_eval(u, names, in, 2, v), 0);
	assert_int_equal(mpz_get_si(mpq_numref(v)), 55);
	assert_int_equal(formula_eval(u, names, out, 2, v), -1); /* undefined */
	assert_int_equal(formula_eval(z, names, out, 2, v), 0);
	assert_int_equal(mpq_sgn(v), 0);
	assert_int_equal(formula_eval(z, names + 1, in + 1, 1, v), -1); /* no n */
	assert_int_equal(formula_get_outside(z), FORMULA_ZERO_OUTSIDE);
	assert_int_equal(formula_get_outside(u), FORMULA_UNDEFINED_OUTSIDE);
	mpq_clear(v);
	formula_free(u);
	formula_free(z);
	isl_pw_qpolynomial_free(p);
	isl_ctx_free(ctx);
}

static void test_eval_division_by_zero(void **state)
{
	struct formula_expr *e = formula_parse_expr("m/M", NULL);
	struct formula *f = formula_from_expr(e);
	const char *names[] = { "m", "M" };
	long long zero[] = { 4, 0 }, two[] = { 4, 2 };
	mpq_t v;

	(void)state;
	mpq_init(v);
	assert_non_null(f);
	assert_int_equal(formula_eval(f, names, zero, 2, v), -1);
	assert_int_equal(formula_expr_eval(e, names, zero, 2, v), -1);
	assert_int_equal(formula_eval(f, names, two, 2, v), 0);
	assert_int_equal(mpz_get_si(mpq_numref(v)), 2);
	mpq_clear(v);
	formula_free(f);
	formula_expr_free(e);
}

/* ------------------------------------------------------------------ the grammar */

struct grammar_case {
	const char *text;
	const char *value; /* exact value with n = 7, m = -3, M = 4; NULL: error */
};

static const struct grammar_case grammar_cases[] = {
	{ "1 + 2*3", "7" },
	{ "2^3^2", "512" },
	{ "-2^2", "-4" },
	{ "(n + 1)/2", "4" },
	{ "n/2", "7/2" },
	{ "n % 4", "3" },
	{ "m % 4", "1" },
	{ "m/M", "-3/4" },
	{ "M^-2", "1/16" },
	{ "floor(n/2) + ceil(n/2)", "7" },
	{ "floor(m/2)", "-2" },
	{ "ceil(m/2)", "-1" },
	{ "max(n, m, M)", "7" },
	{ "min(n, m, M)", "-3" },
	{ "n >= 1 && m % 3 == 0 ? n : m", "7" },
	{ "n < 1 || m > 0 ? 1 : 2", "2" },
	{ "n != 7 ? 1 : n == 7 ? 2 : 3", "2" },
	{ "n <= 7", "1" },
	{ "n > 7", "0" },
	{ "1/0", NULL },
	{ "2^(1/2)", NULL },
	{ "x + 1", NULL },
	{ "0 && 1/0", "0" },
};

static void test_grammar_eval(void **state)
{
	const char *names[] = { "n", "m", "M" };
	long long values[] = { 7, -3, 4 };
	size_t i;
	mpq_t v, want;

	(void)state;
	mpq_init(v);
	mpq_init(want);
	for (i = 0; i < sizeof(grammar_cases) / sizeof(grammar_cases[0]); i++) {
		const struct grammar_case *g = &grammar_cases[i];
		char *err = NULL;
		struct formula_expr *e = formula_parse_expr(g->text, &err);
		int r;
		if (!e)
			fail_msg("%s: %s", g->text, err);
		r = formula_expr_eval(e, names, values, 3, v);
		if (!g->value) {
			if (r != -1)
				fail_msg("%s: evaluated, expected an error", g->text);
		} else {
			assert_int_equal(mpq_set_str(want, g->value, 10), 0);
			mpq_canonicalize(want);
			if (r != 0 || !mpq_equal(v, want))
				fail_msg("%s: got %s, expected %s", g->text,
					r ? "error" : mpq_get_str(NULL, 10, v), g->value);
		}
		formula_expr_free(e);
	}
	mpq_clear(v);
	mpq_clear(want);
}

/* floor, ceil, min and max are functions only when called: a parameter may
 * bear one of those names. */
static void test_grammar_function_names(void **state)
{
	const char *names[] = { "floor", "max" };
	long long values[] = { 7, 2 };
	mpq_t v;

	(void)state;
	mpq_init(v);
	char *err = NULL;
	struct formula_expr *e = formula_parse_expr("floor*max + floor(floor/max) - max (3, floor)", &err);
	if (!e)
		fail_msg("%s", err);
	assert_int_equal(formula_expr_eval(e, names, values, 2, v), 0);
	assert_int_equal(mpq_cmp_si(v, 14 + 3 - 7, 1), 0);
	formula_expr_free(e);
	mpq_clear(v);
}

struct syntax_case {
	const char *text;
	const char *error;
};

static const struct syntax_case syntax_cases[] = {
	{ "1 +", "column 4: unexpected end of input" },
	{ "(n + 1", "column 7: ')' expected" },
	{ "floor n", "column 7: unexpected text after the expression" },
	{ "floor(n, m)", "column 1: floor, ceil and log2 take one argument" },
	{ "n ? 1", "column 6: ':' expected in 'c ? a : b'" },
	{ "n m", "column 3: unexpected text after the expression" },
	{ "n & m", "column 3: unexpected text after the expression" },
	{ "#", "column 1: number, name or '(' expected" },
};

static void test_grammar_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(syntax_cases) / sizeof(syntax_cases[0]); i++) {
		char *err = NULL;
		struct formula_expr *e = formula_parse_expr(syntax_cases[i].text, &err);
		assert_null(e);
		assert_non_null(err);
		assert_string_equal(err, syntax_cases[i].error);
		free(err);
	}
}


/* ------------------------------------------------------------------ identities */

/* A formula from a case-style description: an ISL quasi-polynomial when it
 * starts with '[', else an EXPR-grammar expression (one piece, everywhere). */
static struct formula *make(isl_ctx *ctx, const char *text, int zero)
{
	struct formula *f;

	if (text[0] == '[') {
		isl_pw_qpolynomial *p = isl_pw_qpolynomial_read_from_str(ctx, text);
		assert_non_null(p);
		f = zero ? formula_from_pw_qpolynomial_zero_outside(p)
			: formula_from_pw_qpolynomial(p);
		isl_pw_qpolynomial_free(p);
	} else {
		char *err = NULL;
		struct formula_expr *e = formula_parse_expr(text, &err);
		if (!e)
			fail_msg("%s: %s", text, err);
		f = formula_from_expr(e);
		formula_expr_free(e);
	}
	assert_non_null(f);
	return f;
}

struct identity {
	const char *a, *b;
	int zero_a, zero_b;
	int want; /* 1 identical, 0 different, -1 undecided */
};

static const struct identity identities[] = {
	/* the paper's h, Example 1, written two ways */
	{ "(o*m*(N-1) + o*n*(M-1))/(M*N)",
	  "o*m/M - o*m/(M*N) + o*n/N - o*n/(M*N)", 0, 0, 1 },
	{ "(o*m*(N-1) + o*n*(M-1))/(M*N)", "(o*m*(N-1) + o*n*M)/(M*N)", 0, 0, 0 },
	/* the paper's cost, Example 2, against the sum of its parts */
	{ "m*n*(o+N)/(M*N) + g*(o*n*(M-1) + m*n*(N-1))/(M*N) + 2*l",
	  "m*n*o/(M*N) + m*n*N/(M*N) + g*o*n*(M-1)/(M*N) + g*m*n*(N-1)/(M*N) + l + l",
	  0, 0, 1 },
	{ "m*n*(o+N)/(M*N) + 2*l", "m*n*(o+N)/(M*N) + l", 0, 0, 0 },
	{ "n*(n+1)/2", "[n] -> { 1/2*n^2 + 1/2*n }", 0, 0, 1 },
	{ "n*(n+1)/2", "[n] -> { 1/2*n^2 + 1/2*n + 1/1000 }", 0, 0, 0 },
	/* pieces split differently */
	{ "[n] -> { 1/2*n*(n+1) : n >= 0 }",
	  "[n] -> { 1/2*n^2 + 1/2*n : 0 <= n <= 10; 1/2*n*(n+1) : n > 10 }", 1, 1, 1 },
	/* zero outside against a value defined everywhere: differ at n = -2 */
	{ "[n] -> { 1/2*n*(n+1) : n >= 0 }", "n*(n+1)/2", 1, 0, 0 },
	/* ... but agree with it where it is defined */
	{ "[n] -> { 1/2*n*(n+1) : n >= 0 }", "n*(n+1)/2", 0, 0, 1 },
	/* an identity that holds only on the condition (ISL's gist sees it) */
	{ "[n] -> { n : n mod 2 = 0 }", "[n] -> { 2*floor(n/2) : n mod 2 = 0 }", 0, 0, 1 },
	{ "[n] -> { n : n mod 3 = 0 }", "[n] -> { 2*floor(n/2) : n mod 3 = 0 }", 0, 0, 0 },
	{ "[n, m] -> { n : n = 2m }", "[n, m] -> { 2m : n = 2m }", 0, 0, 1 },
	/* floors */
	{ "floor((m + 3)/4)", "[m] -> { floor((m+3)/4) }", 0, 0, 1 },
	{ "floor((m + 3)/4)", "floor((m + 2)/4)", 0, 0, 0 },
	{ "floor(n/2) + floor((n+1)/2)", "n", 0, 0, 1 },
	/* max and min */
	{ "max(n, m) + min(n, m)", "n + m", 0, 0, -1 },
	{ "max(n, m) + min(n, m)", "max(m, n) + min(m, n)", 0, 0, 1 },
	{ "max(n, m)", "min(n, m)", 0, 0, 0 },
	{ "max(n, n + 1)", "n + 1", 0, 0, 1 },
	/* Laurent: m/M against mb once m = mb*M */
	{ "m/M*N", "N*m/M", 0, 0, 1 },
	/* zero on each disjunct for a different reason (a = 2 on one, b = 2 on
	 * the other): proven disjunct by disjunct */
	{ "[a, b] -> { (a-2)*(b-2) + a : (a = 2 and b >= 0) or (b = 2 and a >= 0) }",
	  "[a, b] -> { a : (a = 2 and b >= 0) or (b = 2 and a >= 0) }", 0, 0, 1 },
	{ "[a, b] -> { (a-2)*(b-3) + a : (a = 2 and b >= 0) or (b = 2 and a >= 0) }",
	  "[a, b] -> { a : (a = 2 and b >= 0) or (b = 2 and a >= 0) }", 0, 0, 0 },
	{ "m/M", "m/N", 0, 0, 0 },
};

static void test_identities(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(identities) / sizeof(identities[0]); i++) {
		const struct identity *t = &identities[i];
		isl_ctx *ctx = session_ctx(NULL);
		struct formula *a = make(ctx, t->a, t->zero_a);
		struct formula *b = make(ctx, t->b, t->zero_b);
		int got = formula_equal(a, b), back = formula_equal(b, a);
		if (got != t->want || back != t->want)
			fail_msg("formula_equal(%s, %s) = %d, %d; expected %d", t->a, t->b,
				got, back, t->want);
		formula_free(a);
		formula_free(b);
		isl_ctx_free(ctx);
	}
}

/* ------------------------------------------------------------------ algebra */

static const char *const operands[] = {
	"[n] -> { 1/2*n*(n+1) : n >= 0 }",
	"[m] -> { floor((m+3)/4) : m >= 0 }",
	"[n, m] -> { n*m - n + 1 : n >= 0 and m >= 1; 7 : n < 0 }",
	"[n] -> { n : n >= 0; -n : n < 0 }",
	"[n] -> { 1/4*n : n >= 1 and n mod 4 = 0 }",
	"m*n/M + 1",
	"max(n, m) - 3",
	"-n^2 + m",
};

enum { A_ADD, A_SUB, A_MUL, A_MAX, A_MIN, A_SCALE, A_NEG, A_COUNT };

static void apply_q(int op, mpq_t out, const mpq_t a, const mpq_t b, const mpq_t k)
{
	switch (op) {
	case A_ADD: mpq_add(out, a, b); break;
	case A_SUB: mpq_sub(out, a, b); break;
	case A_MUL: mpq_mul(out, a, b); break;
	case A_MAX: mpq_set(out, mpq_cmp(a, b) >= 0 ? a : b); break;
	case A_MIN: mpq_set(out, mpq_cmp(a, b) <= 0 ? a : b); break;
	case A_SCALE: mpq_mul(out, a, k); break;
	default: mpq_neg(out, a); break;
	}
}

static struct formula *apply_f(int op, const struct formula *a,
	const struct formula *b, const mpq_t k)
{
	switch (op) {
	case A_ADD: return formula_add(a, b);
	case A_SUB: return formula_sub(a, b);
	case A_MUL: return formula_mul(a, b);
	case A_MAX: return formula_max(a, b);
	case A_MIN: return formula_min(a, b);
	case A_SCALE: return formula_scale(a, k);
	default: return formula_neg(a);
	}
}

/* Every operation on every pair of operands (each zero-outside and not), by
 * evaluation at 24 points: the result is defined exactly where the operands
 * are (zero outside counting as defined), with the operation's value. */
static void test_algebra(void **state)
{
	const char *names[] = { "n", "m", "M" };
	size_t nops = sizeof(operands) / sizeof(operands[0]), i, j;
	uint64_t seed = 99;
	mpq_t va, vb, vr, want, k;
	int op, z, checked = 0;

	(void)state;
	mpq_init(va);
	mpq_init(vb);
	mpq_init(vr);
	mpq_init(want);
	mpq_init(k);
	mpq_set_si(k, -5, 3);
	for (i = 0; i < nops; i++)
		for (j = 0; j < nops; j++)
			for (z = 0; z < 4; z++) {
				isl_ctx *ctx = session_ctx(NULL);
				struct formula *a = make(ctx, operands[i], z & 1);
				struct formula *b = make(ctx, operands[j], z & 2);
				for (op = 0; op < A_COUNT; op++) {
					struct formula *r = apply_f(op, a, b, k);
					int p;
					assert_non_null(r);
					for (p = 0; p < 24; p++) {
						long long v[3];
						int da, db, dr, unary = op >= A_SCALE;
						v[0] = next_value(&seed, -6, 9);
						v[1] = next_value(&seed, -6, 9);
						v[2] = next_value(&seed, 1, 5);
						da = formula_eval(a, names, v, 3, va) == 0;
						db = unary || formula_eval(b, names, v, 3, vb) == 0;
						dr = formula_eval(r, names, v, 3, vr) == 0;
						if (dr != (da && db))
							fail_msg("op %d on %s, %s at (%lld,%lld,%lld): "
								"defined %d, operands %d %d", op,
								operands[i], operands[j], v[0], v[1],
								v[2], dr, da, db);
						if (!dr)
							continue;
						apply_q(op, want, va, vb, k);
						if (!mpq_equal(vr, want))
							fail_msg("op %d on %s, %s at (%lld,%lld,%lld)",
								op, operands[i], operands[j], v[0],
								v[1], v[2]);
						checked++;
					}
					formula_free(r);
				}
				formula_free(a);
				formula_free(b);
				isl_ctx_free(ctx);
			}
	assert_true(checked > 1000);
	mpq_clear(va);
	mpq_clear(vb);
	mpq_clear(vr);
	mpq_clear(want);
	mpq_clear(k);
}

/* formula_subst(f, name, r) evaluates as f with name set to r's value. */
static void test_subst(void **state)
{
	static const struct { const char *f, *name, *r; } subs[] = {
		{ "[n, m] -> { n*m - n + 1 : n >= 0 and m >= 1; 7 : n < 0 }", "n", "m + 2" },
		{ "[n, m] -> { floor((n + m)/3) : n >= 0 }", "n", "2*m - 1" },
		{ "[n] -> { 1/4*n : n >= 1 and n mod 4 = 0 }", "n", "4*m" },
		{ "n^2 + m", "n", "m/M" },
		{ "[n, M] -> { n*M - 1 : n >= 1 }", "M", "3" },
		{ "max(n, m)", "n", "max(m, M)" },
		{ "[n] -> { n : n >= 0; -n : n < 0 }", "n", "[m] -> { m - 1 : m >= 0 }" },
	};
	const char *names[] = { "n", "m", "M" };
	uint64_t seed = 7;
	size_t i;
	int p, checked = 0;
	mpq_t vr, vs, vf;

	(void)state;
	mpq_init(vr);
	mpq_init(vs);
	mpq_init(vf);
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		isl_ctx *ctx = session_ctx(NULL);
		struct formula *f = make(ctx, subs[i].f, 1);
		struct formula *r = make(ctx, subs[i].r, 0);
		struct formula *s = formula_subst(f, subs[i].name, r);
		if (!s)
			fail_msg("subst %s := %s in %s failed", subs[i].name, subs[i].r,
				subs[i].f);
		for (p = 0; p < 30; p++) {
			long long v[3], w[3];
			int k, dr, ds;
			v[0] = next_value(&seed, -6, 9);
			v[1] = next_value(&seed, -6, 9);
			v[2] = next_value(&seed, 1, 5);
			dr = formula_eval(r, names, v, 3, vr) == 0;
			ds = formula_eval(s, names, v, 3, vs) == 0;
			if (!dr) {
				assert_false(ds);
				continue;
			}
			assert_true(ds);
			if (mpz_cmp_ui(mpq_denref(vr), 1) != 0)
				continue; /* f cannot be evaluated at a fraction */
			for (k = 0; k < 3; k++)
				w[k] = strcmp(names[k], subs[i].name) == 0 ?
					mpz_get_si(mpq_numref(vr)) : v[k];
			assert_int_equal(formula_eval(f, names, w, 3, vf), 0);
			if (!mpq_equal(vs, vf))
				fail_msg("subst %s := %s in %s at (%lld,%lld,%lld)",
					subs[i].name, subs[i].r, subs[i].f, v[0], v[1], v[2]);
			checked++;
		}
		formula_free(f);
		formula_free(r);
		formula_free(s);
		isl_ctx_free(ctx);
	}
	assert_true(checked > 100);
	mpq_clear(vr);
	mpq_clear(vs);
	mpq_clear(vf);
}

/* formula_subst_where: an identity that holds on WHERE only (x = a + 1
 * where a == b) written into the pieces within WHERE, values and, where it
 * can, conditions; the function is the same wherever the identity holds. */
static void test_subst_where(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[a, b, x] -> { x*b + a : a = b and x >= a; "
				      "-1 : a = b and x < a; x - a : a > b; 7 : a < b }", 0);
	struct formula *r = make(ctx, "a + 1", 0);
	isl_set *where = isl_set_read_from_str(ctx, "[a, b] -> { : a = b }");
	struct formula *s = formula_subst_where(f, "x", r, where);
	assert_non_null(s);
	/* x >= a became a + 1 >= a (always) and x < a never: that piece went */
	assert_int_equal(formula_n_pieces(s), 3);
	const char *names[] = {"a", "b", "x"};
	mpq_t vs, vf;
	mpq_init(vs);
	mpq_init(vf);
	int checked = 0;
	for (long long a = -4; a <= 4; a++)
		for (long long b = -4; b <= 4; b++)
			for (long long x = -4; x <= 5; x++) {
				if (a == b && x != a + 1)
					continue;   /* where the identity fails */
				long long v[3] = {a, b, x};
				assert_int_equal(formula_eval(s, names, v, 3, vs), 0);
				assert_int_equal(formula_eval(f, names, v, 3, vf), 0);
				assert_true(mpq_equal(vs, vf));
				checked++;
			}
	assert_true(checked > 500);
	/* a value outside WHERE keeps x */
	long long v[3] = {3, 1, 10};
	assert_int_equal(formula_eval(s, names, v, 3, vs), 0);
	assert_int_equal(mpz_get_si(mpq_numref(vs)), 7);
	/* NAME constrained by WHERE: its conditions keep saying a == b */
	struct formula *g = make(ctx, "[a, b] -> { 2*b : a = b; 0 : a < b }", 0);
	struct formula *ra = make(ctx, "a", 0);
	struct formula *t = formula_subst_where(g, "b", ra, where);
	char *text = formula_to_string(t, FORMULA_TEXT);
	assert_string_equal(text, "2*a if b == a");
	free(text);
	/* R over several pieces is not an identity this takes */
	struct formula *pw = make(ctx, "[a] -> { a : a >= 0; -a : a < 0 }", 0);
	assert_null(formula_subst_where(f, "x", pw, where));
	formula_free(pw);
	formula_free(g);
	formula_free(ra);
	formula_free(t);
	mpq_clear(vs);
	mpq_clear(vf);
	isl_set_free(where);
	formula_free(f);
	formula_free(r);
	formula_free(s);
	isl_ctx_free(ctx);
}

/* formula_drop_bounded: an operand of max another bounds on the piece's
 * condition within the context goes; one it does not bound stays. */
static void test_drop_bounded(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *mx = make(ctx, "max(b*(N - 1), b, N^2 - b)", 0);
	struct formula *f = formula_restrict(mx, isl_set_read_from_str(ctx, "[N] -> { : N >= 2 }"));
	isl_set *context = isl_set_read_from_str(ctx, "[b] -> { : b >= 1 }");
	struct formula *d = formula_drop_bounded(f, context);
	char *text = formula_to_string(d, FORMULA_TEXT);
	assert_string_equal(text, "max(N^2 - b, b*(N-1)) if N >= 2");
	free(text);
	isl_set *none = isl_set_universe(isl_space_params_alloc(ctx, 0));
	struct formula *e = formula_drop_bounded(f, none);   /* b may be negative */
	assert_int_equal(formula_equal(e, f), 1);
	text = formula_to_string(e, FORMULA_TEXT);
	assert_string_equal(text, "max(N^2 - b, b, b*(N-1)) if N >= 2");
	free(text);
	isl_set_free(none);
	isl_set_free(context);
	formula_free(mx);
	formula_free(f);
	formula_free(d);
	formula_free(e);
	isl_ctx_free(ctx);
}

/* A substitution that would leave a condition non-affine is refused. */
/* A condition on a block length mb rewritten for mb = m/M: mb >= 1 is m >= M
 * where M >= 1 (and says so); beside another parameter it cannot be, and the
 * substitution is refused until a gist removes that condition. */
static void test_subst_quotient(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[mb] -> { 2*mb : mb >= 1 }", 0);
	struct formula *r = make(ctx, "m/M", 0);
	struct formula *s = formula_subst(f, "mb", r);
	struct formula *f2 = make(ctx, "[mb, n] -> { 2*mb : mb + n >= 1 }", 0);
	struct formula *s2 = formula_subst(f2, "mb", r);
	isl_set *ctxset = isl_set_read_from_str(ctx, "[mb, n] -> { : mb + n >= 1 }");
	struct formula *g = formula_gist(f2, ctxset);
	struct formula *t;
	char *text;

	(void)state;
	assert_non_null(s);
	text = formula_to_string(s, FORMULA_TEXT);
	assert_string_equal(text, "2*m/M if M >= 1 && m >= M");
	free(text);
	assert_null(s2);
	/* after dropping the condition in its context it goes through */
	assert_non_null(g);
	t = formula_subst(g, "mb", r);
	assert_non_null(t);
	text = formula_to_string(t, FORMULA_TEXT);
	assert_string_equal(text, "2*m/M");
	free(text);
	isl_set_free(ctxset);
	formula_free(f);
	formula_free(f2);
	formula_free(r);
	formula_free(s);
	formula_free(s2);
	formula_free(g);
	formula_free(t);
	isl_ctx_free(ctx);
}

/* formula_fold_residues: floor(n/2) is (n - 1)/2 on a piece where n is
 * odd, (n - r)/4 on pieces that fix n % 4 == r; a piece that fixes no
 * residue (or a union of residues) keeps its floor; the values are the
 * same at every point. */
static void test_fold_residues(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx,
		"[n, P] -> { 2n - 2*floor(n/2) - 1 : n mod 2 = 1 and P >= 2; "
		"floor(n/4) + P : n mod 4 = 2 and P = 1; "
		"floor(n/2) : n mod 4 = 0 and P = 1; "
		"floor(n/2) : n mod 2 = 0 and P >= 2 and n >= 4; "
		"floor(n/3) : n mod 2 = 0 and P >= 2 and n < 4 }", 0);
	struct formula *g = formula_fold_residues(f);
	(void)state;
	assert_non_null(g);
	char *text = formula_to_string(g, FORMULA_TEXT);
	assert_string_equal(text, "(n + 2)/4 if P == 1 && n % 4 == 2; n/2 if P == 1 && n % 4 == 0; "
				  "n if P >= 2 && n % 2 == 1; floor(n/3) if n <= 3 && P >= 2 && "
				  "n % 2 == 0; n/2 if n >= 4 && P >= 2 && n % 2 == 0");
	free(text);
	for (long n = 1; n <= 13; n++)
		for (long P = 1; P <= 3; P++) {
			const char *names[] = {"n", "P"};
			long long vals[] = {n, P};
			mpq_t a, b;
			mpq_init(a);
			mpq_init(b);
			int ra = formula_eval(f, names, vals, 2, a);
			int rb = formula_eval(g, names, vals, 2, b);
			assert_int_equal(ra, rb);
			if (ra == 0)
				assert_true(mpq_equal(a, b));
			mpq_clear(a);
			mpq_clear(b);
		}
	struct formula *none = make(ctx, "[n] -> { floor(n/2) : n >= 0 }", 0);
	struct formula *same = formula_fold_residues(none);
	text = formula_to_string(same, FORMULA_TEXT);
	assert_string_equal(text, "floor(n/2) if n >= 0");
	free(text);
	formula_free(none);
	formula_free(same);
	formula_free(f);
	formula_free(g);
	isl_ctx_free(ctx);
}

/* The value of F at S = s, B = b (and K = k), -1 when undefined there. */
static int eval_sbk(const struct formula *f, long long s, long long b, long long k, mpq_t out)
{
	const char *names[] = {"S", "B", "K"};
	long long vals[] = {s, b, k};
	return formula_eval(f, names, vals, 3, out);
}

/* formula_sum_powers: the sum over S = 2^k, k = 1 .. K - 2, of a Laurent
 * polynomial in S (negative powers too) on pieces of the other parameters,
 * against the sum taken level by level; NULL for a condition on S, a floor
 * of S or a maximum of it. */
static void test_sum_powers(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *p = make(ctx, "[S, B] -> { S^2*B + 5 : B >= 10; 7*S - 1 : B <= 9 }", 0);
	struct formula *inv = make(ctx, "B/S", 0);
	struct formula *f = formula_sub(p, inv);
	struct formula *top = make(ctx, "B/2", 0);
	struct formula *g = formula_sum_powers(f, "S", "K", top);
	(void)state;
	assert_non_null(f);
	assert_non_null(g);
	for (long long k = 2; k <= 12; k++) {
		long long b = 1LL << k;
		mpq_t want, one, got;
		mpq_inits(want, one, got, NULL);
		for (long long l = 1; l <= k - 2; l++) {
			assert_int_equal(eval_sbk(f, 1LL << l, b, k, one), 0);
			mpq_add(want, want, one);
		}
		assert_int_equal(eval_sbk(g, 1, b, k, got), 0);
		assert_true(mpq_equal(want, got));
		mpq_clears(want, one, got, NULL);
	}
	/* what it does not sum */
	const char *refused[] = {"[S, B] -> { S : S >= 2 }", "[S] -> { floor(S/2) }", "max(S, B)"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		struct formula *r = make(ctx, refused[i], 0);
		struct formula *none = formula_sum_powers(r, "S", "K", top);
		assert_null(none);
		formula_free(r);
	}
	formula_free(p);
	formula_free(inv);
	formula_free(f);
	formula_free(top);
	formula_free(g);
	isl_ctx_free(ctx);
}

/* formula_covers: a formula with a value wherever another has one. */
static void test_covers(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *wide = make(ctx, "[n, P] -> { n : P >= 1 }", 0);
	struct formula *narrow = make(ctx, "[n, P] -> { 2*n : P >= 4; 3 : P = 2 }", 0);
	struct formula *zero = make(ctx, "[n, P] -> { n : P >= 4 }", 1);
	struct formula *none = make(ctx, "[n, P] -> { n : P >= 4 and P <= 3 }", 0);
	struct formula *all = make(ctx, "n + 1", 0);
	(void)state;
	assert_int_equal(formula_covers(wide, narrow), 1);
	assert_int_equal(formula_covers(narrow, wide), 0);
	assert_int_equal(formula_covers(zero, wide), 1);   /* 0 outside */
	assert_int_equal(formula_covers(wide, zero), 0);   /* 0 for P <= 0 too */
	assert_int_equal(formula_covers(none, wide), 0);   /* no piece */
	assert_int_equal(formula_covers(wide, none), 1);
	assert_int_equal(formula_covers(all, narrow), 1);
	assert_int_equal(formula_covers(narrow, all), 0);
	struct formula *f[] = {wide, narrow, zero, none, all};
	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		formula_free(f[i]);
	isl_ctx_free(ctx);
}

/* formula_merge_levels: a piece of P == 1 or P == 2 whose value the
 * general piece gives there (K = log2(P) then 0 or 1) is joined to it; one
 * whose value differs stays. */
static void test_merge_levels(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[P, K, n] -> { 2*K*n + P : P >= 4; 2*n + 2 : P = 2; "
				 "1 : P = 1 }", 0);
	struct formula *g = formula_merge_levels(f, "P", "K");
	(void)state;
	assert_non_null(g);
	assert_int_equal(formula_n_pieces(g), 1);
	char *text = formula_to_string(g, FORMULA_TEXT);
	assert_string_equal(text, "2*K*n + P if (P <= 2 && P >= 1) || P >= 4");
	free(text);
	struct formula *h = make(ctx, "[P, K, n] -> { 2*K*n + P : P >= 4; 3 : P = 2; "
				 "1 : P = 1 }", 0);
	struct formula *k = formula_merge_levels(h, "P", "K");
	assert_int_equal(formula_n_pieces(k), 2);   /* 3 is not 2*n + 2 */
	formula_free(f);
	formula_free(g);
	formula_free(h);
	formula_free(k);
	isl_ctx_free(ctx);
}

/* formula_prune: a disjunct the context excludes goes (k >= M where k < M,
 * nb <= 0 where nb >= 1), a piece with none left goes, a disjunct is
 * simplified where that shortens it, and nothing the context implies is
 * written in (k == 0 where M == 1 and 0 <= k < M); the values on the
 * context are those of the formula. */
static void test_prune(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx,
		"[k, M, nb] -> { (M - k - 1) : (k >= M and nb >= 5) or (k = M - 1 and M >= 2 and nb >= 1); "
		"nb : k <= M - 2 and M >= 2; 7 : nb <= 0 and k = M - 1; "
		"3 : M = 1 and nb >= 1 and k <= 0 }", 0);
	isl_set *context = isl_set_read_from_str(ctx, "[k, M, nb] -> { : 0 <= k < M and nb >= 1 }");
	struct formula *p = formula_prune(f, context);
	const char *names[] = { "k", "M", "nb" };
	mpq_t a, b;

	(void)state;
	assert_non_null(p);
	char *text = formula_to_string(p, FORMULA_TEXT);
	assert_string_equal(text, "nb if M >= k + 2; 3 if M == 1; M - k - 1 if k >= 1 && M == k + 1");
	free(text);
	mpq_init(a);
	mpq_init(b);
	int checked = 0;
	for (long long M = 1; M <= 5; M++)
		for (long long k = 0; k < M; k++)
			for (long long nb = 1; nb <= 6; nb++) {
				long long v[] = { k, M, nb };
				int ea = formula_eval(f, names, v, 3, a);
				int eb = formula_eval(p, names, v, 3, b);
				assert_int_equal(ea, eb);
				if (ea == 0) {
					assert_true(mpq_equal(a, b));
					checked++;
				}
			}
	assert_true(checked > 50);
	mpq_clear(a);
	mpq_clear(b);
	isl_set_free(context);
	formula_free(f);
	formula_free(p);
	isl_ctx_free(ctx);
}

/* formula_sign_fold: a value whose parts (free of g, and g's coefficient)
 * have one strict sign on the piece within the context is written by that
 * sign; a factor of one sign that may be 0 there (n - 2*P where n >= 2*P)
 * splits the piece where it is 0 and where it is not; parts of both signs
 * leave the value as it is; the sign is the value's wherever g >= 0. */
static void test_sign_fold(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	static const struct {
		const char *f, *want;
	} cases[] = {
		{"g*(2*P - 2*n)/P", "-g"},
		/* a factor that may be 0: split where it is and where it is not */
		{"[n, P, g] -> { (n - 2*P)*g : P >= 1 }", "0 if 2*P == n && n >= 2; g if n > 2*P && P >= 1"},
		{"n + n*g/P", "1"},
		{"[n, P, g] -> { n - g : P >= 1 }", "n - g if P >= 1"},
		{"(P - n)*g - n", "-1"},
		/* shown by its factors: n > 0 and P - n < 0 */
		{"2*g*n*(P - n)/P", "-g"},
		{"[n, P, g] -> { n*(n - 2*P)*g : P >= 1 }", "0 if 2*P == n && n >= 2; g if n > 2*P && P >= 1"},
		/* a factor of both signs (n - 3*P): left as it is */
		{"[n, P, g] -> { (n - 3*P)*g : P >= 1 }", "g*(n-3*P) if P >= 1"},
	};
	isl_set *context = isl_set_read_from_str(ctx, "[n, P, g] -> { : n >= 2*P and P >= 1 }");
	const char *names[] = { "n", "P", "g" };
	const char *coefs[] = { "g", "l" };
	mpq_t a, b;

	(void)state;
	mpq_init(a);
	mpq_init(b);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct formula *f = make(ctx, cases[k].f, 0);
		struct formula *r = formula_sign_fold(f, context, coefs, 2);
		assert_non_null(r);
		char *text = formula_to_string(r, FORMULA_TEXT);
		if (strcmp(text, cases[k].want) != 0)
			fail_msg("%s: %s, expected %s", cases[k].f, text, cases[k].want);
		free(text);
		for (long long P = 1; P <= 3; P++)
			for (long long n = 2 * P; n <= 2 * P + 3; n++)
				for (long long g = 0; g <= 3; g++) {
					long long v[] = { n, P, g };
					assert_int_equal(formula_eval(f, names, v, 3, a), 0);
					assert_int_equal(formula_eval(r, names, v, 3, b), 0);
					assert_int_equal(mpq_sgn(a), mpq_sgn(b));
				}
		formula_free(f);
		formula_free(r);
	}
	/* a factor 0 all over (n - 2*P where n == 2*P) makes the value 0,
	 * whatever the sign of another (m - P) */
	isl_set *tight = isl_set_read_from_str(ctx, "[n, P, g, m] -> { : n = 2*P and P >= 1 }");
	struct formula *z = make(ctx, "[n, P, g, m] -> { (m - P)*(n - 2*P)*g : P >= 1 }", 0);
	struct formula *zr = formula_sign_fold(z, tight, coefs, 2);
	assert_non_null(zr);
	char *text = formula_to_string(zr, FORMULA_TEXT);
	assert_string_equal(text, "0 if P >= 1");
	free(text);
	formula_free(z);
	formula_free(zr);
	isl_set_free(tight);
	mpq_clear(a);
	mpq_clear(b);
	isl_set_free(context);
	isl_ctx_free(ctx);
}

/* formula_sign_text with the names never negative: an all-negative value
 * written negated (-g < 0 as g > 0), g < 0 nowhere, g <= 0 only at g == 0,
 * pieces with one comparison joined (P >= 3 and P == 2), a first piece that
 * holds everywhere and nowhere ending the text (no later piece applies);
 * and each text, read back, holds exactly where the comparison does. */
static void test_sign_text_nonneg(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *a = make(ctx, "[P, g] -> { -g : P >= 3 }", 0);
	struct formula *b = make(ctx, "[P, g] -> { -g : P = 2 }", 0);
	struct formula *f = formula_join(a, b);
	struct formula *e = make(ctx, "g", 0);
	struct formula *first = formula_join(e, a);   /* g everywhere wins */
	const char *coefs[] = { "g", "l" };
	const char *names[] = { "P", "g" };
	static const struct {
		const char *op, *want;
	} cases[] = {
		{"<", "P >= 2 && g > 0"},
		{"<=", "P >= 2"},
		{"==", "P >= 2 && g == 0"},
		{">", "never"},
		{">=", "P >= 2 && g == 0"},
		{"!=", "P >= 2 && g != 0"},
	};
	mpq_t v;

	(void)state;
	assert_non_null(f);
	assert_non_null(first);
	mpq_init(v);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *text = formula_sign_text(f, NULL, cases[k].op, FORMULA_TEXT, coefs, 2, 1, NULL);
		assert_non_null(text);
		if (strcmp(text, cases[k].want) != 0)
			fail_msg("%s: %s, expected %s", cases[k].op, text, cases[k].want);
		free(text);
		text = formula_sign_text(f, NULL, cases[k].op, FORMULA_EXPR, coefs, 2, 1, NULL);
		struct formula_expr *x = formula_parse_expr(text, NULL);
		assert_non_null(x);
		for (long long P = 1; P <= 4; P++)
			for (long long g = 0; g <= 2; g++) {
				long long at[] = { P, g };
				long long val = -g;   /* undefined where P == 1 */
				const char *op = cases[k].op;
				int want = P >= 2 &&
					   (strcmp(op, "<") == 0 ? val < 0 : strcmp(op, "<=") == 0 ? val <= 0
					    : strcmp(op, "==") == 0 ? val == 0 : strcmp(op, "!=") == 0 ? val != 0
					    : strcmp(op, ">") == 0 ? val > 0 : val >= 0);
				assert_int_equal(formula_expr_eval(x, names, at, 2, v), 0);
				if ((mpq_sgn(v) != 0) != want)
					fail_msg("%s: %s at P = %lld, g = %lld", op, text, P, g);
			}
		formula_expr_free(x);
		free(text);
	}
	char *text = formula_sign_text(first, NULL, "<", FORMULA_TEXT, coefs, 2, 1, NULL);
	assert_non_null(text);
	assert_string_equal(text, "never");
	free(text);
	mpq_clear(v);
	formula_free(a);
	formula_free(b);
	formula_free(f);
	formula_free(e);
	formula_free(first);
	isl_ctx_free(ctx);
}

/* formula_join: the pieces of both parts, each keeping its own variables (x
 * only in one part), undefined outside; a zero-outside part brings its pieces
 * and not its zero elsewhere. */
static void test_join(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *a = make(ctx, "[n, M] -> { n : M = 1 }", 0);
	struct formula *b = make(ctx, "[x, M] -> { 2*x : M >= 2 }", 1);
	struct formula *j = formula_join(a, b);
	const char *names[] = { "n", "x", "M" };
	long long one[] = { 5, 7, 1 }, two[] = { 5, 7, 3 }, none[] = { 5, 7, 0 };
	mpq_t v;

	(void)state;
	mpq_init(v);
	assert_non_null(j);
	assert_int_equal(formula_n_pieces(j), 2);
	assert_int_equal(formula_get_outside(j), FORMULA_UNDEFINED_OUTSIDE);
	assert_int_equal(formula_eval(j, names, one, 3, v), 0);
	assert_int_equal(mpz_get_si(mpq_numref(v)), 5);
	assert_int_equal(formula_eval(j, names, two, 3, v), 0);
	assert_int_equal(mpz_get_si(mpq_numref(v)), 14);
	assert_int_equal(formula_eval(j, names, none, 3, v), -1); /* M = 0: no piece */
	assert_null(formula_join(a, NULL));
	mpq_clear(v);
	formula_free(a);
	formula_free(b);
	formula_free(j);
	isl_ctx_free(ctx);
}

/* Pieces with one value merge; formula_coalesce_apart refuses a merge whose
 * condition would relate L to another parameter (L + M >= 4), which a block
 * length L = n/M could not be written back into. */
static void test_coalesce_apart(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[L, M] -> { 7*L : M = 1 and L >= 3; 7*L : M >= 2 and L >= 2 }", 0);
	isl_set *context = isl_set_read_from_str(ctx, "[L, M] -> { : L >= 1 and M >= 1 }");
	const char *apart[] = { "L" };
	struct formula *merged = formula_coalesce(f, context);
	struct formula *kept = formula_coalesce_apart(f, context, apart, 1);
	char *text;

	(void)state;
	assert_non_null(merged);
	assert_non_null(kept);
	text = formula_to_string(merged, FORMULA_TEXT);
	assert_string_equal(text, "7*L if L + M >= 4 && L >= 2");
	free(text);
	assert_int_equal(formula_n_pieces(kept), 2);
	assert_int_equal(formula_equal(merged, kept), 1);
	formula_free(f);
	formula_free(merged);
	formula_free(kept);
	isl_set_free(context);
	isl_ctx_free(ctx);
}

/* A sum of two formulas coalesced on a context has pieces disjoint there,
 * which coalescing the sum on that context (or within it) takes as known
 * rather than subtracting them again: the same formula as from a copy,
 * which knows nothing of its pieces.  On a larger context it is not known:
 * coalesced where M <= N, A's pieces are N <= 2 and M >= 3 || N >= 3, which
 * meet at M = 3, N = 1, and the sum's pieces are made disjoint there as any
 * formula's (N <= 2, then N >= 3). */
static void test_coalesce_sum_apart(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	isl_set *below = isl_set_read_from_str(ctx, "[M, N] -> { : M >= 1 and N >= M }");
	isl_set *any = isl_set_read_from_str(ctx, "[M, N] -> { : M >= 1 and N >= 1 }");
	struct formula *a = make(ctx, "[M, N] -> { 1 : M <= 2 and N <= 2; 2 : M >= 3 or N >= 3 }",
				 1);
	struct formula *b = make(ctx, "[M, N] -> { 10*M : M = 1; 20*M : M >= 2 }", 1);
	struct formula *ta = formula_coalesce(a, below), *tb = formula_coalesce(b, below);
	struct formula *sum = formula_add(ta, tb);
	struct formula *plain = formula_copy(sum);
	isl_set *on[] = { below, any };
	const char *names[] = { "M", "N" };
	const char *want = "M == 1 && N <= 2 ? 11 : M == 2 && N == 2 ? 20*M + 1 : "
			   "M == 1 && N >= 3 ? 12 : (M >= 2 && N >= 3) || M >= 3 ? 20*M + 2 : 0";
	mpq_t v, w, t;

	(void)state;
	mpq_init(v);
	mpq_init(w);
	mpq_init(t);
	assert_non_null(sum);
	assert_non_null(plain);
	for (int k = 0; k < 2; k++) {
		struct formula *x = formula_coalesce(sum, on[k]);
		struct formula *y = formula_coalesce(plain, on[k]);
		assert_non_null(x);
		assert_non_null(y);
		char *tx = formula_to_string(x, FORMULA_EXPR_STRICT);
		char *ty = formula_to_string(y, FORMULA_EXPR_STRICT);
		assert_string_equal(tx, ty);
		if (k == 0)
			assert_string_equal(tx, want);
		free(tx);
		free(ty);
		/* the sum's value wherever the terms were coalesced */
		for (long m = 1; m <= 4; m++)
			for (long n = m; n <= 5; n++) {
				const long long at[] = { m, n };
				assert_int_equal(formula_eval(x, names, at, 2, v), 0);
				assert_int_equal(formula_eval(a, names, at, 2, w), 0);
				assert_int_equal(formula_eval(b, names, at, 2, t), 0);
				mpq_add(w, w, t);
				assert_true(mpq_equal(v, w));
			}
		formula_free(x);
		formula_free(y);
	}
	mpq_clear(v);
	mpq_clear(w);
	mpq_clear(t);
	formula_free(a);
	formula_free(b);
	formula_free(ta);
	formula_free(tb);
	formula_free(sum);
	formula_free(plain);
	isl_set_free(below);
	isl_set_free(any);
	isl_ctx_free(ctx);
}

/* formula_merge_same joins the pieces written the same (7*L on M = 1 and on
 * M >= 3) and keeps apart those that are only equal (3*L and L + 2*L are one
 * expression once collected: the ring collects them; 5*L is another value);
 * a zero-outside formula stays zero outside its pieces, as formula_coalesce
 * leaves it.  Every value is the original's. */
static void test_merge_same(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[L, M] -> { 7*L : M = 1; 5*L : M = 2; 7*L : M >= 3 and L >= 2 }",
				 1);
	isl_set *context = isl_set_read_from_str(ctx, "[L, M] -> { : L >= 1 and M >= 1 }");
	struct formula *g = formula_merge_same(f, context);
	const char *names[] = { "L", "M" };
	mpq_t a, b;

	(void)state;
	assert_non_null(g);
	/* 7*L and 5*L; the zero (M >= 3, L = 1) is outside the pieces */
	assert_int_equal(formula_n_pieces(g), 2);
	assert_int_equal(formula_get_outside(g), FORMULA_ZERO_OUTSIDE);
	mpq_init(a);
	mpq_init(b);
	for (long long L = 1; L <= 5; L++)
		for (long long M = 1; M <= 5; M++) {
			long long x[] = { L, M };
			assert_int_equal(formula_eval(f, names, x, 2, a), 0);
			assert_int_equal(formula_eval(g, names, x, 2, b), 0);
			assert_true(mpq_equal(a, b));
		}
	/* on an undefined-outside formula (formula_on: cost_tidy's) the zero
	 * is a piece, and merges like any other */
	struct formula *on = formula_on(f, context);
	struct formula *h = on ? formula_merge_same(on, context) : NULL;
	assert_non_null(h);
	assert_int_equal(formula_n_pieces(h), 3);
	assert_int_equal(formula_get_outside(h), FORMULA_UNDEFINED_OUTSIDE);
	long long zero[] = { 1, 4 };
	assert_int_equal(formula_eval(h, names, zero, 2, b), 0);
	assert_int_equal(mpq_sgn(b), 0);
	formula_free(on);
	formula_free(h);
	mpq_clear(a);
	mpq_clear(b);
	formula_free(f);
	formula_free(g);
	isl_set_free(context);
	isl_ctx_free(ctx);
}

/* formula_typical_first moves the piece that holds at the typical point to
 * the front (for some value of the parameters the point leaves out), and
 * no value changes; a piece that overlaps an earlier one stays where it is,
 * and a point in no piece moves nothing. */
static void test_typical_first(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx, "[n, M, k] -> { 2*n : M = 1; 3*n : M = 2; "
				      "5*n + k : M >= 3 and k >= 0; 7 : M <= 0 }", 0);
	struct formula *g = formula_copy(f);
	const char *names[] = { "n", "M", "k" };
	mpq_t a, b;

	(void)state;
	assert_non_null(g);
	assert_int_equal(formula_n_pieces(g), 4);
	/* n = 2^20, M = 8; k left out */
	long long typical[] = { 1 << 20, 8 };
	assert_true(formula_typical_first(g, names, typical, 2) >= 1);
	char *text = formula_to_string(g, FORMULA_TEXT);
	assert_non_null(text);
	/* the M >= 3 piece first, then the others */
	assert_non_null(strstr(text, "M >= 3"));
	assert_non_null(strstr(text, "M == 1"));
	assert_true(strstr(text, "M >= 3") < strstr(text, "M == 1"));
	assert_true(strstr(text, "M >= 3") < strstr(text, ";"));
	free(text);
	/* first already: it stays; in no piece: nothing moves */
	assert_int_equal(formula_typical_first(g, names, typical, 2), 0);
	long long nowhere[] = { 1 << 20, 8, -1 };
	assert_int_equal(formula_typical_first(f, names, nowhere, 3), -1);
	/* two pieces hold for some k: the point does not choose, nothing
	 * moves */
	struct formula *two = make(ctx, "[n, k] -> { n - k : 2*k >= n; n : 2*k < n }", 0);
	assert_non_null(two);
	assert_int_equal(formula_typical_first(two, names, typical, 1), -1);
	formula_free(two);
	mpq_init(a);
	mpq_init(b);
	for (long long M = -1; M <= 5; M++)
		for (long long k = 0; k <= 3; k++) {
			long long x[] = { 10, M, k };
			assert_int_equal(formula_eval(f, names, x, 3, a), 0);
			assert_int_equal(formula_eval(g, names, x, 3, b), 0);
			assert_true(mpq_equal(a, b));
		}
	/* an overlapping later piece never overtakes (the first that applies
	 * wins): joined by hand, M = 3 and M = 4 are in both */
	struct formula *lo = make(ctx, "[M] -> { 1 : 1 <= M <= 4 }", 0);
	struct formula *hi = make(ctx, "[M] -> { 2 : M >= 3 }", 0);
	struct formula *o = lo && hi ? formula_join(lo, hi) : NULL;
	long long eight[] = { 0, 8 };
	assert_non_null(o);
	assert_int_equal(formula_n_pieces(o), 2);
	assert_int_equal(formula_typical_first(o, names, eight, 2), -1);
	mpq_clear(a);
	mpq_clear(b);
	formula_free(lo);
	formula_free(hi);
	formula_free(o);
	formula_free(f);
	formula_free(g);
	isl_ctx_free(ctx);
}

/* formula_coalesce leaves out of a max the operands another one bounds where
 * the sign of their difference is plain: shared coefficient signs over
 * non-negative parameters, an affine side of the condition, or a product of
 * such factors (an even power is >= 0).  Otherwise the max stays. */
static void test_max_dropped(void **state)
{
	static const struct { const char *f, *context, *want; } t[] = {
		{ "max(n, n - M)", "[n, M] -> { : n >= 0 and M >= 1 }", "n" },
		{ "max(n*(P-1)/P, n/P)", "[n, P] -> { : n >= 0 and P >= 2 }", "n*(P-1)/P" },
		{ "max((2*M - n)/M, 0)", "[n, M] -> { : M >= 1 and n >= 2*M }", "0" },
		{ "max((n-3)^2, 0)", "[n] -> { : n >= 0 }", "(n-3)^2" },
		{ "max(n - 2*M, 0)", "[n, M] -> { : n >= 0 and M >= 1 }", "max(0, n - 2*M)" },
		/* floors: ISL decides the sign of an affine difference of them */
		{ "max(2*floor((n + 5)/8), floor((n + 3)/8) + floor((n + 5)/8))",
		  "[n] -> { : n >= 0 }", "2*floor((n + 5)/8)" },
		{ "max(0, floor(m/2)*(n - floor(n/2)))", "[n, m] -> { : n >= 0 and m >= 0 }",
		  "floor(m/2)*(n-floor(n/2))" },
		{ "max(floor(n/2), 3 - n)", "[n] -> { : n >= 0 }", "max(3 - n, floor(n/2))" },
		/* each variable moved to its least value: n*m - 4 with n, m >= 2
		 * is 4*y + ... >= 0; a variable the condition fixes is its value */
		{ "max(n*m - 4, 0)", "[n, m] -> { : n >= 2 and m >= 2 }", "m*n - 4" },
		{ "max(3*n - M*n - 1, 0)", "[n, M] -> { : M = 2 and n >= 1 }",
		  "n*(3-M) - 1" },
		{ "max(n*m - 5, 0)", "[n, m] -> { : n >= 2 and m >= 2 }", "max(0, m*n - 5)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		isl_ctx *ctx = session_ctx(NULL);
		struct formula *f = make(ctx, t[i].f, 0);
		isl_set *context = isl_set_read_from_str(ctx, t[i].context);
		struct formula *g = formula_coalesce(f, context);
		assert_non_null(g);
		char *text = formula_to_string(g, FORMULA_TEXT);
		if (strcmp(text, t[i].want) != 0)
			fail_msg("%s on %s: %s, expected %s", t[i].f, t[i].context, text, t[i].want);
		/* and the value is the max's, wherever the context holds */
		int n = 0, checked = 0;
		char **names = formula_params(f, &n);
		assert_true(n <= 3);
		long long v[3] = {0, 0, 0};
		mpq_t a, b;
		mpq_init(a);
		mpq_init(b);
		for (v[0] = 0; v[0] < 9; v[0]++)
			for (v[1] = 0; v[1] < (n > 1 ? 9 : 1); v[1]++) {
				/* g holds on the context only */
				isl_set *at = isl_set_copy(context);
				for (int k = 0; k < n; k++) {
					int pos = isl_set_find_dim_by_name(at, isl_dim_param, names[k]);
					if (pos >= 0)
						at = isl_set_fix_si(at, isl_dim_param, (unsigned)pos, (int)v[k]);
				}
				isl_bool out = isl_set_is_empty(at);
				isl_set_free(at);
				if (out != isl_bool_false)
					continue;
				assert_int_equal(formula_eval(g, (const char *const *)names, v, n, b), 0);
				assert_int_equal(formula_eval(f, (const char *const *)names, v, n, a), 0);
				if (!mpq_equal(a, b))
					fail_msg("%s on %s: %s differs at %s=%lld %s=%lld", t[i].f, t[i].context, text, names[0], v[0], n > 1 ? names[1] : "-", v[1]);
				checked++;
			}
		assert_true(checked > 5);
		mpq_clear(a);
		mpq_clear(b);
		formula_params_free(names, n);
		free(text);
		formula_free(f);
		formula_free(g);
		isl_set_free(context);
		isl_ctx_free(ctx);
	}
}

/* Enumerating a context's points in a box for test_nonnegative_on. */
struct nonneg_walk {
	const struct formula *f;
	char **names;
	int n;
	int points, negative;
};

static isl_stat nonneg_point(__isl_take isl_point *pt, void *user)
{
	struct nonneg_walk *w = user;
	long long v[8];
	for (int k = 0; k < w->n; k++) {
		isl_val *x = isl_point_get_coordinate_val(pt, isl_dim_set, k);
		v[k] = isl_val_get_num_si(x);
		isl_val_free(x);
	}
	isl_point_free(pt);
	mpq_t q;
	mpq_init(q);
	assert_int_equal(formula_eval(w->f, (const char *const *)w->names, v, w->n, q), 0);
	w->points++;
	w->negative += mpq_sgn(q) < 0;
	mpq_clear(q);
	return isl_stat_ok;
}

/* formula_nonnegative_on (the prover of h = max(h_in, h_out)): what it shows
 * holds at every point of the context in a box, counted independently of it,
 * and what it must not show (a negative point there) it does not.  The cases:
 * a sum of one part per axis (split by m, then n), one an equality of the
 * condition makes 0, a union whose parts each fix N, and floors. */
static void test_nonnegative_on(void **state)
{
	static const struct { const char *f, *context; int shown; } t[] = {
		{ "m*N*(N - 1 - e) + n*M*(M - 1 - f)",
		  "[m, n, N, M, e, f] -> { : m >= 1 and n >= 1 and 0 <= e < N and 0 <= f < M }", 1 },
		{ "m*N*(N - 2 - e) + n*M*(M - 1 - f)",
		  "[m, n, N, M, e, f] -> { : m >= 1 and n >= 1 and 0 <= e < N and 0 <= f < M }", 0 },
		{ "m*(N*(k - e + 1) + e - d - k - 1)",
		  "[m, N, k, e, d] -> { : e = k and d = N - 1 and N >= 2 and m >= 1 and k >= 0 }", 1 },
		{ "-m*(N*(k - e + 1) + e - d - k - 1)",
		  "[m, N, k, e, d] -> { : e = k and d = N - 1 and N >= 2 and m >= 1 and k >= 0 }", 1 },
		{ "m*(N*(k - e + 1) + e - d - k - 1)",
		  "[m, N, k, e, d] -> { : e = k and 0 <= d <= N and N >= 2 and m >= 1 and k >= 0 }", 0 },
		{ "m*(N - 2)*(N - 3)", "[m, N] -> { : (N = 2 or N = 3) and m >= 1 }", 1 },
		{ "m*(N - 2)*(N - 4)", "[m, N] -> { : (N = 2 or N = 3) and m >= 1 }", 0 },
		{ "n*(2*N - m) + 2*m*(N - m)", "[n, m, N] -> { : n >= 1 and m >= 1 and N >= m }", 1 },
		{ "floor((n + 1)/4) - floor((n + 3)/4)", "[n] -> { : n >= 0 }", 0 },
		{ "floor((n + 3)/4) - floor((n + 1)/4)", "[n] -> { : n >= 0 }", 1 },
		{ "floor((n + 1)/4) - floor((n + 3)/4)", "[n] -> { : n >= 0 and n % 4 = 0 }", 1 },
		/* a lower bound of o put in: (M - 2 - e)*(f + 1) + k */
		{ "o*(M - 1 - e) + k - f - 1",
		  "[o, M, e, k, f] -> { : 0 <= f < o and k >= 0 and 0 <= e <= M - 2 }", 1 },
		{ "o*(M - 1 - e) + k - f - 2",
		  "[o, M, e, k, f] -> { : 0 <= f < o and k >= 0 and 0 <= e <= M - 2 }", 0 },
		/* ... under a monomial every term has */
		{ "n*(o*(M - 1 - e) + k - f - 1)",
		  "[n, o, M, e, k, f] -> { : n >= 1 and 0 <= f < o and k >= 0 and 0 <= e <= M - 2 }",
		  1 },
		/* maxima: a max is at least the mean of its terms, and at least
		 * each; a max subtracted is each of its terms subtracted */
		{ "max((N - 1)*c, (N - 1)*d) - c - d", "[N, c, d] -> { : N >= 3 and c >= 0 and d >= 0 }", 1 },
		{ "max((N - 1)*c, (N - 1)*d) - c - d", "[N, c, d] -> { : N >= 2 and c >= 0 and d >= 0 }", 0 },
		{ "c + d - max(c, d)", "[c, d] -> { : c >= 0 and d >= 0 }", 1 },
		{ "c + max(d, 2*c) - max(c, d) - c", "[c, d] -> { : c >= 0 and d >= 0 }", 1 },
		{ "max(c, d) - c - 1", "[c, d] -> { : c >= 0 and d >= 0 }", 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		isl_ctx *ctx = session_ctx(NULL);
		struct formula *f = make(ctx, t[i].f, 0);
		isl_set *context = isl_set_read_from_str(ctx, t[i].context);
		int shown = formula_nonnegative_on(f, context);
		if (shown != t[i].shown)
			fail_msg("%s on %s: %d, expected %d", t[i].f, t[i].context, shown, t[i].shown);
		/* the truth, point by point: the context's parameters as set
		 * dimensions, each in [0, 7] */
		struct nonneg_walk w = {f, NULL, 0, 0, 0};
		isl_size np = isl_set_dim(context, isl_dim_param);
		assert_true(np > 0 && np <= 8);
		w.n = (int)np;
		w.names = calloc((size_t)np, sizeof(*w.names));
		assert_non_null(w.names);
		for (int k = 0; k < w.n; k++)
			w.names[k] = (char *)isl_set_get_dim_name(context, isl_dim_param, (unsigned)k);
		isl_set *box = isl_set_move_dims(isl_set_copy(context), isl_dim_set, 0,
						 isl_dim_param, 0, (unsigned)np);
		for (int k = 0; k < w.n; k++)
			box = isl_set_upper_bound_si(isl_set_lower_bound_si(box, isl_dim_set,
									   (unsigned)k, 0),
						     isl_dim_set, (unsigned)k, 7);
		assert_int_equal(isl_set_foreach_point(box, &nonneg_point, &w), isl_stat_ok);
		assert_true(w.points >= 2);
		/* shown: no negative point; not shown here: the case has one,
		 * but the floors' case of the residue 0 is 0 either way */
		if (t[i].shown)
			assert_int_equal(w.negative, 0);
		else
			assert_true(w.negative > 0);
		isl_set_free(box);
		free(w.names);
		formula_free(f);
		isl_set_free(context);
		isl_ctx_free(ctx);
	}
}

/* 1/b is no constant: max(a, -a)/b keeps its 1/b (it was dropped as a
 * factor 1), max(a + 1/b, a) keeps both operands (their difference is no
 * number), and the prover does not take 2/b for a positive factor. */
static void test_constant_with_denominator(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	static const char *const names[] = {"a", "b"};
	mpq_t q, want;
	mpq_init(q);
	mpq_init(want);
	struct formula *f = make(ctx, "max(a, -a)/b", 0);
	long long at[] = {3, 2};
	assert_int_equal(formula_eval(f, names, at, 2, q), 0);
	mpq_set_si(want, 3, 2);
	assert_true(mpq_equal(q, want));
	formula_free(f);
	f = make(ctx, "max(a + 1/b, a) - a - 1/b", 0);
	long long neg[] = {0, -1};
	assert_int_equal(formula_eval(f, names, neg, 2, q), 0);
	mpq_set_si(want, 1, 1);
	assert_true(mpq_equal(q, want));
	formula_free(f);
	f = make(ctx, "2*max(a, -a)/b", 0);
	isl_set *c = isl_set_read_from_str(ctx, "[a, b] -> { : b <= -1 and -3 <= a <= 3 }");
	assert_int_equal(formula_nonnegative_on(f, c), 0);
	isl_set_free(c);
	formula_free(f);
	f = make(ctx, "max(a, -a)/b - 2", 0);
	c = isl_set_read_from_str(ctx, "[a, b] -> { : a = 3 and b = 2 }");
	assert_int_equal(formula_nonnegative_on(f, c), 0);
	isl_set_free(c);
	formula_free(f);
	mpq_clear(q);
	mpq_clear(want);
	isl_ctx_free(ctx);
}

/* Costs print grouped by g and l when asked. */
static void test_print_by(void **state)
{
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *f = make(ctx,
		"m*n*o/(M*N) + m*n*N/(M*N) + g*o*n*(M-1)/(M*N) + g*m*n*(N-1)/(M*N) + 2*l", 0);
	const char *by[] = { "g", "l" };
	char *text = formula_to_string_by(f, FORMULA_TEXT, by, 2);
	char *latex = formula_to_string_by(f, FORMULA_LATEX, by, 2);
	char *plain = formula_to_string(f, FORMULA_TEXT);

	(void)state;
	assert_string_equal(text,
		"m*n*(N+o)/(M*N) + g*(m*n*(N-1) + n*o*(M-1))/(M*N) + 2*l");
	assert_string_equal(latex,
		"\\frac{mn(N+o)}{MN} + \\frac{g(mn(N-1) + no(M-1))}{MN} + 2l");
	assert_string_equal(plain,
		"(g*m*n*(N-1) + g*n*o*(M-1) + m*n*(N+o))/(M*N) + 2*l");
	free(text);
	free(latex);
	free(plain);
	formula_free(f);
	isl_ctx_free(ctx);
}

/* ------------------------------------------------------------------ runner */

/* The limit on distinct floor terms: two formulas of 600 floors each (their
 * divisors distinct) cannot be combined, and formula_pair_too_large says that
 * this is the reason; two of 500 can (added: a max of them would build
 * seconds of work for nothing). */
static char *floors_text(int first, int count)
{
	size_t cap = (size_t)count * 24 + 16, len = 0;
	char *t = malloc(cap);
	assert_non_null(t);
	for (int d = first; d < first + count; d++)
		len += (size_t)snprintf(t + len, cap - len, "%sfloor(n/%d)", d > first ? " + " : "", d);
	return t;
}

static void test_floor_limit(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	for (int big = 0; big < 2; big++) {
		int count = big ? 600 : 500;
		char *ta = floors_text(2, count), *tb = floors_text(2 + count, count);
		struct formula *a = make(ctx, ta, 0), *b = make(ctx, tb, 0);
		struct formula *m = big ? formula_max(a, b) : formula_add(a, b);
		assert_int_equal(formula_pair_too_large(a, b), big);
		if (big)
			assert_null(m);
		else
			assert_non_null(m);
		formula_free(m);
		formula_free(a);
		formula_free(b);
		free(ta);
		free(tb);
	}
	isl_ctx_free(ctx);
}

/* NULL in, NULL out: every operation given a NULL formula (a failure
 * upstream) returns NULL (or its failure value) and frees what it takes,
 * so that a caller passes failures on without a guard of its own. */
static void test_null_in_null_out(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	struct formula *x = formula_param("n");
	isl_set *ctxt = isl_set_universe(isl_space_params_alloc(ctx, 0));
	mpq_t q;
	mpq_init(q);
	mpq_set_si(q, 1, 2);
	assert_non_null(x);
	assert_null(formula_from_pw_qpolynomial(NULL));
	assert_null(formula_from_pw_qpolynomial_zero_outside(NULL));
	assert_null(formula_const_val(NULL));
	assert_null(formula_param(NULL));
	assert_null(formula_restrict(NULL, isl_set_copy(ctxt)));   /* the set freed */
	assert_null(formula_restrict(x, NULL));
	assert_null(formula_gist(NULL, ctxt));
	assert_null(formula_gist(x, NULL));
	assert_null(formula_prune(NULL, ctxt));
	assert_null(formula_sign_fold(NULL, ctxt, NULL, 0));
	assert_null(formula_on(NULL, ctxt));
	assert_null(formula_coalesce(NULL, ctxt));
	assert_null(formula_coalesce_apart(NULL, ctxt, NULL, 0));
	assert_null(formula_merge_same(NULL, ctxt));
	assert_null(formula_prune(x, NULL));
	assert_null(formula_sign_fold(x, NULL, NULL, 0));
	assert_null(formula_on(x, NULL));
	assert_null(formula_coalesce(x, NULL));
	assert_null(formula_coalesce_apart(x, NULL, NULL, 0));
	assert_null(formula_merge_same(x, NULL));
	struct formula *(*const bin[])(const struct formula *, const struct formula *) = {
		formula_join, formula_add, formula_sub, formula_mul, formula_max, formula_min};
	for (size_t k = 0; k < sizeof(bin) / sizeof(*bin); k++) {
		assert_null(bin[k](NULL, x));
		assert_null(bin[k](x, NULL));
		assert_null(bin[k](NULL, NULL));
	}
	assert_null(formula_neg(NULL));
	assert_null(formula_floor(NULL));
	assert_null(formula_pow(NULL, 2));
	assert_null(formula_scale(NULL, q));
	assert_null(formula_subst(NULL, "n", x));
	assert_null(formula_subst(x, "n", NULL));
	assert_null(formula_subst_where(NULL, "n", x, ctxt));
	assert_null(formula_subst_where(x, "n", NULL, ctxt));
	assert_null(formula_subst_where(x, "n", x, NULL));
	assert_null(formula_drop_bounded(NULL, ctxt));
	assert_null(formula_drop_bounded(x, NULL));
	assert_null(formula_copy(NULL));
	formula_free(NULL);
	assert_null(formula_get_ctx(NULL));
	assert_true(formula_n_pieces(NULL) < 0);
	assert_int_equal(formula_eval(NULL, NULL, NULL, 0, q), -1);
	assert_true(formula_equal(NULL, x) < 0);
	assert_int_equal(formula_proven_equal(x, NULL), 0);   /* not proven */
	int n = 7;
	assert_null(formula_params(NULL, &n));
	assert_true(formula_involves(NULL, "n") < 0);
	assert_null(formula_to_string(NULL, FORMULA_TEXT));
	assert_null(formula_to_string_by(NULL, FORMULA_EXPR, NULL, 0));
	assert_null(formula_to_latex(NULL, NULL, 0, 0));
	assert_null(formula_sign_text(NULL, "cost", "<", FORMULA_TEXT, NULL, 0, 0, NULL));
	assert_null(formula_parse_expr(NULL, NULL));
	assert_null(formula_from_expr(NULL));
	mpq_clear(q);
	isl_set_free(ctxt);
	formula_free(x);
	session_ctx_free(NULL, ctx);
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_eval_undefined),
		cmocka_unit_test(test_null_in_null_out),
		cmocka_unit_test(test_eval_division_by_zero),
		cmocka_unit_test(test_grammar_eval),
		cmocka_unit_test(test_grammar_function_names),
		cmocka_unit_test(test_grammar_errors),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_nonnegative_on),
		cmocka_unit_test(test_constant_with_denominator),
		cmocka_unit_test(test_algebra),
		cmocka_unit_test(test_subst),
		cmocka_unit_test(test_subst_quotient),
		cmocka_unit_test(test_subst_where),
		cmocka_unit_test(test_fold_residues),
		cmocka_unit_test(test_sum_powers),
		cmocka_unit_test(test_covers),
		cmocka_unit_test(test_merge_levels),
		cmocka_unit_test(test_drop_bounded),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_sign_fold),
		cmocka_unit_test(test_sign_text_nonneg),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_coalesce_apart),
		cmocka_unit_test(test_coalesce_sum_apart),
		cmocka_unit_test(test_merge_same),
		cmocka_unit_test(test_typical_first),
		cmocka_unit_test(test_max_dropped),
		cmocka_unit_test(test_print_by),
		cmocka_unit_test(test_floor_limit),
		cmocka_unit_test(test_sign_text),
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
	size_t ntests = nfixed + 2 * NCASES, k = 0;
	struct CMUnitTest *tests = calloc(ntests, sizeof(*tests));
	char **names = calloc(2 * NCASES, sizeof(*names));
	int i, r;

	for (i = 0; i < NCASES; i++) {
		char buf[128];
		snprintf(buf, sizeof(buf), "strings/%s", cases[i].name);
		names[2 * i] = strdup(buf);
		snprintf(buf, sizeof(buf), "values/%s", cases[i].name);
		names[2 * i + 1] = strdup(buf);
		tests[k].name = names[2 * i];
		tests[k].test_func = test_strings;
		tests[k++].initial_state = (void *)&cases[i];
		tests[k].name = names[2 * i + 1];
		tests[k].test_func = test_values;
		tests[k++].initial_state = (void *)&cases[i];
	}
	for (i = 0; i < (int)nfixed; i++)
		tests[k++] = fixed[i];
	r = _cmocka_run_group_tests("formula", tests, ntests, NULL, NULL);
	for (i = 0; i < 2 * NCASES; i++)
		free(names[i]);
	free(names);
	free(tests);
	return r;
}
