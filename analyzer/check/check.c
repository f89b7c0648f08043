/* Semantic checks: names, shapes, affinity, layouts, candidates, bounds.
 *
 * Why this file is long: the checks are one pass sharing one checker state
 * (the symbol table, the scopes of bound variables, the affine forms in an
 * arena); splitting them would only move that state into a header.  The
 * bound proofs, which have an ISL context of their own, are check_bounds.c.
 *
 * One pass over the declarations builds the global symbol table; then the
 * array extents, assumptions, dists, layouts and candidates are checked, and
 * each statement is resolved in its scope of bound variables.  Bounds are
 * checked with ISL in check_bounds.c.  Every error is reported; the checked
 * specification is only returned when there was none. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/check/check.h"
#include "analyzer/util/text.h"
#include "analyzer/check/check_impl.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- arena: everything the checked_spec hands out --- */

struct arena_block {
	struct arena_block *next;
	max_align_t data[];
};

struct arena {
	struct arena_block *head;
	struct diag *dg;   /* told when an allocation fails (diag_nomem) */
};

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = n <= SIZE_MAX - sizeof(*b) - 1 ? calloc(1, sizeof(*b) + (n ? n : 1))
							     : NULL;
	if (!b) {
		diag_nomem(a->dg);
		return NULL;
	}
	b->next = a->head;
	a->head = b;
	return b->data;
}

static void arena_free(struct arena *a)
{
	while (a && a->head) {
		struct arena_block *b = a->head;
		a->head = b->next;
		free(b);
	}
	free(a);
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* --- the global symbol table: an open-addressing hash of names --- */

static unsigned long hash_name(const char *s)
{
	unsigned long h = 1469598103934665603ul;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ul;
	return h;
}

static struct sym *sym_find(const struct symtab *t, const char *name)
{
	if (t->cap == 0)
		return NULL;
	for (size_t i = hash_name(name) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->slots[i].name)
			return NULL;
		if (strcmp(t->slots[i].name, name) == 0)
			return &t->slots[i];
	}
}

/* S into T; out of memory, said to DG, and S left out when T has no room
 * (at least one slot stays empty, for sym_find). */
static void sym_insert(struct symtab *t, struct sym s, struct diag *dg)
{
	if (2 * (t->n + 1) > t->cap) {
		struct symtab bigger = {.cap = t->cap ? 2 * t->cap : 64};
		bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
		if (!bigger.slots) {
			diag_nomem(dg);
			if (t->n + 1 >= t->cap)
				return;
		} else {
			for (size_t i = 0; i < t->cap; i++)
				if (t->slots[i].name)
					sym_insert(&bigger, t->slots[i], dg);
			free(t->slots);
			*t = bigger;
		}
	}
	size_t i = hash_name(s.name) & (t->cap - 1);
	while (t->slots[i].name)
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = s;
	t->n++;
}

const char *sym_kind_text(enum sym_kind k)
{
	switch (k) {
	case SYM_PARAM: return "parameter";
	case SYM_GRID_AXIS: return "grid axis";
	case SYM_VAR: return "variable";
	case SYM_ARRAY: return "array";
	case SYM_DIST: return "distribution";
	case SYM_FLOOR: return "quotient";
	case SYM_NONE: break;
	}
	return "name";
}

/* Declares a global name; a second declaration is an error. */
static bool declare(struct checker *ck, const char *name, struct span sp, enum sym_kind kind, void *decl)
{
	struct sym *old = sym_find(&ck->globals, name);
	if (old) {
		diag_error(ck->dg, sp, "'%s' is already declared", name);
		diag_note(ck->dg, old->span, "the %s '%s' is declared here", sym_kind_text(old->kind), name);
		return false;
	}
	if ((kind == SYM_PARAM || kind == SYM_GRID_AXIS) &&
	    (strcmp(name, "g") == 0 || strcmp(name, "l") == 0)) {
		/* the cost w + h*g + l would mix the two */
		diag_error(ck->dg, sp, "'%s' names the machine's %s in the cost w + h*g + l; "
			   "choose another name for this %s", name,
			   name[0] == 'g' ? "gap (g)" : "latency (l)", sym_kind_text(kind));
		/* declared all the same, so that its uses raise nothing more */
	}
	sym_insert(&ck->globals, (struct sym){name, kind, sp, decl}, ck->dg);
	return true;
}

/* NAME as the code being checked sees it: an array of the candidate block
 * being checked (ck->cand) first, written into *LOCAL (the caller's, so that
 * a nested lookup cannot overwrite it), then the global names. */
static struct sym *find_sym(struct checker *ck, const char *name, struct sym *local)
{
	for (const struct ast_loop *l = ck->loop; l; l = l->outer)
		if (l->param && strcmp(l->var->name, name) == 0) {
			*local = (struct sym){l->param->name, SYM_PARAM, l->var->name_span, l->param};
			return local;
		}
	for (int i = 0; ck->cand && i < ck->cand->narrays; i++) {
		struct ast_array *a = ck->cand->arrays[i];
		if (a->cand == ck->cand && strcmp(a->name, name) == 0) {
			*local = (struct sym){a->name, SYM_ARRAY, a->name_span, a};
			return local;
		}
	}
	return sym_find(&ck->globals, name);
}

char *expr_text(struct checker *ck, const struct ast_expr *e)
{
	char *t = expr_to_string(e);
	if (!t)
		diag_nomem(ck->dg);
	return t;
}

/* --- affine forms --- */

static struct affine aff_const(long long c)
{
	return (struct affine){c, 0, NULL};
}

/* a + k * b, merging the sorted terms; false on overflow, or out of memory
 * (the arena's flag set: what is then said of an overflow is not printed). */
static bool aff_add_scaled(struct arena *ar, const struct affine *a, long long k, const struct affine *b,
			   struct affine *out)
{
	struct affine r = {0, 0, NULL};
	long long kc;
	if (__builtin_mul_overflow(k, b->constant, &kc) || __builtin_add_overflow(a->constant, kc, &r.constant))
		return false;
	r.terms = arena_alloc(ar, ((size_t)a->nterms + (size_t)b->nterms) * sizeof(*r.terms));
	if (!r.terms)
		return false;
	int i = 0, j = 0;
	while (i < a->nterms || j < b->nterms) {
		struct affine_term t;
		int c;
		if (i == a->nterms)
			c = 1;
		else if (j == b->nterms)
			c = -1;
		else if (a->terms[i].kind != b->terms[j].kind)
			c = a->terms[i].kind < b->terms[j].kind ? -1 : 1;
		else
			c = a->terms[i].index < b->terms[j].index ? -1 : a->terms[i].index > b->terms[j].index;
		if (c < 0) {
			t = a->terms[i++];
		} else {
			long long m;
			if (__builtin_mul_overflow(k, b->terms[j].coef, &m))
				return false;
			t = b->terms[j];
			t.coef = m;
			if (c == 0) {
				if (__builtin_add_overflow(a->terms[i].coef, m, &t.coef))
					return false;
				i++;
			}
			j++;
		}
		if (t.coef != 0)
			r.terms[r.nterms++] = t;
	}
	*out = r;
	return true;
}

static bool aff_scale(struct arena *ar, const struct affine *a, long long k, struct affine *out)
{
	struct affine zero = aff_const(0);
	return aff_add_scaled(ar, &zero, k, a, out);
}

bool aff_is_const(const struct affine *a)
{
	return a->nterms == 0;
}

bool aff_equal(const struct affine *a, const struct affine *b)
{
	if (a->constant != b->constant || a->nterms != b->nterms)
		return false;
	for (int i = 0; i < a->nterms; i++)
		if (a->terms[i].kind != b->terms[i].kind || a->terms[i].index != b->terms[i].index ||
		    a->terms[i].coef != b->terms[i].coef)
			return false;
	return true;
}

enum aff_status { AFF_OK, AFF_NOT_AFFINE, AFF_OVERFLOW, AFF_NOT_HERE, AFF_BAD_DIVISOR,
		  AFF_BAD_COND_DIVISOR, AFF_NESTED, AFF_NOMEM };

static bool has_floor(const struct affine *a)
{
	for (int i = 0; i < a->nterms; i++)
		if (a->terms[i].kind == SYM_FLOOR)
			return true;
	return false;
}

static enum aff_status to_affine(struct checker *ck, const struct ast_expr *e, struct affine *out);

/* Whether DEN is a positive multiple of the variable of a geometric loop
 * around the statement (1, 2, 4, ... < P: never below 1). */
static bool level_divisor(const struct checker *ck, const struct affine *den)
{
	if (den->constant != 0 || den->nterms != 1 || den->terms[0].kind != SYM_PARAM ||
	    den->terms[0].coef < 1)
		return false;
	for (const struct ast_loop *l = ck->loop; l; l = l->outer)
		if (l->param && l->param->index == den->terms[0].index)
			return l->var->ratio >= 2;
	return false;
}

/* E, a '/' or '%' of a subscript, as a term of a new floor (struct
 * affine_floor): by a positive constant, the quotient (a remainder being
 * its dividend minus the divisor times the quotient); by a size or a grid
 * size, itself. */
static enum aff_status floor_affine(struct checker *ck, const struct ast_expr *e, struct affine *out)
{
	struct affine num, den;
	enum aff_status s;
	if (ck->floor_ok == FLOORS_NO)
		return AFF_NOT_HERE;
	if ((s = to_affine(ck, e->lhs, &num)) != AFF_OK || (s = to_affine(ck, e->rhs, &den)) != AFF_OK)
		return s;
	bool symbolic = den.nterms == 1 && den.constant == 0 && den.terms[0].coef == 1 &&
			((den.terms[0].kind == SYM_PARAM && den.terms[0].index < ck->cs->nsizes) ||
			 den.terms[0].kind == SYM_GRID_AXIS);
	bool level = ck->floor_ok == FLOORS_CONDITION && level_divisor(ck, &den);
	if (!(den.nterms == 0 && den.constant > 0) && !level &&
	    (!symbolic || ck->floor_ok == FLOORS_CONDITION))
		return ck->floor_ok == FLOORS_CONDITION ? AFF_BAD_COND_DIVISOR : AFF_BAD_DIVISOR;
	if ((symbolic || level) && has_floor(&num))
		return AFF_NESTED;
	bool whole = symbolic || level;   /* a remainder is a floor of its own */
	struct affine_floor *fl = arena_alloc(ck->arena, sizeof(*fl));
	struct affine q = {0, 1, fl ? arena_alloc(ck->arena, sizeof(*q.terms)) : NULL};
	if (!q.terms)
		return AFF_NOMEM;
	*fl = (struct affine_floor){.kind = e->kind == EXPR_MOD && whole ? FLOOR_MOD : FLOOR_DIV,
				    .num = num, .den = whole ? 0 : den.constant, .level = level,
				    .expr = e};
	if (whole)
		fl->den_term = den.terms[0];
	q.terms[0] = (struct affine_term){SYM_FLOOR, ck->nfloors++, 1, fl};
	if (e->kind == EXPR_DIV || whole) {
		*out = q;
		return AFF_OK;
	}
	/* num mod d = num - d * floor(num / d) */
	return aff_add_scaled(ck->arena, &num, -den.constant, &q, out) ? AFF_OK : AFF_OVERFLOW;
}

