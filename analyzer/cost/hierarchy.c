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

const char *numbering_label(enum numbering nb)
{
	return nb < NUMBERING_N ? numbering_name[nb] : "map";
}

int numbering_map_check(const struct numbering_map *map, const long sizes[], int naxes,
			char **why)
{
	long p = 1;
	for (int a = 0; a < naxes; a++)
		p *= sizes[a];
	*why = NULL;
	int r = 0;
	if (map->dims != naxes)
		r = asprintf(why, "%s gives %d coordinate%s a process, the grid has %d ax%s",
			     map->path, map->dims, map->dims == 1 ? "" : "s", naxes,
			     naxes == 1 ? "is" : "es");
	else if (map->n != p)
		r = asprintf(why, "%s lists %d process%s, the grid has %ld", map->path, map->n,
			     map->n == 1 ? "" : "es", p);
	if (r < 0)
		*why = NULL;
	if (r != 0)
		return -1;
	int *seen = calloc((size_t)p + 1, sizeof(*seen));   /* its number + 1 */
	if (!seen)
		return -1;
	for (int j = 0; j < map->n && !*why; j++) {
		long id = 0;
		int a = 0;
		for (; a < naxes; a++) {
			if (map->q[j][a] < 0 || map->q[j][a] >= sizes[a])
				break;
			id = id * sizes[a] + map->q[j][a];
		}
		if (a < naxes)
			r = asprintf(why, "%s: process %d's coordinate %ld on axis %d is outside the "
					  "grid (0 to %ld)", map->path, j, map->q[j][a], a + 1,
				     sizes[a] - 1);
		else if (seen[id])
			r = asprintf(why, "%s: number %d is the process numbered %d already",
				     map->path, j, seen[id] - 1);
		else
			seen[id] = j + 1;
		if (r < 0)
			*why = NULL;
		r = 0;
	}
	free(seen);
	return *why ? -1 : 0;
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

/* For array A of R (read in the superstep), the words clusters send out
 * (DIR[0]) and receive from outside (DIR[1]): { u -> [y -> e] }, the
 * cluster u (of KAPPA, kept) to the element e a process y uses and holds
 * not, sent from a process of u to one outside, or the other way. */
static void cluster_dirs(const struct step_relations *r, int a, __isl_keep isl_map *kappa,
			 __isl_give isl_map *dir[2])
{
	/* { [y -> e] -> [x] }: x sends e to y, which uses it and holds it not */
	isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
					   isl_map_reverse(isl_map_copy(r->own[a])));
	isl_map *t = relations_senders(r, a, remote);
	isl_map_free(remote);
	isl_map *from = isl_map_apply_range(isl_map_copy(t), isl_map_copy(kappa));
	isl_map *to = isl_map_apply_range(isl_map_domain_map(isl_set_unwrap(isl_map_domain(t))),
					  isl_map_copy(kappa));
	/* the sender's cluster but not the user's: out; the other way: in */
	dir[0] = isl_map_reverse(isl_map_subtract(isl_map_copy(from), isl_map_copy(to)));
	dir[1] = isl_map_reverse(isl_map_subtract(to, from));
}

/* The number of points of SET (taken) times W, added to *SUM (NULL: none
 * yet); the job fails (about H) when it cannot be counted. */
static void add_count(struct job *j, __isl_take isl_set *set, long w,
		      __isl_give isl_pw_qpolynomial **sum)
{
	isl_pw_qpolynomial *c = cost_count_set(j, set, "H");
	if (c && w != 1)
		c = isl_pw_qpolynomial_scale_val(c, isl_val_int_from_si(
						    isl_pw_qpolynomial_get_ctx(c), w));
	if (!c) {
		if (!failed(&j->fail))
			cost_isl_op_failed(j, "H");
		return;
	}
	*sum = *sum ? isl_pw_qpolynomial_add(*sum, c) : c;
	if (!*sum)
		cost_isl_op_failed(j, "H");
}

/* The words clusters send out (OUT) and receive from outside (IN), as
 * functions of the cluster's coordinates u (the parameters, UDIMS of
 * them), for the clusters of KAPPA (kept), summed over R's arrays. */
