/* Every distribution kind of the registry (distributions/dist.c), checked
 * against itself: its share (the most indices one coordinate holds, which
 * the memory formulas and values are made of) against its owner relation,
 * whose points are counted one by one here; its `replicated` flag against
 * the same relation.  A new kind, a module and a line in dist.c, is checked
 * here without a line of this test changed.
 *
 * The shares are written in a plain long arithmetic of this test's own
 * (memory.c has the product's two), and the owner relations are read point
 * by point with ISL at small sizes: every extent X from 1 to 23, axis P from
 * 1 to 6 and block b from 1 to 3 (identity: X = P only, as the checker
 * requires). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>
#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/local_space.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>

#include "distributions/dist.h"

/* ---- a long arithmetic (values malloc'd; NULL passed on) ---------------- */

static void *num(long v)
{
	long *p = malloc(sizeof(*p));
	if (p)
		*p = v;
	return p;
}

static void *a_constant(void *user, long c)
{
	(void)user;
	return num(c);
}

static void *a_param(void *user, int index)
{
	(void)index;
	return num(*(const long *)user);   /* the one size parameter: the block */
}

static void *a_copy(void *user, const void *a)
{
	(void)user;
	return a ? num(*(const long *)a) : NULL;
}

static void a_free(void *user, void *a)
{
	(void)user;
	free(a);
}

enum op { ADD, SUB, MUL, DIV, MIN };

static void *apply(enum op op, void *a, void *b)
{
	long *x = a, *y = b;
	void *r = NULL;
	if (x && y && (op != DIV || *y >= 1)) {
		long v = op == ADD ? *x + *y : op == SUB ? *x - *y : op == MUL ? *x * *y
		       : op == MIN ? (*x < *y ? *x : *y)
		       : (*x >= 0 ? *x / *y : -((-*x + *y - 1) / *y));   /* floor */
		r = num(v);
	}
	free(a);
	free(b);
	return r;
}

static void *a_add(void *u, void *a, void *b)
{
	(void)u;
	return apply(ADD, a, b);
}

static void *a_sub(void *u, void *a, void *b)
{
	(void)u;
	return apply(SUB, a, b);
}

static void *a_mul(void *u, void *a, void *b)
{
	(void)u;
	return apply(MUL, a, b);
}

static void *a_div(void *u, void *a, void *b)
{
	(void)u;
	return apply(DIV, a, b);
}

static void *a_min(void *u, void *a, void *b)
{
	(void)u;
	return apply(MIN, a, b);
}

/* ---- the owner relation, point by point --------------------------------- */

static isl_stat count_point(__isl_take isl_point *pt, void *user)
{
	long *held = user;
	isl_val *c = isl_point_get_coordinate_val(pt, isl_dim_set, 1);
	held[isl_val_get_num_si(c)]++;
	isl_val_free(c);
	isl_point_free(pt);
	return isl_stat_ok;
}

/* HELD[c]: how many indices 0 <= i < X coordinate c (0 <= c < P) owns under
 * D, the points of D's owner set on the space { [i, c] }. */
static void owned(isl_ctx *ctx, const struct dist *d, long x, long p, long held[])
{
	isl_space *sp = isl_space_set_alloc(ctx, 0, 2);
	isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
	isl_aff *index = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, 0);
	isl_aff *coord = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, 1);
	isl_aff *extent = isl_aff_val_on_domain(ls, isl_val_int_from_si(ctx, x));
	isl_set *own = dist_ops(d->kind)->owner(d, index, coord, extent, p);
	isl_aff_free(extent);
	isl_set *box = isl_set_universe(sp);
	box = isl_set_lower_bound_si(box, isl_dim_set, 0, 0);
	box = isl_set_upper_bound_si(box, isl_dim_set, 0, (int)x - 1);
	box = isl_set_lower_bound_si(box, isl_dim_set, 1, 0);
	box = isl_set_upper_bound_si(box, isl_dim_set, 1, (int)p - 1);
	own = isl_set_intersect(own, box);
	for (long c = 0; c < p; c++)
		held[c] = 0;
	assert_int_equal(isl_set_foreach_point(own, count_point, held), isl_stat_ok);
	isl_set_free(own);
}

static void test_shares_are_the_owner_relation(void **state)
{
	(void)state;
	isl_ctx *ctx = isl_ctx_alloc();
	int kinds = 0, checked = 0;
	for (int k = 0; k < DIST_NKINDS; k++) {
		const struct dist_ops *ops = dist_ops((enum dist_kind)k);
		assert_non_null(ops);
		assert_non_null(ops->owner);
		assert_non_null(ops->share);
		kinds++;
		for (long b = 1; b <= 3; b++)
			for (long p = 1; p <= 6; p++)
				for (long x = 1; x <= 23; x++) {
					if (k == DIST_IDENTITY && x != p)
						continue;
					struct dist d = {(enum dist_kind)k, k == DIST_NONE ? -1 : 0, b,
							 b == 3 ? 0 : -1};
					long bv = b;   /* cyclic(nb) at nb = 3: a parameter */
					struct dist_arith ar = {&bv, a_constant, a_param, a_copy,
								a_add, a_sub, a_mul, a_div, a_min,
								a_free};
					long *share = ops->share(&d, &ar, num(x), num(p));
					assert_non_null(share);
					long held[6], most = 0;
					int everywhere = 1;
					owned(ctx, &d, x, p, held);
					for (long c = 0; c < p; c++) {
						most = held[c] > most ? held[c] : most;
						everywhere &= held[c] == x;
					}
					long first = held[0];
					if (*share != most || *share != first)
						fail_msg("%s, X = %ld, P = %ld, b = %ld: share %ld, "
							 "the owner relation gives %ld (the first "
							 "coordinate %ld)", ops->name, x, p, b,
							 *share, most, first);
					if (p > 1 && x > 1 && ops->replicated != everywhere)
						fail_msg("%s, X = %ld, P = %ld: replicated %d, but "
							 "every coordinate holds every index: %d",
							 ops->name, x, p, ops->replicated, everywhere);
					free(share);
					checked++;
				}
	}
	assert_int_equal(kinds, DIST_NKINDS);
	assert_true(checked > 1000);
	isl_ctx_free(ctx);
}

/* A failure passed on: an axis of no process is refused (the division by
 * P), never a share. */
static void test_share_of_no_process(void **state)
{
	(void)state;
	long bv = 2;
	struct dist_arith ar = {&bv, a_constant, a_param, a_copy, a_add, a_sub,
				a_mul, a_div, a_min, a_free};
	const enum dist_kind divided[] = {DIST_BLOCK, DIST_CYCLIC, DIST_BLOCK_CYCLIC};
	for (int k = 0; k < 3; k++) {
		struct dist d = {divided[k], 0, 2, -1};
		assert_null(dist_ops(divided[k])->share(&d, &ar, num(10), num(0)));
		assert_null(dist_ops(divided[k])->share(&d, &ar, NULL, num(2)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_are_the_owner_relation),
		cmocka_unit_test(test_share_of_no_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
