/* --verify: every formula of a candidate against brute-force enumeration.
 *
 * At random points of the parameters (and, on a symbolic grid, of the axis sizes)
 * that satisfy the specification's assumptions and what the candidate's formulas
 * rest on, the relations of each superstep are built on the concrete grid of that
 * point with every parameter fixed, each process's fan-in, fan-out and work are
 * enumerated point by point (isl_set_count_val), and w, h_in, h_out, h, NCom and
 * the cost (with random g and l) are compared with the formulas' values, and
 * with the values counted directly for that point (relations_values, analyzer/model/relations.h). */
#ifndef BSPCOST_VERIFY_H
#define BSPCOST_VERIFY_H

#include <isl/ctx.h>

#include "analyzer/cost/cost.h"
#include "analyzer/model/model.h"

struct verify_result {
	int points;       /* parameter points checked */
	int checks;       /* values compared */
	int mismatches;
	char *first;      /* the first mismatch, described (malloc'd) */
	char *skipped;    /* why no point could be checked, or NULL */
	bool stopped;     /* the run's deadline stopped it (the points before
			   * were checked in full) */
};

/* Checks candidate CAND of M, whose costs CC were computed with REQ, at NPOINTS
 * points drawn with *SEED: its formulas, when it has them, and with ENGINE (on
 * CTX; may be NULL) the values counted directly at each point (cost_candidate
 * with every value known), which a candidate without formulas has too.
 * Returns 0, or -1 when the enumeration itself failed (*VR says why in
 * first). */
int verify_candidate(isl_ctx *ctx, struct count_engine *engine, const struct model *m, int cand,
		     const struct cost_request *req, const struct candidate_cost *cc, int npoints,
		     unsigned *seed, struct verify_result *vr);

void verify_result_clear(struct verify_result *vr);

#endif