static enum aff_status to_affine(struct checker *ck, const struct ast_expr *e, struct affine *out);

/* The operands of a chain of additions (grammar/ast.h, ast_chain) added to
 * *acc in the order written, as a left-to-right evaluation would: the tree is
 * balanced, but a constant that fits only in that order still fits.  negate:
 * the operands' sign is flipped (a subtree after a '-'); first: e holds the
 * chain's first operand, which starts *acc. */
static enum aff_status chain_affine(struct checker *ck, const struct ast_expr *e, bool negate,
				    bool first, struct affine *acc)
{
	enum aff_status s;
	if (e->chain) {
		if ((s = chain_affine(ck, e->lhs, negate, first, acc)) != AFF_OK)
			return s;
		return chain_affine(ck, e->rhs, negate != (e->kind == EXPR_SUB), false, acc);
	}
	struct affine b;
	if ((s = to_affine(ck, e, &b)) != AFF_OK)
		return s;
	if (first) {
		*acc = b;
		return AFF_OK;
	}
	struct affine sum;
	if (!aff_add_scaled(ck->arena, acc, negate ? -1 : 1, &b, &sum))
		return AFF_OVERFLOW;
	*acc = sum;
	return AFF_OK;
}

/* The affine form of a resolved expression. */
static enum aff_status to_affine(struct checker *ck, const struct ast_expr *e, struct affine *out)
{
	struct affine a, b;
	enum aff_status s;
	switch (e->kind) {
	case EXPR_INT:
		*out = aff_const(e->value);
		return AFF_OK;
	case EXPR_NAME:
		if (e->sym == SYM_PARAM || e->sym == SYM_GRID_AXIS || e->sym == SYM_VAR) {
			out->constant = 0;
			out->nterms = 1;
			out->terms = arena_alloc(ck->arena, sizeof(*out->terms));
			if (!out->terms)
				return AFF_NOMEM;
			out->terms[0] = (struct affine_term){e->sym,
							     e->sym == SYM_VAR ? e->var->index : e->param->index, 1, NULL};
			return AFF_OK;
		}
		return AFF_NOT_AFFINE;
	case EXPR_NEG:
		if ((s = to_affine(ck, e->lhs, &a)) != AFF_OK)
			return s;
		return aff_scale(ck->arena, &a, -1, out) ? AFF_OK : AFF_OVERFLOW;
	case EXPR_ADD:
	case EXPR_SUB:
		if ((s = chain_affine(ck, e->lhs, false, true, out)) != AFF_OK)
			return s;
		return chain_affine(ck, e->rhs, e->kind == EXPR_SUB, false, out);
	case EXPR_MUL:
		if ((s = to_affine(ck, e->lhs, &a)) != AFF_OK || (s = to_affine(ck, e->rhs, &b)) != AFF_OK)
			return s;
		if (aff_is_const(&a))
			return aff_scale(ck->arena, &b, a.constant, out) ? AFF_OK : AFF_OVERFLOW;
		if (aff_is_const(&b))
			return aff_scale(ck->arena, &a, b.constant, out) ? AFF_OK : AFF_OVERFLOW;
		return AFF_NOT_AFFINE;
	case EXPR_DIV:
	case EXPR_MOD:
		return floor_affine(ck, e, out);
	default:
		return AFF_NOT_AFFINE;
	}
}

/* Sets e->aff, or reports why there is none ("subscript 'i * j' of 'A'").
 * WHAT is a printf format with one %s for the expression text. */
static const struct affine *need_affine(struct checker *ck, struct ast_expr *e, const char *what,
					const char *owner)
{
	struct affine a;
	enum aff_status s = to_affine(ck, e, &a);
	if (s == AFF_OK || s == AFF_NOMEM) {
		struct affine *p = s == AFF_OK ? arena_alloc(ck->arena, sizeof(*p)) : NULL;
		if (p)
			*p = a;
		e->aff = p;
		return p;
	}
	char *text = expr_text(ck, e);
	if (s == AFF_OVERFLOW)
		diag_error(ck->dg, e->span,
			   "%s '%s'%s%s%s: a constant or coefficient does not fit in 64 bits", what,
			   text, owner ? " of '" : "", owner ? owner : "", owner ? "'" : "");
	else if (s == AFF_NOT_HERE)
		diag_error(ck->dg, e->span, "%s '%s'%s%s%s is not affine: '/' and '%%' may only appear "
			   "in array subscripts and in a forall's condition", what, text, owner ? " of '" : "", owner ? owner : "",
			   owner ? "'" : "");
	else if (s == AFF_BAD_COND_DIVISOR)
		diag_error(ck->dg, e->span, "%s '%s'%s%s%s: a divisor in a condition must be a positive "
			   "number or a multiple of a geometric loop's variable (not a size, a grid size or "
			   "another loop's variable)", what, text, owner ? " of '" : "", owner ? owner : "",
			   owner ? "'" : "");
	else if (s == AFF_BAD_DIVISOR)
		diag_error(ck->dg, e->span, "%s '%s'%s%s%s: a divisor in a subscript must be a positive "
			   "number, a size parameter or a grid size", what, text, owner ? " of '" : "",
			   owner ? owner : "", owner ? "'" : "");
	else if (s == AFF_NESTED)
		diag_error(ck->dg, e->span, "%s '%s'%s%s%s: a dividend divided by a size, a grid "
			   "size or a loop's variable must be affine, without '/' or '%%' of its own", what, text,
			   owner ? " of '" : "", owner ? owner : "", owner ? "'" : "");
	else
		diag_error(ck->dg, e->span, "%s '%s'%s%s%s is not affine", what, text, owner ? " of '" : "",
			   owner ? owner : "", owner ? "'" : "");
	free(text);
	return NULL;
}

/* --- resolution of expressions --- */

enum context {
	CX_AFFINE, /* extents, bounds, subscripts, condition operands */
	CX_VALUE,  /* a right-hand side: array elements and sums allowed */
	CX_WORK,   /* a work weight */
};

static struct ast_var *find_var(struct checker *ck, const char *name)
{
	for (int i = ck->nscope - 1; i >= 0; i--)
		if (strcmp(ck->scope[i]->name, name) == 0)
			return ck->scope[i];
	return NULL;
}

static bool resolve(struct checker *ck, struct ast_expr *e, enum context cx);

/* *BEST = CAND when it is a likelier misspelling of NAME than *BEST (closer,
 * or as close and first in alphabetical order). */
static void closer(const char *name, const char *cand, const char **best, size_t *best_d)
{
	if (!diag_misspelt(name, cand))
		return;
	size_t d = diag_edit_distance(name, cand);
	if (d < *best_d || (d == *best_d && strcmp(cand, *best) < 0)) {
		*best = cand;
		*best_d = d;
	}
}

/* "undefined name 'nn'", and "; did you mean 'n'?" when a name declared or
 * a variable in scope is a likely misspelling of it. */
static void undefined_name(struct checker *ck, struct span sp, const char *name)
{
	for (int a = 0; ck->cs->arrays && a < ck->cs->narrays; a++) {
		const struct ast_array *arr = ck->cs->arrays[a];
		if (arr->cand && arr->cand != ck->cand && strcmp(arr->name, name) == 0) {
			diag_error(ck->dg, sp, "undefined name '%s' here: '%s' is an array of candidate "
				   "'%s', visible in that block only", name, name, arr->cand->name);
			return;
		}
	}
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < ck->globals.cap; i++)
		if (ck->globals.slots[i].name)
			closer(name, ck->globals.slots[i].name, &best, &best_d);
	for (int i = 0; i < ck->nscope; i++)
		closer(name, ck->scope[i]->name, &best, &best_d);
	if (best)
		diag_error(ck->dg, sp, "undefined name '%s'; did you mean '%s'?", name, best);
	else
		diag_error(ck->dg, sp, "undefined name '%s'", name);
}

static void check_quant_open(struct checker *ck, struct ast_quant *q);
static void check_quant_close(struct checker *ck, const struct ast_quant *q);

/* name[...]: an array element; records the reference on a right-hand side
 * (cx == CX_VALUE) or for the left-hand side (is_lhs). */