static void cluster_words(struct job *j, const struct step_relations *r,
			  __isl_keep isl_map *kappa, int udims, __isl_give isl_pw_qpolynomial *words[2])
{
	words[0] = words[1] = NULL;
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		isl_map *dir[2];
		cluster_dirs(r, a, kappa, dir);
		for (int d = 0; d < 2; d++) {
			isl_map *m = isl_map_move_dims(dir[d], isl_dim_param, 0, isl_dim_in, 0,
						       (unsigned)udims);
			if (failed(&j->fail))
				isl_map_free(m);
			else
				add_count(j, isl_map_range(m), (long)j->m->arrays[a].words, &words[d]);
		}
	}
}

/* The largest of F (kept) over the clusters 0 <= u_a < N[a], a < UDIMS:
 * into *MAX (at least 0). */
static void max_over_clusters(struct job *j, __isl_keep isl_pw_qpolynomial *f, int udims,
			      const long n[], mpz_t max)
{
	long u[3] = {0, 0, 0};
	mpz_t v;
	mpz_init(v);
	for (;;) {
		isl_point *pt = isl_point_zero(isl_pw_qpolynomial_get_domain_space(f));
		for (int a = 0; pt && a < udims; a++)
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
		int a = udims - 1;
		while (a >= 0 && ++u[a] == n[a])
			u[a--] = 0;
		if (a < 0)
			break;
	}
	mpz_clear(v);
}

/* The words every process sends every other one, as a function of their
 * coordinates: { [y, x] -> words x sends y } (the parameters y, then x),
 * summed over R's arrays; NULL after a failure. */
static __isl_give isl_pw_qpolynomial *pair_words(struct job *j, const struct step_relations *r)
{
	isl_pw_qpolynomial *all = NULL;
	for (int a = 0; a < r->narrays && !failed(&j->fail); a++) {
		if (!r->use[a])
			continue;
		isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
						   isl_map_reverse(isl_map_copy(r->own[a])));
		/* { [y -> e] -> [x] } to { e -> x } with y, then x, parameters */
		isl_map *t = isl_map_curry(relations_senders(r, a, remote));
		isl_map_free(remote);
		t = isl_map_move_dims(t, isl_dim_param, 0, isl_dim_in, 0, (unsigned)j->naxes);
		isl_map *ex = isl_set_unwrap(isl_map_range(t));
		ex = isl_map_move_dims(ex, isl_dim_param, (unsigned)j->naxes, isl_dim_out, 0,
				       (unsigned)j->naxes);
		add_count(j, isl_map_domain(ex), (long)j->m->arrays[a].words, &all);
	}
	if (failed(&j->fail)) {
		isl_pw_qpolynomial_free(all);
		return NULL;
	}
	return all;
}

/* HR's H(i) under the user's numbering REQ->map, from the words between
 * every pair of processes (at most HIERARCHY_MAP_MAX of them): the
 * clusters are runs of consecutive numbers, boxes or not. */
