/* Counts compiled for evaluation at many points (count_compiled.h).
 *
 * Every floor ISL writes is an affine quotient over the parameters and the
 * floors before it in its local space; a piece's domain is a union of basic
 * sets, each a list of such floors and of affine constraints over them; a
 * piece's value is a sum of terms, each a rational coefficient times powers
 * of the parameters and of floors.  Each becomes integer rows here (a
 * quotient's coefficients times its denominator), evaluated in __int128 with
 * every multiplication and addition checked. */
#include "analyzer/count/count_compiled.h"

#include <stdbool.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/util/val.h"

typedef __int128 i128;

/* The most floors one local space may hold here. */
enum { COMPILED_MAX_LOCAL = 64 };

/* (c[0] + sum c[1+p] x_p + sum c[1+np+j] loc_j) / den, den > 0; for a
 * constraint den is 1 and the row means >= 0 (or == 0). */
struct lin {
	int64_t *c;
	int64_t den;
};

/* The floors of one local space in order (each over the earlier ones). */
struct locals {
	int n;
	struct lin *div;
};

struct bset {
	struct locals loc;
	int ncons;
	struct lin *cons;
	char *eq;
};

/* A term: A / (the piece's DEN) times the parameters' powers times the
 * powers of its floors, each the floor of TOP over its own locals. */
struct term {
	int64_t a;
	int64_t coef_den;           /* while building: A's own denominator */
	int *pexp;
	int nfl;
	struct locals *fl_loc;
	struct lin *fl_top;
	int *fexp;
};

struct piece {
	int nb, capb;
	struct bset *b;
	int nt, capt;
	struct term *t;
	int64_t den;
};

struct count_compiled {
	int np;
	int n, cap;
	struct piece *p;
};

/* --- building --- */

struct build {
	struct count_compiled *c;
	bool failed;
};

/* P, an array of N used of *CAP elements of SIZE, with room for one more
 * (the capacity doubled from FIRST); NULL when out of memory (P kept). */
static void *grown(void *p, int n, int *cap, size_t size, int first)
{
	if (n < *cap)
		return p;
	int c = *cap ? 2 * *cap : first;
	void *q = realloc(p, (size_t)c * size);
	if (q)
		*cap = c;
	return q;
}

static void lin_clear(struct lin *l)
{
	free(l->c);
	l->c = NULL;
}

static void locals_clear(struct locals *l)
{
	for (int j = 0; j < l->n; j++)
		lin_clear(&l->div[j]);
	free(l->div);
	memset(l, 0, sizeof(*l));
}

/* V (taken) times DEN as an integer in *OUT. */
static bool scaled(__isl_take isl_val *v, int64_t den, int64_t *out)
{
	long long x;
	if (!v)
		return false;
	v = isl_val_mul(v, isl_val_int_from_si(isl_val_get_ctx(v), (long)den));
	if (!val_to_ll(v, &x))
		return false;
	*out = x;
	return true;
}

/* The quotient AFF (kept; no input dimensions) as a row over NP parameters
 * and NLOC floors of its local space. */
static bool lin_from_aff(__isl_keep isl_aff *aff, int np, int nloc, struct lin *l)
{
	long long den;
	isl_bool nan = isl_aff_is_nan(aff);
	if (nan != isl_bool_false || isl_aff_dim(aff, isl_dim_in) != 0 ||
	    isl_aff_dim(aff, isl_dim_div) != nloc ||
	    !val_to_ll(isl_aff_get_denominator_val(aff), &den) || den <= 0)
		return false;
	l->den = den;
	l->c = calloc((size_t)(1 + np + nloc), sizeof(*l->c));
	if (!l->c || !scaled(isl_aff_get_constant_val(aff), den, &l->c[0]))
		return false;
	for (int p = 0; p < np; p++)
		if (!scaled(isl_aff_get_coefficient_val(aff, isl_dim_param, p), den, &l->c[1 + p]))
			return false;
	for (int j = 0; j < nloc; j++)
		if (!scaled(isl_aff_get_coefficient_val(aff, isl_dim_div, j), den,
			    &l->c[1 + np + j]))
			return false;
	return true;
}

