/* Counting-engine benchmark: a fixed corpus of the sets the analyzer produces
 * (Niculescu's matrix multiplication in symbolic-grid and concrete-grid form,
 * stencils, transposes), each counted symbolically (median of repeated runs) and
 * by brute-force enumeration at growing sizes, so the ratio shows.  Prints one
 * table and the peak memory; figures, not assertions (exit 1 only if a count is
 * refused or disagrees with enumeration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <flint/flint.h>
#include <isl/ctx.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/count/count.h"
#include "analyzer/util/session.h"

/* Entries leave out nmax when it is 0. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

struct corpus {
	const char *name;
	const char *set;
	/* parameter values at size S: "S", "S/4" (S divided by 4), or a constant */
	const char *values[6];
	int nmax; /* > 0: max over the first nmax coordinates (count_max_of_count) */
};

static const struct corpus corpus[] = {
	{"mm1 fan_in_A symbolic (s,u) grid",
	 "[mb,N,ob,t] -> { [u,ta,ka] : 0 <= t < N and 0 <= u < mb and 0 <= ta < N and "
	 "ta != t and 0 <= ka < ob }", {"S/4", "4", "S/4", "1"}},
	{"mm1 fan_in_B symbolic (s,u) grid",
	 "[nb,M,ob,s] -> { [sb,kb,v] : 0 <= s < M and 0 <= sb < M and sb != s and "
	 "0 <= kb < ob and 0 <= v < nb }", {"S/4", "4", "S/4", "2"}},
	{"mm1 NCom symbolic grid",
	 "[M,N,mb,nb,ob] -> { [s,t,u,ta,ka] : 0 <= s < M and 0 <= t < N and 0 <= u < mb and "
	 "0 <= ta < N and ta != t and 0 <= ka < ob }", {"4", "4", "S/4", "S/4", "S/4"}},
	{"mm1 fan_in_A 4x4 block, proc (1,2)",
	 "[m,o] -> { [i,k] : 0 <= i < m and 0 <= k < o and floor((m + 3)/4) <= i < "
	 "2*floor((m + 3)/4) and not (2*floor((o + 3)/4) <= k < 3*floor((o + 3)/4)) }",
	 {"S", "S"}},
	{"mm1 fan_in_A 4x4 cyclic, proc (1,2)",
	 "[m,o] -> { [i,k] : 0 <= i < m and 0 <= k < o and i mod 4 = 1 and k mod 4 != 2 }",
	 {"S", "S"}},
	{"mm1 fan_in_A 4x4 cyclic, symbolic proc",
	 "[m,o,s,t] -> { [i,k] : 0 <= s < 4 and 0 <= t < 4 and 0 <= i < m and 0 <= k < o and "
	 "exists e, f : i = 4e + s and k != 4f + t }", {"S", "S", "1", "2"}},
	{"mm1 h: max over 4 procs, cyclic",
	 "[m,o] -> { [s,i,k] : 0 <= s < 4 and 0 <= i < m and 0 <= k < o and i mod 4 = s }",
	 {"S", "S"}, 1},
	{"mm1 h: max over 4 procs, block",
	 "[m] -> { [s,i] : 0 <= i < m and ((s = 0 and i < floor((m+3)/4)) or (s = 1 and "
	 "floor((m+3)/4) <= i < 2*floor((m+3)/4)) or (s = 2 and 2*floor((m+3)/4) <= i < "
	 "3*floor((m+3)/4)) or (s = 3 and 3*floor((m+3)/4) <= i)) }", {"S"}, 1},
	{"stencil 1-D neighbour pairs",
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and (j = i - 1 or j = i + 1) }", {"S"}},
	{"stencil 1-D halo, block P=4, proc 1",
	 "[n] -> { [i] : 0 <= i < n and (i = floor((n+3)/4) - 1 or i = 2*floor((n+3)/4)) }",
	 {"S"}},
	{"stencil 2-D 5-point pairs",
	 "[n,m] -> { [i,j,k,l] : 0 <= i,k < n and 0 <= j,l < m and ((k = i + 1 and l = j) or "
	 "(k = i - 1 and l = j) or (k = i and l = j + 1) or (k = i and l = j - 1)) }",
	 {"S", "S"}},
	{"stencil 2-D cut edges, 2x2 cyclic",
	 "[n] -> { [i,j,k] : 0 <= i < n and 0 <= j < n and k = i + 1 and k < n and "
	 "i mod 2 != k mod 2 }", {"S"}},
	{"transpose pairs",
	 "[n] -> { [i,j,k,l] : 0 <= i < n and 0 <= j < n and k = j and l = i }", {"S"}},
	{"transpose remote, row-cyclic P=4",
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and (i - j) mod 4 != 0 }", {"S"}},
	{"triangle", "[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }", {"S"}},
	{"tetrahedron", "[n] -> { [i,j,k] : 0 <= k <= j <= i < n }", {"S"}},
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static long long value_at(const char *spec, long long S)
{
	if (strcmp(spec, "S") == 0)
		return S;
	if (strcmp(spec, "S/4") == 0)
		return S / 4;
	return atoll(spec);
}

static enum count_status run(struct count_engine *eng, const struct corpus *c, isl_set *set,
			     isl_pw_qpolynomial **pw, char **why)
{
	if (c->nmax > 0)
		return count_max_of_count(eng, set, c->nmax, pw, why);
	return count_points(eng, set, pw, why);
}

/* brute force: fix the parameters, enumerate (for a max: each process) */
static long long brute(isl_set *set, const long long *v, int nmax)
{
	isl_size np = isl_set_dim(set, isl_dim_param);
	isl_set *s = isl_set_copy(set);
	for (int p = 0; p < np; p++)
		s = isl_set_fix_si(s, isl_dim_param, (unsigned)p, (int)v[p]);
	s = isl_set_project_out(s, isl_dim_param, 0, (unsigned)np);
	long long best = 0;
	if (nmax == 0) {
		isl_val *c = isl_set_count_val(s);
		best = c ? isl_val_get_num_si(c) : -1;
		isl_val_free(c);
	} else {
		for (int proc = 0; proc < 4; proc++) {
			isl_set *f = isl_set_fix_si(isl_set_copy(s), isl_dim_set, 0, proc);
			isl_val *c = isl_set_count_val(f);
			long long x = c ? isl_val_get_num_si(c) : -1;
			isl_val_free(c);
			isl_set_free(f);
			if (x > best)
				best = x;
		}
	}
	isl_set_free(s);
	return best;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 21;
	static const long long sizes[] = {16, 64, 256};
	isl_ctx *ctx = session_ctx(NULL);
	struct count_engine eng;
	count_engine_init(&eng, ctx);
	int failures = 0;
	double worst = 0;
	printf("%-40s %9s %6s | %-26s %-26s %-26s\n", "set", "count ms", "pieces",
	       "enum ms @16 (ratio)", "enum ms @64 (ratio)", "enum ms @256 (ratio)");
	for (size_t k = 0; k < sizeof(corpus) / sizeof(corpus[0]); k++) {
		const struct corpus *c = &corpus[k];
		isl_set *set = isl_set_read_from_str(ctx, c->set);
		if (!set) {
			printf("%-40s cannot parse\n", c->name);
			failures++;
			continue;
		}
		double *t = calloc((size_t)reps, sizeof(double));
		isl_pw_qpolynomial *pw = NULL;
		enum count_status st = COUNT_EXACT;
		for (int r = 0; r < reps && st == COUNT_EXACT; r++) {
			isl_pw_qpolynomial_free(pw);
			char *why = NULL;
			double t0 = now_ms();
			st = run(&eng, c, set, &pw, &why);
			t[r] = now_ms() - t0;
			if (st != COUNT_EXACT)
				printf("%-40s REFUSED/ERROR: %s\n", c->name, why);
			free(why);
		}
		if (st != COUNT_EXACT) {
			failures++;
			free(t);
			isl_set_free(set);
			continue;
		}
		qsort(t, (size_t)reps, sizeof(double), cmp_double);
		double med = t[reps / 2];
		if (med > worst)
			worst = med;
		free(t);
		isl_size npieces = isl_pw_qpolynomial_n_piece(pw);
		printf("%-40s %9.3f %6d |", c->name, med, (int)npieces);
		isl_space *space = isl_set_get_space(set);
		isl_size np = isl_space_dim(space, isl_dim_param);
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			long long v[6];
			const char *names[6];
			for (int p = 0; p < np; p++) {
				v[p] = value_at(c->values[p], sizes[z]);
				names[p] = isl_space_get_dim_name(space, isl_dim_param, (unsigned)p);
			}
			double t0 = now_ms();
			long long want = brute(set, v, c->nmax);
			double bt = now_ms() - t0;
			char *why = NULL;
			isl_val *got = count_eval(pw, np, names, v, &why);
			long long g = got ? isl_val_get_num_si(got) : -1;
			isl_val_free(got);
			free(why);
			char cell[64];
			snprintf(cell, sizeof(cell), "%.2f (%.0fx)%s", bt, bt / (med > 0 ? med : 1e-3),
				 g == want ? "" : " MISMATCH");
			printf(" %-26s", cell);
			if (g != want)
				failures++;
		}
		printf("\n");
		isl_space_free(space);
		isl_pw_qpolynomial_free(pw);
		isl_set_free(set);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("slowest median count: %.3f ms; peak memory (ru_maxrss): %ld KiB; %d failures\n",
	       worst, ru.ru_maxrss, failures);
	isl_ctx_free(ctx);
	flint_cleanup();
	return failures ? 1 : 0;
}
