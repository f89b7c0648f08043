/* The counting engine: exact parametric counting by nested summation.
 *
 * Why this file is long: the nested summation is one algorithm over one state
 * (struct sys): elimination of a variable, its bounds, residues and the
 * polynomial sums cannot be understood apart.  The maximum over the
 * processes is count_max.c.
 *
 * State of one summation (struct sys): a conjunction of affine constraints with
 * 64-bit integer coefficients over "slots", and a polynomial weight f (FLINT
 * fmpq_mpoly) over the same slots.  Each slot is a parameter of the set, a
 * summation variable (summed over all integer values satisfying the constraints),
 * an atom (an integer uniquely defined as floor(affine/d) of parameters and earlier
 * atoms; never summed; printed as a floor), or dead (eliminated).  The meaning of a
 * state is
 *
 *     sum over the integer summation variables satisfying the constraints of f,
 *
 * as a function of the parameters (atoms follow from the parameters).  Each step
 * replaces a state by states with one summation variable fewer (or a bijective
 * change of variables), whose meanings add up to the old one.  When no summation
 * variable is left, the state is one piece of the result: f on the parameter
 * region where the constraints hold, 0 elsewhere; pieces add.
 *
 * Why f never contains a floor of a summation variable: a bound ceil(l/a) with
 * a > 1 is never put into f; a new slot q with a*q - l in [0, a-1] stands for it,
 * and q is a summation variable (if l involves one) or an atom (if l does not).
 * That is a bijection, so the sum is unchanged.
 *
 * ISL (not this file) decides emptiness and removes redundant constraints: each
 * state is converted to an isl_basic_set (all non-parameter slots as set
 * dimensions, no existentials) before it is split. */
#include "analyzer/count/count.h"
#include "analyzer/count/count_internal.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/session.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <flint/fmpq.h>
#include <flint/fmpq_mpoly.h>
#include <flint/fmpq_poly.h>
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/space.h>

/* Debugging output to stderr, compiled in only with -DBSPCOST_COUNT_DEBUG: the
 * analyzer prints nothing of its own otherwise. */
#ifdef BSPCOST_COUNT_DEBUG
#define COUNT_DEBUG(var) getenv(var)
#else
#define COUNT_DEBUG(var) ((const char *)0)
#endif

#define W (NSLOT + 1)      /* row width: constant first, then one per slot */
#define MAX_FAULHABER 24   /* highest power summed in closed form */

enum slot_kind { SLOT_DEAD, SLOT_PARAM, SLOT_SUM, SLOT_ATOM };

/* atom = floor((row[0] + sum row[1+s] * slot_s) / d), over params and earlier atoms */
struct atom_def {
	int64_t row[W];
	int64_t d;
};

struct sys {
	int ncons, cap;
	int64_t *row;            /* ncons rows of W: c0 + sum c[1+s] v_s (>= 0 or = 0) */
	char *eq;                /* eq[k]: row k is an equality */
	enum slot_kind kind[NSLOT];
	struct atom_def *def[NSLOT]; /* owned, for atoms */
	fmpq_mpoly_t f;
};

/* One query: shared by every state of one count. */
struct query {
	struct count_engine *eng;
	isl_ctx *ctx;
	isl_space *pspace;       /* parameter space of the result */
	int np;                  /* parameters: slots 0 .. np-1 */
	int nslot;               /* slots handed out so far */
	char name[NSLOT][32];    /* short tags, for COUNT_TRACE only */
	/* How reasons name each slot: the user's name of a parameter or a set
	 * dimension (user[] true), else a description of its role ("an
	 * existentially quantified variable"), never a made-up name. */
	char *what[NSLOT];
	bool user[NSLOT];
	fmpq_mpoly_ctx_t mctx;
	fmpq_poly_struct faul[MAX_FAULHABER + 1]; /* F_k(n) = sum_{x=1}^{n} x^k */
	int nfaul;
	isl_pw_qpolynomial *acc; /* sum of the pieces so far: acc + sum of level[] */
	isl_pw_qpolynomial *level[32];
	int steps, pieces, splits;
	double add_ms;
	struct fail fail;        /* the first failure (analyzer/util/fail.h) */
	bool overflow;
};

/* ---------------------------------------------------------------- reasons */

/* The run's deadline aborts the context (analyzer/util/session.h): ISL's
 * operations fail from then on, and the engine stops between its own steps. */
static bool out_of_time(struct query *q)
{
	if (!session_ctx_stopped(q->ctx))
		return false;
	fail_set(&q->fail, FAIL_REFUSED, "%s", COUNT_DEADLINE_REASON);
	return true;
}

/* An ISL failure: the deadline and the operation limit are refusals, the rest
 * errors with ISL's message (analyzer/util/fail.h). */
static void isl_failed(struct query *q, const char *what)
{
	if (!out_of_time(q))
		fail_isl(&q->fail, q->ctx, what);
}

char *count_dup_msg(const char *s)
{
	char *r = strdup(s);
	return r;
}

/* A constraint as text in the trace's tags: "2*i - j + 3 >= 0", cut to
 * the N bytes of BUF. */
static void row_text(const struct query *q, const int64_t *row, bool eq, char *buf, size_t n)
{
	buf[0] = '\0';   /* what does not fit is cut; fmemopen ends it with a NUL */
	FILE *f = fmemopen(buf, n, "w");
	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	struct text_linear l = {f, 0};
	for (int s = 0; s < q->nslot; s++)
		text_linear_term(&l, (long long)row[1 + s], q->name[s]);
	text_linear_end(&l, (long long)row[0]);
	fputs(eq ? " = 0" : " >= 0", f);
	fclose(f);
}

/* The same constraint for a reason, in the user's names, whole: NULL when a
 * slot of it has no name of the user's (a reason never quotes a made-up
 * name), or when out of memory. */
static char *row_reason_text(const struct query *q, const int64_t *row, bool eq)
{
	for (int s = 0; s < q->nslot; s++)
		if (row[1 + s] && !q->user[s])
			return NULL;
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	struct text_linear l = {t.f, 0};
	for (int s = 0; s < q->nslot; s++)
		text_linear_term(&l, (long long)row[1 + s], q->what[s]);
	text_linear_end(&l, (long long)row[0]);
	fputs(eq ? " = 0" : " >= 0", t.f);
	return text_close(&t);
}

/* How a reason names slot S (malloc'd, or NULL when out of memory): "variable
 * i" for a name of the user's, else the description of its role. */
static char *slot_text(const struct query *q, int s)
{
	const char *what = q->what[s] ? q->what[s] : "an auxiliary variable";
	if (!q->user[s])
		return strdup(what);
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	fprintf(t.f, "variable %s", what);
	return text_close(&t);
}

/* Slot S is named WHAT in reasons: a name of the user's (USER) or a
 * description of its role. */
static void slot_set_what(struct query *q, int s, const char *what, bool user)
{
	free(q->what[s]);
	q->what[s] = what ? strdup(what) : NULL;
	q->user[s] = user && q->what[s];
}

/* Slot S stands for dimension POS of type TYPE of SPACE: named in reasons as
 * the caller wants (see count.h), else by ROLE. */
static void slot_from_dim(struct query *q, int s, __isl_keep isl_space *space,
			  enum isl_dim_type type, unsigned pos, const char *role)
{
	if (isl_space_has_dim_id(space, type, pos) == isl_bool_true) {
		isl_id *id = isl_space_get_dim_id(space, type, pos);
		const char *desc = isl_id_get_user(id);
		const char *name = isl_id_get_name(id);
		if (desc)
			slot_set_what(q, s, desc, false);
		else if (name)
			slot_set_what(q, s, name, true);
		else
			slot_set_what(q, s, role, false);
		isl_id_free(id);
		return;
	}
	slot_set_what(q, s, role, false);
}

/* ---------------------------------------------------------------- checked arithmetic */

static int64_t mul64(struct query *q, int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r) || r == INT64_MIN) {
		q->overflow = true;
		return 0;
	}
	return r;
}

static int64_t add64(struct query *q, int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r) || r == INT64_MIN) {
		q->overflow = true;
		return 0;
	}
	return r;
}

/* dst = a*x + b*y, row-wise */
static void row_comb(struct query *q, int64_t *dst, int64_t a, const int64_t *x, int64_t b,
		     const int64_t *y)
{
	for (int k = 0; k < W; k++)
		dst[k] = add64(q, mul64(q, a, x[k]), mul64(q, b, y[k]));
}

