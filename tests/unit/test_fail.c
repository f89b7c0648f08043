/* The failure policy (analyzer/util/fail.h) and the run's session
 * (analyzer/util/session.h): the first failure wins, ISL's failures are
 * classified by ISL's own error, and the deadline aborts every context. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <isl/ctx.h>
#include <isl/set.h>

#include "analyzer/util/fail.h"
#include "analyzer/util/session.h"

static void test_first_failure_wins(void **state)
{
	(void)state;
	struct fail f = {0};
	assert_false(failed(&f));
	assert_null(fail_reason(&f));
	fail_set(&f, FAIL_REFUSED, "the %s reason", "first");
	fail_set(&f, FAIL_ERROR, "the second reason");
	fail_nomem(&f);
	assert_int_equal(f.kind, FAIL_REFUSED);
	assert_string_equal(fail_reason(&f), "the first reason");
	char *r = fail_release(&f);
	assert_string_equal(r, "the first reason");
	free(r);
	assert_false(failed(&f));
	assert_null(fail_release(&f));
	fail_take(&f, FAIL_ERROR, NULL); /* even the reason could not be kept */
	assert_true(failed(&f));
	assert_string_equal(fail_reason(&f), "out of memory");
	fail_clear(&f);
	assert_false(failed(&f));
}

/* ISL's own message for what ISL refused, never "out of memory". */
static void test_isl_error_keeps_isl_message(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	isl_set *set = isl_set_read_from_str(ctx, "{ [i] : i >= }");
	assert_null(set);
	struct fail f = {0};
	fail_isl(&f, ctx, "reading %s", "a set");
	assert_int_equal(f.kind, FAIL_ERROR);
	const char *msg = fail_reason(&f);
	assert_true(strncmp(msg, "reading a set: ISL failed: ", 27) == 0);
	assert_null(strstr(msg, "out of memory"));
	assert_int_equal(isl_ctx_last_error(ctx), isl_error_none); /* cleared */
	fail_clear(&f);
	/* no ISL error at all: a NULL of ours, an allocation */
	fail_isl(&f, ctx, "copying");
	assert_string_equal(fail_reason(&f), "copying: out of memory");
	fail_clear(&f);
	isl_ctx_free(ctx);
}

/* The operation limit is a refusal that names the limit. */
static void test_quota_is_a_refusal(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	isl_set *set = isl_set_read_from_str(
		ctx, "[n] -> { [i, j, k] : 0 <= k <= j <= i < n and i mod 3 = 1 and j != 2k }");
	isl_ctx_set_max_operations(ctx, 1);
	isl_ctx_reset_operations(ctx);
	isl_set *c = isl_set_coalesce(isl_set_complement(set));
	isl_set_free(c);
	assert_int_equal(isl_ctx_last_error(ctx), isl_error_quota);
	struct fail f = {0};
	fail_isl(&f, ctx, "coalescing");
	assert_int_equal(f.kind, FAIL_REFUSED);
	assert_string_equal(fail_reason(&f), "coalescing: the ISL operation limit (1) was reached");
	fail_clear(&f);
	isl_ctx_free(ctx);
}

/* An aborted context: every failure is the deadline's, and a released
 * context works again. */
static void test_abort_is_the_deadline(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	assert_false(session_ctx_stopped(ctx));
	isl_set *set = isl_set_read_from_str(
		ctx, "[n] -> { [i, j, k] : 0 <= k <= j <= i < n and 3i + 5j - 7k >= n }");
	assert_non_null(set);
	isl_ctx_abort(ctx);
	/* a parametric optimization pivots, and each pivot asks whether to go on */
	isl_set *least = isl_set_lexmin(isl_set_copy(set));
	assert_null(least);
	assert_true(session_ctx_stopped(ctx));
	struct fail f = {0};
	fail_isl(&f, ctx, "testing emptiness");
	assert_int_equal(f.kind, FAIL_REFUSED);
	assert_string_equal(fail_reason(&f), "testing emptiness: the run's time limit ran out");
	fail_clear(&f);
	session_ctx_release(NULL, ctx);
	assert_false(session_ctx_stopped(ctx));
	least = isl_set_lexmin(isl_set_copy(set));
	assert_non_null(least);
	isl_set_free(least);
	isl_set_free(set);
	isl_ctx_free(ctx);
}

