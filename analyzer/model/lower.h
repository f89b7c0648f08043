/* Lowering: the checked specification (analyzer/check/check.h) as the polyhedral model
 * the cost analysis reads (analyzer/model/model.h). */
#ifndef BSPCOST_LOWER_H
#define BSPCOST_LOWER_H

#include "analyzer/check/check.h"
#include "analyzer/model/model.h"

/* How the work of a statement is measured (a `work` weight overrides both). */
enum work_measure {
	WORK_TERMS,   /* one unit per term of a sum, as the paper counts */
	WORK_FLOPS,   /* every + - * / once, and n additions for a sum of n terms */
};

/* The model of CS, or NULL with *REASON (malloc'd) saying what the analysis does
 * not support yet. */
struct model *lower_spec(const struct checked_spec *cs, enum work_measure work, char **reason);

#endif
