/* The run's session: the deadline's watchdog and the ISL contexts (session.h). */
#include "analyzer/util/session.h"

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
	struct watched *ctxs;      /* the contexts the watchdog aborts */
	int nctxs, cap;
};

/* A context the watchdog knows, with its share of the time (session.h). */
struct watched {
	isl_ctx *ctx;
	bool has_share;
	struct timespec share_start, share_end;  /* CLOCK_MONOTONIC */
	bool spent;                 /* the share stopped it */
};

/* CTX's entry in S (under S's lock), or NULL. */
static struct watched *find(struct session *s, isl_ctx *ctx)
{
	for (int i = 0; i < s->nctxs; i++)
		if (s->ctxs[i].ctx == ctx)
			return &s->ctxs[i];
	return NULL;
}

static void abort_all(struct session *s)
{
	for (int i = 0; i < s->nctxs; i++)
		isl_ctx_abort(s->ctxs[i].ctx);
}

static bool not_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

/* Now plus SECONDS (>= 0). */
static struct timespec after(double seconds)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	double whole = (double)(long)seconds;
	t.tv_sec += (time_t)whole;
	t.tv_nsec += (long)((seconds - whole) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Sleeps until the deadline or the first share's end, whichever comes first
 * (or until a share changes): the deadline stops every context, a share its
 * own. */
static void *watchdog(void *p)
{
	struct session *s = p;
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec wake = s->end;
		for (int i = 0; i < s->nctxs; i++)
			if (s->ctxs[i].has_share && !s->ctxs[i].spent &&
			    not_after(&s->ctxs[i].share_end, &wake))
				wake = s->ctxs[i].share_end;
		pthread_cond_timedwait(&s->wake, &s->lock, &wake);
		if (s->stop)
			break;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (not_after(&s->end, &now)) {
			atomic_store(&s->expired, true);
			abort_all(s);
			break;
		}
		for (int i = 0; i < s->nctxs; i++)
			if (s->ctxs[i].has_share && !s->ctxs[i].spent &&
			    not_after(&s->ctxs[i].share_end, &now)) {
				s->ctxs[i].spent = true;
				isl_ctx_abort(s->ctxs[i].ctx);
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
	s->end = after(s->seconds);
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
	if (find(s, ctx)) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	if (s->nctxs == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		struct watched *v = realloc(s->ctxs, sizeof(*v) * (size_t)cap);
		if (!v) {
			pthread_mutex_unlock(&s->lock);
			return -1;
		}
		s->ctxs = v;
		s->cap = cap;
	}
	s->ctxs[s->nctxs++] = (struct watched){.ctx = ctx};
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
		struct watched *w = find(s, ctx);
		if (w)
			*w = s->ctxs[--s->nctxs];
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

double session_left(struct session *s)
{
	if (!s || s->seconds == 0)
		return 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double left = (double)(s->end.tv_sec - now.tv_sec) +
		      (double)(s->end.tv_nsec - now.tv_nsec) / 1e9;
	return left > 0 ? left : 0;
}

void session_ctx_share(struct session *s, __isl_keep isl_ctx *ctx, double seconds)
{
	if (!s || s->seconds == 0 || !ctx)
		return;
	pthread_mutex_lock(&s->lock);
	struct watched *w = find(s, ctx);
	if (w && w->spent && !atomic_load(&s->expired)) {
		isl_ctx_resume(ctx);
		isl_ctx_reset_error(ctx);
	}
	if (w) {
		w->spent = false;
		w->has_share = seconds > 0;
		w->share_start = after(0);
		if (w->has_share)
			w->share_end = after(seconds);
		pthread_cond_signal(&s->wake);
	}
	pthread_mutex_unlock(&s->lock);
}

void session_ctx_reshare(struct session *s, __isl_keep isl_ctx *ctx, double seconds)
{
	if (!s || s->seconds == 0 || !ctx)
		return;
	pthread_mutex_lock(&s->lock);
	struct watched *w = find(s, ctx);
	if (w && !w->spent && w->has_share) {
		struct timespec end = after(seconds > 0 ? seconds : 0);
		if (seconds <= 0)
			w->has_share = false;
		else if (not_after(&w->share_end, &end))
			w->share_end = end;
		pthread_cond_signal(&s->wake);
	}
	pthread_mutex_unlock(&s->lock);
}

bool session_ctx_share_spent(struct session *s, __isl_keep isl_ctx *ctx, double *seconds)
{
	if (!s || s->seconds == 0 || !ctx)
		return false;
	pthread_mutex_lock(&s->lock);
	struct watched *w = find(s, ctx);
	bool spent = w && w->spent && !atomic_load(&s->expired);
	if (spent && seconds)
		*seconds = (double)(w->share_end.tv_sec - w->share_start.tv_sec) +
			   (double)(w->share_end.tv_nsec - w->share_start.tv_nsec) / 1e9;
	pthread_mutex_unlock(&s->lock);
	return spent;
}
