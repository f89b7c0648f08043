/* count_max_split_of and count_proven_nonneg_on: a maximum of competing
 * functions as one function, and the proofs it rests on.
 *
 * Each split entry gives the functions (counts, on parameters only), the
 * context and a box of parameter values; an expected split is checked at
 * every point of the box within the context against the largest of the
 * functions' own values (absent pieces count 0), so the result is compared
 * with ISL's evaluation of the inputs, not with anything the split computed.
 * Each proof entry is a claim p >= 0 on a set: a true claim must be proven
 * (and is checked true on the box), a false one, found false on the box,
 * must never be. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
#include "analyzer/count/count_internal.h"
#include "analyzer/util/session.h"

#define BOX "[n, k] -> { : 0 <= n <= 40 and -2 <= k <= 40 }"

struct split_entry {
	const char *name;
	const char *f[3];
	const char *context;
	bool split;  /* false: must be refused */
	const char *box;  /* the points checked (NULL: BOX) */
};

static const struct split_entry splits[] = {
	/* LU's update on 2 x 2, block x block: the trailing rows of the last
	 * process against a full block, floors of n/2 squared */
	{"lu_block_floors",
	 {"[n, k] -> { 2*(n - floor(n/2) - 1 - k)^2 : 2k <= n - 3 }",
	  "[n, k] -> { 2*floor(n/2)^2 : 2k <= n - 3 }", NULL},
	 "[n, k] -> { : n >= 4 and 0 <= k <= n - 2 }", true, NULL},
	/* the same with k's parity (cyclic columns): which one is larger
	 * depends on n's and k's remainders, a region of each */
	{"lu_parity",
	 {"[n, k] -> { 2 - 4*n + 2*n^2 + (2 - 2*n)*k + (4 - 4*n + 2*k)*floor(n/2) + 2*floor(n/2)^2"
	  " + (2 - 2*n + 2*k + 2*floor(n/2))*floor(k/2) : 2k <= n - 3 }",
	  "[n, k] -> { (2 - 2*n)*k + 2*k^2 + (-2 + 2*n)*floor(n/2) - 2*floor(n/2)^2"
	  " + (-2 + 2*n - 2*k - 2*floor(n/2))*floor(k/2) : 2k <= n - 3 }", NULL},
	 "[n, k] -> { : n >= 4 and 0 <= k <= n - 2 }", true, NULL},
	/* affine differences: regions cut by inequalities, three functions */
	{"affine_three", {"[n, k] -> { n - k }", "[n, k] -> { k }", "[n, k] -> { 7 }"},
	 "[n, k] -> { : n >= 0 and k >= 0 }", true, NULL},
	/* the difference (k - 1)(k - n + 1) changes sign inside the context:
	 * no affine region, no proof either way */
	{"crossing_product", {"[n, k] -> { k*k - n*k + n }", "[n, k] -> { k + 1 }", NULL},
	 "[n, k] -> { : n >= 6 and 0 <= 3k <= n - 4 }", false, NULL},
	/* LU's update on a square grid (N = M in the functions' domains): ISL
	 * 0.25 restricting a fold to such a domain rewrote the second function
	 * as if M were 0, so the owner's 2*(M - 1 - k)*(n - 1) lost to the
	 * others' (M - 1 - k)*n where it is the larger (k = 0, n = 3, M = 2) */
	{"square_grid_equality",
	 {"[n, k, M, N] -> { (M - 1)*n - n*k : N = M and 0 <= k <= M - 1 and n >= 2 }",
	  "[n, k, M, N] -> { 2*(M - 1 - k)*(n - 1) : N = M and 0 <= k <= M - 2 and n >= 2 }",
	  NULL},
	 "[n, k, M, N] -> { : n >= 2 and k >= 0 and M >= 1 }", true,
	 "[n, k, M, N] -> { : n <= 12 and k <= 12 and M <= 8 and 0 <= N <= 8 }"},
	/* LU's update on a square grid of blocks: the pivot process's sends
	 * against a full block's, both with the factor M - 1 - k >= 1; their
	 * difference (M - 1 - k)*(a - 2 - 2*i) is no affine function, but has
	 * the sign of a - 2 - 2*i (factor_region) */
	{"factor_sign",
	 {"[a, k, i, M] -> { 2*(M - 1 - k)*(a - 1 - i) : 0 <= k <= M - 2 and 0 <= i <= a - 2 }",
	  "[a, k, i, M] -> { a*(M - 1 - k) : 0 <= k <= M - 2 and 0 <= i <= a - 1 }", NULL},
	 "[a, k, i, M] -> { : a >= 2 and M >= 2 and 0 <= k <= M - 2 and 0 <= i <= a - 1 }", true,
	 "[a, k, i, M] -> { : a <= 12 and 0 <= k <= 8 and 0 <= i <= 12 and M <= 8 }"},
	/* the same factor, but the other factor's sign changes within the
	 * context (i*i - a): no affine cut, refused */
	{"factor_not_affine",
	 {"[a, k, i, M] -> { (M - 1 - k)*(i*i - a + 1) + a*(M - 1 - k) : 0 <= k <= M - 2 }",
	  "[a, k, i, M] -> { a*(M - 1 - k) : 0 <= k <= M - 2 }", NULL},
	 "[a, k, i, M] -> { : a >= 2 and M >= 2 and 0 <= k <= M - 2 and 0 <= i <= a - 1 }", false,
	 "[a, k, i, M] -> { : a <= 12 and 0 <= k <= 8 and 0 <= i <= 12 and M <= 8 }"},
};

