/* Exact numbers from text: what -D and the machine profiles accept. */
#ifndef BSPCOST_NUMBER_H
#define BSPCOST_NUMBER_H

#include <gmp.h>

/* TEXT as an exact rational into OUT (initialized): an integer (-12), a
 * decimal (10.2), either with an exponent (26e6, 3042e-6, 1.5E+3) or a
 * fraction (1/3), each with an optional sign.  Returns 0; -1 when TEXT is
 * none of these (OUT unchanged), -2 for a fraction with denominator 0, -3
 * for an exponent beyond +-10000. */
int number_parse(const char *text, mpq_t out);

#endif
