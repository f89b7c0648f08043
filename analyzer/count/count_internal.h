/* What the counting engine (count.c) and the maximization (count_max.c)
 * share; not for other phases. */
#ifndef BSPCOST_COUNT_INTERNAL_H
#define BSPCOST_COUNT_INTERNAL_H

#include <isl/aff.h>
#include <isl/polynomial.h>

#include "analyzer/count/count.h"

#define NSLOT 48           /* slots per query: parameters + variables + helpers */

/* Union-find over up to 64 items (parent[d] == d for a root): the root of
 * D, and the items of MASK (bit d: item d, d < NS) linked into one group
 * (count.c; the groups of a product's variables, and of a separable
 * maximum's coordinates in count_max.c). */
int count_group_root(int *parent, int d);
void count_group_link(int *parent, int ns, unsigned long long mask);

/* A malloc'd copy of S, or NULL. */
char *count_dup_msg(const char *s);

/* Starts the engine's ISL operation limit; returns the limit to restore. */
unsigned long count_start_limits(struct count_engine *engine);

/* PW coalesced, without its empty pieces. */
__isl_give isl_pw_qpolynomial *count_clean_result(__isl_take isl_pw_qpolynomial *pw);

/* QP (kept) as an isl_aff on its domain space, or NULL when it is not
 * quasi-affine (count_max.c). */
__isl_give isl_aff *count_qp_aff(__isl_keep isl_qpolynomial *qp);

/* The pieces of G (kept) folded (max) over their domains projected on the
 * parameters, when no piece's value involves G's set dimensions (the
 * maximized variables); NULL otherwise (count_max.c). */
__isl_give isl_pw_qpolynomial_fold *count_fold_of_pieces(__isl_keep isl_pw_qpolynomial *g);

/* The end of a maximum's query: R (taken) as *RESULT on COUNT_EXACT, MSG as
 * *REASON otherwise, ISL's failure or the deadline named, the operation
 * limit OLD restored (count_max.c). */
enum count_status count_max_result(isl_ctx *ctx, enum count_status st, const char *msg,
				   __isl_take isl_pw_qpolynomial *r,
				   __isl_give isl_pw_qpolynomial **result, char **reason,
				   unsigned long old);

/* 1 when QP >= 0 at every integer point of DOM (both kept) is proven: QP
 * affine and ISL decides it, or a chain of substitutions of a parameter of
 * degree 1 by one of its bounds in DOM ends in such a proof; 0 when no proof
 * was found; -1 when ISL failed (count_split.c). */
int count_proven_nonneg_on(__isl_keep isl_set *dom, __isl_keep isl_qpolynomial *qp);

/* FOLD (taken) as one function: each piece split into the regions where
 * each of its values is the largest, every comparison affine or proven;
 * NULL when a pair of values is neither (count_split.c). */
__isl_give isl_pw_qpolynomial *count_split_fold(__isl_take isl_pw_qpolynomial_fold *fold);

#endif
