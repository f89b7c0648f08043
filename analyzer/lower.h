/* Lowering: the checked specification (analyzer/check.h) as the polyhedral model
 * the cost analysis reads (analyzer/model.h). */
#ifndef BSPCOST_LOWER_H
#define BSPCOST_LOWER_H

#include "analyzer/check.h"
#include "analyzer/model.h"

/* The model of CS, or NULL with *REASON (malloc'd) saying what the analysis does
 * not support yet. */
struct model *lower_spec(const struct checked_spec *cs, char **reason);

#endif