static int64_t gcd64(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* ---------------------------------------------------------------- states */

static struct sys *sys_alloc(struct query *q)
{
	struct sys *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cap = 16;
	s->row = calloc((size_t)s->cap * W, sizeof(int64_t));
	s->eq = calloc((size_t)s->cap, 1);
	if (!s->row || !s->eq) {
		free(s->row);
		free(s->eq);
		free(s);
		return NULL;
	}
	fmpq_mpoly_init(s->f, q->mctx);
	return s;
}

static void sys_free(struct query *q, struct sys *s)
{
	if (!s)
		return;
	for (int k = 0; k < NSLOT; k++)
		free(s->def[k]);
	free(s->row);
	free(s->eq);
	fmpq_mpoly_clear(s->f, q->mctx);
	free(s);
}

static struct sys *sys_copy(struct query *q, const struct sys *src, bool with_cons)
{
	struct sys *s = sys_alloc(q);
	if (!s)
		return NULL;
	memcpy(s->kind, src->kind, sizeof(s->kind));
	for (int k = 0; k < NSLOT; k++) {
		if (!src->def[k])
			continue;
		s->def[k] = malloc(sizeof(struct atom_def));
		if (!s->def[k]) {
			sys_free(q, s);
			return NULL;
		}
		*s->def[k] = *src->def[k];
	}
	if (with_cons) {
		for (int k = 0; k < src->ncons; k++) {
			/* add_row below */
			if (s->ncons == s->cap) {
				int cap = s->cap * 2;
				int64_t *r = realloc(s->row, (size_t)cap * W * sizeof(int64_t));
				char *e = r ? realloc(s->eq, (size_t)cap) : NULL;
				if (r)
					s->row = r;
				if (!r || !e) {
					sys_free(q, s);
					return NULL;
				}
				s->eq = e;
				s->cap = cap;
			}
			memcpy(s->row + (size_t)s->ncons * W, src->row + (size_t)k * W,
			       W * sizeof(int64_t));
			s->eq[s->ncons++] = src->eq[k];
		}
	}
	fmpq_mpoly_set(s->f, src->f, q->mctx);
	return s;
}

/* Append a row; reduces it by the gcd of its variable coefficients (tightening the
 * constant of an inequality, which is exact over the integers). Returns -1 on
 * memory failure, 0 if added, 1 if the row is trivially true, 2 if it is false. */
static int sys_add_row(struct query *q, struct sys *s, const int64_t *row, bool eq)
{
	int64_t g = 0;
	for (int k = 1; k < W; k++)
		g = gcd64(g, row[k]);
	if (g == 0) {
		if (eq)
			return row[0] == 0 ? 1 : 2;
		return row[0] >= 0 ? 1 : 2;
	}
	if (s->ncons == s->cap) {
		int cap = s->cap * 2;
		int64_t *r = realloc(s->row, (size_t)cap * W * sizeof(int64_t));
		if (!r)
			return -1;
		s->row = r;
		char *e = realloc(s->eq, (size_t)cap);
		if (!e)
			return -1;
		s->eq = e;
		s->cap = cap;
	}
	int64_t *dst = s->row + (size_t)s->ncons * W;
	if (eq && row[0] % g != 0)
		return 2;
	dst[0] = eq ? row[0] / g : floor_div(row[0], g);
	for (int k = 1; k < W; k++)
		dst[k] = row[k] / g;
	s->eq[s->ncons++] = eq;
	(void)q;
	return 0;
}

static void sys_del_row(struct sys *s, int k)
{
	s->ncons--;
	if (k != s->ncons) {
		memcpy(s->row + (size_t)k * W, s->row + (size_t)s->ncons * W, W * sizeof(int64_t));
		s->eq[k] = s->eq[s->ncons];
	}
}

/* A new slot, tagged PREFIX in traces and described as ROLE in reasons. */
static int new_slot(struct query *q, const char *prefix, const char *role)
{
	if (q->nslot >= NSLOT) {
		fail_set(&q->fail, FAIL_REFUSED,
			   "too many auxiliary variables (limit %d slots) while eliminating",
			   NSLOT);
		return -1;
	}
	int s = q->nslot++;
	snprintf(q->name[s], sizeof(q->name[s]), "%s%d", prefix, s);
	slot_set_what(q, s, role, false);
	return s;
}

/* ---------------------------------------------------------------- polynomials */

/* f as an affine polynomial: row[0] + sum row[1+s] * v_s (times 1/den) */
static void poly_from_row(struct query *q, fmpq_mpoly_t p, const int64_t *row, int64_t den)
{
	fmpq_mpoly_t g;
	fmpq_t c;
	fmpq_mpoly_init(g, q->mctx);
	fmpq_init(c);
	fmpq_mpoly_zero(p, q->mctx);
	for (int s = 0; s < q->nslot; s++) {
		if (!row[1 + s])
			continue;
		fmpq_mpoly_gen(g, s, q->mctx);
		fmpq_set_si(c, row[1 + s], (ulong)den);
		fmpq_mpoly_scalar_mul_fmpq(g, g, c, q->mctx);
		fmpq_mpoly_add(p, p, g, q->mctx);
	}
	fmpq_set_si(c, row[0], (ulong)den);
	fmpq_mpoly_add_fmpq(p, p, c, q->mctx);
	fmpq_clear(c);
	fmpq_mpoly_clear(g, q->mctx);
}

/* F_k(n) = sum_{x=1}^{n} x^k for k up to kmax, from
 * (n+1)^{k+1} - 1 = sum_{j=0}^{k} C(k+1, j) F_j(n). */
static int faulhaber_upto(struct query *q, int kmax)
{
	if (kmax > MAX_FAULHABER)
		return -1;
	while (q->nfaul <= kmax) {
		int k = q->nfaul;
		fmpq_poly_struct *F = &q->faul[k];
		fmpq_poly_t t, n1;
		fmpz_t binom;
		fmpq_poly_init(F);
		fmpq_poly_init(t);
		fmpq_poly_init(n1);
		fmpz_init(binom);
		fmpq_poly_set_coeff_si(n1, 0, 1);
		fmpq_poly_set_coeff_si(n1, 1, 1);
		fmpq_poly_pow(F, n1, (ulong)(k + 1));
		fmpq_poly_set_coeff_si(t, 0, 1);
		fmpq_poly_sub(F, F, t);
		for (int j = 0; j < k; j++) {
			fmpz_bin_uiui(binom, (ulong)(k + 1), (ulong)j);
			fmpq_poly_scalar_mul_fmpz(t, &q->faul[j], binom);
			fmpq_poly_sub(F, F, t);
		}
		fmpq_poly_scalar_div_si(F, F, k + 1);
		fmpq_poly_clear(t);
		fmpq_poly_clear(n1);
		fmpz_clear(binom);
		q->nfaul++;
	}
	return 0;
}

/* r = P(u) for a univariate P, by Horner */
static void poly_compose(struct query *q, fmpq_mpoly_t r, const fmpq_poly_t P, const fmpq_mpoly_t u)
{
	fmpq_t c;
	fmpq_init(c);
	fmpq_mpoly_zero(r, q->mctx);
	for (slong i = fmpq_poly_degree(P); i >= 0; i--) {
		fmpq_mpoly_mul(r, r, u, q->mctx);
		fmpq_poly_get_coeff_fmpq(c, P, i);
		fmpq_mpoly_add_fmpq(r, r, c, q->mctx);
	}
	fmpq_clear(c);
}

/* Coefficient of x^k in f, for every k: coef[k] (k = 0..deg), initialized here. */
static slong poly_split(struct query *q, fmpq_mpoly_struct **coef, const fmpq_mpoly_t f, int x)
{
	slong deg = fmpq_mpoly_degree_si(f, x, q->mctx);
	if (deg < 0)
		deg = 0;
	*coef = malloc(sizeof(fmpq_mpoly_struct) * (size_t)(deg + 1));
	if (!*coef)
		return -1;
	slong vars[1] = {x};
	for (slong k = 0; k <= deg; k++) {
		ulong e[1] = {(ulong)k};
		fmpq_mpoly_init(&(*coef)[k], q->mctx);
		fmpq_mpoly_get_coeff_vars_ui(&(*coef)[k], f, vars, e, 1, q->mctx);
	}
	return deg;
}

static void poly_split_free(struct query *q, fmpq_mpoly_struct *coef, slong deg)
{
	for (slong k = 0; k <= deg; k++)
		fmpq_mpoly_clear(&coef[k], q->mctx);
	free(coef);
}

/* f := f with x replaced by e (an affine polynomial) */
static int poly_substitute(struct query *q, fmpq_mpoly_t f, int x, const fmpq_mpoly_t e)
{
	fmpq_mpoly_struct *coef;
	slong deg = poly_split(q, &coef, f, x);
	if (deg < 0)
		return -1;
	fmpq_mpoly_t acc, pw;
	fmpq_mpoly_init(acc, q->mctx);
	fmpq_mpoly_init(pw, q->mctx);
	fmpq_mpoly_one(pw, q->mctx);
	for (slong k = 0; k <= deg; k++) {
		fmpq_mpoly_t t;
		fmpq_mpoly_init(t, q->mctx);
		fmpq_mpoly_mul(t, &coef[k], pw, q->mctx);
		fmpq_mpoly_add(acc, acc, t, q->mctx);
		fmpq_mpoly_clear(t, q->mctx);
		fmpq_mpoly_mul(pw, pw, e, q->mctx);
	}
	fmpq_mpoly_swap(f, acc, q->mctx);
	fmpq_mpoly_clear(acc, q->mctx);
	fmpq_mpoly_clear(pw, q->mctx);
	poly_split_free(q, coef, deg);
	return 0;
}

/* f := sum_{x=L}^{U} f, valid whenever L <= U + 1 (a polynomial identity). */
static int poly_sum(struct query *q, fmpq_mpoly_t f, int x, const fmpq_mpoly_t L,
		    const fmpq_mpoly_t U)
{
	fmpq_mpoly_struct *coef;
	slong deg = poly_split(q, &coef, f, x);
	if (deg < 0)
		return -1;
	if (faulhaber_upto(q, (int)deg) < 0) {
		poly_split_free(q, coef, deg);
		char *xs = slot_text(q, x);
		fail_set(&q->fail, FAIL_REFUSED, "degree %ld in %s is too high to sum", (long)deg,
			   xs ? xs : "a variable");
		free(xs);
		return -1;
	}
	fmpq_mpoly_t acc, Lm1, a, b;
	fmpq_mpoly_init(acc, q->mctx);
	fmpq_mpoly_init(Lm1, q->mctx);
	fmpq_mpoly_init(a, q->mctx);
	fmpq_mpoly_init(b, q->mctx);
	fmpq_mpoly_sub_si(Lm1, L, 1, q->mctx);
	for (slong k = 0; k <= deg; k++) {
		if (fmpq_mpoly_is_zero(&coef[k], q->mctx))
			continue;
		poly_compose(q, a, &q->faul[k], U);
		poly_compose(q, b, &q->faul[k], Lm1);
		fmpq_mpoly_sub(a, a, b, q->mctx);
		fmpq_mpoly_mul(a, a, &coef[k], q->mctx);
		fmpq_mpoly_add(acc, acc, a, q->mctx);
	}
	fmpq_mpoly_swap(f, acc, q->mctx);
	fmpq_mpoly_clear(acc, q->mctx);
	fmpq_mpoly_clear(Lm1, q->mctx);
	fmpq_mpoly_clear(a, q->mctx);
	fmpq_mpoly_clear(b, q->mctx);
	poly_split_free(q, coef, deg);
	return 0;
}

/* ---------------------------------------------------------------- ISL conversion */

/* The state as an isl_basic_set: parameters, then every live non-parameter slot as
 * a set dimension (map[s] gives its position). */
static __isl_give isl_basic_set *sys_to_isl(struct query *q, const struct sys *s, int *map,
					    int *ndim)
{
	int n = 0;
	for (int k = 0; k < q->nslot; k++) {
		map[k] = -1;
		if (k >= q->np && s->kind[k] != SLOT_DEAD)
			map[k] = n++;
	}
	*ndim = n;
	isl_space *space = isl_space_set_from_params(isl_space_copy(q->pspace));
	space = isl_space_add_dims(space, isl_dim_set, (unsigned)n);
	isl_local_space *ls = isl_local_space_from_space(space);
	isl_basic_set *bset = isl_basic_set_universe(isl_local_space_get_space(ls));
	for (int r = 0; r < s->ncons && bset; r++) {
		const int64_t *row = s->row + (size_t)r * W;
		isl_constraint *c = s->eq[r] ? isl_constraint_alloc_equality(isl_local_space_copy(ls))
					     : isl_constraint_alloc_inequality(isl_local_space_copy(ls));
		c = isl_constraint_set_constant_val(c, isl_val_int_from_si(q->ctx, (long)row[0]));
		for (int k = 0; k < q->nslot; k++) {
			if (!row[1 + k])
				continue;
			isl_val *v = isl_val_int_from_si(q->ctx, (long)row[1 + k]);
			if (k < q->np)
				c = isl_constraint_set_coefficient_val(c, isl_dim_param, k, v);
			else
				c = isl_constraint_set_coefficient_val(c, isl_dim_set, map[k], v);
		}
		bset = isl_basic_set_add_constraint(bset, c);
	}
	isl_local_space_free(ls);
	return bset;
}

struct readback {
	struct query *q;
	struct sys *s;
	const int *inv; /* set dimension -> slot */
	int ndim;
	bool failed;
};

static isl_stat read_constraint(__isl_take isl_constraint *c, void *user)
{
	struct readback *rb = user;
	int64_t row[W];
	memset(row, 0, sizeof(row));
	long long x = 0;
	/* every coefficient exactly, or the constraint is refused: a constant of
	 * 2^64 must not be read as 0.  Nor is -2^63 taken: no row holds it (see
	 * mul64), so that every coefficient can be negated. */
	bool ok = val_to_ll(isl_constraint_get_constant_val(c), &x) && x != INT64_MIN;
	row[0] = x;
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	isl_size nd = isl_constraint_dim(c, isl_dim_set);
	isl_size ndiv = isl_constraint_dim(c, isl_dim_div);
	if (np < 0 || nd < 0 || ndiv != 0)
		ok = false;
	for (int k = 0; ok && k < np; k++) {
		ok = val_to_ll(isl_constraint_get_coefficient_val(c, isl_dim_param, k), &x) &&
		     x != INT64_MIN;
		row[1 + k] = x;
	}
	for (int k = 0; ok && k < nd; k++) {
		ok = val_to_ll(isl_constraint_get_coefficient_val(c, isl_dim_set, k), &x) &&
		     x != INT64_MIN;
		row[1 + rb->inv[k]] = x;
	}
	bool eq = isl_constraint_is_equality(c) == isl_bool_true;
	isl_constraint_free(c);
	if (!ok || sys_add_row(rb->q, rb->s, row, eq) < 0) {
		rb->failed = true;
		return isl_stat_error;
	}
	return isl_stat_ok;
}

/* Simplify s through ISL: detect equalities, drop redundant constraints; *empty is
 * set when s has no integer point.  Returns -1 on error. */
static int sys_simplify(struct query *q, struct sys *s, bool *empty)
{
	int map[NSLOT], inv[NSLOT], ndim;
	*empty = false;
	isl_basic_set *bset = sys_to_isl(q, s, map, &ndim);
	bset = isl_basic_set_detect_equalities(bset);
	bset = isl_basic_set_remove_redundancies(bset);
	isl_bool e = isl_basic_set_is_empty(bset);
	if (e < 0) {
		isl_basic_set_free(bset);
		isl_failed(q, "emptiness test");
		return -1;
	}
	if (e) {
		isl_basic_set_free(bset);
		*empty = true;
		return 0;
	}
	isl_size nd = isl_basic_set_dim(bset, isl_dim_div);
	if (nd != 0) { /* keep our own constraints */
		isl_basic_set_free(bset);
		return 0;
	}
	for (int k = 0; k < q->nslot; k++)
		if (map[k] >= 0)
			inv[map[k]] = k;
	int64_t *old_row = s->row;
	char *old_eq = s->eq;
	int old_n = s->ncons, old_cap = s->cap;
	s->cap = 16;
	s->ncons = 0;
	s->row = calloc((size_t)s->cap * W, sizeof(int64_t));
	s->eq = calloc((size_t)s->cap, 1);
	struct readback rb = {q, s, inv, ndim, false};
	isl_stat st = (s->row && s->eq) ? isl_basic_set_foreach_constraint(bset, read_constraint, &rb)
					: isl_stat_error;
	isl_basic_set_free(bset);
	if (st < 0 || rb.failed) {
		/* fall back to the constraints we had */
		free(s->row);
		free(s->eq);
		s->row = old_row;
		s->eq = old_eq;
		s->ncons = old_n;
		s->cap = old_cap;
		return 0;
	}
	free(old_row);
	free(old_eq);
	return 0;
}

/* The isl_aff of an atom over the parameter space (floors of its definition).
 * CACHE, by slot, stays the caller's: what is added to it, the caller frees. */
static __isl_give isl_aff *atom_aff(struct query *q, const struct sys *s, int slot,
				   __isl_keep isl_aff **cache);

static __isl_give isl_aff *row_aff(struct query *q, const struct sys *s, const int64_t *row,
				   __isl_keep isl_aff **cache)
{
	isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(q->pspace)));
	a = isl_aff_set_constant_si(a, 0);
	a = isl_aff_add_constant_val(a, isl_val_int_from_si(q->ctx, (long)row[0]));
	for (int k = 0; k < q->nslot; k++) {
		if (!row[1 + k])
			continue;
		if (k < q->np) {
			a = isl_aff_set_coefficient_val(a, isl_dim_param, k,
							isl_val_int_from_si(q->ctx, (long)row[1 + k]));
		} else if (s->kind[k] == SLOT_ATOM) {
			isl_aff *t = atom_aff(q, s, k, cache);
			t = isl_aff_scale_val(t, isl_val_int_from_si(q->ctx, (long)row[1 + k]));
			a = isl_aff_add(a, t);
		} else {
			isl_aff_free(a);
			return NULL; /* a summation variable: not a leaf */
		}
	}
	return a;
}

