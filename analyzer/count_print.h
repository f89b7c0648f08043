/* TEMPORARY: a minimal, correct infix printer for --count until analyzer/formula.h
 * (formula_from_pw_qpolynomial / formula_to_string) lands; see count_print.c. */
#ifndef BSPCOST_COUNT_PRINT_H
#define BSPCOST_COUNT_PRINT_H

#include <isl/polynomial.h>

/* pwqp (on a parameter space) as `cond ? e : cond ? e : 0`, or a bare `e` when one
 * piece covers every parameter value.  malloc'd; NULL on failure. */
char *count_print_formula(__isl_keep isl_pw_qpolynomial *pwqp);

#endif
