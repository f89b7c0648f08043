/* A condition of the specification at given values: whether each normalized
 * atom holds, in exact integer arithmetic (GMP), so that a message can name
 * the assumption a set of values breaks. */
#include <gmp.h>

#include "analyzer/check/check.h"

/* OUT = V, whatever the width of long. */
static void set_ll(mpz_t out, long long v)
{
	mpz_set_si(out, (long)(v / 65536 / 65536));
	mpz_mul_2exp(out, out, 32);
	long long low = v % (65536LL * 65536LL); /* same sign as v */
	if (low >= 0)
		mpz_add_ui(out, out, (unsigned long)low);
	else
		mpz_sub_ui(out, out, (unsigned long)-low);
}

/* F at the values into OUT; -1 when F names a variable or a value not known
 * (KNOWN[0] for the parameters, KNOWN[1] for the axes: NULL when all are). */
static int affine_at(const struct affine *f, const long long params[], const long long axes[],
		     const bool *const known[2], mpz_t out)
{
	mpz_t c, v;
	mpz_inits(c, v, NULL);
	set_ll(out, f->constant);
	int r = 0;
	for (int i = 0; i < f->nterms && r == 0; i++) {
		const struct affine_term *term = &f->terms[i];
		if (term->kind == SYM_PARAM && (!known[0] || known[0][term->index]))
			set_ll(v, params[term->index]);
		else if (term->kind == SYM_GRID_AXIS && (!known[1] || known[1][term->index]))
			set_ll(v, axes[term->index]);
		else
			r = -1;
		set_ll(c, term->coef);
		mpz_addmul(out, c, v);
	}
	mpz_clears(c, v, NULL);
	return r;
}

int cond_atoms_hold(const struct cond_atom *atoms, int n, const long long params[],
		    const bool pknown[], const long long axes[], const bool aknown[])
{
	const bool *const known[2] = {pknown, aknown};
	mpz_t f, d;
	mpz_inits(f, d, NULL);
	int r = 1;
	for (int i = 0; i < n && r == 1; i++) {
		const struct cond_atom *a = &atoms[i];
		if (a->kind == ATOM_OWNER || affine_at(&a->f, params, axes, known, f) < 0) {
			r = -1;
			break;
		}
		switch (a->kind) {
		case ATOM_GE0:
			r = mpz_sgn(f) >= 0;
			break;
		case ATOM_EQ0:
			r = mpz_sgn(f) == 0;
			break;
		case ATOM_NE0:
			r = mpz_sgn(f) != 0;
			break;
		case ATOM_DIVIDES:
			if (affine_at(&a->divisor, params, axes, known, d) < 0 || mpz_sgn(d) <= 0)
				r = -1;
			else
				r = mpz_divisible_p(f, d) != 0;
			break;
		case ATOM_OWNER:
			break;
		}
	}
	mpz_clears(f, d, NULL);
	return r;
}
