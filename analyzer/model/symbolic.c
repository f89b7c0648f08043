/* Relations on a symbolic grid (see symbolic.h for the idea and its limits),
 * built by position.
 *
 * Why this file is long: digits, carries, conditions and predicates are one
 * construction over one state (struct sym and the relation being built);
 * the concrete and every-value grids, simpler, are relations.c.
 *
 * For each relation (a read, a term of work, an array's ownership) every variable
 * gets at most one decomposition: the distribution of a distributed dimension it
 * subscripts (in the left-hand side, in the read array) or of a distribution
 * predicate it is the index of.  Its digits replace it; conditions on it become
 * conditions on the digits; a subscript v + c becomes digits with a carry.  A
 * read is the composition of its instances { [q] -> [digits] } with the element
 * each instance reads { [digits] -> [element digits] }.
 *
 * Everything is an ISL set built by position.  A relation under construction
 * (struct rel) is a set on the parameters [size parameters, axes, block
 * lengths] and the dimensions [its tuple, then existential digits]; both lists
 * grow as digits and block lengths are met, and every constraint is a linear
 * form (struct lin) over those positions, turned into an isl_aff on the
 * relation's current space.  No name is read: the user's names are only the
 * parameters' ids, and a block length gets a name no other parameter has. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "analyzer/model/symbolic.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/util/coalesce.h"
#include "analyzer/util/fail.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

/* The most terms a linear form of the construction may have. */
#define LIN_MAX 64

/* A linear form: constant + sum of coef * (parameter or dimension). */
struct lin_term {
	bool dim;         /* a dimension of the relation, else a parameter */
	int index;        /* params: size parameters, axes, block lengths */
	long long coef;
};
struct lin {
	long long constant;
	int n;
	struct lin_term t[LIN_MAX];
};

/* How one variable is written: plain (kind DIST_NONE) or as digits of dist d
 * over a dimension of extent EXTENT (EXTENT_TEXT for messages). */
struct decomp {
	struct dist d;
	const struct model_aff *extent;
	const char *extent_text;
	/* taken from a stride k*v (k here), before any subscript of v's own
	 * extent: a split of an extent k times v's, which such a subscript
	 * replaces (scaled_decomp) */
	long long stride;
};

/* A relation under construction: a set on [params] -> [dims]. */
struct rel {
	isl_set *set;
	int nparams;      /* the parameters it has: sizes, axes, then block lengths */
	int ndims;
};

/* The working state of one relation. */
struct sym {
	isl_ctx *ctx;
	const struct model *m;
	const struct model_candidate *c;
	struct symbolic_info *info;
	struct fail fail;   /* the first failure (analyzer/util/fail.h) */
	const struct model_space *space;   /* the current variables */
	struct decomp *dec; /* [nvars] */
	int *first;         /* [nvars] the dimension of each variable's first digit */
	struct rel *r;      /* the relation the constraints go to */
	struct inst_cache *cache;
	int step;           /* the superstep: its loops bound their variables */
};

/* The instance relations of one step, built once each: the reads of a
 * statement and its work usually share theirs (same statement, same space,
 * same decompositions). */
struct inst_entry {
	const struct model_stmt *st;
	const struct model_space *space;
	struct decomp *dec;          /* [space->nvars] */
	isl_map *map;                /* as built */
	isl_map *coalesced;          /* the same, coalesced (NULL until asked for) */
};
struct inst_cache {
	int n;
	struct inst_entry *e;
};

/* Array element structure in one step: per dimension, the decomposition used. */
struct elem_shape {
	bool set;
	struct decomp dim[MODEL_MAX_DIMS];
};

static int nvars(const struct sym *s)
{
	return s->space->nvars;
}

static const char *var_name(const struct sym *s, int v)
{
	return s->space->vars[v];
}

/* One block: the same constant, or the same size (cyclic(nb)). */
static bool same_block(const struct dist *a, const struct dist *b)
{
	return a->block_param == b->block_param && (a->block_param >= 0 || a->block == b->block);
}

static bool same_decomp(const struct decomp *a, const struct decomp *b)
{
	if (a->d.kind != b->d.kind)
		return false;
	if (a->d.kind == DIST_NONE)
		return true;
	return a->d.axis == b->d.axis && same_block(&a->d, &b->d) &&
	       model_aff_equal(a->extent, b->extent);
}

static const char *kind_name(const struct dist *d)
{
	return dist_ops(d->kind)->name;
}

/* ---- linear forms -------------------------------------------------------- */

static void lin_add(struct sym *s, struct lin *l, bool dim, int index, long long coef)
{
	if (coef == 0)
		return;
	for (int i = 0; i < l->n; i++)
		if (l->t[i].dim == dim && l->t[i].index == index) {
			if (__builtin_add_overflow(l->t[i].coef, coef, &l->t[i].coef))
				fail_set(&s->fail, FAIL_REFUSED, "a coefficient does not fit in 64 bits");
			return;
		}
	if (l->n == LIN_MAX) {
		fail_set(&s->fail, FAIL_REFUSED, "an affine expression has more than %d terms", LIN_MAX);
		return;
	}
	l->t[l->n++] = (struct lin_term){dim, index, coef};
}

static struct lin lin_const(long long c)
{
	struct lin l;
	l.constant = c;
	l.n = 0;
	return l;
}

static struct lin lin_dim(int d)
{
	struct lin l = lin_const(0);
	l.t[l.n++] = (struct lin_term){true, d, 1};
	return l;
}

static struct lin lin_par(int p)
{
	struct lin l = lin_const(0);
	l.t[l.n++] = (struct lin_term){false, p, 1};
	return l;
}

/* A + k*B */
static struct lin lin_comb(struct sym *s, const struct lin *a, long long k, const struct lin *b)
{
	struct lin r = *a;
	long long kc;
	if (__builtin_mul_overflow(k, b->constant, &kc) ||
	    __builtin_add_overflow(r.constant, kc, &r.constant))
		fail_set(&s->fail, FAIL_REFUSED, "a constant does not fit in 64 bits");
	for (int i = 0; i < b->n; i++) {
		long long c;
		if (__builtin_mul_overflow(k, b->t[i].coef, &c))
			fail_set(&s->fail, FAIL_REFUSED, "a coefficient does not fit in 64 bits");
		lin_add(s, &r, b->t[i].dim, b->t[i].index, c);
	}
	return r;
}

static struct lin lin_plus(struct sym *s, const struct lin *a, long long c)
{
	struct lin k = lin_const(c);
	return lin_comb(s, a, 1, &k);
}

/* The parameter position of axis A. */
static int axis_par(const struct sym *s, int a)
{
	return s->m->nparams + a;
}

/* A model form over parameters and axes (no variable) as a lin. */
static struct lin lin_of_params(struct sym *s, const struct model_aff *a)
{
	struct lin l = lin_const(a->constant);
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		if (t->kind == MODEL_VAR) {
			fail_set(&s->fail, FAIL_ERROR, "internal: a variable in a parameter expression");
			continue;
		}
		lin_add(s, &l, false, t->kind == MODEL_PARAM ? t->index : axis_par(s, t->index),
			t->coef);
	}
	return l;
}

/* K when extent A is K times extent B term by term (2*n and n: 2), K >= 2;
 * 0 otherwise.  Block lengths over one axis then satisfy L_A = K*L_B. */
static long long extent_ratio(const struct model_aff *a, const struct model_aff *b)
{
	if (a->nterms != b->nterms || b->nterms == 0 || a->terms[0].coef % b->terms[0].coef != 0)
		return 0;
	long long k = a->terms[0].coef / b->terms[0].coef, c;
	if (k < 2 || __builtin_mul_overflow(k, b->constant, &c) || c != a->constant)
		return 0;
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *x = &a->terms[i], *y = &b->terms[i];
		if (x->kind != y->kind || x->index != y->index ||
		    __builtin_mul_overflow(k, y->coef, &c) || c != x->coef)
			return 0;
	}
	return k;
}

/* The position, in the current space, of the variable with statement number
 * IDX; -1 if none. */
static int var_of(const struct sym *s, int idx)
{
	for (int v = 0; v < nvars(s); v++)
		if (s->space->vidx[v] == idx)
			return v;
	return -1;
}

/* A form of the model as coefficients of the current variables (VAR, indexed
 * by variable), parameters and axes (PAR) and a constant. */
struct vform {
	long long constant;
	long long var[LIN_MAX];
	struct lin par;   /* parameters and axes only */
	int nvars;
};

static int vform_of(struct sym *s, const struct model_aff *a, struct vform *out)
{
	memset(out->var, 0, sizeof(out->var));
	out->nvars = nvars(s);
	if (out->nvars > LIN_MAX) {
		fail_set(&s->fail, FAIL_REFUSED, "a statement has more than %d variables", LIN_MAX);
		return -1;
	}
	out->constant = a->constant;
	out->par = lin_const(0);
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		if (t->kind != MODEL_VAR) {
			lin_add(s, &out->par, false,
				t->kind == MODEL_PARAM ? t->index : axis_par(s, t->index), t->coef);
			continue;
		}
		int v = var_of(s, t->index);
		if (v < 0) {
			fail_set(&s->fail, FAIL_ERROR, "internal: a variable outside its space");
			return -1;
		}
		out->var[v] += t->coef;
	}
	return failed(&s->fail) ? -1 : 0;
}

/* F's one variable with no parameters (*COEF its coefficient): the
 * variable, -2 for a constant, -1 otherwise. */
static int vform_one_var(const struct vform *f, long long *coef)
{
	int var = -2;
	if (f->par.n)
		return -1;
	for (int v = 0; v < f->nvars; v++) {
		if (!f->var[v])
			continue;
		if (var != -2)
			return -1;
		var = v;
		*coef = f->var[v];
	}
	return var;
}

/* The single variable of F (coefficient 1) with no parameters: F = var + *c.
 * Returns the variable, -2 for a constant, -1 otherwise. */
static int vform_var_plus_const(const struct vform *f, long long *c)
{
	long long coef = 1;
	int var = vform_one_var(f, &coef);
	if (var == -1 || coef != 1)
		return -1;
	*c = f->constant;
	return var;
}

/* F as a variable plus a constant plus K times the extent X (K not 0): the
 * other case of a wrap, (i + 1) % n being i + 1 - n at i = n - 1 and
 * (i - 1 + n) % n being i - 1 + n at i = 0.  Returns the variable (*C and
 * *K set), or -1 when F is no such form. */
static int vform_var_wrapped(struct sym *s, const struct vform *f, const struct model_aff *extent,
			     long long *c, long long *k)
{
	struct vform v = *f;
	v.par = lin_const(0);
	int var = vform_var_plus_const(&v, c);
	if (var < 0 || f->par.n == 0 || !extent)
		return -1;
	struct lin x = lin_of_params(s, extent);
	if (failed(&s->fail) || x.n == 0 || x.constant != 0)
		return -1;
	/* F's parameters K * X: the ratio of a first term, checked on every one */
	long long kk = 0;
	for (int i = 0; i < f->par.n && kk == 0; i++)
		if (f->par.t[i].index == x.t[0].index && f->par.t[i].coef % x.t[0].coef == 0)
			kk = f->par.t[i].coef / x.t[0].coef;
	if (kk == 0)
		return -1;
	struct lin rest = lin_comb(s, &f->par, -kk, &x);
	for (int i = 0; i < rest.n; i++)
		if (rest.t[i].coef != 0)
			return -1;
	if (failed(&s->fail))
		return -1;
	*k = kk;
	return var;
}

/* The most a stride may multiply a split variable by (A[2*i], A[3*i + 1]):
 * its digits take (STRIDE_MAX + 2)^(digits - 1) carry cases. */
#define STRIDE_MAX 8

/* Whether stride A is more than the digits carry: the state then says so
 * of WHAT (a "subscript" or "condition") TEXT. */
static bool stride_too_large(struct sym *s, long long a, const char *what, const char *text)
{
	if (a <= STRIDE_MAX)
		return false;
	fail_set(&s->fail, FAIL_REFUSED,
		 "the %s '%s' multiplies a distributed variable by %lld, more than the symbolic "
		 "grid's digits carry (%d): --grid or -D count it", what, text, a, STRIDE_MAX);
	return true;
}

/* F as A times a variable plus a constant, A >= 2 (a stride) or A <= -2 (its
 * bound in a condition): the variable (*A and *C set), or -1. */
static int vform_var_strided(const struct vform *f, long long *a, long long *c)
{
	long long coef = 0;
	int var = vform_one_var(f, &coef);
	if (var < 0 || coef == 1 || coef == -1)
		return -1;
	*a = coef;
	*c = f->constant;
	return var;
}

/* ---- relations under construction --------------------------------------- */

static int npar_fixed(const struct sym *s)
{
	return s->m->nparams + s->m->naxes;
}

/* The name of block length L: a readable one when the extent is one
 * parameter (m over M is m__M), made unique among every parameter. */
static __isl_give isl_id *local_id(const struct sym *s, int l)
{
	return isl_id_alloc(s->ctx, s->info->locals[l].name, NULL);
}

/* Gives R every block length known so far. */
static void rel_sync(struct sym *s, struct rel *r)
{
	int want = npar_fixed(s) + s->info->nlocals;
	if (r->nparams >= want || !r->set)
		return;
	int n = want - r->nparams;
	r->set = isl_set_add_dims(r->set, isl_dim_param, (unsigned)n);
	for (int l = r->nparams - npar_fixed(s); l < s->info->nlocals && r->set; l++)
		r->set = isl_set_set_dim_id(r->set, isl_dim_param, (unsigned)(npar_fixed(s) + l),
					    local_id(s, l));
	r->nparams = want;
	if (!r->set)
		fail_isl(&s->fail, s->ctx, "adding a block length");
}

static void rel_init(struct sym *s, struct rel *r, int ndims)
{
	isl_space *p = model_param_space(s->ctx, s->m, true);
	r->set = isl_set_universe(isl_space_add_dims(isl_space_set_from_params(p), isl_dim_set,
						     (unsigned)ndims));
	r->nparams = npar_fixed(s);
	r->ndims = ndims;
	if (!r->set)
		fail_isl(&s->fail, s->ctx, "creating a relation");
	rel_sync(s, r);
}

/* Adds N dimensions to R; returns the first. */
static int rel_add_dims(struct sym *s, struct rel *r, int n)
{
	int first = r->ndims;
	if (r->set)
		r->set = isl_set_add_dims(r->set, isl_dim_set, (unsigned)n);
	if (!r->set)
		fail_isl(&s->fail, s->ctx, "adding dimensions");
	r->ndims += n;
	return first;
}

/* N new dimensions of the relation under construction (s->r), their forms
 * into OUT: the digits of a number a relation writes out. */
static void new_dims(struct sym *s, int n, struct lin out[])
{
	int first = rel_add_dims(s, s->r, n);
	for (int k = 0; k < n; k++)
		out[k] = lin_dim(first + k);
}

/* L as an affine form on R's space. */
static __isl_give isl_aff *rel_aff(struct sym *s, struct rel *r, const struct lin *l)
{
	rel_sync(s, r);
	if (!r->set)
		return NULL;
	isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_set_get_space(r->set)));
	a = isl_aff_set_constant_val(a, isl_val_int_from_si(s->ctx, 0));
	for (int i = 0; i < l->n && a; i++) {
		const struct lin_term *t = &l->t[i];
		isl_val *v = isl_val_int_from_si(s->ctx, (long)t->coef);
		a = isl_aff_set_coefficient_val(a, t->dim ? isl_dim_in : isl_dim_param,
						t->index, v);
	}
	if (a)
		a = isl_aff_add_constant_val(a, isl_val_int_from_si(s->ctx, (long)l->constant));
	return a;
}

/* The set where L >= 0 (or L = 0 when EQ), on R's space. */
static __isl_give isl_set *lin_set(struct sym *s, struct rel *r, const struct lin *l, bool eq)
{
	isl_aff *a = rel_aff(s, r, l);
	if (!a)
		return NULL;
	if (eq)
		return isl_set_from_basic_set(isl_aff_zero_basic_set(a));
	isl_aff *z = isl_aff_zero_on_domain(isl_local_space_from_space(isl_aff_get_domain_space(a)));
	return isl_aff_ge_set(a, z);
}

/* A conjunction of constraints being written, to be added to a relation or
 * to be one case of a disjunction. */
struct conj {
	isl_set *set;
};

static void conj_init(struct sym *s, struct conj *c)
{
	rel_sync(s, s->r);
	c->set = s->r->set ? isl_set_universe(isl_set_get_space(s->r->set)) : NULL;
}

/* C and L >= 0 (EQ: L = 0). */
static void conj_add(struct sym *s, struct conj *c, const struct lin *l, bool eq)
{
	if (!c->set)
		return;
	isl_set *piece = lin_set(s, s->r, l, eq);
	/* a block length met while writing L is a parameter C lacks */
	c->set = isl_set_intersect(isl_set_align_params(c->set, isl_set_get_space(s->r->set)), piece);
}

/* A >= B (A - B >= 0) */
static void conj_ge(struct sym *s, struct conj *c, const struct lin *a, const struct lin *b)
{
	struct lin d = lin_comb(s, a, -1, b);
	conj_add(s, c, &d, false);
}

static void conj_eq(struct sym *s, struct conj *c, const struct lin *a, const struct lin *b)
{
	struct lin d = lin_comb(s, a, -1, b);
	conj_add(s, c, &d, true);
}

/* A < B (B - A - 1 >= 0) */
static void conj_lt(struct sym *s, struct conj *c, const struct lin *a, const struct lin *b)
{
	struct lin d = lin_comb(s, b, -1, a);
	d = lin_plus(s, &d, -1);
	conj_add(s, c, &d, false);
}

/* C is false. */
static void conj_false(struct conj *c)
{
	if (!c->set)
		return;
	isl_space *sp = isl_set_get_space(c->set);
	isl_set_free(c->set);
	c->set = isl_set_empty(sp);
}

/* Adds C (taken) to the relation. */
static void rel_and(struct sym *s, struct conj *c)
{
	struct rel *r = s->r;
	rel_sync(s, r);
	if (!c->set || !r->set) {
		isl_set_free(c->set);
		c->set = NULL;
		r->set = isl_set_free(r->set);
		fail_isl(&s->fail, s->ctx, "building a relation");
		return;
	}
	r->set = isl_set_intersect(r->set, isl_set_align_params(c->set, isl_set_get_space(r->set)));
	c->set = NULL;
}

/* One case of a disjunction: OR |= C (C taken). */
static void conj_or(struct sym *s, struct conj *or, struct conj *c)
{
	if (!or->set || !c->set) {
		isl_set_free(or->set);
		isl_set_free(c->set);
		or->set = c->set = NULL;
		fail_isl(&s->fail, s->ctx, "building a relation");
		return;
	}
	rel_sync(s, s->r);
	isl_space *sp = isl_set_get_space(s->r->set);
	or->set = isl_set_union(isl_set_align_params(or->set, isl_space_copy(sp)),
				isl_set_align_params(c->set, sp));
	c->set = NULL;
}