static void map_hierarchy(struct job *j, const struct step_relations *r,
			  const struct cost_request *req, int k, struct hierarchy *hr)
{
	long p = 1L << k;
	if (p > HIERARCHY_MAP_MAX) {
		char *why = NULL;
		if (asprintf(&why, "a numbering file is counted pair of processes by pair: at most "
				   "%d processes, not %ld", HIERARCHY_MAP_MAX, p) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, "H");
		return;
	}
	isl_pw_qpolynomial *w = r->narrays > 0 ? pair_words(j, r) : NULL;
	if (failed(&j->fail))
		return;
	long *num = malloc(sizeof(*num) * (size_t)p);  /* a process's number, by row-major index */
	mpz_t *out = malloc(sizeof(*out) * (size_t)p), *in = malloc(sizeof(*in) * (size_t)p);
	mpz_t *R = w ? malloc(sizeof(*R) * (size_t)(p * p)) : NULL;
	if (!num || !out || !in || (w && !R)) {
		free(num);
		free(out);
		free(in);
		free(R);
		isl_pw_qpolynomial_free(w);
		cost_isl_op_failed(j, "H");
		return;
	}
	for (int n = 0; n < req->map->n; n++) {
		long id = 0;
		for (int a = 0; a < j->naxes; a++)
			id = id * req->sizes[a] + req->map->q[n][a];
		num[id] = n;
	}
	/* R[x * p + y]: the words process x sends y, x and y row-major */
	long qx[3], qy[3];
	for (long x = 0; R && x < p && !failed(&j->fail); x++)
		for (long y = 0; y < p; y++) {
			mpz_init(R[x * p + y]);
			if (x == y || failed(&j->fail))
				continue;
			for (long a = j->naxes - 1, ix = x, iy = y; a >= 0; a--) {
				qx[a] = ix % req->sizes[a];
				qy[a] = iy % req->sizes[a];
				ix /= req->sizes[a];
				iy /= req->sizes[a];
			}
			isl_point *pt = isl_point_zero(isl_pw_qpolynomial_get_domain_space(w));
			for (int a = 0; pt && a < j->naxes; a++) {
				isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(w);
				pt = isl_point_set_coordinate_val(pt, isl_dim_param, (unsigned)a,
								  isl_val_int_from_si(ctx, qy[a]));
				pt = pt ? isl_point_set_coordinate_val(
						  pt, isl_dim_param, (unsigned)(j->naxes + a),
						  isl_val_int_from_si(ctx, qx[a]))
					: NULL;
			}
			isl_val *v = pt ? isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(w), pt) : NULL;
			if (!v || !isl_val_is_int(v) || isl_val_get_num_gmp(v, R[x * p + y]) < 0)
				cost_isl_op_failed(j, "H");
			isl_val_free(v);
		}
	for (long c = 0; c < p; c++)
		mpz_inits(out[c], in[c], NULL);
	mpz_t max;
	mpz_init(max);
	for (int i = 0; i < k && R && !failed(&j->fail); i++) {
		long size = 1L << (k - i - 1);   /* an (i+1)-cluster's processes */
		for (long c = 0; c < p; c++) {
			mpz_set_ui(out[c], 0);
			mpz_set_ui(in[c], 0);
		}
		for (long x = 0; x < p; x++)
			for (long y = 0; y < p; y++) {
				long cx = num[x] / size, cy = num[y] / size;
				if (cx == cy || mpz_sgn(R[x * p + y]) == 0)
					continue;
				mpz_add(out[cx], out[cx], R[x * p + y]);
				mpz_add(in[cy], in[cy], R[x * p + y]);
			}
		mpz_set_ui(max, 0);
		for (long c = 0; c < p / size; c++) {
			if (mpz_cmp(out[c], max) > 0)
				mpz_set(max, out[c]);
			if (mpz_cmp(in[c], max) > 0)
				mpz_set(max, in[c]);
		}
		mpq_set_z(hr->H[i], max);
		mpz_mul_ui(mpq_denref(hr->H[i]), mpq_denref(hr->H[i]), (unsigned long)size);
		mpq_canonicalize(hr->H[i]);
		mpz_cdiv_q(mpq_numref(hr->ceil[i]), mpq_numref(hr->H[i]), mpq_denref(hr->H[i]));
	}
	mpz_clear(max);
	for (long c = 0; c < p; c++)
		mpz_clears(out[c], in[c], NULL);
	for (long x = 0; R && x < p * p; x++)
		mpz_clear(R[x]);
	free(R);
	free(out);
	free(in);
	free(num);
	isl_pw_qpolynomial_free(w);
}

