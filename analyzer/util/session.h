/* The run's session: its one deadline, and every ISL context it creates.
 *
 * Every ISL context of bspcost comes from session_ctx: errors are returned
 * (ISL_ON_ERROR_CONTINUE), never printed or fatal, and a context is known to
 * the session's watchdog until session_ctx_release.  When the deadline
 * passes, the watchdog thread calls isl_ctx_abort on each context it knows,
 * which is how ISL lets another thread stop a computation: from then on every
 * ISL operation on it fails with isl_error_abort, and the counting engine,
 * which checks isl_ctx_aborted between its own steps, stops too.  A context
 * created after the deadline is aborted at once.
 *
 * A NULL session has no deadline: its contexts are plain (unit tests, and
 * callers that only need one of the right kind). */
#ifndef BSPCOST_SESSION_H
#define BSPCOST_SESSION_H

#include <stdbool.h>

#include <isl/ctx.h>

struct session;

/* A session whose deadline is SECONDS from now (0: none; the watchdog thread
 * then does not exist).  NULL when out of memory or when the thread could
 * not start (the caller says so: a deadline asked for is never dropped). */
struct session *session_start(double seconds);

/* Stops the watchdog.  Every context must have been released or freed. */
void session_end(struct session *s);

/* The limit asked for, in seconds (0: none). */
double session_limit(const struct session *s);

/* Whether the deadline has passed. */
bool session_expired(struct session *s);

/* A new context, known to the watchdog of S (S may be NULL); NULL when out of
 * memory. */
__isl_give isl_ctx *session_ctx(struct session *s);

/* CTX (a context of session_ctx that was released) is known to the
 * watchdog of S again, for another phase of computation on what was built
 * there: stopped at once when the deadline has passed.  Returns 0, or -1
 * when out of memory (CTX is then not watched). */
int session_ctx_watch(struct session *s, __isl_keep isl_ctx *ctx);

/* CTX stays alive but the watchdog forgets it, and a computation it stopped is
 * forgotten too (isl_ctx_resume): what was built there before the deadline
 * can still be printed. */
void session_ctx_release(struct session *s, __isl_keep isl_ctx *ctx);

/* Releases CTX and frees it. */
void session_ctx_free(struct session *s, __isl_take isl_ctx *ctx);

/* The seconds left before the deadline (0 with none, or past it). */
double session_left(struct session *s);

/* Shares of the deadline, so that one long job does not take the whole run
 * while others wait (workers.c): CTX (watched) is stopped SECONDS from now
 * as the deadline would stop it, or only by the deadline when SECONDS <= 0.
 * A context its last share stopped is resumed first: a new job starts on it.
 * Nothing with no deadline. */
void session_ctx_share(struct session *s, __isl_keep isl_ctx *ctx, double seconds);

/* The running job's share on CTX now ends SECONDS from now if that is later
 * than it did, or is lifted when SECONDS <= 0 (the deadline alone stops it);
 * a job its share already stopped stays stopped. */
void session_ctx_reshare(struct session *s, __isl_keep isl_ctx *ctx, double seconds);

/* Whether CTX's share, and not the deadline, stopped its job; then *SECONDS
 * (SECONDS may be NULL) is how long the share was, from the job's start. */
bool session_ctx_share_spent(struct session *s, __isl_keep isl_ctx *ctx, double *seconds);

/* Whether ISL stopped a computation on CTX for the deadline (the context
 * was aborted, or its last error is isl_error_abort). */
bool session_ctx_stopped(__isl_keep isl_ctx *ctx);

#endif