static bool resolve_index(struct checker *ck, struct ast_expr *e, enum context cx, bool is_lhs)
{
	bool ok = true;
	struct sym here, *s = find_sym(ck, e->name, &here);
	struct ast_var *v = find_var(ck, e->name);
	for (int i = 0; i < e->nargs; i++)
		ok &= resolve(ck, e->args[i], CX_AFFINE);
	if (!s && !v) {
		undefined_name(ck, e->name_span, e->name);
		return false;
	}
	if (v || s->kind != SYM_ARRAY) {
		enum sym_kind k = v ? SYM_VAR : s->kind;
		if (is_lhs)
			diag_error(ck->dg, e->span,
				   "the left-hand side must be an array element ('%s' is a %s)", e->name,
				   sym_kind_text(k));
		else
			diag_error(ck->dg, e->name_span, "'%s' is a %s, not an array", e->name,
				   sym_kind_text(k));
		return false;
	}
	struct ast_array *a = s->decl;
	e->sym = SYM_ARRAY;
	e->array = a;
	a->used = true;
	if (e->nargs != a->rank) {
		diag_error(ck->dg, e->span, "wrong number of subscripts for '%s': %d given, %d expected",
			   e->name, e->nargs, a->rank);
		return false;
	}
	if (!ok)
		return false;
	struct affine *subs = arena_alloc(ck->arena, (size_t)a->rank * sizeof(*subs));
	if (!subs)
		return false;
	for (int i = 0; i < e->nargs; i++) {
		ck->floor_ok = FLOORS_SUBSCRIPT;
		const struct affine *f = need_affine(ck, e->args[i], "subscript", a->name);
		ck->floor_ok = FLOORS_NO;
		if (!f)
			ok = false;
		else
			subs[i] = *f;
	}
	if (ok && (cx == CX_VALUE || is_lhs)) {
		struct ref_info *r = arena_alloc(ck->arena, sizeof(*r));
		const struct ast_quant **scopes =
			r ? arena_alloc(ck->arena, (size_t)ck->nquants * sizeof(*scopes)) : NULL;
		if (!scopes)
			return false;
		r->expr = e;
		r->array = a;
		r->subs = subs;
		r->is_lhs = is_lhs;
		r->nscopes = ck->nquants;
		if (ck->nquants > 0)
			memcpy(scopes, ck->quants, (size_t)ck->nquants * sizeof(*scopes));
		r->scopes = scopes;
		if (ptr_list_push(&ck->refs, r) < 0) {
			diag_nomem(ck->dg);
			return false;
		}
	}
	return ok;
}

static bool resolve(struct checker *ck, struct ast_expr *e, enum context cx)
{
	switch (e->kind) {
	case EXPR_INT:
		return true;
	case EXPR_ERROR:
		return false;
	case EXPR_NAME: {
		struct ast_var *v = find_var(ck, e->name);
		if (v) {
			e->sym = SYM_VAR;
			e->var = v;
			v->used = true;
			return true;
		}
		struct sym here, *s = find_sym(ck, e->name, &here);
		if (!s) {
			undefined_name(ck, e->span, e->name);
			return false;
		}
		switch (s->kind) {
		case SYM_PARAM:
		case SYM_GRID_AXIS:
			e->sym = s->kind;
			e->param = s->decl;
			return true;
		case SYM_ARRAY: {
			struct ast_array *a = s->decl;
			a->used = true;
			diag_error(ck->dg, e->span, "wrong number of subscripts for '%s': 0 given, %d expected",
				   e->name, a->rank);
			return false;
		}
		default:
			diag_error(ck->dg, e->span,
				   "'%s' is a distribution; use it in a condition such as '%s(i) == v'",
				   e->name, e->name);
			return false;
		}
	}
	case EXPR_INDEX:
		if (cx == CX_WORK) {
			diag_error(ck->dg, e->span, "a work weight cannot read array elements");
			return false;
		}
		return resolve_index(ck, e, cx, false);
	case EXPR_CALL: {
		struct sym here, *s = find_sym(ck, e->name, &here);
		bool ok = resolve(ck, e->args[0], CX_AFFINE);
		if (!s && !find_var(ck, e->name)) {
			undefined_name(ck, e->name_span, e->name);
			return false;
		}
		if (!s || s->kind != SYM_DIST || find_var(ck, e->name)) {
			diag_error(ck->dg, e->name_span, "'%s' is not a distribution", e->name);
			return false;
		}
		(void)ok;
		diag_error(ck->dg, e->span,
			   "a distribution predicate such as '%s(i) == v' can only be a condition", e->name);
		return false;
	}
	case EXPR_NEG:
		return resolve(ck, e->lhs, cx);
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV:
	case EXPR_MOD: {
		bool a = resolve(ck, e->lhs, cx);
		bool b = resolve(ck, e->rhs, cx);
		return a && b;
	}
	case EXPR_SUM: {
		if (cx != CX_VALUE) {
			diag_error(ck->dg, e->span, "a sum can only appear on the right-hand side of an assignment");
			return false;
		}
		int before = ck->dg->nerrors;
		check_quant_open(ck, e->quant);
		bool ok = resolve(ck, e->lhs, CX_VALUE);
		check_quant_close(ck, e->quant);
		return ok && ck->dg->nerrors == before;
	}
	}
	return false;
}

/* --- conditions --- */

static bool is_zero(const struct ast_expr *e)
{
	return e->kind == EXPR_INT && e->value == 0;
}

/* Resolves a distribution call used as a condition operand. */
/* Whether E holds a '/' or a '%'. */
static bool has_division(const struct ast_expr *e)
{
	if (!e)
		return false;
	if (e->kind == EXPR_DIV || e->kind == EXPR_MOD)
		return true;
	return (e->kind == EXPR_ADD || e->kind == EXPR_SUB || e->kind == EXPR_MUL ||
		e->kind == EXPR_NEG) &&
	       (has_division(e->lhs) || has_division(e->rhs));
}

static bool resolve_call_operand(struct checker *ck, struct ast_expr *e)
{
	bool ok = resolve(ck, e->args[0], CX_AFFINE);
	struct sym here, *s = find_var(ck, e->name) ? NULL : find_sym(ck, e->name, &here);
	if (!s && !find_var(ck, e->name)) {
		undefined_name(ck, e->name_span, e->name);
		return false;
	}
	if (!s || s->kind != SYM_DIST) {
		diag_error(ck->dg, e->name_span, "'%s' is not a distribution", e->name);
		return false;
	}
	e->sym = SYM_DIST;
	e->dist = s->decl;
	for (int k = 0; k < e->dist->nalts; k++)
		if (e->dist->alts[k].kind == DIST_REPLICATED) {
			diag_error(ck->dg, e->span,
				   "'%s' may be replicated: %s(i) names no single coordinate, so it "
				   "cannot be compared", e->name, e->name);
			return false;
		}
	if (ok && has_division(e->args[0])) {
		char *t = expr_text(ck, e->args[0]);
		diag_error(ck->dg, e->args[0]->span, "distribution argument '%s' must be affine: a "
			   "predicate takes no '/' or '%%'", t);
		free(t);
		return false;
	}
	return ok && need_affine(ck, e->args[0], "distribution argument", NULL) != NULL;
}

/* Whether operand I of CMP (resolved) is a divisibility test `e % d == 0`
 * (in an assumption or a sum's condition, every '%' operand is one, or an
 * error; in a forall's condition, FLOORS, only `e % d == 0` and `0 == e %
 * d` with d a number, a size or a grid size are, and any other '%' is a
 * remainder, quasi-affine: by a number or a geometric loop's variable,
 * `i % (2*s) == 0`). */
static bool divisibility_test(const struct checker *ck, const struct ast_cmp *cmp, int i,
			      bool floors)
{
	const struct ast_expr *x = cmp->operands[i], *d = x->rhs;
	if (x->kind != EXPR_MOD)
		return false;
	bool size = d->kind == EXPR_NAME && (d->sym == SYM_GRID_AXIS ||
					     (d->sym == SYM_PARAM && d->param->index < ck->cs->nsizes));
	if (!floors)
		return true;
	if (cmp->nops != 1 || cmp->ops[0] != CMP_EQ)
		return false;
	const struct ast_expr *other = cmp->operands[1 - i];
	/* e % d == c with d a number and 0 < c < d: d divides e - c (a
	 * red-black sweep's (i + j) % 2 == 1) */
	if (d->kind == EXPR_INT && d->value > 0 && other->kind == EXPR_INT && other->value > 0 &&
	    other->value < d->value)
		return true;
	return is_zero(other) && (d->kind == EXPR_INT || size);
}

/* Normalizes a condition into atoms.  OWNER_OK: distribution predicates are
 * allowed (forall and sum conditions, not assumptions).  FLOORS: a forall's
 * condition, whose operands may hold quotients and remainders by positive
 * constants. */
