/* Exact conversions between ISL values and C or FLINT numbers, and small
 * facts about ISL objects, shared by every phase that reads or builds them. */
#ifndef BSPCOST_VAL_H
#define BSPCOST_VAL_H

#include <stdbool.h>

#include <gmp.h>
#include <flint/fmpq.h>
#include <isl/set.h>
#include <isl/val.h>

/* V (taken) as a long long in *OUT; false (and *OUT untouched) when V is
 * NaN, not an integer, or out of range. */
bool val_to_ll(__isl_take isl_val *v, long long *out);

/* V (taken) exactly in OUT; false (OUT untouched) when V is no rational
 * number (NaN, infinity) or NULL. */
bool val_to_mpq(__isl_take isl_val *v, mpq_t out);

/* X exactly. */
__isl_give isl_val *val_from_ll(isl_ctx *ctx, long long x);

/* C exactly, whatever its size. */
__isl_give isl_val *val_from_fmpq(isl_ctx *ctx, const fmpq_t c);

/* Whether BSET has an existential variable with no explicit definition (an
 * "unknown div", which ISL will not write as an expression).  Leaves no
 * error on the context. */
bool basic_set_has_unknown_div(__isl_keep isl_basic_set *bset);

/* The same of any basic set of SET; -1 when ISL failed. */
int set_has_unknown_div(__isl_keep isl_set *set);

#endif