void cost_count_hierarchy(struct job *j, const struct step_relations *r,
			  const struct cost_request *req, struct step_cost *sc)
{
	int k = hierarchy_levels(req->sizes, j->naxes);
	if (k < 0) {   /* the command line refuses such grids first */
		cost_job_fail(j, COST_REFUSED, strdup("the grid has no 2^k processes"), "H");
		return;
	}
	struct hierarchy *hr = calloc(1, sizeof(*hr));
	if (!hr || hierarchy_init(hr, k) < 0) {
		if (hr)
			hierarchy_clear(hr);
		free(hr);
		cost_job_fail(j, COST_FAILED, NULL, "H");
		return;
	}
	if (req->numbering == NUMBERING_MAP)
		map_hierarchy(j, r, req, k, hr);
	mpz_t max;
	mpz_init(max);
	for (int i = 0; req->numbering != NUMBERING_MAP && i < k && !failed(&j->fail); i++) {
		long box[3], n[3];
		int udims = j->naxes;
		hierarchy_box(req->numbering, req->sizes, j->naxes, k - i - 1, box);
		for (int a = 0; a < j->naxes; a++)
			n[a] = req->sizes[a] / box[a];
		isl_map *kappa = cluster_map(r->processes, box, j->naxes);
		isl_pw_qpolynomial *words[2];
		cluster_words(j, r, kappa, udims, words);
		isl_map_free(kappa);
		mpz_set_ui(max, 0);
		for (int d = 0; d < 2 && !failed(&j->fail); d++)
			if (words[d])   /* NULL: no array read, no word */
				max_over_clusters(j, words[d], udims, n, max);
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

/* Appends G (taken; NULL: no word) to OUT[*N_OUT] unless it is zero or
 * plainly equal to one there (the clusters inside a stencil's grid send
 * alike); -1 on a failure. */
static int add_apart(__isl_take isl_pw_qpolynomial *g, isl_pw_qpolynomial ***out, long *n_out,
		     long *cap)
{
	isl_bool zero = g ? isl_pw_qpolynomial_is_zero(g) : isl_bool_true;
	isl_bool same = isl_bool_false;
	for (long c = 0; zero == isl_bool_false && same == isl_bool_false && c < *n_out; c++)
		same = isl_pw_qpolynomial_plain_is_equal(g, (*out)[c]);
	if (zero || same || zero < 0 || same < 0) {
		isl_pw_qpolynomial_free(g);
		return zero < 0 || same < 0 ? -1 : 0;
	}
	if (*n_out == *cap) {
		long more = *cap ? 2 * *cap : 16;
		isl_pw_qpolynomial **grown = realloc(*out, sizeof(**out) * (size_t)more);
		if (!grown) {
			isl_pw_qpolynomial_free(g);
			return -1;
		}
		*out = grown;
		*cap = more;
	}
	(*out)[(*n_out)++] = g;
	return 0;
}

/* The processes of the box of extents BOX at U (in boxes), on the space
 * of PROCESSES (kept). */
static __isl_give isl_set *box_at(__isl_keep isl_set *processes, const long box[],
				  const long u[], int naxes)
{
	isl_set *b = isl_set_universe(isl_set_get_space(processes));
	for (int a = 0; a < naxes; a++) {
		b = isl_set_lower_bound_si(b, isl_dim_set, (unsigned)a, (int)(u[a] * box[a]));
		b = isl_set_upper_bound_si(b, isl_dim_set, (unsigned)a,
					   (int)((u[a] + 1) * box[a] - 1));
	}
	return b;
}

/* The words each cluster, a box of extents BOX (0 <= u_a < N[a] in
 * boxes), sends out and receives, functions of the sizes, appended to OUT
 * as add_apart does.  Counted cluster by cluster from the senders' map
 * restricted to the box: bounds, no floor of a process's coordinates, so
 * each count is of a set as simple as a process's words. */
static void clusters_apart(struct job *j, const struct step_relations *r, const long box[],
			   const long n[], isl_pw_qpolynomial ***out, long *n_out, long *cap)
{
	int na = r->narrays;
	/* { [y -> e] -> [x] }: x sends e to y, which uses it and holds it not */
	isl_map **t = calloc((size_t)na + 1, sizeof(*t));
	if (!t) {
		cost_isl_op_failed(j, "H");
		return;
	}
	for (int a = 0; a < na; a++) {
		if (!r->use[a])
			continue;
		isl_map *remote = isl_map_subtract(isl_map_copy(r->use[a]),
						   isl_map_reverse(isl_map_copy(r->own[a])));
		t[a] = relations_senders(r, a, remote);
		isl_map_free(remote);
		if (!t[a])
			cost_isl_op_failed(j, "H");
	}
	long u[3] = {0, 0, 0};
	while (!failed(&j->fail) && !cost_out_of_time(j)) {
		isl_set *in_box = box_at(r->processes, box, u, j->naxes);
		for (int d = 0; d < 2 && !failed(&j->fail); d++) {
			isl_pw_qpolynomial *g = NULL;
			for (int a = 0; a < na && !failed(&j->fail); a++) {
				if (!t[a])
					continue;
				/* the users y in the box (as [y -> e]) */
				isl_set *users = isl_map_wrap(isl_map_from_domain_and_range(
					isl_set_copy(in_box),
					isl_set_universe(isl_space_range(isl_space_unwrap(
						isl_space_domain(isl_map_get_space(t[a])))))));
				isl_map *m = isl_map_copy(t[a]);
				/* out: sent from the box to a user outside; in: the
				 * other way */
				m = d == 0 ? isl_map_subtract_domain(
						     isl_map_intersect_range(m, isl_set_copy(in_box)), users)
					   : isl_map_subtract_range(isl_map_intersect_domain(m, users),
								    isl_set_copy(in_box));
				add_count(j, isl_map_domain(m), (long)j->m->arrays[a].words, &g);
			}
			if (failed(&j->fail))
				isl_pw_qpolynomial_free(g);
			else if (add_apart(g, out, n_out, cap) < 0)
				cost_isl_op_failed(j, "H");
		}
		isl_set_free(in_box);
		int x = j->naxes - 1;
		while (x >= 0 && ++u[x] == n[x])
			u[x--] = 0;
		if (x < 0)
			break;
	}
	for (int a = 0; a < na; a++)
		isl_map_free(t[a]);
	free(t);
}

/* H(i), the most words an (i+1)-cluster of 2^BITS processes sends out or
 * receives, divided by them: the maximum of the functions F[0 .. N) (none:
 * every cluster's words are 0) as a formula on CONTEXT, then divided (a
 * shorter formula than the maximum of the quotients); NULL after a
 * failure, which J takes. */
static struct formula *level_formula(struct job *j, isl_pw_qpolynomial **f, long n, int bits,
				     __isl_keep isl_set *context)
{
	struct formula *max = n > 0 ? cost_max_of_processes(j, f, n, context, "H", NULL)
				    : formula_const_si(0);
	if (!max) {
		if (!failed(&j->fail))
			cost_isl_op_failed(j, "H");
		return NULL;
	}
	mpq_t inv;
	mpq_init(inv);
	mpz_set_ui(mpq_numref(inv), 1);
	mpz_mul_2exp(mpq_denref(inv), mpq_numref(inv), (mp_bitcnt_t)bits);
	struct formula *h = formula_scale(max, inv);
	mpq_clear(inv);
	formula_free(max);
	if (!h)
		cost_isl_op_failed(j, "H");
	cost_tidy(j, &h, context);
	return h;
}

void cost_hierarchy_formulas(struct job *j, const struct step_relations *r,
			     const struct cost_request *req, __isl_keep isl_set *context,
			     struct step_cost *sc)
{
	int k = hierarchy_levels(req->sizes, j->naxes);
	if (k < 0 || req->numbering == NUMBERING_MAP) {   /* the command line refuses both */
		sc->hier_why = strdup(k < 0 ? "the grid has no 2^k processes"
					    : "a numbering file's H is counted at values only");
		return;
	}
	struct job sub = cost_explain_job(j);
	sc->hf = calloc((size_t)k + 1, sizeof(*sc->hf));
	if (!sc->hf)
		cost_isl_op_failed(&sub, "H");
	else
		sc->hk = k;
	isl_pw_qpolynomial **f = NULL;
	long nf = 0, cap = 0;
	for (int i = 0; i < k && !failed(&sub.fail); i++) {
		long box[3], n[3];
		hierarchy_box(req->numbering, req->sizes, j->naxes, k - i - 1, box);
		for (int a = 0; a < j->naxes; a++)
			n[a] = req->sizes[a] / box[a];
		clusters_apart(&sub, r, box, n, &f, &nf, &cap);
		if (!failed(&sub.fail))
			sc->hf[i] = level_formula(&sub, f, nf, k - i - 1, context);
		for (long c = 0; c < nf; c++)
			isl_pw_qpolynomial_free(f[c]);
		nf = 0;
	}
	free(f);
	if (failed(&sub.fail))
		cost_levels_failed(sc, &sub.fail);
}

void cost_levels_failed(struct step_cost *sc, struct fail *why)
{
	for (int i = 0; sc->hf && i < sc->hk; i++)
		formula_free(sc->hf[i]);
	free(sc->hf);
	sc->hf = NULL;
	sc->hk = 0;
	sc->hier_why = fail_release(why);
	if (!sc->hier_why)
		sc->hier_why = strdup("out of memory");
}
