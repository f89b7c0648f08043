/* Candidates analyzed side by side: a pool of threads, each with its own ISL
 * context and counting engine.
 *
 * ISL objects of different contexts must never meet (a parameter named n in one
 * context is not the n of another), so every job does all of its ISL work in
 * its worker's context, and what it returns (formulas hold ISL sets) stays in
 * that context.  The contexts therefore live until workers_free, which the
 * caller invokes only after freeing every result.  Jobs share nothing mutable:
 * each writes its own slot of the caller's arrays. */
#ifndef BSPCOST_WORKERS_H
#define BSPCOST_WORKERS_H

#include <stdbool.h>

#include <isl/ctx.h>

#include "analyzer/count/count.h"
#include "analyzer/util/session.h"

struct worker {
	isl_ctx *ctx;
	struct count_engine engine;
	bool busy;      /* running a job (under the pool's lock) */
};

struct worker_pool;

/* Called after each job, from the thread that ran it, one call at a time:
 * DONE of N jobs finished (for a progress meter). */
struct workers_progress {
	void (*tick)(void *user, int done, int n);
	void *user;
};

/* The number of threads to use for N jobs when asked for JOBS (0: one per
 * online processor): at least 1, at most N. */
int workers_threads(int jobs, int n);

/* Runs JOB(W, I, USER) for every I in [0, N) on NTHREADS threads (the calling
 * thread alone when NTHREADS is 1), each thread with its own worker whose engine
 * ENGINE_SETUP (may be NULL) adjusts first, the jobs handed out in the order
 * ORDER[0..N) (a permutation of 0..N-1; NULL: 0, 1, ...): the longest first
 * keeps the threads busy to the end.  The workers' contexts come from SESSION
 * (may be NULL), whose deadline stops the jobs (each then fails fast), and are
 * released from it when the jobs are over; PROGRESS (may be NULL) hears of
 * each job finished.  The jobs handed out from the FIRST_SHARED-th on (N or
 * more: none) share the deadline: such a job is also stopped when it would
 * leave the shared jobs still waiting less than their part of the limit
 * (the limit over the shared jobs, on one thread each; session_ctx_share),
 * so that one long job cannot leave the quick ones no time; the jobs running
 * when the last one starts may use all the time left.  The jobs before
 * FIRST_SHARED (the values, milliseconds each) have no share.  Returns the pool, whose contexts hold
 * what the jobs built, or NULL when out of memory (no job ran then).  A thread
 * that cannot be started leaves its share to the others. */
struct worker_pool *workers_run_ordered(struct session *session, int nthreads, int n,
					const int *order, int first_shared,
					void (*job)(struct worker *w, int i, void *user), void *user,
					void (*engine_setup)(struct count_engine *e),
					const struct workers_progress *progress);

/* A phase that computes with what the jobs built (a comparison of their
 * formulas) under the session's deadline: the workers' contexts are watched
 * again (session_ctx_watch), and stopped at once when it has passed;
 * workers_unwatch ends the phase, so that what was built can be printed.
 * workers_watch returns 0, or -1 when out of memory (nothing is watched). */
int workers_watch(struct worker_pool *pool);
void workers_unwatch(struct worker_pool *pool);

/* Frees the workers' contexts: every ISL object built by the jobs must be gone. */
void workers_free(struct worker_pool *pool);

#endif