struct proof_entry {
	const char *name;
	const char *p;
	const char *dom;
	bool holds;  /* false: the claim is false on the box, and never proven */
};

static const struct proof_entry proofs[] = {
	{"product_of_bounds", "[n, k] -> { (n - k)*(k + 1) }", "[n, k] -> { : 0 <= k <= n }", true},
	{"remainder_cases", "[n, k] -> { 2*n^2 - 6*n*floor(n/2) + 4*floor(n/2)^2 }",
	 "[n, k] -> { : n >= 4 }", true},
	{"common_factor", "[n, k] -> { 4*k + 2*k^2 }", "[n, k] -> { : k >= 0 }", true},
	{"square_false", "[n, k] -> { k*k - 3*k + 1 }", "[n, k] -> { : k >= 0 }", false},
	{"product_false", "[n, k] -> { (n - k)*(k - 1) }", "[n, k] -> { : 0 <= k <= n }", false},
};

/* The value of F at the point PT (kept) of its parameter space, 0 outside
 * its pieces. */
static isl_val *value_at(__isl_keep isl_pw_qpolynomial *f, __isl_keep isl_point *pt)
{
	isl_val *v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(f), isl_point_copy(pt));
	if (v && isl_val_is_nan(v))
		v = isl_val_set_si(v, 0);
	return v;
}

struct walk {
	isl_pw_qpolynomial *f[3];
	int n;
	isl_pw_qpolynomial *result;
	const char *name;
	int points;
};

static isl_stat split_point(__isl_take isl_point *pt, void *user)
{
	struct walk *w = user;
	isl_val *best = isl_val_zero(isl_point_get_ctx(pt));
	for (int i = 0; i < w->n; i++)
		best = isl_val_max(best, value_at(w->f[i], pt));
	isl_val *got = value_at(w->result, pt);
	if (!got || !isl_val_eq(got, best))
		fail_msg("%s: at %s the split gives %s, the largest input %s", w->name,
			 isl_point_to_str(pt), got ? isl_val_to_str(got) : "?", isl_val_to_str(best));
	isl_val_free(got);
	isl_val_free(best);
	isl_point_free(pt);
	w->points++;
	return isl_stat_ok;
}

static void check_split(void **state)
{
	const struct split_entry *e = *state;
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	struct walk w = {{NULL}, 0, NULL, e->name, 0};
	for (int i = 0; i < 3 && e->f[i]; i++) {
		w.f[i] = isl_pw_qpolynomial_read_from_str(ctx, e->f[i]);
		assert_non_null(w.f[i]);
		w.n++;
	}
	isl_set *context = isl_set_read_from_str(ctx, e->context);
	char *reason = NULL;
	enum count_status st = count_max_split_of(&eng, w.f, w.n, context, &w.result, &reason);
	if (!e->split) {
		assert_int_equal(st, COUNT_REFUSED);
		assert_null(w.result);
		assert_non_null(reason);
	} else {
		if (st != COUNT_EXACT)
			fail_msg("%s: %s", e->name, reason ? reason : "?");
		isl_set *pts = isl_set_intersect(isl_set_read_from_str(ctx, e->box ? e->box : BOX),
						 isl_set_copy(context));
		assert_int_equal(isl_set_foreach_point(pts, split_point, &w), isl_stat_ok);
		isl_set_free(pts);
		assert_true(w.points > 100);
	}
	free(reason);
	isl_pw_qpolynomial_free(w.result);
	for (int i = 0; i < w.n; i++)
		isl_pw_qpolynomial_free(w.f[i]);
	isl_set_free(context);
	isl_ctx_free(ctx);
}

struct sign_walk {
	isl_pw_qpolynomial *p;
	int negative;
};

