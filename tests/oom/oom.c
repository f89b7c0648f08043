/* Out of memory: the allocations of a question to the library fail one at
 * a time.  Loading (bspcost_spec_load: reading, the parser, the checker and
 * its bounds proofs, the lowering): each time the call must answer
 * BSPCOST_OK (an allocation it could do without) or BSPCOST_ERROR with a
 * message that says "out of memory", and for a specification with errors
 * BSPCOST_ERROR.  A question after loading (bspcost_analyze, bspcost_rank:
 * the model's relations, the counts, the formulas, the reports in every
 * format): BSPCOST_OK or BSPCOST_ERROR with a message.  Never a crash.  The library's
 * own calls to malloc, calloc, realloc, strdup, strndup, asprintf,
 * vasprintf and open_memstream are wrapped at link time (-Wl,--wrap, the
 * Makefile's rule for this test); the libraries' (ISL, FLINT and GMP, which
 * abort on out of memory) and glibc's inside its own functions (a stream's
 * growth) are not.
 *
 * The schedule, deterministic (no clock, no randomness), one failure per
 * call, for each of fourteen questions (loading lu's loops, cannon's
 * quotients by sizes, fft's doubling loops and a specification with seven
 * errors; stencil1d's symbolic grid, at values, compared, per process, on a
 * concrete grid, under LogP and ranked; jacobi's and fft's loops;
 * transpose's blocks over two axes), after a run that counts its
 * allocations (N) and their sites:
 *   1. every allocation from the first to the OOM_PREFIX-th (default 100):
 *      the setting up, where one failure leads to the next allocation's;
 *   2. OOM_SPREAD (default 100) allocations spread evenly over the rest,
 *      the k-th at PREFIX + (N - PREFIX) * k / (SPREAD + 1);
 *   3. each call site once: every call fails the first allocation made from
 *      a return address (__builtin_return_address(0) in the wrappers: a
 *      site, or one inlined copy of it) not failed yet, until a call makes
 *      none; so every site the question reaches fails once, in the order it
 *      first reaches them, error paths' sites too.
 * A whole index-by-index pass would fail every one of 1,700 to 109,000
 * allocations per question, hours at about 25 ms a run; this one fails
 * 194 to 456 per question, 5,000 in all: about 105 s on this 2-core machine
 * (make check's oom section, tests/run.sh).  Each question prints its
 * counts.
 *
 * Built with AddressSanitizer and UBSan (make oom O=build-san CFLAGS='-O1
 * -g -fsanitize=address,undefined -fno-omit-frame-pointer
 * -fno-sanitize-recover=undefined' LDFLAGS=-fsanitize=address,undefined,
 * the Makefile's SAN_FLAGS; ASan's allocator sits behind the wrappers'
 * __real_ calls), LeakSanitizer looks for a leak after each failure and
 * names the failure that left it: every call leaves nothing behind.  That
 * takes about 0.45 s a run (the scan), 25 minutes in all: not in make check.
 *
 * OOM_TRACE=1 names each run's failed allocation (its index, or its site as
 * FILE+OFFSET for addr2line -f -i -e FILE OFFSET), so that a crash's can be
 * found: gdb -batch -ex run -ex bt build/tests/oom, or a breakpoint on
 * fail_here. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/api/bspcost.h"

/* Built with AddressSanitizer: LeakSanitizer looks for leaks after each
 * failure, so that a leak is told with the allocation whose failure left it. */
#ifdef __SANITIZE_ADDRESS__
#define OOM_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OOM_LSAN 1
#endif
#endif
#ifdef OOM_LSAN
#include <sanitizer/lsan_interface.h>
#endif

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **s, const char *fmt, va_list ap);
FILE *__real_open_memstream(char **buf, size_t *len);

/* One thread asks (bspcost_request_jobs 1): plain counters.  The harness's
 * own state, not the library's. */
enum mode { OFF, AT_INDEX, NEW_SITE, COUNT };
static enum mode mode = OFF;
static long countdown;      /* AT_INDEX: the allocation that fails, 1 the next one */
static long seen;           /* allocations since armed */
static bool failed_one;
static const void *failed_site;

