/* analyzer/util/coalesce.h: coalescing keeps the points.  Each case is a set,
 * map or piecewise quasi-polynomial that ISL 0.25's own coalescing made larger
 * (found by tests/stress); the wrapper's result must be equal to its argument.
 * Whether ISL still gets them wrong is not asserted (a fixed ISL must not fail
 * the suite), only printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/util/coalesce.h"

/* The reads A[0], A[1] and A[k], k even, of process 1 of 2 (tests/brute/specs/
 * parity_union.bsp): ISL fuses them into every o with 2*floor(o/2) <= n. */
static const char *reads =
	"[n] -> { [q0] -> [o0] : (q0 = 1 and n > 0 and o0 >= 0 and o0 <= 1) or "
	"(exists (e0 = floor((o0)/2): q0 = 1 and 2e0 = o0 and n > 0 and o0 >= 0 and o0 <= n)) }";

/* A formula's condition on a concrete grid of 3 (stress seed 8): n is 5 or 7,
 * and ISL's coalescing adds n = 8. */
static const char *cond =
	"[n, m] -> { : (m) mod 3 = 0 and 5 <= n <= 10 and m >= 6 and "
	"3*floor((-1 + n)/3) >= -2 + n and 3*floor((n)/3) < n and (n <= 6 or "
	"(m >= n and 6*floor((2 + n)/6) <= 1 + n and 3*floor((1 + n)/3) <= n)) }";

static void note_isl(const char *what, isl_bool same)
{
	if (same == isl_bool_false)
		printf("# ISL's own coalescing of %s is still not exact\n", what);
}

static void test_map_keeps_points(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_map *in = isl_map_read_from_str(ctx, reads);
	assert_non_null(in);
	isl_map *raw = isl_map_coalesce(isl_map_copy(in));
	note_isl("the reads", isl_map_is_equal(raw, in));
	isl_map_free(raw);
	isl_map *out = coalesce_map(isl_map_copy(in));
	assert_non_null(out);
	assert_int_equal(isl_map_is_equal(out, in), isl_bool_true);
	/* process 1 does not read A[3] at n = 10 */
	isl_map *a3 = isl_map_read_from_str(ctx, "[n] -> { [1] -> [3] : n = 10 }");
	assert_int_equal(isl_map_is_disjoint(out, a3), isl_bool_true);
	isl_map_free(a3);
	isl_map_free(out);
	isl_map_free(in);
	isl_ctx_free(ctx);
}

static void test_set_keeps_points(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_set *in = isl_set_read_from_str(ctx, cond);
	assert_non_null(in);
	isl_set *raw = isl_set_coalesce(isl_set_copy(in));
	note_isl("the condition", isl_set_is_equal(raw, in));
	isl_set_free(raw);
	isl_set *out = coalesce_set(isl_set_copy(in));
	assert_non_null(out);
	assert_int_equal(isl_set_is_equal(out, in), isl_bool_true);
	isl_set_free(out);
	isl_set_free(in);
	/* a set that coalesces exactly is coalesced: two pieces become one */
	in = isl_set_read_from_str(ctx, "[n] -> { [i] : 0 <= i < n; [i] : i = n and n >= 0 }");
	out = coalesce_set(isl_set_copy(in));
	assert_int_equal(isl_set_n_basic_set(out), 1);
	assert_int_equal(isl_set_is_equal(out, in), isl_bool_true);
	isl_set_free(out);
	isl_set_free(in);
	isl_ctx_free(ctx);
}

/* 1 on the condition above, 2 at n = 8 (outside it): coalesced by ISL, the
 * piece of 1 grows over n = 8. */
static __isl_give isl_pw_qpolynomial *one_two(isl_ctx *ctx)
{
	isl_set *one = isl_set_read_from_str(ctx, cond);
	isl_set *two = isl_set_read_from_str(ctx, "[n, m] -> { : n = 8 and m >= 8 }");
	assert_int_equal(isl_set_is_disjoint(one, two), isl_bool_true);
	isl_qpolynomial *v1 = isl_qpolynomial_val_on_domain(isl_set_get_space(one), isl_val_one(ctx));
	isl_qpolynomial *v2 =
		isl_qpolynomial_val_on_domain(isl_set_get_space(two), isl_val_int_from_si(ctx, 2));
	return isl_pw_qpolynomial_add_disjoint(isl_pw_qpolynomial_alloc(one, v1),
					       isl_pw_qpolynomial_alloc(two, v2));
}

/* PW (kept) at parameters N and M. */
static long value_at(__isl_keep isl_pw_qpolynomial *pw, int n, int m)
{
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(pw);
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_move_dims(isl_pw_qpolynomial_copy(pw),
							     isl_dim_in, 0, isl_dim_param, 0, 2);
	isl_point *p = isl_point_zero(isl_pw_qpolynomial_get_domain_space(f));
	p = isl_point_set_coordinate_val(p, isl_dim_set, 0, isl_val_int_from_si(ctx, n));
	p = isl_point_set_coordinate_val(p, isl_dim_set, 1, isl_val_int_from_si(ctx, m));
	isl_val *v = isl_pw_qpolynomial_eval(f, p);
	assert_non_null(v);
	long r = isl_val_get_num_si(v);
	isl_val_free(v);
	return r;
}

static void test_pw_keeps_values(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	isl_pw_qpolynomial *want = one_two(ctx);
	/* a copy is coalesced: ISL would change WANT too */
	isl_pw_qpolynomial *out = coalesce_pw_qpolynomial(isl_pw_qpolynomial_copy(want));
	isl_pw_qpolynomial *in = one_two(ctx);
	assert_non_null(out);
	for (int n = 0; n <= 12; n++)
		for (int m = 0; m <= 14; m++) {
			long v = value_at(in, n, m);
			assert_int_equal(value_at(out, n, m), v);
			assert_int_equal(value_at(want, n, m), v);
		}
	assert_int_equal(value_at(out, 8, 9), 2);
	isl_pw_qpolynomial_free(in);
	isl_pw_qpolynomial_free(out);
	isl_pw_qpolynomial_free(want);
	isl_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_keeps_points),
		cmocka_unit_test(test_set_keeps_points),
		cmocka_unit_test(test_pw_keeps_values),
	};
	return cmocka_run_group_tests_name("coalesce", tests, NULL, NULL);
}