static __isl_give isl_aff *atom_aff(struct query *q, const struct sys *s, int slot,
				   __isl_keep isl_aff **cache)
{
	if (cache[slot])
		return isl_aff_copy(cache[slot]);
	const struct atom_def *d = s->def[slot];
	if (!d)
		return NULL;
	isl_aff *a = row_aff(q, s, d->row, cache);
	a = isl_aff_scale_down_val(a, isl_val_int_from_si(q->ctx, (long)d->d));
	a = isl_aff_floor(a);
	cache[slot] = isl_aff_copy(a);
	return a;
}

/* Is row one of the two constraints 0 <= g - d*a <= d - 1 that define an atom a
 * = floor(g/d)?  Those hold by definition once a is written as a floor. */
static bool is_atom_definition(struct query *q, const struct sys *s, const int64_t *row, bool eq)
{
	if (eq)
		return false;
	for (int a = q->np; a < q->nslot; a++) {
		const struct atom_def *d = s->def[a];
		if (s->kind[a] != SLOT_ATOM || !d || (row[1 + a] != d->d && row[1 + a] != -d->d))
			continue;
		bool upper = row[1 + a] < 0; /* g - d*a + c >= 0 */
		bool same = true;
		for (int k = 1; k < W && same; k++) {
			if (k == 1 + a)
				continue;
			same = row[k] == (upper ? d->row[k] : -d->row[k]);
		}
		if (!same)
			continue;
		/* upper: g - d*a + c >= 0 holds for c >= 0; lower: d*a - g + c >= 0
		 * holds for c >= d - 1 */
		if (upper ? row[0] >= d->row[0] : row[0] >= -d->row[0] + d->d - 1)
			return true;
	}
	return false;
}

/* Adds PIECE (taken) to the query's sum: a binary counter of partial sums
 * of 1, 2, 4, ... pieces, so that no large sum is refined against every new
 * piece (an addition is a disjoint refinement).  -1 after a failure. */
static int acc_add(struct query *q, __isl_take isl_pw_qpolynomial *piece)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = 0; piece && k < 32; k++) {
		if (!q->level[k]) {
			q->level[k] = piece;
			piece = NULL;
			break;
		}
		piece = isl_pw_qpolynomial_add(q->level[k], piece);
		q->level[k] = NULL;
		if (!piece)
			q->acc = isl_pw_qpolynomial_free(q->acc);
	}
	if (piece)
		q->acc = isl_pw_qpolynomial_add(q->acc, piece);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	q->add_ms += (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (!q->acc) {
		isl_failed(q, "building a piece of the result");
		return -1;
	}
	return 0;
}

/* The query's sum so far, the counter's partial sums added in; the counter
 * is left empty and q->acc NULL (the caller owns the result). */
static __isl_give isl_pw_qpolynomial *acc_take(struct query *q)
{
	for (int k = 0; k < 32; k++) {
		if (q->level[k])
			q->acc = isl_pw_qpolynomial_add(q->acc, q->level[k]);
		q->level[k] = NULL;
	}
	isl_pw_qpolynomial *r = q->acc;
	q->acc = NULL;
	return r;
}

/* One leaf: f on the parameter region where the constraints hold. */
static int emit_piece(struct query *q, const struct sys *s)
{
	isl_aff *cache[NSLOT] = {0};
	isl_space *dom_space = isl_space_copy(q->pspace);
	isl_basic_set *dom = isl_basic_set_universe(isl_space_copy(dom_space));
	for (int r = 0; r < s->ncons && dom; r++) {
		if (is_atom_definition(q, s, s->row + (size_t)r * W, s->eq[r]))
			continue; /* true by construction of the floor */
		isl_aff *a = row_aff(q, s, s->row + (size_t)r * W, cache);
		if (!a) {
			dom = isl_basic_set_free(dom);
			break;
		}
		isl_aff *z = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(a));
		isl_basic_set *c = s->eq[r] ? isl_aff_eq_basic_set(a, z) : isl_aff_ge_basic_set(a, z);
		dom = isl_basic_set_intersect(dom, c);
	}
	isl_qpolynomial *qp = isl_qpolynomial_zero_on_domain(isl_space_copy(dom_space));
	slong nt = fmpq_mpoly_length(s->f, q->mctx);
	fmpq_t c;
	fmpq_init(c);
	ulong exp[NSLOT];
	for (slong t = 0; t < nt && qp; t++) {
		fmpq_mpoly_get_term_coeff_fmpq(c, s->f, t, q->mctx);
		fmpq_mpoly_get_term_exp_ui(exp, s->f, t, q->mctx);
		isl_qpolynomial *m = isl_qpolynomial_val_on_domain(isl_space_copy(dom_space),
								   val_from_fmpq(q->ctx, c));
		for (int k = 0; k < q->nslot && m; k++) {
			if (!exp[k])
				continue;
			isl_qpolynomial *v;
			if (k < q->np)
				v = isl_qpolynomial_var_on_domain(isl_space_copy(dom_space),
								  isl_dim_param, (unsigned)k);
			else if (s->kind[k] == SLOT_ATOM)
				v = isl_qpolynomial_from_aff(atom_aff(q, s, k, cache));
			else
				v = NULL;
			v = isl_qpolynomial_pow(v, (unsigned)exp[k]);
			m = isl_qpolynomial_mul(m, v);
		}
		qp = isl_qpolynomial_add(qp, m);
	}
	fmpq_clear(c);
	for (int k = 0; k < NSLOT; k++)
		isl_aff_free(cache[k]);
	isl_space_free(dom_space);
	isl_set *domset = isl_set_from_basic_set(isl_basic_set_remove_redundancies(dom));
	isl_pw_qpolynomial *piece = isl_pw_qpolynomial_alloc(domset, qp);
	if (COUNT_DEBUG("COUNT_TRACE")) {
		char *str = isl_pw_qpolynomial_to_str(piece);
		fprintf(stderr, "== piece %s\n", str);
		free(str);
	}
	if (!piece) {
		isl_failed(q, "building a piece of the result");
		return -1;
	}
	if (out_of_time(q)) {
		isl_pw_qpolynomial_free(piece);
		return -1;
	}
	if (acc_add(q, piece) < 0)
		return -1;
	q->pieces++;
	return 0;
}

/* ---------------------------------------------------------------- elimination */

static bool involves_sum(const struct sys *s, const int64_t *row, int except, int nslot)
{
	for (int k = 0; k < nslot; k++)
		if (k != except && row[1 + k] && s->kind[k] == SLOT_SUM)
			return true;
	return false;
}

/* Substitute the summation variable x using equality row r (coefficient c = +-1). */
static int substitute_unit(struct query *q, struct sys *s, int r, int x)
{
	int64_t e[W];
	memcpy(e, s->row + (size_t)r * W, sizeof(e));
	int64_t c = e[1 + x];
	sys_del_row(s, r);
	/* x = -(e - c x)/c = -c * (e - c x) since c = +-1 */
	int64_t rest[W];
	memcpy(rest, e, sizeof(rest));
	rest[1 + x] = 0;
	for (int k = 0; k < W; k++)
		rest[k] = -c * rest[k];
	for (int k = 0; k < s->ncons; k++) {
		int64_t *row = s->row + (size_t)k * W;
		int64_t a = row[1 + x];
		if (!a)
			continue;
		row[1 + x] = 0;
		for (int j = 0; j < W; j++)
			row[j] = add64(q, row[j], mul64(q, a, rest[j]));
	}
	fmpq_mpoly_t ex;
	fmpq_mpoly_init(ex, q->mctx);
	poly_from_row(q, ex, rest, 1);
	int ret = poly_substitute(q, s->f, x, ex);
	fmpq_mpoly_clear(ex, q->mctx);
	s->kind[x] = SLOT_DEAD;
	return ret;
}

static int64_t modhat(int64_t a, int64_t m)
{
	/* a - m * floor(a/m + 1/2) */
	return a - m * floor_div(2 * a + m, 2 * m);
}

static void solve(struct query *q, struct sys *s);

/* Equality R of S is sum a_i x_i + rest = 0, x_i its summation variables,
 * rest over the parameters and atoms.  When the a_i have a common factor
 * g > 1, rest is a multiple of g: rest = g*A with the atom A = floor(rest/g),
 * and the equality becomes the divisibility condition rest - g*A = 0 (over
 * parameters and atoms only) and sum (a_i/g) x_i + A = 0.  Without this, the
 * reduction below meets the same condition again at every step (two
 * congruences of one index, 2*y = 2048*x + q1 - q0, never reach a unit
 * coefficient).  Returns 1 if it changed S, 0 if the a_i are coprime, -1 on
 * failure. */
