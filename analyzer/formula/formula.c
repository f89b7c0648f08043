/* Exact symbolic values: representation, construction, algebra, evaluation.
 * Printing is in formula_print.c, the machine grammar in formula_parse.c and the
 * identity test in formula_equal.c.  See formula_internal.h for the ring model.
 *
 * Why this file is long: it is not yet split at its seams, which are its
 * sections below (rings and polynomials, expression nodes, translation,
 * formulas and coalescing, substitution, from ISL, evaluation). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/val.h"

/* ---------------------------------------------------------------- rings */

/* The most variables (parameters and distinct floors) of one formula.  FLINT
 * sorts a polynomial's terms by a radix sort whose recursion is as deep as an
 * exponent vector has bits: 15918 variables overflowed the stack.  A formula
 * with more than this many distinct floors is refused (its conversion fails),
 * and no person could read it anyway. */
#define FML_MAX_VARS 1024

struct fvars *fml_vars_new(slong cap)
{
	struct fvars *V;

	if (cap > FML_MAX_VARS)
		return NULL;
	V = calloc(1, sizeof(*V));
	if (!V)
		return NULL;
	V->refs = 1;
	V->cap = cap;
	V->v = calloc(cap > 0 ? cap : 1, sizeof(*V->v));
	if (!V->v) {
		free(V);
		return NULL;
	}
	fmpq_mpoly_ctx_init(V->ctx, cap, ORD_DEGREVLEX);
	return V;
}

void fml_vars_unref(struct fvars *V)
{
	slong i;

	if (!V || --V->refs > 0)
		return;
	for (i = V->n - 1; i >= 0; i--) {
		free(V->v[i].name);
		if (V->v[i].arg)
			fml_node_free(V, V->v[i].arg);
	}
	free(V->v);
	fmpq_mpoly_ctx_clear(V->ctx);
	free(V);
}

/* The index of parameter NAME in V, added if absent; -1 when V is full. */
slong fml_vars_param(struct fvars *V, const char *name)
{
	slong i;

	for (i = 0; i < V->n; i++)
		if (V->v[i].name && strcmp(V->v[i].name, name) == 0)
			return i;
	if (V->n >= V->cap)
		return -1;
	V->v[V->n].name = strdup(name);
	if (!V->v[V->n].name)
		return -1;
	V->v[V->n].arg = NULL;
	return V->n++;
}

/* The index of the atom floor(ARG) in V, added if absent (ARG is taken). */
slong fml_vars_atom(struct fvars *V, struct fnode *arg)
{
	slong i;

	if (!arg)
		return -1;
	for (i = 0; i < V->n; i++)
		if (V->v[i].arg && fml_node_cmp(V, V->v[i].arg, arg) == 0) {
			fml_node_free(V, arg);
			return i;
		}
	if (V->n >= V->cap) {
		fml_node_free(V, arg);
		return -1;
	}
	V->v[V->n].name = NULL;
	V->v[V->n].arg = arg;
	return V->n++;
}

/* ---------------------------------------------------------------- polynomials */

__attribute__((noinline))
static struct fnode *node_alloc(const struct fvars *V, enum fkind kind)
{
	struct fnode *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->kind = kind;
	if (kind == FK_POLY) {
		x->den = calloc(V->cap > 0 ? V->cap : 1, sizeof(slong));
		if (!x->den) {
			free(x);
			return NULL;
		}
		fmpq_mpoly_init(x->num, V->ctx);
	}
	return x;
}

void fml_node_free(const struct fvars *V, struct fnode *x)
{
	int i;

	if (!x)
		return;
	if (x->kind == FK_POLY) {
		fmpq_mpoly_clear(x->num, V->ctx);
		free(x->den);
	} else {
		for (i = 0; i < x->n; i++)
			fml_node_free(V, x->c[i]);
		free(x->c);
	}
	free(x);
}

struct fnode *fml_poly_zero(const struct fvars *V)
{
	return node_alloc(V, FK_POLY);
}

struct fnode *fml_poly_fmpq(const struct fvars *V, const fmpq_t c)
{
	struct fnode *x = node_alloc(V, FK_POLY);

	if (x)
		fmpq_mpoly_set_fmpq(x->num, c, V->ctx);
	return x;
}

struct fnode *fml_poly_si(const struct fvars *V, slong c)
{
	struct fnode *x = node_alloc(V, FK_POLY);

	if (x)
		fmpq_mpoly_set_si(x->num, c, V->ctx);
	return x;
}

struct fnode *fml_poly_var(const struct fvars *V, slong i)
{
	struct fnode *x = node_alloc(V, FK_POLY);

	if (x)
		fmpq_mpoly_gen(x->num, i, V->ctx);
	return x;
}

struct fnode *fml_node_copy(const struct fvars *V, const struct fnode *x)
{
	struct fnode *y;
	int i;

	if (!x)
		return NULL;
	y = node_alloc(V, x->kind);
	if (!y)
		return NULL;
	if (x->kind == FK_POLY) {
		fmpq_mpoly_set(y->num, x->num, V->ctx);
		memcpy(y->den, x->den, V->cap * sizeof(slong));
		return y;
	}
	y->c = calloc(x->n, sizeof(*y->c));
	if (!y->c) {
		free(y);
		return NULL;
	}
	y->n = x->n;
	for (i = 0; i < x->n; i++) {
		y->c[i] = fml_node_copy(V, x->c[i]);
		if (!y->c[i]) {
			fml_node_free(V, y);
			return NULL;
		}
	}
	return y;
}

int fml_poly_is_zero(const struct fvars *V, const struct fnode *x)
{
	return x->kind == FK_POLY && fmpq_mpoly_is_zero(x->num, V->ctx);
}

/* A := A * x^DELTA (DELTA may be negative where A's exponents allow it). */
static void mpoly_shift(fmpq_mpoly_t A, const slong *delta, const struct fvars *V)
{
	fmpq_mpoly_t T;
	slong i, j, len = fmpq_mpoly_length(A, V->ctx);
	slong *e = calloc(V->cap + 1, sizeof(slong));
	ulong *u = calloc(V->cap + 1, sizeof(ulong));
	fmpq_t c;

	fmpq_init(c);
	fmpq_mpoly_init(T, V->ctx);
	for (i = 0; i < len; i++) {
		fmpq_mpoly_get_term_exp_si(e, A, i, V->ctx);
		for (j = 0; j < V->cap; j++)
			u[j] = (ulong)(e[j] + delta[j]);
		fmpq_mpoly_get_term_coeff_fmpq(c, A, i, V->ctx);
		fmpq_mpoly_push_term_fmpq_ui(T, c, u, V->ctx);
	}
	fmpq_mpoly_sort_terms(T, V->ctx);
	fmpq_mpoly_combine_like_terms(T, V->ctx);
	fmpq_mpoly_swap(A, T, V->ctx);
	fmpq_mpoly_clear(T, V->ctx);
	fmpq_clear(c);
	free(e);
	free(u);
}

/* Cancels common powers between numerator and denominator. */
static void poly_normalize(const struct fvars *V, struct fnode *x)
{
	slong i, j, len = fmpq_mpoly_length(x->num, V->ctx);
	slong *e, *s;
	int any = 0;

	if (len == 0) {
		for (i = 0; i < V->cap; i++)
			x->den[i] = 0;
		return;
	}
	for (i = 0; i < V->cap; i++)
		if (x->den[i] > 0)
			any = 1;
	if (!any)
		return;
	e = calloc(V->cap + 1, sizeof(slong));
	s = calloc(V->cap + 1, sizeof(slong));
	for (i = 0; i < V->cap; i++)
		s[i] = x->den[i];
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_exp_si(e, x->num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			if (e[i] < s[i])
				s[i] = e[i];
	}
	any = 0;
	for (i = 0; i < V->cap; i++) {
		if (s[i] > 0)
			any = 1;
		x->den[i] -= s[i];
		s[i] = -s[i];
	}
	if (any)
		mpoly_shift(x->num, s, V);
	free(e);
	free(s);
}

static struct fnode *poly_mul(const struct fvars *V, const struct fnode *a,
	const struct fnode *b)
{
	struct fnode *x = node_alloc(V, FK_POLY);
	slong i;

	if (!x)
		return NULL;
	fmpq_mpoly_mul(x->num, a->num, b->num, V->ctx);
	for (i = 0; i < V->cap; i++)
		x->den[i] = a->den[i] + b->den[i];
	poly_normalize(V, x);
	return x;
}

static struct fnode *poly_add(const struct fvars *V, const struct fnode *a,
	const struct fnode *b, int negate_b)
{
	struct fnode *x = node_alloc(V, FK_POLY);
	fmpq_mpoly_t t;
	slong *da, *db, i;
	int shift_a = 0, shift_b = 0;

	if (!x)
		return NULL;
	da = calloc(V->cap + 1, sizeof(slong));
	db = calloc(V->cap + 1, sizeof(slong));
	for (i = 0; i < V->cap; i++) {
		slong d = a->den[i] > b->den[i] ? a->den[i] : b->den[i];
		da[i] = d - a->den[i];
		db[i] = d - b->den[i];
		shift_a |= da[i] != 0;
		shift_b |= db[i] != 0;
		x->den[i] = d;
	}
	fmpq_mpoly_init(t, V->ctx);
	fmpq_mpoly_set(x->num, a->num, V->ctx);
	fmpq_mpoly_set(t, b->num, V->ctx);
	if (shift_a)
		mpoly_shift(x->num, da, V);
	if (shift_b)
		mpoly_shift(t, db, V);
	if (negate_b)
		fmpq_mpoly_sub(x->num, x->num, t, V->ctx);
	else
		fmpq_mpoly_add(x->num, x->num, t, V->ctx);
	fmpq_mpoly_clear(t, V->ctx);
	free(da);
	free(db);
	poly_normalize(V, x);
	return x;
}

static int poly_is_fmpq(const struct fvars *V, const struct fnode *x)
{
	return x->kind == FK_POLY && fmpq_mpoly_is_fmpq(x->num, V->ctx);
}

/* ---------------------------------------------------------------- expression nodes */

int fml_node_cmp(const struct fvars *V, const struct fnode *a, const struct fnode *b)
{
	slong i;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == FK_POLY) {
		for (i = 0; i < V->cap; i++)
			if (a->den[i] != b->den[i])
				return a->den[i] < b->den[i] ? -1 : 1;
		c = fmpq_mpoly_cmp(a->num, b->num, V->ctx);
		return c < 0 ? -1 : c > 0;
	}
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = 0; i < a->n; i++) {
		c = fml_node_cmp(V, a->c[i], b->c[i]);
		if (c)
			return c;
	}
	return 0;
}

/* A growable list of child nodes. */
struct nlist {
	struct fnode **c;
	int n, size;
};

static int nlist_push(struct nlist *l, struct fnode *x)
{
	if (l->n == l->size) {
		int size = l->size ? 2 * l->size : 4;
		struct fnode **c = realloc(l->c, size * sizeof(*c));
		if (!c)
			return -1;
		l->c = c;
		l->size = size;
	}
	l->c[l->n++] = x;
	return 0;
}

static void nlist_clear(const struct fvars *V, struct nlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		fml_node_free(V, l->c[i]);
	free(l->c);
	l->c = NULL;
	l->n = l->size = 0;
}

/* Moves X, or X's children when X is of KIND, into L (X is taken). */
static int nlist_flatten(struct nlist *l, struct fnode *x, enum fkind kind)
{
	int i;

	if (x->kind != kind)
		return nlist_push(l, x);
	for (i = 0; i < x->n; i++)
		if (nlist_push(l, x->c[i]) < 0)
			return -1;
	free(x->c);
	free(x);
	return 0;
}

/* An inner node of KIND over the nodes of L (taken; L is emptied), children
 * sorted; the single child itself when there is only one. */
static struct fnode *nlist_finish(const struct fvars *V, struct nlist *l,
	enum fkind kind)
{
	struct fnode *x;
	int i, j;

	if (l->n == 1) {
		x = l->c[0];
		free(l->c);
		l->c = NULL;
		l->n = l->size = 0;
		return x;
	}
	for (i = 1; i < l->n; i++)
		for (j = i; j > 0 && fml_node_cmp(V, l->c[j - 1], l->c[j]) > 0; j--) {
			struct fnode *t = l->c[j];
			l->c[j] = l->c[j - 1];
			l->c[j - 1] = t;
		}
	x = calloc(1, sizeof(*x));
	if (!x) {
		nlist_clear(V, l);
		return NULL;
	}
	x->kind = kind;
	x->n = l->n;
	x->c = l->c;
	l->c = NULL;
	l->n = l->size = 0;
	return x;
}

