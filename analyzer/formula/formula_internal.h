/* The representation behind struct formula, shared by formula*.c only.
 *
 * All values of one formula live in one polynomial ring (struct fvars): its
 * variables are the parameters and the floor atoms, each atom floor(arg) with arg
 * an expression over variables that come before it.  A ring is reference counted
 * and never changes once its formula is built; combining two formulas builds a
 * new ring and translates both into it.  The FLINT context has `cap` variables,
 * of which the first `n` are defined (the rest are never used: the size of a new
 * ring has to be fixed before its atoms are known). */
#ifndef BSPCOST_FORMULA_INTERNAL_H
#define BSPCOST_FORMULA_INTERNAL_H

/* FLINT's headers sit in -I/usr/include/flint, so they are not treated as system
 * headers and their inline functions trip -Wextra: silence that for them only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <fmpq.h>
#include <fmpq_mpoly.h>
#include <fmpq_mpoly_factor.h>
#pragma GCC diagnostic pop
#include <isl/set.h>

#include "analyzer/formula/formula.h"

struct fnode;

struct fvar {
	char *name;        /* parameter name; NULL for a floor atom */
	struct fnode *arg; /* floor atom: floor(arg), over earlier variables */
};

struct factor_entry;

struct fvars {
	int refs;
	slong n, cap;
	struct fvar *v;
	fmpq_mpoly_ctx_t ctx;
	/* factorizations done in this ring (fml_factor): a memo, the only part of
	 * a built ring that changes; a ring is used by one thread at a time */
	struct factor_entry **factors;
	int nfactors;
};

enum fkind { FK_POLY, FK_ADD, FK_MUL, FK_MAX, FK_MIN };

/* FK_POLY: the Laurent polynomial num / prod_i x_i^den[i], normalized so that no
 * x_i with den[i] > 0 divides num (and den is 0 when num is 0): equal values have
 * equal representations.  Other kinds: n >= 2 children. */
struct fnode {
	enum fkind kind;
	fmpq_mpoly_t num;
	slong *den;
	int n;
	struct fnode **c;
};

struct fpiece {
	isl_set *cond; /* NULL: everywhere */
	struct fnode *val;
};

struct formula {
	struct fvars *vars;
	int n;
	struct fpiece *p;
	enum formula_outside outside;
	/* p[0] holds at the typical point (formula_typical_first): printed
	 * first, the others after it in their usual order */
	bool typical;
	/* The pieces' conditions are pairwise disjoint on this set (NULL: not
	 * known), which coalescing then need not make them: set where that is
	 * known by construction (formula_coalesce_apart's result, on its
	 * context; binop's of two such operands; on_context's), never copied
	 * with a formula whose conditions change (formula_copy leaves it out) */
	isl_set *apart_in;
};

/* Whether the parameter point NAMES[i] = VALUES[i] (0 <= i < N) lies in
 * COND (kept): 1, 0, or -1 on error.  A parameter COND depends on that has
 * no value makes it -1, or with SOME is left to any value (the point lies
 * in COND for some value of it). */
int fml_cond_contains(__isl_keep isl_set *cond, const char *const names[],
	const long long values[], int n, bool some);

/* Rings. */
struct fvars *fml_vars_new(slong cap);
void fml_vars_unref(struct fvars *V);
/* fmpq_mpoly_factor(F, A) in ring V, remembered: tidying and printing a
 * formula factor the same polynomials over and over (each max's operands
 * compared piece by piece), and FLINT's factoring dominated their time.
 * F is initialized by the caller; returns FLINT's answer. */
int fml_factor(const struct fvars *V, fmpq_mpoly_factor_t f, const fmpq_mpoly_t A);
slong fml_vars_find(const struct fvars *V, const char *name);
slong fml_vars_param(struct fvars *V, const char *name);
slong fml_vars_atom(struct fvars *V, struct fnode *arg);

/* Nodes (in ring V).  Functions named *_take consume their node arguments.  All
 * return NULL on failure. */
/* A new node of KIND: the polynomial 0, or an inner node with no children. */
struct fnode *fml_node_alloc(const struct fvars *V, enum fkind kind);
/* Cancels the powers common to X's numerator and denominator (X polynomial);
 * 0, or -1 with X unchanged when its scratch exponents cannot be allocated. */