static void check_cond(struct checker *ck, struct ast_cond *c, bool owner_ok, bool floors,
		       struct ptr_list *atoms)
{
	for (int ci = 0; ci < c->ncmps; ci++) {
		struct ast_cmp *cmp = c->cmps[ci];
		bool *ok = calloc(2 * ((size_t)cmp->nops + 1), sizeof(*ok));
		if (!ok) {
			diag_nomem(ck->dg);
			return;
		}
		bool *test = ok + cmp->nops + 1;
		for (int i = 0; i <= cmp->nops; i++) {
			struct ast_expr *x = cmp->operands[i];
			if (x->kind == EXPR_CALL)
				ok[i] = resolve_call_operand(ck, x);
			else if (x->kind == EXPR_MOD) {
				/* both sides, so that both report their errors */
				bool lhs = resolve(ck, x->lhs, CX_AFFINE);
				bool rhs = resolve(ck, x->rhs, CX_AFFINE);
				ok[i] = lhs && rhs;
			}
			else
				ok[i] = resolve(ck, x, CX_AFFINE);
			test[i] = ok[i] && divisibility_test(ck, cmp, i, floors);
		}
		/* affine forms of the plain operands, once each */
		ck->floor_ok = floors ? FLOORS_CONDITION : FLOORS_NO;
		for (int i = 0; i <= cmp->nops; i++) {
			struct ast_expr *x = cmp->operands[i];
			if (ok[i] && x->kind != EXPR_CALL && !test[i])
				ok[i] = need_affine(ck, x, "condition operand", NULL) != NULL;
		}
		ck->floor_ok = FLOORS_NO;
		for (int i = 0; i < cmp->nops; i++) {
			struct ast_expr *a = cmp->operands[i], *b = cmp->operands[i + 1];
			enum cmp_op op = cmp->ops[i];
			struct span sp = span_join(a->span, b->span);
			struct cond_atom atom = {.span = sp};
			if (a->kind == EXPR_CALL || b->kind == EXPR_CALL) {
				if (!owner_ok) {
					diag_error(ck->dg, sp, "an assumption cannot use a distribution predicate");
					continue;
				}
				if (a->kind == EXPR_CALL && b->kind == EXPR_CALL) {
					diag_error(ck->dg, sp, "a distribution predicate compares with a value, not with another distribution");
					continue;
				}
				if (op != CMP_EQ && op != CMP_NE) {
					diag_error(ck->dg, sp, "a distribution predicate compares with '==' or '!='");
					continue;
				}
				struct ast_expr *call = a->kind == EXPR_CALL ? a : b;
				struct ast_expr *val = a->kind == EXPR_CALL ? b : a;
				if (has_division(val)) {
					/* a coordinate is compared with an affine value */
					diag_error(ck->dg, val->span, "a distribution predicate compares with an "
						   "affine value, without '/' or '%%'");
					continue;
				}
				if (!ok[i] || !ok[i + 1])
					continue;
				atom.kind = ATOM_OWNER;
				atom.dist = call->dist;
				atom.f = *call->args[0]->aff;
				atom.value = *val->aff;
				atom.negated = op == CMP_NE;
			} else if (test[i] || test[i + 1]) {
				struct ast_expr *mod = test[i] ? a : b;
				struct ast_expr *other = test[i] ? b : a;
				/* (a remainder equal to a number below its divisor: a
				 * forall's condition only, divisibility_test says) */
				bool residue = floors && other->kind == EXPR_INT && other->value > 0;
				if (op != CMP_EQ || (!is_zero(other) && !residue) ||
				    (a->kind == EXPR_MOD && b->kind == EXPR_MOD)) {
					diag_error(ck->dg, sp, "'%%' is only allowed in a divisibility test such as 'm %% M == 0'");
					continue;
				}
				if (!ok[i] || !ok[i + 1])
					continue;
				ck->floor_ok = floors ? FLOORS_CONDITION : FLOORS_NO;
				const struct affine *f = need_affine(ck, mod->lhs, "dividend", NULL);
				ck->floor_ok = FLOORS_NO;
				const struct affine *d = need_affine(ck, mod->rhs, "divisor", NULL);
				if (!f || !d)
					continue;
				bool good = (d->nterms == 0 && d->constant > 0) ||
					    (d->nterms == 1 && d->constant == 0 && d->terms[0].coef == 1 &&
					     d->terms[0].kind != SYM_VAR);
				if (!good) {
					char *t = expr_text(ck, mod->rhs);
					diag_error(ck->dg, mod->rhs->span,
						   "divisor '%s' must be a positive number, a parameter or a grid size", t);
					free(t);
					continue;
				}
				atom.kind = ATOM_DIVIDES;
				atom.f = *f;
				atom.divisor = *d;
				if (residue &&
				    __builtin_sub_overflow(atom.f.constant, other->value, &atom.f.constant)) {
					diag_error(ck->dg, sp, "a constant of the condition does not fit in 64 bits");
					continue;
				}
			} else {
				if (!ok[i] || !ok[i + 1])
					continue;
				const struct affine *fa = a->aff, *fb = b->aff;
				struct affine f;
				bool fine = true;
				switch (op) {
				case CMP_LT: /* b - a - 1 >= 0 */
				case CMP_LE: /* b - a >= 0 */
					fine = aff_add_scaled(ck->arena, fb, -1, fa, &f);
					if (fine && op == CMP_LT)
						fine = !__builtin_sub_overflow(f.constant, 1, &f.constant);
					atom.kind = ATOM_GE0;
					break;
				case CMP_GT:
				case CMP_GE:
					fine = aff_add_scaled(ck->arena, fa, -1, fb, &f);
					if (fine && op == CMP_GT)
						fine = !__builtin_sub_overflow(f.constant, 1, &f.constant);
					atom.kind = ATOM_GE0;
					break;
				case CMP_EQ:
				case CMP_NE:
					fine = aff_add_scaled(ck->arena, fa, -1, fb, &f);
					atom.kind = op == CMP_EQ ? ATOM_EQ0 : ATOM_NE0;
					break;
				}
				if (!fine) {
					diag_error(ck->dg, sp, "a constant or coefficient of this "
							       "comparison does not fit in 64 bits");
					continue;
				}
				atom.f = f;
			}
			struct cond_atom *p = arena_alloc(ck->arena, sizeof(*p));
			if (!p)
				continue;
			*p = atom;
			if (ptr_list_push(atoms, p) < 0)
				diag_nomem(ck->dg);
		}
		free(ok);
	}
}

static const struct cond_atom *atoms_to_array(struct checker *ck, struct ptr_list *atoms, int *n)
{
	struct cond_atom *v = arena_alloc(ck->arena, (size_t)atoms->n * sizeof(*v));
	for (int i = 0; v && i < atoms->n; i++)
		v[i] = *(struct cond_atom *)atoms->v[i];
	*n = v ? atoms->n : 0;
	free(atoms->v);
	*atoms = (struct ptr_list){0};
	return v;
}

/* --- quantifiers and statements --- */

/* *V (of *CAP elements of SIZE bytes) with room for N more past *USED; -1
 * when out of memory. */
static int reserve(void **v, int *cap, int used, int n, size_t size)
{
	if (used + n <= *cap)
		return 0;
	int c = *cap ? *cap : 8;
	while (c < used + n)
		c *= 2;
	void *bigger = ast_array_grow(*v, (size_t)c, size);
	if (!bigger)
		return -1;
	*v = bigger;
	*cap = c;
	return 0;
}

/* Q's variables in scope, with their ranges checked.  Out of memory, none
 * is (said to the sink), and check_quant_close leaves Q alone. */
static void check_quant_open(struct checker *ck, struct ast_quant *q)
{
	if (reserve((void **)&ck->scope, &ck->capscope, ck->nscope, q->nvars, sizeof(*ck->scope)) <
		    0 ||
	    reserve((void **)&ck->stmt_vars.v, &ck->stmt_vars.cap, ck->stmt_vars.n, q->nvars,
		    sizeof(*ck->stmt_vars.v)) < 0 ||
	    reserve((void **)&ck->quants, &ck->capquants, ck->nquants, 1, sizeof(*ck->quants)) <
		    0) {
		diag_nomem(ck->dg);
		ck->bounds_ok = false;
		return;
	}
	for (int i = 0; i < q->nvars; i++) {
		struct ast_var *v = q->vars[i];
		bool ok = true;
		if (v->lo && resolve(ck, v->lo, CX_AFFINE)) {
			const struct affine *lo = need_affine(ck, v->lo, "bound", v->name);
			struct affine *l = NULL;
			if (lo && (l = arena_alloc(ck->arena, sizeof(*l)))) {
				*l = *lo;
				if (v->lo_op == CMP_LT && __builtin_add_overflow(l->constant, 1, &l->constant)) {
					diag_error(ck->dg, v->lo->span, "bound does not fit in 64 bits");
					l = NULL;
				}
			}
			v->lo_aff = l;
			ok = l != NULL;
		} else if (v->lo) {
			ok = false;
		} else {
			struct affine *l = arena_alloc(ck->arena, sizeof(*l));
			if (l)
				*l = aff_const(0);
			v->lo_aff = l;
			ok = l != NULL;
		}
		if (resolve(ck, v->hi, CX_AFFINE)) {
			const struct affine *hi = need_affine(ck, v->hi, "bound", v->name);
			struct affine *h = NULL;
			if (hi && (h = arena_alloc(ck->arena, sizeof(*h)))) {
				*h = *hi;
				if (v->hi_op == CMP_LE && __builtin_add_overflow(h->constant, 1, &h->constant)) {
					diag_error(ck->dg, v->hi->span, "bound does not fit in 64 bits");
					h = NULL;
				}
			}
			v->hi_aff = h;
			ok &= h != NULL;
		} else {
			ok = false;
		}
		if (!ok)
			ck->bounds_ok = false;
		struct ast_var *outer = find_var(ck, v->name);
		struct sym here, *g = find_sym(ck, v->name, &here);
		if (outer) {
			diag_error(ck->dg, v->name_span, "variable '%s' shadows another variable '%s'", v->name,
				   v->name);
			diag_note(ck->dg, outer->name_span, "the other '%s' is bound here", v->name);
		} else if (g && g == &here && g->kind == SYM_PARAM) {
			diag_error(ck->dg, v->name_span, "variable '%s' shadows the loop variable '%s'",
				   v->name, v->name);
			diag_note(ck->dg, g->span, "the loop variable '%s' is bound here", v->name);
		} else if (g) {
			diag_error(ck->dg, v->name_span, "variable '%s' shadows the %s '%s'", v->name,
				   sym_kind_text(g->kind), v->name);
			diag_note(ck->dg, g->span, "the %s '%s' is declared here", sym_kind_text(g->kind), v->name);
		}
		v->index = ck->stmt_vars.n;
		ck->stmt_vars.v[ck->stmt_vars.n++] = v;   /* reserved above */
		ck->scope[ck->nscope++] = v;
	}
	ck->quants[ck->nquants++] = q;
	if (q->cond) {
		struct ptr_list atoms = {0};
		int before = ck->dg->nerrors;
		check_cond(ck, q->cond, true, q == ck->forall, &atoms);
		if (ck->dg->nerrors != before)
			ck->bounds_ok = false;
		q->cond->atoms = atoms_to_array(ck, &atoms, &q->cond->natoms);
	}
}

static void check_quant_close(struct checker *ck, const struct ast_quant *q)
{
	if (ck->nquants == 0 || ck->quants[ck->nquants - 1] != q)
		return;   /* not opened: out of memory */
	ck->nscope -= q->nvars;
	ck->nquants--;
}

/* A work weight being expanded: terms of coef * product of factors. */
struct work_sum {
	int n;
	struct work_term t[CHECK_MAX_WORK_TERMS];
	struct affine f[CHECK_MAX_WORK_TERMS][CHECK_MAX_WORK_FACTORS];
};

enum work_status { WORK_OK, WORK_NOT_POLY, WORK_TOO_BIG, WORK_OVERFLOW, WORK_NOMEM };

/* E, a resolved work weight, as a sum of products of affine factors into
 * *OUT: an affine part is one factor (a constant folds into the
 * coefficient), + and - concatenate, * multiplies out. */
