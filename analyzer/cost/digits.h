/* Identities between the symbolic grid's digits, for readable values.
 *
 * The digits of two expressions of the sizes under one distribution, E and
 * E + D (kk and kk + b - 1 split block over N: kk = kk_N*(o/N) + kk_Ni), are
 * parameters of their own (analyzer/model/symbolic.h), which ISL knows only
 * within their ranges.  Where a piece's condition fixes the carry between
 * them (e2_N == kk_N: the panel lies in one block), the lower digit of E + D
 * is that of E plus D less the carry's weight (e2_Ni = kk_Ni + b - 1), and
 * where it fixes the lower digits' difference, so is the upper one.  Written
 * so in the piece's value, which then reads as a designer writes it (b, not
 * e2_Ni - kk_Ni + 1).  Exact: the identity holds at every point of such a
 * piece, whatever the sizes. */
#ifndef BSPCOST_COST_DIGITS_H
#define BSPCOST_COST_DIGITS_H

#include <isl/ctx.h>

#include "analyzer/formula/formula.h"
#include "analyzer/model/model.h"
#include "analyzer/model/symbolic.h"

/* F (kept) with those identities written in its values, for every pair of
 * two-digit decompositions of INFO under one distribution, and the
 * operands of max and min they show bounded on CONTEXT (what the formulas
 * take for granted) left out; a copy of F when there is none; NULL on
 * failure. */
struct formula *digits_relate(const struct formula *f, const struct model *m,
			      const struct symbolic_info *info, __isl_keep isl_set *context);

#endif
