/* The run's session: the deadline's watchdog and the ISL contexts (session.h). */
#include "analyzer/util/session.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include <isl/options.h>

struct session {
	double seconds;            /* 0: no deadline */
	struct timespec end;       /* CLOCK_MONOTONIC */
	atomic_bool expired;
	pthread_mutex_t lock;      /* guards what follows */
	pthread_cond_t wake;       /* session_end's call to the watchdog */
	bool stop;
	bool has_thread;
	pthread_t thread;
	isl_ctx **ctxs;            /* the contexts the watchdog aborts */
	int nctxs, cap;
};

static void abort_all(struct session *s)
{
	for (int i = 0; i < s->nctxs; i++)
		isl_ctx_abort(s->ctxs[i]);
}

static void *watchdog(void *p)
{
	struct session *s = p;
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		int r = pthread_cond_timedwait(&s->wake, &s->lock, &s->end);
		if (r == ETIMEDOUT) {
			atomic_store(&s->expired, true);
			abort_all(s);
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct session *session_start(double seconds)
{
	struct session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->seconds = seconds > 0 ? seconds : 0;
	atomic_init(&s->expired, false);
	pthread_condattr_t attr;
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		free(s);
		return NULL;
	}
	if (pthread_condattr_init(&attr) != 0 ||
	    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&s->wake, &attr) != 0) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
	pthread_condattr_destroy(&attr);
	if (s->seconds == 0)
		return s;
	clock_gettime(CLOCK_MONOTONIC, &s->end);
	double whole = (double)(long)s->seconds;
	s->end.tv_sec += (time_t)whole;
	s->end.tv_nsec += (long)((s->seconds - whole) * 1e9);
	if (s->end.tv_nsec >= 1000000000L) {
		s->end.tv_sec++;
		s->end.tv_nsec -= 1000000000L;
	}
	if (pthread_create(&s->thread, NULL, watchdog, s) != 0) {
		session_end(s);
		return NULL;
	}
	s->has_thread = true;
	return s;
}

void session_end(struct session *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	if (s->has_thread)
		pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s->ctxs);
	free(s);
}

double session_limit(const struct session *s)
{
	return s ? s->seconds : 0;
}

bool session_expired(struct session *s)
{
	return s && atomic_load(&s->expired);
}

__isl_give isl_ctx *session_ctx(struct session *s)
{
	isl_ctx *ctx = isl_ctx_alloc();
	if (!ctx)
		return NULL;
	isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
	if (session_ctx_watch(s, ctx) < 0) {
		isl_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

int session_ctx_watch(struct session *s, __isl_keep isl_ctx *ctx)
{
	if (!s || s->seconds == 0 || !ctx)
		return 0;
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->nctxs; i++)
		if (s->ctxs[i] == ctx) {
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
	if (s->nctxs == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		isl_ctx **v = realloc(s->ctxs, sizeof(*v) * (size_t)cap);
		if (!v) {
			pthread_mutex_unlock(&s->lock);
			return -1;
		}
		s->ctxs = v;
		s->cap = cap;
	}
	s->ctxs[s->nctxs++] = ctx;
	if (atomic_load(&s->expired))
		isl_ctx_abort(ctx);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void session_ctx_release(struct session *s, __isl_keep isl_ctx *ctx)
{
	if (!ctx)
		return;
	if (s && s->seconds > 0) {
		pthread_mutex_lock(&s->lock);
		for (int i = 0; i < s->nctxs; i++)
			if (s->ctxs[i] == ctx) {
				s->ctxs[i] = s->ctxs[--s->nctxs];
				break;
			}
		pthread_mutex_unlock(&s->lock);
	}
	isl_ctx_resume(ctx);
	isl_ctx_reset_error(ctx);
}

void session_ctx_free(struct session *s, __isl_take isl_ctx *ctx)
{
	if (!ctx)
		return;
	session_ctx_release(s, ctx);
	isl_ctx_free(ctx);
}

bool session_ctx_stopped(__isl_keep isl_ctx *ctx)
{
	return ctx && (isl_ctx_aborted(ctx) > 0 || isl_ctx_last_error(ctx) == isl_error_abort);
}
