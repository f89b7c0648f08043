/* Decisions for every machine (analyzer/decide/pareto.h): dominance, classes
 * of equal rows, and the regions of (g, l) where each Pareto row is the best,
 * against cases worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analyzer/decide/pareto.h"

/* N rows of costs A + B*g + C*L, numerators over D (1 for integers). */
struct rows {
	int n;
	mpq_t a[8], b[8], c[8];
};

static void rows_set(struct rows *r, int n, const long abc[][3], long d)
{
	r->n = n;
	for (int i = 0; i < n; i++) {
		mpq_inits(r->a[i], r->b[i], r->c[i], NULL);
		mpq_set_si(r->a[i], abc[i][0], (unsigned long)d);
		mpq_set_si(r->b[i], abc[i][1], 1);
		mpq_set_si(r->c[i], abc[i][2], 1);
		mpq_canonicalize(r->a[i]);
	}
}

static void rows_clear(struct rows *r)
{
	for (int i = 0; i < r->n; i++)
		mpq_clears(r->a[i], r->b[i], r->c[i], NULL);
}

static void assert_q(mpq_srcptr q, long num, long den)
{
	mpq_t w;
	mpq_init(w);
	mpq_set_si(w, num, (unsigned long)den);
	mpq_canonicalize(w);
	if (!mpq_equal(q, w))
		fail_msg("%s, expected %ld/%ld", mpq_get_str(NULL, 10, q), num, den);
	mpq_clear(w);
}

