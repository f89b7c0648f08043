/* A candidate's symbolic formulas, evaluated at many points.
 *
 * -p ranks every shape of a process count at every point of a sweep: each
 * (shape, candidate) pair is counted at its values (milliseconds), and a
 * sweep of many points pays that many times.  Where the symbolic grid has a
 * candidate's formulas, each pair's quantities are those formulas at its
 * point, where the point meets everything they rest on: the same exact
 * numbers (they are the formulas the report prints and tests/brute checks),
 * in microseconds.
 *
 * The formulas are kept as expressions of the machine grammar
 * (formula.h, FORMULA_EXPR_STRICT): no ISL object, so that any thread evaluates
 * them once the isl_ctx they were computed in is gone.  Evaluated as
 * tests/brute/compare.py does with the JSON report's: the kept parameters
 * (block lengths, digits, lg_P) from their definitions, every condition
 * tested, then each quantity. */
#ifndef BSPCOST_COST_FORMULAS_H
#define BSPCOST_COST_FORMULAS_H

#include "analyzer/cost/cost.h"
#include "analyzer/model/model.h"

struct cost_formulas;

/* CC's formulas (CC counted on the symbolic grid, status COST_OK), as
 * expressions; NULL when CC has none or out of memory. */
struct cost_formulas *cost_formulas_from(const struct candidate_cost *cc);
void cost_formulas_free(struct cost_formulas *f);

/* F at the point where the sizes of M are VALUES (model_nsizes of them) and
 * the axes SIZES: into *OUT (clear it with candidate_cost_clear) a candidate
 * whose w, h, h_in, h_out, NCom, runs and memory are numbers, as
 * cost_candidate at values gives them (its cost formulas are left out).
 * Returns 0; -1 when the point does not meet F's conditions, a quantity has
 * no value there or memory ran out: count the point instead (OUT is then
 * empty). */
int cost_formulas_at(const struct cost_formulas *f, const struct model *m,
		     const long long *values, const long sizes[3], struct candidate_cost *out);

#endif