/* The floors of LS (kept). */
static bool locals_from(__isl_keep isl_local_space *ls, int np, struct locals *l)
{
	isl_size n = isl_local_space_dim(ls, isl_dim_div);
	if (n < 0 || n > COMPILED_MAX_LOCAL)
		return false;
	l->div = calloc((size_t)n + 1, sizeof(*l->div));
	if (!l->div)
		return false;
	l->n = n;
	for (int j = 0; j < n; j++) {
		isl_aff *d = isl_local_space_get_div(ls, j);
		bool ok = d && lin_from_aff(d, np, n, &l->div[j]);
		isl_aff_free(d);
		if (!ok)
			return false;
		for (int k = j; k < n; k++)
			if (l->div[j].c[1 + np + k] != 0)
				return false; /* not over the earlier floors only */
	}
	return true;
}

/* A walk over a piece's basic sets and terms, or one basic set's
 * constraints. */
struct walk {
	struct piece *p;
	struct bset *b;
	int np;
	bool failed;
};

static isl_stat add_cons(__isl_take isl_constraint *c, void *user)
{
	struct walk *bb = user;
	struct bset *b = bb->b;
	struct lin *l = &b->cons[b->ncons];
	int w = 1 + bb->np + b->loc.n;
	l->den = 1;
	l->c = calloc((size_t)w, sizeof(*l->c));
	bool ok = l->c && scaled(isl_constraint_get_constant_val(c), 1, &l->c[0]);
	for (int p = 0; ok && p < bb->np; p++)
		ok = scaled(isl_constraint_get_coefficient_val(c, isl_dim_param, p), 1, &l->c[1 + p]);
	for (int j = 0; ok && j < b->loc.n; j++)
		ok = scaled(isl_constraint_get_coefficient_val(c, isl_dim_div, j), 1,
			    &l->c[1 + bb->np + j]);
	b->eq[b->ncons] = isl_constraint_is_equality(c) == isl_bool_true;
	b->ncons++;
	isl_constraint_free(c);
	bb->failed |= !ok;
	return ok ? isl_stat_ok : isl_stat_error;
}

static isl_stat add_bset(__isl_take isl_basic_set *bs, void *user)
{
	struct walk *pb = user;
	struct piece *p = pb->p;
	struct bset *grow = grown(p->b, p->nb, &p->capb, sizeof(*grow), 4);
	if (!grow) {
		isl_basic_set_free(bs);
		pb->failed = true;
		return isl_stat_error;
	}
	p->b = grow;
	struct bset *b = &p->b[p->nb++];
	memset(b, 0, sizeof(*b));
	isl_local_space *ls = isl_basic_set_get_local_space(bs);
	isl_size ncons = isl_basic_set_n_constraint(bs);
	bool ok = ls && ncons >= 0 && isl_basic_set_dim(bs, isl_dim_set) == 0 &&
		  locals_from(ls, pb->np, &b->loc);
	isl_local_space_free(ls);
	if (ok) {
		b->cons = calloc((size_t)ncons + 1, sizeof(*b->cons));
		b->eq = calloc((size_t)ncons + 1, 1);
		ok = b->cons && b->eq;
	}
	struct walk bb = {p, b, pb->np, false};
	if (ok)
		ok = isl_basic_set_foreach_constraint(bs, add_cons, &bb) == isl_stat_ok && !bb.failed;
	isl_basic_set_free(bs);
	pb->failed |= !ok;
	return ok ? isl_stat_ok : isl_stat_error;
}

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a < 0 ? -a : a;
}

