/* Coalescing that keeps the points: isl_set_coalesce, isl_map_coalesce and
 * isl_pw_qpolynomial_coalesce, each followed by an exact check that the result
 * has the same points (the same values) as its argument.  When it has not, the
 * argument is returned as it was: more disjuncts, the same points.
 *
 * ISL 0.25's coalescing is not always exact.  Fusing {[o] : 0 <= o <= 1} with
 * {[o] : o even, 0 <= o <= n} (the reads A[0], A[1] and A[k] for even k of
 * tests/brute/specs/parity_union.bsp) by wrapping, it returns
 * {[o] : o >= 0, 2*floor(o/2) <= n}, which has every odd o below n as well:
 * the parity's equality 2*floor(o/2) = o became the two constraints that
 * define floor(o/2), which every o satisfies.  Every coalescing of bspcost
 * goes through these functions; none calls ISL's directly.
 *
 * Each returns NULL when ISL failed (its error, the operation budget's
 * included, is left on the context), like the function it wraps; except
 * that coalesce_pw_qpolynomial has an operation limit of its own, and past
 * it returns its argument's pieces as they were (coalescing only
 * simplifies). */
#ifndef BSPCOST_COALESCE_H
#define BSPCOST_COALESCE_H

#include <isl/map.h>
#include <isl/polynomial.h>
#include <isl/set.h>

__isl_give isl_set *coalesce_set(__isl_take isl_set *set);
__isl_give isl_map *coalesce_map(__isl_take isl_map *map);
__isl_give isl_pw_qpolynomial *coalesce_pw_qpolynomial(__isl_take isl_pw_qpolynomial *pw);

#endif