/* An empty disjunction, to be grown by conj_or. */
static void disj_init(struct sym *s, struct conj *c)
{
	rel_sync(s, s->r);
	c->set = s->r->set ? isl_set_empty(isl_set_get_space(s->r->set)) : NULL;
}

/* ---- decompositions ------------------------------------------------------ */

static bool axes_equal(struct sym *s, int a, int b);
static bool extents_equal(struct sym *s, const struct model_aff *a, const struct model_aff *b);

/* Whether A and B write a number with the same digits: the same
 * decomposition, or one over an axis and an extent the assumptions make
 * equal (a transpose on a square grid, M == N: block over M and block over N
 * are one split). */
/* Whether A and B are the same split but perhaps for the axis: one kind,
 * block and extent (under the assumptions). */
static bool same_but_axis(struct sym *s, const struct decomp *a, const struct decomp *b)
{
	return a->d.kind == b->d.kind && a->d.kind != DIST_NONE && same_block(&a->d, &b->d) &&
	       extents_equal(s, a->extent, b->extent);
}

static bool equivalent_decomp(struct sym *s, const struct decomp *a, const struct decomp *b)
{
	return same_decomp(a, b) ||
	       (same_but_axis(s, a, b) && axes_equal(s, a->d.axis, b->d.axis));
}

/* " (on a square grid, assume M == N, ...)" for A and B, the same split
 * over two axes the assumptions do not make equal (one split on a square
 * grid); "" otherwise.  Never NULL. */
static char *square_hint(struct sym *s, const struct decomp *a, const struct decomp *b)
{
	char *h = NULL;
	if (same_but_axis(s, a, b) && !axes_equal(s, a->d.axis, b->d.axis) &&
	    asprintf(&h, " (on a square grid, assume %s == %s, the two are one split)",
		     s->m->axes[a->d.axis], s->m->axes[b->d.axis]) < 0)
		h = NULL;
	return h ? h : strdup("");
}

/* Whether BIG splits an extent K times SMALL's as SMALL does (same kind,
 * axis and blocks): a stride K*v into BIG of a v split by SMALL. */
static bool scaled_decomp(struct sym *s, const struct decomp *big, const struct decomp *small,
			  long long k)
{
	return big->d.kind == small->d.kind && big->d.kind != DIST_NONE &&
	       axes_equal(s, big->d.axis, small->d.axis) && same_block(&big->d, &small->d) &&
	       big->extent && small->extent && extent_ratio(big->extent, small->extent) == k;
}

/* BIG's split of an extent that is 1/K of BIG's and some array's (B[n] for
 * A[2*n] and K = 2) into *OUT: the split a variable strided by K into BIG
 * takes, so that its bounds compare with its own extent.  False if no
 * array has such an extent. */
static bool unscaled_decomp(const struct sym *s, const struct decomp *big, long long k,
			    struct decomp *out)
{
	for (int a = 0; a < s->m->narrays; a++)
		for (int d = 0; d < s->m->arrays[a].ndims; d++)
			if (extent_ratio(big->extent, &s->m->arrays[a].extent_affs[d]) == k) {
				*out = (struct decomp){big->d, &s->m->arrays[a].extent_affs[d],
						       s->m->arrays[a].extents[d], 0};
				return true;
			}
	return false;
}

static void assign(struct sym *s, int v, const struct decomp *want, const char *where)
{
	struct decomp *have = &s->dec[v];
	if (have->d.kind == DIST_NONE) {
		*have = *want;
		return;
	}
	if (equivalent_decomp(s, have, want))
		return;
	if (have->stride >= 2 && scaled_decomp(s, have, want, have->stride)) {
		/* A[2*i] = B[i]: i is B's, and the stride into A scales it */
		*have = *want;
		have->stride = 0;
		return;
	}
	char *hint = square_hint(s, have, want);
	const struct digits *dg = &dist_ops(have->d.kind)->digits;
	/* the owner a remainder (cyclic, cyclic(b)): whatever the extents */
	if (have->d.kind == want->d.kind && same_block(&have->d, &want->d) && dg->owner > 0 &&
	    !axes_equal(s, have->d.axis, want->d.axis)) {
		/* dealt round over both axes (cyclic, cyclic(b)): the
		 * coordinates are remainders, by the Chinese remainder
		 * theorem a pair of them holds a common index only where
		 * they agree modulo gcd(P, Q), and the counts change with
		 * whether P and Q are coprime: no piecewise quasi-polynomial
		 * in P and Q writes them (bspcost(1), "common factors") */
		const char *p = s->m->axes[have->d.axis], *q = s->m->axes[want->d.axis];
		fail_set(&s->fail, FAIL_REFUSED,
			 "%s is split both %s over %s (extent %s) and %s over %s (extent %s)%s in "
			 "one relation: "
			 "the coordinates that hold an index are %s by %s and by %s, and two "
			 "coordinates hold one in common only where they agree modulo gcd(%s, %s); "
			 "the counts change with the common factors of %s and %s, which no "
			 "formula in pieces of %s and %s can write (whether two axes are coprime "
			 "is no condition of inequalities and remainders)%s",
			 var_name(s, v), kind_name(&have->d), p, have->extent_text,
			 kind_name(&want->d), q, want->extent_text, where,
			 dg->n > 2 ? "the remainders of its block's number" : "its remainders", p,
			 q, p, q, p, q, p, q, hint ? hint : "");
		free(hint);
		return;
	}
	fail_set(&s->fail, FAIL_REFUSED,
		 "%s is split both %s over %s (extent %s) and %s over %s (extent %s)%s in one "
		 "relation, which has no affine form over a symbolic grid%s",
		 var_name(s, v), kind_name(&have->d), s->m->axes[have->d.axis],
		 have->extent_text, kind_name(&want->d), s->m->axes[want->d.axis],
		 want->extent_text, where, hint ? hint : "");
	free(hint);
}

/* SUB as variable + *C: the variable, -2 for a constant, -1 for anything else,
 * -3 when SUB could not be read (the state says why). */
static int sub_var_plus_const(struct sym *s, const struct model_aff *sub, long long *c)
{
	struct vform f;
	if (vform_of(s, sub, &f) < 0)
		return -3;
	return vform_var_plus_const(&f, c);
}

/* assign with " (in ARRAY)" as where, for messages. */
static void assign_in(struct sym *s, int v, const struct decomp *d, const char *array)
{
	char *where = NULL;
	if (asprintf(&where, " (in %s)", array) < 0) {
		fail_nomem(&s->fail);
		return;
	}
	assign(s, v, d, where);
	free(where);
}

/* Assigns the decomposition a distributed dimension imposes on its subscript
 * (SUB, SUB_TEXT for messages). */
static void assign_from_sub(struct sym *s, const struct model_aff *sub, const char *sub_text,
			    const struct decomp *d, const char *array)
{
	if (d->d.kind == DIST_NONE || failed(&s->fail))
		return;
	long long c = 0;
	int v = sub_var_plus_const(s, sub, &c);
	if (v == -3)
		return;
	if (v == -1) {
		struct vform f;
		if (vform_of(s, sub, &f) < 0)
			return;
		/* one digit (identity): the subscript is its own owner, whatever
		 * its form (sub_digits checks that its variables are whole) */
		if (d->d.kind != DIST_NONE && dist_ops(d->d.kind)->digits.n == 1)
			return;
		/* a wrap, v + c -+ X: v's digits, the top one moved by X's; a
		 * stride a*v + c: v's digits times a, carried */
		long long k = 0;
		int w = vform_var_wrapped(s, &f, d->extent, &c, &k);
		int sv = w < 0 ? vform_var_strided(&f, &k, &c) : -1;
		if (sv >= 0 && k > 0) {
			w = sv;
			/* into an array of K times the extent, split the same
			 * way: the variable keeps its own split */
			if (scaled_decomp(s, d, &s->dec[w], k))
				return;
			/* the first split of the variable: that of its own
			 * extent, where an array has one (A[2*i] = B[i]) */
			struct decomp own;
			if (s->dec[w].d.kind == DIST_NONE && unscaled_decomp(s, d, k, &own)) {
				s->dec[w] = own;
				return;
			}
			if (s->dec[w].d.kind == DIST_NONE) {
				assign_in(s, w, d, array);
				s->dec[w].stride = k;
				return;
			}
		}
		if (w >= 0) {
			assign_in(s, w, d, array);
			return;
		}
		for (int u = 0; u < f.nvars; u++)
			if (f.var[u]) {
				fail_set(&s->fail, FAIL_REFUSED,
					 "the subscript '%s' of %s is neither a variable plus a constant "
					 "nor an expression of the sizes in a distributed dimension",
					 sub_text, array);
				return;
			}
		return; /* of the sizes only: its own digits (sub_digits) */
	}
	if (v >= 0)
		assign_in(s, v, d, array);
}

static struct decomp layout_decomp(const struct sym *s, int array, int d)
{
	const struct model_array *arr = &s->m->arrays[array];
	struct dist dd = s->c->layout[array][d];
	/* replicated: the index is whole on every holder, not split
	 * (replicated_over places the holders) */
	if (dist_ops(dd.kind)->replicated)
		dd = (struct dist){DIST_NONE, -1, 0, -1};
	/* block or cyclic of an extent that is the axis's size (r[P] over P):
	 * index i on coordinate i, the identity, whose one digit takes any
	 * affine subscript (r[i - s]) */
	if (model_dist_is_identity(&dd, &arr->extent_affs[d]))
		dd.kind = DIST_IDENTITY;
	return (struct decomp){dd, &arr->extent_affs[d], arr->extents[d], 0};
}

static struct decomp pred_decomp(const struct sym *s, int dist)
{
	const struct model_aff *ext = &s->m->dist_extent_affs[dist];
	const char *text = s->m->dist_extents[dist];
	/* cost_candidate refuses a candidate without one first */
	model_pred_extent(s->m, s->c, dist, &ext, &text);
	return (struct decomp){s->c->named[dist], ext, text, 0};
}

/* ---- digits ------------------------------------------------------------- */

bool symbolic_name_taken(const struct model *m, const struct symbolic_info *info,
			 const char *name)
{
	for (int p = 0; p < m->nparams; p++)
		if (strcmp(m->params[p], name) == 0)
			return true;
	for (int a = 0; a < m->naxes; a++)
		if (strcmp(m->axes[a], name) == 0)
			return true;
	for (int l = 0; info && l < info->nlocals; l++)
		if (strcmp(info->locals[l].name, name) == 0)
			return true;
	/* the cost's own symbols */
	return strcmp(name, "g") == 0 || strcmp(name, "l") == 0;
}

static bool name_taken(const struct sym *s, const char *name)
{
	return symbolic_name_taken(s->m, s->info, name);
}

/* Whether the assumptions make A and B (forms of the sizes and axes, by
 * position) equal. */
static bool equal_under_assumptions(struct sym *s, const struct lin *a, const struct lin *b)
{
	isl_set *valid = model_valid_set(s->ctx, s->m);
	if (!valid) {
		fail_isl(&s->fail, s->ctx, "comparing two sizes");
		return false;
	}
	struct lin d = lin_comb(s, a, -1, b);
	isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(valid));
	isl_constraint *c = isl_constraint_alloc_equality(ls);
	for (int i = 0; i < d.n; i++)
		c = isl_constraint_set_coefficient_val(c, isl_dim_param, d.t[i].index,
						       isl_val_int_from_si(s->ctx, (long)d.t[i].coef));
	c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, (long)d.constant));
	isl_set *eq = isl_set_add_constraint(isl_set_universe(isl_set_get_space(valid)), c);
	isl_bool sub = isl_set_is_subset(valid, eq);
	isl_set_free(valid);
	isl_set_free(eq);
	if (sub < 0)
		fail_isl(&s->fail, s->ctx, "comparing two sizes");
	return sub == isl_bool_true;
}

/* Whether the assumptions make axes A and B the same size (R == Q for
 * Cannon's square grid): their block lengths and digits are then shared. */
static bool axes_equal(struct sym *s, int a, int b)
{
	if (a == b)
		return true;
	if (s->info && s->info->fixed && s->info->fixed[a] == s->info->fixed[b])
		return true;
	struct lin la = lin_par(axis_par(s, a)), lb = lin_par(axis_par(s, b));
	return equal_under_assumptions(s, &la, &lb);
}

/* Whether extents A and B are the same under the assumptions. */
static bool extents_equal(struct sym *s, const struct model_aff *a, const struct model_aff *b)
{
	if (model_aff_equal(a, b))
		return true;
	for (int i = 0; i < a->nterms; i++)
		if (a->terms[i].kind == MODEL_VAR)
			return false;
	for (int i = 0; i < b->nterms; i++)
		if (b->terms[i].kind == MODEL_VAR)
			return false;
	struct lin la = lin_of_params(s, a), lb = lin_of_params(s, b);
	return equal_under_assumptions(s, &la, &lb);
}

/* The block length (a parameter) of D's extent over its axis in blocks of
 * BLOCK, or of the size BLOCK_PARAM when that is not -1: its index in
 * info->locals, created if new (shared with an axis the assumptions make
 * equal); -1 on failure. */
static int local_param(struct sym *s, const struct decomp *d, long block, int block_param)
{
	struct symbolic_info *info = s->info;
	int axis = d->d.axis;
	for (int l = 0; l < info->nlocals; l++)
		if (info->locals[l].digit < 0 && info->locals[l].block_param == block_param &&
		    (block_param >= 0 || info->locals[l].block == block) &&
		    axes_equal(s, info->locals[l].axis, axis) &&
		    extents_equal(s, &info->locals[l].extent_aff, d->extent)) {
			if (axis < 32)
				info->locals[l].axes |= 1u << axis;
			return l;
		}
	struct local_param *p = realloc(info->locals, sizeof(*p) * (size_t)(info->nlocals + 1));
	if (!p) {
		fail_nomem(&s->fail);
		return -1;
	}
	info->locals = p;
	p = &info->locals[info->nlocals];
	memset(p, 0, sizeof(*p));
	/* A readable name when the extent is one parameter: m over M is m__M;
	 * otherwise L__k.  A suffix makes it differ from every other parameter. */
	const struct model_aff *x = d->extent;
	bool one = x->constant == 0 && x->nterms == 1 && x->terms[0].coef == 1 &&
		   x->terms[0].kind != MODEL_VAR;
	const char *xname = !one ? NULL
			    : x->terms[0].kind == MODEL_PARAM ? s->m->params[x->terms[0].index]
							      : s->m->axes[x->terms[0].index];
	char *base = NULL;
	int r;
	if (xname && block_param >= 0)
		r = asprintf(&base, "%s__%s%s", xname, s->m->params[block_param], s->m->axes[axis]);
	else if (xname && block == 1)
		r = asprintf(&base, "%s__%s", xname, s->m->axes[axis]);
	else if (xname)
		r = asprintf(&base, "%s__%ld%s", xname, block, s->m->axes[axis]);
	else
		r = asprintf(&base, "L__%d", info->nlocals);
	char *name = r < 0 ? NULL : strdup(base);
	for (int k = 2; name && name_taken(s, name); k++) {
		free(name);
		if (asprintf(&name, "%s_%d", base, k) < 0)
			name = NULL;
	}
	free(base);
	p->name = name;
	p->extent = strdup(d->extent_text);
	p->axis = axis;
	p->axes = axis < 32 ? 1u << axis : 0;
	p->block = block;
	p->block_param = block_param;
	p->digit = -1;
	p->size_local = p->size_axis = p->size_param = -1;
	if (!p->name || !p->extent || model_aff_copy(&p->extent_aff, x) < 0) {
		free(p->name);
		free(p->extent);
		fail_nomem(&s->fail);
		return -1;
	}
	return info->nlocals++;
}

/* The size of digit K of decomposition D as a linear form over the
 * parameters, and its text in *TEXT for the assumptions (a static or
 * model-owned string, or BUF). */
static struct lin digit_size(struct sym *s, const struct decomp *d, int k, const char **text,
			     char buf[32])
{
	const struct digits *dg = &dist_ops(d->d.kind)->digits;
	switch (dg->size[k]) {
	case DIGIT_AXIS:
		*text = s->m->axes[d->d.axis];
		return lin_par(axis_par(s, d->d.axis));
	case DIGIT_LOCAL: {
		long b = dist_block_length(&d->d);
		int l = local_param(s, d, b, d->d.block_param);
		*text = l < 0 ? "0" : s->info->locals[l].name;
		return l < 0 ? lin_const(0) : lin_par(npar_fixed(s) + l);
	}
	case DIGIT_BLOCK:
		if (d->d.block_param >= 0) {
			*text = s->m->params[d->d.block_param];
			return lin_par(d->d.block_param);
		}
		snprintf(buf, 32, "%ld", d->d.block);
		*text = buf;
		return lin_const(d->d.block);
	case DIGIT_EXTENT:
		*text = d->extent_text;
		return lin_of_params(s, d->extent);
	}
	*text = "0";
	return lin_const(0);
}

static int ndigits(const struct decomp *d)
{
	return d->d.kind == DIST_NONE ? 1 : dist_ops(d->d.kind)->digits.n;
}

/* Digit K of variable V: a dimension of the current relation. */
static struct lin digit(const struct sym *s, int v, int k)
{
	return lin_dim(s->first[v] + k);
}

/* The dimensions of the digits of the current variables, from FIRST on. */
static int layout_digits(struct sym *s, int first)
{
	for (int v = 0; v < nvars(s); v++) {
		s->first[v] = first;
		first += ndigits(&s->dec[v]);
	}
	return first;
}

/* A (taken) among INFO's assumptions, unless it is there already: 0, or -1
 * when out of memory (A freed). */
static int assume_taken(struct symbolic_info *info, char *a)
{
	for (int i = 0; i < info->nassumptions; i++)
		if (strcmp(info->assumptions[i], a) == 0) {
			free(a);
			return 0;
		}
	char **p = realloc(info->assumptions, sizeof(*p) * (size_t)(info->nassumptions + 1));
	if (!p) {
		free(a);
		return -1;
	}
	info->assumptions = p;
	p[info->nassumptions++] = a;
	return 0;
}

int symbolic_info_assume(struct symbolic_info *info, const char *assumption)
{
	char *a = strdup(assumption);
	return a ? assume_taken(info, a) : -1;
}

static void add_assumption(struct sym *s, const char *fmt, ...)
{
	char *a;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&a, fmt, ap);
	va_end(ap);
	if (r < 0) {
		fail_nomem(&s->fail);
		return;
	}
	if (assume_taken(s->info, a) < 0)
		fail_nomem(&s->fail);
}

/* The offset C fits in a digit of SIZE: C <= SIZE (every size is at least 1,
 * so C <= 1 goes without saying). */
