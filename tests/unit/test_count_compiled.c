/* count_compiled: counts compiled for evaluation at many points.
 *
 * Each entry is a piecewise quasi-polynomial written as ISL reads it (nested
 * floors, existentially quantified domains, unions, rational coefficients,
 * several parameters) or a count the engine made; it must compile, and its
 * compiled value must equal ISL's own evaluation (isl_pw_qpolynomial_eval)
 * at every point of a box, outside the pieces included (where both are 0).
 * The reference is ISL, not anything the compiled form computed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gmp.h>
#include <isl/ctx.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/count/count.h"
#include "analyzer/count/count_compiled.h"
#include "analyzer/util/session.h"
#include "analyzer/util/val.h"

/* Entries leave out the set when they give a function. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

struct entry {
	const char *name;
	const char *f;      /* a function, or */
	const char *set;    /* a set the engine counts first */
};

static const struct entry table[] = {
	{"polynomial", "[n] -> { 1/2*n^2 - 3/2*n + 7 : n >= 2 }"},
	{"two_params", "[n, m] -> { n*m - 4*m + 1/3*n^3 - 1/3*n : n >= 0 and m <= 2n }"},
	{"floors", "[n, k] -> { floor(n/4)*floor((k + 3)/8) - floor((n - k)/3)^2 }"},
	/* ISL reads floor((floor(k/3) + n)/2) as floor((k + 3n)/6); this one
	 * stays nested */
	{"flattened_floor", "[n, k] -> { floor((floor(k/3) + n)/2)*k + floor(k/5)^2 : n >= k }"},
	{"nested_floor", "[n, k] -> { floor((k + 2*floor((n + k - 5)/4) - 3)/4)*n - "
			 "floor((floor(n/3) + 2*floor((k - n)/5))/7)^2 }"},
	{"existential_domain", "[k] -> { k^2 : exists e : k = 3e + 1; 2k : exists e : k = 3e }"},
	{"union_domain", "[n, k] -> { n - k : k <= 0 or k >= n + 3 }"},
	{"negative_values", "[n] -> { -5*n + floor(-n/7) : n <= 100 }"},
	{"constraint_on_floor", "[n, k] -> { n*k : 4*floor(n/4) >= n - 2 and k >= floor(n/3) }"},
	{"three_params", "[a, b, c] -> { a*b*c - floor((a + b + c)/3)*a : a >= b and c >= 0 }"},
	/* what the engine gives: a block-cyclic trailing product (rows of blocks
	 * of 2 over 2, columns over 4) beyond a pivot k, and a cyclic one */
	{"engine_block_cyclic", NULL,
	 "[n, k] -> { [i, j] : k < i < n and k < j < n and i mod 4 >= 2 and j mod 8 < 2 }"},
	{"engine_cyclic_triangle", NULL, "[n, k] -> { [i, j] : k < i < n and 0 <= j <= i and "
					 "i mod 3 = 1 }"},
};

/* Every point of [-20, 60] in each of NP parameters, every 7th in 3-D. */
static int box(int np, long long pts[][3], int cap)
{
	int n = 0, step = np >= 3 ? 7 : 1;
	for (long long a = -20; a <= 60; a += step)
		for (long long b = np >= 2 ? -20 : 0; b <= (np >= 2 ? 60 : 0); b += step)
			for (long long c = np >= 3 ? -20 : 0; c <= (np >= 3 ? 60 : 0); c += step) {
				if (n == cap)
					return n;
				pts[n][0] = a;
				pts[n][1] = b;
				pts[n][2] = c;
				n++;
			}
	return n;
}

static bool isl_at(__isl_keep isl_pw_qpolynomial *f, int np, const long long *x, mpq_t out)
{
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(f);
	isl_point *pt = isl_point_zero(isl_pw_qpolynomial_get_domain_space(f));
	for (int p = 0; p < np; p++)
		pt = isl_point_set_coordinate_val(pt, isl_dim_param, p, val_from_ll(ctx, x[p]));
	return val_to_mpq(isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(f), pt), out);
}

