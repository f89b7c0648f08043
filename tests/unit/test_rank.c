/* The decisions of -p (analyzer/decide/rank.h): the shapes of P processes and
 * the ranking of rows, ties and rows without a number included. */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/decide/rank.h"
#include "analyzer/report/report.h"

static void test_shapes(void **state)
{
	(void)state;
	struct rank_table t;
	/* two axes: every divisor, lexicographic */
	assert_int_equal(rank_table_init(&t, 12, 2), 0);
	assert_int_equal(t.nshapes, 6);
	long want[6][2] = {{1, 12}, {2, 6}, {3, 4}, {4, 3}, {6, 2}, {12, 1}};
	for (int s = 0; s < 6; s++) {
		assert_int_equal(t.shapes[s][0], want[s][0]);
		assert_int_equal(t.shapes[s][1], want[s][1]);
	}
	rank_table_clear(&t);
	/* one axis: P itself; one process: 1 x 1 */
	assert_int_equal(rank_table_init(&t, 64, 1), 0);
	assert_int_equal(t.nshapes, 1);
	assert_int_equal(t.shapes[0][0], 64);
	rank_table_clear(&t);
	assert_int_equal(rank_table_init(&t, 1, 2), 0);
	assert_int_equal(t.nshapes, 1);
	rank_table_clear(&t);
	/* three axes: 8 = 2^3 has C(5, 2) = 10 ordered factorizations, each product 8 */
	assert_int_equal(rank_table_init(&t, 8, 3), 0);
	assert_int_equal(t.nshapes, 10);
	for (int s = 0; s < t.nshapes; s++)
		assert_int_equal(t.shapes[s][0] * t.shapes[s][1] * t.shapes[s][2], 8);
	assert_int_equal(t.shapes[0][2], 8);          /* 1x1x8 first */
	assert_int_equal(t.shapes[9][0], 8);          /* 8x1x1 last */
	rank_table_clear(&t);
	/* 65536 = 2^16 on three axes: C(18, 2) = 153 */
	assert_int_equal(rank_table_init(&t, 65536, 3), 0);
	assert_int_equal(t.nshapes, 153);
	rank_table_clear(&t);
}

static struct rank_row *row(struct rank_table *t, int shape, int cand, enum rank_status st,
			    long cost)
{
	struct rank_row *r = rank_table_add_row(t, shape, cand);
	assert_non_null(r);
	r->status = st;
	mpq_set_si(r->cost, cost, 1);
	if (st != RANK_OK && st != RANK_LATE)
		r->reason = strdup("why");
	return r;
}

static void test_ranks_and_ties(void **state)
{
	(void)state;
	struct rank_table t;
	assert_int_equal(rank_table_init(&t, 4, 2), 0);   /* 1x4, 2x2, 4x1 */
	row(&t, 2, 0, RANK_OK, 30);
	row(&t, 0, -1, RANK_OUTSIDE, 0);
	row(&t, 1, 1, RANK_OK, 20);
	row(&t, 2, 1, RANK_LATE, 0);
	row(&t, 1, 0, RANK_OK, 20);
	row(&t, 2, 0, RANK_REFUSED, 0);
	row(&t, 0, 0, RANK_OK, 10);
	row(&t, 0, 1, RANK_OK, 30);
	rank_table_sort(&t);
	assert_true(t.sorted);
	assert_int_equal(t.nranked, 5);
	assert_int_equal(t.nlate, 1);
	/* 10; 20 = 20 (shape 2x2, candidates 0 then 1); 30 = 30 (shape 1x4 before 4x1) */
	int shape[] = {0, 1, 1, 0, 2}, cand[] = {0, 0, 1, 1, 0}, rank[] = {1, 2, 2, 4, 4};
	bool tie[] = {false, true, true, true, true};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(t.rows[i].status, RANK_OK);
		assert_int_equal(t.rows[i].shape, shape[i]);
		assert_int_equal(t.rows[i].cand, cand[i]);
		assert_int_equal(t.rows[i].rank, rank[i]);
		assert_int_equal(t.rows[i].tie, tie[i]);
	}
	/* then the rows without a number, by shape, the late one last */
	assert_int_equal(t.rows[5].status, RANK_OUTSIDE);
	assert_int_equal(t.rows[6].status, RANK_REFUSED);
	assert_int_equal(t.rows[7].status, RANK_LATE);
	rank_table_clear(&t);
}

static void test_fractions_rank_exactly(void **state)
{
	(void)state;
	struct rank_table t;
	assert_int_equal(rank_table_init(&t, 2, 1), 0);
	struct rank_row *a = row(&t, 0, 0, RANK_OK, 0);
	mpq_set_si(a->cost, 1, 3);
	struct rank_row *b = row(&t, 0, 1, RANK_OK, 0);
	mpq_set_si(b->cost, 333333333, 1000000000);   /* just below 1/3 */
	rank_table_sort(&t);
	assert_int_equal(t.rows[0].cand, 1);
	assert_false(t.rows[0].tie);
	assert_int_equal(t.rows[1].rank, 2);
	rank_table_clear(&t);
}

/* A ranking whose cheapest row may be a refused one: the best of the
 * counted rows is never said to be the best. */
static void test_uncounted_rows_leave_the_best_unproven(void **state)
{
	(void)state;
	struct rank_table t;
	assert_int_equal(rank_table_init(&t, 4, 2), 0);   /* 1x4, 2x2, 4x1 */
	row(&t, 0, -1, RANK_OUTSIDE, 0);
	row(&t, 1, 0, RANK_OK, 20);
	row(&t, 2, 0, RANK_REFUSED, 0);
	row(&t, 2, 1, RANK_FAILED, 0);
	rank_table_sort(&t);
	assert_int_equal(t.nranked, 1);
	assert_int_equal(t.nuncounted, 2);   /* the shape outside the assumptions is no candidate */

	const char *axes[] = {"M", "N"}, *cands[] = {"a", "b"};
	struct param_value values[] = {{.name = "g", .value = 1, .den = 1},
				       {.name = "l", .value = 0, .den = 1}};
	struct ranking r = {.file = "f.bsp", .naxes = 2, .axes = axes, .ncands = 2, .cands = cands,
			    .nvalues = 2, .values = values, .t = &t, .first = true};
	struct {
		enum output_format format;
		const char *want;
	} cases[] = {
		{FORMAT_TEXT, "best of the counted rows (not proven: 2 rows not counted could cost "
			      "less): cost 20, shape 2x2, candidate a\n"},
		{FORMAT_MARKDOWN, "best of the counted rows (not proven: 2 rows not counted could "
				  "cost less)"},
		{FORMAT_LATEX, "best of the counted rows (not proven: 2 rows not counted could "
			       "cost less)"},
		{FORMAT_JSON, "\"best_proven\": false, \"uncounted\": 2,"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		assert_non_null(out);
		report_ranking(out, cases[k].format, &r, 0);
		fclose(out);
		if (!strstr(text, cases[k].want))
			fail_msg("format %d: no '%s' in:\n%s", (int)cases[k].format, cases[k].want,
				 text);
		assert_null(strstr(text, "best: "));
		free(text);
	}
	rank_table_clear(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_ranks_and_ties),
		cmocka_unit_test(test_fractions_rank_exactly),
		cmocka_unit_test(test_uncounted_rows_leave_the_best_unproven),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
