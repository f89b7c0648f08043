#include "analyzer/util/val.h"

#include <limits.h>

#include <gmp.h>
#include <isl/aff.h>
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

bool val_to_mpq(__isl_take isl_val *v, mpq_t out)
{
	bool ok = v && isl_val_is_rat(v) == isl_bool_true;
	if (ok) {
		isl_val_get_num_gmp(v, mpq_numref(out));
		isl_val_get_den_gmp(v, mpq_denref(out));
		mpq_canonicalize(out);
	}
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

bool basic_set_has_unknown_div(__isl_keep isl_basic_set *bset)
{
	isl_size n = isl_basic_set_dim(bset, isl_dim_div);
	bool unknown = n < 0;
	for (int i = 0; i < n && !unknown; i++) {
		isl_aff *div = isl_basic_set_get_div(bset, i);
		unknown = !div;
		isl_aff_free(div);
	}
	if (unknown)
		isl_ctx_reset_error(isl_basic_set_get_ctx(bset));
	return unknown;
}

static isl_stat unknown_div_in(__isl_take isl_basic_set *bset, void *user)
{
	bool *found = user;
	*found |= basic_set_has_unknown_div(bset);
	isl_basic_set_free(bset);
	return *found ? isl_stat_error : isl_stat_ok;   /* stop at the first */
}

int set_has_unknown_div(__isl_keep isl_set *set)
{
	bool found = false;
	if (isl_set_foreach_basic_set(set, unknown_div_in, &found) < 0 && !found)
		return -1;
	return found;
}
