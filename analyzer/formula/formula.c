/* Exact symbolic values: formulas, their construction and their algebra.  A
 * binary operation translates both operands into one new ring and combines
 * their pieces pairwise; floor and powers map each piece.  See
 * formula_internal.h for the representation.  The rest is in the other
 * formula*.c files: rings in formula_ring.c, the values in a ring in
 * formula_node.c, restriction, gist and coalescing in formula_coalesce.c,
 * signs on a condition in formula_sign.c, substitution in formula_subst.c, the conversion from ISL in formula_isl.c,
 * evaluation and parameters in formula_eval.c, printing in formula_print.c,
 * the machine grammar in formula_parse.c and the identity test in
 * formula_equal.c. */
#include <stdlib.h>
#include <string.h>

#include <isl/val.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/coalesce.h"
#include "analyzer/util/val.h"

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

isl_ctx *formula_get_ctx(const struct formula *f)
{
	for (int i = 0; f && i < f->n; i++)
		if (f->p[i].cond)
			return isl_set_get_ctx(f->p[i].cond);
	return NULL;
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
	isl_set_free(f->apart_in);
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
	g->typical = f->typical;
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

int formula_typical_first(struct formula *f, const char *const names[], const long long values[],
			  int n)
{
	if (!f || f->n < 2)
		return -1;
	/* the one piece that holds there: none when the point leaves the
	 * choice to a parameter it does not give (a loop's variable) */
	int at = -1;
	for (int i = 0; i < f->n; i++) {
		int h = f->p[i].cond ? fml_cond_contains(f->p[i].cond, names, values, n, true) : 1;
		if (h < 0)
			return -2;
		if (h && at >= 0)
			return -1;
		if (h)
			at = i;
	}
	if (at < 0)
		return -1;
	/* disjoint from every piece before it: the first that applies stays
	 * the one that applies everywhere */
	for (int k = 0; k < at; k++) {
		if (!f->p[at].cond || !f->p[k].cond)
			return -1;
		isl_bool d = isl_set_is_disjoint(f->p[at].cond, f->p[k].cond);
		if (d < 0)
			return -2;
		if (!d)
			return -1;
	}
	struct fpiece typical = f->p[at];
	memmove(&f->p[1], &f->p[0], (size_t)at * sizeof(*f->p));
	f->p[0] = typical;
	f->typical = true;
	return at;
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
	fml_val_to_fmpq(c, value);
	struct fnode *x = fml_poly_fmpq(V, c);
	fmpq_clear(c);
	return single(V, x);
}

struct formula *formula_param(const char *name)
{
	if (!name)
		return NULL;
	struct fvars *V = fml_vars_new(1);
	slong i;

	if (!V)
		return NULL;
	i = fml_vars_param(V, name);
	return single(V, i < 0 ? NULL : fml_poly_var(V, i));
}

/* Appends a piece (COND and VAL taken; an empty COND drops the piece). */
int fml_push_piece(struct formula *f, int *size, __isl_take isl_set *cond, struct fnode *val)
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
			cond = coalesce_set(isl_set_compute_divs(cond));
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
__isl_give isl_set *fml_cond_meet(__isl_keep isl_set *a, __isl_keep isl_set *b)
{
	if (!a)
		return b ? isl_set_copy(b) : NULL;
	if (!b)
		return isl_set_copy(a);
	return isl_set_intersect(isl_set_copy(a), isl_set_copy(b));
}

/* Where none of F's pieces applies; *NONE is set when that is nowhere.  NULL
 * with *NONE clear means everywhere (F has no pieces). */
static __isl_give isl_set *complement(const struct formula *f, int *none, int *error)
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
	u = coalesce_set(u);
	c = isl_set_subtract(isl_set_universe(isl_set_get_space(u)), u);
	c = coalesce_set(c);
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

int formula_covers(const struct formula *f, const struct formula *g)
{
	if (!f || !g)
		return -1;
	bool everywhere = g->outside == FORMULA_ZERO_OUTSIDE; /* G's value */
	if (f->outside == FORMULA_ZERO_OUTSIDE || (g->n == 0 && !everywhere))
		return 1;
	int none, error;
	isl_set *gap = complement(f, &none, &error);
	if (error) {
		isl_set_free(gap);
		return -1;
	}
	if (none)
		return 1;   /* F holds everywhere */
	if (!gap || everywhere) {
		isl_set_free(gap);   /* F has no piece, or a gap where G is 0 */
		return 0;
	}
	int r = 1;
	for (int i = 0; i < g->n && r == 1; i++) {
		if (!g->p[i].cond) {
			r = 0;
			break;
		}
		isl_set *c = isl_set_align_params(isl_set_copy(g->p[i].cond),
						  isl_set_get_space(gap));
		isl_set *in = isl_set_intersect(isl_set_align_params(isl_set_copy(gap),
								     isl_set_get_space(c)), c);
		isl_bool empty = isl_set_is_empty(in);
		isl_set_free(in);
		r = empty < 0 ? -1 : empty == isl_bool_true;
	}
	isl_set_free(gap);
	return r;
}

void fml_plist_free(const struct fvars *T, struct fplist *l)
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

int fml_plist_make(struct fplist *l, const struct formula *f, const struct fvars *T,
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
		l->val[i] = fml_translate(f->vars, f->p[i].val, T, vmap);
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
	    (A && fml_vars_import(T, A, *vmapA) < 0) ||
	    (B && fml_vars_import(T, B, *vmapB) < 0)) {
		if (T) {
			fml_vmap_free(T, *vmapA, A ? A->n : 0);
			fml_vmap_free(T, *vmapB, B ? B->n : 0);
		} else {
			/* no ring (past FML_MAX_VARS): the maps hold nothing yet */
			free(*vmapA);
			free(*vmapB);
		}
		*vmapA = *vmapB = NULL;
		fml_vars_unref(T);
		return NULL;
	}
	return T;
}

