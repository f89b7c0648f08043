/* What the counting engine (count.c) and the maximization (count_max.c)
 * share; not for other phases. */
#ifndef BSPCOST_COUNT_INTERNAL_H
#define BSPCOST_COUNT_INTERNAL_H

#include <isl/polynomial.h>

#include "analyzer/count/count.h"

#define NSLOT 48           /* slots per query: parameters + variables + helpers */

/* A malloc'd copy of S, or NULL. */
char *count_dup_msg(const char *s);

/* Starts the engine's ISL operation limit; returns the limit to restore. */
unsigned long count_start_limits(struct count_engine *engine);

/* PW coalesced, without its empty pieces. */
__isl_give isl_pw_qpolynomial *count_clean_result(__isl_take isl_pw_qpolynomial *pw);

#endif