/* X as C * CORE with C a rational constant: a copy of CORE, C set. */
static struct fnode *split_coef(const struct fvars *V, const struct fnode *x, fmpq_t c)
{
	struct nlist l = { 0 };
	int i, found = -1;

	fmpq_one(c);
	if (x->kind == FK_MUL)
		for (i = 0; i < x->n; i++)
			if (poly_is_fmpq(V, x->c[i]))
				found = i;
	if (found < 0)
		return fml_node_copy(V, x);
	fmpq_mpoly_get_fmpq(c, x->c[found]->num, V->ctx);
	for (i = 0; i < x->n; i++)
		if (i != found && nlist_push(&l, fml_node_copy(V, x->c[i])) < 0) {
			nlist_clear(V, &l);
			return NULL;
		}
	return nlist_finish(V, &l, FK_MUL);
}

/* Collects like terms among the non-polynomial operands of a sum:
 * 2*max(a,b) - max(a,b) is max(a,b), and x - x vanishes. */
static int collect_like(const struct fvars *V, struct nlist *out)
{
	struct nlist res = { 0 };
	struct fnode **core = calloc(out->n + 1, sizeof(*core));
	fmpq *coef = calloc(out->n + 1, sizeof(fmpq));
	char *used = calloc(out->n + 1, 1);
	int i, j, ok = 0, n = out->n, ninit = 0;

	if (!core || !coef || !used)
		goto done;
	for (i = 0; i < out->n; i++) {
		fmpq_init(coef + i);
		ninit++;
		core[i] = split_coef(V, out->c[i], coef + i);
		if (!core[i])
			goto done;
	}
	for (i = 0; i < out->n; i++) {
		struct fnode *t;
		if (used[i])
			continue;
		for (j = i + 1; j < out->n; j++)
			if (!used[j] && fml_node_cmp(V, core[i], core[j]) == 0) {
				fmpq_add(coef + i, coef + i, coef + j);
				used[j] = 1;
			}
		if (fmpq_is_zero(coef + i))
			continue;
		if (fmpq_is_one(coef + i)) {
			t = core[i];
			core[i] = NULL;
		} else {
			struct nlist m = { 0 };
			if (nlist_push(&m, fml_poly_fmpq(V, coef + i)) < 0 ||
			    nlist_push(&m, core[i]) < 0) {
				nlist_clear(V, &m);
				goto done;
			}
			core[i] = NULL;
			t = nlist_finish(V, &m, FK_MUL);
		}
		if (!t || nlist_push(&res, t) < 0)
			goto done;
	}
	nlist_clear(V, out);
	*out = res;
	res.c = NULL;
	res.n = 0;
	ok = 1;
done:
	nlist_clear(V, &res);
	for (i = 0; core && i < n; i++)
		fml_node_free(V, core[i]);
	for (i = 0; i < ninit; i++)
		fmpq_clear(coef + i);
	free(core);
	free(coef);
	free(used);
	return ok ? 0 : -1;
}

/* Sum (MUL == 0) or product (MUL == 1) of A and B, polynomial operands folded. */
static struct fnode *addmul_take(const struct fvars *V, struct fnode *a,
	struct fnode *b, int mul)
{
	enum fkind kind = mul ? FK_MUL : FK_ADD;
	struct nlist in = { 0 }, out = { 0 };
	struct fnode *poly = NULL;
	int i;

	if (!a || !b) {
		fml_node_free(V, a);
		fml_node_free(V, b);
		return NULL;
	}
	if (nlist_flatten(&in, a, kind) < 0 || nlist_flatten(&in, b, kind) < 0)
		goto error;
	poly = mul ? fml_poly_si(V, 1) : fml_poly_zero(V);
	if (!poly)
		goto error;
	for (i = 0; i < in.n; i++) {
		struct fnode *x = in.c[i];
		if (x->kind == FK_POLY) {
			struct fnode *t = mul ? poly_mul(V, poly, x) : poly_add(V, poly, x, 0);
			if (!t)
				goto error;
			fml_node_free(V, poly);
			poly = t;
			fml_node_free(V, x);
		} else if (nlist_push(&out, x) < 0) {
			goto error;
		}
		in.c[i] = NULL;
	}
	free(in.c);
	in.c = NULL;
	in.n = 0;
	if (mul && fml_poly_is_zero(V, poly)) {
		nlist_clear(V, &out);
		return poly;
	}
	if (mul && out.n == 1 && out.c[0]->kind == FK_ADD && poly_is_fmpq(V, poly)) {
		/* c * (x + y) is c*x + c*y: sums stay flat, so like terms meet */
		struct fnode *sum = out.c[0], *r = fml_poly_zero(V);
		free(out.c);
		for (i = 0; i < sum->n; i++) {
			r = fml_add_take(V, r, fml_mul_take(V, fml_node_copy(V, poly),
				sum->c[i]));
			sum->c[i] = NULL;
		}
		sum->n = 0;
		fml_node_free(V, sum);
		fml_node_free(V, poly);
		return r;
	}
	if (!mul && out.n > 1 && collect_like(V, &out) < 0)
		goto error;
	if (out.n == 0)
		return poly;
	if (mul ? fmpq_mpoly_is_one(poly->num, V->ctx) && poly_is_fmpq(V, poly)
		: fml_poly_is_zero(V, poly))
		fml_node_free(V, poly);
	else if (nlist_push(&out, poly) < 0)
		goto error;
	poly = NULL;
	return nlist_finish(V, &out, kind);
error:
	for (i = 0; i < in.n; i++)
		fml_node_free(V, in.c[i]);
	free(in.c);
	nlist_clear(V, &out);
	fml_node_free(V, poly);
	return NULL;
}

struct fnode *fml_add_take(const struct fvars *V, struct fnode *a, struct fnode *b)
{
	return addmul_take(V, a, b, 0);
}

struct fnode *fml_mul_take(const struct fvars *V, struct fnode *a, struct fnode *b)
{
	return addmul_take(V, a, b, 1);
}

/* max or min of A and B: nested nodes of the same kind flattened, duplicates
 * dropped, and of two polynomials that differ by a constant only the one that
 * wins kept. */
struct fnode *fml_maxmin_take(const struct fvars *V, enum fkind kind,
	struct fnode *a, struct fnode *b)
{
	struct nlist l = { 0 };
	int i, j;

	if (!a || !b) {
		fml_node_free(V, a);
		fml_node_free(V, b);
		return NULL;
	}
	if (nlist_flatten(&l, a, kind) < 0 || nlist_flatten(&l, b, kind) < 0) {
		nlist_clear(V, &l);
		return NULL;
	}
	for (i = 0; i < l.n; i++) {
		for (j = i + 1; j < l.n; j++) {
			int drop = -1; /* index to drop */
			if (fml_node_cmp(V, l.c[i], l.c[j]) == 0) {
				drop = j;
			} else if (l.c[i]->kind == FK_POLY && l.c[j]->kind == FK_POLY) {
				struct fnode *d = poly_add(V, l.c[i], l.c[j], 1);
				if (!d) {
					nlist_clear(V, &l);
					return NULL;
				}
				if (poly_is_fmpq(V, d)) {
					fmpq_t c;
					int sgn;
					fmpq_init(c);
					fmpq_mpoly_get_fmpq(c, d->num, V->ctx);
					sgn = fmpq_sgn(c);
					fmpq_clear(c);
					/* c = i - j: for max drop the smaller one */
					if (kind == FK_MAX)
						drop = sgn >= 0 ? j : i;
					else
						drop = sgn <= 0 ? j : i;
				}
				fml_node_free(V, d);
			}
			if (drop >= 0) {
				fml_node_free(V, l.c[drop]);
				memmove(l.c + drop, l.c + drop + 1,
					(l.n - drop - 1) * sizeof(*l.c));
				l.n--;
				if (drop == i) {
					i--;
					break;
				}
				j--;
			}
		}
	}
	return nlist_finish(V, &l, kind);
}

/* X^K; a negative K needs X to be a single term. */
struct fnode *fml_pow(const struct fvars *V, const struct fnode *x, slong k)
{
	struct fnode *r;

	if (k < 0) {
		slong i, *e;
		fmpq_t c;
		ulong *u;
		struct fnode *inv;
		if (x->kind != FK_POLY || fmpq_mpoly_length(x->num, V->ctx) != 1)
			return NULL;
		inv = node_alloc(V, FK_POLY);
		if (!inv)
			return NULL;
		e = calloc(V->cap + 1, sizeof(slong));
		u = calloc(V->cap + 1, sizeof(ulong));
		fmpq_init(c);
		fmpq_mpoly_get_term_exp_si(e, x->num, 0, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, x->num, 0, V->ctx);
		fmpq_inv(c, c);
		for (i = 0; i < V->cap; i++) {
			u[i] = (ulong)x->den[i];
			inv->den[i] = e[i];
		}
		fmpq_mpoly_push_term_fmpq_ui(inv->num, c, u, V->ctx);
		fmpq_mpoly_sort_terms(inv->num, V->ctx);
		fmpq_mpoly_combine_like_terms(inv->num, V->ctx);
		fmpq_clear(c);
		free(e);
		free(u);
		poly_normalize(V, inv);
		r = fml_pow(V, inv, -k);
		fml_node_free(V, inv);
		return r;
	}
	r = fml_poly_si(V, 1);
	while (r && k-- > 0)
		r = fml_mul_take(V, r, fml_node_copy(V, x));
	return r;
}

/* floor(ARG) (taken): the integer part of ARG (terms with integer coefficients
 * and no denominator, integers since every variable is) goes outside the floor;
 * what is left becomes an atom of V. */
struct fnode *fml_floor_take(struct fvars *V, struct fnode *arg)
{
	struct fnode *ipart, *rest;
	slong i, j, len, idx;
	slong *e;
	ulong *u;
	fmpq_t c;
	int has_den = 0;

	if (!arg)
		return NULL;
	if (arg->kind != FK_POLY) {
		idx = fml_vars_atom(V, arg);
		return idx < 0 ? NULL : fml_poly_var(V, idx);
	}
	for (i = 0; i < V->cap; i++)
		has_den |= arg->den[i] != 0;
	ipart = fml_poly_zero(V);
	rest = fml_poly_zero(V);
	if (!ipart || !rest) {
		fml_node_free(V, ipart);
		fml_node_free(V, rest);
		fml_node_free(V, arg);
		return NULL;
	}
	e = calloc(V->cap + 1, sizeof(slong));
	u = calloc(V->cap + 1, sizeof(ulong));
	fmpq_init(c);
	len = fmpq_mpoly_length(arg->num, V->ctx);
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_exp_si(e, arg->num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, arg->num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			u[i] = (ulong)e[i];
		if (!has_den && fmpz_is_one(fmpq_denref(c)))
			fmpq_mpoly_push_term_fmpq_ui(ipart->num, c, u, V->ctx);
		else
			fmpq_mpoly_push_term_fmpq_ui(rest->num, c, u, V->ctx);
	}
	fmpq_clear(c);
	free(e);
	free(u);
	fmpq_mpoly_sort_terms(ipart->num, V->ctx);
	fmpq_mpoly_combine_like_terms(ipart->num, V->ctx);
	fmpq_mpoly_sort_terms(rest->num, V->ctx);
	fmpq_mpoly_combine_like_terms(rest->num, V->ctx);
	memcpy(rest->den, arg->den, V->cap * sizeof(slong));
	poly_normalize(V, rest);
	fml_node_free(V, arg);
	if (fmpq_mpoly_is_fmpq(rest->num, V->ctx) && !has_den) {
		/* a constant fraction: floor it */
		fmpq_t q;
		fmpz_t f;
		fmpq_init(q);
		fmpz_init(f);
		fmpq_mpoly_get_fmpq(q, rest->num, V->ctx);
		fmpz_fdiv_q(f, fmpq_numref(q), fmpq_denref(q));
		fmpz_set(fmpq_numref(q), f);
		fmpz_one(fmpq_denref(q));
		fml_node_free(V, rest);
		rest = fml_poly_fmpq(V, q);
		fmpq_clear(q);
		fmpz_clear(f);
		return fml_add_take(V, ipart, rest);
	}
	idx = fml_vars_atom(V, rest);
	if (idx < 0) {
		fml_node_free(V, ipart);
		return NULL;
	}
	return fml_add_take(V, ipart, fml_poly_var(V, idx));
}

