/* number_parse: the exact numbers of -D and of the machine profiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analyzer/util/number.h"

/* TEXT reads as NUM/DEN exactly. */
static void reads(const char *text, long num, unsigned long den)
{
	mpq_t q, want;
	mpq_inits(q, want, NULL);
	mpq_set_si(want, num, den);
	mpq_canonicalize(want);
	if (number_parse(text, q) != 0)
		fail_msg("'%s' refused", text);
	if (!mpq_equal(q, want))
		fail_msg("'%s' read as %s", text, mpq_get_str(NULL, 10, q));
	mpq_clears(q, want, NULL);
}

static void refuses(const char *text, int want)
{
	mpq_t q;
	mpq_init(q);
	mpq_set_ui(q, 7, 1);
	assert_int_equal(number_parse(text, q), want);
	assert_true(mpq_cmp_ui(q, 7, 1) == 0); /* unchanged */
	mpq_clear(q);
}

static void test_forms(void **state)
{
	(void)state;
	reads("0", 0, 1);
	reads("-12", -12, 1);
	reads("+5", 5, 1);
	reads("10.2", 51, 5);
	reads("-0.125", -1, 8);
	reads("0.007", 7, 1000);
	reads("26e6", 26000000, 1);
	reads("3042e-6", 3042, 1000000);
	reads("1.5E+3", 1500, 1);
	reads("2.5e-1", 1, 4);
	reads("1/3", 1, 3);
	reads("-6/4", -3, 2);
	reads("160.0", 160, 1);
	reads("0e5", 0, 1);
}

static void test_refusals(void **state)
{
	(void)state;
	const char *bad[] = {"", "-", ".5", "3.", "1.2.3", "1e", "1e+", "e5", "1/", "/2",
			     "1/2/3", "1.5/2", "1e5/2", " 1", "1 ", "0x10", "1,5", "ten", "1/-2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		refuses(bad[i], -1);
	refuses("1/0", -2);
	refuses("1e10001", -3);
	refuses("1e-10001", -3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