static int common_factor(struct query *q, struct sys *s, int r)
{
	int64_t *row = s->row + (size_t)r * W;
	int64_t g = 0;
	for (int k = 0; k < q->nslot; k++)
		if (row[1 + k] && s->kind[k] == SLOT_SUM)
			g = gcd64(g, row[1 + k]);
	if (g <= 1)
		return 0;
	bool whole = row[0] % g == 0;
	for (int k = 0; whole && k < q->nslot; k++)
		whole = s->kind[k] == SLOT_SUM || row[1 + k] % g == 0;
	if (whole) { /* the whole row divides: rest/g needs no atom */
		for (int k = 0; k < W; k++)
			row[k] /= g;
		return 1;
	}
	int a = new_slot(q, "g", "the quotient of an equality by its common factor");
	if (a < 0)
		return -1;
	struct atom_def *d = calloc(1, sizeof(*d));
	if (!d) {
		fail_nomem(&q->fail);
		return -1;
	}
	int64_t cond[W];
	for (int k = 0; k < W; k++) {
		bool sum = k > 0 && s->kind[k - 1] == SLOT_SUM;
		d->row[k] = sum ? 0 : row[k];
		cond[k] = d->row[k];
		row[k] = sum ? row[k] / g : 0;
	}
	d->d = g;
	s->kind[a] = SLOT_ATOM;
	s->def[a] = d;
	row[1 + a] = 1;
	cond[1 + a] = -g;
	int rc = sys_add_row(q, s, cond, true);
	if (rc == 2) /* a false condition: no point, nothing to add */
		fmpq_mpoly_zero(s->f, q->mctx);
	else if (rc != 0) {
		fail_nomem(&q->fail);
		return -1;
	}
	return 1;
}

/* Handle one equality involving summation variables.  Returns 1 if it changed s
 * (so the caller starts over), 0 if nothing to do, -1 on failure. */
static int handle_equalities(struct query *q, struct sys *s)
{
	for (int r = 0; r < s->ncons; r++) {
		if (!s->eq[r])
			continue;
		int64_t *row;
		int unit, nsum, best;
		int64_t bestc;
		for (int pass = 0;; pass++) {
			row = s->row + (size_t)r * W;
			unit = -1, nsum = 0, best = -1, bestc = 0;
			for (int k = 0; k < q->nslot; k++) {
				if (!row[1 + k] || s->kind[k] != SLOT_SUM)
					continue;
				nsum++;
				int64_t a = row[1 + k] < 0 ? -row[1 + k] : row[1 + k];
				if (a == 1)
					unit = k; /* last: innermost variable first */
				if (best < 0 || a < bestc) {
					best = k;
					bestc = a;
				}
			}
			/* a common factor divided out, then the same row again at
			 * once: ISL's simplification would multiply it back */
			if (pass > 0 || nsum < 2 || unit >= 0)
				break;
			int rc = common_factor(q, s, r);
			if (rc < 0)
				return -1;
			if (rc == 0)
				break;
		}
		if (nsum == 0)
			continue;
		if (unit >= 0)
			return substitute_unit(q, s, r, unit) < 0 ? -1 : 1;
		if (nsum == 1) {
			/* c*x + rest = 0, rest over parameters and atoms: x = -rest/c is an
			 * atom, and the equality stays as a divisibility condition. */
			int x = best;
			struct atom_def *d = calloc(1, sizeof(*d));
			if (!d)
				return -1;
			int64_t c = row[1 + x];
			for (int k = 0; k < W; k++)
				d->row[k] = c > 0 ? -row[k] : row[k];
			d->row[1 + x] = 0;
			d->d = c > 0 ? c : -c;
			s->def[x] = d;
			s->kind[x] = SLOT_ATOM;
			return 1;
		}
		/* Pugh's reduction: m = |a_k| + 1, m*sigma = sum (a_i mod^ m) v_i gives
		 * sigma an integer value determined by the others and a unit coefficient
		 * on v_k; the coefficients shrink until one is a unit.  v_k is
		 * substituted at once: through ISL's simplification the new row
		 * would come back without its unit (6a + 10b + 15c = 60 looped to
		 * the slot limit). */
		int sg = new_slot(q, "t", "an auxiliary variable of an equality");
		if (sg < 0)
			return -1;
		s->kind[sg] = SLOT_SUM;
		int64_t m = bestc + 1;
		int64_t nrow[W];
		for (int k = 0; k < W; k++)
			nrow[k] = modhat(row[k], m);
		nrow[1 + sg] = -m;
		if (sys_add_row(q, s, nrow, true) != 0) {
			fail_set(&q->fail, FAIL_ERROR, "equality reduction failed");
			return -1;
		}
		return substitute_unit(q, s, s->ncons - 1, best) < 0 ? -1 : 1;
	}
	return 0;
}

/* Whether inequalities UPPER (g - d*x >= 0) and LOWER (d*x - g + d - 1 >= 0)
 * pin x to floor(g/d): opposite rows but for the constant, d > 0. */
static bool floor_pair(const int64_t *upper, const int64_t *lower, int x)
{
	int64_t d = lower[1 + x];
	bool pair = d > 0 && upper[1 + x] == -d && upper[0] + lower[0] == d - 1;
	for (int k = 1; pair && k < W; k++)
		pair = upper[k] + lower[k] == 0;
	return pair;
}

/* x = floor(g/d) with g free of summation variables: make x an atom. */
static bool detect_div_atoms(struct query *q, struct sys *s)
{
	bool changed = false;
	for (int x = q->np; x < q->nslot; x++) {
		if (s->kind[x] != SLOT_SUM)
			continue;
		for (int r = 0; r < s->ncons && s->kind[x] == SLOT_SUM; r++) {
			const int64_t *a = s->row + (size_t)r * W;
			if (s->eq[r] || a[1 + x] >= 0 || involves_sum(s, a, x, q->nslot))
				continue;
			int64_t d = -a[1 + x]; /* a: g - d*x >= 0 */
			for (int t = 0; t < s->ncons; t++) {
				if (s->eq[t] || !floor_pair(a, s->row + (size_t)t * W, x))
					continue;
				struct atom_def *def = calloc(1, sizeof(*def));
				if (!def)
					return changed;
				memcpy(def->row, a, sizeof(def->row));
				def->row[1 + x] = 0;
				def->d = d;
				s->def[x] = def;
				s->kind[x] = SLOT_ATOM;
				changed = true;
				break;
			}
		}
	}
	return changed;
}

/* Whether row R of S follows from S's rows but those marked in SKIP: its
 * negation added to them has no integer point (ISL decides).  A failure
 * answers false. */
static bool row_implied(struct query *q, const struct sys *s, const bool *skip, int r)
{
	struct sys *t = sys_copy(q, s, false);
	bool ok = t != NULL;
	for (int k = 0; ok && k < s->ncons; k++)
		if (!skip[k])
			ok = sys_add_row(q, t, s->row + (size_t)k * W, s->eq[k]) >= 0;
	int64_t neg[W];
	for (int k = 0; k < W; k++)
		neg[k] = -s->row[(size_t)r * W + k];
	neg[0] = add64(q, neg[0], -1); /* not (row >= 0): -row - 1 >= 0 */
	int rc = ok ? sys_add_row(q, t, neg, false) : -1;
	bool implied = rc == 2; /* the negation alone is false */
	if (rc == 0) {
		int map[NSLOT], ndim;
		isl_basic_set *b = sys_to_isl(q, t, map, &ndim);
		implied = isl_basic_set_is_empty(b) == isl_bool_true;
		isl_basic_set_free(b);
	}
	sys_free(q, t);
	return implied;
}

/* x = floor(g/d) with g over other summation variables (a pair of
 * constraints d*x >= g - d + 1 and d*x <= g), x not in f, and every other
 * constraint on x (its range, as 0 <= x < P) implied by the rest: exactly one
 * x for each value of the others, so summing x out multiplies by 1 -- drop x
 * and its constraints.  (Summed the usual way, the bounds floor(g/d) and
 * ceil((g-d+1)/d) are floors of the other variables, split by residues
 * modulo d: an index dealt cyclic(32) over an axis of 1024 processes and
 * over another of 3 has d = 1024.)  Tried where the next step would split
 * residues, as ISL's proofs of the implied constraints cost time. */
static bool drop_determined(struct query *q, struct sys *s)
{
	enum { MAX_ROWS = 8 };
	for (int x = q->np; x < q->nslot; x++) {
		if (s->kind[x] != SLOT_SUM || fmpq_mpoly_degree_si(s->f, x, q->mctx) > 0)
			continue;
		int rows[MAX_ROWS], n = 0;
		bool eq = false;
		for (int r = 0; r < s->ncons && n <= MAX_ROWS; r++) {
			if (!s->row[(size_t)r * W + 1 + x])
				continue;
			eq = eq || s->eq[r];
			if (n < MAX_ROWS)
				rows[n] = r;
			n++;
		}
		if (eq || n < 2 || n > MAX_ROWS)
			continue;
		int lo = -1, hi = -1;
		for (int i = 0; i < n && lo < 0; i++)
			for (int k = 0; k < n && lo < 0; k++)
				if (floor_pair(s->row + (size_t)rows[k] * W,
					       s->row + (size_t)rows[i] * W, x)) {
					lo = rows[i];
					hi = rows[k];
				}
		if (lo < 0)
			continue;
		bool *skip = calloc((size_t)s->ncons, sizeof(*skip));
		if (!skip) {
			fail_nomem(&q->fail);
			return false;
		}
		for (int i = 0; i < n; i++)
			if (rows[i] != lo && rows[i] != hi)
				skip[rows[i]] = true;
		bool all = true;
		for (int i = 0; all && i < n; i++)
			if (skip[rows[i]])
				all = row_implied(q, s, skip, rows[i]);
		free(skip);
		if (!all)
			continue;
		for (int i = n - 1; i >= 0; i--) /* rows[] ascend: delete from the end */
			sys_del_row(s, rows[i]);
		s->kind[x] = SLOT_DEAD;
		return true;
	}
	return false;
}

struct bound {
	int row;
	int64_t a;      /* positive coefficient of x */
	int64_t e[W];   /* lower: a*x >= e; upper: a*x <= e; e has no x */
};

/* The bound ceil(e/a) (lower) or floor(e/a) (upper) as an affine row without
 * floors: e = e_sum + e_rest where every summation variable's coefficient in
 * e_sum is a multiple of a (choose_variable guarantees it), so the bound is
 * e_sum/a + ceil(e_rest/a), and ceil(e_rest/a) is a constant or a new atom
 * (with its defining constraints added to c). */
static int make_bound(struct query *q, struct sys *c, const struct bound *b, bool lower,
		      int64_t *out)
{
	int64_t a = b->a;
	memset(out, 0, W * sizeof(int64_t));
	if (a == 1) {
		memcpy(out, b->e, W * sizeof(int64_t));
		return 0;
	}
	int64_t rest[W];
	memset(rest, 0, sizeof(rest));
	bool has_rest = false;
	rest[0] = b->e[0];
	for (int k = 0; k < q->nslot; k++) {
		int64_t v = b->e[1 + k];
		if (!v)
			continue;
		if (c->kind[k] == SLOT_SUM) {
			if (v % a != 0) {
				char *ks = slot_text(q, k);
				fail_set(&q->fail, FAIL_ERROR, "internal: a bound of %s is not divisible",
					   ks ? ks : "a variable");
				free(ks);
				return -1;
			}
			out[1 + k] = v / a;
		} else {
			rest[1 + k] = v;
			has_rest = true;
		}
	}
	if (!has_rest) {
		out[0] = lower ? -floor_div(-rest[0], a) : floor_div(rest[0], a);
		return 0;
	}
	int slot = new_slot(q, lower ? "c" : "f",
			    lower ? "the ceiling of a lower bound" : "the floor of an upper bound");
	if (slot < 0)
		return -1;
	struct atom_def *d = calloc(1, sizeof(*d));
	if (!d) {
		fail_nomem(&q->fail);
		return -1;
	}
	memcpy(d->row, rest, sizeof(rest));
	if (lower)
		d->row[0] = add64(q, d->row[0], a - 1); /* ceil(r/a) = floor((r+a-1)/a) */
	d->d = a;
	c->kind[slot] = SLOT_ATOM;
	c->def[slot] = d;
	/* 0 <= g - a*v <= a - 1 with g the definition's numerator */
	int64_t row[W];
	memcpy(row, d->row, sizeof(row));
	row[1 + slot] = -a;
	sys_add_row(q, c, row, false);
	for (int k = 0; k < W; k++)
		row[k] = -row[k];
	row[0] = add64(q, row[0], a - 1);
	sys_add_row(q, c, row, false);
	out[1 + slot] = 1;
	return 0;
}

