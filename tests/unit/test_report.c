/* The report's exact numbers (report_number): integers as they are, a
 * fraction whose denominator is 2^a * 5^b as its exact decimal, any other as
 * a fraction; the same rounded for --digits (report_number_digits); and -D
 * values read back (param_value_get). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include <cmocka.h>

#include "analyzer/report/report.h"

static void expect(long num, long den, const char *want)
{
	mpq_t q;
	mpq_init(q);
	mpq_set_si(q, num, (unsigned long)den);
	mpq_canonicalize(q);
	char *got = report_number(q);
	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("%ld/%ld: got %s, want %s", num, den, got, want);
	free(got);
	mpq_clear(q);
}

static void expect_digits(long num, long den, int digits, const char *want)
{
	mpq_t q;
	mpq_init(q);
	mpq_set_si(q, num, (unsigned long)den);
	mpq_canonicalize(q);
	char *got = report_number_digits(q, digits);
	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("%ld/%ld with %d digits: got %s, want %s", num, den, digits, got, want);
	free(got);
	mpq_clear(q);
}

/* --digits: integers and short decimals exact, the rest rounded and marked. */
static void test_digits(void **state)
{
	(void)state;
	expect_digits(1, 3, 0, "1/3"); /* 0: exact */
	expect_digits(1, 3, 3, "~0.333");
	expect_digits(2, 3, 3, "~0.667");
	expect_digits(-2, 3, 2, "~-0.67");
	expect_digits(2291, 3, 4, "~763.7");
	expect_digits(2291, 3, 3, "~764");
	expect_digits(123456789, 1, 2, "123456789"); /* an integer stays */
	expect_digits(51, 5, 3, "10.2");             /* 3 significant digits: exact */
	expect_digits(1026, 100, 3, "~10.3");
	expect_digits(1, 1000, 1, "0.001");          /* leading zeros do not count */
	expect_digits(12345, 100, 5, "123.45");
	expect_digits(12345, 100, 4, "~123.5");
	expect_digits(1, 7, 12, "~0.142857142857");
}

/* Every n/d (|n| <= 200, 1 <= d <= 40) at 1 to 5 digits, read back: the text
 * is an exact decimal of at most that many significant digits after its
 * point, within |n/d| * 5 / 10^k of n/d (half a unit of the k-th significant
 * digit), and marked '~' exactly when it is not n/d. */
static void test_digits_bound(void **state)
{
	(void)state;
	mpq_t q, got, err, half;
	mpz_t tenk;
	mpq_inits(q, got, err, half, NULL);
	mpz_init(tenk);
	for (long n = -200; n <= 200; n++)
		for (long d = 1; d <= 40; d++)
			for (int k = 1; k <= 5; k++) {
				mpq_set_si(q, n, (unsigned long)d);
				mpq_canonicalize(q);
				char *t = report_number_digits(q, k);
				assert_non_null(t);
				const char *p = t[0] == '~' ? t + 1 : t;
				if (strchr(p, '/')) { /* only an exact fraction, unrounded */
					fail_msg("%ld/%ld at %d digits: %s", n, d, k, t);
				}
				/* the digits, the point's place */
				char buf[128];
				int nd = 0, frac = -1, sig = 0;
				bool lead = true;
				for (const char *c = p; *c; c++) {
					if (*c == '.') {
						frac = 0;
						continue;
					}
					buf[nd++] = *c;
					if (frac >= 0)
						frac++;
					if (*c >= '1' && *c <= '9')
						lead = false;
					if (!lead && *c >= '0' && *c <= '9')
						sig++;
				}
				buf[nd] = '\0';
				mpq_set_str(got, buf, 10);
				mpz_ui_pow_ui(mpq_denref(got), 10, (unsigned long)(frac < 0 ? 0 : frac));
				mpq_canonicalize(got);
				bool integer = mpz_cmp_ui(mpq_denref(q), 1) == 0;
				if (!integer && sig > k && frac > 0)
					fail_msg("%ld/%ld at %d digits: %s has %d", n, d, k, t, sig);
				mpq_sub(err, got, q);
				mpq_abs(err, err);
				/* half a unit of the k-th significant digit is at most
				 * |n/d| * 5 / 10^k */
				mpq_abs(half, q);
				mpz_mul_ui(mpq_numref(half), mpq_numref(half), 5);
				mpz_ui_pow_ui(tenk, 10, (unsigned long)k);
				mpz_mul(mpq_denref(half), mpq_denref(half), tenk);
				mpq_canonicalize(half);
				if (mpq_cmp(err, half) > 0)
					fail_msg("%ld/%ld at %d digits: %s is too far", n, d, k, t);
				if ((t[0] == '~') != (mpq_sgn(err) != 0))
					fail_msg("%ld/%ld at %d digits: %s marked wrongly", n, d, k, t);
				free(t);
			}
	mpq_clears(q, got, err, half, NULL);
	mpz_clear(tenk);
}