void fml_node_used(const struct fvars *V, const struct fnode *x, char *used)
{
	slong i;
	int k;

	if (x->kind != FK_POLY) {
		for (k = 0; k < x->n; k++)
			fml_node_used(V, x->c[k], used);
		return;
	}
	for (i = 0; i < V->n; i++) {
		if (used[i])
			continue;
		if (x->den[i] > 0 || fmpq_mpoly_degree_si(x->num, i, V->ctx) > 0) {
			used[i] = 1;
			if (V->v[i].arg)
				fml_node_used(V, V->v[i].arg, used);
		}
	}
}

/* ---------------------------------------------------------------- translation */

/* If X is the single variable x_i (coefficient 1), i; else -1. */
static slong poly_as_var(const struct fvars *V, const struct fnode *x)
{
	slong i, found = -1;
	slong *e;
	fmpq_t c;

	if (x->kind != FK_POLY || fmpq_mpoly_length(x->num, V->ctx) != 1)
		return -1;
	for (i = 0; i < V->cap; i++)
		if (x->den[i])
			return -1;
	fmpq_init(c);
	fmpq_mpoly_get_term_coeff_fmpq(c, x->num, 0, V->ctx);
	if (!fmpq_is_one(c)) {
		fmpq_clear(c);
		return -1;
	}
	fmpq_clear(c);
	e = calloc(V->cap + 1, sizeof(slong));
	fmpq_mpoly_get_term_exp_si(e, x->num, 0, V->ctx);
	for (i = 0; i < V->cap; i++) {
		if (e[i] == 0)
			continue;
		if (e[i] != 1 || found >= 0) {
			found = -2;
			break;
		}
		found = i;
	}
	free(e);
	return found < 0 ? -1 : found;
}

/* X (over F) as a node over T, where variable i of F stands for VMAP[i]. */
static struct fnode *translate(const struct fvars *F, const struct fnode *x,
	const struct fvars *T, struct fnode *const *vmap)
{
	struct fnode *r;
	slong i, j, len, *map, *e;
	int k, rename = 1;
	char *used;

	if (x->kind != FK_POLY) {
		r = translate(F, x->c[0], T, vmap);
		for (k = 1; k < x->n && r; k++) {
			struct fnode *y = translate(F, x->c[k], T, vmap);
			if (x->kind == FK_ADD)
				r = fml_add_take(T, r, y);
			else if (x->kind == FK_MUL)
				r = fml_mul_take(T, r, y);
			else
				r = fml_maxmin_take(T, x->kind, r, y);
		}
		return r;
	}
	used = calloc(F->cap + 1, 1);
	map = calloc(F->cap + 1, sizeof(slong));
	e = calloc(F->cap + 1, sizeof(slong));
	for (i = 0; i < F->cap; i++) {
		used[i] = x->den[i] > 0 || fmpq_mpoly_degree_si(x->num, i, F->ctx) > 0;
		if (!used[i])
			continue;
		map[i] = i < F->n && vmap[i] ? poly_as_var(T, vmap[i]) : -1;
		if (map[i] < 0)
			rename = 0;
	}
	len = fmpq_mpoly_length(x->num, F->ctx);
	if (rename) {
		ulong *u = calloc(T->cap + 1, sizeof(ulong));
		fmpq_t c;
		r = node_alloc(T, FK_POLY);
		fmpq_init(c);
		for (j = 0; r && j < len; j++) {
			fmpq_mpoly_get_term_exp_si(e, x->num, j, F->ctx);
			fmpq_mpoly_get_term_coeff_fmpq(c, x->num, j, F->ctx);
			memset(u, 0, (T->cap + 1) * sizeof(ulong));
			for (i = 0; i < F->cap; i++)
				if (used[i])
					u[map[i]] += (ulong)e[i];
			fmpq_mpoly_push_term_fmpq_ui(r->num, c, u, T->ctx);
		}
		if (r) {
			fmpq_mpoly_sort_terms(r->num, T->ctx);
			fmpq_mpoly_combine_like_terms(r->num, T->ctx);
			for (i = 0; i < F->cap; i++)
				if (used[i])
					r->den[map[i]] += x->den[i];
			poly_normalize(T, r);
		}
		fmpq_clear(c);
		free(u);
	} else {
		fmpq_t c;
		fmpq_init(c);
		r = fml_poly_zero(T);
		for (j = 0; r && j < len; j++) {
			struct fnode *t;
			fmpq_mpoly_get_term_exp_si(e, x->num, j, F->ctx);
			fmpq_mpoly_get_term_coeff_fmpq(c, x->num, j, F->ctx);
			t = fml_poly_fmpq(T, c);
			for (i = 0; t && i < F->cap; i++) {
				if (!used[i] || e[i] - x->den[i] == 0)
					continue;
				if (!vmap[i]) {
					fml_node_free(T, t);
					t = NULL;
					break;
				}
				t = fml_mul_take(T, t, fml_pow(T, vmap[i], e[i] - x->den[i]));
			}
			r = fml_add_take(T, r, t);
		}
		fmpq_clear(c);
	}
	free(used);
	free(map);
	free(e);
	return r;
}

/* Defines in T every variable of F that VMAP does not map yet, and maps it.
 * Atom arguments are translated, so atoms that become equal merge and atoms whose
 * argument becomes constant disappear. */
static int vars_import(struct fvars *T, const struct fvars *F, struct fnode **vmap)
{
	slong i, j;

	for (i = 0; i < F->n; i++) {
		if (vmap[i])
			continue;
		if (F->v[i].name) {
			j = fml_vars_param(T, F->v[i].name);
			vmap[i] = j < 0 ? NULL : fml_poly_var(T, j);
		} else {
			vmap[i] = fml_floor_take(T, translate(F, F->v[i].arg, T, vmap));
		}
		if (!vmap[i])
			return -1;
	}
	return 0;
}

static void vmap_free(const struct fvars *T, struct fnode **vmap, slong n)
{
	slong i;

	if (!vmap)
		return;
	for (i = 0; i < n; i++)
		fml_node_free(T, vmap[i]);
	free(vmap);
}

/* ---------------------------------------------------------------- formulas */

struct formula *fml_formula_alloc(struct fvars *V, int n)
{
	struct formula *f = calloc(1, sizeof(*f));

	if (!f) {
		fml_vars_unref(V);
		return NULL;
	}
	f->vars = V;
	f->p = calloc(n > 0 ? n : 1, sizeof(*f->p));
	if (!f->p) {
		fml_vars_unref(V);
		free(f);
		return NULL;
	}
	return f;
}

void formula_free(struct formula *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		isl_set_free(f->p[i].cond);
		fml_node_free(f->vars, f->p[i].val);
	}
	free(f->p);
	fml_vars_unref(f->vars);
	free(f);
}

struct formula *formula_copy(const struct formula *f)
{
	struct formula *g;
	int i;

	if (!f)
		return NULL;
	f->vars->refs++;
	g = fml_formula_alloc(f->vars, f->n);
	if (!g)
		return NULL;
	g->outside = f->outside;
	for (i = 0; i < f->n; i++) {
		g->p[i].cond = f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL;
		g->p[i].val = fml_node_copy(f->vars, f->p[i].val);
		g->n++;
		if (!g->p[i].val) {
			formula_free(g);
			return NULL;
		}
	}
	return g;
}

void formula_set_outside(struct formula *f, enum formula_outside outside)
{
	if (f)
		f->outside = outside;
}

enum formula_outside formula_get_outside(const struct formula *f)
{
	return f->outside;
}

int formula_n_pieces(const struct formula *f)
{
	return f ? f->n : -1;
}

/* A one-piece formula, condition everything, with value VAL over V. */
static struct formula *single(struct fvars *V, struct fnode *val)
{
	struct formula *f;

	if (!val) {
		fml_vars_unref(V);
		return NULL;
	}
	f = fml_formula_alloc(V, 1);
	if (!f) {
		fml_node_free(V, val);
		return NULL;
	}
	f->p[0].val = val;
	f->n = 1;
	return f;
}

struct formula *formula_const_si(long value)
{
	struct fvars *V = fml_vars_new(0);

	return V ? single(V, fml_poly_si(V, value)) : NULL;
}

struct formula *formula_const_mpq(const mpq_t value)
{
	struct fvars *V = fml_vars_new(0);
	struct fnode *x;
	fmpq_t c;

	if (!V)
		return NULL;
	fmpq_init(c);
	fmpq_set_mpq(c, value);
	x = fml_poly_fmpq(V, c);
	fmpq_clear(c);
	return single(V, x);
}

static void val_to_fmpq(fmpq_t out, isl_val *v);

struct formula *formula_const_val(__isl_take isl_val *value)
{
	struct fvars *V = value ? fml_vars_new(0) : NULL;
	fmpq_t c;

	if (!V || !isl_val_is_rat(value)) {
		isl_val_free(value);
		if (V)
			fml_vars_unref(V);
		return NULL;
	}
	fmpq_init(c);
	val_to_fmpq(c, value);
	struct fnode *x = fml_poly_fmpq(V, c);
	fmpq_clear(c);
	return single(V, x);
}

struct formula *formula_param(const char *name)
{
	struct fvars *V = fml_vars_new(1);
	slong i;

	if (!V || !name)
		return NULL;
	i = fml_vars_param(V, name);
	return single(V, i < 0 ? NULL : fml_poly_var(V, i));
}

/* Appends a piece (COND and VAL taken; an empty COND drops the piece). */
static int push_piece(struct formula *f, int *size, isl_set *cond, struct fnode *val)
{
	if (!val) {
		isl_set_free(cond);
		return -1;
	}
	if (cond) {
		isl_bool empty = isl_set_is_empty(cond);
		if (empty < 0) {
			isl_set_free(cond);
			fml_node_free(f->vars, val);
			return -1;
		}
		if (empty) {
			isl_set_free(cond);
			fml_node_free(f->vars, val);
			return 0;
		}
		if (isl_set_plain_is_universe(cond) == isl_bool_true) {
			isl_set_free(cond);
			cond = NULL;
		} else if (set_has_unknown_div(cond) != 0) {
			/* an existential with no definition would print as
			 * floor(0/0): every one written as a floor first */
			cond = isl_set_coalesce(isl_set_compute_divs(cond));
			if (!cond) {
				fml_node_free(f->vars, val);
				return -1;
			}
		}
	}
	if (f->n == *size) {
		int n = *size ? 2 * *size : 4;
		struct fpiece *p = realloc(f->p, n * sizeof(*p));
		if (!p) {
			isl_set_free(cond);
			fml_node_free(f->vars, val);
			return -1;
		}
		f->p = p;
		*size = n;
	}
	f->p[f->n].cond = cond;
	f->p[f->n].val = val;
	f->n++;
	return 0;
}

/* The intersection of two conditions (NULL is everything). */
static isl_set *cond_meet(isl_set *a, isl_set *b)
{
	if (!a)
		return b ? isl_set_copy(b) : NULL;
	if (!b)
		return isl_set_copy(a);
	return isl_set_intersect(isl_set_copy(a), isl_set_copy(b));
}

/* Where none of F's pieces applies; *NONE is set when that is nowhere.  NULL
 * with *NONE clear means everywhere (F has no pieces). */
static isl_set *complement(const struct formula *f, int *none, int *error)
{
	isl_set *u = NULL, *c;
	isl_bool empty;
	int i;

	*none = 0;
	*error = 0;
	for (i = 0; i < f->n; i++) {
		if (!f->p[i].cond) {
			isl_set_free(u);
			*none = 1;
			return NULL;
		}
		u = u ? isl_set_union(u, isl_set_copy(f->p[i].cond))
			: isl_set_copy(f->p[i].cond);
	}
	if (!u)
		return NULL;
	/* fewer, larger pieces make a cheaper complement */
	u = isl_set_coalesce(u);
	c = isl_set_subtract(isl_set_universe(isl_set_get_space(u)), u);
	c = isl_set_coalesce(c);
	empty = isl_set_is_empty(c);
	if (empty < 0)
		*error = 1;
	if (empty) {
		isl_set_free(c);
		*none = 1;
		return NULL;
	}
	return c;
}