/* Eliminate x by Fourier-Motzkin with chambers (see the header comment). */
static void eliminate(struct query *q, struct sys *s, int x)
{
	int nl = 0, nu = 0;
	struct bound *lo = malloc(sizeof(struct bound) * (size_t)s->ncons);
	struct bound *up = malloc(sizeof(struct bound) * (size_t)s->ncons);
	if (!lo || !up) {
		free(lo);
		free(up);
		fail_nomem(&q->fail);
		return;
	}
	for (int r = 0; r < s->ncons; r++) {
		const int64_t *row = s->row + (size_t)r * W;
		int64_t c = row[1 + x];
		if (!c)
			continue;
		struct bound *b = c > 0 ? &lo[nl++] : &up[nu++];
		b->row = r;
		b->a = c > 0 ? c : -c;
		for (int k = 0; k < W; k++)
			b->e[k] = c > 0 ? -row[k] : row[k];
		b->e[1 + x] = 0;
	}
	for (int i = 0; i < nl && !failed(&q->fail); i++) {
		for (int j = 0; j < nu && !failed(&q->fail); j++) {
			/* slots handed out inside this chamber are free again after it */
			int saved_nslot = q->nslot;
			struct sys *c = sys_copy(q, s, false);
			if (!c) {
				fail_nomem(&q->fail);
				break;
			}
			int64_t row[W];
			int bad = 0;
			/* constraints not involving x */
			for (int r = 0; r < s->ncons && !bad; r++) {
				const int64_t *sr = s->row + (size_t)r * W;
				if (!sr[1 + x])
					bad = sys_add_row(q, c, sr, s->eq[r]) == -1 ? 1 : 0;
			}
			/* lower bound i is the first largest */
			for (int k = 0; k < nl && bad != 2; k++) {
				if (k == i)
					continue;
				row_comb(q, row, lo[k].a, lo[i].e, -lo[i].a, lo[k].e);
				if (k < i)
					row[0] = add64(q, row[0], -1);
				int rc = sys_add_row(q, c, row, false);
				if (rc == -1 || rc == 2)
					bad = rc == -1 ? 1 : 2;
			}
			/* upper bound j is the first smallest */
			for (int k = 0; k < nu && bad != 2; k++) {
				if (k == j)
					continue;
				row_comb(q, row, up[j].a, up[k].e, -up[k].a, up[j].e);
				if (k < j)
					row[0] = add64(q, row[0], -1);
				int rc = sys_add_row(q, c, row, false);
				if (rc == -1 || rc == 2)
					bad = rc == -1 ? 1 : 2;
			}
			/* L = ceil(e_i / a_i), U = floor(e_j / b_j) */
			int64_t Lrow[W], Urow[W];
			if (!bad && (make_bound(q, c, &lo[i], true, Lrow) < 0 ||
				     make_bound(q, c, &up[j], false, Urow) < 0)) {
				sys_free(q, c);
				q->nslot = saved_nslot;
				break;
			}
			if (!bad) {
				/* L <= U */
				for (int k = 0; k < W; k++)
					row[k] = Urow[k] - Lrow[k];
				int rc = sys_add_row(q, c, row, false);
				if (rc == 2)
					bad = 2;
			}
			if (!bad) {
				fmpq_mpoly_t L, U;
				fmpq_mpoly_init(L, q->mctx);
				fmpq_mpoly_init(U, q->mctx);
				poly_from_row(q, L, Lrow, 1);
				poly_from_row(q, U, Urow, 1);
				int rc = poly_sum(q, c->f, x, L, U);
				fmpq_mpoly_clear(L, q->mctx);
				fmpq_mpoly_clear(U, q->mctx);
				c->kind[x] = SLOT_DEAD;
				if (rc == 0)
					solve(q, c);
			} else if (bad == 1) {
				fail_nomem(&q->fail);
			}
			sys_free(q, c);
			q->nslot = saved_nslot;
		}
	}
	free(lo);
	free(up);
}

/* The first summation variable y (other than x) whose coefficient in row is not a
 * multiple of x's coefficient there: the bound on x would be a floor of y. */
static int lift_culprit(struct query *q, const struct sys *s, const int64_t *row, int x)
{
	int64_t a = row[1 + x];
	if (a == 1 || a == -1)
		return -1;
	for (int k = 0; k < q->nslot; k++)
		if (k != x && s->kind[k] == SLOT_SUM && row[1 + k] % a != 0)
			return k;
	return -1;
}

/* Pick the summation variable to eliminate next; -1 if there is none.  *culprit is
 * set when every candidate has a bound that is a floor of another summation
 * variable (the row of the chosen one in *culprit_row). */
static int choose_variable(struct query *q, const struct sys *s, int *culprit, int *culprit_row,
			   int *unbounded)
{
	int best = -1;
	long best_score = 0;
	*unbounded = -1;
	*culprit = -1;
	for (int x = q->np; x < q->nslot; x++) {
		if (s->kind[x] != SLOT_SUM)
			continue;
		int nl = 0, nu = 0, cul = -1, cul_row = -1;
		bool nonunit = false;
		for (int r = 0; r < s->ncons; r++) {
			const int64_t *row = s->row + (size_t)r * W;
			int64_t c = row[1 + x];
			if (!c)
				continue;
			if (c > 0)
				nl++;
			else
				nu++;
			if (c != 1 && c != -1) {
				nonunit = true;
				int y = lift_culprit(q, s, row, x);
				if (y >= 0 && cul < 0) {
					cul = y;
					cul_row = r;
				}
			}
		}
		if (nl == 0 || nu == 0) {
			*unbounded = x;
			continue;
		}
		/* no floors of summation variables first, then all-unit, then fewest
		 * chambers, then innermost */
		long score = (long)nl * nu + (nonunit ? 1000 : 0) + (cul >= 0 ? 100000 : 0);
		if (best < 0 || score <= best_score) {
			best = x;
			best_score = score;
			*culprit = cul;
			*culprit_row = cul_row;
		}
	}
	return best;
}

/* Split y by its residue modulo m: y = m*t + rho, one state per rho.  Afterwards
 * y's coefficient times m is a multiple of the coefficient that blocked x. */
static void split_residues(struct query *q, struct sys *s, int y, int64_t m)
{
	for (int64_t rho = 0; rho < m && !failed(&q->fail); rho++) {
		int saved_nslot = q->nslot;
		struct sys *c = sys_copy(q, s, false);
		int t = c ? new_slot(q, "t", "the quotient of a variable split by its residues") : -1;
		if (!c || t < 0) {
			if (!c)
				fail_nomem(&q->fail);
			sys_free(q, c);
			return;
		}
		c->kind[t] = SLOT_SUM;
		c->kind[y] = SLOT_DEAD;
		bool infeasible = false;
		for (int r = 0; r < s->ncons && !infeasible; r++) {
			int64_t row[W];
			memcpy(row, s->row + (size_t)r * W, sizeof(row));
			int64_t a = row[1 + y];
			row[1 + y] = 0;
			row[0] = add64(q, row[0], mul64(q, a, rho));
			row[1 + t] = mul64(q, a, m);
			int rc = sys_add_row(q, c, row, s->eq[r]);
			if (rc == 2)
				infeasible = true;
			else if (rc < 0)
				fail_nomem(&q->fail);
		}
		if (!infeasible && !failed(&q->fail)) {
			int64_t e[W];
			memset(e, 0, sizeof(e));
			e[0] = rho;
			e[1 + t] = m;
			fmpq_mpoly_t ex;
			fmpq_mpoly_init(ex, q->mctx);
			poly_from_row(q, ex, e, 1);
			int rc = poly_substitute(q, c->f, y, ex);
			fmpq_mpoly_clear(ex, q->mctx);
			if (rc == 0)
				solve(q, c);
		}
		sys_free(q, c);
		q->nslot = saved_nslot;
	}
}

/* Whether one more piece would pass the engine's limit (and the query
 * fails).  The limit keeps formulas readable and their later handling
 * fast; a set without parameters has numbers for pieces, which only add
 * up, so only the step limit and the deadline bound it (the values at
 * single processes: PDGEMM's pairs of processes on 3 x 32). */
static bool piece_limit(struct query *q)
{
	if (q->np == 0 || q->pieces < q->eng->max_pieces)
		return false;
	fail_set(&q->fail, FAIL_REFUSED, "piece limit (%d) reached", q->eng->max_pieces);
	return true;
}

/* ISL 0.25 evaluates some quasi-polynomials with nested floors wrongly (e.g.
 * floor((floor((2n-2)/3) - floor((n+2)/3))/2) built by isl_qpolynomial_from_aff
 * or read from a string gives -1 at n = 4, where the isl_aff gives 0).  So no
 * piece we emit nests floors: while some atom A is defined through another atom
 * B = floor(e/d) whose own definition is flat, split by the residue rho of e
 * modulo d; on each class B = (e - rho)/d exactly, which is substituted into the
 * definitions that use it and into f, and the class is recorded by the equality
 * e - d*B - rho = 0 (B stays as its witness). */
static void emit_flat(struct query *q, const struct sys *s)
{
	/* atoms that reach the quasi-polynomial (directly or through definitions);
	 * nesting in the domain is harmless: ISL sets handle nested divisions */
	bool used[NSLOT] = {false};
	{
		ulong exp[NSLOT];
		slong nt = fmpq_mpoly_length(s->f, q->mctx);
		for (slong t = 0; t < nt; t++) {
			fmpq_mpoly_get_term_exp_ui(exp, s->f, t, q->mctx);
			for (int k = q->np; k < q->nslot; k++)
				if (exp[k])
					used[k] = true;
		}
		for (bool more = true; more;) {
			more = false;
			for (int a = q->np; a < q->nslot; a++) {
				if (!used[a] || s->kind[a] != SLOT_ATOM || !s->def[a])
					continue;
				for (int b = q->np; b < q->nslot; b++)
					if (s->def[a]->row[1 + b] && !used[b])
						used[b] = more = true;
			}
		}
	}
	int inner = -1;
	for (int a = q->np; a < q->nslot && inner < 0; a++) {
		if (!used[a] || s->kind[a] != SLOT_ATOM || !s->def[a])
			continue;
		for (int b = q->np; b < q->nslot; b++) {
			if (b == a || !s->def[a]->row[1 + b] || s->kind[b] != SLOT_ATOM || !s->def[b])
				continue;
			bool flat = true;
			for (int k = q->np; k < q->nslot && flat; k++)
				if (s->def[b]->row[1 + k])
					flat = false;
			if (flat) {
				inner = b;
				break;
			}
		}
	}
	if (inner < 0) {
		if (piece_limit(q))
			return;
		emit_piece(q, s);
		return;
	}
	const struct atom_def *bd = s->def[inner];
	int64_t d = bd->d;
	for (int64_t rho = 0; rho < d && !failed(&q->fail); rho++) {
		struct sys *c = sys_copy(q, s, true);
		if (!c) {
			fail_nomem(&q->fail);
			return;
		}
		int64_t row[W];
		/* e - rho - d*B = 0 */
		memcpy(row, bd->row, sizeof(row));
		row[0] = add64(q, row[0], -rho);
		row[1 + inner] = -d;
		bool ok = sys_add_row(q, c, row, true) == 0;
		/* B = (e - rho)/d in the definitions that use it */
		int64_t val[W];
		memcpy(val, bd->row, sizeof(val));
		val[0] = add64(q, val[0], -rho);
		for (int a = q->np; a < q->nslot && ok; a++) {
			struct atom_def *ad = c->def[a];
			if (a == inner || c->kind[a] != SLOT_ATOM || !ad || !ad->row[1 + inner])
				continue;
			int64_t coef = ad->row[1 + inner];
			ad->row[1 + inner] = 0;
			for (int k = 0; k < W; k++)
				ad->row[k] = add64(q, mul64(q, d, ad->row[k]), mul64(q, coef, val[k]));
			ad->d = mul64(q, ad->d, d);
		}
		if (ok) {
			fmpq_mpoly_t ex;
			fmpq_mpoly_init(ex, q->mctx);
			poly_from_row(q, ex, val, d);
			poly_substitute(q, c->f, inner, ex);
			fmpq_mpoly_clear(ex, q->mctx);
			if (q->overflow)
				fail_set(&q->fail, FAIL_REFUSED, "coefficient overflow (64-bit) while "
					   "flattening floors");
			else
				emit_flat(q, c);
		}
		sys_free(q, c);
	}
}


