/* Randomized cross-check of the counting engine against brute-force enumeration.
 *
 * Generates sets with 1 to 4 variables and 1 to 3 parameters: every variable gets
 * a lower and an upper bound in the parameters and earlier variables (so the set is
 * bounded once the parameters are fixed), plus random extra constraints with small
 * coefficients, equalities, strides through existentials (exists e: x = m*e + r),
 * mod and floor constraints, two congruences of one variable whose moduli
 * share a factor, one variable the floor of another (an owner), moduli above
 * 64, holes made with != and unions.  Each set is counted
 * once symbolically, then evaluated at 20+ parameter points (negative and zero
 * included) and compared with isl_set_count_val on the set with its parameters
 * fixed.  A refusal (COUNT_REFUSED) is allowed and tallied by kind; any mismatch or
 * COUNT_ERROR fails.  Seed: BSPCOST_SEED (default fixed); number of sets:
 * BSPCOST_RANDOM_SETS (default 2000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <flint/flint.h>
#include <isl/ctx.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/count/count.h"
#include "analyzer/util/session.h"

static uint64_t rng_state;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double t_engine, t_brute, t_worst;
static char worst[4096];

static uint32_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

static int rnd_in(int lo, int hi) /* inclusive */
{
	return lo + (int)(rnd() % (uint32_t)(hi - lo + 1));
}

struct buf {
	char s[4096];
	size_t n;
};

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (k > 0 && b->n + (size_t)k < sizeof(b->s))
		b->n += (size_t)k;
}

static const char *pname[] = {"n", "m", "k"};
static const char *vname[] = {"i", "j", "l", "h"};

/* a random affine term "c0 + c*p + d*x_j" (j < upto), small coefficients */
static void affine(struct buf *b, int np, int upto, int cmax)
{
	put(b, "%d", rnd_in(-2, 3));
	if (rnd() % 4 != 0) {
		int c = rnd_in(1, cmax);
		put(b, " + %d%s", c, pname[rnd_in(0, np - 1)]);
	}
	if (upto > 0 && rnd() % 2 == 0) {
		int c = rnd_in(-cmax, cmax);
		if (c)
			put(b, " + %d%s", c, vname[rnd_in(0, upto - 1)]);
	}
}

/* The kinds of extra constraint drawn: the last (moduli above 64) only for
 * sets whose parameters are fixed before counting; the symbolic engine
 * refuses most of them, by design. */
static int nkinds = 12;