static void assume_at_most(struct sym *s, long long c, const char *size)
{
	if (c <= 1)
		return;
	/* a digit of a constant size (a block of cyclic(B)): decided here, never
	 * an assumption that no size can meet */
	char *end = NULL;
	errno = 0;
	long long v = strtoll(size, &end, 10);
	if (end && end != size && *end == '\0' && errno == 0) {
		if (c > v)
			fail_set(&s->fail, FAIL_REFUSED,
				 "an offset of %lld crosses more than one block of %lld elements: the "
				 "symbolic grid's decomposition holds for offsets up to the block "
				 "(--grid or -D count it exactly)", c, v);
		return;
	}
	add_assumption(s, "%lld <= %s", c, size);
}

/* C < SIZE, recorded unless C < 1. */
static void assume_below(struct sym *s, long long c, const char *size)
{
	if (c >= 1)
		add_assumption(s, "%lld < %s", c, size);
}

/* 0 <= d < S for every digit of every decomposed variable. */
static void digit_ranges(struct sym *s)
{
	struct conj c;
	conj_init(s, &c);
	for (int v = 0; v < nvars(s); v++) {
		const struct decomp *d = &s->dec[v];
		if (d->d.kind == DIST_NONE)
			continue;
		for (int k = 0; k < ndigits(d); k++) {
			const char *t;
			char buf[32];
			struct lin size = digit_size(s, d, k, &t, buf);
			struct lin dg = digit(s, v, k);
			struct lin top = lin_comb(s, &size, -1, &dg); /* size - d - 1 >= 0 */
			top = lin_plus(s, &top, -1);
			conj_add(s, &c, &dg, false);
			conj_add(s, &c, &top, false);
		}
	}
	rel_and(s, &c);
}

/* The digits of a decomposition: forms, sizes and the sizes' texts. */
struct digit_forms {
	int n;
	struct lin dg[3], sz[3];
	const char *text[3];
	char buf[3][32];
};

static void digit_forms(struct sym *s, int v, const struct decomp *d, struct digit_forms *f)
{
	f->n = ndigits(d);
	for (int k = 0; k < f->n; k++) {
		f->dg[k] = v >= 0 ? digit(s, v, k) : lin_const(0);
		f->sz[k] = digit_size(s, d, k, &f->text[k], f->buf[k]);
	}
}

/* Adds the condition that RES[0..n) are the digits, under D, of variable V
 * plus C (V < 0: of the constant C).  The carry out of the top digit is left
 * out: the checker has proved every subscript in bounds (digits_from's
 * OPEN_TOP keeps it, for a bound). */
static void digits_from(struct sym *s, int v, const struct lin *src, long long c,
			const struct decomp *d, const struct lin res[], bool open_top);

static void digits_of(struct sym *s, int v, long long c, const struct decomp *d,
		      const struct lin res[])
{
	digits_from(s, v, NULL, c, d, res, false);
}

/* The same for the number whose digits are SRC[0..n) (forms of the
 * parameters, or the top digit out of its range for an extent), when SRC is
 * not NULL.  OPEN_TOP: the result may leave the extent (a bound, not a
 * subscript): the top digit then carries past its range, to -1 or its size,
 * so that a comparison with it stays exact. */
static void digits_from(struct sym *s, int v, const struct lin *src, long long c,
			const struct decomp *d, const struct lin res[], bool open_top)
{
	struct digit_forms f;
	digit_forms(s, v, d, &f);
	int n = f.n, last = n - 1;
	for (int k = 0; src && k < n; k++)
		f.dg[k] = src[k];
	if (v < 0 && !src && c != 0 && n > 1)
		assume_below(s, c, f.text[last]);
	if (c == 0 || n == 1) {
		struct conj cj;
		conj_init(s, &cj);
		for (int k = 0; k < n; k++) {
			struct lin rhs = lin_plus(s, &f.dg[k], k == last ? c : 0);
			conj_eq(s, &cj, &res[k], &rhs);
		}
		rel_and(s, &cj);
		return;
	}
	if (c == LLONG_MIN) {   /* -c would not fit */
		fail_set(&s->fail, FAIL_REFUSED, "the offset %lld does not fit in 64 bits once negated", c);
		return;
	}
	long long a = c > 0 ? c : -c;
	assume_at_most(s, a, f.text[last]);
	struct lin zero = lin_const(0), one = lin_const(1);
	struct conj or;
	disj_init(s, &or);
	for (int j = 0; j < n; j++) {   /* j levels of carry (or borrow) */
		struct conj cj;
		conj_init(s, &cj);
		struct lin moved = lin_plus(s, &f.dg[last], c);
		if (c > 0 && j == 0)
			conj_lt(s, &cj, &moved, &f.sz[last]);        /* no carry */
		else if (c > 0)
			conj_ge(s, &cj, &moved, &f.sz[last]);        /* a carry */
		else if (j == 0)
			conj_ge(s, &cj, &moved, &zero);              /* no borrow */
		else
			conj_lt(s, &cj, &moved, &zero);              /* a borrow */
		/* the digits the carry runs through are at their end */
		for (int l = last - 1; l > last - j; l--) {
			struct lin top = lin_plus(s, &f.sz[l], -1);
			conj_eq(s, &cj, &f.dg[l], c > 0 ? &top : &zero);
		}
		/* and the one it stops at is not (the top one may, when open) */
		if (open_top && last - j == 0) {
			/* nothing: the top digit takes the carry whatever it is */
		} else if (j > 0 && c > 0) {
			struct lin up = lin_plus(s, &f.dg[last - j], 1);
			conj_lt(s, &cj, &up, &f.sz[last - j]);
		} else if (j > 0) {
			conj_ge(s, &cj, &f.dg[last - j], &one);
		}
		for (int k = 0; k < n; k++) {
			struct lin rhs;
			if (k == last && j == 0)
				rhs = moved;
			else if (k == last)
				rhs = lin_comb(s, &moved, c > 0 ? -1 : 1, &f.sz[k]);
			else if (k > last - j)
				rhs = c > 0 ? zero : lin_plus(s, &f.sz[k], -1);
			else if (k == last - j)
				rhs = lin_plus(s, &f.dg[k], c > 0 ? 1 : -1);
			else
				rhs = f.dg[k];
			conj_eq(s, &cj, &res[k], &rhs);
		}
		conj_or(s, &or, &cj);
	}
	rel_and(s, &or);
}

/* Adds the condition that RES[0..n) are the digits, under D (of two digits or
 * more), of A times variable V plus C, 2 <= A <= STRIDE_MAX: from the last
 * digit up, digit k of A*v + C is A times v's digit k plus the carry into
 * it, less the carry out of it times the digit's size, and the top digit
 * keeps its carry (OPEN_TOP: it may leave its range, for a bound; else the
 * checker has proved the subscript within its extent).  The carries are
 * numbers in -1 .. A (|C| at most the last digit's size, assumed): one case
 * per choice of them. */
static void stride_digits(struct sym *s, int v, long long a, long long c, const struct decomp *d,
			  const struct lin res[], bool open_top)
{
	struct digit_forms f;
	digit_forms(s, v, d, &f);
	int n = f.n, last = n - 1;
	/* V split by its own decomposition, D splitting A times its extent the
	 * same way (scaled_decomp): a digit's weight in D is A times V's where
	 * no size below it is a block length (which is A times V's), so the
	 * multiple's digit k is mult[k] times V's, A or 1 (block: 1 for the
	 * process, A for the offset) */
	long long mult[3] = {a, a, a};
	if (scaled_decomp(s, d, &s->dec[v], a)) {
		const struct digits *dg = &dist_ops(d->d.kind)->digits;
		long long scale = 1;
		for (int k = last; k >= 0; k--) {
			mult[k] = a / scale;
			if (dg->size[k] == DIGIT_LOCAL || dg->size[k] == DIGIT_EXTENT)
				scale *= a;
		}
	}
	if (c == LLONG_MIN) {
		fail_set(&s->fail, FAIL_REFUSED, "the offset %lld does not fit in 64 bits once negated", c);
		return;
	}
	if (c != 0)
		assume_at_most(s, c > 0 ? c : -c, f.text[last]);
	long long lo = c < 0 ? -1 : 0, span = a + 1 - lo;   /* each carry in lo .. a */
	long long ncases = 1;
	for (int k = 1; k < n; k++)
		ncases *= span;
	struct conj or;
	disj_init(s, &or);
	for (long long cs = 0; cs < ncases && !failed(&s->fail); cs++) {
		long long t[3] = {0, 0, 0}, rest = cs;   /* t[k]: the carry out of digit k */
		for (int k = 1; k < n; k++) {
			t[k] = lo + rest % span;
			rest /= span;
		}
		struct conj cj;
		conj_init(s, &cj);
		for (int k = last; k >= 0; k--) {
			struct lin in = lin_const(k == last ? c : t[k + 1]);
			struct lin x = lin_comb(s, &in, mult[k], &f.dg[k]);   /* digit times its multiplier + carry in */
			if (k == 0) {
				conj_eq(s, &cj, &res[0], &x);
				if (!open_top) {
					struct lin zero = lin_const(0);
					conj_ge(s, &cj, &res[0], &zero);
					conj_lt(s, &cj, &res[0], &f.sz[0]);
				}
				break;
			}
			/* t*size <= x < (t + 1)*size, the digit x - t*size */
			struct lin zero = lin_const(0);
			struct lin low = lin_comb(s, &zero, t[k], &f.sz[k]);
			struct lin high = lin_comb(s, &low, 1, &f.sz[k]);
			conj_ge(s, &cj, &x, &low);
			conj_lt(s, &cj, &x, &high);
			struct lin dig = lin_comb(s, &x, -t[k], &f.sz[k]);
			conj_eq(s, &cj, &res[k], &dig);
		}
		conj_or(s, &or, &cj);
	}
	rel_and(s, &or);
}

/* ---- digits of a size expression ----------------------------------------- */

/* E (a form of the sizes and axes, no dimension, no block length) as a model
 * form, its terms in parameter order; -1 when it is not one (or no memory). */
static int lin_to_model(const struct sym *s, const struct lin *e, struct model_aff *out)
{
	memset(out, 0, sizeof(*out));
	out->constant = e->constant;
	out->terms = calloc((size_t)e->n + 1, sizeof(*out->terms));
	if (!out->terms)
		return -1;
	int np = s->m->nparams;
	for (int p = 0; p < npar_fixed(s); p++)
		for (int i = 0; i < e->n; i++)
			if (!e->t[i].dim && e->t[i].index == p && e->t[i].coef != 0)
				out->terms[out->nterms++] = (struct model_term){
					p < np ? MODEL_PARAM : MODEL_AXIS, p < np ? p : p - np, e->t[i].coef, 0};
	for (int i = 0; i < e->n; i++)
		if (e->t[i].coef != 0 && (e->t[i].dim || e->t[i].index >= npar_fixed(s))) {
			model_aff_clear(out);
			return -1;
		}
	return 0;
}

/* E as people write it: "k0", "kk + b - 1", "2*k0 + 1"; NULL without memory. */
static char *lin_text(const struct sym *s, const struct lin *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct text_linear l = {f, 0};
	int np = s->m->nparams;
	for (int i = 0; i < e->n; i++) {
		int p = e->t[i].index;
		text_linear_term(&l, e->t[i].coef, p < np ? s->m->params[p] : s->m->axes[p - np]);
	}
	text_linear_end(&l, e->constant);
	fclose(f);
	return buf;
}

/* L as an affine form on the parameter set space SPACE (kept; positions:
 * the sizes, then the axes). */
static __isl_give isl_aff *param_aff(struct sym *s, __isl_keep isl_space *space, const struct lin *l)
{
	isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(space)));
	for (int i = 0; i < l->n && a; i++)
		a = isl_aff_set_coefficient_val(a, isl_dim_param, l->t[i].index,
						isl_val_int_from_si(s->ctx, (long)l->t[i].coef));
	return isl_aff_add_constant_val(a, isl_val_int_from_si(s->ctx, (long)l->constant));
}

/* Whether the assumptions, with the loops around the superstep, make every
 * form of L[0..n) non-negative: 1 yes, 0 no, -1 when ISL failed. */
static int always_nonneg(struct sym *s, const struct lin *const l[], int n)
{
	isl_set *valid = model_valid_set(s->ctx, s->m);
	if (s->m->steps[s->step].loop >= 0)
		valid = isl_set_intersect(valid, model_loops_set(s->ctx, s->m, s->step, NULL));
	if (!valid)
		return -1;
	isl_space *space = isl_space_set_from_params(isl_set_get_space(valid));
	isl_set *holds = isl_set_universe(isl_space_copy(space));
	for (int k = 0; k < n; k++)
		holds = isl_set_intersect(holds, isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(
							 param_aff(s, space, l[k]))));
	isl_space_free(space);
	valid = isl_set_from_params(valid);
	isl_bool sub = isl_set_is_subset(valid, holds);
	isl_set_free(valid);
	isl_set_free(holds);
	return sub == isl_bool_error ? -1 : sub == isl_bool_true;
}

/* Whether the assumptions, with the loops around the superstep, keep E
 * within [0, EXTENT - 1]: 1 yes, 0 no, -1 when ISL failed. */
static int in_extent(struct sym *s, const struct lin *e, const struct model_aff *extent)
{
	struct lin x = lin_of_params(s, extent);
	struct lin top = lin_comb(s, &x, -1, e);        /* X - 1 - E >= 0 */
	top = lin_plus(s, &top, -1);
	const struct lin *both[2] = {e, &top};
	return always_nonneg(s, both, 2);
}

/* Size S of a digit in the formula grammar (EXACT: block lengths as
 * ((X)/(b*P))) or for people ((X/P)), into F. */
static void size_text(const struct sym *s, FILE *f, const struct local_param *d, bool exact)
{
	if (d->size_axis >= 0) {
		fputs(s->m->axes[d->size_axis], f);
	} else if (d->size_local >= 0) {
		const struct local_param *lp = &s->info->locals[d->size_local];
		const char *axis = s->m->axes[lp->axis];
		bool plain = !strpbrk(lp->extent, " +-*/");
		if (lp->block_param >= 0)
			fprintf(f, exact || !plain ? "((%s)/(%s*%s))" : "(%s/(%s*%s))", lp->extent,
				s->m->params[lp->block_param], axis);
		else if (exact)
			fprintf(f, "((%s)/(%ld*%s))", lp->extent, lp->block, axis);
		else if (lp->block == 1)
			fprintf(f, plain ? "(%s/%s)" : "((%s)/%s)", lp->extent, axis);
		else
			fprintf(f, plain ? "(%s/(%ld*%s))" : "((%s)/(%ld*%s))", lp->extent, lp->block, axis);
	} else if (d->size_param >= 0) {
		fputs(s->m->params[d->size_param], f);
	} else {
		fprintf(f, "%ld", d->size_const);
	}
}

/* Digit D[K] of D[0..N) (their sizes set) as a formula of E, whose text is
 * ETEXT: floor(E/(sizes below K)) % (size K); EXACT as size_text. */
static char *digit_text(const struct sym *s, const struct local_param *d, int k, int n,
			const char *etext, bool exact)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	bool plain = !strpbrk(etext, " +-*/");
	const char *open = exact || !plain ? "(" : "", *close = exact || !plain ? ")" : "";
	if (n == 1) {
		fprintf(f, "%s%s%s", open, etext, close);
	} else {
		if (k < n - 1) {
			fprintf(f, "floor(%s%s%s/", open, etext, close);
			if (n - 1 - k > 1)
				fputc('(', f);
			for (int j = k + 1; j < n; j++) {
				if (j > k + 1)
					fputc('*', f);
				size_text(s, f, &d[j], exact);
			}
			if (n - 1 - k > 1)
				fputc(')', f);
			fputc(')', f);
		} else {
			fprintf(f, "%s%s%s", open, etext, close);
		}
		if (k > 0) {
			fputs(" % ", f);
			size_text(s, f, &d[k], exact);
		}
	}
	fclose(f);
	return buf;
}

static void local_clear(struct local_param *p)
{
	free(p->name);
	free(p->extent);
	free(p->value);
	free(p->shown);
	model_aff_clear(&p->extent_aff);
	model_aff_clear(&p->of);
}

/* The digits, under D, of E (a form of the sizes and axes that the caller
 * has proved within D's extent): parameters of their own, made once per
 * expression and distribution, each within its digit's range in the
 * relation; their forms go to RES.  0, or -1 with the state saying why. */