static isl_stat add_term(__isl_take isl_term *t, void *user)
{
	struct walk *pb = user;
	struct piece *p = pb->p;
	struct term *grow = grown(p->t, p->nt, &p->capt, sizeof(*grow), 8);
	bool ok = grow != NULL;
	if (ok)
		p->t = grow;
	/* the coefficient kept as a fraction until the piece's denominator is
	 * known (add_piece) */
	struct term *tm = ok ? &p->t[p->nt++] : NULL;
	isl_size nd = isl_term_dim(t, isl_dim_div);
	if (tm) {
		memset(tm, 0, sizeof(*tm));
		ok = nd >= 0 && nd <= COMPILED_MAX_LOCAL;
	}
	if (ok) {
		tm->pexp = calloc((size_t)pb->np + 1, sizeof(*tm->pexp));
		tm->fexp = calloc((size_t)nd + 1, sizeof(*tm->fexp));
		tm->fl_loc = calloc((size_t)nd + 1, sizeof(*tm->fl_loc));
		tm->fl_top = calloc((size_t)nd + 1, sizeof(*tm->fl_top));
		ok = tm->pexp && tm->fexp && tm->fl_loc && tm->fl_top;
	}
	isl_val *coef = ok ? isl_term_get_coefficient_val(t) : NULL;
	long long num, den;
	ok = ok && coef && val_to_ll(isl_val_get_den_val(coef), &den) && den > 0 &&
	     val_to_ll(isl_val_mul(isl_val_copy(coef), isl_val_get_den_val(coef)), &num);
	isl_val_free(coef);
	if (ok) {
		tm->a = num;
		tm->coef_den = den;
		/* the piece's denominator: the lcm of its terms' */
		int64_t g = gcd64(p->den, den), l;
		ok = !__builtin_mul_overflow(p->den / g, (int64_t)den, &l);
		if (ok)
			p->den = l;
	}
	for (int q = 0; ok && q < pb->np; q++) {
		isl_size e = isl_term_get_exp(t, isl_dim_param, (unsigned)q);
		ok = e >= 0;
		tm->pexp[q] = (int)e;
	}
	for (int d = 0; ok && d < nd; d++) {
		isl_size e = isl_term_get_exp(t, isl_dim_div, (unsigned)d);
		ok = e >= 0;
		if (!ok || e == 0)
			continue;
		isl_aff *div = isl_term_get_div(t, (unsigned)d);
		isl_local_space *ls = div ? isl_aff_get_domain_local_space(div) : NULL;
		int k = tm->nfl;
		ok = ls && locals_from(ls, pb->np, &tm->fl_loc[k]) &&
		     lin_from_aff(div, pb->np, tm->fl_loc[k].n, &tm->fl_top[k]);
		isl_local_space_free(ls);
		isl_aff_free(div);
		tm->fexp[k] = (int)e;
		tm->nfl++;
	}
	isl_term_free(t);
	pb->failed |= !ok;
	return ok ? isl_stat_ok : isl_stat_error;
}

static isl_stat add_piece(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct build *b = user;
	struct count_compiled *c = b->c;
	struct piece *grow = grown(c->p, c->n, &c->cap, sizeof(*grow), 8);
	bool ok = grow != NULL;
	if (ok)
		c->p = grow;
	struct piece *p = ok ? &c->p[c->n++] : NULL;
	if (p) {
		memset(p, 0, sizeof(*p));
		p->den = 1;
	}
	struct walk pb = {p, NULL, c->np, false};
	set = isl_set_compute_divs(set);
	ok = ok && set && isl_set_foreach_basic_set(set, add_bset, &pb) == isl_stat_ok &&
	     !pb.failed;
	ok = ok && isl_qpolynomial_foreach_term(qp, add_term, &pb) == isl_stat_ok && !pb.failed;
	/* each term's numerator over the piece's denominator */
	for (int k = 0; ok && p && k < p->nt; k++) {
		struct term *tm = &p->t[k];
		ok = tm->coef_den > 0 &&
		     !__builtin_mul_overflow(tm->a, p->den / tm->coef_den, &tm->a);
	}
	isl_set_free(set);
	isl_qpolynomial_free(qp);
	b->failed |= !ok;
	return ok ? isl_stat_ok : isl_stat_error;
}

