#include "analyzer/util/val.h"

#include <limits.h>

#include <gmp.h>
#include <isl/val_gmp.h>

bool val_to_ll(__isl_take isl_val *v, long long *out)
{
	bool ok = v && isl_val_is_int(v) == isl_bool_true && isl_val_cmp_si(v, LONG_MAX) <= 0 &&
		  isl_val_cmp_si(v, LONG_MIN) >= 0;
	if (ok)
		*out = isl_val_get_num_si(v);
	isl_val_free(v);
	return ok;
}

__isl_give isl_val *val_from_ll(isl_ctx *ctx, long long x)
{
	_Static_assert(sizeof(long) == sizeof(long long), "long is 64 bits");
	return isl_val_int_from_si(ctx, (long)x);
}

__isl_give isl_val *val_from_fmpq(isl_ctx *ctx, const fmpq_t c)
{
	mpz_t n, d;
	mpz_init(n);
	mpz_init(d);
	fmpz_get_mpz(n, fmpq_numref(c));
	fmpz_get_mpz(d, fmpq_denref(c));
	isl_val *v = isl_val_div(isl_val_int_from_gmp(ctx, n), isl_val_int_from_gmp(ctx, d));
	mpz_clear(n);
	mpz_clear(d);
	return v;
}
