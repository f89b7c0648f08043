/* analyzer/formula/latex_break.h: long LaTeX formulas broken into lines.
 * The widths are estimates; what is pinned here is where lines break and
 * that nothing of the formula is lost or changed but the breaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/formula/latex_break.h"

/* S without the aligned environment, each line break back to the blank it
 * replaced (for formulas broken only at blanks). */
static char *unbroken(const char *s)
{
	char *out = calloc(strlen(s) + 1, 1);
	const char *open = "\\begin{aligned}[t] &", *close = " \\end{aligned}";
	const char *brk = " \\\\ &\\quad {}";
	size_t n = 0;
	while (*s) {
		if (strncmp(s, open, strlen(open)) == 0) {
			s += strlen(open);
		} else if (strncmp(s, close, strlen(close)) == 0) {
			s += strlen(close);
		} else if (strncmp(s, brk, strlen(brk)) == 0) {
			s += strlen(brk);
			out[n++] = ' ';
		} else {
			out[n++] = *s++;
		}
	}
	return out;
}

static void test_short_unchanged(void **state)
{
	(void)state;
	char *s = latex_break("\\frac{3n}{P} + 2g + l", 40);
	assert_string_equal(s, "\\frac{3n}{P} + 2g + l");
	free(s);
	s = latex_break("a + b", 0); /* no limit */
	assert_string_equal(s, "a + b");
	free(s);
}

static void test_sum_breaks_before_operators(void **state)
{
	(void)state;
	/* 12 terms of width 1.1 + 2.4 each: about 42 digits */
	const char *f = "a + b + c + d + e - f + g + h + i + j + k + m";
	char *s = latex_break(f, 15);
	assert_non_null(strstr(s, "\\begin{aligned}[t] &a + b + c"));
	assert_non_null(strstr(s, " \\\\ &\\quad {}+ "));
	/* every line fits: no line has more than 15 digits of estimate */
	int lines = 0;
	for (const char *p = s, *e; p; p = e ? e + 2 : NULL, lines++) {
		e = strstr(p, "\\\\");
		char *line = strndup(p, e ? (size_t)(e - p) : strlen(p));
		/* "[t]" of the environment and "\quad" of a continuation: 4.6 */
		assert_true(latex_width(line) <= 15 + 4.6);
		free(line);
	}
	assert_true(lines >= 3);
	char *u = unbroken(s);
	assert_string_equal(u, f);
	free(u);
	free(s);
}

static void test_conditions_break_at_and(void **state)
{
	(void)state;
	const char *c = "M = 1 \\land N \\geq 3 \\land n \\geq 3 \\land m \\geq 5 \\land o \\geq 7";
	char *s = latex_break(c, 20);
	assert_non_null(strstr(s, " \\\\ &\\quad {}\\land "));
	assert_null(strstr(s, "\\land \\\\")); /* the operator starts the next line */
	free(s);
}

static void test_groups_are_not_broken(void **state)
{
	(void)state;
	/* the + inside \left ... \right and inside braces stay */
	const char *f = "\\left\\lfloor \\frac{a + b + c + d + e}{3} \\right\\rfloor + x^{a + b + c}";
	char *s = latex_break(f, 12);
	assert_null(strstr(s, "\\frac{a \\\\"));
	assert_non_null(strstr(s, "\\right\\rfloor \\\\ &\\quad {}+ x^{a + b + c}"));
	free(s);
}

static void test_wide_fraction_opened(void **state)
{
	(void)state;
	const char *f = "\\frac{mo(N-1) + no(M-1) + mn(o-1) + mno(M-1)}{MN}";
	char *s = latex_break(f, 20);
	assert_non_null(strstr(s, "\\frac{1}{MN}\\bigl(mo(N-1)"));
	assert_non_null(strstr(s, "\\bigr) \\end{aligned}"));
	free(s);
}

static void test_max_arguments(void **state)
{
	(void)state;
	const char *f = "\\max(aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd)";
	char *s = latex_break(f, 25);
	/* a line ends after a comma, the next starts with the argument */
	assert_non_null(strstr(s, ", \\\\ &\\quad {}"));
	char *u = unbroken(s);
	assert_string_equal(u, f);
	free(u);
	free(s);
}

static void test_widths(void **state)
{
	(void)state;
	/* a fraction is as wide as its wider part */
	assert_true(latex_width("\\frac{abcdef}{2}") < latex_width("abcdef2"));
	/* capitals are wider than small letters, relations than letters */
	assert_true(latex_width("MN") > latex_width("mn"));
	assert_true(latex_width("a \\geq b") > latex_width("a b c"));
	assert_true(latex_width(NULL) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_unchanged),
		cmocka_unit_test(test_sum_breaks_before_operators),
		cmocka_unit_test(test_conditions_break_at_and),
		cmocka_unit_test(test_groups_are_not_broken),
		cmocka_unit_test(test_wide_fraction_opened),
		cmocka_unit_test(test_max_arguments),
		cmocka_unit_test(test_widths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