bool formula_pair_too_large(const struct formula *a, const struct formula *b)
{
	/* merge_rings makes room for both rings before merging their atoms */
	return a && b && a->vars->n + b->vars->n > FML_MAX_VARS;
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

/* Whether F's pieces are pairwise disjoint everywhere: one piece or none
 * (with, zero outside, the rest of the space, disjoint from it). */
static bool apart_everywhere(const struct formula *f)
{
	return f->n <= 1;
}

/* The set on which the meets of A's pieces (and of its zero elsewhere, for
 * a zero outside) with B's, as binop forms them, are pairwise disjoint:
 * where both operands' pieces are (formula.apart_in); NULL when that is not
 * known, or for two operands of one piece each (three meets at most:
 * nothing to gain). */
static __isl_give isl_set *apart_of_meets(const struct formula *a, const struct formula *b)
{
	if (apart_everywhere(a))
		return b->apart_in ? isl_set_copy(b->apart_in) : NULL;
	if (apart_everywhere(b) || !b->apart_in)
		return a->apart_in && apart_everywhere(b) ? isl_set_copy(a->apart_in) : NULL;
	if (!a->apart_in)
		return NULL;
	if (isl_set_plain_is_equal(a->apart_in, b->apart_in) == isl_bool_true)
		return isl_set_copy(a->apart_in);
	return isl_set_intersect(isl_set_copy(a->apart_in), isl_set_copy(b->apart_in));
}

static struct formula *binop(const struct formula *a, const struct formula *b,
	enum binop op)
{
	struct fnode **va, **vb;
	struct fvars *T;
	struct fplist la, lb;
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
	if (fml_plist_make(&la, a, T, va) < 0 || fml_plist_make(&lb, b, T, vb) < 0)
		goto done;
	T->refs++;
	r = fml_formula_alloc(T, 0);
	if (!r)
		goto done;
	free(r->p);
	r->p = NULL;
	for (i = 0; op == OP_JOIN && i < la.n + lb.n; i++) {
		struct fplist *l = i < la.n ? &la : &lb;
		int k = i < la.n ? i : i - la.n;
		if (l->is_zero_fill[k])
			continue; /* the pieces themselves, not the zero elsewhere */
		if (fml_push_piece(r, &size, l->cond[k] ? isl_set_copy(l->cond[k]) : NULL,
			fml_node_copy(T, l->val[k])) < 0)
			goto done;
	}
	for (i = 0; op != OP_JOIN && i < la.n; i++)
		for (j = 0; j < lb.n; j++) {
			if (la.is_zero_fill[i] && lb.is_zero_fill[j])
				continue;
			if (fml_push_piece(r, &size, fml_cond_meet(la.cond[i], lb.cond[j]),
				apply(T, op, fml_node_copy(T, la.val[i]),
					fml_node_copy(T, lb.val[j]))) < 0)
				goto done;
		}
	r->outside = op != OP_JOIN && a->outside == FORMULA_ZERO_OUTSIDE &&
		b->outside == FORMULA_ZERO_OUTSIDE ?
		FORMULA_ZERO_OUTSIDE : FORMULA_UNDEFINED_OUTSIDE;
	if (op != OP_JOIN)
		r->apart_in = apart_of_meets(a, b);
	ok = 1;
done:
	fml_plist_free(T, &la);
	fml_plist_free(T, &lb);
	fml_vmap_free(T, va, a->vars->n);
	fml_vmap_free(T, vb, b->vars->n);
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
	if (!vm || fml_vars_import(T, f->vars, vm) < 0)
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
		struct fnode *v = fml_translate(f->vars, f->p[i].val, T, vm), *w;
		if (!v)
			goto done;
		if (floor) {
			w = fml_floor_take(T, v);
		} else {
			w = fml_pow(T, v, k);
			fml_node_free(T, v);
		}
		if (fml_push_piece(r, &size, f->p[i].cond ? isl_set_copy(f->p[i].cond) : NULL,
			w) < 0)
			goto done;
	}
	ok = 1;
done:
	fml_vmap_free(T, vm, f->vars->n);
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

struct formula *formula_floor(const struct formula *a)
{
	return a ? fml_formula_floor(a) : NULL;
}

struct formula *formula_pow(const struct formula *a, long k)
{
	return a ? fml_formula_pow(a, (slong)k) : NULL;
}