static void test_one_row_beats_every_other(void **state)
{
	(void)state;
	struct rows r;
	/* row 0 no worse than 1 and 2 anywhere; 3 equals 0 */
	const long abc[][3] = {{10, 1, 1}, {12, 2, 1}, {10, 3, 1}, {10, 1, 1}};
	rows_set(&r, 4, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_true(p.one_best);
	assert_int_equal(p.nregions, 1);
	assert_int_equal(p.regions[0].cls, 0);
	assert_false(p.regions[0].empty);
	assert_int_equal(p.regions[0].ncons, 0);   /* the whole quadrant */
	assert_int_equal(p.cls[3], 0);
	assert_int_equal(p.dominated_by[0], -1);
	assert_int_equal(p.dominated_by[3], -1);
	assert_int_equal(p.dominated_by[1], 0);
	assert_int_equal(p.dominated_by[2], 0);
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_intervals_of_g(void **state)
{
	(void)state;
	struct rows r;
	/* 10g, 10 + 5g, 30: best on [0, 2], [2, 4], [4, oo); the fourth,
	 * 40 + 5g, is dominated by the second */
	const long abc[][3] = {{30, 0, 2}, {10, 5, 2}, {0, 10, 2}, {40, 5, 2}};
	rows_set(&r, 4, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_false(p.one_best);
	assert_true(p.g_only);
	assert_int_equal(p.nregions, 3);
	assert_int_equal(p.dominated_by[3], 1);
	int want[3] = {2, 1, 0};
	long lo[3] = {0, 2, 4}, hi[3] = {2, 4, -1};
	for (int k = 0; k < 3; k++) {
		const struct pareto_region *reg = &p.regions[k];
		assert_int_equal(reg->cls, want[k]);
		assert_false(reg->empty);
		assert_true(reg->g_only);
		assert_q(reg->lo, lo[k], 1);
		if (hi[k] < 0)
			assert_true(reg->unbounded);
		else
			assert_q(reg->hi, hi[k], 1);
	}
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_a_row_best_nowhere(void **state)
{
	(void)state;
	struct rows r;
	/* 10g, 20 + 5g, 30: the middle one is dominated by neither, but at
	 * g = 3 the others both cost 30 and it 35: best nowhere */
	const long abc[][3] = {{0, 10, 1}, {20, 5, 1}, {30, 0, 1}};
	rows_set(&r, 3, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_int_equal(p.nregions, 3);
	assert_int_equal(p.dominated_by[1], -1);
	assert_int_equal(p.regions[0].cls, 0);
	assert_q(p.regions[0].hi, 3, 1);
	assert_int_equal(p.regions[1].cls, 2);
	assert_q(p.regions[1].lo, 3, 1);
	assert_true(p.regions[2].empty);
	assert_false(p.regions[2].touches);   /* 35 > 30 at g = 3: never */
	assert_int_equal(p.regions[2].cls, 1);
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_fractions(void **state)
{
	(void)state;
	struct rows r;
	/* 100/3 + 7g and 50 + 2g meet at g = (50 - 100/3) / 5 = 10/3 */
	const long abc[][3] = {{100, 7, 1}, {150, 2, 1}};
	rows_set(&r, 2, abc, 3);
	mpq_set_si(r.a[1], 50, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_int_equal(p.regions[0].cls, 0);
	assert_q(p.regions[0].hi, 10, 3);
	assert_int_equal(p.regions[1].cls, 1);
	assert_q(p.regions[1].lo, 10, 3);
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_supersteps_bring_l_in(void **state)
{
	(void)state;
	struct rows r;
	/* A = 100 + 10g + l, B = 50 + 10g + 3l: B is cheaper while 2l < 50 */
	const long abc[][3] = {{100, 10, 1}, {50, 10, 3}};
	rows_set(&r, 2, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_false(p.g_only);
	assert_int_equal(p.nregions, 2);
	for (int k = 0; k < 2; k++) {
		const struct pareto_region *reg = &p.regions[k];
		assert_false(reg->empty);
		assert_false(reg->g_only);
		assert_int_equal(reg->ncons, 1);
		assert_q(reg->cons[0].g, 0, 1);
		/* A: -l <= -25 (l >= 25); B: l <= 25 */
		assert_q(reg->cons[0].l, reg->cls == 0 ? -1 : 1, 1);
		assert_q(reg->cons[0].rhs, reg->cls == 0 ? -25 : 25, 1);
	}
	/* B starts at l = 0 (the least l at g = 0), A at l = 25 */
	assert_int_equal(p.regions[0].cls, 1);
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_a_wedge(void **state)
{
	(void)state;
	struct rows r;
	/* A = 10g + 10l, B = 30 + 5g + 5l, C = 60: A where g + l <= 6, C where
	 * g + l >= 6: B (at g + l = 6 costs 60, like both) is best nowhere */
	const long abc[][3] = {{0, 10, 10}, {30, 5, 5}, {60, 0, 0}};
	rows_set(&r, 3, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_int_equal(p.nregions, 3);
	assert_int_equal(p.regions[0].cls, 0);
	/* B's and C's boundaries are one line, kept once: k*(g + l) <= 6*k */
	assert_int_equal(p.regions[0].ncons, 1);
	const struct pareto_cons *c = &p.regions[0].cons[0];
	assert_true(mpq_sgn(c->g) > 0);
	assert_true(mpq_equal(c->g, c->l));
	mpq_t six;
	mpq_init(six);
	mpq_div(six, c->rhs, c->g);
	assert_q(six, 6, 1);
	mpq_clear(six);
	assert_int_equal(p.regions[1].cls, 2);
	assert_true(p.regions[2].empty);
	assert_true(p.regions[2].touches);   /* 60 on the line g + l = 6, like both */
	pareto_clear(&p);
	rows_clear(&r);
}

static void test_a_tie_on_a_point_decides_nothing(void **state)
{
	(void)state;
	struct rows r;
	/* 2g, 5 + g + l, 10: the middle one is no worse than both only at
	 * (g, l) = (5, 0); the answer depends on g alone, and changes at 5 */
	const long abc[][3] = {{0, 2, 0}, {5, 1, 1}, {10, 0, 0}};
	rows_set(&r, 3, abc, 1);
	struct pareto p;
	assert_int_equal(pareto_compute(&p, r.n, r.a, r.b, r.c), 0);
	assert_int_equal(p.nregions, 3);
	assert_true(p.g_only);
	assert_false(p.one_best);
	assert_q(p.regions[0].hi, 5, 1);
	assert_q(p.regions[1].lo, 5, 1);
	assert_true(p.regions[2].empty);
	assert_true(p.regions[2].touches);
	assert_int_equal(p.regions[2].cls, 1);
	pareto_clear(&p);
	rows_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_row_beats_every_other),
		cmocka_unit_test(test_intervals_of_g),
		cmocka_unit_test(test_a_row_best_nowhere),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_supersteps_bring_l_in),
		cmocka_unit_test(test_a_wedge),
		cmocka_unit_test(test_a_tie_on_a_point_decides_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