void count_compiled_free(struct count_compiled *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		struct piece *p = &c->p[i];
		for (int k = 0; k < p->nb; k++) {
			locals_clear(&p->b[k].loc);
			for (int r = 0; r < p->b[k].ncons; r++)
				lin_clear(&p->b[k].cons[r]);
			free(p->b[k].cons);
			free(p->b[k].eq);
		}
		free(p->b);
		for (int k = 0; k < p->nt; k++) {
			struct term *tm = &p->t[k];
			for (int d = 0; d < tm->nfl; d++) {
				locals_clear(&tm->fl_loc[d]);
				lin_clear(&tm->fl_top[d]);
			}
			free(tm->fl_loc);
			free(tm->fl_top);
			free(tm->pexp);
			free(tm->fexp);
		}
		free(p->t);
	}
	free(c->p);
	free(c);
}

/* --- evaluating --- */

/* The value of L at X and LOC (its local floors' values), over its
 * denominator: *NUM; false on an overflow. */
static bool lin_num(const struct lin *l, int np, const long long *x, const int64_t *loc, int nloc,
		    i128 *num)
{
	i128 s = l->c[0], t;
	for (int p = 0; p < np; p++) {
		if (!l->c[1 + p])
			continue;
		if (__builtin_mul_overflow((i128)l->c[1 + p], (i128)x[p], &t) ||
		    __builtin_add_overflow(s, t, &s))
			return false;
	}
	for (int j = 0; j < nloc; j++) {
		if (!l->c[1 + np + j])
			continue;
		if (__builtin_mul_overflow((i128)l->c[1 + np + j], (i128)loc[j], &t) ||
		    __builtin_add_overflow(s, t, &s))
			return false;
	}
	*num = s;
	return true;
}

/* floor(L) at X, in 64 bits. */
static bool lin_floor(const struct lin *l, int np, const long long *x, const int64_t *loc,
		      int nloc, int64_t *out)
{
	i128 s;
	if (!lin_num(l, np, x, loc, nloc, &s))
		return false;
	i128 q = s / l->den;
	if (s % l->den != 0 && s < 0)
		q--;
	if (q > INT64_MAX || q < INT64_MIN)
		return false;
	*out = (int64_t)q;
	return true;
}

static bool locals_eval(const struct locals *l, int np, const long long *x, int64_t *loc)
{
	for (int j = 0; j < l->n; j++)
		if (!lin_floor(&l->div[j], np, x, loc, j, &loc[j]))
			return false;
	return true;
}

/* Whether X is in B: 1, 0, or -1 on an overflow. */
static int bset_has(const struct bset *b, int np, const long long *x)
{
	int64_t loc[COMPILED_MAX_LOCAL];
	if (!locals_eval(&b->loc, np, x, loc))
		return -1;
	for (int r = 0; r < b->ncons; r++) {
		i128 s;
		if (!lin_num(&b->cons[r], np, x, loc, b->loc.n, &s))
			return -1;
		if (b->eq[r] ? s != 0 : s < 0)
			return 0;
	}
	return 1;
}

static bool ipow(i128 b, int e, i128 *out)
{
	i128 r = 1;
	for (int k = 0; k < e; k++)
		if (__builtin_mul_overflow(r, b, &r))
			return false;
	*out = r;
	return true;
}

/* The sum of P's terms at X, over P's denominator. */
static bool piece_num(const struct piece *p, int np, const long long *x, i128 *num)
{
	i128 s = 0;
	int64_t loc[COMPILED_MAX_LOCAL];
	for (int k = 0; k < p->nt; k++) {
		const struct term *tm = &p->t[k];
		i128 v = tm->a, f;
		for (int q = 0; q < np; q++)
			if (tm->pexp[q] && (!ipow(x[q], tm->pexp[q], &f) ||
					    __builtin_mul_overflow(v, f, &v)))
				return false;
		for (int d = 0; d < tm->nfl; d++) {
			int64_t fl;
			if (!locals_eval(&tm->fl_loc[d], np, x, loc) ||
			    !lin_floor(&tm->fl_top[d], np, x, loc, tm->fl_loc[d].n, &fl) ||
			    !ipow(fl, tm->fexp[d], &f) || __builtin_mul_overflow(v, f, &v))
				return false;
		}
		if (__builtin_add_overflow(s, v, &s))
			return false;
	}
	*num = s;
	return true;
}

