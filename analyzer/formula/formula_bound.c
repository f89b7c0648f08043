/* Whether a formula is >= 0 all over a context (formula_nonnegative_on),
 * which is whether one of two formulas bounds the other (h = max(h_in,
 * h_out) is h_out where h_out - h_in >= 0): piece by piece, a polynomial
 * value by the signs of polynomials (fml_poly_sign_on, formula_sign.c) on
 * the piece's condition or on each of its basic sets, and a value with
 * maxima and minima as a least of clauses, each a polynomial plus maxima
 * of polynomials, shown by one term or the mean of each maximum.  Only
 * what is shown counts: "not shown" is never "negative". */
#include <stdlib.h>
#include <string.h>

#include <isl/set.h>

#include "analyzer/formula/formula_internal.h"

/* Whether X >= 0 is shown on a basic set of a condition (USER: X, kept). */
struct part_sign {
	const struct fvars *V;
	const struct fnode *x;
};

static isl_stat part_nonnegative(__isl_take isl_basic_set *bset, void *user)
{
	struct part_sign *ps = user;
	isl_set *part = isl_set_from_basic_set(bset);
	struct fml_on_cond oc;
	fml_on_cond_init(&oc, part);
	int s = part ? fml_poly_sign_on(ps->V, ps->x, &oc) : 0;
	fml_on_cond_clear(&oc);
	isl_set_free(part);
	return s == 1 ? isl_stat_ok : isl_stat_error;   /* not shown: stop */
}

/* Whether X >= 0 is shown on COND (kept): on all of it, or else on each of
 * its basic sets, whose equalities are each its own (e2_N == N - 1 in
 * one, e2_Ni == kk_Ni + 1 in another, their hull neither). */
static int nonnegative_by_parts(const struct fvars *V, const struct fnode *x,
				__isl_keep isl_set *cond)
{
	struct fml_on_cond oc;
	fml_on_cond_init(&oc, cond);
	int s = fml_poly_sign_on(V, x, &oc);
	fml_on_cond_clear(&oc);
	if (s == 1)
		return 1;
	isl_size n = isl_set_n_basic_set(cond);
	if (n < 2)
		return 0;
	struct part_sign ps = {V, x};
	return isl_set_foreach_basic_set(cond, &part_nonnegative, &ps) == isl_stat_ok;
}

/* A value as the least, over clauses, of a polynomial plus maxima of
 * polynomials: h_out - h_in where h_in is a part plus a max of two (a panel
 * over two blocks) is p + max(q1, q2) - max(r1, r2) = min(p + max(q1, q2)
 * - r1, p + max(q1, q2) - r2).  Bounded, so that it stays small. */
enum { MM_CLAUSES = 16, MM_SETS = 4, MM_TERMS = 8, MM_CHOICES = 64 };

struct mm_clause {
	struct fnode *p;                      /* the polynomial */
	int nsets;
	int n[MM_SETS];                       /* the terms of each max */
	struct fnode *t[MM_SETS][MM_TERMS];
};

struct minmax {
	int n;
	struct mm_clause c[MM_CLAUSES];
};

static void mm_clause_clear(const struct fvars *V, struct mm_clause *c)
{
	fml_node_free(V, c->p);
	for (int k = 0; k < c->nsets; k++)
		for (int x = 0; x < c->n[k]; x++)
			fml_node_free(V, c->t[k][x]);
	memset(c, 0, sizeof(*c));
}

static void mm_free(const struct fvars *V, struct minmax *a)
{
	for (int i = 0; a && i < a->n; i++)
		mm_clause_clear(V, &a->c[i]);
	free(a);
}

/* A new clause of R, its polynomial P (taken); NULL past the bounds or
 * out of memory. */
static struct mm_clause *mm_clause_new(const struct fvars *V, struct minmax *r, struct fnode *p)
{
	if (!p || r->n >= MM_CLAUSES) {
		fml_node_free(V, p);
		return NULL;
	}
	struct mm_clause *c = &r->c[r->n++];
	c->p = p;
	return c;
}

