/* The progress meter of long runs (progress.h). */
#include "analyzer/run/progress.h"

#include <stdarg.h>
#include <unistd.h>

#include "analyzer/report/report.h"

/* A run shorter than this shows nothing. */
static const double PROGRESS_AFTER = 1.0;

static double since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void tick(void *user, int done, int n)
{
	struct progress_meter *m = user;
	if (since(&m->start) < PROGRESS_AFTER || done >= n)
		return;
	/* the jobs left at this pool's pace so far: a guess */
	double t = since(&m->pool_start);
	double left = done > 0 ? t * (double)(n - done) / (double)done : -1;
	report_progress(m->err, m->what, done, n, since(&m->start), left);
	m->shown = true;
}

void progress_start(struct progress_meter *meter, FILE *err)
{
	*meter = (struct progress_meter){.err = err};
	clock_gettime(CLOCK_MONOTONIC, &meter->start);
	meter->tty = err && isatty(fileno(err));
	meter->hook = (struct workers_progress){tick, meter};
}

const struct workers_progress *progress_pool(struct progress_meter *meter, const char *what, ...)
{
	va_list ap;
	va_start(ap, what);
	vsnprintf(meter->what, sizeof(meter->what), what, ap);
	va_end(ap);
	clock_gettime(CLOCK_MONOTONIC, &meter->pool_start);
	return meter->tty ? &meter->hook : NULL;
}

void progress_end(struct progress_meter *meter)
{
	if (meter->shown)
		report_progress_end(meter->err);
	meter->shown = false;
}
