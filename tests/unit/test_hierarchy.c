/* The cluster hierarchy's arithmetic (analyzer/cost/hierarchy.h): the boxes
 * of each numbering's clusters, alpha from H exactly, and the runs of a loop
 * combined.  H itself is counted from relations and checked against the
 * enumerator (tests/brute/hierarchy.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/cost/hierarchy.h"
#include "analyzer/machine/topology.h"

static void boxes(enum numbering nb, const long sizes[], int naxes, int bits, long b0, long b1)
{
	long box[3];
	hierarchy_box(nb, sizes, naxes, bits, box);
	if (box[0] != b0 || (naxes > 1 && box[1] != b1))
		fail_msg("%s, %d bits: box %ld x %ld, expected %ld x %ld", numbering_name[nb], bits,
			 box[0], naxes > 1 ? box[1] : 1, b0, b1);
}

static void test_boxes(void **state)
{
	(void)state;
	const long g[2] = {2, 8};   /* M = 2, N = 8: 4 levels */
	assert_int_equal(hierarchy_levels(g, 2), 4);
	/* row-major: N's bits first */
	boxes(NUMBERING_ROW, g, 2, 0, 1, 1);
	boxes(NUMBERING_ROW, g, 2, 2, 1, 4);
	boxes(NUMBERING_ROW, g, 2, 3, 1, 8);
	boxes(NUMBERING_ROW, g, 2, 4, 2, 8);
	/* column-major: M's bit first */
	boxes(NUMBERING_COL, g, 2, 1, 2, 1);
	boxes(NUMBERING_COL, g, 2, 2, 2, 2);
	/* Morton: N, M, N, N */
	boxes(NUMBERING_MORTON, g, 2, 1, 1, 2);
	boxes(NUMBERING_MORTON, g, 2, 2, 2, 2);
	boxes(NUMBERING_MORTON, g, 2, 3, 2, 4);
	boxes(NUMBERING_MORTON, g, 2, 4, 2, 8);
	const long sq[2] = {4, 4};
	boxes(NUMBERING_MORTON, sq, 2, 3, 2, 4);
	const long bad[2] = {2, 6};
	assert_int_equal(hierarchy_levels(bad, 2), -1);
	const long one[1] = {1};
	assert_int_equal(hierarchy_levels(one, 1), 0);
	enum numbering nb;
	assert_int_equal(numbering_parse("morton", &nb), 0);
	assert_int_equal(nb, NUMBERING_MORTON);
	assert_int_equal(numbering_parse("Morton", &nb), -1);
}

/* HR with the K values of H (numerator/denominator pairs). */
static void set_h(struct hierarchy *hr, int k, const long *num, const long *den)
{
	assert_int_equal(hierarchy_init(hr, k), 0);
	for (int i = 0; i < k; i++) {
		mpq_set_si(hr->H[i], num[i], (unsigned long)den[i]);
		mpq_canonicalize(hr->H[i]);
	}
	hierarchy_alpha(hr);
}

static void alpha_is(const struct hierarchy *hr, const char *want)
{
	char *s = hierarchy_alpha_text(hr);
	assert_non_null(s);
	if (strcmp(s, want) != 0)
		fail_msg("alpha %s, expected %s", s, want);
	free(s);
}