static int expr_digits(struct sym *s, const struct lin *e, const struct decomp *d,
		       struct lin res[3])
{
	struct symbolic_info *info = s->info;
	int n = ndigits(d);
	long b = dist_block_length(&d->d);
	if (n == 1) {
		/* one digit (identity): E is its own, already affine */
		res[0] = *e;
		return 0;
	}
	struct model_aff of;
	if (lin_to_model(s, e, &of) < 0) {
		fail_set(&s->fail, FAIL_ERROR, "internal: a size expression names a variable");
		return -1;
	}
	/* the digits' sizes first: a block length they name is a local of its own */
	struct lin size[3];
	const char *stext[3];
	char buf[3][32];
	for (int k = 0; k < n; k++)
		size[k] = digit_size(s, d, k, &stext[k], buf[k]);
	int first = -1;
	for (int l = 0; l < info->nlocals && first < 0; l++) {
		const struct local_param *p = &info->locals[l];
		if (p->digit == 0 && p->kind == d->d.kind && p->block_param == d->d.block_param &&
		    (p->block_param >= 0 || p->block == b) &&
		    model_aff_equal(&p->of, &of) && axes_equal(s, p->axis, d->d.axis) &&
		    extents_equal(s, &p->extent_aff, d->extent))
			first = l;
	}
	if (first < 0 && !failed(&s->fail)) {
		struct local_param *p = realloc(info->locals, sizeof(*p) * (size_t)(info->nlocals + n));
		char *etext = lin_text(s, e);
		if (!p || !etext) {
			if (p)
				info->locals = p;
			free(etext);
			model_aff_clear(&of);
			fail_nomem(&s->fail);
			return -1;
		}
		info->locals = p;
		first = info->nlocals;
		p = &info->locals[first];
		memset(p, 0, sizeof(*p) * (size_t)n);
		const struct dist_ops *ops = dist_ops(d->d.kind);
		for (int k = 0; k < n; k++) {
			p[k].digit = k;
			p[k].kind = d->d.kind;
			p[k].axis = d->d.axis;
			p[k].block = b;
			p[k].block_param = d->d.block_param;
			p[k].size_local = p[k].size_axis = p[k].size_param = -1;
			p[k].size_const = 1;
			if (ops->digits.size[k] == DIGIT_AXIS)
				p[k].size_axis = d->d.axis;
			else if (ops->digits.size[k] == DIGIT_LOCAL)
				p[k].size_local = size[k].n == 1 ? size[k].t[0].index - npar_fixed(s) : -1;
			else if (d->d.block_param >= 0)
				p[k].size_param = d->d.block_param;
			else
				p[k].size_const = d->d.block;
		}
		/* names: k0_M for the owner (the coordinate on M that owns k0), k0_Mi
		 * for where it is in that process's part, k0_Mr for a block offset */
		int nexpr = 0;
		for (int l = 0; l < first; l++)
			nexpr += info->locals[l].digit == 0;
		bool one = e->constant == 0 && e->n == 1 && e->t[0].coef == 1;
		char *base = NULL;
		if (one ? asprintf(&base, "%s_%s", etext, s->m->axes[d->d.axis]) < 0
			: asprintf(&base, "e%d_%s", nexpr + 1, s->m->axes[d->d.axis]) < 0)
			base = NULL;
		bool ok = base != NULL;
		for (int k = 0; k < n && ok; k++) {
			const char *suffix = ops->digits.size[k] == DIGIT_AXIS ? ""
					     : ops->digits.size[k] == DIGIT_LOCAL ? "i" : "r";
			char *name = NULL, *cand = NULL;
			if (asprintf(&cand, "%s%s", base, suffix) < 0)
				cand = NULL;
			name = cand ? strdup(cand) : NULL;
			for (int j = 2; name && name_taken(s, name); j++) {
				free(name);
				if (asprintf(&name, "%s_%d", cand, j) < 0)
					name = NULL;
			}
			free(cand);
			/* every earlier digit is a local already: name_taken sees it */
			p[k].name = name;
			p[k].extent = strdup(d->extent_text);
			p[k].value = digit_text(s, p, k, n, etext, true);
			char *shown = digit_text(s, p, k, n, etext, false);
			if (shown && name && asprintf(&p[k].shown, "%s = %s", name, shown) < 0)
				p[k].shown = NULL;
			free(shown);
			ok = name && p[k].extent && p[k].value && p[k].shown &&
			     model_aff_copy(&p[k].extent_aff, d->extent) == 0 &&
			     model_aff_copy(&p[k].of, &of) == 0;
			info->nlocals++;
		}
		free(base);
		free(etext);
		if (!ok) {
			model_aff_clear(&of);
			fail_nomem(&s->fail);
			return -1;
		}
	}
	model_aff_clear(&of);
	if (failed(&s->fail))
		return -1;
	/* 0 <= digit < its size */
	struct conj cj;
	conj_init(s, &cj);
	for (int k = 0; k < n; k++) {
		res[k] = lin_par(npar_fixed(s) + first + k);
		struct lin zero = lin_const(0);
		conj_ge(s, &cj, &res[k], &zero);
		conj_lt(s, &cj, &res[k], &size[k]);
	}
	rel_and(s, &cj);
	return failed(&s->fail) ? -1 : 0;
}

/* A > B (GREATER) or A < B, or equal too unless STRICT, on digits A[0..N)
 * and B[0..N), most significant first, each within its range. */
static void lex_compare(struct sym *s, const struct lin a[], const struct lin b[], int n,
			bool greater, bool strict)
{
	struct conj or, cj;
	disj_init(s, &or);
	for (int k = 0; k < n; k++) {
		conj_init(s, &cj);
		for (int j = 0; j < k; j++)
			conj_eq(s, &cj, &a[j], &b[j]);
		if (greater)
			conj_lt(s, &cj, &b[k], &a[k]);
		else
			conj_lt(s, &cj, &a[k], &b[k]);
		conj_or(s, &or, &cj);
	}
	if (!strict) {
		conj_init(s, &cj);
		for (int j = 0; j < n; j++)
			conj_eq(s, &cj, &a[j], &b[j]);
		conj_or(s, &or, &cj);
	}
	rel_and(s, &or);
}

/* Whether E (a form of the sizes) names a loop's variable: its offsets
 * then share its digits (k and k + 1 in one loop), whatever that assumes. */
static bool names_loop_var(const struct sym *s, const struct lin *e)
{
	for (int i = 0; i < e->n; i++)
		for (int l = 0; l < s->m->nloops; l++)
			if (e->t[i].coef != 0 && !e->t[i].dim && e->t[i].index == s->m->loops[l].param)
				return true;
	return false;
}

/* The digits, under D, of E (a form of the sizes) into RES (new dimensions)
 * as those of a number the relation has digits for plus a constant: the
 * extent X (E = X - 1, the last element) or E without its constant (k + 1
 * carried from k's digits, which k's other uses share).  0 when done, 1
 * when E is neither, -1 on a failure. */
static int expr_offset_digits(struct sym *s, const struct lin *e, const struct decomp *d,
			      const struct lin res[])
{
	struct lin x = lin_of_params(s, d->extent);
	struct lin diff = lin_comb(s, e, -1, &x);
	bool rel_extent = true;
	for (int i = 0; i < diff.n; i++)
		rel_extent &= diff.t[i].coef == 0;
	int n = ndigits(d);
	struct lin src[3];
	/* a carry of more than 1 assumes the last digit that large: only
	 * where the offset is 1, or a loop's variable shares its digits */
	if (rel_extent && diff.constant == -1 && n > 1) {
		/* X's digits: (size of the top digit, 0, ..., 0) */
		const char *t;
		char buf[32];
		src[0] = digit_size(s, d, 0, &t, buf);
		for (int k = 1; k < n; k++)
			src[k] = lin_const(0);
		digits_from(s, -1, src, diff.constant, d, res, false);
		return failed(&s->fail) ? -1 : 0;
	}
	if (e->constant == 0)
		return 1;
	struct lin base = *e;
	base.constant = 0;
	if ((e->constant > 1 || e->constant < -1) && !names_loop_var(s, &base))
		return 1;
	int in = in_extent(s, &base, d->extent);
	if (in != 1)
		return in < 0 ? -1 : 1;
	if (expr_digits(s, &base, d, src) < 0)
		return -1;
	digits_from(s, -1, src, e->constant, d, res, false);
	return failed(&s->fail) ? -1 : 0;
}

/* Whether the assumptions make V >= E + C (SIGN > 0) or V <= E + C
 * (SIGN < 0) hold for every V in 0 .. X - 1, X = EXTENT: E + C <= 0, or
 * E + C >= X - 1 (a wrap's i <= 2*n - 2).  1, 0, or -1 when ISL failed. */
static int bound_implied(struct sym *s, int sign, const struct lin *e, long long c,
			 const struct model_aff *extent)
{
	struct lin ec = lin_plus(s, e, c), slack;
	if (sign > 0) {   /* -(E + C) >= 0 */
		struct lin zero = lin_const(0);
		slack = lin_comb(s, &zero, -1, &ec);
	} else {          /* E + C - (X - 1) >= 0 */
		struct lin x = lin_of_params(s, extent);
		slack = lin_comb(s, &ec, -1, &x);
		slack = lin_plus(s, &slack, 1);
	}
	if (failed(&s->fail))
		return 0;
	const struct lin *one[1] = {&slack};
	return always_nonneg(s, one, 1);
}

/* V >= E + C (SIGN > 0) or V <= E + C (SIGN < 0), V decomposed, E of the
 * sizes: compared digit by digit with the digits of E + C, or of E + C -+ 1
 * with a strict comparison, whichever the assumptions keep within V's extent
 * (the smaller offset first). */
static void expr_bound(struct sym *s, int v, int sign, const struct lin *e, long long c,
		       const char *cond_text)
{
	const struct decomp *d = &s->dec[v];
	/* a bound V's digits keep anyway: nothing to add */
	int implied = bound_implied(s, sign, e, c, d->extent);
	if (implied < 0) {
		fail_isl(&s->fail, s->ctx, "the condition '%s'", cond_text);
		return;
	}
	if (implied)
		return;
	long long alt;
	if (sign > 0 ? __builtin_sub_overflow(c, 1, &alt) : __builtin_add_overflow(c, 1, &alt)) {
		fail_set(&s->fail, FAIL_REFUSED, "a constant of the condition '%s' does not fit in 64 bits",
			 cond_text);
		return;
	}
	/* (v >= E + 1 is v > E: E's digits, no carry; a carry of more than 1
	 * assumes the last digit that large: only for a loop's variable) */
	if (c != 0 && alt != 0 && ((c >= -1 && c <= 1) || names_loop_var(s, e))) {
		int in = in_extent(s, e, d->extent);
		if (in < 0) {
			fail_isl(&s->fail, s->ctx, "the condition '%s'", cond_text);
			return;
		}
		if (in == 1) {
			/* E's digits, carried by C into new dimensions (unbounded at
			 * the top: the comparison stays exact past the extent) */
			struct lin mine[3], theirs[3], pd[3];
			int n = ndigits(d);
			if (expr_digits(s, e, d, pd) < 0)
				return;
			new_dims(s, n, theirs);
			for (int k = 0; k < n; k++)
				mine[k] = digit(s, v, k);
			digits_from(s, -1, pd, c, d, theirs, true);
			lex_compare(s, mine, theirs, n, sign > 0, false);
			return;
		}
	}
	long long offs[2] = {c, alt};
	if ((alt < 0 ? -(alt + 1) : alt) < (c < 0 ? -(c + 1) : c)) {
		offs[0] = alt;
		offs[1] = c;
	}
	for (int i = 0; i < 2; i++) {
		struct lin eo = lin_plus(s, e, offs[i]);
		int r = in_extent(s, &eo, d->extent);
		if (r < 0) {
			fail_isl(&s->fail, s->ctx, "the condition '%s'", cond_text);
			return;
		}
		if (r == 0)
			continue;
		struct lin mine[3], theirs[3];
		if (expr_digits(s, &eo, d, theirs) < 0)
			return;
		for (int k = 0; k < ndigits(d); k++)
			mine[k] = digit(s, v, k);
		lex_compare(s, mine, theirs, ndigits(d), sign > 0, offs[i] != c);
		return;
	}
	struct lin ec = lin_plus(s, e, c);
	char *t = lin_text(s, &ec);
	/* a bound no V in 0 .. X - 1 meets (V <= E + C with E + C < 0, V >=
	 * E + C with E + C > X - 1, for all sizes): no instance */
	struct lin x = lin_of_params(s, d->extent);
	struct lin below = lin_comb(s, &(struct lin){0}, -1, &ec);   /* -(E + C) - 1 >= 0 */
	below = lin_plus(s, &below, -1);
	struct lin past = lin_comb(s, &ec, -1, &x);                   /* E + C - X >= 0 */
	const struct lin *none[1] = {sign < 0 ? &below : &past};
	int empty = always_nonneg(s, none, 1);
	if (empty < 0) {
		free(t);
		fail_isl(&s->fail, s->ctx, "the condition '%s'", cond_text);
		return;
	}
	if (empty == 1) {
		free(t);
		struct conj cj;
		conj_init(s, &cj);
		conj_false(&cj);
		rel_and(s, &cj);
		return;
	}
	/* which side the assumptions leave open: below 0 (a wrap's case at
	 * small sizes, -n + 2 where n may be 2), past the extent, or both */
	struct lin top = lin_comb(s, &x, -1, &ec);
	top = lin_plus(s, &top, -1);
	const struct lin *lo[1] = {&ec}, *hi[1] = {&top};
	int low_ok = always_nonneg(s, lo, 1), high_ok = always_nonneg(s, hi, 1);
	if (low_ok < 0 || high_ok < 0) {
		free(t);
		fail_isl(&s->fail, s->ctx, "the condition '%s'", cond_text);
		return;
	}
	char *how = NULL;
	if ((low_ok == 0 && high_ok == 1 ? asprintf(&how, "allow below 0")
	     : low_ok == 1 && high_ok == 0 ? asprintf(&how, "allow past %s - 1", d->extent_text)
					    : asprintf(&how, "do not keep within 0 .. %s - 1",
						       d->extent_text)) < 0)
		how = NULL;
	fail_set(&s->fail, FAIL_REFUSED,
		 "the condition '%s' bounds %s, which is distributed, by %s, which the assumptions "
		 "%s for some sizes and not for others: the symbolic grid writes such a bound "
		 "as digits of the distribution where it is within 0 .. %s - 1 for all sizes, or "
		 "where no %s or every %s meets it (assume one of those, or --grid / -D count it)",
		 cond_text, var_name(s, v), t ? t : "an expression",
		 how ? how : "do not keep within the extent", d->extent_text, var_name(s, v),
		 var_name(s, v));
	free(how);
	free(t);
}

/* ---- conditions ---------------------------------------------------------- */

/* A constraint of a condition read back from ISL: coefficients of the current
 * variables, the parameters and axes, and a constant. */
struct ccons {
	struct vform f;
	bool eq;
};

/* The form of F's variables and parameters on the relation: a plain variable
 * is its only digit. */
static struct lin on_digits(struct sym *s, const struct vform *f)
{
	struct lin l = f->par;
	l.constant = f->constant;
	for (int v = 0; v < f->nvars; v++)
		if (f->var[v])
			lin_add(s, &l, true, s->first[v], f->var[v]);
	return l;
}

/* A bound on decomposed variable V (coefficient sign SIGN in F >= 0) as
 * digits. */
static void digit_bound(struct sym *s, int v, int sign, const struct vform *f,
			const char *cond_text)
{
	const struct decomp *d = &s->dec[v];
	struct digit_forms df;
	digit_forms(s, v, d, &df);
	int last = df.n - 1;
	for (int u = 0; u < f->nvars; u++)
		if (u != v && f->var[u]) {
			fail_set(&s->fail, FAIL_REFUSED,
				 "the condition '%s' relates %s, which is distributed, to another "
				 "variable; the symbolic grid cannot express it",
				 cond_text, var_name(s, v));
			return;
		}
	struct lin zero = lin_const(0), one = lin_const(1);
	struct conj cj;
	if (f->par.n == 0) {
		long long r = f->constant;
		if (r == LLONG_MIN) {   /* -r would not fit */
			fail_set(&s->fail, FAIL_REFUSED, "a constant of the condition '%s' does not fit in 64 bits "
				 "once negated", cond_text);
			return;
		}
		if (sign > 0 && -r <= 0)
			return; /* v >= -r <= 0: the digits already say so */
		if (sign > 0) {
			/* v >= c, c >= 1: not (upper digits 0 and last < c) */
			long long c = -r;
			assume_at_most(s, c, df.text[last]);
			struct conj or;
			disj_init(s, &or);
			for (int k = 0; k < last; k++) {
				conj_init(s, &cj);
				conj_ge(s, &cj, &df.dg[k], &one);
				conj_or(s, &or, &cj);
			}
			conj_init(s, &cj);
			struct lin cl = lin_const(c);
			conj_ge(s, &cj, &df.dg[last], &cl);
			conj_or(s, &or, &cj);
			rel_and(s, &or);
			return;
		}
		/* v <= r */
		conj_init(s, &cj);
		if (r < 0) {
			conj_false(&cj);
			rel_and(s, &cj);
			return;
		}
		assume_below(s, r, df.text[last]);
		for (int k = 0; k < last; k++)
			conj_eq(s, &cj, &df.dg[k], &zero);
		struct lin rl = lin_const(r);
		conj_ge(s, &cj, &rl, &df.dg[last]);
		rel_and(s, &cj);
		return;
	}
	/* The rest must be the extent X plus a constant:
	 * sign > 0: v + (-X + k) >= 0, so v >= X - k;
	 * sign < 0: -v + (X + k) >= 0, so v <= X + k. */
	struct lin ext = lin_of_params(s, d->extent);
	struct lin rest = f->par;
	rest.constant = 0;
	struct lin x = ext;
	x.constant = 0;
	struct lin diff = lin_comb(s, &rest, sign > 0 ? 1 : -1, &x);
	long long k;
	if (sign > 0 ? __builtin_add_overflow(f->constant, ext.constant, &k)
		     : __builtin_sub_overflow(f->constant, ext.constant, &k)) {
		fail_set(&s->fail, FAIL_REFUSED, "a constant of the condition '%s' does not fit in 64 bits once "
			 "compared with the extent %s", cond_text, d->extent_text);
		return;
	}
	if (failed(&s->fail))
		return;
	for (int i = 0; i < diff.n; i++)
		if (diff.t[i].coef != 0) {
			/* a bound by another expression of the sizes: by its digits */
			struct lin e = sign > 0 ? lin_comb(s, &(struct lin){0}, -1, &rest) : rest;
			long long c;
			if (sign > 0 ? __builtin_sub_overflow(0, f->constant, &c)
				     : __builtin_add_overflow(0, f->constant, &c)) {
				fail_set(&s->fail, FAIL_REFUSED, "a constant of the condition '%s' does "
					 "not fit in 64 bits once negated", cond_text);
				return;
			}
			expr_bound(s, v, sign, &e, c, cond_text);
			return;
		}
	if (sign < 0) {
		/* v <= X + k; the digits give v <= X - 1. */
		long long c = -1 - k; /* v <= X - 1 - c (cannot overflow) */
		if (c <= 0)
			return;
		assume_at_most(s, c, df.text[last]);
		struct conj or;
		disj_init(s, &or);
		for (int q = 0; q < last; q++) {
			conj_init(s, &cj);
			struct lin top = lin_plus(s, &df.sz[q], -2);
			conj_ge(s, &cj, &top, &df.dg[q]);
			conj_or(s, &or, &cj);
		}
		conj_init(s, &cj);
		struct lin top = lin_plus(s, &df.sz[last], -1 - c);
		conj_ge(s, &cj, &top, &df.dg[last]);
		conj_or(s, &or, &cj);
		rel_and(s, &or);
		return;
	}
	long long c = k; /* v >= X - c */
	conj_init(s, &cj);
	if (c <= 0) {
		conj_false(&cj);
		rel_and(s, &cj);
		return;
	}
	assume_at_most(s, c, df.text[last]);
	for (int q = 0; q < last; q++) {
		struct lin top = lin_plus(s, &df.sz[q], -1);
		conj_eq(s, &cj, &df.dg[q], &top);
	}
	struct lin low = lin_plus(s, &df.sz[last], -c);
	conj_ge(s, &cj, &df.dg[last], &low);
	rel_and(s, &cj);
}

/* F >= 0, F = a*v + k*X + c with v split under D of extent X, |a| >= 2 (a
 * stride's bound, 2*i + 1 < n) and k a whole number, maybe 0: the top digit
 * of y = |a|*v + c' (its digits carried, the top one open) against k*X's,
 * (k*size of the top digit, 0, ..., 0).  For a > 0, y = a*v + c >= -k*X
 * where the top digit is at least -k*size; for a < 0, y = |a|*v - c - 1 <
 * k*X where it is less than k*size.  0 when written, 1 when F is not of
 * that form, -1 on a failure. */
