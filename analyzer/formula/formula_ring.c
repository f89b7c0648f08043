/* Rings (struct fvars, see formula_internal.h): their parameters and floor
 * atoms, and the translation of a value from one ring into another, which
 * combining formulas needs since each formula has a ring of its own.  An atom
 * whose argument becomes equal to another's merges with it on the way. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/formula/formula_internal.h"

/* ---------------------------------------------------------------- rings */

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

/* One remembered factorization of fml_factor. */
struct factor_entry {
	fmpq_mpoly_t key;
	fmpq_mpoly_factor_t f;
	int ok;
	ulong hash;
	struct factor_entry *next;
};

/* Buckets of the memo, and the most factorizations it holds (then it starts
 * again: a bound on memory, not on correctness). */
enum { FACTOR_BUCKETS = 1024, FACTOR_MAX = 4096 };

static void factors_clear(struct fvars *V)
{
	for (int b = 0; V->factors && b < FACTOR_BUCKETS; b++)
		for (struct factor_entry *e = V->factors[b], *next; e; e = next) {
			next = e->next;
			fmpq_mpoly_clear(e->key, V->ctx);
			fmpq_mpoly_factor_clear(e->f, V->ctx);
			free(e);
		}
	free(V->factors);
	V->factors = NULL;
	V->nfactors = 0;
}

static ulong poly_hash(const struct fvars *V, const fmpq_mpoly_t A)
{
	slong len = fmpq_mpoly_length(A, V->ctx);
	ulong h = (ulong)len * 0x9e3779b97f4a7c15u;
	ulong *exp = calloc((size_t)V->cap + 1, sizeof(*exp));
	fmpq_t c;
	fmpq_init(c);
	for (slong t = 0; exp && t < len && t < 8; t++) {
		fmpq_mpoly_get_term_exp_ui(exp, A, t, V->ctx);
		for (slong i = 0; i < V->cap; i++)
			h = (h ^ exp[i]) * 0x100000001b3u;
		fmpq_mpoly_get_term_coeff_fmpq(c, A, t, V->ctx);
		h = (h ^ fmpz_fdiv_ui(fmpq_numref(c), 1000000007u)) * 0x100000001b3u;
		h = (h ^ fmpz_fdiv_ui(fmpq_denref(c), 1000000007u)) * 0x100000001b3u;
	}
	fmpq_clear(c);
	free(exp);
	return h;
}

static void factor_copy(fmpq_mpoly_factor_t dst, const fmpq_mpoly_factor_t src,
			const fmpq_mpoly_ctx_t ctx)
{
	fmpq_mpoly_factor_fit_length(dst, src->num, ctx);
	fmpq_set(dst->constant, src->constant);
	for (slong k = 0; k < src->num; k++) {
		fmpq_mpoly_set(dst->poly + k, src->poly + k, ctx);
		fmpz_set(dst->exp + k, src->exp + k);
	}
	dst->num = src->num;
}

int fml_factor(const struct fvars *V, fmpq_mpoly_factor_t f, const fmpq_mpoly_t A)
{
	/* the memo is not part of the ring's value: mutable behind const */
	struct fvars *M = (struct fvars *)V;
	ulong h = poly_hash(V, A);
	if (!M->factors)
		M->factors = calloc(FACTOR_BUCKETS, sizeof(*M->factors));
	struct factor_entry **bucket = M->factors ? &M->factors[h % FACTOR_BUCKETS] : NULL;
	for (struct factor_entry *e = bucket ? *bucket : NULL; e; e = e->next)
		if (e->hash == h && fmpq_mpoly_equal(e->key, A, V->ctx)) {
			if (e->ok)
				factor_copy(f, e->f, V->ctx);
			return e->ok;
		}
	int ok = fmpq_mpoly_factor(f, A, V->ctx);
	if (!bucket)
		return ok;
	if (M->nfactors >= FACTOR_MAX) {
		factors_clear(M);
		return ok;
	}
	struct factor_entry *e = calloc(1, sizeof(*e));
	if (!e)
		return ok;
	fmpq_mpoly_init(e->key, V->ctx);
	fmpq_mpoly_set(e->key, A, V->ctx);
	fmpq_mpoly_factor_init(e->f, V->ctx);
	if (ok)
		factor_copy(e->f, f, V->ctx);
	e->ok = ok;
	e->hash = h;
	e->next = *bucket;
	*bucket = e;
	M->nfactors++;
	return ok;
}