/* Clause C with a copy of FROM's maxima, each term scaled by K (NULL: 1);
 * -1 past the bounds or out of memory. */
static int mm_copy_sets(const struct fvars *V, struct mm_clause *c, const struct mm_clause *from,
			const struct fnode *k)
{
	for (int s = 0; s < from->nsets; s++) {
		if (c->nsets >= MM_SETS)
			return -1;
		int at = c->nsets++;
		for (int x = 0; x < from->n[s]; x++) {
			struct fnode *t = k ? fml_mul_take(V, fml_node_copy(V, k),
							   fml_node_copy(V, from->t[s][x]))
					    : fml_node_copy(V, from->t[s][x]);
			if (!t)
				return -1;
			c->t[at][c->n[at]++] = t;
		}
	}
	return 0;
}

static struct minmax *mm_of(const struct fvars *V, const struct fnode *x);

/* A + B: each clause of A with each of B, their polynomials added and
 * their maxima side by side. */
static struct minmax *mm_add(const struct fvars *V, const struct minmax *a,
			     const struct minmax *b)
{
	struct minmax *r = calloc(1, sizeof(*r));
	bool ok = r != NULL;
	for (int i = 0; ok && i < a->n; i++)
		for (int k = 0; ok && k < b->n; k++) {
			struct mm_clause *c = mm_clause_new(V, r, fml_poly_add(V, a->c[i].p,
									       b->c[k].p, 0));
			ok = c && mm_copy_sets(V, c, &a->c[i], NULL) == 0 &&
			     mm_copy_sets(V, c, &b->c[k], NULL) == 0;
		}
	if (!ok) {
		mm_free(V, r);
		return NULL;
	}
	return r;
}

/* The terms of clause C made one max: p + max(q) + max(r) as max(p + q_i +
 * r_j); into *T (N of them, taken by the caller), -1 past the bounds. */
static int mm_flatten(const struct fvars *V, const struct mm_clause *c, struct fnode *t[MM_TERMS],
		      int *n)
{
	*n = 0;
	t[(*n)++] = fml_node_copy(V, c->p);
	if (!t[0])
		return -1;
	for (int s = 0; s < c->nsets; s++) {
		struct fnode *next[MM_TERMS];
		int m = 0, ok = *n * c->n[s] <= MM_TERMS;
		for (int i = 0; ok && i < *n; i++)
			for (int x = 0; ok && x < c->n[s]; x++)
				ok = (next[m++] = fml_poly_add(V, t[i], c->t[s][x], 0)) != NULL;
		for (int i = 0; i < *n; i++)
			fml_node_free(V, t[i]);
		*n = m;
		memcpy(t, next, sizeof(*next) * (size_t)m);
		if (!ok)
			return -1;
	}
	return 0;
}

/* K * A, K a constant polynomial: each part scaled where K >= 0; where
 * K < 0, the one clause of A, p + sum max(S), is K*p + sum min(K*S), the
 * least over the choices of one term of each S (A of several clauses, a
 * max of mins, is not written). */
static struct minmax *mm_scale(const struct fvars *V, const struct minmax *a,
			       const struct fnode *k)
{
	fmpq_t q;
	fmpq_init(q);
	fmpq_mpoly_get_fmpq(q, k->num, V->ctx);
	bool neg = fmpq_sgn(q) < 0;
	fmpq_clear(q);
	struct minmax *r = calloc(1, sizeof(*r));
	bool ok = r != NULL;
	if (!neg) {
		for (int i = 0; ok && i < a->n; i++) {
			struct mm_clause *c = mm_clause_new(V, r, fml_mul_take(V, fml_node_copy(V, k),
								fml_node_copy(V, a->c[i].p)));
			ok = c && mm_copy_sets(V, c, &a->c[i], k) == 0;
		}
	} else if (a->n != 1) {
		ok = false;
	} else {
		const struct mm_clause *c = &a->c[0];
		long total = 1;
		for (int s = 0; s < c->nsets; s++)
			total *= c->n[s];
		ok = ok && total <= MM_CLAUSES;
		for (long choice = 0; ok && choice < total; choice++) {
			struct fnode *p = fml_node_copy(V, c->p);
			long rest = choice;
			for (int s = 0; p && s < c->nsets; s++) {
				struct fnode *sum = fml_poly_add(V, p, c->t[s][rest % c->n[s]], 0);
				rest /= c->n[s];
				fml_node_free(V, p);
				p = sum;
			}
			ok = mm_clause_new(V, r, p ? fml_mul_take(V, fml_node_copy(V, k), p) : NULL) != NULL;
		}
	}
	if (!ok) {
		mm_free(V, r);
		return NULL;
	}
	return r;
}

