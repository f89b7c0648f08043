/* count_max_values: the exact maximum over the processes with every value known.
 *
 * Each entry is a function of the coordinates (an ISL piecewise quasi-polynomial
 * on parameters only), a box of coordinates and the value expected, written by
 * hand.  The expectation is checked too, by evaluating the function at every
 * point of the box (absent pieces count 0), so that a wrong table entry fails
 * as surely as a wrong maximum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <isl/ctx.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/count/count.h"
#include "analyzer/util/session.h"

struct entry {
	const char *name;
	const char *f;
	const char *box;
	long max_points;
	const char *expect;   /* NULL: must be refused */
};

static const struct entry table[] = {
	/* block: ends have one neighbour, the interior two */
	{"block_stencil", "[q] -> { 1 : q = 0 or q = 15; 2 : 0 < q < 15 }",
	 "[q] -> { : 0 <= q < 16 }", 0, "2"},
	/* cyclic remainders: floors of the coordinate, affine in (q, floor) */
	{"cyclic_floors", "[q] -> { 124 - 2*floor((9 + q)/16) + 2*floor((15 + q)/16) : 0 <= q < 16 }",
	 "[q] -> { : 0 <= q < 16 }", 0, "126"},
	/* a rational coefficient: ISL maximizes 12 - q, the result is divided */
	{"rational", "[q] -> { 4 - 1/3 * q : q = 0 or q = 3 }", "[q] -> { : 0 <= q < 4 }", 0, "4"},
	/* no piece reaches a point: the count there is 0, a maximum of 0 */
	{"empty", "[q] -> { 5 : q > 100 }", "[q] -> { : 0 <= q < 8 }", 0, "0"},
	/* two coordinates, 65536 processes: one integer optimization */
	{"big_grid", "[q0, q1] -> { 3*q0 + q1 : 0 <= q0 < 256 and 0 <= q1 < 256 }",
	 "[q0, q1] -> { : 0 <= q0 < 256 and 0 <= q1 < 256 }", 0, "1020"},
	/* not affine: every point of the piece, within the limit */
	{"quadratic", "[q] -> { q*(10 - q) : 0 <= q < 11 }", "[q] -> { : 0 <= q < 11 }", 11, "25"},
	/* not affine and more points than allowed: refused, never bounded */
	{"quadratic_refused", "[q] -> { q*(10 - q) : 0 <= q < 11 }", "[q] -> { : 0 <= q < 11 }", 10,
	 NULL},
	/* floors of both coordinates multiplied (stencil2d, block x block, on
	 * 256 x 256): affine on each cell of fixed floors, no point enumerated */
	{"floor_products",
	 "[q0, q1] -> { 3060 - 1020*floor((1 + q0)/256) + 1020*floor((255 + q0)/256)"
	 " + (-12 + 4*floor((1 + q0)/256) - 4*floor((255 + q0)/256))*floor((1 + q1)/256)"
	 " + (12 - 4*floor((1 + q0)/256) + 4*floor((255 + q0)/256))*floor((255 + q1)/256)"
	 " : 0 <= q0 <= 255 and 0 <= q1 <= 255 }",
	 "[q0, q1] -> { : 0 <= q0 < 256 and 0 <= q1 < 256 }", 1, "4096"},
	/* a coordinate times a floor of the other: affine once the floor is fixed */
	{"coord_times_floor", "[q0, q1] -> { q0*floor(q1/4) : 0 <= q0 < 8 and 0 <= q1 < 16 }",
	 "[q0, q1] -> { : 0 <= q0 < 8 and 0 <= q1 < 16 }", 1, "21"},
	/* a floor squared, with a negative coefficient */
	{"floor_squared", "[q] -> { -floor(q/3)*floor(q/3) + 2*q : 0 <= q < 9 }",
	 "[q] -> { : 0 <= q < 9 }", 1, "12"},
	/* a floor of a floor */
	{"nested_floor", "[q] -> { floor((q + floor(q/2))/3)*floor(q/5) - q : 0 <= q < 21 }",
	 "[q] -> { : 0 <= q < 21 }", 1, "20"},
	/* still quadratic once the floor is fixed: each cell's points, within the
	 * limit (96 points in all) */
	{"cell_enumerated", "[q0, q1] -> { q0*q0*floor(q1/8) - q1 : 0 <= q0 < 6 and 0 <= q1 < 16 }",
	 "[q0, q1] -> { : 0 <= q0 < 6 and 0 <= q1 < 16 }", 96, "17"},
	{"cell_enumerated_refused",
	 "[q0, q1] -> { q0*q0*floor(q1/8) - q1 : 0 <= q0 < 6 and 0 <= q1 < 16 }",
	 "[q0, q1] -> { : 0 <= q0 < 6 and 0 <= q1 < 16 }", 95, NULL},
	/* huge values stay exact */
	{"huge", "[q] -> { 1099511627776*1099511627776 - q : 0 <= q < 4 }",
	 "[q] -> { : 0 <= q < 4 }", 0, "1208925819614629174706176"},
};