/* COUNT_TRACE=1 in the environment prints every state (a debugging aid, built
 * only with -DBSPCOST_COUNT_DEBUG). */
static void trace_sys(struct query *q, const struct sys *s, const char *what)
{
	if (!COUNT_DEBUG("COUNT_TRACE"))
		return;
	fprintf(stderr, "-- %s:", what);
	for (int k = 0; k < q->nslot; k++)
		if (s->kind[k] != SLOT_DEAD && s->kind[k] != SLOT_PARAM)
			fprintf(stderr, " %s%s", q->name[k], s->kind[k] == SLOT_ATOM ? "(atom)" : "");
	fprintf(stderr, "\n");
	for (int r = 0; r < s->ncons; r++) {
		char buf[256];
		row_text(q, s->row + (size_t)r * W, s->eq[r], buf, sizeof(buf));
		fprintf(stderr, "     %s\n", buf);
	}
	const char *vars[NSLOT];
	for (int k = 0; k < NSLOT; k++)
		vars[k] = q->name[k][0] ? q->name[k] : "_";
	char *f = fmpq_mpoly_get_str_pretty(s->f, vars, q->mctx);
	fprintf(stderr, "     f = %s\n", f);
	flint_free(f);
}

/* A set without parameters whose variable Y takes at most VALUES_MAX values
 * (ISL's integer minimum and maximum over S): S summed as the sum of its
 * slices, Y fixed to each value -- exact, where splitting Y by more than 64
 * residues is refused.  Returns false (S untouched) when Y's range is not
 * that small or not known. */
static bool enumerate_values(struct query *q, struct sys *s, int y)
{
	enum { VALUES_MAX = 4096 };
	if (q->np != 0)
		return false;
	int map[NSLOT], ndim;
	isl_set *set = isl_set_from_basic_set(sys_to_isl(q, s, map, &ndim));
	isl_val *lo = isl_set_dim_min_val(isl_set_copy(set), map[y]);
	isl_val *hi = isl_set_dim_max_val(set, map[y]);
	if (!lo || !hi) { /* ISL failed (its operation limit): say so */
		isl_val_free(lo);
		isl_val_free(hi);
		isl_failed(q, "the range of a variable");
		return true;
	}
	long long l = 0, h = -1, span;
	bool small = isl_val_is_int(lo) && isl_val_is_int(hi) &&
		     val_to_ll(isl_val_copy(lo), &l) && val_to_ll(isl_val_copy(hi), &h) &&
		     l > INT64_MIN && !__builtin_sub_overflow(h, l, &span) && span < VALUES_MAX;
	isl_val_free(lo);
	isl_val_free(hi);
	if (!small) /* unbounded (infinite), empty or too wide */
		return false;
	int saved_nslot = q->nslot;
	for (long long v = l; v <= h && !failed(&q->fail); v++) {
		struct sys *c = sys_copy(q, s, true);
		if (!c) {
			fail_nomem(&q->fail);
			return true;
		}
		int64_t row[W];
		memset(row, 0, sizeof(row));
		row[0] = -(int64_t)v;
		row[1 + y] = 1;
		if (sys_add_row(q, c, row, true) == 0)
			solve(q, c);
		sys_free(q, c);
		q->nslot = saved_nslot; /* each slice's own slots, given back */
	}
	return true;
}

/* ---------------------------------------------------------------- products */

int count_group_root(int *parent, int d)
{
	while (parent[d] != d)
		d = parent[d] = parent[parent[d]];
	return d;
}

void count_group_link(int *parent, int ns, unsigned long long mask)
{
	int first = -1;
	for (int d = 0; d < ns; d++) {
		if (!(mask >> d & 1))
			continue;
		if (first < 0)
			first = count_group_root(parent, d);
		else
			parent[count_group_root(parent, d)] = first;
	}
}

/* S's summation variables fall into groups that no constraint ties together
 * (a block-cyclic product: the rows a process owns times its columns), and
 * the weight involves one group at most: the sum is the product of one sum
 * per group, each over its own constraints and the ones on parameters and
 * atoms alone, the weight on its group's (any one when it has none).  Each
 * sum is a query of its own state, its result multiplied into the others'
 * and the product added to the query's sum.  Exact: the summation domain
 * is the product of the groups' domains (the conditions on the parameters
 * repeated in each, where they hold in the product's domain).  True when it
 * summed S (or failed), false when S is one group. */
static bool solve_apart(struct query *q, struct sys *s)
{
	int parent[NSLOT];
	for (int k = 0; k < NSLOT; k++)
		parent[k] = k;
	_Static_assert(NSLOT <= 64, "a row's slots in one mask");
	for (int r = 0; r < s->ncons; r++) {
		const int64_t *row = s->row + (size_t)r * W;
		unsigned long long mask = 0;
		for (int k = q->np; k < q->nslot; k++)
			if (row[1 + k] && s->kind[k] == SLOT_SUM)
				mask |= 1ull << k;
		count_group_link(parent, q->nslot, mask);
	}
	/* the groups, by their roots; the weight's group */
	int root[NSLOT], ngroups = 0, weighted = -1;
	for (int k = q->np; k < q->nslot; k++) {
		if (s->kind[k] != SLOT_SUM)
			continue;
		int r = count_group_root(parent, k);
		bool seen = false;
		for (int g = 0; g < ngroups; g++)
			seen |= root[g] == r;
		if (!seen)
			root[ngroups++] = r;
		if (fmpq_mpoly_degree_si(s->f, k, q->mctx) > 0) {
			if (weighted >= 0 && weighted != r)
				return false; /* the weight ties two groups */
			weighted = r;
		}
	}
	if (ngroups < 2)
		return false;
	if (weighted < 0)
		weighted = root[0];
	/* the query's sum set aside: each group's sum taken on an empty one */
	int saved_pieces = q->pieces, saved_steps = q->steps, saved_splits = q->splits;
	bool saved_overflow = q->overflow;
	isl_pw_qpolynomial *saved_acc = q->acc, *saved_level[32];
	memcpy(saved_level, q->level, sizeof(saved_level));
	memset(q->level, 0, sizeof(q->level));
	q->acc = NULL;
	isl_pw_qpolynomial *product = NULL;
	for (int g = 0; g < ngroups && !failed(&q->fail); g++) {
		struct sys *t = sys_copy(q, s, true);
		if (!t) {
			fail_nomem(&q->fail);
			break;
		}
		for (int k = q->np; k < q->nslot; k++)
			if (t->kind[k] == SLOT_SUM && count_group_root(parent, k) != root[g])
				t->kind[k] = SLOT_DEAD;
		for (int r = t->ncons - 1; r >= 0; r--) {
			const int64_t *row = t->row + (size_t)r * W;
			bool other = false;
			for (int k = q->np; k < q->nslot && !other; k++)
				other = row[1 + k] && s->kind[k] == SLOT_SUM &&
					count_group_root(parent, k) != root[g];
			if (other)
				sys_del_row(t, r);
		}
		if (root[g] != weighted)
			fmpq_mpoly_one(t->f, q->mctx);
		int saved_nslot = q->nslot;
		q->pieces = saved_pieces; /* each group's pieces against the limit */
		q->acc = isl_pw_qpolynomial_zero(
			isl_space_add_dims(isl_space_copy(q->pspace), isl_dim_out, 1));
		solve(q, t);
		sys_free(q, t);
		q->nslot = saved_nslot;
		isl_pw_qpolynomial *one = acc_take(q);
		if (!one && !failed(&q->fail))
			isl_failed(q, "a factor of a product");
		product = !product ? one : isl_pw_qpolynomial_mul(product, one);
		if (!product && !failed(&q->fail))
			isl_failed(q, "a product of sums");
	}
	for (int k = 0; k < 32; k++)
		isl_pw_qpolynomial_free(q->level[k]);
	isl_pw_qpolynomial_free(q->acc);
	q->acc = saved_acc;
	memcpy(q->level, saved_level, sizeof(saved_level));
	/* the product's pieces count, not its factors' (each factor's pieces
	 * are fewer than the whole's would have been), against the same limit */
	isl_size npiece = product ? isl_pw_qpolynomial_n_piece(product) : 0;
	if (!failed(&q->fail) && q->np > 0 && saved_pieces + npiece > q->eng->max_pieces)
		fail_set(&q->fail, FAIL_REFUSED, "piece limit (%d) reached", q->eng->max_pieces);
	if (failed(&q->fail)) {
		isl_pw_qpolynomial_free(product);
		/* a limit of the groups' sums (each repeats the conditions on the
		 * parameters, and may split where the whole did not): S summed
		 * whole instead, from the same limits on; the deadline is final */
		if (q->fail.kind != FAIL_REFUSED || session_ctx_stopped(q->ctx))
			return true;
		fail_clear(&q->fail);
		isl_ctx_reset_error(q->ctx);
		/* the whole gets the ISL operations the groups used up (the
		 * deadline bounds both) */
		isl_ctx_reset_operations(q->ctx);
		q->pieces = saved_pieces;
		q->steps = saved_steps;
		q->splits = saved_splits;
		q->overflow = saved_overflow;
		return false;
	}
	q->pieces = saved_pieces + (npiece > 0 ? npiece : 1);
	acc_add(q, product); /* a failure is in q->fail */
	return true;
}

