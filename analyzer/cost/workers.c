/* A pool of threads over jobs 0..n-1, one ISL context per thread (workers.h). */
#include "analyzer/cost/workers.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <flint/flint.h>

struct worker_pool {
	struct session *session;
	int nworkers;
	struct worker *workers;
	/* the next job to hand out, under lock */
	pthread_mutex_t lock;
	int next, n;
	int finished;       /* jobs done, under lock */
	const struct workers_progress *progress;   /* may be NULL */
	const int *order;   /* NULL: 0, 1, ... */
	int first_shared;   /* the jobs from this one on share the deadline (workers.h) */
	void (*job)(struct worker *w, int i, void *user);
	void *user;
};

struct thread_arg {
	struct worker_pool *pool;
	struct worker *w;
};

int workers_threads(int jobs, int n)
{
	if (jobs <= 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 && cpus < 256 ? (int)cpus : 1;
	}
	if (jobs > n)
		jobs = n;
	return jobs < 1 ? 1 : jobs;
}

/* The next job for W, or -1.  A shared job (workers.h) may run until the
 * time left is what the shared jobs still waiting are owed (each an equal
 * part of the whole limit, on one of the threads), and at least its even
 * part of the time left; every job still running gets as long, or keeps its
 * longer share; the last job handed out lifts every share, so that the jobs
 * running then may use all the time left.  So a job is stopped only while
 * others wait that it would leave less than their part. */
static int take(struct worker_pool *pool, struct worker *w)
{
	pthread_mutex_lock(&pool->lock);
	int i = pool->next < pool->n ? pool->next++ : -1;
	w->busy = i >= 0;
	if (i >= 0 && i < pool->first_shared) {
		session_ctx_share(pool->session, w->ctx, 0);
	} else if (pool->first_shared < pool->n) {
		int waiting = pool->n - pool->next;
		double left = session_left(pool->session);
		double owed = session_limit(pool->session) / (pool->n - pool->first_shared);
		double reserve = waiting * owed / pool->nworkers;
		double even = left * pool->nworkers / (waiting + pool->nworkers);
		double share = waiting == 0 ? 0 : left - reserve > even ? left - reserve : even;
		if (i >= 0)
			session_ctx_share(pool->session, w->ctx, share);
		for (int k = 0; k < pool->nworkers; k++)
			if (&pool->workers[k] != w && pool->workers[k].busy)
				session_ctx_reshare(pool->session, pool->workers[k].ctx, share);
	}
	pthread_mutex_unlock(&pool->lock);
	return i >= 0 && pool->order ? pool->order[i] : i;
}

static void drain(struct worker_pool *pool, struct worker *w)
{
	for (int i; (i = take(pool, w)) >= 0;) {
		pool->job(w, i, pool->user);
		if (!pool->progress)
			continue;
		pthread_mutex_lock(&pool->lock);
		pool->progress->tick(pool->progress->user, ++pool->finished, pool->n);
		pthread_mutex_unlock(&pool->lock);
	}
}

/* FLINT 2.9 (built with FLINT_USES_TLS) keeps its mpz caches per thread, so
 * objects made in a worker may be freed by the main thread after the join.
 * Helgrind reports races inside libflint's _fmpz_new_mpz on a few statics
 * that every thread sets to the same values; they are FLINT's, and harmless. */
static void *thread_main(void *p)
{
	struct thread_arg *arg = p;
	drain(arg->pool, arg->w);
	flint_cleanup(); /* this thread's FLINT caches */
	return NULL;
}

void workers_unwatch(struct worker_pool *pool)
{
	for (int i = 0; pool && i < pool->nworkers; i++)
		session_ctx_release(pool->session, pool->workers[i].ctx);
}

int workers_watch(struct worker_pool *pool)
{
	for (int i = 0; pool && i < pool->nworkers; i++)
		if (session_ctx_watch(pool->session, pool->workers[i].ctx) < 0) {
			workers_unwatch(pool);
			return -1;
		}
	return 0;
}

/* The jobs are over: what they built may be printed, whatever the deadline. */
static struct worker_pool *done(struct worker_pool *pool)
{
	workers_unwatch(pool);
	return pool;
}

struct worker_pool *workers_run_ordered(struct session *session, int nthreads, int n,
					const int *order, int first_shared,
					void (*job)(struct worker *w, int i, void *user), void *user,
					void (*engine_setup)(struct count_engine *e),
					const struct workers_progress *progress)
{
	struct worker_pool *pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	if (nthreads < 1)
		nthreads = 1;
	pool->workers = calloc((size_t)nthreads, sizeof(*pool->workers));
	if (!pool->workers || pthread_mutex_init(&pool->lock, NULL) != 0) {
		free(pool->workers);
		free(pool);
		return NULL;
	}
	pool->session = session;
	pool->n = n;
	pool->order = order;
	pool->first_shared = first_shared;
	pool->progress = progress;
	pool->job = job;
	pool->user = user;
	for (; pool->nworkers < nthreads; pool->nworkers++) {
		struct worker *w = &pool->workers[pool->nworkers];
		w->ctx = session_ctx(session);
		if (!w->ctx) {
			workers_free(pool);
			return NULL;
		}
		count_engine_init(&w->engine, w->ctx);
		if (engine_setup)
			engine_setup(&w->engine);
	}
	if (nthreads == 1) {
		drain(pool, &pool->workers[0]);
		return done(pool);
	}
	pthread_t *tids = calloc((size_t)nthreads, sizeof(*tids));
	struct thread_arg *args = calloc((size_t)nthreads, sizeof(*args));
	int started = 0;
	for (; tids && args && started < nthreads; started++) {
		args[started] = (struct thread_arg){pool, &pool->workers[started]};
		if (pthread_create(&tids[started], NULL, thread_main, &args[started]) != 0)
			break;
	}
	/* Should a thread not start, the others (or this thread) take its share. */
	if (started == 0)
		drain(pool, &pool->workers[0]);
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	free(args);
	return done(pool);
}

void workers_free(struct worker_pool *pool)
{
	if (!pool)
		return;
	for (int i = 0; i < pool->nworkers; i++)
		session_ctx_free(pool->session, pool->workers[i].ctx);
	pthread_mutex_destroy(&pool->lock);
	free(pool->workers);
	free(pool);
}