static int stride_bound(struct sym *s, int v, const struct vform *f, const char *cond_text)
{
	const struct decomp *d = &s->dec[v];
	long long a = f->var[v], k = 0;
	struct lin x = lin_of_params(s, d->extent);
	if (failed(&s->fail))
		return -1;
	if (f->par.n) {
		/* the parameters k*X: X a form of the sizes with no constant */
		if (x.n == 0 || x.constant != 0)
			return 1;
		for (int i = 0; i < f->par.n && k == 0; i++)
			if (f->par.t[i].index == x.t[0].index && f->par.t[i].coef % x.t[0].coef == 0)
				k = f->par.t[i].coef / x.t[0].coef;
		struct lin rest = lin_comb(s, &f->par, -k, &x);
		for (int i = 0; i < rest.n; i++)
			if (rest.t[i].coef != 0 || k == 0)
				return 1;
	}
	long long abs_a = a > 0 ? a : -a, c = f->constant;
	if (a < 0 && __builtin_sub_overflow(-1, c, &c)) {   /* -c - 1 */
		fail_set(&s->fail, FAIL_REFUSED, "a constant of the condition '%s' does not fit in 64 bits",
			 cond_text);
		return -1;
	}
	if (stride_too_large(s, abs_a, "condition", cond_text))
		return -1;
	int n = ndigits(d);
	struct lin y[3];
	new_dims(s, n, y);
	stride_digits(s, v, abs_a, c, d, y, true);
	const char *t;
	char buf[32];
	struct lin top = digit_size(s, d, 0, &t, buf), zero = lin_const(0);
	struct conj cj;
	conj_init(s, &cj);
	if (a > 0) {
		struct lin at = lin_comb(s, &zero, -k, &top);
		conj_ge(s, &cj, &y[0], &at);
	} else {
		struct lin at = lin_comb(s, &zero, k, &top);
		conj_lt(s, &cj, &y[0], &at);
	}
	rel_and(s, &cj);
	return failed(&s->fail) ? -1 : 0;
}

/* MINE and THEIRS (N digits each) equal (EQ), or MINE greater (GREATER) or
 * less than THEIRS, or equal too unless STRICT, into the relation: 0, or
 * -1 with the state saying why. */
static int digits_compare(struct sym *s, const struct lin mine[], const struct lin theirs[], int n,
			  bool eq, bool greater, bool strict)
{
	if (eq) {
		struct conj cj;
		conj_init(s, &cj);
		for (int k = 0; k < n; k++)
			conj_eq(s, &cj, &mine[k], &theirs[k]);
		rel_and(s, &cj);
	} else {
		lex_compare(s, mine, theirs, n, greater, strict);
	}
	return failed(&s->fail) ? -1 : 0;
}

/* F >= 0 (or == 0 when EQ), F = v - w + c with v and w two variables
 * split the same way (a triangle j <= i, a prefix i < j): v's digits
 * against those of w - c (carried into new dimensions, unbounded at the
 * top, so that the comparison stays exact past the extent).  0 when
 * written, 1 when F is not of that form, -1 on a failure. */
static int pair_bound(struct sym *s, const struct vform *f, bool eq)
{
	int v = -1, w = -1;
	if (f->par.n != 0)
		return 1;
	for (int u = 0; u < f->nvars; u++) {
		if (!f->var[u])
			continue;
		if (ndigits(&s->dec[u]) <= 1 && s->dec[u].d.kind == DIST_NONE)
			return 1;   /* a plain variable besides */
		if (f->var[u] == 1 && v < 0)
			v = u;
		else if (f->var[u] == -1 && w < 0)
			w = u;
		else
			return 1;
	}
	if (v < 0 || w < 0 || !equivalent_decomp(s, &s->dec[v], &s->dec[w]))
		return 1;
	long long c = f->constant, mc;
	if (c == LLONG_MIN || __builtin_sub_overflow(0, c, &mc))
		return 1;
	const struct decomp *d = &s->dec[v];
	int n = ndigits(d);
	struct lin mine[3], theirs[3];
	for (int k = 0; k < n; k++)
		mine[k] = digit(s, v, k);
	if (c == 0 || (c == -1 && !eq)) {
		/* v >= w, v > w, v == w */
		for (int k = 0; k < n; k++)
			theirs[k] = digit(s, w, k);
	} else {
		new_dims(s, n, theirs);
		digits_from(s, w, NULL, mc, d, theirs, true);
	}
	if (failed(&s->fail))
		return -1;
	return digits_compare(s, mine, theirs, n, eq, true, c == -1);
}

/* F >= 0 (or == 0 when EQ), F = e*v - e*k*w + c with v and w split the same
 * way, e = 1 or -1 and k >= 2 (a quotient's definition, 0 <= i - 2*q <= 1
 * for B[i] = A[i / 2]): v's digits against those of k*w - e*c (stride_digits,
 * the top one open, so that the comparison stays exact past the extent).
 * 0 when written, 1 when F is not of that form, -1 on a failure. */
static int stride_pair_bound(struct sym *s, const struct vform *f, bool eq)
{
	int v = -1, w = -1;
	long long e = 0, k = 0;
	if (f->par.n != 0)
		return 1;
	for (int u = 0; u < f->nvars; u++) {
		if (!f->var[u])
			continue;
		if (ndigits(&s->dec[u]) <= 1)
			return 1;
		if ((f->var[u] == 1 || f->var[u] == -1) && v < 0)
			v = u;
		else if (w < 0)
			w = u;
		else
			return 1;
	}
	if (v < 0 || w < 0 || !equivalent_decomp(s, &s->dec[v], &s->dec[w]))
		return 1;
	e = f->var[v];
	if (f->var[w] % e != 0 || (k = -f->var[w] / e) < 2)
		return 1;
	if (stride_too_large(s, k, "condition", "a quotient's definition"))
		return -1;
	long long c = 0;   /* v >= k*w + c (e = 1) or v <= k*w + c (e = -1) */
	if (f->constant == LLONG_MIN || (e > 0 && __builtin_sub_overflow(0, f->constant, &c)))
		return 1;
	if (e < 0)
		c = f->constant;
	const struct decomp *d = &s->dec[v];
	int n = ndigits(d);
	struct lin mine[3], theirs[3];
	for (int j = 0; j < n; j++)
		mine[j] = digit(s, v, j);
	new_dims(s, n, theirs);
	stride_digits(s, w, k, c, d, theirs, true);
	if (failed(&s->fail))
		return -1;
	return digits_compare(s, mine, theirs, n, eq, e > 0, false);
}

/* { [the current variables] : the constraints of SP }, on the parameters and
 * axes (SP's variables are among the current ones). */
static __isl_give isl_set *cond_set(struct sym *s, const struct model_space *sp)
{
	isl_space *space = model_param_space(s->ctx, s->m, true);
	space = isl_space_add_dims(isl_space_set_from_params(space), isl_dim_set,
				   (unsigned)nvars(s));
	isl_set *set = isl_set_universe(isl_space_copy(space));
	for (int i = 0; i < sp->ncons && set && !failed(&s->fail); i++) {
		const struct model_cons *c = &sp->cons[i];
		struct vform f;
		if (vform_of(s, &c->f, &f) < 0)
			break;
		isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(space)));
		a = isl_aff_set_constant_si(a, 0);
		a = isl_aff_add_constant_val(a, isl_val_int_from_si(s->ctx, (long)f.constant));
		for (int v = 0; v < f.nvars; v++)
			if (f.var[v])
				a = isl_aff_set_coefficient_val(a, isl_dim_in, v,
								isl_val_int_from_si(s->ctx, (long)f.var[v]));
		for (int t = 0; t < f.par.n; t++)
			a = isl_aff_set_coefficient_val(a, isl_dim_param, f.par.t[t].index,
							isl_val_int_from_si(s->ctx, (long)f.par.t[t].coef));
		isl_set *piece = NULL;
		isl_aff *z = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(space)));
		switch (c->kind) {
		case MODEL_GE0:
			piece = isl_aff_ge_set(a, z);
			break;
		case MODEL_EQ0:
			piece = isl_aff_eq_set(a, z);
			break;
		case MODEL_NE0:
			piece = isl_aff_ne_set(a, z);
			break;
		case MODEL_DIVIDES:
			isl_aff_free(z);
			piece = dist_multiple_of(a, isl_val_int_from_si(s->ctx, (long)c->divisor));
			break;
		}
		set = isl_set_intersect(set, piece);
	}
	isl_space_free(space);
	if (failed(&s->fail)) {
		isl_set_free(set);
		return NULL;
	}
	return set;
}

/* Whether L has a term of the sizes (a coefficient not 0). */
static bool lin_names_size(const struct lin *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->t[i].coef != 0)
			return true;
	return false;
}

/* square_hint for the two distributed variables of F when pair_bound
 * would compare them on a square grid (v - w + c: no size, no other
 * variable); "" otherwise, NULL out of memory. */
static char *pair_square_hint(struct sym *s, const struct vform *f)
{
	const struct decomp *d[2];
	int k = 0, sum = 0;
	for (int v = 0; v < f->nvars && !lin_names_size(&f->par); v++) {
		if (!f->var[v])
			continue;
		if (k == 2 || (f->var[v] != 1 && f->var[v] != -1) || ndigits(&s->dec[v]) < 2)
			return strdup("");
		sum += (int)f->var[v];
		d[k++] = &s->dec[v];
	}
	return k == 2 && sum == 0 ? square_hint(s, d[0], d[1]) : strdup("");
}

/* The most a remainder's period may be (i % 2, (i / 2) % 2: 4), and the
 * most cases of the residues of the digits' sizes it may take. */
enum { RESIDUE_MAX_PERIOD = 8, RESIDUE_MAX_CASES = 64, RESIDUE_MAX_SIZES = 4 };

/* PER (taken): the constraints of a condition that involve its quotients
 * (i % 2 == 0, (i + j) % 2 == 1, exists e: i - 2*e = 0), on the statement's
 * variables and the sizes.  Where it is periodic in every split variable v
 * with period K (the product of the quotients' divisors, checked: PER holds
 * at v + K where it holds at v), v may be replaced by any number congruent
 * to it modulo K.  v is the sum of its digits times their weights (the
 * products of the sizes of the digits below), so, for each case of the
 * residues of those sizes modulo K (n/P % 2 == 1: a condition on the
 * sizes), by the digits times the weights' residues: an affine form.  The
 * condition is the union of those cases.  0, or -1 with the state saying
 * why (refused: a quotient that is not a remainder, i / 2 >= 3, or too many
 * cases). */
static int residue_cond(struct sym *s, __isl_take isl_basic_set *per, const char *text)
{
	isl_ctx *ctx = s->ctx;
	isl_size ndiv = isl_basic_set_dim(per, isl_dim_div);
	long period = 1;
	for (int k = 0; k < ndiv && per; k++) {
		isl_aff *div = isl_basic_set_get_div(per, k);
		isl_val *den = div ? isl_aff_get_denominator_val(div) : NULL;
		long d = den && isl_val_is_int(den) ? isl_val_get_num_si(den) : 0;
		isl_val_free(den);
		isl_aff_free(div);
		if (d < 1 || period > RESIDUE_MAX_PERIOD / d)
			period = RESIDUE_MAX_PERIOD + 1;
		else
			period *= d;
	}
	isl_set *S = isl_set_from_basic_set(per);
	if (!S || ndiv < 0) {
		isl_set_free(S);
		fail_isl(&s->fail, ctx, "the condition '%s'", text);
		return -1;
	}
	if (period > RESIDUE_MAX_PERIOD) {
		isl_set_free(S);
		fail_set(&s->fail, FAIL_REFUSED,
			 "the condition '%s' has a division or a modulo of a period above %d, which "
			 "the symbolic grid does not write as digits",
			 text, RESIDUE_MAX_PERIOD);
		return -1;
	}
	/* the split variables it names, each periodic; the sizes of their
	 * digits below the top one (params: positions; constants: -1) */
	int nsize = 0, size_par[RESIDUE_MAX_SIZES];
	bool ok = true;
	for (int v = 0; v < nvars(s) && ok; v++) {
		if (ndigits(&s->dec[v]) <= 1)
			continue;
		isl_bool in = isl_set_involves_dims(S, isl_dim_set, (unsigned)v, 1);
		if (in == isl_bool_false)
			continue;
		isl_space *sp = isl_set_get_space(S);
		isl_multi_aff *shift = isl_multi_aff_identity(isl_space_map_from_set(sp));
		isl_aff *a = isl_multi_aff_get_aff(shift, v);
		a = isl_aff_add_constant_si(a, (int)period);
		shift = isl_multi_aff_set_aff(shift, v, a);
		isl_set *moved = isl_set_preimage_multi_aff(isl_set_copy(S), shift);
		isl_bool same = in < 0 ? isl_bool_error : isl_set_is_equal(S, moved);
		isl_set_free(moved);
		if (same != isl_bool_true) {
			if (same < 0)
				fail_isl(&s->fail, ctx, "the condition '%s'", text);
			else
				fail_set(&s->fail, FAIL_REFUSED,
					 "the condition '%s' has a division or a modulo of %s that is "
					 "no remainder (a quotient compared, such as i / 2 >= 3), which "
					 "the symbolic grid does not write as digits",
					 text, var_name(s, v));
			ok = false;
			break;
		}
		struct digit_forms f;
		digit_forms(s, v, &s->dec[v], &f);
		for (int k = 1; k < f.n && ok; k++) {
			if (f.sz[k].n == 0)
				continue; /* a number */
			if (f.sz[k].n != 1 || f.sz[k].t[0].dim || f.sz[k].t[0].coef != 1 ||
			    f.sz[k].constant != 0) {
				fail_set(&s->fail, FAIL_REFUSED,
					 "the condition '%s' has a remainder of %s, whose digits' sizes "
					 "are no single sizes", text, var_name(s, v));
				ok = false;
				break;
			}
			int q = f.sz[k].t[0].index, t = 0;
			while (t < nsize && size_par[t] != q)
				t++;
			if (t == nsize) {
				if (nsize == RESIDUE_MAX_SIZES) {
					fail_set(&s->fail, FAIL_REFUSED, "the condition '%s' has a "
						 "remainder of more than %d sizes' digits",
						 text, RESIDUE_MAX_SIZES);
					ok = false;
					break;
				}
				size_par[nsize++] = q;
			}
		}
	}
	long ncases = 1;
	for (int t = 0; t < nsize && ok; t++) {
		ncases *= period;
		if (ncases > RESIDUE_MAX_CASES) {
			fail_set(&s->fail, FAIL_REFUSED,
				 "the condition '%s' has a remainder whose cases (the residues of %d "
				 "sizes modulo %ld) pass %d", text, nsize, period, RESIDUE_MAX_CASES);
			ok = false;
		}
	}
	if (!ok || failed(&s->fail)) {
		isl_set_free(S);
		return -1;
	}
	rel_sync(s, s->r);
	isl_space *rspace = isl_set_get_space(s->r->set);
	S = isl_set_align_params(S, isl_space_copy(rspace));
	struct conj or;
	disj_init(s, &or);
	for (long cs = 0; cs < ncases && !failed(&s->fail); cs++) {
		long res[RESIDUE_MAX_SIZES], rest = cs;
		for (int t = 0; t < nsize; t++) {
			res[t] = rest % period;
			rest /= period;
		}
		/* each variable as its digits times the weights' residues */
		isl_space *mspace = isl_space_map_from_domain_and_range(isl_space_copy(rspace),
									  isl_set_get_space(S));
		isl_multi_aff *ma = isl_multi_aff_zero(mspace);
		for (int v = 0; v < nvars(s) && ma; v++) {
			if (ndigits(&s->dec[v]) <= 1) {   /* a plain variable: its digit */
				struct lin one = digit(s, v, 0);
				ma = isl_multi_aff_set_aff(ma, (unsigned)v, rel_aff(s, s->r, &one));
				continue;
			}
			struct digit_forms f;
			digit_forms(s, v, &s->dec[v], &f);
			struct lin form = lin_const(0);
			long w = 1;   /* the weight of digit k modulo the period */
			for (int k = f.n - 1; k >= 0; k--) {
				form = lin_comb(s, &form, w, &f.dg[k]);
				if (k == 0)
					break;
				long size = f.sz[k].n == 0 ? f.sz[k].constant % period : 0;
				for (int t = 0; t < nsize && f.sz[k].n; t++)
					if (size_par[t] == f.sz[k].t[0].index)
						size = res[t];
				w = (w * ((size % period + period) % period)) % period;
			}
			ma = isl_multi_aff_set_aff(ma, (unsigned)v, rel_aff(s, s->r, &form));
		}
		struct conj cj;
		conj_init(s, &cj);
		if (cj.set)
			cj.set = isl_set_intersect(cj.set, isl_set_preimage_multi_aff(isl_set_copy(S),
										       ma));
		else
			isl_multi_aff_free(ma);
		/* the case: each size's residue */
		for (int t = 0; t < nsize && cj.set; t++) {
			isl_aff *q = rel_aff(s, s->r, &(struct lin){0, 1, {{false, size_par[t], 1}}});
			q = isl_aff_mod_val(q, isl_val_int_from_si(ctx, period));
			isl_aff *r = isl_aff_val_on_domain(isl_aff_get_domain_local_space(q),
							   isl_val_int_from_si(ctx, res[t]));
			cj.set = isl_set_intersect(cj.set, isl_aff_eq_set(q, r));
		}
		conj_or(s, &or, &cj);
	}
	isl_space_free(rspace);
	isl_set_free(S);
	rel_and(s, &or);
	return failed(&s->fail) ? -1 : 0;
}

/* CC's constraint by stride_bound; an equality as two bounds.  0 when
 * written, 1 when not of its form (nothing written), -1 on a failure. */
static int stride_bound_both(struct sym *s, int v, const struct ccons *cc, const char *text)
{
	int r = stride_bound(s, v, &cc->f, text);
	if (r != 0 || !cc->eq)
		return r;
	struct vform neg = cc->f;
	for (int u = 0; u < neg.nvars; u++)
		neg.var[u] = -neg.var[u];
	neg.par = lin_comb(s, &(struct lin){0}, -1, &cc->f.par);
	neg.constant = -neg.constant;
	r = stride_bound(s, v, &neg, text);
	if (r > 0)   /* the negation of a stride's form is one */
		fail_set(&s->fail, FAIL_ERROR, "internal: the condition '%s' as two bounds", text);
	return r == 0 ? 0 : -1;
}