/* One conjunction over nv variables and np parameters. */
static void conjunction(struct buf *b, int nv, int np, int *nexists)
{
	int first = 1;
#define AND() do { if (!first) put(b, " and "); first = 0; } while (0)
	for (int v = 0; v < nv; v++) {
		int a = rnd() % 5 == 0 ? rnd_in(2, 3) : 1;
		AND();
		put(b, "%d%s >= ", a, vname[v]);
		affine(b, np, v, 1);
		int c = rnd() % 5 == 0 ? rnd_in(2, 3) : 1;
		put(b, " and %d%s <= ", c, vname[v]);
		affine(b, np, v, 2);
	}
	int extras = rnd_in(0, 3);
	for (int e = 0; e < extras; e++) {
		int kind = rnd_in(0, nkinds - 1);
		int v = rnd_in(0, nv - 1);
		int w = rnd_in(0, nv - 1);
		AND();
		switch (kind) {
		case 0: case 1: case 2: /* inequality with small coefficients */
			put(b, "%d%s + %d%s + %d%s + %d >= 0", rnd_in(-2, 2), vname[v], rnd_in(-2, 2),
			    vname[w], rnd_in(-1, 2), pname[rnd_in(0, np - 1)], rnd_in(-2, 4));
			break;
		case 3: /* equality */
			put(b, "%d%s = %d%s + %d%s + %d", rnd_in(1, 2), vname[v], rnd_in(-1, 2),
			    vname[w], rnd_in(0, 1), pname[rnd_in(0, np - 1)], rnd_in(-2, 2));
			break;
		case 4: /* stride through an existential */
			put(b, "exists e%d: %s = %de%d + %d", *nexists, vname[v], rnd_in(2, 4),
			    *nexists, rnd_in(0, 3));
			(*nexists)++;
			break;
		case 5: /* cyclic ownership with a symbolic offset */
			put(b, "exists e%d: %s + %s = %de%d", *nexists, vname[v],
			    pname[rnd_in(0, np - 1)], rnd_in(2, 4), *nexists);
			(*nexists)++;
			break;
		case 6: /* mod */
			put(b, "(%s + %d%s) mod %d = %d", vname[v], rnd_in(0, 2), vname[w],
			    rnd_in(2, 3), rnd_in(0, 1));
			break;
		case 7: /* floor in a constraint */
			put(b, "floor(%s/%d) <= %s + %d", vname[v], rnd_in(2, 3),
			    pname[rnd_in(0, np - 1)], rnd_in(-1, 2));
			break;
		case 8: /* hole */
			put(b, "%s != %s + %d", vname[v], vname[w], rnd_in(-1, 1));
			break;
		case 10: { /* two congruences of one variable, moduli with a common
			    * factor (an index dealt over two axes) */
			static const int mod[][2] = {{2, 4}, {4, 6}, {3, 6}, {6, 9}};
			int k = rnd_in(0, 3);
			put(b, "exists e%d, e%d: %s = %de%d + %s and %s = %de%d + %d", *nexists,
			    *nexists + 1, vname[v], mod[k][0], *nexists, pname[rnd_in(0, np - 1)],
			    vname[v], mod[k][1], *nexists + 1, rnd_in(0, 2));
			*nexists += 2;
			break;
		}
		case 11: /* the owner of one index is another: w = floor((v + c)/d) */
			if (v == w)
				w = (v + 1) % nv;
			if (v == w) {
				put(b, "%s >= 0", vname[v]);
				break;
			}
			{
				int d = rnd_in(2, 5), c = rnd_in(0, 3);
				put(b, "%d%s <= %s + %d <= %d%s + %d", d, vname[w], vname[v], c, d,
				    vname[w], d - 1);
			}
			break;
		case 12: /* a block of more than 64: residues too many to split */
			put(b, "(%s + %d%s) mod %d <= %d", vname[v], rnd_in(0, 1), vname[w],
			    rnd_in(65, 130), rnd_in(0, 40));
			break;
		default: /* block ownership, concrete P */
			put(b, "%s >= %d*floor((%s + %d)/%d)", vname[v], rnd_in(0, 2),
			    pname[rnd_in(0, np - 1)], rnd_in(0, 3), rnd_in(2, 4));
			break;
		}
	}
#undef AND
}

static void random_set(struct buf *b, int *np_out)
{
	int nv = rnd_in(1, 4), np = rnd_in(1, 3), nexists = 0;
	b->n = 0;
	b->s[0] = '\0';
	put(b, "[");
	for (int p = 0; p < np; p++)
		put(b, "%s%s", p ? "," : "", pname[p]);
	put(b, "] -> { [");
	for (int v = 0; v < nv; v++)
		put(b, "%s%s", v ? "," : "", vname[v]);
	put(b, "] : ");
	conjunction(b, nv, np, &nexists);
	if (rnd() % 4 == 0) {
		put(b, " or ");
		conjunction(b, nv, np, &nexists);
	}
	put(b, " }");
	*np_out = np;
}

static long long brute(isl_set *set, int np, const long long *vals)
{
	isl_set *s = isl_set_copy(set);
	for (int p = 0; p < np; p++)
		s = isl_set_fix_si(s, isl_dim_param, (unsigned)p, (int)vals[p]);
	s = isl_set_project_out(s, isl_dim_param, 0, (unsigned)np);
	isl_val *v = isl_set_count_val(s);
	isl_set_free(s);
	long long r = v && isl_val_is_int(v) ? isl_val_get_num_si(v) : -1;
	isl_val_free(v);
	return r;
}