static isl_stat sign_point(__isl_take isl_point *pt, void *user)
{
	struct sign_walk *s = user;
	isl_val *v = value_at(s->p, pt);
	if (v && isl_val_is_neg(v))
		s->negative++;
	isl_val_free(v);
	isl_point_free(pt);
	return isl_stat_ok;
}

/* The one piece of PW as a quasi-polynomial on its domain space. */
static isl_stat take_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	isl_qpolynomial **out = user;
	isl_set_free(set);
	isl_qpolynomial_free(*out);
	*out = qp;
	return isl_stat_ok;
}

static void check_proof(void **state)
{
	const struct proof_entry *e = *state;
	isl_ctx *ctx = session_ctx(NULL);
	isl_pw_qpolynomial *p = isl_pw_qpolynomial_read_from_str(ctx, e->p);
	isl_set *dom = isl_set_read_from_str(ctx, e->dom);
	assert_non_null(p);
	assert_non_null(dom);
	isl_qpolynomial *qp = NULL;
	assert_int_equal(isl_pw_qpolynomial_foreach_piece(p, take_piece, &qp), isl_stat_ok);
	assert_non_null(qp);
	/* the claim itself, on the box */
	struct sign_walk s = {p, 0};
	isl_set *pts = isl_set_intersect(isl_set_read_from_str(ctx, BOX), isl_set_copy(dom));
	assert_int_equal(isl_set_foreach_point(pts, sign_point, &s), isl_stat_ok);
	isl_set_free(pts);
	int r = count_proven_nonneg_on(dom, qp);
	if (e->holds) {
		assert_int_equal(s.negative, 0);
		if (r != 1)
			fail_msg("%s: not proven (%d)", e->name, r);
	} else {
		assert_true(s.negative > 0);
		assert_int_not_equal(r, 1);
	}
	isl_qpolynomial_free(qp);
	isl_pw_qpolynomial_free(p);
	isl_set_free(dom);
	isl_ctx_free(ctx);
}

/* count_separate: terms that involve different coordinates of a box split
 * into groups, and the constant part plus each group's maximum over its
 * own range is the maximum of their sum, both enumerated at every M, N in
 * 0..6 (no process: 0); an array read by nobody (a NULL term) adds nothing;
 * terms that share a coordinate, or a range that ties two coordinates, do
 * not split. */
struct separate_entry {
	const char *name;
	const char *terms[4];
	const char *range;
	int groups; /* 0: refused */
	bool null_first; /* an array read by nobody first: a NULL term */
};

static const struct separate_entry separations[] = {
	{"rows_and_columns",
	 {"[M, N] -> { [s, t] -> (2 * s + 1) : 0 <= s < M and 0 <= t < N }",
	  "[M, N] -> { [s, t] -> (N - t) * M : 0 <= s < M and 0 <= t < N and t >= 1 }",
	  "[M, N] -> { [s, t] -> 7 : 0 <= s < M and 0 <= t < N }", NULL},
	 "[M, N] -> { [s, t] : 0 <= s < M and 0 <= t < N }", 2, false},
	{"range_on_parameters",
	 {"[M, N] -> { [s, t] -> (2 * s + 1) : 0 <= s < M and 0 <= t < N }",
	  "[M, N] -> { [s, t] -> (N - t) * M : 0 <= s < M and 0 <= t < N and t >= 1 }",
	  "[M, N] -> { [s, t] -> 7 : 0 <= s < M and 0 <= t < N }", NULL},
	 "[M, N] -> { [s, t] : 0 <= s < M and 0 <= t < N and M >= 2 and N <= 4 }", 2, true},
	{"pieces_per_axis",
	 {"[M, N] -> { [s, t] -> 3 - s : 0 <= s < M and 0 <= t < N and s < 4 }",
	  "[M, N] -> { [s, t] -> N * t + 1 : 0 <= s < M and 0 <= t < N and 2 * t < N }", NULL},
	 "[M, N] -> { [s, t] : 0 <= s < M and 0 <= t < N }", 2, false},
	{"shared_coordinate",
	 {"[M, N] -> { [s, t] -> s + t : 0 <= s < M and 0 <= t < N }",
	  "[M, N] -> { [s, t] -> s : 0 <= s < M and 0 <= t < N }", NULL},
	 "[M, N] -> { [s, t] : 0 <= s < M and 0 <= t < N }", 0, false},
	{"range_not_a_box",
	 {"[M, N] -> { [s, t] -> s : 0 <= s < M and 0 <= t < N }",
	  "[M, N] -> { [s, t] -> t : 0 <= s < M and 0 <= t < N }", NULL},
	 "[M, N] -> { [s, t] : 0 <= s < M and 0 <= t < N and s <= t }", 0, false},
};

struct sum_walk {
	isl_pw_qpolynomial *sum;
	isl_val *best;
};