/* The pieces of F over T, VMAP mapping F's ring into T, with the zero piece
 * for the complement when F is zero-outside. */
struct plist {
	isl_set **cond;
	struct fnode **val;
	char *is_zero_fill;
	int n;
};

static void plist_free(const struct fvars *T, struct plist *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		isl_set_free(l->cond[i]);
		fml_node_free(T, l->val[i]);
	}
	free(l->cond);
	free(l->val);
	free(l->is_zero_fill);
}

static int plist_make(struct plist *l, const struct formula *f, const struct fvars *T,
	struct fnode *const *vmap)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->cond = calloc(f->n + 1, sizeof(*l->cond));
	l->val = calloc(f->n + 1, sizeof(*l->val));
	l->is_zero_fill = calloc(f->n + 1, 1);
	if (!l->cond || !l->val || !l->is_zero_fill)
		return -1;
	for (i = 0; i < f->n; i++) {
		l->cond[i] = f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL;
		l->val[i] = translate(f->vars, f->p[i].val, T, vmap);
		l->n++;
		if (!l->val[i])
			return -1;
	}
	if (f->outside == FORMULA_ZERO_OUTSIDE) {
		int none, error;
		isl_set *c = complement(f, &none, &error);
		if (error)
			return -1;
		if (!none) {
			l->cond[l->n] = c;
			l->val[l->n] = fml_poly_zero(T);
			l->is_zero_fill[l->n] = 1;
			l->n++;
		}
	}
	return 0;
}

/* The ring for combining A and B (either may be NULL), with both maps. */
static struct fvars *merge_rings(const struct fvars *A, const struct fvars *B,
	struct fnode ***vmapA, struct fnode ***vmapB)
{
	struct fvars *T = fml_vars_new((A ? A->n : 0) + (B ? B->n : 0));

	*vmapA = A ? calloc(A->n + 1, sizeof(**vmapA)) : NULL;
	*vmapB = B ? calloc(B->n + 1, sizeof(**vmapB)) : NULL;
	if (!T || (A && !*vmapA) || (B && !*vmapB) ||
	    (A && vars_import(T, A, *vmapA) < 0) ||
	    (B && vars_import(T, B, *vmapB) < 0)) {
		if (T) {
			vmap_free(T, *vmapA, A ? A->n : 0);
			vmap_free(T, *vmapB, B ? B->n : 0);
		}
		*vmapA = *vmapB = NULL;
		fml_vars_unref(T);
		return NULL;
	}
	return T;
}

/* OP_JOIN is no operation on values: the pieces of both operands, side by
 * side (formula_join). */
enum binop { OP_ADD, OP_SUB, OP_MUL, OP_MAX, OP_MIN, OP_JOIN };

static struct fnode *apply(const struct fvars *T, enum binop op, struct fnode *a,
	struct fnode *b)
{
	switch (op) {
	case OP_ADD:
		return fml_add_take(T, a, b);
	case OP_SUB:
		return fml_add_take(T, a, fml_mul_take(T, fml_poly_si(T, -1), b));
	case OP_MUL:
		return fml_mul_take(T, a, b);
	case OP_MAX:
		return fml_maxmin_take(T, FK_MAX, a, b);
	case OP_MIN:
		return fml_maxmin_take(T, FK_MIN, a, b);
	case OP_JOIN:
		break;
	}
	fml_node_free(T, a);
	fml_node_free(T, b);
	return NULL;
}

static struct formula *binop(const struct formula *a, const struct formula *b,
	enum binop op)
{
	struct fnode **va, **vb;
	struct fvars *T;
	struct plist la, lb;
	struct formula *r = NULL;
	int i, j, size = 0, ok = 0;

	if (!a || !b)
		return NULL;
	T = merge_rings(a->vars, b->vars, &va, &vb);
	if (!T)
		return NULL;
	/* both lists are freed at the end, even when the first one failed */
	memset(&la, 0, sizeof(la));
	memset(&lb, 0, sizeof(lb));
	if (plist_make(&la, a, T, va) < 0 || plist_make(&lb, b, T, vb) < 0)
		goto done;
	T->refs++;
	r = fml_formula_alloc(T, 0);
	if (!r)
		goto done;
	free(r->p);
	r->p = NULL;
	for (i = 0; op == OP_JOIN && i < la.n + lb.n; i++) {
		struct plist *l = i < la.n ? &la : &lb;
		int k = i < la.n ? i : i - la.n;
		if (l->is_zero_fill[k])
			continue; /* the pieces themselves, not the zero elsewhere */
		if (push_piece(r, &size, l->cond[k] ? isl_set_copy(l->cond[k]) : NULL,
			fml_node_copy(T, l->val[k])) < 0)
			goto done;
	}
	for (i = 0; op != OP_JOIN && i < la.n; i++)
		for (j = 0; j < lb.n; j++) {
			if (la.is_zero_fill[i] && lb.is_zero_fill[j])
				continue;
			if (push_piece(r, &size, cond_meet(la.cond[i], lb.cond[j]),
				apply(T, op, fml_node_copy(T, la.val[i]),
					fml_node_copy(T, lb.val[j]))) < 0)
				goto done;
		}
	r->outside = op != OP_JOIN && a->outside == FORMULA_ZERO_OUTSIDE &&
		b->outside == FORMULA_ZERO_OUTSIDE ?
		FORMULA_ZERO_OUTSIDE : FORMULA_UNDEFINED_OUTSIDE;
	ok = 1;
done:
	plist_free(T, &la);
	plist_free(T, &lb);
	vmap_free(T, va, a->vars->n);
	vmap_free(T, vb, b->vars->n);
	fml_vars_unref(T);
	if (!ok) {
		formula_free(r);
		return NULL;
	}
	return r;
}

struct formula *formula_join(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_JOIN);
}

struct formula *formula_add(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_ADD);
}

struct formula *formula_sub(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_SUB);
}

struct formula *formula_mul(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_MUL);
}

struct formula *formula_max(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_MAX);
}

struct formula *formula_min(const struct formula *a, const struct formula *b)
{
	return binop(a, b, OP_MIN);
}

struct formula *formula_scale(const struct formula *a, const mpq_t factor)
{
	struct formula *c = formula_const_mpq(factor), *r;

	formula_set_outside(c, FORMULA_ZERO_OUTSIDE);
	r = binop(a, c, OP_MUL);
	formula_free(c);
	return r;
}

struct formula *formula_neg(const struct formula *a)
{
	struct formula *c = formula_const_si(-1), *r;

	formula_set_outside(c, FORMULA_ZERO_OUTSIDE);
	r = binop(a, c, OP_MUL);
	formula_free(c);
	return r;
}
/* F's pieces with conditions transformed by FN, which takes the condition (NULL
 * for everywhere) and returns the new one (NULL for everywhere) with *STATUS 0,
 * or sets *STATUS to 1 to drop the piece, -1 on error. */
static struct formula *map_conditions(const struct formula *f,
	isl_set *(*fn)(isl_set *, void *, int *), void *user)
{
	struct formula *r;
	int i, size = 0;

	f->vars->refs++;
	r = fml_formula_alloc(f->vars, 0);
	if (!r)
		return NULL;
	free(r->p);
	r->p = NULL;
	r->outside = f->outside;
	for (i = 0; i < f->n; i++) {
		int status = 0;
		isl_set *c = fn(f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL,
			user, &status);
		if (status < 0) {
			isl_set_free(c);
			formula_free(r);
			return NULL;
		}
		if (status > 0) {
			isl_set_free(c);
			continue;
		}
		if (push_piece(r, &size, c, fml_node_copy(f->vars, f->p[i].val)) < 0) {
			formula_free(r);
			return NULL;
		}
	}
	return r;
}

static isl_set *restrict_fn(isl_set *c, void *user, int *status)
{
	isl_set *cond = user;

	c = c ? isl_set_intersect(c, isl_set_copy(cond)) : isl_set_copy(cond);
	if (!c)
		*status = -1;
	return c;
}

struct formula *formula_restrict(const struct formula *f, __isl_take isl_set *cond)
{
	struct formula *r, *g = NULL;

	if (!f || !cond) {
		isl_set_free(cond);
		return NULL;
	}
	if (f->outside == FORMULA_ZERO_OUTSIDE) {
		/* make the zero outside explicit before restricting */
		struct formula *z = formula_const_si(0);
		formula_set_outside(z, FORMULA_ZERO_OUTSIDE);
		g = formula_add(f, z);
		formula_free(z);
		if (!g) {
			isl_set_free(cond);
			return NULL;
		}
		f = g;
	}
	r = map_conditions(f, restrict_fn, cond);
	if (r)
		r->outside = FORMULA_UNDEFINED_OUTSIDE;
	formula_free(g);
	isl_set_free(cond);
	return r;
}

static isl_set *gist_fn(isl_set *c, void *user, int *status)
{
	isl_set *context = user;
	isl_bool empty;

	if (!c)
		return NULL;
	c = isl_set_intersect(c, isl_set_copy(context));
	empty = isl_set_is_empty(c);
	if (empty < 0 || empty) {
		*status = empty < 0 ? -1 : 1;
		return isl_set_free(c);
	}
	c = isl_set_gist(c, isl_set_copy(context));
	c = isl_set_coalesce(c);
	if (!c)
		*status = -1;
	return c;
}

struct formula *formula_gist(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	return map_conditions(f, gist_fn, context);
}

/* The formula that is piece I's value on piece J's condition. */
static struct formula *value_on(const struct formula *f, int i, int j)
{
	f->vars->refs++;
	struct formula *g = fml_formula_alloc(f->vars, 1);
	if (!g)
		return NULL;
	g->n = 1;
	g->outside = FORMULA_UNDEFINED_OUTSIDE;
	g->p[0].cond = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
	g->p[0].val = fml_node_copy(f->vars, f->p[i].val);
	if (!g->p[0].val || (f->p[j].cond && !g->p[0].cond)) {
		formula_free(g);
		return NULL;
	}
	return g;
}

static void drop_piece(struct formula *r, int j)
{
	isl_set_free(r->p[j].cond);
	fml_node_free(r->vars, r->p[j].val);
	memmove(&r->p[j], &r->p[j + 1], sizeof(*r->p) * (size_t)(r->n - j - 1));
	r->n--;
}

/* A few points of a piece's condition at which values are compared before a
 * proof is attempted: a sample point, and the points a step or a few steps
 * away from it along each parameter that are still in the condition.  Values
 * that agree on all of them rarely agree everywhere; values that differ at one
 * need no proof to be told apart. */
enum { WITNESS_MAX = 24 };

struct witnesses {
	int np, n;                  /* parameters, points */
	const char **names;         /* the condition's, then the formula's others */
	long long *values;          /* n rows of np values */
};

static void witnesses_clear(struct witnesses *w)
{
	free(w->names);
	free(w->values);
	memset(w, 0, sizeof(*w));
}

/* The coordinates of PT, the first NP of the NALL values of a witness row;
 * the others (parameters the condition leaves free) get fixed values. */
static int point_values(__isl_keep isl_point *pt, int np, int nall, long long *out)
{
	for (int k = 0; k < np; k++) {
		isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_param, k);
		if (!v || !isl_val_is_int(v) ||
		    isl_val_cmp_si(v, LLONG_MAX / 2) > 0 || isl_val_cmp_si(v, LLONG_MIN / 2) < 0) {
			isl_val_free(v);
			return -1;
		}
		out[k] = isl_val_get_num_si(v);
		isl_val_free(v);
	}
	for (int k = np; k < nall; k++)
		out[k] = 7 + 4 * (k - np); /* 7, 11, 15, ...: no special values */
	return 0;
}

/* The witness points of COND (none when it has no point ISL finds); FNAMES,
 * the formula's parameters, give values to those the condition leaves free. */