/* The condition of SP over the current variables, in digits. */
static void cond_digits(struct sym *s, const struct model_space *sp)
{
	const char *text = sp->cond;
	isl_set *set = cond_set(s, sp);
	if (!set) {
		fail_isl(&s->fail, s->ctx, "the condition '%s'", text);
		return;
	}
	set = coalesce_set(set);
	isl_size nb = isl_set_n_basic_set(set);
	if (nb != 1) {
		isl_set_free(set);
		if (nb == 0) {
			struct conj cj;
			conj_init(s, &cj);
			conj_false(&cj);
			rel_and(s, &cj);
		} else {
			if (nb < 0)
				fail_isl(&s->fail, s->ctx, "the condition '%s'", text);
			else
				fail_set(&s->fail, FAIL_REFUSED,
					 "the condition '%s' is a disjunction, which the symbolic "
					 "grid does not split", text);
		}
		return;
	}
	isl_basic_set *bset = isl_set_simple_hull(set);
	isl_size ndiv = isl_basic_set_dim(bset, isl_dim_div);
	if (ndiv > 0) {
		/* the constraints with quotients: remainders, by their residues
		 * (residue_cond); the others, plain, as below */
		isl_basic_set *per = isl_basic_set_drop_constraints_not_involving_dims(
			isl_basic_set_copy(bset), isl_dim_div, 0, (unsigned)ndiv);
		bset = isl_basic_set_drop_constraints_involving_dims(bset, isl_dim_div, 0,
								      (unsigned)ndiv);
		bset = isl_basic_set_remove_divs(bset);
		if (!per || !bset) {
			isl_basic_set_free(per);
			isl_basic_set_free(bset);
			fail_isl(&s->fail, s->ctx, "the condition '%s'", text);
			return;
		}
		if (residue_cond(s, per, text) < 0) {
			isl_basic_set_free(bset);
			return;
		}
	}
	isl_constraint_list *list = isl_basic_set_get_constraint_list(bset);
	isl_size n = isl_constraint_list_size(list);
	int np = npar_fixed(s);
	for (int i = 0; i < n && !failed(&s->fail); i++) {
		isl_constraint *con = isl_constraint_list_get_constraint(list, i);
		struct ccons cc;
		memset(cc.f.var, 0, sizeof(cc.f.var));
		cc.f.nvars = nvars(s);
		cc.f.par = lin_const(0);
		bool ok = true;
		for (int v = 0; v < nvars(s) && ok; v++)
			ok = val_to_ll(isl_constraint_get_coefficient_val(con, isl_dim_set, v),
				      &cc.f.var[v]);
		for (int p = 0; p < np && ok; p++) {
			long long x = 0;
			ok = val_to_ll(isl_constraint_get_coefficient_val(con, isl_dim_param, p), &x);
			lin_add(s, &cc.f.par, false, p, x);
		}
		ok = ok && val_to_ll(isl_constraint_get_constant_val(con), &cc.f.constant);
		cc.eq = isl_constraint_is_equality(con) == isl_bool_true;
		isl_constraint_free(con);
		if (!ok) {
			fail_set(&s->fail, FAIL_REFUSED, "a coefficient of the condition '%s' does not fit in 64 bits",
				 text);
			break;
		}
		/* The multi-digit variables in this constraint. */
		int dv = -1, ndv = 0;
		for (int v = 0; v < nvars(s); v++)
			if (cc.f.var[v] && ndigits(&s->dec[v]) > 1) {
				dv = v;
				ndv++;
			}
		if (ndv == 0) {
			struct conj cj;
			conj_init(s, &cj);
			struct lin l = on_digits(s, &cc.f);
			conj_add(s, &cj, &l, cc.eq);
			rel_and(s, &cj);
		} else if (ndv == 2 && pair_bound(s, &cc.f, cc.eq) == 0) {
			/* two variables split the same way: compared digit by digit */
		} else if (ndv == 2 && !failed(&s->fail) &&
			   stride_pair_bound(s, &cc.f, cc.eq) == 0) {
			/* one a multiple of the other's: the same, with a stride */
		} else if (ndv == 1 && cc.f.var[dv] != 1 && cc.f.var[dv] != -1 &&
			   stride_bound_both(s, dv, &cc, text) <= 0) {
			/* a stride's bound: the top digit of a multiple */
		} else if (ndv == 1 && cc.f.var[dv] != 1 && cc.f.var[dv] != -1) {
			if (!failed(&s->fail))
				fail_set(&s->fail, FAIL_REFUSED,
					 "the condition '%s' bounds a multiple of %s, which is "
					 "distributed, by something other than a multiple of its "
					 "extent %s; the symbolic grid cannot express it",
					 text, var_name(s, dv), s->dec[dv].extent_text);
		} else if (ndv > 1) {
			char *hint = ndv == 2 ? pair_square_hint(s, &cc.f) : NULL;
			if (!failed(&s->fail))
				fail_set(&s->fail, FAIL_REFUSED,
					 "the condition '%s' relates distributed variables%s; the "
					 "symbolic grid cannot express it%s", text,
					 ndv == 2 ? " split in different ways (or with sizes or other "
						    "variables besides)" : "", hint ? hint : "");
			free(hint);
		} else {
			digit_bound(s, dv, (int)cc.f.var[dv], &cc.f, text);
			if (cc.eq) {
				/* v = e as v >= e and v <= e */
				for (int v = 0; v < nvars(s); v++)
					cc.f.var[v] = -cc.f.var[v];
				struct lin neg = lin_comb(s, &(struct lin){0}, -1, &cc.f.par);
				cc.f.par = neg;
				cc.f.constant = -cc.f.constant;
				digit_bound(s, dv, (int)cc.f.var[dv], &cc.f, text);
			}
		}
	}
	isl_constraint_list_free(list);
	isl_basic_set_free(bset);
}

/* ---- relations ----------------------------------------------------------- */

static void sym_begin(struct sym *s, const struct model_space *space)
{
	s->space = space;
	free(s->dec);
	free(s->first);
	s->dec = calloc((size_t)space->nvars + 1, sizeof(*s->dec));
	s->first = calloc((size_t)space->nvars + 1, sizeof(*s->first));
	if (!s->dec || !s->first)
		fail_nomem(&s->fail);
	for (int v = 0; v < space->nvars && s->dec; v++)
		s->dec[v].d = (struct dist){DIST_NONE, -1, 0, -1};
}

static void assign_from_preds(struct sym *s, const struct model_space *space)
{
	for (int i = 0; i < space->npreds; i++) {
		const struct model_pred *p = &space->preds[i];
		struct decomp d = pred_decomp(s, p->dist);
		assign_from_sub(s, &p->index_aff, p->index, &d, s->m->dists[p->dist]);
	}
}

/* Whether 0 <= V + C < EXTENT (a form of the sizes) wherever SP holds,
 * with statement ST's own bounds (the forall's), the assumptions and the
 * loops around the superstep; isl_bool_error when ISL failed. */
static isl_bool var_within(struct sym *s, const struct model_stmt *st,
			   const struct model_space *sp, int v, long long c,
			   const struct model_aff *extent)
{
	isl_set *set = cond_set(s, sp);
	if (sp != &st->lhs.space)   /* the forall's own bounds */
		set = isl_set_intersect(set, cond_set(s, &st->lhs.space));
	isl_set *valid = model_valid_set(s->ctx, s->m);
	if (s->m->steps[s->step].loop >= 0)
		valid = isl_set_intersect(valid, model_loops_set(s->ctx, s->m, s->step, NULL));
	set = isl_set_intersect_params(set, valid);
	if (!set)
		return isl_bool_error;
	isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(set));
	isl_aff *var = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, (unsigned)v);
	var = isl_aff_add_constant_val(var, isl_val_int_from_si(s->ctx, (long)c));
	struct lin x = lin_of_params(s, extent);
	isl_aff *ext = isl_aff_zero_on_domain(ls);
	for (int t = 0; t < x.n; t++)
		ext = isl_aff_set_coefficient_val(ext, isl_dim_param, x.t[t].index,
						  isl_val_int_from_si(s->ctx, (long)x.t[t].coef));
	ext = isl_aff_set_constant_val(ext, isl_val_int_from_si(s->ctx, (long)x.constant));
	isl_aff *zero = isl_aff_zero_on_domain(isl_aff_get_domain_local_space(var));
	isl_set *in = isl_aff_ge_set(isl_aff_copy(var), zero);
	in = isl_set_intersect(in, isl_aff_lt_set(var, ext));
	isl_bool within = isl_set_is_subset(set, in);
	isl_set_free(set);
	isl_set_free(in);
	return within;
}

/* Whether INDEX (of statement ST, where SP holds) stays within 0 .. X - 1,
 * X = EXTENT: a variable plus a constant (var_within), or a form of the
 * sizes and the loops' variables alone (d(w + 2) in a loop over w < n,
 * in_extent); true for any other form, which sub_digits refuses itself.
 * isl_bool_error when ISL failed or INDEX could not be read. */
static isl_bool index_within(struct sym *s, const struct model_stmt *st,
			     const struct model_space *sp, const struct model_aff *index,
			     const struct model_aff *extent)
{
	struct vform f;
	if (vform_of(s, index, &f) < 0)
		return isl_bool_error;
	long long c = 0;
	int v = vform_var_plus_const(&f, &c);
	if (v >= 0)
		return var_within(s, st, sp, v, c, extent);
	for (int u = 0; u < f.nvars; u++)
		if (f.var[u])
			return isl_bool_true;
	struct lin e = f.par;
	e.constant = f.constant;
	int in = in_extent(s, &e, extent);
	return in < 0 ? isl_bool_error : in ? isl_bool_true : isl_bool_false;
}

/* Subscript SUB (SUB_TEXT) of ARRAY, variable V plus C with C not 0, of a
 * dimension split under D into digits of its extent X: V is written as
 * those digits, which hold 0 <= V < X only, where the checker proved
 * 0 <= V + C < X.  Refused where the current space (with statement ST's
 * own bounds) lets V leave 0 .. X - 1: its digits would leave those
 * instances out, a count too small (C[k - 1] for 1 <= k < n over n - 1
 * elements: k = n - 1; tests/stress/found/offset-past-extent.bsp). */
static void var_in_extent(struct sym *s, const struct model_stmt *st,
			  const struct model_aff *sub, const char *sub_text,
			  const struct decomp *d, const char *array)
{
	if (d->d.kind == DIST_NONE || ndigits(d) <= 1 || failed(&s->fail))
		return;
	long long c = 0;
	int v = sub_var_plus_const(s, sub, &c);
	if (v == -1) {   /* a wrap: v's digits too */
		struct vform f;
		long long k;
		if (vform_of(s, sub, &f) < 0)
			return;
		v = vform_var_wrapped(s, &f, d->extent, &c, &k);
		if (v < 0) {
			int sv = vform_var_strided(&f, &k, &c);
			v = sv >= 0 && k > 0 ? sv : -1;
		}
		c = 1;
	}
	if (v < 0 || c == 0)
		return;
	/* within the extent of v's own split, whose digits write v (a
	 * stride's variable takes the split of an extent k times smaller:
	 * 1 <= i <= n with A[2*i - 1] over 2*n elements runs past n - 1) */
	const struct model_aff *ext = s->dec[v].d.kind != DIST_NONE ? s->dec[v].extent : d->extent;
	isl_bool within = var_within(s, st, s->space, v, 0, ext);
	if (within < 0)
		fail_isl(&s->fail, s->ctx, "the subscript '%s' of %s", sub_text, array);
	else if (!within && ext != d->extent)
		fail_set(&s->fail, FAIL_REFUSED,
			 "%s runs past 0 .. %s - 1, which its digits write (the split of that "
			 "extent, for the stride '%s' into %s's), so the symbolic grid cannot "
			 "write it: --grid or -D count it exactly",
			 var_name(s, v), s->dec[v].extent_text, sub_text, array);
	else if (!within)
		fail_set(&s->fail, FAIL_REFUSED,
			 "%s runs past the %s elements the subscript '%s' of %s indexes, which "
			 "the symbolic grid's digits of %s cannot write: --grid or -D count it "
			 "exactly", var_name(s, v), d->extent_text, sub_text, array, var_name(s, v));
}

/* The decompositions the left-hand side imposes (its distributed dimensions). */
static void assign_from_lhs(struct sym *s, const struct model_stmt *st)
{
	const struct model_array *arr = &s->m->arrays[st->lhs.array];
	for (int d = 0; d < arr->ndims; d++) {
		struct decomp dc = layout_decomp(s, st->lhs.array, d);
		assign_from_sub(s, &st->lhs.sub_affs[d], st->lhs.subs[d], &dc, arr->name);
		var_in_extent(s, st, &st->lhs.sub_affs[d], st->lhs.subs[d], &dc, arr->name);
	}
	assign_from_preds(s, &st->lhs.space);
}

/* Adds to the relation new dimensions RES, the digits of SUB under D, and
 * their definition.  Returns 0, or -1 with the state saying why. */
static int sub_digits(struct sym *s, const struct model_aff *sub, const char *sub_text,
		      const struct decomp *d, struct lin res[3])
{
	struct vform f;
	if (vform_of(s, sub, &f) < 0)
		return -1;
	long long c = 0;
	int v = vform_var_plus_const(&f, &c);
	int n = ndigits(d);
	new_dims(s, n, res);
	bool has_vars = false;
	for (int u = 0; u < f.nvars; u++)
		has_vars |= f.var[u] != 0;
	/* not distributed, or one digit (identity: the index is its owner) and
	 * a form of several variables (Cannon's (i + j) % R, a case of it being
	 * i + j - R): the form itself, on whole variables */
	if (d->d.kind == DIST_NONE || (n == 1 && v == -1 && has_vars)) {
		for (int u = 0; u < f.nvars; u++)
			if (f.var[u] && ndigits(&s->dec[u]) > 1) {
				fail_set(&s->fail, FAIL_REFUSED,
					 "the subscript '%s' combines a distributed variable with "
					 "something else",
					 sub_text);
				return -1;
			}
		struct conj cj;
		conj_init(s, &cj);
		struct lin l = on_digits(s, &f);
		conj_eq(s, &cj, &res[0], &l);
		rel_and(s, &cj);
		return failed(&s->fail) ? -1 : 0;
	}
	long long k = 0;
	int w = v == -1 ? vform_var_wrapped(s, &f, d->extent, &c, &k) : -1;
	int sv = v == -1 && w < 0 ? vform_var_strided(&f, &k, &c) : -1;
	if (sv >= 0 && k > 0) {
		/* a stride, k*v + c */
		if (stride_too_large(s, k, "subscript", sub_text))
			return -1;
		stride_digits(s, sv, k, c, d, res, false);
		return failed(&s->fail) ? -1 : 0;
	}
	if (w >= 0) {
		/* v + c + k*X, X = (size of the top digit, 0, ..., 0) in digits,
		 * in 0 .. X - 1 (the checker proved it): the digits of v + c,
		 * the top one free to carry past its range (open), plus k times
		 * the top digit's size */
		struct lin moved[3];
		const char *t;
		char buf[32];
		struct lin top = digit_size(s, d, 0, &t, buf);
		for (int j = 0; j < n; j++)
			moved[j] = res[j];
		moved[0] = lin_comb(s, &res[0], -k, &top);
		digits_from(s, w, NULL, c, d, moved, true);
		return failed(&s->fail) ? -1 : 0;
	}
	if (v == -1) {
		for (int u = 0; u < f.nvars; u++)
			if (f.var[u]) {
				fail_set(&s->fail, FAIL_REFUSED, "the subscript '%s' is neither a variable "
					 "plus a constant nor an expression of the sizes", sub_text);
				return -1;
			}
		/* an expression of the sizes (a pivot k0, a loop's k): its digits */
		struct lin e = f.par, pd[3];
		e.constant = f.constant;
		if (expr_offset_digits(s, &e, d, res) == 0)
			return failed(&s->fail) ? -1 : 0;
		int in = in_extent(s, &e, d->extent);
		if (in < 0) {
			fail_isl(&s->fail, s->ctx, "the subscript '%s'", sub_text);
			return -1;
		}
		if (in == 0) {
			fail_set(&s->fail, FAIL_REFUSED,
				 "the subscript '%s' is not kept within 0 .. %s - 1 by the assumptions "
				 "alone: the symbolic grid writes it as digits of the distribution only "
				 "then (assume it, or --grid / -D count it)", sub_text, d->extent_text);
			return -1;
		}
		if (expr_digits(s, &e, d, pd) < 0)
			return -1;
		struct conj cj;
		conj_init(s, &cj);
		for (int k = 0; k < n; k++)
			conj_eq(s, &cj, &res[k], &pd[k]);
		rel_and(s, &cj);
		return failed(&s->fail) ? -1 : 0;
	}
	digits_of(s, v, c, d, res);
	return failed(&s->fail) ? -1 : 0;
}

static bool replicated_over(const struct sym *s, int a, int ax);

/* Whether every process holds every element of array A (replicated over
 * every axis): its reads are all local, whatever their digits. */
static bool replicated_everywhere(const struct sym *s, int a)
{
	for (int ax = 0; ax < s->m->naxes; ax++)
		if (!replicated_over(s, a, ax))
			return false;
	return true;
}

/* The decomposition with which dimension D of the read array is written: its
 * own distribution, or, not distributed, that of the variable subscripting it
 * (of statement ST).  A subscript V + C there is written as V's digits with
 * a carry, which hold 0 .. X - 1 only (X the extent V's distribution
 * splits): where V + C can leave that range (A[0][i + 2] over m + 2 columns,
 * i cyclic over C's m elements), those elements would be owned by nobody and
 * their reads left out, a count too small; refused
 * (tests/brute/specs/lent_digits_past_extent.bsp), unless every process
 * holds the array (its reads are local: leaving some out changes nothing). */
static int read_dim_shape(struct sym *s, const struct model_stmt *st,
			  const struct model_access *rd, int d, struct decomp *out)
{
	const struct model_array *arr = &s->m->arrays[rd->array];
	*out = layout_decomp(s, rd->array, d);
	if (out->d.kind != DIST_NONE)
		return 0;
	struct vform f;
	if (vform_of(s, &rd->sub_affs[d], &f) < 0)
		return -1;
	long long c = 0;
	int v = vform_var_plus_const(&f, &c);
	bool split = false;
	for (int u = 0; u < f.nvars; u++)
		if (f.var[u] && ndigits(&s->dec[u]) > 1) {
			split = true;
			if (v != u)
				fail_set(&s->fail, FAIL_REFUSED,
					 "the subscript '%s' of %s combines a distributed variable with "
					 "something else",
					 rd->subs[d], arr->name);
		}
	if (!split || failed(&s->fail))
		return failed(&s->fail) ? -1 : 0;
	*out = s->dec[v];
	isl_bool within = c == 0 || replicated_everywhere(s, rd->array)
				  ? isl_bool_true
				  : var_within(s, st, s->space, v, c, out->extent);
	if (within < 0)
		fail_isl(&s->fail, s->ctx, "the subscript '%s' of %s", rd->subs[d], arr->name);
	else if (!within)
		fail_set(&s->fail, FAIL_REFUSED,
			 "the subscript '%s' of %s runs past 0 .. %s - 1, the elements the digits "
			 "of %s write (its distribution's extent), which the symbolic grid cannot "
			 "write in a dimension not distributed: --grid or -D count it exactly",
			 rd->subs[d], arr->name, out->extent_text, var_name(s, v));
	return failed(&s->fail) ? -1 : 0;
}

