/* count_poly: polynomials of one integer variable; and count_compiled's
 * stretches on which a one-parameter count is one polynomial.
 *
 * The references are written here, independently: sums, the first positive
 * value and the sum of the largest are found by evaluating every integer of
 * the range; a stretch's polynomial is checked against ISL's own evaluation
 * (isl_pw_qpolynomial_eval) at every integer of the stretch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gmp.h>
#include <isl/ctx.h>
#include <isl/polynomial.h>

#include "analyzer/count/count_compiled.h"
#include "analyzer/count/count_poly.h"

/* A fixed sequence: the cases are the same on every run. */
static unsigned long rnd(unsigned long *s)
{
	*s = *s * 6364136223846793005ul + 1442695040888963407ul;
	return *s >> 33;
}

static void random_poly(unsigned long *s, struct count_poly *p)
{
	static const long dens[] = {1, 2, 3, 6};
	/* mostly low degrees, as counts have; up to the highest handled */
	p->deg = rnd(s) % 8 == 0 ? 5 + (int)(rnd(s) % (COUNT_POLY_MAXDEG - 4)) : (int)(rnd(s) % 5);
	for (int e = 0; e <= COUNT_POLY_MAXDEG; e++)
		mpq_set_ui(p->c[e], 0, 1);
	for (int e = 0; e <= p->deg; e++) {
		/* small coefficients, smaller for higher powers: values cross */
		long num = (long)(rnd(s) % 41) - 20;
		if (e >= 2)
			num /= 4;
		if (e >= 5)
			num = num % 2; /* values that still cross the others' */
		mpq_set_si(p->c[e], num, (unsigned long)dens[rnd(s) % 4]);
		mpq_canonicalize(p->c[e]);
	}
	while (p->deg > 0 && mpq_sgn(p->c[p->deg]) == 0)
		p->deg--;
}

/* The value by powers, not Horner's rule. */
static void value(const struct count_poly *p, long long x, mpq_t out)
{
	mpq_t t;
	mpz_t xe;
	mpq_init(t);
	mpz_init(xe);
	mpq_set_ui(out, 0, 1);
	for (int e = 0; e <= p->deg; e++) {
		mpz_set_si(xe, (long)x);
		mpz_pow_ui(xe, xe, (unsigned long)e);
		mpq_set_z(t, xe);
		mpq_mul(t, t, p->c[e]);
		mpq_add(out, out, t);
	}
	mpq_clear(t);
	mpz_clear(xe);
}

/* Sums, first positive values and sums of the largest against every
 * integer of the range. */
static void test_against_each_integer(void **state)
{
	(void)state;
	unsigned long s = 12345;
	enum { NP = 5 };
	struct count_poly p[NP];
	for (int i = 0; i < NP; i++)
		count_poly_init(&p[i]);
	mpq_t got, want, v, best;
	mpq_inits(got, want, v, best, NULL);
	int bad = 0;
	for (int c = 0; c < 600; c++) {
		int n = 1 + (int)(rnd(&s) % NP);
		for (int i = 0; i < n; i++)
			random_poly(&s, &p[i]);
		long long a = (long long)(rnd(&s) % 101) - 50;
		long long b = a + (long long)(rnd(&s) % 160) - 3;
		/* the sum of the first */
		mpq_set_ui(got, 0, 1);
		count_poly_add_sum(&p[0], a, b, got);
		mpq_set_ui(want, 0, 1);
		for (long long x = a; x <= b; x++) {
			value(&p[0], x, v);
			mpq_add(want, want, v);
		}
		bad += !mpq_equal(got, want);
		/* where it first turns positive */
		long long first = b + 1, x1;
		for (long long x = a; x <= b && first > b; x++) {
			value(&p[0], x, v);
			if (mpq_sgn(v) > 0)
				first = x;
		}
		assert_int_equal(count_poly_first_positive(&p[0], a, b, &x1), 0);
		if (x1 != first && bad++ < 3)
			fprintf(stderr, "case %d: first positive %lld, want %lld\n", c, x1, first);
		/* the sum of the largest */
		mpq_set_ui(got, 0, 1);
		assert_int_equal(count_poly_add_max_sum(p, n, a, b, got), 0);
		mpq_set_ui(want, 0, 1);
		for (long long x = a; x <= b; x++) {
			for (int i = 0; i < n; i++) {
				value(&p[i], x, v);
				if (i == 0 || mpq_cmp(v, best) > 0)
					mpq_set(best, v);
			}
			mpq_add(want, want, best);
		}
		if (!mpq_equal(got, want) && bad++ < 3)
			gmp_fprintf(stderr, "case %d: sum of the largest %Qd, want %Qd\n", c, got, want);
	}
	mpq_clears(got, want, v, best, NULL);
	for (int i = 0; i < NP; i++)
		count_poly_clear(&p[i]);
	assert_int_equal(bad, 0);
}