int fml_poly_normalize(const struct fvars *V, struct fnode *x);
struct fnode *fml_poly_zero(const struct fvars *V);
struct fnode *fml_poly_fmpq(const struct fvars *V, const fmpq_t c);
struct fnode *fml_poly_si(const struct fvars *V, slong c);
struct fnode *fml_poly_var(const struct fvars *V, slong i);
/* Whether X is a polynomial node of a rational constant: a constant
 * numerator and no denominator. */
bool fml_poly_is_constant(const struct fvars *V, const struct fnode *x);
/* A + B, or A - B with NEGATE_B, of two polynomial nodes (neither taken). */
struct fnode *fml_poly_add(const struct fvars *V, const struct fnode *a,
	const struct fnode *b, int negate_b);
void fml_node_free(const struct fvars *V, struct fnode *x);
struct fnode *fml_node_copy(const struct fvars *V, const struct fnode *x);
struct fnode *fml_add_take(const struct fvars *V, struct fnode *a, struct fnode *b);
struct fnode *fml_mul_take(const struct fvars *V, struct fnode *a, struct fnode *b);
struct fnode *fml_maxmin_take(const struct fvars *V, enum fkind kind,
	struct fnode *a, struct fnode *b);
struct fnode *fml_pow(const struct fvars *V, const struct fnode *x, slong k);
struct fnode *fml_floor_take(struct fvars *V, struct fnode *arg);
int fml_node_cmp(const struct fvars *V, const struct fnode *a, const struct fnode *b);
int fml_node_equal(const struct fvars *V, const struct fnode *a, const struct fnode *b);
/* NUM (degree <= 1 in the parameters and floor atoms of V) as an isl_aff on
 * SPACE, atoms as floors of their own affine arguments; NULL when NUM is not
 * affine, an atom's argument is not, or a parameter is not in SPACE. */
__isl_give isl_aff *fml_mpoly_aff(const struct fvars *V, const fmpq_mpoly_t num,
	__isl_keep isl_space *space);
int fml_poly_is_zero(const struct fvars *V, const struct fnode *x);
/* Marks in USED (V->cap entries) the variables X depends on, atoms' own
 * arguments included. */
void fml_node_used(const struct fvars *V, const struct fnode *x, char *used);

/* Translation between rings (formula_ring.c): X (over F) as a node over T, where
 * variable i of F stands for VMAP[i]. */
struct fnode *fml_translate(const struct fvars *F, const struct fnode *x,
	const struct fvars *T, struct fnode *const *vmap);
/* Defines in T every variable of F that VMAP (F->n entries) does not map yet,
 * and maps it; 0 or -1. */
int fml_vars_import(struct fvars *T, const struct fvars *F, struct fnode **vmap);
/* Frees VMAP (NULL allowed) and its N nodes, which are over T. */
void fml_vmap_free(const struct fvars *T, struct fnode **vmap, slong n);

/* Formulas. */
struct formula *fml_formula_alloc(struct fvars *V, int n);
/* Appends a piece to F, whose array has room for *SIZE (COND and VAL taken; an
 * empty COND drops the piece, a universe one becomes NULL); 0 or -1. */
int fml_push_piece(struct formula *f, int *size, __isl_take isl_set *cond, struct fnode *val);
/* The intersection of two conditions, neither taken (NULL is everything). */
__isl_give isl_set *fml_cond_meet(__isl_keep isl_set *a, __isl_keep isl_set *b);
/* Whether the condition COND (NULL: everywhere) lies within WHERE; 1, 0 or
 * -1 (formula_subst.c). */
int fml_cond_within(__isl_keep isl_set *cond, __isl_keep isl_set *where);
/* Whether G involves a parameter that B does not (by name); -1 on failure
 * (formula_coalesce.c). */
int fml_names_more(__isl_keep isl_set *g, __isl_keep isl_set *b);
/* The pieces of F over T, VMAP mapping F's ring into T, with the zero piece
 * for the complement when F is zero-outside. */