/* max or min of A and B: a min is the clauses of both; a max, of one
 * clause each, one max of both flattened (mm_flatten). */
static struct minmax *mm_maxmin(const struct fvars *V, enum fkind kind, const struct minmax *a,
				const struct minmax *b)
{
	struct minmax *r = calloc(1, sizeof(*r));
	bool ok = r != NULL;
	if (ok && kind == FK_MIN) {
		for (int k = 0; k < 2 && ok; k++) {
			const struct minmax *s = k ? b : a;
			for (int i = 0; i < s->n && ok; i++) {
				struct mm_clause *c = mm_clause_new(V, r, fml_node_copy(V, s->c[i].p));
				ok = c && mm_copy_sets(V, c, &s->c[i], NULL) == 0;
			}
		}
	} else if (ok) {
		ok = a->n == 1 && b->n == 1;   /* R allocated: OK was true */
		struct fnode *ta[MM_TERMS], *tb[MM_TERMS];
		int na = 0, nb = 0;
		ok = ok && mm_flatten(V, &a->c[0], ta, &na) == 0;
		ok = ok && mm_flatten(V, &b->c[0], tb, &nb) == 0;
		struct mm_clause *c = ok && na + nb <= MM_TERMS ? mm_clause_new(V, r, fml_poly_zero(V))
								: NULL;
		ok = c != NULL;
		if (ok)
			c->nsets = 1;   /* its terms freed with it from here */
		for (int x = 0; x < na; x++)
			if (ok)
				c->t[0][c->n[0]++] = ta[x];
			else
				fml_node_free(V, ta[x]);
		for (int x = 0; x < nb; x++)
			if (ok)
				c->t[0][c->n[0]++] = tb[x];
			else
				fml_node_free(V, tb[x]);
	}
	if (!ok) {
		mm_free(V, r);
		return NULL;
	}
	return r;
}

/* X as a min of clauses, NULL when it is none within the bounds (a
 * product of two values not constant) or out of memory. */
static struct minmax *mm_of(const struct fvars *V, const struct fnode *x)
{
	if (x->kind == FK_POLY) {
		struct minmax *r = calloc(1, sizeof(*r));
		if (r && mm_clause_new(V, r, fml_node_copy(V, x)))
			return r;
		mm_free(V, r);
		return NULL;
	}
	if (x->kind == FK_MUL) {
		/* a constant times one value */
		const struct fnode *k = NULL, *v = NULL;
		for (int i = 0; i < x->n; i++) {
			const struct fnode *c = x->c[i];
			if (fml_poly_is_constant(V, c) && !k)
				k = c;
			else if (!v)
				v = c;
			else
				return NULL;
		}
		if (!k || !v)
			return NULL;
		struct minmax *a = mm_of(V, v);
		struct minmax *r = a ? mm_scale(V, a, k) : NULL;
		mm_free(V, a);
		return r;
	}
	struct minmax *acc = mm_of(V, x->c[0]);
	for (int i = 1; acc && i < x->n; i++) {
		struct minmax *b = mm_of(V, x->c[i]);
		struct minmax *r = !b ? NULL : x->kind == FK_ADD ? mm_add(V, acc, b)
					  : mm_maxmin(V, x->kind, acc, b);
		mm_free(V, b);
		mm_free(V, acc);
		acc = r;
	}
	return acc;
}