void fml_vars_unref(struct fvars *V)
{
	slong i;

	if (!V || --V->refs > 0)
		return;
	factors_clear(V);
	for (i = V->n - 1; i >= 0; i--) {
		free(V->v[i].name);
		if (V->v[i].arg)
			fml_node_free(V, V->v[i].arg);
	}
	free(V->v);
	fmpq_mpoly_ctx_clear(V->ctx);
	free(V);
}

/* The index of parameter NAME in V, -1 when it has none. */
slong fml_vars_find(const struct fvars *V, const char *name)
{
	for (slong i = 0; i < V->n; i++)
		if (V->v[i].name && strcmp(V->v[i].name, name) == 0)
			return i;
	return -1;
}

/* The index of parameter NAME in V, added if absent; -1 when V is full. */
slong fml_vars_param(struct fvars *V, const char *name)
{
	slong i = fml_vars_find(V, name);

	if (i >= 0)
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
		if (V->v[i].arg && fml_node_equal(V, V->v[i].arg, arg)) {
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

/* ---------------------------------------------------------------- translation */

/* If X is the single variable x_i (coefficient 1), i; else -1; -2 when its
 * scratch exponents cannot be allocated. */
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
	if (!e)
		return -2;
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
struct fnode *fml_translate(const struct fvars *F, const struct fnode *x,
	const struct fvars *T, struct fnode *const *vmap)
{
	struct fnode *r;
	slong i, j, len, *map, *e;
	int k, rename = 1;
	char *used;

	if (x->kind != FK_POLY) {
		r = fml_translate(F, x->c[0], T, vmap);
		for (k = 1; k < x->n && r; k++) {
			struct fnode *y = fml_translate(F, x->c[k], T, vmap);
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
	r = NULL;
	if (!used || !map || !e)
		goto done;
	for (i = 0; i < F->cap; i++) {
		used[i] = x->den[i] > 0 || fmpq_mpoly_degree_si(x->num, i, F->ctx) > 0;
		if (!used[i])
			continue;
		map[i] = i < F->n && vmap[i] ? poly_as_var(T, vmap[i]) : -1;
		if (map[i] == -2)
			goto done;
		if (map[i] < 0)
			rename = 0;
	}
	len = fmpq_mpoly_length(x->num, F->ctx);
	if (rename) {
		ulong *u = calloc(T->cap + 1, sizeof(ulong));
		fmpq_t c;
		r = u ? fml_node_alloc(T, FK_POLY) : NULL;
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
			if (fml_poly_normalize(T, r) < 0) {
				fml_node_free(T, r);
				r = NULL;
			}
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
done:
	free(used);
	free(map);
	free(e);
	return r;
}

/* Defines in T every variable of F that VMAP does not map yet, and maps it.
 * Atom arguments are translated, so atoms that become equal merge and atoms whose
 * argument becomes constant disappear. */
int fml_vars_import(struct fvars *T, const struct fvars *F, struct fnode **vmap)
{
	slong i, j;

	for (i = 0; i < F->n; i++) {
		if (vmap[i])
			continue;
		if (F->v[i].name) {
			j = fml_vars_param(T, F->v[i].name);
			vmap[i] = j < 0 ? NULL : fml_poly_var(T, j);
		} else {
			vmap[i] = fml_floor_take(T, fml_translate(F, F->v[i].arg, T, vmap));
		}
		if (!vmap[i])
			return -1;
	}
	return 0;
}

void fml_vmap_free(const struct fvars *T, struct fnode **vmap, slong n)
{
	slong i;

	if (!vmap)
		return;
	for (i = 0; i < n; i++)
		fml_node_free(T, vmap[i]);
	free(vmap);
}