/* The watchdog aborts the contexts it knows once the deadline passes, and a
 * context made afterwards at once.  Waits for the deadline, however slow the
 * machine, without measuring anything. */
static void test_watchdog_aborts(void **state)
{
	(void)state;
	struct session *s = session_start(0.01);
	assert_non_null(s);
	assert_true(session_limit(s) == 0.01);
	isl_ctx *a = session_ctx(s);
	assert_non_null(a);
	struct timespec nap = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 60000 && !session_expired(s); i++)
		nanosleep(&nap, NULL);
	assert_true(session_expired(s));
	assert_true(session_ctx_stopped(a));
	isl_ctx *b = session_ctx(s);
	assert_true(session_ctx_stopped(b));
	session_ctx_free(s, b);
	session_ctx_release(s, a);
	assert_false(session_ctx_stopped(a));
	isl_ctx_free(a);
	session_end(s);

	/* no deadline: no watchdog, never expired */
	s = session_start(0);
	assert_non_null(s);
	assert_false(session_expired(s));
	a = session_ctx(s);
	assert_false(session_ctx_stopped(a));
	session_ctx_free(s, a);
	session_end(s);
}

/* A share stops its own context and no other, before the deadline; a new
 * share resumes the context; a lifted share stops nothing.  Waits for the
 * share, however slow the machine (the deadline is an hour away). */
static void test_share_stops_one_context(void **state)
{
	(void)state;
	struct session *s = session_start(3600);
	assert_non_null(s);
	assert_true(session_left(s) > 3500 && session_left(s) <= 3600);
	isl_ctx *a = session_ctx(s), *b = session_ctx(s);
	assert_non_null(a);
	assert_non_null(b);
	session_ctx_share(s, a, 0.01);
	struct timespec nap = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 60000 && !session_ctx_stopped(a); i++)
		nanosleep(&nap, NULL);
	assert_true(session_ctx_stopped(a));
	double share = 0;
	assert_true(session_ctx_share_spent(s, a, &share));
	assert_true(share > 0.005 && share < 1); /* the share's length, not the time it ran */
	assert_false(session_ctx_stopped(b));
	assert_false(session_ctx_share_spent(s, b, NULL));
	assert_false(session_expired(s));
	/* the next job on A: resumed, with no share */
	session_ctx_share(s, a, 0);
	assert_false(session_ctx_stopped(a));
	assert_false(session_ctx_share_spent(s, a, NULL));
	/* a share lifted before it ends stops nothing, and a share is never
	 * made shorter: B's share of a tenth of a second is lifted at once,
	 * A's of an hour is not cut to a hundredth, and both still run half a
	 * second later (a slow machine can only make this pass, never fail) */
	session_ctx_share(s, b, 0.1);
	session_ctx_reshare(s, b, 0);
	session_ctx_share(s, a, 3600);
	session_ctx_reshare(s, a, 0.01);
	struct timespec half = {0, 500 * 1000 * 1000};
	nanosleep(&half, NULL);
	assert_false(session_ctx_stopped(b));
	assert_false(session_ctx_stopped(a));
	/* and a share made longer stops later: A's hundredth, made an hour */
	session_ctx_share(s, a, 0.01);
	session_ctx_reshare(s, a, 3600);
	nanosleep(&half, NULL);
	assert_false(session_ctx_stopped(a));
	session_ctx_free(s, a);
	session_ctx_free(s, b);
	session_end(s);

	/* no deadline: shares are nothing */
	s = session_start(0);
	a = session_ctx(s);
	session_ctx_share(s, a, 0.001);
	nanosleep(&nap, NULL);
	assert_false(session_ctx_stopped(a));
	assert_true(session_left(s) == 0);
	session_ctx_free(s, a);
	session_end(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_failure_wins),
		cmocka_unit_test(test_isl_error_keeps_isl_message),
		cmocka_unit_test(test_quota_is_a_refusal),
		cmocka_unit_test(test_abort_is_the_deadline),
		cmocka_unit_test(test_watchdog_aborts),
		cmocka_unit_test(test_share_stops_one_context),
	};
	return cmocka_run_group_tests_name("fail", tests, NULL, NULL);
}