static enum work_status work_expand(struct checker *ck, const struct ast_expr *e, struct work_sum *out)
{
	struct affine a;
	out->n = 0;
	enum aff_status as = to_affine(ck, e, &a);
	if (as == AFF_OVERFLOW)
		return WORK_OVERFLOW;
	if (as == AFF_OK) {
		if (a.nterms == 0 && a.constant == 0)
			return WORK_OK;
		out->n = 1;
		out->t[0] = (struct work_term){a.nterms ? 1 : a.constant, a.nterms ? 1 : 0, NULL, false};
		out->f[0][0] = a;
		return WORK_OK;
	}
	struct work_sum *l = calloc(1, sizeof(*l)), *r = calloc(1, sizeof(*r));
	if (!l || !r) {
		free(l);
		free(r);
		diag_nomem(ck->dg);
		return WORK_NOMEM;
	}
	enum work_status st = WORK_OK;
	switch (e->kind) {
	case EXPR_NEG:
		if ((st = work_expand(ck, e->lhs, l)) != WORK_OK)
			break;
		*out = *l;
		for (int i = 0; i < out->n && st == WORK_OK; i++)
			if (__builtin_mul_overflow(out->t[i].coef, -1, &out->t[i].coef))
				st = WORK_OVERFLOW;
		break;
	case EXPR_ADD:
	case EXPR_SUB:
		if ((st = work_expand(ck, e->lhs, l)) != WORK_OK || (st = work_expand(ck, e->rhs, r)) != WORK_OK)
			break;
		if (l->n + r->n > CHECK_MAX_WORK_TERMS) {
			st = WORK_TOO_BIG;
			break;
		}
		*out = *l;
		for (int i = 0; i < r->n && st == WORK_OK; i++) {
			out->t[out->n] = r->t[i];
			memcpy(out->f[out->n], r->f[i], sizeof(r->f[i]));
			if (e->kind == EXPR_SUB &&
			    __builtin_mul_overflow(out->t[out->n].coef, -1, &out->t[out->n].coef))
				st = WORK_OVERFLOW;
			out->n++;
		}
		break;
	case EXPR_MUL:
		if ((st = work_expand(ck, e->lhs, l)) != WORK_OK || (st = work_expand(ck, e->rhs, r)) != WORK_OK)
			break;
		if (l->n * r->n > CHECK_MAX_WORK_TERMS) {
			st = WORK_TOO_BIG;
			break;
		}
		for (int i = 0; i < l->n && st == WORK_OK; i++)
			for (int k = 0; k < r->n && st == WORK_OK; k++) {
				struct work_term *t = &out->t[out->n];
				if (l->t[i].nfactors + r->t[k].nfactors > CHECK_MAX_WORK_FACTORS) {
					st = WORK_TOO_BIG;
					break;
				}
				if (__builtin_mul_overflow(l->t[i].coef, r->t[k].coef, &t->coef)) {
					st = WORK_OVERFLOW;
					break;
				}
				t->nfactors = 0;
				for (int x = 0; x < l->t[i].nfactors; x++)
					out->f[out->n][t->nfactors++] = l->f[i][x];
				for (int x = 0; x < r->t[k].nfactors; x++)
					out->f[out->n][t->nfactors++] = r->f[k][x];
				out->n++;
			}
		break;
	default:
		st = WORK_NOT_POLY;
		break;
	}
	free(l);
	free(r);
	return st;
}

/* S's work weight as terms (ast_stmt.work_terms), or an error. */
static void check_work(struct checker *ck, struct ast_stmt *s)
{
	struct work_sum *ws = calloc(1, sizeof(*ws));
	if (!ws) {
		diag_nomem(ck->dg);
		return;
	}
	enum work_status st = work_expand(ck, s->work, ws);
	char *text = expr_text(ck, s->work);
	if (st == WORK_NOT_POLY)
		diag_error(ck->dg, s->work->span, "work '%s' is not a polynomial: a work weight is "
			   "built of integers, the sizes, the grid sizes and the statement's "
			   "variables with '+', '-' and '*', such as 'work 2*(n - k)'", text);
	else if (st == WORK_TOO_BIG)
		diag_error(ck->dg, s->work->span, "work '%s' multiplies out to more than %d terms or "
			   "a term of more than %d factors", text, CHECK_MAX_WORK_TERMS,
			   CHECK_MAX_WORK_FACTORS);
	else if (st == WORK_OVERFLOW)
		diag_error(ck->dg, s->work->span, "work '%s': a coefficient does not fit in 64 bits", text);
	for (int i = 0; st == WORK_OK && i < ws->n; i++)
		if (ws->t[i].coef < 0) {
			diag_error(ck->dg, s->work->span, "work '%s' has a term with a negative "
				   "coefficient; write it as a sum of products of factors that are never "
				   "negative, with positive coefficients, such as (n - k)*(n + k) for "
				   "n*n - k*k", text);
			st = WORK_NOT_POLY;
		}
	free(text);
	if (st == WORK_OK) {
		struct work_term *t = arena_alloc(ck->arena, (size_t)ws->n * sizeof(*t) + 1);
		for (int i = 0; t && i < ws->n; i++) {
			struct affine *f = arena_alloc(ck->arena,
						       (size_t)ws->t[i].nfactors * sizeof(*f) + 1);
			if (!f) {
				t = NULL;
				break;
			}
			memcpy(f, ws->f[i], (size_t)ws->t[i].nfactors * sizeof(*f));
			/* no factor: nothing to prove */
			t[i] = (struct work_term){ws->t[i].coef, ws->t[i].nfactors, f,
						  ws->t[i].nfactors == 0};
		}
		s->work_terms = t;
		s->nwork_terms = t ? ws->n : 0;
	}
	free(ws);
}

static void check_stmt(struct checker *ck, struct ast_stmt *s)
{
	int before = ck->dg->nerrors;
	ck->nscope = 0;
	ck->nquants = 0;
	ck->stmt_vars.n = 0;
	ck->refs.n = 0;
	ck->bounds_ok = true;
	ck->forall = s->forall;
	if (s->forall)
		check_quant_open(ck, s->forall);
	/* the left-hand side */
	if (s->lhs->kind == EXPR_INDEX) {
		resolve_index(ck, s->lhs, CX_AFFINE, true);
	} else {
		/* resolve it anyway, so names are checked and arrays count as used */
		int before_lhs = ck->dg->nerrors;
		bool ok = resolve(ck, s->lhs, CX_VALUE);
		ck->refs.n = 0;
		if (ok || ck->dg->nerrors == before_lhs)
			diag_error(ck->dg, s->lhs->span, "the left-hand side must be an array element");
	}
	resolve(ck, s->rhs, CX_VALUE);
	if (s->work) {
		int before = ck->dg->nerrors;
		resolve(ck, s->work, CX_WORK);
		if (ck->dg->nerrors == before)
			check_work(ck, s);
	}
	if (s->forall)
		check_quant_close(ck, s->forall);

	s->nvars = ck->stmt_vars.n;
	s->vars = calloc((size_t)s->nvars + 1, sizeof(*s->vars));
	struct ref_info *refs = arena_alloc(ck->arena, (size_t)ck->refs.n * sizeof(*refs));
	if (!s->vars || !refs) {
		if (!s->vars)
			diag_nomem(ck->dg);   /* else the arena has said it */
		s->nvars = 0;
		s->nrefs = 0;
		return;
	}
	if (s->nvars > 0)
		memcpy(s->vars, ck->stmt_vars.v, (size_t)s->nvars * sizeof(*s->vars));
	for (int i = 0; i < ck->refs.n; i++)
		refs[i] = *(struct ref_info *)ck->refs.v[i];
	s->refs = refs;
	s->nrefs = ck->refs.n;
	if (ck->dg->nerrors == before && ck->bounds_ok && !ck->dg->stopped && !ck->dg->nomem)
		check_stmt_bounds(ck, s);
}

/* P appended to L, a list the checker keeps; out of memory, said to the
 * sink (the specification is then refused). */
static void decl_push(struct checker *ck, struct ptr_list *l, void *p)
{
	if (ptr_list_push(l, p) < 0)
		diag_nomem(ck->dg);
}

/* --- declarations, layouts, candidates --- */

/* The arrays and supersteps a candidate block C declares (a program variant):
 * its arrays are visible in C only and may not take a global name; its
 * supersteps are its program, in order. */
static void collect_variant(struct checker *ck, struct ast_candidate *c, struct ptr_list *arrays,
			    struct ptr_list *steps)
{
	for (int k = 0; k < c->narrays; k++) {
		struct ast_array *a = c->arrays[k];
		struct sym *old = sym_find(&ck->globals, a->name);
		const struct ast_array *twin = NULL;
		for (int j = 0; j < k && !twin; j++)
			if (c->arrays[j]->cand == c && strcmp(c->arrays[j]->name, a->name) == 0)
				twin = c->arrays[j];
		if (old || twin) {
			if (old)
				diag_error(ck->dg, a->name_span,
					   "'%s' is already declared; an array of candidate '%s' is added to "
					   "the top-level names and needs a name of its own", a->name, c->name);
			else
				diag_error(ck->dg, a->name_span, "'%s' is already declared", a->name);
			diag_note(ck->dg, old ? old->span : twin->name_span, "the %s '%s' is declared here",
				  old ? sym_kind_text(old->kind) : "array", a->name);
			continue;
		}
		a->index = arrays->n;
		a->cand = c;
		decl_push(ck, arrays, a);
	}
	for (int k = 0; k < c->nsupersteps; k++) {
		struct ast_superstep *st = c->supersteps[k];
		for (int j = 0; j < k; j++)
			if (strcmp(c->supersteps[j]->name, st->name) == 0) {
				diag_error(ck->dg, st->name_span, "superstep '%s' is declared twice in candidate '%s'",
					   st->name, c->name);
				diag_note(ck->dg, c->supersteps[j]->name_span, "the first superstep '%s' is here",
					  st->name);
				break;
			}
		st->index = steps->n;
		st->cand = c;
		decl_push(ck, steps, st);
	}
}

