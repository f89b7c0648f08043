/* The cluster hierarchy: numberings, H(i) counted from a superstep's
 * relations at values, and alpha (hierarchy.h). */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/cost/cost_internal.h"
#include "analyzer/cost/hierarchy.h"

const char *const numbering_name[NUMBERING_N] = {"row", "col", "morton"};

int numbering_parse(const char *name, enum numbering *out)
{
	for (int k = 0; k < NUMBERING_N; k++)
		if (strcmp(name, numbering_name[k]) == 0) {
			*out = (enum numbering)k;
			return 0;
		}
	return -1;
}

/* log2(X) when X >= 1 is a power of two; -1 otherwise. */
static int log2_exact(long x)
{
	int k = 0;
	if (x < 1)
		return -1;
	while (x % 2 == 0) {
		x /= 2;
		k++;
	}
	return x == 1 ? k : -1;
}

int hierarchy_levels(const long sizes[], int naxes)
{
	int k = 0;
	for (int a = 0; a < naxes; a++) {
		int e = log2_exact(sizes[a]);
		if (e < 0)
			return -1;
		k += e;
	}
	return k;
}

void hierarchy_box(enum numbering nb, const long sizes[], int naxes, int bits, long box[])
{
	int used[3] = {0, 0, 0};   /* the bits of each axis the number's low bits hold */
	int have[3] = {0, 0, 0};   /* ... of its log2(size) */
	for (int a = 0; a < naxes; a++) {
		box[a] = 1;
		have[a] = log2_exact(sizes[a]);
	}
	/* the number's bits from the lowest, each naming the axis it is a bit of */
	for (int b = 0; b < bits; b++) {
		int a = -1;
		if (nb == NUMBERING_ROW) {
			for (a = naxes - 1; a >= 0 && used[a] == have[a]; a--)
				;
		} else if (nb == NUMBERING_COL) {
			for (a = 0; a < naxes && used[a] == have[a]; a++)
				;
		} else {
			/* the axis with the fewest bits used, the last first on a tie */
			for (int c = naxes - 1; c >= 0; c--)
				if (used[c] < have[c] && (a < 0 || used[c] < used[a]))
					a = c;
		}
		if (a < 0 || a >= naxes)
			break;   /* BITS past k: the whole grid */
		used[a]++;
		box[a] *= 2;
	}
}

int hierarchy_init(struct hierarchy *hr, int k)
{
	memset(hr, 0, sizeof(*hr));
	hr->k = k;
	hr->runs = 1;
	mpq_init(hr->value);
	mpq_init(hr->ratio);
	hr->H = k > 0 ? malloc(sizeof(*hr->H) * (size_t)k) : NULL;
	hr->ceil = k > 0 ? malloc(sizeof(*hr->ceil) * (size_t)k) : NULL;
	if (k > 0 && (!hr->H || !hr->ceil)) {
		free(hr->H);
		free(hr->ceil);
		hr->H = hr->ceil = NULL;
		hr->k = 0;
		return -1;
	}
	for (int i = 0; i < k; i++) {
		mpq_init(hr->H[i]);
		mpq_init(hr->ceil[i]);
	}
	return 0;
}

void hierarchy_clear(struct hierarchy *hr)
{
	for (int i = 0; hr->H && i < hr->k; i++) {
		mpq_clear(hr->H[i]);
		mpq_clear(hr->ceil[i]);
	}
	free(hr->H);
	free(hr->ceil);
	mpq_clear(hr->value);
	mpq_clear(hr->ratio);
	memset(hr, 0, sizeof(*hr));
}

/* Whether R^E < S^D (R, S > 0). */
static bool pow_less(mpq_srcptr r, long e, mpq_srcptr s, long d)
{
	mpz_t a, b, t;
	mpz_inits(a, b, t, NULL);
	/* (rn/rd)^e < (sn/sd)^d  <=>  rn^e sd^d < sn^d rd^e */
	mpz_pow_ui(a, mpq_numref(r), (unsigned long)e);
	mpz_pow_ui(t, mpq_denref(s), (unsigned long)d);
	mpz_mul(a, a, t);
	mpz_pow_ui(b, mpq_numref(s), (unsigned long)d);
	mpz_pow_ui(t, mpq_denref(r), (unsigned long)e);
	mpz_mul(b, b, t);
	bool less = mpz_cmp(a, b) < 0;
	mpz_clears(a, b, t, NULL);
	return less;
}

/* log2(Z) when Z > 0 is a power of two; -1 otherwise. */
static long mpz_log2_exact(mpz_srcptr z)
{
	if (mpz_sgn(z) <= 0)
		return -1;
	mp_bitcnt_t low = mpz_scan1(z, 0);
	return mpz_sizeinbase(z, 2) == low + 1 ? (long)low : -1;
}