/* A range no loop of evaluations could cover: sum x^2 over 0 .. 10^12 and
 * the envelope of x and 10^12 - x, by their closed forms. */
static void test_long_ranges(void **state)
{
	(void)state;
	struct count_poly p[2];
	count_poly_init(&p[0]);
	count_poly_init(&p[1]);
	const long long n = 1000000000000ll;
	p[0].deg = 2;
	mpq_set_ui(p[0].c[2], 1, 1);
	mpq_t got;
	mpz_t want, t;
	mpq_init(got);
	mpz_inits(want, t, NULL);
	count_poly_add_sum(&p[0], 0, n, got);
	/* n (n + 1) (2n + 1) / 6 */
	mpz_set_si(want, n);
	mpz_mul_si(want, want, n + 1);
	mpz_mul_si(want, want, 2 * n + 1);
	mpz_divexact_ui(want, want, 6);
	assert_int_equal(mpz_cmp(mpq_numref(got), want), 0);
	assert_int_equal(mpz_cmp_ui(mpq_denref(got), 1), 0);
	/* max(x, n - x) over 0 .. n: 2 * sum_{x > n/2} x + n/2 (n even) */
	p[0].deg = 1;
	mpq_set_ui(p[0].c[2], 0, 1);
	mpq_set_ui(p[0].c[1], 1, 1);
	p[1].deg = 1;
	mpq_set_si(p[1].c[1], -1, 1);
	mpz_set_si(t, n);
	mpq_set_z(p[1].c[0], t);
	mpq_set_ui(got, 0, 1);
	assert_int_equal(count_poly_add_max_sum(p, 2, 0, n, got), 0);
	/* sum_{x = n/2 + 1}^{n} x = (n/2) (3n/2 + 1) / 2 */
	mpz_set_si(want, n / 2);
	mpz_mul_si(want, want, 3 * n / 2 + 1);
	mpz_divexact_ui(want, want, 2);
	mpz_mul_ui(want, want, 2);
	mpz_add_ui(want, want, (unsigned long)(n / 2));
	assert_int_equal(mpz_cmp(mpq_numref(got), want), 0);
	mpq_clear(got);
	mpz_clears(want, t, NULL);
	count_poly_clear(&p[0]);
	count_poly_clear(&p[1]);
}

/* Functions of one parameter k as a loop's sums see them: floors that step
 * often or rarely, pieces, existential domains, equalities. */
struct stretch_case {
	const char *name;
	const char *f;
	long long lo, hi;
	int most;           /* the most stretches allowed (0: any) */
};

static const struct stretch_case stretches[] = {
	/* LU's blocks of 512 rows over 8: steps at the block ends only */
	{"stretch_lu_blocks", "[k] -> { (512 - (k - 512*floor(k/512)) - 1)*(8 - floor(k/512) - 1) + "
	 "2*k : 0 <= k <= 4094 }", 0, 4094, 16},
	{"stretch_pieces", "[k] -> { k^2 - 7*k + 3 : k <= 40; 1/2*k*floor(k/7) : k > 40 }", -30, 200,
	 0},
	{"stretch_nested_floors", "[k] -> { floor((k + 2*floor((k - 5)/4) - 3)/4)*k - floor(k/3)^2 }",
	 -40, 120, 0},
	{"stretch_existential", "[k] -> { k^2 : exists e : k = 3e + 1; 2k : exists e : k = 3e }", -20,
	 60, 0},
	{"stretch_equalities", "[k] -> { 5 : k = 17; k^2 : 3k = 51 + 3*floor(k/40)*3; "
	 "k : 3k >= 50 and k <= 90 and k != 17 and k != 20 }", 0, 100, 0},
	{"stretch_falling_floor", "[k] -> { 1/3*k^3 - floor((100 - k)/9)*k : 0 <= k < 100 }", 0, 99,
	 0},
};