static void collect_decls(struct checker *ck, struct ast_spec *spec, struct ptr_list *params,
			  struct ptr_list *axes, struct ptr_list *arrays, struct ptr_list *dists,
			  struct ptr_list *steps)
{
	const struct ast_item *grid = NULL;
	struct symtab steps_tab = {0}, cands_tab = {0};
	for (int i = 0; i < spec->nitems; i++) {
		struct ast_item *it = spec->items[i];
		switch (it->kind) {
		case ITEM_PARAM:
			for (int k = 0; k < it->nparams; k++) {
				it->params[k]->kind = SYM_PARAM;
				it->params[k]->index = params->n;
				if (declare(ck, it->params[k]->name, it->params[k]->span, SYM_PARAM, it->params[k]))
					decl_push(ck, params, it->params[k]);
			}
			break;
		case ITEM_GRID:
			if (grid) {
				diag_error(ck->dg, it->span, "the grid is declared twice");
				diag_note(ck->dg, grid->span, "the first grid is declared here");
				break;
			}
			grid = it;
			if (it->nparams > 3)
				diag_error(ck->dg, it->params[3]->span,
					   "a grid has 1 to 3 axes, this one has %d", it->nparams);
			for (int k = 0; k < it->nparams; k++) {
				it->params[k]->kind = SYM_GRID_AXIS;
				it->params[k]->index = axes->n;
				if (declare(ck, it->params[k]->name, it->params[k]->span, SYM_GRID_AXIS, it->params[k]))
					decl_push(ck, axes, it->params[k]);
			}
			break;
		case ITEM_ARRAY:
			for (int k = 0; k < it->narrays; k++) {
				struct ast_array *a = it->arrays[k];
				a->index = arrays->n;
				if (declare(ck, a->name, a->name_span, SYM_ARRAY, a))
					decl_push(ck, arrays, a);
			}
			break;
		case ITEM_DIST:
			it->dist->index = dists->n;
			if (declare(ck, it->dist->name, it->dist->name_span, SYM_DIST, it->dist))
				decl_push(ck, dists, it->dist);
			break;
		case ITEM_SUPERSTEP: {
			struct ast_superstep *st = it->superstep;
			struct sym *old = sym_find(&steps_tab, st->name);
			if (old) {
				diag_error(ck->dg, st->name_span, "superstep '%s' is declared twice", st->name);
				diag_note(ck->dg, old->span, "the first superstep '%s' is here", st->name);
			} else {
				sym_insert(&steps_tab, (struct sym){st->name, SYM_NONE, st->name_span, st},
					   ck->dg);
			}
			st->index = steps->n;
			decl_push(ck, steps, st);
			break;
		}
		case ITEM_CANDIDATE: {
			struct ast_candidate *c = it->candidate;
			struct sym *old = sym_find(&cands_tab, c->name);
			if (old) {
				diag_error(ck->dg, c->name_span, "candidate '%s' is declared twice", c->name);
				diag_note(ck->dg, old->span, "the first candidate '%s' is here", c->name);
			} else {
				sym_insert(&cands_tab, (struct sym){c->name, SYM_NONE, c->name_span, c},
					   ck->dg);
			}
			break;
		}
		case ITEM_IMPORT:
			diag_error(ck->dg, it->span, "'import' is not supported yet");
			break;
		case ITEM_ASSUME:
		case ITEM_LAYOUT:
			break;
		}
	}
	free(steps_tab.slots);
	free(cands_tab.slots);
	/* the variants' arrays and supersteps, once every global name is known */
	for (int i = 0; i < spec->nitems; i++)
		if (spec->items[i]->kind == ITEM_CANDIDATE)
			collect_variant(ck, spec->items[i]->candidate, arrays, steps);
	if (!grid && spec->nitems > 0)
		diag_error(ck->dg, (struct span){1, 1, 1, 1},
			   "no grid is declared (for example 'grid P;' or 'grid M, N;')");
}

static const struct ast_param *find_axis(struct checker *ck, const char *name, struct span sp)
{
	struct sym *s = sym_find(&ck->globals, name);
	if (!s) {
		undefined_name(ck, sp, name);
		return NULL;
	}
	if (s->kind != SYM_GRID_AXIS) {
		diag_error(ck->dg, sp, "'%s' is a %s, not a grid axis", name, sym_kind_text(s->kind));
		return NULL;
	}
	return s->decl;
}

/* The size K's block is in cyclic(NAME): a size parameter. */
static void check_block_name(struct checker *ck, struct ast_dkind *k)
{
	k->block_param = -1;
	if (!k->block_name)
		return;
	struct sym here, *s = find_sym(ck, k->block_name, &here);
	if (!s) {
		undefined_name(ck, k->span, k->block_name);
		return;
	}
	const struct ast_param *p = s->decl;
	if (s->kind != SYM_PARAM || p->index >= ck->cs->nsizes) {
		diag_error(ck->dg, k->span, "the block size of 'cyclic(%s)' must be a number or a "
			   "size parameter; '%s' is a %s", k->block_name, k->block_name,
			   s->kind == SYM_PARAM ? "loop variable" : sym_kind_text(s->kind));
		return;
	}
	k->block_param = p->index;
}

static bool same_dkind(const struct ast_dkind *a, const struct ast_dkind *b)
{
	return a->kind == b->kind && a->block == b->block &&
	       (a->block_name && b->block_name ? strcmp(a->block_name, b->block_name) == 0
						: a->block_name == b->block_name);
}

static void check_dist(struct checker *ck, struct ast_dist *d)
{
	d->axis = find_axis(ck, d->axis_name, d->axis_span);
	for (int i = 0; i < d->nalts; i++) {
		check_block_name(ck, &d->alts[i]);
		for (int j = 0; j < i; j++)
			if (same_dkind(&d->alts[i], &d->alts[j]))
				diag_error(ck->dg, d->alts[i].span, "this alternative of '%s' is given twice", d->name);
	}
}

/* Checks one layout (top level or in a candidate). */
static void check_layout(struct checker *ck, struct ast_layout *l)
{
	struct sym here, *s = find_sym(ck, l->name, &here);
	if (!s)
		undefined_name(ck, l->name_span, l->name);
	else if (s->kind != SYM_ARRAY)
		diag_error(ck->dg, l->name_span, "'%s' is a %s, not an array", l->name, sym_kind_text(s->kind));
	else
		l->array = s->decl;
	const struct ast_param *used[3] = {NULL, NULL, NULL};
	const struct ast_ldim *used_by[3] = {NULL, NULL, NULL};
	for (int i = 0; i < l->ndims; i++) {
		struct ast_ldim *d = &l->dims[i];
		bool identity = false;
		if (d->kind == LDIM_NAMED) {
			struct sym *ds = sym_find(&ck->globals, d->name);
			if (!ds) {
				undefined_name(ck, d->name_span, d->name);
				continue;
			}
			if (ds->kind != SYM_DIST) {
				diag_error(ck->dg, d->name_span, "'%s' is a %s, not a distribution", d->name,
					   sym_kind_text(ds->kind));
				continue;
			}
			d->dist = ds->decl;
			d->axis = d->dist->axis;
			for (int k = 0; k < d->dist->nalts; k++)
				identity |= d->dist->alts[k].kind == DIST_IDENTITY;
		} else if (d->kind == LDIM_INLINE) {
			d->axis = find_axis(ck, d->name, d->name_span);
			identity = d->dkind.kind == DIST_IDENTITY;
			check_block_name(ck, &d->dkind);
		}
		if (!d->axis)
			continue;
		int ax = d->axis->index;
		if (ax >= 0 && ax < 3) {
			if (used[ax]) {
				diag_error(ck->dg, d->span, "grid axis '%s' is used twice in the layout of '%s'",
					   d->axis->name, l->name);
				diag_note(ck->dg, used_by[ax]->span, "'%s' is first used here", d->axis->name);
			} else {
				used[ax] = d->axis;
				used_by[ax] = d;
			}
		}
		if (identity && l->array && i < l->array->rank && l->array->extents[i]->aff) {
			struct affine axis = {0, 1, &(struct affine_term){SYM_GRID_AXIS, ax, 1, NULL}};
			if (!aff_equal(l->array->extents[i]->aff, &axis)) {
				char *t = expr_text(ck, l->array->extents[i]);
				diag_error(ck->dg, d->span,
					   "identity over '%s' needs a dimension of extent %s, but dimension %d of '%s' has extent %s",
					   d->axis->name, d->axis->name, i + 1, l->name, t);
				free(t);
			}
		}
	}
	/* past the rank, only `replicated over AXIS`: a copy along AXIS */
	int extra_ok = l->array && l->ndims > l->array->rank;
	for (int i = l->array ? l->array->rank : 0; extra_ok && i < l->ndims; i++)
		extra_ok = l->dims[i].kind == LDIM_INLINE && l->dims[i].dkind.kind == DIST_REPLICATED &&
			   l->dims[i].axis;
	if (l->array && l->ndims != l->array->rank && !extra_ok)
		diag_error(ck->dg, l->span, "the layout of '%s' has %d dimension%s, the array has %d%s",
			   l->name, l->ndims, l->ndims == 1 ? "" : "s", l->array->rank,
			   l->ndims > l->array->rank
				   ? " (past them, only 'replicated over AXIS' may follow)" : "");
}

/* The layout of each array at one level (top level or a candidate block);
 * a second layout for the same array at the same level is an error. */
static void index_layouts(struct checker *ck, struct ast_layout **layouts, int n,
			  const struct ast_layout **by_array, const char *where)
{
	for (int i = 0; i < n; i++) {
		struct ast_layout *l = layouts[i];
		check_layout(ck, l);
		if (!l->array)
			continue;
		const struct ast_layout **slot = &by_array[l->array->index];
		if (*slot) {
			diag_error(ck->dg, l->span, "'%s' has two layouts%s%s", l->name, where ? " in candidate " : "",
				   where ? where : "");
			diag_note(ck->dg, (*slot)->span, "the first layout of '%s' is here", l->name);
		} else {
			*slot = l;
		}
	}
}

static struct dim_dist ldim_dist(const struct ast_ldim *d, const int *choice)
{
	struct dim_dist r = {DIST_NONE, 0, -1, NULL, -1};
	if (d->kind == LDIM_STAR)
		return r;
	r.axis = d->axis->index;
	if (d->kind == LDIM_INLINE) {
		r.kind = d->dkind.kind;
		r.block = d->dkind.block;
		r.block_param = d->dkind.block_param;
	} else {
		const struct ast_dkind *k = &d->dist->alts[choice[d->dist->index]];
		r.kind = k->kind;
		r.block = k->block;
		r.block_param = k->block_param;
		r.dist = d->dist;
	}
	return r;
}