struct brute {
	isl_pw_qpolynomial *f;
	isl_val *best;
};

static isl_stat brute_point(__isl_take isl_point *pt, void *user)
{
	struct brute *b = user;
	/* the box's point, as a point of the function's parameter space */
	isl_set *at = isl_set_from_point(pt);
	isl_size n = isl_set_dim(at, isl_dim_set);
	at = isl_set_params(isl_set_move_dims(at, isl_dim_param, 0, isl_dim_set, 0, (unsigned)n));
	isl_pw_qpolynomial *g = isl_pw_qpolynomial_intersect_domain(isl_pw_qpolynomial_copy(b->f),
								    isl_set_copy(at));
	isl_point *p = isl_set_sample_point(at);
	isl_val *v = isl_pw_qpolynomial_eval(g, p);
	if (!v)
		return isl_stat_error;
	if (isl_val_is_nan(v)) /* outside every piece: 0 */
		v = isl_val_set_si(v, 0);
	if (isl_val_gt(v, b->best)) {
		isl_val_free(b->best);
		b->best = v;
	} else {
		isl_val_free(v);
	}
	return isl_stat_ok;
}

static void check_entry(void **state)
{
	const struct entry *e = *state;
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	isl_pw_qpolynomial *f = isl_pw_qpolynomial_read_from_str(ctx, e->f);
	isl_set *box = isl_set_read_from_str(ctx, e->box);
	assert_non_null(f);
	assert_non_null(box);
	long limit = e->max_points ? e->max_points : 65536;
	isl_val *v = NULL;
	char *reason = NULL;
	enum count_status st = count_max_values(&eng, f, box, limit, &v, &reason);
	if (!e->expect) {
		assert_int_equal(st, COUNT_REFUSED);
		assert_null(v);
		assert_non_null(reason);
	} else {
		if (st != COUNT_EXACT)
			fail_msg("%s: %s", e->name, reason ? reason : "?");
		isl_val *want = isl_val_read_from_str(ctx, e->expect);
		assert_true(isl_val_eq(v, want));
		/* the expectation itself, by enumeration of the box */
		struct brute b = {f, isl_val_zero(ctx)};
		isl_set *points = isl_set_move_dims(isl_set_copy(box), isl_dim_set, 0, isl_dim_param, 0,
						    (unsigned)isl_set_dim(box, isl_dim_param));
		assert_int_equal(isl_set_foreach_point(points, brute_point, &b), isl_stat_ok);
		isl_set_free(points);
		if (!isl_val_eq(b.best, want))
			fail_msg("%s: enumeration gives %s", e->name, isl_val_to_str(b.best));
		isl_val_free(b.best);
		isl_val_free(want);
	}
	free(reason);
	isl_val_free(v);
	isl_set_free(box);
	isl_pw_qpolynomial_free(f);
	isl_ctx_free(ctx);
}

int main(void)
{
	enum { N = sizeof(table) / sizeof(table[0]) };
	struct CMUnitTest tests[N];
	for (int i = 0; i < N; i++)
		tests[i] = (struct CMUnitTest){table[i].name, check_entry, NULL, NULL,
					       (void *)&table[i]};
	return cmocka_run_group_tests_name("count_max_values", tests, NULL, NULL);
}