static void test_alpha(void **state)
{
	(void)state;
	struct hierarchy hr;
	/* stencil1d's block layout on 8: [1/4, 1, 2]: level 1 bounds alpha by 1,
	 * level 0 by log2(8)/2 = 3/2 */
	set_h(&hr, 3, (long[]){1, 1, 2}, (long[]){4, 1, 1});
	alpha_is(&hr, "1");
	hierarchy_clear(&hr);
	/* [1, 2, 4]: level 1 gives 1, level 0 log2(4)/2 = 1 too */
	set_h(&hr, 3, (long[]){1, 2, 4}, (long[]){1, 1, 1});
	alpha_is(&hr, "1");
	hierarchy_clear(&hr);
	/* [2, 4, 4]: level 1 gives 0 (all words reach the top) */
	set_h(&hr, 3, (long[]){2, 4, 4}, (long[]){1, 1, 1});
	alpha_is(&hr, "0");
	hierarchy_clear(&hr);
	/* [1, 8]: 3, an integer; [1, 2, 16]: level 0 log2(16)/2 = 2 against
	 * level 1 log2(8) = 3: 2 */
	set_h(&hr, 2, (long[]){1, 8}, (long[]){1, 1});
	alpha_is(&hr, "3");
	hierarchy_clear(&hr);
	set_h(&hr, 3, (long[]){1, 2, 16}, (long[]){1, 1, 1});
	alpha_is(&hr, "2");
	hierarchy_clear(&hr);
	/* a fraction: [1, 1, 8]: level 0 log2(8)/2 = 3/2 against level 1's 3 */
	set_h(&hr, 3, (long[]){1, 1, 8}, (long[]){1, 1, 1});
	alpha_is(&hr, "3/2");
	hierarchy_clear(&hr);
	/* irrational: [1, 3]: log2(3); [1, 5, 6]: level 1 log2(6/5) against
	 * level 0 log2(6)/2: log2(6/5) */
	set_h(&hr, 2, (long[]){1, 3}, (long[]){1, 1});
	alpha_is(&hr, "log2(3)");
	assert_true(hr.approx > 1.584 && hr.approx < 1.585);
	hierarchy_clear(&hr);
	set_h(&hr, 3, (long[]){1, 5, 6}, (long[]){1, 1, 1});
	alpha_is(&hr, "log2(6/5)");
	hierarchy_clear(&hr);
	/* [3, 0, 8]: level 1 has no words, level 0 gives log2(8/3)/2 */
	set_h(&hr, 3, (long[]){3, 0, 8}, (long[]){1, 1, 1});
	alpha_is(&hr, "log2(8/3)/2");
	hierarchy_clear(&hr);
	/* no word leaves a pair: unbounded; no word at all: none */
	set_h(&hr, 3, (long[]){0, 0, 5}, (long[]){1, 1, 1});
	alpha_is(&hr, "unbounded");
	hierarchy_clear(&hr);
	set_h(&hr, 2, (long[]){0, 0}, (long[]){1, 1});
	alpha_is(&hr, "none");
	hierarchy_clear(&hr);
	set_h(&hr, 0, NULL, NULL);
	alpha_is(&hr, "none");
	hierarchy_clear(&hr);
	/* ratios whose powers pass 64 bits, compared exactly: level 0's
	 * (2^40 + 1)^... against level 1's */
	set_h(&hr, 3, (long[]){1, 1, 1099511627777L}, (long[]){1, 1048576, 1});
	alpha_is(&hr, "log2(1099511627777)/2");
	hierarchy_clear(&hr);
	/* two levels' bounds a double cannot tell apart: H = [1, 2^31, h], level
	 * 0 bounds alpha by log2(h)/2, level 1 by log2(h/2^31); the first is
	 * the smaller exactly when h > 2^62 (r0 = h against r1^2 = h^2/2^62),
	 * by a relative 1e-18 for h = 2^62 +- 3 */
	assert_int_equal(hierarchy_init(&hr, 3), 0);
	mpq_set_str(hr.H[2], "4611686018427387907", 10);   /* 2^62 + 3: level 0 */
	mpq_set_str(hr.H[1], "2147483648", 10);
	mpq_set_str(hr.H[0], "1", 10);
	hierarchy_alpha(&hr);
	alpha_is(&hr, "log2(4611686018427387907)/2");
	mpq_set_str(hr.H[2], "4611686018427387901", 10);   /* 2^62 - 3: level 1 */
	hierarchy_alpha(&hr);
	alpha_is(&hr, "log2(4611686018427387901/2147483648)");
	hierarchy_clear(&hr);
}

static void test_runs(void **state)
{
	(void)state;
	struct hierarchy sum, a, b, c;
	assert_int_equal(hierarchy_init(&sum, 2), 0);
	sum.runs = 0;
	set_h(&a, 2, (long[]){1, 8}, (long[]){1, 1});     /* alpha 3 */
	set_h(&b, 2, (long[]){1, 3}, (long[]){1, 1});     /* log2(3) */
	set_h(&c, 2, (long[]){0, 0}, (long[]){1, 1});     /* none: bounds nothing */
	hierarchy_add_run(&sum, &c);
	alpha_is(&sum, "none");
	hierarchy_add_run(&sum, &a);
	alpha_is(&sum, "3");
	hierarchy_add_run(&sum, &b);
	alpha_is(&sum, "log2(3)");
	hierarchy_add_run(&sum, &a);
	alpha_is(&sum, "log2(3)");
	assert_int_equal(sum.runs, 4);
	assert_true(mpq_cmp_si(sum.H[0], 3, 1) == 0);
	assert_true(mpq_cmp_si(sum.H[1], 19, 1) == 0);
	/* the ceilings are summed run by run: a run of [1/4, 1] adds 1, not 1/4 */
	struct hierarchy d;
	set_h(&d, 2, (long[]){1, 1}, (long[]){4, 1});
	mpz_set_ui(mpq_numref(d.ceil[0]), 1);   /* ceil(1/4), as the counting sets it */
	mpz_set_ui(mpq_numref(d.ceil[1]), 1);
	hierarchy_add_run(&sum, &d);
	hierarchy_add_run(&sum, &d);
	assert_true(mpq_cmp_si(sum.H[0], 7, 2) == 0);   /* 3 + 1/4 + 1/4 */
	assert_true(mpq_cmp_si(sum.ceil[0], 2, 1) == 0); /* the others' 0 + 1 + 1 */
	hierarchy_clear(&d);
	hierarchy_clear(&a);
	hierarchy_clear(&b);
	hierarchy_clear(&c);
	hierarchy_clear(&sum);
}