/* Whether clause C, p + the sum of its maxima, is shown >= 0 on COND: p
 * plus, for each max, one of its terms or their mean, which the max is at
 * least ((N - 1)*max(c1, c2) - (c1 + c2) >= 0 for N >= 3, by neither term
 * alone); the means first, then the choices in turn, MM_CHOICES at most. */
static bool clause_nonnegative(const struct fvars *V, const struct mm_clause *c,
			       __isl_keep isl_set *cond)
{
	/* each max's options: its mean (0), then its terms (1 .. n) */
	struct fnode *opt[MM_SETS][MM_TERMS + 1];
	int nopt[MM_SETS];
	bool ok = true;
	for (int s = 0; s < c->nsets; s++) {
		nopt[s] = 0;
		struct fnode *sum = fml_node_copy(V, c->t[s][0]);
		for (int x = 1; sum && x < c->n[s]; x++) {
			struct fnode *next = fml_poly_add(V, sum, c->t[s][x], 0);
			fml_node_free(V, sum);
			sum = next;
		}
		fmpq_t inv;
		fmpq_init(inv);
		fmpq_set_si(inv, 1, (ulong)c->n[s]);
		struct fnode *k = fml_poly_fmpq(V, inv);
		fmpq_clear(inv);
		struct fnode *mean = sum && k ? fml_mul_take(V, k, sum) : NULL;
		if (!mean) {
			fml_node_free(V, sum);
			fml_node_free(V, k);
			ok = false;
		}
		opt[s][nopt[s]++] = mean;
		for (int x = 0; x < c->n[s]; x++)
			opt[s][nopt[s]++] = c->t[s][x];
	}
	bool shown = false;
	long total = 1;
	for (int s = 0; s < c->nsets; s++)
		total *= nopt[s];
	for (long choice = 0; ok && !shown && choice < total && choice < MM_CHOICES; choice++) {
		struct fnode *v = fml_node_copy(V, c->p);
		long rest = choice;
		for (int s = 0; v && s < c->nsets; s++) {
			struct fnode *next = opt[s][rest % nopt[s]] ?
					     fml_poly_add(V, v, opt[s][rest % nopt[s]], 0) : NULL;
			rest /= nopt[s];
			fml_node_free(V, v);
			v = next;
		}
		shown = v && nonnegative_by_parts(V, v, cond) == 1;
		ok = v != NULL;
		fml_node_free(V, v);
	}
	for (int s = 0; s < c->nsets; s++)
		fml_node_free(V, opt[s][0]);   /* the means; the terms are C's */
	return shown;
}

/* Whether X >= 0 is shown on COND (kept): a polynomial as
 * nonnegative_by_parts shows it; else its min of clauses (mm_of), each by
 * clause_nonnegative. */
static int nonnegative_value(const struct fvars *V, const struct fnode *x,
			     __isl_keep isl_set *cond)
{
	if (x->kind == FK_POLY)
		return nonnegative_by_parts(V, x, cond);
	struct minmax *mm = mm_of(V, x);
	if (!mm)
		return 0;
	bool all = true;
	for (int i = 0; i < mm->n && all; i++)
		all = clause_nonnegative(V, &mm->c[i], cond);
	mm_free(V, mm);
	return all;
}

int formula_nonnegative_on(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return -1;
	const struct fvars *V = f->vars;
	for (int i = 0; i < f->n; i++) {
		const struct fnode *x = f->p[i].val;
		if (x->kind == FK_POLY && fmpq_mpoly_is_zero(x->num, V->ctx))
			continue;
		isl_set *within = fml_cond_meet(f->p[i].cond, context);
		isl_bool empty = isl_set_is_empty(within);
		int s = empty == isl_bool_false ? nonnegative_value(V, x, within) : 1;
		isl_set_free(within);
		if (empty < 0)
			return -1;
		if (!s)
			return 0;
	}
	return 1;
}
