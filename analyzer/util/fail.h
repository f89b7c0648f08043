/* The failure policy: the first failure wins.
 *
 * Every phase that can fail keeps one struct fail.  The first failure set
 * stays, with its reason; later ones are dropped, so a report always names
 * the cause and not a consequence.  NULL from a function means failure, and
 * nothing else: a zero count is a zero object.
 *
 *   FAIL_REFUSED  no exact route within the method or its limits (an
 *                 operation limit, the run's deadline, 64-bit coefficients,
 *                 a shape the method does not cover); the reason says which
 *   FAIL_ERROR    ISL, the engine or memory failed; the reason is ISL's own
 *                 message, and "out of memory" only when memory ran out
 *
 * A plain allocation failure is fail_nomem; an ISL failure is fail_isl,
 * which reads the context's error. */
#ifndef BSPCOST_FAIL_H
#define BSPCOST_FAIL_H

#include <stdbool.h>

#include <isl/ctx.h>

enum fail_kind {
	FAIL_NONE,
	FAIL_REFUSED,
	FAIL_ERROR,
};

struct fail {
	enum fail_kind kind;
	char *reason;   /* malloc'd; NULL while kind is FAIL_NONE (or when even
			 * the reason could not be allocated: fail_reason says so) */
};

/* Records KIND (not FAIL_NONE) with the reason FMT unless F already failed. */
void fail_set(struct fail *f, enum fail_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same with REASON, malloc'd and taken (NULL: out of memory). */
void fail_take(struct fail *f, enum fail_kind kind, char *reason);

/* A plain allocation failed. */
void fail_nomem(struct fail *f);

/* An operation on CTX failed (WHAT, a format, names it): the run's deadline
 * and ISL's operation limit are refusals, anything else an error with ISL's
 * message ("out of memory" when ISL says so, or records no error: then an
 * allocation of ours failed).  Clears the context's error for what follows. */
void fail_isl(struct fail *f, __isl_keep isl_ctx *ctx, const char *what, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether F has failed. */
static inline bool failed(const struct fail *f)
{
	return f->kind != FAIL_NONE;
}

/* F's reason ("out of memory" when it could not be kept); NULL when F has
 * not failed. */
const char *fail_reason(const struct fail *f);

/* F's reason, handed over (malloc'd; NULL when F has not failed, or out of
 * memory); F is cleared. */
char *fail_release(struct fail *f);

void fail_clear(struct fail *f);

#endif