static void solve(struct query *q, struct sys *s)
{
	for (;;) {
		trace_sys(q, s, "state");
		if (failed(&q->fail))
			return;
		if (q->overflow) {
			fail_set(&q->fail, FAIL_REFUSED, "coefficient overflow (64-bit) during elimination");
			return;
		}
		if (out_of_time(q))
			return;
		if (++q->steps > q->eng->max_steps) {
			fail_set(&q->fail, FAIL_REFUSED, "elimination step limit (%d) reached",
				   q->eng->max_steps);
			return;
		}
		if (fmpq_mpoly_is_zero(s->f, q->mctx))
			return;
		bool empty;
		if (sys_simplify(q, s, &empty) < 0 || empty)
			return;
		int rc = handle_equalities(q, s);
		if (rc < 0)
			return;
		if (rc > 0)
			continue;
		if (detect_div_atoms(q, s))
			continue;
		if (solve_apart(q, s))
			return;
		int unb, culprit = -1, culprit_row = -1;
		int x = choose_variable(q, s, &culprit, &culprit_row, &unb);
		if (unb >= 0) {
			char *us = slot_text(q, unb);
			fail_set(&q->fail, FAIL_REFUSED,
				   "%s has no lower or upper bound: the set is infinite for some "
				   "parameter values",
				   us ? us : "a variable");
			free(us);
			return;
		}
		if (x < 0) {
			if (piece_limit(q))
				return;
			emit_flat(q, s);
			return;
		}
		if (culprit >= 0 && drop_determined(q, s))
			continue; /* what needed a split may be gone with it */
		if (culprit >= 0) {
			const int64_t *row = s->row + (size_t)culprit_row * W;
			int64_t a = row[1 + x] < 0 ? -row[1 + x] : row[1 + x];
			int64_t m = a / gcd64(a, row[1 + culprit]);
			if (m > 64 && enumerate_values(q, s, culprit))
				return;
			if (++q->splits > q->eng->max_steps / 10 || m > 64) {
				char *con = row_reason_text(q, row, s->eq[culprit_row]);
				char *xs = slot_text(q, x), *ys = slot_text(q, culprit);
				char how[128];
				if (m > 64)
					snprintf(how, sizeof(how), "would take %lld cases (at most 64)",
						 (long long)m);
				else
					snprintf(how, sizeof(how), "modulo %lld did not remove it",
						 (long long)m);
				fail_set(&q->fail, FAIL_REFUSED,
					   "cannot sum over %s: its bound%s%s%s is a floor of %s, and "
					   "splitting %s by its residues %s",
					   xs ? xs : "a variable", con ? " in constraint '" : "",
					   con ? con : "", con ? "'" : "", ys ? ys : "a variable",
					   ys ? ys : "it", how);
				free(con);
				free(xs);
				free(ys);
				return;
			}
			split_residues(q, s, culprit, m);
			return;
		}
		eliminate(q, s, x);
		return;
	}
}

/* ---------------------------------------------------------------- entry points */

struct clean_job {
	isl_pw_qpolynomial *acc;
};

static isl_stat keep_nonempty(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user)
{
	struct clean_job *cj = user;
	isl_bool empty = isl_set_is_empty(dom);
	isl_bool zero = isl_qpolynomial_is_zero(qp);
	if (empty < 0 || zero < 0) {
		isl_set_free(dom);
		isl_qpolynomial_free(qp);
		return isl_stat_error;
	}
	if (empty || zero) {
		isl_set_free(dom);
		isl_qpolynomial_free(qp);
		return isl_stat_ok;
	}
	cj->acc = isl_pw_qpolynomial_add_disjoint(cj->acc, isl_pw_qpolynomial_alloc(dom, qp));
	return cj->acc ? isl_stat_ok : isl_stat_error;
}

/* Coalesce, then drop pieces whose domain is empty (coalesce leaves some, printed
 * as "x : false") or whose value is 0 (absent means 0). */
__isl_give isl_pw_qpolynomial *count_clean_result(__isl_take isl_pw_qpolynomial *pw)
{
	pw = coalesce_pw_qpolynomial(pw);
	if (!pw)
		return NULL;
	struct clean_job cj;
	cj.acc = isl_pw_qpolynomial_zero(isl_space_add_dims(
		isl_space_params(isl_pw_qpolynomial_get_domain_space(pw)), isl_dim_out, 1));
	isl_stat st = isl_pw_qpolynomial_foreach_piece(pw, keep_nonempty, &cj);
	isl_pw_qpolynomial_free(pw);
	if (st < 0)
		return isl_pw_qpolynomial_free(cj.acc);
	return cj.acc;
}


void count_engine_init(struct count_engine *engine, isl_ctx *ctx)
{
	engine->ctx = ctx;
	engine->max_operations = 1000000;
	engine->symbolic_max_operations = 4000000;
	engine->max_steps = 20000;
	engine->max_pieces = 24;
}

static void query_init(struct query *q, struct count_engine *eng, __isl_keep isl_space *space)
{
	memset(q, 0, sizeof(*q));
	q->eng = eng;
	q->ctx = eng->ctx;
	q->pspace = isl_space_params(isl_space_copy(space));
	isl_size np = isl_space_dim(q->pspace, isl_dim_param);
	q->np = np < 0 ? 0 : np;
	q->nslot = q->np;
	for (int k = 0; k < q->np && k < NSLOT; k++) {
		const char *n = isl_space_get_dim_name(q->pspace, isl_dim_param, (unsigned)k);
		snprintf(q->name[k], sizeof(q->name[k]), "%s", n ? n : "p");
		slot_from_dim(q, k, q->pspace, isl_dim_param, (unsigned)k, "an unnamed parameter");
	}
	fmpq_mpoly_ctx_init(q->mctx, NSLOT, ORD_LEX);
	q->acc = isl_pw_qpolynomial_zero(isl_space_add_dims(isl_space_copy(q->pspace), isl_dim_out, 1));
}

static void query_clear(struct query *q)
{
	for (int k = 0; k < q->nfaul; k++)
		fmpq_poly_clear(&q->faul[k]);
	fmpq_mpoly_ctx_clear(q->mctx);
	isl_space_free(q->pspace);
	isl_pw_qpolynomial_free(q->acc);
	for (int k = 0; k < 32; k++)
		isl_pw_qpolynomial_free(q->level[k]);
	fail_clear(&q->fail);
	for (int k = 0; k < NSLOT; k++)
		free(q->what[k]);
}

/* Weight of one piece: the qpolynomial's terms as a polynomial over the set
 * dimensions (slot np + k) and parameters. */
struct weight_conv {
	struct query *q;
	fmpq_mpoly_struct *f;
	int base;        /* slot of set dimension 0 */
	int ndim;
	bool ok;
};

static isl_stat weight_term(__isl_take isl_term *term, void *user)
{
	struct weight_conv *wc = user;
	struct query *q = wc->q;
	isl_size ndiv = isl_term_dim(term, isl_dim_div);
	isl_size np = isl_term_dim(term, isl_dim_param);
	isl_size nd = isl_term_dim(term, isl_dim_set);
	isl_val *v = isl_term_get_coefficient_val(term);
	if (ndiv != 0 || np < 0 || nd < 0 || !v) {
		wc->ok = false;
		isl_val_free(v);
		isl_term_free(term);
		return isl_stat_error;
	}
	fmpq_t c;
	fmpq_init(c);
	char *str = isl_val_to_str(v);
	int bad = !str || fmpq_set_str(c, str, 10) != 0;
	free(str);
	isl_val_free(v);
	ulong exp[NSLOT];
	memset(exp, 0, sizeof(exp));
	for (int k = 0; k < np; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_param, (unsigned)k);
		exp[k] = e < 0 ? 0 : (ulong)e;
	}
	for (int k = 0; k < nd; k++) {
		isl_size e = isl_term_get_exp(term, isl_dim_set, (unsigned)k);
		exp[wc->base + k] = e < 0 ? 0 : (ulong)e;
	}
	isl_term_free(term);
	if (bad) {
		fmpq_clear(c);
		wc->ok = false;
		return isl_stat_error;
	}
	fmpq_mpoly_t t;
	fmpq_mpoly_init(t, q->mctx);
	fmpq_mpoly_set_coeff_fmpq_ui(t, c, exp, q->mctx);
	fmpq_mpoly_add(wc->f, wc->f, t, q->mctx);
	fmpq_mpoly_clear(t, q->mctx);
	fmpq_clear(c);
	return isl_stat_ok;
}

struct bset_job {
	struct query *q;
	isl_qpolynomial *weight; /* NULL: weight 1 */
	int ndim;                /* set dimensions before lifting */
};

/* One disjoint basic set: lift its divisions into variables and sum. */
static isl_stat count_basic_set(__isl_take isl_basic_set *bset, void *user)
{
	struct bset_job *job = user;
	struct query *q = job->q;
	bset = isl_basic_set_lift(bset);
	bset = isl_basic_set_flatten(bset);
	isl_size nd = isl_basic_set_dim(bset, isl_dim_set);
	if (nd < 0) {
		isl_basic_set_free(bset);
		isl_failed(q, "lifting integer divisions");
		return isl_stat_error;
	}
	if (q->np + nd > NSLOT) {
		isl_basic_set_free(bset);
		fail_set(&q->fail, FAIL_REFUSED, "too many variables (%d parameters + %d variables)",
			   q->np, (int)nd);
		return isl_stat_error;
	}
	q->nslot = q->np + nd;
	struct sys *s = sys_alloc(q);
	if (!s) {
		isl_basic_set_free(bset);
		fail_nomem(&q->fail);
		return isl_stat_error;
	}
	for (int k = 0; k < q->np; k++)
		s->kind[k] = SLOT_PARAM;
	isl_space *bspace = isl_basic_set_get_space(bset);
	for (int k = 0; k < nd; k++) {
		int slot = q->np + k;
		s->kind[slot] = SLOT_SUM;
		const char *n = k < job->ndim ? isl_basic_set_get_dim_name(bset, isl_dim_set, (unsigned)k)
					      : NULL;
		if (n)
			snprintf(q->name[slot], sizeof(q->name[slot]), "%s", n);
		else if (k < job->ndim)
			snprintf(q->name[slot], sizeof(q->name[slot]), "i%d", k);
		else
			snprintf(q->name[slot], sizeof(q->name[slot]), "e%d", k - job->ndim);
		if (k < job->ndim) {
			char role[64];
			snprintf(role, sizeof(role), "dimension %d of the set", k + 1);
			slot_from_dim(q, slot, bspace, isl_dim_set, (unsigned)k, role);
		} else {
			/* a lifted integer division: ISL keeps no name for it */
			slot_set_what(q, slot, "an existentially quantified variable", false);
		}
	}
	isl_space_free(bspace);
	int inv[NSLOT];
	for (int k = 0; k < nd; k++)
		inv[k] = q->np + k;
	struct readback rb = {q, s, inv, nd, false};
	isl_stat st = isl_basic_set_foreach_constraint(bset, read_constraint, &rb);
	isl_basic_set_free(bset);
	if (st < 0 || rb.failed) {
		sys_free(q, s);
		fail_set(&q->fail, FAIL_REFUSED, "a constraint has a constant or coefficient beyond 64 "
			   "bits (of magnitude above 9223372036854775807)");
		return isl_stat_error;
	}
	if (job->weight) {
		struct weight_conv wc = {q, s->f, q->np, job->ndim, true};
		if (isl_qpolynomial_foreach_term(job->weight, weight_term, &wc) < 0 || !wc.ok) {
			sys_free(q, s);
			fail_set(&q->fail, FAIL_REFUSED,
				   "the weight contains a floor (integer division); only "
				   "polynomial weights are summed");
			return isl_stat_error;
		}
	} else {
		fmpq_mpoly_one(s->f, q->mctx);
	}
	solve(q, s);
	sys_free(q, s);
	return !failed(&q->fail) ? isl_stat_ok : isl_stat_error;
}

static isl_stat add_constraint(__isl_take isl_constraint *c, void *user)
{
	isl_basic_set **bset = user;
	*bset = isl_basic_set_intersect(*bset, isl_basic_set_from_constraint(c));
	return *bset ? isl_stat_ok : isl_stat_error;
}

static isl_stat rebuild_basic_set(__isl_take isl_basic_set *bset, void *user)
{
	isl_set **acc = user;
	/* Rebuilt constraint by constraint, an existential with no definition
	 * would become one per constraint, and the set a larger one: such a
	 * basic set is kept as it is. */
	if (basic_set_has_unknown_div(bset)) {
		*acc = isl_set_union(*acc, isl_set_from_basic_set(bset));
		return *acc ? isl_stat_ok : isl_stat_error;
	}
	isl_basic_set *fresh = isl_basic_set_universe(isl_basic_set_get_space(bset));
	if (isl_basic_set_foreach_constraint(bset, add_constraint, &fresh) < 0)
		fresh = isl_basic_set_free(fresh);
	isl_basic_set_free(bset);
	*acc = isl_set_union(*acc, isl_set_from_basic_set(fresh));
	return *acc ? isl_stat_ok : isl_stat_error;
}