/* Whether candidate S's layout of array A replicates it over axis AX: a
 * `replicated over` factor of the product, or a dimension replicated over
 * AX.  Every coordinate of the axis then holds the element. */
static bool replicated_over(const struct sym *s, int a, int ax)
{
	if (s->c->replicate && (s->c->replicate[a] & (1u << ax)))
		return true;
	for (int d = 0; d < s->m->arrays[a].ndims; d++)
		if (dist_ops(s->c->layout[a][d].kind)->replicated && s->c->layout[a][d].axis == ax)
			return true;
	return false;
}

/* 0 <= Q <= axis AX - 1, in the conjunction CJ: a coordinate of an axis the
 * layout replicates over, any of which holds the element. */
static void on_axis(struct sym *s, struct conj *cj, const struct lin *q, int ax)
{
	struct lin zero = lin_const(0), size = lin_par(axis_par(s, ax));
	conj_ge(s, cj, q, &zero);
	conj_lt(s, cj, q, &size);
}

/* q_a = the owner digit, for every axis, for the left-hand side of ST (any
 * coordinate of an axis it is replicated over). */
static void lhs_owner(struct sym *s, const struct model_stmt *st)
{
	const struct model_array *arr = &s->m->arrays[st->lhs.array];
	for (int a = 0; a < s->m->naxes && !failed(&s->fail); a++) {
		if (replicated_over(s, st->lhs.array, a)) {
			/* every holder computes the instance */
			struct lin q = lin_dim(a);
			struct conj cj;
			conj_init(s, &cj);
			on_axis(s, &cj, &q, a);
			rel_and(s, &cj);
			continue;
		}
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (s->c->layout[st->lhs.array][d].kind != DIST_NONE &&
			    s->c->layout[st->lhs.array][d].axis == a)
				dim = d;
		struct lin q = lin_dim(a), zero = lin_const(0);
		struct conj cj;
		if (dim < 0) {
			conj_init(s, &cj);
			conj_eq(s, &cj, &q, &zero);
			rel_and(s, &cj);
			continue;
		}
		struct decomp d = layout_decomp(s, st->lhs.array, dim);
		struct lin res[3];
		if (sub_digits(s, &st->lhs.sub_affs[dim], st->lhs.subs[dim], &d, res) < 0)
			return;
		conj_init(s, &cj);
		conj_eq(s, &cj, &q, &res[dist_ops(d.d.kind)->digits.owner]);
		rel_and(s, &cj);
	}
}

/* The distribution predicates of SPACE: the owner digit of the index is the
 * coordinate. */
static void preds(struct sym *s, const struct model_stmt *st, const struct model_space *space)
{
	for (int i = 0; i < space->npreds && !failed(&s->fail); i++) {
		const struct model_pred *p = &space->preds[i];
		if (p->negated) {
			fail_set(&s->fail, FAIL_REFUSED,
				 "dist %s in a negated predicate (index %s, coordinate %s) is not "
				 "analyzed on the symbolic grid yet",
				 s->m->dists[p->dist], p->index, p->coord);
			return;
		}
		struct vform cf;
		if (vform_of(s, &p->coord_aff, &cf) < 0)
			return;
		for (int v = 0; v < cf.nvars; v++)
			if (cf.var[v] && ndigits(&s->dec[v]) > 1)
				fail_set(&s->fail, FAIL_REFUSED,
					 "the distribution predicate %s(%s) == %s compares with a "
					 "distributed variable",
					 s->m->dists[p->dist], p->index, p->coord);
		if (failed(&s->fail))
			return;
		struct lin coord = on_digits(s, &cf), zero = lin_const(0);
		struct decomp d = pred_decomp(s, p->dist);
		struct conj cj;
		if (dist_ops(d.d.kind)->replicated)
			continue;   /* every coordinate holds every index */
		if (d.d.kind == DIST_NONE) {
			conj_init(s, &cj);
			conj_eq(s, &cj, &coord, &zero);
			rel_and(s, &cj);
			continue;
		}
		/* the index V + C as digits of the extent X the dist splits: they
		 * hold 0 .. X - 1 only, where a cyclic dist maps any index (and a
		 * block one those up to its last block): an index that leaves
		 * that range would lose its instances, a count too small
		 * (e(i + 2) == 1 for 0 < i < m over m elements) */
		isl_bool within = ndigits(&d) > 1
					  ? index_within(s, st, space, &p->index_aff, d.extent)
					  : isl_bool_true;
		if (failed(&s->fail))
			return;
		if (within < 0) {
			fail_isl(&s->fail, s->ctx, "the distribution predicate %s(%s)",
				 s->m->dists[p->dist], p->index);
			return;
		}
		if (!within) {
			fail_set(&s->fail, FAIL_REFUSED,
				 "the index %s of the distribution predicate %s(%s) == %s runs past "
				 "0 .. %s - 1, the elements the dist's digits write, which the symbolic "
				 "grid cannot write: --grid or -D count it exactly",
				 p->index, s->m->dists[p->dist], p->index, p->coord, d.extent_text);
			return;
		}
		struct lin res[3];
		if (sub_digits(s, &p->index_aff, p->index, &d, res) < 0)
			return;
		conj_init(s, &cj);
		conj_eq(s, &cj, &res[dist_ops(d.d.kind)->digits.owner], &coord);
		rel_and(s, &cj);
	}
}

/* The number of digits of the current variables. */
static int total_digits(const struct sym *s)
{
	int n = 0;
	for (int v = 0; v < nvars(s); v++)
		n += ndigits(&s->dec[v]);
	return n;
}

/* The relation's set, as a map from its first NIN dimensions to the next
 * NOUT, the rest projected out; R is cleared. */
static __isl_give isl_map *rel_map(struct sym *s, struct rel *r, int nin, int nout)
{
	rel_sync(s, r);
	isl_set *set = r->set;
	r->set = NULL;
	if (!set)
		return NULL;
	set = isl_set_project_out(set, isl_dim_set, (unsigned)(nin + nout),
				  (unsigned)(r->ndims - nin - nout));
	isl_map *map = isl_map_from_range(set);
	return isl_map_move_dims(map, isl_dim_in, 0, isl_dim_out, 0, (unsigned)nin);
}

static bool same_cons(const struct model_cons *a, const struct model_cons *b)
{
	return a->kind == b->kind && a->divisor == b->divisor && model_aff_equal(&a->f, &b->f);
}

/* A and B are the same space (variables, constraints, predicates). */
static bool same_space(const struct model_space *a, const struct model_space *b)
{
	if (a == b)
		return true;
	if (a->nvars != b->nvars || a->ncons != b->ncons || a->npreds != b->npreds)
		return false;
	for (int v = 0; v < a->nvars; v++)
		if (a->vidx[v] != b->vidx[v])
			return false;
	for (int i = 0; i < a->ncons; i++)
		if (!same_cons(&a->cons[i], &b->cons[i]))
			return false;
	for (int i = 0; i < a->npreds; i++)
		if (a->preds[i].dist != b->preds[i].dist ||
		    !model_aff_equal(&a->preds[i].index_aff, &b->preds[i].index_aff) ||
		    !model_aff_equal(&a->preds[i].coord_aff, &b->preds[i].coord_aff))
			return false;
	return true;
}

static void inst_cache_clear(struct inst_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->e[i].dec);
		isl_map_free(c->e[i].map);
		isl_map_free(c->e[i].coalesced);
	}
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static __isl_give isl_map *build_instances(struct sym *s, const struct model_stmt *st,
					   const struct model_space *space);

/* { [q] -> [digits of the current variables] : the instances of SPACE (a
 * statement's, a read's or a term's) that q computes }, with the
 * decompositions already assigned; from the cache when built before.
 * COALESCED asks for it coalesced (the reads are composed with it so, which
 * is cheaper; the work is counted as built: coalesced, its count's pieces
 * can defeat ISL's tight bound on the maximum over processes). */
static __isl_give isl_map *instances(struct sym *s, const struct model_stmt *st,
				     const struct model_space *space, bool coalesced)
{
	struct inst_cache *c = s->cache;
	int i = 0;
	for (; i < c->n; i++) {
		struct inst_entry *e = &c->e[i];
		if (e->st != st || !same_space(e->space, space))
			continue;
		bool same = true;
		for (int v = 0; v < space->nvars && same; v++)
			same = same_decomp(&e->dec[v], &s->dec[v]);
		if (same)
			break;
	}
	if (i == c->n) {
		isl_map *map = build_instances(s, st, space);
		if (!map)
			return NULL;
		struct inst_entry *e = realloc(c->e, sizeof(*e) * (size_t)(c->n + 1));
		struct decomp *dec = malloc(sizeof(*dec) * (size_t)(space->nvars + 1));
		if (e)
			c->e = e;
		if (!e || !dec) {
			free(dec);
			return coalesced ? coalesce_map(map) : map;
		}
		memcpy(dec, s->dec, sizeof(*dec) * (size_t)space->nvars);
		c->e[c->n++] = (struct inst_entry){st, space, dec, map, NULL};
	}
	struct inst_entry *e = &c->e[i];
	if (!coalesced)
		return isl_map_copy(e->map);
	if (!e->coalesced)
		e->coalesced = coalesce_map(isl_map_copy(e->map));
	return isl_map_copy(e->coalesced);
}

static __isl_give isl_map *build_instances(struct sym *s, const struct model_stmt *st,
					   const struct model_space *space)
{
	int na = s->m->naxes;
	struct rel r;
	s->r = &r;
	rel_init(s, &r, na);
	int nd = total_digits(s);
	rel_add_dims(s, &r, nd);
	layout_digits(s, na);
	r.set = isl_set_intersect_params(r.set, model_assumption_set(s->ctx, s->m));
	digit_ranges(s);
	cond_digits(s, &st->lhs.space);
	if (space != &st->lhs.space)
		cond_digits(s, space);
	preds(s, st, &st->lhs.space);
	if (space != &st->lhs.space)
		preds(s, st, space);
	lhs_owner(s, st);
	s->r = NULL;
	if (failed(&s->fail)) {
		isl_set_free(r.set);
		return NULL;
	}
	return rel_map(s, &r, na, nd);
}

/* The use relation of read RD: its instances composed with the element each
 * instance reads, { [digits] -> [element digits] }. */
static __isl_give isl_map *read_map(struct sym *s, const struct model_stmt *st,
				    const struct model_access *rd, struct elem_shape *shape)
{
	const struct model_array *arr = &s->m->arrays[rd->array];
	sym_begin(s, &rd->space);
	assign_from_lhs(s, st);
	for (int d = 0; d < arr->ndims; d++) {
		struct decomp dc = layout_decomp(s, rd->array, d);
		assign_from_sub(s, &rd->sub_affs[d], rd->subs[d], &dc, arr->name);
		var_in_extent(s, st, &rd->sub_affs[d], rd->subs[d], &dc, arr->name);
	}
	assign_from_preds(s, &rd->space);
	if (failed(&s->fail))
		return NULL;

	struct decomp dims[MODEL_MAX_DIMS];
	for (int d = 0; d < arr->ndims; d++)
		if (read_dim_shape(s, st, rd, d, &dims[d]) < 0)
			return NULL;
	if (shape->set) {
		for (int d = 0; d < arr->ndims; d++)
			if (!equivalent_decomp(s, &shape->dim[d], &dims[d]))
				fail_set(&s->fail, FAIL_REFUSED,
					 "dimension %d of %s is indexed by variables split in different "
					 "ways in one superstep",
					 d + 1, arr->name);
		if (failed(&s->fail))
			return NULL;
	} else {
		shape->set = true;
		memcpy(shape->dim, dims, sizeof(dims));
	}

	/* The instances first: the block lengths they name come first. */
	isl_map *inst = instances(s, st, &rd->space, true);
	if (!inst)
		return NULL;
	int nd = total_digits(s);
	struct rel r;
	s->r = &r;
	rel_init(s, &r, nd);
	layout_digits(s, 0);
	for (int d = 0; d < arr->ndims && !failed(&s->fail); d++) {
		struct lin res[3];
		sub_digits(s, &rd->sub_affs[d], rd->subs[d], &dims[d], res);
	}
	s->r = NULL;
	if (failed(&s->fail)) {
		isl_set_free(r.set);
		isl_map_free(inst);
		return NULL;
	}
	isl_map *access = rel_map(s, &r, nd, r.ndims - nd);
	return coalesce_map(isl_map_apply_range(inst, access));
}

/* A variable of SP (a space of ST) that no distribution splits, bounded in
 * a condition by one that is split (a sum's j <= i): it takes that split
 * when the conditions keep it within the same extent, so that the bound
 * compares digits (pair_bound). */
static void adopt_decompositions(struct sym *s, const struct model_stmt *st,
				 const struct model_space *sp)
{
	for (int i = 0; i < sp->ncons && !failed(&s->fail); i++) {
		const struct model_cons *c = &sp->cons[i];
		struct vform f;
		if (c->kind != MODEL_GE0 || vform_of(s, &c->f, &f) < 0)
			continue;
		int u = -1, v = -1, nv = 0;
		for (int x = 0; x < f.nvars; x++) {
			if (!f.var[x])
				continue;
			nv++;
			if (s->dec[x].d.kind == DIST_NONE)
				u = x;
			else
				v = x;
		}
		if (nv != 2 || u < 0 || v < 0 || f.var[u] + f.var[v] != 0 ||
		    (f.var[u] != 1 && f.var[u] != -1) || f.par.n != 0)
			continue;
		/* 0 <= u <= X - 1 wherever SP holds? */
		isl_bool sub = var_within(s, st, sp, u, 0, s->dec[v].extent);
		if (sub < 0) {
			fail_isl(&s->fail, s->ctx, "the condition '%s'", sp->cond);
			return;
		}
		if (sub)
			s->dec[u] = s->dec[v];
	}
}

/* The work relation of TERM: { [q] -> [digits of its variables] }. */
static __isl_give isl_map *work_map(struct sym *s, const struct model_stmt *st,
				    const struct model_space *term)
{
	sym_begin(s, term);
	assign_from_lhs(s, st);
	assign_from_preds(s, term);
	adopt_decompositions(s, st, term);
	if (failed(&s->fail))
		return NULL;
	return instances(s, st, term, false);
}

/* The ownership of array A with element shape SHAPE: { [element digits] -> [q] }. */
static __isl_give isl_map *own_map(struct sym *s, int a, const struct elem_shape *shape)
{
	const struct model_array *arr = &s->m->arrays[a];
	int first[MODEL_MAX_DIMS], ne = 0;
	for (int d = 0; d < arr->ndims; d++) {
		first[d] = ne;
		ne += ndigits(&shape->dim[d]);
	}
	int na = s->m->naxes;
	struct rel r;
	s->r = &r;
	rel_init(s, &r, ne + na);
	r.set = isl_set_intersect_params(r.set, model_assumption_set(s->ctx, s->m));
	struct conj cj;
	conj_init(s, &cj);
	struct lin zero = lin_const(0);
	for (int d = 0; d < arr->ndims; d++) {
		const struct decomp *dd = &shape->dim[d];
		for (int k = 0; k < ndigits(dd); k++) {
			const char *t;
			char buf[32];
			struct lin size = dd->d.kind == DIST_NONE ? lin_of_params(s, dd->extent)
								  : digit_size(s, dd, k, &t, buf);
			struct lin e = lin_dim(first[d] + k);
			conj_ge(s, &cj, &e, &zero);
			conj_lt(s, &cj, &e, &size);
		}
	}
	for (int ax = 0; ax < na; ax++) {
		struct lin q = lin_dim(ne + ax);
		if (replicated_over(s, a, ax)) {
			on_axis(s, &cj, &q, ax);
			continue;
		}
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (s->c->layout[a][d].kind != DIST_NONE && s->c->layout[a][d].axis == ax)
				dim = d;
		if (dim < 0) {
			conj_eq(s, &cj, &q, &zero);
			continue;
		}
		/* the owner digit of the shape's kind: block or cyclic of an
		 * extent that is the axis's size is the identity there */
		enum dist_kind k = shape->dim[dim].d.kind;
		int owner = k != DIST_NONE ? dist_ops(k)->digits.owner : -1;
		if (owner < 0) {
			fail_set(&s->fail, FAIL_ERROR, "internal: %s has no owner digit on axis %s",
				 arr->name, s->m->axes[ax]);
			break;
		}
		struct lin e = lin_dim(first[dim] + owner);
		conj_eq(s, &cj, &q, &e);
	}
	rel_and(s, &cj);
	s->r = NULL;
	if (failed(&s->fail)) {
		isl_set_free(r.set);
		return NULL;
	}
	return rel_map(s, &r, ne, na);
}

/* The final parameter space: sizes, axes and every block length. */
static __isl_give isl_space *final_params(struct sym *s)
{
	isl_space *space = model_param_space(s->ctx, s->m, true);
	int np = npar_fixed(s);
	space = isl_space_add_dims(space, isl_dim_param, (unsigned)s->info->nlocals);
	for (int l = 0; l < s->info->nlocals && space; l++)
		space = isl_space_set_dim_id(space, isl_dim_param, (unsigned)(np + l), local_id(s, l));
	return space;
}

/* The context: axes and block lengths are positive, digits within their
 * ranges, the user's assumptions.  The digits of a loop's variable whose
 * loop is not around this superstep (an earlier superstep's loop made them)
 * have no range here: no relation of it names them, and their ranges would
 * let ISL split its counts on them (w_Q == 0 where Q == 1), into formulas
 * no value of the sizes evaluates (tests/stress/found/foreign-loop-digits.bsp;
 * cost.c leaves them out of the counts' context too). */
static __isl_give isl_set *context(struct sym *s, __isl_keep isl_space *params)
{
	isl_set *set = isl_set_align_params(model_assumption_set(s->ctx, s->m),
					    isl_space_copy(params));
	for (int a = 0; a < s->m->naxes && set; a++)
		set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)axis_par(s, a), 1);
	set = symbolic_local_ranges(set, s->m, s->info);
	return symbolic_without_foreign_digits(set, s->m, s->info, s->step);
}

unsigned symbolic_loop_digit(const struct model *m, int step, const struct local_param *lp)
{
	unsigned how = 0;
	for (int t = 0; lp->digit >= 0 && t < lp->of.nterms; t++)
		for (int k = 0; k < m->nloops; k++) {
			if (lp->of.terms[t].kind != MODEL_PARAM ||
			    lp->of.terms[t].index != m->loops[k].param)
				continue;
			bool around = false;
			for (int o = step >= 0 ? m->steps[step].loop : -1; o >= 0 && !around;
			     o = m->loops[o].outer)
				around = o == k;
			how |= around ? SYMBOLIC_DIGIT_AROUND : SYMBOLIC_DIGIT_OTHER;
		}
	return how;
}