static void witnesses_find(struct witnesses *w, __isl_keep isl_set *cond, char **fnames, int fn)
{
	memset(w, 0, sizeof(*w));
	isl_size np = isl_set_dim(cond, isl_dim_param);
	isl_point *pt = isl_set_sample_point(isl_set_copy(cond));
	if (np < 0 || !pt || isl_point_is_void(pt) != isl_bool_false) {
		isl_point_free(pt);
		return;
	}
	w->names = calloc((size_t)(np + fn) + 1, sizeof(*w->names));
	if (!w->names) {
		isl_point_free(pt);
		return;
	}
	for (int k = 0; k < np; k++)
		w->names[w->np++] = isl_set_get_dim_name(cond, isl_dim_param, (unsigned)k);
	for (int k = 0; k < fn; k++) {
		if (isl_set_find_dim_by_name(cond, isl_dim_param, fnames[k]) < 0)
			w->names[w->np++] = fnames[k];
	}
	w->values = calloc((size_t)(w->np + 1) * WITNESS_MAX, sizeof(*w->values));
	if (!w->values || point_values(pt, (int)np, w->np, w->values) < 0) {
		isl_point_free(pt);
		witnesses_clear(w);
		return;
	}
	w->n = 1;
	/* For each parameter of COND, a point where it is larger than at the
	 * sample, and one where it is smaller, when there are such points. */
	for (int k = 0; k < np && w->n + 2 <= WITNESS_MAX; k++)
		for (int dir = 0; dir < 2; dir++) {
			long long s0 = w->values[k];
			if (s0 <= INT_MIN + 1 || s0 >= INT_MAX - 1)
				continue; /* a witness is a hint: not worth an overflow */
			isl_set *part = dir == 0
				? isl_set_lower_bound_si(isl_set_copy(cond), isl_dim_param, (unsigned)k,
							 (int)(s0 + 1))
				: isl_set_upper_bound_si(isl_set_copy(cond), isl_dim_param, (unsigned)k,
							 (int)(s0 - 1));
			isl_point *q = isl_set_sample_point(part);
			if (q && isl_point_is_void(q) == isl_bool_false &&
			    point_values(q, (int)np, w->np,
					 w->values + (size_t)w->n * (size_t)w->np) == 0)
				w->n++;
			isl_point_free(q);
		}
	isl_point_free(pt);
}

/* 1 when the values of pieces I and J differ at a witness point of J's
 * condition. */
static int differ_at_witness(const struct formula *r, int i, int j, const struct witnesses *w)
{
	int differ = 0;
	for (int p = 0; p < w->n && !differ; p++) {
		struct feval_env env;
		if (fml_env_init(&env, r->vars, w->names, w->values + (size_t)p * (size_t)w->np,
				 w->np) != 0)
			break;
		fmpq_t a, b;
		fmpq_init(a);
		fmpq_init(b);
		if (fml_node_eval(r->vars, r->p[i].val, &env, a) == 0 &&
		    fml_node_eval(r->vars, r->p[j].val, &env, b) == 0)
			differ = !fmpq_equal(a, b);
		fmpq_clear(a);
		fmpq_clear(b);
		fml_env_clear(&env, r->vars);
	}
	return differ;
}

static int is_zero_piece(const struct formula *r, int j)
{
	return r->p[j].val->kind == FK_POLY && fml_poly_is_zero(r->vars, r->p[j].val);
}

/* F on CONTEXT: every condition intersected with it; for a zero-outside formula
 * the part of CONTEXT no piece covers becomes an explicit zero piece.  The result
 * keeps F's outside. */
static struct formula *on_context(const struct formula *f, __isl_keep isl_set *context)
{
	if (!f || !context)
		return NULL;
	struct formula *r = formula_copy(f);
	if (!r)
		return NULL;
	for (int i = 0; i < r->n; i++) {
		r->p[i].cond = r->p[i].cond ? isl_set_intersect(r->p[i].cond, isl_set_copy(context))
					    : isl_set_copy(context);
		isl_bool empty = isl_set_is_empty(r->p[i].cond);
		if (empty < 0) {
			formula_free(r);
			return NULL;
		}
		if (empty)
			drop_piece(r, i--);
	}
	if (f->outside == FORMULA_ZERO_OUTSIDE) {
		isl_set *rest = isl_set_copy(context);
		for (int i = 0; i < r->n && rest; i++)
			rest = isl_set_subtract(rest, isl_set_copy(r->p[i].cond));
		isl_bool empty = isl_set_is_empty(rest);
		struct fpiece *p = empty == isl_bool_false
					   ? realloc(r->p, sizeof(*r->p) * (size_t)(r->n + 1))
					   : NULL;
		if (p) {
			r->p = p;
			p[r->n].cond = rest;
			p[r->n].val = fml_poly_zero(r->vars);
			rest = NULL;
			if (!p[r->n++].val) {
				formula_free(r);
				return NULL;
			}
		}
		isl_set_free(rest);
		if (empty < 0 || (empty == isl_bool_false && !p)) {
			formula_free(r);
			return NULL;
		}
	}
	return r;
}

struct formula *formula_on(const struct formula *f, __isl_keep isl_set *context)
{
	struct formula *r = on_context(f, context);
	if (r)
		r->outside = FORMULA_UNDEFINED_OUTSIDE;
	return r;
}

struct apart {
	const char *const *names;
	int n;
	int found;
};

static isl_stat constraint_relates(__isl_take isl_constraint *c, void *user)
{
	struct apart *ap = user;
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	int named = 0, others = 0;
	for (int k = 0; k < np; k++) {
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, k);
		int nonzero = v && !isl_val_is_zero(v);
		isl_val_free(v);
		if (!nonzero)
			continue;
		const char *name = isl_constraint_get_dim_name(c, isl_dim_param, (unsigned)k);
		int listed = 0;
		for (int i = 0; name && i < ap->n && !listed; i++)
			listed = strcmp(name, ap->names[i]) == 0;
		if (listed)
			named++;
		else
			others++;
	}
	if (named && named + others > 1)
		ap->found = 1;
	isl_constraint_free(c);
	return ap->found ? isl_stat_error : isl_stat_ok;
}

static isl_stat bset_relates(__isl_take isl_basic_set *bset, void *user)
{
	isl_stat st = isl_basic_set_foreach_constraint(bset, &constraint_relates, user);
	isl_basic_set_free(bset);
	return st;
}

/* 1 when a constraint of COND relates one of AP's names to another parameter. */
static int relates(__isl_keep isl_set *cond, const char *const names[], int n)
{
	struct apart ap = {names, n, 0};
	if (!cond || n == 0)
		return 0;
	isl_set_foreach_basic_set(cond, &bset_relates, &ap);
	return ap.found;
}

/* 1 when every value of COND has parameter NAME >= LO. */
static int param_at_least(__isl_keep isl_set *cond, const char *name, int lo)
{
	int pos = isl_set_find_dim_by_name(cond, isl_dim_param, name);
	if (pos < 0)
		return 0;
	isl_set *bound = isl_set_lower_bound_si(isl_set_universe(isl_set_get_space(cond)),
						isl_dim_param, (unsigned)pos, lo);
	isl_bool sub = isl_set_is_subset(cond, bound);
	isl_set_free(bound);
	return sub == isl_bool_true;
}

static isl_val *val_from_fmpz(isl_ctx *ctx, const fmpz_t x, int negate);
static int mpoly_affine(const struct fvars *V, const fmpq_mpoly_t num, fmpz *coef,
	fmpz_t c0, fmpz_t d);

/* The sign on COND of the polynomial NUM (in ring V, no denominator): 1 for
 * >= 0, -1 for <= 0, 0 when not shown.  Shown when its coefficients share a
 * sign and its variables are parameters >= 0 there, or, for an affine NUM,
 * when ISL finds COND on one side of NUM = 0. */
static int factor_sign_on(const struct fvars *V, const fmpq_mpoly_t num, __isl_keep isl_set *cond)
{
	slong len = fmpq_mpoly_length(num, V->ctx);
	if (len == 0)
		return 1;
	int pos = 0, neg = 0, vars_nonneg = 1;
	fmpq_t c;
	fmpq_init(c);
	for (slong t = 0; t < len; t++) {
		fmpq_mpoly_get_term_coeff_fmpq(c, num, t, V->ctx);
		pos |= fmpq_sgn(c) > 0;
		neg |= fmpq_sgn(c) < 0;
	}
	fmpq_clear(c);
	for (slong i = 0; i < V->n && vars_nonneg; i++)
		if (fmpq_mpoly_degree_si(num, i, V->ctx) > 0)
			vars_nonneg = V->v[i].name && param_at_least(cond, V->v[i].name, 0);
	if (!(pos && neg) && vars_nonneg)
		return pos ? 1 : -1;
	/* affine in the parameters and floors: NUM >= 0 (or <= 0) on all of COND? */
	isl_space *space = isl_set_get_space(cond);
	isl_aff *aff = fml_mpoly_aff(V, num, space);
	isl_space_free(space);
	int sign = 0;
	for (int negate = 0; negate < 2 && aff && !sign; negate++) {
		isl_aff *a = negate ? isl_aff_neg(isl_aff_copy(aff)) : isl_aff_copy(aff);
		isl_aff *z = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(a));
		isl_set *side = isl_set_from_basic_set(isl_aff_ge_basic_set(a, z));
		if (isl_set_is_subset(cond, side) == isl_bool_true)
			sign = negate ? -1 : 1;
		isl_set_free(side);
	}
	isl_aff_free(aff);
	return sign;
}

/* The sign of the Laurent polynomial X on COND: its denominator is a product
 * of parameters (positive when each is >= 1 there), and its numerator's sign is
 * that of its factors (factor_sign_on).  1 for X >= 0, -1 for X <= 0, 0 when
 * that is not shown. */
static int poly_sign_on(const struct fvars *V, const struct fnode *x, __isl_keep isl_set *cond)
{
	if (x->kind != FK_POLY || !cond)
		return 0;
	for (slong i = 0; i < V->n; i++)
		if (x->den[i] > 0 && (!V->v[i].name || !param_at_least(cond, V->v[i].name, 1)))
			return 0;
	int sign = factor_sign_on(V, x->num, cond);
	if (sign)
		return sign;
	fmpq_mpoly_factor_t f;
	fmpq_mpoly_factor_init(f, V->ctx);
	if (fmpq_mpoly_factor(f, x->num, V->ctx)) {
		fmpq_t c;
		fmpq_init(c);
		fmpq_mpoly_factor_get_constant_fmpq(c, f, V->ctx);
		sign = fmpq_sgn(c);
		fmpq_clear(c);
		for (slong k = 0; k < f->num && sign; k++) {
			int sk = factor_sign_on(V, f->poly + k, cond);
			if (fmpz_is_even(f->exp + k))
				sk = 1; /* an even power is >= 0 */
			sign *= sk;
		}
	}
	fmpq_mpoly_factor_clear(f, V->ctx);
	return sign;
}

/* X with, in each max and min, the operands another is shown to bound on COND
 * (their difference has a sign there, poly_sign_on) left out; NULL on failure. */
static struct fnode *drop_bounded(const struct fvars *V, const struct fnode *x,
				  __isl_keep isl_set *cond)
{
	if (x->kind == FK_POLY)
		return fml_node_copy(V, x);
	int n = x->n;
	struct fnode **c = calloc((size_t)n + 1, sizeof(*c));
	if (!c)
		return NULL;
	int ok = 1;
	for (int i = 0; i < n && ok; i++)
		ok = (c[i] = drop_bounded(V, x->c[i], cond)) != NULL;
	if (ok && (x->kind == FK_MAX || x->kind == FK_MIN)) {
		for (int i = 0; i < n && ok; i++)
			for (int j = 0; j < n && ok && c[i]; j++) {
				if (i == j || !c[j] || c[i]->kind != FK_POLY || c[j]->kind != FK_POLY)
					continue;
				struct fnode *d = poly_add(V, c[i], c[j], 1); /* c[i] - c[j] */
				if (!d) {
					ok = 0;
					break;
				}
				int sg = poly_sign_on(V, d, cond);
				fml_node_free(V, d);
				/* for max, c[i] >= c[j] makes c[j] useless; for min, <= */
				if ((x->kind == FK_MAX && sg > 0) || (x->kind == FK_MIN && sg < 0)) {
					fml_node_free(V, c[j]);
					c[j] = NULL;
				}
			}
	}
	struct fnode *r = NULL;
	for (int i = 0; i < n && ok; i++) {
		if (!c[i])
			continue;
		struct fnode *ci = c[i];
		c[i] = NULL;
		if (!r)
			r = ci;
		else if (x->kind == FK_ADD)
			r = fml_add_take(V, r, ci);
		else if (x->kind == FK_MUL)
			r = fml_mul_take(V, r, ci);
		else
			r = fml_maxmin_take(V, x->kind, r, ci);
		if (!r)
			ok = 0;
	}
	for (int i = 0; i < n; i++)
		fml_node_free(V, c[i]);
	free(c);
	if (!ok) {
		fml_node_free(V, r);
		return NULL;
	}
	return r;
}