/* SET (taken) rebuilt from its constraints, and with the equalities its
 * constraints only imply made explicit.  A set that operations such as
 * projections produced keeps integer divisions in whatever combination the
 * operations left (a floor of (e + 1 - q')/P where (e - q)/P would do, given
 * the other equalities), and ISL marks it simplified; rebuilt, ISL simplifies
 * it afresh, as it does a set it reads.  On a cyclic layout of P processes the
 * elimination then needs no split into P residues: measured on stencil1d's
 * fan-out, 27 s become 4 ms at P = 128. */
static __isl_give isl_set *renormalize(__isl_take isl_set *set)
{
	isl_set *acc = set ? isl_set_empty(isl_set_get_space(set)) : NULL;
	if (acc && isl_set_foreach_basic_set(set, rebuild_basic_set, &acc) < 0)
		acc = isl_set_free(acc);
	isl_set_free(set);
	return isl_set_detect_equalities(acc);
}

/* Sum weight (NULL: 1) over set, adding to q->acc. */
static void count_set_weighted(struct query *q, __isl_keep isl_set *set,
			       __isl_keep isl_qpolynomial *weight)
{
	isl_size nd = isl_set_dim(set, isl_dim_set);
	isl_set *s = renormalize(isl_set_copy(set));
	s = isl_set_compute_divs(s);
	s = isl_set_make_disjoint(s);
	if (!s || nd < 0) {
		isl_set_free(s);
		isl_failed(q, "preparing the set");
		return;
	}
	struct bset_job job = {q, weight, nd};
	isl_stat st = isl_set_foreach_basic_set(s, count_basic_set, &job);
	isl_set_free(s);
	if (st < 0 && !failed(&q->fail))
		isl_failed(q, "walking the basic sets");
}

static enum count_status finish(struct query *q, __isl_give isl_pw_qpolynomial **result,
				char **reason, unsigned long old_max)
{
	q->acc = acc_take(q);
	if (!q->acc && !failed(&q->fail))
		isl_failed(q, "adding the pieces of the result");
	isl_ctx_set_max_operations(q->ctx, old_max);
	enum count_status st = (enum count_status)q->fail.kind;
	if (COUNT_DEBUG("COUNT_STATS"))
		fprintf(stderr, "count: %d steps, %d pieces, %d splits, %.2f ms adding, %lu ops\n",
			q->steps, q->pieces, q->splits, q->add_ms, isl_ctx_get_max_operations(q->ctx));
	if (st == COUNT_EXACT) {
		q->acc = count_clean_result(q->acc);
		if (!q->acc) {
			isl_failed(q, "simplifying the result");
			st = (enum count_status)q->fail.kind;
		}
	}
	if (st == COUNT_EXACT) {
		*result = q->acc;
		q->acc = NULL;
		*reason = NULL;
	} else {
		*result = NULL;
		*reason = fail_release(&q->fail);
	}
	query_clear(q);
	return st;
}

unsigned long count_start_limits(struct count_engine *engine)
{
	unsigned long old = isl_ctx_get_max_operations(engine->ctx);
	isl_ctx_reset_operations(engine->ctx);
	isl_ctx_set_max_operations(engine->ctx, engine->max_operations);
	isl_ctx_reset_error(engine->ctx);
	return old;
}

enum count_status count_points(struct count_engine *engine, __isl_keep isl_set *set,
			       __isl_give isl_pw_qpolynomial **result, char **reason)
{
	struct query q;
	*result = NULL;
	*reason = NULL;
	if (!set) {
		*reason = count_dup_msg("no set");
		return COUNT_ERROR;
	}
	unsigned long old = count_start_limits(engine);
	isl_space *space = isl_set_get_space(set);
	query_init(&q, engine, space);
	isl_space_free(space);
	if (q.np > NSLOT / 2)
		fail_set(&q.fail, FAIL_REFUSED, "too many parameters (%d)", q.np);
	else
		count_set_weighted(&q, set, NULL);
	return finish(&q, result, reason, old);
}

struct sum_job {
	struct query *q;
	isl_set *set;
};

/* A weight's integer divisions made set dimensions (lift_weight_divs). */
struct lifted {
	int ndim;              /* the set's dimensions before */
	isl_space *space;      /* the set space after: NDIM + one per division */
	isl_qpolynomial *qp;   /* the weight rebuilt on it */
	int ndiv;
	isl_aff **div;         /* [ndiv] each division, floor(e/m), on the set before */
	bool failed;
};

/* One term of the weight, its divisions replaced by the new dimensions. */
static isl_stat lift_term(__isl_take isl_term *t, void *user)
{
	struct lifted *lf = user;
	isl_size np = isl_term_dim(t, isl_dim_param);
	isl_size nd = isl_term_dim(t, isl_dim_div);
	isl_qpolynomial *m = isl_qpolynomial_val_on_domain(isl_space_copy(lf->space),
							   isl_term_get_coefficient_val(t));
	for (int k = 0; k < np && m; k++) {
		isl_size e = isl_term_get_exp(t, isl_dim_param, (unsigned)k);
		if (e > 0)
			m = isl_qpolynomial_mul(m, isl_qpolynomial_pow(isl_qpolynomial_var_on_domain(
				isl_space_copy(lf->space), isl_dim_param, (unsigned)k), (unsigned)e));
	}
	for (int k = 0; k < lf->ndim + (nd > 0 ? nd : 0) && m; k++) {
		bool div = k >= lf->ndim;
		isl_size e = div ? isl_term_get_exp(t, isl_dim_div, (unsigned)(k - lf->ndim))
				 : isl_term_get_exp(t, isl_dim_set, (unsigned)k);
		if (e > 0)
			m = isl_qpolynomial_mul(m, isl_qpolynomial_pow(isl_qpolynomial_var_on_domain(
				isl_space_copy(lf->space), isl_dim_set, (unsigned)k), (unsigned)e));
	}
	if (!lf->div && nd > 0) {
		lf->ndiv = nd;
		lf->div = calloc((size_t)nd, sizeof(*lf->div));
		for (int i = 0; lf->div && i < nd; i++)
			lf->div[i] = isl_aff_floor(isl_term_get_div(t, (unsigned)i));
	}
	isl_term_free(t);
	lf->qp = isl_qpolynomial_add(lf->qp, m);
	if (np < 0 || nd < 0 || nd != lf->ndiv || !lf->qp || (nd > 0 && !lf->div)) {
		lf->failed = true;
		return isl_stat_error;
	}
	return isl_stat_ok;
}

/* The weighted sum over *S of *QP (both taken and replaced) with the
 * divisions of QP, which the summation does not take, lifted: a division
 * floor(e/m) becomes a new last dimension y of the set, with y = floor(e/m)
 * (one y for each point, so the sum is the same), and y in the weight.
 * The engine lifts the set's own divisions the same way.  -1 when ISL
 * failed. */
static int lift_weight_divs(__isl_keep isl_set **s, __isl_keep isl_qpolynomial **qp)
{
	isl_size nd = isl_set_dim(*s, isl_dim_set);
	isl_size ndiv = isl_qpolynomial_dim(*qp, isl_dim_div);
	if (nd < 0 || ndiv < 0)
		return -1;
	if (ndiv == 0)
		return 0;
	struct lifted lf = {(int)nd, isl_space_add_dims(isl_set_get_space(*s), isl_dim_set,
							  (unsigned)ndiv),
			    NULL, 0, NULL, false};
	lf.qp = isl_qpolynomial_zero_on_domain(isl_space_copy(lf.space));
	if (isl_qpolynomial_foreach_term(*qp, lift_term, &lf) < 0)
		lf.failed = true;
	isl_set *t = isl_set_add_dims(*s, isl_dim_set, (unsigned)ndiv);
	for (int i = 0; !lf.failed && i < lf.ndiv && t; i++) {
		/* y_i = floor(e/m), on the set after */
		isl_aff *y = isl_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(lf.space)),
						   isl_dim_set, (unsigned)(nd + i));
		isl_aff *d = isl_aff_add_dims(isl_aff_copy(lf.div[i]), isl_dim_in, (unsigned)ndiv);
		t = isl_set_intersect(t, isl_set_from_basic_set(isl_aff_zero_basic_set(
						 isl_aff_sub(y, d))));
	}
	for (int i = 0; lf.div && i < lf.ndiv; i++)
		isl_aff_free(lf.div[i]);
	free(lf.div);
	isl_space_free(lf.space);
	isl_qpolynomial_free(*qp);
	*s = t;
	*qp = lf.qp;
	if (lf.failed || !t || !lf.qp)
		return -1;
	return 0;
}

static isl_stat sum_piece(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user)
{
	struct sum_job *job = user;
	isl_set *s = isl_set_intersect(isl_set_copy(job->set), dom);
	if (lift_weight_divs(&s, &qp) < 0 && !failed(&job->q->fail))
		isl_failed(job->q, "lifting the weight's divisions");
	if (!failed(&job->q->fail))
		count_set_weighted(job->q, s, qp);
	isl_set_free(s);
	isl_qpolynomial_free(qp);
	return !failed(&job->q->fail) ? isl_stat_ok : isl_stat_error;
}

enum count_status count_sum(struct count_engine *engine, __isl_keep isl_set *set,
			    __isl_keep isl_pw_qpolynomial *weight,
			    __isl_give isl_pw_qpolynomial **result, char **reason)
{
	struct query q;
	*result = NULL;
	*reason = NULL;
	if (!set || !weight) {
		*reason = count_dup_msg("no set or no weight");
		return COUNT_ERROR;
	}
	unsigned long old = count_start_limits(engine);
	isl_space *space = isl_set_get_space(set);
	query_init(&q, engine, space);
	isl_space *wspace = isl_pw_qpolynomial_get_domain_space(weight);
	isl_bool same = isl_space_is_equal(space, wspace);
	isl_space_free(wspace);
	isl_space_free(space);
	if (same <= 0) {
		fail_set(&q.fail, FAIL_ERROR, "the weight's domain space differs from the set's space");
		return finish(&q, result, reason, old);
	}
	struct sum_job job = {&q, (isl_set *)set};
	if (isl_pw_qpolynomial_foreach_piece(weight, sum_piece, &job) < 0 && !failed(&q.fail))
		isl_failed(&q, "walking the weight");
	return finish(&q, result, reason, old);
}

__isl_give isl_val *count_eval(__isl_keep isl_pw_qpolynomial *pwqp, int n,
			       const char *const names[], const long long values[], char **reason)
{
	*reason = NULL;
	if (!pwqp) {
		*reason = count_dup_msg("no formula");
		return NULL;
	}
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(pwqp);
	isl_space *space = isl_pw_qpolynomial_get_domain_space(pwqp);
	isl_size np = isl_space_dim(space, isl_dim_param);
	isl_size nd = isl_space_dim(space, isl_dim_set);
	if (np < 0 || nd != 0) {
		isl_space_free(space);
		*reason = count_dup_msg("the formula is not over parameters only");
		return NULL;
	}
	isl_point *pt = isl_point_zero(isl_space_copy(space));
	for (int k = 0; k < np; k++) {
		const char *pn = isl_space_get_dim_name(space, isl_dim_param, (unsigned)k);
		int found = -1;
		for (int j = 0; j < n && pn; j++)
			if (strcmp(names[j], pn) == 0)
				found = j; /* the last -D wins */
		if (found < 0) {
			char buf[256];
			snprintf(buf, sizeof(buf), "parameter %s has no value", pn ? pn : "?");
			*reason = count_dup_msg(buf);
			isl_point_free(pt);
			isl_space_free(space);
			return NULL;
		}
		pt = isl_point_set_coordinate_val(pt, isl_dim_param, k,
						  isl_val_int_from_si(ctx, (long)values[found]));
	}
	isl_space_free(space);
	isl_val *v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(pwqp), pt);
	if (!v) {
		struct fail f = {0};
		fail_isl(&f, ctx, "evaluating the count");
		*reason = fail_release(&f);
	}
	return v;
}