/* The sites failed so far (NEW_SITE) or seen (COUNT): open addressing. */
enum { SITES_MAX = 1 << 16 };
static const void *sites[SITES_MAX];
static long nsites;

static void sites_clear(void)
{
	memset(sites, 0, sizeof(sites));
	nsites = 0;
}

/* Adds SITE; false when it was there already. */
static bool sites_add(const void *site)
{
	size_t h = ((uintptr_t)site * 0x9e3779b97f4a7c15u) >> 48;
	while (sites[h]) {
		if (sites[h] == site)
			return false;
		h = (h + 1) % SITES_MAX;
	}
	if (nsites >= SITES_MAX / 2)
		fail_msg("more than %d allocation sites", SITES_MAX / 2);
	sites[h] = site;
	nsites++;
	return true;
}

/* A breakpoint for gdb: the allocation that is made to fail. */
__attribute__((noinline)) static void fail_here(const void *site)
{
	failed_one = true;
	failed_site = site;
	__asm__ volatile("" ::: "memory");
}

static bool fail_now(const void *site)
{
	if (mode == OFF)
		return false;
	seen++;
	switch (mode) {
	case AT_INDEX:
		if (failed_one || --countdown > 0)
			return false;
		break;
	case NEW_SITE:
		if (failed_one || !sites_add(site))
			return false;
		break;
	case COUNT:
		sites_add(site);
		return false;
	case OFF:
		return false;
	}
	fail_here(site);
	return true;
}

#define SITE __builtin_return_address(0)

void *__wrap_malloc(size_t n)
{
	return fail_now(SITE) ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now(SITE) ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now(SITE) ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now(SITE) ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now(SITE) ? NULL : __real_strndup(s, n);
}

/* As glibc's: *S is left as it was on failure. */
int __wrap_vasprintf(char **s, const char *fmt, va_list ap)
{
	return fail_now(SITE) ? -1 : __real_vasprintf(s, fmt, ap);
}

int __wrap_asprintf(char **s, const char *fmt, ...)
{
	if (fail_now(SITE))
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int r = __real_vasprintf(s, fmt, ap);
	va_end(ap);
	return r;
}

FILE *__wrap_open_memstream(char **buf, size_t *len)
{
	return fail_now(SITE) ? NULL : __real_open_memstream(buf, len);
}

static bool trace;

/* SITE as FILE+OFFSET, for addr2line -e FILE -f -i OFFSET. */
static void print_site(const void *site)
{
	Dl_info info;
	if (dladdr(site, &info) && info.dli_fname)
		fprintf(stderr, "%s+%#lx", info.dli_fname,
			(unsigned long)((const char *)site - (const char *)info.dli_fbase - 1));
	else
		fprintf(stderr, "%p", site);
}

/* One question of the library: PATH loaded (LOAD; BAD: it has errors), or
 * with the -D values VALUES ("n=64", ...), ranked (-p PROCS) or analysed, as
 * SETUP sets the rest (may be NULL). */
struct analysis {
	const char *name;
	const char *path;
	bool load, bad;
	const char *const *values;
	long procs;
	void (*setup)(bspcost_request *rq);
	bspcost_session *s;
	bspcost_spec *spec;
	bspcost_request *rq;
};

static void analysis_open(struct analysis *a)
{
	a->s = bspcost_session_new(0);
	assert_non_null(a->s);
	if (a->load)
		return;
	a->spec = bspcost_spec_load(a->s, a->path);
	assert_int_equal(bspcost_spec_status(a->spec), BSPCOST_OK);
	a->rq = bspcost_request_new();
	assert_non_null(a->rq);
	bspcost_request_jobs(a->rq, 1);
	for (int i = 0; a->values && a->values[i]; i++) {
		char name[32];
		const char *eq = strchr(a->values[i], '=');
		assert_non_null(eq);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - a->values[i]), a->values[i]);
		assert_int_equal(bspcost_request_set(a->rq, name, eq + 1), BSPCOST_OK);
	}
	if (a->procs)
		assert_int_equal(bspcost_request_procs(a->rq, a->procs), BSPCOST_OK);
	if (a->setup)
		a->setup(a->rq);
}