static long long pts[8000][3];

static void test_entry(void **state)
{
	const struct entry *e = *state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_pw_qpolynomial *f = NULL;
	if (e->f) {
		f = isl_pw_qpolynomial_read_from_str(ctx, e->f);
	} else {
		struct count_engine eng;
		count_engine_init(&eng, ctx);
		eng.max_pieces = 1000;
		isl_set *set = isl_set_read_from_str(ctx, e->set);
		char *why = NULL;
		enum count_status st = count_points(&eng, set, &f, &why);
		if (st != COUNT_EXACT)
			print_error("%s: %s\n", e->name, why ? why : "?");
		free(why);
		isl_set_free(set);
	}
	assert_non_null(f);
	int np = (int)isl_pw_qpolynomial_dim(f, isl_dim_param);
	int n = box(np, pts, 8000);
	/* probes: three points of the box */
	long long probe[9] = {0};
	for (int k = 0; k < 3; k++)
		for (int p = 0; p < np; p++)
			probe[k * np + p] = pts[(k * n) / 3][p];
	struct count_compiled *c = count_compiled_new(f, probe, 3);
	if (!c)
		print_error("%s: not compiled\n", e->name);
	assert_non_null(c);
	mpq_t a, b;
	mpq_init(a);
	mpq_init(b);
	int bad = 0, checked = 0;
	for (int k = 0; k < n; k++) {
		assert_true(isl_at(f, np, pts[k], b));
		if (count_compiled_eval(c, pts[k], a) < 0)
			continue;
		checked++;
		if (!mpq_equal(a, b) && bad++ < 3)
			gmp_fprintf(stderr, "%s at (%lld, %lld, %lld): compiled %Qd, ISL %Qd\n", e->name,
				    pts[k][0], pts[k][1], pts[k][2], a, b);
	}
	mpq_clear(a);
	mpq_clear(b);
	count_compiled_free(c);
	isl_pw_qpolynomial_free(f);
	isl_ctx_free(ctx);
	assert_int_equal(bad, 0);
	assert_int_equal(checked, n); /* nothing in the box overflows */
}

/* A value past 64 bits is no value: the caller asks ISL. */
static void test_overflow(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_read_from_str(ctx, "[n] -> { n^5 : n >= 0 }");
	long long probe[1] = {3};
	struct count_compiled *c = count_compiled_new(f, probe, 1);
	assert_non_null(c);
	mpq_t a;
	mpq_init(a);
	long long x = 1000000;
	assert_int_equal(count_compiled_eval(c, &x, a), -1);
	x = 1000;
	assert_int_equal(count_compiled_eval(c, &x, a), 0);
	assert_int_equal(mpz_cmp_ui(mpq_numref(a), 1000000000000000ul), 0);
	mpq_clear(a);
	count_compiled_free(c);
	isl_pw_qpolynomial_free(f);
	isl_ctx_free(ctx);
}

/* A function of set dimensions is not compiled. */
static void test_set_dimensions(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_read_from_str(ctx, "{ [i] -> i : i >= 0 }");
	assert_null(count_compiled_new(f, NULL, 0));
	isl_pw_qpolynomial_free(f);
	isl_ctx_free(ctx);
}

int main(void)
{
	enum { N = sizeof(table) / sizeof(table[0]) };
	struct CMUnitTest tests[N + 2];
	for (int k = 0; k < N; k++)
		tests[k] = (struct CMUnitTest){table[k].name, test_entry, NULL, NULL,
					       (void *)&table[k]};
	tests[N] = (struct CMUnitTest)cmocka_unit_test(test_overflow);
	tests[N + 1] = (struct CMUnitTest)cmocka_unit_test(test_set_dimensions);
	return cmocka_run_group_tests_name("count_compiled", tests, NULL, NULL);
}