/* HR's alpha = log2(R) / D (R >= 1, D >= 1). */
static void set_alpha(struct hierarchy *hr, mpq_srcptr r, long d)
{
	mpq_set(hr->ratio, r);
	hr->den = d;
	long e = mpz_cmp_ui(mpq_denref(r), 1) == 0 ? mpz_log2_exact(mpq_numref(r)) : -1;
	if (e >= 0) {
		hr->alpha = ALPHA_RATIONAL;
		mpq_set_si(hr->value, e, (unsigned long)d);
		mpq_canonicalize(hr->value);
		hr->approx = mpq_get_d(hr->value);
	} else {
		hr->alpha = ALPHA_LOG;
		/* log2 of a quotient of big integers, without overflowing a double */
		long ne, de;
		double nm = mpz_get_d_2exp(&ne, mpq_numref(r));
		double dm = mpz_get_d_2exp(&de, mpq_denref(r));
		hr->approx = (log2(nm) - log2(dm) + (double)(ne - de)) / (double)d;
	}
}

void hierarchy_alpha(struct hierarchy *hr)
{
	hr->alpha = ALPHA_NONE;
	hr->den = 0;
	hr->approx = 0;
	if (hr->k == 0 || mpq_sgn(hr->H[hr->k - 1]) == 0)
		return;
	mpq_srcptr h = hr->H[hr->k - 1];
	mpq_t r, best;
	mpq_inits(r, best, NULL);
	long bestd = 0;
	for (int j = 0; j < hr->k - 1; j++) {
		if (mpq_sgn(hr->H[j]) == 0)
			continue;
		mpq_div(r, h, hr->H[j]);       /* >= 1: a cluster sends no more than its members */
		long d = hr->k - 1 - j;
		if (bestd == 0 || pow_less(r, bestd, best, d)) {
			mpq_set(best, r);
			bestd = d;
		}
	}
	if (bestd == 0) {
		hr->alpha = ALPHA_UNBOUNDED;
	} else {
		set_alpha(hr, best, bestd);
	}
	mpq_clears(r, best, NULL);
}

void hierarchy_add_run(struct hierarchy *sum, const struct hierarchy *run)
{
	if (sum->runs == 0) {
		for (int i = 0; i < sum->k; i++) {
			mpq_set(sum->H[i], run->H[i]);
			mpq_set(sum->ceil[i], run->ceil[i]);
		}
		sum->alpha = run->alpha;
		if (run->alpha == ALPHA_RATIONAL || run->alpha == ALPHA_LOG)
			set_alpha(sum, run->ratio, run->den);
		sum->runs = 1;
		return;
	}
	for (int i = 0; i < sum->k; i++) {
		mpq_add(sum->H[i], sum->H[i], run->H[i]);
		mpq_add(sum->ceil[i], sum->ceil[i], run->ceil[i]);
	}
	sum->runs++;
	/* the least alpha: a run without words (NONE) or with no bound
	 * (UNBOUNDED) bounds nothing */
	bool run_bounds = run->alpha == ALPHA_RATIONAL || run->alpha == ALPHA_LOG;
	bool sum_bounds = sum->alpha == ALPHA_RATIONAL || sum->alpha == ALPHA_LOG;
	if (run_bounds && (!sum_bounds || pow_less(run->ratio, sum->den, sum->ratio, run->den))) {
		mpq_t r;
		mpq_init(r);
		mpq_set(r, run->ratio);
		set_alpha(sum, r, run->den);
		mpq_clear(r);
	} else if (!run_bounds && !sum_bounds && run->alpha == ALPHA_UNBOUNDED) {
		sum->alpha = ALPHA_UNBOUNDED;
	}
}

char *hierarchy_alpha_text(const struct hierarchy *hr)
{
	char *s = NULL;
	switch (hr->alpha) {
	case ALPHA_NONE:
		return strdup("none");
	case ALPHA_UNBOUNDED:
		return strdup("unbounded");
	case ALPHA_RATIONAL:
		return mpq_get_str(NULL, 10, hr->value);
	case ALPHA_LOG: {
		char *v = mpq_get_str(NULL, 10, hr->ratio);
		if (!v)
			return NULL;
		int n = hr->den == 1 ? asprintf(&s, "log2(%s)", v)
				     : asprintf(&s, "log2(%s)/%ld", v, hr->den);
		free(v);
		return n < 0 ? NULL : s;
	}
	}
	return NULL;
}

/* ------------------------------------------------------------ counting */

/* { [q] -> [u] : u_a = floor(q_a / BOX[a]) }, on the space of PROCESSES:
 * each process to its cluster. */
static __isl_give isl_map *cluster_map(__isl_keep isl_set *processes, const long box[], int naxes)
{
	isl_space *s = isl_space_map_from_set(isl_set_get_space(processes));
	isl_multi_aff *ma = isl_multi_aff_identity(s);
	for (int a = 0; ma && a < naxes; a++) {
		isl_aff *x = isl_multi_aff_get_aff(ma, a);
		x = isl_aff_floor(isl_aff_scale_down_ui(x, (unsigned)box[a]));
		ma = isl_multi_aff_set_aff(ma, a, x);
	}
	return isl_map_from_multi_aff(ma);
}

/* The words clusters send out (OUT) and receive from outside (IN), as
 * functions of the cluster's coordinates u (the parameters), for the
 * clusters of KAPPA (kept), summed over R's arrays. */