/* refusal kinds: first words of the reason, tallied */
struct tally {
	char kind[16][64];
	int count[16];
	int n;
};

static void tally_add(struct tally *t, const char *reason)
{
	char k[64];
	snprintf(k, sizeof(k), "%s", reason);
	char *colon = strpbrk(k, ":'(");
	if (colon)
		*colon = '\0';
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->kind[i], k) == 0) {
			t->count[i]++;
			return;
		}
	if (t->n < 16) {
		snprintf(t->kind[t->n], sizeof(t->kind[t->n]), "%s", k);
		t->count[t->n++] = 1;
	}
}

static void test_random_sets(void **state)
{
	(void)state;
	const char *seed_env = getenv("BSPCOST_SEED");
	const char *n_env = getenv("BSPCOST_RANDOM_SETS");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 10) : 20240611u;
	int nsets = n_env ? atoi(n_env) : 2000;
	rng_state = seed * 2654435761u + 1;
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	/* a few generated sets need seconds of ISL work to combine their pieces:
	 * the engine's operation limit, which is deterministic (a wall-clock guard
	 * is not: on a busy machine it refused more and failed the 90% below),
	 * turns them into counted refusals (the engine refuses at its limit) */
	eng.max_operations = 200000;
	int exact = 0, refused = 0, errors = 0, mismatches = 0, points = 0, empty_sets = 0;
	struct tally t = {.n = 0};
	for (int n = 0; n < nsets; n++) {
		struct buf b;
		int np;
		isl_set *set = NULL;
		/* prefer sets with points for some parameters (a third come out empty) */
		for (int tries = 0; tries < 4; tries++) {
			isl_set_free(set);
			random_set(&b, &np);
			set = isl_set_read_from_str(ctx, b.s);
			if (!set || isl_set_is_empty(set) == isl_bool_false)
				break;
		}
		if (!set) {
			fprintf(stderr, "generator produced an unparsable set: %s\n", b.s);
			mismatches++;
			continue;
		}
		isl_pw_qpolynomial *pw;
		char *why;
		double t0 = now_ms();
		enum count_status st = count_points(&eng, set, &pw, &why);
		double dt = now_ms() - t0;
		t_engine += dt;
		if (dt > t_worst) {
			t_worst = dt;
			snprintf(worst, sizeof(worst), "%s", b.s);
		}
		if (st == COUNT_REFUSED) {
			refused++;
			tally_add(&t, why);
			free(why);
			isl_set_free(set);
			continue;
		}
		if (st != COUNT_EXACT) {
			fprintf(stderr, "ERROR on %s: %s\n", b.s, why);
			free(why);
			errors++;
			isl_set_free(set);
			continue;
		}
		exact++;
		isl_bool e = isl_set_is_empty(set);
		if (e == isl_bool_true)
			empty_sets++;
		const char *names[3] = {"n", "m", "k"};
		for (int pt = 0; pt < 24; pt++) {
			long long vals[3];
			for (int p = 0; p < np; p++)
				vals[p] = pt < 3 ? pt - 1 : rnd_in(-3, 8); /* -1, 0, 1 first */
			double t1 = now_ms();
			long long want = brute(set, np, vals);
			t_brute += now_ms() - t1;
			char *r2;
			isl_val *v = count_eval(pw, np, names, vals, &r2);
			long long got = v && isl_val_is_int(v) ? isl_val_get_num_si(v) : -999999;
			isl_val_free(v);
			free(r2);
			points++;
			if (got != want || want < 0) {
				if (mismatches < 10) {
					char *str = isl_pw_qpolynomial_to_str(pw);
					fprintf(stderr, "MISMATCH %s at n=%lld m=%lld k=%lld: engine %lld, "
						"enumeration %lld\n  formula %s\n", b.s, vals[0],
						np > 1 ? vals[1] : 0, np > 2 ? vals[2] : 0, got, want, str);
					free(str);
				}
				mismatches++;
				break;
			}
		}
		isl_pw_qpolynomial_free(pw);
		isl_set_free(set);
	}
	printf("# random sets (seed %llu): %d counted exactly, %d refused, %d errors, %d "
	       "mismatches, %d points checked, %d empty sets\n",
	       (unsigned long long)seed, exact, refused, errors, mismatches, points, empty_sets);
	printf("# time: engine %.0f ms, enumeration %.0f ms; slowest count %.1f ms: %s\n",
	       t_engine, t_brute, t_worst, worst);
	for (int i = 0; i < t.n; i++)
		printf("#   refused %d: %s\n", t.count[i], t.kind[i]);
	isl_ctx_free(ctx);
	flint_cleanup();
	assert_int_equal(mismatches, 0);
	assert_int_equal(errors, 0);
	assert_true(exact >= nsets * 9 / 10);
}

