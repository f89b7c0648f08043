/* Values within one ring: Laurent polynomials (numerator over a monomial,
 * normalized so that equal values look equal) and the expression nodes built on
 * them (sums, products, max, min), whose constructors keep every node in one
 * normal form: nested operators flattened, children sorted, polynomial operands
 * folded, like terms collected.  Floors become atoms of the ring. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/formula/formula_internal.h"

/* ---------------------------------------------------------------- polynomials */

__attribute__((noinline))
struct fnode *fml_node_alloc(const struct fvars *V, enum fkind kind)
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
	return fml_node_alloc(V, FK_POLY);
}

struct fnode *fml_poly_fmpq(const struct fvars *V, const fmpq_t c)
{
	struct fnode *x = fml_node_alloc(V, FK_POLY);

	if (x)
		fmpq_mpoly_set_fmpq(x->num, c, V->ctx);
	return x;
}

struct fnode *fml_poly_si(const struct fvars *V, slong c)
{
	struct fnode *x = fml_node_alloc(V, FK_POLY);

	if (x)
		fmpq_mpoly_set_si(x->num, c, V->ctx);
	return x;
}

struct fnode *fml_poly_var(const struct fvars *V, slong i)
{
	struct fnode *x = fml_node_alloc(V, FK_POLY);

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
	y = fml_node_alloc(V, x->kind);
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

/* A := A * x^DELTA (DELTA may be negative where A's exponents allow it); 0,
 * or -1 with A unchanged when its scratch exponents cannot be allocated. */
static int mpoly_shift(fmpq_mpoly_t A, const slong *delta, const struct fvars *V)
{
	fmpq_mpoly_t T;
	slong i, j, len = fmpq_mpoly_length(A, V->ctx);
	slong *e = calloc(V->cap + 1, sizeof(slong));
	ulong *u = calloc(V->cap + 1, sizeof(ulong));
	fmpq_t c;

	if (!e || !u) {
		free(e);
		free(u);
		return -1;
	}
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
	return 0;
}

/* Cancels common powers between numerator and denominator; 0, or -1 with X
 * unchanged (out of memory). */
int fml_poly_normalize(const struct fvars *V, struct fnode *x)
{
	slong i, j, len = fmpq_mpoly_length(x->num, V->ctx);
	slong *e, *s;
	int any = 0, ret = 0;

	if (len == 0) {
		for (i = 0; i < V->cap; i++)
			x->den[i] = 0;
		return 0;
	}
	for (i = 0; i < V->cap; i++)
		if (x->den[i] > 0)
			any = 1;
	if (!any)
		return 0;
	e = calloc(V->cap + 1, sizeof(slong));
	s = calloc(V->cap + 1, sizeof(slong));
	if (!e || !s) {
		free(e);
		free(s);
		return -1;
	}
	for (i = 0; i < V->cap; i++)
		s[i] = x->den[i];
	for (j = 0; j < len; j++) {
		fmpq_mpoly_get_term_exp_si(e, x->num, j, V->ctx);
		for (i = 0; i < V->cap; i++)
			if (e[i] < s[i])
				s[i] = e[i];
	}
	any = 0;
	for (i = 0; i < V->cap; i++)
		if (s[i] > 0)
			any = 1;
	/* the numerator first: a failed shift leaves X as it was */
	for (i = 0; i < V->cap; i++)
		s[i] = -s[i];
	if (any)
		ret = mpoly_shift(x->num, s, V);
	for (i = 0; ret == 0 && i < V->cap; i++)
		x->den[i] += s[i];
	free(e);
	free(s);
	return ret;
}

static struct fnode *poly_mul(const struct fvars *V, const struct fnode *a,
	const struct fnode *b)
{
	struct fnode *x = fml_node_alloc(V, FK_POLY);
	slong i;

	if (!x)
		return NULL;
	fmpq_mpoly_mul(x->num, a->num, b->num, V->ctx);
	for (i = 0; i < V->cap; i++)
		x->den[i] = a->den[i] + b->den[i];
	if (fml_poly_normalize(V, x) < 0) {
		fml_node_free(V, x);
		return NULL;
	}
	return x;
}

struct fnode *fml_poly_add(const struct fvars *V, const struct fnode *a,
	const struct fnode *b, int negate_b)
{
	struct fnode *x = fml_node_alloc(V, FK_POLY);
	fmpq_mpoly_t t;
	slong *da, *db, i;
	int shift_a = 0, shift_b = 0;

	if (!x)
		return NULL;
	da = calloc(V->cap + 1, sizeof(slong));
	db = calloc(V->cap + 1, sizeof(slong));
	if (!da || !db) {
		free(da);
		free(db);
		fml_node_free(V, x);
		return NULL;
	}
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
	if ((shift_a && mpoly_shift(x->num, da, V) < 0) ||
	    (shift_b && mpoly_shift(t, db, V) < 0)) {
		fmpq_mpoly_clear(t, V->ctx);
		free(da);
		free(db);
		fml_node_free(V, x);
		return NULL;
	}
	if (negate_b)
		fmpq_mpoly_sub(x->num, x->num, t, V->ctx);
	else
		fmpq_mpoly_add(x->num, x->num, t, V->ctx);
	fmpq_mpoly_clear(t, V->ctx);
	free(da);
	free(db);
	if (fml_poly_normalize(V, x) < 0) {
		fml_node_free(V, x);
		return NULL;
	}
	return x;
}

bool fml_poly_is_constant(const struct fvars *V, const struct fnode *x)
{
	if (x->kind != FK_POLY || !fmpq_mpoly_is_fmpq(x->num, V->ctx))
		return false;
	for (slong i = 0; i < V->n; i++)
		if (x->den[i] > 0)
			return false;
	return true;
}

/* Whether X is a rational constant: a polynomial node with a constant
 * numerator and no denominator (2/b is not one: times max(a, -a) it is no
 * factor to drop where it is 1, nor of the max's sign). */
static int poly_is_fmpq(const struct fvars *V, const struct fnode *x)
{
	return fml_poly_is_constant(V, x);
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

/* Whether A and B are the same expression: fml_node_cmp(V, A, B) == 0, with
 * the numerators compared first (they tell most atoms apart at once, where
 * the denominators take a pass over every variable of the ring: a formula
 * of 1000 floors looks each new one up among the others). */
int fml_node_equal(const struct fvars *V, const struct fnode *a, const struct fnode *b)
{
	slong i;

	if (a->kind != b->kind)
		return 0;
	if (a->kind == FK_POLY) {
		if (!fmpq_mpoly_equal(a->num, b->num, V->ctx))
			return 0;
		for (i = 0; i < V->cap; i++)
			if (a->den[i] != b->den[i])
				return 0;
		return 1;
	}
	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!fml_node_equal(V, a->c[i], b->c[i]))
			return 0;
	return 1;
}

/* A growable list of child nodes. */
struct nlist {
	struct fnode **c;
	int n, size;
};

/* Appends X (taken); a NULL X (a node that could not be made) fails, so
 * that a caller may push what a constructor returns. */
static int nlist_push(struct nlist *l, struct fnode *x)
{
	if (!x)
		return -1;
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

/* Moves X, or X's children when X is of KIND, into L (X is taken: what
 * could not be moved is freed). */
static int nlist_flatten(const struct fvars *V, struct nlist *l, struct fnode *x,
			 enum fkind kind)
{
	int i, j;

	if (x->kind != kind) {
		if (nlist_push(l, x) < 0) {
			fml_node_free(V, x);
			return -1;
		}
		return 0;
	}
	for (i = 0; i < x->n; i++)
		if (nlist_push(l, x->c[i]) < 0) {
			/* the children pushed are L's now */
			for (j = 0; j < i; j++)
				x->c[j] = NULL;
			fml_node_free(V, x);
			return -1;
		}
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
	for (i = 0; i < x->n; i++) {
		struct fnode *y = i != found ? fml_node_copy(V, x->c[i]) : NULL;
		if (i != found && nlist_push(&l, y) < 0) {
			fml_node_free(V, y);
			nlist_clear(V, &l);
			return NULL;
		}
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
			if (!used[j] && fml_node_equal(V, core[i], core[j])) {
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
			struct fnode *k = fml_poly_fmpq(V, coef + i);
			if (nlist_push(&m, k) < 0) {
				fml_node_free(V, k);
				goto done;
			}
			if (nlist_push(&m, core[i]) < 0) {
				nlist_clear(V, &m);
				goto done;
			}
			core[i] = NULL;
			t = nlist_finish(V, &m, FK_MUL);
		}
		if (!t || nlist_push(&res, t) < 0) {
			fml_node_free(V, t);
			goto done;
		}
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
	if (nlist_flatten(V, &in, a, kind) < 0) {
		fml_node_free(V, b);
		goto error;
	}
	if (nlist_flatten(V, &in, b, kind) < 0)
		goto error;
	poly = mul ? fml_poly_si(V, 1) : fml_poly_zero(V);
	if (!poly)
		goto error;
	for (i = 0; i < in.n; i++) {
		struct fnode *x = in.c[i];
		if (x->kind == FK_POLY) {
			struct fnode *t = mul ? poly_mul(V, poly, x) : fml_poly_add(V, poly, x, 0);
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
	if (nlist_flatten(V, &l, a, kind) < 0) {
		fml_node_free(V, b);
		nlist_clear(V, &l);
		return NULL;
	}
	if (nlist_flatten(V, &l, b, kind) < 0) {
		nlist_clear(V, &l);
		return NULL;
	}
	for (i = 0; i < l.n; i++) {
		for (j = i + 1; j < l.n; j++) {
			int drop = -1; /* index to drop */
			if (fml_node_equal(V, l.c[i], l.c[j])) {
				drop = j;
			} else if (l.c[i]->kind == FK_POLY && l.c[j]->kind == FK_POLY) {
				struct fnode *d = fml_poly_add(V, l.c[i], l.c[j], 1);
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
		inv = fml_node_alloc(V, FK_POLY);
		if (!inv)
			return NULL;
		e = calloc(V->cap + 1, sizeof(slong));
		u = calloc(V->cap + 1, sizeof(ulong));
		if (!e || !u) {
			free(e);
			free(u);
			fml_node_free(V, inv);
			return NULL;
		}
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
		if (fml_poly_normalize(V, inv) < 0) {
			fml_node_free(V, inv);
			return NULL;
		}
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
	if (!e || !u) {
		free(e);
		free(u);
		fml_node_free(V, ipart);
		fml_node_free(V, rest);
		fml_node_free(V, arg);
		return NULL;
	}
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
	fml_node_free(V, arg);
	if (fml_poly_normalize(V, rest) < 0) {
		fml_node_free(V, ipart);
		fml_node_free(V, rest);
		return NULL;
	}
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