/* K as the user wrote it, "cyclic(nb)", onto OUT. */
static void print_dkind(FILE *out, const struct ast_dkind *k)
{
	if (k->kind == DIST_BLOCK_CYCLIC && k->block_name)
		fprintf(out, "cyclic(%s)", k->block_name);
	else if (k->kind == DIST_BLOCK_CYCLIC)
		fprintf(out, "cyclic(%lld)", k->block);
	else
		fputs(dist_kind_name(k->kind), out);
}

/* CAND's name: the variant's, then each dist with alternatives and its
 * CHOICE; "default" for none.  NULL when out of memory. */
static char *candidate_name(struct checker *ck, const struct checked_spec *cs,
			    const struct candidate *cand, const int *choice)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	FILE *f = t.f;
	const char *sep = "";
	if (cand->decl) {
		fputs(cand->decl->name, f);
		sep = "/";
	}
	for (int d = 0; d < cs->ndists; d++) {
		if (cs->dists[d]->nalts < 2)
			continue;
		fprintf(f, "%s%s=", sep, cs->dists[d]->name);
		print_dkind(f, &cs->dists[d]->alts[choice[d]]);
		sep = ",";
	}
	char *buf = text_close(&t);   /* T's length is known once closed */
	char *name = buf ? arena_strdup(ck->arena, t.len ? buf : "default") : NULL;
	free(buf);
	return name;
}

/* CAND, of the explicit candidate DECL (NULL: none) with the layouts PER
 * (one per array, NULL: the top level's, TOP) and the alternatives CHOICE;
 * -1 when out of memory. */
static int build_candidate(struct checker *ck, struct checked_spec *cs, struct candidate *cand,
			   const struct ast_candidate *decl, const struct ast_layout **per,
			   const struct ast_layout **top, const int *choice)
{
	int narrays = cs->narrays;
	cand->decl = decl;
	cand->choice = arena_alloc(ck->arena, ((size_t)cs->ndists + 1) * sizeof(int));
	if (!cand->choice)
		return -1;
	memcpy(cand->choice, choice, (size_t)cs->ndists * sizeof(int));
	cand->name = candidate_name(ck, cs, cand, choice);
	/* the program: the variant's supersteps, or the top level's */
	bool own = decl && decl->nsupersteps > 0;
	cand->steps = arena_alloc(ck->arena, ((size_t)cs->nsupersteps + 1) * sizeof(*cand->steps));
	cand->arrays = arena_alloc(ck->arena, (size_t)narrays * sizeof(*cand->arrays) + 1);
	if (!cand->name || !cand->steps || !cand->arrays)
		return -1;
	cand->nsteps = 0;
	for (int st = 0; st < cs->nsupersteps; st++)
		if (cs->supersteps[st]->cand == (own ? decl : NULL))
			cand->steps[cand->nsteps++] = cs->supersteps[st];
	/* the layouts */
	for (int a = 0; a < narrays; a++) {
		const struct ast_layout *l = per[a] ? per[a] : top[a];
		struct cand_array *ca = &cand->arrays[a];
		ca->array = cs->arrays[a];
		ca->layout = l;
		if (!l) {   /* another variant's array */
			ca->dims = NULL;
			continue;
		}
		int rank = ca->array->rank;
		ca->dims = arena_alloc(ck->arena, (size_t)rank * sizeof(*ca->dims));
		if (!ca->dims)
			return -1;
		for (int i = 0; i < rank; i++)
			ca->dims[i] = ldim_dist(&l->dims[i], choice);
		/* past the rank: `replicated over AXIS`, a copy on every process
		 * along AXIS (check_layout) */
		for (int i = rank; i < l->ndims; i++)
			ca->replicated_axes |= 1u << l->dims[i].axis->index;
	}
	return 0;
}

/* The next combination of CHOICE: the last dist with alternatives varies
 * fastest. */
static void next_choice(const struct checked_spec *cs, int *choice)
{
	for (int d = cs->ndists - 1; d >= 0; d--) {
		if (cs->dists[d]->nalts < 2)
			continue;
		if (++choice[d] < cs->dists[d]->nalts)
			break;
		choice[d] = 0;
	}
}

static void expand_candidates(struct checker *ck, struct checked_spec *cs, struct ast_spec *spec)
{
	int narrays = cs->narrays;
	const struct ast_layout **top = calloc((size_t)narrays + 1, sizeof(*top));
	struct ptr_list cands = {0};
	bool pushed = true;
	for (int i = 0; top && pushed && i < spec->nitems; i++) {
		struct ast_item *it = spec->items[i];
		if (it->kind == ITEM_LAYOUT)
			index_layouts(ck, &it->layout, 1, top, NULL);
		else if (it->kind == ITEM_CANDIDATE)
			pushed = ptr_list_push(&cands, it->candidate) == 0;
	}
	int nexplicit = cands.n ? cands.n : 1;
	const struct ast_layout **per =
		top && pushed ? calloc((size_t)nexplicit * ((size_t)narrays + 1), sizeof(*per)) : NULL;
	int *choice = per ? calloc((size_t)cs->ndists + 1, sizeof(*choice)) : NULL;
	if (!choice) {
		diag_nomem(ck->dg);
		free(top);
		free(per);
		free(cands.v);
		return;
	}
	for (int c = 0; c < cands.n; c++) {
		struct ast_candidate *cd = cands.v[c];
		ck->cand = cd;
		index_layouts(ck, cd->layouts, cd->nlayouts, per + (size_t)c * ((size_t)narrays + 1), cd->name);
		ck->cand = NULL;
	}
	/* every array needs a layout in every explicit candidate that sees it */
	bool missing = false;
	for (int c = 0; c < nexplicit; c++)
		for (int a = 0; a < narrays; a++) {
			if (per[(size_t)c * ((size_t)narrays + 1) + (size_t)a] || top[a])
				continue;
			if (cs->arrays[a]->cand && (!cands.n || cs->arrays[a]->cand != cands.v[c]))
				continue;
			missing = true;
			if (cands.n)
				diag_error(ck->dg, cs->arrays[a]->name_span, "array '%s' has no layout in candidate '%s'",
					   cs->arrays[a]->name, ((struct ast_candidate *)cands.v[c])->name);
			else
				diag_error(ck->dg, cs->arrays[a]->name_span, "array '%s' has no layout",
					   cs->arrays[a]->name);
		}
	/* the combinations of alternatives */
	long long combos = 1; /* saturates just above the limit */
	for (int d = 0; d < cs->ndists; d++) {
		if (cs->dists[d]->nalts < 2)
			continue;
		combos *= cs->dists[d]->nalts;
		if (combos > CHECK_MAX_CANDIDATES)
			combos = CHECK_MAX_CANDIDATES + 1;
	}
	long long total = combos * nexplicit;
	if (total > CHECK_MAX_CANDIDATES) {
		diag_error(ck->dg, (struct span){1, 1, 1, 1}, "too many candidates (more than %d)",
			   CHECK_MAX_CANDIDATES);
		missing = true;
	}
	if (!missing && ck->dg->nerrors == 0)
		cs->candidates = arena_alloc(ck->arena, (size_t)total * sizeof(*cs->candidates));
	int k = 0;
	for (int c = 0; cs->candidates && c < nexplicit; c++) {
		memset(choice, 0, ((size_t)cs->ndists + 1) * sizeof(*choice));
		for (long long m = 0; m < combos; m++) {
			if (build_candidate(ck, cs, &cs->candidates[k++], cands.n ? cands.v[c] : NULL,
					    per + (size_t)c * ((size_t)narrays + 1), top, choice) < 0) {
				diag_nomem(ck->dg);
				cs->candidates = NULL;
				k = 0;
				break;
			}
			next_choice(cs, choice);
		}
	}
	cs->ncandidates = k;
	free(choice);
	free(top);
	free(per);
	free(cands.v);
}

/* --- the whole specification --- */

static bool spec_is_empty(const struct ast_spec *spec)
{
	return spec->nitems == 0;
}

bool param_in_scope(const struct checked_spec *cs, int p, const struct ast_loop *loop)
{
	if (p < cs->nsizes)
		return true;
	for (const struct ast_loop *l = loop; l; l = l->outer)
		if (l->param && l->param->index == p)
			return true;
	return false;
}

/* A bound of loop L's range as an affine form of the sizes, the axes and
 * the outer loops' variables (inclusive lower, exclusive upper); NULL after
 * an error. */
static const struct affine *loop_bound(struct checker *ck, struct ast_loop *l, struct ast_expr *e,
				       bool lower, enum cmp_op op)
{
	if (!e) {
		struct affine *z = arena_alloc(ck->arena, sizeof(*z));
		if (z)
			*z = aff_const(0);
		return z;
	}
	if (!resolve(ck, e, CX_AFFINE))
		return NULL;
	const struct affine *a = need_affine(ck, e, "bound", l->var->name);
	if (!a)
		return NULL;
	struct affine *b = arena_alloc(ck->arena, sizeof(*b));
	if (!b)
		return NULL;
	*b = *a;
	if (((lower && op == CMP_LT) || (!lower && op == CMP_LE)) &&
	    __builtin_add_overflow(b->constant, 1, &b->constant)) {
		diag_error(ck->dg, e->span, "bound does not fit in 64 bits");
		return NULL;
	}
	return b;
}

/* Every loop's variable becomes a parameter past the sizes (PARAMS), and
 * its range atoms over the sizes, the axes and the outer variables.  A
 * loop variable has a name of its own: no global name, no other loop's. */