/* The same sets with their parameters fixed first: sets without parameters,
 * whose counts the engine takes other routes for (no piece limit, a variable
 * of few values enumerated), against enumeration.  BSPCOST_RANDOM_SETS/4 of
 * them. */
static void test_random_fixed(void **state)
{
	(void)state;
	const char *seed_env = getenv("BSPCOST_SEED");
	const char *n_env = getenv("BSPCOST_RANDOM_SETS");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 10) : 20240611u;
	int nsets = (n_env ? atoi(n_env) : 2000) / 4;
	rng_state = seed * 2654435761u + 7;
	nkinds = 13;
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	eng.max_operations = 200000;
	int exact = 0, refused = 0, errors = 0, mismatches = 0;
	for (int n = 0; n < nsets; n++) {
		struct buf b;
		int np;
		random_set(&b, &np);
		isl_set *set = isl_set_read_from_str(ctx, b.s);
		if (!set) {
			mismatches++;
			continue;
		}
		long long vals[3];
		for (int p = 0; p < np; p++)
			vals[p] = rnd_in(0, 9);
		isl_set *fixed = isl_set_copy(set);
		for (int p = 0; p < np; p++)
			fixed = isl_set_fix_si(fixed, isl_dim_param, (unsigned)p, (int)vals[p]);
		fixed = isl_set_project_out(fixed, isl_dim_param, 0, (unsigned)np);
		isl_pw_qpolynomial *pw;
		char *why;
		enum count_status st = count_points(&eng, fixed, &pw, &why);
		if (st == COUNT_REFUSED) {
			refused++;
			free(why);
		} else if (st != COUNT_EXACT) {
			fprintf(stderr, "ERROR on %s: %s\n", b.s, why);
			free(why);
			errors++;
		} else {
			exact++;
			long long want = brute(set, np, vals);
			isl_val *v = isl_pw_qpolynomial_eval(pw, isl_point_zero(isl_pw_qpolynomial_get_domain_space(pw)));
			long long got = v && isl_val_is_int(v) ? isl_val_get_num_si(v) : -999999;
			isl_val_free(v);
			if (got != want || want < 0) {
				if (mismatches < 10)
					fprintf(stderr, "MISMATCH %s at n=%lld m=%lld k=%lld: engine %lld, "
						"enumeration %lld\n", b.s, vals[0], np > 1 ? vals[1] : 0,
						np > 2 ? vals[2] : 0, got, want);
				mismatches++;
			}
		}
		isl_set_free(fixed);
		isl_set_free(set);
	}
	nkinds = 12;
	printf("# random sets with fixed parameters (seed %llu): %d counted exactly, %d refused, "
	       "%d errors, %d mismatches\n", (unsigned long long)seed, exact, refused, errors,
	       mismatches);
	isl_ctx_free(ctx);
	flint_cleanup();
	assert_int_equal(mismatches, 0);
	assert_int_equal(errors, 0);
	assert_true(exact >= nsets * 9 / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_sets),
		cmocka_unit_test(test_random_fixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
