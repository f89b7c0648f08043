/* The one linear-form printer (analyzer/util/text.h): signs, unit and zero
 * coefficients, the constant, and the extremes of long long, against the
 * texts written out by hand. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analyzer/util/text.h"

/* The text of the terms COEF[i]*NAME[i] (N of them) and CONSTANT. */
static char *linear(int n, const long long coef[], const char *const name[], long long constant)
{
	struct text t;
	assert_int_equal(text_open(&t), 0);
	struct text_linear l = {t.f, 0};
	for (int i = 0; i < n; i++)
		text_linear_term(&l, coef[i], name[i]);
	text_linear_end(&l, constant);
	char *s = text_close(&t);
	assert_non_null(s);
	return s;
}

static void expect(int n, const long long coef[], const char *const name[], long long constant,
		   const char *want)
{
	char *got = linear(n, coef, name, constant);
	assert_string_equal(got, want);
	free(got);
}

static void test_linear_forms(void **state)
{
	(void)state;
	const char *const ij[] = {"i", "j", "k"};
	expect(0, NULL, NULL, 0, "0");
	expect(0, NULL, NULL, -7, "-7");
	expect(3, (const long long[]){2, -1, 3}, ij, 3, "2*i - j + 3*k + 3");
	expect(3, (const long long[]){-1, 0, 1}, ij, 0, "-i + k");
	expect(3, (const long long[]){0, 0, 0}, ij, -4, "-4");
	expect(2, (const long long[]){0, -2}, ij, -1, "-2*j - 1");
	expect(1, (const long long[]){1}, (const char *const[]){"n"}, -1, "n - 1");
	expect(1, (const long long[]){LLONG_MIN}, ij, LLONG_MIN,
	       "-9223372036854775808*i - 9223372036854775808");
	expect(1, (const long long[]){LLONG_MAX}, ij, LLONG_MAX,
	       "9223372036854775807*i + 9223372036854775807");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