struct fplist {
	isl_set **cond;
	struct fnode **val;
	char *is_zero_fill;
	int n;
};
/* Fills L with F's pieces; 0 or -1.  L is to be freed either way. */
int fml_plist_make(struct fplist *l, const struct formula *f, const struct fvars *T,
	struct fnode *const *vmap);
void fml_plist_free(const struct fvars *T, struct fplist *l);
/* floor(F) and F^K piece by piece; F^K with K < 0 needs single-term values. */
struct formula *fml_formula_floor(const struct formula *f);
struct formula *fml_formula_pow(const struct formula *f, slong k);
/* Exact value of X at the point; 0 or -1 (missing parameter, zero divisor). */
struct feval_env {
	const char *const *names;
	const long long *values;
	int n;
	fmpq *val;   /* per variable of the ring */
	char *state; /* 0 not computed, 1 computed */
};
int fml_node_eval(const struct fvars *V, const struct fnode *x,
	struct feval_env *env, fmpq_t out);
int fml_env_init(struct feval_env *env, const struct fvars *V,
	const char *const names[], const long long values[], int n);
void fml_env_clear(struct feval_env *env, const struct fvars *V);
/* The rational V (taken) in OUT (formula_isl.c). */
void fml_val_to_fmpq(fmpq_t out, __isl_take isl_val *v);

/* The most variables (parameters and distinct floors) of one formula.  FLINT
 * sorts a polynomial's terms by a radix sort whose recursion is as deep as an
 * exponent vector has bits: 15918 variables overflowed the stack.  A formula
 * with more than this many distinct floors is refused (fml_vars_new fails,
 * and with it the conversion), and no person could read it anyway. */
#define FML_MAX_VARS FORMULA_MAX_TERMS

/* A piece's condition and what is known of it: whether variable i of the
 * ring is at least 0 (at_least[0][i]) and at least 1 (at_least[1][i]) there,
 * each asked of ISL once (-1: not asked yet).  drop_bounded asks the same of
 * one condition for every pair of a max's operands. */
struct fml_on_cond {
	isl_set *cond;          /* kept */
	signed char at_least[2][FML_MAX_VARS];
	/* param_range's answers: 1 known (lo, hi), 0 none, -1 not asked */
	signed char range[FML_MAX_VARS];
	isl_val *lo[FML_MAX_VARS], *hi[FML_MAX_VARS];
	/* the condition's affine hull (NULL: not asked, or failed) */
	isl_basic_set *hull;
	/* the inequalities e >= 0 of its simple hull among the named
	 * parameters of ring INEQ_V, as polynomials there (INEQ_V NULL: not
	 * asked) */
	const struct fvars *ineq_v;
	fmpq_mpoly_struct *ineq;
	int nineq;
	bool bounding;          /* within a bound put in (lower_bound_sign) */
	/* points of the condition, found as fml_poly_sign_on needs them
	 * (sign_point): row ROW[s] of PTS (values of the condition's
	 * PT_NAMES) for way S of looking for one, -1 not looked for, -2 none */
	const char **pt_names;
	long long *pts;
	int *row;
	int pt_np, npts;
};

/* Whether some coefficient of P (in ring V) is positive (*POS), and some
 * negative (*NEG). */
void fml_coefficient_signs(const struct fvars *V, const fmpq_mpoly_t p, int *pos, int *neg);

void fml_on_cond_init(struct fml_on_cond *oc, __isl_keep isl_set *cond);
void fml_on_cond_clear(struct fml_on_cond *oc);

/* Whether X (a polynomial node in ring V) is > 0 at one point of OC's
 * condition and < 0 at another (formula_points.c): a sample, and the
 * points a step beyond it along each parameter X names, found once per
 * condition as needed and kept in OC. */
bool fml_both_signs_at_points(const struct fvars *V, const struct fnode *x,
			      struct fml_on_cond *oc);

/* The sign of the Laurent polynomial X on OC's condition (formula_sign.c):
 * 1 for X >= 0, -1 for X <= 0, 0 when that is not shown. */
int fml_poly_sign_on(const struct fvars *V, const struct fnode *x, struct fml_on_cond *oc);

#endif