static isl_stat sum_point(__isl_take isl_point *pt, void *user)
{
	struct sum_walk *w = user;
	isl_val *v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(w->sum), pt);
	if (!w->best || isl_val_gt(v, w->best)) {
		isl_val_free(w->best);
		w->best = v;
	} else {
		isl_val_free(v);
	}
	return isl_stat_ok;
}

static void check_separate(void **state)
{
	const struct separate_entry *e = *state;
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	isl_pw_qpolynomial *t[5] = {NULL}, *sum = NULL;
	int n = e->null_first ? 1 : 0;
	for (int k = 0; k < 4 && e->terms[k]; k++, n++) {
		t[n] = isl_pw_qpolynomial_read_from_str(ctx, e->terms[k]);
		assert_non_null(t[n]);
		sum = sum ? isl_pw_qpolynomial_add(sum, isl_pw_qpolynomial_copy(t[n]))
			  : isl_pw_qpolynomial_copy(t[n]);
	}
	isl_set *range = isl_set_read_from_str(ctx, e->range);
	struct count_groups g;
	char *reason = NULL;
	enum count_status st = count_separate(&eng, t, n, range, &g, &reason);
	if (!e->groups) {
		assert_int_equal(st, COUNT_REFUSED);
		assert_non_null(reason);
	} else {
		if (st != COUNT_EXACT)
			fail_msg("%s: %s", e->name, reason ? reason : "?");
		assert_int_equal(g.n, e->groups);
		/* an empty grid (M or N = 0) too: no process, a maximum of 0 */
		for (int M = 0; M <= 6; M++)
			for (int N = 0; N <= 6; N++) {
				/* the sum's maximum over the box, enumerated */
				isl_set *at = isl_set_fix_si(isl_set_fix_si(isl_set_copy(range),
							     isl_dim_param, 0, M), isl_dim_param, 1, N);
				struct sum_walk w = {sum, NULL};
				assert_int_equal(isl_set_foreach_point(at, sum_point, &w), isl_stat_ok);
				isl_set_free(at);
				/* the constant, and each group's maximum over its range */
				isl_val *got = isl_val_zero(ctx);
				if (g.constant) {
					isl_set *par = isl_set_fix_si(isl_set_fix_si(isl_set_universe(
						isl_space_params(isl_pw_qpolynomial_get_domain_space(g.constant))),
						isl_dim_param, 0, M), isl_dim_param, 1, N);
					got = isl_val_add(got, isl_pw_qpolynomial_eval(
						isl_pw_qpolynomial_copy(g.constant), isl_set_sample_point(par)));
				}
				for (int k = 0; k < g.n; k++) {
					isl_set *gk = isl_set_fix_si(isl_set_fix_si(isl_set_copy(g.range[k]),
								     isl_dim_param, 0, M), isl_dim_param, 1, N);
					struct sum_walk wk = {g.f[k], NULL};
					assert_int_equal(isl_set_foreach_point(gk, sum_point, &wk), isl_stat_ok);
					isl_set_free(gk);
					if (wk.best)
						got = isl_val_add(got, wk.best);
				}
				if (!w.best)
					w.best = isl_val_zero(ctx);
				if (!got || !isl_val_eq(got, w.best))
					fail_msg("%s at M = %d, N = %d: %s, enumerated %s", e->name, M, N,
						 got ? isl_val_to_str(got) : "?",
						 w.best ? isl_val_to_str(w.best) : "?");
				isl_val_free(got);
				isl_val_free(w.best);
			}
	}
	count_groups_clear(&g);
	free(reason);
	for (int k = 0; k < n; k++)
		isl_pw_qpolynomial_free(t[k]);
	isl_pw_qpolynomial_free(sum);
	isl_set_free(range);
	isl_ctx_free(ctx);
}

int main(void)
{
	enum { NS = sizeof(splits) / sizeof(splits[0]), NP = sizeof(proofs) / sizeof(proofs[0]),
	       NX = sizeof(separations) / sizeof(separations[0]) };
	struct CMUnitTest tests[NS + NP + NX];
	for (int i = 0; i < NS; i++)
		tests[i] = (struct CMUnitTest){splits[i].name, check_split, NULL, NULL,
					       (void *)&splits[i]};
	for (int i = 0; i < NP; i++)
		tests[NS + i] = (struct CMUnitTest){proofs[i].name, check_proof, NULL, NULL,
						    (void *)&proofs[i]};
	for (int i = 0; i < NX; i++)
		tests[NS + NP + i] = (struct CMUnitTest){separations[i].name, check_separate, NULL,
							 NULL, (void *)&separations[i]};
	return cmocka_run_group_tests_name("count_split", tests, NULL, NULL);
}