static void analysis_close(struct analysis *a)
{
	bspcost_request_free(a->rq);
	bspcost_spec_free(a->spec);
	bspcost_session_free(a->s);
}

/* A's specification loaded with the failures armed (run_once's); whether
 * one failed.  Asserts the policy for loading. */
static bool load_once(struct analysis *a, const char *what, long index)
{
	bspcost_spec *spec = bspcost_spec_load(a->s, a->path);
	mode = OFF;
	enum bspcost_status st = spec ? bspcost_spec_status(spec) : BSPCOST_ERROR;
	const char *said = bspcost_session_message(a->s);
	if (!failed_one)
		assert_int_equal(st, a->bad ? BSPCOST_ERROR : BSPCOST_OK);
	else if (st != BSPCOST_OK && st != BSPCOST_ERROR)
		fail_msg("%s, %s %ld failed: status %d", a->name, what, index, (int)st);
	else if (st == BSPCOST_ERROR && !a->bad && !strstr(said, "out of memory"))
		fail_msg("%s, %s %ld failed: '%s', not out of memory", a->name, what, index,
			 said);
	else if (st == BSPCOST_ERROR && !*said)
		fail_msg("%s, %s %ld failed: an error without a message", a->name, what, index);
	bspcost_spec_free(spec);
	return failed_one;
}

/* One question with the failures armed as M says (INDEX: AT_INDEX's
 * allocation); whether one failed.  Asserts the policy: BSPCOST_OK, or
 * BSPCOST_ERROR with a message (and, sanitized, no leak). */
static bool run_once(struct analysis *a, enum mode m, long index, const char *what)
{
	bspcost_result *r = NULL;
	bspcost_ranking *k = NULL;

	failed_one = false;
	failed_site = NULL;
	seen = 0;
	countdown = index;
	mode = m;
	if (a->load) {
		bool failed = load_once(a, what, index);
		if (trace && failed) {
			fprintf(stderr, "%s: %s %ld, site ", a->name, what, index);
			print_site(failed_site);
			fputc('\n', stderr);
		}
#ifdef OOM_LSAN
		if (__lsan_do_recoverable_leak_check())
			fail_msg("%s, %s %ld: leaks after the failure", a->name, what, index);
#endif
		return failed;
	}
	enum bspcost_status st = a->procs ? bspcost_rank(a->s, a->spec, a->rq, &k)
					  : bspcost_analyze(a->s, a->spec, a->rq, &r);
	mode = OFF;
	if (trace && failed_one) {
		fprintf(stderr, "%s: %s %ld, site ", a->name, what, index);
		print_site(failed_site);
		fputc('\n', stderr);
	}
	if (!failed_one) {
		/* no allocation failed: the whole question */
		assert_int_equal(st, BSPCOST_OK);
		assert_true(r || k);
	} else {
		if (st != BSPCOST_OK && st != BSPCOST_ERROR)
			fail_msg("%s, %s %ld failed: status %d", a->name, what, index, (int)st);
		if (st == BSPCOST_ERROR && !r && !k && !*bspcost_session_message(a->s))
			fail_msg("%s, %s %ld failed: an error without a message", a->name, what,
				 index);
	}
	bspcost_result_free(r);
	bspcost_ranking_free(k);
#ifdef OOM_LSAN
	/* the leaks print above (and again at exit) */
	if (__lsan_do_recoverable_leak_check())
		fail_msg("%s, %s %ld: leaks after the failure", a->name, what, index);
#endif
	return failed_one;
}

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* A's question under the schedule of the header comment. */
static void fail_each(void **state)
{
	struct analysis *a = *state;
	long prefix = env_long("OOM_PREFIX", 100), spread = env_long("OOM_SPREAD", 100);
	long runs = 0, total, n;

	analysis_open(a);
	/* the allocations and sites of the whole question */
	sites_clear();
	run_once(a, COUNT, 0, "count");
	total = seen;
	long nall = nsites;
	/* 1. every allocation up to the prefix, 2. the spread after it */
	for (n = 1; n <= total && n <= prefix; n++)
		runs += run_once(a, AT_INDEX, n, "allocation");
	for (long k = 1, last = prefix; k <= spread; k++) {
		long at = prefix + (total - prefix) * k / (spread + 1);
		if (at > last)
			runs += run_once(a, AT_INDEX, last = at, "allocation");
	}
	/* 3. each site once, in the order the question reaches them */
	sites_clear();
	for (n = 1; run_once(a, NEW_SITE, n, "site"); n++)
		runs++;
	printf("# %s: %ld allocations from %ld sites; %ld failed in turn\n", a->name, total, nall,
	       runs);
	analysis_close(a);
	/* the last run failed nothing: it reached no site not failed before,
	 * those of the whole question among them */
	assert_true(nsites >= nall);
}