static void cluster_words(struct job *j, const struct step_relations *r,
			  __isl_keep isl_map *kappa, __isl_give isl_pw_qpolynomial *words[2])
{
	words[0] = words[1] = NULL;
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		/* { [y -> e] -> [x] }: x sends e to y, which uses it and holds it not */
		isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
						   isl_map_reverse(isl_map_copy(r->own[a])));
		isl_map *t = relations_senders(r, a, remote);
		isl_map_free(remote);
		isl_map *from = isl_map_apply_range(isl_map_copy(t), isl_map_copy(kappa));
		isl_map *to = isl_map_apply_range(
			isl_map_domain_map(isl_set_unwrap(isl_map_domain(t))), isl_map_copy(kappa));
		/* the sender's cluster but not the user's: out; the other way: in */
		isl_map *dir[2] = {isl_map_subtract(isl_map_copy(from), isl_map_copy(to)),
				   isl_map_subtract(to, from)};
		long w = (long)j->m->arrays[a].words;
		for (int d = 0; d < 2; d++) {
			isl_map *m = isl_map_reverse(dir[d]);   /* u -> [y -> e] */
			m = isl_map_move_dims(m, isl_dim_param, 0, isl_dim_in, 0, (unsigned)j->naxes);
			isl_pw_qpolynomial *c = cost_count_set(j, isl_map_range(m), "H");
			if (c && w != 1)
				c = isl_pw_qpolynomial_scale_val(c, isl_val_int_from_si(
									    isl_map_get_ctx(kappa), w));
			if (!c) {
				if (!failed(&j->fail))
					cost_isl_op_failed(j, "H");
				continue;
			}
			words[d] = words[d] ? isl_pw_qpolynomial_add(words[d], c) : c;
			if (!words[d])
				cost_isl_op_failed(j, "H");
		}
	}
}

/* The largest of F (kept) over the clusters 0 <= u_a < N[a]: into *MAX (at
 * least 0). */
static void max_over_clusters(struct job *j, __isl_keep isl_pw_qpolynomial *f, const long n[],
			      mpz_t max)
{
	long u[3] = {0, 0, 0};
	mpz_t v;
	mpz_init(v);
	for (;;) {
		isl_point *pt = isl_point_zero(isl_pw_qpolynomial_get_domain_space(f));
		for (int a = 0; pt && a < j->naxes; a++)
			pt = isl_point_set_coordinate_val(pt, isl_dim_param, (unsigned)a,
							  isl_val_int_from_si(isl_pw_qpolynomial_get_ctx(f),
									      u[a]));
		isl_val *x = pt ? isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(f), pt) : NULL;
		if (!x || !isl_val_is_int(x) || isl_val_get_num_gmp(x, v) < 0) {
			isl_val_free(x);
			cost_isl_op_failed(j, "H");
			break;
		}
		isl_val_free(x);
		if (mpz_cmp(v, max) > 0)
			mpz_set(max, v);
		if (cost_out_of_time(j))
			break;
		int a = j->naxes - 1;
		while (a >= 0 && ++u[a] == n[a])
			u[a--] = 0;
		if (a < 0)
			break;
	}
	mpz_clear(v);
}

void cost_count_hierarchy(struct job *j, const struct step_relations *r,
			  const struct cost_request *req, struct step_cost *sc)
{
	int k = hierarchy_levels(req->sizes, j->naxes);
	struct hierarchy *hr = calloc(1, sizeof(*hr));
	if (k < 0 || !hr || hierarchy_init(hr, k) < 0) {
		free(hr);
		cost_job_fail(j, COST_FAILED, NULL, "H");
		return;
	}
	mpz_t max;
	mpz_init(max);
	for (int i = 0; i < k && !failed(&j->fail); i++) {
		long box[3], n[3];
		hierarchy_box(req->numbering, req->sizes, j->naxes, k - i - 1, box);
		for (int a = 0; a < j->naxes; a++)
			n[a] = req->sizes[a] / box[a];
		isl_map *kappa = cluster_map(r->processes, box, j->naxes);
		isl_pw_qpolynomial *words[2];
		cluster_words(j, r, kappa, words);
		isl_map_free(kappa);
		mpz_set_ui(max, 0);
		for (int d = 0; d < 2 && !failed(&j->fail); d++)
			if (words[d])   /* NULL: no array read, no word */
				max_over_clusters(j, words[d], n, max);
		isl_pw_qpolynomial_free(words[0]);
		isl_pw_qpolynomial_free(words[1]);
		mpq_set_z(hr->H[i], max);
		/* an (i+1)-cluster has 2^(k-i-1) processes */
		mpz_mul_2exp(mpq_denref(hr->H[i]), mpq_denref(hr->H[i]), (mp_bitcnt_t)(k - i - 1));
		mpq_canonicalize(hr->H[i]);
		mpz_cdiv_q(mpq_numref(hr->ceil[i]), mpq_numref(hr->H[i]), mpq_denref(hr->H[i]));
	}
	mpz_clear(max);
	if (failed(&j->fail)) {
		hierarchy_clear(hr);
		free(hr);
		return;
	}
	hierarchy_alpha(hr);
	sc->hier = hr;
}