int count_compiled_eval(const struct count_compiled *c, const long long *x, mpq_t out)
{
	for (int i = 0; i < c->n; i++) {
		const struct piece *p = &c->p[i];
		int in = 0;
		for (int k = 0; k < p->nb && in == 0; k++)
			in = bset_has(&p->b[k], c->np, x);
		if (in < 0)
			return -1;
		if (!in)
			continue;
		i128 s;
		if (!piece_num(p, c->np, x, &s) || s > INT64_MAX || s < INT64_MIN)
			return -1;
		mpq_set_si(out, (long)(int64_t)s, (unsigned long)p->den);
		mpq_canonicalize(out);
		return 0;
	}
	mpq_set_ui(out, 0, 1); /* outside every piece: 0 */
	return 0;
}

/* --- the polynomial on a stretch (one parameter) --- */

static i128 floor128(i128 a, i128 b)
{
	i128 q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* *NEXT = min(*NEXT, X) for X > K. */
static void earlier(long long k, i128 x, long long *next)
{
	if (x > k && x < *next)
		*next = (long long)x;
}

/* The least x > K at which floor(L / den), its locals LOC at K held fixed,
 * differs from its value at K: into *NEXT (kept when sooner).  False on an
 * overflow. */
static bool floor_next(const struct lin *l, long long k, const int64_t *loc, int nloc,
		       long long *next)
{
	i128 s, c1 = l->c[1];
	if (!lin_num(l, 1, &k, loc, nloc, &s))
		return false;
	if (c1 == 0)
		return true;
	i128 q = floor128(s, l->den), rest = s - c1 * (i128)k; /* s = c1*x + rest */
	if (c1 > 0) /* the least x with c1*x + rest >= (q + 1)*den */
		earlier(k, -floor128(-((q + 1) * l->den - rest), c1), next);
	else /* the least x with c1*x + rest < q*den */
		earlier(k, floor128(rest - q * l->den, -c1) + 1, next);
	return true;
}

/* The same for the floors of LOCS (their values at K into LOC). */
static bool locals_next(const struct locals *ls, long long k, int64_t *loc, long long *next)
{
	if (!locals_eval(ls, 1, &k, loc))
		return false;
	for (int j = 0; j < ls->n; j++)
		if (!floor_next(&ls->div[j], k, loc, j, next))
			return false;
	return true;
}

/* The least x > K at which B's floors or the truth of one of its
 * constraints change, into *NEXT. */
static bool bset_next(const struct bset *b, long long k, long long *next)
{
	int64_t loc[COMPILED_MAX_LOCAL];
	if (!locals_next(&b->loc, k, loc, next))
		return false;
	for (int r = 0; r < b->ncons; r++) {
		const struct lin *l = &b->cons[r];
		i128 s, c1 = l->c[1];
		if (!lin_num(l, 1, &k, loc, b->loc.n, &s))
			return false;
		if (c1 == 0)
			continue;
		i128 rest = s - c1 * (i128)k;
		if (b->eq[r]) {
			if (s == 0)
				earlier(k, (i128)k + 1, next);
			else if (rest % c1 == 0)
				earlier(k, -rest / c1, next);
		} else if (c1 > 0 && s < 0) {
			earlier(k, -floor128(rest, c1), next); /* ceil(-rest / c1) */
		} else if (c1 < 0 && s >= 0) {
			earlier(k, floor128(rest, -c1) + 1, next);
		}
	}
	return true;
}

int count_compiled_poly_at(const struct count_compiled *c, long long k, long long hi,
			   long long *next, mpq_t *coef, int maxdeg, int *deg)
{
	if (c->np != 1 || k > hi || hi >= LLONG_MAX)
		return -1;
	*next = hi + 1;
	int64_t loc[COMPILED_MAX_LOCAL];
	const struct piece *at = NULL;
	for (int i = 0; i < c->n; i++) {
		const struct piece *p = &c->p[i];
		for (int b = 0; b < p->nb; b++) {
			if (!bset_next(&p->b[b], k, next))
				return -1;
			int in = at ? 0 : bset_has(&p->b[b], 1, &k);
			if (in < 0)
				return -1;
			if (in)
				at = p;
		}
		for (int t = 0; t < p->nt; t++) {
			const struct term *tm = &p->t[t];
			for (int d = 0; d < tm->nfl; d++)
				if (!locals_next(&tm->fl_loc[d], k, loc, next) ||
				    !floor_next(&tm->fl_top[d], k, loc, tm->fl_loc[d].n, next))
					return -1;
		}
	}
	for (int e = 0; e <= maxdeg; e++)
		mpq_set_ui(coef[e], 0, 1);
	*deg = 0;
	if (!at)
		return 0; /* outside every piece: 0 */
	mpz_t v, f;
	mpz_inits(v, f, NULL);
	int r = 0;
	for (int t = 0; t < at->nt && r == 0; t++) {
		const struct term *tm = &at->t[t];
		int e = tm->pexp[0];
		if (e > maxdeg) {
			r = -1;
			break;
		}
		mpz_set_si(v, (long)tm->a);
		for (int d = 0; d < tm->nfl && r == 0; d++) {
			int64_t fl;
			if (!locals_eval(&tm->fl_loc[d], 1, &k, loc) ||
			    !lin_floor(&tm->fl_top[d], 1, &k, loc, tm->fl_loc[d].n, &fl)) {
				r = -1;
				break;
			}
			mpz_set_si(f, (long)fl);
			mpz_pow_ui(f, f, (unsigned long)tm->fexp[d]);
			mpz_mul(v, v, f);
		}
		mpz_set_si(f, (long)at->den);
		mpq_t a;
		mpq_init(a);
		mpq_set_num(a, v);
		mpq_set_den(a, f);
		mpq_canonicalize(a);
		mpq_add(coef[e], coef[e], a);
		mpq_clear(a);
		if (e > *deg)
			*deg = e;
	}
	mpz_clears(v, f, NULL);
	return r;
}

int count_isl_eval(__isl_keep isl_pw_qpolynomial *f, const long long *x, mpq_t out)
{
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(f);
	isl_size np = isl_pw_qpolynomial_dim(f, isl_dim_param);
	isl_point *pt = np >= 0 ? isl_point_zero(isl_pw_qpolynomial_get_domain_space(f)) : NULL;
	for (int p = 0; pt && p < np; p++)
		pt = isl_point_set_coordinate_val(pt, isl_dim_param, p, val_from_ll(ctx, x[p]));
	isl_val *v = pt ? isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(f), pt) : NULL;
	return val_to_mpq(v, out) ? 0 : -1;
}