static void test_numbers(void **state)
{
	(void)state;
	expect(0, 1, "0");
	expect(7, 1, "7");
	expect(-3, 1, "-3");
	expect(51, 5, "10.2");
	expect(1, 8, "0.125");
	expect(-1, 8, "-0.125");
	expect(1, 3, "1/3");
	expect(-2, 6, "-1/3");
	expect(7, 250, "0.028");
	expect(1, 1000, "0.001");
	expect(12345, 100, "123.45");
	expect(-12345, 100, "-123.45");
	expect(3, 2, "1.5");
	expect(1, 1024, "0.0009765625");
	expect(7, 6, "7/6");
	expect(9223372036854775807L, 2, "4611686018427387903.5");
}

/* Every fraction n/d with |n| <= 300 and 1 <= d <= 64 against an independent
 * reading: a decimal text is parsed back and compared exactly, a fraction
 * text must be the lowest terms. */
static void test_round_trip(void **state)
{
	(void)state;
	mpq_t q, back;
	mpq_inits(q, back, NULL);
	for (long n = -300; n <= 300; n++)
		for (long d = 1; d <= 64; d++) {
			mpq_set_si(q, n, (unsigned long)d);
			mpq_canonicalize(q);
			char *s = report_number(q);
			assert_non_null(s);
			char *dot = strchr(s, '.');
			if (dot) {
				/* digits before and after the point: I + F / 10^|F| */
				size_t nf = strlen(dot + 1);
				char *joined = malloc(strlen(s) + 1);
				assert_non_null(joined);
				memcpy(joined, s, (size_t)(dot - s));
				strcpy(joined + (dot - s), dot + 1);
				mpz_t ten;
				mpz_init(ten);
				mpz_ui_pow_ui(ten, 10, (unsigned long)nf);
				assert_int_equal(mpz_set_str(mpq_numref(back), joined, 10), 0);
				mpz_set(mpq_denref(back), ten);
				mpq_canonicalize(back);
				mpz_clear(ten);
				free(joined);
				assert_true(dot > s && dot[1] != '\0');
				/* no trailing zero: the shortest exact decimal */
				assert_true(s[strlen(s) - 1] != '0');
			} else {
				assert_int_equal(mpq_set_str(back, s, 10), 0);
				assert_true(mpz_cmp(mpq_denref(back), mpq_denref(q)) == 0);
			}
			if (!mpq_equal(q, back))
				fail_msg("%ld/%ld printed as %s", n, d, s);
			free(s);
		}
	mpq_clears(q, back, NULL);
}

static void test_param_value(void **state)
{
	(void)state;
	mpq_t q;
	mpq_init(q);
	struct param_value plain = {"n", 12, 0}, frac = {"g", 51, 5};
	param_value_get(q, &plain);
	assert_true(mpq_cmp_si(q, 12, 1) == 0);
	param_value_get(q, &frac);
	assert_true(mpq_cmp_si(q, 51, 5) == 0);
	mpq_clear(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_digits_bound),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_param_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