struct formula *formula_coalesce(const struct formula *f, __isl_keep isl_set *context)
{
	return formula_coalesce_apart(f, context, NULL, 0);
}

struct formula *formula_coalesce_apart(const struct formula *f, __isl_keep isl_set *context,
				       const char *const keep_apart[], int napart)
{
	/* Conditions keep all they know (M == 1 rather than M <= 1 given M >= 1)
	 * while values are compared: the gist comes at the end. */
	struct formula *r = on_context(f, context);
	if (!r)
		return NULL;
	/* max(a, b) is b where b - a >= 0 is plain from the signs */
	for (int i = 0; i < r->n; i++) {
		if (r->p[i].val->kind == FK_POLY || !r->p[i].cond)
			continue;
		struct fnode *v = drop_bounded(r->vars, r->p[i].val, r->p[i].cond);
		if (!v) {
			formula_free(r);
			return NULL;
		}
		fml_node_free(r->vars, r->p[i].val);
		r->p[i].val = v;
	}
	/* Disjoint pieces, so that any two can merge without changing who wins. */
	for (int j = 1; j < r->n; j++)
		for (int i = 0; i < j && r->p[j].cond; i++) {
			if (!r->p[i].cond) {
				drop_piece(r, j--);
				break;
			}
			r->p[j].cond = isl_set_subtract(r->p[j].cond, isl_set_copy(r->p[i].cond));
			if (!r->p[j].cond) {
				formula_free(r);
				return NULL;
			}
		}
	/* Witness points per piece; a merged piece's condition only grows, so its
	 * points stay valid. */
	struct witnesses *w = calloc((size_t)r->n + 1, sizeof(*w));
	if (!w) {
		formula_free(r);
		return NULL;
	}
	int fn = 0;
	char **fnames = formula_params(r, &fn);
	for (int j = 0; fnames && j < r->n; j++)
		if (r->p[j].cond)
			witnesses_find(&w[j], r->p[j].cond, fnames, fn);
	for (int j = 1; j < r->n; j++) {
		for (int i = 0; i < j; i++) {
			if (!r->p[i].cond || !r->p[j].cond)
				continue;
			/* Does one value hold on the other's condition too? */
			int keep = -1;
			for (int dir = 0; dir < 2 && keep < 0; dir++) {
				int from = dir ? i : j, to = dir ? j : i;
				/* a point of FROM's condition where the two differ rules
				 * this direction out without a proof */
				if (differ_at_witness(r, to, from, &w[from]))
					continue;
				struct formula *a = value_on(r, to, from), *b = value_on(r, from, from);
				if (a && b && formula_proven_equal(a, b))
					keep = to;
				formula_free(a);
				formula_free(b);
			}
			if (keep < 0)
				continue;
			int gone = keep == i ? j : i;
			isl_set *merged = isl_set_coalesce(
				isl_set_union(isl_set_copy(r->p[keep].cond), isl_set_copy(r->p[gone].cond)));
			if (merged && napart > 0 && relates(merged, keep_apart, napart) &&
			    !relates(r->p[keep].cond, keep_apart, napart) &&
			    !relates(r->p[gone].cond, keep_apart, napart)) {
				isl_set_free(merged);
				continue;
			}
			isl_set_free(r->p[keep].cond);
			r->p[keep].cond = merged;
			if (!r->p[keep].cond) {
				for (int k = 0; k < r->n; k++)
					witnesses_clear(&w[k]);
				free(w);
				formula_params_free(fnames, fn);
				formula_free(r);
				return NULL;
			}
			drop_piece(r, gone);
			witnesses_clear(&w[gone]);
			memmove(&w[gone], &w[gone + 1], sizeof(*w) * (size_t)(r->n - gone));
			j = 0; /* start over: the merged piece may now meet others */
			break;
		}
	}
	for (int k = 0; k < r->n; k++)
		witnesses_clear(&w[k]);
	free(w);
	formula_params_free(fnames, fn);
	for (int j = 0; j < r->n && r->outside == FORMULA_ZERO_OUTSIDE; j++)
		if (is_zero_piece(r, j))
			drop_piece(r, j--);
	struct formula *g = formula_gist(r, context);
	formula_free(r);
	return g;
}

/* ---------------------------------------------------------------- substitution */

/* R as D*R = sum COEF[i]*x_i + C0 with integer COEF, C0 and the x_i parameters;
 * -1 if R is not such an affine function. */
static int poly_affine(const struct fvars *V, const struct fnode *r, fmpz *coef,
	fmpz_t c0, fmpz_t d)
{
	slong i;

	if (r->kind != FK_POLY)
		return -1;
	for (i = 0; i < V->cap; i++)
		if (r->den[i])
			return -1;
	return mpoly_affine(V, r->num, coef, c0, d);
}

/* NUM (in ring V) as D*NUM = sum COEF[i]*x_i + C0, as poly_affine. */
static int mpoly_affine(const struct fvars *V, const fmpq_mpoly_t num, fmpz *coef,
	fmpz_t c0, fmpz_t d)
{
	slong i, j, len, *e;
	fmpq_t c;
	fmpz_t t;
	int ok = 0;

	if (fmpq_mpoly_total_degree_si(num, V->ctx) > 1)
		return -1;
	e = calloc(V->cap + 1, sizeof(slong));
	if (!e)
		return -1;
	fmpq_init(c);
	fmpz_init(t);
	fmpz_one(d);
	fmpz_zero(c0);
	len = fmpq_mpoly_length(num, V->ctx);
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_coeff_fmpq(c, num, j, V->ctx);
		fmpz_lcm(d, d, fmpq_denref(c));
	}
	for (j = 0; j < len; j++) {
		slong var = -1;
		fmpq_mpoly_get_term_exp_si(e, num, j, V->ctx);
		fmpq_mpoly_get_term_coeff_fmpq(c, num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			if (e[i])
				var = i;
		if (var >= 0 && !V->v[var].name)
			goto done;
		fmpz_divexact(t, d, fmpq_denref(c));
		fmpz_mul(t, t, fmpq_numref(c));
		fmpz_set(var >= 0 ? coef + var : c0, t);
	}
	ok = 1;
done:
	fmpq_clear(c);
	fmpz_clear(t);
	free(e);
	return ok ? 0 : -1;
}

static isl_val *val_from_fmpz(isl_ctx *ctx, const fmpz_t x, int negate)
{
	mpz_t z;
	isl_val *v;

	mpz_init(z);
	fmpz_get_mpz(z, x);
	if (negate)
		mpz_neg(z, z);
	v = isl_val_int_from_gmp(ctx, z);
	mpz_clear(z);
	return v;
}

/* COND (taken) with parameter NAME replaced by R over V: the points where
 * (NAME = R) lies in COND.  Sets *ERROR when NAME matters and R is not affine. */
/* Substituting R = A/P (A affine with integer coefficients over D, P one
 * positive parameter) for the parameter at POS of COND: every constraint
 * a*name + k >= 0 (or = 0) whose other terms are constants becomes
 * a*(D*A) + (D*k)*P >= 0, which is the same where P > 0.  Any other use of the
 * name makes it fail (*error). */
struct quotient {
	const struct fvars *V;
	const fmpz *coef;   /* D*A = sum coef[i]*x_i + c0 over the ring's variables */
	const fmpz *c0, *d;
	const char *pname;  /* P */
	int pos;            /* the replaced parameter in the condition's space */
	isl_basic_set *out;
	int error;
};

static isl_stat quotient_constraint(__isl_take isl_constraint *c, void *user)
{
	struct quotient *q = user;
	isl_ctx *ctx = isl_constraint_get_ctx(c);
	isl_val *a = isl_constraint_get_coefficient_val(c, isl_dim_param, q->pos);
	if (!a || isl_val_is_zero(a)) {
		isl_val_free(a);
		q->out = isl_basic_set_add_constraint(q->out, c);
		return q->out ? isl_stat_ok : isl_stat_error;
	}
	isl_size np = isl_constraint_dim(c, isl_dim_param);
	for (int k = 0; k < np && !q->error; k++) {
		if (k == q->pos)
			continue;
		isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, k);
		if (!v || !isl_val_is_zero(v))
			q->error = 1;
		isl_val_free(v);
	}
	if (q->error || isl_constraint_dim(c, isl_dim_div) != 0) {
		q->error = 1;
		isl_val_free(a);
		isl_constraint_free(c);
		return isl_stat_error;
	}
	isl_val *k = isl_constraint_get_constant_val(c);
	int eq = isl_constraint_is_equality(c) == isl_bool_true;
	isl_local_space *ls = isl_local_space_from_space(isl_constraint_get_space(c));
	isl_space *space = isl_constraint_get_space(c);
	isl_constraint_free(c);
	isl_constraint *n = eq ? isl_constraint_alloc_equality(ls) : isl_constraint_alloc_inequality(ls);
	for (slong i = 0; i < q->V->n; i++) {
		if (!q->V->v[i].name || fmpz_is_zero(q->coef + i))
			continue;
		int p = isl_space_find_dim_by_name(space, isl_dim_param, q->V->v[i].name);
		isl_val *v = isl_val_mul(isl_val_copy(a), val_from_fmpz(ctx, q->coef + i, 0));
		n = isl_constraint_set_coefficient_val(n, isl_dim_param, p, v);
	}
	int pp = isl_space_find_dim_by_name(space, isl_dim_param, q->pname);
	isl_val *pc = isl_val_mul(isl_val_copy(k), val_from_fmpz(ctx, q->d, 0));
	n = isl_constraint_set_coefficient_val(n, isl_dim_param, pp, pc);
	n = isl_constraint_set_constant_val(n, isl_val_mul(a, val_from_fmpz(ctx, q->c0, 0)));
	isl_val_free(k);
	q->out = isl_basic_set_add_constraint(q->out, n);
	/* The rewrite multiplied by P: it holds where P >= 1, and says so. */
	isl_constraint *pos = isl_constraint_alloc_inequality(isl_local_space_from_space(space));
	pos = isl_constraint_set_coefficient_si(pos, isl_dim_param, pp, 1);
	pos = isl_constraint_set_constant_si(pos, -1);
	q->out = isl_basic_set_add_constraint(q->out, pos);
	return q->out ? isl_stat_ok : isl_stat_error;
}

static isl_set *subst_cond_quotient(isl_set *cond, int pos, const struct fvars *V,
	const struct fnode *r, int *error)
{
	slong pvar = -1;
	for (slong i = 0; i < V->n && r->kind == FK_POLY; i++) {
		if (r->den[i] == 0)
			continue;
		if (r->den[i] != 1 || pvar >= 0 || !V->v[i].name) {
			pvar = -2;
			break;
		}
		pvar = i;
	}
	if (pvar < 0) {
		*error = 1;
		return isl_set_free(cond);
	}
	/* A = R*P: the same numerator without the denominator. */
	struct fnode a = *r;
	slong *den = calloc(V->cap + 1, sizeof(slong));
	fmpz *coef = _fmpz_vec_init(V->cap + 1);
	fmpz_t c0, d;
	fmpz_init(c0);
	fmpz_init(d);
	a.den = den;
	if (!den || poly_affine(V, &a, coef, c0, d) < 0 || !fmpz_is_zero(coef + pvar)) {
		*error = 1;
		cond = isl_set_free(cond);
		goto done;
	}
	/* Every name A and P use must be a parameter of the condition. */
	const char *name = isl_set_get_dim_name(cond, isl_dim_param, pos);
	char *kept = name ? strdup(name) : NULL;
	isl_space *space = isl_set_get_space(cond);
	for (slong i = 0; i < V->n; i++)
		if (V->v[i].name && (i == pvar || !fmpz_is_zero(coef + i)) &&
		    isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name) < 0) {
			isl_size k = isl_space_dim(space, isl_dim_param);
			space = isl_space_add_dims(space, isl_dim_param, 1);
			space = isl_space_set_dim_name(space, isl_dim_param, k, V->v[i].name);
		}
	cond = isl_set_align_params(cond, space);
	pos = kept ? isl_set_find_dim_by_name(cond, isl_dim_param, kept) : -1;
	free(kept);
	struct quotient q = {V, coef, c0, d, V->v[pvar].name, pos, NULL, 0};
	isl_set *result = cond ? isl_set_empty(isl_set_get_space(cond)) : NULL;
	isl_basic_set_list *list = cond ? isl_set_get_basic_set_list(cond) : NULL;
	isl_size nb = list ? isl_basic_set_list_n_basic_set(list) : -1;
	for (int b = 0; b < nb && !q.error && pos >= 0; b++) {
		isl_basic_set *bset = isl_basic_set_list_get_basic_set(list, b);
		q.out = isl_basic_set_universe(isl_basic_set_get_space(bset));
		if (isl_basic_set_foreach_constraint(bset, &quotient_constraint, &q) < 0)
			q.error = 1;
		isl_basic_set_free(bset);
		result = isl_set_union(result, isl_set_from_basic_set(q.out));
		q.out = NULL;
	}
	isl_basic_set_list_free(list);
	isl_set_free(cond);
	if (q.error || nb < 0 || pos < 0 || !result) {
		*error = 1;
		cond = isl_set_free(result);
		goto done;
	}
	cond = isl_set_project_out(result, isl_dim_param, pos, 1);
	cond = isl_set_coalesce(cond);
	if (!cond)
		*error = 1;
