/* Exact numbers from text (number.h). */
#include "analyzer/util/number.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The number of decimal digits at S. */
static size_t digits(const char *s)
{
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* Z = the N digits at S. */
static int set_digits(mpz_t z, const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		return -1;
	memcpy(d, s, n);
	d[n] = '\0';
	int r = mpz_set_str(z, d, 10);
	free(d);
	return r;
}

int number_parse(const char *text, mpq_t out)
{
	const char *p = text;
	bool neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	size_t ni = digits(p);
	if (ni == 0)
		return -1;
	const char *frac = NULL, *slash = NULL, *expo = NULL;
	size_t nf = 0, nd = 0;
	const char *q = p + ni;
	if (*q == '/') {
		slash = q + 1;
		nd = digits(slash);
		if (nd == 0 || slash[nd] != '\0')
			return -1;
	} else {
		if (*q == '.') {
			frac = q + 1;
			nf = digits(frac);
			if (nf == 0)
				return -1;
			q = frac + nf;
		}
		if (*q == 'e' || *q == 'E') {
			expo = q + 1;
			const char *e = expo + (*expo == '-' || *expo == '+');
			size_t ne = digits(e);
			if (ne == 0 || e[ne] != '\0')
				return -1;
		} else if (*q != '\0') {
			return -1;
		}
	}
	mpz_t num, den, t;
	mpz_inits(num, den, t, NULL);
	int r = set_digits(num, p, ni);
	mpz_set_ui(den, 1);
	if (r == 0 && slash) {
		r = set_digits(den, slash, nd);
		if (r == 0 && mpz_sgn(den) == 0)
			r = -2;
	}
	if (r == 0 && frac) {
		/* I.F = (I * 10^|F| + F) / 10^|F| */
		mpz_ui_pow_ui(den, 10, (unsigned long)nf);
		mpz_mul(num, num, den);
		r = set_digits(t, frac, nf);
		mpz_add(num, num, t);
	}
	if (r == 0 && expo) {
		long e = strtol(expo, NULL, 10);
		if (e > 10000 || e < -10000) {
			r = -3;
		} else {
			mpz_ui_pow_ui(t, 10, (unsigned long)(e < 0 ? -e : e));
			mpz_mul(e < 0 ? den : num, e < 0 ? den : num, t);
		}
	}
	if (r == 0) {
		mpz_set(mpq_numref(out), num);
		mpz_set(mpq_denref(out), den);
		mpq_canonicalize(out);
		if (neg)
			mpq_neg(out, out);
	}
	mpz_clears(num, den, t, NULL);
	return r < 0 && r != -2 && r != -3 ? -1 : r;
}