static void check_loops(struct checker *ck, struct ast_spec *spec, struct ptr_list *params)
{
	for (int i = 0; i < spec->nloops; i++) {
		struct ast_loop *l = spec->loops[i];
		const char *name = l->var->name;
		/* a second loop over a name is an error, but its variable is
		 * declared all the same, so that its uses raise nothing more (a
		 * name taken by a global goes on naming the global) */
		struct sym *g = sym_find(&ck->globals, name);
		const struct ast_loop *twin = NULL;
		for (int k = 0; k < i && !twin; k++)
			if (strcmp(spec->loops[k]->var->name, name) == 0)
				twin = spec->loops[k];
		if (g) {
			diag_error(ck->dg, l->var->name_span, "loop variable '%s' shadows the %s '%s'", name,
				   sym_kind_text(g->kind), name);
			diag_note(ck->dg, g->span, "the %s '%s' is declared here", sym_kind_text(g->kind),
				  name);
			continue;
		}
		if (twin) {
			diag_error(ck->dg, l->var->name_span,
				   "loop variable '%s' is the variable of another loop; give each loop "
				   "a name of its own (the reports name the iterations by it)", name);
			diag_note(ck->dg, twin->var->name_span, "the other loop over '%s' is here", name);
		} else if (strcmp(name, "g") == 0 || strcmp(name, "l") == 0) {
			/* one run's cost, w + h*g + l, would mix the two */
			diag_error(ck->dg, l->var->name_span,
				   "'%s' names the machine's %s in the cost w + h*g + l; choose another "
				   "name for this loop variable", name,
				   name[0] == 'g' ? "gap (g)" : "latency (l)");
		}
		struct ast_param *p = ast_param_new(l->var->name_span, strdup(name));
		if (!p) {
			diag_nomem(ck->dg);
			return;
		}
		p->kind = SYM_PARAM;
		p->index = params->n;
		l->param = p;
		decl_push(ck, params, p);
	}
	for (int i = 0; i < spec->nloops; i++) {
		struct ast_loop *l = spec->loops[i];
		int depth = 0;
		for (const struct ast_loop *o = l; o; o = o->outer)
			depth++;
		if (depth == CHECK_MAX_LOOP_DEPTH + 1)
			diag_error(ck->dg, l->span, "loops nested more than %d deep", CHECK_MAX_LOOP_DEPTH);
		if (!l->param)
			continue;
		ck->loop = l->outer;
		const struct affine *lo = loop_bound(ck, l, l->var->lo, true, l->var->lo_op);
		const struct affine *hi = loop_bound(ck, l, l->var->hi, false, l->var->hi_op);
		ck->loop = NULL;
		l->var->lo_aff = lo;
		l->var->hi_aff = hi;
		if (!lo || !hi)
			continue;
		/* k - lo >= 0 and hi - 1 - k >= 0 */
		struct cond_atom *at = arena_alloc(ck->arena, 2 * sizeof(*at));
		struct affine_term *kt = arena_alloc(ck->arena, sizeof(*kt));
		struct affine *f0 = arena_alloc(ck->arena, sizeof(*f0));
		struct affine *f1 = arena_alloc(ck->arena, sizeof(*f1));
		if (!at || !kt || !f0 || !f1)
			return;   /* said by the arena */
		*kt = (struct affine_term){SYM_PARAM, l->param->index, 1, NULL};
		struct affine k = {0, 1, kt}, one = aff_const(1);
		struct affine t;
		if (!aff_add_scaled(ck->arena, &k, -1, lo, f0) ||
		    !aff_add_scaled(ck->arena, hi, -1, &k, &t) ||
		    !aff_add_scaled(ck->arena, &t, -1, &one, f1)) {
			diag_error(ck->dg, l->var->span, "the range of '%s' does not fit in 64 bits",
				   l->var->name);
			continue;
		}
		at[0] = (struct cond_atom){.kind = ATOM_GE0, .span = l->var->span, .f = *f0};
		at[1] = (struct cond_atom){.kind = ATOM_GE0, .span = l->var->span, .f = *f1};
		l->range = at;
		l->nrange = 2;
	}
}

struct checked_spec *check_spec(struct ast_spec *spec, struct diag *dg, struct session *session)
{
	struct checked_spec *cs = calloc(1, sizeof(*cs));
	if (cs)
		cs->arena = calloc(1, sizeof(*cs->arena));
	if (!cs || !cs->arena) {
		free(cs);
		diag_nomem(dg);
		return NULL;
	}
	cs->ast = spec;
	cs->arena->dg = dg;
	struct checker ck = {.dg = dg, .cs = cs, .arena = cs->arena};
	int before = dg->nerrors;

	if (spec_is_empty(spec)) {
		diag_error(dg, (struct span){1, 1, 1, 1}, "empty specification: nothing is declared");
		checked_spec_free(cs);
		return NULL;
	}

	struct ptr_list params = {0}, axes = {0}, arrays = {0}, dists = {0}, steps = {0};
	collect_decls(&ck, spec, &params, &axes, &arrays, &dists, &steps);
	cs->nsizes = params.n;
	check_loops(&ck, spec, &params);
	cs->params = (const struct ast_param **)params.v;
	cs->nparams = params.n;
	cs->axes = (const struct ast_param **)axes.v;
	cs->naxes = axes.n;
	cs->arrays = (struct ast_array **)arrays.v;
	cs->narrays = arrays.n;
	cs->dists = (const struct ast_dist **)dists.v;
	cs->ndists = dists.n;
	cs->supersteps = (const struct ast_superstep **)steps.v;
	cs->nsupersteps = steps.n;
	if (dg->nomem)   /* the declarations may lack a part: nothing else is checked */
		goto done;

	/* extents */
	for (int a = 0; a < cs->narrays; a++) {
		struct ast_array *arr = cs->arrays[a];
		for (int i = 0; i < arr->rank; i++)
			if (resolve(&ck, arr->extents[i], CX_AFFINE))
				need_affine(&ck, arr->extents[i], "extent", arr->name);
	}
	/* assumptions */
	struct ptr_list atoms = {0};
	for (int i = 0; i < spec->nitems; i++) {
		struct ast_item *it = spec->items[i];
		if (it->kind != ITEM_ASSUME)
			continue;
		for (int k = 0; k < it->nconds; k++) {
			struct ptr_list one = {0};
			check_cond(&ck, it->conds[k], false, false, &one);
			for (int j = 0; j < one.n; j++)
				decl_push(&ck, &atoms, one.v[j]);
			it->conds[k]->atoms = atoms_to_array(&ck, &one, &it->conds[k]->natoms);
		}
	}
	cs->assumptions = atoms_to_array(&ck, &atoms, &cs->nassumptions);
	for (int d = 0; d < cs->ndists; d++)
		check_dist(&ck, (struct ast_dist *)cs->dists[d]);
	expand_candidates(&ck, cs, spec);

	/* statements */
	bool isl_ready = bounds_init(&ck, session) == 0;
	for (int i = 0; i < cs->nsupersteps; i++) {
		struct ast_superstep *st = (struct ast_superstep *)cs->supersteps[i];
		if (st->nstmts == 0)
			diag_warning(dg, st->name_span, "superstep '%s' is empty", st->name);
		ck.cand = st->cand;
		ck.loop = st->loop;
		for (int k = 0; k < st->nstmts && !dg->stopped && !dg->nomem; k++) {
			ck.isl_ready = isl_ready;
			check_stmt(&ck, st->stmts[k]);
		}
		ck.cand = NULL;
		ck.loop = NULL;
	}
	bounds_done(&ck);
	if (dg->nomem)
		goto done;
	/* unused arrays: only meaningful once there are supersteps */
	for (int a = 0; a < cs->narrays && cs->nsupersteps > 0; a++)
		if (!cs->arrays[a]->used)
			diag_warning(dg, cs->arrays[a]->name_span, "array '%s' is never used", cs->arrays[a]->name);
done:
	free(ck.globals.slots);
	free(ck.scope);
	free(ck.quants);
	free(ck.stmt_vars.v);
	free(ck.refs.v);
	if (dg->nerrors != before || dg->stopped) {
		checked_spec_free(cs);
		return NULL;
	}
	return cs;
}

void checked_spec_free(struct checked_spec *cs)
{
	if (!cs)
		return;
	free(cs->params);
	free(cs->axes);
	free(cs->arrays);
	free(cs->dists);
	free(cs->supersteps);
	arena_free(cs->arena);
	free(cs);
}

char *floor_to_string(const struct affine_floor *fl, const struct checked_spec *cs,
		      struct ast_var *const *vars)
{
	char *num = affine_to_string(&fl->num, cs, vars);
	const char *name = fl->den ? NULL : fl->den_term.kind == SYM_PARAM
						  ? cs->params[fl->den_term.index]->name
						  : cs->axes[fl->den_term.index]->name;
	char *den = NULL;
	if (!num || (name && (fl->den_term.coef == 1
				      ? asprintf(&den, "%s", name)
				      : asprintf(&den, "(%lld*%s)", fl->den_term.coef, name)) < 0)) {
		free(num);
		return NULL;
	}
	char *r = NULL;
	bool atom = fl->num.nterms == 0 || (fl->num.nterms == 1 && fl->num.constant == 0 &&
					    fl->num.terms[0].coef == 1);
	int n = fl->kind == FLOOR_MOD ? asprintf(&r, atom ? "%s %% %s" : "(%s) %% %s", num, den)
		: den ? asprintf(&r, atom ? "floor(%s/%s)" : "floor((%s)/%s)", num, den)
		      : asprintf(&r, atom ? "floor(%s/%lld)" : "floor((%s)/%lld)", num, fl->den);
	free(num);
	free(den);
	return n < 0 ? NULL : r;
}

int affine_print(FILE *out, const struct affine *f, const struct checked_spec *cs,
		 struct ast_var *const *vars)
{
	struct text_linear l = {out, 0};
	int r = 0;
	for (int i = 0; i < f->nterms; i++) {
		const struct affine_term *t = &f->terms[i];
		char *floor_text = t->kind == SYM_FLOOR ? floor_to_string(t->floor, cs, vars) : NULL;
		if (t->kind == SYM_FLOOR && !floor_text)
			r = -1;
		const char *name = t->kind == SYM_PARAM ? cs->params[t->index]->name
				   : t->kind == SYM_GRID_AXIS ? cs->axes[t->index]->name
				   : t->kind == SYM_FLOOR ? (floor_text ? floor_text : "?")
				   : vars ? vars[t->index]->name : "?";
		text_linear_term(&l, t->coef, name);
		free(floor_text);
	}
	text_linear_end(&l, f->constant);
	return r;
}

char *affine_to_string(const struct affine *f, const struct checked_spec *cs, struct ast_var *const *vars)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	int r = affine_print(t.f, f, cs, vars);
	char *buf = text_close(&t);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