done:
	free(den);
	_fmpz_vec_clear(coef, V->cap + 1);
	fmpz_clear(c0);
	fmpz_clear(d);
	return cond;
}

static isl_set *subst_cond(isl_set *cond, const char *name, const struct fvars *V,
	const struct fnode *r, int *error)
{
	static const char fresh[] = "__bspcost_subst";
	int pos;
	isl_bool involved;
	isl_space *space;
	isl_constraint *c;
	isl_ctx *ctx;
	fmpz *coef;
	fmpz_t c0, d;
	slong i;

	if (!cond)
		return NULL;
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, name);
	if (pos < 0)
		return cond;
	involved = isl_set_involves_dims(cond, isl_dim_param, pos, 1);
	if (involved < 0 || !involved) {
		if (involved < 0)
			*error = 1;
		return isl_set_project_out(cond, isl_dim_param, pos, 1);
	}
	ctx = isl_set_get_ctx(cond);
	coef = _fmpz_vec_init(V->cap + 1);
	fmpz_init(c0);
	fmpz_init(d);
	if (poly_affine(V, r, coef, c0, d) < 0) {
		/* R = A/P with A affine: each constraint a*name + c >= 0 (c a
		 * constant) becomes a*A + c*P >= 0, P being positive. */
		cond = subst_cond_quotient(cond, pos, V, r, error);
		goto done;
	}
	cond = isl_set_set_dim_name(cond, isl_dim_param, pos, fresh);
	space = isl_set_get_space(cond);
	for (i = 0; i < V->n; i++)
		if (V->v[i].name && !fmpz_is_zero(coef + i) &&
		    isl_space_find_dim_by_name(space, isl_dim_param, V->v[i].name) < 0) {
			isl_size k = isl_space_dim(space, isl_dim_param);
			space = isl_space_add_dims(space, isl_dim_param, 1);
			space = isl_space_set_dim_name(space, isl_dim_param, k,
				V->v[i].name);
		}
	cond = isl_set_align_params(cond, isl_space_copy(space));
	c = isl_constraint_alloc_equality(isl_local_space_from_space(space));
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, fresh);
	c = isl_constraint_set_coefficient_val(c, isl_dim_param, pos,
		val_from_fmpz(ctx, d, 0));
	for (i = 0; i < V->n; i++) {
		int p;
		if (!V->v[i].name || fmpz_is_zero(coef + i))
			continue;
		p = isl_set_find_dim_by_name(cond, isl_dim_param, V->v[i].name);
		c = isl_constraint_set_coefficient_val(c, isl_dim_param, p,
			val_from_fmpz(ctx, coef + i, 1));
	}
	c = isl_constraint_set_constant_val(c, val_from_fmpz(ctx, c0, 1));
	cond = isl_set_add_constraint(cond, c);
	pos = isl_set_find_dim_by_name(cond, isl_dim_param, fresh);
	cond = isl_set_project_out(cond, isl_dim_param, pos, 1);
	cond = isl_set_coalesce(cond);
	if (!cond)
		*error = 1;
done:
	_fmpz_vec_clear(coef, V->cap + 1);
	fmpz_clear(c0);
	fmpz_clear(d);
	return cond;
}

struct formula *formula_subst(const struct formula *f, const char *name,
	const struct formula *r)
{
	struct fvars *T;
	struct fnode **vr = NULL, **vf = NULL;
	struct plist lr;
	struct formula *res = NULL;
	slong p = -1, i;
	int j, k, size = 0, ok = 0;

	if (!f || !name || !r)
		return NULL;
	for (i = 0; i < f->vars->n; i++)
		if (f->vars->v[i].name && strcmp(f->vars->v[i].name, name) == 0)
			p = i;
	memset(&lr, 0, sizeof(lr));
	T = fml_vars_new(r->vars->n + f->vars->n * (r->n + 1));
	if (!T)
		return NULL;
	vr = calloc(r->vars->n + 1, sizeof(*vr));
	if (!vr || vars_import(T, r->vars, vr) < 0 || plist_make(&lr, r, T, vr) < 0)
		goto done;
	T->refs++;
	res = fml_formula_alloc(T, 0);
	if (!res)
		goto done;
	free(res->p);
	res->p = NULL;
	for (k = 0; k < lr.n; k++) {
		vf = calloc(f->vars->n + 1, sizeof(*vf));
		if (!vf)
			goto done;
		if (p >= 0)
			vf[p] = fml_node_copy(T, lr.val[k]);
		if (vars_import(T, f->vars, vf) < 0)
			goto done;
		for (j = 0; j < f->n; j++) {
			int error = 0;
			isl_set *c = f->p[j].cond ? isl_set_copy(f->p[j].cond) : NULL;
			isl_set *m;
			c = subst_cond(c, name, T, lr.val[k], &error);
			if (error) {
				isl_set_free(c);
				goto done;
			}
			m = cond_meet(c, lr.cond[k]);
			isl_set_free(c);
			if (push_piece(res, &size, m,
				translate(f->vars, f->p[j].val, T, vf)) < 0)
				goto done;
		}
		vmap_free(T, vf, f->vars->n);
		vf = NULL;
	}
	res->outside = f->outside == FORMULA_ZERO_OUTSIDE &&
		(r->outside == FORMULA_ZERO_OUTSIDE || (r->n == 1 && !r->p[0].cond)) ?
		FORMULA_ZERO_OUTSIDE : FORMULA_UNDEFINED_OUTSIDE;
	ok = 1;
done:
	vmap_free(T, vf, f->vars->n);
	vmap_free(T, vr, r->vars->n);
	plist_free(T, &lr);
	fml_vars_unref(T);
	if (!ok) {
		formula_free(res);
		return NULL;
	}
	return res;
}

/* ---------------------------------------------------------------- from ISL */

static void val_to_fmpq(fmpq_t out, isl_val *v)
{
	mpz_t n, d;

	mpz_init(n);
	mpz_init(d);
	isl_val_get_num_gmp(v, n);
	isl_val_get_den_gmp(v, d);
	fmpz_set_mpz(fmpq_numref(out), n);
	fmpz_set_mpz(fmpq_denref(out), d);
	fmpq_canonicalise(out);
	mpz_clear(n);
	mpz_clear(d);
	isl_val_free(v);
}

static int count_aff_divs(isl_aff *aff)
{
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	int k, total = 0;

	for (k = 0; k < nd; k++) {
		isl_aff *d = isl_aff_get_div(aff, k);
		total += 1 + count_aff_divs(d);
		isl_aff_free(d);
	}
	return total;
}

/* The value of AFF (taken; the argument of a division, so without a floor of
 * its own) over V, whose first variables are the parameters of AFF's space in
 * order; divisions inside AFF become floor atoms. */
static struct fnode *from_aff(struct fvars *V, isl_aff *aff)
{
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	struct fnode *r;
	fmpq_t c;
	int i;

	if (!aff || np < 0 || nd < 0) {
		isl_aff_free(aff);
		return NULL;
	}
	fmpq_init(c);
	val_to_fmpq(c, isl_aff_get_constant_val(aff));
	r = fml_poly_fmpq(V, c);
	for (i = 0; i < np && r; i++) {
		val_to_fmpq(c, isl_aff_get_coefficient_val(aff, isl_dim_param, i));
		if (!fmpq_is_zero(c))
			r = fml_add_take(V, r, fml_mul_take(V, fml_poly_fmpq(V, c),
				fml_poly_var(V, i)));
	}
	for (i = 0; i < nd && r; i++) {
		val_to_fmpq(c, isl_aff_get_coefficient_val(aff, isl_dim_div, i));
		if (!fmpq_is_zero(c))
			r = fml_add_take(V, r, fml_mul_take(V, fml_poly_fmpq(V, c),
				fml_floor_take(V, from_aff(V, isl_aff_get_div(aff, i)))));
	}
	fmpq_clear(c);
	isl_aff_free(aff);
	return r;
}

struct term_data {
	struct fvars *V;
	struct fnode *sum;
	int atoms; /* counting pass: an upper bound on the atoms needed */
	int counting;
};

static isl_stat term_fn(isl_term *term, void *user)
{
	struct term_data *data = user;
	struct fvars *V = data->V;
	isl_size np = isl_term_dim(term, isl_dim_param);
	isl_size nd = isl_term_dim(term, isl_dim_div);
	struct fnode *t;
	fmpq_t c;
	int i;

	if (np < 0 || nd < 0) {
		isl_term_free(term);
		return isl_stat_error;
	}
	if (data->counting) {
		for (i = 0; i < nd; i++) {
			isl_aff *d = isl_term_get_div(term, i);
			data->atoms += 1 + count_aff_divs(d);
			isl_aff_free(d);
		}
		isl_term_free(term);
		return isl_stat_ok;
	}
	fmpq_init(c);
	val_to_fmpq(c, isl_term_get_coefficient_val(term));
	t = fml_poly_fmpq(V, c);
	fmpq_clear(c);
	for (i = 0; i < np && t; i++) {
		int e = isl_term_get_exp(term, isl_dim_param, i);
		if (e > 0) {
			struct fnode *x = fml_poly_var(V, i);
			t = x ? fml_mul_take(V, t, fml_pow(V, x, e)) : NULL;
			fml_node_free(V, x);
		}
	}
	for (i = 0; i < nd && t; i++) {
		int e = isl_term_get_exp(term, isl_dim_div, i);
		if (e > 0) {
			struct fnode *x = fml_floor_take(V,
				from_aff(V, isl_term_get_div(term, i)));
			t = x ? fml_mul_take(V, t, fml_pow(V, x, e)) : NULL;
			fml_node_free(V, x);
		}
	}
	isl_term_free(term);
	data->sum = fml_add_take(V, data->sum, t);
	return data->sum ? isl_stat_ok : isl_stat_error;
}

static isl_stat count_piece_fn(isl_set *set, isl_qpolynomial *qp, void *user)
{
	isl_stat r = isl_qpolynomial_foreach_term(qp, &term_fn, user);

	isl_set_free(set);
	isl_qpolynomial_free(qp);
	return r;
}

struct piece_data {
	struct formula *f;
	int size;
};

static isl_stat piece_fn(isl_set *set, isl_qpolynomial *qp, void *user)
{
	struct piece_data *data = user;
	struct term_data td = { data->f->vars, NULL, 0, 0 };
	isl_stat r;

	td.sum = fml_poly_zero(td.V);
	r = td.sum ? isl_qpolynomial_foreach_term(qp, &term_fn, &td) : isl_stat_error;
	isl_qpolynomial_free(qp);
	set = isl_set_coalesce(set);
	if (r < 0 || !set) {
		isl_set_free(set);
		fml_node_free(td.V, td.sum);
		return isl_stat_error;
	}
	return push_piece(data->f, &data->size, set, td.sum) < 0 ?
		isl_stat_error : isl_stat_ok;
}

int formula_pw_qpolynomial_too_large(__isl_keep isl_pw_qpolynomial *pwqp)
{
	struct term_data count = { NULL, NULL, 0, 1 };
	isl_size np = isl_pw_qpolynomial_dim(pwqp, isl_dim_param);

	if (np < 0 || isl_pw_qpolynomial_foreach_piece(pwqp, &count_piece_fn, &count) < 0)
		return -1;
	return np + count.atoms > FML_MAX_VARS;
}