/* X = A + B 2^(1/N) + C 2^(2/N) */
static void set_root(struct root2 *x, int n, long a, long b, long c)
{
	root2_init(x, n);
	mpq_set_si(x->c[0], a, 1);
	if (n > 1)
		mpq_set_si(x->c[1], b, 1);
	if (n > 2)
		mpq_set_si(x->c[2], c, 1);
}

static int cmp3(int n, long a, long b, long c, long d, long e, long f)
{
	struct root2 x, y;
	set_root(&x, n, a, b, c);
	set_root(&y, n, d, e, f);
	int r = root2_cmp(&x, &y);
	assert_int_equal(root2_cmp(&y, &x), -r);
	root2_clear(&x);
	root2_clear(&y);
	return r;
}

static void text_is(const struct root2 *x, const char *want)
{
	char *s = root2_text(x);
	assert_non_null(s);
	if (strcmp(s, want) != 0)
		fail_msg("'%s', expected '%s'", s, want);
	free(s);
}

static void test_root2(void **state)
{
	(void)state;
	/* sqrt(2): 99 - 70 sqrt(2) = 0.005 > 0 (99^2 = 2 * 70^2 + 1), 7 - 5 sqrt(2) < 0 */
	assert_int_equal(cmp3(2, 99, 0, 0, 0, 70, 0), 1);
	assert_int_equal(cmp3(2, 7, 0, 0, 0, 5, 0), -1);
	assert_int_equal(cmp3(2, 3, 2, 0, 5, 1, 0), -1);
	assert_int_equal(cmp3(2, 4, 3, 0, 4, 3, 0), 0);
	/* cube roots: 63 - 50 t = 0.0039 > 0, 46 - 29 t^2 = -0.035 < 0,
	 * 1259921 - 10^6 t = -0.0499 < 0 (t = 2^(1/3) = 1.25992104989...); and
	 * past a double: A - B t with A/B a convergent of t whose difference is
	 * below 1e-40 (A = round(B t), B = 10^40), its sign t's next digits' */
	{
		struct root2 x, y;
		root2_init(&x, 3);
		root2_init(&y, 3);
		/* 2^(1/3) = 1.2599210498948731647672106072782283505702514647015... */
		mpq_set_str(x.c[0], "12599210498948731647672106072782283505702", 10);
		mpq_set_str(y.c[1], "10000000000000000000000000000000000000000", 10);
		/* B t = ...505702.5146...: A = ...505702 is below it, ...505703 above */
		assert_int_equal(root2_cmp(&x, &y), -1);
		mpq_set_str(x.c[0], "12599210498948731647672106072782283505703", 10);
		assert_int_equal(root2_cmp(&x, &y), 1);
		mpq_set_str(x.c[0], "12599210498948731647672106072782283505701", 10);
		assert_int_equal(root2_cmp(&x, &y), -1);
		root2_clear(&x);
		root2_clear(&y);
	}
	assert_int_equal(cmp3(3, 63, 0, 0, 0, 50, 0), 1);
	assert_int_equal(cmp3(3, 46, 0, 0, 0, 0, 29), -1);
	assert_int_equal(cmp3(3, 1259921, 0, 0, 0, 1000000, 0), -1);
	assert_int_equal(cmp3(3, 1, 1, 1, 1, 1, 1), 0);
	assert_int_equal(cmp3(3, 0, 0, 1, 0, 1, 0), 1);   /* t^2 > t */
	assert_int_equal(cmp3(1, 5, 0, 0, 6, 0, 0), -1);
	/* a D-BSP cost: 2^(5/2) is 4 sqrt(2) */
	struct root2 x;
	root2_init(&x, 2);
	mpq_t one;
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	root2_add_pow(&x, one, 5);
	text_is(&x, "4*2^(1/2)");
	mpq_set_si(one, 46, 1);
	mpq_add(x.c[0], x.c[0], one);
	text_is(&x, "46 + 4*2^(1/2)");
	assert_true(root2_approx(&x) > 51.656 && root2_approx(&x) < 51.657);
	root2_clear(&x);
	set_root(&x, 3, 0, 1, 0);
	mpq_set_si(x.c[2], 5, 2);
	text_is(&x, "2^(1/3) + 5/2*2^(2/3)");
	root2_clear(&x);
	set_root(&x, 2, 1, -1, 0);
	text_is(&x, "1 - 2^(1/2)");
	root2_clear(&x);
	set_root(&x, 1, 0, 0, 0);
	text_is(&x, "0");
	root2_clear(&x);
	mpq_clear(one);
	assert_non_null(topology_find("mesh3d"));
	assert_null(topology_find("torus"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boxes),
		cmocka_unit_test(test_alpha),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_root2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