__isl_give isl_set *symbolic_without_foreign_digits(__isl_take isl_set *set, const struct model *m,
						    const struct symbolic_info *info, int step)
{
	for (int l = 0; l < info->nlocals && set; l++) {
		const struct local_param *lp = &info->locals[l];
		int at = symbolic_loop_digit(m, step, lp) & SYMBOLIC_DIGIT_OTHER
			 ? isl_set_find_dim_by_name(set, isl_dim_param, lp->name) : -1;
		if (at >= 0)
			set = isl_set_drop_constraints_involving_dims(set, isl_dim_param,
								      (unsigned)at, 1);
	}
	return set;
}

/* The number of digits from local L on (L the first, digit 0). */
static int local_ndigits(const struct symbolic_info *info, int l)
{
	int n = 1;
	while (l + n < info->nlocals && info->locals[l + n].digit == n)
		n++;
	return n;
}

/* E, a form of the sizes and axes, as an affine function on SPACE, a
 * parameter space whose first parameters are the model's sizes and axes. */
static __isl_give isl_aff *of_aff(__isl_keep isl_space *space, const struct model *m,
				  const struct model_aff *e)
{
	if (e->constant < INT_MIN || e->constant > INT_MAX)
		return NULL;
	isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(
		isl_space_set_from_params(isl_space_copy(space))));
	a = isl_aff_set_constant_si(a, (int)e->constant);
	for (int i = 0; i < e->nterms && a; i++) {
		const struct model_term *t = &e->terms[i];
		if (t->kind == MODEL_VAR || t->by || t->coef < INT_MIN || t->coef > INT_MAX)
			return isl_aff_free(a);
		int pos = t->kind == MODEL_PARAM ? t->index : m->nparams + t->index;
		a = isl_aff_add_coefficient_si(a, isl_dim_param, pos, (int)t->coef);
	}
	return a;
}

/* The digits at parameter positions A[0..n) lexicographically at most
 * those at B[0..n) (most significant first), as a set on SPACE. */
static __isl_give isl_set *lex_at_most(__isl_keep isl_space *space, const int *a, const int *b,
				       int n)
{
	isl_set *u = isl_set_empty(isl_space_copy(space));
	for (int k = 0; k <= n && u; k++) {
		/* the first k digits equal, digit k smaller (k == n: all equal) */
		isl_local_space *ls = isl_local_space_from_space(isl_space_copy(space));
		isl_basic_set *bs = isl_basic_set_universe(isl_space_copy(space));
		for (int j = 0; j < k && j < n; j++) {
			isl_constraint *c = isl_constraint_alloc_equality(isl_local_space_copy(ls));
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, b[j], 1);
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, a[j], -1);
			bs = isl_basic_set_add_constraint(bs, c);
		}
		if (k < n) {
			/* b_k - a_k - 1 >= 0 */
			isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, b[k], 1);
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, a[k], -1);
			c = isl_constraint_set_constant_si(c, -1);
			bs = isl_basic_set_add_constraint(bs, c);
		}
		isl_local_space_free(ls);
		u = isl_set_union(u, isl_set_from_basic_set(bs));
	}
	return u;
}

/* The positions in SPACE of the N digits from local L on, found by name
 * (a context may have dropped some, or hold them elsewhere): false when one
 * is not there. */
static bool digit_positions(__isl_keep isl_space *space, const struct symbolic_info *info, int l,
			    int n, int pos[3])
{
	for (int k = 0; k < n; k++) {
		pos[k] = isl_space_find_dim_by_name(space, isl_dim_param, info->locals[l + k].name);
		if (pos[k] < 0)
			return false;
	}
	return true;
}

/* SET (taken) where the digits of two expressions of one decomposition are
 * in the order the assumptions give the expressions (kk <= kk + b - 1 when
 * b >= 1): a number's digits, most significant first, are in the order of
 * the number.  Without it a count splits on digits no point has (the end of
 * a panel before its start).  NULL when ISL failed. */
__isl_give isl_set *symbolic_digit_orders(__isl_take isl_set *set, const struct model *m,
					   const struct symbolic_info *info)
{
	if (!set)
		return NULL;
	isl_ctx *ctx = isl_set_get_ctx(set);
	isl_space *space = isl_set_get_space(set);
	isl_space *mspace = model_param_space(ctx, m, true);
	isl_set *valid = isl_set_align_params(model_valid_set(ctx, m), isl_space_copy(space));
	bool bad = !space || !mspace || !valid;
	for (int l = 0; l < info->nlocals && !bad; l++) {
		const struct local_param *p = &info->locals[l];
		int n = p->digit == 0 ? local_ndigits(info, l) : 0;
		int lp[3];
		if (n == 0 || !digit_positions(space, info, l, n, lp))
			continue;
		for (int r = l + n; r < info->nlocals && !bad; r++) {
			const struct local_param *q = &info->locals[r];
			int rp[3];
			if (q->digit != 0 || q->kind != p->kind || q->axis != p->axis ||
			    q->block != p->block || q->block_param != p->block_param ||
			    local_ndigits(info, r) != n ||
			    !model_aff_equal(&q->extent_aff, &p->extent_aff) ||
			    !digit_positions(space, info, r, n, rp))
				continue;
			/* (an expression with a coefficient past int: not compared) */
			isl_aff *e = of_aff(mspace, m, &p->of), *f = of_aff(mspace, m, &q->of);
			if (!e || !f) {
				isl_aff_free(e);
				isl_aff_free(f);
				continue;
			}
			isl_aff *d = isl_aff_align_params(isl_aff_sub(f, e), isl_space_copy(space));
			/* d = F - E >= 0 (E <= F), and -d >= 0 */
			isl_set *le = isl_set_params(isl_pw_aff_nonneg_set(
				isl_pw_aff_from_aff(isl_aff_copy(d))));
			isl_set *ge = isl_set_params(isl_pw_aff_nonneg_set(
				isl_pw_aff_from_aff(isl_aff_neg(d))));
			isl_bool up = isl_set_is_subset(valid, le);
			isl_bool down = up == isl_bool_false ? isl_set_is_subset(valid, ge)
							     : isl_bool_false;
			isl_set_free(le);
			isl_set_free(ge);
			bad = up < 0 || down < 0;
			if (up == isl_bool_true)
				set = isl_set_intersect(set, lex_at_most(space, lp, rp, n));
			else if (down == isl_bool_true)
				set = isl_set_intersect(set, lex_at_most(space, rp, lp, n));
			bad |= !set;
		}
	}
	isl_set_free(valid);
	isl_space_free(mspace);
	isl_space_free(space);
	if (bad)
		return isl_set_free(set);
	return set;
}

__isl_give isl_set *symbolic_local_ranges(__isl_take isl_set *set, const struct model *m,
					  const struct symbolic_info *info)
{
	int np = m->nparams + m->naxes;
	for (int l = 0; l < info->nlocals && set; l++) {
		const struct local_param *p = &info->locals[l];
		if (p->digit < 0) {
			set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)(np + l), 1);
			/* the block length of an extent K times another's, over
			 * the same axes in the same blocks, is K times its (a
			 * stride between arrays of n and 2*n elements) */
			for (int o = 0; o < info->nlocals && set; o++) {
				const struct local_param *q = &info->locals[o];
				long long k = q->digit < 0 && o != l && q->axes == p->axes &&
						      q->block == p->block &&
						      q->block_param == p->block_param
						      ? extent_ratio(&p->extent_aff, &q->extent_aff)
						      : 0;
				if (k < 2 || k > INT_MAX)
					continue;
				isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(set));
				isl_constraint *c = isl_constraint_alloc_equality(ls);
				c = isl_constraint_set_coefficient_si(c, isl_dim_param, np + l, 1);
				c = isl_constraint_set_coefficient_si(c, isl_dim_param, np + o, -(int)k);
				set = isl_set_add_constraint(set, c);
			}
			continue;
		}
		/* 0 <= digit <= size - 1 */
		set = isl_set_lower_bound_si(set, isl_dim_param, (unsigned)(np + l), 0);
		isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(set));
		isl_constraint *c = isl_constraint_alloc_inequality(ls);
		c = isl_constraint_set_coefficient_si(c, isl_dim_param, np + l, -1);
		if (p->size_axis >= 0)
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, m->nparams + p->size_axis, 1);
		else if (p->size_local >= 0)
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, np + p->size_local, 1);
		else if (p->size_param >= 0)
			c = isl_constraint_set_coefficient_si(c, isl_dim_param, p->size_param, 1);
		bool var = p->size_axis >= 0 || p->size_local >= 0 || p->size_param >= 0;
		c = isl_constraint_set_constant_si(c, var ? -1 : (int)p->size_const - 1);
		set = isl_set_add_constraint(set, c);
	}
	return set;
}

/* { [q] : 0 <= q_a < axis_a } */
static __isl_give isl_set *process_set(struct sym *s, __isl_keep isl_space *params)
{
	int na = s->m->naxes;
	isl_space *space = isl_space_add_dims(isl_space_set_from_params(isl_space_copy(params)),
					      isl_dim_set, (unsigned)na);
	isl_set *set = isl_set_universe(isl_space_copy(space));
	isl_local_space *ls = isl_local_space_from_space(space);
	for (int a = 0; a < na && set; a++) {
		isl_aff *q = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, (unsigned)a);
		isl_aff *size = isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_param,
						      (unsigned)axis_par(s, a));
		isl_aff *z = isl_aff_zero_on_domain(isl_local_space_copy(ls));
		set = isl_set_intersect(set, isl_aff_ge_set(isl_aff_copy(q), z));
		set = isl_set_intersect(set, isl_aff_lt_set(q, size));
	}
	isl_local_space_free(ls);
	return set;
}

int relations_symbolic(isl_ctx *ctx, const struct model *m, int cand, int step,
		       struct step_relations *out, struct symbolic_info *info, char **reason)
{
	const struct model_superstep *ss = &m->steps[step];
	struct inst_cache cache = {0};
	struct sym s = {.ctx = ctx, .m = m, .c = &m->cands[cand], .info = info, .cache = &cache,
			.step = step};
	struct elem_shape *shapes = calloc((size_t)m->narrays + 1, sizeof(*shapes));
	*reason = NULL;
	if (step_relations_alloc(out, m, step) < 0 || !shapes)
		fail_nomem(&s.fail);
	char *level = model_step_level_reason(m, step);
	if (level && !failed(&s.fail))
		fail_set(&s.fail, FAIL_REFUSED, "%s", level);
	free(level);
	/* a layout replicated over an axis: every coordinate of it holds the
	 * element (own_map, lhs_owner); the one in line with a reader sends it
	 * (relations_senders) */
	for (int a = 0; a < m->narrays && !failed(&s.fail); a++)
		for (int ax = 0; ax < m->naxes && ax < 3; ax++)
			if (replicated_over(&s, a, ax))
				out->replicated[a] |= 1u << ax;

	for (int i = 0; i < ss->nstmts && !failed(&s.fail); i++) {
		const struct model_stmt *st = &ss->stmts[i];
		for (int r = 0; r < st->nreads && !failed(&s.fail); r++) {
			const struct model_access *rd = &st->reads[r];
			isl_map *u = read_map(&s, st, rd, &shapes[rd->array]);
			if (!u) {
				fail_isl(&s.fail, s.ctx, "a read relation");
				break;
			}
			if (out->use[rd->array])
				u = isl_map_union(out->use[rd->array], u);
			out->use[rd->array] = u;
		}
		for (int k = 0; k < st->nterms && !failed(&s.fail); k++) {
			isl_map *w = work_map(&s, st, &st->terms[k]);
			if (!w) {
				fail_isl(&s.fail, s.ctx, "a work relation");
				break;
			}
			out->work_weight[out->nwork] = st->terms[k].weight;
			out->work[out->nwork++] = w;
		}
	}
	for (int a = 0; a < m->narrays && !failed(&s.fail); a++)
		if (out->use[a] && !(out->own[a] = own_map(&s, a, &shapes[a])))
			fail_isl(&s.fail, s.ctx, "an ownership relation");

	if (!failed(&s.fail)) {
		/* every relation on the same parameters, under the context */
		isl_space *params = final_params(&s);
		isl_set *ctxset = context(&s, params);
		out->processes = isl_set_intersect_params(process_set(&s, params),
							  isl_set_copy(ctxset));
		for (int a = 0; a < m->narrays; a++) {
			if (!out->use[a])
				continue;
			out->use[a] = isl_map_align_params(out->use[a], isl_space_copy(params));
			out->use[a] = coalesce_map(
				isl_map_intersect_params(out->use[a], isl_set_copy(ctxset)));
			out->own[a] = isl_map_align_params(out->own[a], isl_space_copy(params));
			out->own[a] = isl_map_intersect_params(out->own[a], isl_set_copy(ctxset));
		}
		for (int k = 0; k < out->nwork; k++) {
			out->work[k] = isl_map_align_params(out->work[k], isl_space_copy(params));
			out->work[k] = isl_map_intersect_params(out->work[k], isl_set_copy(ctxset));
		}
		isl_set_free(ctxset);
		isl_space_free(params);
		bool bad = !out->processes;
		for (int a = 0; a < m->narrays; a++)
			bad |= out->use[a] && !out->own[a];
		for (int k = 0; k < out->nwork; k++)
			bad |= !out->work[k];
		if (bad)
			fail_isl(&s.fail, s.ctx, "the context");
	}
	free(shapes);
	free(s.dec);
	free(s.first);
	inst_cache_clear(&cache);
	if (failed(&s.fail)) {
		int st = s.fail.kind == FAIL_REFUSED ? 1 : -1;
		isl_ctx_reset_error(ctx);
		*reason = fail_release(&s.fail);
		step_relations_clear(out);
		return st;
	}
	return 0;
}

bool symbolic_block_value(const struct local_param *lp, const long long *values, long long *out)
{
	*out = lp->block_param >= 0 ? values[lp->block_param] : lp->block;
	return *out >= 1;
}

void symbolic_info_truncate(struct symbolic_info *info, int nlocals, int nassumptions)
{
	for (int l = nlocals; l < info->nlocals; l++)
		local_clear(&info->locals[l]);
	if (nlocals < info->nlocals)
		info->nlocals = nlocals;
	for (int i = nassumptions; i < info->nassumptions; i++)
		free(info->assumptions[i]);
	if (nassumptions < info->nassumptions)
		info->nassumptions = nassumptions;
}

void symbolic_info_clear(struct symbolic_info *info)
{
	for (int l = 0; l < info->nlocals; l++)
		local_clear(&info->locals[l]);
	free(info->locals);
	for (int i = 0; i < info->nassumptions; i++)
		free(info->assumptions[i]);
	free(info->assumptions);
	memset(info, 0, sizeof(*info));
}

int symbolic_iterations(isl_ctx *ctx, const struct model *m, int step, struct symbolic_info *info,
			int first, __isl_give isl_set **out, char **reason)
{
	*out = NULL;
	*reason = NULL;
	const struct local_param *lp = &info->locals[first];
	int loop = -1;
	for (int l = m->steps[step].loop; l >= 0; l = m->loops[l].outer)
		if (lp->of.nterms == 1 && lp->of.constant == 0 && lp->of.terms[0].coef == 1 &&
		    lp->of.terms[0].kind == MODEL_PARAM && lp->of.terms[0].index == m->loops[l].param)
			loop = l;
	if (lp->digit != 0 || loop < 0) {
		*reason = strdup("the digits are not those of a loop's variable");
		return *reason ? 1 : -1;
	}
	const struct model_loop *lo = &m->loops[loop];
	/* the bounds may add digits, moving INFO->locals: a copy of the extent */
	struct model_aff extent;
	char *extent_text = strdup(lp->extent);
	if (!extent_text || model_aff_copy(&extent, &lp->extent_aff) < 0) {
		free(extent_text);
		return -1;
	}
	struct decomp dec = {{lp->kind, lp->axis, lp->block, lp->block_param}, &extent, extent_text, 0};
	char *names[1] = {lo->var};
	int vidx[1] = {0}, firsts[1] = {0};
	struct model_space sp = {.nvars = 1, .vars = names, .vidx = vidx, .cond = lo->range};
	struct sym s = {.ctx = ctx, .m = m, .info = info, .step = step, .space = &sp, .dec = &dec,
			.first = firsts};
	int nd = ndigits(&dec);
	struct rel r;
	s.r = &r;
	rel_init(&s, &r, nd);
	layout_digits(&s, 0);
	digit_ranges(&s);
	/* lo <= k, k <= hi - 1, as bounds on the digits */
	struct vform f;
	memset(&f, 0, sizeof(f));
	f.nvars = 1;
	struct lin l = lin_of_params(&s, &lo->lo);
	f.var[0] = 1;
	f.par = lin_comb(&s, &(struct lin){0}, -1, &l);
	f.constant = f.par.constant;
	f.par.constant = 0;
	if (!failed(&s.fail))
		digit_bound(&s, 0, 1, &f, lo->range);
	l = lin_of_params(&s, &lo->hi);
	f.var[0] = -1;
	f.par = l;
	f.constant = l.constant - 1;
	f.par.constant = 0;
	if (!failed(&s.fail))
		digit_bound(&s, 0, -1, &f, lo->range);
	rel_sync(&s, &r);
	model_aff_clear(&extent);
	free(extent_text);
	/* the digits only: a bound's carries added dimensions of their own */
	if (r.set && r.ndims > nd)
		r.set = isl_set_project_out(r.set, isl_dim_set, (unsigned)nd, (unsigned)(r.ndims - nd));
	if (failed(&s.fail)) {
		isl_set_free(r.set);
		int st = s.fail.kind == FAIL_REFUSED ? 1 : -1;
		isl_ctx_reset_error(ctx);
		*reason = fail_release(&s.fail);
		return st;
	}
	*out = r.set;
	return 0;
}

__isl_give isl_set *symbolic_local_context(isl_ctx *ctx, const struct model *m,
					   const struct symbolic_info *info)
{
	isl_space *space = model_param_space(ctx, m, true);
	int np = m->nparams + m->naxes;
	space = isl_space_add_dims(space, isl_dim_param, (unsigned)info->nlocals);
	for (int l = 0; l < info->nlocals && space; l++)
		space = isl_space_set_dim_id(space, isl_dim_param, (unsigned)(np + l),
					     isl_id_alloc(ctx, info->locals[l].name, NULL));
	return symbolic_local_ranges(isl_set_universe(space), m, info);
}

bool symbolic_assumption_bound(const char *assumption, __isl_keep isl_set *set, int *pos,
			       int *least)
{
	long long c;
	char op[3], name[128];
	if (!set || sscanf(assumption, "%lld %2s %127s", &c, op, name) != 3 ||
	    (strcmp(op, "<=") != 0 && strcmp(op, "<") != 0) || c >= INT_MAX || c <= INT_MIN)
		return false;
	*pos = isl_set_find_dim_by_name(set, isl_dim_param, name);
	*least = (int)(strcmp(op, "<") == 0 ? c + 1 : c);
	return *pos >= 0;
}