static void test_stretch(void **state)
{
	const struct stretch_case *sc = *state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_read_from_str(ctx, sc->f);
	assert_non_null(f);
	struct count_compiled *c = count_compiled_new(f, NULL, 0);
	assert_non_null(c);
	struct count_poly p;
	count_poly_init(&p);
	mpq_t v, w;
	mpq_inits(v, w, NULL);
	int bad = 0, n = 0;
	for (long long x0 = sc->lo; x0 <= sc->hi && bad == 0; n++) {
		long long next;
		assert_int_equal(count_compiled_poly_at(c, x0, sc->hi, &next, p.c, COUNT_POLY_MAXDEG,
							&p.deg), 0);
		assert_true(next > x0 && next <= sc->hi + 1);
		for (long long x = x0; x < next; x++) {
			count_poly_eval(&p, x, v);
			assert_int_equal(count_isl_eval(f, &x, w), 0);
			if (!mpq_equal(v, w) && bad++ < 3)
				gmp_fprintf(stderr, "%s at %lld (stretch from %lld): %Qd, ISL %Qd\n",
					    sc->f, x, x0, v, w);
		}
		x0 = next;
	}
	if (sc->most)
		assert_true(n <= sc->most);
	mpq_clears(v, w, NULL);
	count_poly_clear(&p);
	count_compiled_free(c);
	isl_pw_qpolynomial_free(f);
	isl_ctx_free(ctx);
	assert_int_equal(bad, 0);
}

/* What the stretches cannot give: -1, never a wrong polynomial. */
static void test_stretch_refusals(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	struct count_poly p;
	count_poly_init(&p);
	long long next;
	/* a degree past the one asked for */
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_read_from_str(ctx, "[k] -> { k^3 + k }");
	struct count_compiled *c = count_compiled_new(f, NULL, 0);
	assert_non_null(c);
	assert_int_equal(count_compiled_poly_at(c, 0, 10, &next, p.c, 2, &p.deg), -1);
	assert_int_equal(count_compiled_poly_at(c, 0, 10, &next, p.c, 3, &p.deg), 0);
	assert_int_equal(p.deg, 3);
	count_compiled_free(c);
	isl_pw_qpolynomial_free(f);
	/* two parameters */
	f = isl_pw_qpolynomial_read_from_str(ctx, "[n, k] -> { n*k : k >= 0 }");
	c = count_compiled_new(f, NULL, 0);
	assert_non_null(c);
	assert_int_equal(count_compiled_poly_at(c, 0, 10, &next, p.c, 2, &p.deg), -1);
	count_compiled_free(c);
	isl_pw_qpolynomial_free(f);
	count_poly_clear(&p);
	isl_ctx_free(ctx);
}

int main(void)
{
	enum { N = sizeof(stretches) / sizeof(stretches[0]) };
	struct CMUnitTest tests[N + 3];
	tests[0] = (struct CMUnitTest)cmocka_unit_test(test_against_each_integer);
	tests[1] = (struct CMUnitTest)cmocka_unit_test(test_long_ranges);
	tests[2] = (struct CMUnitTest)cmocka_unit_test(test_stretch_refusals);
	for (int k = 0; k < N; k++)
		tests[3 + k] = (struct CMUnitTest){stretches[k].name, test_stretch, NULL, NULL,
						   (void *)&stretches[k]};
	return cmocka_run_group_tests_name("count_poly", tests, NULL, NULL);
}
