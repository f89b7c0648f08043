/* The failure policy (fail.h). */
#define _GNU_SOURCE /* vasprintf */
#include "analyzer/util/fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/session.h"

void fail_take(struct fail *f, enum fail_kind kind, char *reason)
{
	if (f->kind != FAIL_NONE || kind == FAIL_NONE) {
		free(reason);
		return;
	}
	f->kind = kind;
	f->reason = reason;
}

void fail_set(struct fail *f, enum fail_kind kind, const char *fmt, ...)
{
	if (f->kind != FAIL_NONE)
		return;
	char *reason = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	fail_take(f, kind, reason);
}

void fail_nomem(struct fail *f)
{
	fail_take(f, FAIL_ERROR, strdup("out of memory"));
}

void fail_isl(struct fail *f, __isl_keep isl_ctx *ctx, const char *fmt, ...)
{
	if (f->kind != FAIL_NONE)
		return;
	if (!ctx) {
		fail_nomem(f);
		return;
	}
	char *what = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (!what) {
		fail_nomem(f);
		return;
	}
	enum isl_error e = isl_ctx_last_error(ctx);
	const char *msg = isl_ctx_last_error_msg(ctx);
	if (session_ctx_stopped(ctx))
		fail_set(f, FAIL_REFUSED, "%s: the run's time limit ran out", what);
	else if (e == isl_error_quota && isl_ctx_get_max_operations(ctx) > 0)
		fail_set(f, FAIL_REFUSED, "%s: the ISL operation limit (%lu) was reached", what,
			 isl_ctx_get_max_operations(ctx));
	else if (e == isl_error_quota)
		fail_set(f, FAIL_REFUSED, "%s: the ISL operation limit was reached", what);
	else if (e == isl_error_alloc || e == isl_error_none)
		/* no ISL error: a NULL from an allocation of ours */
		fail_set(f, FAIL_ERROR, "%s: out of memory", what);
	else
		fail_set(f, FAIL_ERROR, "%s: ISL failed: %s", what, msg ? msg : "no message");
	isl_ctx_reset_error(ctx); /* an abort stays (isl_ctx_aborted) */
	free(what);
}

const char *fail_reason(const struct fail *f)
{
	if (f->kind == FAIL_NONE)
		return NULL;
	return f->reason ? f->reason : "out of memory";
}

char *fail_release(struct fail *f)
{
	char *r = f->kind == FAIL_NONE ? NULL : f->reason ? f->reason : strdup("out of memory");
	f->kind = FAIL_NONE;
	f->reason = NULL;
	return r;
}

void fail_clear(struct fail *f)
{
	free(f->reason);
	f->kind = FAIL_NONE;
	f->reason = NULL;
}