static void compare_block_cyclic(bspcost_request *rq)
{
	assert_int_equal(bspcost_request_compare(rq, "d=block", "d=cyclic"), BSPCOST_OK);
}

static void per_process(bspcost_request *rq)
{
	bspcost_request_per_process(rq, 1);
}

static void grid_3(bspcost_request *rq)
{
	assert_int_equal(bspcost_request_grid(rq, 1, (const long[]){3}), BSPCOST_OK);
}

static void logp(bspcost_request *rq)
{
	assert_int_equal(bspcost_request_model(rq, "logp"), BSPCOST_OK);
}

static const char *const stencil_values[] = {"n=64", "P=4", "g=3", "l=20", NULL};
static const char *const small_values[] = {"n=13", "P=3", NULL};
static const char *const sizes_values[] = {"n=64", "P=4", NULL};
static const char *const rank_values[] = {"n=64", "g=1", "l=100", NULL};

/* Loading lu, cannon, fft and a specification with errors; stencil1d's
 * symbolic grid, at values, compared, per process, on a concrete grid,
 * under LogP, ranked; jacobi's and fft's loops; transpose's symbolic grid
 * (its blocks over two axes). */
static struct analysis questions[] = {
	{.name = "loading loops", .path = "examples/lu.bsp", .load = true},
	{.name = "loading quotients", .path = "examples/cannon.bsp", .load = true},
	{.name = "loading doubling loops", .path = "examples/fft.bsp", .load = true},
	{.name = "loading errors", .path = "tests/diag/big_2_64.bsp", .load = true, .bad = true},
	{.name = "symbolic grid", .path = "examples/stencil1d.bsp"},
	{.name = "at values", .path = "examples/stencil1d.bsp", .values = stencil_values},
	{.name = "loops", .path = "examples/jacobi.bsp"},
	{.name = "doubling loops", .path = "examples/fft.bsp"},
	{.name = "transposes", .path = "examples/transpose.bsp"},
	{.name = "compare", .path = "examples/stencil1d.bsp", .values = stencil_values,
	 .setup = compare_block_cyclic},
	{.name = "per process", .path = "examples/stencil1d.bsp", .values = small_values,
	 .setup = per_process},
	{.name = "concrete grid", .path = "examples/stencil1d.bsp", .setup = grid_3},
	{.name = "logp", .path = "examples/stencil1d.bsp", .values = sizes_values, .setup = logp},
	{.name = "ranking", .path = "examples/stencil1d.bsp", .values = rank_values, .procs = 4},
};

int main(void)
{
	const char *t = getenv("OOM_TRACE");
	trace = t && *t && strcmp(t, "0") != 0;
	enum { N = sizeof(questions) / sizeof(questions[0]) };
	struct CMUnitTest tests[N];
	for (int i = 0; i < N; i++)
		tests[i] = (struct CMUnitTest){questions[i].name, fail_each, NULL, NULL,
					       &questions[i]};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