struct count_compiled *count_compiled_new(__isl_keep isl_pw_qpolynomial *f,
					  const long long *probe, int nprobe)
{
	isl_size np = isl_pw_qpolynomial_dim(f, isl_dim_param);
	isl_size nin = isl_pw_qpolynomial_dim(f, isl_dim_in);
	if (np < 0 || nin != 0)
		return NULL;
	struct count_compiled *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->np = np;
	struct build b = {c, false};
	if (isl_pw_qpolynomial_foreach_piece(f, add_piece, &b) < 0 || b.failed) {
		isl_ctx_reset_error(isl_pw_qpolynomial_get_ctx(f));
		count_compiled_free(c);
		return NULL;
	}
	mpq_t a, z;
	mpq_init(a);
	mpq_init(z);
	bool same = true;
	int compared = 0;
	for (int k = 0; k < nprobe && same; k++) {
		const long long *x = probe + (size_t)k * (size_t)np;
		if (count_compiled_eval(c, x, a) < 0)
			continue; /* ISL answers there */
		same = count_isl_eval(f, x, z) == 0 && mpq_equal(a, z);
		compared++;
	}
	mpq_clear(a);
	mpq_clear(z);
	if (!same || (nprobe > 0 && compared == 0)) {
		count_compiled_free(c);
		return NULL;
	}
	return c;
}