static struct formula *from_pwqp(isl_pw_qpolynomial *pwqp,
	enum formula_outside outside)
{
	isl_space *space;
	isl_size np, nin;
	struct term_data count = { NULL, NULL, 0, 1 };
	struct piece_data data = { NULL, 0 };
	struct fvars *V;
	int i;

	if (!pwqp)
		return NULL;
	nin = isl_pw_qpolynomial_dim(pwqp, isl_dim_in);
	np = isl_pw_qpolynomial_dim(pwqp, isl_dim_param);
	if (nin != 0 || np < 0)
		return NULL;
	if (isl_pw_qpolynomial_foreach_piece(pwqp, &count_piece_fn, &count) < 0)
		return NULL;
	V = fml_vars_new(np + count.atoms);
	if (!V)
		return NULL;
	space = isl_pw_qpolynomial_get_space(pwqp);
	for (i = 0; i < np; i++)
		if (fml_vars_param(V, isl_space_get_dim_name(space, isl_dim_param, i))
		    != i) {
			isl_space_free(space);
			fml_vars_unref(V);
			return NULL;
		}
	isl_space_free(space);
	data.f = fml_formula_alloc(V, 0);
	if (!data.f)
		return NULL;
	free(data.f->p);
	data.f->p = NULL;
	data.f->outside = outside;
	if (isl_pw_qpolynomial_foreach_piece(pwqp, &piece_fn, &data) < 0) {
		formula_free(data.f);
		return NULL;
	}
	return data.f;
}

struct formula *formula_from_pw_qpolynomial(__isl_keep isl_pw_qpolynomial *pwqp)
{
	return from_pwqp(pwqp, FORMULA_UNDEFINED_OUTSIDE);
}

struct formula *formula_from_pw_qpolynomial_zero_outside(
	__isl_keep isl_pw_qpolynomial *pwqp)
{
	return from_pwqp(pwqp, FORMULA_ZERO_OUTSIDE);
}

/* ---------------------------------------------------------------- evaluation */

int fml_env_init(struct feval_env *env, const struct fvars *V,
	const char *const names[], const long long values[], int n)
{
	slong i;

	env->names = names;
	env->values = values;
	env->n = n;
	env->val = calloc(V->cap + 1, sizeof(fmpq));
	env->state = calloc(V->cap + 1, 1);
	if (!env->val || !env->state) {
		free(env->val);
		free(env->state);
		return -1;
	}
	for (i = 0; i < V->cap + 1; i++)
		fmpq_init(env->val + i);
	return 0;
}

void fml_env_clear(struct feval_env *env, const struct fvars *V)
{
	slong i;

	for (i = 0; i < V->cap + 1; i++)
		fmpq_clear(env->val + i);
	free(env->val);
	free(env->state);
}

static int lookup(const struct feval_env *env, const char *name, long long *v)
{
	int i;

	for (i = 0; i < env->n; i++)
		if (strcmp(env->names[i], name) == 0) {
			*v = env->values[i];
			return 0;
		}
	return -1;
}

static int var_value(const struct fvars *V, slong i, struct feval_env *env)
{
	if (env->state[i] == 1)
		return 0;
	if (V->v[i].name) {
		long long v;
		if (lookup(env, V->v[i].name, &v) < 0)
			return -1;
		fmpz_set_si(fmpq_numref(env->val + i), (slong)v);
		fmpz_one(fmpq_denref(env->val + i));
	} else {
		fmpz_t q;
		if (fml_node_eval(V, V->v[i].arg, env, env->val + i) < 0)
			return -1;
		fmpz_init(q);
		fmpz_fdiv_q(q, fmpq_numref(env->val + i), fmpq_denref(env->val + i));
		fmpz_set(fmpq_numref(env->val + i), q);
		fmpz_one(fmpq_denref(env->val + i));
		fmpz_clear(q);
	}
	env->state[i] = 1;
	return 0;
}

int fml_node_eval(const struct fvars *V, const struct fnode *x,
	struct feval_env *env, fmpq_t out)
{
	slong i;
	int k;

	if (x->kind == FK_POLY) {
		fmpq **vals = calloc(V->cap + 1, sizeof(*vals));
		fmpq_t t;
		int ok = 0;
		if (!vals)
			return -1;
		for (i = 0; i < V->cap; i++) {
			vals[i] = env->val + V->cap; /* the spare slot: 0 */
			if (x->den[i] == 0 && fmpq_mpoly_degree_si(x->num, i, V->ctx) <= 0)
				continue;
			if (var_value(V, i, env) < 0)
				goto done;
			vals[i] = env->val + i;
		}
		if (!fmpq_mpoly_evaluate_all_fmpq(out, x->num, vals, V->ctx))
			goto done;
		fmpq_init(t);
		for (i = 0; i < V->cap; i++) {
			if (x->den[i] == 0)
				continue;
			if (fmpq_is_zero(env->val + i)) {
				fmpq_clear(t);
				goto done;
			}
			fmpq_pow_si(t, env->val + i, x->den[i]);
			fmpq_div(out, out, t);
		}
		fmpq_clear(t);
		ok = 1;
done:
		free(vals);
		return ok ? 0 : -1;
	} else {
		fmpq_t t;
		if (fml_node_eval(V, x->c[0], env, out) < 0)
			return -1;
		fmpq_init(t);
		for (k = 1; k < x->n; k++) {
			if (fml_node_eval(V, x->c[k], env, t) < 0) {
				fmpq_clear(t);
				return -1;
			}
			if (x->kind == FK_ADD)
				fmpq_add(out, out, t);
			else if (x->kind == FK_MUL)
				fmpq_mul(out, out, t);
			else if ((x->kind == FK_MAX) == (fmpq_cmp(t, out) > 0))
				fmpq_set(out, t);
		}
		fmpq_clear(t);
		return 0;
	}
}

/* Whether the parameter point lies in COND: 1, 0, or -1 when a parameter COND
 * depends on has no value (or on error). */
static int cond_contains(isl_set *cond, const char *const names[],
	const long long values[], int n)
{
	isl_set *s = isl_set_copy(cond);
	isl_size np = isl_set_dim(s, isl_dim_param);
	isl_bool empty;
	int i, j;

	if (np < 0) {
		isl_set_free(s);
		return -1;
	}
	for (i = np - 1; i >= 0; i--) {
		const char *name = isl_set_get_dim_name(s, isl_dim_param, i);
		for (j = 0; j < n; j++)
			if (name && strcmp(names[j], name) == 0)
				break;
		if (j < n) {
			s = isl_set_fix_val(s, isl_dim_param, i,
				isl_val_int_from_si(isl_set_get_ctx(s), (long)values[j]));
			continue;
		}
		if (isl_set_involves_dims(s, isl_dim_param, i, 1) != isl_bool_false) {
			isl_set_free(s);
			return -1;
		}
		s = isl_set_project_out(s, isl_dim_param, i, 1);
	}
	empty = isl_set_is_empty(s);
	isl_set_free(s);
	return empty < 0 ? -1 : !empty;
}

int formula_eval(const struct formula *f, const char *const names[],
	const long long values[], int n, mpq_t out)
{
	struct feval_env env;
	fmpq_t v;
	int i, r = -1;

	if (!f)
		return -1;
	for (i = 0; i < f->n; i++) {
		int in = f->p[i].cond ? cond_contains(f->p[i].cond, names, values, n) : 1;
		if (in < 0)
			return -1;
		if (in)
			break;
	}
	if (i == f->n) {
		if (f->outside != FORMULA_ZERO_OUTSIDE)
			return -1;
		mpq_set_ui(out, 0, 1);
		return 0;
	}
	if (fml_env_init(&env, f->vars, names, values, n) < 0)
		return -1;
	fmpq_init(v);
	if (fml_node_eval(f->vars, f->p[i].val, &env, v) == 0) {
		fmpq_get_mpq(out, v);
		r = 0;
	}
	fmpq_clear(v);
	fml_env_clear(&env, f->vars);
	return r;
}

/* ---------------------------------------------------------------- parameters */

int formula_involves(const struct formula *f, const char *name)
{
	if (!f)
		return -1;
	slong v = -1;
	for (slong i = 0; i < f->vars->n && v < 0; i++)
		if (f->vars->v[i].name && strcmp(f->vars->v[i].name, name) == 0)
			v = i;
	char *used = v >= 0 ? calloc(f->vars->cap + 1, 1) : NULL;
	if (v >= 0 && !used)
		return -1;
	int r = 0;
	for (int i = 0; i < f->n && !r; i++) {
		if (used) {
			fml_node_used(f->vars, f->p[i].val, used);
			r = used[v] != 0;
		}
		if (!r && f->p[i].cond) {
			int pos = isl_set_find_dim_by_name(f->p[i].cond, isl_dim_param, name);
			isl_bool inv = pos < 0 ? isl_bool_false
				: isl_set_involves_dims(f->p[i].cond, isl_dim_param, (unsigned)pos, 1);
			r = inv < 0 ? -1 : inv == isl_bool_true;
		}
	}
	free(used);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **formula_params(const struct formula *f, int *n)
{
	char *used;
	char **names;
	int count = 0, size = 0, i;
	slong j;

	*n = 0;
	if (!f)
		return NULL;
	used = calloc(f->vars->cap + 1, 1);
	for (i = 0; i < f->n; i++) {
		fml_node_used(f->vars, f->p[i].val, used);
		if (f->p[i].cond)
			size += isl_set_dim(f->p[i].cond, isl_dim_param);
	}
	size += f->vars->n + 1;
	names = calloc(size, sizeof(*names));
	for (j = 0; j < f->vars->n; j++)
		if (used[j] && f->vars->v[j].name)
			names[count++] = strdup(f->vars->v[j].name);
	for (i = 0; i < f->n; i++) {
		isl_size np;
		int k;
		if (!f->p[i].cond)
			continue;
		np = isl_set_dim(f->p[i].cond, isl_dim_param);
		for (k = 0; k < np; k++)
			if (isl_set_involves_dims(f->p[i].cond, isl_dim_param, k, 1) ==
			    isl_bool_true)
				names[count++] = strdup(
					isl_set_get_dim_name(f->p[i].cond, isl_dim_param, k));
	}
	free(used);
	qsort(names, count, sizeof(*names), cmp_str);
	for (i = 0, j = 0; i < count; i++) {
		if (j > 0 && strcmp(names[j - 1], names[i]) == 0) {
			free(names[i]);
			continue;
		}
		names[j++] = names[i];
	}
	*n = (int)j;
	return names;
}

void formula_params_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---------------------------------------------------------------- unary maps */

/* F with every value replaced by floor(value) (K == 0 and FLOOR) or value^K. */
static struct formula *unary(const struct formula *f, int floor, slong k)
{
	struct fvars *T;
	struct fnode **vm;
	struct formula *r = NULL;
	int i, size = 0, ok = 0;

	if (!f)
		return NULL;
	T = fml_vars_new(f->vars->n + f->n);
	if (!T)
		return NULL;
	vm = calloc(f->vars->n + 1, sizeof(*vm));
	if (!vm || vars_import(T, f->vars, vm) < 0)
		goto done;
	T->refs++;
	r = fml_formula_alloc(T, 0);
	if (!r)
		goto done;
	free(r->p);
	r->p = NULL;
	r->outside = f->outside;
	if (!floor && k < 0)
		r->outside = FORMULA_UNDEFINED_OUTSIDE;
	for (i = 0; i < f->n; i++) {
		struct fnode *v = translate(f->vars, f->p[i].val, T, vm), *w;
		if (!v)
			goto done;
		if (floor) {
			w = fml_floor_take(T, v);
		} else {
			w = fml_pow(T, v, k);
			fml_node_free(T, v);
		}
		if (push_piece(r, &size, f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL,
			w) < 0)
			goto done;
	}
	ok = 1;
done:
	vmap_free(T, vm, f->vars->n);
	fml_vars_unref(T);
	if (!ok) {
		formula_free(r);
		return NULL;
	}
	return r;
}

struct formula *fml_formula_floor(const struct formula *f)
{
	return unary(f, 1, 0);
}

struct formula *fml_formula_pow(const struct formula *f, slong k)
{
	return unary(f, 0, k);
}
